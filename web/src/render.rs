//! The result cards and recommendations as [`Html`], from the model's figures: pure functions, every
//! interpolated text escaped by construction (`html!`). The page sets them as the inner HTML of their containers
//! (`app.rs`), which keeps the wasm small: one formatting function per card instead of a typed view per element.

use std::fmt::Write;

use estimator_core::recommend::FabricChoice;
use estimator_core::{ComputeInput, GradDtype, RecommendationKind, Scenario};

use crate::html;
use crate::html::Html;
use crate::result::SideResult;
use crate::share::Side;
use estimator_core::human;

/// `BF16`.
pub fn dtype_label(d: GradDtype) -> &'static str {
    match d {
        GradDtype::Fp32 => "FP32",
        GradDtype::Bf16 => "BF16",
        GradDtype::Fp16 => "FP16",
        GradDtype::Fp8 => "FP8",
    }
}

/// A line such as "7B BF16 · 2 nodes × 8 GPUs · 8 × 25 Gb/s RoCE".
pub fn summary(s: &Scenario) -> String {
    let i = s.input();
    let nodes = if s.nodes() == 1 { "1 node".to_string() } else { format!("{} nodes", s.nodes()) };
    let net = if s.adapters_per_node() == 0 {
        "no network adapter".to_string()
    } else {
        format!("{} × {} Gb/s {}", s.adapters_per_node(), human::num(i.link_gbps, 3), i.fabric.label())
    };
    format!(
        "{} {} · {nodes} × {} {} · {net}",
        human::params(i.params),
        dtype_label(i.dtype),
        s.gpus_per_node(),
        s.gpu().name
    )
}

/// The step's traffic, one row per kind (`{a,b}-traffic`), with a total row. Each volume has one definition, said
/// in the caption: "sent per GPU" is what each GPU sends per step over any link (nccl-tests' bus bytes for the
/// collective), "through the adapters" its share of what crosses its node's (NVLink domain's) network adapters,
/// the node's total divided by its GPUs. The totals are the card's figures (`network_bytes_per_gpu`, the
/// communication time and its exposed part): a test holds them equal.
fn traffic_table(h: &mut Html, k: &str, s: &Scenario, e: &estimator_core::StepEstimate) {
    let rows = &e.traffic;
    if rows.is_empty() {
        return;
    }
    html!(
        h,
        r#"<p class="fine" id="{0}-traffic-terms">Per optimizer step, messages in {1}. <i>Sent per GPU</i>: what each GPU sends over any link (NVLink and network). <i>Through the adapters</i>: its share of what crosses its node's network adapters ({2} per node: this column × {3} GPUs).</p><div class="traffic-scroll" tabindex="0" role="region" aria-label="Scenario {4}'s traffic per step"><table class="traffic" id="{0}-traffic"><thead><tr><th scope="col">Kind</th><th scope="col">Over</th><th scope="col">Message</th><th scope="col">Sent per GPU</th><th scope="col">Through the adapters, per GPU</th><th scope="col">Time</th><th scope="col">Exposed</th></tr></thead><tbody>"#,
        k,
        s.input().dtype.name().to_uppercase(),
        human::gb(e.network_bytes_per_node),
        s.gpus_per_node(),
        // One name per region: A's and B's tables are both on the page (axe: landmark-unique).
        k.to_uppercase()
    );
    let mut sent = 0.0;
    for t in rows {
        sent += t.bytes_per_gpu.get();
        html!(
            h,
            // Each cell names its column: a narrow box shows the rows as blocks of "column: value" (sections.css).
            r#"<tr><th scope="row">{0}</th><td data-label="Over">{1} ({2})</td><td data-label="Message">{3} × {4}</td><td data-label="Sent per GPU">{5}</td><td data-label="Through the adapters, per GPU">{6}</td><td data-label="Time">{7}</td><td data-label="Exposed">{8}</td></tr>"#,
            t.kind.label(),
            t.tier.name(),
            t.ranks,
            human::count(t.calls as f64),
            human::binary(t.message_bytes),
            human::gb(t.bytes_per_gpu),
            human::gb(t.network_bytes_per_gpu),
            human::secs(t.time_s),
            human::secs(t.exposed_s),
        );
    }
    html!(
        h,
        r#"<tr class="total"><th scope="row">Total</th><td></td><td></td><td data-label="Sent per GPU">{}</td><td data-label="Through the adapters, per GPU" id="{}-traffic-network">{}</td><td data-label="Time">{}</td><td data-label="Exposed">{}</td></tr></tbody></table></div>"#,
        human::gb(estimator_core::Bytes::new(sent)),
        k,
        human::gb(e.network_bytes_per_gpu),
        human::secs(e.comm_s),
        human::secs(e.exposed_comm_s),
    );
}

/// The body of one scenario's result card, led by what decides: whether the job fits, a measured bus bandwidth in
/// use, then the step time and its exposed communication; then the realistic estimate's parts, the reference
/// arithmetic (a one-link reference, where a gradient sync crosses the adapters) and why the estimate is below it, and the model's warnings and notes.
/// Ids: `{a,b}-nofit`, `-measured`, `-use-model` (a button), `-step`, `-exposed`, `-comm`, `-hidden`, `-compute`,
/// `-hidden-how`, `-bubble`, `-wait`, `-reference` (where a gradient sync crosses the adapters), `-below`.
pub fn result_card(side: Side, r: &SideResult) -> Html {
    let k = side.key();
    let s = &r.scenario;
    let i = s.input();
    let e = &r.estimate.step;
    let m = &r.estimate.memory;
    let mut h = Html::new();

    if !m.fits {
        html!(
            h,
            r#"<p class="nofit" id="{0}-nofit"><b>{5}:</b> {1} per GPU with {2} as {8} allocates it, the {3} has {4}{6}. The step below is for a job that {7}.</p>"#,
            k,
            human::gib(m.total_bytes_per_gpu),
            i.sync.label(),
            s.gpu().name,
            human::gib(m.gpu_memory_bytes),
            if m.may_fit { "May not fit" } else { "Does not fit" },
            // Between the implementations the model cannot tell: the one that keeps least may fit.
            if m.may_fit {
                format!("; {} as {} allocates it", human::gib(m.least_total_bytes_per_gpu), m.least_implementation)
            } else {
                String::new()
            },
            if m.may_fit { "may not run as configured" } else { "cannot run as configured" },
            m.implementation,
        );
    }
    if e.bottleneck == estimator_core::Bottleneck::Measured {
        html!(
            h,
            r#"<p class="measured" id="{0}-measured">Communication uses the <b>measured</b> bus bandwidth, {1} GB/s (nccl-tests), in place of the model's. <button type="button" id="{0}-use-model">Use the model</button></p>"#,
            k,
            human::num(e.busbw_gbs.get(), 1)
        );
    }
    html!(
        h,
        r#"<div class="block head"><p class="kicker">Step time <span class="range" id="{0}-range" title="{7}">· range {5} to {6}<span class="how"> on public runs it was not shaped on</span></span></p><p class="big" id="{0}-step">{1}</p><p>Communication exposed: <b id="{0}-exposed">{2}</b>, {3} of the step · scaling efficiency {4}"#,
        k,
        human::secs(e.step_s),
        human::secs(e.exposed_comm_s),
        human::pct(e.exposed_share),
        human::pct(e.scaling_efficiency),
        human::secs(e.step_range_s[0]),
        human::secs(e.step_range_s[1]),
        estimator_core::accuracy::STEP_RANGE_BASIS,
    );
    if let Some(t) = e.tokens_per_s {
        html!(h, " · {} tokens/s", human::count(t));
    }
    h.push_static("</p></div>");

    let bus = if s.participants() <= 1 {
        "nothing to synchronise on one GPU".to_string()
    } else {
        let limit = if e.bottleneck == estimator_core::Bottleneck::Measured {
            "measured".to_string()
        } else {
            format!("limited by {}", e.bottleneck.describe())
        };
        let through = if e.network_bytes_per_node.get() > 0.0 {
            format!(
                "{} through each node's adapters ({} per GPU), at least {} at their line rate for the {} no \
                 algorithm avoids",
                human::gb(e.network_bytes_per_node),
                human::gb(e.network_bytes_per_gpu),
                human::secs(e.lower_bound_s),
                // The bound's own bytes: the figure before it is what this layout's algorithms send, often more.
                human::gb(e.network_floor_bytes_per_node)
            )
        } else {
            "nothing through the network adapters".to_string()
        };
        // What nccl-tests would print for the job's all-reduce at large sizes with NCCL's own choice of algorithm:
        // the figure a measurement is set against, so that giving it back as measured changes nothing (the ring
        // ceiling `busbw_gbs` is below it where NCCL picks a tree).
        let busbw = if e.bottleneck == estimator_core::Bottleneck::Measured {
            e.busbw_gbs.get()
        } else {
            estimator_core::collective::model_peak_busbw_gbs(s)
        };
        format!(
            "{through}; bus bandwidth {} GB/s per GPU as nccl-tests would print it, {limit}; each call timed at its \
             size",
            human::num(busbw, 1),
        )
    };
    let compute_how = match i.compute {
        ComputeInput::Given { .. } => "as given".to_string(),
        ComputeInput::Tokens { tokens_per_step, mfu } => format!(
            "{} × {} × {} tokens ÷ ({} × {} TFLOP/s × {} MFU)",
            human::num(estimator_core::step::flops_per_param_per_token(s), 0),
            human::params(s.shape().active_params),
            human::count(tokens_per_step),
            s.participants(),
            human::num(s.gpu().bf16_dense_tflops.get(), 0),
            human::pct(mfu)
        ),
    };
    let hidden_how = match e.overlap_source {
        estimator_core::schedule::OverlapSource::Schedule => "hidden by the frameworks' schedule",
        estimator_core::schedule::OverlapSource::Set => "the overlap you set",
        estimator_core::schedule::OverlapSource::None => "nothing hidden (the model without its schedule)",
    };
    html!(
        h,
        r#"<div class="block realistic"><p class="kicker">Realistic estimate</p><dl class="figures"><dt>Communication</dt><dd id="{0}-comm">{1}</dd><dd class="how">{2}</dd>"#,
        k,
        human::secs(e.comm_s),
        bus,
    );
    html!(
        h,
        r#"<dt>Hidden behind compute</dt><dd id="{0}-hidden">{1}</dd><dd class="how" id="{0}-hidden-how">{2}, {3} of the communication</dd><dt>Compute</dt><dd id="{0}-compute">{4}</dd><dd class="how">{5}</dd>"#,
        k,
        human::secs(e.hidden_comm_s),
        hidden_how,
        human::pct(e.overlap),
        human::secs(e.compute_s),
        compute_how,
    );
    if e.bubble_s.as_secs() > 0.0 {
        html!(
            h,
            r#"<dt>Pipeline bubble</dt><dd id="{0}-bubble">{1}</dd><dd class="how">(stages − 1) ÷ micro-batches of the compute</dd>"#,
            k,
            human::secs(e.bubble_s)
        );
    }
    if e.rank_wait_s.as_secs() > 0.0 {
        html!(
            h,
            r#"<dt>Wait for the slowest rank</dt><dd id="{0}-wait">{1}</dd><dd class="how">the slowest of {2} GPUs against one node's: per-rank variation {3}% of the compute, fitted on public runs</dd>"#,
            k,
            human::secs(e.rank_wait_s),
            s.participants(),
            human::num(e.rank_variation * 100.0, 1)
        );
    }
    h.push_static("</dl></div>");

    if r.estimate.reference_applies {
        reference_block(&mut h, k, r);
    }
    let below = r.estimate.below_lower_bound.as_ref();
    let messages: Vec<&String> =
        r.estimate.warnings.iter().chain(r.estimate.notes.iter()).filter(|m| Some(*m) != below).collect();
    if !messages.is_empty() {
        h.push_static(r#"<ul class="messages">"#);
        for m in messages {
            html!(h, "<li>{}</li>", m);
        }
        h.push_static("</ul>");
    }
    h
}

/// The line a stale card, chart or recommendation carries while a field is being fixed.
pub fn stale_line(what: &str) -> Html {
    let mut h = Html::new();
    html!(h, r#"<p class="stale" role="status">{} the last valid inputs: fix the field marked below.</p>"#, what);
    h
}

/// "8 × 50 Gb/s RoCE on 2 nodes: step 29.1 s, 3% exposed".
pub fn fabric_line(f: &FabricChoice) -> String {
    format!(
        "{} × {} Gb/s {} on {} nodes: step {}, {} exposed",
        f.adapters_per_node,
        human::num(f.link_gbps, 0),
        f.fabric.label(),
        f.nodes,
        human::secs(f.step_s),
        human::pct(f.exposed_share)
    )
}

/// The smallest-fabric sentence.
pub fn min_fabric_text(r: &SideResult) -> String {
    let rec = &r.estimate.recommendation;
    let target = human::pct(rec.target_exposed_share);
    match (&rec.min_fabric, rec.kind, r.scenario.nodes()) {
        (Some(f), _, _) => {
            format!("Smallest fabric keeping exposed communication under {target}: {}.", fabric_line(f))
        }
        (None, RecommendationKind::SingleNode, 1) => "One node: no fabric needed.".to_string(),
        (None, _, _) if r.scenario.domains() == 1 && r.scenario.multi_node_nvlink() => {
            "One NVLink domain: no fabric needed.".to_string()
        }
        (None, _, _) => format!(
            "No fabric this kind of node is sold with keeps exposed communication under {target} here; overlap \
             more communication or do more compute per step (larger batches, gradient accumulation)."
        ),
    }
}

/// One scenario's recommendation card body, marked stale while the side's form has an error. Ids:
/// `{a,b}-rec-kind`, `-min-fabric`.
pub fn recommendation_card(side: Side, r: &SideResult, stale: bool) -> Html {
    let k = side.key();
    let rec = &r.estimate.recommendation;
    let m = &r.estimate.memory;
    let mut h = if stale { stale_line("For") } else { Html::new() };
    html!(
        h,
        r#"<h3><span class="badge">{}</span><span id="{}-rec-kind">{}</span></h3>"#,
        side.label(),
        k,
        rec.headline
    );
    reasons(&mut h, &rec.reasons);
    html!(
        h,
        r#"<p class="memory">Memory: {} per GPU of {} as configured ({}).</p><p class="min-fabric" id="{}-min-fabric">{}</p>"#,
        human::gib(m.total_bytes_per_gpu),
        human::gib(m.gpu_memory_bytes),
        if m.fits {
            "fits"
        } else if m.may_fit {
            "may not fit"
        } else {
            "does not fit"
        },
        k,
        min_fabric_text(r)
    );
    h
}

/// [`details`] of both sides of a page query, for the details worker: (traffic, layout) of A, then of B; a side
/// whose inputs do not read gets nothing (its card says it shows the last valid inputs).
pub fn details_of_query(query: &str) -> [(Html, Html); 2] {
    let (state, _) = crate::share::PageState::from_query(query);
    let of = |side: Side, form: &crate::form::ScenarioForm| {
        form.to_scenario().map_or_else(|_| (Html::new(), Html::new()), |s| details(side, &s))
    };
    [of(Side::A, &state.a), of(Side::B, &state.b)]
}

/// What the details worker draws for one side into its result and recommendation cards (`{a,b}-traffic-box`,
/// `{a,b}-layout`): the step's traffic table with the GPU figures' source, and the layout advice. Kept out of the first load: the advice
/// estimates the step once per sync strategy, and neither decides the answer at the top of the card.
pub fn details(side: Side, s: &Scenario) -> (Html, Html) {
    let k = side.key();
    let full = estimator_core::estimate_without_layout_advice(s);
    let mut traffic = Html::new();
    traffic_table(&mut traffic, k, s, &full.step);
    // The notes the first load leaves out (`estimate_brief`), but the one its card shows.
    let notes: Vec<&String> = full.notes.iter().filter(|n| Some(*n) != full.below_lower_bound.as_ref()).collect();
    if !notes.is_empty() {
        traffic.push_static(r#"<ul class="messages">"#);
        for n in notes {
            html!(traffic, "<li>{}</li>", n);
        }
        traffic.push_static("</ul>");
    }
    html!(traffic, r#"<p class="fine source" id="{}-gpu-source">GPU figures: {}</p>"#, k, s.gpu().source());
    let mut layout = Html::new();
    if let Some(l) = estimator_core::recommend::advise(s) {
        html!(layout, "<b>Layout:</b> {}.", l.headline);
    }
    // The recommendation's reasons: the first load computes the answer without them (`estimate_brief`).
    reasons(&mut layout, &full.recommendation.reasons);
    (traffic, layout)
}

/// A recommendation's reasons as a list (nothing when there are none).
fn reasons(h: &mut Html, reasons: &[String]) {
    if reasons.is_empty() {
        return;
    }
    h.push_static(r#"<ul class="reasons">"#);
    for reason in reasons {
        html!(h, "<li>{}</li>", reason);
    }
    h.push_static("</ul>");
}

/// What a loaded report filled in, one line each.
pub fn report_taken(side: Side, name: &str, said: &[String]) -> Html {
    let mut h = Html::new();
    html!(h, "<p id=\"report-filled\">Filled scenario {} from {}:</p><ul id=\"report-taken\">", side.label(), name);
    for line in said {
        html!(h, "<li>{}</li>", line);
    }
    h.push_static("</ul>");
    h
}

/// The node's readiness checks from its report: the worst outcome, then every check that is not a pass with what
/// the probe saw and the fix; the passes by name. Nothing for a report without checks (an older probe).
pub fn readiness(checks: &[estimator_core::report::ReadinessCheck]) -> Html {
    use estimator_core::report::CheckStatus;
    let mut h = Html::new();
    let Some(worst) = CheckStatus::ALL.into_iter().find(|s| checks.iter().any(|c| c.status == *s)) else {
        return h;
    };
    let verdict = match worst {
        CheckStatus::Fail => "not ready",
        CheckStatus::Warn => "ready, with warnings",
        CheckStatus::Unknown => "no problem found, some checks could not be made",
        CheckStatus::Pass => "ready",
    };
    html!(
        h,
        r#"<div id="report-readiness"><p>Readiness for a multi-node job: <b>{}</b>.</p><ul class="readiness">"#,
        verdict
    );
    for status in [CheckStatus::Fail, CheckStatus::Warn, CheckStatus::Unknown] {
        for c in checks.iter().filter(|c| c.status == status) {
            html!(h, r#"<li class="check-{}"><b>{}</b> {}: {}"#, status.name(), status.name(), c.id, c.saw);
            if let Some(fix) = &c.fix {
                html!(h, r#"<br><span class="fix">Fix: {}</span>"#, fix);
            }
            h.push_static("</li>");
        }
    }
    let passed: Vec<&str> = checks.iter().filter(|c| c.status == CheckStatus::Pass).map(|c| c.id.as_str()).collect();
    if !passed.is_empty() {
        html!(h, r#"<li class="check-pass"><b>pass</b> {}</li>"#, passed.join(", "));
    }
    h.push_static("</ul>");
    // What the scenario filled from the report does not carry: the estimate is for the node with these fixed
    // (GPUDirect RDMA's support, the ports and their rate are in the scenario; the rest is not).
    let assumed: Vec<&str> = checks
        .iter()
        .filter(|c| {
            matches!(c.status, CheckStatus::Fail | CheckStatus::Warn)
                && !matches!(c.id.as_str(), "gdr" | "network" | "rdma-ports")
        })
        .map(|c| c.id.as_str())
        .collect();
    if !assumed.is_empty() {
        html!(
            h,
            r#"<p class="warn" id="report-assumed">The estimate is for this node with {} fixed: the scenario does not carry {}.</p>"#,
            assumed.join(", "),
            if assumed.len() == 1 { "it" } else { "them" }
        );
    }
    h.push_static("</div>");
    h
}

/// The recommendation for the scenario a report filled, as it stood when the report was loaded.
pub fn report_recommendation(side: Side, r: &SideResult) -> Html {
    let mut h = Html::new();
    html!(h, "<p id=\"report-rec\">With this node and the scenario's model: {}</p>", recommendation_line(side, r));
    h
}

/// What a pasted tool output held, in a few lines; what the output does not say is left out, not guessed.
pub fn imported(name: &str, i: &estimator_core::import::Imported) -> Html {
    use estimator_core::import::Imported;
    let mut h = Html::new();
    html!(h, "<p id=\"report-filled\">Read {} ({}):</p><ul id=\"report-taken\">", name, i.kind().name());
    let mut li = |t: String| html!(h, "<li>{}</li>", t);
    let evidence = "kept as evidence for the next nccl-tests run you load";
    match i {
        Imported::NcclTests(r) => {
            let mut line = human::plural(r.rows.len() as u64, "row");
            if let Some(t) = &r.test {
                let _ = write!(line, " of {t}");
            }
            if let Some(n) = r.ranks {
                let _ = write!(line, " over {}", human::plural(u64::from(n), "rank"));
            }
            if let Some(b) = r.peak_busbw_gbs {
                let _ = write!(line, "; peak bus bandwidth {} GB/s", human::num(b, 2));
            }
            li(line);
            if r.rows.is_empty() {
                li(estimator_core::import::nccl_tests::NO_ROWS.to_string());
            }
            if r.truncated {
                li("the output is cut short".to_string());
            }
        }
        Imported::NcclLog(l) => {
            let mut parts = l.facts();
            if l.transport.is_none() {
                parts.push("transport not in the log".to_string());
            }
            li(parts.join(", "));
            li(evidence.to_string());
        }
        Imported::NvidiaSmiTopo(t) => {
            for n in &t.nearest {
                li(format!("{}: nearest {} {}", n.gpu, n.nic, n.class));
            }
            li(evidence.to_string());
        }
        Imported::NcclInspector(d) => {
            li(d.describe());
            li("judged against the model by probe-cli check-run --inspector".to_string());
        }
        Imported::PytorchTrace(t) => {
            li(t.describe());
            li("judged against the model by probe-cli check-run --trace".to_string());
        }
        Imported::Ibstat { adapters } | Imported::IbvDevinfo { adapters } => {
            for a in adapters {
                for p in &a.ports {
                    let mut line = format!("{} port {}", a.name, p.port);
                    let state = [p.state.as_deref(), p.link_layer.as_deref()].into_iter().flatten().collect::<Vec<_>>();
                    if !state.is_empty() {
                        let _ = write!(line, ": {}", state.join(" "));
                    }
                    if let Some(r) = p.rate_gbps {
                        let _ = write!(line, ", {} Gb/s", human::num(r, 1));
                    }
                    li(line);
                }
            }
        }
    }
    h.push_static("</ul>");
    h
}

/// A health verdict for a run on scenario `side`, with what does not match, the evidence given earlier and the
/// causes; `offer` is the button's text: the one change the user may ask for (nothing changes without it).
pub fn health(side: Side, hl: &estimator_core::health::Health, offer: Option<&str>) -> Html {
    let l = &hl.large;
    let mut h = Html::new();
    let mismatch = hl.verdict == estimator_core::health::Verdict::Mismatch;
    if mismatch {
        // Not judged: no share of the model's figure, no curve against hardware the run is not from.
        html!(
            h,
            "<p id=\"report-verdict\">Verdict: <b>not judged</b> (mismatch). At {} this {} run ({} ranks, from {}) \
             measured {} GB/s bus bandwidth, but it is not from scenario {}'s hardware, so the model's figure for that \
             hardware says nothing about it:</p><ul id=\"report-mismatch\">",
            human::binary(estimator_core::Bytes::new(l.size_bytes)),
            hl.op.name(),
            hl.ranks,
            hl.ranks_from,
            human::num(l.measured_busbw_gbs, 2),
            side.label()
        );
        for m in &hl.mismatch {
            html!(h, "<li>{}</li>", m);
        }
        h.push_static("</ul>");
    } else {
        html!(
            h,
            "<p id=\"report-verdict\">Verdict: <b>{}</b>. At {} this {} run ({} ranks, from {}) measured {} GB/s bus \
             bandwidth; the model expects {} GB/s ({}/{}{}) on scenario {}'s hardware: {}.</p>",
            hl.verdict.name(),
            human::binary(estimator_core::Bytes::new(l.size_bytes)),
            hl.op.name(),
            hl.ranks,
            hl.ranks_from,
            human::num(l.measured_busbw_gbs, 2),
            human::num(l.expected_busbw_gbs, 1),
            l.algorithm,
            l.protocol,
            l.expected_ring_busbw_gbs.map_or(String::new(), |r| format!("; Ring {}", human::num(r, 1))),
            side.label(),
            // Between the Ring's figure and NCCL's choice the run is as expected: said so, not as "100%" of a
            // figure it is 91% of.
            match l.expected_ring_busbw_gbs {
                Some(r) if l.ratio == 1.0 => format!(
                    "within the model's range, from {} to {} GB/s",
                    human::num(r.min(l.expected_busbw_gbs), 1),
                    human::num(r.max(l.expected_busbw_gbs), 1)
                ),
                Some(_) => format!("{}% of the range's nearer end", human::num(l.ratio * 100.0, 0)),
                None => format!("{}%", human::num(l.ratio * 100.0, 0)),
            }
        );
        if let Some(d) = &hl.departure {
            html!(h, "<p id=\"report-departure\">{}</p>", d);
        }
        h.push(&crate::curve::figure(hl));
    }
    if !hl.evidence.is_empty() {
        h.push_static("<ul id=\"report-evidence\">");
        for e in &hl.evidence {
            html!(h, "<li>{}</li>", e);
        }
        h.push_static("</ul>");
    }
    h.push_static("<ul>");
    for c in &hl.causes {
        html!(h, "<li>{}", c.text);
        for t in &c.check {
            html!(h, "<br>check: {}", t);
        }
        h.push_static("</li>");
    }
    html!(h, "</ul><p id=\"report-rec\">Scenario {} is unchanged. ", side.label());
    match offer {
        Some(o) => html!(h, "<button type=\"button\" id=\"report-offer\">{}</button></p>", o),
        None if hl.verdict == estimator_core::health::Verdict::Mismatch => h.push_static(
            "Load this run into the scenario of the hardware it ran on, or set this one's adapters, line rate and \
             fabric to that hardware's.</p>",
        ),
        None => html!(
            h,
            "An {} run measures the fabric; the scenario's all-reduce stays the model's (an all_reduce_perf run can \
             stand in for it).</p>",
            hl.op.name()
        ),
    }
    h
}

/// Why a report was refused.
pub fn report_error(name: &str, error: &str) -> Html {
    let mut h = Html::new();
    html!(h, "<p class=\"error\" id=\"report-error\">{}: {}. The scenario is unchanged.</p>", name, error);
    h
}

/// The compact recommendation of embed mode.
pub fn recommendation_line(side: Side, r: &SideResult) -> String {
    let rec = &r.estimate.recommendation;
    let fabric = rec.min_fabric.as_ref().map(|f| format!(" Smallest fabric: {}.", fabric_line(f))).unwrap_or_default();
    format!("{}: {}.{fabric}", side.label(), rec.headline)
}

/// The reference arithmetic of a card (`{k}-reference`), where a gradient sync crosses the adapters: the seed's
/// one-link figure for DDP's all-reduce, labelled as a reference rather than a bound, with why the estimate is
/// below it (`{k}-below`).
fn reference_block(h: &mut Html, k: &str, r: &SideResult) {
    let l = &r.estimate.reference_lower_bound;
    let i = r.scenario.input();
    let gb = human::gb(l.gradient_bytes);
    let per = human::gb(l.bytes_per_participant);
    let rate = human::num(l.link_gbyte_per_s.get(), 4);
    // DDP's all-reduce whatever the layout: its volume factor is 1 (`reference_lower_bound`).
    html!(
        h,
        r#"<div class="block lower"><p class="kicker">The reference arithmetic (one link per GPU)</p><p class="big" id="{0}-reference">{1}</p><ol class="arith" aria-label="The arithmetic"><li>Gradients: {2} × {3} bytes ({4}) = <b>{5}</b></li><li>Through each participant's link: {6} × {5} = <b>{7}</b></li><li>One adapter: {8} Gb/s = <b>{9} GB/s</b></li><li>{7} ÷ {9} GB/s = <b>{1}</b></li></ol><p class="fine">A reference for DDP's all-reduce, not a bound on this node: one adapter per participant, ring factor {6}, no latency, no overlap.</p>"#,
        k,
        human::secs(l.time_s),
        human::params(i.params),
        human::num(i.dtype.bytes(), 0),
        dtype_label(i.dtype),
        gb,
        human::num(l.ring_factor, 3),
        per,
        human::num(i.link_gbps, 3),
        rate,
    );
    if let Some(why) = &r.estimate.below_lower_bound {
        html!(h, r#"<p class="why" id="{}-below">{}</p>"#, k, why);
    }
    h.push_static("</div>");
}
