//! The training framework whose communication rules a step follows: how it buckets the gradient collectives.
//! Each rule is read from the framework's source at a pinned commit (`tests/data/steps/research/frameworks.md`
//! quotes every line cited here); none is fitted to a run.

use serde::{Deserialize, Serialize};

use super::SyncStrategy;

/// PyTorch DDP's bucket cap: `_DEFAULT_BUCKET_CAP_MB = 25` MiB (pytorch/pytorch@d0f2af8b66b20da4baa50644c0cd3f887a2eae2e
/// `torch/nn/parallel/distributed.py:31`, used when `bucket_cap_mb=None`, L87-89).
pub const DDP_BUCKET_BYTES: f64 = 25.0 * 1024.0 * 1024.0;

/// Megatron-Core's smallest default bucket, in elements of the gradient buffer: `max(40000000, 1000000 *
/// dp_group.size())` (NVIDIA/Megatron-LM@d98e8a64ddf34856e74b24714e3bedb2f5a39553
/// `megatron/core/distributed/distributed_data_parallel.py:132-137`; the config's docstring, "larger DP sizes need
/// larger buckets to ensure collectives do not become latency-bound", `distributed_data_parallel_config.py:48-51`).
pub const MEGATRON_MIN_BUCKET_ELEMENTS: f64 = 40_000_000.0;
/// Megatron-Core's default bucket grows by this many elements per data-parallel rank (the same line).
pub const MEGATRON_BUCKET_ELEMENTS_PER_DP_RANK: f64 = 1_000_000.0;

/// DeepSpeed's gradient bucket: `reduce_bucket_size: int = Field(pp_int(5e8), ge=0)` elements for ZeRO
/// (deepspeedai/DeepSpeed@edaa7221267243c7be7fb49c5d5f5c4fb97b4641 `deepspeed/runtime/zero/config.py:113`), and
/// `MEMORY_OPT_ALLREDUCE_SIZE = 500000000` elements for its plain data parallelism (`deepspeed/runtime/engine.py:160`).
pub const DEEPSPEED_BUCKET_ELEMENTS: f64 = 5e8;

/// XLA's default combine threshold for all-reduce, all-gather and reduce-scatter on GPU: `30 * 1024 * 1024 + 7`
/// bytes (openxla/xla@9a77a882bb2bc75cb8c29620ff8cd0fd089bdc86 `xla/service/collective_utils.h:25,29,38`). XLA's
/// memory-based combining, on by default beyond one NVLink domain (`xla/debug_options_flags.cc:457`), can combine
/// more; that is not modelled.
pub const XLA_COMBINE_BYTES: f64 = 30.0 * 1024.0 * 1024.0 + 7.0;

/// The framework that runs the job: its rules size the gradient buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Framework {
    /// PyTorch DDP (and FSDP's unsharded parts): 25 MiB buckets.
    Ddp,
    /// Megatron-LM / Megatron-Core: `max(40M, 1M x DP)` elements per bucket.
    Megatron,
    /// DeepSpeed: 5e8 elements per bucket.
    Deepspeed,
    /// PyTorch FSDP / FSDP2: one collective per wrapped unit.
    Fsdp,
    /// JAX/XLA: collectives combined up to 30 MiB.
    Jax,
}

impl Framework {
    /// Every framework, in the order a user interface lists them.
    pub const ALL: [Framework; 5] =
        [Framework::Ddp, Framework::Megatron, Framework::Deepspeed, Framework::Fsdp, Framework::Jax];

    /// The lower-case name (`megatron`).
    pub fn name(self) -> &'static str {
        match self {
            Framework::Ddp => "ddp",
            Framework::Megatron => "megatron",
            Framework::Deepspeed => "deepspeed",
            Framework::Fsdp => "fsdp",
            Framework::Jax => "jax",
        }
    }

    /// A short human label (`Megatron-Core`).
    pub fn label(self) -> &'static str {
        match self {
            Framework::Ddp => "PyTorch DDP",
            Framework::Megatron => "Megatron-Core",
            Framework::Deepspeed => "DeepSpeed",
            Framework::Fsdp => "PyTorch FSDP",
            Framework::Jax => "JAX/XLA",
        }
    }

    /// Reads a name as users type it, in any case (`Megatron`, `FSDP`).
    pub fn parse(s: &str) -> Option<Framework> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "ddp" => Framework::Ddp,
            "megatron" => Framework::Megatron,
            "deepspeed" => Framework::Deepspeed,
            "fsdp" => Framework::Fsdp,
            "jax" => Framework::Jax,
            _ => return None,
        })
    }

    /// Its default gradient bucket, in words.
    pub fn bucket_rule(self) -> &'static str {
        match self {
            Framework::Ddp => "PyTorch DDP's bucket_cap_mb 25",
            Framework::Megatron => "Megatron-Core's max(40M, 1M x DP) elements",
            Framework::Deepspeed => "DeepSpeed's reduce_bucket_size 5e8 elements",
            Framework::Fsdp => "one collective per FSDP unit",
            Framework::Jax => "XLA's 30 MiB combine threshold",
        }
    }

    /// The framework a layout implies when none is given: the distributed optimizer with tensor or pipeline
    /// parallelism is Megatron's, other ZeRO-1/2 DeepSpeed's, ZeRO-3 and HSDP FSDP's, DDP PyTorch's.
    pub fn of_layout(sync: SyncStrategy, tp: i64, pp: i64) -> Framework {
        match sync {
            SyncStrategy::Ddp => Framework::Ddp,
            SyncStrategy::Zero1 | SyncStrategy::Zero2 if tp > 1 || pp > 1 => Framework::Megatron,
            SyncStrategy::Zero1 | SyncStrategy::Zero2 => Framework::Deepspeed,
            SyncStrategy::Zero3 | SyncStrategy::Hsdp => Framework::Fsdp,
        }
    }

    /// The gradient bucket its defaults make, in bytes, for `dp` data-parallel ranks and `elem` bytes per gradient
    /// element; `None` where it buckets by unit rather than by size (FSDP).
    pub fn bucket_bytes(self, dp: u32, elem: f64) -> Option<f64> {
        match self {
            Framework::Ddp => Some(DDP_BUCKET_BYTES),
            Framework::Megatron => {
                Some(MEGATRON_MIN_BUCKET_ELEMENTS.max(MEGATRON_BUCKET_ELEMENTS_PER_DP_RANK * f64::from(dp)) * elem)
            }
            Framework::Deepspeed => Some(DEEPSPEED_BUCKET_ELEMENTS * elem),
            Framework::Fsdp => None,
            Framework::Jax => Some(XLA_COMBINE_BYTES),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_framework_sizes_its_buckets_as_its_source_does() {
        assert_eq!(Framework::Ddp.bucket_bytes(512, 2.0), Some(25.0 * 1024.0 * 1024.0));
        // Megatron: 40M elements up to 40 data-parallel ranks, 1M per rank beyond; fp32 buffers are 4 bytes each.
        assert_eq!(Framework::Megatron.bucket_bytes(8, 4.0), Some(160e6));
        assert_eq!(Framework::Megatron.bucket_bytes(512, 4.0), Some(2048e6));
        assert_eq!(Framework::Deepspeed.bucket_bytes(2, 2.0), Some(1e9));
        assert_eq!(Framework::Fsdp.bucket_bytes(64, 2.0), None);
        assert_eq!(Framework::Jax.bucket_bytes(64, 2.0), Some(31_457_287.0));
        for f in Framework::ALL {
            assert_eq!(Framework::parse(f.name()), Some(f));
        }
        assert_eq!(Framework::parse(" Megatron "), Some(Framework::Megatron));
        assert_eq!(Framework::parse("horovod"), None);
        assert_eq!(Framework::of_layout(SyncStrategy::Zero1, 8, 1), Framework::Megatron);
        assert_eq!(Framework::of_layout(SyncStrategy::Zero1, 1, 1), Framework::Deepspeed);
        assert_eq!(Framework::of_layout(SyncStrategy::Hsdp, 1, 1), Framework::Fsdp);
        assert_eq!(Framework::of_layout(SyncStrategy::Ddp, 2, 2), Framework::Ddp);
    }
}
