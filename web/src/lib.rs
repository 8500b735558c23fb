//! The estimator page: a Leptos client-side-rendered app over estimator-core.
//!
//! The modules other than [`app`] and [`browser`] are pure (no DOM): the form and its reading ([`form`], its fields
//! keyed by the core's table of inputs), the result cards as HTML ([`render`]), the URL state ([`share`]), chart
//! geometry ([`chart`]), numbers as people read them (`estimator_core::human`), and what the details worker does
//! for what a user opens: reading a probe report ([`report`], through the browser's `JSON.parse`), "Check a run"
//! ([`run_section`]), "Plan a rental" ([`plan_section`]), the fleet ([`fleet`]), all reached through
//! [`protocol`]. [`app`] wires the first screen to the DOM with Leptos signals; [`browser`] holds the few calls
//! into the browser (URL, clipboard, performance marks).

pub mod app;
pub mod browser;
pub mod calibration;
pub mod chart;
pub mod curve;
pub mod fleet;
pub mod form;
pub mod html;
pub mod plan_section;
pub mod presets;
pub mod protocol;
pub mod render;
pub mod report;
pub mod result;
pub mod run_records;
pub mod run_records_view;
pub mod run_section;
pub mod section_form;
pub mod share;
pub mod verdict;

pub use app::App;

/// Mounts the page into `#app` (or the body when there is none) and marks the first rendered estimate for the
/// benchmark (`performance.mark("first-estimate")`).
pub fn start() {
    let target = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app"));
    match target {
        Some(el) => {
            el.set_inner_html("");
            leptos::mount::mount_to(wasm_bindgen::JsCast::unchecked_into(el), App).forget();
        }
        None => leptos::mount::mount_to_body(App),
    }
    browser::mark("first-estimate");
}
