#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli ds-growth end to end: the synthetic leak's cache ranks first
# with single-ownership container growth, the JSON shape of cli.md, user
# description files (--ds), options and exit codes.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

"$cli" synth leak -o "$dir/leak.tmtrace" 2>/dev/null || fail "synth leak"
# graphs every 10 GCs in 200: the leak runs from GC 40 to the end
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --json > "$dir/g.json" || fail "ds-growth --json"

json "$dir/g.json" "
for k in ['from_gc','to_gc','heap_growth_bytes','structures']: assert k in d, k
assert d['from_gc'] == 60 and d['to_gc'] == 200, d
assert d['heap_growth_bytes'] > 0
s = d['structures']
assert len(s) >= 2, s
for e in s:
  for k in ['object_id','type','site','retained_bytes','deep_bytes','ds_bytes','deep_ds_bytes','hgp','pattern']: assert k in e, k
  for k in ['retained_bytes','deep_bytes','ds_bytes','deep_ds_bytes']: assert len(e[k]) == 2 and all(isinstance(v, int) for v in e[k]), e
  assert set(e['hgp']) >= {'retained','deep','ds','deep_ds'}, e['hgp']
  assert e['pattern'] in {'single-ownership-container-growth','shared-ownership-container-growth',
                          'single-ownership-data-growth','shared-ownership-data-growth','non-growth'}
  # retained <= deep <= heap at every end
  for i in (0, 1): assert e['retained_bytes'][i] <= e['deep_bytes'][i], e
hg = [e['hgp']['retained'] for e in s]
assert hg == sorted(hg, reverse=True), hg
top = s[0]
assert top['type'] == 'java.util.concurrent.ConcurrentHashMap', top
assert top['pattern'] == 'single-ownership-container-growth', top
assert top['site'].startswith('java.util.concurrent.ConcurrentHashMap.putVal('), top['site']
assert top['hgp']['retained'] > 0.5, top
g = top['retained_bytes'][1] - top['retained_bytes'][0]
assert abs(top['hgp']['retained'] - g / d['heap_growth_bytes']) < 1e-5
" || fail "leak JSON"

# text output names the cache first
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 > "$dir/g.txt" || fail "text"
grep -m1 '^   1 ' "$dir/g.txt" | grep -q 'java.util.concurrent.ConcurrentHashMap .*single-ownership-container-growth' \
  || { cat "$dir/g.txt"; fail "text ranking"; }

# a user description: Journey becomes a structure of its own inside the
# cache (so it is hidden from the view)
cat > "$dir/travel.ds" <<'EOF'
namespace com.example.travel {
    DS Journey { (java.lang.String); (byte[]); }
}
EOF
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --json \
  --ds "$dir/travel.ds" > "$dir/u.json" 2> "$dir/u.err" || fail "--ds"
# a --ds file that cannot be used is an unusable input: exit 2, one line
# naming the file, nothing on stdout
printf 'DS broken {\n  x y\n}\n' > "$dir/broken.ds"
{ printf 'DS x.'; head -c 300000 /dev/zero | tr '\0' 'a'; printf '. { }\n'; } > "$dir/long.ds"
for bad in broken.ds long.ds . /dev/zero missing.ds; do
  case $bad in /*) f=$bad ;; *) f=$dir/$bad ;; esac
  set +e
  "$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --json --ds "$dir/travel.ds" --ds "$f" \
    > "$dir/b.out" 2> "$dir/b.err"
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "--ds $bad: exit $code, expected 2"
  [ ! -s "$dir/b.out" ] || fail "--ds $bad: output on stdout"
  [ "$(wc -l < "$dir/b.err")" -eq 1 ] || { cat "$dir/b.err"; fail "--ds $bad: not one line"; }
  [ "$(wc -c < "$dir/b.err")" -lt 300 ] || fail "--ds $bad: message of $(wc -c < "$dir/b.err") bytes"
  grep -qF "$f" "$dir/b.err" || { cat "$dir/b.err"; fail "--ds $bad: message does not name the file"; }
done
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --ds "$dir/broken.ds" > /dev/null 2> "$dir/b.err" || true
grep -q "broken.ds:2:5: expected ';' or '}' after pointee" "$dir/b.err" || { cat "$dir/b.err"; fail "broken --ds message"; }
"$cli" heap "$dir/leak.tmtrace" --gc 60 --data-structures --ds "$dir/broken.ds" > /dev/null 2>&1 \
  && fail "heap accepted a broken --ds"
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --ds "$dir" > /dev/null 2> "$dir/b.err" || true
grep -q "is a directory" "$dir/b.err" || { cat "$dir/b.err"; fail "--ds DIR message"; }
json "$dir/u.json" "
s = d['structures']
assert s[0]['type'] == 'java.util.concurrent.ConcurrentHashMap'
assert all(e['type'] != 'com.example.travel.Journey' for e in s)
assert s[0]['deep_ds_bytes'][1] > s[0]['ds_bytes'][1]
" || fail "user descriptions"
# the same structures without the file: deep ds = ds (Journeys are plain leaves)
json "$dir/g.json" "
top = d['structures'][0]
assert top['deep_ds_bytes'] == top['ds_bytes'], top
" || fail "no nesting without --ds"

# usage errors: exit 1 with a hint; unusable input: exit 2, nothing on stdout
set +e
"$cli" ds-growth "$dir/leak.tmtrace" --to-gc 200 > /dev/null 2>&1; [ $? -eq 1 ] || fail "missing --from-gc"
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 200 --to-gc 60 > /dev/null 2>&1; [ $? -eq 1 ] || fail "reversed window"
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 900 > /dev/null 2>&1; [ $? -eq 1 ] || fail "GC out of range"
"$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --bogus > /dev/null 2>&1; [ $? -eq 1 ] || fail "unknown option"
out=$("$cli" ds-growth "$dir/leak.tmtrace" --from-gc 61 --to-gc 200 2> "$dir/e.txt"); rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] || fail "GC without graph: rc $rc"
grep -q "leak.tmtrace: .*61" "$dir/e.txt" || { cat "$dir/e.txt"; fail "no-graph message"; }
out=$("$cli" ds-growth "$dir/missing.tmtrace" --from-gc 1 --to-gc 2 2> /dev/null); rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] || fail "missing trace: rc $rc"
out=$("$cli" ds-growth "$dir/leak.tmtrace" --from-gc 60 --to-gc 200 --ds "$dir/none.ds" 2> /dev/null); rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] || fail "missing --ds file: rc $rc"
set -e
echo "ok"
