//! `run_check` against the public training runs of the step replay (`tests/data/steps/runs.json`): each run's
//! own step reads as expected, the same run with the step a socket fallback gives reads slower with the socket
//! fallback among its causes, and the tolerance is the model's validated error on the runs.

use estimator_core::run_check::{RunEvidence, RunInput, RunVerdict, SLOW_SOCKET_PORT_GBPS, check_run, tolerance};
use estimator_core::{Fabric, Scenario, estimate_step};
use tests::calibration::steps::{load_runs, steps_path};

fn check(s: &Scenario, step_s: f64) -> estimator_core::run_check::RunCheck {
    let measured = RunInput { measured_step_s: Some(step_s), ..RunInput::default() }.step(s).expect("a step");
    check_run(s, &measured, RunEvidence::default())
}

/// The largest |measured / expected - 1| on each kind of fabric, rounded up to the next 5%, is the tolerance of
/// that kind.
#[test]
fn the_tolerance_is_the_models_largest_error_on_each_kind_of_fabric() {
    let runs = load_runs(&steps_path()).expect("runs read");
    for rdma in [true, false] {
        let worst = runs
            .iter()
            .filter(|r| r.input.fabric.is_rdma() == rdma)
            .map(|r| {
                let model = estimate_step(&Scenario::new(r.input.clone()).expect("valid")).step_s.as_secs();
                (r.measured_step_s / model - 1.0).abs()
            })
            .fold(0.0f64, f64::max);
        let rounded = (worst * 20.0).ceil() / 20.0;
        let fabric = if rdma { Fabric::Infiniband } else { Fabric::Tcp };
        // The basis says how many runs and the largest error, as the data has them.
        let count = runs.iter().filter(|r| r.input.fabric.is_rdma() == rdma).count();
        let basis = tolerance(fabric).basis;
        let pct = format!("{}%", estimator_core::human::num(worst * 100.0, 1));
        assert!(basis.contains(&format!("{count} public")) && basis.contains(&pct), "{basis}: {count} runs, {pct}");
        println!("rdma {rdma}: largest |measured/expected - 1| {:.1}% -> {:.0}%", worst * 100.0, rounded * 100.0);
        assert!((tolerance(fabric).share - rounded).abs() < 1e-9, "rdma {rdma}: {worst}");
    }
}

/// The step of `s` with NCCL on sockets: on the fabric's own ports, or on one 10 GbE port.
fn on_sockets(s: &Scenario, slow_port: bool) -> f64 {
    let v = s
        .with(|i| {
            i.fabric = Fabric::Tcp;
            i.gdr = false;
            if slow_port {
                i.adapters_per_node = 1;
                i.link_gbps = SLOW_SOCKET_PORT_GBPS;
            }
        })
        .expect("valid");
    estimate_step(&v).step_s.as_secs()
}

/// A run with the step of a socket fallback: slower with the socket fallback as the first cause where that step is
/// beyond the tolerance; where the schedule hides it, as expected (nothing tells it apart). `true` when slower.
fn fallback_is_told(id: &str, s: &Scenario, step: f64) -> bool {
    let c = check(s, step);
    let ids: Vec<&str> = c.causes.iter().map(|k| k.id.as_str()).collect();
    if step > c.expected_step_s * (1.0 + c.tolerance) {
        assert_eq!(c.verdict, RunVerdict::SlowerThanExpected, "{id}: {}", c.headline);
        assert_eq!(ids.first(), Some(&"socket-fallback"), "{id}: {ids:?}");
        true
    } else {
        assert_eq!(c.verdict, RunVerdict::AsExpected, "{id}: {}", c.headline);
        false
    }
}

#[test]
fn public_runs_read_as_expected_and_their_socket_fallback_reads_slower() {
    let runs = load_runs(&steps_path()).expect("runs read");
    let (mut fallbacks, mut slow_port, mut fabric_ports) = (0, 0, 0);
    for run in &runs {
        let s = Scenario::new(run.input.clone()).expect("valid");
        let c = check(&s, run.measured_step_s);
        assert_eq!(c.verdict, RunVerdict::AsExpected, "{}: {}", run.id, c.headline);
        if run.input.fabric == Fabric::Tcp {
            continue;
        }
        fallbacks += 1;
        let (slow, fast) = (on_sockets(&s, true), on_sockets(&s, false));
        let told = (fallback_is_told(&run.id, &s, slow), fallback_is_told(&run.id, &s, fast));
        slow_port += usize::from(told.0);
        fabric_ports += usize::from(told.1);
        println!(
            "{}: expected {:.3} s; sockets on 10 GbE {:.3} s{}, on the fabric's ports {:.3} s{}",
            run.id,
            c.expected_step_s,
            slow,
            if told.0 { " (slower)" } else { " (within the tolerance)" },
            fast,
            if told.1 { " (slower)" } else { " (within the tolerance)" },
        );
    }
    println!(
        "{fallbacks} runs over a faster fabric: a socket fallback is told on {slow_port} on 10 GbE, {fabric_ports} on the fabric's ports"
    );
    assert!(fallbacks >= 20, "{fallbacks} runs over a faster fabric than sockets");
}
