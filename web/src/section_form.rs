//! The inputs of the sections the details worker draws ("Check a run", "Plan a rental"): each a `<label>` around its
//! control, named for `static/sections.js`, which writes `name` into the URL under the section's prefix.

use crate::html;
use crate::html::Html;
use crate::share::Side;

/// A select of scenario A or B.
pub fn side_select(h: &mut Html, label: &str, id: &str, side: Side) {
    select(h, label, "side", id, &[("a", "A"), ("b", "B")], side.key());
}

/// A select with `options` (value, text), `chosen` selected.
pub fn select(h: &mut Html, label: &str, name: &str, id: &str, options: &[(&str, &str)], chosen: &str) {
    html!(h, "<label>{} <select name=\"{}\" id=\"{}\">", label, name, id);
    for (value, text) in options {
        let on = if *value == chosen { " selected" } else { "" };
        html!(h, "<option value=\"{}\"{}>{}</option>", value, on, text);
    }
    h.push_static("</select></label>");
}

/// A text input; `attributes` is the page's own markup (`inputmode`, `placeholder`, `data-default`).
pub fn input(h: &mut Html, label: &str, name: &str, id: &str, attributes: &'static str, value: &str) {
    html!(
        h,
        "<label>{} <input name=\"{}\" id=\"{}\"{} value=\"{}\"></label>",
        label,
        name,
        id,
        Html::from_static(attributes),
        value
    );
}
