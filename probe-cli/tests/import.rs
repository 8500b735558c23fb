//! probe-cli import and health on the real outputs in tests/data: the kind of each file, the JSON keys README's
//! "Measured reality" section names, and the verdicts.

mod common;

use common::{cli, data, first};
use serde_json::Value;

#[test]
fn import_json_has_one_object_per_file_with_its_kind() {
    let files = [
        first("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-default"),
        first("tool-outputs", "nccl_03"),
        first("tool-outputs", "nvidia-smi-topo-m_01"),
        first("tool-outputs", "ibstat_01"),
        first("tool-outputs", "ibv_devinfo_03"),
    ];
    let out = cli().arg("import").arg("--json").args(&files).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let kinds: Vec<&str> = v.as_array().expect("array").iter().map(|o| o["kind"].as_str().expect("kind")).collect();
    assert_eq!(kinds, ["nccl-tests", "nccl-log", "nvidia-smi-topo", "ibstat", "ibv-devinfo"]);
    let run = &v[0];
    let last = &run["rows"][10];
    assert_eq!(
        (last["size_bytes"].as_f64(), last["time_us"].as_f64(), last["algbw_gbs"].as_f64(), last["busbw_gbs"].as_f64()),
        (Some(8589934592.0), Some(103530.0), Some(82.97), Some(155.57))
    );
    assert_eq!(run["peak_busbw_gbs"].as_f64(), Some(166.22));
    assert!(run.get("ranks").is_some());
    assert_eq!((v[1]["transport"].as_str(), v[1]["gdr"].as_bool()), (Some("roce"), Some(false)));
    assert_eq!(v[2]["nearest"][0]["class"], "PIX");
}

#[test]
fn import_text_says_what_it_found_and_unknown_files_fail_but_others_print() {
    let socket = first("tool-outputs", "nccl_05");
    let out = cli().arg("import").arg(&socket).arg(data("../../Cargo.toml")).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "a file that is not a tool output is an input error");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("nccl-log") && text.contains("transport socket"), "{text}");
    assert!(text.contains("not recognised"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 2 files"));
    // Standard input, and a directory.
    let run = std::fs::read(first("nccl-tests/raw", "wutz-h100")).expect("read");
    let out = cli().args(["import", "-"]).write_stdin(run).output().expect("runs");
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("nccl-tests"));
    cli().arg("import").arg(data("tool-outputs")).assert().code(2);
    cli().arg("import").assert().code(2);
}

#[test]
fn health_judges_a_run_with_its_log_and_the_report_carries_attachments() {
    let run = first("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-ring");
    let log = first("tool-outputs", "nccl_02");
    let out = cli()
        .args(["health", "--json", "--gpus-per-node", "8", "--gpu", "h100", "--adapters", "8", "--link-gbps", "400"])
        .args(["--fabric", "ib", "--algo", "ring"])
        .arg(&run)
        .arg(&log)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "an unhealthy run is a finding: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["verdict"], "unhealthy");
    let ids: Vec<&str> = v["causes"].as_array().expect("causes").iter().filter_map(|c| c["id"].as_str()).collect();
    assert!(ids.contains(&"gdr-off") && ids.contains(&"fewer-nics"), "{ids:?}");
    assert_eq!(v["input"]["nodes"], 2);

    // report --attach puts the outputs into the report; health reads them back as evidence.
    let dir = std::env::temp_dir().join(format!("probe-health-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let node = dir.join("node.json");
    let fixture = common::node("h100-ib-8x400");
    let out = cli()
        .args(["report", "--json", "--root"])
        .arg(&fixture)
        .arg("--attach")
        .arg(first("tool-outputs", "nvidia-smi-topo-m_01"))
        .arg(&log)
        .output()
        .expect("runs");
    assert!(out.status.success());
    std::fs::write(&node, &out.stdout).expect("write");
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    let kinds: Vec<&str> =
        report["attachments"].as_array().expect("attachments").iter().filter_map(|a| a["kind"].as_str()).collect();
    assert_eq!(kinds, ["nvidia-smi-topo", "nccl-log"]);
    // The log's host names are identifiers: redacted unless asked for, as the report's own are.
    let names = report["attachments"][1]["host_names"].as_array().expect("host names");
    assert!(!names.is_empty() && names.iter().all(|h| h == "redacted"), "{names:?}");
    let out = cli().args(["health", "--report"]).arg(&node).arg(&run).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("Verdict: unhealthy") && text.contains("attached to"), "{text}");
    // Without an nccl-tests file there is nothing to judge; an attachment that is not a tool output is refused.
    cli().args(["health", "--report"]).arg(&node).arg(&log).assert().code(2);
    cli().args(["report", "--attach"]).arg(data("../../Cargo.toml")).assert().code(2);
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn a_measured_bus_bandwidth_replaces_the_model_in_estimate() {
    let out = cli()
        .args([
            "estimate",
            "step",
            "--nodes",
            "2",
            "--adapters",
            "8",
            "--link-gbps",
            "400",
            "--measured-busbw-gbs",
            "95.5",
            "--json",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((v["bottleneck"].as_str(), v["busbw_gbs"].as_f64()), (Some("measured"), Some(95.5)));
    assert_eq!(v["input"]["measured_busbw_gbs"], 95.5);
    cli()
        .args([
            "estimate",
            "step",
            "--nodes",
            "2",
            "--adapters",
            "8",
            "--link-gbps",
            "400",
            "--measured-busbw-gbs",
            "0",
        ])
        .assert()
        .code(2);
}

#[test]
fn health_takes_a_file_given_over_the_reports_attachment_of_the_same_kind() {
    let dir = std::env::temp_dir().join(format!("probe-health-precedence-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let node = dir.join("node.json");
    let fixture = common::node("h100-ib-8x400");
    let attached_log = first("tool-outputs", "nccl_05");
    let out = cli().args(["report", "--json", "--root"]).arg(&fixture).arg("--attach").arg(&attached_log).output();
    std::fs::write(&node, out.expect("runs").stdout).expect("write");
    let run = first("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-ring");
    let given_log = first("tool-outputs", "nccl_02");
    let out =
        cli().args(["health", "--json", "--algo", "ring", "--report"]).arg(&node).arg(&run).arg(&given_log).output();
    let v: Value = serde_json::from_slice(&out.expect("runs").stdout).expect("json");
    let files: Vec<&str> = v["files"].as_array().expect("files").iter().filter_map(Value::as_str).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files[1].contains("nccl_02") && !files.iter().any(|f| f.contains("nccl_05")), "{files:?}");
    let ids: Vec<&str> = v["causes"].as_array().expect("causes").iter().filter_map(|c| c["id"].as_str()).collect();
    assert!(ids.contains(&"gdr-off") && !ids.contains(&"socket-fallback"), "the given log's causes: {ids:?}");
    // Without the file, the attachment is the evidence.
    let out = cli().args(["health", "--json", "--algo", "ring", "--report"]).arg(&node).arg(&run).output();
    let v: Value = serde_json::from_slice(&out.expect("runs").stdout).expect("json");
    assert!(v["files"][1].as_str().is_some_and(|f| f.contains("nccl_05") && f.contains("attached to")), "{v}");
    std::fs::remove_dir_all(dir).expect("cleanup");
}

/// A file holding the same run twice (a rerun appended): `import` lists both runs, and `health` refuses to pick
/// one, listing them, until `--run K` or `--run last` names it; each is judged against its own 2 nodes.
#[test]
fn several_runs_in_a_file_are_listed_and_health_judges_the_one_named() {
    let abci = std::fs::read_to_string(first("nccl-tests/raw", "abci-v100-2node")).expect("read");
    let dir = std::env::temp_dir().join(format!("probe-cli-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let two = dir.join("two-runs.txt");
    std::fs::write(&two, format!("{abci}{abci}")).expect("write");
    let out = cli().arg("import").arg(&two).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 runs in this file") && text.contains("run 2:"), "{text}");
    assert!(text.contains("8 ranks on 2 hosts") && !text.contains("16 ranks"), "{text}");
    let out = cli().args(["import", "--json"]).arg(&two).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((v[0]["runs_in_file"].as_u64(), v[0]["runs"].as_array().map(Vec::len)), (Some(2), Some(2)));
    let hw = ["--gpu", "v100", "--gpus-per-node", "4", "--adapters", "2", "--link-gbps", "100", "--fabric", "ib"];
    let out = cli().arg("health").arg(&two).args(hw).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 runs in this file: pass --run K") && err.contains("run 1:"), "{err}");
    for pick in ["2", "last"] {
        let out = cli().arg("health").arg(&two).args(hw).args(["--run", pick, "--json"]).output().expect("runs");
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(v["input"]["nodes"].as_i64(), Some(2), "judged against its own 2 nodes");
        assert!(v["files"][0].as_str().is_some_and(|f| f.contains("run 2 of 2")), "{}", v["files"]);
    }
    let out = cli().arg("health").arg(&two).args(hw).args(["--run", "3"]).output().expect("runs");
    assert!(out.status.code() == Some(2) && String::from_utf8_lossy(&out.stderr).contains("there is no run 3"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_excerpts_hosts_are_counted_as_health_counts_them() {
    // CoreWeave's NVL72 rack: only the last rank line ("Rank 71 ... device 3") is kept, so its one host name is not
    // the host count; 72 ranks at 4 GPUs a host (devices 0..3) are 18 hosts.
    let rack = data("nccl-tests/nvl72/coreweave-gb200-nvl72-1rack-72gpu-allreduce.txt");
    let out = cli().arg("import").arg(&rack).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(all_reduce_perf)") && text.contains("72 ranks on 18 hosts"), "{text}");
    assert!(!text.contains("on 1 host"), "{text}");
}

#[test]
fn health_takes_an_excerpts_hosts_from_its_device_numbers() {
    // The same excerpt on the rack it ran on (18 trays of 4 GB200 in one NVL72 domain): its one host name is not a
    // mismatch against 18 nodes.
    let rack = data("nccl-tests/nvl72/coreweave-gb200-nvl72-1rack-72gpu-allreduce.txt");
    let out = cli()
        .arg("health")
        .arg(&rack)
        .args(["--gpu", "gb200", "--nodes", "18", "--gpus-per-node", "4", "--adapters", "4", "--link-gbps", "400"])
        .args(["--fabric", "ib", "--nvlink-domain-gpus", "72"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("72 ranks") && !text.contains("mismatch") && !text.contains("1 host"), "{text}");
}
