//! The evidence a user gives with a run (`health`, `check-run`): tool outputs named on the command line and the
//! attachments of a `--report`, sorted by kind, one of each kind picked by precedence.

use std::path::{Path, PathBuf};

use estimator_core::Report;
use estimator_core::import::{Imported, NcclLog, NcclTestsRun, Topology, nccl_tests};

use crate::cli::RunChoice;
use crate::files::read_tool_output;
use crate::outcome::Failure;
use crate::output::diag;

/// A piece of evidence and where it came from (a file, or an attachment of the report).
pub struct Sourced<T> {
    pub value: T,
    pub from: String,
}

/// Every piece of evidence of one kind that was offered.
pub struct Offered<T>(pub Vec<Sourced<T>>);

impl<T> Default for Offered<T> {
    fn default() -> Self {
        Offered(Vec::new())
    }
}

/// The evidence of one kind from the first source, in order of precedence, that offers any. Two of a kind from the
/// same source is an input error naming both (`why` says why one is wanted): the commands judge one run, with
/// that run's log and one node's topology, and do not guess which was meant.
pub fn pick<T, const N: usize>(sources: [Offered<T>; N], what: &str, why: &str) -> Result<Option<Sourced<T>>, Failure> {
    for Offered(mut offered) in sources {
        if let [a, b, ..] = offered.as_slice() {
            return Err(Failure::input(format!("two {what}: {} and {}; give one ({why})", a.from, b.from)));
        }
        if let Some(one) = offered.pop() {
            return Ok(Some(one));
        }
    }
    Ok(None)
}

/// The evidence, by kind, from the files given or from the report's attachments.
#[derive(Default)]
pub struct Evidences {
    pub run: Offered<NcclTestsRun>,
    pub log: Offered<NcclLog>,
    pub topo: Offered<Topology>,
    /// The NCCL_DEBUG=INFO lines of a run printed with them: its own log, unless a log file is given.
    pub embedded_log: Option<Sourced<NcclLog>>,
}

impl Evidences {
    /// Adds one tool output; false for the kinds that are not evidence of a run (`ibstat`, `ibv_devinfo`).
    fn add(&mut self, imported: Imported, from: String) -> bool {
        match imported {
            Imported::NcclTests(value) => self.run.0.push(Sourced { value, from }),
            Imported::NcclLog(value) => self.log.0.push(Sourced { value, from }),
            Imported::NvidiaSmiTopo(value) => self.topo.0.push(Sourced { value, from }),
            Imported::Ibstat { .. }
            | Imported::IbvDevinfo { .. }
            | Imported::NcclInspector(_)
            | Imported::PytorchTrace(_) => return false,
        }
        true
    }

    /// The attachments of a report (`report --attach`); the kinds that are not evidence of a run are part of the
    /// report, not of this question, and pass silently. A report whose attachments do not read has none.
    pub fn attached(path: &Path, report: serde_json::Value) -> Evidences {
        let mut out = Evidences::default();
        if let Ok(report) = serde_json::from_value::<Report>(report) {
            for att in report.attachments {
                let from = format!("{} ({}, attached to {})", att.file, att.imported.kind().name(), path.display());
                out.add(att.imported, from);
            }
        }
        out
    }

    /// Reads the files given on the command line of `command`; one that cannot be read or recognised is an input
    /// error, and one that is not evidence of a run is left out with a warning. A nccl-tests file of several runs
    /// gives the one `run` names; without `run` it is an input error that lists them.
    pub fn given(paths: &[PathBuf], command: &str, run: Option<RunChoice>) -> Result<Evidences, Failure> {
        let mut given = Evidences::default();
        for path in paths {
            let (text, mut imported) =
                read_tool_output(path).map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
            let mut from = format!("{} ({})", path.display(), imported.kind().name());
            if let Imported::NcclTests(first) = &imported {
                if first.runs_in_file > 1 || run.is_some() {
                    let chosen = choose(nccl_tests::parse_runs(&text), run, path, command)?;
                    if chosen.runs_in_file > 1 {
                        from =
                            format!("{} (nccl-tests, run {} of {})", path.display(), chosen.run, chosen.runs_in_file);
                    }
                    imported = Imported::NcclTests(chosen);
                }
                // Only a log with something to say about the network (not a bare version line from
                // NCCL_DEBUG=VERSION) stands in for the report's attached one.
                if let Imported::NcclTests(r) = &imported
                    && let Some(log) = &r.nccl_log
                    && (log.transport.is_some() || log.gdr.is_some() || !log.net_devices.is_empty())
                    && given.embedded_log.is_none()
                {
                    let from = format!("{} (nccl-log, in the run's output)", path.display());
                    given.embedded_log = Some(Sourced { value: (**log).clone(), from });
                }
            }
            if !given.add(imported, from.clone()) {
                diag(&format!(
                    "warning: {from}: not evidence {command} reads here (it reads nccl-tests output, an \
                     NCCL_DEBUG=INFO log and nvidia-smi topo -m; check-run takes a trace with --trace and Inspector \
                     dumps with --inspector); left out"
                ));
            }
        }
        Ok(given)
    }
}

/// The run of a file's `runs` that `choice` names; several runs and no choice, or a choice past the last, is an
/// input error that lists them (the commands judge one run and do not guess which was meant).
fn choose(
    mut runs: Vec<NcclTestsRun>,
    choice: Option<RunChoice>,
    path: &Path,
    command: &str,
) -> Result<NcclTestsRun, Failure> {
    let n = runs.len();
    let list = || {
        let summaries: Vec<_> = runs.iter().map(crate::imports::RunSummary::of).collect();
        crate::imports::listed(&summaries).iter().map(|l| format!("\n  {l}")).collect::<String>()
    };
    let at = match choice {
        Some(RunChoice::Last) => n.checked_sub(1),
        Some(RunChoice::Number(k)) => usize::try_from(k).ok().and_then(|k| k.checked_sub(1)).filter(|i| *i < n),
        None if n == 1 => Some(0),
        None => {
            return Err(Failure::input(format!(
                "{}: {n} runs in this file: pass --run K (1 to {n}) or --run last ({command} judges one run):{}",
                path.display(),
                list()
            )));
        }
    };
    match at {
        Some(i) => Ok(runs.swap_remove(i)),
        None => Err(Failure::input(format!(
            "--run: {} holds {} (there is no run {}):{}",
            path.display(),
            estimator_core::human::plural(n as u64, "run"),
            match choice {
                Some(RunChoice::Number(k)) => k.to_string(),
                _ => "to pick".to_string(),
            },
            list()
        ))),
    }
}
