//! What the page asks the report worker and what it answers: one [`Request`] and one [`Reply`], and the one
//! function that answers ([`answer`]), pure and tested like the other modules. The worker binary
//! (`src/bin/report_worker.rs`) only moves them between JavaScript objects and these types ([`Request::from_js`],
//! [`Reply::to_js`]); boot.js and `static/sections.js` write the objects.
//!
//! Every request carries the page's state as its URL query (`share::PageState` and the sections' `run.*` and
//! `plan.*` pairs): the page keeps its state there, so the worker reads the same state a reload would.
//!
//! On the wire, a request is `{id, query, action, ...}` with `action` one of the names of [`Request::action`]
//! (a file for "Your node" has no `action`: `{id, query, side, name, size, text}`), and a reply is `{id, ...}`
//! with the keys of [`Reply::to_js`]. An unknown action is answered with an error, never read as a file.

use wasm_bindgen::JsValue;

use crate::html::Html;
use crate::share::Side;

/// One request to the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// A probe report or a tool output for "Your node", chosen, dropped or pasted (`name` is `None` when pasted),
    /// for scenario `side`.
    Load {
        /// The scenario the file is for.
        side: Side,
        /// The file's name.
        name: Option<String>,
        /// The file's size in bytes, when it was read from a file.
        size: Option<usize>,
        /// Its text (empty when it was too large to read).
        text: String,
    },
    /// Several reports at once: the fleet table. Each is `(name, size, text)`.
    Fleet(Vec<(String, Option<usize>, String)>),
    /// Apply the change the last verdict offered.
    AcceptOffer,
    /// The nodes chart of the page's state.
    Nodes,
    /// Each side's "Check a run" verdict line, traffic table and layout advice.
    Details,
    /// "Check a run": its form, or its result.
    Run {
        /// The form only.
        form: bool,
    },
    /// "Plan a rental": its form, or its result.
    Plan {
        /// The form only.
        form: bool,
    },
    /// The page with a plan row's node in scenario `side`.
    Fill {
        /// The scenario to fill.
        side: Side,
        /// The row's offer id.
        offer: String,
    },
}

/// One side's part of [`Reply::Details`].
#[derive(Clone, Debug, PartialEq)]
pub struct SideDetails {
    /// The "Check a run" verdict line, when the run checks this side (else empty).
    pub verdict: Html,
    /// The step's traffic, kind by kind.
    pub traffic: Html,
    /// The layout advice and the recommendation's reasons.
    pub layout: Html,
}

/// The worker's answer to one [`Request`].
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// "Your node"'s status: what was read or why not, and the page's new query when a scenario changed.
    Status {
        /// The status markup.
        html: Html,
        /// The new query, when the request changed a scenario.
        query: Option<String>,
    },
    /// Markup for a section or the fleet table.
    Markup(Html),
    /// The nodes chart: its SVG content and its table's rows.
    Nodes {
        /// The chart.
        svg: Html,
        /// The rows of the table under it.
        rows: Html,
    },
    /// Both sides' details, A then B.
    Details([SideDetails; 2]),
    /// The page's query with a plan row's node filled in; `None` when there is no such row.
    Fill(Option<String>),
    /// A request the worker cannot read (a page of another version talking to it): said, never guessed.
    Refused(String),
}

/// The requests that are their action name alone (no other field): what `{action: "nodes"}` and the like read as.
pub const BY_ACTION: [Request; 7] = [
    Request::AcceptOffer,
    Request::Nodes,
    Request::Details,
    Request::Run { form: true },
    Request::Run { form: false },
    Request::Plan { form: true },
    Request::Plan { form: false },
];

impl Request {
    /// The `action` name of a request on the wire (`None` for a file for "Your node").
    pub fn action(&self) -> Option<&'static str> {
        Some(match self {
            Request::Load { .. } => return None,
            Request::Fleet(_) => "fleet",
            Request::AcceptOffer => "offer",
            Request::Nodes => "nodes",
            Request::Details => "details",
            Request::Run { form: true } => "run-form",
            Request::Run { form: false } => "run",
            Request::Plan { form: true } => "plan-form",
            Request::Plan { form: false } => "plan",
            Request::Fill { .. } => "fill",
        })
    }

    /// Reads a message as boot.js and sections.js write it: its id (returned as it came), the page's query and
    /// the request.
    pub fn from_js(m: &JsValue) -> (JsValue, String, Result<Request, String>) {
        let get = |key: &str| js_sys::Reflect::get(m, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        let text = |key: &str| get(key).as_string();
        let side = || if text("side").as_deref() == Some("b") { Side::B } else { Side::A };
        let size = |v: JsValue| v.as_f64().filter(|n| n.is_finite() && *n >= 0.0).map(|n| n as usize);
        let request = match text("action").as_deref() {
            None => Ok(Request::Load {
                side: side(),
                name: text("name"),
                size: size(get("size")),
                text: text("text").unwrap_or_default(),
            }),
            // `Array.from` throws on what is not iterable: a message without its files has none.
            Some("fleet") => Ok(Request::Fleet(
                Some(get("files"))
                    .filter(js_sys::Array::is_array)
                    .map(|f| js_sys::Array::from(&f))
                    .unwrap_or_default()
                    .iter()
                    .map(|f| {
                        let of = |key: &str| js_sys::Reflect::get(&f, &JsValue::from_str(key)).unwrap_or_default();
                        (
                            of("name").as_string().unwrap_or_default(),
                            size(of("size")),
                            of("text").as_string().unwrap_or_default(),
                        )
                    })
                    .collect(),
            )),
            Some("fill") => Ok(Request::Fill { side: side(), offer: text("offer").unwrap_or_default() }),
            Some(name) => BY_ACTION
                .into_iter()
                .find(|r| r.action() == Some(name))
                .ok_or_else(|| "the page asked for something this worker does not do; reload the page".to_string()),
        };
        (get("id"), text("query").unwrap_or_default(), request)
    }
}

impl Reply {
    /// The reply as the page's scripts read it: `{id, html, query}` for a status (`query` only when it changed),
    /// `{id, html}` for markup or a refusal, `{id, svg, rows}` for the nodes chart, `{id, a_verdict, a_traffic,
    /// a_layout, b_verdict, b_traffic, b_layout}` for the details, `{id, query}` for a fill (no `query` without
    /// the row).
    pub fn to_js(&self, id: &JsValue) -> JsValue {
        let out = js_sys::Object::new();
        let set = |key: &str, value: JsValue| {
            let _ = js_sys::Reflect::set(&out, &JsValue::from_str(key), &value);
        };
        set("id", id.clone());
        let html = |h: &Html| JsValue::from_str(h.as_str());
        match self {
            Reply::Status { html: h, query } => {
                set("html", html(h));
                if let Some(q) = query {
                    set("query", JsValue::from_str(q));
                }
            }
            Reply::Markup(h) => set("html", html(h)),
            Reply::Refused(why) => {
                let mut h = Html::new();
                crate::html!(h, "<p class=\"error\">{}</p>", why);
                set("html", html(&h));
            }
            Reply::Nodes { svg, rows } => {
                set("svg", html(svg));
                set("rows", html(rows));
            }
            Reply::Details(sides) => {
                for (k, d) in ["a", "b"].into_iter().zip(sides) {
                    set(&format!("{k}_verdict"), html(&d.verdict));
                    set(&format!("{k}_traffic"), html(&d.traffic));
                    set(&format!("{k}_layout"), html(&d.layout));
                }
            }
            Reply::Fill(query) => {
                if let Some(q) = query {
                    set("query", JsValue::from_str(q));
                }
            }
        }
        out.into()
    }
}

/// Answers one request about the page's state in `query`.
pub fn answer(query: &str, request: Request) -> Reply {
    use crate::report;
    match request {
        Request::Load { side, name, size, text } => {
            let r = report::handle(query, side, name.as_deref(), size, &text);
            Reply::Status { html: r.html, query: r.query }
        }
        Request::AcceptOffer => {
            let r = report::accept_offer(query);
            Reply::Status { html: r.html, query: r.query }
        }
        Request::Fleet(files) => Reply::Markup(crate::fleet::table(&files)),
        Request::Nodes => {
            let (svg, rows) = crate::chart::nodes_figure(query);
            Reply::Nodes { svg, rows }
        }
        Request::Details => {
            let [(a_traffic, a_layout), (b_traffic, b_layout)] = crate::render::details_of_query(query);
            let verdict =
                |side| report::with_evidence(|log, topo| crate::run_section::verdict_line(query, side, log, topo));
            Reply::Details([
                SideDetails { verdict: verdict(Side::A), traffic: a_traffic, layout: a_layout },
                SideDetails { verdict: verdict(Side::B), traffic: b_traffic, layout: b_layout },
            ])
        }
        Request::Run { form: true } => Reply::Markup(crate::run_section::form(query)),
        Request::Run { form: false } => {
            Reply::Markup(report::with_evidence(|log, topo| crate::run_section::result(query, log, topo)))
        }
        Request::Plan { form: true } => Reply::Markup(crate::plan_section::form(query)),
        Request::Plan { form: false } => Reply::Markup(crate::plan_section::result(query)),
        Request::Fill { side, offer } => Reply::Fill(crate::plan_section::fill(query, side, &offer)),
    }
}
