#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli callers and info on heaptrack files: the known call stacks
# of tests/data/heaptrack/calls.c (see its header) and heaptrack_print's
# figures for the recording; callers on a synthetic trace's sites.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data

# a neutral name: the content decides
cp "$src/heaptrack/calls.zst" "$dir/calls.data"

"$cli" info "$dir/calls.data" --json > "$dir/info.json" || fail "info"
json "$dir/info.json" "
h = d['heaptrack']
assert h['allocations'] == 2062 and h['temporary'] == 1301, h
assert h['leaked_bytes'] == 20000 and h['suppressed_bytes'] == 10000, h
assert h['peak_bytes'] == 219504, h
assert h['peak_rss_bytes'] > 0 and h['total_time_ms'] > 0, h
assert abs(h['temporary_fraction'] - 1301 / 2062) < 1e-6
"
"$cli" info "$dir/calls.data" | grep -q "Leaked:      19.5 KiB (suppressed leaks: 9.77 KiB)" || fail "info text"

# bottom-up (the default): leaf allocates for four callers
"$cli" callers "$dir/calls.data" --json --sort allocations > "$dir/bu.json" || fail "callers"
json "$dir/bu.json" "
assert d['view'] == 'bottom-up' and d['sort'] == 'allocations'
assert d['total']['allocations'] == 2062
top = d['nodes'][0]
assert top['function'] == 'leaf' and top['allocations'] == 1750, top
assert top['temporary'] == 1000 and top['leaked'] == 20000 and top['peak'] == 36800, top
assert top['file'].endswith('calls.c') and top['line'] == 24, top
callers = {c['function']: c['allocations'] for c in top['children']}
assert callers == {'inner': 1000, 'keeper': 500, 'leaker': 200, 'rec': 50}, callers
assert [c['allocations'] for c in top['children']] == sorted(callers.values(), reverse=True)
"
# sorted by peak, the 100000-byte block comes first
"$cli" callers "$dir/calls.data" --json --top 1 > "$dir/peak.json" || fail "callers --sort peak"
json "$dir/peak.json" "
assert len(d['nodes']) == 1 and d['nodes'][0]['function'] == 'peak_phase', d['nodes']
assert d['nodes'][0]['peak'] == 100000
"

# top-down: main > hot > inner > leaf
"$cli" callers "$dir/calls.data" --top-down --json --depth 8 --sort temporary > "$dir/td.json" || fail "callers --top-down"
json "$dir/td.json" "
main = [n for n in d['nodes'] if n['function'] == 'main'][0]
assert main['allocations'] == 2061 and main['self']['allocations'] == 0, main
hot = main['children'][0]
assert hot['function'] == 'hot' and hot['temporary'] == 1000, hot
leaf = hot['children'][0]['children'][0]
assert leaf['function'] == 'leaf' and leaf['self']['temporary'] == 1000, leaf
"

# caller/callee: recursion counts once per stack
"$cli" callers "$dir/calls.data" --functions --json --top 50 --sort allocations > "$dir/fn.json" || fail "callers --functions"
json "$dir/fn.json" "
f = {x['function']: x for x in d['functions']}
rec = f['rec']
assert rec['inclusive']['allocations'] == 50 and rec['self']['allocations'] == 0, rec
assert {c['function']: c['cost']['allocations'] for c in rec['callers']} == {'main': 50, 'rec': 50}
assert f['leaf']['self']['allocations'] == 1750
"

# the text view names functions with file:line
"$cli" callers "$dir/calls.data" --top 2 > "$dir/bu.txt"
grep -q "peak_phase  (calls.c:69)" "$dir/bu.txt" || fail "text view: $(cat "$dir/bu.txt")"

# unresolved frames: address and module
"$cli" callers "$src/heaptrack/leaker.zst" --json --sort peak > "$dir/lk.json"
json "$dir/lk.json" "
n = [x for x in d['nodes'] if x['function'] == '0x7f1dbfaa57b9'][0]
assert n['resolved'] is False and n['module'].endswith('libstdc++.so.6'), n
"

# a recorded trace: the sites' stacks, with its object counts
"$cli" synth leak -o "$dir/leak.tmtrace" --seed 3 >/dev/null
"$cli" info "$dir/leak.tmtrace" --json > "$dir/ti.json"
"$cli" callers "$dir/leak.tmtrace" --json > "$dir/tc.json" || fail "callers on a trace"
python3 -c "
import json
i = json.load(open('$dir/ti.json')); c = json.load(open('$dir/tc.json'))
assert c['total']['allocations'] == i['allocs'], (c['total'], i['allocs'])
assert c['total']['allocated'] == i['alloc_bytes']
assert c['nodes'], c
"

# a window: peak is the live bytes after its last GC, the heap's bytes there
"$cli" callers "$dir/leak.tmtrace" --json --from-gc 100 --to-gc 150 > "$dir/gc.json" || fail "callers --to-gc"
"$cli" heap "$dir/leak.tmtrace" --gc 150 --json > "$dir/heap.json" || fail "heap --gc"
python3 -c "
import json
c = json.load(open('$dir/gc.json')); h = json.load(open('$dir/heap.json'))
assert c['total']['peak'] == h['tree']['bytes'], (c['total']['peak'], h['tree']['bytes'])
assert 0 < c['total']['leaked'] < c['total']['peak']
"
# heaptrack: the leaker's time points 10 to 20 hold ten of its nodes per ten points, nothing else
"$cli" callers "$src/heaptrack/leaker.zst" --json --sort leaked --from-gc 10 --to-gc 20 > "$dir/win.json" || fail "heaptrack window"
"$cli" callers "$src/heaptrack/leaker.zst" --json --sort leaked > "$dir/all.json"
python3 -c "
import json
w = json.load(open('$dir/win.json')); a = json.load(open('$dir/all.json'))
top = w['nodes'][0]
assert top['function'] == 'leak_record', top
assert 0 < top['leaked'] < 302400 and top['leaked'] % 1008 == 0, top
assert w['total']['allocations'] < a['total']['allocations']
"

# usage and input errors
set +e
"$cli" callers "$dir/calls.data" --sort nonsense 2>/dev/null; [ $? -eq 1 ] || fail "bad --sort"
"$cli" callers "$dir/calls.data" --bottom-up --top-down 2>/dev/null; [ $? -eq 1 ] || fail "both views"
"$cli" callers "$dir/missing.zst" 2>/dev/null; [ $? -eq 2 ] || fail "missing file"
"$cli" callers "$dir/leak.tmtrace" --to-gc 100000 2>/dev/null; [ $? -eq 1 ] || fail "--to-gc past the end"
"$cli" callers "$dir/leak.tmtrace" --from-gc 9 --to-gc 3 2>/dev/null; [ $? -eq 1 ] || fail "reversed window"
printf 'v 10400 3\ns 4 main\n+ 0\n' > "$dir/bad.ht"
"$cli" callers "$dir/bad.ht" --json > "$dir/bad.json" 2>"$dir/bad.err"; [ $? -eq 0 ] || fail "damaged heaptrack"
grep -q "undefined allocation info" "$dir/bad.err" || fail "damage not reported: $(cat "$dir/bad.err")"
set -e
echo ok
