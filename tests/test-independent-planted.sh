#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Planted behaviours in traces of a spec-only writer
# (tests/tools/independent_planted.py): a leak held by one static
# ArrayList, a cache's warm-up plateau, a churn burst, a leak freed at exit,
# a leak ending in an OutOfMemoryError.  The CLI's analyses must give the
# writer's truth (tests/tools/check_planted.py): the heap by type at GCs,
# short-lived objects by type and site, reachable bytes, the leak window
# with its type first in trend, the ArrayList first in ds-growth and
# containers and named in the report, no leak verdict on the plateau, a
# churn window only inside the burst, the OOM event.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}
n=0
for seed in ${TM_PLANTED_SEEDS:-1 2}; do
  for scenario in leak plateau burst free-all oom; do
    python3 "$src/tests/tools/independent_planted.py" "$scenario" "$dir/t.tmtrace" "$dir/truth.json" "$seed"
    python3 "$src/tests/tools/check_planted.py" "$cli" "$dir/t.tmtrace" "$dir/truth.json" "$dir"
    n=$((n + 1))
  done
done
echo "$n passed, 0 failed"
