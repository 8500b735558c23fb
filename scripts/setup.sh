#!/usr/bin/env bash
# Installs what building and testing this workspace needs, skipping what is already there.
# Safe to run again: every step checks first.
set -euo pipefail

need_rustup_component() {
    rustup component list --installed 2>/dev/null | grep -q "^$1" || rustup component add "$1"
}

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust with rustup first (https://rustup.rs)" >&2
    exit 1
fi

need_rustup_component rustfmt
need_rustup_component clippy
rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
