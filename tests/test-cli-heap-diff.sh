#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli heap-diff end to end: every group's before, after and
# change equal two independent `heap` runs subtracted here, at two graph
# GCs (all metrics) and at GCs without a graph (shallow sizes); sorting
# by the change, --top, a heaptrack file, exit codes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" --scale 0.3 >/dev/null 2>&1 || fail "synth"

# compare: the diff tree against heap trees at A and B, node by node
compare() {   # A B CLASSIFY METRIC-KEYS
  "$cli" heap "$dir/leak.tmtrace" --gc "$1" --classify "$3" --top 0 --json > "$dir/a.json" 2>/dev/null || fail "heap $1"
  "$cli" heap "$dir/leak.tmtrace" --gc "$2" --classify "$3" --top 0 --json > "$dir/b.json" 2>/dev/null || fail "heap $2"
  "$cli" heap-diff "$dir/leak.tmtrace" --from-gc "$1" --to-gc "$2" --classify "$3" --top 0 --json \
    > "$dir/d.json" 2>/dev/null || fail "heap-diff $1 $2"
  json "$dir/d.json" "
A = json.load(open('$dir/a.json'))['tree']; B = json.load(open('$dir/b.json'))['tree']
keys = '$4'.split()
assert d['from_gc'] == $1 and d['to_gc'] == $2, d
def index(n, path, out):
  out[path] = n
  for c in n['children']: index(c, path + (c['key'],), out)
  return out
ia = index(A, (), {}); ib = index(B, (), {}); idf = index(d['tree'], (), {})
assert set(idf) == set(ia) | set(ib), (len(idf), len(set(ia) | set(ib)))
zero = {k: 0 for k in keys}
for p, n in idf.items():
  a = ia.get(p, zero); b = ib.get(p, zero)
  assert n['in_before'] == (p in ia) and n['in_after'] == (p in ib), p
  for k in keys:
    assert n['before'][k] == a[k], (p, k, n['before'][k], a[k])
    assert n['after'][k] == b[k], (p, k, n['after'][k], b[k])
    assert n['delta'][k] == b[k] - a[k], (p, k)
  ds = [c['delta'][d['metric'].replace('-', '_')] for c in n['children']]
  assert ds == sorted(ds, reverse=True), (p, ds)
"
}
all="objects bytes deep_objects deep_bytes retained_objects retained_bytes"
compare 40 200 type "$all"
compare 100 110 type,call-site "$all"
compare 200 40 type,site "$all"   # backwards: the leak shrinks
json "$dir/d.json" "assert d['metric'] == 'retained-bytes' and d['has_graph'] is True"
# GCs without a graph: shallow sizes, nulls for the others, a note
compare 15 195 type,thread "objects bytes"
json "$dir/d.json" "
assert d['has_graph'] is False and d['metric'] == 'bytes'
assert d['tree']['after']['retained_bytes'] is None and d['tree']['delta']['deep_bytes'] is None
"
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 15 --to-gc 200 > /dev/null 2> "$dir/note.err" || fail "shallow note"
grep -q "comparing shallow sizes only" "$dir/note.err" || fail "shallow note text"

# the leak's answer: the cache map's retained size grows most, and the
# journeys appear from nothing
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 40 --to-gc 200 --top 3 --json > "$dir/top.json" || fail "--top"
json "$dir/top.json" "
t = d['tree']
assert len(t['children']) == 3 and t['omitted_children'] > 0
assert t['children'][0]['key'] == 'java.util.concurrent.ConcurrentHashMap', t['children'][0]['key']
assert t['children'][0]['delta']['retained_bytes'] > 0.8 * t['delta']['retained_bytes']
"
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 40 --to-gc 200 --metric objects --top 0 --json > "$dir/obj.json" \
  || fail "--metric objects"
json "$dir/obj.json" "
t = d['tree']
j = [c for c in t['children'] if c['key'] == 'com.example.travel.Journey'][0]
assert j['in_before'] is False and j['before']['objects'] == 0 and j['delta']['objects'] == j['after']['objects'] > 0
"
# text output: a header, the Overall row with signed changes
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 40 --to-gc 200 > "$dir/text.txt" || fail "text"
grep -q "compared with the heap after GC 40" "$dir/text.txt" || fail "text header"
grep -E -q '^ +[0-9,]+ +[0-9,]+ +\+[0-9,]+ .* Overall$' "$dir/text.txt" || fail "text Overall row"

# a heaptrack file: time points as GCs, blocks as objects, shallow sizes
ht="$TM_SOURCE_DIR/tests/data/heaptrack/leaker.gz"
if [ -f "$ht" ]; then
  n=$("$cli" info "$ht" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['gcs'])")
  "$cli" heap-diff "$ht" --from-gc 1 --to-gc "$n" --json > "$dir/ht.json" 2>/dev/null || fail "heaptrack"
  json "$dir/ht.json" "assert d['has_graph'] is False and d['tree']['after']['objects'] >= 0"
fi

# usage errors
set +e
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 40 > /dev/null 2>&1; [ $? -eq 1 ] || fail "missing --to-gc"
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 40 --to-gc 999 > /dev/null 2>&1; [ $? -eq 1 ] || fail "GC out of range"
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 40 --to-gc 200 --metric size > /dev/null 2>&1; [ $? -eq 1 ] || fail "bad metric"
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc 15 --to-gc 200 --metric retained-bytes > /dev/null 2>&1
[ $? -eq 2 ] || fail "retained without a graph"
"$cli" heap-diff /nonexistent --from-gc 1 --to-gc 2 > /dev/null 2>&1; [ $? -eq 2 ] || fail "missing file"
set -e
echo "ok"
