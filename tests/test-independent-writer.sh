#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Traces from an independent writer (tests/tools/independent_writer.py,
# written from the spec alone) must read back exactly as that writer's own
# simulation says: times, pauses, occupancy, live objects, reachable bytes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}
n=0
for seed in 1 2 3 4 5 6; do
  for mode in "" "--no-deaths" "--raw"; do
    python3 "$src/tests/tools/independent_writer.py" "$dir/t.tmtrace" "$dir/exp.json" $seed $mode
    "$cli" timeline "$dir/t.tmtrace" --json > "$dir/got.json"
    "$cli" info "$dir/t.tmtrace" --json > "$dir/info.json"
    python3 - "$dir/exp.json" "$dir/got.json" "$dir/info.json" "$seed $mode" <<'PY'
import json, sys
exp = json.load(open(sys.argv[1])); got = json.load(open(sys.argv[2])); info = json.load(open(sys.argv[3]))
what = sys.argv[4]
assert info["complete"] is True, (what, info["warnings"])
assert info["warnings"] == [], (what, info["warnings"])
assert info["allocs"] == exp["allocs"], what
assert info["container_ops"] == exp["container_ops"], (what, info["container_ops"], exp["container_ops"])
if exp["deaths"] is not None:
    assert info["deaths"] == exp["deaths"], (what, info["deaths"], exp["deaths"])
assert len(got["gcs"]) == len(exp["gcs"]), what
for e, g in zip(exp["gcs"], got["gcs"]):
    for k in ("id", "start_ns", "end_ns", "pause_ns", "used_before", "used_after", "reachable_bytes"):
        assert e[k] == g[k], (what, e["id"], k, e[k], g[k])
    if e["live_objects"] is not None:
        assert e["live_objects"] == g["live_objects"], (what, e["id"], e["live_objects"], g["live_objects"])
PY
    n=$((n + 1))
  done
done
echo "$n passed, 0 failed"
