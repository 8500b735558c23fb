//! The whole answer for one scenario: step, memory, recommendation and warnings in one document.

use serde::Serialize;

use crate::catalog::IntraNodeLink;
use crate::memory::{MemoryFit, memory_fit};
use crate::recommend::{Recommendation, recommend_with};
use crate::scenario::Scenario;
use crate::step::{StepEstimate, estimate_step};

/// Which GPU the estimate used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuUsed {
    /// Catalog key (`generic` when the name was unknown).
    pub key: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Whether the name given was recognised.
    pub known: bool,
    /// Intra-node link used.
    pub intra_node: IntraNodeLink,
}

/// One scenario's estimate. Serialises flat: the step's keys at the top, then `memory`, `recommendation`,
/// `gpu`, `warnings`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The step.
    #[serde(flatten)]
    pub step: StepEstimate,
    /// Memory fit.
    pub memory: MemoryFit,
    /// Single-node or multi-node, and the fabric.
    pub recommendation: Recommendation,
    /// The GPU used.
    pub gpu: GpuUsed,
    /// How the inputs were read (unknown GPU, and so on).
    pub warnings: Vec<String>,
}

/// Estimates a scenario.
pub fn estimate(s: &Scenario) -> Estimate {
    let step = estimate_step(s);
    let memory = memory_fit(s);
    let recommendation = recommend_with(s, &step, &memory);
    Estimate {
        step,
        memory,
        recommendation,
        gpu: GpuUsed { key: s.gpu().key, name: s.gpu().name, known: s.gpu_known(), intra_node: s.intra_node().link },
        warnings: s.warnings().to_vec(),
    }
}
