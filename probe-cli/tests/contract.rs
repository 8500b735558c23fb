//! probe-cli's public contract, pinned: the JSON keys of every `--json` document, and the exit code of every
//! command.
//!
//! Each document's keys are compared with a snapshot, `tests/snapshots/<name>.keys`: the sorted key paths, one a
//! line (`step_s`, `vs.input.fabric`; arrays as `[]`, so `rows[].busbw_gbs`). A key that disappears or is renamed
//! fails here, whatever the other tests read. Adding keys is allowed but still shows up; after a deliberate change,
//! `UPDATE_SNAPSHOTS=1 cargo test -p probe-cli --test contract` rewrites them (review the diff).
//!
//! Exit codes, for every command: 0 ran and found nothing wrong, 1 ran and found something (a degraded, unhealthy
//! or mismatched run; `--exit-zero` makes it 0), 2 usage, configuration or input error (never hidden).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::{cli, first as data, node, repo};
use serde_json::Value;

fn temp(name: &str) -> PathBuf {
    common::temp("contract", name)
}

/// A command's exit code, and its stdout read as one JSON document when it is one.
fn run(cmd: &mut Command) -> (Option<i32>, Option<Value>, String) {
    let out = cmd.output().expect("runs");
    (out.status.code(), serde_json::from_slice(&out.stdout).ok(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The JSON document a command prints, which must exit `code`.
fn document(cmd: &mut Command, code: i32) -> Value {
    let (got, v, err) = run(cmd);
    assert_eq!(got, Some(code), "{cmd:?}: {err}");
    v.unwrap_or_else(|| panic!("{cmd:?}: stdout is not one JSON document"))
}

/// Every key path of a JSON value: `a.b` for nested objects, `a[].b` for objects in arrays.
fn key_paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                out.insert(path.clone());
                key_paths(v, &path, out);
            }
        }
        Value::Array(items) => {
            let path = format!("{prefix}[]");
            for item in items {
                key_paths(item, &path, out);
            }
        }
        _ => {}
    }
}

/// Compares a document's key paths with `tests/snapshots/<name>.keys` (or rewrites it with `UPDATE_SNAPSHOTS`).
fn assert_keys(name: &str, v: &Value) {
    let mut got = BTreeSet::new();
    key_paths(v, "", &mut got);
    let snap = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(format!("{name}.keys"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(snap.parent().expect("a folder")).expect("snapshots folder");
        std::fs::write(&snap, got.iter().map(|k| format!("{k}\n")).collect::<String>()).expect("write snapshot");
        return;
    }
    let want: BTreeSet<String> = std::fs::read_to_string(&snap)
        .unwrap_or_else(|_| {
            panic!("{} missing: UPDATE_SNAPSHOTS=1 cargo test -p probe-cli --test contract", snap.display())
        })
        .lines()
        .map(str::to_string)
        .collect();
    let lost: Vec<&String> = want.difference(&got).collect();
    let added: Vec<&String> = got.difference(&want).collect();
    assert!(
        lost.is_empty() && added.is_empty(),
        "{name}: the JSON keys differ from {}\n  lost (renamed or removed: a script reading them breaks): {lost:?}\n  \
         added: {added:?}\nIf the change is deliberate, UPDATE_SNAPSHOTS=1 cargo test -p probe-cli --test contract \
         rewrites the snapshot (review the diff).",
        snap.display()
    );
}

const TWO_NODES: [&str; 6] = ["--nodes", "2", "--adapters", "8", "--link-gbps", "400"];
const HARDWARE: [&str; 10] =
    ["--gpus-per-node", "8", "--gpu", "h100", "--adapters", "8", "--link-gbps", "400", "--fabric", "ib"];

/// `report --root <fixture> --json` written to a file, for `--report`.
fn write_report(dir: &Path, fixture: &str) -> PathBuf {
    let v = document(cli().args(["report", "--json", "--root"]).arg(node(fixture)), 0);
    let path = dir.join(format!("{fixture}.json"));
    std::fs::write(&path, v.to_string()).expect("write");
    path
}

#[test]
fn estimate_json_keys_match_their_snapshots() {
    let step = |extra: &[&str]| document(cli().args(["estimate", "step", "--json"]).args(TWO_NODES).args(extra), 0);
    assert_keys("estimate-step", &step(&[]));
    assert_keys("estimate-step-compute-ms", &step(&["--compute-ms", "900"]));
    assert_keys("estimate-step-vs", &step(&["--vs-link-gbps", "25", "--vs-fabric", "roce", "--vs-adapters", "1"]));
    assert_keys("estimate-step-sweeps", &step(&["--sweep-nodes", "1,2,4", "--sweep-link-gbps", "25,400"]));
    let dir = temp("estimate");
    let report = write_report(&dir, "h100-ib-8x400");
    let v = document(cli().args(["estimate", "step", "--json", "--nodes", "2", "--report"]).arg(&report), 0);
    assert_keys("estimate-step-report", &v);
    std::fs::remove_dir_all(dir).expect("cleanup");

    let allreduce = |extra: &[&str]| {
        document(cli().args(["estimate", "allreduce", "--json", "--bytes", "8GiB"]).args(TWO_NODES).args(extra), 0)
    };
    assert_keys("estimate-allreduce", &allreduce(&[]));
    assert_keys("estimate-allreduce-table", &allreduce(&["--table"]));
    let collective = |op: &str, extra: &[&str]| {
        document(
            cli().args(["estimate", "collective", "--json", "--op", op, "--bytes", "1GiB"]).args(TWO_NODES).args(extra),
            0,
        )
    };
    for op in ["all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall"] {
        assert_keys("estimate-collective", &collective(op, &[]));
    }
    assert_keys("estimate-collective-table", &collective("alltoall", &["--table"]));
    assert_keys("estimate-catalog", &document(cli().args(["estimate", "catalog", "--json"]), 0));
}

#[test]
fn import_json_keys_match_their_snapshots() {
    for (name, file) in [
        ("import-nccl-tests", data("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-default")),
        ("import-nccl-log", data("tool-outputs", "nccl_03")),
        ("import-topo", data("tool-outputs", "nvidia-smi-topo-m_01")),
        ("import-ibstat", data("tool-outputs", "ibstat_01")),
        ("import-ibv-devinfo", data("tool-outputs", "ibv_devinfo_03")),
    ] {
        assert_keys(name, &document(cli().args(["import", "--json"]).arg(file), 0));
    }
    // A file that is not a tool output: `kind` null and `error`, beside the others.
    let v = document(cli().args(["import", "--json"]).arg(repo("Cargo.toml")), 2);
    assert_keys("import-unrecognised", &v);
}

#[test]
fn health_json_keys_match_their_snapshots() {
    // Unhealthy, with causes from the log and evidence lines.
    let run = data("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-ring");
    let v = document(
        cli()
            .args(["health", "--json", "--algo", "ring"])
            .args(HARDWARE)
            .arg(&run)
            .arg(data("tool-outputs", "nccl_02"))
            .arg(data("tool-outputs", "nvidia-smi-topo-m_04")),
        1,
    );
    assert_eq!(v["verdict"], "unhealthy");
    let cause = &v["causes"][0];
    assert!(cause["check"].as_array().is_some_and(|c| !c.is_empty()), "{cause}");
    assert!(v["evidence"].as_array().is_some_and(|e| !e.is_empty()), "{v}");
    assert_keys("health-unhealthy", &v);
    // A run from other hardware.
    let fast = data("nccl-tests/raw", "wutz-h100-2node-8x400ib");
    let v = document(cli().args(["health", "--json", "--adapters", "8", "--link-gbps", "25"]).arg(&fast), 1);
    assert_eq!(v["verdict"], "mismatch");
    assert_keys("health-mismatch", &v);
}

/// A 7B DDP job on two nodes of `HARDWARE`, with 1.2 s of compute measured on one node.
const CHECK_JOB: [&str; 6] = ["check-run", "--nodes", "2", "--compute-ms", "1200", "--json"];

#[test]
fn check_run_json_keys_match_their_snapshots() {
    // Slow, with the socket fallback's log and a nccl-tests run as evidence: causes, ruled out, the run judged.
    let v = document(
        cli()
            .args(CHECK_JOB)
            .args(HARDWARE)
            .args(["--measured-step-s", "9"])
            .arg(data("tool-outputs", "nccl_05"))
            .arg(data("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-ring")),
        1,
    );
    assert_eq!(v["verdict"], "slower-than-expected");
    assert_eq!(v["causes"][0]["id"], "socket-fallback", "{}", v["causes"]);
    assert_eq!(v["causes"][0]["status"], "confirmed");
    for key in [
        "expected_step_s",
        "measured_step_s",
        "implied_comm_s",
        "expected_exposed_comm_s",
        "implied_busbw_gbs",
        "expected_busbw_gbs",
        "tolerance",
    ] {
        assert!(v[key].is_number(), "{key}: {}", v[key]);
    }
    assert!(v["nccl_tests"]["verdict"].is_string(), "{}", v["nccl_tests"]);
    assert_keys("check-run-slow", &v);
    // As expected, from a throughput, without evidence.
    let v = document(cli().args(CHECK_JOB).args(HARDWARE).args(["--measured-tokens-per-s", "50000"]), 0);
    assert_eq!(v["verdict"], "as-expected", "{}", v["headline"]);
    assert_keys("check-run", &v);
}

/// The run's own records: a trace (its step and compute taken from it) and the Inspector's dumps.
#[test]
fn check_run_with_the_runs_records_keeps_its_keys() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data");
    let job = ["check-run", "--nodes", "4", "--tp", "8", "--json"];
    let v = document(
        cli().args(job).args(HARDWARE).args(["--trace", &format!("{root}/traces/slow-network-rank0.json")]),
        1,
    );
    assert_eq!(v["verdict"], "slower-than-expected", "{}", v["headline"]);
    assert_eq!(v["collectives"]["groups"][0]["verdict"], "slow", "{}", v["collectives"]);
    assert!(v["trace"]["exposed_comm_s"].is_number() && v["compute_s"].is_number(), "{}", v["trace"]);
    assert_keys("check-run-trace", &v);
    let v = document(
        cli()
            .args(job)
            .args(HARDWARE)
            .args(["--compute-ms", "90", "--measured-step-s", "0.11"])
            .args(["--inspector", &format!("{root}/inspector/healthy")]),
        0,
    );
    assert_eq!(v["verdict"], "as-expected", "{}", v["headline"]);
    assert!(v["collectives"]["groups"].as_array().is_some_and(|g| g.iter().all(|g| g["verdict"] == "as-expected")));
    assert_keys("check-run-inspector", &v);
}

#[test]
fn plan_json_keys_match_their_snapshots() {
    let dir = temp("plan");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let prices = dir.join("prices.json");
    std::fs::write(&prices, r#"[{"id": "aws-p5.48xlarge", "usd_per_gpu_hour": 3.9},
        {"id": "my-h100", "gpu": "h100", "gpus_per_node": 8, "adapters": 4, "link_gbps": 200, "fabric": "roce", "usd_per_gpu_hour": 2.5}]"#)
        .expect("write");
    let v = document(
        cli()
            .args([
                "plan",
                "--json",
                "--model",
                "llama-3.1-8b",
                "--sync",
                "fsdp",
                "--tokens",
                "100B",
                "--deadline",
                "30d",
            ])
            .args(["--max-nodes", "8", "--only", "aws-p5.48xlarge,generic-1xrtx4090-10gbe-tcp", "--prices"])
            .arg(&prices),
        0,
    );
    assert_eq!(v["ranked_by"], "cost");
    let offers = v["offers"].as_array().expect("offers");
    assert_eq!(offers.len(), 3, "{offers:?}");
    for key in
        ["id", "name", "source", "nodes", "fits", "step_s", "exposed_share", "time_to_train_s", "gpu_hours", "cost_usd"]
    {
        assert!(offers.iter().all(|o| o.get(key).is_some()), "{key}");
    }
    let last = offers.last().expect("three");
    assert_eq!((last["fits"].as_bool(), last["cost_usd"].is_null()), (Some(false), true), "{last}");
    assert_keys("plan", &v);
    let v = document(cli().args(["plan", "--list", "--json"]), 0);
    assert!(v["offers"].as_array().is_some_and(|o| o.len() >= 30));
    assert_keys("plan-list", &v);
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn report_json_keys_match_their_snapshot() {
    let mut v = document(cli().args(["report", "--json", "--root"]).arg(node("h100-ib-8x400")), 0);
    // A report with an attachment, so that `attachments[]` is pinned too.
    let attached = document(
        cli()
            .args(["report", "--json", "--root"])
            .arg(node("h100-ib-8x400"))
            .arg("--attach")
            .arg(data("tool-outputs", "nccl_02")),
        0,
    );
    v["attachments"] = attached["attachments"].clone();
    // ... and one with warnings (the 8-GPU node has none).
    let garbage = document(cli().args(["report", "--json", "--root"]).arg(node("garbage")), 0);
    v["warnings"] = garbage["warnings"].clone();
    assert_keys("report", &v);
}

/// The exit code of `probe-cli ARGS FILES...`.
fn code(args: &[&str], files: &[&Path]) -> Option<i32> {
    cli().args(args).args(files).output().expect("runs").status.code()
}

#[test]
fn estimate_exits_0_for_an_answer_and_2_for_bad_values() {
    assert_eq!(code(&["estimate", "step"], &[]), Some(0));
    assert_eq!(code(&["estimate", "allreduce", "--bytes", "1GiB"], &[]), Some(0));
    assert_eq!(code(&["estimate", "catalog"], &[]), Some(0));
    // Values the model rejects, flags clap rejects, a missing --report file; --exit-zero hides none of them.
    for exit_zero in [&[][..], &["--exit-zero"][..]] {
        for args in [
            &["estimate", "step", "--overlap", "2"][..],
            &["estimate", "step", "--fabric", "pigeon"][..],
            &["estimate", "step", "--report", "/nonexistent/node.json"][..],
            &["estimate", "allreduce", "--bytes", "0"][..],
            &["estimate", "teleport"][..],
        ] {
            assert_eq!(code(&[args, exit_zero].concat(), &[]), Some(2), "{args:?} {exit_zero:?}");
        }
    }
}

#[test]
fn report_gather_and_schema_exit_0_whenever_they_wrote_and_2_for_bad_inputs() {
    // Warnings are data in the report, not findings: a garbage tree still exits 0.
    for fixture in ["h100-ib-8x400", "garbage", "missing"] {
        assert_eq!(code(&["report", "--root"], &[&node(fixture)]), Some(0), "{fixture}");
    }
    assert_eq!(code(&["schema"], &[]), Some(0));
    assert_eq!(code(&["report", "--root", "/nonexistent/tree"], &[]), Some(2));
    let root = node("h100-ib-8x400");
    assert_eq!(code(&["report", "--root"], &[&root, Path::new("--attach"), &repo("Cargo.toml")]), Some(2));
    assert_eq!(code(&["report", "--root"], &[&root, Path::new("--attach"), Path::new("/nonexistent")]), Some(2));
    let dir = temp("gather");
    let archive = dir.join("node.tar.gz");
    assert_eq!(code(&["gather", "--root"], &[&root, Path::new("--output"), &archive]), Some(0));
    let nowhere = dir.join("no/such/dir/node.tar.gz");
    assert_eq!(code(&["gather", "--root"], &[&root, Path::new("--output"), &nowhere]), Some(2));
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn import_exits_2_when_a_file_cannot_be_read_or_recognised() {
    let log = data("tool-outputs", "nccl_05");
    assert_eq!(code(&["import"], &[&log]), Some(0));
    for bad in [repo("Cargo.toml"), PathBuf::from("/nonexistent/run.log"), repo("tests/data")] {
        assert_eq!(code(&["import"], &[&log, &bad]), Some(2), "{}", bad.display());
        assert_eq!(code(&["import", "--exit-zero"], &[&log, &bad]), Some(2), "{}", bad.display());
    }
    assert_eq!(code(&["import"], &[]), Some(2), "no file");
}

#[test]
fn health_exits_1_on_a_finding_and_exit_zero_turns_only_that_into_0() {
    let healthy = data("nccl-tests/raw", "wutz-h100-2node-8x400ib");
    let unhealthy = data("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-ring");
    let log = data("tool-outputs", "nccl_02");
    let health = ["health", "--algo", "ring"];
    let on = |extra: &[&'static str]| [&health[..], &HARDWARE[..], extra].concat();
    assert_eq!(code(&on(&[]), &[&healthy]), Some(0), "healthy");
    assert_eq!(code(&on(&[]), &[&unhealthy, &log]), Some(1), "unhealthy");
    assert_eq!(code(&on(&["--json"]), &[&unhealthy, &log]), Some(1), "unhealthy, as JSON");
    assert_eq!(code(&on(&["--exit-zero"]), &[&unhealthy, &log]), Some(0), "unhealthy, --exit-zero");
    assert_eq!(code(&["--exit-zero", "health", "--adapters", "8", "--link-gbps", "25"], &[&healthy]), Some(0));
    assert_eq!(code(&["health", "--adapters", "8", "--link-gbps", "25"], &[&healthy]), Some(1), "mismatch");
    // Input errors: a missing file, a file that is not a tool output, no run, a bad --report; never hidden.
    for exit_zero in [&[][..], &["--exit-zero"][..]] {
        let args = on(exit_zero);
        assert_eq!(code(&args, &[&unhealthy, Path::new("/nonexistent/nccl.log")]), Some(2));
        assert_eq!(code(&args, &[&unhealthy, &repo("Cargo.toml")]), Some(2));
        assert_eq!(code(&args, &[&log]), Some(2), "no nccl-tests output");
        assert_eq!(code(&[&health[..], exit_zero, &["--report", "/nonexistent.json"]].concat(), &[&healthy]), Some(2));
    }
}

#[test]
fn health_refuses_a_second_run_naming_both_files_and_says_what_it_leaves_out() {
    let a = data("nccl-tests/raw", "wutz-h100-2node-8x400ib");
    let b = data("nccl-tests/raw", "nccl-tests-290-h100-2node-ndr-ring");
    let (code, _, err) = run(cli().args(["health"]).args(HARDWARE).arg(&a).arg(&b));
    assert_eq!(code, Some(2), "{err}");
    for f in [&a, &b] {
        assert!(err.contains(&f.display().to_string()), "{} not named in: {err}", f.display());
    }
    // Two logs are as ambiguous as two runs.
    let (code, _, err) = run(cli()
        .args(["health"])
        .args(HARDWARE)
        .arg(&b)
        .arg(data("tool-outputs", "nccl_02"))
        .arg(data("tool-outputs", "nccl_03")));
    assert!(code == Some(2) && err.contains("two NCCL logs"), "{code:?}: {err}");
    // A file health does not read is not silently dropped: it is left out with a warning.
    let ibstat = data("tool-outputs", "ibstat_01");
    let (code, _, err) = run(cli().args(["health", "--algo", "ring"]).args(HARDWARE).arg(&a).arg(&ibstat));
    assert!(code == Some(0) && err.contains("ibstat") && err.contains("left out"), "{code:?}: {err}");
}

#[test]
fn check_run_exits_1_when_the_run_is_off_and_2_for_a_bad_measurement() {
    let job = |extra: &[&'static str]| [&CHECK_JOB[..5], &HARDWARE[..], extra].concat();
    assert_eq!(code(&job(&["--measured-step-s", "1.3"]), &[]), Some(0), "as expected");
    assert_eq!(code(&job(&["--measured-step-s", "9"]), &[]), Some(1), "slower");
    assert_eq!(code(&job(&["--measured-step-s", "0.5"]), &[]), Some(1), "faster");
    assert_eq!(code(&[&["--exit-zero"][..], &job(&["--measured-step-s", "9"])].concat(), &[]), Some(0));
    for (extra, flag) in [
        (&[][..], "--measured-step-s"),
        (&["--measured-step-s", "-1"][..], "--measured-step-s"),
        (&["--measured-samples-per-s", "10"][..], "--samples-per-step"),
        (&["--measured-step-s", "2", "--measured-tokens-per-s", "1e6"][..], "--measured-step-s"),
    ] {
        let (got, _, err) = run(cli().args(job(extra)));
        assert_eq!(got, Some(2), "{extra:?}: {err}");
        assert!(err.contains(flag), "{extra:?}: {err}");
    }
    let (got, _, err) = run(cli().args(job(&["--measured-step-s", "9"])).arg(repo("Cargo.toml")));
    assert!(got == Some(2) && err.contains("Cargo.toml"), "{got:?}: {err}");
}

#[test]
fn plan_exits_0_for_an_answer_and_2_for_bad_values_naming_them() {
    assert_eq!(code(&["plan", "--tokens", "1B", "--max-nodes", "2", "--only", "aws-p5.48xlarge"], &[]), Some(0));
    assert_eq!(code(&["plan", "--list"], &[]), Some(0));
    for (args, named) in [
        (&["plan"][..], "--tokens"),
        (&["plan", "--tokens", "0"][..], "--tokens"),
        (&["plan", "--tokens", "1T", "--deadline", "30"][..], "--deadline"),
        (&["plan", "--tokens", "1T", "--max-nodes", "0"][..], "--max-nodes"),
        (&["plan", "--tokens", "1T", "--price", "aws-p5.48xlarge"][..], "--price"),
        (&["plan", "--tokens", "1T", "--price", "aws-p5.48xlarge=-2"][..], "--price"),
        (&["plan", "--tokens", "1T", "--only", "no-such-offer"][..], "--only"),
        (&["plan", "--tokens", "1T", "--prices", "/nonexistent/prices.csv"][..], "--prices"),
        (&["plan", "--tokens", "1T", "--batch", "per-node"][..], "--batch"),
        (&["plan", "--tokens", "1T", "--batch", "per-gpu", "--batch-gpus", "0"][..], "--batch-gpus"),
        (&["plan", "--tokens", "1T", "--batch-gpus", "8"][..], "--batch-gpus"),
    ] {
        let (got, _, err) = run(cli().args(args));
        assert_eq!(got, Some(2), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
    // The batch rule is said, and without a deadline the fastest count beside the fewest GPU-hours.
    let o = cli().args(["plan", "--tokens", "1T", "--only", "aws-p5.48xlarge", "--batch", "per-gpu"]).output();
    let o = o.expect("probe-cli runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("on 16 GPUs; the tokens per GPU kept on every node count"), "{out}");
    assert!(out.contains("Faster on more nodes") && out.contains("aws-p5.48xlarge: 64 nodes"), "{out}");
    // A CSV whose third line is wrong names the line and the column.
    let dir = temp("plan-bad");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let csv = dir.join("quotes.csv");
    std::fs::write(&csv, "id,usd_per_gpu_hour\naws-p5.48xlarge,3.9\nazure-nd96isr-h100-v5,lots\n").expect("write");
    let (got, _, err) = run(cli().args(["plan", "--tokens", "1T", "--prices"]).arg(&csv));
    assert!(got == Some(2) && err.contains("line 3, usd_per_gpu_hour"), "{got:?}: {err}");
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn help_and_version_exit_0() {
    for args in [
        &["--help"][..],
        &["--version"][..],
        &["health", "--help"][..],
        &["estimate", "step", "--help"][..],
        &["check-run", "--help"][..],
        &["plan", "--help"][..],
    ] {
        assert_eq!(code(args, &[]), Some(0), "{args:?}");
    }
    assert_eq!(code(&[], &[]), Some(2), "no command");
}

/// `fleet`: outliers are findings (exit 1), a fleet without one is clean (0), a bad file is named on stderr and
/// skipped, and nothing to read is an input error (2). The JSON keys the issue spells out (`nodes`, `groups`,
/// `outliers[].node/field/value/expected`) are pinned.
#[test]
fn fleet_names_the_odd_node_and_skips_what_is_not_a_report() {
    let dir = std::env::temp_dir().join(format!("probe-cli-fleet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nodes");
    for i in 0..4 {
        std::fs::copy(fixtures.join("h100-ib-8x400.json"), dir.join(format!("gpu-{i}.json"))).expect("copy");
    }
    let v = document(cli().args(["fleet", "--json"]).arg(&dir), 0);
    assert_eq!((v["nodes"].as_u64(), v["outliers"].as_array().map(Vec::len)), (Some(4), Some(0)));
    // An empty file, as a node whose probe failed leaves behind: a finding too.
    std::fs::write(dir.join("gpu-8.json"), "").expect("write");
    let (code, _, err) = run(cli().args(["fleet", "--json"]).arg(&dir));
    assert_eq!(code, Some(1), "a report that is not there is a finding: {err}");
    std::fs::remove_file(dir.join("gpu-8.json")).expect("rm");
    std::fs::copy(fixtures.join("h100-ib-port-down.json"), dir.join("gpu-9.json")).expect("copy");
    std::fs::write(dir.join("notes.json"), "{ not a report").expect("write");
    std::fs::write(dir.join("readme.txt"), "not a json file, not read").expect("write");
    let (code, v, err) = run(cli().args(["fleet", "--json"]).arg(&dir));
    assert_eq!(code, Some(1), "{err}");
    let v = v.expect("json");
    assert!(err.contains("notes.json: skipped: report: not JSON"), "{err}");
    assert_eq!(v["skipped"][0]["file"].as_str().map(|f| f.ends_with("notes.json")), Some(true));
    let outliers = v["outliers"].as_array().expect("outliers");
    assert!(outliers.iter().all(|o| o["node"] == "gpu-9"), "{outliers:?}");
    assert!(outliers.iter().any(|o| o["field"] == "rdma_ports" && o["value"] == "7" && o["expected"] == "8"));
    assert_keys("fleet", &v);
    let text = cli().arg("fleet").arg(&dir).output().expect("runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Fleet    5 node(s), 1 shape(s)") && text.contains("gpu-9  nic_pcie_width"), "{text}");
    let (code, _, err) = run(cli().args(["fleet"]).arg(dir.join("notes.json")));
    assert_eq!(code, Some(2));
    assert!(err.contains("no report among the 1 file(s)"), "{err}");
    std::fs::remove_dir_all(dir).expect("cleanup");
}
