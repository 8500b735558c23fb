//! One estimate and a 100-point sweep: the page redraws its charts from these on every keystroke.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use estimator_core::{Scenario, ScenarioInput, estimate, sweep_nodes};

fn benches(c: &mut Criterion) {
    let s = Scenario::new(ScenarioInput::default()).expect("the default scenario is valid");
    c.bench_function("estimate (step + memory + recommendation)", |b| b.iter(|| estimate(black_box(&s))));
    let nodes: Vec<u32> = (1..=100).collect();
    c.bench_function("sweep_nodes, 100 points", |b| {
        b.iter(|| sweep_nodes(black_box(&s), black_box(&nodes)).expect("valid"))
    });
}

criterion_group!(estimate_benches, benches);
criterion_main!(estimate_benches);
