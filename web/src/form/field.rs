//! The form's inputs: each field's URL key and element id, and the model field an error maps back to.

use estimator_core::Field;

/// Each input of the form. The key names the field in the URL (`a.link=25`) and in element ids (`a-link`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FormField {
    Params,
    Dtype,
    Sync,
    Gpu,
    GpusPerNode,
    Nodes,
    Adapters,
    Link,
    Fabric,
    Gdr,
    Overlap,
    Compute,
    ComputeMs,
    Tokens,
    Mfu,
    Accum,
    Efficiency,
    Latency,
    Busbw,
    Model,
    Tp,
    Pp,
    Ep,
    Etp,
    MicroBatches,
    SeqLen,
    MicroBatchSize,
    Checkpointing,
    GradOverlap,
    ParamOverlap,
    Domain,
}

impl FormField {
    /// Every field, in form order.
    pub const ALL: [FormField; 31] = [
        FormField::Params,
        FormField::Dtype,
        FormField::Sync,
        FormField::Gpu,
        FormField::GpusPerNode,
        FormField::Nodes,
        FormField::Adapters,
        FormField::Link,
        FormField::Fabric,
        FormField::Gdr,
        FormField::Overlap,
        FormField::Compute,
        FormField::ComputeMs,
        FormField::Tokens,
        FormField::Mfu,
        FormField::Accum,
        FormField::Efficiency,
        FormField::Latency,
        FormField::Busbw,
        FormField::Model,
        FormField::Tp,
        FormField::Pp,
        FormField::Ep,
        FormField::Etp,
        FormField::MicroBatches,
        FormField::SeqLen,
        FormField::MicroBatchSize,
        FormField::Checkpointing,
        FormField::GradOverlap,
        FormField::ParamOverlap,
        FormField::Domain,
    ];

    /// The URL key and id suffix.
    pub fn key(self) -> &'static str {
        match self {
            FormField::Params => "params",
            FormField::Dtype => "dtype",
            FormField::Sync => "sync",
            FormField::Gpu => "gpu",
            FormField::GpusPerNode => "gpus",
            FormField::Nodes => "nodes",
            FormField::Adapters => "adapters",
            FormField::Link => "link",
            FormField::Fabric => "fabric",
            FormField::Gdr => "gdr",
            FormField::Overlap => "overlap",
            FormField::Compute => "compute",
            FormField::ComputeMs => "compute_ms",
            FormField::Tokens => "tokens",
            FormField::Mfu => "mfu",
            FormField::Accum => "accum",
            FormField::Efficiency => "efficiency",
            FormField::Latency => "latency_us",
            FormField::Busbw => "busbw",
            FormField::Model => "model",
            FormField::Tp => "tp",
            FormField::Pp => "pp",
            FormField::Ep => "ep",
            FormField::Etp => "etp",
            FormField::MicroBatches => "micro_batches",
            FormField::SeqLen => "seq_len",
            FormField::MicroBatchSize => "mbs",
            FormField::Checkpointing => "ckpt",
            FormField::GradOverlap => "grad_overlap",
            FormField::ParamOverlap => "param_overlap",
            FormField::Domain => "domain",
        }
    }

    /// The field of the model's error.
    pub fn from_model(field: Field) -> Option<FormField> {
        Some(match field {
            Field::Params => FormField::Params,
            Field::GradAccumSteps => FormField::Accum,
            Field::ComputeMs => FormField::ComputeMs,
            Field::TokensPerStep => FormField::Tokens,
            Field::Mfu => FormField::Mfu,
            Field::Nodes => FormField::Nodes,
            Field::GpusPerNode => FormField::GpusPerNode,
            Field::AdaptersPerNode => FormField::Adapters,
            Field::LinkGbps => FormField::Link,
            Field::Overlap => FormField::Overlap,
            Field::LinkEfficiency => FormField::Efficiency,
            Field::LatencyUs => FormField::Latency,
            Field::MeasuredBusbwGbs => FormField::Busbw,
            Field::Model => FormField::Model,
            Field::Tp => FormField::Tp,
            Field::Pp => FormField::Pp,
            Field::Ep => FormField::Ep,
            Field::Etp => FormField::Etp,
            Field::MicroBatches => FormField::MicroBatches,
            Field::SeqLen => FormField::SeqLen,
            Field::MicroBatchSize => FormField::MicroBatchSize,
            Field::NvlinkDomainGpus => FormField::Domain,
            // Not on the form.
            Field::BucketBytes
            | Field::ActivationBytesPerGpu
            | Field::RingFactor
            | Field::TargetExposedShare
            | Field::ShardGroup
            | Field::Bytes
            // The run check's own fields, which its section reads.
            | Field::MeasuredStepS
            | Field::MeasuredTokensPerS
            | Field::MeasuredSamplesPerS
            | Field::SamplesPerStep
            // The rental plan's, which its section reads.
            | Field::Tokens
            | Field::DeadlineS
            | Field::MaxNodes
            | Field::Price
            | Field::Offer => return None,
        })
    }
}
