#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The shipped descriptions on a real JDK 17 heap: DsJvmProbe.java fills every
# collection of dsl-library, GCs, adds MORE (200) distinct elements to each,
# GCs; recorded by the agent with a graph at every GC.  Between the two GCs
# each structure's closure must grow by exactly what the JDK's layout
# implies (one node per element plus key and value, see below); a wrong or
# missing description gives another count.  Needs the agent.
set -euo pipefail
cli=${TIDEMARK_CLI:?}
src=${TM_SOURCE_DIR:?}
javac=${TM_JAVA_HOME:+$TM_JAVA_HOME/bin/}javac
java=${TM_JAVA_HOME:+$TM_JAVA_HOME/bin/}java
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$javac" --release 17 -d "$dir" "$src/tests/dsl/DsJvmProbe.java" || fail "javac"
JAVA_TOOL_OPTIONS= _JAVA_OPTIONS= "$cli" record -o "$dir/p.tmtrace" --graph-every 1 -- \
  "$java" -cp "$dir" DsJvmProbe > "$dir/record.log" 2>&1 || { cat "$dir/record.log"; fail "record"; }
grep -q '^DsJvmProbe ' "$dir/record.log" || { cat "$dir/record.log"; fail "program output"; }

# the two System.gc() of the program
"$cli" timeline "$dir/p.tmtrace" --json > "$dir/t.json" || fail "timeline"
read -r from to < <(python3 -c "
import json
g = [x['id'] for x in json.load(open('$dir/t.json'))['gcs'] if x['cause'] == 'System.gc()']
assert len(g) >= 2, g
print(g[0], g[1])") || fail "System.gc() GCs"
"$cli" ds-growth "$dir/p.tmtrace" --from-gc "$from" --to-gc "$to" --json > "$dir/g.json" || fail "ds-growth"

python3 - "$dir/g.json" <<'EOF' || fail "structure growth"
import json, sys
M = 200
d = json.load(open(sys.argv[1]))
mine = [e for e in d['structures'] if e['site'].startswith('DsJvmProbe.')]
# type -> (metric, exact growth in objects); maps: node + key + value per
# entry; sets (nested map): node + element, the shared PRESENT counted at
# both ends; linked lists and queues: node + element; array-backed: element
# (the array is replaced, not added); EnumMap: one value.
expect = {
  'java.util.HashMap': ('ds', 3 * M), 'java.util.LinkedHashMap': ('ds', 3 * M),
  'java.util.TreeMap': ('ds', 3 * M), 'java.util.Hashtable': ('ds', 3 * M),
  'java.util.WeakHashMap': ('ds', 3 * M), 'java.util.concurrent.ConcurrentHashMap': ('ds', 3 * M),
  'java.util.IdentityHashMap': ('ds', 2 * M),
  'java.util.Properties': ('deep_ds', 3 * M),
  'java.util.HashSet': ('deep_ds', 2 * M), 'java.util.LinkedHashSet': ('deep_ds', 2 * M),
  'java.util.TreeSet': ('deep_ds', 2 * M),
  'java.util.LinkedList': ('ds', 2 * M), 'java.util.concurrent.ConcurrentLinkedQueue': ('ds', 2 * M),
  'java.util.concurrent.ConcurrentLinkedDeque': ('ds', 2 * M),
  'java.util.concurrent.LinkedBlockingQueue': ('ds', 2 * M),
  'java.util.concurrent.LinkedBlockingDeque': ('ds', 2 * M),
  'java.util.ArrayList': ('ds', M), 'java.util.Vector': ('ds', M), 'java.util.Stack': ('ds', M),
  'java.util.ArrayDeque': ('ds', M), 'java.util.PriorityQueue': ('ds', M),
  'java.util.concurrent.CopyOnWriteArrayList': ('ds', M),
  'java.util.concurrent.ArrayBlockingQueue': ('ds', M),
  'java.util.concurrent.PriorityBlockingQueue': ('ds', M),
  'java.util.EnumMap': ('ds', 1),
}
seen = {}
for e in mine:
  seen.setdefault(e['type'], []).append(e)
missing = set(expect) - set(seen)
assert not missing, 'not detected: %s' % sorted(missing)
for t, (metric, n) in expect.items():
  grew = sorted(e[metric + '_objects'][1] - e[metric + '_objects'][0] for e in seen[t])
  assert n in grew, '%s: %s grew by %s objects, expected %d' % (t, metric, grew, n)
# the skip list adds index nodes at random levels on top of its entries
sl = seen['java.util.concurrent.ConcurrentSkipListMap'][0]
g = sl['ds_objects'][1] - sl['ds_objects'][0]
assert 3 * M <= g <= 4 * M, 'skip list grew by %d' % g
# the maps inside the sets and Properties are nested: hidden from the view
inner = ('java.util.HashSet.<init>', 'java.util.LinkedHashSet.<init>', 'java.util.TreeSet.<init>',
         'java.util.Properties.<init>')
assert not [e for e in d['structures'] if e['site'].startswith(inner)], 'nested structure shown'
# every collection owns what it gained, except WEAK_KEYS, an ArrayList
# whose elements are also the weak map's keys
patterns = sorted(e['pattern'] for e in seen['java.util.ArrayList'])
assert patterns == ['shared-ownership-container-growth', 'single-ownership-container-growth'], patterns
for t, es in seen.items():
  if t != 'java.util.ArrayList':
    assert [e['pattern'] for e in es] == ['single-ownership-container-growth'] * len(es), (t, es)
print('ok: %d structures of DsJvmProbe' % len(mine))
EOF
echo ok
