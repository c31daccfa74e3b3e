#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# record --containers on a real JVM (ContainerLeak.java): two maps grow for
# the whole run; the cache (bigger, read 64 times per request) ranks first
# by size growth, the audit map (written, never read) ranks first by leak
# confidence, from exact staleness out of the recorded operations.
set -euo pipefail
. "$TM_SOURCE_DIR/tests/cli-test-lib.sh"

# record NAME OUTPUT-LINE-RE CLASS ARGS...: records the program with its
# container operations, checks its output, and writes NAME.g.json (size
# growth) and NAME.c.json (leak confidence) over all its GCs
record () {
  local name="$1" want="$2" t="$dir/$1.tmtrace" n; shift 2
  "$cli" record --containers --graph-every 1 -o "$t" -- "$TM_JAVA_HOME/bin/java" -XX:+UseSerialGC \
    -cp "$TM_AGENT_CLASSES" "$@" > "$dir/$name.out" 2> "$dir/$name.err" || fail "record $name: $(cat "$dir/$name.err")"
  grep -qx "$want" "$dir/$name.out" || fail "$name output: $(cat "$dir/$name.out")"
  n=$("$cli" info "$t" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['gcs'])")
  "$cli" ds-growth "$t" --from-gc 1 --to-gc "$n" --json > "$dir/$name.g.json" || fail "ds-growth $name"
  "$cli" containers "$t" --from-gc 1 --to-gc "$n" --top 0 --json > "$dir/$name.c.json" || fail "containers $name"
  "$cli" containers "$t" --from-gc 1 --to-gc "$n" | grep -q "exact" || fail "$name: text says exact"
}

# size growth: the cache first; leak confidence: the audit map first
record leak "[0-9]* 3000 3000" ContainerLeak 3000
python3 - "$dir/leak.g.json" "$dir/leak.c.json" <<'PY' || fail "rankings"
import json, sys
g = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
maps = [e for e in g['structures'] if e['type'] == 'java.util.HashMap' and 'ContainerLeak.<clinit>' in e.get('site', '')]
assert len(maps) == 2, [e.get('site') for e in g['structures'][:5]]
cache, audit = maps[0], maps[1]          # size growth order: the cache grows most
assert ':13' in cache['site'] and ':14' in audit['site'], (cache['site'], audit['site'])
cache_id, audit_id = cache['object_id'], audit['object_id']

assert c['staleness'] in ('exact', 'upper-bound'), c['staleness']
by_id = {x['object_id']: (i, x) for i, x in enumerate(c['containers'])}
assert audit_id in by_id, 'audit map not ranked'
ia, a = by_id[audit_id]
assert a['staleness'] == 'exact' and a['operations'] == 3000, a
assert a['adds'] > 2500 and a['removes'] == 0, a
assert a['sc'] > 0.35, a
assert any('ContainerLeak.main' in s['site'] for s in a['sites']), a['sites']
if cache_id in by_id:                     # ranked (not leak-free): below the audit map
    ic, ca = by_id[cache_id]
    assert ca['staleness'] == 'exact' and ca['operations'] > 3000 * 60, ca
    assert ca['sc'] < 0.1 and ca['lc'] < a['lc'] and ic > ia, (ca, a)
    assert ca['bytes'] > 3 * a['bytes'], (ca['bytes'], a['bytes'])
else:
    raise AssertionError('cache not ranked: it gained elements and lost none')
PY

# The operations beyond put/get/remove (ContainerOps.java): Vector and
# Stack, Hashtable, PriorityQueue, addAll, removeIf, removeAll and
# retainAll, a sublist's clear, get and set, replaceAll and replace on
# lists and maps, Vector.setElementAt, iterator removal, polls, and
# ConcurrentHashMap's putIfAbsent, computeIfAbsent and merge, each on its
# own container; the adds, removes and operations of each as counted by
# hand in the program's comments.
record ops "152 22222212222" ContainerOps
python3 - "$dir/ops.g.json" "$dir/ops.c.json" <<'PY' || fail "ContainerOps operations"
import json, sys
g = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
ours = {e['object_id']: e['type'] for e in g['structures'] if 'ContainerOps.<clinit>' in e.get('site', '')}
expected = {   # type: (adds, removes, operations, elements at the end: a map's keys and values)
    'java.util.Vector': (8, 6, 16, 2), 'java.util.Stack': (3, 1, 6, 2), 'java.util.Hashtable': (8, 6, 16, 4),
    'java.util.PriorityQueue': (6, 4, 11, 2), 'java.util.ArrayList': (8, 6, 15, 2),
    'java.util.LinkedList': (5, 3, 8, 2), 'java.util.ArrayDeque': (5, 4, 9, 1),
    'java.util.HashMap': (6, 4, 12, 4), 'java.util.TreeMap': (5, 3, 8, 4),
    'java.util.concurrent.ConcurrentHashMap': (4, 2, 8, 4), 'java.util.LinkedHashMap': (3, 1, 4, 4),
}
assert sorted(ours.values()) == sorted(expected), sorted(ours.values())
seen = set()
for x in c['containers']:
    if x['object_id'] not in ours:
        continue
    t = ours[x['object_id']]
    got = (x['adds'], x['removes'], x['operations'], x['elements'])
    assert x['staleness'] == 'exact', (t, x)
    assert got == expected[t], (t, got, expected[t])
    assert all('ContainerOps.main' in s['site'] for s in x['sites']), (t, x['sites'])
    seen.add(t)
assert seen == set(expected), sorted(set(expected) - seen)
PY
echo ok
