//! The table of inputs: one entry per input of a `ScenarioInput`, in the order the model checks them.

use super::{Input, Key, Kind, Notation, Role, Value};
use crate::scenario::{ComputeInput, Field, limits};

fn opt_count(v: Option<i64>) -> Value {
    v.map_or(Value::Unset, Value::Count)
}

fn opt_number(v: Option<f64>) -> Value {
    v.map_or(Value::Unset, Value::Number)
}

/// The largest parallel degree: every GPU of the largest job.
const MAX_DEGREE: i64 = limits::MAX_NODES * limits::MAX_GPUS_PER_NODE;

const FRACTION: f64 = limits::MIN_FRACTION;

/// Every scenario input, in the order the model checks them (the first error is the one reported).
pub static INPUTS: [Input; 41] = [
    Input {
        field: Field::Model,
        json: "model",
        flag: Key::At("model"),
        url: Key::At("model"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Text,
        optional: true,
        label: "Model",
        help: help!(
            "A model from the shape catalog (`estimate catalog` lists them): llama-3.1-70b, mixtral-8x7b, \
               deepseek-v3, ...; its parameter count, layers, hidden size and experts size the traffic and the \
               activations."
        ),
        get: |i| i.model.clone().map_or(Value::Unset, Value::Text),
    },
    Input {
        field: Field::Params,
        json: "params",
        flag: Key::At("params"),
        url: Key::At("params"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Number { min: 1.0, max: limits::MAX_PARAMS, unit: " parameters", notation: Notation::Count },
        optional: false,
        label: "Model size (parameters)",
        help: help!("Parameter count: 7e9, 7B, 70B, 1.5T (default 7B; --model brings its own)."),
        get: |i| Value::Number(i.params),
    },
    Input {
        field: Field::Dtype,
        json: "dtype",
        flag: Key::At("dtype"),
        url: Key::At("dtype"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Choice { names: &["fp32", "bf16", "fp16", "fp8"] },
        optional: false,
        label: "Gradient type",
        help: help!("Gradient element type: fp32, bf16, fp16, fp8."),
        get: |i| Value::Text(i.dtype.name().to_string()),
    },
    Input {
        field: Field::Sync,
        json: "sync",
        flag: Key::At("sync"),
        url: Key::At("sync"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Choice { names: &["ddp", "zero1", "zero2", "zero3", "hsdp"] },
        optional: false,
        label: "Sync strategy",
        help: help!(
            "Gradient sync: ddp (all-reduce), zero1 or zero2 (sharded optimizer states, and gradients for zero2: \
               reduce-scatter, then the parameters gathered after the optimizer), zero3 or fsdp (parameters \
               gathered per layer, 1.5x the volume), hsdp (FSDP inside a shard group, a node by default; only the \
               gradient shards' all-reduce crosses groups). Not given: `estimate step` and `plan` choose the \
               fastest layout that fits and say so; `check-run` takes ddp."
        ),
        get: |i| Value::Text(i.sync.name().to_string()),
    },
    Input {
        field: Field::GradAccumSteps,
        json: "grad_accum_steps",
        flag: Key::At("grad-accum-steps"),
        url: Key::At("accum"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: limits::MAX_GRAD_ACCUM },
        optional: false,
        label: "Gradient-accumulation steps",
        help: help!("Gradient-accumulation micro-steps per optimizer step (one sync per optimizer step)."),
        get: |i| Value::Count(i.grad_accum_steps),
    },
    Input {
        field: Field::BucketBytes,
        json: "bucket_bytes",
        flag: Key::At("bucket-bytes"),
        url: Key::Not(help!("the page keeps DDP's default 25 MiB buckets")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Number {
            min: limits::MIN_BUCKET_BYTES,
            max: limits::MAX_BUCKET_BYTES,
            unit: " bytes",
            notation: Notation::Bytes,
        },
        optional: true,
        label: "Gradient bucket",
        help: help!(
            "Gradient bucket size (raw bytes or KiB/MiB/GiB/KB/MB/GB); each bucket pays the latency. Not given: the \
             framework's default (DDP 25 MiB, Megatron max(40M, 1M x DP) elements, DeepSpeed 5e8 elements, XLA 30 \
             MiB, FSDP one per unit)."
        ),
        get: |i| opt_number(i.bucket_bytes),
    },
    Input {
        field: Field::Framework,
        json: "framework",
        flag: Key::At("framework"),
        url: Key::Not(help!("the page takes the framework the layout implies")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Choice { names: &["ddp", "megatron", "deepspeed", "fsdp", "jax"] },
        optional: true,
        label: "Framework",
        help: help!(
            "The framework whose defaults size the gradient buckets: ddp, megatron, deepspeed, fsdp or jax. Not \
             given: from the layout (ZeRO-1/2 with TP or PP: megatron; other ZeRO-1/2: deepspeed; ZeRO-3 and HSDP: \
             fsdp; DDP: ddp)."
        ),
        get: |i| i.framework.map_or(Value::Unset, |f| Value::Text(f.name().to_string())),
    },
    Input {
        field: Field::Compute,
        json: "compute.kind",
        flag: Key::Not(help!("chosen by which is given: --compute-ms, or --tokens-per-step and --mfu")),
        url: Key::At("compute"),
        role: Role::Compute,
        from_report: false,
        kind: Kind::Choice { names: &["tokens", "given"] },
        optional: false,
        label: "Compute time",
        help: help!("Where the compute time comes from: tokens per step and MFU, or a time given per step."),
        get: |i| {
            Value::Text(match i.compute {
                ComputeInput::Tokens { .. } => "tokens".to_string(),
                ComputeInput::Given { .. } => "given".to_string(),
            })
        },
    },
    Input {
        field: Field::ComputeMs,
        json: "compute.ms",
        flag: Key::At("compute-ms"),
        url: Key::At("compute_ms"),
        role: Role::Compute,
        from_report: false,
        kind: Kind::Number { min: 0.0, max: limits::MAX_COMPUTE_MS, unit: " ms", notation: Notation::Plain },
        optional: false,
        label: "Compute per step",
        help: help!(
            "Compute time per optimizer step in milliseconds on the scenario's nodes (instead of deriving it from \
             tokens; with --tokens-per-step, those are the global batch that sets the micro-batches); another node \
             count keeping the global batch splits it over its GPUs."
        ),
        get: |i| match i.compute {
            ComputeInput::Given { ms } => Value::Number(ms),
            ComputeInput::Tokens { .. } => Value::Unset,
        },
    },
    Input {
        field: Field::TokensPerStep,
        json: "compute.tokens_per_step",
        flag: Key::At("tokens-per-step"),
        url: Key::At("tokens"),
        role: Role::Compute,
        from_report: false,
        kind: Kind::Number { min: 1.0, max: limits::MAX_TOKENS_PER_STEP, unit: " tokens", notation: Notation::Count },
        optional: false,
        label: "Tokens per optimizer step",
        help: help!(
            "Tokens per optimizer step across all GPUs (4Mi, 1e6; default 4Mi = 4,194,304, and 4M is \
               4,000,000); compute = 6 x params x tokens / (GPUs x peak x MFU)."
        ),
        get: |i| match i.compute {
            ComputeInput::Tokens { tokens_per_step, .. } => Value::Number(tokens_per_step),
            ComputeInput::Given { .. } => Value::Unset,
        },
    },
    Input {
        field: Field::Mfu,
        json: "compute.mfu",
        flag: Key::At("mfu"),
        url: Key::At("mfu"),
        role: Role::Compute,
        from_report: false,
        kind: Kind::Share { min: FRACTION, max: 1.0 },
        optional: false,
        label: "MFU",
        help: help!("Model FLOPs utilisation for the derived compute time, 0..1."),
        get: |i| match i.compute {
            ComputeInput::Tokens { mfu, .. } => Value::Number(mfu),
            ComputeInput::Given { .. } => Value::Unset,
        },
    },
    Input {
        field: Field::ActivationBytesPerGpu,
        json: "activation_bytes_per_gpu",
        flag: Key::At("activation-bytes-per-gpu"),
        url: Key::Not(help!("the page sizes activations from the model's shape")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Number { min: 0.0, max: limits::MAX_ACTIVATION_BYTES, unit: " bytes", notation: Notation::Bytes },
        optional: false,
        label: "Activation memory per GPU",
        help: help!(
            "Activation memory per GPU to add to the memory fit (bytes or KiB/MiB/GiB/KB/MB/GB); 0 with --model: \
               from the model's shape."
        ),
        get: |i| Value::Number(i.activation_bytes_per_gpu),
    },
    Input {
        field: Field::Nodes,
        json: "nodes",
        flag: Key::At("nodes"),
        url: Key::At("nodes"),
        role: Role::Nodes,
        from_report: false,
        kind: Kind::Count { min: 1, max: limits::MAX_NODES },
        optional: false,
        label: "Nodes",
        help: help!("Number of nodes (above 1, --adapters and --link-gbps are required)."),
        get: |i| Value::Count(i.nodes),
    },
    Input {
        field: Field::Gpu,
        json: "gpu",
        flag: Key::At("gpu"),
        url: Key::At("gpu"),
        role: Role::Hardware,
        from_report: true,
        kind: Kind::Text,
        optional: false,
        label: "GPU",
        help: help!(
            "GPU model: a catalog key (h100-sxm), a name NVML reports (\"NVIDIA H100 80GB HBM3\") or a fragment \
               (h100)."
        ),
        get: |i| Value::Text(i.gpu.clone()),
    },
    Input {
        field: Field::GpusPerNode,
        json: "gpus_per_node",
        flag: Key::At("gpus-per-node"),
        url: Key::At("gpus"),
        role: Role::Hardware,
        from_report: true,
        kind: Kind::Count { min: 1, max: limits::MAX_GPUS_PER_NODE },
        optional: false,
        label: "GPUs per node",
        help: help!("GPUs per node."),
        get: |i| Value::Count(i.gpus_per_node),
    },
    Input {
        field: Field::IntraNode,
        json: "intra_node",
        flag: Key::At("intra-node"),
        url: Key::Not(help!("the page takes each GPU's usual intra-node link from the catalog")),
        role: Role::Hardware,
        from_report: false,
        kind: Kind::Choice { names: &["nvswitch", "nvlink", "xgmi", "pcie", "pcie-host-staged"] },
        optional: true,
        label: "Intra-node link",
        help: help!("Intra-node link, when it differs from the GPU's usual one."),
        get: |i| i.intra_node.map_or(Value::Unset, |l| Value::Text(l.name().to_string())),
    },
    Input {
        field: Field::AdaptersPerNode,
        json: "adapters_per_node",
        flag: Key::At("adapters"),
        url: Key::At("adapters"),
        role: Role::Hardware,
        from_report: true,
        kind: Kind::Count { min: 0, max: limits::MAX_ADAPTERS_PER_NODE },
        optional: false,
        label: "Adapters per node",
        help: help!("Network adapters per node (RDMA NICs, or Ethernet ports for tcp)."),
        get: |i| Value::Count(i.adapters_per_node),
    },
    Input {
        field: Field::LinkGbps,
        json: "link_gbps",
        flag: Key::At("link-gbps"),
        url: Key::At("link"),
        role: Role::Hardware,
        from_report: true,
        kind: Kind::Number {
            min: limits::MIN_LINK_GBPS,
            max: limits::MAX_LINK_GBPS,
            unit: " Gb/s",
            notation: Notation::Gbps,
        },
        optional: false,
        label: "Line rate per adapter",
        help: help!("Line rate of one adapter, Gb/s (25, 100, 200, 400, ...; 400G, 400Gb/s and 100GbE read too)."),
        get: |i| Value::Number(i.link_gbps),
    },
    Input {
        field: Field::Fabric,
        json: "fabric",
        flag: Key::At("fabric"),
        url: Key::At("fabric"),
        role: Role::Hardware,
        from_report: true,
        kind: Kind::Choice {
            names: &["infiniband", "roce", "efa", "efa-v2", "efa-v3", "tcpx", "tcpxo", "rdma", "tcp"],
        },
        optional: false,
        label: "Fabric",
        help: help!(
            "Fabric: ib (infiniband), roce, efa, rdma (other RDMA/plugin fabric), tcp (Ethernet without RDMA)."
        ),
        get: |i| Value::Text(i.fabric.name().to_string()),
    },
    Input {
        field: Field::Gdr,
        json: "gdr",
        flag: Key::At("no-gdr"),
        url: Key::At("gdr"),
        role: Role::Hardware,
        from_report: true,
        kind: Kind::Switch,
        optional: false,
        label: "GPUDirect RDMA",
        help: help!("GPUDirect RDMA is off: the NICs go through host memory."),
        get: |i| Value::Switch(i.gdr),
    },
    Input {
        field: Field::Algorithm,
        json: "algorithm",
        flag: Key::At("algo"),
        url: Key::Not(help!("the page models NCCL's default choice")),
        role: Role::Hardware,
        from_report: false,
        kind: Kind::Choice { names: &["auto", "ring"] },
        optional: false,
        label: "All-reduce algorithm",
        help: help!("All-reduce algorithm: auto (NCCL's default: NVLS on one NVSwitch node) or ring (NCCL_ALGO=Ring)."),
        get: |i| Value::Text(i.algorithm.name().to_string()),
    },
    Input {
        field: Field::Overlap,
        json: "overlap",
        flag: Key::At("overlap"),
        url: Key::At("overlap"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Share { min: 0.0, max: 1.0 },
        optional: true,
        label: "Communication overlapped (empty: the schedule's)",
        help: help!(
            "Override: share of the communication hidden behind compute, 0..1 (default: what the frameworks' \
               schedule hides: DDP's buckets behind the backward pass, FSDP's prefetched gathers, ...)."
        ),
        get: |i| opt_number(i.overlap),
    },
    Input {
        field: Field::LinkEfficiency,
        json: "link_efficiency",
        flag: Key::At("link-efficiency"),
        url: Key::At("efficiency"),
        role: Role::Tuning,
        from_report: false,
        kind: Kind::Share { min: FRACTION, max: 1.0 },
        optional: true,
        label: "Adapter efficiency (empty: the fabric's)",
        help: help!("Override: bus bandwidth per adapter as a share of line rate (0..1)."),
        get: |i| opt_number(i.link_efficiency),
    },
    Input {
        field: Field::LatencyUs,
        json: "latency_us",
        flag: Key::At("latency-us"),
        url: Key::At("latency_us"),
        role: Role::Tuning,
        from_report: false,
        kind: Kind::Number { min: 0.0, max: limits::MAX_LATENCY_US, unit: " us", notation: Notation::Plain },
        optional: true,
        label: "Latency per collective (empty: the model's)",
        help: help!("Override: latency of one all-reduce, microseconds."),
        get: |i| opt_number(i.latency_us),
    },
    Input {
        field: Field::RingFactor,
        json: "ring_factor",
        flag: Key::At("ring-factor"),
        url: Key::Not(help!("the reference arithmetic shows the ring factor; the model uses 2(N-1)/N")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Number { min: FRACTION, max: 2.0, unit: "", notation: Notation::Plain },
        optional: true,
        label: "Ring factor",
        help: help!(
            "Override the ring factor 2(N-1)/N (2 gives the many-participants bound of the reference arithmetic)."
        ),
        get: |i| opt_number(i.ring_factor),
    },
    Input {
        field: Field::MeasuredBusbwGbs,
        json: "measured_busbw_gbs",
        flag: Key::At("measured-busbw-gbs"),
        url: Key::At("busbw"),
        role: Role::Tuning,
        from_report: false,
        kind: Kind::Number {
            min: FRACTION,
            max: limits::MAX_MEASURED_BUSBW_GBS,
            unit: " GB/s",
            notation: Notation::Plain,
        },
        optional: true,
        label: "Measured bus bandwidth (empty: the model's)",
        help: help!(
            "Override: the all-reduce bus bandwidth you measured with nccl-tests on this hardware and node count, \
               GB/s; it replaces the modelled one (`probe-cli import run.log` prints it)."
        ),
        get: |i| opt_number(i.measured_busbw_gbs),
    },
    Input {
        field: Field::TargetExposedShare,
        json: "target_exposed_share",
        flag: Key::At("target-exposed-share"),
        url: Key::Not(help!("the page's recommendation keeps exposed communication under 10%")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Share { min: FRACTION, max: 1.0 },
        optional: false,
        label: "Exposed communication allowed",
        help: help!("Exposed communication allowed as a share of the step when recommending a fabric."),
        get: |i| Value::Number(i.target_exposed_share),
    },
    Input {
        field: Field::Tp,
        json: "tp",
        flag: Key::At("tp"),
        url: Key::At("tp"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: MAX_DEGREE },
        optional: false,
        label: "Tensor parallel",
        help: help!("Tensor-parallel degree (inside a node unless larger than a node)."),
        get: |i| Value::Count(i.tp),
    },
    Input {
        field: Field::Pp,
        json: "pp",
        flag: Key::At("pp"),
        url: Key::At("pp"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: MAX_DEGREE },
        optional: false,
        label: "Pipeline stages",
        help: help!("Pipeline stages."),
        get: |i| Value::Count(i.pp),
    },
    Input {
        field: Field::Ep,
        json: "ep",
        flag: Key::At("ep"),
        url: Key::At("ep"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: MAX_DEGREE },
        optional: false,
        label: "Expert parallel",
        help: help!(
            "Expert-parallel degree (a mixture-of-experts --model): the routed experts over this many of a \
               pipeline stage's tensor x data-parallel ranks, as megatron-core folds them (it may exceed the \
               data-parallel degree)."
        ),
        get: |i| Value::Count(i.ep),
    },
    Input {
        field: Field::Etp,
        json: "etp",
        flag: Key::At("etp"),
        url: Key::At("etp"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: MAX_DEGREE },
        optional: true,
        label: "Expert tensor parallel (empty: the TP)",
        help: help!(
            "Expert tensor-parallel degree: each routed expert split over this many ranks (megatron-core's \
               --expert-tensor-parallel-size; default: --tp, as megatron-core's). ETP 1 keeps EP 8 beside TP 2 in \
               an 8-GPU node."
        ),
        get: |i| opt_count(i.etp),
    },
    Input {
        field: Field::MicroBatches,
        json: "micro_batches",
        flag: Key::At("micro-batches"),
        url: Key::At("micro_batches"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: 1_000_000 },
        optional: true,
        label: "Micro-batches (empty: the model's)",
        help: help!(
            "Micro-batches per optimizer step in each pipeline (default: tokens per step / (seq len x \
               micro-batch size x data-parallel GPUs), or --grad-accum-steps)."
        ),
        get: |i| opt_count(i.micro_batches),
    },
    Input {
        field: Field::SeqLen,
        json: "seq_len",
        flag: Key::At("seq-len"),
        url: Key::At("seq_len"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: 10_000_000 },
        optional: false,
        label: "Sequence length",
        help: help!("Tokens per sequence."),
        get: |i| Value::Count(i.seq_len),
    },
    Input {
        field: Field::MicroBatchSize,
        json: "micro_batch_size",
        flag: Key::At("micro-batch-size"),
        url: Key::At("mbs"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: 1_000_000 },
        optional: false,
        label: "Micro-batch size",
        help: help!("Sequences per micro-batch on each GPU."),
        get: |i| Value::Count(i.micro_batch_size),
    },
    Input {
        field: Field::ShardGroup,
        json: "shard_group",
        flag: Key::At("shard-group"),
        url: Key::Not(help!("HSDP's shard group is one node's data-parallel GPUs on the page")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Count { min: 1, max: MAX_DEGREE },
        optional: true,
        label: "HSDP shard group",
        help: help!("HSDP's shard group in GPUs (default: one node's data-parallel GPUs)."),
        get: |i| opt_count(i.shard_group),
    },
    Input {
        field: Field::NvlinkDomainGpus,
        json: "nvlink_domain_gpus",
        flag: Key::At("nvlink-domain-gpus"),
        url: Key::At("domain"),
        role: Role::Hardware,
        from_report: false,
        kind: Kind::Count { min: 1, max: limits::MAX_NVLINK_DOMAIN_GPUS },
        optional: true,
        label: "NVLink domain (empty: the node)",
        help: help!(
            "GPUs in one NVLink domain, whole nodes of them: 72 for a GB200/GB300 NVL72 rack of 18 trays of 4 \
               GPUs, whose traffic between trays runs over NVLink, not the adapters. Default: the node, or the \
               domain a report's NVML fabric information gives (this flag wins over it)."
        ),
        get: |i| opt_count(i.nvlink_domain_gpus),
    },
    Input {
        field: Field::ActivationCheckpointing,
        json: "activation_checkpointing",
        flag: Key::At("activation-checkpointing"),
        url: Key::At("ckpt"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Switch,
        optional: false,
        label: "Activation checkpointing",
        help: help!("Activation checkpointing: blocks keep their input and recompute the rest in the backward pass."),
        get: |i| Value::Switch(i.activation_checkpointing),
    },
    Input {
        field: Field::TpOverlap,
        json: "tp_overlap",
        flag: Key::At("tp-overlap"),
        url: Key::Not(help!("the page leaves tensor- and expert-parallel traffic exposed")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Switch,
        optional: false,
        label: "Tensor-parallel overlap",
        help: help!("The framework overlaps tensor-parallel communication with compute (Megatron --tp-comm-overlap)."),
        get: |i| Value::Switch(i.tp_overlap),
    },
    Input {
        field: Field::EpOverlap,
        json: "ep_overlap",
        flag: Key::At("ep-overlap"),
        url: Key::Not(help!("the page leaves tensor- and expert-parallel traffic exposed")),
        role: Role::Job,
        from_report: false,
        kind: Kind::Switch,
        optional: false,
        label: "Expert-parallel overlap",
        help: help!("The framework overlaps the expert-parallel all-to-all with compute."),
        get: |i| Value::Switch(i.ep_overlap),
    },
    Input {
        field: Field::OverlapGradReduce,
        json: "overlap_grad_reduce",
        flag: Key::At("overlap-grad-reduce"),
        url: Key::At("grad_overlap"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Switch,
        optional: false,
        label: "ZeRO-1/2: gradient reduce-scatter behind the backward (--overlap-grad-reduce)",
        help: help!(
            "ZeRO-1/2: the gradient reduce-scatter runs bucket by bucket behind the backward (Megatron \
               --overlap-grad-reduce, on in its recipes). false: one reduce-scatter after the backward, exposed \
               (megatron-core's own default)."
        ),
        get: |i| Value::Switch(i.overlap_grad_reduce),
    },
    Input {
        field: Field::OverlapParamGather,
        json: "overlap_param_gather",
        flag: Key::At("overlap-param-gather"),
        url: Key::At("param_overlap"),
        role: Role::Job,
        from_report: false,
        kind: Kind::Switch,
        optional: false,
        label: "ZeRO-1/2: parameter all-gather behind the next forward (--overlap-param-gather)",
        help: help!(
            "ZeRO-1/2: the parameter all-gather after the optimizer step overlaps the next forward (Megatron \
               --overlap-param-gather, on in its recipes). false (default): exposed, as DeepSpeed's ZeRO-1/2 and \
               megatron-core's own default run it."
        ),
        get: |i| Value::Switch(i.overlap_param_gather),
    },
];
