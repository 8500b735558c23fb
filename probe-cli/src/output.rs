//! Where commands write: their answer on stdout (text, or one JSON document), diagnostics on stderr.

use std::io::Write as _;

use anyhow::Context as _;
use serde::Serialize;

use crate::outcome::Failure;

/// Prints one JSON document (pretty, with a final newline) on stdout.
pub fn print_json(value: &impl Serialize) -> Result<(), Failure> {
    let mut text = serde_json::to_string_pretty(value).context("serialising JSON")?;
    text.push('\n');
    print_text(&text)
}

/// Writes to stdout. A reader that went away (`| head`) ends the output quietly, as in other Unix tools; any other
/// write error is a failure (exit 2).
pub fn print_text(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("writing output").into())
        }
        _ => Ok(()),
    }
}

/// Writes a diagnostic line to stderr. A closed stderr (`2>&-`, a pipe whose reader left) is not worth a panic.
pub fn diag(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
