//! What the page shows for one scenario, computed once per change: the scenario and its estimate.

use estimator_core::{Estimate, Scenario, estimate_brief};

/// Everything the page shows for one scenario (the nodes chart, the traffic table and the layout advice are drawn
/// by the details worker: [`crate::chart::nodes_figure`], [`crate::render::details`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SideResult {
    /// The scenario.
    pub scenario: Scenario,
    /// Step, reference lower bound, memory, recommendation (without the layout advice, the worker's).
    pub estimate: Estimate,
}

impl SideResult {
    /// Computes everything for a scenario.
    pub fn new(s: &Scenario) -> SideResult {
        SideResult { scenario: s.clone(), estimate: estimate_brief(s) }
    }
}
