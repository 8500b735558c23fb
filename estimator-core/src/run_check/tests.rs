//! The check of a run: the verdict's arithmetic, the measured step read three ways, and each cause confirmed or
//! ruled out by its evidence.

use super::*;
use crate::Fabric;
use crate::import::{NcclTestsRow, nccl_log, topo};
use crate::report::{GdrSupport, ReportFabric};
use crate::scenario::{ScenarioInput, SyncStrategy};

/// A 7B DDP job on two 8x H100 nodes, 8 x 400G InfiniBand, 1 s of compute.
fn job() -> Scenario {
    Scenario::new(ScenarioInput { compute: ComputeInput::Given { ms: 1000.0 }, ..ScenarioInput::default() })
        .expect("valid")
}

fn measured(step_s: f64) -> MeasuredStep {
    MeasuredStep { step_s, from: "the step as measured".into() }
}

fn ids(c: &RunCheck) -> Vec<&str> {
    c.causes.iter().map(|k| k.id.as_str()).collect()
}

fn ruled(c: &RunCheck) -> Vec<&str> {
    c.ruled_out.iter().map(|k| k.id.as_str()).collect()
}

#[test]
fn the_verdict_is_the_ratio_against_the_tolerance() {
    let s = job();
    let expected = estimate_step(&s).step_s.as_secs();
    let t = RDMA_TOLERANCE;
    for (k, verdict) in [
        (1.0, RunVerdict::AsExpected),
        (1.0 + t - 0.01, RunVerdict::AsExpected),
        (1.0 + t + 0.1, RunVerdict::SlowerThanExpected),
        (1.0 - t - 0.1, RunVerdict::FasterThanExpected),
    ] {
        let c = check_run(&s, &measured(expected * k), RunEvidence::default());
        assert_eq!(c.verdict, verdict, "{k}: {}", c.headline);
        assert!((c.ratio - k).abs() < 1e-9);
        assert_eq!(c.tolerance, RDMA_TOLERANCE);
    }
    let c = check_run(&s, &measured(expected), RunEvidence::default());
    assert!((c.implied_comm_s - (expected - 1.0 - c.rank_wait_s)).abs() < 1e-9, "measured minus compute and wait");
    assert!((c.rank_wait_s - c.step.rank_wait_s.as_secs()).abs() < 1e-12);
    assert!(c.implied_comm_s + 1e-9 >= c.expected_exposed_comm_s, "at the expected step it is the exposed time");
    assert!((c.expected_exposed_comm_s - c.step.exposed_comm_s.as_secs()).abs() < 1e-12);
    // At the expected step the implied bandwidth is the hardware's own.
    let implied = c.implied_busbw_gbs.expect("a bandwidth explains it");
    assert!((implied / c.expected_busbw_gbs - 1.0).abs() < 0.02, "{implied} vs {}", c.expected_busbw_gbs);
    assert!(c.headline.starts_with("As expected"), "{}", c.headline);
    // Over TCP the tolerance is the wider one.
    let tcp = s.with(|i| i.fabric = Fabric::Tcp).expect("valid");
    assert_eq!(check_run(&tcp, &measured(1.0), RunEvidence::default()).tolerance, TCP_TOLERANCE);
}

#[test]
fn a_slow_step_implies_a_lower_bandwidth_and_names_the_fault_it_fits() {
    let s = job();
    let expected = estimate_step(&s);
    let slow = expected.step_s.as_secs() * 3.0;
    let c = check_run(&s, &measured(slow), RunEvidence::default());
    assert_eq!(c.verdict, RunVerdict::SlowerThanExpected);
    let implied = c.implied_busbw_gbs.expect("a bandwidth explains it");
    assert!(implied < c.expected_busbw_gbs / 3.0, "{implied}");
    // Given that bandwidth as a measurement, the model's step is the measured one.
    let at = step_at(&s, implied).expect("valid");
    assert!((at / slow - 1.0).abs() < 1e-3, "{at} vs {slow}");
    // Every cause comes with what to check; the straggler is always there for a slow run.
    assert!(c.causes.iter().all(|k| !k.check.is_empty()));
    assert!(ids(&c).contains(&"straggler"), "{:?}", ids(&c));
    assert!(c.headline.contains("Most likely"), "{}", c.headline);
    // A step no bandwidth can explain (shorter than the compute): no implied bandwidth.
    let c = check_run(&s, &measured(0.5), RunEvidence::default());
    assert_eq!((c.verdict, c.implied_busbw_gbs), (RunVerdict::FasterThanExpected, None));
    assert!(c.implied_comm_s < 0.0);
    // Issue 39: said in words, not as a negative communication time.
    let comm = c.figures().into_iter().find(|(k, _)| *k == "communication").map(|(_, v)| v).unwrap_or_default();
    assert!(comm.starts_with("none: the measured step is") && !comm.contains('-'), "{comm}");
}

#[test]
fn the_step_of_a_socket_fallback_is_blamed_on_sockets() {
    let s = job();
    let sockets = s
        .with(|i| {
            i.fabric = Fabric::Tcp;
            i.gdr = false;
        })
        .expect("valid");
    let t = estimate_step(&sockets).step_s.as_secs();
    let c = check_run(&s, &measured(t), RunEvidence::default());
    assert_eq!(c.verdict, RunVerdict::SlowerThanExpected);
    assert_eq!(ids(&c)[0], "socket-fallback", "{:?}", c.causes);
    let socket = &c.causes[0];
    assert_eq!(socket.status, "possible");
    assert!(socket.text.contains("5.5 GB/s per node"), "{}", socket.text);
    assert!(socket.step_max_s.is_some_and(|m| m > t));
    // A step as slow as the slowest sourced sockets (an untuned stack, IPoIB) is still theirs, not a straggler's.
    let slowest =
        sockets.with(|i| i.measured_busbw_gbs = Some(crate::fabric::SLOWEST_SOCKET_BUSBW_GBYTE_PER_S)).expect("valid");
    let slow = estimate_step(&slowest).step_s.as_secs();
    assert!((socket.step_max_s.expect("a range") - slow).abs() < 1e-9 * slow);
    let c = check_run(&s, &measured(slow), RunEvidence::default());
    assert_eq!(ids(&c)[0], "socket-fallback", "{:?}", c.causes);
    assert!(!ruled(&c).contains(&"socket-fallback"), "{:?}", c.ruled_out);
    // The NCCL log that shows sockets confirms it; one that shows NET/IB rules it out.
    let log = nccl_log::parse(
        "a:1:1 [0] NCCL INFO NET/IB : No device found.\na:1:1 [0] NCCL INFO NET/Socket : Using [0]ens3:10.0.0.1<0>",
    );
    let c = check_run(&s, &measured(t), RunEvidence { log: Some(&log), ..Default::default() });
    assert_eq!((c.causes[0].id.as_str(), c.causes[0].status), ("socket-fallback", "confirmed"));
    assert!(c.evidence.iter().any(|e| e.starts_with("The NCCL log")), "{:?}", c.evidence);
    let ib = nccl_log::parse("h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3/GDRDMA");
    let c = check_run(&s, &measured(t), RunEvidence { log: Some(&ib), ..Default::default() });
    assert!(!ids(&c).contains(&"socket-fallback"), "{:?}", ids(&c));
    assert!(ruled(&c).contains(&"socket-fallback") && ruled(&c).contains(&"gdr-off"), "{:?}", c.ruled_out);
}

#[test]
fn fewer_adapters_are_named_with_the_count_that_fits() {
    // 100 ms of compute: two adapters' worth of bandwidth shows in the step.
    let s = job().with(|i| i.compute = ComputeInput::Given { ms: 100.0 }).expect("valid");
    let two = s.with(|i| i.adapters_per_node = 2).expect("valid");
    let t = estimate_step(&two).step_s.as_secs();
    let c = check_run(&s, &measured(t), RunEvidence::default());
    let fewer = c.causes.iter().find(|k| k.id == "fewer-nics").expect("fewer-nics");
    assert!(fewer.text.starts_with("NCCL uses 2 of the node's 8 adapters"), "{}", fewer.text);
    // The log shows the channels through one adapter: confirmed, with that count.
    let log = nccl_log::parse("h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3/GDRDMA");
    let c = check_run(&s, &measured(t), RunEvidence { log: Some(&log), ..Default::default() });
    let fewer = c.causes.iter().find(|k| k.id == "fewer-nics").expect("fewer-nics");
    assert_eq!(fewer.status, "confirmed");
    assert!(fewer.text.starts_with("NCCL uses 1 of the node's 8 adapters"), "{}", fewer.text);
    // A report with four active RDMA ports confirms four.
    let summary = Summary {
        fabric: ReportFabric::Infiniband,
        rdma_adapters: 4,
        adapter_gbps: Some(400.0),
        ethernet_ports: 1,
        gpus: 8,
        gpu_model: None,
        gdr: GdrSupport::Supported,
        nvlink_domain_gpus: None,
    };
    let c = check_run(&s, &measured(t), RunEvidence { summary: Some(&summary), ..Default::default() });
    let fewer = c.causes.iter().find(|k| k.id == "fewer-nics").expect("fewer-nics");
    assert_eq!(fewer.status, "confirmed");
    assert!(fewer.text.contains("4 of the node's 8") && fewer.text.contains("report"), "{}", fewer.text);
}

#[test]
fn the_topology_and_the_report_confirm_or_rule_out_gpudirect() {
    let s = job();
    let nogdr = s.with(|i| i.gdr = false).expect("valid");
    let t = estimate_step(&nogdr).step_s.as_secs() * 1.3;
    let far = topo::parse("\tGPU0\tGPU1\tNIC0\nGPU0\t X \tSYS\tPIX\nGPU1\tSYS\t X \tSYS\nNIC0\tPIX\tSYS\t X\n");
    let c = check_run(&s, &measured(t), RunEvidence { topo: Some(&far), ..Default::default() });
    let k = c.causes.iter().find(|k| k.id == "gpu-far-from-nic").expect("named");
    assert_eq!(k.status, "confirmed");
    assert!(k.text.contains("GPU1 without a NIC within PXB"), "{}", k.text);
    let near = topo::parse("\tGPU0\tNIC0\nGPU0\t X \tPIX\nNIC0\tPIX\t X\n");
    let c = check_run(&s, &measured(t), RunEvidence { topo: Some(&near), ..Default::default() });
    assert!(ruled(&c).contains(&"gpu-far-from-nic"), "{:?}", c.ruled_out);
    let summary = Summary {
        fabric: ReportFabric::Infiniband,
        rdma_adapters: 8,
        adapter_gbps: Some(400.0),
        ethernet_ports: 1,
        gpus: 8,
        gpu_model: None,
        gdr: GdrSupport::NotSupported,
        nvlink_domain_gpus: None,
    };
    let c = check_run(&s, &measured(t), RunEvidence { summary: Some(&summary), ..Default::default() });
    let k = c.causes.iter().find(|k| k.id == "gdr-off").expect("named");
    assert_eq!(k.status, "confirmed");
    assert_eq!(c.causes[0].status, "confirmed", "confirmed causes come first: {:?}", ids(&c));
}

/// A nccl-tests table at `share` of the model's all-reduce on `s`.
fn nccl_run(s: &Scenario, share: f64) -> NcclTestsRun {
    let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
    let busbw = crate::collective::model_peak_busbw_gbs(s) * share;
    NcclTestsRun {
        test: Some("all_reduce_perf".into()),
        rows: vec![NcclTestsRow { size_bytes: size, busbw_gbs: busbw, algbw_gbs: busbw / 1.875, ..Default::default() }],
        ..Default::default()
    }
}

#[test]
fn a_nccl_tests_run_rules_the_fabric_in_or_out() {
    let s = job().with(|i| i.algorithm = crate::Algorithm::Ring).expect("valid");
    let slow = estimate_step(&s).step_s.as_secs() * 2.0;
    let healthy = nccl_run(&s, 1.0);
    let c = check_run(&s, &measured(slow), RunEvidence { nccl_tests: Some(&healthy), ..Default::default() });
    assert_eq!(c.nccl_tests.as_ref().map(|h| h.verdict), Some(crate::health::Verdict::Healthy));
    for id in ["socket-fallback", "gdr-off", "fewer-nics"] {
        assert!(!ids(&c).contains(&id) && ruled(&c).contains(&id), "{id}: {:?}", c.ruled_out);
    }
    assert_eq!(ids(&c)[0], "straggler", "{:?}", ids(&c));
    // A run at a fifth of the model: the fabric is slow, and its bandwidth gives the step.
    let degraded = nccl_run(&s, 0.2);
    let c = check_run(&s, &measured(slow), RunEvidence { nccl_tests: Some(&degraded), ..Default::default() });
    let k = c.causes.iter().find(|k| k.id == "fabric-slow").expect("fabric-slow");
    assert_eq!(k.status, "confirmed");
    assert!(k.step_s.is_some_and(|t| t > estimate_step(&s).step_s.as_secs()));
}

#[test]
fn a_layout_that_sends_less_is_advised_whatever_the_verdict() {
    // ZeRO-3 across 25 GbE moves 1.5x DDP's bytes; DDP fits an 8B model on 80 GB with room.
    let s = Scenario::new(ScenarioInput {
        params: 1e9,
        sync: SyncStrategy::Zero3,
        link_gbps: 25.0,
        adapters_per_node: 1,
        fabric: Fabric::Roce,
        compute: ComputeInput::Given { ms: 200.0 },
        ..ScenarioInput::default()
    })
    .expect("valid");
    let expected = estimate_step(&s).step_s.as_secs();
    let c = check_run(&s, &measured(expected), RunEvidence::default());
    assert_eq!(c.verdict, RunVerdict::AsExpected);
    assert_eq!(ids(&c), ["layout"], "{:?}", c.causes);
    assert!(c.causes[0].check[0].contains("--sync"), "{:?}", c.causes[0].check);
}

#[test]
fn tokens_per_step_are_the_jobs_global_batch() {
    // As in `estimate`: 4M tokens of 4,096-token sequences over 16 data-parallel GPUs are 62 micro-batches each.
    let s = job();
    assert_eq!(s.layout().micro_batches, 1);
    let run = RunInput { measured_tokens_per_s: Some(1e6), tokens_per_step: Some(4e6), ..Default::default() };
    let j = run.job(&s).expect("valid");
    assert_eq!(j.layout().micro_batches, (4e6f64 / (4096.0 * 16.0)).ceil() as u32);
    assert_eq!(run.step(&j).expect("ok").step_s, 4.0, "the step is the same either way");
    // A count the user set stays; no tokens, no change; a bad count names its field.
    let set = s.with(|i| i.micro_batches = Some(3)).expect("valid");
    assert_eq!(run.job(&set).expect("valid").layout().micro_batches, 3);
    assert_eq!(RunInput::default().job(&s).expect("valid").layout().micro_batches, 1);
    let bad = RunInput { tokens_per_step: Some(-5.0), ..Default::default() };
    assert_eq!(bad.job(&s).expect_err("refused").field, Field::TokensPerStep);
}

#[test]
fn the_measured_step_is_read_from_a_step_or_a_throughput() {
    let s = job();
    let step = |r: RunInput| r.step(&s);
    assert_eq!(step(RunInput { measured_step_s: Some(2.0), ..Default::default() }).expect("ok").step_s, 2.0);
    let t = step(RunInput { measured_tokens_per_s: Some(1e6), tokens_per_step: Some(4e6), ..Default::default() })
        .expect("ok");
    assert!((t.step_s - 4.0).abs() < 1e-12 && t.from.contains("given"), "{t:?}");
    // Without tokens per step: the layout's sequences (1 per GPU here) x 4096 tokens.
    let t = step(RunInput { measured_tokens_per_s: Some(16.0 * 4096.0), ..Default::default() }).expect("ok");
    assert!((t.step_s - 1.0).abs() < 1e-12, "{t:?}");
    let t = step(RunInput { measured_samples_per_s: Some(64.0), samples_per_step: Some(256.0), ..Default::default() })
        .expect("ok");
    assert!((t.step_s - 4.0).abs() < 1e-12);
    // The refusals name their field.
    let field = |r: RunInput| step(r).expect_err("refused").field;
    assert_eq!(field(RunInput::default()), Field::MeasuredStepS);
    assert_eq!(field(RunInput { measured_step_s: Some(-1.0), ..Default::default() }), Field::MeasuredStepS);
    assert_eq!(field(RunInput { measured_step_s: Some(f64::NAN), ..Default::default() }), Field::MeasuredStepS);
    assert_eq!(field(RunInput { measured_samples_per_s: Some(3.0), ..Default::default() }), Field::SamplesPerStep);
    assert_eq!(field(RunInput { measured_tokens_per_s: Some(0.0), ..Default::default() }), Field::MeasuredTokensPerS);
    assert_eq!(
        field(RunInput { measured_step_s: Some(1.0), measured_tokens_per_s: Some(1.0), ..Default::default() }),
        Field::MeasuredStepS
    );
}

#[test]
fn the_step_falls_as_the_measured_bandwidth_rises_for_every_layout() {
    // Pipeline and HSDP layouts run groups across nodes, which take the measurement's share: the step never
    // rises with the bandwidth, so the bisection finds the one that explains a step.
    for change in
        [(|i: &mut ScenarioInput| i.pp = 2) as fn(&mut ScenarioInput), |i| i.sync = SyncStrategy::Hsdp, |i| i.tp = 8]
    {
        let mut input = ScenarioInput {
            model: Some("llama-3.1-8b".into()),
            nodes: 4,
            compute: ComputeInput::Given { ms: 500.0 },
            ..ScenarioInput::default()
        };
        change(&mut input);
        let s = Scenario::new(input).expect("valid");
        let mut last = f64::INFINITY;
        let mut b = 0.01;
        while b <= 10_000.0 {
            let t = step_at(&s, b).expect("valid");
            assert!(t <= last * (1.0 + 1e-9), "{b} GB/s: {t} after {last}");
            last = t;
            b *= 3.0;
        }
        let slow = estimate_step(&s).step_s.as_secs() * 2.0;
        let implied = implied_busbw(&s, slow).expect("explained");
        assert!((step_at(&s, implied).expect("valid") / slow - 1.0).abs() < 1e-3);
    }
}

#[test]
fn a_cause_is_ruled_out_only_when_its_slowest_step_cannot_reach_the_measured_one() {
    let s = job();
    let e = estimate_step(&s);
    let slow = e.step_s.as_secs() * 1.5;
    let c = check_run(&s, &measured(slow), RunEvidence::default());
    assert_eq!(c.verdict, RunVerdict::SlowerThanExpected, "{}", c.headline);
    let spread = c.as_expected_s[1] / c.expected_step_s;
    for k in &c.causes {
        if let Some(t) = k.step_max_s.or(k.step_s) {
            assert!(t * spread >= slow, "{} kept at {t}: it can reach {slow}", k.id);
        }
    }
    for r in &c.ruled_out {
        assert!(r.why.contains("short of the measured"), "{}: {}", r.id, r.why);
    }
    assert!(c.cannot_tell.is_empty(), "a slow run is ranked, not weighed against a healthy one");
    // A step far beyond every fault's reach rules them all out, and blames a straggler.
    let c = check_run(&s, &measured(e.step_s.as_secs() * 1e4), RunEvidence::default());
    assert!(ruled(&c).contains(&"socket-fallback"), "{:?}", ruled(&c));
    assert_eq!(ids(&c).first(), Some(&"straggler"), "{:?}", ids(&c));
}

#[test]
fn a_fault_whose_step_reads_as_expected_cannot_be_told() {
    // 1 s of compute hides a socket fallback's all-reduce of a small model: its step reads as expected.
    let s = job().with(|i| i.params = 125e6).expect("valid");
    let sockets = s
        .with(|i| {
            i.fabric = Fabric::Tcp;
            i.gdr = false;
        })
        .expect("valid");
    let t = estimate_step(&sockets).step_s.as_secs();
    let c = check_run(&s, &measured(t), RunEvidence::default());
    assert_eq!(c.verdict, RunVerdict::AsExpected, "{}", c.headline);
    assert!(t <= c.as_expected_s[1]);
    let untold: Vec<&str> = c.cannot_tell.iter().map(|k| k.id.as_str()).collect();
    assert!(untold.contains(&"socket-fallback"), "{untold:?}");
    assert!(c.headline.contains("too wide to tell"), "{}", c.headline);
    // The NCCL log settles it: nothing left that cannot be told about sockets.
    let log = nccl_log::parse("h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3/GDRDMA");
    let c = check_run(&s, &measured(t), RunEvidence { log: Some(&log), ..RunEvidence::default() });
    assert!(!c.cannot_tell.iter().any(|k| k.id == "socket-fallback"), "{:?}", c.cannot_tell);
}
