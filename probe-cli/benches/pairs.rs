//! `probe-cli pairs` on 1,000 two-node runs, whole process, wall time: the release binary over a directory of
//! nccl-tests outputs named `hostA_hostB.txt` (a ring of 1,000 nodes, one of them degraded; the outputs of
//! `tests/data/pairs/names-from-files`, whose hosts come from the file names). Prints the best and the median of 5
//! runs after one warm-up, and fails above the budget (1 s, the issue's, README's "Benchmarks" table). `make
//! bench-pairs` runs it.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const NODES: usize = 1_000;
const BAD: usize = 42;
const RUNS: usize = 5;
const BUDGET_S: f64 = 1.0;

fn main() {
    let bin = env!("CARGO_BIN_EXE_probe-cli");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/pairs/names-from-files");
    let good = std::fs::read(data.join("node01_node04.txt")).expect("healthy pair");
    let bad = std::fs::read(data.join("node01_node02.txt")).expect("degraded pair");
    let dir = std::env::temp_dir().join(format!("probe-cli-pairs-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for i in 0..NODES {
        let j = (i + 1) % NODES;
        let body = if i == BAD || j == BAD { &bad } else { &good };
        std::fs::write(dir.join(format!("n{i:04}_n{j:04}.txt")), body).expect("write");
    }
    let run = || {
        let t = Instant::now();
        let out = Command::new(bin)
            .args(["pairs", "--json", "--gpu", "h100", "--gpus-per-node", "8", "--adapters", "8", "--link-gbps", "400"])
            .args(["--fabric", "ib"])
            .arg(&dir)
            .output()
            .expect("probe-cli runs");
        let s = t.elapsed().as_secs_f64();
        assert_eq!(out.status.code(), Some(1), "a suspect is a finding: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["pairs"].as_array().map(Vec::len), Some(NODES));
        assert_eq!(v["suspects"][0]["node"], format!("n{BAD:04}"));
        assert_eq!(v["suspects"].as_array().map(Vec::len), Some(1));
        s
    };
    run();
    let mut secs: Vec<f64> = (0..RUNS).map(|_| run()).collect();
    secs.sort_by(f64::total_cmp);
    let _ = std::fs::remove_dir_all(&dir);
    let (best, median) = (secs[0], secs[RUNS / 2]);
    println!(
        "probe-cli pairs --json on {NODES} two-node runs: best {best:.3} s, median {median:.3} s over {RUNS} runs on {} \
         core(s) (budget {BUDGET_S} s)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    assert!(median <= BUDGET_S, "median {median:.3} s is over the {BUDGET_S} s budget");
}
