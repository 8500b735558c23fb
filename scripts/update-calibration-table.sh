#!/usr/bin/env bash
# Regenerates the calibration sections in README.md from the calibration tests' output, which prints each between
# the README's own markers: the large-message table (with the held-out and fitted figures and where the constants
# came from), the table at every size, the training-step replay and the accuracy headline it gives.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(cargo test -q -p tests --test calibration -- --nocapture calibration_set_is_reproduced every_size_is_replayed training_runs_are_replayed later_runs_check_the_shipped_model scale_runs_are_scored_as_shipped 2>/dev/null || true)
OUT="$out" python3 - <<'PY'
import os
out = os.environ["OUT"]
text = open("README.md").read()
for name in ("calibration-table", "curves-table", "steps-table", "steps-headline", "later-runs", "scale-runs"):
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    if start not in out or end not in out:
        raise SystemExit(f"no {name} in the test output")
    body = out[out.index(start) + len(start):out.index(end)].strip()
    if start not in text:
        raise SystemExit(f"README.md has no {start}")
    i, j = text.index(start) + len(start), text.index(end)
    text = text[:i] + "\n" + body + "\n" + text[j:]
open("README.md", "w").write(text)
PY
echo "README.md: calibration tables updated"
