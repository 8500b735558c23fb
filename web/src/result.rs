//! What the page shows for one scenario, computed once per change: the scenario and its whole estimate.

use estimator_core::{Estimate, Scenario, estimate};

/// Everything the page shows for one scenario (the nodes chart is drawn by the report worker,
/// [`crate::chart::nodes_figure`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SideResult {
    /// The scenario.
    pub scenario: Scenario,
    /// Step, reference lower bound, memory, recommendation.
    pub estimate: Estimate,
}

impl SideResult {
    /// Computes everything for a scenario.
    pub fn new(s: &Scenario) -> SideResult {
        SideResult { scenario: s.clone(), estimate: estimate(s) }
    }
}
