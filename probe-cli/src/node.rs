//! `probe-cli report`, `probe-cli schema`, and reading a report file back (`estimate step --report`).

use std::path::{Path, PathBuf};

use estimator_core::report::{self, MAX_REPORT_BYTES, ReportError, ReportHead};

use crate::Failure;
use crate::cli::ReportArgs;
use crate::estimate::{print_json, print_text};
use crate::report::fs::Tree;
use crate::report::{Libraries, Probe, probe};

/// Probes the live machine (`/`) or a captured tree.
pub fn run_probe(root: Option<&Path>, identifiers: bool) -> Result<Probe, Failure> {
    match root {
        None => Ok(probe(Tree::new("/"), Libraries::live(identifiers), identifiers)),
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Failure::Usage(format!("--root {}: not a directory", dir.display())));
            }
            let mut tree = Tree::new(PathBuf::from(dir));
            let libs = Libraries::captured(&mut tree);
            Ok(probe(tree, libs, identifiers))
        }
    }
}

/// Runs `report`: text by default, the JSON document with `--json`. Exit 0 whenever a report was written.
pub fn report(a: &ReportArgs) -> Result<(), Failure> {
    let mut p = run_probe(a.root.as_deref(), a.include_identifiers)?;
    for path in &a.attach {
        let r = crate::imports::import_file(path);
        let file = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        match r.imported {
            Some(imported) => p.report.attachments.push(estimator_core::report::Attachment { file, imported }),
            None => {
                return Err(Failure::Usage(format!("--attach {}: {}", path.display(), r.error.unwrap_or_default())));
            }
        }
    }
    if a.json { print_json(&p.report) } else { print_text(&crate::report::text::render(&p.report)) }
}

/// Runs `schema`: the JSON Schema of [`estimator_core::Report`].
pub fn schema() -> Result<(), Failure> {
    print_json(&schemars::schema_for!(estimator_core::Report))
}

/// Reads a report file: at most 1 MiB, JSON, this schema version, a plausible summary. The error names the file
/// and the field.
pub fn load_report(path: &Path) -> Result<(ReportHead, serde_json::Value), Failure> {
    let fail = |e: ReportError| Failure::Usage(format!("--report {}: {e}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| Failure::Usage(format!("--report {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(Failure::Usage(format!("--report {}: not a regular file", path.display())));
    }
    if meta.len() > MAX_REPORT_BYTES as u64 {
        return Err(fail(ReportError::too_large(usize::try_from(meta.len()).unwrap_or(usize::MAX))));
    }
    let bytes = std::fs::read(path).map_err(|e| Failure::Usage(format!("--report {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes).map_err(|_| fail(ReportError::not_json("the file is not UTF-8 text")))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| fail(ReportError::not_json(e)))?;
    report::check_version(&value).map_err(fail)?;
    let head = report::read_head(&value).map_err(fail)?;
    Ok((head, value))
}
