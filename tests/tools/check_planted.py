#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks tidemark-cli's analyses of a trace of independent_planted.py
against the writer's truth: occupancy, the heap by type at GCs, the
short-lived objects by type and site, and the verdicts (windows, trend,
ds-growth, containers, report, OOM).  Exits 1 with the differences.

usage: check_planted.py CLI TRACE TRUTH.json SCRATCH_DIR
"""
import json
import os
import subprocess
import sys

cli, trace, truth_path, scratch = sys.argv[1:5]
exp = json.load(open(truth_path))
sc = exp["scenario"]
errors = []


def run(*args, js=True):
    p = subprocess.run([cli, *args] + (["--json"] if js else []), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    if p.returncode != 0:
        errors.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode()[:300]}")
        return None
    return json.loads(p.stdout) if js else p.stdout


def same(where, want, got):
    if want != got:
        errors.append(f"{where}: expected {want!r}, read {got!r}")


gcs = exp["gcs"]
last = gcs[-1]["id"]
tl = run("timeline", trace)
if tl is not None:
    same("GCs", len(gcs), len(tl["gcs"]))
    for e, g in zip(gcs, tl["gcs"]):
        same(f"GC {e['id']} occupancy", [e["used_before"], e["used_after"]], [g["used_before"], g["used_after"]])
        same(f"GC {e['id']} live bytes", e["used_after"], g["live_bytes"])
        # every GC collects all garbage: a graph reaches the whole heap
        # (the empty one of free-all's last GC: nothing)
        if g["reachable_bytes"] is not None or e["id"] % 5 == 0 or e["id"] == len(gcs):
            same(f"GC {e['id']} reachable bytes", e["used_after"], g["reachable_bytes"])

# the heap by type, objects and shallow bytes, at a few GCs
for g in sorted({1, 17, 40, last}):
    h = run("heap", trace, "--gc", str(g), "--classify", "type", "--metric", "objects", "--top", "0")
    if h is not None:
        got = {c["key"]: [c["objects"], c["bytes"]] for c in h["tree"]["children"]}
        same(f"heap by type at GC {g}", gcs[g - 1]["types"], got)

# short-lived objects by type and site
ch = run("churn", trace, "--classify", "type,site", "--top", "0")
if ch is not None:
    got = {c["key"]: {s["key"]: [s["objects"], s["bytes"]] for s in c["children"]} for c in ch["tree"]["children"]}
    same("short-lived by type and site", exp["churn"], got)

w = run("windows", trace)
if w is not None:
    sus = [x for x in w["windows"] if x["suspicious"]]
    leaks = [x for x in sus if x["kind"].startswith("leak")]
    churn = [x for x in sus if x["kind"] == "churn"]
    if exp["leak_type"]:
        lw = [x for x in leaks if x["kind"] == "leak"]
        if not lw:
            errors.append(f"no leak window: {w['windows']}")
        else:
            a, b = lw[0]["first_gc"], lw[0]["last_gc"]
            if b - a < 20:
                errors.append(f"leak window {a}-{b} covers less than a third of the run")
            # the leak's type grows most over the window
            t = run("trend", trace, "--from-gc", str(a), "--to-gc", str(b), "--classify", "type",
                    "--sort", "abs-growth", "--no-other")
            if t is not None:
                same("trend: first series", exp["leak_type"], t["series"][0]["key"] if t["series"] else None)
            d = run("ds-growth", trace, "--from-gc", str(a), "--to-gc", str(b))
            if d is not None:
                top = d["structures"][0] if d["structures"] else {}
                same("ds-growth: top structure", "java.util.ArrayList", top.get("type"))
                same("ds-growth: its pattern", "single-ownership-container-growth", top.get("pattern"))
                # graphs are every 5th GC: the window's ends have one
                same("ds-growth: its retained bytes", [gcs[a - 1]["list_bytes"], gcs[b - 1]["list_bytes"]],
                     top.get("retained_bytes"))
                same("ds-growth: heap growth", gcs[b - 1]["used_after"] - gcs[a - 1]["used_after"],
                     d.get("heap_growth_bytes"))
            c = run("containers", trace)
            if c is not None:
                same("containers: first", "java.util.ArrayList",
                     c["containers"][0]["type"] if c["containers"] else None)
    else:
        same("leak windows", [], leaks)
    if exp["burst"]:
        if not churn:
            errors.append(f"no churn window: {w['windows']}")
        for x in churn:
            if not (exp["burst"][0] <= x["first_gc"] and x["last_gc"] <= exp["burst"][1]):
                errors.append(f"churn window {x['first_gc']}-{x['last_gc']} outside the burst {exp['burst']}")
    else:
        same("churn windows", [], churn)

info = run("info", trace)
if info is not None:
    same("complete", True, info["complete"])
    same("OOM events", ["java_heap"] if exp["oom"] else [], [x["kind"] for x in info["oom_events"]])
if sc == "free-all" and tl is not None:
    same("the last GC's heap", 0, tl["gcs"][-1]["used_after"])

if exp["leak_type"]:
    html = os.path.join(scratch, "report.html")
    if run("report", trace, "-o", html, js=False) is not None:
        if exp["leak_type"] not in open(html, encoding="utf-8").read().replace("<wbr>", ""):
            errors.append("the report does not name the leak's type")

if errors:
    print(f"{sc}: {len(errors)} differences", file=sys.stderr)
    for e in errors[:25]:
        print(f"  {sc}: {e}", file=sys.stderr)
    sys.exit(1)
