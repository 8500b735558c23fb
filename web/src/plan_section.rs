//! "Plan a rental": a scenario's job on every node offer (estimator-core's `plan`), as a sortable table and a chart
//! of time to train against cost (or GPU-hours without prices); each row fills scenario A or B. Drawn by the report
//! worker only (`static/sections.js` asks for the form, the result and a fill): none of it weighs on the first
//! load. The state lives in the URL's `plan.*` pairs: `plan.side` (whose job), `plan.tokens`, `plan.deadline`,
//! `plan.max_nodes`, `plan.best`, `plan.prices` (`OFFER=USD` lines or CSV) and `plan.sort`.

use estimator_core::plan::{OfferPlan, Plan, PlanInput, parse_prices, plan};
use estimator_core::quantity::{parse_count, parse_duration};
use estimator_core::scenario::{DEFAULT_MFU, DEFAULT_TOKENS_PER_STEP};
use estimator_core::{BatchRule, ComputeInput, Seconds, human};

use crate::chart::{BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, X_LABELS, log_gridlines};
use crate::form::{FormField, ScenarioForm};
use crate::html;
use crate::html::Html;
use crate::section_form::{input, side_select};
use crate::share::{PageState, Side, section, with_sections};
use estimator_core::scenario::inputs::Role;

/// The longest prices text taken: about 200 offers with prices (longer is refused, never cut).
const MAX_PRICES: usize = 8000;

/// How the table is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    /// The plan's ranking: cost with prices, else time to train.
    Rank,
    /// Time to train.
    Time,
    /// Cost.
    Cost,
    /// GPU-hours.
    Hours,
    /// Step.
    Step,
    /// Nodes.
    Nodes,
}

impl Sort {
    const ALL: [(Sort, &'static str); 6] = [
        (Sort::Rank, "rank"),
        (Sort::Time, "time"),
        (Sort::Cost, "cost"),
        (Sort::Hours, "hours"),
        (Sort::Step, "step"),
        (Sort::Nodes, "nodes"),
    ];

    fn parse(v: &str) -> Sort {
        Sort::ALL.iter().find(|(_, k)| *k == v).map_or(Sort::Rank, |(s, _)| *s)
    }

    fn value(self, o: &OfferPlan) -> Option<f64> {
        match self {
            Sort::Rank => None,
            Sort::Time => o.time_to_train_s,
            Sort::Cost => o.cost_usd,
            Sort::Hours => o.gpu_hours,
            Sort::Step => o.step_s,
            Sort::Nodes => o.nodes.map(f64::from),
        }
    }
}

/// The section's inputs, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanForm {
    /// Whose job.
    pub side: Side,
    /// Tokens to train on.
    pub tokens: String,
    /// The time allowed (`30d`).
    pub deadline: String,
    /// The most nodes to try.
    pub max_nodes: String,
    /// Try every synchronisation.
    pub best: bool,
    /// Prices: `OFFER=USD` lines or CSV.
    pub prices: String,
    /// The table's order.
    pub sort: Sort,
    /// How the global batch follows the node count.
    pub batch: BatchRule,
    /// Every row of the table, not only the first [`TOP_ROWS`].
    pub all: bool,
}

/// The rows the table shows until the user asks for all of them.
pub const TOP_ROWS: usize = 10;

impl PlanForm {
    /// Reads the `plan.*` pairs of a page query.
    pub fn from_query(query: &str) -> PlanForm {
        let mut f = PlanForm {
            side: Side::A,
            tokens: "1T".to_string(),
            deadline: String::new(),
            max_nodes: "64".to_string(),
            best: false,
            prices: String::new(),
            sort: Sort::Rank,
            batch: BatchRule::KeepGlobal,
            all: false,
        };
        for (k, v) in section(query, "plan") {
            match k.as_str() {
                "side" => f.side = if v == "b" { Side::B } else { Side::A },
                "tokens" => f.tokens = v,
                "deadline" => f.deadline = v,
                "max_nodes" => f.max_nodes = v,
                "best" => f.best = matches!(v.as_str(), "1" | "true" | "on"),
                "prices" => f.prices = v,
                "sort" => f.sort = Sort::parse(&v),
                "batch" => f.batch = BatchRule::parse(&v).unwrap_or_default(),
                "all" => f.all = matches!(v.as_str(), "1" | "true" | "on"),
                _ => {}
            }
        }
        f
    }
}

/// The plan of the query's section, or why there is none (the input named).
pub fn plan_of(query: &str) -> Result<(Side, Plan, bool), String> {
    plan_with_notes(query).map(|(side, p, from_ms, _)| (side, p, from_ms))
}

/// The compute a plan runs a job on: from tokens; a scenario that gives milliseconds takes the page's default
/// tokens and MFU. Whether it did.
fn planned_compute(job: &mut estimator_core::scenario::ScenarioInput) -> bool {
    let from_ms = matches!(job.compute, ComputeInput::Given { .. });
    if from_ms {
        job.compute = ComputeInput::Tokens { tokens_per_step: DEFAULT_TOKENS_PER_STEP, mfu: DEFAULT_MFU };
    }
    from_ms
}

/// [`plan_of`], and what was left out: a priced id that is no catalog offer and describes none is named (with the
/// catalog id nearest to it) and left out, so that one typo does not empty the table.
fn plan_with_notes(query: &str) -> Result<(Side, Plan, bool, Vec<String>), String> {
    let f = PlanForm::from_query(query);
    let (state, _) = PageState::from_query(query);
    let form = if f.side == Side::A { &state.a } else { &state.b };
    let (mut job, errors) = form.read();
    if !errors.is_empty() {
        return Err(format!("Scenario {}'s inputs do not read: fix them above.", f.side.label()));
    }
    let from_ms = planned_compute(&mut job);
    let tokens = parse_count(&f.tokens).map_err(|e| format!("Tokens to train: {e}"))?;
    let deadline_s = if f.deadline.trim().is_empty() {
        None
    } else {
        Some(parse_duration(&f.deadline).map_err(|e| format!("Deadline: {e}"))?)
    };
    let max_nodes = f.max_nodes.trim().parse::<i64>().map_err(|_| "Up to nodes: not a whole number".to_string())?;
    if f.prices.chars().count() > MAX_PRICES {
        return Err(format!("Prices: longer than {MAX_PRICES} characters; give fewer offers"));
    }
    let mut prices = parse_prices(&f.prices).map_err(|e| format!("Prices: {e}"))?;
    let mut left_out = Vec::new();
    prices.retain(|p| {
        let known = p.offer.is_some() || estimator_core::offer::lookup(&p.id).is_some();
        if !known {
            left_out.push(format!(
                "Prices: '{}' is no catalog offer{}; left out (describe it with gpu, gpus_per_node, adapters, \
                 link_gbps, fabric to plan it)",
                p.id,
                estimator_core::plan::did_you_mean(&p.id)
            ));
        }
        known
    });
    let input = PlanInput {
        tokens,
        deadline_s,
        max_nodes,
        best_layout: f.best,
        prices,
        only: Vec::new(),
        batch: f.batch,
        batch_gpus: None,
        profile: None,
    };
    let p = plan(&job, &input).map_err(|e| {
        let what = match e.field {
            estimator_core::Field::Tokens => "Tokens to train",
            estimator_core::Field::DeadlineS => "Deadline",
            estimator_core::Field::MaxNodes => "Up to nodes",
            estimator_core::Field::Price | estimator_core::Field::Offer => "Prices",
            _ => "The job",
        };
        format!("{what}: {}", e.reason)
    })?;
    Ok((f.side, p, from_ms, left_out))
}

/// The section's form, with the values of the query.
pub fn form(query: &str) -> Html {
    let f = PlanForm::from_query(query);
    let mut h = Html::from_static(
        "<p class=\"fine\">What should you rent? A scenario's job (model, layout, tokens per step and MFU) on \
         every node offer of the catalog: the smallest node count that fits, the one that meets your deadline, \
         time to train, GPU-hours and, with your prices per GPU-hour, the cost. The catalog has no prices: they \
         change weekly.</p><div class=\"sec-form\" data-sec=\"plan\">",
    );
    side_select(&mut h, "Job of scenario", "plan-side", f.side);
    input(&mut h, "Tokens to train", "tokens", "plan-tokens", " data-default=\"1T\"", &f.tokens);
    input(&mut h, "Deadline", "deadline", "plan-deadline", " placeholder=\"30d, 2w, 36h\"", &f.deadline);
    input(
        &mut h,
        "Up to nodes",
        "max_nodes",
        "plan-max-nodes",
        " inputmode=\"numeric\" data-default=\"64\"",
        &f.max_nodes,
    );
    html!(
        h,
        "<label class=\"check\"><input type=\"checkbox\" name=\"best\" id=\"plan-best\"{}> Best layout (every synchronisation)</label>",
        if f.best { " checked" } else { "" }
    );
    html!(
        h,
        "<label>On more nodes <select name=\"batch\" id=\"plan-batch\"><option value=\"keep-global\"{}>keep the global batch</option><option value=\"keep-per-gpu\"{}>keep tokens per GPU</option></select></label>",
        if f.batch == BatchRule::KeepGlobal { " selected" } else { "" },
        if f.batch == BatchRule::KeepPerGpu { " selected" } else { "" }
    );
    html!(
        h,
        "<label class=\"wide\">Prices, USD per GPU-hour: OFFER=USD a line, or CSV with a header (id,usd_per_gpu_hour and, for an offer of your own, gpu,gpus_per_node,adapters,link_gbps,fabric) <textarea name=\"prices\" id=\"plan-prices\" rows=\"3\" spellcheck=\"false\" placeholder=\"aws-p5.48xlarge=3.9\">{}</textarea></label></div>",
        f.prices
    );
    h.push_static("<div id=\"plan-result\" aria-live=\"polite\"></div>");
    h
}

fn at(v: f64) -> String {
    human::fixed(v, 1)
}

/// Whole decades around the values (at least one).
fn decades(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let lo = lo.log10().floor();
    (lo, hi.log10().ceil().max(lo + 1.0))
}

/// Time to train (days, across) against cost or GPU-hours (up), both logarithmic; each offer a numbered dot.
fn chart(rows: &[(usize, &OfferPlan)], priced: bool) -> Html {
    let mut out = Html::new();
    let value = |o: &OfferPlan| if priced { o.cost_usd } else { o.gpu_hours };
    let pts: Vec<(usize, &OfferPlan, f64, f64)> = rows
        .iter()
        .filter_map(|(n, o)| Some((*n, *o, o.time_to_train_s? / 86_400.0, value(o)?)))
        .filter(|(_, _, x, y)| *x > 0.0 && *y > 0.0)
        .collect();
    if pts.is_empty() {
        return out;
    }
    let (x_lo, x_hi) = decades(pts.iter().map(|p| p.2));
    let (y_lo, y_hi) = decades(pts.iter().map(|p| p.3));
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |v: f64| LEFT + pw * (v.log10() - x_lo) / (x_hi - x_lo);
    let y = |v: f64| TOP + ph * (1.0 - (v.log10() - y_lo) / (y_hi - y_lo));
    let what = if priced { "cost (USD)" } else { "GPU-hours" };
    html!(
        out,
        r#"<figure class="chart" id="plan-chart"><figcaption>Time to train (days, across) against {} (up), both logarithmic; each dot is an offer, numbered as in the table: down and to the left is better.</figcaption><svg viewBox="0 0 {} {}" role="img" aria-label="Time to train against {} for each offer">"#,
        what,
        at(WIDTH),
        at(HEIGHT),
        what
    );
    log_gridlines(&mut out, (y_lo, y_hi), y, |v| if priced { human::usd(v) } else { human::count(v) });
    let mut d = x_lo;
    while d <= x_hi + 1e-9 {
        let v = 10f64.powf(d);
        html!(
            out,
            r#"<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            at(x(v)),
            at(HEIGHT - BOTTOM + X_LABELS),
            human::sig(v, 2)
        );
        d += 1.0;
    }
    html!(
        out,
        r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">days to train</text>"#,
        at((WIDTH + LEFT) / 2.0),
        at(HEIGHT - 4.0)
    );
    // A dot whose label would overlap another's joins it ("2,3,4"), so numbers never pile up. A label's box is
    // estimated wide enough for a phone's larger text (10 units a character, 16 high).
    let mut labels: Vec<(f64, f64, String)> = Vec::new();
    let overlaps = |label: &(f64, f64, String), x: f64, y: f64, len: usize| {
        let (lx, ly, w) = (label.0, label.1, 10.0 * label.2.len() as f64);
        x < lx + w && lx < x + 10.0 * len as f64 && (ly - y).abs() < 16.0
    };
    for (n, o, tx, ty) in &pts {
        let (cx, cy) = (x(*tx), y(*ty));
        html!(
            out,
            r#"<circle class="plan-dot" cx="{}" cy="{}" r="4"><title>{}: {} days, {}</title></circle>"#,
            at(cx),
            at(cy),
            o.name,
            human::num(*tx, 1),
            if priced { human::usd(*ty) } else { format!("{} GPU-hours", human::count(*ty)) }
        );
        match labels.iter_mut().find(|l| overlaps(l, cx, cy, n.to_string().len())) {
            Some((_, _, text)) => text.push_str(&format!(",{n}")),
            None => labels.push((cx, cy, n.to_string())),
        }
    }
    for (lx, ly, text) in &labels {
        html!(
            out,
            r#"<text class="tick dot-label" x="{}" y="{}">{}</text>"#,
            at(lx + 6.0),
            at(ly - 4.0),
            text.as_str()
        );
    }
    out.push_static("</svg></figure>");
    out
}

fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "–".to_string(), f)
}

/// The section's result: the answer, the chart and the table (sorted as the query asks).
pub fn result(query: &str) -> Html {
    let (side, p, from_ms, left_out) = match plan_with_notes(query) {
        Ok(x) => x,
        Err(e) => {
            let mut h = Html::new();
            html!(h, "<p class=\"error\" id=\"plan-error\">{}</p>", e);
            return h;
        }
    };
    let form = PlanForm::from_query(query);
    let sort = form.sort;
    let priced = p.ranked_by == "cost";
    let mut rows: Vec<(usize, &OfferPlan)> = p.offers.iter().enumerate().map(|(i, o)| (i + 1, o)).collect();
    if sort != Sort::Rank {
        // Within the plan's own groups (offers that take the job in time, then those that miss the deadline, then
        // those that do not fit), so that the first row sorted by cost is the headline's "Cheapest".
        let group = |o: &OfferPlan| u8::from(o.meets_deadline == Some(false)) + 2 * u8::from(o.nodes.is_none());
        rows.sort_by(|a, b| {
            let (va, vb) = (sort.value(a.1), sort.value(b.1));
            group(a.1)
                .cmp(&group(b.1))
                .then_with(|| va.is_none().cmp(&vb.is_none()))
                .then_with(|| va.unwrap_or(0.0).total_cmp(&vb.unwrap_or(0.0)))
        });
    }
    let mut h = Html::new();
    if !left_out.is_empty() {
        h.push_static("<ul class=\"warn\" id=\"plan-left-out\">");
        for n in &left_out {
            html!(h, "<li>{}</li>", n);
        }
        h.push_static("</ul>");
    }
    html!(h, "<p class=\"plan-headline\" id=\"plan-headline\"><b>{}</b>.</p>", p.headline);
    let rule = match p.batch {
        BatchRule::KeepGlobal => {
            "On every node count the global batch is kept (more GPUs split it: past some count the step stops \
             shrinking); choose \"keep tokens per GPU\" to grow it with the GPUs instead."
        }
        BatchRule::KeepPerGpu => {
            "On every node count the tokens per GPU are kept: the global batch grows with the GPUs and the steps to \
             train shrink (check that the optimizer takes that batch)."
        }
    };
    html!(
        h,
        "<p class=\"fine\" id=\"plan-batch-rule\">Scenario {}'s job: {} tokens per step ({} steps){}. {}</p>",
        side.label(),
        human::params(p.tokens_per_step),
        human::count(p.steps as f64),
        if from_ms { "; its compute is given in ms, so the plan takes 4M tokens per step at 40% MFU" } else { "" },
        rule
    );
    let total = rows.len();
    if !form.all {
        rows.truncate(TOP_ROWS);
    }
    h.push(&chart(&rows, priced));
    h.push_static("<div class=\"table-scroll\"><table class=\"plan-table\" id=\"plan-table\"><thead><tr><th>#</th><th>offer, id and node</th>");
    for (s, key, title) in [
        (Sort::Nodes, "nodes", "nodes"),
        (Sort::Step, "step", "step"),
        (Sort::Time, "time", "time to train"),
        (Sort::Hours, "hours", "GPU-hours"),
        (Sort::Cost, "cost", "cost"),
    ] {
        html!(
            h,
            "<th><button type=\"button\" class=\"sort\" data-sort=\"{}\" aria-pressed=\"{}\">{}</button></th>",
            key,
            if sort == s { "true" } else { "false" },
            title
        );
        if s == Sort::Step {
            h.push_static("<th>layout</th>");
        }
        if s == Sort::Hours {
            h.push_static("<th>$/GPU-h</th>");
        }
    }
    h.push_static("<th>fill</th></tr></thead><tbody>");
    for (n, o) in &rows {
        let gpu = estimator_core::catalog::lookup(&o.offer.gpu).spec().name;
        let gpus = format!("{} × {}", o.offer.gpus_per_node, gpu);
        let net = format!("{} × {}G {}", o.offer.adapters, human::num(o.offer.link_gbps, 0), o.offer.fabric.name());
        // Each cell names its column: a narrow box shows the rows as blocks of "column: value" (sections.css).
        html!(h, "<tr data-offer=\"{}\"><td data-label=\"#\">{}</td><td>", o.id, *n);
        if o.source.starts_with("https://") {
            html!(h, "<a href=\"{}\" rel=\"noopener noreferrer\" title=\"{}\">{}</a>", o.source, o.source_note, o.name);
        } else {
            html!(h, "<span title=\"{}\">{}</span>", o.source_note, o.name);
        }
        // The id, as the prices box takes it (`OFFER=USD`), and the node.
        html!(h, "<br><code class=\"offer-id\">{}</code><br><span class=\"fine\">{}, {}</span>", o.id, gpus, net);
        let late = if o.meets_deadline == Some(false) { " (late)" } else { "" };
        let fastest = match (o.fastest_nodes, o.fastest_time_to_train_s) {
            (Some(n), Some(t)) if Some(n) != o.nodes => {
                format!("fastest: {} on {}", human::duration(t), human::plural(u64::from(n), "node"))
            }
            _ => String::new(),
        };
        html!(
            h,
            "</td><td data-label=\"nodes\">{}</td><td data-label=\"step\">{}<br><span class=\"fine\">{} exposed</span></td><td data-label=\"layout\">{}</td><td data-label=\"time to train\">{}{}<br><span class=\"fine\">{}</span></td><td data-label=\"GPU-hours\">{}</td><td data-label=\"$/GPU-h\">{}</td><td data-label=\"cost\">{}</td><td class=\"fill-cell\">",
            o.nodes.map_or_else(|| "–".to_string(), |n| n.to_string()),
            opt(o.step_s, |s| human::secs(Seconds::new(s))),
            opt(o.exposed_share, human::pct),
            o.layout.clone().unwrap_or_else(|| "–".to_string()),
            opt(o.time_to_train_s, human::duration),
            late,
            fastest,
            opt(o.gpu_hours, human::count),
            opt(o.usd_per_gpu_hour, |u| human::num(u, 2)),
            opt(o.cost_usd, human::usd)
        );
        match o.nodes {
            Some(nodes) => {
                for s in [Side::A, Side::B] {
                    html!(
                        h,
                        "<button type=\"button\" class=\"fill\" data-fill=\"{}\" data-offer=\"{}\" aria-label=\"Fill scenario {} with {} on {}\">{}</button>",
                        s.key(),
                        o.id,
                        s.label(),
                        o.name,
                        human::plural(u64::from(nodes), "node"),
                        s.label()
                    );
                }
            }
            None => html!(h, "<span class=\"fine\">{}</span>", o.why.clone().unwrap_or_default()),
        }
        h.push_static("</td></tr>");
    }
    h.push_static("</tbody></table></div>");
    if rows.len() < total {
        html!(
            h,
            "<p><button type=\"button\" id=\"plan-all\" data-set=\"plan.all\" data-value=\"1\">Show all {} offers</button></p>",
            total
        );
    }
    h
}

/// The page query with scenario `side` set to offer `id`'s node on the plan's node count and layout, running the
/// planned scenario's job that the row priced (the sections' pairs kept), or `None` when the plan has no such row.
pub fn fill(query: &str, side: Side, id: &str) -> Option<String> {
    let (planned, p, _) = plan_of(query).ok()?;
    let o = p.offers.iter().find(|o| o.id == id)?;
    let nodes = o.nodes?;
    let (mut state, _) = PageState::from_query(query);
    let job = if planned == Side::A { state.a.clone() } else { state.b.clone() };
    let form = if side == Side::A { &mut state.a } else { &mut state.b };
    // The row priced the planned side's job: the other side takes it, or its card would price another job.
    let _ = form.take_job(&job);
    // The row's node as the plan put it into the job (`NodeOffer::apply`), on the row's node count and layout,
    // taken into the form field by field by the table's roles: the hardware and the nodes.
    let (mut input, _) = form.read();
    o.offer.apply(&mut input);
    input.gpu = estimator_core::catalog::lookup(&o.offer.gpu).spec().key.to_string();
    input.nodes = i64::from(nodes);
    if let Some(sync) = o.sync {
        input.sync = sync;
    }
    // The row's compute: the plan's (`planned_compute`), and under "keep tokens per GPU" the row's own batch. The
    // filled scenario runs what the row priced, so its card shows the row's step.
    planned_compute(&mut input);
    if let (BatchRule::KeepPerGpu, Some(tps), ComputeInput::Tokens { mfu, .. }) =
        (p.batch, o.tokens_per_step, input.compute)
    {
        input.compute = ComputeInput::Tokens { tokens_per_step: tps.round(), mfu };
    }
    let row = ScenarioForm::from_input(&input);
    form.take(&row, &[Role::Hardware, Role::Nodes, Role::Compute]);
    form.set(FormField::Sync, &row.value(FormField::Sync)).ok()?;
    form.clear_measured();
    Some(with_sections(&state.to_query(), query))
}
