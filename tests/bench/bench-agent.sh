#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Slowdown of the JVMTI agent against the same JVM without it, measured
# side by side: every round runs each mode once, in turn (so load changes
# hit all modes alike), and each mode's median over the rounds is shown,
# with the load average before and after.  Wall time and CPU time
# (user + sys of the JVM, the steadier figure on a shared machine) are
# both shown.  Workloads:
#   - AllocBench (tests/agent/AllocBench.java): allocation-heavy, on one
#     thread and on four threads,
#   - javac compiling seven java.util sources from the JDK's src.zip
#     (openjdk-17-source; tidemark-dev.sh installs it),
#   - javac compiling this repository's Java files,
#   - with --large: javac compiling all of java.util (126 files).
# Modes: full (every allocation, default options: stack depth 2, graphs
# spaced by their cost), full with stack depth 1, sampled with
# sample-bytes=65536 and 524288; plus trace bytes per recorded allocation.
#
#   tests/bench/bench-agent.sh [--large] [BUILD_DIR]     (default: build)
#   BENCH_RUNS=N   rounds (default 3)
#   BENCH_ONLY=RE  only the workloads whose name matches RE (grep -E)
#   BENCH_MODES=RE only the modes whose label matches RE (none always runs)
#   BENCH_ALLOC_ROUNDS=N  AllocBench's rounds (default 200, 80 000 allocations each)
#   BENCH_BASE_AGENT=SO  also run full mode with this (older) agent build,
#                  as mode "full-base", side by side with the current one
#
#   tests/bench/bench-agent.sh --floors [BUILD_DIR]
# instead measures the JVM's floor under full recording on javac
# compiling BENCH_FLOOR_SOURCES (default: HashMap and ArrayList of
# java.util): a bare agent (tests/bench/bench-agent-floor.c) with an empty
# SampledObjectAlloc callback, then with SetTag (without and with
# ObjectFree events), then with SetTag and GetStackTrace at depth 2,
# against the Tidemark agent without stacks (stack-depth=0) and with its
# default depth 2.
#
#   tests/bench/bench-agent.sh --containers [BUILD_DIR]
# instead measures recording container operations (containers=1, as
# `record --containers`) against full recording without them and no
# agent: OpsBench (tests/agent/OpsBench.java, collection operations only,
# timed by its own loop) and javac compiling seven java.util sources; the
# cost per recorded operation and the trace bytes it adds.
set -euo pipefail

large=0
containers=0
floors=0
if [ "${1:-}" = "--large" ]; then large=1; shift; fi
if [ "${1:-}" = "--floors" ]; then floors=1; shift; fi
if [ "${1:-}" = "--containers" ]; then containers=1; shift; fi
src_dir="$(cd "$(dirname "$0")/../.." && pwd)"
build_dir="$(cd "${1:-$src_dir/build}" && pwd)"
runs="${BENCH_RUNS:-3}"
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

# run_once LABEL AGENT_OPTS CMD... -> "wall_seconds cpu_seconds" on stdout
# (trace kept in $tmp/LABEL.tmtrace); AGENT_OPTS may start with SO: to use
# another agent build
run_once () {
  local label="$1" opts="$2"; shift 2
  local t0 t1 so="$agent" with_agent=0
  rm -rf "$tmp/out" "$tmp/$label.tmtrace"; mkdir -p "$tmp/out"
  [ -n "$opts" ] && with_agent=1
  if [[ "$opts" == *.so:* ]]; then so="${opts%%:*}"; opts="${opts#*:}"; fi
  t0=$(now)
  if [ "$with_agent" = 1 ]; then
    JAVA_TOOL_OPTIONS="-agentpath:$so=output=$tmp/$label.tmtrace,$opts" \
      /usr/bin/time -f "%U %S" -o "$tmp/cpu" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  else
    /usr/bin/time -f "%U %S" -o "$tmp/cpu" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  fi
  t1=$(now)
  echo "$(echo "$t1 - $t0" | bc -l) $(awk '{ print $1 + $2 }' "$tmp/cpu")"
}

median () { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# bench NAME CMD...: prints one table row per mode
bench () {
  local name="$1"; shift
  if [ -n "${BENCH_ONLY:-}" ] && ! grep -qE "$BENCH_ONLY" <<< "$name"; then return; fi
  local all=(none "full:stack-depth=2" "full-depth1:stack-depth=1" "sampled-64k:sample-bytes=65536"
             "sampled-512k:sample-bytes=524288") modes=()
  if [ -n "${BENCH_BASE_AGENT:-}" ]; then all+=("full-base:$BENCH_BASE_AGENT:stack-depth=2"); fi
  if [ "$floors" = 1 ]; then all=("${floor_modes[@]}"); fi
  for m in "${all[@]}"; do
    if [ "$m" = none ] || [ -z "${BENCH_MODES:-}" ] || grep -qE "$BENCH_MODES" <<< "${m%%:*}"; then modes+=("$m"); fi
  done
  declare -A walls cpus
  for ((r = 0; r < runs; r++)); do
    for m in "${modes[@]}"; do
      local label="${m%%:*}" opts="" res
      [ "$m" != none ] && opts="${m#*:}"
      res=$(run_once "$label" "$opts" "$@")
      walls[$label]+="${res% *} "
      cpus[$label]+="${res#* } "
    done
  done
  local base cbase; base=$(echo ${walls[none]} | tr ' ' '\n' | median); cbase=$(echo ${cpus[none]} | tr ' ' '\n' | median)
  for m in "${modes[@]}"; do
    local label="${m%%:*}" med cmed
    med=$(echo ${walls[$label]} | tr ' ' '\n' | median)
    cmed=$(echo ${cpus[$label]} | tr ' ' '\n' | median)
    if [ "$label" = none ]; then
      printf "| %s | %s | %.2f s | 1.00 | %.2f s | 1.00 | | | | |\n" "$name" "$label" "$med" "$cmed"
    elif [ ! -f "$tmp/$label.tmtrace" ]; then
      # a floor agent: no trace
      printf "| %s | %s | %.2f s | **%.2f** | %.2f s | **%.2f** | | | | |\n" "$name" "$label" \
        "$med" "$(echo "$med / $base" | bc -l)" "$cmed" "$(echo "$cmed / $cbase" | bc -l)"
    else
      local size allocs graphs
      size=$(stat -c %s "$tmp/$label.tmtrace")
      read -r allocs graphs < <("$cli" info "$tmp/$label.tmtrace" --json \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["allocs"], d["graphs"])')
      printf "| %s | %s | %.2f s | **%.2f** | %.2f s | **%.2f** | %d | %d | %.2f MiB | %.2f |\n" "$name" "$label" \
        "$med" "$(echo "$med / $base" | bc -l)" "$cmed" "$(echo "$cmed / $cbase" | bc -l)" "$allocs" "$graphs" \
        "$(echo "$size / 1048576" | bc -l)" "$(echo "$size / $allocs" | bc -l)"
    fi
  done
}

# the sources of the JDK that compiles them (a newer JDK's java.util does
# not compile with an older javac)
zip=""
if [ -f "$jdk/lib/src.zip" ]; then zip="$jdk/lib/src.zip"; fi

# ---- --containers: the cost of container operations ----
# Wall time and CPU time (on a shared machine the CPU time is the steadier
# figure): OpsBench's loop timed by itself (its thread's CPU), javac as a
# whole process (user + system of the JVM and all its threads).
if [ "$containers" = 1 ]; then
  cmodes=(none "full:stack-depth=2" "containers:stack-depth=2,containers=1")
  rounds="${OPS_ROUNDS:-300}"
  # ops_once LABEL OPTS -> "wall-seconds cpu-seconds" of OpsBench's loop
  ops_once () {
    local label="$1" opts="$2" out
    if [ -n "$opts" ]; then
      out=$(JAVA_TOOL_OPTIONS="-agentpath:$agent=output=$tmp/ops-$label.tmtrace,$opts" \
            "$java" -cp "$classes" OpsBench "$rounds" 2>"$tmp/err") || { cat "$tmp/err" >&2; exit 1; }
    else
      out=$("$java" -cp "$classes" OpsBench "$rounds" 2>"$tmp/err") || { cat "$tmp/err" >&2; exit 1; }
    fi
    echo "$out" | awk '{ print $1 }' > "$tmp/ops-calls"
    echo "$out" | awk '{ print $2 / 1e9, $3 / 1e9 }'
  }
  # javac_once LABEL OPTS -> "wall-seconds cpu-seconds" of the whole JVM
  javac_once () {
    local label="$1" opts="$2" TIMEFORMAT='%R %U %S' t
    rm -rf "$tmp/out"; mkdir -p "$tmp/out"
    t=$( { time {
      if [ -n "$opts" ]; then
        JAVA_TOOL_OPTIONS="-agentpath:$agent=output=$tmp/javac-$label.tmtrace,$opts" "$javac" -nowarn \
          --patch-module java.base="$tmp/jsrc/java.base" -d "$tmp/out" $(find "$tmp/jsrc" -name '*.java') >/dev/null 2>&1
      else
        "$javac" -nowarn --patch-module java.base="$tmp/jsrc/java.base" -d "$tmp/out" \
          $(find "$tmp/jsrc" -name '*.java') >/dev/null 2>&1
      fi; } ; } 2>&1 )
    echo "$t" | awk '{ print $1, $2 + $3 }'
  }
  med () { tr ' ' '\n' | sed '/^$/d' | median; }
  # table NAME PREFIX: rows of the modes from the arrays wall_* and cpu_* and the traces PREFIX-LABEL.tmtrace
  table () {
    local name="$1" prefix="$2" bw bc fw fc fb=0
    bw=$(echo ${wall[none]} | med); bc=$(echo ${cpu[none]} | med)
    fw=$(echo ${wall[full]} | med); fc=$(echo ${cpu[full]} | med)
    for m in "${cmodes[@]}"; do
      local label="${m%%:*}" w c cops bytes
      w=$(echo ${wall[$label]} | med); c=$(echo ${cpu[$label]} | med)
      if [ "$label" = none ]; then
        printf "| %s | %s | %.2f s | %.2f s | 1.00 | | | | | |\n" "$name" "$label" "$w" "$c"; continue
      fi
      cops=$("$cli" info "$tmp/$prefix-$label.tmtrace" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["container_ops"])')
      bytes=$(stat -c %s "$tmp/$prefix-$label.tmtrace")
      if [ "$label" = full ]; then
        fb=$bytes
        printf "| %s | %s | %.2f s | %.2f s | %.2f | | %.2f MiB | | | |\n" "$name" "$label" "$w" "$c" \
          "$(echo "$c / $bc" | bc -l)" "$(echo "$bytes / 1048576" | bc -l)"
      else
        printf "| %s | %s | %.2f s | %.2f s | %.2f | %d | %.2f MiB | **%.2f us** | %.2f us | %.2f |\n" "$name" "$label" \
          "$w" "$c" "$(echo "$c / $bc" | bc -l)" "$cops" "$(echo "$bytes / 1048576" | bc -l)" \
          "$(echo "($c - $fc) * 1000000 / $cops" | bc -l)" "$(echo "($w - $fw) * 1000000 / $cops" | bc -l)" \
          "$(echo "($bytes - $fb) / $cops" | bc -l)"
      fi
    done
  }
  echo "bench-agent --containers: $("$java" -version 2>&1 | head -1), median of $runs alternating rounds, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| workload | mode | wall | CPU | CPU vs none | container ops recorded | trace | CPU per op (vs full) | wall per op (vs full) | trace bytes per op |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  declare -A wall cpu
  # alternate RUNNER: every round runs each mode once, in turn
  alternate () {
    local runner="$1" m label opts w c
    wall=(); cpu=()
    for ((r = 0; r < runs; r++)); do
      for m in "${cmodes[@]}"; do
        label="${m%%:*}"; opts=""; [ "$m" != none ] && opts="${m#*:}"
        read -r w c < <("$runner" "$label" "$opts")
        wall[$label]+="$w "; cpu[$label]+="$c "
      done
    done
  }
  alternate ops_once
  table "OpsBench $rounds ($(cat "$tmp/ops-calls") calls; its loop)" ops
  if [ -n "$zip" ]; then
    mkdir -p "$tmp/jsrc"
    unzip -qo "$zip" 'java.base/java/util/HashMap.java' 'java.base/java/util/TreeMap.java' \
      'java.base/java/util/ArrayList.java' 'java.base/java/util/LinkedList.java' 'java.base/java/util/Collections.java' \
      'java.base/java/util/Arrays.java' 'java.base/java/util/concurrent/ConcurrentHashMap.java' -d "$tmp/jsrc"
    alternate javac_once
    table "javac 7 java.util sources (whole JVM)" javac
  else
    echo "bench-agent: no src.zip (install openjdk-17-source): the javac row is left out" >&2
  fi
  echo
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

# ---- --floors: what the JVM costs under full recording, call by call ----
if [ "$floors" = 1 ]; then
  floor="$build_dir/tests/bench/libbench-agent-floor.so"
  [ -f "$floor" ] || { echo "bench-agent: $floor not built" >&2; exit 2; }
  [ -n "$zip" ] || { echo "bench-agent: no src.zip (install openjdk-17-source)" >&2; exit 2; }
  floor_modes=(none "event:$floor:" "event+tag-nofree:$floor:tag,nofree" "event+tag:$floor:tag"
               "event+tag+stack:$floor:tag,stack" "agent-depth0:stack-depth=0" "agent-depth2:stack-depth=2")
  sources="${BENCH_FLOOR_SOURCES:-HashMap ArrayList}"
  mkdir -p "$tmp/jsrc"
  for f in $sources; do unzip -qo "$zip" "java.base/java/util/$f.java" -d "$tmp/jsrc"; done
  echo "bench-agent --floors: $("$java" -version 2>&1 | head -1), median of $runs alternating rounds, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| workload | mode | wall | slowdown | CPU | CPU ratio | allocations recorded | graphs | trace | bytes/allocation |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  bench "javac $(echo $sources | wc -w) java.util sources" "$javac" -nowarn --patch-module java.base="$tmp/jsrc/java.base" \
    -d "$tmp/out" $(find "$tmp/jsrc" -name '*.java')
  echo
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

echo "bench-agent: $("$java" -version 2>&1 | head -1), median of $runs alternating rounds, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| workload | mode | wall | slowdown | CPU | CPU ratio | allocations recorded | graphs | trace | bytes/allocation |"
echo "|---|---|---|---|---|---|---|---|---|---|"
ab="${BENCH_ALLOC_ROUNDS:-200}"
bench "AllocBench $ab" "$java" -cp "$classes" AllocBench "$ab"
bench "AllocBench $ab, 4 threads" "$java" -cp "$classes" AllocBench "$ab" 4
if [ -n "$zip" ]; then
  mkdir -p "$tmp/jsrc"
  unzip -qo "$zip" 'java.base/java/util/HashMap.java' 'java.base/java/util/TreeMap.java' \
    'java.base/java/util/ArrayList.java' 'java.base/java/util/LinkedList.java' 'java.base/java/util/Collections.java' \
    'java.base/java/util/Arrays.java' 'java.base/java/util/concurrent/ConcurrentHashMap.java' -d "$tmp/jsrc"
  bench "javac 7 java.util sources" "$javac" -nowarn --patch-module java.base="$tmp/jsrc/java.base" -d "$tmp/out" \
    $(find "$tmp/jsrc" -name '*.java')
else
  echo "bench-agent: no src.zip (install openjdk-17-source): the JDK-sources row is left out" >&2
fi
bench "javac (repo sources)" "$javac" -d "$tmp/out" \
  "$src_dir"/tests/agent/*.java "$src_dir/data/demo/LeakDemo.java" "$src_dir/src/agent/TidemarkAgentHelper.java"

if [ "$large" = 1 ] && [ -n "$zip" ]; then
  unzip -qo "$zip" 'java.base/java/util/*' -d "$tmp/jall"
  runs=1 bench "javac java.util (all)" "$javac" -nowarn --patch-module java.base="$tmp/jall/java.base" \
    -d "$tmp/out" "$tmp"/jall/java.base/java/util/*.java
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
