//! The step's range ([`estimator_core::accuracy`]) against the runs: the pooled spread of measured over predicted
//! step out of source is what the core ships; each run's range is scored out of source too (the spread of the
//! *other* sources' runs), and so are the per-regime ranges the pooled one was chosen against.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use estimator_core::accuracy::range_of;
use estimator_core::terms::Terms;

use super::replay::StepReplay;
use super::table::later_steps;
use super::{Run, table};

/// A range within this share of the point either way is narrow enough to answer (the issue's +-25%).
pub const NARROW: f64 = 0.25;

/// A regime pool with fewer runs than this falls back to every run.
pub const MIN_POOL: usize = 10;

/// Measured over out-of-source predicted step.
pub fn ratio(r: &StepReplay) -> f64 {
    r.run.measured_step_s / r.out_of_source.step_s
}

/// The range of a set of ratios, holding 1 (the point) as the core's does.
fn bounds(ratios: &[f64]) -> Option<(f64, f64)> {
    range_of(ratios).map(|(lo, hi)| (lo.min(1.0), hi.max(1.0)))
}

/// The shipped range: every run's ratio pooled.
pub fn pooled(replays: &[StepReplay]) -> Option<(f64, f64)> {
    range_of(&replays.iter().map(ratio).collect::<Vec<_>>())
}

/// A way of splitting the runs into regimes, each with its own range.
pub struct Pooling {
    /// Its name.
    pub name: &'static str,
    /// A run's regime.
    pub key: fn(&StepReplay) -> String,
}

/// The pooled range first, then the regimes it was chosen against.
pub const POOLINGS: [Pooling; 5] = [
    Pooling { name: "one pool (shipped)", key: |_| String::new() },
    Pooling { name: "by fabric class (RDMA or TCP)", key: |r| r.run.input.fabric.is_rdma().to_string() },
    Pooling { name: "by layout family", key: |r| table::regimes(r)[1].1.clone() },
    Pooling { name: "by node count (2, 3-8, 9+)", key: |r| nodes_band(r.scenario.nodes()).to_string() },
    Pooling { name: "by communication share of the step (<5%, 5-20%, >20%)", key: comm_band },
];

fn nodes_band(n: u32) -> &'static str {
    match n {
        0..=2 => "2",
        3..=8 => "3-8",
        _ => "9+",
    }
}

fn comm_band(r: &StepReplay) -> String {
    let share = r.out_of_source.comm_s / r.out_of_source.step_s;
    if share < 0.05 {
        "<5%".into()
    } else if share < 0.2 {
        "5-20%".into()
    } else {
        ">20%".into()
    }
}

/// A run's range out of source under `p`: the spread of the runs of the same regime from other sources (every
/// other source's run when the regime has fewer than [`MIN_POOL`]), as ratios of its predicted step.
pub fn out_of_source_range(r: &StepReplay, replays: &[StepReplay], p: &Pooling) -> Option<(f64, f64)> {
    let others: Vec<&StepReplay> = replays.iter().filter(|o| o.run.source_key() != r.run.source_key()).collect();
    let own = (p.key)(r);
    let same: Vec<f64> = others.iter().filter(|o| (p.key)(o) == own).map(|o| ratio(o)).collect();
    if same.len() >= MIN_POOL { bounds(&same) } else { bounds(&others.iter().map(|o| ratio(o)).collect::<Vec<_>>()) }
}

/// How a range does on a set of runs: (holding the measured step, narrow, scored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Runs whose measured step is inside their range.
    pub inside: usize,
    /// Runs whose range is within [`NARROW`] of the point either way.
    pub narrow: usize,
    /// Runs scored.
    pub runs: usize,
}

impl Coverage {
    fn add(&mut self, ratio: f64, (lo, hi): (f64, f64)) {
        self.runs += 1;
        self.inside += usize::from((lo..=hi).contains(&ratio));
        self.narrow += usize::from(hi - 1.0 <= NARROW + 1e-12 && 1.0 - lo <= NARROW + 1e-12);
    }

    fn cell(count: usize, runs: usize) -> String {
        format!("{count} of {runs} ({:.0}%)", count as f64 * 100.0 / runs.max(1) as f64)
    }
}

/// Every run's range out of source under `p`.
pub fn out_of_source_coverage(replays: &[StepReplay], p: &Pooling) -> Result<Coverage, String> {
    let mut c = Coverage { inside: 0, narrow: 0, runs: 0 };
    for r in replays {
        let b = out_of_source_range(r, replays, p).ok_or_else(|| format!("{}: no range", r.run.id))?;
        c.add(ratio(r), b);
    }
    Ok(c)
}

/// The runs collected after the terms, as shipped, with the range as shipped.
pub fn later_coverage(later: &[Run]) -> Result<Coverage, String> {
    use estimator_core::accuracy::{STEP_RANGE_HIGH, STEP_RANGE_LOW};
    let mut c = Coverage { inside: 0, narrow: 0, runs: 0 };
    for (r, (step, _)) in later.iter().zip(later_steps(later, Terms::SHIPPED)?) {
        c.add(r.measured_step_s / step, (STEP_RANGE_LOW.min(1.0), STEP_RANGE_HIGH.max(1.0)));
    }
    Ok(c)
}

/// The README's table of the range: each pooling out of source, the shipped one on the later runs.
pub fn markdown(replays: &[StepReplay], later: &[Run]) -> Result<String, String> {
    let (lo, hi) = pooled(replays).ok_or("no runs")?;
    let sources: BTreeSet<String> = replays.iter().map(|r| r.run.source_key()).collect();
    let mut t = format!(
        "**The step's range.** The 5th to 95th percentile of measured over predicted step, out of source, of the \
         {} runs ({} sources): {:.3} to {:.3} of the point (`estimator-core/src/accuracy.rs` ships it rounded \
         outwards). Scored out of source, each run's range is the spread of the other sources' runs:\n\n\
         | range taken | holds the measured step | within ±{:.0}% of the point |\n|---|---|---|\n",
        replays.len(),
        sources.len(),
        lo,
        hi,
        NARROW * 100.0
    );
    for p in &POOLINGS {
        let c = out_of_source_coverage(replays, p)?;
        let _ = writeln!(
            t,
            "| {}, out of source | {} | {} |",
            p.name,
            Coverage::cell(c.inside, c.runs),
            Coverage::cell(c.narrow, c.runs)
        );
    }
    let c = later_coverage(later)?;
    let _ = writeln!(
        t,
        "| as shipped, on the {} runs collected after the terms | {} | {} |",
        later.len(),
        Coverage::cell(c.inside, c.runs),
        Coverage::cell(c.narrow, c.runs)
    );
    Ok(t)
}
