//! nccl-tests output (`all_reduce_perf`, `all_gather_perf`, `reduce_scatter_perf`, `sendrecv_perf`, ...).
//!
//! Layouts (nccl-tests `src/common.cu`): a `# nThread 1 nGpus 1 minBytes ... iters: 20 ...` header, `#  Rank  0 Group
//! 0 Pid 123 on host device 0 [0x1b] NVIDIA H100 80GB HBM3` lines, a column header (`size count type redop root time
//! algbw busbw #wrong time algbw busbw #wrong`; before 2.10 without `root`, and `error` where `#wrong` is now), the
//! table (out-of-place then in-place; `N/A` when validation is off), `# Out of bounds values : 0 OK` and `# Avg bus
//! bandwidth : 142.735`. Rows are read from their end (the timings), so that the columns before them may differ.

use serde::{Deserialize, Serialize};

use super::strip_launcher;
use crate::collective::Op;

/// One side (out-of-place or in-place) of a table row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Timing {
    /// Time per operation, microseconds.
    pub time_us: f64,
    /// Algorithm bandwidth, GB/s (1e9 B/s): size / time.
    pub algbw_gbs: f64,
    /// Bus bandwidth, GB/s: algbw times the collective's factor (2(n-1)/n for all-reduce).
    pub busbw_gbs: f64,
    /// Wrong elements (`#wrong`, or `error` in old layouts); `None` for `N/A` (validation off).
    pub wrong: Option<f64>,
}

/// One table row; the out-of-place figures are flat (`size_bytes`, `time_us`, `algbw_gbs`, `busbw_gbs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NcclTestsRow {
    /// Message size in bytes.
    pub size_bytes: f64,
    /// Elements.
    pub count: Option<f64>,
    /// Element type (`float`, `half`, `bfloat16`, ...).
    #[serde(rename = "type")]
    pub dtype: Option<String>,
    /// Reduction (`sum`, `none`, ...).
    pub redop: Option<String>,
    /// Root rank (-1 for none).
    pub root: Option<i64>,
    /// Out-of-place time, microseconds.
    pub time_us: f64,
    /// Out-of-place algorithm bandwidth, GB/s.
    pub algbw_gbs: f64,
    /// Out-of-place bus bandwidth, GB/s.
    pub busbw_gbs: f64,
    /// Out-of-place wrong elements.
    pub wrong: Option<f64>,
    /// The in-place figures, when the row has them.
    pub in_place: Option<Timing>,
}

/// One rank's device line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RankDevice {
    /// Rank.
    pub rank: u32,
    /// Host name as printed.
    pub host: Option<String>,
    /// CUDA device index.
    pub device: Option<u32>,
    /// GPU name (`NVIDIA H100 80GB HBM3`).
    pub gpu: Option<String>,
}

/// Why an nccl-tests output gave no row, said beside its "0 rows" by every front end.
pub const NO_ROWS: &str = "no result row was read: the output stops before its table, or its rows are not in \
                           nccl-tests' columns (size, count, type, ..., time, algbw, busbw); paste one run's whole output";

/// A parsed run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NcclTestsRun {
    /// The test, when the command line or binary name is in the text (`all_reduce_perf`).
    pub test: Option<String>,
    /// `nThread`.
    pub n_thread: Option<u32>,
    /// `nGpus` (GPUs per process).
    pub n_gpus: Option<u32>,
    /// `minBytes`.
    pub min_bytes: Option<f64>,
    /// `maxBytes`.
    pub max_bytes: Option<f64>,
    /// `warmup iters`.
    pub warmup_iters: Option<u32>,
    /// `iters`.
    pub iters: Option<u32>,
    /// The rank/device lines.
    pub devices: Vec<RankDevice>,
    /// Ranks: the highest rank of the rank lines plus one, else unknown.
    pub ranks: Option<u32>,
    /// Distinct hosts in the rank lines (at most the nodes: excerpts may drop some).
    pub nodes: Option<u32>,
    /// The table, in order.
    pub rows: Vec<NcclTestsRow>,
    /// The largest out-of-place bus bandwidth in the table, GB/s.
    pub peak_busbw_gbs: Option<f64>,
    /// `# Avg bus bandwidth`.
    pub avg_busbw_gbs: Option<f64>,
    /// `# Out of bounds values : N OK|FAILED`: N.
    pub out_of_bounds: Option<u64>,
    /// The table stopped mid-row or has no `Avg bus bandwidth` line: the output was cut.
    pub truncated: bool,
    /// Which run of the file this is, from 1 ([`parse_runs`] splits a file of several); 0 in documents written
    /// before files were split.
    #[serde(default)]
    pub run: u32,
    /// How many runs the file holds: a sweep script, `-n`/`-w` reruns or a job array append one run after another,
    /// and each is read on its own.
    #[serde(default)]
    pub runs_in_file: u32,
    /// What the run's `NCCL_DEBUG=INFO` lines say (its version, transports, GPUDirect RDMA), when it has any.
    #[serde(default)]
    pub nccl_log: Option<Box<super::NcclLog>>,
}

/// Tokens looked at per line: a row has 13, a header line about 30; the rest of a longer line is not a table's.
const MAX_TOKENS: usize = 64;

fn num(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn wrong(s: &str) -> Option<f64> {
    if s.eq_ignore_ascii_case("n/a") { None } else { num(s) }
}

/// The value after `key` in a `# nThread 1 nGpus 1 minBytes 8 ... iters: 20` header (`key` may end in `:`).
fn after<'a>(tokens: &[&'a str], key: &[&str]) -> Option<&'a str> {
    tokens.windows(key.len() + 1).find(|w| w[..key.len()] == *key).map(|w| w[key.len()])
}

/// Column layout of a table, from its column header.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    /// Tokens before `size` (a column someone added in front, such as a node count).
    skip: usize,
    /// Timing halves the header promises: 2 (out-of-place and in-place), or 1.
    halves: usize,
}

/// Reads a row, or `None` when it is not a full data row. The timings are read from the end of the row (the last
/// 8 tokens, or 4 for the out-of-place half alone), so that what stands between the count and the timings may
/// differ: `redop` and `root` (2.10 and later), `redop` alone (before), `root` alone (an old broadcast), or a
/// `redop` left blank (an old all-to-all). A row whose algbw is not its size over its time is not a row (a line
/// cut short reads shifted).
fn row(tokens: &[&str]) -> Option<NcclTestsRow> {
    let size = num(tokens.first()?)?;
    let n = tokens.len();
    if size < 0.0 || n < 6 {
        return None;
    }
    let halves = if n >= 10 { 2 } else { 1 };
    let t0 = n - 4 * halves;
    let timing = |at: usize| -> Option<Timing> {
        Some(Timing {
            time_us: num(tokens.get(at)?)?,
            algbw_gbs: num(tokens.get(at + 1)?)?,
            busbw_gbs: num(tokens.get(at + 2)?)?,
            wrong: tokens.get(at + 3).and_then(|w| wrong(w)),
        })
    };
    let oop = timing(t0)?;
    let consistent = |t: &Timing| {
        if size == 0.0 {
            return t.time_us >= 0.0;
        }
        let expected = size / (t.time_us * 1e3);
        t.time_us > 0.0 && (t.algbw_gbs - expected).abs() <= 0.02 * expected + 0.011
    };
    if !consistent(&oop) {
        return None;
    }
    let ip = if halves == 2 { timing(t0 + 4).filter(consistent) } else { None };
    let middle = tokens.get(2..t0).unwrap_or(&[]);
    Some(NcclTestsRow {
        size_bytes: size,
        count: tokens.get(1).and_then(|c| num(c)),
        dtype: middle.iter().find(|t| TYPES.contains(t)).map(|s| s.to_string()),
        redop: middle.iter().find(|t| OPS.contains(t)).map(|s| s.to_string()),
        root: middle.iter().rev().find_map(|t| t.parse::<i64>().ok()),
        time_us: oop.time_us,
        algbw_gbs: oop.algbw_gbs,
        busbw_gbs: oop.busbw_gbs,
        wrong: oop.wrong,
        in_place: ip,
    })
}

/// Where a run's rank count came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankSource {
    /// The run's `#  Rank  N ...` lines.
    RankLines,
    /// The printed busbw/algbw ratio, which nccl-tests defines per collective (2(n-1)/n for all-reduce, (n-1)/n
    /// for all-gather, reduce-scatter and all-to-all).
    BusbwRatio,
}

impl RankSource {
    /// Plain words, for "N ranks (from ...)".
    pub fn describe(self) -> &'static str {
        match self {
            RankSource::RankLines => "the run's rank lines",
            RankSource::BusbwRatio => "the run's busbw/algbw ratio",
        }
    }
}

impl NcclTestsRun {
    /// The collective: from the binary's name (`all_gather_perf`), else from the table. A reduction (`sum`, ...)
    /// with busbw at or above algbw is an all-reduce (2(n-1)/n is 1 on two ranks), below it a reduce-scatter;
    /// `none` with busbw equal to algbw and a root is a broadcast, below it an all-gather (an all-to-all prints the
    /// same: only the binary's name tells). `None` for a binary the model does not cover (`sendrecv_perf`,
    /// `reduce_perf`, `gather_perf`, ...) or a table without a usable row.
    pub fn op(&self) -> Option<Op> {
        let row = self.best_row();
        let reduces = |row: &NcclTestsRow| row.redop.as_deref().is_some_and(|r| r != "none");
        if let Some(name) = self.test.as_deref() {
            let op = Op::parse(name);
            // A name whose collective contradicts the rows (a reduction's name over rows that reduce nothing, or
            // the reverse) is one a note mentions, not this run's binary: the rows decide.
            let named_reduces = matches!(op, Some(Op::AllReduce | Op::ReduceScatter));
            if op.is_none() || row.is_none_or(|r| r.redop.is_none() || reduces(r) == named_reduces) {
                return op;
            }
        }
        let row = row?;
        let f = row.busbw_gbs / row.algbw_gbs;
        let reduces = reduces(row);
        Some(match (reduces, f) {
            (true, f) if f >= 1.0 - 1e-3 => Op::AllReduce,
            (true, _) => Op::ReduceScatter,
            (false, f) if (f - 1.0).abs() <= 1e-3 && row.root.is_some_and(|r| r >= 0) => Op::Broadcast,
            (false, _) => Op::AllGather,
        })
    }

    /// The row whose ratio is read most precisely: the largest algbw (two decimals on the largest numbers).
    fn best_row(&self) -> Option<&NcclTestsRow> {
        self.rows
            .iter()
            .filter(|r| r.algbw_gbs >= 1.0 && r.busbw_gbs > 0.0)
            .max_by(|a, b| a.algbw_gbs.total_cmp(&b.algbw_gbs))
    }

    /// The ranks the busbw/algbw ratio of `op` allows, lowest and highest: both figures are printed to 0.01, so
    /// the ratio is known to a few parts in 10^5, which pins a count exactly up to some tens of ranks and to a
    /// range above that. `None` for a broadcast (its factor is 1) or a table without a usable row.
    pub fn rank_range(&self, op: Op) -> Option<(f64, f64)> {
        let row = self.best_row()?;
        let lo = (row.busbw_gbs - 0.005) / (row.algbw_gbs + 0.005);
        let hi = (row.busbw_gbs + 0.005) / (row.algbw_gbs - 0.005);
        let ranks = |f: f64| -> f64 {
            match op {
                Op::AllReduce => 2.0 / (2.0 - f.min(1.999_999)),
                Op::AllGather | Op::ReduceScatter | Op::AllToAll => 1.0 / (1.0 - f.min(0.999_999)),
                Op::Broadcast => f64::NAN,
            }
        };
        let (a, b) = (ranks(lo), ranks(hi));
        (a.is_finite() && b.is_finite() && b >= 1.5).then_some((a.max(1.0), b))
    }

    /// The rank count and where it came from: the rank lines, else the busbw/algbw ratio of `op` when it pins
    /// one count.
    pub fn rank_count(&self, op: Op) -> Option<(u32, RankSource)> {
        if let Some(r) = self.ranks {
            return Some((r, RankSource::RankLines));
        }
        let (lo, hi) = self.rank_range(op)?;
        let (a, b) = (lo.round(), hi.round());
        (a == b && (2.0..=1e6).contains(&a)).then_some((a as u32, RankSource::BusbwRatio))
    }

    /// The run's nodes for `gpus_per_node` GPUs per node: its ranks (from its lines or its busbw/algbw ratio)
    /// divided by it, when they divide evenly.
    /// Above a few tens of ranks the ratio allows a range: the one multiple of `gpus_per_node` in it is taken.
    pub fn nodes_for(&self, gpus_per_node: u32) -> Option<u32> {
        if gpus_per_node == 0 {
            return None;
        }
        let op = self.op().unwrap_or(Op::AllReduce);
        if let Some((ranks, _)) = self.rank_count(op) {
            return (ranks % gpus_per_node == 0).then(|| ranks / gpus_per_node);
        }
        let (lo, hi) = self.rank_range(op)?;
        let g = f64::from(gpus_per_node);
        let (first, last) = ((lo / g).ceil(), (hi / g).floor());
        (first == last && (1.0..=1e6).contains(&first)).then_some(first as u32)
    }
}

/// Element types and reductions nccl-tests prints (`src/common.cu` `test_typenames`, `test_opnames`).
const TYPES: [&str; 11] =
    ["int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16", "fp8_e4m3"];
const OPS: [&str; 7] = ["sum", "prod", "max", "min", "avg", "mulsum", "none"];

/// Whether a line is a full table row (for telling a grep-filtered table from other text): a size, a count and an
/// element type, then what [`row`] reads (old and new layouts alike).
pub(crate) fn looks_like_row(line: &str) -> bool {
    let t: Vec<&str> = line.split_whitespace().take(14).collect();
    t.len() >= 7
        && t.len() <= 13
        && num(t[0]).is_some()
        && num(t[1]).is_some()
        && TYPES.contains(&t[2])
        && row(&t).is_some()
}

/// What a line is, for telling where one run ends and the next begins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marker {
    /// `# Collective test starting: all_reduce_perf` (nccl-tests 2.13 and later print it first).
    Start,
    /// `# nThread 1 nGpus 1 minBytes ...`: the run's header.
    Header,
    /// `#  Rank  0 Group  0 Pid ...`.
    Rank,
    /// A table row.
    Row,
    /// Anything else.
    Other,
}

fn marker(line: &str) -> Marker {
    let l = strip_launcher(line).trim();
    if let Some(c) = l.strip_prefix('#') {
        let c = c.trim_start();
        if c.starts_with("Collective test starting") {
            Marker::Start
        } else if c.starts_with("nThread") {
            Marker::Header
        } else if c.starts_with("Rank ") {
            Marker::Rank
        } else {
            Marker::Other
        }
    } else if looks_like_row(l) {
        Marker::Row
    } else {
        Marker::Other
    }
}

/// The runs of a file, each as the slice of text it spans. A run starts at `# Collective test starting`, at a
/// `# nThread` header after another header or after rows, and at rank lines after rows (a run printed without
/// its header); what comes before the first marker belongs to the first run. One pass over the lines.
fn split_runs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut at) = (0usize, 0usize);
    let (mut rows, mut header, mut began) = (false, false, false);
    for line in text.split_inclusive('\n') {
        let m = marker(line);
        let boundary = match m {
            Marker::Start => rows || header || began,
            Marker::Header => rows || header,
            Marker::Rank => rows,
            Marker::Row | Marker::Other => false,
        };
        if boundary && at > start {
            out.push(&text[start..at]);
            start = at;
            (rows, header, began) = (false, false, false);
        }
        match m {
            Marker::Start => began = true,
            Marker::Header => header = true,
            Marker::Row => rows = true,
            Marker::Rank | Marker::Other => {}
        }
        at += line.len();
    }
    if at > start || out.is_empty() {
        out.push(&text[start..]);
    }
    out
}

/// Reads every run of a file of nccl-tests output, in order: a run starts at `# Collective test starting`, at a
/// `# nThread` header after another header or after rows, and at rank lines after rows.
pub fn parse_runs(text: &str) -> Vec<NcclTestsRun> {
    let text = super::strip_ansi(text);
    let parts = split_runs(&text);
    let n = u32::try_from(parts.len()).unwrap_or(u32::MAX);
    parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let mut run = parse_one(part);
            run.run = u32::try_from(i + 1).unwrap_or(u32::MAX);
            run.runs_in_file = n;
            run
        })
        .collect()
}

/// Reads nccl-tests output: the file's first run, with `runs_in_file` saying how many it holds ([`parse_runs`]
/// reads them all). Lines it does not know (NCCL INFO lines, the shell prompt, a launcher's chatter) are skipped.
pub fn parse(text: &str) -> NcclTestsRun {
    parse_runs(text).into_iter().next().unwrap_or_default()
}

/// Reads one run's text (escape sequences already removed).
fn parse_one(text: &str) -> NcclTestsRun {
    let mut run = NcclTestsRun::default();
    let mut layout: Option<Layout> = None;
    let mut hosts: Vec<String> = Vec::new();
    let mut last_row_cut = false;
    for raw in text.lines() {
        let line = strip_launcher(raw).trim();
        if line.is_empty() || line.contains(" NCCL INFO ") || line.contains(" NCCL WARN ") {
            continue;
        }
        if run.test.is_none()
            && let Some(t) = line
                .split(|c: char| c.is_whitespace() || c == '/')
                // Quoted in a note or Markdown: `all_reduce_perf`, "all_reduce_perf".
                .map(|t| t.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
                .find(|t| t.ends_with("_perf"))
        {
            run.test = Some(t.to_string());
        }
        if let Some(comment) = line.strip_prefix('#') {
            let tokens: Vec<&str> = comment.split_whitespace().take(MAX_TOKENS).collect();
            match tokens.first().copied() {
                Some("nThread") => {
                    run.n_thread = after(&tokens, &["nThread"]).and_then(|v| v.parse().ok());
                    run.n_gpus = after(&tokens, &["nGpus"]).and_then(|v| v.parse().ok());
                    run.min_bytes = after(&tokens, &["minBytes"]).and_then(num);
                    run.max_bytes = after(&tokens, &["maxBytes"]).and_then(num);
                    run.warmup_iters = after(&tokens, &["warmup", "iters:"]).and_then(|v| v.parse().ok());
                    // `warmup iters: 5 iters: 20 agg iters: 1`: the `iters:` after neither `warmup` nor `agg`.
                    run.iters = tokens
                        .windows(3)
                        .find(|w| w[1] == "iters:" && w[0] != "warmup" && w[0] != "agg")
                        .and_then(|w| w[2].parse().ok());
                }
                Some("Rank") => {
                    let rank = after(&tokens, &["Rank"]).and_then(|v| v.parse().ok());
                    if let Some(rank) = rank {
                        let host = after(&tokens, &["on"]).map(str::to_string);
                        let device = after(&tokens, &["device"]).and_then(|v| v.parse().ok());
                        // The GPU name follows the `[0x1b]` bus id.
                        let gpu = tokens
                            .iter()
                            .position(|t| t.starts_with('[') && t.ends_with(']'))
                            .map(|i| tokens[i + 1..].join(" "))
                            .filter(|g| !g.is_empty());
                        if let Some(h) = &host
                            && !hosts.contains(h)
                        {
                            hosts.push(h.clone());
                        }
                        run.devices.push(RankDevice { rank, host, device, gpu });
                    }
                }
                Some("size") => {
                    layout = Some(Layout { skip: 0, halves: tokens.iter().filter(|t| **t == "time").count().max(1) });
                }
                Some("Avg") if tokens.get(1) == Some(&"bus") => {
                    run.avg_busbw_gbs = tokens.last().and_then(|v| num(v));
                }
                Some("Out") if tokens.get(1) == Some(&"of") => {
                    run.out_of_bounds = tokens.iter().find_map(|t| t.parse().ok());
                }
                _ => {}
            }
            continue;
        }
        let all: Vec<&str> = line.split_whitespace().take(MAX_TOKENS).collect();
        // A column header without its `#` (a table pasted with an extra first column, such as a node count).
        if let Some(at) = all.iter().position(|t| *t == "size")
            && all.contains(&"count")
            && all.contains(&"busbw")
        {
            layout = Some(Layout { skip: at, halves: all.iter().filter(|t| **t == "time").count().max(1) });
            continue;
        }
        // Without a column header (a cut start) the row's own width tells how many halves it has.
        let l = layout.unwrap_or(Layout { skip: 0, halves: 1 });
        let tokens = all.get(l.skip..).unwrap_or(&[]);
        if let Some(r) = row(tokens) {
            // A row with fewer halves than the header promises was cut.
            last_row_cut = l.halves == 2 && r.in_place.is_none();
            run.rows.push(r);
        } else if tokens.first().is_some_and(|t| num(t).is_some()) && !run.rows.is_empty() {
            last_row_cut = true;
        }
    }
    run.peak_busbw_gbs = run.rows.iter().map(|r| r.busbw_gbs).fold(None, |m, b| Some(m.map_or(b, |m: f64| m.max(b))));
    if !run.devices.is_empty() {
        // Excerpts often keep only the first and last rank lines: the highest rank tells the count.
        let top = run.devices.iter().map(|d| d.rank).max().unwrap_or(0);
        run.ranks = Some(top.saturating_add(1).max(u32::try_from(run.devices.len()).unwrap_or(u32::MAX)));
        run.nodes = (!hosts.is_empty()).then(|| u32::try_from(hosts.len()).unwrap_or(u32::MAX));
    }
    run.truncated = last_row_cut || (!run.rows.is_empty() && run.avg_busbw_gbs.is_none());
    let log = super::nccl_log::parse(text);
    if log != super::NcclLog::default() {
        run.nccl_log = Some(Box::new(log));
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = "\
[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
[1,0]<stdout>:#
[1,0]<stdout>:# Using devices
[1,0]<stdout>:#  Rank  0 Group  0 Pid   1274 on node-a device  0 [0x0f] NVIDIA H100 80GB HBM3
[1,0]<stdout>:#  Rank  1 Group  0 Pid   2322 on node-b device  0 [0xd8] NVIDIA H100 80GB HBM3
node-a:1274:1274 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>
[1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
[1,0]<stdout>:   536870912     134217728     float     sum      -1   6983.7   76.88  144.14    N/A   7003.1   76.66  143.74    N/A
[1,0]<stdout>:  1073741824     268435456     float     sum      -1    13435   79.92  149.85      0    13430   79.95  149.91      0
[1,0]<stdout>:# Out of bounds values : 0 OK
[1,0]<stdout>:# Avg bus bandwidth    : 146.9
";

    #[test]
    fn a_run_reads_with_its_header_ranks_and_rows() {
        let r = parse(RUN);
        assert_eq!((r.n_thread, r.n_gpus, r.min_bytes, r.max_bytes), (Some(1), Some(1), Some(8.0), Some(1073741824.0)));
        assert_eq!((r.warmup_iters, r.iters), (Some(5), Some(20)));
        assert_eq!((r.ranks, r.nodes), (Some(2), Some(2)));
        assert_eq!((r.nodes_for(1), r.nodes_for(2), r.nodes_for(3), r.nodes_for(0)), (Some(2), Some(1), None, None));
        assert_eq!(r.devices[1].gpu.as_deref(), Some("NVIDIA H100 80GB HBM3"));
        assert_eq!(r.rows.len(), 2);
        let last = &r.rows[1];
        assert_eq!(
            (last.size_bytes, last.time_us, last.algbw_gbs, last.busbw_gbs),
            (1073741824.0, 13435.0, 79.92, 149.85)
        );
        assert_eq!(last.in_place.as_ref().map(|t| t.busbw_gbs), Some(149.91));
        assert_eq!(r.rows[0].wrong, None);
        assert_eq!(r.peak_busbw_gbs, Some(149.85));
        assert_eq!((r.avg_busbw_gbs, r.out_of_bounds, r.truncated), (Some(146.9), Some(0), false));
    }

    #[test]
    fn old_layouts_and_cut_output_read_too() {
        // nccl-tests before 2.10: no root column, `error` instead of #wrong.
        let old = "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n\
                   33554432       8388608   float     sum   3562.1    9.42   17.66  2e-07   3560.7    9.42   17.67  2e-07\n\
                   67108864      16777216   float     sum   7025.4";
        let r = parse(old);
        assert_eq!(r.rows.len(), 1);
        assert_eq!((r.rows[0].busbw_gbs, r.rows[0].root, r.rows[0].wrong), (17.66, None, Some(2e-7)));
        assert!(r.truncated);
        // No column header at all: the row width decides.
        let bare = "     8388608       2097152     float     sum      -1    215.3   38.96   73.04    N/A    180.0   46.60   87.38    N/A";
        assert_eq!(parse(bare).rows[0].busbw_gbs, 73.04);
        // An old broadcast (root, no redop) and an old all-to-all (redop left blank), from microsoft/superbenchmark's
        // test data (tests/data/nccl_broadcast.log, nccl_alltoall.log).
        let bcast = "#       size         count    type    root     time   algbw   busbw  error     time   algbw   busbw  error\n\
                       8589934592    2147483648   float       0    36896  232.81  232.81    N/A    36599  234.70  234.70    N/A";
        let b = parse(bcast);
        assert_eq!((b.rows[0].time_us, b.rows[0].busbw_gbs, b.rows[0].root), (36896.0, 232.81, Some(0)));
        assert_eq!(b.op(), Some(Op::Broadcast));
        assert!(!b.truncated || b.avg_busbw_gbs.is_none());
        let a2a = "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n\
                     8589934592     268435456   float            33508  256.36  224.31    N/A    33234  258.47  226.16    N/A";
        let a = parse(a2a);
        assert_eq!((a.rows[0].time_us, a.rows[0].busbw_gbs, a.rows[0].redop.as_deref()), (33508.0, 224.31, None));
        assert_eq!(a.rank_count(Op::AllToAll), Some((8, RankSource::BusbwRatio)));
    }

    #[test]
    fn the_collective_is_read_from_the_binary_else_from_the_table() {
        // Two ranks: an all-reduce's busbw equals its algbw (2(n-1)/n = 1); still an all-reduce, not a
        // reduce-scatter.
        let two = "     8388608       2097152     float     sum      -1    180.0   46.60   46.60    N/A    180.0   46.60   46.60    N/A";
        assert_eq!(parse(two).op(), Some(Op::AllReduce));
        let rs = "     8388608        262144     float     sum      -1    180.0   46.60   40.78    N/A    180.0   46.60   40.78    N/A";
        assert_eq!(parse(rs).op(), Some(Op::ReduceScatter));
        // A binary the model does not cover is not read as something else.
        let sendrecv = format!("# sendrecv_perf -b 8 -e 8M\n{two}");
        assert_eq!(parse(&sendrecv).op(), None);
        // The name tells an all-gather from an all-to-all, whose rows read alike (no reduction).
        let gather = "     8388608        262144     float     none      -1    180.0   46.60   40.78    N/A    180.0   46.60   40.78    N/A";
        assert_eq!(parse(&format!("./build/all_gather_perf -b 8\n{gather}")).op(), Some(Op::AllGather));
        assert_eq!(parse(&format!("./build/alltoall_perf -b 8\n{gather}")).op(), Some(Op::AllToAll));
        // Quoted in a note, the binary's name loses its quotes.
        let quoted = parse(&format!("ran `reduce_scatter_perf -b 8` and \"x\"\n{rs}"));
        assert_eq!(quoted.test.as_deref(), Some("reduce_scatter_perf"));
        assert_eq!(quoted.op(), Some(Op::ReduceScatter));
        // A note naming another collective than the rows show does not decide it: these rows reduce.
        let note = parse(&format!("Note: unlike `all_gather_perf`, this run reduces.\n{rs}"));
        assert_eq!(note.op(), Some(Op::ReduceScatter));
    }
}
