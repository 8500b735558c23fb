//! `probe-cli calibrate` on real-format two-node outputs (`tests/data/pairs`, from nccl-tests#309's 2 x 8 H100 run),
//! and `--profile` on every command that takes it.

mod common;

use std::path::PathBuf;

use common::{cli, data};
use serde_json::Value;

const HW: [&str; 10] =
    ["--gpus-per-node", "8", "--gpu", "h100", "--adapters", "8", "--link-gbps", "400", "--fabric", "ib"];

/// Calibrates on three healthy replicates and one degraded run; returns the profile's path.
fn profile(tag: &str) -> (PathBuf, Value, Option<i32>) {
    let dir = common::temp("calibrate", tag);
    let out = dir.join("profile.json");
    let o = cli()
        .arg("calibrate")
        .args(HW)
        .arg("--json")
        .arg("--out")
        .arg(&out)
        .args(["node01_node02", "node03_node04", "node05_node06"].map(|n| data(&format!("pairs/none/{n}.txt"))))
        .arg(data("pairs/one-bad/node06_node07.txt"))
        .output()
        .expect("runs");
    let v: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (out, v, o.status.code())
}

#[test]
fn calibrate_writes_a_validated_profile_and_refuses_the_degraded_run() {
    let (out, v, code) = profile("writes");
    assert_eq!(code, Some(1), "a refused run is a finding");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("json");
    assert_eq!(written, v["profile"]);
    assert_eq!(written["schema_version"], 1);
    assert_eq!(written["files"].as_array().map(Vec::len), Some(3));
    let c = &written["corrections"][0];
    assert_eq!((c["op"].as_str(), c["nodes"].as_u64()), (Some("all_reduce"), Some(2)));
    let val = &written["validation"];
    assert!(val["calibrated_error"].as_f64() < val["model_error"].as_f64(), "{val}");
    let refused = v["refused"].as_array().expect("refused");
    assert_eq!(refused.len(), 1);
    assert!(refused[0]["file"].as_str().is_some_and(|f| f.ends_with("node06_node07.txt")));
    assert!(refused[0]["reason"].as_str().is_some_and(|r| r.contains("probe-cli health")), "{refused:?}");
}

#[test]
fn every_command_says_what_the_profile_changed() {
    let (p, _, _) = profile("commands");
    let p = p.to_str().expect("utf-8").to_string();
    let runs: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["estimate", "step", "--nodes", "8"]
                .into_iter()
                .map(String::from)
                .chain(HW.map(String::from))
                .collect(),
            "Profile: calibrated on your cluster: 3 runs",
        ),
        (
            vec!["estimate", "collective", "--nodes", "2", "--bytes", "1G"]
                .into_iter()
                .map(String::from)
                .chain(HW.map(String::from))
                .collect(),
            "Profile: calibrated",
        ),
        (
            vec!["health".to_string(), data("pairs/none/node07_node08.txt").display().to_string()]
                .into_iter()
                .chain(HW.map(String::from))
                .collect(),
            "Profile: calibrated",
        ),
        (
            vec!["pairs".to_string(), data("pairs/none").display().to_string()]
                .into_iter()
                .chain(HW.map(String::from))
                .collect(),
            "Profile: calibrated",
        ),
        (vec!["plan", "--params", "7B", "--tokens", "300B"].into_iter().map(String::from).collect(), "it corrects"),
        (
            vec!["recipe"].into_iter().map(String::from).chain(HW.map(String::from)).collect(),
            "# Sized with the profile: calibrated",
        ),
    ];
    for (args, want) in runs {
        let out = cli().args(&args).arg("--profile").arg(&p).output().expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(want), "{args:?} does not say {want:?}:\n{text}");
    }
    // The step with the profile is not the step without it, and JSON carries the line.
    let step = |extra: &[&str]| -> Value {
        let out =
            cli().args(["estimate", "step", "--nodes", "2", "--json"]).args(HW).args(extra).output().expect("runs");
        serde_json::from_slice(&out.stdout).expect("json")
    };
    let (with, without) = (step(&["--profile", &p]), step(&[]));
    assert!(with["profile"].as_str().is_some_and(|l| l.starts_with("calibrated on your cluster")));
    assert!(without.get("profile").is_none());
    assert_ne!(with["comm_s"], without["comm_s"]);
}

#[test]
fn a_profile_of_other_hardware_or_a_bad_file_is_an_error_naming_it() {
    let (p, _, _) = profile("errors");
    let out = cli()
        .args([
            "estimate",
            "step",
            "--nodes",
            "2",
            "--gpu",
            "h100",
            "--adapters",
            "8",
            "--link-gbps",
            "200",
            "--profile",
        ])
        .arg(&p)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("200 Gb/s (the profile's: 400)"));
    let bad = p.with_file_name("bad.json");
    std::fs::write(&bad, r#"{"schema_version": 9}"#).expect("write");
    let out =
        cli().args(["estimate", "step", "--nodes", "2"]).args(HW).arg("--profile").arg(&bad).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("bad.json") && e.contains("schema_version 9"), "{e}");
    let out = cli()
        .args(["estimate", "step", "--nodes", "2", "--measured-busbw-gbs", "300"])
        .args(HW)
        .arg("--profile")
        .arg(&p)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "a profile and a measured busbw are two answers to one question");
}

#[test]
fn nothing_usable_is_an_error_and_the_schema_describes_the_profile() {
    let dir = common::temp("calibrate", "none");
    let out = cli()
        .arg("calibrate")
        .args(HW)
        .arg("--out")
        .arg(dir.join("p.json"))
        .arg(data("pairs/README.md"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("README.md"));
    assert!(!dir.join("p.json").exists(), "nothing written");
    let out = cli().args(["schema", "--profile"]).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v.to_string().contains("corrections") && v.to_string().contains("validation"));
}

#[test]
fn thresholds_with_a_profile_gate_on_its_own_left_out_rows() {
    let (p, _, _) = profile("thresholds");
    let out = cli()
        .args(["thresholds", "--nodes", "2", "--op", "all_reduce", "--bytes", "8,8G", "--json"])
        .args(HW)
        .arg("--profile")
        .arg(&p)
        .output()
        .expect("runs");
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let t = v["thresholds"].as_array().expect("thresholds");
    // Three runs of 30 rows: 27 rows from 64 MiB up, 33 below 64 KiB, both enough for their own floor.
    assert!(t.iter().all(|x| x["floor_from"] == "profile"), "{t:?}");
    assert!(v["profile"].as_str().is_some_and(|l| l.starts_with("calibrated on your cluster")));
}

#[test]
fn a_degraded_run_alone_is_kept_and_said() {
    let dir = common::temp("calibrate", "degraded");
    let out = cli()
        .arg("calibrate")
        .args(HW)
        .arg("--out")
        .arg(dir.join("p.json"))
        .arg(data("pairs/one-bad/node06_node07.txt"))
        .output()
        .expect("runs");
    let t = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("Note: ") && t.contains("node06_node07.txt: degraded") && t.contains("probe-cli health"), "{t}");
    let p: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("p.json")).expect("written")).expect("json");
    assert_eq!(p["notes"].as_array().map(Vec::len), Some(1));
}
