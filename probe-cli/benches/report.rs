//! `probe-cli report --json` on the 8-GPU fixture (tests/fixtures/nodes/h100-ib-8x400), whole process, wall time:
//! what a user waits for. Prints the median, p95 and max of 50 runs after 5 warm-ups, and fails above the budget
//! (50 ms, README's "Benchmarks" table). `make bench-report` runs it.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const RUNS: usize = 50;
const BUDGET_MS: f64 = 50.0;

fn main() {
    let bin = env!("CARGO_BIN_EXE_probe-cli");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nodes/h100-ib-8x400");
    let run = || {
        let t = Instant::now();
        let out = Command::new(bin).args(["report", "--json", "--root"]).arg(&root).output().expect("probe-cli runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        t.elapsed().as_secs_f64() * 1e3
    };
    for _ in 0..5 {
        run();
    }
    let mut ms: Vec<f64> = (0..RUNS).map(|_| run()).collect();
    ms.sort_by(f64::total_cmp);
    let median = ms[RUNS / 2];
    let p95 = ms[RUNS * 95 / 100];
    let max = ms[RUNS - 1];
    println!(
        "probe-cli report --json --root tests/fixtures/nodes/h100-ib-8x400: median {median:.1} ms, p95 {p95:.1} ms, \
         max {max:.1} ms over {RUNS} runs (budget {BUDGET_MS} ms)"
    );
    assert!(median <= BUDGET_MS, "median {median:.1} ms is over the {BUDGET_MS} ms budget");
}
