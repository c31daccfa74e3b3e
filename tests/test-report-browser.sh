#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The report in a real browser: Debian's chromium, headless, takes a
# screenshot of a leak report; the page must show the text and the charts
# (their colours), not a blank page or one whose images did not load.  Skipped (77) only when chromium is not installed.
set -u
. "$(dirname "$0")/cli-test-lib.sh"
browser=$(command -v chromium || command -v chromium-browser) || { echo "chromium is not installed"; exit 77; }

"$cli" synth leak -o "$dir/leak.tmtrace" >/dev/null || fail "synth"
"$cli" report "$dir/leak.tmtrace" -o "$dir/report.html" || fail "report"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$dir/profile" --window-size=1280,2000 --screenshot="$dir/shot.png" \
  "file://$dir/report.html" >"$dir/browser.log" 2>&1 || { cat "$dir/browser.log" >&2; fail "chromium"; }
[ -s "$dir/shot.png" ] || fail "no screenshot"
[ -n "${TM_REPORT_SHOT:-}" ] && cp "$dir/shot.png" "$TM_REPORT_SHOT"

# Downscaled pixels as text (ImageMagick), judged in Python.
convert "$dir/shot.png" -resize '320x500!' -depth 8 txt:- >"$dir/pixels.txt" || fail "convert"
python3 - "$dir/pixels.txt" <<'PY' || fail "the screenshot does not show the report"
import re, sys
px = [tuple(int(v) for v in m.groups()[:3])
      for m in re.finditer(r"^\d+,\d+: \((\d+),(\d+),(\d+)", open(sys.argv[1]).read(), re.M)]
assert len(px) == 320 * 500, len(px)
n = len(px)
ink = sum(1 for r, g, b in px if min(r, g, b) < 200) / n          # text, rules, charts
sat = sum(1 for p in px if max(p) - min(p) > 40) / n               # the charts' colours
colours = len(set((r >> 4, g >> 4, b >> 4) for r, g, b in px))
print("ink %.3f saturated %.3f colours %d" % (ink, sat, colours))
# measured: the report 0.10 / 0.047 / 290; the same page without its
# images 0.05 / 0.006 / 93; a blank page 0 / 0 / 1
assert 0.07 < ink < 0.8, "ink %.3f" % ink
assert sat > 0.025, "charts missing (saturated %.3f)" % sat
assert colours > 150, "charts missing (%d colours)" % colours
PY
echo "ok"
