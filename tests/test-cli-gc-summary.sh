#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli gc-summary: the JDK 1.4.2 Serial sample, whose answers are
# worked out by hand in tests/test-gc-summary.c, whole and for a range;
# usage errors; a gzip log.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data/gc-logs
log="$src/legacy-serial-SampleSun1_4_2PrintGCDetails.txt"

"$cli" gc-summary "$log" --json > "$dir/all.json" || fail "gc-summary exit $?"
json "$dir/all.json" "
assert d['from_gc'] == 1 and d['to_gc'] == 4
assert abs(d['throughput'] * 100 - 94.133029724) < 1e-8, d['throughput']
p = d['pauses']
assert p['count'] == 4 and p['total_ns'] == 1912142500 and p['p50_ns'] == 285856100 and p['p99_9_ns'] == 814207800, p
assert d['by_kind']['minor']['count'] == 1 and d['by_kind']['major']['count'] == 3, d['by_kind']
assert d['full_gcs'] == {'count': 3, 'total_ns': 1903715300}
assert d['allocated_bytes'] == 25115 * 1024 and d['promoted_bytes'] == 148 * 1024
assert d['freed_bytes'] == 12735 * 1024 and d['footprint_bytes'] == 18640 * 1024
a = d['after_full_gc']
assert a['count'] == 3 and a['max_bytes'] == 13914 * 1024 and abs(a['slope_bytes_per_s'] - 415899.451) < 0.01, a
"

"$cli" gc-summary "$log" --from-gc 2 --to-gc 3 --json > "$dir/range.json" || fail "range exit $?"
json "$dir/range.json" "
assert d['from_gc'] == 2 and d['to_gc'] == 3 and d['pauses']['count'] == 2
assert d['promoted_bytes'] is None and d['promotion_rate'] is None
assert d['allocated_bytes'] == 10866 * 1024
"
"$cli" gc-summary "$log" --from-gc 3 > "$dir/text" || fail "text exit $?"
grep -q "GC 3 to GC 4" "$dir/text" || fail "text: range"
grep -q "^Throughput: " "$dir/text" || fail "text: throughput"
grep -q "^Full GCs:        2 " "$dir/text" || fail "text: full GCs"

# bad ranges are usage errors
set +e
"$cli" gc-summary "$log" --from-gc 3 --to-gc 2 > /dev/null 2>&1; rc1=$?
"$cli" gc-summary "$log" --from-gc 9 > /dev/null 2> "$dir/err"; rc2=$?
set -e
[ "$rc1" -eq 1 ] && [ "$rc2" -eq 1 ] || fail "bad ranges: exit $rc1 $rc2"
grep -q "GC 9 does not exist" "$dir/err" || fail "bad range message: $(cat "$dir/err")"

# compressed logs work the same
"$cli" gc-summary "$src/legacy-serial-SampleSun1_6_0PrintHeapAtGC.txt.gz" --json > "$dir/gz.json" || fail "gzip exit $?"
json "$dir/gz.json" "assert d['pauses']['total_ns'] == 27659900, d['pauses']"

# a log with no GC yet (the JVM's header only) has an empty summary, not an error
printf '%s\n' 'Java HotSpot(TM) 64-Bit Server VM (25.45-b02) for linux-amd64 JRE (1.8.0_45-b15)' \
  'CommandLine flags: -XX:+PrintGC -XX:+PrintGCDetails -XX:+UseParallelGC' > "$dir/header.log"
"$cli" gc-summary "$dir/header.log" --json > "$dir/empty.json" || fail "no-GC log: exit $?"
json "$dir/empty.json" "
assert d['from_gc'] == 0 and d['to_gc'] == 0 and d['pauses']['count'] == 0 and d['throughput'] is None, d
assert d['complete'] is True
"
"$cli" gc-summary "$dir/header.log" > "$dir/empty.txt" || fail "no-GC log, text: exit $?"
grep -q "no GC in the log" "$dir/empty.txt" || fail "no-GC log, text: $(cat "$dir/empty.txt")"
echo ok
