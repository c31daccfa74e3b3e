#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds a libFuzzer target with clang + ASan + UBSan in a build directory
# of its own and fuzzes it for a bounded time (default 60 s).
# Usage: run-libfuzzer.sh SRCDIR [SECONDS [TARGET [RUNS]]]
#   TARGET fuzz-trace-reader (default): seeds are synthesized traces, trace.dict.
#   TARGET fuzz-gclog: seeds tests/fuzz/gclog-seeds, dictionary gclog.dict.
#   TARGET fuzz-heaptrack: seeds tests/fuzz/corpus/heaptrack, heaptrack.dict.
#   TARGET fuzz-dsl: seeds tests/fuzz/corpus/dsl and dsl-library, dsl.dict.
#   TARGET fuzz-hprof: seeds written by fuzz-replay-hprof --write-seeds, and
#     tests/fuzz/corpus/hprof (inputs that once failed).
#   RUNS: stop after that many executions instead of after SECONDS.
# TM_FUZZ_CORPUS=DIR keeps the corpus (and what libFuzzer adds to it) there.
set -euo pipefail
src=${1:?source dir}
secs=${2:-60}
target=${3:-fuzz-trace-reader}
runs=${4:--1}
build=${TM_BUILD_DIR:-$src/build}/fuzz-libfuzzer
if ! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long s){return 0;}' \
     | clang -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "1..0 # SKIP clang has no libFuzzer here"; exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$src" -Dgui=disabled -Dagent=disabled -Dfuzzing=true \
     -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
tools=(src/cli/tidemark-cli)
[ "$target" = fuzz-hprof ] && tools+=(tests/fuzz/fuzz-replay-hprof)
ninja -C "$build" "tests/fuzz/$target" "${tools[@]}" >/dev/null
fuzz=$src/tests/fuzz
corpus=${TM_FUZZ_CORPUS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$corpus" ] || corpus=$tmp/corpus
mkdir -p "$corpus"
export ASAN_OPTIONS=detect_leaks=0   # the corpus tools; the fuzzer below checks leaks
extra=()
maxlen=65536
case "$target" in
  fuzz-trace-reader)
    for s in leak mixed churn; do
      "$build/src/cli/tidemark-cli" synth $s --scale 0.01 --gcs 8 --graph-every 3 -o "$corpus/$s.tmtrace" 2>/dev/null
      "$build/src/cli/tidemark-cli" synth $s --scale 0.01 --gcs 8 --graph-every 3 --raw -o "$corpus/$s.raw" 2>/dev/null
    done
    extra=(-dict="$fuzz/trace.dict") ;;
  fuzz-gclog)
    cp "$fuzz/gclog-seeds/"* "$corpus/"
    extra=(-dict="$fuzz/gclog.dict")
    maxlen=16384 ;;
  fuzz-heaptrack)
    cp "$fuzz/corpus/heaptrack/"* "$corpus/"
    extra=(-dict="$fuzz/heaptrack.dict") ;;
  fuzz-dsl)
    cp "$fuzz/corpus/dsl/"* "$src/dsl-library/"*.ds "$corpus/"
    extra=(-dict="$fuzz/dsl.dict") ;;
  fuzz-hprof)
    "$build/tests/fuzz/fuzz-replay-hprof" --write-seeds "$corpus"
    cp "$fuzz/corpus/hprof/"* "$corpus/" ;;
  *) echo "unknown target $target" >&2; exit 1 ;;
esac
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
log=$tmp/log
set +e
"$build/tests/fuzz/$target" -max_total_time="$secs" -runs="$runs" -rss_limit_mb=2048 -max_len=$maxlen \
   -timeout=10 -print_final_stats=1 "${extra[@]}" "$corpus" > "$log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
  # a crash, leak or timeout: show what libFuzzer said about it
  grep -v '^#[0-9]' "$log" | tail -60
  echo "1 passed, 1 failed"
  exit 1
fi
grep -E '^(Done|stat::)' "$log"
echo "1 passed, 0 failed"
