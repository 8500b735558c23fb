//! `probe-cli import FILE...`: detects what each file is (nccl-tests output, an NCCL log, `nvidia-smi topo -m`,
//! `ibstat`, `ibv_devinfo`) and prints what estimator-core's readers found.

use std::fmt::Write as _;
use std::path::Path;

use estimator_core::health::run_hardware;
use estimator_core::human;
use estimator_core::import::{Imported, NcclTestsRun, nccl_tests};
use serde::Serialize;

use crate::cli::ImportArgs;
use crate::files::read_tool_output;
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};

/// One file's answer: an element of `import --json`'s array.
#[derive(Serialize)]
pub struct FileResult {
    /// The file as given.
    pub file: String,
    /// What it held, or why not.
    #[serde(flatten)]
    pub answer: Answer,
    /// Every run of a nccl-tests file that holds several (the answer is the first), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunSummary>,
}

/// The runs of a file as lines, the first 10 and the last 5 of a long list with how many stand between.
pub fn listed(runs: &[RunSummary]) -> Vec<String> {
    if runs.len() <= 20 {
        return runs.iter().map(RunSummary::line).collect();
    }
    let mut out: Vec<String> = runs[..10].iter().map(RunSummary::line).collect();
    out.push(format!("... {} more runs ...", runs.len() - 15));
    out.extend(runs[runs.len() - 5..].iter().map(RunSummary::line));
    out
}

/// One run of a file of several: what tells it from the others.
#[derive(Serialize)]
pub struct RunSummary {
    /// Its place in the file, from 1 (`--run` takes it).
    pub run: u32,
    /// The test binary, when the text names it.
    pub test: Option<String>,
    /// Ranks and distinct hosts of its own rank lines.
    pub ranks: Option<u32>,
    /// Hosts: the distinct hosts when every rank's line is there, else the ranks over the GPUs per host that the
    /// device numbers show (`health::run_hardware`); unknown when neither tells.
    pub hosts: Option<u32>,
    /// The GPU its rank lines name.
    pub gpu: Option<String>,
    /// Table rows.
    pub rows: usize,
    /// Its largest out-of-place bus bandwidth, GB/s.
    pub peak_busbw_gbs: Option<f64>,
    /// Whether it was cut.
    pub truncated: bool,
}

impl RunSummary {
    /// The summary of one run.
    pub fn of(r: &NcclTestsRun) -> RunSummary {
        RunSummary {
            run: r.run,
            test: r.test.clone(),
            ranks: r.ranks,
            hosts: run_hardware(r).nodes,
            gpu: r.devices.iter().find_map(|d| d.gpu.clone()),
            rows: r.rows.len(),
            peak_busbw_gbs: r.peak_busbw_gbs,
            truncated: r.truncated,
        }
    }

    /// One line: `run 2: all_reduce_perf, 16 ranks on 2 hosts (NVIDIA H100 80GB HBM3), 27 rows, peak 370.1 GB/s`.
    pub fn line(&self) -> String {
        format!(
            "run {}: {}{}{}, {}, peak busbw {}{}",
            self.run,
            self.test.as_deref().unwrap_or("nccl-tests"),
            self.ranks.map_or(String::new(), |r| format!(
                ", {}{}",
                human::plural(u64::from(r), "rank"),
                self.hosts.map_or(String::new(), |h| format!(" on {}", human::plural(u64::from(h), "host")))
            )),
            self.gpu.as_deref().map_or(String::new(), |g| format!(" ({g})")),
            human::plural(self.rows as u64, "row"),
            gbs(self.peak_busbw_gbs),
            if self.truncated { ", cut" } else { "" }
        )
    }
}

/// What a file held (the reader's keys, `kind` first), or why it could not be read or recognised.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// What the reader found.
    Read(Imported),
    /// `kind` is `null`, so that every element has it, and `error` says why.
    Unread {
        /// Always `None`.
        kind: Option<&'static str>,
        /// Why the file was not read.
        error: String,
    },
}

/// Reads and recognises one file.
fn import_file(path: &Path) -> FileResult {
    let file = path.display().to_string();
    match read_tool_output(path) {
        Ok((text, imported)) => {
            let runs = match &imported {
                Imported::NcclTests(run) if run.runs_in_file > 1 => {
                    nccl_tests::parse_runs(&text).iter().map(RunSummary::of).collect()
                }
                _ => Vec::new(),
            };
            FileResult { file, answer: Answer::Read(imported), runs }
        }
        Err(error) => FileResult { file, answer: Answer::Unread { kind: None, error }, runs: Vec::new() },
    }
}

/// A bus bandwidth, `?` when the output has none.
fn gbs(v: Option<f64>) -> String {
    v.map_or_else(|| "?".to_string(), |v| format!("{} GB/s", human::num(v, 2)))
}

/// A value as printed, `?` when absent.
fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "?".to_string(), |v| v.to_string())
}

/// A few lines about one file.
fn describe(r: &FileResult) -> String {
    let mut t = String::new();
    let i = match &r.answer {
        Answer::Read(i) => i,
        Answer::Unread { error, .. } => {
            let _ = writeln!(t, "{}: {error}", r.file);
            return t;
        }
    };
    let _ = write!(t, "{}: {}", r.file, i.kind().name());
    match i {
        Imported::NcclTests(run) => {
            let _ = writeln!(
                t,
                "{}, {}{}; peak busbw {}, avg {}{}",
                run.test.as_ref().map_or(String::new(), |n| format!(" ({n})")),
                human::plural(run.rows.len() as u64, "row"),
                run.ranks.map_or(String::new(), |r| format!(
                    ", {}{}",
                    human::plural(u64::from(r), "rank"),
                    // An excerpt's rank lines may name fewer hosts than ran: counted as the health check counts.
                    run_hardware(run)
                        .nodes
                        .map_or(String::new(), |n| format!(" on {}", human::plural(u64::from(n), "host")))
                )),
                gbs(run.peak_busbw_gbs),
                gbs(run.avg_busbw_gbs),
                if run.truncated { "; the output is cut" } else { "" }
            );
            if run.rows.is_empty() {
                let _ = writeln!(t, "  {}", estimator_core::import::nccl_tests::NO_ROWS);
            }
            if !r.runs.is_empty() {
                let _ = writeln!(
                    t,
                    "  {} runs in this file, each read on its own (the rows above are run 1's; health --run K \
                     judges one):",
                    r.runs.len()
                );
                for line in listed(&r.runs) {
                    let _ = writeln!(t, "    {line}");
                }
            }
            if let Some(log) = &run.nccl_log {
                let facts = log.facts();
                if !facts.is_empty() {
                    let _ = writeln!(t, "  its NCCL_DEBUG=INFO lines: {}", facts.join(", "));
                }
            }
            for row in run.rows.iter().rev().take(3).rev() {
                let _ = writeln!(
                    t,
                    "  {:>14} B  {:>10} us  algbw {:>7}  busbw {:>7} GB/s",
                    row.size_bytes,
                    human::fixed(row.time_us, 1),
                    human::fixed(row.algbw_gbs, 2),
                    human::fixed(row.busbw_gbs, 2)
                );
            }
        }
        Imported::NcclLog(log) => {
            let _ = writeln!(
                t,
                "{}{}{}; transport {}, GPUDirect RDMA {}, NICs used {}",
                log.version.as_ref().map_or(String::new(), |v| format!(" (NCCL {v})")),
                log.ranks.map_or(String::new(), |r| format!(", {r} ranks")),
                log.nodes.map_or(String::new(), |n| format!(" on {n} nodes")),
                match (log.transport.as_deref(), log.transports.len() > 1) {
                    (Some(t), true) => format!(
                        "{t} ({}: some ranks fell back, and the job runs at the slowest's pace)",
                        log.transports
                            .iter()
                            .map(|(k, n)| format!("{k} on {n} processes"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    (Some(t), false) => t.to_string(),
                    (None, _) => "not in the log".to_string(),
                },
                log.gdr.map_or("unknown", |g| if g { "on" } else { "off" }),
                opt(&log.nics_used)
            );
            if !log.intra_node.is_empty() {
                let _ = writeln!(t, "  inside the node: {}", log.intra_node.join(", "));
            }
            for w in &log.warnings {
                let _ = writeln!(t, "  NCCL WARN {w}");
            }
        }
        Imported::NvidiaSmiTopo(topo) => {
            let _ = writeln!(
                t,
                ", {} GPUs, {} NICs{}",
                topo.gpus,
                topo.nics.len(),
                if topo.truncated { "; the matrix is cut" } else { "" }
            );
            for n in &topo.nearest {
                let _ = writeln!(
                    t,
                    "  {} nearest {} {}{}",
                    n.gpu,
                    n.nic,
                    n.class,
                    if n.gdr_distance_ok { "" } else { " (too far for GPUDirect RDMA at NCCL's default level)" }
                );
            }
        }
        Imported::NcclInspector(d) => {
            let _ = writeln!(t, ": {}", d.describe());
            let mut per = vec![0usize; d.calls.comms.len()];
            for x in &d.calls.calls {
                if let Some(n) = per.get_mut(x.comm as usize) {
                    *n += 1;
                }
            }
            for (c, n) in d.calls.comms.iter().zip(per) {
                let _ = writeln!(
                    t,
                    "  communicator {}{}: {} ranks{}, {n} records",
                    c.id,
                    c.label.as_ref().map_or(String::new(), |l| format!(" ({l})")),
                    c.ranks,
                    c.nodes.map_or(String::new(), |k| format!(" on {}", human::plural(u64::from(k), "node")))
                );
            }
            for p in d.calls.coverage.iter().chain(&d.problems) {
                let _ = writeln!(t, "  note: {p}");
            }
        }
        Imported::PytorchTrace(tr) => {
            let _ = writeln!(t, ": {}", tr.describe());
            for c in &tr.calls.comms {
                let _ = writeln!(
                    t,
                    "  process group {}{}: {} ranks{}",
                    c.id,
                    c.label.as_ref().map_or(String::new(), |l| format!(" ({l})")),
                    c.ranks,
                    match c.members.len() {
                        0 => String::new(),
                        n if n <= 8 => format!(", ranks {:?}", c.members),
                        n => format!(", ranks {:?} ... ({n} in all)", &c.members[..8]),
                    }
                );
            }
            if let (Some(step), Some(exposed), Some(hidden)) =
                (tr.steps.median_step_s, tr.steps.median_exposed_comm_s, tr.steps.median_hidden_comm_s)
            {
                let _ = writeln!(
                    t,
                    "  the median step: {} on the CPU; NCCL kernels {} exposed, {} hidden behind compute",
                    human::secs(estimator_core::Seconds::new(step)),
                    human::secs(estimator_core::Seconds::new(exposed)),
                    human::secs(estimator_core::Seconds::new(hidden))
                );
            }
            for p in tr.calls.coverage.iter().chain(&tr.problems) {
                let _ = writeln!(t, "  note: {p}");
            }
        }
        Imported::Ibstat { adapters } | Imported::IbvDevinfo { adapters } => {
            let _ = writeln!(t, ", {} adapters", adapters.len());
            for a in adapters {
                for p in &a.ports {
                    let _ = writeln!(
                        t,
                        "  {} port {}  {} {}  {}  {}",
                        a.name,
                        p.port,
                        opt(&p.state),
                        opt(&p.physical_state),
                        opt(&p.link_layer),
                        p.rate_gbps.map_or_else(|| "rate ?".to_string(), |r| format!("{} Gb/s", human::num(r, 3)))
                    );
                }
            }
        }
    }
    t
}

/// Runs `import`. Every file is printed, those that could not be read or recognised with the reason; if there is
/// one, `import` fails (exit 2) after printing.
pub fn import(a: &ImportArgs) -> Result<Outcome, Failure> {
    let results: Vec<FileResult> = a.files.iter().map(|f| import_file(f)).collect();
    let failed = results.iter().filter(|r| matches!(r.answer, Answer::Unread { .. })).count();
    if a.json {
        print_json(&results)?;
    } else {
        print_text(&results.iter().map(describe).collect::<String>())?;
    }
    if failed > 0 {
        return Err(Failure::input(format!("{failed} of {} files could not be read or recognised", results.len())));
    }
    Ok(Outcome::Clean)
}
