//! probe-cli: the estimator in the terminal, and the probe of a rented node.
//!
//! `probe-cli report` reads the node's hardware into estimator-core's report; `probe-cli gather` captures what it
//! read; `probe-cli schema` prints the report's JSON Schema. `probe-cli estimate step`, `estimate collective` and
//! `estimate allreduce` run estimator-core's model on flags (or on a report); `probe-cli import` reads tool
//! outputs; `probe-cli health` judges a measured nccl-tests run, `check-run` a measured training step, `plan` a job
//! on every node offer, `fleet` many nodes' reports and `pairs` many two-node runs; `recipe` writes
//! the nccl-tests commands for a node's fabric and `thresholds` the bus bandwidth to gate them on; `completions` and `man` write the shell's and man's forms
//! of the flags. Text output by default, one JSON document on stdout with
//! `--json`, diagnostics on stderr.
//!
//! Exit codes, the same for every command ([`ExitStatus`]): 0 when it ran and found nothing wrong; 1 when it ran
//! and found something (a degraded, unhealthy or mismatched run; `--exit-zero` makes it 0); 2 for bad flags,
//! values the model rejects, input files that cannot be read or understood, and output that cannot be written.
//! A report is data, not a verdict: `report` and `gather` exit 0 whenever they wrote one, whatever its warnings.
//!
//! Each command is a module (`estimate` for `estimate step` and `estimate allreduce`, `catalog` for `estimate
//! catalog`, `imports`, `health`, `node` for `report` and `schema`, `gather`, `check_run`, `plan`, `fleet`,
//! `pairs`, `recipe`, `thresholds`, `shell`); they share `cli` (the flags), `flags` (the scenario's flags, built from the core's table of inputs),
//! `scenario` (flags to the model's input), `files` (reading what the user gives), `output` (stdout and stderr),
//! `outcome` (what a command returns) and `report` (the probe), and never use each other. Quantities in text output
//! (times, sizes, rates, shares) are written through `estimator_core::human`, as the page writes them.

mod calibrate;
mod catalog;
mod check_run;
mod cli;
mod collective;
mod estimate;
mod evidence;
mod files;
mod flags;
mod fleet;
mod gather;
mod health;
mod imports;
mod node;
mod outcome;
mod output;
mod pairs;
mod plan;
mod recipe;
mod report;
mod run_records;
mod scenario;
mod shell;
mod thresholds;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command, EstimateCommand};
use crate::outcome::{Failure, Outcome};
use crate::output::diag;

/// The exit code of a run: the one place outcomes become numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExitStatus {
    /// The command ran and found nothing wrong.
    Success = 0,
    /// The command ran and found something (see [`Outcome::Findings`]).
    Findings = 1,
    /// Usage, configuration or input error: the command did not run to the end.
    Error = 2,
}

impl ExitStatus {
    /// The status of a command's result; with `exit_zero`, findings exit 0 (errors never do).
    fn of(result: &Result<Outcome, Failure>, exit_zero: bool) -> ExitStatus {
        match result {
            Ok(Outcome::Clean) => ExitStatus::Success,
            Ok(Outcome::Findings) if exit_zero => ExitStatus::Success,
            Ok(Outcome::Findings) => ExitStatus::Findings,
            Err(_) => ExitStatus::Error,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(s: ExitStatus) -> ExitCode {
        ExitCode::from(s as u8)
    }
}

fn run(cli: &Cli) -> Result<Outcome, Failure> {
    match &cli.command {
        Command::Estimate(EstimateCommand::Step(args)) => estimate::step(args),
        Command::Estimate(EstimateCommand::Allreduce(args)) => collective::allreduce(args),
        Command::Estimate(EstimateCommand::Collective(args)) => collective::collective(args),
        Command::Estimate(EstimateCommand::Catalog(args)) => catalog::catalog(args),
        Command::Report(args) => node::report(args),
        Command::Gather(args) => gather::gather(args),
        Command::Schema(args) => node::schema(args),
        Command::Calibrate(args) => calibrate::calibrate(args),
        Command::Import(args) => imports::import(args),
        Command::Health(args) => health::health(args),
        Command::CheckRun(args) => check_run::check(args),
        Command::Plan(args) => plan::plan(args),
        Command::Fleet(args) => fleet::fleet(args),
        Command::Pairs(args) => pairs::pairs(args),
        Command::Recipe(args) => recipe::recipe(args),
        Command::Thresholds(args) => thresholds::thresholds(args),
        Command::Completions(args) => shell::completions(args),
        Command::Man => shell::man(),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with exit 0, and usage errors to stderr with exit 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(ExitStatus::Error as u8));
        }
    };
    let result = run(&cli);
    match &result {
        Err(Failure::Usage(msg)) => diag(&format!("error: {msg}\n\nFor more information, try '--help'.")),
        Err(Failure::Input(e)) => diag(&format!("error: {e:#}")),
        Ok(_) => {}
    }
    ExitStatus::of(&result, cli.exit_zero).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_zero_hides_findings_but_never_errors() {
        let findings = || Ok(Outcome::Findings);
        let error = || Err(Failure::input("unreadable"));
        assert_eq!(ExitStatus::of(&Ok(Outcome::Clean), false), ExitStatus::Success);
        assert_eq!(ExitStatus::of(&findings(), false), ExitStatus::Findings);
        assert_eq!(ExitStatus::of(&findings(), true), ExitStatus::Success);
        assert_eq!(ExitStatus::of(&error(), false), ExitStatus::Error);
        assert_eq!(ExitStatus::of(&error(), true), ExitStatus::Error);
        assert_eq!([ExitStatus::Success, ExitStatus::Findings, ExitStatus::Error].map(|s| s as u8), [0, 1, 2]);
    }
}
