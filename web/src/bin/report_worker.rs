//! The report worker: a dedicated Web Worker that reads probe reports for "Your node" (`web::report::handle`).
//! boot.js starts it the first time a report is loaded, through Trunk's loader shim (`report-worker_loader.js`),
//! waits for its `"ready"`, then posts `{query, side, name, size, text}` and gets back `{html, query}`.

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
        let r = report::handle(&query, side, name.as_deref(), size, &text);
        let out = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&out, &"html".into(), &r.html.into());
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
