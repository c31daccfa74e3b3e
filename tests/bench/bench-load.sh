#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Load time side by side in one run: `zstd -dc FILE`, and `tidemark-cli
# info FILE` of two builds (e.g. main before a loader change and the
# change), alternating RUNS times so that machine noise hits all three
# alike.  Medians of wall time and of CPU time (user + system, both
# threads), and the ratios the loader's goal is stated in (load / zstd).
#
#   tests/bench/bench-load.sh [-n RUNS] OLD_CLI NEW_CLI FILE...
#
# Prints a Markdown table and the load average before and after.
set -eu
runs=5
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
old=${1:?usage: bench-load.sh [-n RUNS] OLD_CLI NEW_CLI FILE...}
new=${2:?usage: bench-load.sh [-n RUNS] OLD_CLI NEW_CLI FILE...}
shift 2
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one LABEL CMD...: appends "wall cpu" to $tmp/LABEL
one () {
  label=$1; shift
  $TIME -f '%e %U %S' -o "$tmp/t" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/t" >>"$tmp/$label"
}

# median COLUMN LABEL
median () {
  cut -d' ' -f"$1" "$tmp/$2" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | allocations | zstd -dc | old load | new load | **old / zstd** | **new / zstd** | new / old (wall) | old CPU | new CPU | new / old (CPU) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
  rm -f "$tmp/z" "$tmp/o" "$tmp/n"
  allocs=$("$new" info "$f" --json 2>/dev/null | sed -n 's/.*"allocs": \([0-9]*\).*/\1/p' | head -n 1)
  zstd -dc -q "$f" >/dev/null   # the page cache
  i=0
  while [ $i -lt "$runs" ]; do
    one z zstd -dc -q "$f"
    one o "$old" info "$f"
    one n "$new" info "$f"
    i=$((i + 1))
  done
  z=$(median 1 z) o=$(median 1 o) n=$(median 1 n) oc=$(median 2 o) nc=$(median 2 n)
  awk -v f="$(basename "$f")" -v a="${allocs:-0}" -v z="$z" -v o="$o" -v n="$n" -v oc="$oc" -v nc="$nc" 'BEGIN {
    zz = z > 0 ? z : 0.01
    printf "| %s | %d | %.2f s | %.2f s | %.2f s | **%.2f** | **%.2f** | %.2f | %.2f s | %.2f s | %.2f |\n",
           f, a, z, o, n, o / zz, n / zz, n / o, oc, nc, (oc > 0 ? nc / oc : 0) }'
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, medians"
