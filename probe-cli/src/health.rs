//! `probe-cli health FILE... [--report node.json]`: a measured nccl-tests run against the model for the same
//! hardware (estimator-core's `health::judge`), with the causes the NCCL log, `nvidia-smi topo -m` and the report
//! point to.

use std::fmt::Write as _;

use estimator_core::health::{Evidence, Health, Verdict, judge};
use estimator_core::import::{NcclLog, NcclTestsRun};
use estimator_core::report::Summary;
use estimator_core::{Bytes, Field, Scenario, ScenarioInput, human};
use serde::Serialize;

use crate::cli::HealthArgs;
use crate::evidence::{Evidences, Offered, pick};
use crate::files::load_report;
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};
use crate::scenario::{apply_cluster, profiled, usage};

#[derive(Serialize)]
struct HealthDocument<'a> {
    #[serde(flatten)]
    health: &'a Health,
    /// The scenario the run was judged against.
    input: &'a ScenarioInput,
    /// Where each piece of evidence came from.
    files: &'a [String],
    /// With `--profile`: what the profile changed, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// Runs `health`. A healthy run is a clean outcome (exit 0); a degraded, unhealthy or mismatched one is a finding
/// (exit 1, after the verdict is printed).
pub fn health(a: &HealthArgs) -> Result<Outcome, Failure> {
    let mut summary: Option<Summary> = None;
    let mut attached = Evidences::default();
    if let Some(path) = &a.report {
        let (head, value) = load_report(path)?;
        summary = Some(head.summary);
        attached = Evidences::attached(path, value);
    }
    let given = Evidences::given(&a.files, "health", a.run)?;
    // A file given beats the run's own NCCL_DEBUG=INFO lines, which beat the report's attachments.
    let run = pick([given.run, attached.run], "nccl-tests outputs", "health judges one run")?.ok_or_else(|| {
        Failure::Usage("no nccl-tests output among the files (the output of all_reduce_perf, all_gather_perf, reduce_scatter_perf, \
             broadcast_perf or alltoall_perf is what is judged)".to_string())
    })?;
    let embedded = Offered(given.embedded_log.into_iter().collect());
    let log = pick([given.log, embedded, attached.log], "NCCL logs", "health judges one run")?;
    let topo = pick([given.topo, attached.topo], "nvidia-smi topo -m outputs", "health judges one run")?;
    if run.value.rows.is_empty() {
        return Err(Failure::input(format!(
            "{}: nothing to judge, {}",
            run.from,
            estimator_core::import::nccl_tests::NO_ROWS
        )));
    }
    let files: Vec<String> = [Some(&run.from), log.as_ref().map(|l| &l.from), topo.as_ref().map(|t| &t.from)]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let log = log.map(|l| l.value);
    let topo = topo.map(|t| t.value);
    let s = scenario(a, summary.as_ref(), &run.value, log.as_ref())?;
    let (s, profile) = profiled(s, &a.cluster)?;
    let evidence = Evidence { log: log.as_ref(), topo: topo.as_ref(), summary: summary.as_ref() };
    if let (Some(test), None) = (run.value.test.as_deref(), run.value.op()) {
        return Err(Failure::input(format!(
            "{}: {test} is not a collective the model covers (all_reduce, all_gather, reduce_scatter, broadcast, \
             alltoall)",
            run.from
        )));
    }
    let h = judge(&s, &run.value, evidence).ok_or_else(|| {
        Failure::input(format!("{}: nothing to judge, {}", run.from, estimator_core::import::nccl_tests::NO_ROWS))
    })?;
    if a.cluster.json {
        print_json(&HealthDocument { health: &h, input: s.input(), files: &files, profile: profile.as_deref() })?;
    } else {
        let line = profile.map_or(String::new(), |l| format!("Profile: {l}.\n"));
        print_text(&format!("{line}{}", text(&h, &s, &files)))?;
    }
    Ok(if h.verdict == Verdict::Healthy { Outcome::Clean } else { Outcome::Findings })
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
        _ => c.hardware.count(Field::GpusPerNode).unwrap_or(ScenarioInput::default().gpus_per_node),
    };
    // Nodes: given, else the run's ranks over GPUs per node, else the log's nNodes, else 2.
    let from_ranks = u32::try_from(per_node).ok().and_then(|g| run.nodes_for(g)).filter(|n| *n > 0);
    let from_log = log.and_then(|l| l.nodes).filter(|n| *n > 0);
    let nodes = a.nodes.or(from_ranks.or(from_log).map(i64::from)).unwrap_or(2);
    // Nodes the user did not give: say where they came from, not "when --nodes > 1".
    if a.nodes.is_none() && summary.is_none() && nodes > 1 {
        let from = if from_ranks.is_some() {
            "from the run's ranks over --gpus-per-node"
        } else if from_log.is_some() {
            "from the NCCL log's nNodes"
        } else {
            "the default: the run says neither its ranks nor its nodes"
        };
        if let Some(missing) = crate::scenario::missing_flags(&c.hardware, &[Field::AdaptersPerNode, Field::LinkGbps]) {
            return Err(Failure::Usage(format!(
                "the run is {nodes} nodes ({from}): give {} (the adapters per node and their line rate), or \
                 --report node.json, or --nodes",
                missing
            )));
        }
    }
    let mut input = ScenarioInput::default();
    apply_cluster(&mut input, &c.hardware, nodes, summary)?;
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
        "Judged against {} x {} {}, {} x {} Gb/s {} ({}):",
        human::plural(u64::from(s.nodes()), "node"),
        i.gpus_per_node,
        s.gpu().name,
        i.adapters_per_node,
        human::num(i.link_gbps, 3),
        i.fabric.name(),
        i.fabric.gpu_path(i.gdr)
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
    if !h.mismatch.is_empty() {
        let _ = writeln!(
            t,
            "  The expected column is the scenario's hardware's, not this run's: the shares judge nothing.\n"
        );
    }
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
