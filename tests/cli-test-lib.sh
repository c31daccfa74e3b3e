# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the CLI end-to-end test scripts (sourced; each script sets its
# own shell options): the CLI under test, a scratch folder removed on exit,
# and two small assertion helpers.
cli=${TIDEMARK_CLI:?}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# json FILE 'python statements using d' : asserts on a JSON document
json() { python3 -c "import json,sys; d=json.load(open('$1')); $2"; }
