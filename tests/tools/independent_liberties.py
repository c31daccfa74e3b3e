#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A second independent writer of trace format v1, written from the spec
(src/libtidemark/trace-format.md) alone and sharing no code with the C
writer or with independent_writer.py.  Where that one stresses ids in any
order (which keeps every row: the model folds nothing), this one takes the
other liberties of the format, one variant at a time, and writes beside the
trace the truth it simulated (see VARIANTS below and docs/testing.md):

- object ids: dense from 1, dense after a huge first id_delta, ascending
  with gaps (some above 2^32), near 2^62, and dense for a while then in any
  order (after the model has begun to fold);
- per-object spaces (flags bit 2): ALLOC spaces of every kind and MOVES
  inside GCs; GC_END listing spaces in any order, kind 0 (other heap) and
  4 (humongous) summed, 5 (non-heap) not; an object of 4 GiB or more;
- definitions just before their first use or all up front, sites of depth
  0..3, frames without file or line, threads and sites 0, ALLOCs with site 0
  of objects a recorder discovered late, array types with array_length;
- GC kinds 1-4 (concurrent cycles pausing less than they last), graphs on
  some GCs only, empty graphs, ROOTS of every kind with thread ids (the
  same object rooted twice), ROOTS after and between REFS, REFS in any
  object order with self and duplicate targets and zero targets, floating
  garbage (dead but not collected objects in a graph);
- DEATHS split over many records, inside the GC, after GC_END and after
  GRAPH_END; gc-0 deaths after a TICK and right after a GC_END; no deaths
  at all (flags bit 1 clear: deaths derived from the graphs);
- META anywhere, unknown tags, trailing payload bytes, varints padded to
  up to 10 bytes, records of length 0;
- zstd: one frame, a frame per record, frames of a few bytes, skippable
  frames between them, empty frames, an uncompressed stream;
- a trace cut short without END (in the middle of a GC, and in the middle
  of a zstd frame).

The truth: per GC times, kind, cause, pause, occupancy (heap and per
space), live objects and bytes, reachable bytes and objects at graph GCs;
the totals; per type, site, thread and space the objects and bytes of the
heap after chosen GCs; per type and site the objects that died in their
first GC (short-lived: churn).

usage: independent_liberties.py OUT.tmtrace TRUTH.json VARIANT SEED
"""
import json
import random
import subprocess
import sys

KIND_NAMES = {1: "minor", 2: "major", 3: "mixed", 4: "concurrent"}

VARIANTS = {
    # name: options
    "dense": dict(ids="dense", spaces=True, deaths=True, frames="one", defs="lazy"),
    "offset": dict(ids="offset", spaces=False, deaths=True, frames="tiny", defs="front", pad=True),
    "gaps": dict(ids="gaps", spaces=True, deaths=True, frames="per-record", defs="lazy", skippable=True),
    "high": dict(ids="high", spaces=False, deaths=True, frames="raw", defs="lazy", pad=True),
    "late-shuffle": dict(ids="late-shuffle", spaces=True, deaths=True, frames="random", defs="front"),
    "no-deaths": dict(ids="dense", spaces=False, deaths=False, frames="random", defs="lazy"),
    "no-deaths-gaps": dict(ids="gaps", spaces=True, deaths=False, frames="tiny", defs="front", pad=True),
    "cut": dict(ids="dense", spaces=True, deaths=True, frames="random", defs="lazy", cut="gc"),
    "cut-frame": dict(ids="offset", spaces=False, deaths=True, frames="per-record", defs="lazy", cut="frame"),
}


class Enc:
    """Primitive encodings; varints padded at random when asked."""

    def __init__(self, rnd, pad):
        self.rnd = rnd
        self.pad = pad

    def uv(self, n):
        assert 0 <= n < 1 << 64
        out = bytearray()
        while True:
            b = n & 0x7F
            n >>= 7
            if n:
                out.append(b | 0x80)
            else:
                out.append(b)
                break
        if self.pad and len(out) < 10 and self.rnd.random() < 0.15:
            extra = self.rnd.randrange(1, 11 - len(out))
            out[-1] |= 0x80
            out += b"\x80" * (extra - 1) + b"\x00"
        return bytes(out)

    def sv(self, n):
        assert -(1 << 63) <= n < 1 << 63
        return self.uv((n << 1) if n >= 0 else ((-n) << 1) - 1)

    def s(self, text):
        b = text.encode()
        return self.uv(len(b)) + b

    def rec(self, tag, payload, extra=b""):
        payload = payload + extra
        return bytes([tag]) + self.uv(len(payload)) + payload

    def refs(self, src, targets):
        """A REFS payload: targets as deltas, the first from the source."""
        p = self.uv(src) + self.uv(len(targets))
        prev = src
        for t in targets:
            p += self.sv(t - prev)
            prev = t
        return p

    def idlist(self, ids):
        ids = sorted(ids)
        p = self.uv(len(ids))
        prev = None
        for i in ids:
            p += self.uv(i if prev is None else i - prev)
            prev = i
        return p


class Writer:
    def __init__(self, variant, seed):
        self.opt = dict(VARIANTS[variant])
        self.rnd = random.Random(seed * 7919 + sum(map(ord, variant)))
        self.e = Enc(self.rnd, self.opt.get("pad", False))
        self.records = []            # raw records (bytes), for frame layouts
        self.cut_after = None        # index into records where a cut trace ends

    def emit(self, tag, payload, extra=b""):
        self.records.append(self.e.rec(tag, payload, extra))

    def run(self):
        o, rnd, e = self.opt, self.rnd, self.e
        self.emit(0x01, e.uv(1) + e.uv(1_700_000_000_123_456_789) + e.s("Indie VM ünïcode") + e.s("")
                  + e.s("indie --liberties") + e.uv(rnd.choice([4, 8])) + e.uv(0)
                  + e.uv(1 | (2 if o["deaths"] else 0) | (4 if o["spaces"] else 0)), extra=b"\x07\x00\xff")
        # spaces: kind 1 eden, 2 survivor, 3 old, 4 humongous, 0 other heap, 5 non-heap
        self.spaces = {31: (1, "eden"), 5: (2, "survivor"), 900: (3, "old"), 12: (4, "humongous"),
                       2: (0, "other"), 77: (5, "metaspace")}
        for sid, (kind, name) in self.spaces.items():
            self.emit(0x02, e.uv(sid) + e.uv(kind) + e.s(name))
        self.emit(0x07, e.s("note") + e.s("written by independent_liberties.py"))
        self.emit(0x5C, b"")                       # unknown tag, empty payload
        # types, frames, sites, threads: ids sparse and defined lazily or up front
        self.types = {}   # id -> (name, is_array)
        names = ["org.lib.Node", "org.lib.Leaf", "byte[]", "java.lang.Object[]", "org.lib.Outer$Inner",
                 "int[][]", "org.lib.Big"]
        for k, name in enumerate(names):
            self.types[3 + k * 1000 if k != 4 else 1 << 40] = (name, name.endswith("]"))
        self.frames = {(40 + k if k != 3 else (1 << 63) + 5): (f"org.lib.C{k}.m{k}(int, java.lang.String)", "" if k % 2 else f"C{k}.java",
                                -1 if k == 2 else 10 + k) for k in range(5)}
        # definition ids: small, sparse and as large as 64 bits allow
        self.sites = {1: [], 8: [40], 9: [41, 40], 1 << 35: [(1 << 63) + 5, 42, 44]}  # depth 0..3
        self.threads = {6: "main", 1 << 50: "worker-1", 3: "worker ü"}
        self.defined = set()
        if o["defs"] == "front":
            for t in self.types:
                self.define_type(t)
            for s in self.sites:
                self.define_site(s)
            for t in self.threads:
                self.define_thread(t)
        self.objs = {}          # id -> dict(type, site, thread, size, space, born (interval), death)
        self.live = set()
        self.edges = {}         # id -> list of ids
        self.roots = {}         # id -> list of (kind, thread)
        self.prev_id = 0
        self.next_id_state = None
        self.now = 1000
        self.gcs = []
        self.n_gcs = rnd.randrange(14, 20)
        self.heap_at = sorted(rnd.sample(range(1, self.n_gcs + 1), 2))
        self.shuffle_from = self.n_gcs // 2
        total_deaths = 0
        cut_gc = rnd.randrange(self.n_gcs // 2, self.n_gcs) if o.get("cut") else None
        for g in range(1, self.n_gcs + 1):
            self.interval(g)
            total_deaths += self.gc(g)
            if cut_gc == g:
                break
        if cut_gc is None:
            # allocations after the last GC (in no GC's heap), then END
            for _ in range(rnd.randrange(0, 5)):
                self.alloc(self.n_gcs + 1)
            killed = sum(1 for x in self.objs.values() if x["death"] is not None)
            self.emit(0x7F, e.uv(len(self.objs)) + e.uv(killed if o["deaths"] else 0)
                      + e.uv(self.n_gcs) + e.uv(self.now))
        else:
            # the next GC starts and the recorder dies inside it
            self.interval(cut_gc + 1)
            self.emit(0x20, e.uv(cut_gc + 1) + e.uv(self.now) + e.uv(1) + e.s("Indie") + e.s("cut"))
            self.cut_after = len(self.records)
            self.alloc(cut_gc + 2)
            self.gcs = self.gcs[:cut_gc]
        return cut_gc

    # --- definitions -------------------------------------------------
    def define_type(self, t):
        if ("t", t) in self.defined:
            return
        self.defined.add(("t", t))
        name, arr = self.types[t]
        flags = (1 if name == "java.lang.Object[]" else 2) if arr else 0
        self.emit(0x03, self.e.uv(t) + self.e.s(name) + self.e.uv(flags))

    def define_site(self, s):
        if ("s", s) in self.defined or s == 0:
            return
        self.defined.add(("s", s))
        for f in self.sites[s]:
            if ("f", f) not in self.defined:
                self.defined.add(("f", f))
                m, file, line = self.frames[f]
                self.emit(0x04, self.e.uv(f) + self.e.s(m) + self.e.s(file) + self.e.sv(line))
        p = self.e.uv(s) + self.e.uv(len(self.sites[s]))
        for f in self.sites[s]:
            p += self.e.uv(f)
        self.emit(0x05, p)

    def define_thread(self, t):
        if ("th", t) in self.defined or t == 0:
            return
        self.defined.add(("th", t))
        self.emit(0x06, self.e.uv(t) + self.e.s(self.threads[t]))

    # --- ids ---------------------------------------------------------
    def new_id(self, interval):
        mode, rnd = self.opt["ids"], self.rnd
        if not self.objs:
            first = {"dense": 1, "offset": (1 << 41) + 12345, "gaps": 7, "high": (1 << 62) + 99,
                     "late-shuffle": 1}[mode]
            return first
        last = self.prev_id
        if mode in ("dense", "offset"):
            return last + 1
        if mode == "gaps":
            r = rnd.random()
            return last + (1 if r < 0.5 else rnd.randrange(2, 300) if r < 0.98 else rnd.randrange(1 << 32, 1 << 33))
        if mode == "high":
            return last + rnd.choice([1, 1, 2, 1000])
        if mode == "late-shuffle":
            if interval < self.shuffle_from:
                return last + 1
            while True:   # any order: a fresh id below or above
                i = rnd.randrange(1, max(self.objs) + 1000)
                if i not in self.objs:
                    return i
        raise ValueError(mode)

    # --- one interval of the program ---------------------------------
    def alloc(self, interval, site=None, thread=None):
        rnd, e = self.rnd, self.e
        t = rnd.choice(list(self.types))
        name, arr = self.types[t]
        if site is None:
            site = rnd.choice([0] + list(self.sites))
        if thread is None:
            thread = rnd.choice([0] + list(self.threads))
        self.define_type(t)
        self.define_site(site)
        self.define_thread(thread)
        length = rnd.randrange(0, 50) if arr else 0
        size = 16 + 8 * length if arr else rnd.choice([16, 24, 40])
        if name == "org.lib.Big":
            size = rnd.choice([100_000, 1 << 20, (1 << 32) + 48 if rnd.random() < 0.3 else 4096])
        space = 0
        if self.opt["spaces"]:
            space = 12 if size >= 100_000 else rnd.choice([31, 31, 31, 2])
        oid = self.new_id(interval)
        self.emit(0x10, e.sv(oid - self.prev_id) + e.uv(t) + e.uv(site) + e.uv(thread) + e.uv(size)
                  + e.uv(space) + e.uv(length), extra=b"\x00" if rnd.random() < 0.05 else b"")
        self.prev_id = oid
        self.objs[oid] = dict(type=t, site=site, thread=thread, size=size, space=space, born=interval, death=None,
                              moves=[(0, space)])
        self.live.add(oid)
        return oid

    def link(self, oid):
        rnd = self.rnd
        r = rnd.random()
        others = [x for x in self.live if x != oid]
        if r < 0.12 or not others:
            self.roots.setdefault(oid, []).append((rnd.randrange(1, 8), rnd.choice([0, 6, 3])))
        elif r < 0.8:
            src = rnd.choice(others)
            self.edges.setdefault(src, []).append(oid)

    def interval(self, g):
        rnd, e = self.rnd, self.e
        for _ in range(rnd.randrange(15, 45)):
            oid = self.alloc(g)
            self.link(oid)
            if rnd.random() < 0.03:
                self.emit(0x07, e.s("phase") + e.s(f"interval {g}"))
            if rnd.random() < 0.02:
                self.emit(0x66, e.uv(g) + b"future")
        if rnd.random() < 0.3:
            # an object found late by the recorder: site 0, thread 0
            self.link(self.alloc(g, site=0, thread=0))
        # cross links, cycles, self references, duplicates
        ids = sorted(self.live)
        for _ in range(6):
            a = rnd.choice(ids)
            self.edges.setdefault(a, []).append(rnd.choice([a, rnd.choice(ids)]))
        for r in list(self.roots):
            if rnd.random() < 0.12:
                del self.roots[r]
        for src in list(self.edges):
            if rnd.random() < 0.06:
                self.edges[src] = []
        self.now += rnd.randrange(1_000_000, 9_000_000)
        if self.opt["deaths"] and rnd.random() < 0.6:
            # native-style frees at "now" (gc id 0): die in the coming GC
            if rnd.random() < 0.5:
                self.emit(0x13, e.uv(self.now))
            self.free_now(g)

    def free_now(self, g):
        cand = [o for o in self.live if o not in self.reachable()]
        if not cand:
            return
        dead = self.rnd.sample(sorted(cand), max(1, len(cand) // 4))
        self.emit(0x11, self.e.uv(0) + self.e.idlist(dead))
        for o in dead:
            self.kill(o, g)

    def kill(self, o, g):
        self.objs[o]["death"] = g
        self.live.discard(o)
        self.edges.pop(o, None)
        self.roots.pop(o, None)

    def reachable(self):
        seen = set(r for r in self.roots if r in self.live)
        stack = list(seen)
        while stack:
            x = stack.pop()
            for t in self.edges.get(x, []):
                if t in self.live and t not in seen:
                    seen.add(t)
                    stack.append(t)
        return seen

    def space_bytes(self, ids):
        per = {}
        for o in ids:
            sp = self.objs[o]["space"]
            per[sp] = per.get(sp, 0) + self.objs[o]["size"]
        return per

    # --- one GC --------------------------------------------------------
    def gc(self, g):
        o, rnd, e = self.opt, self.rnd, self.e
        kind = rnd.choice([1, 1, 2, 3, 4])
        graph = g % 3 == 0 or g == self.n_gcs or (g == 1 and rnd.random() < 0.5)
        start = self.now
        before_ids = set(self.live)
        before = self.space_bytes(before_ids)
        self.emit(0x20, e.uv(g) + e.uv(start) + e.uv(kind) + e.s(f"Indie{kind}") + e.s(f"cause {g % 4}"))
        reach = self.reachable()
        garbage = sorted(x for x in self.live if x not in reach)
        dead = []
        if o["deaths"]:
            # a minor GC leaves some garbage behind (floating garbage)
            dead = [x for x in garbage if kind != 1 or rnd.random() < 0.7]
        elif graph:
            dead = garbage
        # split the deaths: inside the GC, after GC_END, after GRAPH_END
        rnd.shuffle(dead)
        parts = [[], [], []]
        for x in dead:
            parts[rnd.randrange(3) if graph else rnd.randrange(2)].append(x)
        if o["deaths"]:
            self.deaths_records(g, parts[0])
        for x in dead:
            self.kill(x, g)
        if o["spaces"]:
            moves = {}
            for x in self.live:
                sp = self.objs[x]["space"]
                if sp in (31, 5) and rnd.random() < 0.8:
                    to = 5 if sp == 31 and rnd.random() < 0.7 else 900
                    moves.setdefault(to, []).append(x)
            for to, ids in moves.items():
                ids.sort()
                for k in range(0, len(ids), 7):
                    self.emit(0x12, e.uv(to) + e.idlist(ids[k:k + 7]))
                for x in ids:
                    self.objs[x]["space"] = to
                    self.objs[x]["moves"].append((g, to))
        pause = rnd.randrange(50_000, 2_000_000)
        end = start + pause + (rnd.randrange(1_000_000, 30_000_000) if kind == 4 else 0)
        self.now = end
        after = self.space_bytes(self.live)
        if o["spaces"]:
            usage = [(sid, before.get(sid, 0), after.get(sid, 0)) for sid in self.spaces if self.spaces[sid][0] != 5]
        else:
            # per-object spaces not recorded: the writer's own split
            tot_b, tot_a = sum(before.values()), sum(after.values())
            usage = [(31, tot_b // 3, 0), (900, tot_b - tot_b // 3, tot_a), (2, 100, 100)]
        usage.append((77, 4096 * g, 4096 * g))
        rnd.shuffle(usage)
        if rnd.random() < 0.3:
            usage = [u for u in usage if u[1] or u[2]]   # spaces left out of this GC
        p = e.uv(g) + e.uv(end) + e.uv(pause) + e.uv(len(usage))
        for sid, b_, a_ in usage:
            p += e.uv(sid) + e.uv(b_) + e.uv(a_) + e.uv(max(a_, b_) + 4096)
        self.emit(0x21, p, extra=b"\x01\x02" if rnd.random() < 0.3 else b"")
        heap_kind = lambda sid: self.spaces[sid][0] != 5
        used_before = sum(b_ for sid, b_, _ in usage if heap_kind(sid))
        used_after = sum(a_ for sid, _, a_ in usage if heap_kind(sid))
        if o["deaths"]:
            self.deaths_records(g, parts[1])
            if rnd.random() < 0.3:
                self.free_now_after_gc(g)
        reach_bytes = reach_objs = None
        if graph:
            reach_bytes, reach_objs = self.write_graph(g, reach)
            if o["deaths"]:
                self.deaths_records(g, parts[2])
        live_ids = [x for x in self.objs if self.objs[x]["born"] <= g and (self.objs[x]["death"] is None
                                                                           or self.objs[x]["death"] > g)]
        rec = {"id": g, "start_ns": start, "end_ns": end, "pause_ns": pause, "kind": KIND_NAMES[kind],
               "cause": f"cause {g % 4}", "used_before": used_before, "used_after": used_after,
               "spaces": {self.spaces[sid][1]: [b_, a_] for sid, b_, a_ in usage},
               "live_objects": len(live_ids), "live_bytes": sum(self.objs[x]["size"] for x in live_ids),
               "allocations": sum(1 for x in self.objs.values() if x["born"] == g),
               "reachable_bytes": reach_bytes, "reachable_objects": reach_objs}
        self.gcs.append(rec)
        return len(dead)

    def free_now_after_gc(self, g):
        # gc-0 deaths right after GC_END g, without a TICK: "now" is GC g's
        # end; the objects were in GC g's heap and die in GC g + 1
        cand = sorted(x for x in self.live if x not in self.reachable())
        if cand:
            dead = cand[: max(1, len(cand) // 3)]
            self.emit(0x11, self.e.uv(0) + self.e.idlist(dead))
            for x in dead:
                self.kill(x, g + 1)

    def pieces(self, items, most):
        """items cut into runs of 1 to most - 1"""
        out = []
        k = 0
        while k < len(items):
            n = self.rnd.randrange(1, most)
            out.append(items[k:k + n])
            k += n
        return out

    def deaths_records(self, g, ids):
        for part in self.pieces(ids, 9):
            self.emit(0x11, self.e.uv(g) + self.e.idlist(part))

    def write_graph(self, g, reach):
        rnd, e = self.rnd, self.e
        self.emit(0x22, e.uv(g))
        # roots: every live root, some twice, split over records that come
        # before, between and after the REFS
        rl = []
        for r in sorted(self.roots):
            if r in self.live:
                for kind, th in self.roots[r]:
                    rl.append((r, kind, th))
                if rnd.random() < 0.1:
                    rl.append((r, 7, 0))
        refs = []
        for src in self.live:
            ts = [t for t in self.edges.get(src, []) if t in self.live]
            if ts:
                rnd.shuffle(ts)
                refs.append((src, ts))
            elif rnd.random() < 0.05:
                refs.append((src, []))   # a REFS without targets
        rnd.shuffle(refs)
        items = [("refs", r) for r in refs]
        chunks = self.pieces(rl, 6)
        if not chunks:
            chunks = [[]]                # an empty ROOTS record
        for c in chunks:
            items.insert(rnd.randrange(len(items) + 1), ("roots", c))
        for what, x in items:
            if what == "roots":
                p = e.uv(len(x))
                for oid, kind, th in x:
                    self.define_thread(th)
                    p += e.uv(oid) + e.uv(kind) + e.uv(th)
                self.emit(0x23, p)
            else:
                self.emit(0x24, e.refs(*x))
        self.emit(0x25, e.uv(g) + e.uv(len(refs)))
        return sum(self.objs[x]["size"] for x in reach), len(reach)

    # --- truth and container -------------------------------------------
    def truth(self, cut_gc):
        gcs = self.gcs
        last = gcs[-1]["id"]
        heaps = {}
        for g in self.heap_at:
            if g > last:
                continue
            per = {"type": {}, "site": {}, "thread": {}, "space": {}}
            for x in self.objs.values():
                if x["born"] <= g and (x["death"] is None or x["death"] > g):
                    for k, key in (("type", self.types[x["type"]][0]), ("site", self.site_key(x["site"])),
                                   ("thread", self.threads.get(x["thread"], "(unknown thread)")),
                                   ("space", self.space_at(x, g))):
                        c = per[k].setdefault(str(key), [0, 0])
                        c[0] += 1
                        c[1] += x["size"]
            heaps[g] = per
        churn = {}
        for x in self.objs.values():
            if x["death"] is not None and x["death"] == x["born"] and x["born"] <= last:
                c = churn.setdefault(self.types[x["type"]][0], [0, 0])
                c[0] += 1
                c[1] += x["size"]
        deaths = sum(1 for x in self.objs.values() if x["death"] is not None)
        allocs = len(self.objs) if cut_gc is None else sum(1 for x in self.objs.values() if x["born"] <= last + 1)
        return {"complete": cut_gc is None, "gcs": gcs, "allocs": allocs, "deaths": deaths,
                "deaths_recorded": self.opt["deaths"], "spaces_recorded": self.opt["spaces"],
                "graphs": sum(1 for x in gcs if x["reachable_bytes"] is not None),
                "heaps": heaps, "churn": churn}

    def space_at(self, x, g):
        sp = [to for when, to in x["moves"] if when <= g][-1]
        return self.spaces[sp][1] if sp else "(unknown space)"

    def site_key(self, s):
        if s == 0 or not self.sites[s]:
            return "(unknown site)"
        method, _, line = self.frames[self.sites[s][0]]
        return method + (f":{line}" if line >= 0 else "")

    def container(self):
        rnd, recs, mode = self.rnd, self.records, self.opt["frames"]
        if self.opt.get("cut") == "gc":
            recs = recs[: self.cut_after + 1]     # GC_START and one ALLOC of a GC never ended
        elif self.opt.get("cut") == "frame":
            recs = recs[: self.cut_after - 1]     # the rest goes into a frame cut in half
        stream = b"TMTRACE1" + b"".join(recs)
        if mode == "raw":
            return stream

        def z(data):
            return subprocess.run(["zstd", "-q", "-c", rnd.choice(["--check", "--no-check"]), rnd.choice(["-1", "-3", "-19"])],
                                  input=data, stdout=subprocess.PIPE, check=True).stdout

        def skippable():
            body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 40)))
            return (0x184D2A50 + rnd.randrange(16)).to_bytes(4, "little") + len(body).to_bytes(4, "little") + body

        def z_raw(data):
            # a frame written by hand (RFC 8878): raw and RLE blocks, with
            # or without a content size, no checksum; the zstd tool is far
            # too slow for thousands of frames of a few bytes
            if rnd.random() < 0.5:
                n = len(data)
                if n < 256:
                    head = bytes([0x20]) + n.to_bytes(1, "little")
                elif n < 65536 + 256:
                    head = bytes([0x60]) + (n - 256).to_bytes(2, "little")
                else:
                    head = bytes([0xA0]) + n.to_bytes(4, "little")
            else:
                head = bytes([0x00, 7 << 3])       # window 128 KiB, size unknown
            blocks = []
            k = 0
            while k < len(data):
                run = 1
                while k + run < len(data) and data[k + run] == data[k] and run < 1000:
                    run += 1
                if run >= 4:
                    blocks.append((1, run, data[k:k + 1]))
                    k += run
                else:
                    n = min(len(data) - k, rnd.choice([1, 3, 50, 1 << 17]))
                    blocks.append((0, n, data[k:k + n]))
                    k += n
            if not blocks:
                blocks.append((0, 0, b""))
            out = bytearray((0xFD2FB528).to_bytes(4, "little") + head)
            for i, (btype, size, body) in enumerate(blocks):
                out += ((size << 3) | (btype << 1) | (i == len(blocks) - 1)).to_bytes(3, "little") + body
            return bytes(out)

        if mode == "one":
            pieces = [stream]
        elif mode == "per-record":
            pieces = [b"TMTRACE1"] + list(recs)
        elif mode == "tiny":
            pieces = []
            k = 0
            while k < len(stream):
                n = rnd.randrange(1, 12)
                pieces.append(stream[k:k + n])
                k += n
        else:
            cuts = sorted(rnd.sample(range(1, len(stream)), min(40, len(stream) - 1)))
            pieces = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
        out = bytearray()
        for k, piece in enumerate(pieces):
            if self.opt.get("skippable") and rnd.random() < 0.2:
                out += skippable()
            if rnd.random() < 0.03:
                out += z_raw(b"")            # an empty frame
            out += z(piece) if mode in ("one", "random") else z_raw(piece)
        if self.opt.get("cut") == "frame":
            # the recorder died while writing: half a frame at the end
            tail = z(b"".join(self.records[self.cut_after - 1:]))
            out += tail[: len(tail) // 2]
        return bytes(out)


def main():
    out_path, truth_path, variant, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    w = Writer(variant, seed)
    cut_gc = w.run()
    data = w.container()
    with open(out_path, "wb") as f:
        f.write(data)
    with open(truth_path, "w") as f:
        json.dump(w.truth(cut_gc), f)


if __name__ == "__main__":
    main()
