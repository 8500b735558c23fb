#!/usr/bin/env bash
# Regenerates the calibration section in README.md (the table, the held-out and fitted figures, where the constants
# came from) from the calibration test's output, which prints it between the README's own markers.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(cargo test -q -p tests --test calibration calibration_set_is_reproduced -- --nocapture 2>/dev/null |
    sed -n '/^<!-- calibration-table:start -->$/,/^<!-- calibration-table:end -->$/p' | sed '1d;$d')
[ -n "$table" ] || { echo "no table in the test output" >&2; exit 1; }
TABLE="$table" python3 - <<'PY'
import os
start, end = "<!-- calibration-table:start -->", "<!-- calibration-table:end -->"
text = open("README.md").read()
i, j = text.index(start) + len(start), text.index(end)
open("README.md", "w").write(text[:i] + "\n" + os.environ["TABLE"].strip() + "\n" + text[j:])
PY
echo "README.md: calibration table updated"
