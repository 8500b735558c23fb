//! nccl-tests output (`all_reduce_perf`, `all_gather_perf`, `reduce_scatter_perf`, `sendrecv_perf`, ...).
//!
//! Layouts (nccl-tests `src/common.cu`): a `# nThread 1 nGpus 1 minBytes ... iters: 20 ...` header, `#  Rank  0 Group
//! 0 Pid 123 on host device 0 [0x1b] NVIDIA H100 80GB HBM3` lines, a column header (`size count type redop root time
//! algbw busbw #wrong time algbw busbw #wrong`; before 2.10 without `root`, and `error` where `#wrong` is now), the
//! table (out-of-place then in-place; `N/A` when validation is off), `# Out of bounds values : 0 OK` and `# Avg bus
//! bandwidth : 142.735`. Rows are read by the column header when there is one, else by their width.

use serde::{Deserialize, Serialize};

use super::strip_launcher;

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

/// Column layout of a table: where each field is, by the column header or the row width.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    root: bool,
    /// Tokens before `size` (a column someone added in front, such as a node count).
    skip: usize,
}

impl Layout {
    /// The positions (count, type, redop, root, first timing) for this layout.
    fn width(self) -> usize {
        if self.root { 13 } else { 12 }
    }
}

/// Reads a row with `layout`, or `None` when it is not a full data row.
fn row(tokens: &[&str], layout: Layout) -> Option<NcclTestsRow> {
    let size = num(tokens.first()?)?;
    if size < 0.0 || tokens.len() < layout.width() - 4 {
        return None;
    }
    let t0 = if layout.root { 5 } else { 4 };
    let oop = Timing {
        time_us: num(tokens.get(t0)?)?,
        algbw_gbs: num(tokens.get(t0 + 1)?)?,
        busbw_gbs: num(tokens.get(t0 + 2)?)?,
        wrong: tokens.get(t0 + 3).and_then(|w| wrong(w)),
    };
    let ip = (|| {
        Some(Timing {
            time_us: num(tokens.get(t0 + 4)?)?,
            algbw_gbs: num(tokens.get(t0 + 5)?)?,
            busbw_gbs: num(tokens.get(t0 + 6)?)?,
            wrong: tokens.get(t0 + 7).and_then(|w| wrong(w)),
        })
    })();
    Some(NcclTestsRow {
        size_bytes: size,
        count: tokens.get(1).and_then(|c| num(c)),
        dtype: tokens.get(2).map(|s| s.to_string()),
        redop: tokens.get(3).map(|s| s.to_string()),
        root: if layout.root { tokens.get(4).and_then(|r| r.parse().ok()) } else { None },
        time_us: oop.time_us,
        algbw_gbs: oop.algbw_gbs,
        busbw_gbs: oop.busbw_gbs,
        wrong: oop.wrong,
        in_place: ip,
    })
}

impl NcclTestsRun {
    /// The run's nodes for `gpus_per_node` GPUs per node: its ranks divided by it, when they divide evenly.
    pub fn nodes_for(&self, gpus_per_node: u32) -> Option<u32> {
        let ranks = self.ranks?;
        (gpus_per_node > 0 && ranks % gpus_per_node == 0).then(|| ranks / gpus_per_node)
    }
}

/// Element types and reductions nccl-tests prints (`src/common.cu` `test_typenames`, `test_opnames`).
const TYPES: [&str; 11] =
    ["int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16", "fp8_e4m3"];
const OPS: [&str; 7] = ["sum", "prod", "max", "min", "avg", "mulsum", "none"];

/// Whether a line is a full table row (for telling a grep-filtered table from other text).
pub(crate) fn looks_like_row(line: &str) -> bool {
    let t: Vec<&str> = line.split_whitespace().take(14).collect();
    (t.len() == 13 || t.len() == 12 || t.len() == 9 || t.len() == 8)
        && num(t[0]).is_some()
        && num(t[1]).is_some()
        && TYPES.contains(&t[2])
        && OPS.contains(&t[3])
}

/// Reads nccl-tests output. Lines it does not know (NCCL INFO lines, the shell prompt, a launcher's chatter) are
/// skipped.
pub fn parse(text: &str) -> NcclTestsRun {
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
            && let Some(t) = line.split(|c: char| c.is_whitespace() || c == '/').find(|t| t.ends_with("_perf"))
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
                    layout = Some(Layout { root: tokens.contains(&"root"), skip: 0 });
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
            layout = Some(Layout { root: all.contains(&"root"), skip: at });
            continue;
        }
        // Without a column header (a cut start), the width tells the layout: 13 with root, 12 without; 9 and 8 for
        // the out-of-place half alone.
        let l = layout.unwrap_or(Layout { root: !(all.len() == 12 || all.len() == 8), skip: 0 });
        let tokens = all.get(l.skip..).unwrap_or(&[]);
        if let Some(r) = row(tokens, l) {
            last_row_cut = tokens.len() < l.width();
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
    }
}
