#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Traces from a second spec-only writer (tests/tools/independent_liberties.py)
# that takes the format's other liberties (dense, offset, sparse and 2^62
# ids, per-object spaces and MOVES, definitions as late as allowed, GC kinds
# 1-4, empty graphs and roots/refs in any order, deaths after GRAPH_END,
# gc-0 deaths after a GC_END, no deaths at all, padded varints, zstd frames
# of a few bytes, per record, skippable and empty, raw streams, traces cut
# short in a GC or in a frame) must read back as its simulation says:
# timeline, occupancy per space, live and reachable objects, the heap by
# type/site/thread/space at chosen GCs, and short-lived objects by type.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}
n=0
for seed in ${TM_LIBERTY_SEEDS:-1 2}; do
  for variant in dense offset gaps high late-shuffle no-deaths no-deaths-gaps cut cut-frame; do
    python3 "$src/tests/tools/independent_liberties.py" "$dir/t.tmtrace" "$dir/truth.json" "$variant" "$seed"
    python3 "$src/tests/tools/check_independent.py" "$cli" "$dir/t.tmtrace" "$dir/truth.json" "$variant/$seed"
    n=$((n + 1))
  done
done
echo "$n passed, 0 failed"
