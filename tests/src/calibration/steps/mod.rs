//! The step replay: public multi-node training runs, each given to the model with the run's single-node (or
//! single-GPU) step as its compute and the run's hardware and layout, everything else from the model's defaults.
//! Two figures per run: the step time, and the time the run adds over that compute, the figure a user rents a
//! fabric for. Beside the model, two baselines every term must beat: the seed's arithmetic (2(N-1)/N x gradient
//! bytes through one adapter's line rate, nothing hidden) and the model with nothing hidden.
//!
//! **Out of source.** A run is predicted twice: *in sample*, by the model as shipped, and *out of source*, by the
//! model with every term that was set from its source, or shaped while looking at its source's runs, taken out
//! (leave one source out; a source is one document, a paper, a benchmark page or an issue thread, or documents
//! of one team's runs on one cluster, which the data groups with `source_group`). Each run's
//! `fitted` names the rules its source shaped ([`estimator_core::terms`]), which are switched off; a term whose
//! constant is fitted on the runs (the per-rank variation) is fitted again on the other sources' runs ([`fold`]).
//! The out-of-source figure is the one that says how the model does on runs it has not seen.
//!
//! **Noise.** Each run carries its noise (`noise_s`): its own reported spread, else 2% of the compute. A run
//! whose measured added time is under it is *within noise*: its added-time error is not scored (a 1 ms
//! difference on a 60 ms step is run-to-run variation, and a relative error of it means nothing); its step
//! error is.
//!
//! [`replay`] predicts the runs and splits each error into the collectives' part and the overlap's; [`table`]
//! writes the README's tables.

pub mod fold;
pub mod range;
pub mod replay;
pub mod scale;
pub mod table;

use std::path::{Path, PathBuf};

use estimator_core::ScenarioInput;
use serde::Deserialize;

pub use fold::{fit_rank_variation, out_of_source_terms, rule_terms};
pub use replay::{Prediction, Split, StepReplay, replay_all, replay_run};

/// A measured nccl-tests curve of the run's hardware, from the calibration set (`measurements.json` or
/// `curves.json`), and how it matches the run.
#[derive(Clone, Debug, Deserialize)]
pub struct CurveRef {
    /// The point's or table's id.
    pub id: String,
    /// What is the same and what differs (node count, model of adapter).
    pub note: String,
}

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
    /// The model's terms set from this run or shaped while looking at it ([`estimator_core::terms::TERM_IDS`]).
    pub fitted: Vec<String>,
    /// Run-to-run noise of the step, seconds: the run's own spread, else 2% of the compute.
    pub noise_s: f64,
    /// Where the noise comes from.
    pub noise_basis: String,
    /// A measured curve of the same hardware, where one exists.
    #[serde(default)]
    pub curve: Option<CurveRef>,
    /// Documents that are one source for leave-one-source-out: the same table on two pages, or runs of one
    /// cluster by one team on several pages. `None`: the document alone.
    #[serde(default)]
    pub source_group: Option<String>,
    /// The table the run belongs to, where the source has one.
    #[serde(default)]
    pub series: Option<String>,
    /// Where the table's smallest scale is already several nodes: that scale's node count, whose measured step
    /// anchors the compute ([`scale`]); `None`: the baseline is one node's step.
    #[serde(default)]
    pub anchor_nodes: Option<u32>,
}

impl Run {
    /// The source a fold leaves out: the run's `source_group`, else its document ([`Run::document_key`]).
    pub fn source_key(&self) -> String {
        self.source_group.clone().unwrap_or_else(|| self.document_key())
    }

    /// The document the run comes from: its address without the scheme, commit hashes and fragment, so that
    /// two commits of one page are one document.
    pub fn document_key(&self) -> String {
        source_key(&self.source)
    }
}

/// [`Run::source_key`] of an address.
pub fn source_key(url: &str) -> String {
    let url = url.split('#').next().unwrap_or(url);
    let url = url.trim_start_matches("https://").trim_start_matches("http://");
    let is_commit = |p: &&str| p.len() == 40 && p.bytes().all(|b| b.is_ascii_hexdigit());
    url.split('/').filter(|p| !is_commit(p)).collect::<Vec<_>>().join("/")
}

#[derive(Deserialize)]
struct File {
    runs: Vec<Run>,
}

/// `tests/data/steps/runs.json`: the runs the model's terms were shaped beside.
pub fn steps_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/steps/runs.json")
}

/// `tests/data/steps/collected/runs.json`: runs collected for the out-of-source validation (issue 26).
pub fn collected_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/steps/collected/runs.json")
}

/// `tests/data/steps/later/runs.json`: runs collected after the model's terms were chosen, scored as shipped and
/// fitted on nothing.
pub fn later_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/steps/later/runs.json")
}

/// Reads the runs of one file.
pub fn load_runs(path: &Path) -> Result<Vec<Run>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file: File = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    for r in &file.runs {
        if !(r.noise_s.is_finite() && r.noise_s > 0.0) {
            return Err(format!(
                "{}: {}: noise_s {} is not a positive number of seconds",
                path.display(),
                r.id,
                r.noise_s
            ));
        }
    }
    Ok(file.runs)
}

/// Every run of the replay: [`steps_path`]'s, then [`collected_path`]'s; an id used twice is an error.
pub fn all_runs() -> Result<Vec<Run>, String> {
    let mut runs = load_runs(&steps_path())?;
    runs.extend(load_runs(&collected_path())?);
    let mut seen = std::collections::HashSet::new();
    for r in &runs {
        if !seen.insert(r.id.as_str()) {
            return Err(format!("{}: id used twice", r.id));
        }
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_and_fragments_do_not_make_a_new_source() {
        let a = source_key("https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/README.md#table");
        assert_eq!(a, "github.com/o/r/blob/README.md");
        assert_eq!(a, source_key("https://github.com/o/r/blob/fedcba9876543210fedcba9876543210fedcba98/README.md"));
        assert_ne!(a, source_key("https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/docs/x.md"));
        assert_eq!(source_key("https://github.com/o/r/issues/2"), "github.com/o/r/issues/2");
    }
}
