//! Comparisons and sweeps as pure functions: the page's charts and the CLI's tables draw these.

use serde::Serialize;

pub use crate::batch::{BatchRule, WorkCompared, on_nodes};
use crate::estimate::{Estimate, estimate};
use crate::scenario::{Scenario, ScenarioError};
use crate::step::estimate_step;
use crate::units::Seconds;

/// Scenario A against scenario B.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Scenario A.
    pub a: Estimate,
    /// Scenario B.
    pub b: Estimate,
    /// B's step time over A's (below 1: B is faster).
    pub step_ratio_b_over_a: f64,
    /// B's step time minus A's.
    pub step_delta_s: f64,
    /// B's lower bound over A's.
    pub lower_bound_ratio_b_over_a: f64,
    /// B's reference lower bound (ring factor 2) over A's.
    pub reference_lower_bound_ratio_b_over_a: f64,
}

fn ratio(b: Seconds, a: Seconds) -> f64 {
    if a.as_secs() > 0.0 {
        b.as_secs() / a.as_secs()
    } else if b.as_secs() > 0.0 {
        f64::MAX
    } else {
        1.0
    }
}

/// What makes two scenarios' jobs unequal work, in words: the model (its shape and parameter count), the gradients'
/// type, and the work of a step (its tokens, or the compute given). Two steps are compared only when this is empty;
/// the layout, the node count and the hardware may differ, being what a comparison is for.
pub fn job_differences(a: &Scenario, b: &Scenario) -> Vec<&'static str> {
    use crate::scenario::ComputeInput;
    let (ia, ib) = (a.input(), b.input());
    let same = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs());
    let mut d = Vec::new();
    if a.shape().key != b.shape().key || !same(ia.params, ib.params) {
        d.push("the model");
    }
    if ia.dtype != ib.dtype {
        d.push("the gradients' type");
    }
    match (ia.compute, ib.compute) {
        (ComputeInput::Tokens { tokens_per_step: x, .. }, ComputeInput::Tokens { tokens_per_step: y, .. }) => {
            if !same(x, y) {
                d.push("the tokens per step");
            }
        }
        (ComputeInput::Given { ms: x }, ComputeInput::Given { ms: y }) if same(x, y) => {}
        _ => d.push("the compute"),
    }
    d
}

/// Compares two scenarios.
pub fn compare(a: &Scenario, b: &Scenario) -> Comparison {
    compare_estimates(estimate(a), estimate(b))
}

/// Compares two estimates already made.
pub fn compare_estimates(a: Estimate, b: Estimate) -> Comparison {
    Comparison {
        step_ratio_b_over_a: ratio(b.step.step_s, a.step.step_s),
        step_delta_s: b.step.step_s.as_secs() - a.step.step_s.as_secs(),
        lower_bound_ratio_b_over_a: ratio(b.step.lower_bound_s, a.step.lower_bound_s),
        reference_lower_bound_ratio_b_over_a: ratio(b.reference_lower_bound.time_s, a.reference_lower_bound.time_s),
        a,
        b,
    }
}

/// One point of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The swept value (nodes, or Gb/s).
    pub x: f64,
    /// Step time.
    pub step_s: Seconds,
    /// Compute time.
    pub compute_s: Seconds,
    /// Communication hidden behind compute.
    pub hidden_comm_s: Seconds,
    /// Exposed communication.
    pub exposed_comm_s: Seconds,
    /// The pipeline bubble.
    pub bubble_s: Seconds,
    /// The wait for the slowest rank (step = compute + exposed + bubble + wait).
    pub rank_wait_s: Seconds,
    /// Compute / step.
    pub scaling_efficiency: f64,
    /// The lower bound.
    pub lower_bound_s: Seconds,
}

fn point(x: f64, s: &Scenario) -> SweepPoint {
    let e = estimate_step(s);
    SweepPoint {
        x,
        step_s: e.step_s,
        compute_s: e.compute_s,
        hidden_comm_s: e.hidden_comm_s,
        exposed_comm_s: e.exposed_comm_s,
        bubble_s: e.bubble_s,
        rank_wait_s: e.rank_wait_s,
        scaling_efficiency: e.scaling_efficiency,
        lower_bound_s: e.lower_bound_s,
    }
}

/// Step time against the number of nodes (everything else as in `s`). A node count the model rejects is an error
/// naming `nodes`; one where the scenario's parallel layout does not fit (tensor x pipeline parallelism over more
/// GPUs than the nodes have, a shard group that does not divide them) is left out. Going from one node to several
/// needs adapters: a one-node scenario with none gets one.
pub fn sweep_nodes(s: &Scenario, nodes: &[u32]) -> Result<Vec<SweepPoint>, ScenarioError> {
    sweep_nodes_as(s, nodes, BatchRule::KeepGlobal)
}

/// [`sweep_nodes`] with the global batch following `rule`.
pub fn sweep_nodes_as(s: &Scenario, nodes: &[u32], rule: BatchRule) -> Result<Vec<SweepPoint>, ScenarioError> {
    let mut points = Vec::with_capacity(nodes.len());
    for &n in nodes {
        match on_nodes(s, n, rule) {
            Ok(v) => points.push(point(f64::from(n), &v)),
            // A layout that does not fit the count, or the same global batch past the model's limits there (a
            // compute over a day on few GPUs): the point is left out.
            Err(e) if crate::layout::is_layout_field(e.field) || e.field == crate::scenario::Field::ComputeMs => {}
            Err(e) => return Err(e),
        }
    }
    Ok(points)
}

/// Step time against the line rate per adapter, Gb/s.
pub fn sweep_line_rate(s: &Scenario, gbps: &[f64]) -> Result<Vec<SweepPoint>, ScenarioError> {
    gbps.iter()
        .map(|&r| {
            let v = s.with(|i| i.link_gbps = r)?;
            Ok(point(r, &v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ScenarioInput;

    #[test]
    fn four_hundred_beats_twenty_five() {
        let a = Scenario::new(ScenarioInput { link_gbps: 25.0, ..ScenarioInput::default() }).expect("valid");
        let b = Scenario::new(ScenarioInput::default()).expect("valid");
        let c = compare(&a, &b);
        assert!(c.step_ratio_b_over_a < 1.0);
        assert!((c.lower_bound_ratio_b_over_a - 25.0 / 400.0).abs() < 1e-12);
        assert!((c.reference_lower_bound_ratio_b_over_a - 25.0 / 400.0).abs() < 1e-12);
    }

    #[test]
    fn jobs_differ_in_model_gradients_and_work_only() {
        let a = Scenario::new(ScenarioInput::default()).expect("valid");
        let b = a.with(|i| {
            i.link_gbps = 25.0;
            i.nodes = 4;
            i.sync = crate::scenario::SyncStrategy::Zero1;
        });
        assert!(job_differences(&a, &b.expect("valid")).is_empty(), "hardware, nodes and layout may differ");
        let b = a.with(|i| i.params = 70e9).expect("valid");
        assert_eq!(job_differences(&a, &b), ["the model"]);
        let b = a.with(|i| i.compute = crate::scenario::ComputeInput::Given { ms: 1200.0 }).expect("valid");
        assert_eq!(job_differences(&a, &b), ["the compute"]);
        let b = a
            .with(|i| {
                i.dtype = crate::scenario::GradDtype::Fp32;
                i.compute = crate::scenario::ComputeInput::Tokens { tokens_per_step: 1e6, mfu: 0.4 };
            })
            .expect("valid");
        assert_eq!(job_differences(&a, &b), ["the gradients' type", "the tokens per step"]);
    }

    #[test]
    fn sweeps_follow_their_axis() {
        let s = Scenario::new(ScenarioInput::default()).expect("valid");
        let pts = sweep_nodes(&s, &[1, 2, 4, 8]).expect("valid nodes");
        assert_eq!(pts.iter().map(|p| p.x).collect::<Vec<_>>(), [1.0, 2.0, 4.0, 8.0]);
        assert!(sweep_nodes(&s, &[0]).is_err());
        // Tensor parallelism over 16 GPUs does not fit one node of 8: that point is left out, not an error.
        let tp = s.with(|i| i.tp = 16).expect("valid on 2 nodes");
        let pts = sweep_nodes(&tp, &[1, 2, 4]).expect("the layout fits 2 and 4 nodes");
        assert_eq!(pts.iter().map(|p| p.x).collect::<Vec<_>>(), [2.0, 4.0]);
        for p in sweep_nodes(&s, &[1, 2, 16, 128]).expect("valid nodes") {
            let parts = p.compute_s + p.exposed_comm_s + p.bubble_s + p.rank_wait_s;
            assert!((parts.as_secs() - p.step_s.as_secs()).abs() < 1e-9, "{} nodes: the parts add up", p.x);
        }
        // The same global batch over a day of compute on one node: that point is left out, not an error.
        let long = s.with(|i| i.compute = crate::scenario::ComputeInput::Given { ms: 1e7 }).expect("valid");
        let l = long.with(|i| i.nodes = 16).expect("valid");
        let pts = sweep_nodes(&l, &[1, 2, 16]).expect("the counts it can run");
        assert_eq!(pts.iter().map(|p| p.x).collect::<Vec<_>>(), [2.0, 16.0]);
        let rates = sweep_line_rate(&s, &[25.0, 100.0, 400.0]).expect("valid rates");
        assert!(rates.windows(2).all(|w| w[1].step_s <= w[0].step_s));
    }
}
