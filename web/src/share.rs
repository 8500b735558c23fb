//! The page's state in its URL: `?a.link=25&b.nodes=4&embed=1`.
//!
//! Each scenario writes only the fields that differ from its first-load value, so the first load has an empty
//! query and a changed scenario a short one, led by `v=3` (the first load changed twice; a link without `v` reads
//! its fields against the first load it was written for, [`ScenarioForm::legacy_a`], so it still shows what its
//! author saw). Reading takes any query: unknown keys are skipped, a value that
//! means nothing for a select is reported and the field keeps its default, and text fields keep what was written
//! (the form shows its error), so a link restores exactly what its author saw.

use estimator_core::BatchRule;

use crate::form::{FormField, ScenarioForm};

/// Which scenario (`"a"` or `"b"` in the worker's messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Scenario A (left).
    A,
    /// Scenario B (right).
    B,
}

impl Side {
    /// `a` or `b`: the URL prefix and id prefix.
    pub fn key(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }

    /// `A` or `B`.
    pub fn label(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }

    /// The first-load form of this side.
    pub fn default_form(self) -> ScenarioForm {
        match self {
            Side::A => ScenarioForm::page_a(),
            Side::B => ScenarioForm::page_b(),
        }
    }
}

/// Everything a link holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PageState {
    /// Scenario A.
    pub a: ScenarioForm,
    /// Scenario B.
    pub b: ScenarioForm,
    /// Compact layout for an iframe.
    pub embed: bool,
    /// What the nodes chart shows.
    pub chart: ChartView,
}

/// What the nodes chart shows: its y axis (URL `chart=efficiency`) and how it moves each scenario's global batch
/// between node counts (URL `batch=per-gpu`). One value, so the page keeps one signal of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChartView {
    /// Step time or scaling efficiency.
    pub axis: ChartAxis,
    /// The batch rule.
    pub batch: BatchRule,
}

/// What the nodes chart plots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChartAxis {
    /// Step time (log scale).
    #[default]
    StepTime,
    /// Scaling efficiency, compute / step.
    Efficiency,
}

impl Default for PageState {
    fn default() -> Self {
        PageState { a: ScenarioForm::page_a(), b: ScenarioForm::page_b(), embed: false, chart: ChartView::default() }
    }
}

/// Longest query read; a longer one is cut (a full state is under 1 kB).
pub const MAX_QUERY: usize = 8192;

/// The version of the first load that links are written against (`v=3`: the overlap comes from the frameworks'
/// schedule unless set; `v=2` links were written when it was 0 unless set).
pub const LINK_VERSION: &str = "3";

impl PageState {
    /// The query string (without `?`) for this state.
    pub fn to_query(&self) -> String {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (side, form) in [(Side::A, &self.a), (Side::B, &self.b)] {
            let base = side.default_form();
            for f in FormField::ALL {
                let v = form.value(f);
                if v != base.value(f) {
                    pairs.push((format!("{}.{}", side.key(), f.key()), v));
                }
            }
        }
        if self.chart.axis == ChartAxis::Efficiency {
            pairs.push(("chart".to_string(), "efficiency".to_string()));
        }
        if self.chart.batch == BatchRule::KeepPerGpu {
            pairs.push(("batch".to_string(), "per-gpu".to_string()));
        }
        if !pairs.is_empty() {
            pairs.insert(0, ("v".to_string(), LINK_VERSION.to_string()));
        }
        if self.embed {
            pairs.push(("embed".to_string(), "1".to_string()));
        }
        pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&")
    }

    /// Reads a query string (with or without `?`). Returns the state and a note for each value it could not use.
    pub fn from_query(query: &str) -> (PageState, Vec<String>) {
        let mut state = PageState::default();
        let mut notes = Vec::new();
        let query = query.strip_prefix('?').unwrap_or(query);
        let query = match query.char_indices().nth(MAX_QUERY) {
            Some((i, _)) => query.get(..i).unwrap_or(query),
            None => query,
        };
        let pairs: Vec<(String, String)> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(k), decode(v))
            })
            .collect();
        // A link with scenario fields and no version was written against the first load before `v=2`; one before
        // `v=3` when an overlap not written meant none.
        let version = pairs.iter().find(|(k, _)| k == "v").map(|(_, v)| v.as_str());
        let scenario = pairs.iter().any(|(k, _)| k.starts_with("a.") || k.starts_with("b."));
        if version.is_none() && scenario {
            state.a = ScenarioForm::legacy_a();
            state.b = ScenarioForm::legacy_b();
        }
        if scenario && matches!(version, None | Some("2")) {
            state.a.overlap_pct = "0".to_string();
            state.b.overlap_pct = "0".to_string();
        }
        // Said, never echoed: a link's text does not reach the page.
        if version.is_some_and(|v| !["2", LINK_VERSION].contains(&v)) {
            notes.push(format!(
                "This link is of a version this page does not know (it reads v=2 and v={LINK_VERSION}); its values are \
                 read as v={LINK_VERSION}'s: check them."
            ));
        }
        for (k, v) in pairs {
            match k.as_str() {
                "v" => {}
                "embed" => state.embed = matches!(v.as_str(), "1" | "true" | "yes" | ""),
                "chart" => {
                    state.chart.axis = if v == "efficiency" { ChartAxis::Efficiency } else { ChartAxis::StepTime }
                }
                "batch" => {
                    // The chart writes `per-gpu`; the rule's name (`keep-per-gpu`, as `plan.batch` holds it) reads too.
                    let per_gpu = matches!(v.as_str(), "per-gpu" | "keep-per-gpu");
                    state.chart.batch = if per_gpu { BatchRule::KeepPerGpu } else { BatchRule::KeepGlobal }
                }
                _ => {
                    let Some((side, field)) = k.split_once('.') else { continue };
                    let form = match side {
                        "a" => &mut state.a,
                        "b" => &mut state.b,
                        _ => continue,
                    };
                    let Some(f) = FormField::ALL.into_iter().find(|f| f.key() == field) else { continue };
                    // The note names the key (one the page knows) and never echoes the value: a link's text does
                    // not reach the page.
                    if form.set(f, &v).is_err() {
                        notes.push(format!("Link value {k} is not one the page knows; kept the default."));
                    }
                }
            }
        }
        (state, notes)
    }
}

fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The URL prefixes of the sections whose state the details worker and `static/sections.js` keep (`run.step_s=9`,
/// `plan.tokens=1T`): the app does not read them, and keeps them when it writes its own state.
pub const SECTIONS: [&str; 2] = ["run.", "plan."];

/// `query` (the app's own state, without `?`) with the section pairs of `old` (the URL as it stands) kept after it.
pub fn with_sections(query: &str, old: &str) -> String {
    let mut out = query.to_string();
    for pair in old.strip_prefix('?').unwrap_or(old).split('&') {
        if SECTIONS.iter().any(|p| pair.starts_with(p)) {
            if !out.is_empty() {
                out.push('&');
            }
            out.push_str(pair);
        }
    }
    out
}

/// The longest query a section reads (a plan's price list makes it longer than the app's state).
pub const MAX_SECTION_QUERY: usize = 32_768;

/// The values of one section's pairs (`run` for `run.*`), decoded, in URL order.
pub fn section(query: &str, name: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let query = match query.char_indices().nth(MAX_SECTION_QUERY) {
        Some((i, _)) => query.get(..i).unwrap_or(query),
        None => query,
    };
    query
        .split('&')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let k = decode(k);
            let key = k.strip_prefix(name)?.strip_prefix('.')?.to_string();
            Some((key, decode(v)))
        })
        .collect()
}

/// A query with `embed=1` added: the iframe form of a link.
pub fn with_embed(query: &str) -> String {
    if query.is_empty() { "embed=1".to_string() } else { format!("{query}&embed=1") }
}

fn hex(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => match (b.get(i + 1).copied().and_then(hex), b.get(i + 2).copied().and_then(hex)) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
