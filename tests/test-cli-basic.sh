#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli end to end: exit codes, JSON shapes, cut traces.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" --scale 0.2 2>/dev/null || fail "synth"
"$cli" info "$dir/leak.tmtrace" --json > "$dir/info.json" || fail "info"
json "$dir/info.json" "
assert d['format_version'] == 1
assert d['complete'] is True
assert d['gcs'] == 200, d['gcs']
assert d['graphs'] == 20
assert d['allocs'] > 0 and d['deaths'] > 0
assert d['warnings'] == []
for k in ['vm','command_line','duration_ns','alloc_sample_bytes','peak_used_bytes']: assert k in d, k
"
"$cli" timeline "$dir/leak.tmtrace" --json > "$dir/tl.json" || fail "timeline"
json "$dir/tl.json" "
g = d['gcs']
assert len(g) == 200
for x in g:
  for k in ['id','start_ns','end_ns','kind','cause','pause_ns','used_before','used_after','freed_bytes','live_objects','reachable_bytes']: assert k in x, k
  assert x['freed_bytes'] == max(0, x['used_before'] - x['used_after'])
assert g[9]['reachable_bytes'] is not None and g[8]['reachable_bytes'] is None
assert g[0]['kind'] == 'minor' and g[24]['kind'] == 'major'
"
n=$("$cli" timeline "$dir/leak.tmtrace" --csv | wc -l)
[ "$n" -eq 201 ] || fail "csv rows $n"

# cut short: exit 0, complete false, warning with the file and offset
size=$(stat -c %s "$dir/leak.tmtrace")
head -c $((size * 2 / 3)) "$dir/leak.tmtrace" > "$dir/cut.tmtrace"
"$cli" info "$dir/cut.tmtrace" --json > "$dir/cut.json" 2> "$dir/cut.err" || fail "cut trace exit $?"
json "$dir/cut.json" "assert d['complete'] is False; assert 0 < d['gcs'] < 200; assert d['warnings']"
grep -q "cut.tmtrace" "$dir/cut.err" || fail "warning names the file"
grep -q "offset" "$dir/cut.err" || fail "warning names the offset"

# unusable input: exit 2 with "FILE: reason", nothing on stdout
echo "not a trace" > "$dir/text.txt"
set +e
"$cli" info "$dir/text.txt" > "$dir/out" 2> "$dir/err"; code=$?
set -e
[ $code -eq 2 ] || fail "text file exit $code"
[ ! -s "$dir/out" ] || fail "stdout not empty"
grep -q "^$dir/text.txt: " "$dir/err" || fail "error line: $(cat "$dir/err")"
set +e
"$cli" info "$dir/missing.tmtrace" 2>/dev/null; [ $? -eq 2 ] || fail "missing file"
"$cli" info 2>/dev/null; [ $? -eq 1 ] || fail "missing argument"
"$cli" info --bogus "$dir/leak.tmtrace" 2>/dev/null; [ $? -eq 1 ] || fail "unknown option"
"$cli" frobnicate 2>/dev/null; [ $? -eq 1 ] || fail "unknown command"
"$cli" synth nosuch -o "$dir/x" 2>/dev/null; [ $? -eq 1 ] || fail "unknown scenario"
set -e
# (through a file: grep -q stops reading at the first match, which under
# pipefail would fail a help longer than one pipe write)
"$cli" --help > "$dir/help" && grep -q "timeline" "$dir/help" || fail "help"
echo "1 passed, 0 failed"
