#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli on imported formats: HotSpot GC logs (unified and legacy)
# and heaptrack files, detected from their content (copies with neutral
# names prove it), with the counts of tests/data/gc-logs/README.md and the
# heaptrack_print totals of tests/data/heaptrack/README.md.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data

# --- GC logs: names say nothing, content decides ---------------------------
cp "$src/gc-logs/jdk17-g1.log" "$dir/a.data"
"$cli" info "$dir/a.data" --json > "$dir/info.json" || fail "info on a G1 log"
json "$dir/info.json" "
assert d['format'] == 'gc-log', d['format']
assert d['gcs'] == 196, d['gcs']
assert d['complete'] is True and d['warnings'] == []
assert d['vm_version'].startswith('17.0.15'), d['vm_version']
"
"$cli" timeline "$dir/a.data" --json > "$dir/tl.json" || fail "timeline on a G1 log"
json "$dir/tl.json" "
g = d['gcs']
assert len(g) == 196
assert sum(x['pause_ns'] for x in g) == 276602000
kinds = [x['kind'] for x in g]
assert kinds.count('minor') == 114 and kinds.count('mixed') == 2 and kinds.count('concurrent') == 80, kinds
assert all(x['collector'] == 'G1' for x in g)
assert {'Remark', 'Cleanup', 'G1 Evacuation Pause'} <= {x['cause'] for x in g}
"
rows=$("$cli" timeline "$dir/a.data" --csv | wc -l)
[ "$rows" -eq 197 ] || fail "csv rows $rows"
"$cli" windows "$dir/a.data" --json --all > "$dir/win.json" || fail "windows on a G1 log"
json "$dir/win.json" "
kinds = {w['kind'] for w in d['windows']}
assert 'gc-overhead' in kinds and 'churn' in kinds, kinds
"

# JDK 9 Serial: the young GC that encloses a full GC is one major GC
cp "$src/gc-logs/ujl-serial-gc-all_safepoint_os-cpu.txt" "$dir/b.data"
"$cli" timeline "$dir/b.data" --json > "$dir/tl.json" || fail "timeline on a Serial log"
json "$dir/tl.json" "
g = d['gcs']
assert [x['kind'] for x in g] == ['minor', 'minor', 'major'], [x['kind'] for x in g]
assert g[2]['pause_ns'] == 7118000
assert [s['name'] for s in g[2]['spaces']][:2] == ['DefNew', 'Tenured']
"

# legacy: JDK 8 CMS with PrintGCID and date stamps, JDK 6 G1 -verbose:gc
cp "$src/gc-logs/legacy-cms-SampleSun1_8_0CmsPrintGcId.txt" "$dir/c.data"
"$cli" info "$dir/c.data" --json > "$dir/info.json" || fail "info on a CMS log"
json "$dir/info.json" "
assert d['format'] == 'gc-log' and d['gcs'] == 10 and d['complete'] is True
assert d['start_unix_ns'] // 1000000 == 1659374193170 - 169, d['start_unix_ns']
assert '-XX:+UseConcMarkSweepGC' in d['command_line']
"
cp "$src/gc-logs/legacy-g1-SampleSun1_6_0G1_gc_verbose.txt" "$dir/d.data"
"$cli" timeline "$dir/d.data" --json > "$dir/tl.json" || fail "timeline on a G1 verbose log"
json "$dir/tl.json" "
g = d['gcs']
assert len(g) == 2978
assert sum(x['pause_ns'] for x in g) == 62616796000
assert max(x['pause_ns'] for x in g) == 158117700
"

# ZGC and Shenandoah: one concurrent GC per cycle
cp "$src/gc-logs/local-jdk17-zgc.log" "$dir/e.data"
"$cli" timeline "$dir/e.data" --json > "$dir/tl.json" || fail "timeline on a ZGC log"
json "$dir/tl.json" "
g = d['gcs']
assert len(g) == 14 and all(x['kind'] == 'concurrent' for x in g)
assert sum(x['pause_ns'] for x in g) == 432000
"

# malformed lines: reported with file and line, skipped, exit 0
{ head -n 40 "$src/gc-logs/jdk17-serial.log"; echo "[0.5s][info][gc] GC(9) Pause Young (Allocation Failure) 1M->"; echo "ation Failure) 21M->4M(61M) 3.433ms"; echo "program output"; tail -n +41 "$src/gc-logs/jdk17-serial.log"; } > "$dir/bad.log"
"$cli" info "$dir/bad.log" --json > "$dir/bad.json" 2> "$dir/bad.err" || fail "malformed log exit $?"
json "$dir/bad.json" "
assert d['complete'] is False and d['gcs'] == 122, d['gcs']
w = ' '.join(d['warnings'])
assert 'line 41:' in w and 'line 42:' in w, w
assert 'bad.log' in w
assert 'stop_offset' not in d
# the undecorated GC text is a problem; plain program output only a note
assert d['meta']['gclog.program_output_lines'] == '1', d['meta']
"
# read to the end: no "reading stopped at byte offset 0"
grep -q "read to the end" "$dir/bad.err" || fail "malformed log: no read-to-the-end message"
! grep -q "stopped at byte offset" "$dir/bad.err" || fail "malformed log: says reading stopped"

# a gzip-compressed log, and a log holding only the JVM's exit summary
cp "$src/gc-logs/legacy-serial-SampleSun1_6_0PrintHeapAtGC.txt.gz" "$dir/h.data"
"$cli" info "$dir/h.data" --json > "$dir/h.json" || fail "gzip log exit $?"
json "$dir/h.json" "assert d['format'] == 'gc-log' and d['gcs'] == 2 and d['complete'] is True, d"
cp "$src/gc-logs/legacy-shenandoah-SampleOpenJdk1_8_0ShenandoahDetailsShutdown.txt" "$dir/i.data"
"$cli" info "$dir/i.data" > "$dir/i.out" 2> "$dir/i.err" || fail "exit-summary-only log exit $?"
grep -q "^GCs: *0 " "$dir/i.out" || fail "exit-summary-only log: GCs"
grep -q "note: .*no GC events" "$dir/i.err" || fail "exit-summary-only log: no note"

# a crash left NUL bytes at the end: read up to them, say where
head -c 3000 "$src/gc-logs/legacy-cms-SampleSun1_8_0CmsPrintGcId.txt" > "$dir/nul.log"
head -c 20000 /dev/zero >> "$dir/nul.log"
off=$(head -c 3000 "$src/gc-logs/legacy-cms-SampleSun1_8_0CmsPrintGcId.txt" | awk '{ n += length($0) + 1 } END { print n - length($0) - 1 }')
"$cli" info "$dir/nul.log" --json > "$dir/nul.json" 2> "$dir/nul.err" || fail "NUL tail exit $?"
json "$dir/nul.json" "assert d['complete'] is False and d['gcs'] > 0 and d['stop_offset'] == $off, (d, $off)"
grep -q "reading stopped at byte offset $off" "$dir/nul.err" || fail "NUL tail: offset not named"

# rotated parts in any order (one gzip): the timeline of the whole log
log="$src/gc-logs/jdk17-serial.log"
head -n 300 "$log" > "$dir/gc.log.2"
sed -n '301,700p' "$log" > "$dir/gc.log.0"
tail -n +701 "$log" | gzip > "$dir/gc.log.1.gz"
"$cli" timeline "$dir/gc.log.0" "$dir/gc.log.1.gz" "$dir/gc.log.2" --csv > "$dir/series.csv" || fail "series exit $?"
"$cli" timeline "$log" --csv > "$dir/whole.csv"
cmp -s "$dir/series.csv" "$dir/whole.csv" || fail "series timeline differs from the whole log"
"$cli" gc-summary "$dir/gc.log.2" "$dir/gc.log.0" --json > "$dir/s2.json" 2> "$dir/s2.err" || fail "series gc-summary exit $?"
json "$dir/s2.json" "assert d['complete'] is True and d['to_gc'] > 0, d"
# overlapping parts: said, still exit 0
"$cli" info "$dir/gc.log.0" "$dir/gc.log.0" > /dev/null 2> "$dir/ov.err" || fail "overlap exit $?"
grep -q "overlap" "$dir/ov.err" || fail "overlap not reported"
# a part that is not a GC log: usage error
set +e
"$cli" info "$dir/gc.log.0" "$src/heaptrack/leaker.gz" > /dev/null 2> "$dir/mix.err"; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "GC log + heaptrack: exit $rc"
grep -q "only GC logs" "$dir/mix.err" || fail "GC log + heaptrack: message"

# --- heaptrack ---------------------------------------------------------------
check_heaptrack() {
  "$cli" info "$1" --json > "$dir/ht.json" || fail "info on $1"
  json "$dir/ht.json" "
assert d['format'] == 'heaptrack', d['format']
assert d['allocs'] == 7801 and d['deaths'] == 7501, (d['allocs'], d['deaths'])
assert d['peak_used_bytes'] == 376712
assert d['complete'] is True and d['warnings'] == []
assert d['command_line'] == './leaker'
"
  "$cli" windows "$1" --json > "$dir/win.json" || fail "windows on $1"
  json "$dir/win.json" "
leaks = [w for w in d['windows'] if w['kind'] == 'leak' and w['suspicious']]
assert leaks, d
assert leaks[0]['value_end'] == 302400, leaks[0]
"
}
cp "$src/heaptrack/leaker.gz" "$dir/f.data"
check_heaptrack "$dir/f.data"

# zstd, heaptrack's default: the loader looks inside zstd files
cp "$src/heaptrack/leaker.zst" "$dir/g.data"
check_heaptrack "$dir/g.data"

# not a log of any kind: exit 2, one line naming the file
printf 'hello\nworld\n' > "$dir/text.data"
set +e
"$cli" info "$dir/text.data" > "$dir/out" 2> "$dir/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "plain text exit $rc"
[ ! -s "$dir/out" ] || fail "plain text: stdout not empty"
grep -q "text.data" "$dir/err" || fail "plain text: message names the file"
# heaptrack's windows speak of blocks, not of objects kept alive
"$cli" windows "$src/heaptrack/leaker.zst" > "$dir/hw.txt" || fail "heaptrack windows"
tr '\n' ' ' < "$dir/hw.txt" | tr -s ' ' | grep -q "blocks are allocated and not freed" || fail "heaptrack leak wording: $(cat "$dir/hw.txt")"
if grep -q "kept alive" "$dir/hw.txt"; then fail "heaptrack leak says objects are kept alive"; fi
echo "ok"
