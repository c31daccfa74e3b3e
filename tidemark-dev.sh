#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's two commands:
#   ./tidemark-dev.sh run    install dependencies, build, open the sample trace
#   ./tidemark-dev.sh test   install dependencies, build, run every test
# Also: ./tidemark-dev.sh deps | build | asan (tests under ASan + UBSan).
# Safe to run again: it installs only what is missing and rebuilds
# incrementally.
set -euo pipefail
cd "$(dirname "$0")"

BUILD=${TIDEMARK_BUILD:-build}

# Debian 12 packages: build, GUI, tests (Xvfb, JDK for the agent, heaptrack
# for the importer cross-checks, clang for the fuzzer, the JDK sources
# javac compiles in the agent benchmark).
PACKAGES=(
  meson ninja-build pkg-config gcc clang libclang-rt-14-dev
  libglib2.0-dev libglib2.0-bin libgtk-4-dev libzstd-dev zstd zlib1g-dev
  gettext desktop-file-utils appstream
  xvfb xauth imagemagick python3
  openjdk-17-jdk-headless openjdk-17-source heaptrack locales
  chromium
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  # The German tests (formatting, translations) need a German UTF-8 locale.
  if ! locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
    echo "Generating the de_DE.UTF-8 locale"
    as_root localedef -i de_DE -f UTF-8 de_DE.UTF-8
  fi
}

build() {
  if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" --buildtype=debugoptimized
  fi
  meson compile -C "$BUILD"
}

summary() {
  # The plain closing line: "N passed, N failed, N skipped".
  python3 - "$1" <<'PY'
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get("result")
    if r in ("OK", "EXPECTEDFAIL"): passed += 1
    elif r == "SKIP": skipped += 1
    else: failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
}

run_tests() {
  local dir=$1; shift
  local rc=0
  meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || rc=$?
  summary "$dir/meson-logs/testlog.json"
  return $rc
}

case "${1:-}" in
  deps)  deps ;;
  build) deps; build ;;
  run)
    deps; build
    # the build tree's data, schema and translations (meson.add_devenv)
    exec meson devenv -C "$BUILD" ./src/tidemark/tidemark data/sample-leak.tmtrace
    ;;
  test)
    deps; build
    run_tests "$BUILD"
    ;;
  asan)
    deps
    if [ ! -f "$BUILD-asan/build.ninja" ]; then
      meson setup "$BUILD-asan" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
    fi
    meson compile -C "$BUILD-asan"
    rc=0
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      run_tests "$BUILD-asan" --no-suite fuzz --no-suite agent --timeout-multiplier 4 || rc=$?
    # The JVM is not built with ASan: its runtime must come first (preloaded)
    # for the instrumented agent to load, and the JVM's own SIGSEGV handler
    # (implicit null checks, safepoint polls) must keep the signal.  ZGC
    # (its heap's fixed address ranges) and the thread-limit test (ulimit -v)
    # cannot coexist with ASan's shadow memory: those run in `test` only.
    mapfile -t agent_tests < <(meson test -C "$BUILD-asan" --list --suite agent 2>/dev/null \
      | sed -n 's|^tidemark:agent / ||p' | grep -v -e zgc -e oom-threads)
    LD_PRELOAD=$(gcc -print-file-name=libasan.so) \
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_segv=0:allow_user_segv_handler=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      run_tests "$BUILD-asan" --timeout-multiplier 4 "${agent_tests[@]}" || rc=$?
    exit $rc
    ;;
  *)
    echo "usage: $0 run|test|deps|build|asan" >&2
    exit 1
    ;;
esac
