//! `probe-cli health FILE... [--report node.json]`: a measured nccl-tests run against the model for the same
//! hardware (estimator-core's `health::judge`), with the causes the NCCL log, `nvidia-smi topo -m` and the report
//! point to.

use std::fmt::Write as _;
use std::path::PathBuf;

use estimator_core::health::{Evidence, Health, Verdict, judge};
use estimator_core::import::{Imported, NcclLog, NcclTestsRun, Topology, nccl_log};
use estimator_core::report::Summary;
use estimator_core::{Bytes, Report, Scenario, ScenarioInput, human};
use serde::Serialize;

use crate::cli::HealthArgs;
use crate::files::{load_report, read_tool_output};
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};
use crate::scenario::{apply_cluster, usage};

#[derive(Serialize)]
struct HealthDocument<'a> {
    #[serde(flatten)]
    health: &'a Health,
    /// The scenario the run was judged against.
    input: &'a ScenarioInput,
    /// Where each piece of evidence came from.
    files: &'a [String],
}

/// Runs `health`. A healthy run is a clean outcome (exit 0); a degraded, unhealthy or mismatched one is a finding
/// (exit 1, after the verdict is printed).
pub fn health(a: &HealthArgs) -> Result<Outcome, Failure> {
    let mut summary: Option<Summary> = None;
    let mut attached = Evidences::default();
    if let Some(path) = &a.report {
        let (head, value) = load_report(path)?;
        summary = Some(head.summary);
        // The report's attachments are evidence too, unless a file of the same kind is given; the kinds `health`
        // does not read are part of the report, not of this question, and pass silently.
        if let Ok(report) = serde_json::from_value::<Report>(value) {
            for att in report.attachments {
                let from = format!("{} ({}, attached to {})", att.file, att.imported.kind().name(), path.display());
                attached.add(att.imported, from);
            }
        }
    }
    let given = given_files(&a.files)?;
    // A file given beats the run's own NCCL_DEBUG=INFO lines, which beat the report's attachments.
    let run = pick([given.run, attached.run], "nccl-tests outputs")?.ok_or_else(|| {
        Failure::Usage("no nccl-tests output among the files (the output of all_reduce_perf, all_gather_perf, reduce_scatter_perf, \
             broadcast_perf or alltoall_perf is what is judged)".to_string())
    })?;
    let embedded = Offered(given.embedded_log.into_iter().collect());
    let log = pick([given.log, embedded, attached.log], "NCCL logs")?;
    let topo = pick([given.topo, attached.topo], "nvidia-smi topo -m outputs")?;
    if run.value.rows.is_empty() {
        return Err(Failure::input(format!("{}: the nccl-tests output has no table row to judge", run.from)));
    }
    let files: Vec<String> = [Some(&run.from), log.as_ref().map(|l| &l.from), topo.as_ref().map(|t| &t.from)]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let log = log.map(|l| l.value);
    let topo = topo.map(|t| t.value);
    let s = scenario(a, summary.as_ref(), &run.value, log.as_ref())?;
    let evidence = Evidence { log: log.as_ref(), topo: topo.as_ref(), summary: summary.as_ref() };
    if let (Some(test), None) = (run.value.test.as_deref(), run.value.op()) {
        return Err(Failure::input(format!(
            "{}: {test} is not a collective the model covers (all_reduce, all_gather, reduce_scatter, broadcast, \
             alltoall)",
            run.from
        )));
    }
    let h = judge(&s, &run.value, evidence)
        .ok_or_else(|| Failure::input(format!("{}: the nccl-tests output has no table row to judge", run.from)))?;
    if a.cluster.json {
        print_json(&HealthDocument { health: &h, input: s.input(), files: &files })?;
    } else {
        print_text(&text(&h, &s, &files))?;
    }
    Ok(if h.verdict == Verdict::Healthy { Outcome::Clean } else { Outcome::Findings })
}

/// A piece of evidence and where it came from (a file, or an attachment of the report).
struct Sourced<T> {
    value: T,
    from: String,
}

/// Every piece of evidence of one kind that was offered.
struct Offered<T>(Vec<Sourced<T>>);

impl<T> Default for Offered<T> {
    fn default() -> Self {
        Offered(Vec::new())
    }
}

/// The evidence of one kind from the first source, in order of precedence, that offers any. Two of a kind from the
/// same source is an input error naming both: `health` judges one run, with that run's log and one node's
/// topology, and does not guess which was meant.
fn pick<T, const N: usize>(sources: [Offered<T>; N], what: &str) -> Result<Option<Sourced<T>>, Failure> {
    for Offered(mut offered) in sources {
        if let [a, b, ..] = offered.as_slice() {
            return Err(Failure::input(format!(
                "two {what}: {} and {}; give one (health judges one run)",
                a.from, b.from
            )));
        }
        if let Some(one) = offered.pop() {
            return Ok(Some(one));
        }
    }
    Ok(None)
}

/// The evidence `health` uses, by kind, from the files given or from the report's attachments.
#[derive(Default)]
struct Evidences {
    run: Offered<NcclTestsRun>,
    log: Offered<NcclLog>,
    topo: Offered<Topology>,
    /// The NCCL_DEBUG=INFO lines of a run printed with them: its own log, unless a log file is given.
    embedded_log: Option<Sourced<NcclLog>>,
}

impl Evidences {
    /// Adds one tool output; false for the kinds `health` does not read (`ibstat`, `ibv_devinfo`).
    fn add(&mut self, imported: Imported, from: String) -> bool {
        match imported {
            Imported::NcclTests(value) => self.run.0.push(Sourced { value, from }),
            Imported::NcclLog(value) => self.log.0.push(Sourced { value, from }),
            Imported::NvidiaSmiTopo(value) => self.topo.0.push(Sourced { value, from }),
            Imported::Ibstat { .. } | Imported::IbvDevinfo { .. } => return false,
        }
        true
    }
}

/// Reads the files given on the command line; one that cannot be read or recognised is an input error, and one
/// `health` does not read is left out with a warning.
fn given_files(paths: &[PathBuf]) -> Result<Evidences, Failure> {
    let mut given = Evidences::default();
    for path in paths {
        let (text, imported) =
            read_tool_output(path).map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        let from = format!("{} ({})", path.display(), imported.kind().name());
        if matches!(imported, Imported::NcclTests(_)) && text.contains(" NCCL INFO ") && given.embedded_log.is_none() {
            let from = format!("{} (nccl-log, in the run's output)", path.display());
            given.embedded_log = Some(Sourced { value: nccl_log::parse(&text), from });
        }
        if !given.add(imported, from.clone()) {
            diag(&format!(
                "warning: {from}: not evidence health reads (it reads nccl-tests output, an NCCL_DEBUG=INFO log \
                 and nvidia-smi topo -m); left out"
            ));
        }
    }
    Ok(given)
}

fn scenario(
    a: &HealthArgs,
    summary: Option<&Summary>,
    run: &NcclTestsRun,
    log: Option<&NcclLog>,
) -> Result<Scenario, Failure> {
    let c = &a.cluster;
    let per_node = match summary {
        Some(x) if x.gpus > 0 => i64::from(x.gpus),
        _ => c.gpus_per_node,
    };
    // Nodes: given, else the run's ranks over GPUs per node, else the log's nNodes, else 2.
    let from_ranks = u32::try_from(per_node).ok().and_then(|g| run.nodes_for(g)).filter(|n| *n > 0);
    let from_log = log.and_then(|l| l.nodes).filter(|n| *n > 0);
    let nodes = a.nodes.or(from_ranks.or(from_log).map(i64::from)).unwrap_or(2);
    let mut input = ScenarioInput::default();
    apply_cluster(&mut input, c, nodes, summary)?;
    // The run was measured on `nodes` nodes, even when the report's node has no fabric (which makes one node).
    input.nodes = nodes;
    // The run is judged against the model, never against a measurement.
    input.measured_busbw_gbs = None;
    Scenario::new(input).map_err(|e| usage(&e))
}

/// The verdict in words: the hardware judged against, each size measured against the model, the causes.
fn text(h: &Health, s: &Scenario, files: &[String]) -> String {
    let mut t = String::new();
    let i = s.input();
    let _ = writeln!(
        t,
        "Judged against {} nodes x {} {}, {} x {} Gb/s {}{}:",
        s.nodes(),
        i.gpus_per_node,
        s.gpu().name,
        i.adapters_per_node,
        human::num(i.link_gbps, 3),
        i.fabric.name(),
        if i.gdr { ", GPUDirect RDMA" } else { "" }
    );
    let _ = writeln!(
        t,
        "  {} over {} ({} ranks, from {}).",
        h.op.name(),
        human::plural(u64::from(s.nodes()), "node"),
        h.ranks,
        h.ranks_from
    );
    // Every size with a bus bandwidth, nccl-tests' columns beside the model's.
    let _ = writeln!(t, "\n  {:>10}  {:>10}  {:>10}  {:>7}  NCCL's choice", "size", "measured", "expected", "share");
    for c in &h.curve {
        let ring = c.expected_ring_busbw_gbs.map_or(String::new(), |r| format!(" (Ring {})", human::num(r, 1)));
        let _ = writeln!(
            t,
            "  {:>10}  {:>10}  {:>10}  {:>7}  {}/{}{ring}",
            human::binary(Bytes::new(c.size_bytes)),
            human::num(c.measured_busbw_gbs, 1),
            human::num(c.expected_busbw_gbs, 1),
            human::pct(c.ratio),
            c.algorithm,
            c.protocol
        );
    }
    let _ =
        writeln!(t, "  (busbw in GB/s; share: measured over expected, the nearer end where NCCL may run two ways)\n");
    if let Some(d) = &h.departure {
        let _ = writeln!(t, "Along the curve: {d}");
    }
    let _ = writeln!(t, "Verdict: {}", h.verdict.name());
    for m in &h.mismatch {
        let _ = writeln!(t, "  - not this hardware: {m}");
    }
    if !h.mismatch.is_empty() {
        let _ = writeln!(t, "  Judge it against the hardware it ran on (--nodes, --gpu, --report of that node).");
    }
    for e in &h.evidence {
        let _ = writeln!(t, "  evidence: {e}");
    }
    for c in &h.causes {
        let _ = writeln!(t, "  - {}", c.text);
        for x in &c.check {
            let _ = writeln!(t, "      check: {x}");
        }
    }
    let _ = writeln!(t, "From: {}", files.join(", "));
    t
}
