#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# heaptrack recordings over time: allocations and temporary allocations per
# interval and the RSS of each time point (`timeline`, `chart --kind
# allocations|rss`), on tests/data/heaptrack/bursts.c, whose five bursts
# allocate known numbers of blocks (see its header).  The recording kept in
# tests/data is checked always; when heaptrack and a C compiler are
# installed, the program is also compiled, recorded and printed afresh.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"
src=${TM_SOURCE_DIR:?}/tests/data/heaptrack

png_size() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"; }

# check RECORDING HEAPTRACK_PRINT_OUTPUT
check() {
  local rec=$1 printed=$2
  "$cli" timeline "$rec" --json > "$dir/t.json" || fail "timeline $rec"
  "$cli" info "$rec" --json > "$dir/i.json" || fail "info $rec"
  python3 - "$dir/t.json" "$dir/i.json" "$printed" <<'PY' || fail "per-interval figures of $rec"
import json, re, sys
points = json.load(open(sys.argv[1]))['gcs']
info = json.load(open(sys.argv[2]))['heaptrack']
text = open(sys.argv[3]).read()
calls = int(re.search(r'calls to allocation functions: (\d+)', text).group(1))
temporary = int(re.search(r'temporary memory allocations: (\d+)', text).group(1))

# every interval together: heaptrack_print's totals
assert sum(p['allocations'] for p in points) == calls, (sum(p['allocations'] for p in points), calls)
assert sum(p['temporary'] for p in points) == temporary, (sum(p['temporary'] for p in points), temporary)

# the bursts: burst k allocates 500 k blocks (400 k of them temporary), and
# burst 3 one more (its 16 MiB block); what the C library allocates before
# main is the rest.  Time points fall between bursts (300 ms apart), so the
# running totals over the intervals reach each burst's end exactly.
bursts = [500 * k + (k == 3) for k in range(1, 6)]
temps = [400 * k for k in range(1, 6)]
for series, key, total in ((bursts, 'allocations', calls), (temps, 'temporary', temporary)):
    before = total - sum(series)
    assert 0 <= before < 100, (key, before)
    running, reached = 0, set()
    for p in points:
        running += p[key]
        reached.add(running)
    end = before
    for k, n in enumerate(series, 1):
        end += n
        assert end in reached, (key, 'burst', k, end, sorted(reached))

# RSS: sampled at every point, never above heaptrack's peak; the 16 MiB
# block written in burst 3 shows
rss = [p['rss_bytes'] for p in points]
assert all(r is not None and r > 0 for r in rss), rss
assert max(rss) <= info['peak_rss_bytes'], (max(rss), info['peak_rss_bytes'])
third = next(i for i, p in enumerate(points) if sum(q['allocations'] for q in points[:i + 1]) >= calls - sum(bursts[3:]))
assert rss[-1] - min(rss[:third]) >= 16 << 20, (rss, third)
PY
  "$cli" timeline "$rec" > "$dir/t.txt" || fail "timeline text"
  head -1 "$dir/t.txt" | grep -q "allocations *temporary" || fail "timeline text header"
  for k in allocations rss; do
    "$cli" chart "$rec" --kind $k --png "$dir/$k.png" --width 640 --height 200 || fail "chart $k"
    [ "$(png_size "$dir/$k.png")" = "640x200" ] || fail "chart $k size"
  done
}

check "$src/bursts.zst" "$src/bursts.heaptrack_print.txt"

# no RSS in a synthetic trace without committed sizes: a clear refusal
"$cli" synth leak -o "$dir/leak.tmtrace" > /dev/null || fail "synth"
if "$cli" timeline "$dir/leak.tmtrace" --json | python3 -c "import json,sys; sys.exit(0 if any(g['committed_after'] for g in json.load(sys.stdin)['gcs']) else 1)"; then
  "$cli" chart "$dir/leak.tmtrace" --kind rss --png "$dir/r.png" || fail "rss of committed sizes"
else
  "$cli" chart "$dir/leak.tmtrace" --kind rss --png "$dir/r.png" 2> "$dir/err" && fail "rss without samples"
  grep -q "leak.tmtrace" "$dir/err" || fail "rss message names the file"
fi
# allocations per interval exist for any trace with allocations
"$cli" chart "$dir/leak.tmtrace" --kind allocations --png "$dir/a.png" || fail "allocations of a trace"

cc=$(command -v cc || command -v gcc || true)
if command -v heaptrack > /dev/null && command -v heaptrack_print > /dev/null && [ -n "$cc" ]; then
  "$cc" -O0 -fno-builtin -g -o "$dir/bursts" "$src/bursts.c" || fail "compile"
  (cd "$dir" && heaptrack -o "$dir/fresh" ./bursts > /dev/null 2>&1) || fail "heaptrack"
  fresh=$(ls "$dir"/fresh.*)
  heaptrack_print "$fresh" > "$dir/fresh.txt" 2> /dev/null || fail "heaptrack_print"
  check "$fresh" "$dir/fresh.txt"
else
  echo "heaptrack or a C compiler missing: the fresh recording is skipped"
fi
echo ok
