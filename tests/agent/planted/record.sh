#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Records one planted program of this directory as docs/windows.md
# ("Checked against real programs") did:
#   record.sh NAME g1|par|ser SECONDS [JVM options]   (XMX=48m for OomEnd, 80m for FullHeap, 64m for OomRecover and GcOverheadOom)
# from a build directory `build` of the source tree; writes NAME-GC.tmtrace here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
name=$1; gc=$2; secs=$3; shift 3
case $gc in g1) f=-XX:+UseG1GC;; par) f=-XX:+UseParallelGC;; ser) f=-XX:+UseSerialGC;; *) echo "g1, par or ser" >&2; exit 1;; esac
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -d "$classes" "$here/$name.java"
TIDEMARK_AGENT="$top/build/src/agent/libtidemark-agent.so" \
  "$top/build/src/cli/tidemark-cli" record -o "$here/$name-$gc.tmtrace" -- \
  java $f -Xmx"${XMX:-256m}" "$@" -cp "$classes" "$name" "$secs"
