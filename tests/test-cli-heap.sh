#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli heap end to end: JSON shape and sums, the leak scenario's
# cache on top by retained size, shallow-only GCs, exit codes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" --scale 0.3 >/dev/null 2>&1 || fail "synth"
"$cli" timeline "$dir/leak.tmtrace" --json > "$dir/tl.json" || fail "timeline"
last=$(python3 -c "import json; print(len(json.load(open('$dir/tl.json'))['gcs']))")

"$cli" heap "$dir/leak.tmtrace" --gc "$last" --classify type,call-site --top 0 --json > "$dir/heap.json" \
  || fail "heap --json"
json "$dir/heap.json" "
tl = json.load(open('$dir/tl.json'))['gcs'][$last - 1]
assert d['gc'] == $last and d['metric'] == 'retained-bytes', d
assert d['classifiers'] == ['type', 'call-site']
t = d['tree']
for k in ['key','objects','bytes','deep_objects','deep_bytes','retained_objects','retained_bytes','children']: assert k in t, k
assert t['key'] == 'Overall'
assert t['objects'] == tl['live_objects'], (t['objects'], tl['live_objects'])
assert t['retained_bytes'] == t['bytes']
# children partition their parent; sorted by retained bytes
def walk(n):
  if n['children']:
    assert sum(c['objects'] for c in n['children']) == n['objects']
    assert sum(c['bytes'] for c in n['children']) == n['bytes']
    r = [c['retained_bytes'] for c in n['children']]
    assert r == sorted(r, reverse=True)
  for c in n['children']:
    assert c['objects'] <= c['retained_objects'] <= c['deep_objects'] <= t['objects']
    assert c['bytes'] <= c['retained_bytes'] <= c['deep_bytes']
    walk(c)
walk(t)
top = t['children'][0]
assert top['key'] == 'java.util.concurrent.ConcurrentHashMap', top['key']
j = [c for c in t['children'] if c['key'] == 'com.example.travel.Journey'][0]
assert j['retained_bytes'] == j['deep_bytes']
assert top['retained_bytes'] > j['deep_bytes']
assert j['children'] and all(c['key'].startswith('com.example.travel.JourneyCache.lookup(') for c in j['children'])
"

# --top limits the children and says how many were left out
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --top 3 --metric objects --json > "$dir/top.json" || fail "heap --top"
json "$dir/top.json" "
t = d['tree']
assert len(t['children']) == 3 and t['omitted_children'] > 0
o = [c['objects'] for c in t['children']]
assert o == sorted(o, reverse=True)
"

# a GC without a graph: shallow sizes, nulls, a note naming the nearest graphs
"$cli" heap "$dir/leak.tmtrace" --gc 15 --json > "$dir/shallow.json" 2> "$dir/shallow.err" || fail "shallow"
json "$dir/shallow.json" "
assert d['has_graph'] is False and d['metric'] == 'bytes'
assert d['tree']['retained_bytes'] is None and d['tree']['objects'] > 0
"
grep -q "nearest GCs with one are 10 and 20" "$dir/shallow.err" || fail "no-graph note"

# Data structures: the view of heads, the ds classifiers, --ds.
"$cli" heap "$dir/leak.tmtrace" --gc 200 --data-structures --classify type --json > "$dir/ds.json" 2>/dev/null || fail "--data-structures"
json "$dir/ds.json" "
heads = d['tree']['children'][0]
assert heads['key'] == 'Data structures', heads['key']
top = heads['children'][0]
# the leaking JourneyCache map retains the most of all structures
assert top['key'] == 'java.util.concurrent.ConcurrentHashMap', top['key']
assert top['retained_bytes'] > 0.8 * d['tree']['retained_bytes'], (top['retained_bytes'], d['tree']['retained_bytes'])
assert d['classifiers'] == ['data-structures', 'type']
"
"$cli" heap "$dir/leak.tmtrace" --gc 200 --classify containing-ds,type --top 0 --json > "$dir/cds.json" 2>/dev/null || fail "containing-ds"
json "$dir/cds.json" "
groups = {c['key']: c for c in d['tree']['children']}
assert '(no data structure)' in groups, list(groups)
cache = max((c for k, c in groups.items() if k.startswith('java.util.concurrent.ConcurrentHashMap @')), key=lambda c: c['objects'])
types = {c['key'] for c in cache['children']}
# the map's own parts belong to it; the key objects are its leaves
assert 'java.util.concurrent.ConcurrentHashMap\$Node' in types, types
assert 'com.example.travel.JourneyKey' in types, types
"
cat > "$dir/journey.ds" <<'DS'
// the cache's values as structures of their own
DS com.example.travel.Journey { java.lang.String; byte[]; }
DS
"$cli" heap "$dir/leak.tmtrace" --gc 200 --classify containing-ds --top 0 --ds "$dir/journey.ds" --json > "$dir/ds2.json" 2>/dev/null || fail "--ds"
json "$dir/ds2.json" "
journeys = [c for c in d['tree']['children'] if c['key'].startswith('com.example.travel.Journey @')]
# every leaked Journey is now a structure holding its name and payload
assert len(journeys) > 10, len(journeys)
assert all(c['objects'] >= 2 for c in journeys), [c['objects'] for c in journeys][:5]
"
"$cli" heap "$dir/leak.tmtrace" --gc 200 --classify containing-ds --top 0 --json > "$dir/ds3.json" 2>/dev/null
json "$dir/ds3.json" "assert not [c for c in d['tree']['children'] if c['key'].startswith('com.example.travel.Journey @')]"
"$cli" heap "$dir/leak.tmtrace" --gc 200 --classify leaves --top 0 --json > "$dir/lv.json" 2>/dev/null || fail "leaves"
json "$dir/lv.json" "assert len(d['tree']['children']) > 0"

# path to GC roots: a leaked Journey hangs off the static cache
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --path-to-roots com.example.travel.Journey --json > "$dir/path.json" \
  || fail "--path-to-roots GROUP"
json "$dir/path.json" "
p = d['path']
assert d['group'] == 'com.example.travel.Journey' and d['gc'] == $last, d
assert d['object']['type'] == 'com.example.travel.Journey', d['object']
assert p[-1] == d['object'], (p[-1], d['object'])
assert d['root_kind'] == 'static field', d['root_kind']
types = [o['type'] for o in p]
assert 'java.util.concurrent.ConcurrentHashMap' in types, types
assert d['retained_bytes'] > 0
"
# the same object by its id, as text
id=$(python3 -c "import json; print(json.load(open('$dir/path.json'))['object']['id'])")
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --path-to-roots "@$id" > "$dir/path.txt" || fail "--path-to-roots @ID"
grep -q "GC root (static field): " "$dir/path.txt" || fail "path text: $(cat "$dir/path.txt")"
grep -q -- "-> com.example.travel.Journey @$id " "$dir/path.txt" || fail "path ends at the object: $(cat "$dir/path.txt")"
# a group two levels down: Journey, then its first call site in the tree above
site=$(python3 -c "import json; t = json.load(open('$dir/heap.json'))['tree']
j = [c for c in t['children'] if c['key'] == 'com.example.travel.Journey'][0]
print(j['children'][0]['key'].replace('\\\\', '\\\\\\\\').replace('/', '\\\\/'))")
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --classify type,call-site --path-to-roots "com.example.travel.Journey/$site" \
  --json > "$dir/path2.json" || fail "--path-to-roots A/B"
json "$dir/path2.json" "assert d['object']['type'] == 'com.example.travel.Journey' and d['path'][-1] == d['object'], d"

set +e
"$cli" heap "$dir/leak.tmtrace" --gc 15 --data-structures > /dev/null 2>&1; [ $? -eq 2 ] || fail "data structures need a graph"
"$cli" heap "$dir/leak.tmtrace" --gc 15 --metric retained-bytes > "$dir/out" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$dir/out" ] || fail "retained without graph: rc=$rc"
"$cli" heap "$dir/leak.tmtrace" > /dev/null 2>&1; [ $? -eq 1 ] || fail "missing --gc"
"$cli" heap "$dir/leak.tmtrace" --gc 1 --classify type,nope > /dev/null 2>&1; [ $? -eq 1 ] || fail "bad classifier"
"$cli" heap "$dir/leak.tmtrace" --gc 1 --metric size > /dev/null 2>&1; [ $? -eq 1 ] || fail "bad metric"
"$cli" heap "$dir/leak.tmtrace" --gc 100000 > /dev/null 2>&1; [ $? -eq 1 ] || fail "GC out of range"
"$cli" heap "$dir/missing.tmtrace" --gc 1 > /dev/null 2>&1; [ $? -eq 2 ] || fail "missing file"
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --path-to-roots no.such.Type > /dev/null 2>&1; [ $? -eq 1 ] || fail "unknown group"
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --path-to-roots @x > /dev/null 2>&1; [ $? -eq 1 ] || fail "bad @ID"
"$cli" heap "$dir/leak.tmtrace" --gc "$last" --path-to-roots @99999999999 > /dev/null 2>&1; [ $? -eq 2 ] || fail "unknown id"
"$cli" heap "$dir/leak.tmtrace" --gc 15 --path-to-roots com.example.travel.Journey > /dev/null 2>"$dir/err"; [ $? -eq 2 ] \
  && grep -q "reference graph" "$dir/err" || fail "path without a graph: $(cat "$dir/err")"
head -c 3000 "$dir/leak.tmtrace" > "$dir/cut.tmtrace"
"$cli" heap "$dir/cut.tmtrace" --gc 1 > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "cut trace crashed: rc=$rc"
set -e
echo "ok"
