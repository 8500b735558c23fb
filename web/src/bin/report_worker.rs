//! The report worker: a dedicated Web Worker that reads probe reports for "Your node" (`web::report::handle`).
//! boot.js starts it the first time a report is loaded or the nodes chart comes into view, through
//! `static/report-worker-loader.js`,
//! waits for its `"ready"`, then posts `{id, query, side, name, size, text}` (a load) or `{id, query, action:
//! "offer"}` (the user accepted what the last verdict offered) and gets back `{id, html, query}`; the id pairs each
//! answer with its request, so two quick loads do not lose one. `{id, query, action: "nodes"}` asks for the nodes
//! chart of that page state and gets `{id, svg, rows}` (boot.js asks when the chart is in view); `{id, query,
//! action: "details"}` asks for each side's traffic table and layout advice and gets `{id, a_verdict, a_traffic,
//! a_layout, b_verdict, b_traffic, b_layout}` (boot.js asks once the user opens one of them or checks a run, and
//! after each change from then on; a side that "Check a run" checks gets its verdict line). The sections (`static/sections.js`) ask `{id, query, action}`
//! with `run-form`, `run`, `plan-form` or `plan` and get `{id, html}`; `{id, query, action: "fill", side, offer}`
//! gets `{id, query}`, the page with that plan row's node in scenario `side` (no `query` when there is no such row).
//! `{id, query, action: "fleet", files: [{name, text}]}` (several reports chosen or dropped at once) gets `{id,
//! html}`, the fleet table.

use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;
use web::report;
use web::share::Side;

fn field(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn main() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
        let m = ev.data();
        let text = field(&m, "text").as_string().unwrap_or_default();
        let name = field(&m, "name").as_string();
        let size = field(&m, "size").as_f64().map(|n| n as usize);
        let side = if field(&m, "side").as_string().as_deref() == Some("b") { Side::B } else { Side::A };
        let query = field(&m, "query").as_string().unwrap_or_default();
        let action = field(&m, "action").as_string();
        let out = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&out, &"id".into(), &field(&m, "id"));
        let set = |key: &str, value: JsValue| {
            let _ = js_sys::Reflect::set(&out, &key.into(), &value);
        };
        let html = match action.as_deref() {
            Some("run-form") => Some(web::run_section::form(&query)),
            Some("run") => Some(report::with_evidence(|log, topo| web::run_section::result(&query, log, topo))),
            Some("plan-form") => Some(web::plan_section::form(&query)),
            Some("plan") => Some(web::plan_section::result(&query)),
            _ => None,
        };
        if let Some(html) = html {
            set("html", html.into_string().into());
            // A worker that cannot post has no one to tell.
            let _ = reply_to.post_message(&out);
            return;
        }
        if action.as_deref() == Some("fleet") {
            let files: Vec<(String, Option<usize>, String)> = js_sys::Array::from(&field(&m, "files"))
                .iter()
                .map(|f| {
                    (
                        field(&f, "name").as_string().unwrap_or_default(),
                        field(&f, "size").as_f64().map(|n| n as usize),
                        field(&f, "text").as_string().unwrap_or_default(),
                    )
                })
                .collect();
            set("html", web::fleet::table(&files).into_string().into());
            let _ = reply_to.post_message(&out);
            return;
        }
        if action.as_deref() == Some("fill") {
            let offer = field(&m, "offer").as_string().unwrap_or_default();
            if let Some(q) = web::plan_section::fill(&query, side, &offer) {
                set("query", q.into());
            }
            let _ = reply_to.post_message(&out);
            return;
        }
        if action.as_deref() == Some("details") {
            let [(a_traffic, a_layout), (b_traffic, b_layout)] = web::render::details_of_query(&query);
            let verdict =
                |side: Side| report::with_evidence(|log, topo| web::run_section::verdict_line(&query, side, log, topo));
            let (a_verdict, b_verdict) = (verdict(Side::A), verdict(Side::B));
            for (key, html) in [
                ("a_verdict", a_verdict),
                ("a_traffic", a_traffic),
                ("a_layout", a_layout),
                ("b_verdict", b_verdict),
                ("b_traffic", b_traffic),
                ("b_layout", b_layout),
            ] {
                let _ = js_sys::Reflect::set(&out, &key.into(), &html.into_string().into());
            }
            // A worker that cannot post has no one to tell.
            let _ = reply_to.post_message(&out);
            return;
        }
        if action.as_deref() == Some("nodes") {
            let (svg, rows) = web::chart::nodes_figure(&query);
            let _ = js_sys::Reflect::set(&out, &"svg".into(), &svg.into_string().into());
            let _ = js_sys::Reflect::set(&out, &"rows".into(), &rows.into_string().into());
            // A worker that cannot post has no one to tell.
            let _ = reply_to.post_message(&out);
            return;
        }
        let r = if action.as_deref() == Some("offer") {
            report::accept_offer(&query)
        } else {
            report::handle(&query, side, name.as_deref(), size, &text)
        };
        let _ = js_sys::Reflect::set(&out, &"html".into(), &r.html.into_string().into());
        if let Some(q) = r.query {
            let _ = js_sys::Reflect::set(&out, &"query".into(), &q.into());
        }
        // A worker that cannot post has no one to tell.
        let _ = reply_to.post_message(&out);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}
