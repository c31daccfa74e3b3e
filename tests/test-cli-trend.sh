#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli trend end to end on the synthetic leak: the leaking types
# rank on top by absolute growth over the leak window, Other = total -
# shown, agreement with `heap` at the window's ends, drill-down into the
# allocation sites, retained sizes only at GCs with a graph, CSV, the
# data-structure classifiers (containing-ds, leaves, deep-leaves, --ds),
# exit codes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" >/dev/null 2>&1 || fail "synth"
t="$dir/leak.tmtrace"

# defaults: bytes, abs-growth, top 5 + Other
"$cli" trend "$t" --from-gc 40 --to-gc 200 --json > "$dir/trend.json" || fail "trend --json"
"$cli" timeline "$t" --json > "$dir/tl.json" || fail "timeline"
json "$dir/trend.json" "
tl = json.load(open('$dir/tl.json'))['gcs']
assert d['from_gc'] == 40 and d['to_gc'] == 200, d
assert d['metric'] == 'bytes' and d['sort'] == 'abs-growth' and d['top'] == 5 and d['other'] is True
assert d['gcs'] == list(range(40, 201))
s = d['series']
assert len(s) == 6 and s[5]['key'] == 'Other' and s[5]['other'] is True
keys = {x['key'] for x in s[:5]}
leak = {'java.util.concurrent.ConcurrentHashMap\$Node', 'com.example.travel.JourneyKey',
        'com.example.travel.Journey', 'java.lang.String', 'byte[]'}
assert keys == leak, keys
ranks = [x['rank_value'] for x in s[:5]]
assert ranks == sorted(ranks, reverse=True) and ranks[-1] > 0, ranks
for x in s:
  assert len(x['points']) == 161
  assert [p[0] for p in x['points']] == [tl[g - 1]['end_ns'] for g in d['gcs']]
for i in range(161):
  shown = sum(x['points'][i][1] for x in s[:5])
  assert s[5]['points'][i][1] == d['total'][i][1] - shown
for x in s[:5]:
  assert x['rank_value'] == x['points'][-1][1] - x['points'][0][1]
"

# the series agree with `heap` at both ends of the window
for gc in 40 200; do
  "$cli" heap "$t" --gc $gc --metric bytes --top 0 --json > "$dir/heap$gc.json" 2>/dev/null || fail "heap $gc"
done
json "$dir/trend.json" "
import json
for idx, gc in ((0, 40), (-1, 200)):
  h = json.load(open('$dir/heap%d.json' % gc))['tree']
  by = {c['key']: c['bytes'] for c in h['children']}
  assert d['total'][idx][1] == h['bytes'], (gc, d['total'][idx][1], h['bytes'])
  for x in d['series'][:5]:
    assert x['points'][idx][1] == by.get(x['key'], 0), (gc, x['key'])
"

# every sort ranks by its own value; --no-other; --top
for sort in start end average abs-growth rel-growth; do
  "$cli" trend "$t" --from-gc 40 --to-gc 200 --sort $sort --top 0 --no-other --json > "$dir/s.json" \
    || fail "sort $sort"
  json "$dir/s.json" "
s = d['series']
assert d['sort'] == '$sort' and all(not x['other'] for x in s) and len(s) == d['groups']
def val(x):
  v = [p[1] for p in x['points']]
  return {'start': v[0], 'end': v[-1], 'average': sum(v) / len(v), 'abs-growth': v[-1] - v[0],
          'rel-growth': float('inf') if v[0] == 0 and v[-1] > 0 else (0 if v[0] == 0 else (v[-1] - v[0]) / v[0])}['$sort']
r = [val(x) for x in s]
assert r == sorted(r, reverse=True), r
"
done

# --every and --interval pick the classified GCs
"$cli" trend "$t" --from-gc 40 --to-gc 200 --every 20 --json > "$dir/e.json" || fail "every"
json "$dir/e.json" "assert d['gcs'] == list(range(40, 201, 20)), d['gcs']"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --interval 1 --json > "$dir/i.json" || fail "interval"
json "$dir/i.json" "
tl = json.load(open('$dir/tl.json'))['gcs']
g = d['gcs']
assert g[0] == 40 and len(g) > 5
for a, b in zip(g, g[1:]):
  assert tl[b - 1]['end_ns'] - tl[a - 1]['end_ns'] >= 1e9
  # and no GC in between would have qualified
  assert all(tl[c - 1]['end_ns'] - tl[a - 1]['end_ns'] < 1e9 for c in range(a + 1, b))
"

# drill-down: the callers of Journey's allocation (all JourneyCache.lookup)
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify type,call-site --drill com.example.travel.Journey \
  --top 0 --json > "$dir/d.json" || fail "drill"
json "$dir/d.json" "
assert d['drill'] == ['com.example.travel.Journey'] and d['level'] == 'call-site'
assert d['series'] and all(x['key'].startswith('com.example.travel.JourneyCache.lookup(') for x in d['series'])
t = json.load(open('$dir/trend.json'))
j = [x for x in t['series'] if x['key'] == 'com.example.travel.Journey'][0]
assert [p[1] for p in d['total']] == [p[1] for p in j['points']]
"

# retained: only GCs with a reference graph, and the leak still on top
"$cli" trend "$t" --from-gc 40 --to-gc 200 --metric retained-bytes --top 3 --json > "$dir/r.json" 2> "$dir/r.err" \
  || fail "retained"
grep -q "reference graph" "$dir/r.err" || fail "no note about graphs"
json "$dir/r.json" "
tl = json.load(open('$dir/tl.json'))['gcs']
assert d['gcs'] == [g for g in range(40, 201) if tl[g - 1]['reachable_bytes'] is not None], d['gcs']
assert d['series'][0]['key'] == 'java.util.concurrent.ConcurrentHashMap', d['series'][0]['key']
"
"$cli" heap "$t" --gc 200 --top 0 --json > "$dir/h.json" 2>/dev/null || fail "heap retained"
json "$dir/r.json" "
import json
h = {c['key']: c['retained_bytes'] for c in json.load(open('$dir/h.json'))['tree']['children']}
for x in d['series'][:3]:
  assert x['points'][-1][1] == h[x['key']], x['key']
"

# CSV: one row per classified GC, shown columns + total
"$cli" trend "$t" --from-gc 40 --to-gc 60 --csv > "$dir/t.csv" || fail "csv"
python3 - "$dir/t.csv" <<'EOF' || fail "csv content"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:2] == ['gc', 'time_ns'] and rows[0][-1] == 'total' and rows[0][-2] == 'Other', rows[0]
assert len(rows) == 22 and [int(r[0]) for r in rows[1:]] == list(range(40, 61))
for r in rows[1:]:
  assert sum(int(v) for v in r[2:-1]) == int(r[-1])
EOF

# text output names the leak
"$cli" trend "$t" --from-gc 40 --to-gc 200 | grep -q "ConcurrentHashMap\$Node" || fail "text"

# the chart of the same view, when the build has the renderer
if "$cli" --help | grep -q "^  chart"; then
  "$cli" chart "$t" --kind trend --from-gc 40 --to-gc 200 --classify type,call-site \
    --drill com.example.travel.Journey --metric retained-bytes --png "$dir/t.png" --width 640 --height 240 \
    2>/dev/null || fail "chart --kind trend"
  python3 -c "
import struct, sys
b = open('$dir/t.png', 'rb').read()
assert b[:8] == b'\x89PNG\r\n\x1a\n'
assert struct.unpack('>II', b[16:24]) == (640, 240)
" || fail "chart png"
  "$cli" chart "$t" --kind trend --sort nowhere --png "$dir/x.png" >/dev/null 2>&1 && fail "chart bad sort"
fi

# data-structure classifiers: only GCs with a graph; the JourneyCache map's
# containing-ds group grows by its leaked entries' three member objects
# (Node, JourneyKey, Journey) each, checked against `heap` at both ends
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify containing-ds,type --metric objects --top 0 \
  --no-other --json > "$dir/cds.json" 2>"$dir/cds.err" || fail "trend containing-ds"
grep -q "reference graph" "$dir/cds.err" || fail "no note about graphs for containing-ds"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --metric retained-bytes --json > "$dir/rg.json" 2>/dev/null \
  || fail "retained for the graph GCs"
for gc in 40 200; do
  "$cli" heap "$t" --gc $gc --classify containing-ds,type --metric objects --top 0 --json \
    > "$dir/cdsheap$gc.json" 2>/dev/null || fail "heap containing-ds $gc"
done
json "$dir/cds.json" "
import json
assert d['classifiers'] == ['containing-ds', 'type'] and d['level'] == 'containing-ds', d['classifiers']
assert d['gcs'] == json.load(open('$dir/rg.json'))['gcs'], d['gcs']
s = d['series']
structures = [x for x in s if x['key'] != '(no data structure)']
cache = structures[0]
assert cache['key'].startswith('java.util.concurrent.ConcurrentHashMap @'), cache['key']
ends = []
for idx, gc in ((0, 40), (-1, 200)):
  h = json.load(open('$dir/cdsheap%d.json' % gc))['tree']
  groups = {c['key']: c for c in h['children']}
  for x in s:
    assert x['points'][idx][1] == groups.get(x['key'], {'objects': 0})['objects'], (gc, x['key'])
  ends.append({c['key']: c['objects'] for c in groups[cache['key']]['children']})
entries = ends[1]['com.example.travel.JourneyKey'] - ends[0].get('com.example.travel.JourneyKey', 0)
assert entries > 0
for ty in ('java.util.concurrent.ConcurrentHashMap\$Node', 'com.example.travel.Journey'):
  assert ends[1][ty] - ends[0].get(ty, 0) == entries, ty
assert cache['rank_value'] == 3 * entries, (cache['rank_value'], entries)
"
key=$(json "$dir/cds.json" "print([x['key'] for x in d['series'] if x['key'] != '(no data structure)'][0])")
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify containing-ds,type --metric objects --top 0 \
  --drill "$key" --json > "$dir/cdsd.json" 2>/dev/null || fail "drill into a data structure"
json "$dir/cdsd.json" "
import json
h = json.load(open('$dir/cdsheap200.json'))['tree']
cache = [c for c in h['children'] if c['key'] == '$key'][0]
by = {c['key']: c['objects'] for c in cache['children']}
assert d['level'] == 'type' and d['drill'] == ['$key']
for x in d['series']:
  if not x['other']:
    assert x['points'][-1][1] == by[x['key']], x['key']
assert d['total'][-1][1] == cache['objects']
"
# --ds: the user's descriptions make every leaked Journey a structure
cat > "$dir/journey.ds" <<'DS'
DS com.example.travel.Journey { java.lang.String; byte[]; }
DS
"$cli" trend "$t" --from-gc 180 --to-gc 200 --classify containing-ds --metric objects --top 0 \
  --ds "$dir/journey.ds" --json > "$dir/cdsu.json" 2>/dev/null || fail "trend --ds"
json "$dir/cdsu.json" "
assert len([x for x in d['series'] if x['key'].startswith('com.example.travel.Journey @')]) > 10
"
"$cli" trend "$t" --from-gc 180 --to-gc 200 --classify containing-ds --metric objects --top 0 \
  --json > "$dir/cdsn.json" 2>/dev/null || fail "trend containing-ds without --ds"
json "$dir/cdsn.json" "assert not [x for x in d['series'] if x['key'].startswith('com.example.travel.Journey @')]"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify leaves --top 3 --json > "$dir/lv.json" 2>/dev/null \
  || fail "trend leaves"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify deep-leaves --top 3 --json > "$dir/dl.json" 2>/dev/null \
  || fail "trend deep-leaves"
json "$dir/dl.json" "assert d['level'] == 'deep-leaves' and len(d['series']) > 0"

# exit codes
set +e
"$cli" trend "$t" --from-gc 41 --to-gc 49 --classify containing-ds >/dev/null 2>&1; [ $? -eq 2 ] || fail "ds without graph"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify containing-ds --ds "$dir/none.ds" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing .ds file"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --sort sideways >/dev/null 2>&1; [ $? -eq 1 ] || fail "bad sort"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --every 2 --interval 1 >/dev/null 2>&1; [ $? -eq 1 ] || fail "every+interval"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --drill byte[] >/dev/null 2>&1; [ $? -eq 1 ] || fail "drill w/o level"
"$cli" trend "$t" --from-gc 40 --to-gc 200 --classify type,site --drill NoSuchType >/dev/null 2>&1
[ $? -eq 1 ] || fail "unknown drill key"
"$cli" trend "$t" --to-gc 200 >/dev/null 2>&1; [ $? -eq 1 ] || fail "missing --from-gc"
"$cli" trend "$t" --from-gc 300 --to-gc 400 >/dev/null 2>&1; [ $? -eq 1 ] || fail "window outside"
"$cli" trend "$dir/missing.tmtrace" --from-gc 1 --to-gc 2 >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || fail "missing file"
grep -q "missing.tmtrace" "$dir/err" || fail "missing file message"
"$cli" trend "$t" --from-gc 41 --to-gc 49 --metric deep-bytes >/dev/null 2>&1; [ $? -eq 2 ] || fail "no graph"
exit 0
