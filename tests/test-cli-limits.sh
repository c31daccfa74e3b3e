#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --memory-limit on the loading commands: a trace whose model needs more
# than the limit loads up to there (exit 0, "complete": false, the limit in
# the warning); a bad size is bad usage (exit 1).  The bombs themselves are
# in test-hostile.c.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak --scale 4 -o "$dir/leak.tmtrace" >/dev/null
"$cli" info "$dir/leak.tmtrace" --json > "$dir/full.json" || fail "info"
json "$dir/full.json" "
assert d['complete'] is True and d['memory_limited'] is False
assert d['memory_limit_bytes'] >= 1 << 20
assert d['allocs'] > 400000, d['allocs']
"

# a row per object that survives a GC, counters for the rest (a few bytes
# an allocation, docs/model.md): 4M holds well under the whole trace
"$cli" info "$dir/leak.tmtrace" --json --memory-limit 4M > "$dir/part.json" 2> "$dir/err" \
  || fail "info --memory-limit 4M exits non-zero"
json "$dir/part.json" "
f = json.load(open('$dir/full.json'))
assert d['complete'] is False and d['memory_limited'] is True
assert d['memory_limit_bytes'] == 4 << 20, d['memory_limit_bytes']
assert 0 < d['allocs'] < f['allocs'], (d['allocs'], f['allocs'])
assert 0 < d['gcs'] < f['gcs'], (d['gcs'], f['gcs'])
assert d['stop_offset'] > 0
assert any('memory limit of 4.00 MiB' in w and '--memory-limit' in w for w in d['warnings']), d['warnings']
"
grep -q "incomplete trace, reading stopped at byte offset" "$dir/err" || fail "no stop warning on stderr"
grep -q "memory limit of 4.00 MiB" "$dir/err" || fail "stderr does not name the limit"

# every loading command takes it; the analyses run on the partial trace
for cmd in "timeline" "windows" "heap --gc 2" "trend --from-gc 1 --to-gc 3" \
           "ds-growth --from-gc 10 --to-gc 20" "chart --kind memory --png $dir/c.png" \
           "allocs" "lifetimes" "survival" "floating-garbage"; do
  # shellcheck disable=SC2086
  "$cli" $cmd "$dir/leak.tmtrace" --memory-limit 4M > /dev/null 2> "$dir/err" \
    || fail "$cmd --memory-limit 4M"
  grep -q "memory limit of 4.00 MiB" "$dir/err" || fail "$cmd: no memory limit warning"
done
"$cli" info "$dir/leak.tmtrace" --memory-limit 1.5G --json > "$dir/big.json"
json "$dir/big.json" "assert d['complete'] is True and d['memory_limit_bytes'] == 1536 << 20"

# bad sizes: usage errors naming the option
for bad in 2X 0 -5M 512K; do
  set +e
  "$cli" info "$dir/leak.tmtrace" --memory-limit "$bad" > "$dir/out" 2> "$dir/err"
  code=$?
  set -e
  [ "$code" -eq 1 ] || fail "--memory-limit $bad: exit $code, expected 1"
  grep -q -- "--memory-limit" "$dir/err" || fail "--memory-limit $bad: message does not name the option"
  [ ! -s "$dir/out" ] || fail "--memory-limit $bad: output on stdout"
done
# commands that load nothing do not take it
set +e
"$cli" synth leak --memory-limit 1G -o "$dir/x.tmtrace" > /dev/null 2>&1
code=$?
set -e
[ "$code" -eq 1 ] || fail "synth accepted --memory-limit"

# a trace read to the end with 500 bad records: every problem is counted
python3 -c "
import sys
out = bytearray(b'TMTRACE1')
out += bytes([0x01, 8, 1, 0, 0, 0, 0, 8, 0, 0])          # HEADER
out += bytes([0x10, 7, 2, 5, 0, 0, 16, 0, 0]) * 500      # ALLOC of undefined type 5
out += bytes([0x7f, 4, 0, 0, 0, 0])                      # END
open(sys.argv[1], 'wb').write(out)
" "$dir/bad.tmtrace"
"$cli" info "$dir/bad.tmtrace" --json > "$dir/bad.json" 2> "$dir/err" || fail "info on 500 bad records"
json "$dir/bad.json" "
assert d['complete'] is False and 'stop_offset' not in d
assert d['warnings_total'] == 500 and len(d['warnings']) == 200, (d['warnings_total'], len(d['warnings']))
"
grep -q "bad.tmtrace: read to the end with 500 problems" "$dir/err" || { cat "$dir/err"; fail "problem count"; }
grep -q "bad.tmtrace: 480 more warnings" "$dir/err" || { cat "$dir/err"; fail "more warnings count"; }
grep -q "stopped at byte offset 0" "$dir/err" && fail "claims a stop at offset 0"
# GC logs: the events wait until the log is read, so they count too; the
# rotated parts of one log share the limit
python3 -c "
import sys
for part in (1, 2):
    with open(sys.argv[part], 'w') as f:
        for i in range(60000):
            g = (part - 1) * 60000 + i
            f.write('[%.3fs][info][gc] GC(%d) Pause Young (Allocation Failure) 25M->23M(92M) 1.500ms\\n' % (1 + g * 0.01, g))
" "$dir/gc.log.0" "$dir/gc.log.1"
"$cli" info "$dir/gc.log.0" --json > "$dir/gc-full.json" || fail "info on a GC log"
"$cli" info "$dir/gc.log.0" --json --memory-limit 2M > "$dir/gc-part.json" 2> "$dir/err" \
  || fail "info on a GC log --memory-limit 2M"
json "$dir/gc-part.json" "
f = json.load(open('$dir/gc-full.json'))
assert f['gcs'] == 60000 and f['memory_limited'] is False, f['gcs']
assert d['memory_limited'] is True and d['complete'] is False
assert 1000 < d['gcs'] < 60000, d['gcs']
"
grep -q "memory limit of 2.00 MiB" "$dir/err" || { cat "$dir/err"; fail "GC log: stderr does not name the limit"; }
"$cli" info "$dir/gc.log.0" "$dir/gc.log.1" --json --memory-limit 4M > "$dir/gc-two.json" 2> "$dir/err" \
  || fail "two parts --memory-limit 4M"
json "$dir/gc-two.json" "
assert d['memory_limited'] is True and 1000 < d['gcs'] < 120000, d['gcs']
"
echo "ok"
