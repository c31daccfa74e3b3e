#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds a reader's libFuzzer target with clang + ASan + UBSan in a build
# directory of its own and fuzzes it for a bounded time, starting from its
# seed corpus, with its dictionary.
# Usage: run-libfuzzer.sh SRCDIR [SECONDS] [TARGET] [-- LIBFUZZER OPTIONS...]
#   TARGET: trace-reader (default), heaptrack or dsl
# TM_FUZZ_CORPUS=DIR keeps the corpus (and what libFuzzer adds to it) there.
set -euo pipefail
src=${1:?source dir}
secs=${2:-60}
target=${3:-trace-reader}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
build=${TM_BUILD_DIR:-$src/build}/fuzz-libfuzzer
fuzz=$src/tests/fuzz
if ! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long s){return 0;}' \
     | clang -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "1..0 # SKIP clang has no libFuzzer here"; exit 77
fi
# one configuration at a time (the suite may start several targets)
exec 9> "${TM_BUILD_DIR:-$src/build}/.fuzz-libfuzzer.lock"
flock 9
if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$src" -Dgui=disabled -Dagent=disabled -Dfuzzing=true \
     -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$build" "tests/fuzz/fuzz-$target" src/cli/tidemark-cli >/dev/null
flock -u 9
corpus=${TM_FUZZ_CORPUS:-}
if [ -z "$corpus" ]; then
  corpus=$(mktemp -d)
  trap 'rm -rf "$corpus"' EXIT
fi
mkdir -p "$corpus"
export ASAN_OPTIONS=detect_leaks=0   # the corpus tools; the fuzzer below checks leaks
case $target in
  trace-reader)
    for s in leak mixed churn; do
      "$build/src/cli/tidemark-cli" synth $s --scale 0.01 --gcs 8 --graph-every 3 -o "$corpus/$s.tmtrace" 2>/dev/null
      "$build/src/cli/tidemark-cli" synth $s --scale 0.01 --gcs 8 --graph-every 3 --raw -o "$corpus/$s.raw" 2>/dev/null
    done
    dict=$fuzz/trace.dict ;;
  heaptrack)
    cp "$fuzz"/corpus/heaptrack/* "$corpus"/
    dict=$fuzz/heaptrack.dict ;;
  dsl)
    cp "$fuzz"/corpus/dsl/* "$src"/dsl-library/*.ds "$corpus"/
    dict=$fuzz/dsl.dict ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build/tests/fuzz/fuzz-$target" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
   -timeout=10 -print_final_stats=1 -dict="$dict" "$@" "$corpus" 2>&1 | tail -15
# a crash, leak or sanitizer report makes the fuzzer exit non-zero (pipefail)
echo "1 passed, 0 failed"
