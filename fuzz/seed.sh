#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the real outputs in tests/data and the report snapshots in
# tests/fixtures/nodes (fuzz/corpus is not committed; run this before `cargo fuzz run`).
set -euo pipefail
cd "$(dirname "$0")/.."
for t in nccl_tests nccl_log nvidia_smi_topo ibstat ibv_devinfo; do
    mkdir -p "fuzz/corpus/$t"
    cp tests/data/tool-outputs/*.txt tests/data/nccl-tests/raw/*.txt "fuzz/corpus/$t/"
done
mkdir -p fuzz/corpus/report_json
cp tests/fixtures/nodes/*.json fuzz/corpus/report_json/
# pairs: the file's name on the first line, its text after.
mkdir -p fuzz/corpus/pairs
for f in tests/data/pairs/*/*.txt; do
    { basename "$f"; cat "$f"; } > "fuzz/corpus/pairs/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# recipe: the reports, and a host list.
mkdir -p fuzz/corpus/recipe
cp tests/fixtures/nodes/*.json probe-cli/tests/golden/hosts.txt fuzz/corpus/recipe/
# profile: the outputs calibrate reads (profiles themselves come from running calibrate on them).
mkdir -p fuzz/corpus/profile
cp tests/data/pairs/none/node01_node0*.txt tests/data/nccl-tests/raw/*.txt fuzz/corpus/profile/
# trace: PyTorch profiler traces (a slice of the generated one keeps the corpus small); inspector: the dumps.
mkdir -p fuzz/corpus/trace fuzz/corpus/inspector
cp tests/data/traces/kineto-docs-before-fix-trace.json tests/data/traces/tbplugin-distributed-nccl-worker0.json fuzz/corpus/trace/
head -c 20000 tests/data/traces/healthy-rank0.json > fuzz/corpus/trace/healthy-head.json
cp tests/data/inspector/*.json* fuzz/corpus/inspector/
head -n 20 tests/data/inspector/slow-network/node01-pid4008.log > fuzz/corpus/inspector/slow-head.log
