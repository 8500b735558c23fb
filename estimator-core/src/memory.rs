//! Memory fit: model states per GPU against the GPU's memory.
//!
//! The bytes per parameter are what the implementations each strategy stands for ([`SyncStrategy`]) allocate and
//! keep through a step under BF16 mixed precision with Adam, read from their sources at these commits:
//! pytorch/pytorch 2236df1770800ffea5697b11b0bb0d910b2e59e1 (v2.6.0), microsoft/DeepSpeed
//! 38327e07f6cd39b63418f60cedd1651b0be3e7c3 and NVIDIA/Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553.
//! Each strategy has several implementations ([`implementations`]); the fit takes the one that needs most at its
//! peak, so that the model does not say "fits" where the common one runs out, and reports the one that needs least
//! too, so that a job between the two reads "may not fit" rather than "cannot run". The peak is the states with
//! the larger of the activations (through backward) and the FP32 working copy the optimizer step makes after
//! backward has freed them (4 bytes per parameter the GPU updates; see [`implementations`]).

use serde::Serialize;

use crate::scenario::{Scenario, SyncStrategy};
use crate::units::Bytes;

/// Bytes of model state per parameter with mixed-precision Adam, summed over the GPUs that shard them (ZeRO-3/FSDP
/// keeps `16 / N` on each of N GPUs). FSDP: FP32 parameters and gradients (4 + 4) and Adam's momentum and variance
/// (4 + 4); DeepSpeed ZeRO-3: BF16 parameters and gradients (2 + 2) and FP32 master parameters, momentum and
/// variance (4 + 4 + 4). Sources: see [`state_bytes_per_param`].
pub const MODEL_STATE_BYTES_PER_PARAM: f64 = 16.0;

/// Of those, the optimizer states DeepSpeed and Megatron-LM shard under ZeRO-1 (K = 12 in the ZeRO paper): FP32
/// master parameters (microsoft/DeepSpeed 38327e07f6cd39b63418f60cedd1651b0be3e7c3
/// `deepspeed/runtime/zero/stage_1_and_2.py:400-409`), momentum and variance ([`ADAM_STATE_BYTES_PER_PARAM`]).
pub const OPTIMIZER_STATE_BYTES_PER_PARAM: f64 = FP32_BYTES + ADAM_STATE_BYTES_PER_PARAM;

/// Adam's momentum and variance, FP32, one pair per parameter the GPU updates: pytorch/pytorch
/// 2236df1770800ffea5697b11b0bb0d910b2e59e1 `torch/optim/adam.py:174-180` (`exp_avg`, `exp_avg_sq`: `zeros_like`
/// the parameter); microsoft/DeepSpeed 38327e07f6cd39b63418f60cedd1651b0be3e7c3
/// `deepspeed/ops/adam/fused_adam.py:155-157` (the same on DeepSpeed's FP32 partition).
pub const ADAM_STATE_BYTES_PER_PARAM: f64 = 8.0;

/// PyTorch DDP's second copy of every gradient: the reducer's flat bucket (`Bucket::gradients`, pytorch/pytorch
/// 2236df1770800ffea5697b11b0bb0d910b2e59e1 `torch/csrc/distributed/c10d/reducer.hpp:344-346`) is copied back to
/// `param.grad` unless `gradient_as_bucket_view` (`reducer.hpp:325-326`), which is `False` by default
/// (`torch/nn/parallel/distributed.py:639`) and whose saving is "equal to the total gradients size"
/// (`distributed.py:566-570`). FP32: the buckets take the parameters' dtype, and AMP keeps the parameters FP32.
pub const DDP_BUCKET_BYTES_PER_PARAM: f64 = FP32_BYTES;

/// DeepSpeed ZeRO-3's gradient bucket, the same size whatever the model: `reduce_bucket_size` elements of the
/// parameters' dtype (BF16), allocated once when the optimizer is built (microsoft/DeepSpeed
/// 38327e07f6cd39b63418f60cedd1651b0be3e7c3 `deepspeed/runtime/zero/stage3.py:537-540`, the dtype at 189), 5e8 by
/// default (`deepspeed/runtime/zero/config.py:109`): 1 GB. ZeRO-1/2 allocate theirs at each backward and free it
/// at its end (`stage_1_and_2.py:2048-2060`, `676-680`), so it is not counted there.
pub const ZERO3_BUCKET_BYTES: f64 = 5e8 * BF16_BYTES;

/// A BF16 copy of each parameter or gradient.
const BF16_BYTES: f64 = 2.0;
/// An FP32 copy.
const FP32_BYTES: f64 = 4.0;

/// Model-state bytes per parameter that one GPU keeps when the states are sharded over `gpus` GPUs, under BF16
/// mixed precision with Adam: the largest of the strategy's [`implementations`]:
///
/// | strategy | bytes per parameter | the larger of |
/// | --- | --- | --- |
/// | DDP | 20 | PyTorch DDP under AMP |
/// | ZeRO-1 | 6 + 12/N | Megatron-LM's distributed optimizer (DeepSpeed stage 1: 4 + 12/N) |
/// | ZeRO-2 | 2 + 16/N | FSDP `SHARD_GRAD_OP` / FSDP2 without resharding after forward (DeepSpeed stage 2: 2 + 14/N) |
/// | ZeRO-3 | 16/N | FSDP `FULL_SHARD` / FSDP2 and DeepSpeed stage 3, alike (plus [`fixed_state_bytes`]) |
/// | HSDP | 16/N over the shard group | FSDP `HYBRID_SHARD` / FSDP2 on a 2-D mesh |
///
/// PyTorch's `ZeroRedundancyOptimizer` beside DDP keeps DDP's parameters, gradients and buckets and shards only
/// Adam's moments, 12 + 8/N; it is DDP's memory with less optimizer state, not counted as ZeRO-1 here.
pub fn state_bytes_per_param(sync: SyncStrategy, gpus: u32) -> f64 {
    let n = f64::from(gpus.max(1));
    implementations(sync).iter().map(|im| (im.states)(n)).fold(0.0, f64::max)
}

/// One implementation of a strategy, as it allocates memory: model-state bytes per parameter over the `n` GPUs
/// that shard them, the FP32 working copy its optimizer step makes per parameter (held after backward has freed
/// the activations), and bytes whatever the model's size.
#[derive(Clone, Copy, Debug)]
pub struct Implementation {
    /// Its name, as a reader would look it up.
    pub name: &'static str,
    /// Model-state bytes per parameter over `n` sharding GPUs.
    pub states: fn(f64) -> f64,
    /// The optimizer step's working copy per parameter over `n`.
    pub step_copy: fn(f64) -> f64,
    /// Bytes whatever the model's size.
    pub fixed: f64,
}

/// The optimizer step's FP32 working copy: 4 bytes per parameter the GPU updates. DeepSpeed ZeRO-1/2 copy the
/// gradient partition to FP32 inside `step()` (microsoft/DeepSpeed 38327e07f6cd39b63418f60cedd1651b0be3e7c3
/// `deepspeed/runtime/zero/stage_1_and_2.py:1890-1902`, freed at 1916; ZeRO-3 per sub-group, `stage3.py:1898-1905`,
/// freed at 1947, no more than its shard); PyTorch's foreach Adam, its default on CUDA, allocates the square roots
/// of the variance over every parameter it updates (pytorch/pytorch 2236df1770800ffea5697b11b0bb0d910b2e59e1
/// `torch/optim/adam.py:675`). A fused Adam (Megatron-LM's, PyTorch's `fused=True`, `_fused_adam` in the same
/// file) updates in place and makes none.
const STEP_COPY_BYTES: f64 = FP32_BYTES;

/// PyTorch DDP under AMP, pytorch/pytorch 2236df1770800ffea5697b11b0bb0d910b2e59e1: FP32 parameters and
/// `param.grad` (autocast computes in BF16 and leaves both FP32), DDP's bucket copy of the gradients, Adam's
/// moments: 4 + 4 + 4 + 8.
fn ddp_states(_: f64) -> f64 {
    FP32_BYTES + FP32_BYTES + DDP_BUCKET_BYTES_PER_PARAM + ADAM_STATE_BYTES_PER_PARAM
}

/// PyTorch DDP with `gradient_as_bucket_view=True`: no second gradient copy (pytorch/pytorch
/// 2236df1770800ffea5697b11b0bb0d910b2e59e1 `torch/nn/parallel/distributed.py:566-570`): 4 + 4 + 8.
fn ddp_bucket_view_states(_: f64) -> f64 {
    MODEL_STATE_BYTES_PER_PARAM
}

/// Megatron-LM's distributed optimizer, NVIDIA/Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553: "6 + 12/d"
/// for BF16 parameters and FP32 gradients (`docs/user-guide/features/dist_optimizer.md:19`,
/// `megatron/training/theoretical_memory_usage.py:296`): a BF16 parameter buffer and an FP32 gradient buffer over
/// the whole model (`megatron/core/distributed/param_and_grad_buffer.py:1184-1195`, the gradients FP32 with BF16 at
/// `param_and_grad_buffer.py:924` and `megatron/training/arguments.py:1215-1216`), the FP32 master parameters and
/// Adam's moments sharded.
fn megatron_states(n: f64) -> f64 {
    BF16_BYTES + FP32_BYTES + OPTIMIZER_STATE_BYTES_PER_PARAM / n
}

/// DeepSpeed ZeRO stage 1: BF16 parameters and gradients (microsoft/DeepSpeed
/// 38327e07f6cd39b63418f60cedd1651b0be3e7c3 `deepspeed/runtime/zero/stage_1_and_2.py:364`), the optimizer states
/// sharded: 2 + 2 + 12/N.
fn deepspeed_stage1_states(n: f64) -> f64 {
    BF16_BYTES + BF16_BYTES + OPTIMIZER_STATE_BYTES_PER_PARAM / n
}

/// FSDP `SHARD_GRAD_OP`, pytorch/pytorch 2236df1770800ffea5697b11b0bb0d910b2e59e1: it "does not reshard [the
/// parameters] after the forward" (`torch/distributed/fsdp/api.py:43-47`, `torch/distributed/fsdp/_flat_param.py:
/// 130-133`), so the unsharded BF16 parameters (`_flat_param.py:1254-1263`) stay from forward to the end of
/// backward; the sharded FP32 parameters, FP32 gradients (cast back to the parameters' dtype,
/// `torch/distributed/fsdp/_runtime_utils.py:1036-1038`) and Adam's moments are sharded. FSDP2 with
/// `reshard_after_forward=False` likewise (`torch/distributed/fsdp/_fully_shard/_fully_shard.py:112-113`).
fn fsdp_grad_op_states(n: f64) -> f64 {
    BF16_BYTES + (FP32_BYTES + FP32_BYTES + ADAM_STATE_BYTES_PER_PARAM) / n
}

/// DeepSpeed ZeRO stage 2: BF16 parameters, BF16 gradient partitions (microsoft/DeepSpeed
/// 38327e07f6cd39b63418f60cedd1651b0be3e7c3 `deepspeed/runtime/zero/stage_1_and_2.py:1352-1354`), the optimizer
/// states sharded: 2 + (2 + 12)/N.
fn deepspeed_stage2_states(n: f64) -> f64 {
    BF16_BYTES + (BF16_BYTES + OPTIMIZER_STATE_BYTES_PER_PARAM) / n
}

/// Everything sharded. pytorch/pytorch 2236df1770800ffea5697b11b0bb0d910b2e59e1: FSDP2 keeps each parameter's
/// shard in its original dtype (`torch/distributed/fsdp/_fully_shard/_fsdp_param.py:388-394`, FP32 under a BF16
/// `MixedPrecisionPolicy`, `_fsdp_param.py:416-421`) and its gradient shard cast back to it
/// (`torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py:427`, kept at `:464`): 4 + 4 + 8 over N.
/// microsoft/DeepSpeed 38327e07f6cd39b63418f60cedd1651b0be3e7c3 stage 3: BF16 parameter partitions
/// (`deepspeed/runtime/zero/stage3.py:738`), BF16 gradient partitions (`stage3.py:547-549`), FP32 master partitions
/// (`stage3.py:905-906`) and Adam's moments: 2 + 2 + 4 + 8 over N. The same 16/N.
fn full_shard_states(n: f64) -> f64 {
    MODEL_STATE_BYTES_PER_PARAM / n
}

/// What each strategy stands for, as each implementation allocates it (each figure's source is on its function
/// above); [`state_bytes_per_param`] is the largest states, [`fixed_state_bytes`] the largest fixed bytes.
pub fn implementations(sync: SyncStrategy) -> &'static [Implementation] {
    const fn im(name: &'static str, states: fn(f64) -> f64, step_copy: fn(f64) -> f64, fixed: f64) -> Implementation {
        Implementation { name, states, step_copy, fixed }
    }
    fn none(_: f64) -> f64 {
        0.0
    }
    fn whole(_: f64) -> f64 {
        STEP_COPY_BYTES
    }
    fn shard(n: f64) -> f64 {
        STEP_COPY_BYTES / n
    }
    const DDP: [Implementation; 2] = [
        im("PyTorch DDP (foreach Adam)", ddp_states, whole, 0.0),
        im("PyTorch DDP with gradient_as_bucket_view and a fused Adam", ddp_bucket_view_states, none, 0.0),
    ];
    const ZERO1: [Implementation; 2] = [
        im("Megatron-LM's distributed optimizer", megatron_states, none, 0.0),
        im("DeepSpeed ZeRO stage 1", deepspeed_stage1_states, shard, 0.0),
    ];
    const ZERO2: [Implementation; 3] = [
        im("FSDP SHARD_GRAD_OP (foreach Adam)", fsdp_grad_op_states, shard, 0.0),
        im("FSDP SHARD_GRAD_OP with a fused Adam", fsdp_grad_op_states, none, 0.0),
        im("DeepSpeed ZeRO stage 2", deepspeed_stage2_states, shard, 0.0),
    ];
    const ZERO3: [Implementation; 3] = [
        im("FSDP (foreach Adam)", full_shard_states, shard, 0.0),
        im("FSDP with a fused Adam", full_shard_states, none, 0.0),
        im("DeepSpeed ZeRO stage 3", full_shard_states, shard, ZERO3_BUCKET_BYTES),
    ];
    const HSDP: [Implementation; 2] = [
        im("FSDP HYBRID_SHARD (foreach Adam)", full_shard_states, shard, 0.0),
        im("FSDP HYBRID_SHARD with a fused Adam", full_shard_states, none, 0.0),
    ];
    match sync {
        SyncStrategy::Ddp => &DDP,
        SyncStrategy::Zero1 => &ZERO1,
        SyncStrategy::Zero2 => &ZERO2,
        SyncStrategy::Zero3 => &ZERO3,
        SyncStrategy::Hsdp => &HSDP,
    }
}

/// Bytes of model state one GPU keeps whatever the model's size, the largest of the strategy's implementations:
/// DeepSpeed ZeRO-3's gradient bucket ([`ZERO3_BUCKET_BYTES`]), which FSDP has not; none for the others.
pub fn fixed_state_bytes(sync: SyncStrategy) -> f64 {
    implementations(sync).iter().map(|im| im.fixed).fold(0.0, f64::max)
}

/// Activation bytes per layer per token per hidden unit with tensor and sequence parallelism and the attention
/// scores not stored (selective recomputation, or FlashAttention, which recomputes them): 34 / t
/// (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models", table 2).
pub const ACTIVATION_BYTES_PER_LAYER: f64 = 34.0;
/// With full recomputation a layer keeps only its input: 2 bytes per token per hidden unit (table 2), split over the
/// tensor-parallel ranks by sequence parallelism as the 34 are (section 4.2.2: the layer's input is in the
/// sequence-parallel region).
pub const CHECKPOINTED_BYTES_PER_LAYER: f64 = 2.0;
/// The output layer's logits in FP32 for the loss: 4 bytes per token per vocabulary entry over t (section 4.3).
pub const LOGIT_BYTES: f64 = 4.0;

/// Activation bytes one GPU keeps, from the shape (Korthikanti et al. 2022): the first pipeline stage holds
/// min(p, m) micro-batches of L/p layers (section 4.2.3), each layer 34 sbh / t, or 2 sbh / t with checkpointing,
/// and then one layer being recomputed at a time (once, not once per micro-batch in flight); and the logits.
pub fn shape_activation_bytes(s: &Scenario) -> f64 {
    let l = s.layout();
    let shape = s.shape();
    let sbh = l.micro_batch_tokens() * f64::from(shape.hidden);
    let t = f64::from(l.tp);
    let full = sbh * ACTIVATION_BYTES_PER_LAYER / t;
    let stage_layers = f64::from(l.stage_layers(shape.layers));
    let in_flight = f64::from(l.pp.min(l.micro_batches));
    let (kept, recomputing) = if l.activation_checkpointing {
        (stage_layers * sbh * CHECKPOINTED_BYTES_PER_LAYER / t, full)
    } else {
        (stage_layers * full, 0.0)
    };
    let logits = LOGIT_BYTES * l.micro_batch_tokens() * f64::from(shape.vocab) / t;
    kept * in_flight + recomputing + logits
}

/// Where the activation figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivationSource {
    /// `activation_bytes_per_gpu` as given.
    Given,
    /// The named model's shape, micro-batch and layout.
    Shape,
    /// A bare parameter count: the generic dense shape of that size ([`crate::shape::generic`]: GPT-3's depth to
    /// width), with the micro-batch and layout.
    Generic,
    /// Not counted (no longer produced: a bare parameter count gets the generic shape's; kept for readers of
    /// older JSON).
    None,
}

/// Whether the job's memory fits, per GPU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemoryFit {
    /// Model states per GPU in this scenario (20 bytes/param under DDP, less as ZeRO shards them and as tensor,
    /// pipeline and expert parallelism split the model; see [`state_bytes_per_param`]).
    pub model_state_bytes_per_gpu: Bytes,
    /// Activations per GPU: as given, or from the model's shape (the generic shape of its size for a bare
    /// parameter count; see `activations_from`).
    pub activation_bytes_per_gpu: Bytes,
    /// Where the activation figure comes from.
    pub activations_from: ActivationSource,
    /// The optimizer step's FP32 working copy per GPU (see [`implementations`]), allocated after backward
    /// has freed the activations.
    pub optimizer_step_bytes_per_gpu: Bytes,
    /// The most the GPU holds at once: the model states and the larger of the activations (through backward) and
    /// the optimizer step's working copy (after it), as the implementation that needs most allocates them.
    pub total_bytes_per_gpu: Bytes,
    /// That implementation ([`implementations`]); the states and the copy above are its.
    pub implementation: &'static str,
    /// The GPU's memory.
    pub gpu_memory_bytes: Bytes,
    /// Whether the scenario fits as configured, as the implementation that needs most allocates it.
    pub fits: bool,
    /// The low end of the need: the peak as the implementation that needs least allocates it.
    pub least_total_bytes_per_gpu: Bytes,
    /// That implementation.
    pub least_implementation: &'static str,
    /// Whether it does not fit as the implementation that needs most allocates it but does as the one that needs
    /// least would (`least_total_bytes_per_gpu` within the GPU's memory): the model cannot tell, the framework and
    /// its settings decide.
    pub may_fit: bool,
    /// Per-GPU need if the job ran on one node with the same layout.
    pub one_node_bytes_per_gpu: Bytes,
    /// Whether it fits on one node with the same layout.
    pub fits_one_node: bool,
    /// Per-GPU need on one node with ZeRO-3/FSDP (states sharded over the node's data-parallel GPUs).
    pub one_node_zero3_bytes_per_gpu: Bytes,
    /// Whether it fits on one node with ZeRO-3/FSDP.
    pub fits_one_node_zero3: bool,
    /// GPUs in one NVLink domain (the node's when the domain is the node).
    pub nvlink_domain_gpus: u32,
    /// Per-GPU need on one NVLink domain with the same layout.
    pub one_domain_bytes_per_gpu: Bytes,
    /// Whether it fits on one NVLink domain with the same layout.
    pub fits_one_domain: bool,
    /// Per-GPU need on one NVLink domain with ZeRO-3/FSDP over its data-parallel GPUs.
    pub one_domain_zero3_bytes_per_gpu: Bytes,
    /// Whether it fits on one NVLink domain with ZeRO-3/FSDP.
    pub fits_one_domain_zero3: bool,
    /// The fewest GPUs that hold the model states with ZeRO-3/FSDP (and the layout's tensor and pipeline
    /// parallelism), activations included; `None` when the activations alone exceed the GPU's memory.
    pub min_gpus_zero3: Option<u64>,
}

/// How a model's states are split on some GPUs: the dense part over `tp x pp` and sharded over `shard`
/// data-parallel GPUs; the routed experts over `etp x ep x pp` (megatron-core's folding) and sharded over the
/// ranks holding the same experts, `shard x tp / (etp x ep)` of them (the expert-data-parallel degree when the
/// shard is the whole data-parallel group).
#[derive(Clone, Copy)]
struct Split {
    tp: u32,
    pp: u32,
    shard: u32,
    etp: u32,
    ep: u32,
}

/// Bytes one GPU keeps on the split `p` at `per_param(shard)` bytes per parameter of its dense part and of its
/// experts, each over the GPUs that shard it.
fn per_gpu(s: &Scenario, p: Split, per_param: &dyn Fn(u32) -> f64) -> f64 {
    let shape = s.shape();
    let (tp, pp, etp, ep) = (p.tp.max(1), p.pp.max(1), p.etp.max(1), p.ep.max(1));
    let dense = (shape.params - shape.expert_params()) / (f64::from(tp) * f64::from(pp));
    let experts = shape.expert_params() / (f64::from(etp) * f64::from(ep) * f64::from(pp));
    let expert_shard = (u64::from(p.shard.max(1)) * u64::from(tp) / (u64::from(etp) * u64::from(ep))).max(1);
    let expert_shard = u32::try_from(expert_shard).unwrap_or(u32::MAX);
    dense * per_param(p.shard) + experts * per_param(expert_shard)
}

/// What one GPU holds with `sync` on the split `p` beside activations `act`, as one implementation allocates it.
#[derive(Clone, Copy)]
struct Held {
    /// Model states, fixed bytes included.
    states: f64,
    /// The optimizer step's working copy.
    copy: f64,
    /// The most at once: the states with the larger of the activations (through backward) and the copy (after).
    peak: f64,
    /// Which implementation.
    name: &'static str,
}

/// What one GPU holds with `sync` on the split `p`, as the implementation that needs most allocates it and as the
/// one that needs least does.
fn need(s: &Scenario, sync: SyncStrategy, p: Split, act: f64) -> (Held, Held) {
    let held = implementations(sync).iter().map(|im| {
        let states = per_gpu(s, p, &|n| (im.states)(f64::from(n.max(1)))) + im.fixed;
        let copy = per_gpu(s, p, &|n| (im.step_copy)(f64::from(n.max(1))));
        Held { states, copy, peak: states + act.max(copy), name: im.name }
    });
    let first = Held { states: 0.0, copy: 0.0, peak: f64::NAN, name: "" };
    held.fold((first, first), |(hi, lo), h| {
        (
            if hi.peak.is_nan() || h.peak > hi.peak { h } else { hi },
            if lo.peak.is_nan() || h.peak < lo.peak { h } else { lo },
        )
    })
}

/// Model states and activations per GPU against the GPU's memory.
pub fn memory_fit(s: &Scenario) -> MemoryFit {
    let l = s.layout();
    let (act, activations_from) = if s.input().activation_bytes_per_gpu > 0.0 {
        (s.input().activation_bytes_per_gpu, ActivationSource::Given)
    } else if s.input().model.is_some() {
        (shape_activation_bytes(s), ActivationSource::Shape)
    } else {
        // A parameter count alone still trains a transformer of that size: its activations count too (an L40S
        // "fit" a 7B job at 35.9 GiB of states where an 8B shape needs 60 GiB with its activations).
        (shape_activation_bytes(s), ActivationSource::Generic)
    };
    let mem = s.gpu().memory().get();
    let sync = s.input().sync;
    let shard = match sync {
        SyncStrategy::Hsdp => l.shard_group,
        _ => l.dp,
    };
    let model_split = l.tp.saturating_mul(l.pp);
    let split = Split { tp: l.tp, pp: l.pp, shard, etp: l.etp, ep: l.ep };
    let (most, least) = need(s, sync, split, act);
    // On `gpus` GPUs (one node, one NVLink domain) the model is split at most over them; the data-parallel ranks
    // are the rest, and the experts fold into a stage's ranks as far as they go. As configured, and with
    // ZeRO-3/FSDP.
    let on = |gpus: u32| {
        let gpus = gpus.max(1);
        let pp = l.pp.min(gpus);
        let tp = l.tp.min(gpus / pp).max(1);
        let dp = (gpus / (tp * pp)).max(1);
        let etp = l.etp.min(tp * dp);
        let ep = l.ep.min((tp * dp / etp).max(1));
        let shard = match sync {
            SyncStrategy::Hsdp => l.shard_group.min(dp),
            _ => dp,
        };
        let split = Split { tp, pp, shard, etp, ep };
        (need(s, sync, split, act).0.peak, need(s, SyncStrategy::Zero3, Split { shard: dp, ..split }, act).0.peak)
    };
    let (one_node, one_node_zero3) = on(s.gpus_per_node());
    let domain = s.nvlink_domain_gpus();
    let (one_domain, one_domain_zero3) = on(domain);
    let fixed = fixed_state_bytes(SyncStrategy::Zero3);
    // ZeRO-3/FSDP spreads the whole model's states (every expert's too) over the job's GPUs: the fewest that hold
    // them beside its fixed bucket and the activations, and at the optimizer step beside its working copy (then
    // 16 + 4 bytes per parameter over N), rounded up to whole model replicas of tensor x pipeline parallelism.
    let params = s.shape().params;
    let states = params * MODEL_STATE_BYTES_PER_PARAM;
    let at_step = params * (MODEL_STATE_BYTES_PER_PARAM + STEP_COPY_BYTES);
    let split = f64::from(model_split.max(1));
    let (free, free_at_step) = (mem - act - fixed, mem - fixed);
    let min_gpus_zero3 = (free > 0.0).then(|| {
        let gpus = (states / free).ceil().max((at_step / free_at_step).ceil());
        ((gpus / split).ceil() * split).clamp(1.0, 1e15) as u64
    });
    MemoryFit {
        model_state_bytes_per_gpu: Bytes::new(most.states),
        activation_bytes_per_gpu: Bytes::new(act),
        activations_from,
        optimizer_step_bytes_per_gpu: Bytes::new(most.copy),
        total_bytes_per_gpu: Bytes::new(most.peak),
        implementation: most.name,
        gpu_memory_bytes: Bytes::new(mem),
        fits: most.peak <= mem,
        least_total_bytes_per_gpu: Bytes::new(least.peak),
        least_implementation: least.name,
        may_fit: most.peak > mem && least.peak <= mem,
        one_node_bytes_per_gpu: Bytes::new(one_node),
        fits_one_node: one_node <= mem,
        one_node_zero3_bytes_per_gpu: Bytes::new(one_node_zero3),
        fits_one_node_zero3: one_node_zero3 <= mem,
        nvlink_domain_gpus: domain,
        one_domain_bytes_per_gpu: Bytes::new(one_domain),
        fits_one_domain: one_domain <= mem,
        one_domain_zero3_bytes_per_gpu: Bytes::new(one_domain_zero3),
        fits_one_domain_zero3: one_domain_zero3 <= mem,
        min_gpus_zero3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ScenarioInput;

    fn fit(change: impl FnOnce(&mut ScenarioInput)) -> MemoryFit {
        let mut i = ScenarioInput::default();
        change(&mut i);
        memory_fit(&Scenario::new(i).expect("valid"))
    }

    #[test]
    fn a_7b_model_needs_140_gb_of_states_under_ddp() {
        let m = fit(|_| {});
        assert_eq!(m.model_state_bytes_per_gpu.get(), 140e9, "7e9 x (4 + 4 + 4 + 8)");
        assert!(!m.fits && !m.fits_one_node, "140 GB of states do not fit in an 80 GiB H100");
        assert!(m.fits_one_node_zero3, "15 GB per GPU when sharded over 8: 112 GB / 8 + 1 GB of bucket");
        assert_eq!(m.min_gpus_zero3, Some(2));
    }

    #[test]
    fn zero3_shards_over_every_gpu() {
        let m = fit(|i| i.sync = SyncStrategy::Zero3);
        assert_eq!(m.model_state_bytes_per_gpu.get(), 112e9 / 16.0 + 1e9, "16/N and DeepSpeed's 1 GB bucket");
        // The need on one node is its states and the same activations (a bare count's generic shape).
        assert_eq!(m.activations_from, ActivationSource::Generic);
        assert!(m.activation_bytes_per_gpu.get() > 0.0);
        assert_eq!(m.one_node_bytes_per_gpu.get() - m.activation_bytes_per_gpu.get(), 112e9 / 8.0 + 1e9);
    }

    fn check(sync: SyncStrategy, gpus: u32, expect: f64) {
        let got = state_bytes_per_param(sync, gpus);
        assert!((got - expect).abs() < 1e-12, "{sync:?} on {gpus}: {got} bytes per parameter, not {expect}");
    }

    #[test]
    fn the_implementations_keep_more_than_the_papers_figure_1() {
        // ZeRO paper, figure 1 (K = 12): 16, 4 + 12/N, 2 + 14/N, 16/N. On 8 GPUs that was 16, 5.5, 3.75 and 2.
        check(SyncStrategy::Ddp, 8, 20.0); // 4 + 4 + 4 (DDP's bucket copy) + 8
        check(SyncStrategy::Zero1, 8, 7.5); // 2 + 4 (Megatron's FP32 gradient buffer) + 12/8
        check(SyncStrategy::Zero2, 8, 4.0); // 2 + (4 + 4 + 8)/8: FSDP keeps FP32 gradient shards
        check(SyncStrategy::Zero3, 8, 2.0); // 16/8, as the paper says
        check(SyncStrategy::Hsdp, 8, 2.0);
        assert_eq!(fixed_state_bytes(SyncStrategy::Zero3), 1e9, "5e8 BF16 elements of DeepSpeed's bucket");
        assert_eq!(fixed_state_bytes(SyncStrategy::Hsdp), 0.0, "FSDP has no fixed bucket");
        // One GPU: nothing is sharded, and each strategy keeps its implementation's whole states.
        check(SyncStrategy::Zero1, 1, 18.0); // Megatron's non-distributed 18
        check(SyncStrategy::Zero2, 1, 18.0);
        check(SyncStrategy::Zero3, 1, MODEL_STATE_BYTES_PER_PARAM);
    }

    #[test]
    fn states_per_gpu_are_what_the_implementations_keep() {
        // 7.5B parameters on 64 GPUs, the ZeRO paper's figure 1 case (there 120, 31.4, 16.6 and 1.9 GB).
        let per_gpu = |sync| {
            fit(|i| {
                i.params = 7.5e9;
                i.sync = sync;
                i.nodes = 8;
            })
            .model_state_bytes_per_gpu
            .get()
                / 1e9
        };
        for (sync, gb) in [
            (SyncStrategy::Ddp, 150.0),      // 7.5 x 20
            (SyncStrategy::Zero1, 46.40625), // 7.5 x (6 + 12/64)
            (SyncStrategy::Zero2, 16.875),   // 7.5 x (2 + 16/64)
            (SyncStrategy::Zero3, 2.875),    // 7.5 x 16/64 + 1
            (SyncStrategy::Hsdp, 15.0),      // 7.5 x 16/8: sharded over a node of 8
        ] {
            assert!((per_gpu(sync) - gb).abs() < 1e-9, "{sync:?}: {} GB", per_gpu(sync));
        }
        let m = fit(|i| i.sync = SyncStrategy::Zero1);
        assert!(m.fits, "7B with ZeRO-1 on 16 GPUs: 7 x (6 + 12/16) = 47.25 GB per GPU");
    }

    #[test]
    fn activations_count() {
        let m = fit(|i| {
            i.params = 1e9;
            i.activation_bytes_per_gpu = 80e9;
        });
        assert!(!m.fits, "20 GB + 80 GB > 80 GiB");
        let m = fit(|i| i.activation_bytes_per_gpu = 100e9);
        assert_eq!(m.min_gpus_zero3, None, "activations alone exceed an 80 GiB GPU");
        let h100 = 81559.0 * 1024.0 * 1024.0;
        let m = fit(|i| i.activation_bytes_per_gpu = h100 - 0.5e9);
        assert_eq!(m.min_gpus_zero3, None, "ZeRO-3's 1 GB bucket does not fit beside the activations");
    }

    #[test]
    fn between_the_implementations_the_model_cannot_tell() {
        // 7B with ZeRO-1 on one node of 8 H100 (85.5 GB), 20 GB of activations given: as Megatron-LM allocates it
        // 7 x (6 + 12/8) + 20 = 72.5 GB, which fits; on 4 GPUs 7 x (6 + 3) + 20 = 83 GB fits too; on 2 GPUs
        // 7 x (6 + 6) + 20 = 104 GB does not, nor the least, 7 x (4 + 6) + 20 = 90 GB.
        let on = |gpus: i64, act: f64| {
            fit(|i| {
                i.sync = SyncStrategy::Zero1;
                i.nodes = 1;
                i.gpus_per_node = gpus;
                i.activation_bytes_per_gpu = act;
            })
        };
        let m = on(2, 20e9);
        assert!(!m.fits && !m.may_fit, "{m:?}");
        assert!((m.least_total_bytes_per_gpu.get() - 90e9).abs() < 1.0);
        // 2 GPUs with 10 GB of activations: 84 + 10 = 94 GB as Megatron keeps it, 70 + max(10, 14) = 84 GB as
        // DeepSpeed stage 1 does (its step copies each GPU's 3.5B-parameter shard to FP32).
        let m = on(2, 10e9);
        assert!(!m.fits && m.may_fit, "{m:?}");
        assert!(
            (m.total_bytes_per_gpu.get() - 94e9).abs() < 1.0 && (m.least_total_bytes_per_gpu.get() - 84e9).abs() < 1.0
        );
        assert_eq!(
            (m.implementation, m.least_implementation),
            ("Megatron-LM's distributed optimizer", "DeepSpeed ZeRO stage 1")
        );
        let m = on(8, 20e9);
        assert!(m.fits && !m.may_fit);
        // The table's figure is the states of the implementation each strategy lists first, the one its docs name.
        for sync in SyncStrategy::ALL {
            for n in [1, 2, 8, 64] {
                let first = (implementations(sync)[0].states)(f64::from(n));
                assert!((first - state_bytes_per_param(sync, n)).abs() < 1e-12, "{sync:?} {n}");
            }
        }
    }

    #[test]
    fn the_optimizer_steps_working_copy_replaces_the_activations_when_larger() {
        // 13B with ZeRO-2 on one node of 4 GPUs, 1 GB of activations given: states 13 x (2 + 16/4) = 78 GB; the
        // step's FP32 copy of each GPU's gradient shard is 13 x 4/4 = 13 GB, held after the activations are freed.
        let m = fit(|i| {
            i.params = 13e9;
            i.sync = SyncStrategy::Zero2;
            i.nodes = 1;
            i.gpus_per_node = 4;
            i.activation_bytes_per_gpu = 1e9;
        });
        let gb = |b: Bytes| b.get() / 1e9;
        assert!((gb(m.model_state_bytes_per_gpu) - 78.0).abs() < 1e-9);
        assert!((gb(m.optimizer_step_bytes_per_gpu) - 13.0).abs() < 1e-9);
        assert!((gb(m.total_bytes_per_gpu) - 91.0).abs() < 1e-9, "78 + max(1, 13)");
        assert!(!m.fits, "91 GB on an 80 GiB H100 (85.5 GB)");
        // With larger activations they set the peak, as before; the identity holds either way.
        let m = fit(|i| i.activation_bytes_per_gpu = 40e9); // DDP 7B: a 28 GB copy
        let most = m.activation_bytes_per_gpu.get().max(m.optimizer_step_bytes_per_gpu.get());
        assert!((m.total_bytes_per_gpu.get() - m.model_state_bytes_per_gpu.get() - most).abs() < 1.0);
        assert!(m.activation_bytes_per_gpu.get() > m.optimizer_step_bytes_per_gpu.get());
        // DDP copies every parameter it updates: 4 bytes per parameter, not sharded.
        assert_eq!((implementations(SyncStrategy::Ddp)[0].step_copy)(8.0), 4.0);
        // DeepSpeed stage 1 its shard; Megatron-LM's fused Adam none.
        assert_eq!((implementations(SyncStrategy::Zero1)[1].step_copy)(8.0), 0.5);
        assert_eq!((implementations(SyncStrategy::Zero1)[0].step_copy)(8.0), 0.0);
        // ZeRO-3 on the fewest GPUs: at the step 20 bytes per parameter over N beside the 1 GB bucket.
        let m = fit(|i| {
            i.params = 70e9;
            i.sync = SyncStrategy::Zero3;
            i.activation_bytes_per_gpu = 1e9;
        });
        let h100 = 81559.0 * 1024.0 * 1024.0;
        let n = m.min_gpus_zero3.expect("fits on some count") as f64;
        assert!(70e9 * 20.0 / n + 1e9 <= h100 && 70e9 * 20.0 / (n - 1.0) + 1e9 > h100, "{n}");
    }
}
