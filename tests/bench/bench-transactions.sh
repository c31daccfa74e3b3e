#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What `record --transaction` adds to full recording, measured side by
# side: javac compiling this repository's Java files with no agent, with
# the agent in full mode, and with the agent in full mode plus one
# transaction method (javac's Attr.attribClass, one run per class
# attributed).  Runs alternate; medians of N.
#
#   tests/bench/bench-transactions.sh [BUILD_DIR]   (default: build)
#   BENCH_RUNS=N   runs per configuration (default 5)
set -euo pipefail

src_dir="$(cd "$(dirname "$0")/../.." && pwd)"
build_dir="$(cd "${1:-$src_dir/build}" && pwd)"
runs="${BENCH_RUNS:-5}"
agent="$build_dir/src/agent/libtidemark-agent.so"
cli="$build_dir/src/cli/tidemark-cli"
[ -f "$agent" ] || { echo "bench-transactions: $agent not built" >&2; exit 2; }
javac="$(dirname "$(readlink -f "$(command -v javac)")")/javac"
tx="com.sun.tools.javac.comp.Attr.attribClass"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS
mapfile -t sources < <(find "$src_dir/tests" "$src_dir/src" "$src_dir/data" -name '*.java' | sort)

run_once () {
  local opts="$1" t0 t1
  rm -rf "$tmp/out"; mkdir -p "$tmp/out"
  t0=$(date +%s.%N)
  if [ -n "$opts" ]; then
    JAVA_TOOL_OPTIONS="-agentpath:$agent=output=$tmp/t.tmtrace,graph-every=0,$opts" \
      "$javac" -d "$tmp/out" "${sources[@]}" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  else
    "$javac" -d "$tmp/out" "${sources[@]}" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  fi
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

median () { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

: > "$tmp/none"; : > "$tmp/full"; : > "$tmp/tx"
for ((r = 0; r < runs; r++)); do
  run_once "" >> "$tmp/none"
  run_once "stack-depth=2" >> "$tmp/full"
  run_once "stack-depth=2,transaction=$tx" >> "$tmp/tx"
done
runs_recorded=$("$cli" transactions "$tmp/t.tmtrace" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"])')
none=$(median < "$tmp/none"); full=$(median < "$tmp/full"); txm=$(median < "$tmp/tx")
echo "javac on ${#sources[@]} files, median of $runs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "| no agent | %.2f s | 1.00 |\n" "$none"
printf "| full | %.2f s | %.2f |\n" "$full" "$(echo "$full / $none" | bc -l)"
printf "| full + --transaction %s (%s runs) | %.2f s | %.2f (%.2f x full) |\n" "$tx" "$runs_recorded" "$txm" \
  "$(echo "$txm / $none" | bc -l)" "$(echo "$txm / $full" | bc -l)"
