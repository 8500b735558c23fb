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
