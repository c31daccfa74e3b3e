#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli advise on real GC logs with known answers: each rule that a
# log shows fires with the GCs that show it; the logs without a problem
# and the synthetic steady trace get no advice at all.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
logs="$TM_SOURCE_DIR/tests/data/gc-logs"
adv="$TM_SOURCE_DIR/tests/data/advice"

rules() { "$cli" advise --json "$@" 2>/dev/null > "$dir/a.json" || fail "advise $*"
          python3 -c "import json; print(' '.join(a['rule'] for a in json.load(open('$dir/a.json'))['advice']))"; }

# healthy runs: JDK 17 logs of a paced workload, small samples of every collector
for f in jdk17-g1.log jdk17-parallel.log jdk17-serial.log local-jdk17-g1-gc-decorated.log \
         local-jdk17-parallel-uptime.log local-jdk17-serial-gc-nanos.log local-jdk17-shenandoah.log \
         local-jdk17-zgc.log ujl-g1-gc-all_safepoint_os-cpu.txt ujl-serial-gc-all_safepoint_os-cpu.txt \
         ujl-shenandoah-jdk17.txt ujl-zgc-gc-other.txt legacy-shenandoah-SampleOpenJdk1_8_0-332.txt \
         ujl-g1-jdk17-full-concurrent-cycle.txt legacy-cms-SampleSun1_8_0CmsPrintGcId.txt; do
  r=$(rules "$logs/$f")
  [ -z "$r" ] || fail "$f: advice on a log without a problem: $r"
  r=$(rules --goal latency "$logs/$f")   # the only goal with a rule of its own
  [ -z "$r" ] || fail "$f --goal latency: $r"
done
"$cli" synth steady -o "$dir/steady.tmtrace" 2>/dev/null
[ -z "$(rules "$dir/steady.tmtrace")" ] || fail "steady synthetic trace got advice"

# The synthetic backlog (a queue whose jobs wait a few GCs, in growing
# numbers) and leak (objects kept for good): both grow until the heap is
# full, but the backlog's advice is to bound the queue, not a leak hunt.
"$cli" synth backlog -o "$dir/backlog.tmtrace" 2>/dev/null
[ "$(rules "$dir/backlog.tmtrace")" = backlog ] || fail "synthetic backlog: $(rules "$dir/backlog.tmtrace")"
json "$dir/a.json" "
a = d['advice'][0]
assert a['title'].startswith('Backlog') and 'Bound the queue' in a['action'], a
assert 'reachable memory' in a['finding'], a
" || fail "backlog advice"
"$cli" synth leak -o "$dir/leak.tmtrace" 2>/dev/null
[ "$(rules "$dir/leak.tmtrace")" = leak ] || fail "synthetic leak: $(rules "$dir/leak.tmtrace")"

# System.gc(): GCs 2-5 of the JDK 8 Parallel sample (GCViewer: 2 young and 2 full by System.gc())
rules "$logs/legacy-parallel-SampleSun1_8_0ParallelPrintGCID.txt" > /dev/null
json "$dir/a.json" "
a = [x for x in d['advice'] if x['rule'] == 'explicit-gc']
assert len(a) == 1 and a[0]['gcs'] == [2, 3, 4, 5], d['advice']
assert a[0]['flags'] == '-XX:+DisableExplicitGC'
assert 'System.gc()' in a[0]['finding']
assert d['stats']['collector'] == 'Parallel' and d['stats']['gcs'] == 5
" || fail "explicit-gc"

# JDK 17 G1 with the live data filling a 32 MiB heap: 27 evacuation
# failures and heap-too-small over the 18 full GCs; no leak (it does not grow)
rules "$adv/jdk17-g1-to-space-exhausted.log" > /dev/null
json "$dir/a.json" "
r = {x['rule']: x for x in d['advice']}
assert set(r) == {'evacuation-failure', 'heap-too-small'}, list(r)
e = r['evacuation-failure']
assert e['n_gcs'] == 27 and e['gcs'][:4] == [10, 11, 14, 15], e
assert e['flags'] == '-XX:G1ReservePercent=20'
h = r['heap-too-small']
assert h['n_gcs'] == 18, h
assert h['flags'] == '-Xmx96m', h
assert d['stats']['full'] == 18
" || fail "to-space exhausted"
n=$(grep -c 'To-space exhausted' "$adv/jdk17-g1-to-space-exhausted.log")
[ "$n" = 27 ] || fail "fixture changed: $n To-space exhausted lines"

# the JDK 6 G1 "(to-space overflow)" pause
rules "$adv/legacy-g1-SampleSun1_6_0G1_young_toSpaceOverflow.txt" > /dev/null
json "$dir/a.json" "assert [(x['rule'], x['gcs']) for x in d['advice']] == [('evacuation-failure', [1])], d['advice']" \
  || fail "to-space overflow"

# a range: the advice for GCs 1-9 of the G1 log has no evacuation failure
rules --from-gc 1 --to-gc 9 "$adv/jdk17-g1-to-space-exhausted.log" > /dev/null
json "$dir/a.json" "assert 'evacuation-failure' not in [x['rule'] for x in d['advice']]
assert d['stats']['first_gc'] == 1 and d['stats']['last_gc'] == 9" || fail "range"

# text output names the flags and the GCs
"$cli" advise "$adv/jdk17-g1-to-space-exhausted.log" > "$dir/a.txt" || fail "text"
grep -q 'Try: -XX:G1ReservePercent=20' "$dir/a.txt" || fail "text flags"
grep -q 'GCs: 10, 11, 14' "$dir/a.txt" || fail "text GCs"
"$cli" advise "$logs/jdk17-g1.log" | grep -q 'No advice' || fail "text no advice"

# the knowledge base: jdk17-g1.log (400 MB/s) resembles fast-allocator;
# the suggestion is that workload's, sized by this log's live data
"$cli" advise --json --kb "$TM_SOURCE_DIR/tests/data/kb/two.kb" "$logs/jdk17-g1.log" > "$dir/k.json" || fail "advise --kb"
json "$dir/k.json" "
s = d['similar']
assert [x['name'] for x in s] == ['fast-allocator', 'idle-big'], s
assert s[0]['distance'] < s[1]['distance']
g = d['suggested']
assert g['throughput']['config'] == 'collector=Parallel heap=3x', g
assert g['throughput']['flags'].startswith('-XX:+UseParallelGC -Xmx'), g
assert g['latency']['config'] == 'collector=ZGC'
assert g['footprint']['config'] == 'collector=Serial heap=1.5x'   # only idle-big has one
# the decision trees: throughput splits the two on allocation halfway
# between 0.3 and 2.6; the other goals have one workload each (a leaf)
t = d['decision_tree']
assert t['throughput'] == {'config': 'collector=Parallel heap=3x',
                           'conditions': ['log10 allocation MiB/s > 1.45'], 'like': ['fast-allocator']}, t
assert t['latency'] == {'config': 'collector=ZGC', 'conditions': [], 'like': ['fast-allocator']}, t
assert t['footprint'] == {'config': 'collector=Serial heap=1.5x', 'conditions': [], 'like': ['idle-big']}, t
" || fail "similar"
"$cli" advise --kb "$TM_SOURCE_DIR/tests/data/kb/two.kb" "$logs/jdk17-g1.log" \
  | grep -q '^  decision tree for throughput collector=Parallel heap=3x: log10 allocation MiB/s > 1.45 (like fast-allocator)$' \
  || fail "decision tree text"
"$cli" advise --kb "$TM_SOURCE_DIR/tests/data/kb/two.kb" "$logs/jdk17-g1.log" | grep -q '^Resembles (knowledge base): fast-allocator' \
  || fail "similar text"
"$cli" advise --json --no-kb "$logs/jdk17-g1.log" | python3 -c "import json,sys; assert 'similar' not in json.load(sys.stdin)" \
  || fail "--no-kb"

# age tables of real JDK 17 logs (tests/data/advice/README.md): survivors
# that live on from age 2 at threshold 15, a threshold pinned at 1, and
# short-lived survivors with no advice; a window of the first 30 GCs too
rules "$adv/jdk17-longlived-SerialGC-age.log.gz" > /dev/null
json "$dir/a.json" "
a = [x for x in d['advice'] if x['rule'] == 'tenuring-threshold']
assert len(a) == 1 and a[0]['flags'] == '-XX:MaxTenuringThreshold=2', d['advice']
assert a[0]['n_gcs'] >= 80 and 'reach age 2' in a[0]['finding'] and 'ages 2 to 14' in a[0]['finding']
" || fail "tenuring-threshold"
r=$(rules --from-gc 1 --to-gc 30 "$adv/jdk17-longlived-SerialGC-age.log.gz")
grep -qw tenuring-threshold <<< "$r" || fail "tenuring-threshold in a window: $r"
r=$(rules "$adv/jdk17-medium-SerialGC-age.log.gz")
grep -qw survivor-too-small <<< "$r" || fail "survivor-too-small: $r"
grep -qw tenuring-threshold <<< "$r" && fail "medium: tenuring-threshold"
[ -z "$(rules "$adv/jdk17-short-SerialGC-age.log.gz")" ] || fail "short-lived survivors got advice"

# usage and input errors
set +e
"$cli" advise --goal speed "$logs/jdk17-g1.log" 2>/dev/null; [ $? = 1 ] || fail "bad goal exit"
"$cli" advise --from-gc 500 "$logs/jdk17-g1.log" 2>/dev/null; [ $? = 1 ] || fail "bad range exit"
"$cli" advise "$dir/missing.log" 2>/dev/null; [ $? = 2 ] || fail "missing file exit"
"$cli" advise --kb "$dir/missing.kb" "$logs/jdk17-g1.log" 2>/dev/null; [ $? = 2 ] || fail "missing kb exit"
set -e
echo ok
