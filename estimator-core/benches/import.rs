//! The readers on 1 MB and 10 MB inputs (real outputs from tests/data repeated, and adversarial shapes: one huge
//! line, nothing but launcher prefixes): prints the throughput and the 10 MB / 1 MB time ratio, and fails if a
//! reader is not linear (a ratio above 15 for a 10x input). `make bench-import` runs it.

use std::path::Path;
use std::time::Instant;

use estimator_core::import::{self, Kind};

fn repeat_to(seed: &str, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + seed.len());
    while s.len() < bytes {
        s.push_str(seed);
        s.push('\n');
    }
    s
}

fn best_of_3(kind: Kind, text: &str) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(import::read(kind, std::hint::black_box(text)));
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    let read = |rel: &str| std::fs::read_to_string(data.join(rel)).expect("test data");
    let cases: Vec<(&str, Kind, String)> = vec![
        ("nccl-tests", Kind::NcclTests, read("nccl-tests/raw/nccl-tests-309-h100-8x400ib-2-4-8node.txt")),
        ("nccl-log", Kind::NcclLog, read("tool-outputs/nccl_03_NET-IB_RoCE_GDR-disabled_nccl-1537_EXCERPT.txt")),
        (
            "nvidia-smi-topo",
            Kind::NvidiaSmiTopo,
            read("tool-outputs/nvidia-smi-topo-m_02_sglang-28893_8xH20_11nic_bond.txt"),
        ),
        ("ibstat", Kind::Ibstat, read("tool-outputs/ibstat_01_mooncake-1999_cx7_roce200_EXCERPT.txt")),
        ("ibv-devinfo", Kind::IbvDevinfo, read("tool-outputs/ibv_devinfo-v_04_ucx-10317_roce_port_gids_EXCERPT.txt")),
        ("one huge line", Kind::NcclTests, "8388608 2097152 float sum -1 ".repeat(4)),
        (
            "launcher prefixes",
            Kind::NcclLog,
            "[1,0]<stdout>: 0: [2,3]<stderr>: x NCCL INFO Channel 00/02 : 0 1".to_string(),
        ),
    ];
    let mut worst: f64 = 0.0;
    for (name, kind, seed) in &cases {
        let (small, large) = if *name == "one huge line" {
            (seed.repeat(1_000_000 / seed.len()), seed.repeat(10_000_000 / seed.len()))
        } else {
            (repeat_to(seed, 1_000_000), repeat_to(seed, 10_000_000))
        };
        let t1 = best_of_3(*kind, &small);
        let t10 = best_of_3(*kind, &large);
        let ratio = t10 / t1;
        worst = worst.max(ratio);
        println!(
            "{name:18} 1 MB {:7.1} ms  10 MB {:7.1} ms  ({:6.1} MB/s)  ratio {ratio:4.1}",
            t1 * 1e3,
            t10 * 1e3,
            large.len() as f64 / 1e6 / t10
        );
    }
    assert!(worst <= 15.0, "a reader is not linear: 10x the input took {worst:.1}x the time");
}
