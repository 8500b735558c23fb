//! The runs at scale (`tests/data/steps/scale/`): weak-scaling tables collected after issue 40's terms were set,
//! scored with the model as shipped and fitted on nothing.
//!
//! A table whose smallest scale is already several nodes carries that scale as its anchor (`anchor_nodes`): its
//! compute is the one that makes the model's step there equal the measured step (the model's communication at
//! the anchor is charged to the anchor, not to the compute), and every other row of the table runs that compute
//! scaled by its own over the anchor's (equal per-GPU work: the same). A table with a single-node row gives that
//! row's step as the compute, as the other replays do. The figure such a table checks is the step's growth from
//! its anchor: measured against the model's, in points. Beside the model, the baseline with no network at all
//! (the step is the compute): its growth is zero.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use estimator_core::terms::Terms;
use estimator_core::{ComputeInput, Scenario, estimate_step};

use super::Run;

/// `tests/data/steps/scale/runs.json`.
pub fn scale_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/steps/scale/runs.json")
}

/// One run of a table at scale, predicted as shipped.
#[derive(Clone, Debug)]
pub struct ScaleReplay {
    /// The run.
    pub run: Run,
    /// The compute given to the model, seconds (solved at the anchor where the table has one).
    pub compute_s: f64,
    /// The model's step, seconds.
    pub step_s: f64,
    /// The measured step of the table's anchor (its single-node row's where it has one), seconds.
    pub anchor_measured_s: f64,
    /// The model's step at the anchor, seconds (the compute where the anchor is one node).
    pub anchor_step_s: f64,
    /// Whether the run is its table's anchor (its step is the measured one by construction: not scored).
    pub is_anchor: bool,
    /// Whether its table could be anchored: `false` where the model's step at the anchor is longer than the
    /// measured one at every compute (its communication alone is longer). Such a table is run with no compute,
    /// shown, and kept out of the figures, which it would flatter (no compute, no wait, a growth of the
    /// communication's alone).
    pub anchored: bool,
}

impl ScaleReplay {
    /// Predicted over measured step, less one.
    pub fn step_error(&self) -> f64 {
        self.step_s / self.run.measured_step_s - 1.0
    }

    /// The measured growth of the step from the anchor.
    pub fn measured_growth(&self) -> f64 {
        self.run.measured_step_s / self.anchor_measured_s - 1.0
    }

    /// The model's growth of the step from the anchor.
    pub fn predicted_growth(&self) -> f64 {
        self.step_s / self.anchor_step_s - 1.0
    }

    /// The time the run adds over its compute, measured: the step less the anchor's (scaled to the run's compute).
    pub fn measured_added_s(&self) -> f64 {
        self.run.measured_step_s - self.anchor_measured_s * self.compute_ratio()
    }

    /// The time the model adds over the anchor's step, likewise.
    pub fn predicted_added_s(&self) -> f64 {
        self.step_s - self.anchor_step_s * self.compute_ratio()
    }

    fn compute_ratio(&self) -> f64 {
        match self.run.input.compute {
            ComputeInput::Given { ms } => ms / 1000.0 / self.run.baseline_step_s,
            ComputeInput::Tokens { .. } => 1.0,
        }
    }
}

fn step_with(run: &Run, compute_ms: f64, terms: Terms) -> Result<(f64, f64), String> {
    let mut input = run.input.clone();
    input.compute = ComputeInput::Given { ms: compute_ms };
    let s = Scenario::new(input).map_err(|e| format!("{}: {e}", run.id))?.with_terms(terms);
    let e = estimate_step(&s);
    Ok((e.step_s.as_secs(), e.compute_s.as_secs()))
}

/// The compute, ms, at which the model's step of `anchor` is its measured step: the least such, found by a scan
/// (more compute hides more communication, so the step need not grow with it) and bisection inside the first
/// interval that crosses; `None` where the model's step is longer than the measured one at every compute.
fn anchor_compute_ms(anchor: &Run, terms: Terms) -> Result<Option<f64>, String> {
    let target = anchor.measured_step_s;
    const SCAN: usize = 200;
    let at = |k: usize| target * 1000.0 * k as f64 / SCAN as f64;
    if step_with(anchor, 0.0, terms)?.0 >= target {
        // Longer at no compute: any crossing is a compute at which the step comes back down to the measured one.
        let mut below = None;
        for k in 1..=SCAN {
            if step_with(anchor, at(k), terms)?.0 < target {
                below = Some(k);
                break;
            }
        }
        let Some(k) = below else { return Ok(None) };
        return Ok(Some(at(k)));
    }
    let (mut lo, mut hi) = (0.0, target * 1000.0);
    for k in 1..=SCAN {
        if step_with(anchor, at(k), terms)?.0 >= target {
            (lo, hi) = (at(k - 1), at(k));
            break;
        }
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if step_with(anchor, mid, terms)?.0 < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(Some(0.5 * (lo + hi)))
}

/// Every run of `runs` predicted with `terms`.
pub fn replay_scale(runs: &[Run], terms: Terms) -> Result<Vec<ScaleReplay>, String> {
    let mut anchors: BTreeMap<String, (f64, f64, f64, bool)> = BTreeMap::new();
    let mut out = Vec::with_capacity(runs.len());
    for run in runs {
        let given_ms = match run.input.compute {
            ComputeInput::Given { ms } => ms,
            ComputeInput::Tokens { .. } => return Err(format!("{}: a scale run gives its compute in ms", run.id)),
        };
        let Some(anchor_nodes) = run.anchor_nodes else {
            let (step, compute) = step_with(run, given_ms, terms)?;
            out.push(ScaleReplay {
                run: run.clone(),
                compute_s: compute,
                step_s: step,
                anchor_measured_s: run.baseline_step_s,
                anchor_step_s: run.baseline_step_s,
                is_anchor: false,
                anchored: true,
            });
            continue;
        };
        let series = run.series.clone().ok_or_else(|| format!("{}: anchored but no series", run.id))?;
        if !anchors.contains_key(&series) {
            let anchor = runs
                .iter()
                .find(|r| r.series.as_deref() == Some(&series) && r.input.nodes == i64::from(anchor_nodes))
                .ok_or_else(|| format!("{series}: no row at its anchor's {anchor_nodes} nodes"))?;
            let anchor_ms = match anchor.input.compute {
                ComputeInput::Given { ms } => ms,
                ComputeInput::Tokens { .. } => return Err(format!("{}: the anchor gives no compute", anchor.id)),
            };
            let solved = anchor_compute_ms(anchor, terms)?;
            let (step, _) = step_with(anchor, solved.unwrap_or(0.0), terms)?;
            anchors.insert(
                series.clone(),
                (solved.unwrap_or(0.0) / anchor_ms, anchor.measured_step_s, step, solved.is_some()),
            );
        }
        let (scale, anchor_measured, anchor_step, anchored) = anchors[&series];
        let (step, compute) = step_with(run, given_ms * scale, terms)?;
        out.push(ScaleReplay {
            run: run.clone(),
            compute_s: compute,
            step_s: step,
            anchor_measured_s: anchor_measured,
            anchor_step_s: anchor_step,
            is_anchor: run.input.nodes == i64::from(anchor_nodes),
            anchored,
        });
    }
    Ok(out)
}

/// The figures the targets are on, over the runs that are not their table's anchor, in tables that could
/// be anchored.
#[derive(Clone, Copy, Debug)]
pub struct ScaleFigures {
    /// Runs scored (anchors left out).
    pub runs: usize,
    /// Median and largest |step error|.
    pub step_median: f64,
    /// Largest |step error|.
    pub step_max: f64,
    /// Runs whose predicted growth is within 5 points of the measured.
    pub growth_within: usize,
    /// Runs whose added time is above their noise, and of those the ones the model has within 1.5x.
    pub added_scored: usize,
    /// Of `added_scored`, within 1.5x.
    pub added_within: usize,
}

/// The figures of a replay.
pub fn figures(replays: &[ScaleReplay]) -> Option<ScaleFigures> {
    let scored: Vec<&ScaleReplay> = replays.iter().filter(|r| !r.is_anchor && r.anchored).collect();
    let steps = crate::calibration::Spread::of(scored.iter().map(|r| r.step_error()))?;
    let growth_within = scored.iter().filter(|r| (r.predicted_growth() - r.measured_growth()).abs() <= 0.05).count();
    let above: Vec<&&ScaleReplay> = scored.iter().filter(|r| r.measured_added_s() >= r.run.noise_s).collect();
    let within = above
        .iter()
        .filter(|r| {
            super::replay::within_factor(r.predicted_added_s(), r.measured_added_s(), super::table::ADDED_FACTOR)
        })
        .count();
    Some(ScaleFigures {
        runs: steps.n,
        step_median: steps.median,
        step_max: steps.max,
        growth_within,
        added_scored: above.len(),
        added_within: within,
    })
}

/// The README's table: the figures, then every run with its growth measured and predicted.
pub fn markdown(replays: &[ScaleReplay]) -> Result<String, String> {
    let f = figures(replays).ok_or("no scored runs")?;
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    let tables: std::collections::BTreeSet<&str> = replays.iter().filter_map(|r| r.run.series.as_deref()).collect();
    let unanchored: std::collections::BTreeSet<&str> =
        replays.iter().filter(|r| !r.anchored).filter_map(|r| r.run.series.as_deref()).collect();
    let mut t = format!(
        "{} runs in {} tables (their anchors, and the {} tables the model cannot anchor, left out of the figures), \
         scored with the model as it is now, fitted on nothing: step {} at the median, {} at most; the step's \
         growth from the anchor within 5 points on {} of {}; the added time within 1.5x on {} of the {} above \
         their noise. With no network at all (the step is the compute) the growth is 0: within 5 points on {} of \
         {}. Not anchored (the model's communication alone is longer than the measured step at the anchor, so its \
         rows run with no compute): {}.\n\n\
         | run | GPUs | step measured | model | error | growth measured | model | no network |\n\
         |---|---|---|---|---|---|---|---|\n",
        f.runs,
        tables.len(),
        unanchored.len(),
        pct(f.step_median),
        pct(f.step_max),
        f.growth_within,
        f.runs,
        f.added_within,
        f.added_scored,
        replays.iter().filter(|r| !r.is_anchor && r.anchored && r.measured_growth().abs() <= 0.05).count(),
        f.runs,
        if unanchored.is_empty() { "none".to_string() } else { unanchored.into_iter().collect::<Vec<_>>().join(", ") },
    );
    for r in replays {
        let i = &r.run.input;
        let gpus = i.nodes * i.gpus_per_node;
        let anchor = match (r.is_anchor, r.anchored) {
            (true, true) => " (anchor)",
            (true, false) => " (anchor, not anchored)",
            (false, false) => " (not anchored)",
            (false, true) => "",
        };
        let _ = writeln!(
            t,
            "| {}{anchor} | {gpus} | {:.3} s | {:.3} s | {:+.1}% | {:+.1}% | {:+.1}% | {:+.1}% |",
            r.run.id,
            r.run.measured_step_s,
            r.step_s,
            r.step_error() * 100.0,
            r.measured_growth() * 100.0,
            r.predicted_growth() * 100.0,
            -r.measured_growth() / (1.0 + r.measured_growth()) * 100.0,
        );
    }
    Ok(t)
}
