//! Each run predicted in sample and out of source, with the baselines beside it and its error split in two.
//!
//! **The split.** Where the run names a measured nccl-tests curve of its hardware ([`super::CurveRef`]), the
//! model's collectives are checked on their own: for every network call of the curve's collective, the model's
//! time is scaled by measured over model on the curve's hardware at that call's size (log-log between the
//! curve's rows, its end rows' ratio beyond them), and the same schedule runs again on the corrected times, the
//! step's other parts (the bubble, the wait for the slowest rank) as they were. The difference between the
//! model's added time and the corrected one is the collectives' part of the error; what is left between the
//! corrected added time and the measured one is the overlap's (the schedule, and everything the model does not
//! have: compute slowed beside NCCL, stragglers beyond the fitted wait). The two add up to the whole added-time
//! error.

use estimator_core::collective::{Op, collective};
use estimator_core::schedule::schedule;
use estimator_core::step::forward_share;
use estimator_core::terms::Terms;
use estimator_core::traffic::{Tier, traffic};
use estimator_core::{Bytes, Scenario, estimate_step};

use super::super::calibration_path;
use super::super::curves::{Table, curves_path, load_tables};
use super::fold::BASELINE;
use super::{Run, all_runs, out_of_source_terms};

/// What one model predicts for a run.
#[derive(Clone, Copy, Debug)]
pub struct Prediction {
    /// The terms it ran with.
    pub terms: Terms,
    /// The step, seconds.
    pub step_s: f64,
    /// The compute it was given, seconds.
    pub compute_s: f64,
    /// All communication, seconds.
    pub comm_s: f64,
}

impl Prediction {
    fn of(s: &Scenario, terms: Terms) -> Prediction {
        let e = estimate_step(&s.clone().with_terms(terms));
        Prediction { terms, step_s: e.step_s.as_secs(), compute_s: e.compute_s.as_secs(), comm_s: e.comm_s.as_secs() }
    }

    /// The time added over the compute, seconds.
    pub fn added_s(&self) -> f64 {
        self.step_s - self.compute_s
    }
}

/// A run's added-time error split into the collectives' part and the overlap's (out of source).
#[derive(Clone, Debug)]
pub struct Split {
    /// The curve's id.
    pub curve: String,
    /// Its collective.
    pub op: Op,
    /// The run's largest network message of that collective, bytes.
    pub message_bytes: f64,
    /// Model over measured time on the curve's hardware at that size, minus 1.
    pub collective_error: f64,
    /// The added time with the collectives at the measured times, seconds.
    pub corrected_added_s: f64,
}

/// One run replayed.
#[derive(Clone, Debug)]
pub struct StepReplay {
    /// The run.
    pub run: Run,
    /// Its scenario.
    pub scenario: Scenario,
    /// The layout the model ran (`ZeRO-3/FSDP`).
    pub layout: String,
    /// The model as shipped.
    pub in_sample: Prediction,
    /// The model without the terms fitted to the run's source.
    pub out_of_source: Prediction,
    /// Compute plus all communication, out of source ([`BASELINE`]): a baseline.
    pub no_overlap: Prediction,
    /// The seed's arithmetic (2(N-1)/N x gradient bytes through one adapter), added in full, seconds.
    pub seed_added_s: f64,
    /// The error split, where the run names a curve of its hardware with rows of the collective.
    pub split: Option<Split>,
}

impl StepReplay {
    /// Measured step minus compute.
    pub fn measured_added_s(&self) -> f64 {
        self.run.measured_step_s - self.run.baseline_step_s
    }

    /// Whether the measured added time is within the run's noise.
    pub fn within_noise(&self) -> bool {
        self.measured_added_s() < self.run.noise_s
    }

    /// Signed relative error of a prediction's step.
    pub fn step_error(&self, p: &Prediction) -> f64 {
        p.step_s / self.run.measured_step_s - 1.0
    }

    /// Signed relative error of a prediction's added time (`None` within noise).
    pub fn added_error(&self, p: &Prediction) -> Option<f64> {
        (!self.within_noise()).then(|| p.added_s() / self.measured_added_s() - 1.0)
    }

    /// Whether a prediction's added time is within a factor of `factor` of the measured one (`None` within
    /// noise).
    pub fn added_within(&self, p: &Prediction, factor: f64) -> Option<bool> {
        (!self.within_noise()).then(|| within_factor(p.added_s(), self.measured_added_s(), factor))
    }

    /// The seed's step: compute plus its added time.
    pub fn seed_step_s(&self) -> f64 {
        self.run.baseline_step_s + self.seed_added_s
    }

    /// The seed's step error.
    pub fn seed_step_error(&self) -> f64 {
        self.seed_step_s() / self.run.measured_step_s - 1.0
    }

    /// Signed relative error of the seed's added time (`None` within noise).
    pub fn seed_added_error(&self) -> Option<f64> {
        (!self.within_noise()).then(|| self.seed_added_s / self.measured_added_s() - 1.0)
    }

    /// The out-of-source added-time error split: (collectives, overlap), as shares of the measured added time;
    /// they add up to [`StepReplay::added_error`]. `None` without a curve or within noise.
    pub fn split_errors(&self) -> Option<(f64, f64)> {
        let s = self.split.as_ref()?;
        if self.within_noise() {
            return None;
        }
        let m = self.measured_added_s();
        Some(((self.out_of_source.added_s() - s.corrected_added_s) / m, (s.corrected_added_s - m) / m))
    }
}

/// Measured over model time of a table's collective at `bytes`, on its hardware with `terms`: log-log between
/// its rows, the end rows' ratio beyond them. `None` for a table without rows.
fn measured_over_model(t: &Table, terms: Terms, bytes: f64) -> Option<f64> {
    let s = t.scenario.clone().with_terms(terms);
    let mut rows = t.rows.clone();
    rows.sort_by(|a, b| a.size_bytes.total_cmp(&b.size_bytes));
    let (first, last) = (rows.first()?, rows.last()?);
    let measured = if bytes <= first.size_bytes {
        return Some(first.time_us / collective(&s, t.op, Bytes::new(first.size_bytes)).time_us);
    } else if bytes >= last.size_bytes {
        return Some(last.time_us / collective(&s, t.op, Bytes::new(last.size_bytes)).time_us);
    } else {
        let i = rows.iter().position(|r| r.size_bytes >= bytes)?;
        let (a, b) = (rows[i - 1], rows[i]);
        let f = (bytes.ln() - a.size_bytes.ln()) / (b.size_bytes.ln() - a.size_bytes.ln());
        (a.time_us.ln() + f * (b.time_us.ln() - a.time_us.ln())).exp()
    };
    Some(measured / collective(&s, t.op, Bytes::new(bytes)).time_us)
}

/// The split of a run predicted with `terms` against table `t`; `None` when the run sends none of the table's
/// collective over the network.
fn split(s: &Scenario, terms: Terms, t: &Table) -> Option<Split> {
    let s = s.clone().with_terms(terms);
    let mut rows = traffic(&s);
    let mut message_bytes: f64 = 0.0;
    for r in rows.iter_mut().filter(|r| r.op == t.op && r.tier == Tier::Network) {
        let k = measured_over_model(t, terms, r.message_bytes.get())?;
        message_bytes = message_bytes.max(r.message_bytes.get());
        r.time_s = r.time_s.scale(k);
        r.call_s = r.call_s.scale(k);
        r.last_call_s = r.last_call_s.scale(k);
    }
    if message_bytes <= 0.0 {
        return None;
    }
    let e = estimate_step(&s);
    let o = schedule(&s, &mut rows, e.compute_s, forward_share(&s));
    let collective_error = 1.0 / measured_over_model(t, terms, message_bytes)? - 1.0;
    // The step's other parts as `estimate_step` adds them: compute slowed beside what is hidden, the bubble and
    // the wait for the slowest rank (which does not depend on the collectives' times).
    let added = o.exposed + o.hidden().scale(terms.interference) + o.bubble + e.rank_wait_s;
    Some(Split { curve: t.id.clone(), op: t.op, message_bytes, collective_error, corrected_added_s: added.as_secs() })
}

/// Replays one run against the whole set (`runs`, for its source's fold) and the calibration tables (for its
/// curve); `Err` names the run and what is wrong.
pub fn replay_run(run: &Run, runs: &[Run], tables: &[Table]) -> Result<StepReplay, String> {
    replay_with(run, out_of_source_terms(run, runs)?, tables)
}

/// Whether a model's added time is within `factor` of the measured one, either way.
pub fn within_factor(model_added_s: f64, measured_added_s: f64, factor: f64) -> bool {
    (1.0 / factor..=factor).contains(&(model_added_s / measured_added_s))
}

fn replay_with(run: &Run, oos: Terms, tables: &[Table]) -> Result<StepReplay, String> {
    let s = Scenario::new(run.input.clone()).map_err(|e| format!("{}: {e}", run.id))?;
    let e = estimate_step(&s);
    let split = match &run.curve {
        None => None,
        Some(c) => {
            let t = tables.iter().find(|t| t.id == c.id).ok_or_else(|| format!("{}: no curve {}", run.id, c.id))?;
            Some(split(&s, oos, t).ok_or_else(|| format!("{}: sends no {} over the network", run.id, t.op.name()))?)
        }
    };
    Ok(StepReplay {
        run: run.clone(),
        layout: e.layout.description(),
        in_sample: Prediction::of(&s, Terms::SHIPPED),
        out_of_source: Prediction::of(&s, oos),
        no_overlap: Prediction::of(&s, (BASELINE.make)(oos)),
        seed_added_s: estimator_core::lower_bound(&s, e.ring_factor).time_s.as_secs(),
        split,
        scenario: s,
    })
}

/// Every run of the replay ([`all_runs`]), replayed; each source's fold is made once.
pub fn replay_all() -> Result<Vec<StepReplay>, String> {
    let runs = all_runs()?;
    let calibration = calibration_path();
    let points = super::super::load(&calibration)?;
    let tables = load_tables(&points, &calibration, &curves_path())?;
    let mut folds: std::collections::HashMap<String, Terms> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(runs.len());
    for r in &runs {
        let key = r.source_key();
        let oos = match folds.get(&key) {
            Some(t) => *t,
            None => {
                let t = out_of_source_terms(r, &runs)?;
                folds.insert(key, t);
                t
            }
        };
        out.push(replay_with(r, oos, &tables)?);
    }
    Ok(out)
}
