//! The inputs of one estimate and their validation.
//!
//! [`ScenarioInput`] is plain data (what a form, a URL or CLI flags hold); [`Scenario::new`] checks every value once
//! and resolves the GPU, so the model functions that take a [`Scenario`] are total: no panic, no NaN, no infinity.

use serde::{Deserialize, Serialize};

use crate::catalog::{self, GpuSpec, IntraNodeBandwidth, IntraNodeLink, Lookup};
use crate::fabric::Fabric;
use crate::layout::{self, Layout};
use crate::shape::ModelShape;
use crate::terms::Terms;
use crate::units::{Bytes, GbitPerSec, Seconds};

mod error;

pub use error::{Field, Reason, ScenarioError, Shown, limits};
use error::{count, err};
pub(crate) use error::{count_in, range};

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
/// participant as an all-reduce, as a reduce-scatter plus an all-gather), 7.2.2 (ZeRO-3 moves 1.5 x), and figure 1
/// for the model states each GPU keeps ([`crate::memory`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SyncStrategy {
    /// Data parallel (PyTorch DDP): one all-reduce of the full gradients; every GPU keeps all model states.
    #[default]
    Ddp,
    /// ZeRO-1: optimizer states sharded; gradients reduce-scattered and parameters all-gathered, the same bytes as
    /// an all-reduce (DeepSpeed `stage: 1`, PyTorch `ZeroRedundancyOptimizer`).
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
/// PyTorch DDP's default bucket: `bucket_cap_mb=25` (torch.nn.parallel.DistributedDataParallel), in MiB.
pub const DEFAULT_BUCKET_MIB: f64 = 25.0;
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
    pub params: f64,
    /// Gradient element type.
    pub dtype: GradDtype,
    /// Gradient synchronisation.
    pub sync: SyncStrategy,
    /// Gradient-accumulation micro-steps per optimizer step (one sync per optimizer step).
    pub grad_accum_steps: i64,
    /// Gradient bucket size in bytes (PyTorch DDP default 25 MiB); each bucket's all-reduce pays the latency.
    pub bucket_bytes: f64,
    /// Compute time per optimizer step.
    pub compute: ComputeInput,
    /// Optional activation memory per GPU in bytes (0 = not counted).
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
    /// Expert-parallel degree (a mixture-of-experts model's experts split over this many data-parallel ranks).
    pub ep: i64,
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
            bucket_bytes: Bytes::mib(DEFAULT_BUCKET_MIB).get(),
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

/// A validated scenario. Build it with [`Scenario::new`]; derive variants with [`Scenario::with`].
#[derive(Clone, Debug)]
pub struct Scenario {
    input: ScenarioInput,
    gpu: &'static GpuSpec,
    gpu_lookup: Lookup,
    intra: IntraNodeBandwidth,
    nodes: u32,
    gpus_per_node: u32,
    adapters_per_node: u32,
    /// Nodes of the job in one NVLink domain (1 without a domain larger than the node).
    domain_nodes: u32,
    grad_accum_steps: u32,
    shape: ModelShape,
    layout: Layout,
    warnings: Vec<String>,
    /// The model's shaped terms (`Terms::SHIPPED` unless set with [`Scenario::with_terms`]).
    terms: Terms,
}

/// Everything else in a scenario follows from its inputs and how its GPU name was resolved.
impl PartialEq for Scenario {
    fn eq(&self, other: &Scenario) -> bool {
        self.gpu_lookup == other.gpu_lookup && self.input == other.input && self.terms == other.terms
    }
}

impl Scenario {
    /// Validates `input` and resolves its GPU. Unknown GPU names are not an error: they give generic defaults
    /// and a warning.
    pub fn new(input: ScenarioInput) -> Result<Scenario, ScenarioError> {
        let gpu_lookup = catalog::lookup(&input.gpu);
        Scenario::build(input, gpu_lookup)
    }

    fn build(mut input: ScenarioInput, gpu_lookup: Lookup) -> Result<Scenario, ScenarioError> {
        use limits::*;
        // A blank model name is no model.
        if input.model.as_deref().is_some_and(|m| m.trim().is_empty()) {
            input.model = None;
        }
        let shape = layout::resolve_shape(&input)?;
        if input.model.is_some() {
            // A named model brings its own parameter count.
            input.params = shape.params;
        }
        range(Field::Params, input.params, 1.0, MAX_PARAMS, " parameters")?;
        let grad_accum_steps = count(Field::GradAccumSteps, input.grad_accum_steps, 1, MAX_GRAD_ACCUM)?;
        range(Field::BucketBytes, input.bucket_bytes, MIN_BUCKET_BYTES, MAX_BUCKET_BYTES, " bytes")?;
        match input.compute {
            ComputeInput::Given { ms } => {
                range(Field::ComputeMs, ms, 0.0, MAX_COMPUTE_MS, " ms")?;
            }
            ComputeInput::Tokens { tokens_per_step, mfu } => {
                range(Field::TokensPerStep, tokens_per_step, 1.0, MAX_TOKENS_PER_STEP, " tokens")?;
                range(Field::Mfu, mfu, MIN_FRACTION, 1.0, "")?;
            }
        }
        range(Field::ActivationBytesPerGpu, input.activation_bytes_per_gpu, 0.0, MAX_ACTIVATION_BYTES, " bytes")?;
        let nodes = count(Field::Nodes, input.nodes, 1, MAX_NODES)?;
        let gpus_per_node = count(Field::GpusPerNode, input.gpus_per_node, 1, MAX_GPUS_PER_NODE)?;
        let adapters_per_node = count(Field::AdaptersPerNode, input.adapters_per_node, 0, MAX_ADAPTERS_PER_NODE)?;
        if nodes > 1 && adapters_per_node == 0 {
            return Err(err(Field::AdaptersPerNode, Reason::NeedsAdapters));
        }
        range(Field::LinkGbps, input.link_gbps, MIN_LINK_GBPS, MAX_LINK_GBPS, " Gb/s")?;
        if let Some(o) = input.overlap {
            range(Field::Overlap, o, 0.0, 1.0, "")?;
        }
        if let Some(e) = input.link_efficiency {
            range(Field::LinkEfficiency, e, MIN_FRACTION, 1.0, "")?;
        }
        if let Some(l) = input.latency_us {
            range(Field::LatencyUs, l, 0.0, MAX_LATENCY_US, " us")?;
        }
        if let Some(r) = input.ring_factor {
            range(Field::RingFactor, r, MIN_FRACTION, 2.0, "")?;
        }
        if let Some(b) = input.measured_busbw_gbs {
            range(Field::MeasuredBusbwGbs, b, MIN_FRACTION, MAX_MEASURED_BUSBW_GBS, " GB/s")?;
        }
        range(Field::TargetExposedShare, input.target_exposed_share, MIN_FRACTION, 1.0, "")?;

        let gpu = gpu_lookup.spec();
        let mut warnings = Vec::new();
        match gpu_lookup {
            Lookup::Unknown => warnings.push(format!(
                "unknown GPU '{}': no catalog name or fragment matches it, so it falls back to the 'generic' entry \
                 ({} GiB, {} TFLOP/s BF16, PCIe Gen4); pick a catalog GPU for real figures",
                input.gpu,
                crate::human::num(gpu.memory_gib, 1),
                crate::human::num(gpu.bf16_dense_tflops.get(), 1)
            )),
            Lookup::Matched(g) => warnings.push(format!(
                "GPU '{}' read as catalog entry '{}' ({}): its name contains '{}'",
                input.gpu,
                g.key,
                g.name,
                catalog::matched_fragment(&input.gpu, g).unwrap_or(g.key)
            )),
            Lookup::Exact(_) => {}
        }
        let (layout, layout_warnings) =
            layout::resolve(&input, &shape, nodes.saturating_mul(gpus_per_node), gpus_per_node)?;
        warnings.extend(layout_warnings);
        let link = input.intra_node.unwrap_or(gpu.intra_node);
        let intra = catalog::intra_node_bandwidth(gpu, link);
        if intra.link != link {
            warnings.push(format!("{} has no {}; using {}", gpu.name, link.label(), intra.link.label()));
        }
        let domain_nodes = domain_nodes(&input, gpus_per_node, nodes, intra.link, &mut warnings)?;
        Ok(Scenario {
            input,
            gpu,
            gpu_lookup,
            intra,
            nodes,
            gpus_per_node,
            adapters_per_node,
            domain_nodes,
            grad_accum_steps,
            shape,
            layout,
            warnings,
            terms: Terms::SHIPPED,
        })
    }

    /// A copy with some inputs changed, validated again. The GPU is resolved again only if its name changed.
    pub fn with(&self, change: impl FnOnce(&mut ScenarioInput)) -> Result<Scenario, ScenarioError> {
        let mut input = self.input.clone();
        change(&mut input);
        // A measured bus bandwidth belongs to the hardware and node count it was measured on.
        let same_hardware = |a: &ScenarioInput, b: &ScenarioInput| {
            (a.nodes, a.gpus_per_node, &a.gpu, a.intra_node, a.adapters_per_node, a.fabric, a.gdr, a.algorithm)
                == (b.nodes, b.gpus_per_node, &b.gpu, b.intra_node, b.adapters_per_node, b.fabric, b.gdr, b.algorithm)
                && a.link_gbps == b.link_gbps
                && a.nvlink_domain_gpus == b.nvlink_domain_gpus
        };
        if input.measured_busbw_gbs == self.input.measured_busbw_gbs && !same_hardware(&input, &self.input) {
            input.measured_busbw_gbs = None;
        }
        let s =
            if input.gpu == self.input.gpu { Scenario::build(input, self.gpu_lookup) } else { Scenario::new(input) };
        s.map(|s| s.with_terms(self.terms))
    }

    /// The same scenario estimated with other model terms (the step replay's out-of-source predictions); every
    /// scenario derived from it with [`Scenario::with`] keeps them.
    pub fn with_terms(mut self, terms: Terms) -> Scenario {
        self.terms = terms;
        self
    }

    /// Whether ZeRO-1/2's gradient reduce-scatter runs behind the backward: the input, or its default when the
    /// model's terms do not take it ([`Terms::framework_overlap`]).
    pub fn overlap_grad_reduce(&self) -> bool {
        if self.terms.framework_overlap { self.input.overlap_grad_reduce } else { true }
    }

    /// Whether ZeRO-1/2's parameter all-gather overlaps the next forward: the input, or its default when the
    /// model's terms do not take it.
    pub fn overlap_param_gather(&self) -> bool {
        self.terms.framework_overlap && self.input.overlap_param_gather
    }

    /// The model's shaped terms this scenario is estimated with.
    pub fn terms(&self) -> Terms {
        self.terms
    }

    /// The validated inputs.
    pub fn input(&self) -> &ScenarioInput {
        &self.input
    }

    /// The model's shape: the catalog's, or the generic shape of the parameter count.
    pub fn shape(&self) -> &ModelShape {
        &self.shape
    }

    /// The parallel layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The resolved GPU (generic defaults when the name was unknown).
    pub fn gpu(&self) -> &'static GpuSpec {
        self.gpu
    }

    /// Whether the GPU name was recognised.
    pub fn gpu_known(&self) -> bool {
        !matches!(self.gpu_lookup, Lookup::Unknown)
    }

    /// Intra-node all-reduce bandwidths for this GPU and link.
    pub fn intra_node(&self) -> IntraNodeBandwidth {
        self.intra
    }

    /// Nodes, at least 1.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// GPUs per node, at least 1.
    pub fn gpus_per_node(&self) -> u32 {
        self.gpus_per_node
    }

    /// All GPUs in the job.
    pub fn participants(&self) -> u32 {
        self.nodes.saturating_mul(self.gpus_per_node)
    }

    /// Adapters per node (at least 1 when nodes > 1).
    pub fn adapters_per_node(&self) -> u32 {
        self.adapters_per_node
    }

    /// NVLink domains the job spans: its nodes over the domain's nodes, rounded up (the nodes, without a domain
    /// larger than the node). NCCL's multi-node NVLink fuses a domain's ranks into one topology, so the
    /// collectives see a domain where they would see a node.
    pub fn domains(&self) -> u32 {
        self.nodes.div_ceil(self.domain_nodes.max(1))
    }

    /// Nodes of the job in one NVLink domain: the domain's nodes, or the job's when it has fewer.
    pub fn nodes_per_domain(&self) -> u32 {
        self.domain_nodes
    }

    /// GPUs of the job in one NVLink domain: what the collectives take for GPUs per node.
    pub fn gpus_per_domain(&self) -> u32 {
        self.gpus_per_node.saturating_mul(self.domain_nodes)
    }

    /// Adapters of one NVLink domain's nodes: what the collectives take for adapters per node.
    pub fn adapters_per_domain(&self) -> u32 {
        self.adapters_per_node.saturating_mul(self.domain_nodes)
    }

    /// The NVLink domain's size as given, in GPUs (the node's GPUs when none was given).
    pub fn nvlink_domain_gpus(&self) -> u32 {
        match self.input.nvlink_domain_gpus {
            Some(d) => u32::try_from(d).unwrap_or(self.gpus_per_node),
            None => self.gpus_per_node,
        }
    }

    /// Whether an NVLink domain holds more than one node.
    pub fn multi_node_nvlink(&self) -> bool {
        self.nvlink_domain_gpus() > self.gpus_per_node
    }

    /// Accumulation micro-steps per optimizer step, at least 1.
    pub fn grad_accum_steps(&self) -> u32 {
        self.grad_accum_steps
    }

    /// One adapter's line rate.
    pub fn link(&self) -> GbitPerSec {
        GbitPerSec::new(self.input.link_gbps)
    }

    /// Latency override, if set.
    pub fn latency_override(&self) -> Option<Seconds> {
        self.input.latency_us.map(Seconds::from_micros)
    }

    /// What the user should know about how the inputs were read.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// The job's nodes in one NVLink domain, from `nvlink_domain_gpus`: whole nodes, over NVLink switches when it
/// holds more than one, at most [`limits::MAX_NVLINK_DOMAIN_GPUS`]. A job whose nodes do not fill whole domains is
/// told how it is modelled.
fn domain_nodes(
    input: &ScenarioInput,
    gpus_per_node: u32,
    nodes: u32,
    link: IntraNodeLink,
    warnings: &mut Vec<String>,
) -> Result<u32, ScenarioError> {
    let Some(d) = input.nvlink_domain_gpus else {
        return Ok(1);
    };
    let field = Field::NvlinkDomainGpus;
    let d = count(field, d, 1, limits::MAX_NVLINK_DOMAIN_GPUS)?;
    if d % gpus_per_node != 0 {
        return Err(ScenarioError::missing(
            field,
            format!("{d} must be a multiple of the {gpus_per_node} GPUs per node: a domain is whole nodes"),
        ));
    }
    let per_domain = d / gpus_per_node;
    if per_domain > 1 && link != IntraNodeLink::Nvswitch {
        return Err(ScenarioError::missing(
            field,
            format!(
                "{d} GPUs span {per_domain} nodes, which needs NVLink switches between them (NVL72-class racks);                  these GPUs talk over {}",
                link.label()
            ),
        ));
    }
    let used = per_domain.min(nodes);
    if nodes > used && !nodes.is_multiple_of(used) {
        warnings.push(format!(
            "{nodes} nodes do not fill NVLink domains of {per_domain} nodes: modelled as {} whole domains (the last \
             one holds {} nodes)",
            nodes.div_ceil(used),
            nodes % used
        ));
    }
    Ok(used)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejects(change: impl FnOnce(&mut ScenarioInput), field: Field, text: &str) {
        let mut input = ScenarioInput::default();
        change(&mut input);
        let e = Scenario::new(input).expect_err("must be rejected");
        assert_eq!(e.field, field);
        assert!(e.to_string().contains(text), "'{e}' should contain '{text}'");
        assert!(e.to_string().starts_with(field.key()), "'{e}' names the field first");
    }

    #[test]
    fn the_default_is_valid() {
        let s = Scenario::new(ScenarioInput::default()).expect("default is valid");
        assert_eq!(s.participants(), 16);
        assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    }

    #[test]
    fn bad_values_name_the_field_and_the_reason() {
        rejects(|i| i.params = 0.0, Field::Params, "at least 1");
        rejects(|i| i.params = -7e9, Field::Params, "at least 1");
        rejects(|i| i.params = 1e20, Field::Params, "at most 1e14 parameters (got 1e20)");
        rejects(|i| i.params = f64::NAN, Field::Params, "finite");
        rejects(|i| i.params = f64::INFINITY, Field::Params, "finite");
        rejects(|i| i.nodes = 0, Field::Nodes, "at least 1 (got 0)");
        rejects(|i| i.nodes = -2, Field::Nodes, "(got -2)");
        rejects(|i| i.gpus_per_node = 0, Field::GpusPerNode, "at least 1");
        rejects(|i| i.adapters_per_node = -1, Field::AdaptersPerNode, "at least 0");
        rejects(|i| i.adapters_per_node = 0, Field::AdaptersPerNode, "nodes > 1");
        rejects(|i| i.link_gbps = 10_000.0, Field::LinkGbps, "at most 3200 Gb/s");
        rejects(|i| i.link_gbps = 0.0, Field::LinkGbps, "at least");
        rejects(|i| i.overlap = Some(1.5), Field::Overlap, "at most 1");
        rejects(|i| i.overlap = Some(-0.1), Field::Overlap, "at least 0");
        rejects(|i| i.link_efficiency = Some(0.0), Field::LinkEfficiency, "at least");
        rejects(|i| i.ring_factor = Some(3.0), Field::RingFactor, "at most 2");
        rejects(|i| i.latency_us = Some(f64::NEG_INFINITY), Field::LatencyUs, "finite");
        rejects(|i| i.grad_accum_steps = 0, Field::GradAccumSteps, "at least 1");
        rejects(|i| i.compute = ComputeInput::Given { ms: -1.0 }, Field::ComputeMs, "at least 0");
        rejects(|i| i.compute = ComputeInput::Tokens { tokens_per_step: 1e6, mfu: 1.2 }, Field::Mfu, "at most 1");
    }

    #[test]
    fn one_node_needs_no_adapter() {
        let input = ScenarioInput { nodes: 1, adapters_per_node: 0, ..ScenarioInput::default() };
        assert!(Scenario::new(input).is_ok());
    }

    #[test]
    fn unknown_gpu_is_a_warning() {
        let input = ScenarioInput { gpu: "Imaginary X1".into(), ..ScenarioInput::default() };
        let s = Scenario::new(input).expect("unknown GPU is still a scenario");
        assert!(!s.gpu_known());
        assert!(s.warnings()[0].contains("unknown GPU 'Imaginary X1'"));
    }

    /// `Field::ALL` lists every variant once: `position` is an exhaustive match, so a new variant does not compile
    /// until it is given its place, and this test fails until ALL has it there.
    #[test]
    fn field_all_is_complete() {
        fn position(f: Field) -> usize {
            match f {
                Field::Params => 0,
                Field::GradAccumSteps => 1,
                Field::BucketBytes => 2,
                Field::ComputeMs => 3,
                Field::TokensPerStep => 4,
                Field::Mfu => 5,
                Field::ActivationBytesPerGpu => 6,
                Field::Nodes => 7,
                Field::GpusPerNode => 8,
                Field::AdaptersPerNode => 9,
                Field::LinkGbps => 10,
                Field::Overlap => 11,
                Field::LinkEfficiency => 12,
                Field::LatencyUs => 13,
                Field::RingFactor => 14,
                Field::MeasuredBusbwGbs => 15,
                Field::TargetExposedShare => 16,
                Field::Bytes => 17,
                Field::Model => 18,
                Field::Tp => 19,
                Field::Pp => 20,
                Field::Ep => 21,
                Field::MicroBatches => 22,
                Field::SeqLen => 23,
                Field::MicroBatchSize => 24,
                Field::ShardGroup => 25,
                Field::MeasuredStepS => 26,
                Field::MeasuredTokensPerS => 27,
                Field::MeasuredSamplesPerS => 28,
                Field::SamplesPerStep => 29,
                Field::Tokens => 30,
                Field::DeadlineS => 31,
                Field::MaxNodes => 32,
                Field::Price => 33,
                Field::Offer => 34,
                Field::NvlinkDomainGpus => 35,
            }
        }
        for (i, f) in Field::ALL.into_iter().enumerate() {
            assert_eq!(position(f), i, "{f:?} is out of place in Field::ALL");
        }
    }

    #[test]
    fn input_round_trips_through_json_with_defaults() {
        let s: ScenarioInput = serde_json::from_str(r#"{"params": 70e9, "fabric": "roce"}"#).expect("parses");
        assert_eq!(s.params, 70e9);
        assert_eq!(s.fabric, Fabric::Roce);
        assert_eq!(s.nodes, 2);
        let back: ScenarioInput = serde_json::from_str(&serde_json::to_string(&s).expect("ser")).expect("de");
        assert_eq!(back, s);
        assert!(serde_json::from_str::<ScenarioInput>(r#"{"parms": 1}"#).is_err());
    }
}
