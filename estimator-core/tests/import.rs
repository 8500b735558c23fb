//! The readers on real outputs: every public nccl-tests table of the calibration set (its rows must come back as
//! measurements.json records them), and the `ibstat`, `ibv_devinfo`, `nvidia-smi topo -m` and NCCL logs in
//! tests/data/tool-outputs (verbatim from public issues, some cut short on purpose).

use std::path::{Path, PathBuf};

use estimator_core::import::{self, Imported, Kind};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data").join(rel)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn tool(name_start: &str) -> (String, String) {
    let dir = data("tool-outputs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tool-outputs")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(name_start))
        .collect();
    names.sort();
    let name = names.into_iter().next().unwrap_or_else(|| panic!("no {name_start}*"));
    let text = read(&format!("tool-outputs/{name}"));
    (name, text)
}

#[test]
fn every_calibration_table_reads_back_its_recorded_rows() {
    let m: serde_json::Value = serde_json::from_str(&read("nccl-tests/measurements.json")).expect("json");
    let points = m["points"].as_array().expect("points");
    let mut checked = 0;
    for p in points {
        let Some(raw) = p["raw_file"].as_str() else { continue };
        let text = read(&format!("nccl-tests/{raw}"));
        let id = p["id"].as_str().unwrap_or("?");
        if raw.ends_with("-summary.txt") {
            // Numbers as a reporter typed them, the table only in a screenshot: nothing to read.
            continue;
        }
        let run = match import::import(&text) {
            Some(Imported::NcclTests(run)) => run,
            other => panic!("{id}: {raw} read as {:?}", other.map(|o| o.kind())),
        };
        for want in p["rows"].as_array().expect("rows") {
            let size = want["size_bytes"].as_f64().expect("size");
            let busbw = want["busbw_GBps"].as_f64().expect("busbw");
            let found = run.rows.iter().any(|r| r.size_bytes == size && (r.busbw_gbs - busbw).abs() < 0.006);
            assert!(
                found,
                "{id}: no row of {size} B at {busbw} GB/s in {raw}; read {:?}",
                run.rows.iter().map(|r| (r.size_bytes, r.busbw_gbs)).collect::<Vec<_>>()
            );
            checked += 1;
        }
        assert!(run.peak_busbw_gbs.is_some(), "{id}");
    }
    assert!(checked >= 40, "only {checked} rows checked");
}

#[test]
fn nccl_logs_name_their_transport_and_gdr() {
    let cases = [
        ("nccl_01", Some("ib"), Some(true)),
        ("nccl_02", Some("ib"), Some(false)),
        ("nccl_03", Some("roce"), Some(false)),
        ("nccl_05", Some("socket"), None),
    ];
    for (file, transport, gdr) in cases {
        let (name, text) = tool(file);
        let Some(Imported::NcclLog(log)) = import::import(&text) else { panic!("{name} is not read as an NCCL log") };
        assert_eq!((log.transport.as_deref(), log.gdr), (transport, gdr), "{name}: {log:?}");
    }
    let (_, text) = tool("nccl_03");
    let Some(Imported::NcclLog(log)) = import::import(&text) else { panic!() };
    assert_eq!((log.ranks, log.net_devices.len()), (Some(16), 2));
    let (_, text) = tool("nccl_01");
    let Some(Imported::NcclLog(log)) = import::import(&text) else { panic!() };
    assert!(log.nics_used.is_some_and(|n| n >= 3), "{log:?}");
}

#[test]
fn topologies_give_each_gpu_its_nearest_nic() {
    let (name, text) = tool("nvidia-smi-topo-m_01");
    let Some(Imported::NvidiaSmiTopo(t)) = import::import(&text) else { panic!("{name}") };
    assert_eq!((t.gpus, t.nics.len(), t.truncated), (8, 8, false));
    for (i, n) in t.nearest.iter().enumerate() {
        assert_eq!((n.nic.clone(), n.class.as_str()), (format!("mlx5_{i}"), "PIX"), "{name}");
    }
    assert_eq!(t.nvlink_pairs, 28);
    let (name, text) = tool("nvidia-smi-topo-m_02");
    let Some(Imported::NvidiaSmiTopo(t)) = import::import(&text) else { panic!("{name}") };
    assert_eq!((t.gpus, t.nics.len()), (8, 11));
    assert_eq!(t.nics.last().map(String::as_str), Some("mlx5_bond_0"));
    assert_eq!((t.nearest[6].nic.as_str(), t.nearest[6].class.as_str()), ("mlx5_6", "PIX"));
    // Tab-separated and cut after NIC5's row.
    let (name, text) = tool("nvidia-smi-topo-m_04");
    let Some(Imported::NvidiaSmiTopo(t)) = import::import(&text) else { panic!("{name}") };
    assert_eq!((t.gpus, t.truncated), (8, true));
    assert_eq!((t.nearest[0].nic.as_str(), t.nearest[0].class.as_str()), ("NIC8", "PIX"));
    assert_eq!((t.nearest[4].nic.as_str(), t.nearest[4].class.as_str()), ("NIC4", "PIX"));
}

#[test]
fn ibstat_and_ibv_devinfo_give_adapters_and_ports() {
    let (name, text) = tool("ibstat_01");
    let Some(Imported::Ibstat { adapters }) = import::import(&text) else { panic!("{name}") };
    assert_eq!(adapters.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["mlx5_0", "mlx5_1", "mlx5_10"]);
    let p = &adapters[0].ports[0];
    assert_eq!((p.rate_gbps, p.active, p.link_layer.as_deref()), (Some(200.0), true, Some("Ethernet")));
    assert!(!adapters[2].ports[0].active, "mlx5_10 is Down/Disabled");
    let (name, text) = tool("ibstat_04");
    let Some(Imported::Ibstat { adapters }) = import::import(&text) else { panic!("{name}: ibwarn lines and all") };
    let ports = &adapters[0].ports;
    assert_eq!((ports[0].rate_gbps, ports[0].active), (Some(10.0), false));
    assert_eq!((ports[1].rate_gbps, ports[1].active), (Some(56.0), true));
    let (name, text) = tool("ibv_devinfo_03");
    let Some(Imported::IbvDevinfo { adapters }) = import::import(&text) else { panic!("{name}") };
    assert!(
        adapters
            .iter()
            .any(|a| a.name == "mlx5_3" && a.ports[0].active && a.ports[0].link_layer.as_deref() == Some("InfiniBand"))
    );
    let (name, text) = tool("ibv_devinfo_01");
    let Some(Imported::IbvDevinfo { adapters }) = import::import(&text) else { panic!("{name}") };
    assert_eq!(adapters[0].ports[0].link_layer.as_deref(), Some("Ethernet"), "the Azure accelerated-networking VF");
    // Cut before its first hca_id (the port lines above it belong to no adapter) and after the next one's header.
    let (name, text) = tool("ibv_devinfo-v_04");
    let Some(Imported::IbvDevinfo { adapters }) = import::import(&text) else { panic!("{name}") };
    assert_eq!((adapters[0].name.as_str(), adapters[0].model.as_deref()), ("mlx5_2", Some("4129")));
    let (name, text) = tool("ibv_devinfo-v_05");
    let Some(Imported::IbvDevinfo { adapters }) = import::import(&text) else { panic!("{name}") };
    assert_eq!((adapters[0].name.as_str(), adapters[0].firmware.as_deref()), ("mlx5_1", Some("16.23.1020")));
}

#[test]
fn every_real_output_is_detected_as_its_kind_and_reads_without_panicking() {
    let mut seen = 0;
    for dir in ["tool-outputs", "nccl-tests/raw"] {
        for e in std::fs::read_dir(data(dir)).expect("dir").flatten() {
            let name = e.file_name().into_string().unwrap_or_default();
            let text = std::fs::read_to_string(e.path()).expect("text");
            let want = if name.ends_with("-summary.txt") {
                None // a typed summary, not a table
            } else if dir == "nccl-tests/raw" {
                Some(Kind::NcclTests)
            } else if name.starts_with("nccl_") {
                Some(Kind::NcclLog)
            } else if name.starts_with("nvidia-smi-topo") {
                Some(Kind::NvidiaSmiTopo)
            } else if name.starts_with("ibstat_") {
                Some(Kind::Ibstat)
            } else if name.starts_with("ibv_devinfo") {
                Some(Kind::IbvDevinfo)
            } else {
                None // ibstatus/sysfs dumps: not a kind of their own
            };
            if let Some(k) = want {
                assert_eq!(import::detect(&text), Some(k), "{dir}/{name}");
            }
            // Every reader on every text: nothing panics.
            for k in [Kind::NcclTests, Kind::NcclLog, Kind::NvidiaSmiTopo, Kind::Ibstat, Kind::IbvDevinfo] {
                let _ = import::read(k, &text);
                // Cut at every 97th byte boundary as well: truncated output is normal.
                for cut in (0..text.len()).step_by(97).filter(|c| text.is_char_boundary(*c)) {
                    let _ = import::read(k, &text[..cut]);
                }
            }
            seen += 1;
        }
    }
    assert!(seen >= 40, "{seen}");
}
