//! Memory fit: model states per GPU against the GPU's memory.

use serde::Serialize;

use crate::scenario::{Scenario, SyncStrategy};
use crate::units::Bytes;

/// Bytes of model state per parameter with mixed-precision Adam: BF16/FP16 parameters and gradients (2 + 2) plus
/// FP32 master parameters, momentum and variance (4 + 4 + 4). Source: Rajbhandari et al., "ZeRO", SC'20, 3.1.
pub const MODEL_STATE_BYTES_PER_PARAM: f64 = 16.0;

/// Of those, the optimizer states (K = 12 in the ZeRO paper: FP32 parameters, momentum, variance).
pub const OPTIMIZER_STATE_BYTES_PER_PARAM: f64 = 12.0;

/// Model-state bytes per parameter that one GPU keeps when the states are sharded over `gpus` GPUs (ZeRO paper,
/// figure 1): DDP 2 + 2 + K; ZeRO-1 2 + 2 + K/N; ZeRO-2 2 + (2 + K)/N; ZeRO-3 (2 + 2 + K)/N. HSDP is ZeRO-3
/// over its shard group.
pub fn state_bytes_per_param(sync: SyncStrategy, gpus: u32) -> f64 {
    let n = f64::from(gpus.max(1));
    let k = OPTIMIZER_STATE_BYTES_PER_PARAM;
    match sync {
        SyncStrategy::Ddp => MODEL_STATE_BYTES_PER_PARAM,
        SyncStrategy::Zero1 => 4.0 + k / n,
        SyncStrategy::Zero2 => 2.0 + (2.0 + k) / n,
        SyncStrategy::Zero3 | SyncStrategy::Hsdp => MODEL_STATE_BYTES_PER_PARAM / n,
    }
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
    /// Model states per GPU in this scenario (16 bytes/param under DDP, less as ZeRO shards them and as tensor,
    /// pipeline and expert parallelism split the model).
    pub model_state_bytes_per_gpu: Bytes,
    /// Activations per GPU: as given, or from the model's shape (the generic shape of its size for a bare
    /// parameter count; see `activations_from`).
    pub activation_bytes_per_gpu: Bytes,
    /// Where the activation figure comes from.
    pub activations_from: ActivationSource,
    /// Their sum.
    pub total_bytes_per_gpu: Bytes,
    /// The GPU's memory.
    pub gpu_memory_bytes: Bytes,
    /// Whether the scenario fits as configured.
    pub fits: bool,
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

/// Model-state bytes one GPU keeps with `sync` on the split `p`.
fn states_per_gpu(s: &Scenario, sync: SyncStrategy, p: Split) -> f64 {
    let shape = s.shape();
    let (tp, pp, etp, ep) = (p.tp.max(1), p.pp.max(1), p.etp.max(1), p.ep.max(1));
    let dense = (shape.params - shape.expert_params()) / (f64::from(tp) * f64::from(pp));
    let experts = shape.expert_params() / (f64::from(etp) * f64::from(ep) * f64::from(pp));
    let expert_shard = (u64::from(p.shard.max(1)) * u64::from(tp) / (u64::from(etp) * u64::from(ep))).max(1);
    let expert_shard = u32::try_from(expert_shard).unwrap_or(u32::MAX);
    dense * state_bytes_per_param(sync, p.shard) + experts * state_bytes_per_param(sync, expert_shard)
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
    let here = states_per_gpu(s, sync, Split { tp: l.tp, pp: l.pp, shard, etp: l.etp, ep: l.ep });
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
        (states_per_gpu(s, sync, split), states_per_gpu(s, SyncStrategy::Zero3, Split { shard: dp, ..split }))
    };
    let (one_node, one_node_zero3) = on(s.gpus_per_node());
    let domain = s.nvlink_domain_gpus();
    let (one_domain, one_domain_zero3) = on(domain);
    let free = mem - act;
    // ZeRO-3/FSDP spreads the whole model's states (every expert's too) over the job's GPUs: the fewest that hold
    // them, rounded up to whole model replicas of tensor x pipeline parallelism.
    let states = s.shape().params * MODEL_STATE_BYTES_PER_PARAM;
    let split = f64::from(model_split.max(1));
    let min_gpus_zero3 =
        (free > 0.0).then(|| (((states / free).ceil() / split).ceil() * split).clamp(1.0, 1e15) as u64);
    MemoryFit {
        model_state_bytes_per_gpu: Bytes::new(here),
        activation_bytes_per_gpu: Bytes::new(act),
        activations_from,
        total_bytes_per_gpu: Bytes::new(here + act),
        gpu_memory_bytes: Bytes::new(mem),
        fits: here + act <= mem,
        one_node_bytes_per_gpu: Bytes::new(one_node + act),
        fits_one_node: one_node + act <= mem,
        one_node_zero3_bytes_per_gpu: Bytes::new(one_node_zero3 + act),
        fits_one_node_zero3: one_node_zero3 + act <= mem,
        nvlink_domain_gpus: domain,
        one_domain_bytes_per_gpu: Bytes::new(one_domain + act),
        fits_one_domain: one_domain + act <= mem,
        one_domain_zero3_bytes_per_gpu: Bytes::new(one_domain_zero3 + act),
        fits_one_domain_zero3: one_domain_zero3 + act <= mem,
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
    fn a_7b_model_needs_112_gb_of_states_under_ddp() {
        let m = fit(|_| {});
        assert_eq!(m.model_state_bytes_per_gpu.get(), 112e9);
        assert!(!m.fits && !m.fits_one_node, "112 GB of states do not fit in an 80 GiB H100");
        assert!(m.fits_one_node_zero3, "14 GB per GPU when sharded over 8");
        assert_eq!(m.min_gpus_zero3, Some(2));
    }

    #[test]
    fn zero3_shards_over_every_gpu() {
        let m = fit(|i| i.sync = SyncStrategy::Zero3);
        assert_eq!(m.model_state_bytes_per_gpu.get(), 112e9 / 16.0);
        // The need on one node is its states and the same activations (a bare count's generic shape).
        assert_eq!(m.activations_from, ActivationSource::Generic);
        assert!(m.activation_bytes_per_gpu.get() > 0.0);
        assert_eq!(m.one_node_bytes_per_gpu.get() - m.activation_bytes_per_gpu.get(), 112e9 / 8.0);
    }

    #[test]
    fn zero1_and_zero2_shard_what_the_paper_says() {
        // ZeRO paper, figure 1: 7.5B parameters on 64 GPUs need 120 GB (DDP), 31.4 GB (Pos), 16.6 GB (Pos+g)
        // and 1.9 GB (Pos+g+p) per GPU.
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
            (SyncStrategy::Ddp, 120.0),
            (SyncStrategy::Zero1, 31.4),
            (SyncStrategy::Zero2, 16.6),
            (SyncStrategy::Zero3, 1.9),
        ] {
            assert!((per_gpu(sync) - gb).abs() < 0.05, "{sync:?}: {} GB", per_gpu(sync));
        }
        let m = fit(|i| i.sync = SyncStrategy::Zero1);
        assert!(m.fits, "7B with ZeRO-1 on 16 GPUs: 28 + 84/16 = 33.25 GB per GPU");
    }

    #[test]
    fn activations_count() {
        let m = fit(|i| {
            i.params = 1e9;
            i.activation_bytes_per_gpu = 80e9;
        });
        assert!(!m.fits, "16 GB + 80 GB > 80 GiB");
        let m = fit(|i| i.activation_bytes_per_gpu = 100e9);
        assert_eq!(m.min_gpus_zero3, None, "activations alone exceed an 80 GiB GPU");
    }
}
