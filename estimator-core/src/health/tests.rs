//! The health verdict: the share of the expected bandwidth, the causes the evidence names, and the texts.

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

/// A run cut at 32 MiB on 8 x 400 Gb/s is healthy where it was measured, and the verdict says that it did not
/// reach a bandwidth-bound size; a run to 8 GiB does not get that sentence.
#[test]
fn a_run_that_stops_short_of_the_bandwidth_bound_sizes_says_so() {
    let s = ring();
    let mib = 1024.0 * 1024.0;
    let at = |size: f64| allreduce(&s, Bytes::new(size)).busbw_gbs;
    let cut: Vec<(f64, f64)> = [1.0, 4.0, 32.0].iter().map(|m| (m * mib, at(m * mib))).collect();
    let h = judge(&s, &run_at(&cut), Evidence::default()).expect("rows");
    assert_eq!(h.verdict, Verdict::Healthy);
    let d = h.departure.expect("a departure line");
    assert!(d.contains("No bandwidth-bound size was measured") && d.contains("-e 8G"), "{d}");
    let full: Vec<(f64, f64)> = [32.0, 8192.0].iter().map(|m| (m * mib, at(m * mib))).collect();
    let d = judge(&s, &run_at(&full), Evidence::default()).expect("rows").departure.expect("a line");
    assert!(!d.contains("No bandwidth-bound"), "{d}");
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
    let slow_small = judge(&s, &curve_run(&s, Op::AllGather, 1.0, 1.0 / 3.0, true), Evidence::default()).expect("rows");
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
    let h = judge(&s, &run_at(&[(size, expected)]), Evidence { log: Some(&log), ..Default::default() }).expect("a row");
    assert_eq!(h.verdict, Verdict::Healthy);
    assert!(h.evidence.iter().any(|e| e.contains("GPUDirect RDMA off")), "{:?}", h.evidence);
}
