#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One translation policy: every source with translatable strings (the
# library's too) is listed in po/POTFILES, so xgettext sees it, and every
# file listed there exists.
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
[ $status -eq 0 ] && echo "ok: $(wc -w <<< "$marked") files with translatable strings, all in po/POTFILES"
exit $status
