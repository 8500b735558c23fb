//! The model's all-to-all (NCCL's, `collective/alltoall.rs`) against DeepEP's published dispatch and combine
//! bandwidths (`tests/data/alltoall/deepep-v1.json`): the same H800 nodes with one 400 Gb/s CX7 adapter per GPU,
//! DeepSeek-V3's pretraining batch (4096 tokens of 7168, top-8, FP8 dispatch, BF16 combine), expert parallelism
//! inside one node (NVLink) and over 2, 4 and 8 nodes (RDMA).
//!
//! DeepEP's kernels are not NCCL's all-to-all: they send a token once per destination node and forward it over
//! NVLink there, and report "logical" bandwidth. So the check is that the model's per-GPU bandwidth on the
//! bottleneck link (what a rank sends over it over the call's time) stays within 30% below and 10% above DeepEP's:
//! DeepEP is the better kernel across nodes, and an all-to-all that a MoE layout's step is built on is not far
//! from it.
//! `cargo test -p tests --test alltoall -- --nocapture` prints the table README's MoE section quotes.

use estimator_core::collective::{Op, collective};
use estimator_core::{Bytes, Fabric, Scenario, ScenarioInput};
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    source: String,
    tokens: f64,
    hidden: f64,
    top_k: f64,
    gpus_per_node: i64,
    link_gbps: f64,
    rows: Vec<Row>,
}

#[derive(Deserialize)]
struct Row {
    ep: i64,
    phase: String,
    bytes_per_elem: f64,
    gbs: f64,
    link: String,
    quote: String,
}

/// The model's bandwidth over the bottleneck link for one row: per GPU, the bytes it sends over NVLink (one
/// node) or over the adapters (several), over the all-to-all's time.
fn model_gbs(f: &File, r: &Row) -> f64 {
    let nodes = r.ep / f.gpus_per_node;
    let s = Scenario::new(ScenarioInput {
        gpu: "h800".into(),
        nodes: nodes.max(1),
        gpus_per_node: f.gpus_per_node,
        adapters_per_node: f.gpus_per_node,
        link_gbps: f.link_gbps,
        fabric: Fabric::Infiniband,
        ..ScenarioInput::default()
    })
    .expect("valid");
    // What one rank sends in all: its tokens, each to top-k experts.
    let size = f.tokens * f.top_k * f.hidden * r.bytes_per_elem;
    let c = collective(&s, Op::AllToAll, Bytes::new(size));
    let (n, g) = (r.ep as f64, f.gpus_per_node as f64);
    let over = if nodes > 1 { size * (n - g) / n } else { size * (g - 1.0) / g };
    over / (c.time_us * 1e-6) / 1e9
}

#[test]
fn the_all_to_all_is_near_deepeps_published_bandwidths() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/alltoall/deepep-v1.json");
    let f: File = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("parse");
    assert!(f.source.starts_with("https://github.com/deepseek-ai/DeepEP/blob/"), "{}", f.source);
    println!("| EP | GPUs | phase | link | DeepEP | model | model / DeepEP |\n|---:|---|---|---|---:|---:|---:|");
    for r in &f.rows {
        // The quote holds the figure and the EP degree as the source prints them.
        assert!(r.quote.contains(&format!("{} GB/s ({})", r.gbs, r.link)), "{}", r.quote);
        assert!(r.quote.contains(&format!(" {} ", r.ep)), "{}", r.quote);
        let m = model_gbs(&f, r);
        let ratio = m / r.gbs;
        println!(
            "| {} | {} x {} | {} | {} | {} GB/s | {:.1} GB/s | {:.2} |",
            r.ep,
            (r.ep / f.gpus_per_node).max(1),
            f.gpus_per_node,
            r.phase,
            r.link,
            r.gbs,
            m,
            ratio
        );
        assert!(
            (0.7..=1.1).contains(&ratio),
            "EP {} {}: the model {m:.1} GB/s against DeepEP's {}",
            r.ep,
            r.phase,
            r.gbs
        );
    }
}
