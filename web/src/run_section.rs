//! "Check a run": the step a user measured on a scenario's nodes against the model's step for that scenario,
//! with the run's own single-node step as the compute (estimator-core's `run_check`). Drawn by the details worker
//! only (`static/sections.js` asks for the form and the result): none of it weighs on the first load. The state
//! lives in the URL's `run.*` pairs, which the app keeps when it writes its own ([`crate::share::with_sections`]).
//!
//! Inputs: `run.side` (`a` or `b`), `run.compute_ms`, `run.by` (`step`, `tokens` or `samples`), `run.measured` (seconds
//! per step, tokens per second or samples per second) and `run.per_step` (tokens or samples per step; blank: the
//! scenario's for tokens). The NCCL log and `nvidia-smi topo -m` loaded last in "Your node" are evidence.

use estimator_core::import::trace::TraceSteps;
use estimator_core::import::{NcclLog, Topology};
use estimator_core::quantity::{parse_count, parse_time};
use estimator_core::run_check::{RunCheck, RunEvidence, RunInput, RunVerdict, check_run};
use estimator_core::run_collectives::Calls;
use estimator_core::{ComputeInput, Field, Scenario, Seconds, human};

use crate::html;
use crate::html::Html;
use crate::section_form::{input, select, side_select};
use crate::share::{PageState, Side, section};

/// How the run's speed was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Seconds per step.
    Step,
    /// Tokens per second.
    Tokens,
    /// Samples per second.
    Samples,
}

/// The section's inputs, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunForm {
    /// The scenario checked.
    pub side: Side,
    /// The run's step on one node, ms.
    pub compute_ms: String,
    /// What was measured.
    pub by: By,
    /// The measurement.
    pub measured: String,
    /// Tokens or samples per step.
    pub per_step: String,
}

impl RunForm {
    /// Reads the `run.*` pairs of a page query.
    pub fn from_query(query: &str) -> RunForm {
        let mut f = RunForm {
            side: Side::A,
            compute_ms: String::new(),
            by: By::Step,
            measured: String::new(),
            per_step: String::new(),
        };
        for (k, v) in section(query, "run") {
            match k.as_str() {
                "side" => f.side = if v == "b" { Side::B } else { Side::A },
                "compute_ms" => f.compute_ms = v,
                "by" => {
                    f.by = match v.as_str() {
                        "tokens" => By::Tokens,
                        "samples" => By::Samples,
                        _ => By::Step,
                    }
                }
                "measured" => f.measured = v,
                "per_step" => f.per_step = v,
                _ => {}
            }
        }
        f
    }

    /// Whether the user has started: a compute and a measurement given (or a trace's steps to take them from).
    pub fn filled(&self, steps: bool) -> bool {
        steps || (!self.compute_ms.trim().is_empty() && !self.measured.trim().is_empty())
    }
}

/// The label of an input, for its error.
fn label(field: Field) -> &'static str {
    match field {
        Field::ComputeMs => "Compute (the run's step on one node)",
        Field::TokensPerStep | Field::SamplesPerStep => "Per step",
        _ => "Measured",
    }
}

fn number(label: &str, text: &str) -> Result<f64, String> {
    // A rate as people write it: `12k`, `12k tokens/s`, `340 samples/s`.
    let t = text.trim().trim_end_matches("/s").trim_end();
    let t = t.trim_end_matches("tokens").trim_end_matches("samples").trim_end();
    parse_count(t).map_err(|e| format!("{label}: {e}"))
}

/// A time as people write it (`1.2`, `1.2 s`, `850 ms`), in seconds; a bare number is in `bare` seconds.
fn time(label: &str, text: &str, bare: f64) -> Result<f64, String> {
    parse_time(text, bare).map_err(|e| format!("{label}: {e}"))
}

/// The check of the form's run on its scenario, or why there is none: `Ok(None)` before the user has started. The
/// run's own records loaded in the section are evidence; a trace's steps give the compute and the measurement when
/// they are left blank.
pub fn check(query: &str, log: Option<&NcclLog>, topo: Option<&Topology>) -> Result<Option<(Side, RunCheck)>, String> {
    crate::run_records::with(|calls, steps| check_with(query, log, topo, calls, steps))
}

fn check_with(
    query: &str,
    log: Option<&NcclLog>,
    topo: Option<&Topology>,
    calls: Option<&Calls>,
    steps: Option<&TraceSteps>,
) -> Result<Option<(Side, RunCheck)>, String> {
    let f = RunForm::from_query(query);
    let steps = steps.filter(|t| t.median_step_s.is_some());
    if !f.filled(steps.is_some()) {
        return Ok(None);
    }
    let (state, _) = PageState::from_query(query);
    let form = if f.side == Side::A { &state.a } else { &state.b };
    let (mut input, errors) = form.read();
    if !errors.is_empty() {
        return Err(format!("Scenario {}'s inputs do not read: fix them above.", f.side.label()));
    }
    let compute = match (f.compute_ms.trim().is_empty(), steps.and_then(|t| t.median_compute_s)) {
        (true, Some(t)) => t * 1e3,
        _ => time(label(Field::ComputeMs), &f.compute_ms, 1e-3)? * 1e3,
    };
    // The scenario as it stands: its tokens per step and micro-batches hold for the run, whose compute replaces
    // the modelled one (a given compute alone would leave the layout one micro-batch and its tokens unknown).
    let scenario_tokens = match input.compute {
        ComputeInput::Tokens { tokens_per_step, .. } => Some(tokens_per_step),
        ComputeInput::Given { .. } => None,
    };
    if let Ok(s) = Scenario::new(input.clone()) {
        let modelled = estimator_core::step::compute_time(&s);
        // A bare number is milliseconds, as the label says; one that far below the model's compute is asked about.
        let bare = estimator_core::quantity::parse_number(f.compute_ms.trim()).is_some();
        if bare && compute < modelled.as_millis() / 100.0 {
            let t = f.compute_ms.trim();
            return Err(format!(
                "{}: {t} ms is under 1% of the model's {} for this job on one node's work: write the unit ({t} s, or \
                 {t} ms to keep it).",
                label(Field::ComputeMs),
                human::secs(modelled)
            ));
        }
        if input.micro_batches.is_none() && input.grad_accum_steps <= 1 {
            input.micro_batches = Some(i64::from(s.layout().micro_batches));
        }
    }
    input.compute = ComputeInput::Given { ms: compute };
    let s = Scenario::new(input).map_err(|e| match e.field {
        Field::ComputeMs => format!("{}: {}", label(e.field), e.reason),
        _ => format!("Scenario {}: {e}", f.side.label()),
    })?;
    let from_trace = f.measured.trim().is_empty();
    let measured = match (from_trace, steps.and_then(|t| t.median_step_s), f.by) {
        (true, Some(t), _) => t,
        (_, _, By::Step) => time(label(Field::MeasuredStepS), &f.measured, 1.0)?,
        (_, _, By::Tokens | By::Samples) => number(label(Field::MeasuredStepS), &f.measured)?,
    };
    let per_step = if f.per_step.trim().is_empty() { None } else { Some(number("Per step", &f.per_step)?) };
    let run = match (from_trace, f.by) {
        (true, _) | (false, By::Step) => RunInput { measured_step_s: Some(measured), ..RunInput::default() },
        (false, By::Tokens) => RunInput {
            measured_tokens_per_s: Some(measured),
            tokens_per_step: per_step,
            scenario_tokens_per_step: scenario_tokens,
            ..RunInput::default()
        },
        (false, By::Samples) => {
            RunInput { measured_samples_per_s: Some(measured), samples_per_step: per_step, ..RunInput::default() }
        }
    };
    let mut m = run.step(&s).map_err(|e| format!("{}: {}", label(e.field), e.reason))?;
    if from_trace && let Some(t) = steps {
        m.from = format!("the trace's median step over {}", human::plural(t.steps.len() as u64, "step"));
    }
    let ev = RunEvidence { log, topo, calls, trace: steps, ..RunEvidence::default() };
    Ok(Some((f.side, check_run(&s, &m, ev))))
}

/// The section's form, with the values of the query.
pub fn form(query: &str) -> Html {
    let f = RunForm::from_query(query);
    let mut h = Html::from_static(
        "<p class=\"fine\">Is a slow run the network's fault? Give the run's own step on one node (the compute, \
         for the same work per GPU) and what it measured on the scenario's nodes: the check runs the scenario's \
         job and hardware with that compute. An NCCL log or <code>nvidia-smi topo -m</code> loaded in \
         \"Your node\" is evidence for it.</p><div class=\"sec-form\" data-sec=\"run\">",
    );
    side_select(&mut h, "Scenario", "run-side", f.side);
    input(
        &mut h,
        "Compute: the run's step on one node, ms",
        "compute_ms",
        "run-compute",
        " inputmode=\"decimal\"",
        &f.compute_ms,
    );
    let by = match f.by {
        By::Step => "step",
        By::Tokens => "tokens",
        By::Samples => "samples",
    };
    let options = [("step", "seconds per step"), ("tokens", "tokens per second"), ("samples", "samples per second")];
    select(&mut h, "Measured on the nodes", "by", "run-by", &options, by);
    input(&mut h, "Value", "measured", "run-measured", " inputmode=\"decimal\"", &f.measured);
    input(
        &mut h,
        "Tokens or samples per step",
        "per_step",
        "run-per-step",
        " placeholder=\"the scenario's\"",
        &f.per_step,
    );
    h.push_static("</div>");
    h.push_static(
        "<p class=\"sec-files\"><label for=\"run-files\">The run's own records (optional): PyTorch profiler traces, \
         one per rank (<code>.json</code> or <code>.json.gz</code>), or NCCL Inspector's <code>.log</code> files. \
         A trace's steps stand in for a blank compute and measurement.</label> <input type=\"file\" \
         id=\"run-files\" multiple accept=\".json,.gz,.jsonl,.log\"></p><div id=\"run-records\" \
         aria-live=\"polite\"></div>",
    );
    h.push_static("<div id=\"run-result\" aria-live=\"polite\"></div>");
    h
}

fn secs(t: f64) -> String {
    human::secs(Seconds::new(t))
}

/// The section's result for the query: the verdict with its figures, causes and evidence; a prompt before the
/// user has started; the error, naming the input, when an input does not read.
pub fn result(query: &str, log: Option<&NcclLog>, topo: Option<&Topology>) -> Html {
    let c = match check(query, log, topo) {
        Ok(None) => {
            return Html::from_static(
                "<p class=\"fine\">Fill the compute and the measurement to check a run, or load a trace with its \
                 steps.</p>",
            );
        }
        Err(e) => {
            let mut h = Html::new();
            html!(h, "<p class=\"error\" id=\"run-error\">{}</p>", e);
            return h;
        }
        Ok(Some((_, c))) => c,
    };
    let mut h = Html::new();
    html!(h, "<p class=\"run-verdict {}\" id=\"run-verdict\"><b>Verdict</b>: {}.</p>", c.verdict.name(), c.headline);
    h.push_static("<table class=\"run-figures\"><tbody>");
    for (k, v) in c.figures() {
        html!(h, "<tr><th scope=\"row\">{}</th><td>{}</td></tr>", k, v);
    }
    h.push_static("</tbody></table>");
    if !c.causes.is_empty() {
        let title =
            if c.verdict == RunVerdict::SlowerThanExpected { "Likely causes, most likely first" } else { "Notes" };
        html!(h, "<h3>{}</h3><ol class=\"run-causes\" id=\"run-causes\">", title);
        for k in &c.causes {
            html!(h, "<li data-cause=\"{}\"><b>{}</b> ({}): {}<ul>", k.id, k.id, k.status, k.text);
            for x in &k.check {
                html!(h, "<li>check: {}</li>", x);
            }
            h.push_static("</ul></li>");
        }
        h.push_static("</ol>");
    }
    if !c.ruled_out.is_empty() {
        h.push_static("<h3>Ruled out</h3><ul class=\"fine\">");
        for r in &c.ruled_out {
            html!(h, "<li>{}: {}</li>", r.id, r.why);
        }
        h.push_static("</ul>");
    }
    if !c.cannot_tell.is_empty() {
        h.push_static("<h3>Cannot tell from the step alone</h3><ul class=\"fine\" id=\"run-cannot-tell\">");
        for r in &c.cannot_tell {
            html!(h, "<li>{}: {}</li>", r.id, r.why);
        }
        h.push_static("</ul>");
    }
    for e in &c.evidence {
        html!(h, "<p class=\"fine\">Evidence: {}</p>", e);
    }
    if let Some(cc) = &c.collectives {
        h.push(&crate::run_records_view::collectives(cc));
    }
    if let Some(t) = &c.trace {
        h.push(&crate::run_records_view::trace(t));
    }
    h
}

/// The verdict in one line, for the checked scenario's card (`render::details`), when the section holds a run for
/// `side`.
pub fn verdict_line(query: &str, side: Side, log: Option<&NcclLog>, topo: Option<&Topology>) -> Html {
    let mut h = Html::new();
    if RunForm::from_query(query).side != side {
        return h;
    }
    if let Ok(Some((_, c))) = check(query, log, topo) {
        let first = c.causes.first().filter(|_| c.verdict == RunVerdict::SlowerThanExpected);
        let likely = first.map_or_else(String::new, |k| format!("; most likely {}", k.id));
        html!(
            h,
            "<p class=\"run-verdict {}\" id=\"{}-run-verdict\"><b>Your run</b>: {}, {} measured against {} expected{} (Check a run, below).</p>",
            c.verdict.name(),
            side.key(),
            c.verdict.label(),
            secs(c.measured_step_s),
            secs(c.expected_step_s),
            likely
        );
    }
    h
}
