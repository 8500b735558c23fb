//! The report worker: a dedicated Web Worker that reads probe reports for "Your node" (`web::report::handle`).
//! boot.js starts it the first time a report is loaded or the nodes chart comes into view, through
//! `static/report-worker-loader.js`,
//! waits for its `"ready"`, then posts `{id, query, side, name, size, text}` (a load) or `{id, query, action:
//! "offer"}` (the user accepted what the last verdict offered) and gets back `{id, html, query}`; the id pairs each
//! answer with its request, so two quick loads do not lose one. `{id, query, action: "nodes"}` asks for the nodes
//! chart of that page state and gets `{id, svg, rows}` (boot.js asks when the chart is in view); `{id, query,
//! action: "details"}` asks for each side's traffic table and layout advice and gets `{id, a_traffic, a_layout,
//! b_traffic, b_layout}` (boot.js asks after the first estimate and after each change).

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
        if action.as_deref() == Some("details") {
            let [(a_traffic, a_layout), (b_traffic, b_layout)] = web::render::details_of_query(&query);
            for (key, html) in
                [("a_traffic", a_traffic), ("a_layout", a_layout), ("b_traffic", b_traffic), ("b_layout", b_layout)]
            {
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
