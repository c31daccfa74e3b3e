#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Traces of planted program behaviours, written from the trace format spec
alone (the encoder of independent_liberties.py, no code of the C writer),
with the verdicts the writer knows beside them:

- leak:      org.plant.LeakedEntry objects pile up in one java.util.ArrayList
             (backing java.lang.Object[] reallocated as it grows) held by a
             static root, among short-lived temporaries of two sites and a
             steady set of long-lived objects;
- plateau:   a cache warms up to its capacity, then only replaces entries
             (no leak after the warm-up);
- burst:     a steady program with a burst of short-lived allocations in
             the middle (churn there, nowhere else);
- free-all:  the leak, then the program frees everything at exit (gc-0
             deaths after the last GC, and a final GC with an empty heap);
- oom:       the leak, ending with an OutOfMemoryError event (OOM record).

Every scenario records deaths, and a graph every 5th GC and at the last.
The truth file holds per GC the heap occupancy and per type the objects and
bytes of the heap, the short-lived objects per type and site, and the
verdicts: the leak's type, the GCs of the burst, the OOM.

usage: independent_planted.py SCENARIO OUT.tmtrace TRUTH.json [SEED]
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from independent_liberties import Enc  # noqa: E402

INTERVAL_NS = 200_000_000


class Planted:
    def __init__(self, scenario, seed):
        self.sc = scenario
        self.rnd = random.Random(seed)
        self.e = Enc(self.rnd, False)
        self.out = bytearray(b"TMTRACE1")
        self.next_id = 1
        self.objs = {}        # id -> [type name, site key, size, birth interval, death gc]
        self.refs = {}        # id -> list of ids
        self.roots = {}       # id -> root kind
        self.types = {}
        self.sites = {}
        self.now = 0
        self.gc_id = 0
        self.gcs = []
        self.deaths = 0

    def rec(self, tag, payload):
        self.out += self.e.rec(tag, payload)

    def type_id(self, name):
        if name not in self.types:
            self.types[name] = len(self.types) + 1
            flags = 1 if name == "java.lang.Object[]" else 2 if name.endswith("[]") else 0
            self.rec(0x03, self.e.uv(self.types[name]) + self.e.s(name) + self.e.uv(flags))
        return self.types[name]

    def site_id(self, method, line):
        key = f"{method}:{line}"
        if key not in self.sites:
            sid = len(self.sites) + 1
            self.sites[key] = sid
            self.rec(0x04, self.e.uv(sid) + self.e.s(method) + self.e.s(method.split(".")[-2] + ".java")
                     + self.e.sv(line))
            self.rec(0x05, self.e.uv(sid) + self.e.uv(1) + self.e.uv(sid))
        return self.sites[key]

    def alloc(self, name, method, line, size, length=0):
        oid = self.next_id
        self.next_id += 1
        t, s = self.type_id(name), self.site_id(method, line)
        self.rec(0x10, self.e.sv(1) + self.e.uv(t) + self.e.uv(s) + self.e.uv(1) + self.e.uv(size)
                 + self.e.uv(0) + self.e.uv(length))
        self.objs[oid] = [name, f"{method}:{line}", size, self.gc_id + 1, None]
        return oid

    def live(self):
        return [o for o, x in self.objs.items() if x[4] is None]

    def kill(self, ids, gc):
        for o in ids:
            self.objs[o][4] = gc
            self.refs.pop(o, None)
            self.roots.pop(o, None)
        self.deaths += len(ids)

    def reachable(self):
        seen = set(self.roots)
        stack = list(seen)
        while stack:
            for t in self.refs.get(stack.pop(), []):
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return seen

    def gc(self, graph=False, pause=2_000_000):
        e = self.e
        self.gc_id += 1
        g = self.gc_id
        self.now += self.rnd.randrange(INTERVAL_NS * 4 // 5, INTERVAL_NS * 6 // 5)
        pause = self.rnd.randrange(pause // 2, pause * 2)
        before = sum(self.objs[o][2] for o in self.live())
        self.rec(0x20, e.uv(g) + e.uv(self.now) + e.uv(1) + e.s("Planted") + e.s("Allocation Failure"))
        reach = self.reachable()
        dead = sorted(o for o in self.live() if o not in reach)
        if dead:
            self.rec(0x11, e.uv(g) + e.idlist(dead))
        self.kill(dead, g)
        after = sum(self.objs[o][2] for o in self.live())
        self.now += pause
        self.rec(0x21, e.uv(g) + e.uv(self.now) + e.uv(pause) + e.uv(1) + e.uv(1) + e.uv(before) + e.uv(after)
                 + e.uv(64 << 20))
        if graph:
            self.rec(0x22, e.uv(g))
            roots = sorted(self.roots)
            p = e.uv(len(roots))
            for r in roots:
                p += e.uv(r) + e.uv(self.roots[r]) + e.uv(1 if self.roots[r] == 2 else 0)
            self.rec(0x23, p)
            listed = 0
            for src in sorted(self.refs):
                if not self.refs[src]:
                    continue
                self.rec(0x24, e.refs(src, self.refs[src]))
                listed += 1
            self.rec(0x25, e.uv(g) + e.uv(listed))
        per_type = {}
        for o in self.live():
            c = per_type.setdefault(self.objs[o][0], [0, 0])
            c[0] += 1
            c[1] += self.objs[o][2]
        self.gcs.append({"id": g, "used_before": before, "used_after": after, "types": per_type,
                         "list_bytes": sum(self.objs[o][2] for o in self.list_objects())})

    def list_objects(self):
        """the ArrayList, its backing array and its elements"""
        lst = self.list_id
        if lst not in self.refs:
            return []     # freed at exit
        arr = self.refs[lst][0]
        return [lst, arr] + list(self.refs[arr])

    def run(self):
        e, rnd, sc = self.e, self.rnd, self.sc
        self.rec(0x01, e.uv(1) + e.uv(0) + e.s("Planted VM") + e.s("1") + e.s(f"planted {sc}") + e.uv(8)
                 + e.uv(0) + e.uv(1 | 2))
        self.rec(0x02, e.uv(1) + e.uv(3) + e.s("heap"))
        self.rec(0x06, e.uv(1) + e.s("main"))
        # long-lived configuration: a static root holding 50 objects
        config = self.alloc("org.plant.Config", "org.plant.Main.init()", 10, 4096)
        self.roots[config] = 1
        self.refs[config] = [self.alloc("org.plant.Setting", "org.plant.Main.init()", 11, 32) for _ in range(50)]
        # the collection of the leak (or of the plateau's cache)
        lst = self.alloc("java.util.ArrayList", "org.plant.Registry.<clinit>()", 5, 24)
        arr = self.alloc("java.lang.Object[]", "java.util.ArrayList.grow(int)", 237, 16 + 8 * 10, 10)
        self.roots[lst] = 1
        self.list_id = lst
        self.refs[lst] = [arr]
        self.refs[arr] = []
        cap = 10
        n_gcs = 60
        burst = (25, 34)
        plateau_cap = 400
        for g in range(1, n_gcs + 1):
            temps = rnd.randrange(45, 60)
            if sc == "burst" and burst[0] <= g <= burst[1]:
                temps = rnd.randrange(1200, 1800)
            for k in range(temps):
                if k >= 60:   # the burst: 1 KiB buffers (about 7 MiB/s, 100 times the usual)
                    self.alloc("byte[]", "org.plant.Burst.copy()", 19, 16 + 1024, 1024)
                elif k % 3 == 0:
                    self.alloc("byte[]", "org.plant.Parser.read()", 42, 16 + 64, 64)
                else:
                    self.alloc("org.plant.Token", "org.plant.Parser.next()", 77, 24)
            entries = self.refs[arr]
            if sc in ("leak", "free-all", "oom") or (sc == "plateau" and g <= 15):
                adds = rnd.randrange(12, 30) if sc != "plateau" else plateau_cap // 15 + 1
            else:
                adds = 0
            if sc == "plateau" and g > 15:
                # replace entries: the cache stays at its capacity
                for _ in range(20):
                    entries.pop(0)
                    entries.append(self.alloc("org.plant.CacheEntry", "org.plant.Cache.put(Object)", 88, 48))
            for _ in range(adds):
                if sc == "plateau" and len(entries) >= plateau_cap:
                    break
                name = "org.plant.CacheEntry" if sc == "plateau" else "org.plant.LeakedEntry"
                entries.append(self.alloc(name, "org.plant.Cache.put(Object)", 88, 48))
                if len(entries) > cap:
                    # grow the backing array: the old one becomes garbage
                    cap = cap * 3 // 2 + 1
                    arr = self.alloc("java.lang.Object[]", "java.util.ArrayList.grow(int)", 237, 16 + 8 * cap, cap)
                    self.refs[arr] = entries
                    self.refs[lst] = [arr]
            self.gc(graph=g % 5 == 0 or g == n_gcs)
            if sc == "oom" and g == n_gcs:
                self.rec(0x26, e.uv(self.now + 1000) + e.uv(g) + e.uv(1) + e.uv(1) + e.s("Java heap space"))
        if sc == "free-all":
            # the program ends: everything is freed, then a last GC
            self.rec(0x13, e.uv(self.now + 1000))
            everything = sorted(self.live())
            self.rec(0x11, e.uv(0) + e.idlist(everything))
            self.kill(everything, self.gc_id + 1)
            self.gc(graph=True)
        self.rec(0x7F, e.uv(len(self.objs)) + e.uv(self.deaths) + e.uv(self.gc_id) + e.uv(self.now))
        churn = {}
        for name, site, size, born, death in self.objs.values():
            if death == born:
                c = churn.setdefault(name, {}).setdefault(site, [0, 0])
                c[0] += 1
                c[1] += size
        return {"scenario": sc, "gcs": self.gcs, "churn": churn,
                "leak_type": "org.plant.LeakedEntry" if sc in ("leak", "free-all", "oom") else None,
                "burst": list(burst) if sc == "burst" else None, "oom": sc == "oom"}


def main():
    sc, out_path, truth_path = sys.argv[1:4]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    p = Planted(sc, seed)
    truth = p.run()
    # zstd frames cut at a few random places (records straddle them)
    data, raw = b"", bytes(p.out)
    cuts = sorted(p.rnd.sample(range(1, len(raw)), 3))
    for a, b in zip([0] + cuts, cuts + [len(raw)]):
        data += subprocess.run(["zstd", "-q", "-c"], input=raw[a:b], stdout=subprocess.PIPE, check=True).stdout
    with open(out_path, "wb") as f:
        f.write(data)
    with open(truth_path, "w") as f:
        json.dump(truth, f)


if __name__ == "__main__":
    main()
