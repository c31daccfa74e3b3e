#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares what tidemark-cli reads from a trace of independent_liberties.py
with the truth that writer simulated.  Exits 1 with the first differences.

usage: check_independent.py CLI TRACE TRUTH.json WHAT
"""
import json
import subprocess
import sys

cli, trace, truth_path, what = sys.argv[1:5]
exp = json.load(open(truth_path))
errors = []


def run(*args):
    p = subprocess.run([cli, *args, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        errors.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode()[:300]}")
        return None
    return json.loads(p.stdout)


def same(where, want, got):
    if want != got:
        errors.append(f"{where}: expected {want!r}, read {got!r}")


info = run("info", trace)
tl = run("timeline", trace)
if info is not None:
    same("complete", exp["complete"], info["complete"])
    if exp["complete"]:
        same("warnings", [], info["warnings"])
        same("allocs", exp["allocs"], info["allocs"])
        if exp["deaths_recorded"]:
            same("deaths", exp["deaths"], info["deaths"])
    else:
        if not info["warnings"]:
            errors.append("a cut trace without a warning")
    same("gcs", len(exp["gcs"]), info["gcs"])
    same("graphs", exp["graphs"], info["graphs"])
if tl is not None:
    same("timeline length", len(exp["gcs"]), len(tl["gcs"]))
    for e, g in zip(exp["gcs"], tl["gcs"]):
        for k in ("id", "start_ns", "end_ns", "pause_ns", "kind", "cause", "used_before", "used_after",
                  "live_objects", "live_bytes", "allocations", "reachable_bytes", "reachable_objects"):
            same(f"GC {e['id']} {k}", e[k], g.get(k))
        spaces = {s["name"]: [s["used_before"], s["used_after"]] for s in g.get("spaces", [])
                  if s["name"] in e["spaces"]}
        same(f"GC {e['id']} spaces", e["spaces"], spaces)

for gc, per in exp["heaps"].items():
    for classifier, groups in per.items():
        if classifier == "space" and not exp["spaces_recorded"]:
            continue
        h = run("heap", trace, "--gc", gc, "--classify", classifier, "--metric", "objects", "--top", "1000")
        if h is None:
            continue
        got = {c["key"]: [c["objects"], c["bytes"]] for c in h["tree"]["children"]}
        same(f"heap at GC {gc} by {classifier}", groups, got)

ch = run("churn", trace, "--classify", "type", "--top", "1000")
if ch is not None:
    got = {c["key"]: [c["objects"], c["bytes"]] for c in ch["tree"]["children"]}
    same("churn by type", exp["churn"], got)

if errors:
    print(f"{what}: {len(errors)} differences", file=sys.stderr)
    for e in errors[:25]:
        print(f"  {what}: {e}", file=sys.stderr)
    sys.exit(1)
