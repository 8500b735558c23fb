//! Memory fit: model states per GPU against the GPU's memory.

use serde::Serialize;

use crate::scenario::{Scenario, SyncStrategy};
use crate::units::Bytes;

/// Bytes of model state per parameter with mixed-precision Adam: BF16/FP16 parameters and gradients (2 + 2) plus
/// FP32 master parameters, momentum and variance (4 + 4 + 4). Source: Rajbhandari et al., "ZeRO", SC'20, 3.1.
pub const MODEL_STATE_BYTES_PER_PARAM: f64 = 16.0;

/// Whether the job's memory fits, per GPU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemoryFit {
    /// Model states per GPU in this scenario (16 bytes/param, divided across all GPUs for ZeRO-3/FSDP).
    pub model_state_bytes_per_gpu: Bytes,
    /// Activation estimate per GPU (as given; 0 when not given).
    pub activation_bytes_per_gpu: Bytes,
    /// Their sum.
    pub total_bytes_per_gpu: Bytes,
    /// The GPU's memory.
    pub gpu_memory_bytes: Bytes,
    /// Whether the scenario fits as configured.
    pub fits: bool,
    /// Per-GPU need if the job ran on one node with the same sync strategy.
    pub one_node_bytes_per_gpu: Bytes,
    /// Whether it fits on one node with the same sync strategy.
    pub fits_one_node: bool,
    /// Per-GPU need on one node with ZeRO-3/FSDP (states sharded over the node's GPUs).
    pub one_node_zero3_bytes_per_gpu: Bytes,
    /// Whether it fits on one node with ZeRO-3/FSDP.
    pub fits_one_node_zero3: bool,
    /// The fewest GPUs that hold the model states with ZeRO-3/FSDP, activations included; `None` when the
    /// activations alone exceed the GPU's memory.
    pub min_gpus_zero3: Option<u64>,
}

/// Model states and activations per GPU against the GPU's memory.
pub fn memory_fit(s: &Scenario) -> MemoryFit {
    let states = s.input().params * MODEL_STATE_BYTES_PER_PARAM;
    let act = s.input().activation_bytes_per_gpu;
    let mem = s.gpu().memory().get();
    let sharded = |gpus: u32| states / f64::from(gpus.max(1));
    let (here, one_node) = match s.input().sync {
        SyncStrategy::Ddp => (states, states),
        SyncStrategy::Zero3 => (sharded(s.participants()), sharded(s.gpus_per_node())),
    };
    let one_node_zero3 = sharded(s.gpus_per_node());
    let free = mem - act;
    let min_gpus_zero3 = (free > 0.0).then(|| (states / free).ceil().clamp(1.0, 1e15) as u64);
    MemoryFit {
        model_state_bytes_per_gpu: Bytes::new(here),
        activation_bytes_per_gpu: Bytes::new(act),
        total_bytes_per_gpu: Bytes::new(here + act),
        gpu_memory_bytes: Bytes::new(mem),
        fits: here + act <= mem,
        one_node_bytes_per_gpu: Bytes::new(one_node + act),
        fits_one_node: one_node + act <= mem,
        one_node_zero3_bytes_per_gpu: Bytes::new(one_node_zero3 + act),
        fits_one_node_zero3: one_node_zero3 + act <= mem,
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
        assert_eq!(m.one_node_bytes_per_gpu.get(), 112e9 / 8.0);
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
