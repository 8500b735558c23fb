//! One estimate and a 100-point sweep: the page redraws its charts from these on every keystroke. One collective
//! and a 100-size collective sweep: what `estimate collective --table` and the health curve compute. A run check
//! (two bisections for the bus bandwidth) and a rental plan over the whole offer catalog: what `check-run` and
//! `plan` compute, and the page's sections on each change.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use estimator_core::collective::{self, Op};
use estimator_core::plan::{PlanInput, plan};
use estimator_core::run_check::{MeasuredStep, RunEvidence, check_run};
use estimator_core::{Bytes, ComputeInput, Scenario, ScenarioInput, SyncStrategy, estimate, sweep_nodes};

fn benches(c: &mut Criterion) {
    let s = Scenario::new(ScenarioInput::default()).expect("the default scenario is valid");
    c.bench_function("estimate (step + memory + recommendation)", |b| b.iter(|| estimate(black_box(&s))));
    let nodes: Vec<u32> = (1..=100).collect();
    c.bench_function("sweep_nodes, 100 points", |b| {
        b.iter(|| sweep_nodes(black_box(&s), black_box(&nodes)).expect("valid"))
    });
    c.bench_function("collective, one all_reduce of 25 MiB (NCCL's choice)", |b| {
        b.iter(|| collective::collective(black_box(&s), Op::AllReduce, black_box(Bytes::mib(25.0))))
    });
    // 100 sizes from 8 B up by 2^(1/3): nccl-tests' -b 8 -e 8G -f 2 has 31; this is three times as fine.
    c.bench_function("collective sweep, 100 sizes (all_gather)", |b| {
        b.iter(|| {
            collective::sweep(black_box(&s), Op::AllGather, Bytes::new(8.0), Bytes::new(1e15), 2f64.powf(1.0 / 3.0))
        })
    });
    let job = Scenario::new(ScenarioInput { compute: ComputeInput::Given { ms: 1000.0 }, ..ScenarioInput::default() })
        .expect("valid");
    let measured = MeasuredStep { step_s: 3.0, from: "the step as measured".into() };
    c.bench_function("check_run, a slow run without evidence", |b| {
        b.iter(|| check_run(black_box(&job), black_box(&measured), RunEvidence::default()))
    });
    let fsdp =
        ScenarioInput { model: Some("llama-3.1-8b".into()), sync: SyncStrategy::Zero3, ..ScenarioInput::default() };
    let offers = estimator_core::offer::OFFERS.len();
    for (name, best_layout) in [
        (format!("plan, {offers} offers up to 64 nodes"), false),
        (format!("plan, {offers} offers up to 64 nodes, best layout"), true),
    ] {
        let p = PlanInput { tokens: 1e12, best_layout, ..PlanInput::default() };
        c.bench_function(&name, |b| b.iter(|| plan(black_box(&fsdp), black_box(&p)).expect("a plan")));
    }
}

criterion_group!(estimate_benches, benches);
criterion_main!(estimate_benches);
