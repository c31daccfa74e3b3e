#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs every analysis command of tidemark-cli with --json (flame graphs as
# SVG, charts as PNG) on the synthetic scenarios, the heaptrack recordings
# and GC logs of tests/data, and any extra traces given, and writes one
# file per command and input into OUTDIR.  Run it with two builds (or before
# and after a change) and compare the directories with `diff -r`: a change
# to how the model is stored must leave every file identical.
#
#   tests/tools/cli-json-snapshot.sh CLI OUTDIR [EXTRA_TRACE...]
#
# The synthetic traces are written into OUTDIR/inputs (same seed, so two
# runs compare the same data).  Exit status: 0 unless the CLI crashed.
set -u

CLI=${1:?usage: cli-json-snapshot.sh CLI OUTDIR [EXTRA_TRACE...]}
OUT=${2:?usage: cli-json-snapshot.sh CLI OUTDIR [EXTRA_TRACE...]}
shift 2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT/inputs"
crashed=0

for s in steady leak churn gc-overhead mixed plateau teardown oom churn-burst backlog; do
  "$CLI" synth "$s" -o "$OUT/inputs/$s.tmtrace" --seed 7 --scale 1 >/dev/null 2>&1 \
    || { echo "synth $s failed" >&2; crashed=1; }
done

inputs=""
for f in "$OUT"/inputs/*.tmtrace "$SRC"/tests/data/heaptrack/*.zst \
         "$SRC"/tests/data/gc-logs/jdk17-g1.log "$SRC"/tests/data/gc-logs/legacy-cms-SampleSun1_6_0CMS.txt "$@"; do
  [ -f "$f" ] && inputs="$inputs $f"
done

# run NAME ARGS...: stdout and exit status into OUT/NAME (stderr names temp
# paths, so only its first line's exit status matters)
run () {
  name=$1; shift
  timeout 120 "$CLI" "$@" >"$OUT/$name" 2>"$OUT/$name.err"
  rc=$?
  echo "exit $rc" >>"$OUT/$name"
  [ $rc -eq 124 ] && echo "TIMEOUT: $CLI $*" >&2
  [ $rc -ge 128 ] && { echo "CRASH ($rc): $CLI $*" >&2; crashed=1; }
  rm -f "$OUT/$name.err"
  # the synthetic inputs live under OUT: name it the same in every run
  sed -i "s|$OUT|@OUT@|g" "$OUT/$name"
}

for f in $inputs; do
  b=$(basename "$f")
  n=$("$CLI" info "$f" --json 2>/dev/null | sed -n 's/.*"gcs": \([0-9]*\).*/\1/p' | head -n 1)
  n=${n:-0}
  mid=$(( n / 2 > 0 ? n / 2 : 1 ))
  last=$(( n > 0 ? n : 1 ))
  q=$(( n / 4 > 0 ? n / 4 : 1 ))
  run "$b.info" info "$f" --json
  run "$b.timeline" timeline "$f" --json
  run "$b.timeline-csv" timeline "$f" --csv
  run "$b.windows" windows "$f" --json --all
  run "$b.gc-summary" gc-summary "$f" --json
  run "$b.gc-summary-win" gc-summary "$f" --from-gc "$q" --to-gc "$mid" --json
  run "$b.advise" advise "$f" --no-kb --json
  for gc in "$mid" "$last"; do
    run "$b.heap-$gc" heap "$f" --gc "$gc" --json
    run "$b.heap-$gc-tst" heap "$f" --gc "$gc" --classify type,site,thread --metric bytes --json
    run "$b.heap-$gc-sa" heap "$f" --gc "$gc" --classify space,age,transaction --json
    run "$b.heap-$gc-ds" heap "$f" --gc "$gc" --data-structures --metric retained-bytes --json
  done
  run "$b.trend" trend "$f" --from-gc 1 --to-gc "$last" --json
  run "$b.trend-site" trend "$f" --from-gc "$q" --to-gc "$last" --classify site,type --metric bytes --json
  run "$b.trend-age" trend "$f" --from-gc 1 --to-gc "$last" --classify age --json
  run "$b.ds-growth" ds-growth "$f" --from-gc 1 --to-gc "$last" --json
  run "$b.allocs" allocs "$f" --json
  run "$b.allocs-win" allocs "$f" --from-gc "$q" --to-gc "$mid" --classify type,site --json
  run "$b.allocs-thread" allocs "$f" --classify type,thread --json
  run "$b.lifetimes" lifetimes "$f" --json
  run "$b.lifetimes-site" lifetimes "$f" --from-gc "$q" --to-gc "$last" --classify site --json
  run "$b.lifetimes-type" lifetimes "$f" --classify type --long-lived 1 --json
  run "$b.churn" churn "$f" --json
  run "$b.churn-win" churn "$f" --from-gc "$q" --to-gc "$mid" --classify site,thread,type --top 0 --json
  run "$b.survival" survival "$f" --json
  run "$b.survival-win" survival "$f" --from-gc "$q" --to-gc "$mid" --json
  run "$b.floating-garbage" floating-garbage "$f" --json
  run "$b.transactions" transactions "$f" --json
  run "$b.containers" containers "$f" --json
  for s in peak allocations temporary leaked allocated; do
    run "$b.callers-$s" callers "$f" --sort "$s" --json
  done
  run "$b.callers-td" callers "$f" --top-down --json
  run "$b.callers-fn" callers "$f" --functions --json
  run "$b.callers-win" callers "$f" --from-gc "$q" --to-gc "$mid" --json
  for m in allocations temporary peak leaked allocated; do
    run "$b.flame-$m" flamegraph "$f" --metric "$m" --svg "$OUT/$b.flame-$m.svg"
  done
  run "$b.flame-win" flamegraph "$f" --from-gc "$q" --to-gc "$mid" --svg "$OUT/$b.flame-win.svg"
  for k in memory objects overhead; do
    run "$b.chart-$k" chart "$f" --kind "$k" --png "$OUT/$b.chart-$k.png"
  done
done
exit $crashed
