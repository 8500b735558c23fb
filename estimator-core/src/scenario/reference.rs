//! The reference question, once, for every front end: 7B in BF16 on two nodes of 8 H100, on the rental the seed
//! warns about (one 25 GbE port per node, no RDMA) against 8 x 400 Gb/s InfiniBand. The page's first load, `probe-cli
//! estimate step --reference`, `make estimate` and the README's first command all read it from here, so they give
//! the same figures (tests hold each to it).
//!
//! The job: ZeRO-1, whose gradient traffic is the all-reduce's bytes (the reference arithmetic's 14 GB) and whose
//! model states fit an 80 GB H100 (DDP's 20 bytes per parameter do not: 130 GiB), at the batch and MFU of a cited
//! public recipe. The seed's arithmetic beside it is DDP's gradient all-reduce whatever the layout:
//! 7e9 x 2 = 14 GB, about 2 x 14 = 28 GB through each participant's link, 8.96 s at 25 Gb/s and 0.56 s at 400 Gb/s.

use super::{ComputeInput, ScenarioInput, SyncStrategy};
use crate::Fabric;

/// Tokens per optimizer step of the reference job: 16 GPUs x a local batch of 2 sequences x 8192 tokens =
/// 262,144. Source: torchtitan's Llama 3.1 8B benchmark on H100 (pytorch/torchtitan,
/// `benchmarks/llama3_h100_202412_torchtitan.md` at 31a17bf, table 1: "FSDP ... Local batch size 2"), whose config
/// sets `seq_len = 8192` (`train_configs/llama3_8b.toml`).
pub const REFERENCE_TOKENS_PER_STEP: f64 = 262_144.0;

/// MFU of the reference job. Source: the same benchmark, "Llama 3.1 8B model training on 8 or 128 H100 GPUs
/// without Float8 achieves 33% to 39% MFU"; 35% is inside that range.
pub const REFERENCE_MFU: f64 = 0.35;

/// The reference job on the fast fabric: 2 nodes x 8 H100 SXM, 8 x 400 Gb/s InfiniBand with GPUDirect RDMA (the
/// model's default hardware).
pub fn reference_fast() -> ScenarioInput {
    ScenarioInput {
        sync: SyncStrategy::Zero1,
        compute: ComputeInput::Tokens { tokens_per_step: REFERENCE_TOKENS_PER_STEP, mfu: REFERENCE_MFU },
        ..ScenarioInput::default()
    }
}

/// The same job on the rental the reference question warns about: one 25 GbE port per node, no RDMA (NCCL's TCP
/// sockets).
pub fn reference_slow() -> ScenarioInput {
    ScenarioInput { adapters_per_node: 1, link_gbps: 25.0, fabric: Fabric::Tcp, gdr: false, ..reference_fast() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, estimate_step, reference_lower_bound};

    #[test]
    fn the_reference_job_fits_and_keeps_the_seeds_arithmetic() {
        for (input, secs) in [(reference_slow(), 8.96), (reference_fast(), 0.56)] {
            let s = Scenario::new(input).expect("valid");
            let lb = reference_lower_bound(&s);
            assert!(
                (lb.gradient_bytes.get() - 14e9).abs() < 1.0 && (lb.bytes_per_participant.get() - 28e9).abs() < 1.0
            );
            assert!((lb.time_s.as_secs() - secs).abs() < 1e-9, "{secs}");
            assert!(crate::memory::memory_fit(&s).fits, "ZeRO-1's states fit an 80 GB H100");
            assert!(estimate_step(&s).step_s.as_secs() > 0.0);
        }
    }
}
