//! `probe-cli thresholds [--report node.json | hardware flags] --nodes N`: the bus bandwidth a health check can gate
//! on, per collective and size (estimator-core's `thresholds`), as CSV or `--json`.

use estimator_core::collective::Op;
use estimator_core::recipe::commands::OPS;
use estimator_core::thresholds::{self, BANDS, FLOOR_SHARE, Threshold};
use estimator_core::{Field, Scenario, ScenarioInput};
use serde::Serialize;

use crate::cli::ThresholdsArgs;
use crate::files::load_report;
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};
use crate::scenario::{apply_cluster, profiled, usage};

/// One floor band, as `--json` writes it.
#[derive(Serialize)]
struct Floor {
    from_bytes: f64,
    /// `null`: no upper end.
    to_bytes: Option<f64>,
    floor: f64,
    held_out_rows: usize,
}

/// `thresholds --json`.
#[derive(Serialize)]
struct ThresholdsDocument<'a> {
    thresholds: &'a [Threshold],
    /// The floor of each size band: measured over modelled bus bandwidth that all but `floor_share` of the
    /// held-out healthy public rows reach.
    floors: Vec<Floor>,
    floor_share: f64,
    input: &'a ScenarioInput,
    /// With `--profile`: what the profile changed, in one line (the expectations are then the calibrated ones).
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// The most gates one call writes (5 collectives by a long size list).
const MAX_SIZES: usize = 4096;

/// Runs `thresholds`.
pub fn thresholds(a: &ThresholdsArgs) -> Result<Outcome, Failure> {
    let summary = match &a.report {
        Some(path) => Some(load_report(path)?.0.summary),
        None => None,
    };
    let c = &a.cluster;
    if summary.is_none()
        && a.nodes > 1
        && let Some(missing) = crate::scenario::missing_flags(&c.hardware, &[Field::AdaptersPerNode, Field::LinkGbps])
    {
        return Err(Failure::Usage(format!(
            "--nodes {} crosses the network: give {} (the adapters per node and their line rate), or --report \
                 node.json",
            a.nodes, missing
        )));
    }
    if a.bytes.len() > MAX_SIZES {
        return Err(Failure::Usage(format!("--bytes: at most {MAX_SIZES} sizes")));
    }
    for &b in &a.bytes {
        estimator_core::collective::message_bytes(b).map_err(|e| Failure::Usage(format!("--bytes: {}", e.reason)))?;
    }
    let mut input = ScenarioInput::default();
    apply_cluster(&mut input, &c.hardware, a.nodes, summary.as_ref())?;
    input.nodes = a.nodes;
    input.measured_busbw_gbs = None;
    let s = Scenario::new(input).map_err(|e| usage(&e))?;
    let (s, profile) = profiled(s, c)?;
    // The profile `profiled` applied (read once: `load_profile` keeps it), for its own floors.
    let own = c.profile.as_deref().map(crate::scenario::load_profile).transpose()?;
    let ops: Vec<Op> = if a.op.is_empty() { OPS.to_vec() } else { a.op.clone() };
    let sizes: Vec<f64> = if a.bytes.is_empty() {
        std::iter::successors(Some(8.0_f64), |b| Some(b * 2.0))
            .take_while(|b| *b <= 8.0 * 1024.0 * 1024.0 * 1024.0)
            .collect()
    } else {
        a.bytes.clone()
    };
    let rows = thresholds::thresholds(&s, &ops, &sizes, own);
    if c.json {
        let floors = BANDS
            .iter()
            .map(|b| Floor {
                from_bytes: b.from_bytes,
                to_bytes: b.to_bytes.is_finite().then_some(b.to_bytes),
                floor: b.floor,
                held_out_rows: b.rows,
            })
            .collect();
        print_json(&ThresholdsDocument {
            thresholds: &rows,
            floors,
            floor_share: FLOOR_SHARE,
            input: s.input(),
            profile: profile.as_deref(),
        })?;
    } else {
        // CSV stays CSV: the profile's line goes to stderr.
        if let Some(l) = &profile {
            diag(&format!("profile: {l}"));
        }
        print_text(&thresholds::csv(&rows))?;
    }
    Ok(Outcome::Clean)
}
