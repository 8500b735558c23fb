//! The plain data of a scenario: what a form, a URL or CLI flags hold, before [`super::Scenario::new`] checks it.

use serde::{Deserialize, Serialize};

use super::Framework;
use crate::catalog::IntraNodeLink;
use crate::fabric::Fabric;

/// Element type of the gradients that are synchronised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GradDtype {
    /// 4 bytes.
    Fp32,
    /// 2 bytes (the default of mixed-precision training).
    #[default]
    Bf16,
    /// 2 bytes.
    Fp16,
    /// 1 byte.
    Fp8,
}

impl GradDtype {
    /// All types, widest first.
    pub const ALL: [GradDtype; 4] = [GradDtype::Fp32, GradDtype::Bf16, GradDtype::Fp16, GradDtype::Fp8];

    /// Bytes per element.
    pub fn bytes(self) -> f64 {
        match self {
            GradDtype::Fp32 => 4.0,
            GradDtype::Bf16 | GradDtype::Fp16 => 2.0,
            GradDtype::Fp8 => 1.0,
        }
    }

    /// The lower-case name (`bf16`).
    pub fn name(self) -> &'static str {
        match self {
            GradDtype::Fp32 => "fp32",
            GradDtype::Bf16 => "bf16",
            GradDtype::Fp16 => "fp16",
            GradDtype::Fp8 => "fp8",
        }
    }

    /// Parses `fp32`, `bf16`, `fp16`, `fp8` (also `float32`, `half`, ...).
    pub fn parse(s: &str) -> Option<GradDtype> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fp32" | "float32" | "f32" | "float" => Some(GradDtype::Fp32),
            "bf16" | "bfloat16" => Some(GradDtype::Bf16),
            "fp16" | "float16" | "f16" | "half" => Some(GradDtype::Fp16),
            "fp8" | "float8" | "e4m3" | "e5m2" => Some(GradDtype::Fp8),
            _ => None,
        }
    }
}

/// How gradients are synchronised once per optimizer step.
///
/// The volumes and the memory of each follow Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
/// Trillion Parameter Models", SC'20: section 7.2.1 (ZeRO-1 and ZeRO-2 move the same 2 x gradient bytes per
/// participant as an all-reduce, as a reduce-scatter plus an all-gather) and 7.2.2 (ZeRO-3 moves 1.5 x). The model
/// states each GPU keeps are what the implementations named below allocate, the larger where they differ
/// ([`crate::memory::state_bytes_per_param`]), not the paper's figure 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SyncStrategy {
    /// Data parallel (PyTorch DDP): one all-reduce of the full gradients; every GPU keeps all model states.
    #[default]
    Ddp,
    /// ZeRO-1: optimizer states sharded; gradients reduce-scattered and parameters all-gathered, the same bytes as
    /// an all-reduce (DeepSpeed `stage: 1`, Megatron-LM `--use-distributed-optimizer`; PyTorch
    /// `ZeroRedundancyOptimizer` moves the same bytes but keeps DDP's memory, see [`crate::memory`]).
    Zero1,
    /// ZeRO-2: optimizer states and gradients sharded; the same bytes as an all-reduce (DeepSpeed `stage: 2`,
    /// FSDP `SHARD_GRAD_OP`).
    Zero2,
    /// ZeRO-3 / FSDP: parameters, gradients and optimizer states sharded; reduce-scatter of gradients plus
    /// all-gather of parameters, 1.5x the DDP volume.
    Zero3,
    /// Hybrid sharding (PyTorch FSDP `HYBRID_SHARD`, FSDP2 with a 2-D mesh): ZeRO-3 inside a shard group (a node
    /// by default), replicated across groups; only the all-reduce of each GPU's gradient shard crosses groups.
    Hsdp,
}

impl SyncStrategy {
    /// Every strategy, in the order a user interface lists them.
    pub const ALL: [SyncStrategy; 5] =
        [SyncStrategy::Ddp, SyncStrategy::Zero1, SyncStrategy::Zero2, SyncStrategy::Zero3, SyncStrategy::Hsdp];

    /// Communication volume relative to a DDP all-reduce (ZeRO paper, sections 7.2.1 and 7.2.2). HSDP moves
    /// ZeRO-3's 1.5x through each GPU's links, most of it inside its shard group.
    pub fn volume_factor(self) -> f64 {
        match self {
            SyncStrategy::Ddp | SyncStrategy::Zero1 | SyncStrategy::Zero2 => 1.0,
            SyncStrategy::Zero3 | SyncStrategy::Hsdp => 1.5,
        }
    }

    /// Whether parameters are sharded and gathered layer by layer (ZeRO-3/FSDP and HSDP).
    pub fn shards_parameters(self) -> bool {
        matches!(self, SyncStrategy::Zero3 | SyncStrategy::Hsdp)
    }

    /// The lower-case name (`ddp`, `zero1`, `zero2`, `zero3`).
    pub fn name(self) -> &'static str {
        match self {
            SyncStrategy::Ddp => "ddp",
            SyncStrategy::Zero1 => "zero1",
            SyncStrategy::Zero2 => "zero2",
            SyncStrategy::Zero3 => "zero3",
            SyncStrategy::Hsdp => "hsdp",
        }
    }

    /// A short human label (`ZeRO-1`).
    pub fn label(self) -> &'static str {
        match self {
            SyncStrategy::Ddp => "DDP",
            SyncStrategy::Zero1 => "ZeRO-1",
            SyncStrategy::Zero2 => "ZeRO-2",
            SyncStrategy::Zero3 => "ZeRO-3/FSDP",
            SyncStrategy::Hsdp => "HSDP",
        }
    }

    /// Parses `ddp`, `zero1`, `zero2`, `zero3` and `hsdp` (also `zero-1`, `shard_grad_op`, `fsdp`, `zero-3`,
    /// `hybrid_shard`).
    pub fn parse(s: &str) -> Option<SyncStrategy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ddp" | "allreduce" | "all-reduce" => Some(SyncStrategy::Ddp),
            "zero1" | "zero-1" | "zero_1" => Some(SyncStrategy::Zero1),
            "zero2" | "zero-2" | "zero_2" | "shard_grad_op" | "shard-grad-op" => Some(SyncStrategy::Zero2),
            "zero3" | "zero-3" | "zero_3" | "fsdp" | "full_shard" | "full-shard" => Some(SyncStrategy::Zero3),
            "hsdp" | "hybrid_shard" | "hybrid-shard" => Some(SyncStrategy::Hsdp),
            _ => None,
        }
    }
}

/// Which all-reduce algorithm to model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// What NCCL picks by default: NVLS on one Hopper/Blackwell NVSwitch node, Ring across nodes (with the
    /// two-node Tree/NVLSTree reading reported beside it).
    #[default]
    Auto,
    /// `NCCL_ALGO=Ring` everywhere: one node uses the Ring bus bandwidth (no NVLS), and no Tree figure is given.
    Ring,
}

impl Algorithm {
    /// Both, in the order a user interface lists them.
    pub const ALL: [Algorithm; 2] = [Algorithm::Auto, Algorithm::Ring];

    /// The lower-case name (`auto`, `ring`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Ring => "ring",
        }
    }

    /// Parses `auto` and `ring`.
    pub fn parse(s: &str) -> Option<Algorithm> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" | "default" => Some(Algorithm::Auto),
            "ring" => Some(Algorithm::Ring),
            _ => None,
        }
    }
}

/// Where the compute time of one optimizer step comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ComputeInput {
    /// Measured or known compute time per optimizer step (all accumulation micro-steps), in milliseconds.
    Given {
        /// Milliseconds.
        ms: f64,
    },
    /// Derived as 6 x params x tokens / (GPUs x peak dense BF16 FLOP/s x MFU) (Kaplan et al. 2020, "Scaling Laws
    /// for Neural Language Models": ~6 FLOPs per parameter per token for forward plus backward).
    Tokens {
        /// Tokens per optimizer step, across all GPUs.
        #[serde(serialize_with = "crate::units::whole")]
        tokens_per_step: f64,
        /// Model FLOPs utilisation, 0..1.
        mfu: f64,
    },
}

/// Default tokens per optimizer step: 1024 sequences of 4096 tokens, the "4M tokens" global batch of Llama 2
/// (Touvron et al. 2023, section 2.2).
pub const DEFAULT_TOKENS_PER_STEP: f64 = 4_194_304.0;
/// Default MFU. Source: PaLM reports 46% MFU (Chowdhery et al. 2022, table 3); Megatron-LM reaches 40-50% on
/// large GPT models; 0.4 is the usual planning figure.
pub const DEFAULT_MFU: f64 = 0.4;
/// Default sequence length: 4096 tokens, Llama 2's context and the sequences of [`DEFAULT_TOKENS_PER_STEP`]
/// (Touvron et al. 2023, section 2.2).
pub const DEFAULT_SEQ_LEN: i64 = 4096;
/// Default target: exposed communication at most this share of the step.
pub const DEFAULT_TARGET_EXPOSED_SHARE: f64 = 0.10;

impl Default for ComputeInput {
    fn default() -> Self {
        ComputeInput::Tokens { tokens_per_step: DEFAULT_TOKENS_PER_STEP, mfu: DEFAULT_MFU }
    }
}

/// Everything one estimate needs, as plain data. Missing keys take the defaults of [`ScenarioInput::default`]:
/// the reference question, a 7B model in BF16 on two 8x H100 nodes with 8x 400 Gb/s InfiniBand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScenarioInput {
    /// Parameter count.
    #[serde(serialize_with = "crate::units::whole")]
    pub params: f64,
    /// Gradient element type.
    pub dtype: GradDtype,
    /// Gradient synchronisation.
    pub sync: SyncStrategy,
    /// Gradient-accumulation micro-steps per optimizer step (one sync per optimizer step).
    pub grad_accum_steps: i64,
    /// Gradient bucket size in bytes; each bucket's collective pays the latency. `None`: the framework's default
    /// ([`Framework::bucket_bytes`]: PyTorch DDP's 25 MiB, Megatron's `max(40M, 1M x DP)` elements, ...).
    #[serde(serialize_with = "crate::units::whole_opt")]
    pub bucket_bytes: Option<f64>,
    /// The framework whose rules size the gradient buckets; `None`: the one the layout implies
    /// ([`Framework::of_layout`]).
    pub framework: Option<Framework>,
    /// Compute time per optimizer step.
    pub compute: ComputeInput,
    /// Optional activation memory per GPU in bytes (0 = not counted).
    #[serde(serialize_with = "crate::units::whole")]
    pub activation_bytes_per_gpu: f64,
    /// Number of nodes.
    pub nodes: i64,
    /// GPUs per node.
    pub gpus_per_node: i64,
    /// GPU model: a catalog key, a name NVML reports, or a recognisable fragment.
    pub gpu: String,
    /// Intra-node link, when it differs from the GPU's usual one.
    pub intra_node: Option<IntraNodeLink>,
    /// GPUs in one NVLink domain, whole nodes of them: 72 for GB200/GB300 NVL72 racks of 18 trays of 4 GPUs, whose
    /// trays talk over NVLink switches. `None`: the node. Traffic inside a domain runs over NVLink, as NCCL's
    /// multi-node NVLink (MNNVL) runs it; only traffic between domains crosses the adapters.
    pub nvlink_domain_gpus: Option<i64>,
    /// Network adapters per node (0 is allowed on one node).
    pub adapters_per_node: i64,
    /// Line rate of one adapter, Gb/s.
    pub link_gbps: f64,
    /// Fabric class.
    pub fabric: Fabric,
    /// GPUDirect RDMA (NIC reads and writes GPU memory directly).
    pub gdr: bool,
    /// All-reduce algorithm to model.
    pub algorithm: Algorithm,
    /// Override: share of the communication hidden behind compute, 0..1. `None` (the default): what the
    /// frameworks' schedule hides ([`crate::schedule`]).
    pub overlap: Option<f64>,
    /// Override: bus bandwidth per adapter as a share of line rate, 0..1.
    pub link_efficiency: Option<f64>,
    /// Override: latency of one all-reduce, microseconds.
    pub latency_us: Option<f64>,
    /// Override: the ring factor (2(N-1)/N by default; 2 gives the "many participants" bound).
    pub ring_factor: Option<f64>,
    /// Override: the all-reduce bus bandwidth measured with nccl-tests on this hardware at this node count, GB/s.
    /// It replaces the modelled bottleneck (`Bottleneck::Measured`); a variant with other hardware or another node
    /// count (`Scenario::with`, sweeps, the fabric ladder) drops it.
    pub measured_busbw_gbs: Option<f64>,
    /// Exposed communication allowed as a share of the step when choosing a fabric.
    pub target_exposed_share: f64,
    /// A model from the shape catalog ([`crate::shape::MODELS`]): its parameter count replaces `params`, and its
    /// shape sizes the messages and the activations. `None`: a generic dense shape of `params` parameters.
    pub model: Option<String>,
    /// Tensor-parallel degree (inside a node unless larger than one).
    pub tp: i64,
    /// Pipeline stages.
    pub pp: i64,
    /// Expert-parallel degree: a mixture-of-experts model's routed experts split over this many ranks, taken
    /// from the tensor- and data-parallel ranks of a pipeline stage as megatron-core folds them (its expert rank
    /// generator, order `tp-ep-dp-pp`, in `parallel_state.py`).
    pub ep: i64,
    /// Expert tensor-parallel degree: each expert's weights split over this many ranks (megatron-core's
    /// `expert_tensor_parallel_size`). `None`: the tensor-parallel degree, megatron-core's default when it is
    /// not given (`parallel_state.py`, "if expert_tensor_parallel_size is None: expert_tensor_parallel_size =
    /// tensor_model_parallel_size").
    pub etp: Option<i64>,
    /// Micro-batches per optimizer step in each pipeline; `None`: the sequences per step over the data-parallel
    /// ranks and the micro-batch size when tokens per step are known, else the accumulation steps.
    pub micro_batches: Option<i64>,
    /// Tokens per sequence.
    pub seq_len: i64,
    /// Sequences per micro-batch on each GPU.
    pub micro_batch_size: i64,
    /// Activation checkpointing: each block keeps its input and recomputes the rest in the backward pass.
    pub activation_checkpointing: bool,
    /// HSDP's shard group, in GPUs; `None`: one node's data-parallel ranks.
    pub shard_group: Option<i64>,
    /// The framework overlaps tensor-parallel communication with compute (Megatron's `--tp-comm-overlap`).
    pub tp_overlap: bool,
    /// The framework overlaps the expert-parallel all-to-all with compute (DeepSeek-V3's DualPipe and the
    /// like).
    pub ep_overlap: bool,
    /// ZeRO-1/2: the gradient reduce-scatter runs bucket by bucket behind the backward pass (Megatron's
    /// `--overlap-grad-reduce`, on in its recipes; DeepSpeed's `overlap_comm`). Off: the whole gradient in one
    /// reduce-scatter after the backward, exposed (megatron-core's own default: `overlap_grad_reduce = False`,
    /// `distributed_data_parallel_config.py` @0011998 L14, and with it `bucket_size = None`, one bucket).
    /// Default on.
    pub overlap_grad_reduce: bool,
    /// ZeRO-1/2: the parameter all-gather after the optimizer step overlaps the next forward, bucket by bucket
    /// (Megatron's `--overlap-param-gather`, on in its recipes: `examples/llama/train_llama3_8b_h100_fp8.sh`
    /// @157006d). Off: exposed, as DeepSpeed's ZeRO-1/2 runs it and as megatron-core's own default has it
    /// (`distributed_data_parallel_config.py` @0011998 L17). Default off.
    pub overlap_param_gather: bool,
}

impl Default for ScenarioInput {
    fn default() -> Self {
        ScenarioInput {
            params: 7e9,
            dtype: GradDtype::Bf16,
            sync: SyncStrategy::Ddp,
            grad_accum_steps: 1,
            bucket_bytes: None,
            framework: None,
            compute: ComputeInput::default(),
            activation_bytes_per_gpu: 0.0,
            nodes: 2,
            gpus_per_node: 8,
            gpu: "h100-sxm".to_string(),
            intra_node: None,
            nvlink_domain_gpus: None,
            adapters_per_node: 8,
            link_gbps: 400.0,
            fabric: Fabric::Infiniband,
            gdr: true,
            algorithm: Algorithm::Auto,
            overlap: None,
            link_efficiency: None,
            latency_us: None,
            ring_factor: None,
            measured_busbw_gbs: None,
            target_exposed_share: DEFAULT_TARGET_EXPOSED_SHARE,
            model: None,
            tp: 1,
            pp: 1,
            ep: 1,
            etp: None,
            micro_batches: None,
            seq_len: DEFAULT_SEQ_LEN,
            micro_batch_size: 1,
            activation_checkpointing: false,
            shard_group: None,
            tp_overlap: false,
            ep_overlap: false,
            overlap_grad_reduce: true,
            overlap_param_gather: false,
        }
    }
}
