#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Validation on held-out workloads (not in the knowledge base), per goal:
#  1. `tune` searches from the knowledge base's suggestion and recommends
#     a configuration (or the default when nothing beat the noise);
#  2. a second, independent `tune` run measures the default and that
#     recommendation side by side (RUNS each), so the ratio is not the
#     one the search picked the winner on.
# Also the knowledge base's suggestion alone, measured the same way.
# Prints Markdown tables for docs/tune-validation.md.
#
#   data/validate-gc-kb.sh [BUILD_DIR] [RUNS_PER_CONFIG] [SEARCH_CONFIGS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-3}
search=${3:-6}
cli="$build/src/cli/tidemark-cli"
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -d "$classes" data/workloads/*.java

row() {   # JSON of a side-by-side run, workload, goal, what -> table row
  python3 - "$@" <<'PY'
import json, sys
path, w, goal, what = sys.argv[1:]
d = json.load(open(path)); c = d['configs']
key = {'throughput': 'wall_s', 'latency': 'pause_p99_ns', 'footprint': 'peak_rss_bytes'}[goal]
def fmt(x):
    v = x[key]
    return f"{v:.2f} s" if goal == 'throughput' else f"{v/1e6:.1f} ms" if goal == 'latency' else f"{v/2**20:.0f} MiB"
base = c[0]
noise = max(0.03, (base['wall_max_s'] - base['wall_min_s']) / base['wall_s']) if goal == 'throughput' else 0.03
if len(c) < 2:
    print(f"| {w} | {goal} | {what} | default | | {fmt(base)} | {fmt(base)} | 1.00 | {noise:.2f} |"); sys.exit()
s = c[1]
if s.get('failed'):
    print(f"| {w} | {goal} | {what} | {s['config']} | `{s['flags']}` | {fmt(base)} | failed: {s['error']} | | |"); sys.exit()
ratio = s[key] / base[key] if base[key] else float('nan')
print(f"| {w} | {goal} | {what} | {s['config']} | `{s['flags']}` | {fmt(base)} | {fmt(s)} | {ratio:.2f} | {noise:.2f} |")
PY
}

echo "| workload | goal | source | configuration | flags | default | configuration | ratio | noise |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in Batch Session; do
  for goal in throughput latency footprint; do
    # the knowledge base's suggestion alone
    "$cli" tune -q --kb data/gc-kb.ini --goal "$goal" --runs-per-config "$runs" --max-configs 2 --json \
      -- java -cp "$classes" "$w" 1500 > "$classes/kb.json"
    row "$classes/kb.json" "$w" "$goal" "KB suggestion"
    # tune's recommendation, then measured again side by side
    "$cli" tune -q --kb data/gc-kb.ini --goal "$goal" --runs-per-config 2 --max-configs "$search" --json \
      -- java -cp "$classes" "$w" 1500 > "$classes/search.json"
    rec=$(python3 -c "import json; print(json.load(open('$classes/search.json'))['recommended']['config'])")
    if [ "$rec" = default ]; then
      "$cli" tune -q --no-kb --goal "$goal" --runs-per-config "$runs" --max-configs 1 --json \
        -- java -cp "$classes" "$w" 1500 > "$classes/check.json"
    else
      "$cli" tune -q --no-kb --goal "$goal" --runs-per-config "$runs" --max-configs 2 --config "$rec" --json \
        -- java -cp "$classes" "$w" 1500 > "$classes/check.json"
    fi
    row "$classes/check.json" "$w" "$goal" "tune's recommendation"
  done
done
