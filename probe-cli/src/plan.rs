//! `probe-cli plan`: what should I rent? The job on every node offer (estimator-core's `plan::plan`), with the
//! prices the user gives on the command line or in a CSV or JSON file; `--list` shows the offers and their sources.

use std::fmt::Write as _;
use std::path::Path;

use estimator_core::offer::{NodeOffer, OFFERS};
use estimator_core::plan::{
    OfferPlan, Plan, PlanInput, PriceRow, RawRow, parse_price_arg, parse_prices, plan as run_plan,
};
use estimator_core::{ComputeInput, ScenarioInput, human};
use serde::Serialize;
use serde_json::Value;

use crate::cli::PlanArgs;
use crate::files::read_text;
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};
use crate::scenario::{job_template, usage};

/// The largest prices file read: 1 MiB (a thousand offers fit in a tenth of it).
const MAX_PRICES_BYTES: usize = 1 << 20;

/// `plan --json`: the plan, flat, with the job and what was asked.
#[derive(Serialize)]
struct PlanDocument<'a> {
    #[serde(flatten)]
    plan: &'a Plan,
    /// The job (its hardware is each offer's).
    input: &'a ScenarioInput,
    /// The deadline, seconds.
    deadline_s: Option<f64>,
    /// The most nodes tried per offer.
    max_nodes: i64,
    /// Whether every synchronisation was tried.
    best_layout: bool,
    /// The GPUs the tokens per step are for, under `keep-per-gpu` (null under `keep-global`).
    batch_gpus: Option<u32>,
    /// With `--profile`: what it is and which offers it corrected (`offers[].calibrated`).
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<String>,
}

/// The GPUs `--tokens-per-step` is for when `--batch keep-per-gpu` is given without `--batch-gpus`: two nodes of 8,
/// the reference job's.
const DEFAULT_BATCH_GPUS: u32 = 16;

/// `plan --list --json`.
#[derive(Serialize)]
struct ListDocument {
    offers: Vec<NodeOffer>,
}

/// Runs `plan`. A plan is an answer, never a finding: exit 0 whatever it says.
pub fn plan(a: &PlanArgs) -> Result<Outcome, Failure> {
    if a.list {
        return list(a.json);
    }
    let mut prices = Vec::new();
    if let Some(path) = &a.prices {
        prices.extend(read_prices(path)?);
    }
    for p in &a.price {
        prices.push(parse_price_arg(p).map_err(|e| Failure::Usage(format!("--price: {e}")))?);
    }
    if a.batch_gpus.is_some() && a.batch != estimator_core::BatchRule::KeepPerGpu {
        return Err(Failure::Usage("--batch-gpus applies to --batch keep-per-gpu only".to_string()));
    }
    let batch_gpus = a.batch_gpus.unwrap_or(DEFAULT_BATCH_GPUS);
    let job = job_template(&a.job, ComputeInput::Tokens { tokens_per_step: a.tokens_per_step, mfu: a.mfu });
    // No --sync: every offer gets the fastest layout that fits it, as --best-layout does (a --sync given is kept).
    let best_layout = a.best_layout || a.job.get(estimator_core::Field::Sync).is_none();
    let input = PlanInput {
        tokens: a.tokens.unwrap_or(0.0),
        deadline_s: a.deadline,
        max_nodes: a.max_nodes,
        best_layout,
        prices,
        only: a.only.clone(),
        batch: a.batch,
        batch_gpus: Some(batch_gpus),
        profile: a.profile.as_deref().map(crate::scenario::load_profile).transpose()?,
    };
    let p = run_plan(&job, &input).map_err(|e| usage(&e))?;
    if a.json {
        print_json(&PlanDocument {
            plan: &p,
            input: &job,
            deadline_s: a.deadline,
            max_nodes: a.max_nodes,
            best_layout,
            batch_gpus: (a.batch == estimator_core::BatchRule::KeepPerGpu).then_some(batch_gpus),
            profile: profile_line(&input, &p),
        })?;
    } else {
        let line = profile_line(&input, &p).map_or(String::new(), |l| format!("Profile: {l}.\n"));
        print_text(&format!("{line}{}", text(&p, &job, a)))?;
    }
    Ok(Outcome::Clean)
}

/// Reads a prices file: JSON (`{"OFFER": USD}` or a list of objects with the CSV's columns) or CSV.
fn read_prices(path: &Path) -> Result<Vec<PriceRow>, Failure> {
    let fail = |e: &dyn std::fmt::Display| Failure::input(format!("--prices {}: {e}", path.display()));
    let text = read_text(path).map_err(|e| fail(&e))?;
    if text.len() > MAX_PRICES_BYTES {
        return Err(fail(&format!("larger than {} KiB; not a prices file", MAX_PRICES_BYTES >> 10)));
    }
    let t = text.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return parse_prices(&text).map_err(|e| fail(&e));
    }
    let v: Value = serde_json::from_str(t).map_err(|e| fail(&e))?;
    let cell = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let mut rows = Vec::new();
    match v {
        Value::Object(map) => {
            for (id, price) in map {
                let raw = RawRow { id: Some(id.clone()), price: cell(&price), ..RawRow::default() };
                rows.push(raw.check(&format!("key '{id}'")).map_err(|e| fail(&e))?);
            }
        }
        Value::Array(items) => {
            for (n, item) in items.iter().enumerate() {
                let at = format!("item {}", n + 1);
                let Value::Object(map) = item else {
                    return Err(fail(&format!("{at}: not an object")));
                };
                let mut raw = RawRow::default();
                for (k, v) in map {
                    let value = cell(v).ok_or_else(|| fail(&format!("{at}, {k}: not a string, number or boolean")))?;
                    if !raw.set(k, value) {
                        return Err(fail(&format!(
                            "{at}, {k}: unknown key (the keys: {})",
                            estimator_core::plan::COLUMNS.join(", ")
                        )));
                    }
                }
                rows.push(raw.check(&at).map_err(|e| fail(&e))?);
            }
        }
        _ => return Err(fail(&"not an object of prices or a list of offers")),
    }
    Ok(rows)
}

/// `plan --list`.
fn list(json: bool) -> Result<Outcome, Failure> {
    if json {
        print_json(&ListDocument { offers: OFFERS.iter().map(NodeOffer::from).collect() })?;
        return Ok(Outcome::Clean);
    }
    let mut t = String::new();
    let _ = writeln!(t, "{:<34} {:<26} {:<22} source", "id", "GPUs", "network");
    for o in &OFFERS {
        let gpu = estimator_core::catalog::lookup(o.gpu).spec().name;
        let _ = writeln!(
            t,
            "{:<34} {:<26} {:<22} {}",
            o.id,
            format!("{} x {gpu}", o.gpus_per_node),
            format!("{} x {} Gb/s {}", o.adapters, human::num(o.link_gbps, 0), o.fabric.name()),
            if o.url.is_empty() { "generic" } else { o.url }
        );
    }
    let _ = writeln!(t, "\n{} offers. No prices: give yours with --price OFFER=USD or --prices FILE.", OFFERS.len());
    print_text(&t)?;
    Ok(Outcome::Clean)
}

fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "-".to_string(), f)
}

/// The plan in words: the job, the answer, one row per offer, and those that cannot take the job.
/// What the profile is and the offers it corrected, or that it matched none.
fn profile_line(input: &PlanInput, p: &Plan) -> Option<String> {
    let prof = input.profile.as_ref()?;
    let hit: Vec<&str> = p.offers.iter().filter(|o| o.calibrated).map(|o| o.id.as_str()).collect();
    let h = &prof.hardware;
    Some(if hit.is_empty() {
        format!(
            "{}; no offer has its hardware ({} x {}, {} x {} Gb/s {}): give yours with --prices to plan it calibrated",
            prof.summary(),
            h.gpus_per_node,
            h.gpu,
            h.adapters_per_node,
            h.link_gbps,
            h.fabric.name()
        )
    } else {
        format!("{}; it corrects {}", prof.summary(), hit.join(", "))
    })
}

fn text(p: &Plan, job: &ScenarioInput, a: &PlanArgs) -> String {
    let mut t = String::new();
    let what = job.model.clone().unwrap_or_else(|| format!("{} parameters", human::params(job.params)));
    let _ = writeln!(
        t,
        "Plan for {what}, {} tokens at {} tokens per step ({} steps{}), MFU {}; up to {} nodes{}{}:",
        human::params(p.tokens),
        human::params(p.tokens_per_step),
        human::count(p.steps as f64),
        match p.batch {
            estimator_core::BatchRule::KeepGlobal => ", the global batch kept on every node count".to_string(),
            estimator_core::BatchRule::KeepPerGpu => {
                format!(
                    " on {} GPUs; the tokens per GPU kept on every node count",
                    a.batch_gpus.unwrap_or(DEFAULT_BATCH_GPUS)
                )
            }
        },
        human::pct(a.mfu),
        a.max_nodes,
        a.deadline.map_or_else(String::new, |d| format!(", deadline {}", human::duration(d))),
        if a.best_layout || a.job.get(estimator_core::Field::Sync).is_none() { ", best layout" } else { "" }
    );
    let _ =
        writeln!(t, "{}. (Ranked by {}.)", p.headline, if p.ranked_by == "cost" { "cost" } else { "time to train" });
    t.push('\n');
    let _ = writeln!(
        t,
        "{:>3}  {:<34} {:>5}  {:<24} {:>9}  {:>7}  {:>18}  {:>10}  {:>7}  {:>10}",
        "#", "offer", "nodes", "layout", "step", "exposed", "time to train", "GPU-hours", "$/GPU-h", "cost"
    );
    let placed: Vec<&OfferPlan> = p.offers.iter().filter(|o| o.nodes.is_some()).collect();
    for (n, o) in placed.iter().enumerate() {
        let late = if o.meets_deadline == Some(false) { " (late)" } else { "" };
        let _ = writeln!(
            t,
            "{:>3}  {:<34} {:>5}  {:<24} {:>9}  {:>7}  {:>18}  {:>10}  {:>7}  {:>10}",
            n + 1,
            o.id,
            o.nodes.map_or_else(String::new, |n| n.to_string()),
            o.layout.clone().unwrap_or_default(),
            opt(o.step_s, |s| human::secs(estimator_core::Seconds::new(s))),
            opt(o.exposed_share, human::pct),
            format!("{}{late}", opt(o.time_to_train_s, human::duration)),
            opt(o.gpu_hours, human::count),
            opt(o.usd_per_gpu_hour, |u| human::num(u, 2)),
            opt(o.cost_usd, human::usd),
        );
    }
    let out: Vec<&OfferPlan> = p.offers.iter().filter(|o| o.nodes.is_none()).collect();
    if !out.is_empty() {
        let _ = writeln!(t, "\nCannot take the job:");
        for o in out {
            let _ = writeln!(t, "  - {}: {}", o.id, o.why.clone().unwrap_or_default());
        }
    }
    let faster: Vec<&&OfferPlan> =
        placed.iter().filter(|o| o.fastest_nodes.is_some() && o.fastest_nodes != o.nodes).collect();
    if !faster.is_empty() {
        let _ = writeln!(t, "\nFaster on more nodes (the fastest count tried, for its GPU-hours):");
        for o in faster {
            let _ = writeln!(
                t,
                "  - {}: {} nodes, {}, {} GPU-hours{}",
                o.id,
                o.fastest_nodes.unwrap_or(0),
                opt(o.fastest_time_to_train_s, human::duration),
                opt(o.fastest_gpu_hours, human::count),
                o.fastest_cost_usd.map_or_else(String::new, |c| format!(", {}", human::usd(c)))
            );
        }
    }
    if placed.iter().any(|o| o.meets_deadline == Some(false)) {
        let _ = writeln!(
            t,
            "\n(late): misses the deadline even on the fastest node count tried (up to {}; --max-nodes allows more).",
            a.max_nodes
        );
    }
    let _ = writeln!(t, "\nEach offer's source: probe-cli plan --list (or --json: offers[].source).");
    t
}
