#!/usr/bin/env bash
# Tests the portable probe that scripts/probe-dist.sh wrote to dist/probe/, as a user on another machine gets it:
#   1. both binaries need at most glibc 2.17 (objdump -T) and link neither libibverbs nor NVML (readelf -d);
#   2. the x86_64 binary, and the aarch64 one under qemu-user with Debian's arm64 glibc, write for every fixture
#      node (tests/fixtures/nodes) exactly the report its snapshot holds;
#   3. the x86_64 wheel installs into a fresh venv, whose probe-cli writes the same reports.
# Prints one line per check and a closing `test result:` line as cargo does; exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=dist/probe
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
passed=0
failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every fixture tree with a snapshot.
fixtures=()
for snap in tests/fixtures/nodes/*.json; do
    name=$(basename "$snap" .json)
    [ -d "tests/fixtures/nodes/$name" ] && fixtures+=("$name")
done
[ "${#fixtures[@]}" -ge 5 ] || { echo "probe-dist-test: only ${#fixtures[@]} fixtures found" >&2; exit 2; }

# The report of fixture $2 by the command in $1 (a word list) against its snapshot, the root as the snapshots
# write it.
same_report() {
    local what=$1 name=$2
    shift 2
    local rc=0
    "$@" report --root "tests/fixtures/nodes/$name" --json >"$tmp/out.json" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        bad "$what: report --root $name exited $rc ($(head -c 300 "$tmp/err"))"
        return
    fi
    if python3 - "$tmp/out.json" "tests/fixtures/nodes/$name.json" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))
got["source"]["root"] = "<root>"
want = json.load(open(sys.argv[2]))
sys.exit(0 if got == want else 1)
PY
    then ok "$what: report of $name equals its snapshot"; else bad "$what: report of $name differs from its snapshot"; fi
}

for arch in x86_64 aarch64; do
    bin="$dir/probe-cli-$version-$arch-linux"
    if [ ! -x "$bin" ]; then bad "$bin missing (run make probe-dist)"; continue; fi
    # The newest glibc symbol version the binary asks for.
    newest=$(objdump -T "$bin" | { grep -oE 'GLIBC_[0-9]+(\.[0-9]+)*' || true; } | sed 's/GLIBC_//' | sort -V | tail -1)
    if [ -z "$newest" ]; then
        bad "$arch: objdump -T shows no glibc symbol version (not a dynamically linked glibc binary?)"
    elif [ "$(printf '%s\n2.17\n' "$newest" | sort -V | tail -1)" = "2.17" ]; then
        ok "$arch: newest glibc symbol version $newest (at most 2.17)"
    else
        bad "$arch: needs glibc $newest, more than 2.17"
    fi
    needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' || true)
    if grep -qE 'ibverbs|rdmacm|nvidia-ml' <<<"$needed"; then
        bad "$arch: links $needed"
    else
        ok "$arch: links only $needed"
    fi
done

x86="$dir/probe-cli-$version-x86_64-linux"
arm="$dir/probe-cli-$version-aarch64-linux"
for name in "${fixtures[@]}"; do
    same_report "x86_64 binary" "$name" "$x86"
    same_report "aarch64 binary under qemu" "$name" qemu-aarch64 -L /usr/aarch64-linux-gnu "$arm"
done
arm_version=$(qemu-aarch64 -L /usr/aarch64-linux-gnu "$arm" --version 2>&1 || true)
if [ "$arm_version" = "probe-cli $version" ]; then ok "aarch64: --version is $arm_version"; else bad "aarch64: --version says '$arm_version'"; fi

# A fresh venv with nothing but the wheel (no index: only the file).
wheel=$(compgen -G "$dir/probe_cli-$version-py3-none-manylinux*_x86_64.whl" | head -1 || true)
if [ -z "$wheel" ]; then
    bad "no x86_64 wheel in $dir"
elif python3 -m venv "$tmp/venv" && "$tmp/venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$wheel"; then
    ok "pip install $(basename "$wheel") into a fresh venv"
    if [ -x "$tmp/venv/bin/probe-cli" ]; then
        ok "the venv's bin/ has probe-cli"
        for name in "${fixtures[@]}"; do same_report "wheel's probe-cli" "$name" "$tmp/venv/bin/probe-cli"; done
    else
        bad "the wheel put no probe-cli in the venv's bin/"
    fi
else
    bad "pip install $wheel failed"
fi

# In cargo's words, so that .ci/run's total counts these checks too.
echo "test result: $([ "$failed" -eq 0 ] && echo ok || echo FAILED). $passed passed; $failed failed; (probe-dist-test)"
[ "$failed" -eq 0 ]
