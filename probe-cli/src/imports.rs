//! `probe-cli import FILE...`: detects what each file is (nccl-tests output, an NCCL log, `nvidia-smi topo -m`,
//! `ibstat`, `ibv_devinfo`) and prints what estimator-core's readers found.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use estimator_core::import::{self, Imported};
use serde::Serialize;

use crate::Failure;
use crate::cli::ImportArgs;
use crate::estimate::{print_json, print_text};

/// The most a file may hold (a 10 MB log reads in well under a second; beyond 64 MiB it is not a tool's output).
pub const MAX_IMPORT_BYTES: u64 = 64 << 20;

/// One file's answer.
#[derive(Serialize)]
pub struct FileResult {
    /// The file as given.
    pub file: String,
    /// What it held; `kind` is `null` and `error` says why when it could not be read or recognised.
    #[serde(flatten)]
    pub imported: Option<Imported>,
    /// Why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Reads one file (or standard input for `-`) as text, at most [`MAX_IMPORT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().lock().take(MAX_IMPORT_BYTES + 1).read_to_end(&mut bytes)
    } else {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err("not a regular file".to_string());
        }
        std::fs::File::open(path).and_then(|f| f.take(MAX_IMPORT_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        return Err(format!("larger than {} MiB; not a tool's output", MAX_IMPORT_BYTES >> 20));
    }
    // Logs sometimes carry stray bytes (a terminal's colours, a cut multi-byte character): read them lossily.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads and recognises one file.
pub fn import_file(path: &Path) -> FileResult {
    let file = path.display().to_string();
    match read_text(path) {
        Err(e) => FileResult { file, imported: None, error: Some(e) },
        Ok(text) => match import::import(&text) {
            Some(i) => FileResult { file, imported: Some(i), error: None },
            None => FileResult {
                file,
                imported: None,
                error: Some(
                    "not recognised: expected nccl-tests output, an NCCL_DEBUG=INFO log, nvidia-smi topo -m, \
                     ibstat or ibv_devinfo"
                        .to_string(),
                ),
            },
        },
    }
}

fn gbs(v: Option<f64>) -> String {
    v.map_or_else(|| "?".to_string(), |v| format!("{v:.2} GB/s"))
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "?".to_string(), |v| v.to_string())
}

/// A few lines about one file.
pub fn describe(r: &FileResult) -> String {
    let mut t = String::new();
    let Some(i) = &r.imported else {
        let _ = writeln!(t, "{}: {}", r.file, r.error.as_deref().unwrap_or("?"));
        return t;
    };
    let _ = write!(t, "{}: {}", r.file, i.kind().name());
    match i {
        Imported::NcclTests(run) => {
            let _ = writeln!(
                t,
                "{}, {} rows{}; peak busbw {}, avg {}{}",
                run.test.as_ref().map_or(String::new(), |n| format!(" ({n})")),
                run.rows.len(),
                run.ranks.map_or(String::new(), |r| format!(
                    ", {r} ranks{}",
                    run.nodes.map_or(String::new(), |n| format!(" on {n} hosts"))
                )),
                gbs(run.peak_busbw_gbs),
                gbs(run.avg_busbw_gbs),
                if run.truncated { "; the output is cut" } else { "" }
            );
            for row in run.rows.iter().rev().take(3).rev() {
                let _ = writeln!(
                    t,
                    "  {:>14} B  {:>10.1} us  algbw {:>7.2}  busbw {:>7.2} GB/s",
                    row.size_bytes, row.time_us, row.algbw_gbs, row.busbw_gbs
                );
            }
        }
        Imported::NcclLog(log) => {
            let _ = writeln!(
                t,
                "{}{}{}; transport {}, GPUDirect RDMA {}, NICs used {}",
                log.version.as_ref().map_or(String::new(), |v| format!(" (NCCL {v})")),
                log.ranks.map_or(String::new(), |r| format!(", {r} ranks")),
                log.nodes.map_or(String::new(), |n| format!(" on {n} nodes")),
                log.transport.as_deref().unwrap_or("not in the log"),
                log.gdr.map_or("unknown", |g| if g { "on" } else { "off" }),
                opt(&log.nics_used)
            );
            if !log.intra_node.is_empty() {
                let _ = writeln!(t, "  inside the node: {}", log.intra_node.join(", "));
            }
            for w in &log.warnings {
                let _ = writeln!(t, "  NCCL WARN {w}");
            }
        }
        Imported::NvidiaSmiTopo(topo) => {
            let _ = writeln!(
                t,
                ", {} GPUs, {} NICs{}",
                topo.gpus,
                topo.nics.len(),
                if topo.truncated { "; the matrix is cut" } else { "" }
            );
            for n in &topo.nearest {
                let _ = writeln!(
                    t,
                    "  {} nearest {} {}{}",
                    n.gpu,
                    n.nic,
                    n.class,
                    if n.gdr_distance_ok { "" } else { " (too far for GPUDirect RDMA at NCCL's default level)" }
                );
            }
        }
        Imported::Ibstat { adapters } | Imported::IbvDevinfo { adapters } => {
            let _ = writeln!(t, ", {} adapters", adapters.len());
            for a in adapters {
                for p in &a.ports {
                    let _ = writeln!(
                        t,
                        "  {} port {}  {} {}  {}  {}",
                        a.name,
                        p.port,
                        opt(&p.state),
                        opt(&p.physical_state),
                        opt(&p.link_layer),
                        p.rate_gbps.map_or_else(|| "rate ?".to_string(), |r| format!("{r} Gb/s"))
                    );
                }
            }
        }
    }
    t
}

/// Runs `import`. Exit 0 when every file was recognised, 1 when one was not (the others are still printed).
pub fn import(a: &ImportArgs) -> Result<(), Failure> {
    let results: Vec<FileResult> = a.files.iter().map(|f| import_file(f)).collect();
    let failed = results.iter().filter(|r| r.imported.is_none()).count();
    if a.json {
        print_json(&results)?;
    } else {
        print_text(&results.iter().map(describe).collect::<String>())?;
    }
    if failed > 0 {
        return Err(Failure::Other(anyhow::anyhow!(
            "{failed} of {} files could not be read or recognised",
            results.len()
        )));
    }
    Ok(())
}
