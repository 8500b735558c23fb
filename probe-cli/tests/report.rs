//! probe-cli report, gather, schema and estimate --report, end to end on the captured node trees in
//! tests/fixtures/nodes (written by its generate.py from real layouts) and on this machine itself.
//!
//! Each fixture's JSON is compared with its snapshot, tests/fixtures/nodes/<name>.json; after a deliberate change,
//! `UPDATE_SNAPSHOTS=1 cargo test -p probe-cli --test report` rewrites them (review the diff).

mod common;

use std::path::{Path, PathBuf};

use common::{cli, node as fixture};
use serde_json::Value;

const FIXTURES: [&str; 12] = [
    "h100-ib-8x400",
    "h100-ib-port-down",
    "roce-2x200",
    "eth-25g",
    "gb200-tray",
    "gb200-tray-fabric-pending",
    "laptop",
    "garbage",
    "missing",
    "h200-vm",
    "aws-p5-efa",
    "gcp-a3mega-tcpxo",
];

fn temp(name: &str) -> PathBuf {
    common::temp("report", name)
}

/// `report --root DIR --json` with the root replaced by a placeholder, so snapshots do not depend on the checkout.
fn report(root: &Path, extra: &[&str]) -> Value {
    let out = cli().arg("report").arg("--root").arg(root).arg("--json").args(extra).output().expect("runs");
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    v["source"]["root"] = Value::String("<root>".into());
    v
}

fn summary(name: &str) -> Value {
    report(&fixture(name), &[])["summary"].clone()
}

#[test]
fn every_fixture_matches_its_snapshot_and_reads_back() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    for name in FIXTURES {
        let v = report(&fixture(name), &[]);
        // The page and `estimate --report` accept what the probe writes.
        estimator_core::report::check_version(&v).expect("version");
        estimator_core::report::read_head(&v).unwrap_or_else(|e| panic!("{name}: {e}"));
        let _: estimator_core::Report = serde_json::from_value(v.clone()).expect("whole report deserializes");
        let snap = fixture(name).with_extension("json");
        let text = serde_json::to_string_pretty(&v).expect("json") + "\n";
        if update {
            std::fs::write(&snap, &text).expect("write snapshot");
            continue;
        }
        let want =
            std::fs::read_to_string(&snap).unwrap_or_else(|_| panic!("{} missing: UPDATE_SNAPSHOTS=1", snap.display()));
        assert!(text == want, "{name}: report differs from {} (UPDATE_SNAPSHOTS=1 to accept)\n{text}", snap.display());
    }
}

#[test]
fn summaries_say_what_each_node_offers() {
    let s = summary("h100-ib-8x400");
    assert_eq!(
        s,
        serde_json::json!({"fabric": "infiniband", "rdma_adapters": 8, "adapter_gbps": 400.0, "ethernet_ports": 1,
                           "gpus": 8, "gpu_model": "NVIDIA H100 80GB HBM3", "gdr": "supported",
                           "nvlink_domain_gpus": null})
    );
    let s = summary("h100-ib-port-down");
    assert_eq!((s["rdma_adapters"].as_u64(), s["fabric"].as_str()), (Some(7), Some("infiniband")));
    let s = summary("roce-2x200");
    assert_eq!(
        s,
        serde_json::json!({"fabric": "roce", "rdma_adapters": 2, "adapter_gbps": 200.0, "ethernet_ports": 2,
                           "gpus": 4, "gpu_model": "NVIDIA L40S", "gdr": "unknown",
                           "nvlink_domain_gpus": null})
    );
    let s = summary("eth-25g");
    assert_eq!(
        s,
        serde_json::json!({"fabric": "ethernet", "rdma_adapters": 0, "adapter_gbps": 25.0, "ethernet_ports": 2,
                           "gpus": 8, "gpu_model": "NVIDIA A100-SXM4-40GB", "gdr": "not-supported",
                           "nvlink_domain_gpus": null})
    );
    for name in ["laptop", "missing"] {
        let s = summary(name);
        assert_eq!(
            (s["fabric"].as_str(), s["gpus"].as_u64(), s["gdr"].as_str()),
            (Some("none"), Some(0), Some("not-supported")),
            "{name}"
        );
    }
}

#[test]
fn affinity_matches_nvidia_smi_topo_for_the_same_shape() {
    // tests/data/tool-outputs/nvidia-smi-topo-m_01_...: GPUi's own NIC is PIX, the others in its socket NODE, the
    // rest SYS. The fixture's nearest-NIC classes must read the same.
    let topo = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/tool-outputs/nvidia-smi-topo-m_01_sglang-30401_8xH100_8xmlx5.txt"),
    )
    .expect("topo output");
    let v = report(&fixture("h100-ib-8x400"), &[]);
    let aff = v["affinity"].as_array().expect("affinity");
    assert_eq!(aff.len(), 8);
    for row in topo.lines().filter(|l| l.starts_with("GPU")) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        let Some(gpu) = cells[0].strip_prefix("GPU").and_then(|n| n.parse::<usize>().ok()) else { continue };
        // Columns: GPU0..7 then NIC0..7.
        let nics = &cells[9..17];
        let (nic, class) = nics
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| ["PIX", "PXB", "PHB", "NODE", "SYS"].iter().position(|x| x == *c))
            .expect("nics");
        assert_eq!(aff[gpu]["nic"], format!("mlx5_{nic}"), "GPU{gpu}");
        assert_eq!(aff[gpu]["class"], *class, "GPU{gpu}");
        assert_eq!(aff[gpu]["gdr_distance_ok"], true);
    }
    let roce = report(&fixture("roce-2x200"), &[]);
    let classes: Vec<&str> =
        roce["affinity"].as_array().expect("affinity").iter().map(|a| a["class"].as_str().expect("class")).collect();
    assert_eq!(classes, ["PXB", "PXB", "NODE", "NODE"]);
    assert_eq!(roce["affinity"][2]["nccl_path"], "PHB");
}

#[test]
fn roce_ports_read_as_ibstat_prints_the_same_adapters() {
    // ibstat_01 (Mooncake #1999): two ConnectX-7 (MT4129, fw 28.39.1002) Active/LinkUp at Rate 200 on Ethernet,
    // and a ConnectX-6 Dx (MT4125) Down/Disabled.
    let ibstat = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/tool-outputs/ibstat_01_mooncake-1999_cx7_roce200_EXCERPT.txt"),
    )
    .expect("ibstat output");
    assert!(
        ibstat.contains("CA type: MT4129") && ibstat.contains("Rate: 200") && ibstat.contains("Link layer: Ethernet")
    );
    let v = report(&fixture("roce-2x200"), &[]);
    let a = v["rdma_adapters"].as_array().expect("adapters");
    for (i, want) in [("ACTIVE", "LinkUp", 200.0), ("ACTIVE", "LinkUp", 200.0)].iter().enumerate() {
        let p = &a[i]["ports"][0];
        assert_eq!(
            (p["state"].as_str(), p["phys_state"].as_str(), p["rate_gbps"].as_f64()),
            (Some(want.0), Some(want.1), Some(want.2))
        );
        assert_eq!((a[i]["hca_type"].as_str(), a[i]["fw_ver"].as_str()), (Some("MT4129"), Some("28.39.1002")));
        assert_eq!(p["link_layer"], "Ethernet");
        assert_eq!(p["roce_v2_gid_index"], 3);
    }
    let down = &a[2]["ports"][0];
    assert_eq!(
        (down["state"].as_str(), down["phys_state"].as_str(), down["active"].as_bool()),
        (Some("DOWN"), Some("Disabled"), Some(false))
    );
    assert_eq!(a[2]["hca_type"], "MT4125");
}

#[test]
fn identifiers_are_redacted_unless_asked_for() {
    let secrets = ["h100-node-17", "a088:c203", "GPU-5f7c3a1e", "3c:ec:ef", "1652321000"];
    let plain = report(&fixture("h100-ib-8x400"), &[]).to_string();
    for s in secrets {
        assert!(!plain.contains(s), "{s} leaked");
    }
    assert!(plain.contains("\"redacted\""));
    let full = report(&fixture("h100-ib-8x400"), &["--include-identifiers"]).to_string();
    for s in secrets {
        assert!(full.contains(s), "{s} missing with --include-identifiers");
    }
}

#[test]
fn garbage_and_missing_trees_become_warnings_and_exit_zero() {
    let v = report(&fixture("garbage"), &[]);
    let warnings: Vec<String> = v["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| format!("{}: {}", w["source"].as_str().unwrap_or(""), w["message"].as_str().unwrap_or("")))
        .collect();
    for expected in [
        "/sys/bus/pci/devices/0000:00:01.0/vendor: expected a hex vendor id, found \"0xZZZZ\"",
        "/sys/class/net/loop-a: too many levels of symbolic links",
        "/sys/class/infiniband/weird0/ports/1/rate: not a regular file",
        "/sys/class/infiniband/weird0/ports/1/state: expected a port state",
        "/proc/sys/kernel/osrelease: not text",
    ] {
        assert!(warnings.iter().any(|w| w.starts_with(expected)), "{expected} not in {warnings:#?}");
    }
    assert!(v["nvml"]["error"].as_str().expect("nvml error").contains("not NVML facts"));
    let v = report(&fixture("missing"), &[]);
    assert_eq!(v["warnings"].as_array().map(Vec::len), Some(4), "{}", v["warnings"]);
    // A root that is not a directory is a usage error, not a report.
    cli().args(["report", "--root", "/nonexistent/tree"]).assert().code(2);
}

#[test]
fn this_machine_reports_what_it_lacks_and_exits_zero() {
    let out = cli()
        .args(["report", "--json"])
        .env("PROBE_CLI_IBVERBS_LIB", "/nonexistent/libibverbs.so.1")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["source"]["live"], true);
    assert_eq!(v["verbs"]["available"], false);
    assert!(v["verbs"]["error"].as_str().expect("error").contains("libibverbs.so.1"), "{}", v["verbs"]);
    if !Path::new("/dev/nvidiactl").exists() {
        assert_eq!(v["nvml"]["available"], false);
        assert!(v["nvml"]["error"].as_str().expect("error").contains("libnvidia-ml"), "{}", v["nvml"]);
    }
    // With the system's libibverbs (if installed): an answer either way, never a crash.
    cli().args(["report"]).assert().success();
}

#[test]
fn the_binary_does_not_link_libibverbs_or_nvml() {
    let bin = assert_cmd::cargo::cargo_bin("probe-cli");
    let Ok(out) = std::process::Command::new("ldd").arg(&bin).output() else { return };
    let libs = String::from_utf8_lossy(&out.stdout);
    assert!(!libs.contains("libibverbs") && !libs.contains("libnvidia-ml") && !libs.contains("librdmacm"), "{libs}");
}

#[test]
fn gather_captures_what_report_reads_and_scrubs_identifiers() {
    let dir = temp("gather");
    let archive = dir.join("node.tar.gz");
    cli().args(["gather", "--root"]).arg(fixture("h100-ib-8x400")).arg("--output").arg(&archive).assert().success();
    let tree = dir.join("node");
    std::fs::create_dir_all(&tree).expect("dir");
    let ok =
        std::process::Command::new("tar").arg("-xzf").arg(&archive).arg("-C").arg(&tree).status().expect("tar runs");
    assert!(ok.success());
    // The capture reproduces the report.
    assert_eq!(report(&tree, &[]), report(&fixture("h100-ib-8x400"), &[]));
    // ... and holds no identifier even when the report is asked for them.
    let full = report(&tree, &["--include-identifiers"]).to_string();
    for s in ["h100-node-17", "a088:c203", "GPU-5f7c3a1e", "3c:ec:ef"] {
        assert!(!full.contains(s), "{s} in the capture");
    }
    // The capture holds no file the probe did not read (cap_mask and hw_rev are there, unread).
    assert!(!tree.join("sys/class/infiniband/mlx5_0/ports/1/cap_mask").exists());
    assert!(tree.join("sys/class/infiniband/mlx5_0/ports/1/rate").exists());
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn schema_describes_the_report() {
    let out = cli().arg("schema").output().expect("runs");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["$schema"].as_str().is_some_and(|s| s.contains("json-schema.org")));
    let summary = serde_json::to_string(&v).expect("json");
    for key in
        ["schema_version", "fabric", "rdma_adapters", "adapter_gbps", "gpu_model", "gdr", "not-supported", "infiniband"]
    {
        assert!(summary.contains(key), "{key} not in the schema");
    }
    // Every key a real report has is a property of the schema, and the required ones are there.
    let report = report(&fixture("h100-ib-8x400"), &[]);
    let props = v["properties"].as_object().expect("properties");
    for key in report.as_object().expect("object").keys() {
        assert!(props.contains_key(key), "{key} is not in the schema");
    }
    let required: Vec<&str> = v["required"].as_array().expect("required").iter().filter_map(Value::as_str).collect();
    assert!(required.contains(&"schema_version") && required.contains(&"summary"), "{required:?}");
}

fn write_report(dir: &Path, name: &str, v: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, v.to_string()).expect("write");
    p
}

/// A GB200 NVL72 tray whose GPUs have joined the rack's NVLink fabric fills the domain; the same tray before the
/// fabric manager finished does not, and says why.
#[test]
fn a_gb200_tray_report_fills_the_nvlink_domain() {
    let s = summary("gb200-tray");
    assert_eq!(
        (s["gpus"].as_u64(), s["gpu_model"].as_str(), s["nvlink_domain_gpus"].as_u64(), s["gdr"].as_str()),
        (Some(4), Some("NVIDIA GB200"), Some(72), Some("supported"))
    );
    let r = report(&fixture("gb200-tray"), &[]);
    assert_eq!(r["gpus"][0]["nvlink_fabric"]["state"].as_str(), Some("completed"));
    assert_eq!(r["gpus"][0]["nvlink_fabric"]["cluster_uuid"].as_str(), Some("redacted"), "an identifier");
    assert_eq!(r["affinity"][0]["nccl_path"].as_str(), Some("P2C"), "Grace: GPU to NIC over NVLink-C2C");
    let pending = report(&fixture("gb200-tray-fabric-pending"), &[]);
    assert!(pending["summary"]["nvlink_domain_gpus"].is_null());
    let warned =
        pending["warnings"].as_array().expect("warnings").iter().any(|w| {
            w["message"].as_str().is_some_and(|m| m.contains("fabric is not ready") && m.contains("in-progress"))
        });
    assert!(warned, "{}", pending["warnings"]);
    // `estimate step --report` takes the domain: 16 trays are one NVLink domain, nothing crosses the NICs.
    let dir = temp("gb200");
    let node = write_report(&dir, "tray.json", &r);
    let out = cli()
        .args(["estimate", "step", "--params", "70B", "--nodes", "16", "--json", "--report"])
        .arg(&node)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((v["input"]["gpu"].as_str(), v["input"]["nvlink_domain_gpus"].as_i64()), (Some("gb200"), Some(72)));
    let traffic = v["traffic"].as_array().expect("traffic");
    assert!(traffic.iter().all(|t| t["tier"] == "nvlink-domain" && t["network_bytes_per_gpu"] == 0.0), "{traffic:?}");
    assert!(
        v["from_report"]
            .as_array()
            .expect("lines")
            .iter()
            .any(|l| l.as_str().is_some_and(|l| l.contains("NVLink domain: 72")))
    );
    // The flag wins over the report: trays of their own send the ring over the NICs.
    let out = cli()
        .args([
            "estimate",
            "step",
            "--params",
            "70B",
            "--nodes",
            "16",
            "--json",
            "--nvlink-domain-gpus",
            "4",
            "--report",
        ])
        .arg(&node)
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["traffic"].as_array().expect("traffic").iter().any(|t| t["tier"] == "network"));
}

#[test]
fn estimate_step_takes_the_hardware_from_a_report() {
    let dir = temp("estimate");
    let node = write_report(&dir, "node.json", &report(&fixture("h100-ib-8x400"), &[]));
    let out = cli()
        .args(["estimate", "step", "--params", "70B", "--nodes", "2", "--json", "--report"])
        .arg(&node)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let i = &v["input"];
    assert_eq!(
        (i["gpu"].as_str(), i["gpus_per_node"].as_i64(), i["adapters_per_node"].as_i64()),
        (Some("h100-sxm"), Some(8), Some(8))
    );
    assert_eq!(
        (i["link_gbps"].as_f64(), i["fabric"].as_str(), i["gdr"].as_bool()),
        (Some(400.0), Some("infiniband"), Some(true))
    );
    assert!(v["from_report"][0].as_str().expect("lines").contains("H100"));
    // Text mode says what it took.
    let text = cli()
        .args(["estimate", "step", "--params", "70B", "--nodes", "2", "--report"])
        .arg(&node)
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&text.stdout).contains("Network: 8 active InfiniBand ports at 400 Gb/s"));

    let eth = write_report(&dir, "eth.json", &report(&fixture("eth-25g"), &[]));
    let out = cli().args(["estimate", "step", "--nodes", "2", "--json", "--report"]).arg(&eth).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((v["input"]["fabric"].as_str(), v["input"]["link_gbps"].as_f64()), (Some("tcp"), Some(25.0)));
    std::fs::remove_dir_all(dir).expect("cleanup");
}

/// The one tree captured from a real node (`gather` on a cloud VM with one H200, NVML answering, no RDMA): the
/// report says what it has, and the estimate from it neither picks HSDP over one GPU (DDP under another name) nor
/// speaks of NVLink on a node of one GPU.
#[test]
fn a_captured_one_gpu_vm_reports_and_estimates_as_what_it_is() {
    let v = report(&fixture("h200-vm"), &[]);
    assert_eq!(
        v["summary"],
        serde_json::json!({"fabric": "ethernet", "rdma_adapters": 0, "adapter_gbps": null, "ethernet_ports": 1,
                           "gpus": 1, "gpu_model": "NVIDIA H200", "gdr": "not-supported",
                           "nvlink_domain_gpus": null})
    );
    assert_eq!(
        (v["nvml"]["available"].as_bool(), v["nvml"]["driver_version"].as_str()),
        (Some(true), Some("580.159.04"))
    );
    assert_eq!(v["environment"]["iommu"], "off", "the IOMMU group folder is there and empty (EMPTY-DIRS)");
    let dir = temp("h200-vm");
    let node = write_report(&dir, "node.json", &v);
    // 5B: DDP's 20 bytes per parameter fit the H200 (7B's 140 GB do not, beside the activations).
    let out = cli()
        .args(["estimate", "step", "--params", "5B", "--nodes", "2", "--report"])
        .arg(&node)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        !text.contains("HSDP") && !err.contains("HSDP"),
        "HSDP over one GPU is not a layout to choose:\n{err}{text}"
    );
    assert!(text.contains("Layout DDP, chosen"), "{text}");
    assert!(text.contains("On one node of 1 GPU (") && !text.contains("1 GPUs"), "{text}");
    assert!(text.contains("one GPU there is nothing to synchronise") && !text.contains("NVLink/NVSwitch"), "{text}");
    // The command the text report suggests fits two of this node (70B would not: 16 bytes per parameter of
    // model states on two 141 GB GPUs).
    let out = cli().arg("report").arg("--root").arg(fixture("h200-vm")).output().expect("runs");
    let hint = String::from_utf8_lossy(&out.stdout);
    assert!(hint.contains("--params 13B --nodes 2"), "{hint}");
    let out = cli().arg("report").arg("--root").arg(fixture("h100-ib-8x400")).output().expect("runs");
    // 70B's activations (a generic 70B shape at 4,096-token sequences, 91 GB a GPU) need tensor parallelism or
    // recomputation, which the hint's plain layouts do not try: 13B.
    assert!(String::from_utf8_lossy(&out.stdout).contains("--params 13B --nodes 2"));
    // The same VM's own `nvidia-smi topo -m` (its header underlined with ANSI codes, as nvidia-smi prints it),
    // attached: the text report says so, and the JSON holds one GPU and no NIC.
    let topo = common::data("tool-outputs/nvidia-smi-topo-m_05_h200-vm-1gpu_this-project.txt");
    let out =
        cli().arg("report").arg("--root").arg(fixture("h200-vm")).arg("--attach").arg(&topo).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("Attached nvidia-smi-topo-m_05_h200-vm-1gpu_this-project.txt: nvidia-smi-topo,")),
        "{text}"
    );
    let v = report(&fixture("h200-vm"), &["--attach", topo.to_str().expect("utf-8 path")]);
    let a = &v["attachments"][0];
    assert_eq!((a["gpus"].as_u64(), a["nics"].as_array().map(Vec::len)), (Some(1), Some(0)), "{a}");
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn a_bad_report_file_gets_a_message_naming_the_problem() {
    let dir = temp("bad");
    let good = report(&fixture("h100-ib-8x400"), &[]);
    let mut v2 = good.clone();
    v2["schema_version"] = 2.into();
    let mut absurd = good.clone();
    absurd["summary"]["adapter_gbps"] = 1e9.into();
    let mut negative = good.clone();
    negative["summary"]["gpus"] = (-8).into();
    let big = dir.join("big.json");
    std::fs::write(&big, vec![b' '; (1 << 20) + 1]).expect("write");
    let notjson = dir.join("notes.txt");
    std::fs::write(&notjson, "GPU0 NV18 PIX\n").expect("write");
    let cases: Vec<(PathBuf, &str)> = vec![
        (notjson, "not JSON"),
        (write_report(&dir, "v2.json", &v2), "schema version 2"),
        (big, "1 MiB"),
        (write_report(&dir, "absurd.json", &absurd), "summary.adapter_gbps"),
        (write_report(&dir, "negative.json", &negative), "summary.gpus"),
        (write_report(&dir, "other.json", &serde_json::json!({"hello": 1})), "schema_version: missing"),
        (dir.join("absent.json"), "absent.json"),
    ];
    for (path, words) in cases {
        let out = cli().args(["estimate", "step", "--report"]).arg(&path).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", path.display());
        assert!(err.contains(words), "{}: {err}", path.display());
    }
    // The report replaces the hardware flags; both at once is a usage error.
    let node = write_report(&dir, "node.json", &good);
    cli().args(["estimate", "step", "--link-gbps", "25", "--report"]).arg(&node).assert().code(2);
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn the_text_report_reads_like_ibstat_plus_topo_in_a_few_lines() {
    let text = |name: &str| {
        let out = cli().arg("report").arg("--root").arg(fixture(name)).output().expect("runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let t = text("h100-ib-8x400");
    for line in [
        "Summary  8 x NVIDIA H100 80GB HBM3 | 8 x 400 Gb/s infiniband | GPUDirect RDMA supported",
        "  mlx5_0 port 1  ACTIVE LinkUp  InfiniBand  400 Gb/sec (4X NDR)  ibp25s0",
        "GDR      supported: peer-memory module nvidia_peermem is loaded (what NCCL checks)",
    ] {
        assert!(t.lines().any(|l| l == line), "no line {line:?} in\n{t}");
    }
    assert!(t.lines().any(|l| l.starts_with("  GPU7 ") && l.ends_with("nearest mlx5_7 PIX")), "{t}");
    assert!(t.lines().count() < 30, "a few lines, not a dump:\n{t}");
    let t = text("roce-2x200");
    assert!(t.contains("nearest mlx5_1 NODE (too far for GDR)") && t.contains("RoCE v2 GID 3"), "{t}");
    let t = text("garbage");
    assert!(t.contains("Warnings ") && t.contains("not a regular file"), "{t}");
}

/// A small deterministic generator (xorshift64*), so a failing case can be replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("dir").flatten() {
        let t = e.file_type().expect("type");
        if t.is_dir() {
            files_under(&e.path(), out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}

#[test]
fn garbled_copies_of_a_real_tree_never_crash_the_probe() {
    // 40 copies of the 8-GPU tree, each with a tenth of its files replaced by random bytes, emptied, cut short,
    // turned into a directory or removed: every run must exit 0 with one JSON report that the readers accept.
    let base = temp("garbled");
    for seed in 1..=40u64 {
        let tree = base.join(seed.to_string());
        let ok = std::process::Command::new("cp").arg("-a").arg(fixture("h100-ib-8x400")).arg(&tree).status();
        assert!(ok.is_ok_and(|s| s.success()), "cp -a");
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut files = Vec::new();
        files_under(&tree, &mut files);
        files.sort();
        for f in &files {
            if !rng.next().is_multiple_of(10) {
                continue;
            }
            match rng.next() % 5 {
                0 => {
                    let n = (rng.next() % 300) as usize;
                    let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                    std::fs::write(f, bytes).expect("write");
                }
                1 => std::fs::write(f, b"").expect("write"),
                2 => {
                    let text = std::fs::read(f).expect("read");
                    std::fs::write(f, &text[..text.len() / 2]).expect("write");
                }
                3 => {
                    std::fs::remove_file(f).expect("rm");
                    std::fs::create_dir(f).expect("mkdir");
                }
                _ => std::fs::remove_file(f).expect("rm"),
            }
        }
        let out = cli().arg("report").arg("--json").arg("--root").arg(&tree).output().expect("runs");
        assert!(
            out.status.success(),
            "seed {seed}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        estimator_core::report::read_head(&v)
            .unwrap_or_else(|e| panic!("seed {seed}: the summary does not read back: {e}"));
    }
    std::fs::remove_dir_all(base).expect("cleanup");
}

/// The node a fleet's launcher finds broken: the text says it is not ready, why, and the fix.
#[test]
fn the_text_output_says_whether_the_node_is_ready_and_what_to_fix() {
    let out = cli().args(["report", "--root"]).arg(fixture("h100-ib-port-down")).output().expect("runs");
    assert!(out.status.success(), "a report's problems are data");
    let text = String::from_utf8_lossy(&out.stdout);
    for part in [
        "Ready    no: 2 pass, 4 warn, 4 fail, 0 unknown",
        // Issue 39: the port that is down is said.
        "warn rdma-ports   1 of 8 RDMA port(s) not active: mlx5_3 port 1",
        "fail memlock      locked memory limited to 64 KiB",
        "fix: unset NCCL_IB_DISABLE",
        "fail pcie-nic     PCIe link trained narrower than it can: mlx5_4 x8 of x16",
    ] {
        assert!(text.contains(part), "{part} not in\n{text}");
    }
}

/// The live probe reads its own environment: the fabric's variables (addresses redacted), the locked-memory limit.
#[test]
fn the_live_probe_reads_the_fabric_variables_of_its_environment() {
    let out = cli()
        .arg("report")
        .arg("--json")
        .env("NCCL_IB_DISABLE", "1")
        .env("NCCL_COMM_ID", "10.1.2.3:5000")
        .env("UNRELATED_SECRET", "x")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let r: Value = serde_json::from_slice(&out.stdout).expect("json");
    let env = &r["environment"]["fabric_env"];
    assert_eq!(env["NCCL_IB_DISABLE"].as_str(), Some("1"));
    assert_eq!(env["NCCL_COMM_ID"].as_str(), Some("redacted"));
    assert!(env.get("UNRELATED_SECRET").is_none());
    assert!(r["environment"]["memlock"].as_str().is_some(), "/proc/self/limits is there on Linux");
    let checks = r["readiness"].as_array().expect("checks");
    let env_check = checks.iter().find(|c| c["id"] == "nccl-env").expect("nccl-env");
    assert!(env_check["saw"].as_str().is_some_and(|s| s.starts_with("NCCL_IB_DISABLE=1")), "{env_check}");
}

/// Issue 25, item 11: an NCCL_SOCKET_IFNAME on a 1 GbE port, which the model prices at 24x slower, fails the
/// node (it was a warning), and the estimate filled from the report says it assumes the fault away.
#[test]
fn a_fault_the_model_prices_above_2x_fails_and_the_estimate_assumes_it_fixed() {
    let out = cli().args(["report", "--json", "--root"]).arg(fixture("eth-25g")).output().expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let env = v["readiness"].as_array().expect("checks").iter().find(|c| c["id"] == "nccl-env").expect("nccl-env");
    assert_eq!(env["status"], "fail", "{env}");
    assert!(env["saw"].as_str().is_some_and(|s| s.contains("24.4x slower") && s.contains("more than 2x")), "{env}");
    let dir = common::temp("report", "assumed");
    let path = dir.join("eth.json");
    std::fs::write(&path, &out.stdout).expect("write");
    let out = cli().args(["estimate", "step", "--nodes", "2", "--report"]).arg(&path).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("assumed fixed: nccl-env (fail:") && text.contains("the node without it"), "{text}");
    let out = cli().args(["estimate", "step", "--nodes", "2", "--json", "--report"]).arg(&path).output().expect("runs");
    let j: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(
        j["from_report"]
            .as_array()
            .is_some_and(|l| l.iter().any(|x| x.as_str().is_some_and(|s| s.starts_with("assumed fixed: nccl-env"))))
    );
}
