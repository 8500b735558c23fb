//! Is a measured fabric healthy? A measured nccl-tests run of any collective against what the model expects for the
//! same hardware at every size it has (`curve.rs`), with the verdict from the large sizes (bandwidth), where along
//! the curve the run departs, and the likely causes when the two differ, read from the NCCL log, `nvidia-smi topo
//! -m` and the node's report when they are given (`causes.rs`).
//!
//! Thresholds: at large sizes the model comes within 10% of the healthy public measurements at the median, 25% at
//! most for the held-out ones (README's validation), so a run at 75% of the expected bus bandwidth or more is
//! **healthy**, 40% to 75% **degraded**, and below 40% **unhealthy** (one NIC's worth on an eight-NIC node, or a
//! socket fallback, is far below that).
//!
//! A run is judged only against hardware it can be from. When its own facts (ranks, the GPU named in its rank
//! lines, its hosts) differ from the scenario's, or it measured more than [`MISMATCH_RATIO`] of what the
//! scenario's hardware can give, the verdict is **mismatch** with what does not match ([`Health::mismatch`]), and
//! [`run_hardware`] says what the run itself tells about its hardware.

use serde::{Deserialize, Serialize};

mod causes;
mod curve;

use crate::catalog::{self, GpuSpec, Lookup};
use crate::collective::Op;
use crate::import::{NcclLog, NcclTestsRun, RankSource, Topology};
use crate::report::Summary;
use crate::scenario::Scenario;
pub(crate) use causes::evidence_lines;
use curve::check;

/// At or above this share of the expected bus bandwidth, a run is healthy.
pub const HEALTHY: f64 = 0.75;
/// Below this share, unhealthy (between the two: degraded).
pub const UNHEALTHY: f64 = 0.40;
/// Sizes from here up are "large" (bandwidth-bound on any fabric this models).
pub const LARGE_BYTES: f64 = 256.0 * 1024.0 * 1024.0;
/// Above this share of the expected bus bandwidth a run was not measured on the scenario's hardware: the model is
/// within 25% of the held-out healthy public measurements at large sizes (README's validation), and a two-node
/// Tree/NVLSTree reading is what it expects there, so 1.5x is far outside what the same hardware gives.
pub const MISMATCH_RATIO: f64 = 1.5;
/// The mid size compared where there is one (latency and protocol matter as much as bandwidth).
pub const MID_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// The verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// At least [`HEALTHY`] of what the hardware should give.
    Healthy,
    /// Between [`UNHEALTHY`] and [`HEALTHY`].
    Degraded,
    /// Below [`UNHEALTHY`].
    Unhealthy,
    /// The run cannot be from the scenario's hardware ([`Health::mismatch`] says why): not judged.
    Mismatch,
}

impl Verdict {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::Degraded => "degraded",
            Verdict::Unhealthy => "unhealthy",
            Verdict::Mismatch => "mismatch",
        }
    }

    fn of(ratio: f64) -> Verdict {
        if ratio >= HEALTHY {
            Verdict::Healthy
        } else if ratio >= UNHEALTHY {
            Verdict::Degraded
        } else {
            Verdict::Unhealthy
        }
    }
}

/// Measured against expected at one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SizeCheck {
    /// Message size, bytes.
    pub size_bytes: f64,
    /// Measured out-of-place bus bandwidth, GB/s.
    pub measured_busbw_gbs: f64,
    /// The model's bus bandwidth for this size (NCCL's choice of algorithm and protocol), GB/s.
    pub expected_busbw_gbs: f64,
    /// On two nodes with NCCL's default algorithm: the best Tree/NVLSTree pair's busbw, GB/s (all-reduce).
    pub expected_tree_busbw_gbs: Option<f64>,
    /// On several nodes with NCCL's default algorithm: the Ring's busbw, GB/s (all-reduce). A run between this
    /// and `expected_busbw_gbs` is as expected.
    #[serde(default)]
    pub expected_ring_busbw_gbs: Option<f64>,
    /// The model's time for this size, microseconds.
    #[serde(default)]
    pub expected_time_us: f64,
    /// NCCL's algorithm for this size, as the model picks it.
    #[serde(default)]
    pub algorithm: String,
    /// NCCL's protocol for this size, as the model picks it.
    #[serde(default)]
    pub protocol: String,
    /// In the model, latency is most of the time at this size.
    #[serde(default)]
    pub latency_bound: bool,
    /// Measured / the expectation it is judged against (the nearer end when there are two).
    pub ratio: f64,
}

/// A likely cause, in plain words, with what to check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cause {
    /// A stable id (`socket-fallback`, `gdr-off`, `fewer-nics`, `gpu-far-from-nic`, `p2p-disabled`, `tree-reading`).
    pub id: String,
    /// What it is.
    pub text: String,
    /// What to check or change, one step each (the NCCL variables and tools that matter).
    pub check: Vec<String>,
}

/// The health of one measured run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Health {
    /// The verdict (from the large sizes), or `mismatch` when the run is not from the scenario's hardware.
    pub verdict: Verdict,
    /// What in the run does not match the scenario's hardware, one sentence each; empty unless `mismatch`.
    #[serde(default)]
    pub mismatch: Vec<String>,
    /// What the evidence given with the run says (the NCCL log, the topology, the node report), one line each,
    /// whatever the verdict.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// The check at the largest measured size.
    pub large: SizeCheck,
    /// The check at a mid size, when the run has one.
    pub mid: Option<SizeCheck>,
    /// The collective judged (from the binary's name, else from the table: `NcclTestsRun::op`).
    #[serde(default = "all_reduce")]
    pub op: Op,
    /// The run's ranks.
    #[serde(default)]
    pub ranks: u32,
    /// Where the rank count came from: the rank lines, the busbw/algbw ratio, or the scenario.
    #[serde(default)]
    pub ranks_from: String,
    /// The check at every size with a measurable bus bandwidth, smallest first.
    #[serde(default)]
    pub curve: Vec<SizeCheck>,
    /// Where along the curve the run departs from the model, and what to look at.
    #[serde(default)]
    pub departure: Option<String>,
    /// Likely causes, most likely first; for a healthy run only the note on a two-node Tree reading.
    pub causes: Vec<Cause>,
}

fn all_reduce() -> Op {
    Op::AllReduce
}

/// What else is known about the run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evidence<'a> {
    /// The NCCL_DEBUG=INFO log of the run.
    pub log: Option<&'a NcclLog>,
    /// `nvidia-smi topo -m` of a node.
    pub topo: Option<&'a Topology>,
    /// The node's report summary.
    pub summary: Option<&'a Summary>,
}

/// What a run tells about the hardware it ran on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunHardware {
    /// Ranks (GPUs), from the rank lines or the busbw/algbw ratio.
    pub ranks: Option<u32>,
    /// Where `ranks` came from.
    pub ranks_from: Option<RankSource>,
    /// Hosts, when the rank lines name every rank's host.
    pub nodes: Option<u32>,
    /// Ranks per host, when both are known and divide evenly.
    pub gpus_per_node: Option<u32>,
    /// The catalog GPU its rank lines name, when they name one the catalog knows.
    pub gpu: Option<&'static GpuSpec>,
    /// The GPU name as the rank lines print it.
    pub gpu_name: Option<String>,
}

/// What a run's own lines say about its hardware.
pub fn run_hardware(run: &NcclTestsRun) -> RunHardware {
    let gpu_name = run.devices.iter().find_map(|d| d.gpu.clone());
    let gpu = gpu_name.as_deref().and_then(|n| match catalog::lookup(n) {
        Lookup::Exact(g) | Lookup::Matched(g) => Some(g),
        Lookup::Unknown => None,
    });
    // Hosts are a node count only when every rank's line is there (an excerpt may drop some); otherwise the
    // highest device index shows GPUs per node (one process per GPU numbers them 0..7 on an 8-GPU node).
    let complete = run.ranks.is_some_and(|r| run.devices.len() == r as usize);
    let devices = run.devices.iter().filter_map(|d| d.device).max().map(|d| d.saturating_add(1)).filter(|d| *d > 1);
    let (nodes, gpus_per_node) = match (run.ranks, run.nodes.filter(|n| *n > 0 && complete), devices) {
        (Some(r), Some(n), _) if r % n == 0 => (Some(n), Some(r / n)),
        (Some(r), _, Some(d)) if r % d == 0 => (Some(r / d), Some(d)),
        _ => (None, None),
    };
    let counted = run.rank_count(run.op().unwrap_or(Op::AllReduce));
    let ranks = counted.map(|c| c.0);
    let (nodes, gpus_per_node) = match (nodes, ranks, devices) {
        (None, Some(r), Some(d)) if r % d == 0 => (Some(r / d), Some(d)),
        (n, _, _) => (n, gpus_per_node),
    };
    RunHardware { ranks, ranks_from: counted.map(|c| c.1), nodes, gpus_per_node, gpu, gpu_name }
}

/// What in the run cannot be from the scenario's hardware, one sentence each.
fn mismatches(s: &Scenario, run: &NcclTestsRun, op: Op, large: &SizeCheck) -> Vec<String> {
    let hw = run_hardware(run);
    let mut out = Vec::new();
    if let (Some(g), Some(name)) = (hw.gpu, hw.gpu_name.as_deref())
        && s.gpu_known()
        && g.key != s.gpu().key
    {
        out.push(format!("the run's rank lines name {name} ({}); the scenario has {}", g.name, s.gpu().name));
    }
    let ratio_range = run.ranks.is_none().then(|| run.rank_range(op)).flatten();
    if let Some((lo, hi)) = ratio_range
        && hw.ranks.is_none()
        && !(lo - 0.5..=hi + 0.5).contains(&f64::from(s.participants()))
    {
        out.push(format!(
            "the run has {} to {} ranks (from its busbw/algbw ratio, {}'s); the scenario has {} GPUs ({} nodes x {})",
            lo.round(),
            hi.round(),
            op.name(),
            s.participants(),
            s.nodes(),
            s.gpus_per_node()
        ));
    }
    if let Some(r) = hw.ranks
        && r != s.participants()
    {
        let from = match hw.ranks_from {
            Some(RankSource::BusbwRatio) => format!(" (from its busbw/algbw ratio, {}'s)", op.name()),
            _ => String::new(),
        };
        out.push(format!(
            "the run has {r} ranks{from}; the scenario has {} GPUs ({} nodes x {})",
            s.participants(),
            s.nodes(),
            s.gpus_per_node()
        ));
    }
    let hosts = run.nodes.filter(|h| *h > s.nodes() || hw.nodes.is_some());
    if let Some(h) = hosts
        && h != s.nodes()
    {
        out.push(format!("the run's ranks are on {h} hosts; the scenario has {} nodes", s.nodes()));
    }
    if large.ratio > MISMATCH_RATIO {
        out.push(format!(
            "it measured {:.1} GB/s, {:.0}% of the {:.1} GB/s the scenario's hardware can give: it was measured on \
             faster hardware",
            large.measured_busbw_gbs,
            large.ratio * 100.0,
            large.measured_busbw_gbs / large.ratio
        ));
    }
    out
}

/// Judges a measured run of any collective on the hardware of `s` (its nodes and GPUs should be the run's), at
/// every size it has. `None` when the run has no table row, or is of a binary the model does not cover
/// (`sendrecv_perf`, ...).
pub fn judge(s: &Scenario, run: &NcclTestsRun, ev: Evidence<'_>) -> Option<Health> {
    let op = match (run.op(), run.test.is_some()) {
        (Some(op), _) => op,
        (None, true) => return None,
        // A table without a usable row for the ratio (busbw 0.00 everywhere): read as an all-reduce.
        (None, false) => Op::AllReduce,
    };
    let mut rows: Vec<(f64, f64)> = run
        .rows
        .iter()
        .filter(|r| r.size_bytes >= 1.0 && r.busbw_gbs.is_finite())
        .map(|r| (r.size_bytes, r.busbw_gbs))
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    rows.dedup_by(|a, b| a.0 == b.0);
    // The large check: the best bus bandwidth among the large sizes (or the largest size when none is large).
    let large_rows: Vec<&(f64, f64)> = rows.iter().filter(|(size, _)| *size >= LARGE_BYTES).collect();
    let (size, busbw) =
        if large_rows.is_empty() { *rows.last()? } else { **large_rows.iter().max_by(|a, b| a.1.total_cmp(&b.1))? };
    let large = check(s, op, size, busbw);
    let mid = rows
        .iter()
        .filter(|(size, _)| *size < LARGE_BYTES)
        .min_by(|a, b| (a.0.ln() - MID_BYTES.ln()).abs().total_cmp(&(b.0.ln() - MID_BYTES.ln()).abs()))
        .filter(|(size, _)| *size >= 64.0 * 1024.0 && *size <= 64.0 * 1024.0 * 1024.0)
        .map(|&(size, busbw)| check(s, op, size, busbw));
    // Every size with a measurable bus bandwidth (nccl-tests prints 0.00 below about 1 KiB).
    let curve: Vec<SizeCheck> =
        rows.iter().filter(|(_, b)| *b > 0.0).map(|&(size, busbw)| check(s, op, size, busbw)).collect();
    let (ranks, ranks_from) = match run.rank_count(op) {
        Some((r, from)) => (r, from.describe().to_string()),
        None => (s.participants(), "the scenario: the run does not say".to_string()),
    };
    let mismatch = mismatches(s, run, op, &large);
    let evidence = causes::evidence_lines(&ev);
    let departure = curve::departure(&curve);
    let verdict = if mismatch.is_empty() { Verdict::of(large.ratio) } else { Verdict::Mismatch };
    let causes = if mismatch.is_empty() { causes::causes(s, &ev, &large, verdict) } else { Vec::new() };
    Some(Health { verdict, op, ranks, ranks_from, mismatch, evidence, large, mid, curve, departure, causes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::{allreduce, collective};
    use crate::import::{NcclTestsRow, nccl_log};
    use crate::units::Bytes;
    use crate::{Algorithm, ScenarioInput};

    fn run_at(busbw: &[(f64, f64)]) -> NcclTestsRun {
        NcclTestsRun {
            rows: busbw
                .iter()
                .map(|&(size_bytes, busbw_gbs)| NcclTestsRow { size_bytes, busbw_gbs, ..Default::default() })
                .collect(),
            ..Default::default()
        }
    }

    fn ring() -> Scenario {
        Scenario::new(ScenarioInput { algorithm: Algorithm::Ring, ..ScenarioInput::default() }).expect("valid")
    }

    #[test]
    fn the_share_of_the_expected_bandwidth_decides() {
        let s = ring();
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let expected = allreduce(&s, Bytes::new(size)).busbw_gbs;
        for (share, verdict) in [(0.95, Verdict::Healthy), (0.6, Verdict::Degraded), (0.2, Verdict::Unhealthy)] {
            let h = judge(&s, &run_at(&[(size, expected * share)]), Evidence::default()).expect("a row");
            assert_eq!(h.verdict, verdict, "{share}");
            assert!((h.large.ratio - share).abs() < 1e-9);
        }
        assert!(judge(&s, &run_at(&[]), Evidence::default()).is_none());
    }

    #[test]
    fn the_log_names_the_cause() {
        let s = ring();
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let run = run_at(&[(4.0 * 1024.0 * 1024.0, 1.0), (size, 5.0)]);
        let log = nccl_log::parse(
            "a:1:1 [0] NCCL INFO NET/IB : No device found.\na:1:1 [0] NCCL INFO NET/Socket : Using [0]ens3:10.0.0.1<0>",
        );
        let h = judge(&s, &run, Evidence { log: Some(&log), ..Default::default() }).expect("a row");
        assert_eq!(h.verdict, Verdict::Unhealthy);
        assert_eq!(h.causes[0].id, "socket-fallback");
        assert!(h.mid.is_some_and(|m| m.size_bytes == 4.0 * 1024.0 * 1024.0));
        let log = nccl_log::parse("h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3");
        let h = judge(&s, &run, Evidence { log: Some(&log), ..Default::default() }).expect("a row");
        let ids: Vec<&str> = h.causes.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["gdr-off", "fewer-nics"]);
    }

    /// Causes and fixes follow the fabric and what the user said: on AWS g4dn (T4 over EFA, no GPUDirect RDMA:
    /// `--no-gdr`) a log without /GDRDMA is what the scenario expects, not a cause, and no fix names
    /// nvidia_peermem or a RoCE GID; on EFA with GPUDirect RDMA expected the fixes are EFA's; on RoCE, RoCE's.
    #[test]
    fn causes_follow_the_fabric_and_the_users_no_gdr() {
        let no_gdr_log = nccl_log::parse("h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3");
        let g4dn = Scenario::new(ScenarioInput {
            gpu: "t4".into(),
            gpus_per_node: 8,
            adapters_per_node: 1,
            link_gbps: 100.0,
            fabric: crate::Fabric::Efa,
            gdr: false,
            ..ScenarioInput::default()
        })
        .expect("valid");
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let expected = allreduce(&g4dn, Bytes::new(size)).busbw_gbs;
        let run = run_at(&[(size, expected * 0.3)]);
        let h = judge(&g4dn, &run, Evidence { log: Some(&no_gdr_log), ..Default::default() }).expect("a row");
        assert!(h.causes.iter().all(|c| c.id != "gdr-off"), "{:?}", h.causes);
        let all: String = h.causes.iter().flat_map(|c| c.check.iter().cloned()).collect();
        assert!(!all.contains("nvidia_peermem") && !all.contains("GID"), "{all}");
        // The same node with GPUDirect RDMA expected: EFA's fixes, not InfiniBand's.
        let efa = g4dn.with(|i| i.gdr = true).expect("valid");
        let expected = allreduce(&efa, Bytes::new(size)).busbw_gbs;
        let run = run_at(&[(size, expected * 0.3)]);
        let h = judge(&efa, &run, Evidence { log: Some(&no_gdr_log), ..Default::default() }).expect("a row");
        let gdr = h.causes.iter().find(|c| c.id == "gdr-off").expect("gdr-off on EFA with GDR expected");
        assert!(gdr.check.iter().any(|c| c.contains("FI_EFA_USE_DEVICE_RDMA")), "{:?}", gdr.check);
        assert!(!gdr.check.iter().any(|c| c.contains("GID")), "{:?}", gdr.check);
        // RoCE keeps its GID index.
        let roce = ring().with(|i| i.fabric = crate::Fabric::Roce).expect("valid");
        let run = run_at(&[(size, 5.0)]);
        let h = judge(&roce, &run, Evidence { log: Some(&no_gdr_log), ..Default::default() }).expect("a row");
        let gdr = h.causes.iter().find(|c| c.id == "gdr-off").expect("gdr-off on RoCE");
        assert!(gdr.check.iter().any(|c| c.contains("NCCL_IB_GID_INDEX")), "{:?}", gdr.check);
        // TCPX is not RDMA: its texts say what it is.
        assert!(
            crate::Fabric::Tcpx.gpu_path(true).contains("GPUDirect-TCPX") && crate::Fabric::Tcpx.gdr_fixes().is_empty()
        );
    }

    #[test]
    fn a_far_nic_and_shared_memory_inside_the_node_are_named() {
        let s = ring();
        let run = run_at(&[(8.0 * 1024.0 * 1024.0 * 1024.0, 10.0)]);
        let topo = crate::import::topo::parse(
            "\tGPU0\tGPU1\tNIC0\tCPU Affinity\nGPU0\t X \tSYS\tPIX\t0\nGPU1\tSYS\t X \tSYS\t1\nNIC0\tPIX\tSYS\t X\n",
        );
        let log = nccl_log::parse("h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct");
        let h = judge(&s, &run, Evidence { log: Some(&log), topo: Some(&topo), summary: None }).expect("a row");
        let ids: Vec<&str> = h.causes.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["p2p-disabled", "gpu-far-from-nic"]);
        assert!(h.causes[1].text.starts_with("GPU1 has no NIC within PXB"), "{}", h.causes[1].text);
    }

    #[test]
    fn a_two_node_tree_reading_is_not_a_sign_of_health() {
        let s = Scenario::new(ScenarioInput::default()).expect("valid");
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let m = allreduce(&s, Bytes::new(size));
        let tree = m.tree_2node_busbw_gbs.expect("two nodes");
        let h = judge(&s, &run_at(&[(size, tree * 0.98)]), Evidence::default()).expect("a row");
        assert_eq!(h.verdict, Verdict::Healthy);
        assert!(h.causes.iter().any(|c| c.id == "tree-reading"), "{:?}", h.causes);
        // The Ring's figure on the same two nodes (NCCL_ALGO=Ring, or no NVLS) is as expected too.
        let ring = h.large.expected_ring_busbw_gbs.expect("a ring figure");
        let h = judge(&s, &run_at(&[(size, ring)]), Evidence::default()).expect("a row");
        assert_eq!((h.verdict, h.large.ratio), (Verdict::Healthy, 1.0));
    }

    /// A table of `op` on the scenario at `share` of the model above 64 MiB and `small` below, as nccl-tests
    /// prints it: the binary's name, sizes doubling, algbw and busbw by the op's factor.
    fn curve_run(s: &Scenario, op: Op, share: f64, small: f64, named: bool) -> NcclTestsRun {
        let factor = op.busbw_factor(s.participants());
        let mut rows = Vec::new();
        let mut size = 1024.0;
        while size <= 8.0 * 1024.0 * 1024.0 * 1024.0 {
            let e = collective(s, op, Bytes::new(size));
            let k = if size >= 64.0 * 1024.0 * 1024.0 { share } else { small };
            let algbw = ((e.algbw_gbs * k) * 100.0).round() / 100.0;
            rows.push(NcclTestsRow {
                size_bytes: size,
                time_us: e.time_us / k,
                algbw_gbs: algbw,
                busbw_gbs: ((algbw * factor) * 100.0).round() / 100.0,
                redop: Some(if matches!(op, Op::AllReduce | Op::ReduceScatter) { "sum" } else { "none" }.into()),
                root: Some(-1),
                ..Default::default()
            });
            size *= 4.0;
        }
        NcclTestsRun { test: named.then(|| format!("{}_perf", op.name())), rows, ..Default::default() }
    }

    #[test]
    fn any_collective_is_judged_at_every_size_and_says_where_it_departs() {
        let s = Scenario::new(ScenarioInput { nodes: 4, ..ScenarioInput::default() }).expect("valid");
        for op in [Op::AllGather, Op::ReduceScatter, Op::AllToAll, Op::AllReduce] {
            let h = judge(&s, &curve_run(&s, op, 1.0, 1.0, true), Evidence::default()).expect("rows");
            assert_eq!((h.op, h.verdict), (op, Verdict::Healthy), "{op:?}");
            assert!(h.departure.as_deref().is_some_and(|d| d.starts_with("As expected at every size")), "{h:?}");
            assert!(h.curve.len() >= 10);
        }
        let slow_small =
            judge(&s, &curve_run(&s, Op::AllGather, 1.0, 1.0 / 3.0, true), Evidence::default()).expect("rows");
        assert_eq!(slow_small.verdict, Verdict::Healthy);
        let d = slow_small.departure.expect("a departure");
        assert!(d.starts_with("As expected from 64 MiB up; 3."), "{d}");
        assert!(d.contains("latency-bound") || d.contains("small and mid sizes"), "{d}");
        let slow_large = judge(&s, &curve_run(&s, Op::AllGather, 0.5, 1.0, true), Evidence::default()).expect("rows");
        assert_eq!(slow_large.verdict, Verdict::Degraded);
        assert!(slow_large.departure.expect("a departure").contains("bandwidth-bound"));
    }

    #[test]
    fn the_rank_count_comes_from_the_busbw_ratio_when_the_run_has_no_rank_lines() {
        for nodes in [3, 16] {
            let s = Scenario::new(ScenarioInput { nodes, ..ScenarioInput::default() }).expect("valid");
            for op in [Op::AllReduce, Op::AllGather] {
                let run = curve_run(&s, op, 1.0, 1.0, false);
                assert_eq!(run.op(), Some(op));
                if nodes == 3 {
                    assert_eq!(run.rank_count(op), Some((24, RankSource::BusbwRatio)), "{op:?}");
                }
                let (lo, hi) = run.rank_range(op).expect("a range");
                assert!(lo - 0.5 <= f64::from(s.participants()) && f64::from(s.participants()) <= hi + 0.5);
                assert_eq!(run.nodes_for(8), Some(u32::try_from(nodes).expect("small")), "{nodes} {op:?}");
                // Judged on two nodes, the count says it is another run.
                let two = Scenario::new(ScenarioInput::default()).expect("valid");
                let h = judge(&two, &run, Evidence::default()).expect("rows");
                assert_eq!(h.verdict, Verdict::Mismatch);
                assert!(h.mismatch[0].contains("busbw/algbw ratio"), "{:?}", h.mismatch);
            }
        }
    }

    #[test]
    fn a_run_from_other_hardware_is_a_mismatch_not_a_verdict() {
        // Scenario: 8 x 25 Gb/s RoCE per node; the run: what 8 x 400G InfiniBand gives.
        let s = Scenario::new(ScenarioInput {
            link_gbps: 25.0,
            fabric: crate::Fabric::Roce,
            algorithm: Algorithm::Ring,
            ..ScenarioInput::default()
        })
        .expect("valid");
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let h = judge(&s, &run_at(&[(size, 392.3)]), Evidence::default()).expect("a row");
        assert_eq!(h.verdict, Verdict::Mismatch);
        assert!(h.mismatch[0].contains("faster hardware"), "{:?}", h.mismatch);
        assert!(h.causes.is_empty());
        // Within the model's reach it is judged as before.
        let fair = allreduce(&s, Bytes::new(size)).busbw_gbs;
        assert_eq!(judge(&s, &run_at(&[(size, fair)]), Evidence::default()).expect("a row").verdict, Verdict::Healthy);
    }

    #[test]
    fn the_runs_own_lines_name_what_does_not_match() {
        let s = ring();
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let expected = allreduce(&s, Bytes::new(size)).busbw_gbs;
        let mut run = run_at(&[(size, expected)]);
        run.ranks = Some(32);
        run.nodes = Some(4);
        run.devices = (0..32)
            .map(|r| crate::import::RankDevice {
                rank: r,
                host: Some(format!("node{}", r / 8)),
                device: Some(r % 8),
                gpu: Some("NVIDIA A100-SXM4-80GB".to_string()),
            })
            .collect();
        let h = judge(&s, &run, Evidence::default()).expect("a row");
        assert_eq!(h.verdict, Verdict::Mismatch);
        let all = h.mismatch.join(" | ");
        assert!(all.contains("A100"), "{all}");
        assert!(all.contains("32 ranks; the scenario has 16 GPUs"), "{all}");
        assert!(all.contains("4 hosts; the scenario has 2 nodes"), "{all}");
        let hw = run_hardware(&run);
        assert_eq!((hw.ranks, hw.nodes, hw.gpus_per_node), (Some(32), Some(4), Some(8)));
        assert_eq!(hw.gpu.map(|g| g.key), Some("a100-sxm4-80gb"));
    }

    #[test]
    fn evidence_given_earlier_appears_in_every_verdict() {
        let s = ring();
        let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
        let expected = allreduce(&s, Bytes::new(size)).busbw_gbs;
        let log = nccl_log::parse("h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3");
        let h =
            judge(&s, &run_at(&[(size, expected)]), Evidence { log: Some(&log), ..Default::default() }).expect("a row");
        assert_eq!(h.verdict, Verdict::Healthy);
        assert!(h.evidence.iter().any(|e| e.contains("GPUDirect RDMA off")), "{:?}", h.evidence);
    }
}
