#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# allocs, lifetimes, survival and floating-garbage end to end on the
# synthetic leak, checked against what `info` and `timeline` report
# independently: every allocation and death is counted once, the live
# objects after each GC follow from allocations minus deaths, survivors'
# ages add up to the live objects; drill-down sums to its parent; a GC log
# has no object data for these commands; churn agrees with lifetimes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" >/dev/null 2>&1 || fail "synth"
t="$dir/leak.tmtrace"
"$cli" info "$t" --json > "$dir/info.json" || fail "info"
"$cli" timeline "$t" --json > "$dir/tl.json" || fail "timeline"

"$cli" allocs "$t" --json --top 0 --no-other > "$dir/allocs.json" || fail "allocs"
json "$dir/allocs.json" "
info = json.load(open('$dir/info.json')); tl = json.load(open('$dir/tl.json'))['gcs']
n = info['gcs']
assert d['from_gc'] == 1 and d['to_gc'] == n and d['gcs'] == list(range(1, n + 1))
tot = d['total']
# the synthetic run ends with a GC: every allocation falls in an interval
assert tot['alloc_objects_total'] == info['allocs'], (tot['alloc_objects_total'], info['allocs'])
assert tot['alloc_bytes_total'] == info['alloc_bytes']
assert tot['freed_objects_total'] == info['deaths']
assert sum(s['alloc_objects_total'] for s in d['series']) == info['allocs']
live = 0
for i, g in enumerate(tl):
  live += tot['alloc_objects'][i] - tot['freed_objects'][i]
  assert live == g['live_objects'], (g['id'], live, g['live_objects'])
assert d['end_ns'] == [g['end_ns'] for g in tl]
assert d['interval_ns'][1] == tl[1]['start_ns'] - tl[0]['start_ns']
"

# a window: the series of byte[] by thread sums to byte[]'s row
"$cli" allocs "$t" --from-gc 40 --to-gc 200 --json --top 0 > "$dir/w.json" || fail "allocs window"
"$cli" allocs "$t" --from-gc 40 --to-gc 200 --classify type,thread --drill 'byte[]' --json --top 0 > "$dir/drill.json" \
  || fail "allocs --drill"
json "$dir/drill.json" "
w = json.load(open('$dir/w.json'))
b = [s for s in w['series'] if s['key'] == 'byte[]'][0]
assert d['level'] == 'thread' and d['drill'] == ['byte[]']
assert d['total']['alloc_bytes'] == b['alloc_bytes'] and d['total']['freed_objects'] == b['freed_objects']
assert len(d['gcs']) == 161
"
"$cli" allocs "$t" --csv --top 2 > "$dir/allocs.csv" || fail "allocs --csv"
head -1 "$dir/allocs.csv" | grep -q '^gc,end_ns,interval_ns,group,' || fail "csv header"
[ "$(wc -l < "$dir/allocs.csv")" -eq $((3 * 200 + 1)) ] || fail "csv rows"

"$cli" lifetimes "$t" --json --top 0 > "$dir/lt.json" || fail "lifetimes"
json "$dir/lt.json" "
info = json.load(open('$dir/info.json'))
assert d['total']['died_objects'] == info['deaths']
assert sum(b['objects'] for b in d['total']['by_gcs']) == info['deaths']
assert sum(b['objects'] for b in d['total']['by_time']) == info['deaths']
assert sum(g['died_objects'] for g in d['groups']) == info['deaths']
assert d['born_objects'] == info['allocs']
assert 0 < d['died_before_first_gc_objects'] == d['total']['by_gcs'][0]['objects']
"

"$cli" survival "$t" --json > "$dir/sv.json" || fail "survival"
json "$dir/sv.json" "
tl = json.load(open('$dir/tl.json'))['gcs']
assert d['promotion_source'] == 'old-space-usage'
for p, g in zip(d['gcs'], tl):
  assert p['live_objects'] == g['live_objects'] and p['live_bytes'] == g['live_bytes']
  assert sum(p['age_objects']) == p['live_objects'], p
  assert sum(p['age_bytes']) == p['live_bytes'], p
  assert (p['promoted_bytes'] is None) == (g['kind'] != 'minor')
"

# the synthetic graphs reach every live object: no floating garbage
"$cli" floating-garbage "$t" --json > "$dir/fg.json" || fail "floating-garbage"
json "$dir/fg.json" "
info = json.load(open('$dir/info.json'))
assert len(d['gcs']) == info['graphs']
assert all(p['floating_bytes'] == 0 and p['live_objects'] > 0 for p in d['gcs'])
assert d['breakdown']['groups'] == []
"

# GC logs have no objects: a clear refusal for floating garbage
log="$TM_SOURCE_DIR/tests/data/gc-logs/jdk17-g1.log"
if "$cli" floating-garbage "$log" 2> "$dir/err"; then fail "floating-garbage on a GC log"; fi
grep -q "needs a recorded trace" "$dir/err" || fail "message: $(cat "$dir/err")"

# churn: the objects dead by their first GC, the same ones lifetimes counts,
# a tree whose levels add up; age buckets add up to the objects
"$cli" lifetimes "$t" --from-gc 40 --to-gc 200 --json > "$dir/lt.json" || fail "lifetimes window"
"$cli" churn "$t" --from-gc 40 --to-gc 200 --classify type,site --top 0 --json > "$dir/churn.json" || fail "churn"
json "$dir/churn.json" "
lt = json.load(open('$dir/lt.json'))
assert d['from_gc'] == 40 and d['to_gc'] == 200 and d['classifiers'] == ['type', 'site']
r = d['tree']
assert r['objects'] == lt['died_before_first_gc_objects'] > 0, (r['objects'], lt['died_before_first_gc_objects'])
assert r['bytes'] == lt['died_before_first_gc_bytes']
assert d['allocated_objects'] == lt['born_objects'] and d['allocated_bytes'] == lt['born_bytes']
def check(n):
  assert sum(a['objects'] for a in n['by_age']) == n['objects'], n['key']
  if n['children']:
    assert sum(c['objects'] for c in n['children']) == n['objects'], n['key']
    assert sum(c['bytes'] for c in n['children']) == n['bytes'], n['key']
    assert [c['bytes'] for c in n['children']] == sorted((c['bytes'] for c in n['children']), reverse=True)
    for c in n['children']: check(c)
check(r)
assert r['children'][0]['children'][0]['children'] == []
"
"$cli" churn "$t" --from-gc 40 --to-gc 200 --top 1 --json > "$dir/churn1.json" || fail "churn --top 1"
json "$dir/churn1.json" "
assert len(d['tree']['children']) == 1 and d['tree']['groups_total'] >= 1
"
"$cli" churn "$t" --from-gc 40 --to-gc 200 > "$dir/churn.txt" || fail "churn text"
grep -q "dead by their first GC" "$dir/churn.txt" || fail "churn text: $(head -3 "$dir/churn.txt")"

# heaptrack (tests/data/heaptrack/leaker.c): the 1500 blocks freed right
# after their malloc are all short-lived, the 300 leaked nodes none
ht="$TM_SOURCE_DIR/tests/data/heaptrack/leaker.zst"
"$cli" churn "$ht" --classify site --top 0 --json > "$dir/ht.json" || fail "churn heaptrack"
json "$dir/ht.json" "
by = {c['key'].split(' ')[0]: c for c in d['tree']['children']}
temp = [c for k, c in by.items() if k.startswith('temporary')]
assert len(temp) == 1 and temp[0]['objects'] == 1500 and temp[0]['bytes'] == 1500 * 200, temp
assert not any(k.startswith('leak_record') for k in by), list(by)
"

# usage errors
set +e
"$cli" churn "$t" --classify space >/dev/null 2>&1; [ $? -eq 1 ] || fail "churn --classify space: exit 1"
"$cli" churn "$t" --from-gc 300 >/dev/null 2>&1; [ $? -eq 1 ] || fail "churn --from-gc 300: exit 1"
"$cli" allocs "$t" --classify age >/dev/null 2>&1; [ $? -eq 1 ] || fail "allocs --classify age: exit 1"
"$cli" allocs "$t" --from-gc 300 >/dev/null 2>&1; [ $? -eq 1 ] || fail "allocs --from-gc 300: exit 1"
"$cli" allocs "$t" --sort nope >/dev/null 2>&1; [ $? -eq 1 ] || fail "allocs --sort nope: exit 1"
"$cli" allocs "$dir/missing" >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing file: exit 2"
set -e
echo "ok"
