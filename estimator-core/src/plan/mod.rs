//! "What should I rent?": one job (a model or a parameter count, a layout or the best layout, a global batch and
//! an MFU) on every node offer, for a token budget. Per offer: the smallest node count that fits the job in memory,
//! the node count that meets the deadline (when one is given), the step, the exposed communication, the time to
//! train, GPU-hours and, with a price per GPU-hour from the user, the cost; ranked by cost when prices are given,
//! else by time to train.
//!
//! Node counts tried: every count up to the first that fits, then the powers of two above it and the largest
//! allowed; the deadline's node count is found between the two tried counts around it by bisection (the time to
//! train falls as nodes are added there). Without a deadline an offer runs on the tried count with the fewest
//! GPU-hours (the cheapest at a fixed price per GPU-hour).

use serde::{Deserialize, Serialize};

mod prices;

pub use prices::{COLUMNS, MAX_ROWS, PriceError, PriceRow, RawRow, parse_price_arg, parse_prices};

use crate::batch::BatchRule;
use crate::memory::memory_fit;
use crate::offer::{NodeOffer, OFFERS};
use crate::scenario::{ComputeInput, Field, Scenario, ScenarioError, ScenarioInput, SyncStrategy, range};
use crate::step::estimate_step;

/// The most nodes a plan tries by default.
pub const DEFAULT_MAX_NODES: i64 = 64;
/// The most nodes a plan may try.
pub const MAX_PLAN_NODES: i64 = 4096;
/// The largest token budget: 1e16 tokens (a thousand times the largest published pre-training runs).
pub const MAX_TOKENS: f64 = 1e16;
/// The longest deadline: ten years, in seconds.
pub const MAX_DEADLINE_S: f64 = 10.0 * 365.0 * 86_400.0;
/// The highest price per GPU-hour accepted, USD.
pub const MAX_USD_PER_GPU_HOUR: f64 = 10_000.0;

/// What the plan is asked, as plain data (flags, a form, a URL).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlanInput {
    /// Tokens to train on.
    pub tokens: f64,
    /// The time to train allowed, seconds.
    pub deadline_s: Option<f64>,
    /// The most nodes to try per offer.
    pub max_nodes: i64,
    /// Try every synchronisation (DDP, ZeRO-1/2/3, HSDP; the job's TP, PP and EP kept) and keep the fastest that
    /// fits; otherwise the job's own.
    pub best_layout: bool,
    /// Prices per GPU-hour, and offers the user describes (`parse_prices`).
    pub prices: Vec<PriceRow>,
    /// Only these offers (ids), when not empty; the offers the user describes are always in.
    pub only: Vec<String>,
    /// How the job's global batch follows the node count: kept (the default), or kept per GPU from the job's own
    /// node count, so that more nodes train on a larger batch in fewer steps.
    pub batch: BatchRule,
    /// The GPUs the job's tokens per step are for, under `keep-per-gpu`; `None`: the job's own nodes x GPUs per
    /// node.
    pub batch_gpus: Option<u32>,
    /// A profile of the user's cluster (`calibrate`): applied to the offers of its hardware, whose plans say so.
    #[serde(skip)]
    pub profile: Option<&'static crate::calibrate::Profile>,
}

impl Default for PlanInput {
    fn default() -> Self {
        PlanInput {
            tokens: 1e12,
            deadline_s: None,
            max_nodes: DEFAULT_MAX_NODES,
            best_layout: false,
            prices: Vec::new(),
            only: Vec::new(),
            batch: BatchRule::KeepGlobal,
            batch_gpus: None,
            profile: None,
        }
    }
}

/// One offer in the plan. Keys are the JSON contract of `probe-cli plan --json` (`offers[]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OfferPlan {
    /// The offer's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Where its figures come from (the vendor's page, `generic`, or the user's file).
    pub source: String,
    /// What the figures are.
    pub source_note: String,
    /// The node: GPU, GPUs per node, adapters, line rate, fabric.
    pub offer: NodeOffer,
    /// The node count planned (`None` when the job fits on none up to the largest count tried).
    pub nodes: Option<u32>,
    /// Whether the job fits in memory on some node count up to the largest tried.
    pub fits: bool,
    /// Why the offer cannot take the job, or misses the deadline.
    pub why: Option<String>,
    /// The smallest node count that fits the job in memory.
    pub min_nodes: Option<u32>,
    /// The smallest node count that meets the deadline (with a deadline).
    pub deadline_nodes: Option<u32>,
    /// Whether the planned count meets the deadline (`None` without one).
    pub meets_deadline: Option<bool>,
    /// The layout planned, in a few words.
    pub layout: Option<String>,
    /// Its synchronisation.
    pub sync: Option<SyncStrategy>,
    /// The step on the planned node count, seconds.
    pub step_s: Option<f64>,
    /// Exposed communication / step.
    pub exposed_share: Option<f64>,
    /// Steps x step, seconds.
    pub time_to_train_s: Option<f64>,
    /// GPUs x time to train, hours.
    pub gpu_hours: Option<f64>,
    /// The price given, USD per GPU-hour.
    pub usd_per_gpu_hour: Option<f64>,
    /// GPU-hours x price (`None` without a price).
    pub cost_usd: Option<f64>,
    /// Tokens per step on the planned node count (the job's, or its tokens per GPU times the GPUs under
    /// `keep-per-gpu`).
    pub tokens_per_step: Option<f64>,
    /// The fastest node count tried (powers of two up to the largest, and the counts planned), beside the one
    /// planned: without a deadline the plan takes the fewest GPU-hours, which is often the fewest nodes.
    pub fastest_nodes: Option<u32>,
    /// Time to train on the fastest count, seconds.
    pub fastest_time_to_train_s: Option<f64>,
    /// GPU-hours on the fastest count.
    pub fastest_gpu_hours: Option<f64>,
    /// Cost on the fastest count (`None` without a price).
    pub fastest_cost_usd: Option<f64>,
    /// Whether the plan's profile (`--profile`) corrected this offer's collectives: it is the profile's hardware.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub calibrated: bool,
}

/// The plan. Keys are the JSON contract of `probe-cli plan --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// `cost` when any offer has a price, else `time`.
    pub ranked_by: &'static str,
    /// The answer in one sentence.
    pub headline: String,
    /// Tokens to train on.
    #[serde(serialize_with = "crate::units::whole")]
    pub tokens: f64,
    /// Tokens per optimizer step (the job's global batch on its own nodes).
    #[serde(serialize_with = "crate::units::whole")]
    pub tokens_per_step: f64,
    /// How the global batch follows the node count (`keep-global` or `keep-per-gpu`).
    pub batch: BatchRule,
    /// Optimizer steps: tokens / tokens per step, rounded up (a part of a step is a step), at the job's own batch
    /// (under `keep-per-gpu` each offer's batch is its `tokens_per_step`).
    pub steps: u64,
    /// Every offer, ranked; those that cannot take the job last.
    pub offers: Vec<OfferPlan>,
}

/// One node count of one offer: the fastest layout that fits there.
#[derive(Clone, Debug)]
struct Tried {
    nodes: u32,
    layout: String,
    sync: SyncStrategy,
    step_s: f64,
    exposed_share: f64,
}

impl PlanInput {
    fn check(&self) -> Result<(), ScenarioError> {
        range(Field::Tokens, self.tokens, 1.0, MAX_TOKENS, " tokens")?;
        if let Some(d) = self.deadline_s {
            range(Field::DeadlineS, d, 1.0, MAX_DEADLINE_S, " s")?;
        }
        crate::scenario::count_in(Field::MaxNodes, self.max_nodes, 1, MAX_PLAN_NODES)?;
        for p in &self.prices {
            if let Some(u) = p.usd_per_gpu_hour {
                range(Field::Price, u, 0.0, MAX_USD_PER_GPU_HOUR, " USD per GPU-hour")?;
            }
        }
        for id in &self.only {
            if crate::offer::lookup(id).is_none() && !self.prices.iter().any(|p| p.id.eq_ignore_ascii_case(id)) {
                return Err(ScenarioError::missing(
                    Field::Offer,
                    format!("unknown offer '{id}'{}; probe-cli plan --list lists them", did_you_mean(id)),
                ));
            }
        }
        Ok(())
    }

    /// The offers to plan: the catalog's (or those of `only`), then those the user describes.
    fn offers(&self) -> Result<Vec<(NodeOffer, Option<f64>)>, ScenarioError> {
        let mut out: Vec<(NodeOffer, Option<f64>)> = Vec::new();
        for o in &OFFERS {
            if self.only.is_empty() || self.only.iter().any(|id| id.eq_ignore_ascii_case(o.id)) {
                out.push((NodeOffer::from(o), None));
            }
        }
        for p in &self.prices {
            let catalog = crate::offer::lookup(&p.id).is_some();
            match (&p.offer, out.iter_mut().find(|(o, _)| o.id.eq_ignore_ascii_case(&p.id))) {
                (Some(_), Some(_)) if !catalog => {
                    return Err(ScenarioError::missing(Field::Price, format!("'{}' is described twice", p.id)));
                }
                (Some(_), Some(_)) => {
                    return Err(ScenarioError::missing(
                        Field::Offer,
                        format!(
                            "'{}' is a catalog offer: give its price alone, or describe yours under another id",
                            p.id
                        ),
                    ));
                }
                (None, Some((_, price))) => *price = p.usd_per_gpu_hour,
                (Some(o), None) => out.push((o.clone(), p.usd_per_gpu_hour)),
                (None, None) if catalog => {} // priced, but left out by `only`
                (None, None) => {
                    return Err(ScenarioError::missing(
                        Field::Price,
                        format!(
                            "unknown offer '{}'{}; or describe it (gpu, gpus_per_node, adapters, link_gbps, fabric)",
                            p.id,
                            did_you_mean(&p.id)
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// ": did you mean 'aws-p5.48xlarge'?" for a catalog id near a mistyped one, else nothing.
pub fn did_you_mean(id: &str) -> String {
    crate::offer::nearest_id(id).map_or_else(String::new, |n| format!(": did you mean '{n}'?"))
}

/// The tokens per step of a job: its compute's (the global batch), else 4M tokens.
fn tokens_per_step(job: &ScenarioInput) -> f64 {
    match job.compute {
        ComputeInput::Tokens { tokens_per_step, .. } => tokens_per_step,
        ComputeInput::Given { .. } => crate::scenario::DEFAULT_TOKENS_PER_STEP,
    }
}

/// The syncs to try: the job's, or all of them.
fn syncs(job: &ScenarioInput, best: bool) -> Vec<SyncStrategy> {
    if best { SyncStrategy::ALL.to_vec() } else { vec![job.sync] }
}

/// How the job moves between node counts: its batch rule, from the GPUs of the job as given.
#[derive(Clone, Copy, Debug)]
struct Moves {
    rule: BatchRule,
    from_gpus: u32,
}

/// The job on `nodes` nodes of the offer with each sync to try: the valid scenarios that fit in memory.
fn fitting(template: &ScenarioInput, syncs: &[SyncStrategy], moves: Moves, nodes: u32) -> Vec<Scenario> {
    syncs
        .iter()
        .filter_map(|&sync| {
            let mut i = template.clone();
            moves.rule.apply(&mut i, moves.from_gpus, nodes);
            i.sync = sync;
            if sync != SyncStrategy::Hsdp {
                i.shard_group = None;
            }
            Scenario::new(i).ok().filter(|s| memory_fit(s).fits)
        })
        .collect()
}

/// The fastest fitting layout on `nodes` nodes.
fn try_nodes(
    template: &ScenarioInput,
    syncs: &[SyncStrategy],
    moves: Moves,
    nodes: u32,
    profile: Option<&'static crate::calibrate::Profile>,
) -> Option<Tried> {
    fitting(template, syncs, moves, nodes)
        .into_iter()
        .map(|s| match profile {
            Some(p) => p.apply(s.clone()).unwrap_or(s),
            None => s,
        })
        .map(|s| {
            let e = estimate_step(&s);
            (s, e)
        })
        .min_by(|a, b| a.1.step_s.as_secs().total_cmp(&b.1.step_s.as_secs()))
        .map(|(s, e)| Tried {
            nodes,
            layout: s.layout().describe(),
            sync: s.input().sync,
            step_s: e.step_s.as_secs(),
            exposed_share: e.exposed_share,
        })
}

/// Plans one offer.
/// Optimizer steps to train `tokens` at `per_step` tokens each: whole steps, the last one counted in full.
fn step_count(tokens: f64, per_step: f64) -> u64 {
    let n = (tokens / per_step).ceil();
    // Both are validated positive and finite, at most 1e15 tokens and at least 1 per step: the cast is exact.
    if n.is_finite() && n >= 0.0 { n.min(9.0e15) as u64 } else { 0 }
}

fn plan_offer(job: &ScenarioInput, p: &PlanInput, offer: &NodeOffer, price: Option<f64>) -> OfferPlan {
    let mut template = job.clone();
    offer.apply(&mut template);
    let syncs = syncs(job, p.best_layout);
    let max = u32::try_from(p.max_nodes).unwrap_or(1).max(1);
    let own = u32::try_from((job.nodes.saturating_mul(job.gpus_per_node)).max(1)).unwrap_or(u32::MAX);
    let from_gpus = p.batch_gpus.unwrap_or(own).max(1);
    let moves = Moves { rule: p.batch, from_gpus };
    let tps = |n: u32| p.batch.tokens_per_step(tokens_per_step(job), from_gpus, n.saturating_mul(offer.gpus_per_node));
    let gpus = |n: u32| f64::from(n) * f64::from(offer.gpus_per_node);
    let time = |t: &Tried| step_count(p.tokens, tps(t.nodes)) as f64 * t.step_s;
    let hours = |t: &Tried| gpus(t.nodes) * time(t) / 3600.0;

    let mut out = OfferPlan {
        id: offer.id.clone(),
        name: offer.name.clone(),
        source: offer.source.clone(),
        source_note: offer.source_note.clone(),
        offer: offer.clone(),
        nodes: None,
        fits: false,
        why: None,
        min_nodes: None,
        deadline_nodes: None,
        meets_deadline: None,
        layout: None,
        sync: None,
        step_s: None,
        exposed_share: None,
        time_to_train_s: None,
        gpu_hours: None,
        usd_per_gpu_hour: price,
        cost_usd: None,
        tokens_per_step: None,
        fastest_nodes: None,
        fastest_time_to_train_s: None,
        fastest_gpu_hours: None,
        fastest_cost_usd: None,
        calibrated: false,
    };
    // The profile corrects the offer of its own hardware only.
    let calibrated =
        p.profile.filter(|prof| Scenario::new(template.clone()).is_ok_and(|s| prof.check_hardware(&s).is_ok()));
    out.calibrated = calibrated.is_some();
    // The smallest node count that fits: the first power of two (or the largest count) that fits, then a
    // bisection below it (memory per GPU never grows with nodes; a count the layout refuses counts as too few).
    let fits = |n: u32| !fitting(&template, &syncs, moves, n).is_empty();
    let mut probes: Vec<u32> =
        std::iter::successors(Some(1u32), |n| n.checked_mul(2)).take_while(|n| *n < max).collect();
    probes.push(max);
    let Some(k) = probes.iter().position(|&n| fits(n)) else {
        out.why = Some(why_not(&template, &syncs, moves, max));
        return out;
    };
    let (mut lo, mut first) = (if k == 0 { 0 } else { probes[k - 1] }, probes[k]);
    while first - lo > 1 {
        let mid = lo + (first - lo) / 2;
        if fits(mid) {
            first = mid;
        } else {
            lo = mid;
        }
    }
    out.fits = true;
    out.min_nodes = Some(first);
    let mut counts = vec![first];
    let mut n = first.next_power_of_two();
    while n <= max {
        if n > first {
            counts.push(n);
        }
        n = n.saturating_mul(2);
    }
    if !counts.contains(&max) {
        counts.push(max);
    }
    let mut tried: Vec<Tried> =
        counts.iter().filter_map(|&n| try_nodes(&template, &syncs, moves, n, calibrated)).collect();
    let chosen = match p.deadline_s {
        None => tried.iter().min_by(|a, b| hours(a).total_cmp(&hours(b))).cloned(),
        Some(deadline) => {
            let meets = |t: &Tried| time(t) <= deadline;
            match tried.iter().position(meets) {
                Some(k) => {
                    // Between the last count that misses and the first that meets, the smallest that meets.
                    let mut best = tried[k].clone();
                    if k > 0 {
                        let (mut lo, mut hi) = (tried[k - 1].nodes, tried[k].nodes);
                        while hi - lo > 1 {
                            let mid = lo + (hi - lo) / 2;
                            match try_nodes(&template, &syncs, moves, mid, calibrated) {
                                Some(t) if meets(&t) => {
                                    hi = mid;
                                    best = t;
                                }
                                _ => lo = mid,
                            }
                        }
                    }
                    out.deadline_nodes = Some(best.nodes);
                    tried.push(best);
                    tried.iter().filter(|t| meets(t)).min_by(|a, b| hours(a).total_cmp(&hours(b))).cloned()
                }
                None => {
                    let fastest = tried.iter().min_by(|a, b| time(a).total_cmp(&time(b))).cloned();
                    if let Some(f) = &fastest {
                        out.why = Some(format!(
                            "misses the deadline: {} at best ({} nodes; more than {max} nodes were not tried)",
                            crate::human::duration(time(f)),
                            f.nodes
                        ));
                    }
                    fastest
                }
            }
        }
    };
    if let Some(f) = tried.iter().min_by(|a, b| time(a).total_cmp(&time(b))) {
        out.fastest_nodes = Some(f.nodes);
        out.fastest_time_to_train_s = Some(time(f));
        out.fastest_gpu_hours = Some(hours(f));
        out.fastest_cost_usd = price.map(|u| u * hours(f));
    }
    if let Some(t) = chosen {
        out.nodes = Some(t.nodes);
        out.tokens_per_step = Some(tps(t.nodes));
        out.layout = Some(t.layout.clone());
        out.sync = Some(t.sync);
        out.step_s = Some(t.step_s);
        out.exposed_share = Some(t.exposed_share);
        out.time_to_train_s = Some(time(&t));
        out.gpu_hours = Some(hours(&t));
        out.cost_usd = price.map(|u| u * hours(&t));
        out.meets_deadline = p.deadline_s.map(|d| time(&t) <= d);
    }
    out
}

/// Why a job fits on no node count of an offer up to `max`: the memory at `max` nodes, or the layout.
fn why_not(template: &ScenarioInput, syncs: &[SyncStrategy], moves: Moves, max: u32) -> String {
    // The sync that needs the least memory there, or the first's error when the layout refuses every one.
    let tried: Vec<Result<Scenario, ScenarioError>> = syncs
        .iter()
        .map(|&sync| {
            let mut i = template.clone();
            moves.rule.apply(&mut i, moves.from_gpus, max);
            i.sync = sync;
            if sync != SyncStrategy::Hsdp {
                i.shard_group = None;
            }
            Scenario::new(i)
        })
        .collect();
    let least = tried
        .iter()
        .flatten()
        .min_by(|a, b| memory_fit(a).total_bytes_per_gpu.get().total_cmp(&memory_fit(b).total_bytes_per_gpu.get()));
    let first_err = tried.iter().find_map(|t| t.as_ref().err()).cloned();
    match least.cloned().ok_or(first_err) {
        Ok(s) => {
            let m = memory_fit(&s);
            format!(
                "does not fit in memory on up to {max} nodes: {} per GPU against {} ({})",
                crate::human::gib(m.total_bytes_per_gpu),
                crate::human::gib(m.gpu_memory_bytes),
                s.layout().describe()
            )
        }
        Err(Some(e)) => format!("the layout does not fit this node: {e}"),
        Err(None) => "the layout does not fit this node".to_string(),
    }
}

/// Plans `job` (its hardware is replaced by each offer's) over the offers.
pub fn plan(job: &ScenarioInput, p: &PlanInput) -> Result<Plan, ScenarioError> {
    p.check()?;
    // The job itself must be valid on some hardware: its errors are the user's, not an offer's.
    Scenario::new(job.clone())?;
    let offers = p.offers()?;
    let mut plans: Vec<OfferPlan> = offers.iter().map(|(o, price)| plan_offer(job, p, o, *price)).collect();
    let priced = plans.iter().any(|o| o.cost_usd.is_some());
    // Offers that take the job first, those meeting the deadline before those that miss it, priced ones first when
    // there are prices; then by cost (priced) or time to train.
    let key = |o: &OfferPlan| {
        let rank = match (o.nodes.is_some(), priced && o.cost_usd.is_none(), o.meets_deadline == Some(false)) {
            (false, _, _) => 4,
            (true, unpriced, late) => 2 * u8::from(late) + u8::from(unpriced),
        };
        let value = if priced { o.cost_usd.or(o.time_to_train_s) } else { o.time_to_train_s };
        (rank, value.unwrap_or(f64::INFINITY))
    };
    plans.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0).then_with(|| ka.1.total_cmp(&kb.1))
    });
    let tps = tokens_per_step(job);
    let headline = headline(&plans, priced, p);
    Ok(Plan {
        ranked_by: if priced { "cost" } else { "time" },
        headline,
        tokens: p.tokens,
        tokens_per_step: tps,
        batch: p.batch,
        steps: step_count(p.tokens, tps),
        offers: plans,
    })
}

fn headline(plans: &[OfferPlan], priced: bool, p: &PlanInput) -> String {
    use crate::human::{duration, params, usd};
    let Some(best) = plans.first().filter(|o| o.nodes.is_some()) else {
        return format!(
            "No offer takes this job on up to {} nodes: it does not fit in memory (shard more, or allow more nodes)",
            p.max_nodes
        );
    };
    let nodes = best.nodes.unwrap_or(0);
    let time = best.time_to_train_s.map_or_else(String::new, duration);
    let how = format!("{} on {} node{}", best.name, nodes, if nodes == 1 { "" } else { "s" });
    let tokens = params(p.tokens);
    if best.meets_deadline == Some(false) {
        return format!("No offer meets the deadline on up to {} nodes; the closest: {how}, {time}", p.max_nodes);
    }
    match (best.cost_usd, priced, p.deadline_s.is_some()) {
        (Some(c), _, _) => format!("Cheapest: {how}, {time} and {} for {tokens} tokens", usd(c)),
        (None, true, _) => format!("No priced offer meets the deadline; the fastest that does: {how}, {time}"),
        (None, false, true) => format!("Fastest within the deadline: {how}, {time} for {tokens} tokens"),
        (None, false, false) => format!(
            "Fastest, each offer at its fewest GPU-hours (no deadline): {how}, {time} for {tokens} tokens; a deadline \
             asks for more nodes"
        ),
    }
}

#[cfg(test)]
mod tests;
