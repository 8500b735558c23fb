//! The details worker, named for what it draws: every detail a user opens beyond the first screen's answer ("Your
//! node"'s reports and tool outputs, the traffic tables and the layout advice, the nodes chart, "Check a run",
//! "Plan a rental", the fleet table), in a dedicated Web Worker. boot.js starts it when the user opens or loads one of them, through
//! `static/details-worker-loader.js`, waits for its `"ready"`, then posts requests; each answer comes back with its
//! request's id, so two quick requests do not lose one. What a request and a reply are, and how each is answered,
//! is `web::protocol`; this binary only moves them between the page's messages and those types.

use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;
use web::protocol::{Reply, answer, read_message, write_reply};

fn main() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
        let (id, query, request) = read_message(&ev.data());
        let reply = match request {
            Ok(r) => answer(&query, r),
            Err(why) => Reply::refused(&why),
        };
        // A worker that cannot post has no one to tell.
        let _ = reply_to.post_message(&write_reply(&id, &reply));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}
