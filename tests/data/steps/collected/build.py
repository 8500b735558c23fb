#!/usr/bin/env python3
"""Builds runs.json (beside this script) from the quoted numbers below. Every number that enters a step time is a literal
copied from the quote of its run; the arithmetic is here so it can be checked."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from build_runs import MIB, run, write  # noqa: E402

RUNS = []


def add(**kw):
    RUNS.append(run(**kw))


# ---------------------------------------------------------------------------------------------------------------
# 1. NERSC SC22 Deep Learning at Scale tutorial: Perlmutter (phase 1), 3D U-Net, PyTorch DDP, 1 node vs 2 nodes.
# ---------------------------------------------------------------------------------------------------------------
NERSC_SRC = "https://github.com/NERSC/sc22-dl-tutorial/blob/96f7be4bb60ecc0e3e8b5d04bc576ee7415de5f4/README.md"
NERSC_FABRIC = ("fabric (other source, NERSC docs snapshot, https://portal.nersc.gov/cfs/nstaff/siddiq90/nersc.gitlab.io/"
                "public/systems/perlmutter/interconnect/): 'Phase 1's compute cabinet is segmented into 8 chassis, ... "
                "Each node is connected to 2 NICs, allowing each node to have 2 injection points into the network. "
                "This configuration is sometimes described as dual injection or dual rail.'")
NERSC_COMMON_Q = ("This script automatically uses the slurm flags `--ntasks-per-node 4`, `--cpus-per-task 32`, "
                  "`--gpus-per-task 1`, so slurm will allocate one process for each GPU we request\n"
                  "This is the performance of the baseline script for the first three epochs on a 40GB A100 card with batch size 64:\n")
NERSC_PARAMS = 116977029  # computed from networks/UNet.py, see inferred
nersc = {
    "baseline": dict(
        one=(1264.7321130581577, 1271.6916350810875), two=(1844.0018315113414, 1823.245429594067), bucket=25 * MIB,
        q1=("ENABLE_PROFILING=1 PROFILE_OUTPUT=4gpu_baseline sbatch -n 4 ./submit_pm.sh --config=bs64_opt --num_epochs 4 "
            "--num_data_workers 8 --local_batch_size 16 --enable_manual_profiling\n"
            "2021-11-10 04:04:32,869 - root - INFO - Time taken for epoch 3 is 51.81808805465698 sec, avg 1264.7321130581577 samples/sec\n"
            "2021-11-10 04:05:27,672 - root - INFO - Time taken for epoch 4 is 51.53450584411621 sec, avg 1271.6916350810875 samples/sec"),
        q2=("ENABLE_PROFILING=1 PROFILE_OUTPUT=8gpu_baseline sbatch -N 2 ./submit_pm.sh --config=bs64_opt --num_epochs 4 "
            "--num_data_workers 8 --local_batch_size 16 --enable_manual_profiling \n"
            "2021-11-10 02:42:08,002 - root - INFO - Time taken for epoch 3 is 35.54009485244751 sec, avg 1844.0018315113414 samples/sec\n"
            "2021-11-10 02:42:45,635 - root - INFO - Time taken for epoch 4 is 35.94469451904297 sec, avg 1823.245429594067 samples/sec"),
        note="DDP defaults (25 MB buckets, broadcast_buffers on)"),
    "bucket100mb": dict(
        one=(1317.0452716437817, 1316.4084370067546), two=(1880.3240616534827, 1856.8614843673777), bucket=100 * MIB,
        q1=("ENABLE_PROFILING=1 PROFILE_OUTPUT=4gpu_bucket100mb sbatch -n 4 ./submit_pm.sh --config=bs64_opt --num_epochs 4 "
            "--num_data_workers 8 --local_batch_size 16 --enable_manual_profiling --disable_broadcast_buffers --bucket_cap_mb 100\n"
            "2021-11-10 04:20:41,475 - root - INFO - Time taken for epoch 3 is 49.75986886024475 sec, avg 1317.0452716437817 samples/sec\n"
            "2021-11-10 04:21:34,517 - root - INFO - Time taken for epoch 4 is 49.78394103050232 sec, avg 1316.4084370067546 samples/sec"),
        q2=("ENABLE_PROFILING=1 PROFILE_OUTPUT=8gpu_bucket100mb sbatch -N 2 ./submit_pm.sh --config=bs64_opt --num_epochs 4 "
            "--num_data_workers 8 --local_batch_size 16 --enable_manual_profiling --disable_broadcast_buffers --bucket_cap_mb 100\n"
            "2021-11-10 02:42:05,129 - root - INFO - Time taken for epoch 3 is 34.85356664657593 sec, avg 1880.3240616534827 samples/sec\n"
            "2021-11-10 02:42:42,100 - root - INFO - Time taken for epoch 4 is 35.293962717056274 sec, avg 1856.8614843673777 samples/sec"),
        note="--disable_broadcast_buffers --bucket_cap_mb 100"),
}
for name, d in nersc.items():
    lbs = 16
    base = lbs / ((sum(d["one"]) / 2) / 4)
    steps2 = [lbs / (v / 8) for v in d["two"]]
    meas = lbs / ((sum(d["two"]) / 2) / 8)
    add(id=f"nersc-perlmutter-p1-unet3d-ddp-{name}-2node",
        series=f"nersc-sc22-perlmutter-unet3d-ddp-{name}",
        source=NERSC_SRC,
        quote=NERSC_COMMON_Q + "1 node (4 GPUs):\n" + d["q1"] + "\n2 nodes (8 GPUs):\n" + d["q2"] + "\n" + NERSC_FABRIC,
        framework="PyTorch DDP (NCCL), torch.cuda.amp fp16 autocast, DALI loader",
        input=dict(sync="ddp", params=NERSC_PARAMS, dtype="fp32", nodes=2, gpus_per_node=4, gpu="a100-sxm4-40gb",
                   fabric="roce", gdr=True, link_gbps=100, adapters_per_node=2, bucket_bytes=d["bucket"],
                   micro_batch_size=lbs),
        measured_step_s=meas, baseline_step_s=base,
        baseline_note=f"same command on 1 node (-n 4) with the same per-GPU batch of 16 and {d['note']}; the baseline "
                      "includes the intra-node (NVLink) all-reduce of 4 GPUs",
        noise_s=max(steps2) - min(steps2),
        inferred=[
            "step_s = local_batch_size(16) / (samples_per_s / GPUs), samples/s the mean of epochs 3 and 4 (epoch 2, the first one logged, is slower and left out)",
            "noise_s = spread of the 2-node step between epoch 3 and epoch 4",
            "GPUs = 4 (1 node, -n 4) and 8 (2 nodes, -N 2 with --ntasks-per-node 4)",
            "params = 116,977,029: counted from networks/UNet.py (6 Conv3d down, 5 ConvTranspose3d up + final ConvTranspose3d to 5 channels, kernel 4^3, with biases); not stated in the README",
            "dtype fp32: torch.cuda.amp autocast (amp_mode fp16 in config bs64_opt) keeps fp32 parameters, so DDP all-reduces fp32 gradients",
            "fabric: the runs are dated 2021-11-10, when Perlmutter GPU nodes were phase 1 (2 NICs per node per the NERSC docs snapshot); the NICs' line rate (100 Gb/s, Slingshot 10 with Mellanox ConnectX-5 adapters, NCCL over IB verbs/RoCE) is assumed, not stated in either quote",
            "fabric class roce chosen for Slingshot 10's Ethernet NICs; GPUDirect RDMA on assumed (not stated)",
            "GPU: A100 40GB stated ('a 40GB A100 card'); catalog a100-sxm4-40gb (Perlmutter's A100s are SXM4 on NVLink3)",
            "bucket_bytes = --bucket_cap_mb (25 MB default / 100 MB) read as MiB",
        ])

# ---------------------------------------------------------------------------------------------------------------
# 2. FlagPerf (BAAI): ResNet-50 and ViT-B/16 (PyTorch DDP, A100 40GB DGX), Llama3-8B Megatron-core (H100, TP2).
# ---------------------------------------------------------------------------------------------------------------
FP_RN50 = "https://github.com/FlagOpen/FlagPerf/blob/0078403cff4cff3120a75ffdeb6ae734bae09377/training/nvidia/resnet50-pytorch/README.md"
FP_VIT = "https://github.com/FlagOpen/FlagPerf/blob/0078403cff4cff3120a75ffdeb6ae734bae09377/training/nvidia/vit-pytorch/README.md"
FP_L3 = "https://github.com/FlagOpen/FlagPerf/blob/5744755a0220a354ee1cccfb88b463e3eae0246a/training/nvidia/llama3_8B-megatron/README.md"
FP_HW = ("    - 机器型号: NVIDIA DGX A100(40G) \n    - 加速卡型号: NVIDIA_A100-SXM4-40GB\n"
         "    - CPU型号: AMD EPYC7742-64core@1.5G\n    - 多机网络类型、带宽: InfiniBand，200Gb/s\n")
FP_CORE = "| **计算吞吐量** | **p_core,见“性能指标”** | 不包含数据IO部分的耗时(p3>p2>p1)            |\n"

b1, b2 = 6105, 11874
add(id="flagperf-a100-40g-ib-resnet50-fp32-b256-2node",
    series="flagperf-dgxa100-40g-resnet50-fp32",
    source=FP_RN50,
    source_group="flagperf-a100-40g: FlagPerf's ResNet-50 and ViT pages, one A100 40GB cluster",
    quote=FP_HW + FP_CORE +
    "| 配置                | precision | fix_hp        | e2e_time | p_whole | p_train | p_core | acc   | mem       |\n"
    "| A100单机8卡（1x8）  | fp32      | bs=256,lr=0.8 | 22653    | 5663    | 5866    | 6105   | 73.5% | 28.3/40.0 |\n"
    "| A100两机8卡（2x8）  | fp32      | bs=256,lr=0.8 | /        | 10576   | 11085   | 11874  | /     | 27.9/40.0 |",
    framework="PyTorch DDP (FlagPerf resnet50-pytorch, NCCL)",
    input=dict(sync="ddp", params=25557032, dtype="fp32", nodes=2, gpus_per_node=8, gpu="a100-sxm4-40gb",
               fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8, micro_batch_size=256),
    measured_step_s=256 / (b2 / 16), baseline_step_s=256 / (b1 / 8),
    baseline_note="1x8 row with the same fix_hp bs=256 (per GPU: the 1x1 row at bs=256 uses 27.6 GiB, the 1x8 row 28.3 GiB); p_core (throughput without data-IO time) used for both",
    inferred=[
        "step_s = bs(256) / (p_core / GPUs); bs read as per-GPU batch (memory per GPU equal in the 1x1, 1x8 and 2x8 rows)",
        "2x8 ('两机8卡（2x8）', literally 'two machines 8 cards') read as 2 nodes x 8 GPUs = 16 GPUs",
        "params: torchvision resnet50, 25,557,032",
        "adapters: 'InfiniBand，200Gb/s' read as the HDR port rate; 8 ports per DGX A100 assumed (DGX A100 has 8 compute HCAs); the README does not say how many are cabled",
        "GPUDirect RDMA on assumed (not stated)",
        "bucket: PyTorch DDP default 25 MiB assumed (config_A100x2x8.py sets ddp_type = \"apex\" in one stored version; not resolved)",
    ])

v1, v2 = 1151, 10535
add(id="flagperf-a100-40g-ib-vitb16-fp32-b256-2node",
    series="flagperf-dgxa100-40g-vit-b16-fp32",
    source=FP_VIT,
    source_group="flagperf-a100-40g: FlagPerf's ResNet-50 and ViT pages, one A100 40GB cluster",
    quote=FP_HW + "| **计算吞吐量** | **p_core,见“性能指标”**                       | 不包含数据IO部分的耗时(p3>p2>p1)            |\n" +
    "| 配置              | precision | fix_hp | e2e_time | p_whole | p_train | p_core | final_acc1 | mem       |\n"
    "| A100单机8卡(1x8)  | fp32      | /      | 73258    | 5109    | 5316    | 5441   | 80.024     | 39.3/40.0 |\n"
    "| A100单机单卡(1x1) | fp32      | bs=256 | /        | 700     | 1144    | 1151   | /          | 29.4/40.0 |\n"
    "| A100两机8卡(2x8)  | fp32      | bs=256 | /        | 9540    | 10062   | 10535  | /          | 31.2/40.0 |\n"
    "model (training/benchmarks/vit/pytorch/config/_base.py): name: str = \"vit_base_patch16_224\"",
    framework="PyTorch DDP (FlagPerf vit-pytorch, timm model, NCCL)",
    input=dict(sync="ddp", params=86567656, dtype="fp32", nodes=2, gpus_per_node=8, gpu="a100-sxm4-40gb",
               fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8, micro_batch_size=256),
    measured_step_s=256 / (v2 / 16), baseline_step_s=256 / v1,
    baseline_note="single-GPU baseline (1x1, bs=256); the only same-batch row: the 1x8 row runs the default batch (128 in _base.py). Suspect: the 1x8 default-batch row already runs at 680 img/s/GPU, so most of the 2x8 loss against 1x1 likely arises inside one node (host/data side), not on the network",
    inferred=[
        "step_s = bs(256) / (p_core / GPUs); bs read as per-GPU batch",
        "2x8 read as 2 nodes x 8 GPUs",
        "params: timm vit_base_patch16_224, 86,567,656 (ViT-B/16 at 224 px, 1000 classes); not stated in the README",
        "adapters: 8 x 200 Gb/s HDR assumed as for the ResNet-50 run (same FlagPerf A100 cluster description)",
        "GPUDirect RDMA on assumed (not stated)",
        "bucket: PyTorch DDP default 25 MiB assumed",
    ])

L3_Q = ("  1. local_batchsize(micro_batchsize)，简写为LBS，即实际进入模型的张量批尺寸，为config_A100x1x8.py中所写，在本case中默认为1。**厂商适配时可任意更改**\n"
        "  2. seqlength(max_position_embedding)，简写为MPE，即实际进入模型的序列长度，为config_A100x1x8.py中所写，在本case中默认为8192，原则上不可更改\n"
        "  3. global_batchsize恒等于local_batchsize\\*gradient_accumulate_steps\\*data_parallel_size。在本case中，data_parallel_size=world_size/TPsize/PPsize。在本case中默认为512，使得globalbatchsize=4M tokens。\n"
        "| **吞吐量** | **token/p/s,见“性能指标”** | 平均单卡每秒处理的token数                          |\n"
        "| 配置                 | precision | parallel    | fix_hp | token/p/s | 是否精度对齐     | mem   | MFU         |\n"
        "| H100单机8卡（1x8）      | bf16      | PP1DP4TP2   | /      | 8103      | True       | 71/80 | 39.3%       |\n")
L3_FAB = ("\nfabric (other file, https://github.com/FlagOpen/FlagPerf/blob/61ac07967abf53986fb8b76115f63d41b0c9610b/training/nvidia/llama3_70B-megatron/README.md, "
          "H100 environment): '    - 加速卡型号: NVIDIA_H100-SXM4-80GB\n    - 多机网络类型、带宽: InfiniBand，400Gb/s'\n"
          "throughput formula (training/benchmarks/llama3_8B/megatron/run_pretraining.py): 'whole_tps = 512 * 8192 / time_per_step' / "
          "'chip_tps = whole_tps / (args.nproc_per_node * args.nnodes)'\n"
          "optimizer (training/benchmarks/llama3_8B/megatron/pretrain_llama3.sh): '--use-distributed-optimizer'")
base_tps = 8103
for nodes, row, gbs, dp, tps in [
    (2, "| H100二机16卡（2x8）     | bf16      | PP1DP8TP2   | /      | 7914      | True       | 62/80 | 38.4%       |", 512, 8, 7914),
    (55, "| H100-55机440卡（55x8） | bf16      | PP1DP220TP2 | gbs=1760*      | 7047      | /,仅供性能参考       | 55/80 | 34.2%       |", 1760, 220, 7047),
]:
    gpus = nodes * 8
    tok_per_gpu = gbs * 8192 / gpus
    ga = gbs // dp
    inferred = [
        f"per-GPU tokens per step = global batch ({gbs}) x 8192 / {gpus} GPUs = {tok_per_gpu:.0f} (token/p/s counts global tokens over all GPUs, TP ranks included: run_pretraining.py divides by nproc_per_node x nnodes)",
        "step_s = per-GPU tokens per step / token/p/s",
        "baseline.step_equiv_s = the same per-GPU tokens / the 1x8 token/p/s (8103): the baseline runs 128 micro-batches per step (512/DP4), so its one data-parallel reduce-scatter/all-gather is amortised over twice as many micro-batches as the 2x8 run",
        f"grad_accum_steps = global batch / DP = {gbs}/{dp} = {ga} (micro-batch 1)",
        "tp=2 inside each node, pp=1, DP across nodes (parallel column PP1DP8TP2 / PP1DP220TP2)",
        "sync zero1: Megatron distributed optimizer (--use-distributed-optimizer in the benchmark's pretrain_llama3.sh)",
        "dtype fp32: Megatron-LM turns on accumulate_allreduce_grads_in_fp32 for bf16 runs, so gradients are reduced in fp32 (Megatron arguments.py behaviour, not stated in the README)",
        "model: catalog llama-3.1-8b (same shape as Llama 3 8B: 32 layers, 4096 hidden, 14336 FFN, 8 KV heads, 128256 vocab; pretrain_llama3.sh gives the first four)",
        "fabric: the llama3_8B README describes only its A800 box; H100 fabric taken from the same repository's llama3_70B H100 README ('InfiniBand，400Gb/s'), read as a 400 Gb/s NDR port rate with 8 ports per HGX H100 node assumed",
        "GPUDirect RDMA on assumed (not stated)",
        "activation checkpointing: README lists 'recompute-activations' (Megatron selective recompute), read as no full checkpointing",
        "overlap_grad_reduce and overlap_param_gather false: the benchmark's pretrain_llama3.sh passes neither --overlap-grad-reduce nor --overlap-param-gather, so megatron-core's defaults (both False, distributed_data_parallel_config.py) hold; set after the first out-of-source replay read the 440-GPU run 55% slow, which is why fitted names framework-overlap",
    ]
    if nodes == 55:
        inferred.append("the 55x8 row is marked gbs=1760* and '仅供性能参考' (performance reference only); run_pretraining.py hard-codes 512 x 8192 tokens per step, but the row's MFU (34.2% = 7047 x 6 x 8e9 / 989e12) matches 7047 as real per-GPU throughput, so the 1760 global batch is assumed to have been used in the figure")
    add(id=f"flagperf-h100-ib-llama3-8b-megatron-tp2-{gpus}gpu",
        series="flagperf-h100-llama3-8b-megatron-tp2-dp",
        source=FP_L3,
        quote=L3_Q + row + L3_FAB,
        framework="Megatron-core (core_v0.6.0) via FlagPerf, TP2 + distributed optimizer, transformer-engine, flash-attn",
        input=dict(sync="zero1", model="llama-3.1-8b", dtype="fp32", tp=2, pp=1, nodes=nodes, gpus_per_node=8,
                   gpu="h100-sxm", fabric="infiniband", gdr=True, link_gbps=400, adapters_per_node=8,
                   seq_len=8192, micro_batch_size=1, grad_accum_steps=ga, overlap_grad_reduce=False,
                   overlap_param_gather=False),
        measured_step_s=tok_per_gpu / tps, baseline_step_s=tok_per_gpu / base_tps,
        fitted=["framework-overlap"],
        baseline_note="1x8 row, same PP1/TP2 layout, micro-batch 1, seq 8192, DP4; step_equiv_s = per-GPU tokens of the multi-node step / baseline token/p/s",
        inferred=inferred)

# ---------------------------------------------------------------------------------------------------------------
# 3. NVIDIA DeepLearningExamples, Transformer-XL large, 1/2/4/8 DGX-2H (16x V100 32GB), PyTorch DDP.
# ---------------------------------------------------------------------------------------------------------------
TXL_SRC = "https://github.com/NVIDIA/DeepLearningExamples/blob/0f6e186562e01b9a20904ba827e0e0b2e08cd835/PyTorch/LanguageModeling/Transformer-XL/README.md"
TXL_HEAD = ("##### Training performance: 8x NVIDIA DGX-2H (16x V100 32GB)\n"
            "Our results were obtained by running the `pytorch/run.sub` training script in\nthe pytorch-20.06-py3 NGC container. Performance numbers (in tokens per second)\nwere averaged over 500 training iterations.\n"
            "|**DGX System**|**Nodes**|**Batch Size / GPU**|**Throughput - FP32 (tok/s)**|**Throughput - Mixed precision (tok/s)**|**Throughput speedup (FP32 to Mixed precision)**|**Weak Scaling - FP32**|**Weak scaling - Mixed precision**|\n"
            "| DGX-2H | 1 | 4 | 69,070  | 154,950   | 2.24 | 1.00 | 1.00 |\n")
TXL_ROWS = {2: "| DGX-2H | 2 | 4 | 136,960 | 307,520   | 2.25 | 1.98 | 1.98 |",
            4: "| DGX-2H | 4 | 4 | 270,120 | 605,530   | 2.24 | 3.91 | 3.91 |",
            8: "| DGX-2H | 8 | 4 | 514,500 | 1,189,700 | 2.31 | 7.45 | 7.68 |"}
TXL_TAIL = ("\nThe numbers\npresented above were obtained with `LOCAL_BATCH_SIZE=4`.\n"
            "FP16=1 LOCAL_BATCH_SIZE=<LBS> CONFIG=trainbench_multinode sbatch -N <NODES> run.sub train\n"
            "pytorch/wt103_large.yaml: 'tgt_len: 384' ... 'train_multinode: ... batch_size: 512' ... 'trainbench_multinode: ... <<: *train_multinode'")
TXL = {1: (69070, 154950), 2: (136960, 307520), 4: (270120, 605530), 8: (514500, 1189700)}
TXL_PARAMS = 285.2e6
for prec, idx, dtype in [("fp32", 0, "fp32"), ("amp", 1, "fp16")]:
    base_pg = TXL[1][idx] / 16
    for nodes in (2, 4, 8):
        pg = TXL[nodes][idx] / (16 * nodes)
        chunks = 512 // (16 * nodes * 4)
        tok = chunks * 4 * 384
        add(id=f"dle-dgx2h-ib-transformerxl-large-{prec}-{nodes}node",
            series=f"dle-dgx2h-transformerxl-large-{prec}",
            source=TXL_SRC,
            quote=TXL_HEAD + TXL_ROWS[nodes] + TXL_TAIL,
            framework="PyTorch DDP (NVIDIA DeepLearningExamples Transformer-XL, NCCL" + (", apex AMP O2)" if prec == "amp" else ")"),
            input=dict(sync="ddp", params=TXL_PARAMS, dtype=dtype, nodes=nodes, gpus_per_node=16,
                       gpu="v100-sxm2-32gb", intra_node="nvswitch", fabric="infiniband", gdr=True, link_gbps=100,
                       adapters_per_node=8, grad_accum_steps=chunks, seq_len=384, micro_batch_size=4),
            measured_step_s=tok / pg, baseline_step_s=tok / base_pg,
            baseline_note=f"1-node row (16 GPUs, LOCAL_BATCH_SIZE 4), which runs 8 gradient-accumulation chunks per step against {chunks} here; step_equiv_s = per-GPU tokens of the multi-node step / 1-node tok/s per GPU",
            inferred=[
                f"global batch 512 (train_multinode config) with local batch 4: batch_chunk (gradient accumulation) = 512/(GPUs x 4) = 8 on 1 node, {chunks} on {nodes} nodes",
                f"per-GPU tokens per step = {chunks} x 4 x 384 (tgt_len) = {tok}",
                "step_s = per-GPU tokens per step / (tok/s / GPUs)",
                "DDP all-reduce once per step: the DLE train.py runs every chunk but the last under para_model.no_sync()",
                "params = 285.2M, counted from wt103_large.yaml (18 layers x 13.64M + adaptive embedding 38.3M over cutoffs 19997/39997/199997 with div_val 4 + untied first output projection 1.05M + softmax biases); the Transformer-XL paper reports 257M for its WT103 large model",
                "dtype: fp16 gradients for mixed precision (apex AMP O2, fp16 model weights), fp32 for the FP32 rows",
                "fabric: DGX-2H with 8 x 100 Gb/s EDR InfiniBand compute ports assumed (DGX-2 specification; the README states no fabric)",
                "GPUDirect RDMA on assumed (not stated)",
                "GPU: V100 SXM3 32GB (DGX-2H, 450 W) read as catalog v100-sxm2-32gb with intra_node nvswitch (DGX-2 NVSwitch); compute is given, so only the links matter",
            ])

# ---------------------------------------------------------------------------------------------------------------
# 4. NVIDIA DeepLearningExamples, BERT-large pre-training, 1..32 DGX A100 80GB.
# ---------------------------------------------------------------------------------------------------------------
BERT_SRC = "https://github.com/NVIDIA/DeepLearningExamples/blob/master/PyTorch/LanguageModeling/BERT/README.md"
BERT_HEAD = ("Our results were obtained by running the `scripts run_pretraining.sh` training script in the pytorch:21.11-py3 NGC container on NVIDIA DGX A100 (8x A100 80GB) GPUs. Performance numbers (in items/images per second) were averaged over a few training iterations.\n"
             "###### Pre-training NVIDIA DGX A100 (8x A100 80GB) Multi-node Scaling\n"
             "| Nodes | GPUs / node | Batch size / GPU (TF32 and FP16) | Accumulated Batch size / GPU (TF32 and FP16) | Accumulation steps (TF32 and FP16) | Sequence length | Mixed Precision Throughput | Mixed Precision Strong Scaling | TF32 Throughput | TF32 Strong Scaling | Speedup (Mixed Precision to TF32) |\n")
BERT_ROWS = {
    (1, 128): "| 1     | 8           | 126 and 256 | 8192 and 8192                    | 64 and 32                          | 128             | 4553                       | 1                              | 2486            | 1                   | 1.83                              |",
    (8, 128): "| 8     | 8           | 126 and 256 | 1024 and 1024                    | 8 and 4                            | 128             | 35774                      | 7.86                           | 19815           | 7.97                | 1.81                              |",
    (16, 128): "| 16    | 8           | 126 and 256 | 512 and 512                      | 4 and 2                            | 128             | 70555                      | 15.50                          | 38866           | 15.63               | 1.82                              |",
    (32, 128): "| 32    | 8           | 126 and 256 | 256 and 256                      | 2 and 1                            | 128             | 138294                     | 30.37                          | 75706           | 30.45               | 1.83                              |",
    (1, 512): "| 1     | 8           | 16  and 32  | 4096 and 4096                    | 256 and 128                        | 512             | 1648                       | 1                              | 854             | 1                   | 1.93                              |",
    (16, 512): "| 16    | 8           | 16  and 32  | 256 and 256                      | 16 and 8                           | 512             | 25570                      | 15.51                          | 12131           | 14.21               | 2.11                              |",
    (32, 512): "| 32    | 8           | 16  and 32  | 128 and 128                      | 8 and 4                            | 512             | 49663                      | 30.13                          | 21298           | 24.95               | 2.33                              |",
}
BERT_TAIL = ("\n| BERTLARGE |    24 encoder     |         1024         |         16          |          4 x 1024           |           512           |      330M      |\n"
             "In the pre-training, `O2` is set as the optimization level.")
# (prec, seq, nodes, per-GPU batch, accumulated batch per GPU at N, accumulated batch at 1 node, thr N, thr 1)
BERT = [
    ("amp", 128, 8, 256, 1024, 8192, 35774, 4553),
    ("amp", 128, 16, 256, 512, 8192, 70555, 4553),
    ("amp", 128, 32, 256, 256, 8192, 138294, 4553),
    ("amp", 512, 16, 32, 256, 4096, 25570, 1648),
    ("amp", 512, 32, 32, 128, 4096, 49663, 1648),
    ("tf32", 512, 16, 16, 256, 4096, 12131, 854),
    ("tf32", 512, 32, 16, 128, 4096, 21298, 854),
]
for prec, seq, nodes, mbs, acc_n, acc_1, thr_n, thr_1 in BERT:
    gpus = nodes * 8
    pg_n, pg_1 = thr_n / gpus, thr_1 / 8
    ga = acc_n // mbs
    add(id=f"dle-dgxa100-80g-ib-bert-large-{prec}-s{seq}-{nodes}node",
        series=f"dle-dgxa100-80g-bert-large-pretrain-{prec}-s{seq}",
        source=BERT_SRC,
        source_group="dle-dgxa100-80g: DeepLearningExamples' BERT and BART pages, NVIDIA's DGX A100 80GB runs",
        quote=BERT_HEAD + BERT_ROWS[(1, seq)] + "\n" + BERT_ROWS[(nodes, seq)] + BERT_TAIL,
        framework="PyTorch DDP (NVIDIA DeepLearningExamples BERT, LAMB, NCCL)" + (", mixed precision" if prec == "amp" else ", TF32"),
        input=dict(sync="ddp", params=330e6, dtype=("fp16" if prec == "amp" else "fp32"), nodes=nodes, gpus_per_node=8,
                   gpu="a100-sxm4-80gb", fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8,
                   grad_accum_steps=ga, seq_len=seq, micro_batch_size=mbs),
        measured_step_s=acc_n / pg_n, baseline_step_s=acc_n / pg_1,
        baseline_note=f"1-node row of the same table (same per-GPU batch {mbs}, {acc_1 // mbs} accumulation steps against {ga} here); step_equiv_s = accumulated batch per GPU of the multi-node run / 1-node sequences/s per GPU",
        inferred=[
            "step_s = accumulated batch per GPU / (throughput / GPUs); one optimizer step per accumulated batch",
            f"grad_accum_steps = accumulated batch / per-GPU batch = {acc_n}/{mbs} = {ga} (matches the accumulation column)",
            "params = 330M as the README's model table states for BERT-large",
            ("dtype fp16: the README says APEX AMP O2 (fp16 weights and gradients); its January 2022 changelog says pre-training moved to native AMP and native DDP, which would reduce fp32 gradients - not resolved" if prec == "amp" else "dtype fp32 (TF32 run)"),
            "fabric: DGX A100 with 8 x 200 Gb/s HDR InfiniBand compute ports assumed (DGX A100 specification; the README states no fabric)",
            "GPUDirect RDMA on assumed (not stated)",
            "source not commit-pinned: the stored copy of this README (pytorch:21.11-py3 numbers, changelog through January 2022) is not tied to a commit in the index; the pinned commit 23a6382 holds an older 19.07 table",
            "sync ddp: PyTorch DDP; whether the all-reduce runs once after the accumulation (allreduce_post_accumulation) or overlapped with the last backward is not stated",
        ])

# ---------------------------------------------------------------------------------------------------------------
# 5. NVIDIA DeepLearningExamples, BART-large pre-training, 1 vs 40 DGX A100 80GB.
# ---------------------------------------------------------------------------------------------------------------
BART_SRC = "https://github.com/NVIDIA/DeepLearningExamples/blob/305744e64735c237d3cd23cd69cadf715d845ebd/PyTorch/LanguageModeling/BART/README.md"
BART_HEAD = ("##### Pre-training accuracy: NVIDIA DGX A100 (320x A100 80GB)\n"
             "| Nodes | Sequence Length | Batch size/GPU (BF16) | Accumulation Steps | Final loss - BF16 | Time to train (hrs) - BF16 |\n"
             "|    40 | 128 | 200 | 1 | 0.5095 | 17.38 |\n|    40 | 512 |  32 | 3 | 0.6085 |  3.28 |\n"
             "##### Pre-training performance: Multi-node on NVIDIA DGX A100 (8x A100 80GB)\n"
             "Our results were obtained by running the `run_pretraining.sh` training script in the PyTorch 22.08-py3 NGC container on multi node NVIDIA DGX A100 (8x A100 80GB) GPUs.\n"
             "| Nodes | Sequence Length |Batch size / GPU (TF32, BF16) | Throughput - TF32 | Throughput - BF16 | Throughput speedup (TF32 - BF16) | Weak scaling - TF32 | Weak scaling - BF16 |\n")
BART_ROWS = {
    128: ("|    1 |       128       | 100, 200 |    1556.23 |   2572.86 | 1.65 | 1 | 1 |\n"
          "|   40 |       128       | 100, 200 |  61,538.46 |  97028.51 | 1.58 | 39.54 | 37.71 |"),
    512: ("|    1 |       512       | 16, 32 |    317.85 |   549.67 | 1.73 | 1 | 1 |\n"
          "|   40 |       512       | 16, 32 | 11,636.36 | 19948.05 | 1.71 | 36.61 | 36.29 |"),
}
for seq, mbs, ga, thr40, thr1 in [(128, 200, 1, 97028.51, 2572.86), (512, 32, 3, 19948.05, 549.67)]:
    pg40, pg1 = thr40 / 320, thr1 / 8
    add(id=f"dle-dgxa100-80g-ib-bart-large-bf16-s{seq}-40node",
        series=f"dle-dgxa100-80g-bart-large-pretrain-bf16-s{seq}",
        source=BART_SRC,
        source_group="dle-dgxa100-80g: DeepLearningExamples' BERT and BART pages, NVIDIA's DGX A100 80GB runs",
        quote=BART_HEAD + BART_ROWS[seq],
        framework="PyTorch DDP (NVIDIA DeepLearningExamples BART pre-training, BF16 autocast, NCCL)",
        input=dict(sync="ddp", params=406.3e6, dtype="fp32", nodes=40, gpus_per_node=8, gpu="a100-sxm4-80gb",
                   fabric="infiniband", gdr=True, link_gbps=200, adapters_per_node=8, grad_accum_steps=ga,
                   seq_len=seq, micro_batch_size=mbs),
        measured_step_s=ga * mbs / pg40, baseline_step_s=ga * mbs / pg1,
        baseline_note="1-node row of the same multi-node table (same per-GPU batch); its accumulation is not stated (the default run_pretraining.sh on 8 GPUs uses 40/120 accumulation steps), so the baseline may amortise its all-reduce over more micro-batches",
        inferred=[
            f"grad_accum_steps = {ga} at 40 nodes from the accuracy table (40 nodes, seq {seq}, batch {mbs}); assumed to hold for the performance row",
            f"step_s = {ga} x {mbs} / (throughput / 320 GPUs); baseline.step_equiv_s = the same sequences / (1-node throughput / 8)",
            "params = 406.3M counted from BART-large's shape (12+12 layers, d_model 1024, FFN 4096, vocab 50265, 1026 learned positions per side, shared embeddings); not stated in the README",
            "dtype fp32: BF16 autocast keeps fp32 parameters, so DDP reduces fp32 gradients (assumed; the README does not say)",
            "fabric: DGX A100 with 8 x 200 Gb/s HDR InfiniBand compute ports assumed (not stated)",
            "GPUDirect RDMA on assumed (not stated)",
            "the 20-node rows are left out: their accumulation is not stated anywhere",
        ])

# ---------------------------------------------------------------------------------------------------------------
# 6. DLPerf (OneFlow): NVIDIA DLE PyTorch ResNet-50 and BERT-base on 4 nodes x 8 V100 16GB, one 100 Gb/s EDR port.
# ---------------------------------------------------------------------------------------------------------------
DLP_RN = "https://github.com/Oneflow-Inc/DLPerf/blob/038634b9d6afc41f76a4712c7614d2e8b5b9c22c/NVIDIADeepLearningExamples/PyTorch/resnet50v1.5/README.md"
DLP_BERT = "https://github.com/Oneflow-Inc/DLPerf/blob/28a48de7fe7744125963ef9cde66efde10bca9a1/NVIDIADeepLearningExamples/PyTorch/BERT/README.md"
DLP_HW = ("  - GPU：Tesla V100-SXM2-16GB x 8\n"
          "root@VS002:/workspace/rn50# ibstat\nCA 'mlx5_0'\n        CA type: MT4115\n        Number of ports: 1\n"
          "        Firmware version: 12.27.1016\n        Hardware version: 0\n        Node GUID: 0x506b4b0300f37674\n"
          "        System image GUID: 0x506b4b0300f37674\n        Port 1:\n                State: Active\n"
          "                Physical state: LinkUp\n                Rate: 100\n"
          "本次测试集群中有 4 台节点：\n每个节点有 8 张 V100 显卡， 每张显卡显存 16 G。\n"
          "测试进行了多组训练（本测试中取 5 次），每次训练过程取第 1 个 epoch 的前 150 iter，计算训练速度时只取后 100 iter 的数据，以降低抖动。最后将 5 次训练的结果取中位数得到最终速度\n")
RN_FP32 = ("- ### ResNet50 v1.5 batch_size = 128\n"
           "| node_num | gpu_num_per_node | batch_size_per_device | samples/s(PyTorch) | speedup |\n"
           "| 1        | 8                | 128                   | 2887.65            | 7.86    |\n")
RN_FP32_ROWS = {2: "| 2        | 8                | 128                   | 5716.79            | 15.56   |",
                4: "| 4        | 8                | 128                   | 10917.09           | 29.72   |"}
RN_AMP = ("- ### ResNet50 v1.5 batch_size = 256\n"
          "| node_num | gpu_num_per_node | batch_size_per_device | samples/s(PyTorch) | speedup |\n"
          "| 1        | 8                | 256                   | 6154.66            | 7.67    |\n")
RN_AMP_ROWS = {2: "| 2        | 8                | 256                   | 11991.94           | 14.94   |",
               4: "| 4        | 8                | 256                   | 22551.16           | 28.09   |"}
RN_AMP_REPEATS = {
    1: [6173.05, 6135.08, 6160.56, 6154.66, 6130.69],
    2: [11991.94, 11964.81, 11896.95, 11999.35, 12046.71],
    4: [22978.13, 22053.98, 22551.16, 23049.75, 22364.13],
}
RN_AMP_REPEAT_Q = {
    2: "/workspace/rn50/scripts/j5_amp_ngc/pytorch/2n8g/r50_b256_amp_1.log {3: 11991.94, 5: 11964.81, 2: 11896.95, 4: 11999.35, 1: 12046.71}",
    4: "/workspace/rn50/scripts/j5_amp_ngc/pytorch/4n8g/r50_b256_amp_1.log {3: 22978.13, 5: 22053.98, 2: 22551.16, 4: 23049.75, 1: 22364.13}",
}
DLP_COMMON_INF = [
    "1 adapter per node: ibstat lists a single CA (mlx5_0, MT4115 = ConnectX-4, one port, Rate: 100) and the DLPerf GPT README on the same 4-node cluster lists 'InfiniBand 100 Gb/sec (4X EDR)'",
    "GPUDirect RDMA on assumed (not stated; the IB user-space driver had to be installed inside the container, so GDR is less certain here than elsewhere)",
    "GPU: V100-SXM2-16GB stated; catalog v100-sxm2-16gb (NVLink hybrid cube mesh, as the DLPerf nvidia-smi topo shows)",
    "shares the 4 x 8 V100 cluster with DLPerf's Megatron tables, which are held out; these are different runs (ResNet-50/BERT DDP), not read from those tables",
]
for prec, b, base_thr, rows, dtype in [("fp32", 128, 2887.65, RN_FP32_ROWS, "fp32"), ("amp", 256, 6154.66, RN_AMP_ROWS, "fp16")]:
    thr = {2: 5716.79, 4: 10917.09} if prec == "fp32" else {2: 11991.94, 4: 22551.16}
    for nodes in (2, 4):
        gpus = nodes * 8
        noise = None
        q = DLP_HW + (RN_FP32 if prec == "fp32" else RN_AMP) + rows[nodes]
        if prec == "amp":
            steps = [b / (v / gpus) for v in RN_AMP_REPEATS[nodes]]
            noise = max(steps) - min(steps)
            q += "\n" + RN_AMP_REPEAT_Q[nodes]
        add(id=f"dlperf-v100-ib100x1-resnet50-{prec}-b{b}-{nodes}node",
            series=f"dlperf-v100-ib100x1-resnet50-pytorch-{prec}",
            source=DLP_RN,
            source_group="dlperf-v100: DLPerf's ResNet-50 and BERT pages, one 4-node V100 cluster",
            quote=q,
            framework="PyTorch (NVIDIA DeepLearningExamples ConvNets, 20.03 NGC, apex DDP, NCCL 2.5.6)" + (", AMP" if prec == "amp" else ""),
            input=dict(sync="ddp", params=25557032, dtype=dtype, nodes=nodes, gpus_per_node=8, gpu="v100-sxm2-16gb",
                       fabric="infiniband", gdr=True, link_gbps=100, adapters_per_node=1, micro_batch_size=b),
            measured_step_s=b / (thr[nodes] / gpus), baseline_step_s=b / (base_thr / 8),
            baseline_note="1 node x 8 GPUs row of the same table, same batch_size_per_device; median of 5 runs like the multi-node row",
            noise_s=noise,
            inferred=[
                f"step_s = batch_size_per_device ({b}) / (samples/s / GPUs), samples/s the median of 5 runs",
                ("noise_s = spread (max - min) of the step over the 5 repeats of this node count" if prec == "amp" else "noise: the FP32 repeats are not listed, so 2% of the compute"),
                "params: torchvision-equivalent ResNet-50 v1.5, 25,557,032",
                ("dtype fp16 assumed: early-2020 ConvNets code runs apex AMP at opt_level O2 (fp16 weights and gradients); later versions use O1 (fp32 gradients) - not verified for the 20.03 commit" if prec == "amp" else "dtype fp32"),
                "bucket: apex DistributedDataParallel's default bucketing (message_size 10M elements) not modelled; model default 25 MiB",
            ] + DLP_COMMON_INF)

BERT_FP32 = ("- #### BERT-Base batch_size = 32\n"
             "| node_num | gpu_num_per_node | batch_size_per_device | samples/s(PyTorch) | speedup |\n"
             "| 1        | 8                | 32                    | 921.32             | 7.7     |\n")
BERT_FP32_ROWS = {2: "| 2        | 8                | 32                    | 1499.4             | 12.54   |",
                  4: "| 4        | 8                | 32                    | 2885.81            | 24.13   |"}
BERT_FP16 = ("- #### BERT-Base batch_size = 96\n"
             "| node_num | gpu_num_per_node | batch_size_per_device | samples/s(PyTorch) | speedup |\n"
             "| 1        | 8                | 96                    | 3287.12            | 7.11    |\n")
BERT_FP16_ROWS = {2: "| 2        | 8                | 96                    | 5426.07            | 11.74   |",
                  4: "| 4        | 8                | 96                    | 10349.12           | 22.38   |"}
BERT_FP16_REPEATS = {2: [5366.7, 5426.07, 5448.97, 5439.94, 5410.84], 4: [10273.14, 10552.87, 10324.68, 10349.12, 10414.77]}
BERT_FP16_REPEAT_Q = {
    2: "/workspace/examples/bert/test_scripts/fp16_ngc_bert_b96/pytorch/2n8g/bert-base-adam-training_b96_fp16_2.log {5: 5366.7, 1: 5426.07, 3: 5448.97, 4: 5439.94, 2: 5410.84}",
    4: "/workspace/examples/bert/test_scripts/fp16_ngc_bert_b96/pytorch/4n8g/bert-base-adam-training_b96_fp16_2.log {5: 10273.14, 1: 10552.87, 3: 10324.68, 4: 10349.12, 2: 10414.77}",
}
BERT_METHOD_Q = "测试进行了多组训练（本测试中取 5 次），每次训练过程只取第 1 个 epoch 的前 150 iter，计算训练速度时取后 100 iter 的数据，以降低抖动。最后将 5 次训练的结果取中位数得到最终速度\n"
BERT_SCRIPT_Q = ("scripts/single_node_train.sh: 'CMD+=\" --bert_model=bert-base-uncased\"' 'CMD+=\" --max_seq_length=128\"' "
                 "'gradient_accumulation_steps=${15:-1}' 'allreduce_post_accumulation=${14:-\"false\"}'\n"
                 "DLE-derived run_pretraining.py copies in the code index (not the pinned 20.03 file): 'model = DDP(model, message_size=250000000, gradient_predivide_factor=get_world_size())'\n")
for prec, b, base_thr, rows, dtype in [("fp32", 32, 921.32, BERT_FP32_ROWS, "fp32"), ("fp16", 96, 3287.12, BERT_FP16_ROWS, "fp16")]:
    thr = {2: 1499.4, 4: 2885.81} if prec == "fp32" else {2: 5426.07, 4: 10349.12}
    for nodes in (2, 4):
        gpus = nodes * 8
        noise = None
        hw = DLP_HW.split("测试进行了多组训练")[0]
        q = hw.replace("root@VS002:/workspace/rn50# ibstat", "(ibstat, from the DLPerf ResNet-50 README that this README links for the IB setup) root@VS002:/workspace/rn50# ibstat") + BERT_METHOD_Q + (BERT_FP32 if prec == "fp32" else BERT_FP16) + rows[nodes] + "\n" + BERT_SCRIPT_Q
        if prec == "fp16":
            steps = [b / (v / gpus) for v in BERT_FP16_REPEATS[nodes]]
            noise = max(steps) - min(steps)
            q += BERT_FP16_REPEAT_Q[nodes]
        add(id=f"dlperf-v100-ib100x1-bert-base-{prec}-b{b}-{nodes}node",
            series=f"dlperf-v100-ib100x1-bert-base-pytorch-{prec}",
            source=DLP_BERT,
            source_group="dlperf-v100: DLPerf's ResNet-50 and BERT pages, one 4-node V100 cluster",
            quote=q,
            framework="PyTorch (NVIDIA DeepLearningExamples BERT, 20.03 NGC, apex DDP, FusedAdam, NCCL 2.5.6)" + (", --fp16" if prec == "fp16" else ""),
            input=dict(sync="ddp", params=110e6, dtype=dtype, nodes=nodes, gpus_per_node=8, gpu="v100-sxm2-16gb",
                       fabric="infiniband", gdr=True, link_gbps=100, adapters_per_node=1,
                       bucket_bytes=250000000 * (2 if dtype == "fp16" else 4), seq_len=128, micro_batch_size=b),
            measured_step_s=b / (thr[nodes] / gpus), baseline_step_s=b / (base_thr / 8),
            baseline_note="1 node x 8 GPUs row of the same table, same batch_size_per_device, seq 128, no accumulation",
            noise_s=noise,
            inferred=[
                f"step_s = batch_size_per_device ({b}) / (samples/s / GPUs), samples/s the median of 5 runs",
                ("noise_s = spread (max - min) of the step over the 5 repeats of this node count" if prec == "fp16" else "noise: the FP32 repeats are not listed, so 2% of the compute"),
                "params = 110M (BERT-base, the DLE README's model table); sequence length 128 and no gradient accumulation from scripts/single_node_train.sh",
                "bucket_bytes = apex DDP message_size 250,000,000 elements x gradient element size, from DLE-derived copies of run_pretraining.py (the pinned 20.03 file itself not read): larger than the whole model, so the all-reduce starts only when backward ends (no overlap)",
                ("dtype fp16: --fp16 runs apex AMP with fp16 weights in this DLE version, so apex DDP reduces fp16 gradients (assumed from the code, not stated)" if prec == "fp16" else "dtype fp32"),
            ] + DLP_COMMON_INF)

about = ("Candidate public multi-node training runs collected for tests/data/steps/runs.json (same format: noise_s is "
         "the run's own reported run-to-run spread in seconds, else 2% of the compute, and noise_basis says which). Each run's baseline is "
         "the same source's single-node (or single-GPU) step with the same per-GPU work, given to the model as compute; "
         "measured_step_s and baseline_step_s are derived from the quoted throughputs (see inferred). Nothing here is "
         "fitted but what a run's `fitted` names (a model term added after the run was collected, while looking at "
         "it). See NOTES.md for the sources looked at and rejected.")
write(__file__, about, RUNS)
