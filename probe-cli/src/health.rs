//! `probe-cli health FILE... [--report node.json]`: a measured nccl-tests run against the model for the same
//! hardware (estimator-core's `health::judge`), with the causes the NCCL log, `nvidia-smi topo -m` and the report
//! point to.

use std::fmt::Write as _;

use estimator_core::health::{Evidence, Health, judge};
use estimator_core::import::{Imported, NcclLog, NcclTestsRun, Topology};
use estimator_core::report::Summary;
use estimator_core::{Scenario, ScenarioInput};
use serde::Serialize;

use crate::Failure;
use crate::cli::HealthArgs;
use crate::estimate::{apply_cluster, print_json, print_text, usage};

#[derive(Serialize)]
struct HealthDocument<'a> {
    #[serde(flatten)]
    health: &'a Health,
    /// The scenario the run was judged against.
    input: &'a ScenarioInput,
    /// Where each piece of evidence came from.
    files: &'a [String],
}

/// Runs `health`.
pub fn health(a: &HealthArgs) -> Result<(), Failure> {
    let mut run: Option<NcclTestsRun> = None;
    let mut log: Option<NcclLog> = None;
    let mut topo: Option<Topology> = None;
    let mut files = Vec::new();
    let mut summary: Option<Summary> = None;
    if let Some(path) = &a.report {
        let (head, value) = crate::node::load_report(path)?;
        summary = Some(head.summary);
        // The report's attachments are evidence too.
        if let Ok(report) = serde_json::from_value::<estimator_core::Report>(value) {
            for att in report.attachments {
                files.push(format!("{} (attached to {})", att.file, path.display()));
                take(att.imported, &mut run, &mut log, &mut topo);
            }
        }
    }
    for path in &a.files {
        let text = crate::imports::read_text(path).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
        let Some(imported) = estimator_core::import::import(&text) else {
            return Err(Failure::Usage(format!("{}: not recognised as a tool output", path.display())));
        };
        files.push(format!("{} ({})", path.display(), imported.kind().name()));
        // A run printed with NCCL_DEBUG=INFO carries its own log.
        if matches!(imported, Imported::NcclTests(_)) && text.contains(" NCCL INFO ") {
            take(Imported::NcclLog(estimator_core::import::nccl_log::parse(&text)), &mut run, &mut log, &mut topo);
        }
        take(imported, &mut run, &mut log, &mut topo);
    }
    let run = run.ok_or_else(|| {
        Failure::Usage("no nccl-tests output among the files (all_reduce_perf's output is what is judged)".to_string())
    })?;
    if run.rows.is_empty() {
        return Err(Failure::Usage("the nccl-tests output has no table row to judge".to_string()));
    }
    let s = scenario(a, summary.as_ref(), &run, log.as_ref())?;
    let h = judge(&s, &run, Evidence { log: log.as_ref(), topo: topo.as_ref(), summary: summary.as_ref() })
        .ok_or_else(|| Failure::Usage("the nccl-tests output has no table row to judge".to_string()))?;
    if a.cluster.json {
        return print_json(&HealthDocument { health: &h, input: s.input(), files: &files });
    }
    print_text(&text(&h, &s, &files))
}

/// The first of each kind counts; a second nccl-tests file is an error the user should hear about.
fn take(i: Imported, run: &mut Option<NcclTestsRun>, log: &mut Option<NcclLog>, topo: &mut Option<Topology>) {
    match i {
        Imported::NcclTests(r) if run.is_none() => *run = Some(r),
        Imported::NcclLog(l) if log.is_none() => *log = Some(l),
        Imported::NvidiaSmiTopo(t) if topo.is_none() => *topo = Some(t),
        _ => {}
    }
}

fn scenario(
    a: &HealthArgs,
    summary: Option<&Summary>,
    run: &NcclTestsRun,
    log: Option<&NcclLog>,
) -> Result<Scenario, Failure> {
    let mut input = ScenarioInput::default();
    let c = &a.cluster;
    let per_node = match summary {
        Some(x) if x.gpus > 0 => i64::from(x.gpus),
        _ => c.gpus_per_node,
    };
    // Nodes: given, else the run's ranks over GPUs per node, else the log's nNodes, else 2.
    let from_ranks = u32::try_from(per_node).ok().and_then(|g| run.nodes_for(g)).map(i64::from);
    let nodes = a.nodes.or(from_ranks).or(log.and_then(|l| l.nodes).map(i64::from)).unwrap_or(2);
    match summary {
        Some(x) => {
            input.nodes = nodes;
            input.algorithm = c.algo;
            input.intra_node = c.intra_node;
            input.link_efficiency = c.link_efficiency;
            input.latency_us = c.latency_us;
            x.apply(&mut input);
            input.nodes = nodes.max(1);
        }
        None => apply_cluster(&mut input, c, nodes)?,
    }
    // The run is judged against the model, never against a measurement.
    input.measured_busbw_gbs = None;
    Scenario::new(input).map_err(|e| usage(&e))
}

fn size(bytes: f64) -> String {
    let gib = bytes / (1u64 << 30) as f64;
    let mib = bytes / (1u64 << 20) as f64;
    if gib >= 1.0 {
        format!("{gib:.0} GiB")
    } else if mib >= 1.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{:.0} KiB", bytes / 1024.0)
    }
}

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
        i.link_gbps,
        i.fabric.name(),
        if i.gdr { ", GPUDirect RDMA" } else { "" }
    );
    for c in std::iter::once(&h.large).chain(h.mid.iter()) {
        let tree = c.expected_tree_busbw_gbs.map_or(String::new(), |t| format!(", Tree/NVLSTree {t:.1}"));
        let _ = writeln!(
            t,
            "  {:>8}: measured {:.1} GB/s busbw, expected {:.1} (Ring{tree}): {:.0}%",
            size(c.size_bytes),
            c.measured_busbw_gbs,
            c.expected_busbw_gbs,
            c.ratio * 100.0
        );
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
        for x in &c.try_ {
            let _ = writeln!(t, "      try: {x}");
        }
    }
    let _ = writeln!(t, "From: {}", files.join(", "));
    t
}
