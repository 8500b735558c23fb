#!/usr/bin/env python3
"""Builds runs.json (beside this script) from the quoted numbers below. Every number that enters a step time is a literal
copied from the quote of its run; the arithmetic is here so it can be checked. Same conventions as ../later/build.py, plus
one for weak-scaling tables whose smallest scale is already multi-node: the baseline is that smallest (anchor) row's own
measured step, and the run carries `anchor_nodes` (the anchor row's node count) right after `baseline_step_s`. The anchor
row is a run of its own, with `anchor_nodes` equal to its own `nodes`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from build_runs import MIB, run, write  # noqa: E402

RUNS = []


def add(anchor_nodes=None, noise_basis=None, **kw):
    """One run in the shared shape; `anchor_nodes` goes right after `baseline_step_s`, a specific `noise_basis` replaces
    the generic one."""
    # The framework input (issue 40, added after collection): the one the source names, so its bucket rules apply.
    named = kw["framework"]
    for word, name in (("Megatron", "megatron"), ("NeMo", "megatron"), ("FSDP", "fsdp"), ("JAX", "jax")):
        if word in named:
            kw["input"].setdefault("framework", name)
            break
    r = run(**kw)
    if noise_basis is not None:
        r["noise_basis"] = noise_basis
    if anchor_nodes is not None:
        out = {}
        for k, v in r.items():
            out[k] = v
            if k == "baseline_step_s":
                out["anchor_nodes"] = anchor_nodes
        r = out
    RUNS.append(r)


def mean(xs):
    return sum(xs) / len(xs)


def runs_summary(per_file):
    """Mean over the result files of each file's mean, and the spread (max - min) of the per-file means."""
    means = [mean(v) for v in per_file.values()]
    return mean(means), max(means) - min(means)


def fmt_lists(per_file, what):
    return "; ".join(f"{f} {what}: " + ", ".join(str(x) for x in v) for f, v in per_file.items())


# ---------------------------------------------------------------------------------------------------------------
# 1. KempnerForge (Kempner Institute, Harvard): weak scaling of dense Llama-3-style 13B and 70B to 160 H200 GPUs,
#    TP=4 inside each 4-GPU node x FSDP2 across nodes, per-GPU batch held constant; and the 1-32 GPU MFU sweep (7B).
# ---------------------------------------------------------------------------------------------------------------
KF_SRC = "https://github.com/KempnerInstitute/KempnerForge/blob/e9f91892905dc840f7048a01e8028083eb4033e7/benchmarks/weak_scaling_160gpu/README.md"
KF_MFU_SRC = "https://github.com/KempnerInstitute/KempnerForge/blob/abbbac33f7e484f1ef4b3aa786135322cf744397/benchmarks/mfu_scaling/mfu_scaling.md"
KF_GROUP = "kempnerforge-h200: KempnerForge's benchmark reports, one team on the Kempner Institute H200 cluster (4x H200 and 4x NDR per node)"
KF_HEAD = ("# Weak Scaling to 160 H200 GPUs (dense 13B / 70B)\n\n**Date**: 2026-06-30\n**Git**: `3ad9d9a` (main)\n"
           "**Hardware**: up to 40 nodes, 4x NVIDIA H200 (141 GB) per node, NVLink intra-node, InfiniBand inter-node\n"
           "**Dataset**: FineWeb-Edu (Llama-3 tokenized)\n"
           "**Steps**: 30 per scaling point, 200 per 160-GPU headline; steady state = median over the back half of each run\n"
           "**Repeats**: 2 on both 160-GPU headlines, reported mean±std\n"
           "**Architecture**: Llama-3 (decoder-only, GQA, SwiGLU, RMSNorm, RoPE)\n"
           "**Config**: bf16 mixed precision, activation checkpointing (full), fused AdamW, cosine LR, `seq_len=4096`\n"
           "**Parallelism**: TP=4 intra-node (NVLink) x FSDP across nodes, held fixed at every GPU count\n"
           "Per-GPU batch is held constant, so tokens per step grow linearly with GPU count. That makes\nthis **weak** scaling\n"
           "| Model | Parameters | dim | layers | heads | kv_heads | ffn_hidden | batch/GPU | grad_accum |\n"
           "| 13B | 14.84B | 5120 | 40 | 40 | 8 | 17,920 (1.3x auto) | 4 | 4 |\n"
           "| 70B | 70.55B | 8192 | 80 | 64 | 8 | 28,672 | 2 | 4 |\n"
           "| Model | GPUs | Parallelism | tok/s | MFU % | Mem/GPU GB | Step s | n |\n")
KF_ROWS = {
    ("13b", 8): "| 13b | 8 | tp4_fsdp2 | 29,860 | 35.9 | 45.0 | 4.39 | 1 |",
    ("13b", 32): "| 13b | 32 | tp4_fsdp8 | 110,373 | 33.2 | 36.2 | 4.75 | 1 |",
    ("13b", 64): "| 13b | 64 | tp4_fsdp16 | 216,507 | 32.6 | 34.8 | 4.84 | 1 |",
    ("13b", 128): "| 13b | 128 | tp4_fsdp32 | 423,306 | 31.8 | 34.0 | 4.95 | 1 |",
    ("13b", 160): "| 13b | 160 | tp4_fsdp40 | 534,644±1,138 | 32.2±0.1 | 33.9 | 4.91 | 2 |",
    ("70b", 32): "| 70b | 32 | tp4_fsdp8 | 18,688 | 26.5 | 93.2 | 14.03 | 1 |",
    ("70b", 64): "| 70b | 64 | tp4_fsdp16 | 35,824 | 25.4 | 86.8 | 14.63 | 1 |",
    ("70b", 96): "| 70b | 96 | tp4_fsdp24 | 52,190 | 24.7 | 84.6 | 15.07 | 1 |",
    ("70b", 128): "| 70b | 128 | tp4_fsdp32 | 69,985 | 24.8 | 83.6 | 14.98 | 1 |",
    ("70b", 160): "| 70b | 160 | tp4_fsdp40 | 85,571±43 | 24.3±0.0 | 82.9 | 15.32 | 2 |",
}
KF_STEP = {("13b", 8): 4.39, ("13b", 32): 4.75, ("13b", 64): 4.84, ("13b", 128): 4.95, ("13b", 160): 4.91,
           ("70b", 32): 14.03, ("70b", 64): 14.63, ("70b", 96): 15.07, ("70b", 128): 14.98, ("70b", 160): 15.32}
# 160-GPU headlines: mean and (sample) std of tok/s over the 2 repeats, as the README prints them.
KF_TOK160 = {"13b": (534644, 1138), "70b": (85571, 43)}
KF_70B_ANCHOR_Q = ("Anchored at 32 GPUs rather than 8: the 8-GPU 70B point is\nmemory-bound at 128.5 GB of 141, so it makes a misleadingly low baseline.\n"
                   "| 70b | 8 | tp4_fsdp2 | 3,623 | 20.6 | 128.5 | 18.09 | 1 |\n")
KF_SCRIPT_Q = ("weak_scaling_160gpu_bench.sh (same commit): 'B13=\"--train.batch_size=4 --train.seq_len=4096 --train.grad_accum_steps=4 --train.compile_model=true\"' "
               "'B70=\"--train.batch_size=2 --train.seq_len=4096 --train.grad_accum_steps=4 --train.compile_model=true\"' "
               "'\"70b_032gpu_tp4_fsdp8|8|$M70B $B70 --distributed.tp=4 --distributed.dp_shard=8|30|scaling\"'; "
               "run_one.sbatch (same commit): 'export NCCL_IB_DISABLE=0 NCCL_NET_GDR_LEVEL=2 NCCL_IB_GID_INDEX=3' '--train.activation_checkpointing=full'\n")
KF_HW_Q = ("other files of the same repository: scripts/slurm/multinode.sh @5666d0d: '#   - H200/H100: 4x CX-7 NDR (ib0-ib3), only ib0 has IP'; "
           "benchmarks/config_validation/config_validation.md @5666d0d: '**Hardware**: 8 nodes, 4x NVIDIA H200 (141 GB) per node, NVLink intra-node, InfiniBand (NDR 400Gbps) inter-node'; "
           "kempnerforge/distributed/parallel.py @3ad9d9a: 'reduce_dtype=torch.float32,' 'reshard_after_forward: bool | int = True,'; "
           "kempnerforge/training/grad.py @3ad9d9a: 'On the last micro-step, gradients are synchronized normally.\n    On earlier micro-steps, sync is skipped to avoid redundant all-reduces.'")
KF_COMMON_INF = [
    "fabric: InfiniBand NDR 400 Gb/s, 4 ConnectX-7 per node (ib0-ib3), from other files of the same repository (multinode.sh, config_validation.md); the README says only 'InfiniBand inter-node'",
    "GPUDirect RDMA on: NCCL_NET_GDR_LEVEL=2 in run_one.sbatch (GDR when the NIC and GPU share a PCIe switch); the node's PCIe topology is not stated",
    "sync zero3: FSDP2 fully_shard over the cross-node dp_shard dimension (one GPU per node per FSDP group, TP=4 inside the node), reshard_after_forward=True (KempnerForge default), so parameters are all-gathered per layer in forward and backward",
    "dtype fp32: FSDP2 MixedPrecisionPolicy(reduce_dtype=torch.float32) in kempnerforge/distributed/parallel.py @3ad9d9a; parameters are gathered in bf16",
    "gradient accumulation: the gradient reduce-scatter runs on the last micro-step only (maybe_no_sync with set_requires_gradient_sync(False) on the earlier ones, kempnerforge/training/grad.py); the parameter all-gathers still run on every micro-step",
    "intra_node nvlink: 4-GPU H200 boards connect the GPUs by direct NVLink without an NVSwitch (assumed from the 4-GPU node; the README says 'NVLink intra-node')",
    "batch_size and grad_accum are per data-parallel (TP) group: tokens/step = batch_size x seq_len x grad_accum x dp_shard (scripts/train.py tokens_in_step), which the tok/s x Step s of each row reproduces",
    "step_s = the README's 'Step s' column: the median over the back half of the run's per-step step_time (parse_results.py); 30 steps per point, 200 for the 160-GPU headlines",
]
for model, anchor_gpus, gpus_list in (("13b", 8, (8, 32, 64, 128, 160)), ("70b", 32, (32, 64, 96, 128, 160))):
    anchor_nodes = anchor_gpus // 4
    base = KF_STEP[(model, anchor_gpus)]
    for gpus in gpus_list:
        nodes = gpus // 4
        meas = KF_STEP[(model, gpus)]
        if model == "13b":
            inp = dict(sync="zero3", params=14.84e9, dtype="fp32", nodes=nodes, gpus_per_node=4, gpu="h200", intra_node="nvlink",
                       fabric="infiniband", gdr=True, link_gbps=400, adapters_per_node=4, tp=4, grad_accum_steps=4, seq_len=4096,
                       micro_batch_size=4, activation_checkpointing=True)
        else:
            inp = dict(sync="zero3", model="llama-3.1-70b", dtype="fp32", nodes=nodes, gpus_per_node=4, gpu="h200", intra_node="nvlink",
                       fabric="infiniband", gdr=True, link_gbps=400, adapters_per_node=4, tp=4, grad_accum_steps=4, seq_len=4096,
                       micro_batch_size=2, activation_checkpointing=True)
        noise = None
        basis = None
        if gpus == 160:
            tok, sd = KF_TOK160[model]
            noise = meas * (sd * 2 ** 0.5) / tok
            basis = ("own spread: the README's ±std of tok/s over its 2 repeats (statistics.stdev, so max - min = std x sqrt(2)) "
                     "as a share of the mean tok/s, times the step")
        inferred = [
            f"weak scaling with a multi-node anchor: baseline = the {anchor_gpus}-GPU ({anchor_nodes}-node) row's own measured step (anchor_nodes {anchor_nodes}); same per-GPU work at every scale (per-DP-rank batch {4 if model == '13b' else 2} x grad_accum 4 x seq 4096, TP=4, FSDP over the nodes)",
            (f"params = 14.84e9 as the README states (Llama-3-style 13B: dim 5120, 40 layers, 40 heads, 8 KV heads, FFN 17,920, vocab 128,256; no catalog model)" if model == "13b"
             else "model = llama-3.1-70b from the shape catalog: the README's 70B has Llama 3.1 70B's shape (dim 8192, 80 layers, 64 heads, 8 KV heads, FFN 28,672, vocab 128,256; 70.55B)"),
        ] + KF_COMMON_INF + ([
            "the 8-GPU (2-node) 70B row is left out and the anchor is the 32-GPU row, against the smallest-scale rule: the README itself anchors its efficiency table at 32 GPUs because the 8-GPU point is memory-bound (128.5 of 141 GB), so its step is not the same per-GPU work"
        ] if model == "70b" else [])
        add(id=f"kempnerforge-h200-ndr4-{model}-tp4-fsdp-{gpus}gpu",
            series=f"kempnerforge-h200-{model}-tp4-fsdp-weak",
            source=KF_SRC, source_group=KF_GROUP,
            quote=KF_HEAD + KF_ROWS[(model, anchor_gpus)] + "\n" + (KF_ROWS[(model, gpus)] + "\n" if gpus != anchor_gpus else "")
            + (KF_70B_ANCHOR_Q if model == "70b" else "") + KF_SCRIPT_Q + KF_HW_Q,
            framework="KempnerForge (PyTorch FSDP2 fully_shard + DTensor TP=4, torch.compile, full activation checkpointing, bf16)",
            input=inp, measured_step_s=meas, baseline_step_s=base,
            baseline_note=f"anchor row: the {anchor_gpus}-GPU ({anchor_nodes}-node) row of the same weak-scaling table, same per-GPU work; the replay solves the compute from it",
            inferred=inferred, noise_s=noise, noise_basis=basis, anchor_nodes=anchor_nodes)

KF_MFU_Q = ("# KempnerForge MFU Benchmark Report\n\n**Date**: 2026-04-05   \n**Git**: `01b461a` (main)   \n"
            "**Hardware**: 8 nodes, 4x NVIDIA H200 (141 GB) per node, NVLink intra-node, InfiniBand inter-node   \n"
            "**Steps**: 20 per experiment, steady-state MFU averaged over last 5 steps   \n"
            "**Config**: bf16 mixed precision, activation checkpointing (full), fused AdamW, cosine LR schedule   \n"
            "| 7B | 8.03B | 4096 | 32 | 32 | 8 | auto (1.3x) |\n"
            "| # | GPUs | Nodes | Model | Parallelism | tok/s | MFU (%) | Mem/GPU | Step Time |\n"
            "| 5 | 4 | 1 | 7B | TP=4 | 25,135 | 34.7 | 39.4 GB | 1.30s |\n")
KF_MFU_ROWS = {2: "| 7 | 8 | 2 | 7B | TP=4+FSDP=2 | 44,299 | 30.6 | 32.7 GB | 1.48s |",
               4: "| 10 | 16 | 4 | 7B | TP=4+FSDP=4 | 82,988 | 28.6 | 29.4 GB | 1.58s |",
               8: "| 12 | 32 | 8 | 7B | TP=4+FSDP=8 | 155,917 | 26.9 | 27.6 GB | 1.68s |"}
KF_MFU_TAIL = ("All experiments used `seq_len=4096` with `torch.compile=true` (except experiment 08 which used `compile=false`).\n"
               "| Model | batch_size | grad_accum | Effective Batch (tokens/step/GPU) |\n| 7B | 4 | 2 | 32,768 |\n")
KF_MFU_STEP = {1: 1.30, 2: 1.48, 4: 1.58, 8: 1.68}
for nodes in (2, 4, 8):
    add(id=f"kempnerforge-h200-ndr4-7b-tp4-fsdp-{nodes}node",
        series="kempnerforge-h200-7b-tp4-fsdp-mfu-sweep",
        source=KF_MFU_SRC, source_group=KF_GROUP,
        quote=KF_MFU_Q + KF_MFU_ROWS[nodes] + "\n" + KF_MFU_TAIL + KF_HW_Q,
        framework="KempnerForge (PyTorch FSDP2 fully_shard + DTensor TP=4, torch.compile, full activation checkpointing, bf16)",
        input=dict(sync="zero3", model="llama-3.1-8b", dtype="fp32", nodes=nodes, gpus_per_node=4, gpu="h200", intra_node="nvlink",
                   fabric="infiniband", gdr=True, link_gbps=400, adapters_per_node=4, tp=4, grad_accum_steps=2, seq_len=4096,
                   micro_batch_size=4, activation_checkpointing=True),
        measured_step_s=KF_MFU_STEP[nodes], baseline_step_s=KF_MFU_STEP[1],
        baseline_note="single-node row of the same table: experiment 5, 7B with TP=4 on the 4 GPUs of one node (no FSDP sharding, no gradient sync), same per-DP-rank batch 4 x grad_accum 2",
        inferred=[
            "baseline: row 5 (TP=4, 1 node) has the same per-DP-rank work as rows 7/10/12 (TP=4 + FSDP=2/4/8): tok/s x step time gives 32,768 tokens per DP rank in each (25,135 x 1.30 = 32,676; 44,299 x 1.48 / 2 = 32,781)",
            "model = llama-3.1-8b from the shape catalog: the README's 7B (8.03B; dim 4096, 32 layers, 32 heads, 8 KV heads, FFN 1.3x auto = 14,336, vocab 128,256) is Llama 3.1 8B's shape",
            "step_s = the README's 'Step Time' column; 'steady-state MFU averaged over last 5 steps' of 20, so the step is presumably the same 5-step average (not stated)",
            "the mfu_scaling campaign (2026-04-05, git 01b461a) predates the weak_scaling_160gpu one; the NCCL environment of its mfu_bench.sh was not read, the GDR and NIC settings are those of the later campaign and the repository's multinode.sh",
        ] + KF_COMMON_INF[:6])


# ---------------------------------------------------------------------------------------------------------------
# 2. MLPerf Training v5.1, University of Florida (HiPerGator DGX B200 SuperPOD): Llama 3.1 8B pre-training on
#    1..32 nodes. 4/8/16/32 nodes share one layout (TP1 PP1 CP2, one sequence per DP rank); 1 and 2 nodes share another
#    (TP1 PP1 CP1, micro-batch 2). The logs give the mean train_step_time of each evaluation block.
# ---------------------------------------------------------------------------------------------------------------
UF_COMMIT = "441d65f4445cd59687466533fd9f55399136e7a4"
UF_SRC = "https://github.com/mlcommons/training_results_v5.1/tree/" + UF_COMMIT + "/University-of-Florida/results/hpg.dgxb200x8.n{}/llama31_8b"
UF_GROUP = "mlperf-v5.1-uf-hipergator: University of Florida's MLPerf Training v5.1 submission, HiPerGator DGX B200 SuperPOD"
UF_GBS = {1: 16, 2: 32, 4: 16, 8: 32, 16: 64, 32: 128}
UF_CFG_CP2 = ("hpg.dgxb200x8/config_DGXB200_{n}x8x1xtp1pp1cp2_8b.sh: 'export MINIBS=1' 'export TENSOR_MODEL_PARALLEL=1' 'export PIPELINE_MODEL_PARALLEL=1' "
              "'export CONTEXT_PARALLEL=2' 'export MICRO_BATCH_SIZE=1' 'export VAL_CHECK_INTERVAL=384' 'export DGXNNODES={n}' 'export DGXNGPU=8'")
UF_CFG_CP1 = ("hpg.dgxb200x8/config_DGXB200_{n}x8x2xtp1pp1cp1_8b.sh: 'export MINIBS=2' 'export TENSOR_MODEL_PARALLEL=1' 'export PIPELINE_MODEL_PARALLEL=1' "
              "'export CONTEXT_PARALLEL=1' 'export MICRO_BATCH_SIZE=2' 'export VAL_CHECK_INTERVAL=768' 'export DGXNNODES={n}' 'export DGXNGPU=8'")
UF_COMMON_Q = ("University-of-Florida/benchmarks/llama31_8b/implementations (same commit; hpg.dgxb200x8/README.md: 'Please refer to the implementation directory [b200_nemo](../b200_nemo) for the details.'): "
               "b200_nemo/config_common.sh: 'export USE_DIST_OPTIMIZER=True' 'export FP8=True' 'export OVERLAP_GRAD_REDUCE=True' 'export OVERLAP_PARAM_GATHER=True' 'export FP8_PARAM_GATHER=True'; "
               "b200_nemo/conf/custom.yaml: 'bucket_size: ${{oc.decode:${{oc.env:BUCKET_SIZE,134217728}}}}'; b200_nemo/pretrain.py: 'grad_reduce_in_fp32=False,' 'average_in_collective=True,'; "
               "b200_nemo/conf/custom.yaml: 'encoder_seq_length: 8192' '# GBS = MINIBS * ((DGXNGPU * DGXNNODES) // (TENSOR_MODEL_PARALLEL * PIPELINE_MODEL_PARALLEL * CONTEXT_PARALLEL))'; "
               "systems/hpg.dgxb200x8.n{n}.json: '\"system_name\": \"HiPerGator NVIDIA DGX B200 (8x B200-SXM-180GB)\"' '\"accelerators_per_node\": \"8\"' "
               "'\"host_networking\": \"InfiniBand; Data bandwidth for GPU-PCIe: 504 GB/s; PCIe-NIC: 500 GB/s\"' '\"nccl_version\": \"v2.28.3-1\"'\n")
UF_LOG_Q = ("results/hpg.dgxb200x8.n{n}/llama31_8b/result_*.txt: '\"key\": \"global_batch_size\", \"value\": {gbs}' '\"key\": \"gradient_accumulation_steps\", \"value\": 1.0'; "
            "block means logged by mlperf_common/callbacks/logging.py at each block_stop as '\"key\": \"tracked_stats\", \"value\": {{\"train_step_time\": ...}}', first {k} blocks of each run: ")
# Block averages of train_step_time (seconds), as logged: one list per result_N.txt, in file order, first blocks only.
UF_BLOCKS = {
    1: {
        "result_0.txt": [0.5387814506223852, 0.5448383724804368, 0.5440646202382974, 0.5445022521120109, 0.5444630260937705, 0.544445546592442, 0.5446332656458329, 0.5445977896159017],
        "result_1.txt": [0.538915623936191, 0.545323956282535, 0.5442039974348821, 0.543977483800783, 0.5442149604036407, 0.5442852991302137, 0.5445352933815002, 0.5446984426914318],
        "result_2.txt": [0.5392059947278464, 0.5464058151406258, 0.5454310839284062, 0.5456352088176951, 0.5455871483176983, 0.5457116748229206, 0.5461479067148503, 0.5457163296015702],
        "result_3.txt": [0.5403711613867396, 0.546489273985685, 0.5457430392564978, 0.5459074744583555, 0.5458368993333428, 0.5462360973411554, 0.5457254151471412, 0.5459911389088651],
        "result_4.txt": [0.5386798553398648, 0.5449912126770565, 0.5440663999127461, 0.5442905558281078, 0.5445391132356766, 0.5445612300703336, 0.5441712564908888, 0.5445261537591174],
        "result_5.txt": [0.5403850975221379, 0.5458169859752692, 0.5455461528411357, 0.5454898971250183, 0.5459273519049551, 0.5458801478945361, 0.546030994320328, 0.5460753877382558],
        "result_6.txt": [0.5382250914414044, 0.5445538144401022, 0.5438607410377472, 0.5437953466940447, 0.5439679550716315, 0.5442729253541453, 0.5443277772122505, 0.5444357679270979],
        "result_7.txt": [0.5405883555000249, 0.5465710341953051, 0.545157260846357, 0.5454345210403441, 0.5459776466731606, 0.5461475730494764, 0.5462058076432186, 0.5458423159687603],
        "result_8.txt": [0.5427856192083406, 0.5494851781315143, 0.548313680821631, 0.5487827574843701, 0.548960330552101, 0.5491094010130079, 0.5494198550273571, 0.5489969098020993],
        "result_9.txt": [0.537961905647156, 0.5444574151406035, 0.5438456806458589, 0.543923049608073, 0.5441401360064901, 0.5439384286236949, 0.5440081064492309, 0.5442746504309829],
    },
    2: {
        "result_0.txt": [0.5657600412018459, 0.572248515691399, 0.5725154583788784, 0.5727161065481899, 0.5723844482812789, 0.5723292630481941, 0.5719831263437527, 0.5717727212239652],
        "result_1.txt": [0.5675708183450373, 0.5739645686301932, 0.574231932910152, 0.573818014678371, 0.5740725494596669, 0.5739270999934737, 0.5738686738593515, 0.5739873117591211],
        "result_2.txt": [0.5692789551731797, 0.5763406808268124, 0.5761329480247545, 0.5765810373150847, 0.5763844601054492, 0.5762031452825719, 0.5762887236627421, 0.5764780062421929],
        "result_3.txt": [0.5699423812239578, 0.5772648100755001, 0.5771912366705768, 0.5775245185924405, 0.5769790799817732, 0.5766075462474115, 0.5773827508684993, 0.577379410539038],
        "result_4.txt": [0.5707726954387908, 0.5775704185429807, 0.5778917022942854, 0.5776660711250088, 0.5776003506380221, 0.5778242262044083, 0.5774598934934829, 0.5777163282669259],
        "result_5.txt": [0.565833091914063, 0.5724379011718762, 0.5724846563476452, 0.5724740813828172, 0.5724582110090827, 0.5723279228945254, 0.5724944194114414, 0.5723359971979107],
        "result_6.txt": [0.5677645779153787, 0.5739008907812225, 0.5739357259570094, 0.5740907548776022, 0.5738874601627609, 0.5737131322447718, 0.5738919810690201, 0.5740561440911733],
        "result_7.txt": [0.5691649978476411, 0.5765420257083255, 0.5769100185833244, 0.5769568573098999, 0.5767998725898451, 0.575993017770846, 0.5764762568268225, 0.5765729685429809],
        "result_8.txt": [0.5704438675312152, 0.5773426697213608, 0.5772995991549502, 0.5770326535338578, 0.5772439865989251, 0.5766803581744474, 0.5770670077317467, 0.5769396713437421],
        "result_9.txt": [0.5711508306002694, 0.5778183287396056, 0.5776911587070117, 0.5777381340729258, 0.5778442631497379, 0.5773206149375104, 0.5773453374973769, 0.5775902526953208],
    },
    4: {
        "result_0.txt": [0.1877654926171696, 0.18808353634373512, 0.18829700269012997, 0.18854128032808148, 0.18849454596875148, 0.1886580053489221, 0.18854087408855472],
        "result_1.txt": [0.18773535861722243, 0.18809215464845389, 0.18830186989847184, 0.18851543775258506, 0.18867444734632954, 0.18875190982817003, 0.18883115401308714],
        "result_2.txt": [0.1852772673906505, 0.1879365443567925, 0.18889934841922695, 0.18923798333336586, 0.18949989233851738, 0.1898017687213572, 0.1899406576197483],
        "result_3.txt": [0.18696563746349662, 0.1879541239114436, 0.18831865269529166, 0.18850440754166206, 0.18846019662237268, 0.18848673472916744, 0.18857669354952122],
        "result_4.txt": [0.18539336262756478, 0.18801660535935602, 0.18887824685149704, 0.1894433408228906, 0.1895689444609161, 0.18992269169795387, 0.18976224397397345],
        "result_5.txt": [0.18576652335673316, 0.18789611629949832, 0.18829715682030232, 0.1885126499062911, 0.18858279846873907, 0.18839848959116048, 0.18866595239061704],
        "result_6.txt": [0.18718310192972845, 0.18781800655468336, 0.18875722416661725, 0.18927690808595798, 0.18970587579163598, 0.1896614873984769, 0.18991515149999336],
        "result_7.txt": [0.18529275176047122, 0.18804154086721306, 0.18869103787240724, 0.18933547661716452, 0.18947498602869928, 0.18986582514321526, 0.18980713210157774],
        "result_8.txt": [0.1852531308854092, 0.18802451699480116, 0.1887985420754982, 0.18935664331775115, 0.18962404882548375, 0.1897923471744889, 0.18998978383592657],
        "result_9.txt": [0.18567255887501233, 0.1879208746979657, 0.18883629038547647, 0.18934217709109666, 0.18959298201821184, 0.18975453686463575, 0.1898007925312868],
    },
    8: {
        "result_0.txt": [0.18710022694525227, 0.1893998980625232, 0.18994816816143612, 0.19005594415625637, 0.19033148041929357, 0.19044558180727714, 0.19055616594793415],
        "result_1.txt": [0.1869174065312412, 0.18927121333589034, 0.1899342032916896, 0.19021543609892433, 0.19026673682295345, 0.19036799619789235, 0.19054075872395515],
        "result_2.txt": [0.18711661994530004, 0.1894842636197609, 0.18974425551308136, 0.190157094591162, 0.19030552078379515, 0.19044182665106746, 0.1904717624635547],
        "result_3.txt": [0.18689737014058969, 0.1893319133124957, 0.19002684501818598, 0.19032706041404404, 0.19066012470572483, 0.19060172004166512, 0.19054267570572847],
        "result_4.txt": [0.18707704904682032, 0.18962352191670107, 0.1901371329088306, 0.19050156619528025, 0.1905805572682008, 0.1907821385234456, 0.19073833302869994],
        "result_5.txt": [0.18713335996092914, 0.18955348098961622, 0.19006852395311094, 0.19031007049738946, 0.1905947052994179, 0.19065559699743062, 0.19064179543753804],
        "result_6.txt": [0.18714229769792232, 0.1896532248776263, 0.19003613236198666, 0.1903980168411484, 0.1905833327656031, 0.19065097870308514, 0.19062625096353258],
        "result_7.txt": [0.18700192748694158, 0.18954737466932178, 0.19010058183077186, 0.19037241846353936, 0.19055630828385497, 0.19056908715886797, 0.19074684287496288],
        "result_8.txt": [0.1868812273620127, 0.1896606098984345, 0.19009885422140846, 0.1903410586614882, 0.19059001999479128, 0.1905539269661555, 0.19062261888802823],
        "result_9.txt": [0.18669324446091196, 0.1894831285364944, 0.19007158768226873, 0.1902396112994514, 0.19040182848956042, 0.19056404744530178, 0.19067005745569077],
    },
    16: {
        "result_0.txt": [0.19069185243226153, 0.19310524280209998, 0.19377912894272717, 0.19391364738021366, 0.19413179852343396, 0.1943049191223357, 0.19452006822393741],
        "result_1.txt": [0.1907771314661962, 0.19328355963807553, 0.19398156014585766, 0.19430980707033996, 0.1943980551484401, 0.19450654191405192, 0.19446271424999395],
        "result_2.txt": [0.19079203003389011, 0.193360524770848, 0.19383295065881612, 0.19408459766145825, 0.1942751645624412, 0.19434302888021193, 0.1944735029739301],
        "result_3.txt": [0.19133860854685736, 0.19327078496356384, 0.19377516256251207, 0.19401532780989328, 0.19415923388282863, 0.19438601023178612, 0.19429151030203684],
        "result_4.txt": [0.1914852923437138, 0.19327597948699804, 0.19373272856250878, 0.19416962598180967, 0.19423040034636566, 0.19435489755467947, 0.1943312566537164],
        "result_5.txt": [0.19063352121611388, 0.193241734445337, 0.1938681127135927, 0.19404808236458848, 0.19421698180735802, 0.19426001352341396, 0.1944404979896414],
        "result_6.txt": [0.19065225286976784, 0.19324870700779684, 0.19384027023958575, 0.19399094250002236, 0.19422785890886493, 0.19429662727346417, 0.19433344345573764],
        "result_7.txt": [0.19053414821875472, 0.21315505692708334, 0.1937069414453466, 0.19403808985938062, 0.19426768162763133, 0.1943284239817634, 0.19448349287237457],
        "result_8.txt": [0.1907107356692753, 0.19330893237762817, 0.19388868382558636, 0.1940824235546946, 0.19428071038540415, 0.19428288452862338, 0.19443134713022422],
        "result_9.txt": [0.190652397393175, 0.1933169824271014, 0.19379394969784394, 0.1940886478776065, 0.19424657213016872, 0.19439108283071013, 0.19434454957293687],
    },
    32: {
        "result_0.txt": [0.22001852643749467, 0.22217975291141556, 0.2226283108957432, 0.2225850722187109, 0.22270594307550104, 0.22281326316139408, 0.2228221016016505],
        "result_1.txt": [0.219987933559878, 0.22224110336719605, 0.22264692481257953, 0.22252529578387717, 0.2226018622968695, 0.22275693959894247, 0.22287728494787493],
        "result_2.txt": [0.21980904007811355, 0.22211312505730044, 0.22256975808325782, 0.2225463794895101, 0.2228883084218675, 0.22261107414836565, 0.22274705796614094],
        "result_3.txt": [0.21998641259112142, 0.22226416095312138, 0.22243074755730655, 0.22260476200002208, 0.22276212700520168, 0.22555161619796613, 0.2239903623672035],
        "result_4.txt": [0.21999958541406764, 0.222405350179694, 0.2225362484635601, 0.22282474206258485, 0.22265003757032295, 0.22258158425256624, 0.22277875106768383],
        "result_5.txt": [0.22021243907299018, 0.22228999543494865, 0.22267557372651936, 0.2225995219661551, 0.22269682792966705, 0.2226796150677425, 0.2227323890703398],
        "result_6.txt": [0.22002401818220582, 0.22216618626559162, 0.22267843978124802, 0.22276364205981736, 0.22272231636725337, 0.22272945330981506, 0.22287437127079102],
        "result_7.txt": [0.22014898656001, 0.22215924615875338, 0.22330044672389704, 0.3086160910209704, 0.22249477713270002, 0.22601544845838362, 0.2226312151848712],
        "result_8.txt": [0.21995787235406775, 0.22224650208848593, 0.2226379698307331, 0.22275416082296337, 0.22263559106507577, 0.22275426579957033, 0.2229382141510238],
        "result_9.txt": [0.22017713130465685, 0.22224589291136, 0.2223943038802645, 0.22248554822393393, 0.22262285251827052, 0.22277457384628482, 0.22293659998695148],
    },
}
CARINA_BLOCKS = {
    1024: {
        "result_0.txt": [8.480253058283415, 8.415808129650152, 8.438654064883304, 8.46387030461677, 8.483880441716853, 8.502456512966697],
        "result_1.txt": [8.482299334500082, 8.417766065183484, 8.437924821966833, 8.466681857933388, 8.485889968216846, 8.499296088400296],
        "result_2.txt": [8.490121330316954, 8.412958255266615, 8.433150775433266, 8.461919822516696, 8.483074177983507, 8.496680028483388],
    },
    1536: {
        "result_0.txt": [8.613702605324942, 8.468705733874959, 8.47647841979997, 8.505006286450225, 8.529277309649478, 8.546823379799752],
        "result_1.txt": [8.631268429900228, 8.454613433025225, 8.472290461824741, 8.49835541067514, 8.527229830274882, 8.54353617759989],
        "result_2.txt": [9.183564161624963, 8.61663540592499, 8.506224485275016, 8.537482222824929, 8.72338338212503, 8.576723896375006],
    },
}
# train_step_timing (seconds) of every step between the first eval_stop and the second eval_start.
GPT3V30_STEPS = {
    64: {
        "result_0.txt": [12.052450180053711, 12.06483006477356, 12.084549188613892, 12.1112642288208, 12.100023746490479, 12.097548246383667, 12.082088708877563, 12.08448052406311, 12.048909902572632, 12.044736862182617, 12.037533044815063, 12.042322874069214],
        "result_1.txt": [12.02464485168457, 12.076047658920288, 12.068844556808472, 12.071691036224365, 12.083478927612305, 12.067928314208984, 12.06475305557251, 12.06749939918518, 12.051848888397217, 12.049336910247803, 12.038027048110962, 12.037585258483887],
        "result_2.txt": [12.04694390296936, 12.088670492172241, 12.086785554885864, 12.086061000823975, 12.070665836334229, 12.073856353759766, 12.06728744506836, 12.109148502349854, 12.072304248809814, 12.079217433929443, 12.065348625183105, 12.053782224655151],
    },
    96: {
        "result_0.txt": [12.052990436553955, 12.090860366821289, 12.103818655014038, 12.09787631034851, 12.088791847229004, 12.083032369613647, 12.087981462478638, 12.095364809036255],
        "result_1.txt": [12.0793297290802, 12.138816118240356, 12.0904221534729, 12.110011339187622, 12.108179569244385, 12.100743770599365, 12.107139587402344, 12.102133750915527],
        "result_2.txt": [12.080721616744995, 12.122262954711914, 12.106719970703125, 12.102027416229248, 12.11609435081482, 12.117090940475464, 12.114460468292236, 12.11210322380066],
    },
}
# (block_start time_ms, block_stop time_ms, epoch_count) of blocks 2 to 6 of each result_N.txt.
EOSDFW_BLOCKS = {
    1344: {
        "result_0.txt": [(1714681081944, 1714681091151, 55050240), (1714681092072, 1714681101264, 55050240), (1714681102149, 1714681111350, 55050240), (1714681112226, 1714681121428, 55050240), (1714681122309, 1714681131540, 55050240)],
        "result_1.txt": [(1714682339422, 1714682348605, 55050240), (1714682349480, 1714682358670, 55050240), (1714682359601, 1714682368795, 55050240), (1714682369678, 1714682378875, 55050240), (1714682379751, 1714682388953, 55050240)],
        "result_2.txt": [(1715101826668, 1715101835851, 55050240), (1715101836757, 1715101845943, 55050240), (1715101846823, 1715101856019, 55050240), (1715101857016, 1715101866217, 55050240), (1715101867123, 1715101876331, 55050240)],
    },
    1452: {
        "result_0.txt": [(1714684959346, 1714684967619, 53526528), (1714684968299, 1714684976586, 53526528), (1714684977296, 1714684985581, 53526528), (1714684986273, 1714684994565, 53526528), (1714684995228, 1714685003534, 53526528)],
        "result_1.txt": [(1714687802164, 1714687810435, 53526528), (1714687811099, 1714687819375, 53526528), (1714687820052, 1714687828337, 53526528), (1714687828996, 1714687837290, 53526528), (1714687837969, 1714687846256, 53526528)],
        "result_2.txt": [(1714695138438, 1714695146705, 53526528), (1714695147364, 1714695155639, 53526528), (1714695156324, 1714695164612, 53526528), (1714695165302, 1714695173605, 53526528), (1714695174263, 1714695182551, 53526528)],
    },
}


def uf_quote(n):
    k = len(next(iter(UF_BLOCKS[n].values())))
    cfg = (UF_CFG_CP2 if n >= 4 else UF_CFG_CP1).format(n=n)
    return (cfg + "\n" + UF_COMMON_Q.format(n=n) + UF_LOG_Q.format(n=n, gbs=UF_GBS[n], k=k)
            + fmt_lists(UF_BLOCKS[n], "train_step_time") + "\n")


UF_INF = [
    "step_s = mean over the run's result files of each file's mean block train_step_time (the mlperf_common block summary, one value per evaluation block of 384 steps for 4-32 nodes, 768 steps for 1-2 nodes); only the first 7 (4-32 nodes) or 8 (1-2 nodes) blocks are used, so every scale covers the same training steps; noise_s = max - min of the per-file means",
    "model = llama-3.1-8b (the benchmark is Llama 3.1 8B pre-training, seq 8192)",
    "sync zero1: Megatron-core distributed optimizer (USE_DIST_OPTIMIZER=True) with overlap_grad_reduce and overlap_param_gather on; gradients reduce-scattered over the data-parallel x context-parallel group, i.e. over every GPU here (TP=PP=1)",
    "dtype bf16: grad_reduce_in_fp32=False in pretrain.py; the parameter all-gather is FP8 (FP8_PARAM_GATHER=True), which the model's single dtype cannot express",
    "bucket_bytes = 134,217,728 elements (megatron-core DistributedDataParallelConfig.bucket_size counts parameters) x 2 bytes (bf16 gradient buffer) = 256 MiB",
    "fabric: DGX B200 with 8 x 400 Gb/s ConnectX-7 InfiniBand (NDR) compute ports assumed from the DGX B200 design; the system description says only 'InfiniBand'",
    "GPUDirect RDMA on assumed (not stated)",
    "FP8 (tensorwise recipe) training with full-iteration CUDA graphs (config_common_cg.sh: FULL_CUDA_GRAPH=1); the compute is given, so this only matters for the exposed communication",
]
for n in (4, 8, 16, 32):
    meas, spread = runs_summary(UF_BLOCKS[n])
    base, _ = runs_summary(UF_BLOCKS[4])
    add(id=f"mlperf51-uf-dgxb200-ndr-llama31-8b-cp2-{n}node",
        series="mlperf-v5.1-uf-dgxb200-llama31-8b-tp1pp1cp2",
        source=UF_SRC.format(n), source_group=UF_GROUP,
        quote=("MLPerf Training v5.1, University-of-Florida, llama31_8b. Anchor (4 nodes): " + uf_quote(4)
               + ("This run (" + str(n) + " nodes): " + uf_quote(n) if n != 4 else "")),
        framework="NVIDIA NeMo 2 / Megatron-core (MLPerf reference port, NGC 25.09), FP8, distributed optimizer, CUDA graphs",
        input=dict(sync="zero1", model="llama-3.1-8b", dtype="bf16", nodes=n, gpus_per_node=8, gpu="b200", fabric="infiniband", gdr=True,
                   link_gbps=400, adapters_per_node=8, grad_accum_steps=1, seq_len=8192, micro_batch_size=1, bucket_bytes=256 * MIB,
                   overlap_grad_reduce=True, overlap_param_gather=True),
        measured_step_s=meas, baseline_step_s=base,
        baseline_note="anchor row: the 4-node run of the same layout (TP1 PP1 CP2, one sequence of 8192 per CP pair, one micro-batch per step); the replay solves the compute from it",
        inferred=[
            "weak scaling with a multi-node anchor at 4 nodes (anchor_nodes 4): 4, 8, 16 and 32 nodes run the same config apart from DGXNNODES, and the global batch grows with the node count (16, 32, 64, 128 = GPUs / CP 2), so the per-GPU work is the same",
            "context parallelism 2 (each sequence split over 2 GPUs of a node) is not a model input: the 8 x nodes GPUs are given as data-parallel ranks with seq_len 8192 and micro_batch_size 1, which matches the gradient reduce-scatter group (DP x CP = every GPU) but not the per-GPU activations (half a sequence)",
        ] + UF_INF,
        noise_s=spread,
        noise_basis="own spread: max - min of the per-result-file mean step over the submission's 10 result files",
        anchor_nodes=4)

meas, spread = runs_summary(UF_BLOCKS[2])
base, _ = runs_summary(UF_BLOCKS[1])
add(id="mlperf51-uf-dgxb200-ndr-llama31-8b-cp1-2node",
    series="mlperf-v5.1-uf-dgxb200-llama31-8b-tp1pp1cp1-mbs2",
    source=UF_SRC.format(2), source_group=UF_GROUP,
    quote="MLPerf Training v5.1, University-of-Florida, llama31_8b. Baseline (1 node): " + uf_quote(1) + "This run (2 nodes): " + uf_quote(2),
    framework="NVIDIA NeMo 2 / Megatron-core (MLPerf reference port, NGC 25.09), FP8, distributed optimizer, CUDA graphs",
    input=dict(sync="zero1", model="llama-3.1-8b", dtype="bf16", nodes=2, gpus_per_node=8, gpu="b200", fabric="infiniband", gdr=True,
               link_gbps=400, adapters_per_node=8, grad_accum_steps=1, seq_len=8192, micro_batch_size=2, bucket_bytes=256 * MIB,
               overlap_grad_reduce=True, overlap_param_gather=True),
    measured_step_s=meas, baseline_step_s=base,
    baseline_note="single-node run of the same submission and layout (TP1 PP1 CP1, micro-batch 2 = MINIBS 2, one micro-batch per step; global batch 16 on 1 node, 32 on 2)",
    inferred=["same per-GPU work: 1 and 2 nodes run the same config apart from DGXNNODES (2 sequences of 8192 per GPU per step)"] + UF_INF,
    noise_s=spread,
    noise_basis="own spread: max - min of the per-result-file mean step over the submission's 10 result files")

# 2b. The same submission's Llama 3.1 405B runs on 32 and 56 nodes: the same layout (TP4 PP8 VP8 CP2, 144 micro-batches
#     per pipeline per step). Block means of train_step_time, both blocks of each run (the first spans the skipped early
#     evaluations: 448 steps at 32 nodes, 285 at 56; the second 32 and 19 steps).
UF405_SRC = "https://github.com/mlcommons/training_results_v5.1/tree/" + UF_COMMIT + "/University-of-Florida/results/hpg.dgxb200x8.n{}/llama31_405b"
UF405_GBS = {32: 576, 56: 1008}
UF405_BLOCKS = {
    32: {
        "result_0.txt": [27.738455044026782, 27.61271218940601],
        "result_1.txt": [27.71574718220089, 27.64023079037497],
        "result_2.txt": [27.782303212276798, 27.669950492843782],
    },
    56: {
        "result_0.txt": [27.97089413013687, 27.999127848894876],
        "result_1.txt": [28.042851655245677, 27.99048304320987],
        "result_2.txt": [28.0125161940526, 28.003041744633503],
    },
}
UF405_CFG_Q = ("University-of-Florida/benchmarks/llama31_405b/implementations (same commit): hpg.dgxb200x8/config_DGXB200_{n}x8x144xtp4pp8cp2_cg.sh: 'export MINIBS=144' "
               "'export TENSOR_MODEL_PARALLEL=4' 'export PIPELINE_MODEL_PARALLEL=8' 'export INTERLEAVED_PIPELINE=8' 'export CONTEXT_PARALLEL=2' 'export MICRO_BATCH_SIZE=1' "
               "'#export TP_COMM_OVERLAP=True' 'export DGXNNODES={n}' 'export DGXNGPU=8'; b200_nemo/config_common.sh: 'export USE_DIST_OPTIMIZER=True' 'export FP8=True' "
               "'export OVERLAP_GRAD_REDUCE=True' 'export OVERLAP_PARAM_GATHER=True' 'export FP8_PARAM_GATHER=True'; b200_nemo/conf/custom.yaml: "
               "'bucket_size: ${{oc.decode:${{oc.env:BUCKET_SIZE,134217728}}}}' 'ub_tp_comm_overlap: ${{oc.decode:${{oc.env:TP_COMM_OVERLAP,False}}}}' 'encoder_seq_length: 8192'; "
               "b200_nemo/pretrain.py: 'grad_reduce_in_fp32=False,'; systems/hpg.dgxb200x8.n{n}.json: '\"system_name\": \"HiPerGator NVIDIA DGX B200 (8x B200-SXM-180GB)\"' "
               "'\"host_networking\": \"InfiniBand; Data bandwidth for GPU-PCIe: 504 GB/s; PCIe-NIC: 500 GB/s\"'\n"
               "results/hpg.dgxb200x8.n{n}/llama31_405b/result_*.txt: '\"key\": \"global_batch_size\", \"value\": {gbs}' '\"key\": \"gradient_accumulation_steps\", \"value\": 144.0'; "
               "block means logged by mlperf_common/callbacks/logging.py at each block_stop as '\"key\": \"tracked_stats\", \"value\": {{\"train_step_time\": ...}}', first 2 blocks of each run: ")


def uf405_quote(n):
    return UF405_CFG_Q.format(n=n, gbs=UF405_GBS[n]) + fmt_lists(UF405_BLOCKS[n], "train_step_time") + "\n"


for n in (32, 56):
    meas, spread = runs_summary(UF405_BLOCKS[n])
    base, _ = runs_summary(UF405_BLOCKS[32])
    add(id=f"mlperf51-uf-dgxb200-ndr-llama31-405b-tp4pp8-{n}node",
        series="mlperf-v5.1-uf-dgxb200-llama31-405b-tp4pp8vp8cp2-mb144",
        source=UF405_SRC.format(n), source_group=UF_GROUP,
        quote="MLPerf Training v5.1, University-of-Florida, llama31_405b. Anchor (32 nodes): " + uf405_quote(32) + ("This run (56 nodes): " + uf405_quote(56) if n == 56 else ""),
        framework="NVIDIA NeMo 2 / Megatron-core (MLPerf reference port, NGC 25.09), FP8, distributed optimizer, TP4 PP8 interleaved x8, CP2, CUDA graphs",
        input=dict(sync="zero1", model="llama-3.1-405b", dtype="bf16", nodes=n, gpus_per_node=8, gpu="b200", fabric="infiniband", gdr=True,
                   link_gbps=400, adapters_per_node=8, tp=4, pp=8, micro_batches=144, grad_accum_steps=144, seq_len=8192,
                   micro_batch_size=1, bucket_bytes=256 * MIB, overlap_grad_reduce=True, overlap_param_gather=True),
        measured_step_s=meas, baseline_step_s=base,
        baseline_note="anchor row: the 32-node run of the same layout (TP4 PP8 VP8 CP2, 144 micro-batches per pipeline per step); the replay solves the compute from it",
        inferred=[
            "weak scaling with a multi-node anchor at 32 nodes (anchor_nodes 32): the two configs differ only in DGXNNODES (and MAX_STEPS/wall time); MINIBS 144 gives 144 micro-batches per pipeline at both scales (global batch 576 on DP 4, 1008 on DP 7)",
            "step_s = mean over the 3 result files of each file's mean block train_step_time (both logged blocks); noise_s = max - min of the per-file means",
            "context parallelism 2 is not a model input: data-parallel ranks = GPUs / (TP x PP) = 8 and 14, Megatron's DP x CP gradient group; the interleaved schedule (8 virtual stages) is not a model input either",
            "TP communication overlap off: TP_COMM_OVERLAP is commented out in the run configs and defaults to False in custom.yaml",
            "sync zero1, dtype bf16, bucket 256 MiB, overlapped reduce-scatter and all-gather, FP8 parameter all-gather: as for this submission's 8B runs (same b200_nemo code, copied under llama31_405b)",
            "fabric: DGX B200 with 8 x 400 Gb/s ConnectX-7 InfiniBand (NDR) compute ports assumed from the DGX B200 design; GPUDirect RDMA on assumed",
        ],
        noise_s=spread,
        noise_basis="own spread: max - min of the per-result-file mean step over the submission's 3 result files",
        anchor_nodes=32)

# ---------------------------------------------------------------------------------------------------------------
# 3. Nemotron-4 15B technical report (NVIDIA, arXiv 2402.16819v2): batch-size ramp at 96/192/288 DGX H100 nodes,
#    TP8 x DP with 4 sequences per DP rank at every stage (weak scaling), iteration time per stage.
# ---------------------------------------------------------------------------------------------------------------
N4_SRC = "https://arxiv.org/abs/2402.16819v2"
N4_GROUP = "nemotron-4-15b-report: NVIDIA's Nemotron-4 15B technical report (384 DGX H100 nodes)"
N4_Q = ("Number of Hidden Number of Number of Sequence Vocabulary transformer layers dimension attention heads KV heads length size\n\n"
        "32 6144 48 8 4096 256,000 Table 1: Key hyper-parameters affecting size of Nemotron-4 15B.\n"
        "Nemotron-4 has 3.2 billion embedding parameters and 12.5 billion non-embedding parameters. ... untied input-output embeddings.\n"
        "Pre-training. Nemotron-4 was trained using 384 DGX H100 nodes; each node contains 8 H100 80GB SXM5 GPUs based on the NVIDIA Hopper architecture (NVIDIA, 2022). "
        "Each H100 GPU has a peak throughput of 989 teraFLOP/s when doing 16-bit floating point (bfloat16) arithmetic without sparsity. "
        "Within each node, GPUs are connected by NVLink and NVSwitch (nvl); the GPU-to-GPU bandwidth is 900 GB/s (450 GB/s in each direction). "
        "Each node has 8 NVIDIA Mellanox 400 Gbps HDR InfiniBand Host Channel Adapters (HCAs) for inter-node communication.\n\n"
        "We used a combination of 8-way tensor parallelism (Shoeybi et al., 2019) and data parallelism to train the model; we also use a distributed optimizer to shard the optimizer state over the data-parallel replicas. "
        "The degree of data parallelism was varied from 96 to 384 as the batch size was ramped up. Table 2 summarizes the 3 stages of batch size ramp, and includes the per-iteration time and model FLOP/s utilization (MFU) (Chowdhery et al., 2022; Korthikanti et al., 2022). "
        "MFU quantifies how efficiently the GPUs are utilized in model training. Training was completed in approximately 13 calendar days.\n\n"
        "Data-parallel size GPUs Iteration time (secs) MFU (%) Batch size Tokens (B) Time (days)\n\n"
        "96 768 0.57 34.3 384 200 0.8 192 1,536 0.58 33.3 768 200 0.4 288 2,304 0.64 30.5 1,152 7,600 11.9\n\n"
        "- Table 2: Batch size rampup schedule, along with time and efficiency metrics for the Nemotron-4 15B parameter model.")
# data-parallel size: (GPUs, iteration time s, batch size)
N4_ROWS = {96: (768, 0.57, 384), 192: (1536, 0.58, 768), 288: (2304, 0.64, 1152)}
for dp in (96, 192, 288):
    gpus, it, gbs = N4_ROWS[dp]
    nodes = gpus // 8
    add(id=f"nemotron4-15b-dgxh100-ndr8-tp8-dp{dp}",
        series="nemotron4-15b-dgxh100-tp8-batch-ramp",
        source=N4_SRC, source_group=N4_GROUP, quote=N4_Q,
        framework="Megatron-LM (NVIDIA), bf16, TP8 + data parallel with the distributed optimizer",
        input=dict(sync="zero1", params=3.2e9 + 12.5e9, dtype="fp32", nodes=nodes, gpus_per_node=8, gpu="h100-sxm", fabric="infiniband",
                   gdr=True, link_gbps=400, adapters_per_node=8, tp=8, grad_accum_steps=4, seq_len=4096, micro_batch_size=1),
        measured_step_s=it, baseline_step_s=N4_ROWS[96][1],
        baseline_note="anchor row: the first batch-ramp stage (96 nodes, DP 96) of the same table, same per-GPU work; the replay solves the compute from it",
        inferred=[
            f"weak scaling with a multi-node anchor at 96 nodes (anchor_nodes 96): batch size / data-parallel size = 4 sequences of 4096 per DP rank at every stage ({gbs} / {dp} = {gbs // dp}), TP8 = one DP rank per node",
            "nodes = GPUs / 8; the text's 'varied from 96 to 384' disagrees with the table, whose last stage is DP 288 on 2,304 GPUs; the table is used",
            "micro-batch size not stated: micro_batch_size 1 and grad_accum_steps 4 assumed; the gradient sync is once per iteration whatever the split",
            "params = 3.2e9 embedding + 12.5e9 non-embedding as stated (15.7e9); no catalog model (32 layers, hidden 6144, 48 heads, 8 KV heads, vocab 256,000, squared-ReLU MLP)",
            "sync zero1: Megatron's distributed optimizer ('shard the optimizer state over the data-parallel replicas')",
            "dtype fp32: Megatron-LM accumulates and reduces bf16 runs' gradients in fp32 by default ('bfloat16 requires gradient accumulation and all-reduce to be done in fp32', megatron/training/arguments.py); not stated in the report",
            "overlap of the gradient reduce-scatter and parameter all-gather not stated: the model's defaults are used",
            "fabric: 8 x 400 Gb/s InfiniBand HCAs per node as stated (the report calls them HDR; 400 Gb/s is NDR); GPUDirect RDMA on assumed",
            "iteration times are given to 0.01 s (about 2% of the step), the same size as the 2% noise",
            "sequence parallelism and the TP communication inside the node are part of the compute (given)",
        ],
        anchor_nodes=96)

# ---------------------------------------------------------------------------------------------------------------
# 4. MLPerf Training v3.0, NVIDIA: GPT-3 175B on 64 and 96 DGX H100 nodes, the same layout (TP4 PP8 VP12, 128
#    micro-batches per pipeline per step); the logs give train_step_timing for every step.
# ---------------------------------------------------------------------------------------------------------------
G30_COMMIT = "63e326c400f5d8bb8c6070a9ab08332d4931152e"
G30_SRC = "https://github.com/mlcommons/training_results_v3.0/tree/" + G30_COMMIT + "/NVIDIA/results/dgxh100_n{}_nemo/gpt3"
G30_GROUP = "mlperf-v3.0-nvidia-dgxh100-gpt3: NVIDIA's MLPerf Training v3.0 GPT-3 submissions (DGX H100, 8x NDR 400)"
G30_GBS = {64: 2048, 96: 3072}
G30_CFG_Q = ("NVIDIA/benchmarks/gpt3/implementations/pytorch (same commit): config_DGXH100_{n}x8x128x4x8_mbs1.sh: 'export MINIBS=128' "
             "'export TENSOR_MODEL_PARALLEL=4   #  training.model.tensor_model_parallel_size' 'export PIPELINE_MODEL_PARALLEL=8 #  training.model.pipeline_model_parallel_size' "
             "'export DGXNNODES=\"${{DGXNNODES:-{n}}}\"' 'export MICRO_BATCH_SIZE=1'; config_common.sh: 'export INTERLEAVED_PIPELINE=12' 'export USE_DIST_OPTIMIZER=True' "
             "'export GLOBAL_BATCH_SIZE=$((MINIBS * DATA_PARALLEL))'; config_tp_h100.sh: 'export TP_COMM_OVERLAP=True'; conf/megatron_gpt_config.yaml: 'name: distributed_fused_adam' "
             "'bucket_cap_mb: 100' 'overlap_grad_sync: True' 'overlap_param_sync: True' 'grad_sync_dtype: bf16' 'sequence_parallel: True' 'activations_checkpoint_granularity: selective'; "
             "systems/dgxh100_n{n}_nemo.json: '\"host_networking\": \"Storage: 2x ConnectX-7 IB NDR 400Gb/s, Compute: 8x ConnectX-7 IB NDR 400Gb/s, Management: 100Gb/s Ethernet NIC\"'\n"
             "results/dgxh100_n{n}_nemo/gpt3/result_*.txt: '\"key\": \"submission_platform\", \"value\": \"{n}xNVIDIA DGX H100\"' '\"key\": \"global_batch_size\", \"value\": {gbs}' "
             "'\"key\": \"gradient_accumulation_steps\", \"value\": 128' '\"key\": \"max_sequence_length\", \"value\": 2048'; "
             "'\"key\": \"tracked_stats\", \"value\": {{\"train_step_timing\": ...}}' of every step between the first eval_stop and the second eval_start: ")


def g30_quote(n):
    return G30_CFG_Q.format(n=n, gbs=G30_GBS[n]) + fmt_lists(GPT3V30_STEPS[n], "train_step_timing") + "\n"


for n in (64, 96):
    meas, spread = runs_summary(GPT3V30_STEPS[n])
    base, _ = runs_summary(GPT3V30_STEPS[64])
    add(id=f"mlperf30-nvidia-dgxh100-ndr8-gpt3-175b-tp4pp8-{n}node",
        series="mlperf-v3.0-nvidia-dgxh100-gpt3-175b-tp4pp8vp12-mb128",
        source=G30_SRC.format(n), source_group=G30_GROUP,
        quote="MLPerf Training v3.0, NVIDIA, gpt3. Anchor (64 nodes): " + g30_quote(64) + ("This run (96 nodes): " + g30_quote(96) if n == 96 else ""),
        framework="NVIDIA NeMo (Megatron GPT, FP8 via Transformer Engine) with apex distributed_fused_adam, TP4 PP8 interleaved x12, sequence parallel, TP comm overlap",
        input=dict(sync="zero2", model="gpt3-175b", dtype="bf16", nodes=n, gpus_per_node=8, gpu="h100-sxm", fabric="infiniband", gdr=True,
                   link_gbps=400, adapters_per_node=8, tp=4, pp=8, micro_batches=128, grad_accum_steps=128, seq_len=2048,
                   micro_batch_size=1, bucket_bytes=100 * MIB, overlap_grad_reduce=True, overlap_param_gather=True, tp_overlap=True),
        measured_step_s=meas, baseline_step_s=base,
        baseline_note="anchor row: the 64-node run of the same layout (TP4 PP8, 128 micro-batches of 1 sequence per pipeline per step); the replay solves the compute from it",
        inferred=[
            "weak scaling with a multi-node anchor at 64 nodes (anchor_nodes 64): both configs have MINIBS 128 (sequences per data-parallel rank per step), TP4 PP8, micro-batch 1; the global batch is MINIBS x DP (2048 on DP 16, 3072 on DP 24)",
            "step_s = mean over the 3 result files of each file's mean train_step_timing over the steps between the first eval_stop and the second eval_start (12 steps at 64 nodes, 8 at 96: the evaluation interval is 24,576 sequences); noise_s = max - min of the per-file means",
            "sync zero2: apex distributed_fused_adam shards optimizer state and gradients (gradient reduce-scatter, parameter all-gather), overlapped (overlap_grad_sync/overlap_param_sync True); grad_sync_dtype bf16",
            "bucket_bytes = bucket_cap_mb 100 read as MiB",
            "model = gpt3-175b (the MLPerf GPT-3 benchmark: 96 layers, hidden 12288, seq 2048)",
            "the interleaved pipeline schedule (12 virtual stages per rank) is not a model input",
            "fabric: 8 x NDR 400 Gb/s compute ConnectX-7 per node as the system description states; GPUDirect RDMA on assumed",
            "cluster: NVIDIA's own DGX H100 cluster of the v3.0 round (the system description names no cluster). The kept-aside list names MLPerf v3.1 NVIDIA EOS results; this is a different round and different runs, possibly on the same machine",
        ],
        noise_s=spread,
        noise_basis="own spread: max - min of the per-result-file mean step over the submission's 3 result files",
        anchor_nodes=64)

# ---------------------------------------------------------------------------------------------------------------
# 5. MLPerf Training v5.0, CoreWeave + IBM + NVIDIA, Carina (GB200 NVL72): Llama 3.1 405B on 1024 and 1536 GPUs, the
#    same layout (TP4 PP8 VP8 CP2, 48 micro-batches per pipeline per step).
# ---------------------------------------------------------------------------------------------------------------
CA_COMMIT = "0fdc28f013256aea84fa36fdaf1e0fa46094b18c"
CA_SRC = "https://github.com/mlcommons/training_results_v5.0/tree/" + CA_COMMIT + "/IBM+CoreWeave+NVIDIA/results/carina_ngpu{}_ngc25.04_nemo/llama31_405b"
CA_GROUP = "mlperf-v5.0-carina-gb200: CoreWeave + IBM + NVIDIA's MLPerf Training v5.0 Llama 3.1 405B submissions on Carina (GB200 NVL72)"
CA_NODES = {1024: 256, 1536: 384}
CA_GBS = {1024: 768, 1536: 1152}
CA_RACKS = {1024: 16, 1536: 24}
CA_CFG_Q = ("IBM+CoreWeave+NVIDIA/benchmarks/llama31_405b/implementations/carina_ngpu{g}_ngc25.04_nemo (same commit): config_GB200_{nn}x4x48xtp4pp8cp2.sh: 'export MINIBS=48' "
            "'export TENSOR_MODEL_PARALLEL=4' 'export PIPELINE_MODEL_PARALLEL=8' 'export INTERLEAVED_PIPELINE=8' 'export CONTEXT_PARALLEL=2' 'export MICRO_BATCH_SIZE=1' "
            "'export FP8_PARAM_GATHER=True' 'export TP_COMM_OVERLAP=True' 'export DGXNNODES={nn}' 'export DGXNGPU=4'; config_common.sh: 'export USE_DIST_OPTIMIZER=True' "
            "'export OVERLAP_GRAD_REDUCE=True' 'export OVERLAP_PARAM_GATHER=True' 'export FP8=True'; conf/custom.yaml: 'bucket_size: ${{oc.decode:${{oc.env:BUCKET_SIZE,200}}}}'; "
            "pretrain.py: 'grad_reduce_in_fp32=False,'; systems/carina_ngpu{g}_ngc25.04_nemo.json: '\"system_name\": \"Carina ({r}x NVIDIA GB200 NVL72)\"' "
            "'\"number_of_nodes\": \"{nn}\"' '\"host_networking\": \"4x ConnectX-7 IB NDR 400Gb/s\"' '\"accelerators_per_node\": \"4\"'\n"
            "results/carina_ngpu{g}_ngc25.04_nemo/llama31_405b/result_*.txt: '\"key\": \"global_batch_size\", \"value\": {gbs}' '\"key\": \"gradient_accumulation_steps\", \"value\": 48.0'; "
            "block means logged by mlperf_common/callbacks/logging.py at each block_stop as '\"key\": \"tracked_stats\", \"value\": {{\"train_step_time\": ...}}', first 6 blocks of each run: ")


def ca_quote(g):
    return CA_CFG_Q.format(g=g, nn=CA_NODES[g], gbs=CA_GBS[g], r=CA_RACKS[g]) + fmt_lists(CARINA_BLOCKS[g], "train_step_time") + "\n"


for g in (1024, 1536):
    meas, spread = runs_summary(CARINA_BLOCKS[g])
    base, _ = runs_summary(CARINA_BLOCKS[1024])
    add(id=f"mlperf50-carina-gb200-nvl72-ndr4-llama31-405b-{g}gpu",
        series="mlperf-v5.0-carina-gb200-llama31-405b-tp4pp8vp8cp2-mb48",
        source=CA_SRC.format(g), source_group=CA_GROUP,
        quote="MLPerf Training v5.0, IBM+CoreWeave+NVIDIA, llama31_405b. Anchor (1024 GPUs): " + ca_quote(1024) + ("This run (1536 GPUs): " + ca_quote(1536) if g == 1536 else ""),
        framework="NVIDIA NeMo 2 / Megatron-core (NGC 25.04), FP8, distributed optimizer, TP4 PP8 interleaved x8, CP2, TP comm overlap",
        input=dict(sync="zero1", model="llama-3.1-405b", dtype="bf16", nodes=CA_NODES[g], gpus_per_node=4, gpu="gb200", nvlink_domain_gpus=64,
                   fabric="infiniband", gdr=True, link_gbps=400, adapters_per_node=4, tp=4, pp=8, micro_batches=48, grad_accum_steps=48,
                   seq_len=8192, micro_batch_size=1, overlap_grad_reduce=True, overlap_param_gather=True, tp_overlap=True),
        measured_step_s=meas, baseline_step_s=base,
        baseline_note="anchor row: the 1024-GPU (256-tray) run of the same layout (TP4 PP8 VP8 CP2, 48 micro-batches per pipeline per step); the replay solves the compute from it",
        inferred=[
            "weak scaling with a multi-node anchor at 256 nodes (anchor_nodes 256): the two configs differ only in DGXNNODES (and wall time); MINIBS 48 gives 48 micro-batches per pipeline at both scales (global batch 768 on DP 16, 1152 on DP 24)",
            "a node is one GB200 compute tray (4 GPUs, 4 x NDR 400 ConnectX-7, as the system description states)",
            "nvlink_domain_gpus = 64: the 1024-GPU run used 16 NVL72 racks for 256 trays and the 1536-GPU run 24 racks for 384 trays (system_name), i.e. 16 trays = 64 GPUs of each rack; one model replica (TP4 x PP8 x CP2 = 64 GPUs) then fits one rack's NVLink domain and only the data-parallel traffic crosses InfiniBand (assumed rank placement)",
            "context parallelism 2 is not a model input: data-parallel ranks = GPUs / (TP x PP) = 32 and 48, which is Megatron's DP x CP gradient group",
            "step_s = mean over the 3 result files of each file's mean block train_step_time (first 6 evaluation blocks, 46,080 sequences each); noise_s = max - min of the per-file means",
            "sync zero1 (Megatron-core distributed optimizer, overlapped reduce-scatter and all-gather); dtype bf16 (grad_reduce_in_fp32=False); the parameter all-gather is FP8 (FP8_PARAM_GATHER), which the model cannot express",
            "bucket size: megatron-core bucket_size = 200 parameters closes a bucket at every parameter tensor, so each weight tensor is its own bucket; bucket_bytes is left at the model's default",
            "config_common_blackwell.sh, sourced by the run configs, is not in the submission; its settings are unknown",
            "GPUDirect RDMA on assumed (not stated)",
        ],
        noise_s=spread,
        noise_basis="own spread: max - min of the per-result-file mean step over the submission's 3 result files",
        anchor_nodes=256)

# ---------------------------------------------------------------------------------------------------------------
# 6. MLPerf Training v4.0, NVIDIA: GPT-3 175B on Eos-dfw at 1344 and 1452 DGX H100 nodes (10,752 and 11,616 GPUs), the
#    same layout (TP4 PP6 VP8, 6 micro-batches per pipeline per step); step from the block_start/block_stop times.
# ---------------------------------------------------------------------------------------------------------------
ED_COMMIT = "6fe954378efe4a1a1bd665550b18ff8f26018def"
ED_SRC = "https://github.com/mlcommons/training_results_v4.0/tree/" + ED_COMMIT + "/NVIDIA/results/eos-dfw_n{}_ngc24.04_nemo/gpt3"
ED_GROUP = "mlperf-v4.0-nvidia-eos-dfw-gpt3: NVIDIA's MLPerf Training v4.0 GPT-3 submissions on Eos-dfw (DGX H100, 8x NDR 400)"
ED_GBS = {1344: 2688, 1452: 2904}
ED_CFG_Q = ("NVIDIA/benchmarks/gpt3/implementations/nemo (same commit): config_DGXH100_{n}x8x6x4x6_mbs1_cg.sh: 'export MINIBS=\"${{MINIBS:=6}}\"' "
            "'export TENSOR_MODEL_PARALLEL=\"${{TP:=4}}\"   #  training.model.tensor_model_parallel_size' 'export PIPELINE_MODEL_PARALLEL=\"${{PP:=6}}\" #  training.model.pipeline_model_parallel_size' "
            "'export DGXNNODES=\"${{DGXNNODES:={n}}}\"' 'export MICRO_BATCH_SIZE=1' 'export TP_COMM_OVERLAP=True' 'export INTERLEAVED_PIPELINE=8'; "
            "config_common.sh: 'export USE_DIST_OPTIMIZER=True' 'export BUCKET_CAP_MB=200' 'export FP8_PARAMS=True'; run_and_time.sh: 'EXTRA_ARGS+=\" optim@model.optim=distributed_fused_adam\"'; "
            "conf/optim/distributed_fused_adam.yaml: 'bucket_cap_mb: ${{oc.decode:${{oc.env:BUCKET_CAP_MB,100}}}}' 'overlap_grad_sync: ${{oc.decode:${{oc.env:OVERLAP_GRAD_SYNC,True}}}}' "
            "'overlap_param_sync: ${{oc.decode:${{oc.env:OVERLAP_PARAM_SYNC,True}}}}' 'grad_sync_dtype: bf16'; systems/eos-dfw_n{n}_ngc24.04_nemo.json: '\"system_name\": \"Eos-dfw_n{n}\"' "
            "'\"host_networking\": \"Storage+Management: 1x NVIDIA BlueField 2 DPU 100Gb/s, Compute: 8x NVIDIA ConnectX-7 IB NDR 400Gb/s\"'\n"
            "results/eos-dfw_n{n}_ngc24.04_nemo/gpt3/result_*.txt: '\"key\": \"global_batch_size\", \"value\": {gbs}' '\"key\": \"gradient_accumulation_steps\", \"value\": 6' '\"key\": \"max_sequence_length\", \"value\": 2048'; "
            "(block_start time_ms, block_stop time_ms, epoch_count) of blocks 2 to 6 of each run: ")


def ed_quote(n):
    return ED_CFG_Q.format(n=n, gbs=ED_GBS[n]) + fmt_lists(EOSDFW_BLOCKS[n], "blocks") + "\n"


def ed_steps(n):
    """Per-file mean step: block time / steps in the block; epoch_count counts tokens (sequences x 2048)."""
    return {f: [(stop - start) / 1000 / (count / (ED_GBS[n] * 2048)) for start, stop, count in v] for f, v in EOSDFW_BLOCKS[n].items()}


for n in (1344, 1452):
    meas, spread = runs_summary(ed_steps(n))
    base, _ = runs_summary(ed_steps(1344))
    add(id=f"mlperf40-nvidia-eosdfw-dgxh100-ndr8-gpt3-175b-tp4pp6-{n}node",
        series="mlperf-v4.0-nvidia-eos-dfw-gpt3-175b-tp4pp6vp8-mb6",
        source=ED_SRC.format(n), source_group=ED_GROUP,
        quote="MLPerf Training v4.0, NVIDIA, gpt3. Anchor (1344 nodes): " + ed_quote(1344) + ("This run (1452 nodes): " + ed_quote(1452) if n == 1452 else ""),
        framework="NVIDIA NeMo 24.04 (Megatron-core GPT, FP8, CUDA graphs) with apex distributed_fused_adam, TP4 PP6 interleaved x8, TP comm overlap",
        input=dict(sync="zero2", model="gpt3-175b", dtype="bf16", nodes=n, gpus_per_node=8, gpu="h100-sxm", fabric="infiniband", gdr=True,
                   link_gbps=400, adapters_per_node=8, tp=4, pp=6, micro_batches=6, grad_accum_steps=6, seq_len=2048,
                   micro_batch_size=1, bucket_bytes=200 * MIB, overlap_grad_reduce=True, overlap_param_gather=True, tp_overlap=True),
        measured_step_s=meas, baseline_step_s=base,
        baseline_note="anchor row: the 1344-node run of the same layout (TP4 PP6 VP8, 6 micro-batches per pipeline per step); the replay solves the compute from it",
        inferred=[
            "weak scaling with a multi-node anchor at 1344 nodes (anchor_nodes 1344): both configs have MINIBS 6, TP4 PP6 VP8, micro-batch 1 and differ only in DGXNNODES; the global batch is 6 x DP (2688 on DP 448, 2904 on DP 484). The two scales differ by only 8% in GPUs",
            "step_s = (block_stop - block_start) / steps in the block, steps = epoch_count / (global batch x 2048): MLPerf GPT-3 counts epoch_count in tokens (55,050,240 = 10 steps of 2688 x 2048; 53,526,528 = 9 steps of 2904 x 2048); blocks 2 to 6 of each of the 3 result files (the first block holds warm-up); step = mean of the per-file means; noise_s = max - min of the per-file means",
            "the block time includes only training steps (evaluation runs between block_stop and the next block_start); the logs have no per-step timing",
            "sync zero2: apex distributed_fused_adam (run_and_time.sh selects it when USE_DIST_OPTIMIZER=True), overlapped, grad_sync_dtype bf16; bucket_bytes = BUCKET_CAP_MB 200 read as MiB",
            "model = gpt3-175b; the interleaved pipeline schedule (8 virtual stages) is not a model input",
            "fabric: 8 x NDR 400 Gb/s compute ConnectX-7 per node as stated; GPUDirect RDMA on assumed",
            "cluster: Eos-dfw, not the Eos of the kept-aside MLPerf v3.1 NVIDIA results (different round, runs and system name)",
        ],
        noise_s=spread,
        noise_basis="own spread: max - min of the per-result-file mean step over the submission's 3 result files",
        anchor_nodes=1344)

# ---------------------------------------------------------------------------------------------------------------
# 7. NVIDIA JAX-Toolbox (Rosetta) ViT README: ViT-G/14 pre-training weak scaling on 8, 32 and 64 GPUs (1, 4, 8 DGX A100
#    nodes), pure data parallel, 16 images per GPU.
# ---------------------------------------------------------------------------------------------------------------
VIT_SRC = "https://github.com/NVIDIA/JAX-Toolbox/blob/fd58524298f6b5ab75db525dfee402ece5166690/rosetta/rosetta/projects/vit/README.md"
VIT_GROUP = "jax-toolbox-vit: NVIDIA JAX-Toolbox Rosetta ViT README (DGX A100 80GB)"
VIT_Q = ("## Hardware Specifications\nConvergence and performance has been validated on NVIDIA DGX A100 (8x A100 80G) nodes. "
         "Pretraining and fine-tuning of ViT/B-16 can be performed on a single DGX A100 80G node.\n"
         "### ViT-G/14\n\n### Weak Scaling\n"
         "| Size     |Number of Parameters | #GPUs | BS / GPU | GBS |  Data Parallel | Model Parallel | Samples/Sec/Core | TFLOPs/sec | Scaling Efficiency |\n"
         "|G/14 |    1.85B      | 8    |     16       |    128       |    8       |   1       |          34.63           |   718.44  | 1 |\n"
         "|G/14 |    1.85B      | 32    |     16       |    512       |    32       |   1       |            30.36          |   2519.30  | 0.88 |\n"
         "|G/14 |    1.85B      | 64    |     16       |    1026       |    64       |   1       |          27.92           |   4634.10  | 0.81 |\n"
         "scripts/multiprocess_pretrain.sh (same commit): 'export XLA_FLAGS=\"--xla_gpu_simplify_all_fp_conversions --xla_gpu_all_reduce_combine_threshold_bytes=136314880 ${XLA_FLAGS}\"'; "
         "scripts/example_slurm_pretrain.sub: 'GRAD_ACCUM=${GRAD_ACCUM:=1}'")
VIT_SPS = {1: 34.63, 4: 30.36, 8: 27.92}
for nodes in (4, 8):
    add(id=f"jaxtoolbox-vit-g14-dgxa100-ib-dp-{nodes}node",
        series="jax-toolbox-vit-g14-dgxa100-dp-bs16",
        source=VIT_SRC, source_group=VIT_GROUP, quote=VIT_Q,
        framework="JAX / T5X (NVIDIA Rosetta ViT), pure data parallel via pjit, XLA all-reduce",
        input=dict(sync="ddp", params=1.85e9, dtype="fp32", nodes=nodes, gpus_per_node=8, gpu="a100-sxm4-80gb", fabric="infiniband", gdr=True,
                   link_gbps=200, adapters_per_node=8, grad_accum_steps=1, micro_batch_size=16, bucket_bytes=136314880),
        measured_step_s=16 / VIT_SPS[nodes], baseline_step_s=16 / VIT_SPS[1],
        baseline_note="single-node row of the same weak-scaling table (8 GPUs, 16 images per GPU); step = 16 / Samples/Sec/Core",
        inferred=[
            "step_s = BS/GPU 16 / Samples/Sec/Core (images per second per GPU)",
            "nodes = #GPUs / 8 (DGX A100); the table does not name the GPU: A100 80GB from the README's hardware section (the B/16 table next to it has A100 and H100 columns)",
            "grad_accum_steps 1: the weak-scaling table has no accumulation column and the submit script defaults GRAD_ACCUM to 1",
            "sync ddp: pure data parallel (Model Parallel 1), one XLA all-reduce of the gradients per step; bucket_bytes = XLA all-reduce combine threshold 136,314,880 bytes from the pretrain scripts (at the README's commit, not necessarily the run's)",
            "dtype fp32: T5X keeps fp32 parameters and the gradients are reduced in the parameter dtype (assumed; the compute dtype is bf16)",
            "fabric: DGX A100 with 8 x 200 Gb/s HDR InfiniBand compute ports assumed (not stated); GPUDirect RDMA on assumed",
            "the 64-GPU row's GBS 1026 is read as 1024 (16 x 64)",
            "the JAX/XLA all-reduce schedule of the run (latency-hiding scheduler and async collective flags) is unknown",
        ])

about = ("Public multi-node training runs collected on 2026-12 for weak scaling at many GPU counts, blind (nothing was run through "
         "the model). Same format as ../later/runs.json: noise_s is the run's own reported spread in seconds, else 2% of the "
         "compute, and noise_basis says which. Where a source has a single-node row with the same per-GPU work, the baseline is "
         "that row's step. Where the smallest scale of a weak-scaling table is already multi-node, the baseline is that anchor "
         "row's own measured step and the run carries anchor_nodes (the anchor's node count, right after baseline_step_s); "
         "the anchor row is a run too, with anchor_nodes equal to its nodes, and the replay solves the compute from it. "
         "compute.ms equals baseline_step_s. Nothing is fitted. See NOTES.md for the sources looked at and rejected.")
write(__file__, about, RUNS)
