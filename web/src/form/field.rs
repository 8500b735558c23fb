//! The form's inputs: each field's URL key and element id, and the model field an error maps back to.

use estimator_core::Field;
use estimator_core::scenario::inputs::{self, Input};

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

    /// The scenario input this field edits, in the core's table of inputs
    /// ([`estimator_core::scenario::inputs`]), which gives its URL key, its reader and whether it is hardware.
    pub fn field(self) -> Field {
        match self {
            FormField::Params => Field::Params,
            FormField::Dtype => Field::Dtype,
            FormField::Sync => Field::Sync,
            FormField::Gpu => Field::Gpu,
            FormField::GpusPerNode => Field::GpusPerNode,
            FormField::Nodes => Field::Nodes,
            FormField::Adapters => Field::AdaptersPerNode,
            FormField::Link => Field::LinkGbps,
            FormField::Fabric => Field::Fabric,
            FormField::Gdr => Field::Gdr,
            FormField::Overlap => Field::Overlap,
            FormField::Compute => Field::Compute,
            FormField::ComputeMs => Field::ComputeMs,
            FormField::Tokens => Field::TokensPerStep,
            FormField::Mfu => Field::Mfu,
            FormField::Accum => Field::GradAccumSteps,
            FormField::Efficiency => Field::LinkEfficiency,
            FormField::Latency => Field::LatencyUs,
            FormField::Busbw => Field::MeasuredBusbwGbs,
            FormField::Model => Field::Model,
            FormField::Tp => Field::Tp,
            FormField::Pp => Field::Pp,
            FormField::Ep => Field::Ep,
            FormField::Etp => Field::Etp,
            FormField::MicroBatches => Field::MicroBatches,
            FormField::SeqLen => Field::SeqLen,
            FormField::MicroBatchSize => Field::MicroBatchSize,
            FormField::Checkpointing => Field::ActivationCheckpointing,
            FormField::GradOverlap => Field::OverlapGradReduce,
            FormField::ParamOverlap => Field::OverlapParamGather,
            FormField::Domain => Field::NvlinkDomainGpus,
        }
    }

    /// Its entry in the core's table of inputs.
    pub fn input(self) -> &'static Input {
        // Every field above is a scenario input: a test holds each to its entry.
        inputs::input(self.field()).unwrap_or(&inputs::INPUTS[0])
    }

    /// The URL key and id suffix: the table's.
    pub fn key(self) -> &'static str {
        self.input().url.get().unwrap_or("")
    }

    /// Whether the field describes the hardware (or node count) a measured bus bandwidth was measured on: the
    /// table's role.
    pub fn is_hardware(self) -> bool {
        self.input().role.measured_on()
    }

    /// The form field of a model error's field, when the form has one.
    pub fn from_model(field: Field) -> Option<FormField> {
        FormField::ALL.into_iter().find(|f| f.field() == field)
    }
}
