use super::*;
use crate::ScenarioInput;
use crate::import::nccl_tests::NcclTestsRow;

/// 8 x H100 with 8 x 400 Gb/s InfiniBand.
fn node() -> Scenario {
    Scenario::new(ScenarioInput::default()).expect("valid")
}

/// A run of `op` on `nodes` nodes whose every row reads `ratio(size)` of the model's bus bandwidth.
fn run(s: &Scenario, op: Op, nodes: u32, ratio: impl Fn(f64) -> f64) -> NcclTestsRun {
    let on = s.with(|i| i.nodes = i64::from(nodes)).expect("valid");
    let ranks = nodes * s.gpus_per_node();
    let rows = (3..=33)
        .map(|e| 2f64.powi(e))
        .map(|b| {
            let model = collective(&on, op, Bytes::new(b)).time_us;
            let time = model / ratio(b);
            let algbw = b / (1000.0 * time);
            NcclTestsRow {
                size_bytes: b,
                time_us: time,
                algbw_gbs: algbw,
                busbw_gbs: algbw * op.busbw_factor(ranks),
                ..Default::default()
            }
        })
        .collect();
    NcclTestsRun { test: Some(format!("{}_perf", op.name())), ranks: Some(ranks), rows, ..Default::default() }
}

/// Slower than the model at small sizes (0.6), nearly right at large ones (0.9).
fn cluster(b: f64) -> f64 {
    (0.9f64.ln() + (0.6f64.ln() - 0.9f64.ln()) / (1.0 + b / 1_048_576.0)).exp()
}

#[test]
fn a_cluster_slower_than_the_model_is_recovered_and_validated() {
    let s = node();
    let runs: Vec<NcclTestsRun> =
        [2, 2, 4, 4].iter().map(|&n| run(&s, Op::AllReduce, n, |b| cluster(b) * (1.0 + 0.01 * f64::from(n)))).collect();
    let inputs: Vec<CalibrationRun<'_>> =
        runs.iter().enumerate().map(|(i, r)| CalibrationRun { file: format!("r{i}.txt"), run: r }).collect();
    let (p, refused) = calibrate(&s, &inputs);
    assert!(refused.is_empty(), "{refused:?}");
    let p = p.expect("a profile");
    assert_eq!(p.corrections.len(), 2, "one per node count");
    let c = p.find(Op::AllReduce, 2, 8).expect("2 nodes").0;
    assert!((c.large_ratio - 0.9 * 1.02).abs() < 0.02 && (c.small_ratio - 0.6 * 1.02).abs() < 0.02, "{c:?}");
    let v = p.validation.as_ref().expect("validated");
    assert_eq!(v.runs, 4);
    assert!(v.calibrated_error < 0.05 && v.model_error > 0.1, "{v:?}");
    assert_eq!(v.extrapolated_runs, 0);
}

#[test]
fn the_profile_corrects_every_collective_it_measured_and_carries_to_others() {
    let s = node();
    let measured = run(&s, Op::AllReduce, 2, |_| 0.5);
    let (p, _) = calibrate(&s, &[CalibrationRun { file: "a.txt".into(), run: &measured }]);
    let p: &'static Profile = Box::leak(Box::new(p.expect("profile")));
    assert!(p.validation.is_none());
    let corrected = p.apply(s.clone()).expect("same hardware");
    let size = Bytes::new(8.0 * 1024.0 * 1024.0 * 1024.0);
    let model = collective(&s, Op::AllReduce, size).time_us;
    let now = collective(&corrected, Op::AllReduce, size).time_us;
    assert!((now / model - 2.0).abs() < 0.02, "{now} vs {model}");
    // 8 nodes carry the 2-node correction, and say so; one node (NVLink) is left as the model has it.
    assert_eq!(p.find(Op::AllReduce, 8, 8).map(|x| x.1), Some(Match::OtherNodes));
    assert_eq!(p.find(Op::AllGather, 2, 8).map(|x| x.1), Some(Match::OtherCollective));
    assert!(p.find(Op::AllReduce, 1, 8).is_none());
    let eight = corrected.with(|i| i.nodes = 8).expect("valid");
    let said = p.describe(&eight, Op::AllReduce);
    assert!(
        said.contains("for all_reduce on 8 nodes of 8 it carries the correction of all_reduce on 2 nodes"),
        "{said}"
    );
    let said = p.describe(&corrected, Op::AllToAll);
    assert!(said.contains("for alltoall on 2 nodes of 8 it carries the correction of all_reduce"), "{said}");
    let one = corrected.with(|i| i.nodes = 1).expect("valid");
    assert_eq!(
        collective(&one, Op::AllReduce, size).time_us,
        collective(&s.with(|i| i.nodes = 1).expect("v"), Op::AllReduce, size).time_us
    );
    // Other hardware is the model's: the profile corrects only its own.
    let other = corrected.with(|i| i.link_gbps = 200.0).expect("valid");
    let plain = s.with(|i| i.link_gbps = 200.0).expect("valid");
    assert_eq!(collective(&other, Op::AllReduce, size).time_us, collective(&plain, Op::AllReduce, size).time_us);
    let refused = p.apply(s.with(|i| i.link_gbps = 200.0).expect("valid")).expect_err("other hardware");
    assert!(refused.contains("200 Gb/s (the profile's: 400)"), "{refused}");
}

#[test]
fn unhealthy_and_unreadable_runs_are_refused_with_a_reason() {
    let s = node();
    let sick = run(&s, Op::AllReduce, 2, |_| 0.2);
    let empty = NcclTestsRun { test: Some("all_reduce_perf".into()), ..Default::default() };
    let odd = NcclTestsRun { ranks: Some(12), ..run(&s, Op::AllReduce, 2, |_| 1.0) };
    let other = NcclTestsRun { test: Some("sendrecv_perf".into()), ..run(&s, Op::AllReduce, 2, |_| 1.0) };
    let inputs = [
        CalibrationRun { file: "sick.txt".into(), run: &sick },
        CalibrationRun { file: "empty.txt".into(), run: &empty },
        CalibrationRun { file: "odd.txt".into(), run: &odd },
        CalibrationRun { file: "other.txt".into(), run: &other },
    ];
    let (p, refused) = calibrate(&s, &inputs);
    assert!(p.is_none());
    let reasons: Vec<&str> = refused.iter().map(|r| r.reason.as_str()).collect();
    assert!(reasons[0].contains("unhealthy") && reasons[0].contains("probe-cli health"), "{reasons:?}");
    assert!(reasons[1].contains("ranks") || reasons[1].contains("nothing"), "{reasons:?}");
    assert!(reasons[2].contains("12 ranks"), "{reasons:?}");
    assert!(reasons[3].contains("sendrecv_perf"), "{reasons:?}");
}

#[test]
fn versions_and_values_are_checked() {
    assert!(Profile::check_version(Some(1)).is_ok());
    assert!(Profile::check_version(None).expect_err("none").contains("no schema_version"));
    assert!(Profile::check_version(Some(2)).expect_err("two").contains("reads version 1"));
    let s = node();
    let measured = run(&s, Op::AllReduce, 2, |_| 0.8);
    let (p, _) = calibrate(&s, &[CalibrationRun { file: "a.txt".into(), run: &measured }]);
    let mut p = p.expect("profile");
    assert!(p.validate().is_ok());
    p.corrections[0].ramp[3][1] = -1.0;
    assert!(p.validate().expect_err("negative").contains("positive"));
}
