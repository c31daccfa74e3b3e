#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the reader's libFuzzer target with clang + ASan + UBSan in a build
# directory of its own and fuzzes it for a bounded time (default 60 s),
# starting from synthesized seed traces (or, for fuzz-hprof, hand-written
# heap dumps).  Usage: run-libfuzzer.sh SRCDIR [SECONDS] [TARGET]
set -euo pipefail
src=${1:?source dir}
secs=${2:-60}
target=${3:-fuzz-trace-reader}
build=${TM_BUILD_DIR:-$src/build}/fuzz-libfuzzer
if ! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long s){return 0;}' \
     | clang -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "1..0 # SKIP clang has no libFuzzer here"; exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$src" -Dgui=disabled -Dagent=disabled -Dfuzzing=true \
     -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$build" tests/fuzz/$target tests/fuzz/fuzz-replay-hprof src/cli/tidemark-cli >/dev/null
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
export ASAN_OPTIONS=detect_leaks=0   # the corpus tools; the fuzzer below checks leaks
if [ "$target" = fuzz-hprof ]; then
  "$build/tests/fuzz/fuzz-replay-hprof" --write-seeds "$corpus"
else
  for s in leak mixed churn; do
    "$build/src/cli/tidemark-cli" synth $s --scale 0.01 --gcs 8 --graph-every 3 -o "$corpus/$s.tmtrace" 2>/dev/null
    "$build/src/cli/tidemark-cli" synth $s --scale 0.01 --gcs 8 --graph-every 3 --raw -o "$corpus/$s.raw" 2>/dev/null
  done
fi
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build/tests/fuzz/$target" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
   -timeout=10 -print_final_stats=1 "$corpus" 2>&1 | tail -15
echo "1 passed, 0 failed"
