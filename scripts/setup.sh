#!/usr/bin/env bash
# Installs what building and testing this workspace needs, skipping what is already there at the right version.
# Safe to run again: every step checks first.
#
#   scripts/setup.sh            Rust components, the wasm32 target and rdma-core's verbs.h, which a probe-cli
#                               test compiles against to check its ABI types (native build, tests, clippy)
#   scripts/setup.sh web        + trunk, wasm-bindgen-cli and wasm-opt (binaryen) for the page
#   scripts/setup.sh browser    + Chromium, ChromeDriver and axe-core (npm) for the browser tests
#   scripts/setup.sh probe      + the portable probe's toolchain: the aarch64 target, ziglang and maturin from
#                               PyPI in .tools/py (maturin --zig links both architectures against glibc 2.17),
#                               qemu-user and Debian's arm64 glibc to test it
#
# What downloads runs beside what compiles: the Debian packages (one apt-get for all that are missing), npm's and
# PyPI's start in the background (their output in .tools/logs/) while cargo fetches the crates and builds trunk and
# wasm-bindgen-cli, and the script waits for them before it ends. The cargo tools are built for a short install
# (no LTO, low opt-level, no TLS), see "How the two cargo tools are built" below.
#
# Versions are pinned: wasm-bindgen-cli must equal the wasm-bindgen the page links (web/Cargo.toml, "=0.2.130"),
# or its bindgen step refuses the wasm; trunk 0.22 needs a newer rustc than 0.21.14; with Debian's binaryen 108
# the build succeeds but the page is blank (`WebAssembly.Table.set(): Argument 1 is invalid` at start), so
# wasm-opt comes from npm's binaryen 132 into .tools/ (the Makefile puts .tools/node_modules/.bin first on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132
AXE_VERSION=4.14.1
TERSER_VERSION=5.51.4
# The portable probe (scripts/probe-dist.sh): zig links against glibc 2.17's symbols for both architectures.
ZIGLANG_VERSION=0.17.1
MATURIN_VERSION=1.16.0

say() { echo "setup: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        say "need root for: $* (run it yourself, then again)"; return 1
    fi
}

logs=.tools/logs
mkdir -p "$logs"

# The parts asked for.
want_web=false want_browser=false want_probe=false
for part in "$@"; do
    case "$part" in
        web) want_web=true ;;
        browser) want_browser=true ;;
        probe) want_probe=true ;;
        *) say "unknown part '$part' (web, browser, probe)"; exit 2 ;;
    esac
done

if ! command -v cargo >/dev/null 2>&1; then
    say "cargo not found; install Rust with rustup first (https://rustup.rs)"
    exit 1
fi

installed_deb() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# --- What is missing, decided before anything starts ----------------------------------------------------------

debs=()
reinstall_browser=false
need_deb() { installed_deb "$1" || debs+=("$1"); }
# probe-cli loads libibverbs and NVML at run time and builds without their headers; a unit test compiles a C
# program against rdma-core's verbs.h to check the ABI types it writes out (probe-cli/src/report/verbs_abi.rs).
need_deb libibverbs-dev

npm_packages=()
if $want_web; then
    .tools/node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION" ||
        npm_packages+=("binaryen@$BINARYEN_VERSION.0.0")
    # terser: Trunk's post_build hook (scripts/minify-js.cjs) minifies the page's JavaScript with it.
    grep -qs "\"version\": \"$TERSER_VERSION\"" .tools/node_modules/terser/package.json ||
        npm_packages+=("terser@$TERSER_VERSION")
fi
if $want_browser; then
    if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
        debs+=(chromium chromium-driver)
    else
        # ChromeDriver drives only its own major version of Chromium.
        c=$(chromium --version 2>/dev/null | grep -oE '[0-9]+' | head -1)
        d=$(chromedriver --version 2>/dev/null | grep -oE '[0-9]+' | head -1)
        if [ "$c" != "$d" ]; then
            say "chromium $c and chromedriver $d differ; reinstalling both"
            reinstall_browser=true
        fi
    fi
    # axe-core: the accessibility rules the end-to-end test runs on the page.
    grep -qs "\"version\": \"$AXE_VERSION\"" .tools/node_modules/axe-core/package.json ||
        npm_packages+=("axe-core@$AXE_VERSION")
fi
npm_waits_for_apt=false
if [ "${#npm_packages[@]}" -gt 0 ] && ! command -v npm >/dev/null 2>&1; then
    debs+=(nodejs npm)
    npm_waits_for_apt=true
fi

pip_packages=()
pip_waits_for_apt=false
if $want_probe; then
    # The tests: the aarch64 binary under qemu-user with Debian's arm64 glibc; objdump and readelf (binutils).
    need_deb qemu-user
    need_deb libc6-arm64-cross
    need_deb binutils
    # pip install NAME==VERSION into .tools/py unless it is there at that version.
    for pin in "ziglang==$ZIGLANG_VERSION" "maturin==$MATURIN_VERSION"; do
        shown=$(.tools/py/bin/python -m pip show "${pin%%==*}" 2>/dev/null || true)
        grep -qx "Version: ${pin##*==}" <<<"$shown" || pip_packages+=("$pin")
    done
    if [ ! -x .tools/py/bin/pip ] || [ "${#pip_packages[@]}" -gt 0 ]; then
        if ! command -v python3 >/dev/null 2>&1; then
            debs+=(python3 python3-venv)
            pip_waits_for_apt=true
        elif ! python3 -c 'import ensurepip' 2>/dev/null; then
            # Debian's python3 makes a venv without pip unless python3-venv is there.
            debs+=(python3-venv)
            pip_waits_for_apt=true
        fi
    fi
fi

# --- Downloads, in the background ----------------------------------------------------------------------------

jobs_started=()
declare -A job_pid=()
# start NAME COMMAND...: runs COMMAND in the background, output in .tools/logs/NAME.log; its exit status lands in
# NAME.status however the job ends (an EXIT trap, written whole by a rename).
start() {
    local name=$1
    shift
    rm -f "$logs/$name.status"
    (
        trap 'echo $? >"$logs/$name.status.tmp"; mv "$logs/$name.status.tmp" "$logs/$name.status"' EXIT
        set +e
        "$@" >"$logs/$name.log" 2>&1
    ) &
    job_pid[$name]=$!
    jobs_started+=("$name")
}
# after NAME: waits until the background job NAME has ended; fails if it did, or if it died without a status.
after() {
    local f="$logs/$1.status"
    while [ ! -e "$f" ]; do
        if ! kill -0 "${job_pid[$1]}" 2>/dev/null; then
            sleep 1
            [ -e "$f" ] || { echo 1 >"$f"; echo "the job ended without a status" >>"$logs/$1.log"; }
            break
        fi
        sleep 1
    done
    [ "$(cat "$f")" = 0 ]
}
# On a failure or an interrupt before the end, the jobs still running are stopped with their children (apt-get,
# npm, pip), so that a second run does not meet them.
stop_jobs() {
    local name pid
    for name in "${jobs_started[@]}"; do
        pid=${job_pid[$name]}
        if kill -0 "$pid" 2>/dev/null; then
            pkill -TERM -P "$pid" 2>/dev/null || true
            kill "$pid" 2>/dev/null || true
        fi
    done
}
trap stop_jobs EXIT
trap 'exit 130' INT TERM

apt_job() {
    as_root apt-get update -qq || return
    if $reinstall_browser; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall chromium chromium-driver || return
    fi
    if [ "${#debs[@]}" -gt 0 ]; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${debs[@]}"
    fi
}
npm_job() {
    if $npm_waits_for_apt; then after apt || { echo "apt-get failed; see $logs/apt.log"; return 1; }; fi
    npm install --prefix .tools --no-audit --no-fund --silent "${npm_packages[@]}"
}
pip_job() {
    if $pip_waits_for_apt; then after apt || { echo "apt-get failed; see $logs/apt.log"; return 1; }; fi
    # A venv without pip (python3-venv missing when it was made) is made again.
    if [ ! -x .tools/py/bin/pip ]; then
        rm -rf .tools/py
        python3 -m venv .tools/py || return
    fi
    if [ "${#pip_packages[@]}" -gt 0 ]; then
        .tools/py/bin/python -m pip install --quiet --disable-pip-version-check "${pip_packages[@]}"
    fi
}

if [ "${#debs[@]}" -gt 0 ] || $reinstall_browser; then
    # sudo asks for its password here, in the foreground, not in the middle of cargo's output.
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo -v; fi
    say "apt-get install ${debs[*]} (background, $logs/apt.log)"
    start apt apt_job
fi
if [ "${#npm_packages[@]}" -gt 0 ]; then
    say "npm install ${npm_packages[*]} into .tools/ (background, $logs/npm.log)"
    start npm npm_job
fi
if $want_probe && { [ ! -x .tools/py/bin/pip ] || [ "${#pip_packages[@]}" -gt 0 ]; }; then
    say "pip install ${pip_packages[*]} into .tools/py (background, $logs/pip.log)"
    start pip pip_job
fi

# --- Rust: components, targets, the cargo tools, the crates ----------------------------------------------------

need_rustup_component() {
    rustup component list --installed 2>/dev/null | grep -q "^$1" || rustup component add "$1"
}
need_target() {
    rustup target list --installed | grep -q "^$1\$" || rustup target add "$1"
}
need_rustup_component rustfmt
need_rustup_component clippy
need_target wasm32-unknown-unknown
if $want_probe; then need_target aarch64-unknown-linux-gnu; fi

# The crates of the workspace and of fuzz/ (Trunk builds offline, TRUNK_OFFLINE in the Makefile; make check too).
start fetch sh -c 'cargo fetch --quiet && cargo fetch --quiet --manifest-path fuzz/Cargo.toml'

# How the two cargo tools are built (measured on 2 cores, README "Contributing"): release without LTO or debug
# information and without their TLS and update-check features (the Makefile runs trunk offline, TRUNK_OFFLINE, on
# 127.0.0.1, so it never downloads a tool nor serves https; wasm-bindgen-test-runner talks to chromedriver over
# http); trunk at opt-level 0, since a page build takes as long with it (8.1-8.6 s either way: the time is
# cargo's, wasm-bindgen's and wasm-opt's), wasm-bindgen-cli at opt-level 1, since at 0 it takes 2.5x as long on
# the browser tests' debug modules. One build directory for both, removed once they are installed.
tool_build=.tools/cargo-build
# cargo install NAME at VERSION with OPT-LEVEL unless COMMAND --version already prints it.
need_cargo_tool() {
    local name=$1 version=$2 command=$3 opt=$4
    shift 4
    if "$command" --version 2>/dev/null | grep -qF "$version"; then return; fi
    say "cargo install $name $version (opt-level $opt, no LTO, build directory $tool_build)"
    env CARGO_PROFILE_RELEASE_OPT_LEVEL="$opt" CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_INCREMENTAL=false \
        cargo install "$@" --no-default-features "$name" --version "$version" --target-dir "$tool_build"
}
if $want_web; then
    need_cargo_tool trunk "$TRUNK_VERSION" trunk 0 --locked
    # Not --locked: wasm-bindgen-cli 0.2.130's own lock file names a crate version that not every registry mirror
    # carries; without it cargo resolves versions that are there.
    need_cargo_tool wasm-bindgen-cli "$WASM_BINDGEN_VERSION" wasm-bindgen 1
    rm -rf "$tool_build"
fi

# --- Wait for the downloads ---------------------------------------------------------------------------------

failed=0
for name in "${jobs_started[@]}"; do
    if ! after "$name"; then
        say "$name failed (exit $(cat "$logs/$name.status")); its log, $logs/$name.log:"
        tail -n 40 "$logs/$name.log" >&2
        failed=1
    fi
done
exit "$failed"
