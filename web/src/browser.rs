//! The few browser calls the page makes: its URL, an event for boot.js, a performance mark and the embed class. Each one fails softly
//! (returns `None` or `false`) where the browser refuses, so no call here can take the page down.

use wasm_bindgen::JsValue;

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The query string of the page's URL, with its `?`.
pub fn query() -> String {
    window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The page's URL without query or fragment (`https://host/sub/path/`).
pub fn base_url() -> String {
    let Some(loc) = window().map(|w| w.location()) else { return String::new() };
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_default();
    format!("{origin}{path}")
}

/// The page's URL for a query.
pub fn url_for(query: &str) -> String {
    if query.is_empty() { base_url() } else { format!("{}?{query}", base_url()) }
}

/// Replaces the URL's query in place (no reload, no new history entry), keeping the sections' pairs
/// ([`crate::share::with_sections`]).
pub fn replace_query(query: &str) {
    let Some(w) = window() else { return };
    let loc = w.location();
    let query = &crate::share::with_sections(query, &loc.search().unwrap_or_default());
    let path = loc.pathname().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    let url = if query.is_empty() { format!("{path}{hash}") } else { format!("{path}?{query}{hash}") };
    if let Ok(h) = w.history() {
        // A refused replaceState (a sandboxed iframe) leaves the old URL; the page itself is unaffected.
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Dispatches a plain event named `name` on the window (boot.js listens for `rdma-url`).
pub fn notify(name: &str) {
    let (Some(w), Ok(ev)) = (window(), web_sys::Event::new(name)) else { return };
    // Nobody to tell is not an error.
    let _ = w.dispatch_event(&ev);
}

/// Sets a performance mark (read by `tests/src/bin/page_bench.rs`, `make bench-page`).
pub fn mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Sets or clears the `embed` class on `<html>` (embed mode's CSS hides the page chrome and full-page sections).
pub fn set_embed_class(on: bool) {
    let Some(root) = window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    let list = root.class_list();
    // A refused class change only leaves the full layout; nothing else depends on it.
    let _ = if on { list.add_1("embed") } else { list.remove_1("embed") };
}
