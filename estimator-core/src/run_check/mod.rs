//! "Is it the network?" for a real training run: the step a user measured on N nodes against the step the model
//! expects for the same job and hardware, with the run's own single-node (or single-GPU) step as the compute.
//!
//! What comes back: the verdict (`as-expected`, `slower-than-expected`, `faster-than-expected`) within a tolerance
//! that is the model's validated error on public training runs of the same kind of fabric ([`tolerance`]); the
//! communication the measured step implies (measured step minus the compute, the pipeline bubble and the wait for
//! the slowest rank) against what
//! the schedule should leave exposed; the all-reduce bus bandwidth that would explain the measured step (found by
//! giving the model that bus bandwidth as a measurement, [`crate::ScenarioInput::measured_busbw_gbs`], until its step is
//! the measured one) against the bandwidth the fabric should give; and for a slow run the likely causes, each with
//! the step it would give and what to check, confirmed or ruled out by the evidence given with the run
//! (`causes.rs`).

use serde::{Deserialize, Serialize};

mod causes;
mod collectives;

use crate::collective::model_peak_busbw_gbs;
use crate::fabric::Fabric;
use crate::health::{self, Health};
use crate::import::{NcclLog, NcclTestsRun, Topology};
use crate::report::Summary;
use crate::scenario::{ComputeInput, Field, Scenario, ScenarioError, range};
use crate::step::{StepEstimate, estimate_step};

pub use causes::{RuledOut, RunCause};
pub use collectives::TraceComparison;

/// The verdict on a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum RunVerdict {
    /// Within the tolerance of the expected step.
    AsExpected,
    /// Slower than the expected step by more than the tolerance.
    SlowerThanExpected,
    /// Faster than the expected step by more than the tolerance: the compute given is too long, or the hardware
    /// is faster than the scenario says.
    FasterThanExpected,
}

impl RunVerdict {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            RunVerdict::AsExpected => "as-expected",
            RunVerdict::SlowerThanExpected => "slower-than-expected",
            RunVerdict::FasterThanExpected => "faster-than-expected",
        }
    }

    /// In words, for people: "as expected", "slower than expected", "faster than expected".
    pub fn label(self) -> &'static str {
        match self {
            RunVerdict::AsExpected => "as expected",
            RunVerdict::SlowerThanExpected => "slower than expected",
            RunVerdict::FasterThanExpected => "faster than expected",
        }
    }
}

/// The model's validated step error on a kind of fabric: the tolerance of the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tolerance {
    /// A measured step within this share of the expected one (either way) is as expected.
    pub share: f64,
    /// Where the share comes from.
    pub basis: &'static str,
}

/// The tolerance on RDMA fabrics: 90% of the model's steps on the step replay's public runs over InfiniBand,
/// RoCE and other RDMA fabrics (HPE Slingshot) are within 24.0% of the measured ones out of source (leave one
/// source out: README, "The step, against public training runs") and within 7.7% in sample (as measured over
/// expected step); the larger, rounded up to the next 5%. Out of source because the runs a user checks are ones
/// the model was not shaped on; in sample too because the check runs the model as shipped, whose own errors it
/// must not call slow. `tests/tests/run_check.rs` holds the two equal.
pub const RDMA_TOLERANCE: f64 = 0.25;
/// The tolerance on TCP, and on GCP's GPUDirect-TCPX/TCPXO (no public training run over them checks the step):
/// 90% of the model's steps on the public runs over NCCL's TCP sockets are within 25.1% out of source and 42.7%
/// in sample (Horovod's 2017 VGG-16 over NCCL 2.0's sockets on 40 GbE); the larger, rounded up to the next 5%.
pub const TCP_TOLERANCE: f64 = 0.45;

/// The tolerance of a verdict on `fabric`.
pub fn tolerance(fabric: Fabric) -> Tolerance {
    if fabric.is_rdma() {
        Tolerance {
            share: RDMA_TOLERANCE,
            basis: "90% of the model's steps on 54 public training runs over InfiniBand, RoCE and Slingshot are \
                    within 24% out of source and 7.7% in sample (README, the step replay)",
        }
    } else {
        Tolerance {
            share: TCP_TOLERANCE,
            basis: "90% of the model's steps on 9 public training runs over TCP sockets, 2017's among them, are \
                    within 25.1% out of source and 42.7% in sample (README, the step replay); no public run over \
                    GPUDirect-TCPX/TCPXO checks it",
        }
    }
}

/// What the user measured on N nodes, as plain data (flags, a form, a URL). Exactly one of the three measurements.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunInput {
    /// The measured optimizer step, seconds.
    pub measured_step_s: Option<f64>,
    /// The measured throughput, tokens per second (all GPUs).
    pub measured_tokens_per_s: Option<f64>,
    /// Tokens per optimizer step for `measured_tokens_per_s`; `None`: the layout's sequences per step x the
    /// sequence length.
    pub tokens_per_step: Option<f64>,
    /// The measured throughput, samples per second (all GPUs).
    pub measured_samples_per_s: Option<f64>,
    /// Samples per optimizer step for `measured_samples_per_s` (the global batch).
    pub samples_per_step: Option<f64>,
    /// The tokens per step of the scenario the user set, when the check's scenario has a given compute in place of
    /// the modelled one (the page's check): `measured_tokens_per_s` divides these rather than the layout's
    /// sequences when `tokens_per_step` is not given.
    #[serde(skip)]
    pub scenario_tokens_per_step: Option<f64>,
}

/// The longest step accepted: one day.
pub const MAX_STEP_S: f64 = 86_400.0;
/// The largest throughput accepted, per second (tokens or samples).
pub const MAX_PER_S: f64 = 1e12;

/// A measured step and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasuredStep {
    /// Seconds.
    pub step_s: f64,
    /// How it was read (`the step as measured`, `4.19M tokens per step / 1.2M tokens/s`, ...).
    pub from: String,
}

impl RunInput {
    /// The job the run ran: `s` with the micro-batches `tokens_per_step` gives each data-parallel rank, as
    /// `estimate --tokens-per-step` derives them, where the scenario's compute is given (in milliseconds, so it
    /// has no tokens of its own) and it sets no micro-batch count. The tokens per step mean the job's global
    /// batch in every command; the scenario as it is otherwise.
    pub fn job(&self, s: &Scenario) -> Result<Scenario, ScenarioError> {
        let i = s.input();
        let unset = i.micro_batches.is_none() && i.grad_accum_steps <= 1;
        match (self.tokens_per_step, i.compute) {
            (Some(t), ComputeInput::Given { .. }) if unset => {
                let t = range(Field::TokensPerStep, t, 1.0, crate::scenario::limits::MAX_TOKENS_PER_STEP, " tokens")?;
                let l = s.layout();
                let m = crate::layout::micro_batches_of(t, l.seq_len, l.micro_batch_size, l.dp);
                s.with(|i| i.micro_batches = Some(i64::from(m)))
            }
            _ => Ok(s.clone()),
        }
    }

    /// The measured step, with the checks on each value (the field named when one is refused).
    pub fn step(&self, s: &Scenario) -> Result<MeasuredStep, ScenarioError> {
        use crate::human::{count, secs};
        let given = [self.measured_step_s, self.measured_tokens_per_s, self.measured_samples_per_s];
        if given.iter().flatten().count() > 1 {
            return Err(ScenarioError::missing(
                Field::MeasuredStepS,
                "give one measurement: the step, tokens per second or samples per second",
            ));
        }
        if let Some(t) = self.measured_step_s {
            let t = range(Field::MeasuredStepS, t, 1e-6, MAX_STEP_S, " s")?;
            return Ok(MeasuredStep { step_s: t, from: "the step as measured".to_string() });
        }
        if let Some(rate) = self.measured_tokens_per_s {
            let rate = range(Field::MeasuredTokensPerS, rate, 1e-6, MAX_PER_S, " tokens/s")?;
            let (tokens, how) = match (self.tokens_per_step, s.input().compute) {
                (Some(t), _) => (
                    range(Field::TokensPerStep, t, 1.0, crate::scenario::limits::MAX_TOKENS_PER_STEP, " tokens")?,
                    "given",
                ),
                (None, ComputeInput::Tokens { tokens_per_step, .. }) => (tokens_per_step, "the scenario's"),
                (None, ComputeInput::Given { .. }) if self.scenario_tokens_per_step.is_some() => {
                    (self.scenario_tokens_per_step.unwrap_or_default(), "the scenario's")
                }
                (None, ComputeInput::Given { .. }) => {
                    let l = s.layout();
                    let seqs = f64::from(l.micro_batch_size) * f64::from(l.micro_batches) * f64::from(l.dp);
                    (
                        seqs * f64::from(l.seq_len),
                        "sequence length x micro-batch size x micro-batches x data-parallel GPUs",
                    )
                }
            };
            let step = tokens / rate;
            return Ok(MeasuredStep {
                step_s: range(Field::MeasuredTokensPerS, step, 1e-6, MAX_STEP_S, " s per step")?,
                from: format!(
                    "{} tokens per step ({how}) at {} tokens/s: {}",
                    count(tokens),
                    count(rate),
                    secs(crate::Seconds::new(step))
                ),
            });
        }
        if let Some(rate) = self.measured_samples_per_s {
            let rate = range(Field::MeasuredSamplesPerS, rate, 1e-6, MAX_PER_S, " samples/s")?;
            let Some(samples) = self.samples_per_step else {
                return Err(ScenarioError::missing(
                    Field::SamplesPerStep,
                    "needed with samples per second: the global batch, in samples",
                ));
            };
            let samples = range(Field::SamplesPerStep, samples, 1.0, MAX_PER_S, " samples")?;
            let step = samples / rate;
            return Ok(MeasuredStep {
                step_s: range(Field::MeasuredSamplesPerS, step, 1e-6, MAX_STEP_S, " s per step")?,
                from: format!(
                    "{} samples per step at {} samples/s: {}",
                    count(samples),
                    count(rate),
                    secs(crate::Seconds::new(step))
                ),
            });
        }
        Err(ScenarioError::missing(
            Field::MeasuredStepS,
            "give the step measured on the nodes: seconds per step, tokens per second or samples per second",
        ))
    }
}

/// What else is known about the run: the same evidence `health` takes, and a nccl-tests run on the same nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunEvidence<'a> {
    /// The run's NCCL_DEBUG=INFO log.
    pub log: Option<&'a NcclLog>,
    /// `nvidia-smi topo -m` of a node.
    pub topo: Option<&'a Topology>,
    /// The node's report summary.
    pub summary: Option<&'a Summary>,
    /// A nccl-tests run on the same nodes.
    pub nccl_tests: Option<&'a NcclTestsRun>,
    /// The run's own collectives: NCCL Inspector records or a PyTorch profiler trace's NCCL kernels (several
    /// ranks' merged).
    pub calls: Option<&'a crate::run_collectives::Calls>,
    /// A PyTorch profiler trace's steps: the communication measured per step.
    pub trace: Option<&'a crate::import::trace::TraceSteps>,
    /// The profile of the cluster's own runs, for its floors (its correction is the scenario's already).
    pub profile: Option<&'a crate::calibrate::Profile>,
}

/// The check of one run. Keys are the JSON contract of `probe-cli check-run --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunCheck {
    /// The verdict.
    pub verdict: RunVerdict,
    /// The verdict and its figures in one sentence.
    pub headline: String,
    /// The model's step for the job on this hardware, with the run's compute.
    pub expected_step_s: f64,
    /// The step measured.
    pub measured_step_s: f64,
    /// How the measured step was read.
    pub measured_from: String,
    /// Measured over expected.
    pub ratio: f64,
    /// The compute given (the run's single-node step).
    pub compute_s: f64,
    /// The pipeline bubble the model adds (0 without pipeline parallelism).
    pub bubble_s: f64,
    /// The wait for the slowest rank the model adds (0 on one node).
    pub rank_wait_s: f64,
    /// The communication the measured step implies: measured step minus compute, the bubble and the wait for
    /// the slowest rank (negative when the measured step is shorter than those).
    pub implied_comm_s: f64,
    /// All communication of the step in the model.
    pub expected_comm_s: f64,
    /// What of it the schedule leaves exposed.
    pub expected_exposed_comm_s: f64,
    /// The share of the communication the schedule should hide.
    pub expected_hidden_share: f64,
    /// The all-reduce bus bandwidth at which the model's step is the measured one, GB/s; `None` when no
    /// bandwidth explains it (a measured step at or below what infinite bandwidth gives, or one GPU).
    pub implied_busbw_gbs: Option<f64>,
    /// The lowest all-reduce bus bandwidth whose step is still within the tolerance of the expected one, GB/s: how
    /// slow the fabric can be before the step shows it (where the schedule hides most of the communication, far
    /// below the expected bandwidth). `None` on one GPU.
    pub busbw_floor_gbs: Option<f64>,
    /// The all-reduce bus bandwidth the hardware should give at large sizes with NCCL's choice of algorithm (what
    /// nccl-tests should print there), GB/s.
    pub expected_busbw_gbs: f64,
    /// The tolerance of the verdict: the model's validated step error on this kind of fabric.
    pub tolerance: f64,
    /// Where the tolerance comes from.
    pub tolerance_basis: String,
    /// The expected step's range, [low, high] seconds: the model's validated accuracy on public runs it was not
    /// shaped on ([`crate::accuracy`], the same range the estimate gives).
    pub expected_range_s: [f64; 2],
    /// The measured steps that read as expected, [low, high] seconds: the wider of the step's range and the
    /// tolerance on this kind of fabric, so that neither the model's spread on unseen runs nor its error on this
    /// kind of fabric reads as a fault.
    pub as_expected_s: [f64; 2],
    /// Likely causes, most likely first (confirmed ones first); for a run as expected only the layout advice.
    pub causes: Vec<RunCause>,
    /// Causes the evidence or the figures rule out, with why.
    pub ruled_out: Vec<RuledOut>,
    /// Faults the measured step cannot tell apart from a healthy run: the step each would give is itself inside
    /// [`RunCheck::as_expected_s`] (the range is too wide to tell), with what does tell (the evidence to give).
    /// Empty when the evidence given has settled them.
    pub cannot_tell: Vec<RuledOut>,
    /// What the evidence given says, one line each.
    pub evidence: Vec<String>,
    /// A nccl-tests run given as evidence, judged on the same hardware.
    pub nccl_tests: Option<Health>,
    /// The run's own collectives, judged per communicator and size band (with `--trace` or `--inspector`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collectives: Option<crate::run_collectives::CollectivesCheck>,
    /// A trace's communication per step against the model's (with `--trace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceComparison>,
    /// The expected step and its parts.
    pub step: StepEstimate,
}

/// The measured steps that read as expected: the wider, at each end, of the step's range and the fabric's
/// tolerance around the expected step.
fn as_expected_band(e: &StepEstimate, tolerance: f64) -> [f64; 2] {
    let expected = e.step_s.as_secs();
    let [lo, hi] = e.step_range_s.map(|t| t.as_secs());
    [lo.min(expected * (1.0 - tolerance)).max(0.0), hi.max(expected * (1.0 + tolerance))]
}

/// The step of `s` with its all-reduce bus bandwidth measured at `busbw` GB/s.
fn step_at(s: &Scenario, busbw: f64) -> Option<f64> {
    let busbw = busbw.clamp(BUSBW_SEARCH.0, BUSBW_SEARCH.1);
    let v = s.with(|i| i.measured_busbw_gbs = Some(busbw)).ok()?;
    Some(estimate_step(&v).step_s.as_secs())
}

/// Bounds of the search for the implied bus bandwidth, GB/s: [`crate::scenario::limits::MIN_FRACTION`] and the
/// largest measurement a scenario takes.
const BUSBW_SEARCH: (f64, f64) =
    (crate::scenario::limits::MIN_FRACTION, crate::scenario::limits::MAX_MEASURED_BUSBW_GBS);

/// The all-reduce bus bandwidth at which the model's step is `measured`: a bisection on its logarithm (the step
/// falls as the bandwidth rises). `None` when even the largest bandwidth gives a longer step, or on one GPU.
pub fn implied_busbw(s: &Scenario, measured: f64) -> Option<f64> {
    if s.participants() <= 1 {
        return None;
    }
    let (mut lo, mut hi) = (BUSBW_SEARCH.0.ln(), BUSBW_SEARCH.1.ln());
    if step_at(s, hi.exp())? >= measured {
        return None;
    }
    if step_at(s, lo.exp())? <= measured {
        return Some(BUSBW_SEARCH.0);
    }
    // 48 halvings of a range of 16 in the logarithm: far below a percent.
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if step_at(s, mid.exp())? > measured {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((0.5 * (lo + hi)).exp())
}

/// Checks a measured run against the model. `s` is the job and hardware with the run's single-node step as the
/// compute ([`ComputeInput::Given`]).
pub fn check_run(s: &Scenario, measured: &MeasuredStep, ev: RunEvidence<'_>) -> RunCheck {
    let e = estimate_step(s);
    let expected = e.step_s.as_secs();
    let m = measured.step_s;
    let ratio = if expected > 0.0 { m / expected } else { f64::INFINITY };
    let tol = tolerance(s.input().fabric);
    let band = as_expected_band(&e, tol.share);
    let verdict = if m > band[1] {
        RunVerdict::SlowerThanExpected
    } else if m < band[0] {
        RunVerdict::FasterThanExpected
    } else {
        RunVerdict::AsExpected
    };
    // The expected bus bandwidth is the hardware's, whatever a measurement given with the scenario says.
    let expected_busbw = model_peak_busbw_gbs(s);
    let implied = implied_busbw(s, m);
    let nccl_tests = ev
        .nccl_tests
        .and_then(|run| health::judge(s, run, health::Evidence { log: ev.log, topo: ev.topo, summary: ev.summary }));
    let collectives = ev.calls.filter(|c| !c.calls.is_empty()).map(|c| crate::run_collectives::judge(s, c, ev.profile));
    let trace = ev.trace.filter(|t| !t.steps.is_empty()).map(|t| TraceComparison::new(t, &e));
    let found = causes::causes(s, &e, m, verdict, &ev, nccl_tests.as_ref(), (collectives.as_ref(), trace.as_ref()));
    let compute = e.compute_s.as_secs();
    let bubble = e.bubble_s.as_secs();
    let wait = e.rank_wait_s.as_secs();
    let mut check = RunCheck {
        verdict,
        headline: String::new(),
        expected_step_s: expected,
        measured_step_s: m,
        measured_from: measured.from.clone(),
        ratio,
        compute_s: compute,
        bubble_s: bubble,
        rank_wait_s: wait,
        implied_comm_s: m - compute - bubble - wait,
        expected_comm_s: e.comm_s.as_secs(),
        expected_exposed_comm_s: e.exposed_comm_s.as_secs(),
        expected_hidden_share: e.overlap,
        implied_busbw_gbs: implied,
        busbw_floor_gbs: implied_busbw(s, band[1]),
        expected_busbw_gbs: expected_busbw,
        tolerance: tol.share,
        tolerance_basis: tol.basis.to_string(),
        expected_range_s: e.step_range_s.map(|t| t.as_secs()),
        as_expected_s: band,
        causes: found.causes,
        ruled_out: found.ruled_out,
        cannot_tell: found.cannot_tell,
        evidence: found.evidence,
        nccl_tests,
        collectives,
        trace,
        step: e,
    };
    check.headline = headline(&check);
    check
}

impl RunCheck {
    /// The check's figures, one labelled line each, as both front ends print them: the step, what the expected
    /// one is made of, the communication, the bus bandwidth, the tolerance and how the measurement was read.
    pub fn figures(&self) -> Vec<(&'static str, String)> {
        use crate::human::{num, pct, secs, signed_secs};
        let s = |t: f64| secs(crate::units::Seconds::new(t));
        let mut bubble =
            if self.bubble_s > 0.0 { format!(" + pipeline bubble {}", s(self.bubble_s)) } else { String::new() };
        if self.rank_wait_s > 0.0 {
            bubble.push_str(&format!(" + wait for the slowest rank {}", s(self.rank_wait_s)));
        }
        let implied = self.implied_busbw_gbs.map_or_else(|| "none explains it".to_string(), gbs);
        let floor = self
            .busbw_floor_gbs
            .map_or_else(String::new, |f| format!("; from {} up the step stays within the tolerance", gbs(f)));
        vec![
            ("step", format!("measured {}, expected {}", s(self.measured_step_s), s(self.expected_step_s))),
            (
                "expected",
                format!(
                    "compute {} + exposed communication {}{bubble}",
                    s(self.compute_s),
                    s(self.expected_exposed_comm_s)
                ),
            ),
            ("communication", {
                let parts = match (self.bubble_s > 0.0, self.rank_wait_s > 0.0) {
                    (true, true) => "compute, bubble and the wait for the slowest rank",
                    (true, false) => "compute and bubble",
                    (false, true) => "compute and the wait for the slowest rank",
                    (false, false) => "compute",
                };
                // Nothing is left for communication when the run's step is shorter than the rest adds up to.
                let implied = if self.implied_comm_s < 0.0 {
                    format!("none: the measured step is {} shorter than the {parts}", s(-self.implied_comm_s))
                } else {
                    format!("implied {} (measured minus {parts})", signed_secs(self.implied_comm_s))
                };
                format!(
                    "{implied}; the model's {}, {} of it hidden by the schedule",
                    s(self.expected_comm_s),
                    pct(self.expected_hidden_share)
                )
            }),
            (
                "bus bandwidth",
                format!(
                    "implied {implied}, expected {} GB/s (all-reduce, large sizes){floor}",
                    num(self.expected_busbw_gbs, 1)
                ),
            ),
            (
                "range",
                format!(
                    "expected {} to {} (the model on public runs it was not shaped on); a measured step from {} \
                     to {} reads as expected",
                    s(self.expected_range_s[0]),
                    s(self.expected_range_s[1]),
                    s(self.as_expected_s[0]),
                    s(self.as_expected_s[1])
                ),
            ),
            ("tolerance", format!("±{}: {}", pct(self.tolerance), self.tolerance_basis)),
            ("measured", self.measured_from.clone()),
        ]
    }
}

/// A bus bandwidth for people: `9 GB/s`, or `under 0.01 GB/s` at the bottom of the search.
pub fn gbs(b: f64) -> String {
    if b <= BUSBW_SEARCH.0 * 10.0 { "under 0.01 GB/s".to_string() } else { format!("{} GB/s", crate::human::num(b, 1)) }
}

/// The verdict in one sentence, with its figures.
fn headline(c: &RunCheck) -> String {
    use crate::human::{num, pct, secs, times};
    use crate::units::Seconds;
    let (m, x) = (Seconds::new(c.measured_step_s), Seconds::new(c.expected_step_s));
    let within = format!("the model is within ±{} on this kind of fabric", pct(c.tolerance));
    let bw = match c.implied_busbw_gbs {
        Some(_) if c.verdict == RunVerdict::AsExpected => match c.busbw_floor_gbs {
            Some(f) => format!(
                "; any all-reduce bus bandwidth from {} up (the hardware should give {} GB/s) gives a step within \
                 the tolerance",
                gbs(f),
                num(c.expected_busbw_gbs, 1)
            ),
            None => String::new(),
        },
        Some(b) => format!(
            "; the step implies an all-reduce bus bandwidth of {} where the hardware should give {} GB/s",
            gbs(b),
            num(c.expected_busbw_gbs, 1)
        ),
        None => String::new(),
    };
    let untold = match c.cannot_tell.iter().map(|k| k.id.as_str()).collect::<Vec<_>>().as_slice() {
        [] => String::new(),
        ids => format!(
            ". What reads as expected ({} to {}: the model's range and its tolerance on this fabric) is too wide to \
             tell {} from a healthy run: a run with it would read as expected too (see 'cannot tell')",
            secs(Seconds::new(c.as_expected_s[0])),
            secs(Seconds::new(c.as_expected_s[1])),
            ids.join(", ")
        ),
    };
    match c.verdict {
        RunVerdict::AsExpected => {
            format!("As expected: {m} measured against {x} expected ({} of it; {within}){bw}{untold}", pct(c.ratio))
        }
        RunVerdict::SlowerThanExpected => {
            let first = c
                .causes
                .first()
                .map(|k| {
                    let gives = match (k.step_s, k.step_max_s) {
                        (Some(lo), Some(hi)) => {
                            format!(", which gives {} to {}", secs(Seconds::new(lo)), secs(Seconds::new(hi)))
                        }
                        (Some(t), None) => format!(", which gives {}", secs(Seconds::new(t))),
                        _ => String::new(),
                    };
                    let confirmed = if k.status == "confirmed" { ", confirmed by the evidence" } else { "" };
                    format!(". Most likely: {}{gives}{confirmed}", k.id)
                })
                .unwrap_or_default();
            format!("Slower than expected: {m} measured against {x} expected ({}; {within}){bw}{first}", times(c.ratio))
        }
        RunVerdict::FasterThanExpected => format!(
            "Faster than expected: {m} measured against {x} expected ({} of it; {within}): the compute given ({}) \
             is longer than the run's, or the hardware is faster than the scenario says{bw}",
            pct(c.ratio),
            secs(Seconds::new(c.compute_s))
        ),
    }
}

#[cfg(test)]
mod tests;
