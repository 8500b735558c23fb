#!/usr/bin/env python3
"""Builds runs.json (beside this script) from the quoted numbers below. Every number that enters a step time is a literal
copied from the quote of its run; the arithmetic is here so it can be checked. Same conventions as ../collected/build.py."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from build_runs import MIB, run, write  # noqa: E402

RUNS = []


def add(**kw):
    RUNS.append(run(**kw))


# ---------------------------------------------------------------------------------------------------------------
# 1. NVIDIA NeMo Framework Launcher README (NeMo Framework 23.07 era): GPT 5B and BERT 4B, 1..32 DGX A100 80GB nodes,
#    Megatron data parallel with NeMo's distributed (ZeRO-style) Adam, TP1 PP1.
# ---------------------------------------------------------------------------------------------------------------
NEMO_SRC = "https://github.com/NVIDIA/NeMo-Framework-Launcher/blob/003d7e63b47809e2fcba77bc3f76be67ce78c8f1/README.md"
NEMO_GROUP = "nemo-launcher-superpod-a100: NeMo Framework Launcher README's scaling tables, one DGX SuperPOD (A100 80GB)"
NEMO_INTRO = ("NeMo Framework allows developers to effectively train and scale language\nmodels to billions of parameters. ... "
              "This deep learning (DL) software stack is optimized for DGX\nSuperPOD configurations using NVIDIA InfiniBand technology\n")
GPT5_Q = ("#### 7.1.2. Training Performance Results\nTraining performance: \n - NVIDIA DGX SuperPOD (16 x 8 x A100 80GB for 5B GPT model)\n"
          "We measured the throughput of training 5B and 175B parameter GPT models on \ndifferent numbers of DGX nodes, and we achieved near-linear\n"
          "scaling. For example, when scaling from 1 node to 32 nodes with a 5B model, we achieve a 28.73x\nspeed-up.\n"
          "|      |                                 | 1      | 2      | 4      | 8      | 16     | 32      |\n"
          "|      | Tokens per Second               | 40345  | 79815  | 161754 | 312774 | 659481 | 1159288 |\n"
          "| 5B   | Perfect Linear Scaling (Tokens) | 40345  | 80690  | 161380 | 322760 | 645520 | 1291040 |\n")
GPT5_CFG_Q = ("config (other version of the same repository, https://github.com/NVIDIA/NeMo-Framework-Launcher/blob/00af8f261f73a3eda179c4e67a467d61792f54d3/launcher_scripts/conf/training/gpt3/5b.yaml): "
              "'precision: bf16' 'micro_batch_size: 4' 'global_batch_size: 2048' 'tensor_model_parallel_size: 1' 'pipeline_model_parallel_size: 1' "
              "'encoder_seq_length: 2048' 'num_layers: 24' 'hidden_size: 4096' 'ffn_hidden_size: ${multiply:4, ${.hidden_size}}' "
              "'make_vocab_size_divisible_by: 128' 'megatron_amp_O2: True' 'optim: name: distributed_fused_adam bucket_cap_mb: 400 overlap_grad_sync: True overlap_param_sync: true'")
GPT5_TPS = {1: 40345, 2: 79815, 4: 161754, 8: 312774, 16: 659481, 32: 1159288}
GPT5_GBS, GPT5_SEQ, GPT5_MBS = 2048, 2048, 4
H = 4096
GPT5_PARAMS = 24 * (12 * H * H + 13 * H) + 50304 * H + 2048 * H + 2 * H
for nodes in (2, 8, 32):  # 4 and 16 nodes read faster per GPU than 1 node (super-linear), so measured < baseline: left out
    gpus = 8 * nodes
    tok = GPT5_GBS * GPT5_SEQ / gpus
    ga = GPT5_GBS // (gpus * GPT5_MBS)
    add(id=f"nemo-launcher-dgxa100-80g-ib-gpt5b-distadam-{nodes}node",
        series="nemo-launcher-dgxa100-80g-gpt5b-bf16",
        source=NEMO_SRC, source_group=NEMO_GROUP,
        quote=NEMO_INTRO + GPT5_Q + GPT5_CFG_Q,
        framework="NeMo (Megatron-core GPT, megatron_amp_O2 bf16) with NeMo's distributed_fused_adam, TP1 PP1",
        input=dict(sync="zero2", params=GPT5_PARAMS, dtype="fp32", nodes=nodes, gpus_per_node=8, gpu="a100-sxm4-80gb",
                   fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8, grad_accum_steps=ga,
                   seq_len=GPT5_SEQ, micro_batch_size=GPT5_MBS, bucket_bytes=400 * MIB,
                   overlap_grad_reduce=True, overlap_param_gather=True),
        measured_step_s=GPT5_GBS * GPT5_SEQ / GPT5_TPS[nodes],
        baseline_step_s=tok / (GPT5_TPS[1] / 8),
        baseline_note=f"1-node column of the same table (same micro-batch 4, TP1 PP1); with the global batch fixed at 2048 the 1-node run accumulates {GPT5_GBS // (8 * GPT5_MBS)} micro-batches against {ga} here; step_equiv_s = per-GPU tokens of the multi-node step / 1-node tokens/s per GPU",
        inferred=[
            "global batch 2048, micro-batch 4, TP1 PP1, seq 2048 taken from gpt3/5b.yaml at a later commit (00af8f2) than the README (003d7e6): the README does not state the configuration of its scaling runs",
            f"grad_accum_steps = 2048 / (GPUs x 4) = {ga} on {nodes} nodes (64 on 1 node); assumes the global batch stayed 2048 at every node count",
            "step_s = 2048 x 2048 tokens / Tokens per Second; baseline.step_equiv_s = (2048 x 2048 / GPUs) / (40345 / 8)",
            f"params = {GPT5_PARAMS:,} counted from the config (24 layers x (12h^2+13h), h 4096, vocab 50257 padded to 50304, 2048 learned positions, final LayerNorm)",
            "sync zero2: apex/NeMo distributed_fused_adam shards optimizer state and gradients (reduce-scatter of gradients, all-gather of parameters); overlap_grad_sync/overlap_param_sync true in the config",
            "dtype fp32: the gradient reduce-scatter dtype of distributed_fused_adam is not set in the config; apex's default (the fp32 main-parameter dtype) is assumed, not verified",
            "bucket_bytes = bucket_cap_mb 400 read as MiB",
            "fabric: 'DGX SuperPOD ... NVIDIA InfiniBand' stated; 8 x 200 Gb/s HDR compute ports per DGX A100 assumed from the DGX SuperPOD design (not stated in the README)",
            "GPUDirect RDMA on assumed (not stated)",
            "the 4-node (161754 > 161380) and 16-node (659481 > 645520) rows scale super-linearly, so their measured step is below the baseline; left out. They suggest a run-to-run noise of about 2%",
        ])

BERT4_Q = ("#### 7.4.2. Training Performance Results\nTraining Performance: NVIDIA DGX SuperPOD (20 x 8 x A100 80GB for 4B BERT Model)\n"
           "We measured the throughput of training a 4B parameter BERT model on NVIDIA DGX\nSuperPOD using a different number of nodes. When scaling from 1 node to 16 nodes, we achieve 12.71x\nspeed-up. \n"
           "|         |                                    | 1      | 2       | 4       | 8       | 16      | \n"
           "|         | Tokens per Second                  | 57287  | 108695  | 215358  | 393167  | 728178  | \n"
           "| 4B      | Perfect Linear Scaling (Tokens)    | 57287  | 114574  | 229148  | 458296  | 916592  | \n"
           "#### 7.4.3. Training Performance Results (LDDL)\n"
           "| 4b          | 1.794                   | 1.393                | 16 Nodes TP 1 PP1 GBS 2048 | 108.900         | 140.400      | 28.79%      |\n")
BERT4_CFG_Q = ("config (other version of the same repository, https://github.com/NVIDIA/NeMo-Framework-Launcher/blob/056a90edf9140a32bfd39652509244e7db055651/launcher_scripts/conf/training/bert/4b.yaml): "
               "'precision: bf16' 'global_batch_size: 2048' 'micro_batch_size: 8' 'tensor_model_parallel_size: 1' 'pipeline_model_parallel_size: 1' "
               "'encoder_seq_length: 512' 'num_layers: 48' 'hidden_size: 2560' 'megatron_amp_O2: True' 'grad_allreduce_chunk_size_mb: 125' "
               "'activations_checkpoint_granularity: selective' 'optim: name: distributed_fused_adam overlap_grad_sync: False bucket_cap_mb: ${training.model.grad_allreduce_chunk_size_mb}'")
BERT4_TPS = {1: 57287, 2: 108695, 4: 215358, 8: 393167, 16: 728178}
BERT4_GBS, BERT4_SEQ, BERT4_MBS = 2048, 512, 8
HB = 2560
BERT4_PARAMS = 48 * (12 * HB * HB + 13 * HB) + 30592 * HB + 512 * HB + 2 * HB * 2 + (HB * HB + HB + 2 * HB + 30592)
for nodes in (2, 4, 8, 16):
    gpus = 8 * nodes
    tok = BERT4_GBS * BERT4_SEQ / gpus
    ga = BERT4_GBS // (gpus * BERT4_MBS)
    add(id=f"nemo-launcher-dgxa100-80g-ib-bert4b-distadam-{nodes}node",
        series="nemo-launcher-dgxa100-80g-bert4b-bf16",
        source=NEMO_SRC, source_group=NEMO_GROUP,
        quote=NEMO_INTRO + BERT4_Q + BERT4_CFG_Q,
        framework="NeMo (Megatron BERT, megatron_amp_O2 bf16) with NeMo's distributed_fused_adam (no grad-sync overlap), TP1 PP1",
        input=dict(sync="zero2", params=BERT4_PARAMS, dtype="fp32", nodes=nodes, gpus_per_node=8, gpu="a100-sxm4-80gb",
                   fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8, grad_accum_steps=ga,
                   seq_len=BERT4_SEQ, micro_batch_size=BERT4_MBS, bucket_bytes=125 * MIB,
                   overlap_grad_reduce=False, overlap_param_gather=False),
        measured_step_s=BERT4_GBS * BERT4_SEQ / BERT4_TPS[nodes],
        baseline_step_s=tok / (BERT4_TPS[1] / 8),
        baseline_note=f"1-node column of the same table (same micro-batch 8, TP1 PP1); with the global batch fixed at 2048 the 1-node run accumulates 32 micro-batches against {ga} here; step_equiv_s = per-GPU tokens of the multi-node step / 1-node tokens/s per GPU",
        inferred=[
            "global batch 2048 (also stated in the README's LDDL table for 16 nodes: 'TP 1 PP1 GBS 2048'), micro-batch 8, seq 512 from bert/4b.yaml at commit 056a90e (a different commit than the README)",
            f"grad_accum_steps = 2048 / (GPUs x 8) = {ga} on {nodes} nodes (32 on 1 node); assumes the global batch stayed 2048 at every node count",
            "step_s = 2048 x 512 tokens / Tokens per Second; baseline.step_equiv_s = (2048 x 512 / GPUs) / (57287 / 8)",
            f"params = {BERT4_PARAMS:,} counted from the config (48 layers x (12h^2+13h), h 2560, BERT WordPiece vocab 30522 padded to 30592, 512 positions, 2 token types, LM-head transform); the README calls it 4B",
            "sync zero2 (distributed_fused_adam); overlap_grad_sync False in the config, so the gradient reduce-scatter runs after the backward pass (overlap_grad_reduce false)",
            "dtype fp32: gradient sync dtype of distributed_fused_adam assumed to be apex's default (fp32), not verified",
            "bucket_bytes = bucket_cap_mb 125 read as MiB",
            "fabric: DGX SuperPOD with 8 x 200 Gb/s HDR InfiniBand per DGX A100 assumed (not stated)",
            "GPUDirect RDMA on assumed (not stated)",
            "selective activation recomputation is on in the config (not full checkpointing): activation_checkpointing left false",
        ])

TF2_FP16 = ("dtype fp16: mixed-precision runs all-reduce in fp16, verified in the TF2 code: DLE TensorFlow2 BERT "
            "official/modeling/model_training_utils.py @0e20ac8 (another commit than the README's) passes "
            "compression=Compression.fp16 if use_float16 else Compression.none to hvd.allreduce and DistributedGradientTape")

# ---------------------------------------------------------------------------------------------------------------
# 2. NVIDIA DeepLearningExamples TensorFlow2 BERT-large pre-training (Horovod, LAMB), DGX A100 1..32 nodes and
#    DGX-2H 1..32 nodes, accumulation stated per row.
# ---------------------------------------------------------------------------------------------------------------
TF2_SRC = "https://github.com/NVIDIA/DeepLearningExamples/blob/49e23b4597a6fca461321a085d8eb8abf1e215e2/TensorFlow2/LanguageModeling/BERT/README.md"
TF2_A100_HEAD = ("##### Pre-training training performance: Multi-node on NVIDIA DGX A100 (8x A100 80GB)\n\n"
                 "Our results were obtained by running the `scripts/run_pretraining_lamb.sh` training script in the TensorFlow 21.02-py3 NGC container on NVIDIA DGX A100 with 8x A100 40GB GPUs. Performance (in sentences per second) is the steady state throughput.\n\n"
                 "| **Num Nodes** | **Sequence Length** | **Batch size / GPU: mixed precision, TF32** | **Gradient Accumulation: mixed precision, TF32** | **Global Batch Size: mixed precision, FP32** | **Throughput - mixed precision** | **Throughput - TF32** | **Throughput speedup (TF32 - mixed precision)** | **Weak scaling - mixed precision** | **Weak scaling -TF32** |\n")
TF2_A100_ROWS = {
    (1, 128): "|             1 |                 128 | 312 , 176                                   | 32 , 64                                          | 79872 , 90112         | 3803.82\t| 2062.98   | 1.84   |1.00    | 1.00   |",
    (2, 128): "|             2 |                 128 | 312 , 176                                   | 16 , 32                                          | 79872 , 90112         | 7551.37\t| 4084.76   | 1.85   |1.99    | 1.98   |",
    (8, 128): "|             8 |                 128 | 312 , 176                                   | 4 , 8                                            | 79872 , 90112         | 29711.11\t| 16134.02  | 1.84   |7.81    | 7.82   |",
    (32, 128): "|            32 |                 128 | 312 , 176                                   | 1 , 2                                            | 79872 , 90112         | 110280.73\t| 59569.77  | 1.85   |28.99   | 28.88  |",
    (1, 512): "|             1 |                 512 | 40 , 22                                     | 96 , 192                                         | 30720 , 33792         | 749.73\t   | 431.89    | 1.74   |1.00    | 1.00   |",
    (2, 512): "|             2 |                 512 | 40 , 22                                     | 48 , 96                                          | 30720 , 33792         | 1491.87\t| 739.14    | 2.02   |1.99    | 1.71   |",
    (8, 512): "|             8 |                 512 | 40 , 22                                     | 12 , 24                                          | 30720 , 33792         | 5870.83\t| 2926.58   | 2.01   |7.83    | 6.78   |",
    (32, 512): "|            32 |                 512 | 40 , 22                                     | 3 , 6                                            | 30720 , 33792         | 22506.23\t| 11240.5   | 2.00   |30.02   | 26.03  |",
}
# (nodes, seq): (mbs amp, mbs tf32, ga amp, ga tf32, thr amp, thr tf32)
TF2_A100 = {
    (1, 128): (312, 176, 32, 64, 3803.82, 2062.98), (2, 128): (312, 176, 16, 32, 7551.37, 4084.76),
    (8, 128): (312, 176, 4, 8, 29711.11, 16134.02), (32, 128): (312, 176, 1, 2, 110280.73, 59569.77),
    (1, 512): (40, 22, 96, 192, 749.73, 431.89), (2, 512): (40, 22, 48, 96, 1491.87, 739.14),
    (8, 512): (40, 22, 12, 24, 5870.83, 2926.58), (32, 512): (40, 22, 3, 6, 22506.23, 11240.5),
}
TF2_DGX2_HEAD = ("##### Pre-training training performance: Multi-node on NVIDIA DGX-2H V100 (16x V100 32GB)\n\n"
                 "Our results were obtained by running the `run.sub` training script in the TensorFlow 21.02-py3 NGC container using multiple NVIDIA DGX-2 with 16x V100 32GB GPUs. Performance (in sentences per second) is the steady state throughput.\n\n"
                 "| **Num Nodes** | **Sequence Length** | **Batch size / GPU: mixed precision, FP32** | **Gradient Accumulation: mixed precision, FP32** | **Global Batch Size: mixed precision, FP32** | **Throughput - mixed precision** | **Throughput - FP32** | **Throughput speedup (FP32 - mixed precision)** | **Weak scaling - mixed precision** | **Weak scaling - FP32** |\n")
TF2_DGX2_ROWS = {
    1: "|             1 |                 128 | 60 , 32                                     | 64 , 128                                         | 61440 , 65536         | 3528.51\t| 841.72    | 4.19 | 1.00  | 1.00   |",
    4: "|             4 |                 128 | 60 , 32                                     | 16 , 32                                          | 61440 , 65536         | 13370.21\t| 3060.49   | 4.37 | 3.79\t| 3.64   |",
    16: "|            16 |                 128 | 60 , 32                                     | 4 , 8                                            | 61440 , 65536         | 42697.42\t| 10383.57  | 4.11 | 12.1\t| 12.34  |",
    32: "|            32 |                 128 | 60 , 32                                     | 2 , 4                                            | 61440 , 65536         | 84223.16\t| 20094.14  | 4.19 | 23.87\t| 23.87  |",
}
TF2_DGX2 = {1: (60, 32, 64, 128, 3528.51, 841.72), 4: (60, 32, 16, 32, 13370.21, 3060.49),
            16: (60, 32, 4, 8, 42697.42, 10383.57), 32: (60, 32, 2, 4, 84223.16, 20094.14)}
TF2_COMMON_INF = [
    "step_s = per-GPU batch x accumulation / (throughput / GPUs): one optimizer step per accumulated batch",
    "params = 330M, BERT-large as DeepLearningExamples' BERT model tables state (the TF2 README's own model table was not re-read)",
    "sync ddp: Horovod all-reduce of the accumulated gradients once per optimizer step, after the accumulation (DLE TensorFlow2 BERT official/modeling/model_training_utils.py @0e20ac8, step(): hvd.allreduce(g / num_grad_accumulates, ...) for each accumulated gradient)",
    "bucket_bytes = 64 MiB, Horovod's default tensor-fusion threshold (HOROVOD_FUSION_THRESHOLD); not stated",
    "GPUDirect RDMA on assumed (not stated)",
]
for prec in ("amp", "tf32"):
    for seq in (128, 512):
        b = TF2_A100[(1, seq)]
        for nodes in (2, 8, 32):
            r = TF2_A100[(nodes, seq)]
            i = 0 if prec == "amp" else 1
            mbs, ga, thr, thr1 = r[i], r[2 + i], r[4 + i], b[4 + i]
            gpus = 8 * nodes
            add(id=f"dle-tf2-dgxa100-ib-bert-large-{prec}-s{seq}-{nodes}node",
                series=f"dle-tf2-dgxa100-bert-large-pretrain-{prec}-s{seq}",
                source=TF2_SRC,
                source_group="dle-tf2-bert: DeepLearningExamples TensorFlow2 BERT README's multi-node tables (NVIDIA's DGX clusters)",
                quote=TF2_A100_HEAD + TF2_A100_ROWS[(1, seq)] + "\n" + TF2_A100_ROWS[(nodes, seq)],
                framework="TensorFlow 2 + Horovod (NVIDIA DeepLearningExamples BERT, LAMB, NCCL)" + (", AMP" if prec == "amp" else ", TF32"),
                input=dict(sync="ddp", params=330e6, dtype=("fp16" if prec == "amp" else "fp32"), nodes=nodes, gpus_per_node=8,
                           gpu="a100-sxm4-80gb", fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8,
                           grad_accum_steps=ga, seq_len=seq, micro_batch_size=mbs, bucket_bytes=64 * MIB),
                measured_step_s=mbs * ga / (thr / gpus), baseline_step_s=mbs * ga / (thr1 / 8),
                baseline_note=f"1-node row of the same table (same per-GPU batch {mbs}, {b[2 + i]} accumulation steps against {ga} here); step_equiv_s = per-GPU sequences of the multi-node step / 1-node sentences/s per GPU",
                inferred=[
                    f"grad_accum_steps = {ga} as the row states (global batch {mbs} x {ga} x {gpus} = {mbs * ga * gpus}, equal to the stated global batch)",
                    (TF2_FP16 if prec == "amp" else "dtype fp32 (TF32 run)"),
                    "GPU: the table heading says 8x A100 80GB and its text says 8x A100 40GB; a100-sxm4-80gb used (compute is given, and both have the same NVLink)",
                    "fabric: DGX A100 with 8 x 200 Gb/s HDR InfiniBand compute ports assumed (DGX A100 specification; the README states no fabric)",
                ] + TF2_COMMON_INF + ([
                    "the TF32 seq-512 rows lose 14-19% per GPU already at 2 nodes (weak scaling 1.71), much more than the mixed-precision rows with more bytes per second to move: probably not communication alone"
                ] if (prec, seq) == ("tf32", 512) else []))
for prec in ("amp", "fp32"):
    b = TF2_DGX2[1]
    for nodes in (4, 16, 32):
        r = TF2_DGX2[nodes]
        i = 0 if prec == "amp" else 1
        mbs, ga, thr, thr1 = r[i], r[2 + i], r[4 + i], b[4 + i]
        gpus = 16 * nodes
        add(id=f"dle-tf2-dgx2h-ib-bert-large-{prec}-s128-{nodes}node",
            series=f"dle-tf2-dgx2h-bert-large-pretrain-{prec}-s128",
            source=TF2_SRC,
            source_group="dle-tf2-bert: DeepLearningExamples TensorFlow2 BERT README's multi-node tables (NVIDIA's DGX clusters)",
            quote=TF2_DGX2_HEAD + TF2_DGX2_ROWS[1] + "\n" + TF2_DGX2_ROWS[nodes],
            framework="TensorFlow 2 + Horovod (NVIDIA DeepLearningExamples BERT, LAMB, NCCL)" + (", AMP" if prec == "amp" else ", FP32"),
            input=dict(sync="ddp", params=330e6, dtype=("fp16" if prec == "amp" else "fp32"), nodes=nodes, gpus_per_node=16,
                       gpu="v100-sxm2-32gb", intra_node="nvswitch", fabric="infiniband", gdr=True, link_gbps=100,
                       adapters_per_node=8, grad_accum_steps=ga, seq_len=128, micro_batch_size=mbs, bucket_bytes=64 * MIB),
            measured_step_s=mbs * ga / (thr / gpus), baseline_step_s=mbs * ga / (thr1 / 16),
            baseline_note=f"1-node row of the same table (16 GPUs, same per-GPU batch {mbs}, {b[2 + i]} accumulation steps against {ga} here); step_equiv_s = per-GPU sequences of the multi-node step / 1-node sentences/s per GPU",
            inferred=[
                f"grad_accum_steps = {ga} as the row states (global batch {mbs} x {ga} x {gpus} = {mbs * ga * gpus}, equal to the stated global batch)",
                (TF2_FP16 if prec == "amp" else "dtype fp32"),
                "GPU: V100 SXM3 32GB (DGX-2H) read as catalog v100-sxm2-32gb with intra_node nvswitch (DGX-2 NVSwitch)",
                "fabric: DGX-2H with 8 x 100 Gb/s EDR InfiniBand compute ports assumed (DGX-2 specification; not stated)",
                "the seq-512 DGX-2H rows are left out: their accumulation column does not multiply to the stated global batch (e.g. 10 x 96 x 64 = 61440, not 30720)",
            ] + TF2_COMMON_INF)

# ---------------------------------------------------------------------------------------------------------------
# 3. NVIDIA DeepLearningExamples TensorFlow BioBERT (BERT-base pre-training on PubMed, Horovod, LAMB), DGX-1 16G and
#    DGX-2H, 1..32 nodes; the accumulation comes from the same README's pre-training accuracy table.
# ---------------------------------------------------------------------------------------------------------------
BIO_SRC = "https://github.com/NVIDIA/DeepLearningExamples/blob/726e32610ceeed1ead90135a3b5c5eab5f69a7bb/TensorFlow/LanguageModeling/BERT/biobert/README.md"
BIO_ACC = ("#### Pre-training accuracy\n"
           "| **DGX System** | **Nodes** | **Precision** | **Batch Size/GPU: Phase1, Phase2** | **Accumulation Steps: Phase1, Phase2** | **Time to Train (Hrs)** | **Final Loss** |\n"
           "| DGX2H | 4  | FP16 | 128, 16 | 8, 32 | 19.14  | 0.88 |\n| DGX2H | 16 | FP16 | 128, 16 | 2, 8  | 4.81   | 0.86 |\n| DGX2H | 32 | FP16 | 128, 16 | 1, 4  | 2.65   | 0.87 |\n"
           "| DGX1  | 1  | FP16 | 64, 8   |128,512| 174.58 | 0.87 |\n| DGX1  | 4  | FP16 | 64, 8   |32, 128| 57.71  | 0.85 |\n| DGX1  | 16 | FP16 | 64, 8   |8,  32 | 12.62  | 0.87 |\n| DGX1  | 32 | FP16 | 64, 8   |4,  16 | 6.97   | 0.87 |\n"
           "- Phase 1\n    - Sets Maximum sequence length as 128\n    - Sets Global Batch size as 64K\n- Phase 2\n    - Sets Maximum sequence length as 512\n    - Sets Global Batch size as 32K\n"
           "The following sample code trains phase 1 of BERT-base from scratch on a single DGX-2 using FP16 arithmetic and uncased data.\n")
BIO_TAB = ("| **Nodes** | **Sequence Length**| **Batch size / GPU: mixed precision, FP32** | **Throughput - mixed precision** | **Throughput - FP32** | **Throughput speedup (FP32 to mixed precision)** | **Weak scaling - mixed precision** | **Weak scaling - FP32** |\n")
BIO_DGX1_HEAD = ("##### Pre-training training performance: multi-node on DGX-1 16G\n\nOur results were obtained by running the `biobert/scripts/run_biobert.sub` training script in the TensorFlow 19.08-py3 NGC container using multiple NVIDIA DGX-1 with 8x V100 16G GPUs. Performance (in sentences per second) is the steady state throughput.\n\n" + BIO_TAB)
BIO_DGX2_HEAD = ("##### Pre-training training performance: multi-node on DGX-2H 32G\n\nOur results were obtained by running the `biobert/scripts/run_biobert.sub` training script in the TensorFlow 19.08-py3 NGC container using multiple NVIDIA DGX-2H with 16x V100 32G GPUs. Performance (in sentences per second) is the steady state throughput.\n\n" + BIO_TAB)
BIO_ROWS = {
    ("dgx1", 1, 128): "| 1  | 128 | 64,32 | 2762.06  | 744.48   | 3.71 | 1.00  | 1.00  |",
    ("dgx1", 4, 128): "| 4  | 128 | 64,32 | 10283.08 | 2762.88  | 3.72 | 3.72  | 3.71  |",
    ("dgx1", 16, 128): "| 16 | 128 | 64,32 | 39051.69 | 10715.14 | 3.64 | 14.14 | 14.39 |",
    ("dgx1", 32, 128): "| 32 | 128 | 64,32 | 76077.39 | 21104.87 | 3.60 | 27.54 | 28.35 |",
    ("dgx1", 1, 512): "| 1  | 512 | 8,8   | 432.33   | 160.38   | 2.70 | 1.00  | 1.00  |",
    ("dgx1", 4, 512): "| 4  | 512 | 8,8   | 1593.00  | 604.36   | 2.64 | 3.68  | 3.77  |",
    ("dgx1", 16, 512): "| 16 | 512 | 8,8   | 5941.82  | 2356.44  | 2.52 | 13.74 | 14.69 |",
    ("dgx1", 32, 512): "| 32 | 512 | 8,8   | 11483.73 | 4631.29  | 2.48 | 26.56 | 28.88 |",
    ("dgx2h", 1, 128): "| 1  | 128 | 128,128 | 7772.18   | 2165.04   | 3.59 | 1.00  | 1.00  |",
    ("dgx2h", 4, 128): "| 4  | 128 | 128,128 | 29785.31  | 8516.90   | 3.50 | 3.83  | 3.93  |",
    ("dgx2h", 16, 128): "| 16 | 128 | 128,128 | 115581.29 | 33699.15  | 3.43 | 14.87 | 15.57 |",
    ("dgx2h", 32, 128): "| 32 | 128 | 128,128 | 226156.53 | 66996.73  | 3.38 | 29.10 | 30.94 |",
    ("dgx2h", 1, 512): "| 1  | 512 | 16,16   | 1260.06   | 416.92    | 3.02 | 1.00  | 1.00  |",
    ("dgx2h", 4, 512): "| 4  | 512 | 16,16   | 4781.19   | 1626.76   | 2.94 | 3.79  | 3.90  |",
    ("dgx2h", 16, 512): "| 16 | 512 | 16,16   | 18405.65  | 6418.09   | 2.87 | 14.61 | 15.39 |",
    ("dgx2h", 32, 512): "| 32 | 512 | 16,16   | 36071.06  | 12713.67  | 2.84 | 28.63 | 30.49 |",
}
BIO_CODE_Q = ("\nDLE TensorFlow BERT optimization.py (copies in the code index, not the pinned file): 'if allreduce_post_accumulation and hvd is not None:\n  accum_vars = [hvd.allreduce(tf.convert_to_tensor(accum_var), "
              "compression=Compression.fp16 if use_fp16 or manual_fp16 else Compression.none) ...'")
# (system, nodes, seq): (mbs, ga, thr_amp)
BIO = {
    ("dgx1", 1, 128): (64, 128, 2762.06), ("dgx1", 4, 128): (64, 32, 10283.08), ("dgx1", 16, 128): (64, 8, 39051.69), ("dgx1", 32, 128): (64, 4, 76077.39),
    ("dgx1", 1, 512): (8, 512, 432.33), ("dgx1", 4, 512): (8, 128, 1593.00), ("dgx1", 16, 512): (8, 32, 5941.82), ("dgx1", 32, 512): (8, 16, 11483.73),
    ("dgx2h", 1, 128): (128, None, 7772.18), ("dgx2h", 4, 128): (128, 8, 29785.31), ("dgx2h", 16, 128): (128, 2, 115581.29), ("dgx2h", 32, 128): (128, 1, 226156.53),
    ("dgx2h", 1, 512): (16, None, 1260.06), ("dgx2h", 4, 512): (16, 32, 4781.19), ("dgx2h", 16, 512): (16, 8, 18405.65), ("dgx2h", 32, 512): (16, 4, 36071.06),
}
for system in ("dgx1", "dgx2h"):
    gpn = 8 if system == "dgx1" else 16
    for seq in (128, 512):
        mbs1, _, thr1 = BIO[(system, 1, seq)]
        for nodes in (4, 16, 32):
            mbs, ga, thr = BIO[(system, nodes, seq)]
            gpus = gpn * nodes
            hw = (dict(gpu="v100-sxm2-16gb", link_gbps=100, adapters_per_node=4) if system == "dgx1"
                  else dict(gpu="v100-sxm2-32gb", intra_node="nvswitch", link_gbps=100, adapters_per_node=8))
            inp = dict(sync="ddp", params=110e6, dtype="fp16", nodes=nodes, gpus_per_node=gpn, fabric="infiniband", gdr=True,
                       grad_accum_steps=ga, seq_len=seq, micro_batch_size=mbs, bucket_bytes=64 * MIB)
            inp.update(hw)
            add(id=f"dle-biobert-{system}-ib-bert-base-amp-s{seq}-{nodes}node",
                series=f"dle-biobert-{system}-bert-base-pretrain-amp-s{seq}",
                source=BIO_SRC,
                source_group="dle-tf-biobert: DeepLearningExamples TensorFlow BioBERT README's multi-node tables (NVIDIA's DGX-1 and DGX-2H clusters)",
                quote=(BIO_DGX1_HEAD if system == "dgx1" else BIO_DGX2_HEAD) + BIO_ROWS[(system, 1, seq)] + "\n" + BIO_ROWS[(system, nodes, seq)] + "\n" + BIO_ACC + BIO_CODE_Q,
                framework="TensorFlow 1 + Horovod (NVIDIA DeepLearningExamples BioBERT pre-training, LAMB, TF-AMP, NCCL)",
                input=inp,
                measured_step_s=mbs * ga / (thr / gpus), baseline_step_s=mbs * ga / (thr1 / gpn),
                baseline_note=(f"1-node row of the same table (same per-GPU batch {mbs}, mixed precision); its accumulation is "
                               + ("128/512 (accuracy table)" if system == "dgx1" else "not stated (32/128 if it keeps the 64K/32K global batch)")
                               + f" against {ga} here; step_equiv_s = per-GPU sequences of the multi-node step / 1-node sentences/s per GPU"),
                inferred=[
                    f"grad_accum_steps = {ga} from the pre-training accuracy table ({'DGX1' if system == 'dgx1' else 'DGX2H'}, {nodes} nodes, FP16, phase {1 if seq == 128 else 2}), assumed to hold for the performance table (the performance table states no accumulation); it gives the 64K (seq 128) / 32K (seq 512) global batch: {mbs} x {ga} x {gpus} = {mbs * ga * gpus}",
                    "step_s = per-GPU batch x accumulation / (sentences/s / GPUs)",
                    "mixed-precision column only: the FP32 batch (32 at seq 128) has no stated accumulation",
                    "params = 110M: BERT-base (the README trains 'BERT-base from scratch'; 110M is DLE's BERT-base figure)",
                    "dtype fp16 and one all-reduce per optimizer step: DLE TensorFlow BERT's optimizer all-reduces the accumulated gradients with Horovod fp16 compression when use_fp16 and allreduce_post_accumulation are set (code copies in the index; the pinned run_biobert.sub flags not read)",
                    "bucket_bytes = 64 MiB, Horovod's default tensor-fusion threshold; not stated",
                    ("fabric: DGX-1 with 4 x 100 Gb/s EDR InfiniBand ports assumed (DGX-1 specification; the README states no fabric); GPU V100-SXM2-16GB stated, hybrid cube-mesh NVLink" if system == "dgx1"
                     else "fabric: DGX-2H with 8 x 100 Gb/s EDR InfiniBand ports assumed (DGX-2 specification); V100 SXM3 32GB read as v100-sxm2-32gb with intra_node nvswitch"),
                    "GPUDirect RDMA on assumed (not stated)",
                    "the 64-node DGX-2H rows are left out: the accumulation table stops at 32 nodes, where accumulation is already 1 for seq 128",
                ])

about = ("Public multi-node training runs collected on 2026-12-04 after the model's terms were chosen (the wait for the "
         "slowest rank and its fitted per-rank variation, the framework overlap settings): the step replay scores them with "
         "the model as shipped and fits nothing on them, a check of those choices on runs they were not made on. "
         "Same format as "
         "../collected/runs.json: noise_s is the run's own reported spread in seconds, else 2% of the compute, and noise_basis "
         "says which). Each run's baseline is the same source's single-node step with the same per-GPU work (or the step-"
         "equivalent of the multi-node step at the single-node per-GPU throughput where accumulation differs), given to the "
         "model as compute; measured_step_s and baseline_step_s are derived from the quoted throughputs (see inferred). "
         "Nothing is fitted. See NOTES.md for the sources looked at and rejected.")
write(__file__, about, RUNS)
