#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates the fixture tests/dsl/jdk17-collections.txt with this
# machine's JDK (must be 17: the descriptions are checked against it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
java --add-opens java.base/java.util=ALL-UNNAMED \
     --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
     --add-opens java.base/java.util.concurrent.locks=ALL-UNNAMED \
     --add-opens java.base/java.util.concurrent.atomic=ALL-UNNAMED \
     --add-opens java.base/java.lang.ref=ALL-UNNAMED \
     "$here/JdkCollectionsProbe.java" > "$here/jdk17-collections.txt.tmp"
{ echo "# $(java -version 2>&1 | head -1)"; cat "$here/jdk17-collections.txt.tmp"; } > "$here/jdk17-collections.txt"
rm "$here/jdk17-collections.txt.tmp"
