//! `probe-cli pairs` on real-format two-node nccl-tests outputs (`tests/data/pairs`, made from nccl-tests#309's
//! 2 x 8 H100 run by its `generate.py`): one degraded node named, two named, none named, hosts from file names.

mod common;

use common::{cli, data};
use serde_json::Value;

const HW: [&str; 10] =
    ["--gpus-per-node", "8", "--gpu", "h100", "--adapters", "8", "--link-gbps", "400", "--fabric", "ib"];

fn pairs_json(dir: &str) -> (Value, Option<i32>) {
    let out = cli().arg("pairs").args(HW).arg("--json").arg(data(&format!("pairs/{dir}"))).output().expect("runs");
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (v, out.status.code())
}

fn suspects(v: &Value) -> Vec<(String, String)> {
    v["suspects"]
        .as_array()
        .expect("suspects")
        .iter()
        .map(|s| (s["node"].as_str().unwrap_or("").to_string(), s["certainty"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[test]
fn one_degraded_node_is_named() {
    let (v, code) = pairs_json("one-bad");
    assert_eq!(code, Some(1), "a suspect is a finding");
    assert_eq!(suspects(&v), vec![("node07".to_string(), "confirmed".to_string())]);
    assert_eq!(v["pairs"].as_array().expect("pairs").len(), 24);
    assert_eq!(v["nodes"].as_array().expect("nodes").len(), 16);
    assert!(v["next_round"].as_array().expect("next_round").is_empty());
    assert!(v["refused"].as_array().expect("refused").is_empty());
    // Every slow pair holds node07, and no other does.
    for p in v["pairs"].as_array().expect("pairs") {
        let with07 = p["hosts"].as_array().expect("hosts").iter().any(|h| h == "node07");
        assert_eq!(p["slow"].as_bool(), Some(with07), "{p}");
        assert_eq!(p["hosts_from"], "rank-lines");
    }
}

#[test]
fn two_degraded_nodes_are_both_named() {
    let (v, _) = pairs_json("two-bad");
    let mut s = suspects(&v);
    s.sort();
    assert_eq!(s, vec![("node03".into(), "confirmed".into()), ("node12".into(), "confirmed".into())]);
}

#[test]
fn with_no_degraded_node_none_is_named() {
    let (v, code) = pairs_json("none");
    assert_eq!(code, Some(0));
    assert!(suspects(&v).is_empty());
    assert_eq!(v["reference"], "model");
}

#[test]
fn hosts_come_from_file_names_when_the_output_has_no_rank_lines() {
    let (v, _) = pairs_json("names-from-files");
    assert_eq!(suspects(&v), vec![("node02".to_string(), "confirmed".to_string())]);
    assert!(v["pairs"].as_array().expect("pairs").iter().all(|p| p["hosts_from"] == "file-name"));
}

#[test]
fn text_names_the_suspect_and_the_slow_pairs_with_their_numbers() {
    let out = cli().arg("pairs").args(HW).arg(data("pairs/one-bad")).output().expect("runs");
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(t.contains("node07  confirmed"), "{t}");
    assert!(t.contains("node06 + node07"), "{t}");
    assert!(t.contains("3 of 24 pairs are slow"), "{t}");
}

#[test]
fn files_that_are_not_pair_runs_are_left_out_with_a_reason() {
    let dir = std::env::temp_dir().join(format!("pairs-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("notes.txt"), "hello\n").expect("write");
    std::fs::write(dir.join("a_b_c.txt"), "# nThread 1\n#  size count type redop root time algbw busbw\n")
        .expect("write");
    std::fs::copy(data("pairs/none/node01_node02.txt"), dir.join("node01_node02.txt")).expect("copy");
    let out = cli().arg("pairs").args(HW).arg("--json").arg(&dir).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1), "files left out are a finding");
    let refused: Vec<String> = v["refused"].as_array().expect("refused").iter().map(|r| r.to_string()).collect();
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(refused.iter().any(|r| r.contains("notes.txt") && r.contains("not an nccl-tests output")), "{refused:?}");
    assert!(refused.iter().any(|r| r.contains("a_b_c.txt") && r.contains("hostA_hostB")), "{refused:?}");
}

#[test]
fn without_hardware_it_asks_for_it() {
    let out = cli().args(["pairs"]).arg(data("pairs/none")).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("--adapters and --link-gbps") && e.contains("--report"), "{e}");
}

#[test]
fn nothing_readable_is_an_error_naming_the_files() {
    let out = cli().arg("pairs").args(HW).arg(data("pairs/README.md")).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("README.md") && e.contains("no two-node nccl-tests run"), "{e}");
}
