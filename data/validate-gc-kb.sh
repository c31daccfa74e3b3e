#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Validation of the knowledge base on held-out workloads (not in it):
# for each workload and goal, `tune` measures the JVM's default and the
# knowledge base's suggestion side by side in one run (alternating is not
# possible within tune, so both run back to back, RUNS times each) and
# prints the ratios as a Markdown table for docs/tune-validation.md.
#
#   data/validate-gc-kb.sh [BUILD_DIR] [RUNS_PER_CONFIG]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-3}
cli="$build/src/cli/tidemark-cli"
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -d "$classes" data/workloads/*.java

echo "| workload | goal | KB suggestion | flags | default | suggestion | ratio | noise |"
echo "|---|---|---|---|---|---|---|---|"
for w in Batch Session; do
  for goal in throughput latency footprint; do
    "$cli" tune -q --kb data/gc-kb.ini --goal "$goal" --runs-per-config "$runs" --max-configs 2 --json \
      -- java -cp "$classes" "$w" 1500 > "$classes/r.json"
    python3 - "$classes/r.json" "$w" "$goal" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); w, goal = sys.argv[2], sys.argv[3]
c = d['configs']
key = {'throughput': 'wall_s', 'latency': 'pause_p99_ns', 'footprint': 'peak_rss_bytes'}[goal]
def fmt(x):
    v = x[key]
    return f"{v:.2f} s" if goal == 'throughput' else f"{v/1e6:.1f} ms" if goal == 'latency' else f"{v/2**20:.0f} MiB"
base = c[0]
if len(c) < 2:
    print(f"| {w} | {goal} | none | | {fmt(base)} | | | |"); sys.exit()
s = c[1]
if s.get('failed'):
    print(f"| {w} | {goal} | {s['config']} | `{s['flags']}` | {fmt(base)} | failed: {s['error']} | | |"); sys.exit()
ratio = s[key] / base[key] if base[key] else float('nan')
noise = max(0.03, (base['wall_max_s'] - base['wall_min_s']) / base['wall_s']) if goal == 'throughput' else 0.03
print(f"| {w} | {goal} | {s['config']} | `{s['flags']}` | {fmt(base)} | {fmt(s)} | {ratio:.2f} | {noise:.2f} |")
PY
  done
done
