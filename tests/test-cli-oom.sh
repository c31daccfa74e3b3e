#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `info` shows OutOfMemoryErrors and graphs that failed or were taken at an
# OOM or post-mortem, on a raw trace written here from the spec alone
# (src/libtidemark/trace-format.md), with known answers.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

python3 - "$dir/oom.tmtrace" <<'PY'
import sys
def uv(n):
    out = bytearray()
    while True:
        b = n & 0x7F; n >>= 7
        out.append(b | 0x80 if n else b)
        if not n: return bytes(out)
def s(t): b = t.encode(); return uv(len(b)) + b
def rec(tag, p): return bytes([tag]) + uv(len(p)) + p
st = bytearray(b"TMTRACE1")
st += rec(0x01, uv(1) + uv(0) + s("VM") + s("17") + s("java Leak") + uv(8) + uv(0) + uv(3))
st += rec(0x02, uv(1) + uv(3) + s("Old"))
st += rec(0x03, uv(1) + s("java.lang.Object") + uv(0))
st += rec(0x03, uv(2) + s("Leak$1") + uv(0) + uv(1) + uv(0))       # superclass Object
st += rec(0x06, uv(1) + s("main"))
st += rec(0x10, uv(2) + uv(2) + uv(0) + uv(1) + uv(64) + uv(0) + uv(0))   # object 1, 64 bytes
gc = lambda n, t: rec(0x20, uv(n) + uv(t) + uv(2) + s("MarkSweepCompact") + s("Allocation Failure")) + \
                  rec(0x21, uv(n) + uv(t + 1000) + uv(1000) + uv(1) + uv(1) + uv(64) + uv(64) + uv(128))
graph = lambda n: rec(0x22, uv(n)) + rec(0x23, uv(1) + uv(1) + uv(1) + uv(0)) + rec(0x25, uv(n) + uv(0))
st += gc(1, 1000000) + graph(1)
st += gc(2, 2000000) + rec(0x27, uv(2) + s("walk abandoned"))
st += gc(3, 3000000)
st += rec(0x26, uv(3500000) + uv(3) + uv(1) + uv(1) + s("Java heap space"))
st += rec(0x28, uv(3) + uv(1)) + graph(3)
st += gc(4, 4000000) + graph(4) + rec(0x28, uv(4) + uv(2))
st += rec(0x7F, uv(1) + uv(0) + uv(4) + uv(5000000))
open(sys.argv[1], "wb").write(st)
PY

"$cli" info "$dir/oom.tmtrace" --json > "$dir/info.json" || fail "info --json"
json "$dir/info.json" "
assert d['complete'] is True, d['warnings']
assert d['gcs'] == 4 and d['graphs'] == 3, d
assert d['graphs_failed'] == 1 and d['graphs_at_oom'] == 1 and d['graphs_post_mortem'] == 1, d
assert d['oom_events'] == [{'time_ns': 3500000, 'gc_before': 3, 'kind': 'java_heap', 'thread': 'main',
                            'message': 'Java heap space'}], d['oom_events']
"
"$cli" info "$dir/oom.tmtrace" > "$dir/info.txt" || fail "info"
grep -q "^GCs: *4 (3 with a reference graph, 1 taken at OutOfMemoryError, 1 post-mortem, 1 failed walk)" "$dir/info.txt" \
  || fail "graph summary: $(cat "$dir/info.txt")"
grep -q "^OutOfMemoryError: Java heap space at 3.5 ms (after GC 3), thread main: Java heap space" "$dir/info.txt" \
  || fail "OOM line: $(cat "$dir/info.txt")"

"$cli" timeline "$dir/oom.tmtrace" --json > "$dir/tl.json" || fail "timeline --json"
json "$dir/tl.json" "
g = d['gcs']
assert [x['graph'] for x in g] == ['complete', 'failed', 'complete', 'complete'], g
assert [x.get('graph_context') for x in g] == [None, None, 'oom', 'post-mortem'], g
assert g[1]['reachable_bytes'] is None and g[3]['reachable_bytes'] == 64, g
"
"$cli" timeline "$dir/oom.tmtrace" | grep -q "graph of GC 4 taken post-mortem" || fail "timeline text"

# A trace without any: empty list, zero counts, no OOM line.
"$cli" synth steady --gcs 20 -o "$dir/plain.tmtrace" >/dev/null 2>&1 || fail "synth"
"$cli" info "$dir/plain.tmtrace" --json > "$dir/plain.json"
json "$dir/plain.json" "assert d['oom_events'] == [] and d['graphs_failed'] == 0 and d['graphs_post_mortem'] == 0, d"
"$cli" info "$dir/plain.tmtrace" | grep -q OutOfMemoryError && fail "OOM line without an OOM"
echo ok
