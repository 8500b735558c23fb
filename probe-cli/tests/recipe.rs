//! `probe-cli recipe` on the fixture nodes' reports (InfiniBand, RoCE, EFA, TCPXO, sockets): each output against its
//! golden file, `probe-cli/tests/golden/recipe-<node>.sh` (`UPDATE_SNAPSHOTS=1 cargo test -p probe-cli --test recipe`
//! rewrites them; review the diff), and every script through `bash -n`.

mod common;

use std::path::PathBuf;
use std::process::Command as Process;

use common::{cli, repo};
use serde_json::Value;

const NODES: [&str; 5] = ["h100-ib-8x400", "roce-2x200", "aws-p5-efa", "gcp-a3mega-tcpxo", "eth-25g"];

fn report(node: &str) -> PathBuf {
    repo(&format!("tests/fixtures/nodes/{node}.json"))
}

fn hosts() -> PathBuf {
    repo("probe-cli/tests/golden/hosts.txt")
}

fn recipe(args: &[&str]) -> (String, Option<i32>) {
    let out = cli().arg("recipe").args(args).output().expect("runs");
    assert!(out.stderr.is_empty() || !out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code())
}

/// `bash -n`: the script parses (the shell syntax of every line it prints).
fn parses(script: &str) -> Result<(), String> {
    let mut child = Process::new("bash")
        .arg("-n")
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("bash: {e}"))?;
    use std::io::Write as _;
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

#[test]
fn every_fabric_matches_its_golden_script_and_parses() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    for node in NODES {
        let r = report(node);
        let h = hosts();
        let (text, code) = recipe(&["--report", r.to_str().expect("utf-8"), "--hosts", h.to_str().expect("utf-8")]);
        assert_eq!(code, Some(0), "{node}");
        parses(&text).unwrap_or_else(|e| panic!("{node}: bash -n: {e}\n{text}"));
        let golden = repo(&format!("probe-cli/tests/golden/recipe-{node}.sh"));
        if update {
            std::fs::write(&golden, &text).expect("write golden");
            continue;
        }
        let want = std::fs::read_to_string(&golden)
            .unwrap_or_else(|_| panic!("{} missing: UPDATE_SNAPSHOTS=1", golden.display()));
        assert!(
            text == want,
            "{node}: recipe differs from {} (UPDATE_SNAPSHOTS=1 to accept)\n{text}",
            golden.display()
        );
    }
}

#[test]
fn each_fabric_gets_its_own_environment() {
    let env = |node: &str| -> Vec<(String, String)> {
        let r = report(node);
        let (text, _) = recipe(&["--report", r.to_str().expect("utf-8"), "--json"]);
        let v: Value = serde_json::from_str(&text).expect("json");
        v["env"]
            .as_array()
            .expect("env")
            .iter()
            .map(|e| (e["name"].as_str().unwrap_or("").to_string(), e["value"].as_str().unwrap_or("").to_string()))
            .collect()
    };
    let has = |vars: &[(String, String)], name: &str| vars.iter().any(|(n, _)| n == name);
    let ib = env("h100-ib-8x400");
    assert!(has(&ib, "NCCL_IB_HCA") && !has(&ib, "FI_PROVIDER"), "{ib:?}");
    let efa = env("aws-p5-efa");
    assert!(has(&efa, "FI_PROVIDER") && !has(&efa, "NCCL_IB_HCA"), "{efa:?}");
    let tcpxo = env("gcp-a3mega-tcpxo");
    assert!(has(&tcpxo, "NCCL_FASTRAK_IFNAME") && has(&tcpxo, "NCCL_FASTRAK_CTRL_DEV"), "{tcpxo:?}");
    let sock = env("eth-25g");
    assert_eq!(sock.iter().find(|(n, _)| n == "NCCL_SOCKET_IFNAME").map(|(_, v)| v.as_str()), Some("=ens1f0,ens1f1"));
}

#[test]
fn roce_sets_the_gid_index_only_before_nccl_2_21_5() {
    let r = report("roce-2x200");
    let r = r.to_str().expect("utf-8");
    let (old, _) = recipe(&["--report", r, "--nccl-version", "2.20.5"]);
    let (new, _) = recipe(&["--report", r, "--nccl-version", "2.21.5"]);
    assert!(old.contains("export NCCL_IB_GID_INDEX="), "{old}");
    assert!(!new.contains("export NCCL_IB_GID_INDEX=") && new.contains("pick the RoCE v2 GID"), "{new}");
}

#[test]
fn bad_inputs_are_errors_that_name_the_line_or_the_flag() {
    let dir = common::temp("recipe", "hosts");
    let bad = dir.join("hosts.txt");
    std::fs::write(&bad, "node01\nnode02; reboot\n").expect("write");
    let r = report("h100-ib-8x400");
    let out = cli().args(["recipe", "--report"]).arg(&r).arg("--hosts").arg(&bad).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("hosts.txt") && e.contains("line 2"), "{e}");
    let out = cli().args(["recipe", "--adapters", "8", "--link-gbps", "400"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fabric"));
    let out = cli().args(["recipe", "--fabric", "ib", "--nccl-version", "new"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("X.Y.Z"));
}

#[test]
fn flags_alone_write_a_recipe_for_gcp_with_googles_interface_names() {
    let (text, code) = recipe(&["--fabric", "tcpxo", "--gpus-per-node", "8", "--adapters", "8", "--link-gbps", "200"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("NCCL_FASTRAK_IFNAME='enp6s0,enp7s0,enp13s0,enp14s0,enp134s0,enp135s0,enp141s0,enp142s0'"));
    parses(&text).expect("parses");
}
