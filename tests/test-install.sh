#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# An installed Tidemark stands on its own.  Installed with DESTDIR into a
# scratch folder and moved elsewhere, tidemark-cli finds its data (the
# sample, the data structure descriptions) relative to itself, with an
# environment that points nowhere near the build or source tree, and no
# installed file names the build directory.
set -euo pipefail
build=${TM_BUILD_DIR:?}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

meson install -C "$build" --no-rebuild --destdir "$dest/stage" >/dev/null || fail "meson install"
prefix=$(meson introspect "$build" --buildoptions |
         python3 -c "import json,sys; print([o['value'] for o in json.load(sys.stdin) if o['name'] == 'prefix'][0])")
mv "$dest/stage$prefix" "$dest/moved"
root="$dest/moved"
run() { env -i PATH=/usr/bin:/bin HOME="$dest" LANG=C.UTF-8 "$@"; }
cli="$root/bin/tidemark-cli"
sample="$root/share/tidemark/samples/sample-leak.tmtrace"
[ -x "$cli" ] && [ -f "$sample" ] || fail "tidemark-cli or the sample not installed: $(cd "$root" && find . | head -20)"
[ -f "$root/share/tidemark/dsl-library/java.util.ds" ] || fail "the data structure descriptions are not installed"

run "$cli" info "$sample" --json > "$dest/info.json" || fail "info on the installed sample"
gcs=$(python3 -c "import json; d = json.load(open('$dest/info.json')); assert d['complete'] and d['graphs'] > 0, d; print(d['gcs'])")
# the shipped descriptions, found next to the program: the leak's cache is a structure
run "$cli" heap "$sample" --gc "$gcs" --data-structures --classify type --top 0 --json > "$dest/ds.json" 2>"$dest/err" \
  || fail "heap --data-structures: $(cat "$dest/err")"
python3 -c "
import json
d = json.load(open('$dest/ds.json'))
kids = d['tree']['children'][0]['children']
assert any(k['key'] == 'java.util.concurrent.ConcurrentHashMap' for k in kids), [k['key'] for k in kids]
" || fail "the installed descriptions were not used"

# (debug information records where it was compiled; what runs may not)
find "$root" -type f | while read -r f; do
  look=$f
  if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = "177ELF" ]; then
    objcopy --strip-debug "$f" "$dest/stripped" && look="$dest/stripped"
  fi
  if grep -qaF "$build" "$look"; then echo "$f"; fi
done > "$dest/named"
[ ! -s "$dest/named" ] || fail "installed files name the build directory $build: $(cat "$dest/named")"
echo "ok: installed into $prefix, moved, works without the build tree"
