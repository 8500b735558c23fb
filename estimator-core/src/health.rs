//! Is a measured fabric healthy? A measured nccl-tests all-reduce against what the model expects for the same
//! hardware, at the large sizes (bandwidth) and at a mid size (where latency matters), with the likely causes when
//! the two differ, read from the NCCL log, `nvidia-smi topo -m` and the node's report when they are given.
//!
//! Thresholds: the model reproduces the healthy public measurements within 20% (README's validation table), so a
//! run at 75% of the expected bus bandwidth or more is **healthy**, 40% to 75% **degraded**, and below 40%
//! **unhealthy** (one NIC's worth on an eight-NIC node, or a socket fallback, is far below that).
//!
//! A run is judged only against hardware it can be from. When its own facts (ranks, the GPU named in its rank
//! lines, its hosts) differ from the scenario's, or it measured more than [`MISMATCH_RATIO`] of what the
//! scenario's hardware can give, the verdict is **mismatch** with what does not match ([`Health::mismatch`]), and
//! [`run_hardware`] says what the run itself tells about its hardware.

use serde::{Deserialize, Serialize};

use crate::catalog::{self, GpuSpec, Lookup};
use crate::collective::allreduce;
use crate::import::{NcclLog, NcclTestsRun, Topology};
use crate::report::{GdrSupport, ReportFabric, Summary};
use crate::scenario::{Algorithm, Scenario};
use crate::units::Bytes;

/// At or above this share of the expected bus bandwidth, a run is healthy.
pub const HEALTHY: f64 = 0.75;
/// Below this share, unhealthy (between the two: degraded).
pub const UNHEALTHY: f64 = 0.40;
/// Sizes from here up are "large" (bandwidth-bound on any fabric this models).
pub const LARGE_BYTES: f64 = 256.0 * 1024.0 * 1024.0;
/// Above this share of the expected bus bandwidth a run was not measured on the scenario's hardware: the model is
/// within 20% of every healthy public measurement (README's validation table), and the two-node Tree/NVLSTree
/// reading is already judged against its own expectation, so 1.5x is far outside what the same hardware gives.
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
    /// The model's Ring bus bandwidth for this size, GB/s.
    pub expected_busbw_gbs: f64,
    /// On two nodes with NCCL's default algorithm: what Tree/NVLSTree may read instead, GB/s.
    pub expected_tree_busbw_gbs: Option<f64>,
    /// Measured / the expectation it is judged against.
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
    /// Likely causes, most likely first; for a healthy run only the note on a two-node Tree reading.
    pub causes: Vec<Cause>,
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

fn check(s: &Scenario, size: f64, measured: f64) -> SizeCheck {
    let m = allreduce(s, Bytes::new(size));
    let tree = m.tree_2node_busbw_gbs;
    // Above the Ring bound on two nodes with the default algorithm: Tree/NVLSTree's reading, so judge against it.
    let against = match tree {
        Some(t) if measured > m.busbw_gbs * 1.1 => t.max(m.busbw_gbs),
        _ => m.busbw_gbs,
    };
    SizeCheck {
        size_bytes: size,
        measured_busbw_gbs: measured,
        expected_busbw_gbs: m.busbw_gbs,
        expected_tree_busbw_gbs: tree,
        ratio: if against > 0.0 { measured / against } else { 1.0 },
    }
}

/// What a run tells about the hardware it ran on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunHardware {
    /// Ranks (GPUs).
    pub ranks: Option<u32>,
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
    RunHardware { ranks: run.ranks, nodes, gpus_per_node, gpu, gpu_name }
}

/// What in the run cannot be from the scenario's hardware, one sentence each.
fn mismatches(s: &Scenario, run: &NcclTestsRun, large: &SizeCheck) -> Vec<String> {
    let hw = run_hardware(run);
    let mut out = Vec::new();
    if let (Some(g), Some(name)) = (hw.gpu, hw.gpu_name.as_deref())
        && s.gpu_known()
        && g.key != s.gpu().key
    {
        out.push(format!("the run's rank lines name {name} ({}); the scenario has {}", g.name, s.gpu().name));
    }
    if let Some(r) = hw.ranks
        && r != s.participants()
    {
        out.push(format!(
            "the run has {r} ranks; the scenario has {} GPUs ({} nodes x {})",
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

/// What the evidence says, one line each.
fn evidence_lines(ev: &Evidence<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(log) = ev.log {
        let parts = log.facts();
        if !parts.is_empty() {
            out.push(format!("The NCCL log: {}.", parts.join(", ")));
        }
    }
    if let Some(topo) = ev.topo {
        let far: Vec<&str> = topo.nearest.iter().filter(|n| !n.gdr_distance_ok).map(|n| n.gpu.as_str()).collect();
        if !topo.nearest.is_empty() {
            out.push(if far.is_empty() {
                "The topology: every GPU has a NIC within PXB.".to_string()
            } else {
                format!("The topology: {} without a NIC within PXB.", far.join(", "))
            });
        }
    }
    if let Some(x) = ev.summary {
        out.push(format!(
            "The node report: {} RDMA adapter{} ({}), GPUDirect RDMA {}.",
            x.rdma_adapters,
            if x.rdma_adapters == 1 { "" } else { "s" },
            x.fabric.name(),
            x.gdr.name()
        ));
    }
    out
}

fn cause(id: &str, text: String, check: &[&str]) -> Cause {
    Cause { id: id.to_string(), text, check: check.iter().map(|t| t.to_string()).collect() }
}

/// Judges a measured run on the hardware of `s` (its nodes and GPUs should be the run's). `None` when the run has
/// no table row.
pub fn judge(s: &Scenario, run: &NcclTestsRun, ev: Evidence<'_>) -> Option<Health> {
    let rows: Vec<(f64, f64)> = run
        .rows
        .iter()
        .filter(|r| r.size_bytes >= 1.0 && r.busbw_gbs.is_finite())
        .map(|r| (r.size_bytes, r.busbw_gbs))
        .collect();
    // The large check: the best bus bandwidth among the large sizes (or the largest size when none is large).
    let large_rows: Vec<&(f64, f64)> = rows.iter().filter(|(size, _)| *size >= LARGE_BYTES).collect();
    let (size, busbw) = if large_rows.is_empty() {
        *rows.iter().max_by(|a, b| a.0.total_cmp(&b.0))?
    } else {
        **large_rows.iter().max_by(|a, b| a.1.total_cmp(&b.1))?
    };
    let large = check(s, size, busbw);
    let mid = rows
        .iter()
        .filter(|(size, _)| *size < LARGE_BYTES)
        .min_by(|a, b| (a.0.ln() - MID_BYTES.ln()).abs().total_cmp(&(b.0.ln() - MID_BYTES.ln()).abs()))
        .filter(|(size, _)| *size >= 64.0 * 1024.0 && *size <= 64.0 * 1024.0 * 1024.0)
        .map(|&(size, busbw)| check(s, size, busbw));
    let mismatch = mismatches(s, run, &large);
    let evidence = evidence_lines(&ev);
    if !mismatch.is_empty() {
        return Some(Health { verdict: Verdict::Mismatch, mismatch, evidence, large, mid, causes: Vec::new() });
    }
    let verdict = Verdict::of(large.ratio);
    let mut causes = Vec::new();
    let multi = s.nodes() > 1;
    let rdma_hw = s.input().fabric.is_rdma()
        || ev.summary.is_some_and(|x| matches!(x.fabric, ReportFabric::Infiniband | ReportFabric::Roce));

    if let Some(log) = ev.log {
        if multi && rdma_hw && log.transport.as_deref() == Some("socket") {
            cause_push(
                &mut causes,
                cause(
                    "socket-fallback",
                    "NCCL fell back to TCP sockets (NET/Socket) although the nodes have RDMA adapters".to_string(),
                    &[
                        "check NCCL_IB_DISABLE is unset and NCCL_IB_HCA names the adapters (ibv_devinfo)",
                        "install the RDMA user-space provider (rdma-core) or the fabric's NCCL net plugin",
                        "NCCL_DEBUG=INFO should print 'NET/IB : Using [0]mlx5_0:1/IB ...'",
                    ],
                ),
            );
        }
        if multi && log.gdr == Some(false) && log.transport.as_deref() != Some("socket") {
            cause_push(
                &mut causes,
                cause(
                    "gdr-off",
                    "GPUDirect RDMA is off: the network channels run through host memory (no /GDRDMA)".to_string(),
                    &[
                        "load the peer-memory module: modprobe nvidia_peermem",
                        "NCCL_NET_GDR_LEVEL=PHB (or SYS) when GPUs are further from their NIC than NCCL's default allows",
                        "on RoCE, NCCL_IB_GID_INDEX must name the RoCE v2 GID (probe-cli report shows it)",
                    ],
                ),
            );
        }
        let present = ev
            .summary
            .map(|x| x.rdma_adapters)
            .filter(|n| *n > 0)
            .or_else(|| u32::try_from(s.input().adapters_per_node).ok().filter(|n| *n > 0 && rdma_hw));
        if let (Some(used), Some(present)) = (log.nics_used, present)
            && multi
            && used < present
        {
            cause_push(
                &mut causes,
                cause(
                    "fewer-nics",
                    format!("NCCL used {used} of the node's {present} RDMA adapters"),
                    &["NCCL_IB_HCA should list every adapter (or be unset)", "check that each port is ACTIVE (ibstat)"],
                ),
            );
        }
        if log.intra_node.iter().any(|k| k == "SHM") && !log.intra_node.iter().any(|k| k.starts_with("P2P")) {
            cause_push(
                &mut causes,
                cause(
                    "p2p-disabled",
                    "inside the node NCCL goes through shared host memory (SHM), not GPU peer-to-peer".to_string(),
                    &["unset NCCL_P2P_DISABLE", "disable ACS on the PCIe switches, or enable IOMMU passthrough"],
                ),
            );
        }
    }
    if let Some(topo) = ev.topo
        && multi
    {
        let far: Vec<&str> = topo.nearest.iter().filter(|n| !n.gdr_distance_ok).map(|n| n.gpu.as_str()).collect();
        if !far.is_empty() {
            cause_push(
                &mut causes,
                cause(
                    "gpu-far-from-nic",
                    format!(
                        "{} {} no NIC within PXB (PHB/NODE/SYS): NCCL's default disables GPUDirect RDMA there",
                        far.join(", "),
                        if far.len() == 1 { "has" } else { "have" }
                    ),
                    &[
                        "NCCL_NET_GDR_LEVEL=SYS to allow GPUDirect RDMA over the CPU (often slower)",
                        "check the GPU-NIC pairing",
                    ],
                ),
            );
        }
    }
    if let Some(x) = ev.summary
        && multi
        && x.gdr == GdrSupport::NotSupported
        && rdma_hw
        && !causes.iter().any(|c| c.id == "gdr-off")
    {
        cause_push(
            &mut causes,
            cause(
                "gdr-off",
                "the node report says GPUDirect RDMA is not supported (no peer-memory module or DMA-BUF)".to_string(),
                &["modprobe nvidia_peermem", "probe-cli report shows the reasons under GDR"],
            ),
        );
    }
    if large.measured_busbw_gbs > large.expected_busbw_gbs * 1.1
        && s.nodes() == 2
        && s.input().algorithm == Algorithm::Auto
    {
        cause_push(
            &mut causes,
            cause(
                "tree-reading",
                format!(
                    "{:.0} GB/s is above the Ring bound of {:.0} GB/s: on two nodes NCCL's default Tree/NVLSTree moves \
                     less than 2(N-1)/N x the size through the NICs, so nccl-tests' busbw reads high. This is not a \
                     sign of health; compare with NCCL_ALGO=Ring",
                    large.measured_busbw_gbs, large.expected_busbw_gbs
                ),
                &["NCCL_ALGO=Ring all_reduce_perf -b 1G -e 8G -f 2 for the fabric's own figure"],
            ),
        );
    }
    if verdict != Verdict::Healthy && causes.iter().all(|c| c.id == "tree-reading") {
        cause_push(
            &mut causes,
            cause(
                "unexplained",
                "nothing given explains it: add the run's NCCL_DEBUG=INFO log, nvidia-smi topo -m and probe-cli report"
                    .to_string(),
                &[
                    "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
                    "check every port with ibstat (State: Active, the full Rate)",
                ],
            ),
        );
    }
    if verdict == Verdict::Healthy {
        // Nothing to explain: keep only what reads the figure (the two-node Tree note).
        causes.retain(|c| c.id == "tree-reading");
    }
    Some(Health { verdict, mismatch, evidence, large, mid, causes })
}

fn cause_push(causes: &mut Vec<Cause>, c: Cause) {
    if !causes.iter().any(|x| x.id == c.id) {
        causes.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioInput;
    use crate::import::{NcclTestsRow, nccl_log};

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
