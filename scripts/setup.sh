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
        say "need root for: $* (run it yourself, then again)"; exit 1
    fi
}

apt_install() {
    say "apt-get install $*"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

need_rustup_component() {
    rustup component list --installed 2>/dev/null | grep -q "^$1" || rustup component add "$1"
}

# cargo install NAME at VERSION unless COMMAND --version already prints it.
need_cargo_tool() {
    local name=$1 version=$2 command=$3 locked=$4
    if "$command" --version 2>/dev/null | grep -qF "$version"; then return; fi
    say "cargo install $name $version (a few minutes on 2 cores)"
    # shellcheck disable=SC2086
    cargo install $locked "$name" --version "$version"
}

base() {
    if ! command -v cargo >/dev/null 2>&1; then
        say "cargo not found; install Rust with rustup first (https://rustup.rs)"
        exit 1
    fi
    need_rustup_component rustfmt
    need_rustup_component clippy
    rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
    # probe-cli loads libibverbs and NVML at run time and builds without their headers; a unit test compiles a C
    # program against rdma-core's verbs.h to check the ABI types it writes out (probe-cli/src/report/verbs_abi.rs).
    need_debs libibverbs-dev
}

need_debs() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

# pip install NAME==VERSION into .tools/py unless it is there at that version.
need_pip() {
    local name=$1 version=$2
    local shown
    shown=$(.tools/py/bin/python -m pip show "$name" 2>/dev/null || true)
    if grep -qx "Version: $version" <<<"$shown"; then return; fi
    say "pip install $name==$version into .tools/py"
    .tools/py/bin/python -m pip install --quiet --disable-pip-version-check "$name==$version"
}

probe() {
    rustup target list --installed | grep -q '^aarch64-unknown-linux-gnu$' || rustup target add aarch64-unknown-linux-gnu
    command -v python3 >/dev/null 2>&1 || apt_install python3 python3-venv
    # A venv without pip (python3-venv missing when it was made) is made again.
    if [ ! -x .tools/py/bin/pip ]; then
        say "python3 -m venv .tools/py"
        rm -rf .tools/py
        python3 -m venv .tools/py || { rm -rf .tools/py; apt_install python3-venv; python3 -m venv .tools/py; }
    fi
    need_pip ziglang "$ZIGLANG_VERSION"
    need_pip maturin "$MATURIN_VERSION"
    # The tests: the aarch64 binary under qemu-user with Debian's arm64 glibc; objdump and readelf (binutils).
    need_debs qemu-user libc6-arm64-cross binutils
}

web() {
    need_cargo_tool trunk "$TRUNK_VERSION" trunk --locked
    # Not --locked: wasm-bindgen-cli 0.2.130's own lock file names a crate version that not every registry mirror
    # carries; without it cargo resolves versions that are there.
    need_cargo_tool wasm-bindgen-cli "$WASM_BINDGEN_VERSION" wasm-bindgen ""
    if ! .tools/node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
        command -v npm >/dev/null 2>&1 || apt_install nodejs npm
        say "npm install binaryen@$BINARYEN_VERSION.0.0 into .tools/"
        npm install --prefix .tools --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION.0.0"
    fi
    # terser: Trunk's post_build hook (scripts/minify-js.cjs) minifies the page's JavaScript with it.
    if ! grep -qs "\"version\": \"$TERSER_VERSION\"" .tools/node_modules/terser/package.json; then
        command -v npm >/dev/null 2>&1 || apt_install nodejs npm
        say "npm install terser@$TERSER_VERSION into .tools/"
        npm install --prefix .tools --no-audit --no-fund --silent "terser@$TERSER_VERSION"
    fi
    # Trunk builds offline (TRUNK_OFFLINE in the Makefile): fetch the crates first.
    cargo fetch --quiet
}

browser() {
    if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
        apt_install chromium chromium-driver
    fi
    # ChromeDriver drives only its own major version of Chromium.
    local c d
    c=$(chromium --version 2>/dev/null | grep -oE '[0-9]+' | head -1)
    d=$(chromedriver --version 2>/dev/null | grep -oE '[0-9]+' | head -1)
    if [ "$c" != "$d" ]; then
        say "chromium $c and chromedriver $d differ; reinstalling both"
        apt_install --reinstall chromium chromium-driver
    fi
    # axe-core: the accessibility rules the end-to-end test runs on the page.
    if ! grep -qs "\"version\": \"$AXE_VERSION\"" .tools/node_modules/axe-core/package.json; then
        command -v npm >/dev/null 2>&1 || apt_install nodejs npm
        say "npm install axe-core@$AXE_VERSION into .tools/"
        npm install --prefix .tools --no-audit --no-fund --silent "axe-core@$AXE_VERSION"
    fi
}

base
for part in "$@"; do
    case "$part" in
        web) web ;;
        browser) browser ;;
        probe) probe ;;
        *) say "unknown part '$part' (web, browser, probe)"; exit 2 ;;
    esac
done
