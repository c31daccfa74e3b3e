#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# GC advice's premature-promotion rule on real recordings
# (PromotionChurn.java), Serial collector, tenuring threshold 1 (read by
# the agent into META): sessions that live about three young GCs are
# promoted by their second and freed by the System.gc() after it, so the
# rule fires with the recorded threshold and a higher one; sessions that
# live less than one young GC die in the survivor spaces (or are moved to
# the old generation by a full GC, not by the threshold): it stays silent.
set -euo pipefail
. "$TM_SOURCE_DIR/tests/cli-test-lib.sh"

ticks=8000 full=8
# record NAME WINDOW: the run, its advice and its GCs
record () {
  local t="$dir/$1.tmtrace"
  "$cli" record -o "$t" -- "$TM_JAVA_HOME/bin/java" -XX:+UseSerialGC -Xmn8m -Xmx16m -XX:MaxTenuringThreshold=1 \
    -cp "$TM_AGENT_CLASSES" PromotionChurn "$ticks" "$2" "$full" 250 > "$dir/$1.out" 2> "$dir/$1.err" \
    || fail "record $1: $(cat "$dir/$1.err")"
  grep -qx "$ticks $2" "$dir/$1.out" || fail "$1 output: $(cat "$dir/$1.out")"
  "$cli" info "$t" --json > "$dir/$1.info.json" || fail "info $1"
  "$cli" advise "$t" --json > "$dir/$1.advice.json" || fail "advise $1"
  "$cli" timeline "$t" --json > "$dir/$1.gcs.json" || fail "timeline $1"
}

record promoted 600
record young 150
python3 - "$dir" "$ticks" "$full" <<'PY' || fail "premature promotion"
import json, re, sys
d, ticks, full = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(name, what):
    return json.load(open('%s/%s.%s.json' % (d, name, what)))
def rule(name):
    return [a for a in load(name, 'advice')['advice'] if a['rule'] == 'premature-promotion']

info = load('promoted', 'info')
assert info['meta'].get('jvm.MaxTenuringThreshold') == '1', info.get('meta')
# frees posted after the next GC started would date deaths too late (the
# pause after each GC is there to prevent it)
for name in ('promoted', 'young'):
    assert load(name, 'info')['meta'].get('late_deaths') == '0', (name, load(name, 'info')['meta'])
gcs = load('promoted', 'gcs')['gcs']
young = [g['id'] for g in gcs if g['kind'] == 'minor']
explicit = [g['id'] for g in gcs if g['cause'] == 'System.gc()']
assert len(young) >= 30 and len(explicit) >= 4, (len(young), explicit)
per_young = ticks / len(young)               # ticks between young GCs
lives = 600 / per_young                      # young GCs a session lives through, about 3
assert 2.2 < lives < 4.5, lives

r = rule('promoted')
assert len(r) == 1, load('promoted', 'advice')
a = r[0]
m = re.search(r'Of ([0-9.]+) MiB promoted at a tenuring threshold of (\d+) \((\d+) objects.*?'
              r'([0-9.]+) MiB \((\d+)%\) were freed', a['finding'])
assert m, a['finding']
promoted, threshold, share = float(m.group(1)), int(m.group(2)), int(m.group(5))
sessions = ticks * 2064 / 2**20              # 2 KiB arrays with their header
assert threshold == 1, a['finding']
# most sessions are promoted (not those a System.gc() moved first), few other objects
assert 0.5 * sessions < promoted < sessions + 2, (promoted, sessions)
assert share >= 50, a['finding']
# freed by the System.gc() after their promotion: each of those GCs (from
# the second on, when sessions were promoted before it) is evidence
assert set(explicit[1:]) <= set(a['gcs']), (explicit, a['gcs'])
# a threshold above the one recorded, covering the young GCs they live
# through, at most the young GCs between two System.gc() and that life
n = int(re.fullmatch(r'-XX:MaxTenuringThreshold=(\d+)', a['flags']).group(1))
assert max(2, int(lives)) <= n <= full + int(lives) + 1, (n, lives, a['flags'])

assert rule('young') == [], rule('young')
PY
echo ok
