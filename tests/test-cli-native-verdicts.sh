#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Churn windows and allocation figures of heaptrack recordings: heaptrack
# sees every malloc and free() where it happens, so a churn window's freed
# bytes are the blocks freed in it and gc-summary's and advise's allocated
# bytes the blocks allocated, counted here independently from the
# recording's `+`/`-` lines.  On
# tests/data/heaptrack/churnburst.c (a 0.3 s burst of malloc/free pairs
# amid a quiet run) the churn window lies in the burst; on steadychurn.c
# (the same churn from start to end) none stands out.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data/heaptrack
command -v zstd > /dev/null || { echo "1..0 # SKIP zstd not installed"; exit 0; }

# freed_bytes RECORDING: "MS BYTES" per time stamp, the bytes freed after it
freed_per_ms() {
  zstd -dc "$1" | python3 -c '
import sys
sizes, now, freed = [], 0, {}
for line in sys.stdin:
    if line[0] == "a": sizes.append(int(line.split()[1], 16))
    elif line[0] == "c": now = int(line.split()[1], 16)
    elif line[0] == "-": freed[now] = freed.get(now, 0) + sizes[int(line.split()[1], 16)]
for t in sorted(freed): print(t, freed[t])'
}

# check RECORDING: the churn window's amount is what the program freed in
# its span (a time point at T ms closes the interval before it: the frees
# stamped at or after its start and before T), at most what it allocated
check_amount() {
  local rec=$1 name=$2
  "$cli" windows "$rec" --json --all > "$dir/$name.json" || fail "windows $name"
  freed_per_ms "$rec" > "$dir/$name.freed"
  python3 - "$dir/$name.json" "$dir/$name.freed" <<'PY' || fail "churn amount of $name"
import json, sys
d = json.load(open(sys.argv[1]))
freed = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
(w,) = [w for w in d['windows'] if w['kind'] == 'churn']
t0, t1 = w['start_ns'] // 1000000, w['end_ns'] // 1000000
exact = sum(b for t, b in freed if t0 <= t < t1)
# the amount counts each interval's frees up to its allocations
assert 0.98 * exact <= w['amount'] <= exact, (w, exact)
rate = w['score'] * (t1 - t0) / 1000
assert abs(rate - exact) <= 0.02 * exact, (rate, exact, w)
print(w['first_gc'], w['last_gc'], t0, t1, exact, w['suspicious'])
PY
}

# the burst: 2000 x 512-byte pairs per ms between 0.6 s and 0.9 s of the
# program's time; find it in the recording's own clock from the frees
check_amount "$src/churnburst.zst" burst > "$dir/burst.out"
read -r first last t0 t1 exact suspicious < "$dir/burst.out"
[ "$suspicious" = True ] || fail "churnburst: the burst is no churn window: $(cat "$dir/burst.json")"
python3 - "$dir/burst.freed" "$t0" "$t1" <<'PY' || fail "churnburst: the window is not in the burst"
import sys
freed = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
t0, t1 = int(sys.argv[2]), int(sys.argv[3])
# the burst: the stamps freeing more than 1 MiB (heaptrack stamps every
# 10 ms; a quiet stamp frees about 1.3 KiB, a burst one about 10 MiB)
burst = [t for t, b in freed if b > 2**20]
assert len(burst) >= 20, burst
assert burst[0] - 10 <= t0 and t1 <= burst[-1] + 20, (t0, t1, burst[0], burst[-1])
PY
json "$dir/burst.json" "
assert not [w for w in d['windows'] if w['kind'].startswith('leak') and w['suspicious']], d['windows']
(w,) = [w for w in d['windows'] if w['kind'] == 'churn']
assert w['explanation'].startswith('The program freed'), w
assert w['score'] > 100 * 2**20, w
" || fail "churnburst verdicts"

# steady churn: hundreds of MiB/s, but at one rate: no hotspot
check_amount "$src/steadychurn.zst" steady > "$dir/steady.out"
read -r first last t0 t1 exact suspicious < "$dir/steady.out"
[ "$suspicious" = False ] || fail "steadychurn: a churn window: $(cat "$dir/steady.json")"
json "$dir/steady.json" "
(w,) = [w for w in d['windows'] if w['kind'] == 'churn']
assert w['score'] > 100 * 2**20, w   # the rate is seen, it is just even
assert not [w for w in d['windows'] if w['suspicious']], d['windows']
" || fail "steadychurn verdicts"
# allocated and freed bytes between the first and the last time point
# (gc-summary) and the allocation rate (advise): the recording's + and -
"$cli" gc-summary "$src/steadychurn.zst" --json > "$dir/sum.json" || fail "gc-summary"
"$cli" advise "$src/steadychurn.zst" --json > "$dir/adv.json" || fail "advise"
"$cli" timeline "$src/steadychurn.zst" --json > "$dir/tl.json" || fail "timeline"
zstd -dc "$src/steadychurn.zst" | python3 -c '
import json, sys
sizes, now, plus, minus = [], 0, {}, {}
for line in sys.stdin:
    k = line[0]
    if k == "a": sizes.append(int(line.split()[1], 16))
    elif k == "c": now = int(line.split()[1], 16)
    elif k in "+-":
        d = plus if k == "+" else minus
        d[now] = d.get(now, 0) + sizes[int(line.split()[1], 16)]
s = json.load(open(sys.argv[1])); a = json.load(open(sys.argv[2])); pts = json.load(open(sys.argv[3]))["gcs"]
t0, t1 = pts[0]["end_ns"] // 1000000, pts[-1]["end_ns"] // 1000000
alloc = sum(b for t, b in plus.items() if t0 <= t < t1)
freed = sum(b for t, b in minus.items() if t < t1)
assert s["allocated_bytes"] == alloc, (s["allocated_bytes"], alloc)
assert s["freed_bytes"] == freed, (s["freed_bytes"], freed)
assert alloc > 300 * 2**20, alloc
# advise: from the start of the run (all + before the last point)
st = a["stats"]
alloc_all = sum(b for t, b in plus.items() if t < t1)
assert abs(st["alloc_rate"] * st["duration_ns"] / 1e9 - alloc_all) <= 1e-5 * alloc_all, (st, alloc_all)
print(st["alloc_rate"], alloc, alloc_all, (t1 - t0) / 1000)
' "$dir/sum.json" "$dir/adv.json" "$dir/tl.json" > "$dir/rates.txt" || fail "steadychurn allocated bytes: $(cat "$dir/sum.json")"
# a leak into containers that the program frees at exit
# (tests/data/heaptrack/cachegrow.cpp): heaptrack reports no leak, the
# leak window finds the growth and names the command whose ranking shows
# the function that grows them first
rec=$src/cachegrow.zst
"$cli" info "$rec" --json > "$dir/cg-info.json" || fail "info cachegrow"
json "$dir/cg-info.json" "assert d['heaptrack']['leaked_bytes'] == 0, d['heaptrack']" || fail "cachegrow leaks at exit"
"$cli" windows "$rec" --json > "$dir/cg.json" || fail "windows cachegrow"
read -r a b < <(python3 -c "
import json, sys
d = json.load(open('$dir/cg.json'))
(w,) = [w for w in d['windows'] if w['kind'] == 'leak']
assert w['growth'] == 'leak' and w['last_gc'] >= d['gcs'] - 3, (w, d['gcs'])
assert 'tidemark-cli callers TRACE --from-gc %d --to-gc %d' % (w['first_gc'], w['last_gc']) in w['explanation'], w
print(w['first_gc'], w['last_gc'])") || fail "cachegrow leak window: $(cat "$dir/cg.json")"
"$cli" callers "$rec" --from-gc "$a" --to-gc "$b" --functions --json > "$dir/cg-callers.json" || fail "callers cachegrow"
json "$dir/cg-callers.json" "
fs = sorted(d['functions'], key=lambda f: -f['inclusive']['peak'])
own = [f['function'] for f in fs if f['function'] in ('remember', 'work')]
assert own[0] == 'remember', [(f['function'], f['inclusive']) for f in fs[:8]]
# work() holds nothing at the window's end: listed with 0, or not at all
assert all(f['inclusive']['leaked'] == 0 for f in fs if f['function'] == 'work'), fs
(rem,) = [f for f in fs if f['function'] == 'remember']
assert rem['inclusive']['leaked'] > 0.8 * d['total']['leaked'], (rem, d['total'])
" || fail "cachegrow: the growing function is not ranked first"

# one buffer grown by realloc (tests/data/heaptrack/reallocgrow.c): each
# realloc is a new block, so what grows is always young, yet the blocks in
# use do not grow in number: a leak, not a backlog
"$cli" windows "$src/reallocgrow.zst" --json > "$dir/rg.json" || fail "windows reallocgrow"
"$cli" timeline "$src/reallocgrow.zst" --json > "$dir/rg-tl.json" || fail "timeline reallocgrow"
json "$dir/rg.json" "
(w,) = [w for w in d['windows'] if w['kind'] == 'leak']
assert w['growth'] == 'leak' and w['first_gc'] <= 5, w
assert 'backlog' not in w['explanation'].lower() and 'young' not in w['explanation'], w
pts = json.load(open('$dir/rg-tl.json'))['gcs']
a, b = pts[w['first_gc'] - 1], pts[w['last_gc'] - 1]
assert b['live_objects'] <= a['live_objects'] + 2 and b['used_after'] > 5 * a['used_after'], (a, b)
" || fail "reallocgrow is a leak: $(cat "$dir/rg.json")"
echo "ok"
