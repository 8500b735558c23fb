//! The page: two scenarios side by side, their lower bound and realistic estimate, charts, the recommendation,
//! and the controls that share it.

use estimator_core::catalog::GPUS;
use estimator_core::human;
use estimator_core::shape::MODELS;
use estimator_core::{BatchRule, Fabric, GradDtype, Scenario, SyncStrategy};
use leptos::prelude::*;
use wasm_bindgen::JsCast as _;

use crate::browser;
use crate::chart::{self, SegmentKind};
use crate::form::{FieldError, FormField, LINE_RATES, MODEL_SIZES, PRESETS, ScenarioForm};
use crate::render::{self, dtype_label};
use crate::result::SideResult;
use crate::share::{self, ChartAxis, ChartView, PageState, Side};

/// One side's reactive state: the form as typed, its errors, the last valid scenario's results, and what an edit
/// cleared (a measured bus bandwidth that belonged to other hardware).
#[derive(Clone, Copy)]
struct SideState {
    side: Side,
    form: RwSignal<ScenarioForm>,
    errors: Memo<Vec<FieldError>>,
    result: Memo<SideResult>,
    cleared: RwSignal<Option<String>>,
}

impl SideState {
    fn new(side: Side, form: RwSignal<ScenarioForm>) -> SideState {
        let parsed = Memo::new(move |_| form.with(ScenarioForm::to_scenario));
        let errors = Memo::new(move |_| parsed.with(|p| p.as_ref().err().cloned().unwrap_or_default()));
        // The last valid scenario: an invalid form shows the one from before its typing began (never a value half
        // typed on the way: `form::Typing`), else what was valid before.
        let valid = Memo::new(move |prev: Option<&Scenario>| match parsed.get() {
            Ok(s) => s,
            Err(_) => {
                form.with(|f| f.before_typing().cloned()).or_else(|| prev.cloned()).unwrap_or_else(|| fallback(side))
            }
        });
        let result = Memo::new(move |_| valid.with(SideResult::new));
        SideState { side, form, errors, result, cleared: RwSignal::new(None) }
    }

    /// What the stale inputs are, for the line that says the page shows the last valid ones: each field that does
    /// not read, by name. Why is said beside the field: a card never echoes a value, which may be a link's text
    /// (an embed would show it in someone's documentation).
    fn stale_line(self) -> String {
        let fields = self.errors.with(|e| e.iter().map(|e| e.field.input().label).collect::<Vec<_>>().join(", "));
        format!(
            "Showing {}'s last valid inputs, not what is typed: fix {fields} (why is said at the field).",
            self.side.label()
        )
    }

    /// Whether the form is valid, so that what shows is for the inputs as typed.
    fn fresh(self) -> bool {
        self.errors.with(Vec::is_empty)
    }

    /// Changes the form as the user does; says so when that cleared a measured bus bandwidth.
    fn edit(self, change: impl FnOnce(&mut ScenarioForm) -> Option<String>) {
        let mut cleared = None;
        self.form.update(|f| cleared = change(f));
        if cleared.is_some() {
            self.cleared.set(cleared);
        }
    }
}

fn fallback(side: Side) -> Scenario {
    // Only reached when a link's first form is invalid: show the first-load scenario of that side until it is fixed.
    // Both first-load forms are valid (tested), as is the model's default (tested in estimator-core).
    side.default_form()
        .to_scenario()
        .ok()
        .or_else(|| Scenario::new(estimator_core::ScenarioInput::default()).ok())
        .expect("the first-load scenarios are valid")
}

/// The page. Reads its state from the URL and writes it back on every change.
#[component]
pub fn App() -> impl IntoView {
    let (state, notes) = PageState::from_query(&browser::query());
    let embed = state.embed;
    let a = SideState::new(Side::A, RwSignal::new(state.a));
    let b = SideState::new(Side::B, RwSignal::new(state.b));
    let view = RwSignal::new(state.chart);
    // The URL and the share link hold the scenario the cards show: as typed when every field reads (the compute's
    // fields its mode does not read as the model's), else the last that read, whole, in the form's own notation.
    // So a link never holds rejected text, and a reload, the worker and the cards agree.
    let shown = move |st: SideState| {
        let last = st.result.with(|r| ScenarioForm::from_input(r.scenario.input()));
        if !st.fresh() {
            return last;
        }
        let mut f = st.form.get();
        for u in FormField::ALL {
            if !f.reads(u) {
                // A value another form holds is one this form takes.
                let _ = f.set(u, &last.value(u));
            }
        }
        f
    };
    let query = Memo::new(move |_| PageState { a: shown(a), b: shown(b), embed: false, chart: view.get() }.to_query());
    // A link whose values do not read says which, by key, at the top (the fields below say it too).
    let mut notes = notes;
    for (side, st) in [(Side::A, a), (Side::B, b)] {
        for e in st.errors.get_untracked() {
            // The key and where to look, never the link's text: the field below shows it with the reason.
            notes.push(format!(
                "Link value {}.{} does not read (the field says why); {} shows the first load's scenario until it is \
                 fixed.",
                side.key(),
                e.field.key(),
                side.label()
            ));
        }
    }
    Effect::new(move |_| {
        let q = query.get();
        browser::replace_query(&if embed { share::with_embed(&q) } else { q });
        // boot.js redraws the nodes chart (through the details worker) and the share fields from the new URL.
        browser::notify("rdma-url");
    });
    // A probe report loaded in "Your node" (index.html, boot.js and the details worker) rewrites the URL's query
    // and says so with this event: the page takes its state from the URL again, as on a first load.
    let _ = window_event_listener(leptos::ev::Custom::<web_sys::Event>::new("rdma-state"), move |_| {
        let (s, _) = PageState::from_query(&browser::query());
        a.form.set(s.a);
        b.form.set(s.b);
        a.cleared.set(None);
        b.cleared.set(None);
        view.set(s.chart);
    });

    // A `change` anywhere (a field left, Enter, a select or a box changed) ends the typing under way: what the
    // forms hold then is what was typed (`form::Typing`). Untracked: the forms read the same, and the fields keep
    // what they show (a field cleared without an input event keeps its text).
    let _ = window_event_listener(leptos::ev::Custom::<web_sys::Event>::new("change"), move |_| {
        a.form.try_update_untracked(ScenarioForm::end_typing);
        b.form.try_update_untracked(ScenarioForm::end_typing);
    });

    // One tree for both layouts: embed mode (for an iframe) hides the page chrome and the full-page sections with
    // CSS, by a class on <html> that boot.js sets before the first paint and the page keeps in step.
    browser::set_embed_class(embed);
    view! {
        <main class="page" id="main">
            <Notes notes=notes />
            <Answer a=a b=b embed=embed />
            <section class="charts" aria-labelledby="charts-title">
                <h2 id="charts-title" class="full-only">"Charts"</h2>
                <p class="stale" role="status" hidden=move || a.fresh() && b.fresh()>
                    "The charts show the last valid inputs: the cards above say which field to fix."
                </p>
                <BarChart a=a.result b=b.result />
                <div class="full-only">
                    <NodesChart view=view />
                </div>
            </section>
            <div class="full-only">
                <Recommendations a=a b=b />
            </div>
            <div class="embed-only">
                <RecommendationSummary a=a.result b=b.result />
            </div>

            <p class="embed-only embed-foot">
                <a href=move || browser::url_for(&query.get()) target="_blank" rel="noopener">
                    "Open the full calculator"
                </a>
                " · reference arithmetic = gradient bytes × 2 ÷ one adapter's line rate"
            </p>
        </main>
    }
}

#[component]
fn Notes(notes: Vec<String>) -> impl IntoView {
    (!notes.is_empty()).then(|| {
        view! {
            <div class="notice" role="status">
                <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        }
    })
}

#[component]
fn Answer(a: SideState, b: SideState, embed: bool) -> impl IntoView {
    let verdict = move || a.result.with(|ra| b.result.with(|rb| crate::verdict::verdict(ra, rb)));
    view! {
        <section class="answer" aria-labelledby="answer-title">
            <h2 id="answer-title" class:visually-hidden=embed>"Time per optimizer step"</h2>
            // Not a live region: it changes with each keystroke. boot.js reads it out (#said) once a field is left
            // or a button pressed.
            <p class="verdict" id="verdict">{verdict}</p>
            // On a phone the cards stack: this strip keeps both step times in view over them (CSS shows it there).
            <p class="strip" id="strip" aria-hidden="true">
                <span class="badge a">"A"</span>{move || a.result.with(|r| human::secs(r.estimate.step.step_s))}
                <span class="badge b">"B"</span>{move || b.result.with(|r| human::secs(r.estimate.step.step_s))}
            </p>
            <div class="pair">
                <ResultCard st=a />
                <ResultCard st=b />
            </div>
            // The inputs right under the cards, in the same section: on a wide screen the verdict line above stays
            // in view (sticky) while they are edited.
            <details class="inputs-wrap" open=!embed>
                <summary class="embed-only">"Change the inputs"</summary>
                <Inputs a=a b=b />
            </details>
        </section>
    }
}

#[component]
fn ResultCard(st: SideState) -> impl IntoView {
    let side = st.side;
    let k = side.key();
    let r = st.result;
    let use_model_id = format!("{k}-use-model");
    // The card's own button ("Use the model" beside a measured bus bandwidth) is markup from `render`, so its click
    // is taken here, on the container.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let id = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.id());
        if id.as_deref() == Some(use_model_id.as_str()) {
            st.form.update(|f| f.measured_busbw.clear());
        }
    };
    view! {
        <article class=format!("card result side-{k}") aria-labelledby=format!("{k}-title")>
            <h3 id=format!("{k}-title")>
                <span class="badge">{side.label()}</span>
                {move || r.with(|r| render::summary(&r.scenario))}
            </h3>
            <p class="stale" role="status" id=format!("{k}-stale") hidden=move || st.fresh()>
                {move || st.stale_line()}
            </p>
            <p class="cleared" role="status" id=format!("{k}-cleared") hidden=move || st.cleared.with(Option::is_none)>
                {move || st.cleared.get().unwrap_or_default()}
            </p>
            <div on:click=on_click inner_html=move || r.with(|r| render::result_card(side, r).into_string())></div>
            // Filled by the details worker (boot.js, `run_section::verdict_line`) when "Check a run" checks this
            // side: its verdict in one line.
            <div class="verdict-box" id=format!("{k}-verdict-box") aria-live="polite"></div>
            // Filled by the details worker (boot.js, `render::details`) when the user opens it: the step's traffic,
            // kind by kind. The first screen does not wait for the worker.
            <details class="worker-details full-only" id=format!("{k}-traffic-details")>
                <summary>"Traffic per step, kind by kind"</summary>
                <div class="traffic-box" id=format!("{k}-traffic-box") aria-live="polite"></div>
            </details>
        </article>
    }
}

#[component]
fn BarChart(a: Memo<SideResult>, b: Memo<SideResult>) -> impl IntoView {
    let bars = move || {
        a.with(|ra| b.with(|rb| chart::bars_svg(&[("A", &ra.estimate.step), ("B", &rb.estimate.step)]).into_string()))
    };
    let described = move || a.with(|ra| b.with(|rb| chart::bars_description(ra, rb)));
    let has_bubble = move || {
        a.with(|ra| ra.estimate.step.bubble_s.as_secs() > 0.0) || b.with(|rb| rb.estimate.step.bubble_s.as_secs() > 0.0)
    };
    let has_wait = move || {
        a.with(|ra| ra.estimate.step.rank_wait_s.as_secs() > 0.0)
            || b.with(|rb| rb.estimate.step.rank_wait_s.as_secs() > 0.0)
    };
    view! {
        <figure class="chart bars">
            <figcaption>"One step, split into compute and communication"</figcaption>
            <svg
                viewBox=format!("0 0 {} {}", human::num(chart::BAR_WIDTH, 0), human::num(chart::BAR_HEIGHT, 0))
                role="img"
                aria-label=described
                id="bar-chart"
                inner_html=bars
            ></svg>
            <ul class="legend">
                {[SegmentKind::Compute, SegmentKind::Hidden, SegmentKind::Exposed]
                    .into_iter()
                    .map(|k| view! { <li><span class=format!("swatch {}", k.class())></span>{k.label()}</li> })
                    .collect_view()}
                // Only a pipeline has a bubble, and only several nodes a wait for the slowest rank.
                <li id="legend-bubble" hidden=move || !has_bubble()>
                    <span class=format!("swatch {}", SegmentKind::Bubble.class())></span>
                    {SegmentKind::Bubble.label()}
                </li>
                <li id="legend-wait" hidden=move || !has_wait()>
                    <span class=format!("swatch {}", SegmentKind::Wait.class())></span>
                    {SegmentKind::Wait.label()}
                </li>
            </ul>
        </figure>
    }
}

/// The nodes chart's frame: caption, axis choice, legend and the empty SVG and table that boot.js fills with what
/// the details worker draws for the page's URL (`chart::nodes_figure`) once the chart is in view.
#[component]
fn NodesChart(view: RwSignal<ChartView>) -> impl IntoView {
    let caption = move || match view.with(|v| v.axis) {
        ChartAxis::StepTime => {
            "Step time against the number of nodes (log scales); the large dot is each scenario's own"
        }
        ChartAxis::Efficiency => "Scaling efficiency (compute ÷ step) against the number of nodes",
    };
    let rule = move || match view.with(|v| v.batch) {
        BatchRule::KeepGlobal => {
            "; each scenario's global batch (tokens per step) is kept on every count, so more GPUs split it"
        }
        BatchRule::KeepPerGpu => "; each scenario's tokens per GPU are kept, so the global batch grows with the GPUs",
    };
    // One closure for the four choices: what it shows when checked, and what choosing it sets.
    let radio = move |name: &'static str,
                      id: &'static str,
                      is: fn(&ChartView) -> bool,
                      set: fn(&mut ChartView),
                      label| {
        view! {
            <label>
                <input type="radio" name=name id=id prop:checked=move || view.with(is) on:change=move |_| view.update(set) />
                {label}
            </label>
        }
    };
    view! {
        <figure class="chart nodes">
            <figcaption id="nodes-caption">{caption}{rule}"."</figcaption>
            <div class="chart-controls" role="radiogroup" aria-label="What the chart shows">
                {radio("chart-axis", "chart-step", |v| v.axis == ChartAxis::StepTime, |v| v.axis = ChartAxis::StepTime, "step time")}
                {radio("chart-axis", "chart-efficiency", |v| v.axis == ChartAxis::Efficiency, |v| v.axis = ChartAxis::Efficiency, "scaling efficiency")}
            </div>
            <div class="chart-controls" role="radiogroup" aria-label="The global batch on more nodes">
                {radio("chart-batch", "batch-global", |v| v.batch == BatchRule::KeepGlobal, |v| v.batch = BatchRule::KeepGlobal, "keep the global batch")}
                {radio("chart-batch", "batch-per-gpu", |v| v.batch == BatchRule::KeepPerGpu, |v| v.batch = BatchRule::KeepPerGpu, "keep tokens per GPU")}
            </div>
            <svg viewBox=format!("0 0 {} {}", human::num(chart::WIDTH, 0), human::num(chart::HEIGHT, 0)) role="img" id="nodes-chart"
                aria-label="Step time or scaling efficiency of A and B against the number of nodes; the same data is in the table below"></svg>
            <ul class="legend">
                <li><span class="swatch line-a"></span>"A"</li>
                <li><span class="swatch line-b"></span>"B"</li>
            </ul>
            <details>
                <summary>"The chart as a table"</summary>
                <table>
                    <thead>
                        <tr><th>"nodes"</th><th>"A step"</th><th>"A efficiency"</th><th>"B step"</th><th>"B efficiency"</th></tr>
                    </thead>
                    <tbody id="nodes-table"></tbody>
                </table>
            </details>
        </figure>
    }
}

#[component]
fn Recommendations(a: SideState, b: SideState) -> impl IntoView {
    let card = move |st: SideState| {
        let side = st.side;
        view! {
            <article class=format!("card recommendation side-{}", side.key())>
                <div inner_html=move || st.result.with(|r| render::recommendation_card(side, r, !st.fresh()).into_string())></div>
                // Filled by the details worker (boot.js, `render::details`) when the user opens it: the layout that
                // keeps the slow link out of the way, with the recommendation's reasons.
                <details class="worker-details" id=format!("{}-layout-details", side.key())>
                    <summary>"Layout advice and the reasons"</summary>
                    <div class="layout-advice" id=format!("{}-layout", side.key()) aria-live="polite"></div>
                </details>
            </article>
        }
    };
    view! {
        <section class="recommend" aria-labelledby="rec-title">
            <h2 id="rec-title">"Recommendation"</h2>
            <div class="pair">{card(a)} {card(b)}</div>
        </section>
    }
}

#[component]
fn RecommendationSummary(a: Memo<SideResult>, b: Memo<SideResult>) -> impl IntoView {
    view! {
        <div class="rec-summary">
            <p id="a-rec-line">{move || a.with(|r| render::recommendation_line(Side::A, r))}</p>
            <p id="b-rec-line">{move || b.with(|r| render::recommendation_line(Side::B, r))}</p>
        </div>
    }
}

#[component]
fn Inputs(a: SideState, b: SideState) -> impl IntoView {
    // Whole scenarios move with their measurements; a note about what an edit cleared stays with no side.
    let forget = move || {
        a.cleared.set(None);
        b.cleared.set(None);
    };
    let copy_ab = move |_| {
        b.form.set(a.form.get());
        forget();
    };
    let swap = move |_| {
        let (x, y) = (a.form.get(), b.form.get());
        a.form.set(y);
        b.form.set(x);
        forget();
    };
    let same_job = move |_| {
        let job = a.form.get();
        b.edit(|f| f.take_job(&job));
    };
    let reset = move |_| {
        a.form.set(ScenarioForm::page_a());
        b.form.set(ScenarioForm::page_b());
        forget();
    };
    view! {
        <section class="inputs" id="inputs" aria-labelledby="inputs-title">
            <h2 id="inputs-title">"Inputs"</h2>
            <div class="toolbar">
                <button type="button" id="copy-a-to-b" on:click=copy_ab>"Copy A to B"</button>
                <button type="button" id="swap" on:click=swap>"Swap A and B"</button>
                <button type="button" id="same-job" on:click=same_job>"B runs A's job"</button>
                <button type="button" id="reset" on:click=reset>"Back to 25 vs 400 Gb/s"</button>
            </div>
            <datalist id="model-sizes">
                {MODEL_SIZES.iter().map(|m| view! { <option value=*m></option> }).collect_view()}
            </datalist>
            <datalist id="line-rates">
                {LINE_RATES.iter().map(|r| view! { <option value=r.to_string()></option> }).collect_view()}
            </datalist>
            <div class="pair">
                <ScenarioFields st=a />
                <ScenarioFields st=b />
            </div>
        </section>
    }
}

/// How a field is entered.
enum Kind {
    /// Free text, with a unit after it and an optional list of suggestions (a `<datalist>` id).
    Text(&'static str, Option<&'static str>),
    /// One of a list of (value, text).
    Select(fn() -> Vec<(String, String)>),
    /// A checkbox.
    Check,
}

/// One input of a scenario's form.
struct Spec {
    field: FormField,
    kind: Kind,
}

const fn text(field: FormField, unit: &'static str, list: Option<&'static str>) -> Spec {
    Spec { field, kind: Kind::Text(unit, list) }
}

const fn select(field: FormField, options: fn() -> Vec<(String, String)>) -> Spec {
    Spec { field, kind: Kind::Select(options) }
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items.iter().map(|(v, t)| (v.to_string(), t.to_string())).collect()
}

/// The form, in order. One loop draws it, so every field has the same markup: label, control, unit, error.
const FIELDS: [Spec; 15] = [
    text(FormField::Params, "", Some("model-sizes")),
    select(FormField::Dtype, || {
        GradDtype::ALL.iter().map(|d| (d.name().to_string(), dtype_label(*d).to_string())).collect()
    }),
    select(FormField::Gpu, || GPUS.iter().map(|g| (g.key.to_string(), g.name.to_string())).collect()),
    text(FormField::GpusPerNode, "", None),
    text(FormField::Nodes, "", None),
    text(FormField::Adapters, "", None),
    text(FormField::Domain, "GPUs", None),
    text(FormField::Link, "Gb/s", Some("line-rates")),
    select(FormField::Fabric, || Fabric::ALL.iter().map(|f| (f.name().to_string(), f.label().to_string())).collect()),
    Spec { field: FormField::Gdr, kind: Kind::Check },
    text(FormField::Overlap, "%", None),
    select(FormField::Compute, || pairs(&[("tokens", "from tokens and MFU"), ("given", "given time")])),
    Spec { field: FormField::ComputeMs, kind: Kind::Text("ms", None) },
    Spec { field: FormField::Tokens, kind: Kind::Text("", None) },
    Spec { field: FormField::Mfu, kind: Kind::Text("%", None) },
];

/// Under "Parallelism": the model's shape and the layout.
const PARALLELISM: [Spec; 12] = [
    select(FormField::Model, || {
        std::iter::once((String::new(), "Any (by size)".to_string()))
            .chain(MODELS.iter().map(|m| (m.key.to_string(), m.name.to_string())))
            .collect()
    }),
    select(FormField::Sync, || {
        SyncStrategy::ALL
            .iter()
            .map(|s| {
                let how = match s {
                    SyncStrategy::Ddp => " (all-reduce)",
                    SyncStrategy::Zero3 => " (gathers per layer)",
                    SyncStrategy::Hsdp => " (shard in a node)",
                    _ => " (sharded states)",
                };
                (s.name().to_string(), format!("{}{how}", s.label()))
            })
            .collect()
    }),
    text(FormField::Tp, "", None),
    text(FormField::Pp, "", None),
    text(FormField::Ep, "", None),
    text(FormField::Etp, "", None),
    text(FormField::MicroBatches, "", None),
    text(FormField::SeqLen, "tokens", None),
    text(FormField::MicroBatchSize, "seqs", None),
    Spec { field: FormField::Checkpointing, kind: Kind::Check },
    Spec { field: FormField::GradOverlap, kind: Kind::Check },
    Spec { field: FormField::ParamOverlap, kind: Kind::Check },
];

/// Under "Advanced".
const ADVANCED: [Spec; 4] = [
    text(FormField::Accum, "", None),
    text(FormField::Efficiency, "%", None),
    text(FormField::Latency, "µs", None),
    text(FormField::Busbw, "GB/s", None),
];

#[component]
fn ScenarioFields(st: SideState) -> impl IntoView {
    let side = st.side;
    let k = side.key();
    let preset_id = format!("{k}-preset");
    let on_preset = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(p) = PRESETS.iter().find(|p| p.id == id) {
            st.edit(|f| f.apply(p));
        }
    };
    view! {
        <fieldset class=format!("card scenario side-{k}")>
            <legend><span class="badge">{side.label()}</span>" Scenario " {side.label()}</legend>
            <div class="field">
                <label for=preset_id.clone()>"Rental preset"</label>
                <select id=preset_id on:change=on_preset>
                    <option value="" selected=true>"Choose a node type…"</option>
                    {PRESETS.iter().map(|p| view! { <option value=p.id title=p.source>{p.name}</option> }).collect_view()}
                </select>
            </div>
            <div class="grid">{FIELDS.iter().map(|spec| field_view(st, spec)).collect_view()}</div>
            <details class="advanced" id=format!("{k}-parallelism")>
                <summary>"Parallelism"</summary>
                <div class="grid">{PARALLELISM.iter().map(|spec| field_view(st, spec)).collect_view()}</div>
            </details>
            <details class="advanced">
                <summary>"Advanced"</summary>
                <div class="grid">{ADVANCED.iter().map(|spec| field_view(st, spec)).collect_view()}</div>
            </details>
        </fieldset>
    }
}

fn field_view(st: SideState, spec: &'static Spec) -> AnyView {
    let field = spec.field;
    let form = st.form;
    // The compute-source select is `a-compute-source`: `a-compute` is the card's compute time.
    let key = if field == FormField::Compute { "compute-source" } else { field.key() };
    let id = format!("{}-{key}", st.side.key());
    let err_id = format!("{id}-error");
    let error =
        Memo::new(move |_| st.errors.with(|es| es.iter().find(|e| e.field == field).map(|e| e.message.clone())));
    // An implausible value that still reads gets a hint in the same line, without blocking the estimate.
    let hint = Memo::new(move |_| form.with(|f| f.hint(field)));
    // A field the form does not read (a compute field of the other mode) is not shown.
    let hidden = move || form.with(|f| !f.reads(spec.field));
    let set = move |v: String| st.edit(|f| f.typed(field, &v));
    let control = match spec.kind {
        Kind::Text(unit, list) => view! {
            <div class="control">
                <input
                    id=id.clone()
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    list=list
                    prop:value=move || form.with(|f| f.value(field))
                    aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                    aria-describedby=err_id.clone()
                    on:input=move |ev| set(event_target_value(&ev))
                />
                {(!unit.is_empty()).then(|| view! { <span class="unit">{unit}</span> })}
            </div>
        }
        .into_any(),
        Kind::Select(options) => {
            let current = Memo::new(move |_| form.with(|f| f.value(field)));
            view! {
                <select id=id.clone() on:change=move |ev| set(event_target_value(&ev))>
                    {options()
                        .into_iter()
                        .map(|(value, text)| {
                            let v = value.clone();
                            view! { <option value=value prop:selected=move || current.with(|c| *c == v)>{text}</option> }
                        })
                        .collect_view()}
                </select>
            }
            .into_any()
        }
        Kind::Check => view! {
            <input
                type="checkbox"
                id=id.clone()
                prop:checked=move || form.with(|f| f.value(field) == "1")
                on:change=move |ev| set(if event_target_checked(&ev) { "1" } else { "0" }.to_string())
            />
        }
        .into_any(),
    };
    let check = matches!(spec.kind, Kind::Check);
    view! {
        <div class="field" class:check=check class:invalid=move || error.with(Option::is_some) hidden=hidden>
            {(!check).then(|| view! { <label for=id.clone()>{field.input().label}</label> })}
            {control}
            {check.then(|| view! { <label for=id.clone()>{field.input().label}</label> })}
            <p class="error" class:hint=move || error.with(Option::is_none) id=err_id aria-live="polite">
                {move || error.get().or_else(|| hint.get()).unwrap_or_default()}
            </p>
        </div>
    }
    .into_any()
}
