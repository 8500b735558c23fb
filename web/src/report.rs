//! A probe report pasted, uploaded or dropped into "Your node": parsed by the browser's own `JSON.parse` and read
//! field by field into estimator-core's [`read_fields`], which checks the version and the summary exactly as the
//! CLI's serde reader does (estimator-core tests the two against each other).
//!
//! This runs in the details worker (`src/bin/details_worker.rs`), which the page loads the first time a report is
//! loaded, so none of it weighs on the first load: [`handle`] takes the page's URL query and the report, and
//! returns the new query (the page re-reads its state from it) and what to show.

use estimator_core::report::{
    MAX_REPORT_BYTES, ReadinessCheck, Report, ReportError, Scalar, Summary, read_fields, read_readiness,
};
use wasm_bindgen::{JsCast as _, JsValue};

use std::cell::RefCell;

use estimator_core::Fabric;
use estimator_core::catalog::GPUS;
use estimator_core::health::{Evidence, Health, Verdict, judge, run_hardware};
use estimator_core::import::{self, Imported, NcclLog, Topology};

use crate::form::FormField;
use crate::html;
use crate::html::Html;
use crate::render;
use crate::result::SideResult;
use crate::share::{PageState, Side};

/// The largest tool output read (a long NCCL_DEBUG=INFO log); reports stay within [`MAX_REPORT_BYTES`].
pub const MAX_TOOL_BYTES: usize = 16 << 20;

thread_local! {
    /// The last NCCL log and topology loaded: evidence for the next nccl-tests run's verdict.
    static EVIDENCE: RefCell<(Option<NcclLog>, Option<Topology>)> = const { RefCell::new((None, None)) };
}

/// Runs `f` with the NCCL log and the topology loaded last (evidence for the run check too).
pub fn with_evidence<R>(f: impl FnOnce(Option<&NcclLog>, Option<&Topology>) -> R) -> R {
    EVIDENCE.with(|e| {
        let e = e.borrow();
        f(e.0.as_ref(), e.1.as_ref())
    })
}

fn scalar(v: &JsValue) -> Scalar {
    if v.is_undefined() {
        Scalar::Missing
    } else if v.is_null() {
        Scalar::Null
    } else if let Some(b) = v.as_bool() {
        Scalar::Bool(b)
    } else if let Some(n) = v.as_f64() {
        Scalar::Number(n)
    } else if let Some(s) = v.as_string() {
        Scalar::Text(s)
    } else if js_sys::Array::is_array(v) {
        Scalar::Array
    } else {
        Scalar::Object
    }
}

/// Reads a report's summary from its text, or says what is wrong with it, naming the field.
pub fn read_summary(text: &str) -> Result<Summary, ReportError> {
    read_report(text).map(|(summary, _)| summary)
}

/// Reads a report's summary and its readiness checks (what the probe found wrong with the node).
pub fn read_report(text: &str) -> Result<(Summary, Vec<ReadinessCheck>), ReportError> {
    let get = getter(parse(text)?);
    let summary = read_fields(&get)?;
    Ok((summary, read_readiness(&get)))
}

/// A report's text as the browser's `JSON.parse` reads it, at most [`MAX_REPORT_BYTES`].
pub fn parse(text: &str) -> Result<JsValue, ReportError> {
    if ReportError::is_empty_text(text.as_bytes()) {
        return Err(ReportError::empty());
    }
    if text.len() > MAX_REPORT_BYTES {
        return Err(ReportError::too_large(text.len()));
    }
    js_sys::JSON::parse(text).map_err(|e| {
        let detail =
            e.dyn_ref::<js_sys::Error>().map_or_else(|| "unreadable".to_string(), |e| String::from(e.message()));
        ReportError::not_json(detail)
    })
}

/// A report document's fields by path (`summary.gpus`, `readiness.0.id`), for estimator-core's field readers: only
/// own data of plain objects and indexes within arrays.
pub fn getter(root: JsValue) -> impl Fn(&str) -> Scalar {
    move |path: &str| {
        let mut at = root.clone();
        for key in path.split('.').filter(|k| !k.is_empty()) {
            if js_sys::Array::is_array(&at) {
                // An index within the array, nothing else.
                let array: &js_sys::Array = at.unchecked_ref();
                match key.parse::<u32>() {
                    Ok(i) if i < array.length() => at = array.get(i),
                    _ => return Scalar::Missing,
                }
                continue;
            }
            // Only own data of plain objects: `__proto__` or a getter is not a report field.
            if !at.is_object() {
                return Scalar::Missing;
            }
            let obj: &js_sys::Object = at.unchecked_ref();
            if !js_sys::Object::has_own(obj, &JsValue::from_str(key)) {
                return Scalar::Missing;
            }
            at = js_sys::Reflect::get(&at, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        }
        scalar(&at)
    }
}

/// What the page shows after a load, and its new URL query when the report was used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Markup for the status area: what was taken and the recommendation, or why the file was refused.
    pub html: Html,
    /// The page's new query, when a scenario was filled; `None` when the scenario is unchanged.
    pub query: Option<String>,
}

/// The one change a verdict offers, kept until the user clicks it (or loads something else).
#[derive(Clone, Debug, PartialEq)]
struct Offer {
    side: Side,
    /// The run's measured bus bandwidth, as the form writes it (none for an adapters' listing).
    busbw: Option<String>,
    /// The adapters that carry GPU traffic, from `ibstat` or `ibv_devinfo`: how many, their line rate, fabric.
    adapters: Option<(u32, f64, Fabric)>,
    /// The run's own hardware, when it does not match the scenario's: nodes, GPUs per node, catalog GPU.
    nodes: Option<u32>,
    gpus_per_node: Option<u32>,
    gpu: Option<&'static str>,
}

thread_local! {
    static OFFER: RefCell<Option<Offer>> = const { RefCell::new(None) };
}

/// Loads what was pasted or dropped (`text`, from the file `name` of `size` bytes, or pasted when `name` is `None`)
/// into side A or B of the page state in `query`: a probe report fills the side's hardware; an nccl-tests run gets a
/// health verdict against the side's hardware as it stands and offers one change (its measured bus bandwidth, or
/// its own hardware when it is from another), which [`accept_offer`] makes; an NCCL log or `nvidia-smi topo -m` is
/// shown and kept as evidence for the next run; `ibstat` and `ibv_devinfo` are shown.
pub fn handle(query: &str, side: Side, name: Option<&str>, size: Option<usize>, text: &str) -> Reply {
    OFFER.with(|o| *o.borrow_mut() = None);
    let name = name.unwrap_or("the pasted text");
    let refuse = |e: String| Reply { html: render::report_error(name, &e), query: None };
    if size.unwrap_or(text.len()) > MAX_TOOL_BYTES {
        return refuse(format!("the file is over {} MiB, more than any tool output or report", MAX_TOOL_BYTES >> 20));
    }
    let t = text.trim_start();
    // A shell prompt (`[root@node ~]# ibstat`) opens with `[` too: a tool output it precedes is read as one.
    if t.is_empty() || t.starts_with('{') || (t.starts_with('[') && import::detect(text).is_none()) {
        return handle_report(query, side, name, size, text);
    }
    let Some(imported) = import::import(text) else {
        let why = read_summary(text).err().map_or_else(String::new, |e| e.to_string());
        return refuse(format!(
            "{why}; nor is it a tool output the page reads (nccl-tests, an NCCL_DEBUG=INFO log, nvidia-smi topo -m, \
             ibstat, ibv_devinfo)"
        ));
    };
    let (state, _) = PageState::from_query(query);
    let mut form = if side == Side::A { state.a } else { state.b };
    let mut html = render::imported(name, &imported);
    match imported {
        Imported::NcclLog(log) => EVIDENCE.with(|e| e.borrow_mut().0 = Some(log)),
        Imported::NvidiaSmiTopo(topo) => EVIDENCE.with(|e| e.borrow_mut().1 = Some(topo)),
        Imported::NcclTests(run) => {
            if run.runs_in_file > 1 {
                // A sweep or a rerun appended: each run is its own; the page judges the first and says so.
                let runs = import::nccl_tests::parse_runs(text);
                crate::html!(
                    html,
                    r#"<p class="warn" id="paste-runs">This text holds {} runs; the first is judged here (paste one run to judge another):</p><ul class="fine">"#,
                    runs.len()
                );
                for r in &runs {
                    use estimator_core::human::{num, plural};
                    // Hosts are counted from the rank lines: a node count only when every rank's line is there
                    // (as `health::run_hardware` reads it), else the ranks alone.
                    let hw = run_hardware(r);
                    let ranks = hw.ranks.map_or("? ranks".to_string(), |n| plural(u64::from(n), "rank"));
                    let on = hw.nodes.map_or(String::new(), |n| format!(" on {}", plural(u64::from(n), "node")));
                    crate::html!(
                        html,
                        "<li>run {}: {}{}, {}, peak bus bandwidth {} GB/s</li>",
                        r.run,
                        ranks,
                        on,
                        plural(r.rows.len() as u64, "row"),
                        r.peak_busbw_gbs.map_or("?".to_string(), |b| num(b, 2))
                    );
                }
                html.push_static("</ul>");
            }
            // A run printed with NCCL_DEBUG=INFO carries its own log: the best evidence there is.
            if let Some(log) = &run.nccl_log {
                EVIDENCE.with(|e| e.borrow_mut().0 = Some((**log).clone()));
            }
            // Judged against the model for the side's hardware as it stands, never against an earlier measurement.
            form.measured_busbw = String::new();
            match form.to_scenario() {
                Err(_) => html.push_static("<p>Fix the scenario's inputs to judge this run.</p>"),
                Ok(s) => {
                    let verdict = EVIDENCE.with(|e| {
                        let e = e.borrow();
                        judge(&s, &run, Evidence { log: e.0.as_ref(), topo: e.1.as_ref(), summary: None })
                    });
                    if let Some(h) = verdict {
                        let offer = offer_for(side, &s, &run, &h);
                        html.push(&render::health(side, &h, offer.as_ref().map(offer_text).as_deref()));
                        OFFER.with(|o| *o.borrow_mut() = offer);
                    }
                }
            }
        }
        Imported::Ibstat { adapters } | Imported::IbvDevinfo { adapters } => {
            let (next, offer) = adapters_next_step(side, &adapters);
            html.push(&next);
            OFFER.with(|o| *o.borrow_mut() = offer);
        }
        Imported::NcclInspector(_) | Imported::PytorchTrace(_) => {}
    }
    Reply { html, query: None }
}

/// The next step after an adapters' listing: the ports that are not up, named; the active ports at the highest
/// line rate (the ones a GPU node gives its GPUs; slower ones carry storage or management) offered as the side's
/// adapters, with InfiniBand or RoCE from their link layer; or why nothing is offered.
fn adapters_next_step(side: Side, adapters: &[import::ib::IbAdapter]) -> (Html, Option<Offer>) {
    let mut h = Html::new();
    let down = import::ib::down_ports(adapters);
    if !down.is_empty() {
        crate::html!(
            h,
            "<p class=\"warn\" id=\"paste-down\">Not active: {}. A port that is down carries nothing: check its \
             cable and <code>ibstat</code>'s physical state, or leave it out of the count.</p>",
            down.join(", ")
        );
    }
    let Some((n, best, fabric)) = import::ib::gpu_ports(adapters) else {
        h.push_static("<p id=\"paste-next\">No active port with a line rate: nothing to fill the scenario with.</p>");
        return (h, None);
    };
    let offer =
        Offer { side, busbw: None, adapters: Some((n, best, fabric)), nodes: None, gpus_per_node: None, gpu: None };
    crate::html!(
        h,
        "<p id=\"paste-next\">{} active {} at {} Gb/s ({}): the scenario's adapters if they carry its GPUs' traffic. \
         <button type=\"button\" id=\"report-offer\">{}</button></p>",
        n,
        if n == 1 { "port" } else { "ports" },
        estimator_core::human::num(best, 3),
        fabric.label(),
        offer_text(&offer)
    );
    (h, Some(offer))
}

/// What a verdict offers: the measured bus bandwidth for hardware the run is from; the run's own hardware with it
/// when the run says what that is; nothing when the run is from other hardware it does not describe.
fn offer_for(side: Side, s: &estimator_core::Scenario, run: &import::NcclTestsRun, h: &Health) -> Option<Offer> {
    // A measured bus bandwidth stands in for the model's all-reduce: another collective's says nothing of that.
    if h.op != estimator_core::collective::Op::AllReduce {
        return None;
    }
    let busbw = estimator_core::human::num(h.large.measured_busbw_gbs, 2);
    if h.verdict != Verdict::Mismatch {
        return Some(Offer { side, busbw: Some(busbw), adapters: None, nodes: None, gpus_per_node: None, gpu: None });
    }
    let hw = run_hardware(run);
    let gpus_per_node = hw.gpus_per_node.filter(|g| *g != s.gpus_per_node());
    let per_node = hw.gpus_per_node.unwrap_or(s.gpus_per_node());
    let nodes = hw.nodes.or_else(|| run.nodes_for(per_node)).filter(|n| *n != s.nodes());
    let gpu = hw.gpu.map(|g| g.key).filter(|k| *k != s.gpu().key && GPUS.iter().any(|g| g.key == *k));
    (nodes.is_some() || gpus_per_node.is_some() || gpu.is_some()).then_some(Offer {
        side,
        busbw: Some(busbw),
        adapters: None,
        nodes,
        gpus_per_node,
        gpu,
    })
}

fn offer_text(o: &Offer) -> String {
    let side = o.side.label();
    let Some(busbw) = &o.busbw else {
        return o.adapters.map_or_else(String::new, |(n, r, f)| {
            format!("Fill {side} with {n} x {} Gb/s {}", estimator_core::human::num(r, 3), f.label())
        });
    };
    let mut hw = Vec::new();
    if let Some(n) = o.nodes {
        hw.push(format!("{n} nodes"));
    }
    if let Some(g) = o.gpus_per_node {
        hw.push(format!("{g} GPUs per node"));
    }
    if let Some(g) = o.gpu.and_then(|k| GPUS.iter().find(|g| g.key == k)) {
        hw.push(g.name.to_string());
    }
    if hw.is_empty() {
        format!("Use the measured {busbw} GB/s for {side}")
    } else {
        format!("Fill {side} with this run's hardware ({}) and its {busbw} GB/s", hw.join(", "))
    }
}

/// Makes the change the last verdict offered, on the page state in `query`: the run's hardware (when it had other)
/// and its measured bus bandwidth. Nothing happens when there is no offer (another file was loaded since).
pub fn accept_offer(query: &str) -> Reply {
    let Some(o) = OFFER.with(|o| o.borrow_mut().take()) else {
        return Reply {
            html: Html::from_static("<p>Load the run again: the page holds no verdict to apply.</p>"),
            query: None,
        };
    };
    let (mut state, _) = PageState::from_query(query);
    let form = if o.side == Side::A { &mut state.a } else { &mut state.b };
    let mut changed = Vec::new();
    let (adapters, link, fabric) = match o.adapters {
        Some((n, r, f)) => (Some(n.to_string()), Some(estimator_core::human::num(r, 3)), Some(f.name().to_string())),
        None => (None, None, None),
    };
    for (f, v) in [
        (FormField::Gpu, o.gpu.map(str::to_string)),
        (FormField::GpusPerNode, o.gpus_per_node.map(|g| g.to_string())),
        (FormField::Nodes, o.nodes.map(|n| n.to_string())),
        (FormField::Adapters, adapters),
        (FormField::Link, link),
        (FormField::Fabric, fabric),
    ] {
        if let Some(v) = v {
            let _ = form.set(f, &v);
            changed.push(format!("{} {}", f.key(), v));
        }
    }
    if let Some(b) = &o.busbw {
        form.measured_busbw = b.clone();
        changed.push(format!("the measured bus bandwidth {b} GB/s (clear it with \"Use the model\" on the card)"));
    } else {
        // Other adapters than the ones a measurement was made on: it no longer holds.
        let _ = form.clear_measured();
    }
    let mut html = Html::new();
    html!(html, "<p id=\"report-filled\">Scenario {} now uses:</p><ul id=\"report-taken\">", o.side.label());
    for c in changed {
        html!(html, "<li>{}</li>", c);
    }
    html.push_static("</ul>");
    Reply { html, query: Some(crate::share::with_sections(&state.to_query(), query)) }
}

fn handle_report(query: &str, side: Side, name: &str, size: Option<usize>, text: &str) -> Reply {
    let read = match size {
        Some(n) if n > MAX_REPORT_BYTES => Err(ReportError::too_large(n)),
        _ => read_report(text),
    };
    match read {
        Err(e) => Reply { html: render::report_error(name, &e.to_string()), query: None },
        Ok((summary, readiness)) => {
            // The reader every command of the CLI uses: the whole report through serde, its readiness recomputed
            // by the core (a report of an older probe gets today's checks) and its interfaces read; a report serde
            // cannot take whole (an older schema) keeps the field reader's summary and the checks it carries.
            let full = parse(text).ok().and_then(|v| serde_wasm_bindgen::from_value::<Report>(v).ok());
            let readiness = full.as_ref().map_or(readiness, estimator_core::report::checks);
            let (mut state, _) = PageState::from_query(query);
            let form = if side == Side::A { &mut state.a } else { &mut state.b };
            let lines = form.apply_report(&summary, full.as_ref());
            let mut html = render::report_taken(side, name, &lines);
            html.push(&render::readiness(&readiness));
            if let Ok(s) = form.to_scenario() {
                html.push(&render::report_recommendation(side, &SideResult::new(&s)));
            }
            Reply { html, query: Some(crate::share::with_sections(&state.to_query(), query)) }
        }
    }
}
