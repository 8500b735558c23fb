//! Several files loaded at once into "Your node": reports make the fleet table `probe-cli fleet` prints
//! (estimator-core's `fleet`), read in the details worker through the same field getter as one report, so none of
//! it weighs on the first load; nccl-tests outputs make a profile of the cluster (`crate::calibration`, `probe-cli
//! calibrate`'s). A file that is neither is named and skipped.

use estimator_core::fleet::{NodeFacts, fleet};
use estimator_core::report::{MAX_REPORT_BYTES, ReportError};

use crate::html;
use crate::html::Html;
use crate::report::{getter, parse};

/// The most reports one load compares (a cluster's worth; `probe-cli fleet` takes any number).
pub const MAX_FILES: usize = 4096;

/// One file of a fleet: its name, its size in bytes when read from a file, and its text (empty when it was too
/// large to read).
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct File {
    /// The file's name.
    pub name: String,
    /// Its size in bytes.
    pub size: Option<usize>,
    /// Its text.
    pub text: String,
}

/// Several files as status markup: with nccl-tests outputs among them, the profile they give scenario `side`'s
/// hardware (and the fleet of the reports, if any); otherwise the fleet of them all ([`table`]).
pub fn files(query: &str, side: crate::share::Side, files: &[File]) -> Html {
    use estimator_core::import::{self, Imported, nccl_tests};
    let mut runs = Vec::new();
    let mut reports = Vec::new();
    let mut skipped = Vec::new();
    for f in files.iter().take(MAX_FILES) {
        let t = f.text.trim_start();
        if t.is_empty() || t.starts_with('{') || t.starts_with('[') {
            reports.push(f.clone());
            continue;
        }
        match import::import(&f.text) {
            Some(Imported::NcclTests(first)) if first.runs_in_file > 1 => {
                for (k, r) in nccl_tests::parse_runs(&f.text).into_iter().enumerate() {
                    runs.push((format!("{}#{}", f.name, k + 1), r));
                }
            }
            Some(Imported::NcclTests(run)) => runs.push((f.name.clone(), run)),
            Some(other) => {
                skipped.push(format!("{}: a {} output, neither a report nor nccl-tests", f.name, other.kind().name()))
            }
            None => skipped.push(format!("{}: neither a report nor an nccl-tests output", f.name)),
        }
    }
    if runs.is_empty() {
        return table(files);
    }
    let mut h = crate::calibration::section(query, side, &runs, &skipped);
    if !reports.is_empty() {
        h.push(&table(&reports));
    }
    h
}

/// The fleet of `files` as status markup.
pub fn table(files: &[File]) -> Html {
    let mut nodes = Vec::new();
    let mut skipped = Vec::new();
    for File { name, size, text } in files.iter().take(MAX_FILES) {
        let node = name.strip_suffix(".json").unwrap_or(name);
        let read = match size {
            Some(n) if *n > MAX_REPORT_BYTES => Err(ReportError::too_large(*n)),
            _ => parse(text).and_then(|root| NodeFacts::from_fields(node, getter(root))),
        };
        match read {
            Ok(n) => nodes.push(n),
            Err(e) => skipped.push(format!("{name}: {e}")),
        }
    }
    let mut h = Html::new();
    if files.len() > MAX_FILES {
        html!(h, "<p>Only the first {} of {} files were read.</p>", MAX_FILES, files.len());
    }
    if nodes.is_empty() {
        html!(h, r#"<p id="fleet-summary">None of the {} files is a report.</p>"#, files.len());
    } else {
        let f = fleet(&nodes);
        html!(
            h,
            r#"<p id="fleet-summary">Fleet of {} nodes, {} kind(s) of node; {} outlier field(s). No scenario was changed: load one report to fill one.</p><ul id="fleet-groups">"#,
            f.nodes,
            f.groups.len(),
            f.outliers.len()
        );
        for g in &f.groups {
            html!(h, "<li>{} × {}</li>", g.count, g.shape);
        }
        h.push_static("</ul>");
        if !f.outliers.is_empty() {
            h.push_static(
                r#"<table id="fleet-outliers"><thead><tr><th scope="col">node</th><th scope="col">field</th><th scope="col">value</th><th scope="col">expected</th></tr></thead><tbody>"#,
            );
            for o in &f.outliers {
                let field = estimator_core::fleet::field_label(&o.field);
                html!(h, "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", o.node, field, o.value, o.expected);
            }
            h.push_static("</tbody></table>");
            h.push_static(
                "<p class=\"fine\">Expected: the value most nodes of the same kind (GPUs, line rate, link layer) \
                 have; among values equally common, the better one (more ports, rate or lanes: a fault takes them \
                 away).</p>",
            );
        }
        if !f.ties.is_empty() {
            html!(
                h,
                r#"<p id="fleet-ties">No majority for {}: the expected value is only the first in order, so these nodes differ and none is known bad.</p>"#,
                f.ties.join(", ")
            );
        }
    }
    if !skipped.is_empty() {
        h.push_static(r#"<p>Skipped, not reports:</p><ul id="fleet-skipped">"#);
        for s in &skipped {
            html!(h, "<li>{}</li>", s);
        }
        h.push_static("</ul>");
    }
    h
}
