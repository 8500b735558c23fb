//! Leave one source out: the model a source's runs are predicted with, made without anything taken from them.
//!
//! A fold is one source. Its model is the shipped one with the rules its runs name in `fitted` switched off
//! ([`rule_terms`]), and with every constant fitted on runs fitted again on the runs of the other sources, each
//! predicted by that same fold's model ([`fit_rank_variation`]). One constant is fitted on runs today: the
//! per-rank variation of the compute ([`estimator_core::straggler`]).

use estimator_core::straggler::wait_share;
use estimator_core::terms::Terms;
use estimator_core::{Scenario, estimate_step};

use super::Run;

/// The per-rank variations searched, from 0 by this step up to [`RANK_VARIATION_MAX`].
pub const RANK_VARIATION_STEP: f64 = 0.001;
/// The largest per-rank variation searched: Sinha et al.'s largest cluster average (22%, `straggler.rs`)
/// is a spread between GPUs, wider than a coefficient of variation; 10% bounds it.
pub const RANK_VARIATION_MAX: f64 = 0.10;

/// The shipped terms without the rules fitted to `run`'s source (any run of it naming them). `Err` names a term
/// the model does not have.
pub fn rule_terms(run: &Run, runs: &[Run]) -> Result<Terms, String> {
    let key = run.source_key();
    let mut terms = Terms::SHIPPED;
    for r in runs.iter().filter(|r| r.source_key() == key).chain([run]) {
        for id in &r.fitted {
            terms = terms.without(id).ok_or_else(|| format!("{}: fitted names an unknown term '{id}'", r.id))?;
        }
    }
    Ok(terms)
}

/// The per-rank variation that best predicts `runs` under `terms` (the other terms as given): the one of least
/// mean |ln(predicted / measured step)| on the grid, the smallest of equals. The wait adds
/// `compute x wait_share(v, ranks, per node)` to each step, so each run is estimated once.
pub fn fit_rank_variation<'a>(runs: impl IntoIterator<Item = &'a Run>, terms: Terms) -> Result<f64, String> {
    let base = Terms { rank_variation: 0.0, ..terms };
    let mut rows = Vec::new();
    for r in runs {
        let s = Scenario::new(r.input.clone()).map_err(|e| format!("{}: {e}", r.id))?.with_terms(base);
        let e = estimate_step(&s);
        rows.push((e.step_s.as_secs(), e.compute_s.as_secs(), s.participants(), s.gpus_per_node(), r.measured_step_s));
    }
    let cost = |v: f64| -> f64 {
        rows.iter()
            .map(|&(step, compute, n, g, measured)| ((step + compute * wait_share(v, n, g)) / measured).ln().abs())
            .sum()
    };
    let steps = (RANK_VARIATION_MAX / RANK_VARIATION_STEP).round() as u32;
    let mut best = (0.0, cost(0.0));
    for i in 1..=steps {
        let v = f64::from(i) * RANK_VARIATION_STEP;
        let c = cost(v);
        if c < best.1 - 1e-12 {
            best = (v, c);
        }
    }
    Ok(best.0)
}

/// A model scored out of source: the fold's rules, changed by `make`, with the per-rank variation fitted again
/// on the other sources where `fit` says so.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// What it is.
    pub name: &'static str,
    /// Where its change comes from.
    pub basis: &'static str,
    /// The fold's terms from its rules.
    pub make: fn(Terms) -> Terms,
    /// Whether the per-rank variation is fitted on the other sources.
    pub fit: bool,
}

/// The model, the terms tried beside it and the baseline, as the README's "Terms tried" table scores them.
pub const VARIANTS: [Variant; 5] = [
    Variant {
        name: "the model",
        basis: "the shipped terms, the per-rank variation fitted on the other sources",
        make: |t| t,
        fit: true,
    },
    Variant {
        name: "without the wait for the slowest rank",
        basis: "the per-rank variation at 0",
        make: |t| Terms { rank_variation: 0.0, ..t },
        fit: false,
    },
    Variant {
        name: "with compute slowed beside communication",
        basis: "18.9% of the hidden communication: Lee et al., arXiv 2507.03114, abstract (\"an average \
                computational slowdown of 18.9%, with a maximum of 40.0%\")",
        make: |t| Terms { interference: 0.189, ..t },
        fit: true,
    },
    Variant {
        name: "without the schedule",
        basis: "nothing hidden, the per-rank variation fitted",
        make: |t| Terms { schedule: false, ..t },
        fit: true,
    },
    BASELINE,
];

/// The model with nothing hidden and none of the step's own terms, compute plus all communication: the
/// baseline every term must beat.
pub const BASELINE: Variant = Variant {
    name: "nothing hidden, no wait (the baseline)",
    basis: "compute plus all communication",
    make: |t| Terms { schedule: false, interference: 0.0, rank_variation: 0.0, ..t },
    fit: false,
};

/// The terms `run` is predicted with out of source by `variant`: its fold's rules ([`rule_terms`]) changed by
/// the variant, with the per-rank variation fitted on the runs of every other source under them.
pub fn variant_terms(variant: &Variant, run: &Run, runs: &[Run]) -> Result<Terms, String> {
    let terms = (variant.make)(rule_terms(run, runs)?);
    if !variant.fit {
        return Ok(terms);
    }
    let key = run.source_key();
    let v = fit_rank_variation(runs.iter().filter(|r| r.source_key() != key), terms)?;
    Ok(Terms { rank_variation: v, ..terms })
}

/// The terms `run` is predicted with out of source: the model's ([`VARIANTS`]' first).
pub fn out_of_source_terms(run: &Run, runs: &[Run]) -> Result<Terms, String> {
    variant_terms(&VARIANTS[0], run, runs)
}

/// Each run's step and compute under `variant`, out of source, in the order of `runs`; each source's fold is
/// made once.
pub fn variant_steps(variant: &Variant, runs: &[Run]) -> Result<Vec<(f64, f64)>, String> {
    let mut folds: std::collections::HashMap<String, Terms> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(runs.len());
    for r in runs {
        let key = r.source_key();
        let terms = match folds.get(&key) {
            Some(t) => *t,
            None => {
                let t = variant_terms(variant, r, runs)?;
                folds.insert(key, t);
                t
            }
        };
        let s = Scenario::new(r.input.clone()).map_err(|e| format!("{}: {e}", r.id))?.with_terms(terms);
        let e = estimate_step(&s);
        out.push((e.step_s.as_secs(), e.compute_s.as_secs()));
    }
    Ok(out)
}
