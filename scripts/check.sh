#!/usr/bin/env bash
# make check: the loop for a change. Formatting, clippy -D warnings and the tests of the crates the change touches,
# offline (crates as `make setup` fetched them, the lock file as it is), without a browser, root or the network.
# `make test` is what CI runs: it also tests the crates that depend on the changed one, the page in Chromium, the
# built page and the portable probe.
#
# The change: every file that differs from main (committed on this branch, staged, unstaged or new; origin/main
# when there is no local main). A file under estimator-core/, probe-cli/, tests/ or web/ touches that crate
# (tests/data and tests/fixtures every native crate, whose tests read them); under fuzz/, the fuzz targets;
# Cargo.toml or Cargo.lock, every crate. CRATES="estimator-core probe-cli" (crate names, `fuzz` for the fuzz
# targets) chooses instead; CHECK_BASE=REF compares with REF instead of main.
#
# The web crate builds for wasm32 only: it gets clippy for that target and no tests here (they need Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

native=(estimator-core probe-cli tests)
crates=${CRATES:-}
if [ -z "$crates" ]; then
    base=${CHECK_BASE:-main}
    if ! from=$(git merge-base HEAD "$base" 2>/dev/null); then
        if [ -z "${CHECK_BASE:-}" ] && from=$(git merge-base HEAD origin/main 2>/dev/null); then
            base=origin/main
        else
            echo "check: no common ancestor of HEAD and '$base' (CHECK_BASE=REF to compare with another, or CRATES=\"...\")" >&2
            exit 2
        fi
    fi
    # NUL-separated and unquoted, so that names with spaces or non-ASCII characters map like any other.
    while IFS= read -r -d '' f; do
        case "$f" in
            estimator-core/*) crates+=" estimator-core" ;;
            probe-cli/*) crates+=" probe-cli" ;;
            # The public tool outputs and the captured node trees are read by every native crate's tests.
            tests/data/* | tests/fixtures/*) crates+=" ${native[*]}" ;;
            tests/*) crates+=" tests" ;;
            web/* | static/*) crates+=" web" ;;
            fuzz/*) crates+=" fuzz" ;;
            Cargo.toml | Cargo.lock | .cargo/*) crates+=" ${native[*]} web fuzz" ;;
        esac
    done < <(
        git -c core.quotePath=false diff -z --name-only "$from"
        git -c core.quotePath=false ls-files -z --others --exclude-standard
    )
fi
# Each crate once, in a fixed order.
chosen=()
for c in "${native[@]}" web fuzz; do
    case " $crates " in *" $c "*) chosen+=("$c") ;; esac
done
for c in $crates; do
    case " ${native[*]} web fuzz " in *" $c "*) ;; *) echo "check: no crate '$c' (${native[*]} web fuzz)" >&2; exit 2 ;; esac
done

step() { echo "check: $*" >&2; "$@"; }

# No network: cargo reads the crates setup fetched (CARGO_NET_OFFLINE holds for the make targets too).
export CARGO_NET_OFFLINE=true
# Formatting, the web crate and the fuzz targets are checked by make test's own targets.
step make --no-print-directory fmt-check
if [ "${#chosen[@]}" -eq 0 ]; then
    echo "check: no crate changed against ${CHECK_BASE:-main} (CRATES=\"...\" to choose); formatting checked" >&2
    exit 0
fi
echo "check: crates ${chosen[*]}" >&2

packages=()
for c in "${chosen[@]}"; do
    case "$c" in estimator-core | probe-cli | tests) packages+=(-p "$c") ;; esac
done
if [ "${#packages[@]}" -gt 0 ]; then
    step cargo clippy --offline --locked "${packages[@]}" --all-targets -- -D warnings
    step cargo test --offline --locked "${packages[@]}"
fi
for c in "${chosen[@]}"; do
    case "$c" in
        web) step make --no-print-directory clippy-web ;;
        fuzz) step make --no-print-directory fuzz-check ;;
    esac
done
echo "check: passed (${chosen[*]})" >&2
