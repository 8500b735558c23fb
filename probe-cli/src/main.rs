//! probe-cli: the estimator in the terminal, and the probe of a rented node.
//!
//! `probe-cli report` reads the node's hardware into estimator-core's report; `probe-cli gather` captures what it
//! read; `probe-cli schema` prints the report's JSON Schema. `probe-cli estimate step` and `probe-cli estimate
//! allreduce` run estimator-core's model on flags (or on a report). Text output by
//! default, one JSON document on stdout with `--json`, diagnostics on stderr. Exit codes: 0 ok, 1 error, 2 usage
//! (bad flags or values the model rejects).

mod cli;
mod estimate;
mod gather;
mod health;
mod imports;
mod node;
mod report;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command, EstimateCommand};

/// A failure and the exit code it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or values: exit 2.
    Usage(String),
    /// Anything else: exit 1.
    Other(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}

/// Writes a diagnostic line to stderr. A closed stderr (`2>&- `, a pipe whose reader left) is not worth a panic.
pub fn diag(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Estimate(EstimateCommand::Step(args)) => estimate::step(&args),
        Command::Estimate(EstimateCommand::Allreduce(args)) => estimate::allreduce(&args),
        Command::Estimate(EstimateCommand::Catalog(args)) => estimate::catalog(&args),
        Command::Report(args) => node::report(&args),
        Command::Gather(args) => gather::gather(&args),
        Command::Schema => node::schema(),
        Command::Import(args) => imports::import(&args),
        Command::Health(args) => health::health(&args),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with exit 0, and usage errors to stderr with exit 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            diag(&format!("error: {msg}\n\nFor more information, try '--help'."));
            ExitCode::from(2)
        }
        Err(Failure::Other(e)) => {
            diag(&format!("error: {e:#}"));
            ExitCode::from(1)
        }
    }
}
