#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes a heap dump of about OBJECTS objects (default 1.1 x 10^7, which
# HeapDemo turns into ~10.25 M objects in the dump) with the bundled
# data/demo/HeapDemo and jcmd, then runs bench-hprof on it.  The dump is
# written to a scratch folder and removed afterwards (never committed).
#   tests/bench/bench-hprof.sh BUILD_DIR [OBJECTS] [--gzip]
set -euo pipefail
build=${1:?build dir}
objects=${2:-11000000}
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null || true; rm -rf "$dir"' EXIT
javac --release 17 -d "$dir" "$src/data/demo/HeapDemo.java"
mkfifo "$dir/in"
java -Xmx4g -XX:+UseParallelGC -cp "$dir" HeapDemo "$objects" < "$dir/in" > "$dir/out" &
pid=$!
exec 3> "$dir/in"
until grep -q READY "$dir/out" 2>/dev/null; do sleep 0.5; done
if [ "${3:-}" = --gzip ]; then
  dump="$dir/heap.hprof.gz"; jcmd "$pid" GC.heap_dump -gz=1 "$dump" >/dev/null
else
  dump="$dir/heap.hprof"; jcmd "$pid" GC.heap_dump "$dump" >/dev/null
fi
exec 3>&-
wait "$pid" || true
ls -l "$dump"
"$build/tests/bench/bench-hprof" "$dump" --runs 3
