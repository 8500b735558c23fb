//! Rack-scale NVLink domains (GB200/GB300 NVL72): traffic inside a domain stays on NVLink, only traffic between
//! domains crosses the adapters, and "fits in one NVLink domain" is a verdict of its own.

use estimator_core::scenario::{Algorithm, Field, ScenarioInput, SyncStrategy};
use estimator_core::traffic::{Kind, Tier};
use estimator_core::{RecommendationKind, Scenario, estimate};

/// GB200 compute trays: 4 GPUs and 4x 400 Gb/s InfiniBand each, in NVL72 racks.
fn trays(nodes: i64, domain: Option<i64>, change: impl FnOnce(&mut ScenarioInput)) -> Scenario {
    let mut i = ScenarioInput {
        gpu: "gb200".into(),
        nodes,
        gpus_per_node: 4,
        adapters_per_node: 4,
        link_gbps: 400.0,
        nvlink_domain_gpus: domain,
        ..ScenarioInput::default()
    };
    change(&mut i);
    Scenario::new(i).expect("valid")
}

fn network_bytes(s: &Scenario) -> f64 {
    estimate(s).step.traffic.iter().map(|t| t.network_bytes_per_gpu.get()).sum()
}

#[test]
fn a_64_gpu_job_in_one_nvl72_domain_sends_nothing_over_the_nics() {
    let s = trays(16, Some(72), |_| {});
    assert_eq!((s.participants(), s.domains(), s.gpus_per_domain()), (64, 1, 64));
    let e = estimate(&s);
    assert!(!e.step.traffic.is_empty());
    for t in &e.step.traffic {
        assert_eq!(t.tier, Tier::NvlinkDomain, "{:?}", t.kind);
        assert_eq!(t.network_bytes_per_gpu.get(), 0.0, "{:?}", t.kind);
    }
    assert!(e.notes.iter().any(|n| n.contains("one NVLink domain")), "{:?}", e.notes);
    assert!(e.recommendation.min_fabric.is_none(), "no fabric advice inside one domain");
}

#[test]
fn the_same_job_on_8_hgx_nodes_sends_its_ring_over_the_nics() {
    let hgx = |nodes, algorithm| {
        Scenario::new(ScenarioInput { gpu: "b200".into(), nodes, algorithm, ..ScenarioInput::default() })
            .expect("valid")
    };
    let ring = hgx(8, Algorithm::Ring);
    assert_eq!(ring.participants(), 64);
    let e = estimate(&ring);
    let dp = e.step.traffic.iter().find(|t| t.kind == Kind::GradientAllReduce).expect("DDP");
    assert_eq!(dp.tier, Tier::Network);
    // A ring leaves each node once: one rank's bytes for the node's 8 GPUs.
    assert!((dp.network_bytes_per_gpu.get() * 8.0 - dp.bytes_per_gpu.get()).abs() < 1.0);
    // NCCL's own choice there, NVLS with a tree between the nodes: most of 8 nodes are inner nodes of a tree and
    // send twice the data, so the ring's bytes stand; between two nodes each sends half the 14 GB each way, the
    // floor.
    let e = estimate(&hgx(8, Algorithm::Auto));
    let dp = e.step.traffic.iter().find(|t| t.kind == Kind::GradientAllReduce).expect("DDP");
    assert_eq!(dp.algorithm, "NVLSTree");
    assert!((dp.network_bytes_per_gpu.get() * 8.0 - dp.bytes_per_gpu.get()).abs() < 1.0, "{dp:?}");
    let e = estimate(&hgx(2, Algorithm::Auto));
    let dp = e.step.traffic.iter().find(|t| t.kind == Kind::GradientAllReduce).expect("DDP");
    assert!(dp.algorithm.ends_with("Tree"), "{}", dp.algorithm);
    assert!((dp.network_bytes_per_gpu.get() * 8.0 - 14e9).abs() < 1.0, "{dp:?}");
    assert_eq!(dp.network_bytes_per_gpu, dp.network_floor_bytes_per_gpu);
    // And the trays without their NVLink domain do the same at 4 GPUs a node.
    assert!(network_bytes(&trays(16, None, |_| {})) > 0.0);
}

#[test]
fn a_job_over_two_racks_sends_only_the_inter_domain_share() {
    let two = trays(36, Some(72), |i| i.algorithm = Algorithm::Ring);
    assert_eq!((two.participants(), two.domains(), two.gpus_per_domain(), two.adapters_per_domain()), (144, 2, 72, 72));
    let e = estimate(&two);
    let dp = e.step.traffic.iter().find(|t| t.kind == Kind::GradientAllReduce).expect("DDP");
    assert_eq!(dp.tier, Tier::Network);
    // One rank's bytes per domain of 72, not per tray of 4.
    assert!((dp.network_bytes_per_gpu.get() * 72.0 - dp.bytes_per_gpu.get()).abs() < 1.0);
    let flat = trays(36, None, |i| i.algorithm = Algorithm::Ring);
    let ratio = network_bytes(&flat) / network_bytes(&two);
    assert!((ratio - 18.0).abs() < 1e-6, "trays alone send 72/4 = 18x more: {ratio}");
    // With NCCL's own choice, the racks are no slower than the trays alone, and still need a fabric.
    let e = estimate(&trays(36, Some(72), |_| {}));
    assert!(e.step.step_s <= estimate(&trays(36, None, |_| {})).step.step_s);
    assert!(e.recommendation.min_fabric.is_some(), "traffic between racks needs a fabric");
}

#[test]
fn tensor_parallelism_across_trays_stays_on_nvlink_inside_the_domain() {
    let s = trays(16, Some(72), |i| i.tp = 16);
    // Issue 39: no warning that it crosses the network when it does not.
    assert!(!s.warnings().iter().any(|w| w.contains("cross the network")), "{:?}", s.warnings());
    let tp = estimate(&s).step.traffic.into_iter().find(|t| t.kind == Kind::TpAllReduce).expect("TP");
    assert_eq!((tp.tier, tp.network_bytes_per_gpu.get()), (Tier::NvlinkDomain, 0.0));
    let flat = trays(16, None, |i| i.tp = 16);
    assert!(flat.warnings().iter().any(|w| w.contains("cross the network")), "{:?}", flat.warnings());
    let tp = estimate(&flat).step.traffic.into_iter().find(|t| t.kind == Kind::TpAllReduce).expect("TP");
    assert_eq!(tp.tier, Tier::Network);
}

#[test]
fn fitting_in_one_domain_is_its_own_verdict() {
    // 405B with ZeRO-3 needs ~84 GiB of states per GPU over 72 GPUs: not one tray of 4, but one NVL72 rack. With
    // activation checkpointing its generic shape's activations (about 20 GB at 4,096-token sequences) fit beside.
    let s = trays(36, Some(72), |i| {
        i.params = 405e9;
        i.sync = SyncStrategy::Zero3;
        i.activation_checkpointing = true;
    });
    let r = estimate(&s).recommendation;
    assert_eq!(r.kind, RecommendationKind::SingleDomain);
    assert!(r.headline.starts_with("Fits in one NVLink domain"), "{}", r.headline);
    // Without the domain the same trays need the network.
    let flat = trays(36, None, |i| {
        i.params = 405e9;
        i.sync = SyncStrategy::Zero3;
        i.activation_checkpointing = true;
    });
    assert_eq!(estimate(&flat).recommendation.kind, RecommendationKind::MultiNode);
}

#[test]
fn a_domain_that_is_not_whole_nvswitch_nodes_is_refused() {
    let bad = |change: fn(&mut ScenarioInput), words: &str| {
        let mut i = ScenarioInput { gpu: "gb200".into(), gpus_per_node: 4, ..ScenarioInput::default() };
        change(&mut i);
        let e = Scenario::new(i).expect_err("refused");
        assert_eq!(e.field, Field::NvlinkDomainGpus);
        assert!(e.to_string().contains(words), "{e}");
    };
    bad(|i| i.nvlink_domain_gpus = Some(70), "multiple of the 4 GPUs per node");
    bad(|i| i.nvlink_domain_gpus = Some(1152), "at most 576");
    bad(|i| i.nvlink_domain_gpus = Some(0), "at least 1");
    bad(
        |i| {
            i.gpu = "l40s".into();
            i.nvlink_domain_gpus = Some(16);
        },
        "needs NVLink switches",
    );
    // A domain of one node is the node.
    let one = trays(2, Some(4), |_| {});
    assert_eq!(one.domains(), 2);
    assert!(!one.multi_node_nvlink());
}

#[test]
fn nodes_that_do_not_fill_whole_domains_are_told_how_they_are_modelled() {
    let s = trays(20, Some(72), |_| {});
    assert_eq!((s.domains(), s.nodes_per_domain()), (2, 18));
    assert!(s.warnings().iter().any(|w| w.contains("do not fill NVLink domains")), "{:?}", s.warnings());
}
