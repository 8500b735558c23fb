//! The readers on real files as users hand them over (issue 25): several runs in one file, colour codes from a
//! coloured terminal, every form of NCCL's version line, and a job whose ranks chose different transports. Each
//! case is a public file from `tests/data/` (its source on its first line), or one derived from such files the way
//! real jobs write them (runs concatenated, colour codes added, a launcher's prefixes, two logs interleaved).

use std::path::Path;

use estimator_core::import::{self, Imported, nccl_log, nccl_tests};

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// AIST ABCI's all_reduce_perf on 2 nodes of 4 x V100, with its rank lines (2 hosts, 8 ranks).
const ABCI: &str = "nccl-tests/raw/abci-v100-2node-2xedr-allreduce.txt";
/// OCI's all_reduce_perf on 2 nodes of 8 x H100 (its rank lines elided to the first and the last).
const OCI: &str = "nccl-tests/raw/oci-h100-2node-roce-16x200.txt";

#[test]
fn several_runs_in_one_file_are_read_one_by_one() {
    let abci = read(ABCI);
    let one = nccl_tests::parse(&abci);
    assert_eq!((one.ranks, one.nodes, one.rows.len(), one.runs_in_file), (Some(8), Some(2), 24, 1));
    // The same run twice (a rerun appended, `-n`/`-w` sweeps): two runs of 8 ranks on 2 hosts, not 16 on 2.
    let twice = format!("{abci}{abci}");
    let runs = nccl_tests::parse_runs(&twice);
    assert_eq!(runs.len(), 2);
    for (i, r) in runs.iter().enumerate() {
        assert_eq!((r.run, r.runs_in_file), (i as u32 + 1, 2));
        assert_eq!((r.ranks, r.nodes, r.rows.len(), r.avg_busbw_gbs), (one.ranks, one.nodes, 24, one.avg_busbw_gbs));
        assert_eq!(r.nodes_for(4), Some(2), "judged against 2 nodes, not 4");
    }
    assert_eq!(nccl_tests::parse(&twice).runs_in_file, 2, "the first run says how many the file holds");
    // Two runs of different hardware in one file: each keeps its own GPU, ranks and rows.
    let oci = read(OCI);
    let mixed = nccl_tests::parse_runs(&format!("{abci}\n{oci}"));
    assert_eq!(mixed.len(), 2);
    assert_eq!((mixed[0].ranks, mixed[1].ranks), (Some(8), Some(16)));
    assert!(mixed[0].devices.iter().all(|d| d.gpu.as_deref() == Some("Tesla V100-SXM2-16GB")));
    assert!(mixed[1].devices.iter().all(|d| d.gpu.as_deref() == Some("NVIDIA H100 80GB HBM3")));
    assert_eq!((mixed[0].rows.len(), mixed[1].rows.len()), (24, 5));
    assert!(mixed.iter().all(|r| !r.truncated));
    // A run printed again without its header (rank lines after a table) starts a run too.
    let body = &abci[abci.find("# Using devices").expect("rank lines")..];
    assert_eq!(nccl_tests::parse_runs(&format!("{abci}{body}")).len(), 2);
    // nccl-tests 2.13's "# Collective test starting" line opens a run with its header, not two.
    let started = format!(
        "# Collective test starting: all_reduce_perf\n{abci}# Collective test starting: all_reduce_perf\n{abci}"
    );
    let runs = nccl_tests::parse_runs(&started);
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r.rows.len() == 24 && r.ranks == Some(8)));
}

/// Colours the way a terminal does: the rank lines green, the busbw of each row bold, the summary lines reset
/// halfway through.
fn coloured(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.contains("Rank") {
            out.push_str(&format!("\u{1b}[32m{line}\u{1b}[0m\r\n"));
        } else if line.starts_with("# Avg") {
            out.push_str(&format!("\u{1b}[1m# Avg bus\u{1b}[0m{}\r\n", &line["# Avg bus".len()..]));
        } else if let Some(i) = line.rfind("  ") {
            out.push_str(&format!("{}\u{1b}[1;33m{}\u{1b}[0m\r\n", &line[..i], &line[i..]));
        } else {
            out.push_str(&format!("\u{1b}]0;all_reduce_perf\u{7}{line}\r\n"));
        }
    }
    out
}

#[test]
fn colour_codes_come_off_before_any_reading() {
    let abci = read(ABCI);
    let clean = nccl_tests::parse(&abci);
    let text = coloured(&abci);
    assert!(text.contains('\u{1b}'));
    let run = match import::import(&text) {
        Some(Imported::NcclTests(r)) => r,
        other => panic!("read as {:?}", other.map(|o| o.kind())),
    };
    assert_eq!(run.rows, clean.rows, "every row back");
    assert_eq!((run.ranks, run.nodes, run.avg_busbw_gbs), (clean.ranks, clean.nodes, clean.avg_busbw_gbs));
    assert!(!run.truncated, "a complete run is not called cut");
    // The same for a log and the other readers.
    let log = read("tool-outputs/nccl_01_NET-IB_GDRDMA_nccl-707_EXCERPT.txt");
    assert_eq!(nccl_log::parse(&coloured(&log)), nccl_log::parse(&log));
    let ibstat = read("tool-outputs/ibstat_02_l2fwd-nv-6_cx6dx_eth100.txt");
    assert_eq!(import::ib::parse_ibstat(&coloured(&ibstat)), import::ib::parse_ibstat(&ibstat));
    let topo = read("tool-outputs/nvidia-smi-topo-m_01_sglang-30401_8xH100_8xmlx5.txt");
    assert_eq!(import::topo::parse(&coloured(&topo)), import::topo::parse(&topo));
    assert_eq!(import::strip_ansi("a\u{1b}[0;31mb\u{1b}[0mc\u{9b}2Kd\re\r\n"), "abcd\ne\n");
}

#[test]
fn the_nccl_version_is_read_from_every_form_nccl_prints() {
    // nccl-tests prints it on a line of its own, without NCCL's prefix.
    let text = read("tool-outputs/nccl-tests_06_version-line_RoCE_nccl-tests-185_EXCERPT.txt");
    let log = nccl_log::parse(&text);
    assert_eq!(log.version.as_deref(), Some("2.19.3+cuda12.3"));
    assert_eq!(log.transport.as_deref(), Some("roce"));
    // Behind Open MPI's --tag-output prefix, and behind srun -l's.
    let tagged: String = text.lines().map(|l| format!("[1,0]<stdout>:{l}\n")).collect();
    assert_eq!(nccl_log::parse(&tagged).version.as_deref(), Some("2.19.3+cuda12.3"));
    let srun: String = text.lines().map(|l| format!(" 0: {l}\n")).collect();
    assert_eq!(nccl_log::parse(&srun).version.as_deref(), Some("2.19.3+cuda12.3"));
    // NCCL's own INFO line.
    assert_eq!(
        nccl_log::parse("h:1:2 [0] NCCL INFO NCCL version 2.4.7+cuda9.2").version.as_deref(),
        Some("2.4.7+cuda9.2")
    );
    // A nccl-tests run carries the NCCL lines printed inside it (between its rank lines and its table, where
    // NCCL_DEBUG=INFO puts them).
    let abci = read(ABCI);
    let at = abci.find("#                      ").expect("the column header");
    let lines: String = text.lines().filter(|l| l.contains("NCCL")).map(|l| format!("{l}\n")).collect();
    let run = nccl_tests::parse(&format!("{}{lines}{}", &abci[..at], &abci[at..]));
    assert_eq!((run.runs_in_file, run.rows.len()), (1, 24));
    let inside = run.nccl_log.expect("the run's NCCL lines");
    assert_eq!(inside.version.as_deref(), Some("2.19.3+cuda12.3"));
    assert!(nccl_tests::parse(&read(ABCI)).nccl_log.is_none(), "a run without NCCL lines has no log");
}

#[test]
fn ranks_that_fell_back_to_sockets_make_a_mixed_transport() {
    // Two real logs interleaved as one job's: nccl#707's processes on NET/IB with GPUDirect RDMA, nccl#226's on
    // NET/Socket after "NET/IB : No device found" (nccl-tests#188 is such a job).
    let ib = read("tool-outputs/nccl_01_NET-IB_GDRDMA_nccl-707_EXCERPT.txt");
    let sock = read("tool-outputs/nccl_05_NET-Socket_fallback_nccl-226_EXCERPT.txt");
    let net_ib = "10-90-43-152:120890:121560 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.90.43.152<0>\n\
                  10-90-43-152:120890:121560 [0] NCCL INFO Using network IB\n";
    let job = format!(
        "{net_ib}{}{}",
        ib.lines().skip(1).collect::<Vec<_>>().join("\n"),
        sock.lines().skip(1).map(|l| format!("\n{l}")).collect::<String>()
    );
    let log = nccl_log::parse(&job);
    assert_eq!(log.transport.as_deref(), Some("mixed"), "{:?}", log.transports);
    assert_eq!(log.transports.get("ib"), Some(&1));
    assert_eq!(log.transports.get("socket"), Some(&8), "the 8 processes that said NET/Socket");
    let facts = log.facts().join(", ");
    assert!(facts.contains("transport mixed") && facts.contains("socket"), "{facts}");
    // Each alone is what it was.
    assert_eq!(nccl_log::parse(&sock).transport.as_deref(), Some("socket"));
    assert_eq!(nccl_log::parse(&format!("{net_ib}{ib}")).transport.as_deref(), Some("ib"));
}

/// Documents written before runs were split and transports counted (a report's attachments, an `import --json`
/// kept by a script) still read: the new keys have defaults.
#[test]
fn documents_without_the_new_keys_still_read() {
    let run = nccl_tests::parse(&read(ABCI));
    let mut v = serde_json::to_value(&run).expect("json");
    for key in ["run", "runs_in_file", "nccl_log"] {
        v.as_object_mut().expect("object").remove(key);
    }
    let back: nccl_tests::NcclTestsRun = serde_json::from_value(v).expect("an older run reads");
    assert_eq!((back.rows.len(), back.run, back.runs_in_file), (24, 0, 0));
    let log = nccl_log::parse(&read("tool-outputs/nccl_05_NET-Socket_fallback_nccl-226_EXCERPT.txt"));
    let mut v = serde_json::to_value(&log).expect("json");
    v.as_object_mut().expect("object").remove("transports");
    let back: estimator_core::import::NcclLog = serde_json::from_value(v).expect("an older log reads");
    assert_eq!(back.transport.as_deref(), Some("socket"));
}
