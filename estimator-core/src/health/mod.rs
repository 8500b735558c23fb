//! Is a measured fabric healthy? A measured nccl-tests run of any collective against what the model expects for the
//! same hardware at every size it has (`curve.rs`), with the verdict from the large sizes (bandwidth), where along
//! the curve the run departs, and the likely causes when the two differ, read from the NCCL log, `nvidia-smi topo
//! -m` and the node's report when they are given (`causes.rs`).
//!
//! Thresholds: at large sizes the model comes within 10% of the healthy public measurements at the median, 25% at
//! most for the held-out ones (README's validation), so a run at 75% of the expected bus bandwidth or more is
//! **healthy**, 40% to 75% **degraded**, and below 40% **unhealthy** (one NIC's worth on an eight-NIC node, or a
//! socket fallback, is far below that).
//!
//! A run is judged only against hardware it can be from. When its own facts (ranks, the GPU named in its rank
//! lines, its hosts) differ from the scenario's, or it measured more than [`MISMATCH_RATIO`] of what the
//! scenario's hardware can give, the verdict is **mismatch** with what does not match ([`Health::mismatch`]), and
//! [`run_hardware`] says what the run itself tells about its hardware.

use serde::{Deserialize, Serialize};

mod causes;
mod curve;

use crate::catalog::{self, GpuSpec, Lookup};
use crate::collective::Op;
use crate::import::{NcclLog, NcclTestsRun, RankSource, Topology};
use crate::report::Summary;
use crate::scenario::Scenario;
pub(crate) use causes::evidence_lines;
use curve::check;

/// At or above this share of the expected bus bandwidth, a run is healthy.
pub const HEALTHY: f64 = 0.75;
/// Below this share, unhealthy (between the two: degraded).
pub const UNHEALTHY: f64 = 0.40;
/// Sizes from here up are "large" (bandwidth-bound on any fabric this models).
pub const LARGE_BYTES: f64 = 256.0 * 1024.0 * 1024.0;
/// Above this share of the expected bus bandwidth a run was not measured on the scenario's hardware: the model is
/// within 25% of the held-out healthy public measurements at large sizes (README's validation), and a two-node
/// Tree/NVLSTree reading is what it expects there, so 1.5x is far outside what the same hardware gives.
pub const MISMATCH_RATIO: f64 = 1.5;
/// The mid size compared where there is one (latency and protocol matter as much as bandwidth).
pub const MID_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// The verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// At least [`HEALTHY`] of what the hardware should give.
    Healthy,
    /// Between [`UNHEALTHY`] and [`HEALTHY`].
    Degraded,
    /// Below [`UNHEALTHY`].
    Unhealthy,
    /// The run cannot be from the scenario's hardware ([`Health::mismatch`] says why): not judged.
    Mismatch,
}

impl Verdict {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::Degraded => "degraded",
            Verdict::Unhealthy => "unhealthy",
            Verdict::Mismatch => "mismatch",
        }
    }

    fn of(ratio: f64) -> Verdict {
        if ratio >= HEALTHY {
            Verdict::Healthy
        } else if ratio >= UNHEALTHY {
            Verdict::Degraded
        } else {
            Verdict::Unhealthy
        }
    }
}

/// Measured against expected at one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SizeCheck {
    /// Message size, bytes.
    pub size_bytes: f64,
    /// Measured out-of-place bus bandwidth, GB/s.
    pub measured_busbw_gbs: f64,
    /// The model's bus bandwidth for this size (NCCL's choice of algorithm and protocol), GB/s.
    pub expected_busbw_gbs: f64,
    /// On two nodes with NCCL's default algorithm: the best Tree/NVLSTree pair's busbw, GB/s (all-reduce).
    pub expected_tree_busbw_gbs: Option<f64>,
    /// On several nodes with NCCL's default algorithm: the Ring's busbw, GB/s (all-reduce). A run between this
    /// and `expected_busbw_gbs` is as expected.
    #[serde(default)]
    pub expected_ring_busbw_gbs: Option<f64>,
    /// The model's time for this size, microseconds.
    #[serde(default)]
    pub expected_time_us: f64,
    /// NCCL's algorithm for this size, as the model picks it.
    #[serde(default)]
    pub algorithm: String,
    /// NCCL's protocol for this size, as the model picks it.
    #[serde(default)]
    pub protocol: String,
    /// In the model, latency is most of the time at this size.
    #[serde(default)]
    pub latency_bound: bool,
    /// Measured / the expectation it is judged against (the nearer end when there are two).
    pub ratio: f64,
}

/// A likely cause, in plain words, with what to check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cause {
    /// A stable id (`socket-fallback`, `gdr-off`, `fewer-nics`, `gpu-far-from-nic`, `p2p-disabled`, `tree-reading`).
    pub id: String,
    /// What it is.
    pub text: String,
    /// What to check or change, one step each (the NCCL variables and tools that matter).
    pub check: Vec<String>,
}

/// The health of one measured run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Health {
    /// The verdict (from the large sizes), or `mismatch` when the run is not from the scenario's hardware.
    pub verdict: Verdict,
    /// What in the run does not match the scenario's hardware, one sentence each; empty unless `mismatch`.
    #[serde(default)]
    pub mismatch: Vec<String>,
    /// What the evidence given with the run says (the NCCL log, the topology, the node report), one line each,
    /// whatever the verdict.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// The check at the largest measured size.
    pub large: SizeCheck,
    /// The check at a mid size, when the run has one.
    pub mid: Option<SizeCheck>,
    /// The collective judged (from the binary's name, else from the table: `NcclTestsRun::op`).
    #[serde(default = "all_reduce")]
    pub op: Op,
    /// The run's ranks.
    #[serde(default)]
    pub ranks: u32,
    /// Where the rank count came from: the rank lines, the busbw/algbw ratio, or the scenario.
    #[serde(default)]
    pub ranks_from: String,
    /// The check at every size with a measurable bus bandwidth, smallest first.
    #[serde(default)]
    pub curve: Vec<SizeCheck>,
    /// Where along the curve the run departs from the model, and what to look at.
    #[serde(default)]
    pub departure: Option<String>,
    /// Likely causes, most likely first; for a healthy run only the note on a two-node Tree reading.
    pub causes: Vec<Cause>,
}

fn all_reduce() -> Op {
    Op::AllReduce
}

/// What else is known about the run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evidence<'a> {
    /// The NCCL_DEBUG=INFO log of the run.
    pub log: Option<&'a NcclLog>,
    /// `nvidia-smi topo -m` of a node.
    pub topo: Option<&'a Topology>,
    /// The node's report summary.
    pub summary: Option<&'a Summary>,
}

/// What a run tells about the hardware it ran on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunHardware {
    /// Ranks (GPUs), from the rank lines or the busbw/algbw ratio.
    pub ranks: Option<u32>,
    /// Where `ranks` came from.
    pub ranks_from: Option<RankSource>,
    /// Hosts, when the rank lines name every rank's host.
    pub nodes: Option<u32>,
    /// Ranks per host, when both are known and divide evenly.
    pub gpus_per_node: Option<u32>,
    /// The catalog GPU its rank lines name, when they name one the catalog knows.
    pub gpu: Option<&'static GpuSpec>,
    /// The GPU name as the rank lines print it.
    pub gpu_name: Option<String>,
}

/// What a run's own lines say about its hardware.
pub fn run_hardware(run: &NcclTestsRun) -> RunHardware {
    let gpu_name = run.devices.iter().find_map(|d| d.gpu.clone());
    let gpu = gpu_name.as_deref().and_then(|n| match catalog::lookup(n) {
        Lookup::Exact(g) | Lookup::Matched(g) => Some(g),
        Lookup::Unknown => None,
    });
    // Hosts are a node count only when every rank's line is there (an excerpt may drop some); otherwise the
    // highest device index shows GPUs per node (one process per GPU numbers them 0..7 on an 8-GPU node).
    let complete = run.ranks.is_some_and(|r| run.devices.len() == r as usize);
    let devices = run.devices.iter().filter_map(|d| d.device).max().map(|d| d.saturating_add(1)).filter(|d| *d > 1);
    let (nodes, gpus_per_node) = match (run.ranks, run.nodes.filter(|n| *n > 0 && complete), devices) {
        (Some(r), Some(n), _) if r % n == 0 => (Some(n), Some(r / n)),
        (Some(r), _, Some(d)) if r % d == 0 => (Some(r / d), Some(d)),
        _ => (None, None),
    };
    let counted = run.rank_count(run.op().unwrap_or(Op::AllReduce));
    let ranks = counted.map(|c| c.0);
    let (nodes, gpus_per_node) = match (nodes, ranks, devices) {
        (None, Some(r), Some(d)) if r % d == 0 => (Some(r / d), Some(d)),
        (n, _, _) => (n, gpus_per_node),
    };
    RunHardware { ranks, ranks_from: counted.map(|c| c.1), nodes, gpus_per_node, gpu, gpu_name }
}

/// What in the run cannot be from the scenario's hardware, one sentence each.
fn mismatches(s: &Scenario, run: &NcclTestsRun, op: Op, large: &SizeCheck) -> Vec<String> {
    let hw = run_hardware(run);
    let mut out = Vec::new();
    if let (Some(g), Some(name)) = (hw.gpu, hw.gpu_name.as_deref())
        && s.gpu_known()
        && g.key != s.gpu().key
    {
        out.push(format!("the run's rank lines name {name} ({}); the scenario has {}", g.name, s.gpu().name));
    }
    let ratio_range = run.ranks.is_none().then(|| run.rank_range(op)).flatten();
    if let Some((lo, hi)) = ratio_range
        && hw.ranks.is_none()
        && !(lo - 0.5..=hi + 0.5).contains(&f64::from(s.participants()))
    {
        out.push(format!(
            "the run has {} to {} ranks (from its busbw/algbw ratio, {}'s); the scenario has {} GPUs ({} nodes x {})",
            lo.round(),
            hi.round(),
            op.name(),
            s.participants(),
            s.nodes(),
            s.gpus_per_node()
        ));
    }
    if let Some(r) = hw.ranks
        && r != s.participants()
    {
        let from = match hw.ranks_from {
            Some(RankSource::BusbwRatio) => format!(" (from its busbw/algbw ratio, {}'s)", op.name()),
            _ => String::new(),
        };
        out.push(format!(
            "the run has {r} ranks{from}; the scenario has {} GPUs ({} nodes x {})",
            s.participants(),
            s.nodes(),
            s.gpus_per_node()
        ));
    }
    // The hosts the run was on (every rank's line, or its device numbers); the hosts its rank lines name only when
    // they are more than the scenario's nodes (an excerpt that keeps one rank line names one host of many).
    let hosts = hw.nodes.or(run.nodes.filter(|h| *h > s.nodes()));
    if let Some(h) = hosts
        && h != s.nodes()
    {
        out.push(format!(
            "the run's ranks are on {}; the scenario has {}",
            crate::human::plural(u64::from(h), "host"),
            crate::human::plural(u64::from(s.nodes()), "node")
        ));
    }
    if large.ratio > MISMATCH_RATIO {
        out.push(format!(
            "it measured {:.1} GB/s, {} the {:.1} GB/s the scenario's hardware can give: it was measured on faster \
             hardware",
            large.measured_busbw_gbs,
            // Far past the expectation a share reads better as a multiple ("60x", not "6024%").
            if large.ratio >= 2.0 {
                format!("{}x", crate::human::num(large.ratio, 1))
            } else {
                format!("{:.0}% of", large.ratio * 100.0)
            },
            large.measured_busbw_gbs / large.ratio
        ));
    }
    out
}

/// Judges a measured run of any collective on the hardware of `s` (its nodes and GPUs should be the run's), at
/// every size it has. `None` when the run has no table row, or is of a binary the model does not cover
/// (`sendrecv_perf`, ...).
pub fn judge(s: &Scenario, run: &NcclTestsRun, ev: Evidence<'_>) -> Option<Health> {
    let op = judged_op(run)?;
    let rows = sized_rows(run);
    let (size, busbw) = large_row(&rows)?;
    let large = check(s, op, size, busbw);
    let mid = rows
        .iter()
        .filter(|(size, _)| *size < LARGE_BYTES)
        .min_by(|a, b| (a.0.ln() - MID_BYTES.ln()).abs().total_cmp(&(b.0.ln() - MID_BYTES.ln()).abs()))
        .filter(|(size, _)| *size >= 64.0 * 1024.0 && *size <= 64.0 * 1024.0 * 1024.0)
        .map(|&(size, busbw)| check(s, op, size, busbw));
    // Every size with a measurable bus bandwidth (nccl-tests prints 0.00 below about 1 KiB).
    let curve: Vec<SizeCheck> =
        rows.iter().filter(|(_, b)| *b > 0.0).map(|&(size, busbw)| check(s, op, size, busbw)).collect();
    let (ranks, ranks_from) = match run.rank_count(op) {
        Some((r, from)) => (r, from.describe().to_string()),
        None => (s.participants(), "the scenario: the run does not say".to_string()),
    };
    let mismatch = mismatches(s, run, op, &large);
    let evidence = causes::evidence_lines(&ev);
    // What the fabric gives at a size where bandwidth, not latency, sets the time: a run that stops below it has
    // not measured the fabric's bandwidth, whatever it reads at its own sizes.
    let ceiling = check(s, op, BANDWIDTH_BOUND_BYTES, 0.0).expected_busbw_gbs;
    // A run from other hardware is not judged, along the curve either ("as expected" would contradict "mismatch").
    let departure = if mismatch.is_empty() { curve::departure(&curve, ceiling) } else { None };
    let verdict = if mismatch.is_empty() { Verdict::of(large.ratio) } else { Verdict::Mismatch };
    let causes = if mismatch.is_empty() { causes::causes(s, &ev, &large, verdict) } else { Vec::new() };
    Some(Health { verdict, op, ranks, ranks_from, mismatch, evidence, large, mid, curve, departure, causes })
}

/// The collective a run is judged as: its binary's, else its table's; `None` for a binary the model does not cover.
fn judged_op(run: &NcclTestsRun) -> Option<Op> {
    match (run.op(), run.test.is_some()) {
        (Some(op), _) => Some(op),
        (None, true) => None,
        // A table without a usable row for the ratio (busbw 0.00 everywhere): read as an all-reduce.
        (None, false) => Some(Op::AllReduce),
    }
}

/// The run's (size, out-of-place busbw) rows, smallest first, one per size.
fn sized_rows(run: &NcclTestsRun) -> Vec<(f64, f64)> {
    let mut rows: Vec<(f64, f64)> = run
        .rows
        .iter()
        .filter(|r| r.size_bytes >= 1.0 && r.busbw_gbs.is_finite())
        .map(|r| (r.size_bytes, r.busbw_gbs))
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    rows.dedup_by(|a, b| a.0 == b.0);
    rows
}

/// The row the verdict reads: the best bus bandwidth among the large sizes (or the largest size when none is
/// large).
fn large_row(rows: &[(f64, f64)]) -> Option<(f64, f64)> {
    let large = rows.iter().filter(|(size, _)| *size >= LARGE_BYTES).max_by(|a, b| a.1.total_cmp(&b.1));
    large.or(rows.last()).copied()
}

/// The check the verdict is read from, alone: what `judge` puts in [`Health::large`], for callers that judge many
/// runs of one hardware and need no curve (`pairs`). `None` as for `judge`.
pub fn large_check(s: &Scenario, run: &NcclTestsRun) -> Option<(Op, SizeCheck)> {
    let op = judged_op(run)?;
    let (size, busbw) = large_row(&sized_rows(run))?;
    Some((op, check(s, op, size, busbw)))
}

/// A size well into the bandwidth-bound range of every fabric the model has (nccl-tests' `-e 8G`).
const BANDWIDTH_BOUND_BYTES: f64 = 8.0 * 1024.0 * 1024.0 * 1024.0;

#[cfg(test)]
mod tests;
