//! `calibrate` on public clusters: for each public cluster measured at several node counts (the calibration replay's
//! healthy tables, grouped by source and hardware), fit a profile on the other node counts and predict each one
//! left out, against the model alone on the same rows. The profile must be closer on the rows it was not fitted
//! on, not only on those it was; `cargo test -p tests --test profile -- --nocapture` prints the table.

use std::collections::BTreeMap;

use estimator_core::calibrate::{CalibrationRun, calibrate};
use estimator_core::collective::collective;
use estimator_core::import::NcclTestsRun;
use estimator_core::import::nccl_tests::NcclTestsRow;
use estimator_core::{Bytes, Scenario};
use tests::calibration::curves::{Table, curves_path, load_tables, scored};
use tests::calibration::{calibration_path, load};

/// A table as the nccl-tests run it was read from (its rows, its rank count).
fn as_run(t: &Table) -> NcclTestsRun {
    let ranks = t.scenario.participants();
    let rows = t
        .rows
        .iter()
        .map(|m| {
            let algbw = m.size_bytes / (1000.0 * m.time_us);
            NcclTestsRow {
                size_bytes: m.size_bytes,
                time_us: m.time_us,
                algbw_gbs: algbw,
                busbw_gbs: algbw * t.op.busbw_factor(ranks),
                ..Default::default()
            }
        })
        .collect();
    NcclTestsRun { test: Some(format!("{}_perf", t.op.name())), ranks: Some(ranks), rows, ..Default::default() }
}

/// A cluster measured at several node counts with the same settings: its id with the node count taken out
/// (`amd-mi325x-2node-ring-bnxt` and `-8node-` are one cluster, `amd-mi325x-ring-bnxt`). Runs of one source at
/// other settings or on other machines (nccl-tests#309's VMs, a Ring-forced run) have other ids, so other keys.
fn cluster(id: &str) -> String {
    id.split('-')
        .filter(|w| !(w.ends_with("node") && w[..w.len() - 4].chars().all(|c| c.is_ascii_digit())))
        .collect::<Vec<_>>()
        .join("-")
}

fn hardware(s: &Scenario) -> String {
    let i = s.input();
    format!(
        "{} {}x{} {}x{} {}",
        s.gpu().key,
        s.gpus_per_node(),
        i.gpu,
        i.adapters_per_node,
        i.link_gbps,
        i.fabric.name()
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

#[test]
fn a_profile_fitted_on_some_node_counts_predicts_the_others_better_than_the_model() {
    let path = calibration_path();
    let points = load(&path).expect("calibration file reads");
    let tables = load_tables(&points, &path, &curves_path()).expect("tables read");
    // Multi-node healthy tables, by (source, hardware).
    let mut clusters: BTreeMap<(String, String), Vec<&Table>> = BTreeMap::new();
    for t in tables.iter().filter(|t| scored(t) && t.scenario.nodes() > 1) {
        clusters.entry((cluster(&t.id), hardware(&t.scenario))).or_default().push(t);
    }
    let mut model_all = Vec::new();
    let mut cal_all = Vec::new();
    let mut groups = 0;
    println!("| cluster | left out | fitted on | rows | model | calibrated |\n|---|---|---|---:|---:|---:|");
    for ((src, hw), ts) in &clusters {
        let mut counts: Vec<u32> = ts.iter().map(|t| t.scenario.nodes()).collect();
        counts.sort_unstable();
        counts.dedup();
        if counts.len() < 2 {
            continue;
        }
        groups += 1;
        for &n in &counts {
            let fit_on: Vec<&&Table> = ts.iter().filter(|t| t.scenario.nodes() != n).collect();
            let runs: Vec<NcclTestsRun> = fit_on.iter().map(|t| as_run(t)).collect();
            let inputs: Vec<CalibrationRun<'_>> =
                fit_on.iter().zip(&runs).map(|(t, r)| CalibrationRun { file: t.id.clone(), run: r }).collect();
            let (profile, refused) = calibrate(&fit_on[0].scenario, &inputs);
            let Some(profile) = profile else { panic!("{src}: nothing fitted: {refused:?}") };
            let profile: &'static _ = Box::leak(Box::new(profile));
            let mut model_err = Vec::new();
            let mut cal_err = Vec::new();
            for t in ts.iter().filter(|t| t.scenario.nodes() == n) {
                let corrected = profile.apply(t.scenario.clone()).expect("same hardware");
                for m in &t.rows {
                    let b = Bytes::new(m.size_bytes);
                    model_err.push((collective(&t.scenario, t.op, b).time_us / m.time_us - 1.0).abs());
                    cal_err.push((collective(&corrected, t.op, b).time_us / m.time_us - 1.0).abs());
                }
            }
            let fitted: Vec<String> = fit_on.iter().map(|t| t.scenario.nodes().to_string()).collect();
            println!(
                "| {src} ({hw}) | {n} nodes | {} nodes | {} | {:.1}% | {:.1}% |",
                fitted.join(", "),
                model_err.len(),
                median(model_err.clone()) * 100.0,
                median(cal_err.clone()) * 100.0
            );
            model_all.extend(model_err);
            cal_all.extend(cal_err);
        }
    }
    let (m, c) = (median(model_all.clone()), median(cal_all.clone()));
    println!(
        "\nAll left-out rows ({}): the model {:.1}%, calibrated {:.1}% median |error| of the time",
        cal_all.len(),
        m * 100.0,
        c * 100.0
    );
    assert!(groups >= 2, "{groups} public clusters with several node counts");
    assert!(c < m, "on rows it was not fitted on the profile ({c:.3}) must beat the model alone ({m:.3})");
}
