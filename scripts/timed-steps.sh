#!/usr/bin/env bash
# Runs make targets one after another, as `make test` does, with a timing line after each
# (`timing: STEP 42 s`) and a table of them all at the end, so a CI log says where its time went.
# Stops at the first step that fails, with that step's status, after printing the table so far.
#
#   scripts/timed-steps.sh STEP...
set -uo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
names=()
secs=()
table() {
    local total=0 i
    echo
    printf "timing: %-22s %6s\n" step seconds
    for i in "${!names[@]}"; do
        printf 'timing: %-22s %6d\n' "${names[$i]}" "${secs[$i]}"
        total=$((total + secs[i]))
    done
    printf 'timing: %-22s %6d (%dm %02ds)\n' total "$total" $((total / 60)) $((total % 60))
}
for step in "$@"; do
    start=$(date +%s)
    "$make" --no-print-directory "$step"
    status=$?
    names+=("$step")
    secs+=($(($(date +%s) - start)))
    echo "timing: $step ${secs[-1]} s"
    if [ "$status" -ne 0 ]; then
        table
        echo "timed-steps: $step failed (exit $status)" >&2
        exit "$status"
    fi
done
table
