#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli report: the windows, their explanations and numbers from
# the other commands appear in a well-formed, self-contained report whose
# images decode as PNG (tests/tools/check_report.py); markup in class and
# file names is escaped; GC logs; one window; documented exit codes.
set -u
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}
check="$src/tests/tools/check_report.py"

"$cli" synth leak -o "$dir/leak.tmtrace" >/dev/null || fail "synth"
"$cli" windows "$dir/leak.tmtrace" --json >"$dir/w.json" || fail "windows"
"$cli" gc-summary "$dir/leak.tmtrace" --json >"$dir/gc.json" || fail "gc-summary"
"$cli" report "$dir/leak.tmtrace" -o "$dir/r.html" || fail "report"
python3 "$check" "$dir/r.html" >"$dir/r.json" || fail "report is not well-formed"

# Every window once, in order, with its kind, range and explanation; the
# whole run with the GC summary's throughput; charts for the run and each
# window, and the growth chart where the window has two graphs.
python3 - "$dir/r.json" "$dir/w.json" "$dir/gc.json" <<'PY' || fail "report content"
import json, re, sys
r, w, gc = (json.load(open(p)) for p in sys.argv[1:4])
labels = {"leak": "Memory leak", "leak-peak": "Fastest leak growth",
          "leak-regression": "Steepest recent growth", "gc-overhead": "High GC overhead",
          "churn": "High memory churn"}
wins = w["windows"]
assert len(wins) >= 2, "the leak scenario has windows"
ids = [k for k in r["sections"] if k.startswith("window-")]
assert ids == ["window-%d" % (i + 1) for i in range(len(wins))], ids
assert r["lang"] == "en" and "leak.tmtrace" in r["title"]
fold = lambda s: re.sub(r"\s+", " ", s).strip()
for i, win in enumerate(wins):
    sec, head = r["sections"]["window-%d" % (i + 1)], r["headings"]["window-%d" % (i + 1)]
    assert head == "Window %d: %s" % (i + 1, labels[win["kind"]]), head
    assert "GCs %d–%d" % (win["first_gc"], win["last_gc"]) in sec, (i, sec[:200])
    assert fold(win["explanation"]) in sec, "explanation of window %d" % (i + 1)
    assert "GC summary" in sec and "Allocations by type" in sec and "Top growing groups" in sec
# the windows table of the whole-run report
table = r["sections"]["windows"]
for i, win in enumerate(wins):
    assert labels[win["kind"]] in table
thr = "%.2f %%" % (gc["throughput"] * 100)
assert thr in r["sections"]["run"], thr
# 3 overview charts, one per window, one growth chart per range with graphs
assert len(r["images"]) == 3 + len(wins) + sum(1 for k in r["sections"]
                                               if "the first and last with a reference graph" in r["sections"][k]), r["images"]
assert all(im[0] == 2000 for im in r["images"]), r["images"]
PY

# The top data structure of a window is the one ds-growth ranks first.
python3 - "$dir/r.json" "$dir/w.json" >"$dir/first.txt" <<'PY' || fail "window range"
import json, re, sys
r, w = (json.load(open(p)) for p in sys.argv[1:3])
m = re.search(r"From GC (\d+) to GC (\d+)", r["sections"]["window-1"])
assert m, "window 1 has a growth analysis"
print(m.group(1), m.group(2))
PY
read -r a b <"$dir/first.txt"
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc "$a" --to-gc "$b" --json >"$dir/ds.json" || fail "ds-growth"
python3 - "$dir/r.json" "$dir/ds.json" <<'PY' || fail "top structure"
import json, sys
r, ds = (json.load(open(p)) for p in sys.argv[1:3])
top = ds["structures"][0]
sec = r["sections"]["window-1"]
name = "%s @%d" % (top["type"], top["object_id"])
assert name in sec, (name, sec[:600])
assert sec.index(name) < sec.index("Allocations by type")
PY

# The top growing groups of a window are heap-diff's, in its order, with
# its numbers (retained size with graphs at both ends).
python3 - "$dir/r.json" >"$dir/ends.txt" <<'PY' || fail "growing groups"
import json, re, sys
r = json.load(open(sys.argv[1]))
m = re.search(r"Top growing groups Objects by type in the heap after GC (\d+) compared with the heap after GC (\d+), "
              r"the largest growth of retained size first", r["sections"]["window-1"])
assert m, r["sections"]["window-1"][:400]
print(m.group(2), m.group(1))
PY
read -r a b <"$dir/ends.txt"
"$cli" heap-diff "$dir/leak.tmtrace" --from-gc "$a" --to-gc "$b" --classify type --top 0 --json >"$dir/hd.json" || fail "heap-diff"
python3 - "$dir/r.json" "$dir/hd.json" <<'PY' || fail "growing groups as heap-diff"
import json, sys
r, hd = (json.load(open(p)) for p in sys.argv[1:3])
sec = r["sections"]["window-1"]
sec = sec[sec.index("Top growing groups"):sec.index("Allocations by type")]
grown = [c for c in hd["tree"]["children"] if c["delta"]["retained_bytes"] > 0][:10]
assert len(grown) >= 3, grown
pos = 0
for i, c in enumerate(grown):
    row = "%d%s%s (+%s)" % (i + 1, c["key"], "{:,}".format(c["after"]["objects"]), "{:,}".format(c["delta"]["objects"]))
    at = sec.find(row, pos)
    assert at >= 0, (row, sec[:300])
    pos = at
assert sec.count("(+") == 3 * len(grown), "objects, shallow and retained per row"
PY

# One window alone: only its section, the table links nowhere else.
"$cli" report "$dir/leak.tmtrace" --window 2 -o "$dir/w2.html" || fail "--window 2"
python3 "$check" "$dir/w2.html" >"$dir/w2.json" || fail "window report not well-formed"
json "$dir/w2.json" '
assert [k for k in d["sections"] if k.startswith("window-") or k == "run"] == ["window-2"], list(d["sections"])
assert "window 2" in d["title"]' || fail "window report content"

# Markup in class and file names is text, never markup.
python3 "$src/tests/tools/independent_writer.py" "$dir/m.tmtrace" "$dir/m-exp.json" 5 --markup-names || fail "writer"
cp "$dir/m.tmtrace" "$dir/a<b>&c.tmtrace"
"$cli" report "$dir/a<b>&c.tmtrace" -o "$dir/m.html" || fail "report with markup names"
python3 "$check" "$dir/m.html" >"$dir/m.json" || fail "markup report not well-formed"
grep -q '<script' "$dir/m.html" && fail "a class name's <script> reached the HTML"
sed 's/<wbr>//g' "$dir/m.html" | grep -q 'org.indie.Map&lt;K[0-9],V&gt;&amp;&quot;T[0-9]&quot;&lt;script&gt;' ||
  fail "class names escaped"
json "$dir/m.json" '
assert "a<b>&c.tmtrace" in d["title"], d["title"]
assert "org.indie.Map<K" in d["text"]' || fail "markup names as text"

# A GC log: the GC summary and the overhead window, no object analyses.
log="$src/tests/data/gc-logs/jdk17-g1.log"
"$cli" windows "$log" --json >"$dir/gw.json" || fail "windows of a GC log"
"$cli" gc-summary "$log" --json >"$dir/ggc.json" || fail "gc-summary of a GC log"
"$cli" report "$log" -o "$dir/g.html" || fail "report of a GC log"
python3 "$check" "$dir/g.html" >"$dir/g.json" || fail "GC-log report not well-formed"
python3 - "$dir/g.json" "$dir/gw.json" "$dir/ggc.json" <<'PY' || fail "GC-log report content"
import json, sys
r, w, gc = (json.load(open(p)) for p in sys.argv[1:4])
assert len([k for k in r["sections"] if k.startswith("window-")]) == len(w["windows"])
assert any(x["kind"] == "gc-overhead" for x in w["windows"]), "the G1 log has an overhead window"
run = r["sections"]["run"]
assert "GC summary" in run and "%.2f %%" % (gc["throughput"] * 100) in run
assert "Young pauses" in run and "%d ·" % gc["pauses"]["count"] in run
assert "Allocations by type" not in r["text"] and "Top data structures" not in r["text"]
# memory + overhead overview, memory + overhead per overhead window
n_over = sum(1 for x in w["windows"] if x["kind"] == "gc-overhead")
assert len(r["images"]) == 2 + len(w["windows"]) + n_over, r["images"]
PY

# A heaptrack file: time points, no GCs to summarize; the leaking call
# site (tests/data/heaptrack/leaker.c: leak_record) grows most.
"$cli" report "$src/tests/data/heaptrack/leaker.zst" -o "$dir/h.html" || fail "report of a heaptrack file"
python3 "$check" "$dir/h.html" >"$dir/h.json" || fail "heaptrack report not well-formed"
json "$dir/h.json" '
run = d["sections"]["run"]
assert run.startswith("The whole run time points 1–"), run[:80]
g = run[run.index("Top growing groups"):]
assert "#Allocation site" in g and g.index("leak_record") < g.index("Allocations by type"), g[:300]
assert "GC summary" not in d["text"] and "GC advice" not in d["text"]' || fail "heaptrack report content"
# the charts over time of heaptrack_gui: allocations per interval and the RSS
grep -q 'alt="Allocations"' "$dir/h.html" && grep -q 'alt="Resident Memory"' "$dir/h.html" \
  && grep -q 'alt="Live Allocations"' "$dir/h.html" || fail "heaptrack report charts"

# A trace cut short: a report of what was read, saying so with the offset;
# a GC log without a GC yet: a report that says there is nothing to chart.
size=$(stat -c %s "$dir/leak.tmtrace")
head -c $((size * 6 / 10)) "$dir/leak.tmtrace" >"$dir/cut.tmtrace"
"$cli" report "$dir/cut.tmtrace" -o "$dir/cut.html" 2>/dev/null || fail "report of a cut trace"
python3 "$check" "$dir/cut.html" >"$dir/cut.json" || fail "cut report not well-formed"
json "$dir/cut.json" '
import re
assert re.search(r"The input is incomplete.*cut\.tmtrace.*byte offset \d+", d["text"]), d["text"][:400]
assert len(d["images"]) >= 3' || fail "cut report content"
awk '/GC\(0\)/{exit} {print}' "$log" >"$dir/nogc.log"
"$cli" report "$dir/nogc.log" -o "$dir/nogc.html" 2>/dev/null || fail "report of a log without GCs"
python3 "$check" "$dir/nogc.html" >"$dir/nogc.json" || fail "no-GC report not well-formed"
json "$dir/nogc.json" '
assert d["images"] == [] and "no GCs yet" in d["text"] and "run" not in d["sections"]' || fail "no-GC report content"

# In the user's language (German where the locale exists): headings, lang.
if locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
  LC_ALL=de_DE.UTF-8 LANGUAGE=de "$cli" report "$dir/leak.tmtrace" -o "$dir/de.html" || fail "German report"
  python3 "$check" "$dir/de.html" >"$dir/de.json" || fail "German report not well-formed"
  json "$dir/de.json" '
assert d["lang"] == "de", d["lang"]
assert d["headings"]["windows"] == "Verdächtige Zeitfenster" and d["headings"]["window-1"] == "Fenster 1: Speicherleck"
assert "Suspicious time windows" not in d["text"]' || fail "German report content"
fi

# Usage errors: exit 1 and a hint, nothing written.
"$cli" report "$dir/leak.tmtrace" 2>"$dir/err"; [ $? -eq 1 ] || fail "missing -o"
grep -q -- "--help" "$dir/err" || fail "hint"
n=$(json "$dir/w.json" 'print(len(d["windows"]))')
"$cli" report "$dir/leak.tmtrace" --window $((n + 1)) -o "$dir/x.html" 2>"$dir/err"; [ $? -eq 1 ] || fail "window out of range"
grep -q "window $((n + 1)) does not exist" "$dir/err" || fail "names the window"
[ -e "$dir/x.html" ] && fail "wrote a report on bad usage"

# Unusable input: exit 2, "FILE: reason"; an unwritable output: exit 2.
echo "not a trace" >"$dir/notes.txt"
"$cli" report "$dir/notes.txt" -o "$dir/y.html" 2>"$dir/err"; [ $? -eq 2 ] || fail "not a trace"
grep -q "notes.txt" "$dir/err" || fail "message names the file"
[ -e "$dir/y.html" ] && fail "wrote a report for a bad input"
"$cli" report "$dir/leak.tmtrace" -o "$dir/no/such/dir/r.html" 2>"$dir/err"; [ $? -eq 2 ] || fail "unwritable output"
grep -q "no/such/dir" "$dir/err" || fail "names the output"
echo "ok"
