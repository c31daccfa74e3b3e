#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tidemark-cli in a German locale: every --json output is byte for byte
# the one of the C locale (decimal points, no translated text: JSON is for
# programs), while the text output groups digits the German way
# ("16.515 objects"' counts).  Skips (77) without the de_DE.UTF-8 locale.
set -euo pipefail
. "$(dirname "$0")/cli-test-lib.sh"

de="de_DE.UTF-8"
locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8' || { echo "no $de locale: skipping"; exit 77; }

"$cli" synth leak -o "$dir/leak.tmtrace" --scale 0.3 >/dev/null 2>&1 || fail "synth"
log="$TM_SOURCE_DIR/tests/data/gc-logs/jdk17-g1.log"
last=$(LC_ALL=C "$cli" timeline "$dir/leak.tmtrace" --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)['gcs']))")

run_both() {
  local name=$1; shift
  LC_ALL=C LANGUAGE= "$cli" "$@" > "$dir/$name.c" || fail "$name in the C locale"
  LC_ALL=$de LANGUAGE=de "$cli" "$@" > "$dir/$name.de" || fail "$name in $de"
  cmp -s "$dir/$name.c" "$dir/$name.de" || { diff "$dir/$name.c" "$dir/$name.de" | head -5 >&2; fail "$name --json differs in $de"; }
  python3 -c "import json; json.load(open('$dir/$name.de'))" || fail "$name --json in $de is not JSON"
}
run_both info info "$dir/leak.tmtrace" --json
run_both timeline timeline "$dir/leak.tmtrace" --json
run_both windows windows "$dir/leak.tmtrace" --json
run_both heap heap "$dir/leak.tmtrace" --gc "$last" --top 5 --json
run_both gc-summary gc-summary "$log" --json
run_both advise advise "$log" --json
# the JSON carries fractional numbers and explanations with sizes in them
grep -q '[0-9]\.[0-9]' "$dir/windows.de" || fail "windows --json has no fractional number to check"

# text output for people: German digit grouping of the heap's object count
objects=$(python3 -c "import json; print(json.load(open('$dir/heap.c'))['tree']['objects'])")
[ "$objects" -ge 1000 ] || fail "the heap is too small to show grouping ($objects objects)"
german=$(python3 -c "print(f'{$objects:,}'.replace(',', '.'))")
english=$(python3 -c "print(f'{$objects:,}')")
LC_ALL=$de "$cli" heap "$dir/leak.tmtrace" --gc "$last" --top 5 > "$dir/heap-de.txt" || fail "heap text in $de"
LC_ALL=C "$cli" heap "$dir/leak.tmtrace" --gc "$last" --top 5 > "$dir/heap-c.txt" || fail "heap text in C"
grep -qF "$german" "$dir/heap-de.txt" || fail "heap text in $de lacks $german"
grep -qF "$english" "$dir/heap-c.txt" || fail "heap text in C lacks $english"
echo "ok: JSON the same in C and $de; $objects objects as $german and $english"
