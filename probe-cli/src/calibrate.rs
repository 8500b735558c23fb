//! `probe-cli calibrate RUN... --out profile.json [--report node.json | hardware flags]`: a profile of the user's
//! cluster from their nccl-tests outputs (estimator-core's `calibrate`), written to `--out`, with its left-out
//! validation in the text. Runs it cannot use are named with the reason; some refused is a finding (exit 1), none
//! usable an input error (exit 2).

use std::fmt::Write as _;
use std::path::Path;

use estimator_core::calibrate::{self, CalibrationRun, Profile, Refused};
use estimator_core::import::{Imported, NcclTestsRun, nccl_tests};
use estimator_core::{Bytes, Field, Scenario, ScenarioInput, human};
use serde::Serialize;

use crate::cli::CalibrateArgs;
use crate::files::{load_report, read_text};
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};
use crate::scenario::{apply_cluster, usage};

/// `calibrate --json`.
#[derive(Serialize)]
struct CalibrateDocument<'a> {
    profile: &'a Profile,
    refused: &'a [Refused],
    /// Where the profile was written.
    out: String,
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Every run of a file (a file of several runs gives each as `file#k`), or why none.
fn read_runs(path: &Path) -> Result<Vec<(String, NcclTestsRun)>, String> {
    let text = read_text(path)?;
    match estimator_core::import::import(&text) {
        Some(Imported::NcclTests(first)) => {
            let name = path.display().to_string();
            if first.runs_in_file > 1 {
                let runs = nccl_tests::parse_runs(&text);
                Ok(runs.into_iter().enumerate().map(|(i, r)| (format!("{name}#{}", i + 1), r)).collect())
            } else {
                Ok(vec![(name, first)])
            }
        }
        Some(other) => Err(format!("a {} output, not nccl-tests", other.kind().name())),
        None => Err("not an nccl-tests output".to_string()),
    }
}

/// Runs `calibrate`.
pub fn calibrate(a: &CalibrateArgs) -> Result<Outcome, Failure> {
    let summary = match &a.report {
        Some(path) => Some(load_report(path)?.0.summary),
        None => None,
    };
    if summary.is_none()
        && let Some(missing) =
            crate::scenario::missing_flags(&a.hardware, &[Field::AdaptersPerNode, Field::LinkGbps, Field::GpusPerNode])
    {
        return Err(Failure::Usage(format!(
            "calibrate corrects the model of the hardware the runs were measured on: give {}, or --report \
                 node.json",
            missing
        )));
    }
    let mut input = ScenarioInput::default();
    apply_cluster(&mut input, &a.hardware, 2, summary.as_ref())?;
    input.measured_busbw_gbs = None;
    let s = Scenario::new(input).map_err(|e| usage(&e))?;
    let mut refused = Vec::new();
    let mut runs = Vec::new();
    // Not the profile itself, written among its runs by an earlier calibration.
    for path in crate::files::list(&a.paths, |f| !same_file(f, &a.out), calibrate::MAX_RUNS)? {
        match read_runs(&path) {
            Ok(r) => runs.extend(r),
            Err(reason) => refused.push(Refused { file: path.display().to_string(), reason }),
        }
    }
    let inputs: Vec<CalibrationRun<'_>> =
        runs.iter().map(|(file, run)| CalibrationRun { file: file.clone(), run }).collect();
    let (profile, more) = calibrate::calibrate(&s, &inputs);
    refused.extend(more);
    let Some(mut profile) = profile else {
        let why: String = refused.iter().take(8).map(|r| format!("\n  {}: {}", r.file, r.reason)).collect();
        return Err(Failure::input(format!("no run to calibrate on among the files given{why}")));
    };
    profile.generator = format!("probe-cli {}", env!("CARGO_PKG_VERSION"));
    let body = serde_json::to_string_pretty(&profile).map_err(|e| Failure::input(format!("profile: {e}")))?;
    std::fs::write(&a.out, format!("{body}\n"))
        .map_err(|e| Failure::input(format!("--out {}: {e}", a.out.display())))?;
    if a.json {
        print_json(&CalibrateDocument { profile: &profile, refused: &refused, out: a.out.display().to_string() })?;
    } else {
        print_text(&text(&profile, &refused, &s, &a.out))?;
    }
    Ok(if refused.is_empty() { Outcome::Clean } else { Outcome::Findings })
}

/// The ramp's lowest knot among the sizes measured: (size, ratio).
fn least(c: &estimator_core::calibrate::Correction) -> (f64, f64) {
    c.ramp
        .iter()
        .map(|k| (k[0], k[1]))
        .filter(|k| k.0 >= c.sizes_bytes[0] && k.0 <= c.sizes_bytes[1])
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((c.sizes_bytes[1], c.large_ratio))
}

fn text(p: &Profile, refused: &[Refused], s: &Scenario, out: &Path) -> String {
    let mut t = String::new();
    let h = &p.hardware;
    let _ = writeln!(
        t,
        "Calibrated on {} runs of {} x {} per node, {} x {} Gb/s {}; written to {}.",
        p.files.len(),
        h.gpus_per_node,
        s.gpu().name,
        h.adapters_per_node,
        human::num(h.link_gbps, 3),
        h.fabric.name(),
        out.display()
    );
    let _ = writeln!(t, "\nCorrections (measured over modelled bus bandwidth; the model's time is divided by it):");
    for c in &p.corrections {
        let _ = writeln!(
            t,
            "  {} on {} x {}: {} runs, {} rows ({} to {}): smallest sizes x{}, largest x{}, least x{} at {}; fitted \
             error {}",
            c.op.name(),
            c.nodes,
            c.gpus_per_node,
            c.runs,
            c.rows,
            human::binary(Bytes::new(c.sizes_bytes[0])),
            human::binary(Bytes::new(c.sizes_bytes[1])),
            human::num(c.small_ratio, 2),
            human::num(c.large_ratio, 2),
            human::num(least(c).1, 2),
            human::binary(Bytes::new(least(c).0)),
            human::pct(c.fitted_error)
        );
    }
    match &p.validation {
        Some(v) => {
            let _ = writeln!(
                t,
                "\nEach run left out and predicted from the others ({} runs, {} rows): median |error| of the time {} \
                 calibrated, {} the model alone{}.",
                v.runs,
                v.rows,
                human::pct(v.calibrated_error),
                human::pct(v.model_error),
                if v.extrapolated_runs > 0 {
                    format!(
                        "; {} run(s) had no other run of their collective and node count, so were predicted from another's",
                        v.extrapolated_runs
                    )
                } else {
                    String::new()
                }
            );
            let _ = writeln!(
                t,
                "  {:<15} {:<15} {:>5} {:>7} {:>11}",
                "collective", "size band", "rows", "model", "calibrated"
            );
            for b in &v.bands {
                let _ = writeln!(
                    t,
                    "  {:<15} {:<15} {:>5} {:>7} {:>11}",
                    b.op.name(),
                    b.band,
                    b.rows,
                    human::pct(b.model_error),
                    human::pct(b.calibrated_error)
                );
            }
        }
        None => {
            let _ = writeln!(t, "\nOne run: nothing to leave out, so the profile is not validated; add a replicate.");
        }
    }
    for n in &p.notes {
        let _ = writeln!(t, "\nNote: {n}.");
    }
    if !refused.is_empty() {
        let _ = writeln!(t, "\nNot used:");
        for r in refused {
            let _ = writeln!(t, "  {}: {}", r.file, r.reason);
        }
    }
    let _ = writeln!(t, "\nUse it: probe-cli estimate step ... --profile {}", out.display());
    t
}
