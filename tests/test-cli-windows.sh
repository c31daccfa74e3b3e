#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli windows end to end: the planted phases of the synthetic
# scenarios (tm-synth.h), the JSON shape of cli.md, options, exit codes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

for s in steady leak churn gc-overhead; do
  "$cli" synth "$s" -o "$dir/$s.tmtrace" 2>/dev/null || fail "synth $s"
  "$cli" windows "$dir/$s.tmtrace" --json > "$dir/$s.json" || fail "windows $s"
  "$cli" windows "$dir/$s.tmtrace" --json --all > "$dir/$s.all.json" || fail "windows --all $s"
done

# every window has the fields of cli.md, with sane values
shape="
kinds = {'leak','leak-peak','leak-regression','gc-overhead','churn'}
for w in d['windows']:
  for k in ['kind','first_gc','last_gc','start_ns','end_ns','score','unit','suspicious','explanation']: assert k in w, k
  assert w['kind'] in kinds, w['kind']
  assert 1 <= w['first_gc'] <= w['last_gc'] <= d['gcs'], w
  assert w['start_ns'] <= w['end_ns'], w
  assert w['unit'] == ('fraction' if w['kind'] == 'gc-overhead' else 'bytes/s'), w
  assert isinstance(w['suspicious'], bool)
  assert len(w['explanation']) > 40
"
for s in steady leak churn gc-overhead; do
  json "$dir/$s.json" "$shape
assert all(w['suspicious'] for w in d['windows'])" || fail "shape $s"
  json "$dir/$s.all.json" "$shape" || fail "shape --all $s"
done

# steady: nothing suspicious, but --all shows the candidates
json "$dir/steady.json" "assert d['windows'] == [], d['windows']" || fail "steady not quiet"
json "$dir/steady.all.json" "
k = [w['kind'] for w in d['windows']]
assert 'gc-overhead' in k and 'churn' in k, k
assert not any(w['suspicious'] for w in d['windows'])
" || fail "steady --all"

# leak: reachable memory grows from 20% of the GCs to the end (graphs
# every 10 GCs: the window starts within one graph interval of 20%)
json "$dir/leak.json" "
n = d['gcs']
w = [w for w in d['windows'] if w['kind'] == 'leak']
assert len(w) == 1, d['windows']
w = w[0]
assert w['series'] == 'reachable', w
assert 0.2 * n - 10 <= w['first_gc'] <= 0.2 * n + 10, (w['first_gc'], n)
assert w['last_gc'] == n, w
assert w['score'] > 0
p = [x for x in d['windows'] if x['kind'] == 'leak-peak']
assert p and w['first_gc'] <= p[0]['first_gc'] <= p[0]['last_gc'] <= w['last_gc']
" || fail "leak phase"

# churn 40%..60%, GC overhead 50%..70% (one GC of rounding at each edge)
json "$dir/churn.json" "
n = d['gcs']
w = [w for w in d['windows'] if w['kind'] == 'churn']
assert len(w) == 1, d['windows']
assert 0.4 * n - 1 <= w[0]['first_gc'] and w[0]['last_gc'] <= 0.6 * n + 1, (w[0], n)
assert not [x for x in d['windows'] if x['kind'] == 'leak']
" || fail "churn phase"
json "$dir/gc-overhead.json" "
n = d['gcs']
w = [w for w in d['windows'] if w['kind'] == 'gc-overhead']
assert len(w) == 1, d['windows']
assert 0.5 * n - 1 <= w[0]['first_gc'] and w[0]['last_gc'] <= 0.7 * n + 1, (w[0], n)
assert w[0]['score'] >= 0.10
" || fail "gc-overhead phase"

# real runs: warm-up, teardown, backlog, a long churn burst (tm-synth.h);
# the JSON says what grows
for s in plateau teardown backlog churn-burst; do
  "$cli" synth "$s" -o "$dir/$s.tmtrace" 2>/dev/null || fail "synth $s"
  "$cli" windows "$dir/$s.tmtrace" --json --all > "$dir/$s.all.json" || fail "windows $s"
  json "$dir/$s.all.json" "$shape" || fail "shape $s"
done
json "$dir/plateau.all.json" "
w = [w for w in d['windows'] if w['kind'] == 'leak'][0]
assert w['growth'] == 'warm-up' and not w['suspicious'], w
assert 50 <= w['plateau_gc'] <= 70, w
assert not any(x['suspicious'] for x in d['windows'] if x['series']), d['windows']
" || fail "plateau is warm-up"
json "$dir/teardown.all.json" "
w = [w for w in d['windows'] if w['kind'] == 'leak'][0]
assert w['growth'] == 'leak' and w['suspicious'] and w['last_gc'] == 190, w
assert 'teardown' in d['note'], d['note']
" || fail "teardown"
json "$dir/backlog.all.json" "
w = [w for w in d['windows'] if w['kind'] == 'leak'][0]
assert w['growth'] == 'backlog' and w['suspicious'], w
" || fail "backlog"
json "$dir/churn-burst.all.json" "
w = [w for w in d['windows'] if w['kind'] == 'churn'][0]
assert w['suspicious'] and 19 <= w['first_gc'] and w['last_gc'] <= 181, w
" || fail "churn burst"
json "$dir/leak.all.json" "
w = [w for w in d['windows'] if w['kind'] == 'leak'][0]
assert w['growth'] == 'leak', w
assert d['note'] is None, d['note']
" || fail "leak growth"
# the paper's rules stay reachable: the plateau is a leak, the burst is not churn
"$cli" windows "$dir/plateau.tmtrace" --json --paper-rules > "$dir/pp.json" || fail "--paper-rules"
json "$dir/pp.json" "assert [w for w in d['windows'] if w['series']], d" || fail "paper plateau"
"$cli" windows "$dir/churn-burst.tmtrace" --json --paper-rules > "$dir/pb.json" || fail "--paper-rules burst"
json "$dir/pb.json" "assert not [w for w in d['windows'] if w['kind'] == 'churn'], d" || fail "paper burst"

# real GC logs (tests/data/gc-logs/README.md): GcWorkload's retained data
# is a bounded sawtooth (halved at 40 MB): no leak on any collector; a
# 4-GC log is too little to judge
logs="$TM_SOURCE_DIR/tests/data/gc-logs"
for f in jdk17-serial.log jdk17-parallel.log jdk17-g1.log; do
  "$cli" windows "$logs/$f" --json > "$dir/log.json" || fail "windows $f"
  json "$dir/log.json" "assert not [w for w in d['windows'] if w['series']], (\"$f\", d['windows'])" \
    || fail "sawtooth $f is not a leak"
done
"$cli" windows "$logs/legacy-serial-SampleSun1_4_2PrintGCDetails.txt" > "$dir/four.txt" || fail "4-GC log"
grep -q "4 GCs: too few to judge growth" "$dir/four.txt" || fail "4-GC log note: $(cat "$dir/four.txt")"

# heaptrack: a C program that leaks and frees everything at exit
# (tests/data/heaptrack/teardown.c): the leak holds up to the teardown,
# the teardown raises no churn, the words are heaptrack's
ht="$TM_SOURCE_DIR/tests/data/heaptrack/teardown.zst"
"$cli" windows "$ht" --json > "$dir/ht.json" || fail "windows heaptrack"
json "$dir/ht.json" "
w = [w for w in d['windows'] if w['kind'] == 'leak']
assert len(w) == 1 and w[0]['growth'] == 'leak' and w[0]['first_gc'] == 1, d['windows']
assert w[0]['last_gc'] == d['gcs'] - 2, (w[0], d['gcs'])
assert 'teardown' in d['note'] and 'time point' in d['note'], d['note']
assert not [x for x in d['windows'] if x['kind'] == 'churn'], d['windows']
assert d['leak_series'] == 'heap in use'
for x in d['windows']:
  assert 'GC' not in x['explanation'] and 'graph-every' not in x['explanation'], x
" || fail "heaptrack teardown"
"$cli" windows "$ht" --json --paper-rules > "$dir/htp.json" || fail "windows heaptrack paper"
json "$dir/htp.json" "assert not [w for w in d['windows'] if w['series']], d['windows']" || fail "paper teardown"

# thresholds are options: above the planted overhead, it is no longer suspicious
"$cli" windows "$dir/gc-overhead.tmtrace" --json --overhead-threshold 0.9 > "$dir/o9.json" || fail "threshold option"
json "$dir/o9.json" "assert not [w for w in d['windows'] if w['kind'] == 'gc-overhead']" || fail "--overhead-threshold"
"$cli" windows "$dir/churn.tmtrace" --json --churn-factor 1000 > "$dir/c.json" || fail "churn option"
json "$dir/c.json" "assert not [w for w in d['windows'] if w['kind'] == 'churn']" || fail "--churn-factor"

# human output: a table with the kinds and the explanations
"$cli" windows "$dir/leak.tmtrace" > "$dir/leak.txt" || fail "text output"
grep -q "^leak " "$dir/leak.txt" || fail "text has no leak row"
grep -q "grew from" "$dir/leak.txt" || fail "text has no explanation"
"$cli" windows "$dir/steady.tmtrace" | grep -q "No suspicious time windows" || fail "steady text"

# usage errors exit 1, unusable input exit 2 with nothing on stdout
code=0; "$cli" windows "$dir/leak.tmtrace" --overhead-threshold 2 >/dev/null 2>&1 || code=$?
[ $code -eq 1 ] || fail "bad threshold exit $code"
code=0; "$cli" windows "$dir/leak.tmtrace" --min-gcs 9 --max-gcs 3 >/dev/null 2>&1 || code=$?
[ $code -eq 1 ] || fail "min > max exit $code"
code=0; "$cli" windows "$dir/leak.tmtrace" --leak-regression-slack 1 >/dev/null 2>&1 || code=$?
[ $code -eq 1 ] || fail "bad slack exit $code"
code=0; "$cli" windows "$dir/leak.tmtrace" --no-such-option >/dev/null 2>&1 || code=$?
[ $code -eq 1 ] || fail "unknown option exit $code"
code=0; "$cli" windows >/dev/null 2>&1 || code=$?
[ $code -eq 1 ] || fail "missing input exit $code"
echo "not a trace" > "$dir/text.txt"
code=0; "$cli" windows "$dir/text.txt" > "$dir/out" 2> "$dir/err" || code=$?
[ $code -eq 2 ] || fail "text file exit $code"
[ ! -s "$dir/out" ] || fail "stdout not empty"
grep -q "text.txt: " "$dir/err" || fail "error line: $(cat "$dir/err")"
code=0; "$cli" windows "$dir/missing.tmtrace" >/dev/null 2>&1 || code=$?
[ $code -eq 2 ] || fail "missing file exit $code"

# a trace cut short: results for what was read, exit 0, a warning
size=$(stat -c %s "$dir/leak.tmtrace")
head -c $((size / 2)) "$dir/leak.tmtrace" > "$dir/cut.tmtrace"
"$cli" windows "$dir/cut.tmtrace" --json --all > "$dir/cut.json" 2> "$dir/cut.err" || fail "cut trace exit"
json "$dir/cut.json" "$shape
assert d['complete'] is False" || fail "cut trace json"
grep -q "offset" "$dir/cut.err" || fail "cut trace warning"

echo "ok"
