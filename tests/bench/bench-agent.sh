#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Slowdown of the JVMTI agent against the same JVM without it, measured
# side by side (runs alternate, best of N each), on
#   - AllocBench (tests/agent/AllocBench.java): allocation-heavy,
#   - javac compiling real sources (this repository's Java files),
#   - with --large: javac compiling java.util (126 files) from the
#     src.zip of a JDK that has one (JDK 25 here), ~40 s without agent,
# in full mode (every allocation; stack depth 2 = the default, 1 and 4) and sampled mode
# (sample-bytes=512k), plus trace bytes per recorded allocation.
#
#   tests/bench/bench-agent.sh [--large] [BUILD_DIR]     (default: build)
#   BENCH_RUNS=N   runs per configuration (default 2)
set -euo pipefail

large=0
if [ "${1:-}" = "--large" ]; then large=1; shift; fi
src_dir="$(cd "$(dirname "$0")/../.." && pwd)"
build_dir="$(cd "${1:-$src_dir/build}" && pwd)"
runs="${BENCH_RUNS:-2}"
agent="$build_dir/src/agent/libtidemark-agent.so"
cli="$build_dir/src/cli/tidemark-cli"
classes="$build_dir/tests/agent"
[ -f "$agent" ] || { echo "bench-agent: $agent not built (meson -Dagent=enabled)" >&2; exit 2; }
[ -f "$classes/AllocBench.class" ] || { echo "bench-agent: $classes/AllocBench.class not built" >&2; exit 2; }

# the JDK the agent was built against (see src/agent/meson.build)
jdk="$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print(next(x["env"]["TM_JAVA_HOME"] for x in t if "TM_JAVA_HOME" in x.get("env",{})))' \
       "$build_dir/meson-info/intro-tests.json")"
java="$jdk/bin/java"
javac="$jdk/bin/javac"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS

now () { date +%s.%N; }

# run_once LABEL AGENT_OPTS CMD... -> seconds on stdout (trace kept in $tmp/LABEL.tmtrace)
run_once () {
  local label="$1" opts="$2"; shift 2
  local t0 t1
  rm -rf "$tmp/out"; mkdir -p "$tmp/out"
  t0=$(now)
  if [ -n "$opts" ]; then
    JAVA_TOOL_OPTIONS="-agentpath:$agent=output=$tmp/$label.tmtrace,$opts" "$@" >/dev/null 2>"$tmp/err" \
      || { cat "$tmp/err" >&2; exit 1; }
  else
    "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  fi
  t1=$(now)
  echo "$t1 - $t0" | bc -l
}

# bench NAME CMD...: prints one table row per mode
bench () {
  local name="$1"; shift
  local modes=(none "full:stack-depth=2" "full-depth1:stack-depth=1" "full-depth4:stack-depth=4" "sampled-512k:sample-bytes=524288")
  declare -A best
  for ((r = 0; r < runs; r++)); do
    for m in "${modes[@]}"; do
      local label="${m%%:*}" opts=""
      [ "$m" != none ] && opts="${m#*:}"
      local t; t=$(run_once "$label" "$opts" "$@")
      if [ -z "${best[$label]:-}" ] || (( $(echo "$t < ${best[$label]}" | bc -l) )); then best[$label]=$t; fi
    done
  done
  for m in "${modes[@]}"; do
    local label="${m%%:*}"
    local ratio; ratio=$(echo "${best[$label]} / ${best[none]}" | bc -l)
    if [ "$label" = none ]; then
      printf "| %s | %s | %.2f s | 1.00 | | | |\n" "$name" "$label" "${best[$label]}"
    else
      local size allocs
      size=$(stat -c %s "$tmp/$label.tmtrace")
      allocs=$("$cli" info "$tmp/$label.tmtrace" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["allocs"])')
      printf "| %s | %s | %.2f s | **%.2f** | %d | %.2f MiB | %.2f |\n" "$name" "$label" "${best[$label]}" "$ratio" \
        "$allocs" "$(echo "$size / 1048576" | bc -l)" "$(echo "$size / $allocs" | bc -l)"
    fi
  done
}

echo "bench-agent: $("$java" -version 2>&1 | head -1), best of $runs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| workload | mode | time | slowdown | allocations recorded | trace | bytes/allocation |"
echo "|---|---|---|---|---|---|---|"
bench "AllocBench 200" "$java" -cp "$classes" AllocBench 200
bench "javac (repo sources)" "$javac" -d "$tmp/out" \
  "$src_dir"/tests/agent/*.java "$src_dir/data/demo/LeakDemo.java" "$src_dir/src/agent/TidemarkAgentHelper.java"

if [ "$large" = 1 ]; then
  zip=""
  for z in "$jdk/lib/src.zip" /usr/lib/jvm/*/lib/src.zip; do
    if [ -f "$z" ]; then zip="$z"; break; fi
  done
  if [ -z "$zip" ]; then
    echo "bench-agent: no src.zip found for --large" >&2
  else
    zjdk="$(dirname "$(dirname "$zip")")"
    mkdir -p "$tmp/jsrc"
    unzip -qo "$zip" 'java.base/java/util/*' -d "$tmp/jsrc"
    runs=1 bench "javac java.util ($(basename "$zjdk"))" "$zjdk/bin/javac" --patch-module java.base="$tmp/jsrc/java.base" \
      -d "$tmp/out" "$tmp"/jsrc/java.base/java/util/*.java
  fi
fi
