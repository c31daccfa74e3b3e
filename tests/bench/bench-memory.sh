#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Peak memory of loading, side by side in one run: `tidemark-cli info` of
# two builds (e.g. main before a model change and the change) on the same
# files, and heaptrack_print on heaptrack files, with bytes per allocation.
#
#   tests/bench/bench-memory.sh OLD_CLI NEW_CLI FILE...
#
# Prints a Markdown table: peak RSS (GNU time's %M), seconds, and the
# peak RSS per allocation (allocations from `info --json`).
set -eu
old=${1:?usage: bench-memory.sh OLD_CLI NEW_CLI FILE...}
new=${2:?usage: bench-memory.sh OLD_CLI NEW_CLI FILE...}
shift 2
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 77; }

# run LABEL CMD...: "peak_kib seconds"
measure () {
  out=$($TIME -f '%M %e' "$@" 2>&1 >/dev/null | tail -n 1)
  echo "$out"
}

echo "| file | allocations | old peak RSS | new peak RSS | new / old | new peak RSS per allocation | old / new seconds | heaptrack_print peak RSS | new / heaptrack_print |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
  allocs=$("$new" info "$f" --json 2>/dev/null | sed -n 's/.*"allocs": \([0-9]*\).*/\1/p' | head -n 1)
  set -- $(measure "$old" info "$f")
  o_kib=$1 o_s=$2
  set -- $(measure "$new" info "$f")
  n_kib=$1 n_s=$2
  hp="-"
  ratio_hp="-"
  if command -v heaptrack_print >/dev/null && "$new" info "$f" --json 2>/dev/null | grep -q '"format": "heaptrack"'; then
    set -- $(measure heaptrack_print "$f")
    hp="$(( $1 / 1024 )) MiB"
    ratio_hp=$(awk "BEGIN { printf \"%.2f\", $n_kib / $1 }")
  fi
  awk -v f="$(basename "$f")" -v a="$allocs" -v o="$o_kib" -v n="$n_kib" -v hp="$hp" -v rhp="$ratio_hp" \
      -v os="$o_s" -v ns="$n_s" 'BEGIN {
    per = a > 0 ? n * 1024 / a : 0
    printf "| %s | %d | %.1f MiB | %.1f MiB | %.2f | %.1f B | %.2f / %.2f | %s | %s |\n", f, a, o / 1024, n / 1024, n / o, per, os, ns, hp, rhp }'
done
