#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent writer of trace format v1, written from the spec alone
(src/libtidemark/trace-format.md), sharing no code with the C writer.

It simulates a random heap with a seeded RNG, writes it with every liberty
the format allows (ids in any order with negative deltas, zstd frames cut at
arbitrary byte offsets so records straddle frames, DEATHS after GC_END,
ROOTS split over several records, unknown tags, extra trailing payload
bytes, TICKs and gc-0 deaths, container operations with a kind from the
future), and computes the truth itself: per GC the
heap occupancy, live objects and reachable bytes.

usage: independent_writer.py OUT.tmtrace EXPECTED.json SEED [--no-deaths] [--raw] [--markup-names]

--markup-names gives the classes names full of HTML markup (<, >, &, quotes),
as generics and inner classes can look in a report.
"""
import json
import random
import subprocess
import sys


def uv(n):
    assert n >= 0
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def sv(n):
    return uv((n << 1) ^ (n >> 63) if n >= 0 else ((-n) << 1) - 1)


def s(text):
    b = text.encode()
    return uv(len(b)) + b


def rec(tag, payload, extra=b""):
    payload = payload + extra
    return bytes([tag]) + uv(len(payload)) + payload


def main():
    out_path, exp_path, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    deaths_recorded = "--no-deaths" not in sys.argv
    raw = "--raw" in sys.argv
    markup = "--markup-names" in sys.argv
    rnd = random.Random(seed)
    stream = bytearray(b"TMTRACE1")
    flags = 1 | (2 if deaths_recorded else 0)
    stream += rec(0x01, uv(1) + uv(123456789) + s("IndieVM") + s("9.9") + s("indie --run") + uv(8) + uv(0) + uv(flags),
                  extra=b"\x05\x06")  # trailing fields a v1 reader skips
    spaces = {7: 1, 9: 3, 11: 5}      # id -> kind (11 is non-heap)
    for sid, kind in spaces.items():
        stream += rec(0x02, uv(sid) + uv(kind) + s(f"space-{sid}"))
    types = {}
    for i in range(6):
        tid = 100 + i * 3
        types[tid] = f"org.indie.T{i}" if i < 5 else "java.lang.Object[]"
        if markup and i < 5:
            types[tid] = f"org.indie.Map<K{i},V>&\"T{i}\"<script>"
        stream += rec(0x03, uv(tid) + s(types[tid]) + uv(1 if i == 5 else 0))
    stream += rec(0x04, uv(5) + s("org.indie.Main.run()") + s("Main.java") + sv(-1))
    stream += rec(0x05, uv(6) + uv(1) + uv(5))
    stream += rec(0x06, uv(77) + s("worker"))
    stream += rec(0x6A, b"unknown extension record")

    # ids: blocks of random ids, not ascending
    used = set()

    def new_id():
        while True:
            i = rnd.randrange(1, 1 << 40)
            if i not in used:
                used.add(i)
                return i

    live = {}      # id -> size
    edges = {}     # id -> [ids]
    roots = set()
    prev_alloc = 0
    now = 0
    gcs = []
    total_allocs = 0
    total_deaths = 0
    allocated_since = 0
    n_gcs = 30
    container_ops = 0
    used_old = 0
    for g in range(1, n_gcs + 1):
        # allocate
        new = []
        for _ in range(rnd.randrange(20, 60)):
            oid = new_id()
            size = rnd.choice([16, 24, 32, 48, 64, 1000])
            t = rnd.choice(list(types))
            stream += rec(0x10, sv(oid - prev_alloc) + uv(t) + uv(rnd.choice([0, 6])) + uv(rnd.choice([0, 77]))
                          + uv(size) + uv(0) + uv(0))
            prev_alloc = oid
            live[oid] = size
            new.append(oid)
            total_allocs += 1
            allocated_since += size
        # wire: each new object is referenced by an older or root object, sometimes
        ids = list(live)
        for oid in new:
            r = rnd.random()
            if r < 0.15 or not ids:
                roots.add(oid)
            elif r < 0.75:
                src = rnd.choice(ids)
                edges.setdefault(src, []).append(oid)
        # some cycles and cross links
        for _ in range(5):
            a, b = rnd.choice(ids), rnd.choice(ids)
            edges.setdefault(a, []).append(b)
        # drop some roots and edges: those objects become garbage
        for r in list(roots):
            if rnd.random() < 0.1:
                roots.discard(r)
        for src in list(edges):
            if rnd.random() < 0.05:
                edges[src] = []
        # container operations (CONTAINER_OP) on live objects, times rising
        # within the interval; a kind from the future (9) is skipped
        containers = [o for o in live if o in edges] or list(live)
        op_t = now
        for _ in range(rnd.randrange(0, 8)):
            kind = rnd.choice([1, 1, 2, 3, 4, 5, 9])
            c = rnd.choice(containers)
            e = 0 if kind == 5 else rnd.choice(list(live))
            op_t += rnd.randrange(1, 1000)
            stream += rec(0x40, uv(kind) + uv(op_t) + uv(c) + uv(e) + uv(rnd.choice([0, 6])) + uv(rnd.choice([0, 77])),
                          extra=b"\x01" if rnd.random() < 0.2 else b"")
            if kind != 9:
                container_ops += 1
        now += rnd.randrange(5_000_000, 20_000_000)
        if rnd.random() < 0.3:
            stream += rec(0x13, uv(now))
            # a native-style free at "now" of an unreachable object (gc id 0)
        # reachability now
        seen = set()
        stack = [r for r in roots if r in live]
        seen.update(stack)
        while stack:
            o = stack.pop()
            for t in edges.get(o, []):
                if t in live and t not in seen:
                    seen.add(t)
                    stack.append(t)
        dead = [o for o in live if o not in seen]
        before_heap = used_old + allocated_since
        start = now
        stream += rec(0x20, uv(g) + uv(start) + uv(rnd.choice([1, 2, 3, 4])) + s("IndieGC") + s(f"cause {g}"))
        if deaths_recorded and dead and rnd.random() < 0.5:
            # deaths inside the GC, in two records with ids ascending
            ds = sorted(dead)
            half = len(ds) // 2
            for part in (ds[:half], ds[half:]):
                if part:
                    p = uv(g) + uv(len(part)) + uv(part[0])
                    for a, b in zip(part, part[1:]):
                        p += uv(b - a)
                    stream += rec(0x11, p)
            late = []
        else:
            late = sorted(dead)
        for o in dead:
            del live[o]
            edges.pop(o, None)
            roots.discard(o)
        total_deaths += len(dead)
        after_heap = sum(live.values())
        pause = rnd.randrange(100_000, 3_000_000)
        now += pause
        usage = [(7, allocated_since, 0, 1 << 20), (9, used_old, after_heap, 1 << 22), (11, 5000, 5000, 8000)]
        p = uv(g) + uv(now) + uv(pause) + uv(len(usage))
        for sid, b_, a_, c_ in usage:
            p += uv(sid) + uv(b_) + uv(a_) + uv(c_)
        stream += rec(0x21, p, extra=b"\x99")  # trailing byte in GC_END
        if deaths_recorded and late:
            # deaths learned late: after GC_END, before the next GC_START
            p = uv(g) + uv(len(late)) + uv(late[0])
            for a, b in zip(late, late[1:]):
                p += uv(b - a)
            stream += rec(0x11, p)
        graph = g % 4 == 0 or g == n_gcs
        reach_bytes = None
        if graph:
            stream += rec(0x22, uv(g))
            rl = sorted(r for r in roots if r in live)
            for chunk in (rl[: len(rl) // 3], rl[len(rl) // 3:]):
                p = uv(len(chunk))
                for r in chunk:
                    p += uv(r) + uv(rnd.choice([1, 2, 7])) + uv(77 if rnd.random() < 0.5 else 0)
                stream += rec(0x23, p)
            listed = 0
            for src in sorted(live):
                ts = [t for t in edges.get(src, []) if t in live]
                if not ts:
                    continue
                p = uv(src) + uv(len(ts))
                prev = src
                for t in ts:
                    p += sv(t - prev)
                    prev = t
                stream += rec(0x24, p)
                listed += 1
            stream += rec(0x25, uv(g) + uv(listed))
            reach_bytes = after_heap  # everything alive was reached (dead ones removed)
        gcs.append({"id": g, "start_ns": start, "end_ns": now, "pause_ns": pause,
                    "used_before": before_heap, "used_after": after_heap,
                    "live_objects": len(live) if (deaths_recorded or graph) else None,
                    "reachable_bytes": reach_bytes})
        used_old = after_heap
        allocated_since = 0
    stream += rec(0x7F, uv(total_allocs) + uv(total_deaths if deaths_recorded else 0) + uv(n_gcs) + uv(now))

    if raw:
        data = bytes(stream)
    else:
        # frames cut at arbitrary byte offsets: records straddle frames
        cuts = sorted(rnd.sample(range(1, len(stream)), 7))
        data = b""
        prev = 0
        for c in cuts + [len(stream)]:
            data += subprocess.run(["zstd", "-q", "-c", "--no-check" if rnd.random() < 0.5 else "--check"],
                                   input=bytes(stream[prev:c]), stdout=subprocess.PIPE, check=True).stdout
            prev = c
    with open(out_path, "wb") as f:
        f.write(data)
    with open(exp_path, "w") as f:
        json.dump({"gcs": gcs, "allocs": total_allocs, "deaths": total_deaths if deaths_recorded else None,
                   "container_ops": container_ops}, f)


if __name__ == "__main__":
    main()
