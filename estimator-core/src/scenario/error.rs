//! Why an input is refused: the field ([`Field`], named as its JSON key), the reason ([`Reason`]) and the accepted
//! ranges ([`limits`]), with the checks every front end's values go through.

use std::fmt;

use serde::Serialize;

/// The input field an error is about, named as its JSON key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Field {
    Params,
    GradAccumSteps,
    BucketBytes,
    ComputeMs,
    TokensPerStep,
    Mfu,
    ActivationBytesPerGpu,
    Nodes,
    GpusPerNode,
    AdaptersPerNode,
    LinkGbps,
    Overlap,
    LinkEfficiency,
    LatencyUs,
    RingFactor,
    MeasuredBusbwGbs,
    TargetExposedShare,
    /// The message size of a single all-reduce (`collective::message_bytes`).
    Bytes,
    Model,
    Tp,
    Pp,
    Ep,
    Etp,
    MicroBatches,
    SeqLen,
    MicroBatchSize,
    ShardGroup,
    /// A run's measured step (`run_check::RunInput`).
    MeasuredStepS,
    MeasuredTokensPerS,
    MeasuredSamplesPerS,
    SamplesPerStep,
    /// A rental plan's inputs (`plan::PlanInput`).
    Tokens,
    DeadlineS,
    MaxNodes,
    Price,
    Offer,
    /// GPUs in one NVLink domain (a GB200 NVL72 rack: 72).
    NvlinkDomainGpus,
    /// The scenario's choices and switches (`scenario::inputs` names every input with a field).
    Dtype,
    Sync,
    Gpu,
    IntraNode,
    Fabric,
    Gdr,
    Algorithm,
    ActivationCheckpointing,
    TpOverlap,
    EpOverlap,
    OverlapGradReduce,
    OverlapParamGather,
    Compute,
    Framework,
}

impl Field {
    /// Every field, in declaration order (a test holds it complete).
    pub const ALL: [Field; 51] = [
        Field::Params,
        Field::GradAccumSteps,
        Field::BucketBytes,
        Field::ComputeMs,
        Field::TokensPerStep,
        Field::Mfu,
        Field::ActivationBytesPerGpu,
        Field::Nodes,
        Field::GpusPerNode,
        Field::AdaptersPerNode,
        Field::LinkGbps,
        Field::Overlap,
        Field::LinkEfficiency,
        Field::LatencyUs,
        Field::RingFactor,
        Field::MeasuredBusbwGbs,
        Field::TargetExposedShare,
        Field::Bytes,
        Field::Model,
        Field::Tp,
        Field::Pp,
        Field::Ep,
        Field::Etp,
        Field::MicroBatches,
        Field::SeqLen,
        Field::MicroBatchSize,
        Field::ShardGroup,
        Field::MeasuredStepS,
        Field::MeasuredTokensPerS,
        Field::MeasuredSamplesPerS,
        Field::SamplesPerStep,
        Field::Tokens,
        Field::DeadlineS,
        Field::MaxNodes,
        Field::Price,
        Field::Offer,
        Field::NvlinkDomainGpus,
        Field::Dtype,
        Field::Sync,
        Field::Gpu,
        Field::IntraNode,
        Field::Fabric,
        Field::Gdr,
        Field::Algorithm,
        Field::ActivationCheckpointing,
        Field::TpOverlap,
        Field::EpOverlap,
        Field::OverlapGradReduce,
        Field::OverlapParamGather,
        Field::Compute,
        Field::Framework,
    ];

    /// The JSON key (and, with `-` for `_`, the CLI flag).
    pub fn key(self) -> &'static str {
        match self {
            Field::Params => "params",
            Field::GradAccumSteps => "grad_accum_steps",
            Field::BucketBytes => "bucket_bytes",
            Field::ComputeMs => "compute_ms",
            Field::TokensPerStep => "tokens_per_step",
            Field::Mfu => "mfu",
            Field::ActivationBytesPerGpu => "activation_bytes_per_gpu",
            Field::Nodes => "nodes",
            Field::GpusPerNode => "gpus_per_node",
            Field::AdaptersPerNode => "adapters_per_node",
            Field::LinkGbps => "link_gbps",
            Field::Overlap => "overlap",
            Field::LinkEfficiency => "link_efficiency",
            Field::LatencyUs => "latency_us",
            Field::RingFactor => "ring_factor",
            Field::MeasuredBusbwGbs => "measured_busbw_gbs",
            Field::TargetExposedShare => "target_exposed_share",
            Field::Bytes => "bytes",
            Field::Model => "model",
            Field::Tp => "tp",
            Field::Pp => "pp",
            Field::Ep => "ep",
            Field::Etp => "etp",
            Field::MicroBatches => "micro_batches",
            Field::SeqLen => "seq_len",
            Field::MicroBatchSize => "micro_batch_size",
            Field::ShardGroup => "shard_group",
            Field::MeasuredStepS => "measured_step_s",
            Field::MeasuredTokensPerS => "measured_tokens_per_s",
            Field::MeasuredSamplesPerS => "measured_samples_per_s",
            Field::SamplesPerStep => "samples_per_step",
            Field::Tokens => "tokens",
            Field::DeadlineS => "deadline_s",
            Field::MaxNodes => "max_nodes",
            Field::Price => "price",
            Field::Offer => "offer",
            Field::NvlinkDomainGpus => "nvlink_domain_gpus",
            Field::Dtype => "dtype",
            Field::Sync => "sync",
            Field::Framework => "framework",
            Field::Gpu => "gpu",
            Field::IntraNode => "intra_node",
            Field::Fabric => "fabric",
            Field::Gdr => "gdr",
            Field::Algorithm => "algorithm",
            Field::ActivationCheckpointing => "activation_checkpointing",
            Field::TpOverlap => "tp_overlap",
            Field::EpOverlap => "ep_overlap",
            Field::OverlapGradReduce => "overlap_grad_reduce",
            Field::OverlapParamGather => "overlap_param_gather",
            Field::Compute => "compute",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A number shown in an error message: plain for ordinary magnitudes, scientific for huge or tiny ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Shown(pub f64);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::human::echoed(self.0))
    }
}

/// Why a value was rejected.
#[derive(Clone, Debug, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reason {
    /// NaN or an infinity.
    #[error("must be a finite number (got {got})")]
    NotFinite {
        /// The value.
        got: Shown,
    },
    /// Below the allowed range.
    #[error("must be at least {min}{} (got {got})", singular(min, unit))]
    TooSmall {
        /// Smallest allowed.
        min: Shown,
        /// The value.
        got: Shown,
        /// Unit suffix for the message.
        unit: &'static str,
    },
    /// Above the allowed range; what counts as absurd.
    #[error("must be at most {max}{} (got {got})", singular(max, unit))]
    TooLarge {
        /// Largest allowed.
        max: Shown,
        /// The value.
        got: Shown,
        /// Unit suffix for the message.
        unit: &'static str,
    },
    /// A multi-node job needs a network.
    #[error("must be at least 1 when nodes > 1 (a multi-node job needs a network adapter)")]
    NeedsAdapters,
    /// A name the catalog does not have.
    #[error("unknown {what} '{got}' (known: {known})")]
    Unknown {
        /// What was looked up.
        what: &'static str,
        /// The name given.
        got: String,
        /// The names the catalog has.
        known: String,
    },
    /// A value that is needed, or values that exclude each other.
    #[error("{why}")]
    Missing {
        /// What is needed.
        why: String,
    },
    /// A parallel degree that does not fit the job.
    #[error("{why}")]
    Layout {
        /// Why, with the numbers.
        why: String,
    },
}

/// A unit after a bound: ` parameters` after 1 is ` parameter`.
fn singular(bound: &Shown, unit: &'static str) -> &'static str {
    let word = unit.trim();
    if bound.0 == 1.0 && word.len() > 2 && word.chars().all(|c| c.is_ascii_alphabetic()) {
        unit.strip_suffix('s').unwrap_or(unit)
    } else {
        unit
    }
}

/// A rejected input: which field and why.
#[derive(Clone, Debug, PartialEq, Serialize, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ScenarioError {
    /// The field.
    pub field: Field,
    /// The reason.
    pub reason: Reason,
}

/// The accepted ranges. Upper limits reject values that are certainly typos (1e20 parameters, a 10 Tb/s adapter)
/// while leaving room for the largest real systems.
pub mod limits {
    /// 100 trillion parameters.
    pub const MAX_PARAMS: f64 = 1e14;
    /// Nodes in one job.
    pub const MAX_NODES: i64 = 100_000;
    /// GPUs in one node (72 for a GB200 NVL72 rack described as one node rather than as 18 trays in one NVLink
    /// domain).
    pub const MAX_GPUS_PER_NODE: i64 = 72;
    /// GPUs in one NVLink domain: 576, the most NVIDIA's fifth-generation NVLink Switch System connects in one
    /// domain (NVIDIA GB200 NVL72 page: "NVLink Switch System ... connect up to 576 GPUs").
    pub const MAX_NVLINK_DOMAIN_GPUS: i64 = 576;
    /// Adapters in one node.
    pub const MAX_ADAPTERS_PER_NODE: i64 = 64;
    /// Slowest adapter, Gb/s (10 Mb/s).
    pub const MIN_LINK_GBPS: f64 = 0.01;
    /// Fastest adapter, Gb/s (1.6 Tb/s adapters exist in 2026; twice that is allowed).
    pub const MAX_LINK_GBPS: f64 = 3200.0;
    /// Smallest efficiency or MFU.
    pub const MIN_FRACTION: f64 = 0.001;
    /// Largest per-collective latency, microseconds (one second).
    pub const MAX_LATENCY_US: f64 = 1e6;
    /// Largest accumulation count.
    pub const MAX_GRAD_ACCUM: i64 = 1_000_000;
    /// Smallest bucket (1 KiB) and largest (1 TiB).
    pub const MIN_BUCKET_BYTES: f64 = 1024.0;
    /// Largest bucket.
    pub const MAX_BUCKET_BYTES: f64 = 1024.0 * 1024.0 * 1024.0 * 1024.0;
    /// Largest compute time, milliseconds (one day).
    pub const MAX_COMPUTE_MS: f64 = 86_400_000.0;
    /// Largest tokens per step.
    pub const MAX_TOKENS_PER_STEP: f64 = 1e12;
    /// Largest activation memory per GPU, bytes (1 PB).
    pub const MAX_ACTIVATION_BYTES: f64 = 1e15;
    /// Largest measured bus bandwidth, GB/s: 10 TB/s, above any bus bandwidth nccl-tests prints (NVL72 racks read
    /// about 900 GB/s).
    pub const MAX_MEASURED_BUSBW_GBS: f64 = 10_000.0;
    /// Largest single all-reduce message, bytes (1 PB).
    pub const MAX_MESSAGE_BYTES: f64 = 1e15;
}

pub(super) fn err(field: Field, reason: Reason) -> ScenarioError {
    ScenarioError { field, reason }
}

impl ScenarioError {
    /// A value that is needed, or values that exclude each other, with why.
    pub fn missing(field: Field, why: impl Into<String>) -> ScenarioError {
        ScenarioError { field, reason: Reason::Missing { why: why.into() } }
    }
}

/// Checks `min <= v <= max` for a float (and that it is finite).
pub(crate) fn range(field: Field, v: f64, min: f64, max: f64, unit: &'static str) -> Result<f64, ScenarioError> {
    if !v.is_finite() {
        return Err(err(field, Reason::NotFinite { got: Shown(v) }));
    }
    if v < min {
        return Err(err(field, Reason::TooSmall { min: Shown(min), got: Shown(v), unit }));
    }
    if v > max {
        return Err(err(field, Reason::TooLarge { max: Shown(max), got: Shown(v), unit }));
    }
    Ok(v)
}

/// Checks `min <= v <= max` for a count.
pub(crate) fn count_in(field: Field, v: i64, min: i64, max: i64) -> Result<u32, ScenarioError> {
    count(field, v, min, max)
}

pub(super) fn count(field: Field, v: i64, min: i64, max: i64) -> Result<u32, ScenarioError> {
    if v < min {
        return Err(err(field, Reason::TooSmall { min: Shown(min as f64), got: Shown(v as f64), unit: "" }));
    }
    if v > max {
        return Err(err(field, Reason::TooLarge { max: Shown(max as f64), got: Shown(v as f64), unit: "" }));
    }
    // The range check above keeps v within u32.
    Ok(u32::try_from(v).unwrap_or(u32::MAX))
}
