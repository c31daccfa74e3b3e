#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Rebuilds data/gc-kb.ini, the knowledge base `tune` and `advise` start
# from: compiles the bundled workloads and runs `tidemark-cli tune` on the
# six knowledge-base workloads (Batch and Session are held out for
# docs/tune-validation.md).  About 2-4 minutes on 2 cores.
#
#   data/build-gc-kb.sh [BUILD_DIR] [RUNS_PER_CONFIG]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-2}
cli="$build/src/cli/tidemark-cli"
kb=data/gc-kb.ini
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT

javac -d "$classes" data/workloads/*.java
rm -f "$kb.new"
# name, class, description (arguments: run time in ms)
while IFS='|' read -r name class desc; do
  echo "== $name" >&2
  "$cli" tune --no-kb --goal throughput --runs-per-config "$runs" --max-configs 9 --time-budget 120 \
    --save-to-kb "$kb.new" --name "$name" --description "$desc" -- java -cp "$classes" "$class" 1500 > /dev/null
done <<'LIST'
cache-heavy|Cache|LRU cache of 1 KiB values under a skewed key stream: medium-lived objects
churn-heavy|Churn|very high rate of short-lived objects, almost no live data
large-live-set|LiveSet|60 MB built once and read, short-lived results
many-threads|Threads|32 threads allocating concurrently, each with a small working set
bursty|Bursty|quiet phases and bursts that build and drop 20 MB batches
leak|Leak|a registry that grows by 10 MB/s under churn
LIST
{
  echo "# Tidemark GC knowledge base: workload features -> best configuration per goal."
  echo "# Built by data/build-gc-kb.sh with $(java -version 2>&1 | head -1) on $(nproc) CPUs; see docs/tune.md."
  cat "$kb.new"
} > "$kb"
rm -f "$kb.new"
echo "wrote $kb" >&2
