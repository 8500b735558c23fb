//! What the page asks the details worker and what it answers: one [`Request`] and one [`Reply`], and the one
//! function that answers ([`answer`]), pure and tested like the other modules. On the wire both are plain
//! JavaScript objects in serde's shape of these types, converted by serde-wasm-bindgen: the smallest worker of the
//! formats measured (the hand-written reader it replaced +6.7 KB gzipped; JSON text through serde_json +15.7 KB,
//! no smaller for the page since the page's scripts write the requests); the worker binary
//! (`src/bin/details_worker.rs`) only converts them ([`read_message`], [`write_reply`]). boot.js and
//! `static/sections.js` write the requests.
//!
//! A message is `{id, query, request}`: `request` is serde's externally tagged shape of a [`Request`], its
//! variant's name in kebab case alone (`"nodes"`) or as the one key of its fields (`{load: {side: "a", name, size,
//! text}}`, `{run: {form: true}}`; measured against internal tagging, `{action: "run", form: true}`, whose
//! deserializer buffers the fields and cost the worker 8.5 KB gzipped more), and `query` the
//! page's state as its URL query (`share::PageState` and the sections' `run.*` and `plan.*` pairs). The page keeps
//! its state there (it is the share link), so the worker reads the same state a reload would, through the same
//! reader. A reply is `{id, reply}` with `reply` `{kind, ...}` in the same shape. A request the worker cannot read
//! (a page of another version, an unknown action) is answered with [`Reply::Refused`], never guessed.

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

use crate::fleet::File;
use crate::html::Html;
use crate::share::Side;

/// One request to the worker.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
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
    /// Several files at once: reports make the fleet table, nccl-tests outputs a profile of the cluster for
    /// scenario `side` (A when the page does not say).
    Fleet {
        /// The scenario nccl-tests outputs calibrate.
        #[serde(default)]
        side: Option<Side>,
        /// The files.
        files: Vec<File>,
    },
    /// Apply the change the last verdict offered.
    Offer,
    /// The nodes chart of the page's state.
    Nodes,
    /// Each side's "Check a run" verdict line, traffic table and layout advice.
    Details,
    /// "Check a run": its form, or its result.
    Run {
        /// The form only.
        form: bool,
    },
    /// "Check a run": a chunk of the text of one of the run's own records (a PyTorch profiler trace, NCCL
    /// Inspector records), as the page reads the file; the reply is what has been read so far.
    RunRecords {
        /// The file's name.
        name: String,
        /// This chunk of its text.
        chunk: String,
        /// A new selection starts: what was read before is dropped.
        #[serde(default)]
        reset: bool,
        /// The file's first chunk.
        #[serde(default)]
        first: bool,
        /// Its last chunk.
        #[serde(default)]
        last: bool,
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideDetails {
    /// The "Check a run" verdict line, when the run checks this side (else empty).
    pub verdict: Html,
    /// The step's traffic, kind by kind.
    pub traffic: Html,
    /// The layout advice and the recommendation's reasons.
    pub layout: Html,
}

/// The worker's answer to one [`Request`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reply {
    /// "Your node"'s status: what was read or why not, and the page's new query when a scenario changed.
    Status {
        /// The status markup.
        html: Html,
        /// The new query, when the request changed a scenario.
        #[serde(skip_serializing_if = "Option::is_none")]
        query: Option<String>,
    },
    /// Markup for a section or the fleet table.
    Markup {
        /// The markup.
        html: Html,
    },
    /// The nodes chart: its SVG content and its table's rows.
    Nodes {
        /// The chart.
        svg: Html,
        /// The rows of the table under it.
        rows: Html,
    },
    /// Both sides' details, A then B.
    Details {
        /// A's, then B's.
        sides: [SideDetails; 2],
    },
    /// The page's query with a plan row's node filled in; none when there is no such row.
    Fill {
        /// The new query.
        #[serde(skip_serializing_if = "Option::is_none")]
        query: Option<String>,
    },
    /// A request the worker cannot read (a page of another version talking to it), said as markup for the place
    /// that asked.
    Refused {
        /// Why, as an error paragraph.
        html: Html,
    },
}

impl Reply {
    /// A refusal that says `why`.
    pub fn refused(why: &str) -> Reply {
        let mut html = Html::new();
        crate::html!(html, "<p class=\"error\">{}</p>", why);
        Reply::Refused { html }
    }
}

/// A message as boot.js and sections.js write it, `{id, query, request}`: its id (returned as it came), the page's
/// query and the request, or why it could not be read.
pub fn read_message(m: &JsValue) -> (JsValue, String, Result<Request, String>) {
    let get = |key: &str| js_sys::Reflect::get(m, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    let request = serde_wasm_bindgen::from_value(get("request"))
        .map_err(|e| format!("the page asked for something this worker does not read ({e}); reload the page"));
    (get("id"), get("query").as_string().unwrap_or_default(), request)
}

/// The reply to the message `id` as the page's scripts read it: `{id, reply}`.
pub fn write_reply(id: &JsValue, reply: &Reply) -> JsValue {
    let out = js_sys::Object::new();
    // A reply is strings, options and arrays of them: serde-wasm-bindgen cannot fail on it.
    let reply = serde_wasm_bindgen::to_value(reply).unwrap_or(JsValue::UNDEFINED);
    let _ = js_sys::Reflect::set(&out, &JsValue::from_str("id"), id);
    let _ = js_sys::Reflect::set(&out, &JsValue::from_str("reply"), &reply);
    out.into()
}

/// Answers one request about the page's state in `query`.
pub fn answer(query: &str, request: Request) -> Reply {
    use crate::report;
    match request {
        Request::Load { side, name, size, text } => {
            let r = report::handle(query, side, name.as_deref(), size, &text);
            Reply::Status { html: r.html, query: r.query }
        }
        Request::Offer => {
            let r = report::accept_offer(query);
            Reply::Status { html: r.html, query: r.query }
        }
        Request::Fleet { side, files } => {
            Reply::Markup { html: crate::fleet::files(query, side.unwrap_or(Side::A), &files) }
        }
        Request::Nodes => {
            let (svg, rows) = crate::chart::nodes_figure(query);
            Reply::Nodes { svg, rows }
        }
        Request::Details => {
            let [(a_traffic, a_layout), (b_traffic, b_layout)] = crate::render::details_of_query(query);
            let verdict =
                |side| report::with_evidence(|log, topo| crate::run_section::verdict_line(query, side, log, topo));
            Reply::Details {
                sides: [
                    SideDetails { verdict: verdict(Side::A), traffic: a_traffic, layout: a_layout },
                    SideDetails { verdict: verdict(Side::B), traffic: b_traffic, layout: b_layout },
                ],
            }
        }
        Request::Run { form: true } => Reply::Markup { html: crate::run_section::form(query) },
        Request::Run { form: false } => {
            Reply::Markup { html: report::with_evidence(|log, topo| crate::run_section::result(query, log, topo)) }
        }
        Request::RunRecords { name, chunk, reset, first, last } => {
            Reply::Markup { html: crate::run_records::chunk(&name, &chunk, reset, first, last) }
        }
        Request::Plan { form: true } => Reply::Markup { html: crate::plan_section::form(query) },
        Request::Plan { form: false } => Reply::Markup { html: crate::plan_section::result(query) },
        Request::Fill { side, offer } => Reply::Fill { query: crate::plan_section::fill(query, side, &offer) },
    }
}
