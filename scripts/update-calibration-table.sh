#!/usr/bin/env bash
# Regenerates the calibration table in README.md from the calibration test's output.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(cargo test -q -p tests --test calibration calibration_set_is_reproduced -- --nocapture 2>/dev/null |
    sed -n '/^| point/,/^two-node default:/p')
[ -n "$table" ] || { echo "no table in the test output" >&2; exit 1; }
TABLE="$table" python3 - <<'PY'
import os
start, end = "<!-- calibration-table:start -->", "<!-- calibration-table:end -->"
text = open("README.md").read()
i, j = text.index(start) + len(start), text.index(end)
open("README.md", "w").write(text[:i] + "\n" + os.environ["TABLE"].strip() + "\n" + text[j:])
PY
echo "README.md: calibration table updated"
