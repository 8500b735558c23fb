//! The step replay: public multi-node training runs (`tests/data/steps/runs.json`), each given to the model with
//! the run's single-node (or single-GPU) step as its compute and the run's hardware and layout, everything else
//! from the model's defaults. Two figures per run: the step time, and the time the run adds over that compute,
//! the figure a user rents a fabric for. The seed's arithmetic is printed beside the model on the same runs:
//! 2(N-1)/N x gradient bytes through one adapter's line rate, nothing hidden.
//!
//! A run whose measured added time is under [`NOISE_SHARE`] of its compute is *within noise*: its added-time
//! error is not scored (a 1 ms difference on a 60 ms step is run-to-run variation, and a relative error of it
//! means nothing); its step error is.

use std::fmt::Write as _;
use std::path::PathBuf;

use estimator_core::{Scenario, ScenarioInput, estimate_step};
use serde::Deserialize;

use super::Spread;

/// Added time below this share of the compute is within run-to-run noise. The sources' own repeated runs differ
/// by more: CSC's two LUMI fp32 runs months apart read 64.0 and 63.4 ms single-node (1%), and one of the AWS p3
/// runs is faster on 4 nodes than on 1 (`aws-p3-horovod-resnet50-4node`, -6%).
pub const NOISE_SHARE: f64 = 0.02;

/// One public run.
#[derive(Clone, Debug, Deserialize)]
pub struct Run {
    /// Identifier.
    pub id: String,
    /// Where it comes from.
    pub source: String,
    /// The framework as the source names it.
    pub framework: String,
    /// The model's input: the run's hardware, layout and compute.
    pub input: ScenarioInput,
    /// The run's step, seconds.
    pub measured_step_s: f64,
    /// The same per-GPU work on one node (or one GPU), seconds: the compute given to the model.
    pub baseline_step_s: f64,
    /// Model constants set from this run (empty: held out).
    #[serde(default)]
    pub fitted: Vec<String>,
}

#[derive(Deserialize)]
struct File {
    runs: Vec<Run>,
}

/// `tests/data/steps/runs.json`.
pub fn steps_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/steps/runs.json")
}

/// Reads the runs.
pub fn load_runs(path: &std::path::Path) -> Result<Vec<Run>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file: File = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(file.runs)
}

/// One run replayed.
#[derive(Clone, Debug)]
pub struct StepReplay {
    /// The run.
    pub run: Run,
    /// The layout the model ran (`ZeRO-3/FSDP`).
    pub layout: String,
    /// The model's step, seconds.
    pub model_step_s: f64,
    /// The model's added time over the compute, seconds.
    pub model_added_s: f64,
    /// The seed's arithmetic: the lower bound, added in full.
    pub seed_added_s: f64,
}

impl StepReplay {
    /// Measured step minus compute.
    pub fn measured_added_s(&self) -> f64 {
        self.run.measured_step_s - self.run.baseline_step_s
    }

    /// Signed relative error of the model's step.
    pub fn step_error(&self) -> f64 {
        self.model_step_s / self.run.measured_step_s - 1.0
    }

    /// Whether the measured added time is within noise.
    pub fn within_noise(&self) -> bool {
        self.measured_added_s() < NOISE_SHARE * self.run.baseline_step_s
    }

    /// Signed relative error of the model's added time (`None` within noise).
    pub fn added_error(&self) -> Option<f64> {
        (!self.within_noise()).then(|| self.model_added_s / self.measured_added_s() - 1.0)
    }

    /// Signed relative error of the seed's added time (`None` within noise).
    pub fn seed_error(&self) -> Option<f64> {
        (!self.within_noise()).then(|| self.seed_added_s / self.measured_added_s() - 1.0)
    }

    /// The seed's step: compute plus its added time.
    pub fn seed_step_s(&self) -> f64 {
        self.run.baseline_step_s + self.seed_added_s
    }
}

/// Replays one run; `Err` names the run and the field the model refused.
pub fn replay_run(run: &Run) -> Result<StepReplay, String> {
    let s = Scenario::new(run.input.clone()).map_err(|e| format!("{}: {e}", run.id))?;
    let e = estimate_step(&s);
    Ok(StepReplay {
        run: run.clone(),
        layout: e.layout.description(),
        model_step_s: e.step_s.as_secs(),
        model_added_s: e.step_s.as_secs() - e.compute_s.as_secs(),
        seed_added_s: e.lower_bound_s.as_secs(),
    })
}

fn pct(e: f64) -> String {
    format!("{:+.0}%", e * 100.0)
}

fn ms(s: f64) -> String {
    if s.abs() >= 1.0 { format!("{s:.2} s") } else { format!("{:.1} ms", s * 1000.0) }
}

/// The README's table: one row per run, then the medians of the model and the seed on the same runs.
pub fn markdown(replays: &[StepReplay]) -> String {
    let mut t = String::from(
        "| run | layout | GPUs | fabric | step measured | model | error | seed | error | added measured | model | \
         error | seed | error |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in replays {
        let i = &r.run.input;
        let fabric = format!("{} x {} Gb/s {}", i.adapters_per_node, i.link_gbps, i.fabric.name());
        let opt = |e: Option<f64>| e.map_or_else(|| "noise".to_string(), pct);
        let _ = writeln!(
            t,
            "| [{}]({}) | {} | {} x {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.run.id,
            r.run.source,
            r.layout,
            i.nodes,
            i.gpus_per_node,
            fabric,
            ms(r.run.measured_step_s),
            ms(r.model_step_s),
            pct(r.step_error()),
            ms(r.seed_step_s()),
            pct(r.seed_step_s() / r.run.measured_step_s - 1.0),
            ms(r.measured_added_s()),
            ms(r.model_added_s),
            opt(r.added_error()),
            ms(r.seed_added_s),
            opt(r.seed_error()),
        );
    }
    let step = Spread::of(replays.iter().map(StepReplay::step_error));
    let seed_step = Spread::of(replays.iter().map(|r| r.seed_step_s() / r.run.measured_step_s - 1.0));
    let added = Spread::of(replays.iter().filter_map(StepReplay::added_error));
    let seed = Spread::of(replays.iter().filter_map(StepReplay::seed_error));
    let scored = replays.iter().filter(|r| !r.within_noise()).count();
    let fitted = replays.iter().filter(|r| !r.run.fitted.is_empty()).count();
    let show = |s: Option<Spread>| s.map_or_else(|| "none".to_string(), |s| s.to_string());
    let _ = writeln!(
        t,
        "\n{} runs, {fitted} of them used to set a constant. Step |error|: model {}, \
         seed {}. Added time |error|, on the {scored} runs whose added time is above noise ({}% of the compute): \
         model {}, seed {}.",
        replays.len(),
        show(step),
        show(seed_step),
        NOISE_SHARE * 100.0,
        show(added),
        show(seed),
    );
    t
}
