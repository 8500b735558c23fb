//! `probe-cli thresholds`: the gates a health check reads, as CSV and JSON, on a fixture node's report.

mod common;

use common::{cli, repo};
use serde_json::Value;

#[test]
fn csv_has_a_row_per_collective_and_size_and_each_floor_is_under_its_expectation() {
    let out = cli()
        .args(["thresholds", "--nodes", "2", "--report"])
        .arg(repo("tests/fixtures/nodes/h100-ib-8x400.json"))
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    assert_eq!(header[..4], ["collective", "nodes", "gpus_per_node", "size_bytes"]);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // all_reduce, all_gather, reduce_scatter, alltoall over 8 B..8 GiB (31 sizes).
    assert_eq!(rows.len(), 4 * 31);
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    for r in &rows {
        let expected: f64 = r[col("expected_busbw_gbs")].parse().expect("number");
        let min: f64 = r[col("min_busbw_gbs")].parse().expect("number");
        assert!(min > 0.0 && min <= expected, "{r:?}");
        assert_eq!(r[col("nodes")], "2");
    }
}

#[test]
fn json_carries_the_floors_it_used() {
    let out = cli()
        .args(["thresholds", "--gpu", "h100", "--gpus-per-node", "8", "--adapters", "8", "--link-gbps", "400"])
        .args(["--fabric", "ib", "--nodes", "4", "--op", "all_reduce,alltoall", "--bytes", "8G", "--json"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let t = v["thresholds"].as_array().expect("thresholds");
    assert_eq!(t.len(), 2);
    assert_eq!(t[0]["op"], "all_reduce");
    let floor = v["floors"][3]["floor"].as_f64().expect("floor");
    let ring = t[0]["expected_ring_busbw_gbs"].as_f64().expect("ring on 4 nodes");
    let low = ring.min(t[0]["expected_busbw_gbs"].as_f64().expect("expected"));
    assert!((t[0]["min_busbw_gbs"].as_f64().expect("min") - low * floor).abs() < 1e-6);
}

#[test]
fn bad_flags_are_named() {
    let out = cli().args(["thresholds", "--nodes", "2"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--adapters and --link-gbps"));
    let out = cli().args(["thresholds", "--nodes", "1", "--op", "gossip"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gossip"));
}
