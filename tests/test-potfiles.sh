#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One translation policy: every source with translatable strings (the
# library's too) is listed in po/POTFILES, so xgettext sees it, and every
# file listed there exists; and German is complete: every string xgettext
# finds in them (with meson's glib preset) has a translation in po/de.po,
# none fuzzy, and msgfmt --check accepts its format strings.
set -euo pipefail
cd "${TM_SOURCE_DIR:?}"
listed=$(grep -v '^#' po/POTFILES | sed '/^[[:space:]]*$/d')
status=0
for f in $listed; do
  [ -f "$f" ] || { echo "FAIL: po/POTFILES lists $f, which does not exist" >&2; status=1; }
done
marked=$(find src ui data -type f \( -name '*.c' -o -name '*.ui' -o -name '*.in' -o -name '*.xml' \) -print0 \
         | xargs -0 grep -lE '(^|[^A-Za-z0-9_])(N?_|C_|NC_|g_dngettext|g_dgettext|ngettext)\(|translatable="yes"' \
         | sort)
for f in $marked; do
  grep -qxF "$f" <<< "$listed" || { echo "FAIL: $f has translatable strings but is missing from po/POTFILES" >&2; status=1; }
done
[ $status -eq 0 ] || exit $status
echo "ok: $(wc -w <<< "$marked") files with translatable strings, all in po/POTFILES"

command -v xgettext >/dev/null || { echo "no xgettext: the German check is skipped" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the keywords and flags of meson's i18n.gettext(preset: 'glib')
xgettext --from-code=UTF-8 --add-comments --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_set_error:4:c-format --flag=g_markup_printf_escaped:1:c-format \
  --files-from=<(printf '%s\n' $listed) --output="$tmp/tidemark.pot" 2>"$tmp/xgettext.err" \
  || { cat "$tmp/xgettext.err" >&2; echo "FAIL: xgettext" >&2; exit 1; }
msgmerge --quiet --no-fuzzy-matching po/de.po "$tmp/tidemark.pot" -o "$tmp/de.po"
msgfmt --check --output-file=/dev/null po/de.po || { echo "FAIL: msgfmt --check rejects po/de.po" >&2; exit 1; }
stats=$(LC_ALL=C msgfmt --statistics --output-file=/dev/null "$tmp/de.po" 2>&1)
case "$stats" in
  *untranslated*|*fuzzy*)
    msgattrib --untranslated --no-obsolete --no-wrap --no-location "$tmp/de.po" | grep -A1 '^msgid' | head -40 >&2
    msgattrib --only-fuzzy --no-obsolete --no-wrap --no-location "$tmp/de.po" | grep -A1 '^msgid' | head -20 >&2
    echo "FAIL: po/de.po is incomplete: $stats (above; update it with msgmerge and translate)" >&2
    exit 1 ;;
esac
echo "ok: every one of $(grep -c '^msgid ' "$tmp/tidemark.pot") strings has a German translation"
