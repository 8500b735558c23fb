//! `probe-cli fleet DIR|FILE...`: many nodes' reports compared (estimator-core's `fleet`). Files are read on every
//! core; a file that is not a report is named and skipped, never fatal. Outliers and skipped files are findings
//! (exit 1): a node whose probe failed left an empty file, and is the odd one out too.

use std::fmt::Write as _;
use std::path::Path;

use estimator_core::fleet::{FIELDS, Fleet, NodeFacts, fleet as compare};
use estimator_core::report::{MAX_REPORT_BYTES, Report, ReportError};
use serde::Serialize;

use crate::cli::FleetArgs;
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};

/// A file that was not read as a report, and why.
#[derive(Clone, Debug, Serialize)]
struct Skipped {
    file: String,
    reason: String,
}

/// `fleet --json`.
#[derive(Serialize)]
struct FleetDocument {
    #[serde(flatten)]
    fleet: Fleet,
    skipped: Vec<Skipped>,
}

/// One node's facts from its file, or why not.
fn read_node(path: &Path) -> Result<NodeFacts, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".to_string());
    }
    if meta.len() > MAX_REPORT_BYTES as u64 {
        return Err(ReportError::too_large(usize::try_from(meta.len()).unwrap_or(usize::MAX)).to_string());
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if ReportError::is_empty_text(&bytes) {
        return Err(ReportError::empty().to_string());
    }
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| ReportError::not_json(e).to_string())?;
    estimator_core::report::check_version(&value).map_err(|e| e.to_string())?;
    estimator_core::report::read_head(&value).map_err(|e| e.to_string())?;
    let report: Report = serde_json::from_value(value).map_err(|e| format!("not a report: {e}"))?;
    let name = path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    Ok(NodeFacts::of(&name, &report))
}

/// Runs `fleet`.
pub fn fleet(a: &FleetArgs) -> Result<Outcome, Failure> {
    // A report file is `*.json`: a directory of them may hold the runs' logs too.
    let files = crate::files::list(&a.paths, |f| f.extension().is_some_and(|x| x == "json"), usize::MAX)?;
    let mut nodes = Vec::new();
    let mut paths = Vec::new();
    let mut skipped = Vec::new();
    for (path, read) in crate::files::read_parallel(&files, read_node) {
        match read {
            Ok(n) => {
                nodes.push(n);
                paths.push(path);
            }
            Err(reason) => {
                diag(&format!("{}: skipped: {reason}", path.display()));
                skipped.push(Skipped { file: path.display().to_string(), reason });
            }
        }
    }
    if nodes.is_empty() {
        return Err(Failure::input(format!(
            "no report among the {} file(s) given (run probe-cli report --json > NODE.json on each node)",
            files.len()
        )));
    }
    // Two files of one name in different directories are two nodes: both named by their path.
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for n in &nodes {
        *seen.entry(n.node.clone()).or_default() += 1;
    }
    let mut named = Vec::with_capacity(nodes.len());
    for (n, path) in nodes.into_iter().zip(paths) {
        named.push(if seen[&n.node] > 1 { NodeFacts { node: path.display().to_string(), ..n } } else { n });
    }
    let f = compare(&named);
    // Nodes that differ are a finding, whether or not the field tells which one is bad (the text says when not).
    let findings = !f.outliers.is_empty() || !skipped.is_empty();
    if a.json {
        print_json(&FleetDocument { fleet: f, skipped })?;
    } else {
        print_text(&text(&f, &skipped))?;
    }
    Ok(if findings { Outcome::Findings } else { Outcome::Clean })
}

/// A report's text as a terminal shows it: control characters (escape sequences) as `?`.
fn plain(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}

/// The fleet as text: its shapes, the outliers as a table, the skipped files.
fn text(f: &Fleet, skipped: &[Skipped]) -> String {
    let mut t = format!("Fleet    {} node(s), {} shape(s)\n", f.nodes, f.groups.len());
    for g in &f.groups {
        let few = if g.count <= 5 { format!("  ({})", g.nodes.join(", ")) } else { String::new() };
        let _ = writeln!(t, "  {:>6}  {}", g.count, plain(&format!("{}{few}", g.shape)));
    }
    if f.outliers.is_empty() {
        let _ = writeln!(t, "Outliers none: every node has the same {}", FIELDS.join(", "));
    } else {
        let width = f.outliers.iter().map(|o| o.node.len()).max().unwrap_or(4).max(4);
        let value = f.outliers.iter().map(|o| o.value.len()).max().unwrap_or(5).clamp(5, 48);
        let _ = writeln!(t, "Outliers {}", f.outliers.len());
        let _ = writeln!(t, "  {:<width$}  {:<19} {:<value$}  expected", "node", "field", "value");
        for o in &f.outliers {
            let _ = writeln!(
                t,
                "  {:<width$}  {:<19} {:<value$}  {}",
                plain(&o.node),
                o.field,
                plain(&o.value),
                plain(&o.expected)
            );
        }
    }
    if !f.ties.is_empty() {
        let _ = writeln!(
            t,
            "No majority for {}: the expected value is only the first in order; those nodes differ, none is known bad",
            f.ties.join(", ")
        );
    }
    if !skipped.is_empty() {
        let _ = writeln!(t, "Skipped  {} file(s) that are not reports (named on stderr)", skipped.len());
    }
    t
}
