//! `run_check` against the public training runs of the step replay (`tests/data/steps/`): each run's own step
//! reads as expected where it is within the tolerance, the same run with the step a socket fallback gives reads
//! slower with the socket fallback among its causes, and the tolerance is the model's out-of-source error on the
//! runs.

use estimator_core::fabric::SLOWEST_SOCKET_BUSBW_GBYTE_PER_S;
use estimator_core::run_check::{RunEvidence, RunInput, RunVerdict, check_run, tolerance};
use estimator_core::{Fabric, Scenario, estimate_step};

fn check(s: &Scenario, step_s: f64) -> estimator_core::run_check::RunCheck {
    let measured = RunInput { measured_step_s: Some(step_s), ..RunInput::default() }.step(s).expect("a step");
    check_run(s, &measured, RunEvidence::default())
}

/// The 90th percentile of |measured / expected - 1| of the step replay's runs on each kind of fabric, out of
/// source or in sample, whichever is larger, rounded up to the next 5%, is the tolerance of that kind.
#[test]
fn the_tolerance_is_the_models_out_of_source_error_on_each_kind_of_fabric() {
    let replays = tests::calibration::steps::replay_all().expect("runs replay");
    let p90 = |rdma: bool, model: fn(&tests::calibration::steps::StepReplay) -> f64| {
        let mut errors: Vec<f64> = replays
            .iter()
            .filter(|r| r.run.input.fabric.is_rdma() == rdma)
            .map(|r| (r.run.measured_step_s / model(r) - 1.0).abs())
            .collect();
        errors.sort_by(f64::total_cmp);
        (errors[(0.9 * errors.len() as f64).ceil() as usize - 1], errors.len())
    };
    for rdma in [true, false] {
        let (oos, count) = p90(rdma, |r| r.out_of_source.step_s);
        let (ins, _) = p90(rdma, |r| r.in_sample.step_s);
        let rounded = (oos.max(ins) * 20.0).ceil() / 20.0;
        let fabric = if rdma { Fabric::Infiniband } else { Fabric::Tcp };
        // The basis says how many runs and both figures, as the data has them.
        let basis = tolerance(fabric).basis;
        let pct = |x: f64| format!("{}%", estimator_core::human::num(x * 100.0, 1));
        assert!(
            basis.contains(&format!("{count} public")) && basis.contains(&pct(oos)) && basis.contains(&pct(ins)),
            "{basis}: {count} runs, {} out of source, {} in sample",
            pct(oos),
            pct(ins)
        );
        println!(
            "rdma {rdma}: 90% within {} out of source, {} in sample -> {:.0}%",
            pct(oos),
            pct(ins),
            rounded * 100.0
        );
        assert!((tolerance(fabric).share - rounded).abs() < 1e-9, "rdma {rdma}: {oos} {ins}");
    }
}

/// The step of `s` with NCCL on sockets: at their best on the fabric's own ports, or at the slowest sourced socket
/// bus bandwidth.
fn on_sockets(s: &Scenario, slowest: bool) -> f64 {
    let v = s
        .with(|i| {
            i.fabric = Fabric::Tcp;
            i.gdr = false;
            if slowest {
                i.measured_busbw_gbs = Some(SLOWEST_SOCKET_BUSBW_GBYTE_PER_S);
            }
        })
        .expect("valid");
    estimate_step(&v).step_s.as_secs()
}

/// A run with the step of a socket fallback: slower with the socket fallback as the first cause where that step is
/// beyond what reads as expected; where the schedule hides it, as expected, and the check says it cannot tell (the
/// range is too wide). `true` when slower.
fn fallback_is_told(id: &str, s: &Scenario, step: f64) -> bool {
    let c = check(s, step);
    let ids: Vec<&str> = c.causes.iter().map(|k| k.id.as_str()).collect();
    if step > c.as_expected_s[1] {
        assert_eq!(c.verdict, RunVerdict::SlowerThanExpected, "{id}: {}", c.headline);
        assert_eq!(ids.first(), Some(&"socket-fallback"), "{id}: {ids:?}");
        true
    } else {
        assert_eq!(c.verdict, RunVerdict::AsExpected, "{id}: {}", c.headline);
        // The check says it cannot tell, and what does.
        let untold: Vec<&str> = c.cannot_tell.iter().map(|k| k.id.as_str()).collect();
        assert!(untold.contains(&"socket-fallback"), "{id}: {untold:?}");
        assert!(c.headline.contains("too wide to tell"), "{id}: {}", c.headline);
        false
    }
}

/// Every run of the step replay: its own step reads as expected exactly when it is within the tolerance of the
/// model's, and so on at least 90% of them (the tolerance is the 90th percentile of the out-of-source error); the
/// same run with a socket fallback's step reads slower with the fallback first wherever that step is beyond it.
#[test]
fn public_runs_read_as_expected_and_their_socket_fallback_reads_slower() {
    let replays = tests::calibration::steps::replay_all().expect("runs replay");
    let (mut fallbacks, mut slow_port, mut fabric_ports, mut as_expected) = (0, 0, 0, 0);
    for r in &replays {
        let (run, s) = (&r.run, &r.scenario);
        let c = check(s, run.measured_step_s);
        // What reads as expected holds the step's range and the fabric's tolerance around the expected step.
        let [lo, hi] = c.as_expected_s;
        assert!(lo <= c.expected_range_s[0] && c.expected_range_s[1] <= hi, "{}: {:?}", run.id, c.as_expected_s);
        let tol = c.expected_step_s * c.tolerance;
        assert!(lo <= c.expected_step_s - tol + 1e-12 && c.expected_step_s + tol <= hi + 1e-12, "{}", run.id);
        let within = (lo..=hi).contains(&run.measured_step_s);
        assert_eq!(c.verdict == RunVerdict::AsExpected, within, "{}: {}", run.id, c.headline);
        as_expected += usize::from(within);
        if !within {
            println!("{}: {}", run.id, c.headline);
        }
        if run.input.fabric == Fabric::Tcp {
            continue;
        }
        fallbacks += 1;
        let (slow, fast) = (on_sockets(s, true), on_sockets(s, false));
        let told = (fallback_is_told(&run.id, s, slow), fallback_is_told(&run.id, s, fast));
        slow_port += usize::from(told.0);
        fabric_ports += usize::from(told.1);
        println!(
            "{}: expected {:.3} s; sockets at their slowest {:.3} s{}, on the fabric's ports {:.3} s{}",
            run.id,
            c.expected_step_s,
            slow,
            if told.0 { " (slower)" } else { " (within the tolerance)" },
            fast,
            if told.1 { " (slower)" } else { " (within the tolerance)" },
        );
    }
    println!(
        "{as_expected} of {} runs read as expected; {fallbacks} runs over a faster fabric: a socket fallback is told \
         on {slow_port} at their slowest, {fabric_ports} on the fabric's ports",
        replays.len()
    );
    assert!(as_expected * 10 >= replays.len() * 9, "{as_expected} of {} runs read as expected", replays.len());
    assert!(fallbacks >= 50, "{fallbacks} runs over a faster fabric than sockets");
}
