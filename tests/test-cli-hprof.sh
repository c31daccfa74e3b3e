#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli on HPROF heap dumps of a real JVM (tests/hprof/HprofProbe.java,
# dumped with jcmd: once, then gzip after its map `growing` gained 2000
# entries): detection from the content, known counts and retained size,
# two dumps as a timeline in time order (given in reverse), data-structure
# growth across them ranking the growing map first with every structure
# matched by its root path, a cut dump, and mixing formats refused.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}
if ! command -v jcmd >/dev/null || ! command -v javac >/dev/null; then
  echo "SKIP: no JDK"; exit 77
fi

javac -d "$dir" "$src/tests/hprof/HprofProbe.java"
mkfifo "$dir/in"
java -Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$dir" HprofProbe < "$dir/in" > "$dir/out" &
pid=$!
exec 3> "$dir/in"
ready() { local n=$1; for _ in $(seq 200); do [ "$(grep -c READY "$dir/out")" -ge "$n" ] && return 0; sleep 0.1; done; fail "probe not ready"; }
ready 1
jcmd "$pid" GC.heap_dump "$dir/one.data" >/dev/null || fail "jcmd"
echo >&3
ready 2
jcmd "$pid" GC.heap_dump -gz=1 "$dir/two.data" >/dev/null || fail "jcmd -gz"
exec 3>&-
wait "$pid"

"$cli" info "$dir/one.data" --json > "$dir/info.json" || fail "info"
json "$dir/info.json" "
assert d['format'] == 'hprof' and d['complete'] is True and d['graphs'] == 1 and d['gcs'] == 1, d
"
"$cli" heap "$dir/two.data" --gc 1 --classify type --top 0 --json > "$dir/heap.json" || fail "heap on a gzip dump"
json "$dir/heap.json" "
c = {x['key']: x for x in d['tree']['children']}
assert c['HprofProbe\$Leaf']['objects'] == 1000 and c['HprofProbe\$Leaf']['bytes'] == 24000
assert c['HprofProbe\$Marker']['objects'] == 777
assert c['HprofProbe\$Entry']['objects'] == 2500
assert c['HprofProbe\$Holder']['retained_bytes'] == 24 + 4016 + 24000
"

# two dumps, given newest first: a timeline in time order
"$cli" timeline "$dir/two.data" "$dir/one.data" --json > "$dir/tl.json" || fail "timeline of two dumps"
json "$dir/tl.json" "
g = d['gcs']
assert len(g) == 2 and g[0]['end_ns'] <= g[1]['end_ns']
assert g[0]['cause'] == 'one.data' and g[1]['cause'] == 'two.data', g
assert g[1]['reachable_bytes'] > g[0]['reachable_bytes']
"
"$cli" ds-growth "$dir/one.data" "$dir/two.data" --from-gc 1 --to-gc 2 --json > "$dir/dsg.json" || fail "ds-growth"
json "$dir/dsg.json" "
m = d['matching']
assert m['by'] == 'root-path' and m['candidates'] > 10 and m['match_rate'] == 1.0, m
top = d['structures'][0]
assert top['type'] == 'java.util.HashMap', top
assert top['retained_bytes'][1] - top['retained_bytes'][0] >= 2000 * (24 + 16 + 32), top
assert top['pattern'] == 'single-ownership-container-growth', top
assert top['site'] == '(unknown site)' and top['root_path'] == 'HprofProbe.growing', top.get('root_path')
"
"$cli" trend "$dir/one.data" "$dir/two.data" --from-gc 1 --to-gc 2 --classify type --json > "$dir/trend.json" || fail "trend"
json "$dir/trend.json" "
s = {x['key']: x['points'] for x in d['series']}
# 2000 more map entries: a HashMap\$Node (32 B), a Long (16 B) and an Entry (24 B) each
assert d['series'][0]['key'] == 'java.util.HashMap\$Node', d['series'][0]['key']
assert s['java.util.HashMap\$Node'][1][1] - s['java.util.HashMap\$Node'][0][1] == 2000 * 32
assert s['HprofProbe\$Entry'][1][1] - s['HprofProbe\$Entry'][0][1] == 2000 * 24
"

# path to GC roots with names: the payloads hang off the static field
# `cache` of HprofProbe, through the map's table, an element, its value
"$cli" heap "$dir/one.data" --gc 1 --path-to-roots 'HprofProbe$Payload' --json > "$dir/path.json" || fail "path"
json "$dir/path.json" "
assert d['root_kind'] == 'static field' and d['root_class'] == 'HprofProbe', d
assert d['root_name'] == 'HprofProbe.cache', d['root_name']
f = d['fields']
assert len(f) == len(d['path']) and f[0] is None, f
assert f[1] == 'table' and f[2].startswith('[') and f[-1] == 'value', f
"
"$cli" heap "$dir/one.data" --gc 1 --path-to-roots 'HprofProbe$Payload' > "$dir/path.txt" || fail "path text"
grep -q "GC root (static field HprofProbe.cache)" "$dir/path.txt" || fail "path text: $(cat "$dir/path.txt")"
grep -q -- "-> .table: java.util.HashMap\$Node\[\] @" "$dir/path.txt" || fail "path field: $(cat "$dir/path.txt")"

# the two dumps compared: 2000 more entries, each with its map node and key
"$cli" heap-diff "$dir/one.data" "$dir/two.data" --from-gc 1 --to-gc 2 --top 0 --json > "$dir/diff.json" || fail "heap-diff"
json "$dir/diff.json" "
c = {x['key']: x for x in d['tree']['children']}
assert d['has_graph'] is True
assert c['HprofProbe\$Entry']['delta']['objects'] == 2000 and c['HprofProbe\$Entry']['delta']['bytes'] == 2000 * 24
assert c['HprofProbe\$Leaf']['delta']['objects'] == 0
assert c['java.util.HashMap\$Node']['delta']['bytes'] == 2000 * 32
"

# by root path (the static field, then its object's first field): the
# map `growing` gained 2000 entries, their map nodes and keys; what
# `holder` holds did not change
"$cli" heap-diff "$dir/one.data" "$dir/two.data" --from-gc 1 --to-gc 2 --classify root-path --metric bytes \
  --top 0 --json > "$dir/rpdiff.json" || fail "heap-diff by root path"
json "$dir/rpdiff.json" "
t = d['tree']['children']
c = {x['key']: x for x in t}
assert t[0]['key'] == 'HprofProbe.growing.table', [x['key'] for x in t[:3]]
assert c['HprofProbe.growing.table']['delta']['bytes'] >= 2000 * (24 + 32), c['HprofProbe.growing.table']
assert c['HprofProbe.holder.items']['delta']['objects'] == 0
assert c['HprofProbe.markers[]']['delta']['bytes'] == 0
"
"$cli" trend "$dir/one.data" "$dir/two.data" --from-gc 1 --to-gc 2 --classify root-path,type --json \
  > "$dir/rptrend.json" 2> "$dir/rptrend.err" || fail "trend by root path: $(cat "$dir/rptrend.err")"
json "$dir/rptrend.json" "
assert d['series'][0]['key'] == 'HprofProbe.growing.table', [x['key'] for x in d['series']]
"
"$cli" trend "$dir/one.data" "$dir/two.data" --from-gc 1 --to-gc 2 --classify root-path,type \
  --drill 'HprofProbe.growing.table' --json > "$dir/rpdrill.json" || fail "trend drill into a root path"
json "$dir/rpdrill.json" "
s = {x['key']: x['points'] for x in d['series']}
assert s['HprofProbe\$Entry'][1][1] - s['HprofProbe\$Entry'][0][1] == 2000 * 24, s.keys()
"
"$cli" heap "$dir/one.data" --gc 1 --classify root-path > "$dir/rp.txt" || fail "heap by root path"
grep -q "HprofProbe.holder.items" "$dir/rp.txt" || fail "heap by root path: $(cat "$dir/rp.txt")"
# a GC log has no reference graph: refused with the reason
log=$(ls "$src"/tests/data/gc-logs/*.log | head -1)
if "$cli" heap "$log" --gc 1 --classify root-path > /dev/null 2> "$dir/rpnog.err"; then fail "root-path without a graph"; fi
grep -qi "graph" "$dir/rpnog.err" || fail "root-path without a graph: $(cat "$dir/rpnog.err")"

# a cut dump opens up to the cut and names the offset
head -c 2500000 "$dir/one.data" > "$dir/cut.data"
"$cli" info "$dir/cut.data" --json > "$dir/cut.json" 2> "$dir/cut.err" || fail "info on a cut dump"
json "$dir/cut.json" "assert d['complete'] is False and d['allocs'] > 0"
grep -q "byte offset" "$dir/cut.err" || fail "cut dump: no offset in the warning"

# only heap dumps combine
if "$cli" info "$dir/one.data" "$dir/heap.json" > /dev/null 2> "$dir/mix.err"; then fail "mixed formats accepted"; fi
grep -q "heap.json" "$dir/mix.err" || fail "mixed formats: message does not name the file"
echo "ok"
