#!/usr/bin/env bash
# The portable probe: for x86_64 and aarch64 Linux, a binary that needs at most glibc 2.17 and links neither
# libibverbs nor NVML (both are loaded at run time), and a Python wheel that carries it (maturin's `bin` bindings,
# manylinux2014). maturin --zig cross-links with zig from PyPI, so neither a cross gcc nor an old sysroot is needed.
# Writes dist/probe/: probe-cli-<version>-<arch>-linux, probe_cli-<version>-py3-none-manylinux*_<arch>.whl and
# SHA256SUMS. Run through `make probe-dist` (scripts/setup.sh probe first).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/py/bin:$PATH"
out=dist/probe
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
[ -n "$version" ] || { echo "probe-dist: no version in Cargo.toml" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
for arch in x86_64 aarch64; do
    target="$arch-unknown-linux-gnu"
    echo "probe-dist: $target (glibc 2.17)" >&2
    maturin build --quiet --release --zig --target "$target" --compatibility manylinux2014 \
        -m probe-cli/Cargo.toml --out "$out" >&2
    # The binary the wheel holds, stripped by maturin (strip = true in probe-cli/pyproject.toml).
    cp "target/$target/release/probe-cli" "$out/probe-cli-$version-$arch-linux"
done
(cd "$out" && sha256sum -- * >SHA256SUMS)
ls -l "$out"
