#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# containers end to end on the synthetic leak: over the leak window the
# JourneyCache (a ConcurrentHashMap that only gains entries) ranks first,
# its elements allocated by JourneyKey/Journey; the session map, whose
# entries come and go, has a far lower confidence; LC = SC^(1-MC) in the
# JSON; staleness is labelled an upper bound; a GC log has no graphs.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" >/dev/null 2>&1 || fail "synth"
t="$dir/leak.tmtrace"

"$cli" containers "$t" --json --top 0 > "$dir/c.json" || fail "containers"
json "$dir/c.json" "
assert d['region'] == 'leak-window' and d['from_gc'] == 40 and d['to_gc'] == 200, d
assert d['staleness'] == 'upper-bound'
c = d['containers']
assert len(c) >= 2
top = c[0]
assert top['type'] == 'java.util.concurrent.ConcurrentHashMap', top['type']
sites = [s['site'] for s in top['sites']]
assert any('JourneyKey' in s for s in sites) and any('Journey.<init>' in s for s in sites), sites
assert top['adds'] > 0 and top['removes'] == 0
for x in c:
  assert 0 <= x['mc'] <= 1 and 0 <= x['sc'] <= 1
  want = 0 if x['sc'] == 0 else x['sc'] ** (1 - x['mc'])
  assert abs(x['lc'] - want) < 1e-5, x
lcs = [x['lc'] for x in c]
assert lcs == sorted(lcs, reverse=True)
assert top['lc'] > 0.5 and c[1]['lc'] < 0.5 * top['lc'], lcs
"

# by allocation site: every ranked container in one group, LC = SC^(1-MC)
# per group, the cache's group first
"$cli" containers "$t" --json --top 0 --by-site > "$dir/s.json" || fail "containers --by-site"
python3 - "$dir/c.json" "$dir/s.json" <<'PY' || fail "by-site"
import json, sys
c = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
assert s['region'] == 'leak-window' and s['staleness'] == 'upper-bound', s
assert sum(g['containers'] for g in s['sites']) == len(c['containers'])
for g in s['sites']:
  assert g['containers'] >= 1 and g['exact'] == 0 and g['staleness'] == 'upper-bound', g
  assert 0 <= g['mc'] <= 1 and 0 <= g['sc'] <= 1
  want = 0 if g['sc'] == 0 else g['sc'] ** (1 - g['mc'])
  assert abs(g['lc'] - want) < 1e-5, g
lcs = [g['lc'] for g in s['sites']]
assert lcs == sorted(lcs, reverse=True)
top = s['sites'][0]
assert top['type'] == 'java.util.concurrent.ConcurrentHashMap' and top['containers'] == 1, top
assert top['top_object_id'] == c['containers'][0]['object_id'], (top, c['containers'][0])
assert abs(top['lc'] - c['containers'][0]['lc']) < 1e-5
PY
"$cli" containers "$t" --by-site | grep -q "allocation site (type)" || fail "by-site text"

# an explicit region
"$cli" containers "$t" --from-gc 100 --to-gc 200 --json > "$dir/r.json" || fail "containers --from-gc"
json "$dir/r.json" "assert d['region'] == 'given' and d['from_gc'] == 100 and d['containers'][0]['type'].endswith('ConcurrentHashMap')"
"$cli" containers "$t" | grep -q "upper bounds" || fail "text says upper bound"
# the leaking map explains the growth; the JDK's small map after it does not, and says so
"$cli" containers "$t" --top 0 > "$dir/c.txt"
! grep -q "No container explains" "$dir/c.txt" || fail "a relevant container, yet 'no container explains'"
python3 - "$dir/c.txt" <<'PY' || fail "text: relevant containers, then the others under their heading"
import sys
lines = open(sys.argv[1]).read().splitlines()
rows = [i for i, l in enumerate(lines) if '(object ' in l]
sep = [i for i, l in enumerate(lines) if l.startswith('-- not explaining the growth')]
assert len(rows) == 2 and 'ConcurrentHashMap' in lines[rows[0]] and len(sep) == 1 and rows[0] < sep[0] < rows[1], lines
PY

log="$TM_SOURCE_DIR/tests/data/gc-logs/jdk17-g1.log"
set +e
"$cli" containers "$log" > /dev/null 2> "$dir/err"; [ $? -eq 2 ] || fail "GC log: exit 2"
grep -q "reference graphs" "$dir/err" || fail "message: $(cat "$dir/err")"
"$cli" containers "$t" --from-gc 5 >/dev/null 2>&1; [ $? -eq 1 ] || fail "--from-gc alone: exit 1"
set -e
echo ok
