#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli flamegraph: PNG and SVG of the known call stacks of
# tests/data/heaptrack/calls.c (frame widths are checked in test-render-flame).
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data

"$cli" flamegraph "$src/heaptrack/calls.zst" --png "$dir/a.png" --width 800 || fail "png"
python3 -c "
import struct
b = open('$dir/a.png', 'rb').read()
assert b[:8] == b'\x89PNG\r\n\x1a\n'
w, h = struct.unpack('>II', b[16:24])
# title, padding and 9 rows: all, main, rec x5, leaf (+ 1 for ld.so's 6 frames)
assert w == 800 and 150 <= h <= 260, (w, h)
"
"$cli" flamegraph "$src/heaptrack/calls.zst" --metric peak --search leaf --svg "$dir/a.svg" --height 300 || fail "svg"
python3 -c "
import xml.dom.minidom
d = xml.dom.minidom.parse('$dir/a.svg')
svg = d.documentElement
assert svg.tagName == 'svg' and svg.getAttribute('viewBox') == '0 0 1200 300', svg.getAttribute('viewBox')
"
"$cli" flamegraph "$src/heaptrack/leaker.zst" --metric leaked --bottom-up --png "$dir/b.png" || fail "bottom-up"

set +e
"$cli" flamegraph "$src/heaptrack/calls.zst" --metric nonsense --png "$dir/c.png" 2>/dev/null; [ $? -eq 1 ] || fail "bad metric"
"$cli" flamegraph "$src/heaptrack/calls.zst" 2>/dev/null; [ $? -eq 1 ] || fail "no output"
"$cli" flamegraph "$src/heaptrack/calls.zst" --png "$dir/c.png" --width 5 2>/dev/null; [ $? -eq 1 ] || fail "tiny"
set -e
echo ok
