#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli tune on tiny bundled workloads, within a minute: a
# 2-configuration budget gives a table and a recommendation; a
# configuration that crashes the JVM is reported and skipped; a program
# that cannot run at all is an input error; Ctrl-C stops it early.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
command -v javac > /dev/null || { echo "no javac: skipped"; exit 77; }
wl="$TM_SOURCE_DIR/data/workloads"
javac -d "$dir" "$wl/Churn.java" "$wl/LiveSet.java"

# two configurations, one run each: the default and the first variation
"$cli" tune --max-configs 2 --runs-per-config 1 --no-kb --json -- java -cp "$dir" Churn 300 \
  > "$dir/t.json" 2> "$dir/t.err" || { cat "$dir/t.err"; fail "tune"; }
json "$dir/t.json" "
c = d['configs']
assert len(c) == 2, c
assert c[0]['config'] == 'default' and c[0]['flags'] == ''
assert c[1]['config'] != 'default'
for x in c:
  assert not x['failed'], x
  assert x['runs'] == 1 and x['ok_runs'] == 1
  assert x['wall_s'] > 0.2 and x['wall_min_s'] <= x['wall_s'] <= x['wall_max_s']
  assert 0 <= x['gc_throughput'] <= 1 and x['peak_rss_bytes'] > 10 * 2**20
  assert x['pause_p50_ns'] <= x['pause_p99_ns'] <= x['pause_max_ns']
assert sorted(x['rank'] for x in c) == [1, 2]
assert d['stopped'] == 'configuration budget reached', d['stopped']
r = d['recommended']
assert r['config'] in [x['config'] for x in c] or r['config'] == 'default'
assert r['ratio_to_default'] > 0 and r['noise'] >= 0.03
assert d['live_bytes'] >= 0 and d['goal'] == 'throughput'
" || fail "tune json"
grep -q 'tune: \[1/2\] default' "$dir/t.err" || fail "progress"

# text: the table and a recommendation line
"$cli" tune -q --max-configs 2 --runs-per-config 1 --no-kb --goal footprint -- java -cp "$dir" Churn 300 > "$dir/t.txt" \
  || fail "tune text"
grep -q '^RANK CONFIGURATION' "$dir/t.txt" || fail "table header"
grep -q '^1 ' "$dir/t.txt" && grep -q '^2 ' "$dir/t.txt" || fail "two ranked rows"
grep -q '^Recommended for footprint: ' "$dir/t.txt" || fail "recommendation"

# a configuration with a heap far below the live data fails (OutOfMemoryError): reported and skipped
"$cli" tune -q --max-configs 2 --runs-per-config 2 --no-kb --json --config 'heap=0.1x' \
  -- java -cp "$dir" LiveSet 300 20 > "$dir/f.json" || fail "tune with a failing config"
json "$dir/f.json" "
c = d['configs']
assert [x['config'] for x in c] == ['default', 'heap=0.1x'], c
f = c[1]
assert f['failed'] and f['ok_runs'] == 0 and f['runs'] == 1, f
assert 'exit status' in f['error'] and 'rank' not in f, f
assert d['recommended']['config'] == 'default'
" || fail "failed config"

# a program that does not run under the default: input error, nothing on stdout
set +e
"$cli" tune -q --max-configs 2 --runs-per-config 1 --no-kb -- java -cp "$dir" NoSuchClass > "$dir/n.out" 2> "$dir/n.err"
[ $? = 2 ] || fail "failing program exit"
set -e
[ ! -s "$dir/n.out" ] || fail "stdout on failure"
grep -q 'fails under the JVM' "$dir/n.err" || fail "failure message"

# Ctrl-C (SIGINT to tidemark-cli) stops a 20 s run early with status 130
start=$(date +%s)
set +e
timeout --preserve-status -s INT 2 "$cli" tune -q --no-kb -- java -cp "$dir" Churn 20000 > /dev/null 2> "$dir/c.err"
code=$?
set -e
[ "$code" = 130 ] || fail "cancel exit $code"
[ $(( $(date +%s) - start )) -lt 15 ] || fail "cancel took too long"

# SIGTERM to tidemark-cli alone (not to the JVM): it stops the JVM itself
start=$(date +%s)
"$cli" tune -q --no-kb -- java -cp "$dir" Churn 20000 > /dev/null 2>&1 &
pid=$!
sleep 2
kill -TERM $pid
set +e
wait $pid
code=$?
set -e
[ "$code" = 130 ] || fail "SIGTERM exit $code"
[ $(( $(date +%s) - start )) -lt 15 ] || fail "SIGTERM took too long"

# usage errors
set +e
"$cli" tune --goal speed -- java -version 2> /dev/null; [ $? = 1 ] || fail "bad goal"
"$cli" tune --max-configs 2 2> /dev/null; [ $? = 1 ] || fail "no program"
"$cli" tune --config 'collector=Epsilon' -- java -version 2> /dev/null; [ $? = 1 ] || fail "bad config"
set -e
echo ok
