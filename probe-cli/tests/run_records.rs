//! `check-run --trace` and `--inspector`: the run's own records judged, from the files `tests/data/traces/generate.py`
//! writes; a gzip trace read as it streams; a straggler named from every rank's trace; bad input named.

mod common;

use std::io::Write as _;

use common::{cli, data, temp};
use serde_json::Value;

const JOB: [&str; 8] = ["check-run", "--nodes", "4", "--tp", "8", "--adapters", "8", "--link-gbps"];

fn run(args: &[&str]) -> (i32, Value, String) {
    let out = cli().args(JOB).arg("400").args(args).arg("--json").output().expect("runs");
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), v, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn path(rel: &str) -> String {
    data(rel).display().to_string()
}

#[test]
fn every_ranks_trace_names_the_straggler() {
    let mut args = Vec::new();
    for r in [0, 8, 16, 24] {
        args.push("--trace".to_string());
        args.push(path(&format!("traces/straggler/rank{r}.json")));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, v, err) = run(&args);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(v["collectives"]["straggler"]["rank"], 16, "{}", v["collectives"]);
    let first = &v["causes"][0];
    assert_eq!(
        (first["id"].as_str(), first["status"].as_str()),
        (Some("straggler"), Some("confirmed")),
        "{}",
        v["causes"]
    );
    assert!(v["measured_from"].as_str().is_some_and(|m| m.contains("the trace's median step")));
}

#[test]
fn a_gzip_trace_reads_as_the_plain_one() {
    let dir = temp("records", "gz");
    let gz = dir.join("rank0.json.gz");
    let plain = std::fs::read(data("traces/slow-network-rank0.json")).expect("file");
    let mut e = flate2::write::GzEncoder::new(std::fs::File::create(&gz).expect("create"), flate2::Compression::fast());
    e.write_all(&plain).expect("write");
    e.finish().expect("finish");
    let (_, a, err) = run(&["--trace", &path("traces/slow-network-rank0.json")]);
    let (_, b, _) = run(&["--trace", &gz.display().to_string()]);
    assert_eq!(a["collectives"], b["collectives"], "{err}");
    assert_eq!(a["trace"], b["trace"]);
    let out = cli().arg("import").arg(&gz).output().expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("pytorch-trace: PyTorch profiler trace, rank 0 of 32"));
}

#[test]
fn bad_records_are_refused_by_name() {
    let (code, _, err) = run(&["--trace", &path("tool-outputs/ibstat_02_l2fwd-nv-6_cx6dx_eth100.txt")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--trace") && err.contains("ibstat_02") && err.contains("not a PyTorch profiler trace"),
        "{err}"
    );
    let (code, _, err) = run(&["--measured-step-s", "1", "--inspector", &path("traces/healthy-rank0.json")]);
    assert_eq!(code, 2);
    assert!(err.contains("not an NCCL Inspector dump"), "{err}");
    let (code, _, err) = run(&["--measured-step-s", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--compute-ms"), "{err}");
    let (code, _, err) =
        run(&["--trace", &path("traces/healthy-rank0.json"), "--trace", &path("traces/slow-network-rank0.json")]);
    assert_eq!(code, 2);
    assert!(err.contains("a second trace of rank 0"), "{err}");
}

#[test]
fn the_text_shows_each_group_and_its_bands() {
    let out = cli()
        .args(JOB)
        .arg("400")
        .args(["--compute-ms", "90", "--measured-step-s", "0.2", "--inspector"])
        .arg(data("inspector/slow-network"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[slow] the all_reduce on dp"), "{text}");
    assert!(text.contains("[as-expected] the all_reduce on tp"), "{text}");
    assert!(text.contains("1. [confirmed] fabric-slow"), "{text}");
}

/// Collectives at their speed, but nothing hidden: the overlap, not the network.
#[test]
fn exposed_communication_at_full_speed_is_the_overlap() {
    let (code, v, err) = run(&["--trace", &path("traces/no-overlap-rank0.json")]);
    assert_eq!(code, 1, "{err}");
    let first = &v["causes"][0];
    assert_eq!(
        (first["id"].as_str(), first["status"].as_str()),
        (Some("overlap"), Some("confirmed")),
        "{}",
        v["causes"]
    );
    let ruled: Vec<&str> = v["ruled_out"].as_array().expect("list").iter().filter_map(|r| r["id"].as_str()).collect();
    assert!(ruled.contains(&"socket-fallback") && ruled.contains(&"fewer-nics"), "{ruled:?}");
    let t = &v["trace"];
    let (comm, exposed, hidden) = (
        t["comm_s"].as_f64().expect("s"),
        t["exposed_comm_s"].as_f64().expect("s"),
        t["hidden_comm_s"].as_f64().expect("s"),
    );
    assert!((comm - exposed - hidden).abs() < 1e-9 && hidden < 1e-6, "nothing hidden but rounding: {t}");
}

/// Traces and Inspector dumps number ranks differently and record the same calls: one kind at a time.
#[test]
fn traces_and_inspector_dumps_are_not_mixed() {
    let (code, _, err) =
        run(&["--trace", &path("traces/healthy-rank0.json"), "--inspector", &path("inspector/healthy")]);
    assert_eq!(code, 2);
    assert!(err.contains("--trace and --inspector: give one kind"), "{err}");
}

/// A large Inspector dump is read in parts: the same records as the file whole.
#[test]
fn an_inspector_dump_past_the_part_size_reads_whole() {
    let dir = temp("records", "bigdump");
    let line = std::fs::read_to_string(data("inspector/slow-network/node01-pid4008.log")).expect("dump");
    let mut big = String::new();
    while big.len() < 20 << 20 {
        big.push_str(&line);
    }
    let records = big.lines().count();
    std::fs::write(dir.join("node01-pid4008.log"), &big).expect("write");
    let out = cli().arg("import").arg("--json").arg(dir.join("node01-pid4008.log")).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let doc = if v.is_array() { v[0].clone() } else { v };
    assert_eq!(doc["records"].as_u64(), Some(records as u64), "{}", String::from_utf8_lossy(&out.stderr));
}
