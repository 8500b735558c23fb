//! The replay at every size: every row of every public table (`data/nccl-tests/raw/`), of every collective,
//! against the model's time for that collective and size on the table's hardware.
//!
//! A table is one run: a point of `measurements.json` (all-reduce; a raw file may hold several runs, and
//! [`SECTIONS`] says which lines are whose) or an entry of `curves.json` (any collective, one run per raw file).
//! Each is read by estimator-core's own nccl-tests reader, as `probe-cli import` reads a file; a table the reader
//! finds no rows in (a summary, or a layout it does not know) falls back to the rows its entry records.
//!
//! Errors are of the time, `(model - measured) / measured`, out of place, grouped in size bands. Only tables of
//! the scored groups count (not `unhealthy`, not `low confidence`); a table is *fitted* when a constant of its
//! prediction was set from it ([`super::provenance`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use estimator_core::collective::{Op, collective};
use estimator_core::import::nccl_tests;
use estimator_core::{Bytes, Scenario};
use serde::Deserialize;

use super::{Group, Point, Spread, provenance, scenario_of};

/// Which lines of a shared raw file are a point's run: after the first line containing `start`, up to the next
/// line containing `end` (or the end of the file).
pub const SECTIONS: &[(&str, &str, Option<&str>)] = &[
    ("nccl-tests-309-h100-2node-8x400ib-default", "=== A)", Some("=== B)")),
    ("nccl-tests-309-h100-4node-vm-8x400ib-default", "=== B)", Some("=== C)")),
    ("nccl-tests-309-h100-8node-default", "=== C)", Some("=== D)")),
    ("nccl-tests-309-h100-8node-tuned", "=== E)", Some("=== F)")),
    ("nccl-tests-309-h100-2node-ring-tuned", "=== F)", None),
    ("amd-mi325x-1node-xgmi", "1-node", Some("2-node")),
    ("amd-mi325x-2node-ring-bnxt", "2-node", Some("4-node")),
    ("amd-mi325x-4node-ring-bnxt", "4-node", Some("8-node")),
    ("amd-mi325x-8node-ring-bnxt", "8-node", None),
    ("eugenesiow-dgxa100-4gpu-nvswitch", "all_reduce_perf", Some("NCCL_P2P_DISABLE=1")),
    ("eugenesiow-dgxa100-4gpu-p2p-disabled", "(same, NCCL_P2P_DISABLE=1", None),
    ("eugenesiow-a40-pcie-p2p-disabled-2gpu", "CUDA_VISIBLE_DEVICES=1,2", Some("(4 GPUs")),
];

/// Points whose raw table holds several runs in one table, a row each (NVIDIA/nccl#527 prints 1 to 4 nodes with
/// the node count in the first column): their own row is the one the point records.
pub const RECORDED_ONLY: &[&str] = &[
    "nccl-527-aws-p4dn-1node-nvswitch",
    "nccl-527-aws-p4dn-2node-efa",
    "nccl-527-aws-p4dn-3node-efa",
    "nccl-527-aws-p4dn-4node-efa",
];

/// A `curves.json` entry: a point's fields, the collective, and whether the source calls the system healthy.
#[derive(Clone, Debug, Deserialize)]
pub struct CurveEntry {
    /// The hardware and run, as a point.
    #[serde(flatten)]
    pub point: Point,
    /// The raw file, relative to `data/nccl-tests/`.
    pub raw_file: String,
    /// `all_reduce`, `all_gather`, `reduce_scatter`, `broadcast` or `alltoall`.
    pub op: String,
    /// False when the source calls the system degraded or misconfigured.
    #[serde(default = "yes")]
    pub healthy: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct CurvesFile {
    tables: Vec<CurveEntry>,
}

#[derive(Deserialize)]
struct RawRef {
    id: String,
    raw_file: Option<String>,
}

#[derive(Deserialize)]
struct PointsFile {
    points: Vec<RawRef>,
}

/// One measured row: size, out-of-place time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// nccl-tests' size, bytes.
    pub size_bytes: f64,
    /// Out-of-place time, µs.
    pub time_us: f64,
}

/// A row is noise, not the collective, when it takes more than this times as long as a larger size of the same
/// run: a collective's time does not fall as its size grows (a launch hiccup, a first-iteration setup).
pub const NOISE_RATIO: f64 = 1.2;

/// The rows of a run without its noise ([`NOISE_RATIO`]), and how many were dropped.
pub fn without_noise(rows: Vec<Measured>) -> (Vec<Measured>, usize) {
    let kept: Vec<Measured> = rows
        .iter()
        .filter(|m| {
            let later =
                rows.iter().filter(|o| o.size_bytes > m.size_bytes).map(|o| o.time_us).fold(f64::INFINITY, f64::min);
            m.time_us <= NOISE_RATIO * later
        })
        .copied()
        .collect();
    let dropped = rows.len() - kept.len();
    (kept, dropped)
}

/// One run to replay.
#[derive(Clone, Debug)]
pub struct Table {
    /// The point's or entry's id.
    pub id: String,
    /// The collective.
    pub op: Op,
    /// Its hardware.
    pub scenario: Scenario,
    /// Its group.
    pub group: Group,
    /// Whether no constant of its prediction was set from it.
    pub held_out: bool,
    /// Its rows, without noise.
    pub rows: Vec<Measured>,
    /// Rows dropped as noise.
    pub noise: usize,
}

/// `curves.json` beside the calibration file.
pub fn curves_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/nccl-tests/curves.json")
}

/// A run where one process drives several GPUs (`nGpus` above 1 in its header) adds its serialised kernel
/// launches to every row: microsoft/superbenchmark's 8x A100 logs floor at 34-87 µs, against 11-18 µs with a
/// process per GPU, and keep about that much over the model up to 64 MiB. Its rows are scored only where the
/// time is at least this many times the run's own floor (its fastest row), so that the launches are a tenth of it
/// at most; the rest are left out.
pub const LAUNCH_FLOOR_FACTOR: f64 = 10.0;

/// The rows of a raw file's text, or of one section of it.
fn rows_of(text: &str, section: Option<(&str, Option<&str>)>) -> Vec<Measured> {
    let text = match section {
        None => text.to_string(),
        Some((start, end)) => {
            let mut out = String::new();
            let mut inside = false;
            for line in text.lines() {
                if !inside {
                    inside = line.contains(start);
                    continue;
                }
                if end.is_some_and(|e| line.contains(e)) {
                    break;
                }
                out.push_str(line);
                out.push('\n');
            }
            out
        }
    };
    let run = nccl_tests::parse(&text);
    let floor = run
        .rows
        .iter()
        .filter(|r| r.size_bytes >= 1.0)
        .map(|r| r.time_us)
        .filter(|t| *t > 0.0)
        .fold(f64::INFINITY, f64::min);
    let launches = if run.n_gpus.is_some_and(|g| g > 1) { LAUNCH_FLOOR_FACTOR * floor } else { 0.0 };
    run.rows
        .iter()
        .filter(|r| r.size_bytes >= 1.0 && r.time_us > 0.0 && r.time_us.is_finite())
        .filter(|r| r.time_us >= launches)
        .map(|r| Measured { size_bytes: r.size_bytes, time_us: r.time_us })
        .collect()
}

fn recorded(p: &Point) -> Vec<Measured> {
    p.rows
        .iter()
        .filter_map(|r| Some(Measured { size_bytes: r.size_bytes, time_us: r.time_us? }))
        .filter(|m| m.size_bytes >= 1.0 && m.time_us > 0.0)
        .collect()
}

fn table(p: &Point, op: Op, raw: &Path, section: Option<(&str, Option<&str>)>, healthy: bool) -> Option<Table> {
    let (scenario, mut group, _) = scenario_of(p)?;
    if !healthy && group != Group::LowConfidence {
        group = Group::Unhealthy;
    }
    let text = if RECORDED_ONLY.contains(&p.id.as_str()) {
        String::new()
    } else {
        std::fs::read_to_string(raw).unwrap_or_default()
    };
    let mut rows = rows_of(&text, section);
    if rows.is_empty() {
        rows = recorded(p);
    }
    let (rows, noise) = without_noise(rows);
    if rows.is_empty() {
        return None;
    }
    let uses = provenance::constants_used(&scenario);
    let held_out = provenance::fitted_by(&p.id, &uses).is_empty();
    Some(Table { id: p.id.clone(), op, scenario, group, held_out, rows, noise })
}

/// Every table: the calibration points (all-reduce) and `curves.json`.
pub fn load_tables(points: &[Point], calibration: &Path, curves: &Path) -> Result<Vec<Table>, String> {
    let dir = calibration.parent().unwrap_or(Path::new("."));
    let text = std::fs::read_to_string(calibration).map_err(|e| format!("{}: {e}", calibration.display()))?;
    let refs: PointsFile = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", calibration.display()))?;
    let mut out = Vec::new();
    for p in points {
        let Some(raw) = refs.points.iter().find(|r| r.id == p.id).and_then(|r| r.raw_file.clone()) else { continue };
        let section = SECTIONS.iter().find(|s| s.0 == p.id).map(|s| (s.1, s.2));
        out.extend(table(p, Op::AllReduce, &dir.join(raw), section, true));
    }
    if curves.exists() {
        let text = std::fs::read_to_string(curves).map_err(|e| format!("{}: {e}", curves.display()))?;
        let file: CurvesFile = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", curves.display()))?;
        for c in &file.tables {
            let op = Op::parse(&c.op).ok_or_else(|| format!("{}: unknown op {}", c.point.id, c.op))?;
            out.extend(table(&c.point, op, &dir.join(&c.raw_file), None, c.healthy));
        }
    }
    Ok(out)
}

/// A size band of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Label.
    pub label: &'static str,
    /// From (inclusive), bytes.
    pub from: f64,
    /// To (exclusive), bytes.
    pub to: f64,
}

const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * 1024.0;

/// The bands errors are grouped in: the three (below 1 MiB split at 64 KiB, where the targets start).
pub const BANDS: [Band; 4] = [
    Band { label: "< 64 KiB", from: 0.0, to: 64.0 * KIB },
    Band { label: "64 KiB - 1 MiB", from: 64.0 * KIB, to: MIB },
    Band { label: "1 - 64 MiB", from: MIB, to: 64.0 * MIB },
    Band { label: ">= 64 MiB", from: 64.0 * MIB, to: f64::INFINITY },
];

/// One row replayed.
#[derive(Clone, Copy, Debug)]
pub struct RowError {
    /// Size, bytes.
    pub size_bytes: f64,
    /// Signed relative error of the time.
    pub error: f64,
}

/// The errors of one table, row by row.
pub fn replay_table(t: &Table) -> Vec<RowError> {
    t.rows
        .iter()
        .map(|m| {
            let model = collective(&t.scenario, t.op, Bytes::new(m.size_bytes)).time_us;
            RowError { size_bytes: m.size_bytes, error: (model - m.time_us) / m.time_us }
        })
        .collect()
}

/// The spread of errors in a band over some tables.
pub fn band_spread<'a>(tables: impl IntoIterator<Item = &'a Table>, band: Band) -> Option<Spread> {
    Spread::of(
        tables
            .into_iter()
            .flat_map(replay_table)
            .filter(|r| r.size_bytes >= band.from && r.size_bytes < band.to)
            .map(|r| r.error),
    )
}

/// The `share` quantile (0.05: the 5th percentile) of measured over modelled bus bandwidth in a band over some
/// tables' rows (the model's time over the measured one: 1 + the time's error), with the rows it is taken over: the
/// floor that the healthy runs' rows clear but for `share` of them, which `probe-cli thresholds` gates on.
pub fn ratio_quantile<'a>(tables: impl IntoIterator<Item = &'a Table>, band: Band, share: f64) -> Option<(f64, usize)> {
    let r: Vec<f64> = tables
        .into_iter()
        .flat_map(replay_table)
        .filter(|x| x.size_bytes >= band.from && x.size_bytes < band.to)
        .map(|x| 1.0 + x.error)
        .collect();
    let rows = r.len();
    estimator_core::stats::quantile(r, share).map(|q| (q, rows))
}

/// Whether a table is scored (its group is one of the two scored ones).
pub fn scored(t: &Table) -> bool {
    matches!(t.group, Group::Point | Group::TwoNodeDefault)
}

fn cell(s: Option<Spread>) -> String {
    s.map_or("-".to_string(), |s| format!("{:.0}% ({})", s.median * 100.0, s.n))
}

/// The table as Markdown: per run, the median |error| of the time in each band (rows in brackets), then the
/// bands over the healthy runs, held out and all.
pub fn markdown(tables: &[Table]) -> String {
    let mut s = String::new();
    s.push_str("| run | collective | nodes x GPUs | fabric | group | set | noise rows |");
    for b in BANDS {
        let _ = write!(s, " {} |", b.label);
    }
    s.push_str("\n|---|---|---|---|---|---|---:|---:|---:|---:|---:|\n");
    let mut sorted: Vec<&Table> = tables.iter().collect();
    sorted.sort_by(|a, b| a.group.cmp(&b.group).then(a.op.name().cmp(b.op.name())).then(a.id.cmp(&b.id)));
    for t in &sorted {
        let _ = write!(
            s,
            "| {} | {} | {} x {} | {} | {} | {} | {} |",
            t.id,
            t.op.name(),
            t.scenario.nodes(),
            t.scenario.gpus_per_node(),
            if t.scenario.nodes() > 1 { t.scenario.input().fabric.name() } else { "-" },
            t.group.label(),
            if t.held_out { "held out" } else { "fitted" },
            t.noise
        );
        for b in BANDS {
            let _ = write!(s, " {} |", cell(band_spread([*t], b)));
        }
        s.push('\n');
    }
    s.push_str("\nMedian |error| of the time by size band over the healthy runs (rows in brackets):\n\n");
    s.push_str("| runs |");
    for b in BANDS {
        let _ = write!(s, " {} |", b.label);
    }
    s.push_str("\n|---|---:|---:|---:|---:|\n");
    let held: Vec<&Table> = tables.iter().filter(|t| scored(t) && t.held_out).collect();
    let all: Vec<&Table> = tables.iter().filter(|t| scored(t)).collect();
    for (label, set) in [("held out", &held), ("all healthy", &all)] {
        let _ = write!(s, "| {label} ({}) |", set.len());
        for b in BANDS {
            let _ = write!(s, " {} |", cell(band_spread(set.iter().copied(), b)));
        }
        s.push('\n');
    }
    s
}

/// One table row by row (measured, model, NCCL's choice), for looking into a run.
pub fn detail(t: &Table) -> String {
    let mut s = format!("{} ({}, {} x {})\n", t.id, t.op.name(), t.scenario.nodes(), t.scenario.gpus_per_node());
    for m in &t.rows {
        let e = collective(&t.scenario, t.op, Bytes::new(m.size_bytes));
        let _ = writeln!(
            s,
            "  {:>12} measured {:>10.1} us  model {:>10.1} us  {:+6.0}%  {}/{}",
            m.size_bytes,
            m.time_us,
            e.time_us,
            (e.time_us - m.time_us) / m.time_us * 100.0,
            e.algorithm,
            e.protocol
        );
    }
    s
}
