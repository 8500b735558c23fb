//! `probe-cli report` (with `--attach`) and `probe-cli schema`.

use estimator_core::report::Attachment;

use crate::cli::ReportArgs;
use crate::files::read_tool_output;
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};
use crate::report::probe_root;

/// Runs `report`: text by default, the JSON document with `--json`. A report that was written is a clean outcome
/// (exit 0) whatever its warnings say: a missing library or a garbled file is data in the report, not a finding.
/// A bad `--root` or an `--attach` file that is not a tool output fails before anything is written.
pub fn report(a: &ReportArgs) -> Result<Outcome, Failure> {
    let mut p = probe_root(a.root.as_deref(), a.include_identifiers)?;
    for path in &a.attach {
        let (_, mut imported) =
            read_tool_output(path).map_err(|e| Failure::input(format!("--attach {}: {e}", path.display())))?;
        if !a.include_identifiers {
            imported.redact_hosts(estimator_core::report::REDACTED);
        }
        let file = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        p.report.attachments.push(Attachment { file, imported });
    }
    if a.json {
        print_json(&p.report)?;
    } else {
        print_text(&crate::report::text::render(&p.report))?;
    }
    Ok(Outcome::Clean)
}

/// Runs `schema`: the JSON Schema of [`estimator_core::Report`], or with `--profile` of
/// [`estimator_core::calibrate::Profile`].
pub fn schema(a: &crate::cli::SchemaArgs) -> Result<Outcome, Failure> {
    if a.profile {
        print_json(&schemars::schema_for!(estimator_core::calibrate::Profile))?;
        return Ok(Outcome::Clean);
    }
    print_json(&schemars::schema_for!(estimator_core::Report))?;
    Ok(Outcome::Clean)
}
