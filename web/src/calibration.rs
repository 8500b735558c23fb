//! Several nccl-tests outputs loaded at once into "Your node": a profile of the user's cluster (estimator-core's
//! `calibrate`, as `probe-cli calibrate` fits it) for the chosen scenario's hardware, with its left-out
//! validation, the scenario's step with and without it, and the measured, model and calibrated curves. Drawn in the
//! details worker; nothing in the page's state changes (the profile is the runs', not the link's).

use estimator_core::calibrate::{CalibrationRun, Profile, calibrate};
use estimator_core::collective::collective;
use estimator_core::import::NcclTestsRun;
use estimator_core::{Bytes, estimate_step, human};

use crate::curve::{Line, lines_figure};
use crate::html;
use crate::html::Html;
use crate::share::{PageState, Side};

/// The profile of `runs` for side `side` of the page state in `query`, as status markup.
pub fn section(query: &str, side: Side, runs: &[(String, NcclTestsRun)], skipped: &[String]) -> Html {
    let mut h = Html::new();
    let (state, _) = PageState::from_query(query);
    let form = if side == Side::A { state.a } else { state.b };
    let Ok(s) = form.to_scenario() else {
        html!(
            h,
            r#"<p id="calibration-summary">Fix scenario {}'s inputs to calibrate on its hardware.</p>"#,
            side.label()
        );
        return h;
    };
    let s = s.with(|i| i.measured_busbw_gbs = None).unwrap_or(s);
    let inputs: Vec<CalibrationRun<'_>> =
        runs.iter().map(|(name, run)| CalibrationRun { file: name.clone(), run }).collect();
    let (profile, refused) = calibrate(&s, &inputs);
    let Some(profile) = profile else {
        html!(
            h,
            r#"<p id="calibration-summary">None of the {} runs calibrates scenario {}'s hardware:</p><ul id="calibration-refused">"#,
            runs.len(),
            side.label()
        );
        for r in &refused {
            html!(h, "<li>{}: {}</li>", r.file, r.reason);
        }
        h.push_static("</ul>");
        return h;
    };
    // The worker keeps no profile between requests: this one lives as long as the page, like a CLI's.
    let profile: &'static Profile = Box::leak(Box::new(profile));
    let hw = &profile.hardware;
    html!(
        h,
        r#"<p id="calibration-summary">Profile of your cluster for scenario {}'s hardware ({} × {} per node, {} × {} Gb/s {}): {}.</p>"#,
        side.label(),
        hw.gpus_per_node,
        s.gpu().name,
        hw.adapters_per_node,
        human::num(hw.link_gbps, 3),
        hw.fabric.name(),
        profile.summary()
    );
    // The scenario it came from, with and without the profile.
    if let Ok(corrected) = profile.apply(s.clone()) {
        let (m, c) = (estimate_step(&s), estimate_step(&corrected));
        // What the profile does on this scenario's own node count, when it is not what it measured.
        let describe = profile.describe(&corrected, estimator_core::collective::Op::AllReduce);
        let here = describe.strip_prefix(profile.summary().as_str()).unwrap_or_default().trim_start_matches("; ");
        let here = if here.is_empty() { String::new() } else { format!(" ({here})") };
        html!(
            h,
            r#"<p id="calibration-step">Scenario {}'s step with the profile{}: {} against {} by the model alone; communication {} against {}, of which exposed {} against {}.</p>"#,
            side.label(),
            here,
            human::secs(c.step_s),
            human::secs(m.step_s),
            human::secs(c.comm_s),
            human::secs(m.comm_s),
            human::secs(c.exposed_comm_s),
            human::secs(m.exposed_comm_s)
        );
    }
    h.push_static(
        r#"<table id="calibration-corrections"><caption>Corrections: measured over modelled bus bandwidth (the model's time is divided by it)</caption><thead><tr><th scope="col">collective</th><th scope="col">nodes × GPUs</th><th scope="col">runs</th><th scope="col">rows</th><th scope="col">smallest sizes</th><th scope="col">largest sizes</th><th scope="col">fitted error</th></tr></thead><tbody>"#,
    );
    for c in &profile.corrections {
        html!(
            h,
            "<tr><td>{}</td><td>{} × {}</td><td>{}</td><td>{}</td><td>×{}</td><td>×{}</td><td>{}</td></tr>",
            c.op.name(),
            c.nodes,
            c.gpus_per_node,
            c.runs,
            c.rows,
            human::num(c.small_ratio, 2),
            human::num(c.large_ratio, 2),
            human::pct(c.fitted_error)
        );
    }
    h.push_static("</tbody></table>");
    match &profile.validation {
        Some(v) => {
            html!(
                h,
                r#"<table id="calibration-validation"><caption>Each run left out and predicted from the others ({} runs, {} rows): median |error| of the time</caption><thead><tr><th scope="col">collective</th><th scope="col">size band</th><th scope="col">rows</th><th scope="col">model alone</th><th scope="col">calibrated</th></tr></thead><tbody>"#,
                v.runs,
                v.rows
            );
            for b in &v.bands {
                html!(
                    h,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    b.op.name(),
                    b.band,
                    b.rows,
                    human::pct(b.model_error),
                    human::pct(b.calibrated_error)
                );
            }
            h.push_static("</tbody></table>");
        }
        None => h.push_static(
            r#"<p id="calibration-validation">One run: nothing to leave out, so the profile is not validated; add a replicate.</p>"#,
        ),
    }
    for n in &profile.notes {
        html!(h, r#"<p class="warn">{}.</p>"#, n);
    }
    h.push(&figure(side, profile, &s, runs));
    if !refused.is_empty() || !skipped.is_empty() {
        h.push_static(r#"<p>Not used:</p><ul id="calibration-refused">"#);
        for r in &refused {
            html!(h, "<li>{}: {}</li>", r.file, r.reason);
        }
        for s in skipped {
            html!(h, "<li>{}</li>", s);
        }
        h.push_static("</ul>");
    }
    h
}

/// The correction with the most runs, drawn: every measured row of its runs, the model's curve and the calibrated
/// one at the same sizes.
fn figure(side: Side, p: &'static Profile, s: &estimator_core::Scenario, runs: &[(String, NcclTestsRun)]) -> Html {
    let Some(c) = p.corrections.iter().max_by_key(|c| c.runs) else { return Html::new() };
    let Ok(on) = s.with(|i| {
        i.nodes = i64::from(c.nodes);
        i.gpus_per_node = i64::from(c.gpus_per_node);
    }) else {
        return Html::new();
    };
    let Ok(corrected) = p.apply(on.clone()) else { return Html::new() };
    let used: Vec<&NcclTestsRun> = runs
        .iter()
        .filter(|(name, r)| {
            p.files.contains(name) && r.op() == Some(c.op) && r.ranks == Some(c.nodes * c.gpus_per_node)
        })
        .map(|(_, r)| r)
        .collect();
    let mut measured: Vec<(f64, f64)> = used
        .iter()
        .flat_map(|r| r.rows.iter().map(|x| (x.size_bytes, x.busbw_gbs)))
        .filter(|(b, v)| *b >= 1.0 && *v > 0.0)
        .collect();
    measured.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut sizes: Vec<f64> = measured.iter().map(|m| m.0).collect();
    sizes.dedup();
    // One measured value per size: the median of the runs'.
    let med: Vec<(f64, f64)> = sizes
        .iter()
        .map(|&b| {
            let mut v: Vec<f64> = measured.iter().filter(|m| m.0 == b).map(|m| m.1).collect();
            v.sort_by(f64::total_cmp);
            (b, v[v.len() / 2])
        })
        .collect();
    let busbw = |sc: &estimator_core::Scenario| -> Vec<(f64, f64)> {
        sizes.iter().map(|&b| (b, collective(sc, c.op, Bytes::new(b)).busbw_gbs)).collect()
    };
    let what = format!("{} on {} × {} GPUs, bus bandwidth", c.op.name(), c.nodes, c.gpus_per_node);
    let side_line = if side == Side::A { "line-a" } else { "line-b" };
    lines_figure(
        "calibration-curve",
        &what,
        &[
            Line { class: "line-measured", label: "measured (median of the runs)", points: med },
            Line { class: "line-model", label: "model", points: busbw(&on) },
            Line { class: side_line, label: "calibrated", points: busbw(&corrected) },
        ],
    )
}
