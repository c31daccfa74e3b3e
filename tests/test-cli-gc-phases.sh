#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli gc-phases and the pause charts on real logs whose phases,
# stalls and degenerated GCs were counted by hand (tests/data/gc-logs).
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data/gc-logs
png_size() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"; }

# ZGC: 7 allocation stalls (85.245 ms), 7 relocation stalls (5.246 ms),
# 3 pauses (25 us), one cycle
"$cli" gc-phases "$src/ujl-zgc-gc-other.txt" --json --list > "$dir/zgc.json" || fail "zgc exit $?"
json "$dir/zgc.json" "
k = d['per_kind']
assert k['stall'] == {'count': 14, 'total_ns': 85245000 + 5246000}, k['stall']
assert k['pause'] == {'count': 3, 'total_ns': 25000} and k['cycle']['count'] == 1, k
byname = {(x['kind'], x['name']): x for x in d['by_name']}
a = byname[('stall', 'Allocation Stall')]
assert a['count'] == 7 and a['total_ns'] == 85245000 and a['max_ns'] == 29092000, a
stalls = [p for p in d['phases'] if p['kind'] == 'stall']
assert len(stalls) == 14 and stalls[0]['detail'] == 'Group1.Backend.CompositeBackend{Tier1}.1', stalls[0]
assert stalls[0]['end_ns'] == 201482000000 and stalls[0]['duration_ns'] == 706000, stalls[0]
assert d['complete'] is True
"
"$cli" gc-phases "$src/ujl-zgc-gc-other.txt" --kind stall > "$dir/zgc.txt" || fail "zgc text"
grep -q "^stall  *Allocation Stall  *7 " "$dir/zgc.txt" || fail "text: allocation stalls $(cat "$dir/zgc.txt")"
if grep -q "^concurrent" "$dir/zgc.txt"; then fail "--kind stall lists other kinds"; fi

# Shenandoah (JDK 8 backport): one degenerated GC, 184.489 ms, at Update Refs
"$cli" gc-phases "$src/legacy-shenandoah-SampleOpenJdk1_8_0-332.txt" --kind degenerated --list --json > "$dir/shen.json" || fail "shenandoah"
json "$dir/shen.json" "
assert d['per_kind'] == {'degenerated': {'count': 1, 'total_ns': 184489000}}, d['per_kind']
assert d['phases'][0]['detail'] == 'Update Refs' and d['phases'][0]['name'] == 'Pause Degenerated GC', d['phases']
"
# Shenandoah: 438 full GCs (3.108638 s), no concurrent cycles
"$cli" gc-phases "$src/ujl-shenandoah-SampleShenandoahSeveralSystemGC.txt.gz" --json > "$dir/full.json" || fail "full"
json "$dir/full.json" "
assert d['per_kind']['full'] == {'count': 438, 'total_ns': 3108638000} and d['per_kind']['cycle']['count'] == 0, d['per_kind']
"

# G1 JDK 17: 40 marking cycles; a range holds fewer
"$cli" gc-phases "$src/jdk17-g1.log" --json > "$dir/g1.json" || fail "g1"
"$cli" gc-phases "$src/jdk17-g1.log" --from-gc 1 --to-gc 60 --json > "$dir/g1r.json" || fail "g1 range"
json "$dir/g1.json" "assert d['per_kind']['cycle']['count'] == 40, d['per_kind']"
json "$dir/g1r.json" "assert 0 < d['per_kind']['cycle']['count'] < 40, d['per_kind']"

# CMS JDK 6: 11 phases, 326 ms
"$cli" gc-phases "$src/legacy-cms-SampleSun1_6_0CMS.txt" --json > "$dir/cms.json" || fail "cms"
json "$dir/cms.json" "assert d['per_kind']['concurrent'] == {'count': 11, 'total_ns': 326000000}, d['per_kind']"

# gc-summary gives the totals per kind too
"$cli" gc-summary "$src/ujl-zgc-gc-other.txt" --json > "$dir/sum.json" || fail "gc-summary"
json "$dir/sum.json" "
p = d['phases']
assert p['stall'] == {'count': 14, 'total_ns': 90491000} and p['concurrent']['total_ns'] == 1313550000, p
"
"$cli" gc-summary "$src/ujl-zgc-gc-other.txt" | grep -q "^Stalls (threads waiting for memory): 14, " || fail "gc-summary text: stalls"

# usage errors
set +e
"$cli" gc-phases "$src/jdk17-g1.log" --kind nonsense > /dev/null 2>&1; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "unknown kind: exit $rc"

# the pause charts as PNG, at the asked size
for k in pauses pause-histogram memory; do
  "$cli" chart "$src/ujl-zgc-gc-other.txt" --kind $k --png "$dir/$k.png" --width 640 --height 260 || fail "chart $k"
  [ "$(png_size "$dir/$k.png")" = "640x260" ] || fail "$k size"
done
"$cli" chart "$src/jdk17-g1.log" --kind pauses --from-gc 10 --to-gc 50 --png "$dir/r.png" --width 500 --height 200 || fail "range"
echo ok
