//! Reading the files a user gives: tool outputs (`import`, `health`, `report --attach`) and report files
//! (`--report`). A file that cannot be read or understood is an input error naming the file (exit 2).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use estimator_core::import::{self, Imported};
use estimator_core::report::{self, MAX_REPORT_BYTES, ReportError, ReportHead};

use crate::outcome::Failure;

/// The most a tool output may hold (a 10 MB log reads in well under a second; beyond 64 MiB it is not a tool's
/// output).
pub const MAX_TOOL_OUTPUT_BYTES: u64 = 64 << 20;

/// Why a file is not a tool output.
pub const NOT_RECOGNISED: &str =
    "not recognised: expected nccl-tests output, an NCCL_DEBUG=INFO log, nvidia-smi topo -m, ibstat or ibv_devinfo";

/// Reads one file (or standard input for `-`) as text, at most [`MAX_TOOL_OUTPUT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().lock().take(MAX_TOOL_OUTPUT_BYTES + 1).read_to_end(&mut bytes)
    } else {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err("not a regular file".to_string());
        }
        std::fs::File::open(path).and_then(|f| f.take(MAX_TOOL_OUTPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_TOOL_OUTPUT_BYTES {
        return Err(format!("larger than {} MiB; not a tool's output", MAX_TOOL_OUTPUT_BYTES >> 20));
    }
    // Logs sometimes carry stray bytes (a terminal's colours, a cut multi-byte character): read them lossily.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads one tool output and recognises its kind: the text (for what a reader may look at again) and what it holds,
/// or why not.
pub fn read_tool_output(path: &Path) -> Result<(String, Imported), String> {
    // A PyTorch profiler trace (gzip or JSON) and an Inspector dump stream through their readers: they may be far
    // larger than a tool output.
    if path != Path::new("-") {
        match sniff(path) {
            Some(Streamed::Trace) => {
                return crate::run_records::read_trace(path)
                    .map(|t| (String::new(), Imported::PytorchTrace(Box::new(t))));
            }
            Some(Streamed::Inspector) => {
                return crate::run_records::read_inspector(&[path.to_path_buf()])
                    .map(|d| (String::new(), Imported::NcclInspector(Box::new(d))));
            }
            None => {}
        }
    }
    let text = read_text(path)?;
    // A large file (a sweep's log) takes a second or more: say so before, and how long it took after.
    let large = text.len() >= PROGRESS_BYTES;
    let started = std::time::Instant::now();
    if large {
        crate::output::diag(&format!("reading {} ({} MB) ...", path.display(), text.len() / 1_000_000));
    }
    let read = import::import(&text);
    if large {
        crate::output::diag(&format!("read {} in {:.1} s", path.display(), started.elapsed().as_secs_f64()));
    }
    match read {
        Some(imported) => Ok((text, imported)),
        None => Err(NOT_RECOGNISED.to_string()),
    }
}

/// The kinds read as they stream.
enum Streamed {
    Trace,
    Inspector,
}

/// Which streamed kind a file is, from its first 64 KiB: gzip or a trace's JSON, or Inspector records.
fn sniff(path: &Path) -> Option<Streamed> {
    let f = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(64 << 10);
    f.take(64 << 10).read_to_end(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head);
    if import::inspector::looks_like(&text) {
        Some(Streamed::Inspector)
    } else if head.starts_with(&[0x1f, 0x8b]) || import::trace::looks_like(&text) {
        Some(Streamed::Trace)
    } else {
        None
    }
}

/// Inputs from this size on get a progress line on stderr: about a second of reading on a slow core.
const PROGRESS_BYTES: usize = 16 << 20;

/// Reads a report file given with `--report`: at most 1 MiB, JSON, this schema version, a plausible summary. The
/// error names the file and the field.
pub fn load_report(path: &Path) -> Result<(ReportHead, serde_json::Value), Failure> {
    let fail = |e: &dyn std::fmt::Display| Failure::input(format!("--report {}: {e}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| fail(&e))?;
    if !meta.is_file() {
        return Err(fail(&"not a regular file"));
    }
    if meta.len() > MAX_REPORT_BYTES as u64 {
        return Err(fail(&ReportError::too_large(usize::try_from(meta.len()).unwrap_or(usize::MAX))));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(&e))?;
    if ReportError::is_empty_text(&bytes) {
        return Err(fail(&ReportError::empty()));
    }
    let text = String::from_utf8(bytes).map_err(|_| fail(&ReportError::not_json("the file is not UTF-8 text")))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| fail(&ReportError::not_json(e)))?;
    report::check_version(&value).map_err(|e| fail(&e))?;
    let head = report::read_head(&value).map_err(|e| fail(&e))?;
    Ok((head, value))
}

/// The files named: each file as given, and each directory's regular files that `keep` takes (hidden ones never),
/// sorted; at most `max`, else an input error.
pub fn list(paths: &[PathBuf], keep: impl Fn(&Path) -> bool, max: usize) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| Failure::input(format!("{}: {e}", p.display())))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && !f.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                .filter(|f| keep(f))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
        if out.len() > max {
            return Err(Failure::input(format!("more than {max} files: at most that many in one call")));
        }
    }
    Ok(out)
}

/// `read` on every file, on every core, keeping the files' order; a reader that panicked loses no file: each of
/// its batch is named as not read.
pub fn read_parallel<T: Send>(
    files: &[PathBuf],
    read: impl Fn(&Path) -> Result<T, String> + Sync,
) -> Vec<(PathBuf, Result<T, String>)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    let chunk = files.len().div_ceil(threads).max(1);
    let read = &read;
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|f| (f.clone(), read(f))).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .zip(files.chunks(chunk))
            .flat_map(|(h, part)| {
                h.join().unwrap_or_else(|_| {
                    part.iter()
                        .map(|f| (f.clone(), Err("the reader failed on this file's batch".to_string())))
                        .collect()
                })
            })
            .collect()
    })
}
