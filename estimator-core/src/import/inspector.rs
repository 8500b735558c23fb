//! NCCL Inspector dumps (NVIDIA/nccl's profiler plugin `plugins/profiler/inspector`, `ext-profiler/inspector` in
//! NCCL 2.28): one JSON object per line, each a collective as one rank saw it, with its communicator.
//!
//! The format (notes with lines in `tests/data/inspector/README.md`), from `inspector.cc` and the plugin's README
//! at NVIDIA/nccl @f907dabf (2.28, output format `v4.0`) to @889806836 (2.31.2, `v4.2`):
//! - `header`: `id` (the communicator's hash, `0x...`), `rank` (in the communicator), `n_ranks`, `nnodes`, and from
//!   `v4.2` `comm_name` (the name the application gave the communicator);
//! - `metadata`: `inspector_output_format_version`, `hostname`, `pid`, `dump_timestamp_us`, ...;
//! - `coll_perf`: `coll` (`AllReduce`, `AllGather`, `ReduceScatter`, `Broadcast`, `Reduce`, ...), `coll_sn` (the
//!   collective's sequence number in its communicator, the same on every rank), `coll_msg_size_bytes` (NCCL's
//!   count times the type: for all-gather and reduce-scatter one rank's share), `coll_exec_time_us` (an integer
//!   in NVIDIA's writer, a float in some builds), `coll_timing_source` (`kernel_gpu`, `kernel_cpu`,
//!   `collective_cpu`), `coll_algobw_gbs`, `coll_busbw_gbs` (nccl-tests' factors), and from `v4.2` `coll_algo`,
//!   `coll_proto`;
//! - a record with `dump_stats` instead (`v4.3`): how many records the bounded ring dropped.
//!
//! The plugin keeps a bounded ring of records per communicator (older ones are overwritten under load), skips
//! messages under its size threshold, and by default writes when the communicator is torn down: what it holds is
//! a share of the run, which [`InspectorDump::calls`]'s coverage says.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::import::calls::{Call, Calls, Communicator};
use crate::op::Op;

/// The most host names kept.
const MAX_HOSTS: usize = 1024;
/// The most problems named.
const MAX_PROBLEMS: usize = 8;
/// The longest collective read, µs: a day.
const MAX_TIME_US: f64 = 86_400e6;
/// The largest message read, bytes: a petabyte.
const MAX_SIZE_BYTES: f64 = 1e15;

/// Whether an output format version writes header and metadata on its `dump_stats` marker only, for the records
/// after it to inherit: `v4.3` and later (NVIDIA/nccl PR #2359; `inspector_json_reader.py` @08618d4).
fn marker_carries_context(version: &str) -> bool {
    let v = version.trim_start_matches('v');
    let mut parts = v.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => major > 4 || (major == 4 && minor >= 3),
        (Some(major), None) => major > 4,
        _ => false,
    }
}

/// What a dump (or several) held.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InspectorDump {
    /// Records read (collectives and others).
    pub records: u64,
    /// The collectives as calls.
    pub calls: Calls,
    /// The hosts that wrote them (at most 1024).
    pub hosts: Vec<String>,
    /// The output format versions seen (`v4.0`).
    pub versions: Vec<String>,
    /// Records by `coll_timing_source` (`kernel_gpu`: the kernel's own GPU time; the others include the CPU's).
    pub timing_sources: BTreeMap<String, u64>,
    /// Records the Inspector says it dropped (its `dump_stats`), when it says.
    pub dropped_by_inspector: Option<u64>,
    /// Records that could not be read, the first few named with their record number and line.
    pub problems: Vec<String>,
    /// How many records could not be read.
    pub unreadable_records: u64,
}

impl InspectorDump {
    /// What it holds, in one line.
    pub fn describe(&self) -> String {
        use crate::human::plural;
        format!(
            "NCCL Inspector records: {} collectives over {} from {} ({}), {}",
            self.calls.calls.len(),
            plural(self.calls.comms.len() as u64, "communicator"),
            match self.calls.ranks.len() {
                1 => "1 process".to_string(),
                n => format!("{n} processes"),
            },
            plural(self.hosts.len() as u64, "host"),
            if self.versions.is_empty() {
                "format unknown".to_string()
            } else {
                format!("format {}", self.versions.join(", "))
            }
        )
    }
}

#[derive(Deserialize)]
struct Record {
    #[serde(default)]
    header: Option<Header>,
    #[serde(default)]
    metadata: Option<Metadata>,
    #[serde(default)]
    coll_perf: Option<CollPerf>,
    #[serde(default)]
    dump_stats: Option<DumpStats>,
}

#[derive(Clone, Deserialize)]
struct Header {
    id: Option<serde_json::Value>,
    #[serde(default)]
    comm_name: Option<String>,
    #[serde(default)]
    rank: Option<u32>,
    #[serde(default)]
    n_ranks: Option<u32>,
    #[serde(default)]
    nnodes: Option<u32>,
}

#[derive(Clone, Deserialize)]
struct Metadata {
    #[serde(default)]
    inspector_output_format_version: Option<String>,
    #[serde(default)]
    hostname: Option<String>,
    #[serde(default, deserialize_with = "crate::import::trace::flex")]
    pid: Option<f64>,
}

#[derive(Deserialize)]
struct CollPerf {
    coll: String,
    #[serde(default)]
    coll_sn: Option<u64>,
    #[serde(deserialize_with = "crate::import::trace::flex")]
    coll_msg_size_bytes: Option<f64>,
    #[serde(deserialize_with = "crate::import::trace::flex")]
    coll_exec_time_us: Option<f64>,
    #[serde(default)]
    coll_timing_source: Option<String>,
    /// `"nan"` when NCCL had no time (inspector_json.cc writes NaN as a string).
    #[serde(default, deserialize_with = "crate::import::trace::flex")]
    coll_busbw_gbs: Option<f64>,
}

#[derive(Deserialize)]
struct DumpStats {
    #[serde(default)]
    coll_dropped_total: Option<u64>,
}

/// Why a text is not an Inspector dump.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InspectorError {
    /// No record had a `coll_perf` with a `header`.
    #[error("not an NCCL Inspector dump: no record with a header and coll_perf ({0})")]
    NoRecords(String),
}

/// Whether a text starts like an Inspector dump: a JSON object with `header` and `coll_perf` (or `dump_stats`).
pub fn looks_like(head: &str) -> bool {
    let t = head.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{')
        && t.contains("\"header\"")
        && (t.contains("\"coll_perf\"") || t.contains("\"dump_stats\"") || t.contains("inspector_output_format"))
}

/// A reader over several files' records, one file at a time ([`InspectorReader::add`]).
#[derive(Clone, Default)]
pub struct InspectorReader {
    dump: InspectorDump,
    /// The last header of the file being read: `v4.3` writes it on a marker line, and the records after it inherit
    /// it (the plugin's `inspector_json_reader.py`).
    header: Option<Header>,
    metadata: Option<Metadata>,
    /// A communicator's index in the calls, and a process's rank, by id: one lookup per record.
    comm_ids: HashMap<String, u32>,
    who_ids: HashMap<String, u32>,
    /// The line of `line_at` bytes into the file being read: lines are counted once, forward.
    line_at: usize,
    line: usize,
    /// Records of the file being read so far.
    records_in_file: u64,
    too_short: u64,
    seen_dropped: HashMap<String, u64>,
    files: u32,
}

impl InspectorReader {
    /// A reader with nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn problem(&mut self, p: String) {
        self.dump.unreadable_records += 1;
        if self.dump.problems.len() < MAX_PROBLEMS {
            self.dump.problems.push(p);
        }
    }

    /// Reads one file's text, `name` naming it in problems. A record that is not JSON is named and skipped: the
    /// reading goes on at the next line that starts a record (`{` at its start).
    pub fn add(&mut self, name: &str, text: &str) {
        self.begin();
        self.feed(name, text);
    }

    /// Starts a file: what a `v4.3` marker gave the records after it, and the line and record counts, start over.
    pub fn begin(&mut self) {
        self.files += 1;
        self.header = None;
        self.metadata = None;
        self.records_in_file = 0;
        self.line = 1;
        self.line_at = 0;
    }

    /// Reads more of the file [`InspectorReader::begin`] started: whole records (a front end that reads a large file
    /// in parts cuts it where a line starts a record). Linear: lines are counted once, forward.
    pub fn feed(&mut self, name: &str, text: &str) {
        // Lines are counted in this part from its start.
        self.line_at = 0;
        let mut from = 0;
        'text: while from < text.len() {
            let mut stream = serde_json::Deserializer::from_str(&text[from..]).into_iter::<serde_json::Value>();
            loop {
                let at = from + stream.byte_offset();
                let line = self.line_of(text, at);
                match stream.next() {
                    None => break 'text,
                    Some(Ok(v)) => {
                        self.records_in_file += 1;
                        self.record(name, self.records_in_file, line, v);
                    }
                    Some(Err(e)) => {
                        self.records_in_file += 1;
                        let n = self.records_in_file;
                        self.problem(format!("{name}: record {n} (line {line}): {e}"));
                        // On at the next line that starts a record, after the broken one's own start (bytes: junk
                        // need not be text on a character's boundary).
                        let start = self.line_at.max(at);
                        let next =
                            text.as_bytes().get(start + 1..).and_then(|t| t.windows(2).position(|w| w == b"\n{"));
                        match next {
                            Some(k) => {
                                from = start + 1 + k + 1;
                                continue 'text;
                            }
                            None => break 'text,
                        }
                    }
                }
            }
        }
        // The rest of the part's lines, for the next part.
        let _ = self.line_of(text, text.len());
    }

    /// The 1-based line where the record at `at` starts (after the white space before it), counting forward from
    /// where the last call stopped.
    fn line_of(&mut self, text: &str, at: usize) -> usize {
        let at = at.min(text.len());
        let start = text.get(at..).and_then(|t| t.find(|c: char| !c.is_whitespace())).map_or(text.len(), |k| at + k);
        if start > self.line_at {
            self.line += text.as_bytes()[self.line_at..start].iter().filter(|b| **b == b'\n').count();
            self.line_at = start;
        }
        self.line
    }

    fn record(&mut self, name: &str, n: u64, line: usize, value: serde_json::Value) {
        self.dump.records += 1;
        let r: Record = match serde_json::from_value(value) {
            Ok(r) => r,
            Err(e) => {
                self.problem(format!("{name}: record {n} (line {line}): {e}"));
                return;
            }
        };
        // A `dump_stats` marker: its header and metadata are what a `v4.3` dump's records after it inherit
        // (`inspector_json_reader.py`); an older marker's are not inherited.
        if r.dump_stats.is_some() {
            let v43 = r
                .metadata
                .as_ref()
                .and_then(|m| m.inspector_output_format_version.as_deref())
                .is_some_and(marker_carries_context);
            self.header = r.header.clone().filter(|_| v43);
            self.metadata = r.metadata.clone().filter(|_| v43);
        }
        let metadata = r.metadata.or_else(|| self.metadata.clone());
        if let Some(m) = &metadata {
            if let Some(v) = &m.inspector_output_format_version
                && !self.dump.versions.contains(v)
                && self.dump.versions.len() < 16
            {
                self.dump.versions.push(v.chars().take(32).collect());
            }
            if let Some(h) = &m.hostname
                && self.dump.hosts.len() < MAX_HOSTS
                && !self.dump.hosts.contains(h)
            {
                self.dump.hosts.push(h.chars().take(256).collect());
            }
        }
        let header = r.header.or_else(|| self.header.clone());
        let id = header.as_ref().and_then(|h| h.id.as_ref()).map(|v| match v {
            serde_json::Value::String(s) => s.chars().take(64).collect::<String>(),
            other => other.to_string().chars().take(64).collect(),
        });
        if let (Some(d), Some(h)) = (&r.dump_stats, &header) {
            if let Some(x) = d.coll_dropped_total
                && self.seen_dropped.len() < MAX_HOSTS * 64
            {
                let key = format!("{}/{}", id.clone().unwrap_or_default(), h.rank.unwrap_or(0));
                self.seen_dropped.insert(key, x);
            }
            return;
        }
        let Some(c) = r.coll_perf else { return };
        let Some(h) = header else {
            self.problem(format!("{name}: record {n} (line {line}): a collective with no header before it"));
            return;
        };
        let Some(id) = id else {
            self.problem(format!("{name}: record {n} (line {line}): a header without an id"));
            return;
        };
        let (Some(time_us), Some(size)) = (
            c.coll_exec_time_us.filter(|t| (0.0..=MAX_TIME_US).contains(t)),
            c.coll_msg_size_bytes.filter(|b| (0.0..=MAX_SIZE_BYTES).contains(b)),
        ) else {
            self.problem(format!(
                "{name}: record {n} (line {line}): coll_exec_time_us or coll_msg_size_bytes is not a number from 0 \
                 to a day or a petabyte"
            ));
            return;
        };
        if time_us == 0.0 {
            // Whole microseconds: a collective under one reads 0 and has no bandwidth.
            self.too_short += 1;
            return;
        }
        if let Some(src) = &c.coll_timing_source {
            let k: String = src.chars().take(32).collect();
            if self.dump.timing_sources.len() < 16 || self.dump.timing_sources.contains_key(&k) {
                *self.dump.timing_sources.entry(k).or_insert(0) += 1;
            }
        }
        let ranks = h.n_ranks.unwrap_or(1);
        let Some(op) = crate::import::trace::op_of(&c.coll).filter(|_| ranks > 1) else {
            self.dump.calls.dropped += 1;
            return;
        };
        // nccl-tests' size: all-gather gathers n shares, reduce-scatter takes n shares in; the record's size is one
        // rank's (its algbw is the size times n over the time).
        let bytes = match op {
            Op::AllGather | Op::ReduceScatter => size * f64::from(ranks),
            _ => size,
        };
        let comm = match self.comm_ids.get(&id) {
            Some(&i) => i,
            None => {
                let made = self.dump.calls.comm_index(&id, || Communicator {
                    id: String::new(),
                    label: h.comm_name.clone().map(|s| s.chars().take(128).collect()),
                    ranks,
                    nodes: h.nnodes.filter(|n| *n >= 1),
                    members: Vec::new(),
                });
                let Some(i) = made else {
                    self.dump.calls.dropped += 1;
                    return;
                };
                self.comm_ids.insert(id, i);
                i
            }
        };
        // The process that wrote it stands for its rank: the header's rank is the communicator's own.
        let who = match &metadata {
            Some(Metadata { hostname: Some(host), pid: Some(pid), .. }) => format!("{host} pid {pid}"),
            Some(Metadata { hostname: Some(host), .. }) => host.clone(),
            _ => format!("{name} rank {}", h.rank.unwrap_or(0)),
        };
        let rank = match self.who_ids.get(&who) {
            Some(&r) => Some(r),
            None => {
                let r = self.dump.calls.recorder(&who);
                if let Some(r) = r {
                    self.who_ids.insert(who, r);
                }
                r
            }
        };
        let seq = c.coll_sn.unwrap_or(self.dump.calls.calls.len() as u64);
        self.dump.calls.push_numbered(Call {
            comm,
            op,
            bytes,
            duration_us: time_us,
            rank,
            seq,
            source_busbw_gbs: c.coll_busbw_gbs.filter(|b| b.is_finite()),
        });
    }

    /// What the files held; an error when no record was a collective with its communicator.
    pub fn finish(mut self) -> Result<InspectorDump, InspectorError> {
        if self.dump.calls.calls.is_empty() && self.dump.calls.dropped == 0 {
            let why = match (self.dump.records, self.dump.problems.first()) {
                (0, Some(p)) => p.clone(),
                (0, None) => "no JSON record".to_string(),
                (n, _) => format!("{n} records, none a collective"),
            };
            return Err(InspectorError::NoRecords(why));
        }
        let dropped: u64 = self.seen_dropped.values().sum();
        if !self.seen_dropped.is_empty() {
            self.dump.dropped_by_inspector = Some(dropped);
        }
        let calls = &mut self.dump.calls;
        calls.coverage.push(
            "the Inspector keeps a bounded ring of records per communicator (older ones are overwritten under load) \
             and skips messages under its size threshold: these records are a share of the run's collectives"
                .to_string(),
        );
        if dropped > 0 {
            calls.coverage.push(format!("the Inspector says it dropped {dropped} collective records"));
        }
        if self.too_short > 0 {
            calls.coverage.push(format!(
                "{} records are under a microsecond (coll_exec_time_us 0: too short to time): not judged",
                self.too_short
            ));
        }
        if calls.dropped > 0 {
            calls.coverage.push(format!(
                "{} records are of a collective the model has no figure for (Reduce, send/recv), of a one-rank \
                 communicator, or past the limit: \
                 not judged",
                calls.dropped
            ));
        }
        let cpu =
            self.dump.timing_sources.iter().filter(|(k, _)| k.as_str() != "kernel_gpu").map(|(_, n)| n).sum::<u64>();
        if cpu > 0 {
            calls.coverage.push(format!(
                "{cpu} records were timed on the CPU (coll_timing_source other than kernel_gpu): their time includes \
                 the launch, so their bandwidth reads low"
            ));
        }
        Ok(self.dump)
    }
}

/// Reads one file's text.
pub fn parse(name: &str, text: &str) -> Result<InspectorDump, InspectorError> {
    let mut r = InspectorReader::new();
    r.add(name, text);
    r.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const README_V40: &str = include_str!("../../../tests/data/inspector/nccl-readme-v4.0.json");
    const DATADOG: &str = include_str!("../../../tests/data/inspector/datadog-agent-worker0.jsonl");
    const VERBOSE: &str = include_str!("../../../tests/data/inspector/nccl-readme-verbose.json");

    #[test]
    fn the_readme_record_reads_and_its_busbw_is_nccl_tests() {
        let d = parse("readme", README_V40).expect("reads");
        assert_eq!(d.calls.calls.len(), 1);
        let c = d.calls.calls[0];
        assert_eq!(c.op, Op::AllReduce);
        assert_eq!(c.seq, 1407);
        assert_eq!(d.calls.comms[0].ranks, 8);
        assert_eq!(d.calls.comms[0].nodes, Some(1));
        let ours = c.busbw_gbs(8);
        assert!((ours - 485.119099).abs() < 1e-3, "{ours}");
        assert_eq!(d.versions, vec!["v4.0".to_string()]);
    }

    #[test]
    fn reduce_scatter_sizes_are_the_ranks_shares() {
        let d = parse("verbose", VERBOSE).expect("reads");
        let c = d.calls.calls[0];
        assert_eq!(c.op, Op::ReduceScatter);
        assert!((c.busbw_gbs(8) - 366.134533).abs() < 1e-3, "{}", c.busbw_gbs(8));
        assert_eq!(d.calls.who(c.rank.expect("recorded")), "cw-dfw-h100-004-021-003 pid 438776");
    }

    #[test]
    fn the_real_datadog_payload_reads() {
        let d = parse("datadog", DATADOG).expect("reads");
        let c = d.calls.calls[0];
        assert_eq!((d.calls.comms[0].ranks, d.calls.comms[0].nodes), (3, Some(3)));
        assert_eq!(d.calls.who(c.rank.expect("recorded")), "nanogpt-nccl-test-worker-0 pid 48");
        assert!((c.busbw_gbs(3) - 0.555850).abs() < 1e-5);
        assert_eq!(d.timing_sources.get("kernel_gpu"), Some(&1));
        assert!(looks_like(DATADOG));
    }

    #[test]
    fn a_broken_record_is_named_and_the_rest_is_read() {
        let line = DATADOG.trim();
        let text = format!("{line}\n{{\"header\": {{\"id\": \n{line}\n");
        let d = parse("f.log", &text).expect("reads");
        assert_eq!(d.calls.calls.len(), 2, "{:?}", d.problems);
        assert_eq!(d.unreadable_records, 1);
        assert!(d.problems[0].starts_with("f.log: record 2 (line 2)"), "{}", d.problems[0]);
    }

    /// A v4.3 dump: header and metadata on the marker, the records after it bare (NVIDIA/nccl's README @3254c695).
    #[test]
    fn v43_records_inherit_their_markers_context() {
        let marker = r#"{"header":{"id":"0x7f8c496ae9f661","rank":2,"n_ranks":8,"nnodes":1},"metadata":{"inspector_output_format_version":"v4.3","hostname":"h","pid":7},"dump_stats":{"coll_records":2,"coll_dropped_total":5}}"#;
        let rec = r#"{"coll_perf":{"coll":"AllReduce","coll_sn":1,"coll_msg_size_bytes":1048576,"coll_exec_time_us":20,"coll_timing_source":"kernel_gpu","coll_busbw_gbs":91.75}}"#;
        let d = parse("v43", &format!("{marker}\n{rec}\n{rec}\n")).expect("reads");
        assert_eq!((d.calls.calls.len(), d.dropped_by_inspector), (2, Some(5)));
        assert_eq!(d.calls.who(d.calls.calls[0].rank.expect("rank")), "h pid 7");
        // A v4.2 marker's context is not inherited: a bare record after it has no header.
        let old = marker.replace("v4.3", "v4.2");
        let d = parse("v42", &format!("{old}\n{rec}\n{DATADOG}"));
        let d = d.expect("the DataDog record reads");
        assert_eq!(d.calls.calls.len(), 1);
        assert!(d.problems[0].contains("no header before it"), "{:?}", d.problems);
        assert!(marker_carries_context("v4.4") && !marker_carries_context("v4.2") && marker_carries_context("v5"));
    }

    /// A broken record after a blank line is named once, and the record numbers after it stay right.
    #[test]
    fn a_broken_record_after_a_blank_line_is_counted_once() {
        let line = DATADOG.trim();
        let text = format!("{line}\n\n{{\"header\": é\n{line}\n");
        let d = parse("f.log", &text).expect("reads");
        assert_eq!((d.calls.calls.len(), d.unreadable_records), (2, 1), "{:?}", d.problems);
        assert!(d.problems[0].starts_with("f.log: record 2 (line 3)"), "{:?}", d.problems);
    }

    #[test]
    fn junk_is_refused_by_name() {
        for junk in ["", "hello", "[1,2]", "{\"header\": {}}", "{\"coll_perf\": 1}"] {
            assert!(parse("x", junk).is_err(), "{junk}");
        }
    }
}
