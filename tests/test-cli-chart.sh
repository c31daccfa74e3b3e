#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli chart: PNG of the requested size, documented exit codes.
set -u
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" >/dev/null || fail "synth"

png_size() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"; }

"$cli" chart "$dir/leak.tmtrace" --kind memory --png "$dir/m.png" --width 640 --height 240 || fail "memory chart"
[ "$(png_size "$dir/m.png")" = "640x240" ] || fail "memory size $(png_size "$dir/m.png")"
"$cli" chart "$dir/leak.tmtrace" --png "$dir/d.png" || fail "default kind"
[ "$(png_size "$dir/d.png")" = "1200x400" ] || fail "default size"
for k in objects overhead; do
  "$cli" chart "$dir/leak.tmtrace" --kind $k --png "$dir/$k.png" --width 300 --height 120 --from-gc 40 --to-gc 200 || fail "$k"
  [ "$(png_size "$dir/$k.png")" = "300x120" ] || fail "$k size"
done

# Data structure growth: the bar chart of the app's growth view.
"$cli" chart "$dir/leak.tmtrace" --kind ds-growth --from-gc 40 --to-gc 200 --png "$dir/ds.png" --width 500 --height 300 || fail "ds-growth chart"
[ "$(png_size "$dir/ds.png")" = "500x300" ] || fail "ds-growth size"
"$cli" chart "$dir/leak.tmtrace" --kind ds-growth --png "$dir/x.png" 2>/dev/null; [ $? -eq 1 ] || fail "ds-growth without a window"

# Usage errors: exit 1 and a hint.
"$cli" chart "$dir/leak.tmtrace" --kind pie --png "$dir/x.png" 2>"$dir/err"; [ $? -eq 1 ] || fail "unknown kind"
grep -q -- "--help" "$dir/err" || fail "hint"
"$cli" chart "$dir/leak.tmtrace" --kind memory 2>/dev/null; [ $? -eq 1 ] || fail "missing --png"
"$cli" chart "$dir/leak.tmtrace" --png "$dir/x.png" --width 3 2>/dev/null; [ $? -eq 1 ] || fail "tiny width"
"$cli" chart "$dir/leak.tmtrace" --png "$dir/x.png" --from-gc 500 2>/dev/null; [ $? -eq 1 ] || fail "GC range"
[ -e "$dir/x.png" ] && fail "wrote a PNG on bad usage"

# Unusable input: exit 2, "FILE: reason", nothing written.
echo "not a trace" > "$dir/notes.txt"
"$cli" chart "$dir/notes.txt" --png "$dir/y.png" 2>"$dir/err"; [ $? -eq 2 ] || fail "not a trace"
grep -q "notes.txt" "$dir/err" || fail "message names the file"
[ -e "$dir/y.png" ] && fail "wrote a PNG for a bad input"
echo "ok"
