//! A run's own records for `check-run`: PyTorch profiler traces (`--trace`, read as they stream from the file,
//! gzip or not, never held whole) and NCCL Inspector dumps (`--inspector`, a file or a directory of the plugin's
//! `<host>-pid<pid>.log` files).

use std::io::Read;
use std::path::{Path, PathBuf};

use estimator_core::import::inspector::{self, InspectorDump, InspectorReader};
use estimator_core::import::trace::{PytorchTrace, TraceReader, TraceSteps};
use estimator_core::run_collectives::Calls;

use crate::cli::CheckRunArgs;
use crate::outcome::Failure;
use crate::output::diag;

/// What `--trace` and `--inspector` gave.
#[derive(Default)]
pub struct RunRecords {
    /// The calls of every trace and dump, merged.
    pub calls: Option<Calls>,
    /// The traces, lowest rank first.
    pub traces: Vec<PytorchTrace>,
    /// Where each came from, with what it holds.
    pub from: Vec<String>,
}

impl RunRecords {
    /// Reads the traces and dumps `check-run` was given; one that cannot be read is an input error naming it.
    pub fn read(a: &CheckRunArgs) -> Result<RunRecords, Failure> {
        if !a.trace.is_empty() && !a.inspector.is_empty() {
            return Err(Failure::Usage(
                "--trace and --inspector: give one kind of the run's records (a trace numbers its ranks globally, the \
                 Inspector by process, and both record the same collectives)"
                    .to_string(),
            ));
        }
        let mut out = RunRecords::default();
        let mut calls: Option<Calls> = None;
        let add = |c: Calls, calls: &mut Option<Calls>| match calls {
            Some(all) => all.merge(c),
            None => *calls = Some(c),
        };
        for path in &a.trace {
            let t = read_trace(path).map_err(|e| Failure::input(format!("--trace {}: {e}", path.display())))?;
            for p in &t.problems {
                diag(&format!("warning: --trace {}: {p}", path.display()));
            }
            if a.trace.len() > 1 && t.rank.is_none() {
                return Err(Failure::input(format!(
                    "--trace {}: the trace does not say its rank (distributedInfo.rank): with several traces each \
                     must, to match their calls",
                    path.display()
                )));
            }
            if let Some(r) = t.rank
                && out.traces.iter().any(|x| x.rank == Some(r))
            {
                return Err(Failure::input(format!(
                    "--trace {}: a second trace of rank {r}; give one per rank",
                    path.display()
                )));
            }
            out.from.push(format!("{} ({})", path.display(), t.describe()));
            out.traces.push(t);
        }
        out.traces.sort_by_key(|t| t.rank.unwrap_or(u32::MAX));
        for t in &out.traces {
            add(t.calls.clone(), &mut calls);
        }
        if !a.inspector.is_empty() {
            let d = read_inspector(&a.inspector).map_err(|e| Failure::input(format!("--inspector: {e}")))?;
            for p in &d.problems {
                diag(&format!("warning: --inspector: {p}"));
            }
            let names: Vec<String> = a.inspector.iter().map(|p| p.display().to_string()).collect();
            out.from.push(format!("{} ({})", names.join(", "), d.describe()));
            add(d.calls, &mut calls);
        }
        out.calls = calls;
        Ok(out)
    }

    /// The steps of the lowest rank's trace that has some.
    pub fn steps(&self) -> Option<&TraceSteps> {
        self.traces.iter().map(|t| &t.steps).find(|s| !s.steps.is_empty())
    }
}

/// The most bytes read from one trace (after decompression): far past any profiler's output; a gzip bomb stops here.
pub const MAX_TRACE_BYTES: u64 = 8 << 30;
/// The chunk a trace is read in.
const CHUNK: usize = 1 << 20;
/// The most files read from an Inspector directory.
const MAX_INSPECTOR_FILES: usize = 65_536;

/// Reads a trace as it streams by: plain JSON or gzip (by its magic bytes).
pub fn read_trace(path: &Path) -> Result<PytorchTrace, String> {
    let mut magic = Vec::with_capacity(2);
    std::fs::File::open(path).and_then(|f| f.take(2).read_to_end(&mut magic)).map_err(|e| e.to_string())?;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let gz = magic == [0x1f, 0x8b];
    let mut input: Box<dyn Read> =
        if gz { Box::new(flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file))) } else { Box::new(file) };
    let started = std::time::Instant::now();
    let mut reader = TraceReader::new();
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let k = input.read(&mut buf).map_err(|e| if gz { format!("gzip: {e}") } else { e.to_string() })?;
        if k == 0 {
            break;
        }
        total += k as u64;
        if total > MAX_TRACE_BYTES {
            return Err(format!("over {} GiB of trace: refused", MAX_TRACE_BYTES >> 30));
        }
        reader.feed(&buf[..k]);
    }
    let trace = reader.finish().map_err(|e| e.to_string())?;
    if total >= 64 << 20 {
        diag(&format!(
            "read {} ({} MB) in {:.1} s",
            path.display(),
            total / 1_000_000,
            started.elapsed().as_secs_f64()
        ));
    }
    Ok(trace)
}

/// The first 64 KiB of a file, as text.
fn read_head(path: &Path) -> Result<String, String> {
    let mut head = Vec::with_capacity(64 << 10);
    std::fs::File::open(path).and_then(|f| f.take(64 << 10).read_to_end(&mut head)).map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&head).into_owned())
}

/// The longest line read from an Inspector file (a record is one line of a few hundred bytes).
const MAX_LINE_BYTES: u64 = 16 << 20;

/// The most bytes read from one Inspector file: a dump of a long run grows by a record a second per communicator.
pub const MAX_DUMP_BYTES: u64 = 8 << 30;

/// Reads one Inspector file as it streams, in parts of about 8 MiB cut where a line starts a record.
fn read_dump(reader: &mut InspectorReader, path: &Path) -> Result<(), String> {
    use std::io::BufRead;
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut lines = std::io::BufReader::new(file);
    reader.begin();
    let mut part = String::new();
    let mut line = Vec::new();
    let mut total = 0u64;
    let mut n = 0u64;
    loop {
        line.clear();
        n += 1;
        // A line is read up to its limit: a record is a few hundred bytes, a crashed writer's tail may be gigabytes.
        let k = (&mut lines).take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut line).map_err(|e| e.to_string())?;
        if k as u64 > MAX_LINE_BYTES {
            return Err(format!("line {n} is over {} MiB: not an Inspector record", MAX_LINE_BYTES >> 20));
        }
        total += k as u64;
        if total > MAX_DUMP_BYTES {
            return Err(format!("over {} GiB: refused", MAX_DUMP_BYTES >> 30));
        }
        let starts_record = line.first() == Some(&b'{');
        if k == 0 || (starts_record && part.len() >= 8 << 20) {
            reader.feed(&name, &part);
            part.clear();
        }
        if k == 0 {
            return Ok(());
        }
        part.push_str(&String::from_utf8_lossy(&line));
    }
}

/// Reads Inspector dumps: each path a file, or a directory whose files (not its subdirectories) are read, those
/// that do not look like the plugin's output left out with a warning.
pub fn read_inspector(paths: &[PathBuf]) -> Result<InspectorDump, String> {
    let mut reader = InspectorReader::new();
    let mut read = 0;
    for path in paths {
        let files: Vec<PathBuf> = if path.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .take(MAX_INSPECTOR_FILES)
                .collect();
            v.sort();
            if v.is_empty() {
                return Err(format!("{}: no files in the directory", path.display()));
            }
            v
        } else {
            vec![path.clone()]
        };
        let single = files.len() == 1 && !path.is_dir();
        for file in files {
            let head = read_head(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            if !inspector::looks_like(&head) {
                if single {
                    return Err(format!(
                        "{}: not an NCCL Inspector dump (its records are JSON objects with header and coll_perf)",
                        file.display()
                    ));
                }
                diag(&format!("warning: {}: not an NCCL Inspector dump; left out", file.display()));
                continue;
            }
            read_dump(&mut reader, &file).map_err(|e| format!("{}: {e}", file.display()))?;
            read += 1;
        }
    }
    if read == 0 {
        return Err("no NCCL Inspector dump among the files given".to_string());
    }
    reader.finish().map_err(|e| e.to_string())
}
