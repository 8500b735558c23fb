//! The README's tables of the step replay: every run, then the figures by regime, then the headline.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use estimator_core::terms::Terms;
use estimator_core::{Fabric, Scenario, SyncStrategy, estimate_step};

use super::super::Spread;
use super::Run;
use super::fold::{VARIANTS, variant_steps};
use super::replay::{Prediction, StepReplay, within_factor};

/// The factor on the added time: a prediction within 1.5x of the measured added time (either way) is
/// counted as right.
pub const ADDED_FACTOR: f64 = 1.5;

/// The dimensions a run's regime is told by, each with the run's value.
pub fn regimes(r: &StepReplay) -> [(&'static str, String); 6] {
    let l = r.scenario.layout();
    let mut layout = match l.sync {
        SyncStrategy::Ddp => "DDP",
        SyncStrategy::Zero1 | SyncStrategy::Zero2 => "ZeRO-1/2",
        SyncStrategy::Zero3 => "FSDP/ZeRO-3",
        SyncStrategy::Hsdp => "HSDP",
    }
    .to_string();
    for (name, degree) in [("TP", l.tp), ("PP", l.pp), ("EP", l.ep)] {
        if degree > 1 {
            let _ = write!(layout, " + {name}");
        }
    }
    let fabric = match r.run.input.fabric {
        Fabric::Infiniband => "InfiniBand",
        Fabric::Roce => "RoCE",
        Fabric::Tcp => "TCP sockets",
        Fabric::Rdma => "other RDMA (Slingshot)",
        _ => "cloud fabric",
    };
    let nodes = match r.scenario.nodes() {
        0..=2 => "2",
        3..=8 => "3-8",
        9..=32 => "9-32",
        _ => "33+",
    };
    let set = if r.run.fitted.is_empty() { "held out (nothing fitted)" } else { "fitted (predicted without it)" };
    [
        ("runs", set.to_string()),
        ("layout", layout),
        ("GPUs per node", r.scenario.gpus_per_node().to_string()),
        ("fabric", fabric.to_string()),
        ("nodes", nodes.to_string()),
        ("framework as modelled (a bucket given stands)", r.scenario.framework().label().to_string()),
    ]
}

fn pct(e: f64) -> String {
    format!("{:+.0}%", e * 100.0)
}

fn time(s: f64) -> String {
    if s.abs() >= 1.0 { format!("{s:.2} s") } else { format!("{:.1} ms", s * 1000.0) }
}

fn with_error(s: f64, e: Option<f64>) -> String {
    match e {
        Some(e) => format!("{} ({})", time(s), pct(e)),
        None => format!("{} (noise)", time(s)),
    }
}

/// Median and largest |error| as "2.1% / 9.8%"; "-" for none.
fn spread(errors: impl IntoIterator<Item = f64>) -> String {
    Spread::of(errors).map_or_else(|| "-".to_string(), |s| format!("{:.1}% / {:.1}%", s.median * 100.0, s.max * 100.0))
}

/// How many runs above noise a prediction puts within [`ADDED_FACTOR`] of the measured added time: (within,
/// scored).
pub fn added_within<'a>(
    replays: impl IntoIterator<Item = &'a StepReplay>,
    p: impl Fn(&StepReplay) -> &Prediction,
) -> (usize, usize) {
    let flags: Vec<bool> = replays.into_iter().filter_map(|r| r.added_within(p(r), ADDED_FACTOR)).collect();
    (flags.iter().filter(|f| **f).count(), flags.len())
}

fn share(counts: (usize, usize)) -> String {
    if counts.1 == 0 {
        "-".to_string()
    } else {
        format!("{} of {} ({:.0}%)", counts.0, counts.1, counts.0 as f64 * 100.0 / counts.1 as f64)
    }
}

/// Every run: measured, the model in sample and out of source, the two baselines, and the split.
pub fn runs_markdown(replays: &[StepReplay]) -> String {
    let mut t = String::from(
        "| run | layout | GPUs | fabric | fitted | step measured | in sample | out of source | its range | no overlap \
         | seed | added measured (noise) | out of source | seed | collectives / overlap |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in replays {
        let i = &r.run.input;
        let fabric = format!("{} x {} Gb/s {}", i.adapters_per_node, i.link_gbps, i.fabric.name());
        let step = |p: &Prediction| format!("{} ({})", time(p.step_s), pct(r.step_error(p)));
        let split = match (r.split.as_ref(), r.split_errors()) {
            (Some(s), Some((c, o))) => format!("{} / {} ({} {})", pct(c), pct(o), s.curve, pct(s.collective_error)),
            (Some(s), None) => format!("noise ({} {})", s.curve, pct(s.collective_error)),
            (None, _) => "no curve".to_string(),
        };
        let range = match super::range::out_of_source_range(r, replays, &super::range::POOLINGS[0]) {
            Some((lo, hi)) => {
                let inside = (lo..=hi).contains(&super::range::ratio(r));
                let p = r.out_of_source.step_s;
                format!("{} to {}{}", time(p * lo), time(p * hi), if inside { "" } else { " (outside)" })
            }
            None => "-".to_string(),
        };
        let _ = writeln!(
            t,
            "| [{}]({}) | {} | {} x {} | {} | {} | {} | {} | {} | {range} | {} | {} | {} ({}) | {} | {} | {} |",
            r.run.id,
            r.run.source,
            r.layout,
            r.scenario.nodes(),
            r.scenario.gpus_per_node(),
            fabric,
            if r.run.fitted.is_empty() { "no" } else { "yes" },
            time(r.run.measured_step_s),
            step(&r.in_sample),
            step(&r.out_of_source),
            step(&r.no_overlap),
            format_args!("{} ({})", time(r.seed_step_s()), pct(r.seed_step_error())),
            time(r.measured_added_s()),
            time(r.run.noise_s),
            with_error(r.out_of_source.added_s(), r.added_error(&r.out_of_source)),
            with_error(r.seed_added_s, r.seed_added_error()),
            split,
        );
    }
    t
}

/// The figures by regime: for each dimension's value, the runs, their sources, the step's median / largest
/// |error| of each model, and the added time within 1.5x.
pub fn regimes_markdown(replays: &[StepReplay]) -> String {
    let mut t = String::from(
        "| regime | runs | sources | step, out of source | in sample | no overlap | seed | added within 1.5x, \
         out of source | in sample |\n|---|---:|---:|---|---|---|---|---|---|\n",
    );
    let dims: Vec<[(&'static str, String); 6]> = replays.iter().map(regimes).collect();
    for d in 0..dims.first().map_or(0, |r| r.len()) {
        let values: BTreeSet<&str> = dims.iter().map(|r| r[d].1.as_str()).collect();
        for v in values {
            let set: Vec<&StepReplay> =
                replays.iter().zip(&dims).filter(|(_, r)| r[d].1 == v).map(|(rep, _)| rep).collect();
            let sources: BTreeSet<String> = set.iter().map(|r| r.run.source_key()).collect();
            let step = |p: fn(&StepReplay) -> &Prediction| spread(set.iter().map(|r| r.step_error(p(r))));
            let _ = writeln!(
                t,
                "| {}: {v} | {} | {} | {} | {} | {} | {} | {} | {} |",
                dims[0][d].0,
                set.len(),
                sources.len(),
                step(|r| &r.out_of_source),
                step(|r| &r.in_sample),
                step(|r| &r.no_overlap),
                spread(set.iter().map(|r| r.seed_step_error())),
                share(added_within(set.iter().copied(), |r| &r.out_of_source)),
                share(added_within(set.iter().copied(), |r| &r.in_sample)),
            );
        }
    }
    t
}

/// The headline: the out-of-source figures first, then in sample and the baselines, against the issue's
/// targets.
pub fn summary(replays: &[StepReplay]) -> String {
    let sources: BTreeSet<String> = replays.iter().map(|r| r.run.source_key()).collect();
    let documents: BTreeSet<String> = replays.iter().map(|r| r.run.document_key()).collect();
    let fitted = replays.iter().filter(|r| !r.run.fitted.is_empty()).count();
    let step = |p: fn(&StepReplay) -> &Prediction| spread(replays.iter().map(|r| r.step_error(p(r))));
    let added = |p: fn(&StepReplay) -> &Prediction| {
        let (within, scored) = added_within(replays.iter(), p);
        let errors = spread(replays.iter().filter_map(|r| r.added_error(p(r))));
        format!("within 1.5x on {}, |error| {errors}", share((within, scored)))
    };
    let seed_added = spread(replays.iter().filter_map(StepReplay::seed_added_error));
    let splits: Vec<(f64, f64)> = replays.iter().filter_map(StepReplay::split_errors).collect();
    let beyond = replays.iter().filter(|r| !r.within_noise() && r.no_overlap.step_s < r.run.measured_step_s).count();
    let scored = replays.iter().filter(|r| !r.within_noise()).count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} runs from {} sources ({} documents); {fitted} of them name rules shaped beside their source and are \
         predicted out of source without them; the per-rank variation is fitted on every run, and fitted again \
         without each source to predict it. Which terms the model has was decided on these same runs (each stays \
         only if it lowers the out-of-source error), so runs collected after a term are its real check. Figures \
         are median / largest |error|.\n",
        replays.len(),
        sources.len(),
        documents.len()
    );
    let _ = writeln!(
        s,
        "- **Out of source: step {}; added time {}.** The targets (issue 26) are a step median of at most 5% and a \
         largest error of at most 15%, and the added time within 1.5x on at least 70% of the runs above their noise.",
        step(|r| &r.out_of_source),
        added(|r| &r.out_of_source),
    );
    let _ = writeln!(
        s,
        "- In sample (the model as shipped): step {}; added time {}.",
        step(|r| &r.in_sample),
        added(|r| &r.in_sample)
    );
    let _ = writeln!(
        s,
        "- Baselines: compute plus all communication, step {}; added time {}. The seed's arithmetic, step {}; \
         added time |error| {seed_added}.",
        step(|r| &r.no_overlap),
        added(|r| &r.no_overlap),
        spread(replays.iter().map(StepReplay::seed_step_error)),
    );
    let _ = writeln!(
        s,
        "- The split, on the {} runs above noise with a measured curve of their hardware: the collectives' part \
         {}, the overlap's {}.",
        splits.len(),
        spread(splits.iter().map(|x| x.0)),
        spread(splits.iter().map(|x| x.1)),
    );
    let _ = writeln!(
        s,
        "- {beyond} of the {scored} runs above noise add more than the model's whole communication out of source \
         (the no-overlap step is below the measured one): no overlap explains them."
    );
    s
}

/// One model's out-of-source figures over `runs`, from each run's (step, compute): step |error| over all runs
/// and over the held-out ones, and the added time within 1.5x.
pub fn variant_figures(runs: &[Run], steps: &[(f64, f64)]) -> (String, String, (usize, usize)) {
    let err = |(r, (step, _)): (&Run, &(f64, f64))| step / r.measured_step_s - 1.0;
    let all = spread(runs.iter().zip(steps).map(err));
    let held = spread(runs.iter().zip(steps).filter(|(r, _)| r.fitted.is_empty()).map(err));
    let flags: Vec<bool> = runs
        .iter()
        .zip(steps)
        .filter(|(r, _)| r.measured_step_s - r.baseline_step_s >= r.noise_s)
        .map(|(r, (step, compute))| within_factor(step - compute, r.measured_step_s - r.baseline_step_s, ADDED_FACTOR))
        .collect();
    (all, held, (flags.iter().filter(|f| **f).count(), flags.len()))
}

/// The terms tried: each [`VARIANTS`] model out of source, the model first.
pub fn terms_markdown(runs: &[Run]) -> Result<String, String> {
    let mut t = String::from(
        "| model, out of source | what changes | step, all runs | step, held-out runs | added within 1.5x |\n\
         |---|---|---|---|---|\n",
    );
    for v in &VARIANTS {
        let (all, held, within) = variant_figures(runs, &variant_steps(v, runs)?);
        let _ = writeln!(t, "| {} | {} | {all} | {held} | {} |", v.name, v.basis, share(within));
    }
    Ok(t)
}

/// The README's first word on accuracy: the out-of-source figures, then the in-sample one beside them.
pub fn headline(replays: &[StepReplay], later: &[Run]) -> Result<String, String> {
    let sources: BTreeSet<String> = replays.iter().map(|r| r.run.source_key()).collect();
    let oos = Spread::of(replays.iter().map(|r| r.step_error(&r.out_of_source)));
    let ins = Spread::of(replays.iter().map(|r| r.step_error(&r.in_sample)));
    let (within, scored) = added_within(replays.iter(), |r| &r.out_of_source);
    let pct =
        |s: Option<Spread>, f: fn(&Spread) -> f64| s.map_or("-".to_string(), |s| format!("{:.1}%", f(&s) * 100.0));
    let steps = later_steps(later, Terms::SHIPPED)?;
    let after = Spread::of(later.iter().zip(&steps).map(|(r, (step, _))| step / r.measured_step_s - 1.0));
    let range = super::range::out_of_source_coverage(replays, &super::range::POOLINGS[0])?;
    let later_range = super::range::later_coverage(later)?;
    Ok(format!(
        "**How close it is.** Each of {} public multi-node training runs from {} sources, predicted out of source \
         (without the rules shaped beside its source, the fitted constant fitted again without it): the step is \
         off by {} at the median and {} at most, and the time the run adds over its compute is within 1.5x on \
         {within} of the {scored} runs where it is above noise. In sample (the model as shipped, its terms shaped \
         on or fitted to these runs) the median is {}: that figure says little on its own, and which terms the \
         model has was chosen on these same runs. On {} runs collected after the terms were chosen, scored as \
         shipped with nothing fitted on them, the step is off by {} at the median and {} at most. Every step \
         comes with a range, {} to {} of the point: it holds the measured step on {} of the {} runs out of source \
         (each run's range from the other sources' runs) and on {} of the {} later runs. \
         [The step replay](#the-step-against-public-training-runs) has every run, by regime.",
        replays.len(),
        sources.len(),
        pct(oos, |s| s.median),
        pct(oos, |s| s.max),
        pct(ins, |s| s.median),
        later.len(),
        pct(after, |s| s.median),
        pct(after, |s| s.max),
        estimator_core::accuracy::STEP_RANGE_LOW,
        estimator_core::accuracy::STEP_RANGE_HIGH,
        range.inside,
        range.runs,
        later_range.inside,
        later_range.runs,
    ))
}

/// Everything the README shows: the headline, the terms tried, the step's range, the regimes, the runs.
pub fn markdown(replays: &[StepReplay], runs: &[Run]) -> Result<String, String> {
    let later = super::load_runs(&super::later_path())?;
    Ok(format!(
        "{}\n{}\n{}\n{}\n{}",
        summary(replays),
        terms_markdown(runs)?,
        super::range::markdown(replays, &later)?,
        regimes_markdown(replays),
        runs_markdown(replays)
    ))
}

/// The models the later runs are scored with: each of [`VARIANTS`] made from the shipped terms, nothing fitted
/// on the runs (the model first).
pub fn later_models() -> Vec<(&'static str, Terms)> {
    VARIANTS.iter().map(|v| (v.name, (v.make)(Terms::SHIPPED))).collect()
}

/// Each later run's (step, compute) under `terms`.
pub fn later_steps(runs: &[Run], terms: Terms) -> Result<Vec<(f64, f64)>, String> {
    runs.iter()
        .map(|r| {
            let s = Scenario::new(r.input.clone()).map_err(|e| format!("{}: {e}", r.id))?.with_terms(terms);
            let e = estimate_step(&s);
            Ok((e.step_s.as_secs(), e.compute_s.as_secs()))
        })
        .collect()
}

/// The runs collected after the terms: each model's figures, then every run as shipped.
pub fn later_markdown(runs: &[Run]) -> Result<String, String> {
    let sources: BTreeSet<String> = runs.iter().map(Run::source_key).collect();
    let mut t = format!(
        "{} runs from {} sources, collected after the terms were chosen; scored with each model as it is, nothing \
         fitted on them.\n\n| model | step, all runs | added within 1.5x |\n|---|---|---|\n",
        runs.len(),
        sources.len()
    );
    for (name, terms) in later_models() {
        let (all, _, within) = variant_figures(runs, &later_steps(runs, terms)?);
        let _ = writeln!(t, "| {name} | {all} | {} |", share(within));
    }
    t.push_str(
        "\n| run | GPUs | fabric | step measured | model | added measured (noise) | model |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (r, (step, compute)) in runs.iter().zip(later_steps(runs, Terms::SHIPPED)?) {
        let i = &r.input;
        let added = r.measured_step_s - r.baseline_step_s;
        let err = (added >= r.noise_s).then(|| (step - compute) / added - 1.0);
        let _ = writeln!(
            t,
            "| [{}]({}) | {} x {} | {} x {} Gb/s {} | {} | {} ({}) | {} ({}) | {} |",
            r.id,
            r.source,
            i.nodes,
            i.gpus_per_node,
            i.adapters_per_node,
            i.link_gbps,
            i.fabric.name(),
            time(r.measured_step_s),
            time(step),
            pct(step / r.measured_step_s - 1.0),
            time(added),
            time(r.noise_s),
            with_error(step - compute, err),
        );
    }
    Ok(t)
}
