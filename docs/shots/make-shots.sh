#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The screenshots of docs/app.md: every view of the app at 1024x700 and
# 1600x1000, in English and German, taken under Xvfb with the Cairo
# renderer by tests/gui/tm-screenshot from the built tree, then reduced
# to 256-colour PNGs (ImageMagick) so the repository stays small.
#   docs/shots/make-shots.sh [BUILD]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
out=docs/shots
leak=$PWD/$build/data/sample-leak.tmtrace
log=$PWD/tests/data/gc-logs/jdk17-g1.log

# name  trace  action  (the leak's first window is selected, as a click does)
views=(
  "overview $leak -"
  "heap $leak win.heap-at-selection"
  "trend $leak win.trend-at-selection"
  "ds-growth $leak win.ds-growth-at-selection"
  "compare-heaps $leak win.compare-heaps-at-selection"
  "allocations $leak win.allocations-at-selection"
  "call-stacks $leak win.call-stacks"
  "gc-log $log win.advice-at-selection"
)
for lang in en de; do
  if [ $lang = de ]; then loc=(LANGUAGE=de LC_ALL=de_DE.UTF-8); else loc=(LANGUAGE=en LC_ALL=C.UTF-8); fi
  for size in 1024x700 1600x1000; do
    for v in "${views[@]}"; do
      read -r name trace action <<< "$v"
      png=$out/$name-$size-$lang.png
      args=(--size "$size" --wait 3000)
      [ "$action" != - ] && args+=(--action "$action")
      env GSK_RENDERER=cairo "${loc[@]}" meson devenv -C "$build" \
        xvfb-run -a -s '-screen 0 1700x1100x24' ./tests/gui/tm-screenshot "$trace" "$PWD/$png" "${args[@]}" \
        2> >(grep -v 'session bus' >&2)
      convert "$png" -strip -colors 256 "PNG8:$png"
      echo "$png $(stat -c %s "$png") bytes"
    done
  done
done
