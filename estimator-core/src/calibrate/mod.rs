//! A profile of the user's own cluster, calibrated from their nccl-tests outputs: for each (collective, nodes, GPUs
//! per node) measured, a correction of the model's time ([`fit`]: latency, peak bus bandwidth and a smooth size ramp
//! between them), not a replacement, so that the model still carries to node counts and collectives not measured,
//! and says when it does. The profile validates itself as Meta's autoparallel validates its fits: each run left out
//! in turn, predicted by the profile fitted on the others, and scored against the model alone, per collective and
//! size band ([`Validation`]). A [`Profile`] corrects a [`Scenario`] of its hardware through
//! [`Scenario::with_correction`]: every collective of every command then runs through it.

pub mod fit;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::stats::Refused;
pub use fit::Correction;

use crate::collective::{Op, collective};
use crate::fabric::Fabric;
use crate::health::{self, Evidence, Verdict};
use crate::import::NcclTestsRun;
use crate::scenario::Scenario;
use crate::stats::{median, quantile};
use crate::units::Bytes;

/// The profile's schema version; a reader refuses others, saying which.
pub const PROFILE_VERSION: u32 = 1;
/// The most runs one calibration reads.
pub const MAX_RUNS: usize = 4096;
/// A row taking more than this times as long as a larger size of its run is noise (the calibration replay's
/// `NOISE_RATIO`, `tests/src/calibration/curves.rs`): a collective's time does not fall as its size grows.
pub const NOISE_RATIO: f64 = 1.2;
/// The most a profile file may hold, bytes.
pub const MAX_PROFILE_BYTES: usize = 4 << 20;

/// One measured run to calibrate on.
#[derive(Clone, Debug)]
pub struct CalibrationRun<'a> {
    /// Where it came from (`file`, or `file#2` for the second run of a file).
    pub file: String,
    /// The run.
    pub run: &'a NcclTestsRun,
}

/// The hardware a profile was measured on: what a scenario must have for the profile to apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProfileHardware {
    /// The catalog GPU key.
    pub gpu: String,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// Network adapters per node.
    pub adapters_per_node: i64,
    /// Their line rate, Gb/s.
    pub link_gbps: f64,
    /// The fabric.
    pub fabric: Fabric,
}

/// One size band of the validation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BandError {
    /// The collective.
    pub op: Op,
    /// The size band (`< 64 KiB`, `64 KiB - 1 MiB`, `1 - 64 MiB`, `>= 64 MiB`).
    pub band: String,
    /// Rows left out in it.
    pub rows: u32,
    /// Median |error| of the model's time alone.
    pub model_error: f64,
    /// Median |error| of the calibrated time, each run predicted without itself.
    pub calibrated_error: f64,
    /// The 5th percentile of measured over calibrated bus bandwidth on those rows (the calibrated time over the
    /// measured one): what `thresholds --profile` gates this band on when it has [`MIN_FLOOR_ROWS`] rows or more.
    #[serde(default)]
    pub calibrated_floor: Option<f64>,
}

/// The share of healthy rows a floor may fail: the 5th percentile (`thresholds`' public floors and a profile's
/// own).
pub const FLOOR_SHARE: f64 = 0.05;

/// The fewest left-out rows of a band from which its own floor is taken.
pub const MIN_FLOOR_ROWS: usize = 10;

/// How well the profile predicts runs it was not fitted on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Validation {
    /// `leave one run out`.
    pub method: String,
    /// Runs left out in turn.
    pub runs: u32,
    /// Rows predicted.
    pub rows: u32,
    /// Median |error| of the model's time alone on those rows.
    pub model_error: f64,
    /// Median |error| of the calibrated time.
    pub calibrated_error: f64,
    /// By collective and size band.
    pub bands: Vec<BandError>,
    /// Runs whose (collective, nodes, GPUs per node) no other run had, predicted from another's correction.
    pub extrapolated_runs: u32,
}

/// The profile: `probe-cli calibrate --out profile.json` writes it, `--profile` reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Profile {
    /// [`PROFILE_VERSION`].
    pub schema_version: u32,
    /// What wrote it (`probe-cli 0.1.0`).
    #[serde(default)]
    pub generator: String,
    /// The hardware it was measured on.
    pub hardware: ProfileHardware,
    /// The runs it was fitted on.
    pub files: Vec<String>,
    /// One correction per (collective, nodes, GPUs per node) measured.
    pub corrections: Vec<Correction>,
    /// Each run left out and predicted; `null` with a single run.
    pub validation: Option<Validation>,
    /// What a user should know of the runs kept (a degraded run taken as the cluster's level), one sentence each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// How a correction was found for a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Match {
    /// The same collective, nodes and GPUs per node.
    Exact,
    /// Between two measured node counts of the same collective and GPUs per node: the line between them.
    Interpolated,
    /// Another node count.
    OtherNodes,
    /// Other GPUs per node.
    OtherGpus,
    /// Another collective.
    OtherCollective,
}

impl Profile {
    /// The correction for a query and how near it is; `None` when the profile has none of the query's kind (a
    /// one-node query and only multi-node runs, or the reverse: NVLink and the network are not each other's).
    pub fn find(&self, op: Op, nodes: u32, gpus_per_node: u32) -> Option<(&Correction, Match)> {
        let multi = nodes > 1;
        self.corrections
            .iter()
            .filter(|c| (c.nodes > 1) == multi)
            .map(|c| {
                let m = if c.op != op {
                    Match::OtherCollective
                } else if c.gpus_per_node != gpus_per_node {
                    Match::OtherGpus
                } else if c.nodes != nodes {
                    Match::OtherNodes
                } else {
                    Match::Exact
                };
                // Prefer all-reduce among other collectives (it is what most runs measure), then the nearest count.
                let op_rank = u8::from(c.op != Op::AllReduce);
                let distance = (f64::from(c.nodes.max(1)).ln() - f64::from(nodes.max(1)).ln()).abs()
                    + (f64::from(c.gpus_per_node.max(1)).ln() - f64::from(gpus_per_node.max(1)).ln()).abs();
                (c, m, op_rank, distance)
            })
            .min_by(|a, b| a.1.cmp(&b.1).then(a.2.cmp(&b.2)).then(a.3.total_cmp(&b.3)))
            .map(|(c, m, ..)| (c, m))
    }

    /// Measured over modelled bus bandwidth for a query, and how near the correction is: a node count between two
    /// measured ones (the same collective and GPUs per node) takes the line between their log-ratios in log nodes;
    /// otherwise the nearest correction ([`Profile::find`]). `None` where the profile knows nothing of its kind.
    pub fn ratio(&self, op: Op, nodes: u32, gpus_per_node: u32, bytes: f64) -> Option<(f64, Match)> {
        let same: Vec<&Correction> = self
            .corrections
            .iter()
            .filter(|c| c.op == op && c.gpus_per_node == gpus_per_node && c.nodes > 1 && nodes > 1)
            .collect();
        let below = same.iter().filter(|c| c.nodes < nodes).max_by_key(|c| c.nodes);
        let above = same.iter().filter(|c| c.nodes > nodes).min_by_key(|c| c.nodes);
        if !same.iter().any(|c| c.nodes == nodes)
            && let (Some(lo), Some(hi)) = (below, above)
        {
            let (x0, x1, x) = (f64::from(lo.nodes).ln(), f64::from(hi.nodes).ln(), f64::from(nodes).ln());
            let w = (x - x0) / (x1 - x0);
            let ln = lo.ratio(bytes).ln() * (1.0 - w) + hi.ratio(bytes).ln() * w;
            return Some((ln.exp(), Match::Interpolated));
        }
        self.find(op, nodes, gpus_per_node).map(|(c, m)| (c.ratio(bytes), m))
    }

    /// Runs and node counts, and the validation, in one line.
    pub fn summary(&self) -> String {
        use crate::human::pct;
        let mut nodes: Vec<u32> = self.corrections.iter().map(|c| c.nodes).collect();
        nodes.sort_unstable();
        nodes.dedup();
        let mut nodes: Vec<String> = nodes.iter().map(u32::to_string).collect();
        // "2 nodes", "2 and 4 nodes", "2, 4 and 8 nodes".
        let last = nodes.pop().unwrap_or_default();
        let nodes = if nodes.is_empty() { last } else { format!("{} and {last}", nodes.join(", ")) };
        let validated = match &self.validation {
            Some(v) => format!(", left-out error {} (the model alone {})", pct(v.calibrated_error), pct(v.model_error)),
            None => ", not validated (one run)".to_string(),
        };
        format!("calibrated on your cluster: {} runs, {nodes} nodes{validated}", self.files.len())
    }

    /// [`Profile::summary`] and what it does for `op` on `s`'s own nodes: what a command says it changed.
    pub fn describe(&self, s: &Scenario, op: Op) -> String {
        let (n, g) = (s.nodes(), s.gpus_per_node());
        let here = match self.ratio(op, n, g, 1.0).map(|x| x.1) {
            Some(Match::Exact) => String::new(),
            Some(Match::Interpolated) => {
                let mut counts: Vec<u32> =
                    self.corrections.iter().filter(|c| c.op == op && c.gpus_per_node == g).map(|c| c.nodes).collect();
                counts.sort_unstable();
                let below = counts.iter().rev().find(|c| **c < n).copied().unwrap_or(n);
                let above = counts.iter().find(|c| **c > n).copied().unwrap_or(n);
                format!(
                    "; for {} on {n} nodes of {g} it takes the line between its corrections on {below} and {above} nodes",
                    op.name()
                )
            }
            Some(_) => match self.find(op, n, g) {
                Some((c, _)) => format!(
                    "; for {} on {n} nodes of {g} it carries the correction of {} on {} nodes of {}",
                    op.name(),
                    c.op.name(),
                    c.nodes,
                    c.gpus_per_node
                ),
                None => String::new(),
            },
            None => format!("; it has no run like {} on {n} node(s): the model as it is there", op.name()),
        };
        format!("{}{here}", self.summary())
    }

    /// Whether `s` is the hardware the profile was measured on; the differences in words when not.
    pub fn check_hardware(&self, s: &Scenario) -> Result<(), String> {
        let h = &self.hardware;
        let i = s.input();
        let mut diff = Vec::new();
        if s.gpu().key != h.gpu {
            diff.push(format!("GPU {} (the profile's: {})", s.gpu().key, h.gpu));
        }
        if i.adapters_per_node != h.adapters_per_node {
            diff.push(format!("{} adapters per node (the profile's: {})", i.adapters_per_node, h.adapters_per_node));
        }
        if (i.link_gbps - h.link_gbps).abs() > 1e-9 {
            diff.push(format!("{} Gb/s (the profile's: {})", i.link_gbps, h.link_gbps));
        }
        if i.fabric != h.fabric {
            diff.push(format!("fabric {} (the profile's: {})", i.fabric.name(), h.fabric.name()));
        }
        if diff.is_empty() {
            Ok(())
        } else {
            Err(format!("the profile was measured on other hardware: {}", diff.join(", ")))
        }
    }

    /// `s` corrected by the profile, when it is the profile's hardware.
    pub fn apply(&'static self, s: Scenario) -> Result<Scenario, String> {
        self.check_hardware(&s)?;
        Ok(s.with_correction(self))
    }

    /// A profile document's `schema_version` (`None`: none there) against [`PROFILE_VERSION`]: check it before
    /// reading the rest, so that a later version is named as such.
    pub fn check_version(version: Option<u64>) -> Result<(), String> {
        match version {
            Some(n) if n == u64::from(PROFILE_VERSION) => Ok(()),
            Some(n) => Err(format!("schema_version {n}: this probe-cli reads version {PROFILE_VERSION}")),
            None => Err("no schema_version: not a profile (probe-cli calibrate --out writes one)".into()),
        }
    }

    /// The floor of `op` at `bytes` from the profile's own left-out rows, when that band has enough of them.
    pub fn floor(&self, op: Op, bytes: f64) -> Option<f64> {
        let band = BANDS.iter().find(|(_, lo, hi)| bytes >= *lo && bytes < *hi)?.0;
        let v = self.validation.as_ref()?;
        v.bands.iter().find(|b| b.op == op && b.band == band)?.calibrated_floor.filter(|f| f.is_finite() && *f > 0.0)
    }

    /// Rejects corrections that are not positive numbers, naming the one.
    pub fn validate(&self) -> Result<(), String> {
        for c in &self.corrections {
            let ok = c.ramp.len() >= 2
                && c.ramp.windows(2).all(|w| w[0][0] < w[1][0])
                && c.ramp.iter().flatten().chain([&c.small_ratio, &c.large_ratio]).all(|x| x.is_finite() && *x > 0.0);
            if !ok {
                return Err(format!(
                    "corrections: {} on {} nodes has a ramp that is not positive sizes in order with positive ratios",
                    c.op.name(),
                    c.nodes
                ));
            }
        }
        Ok(())
    }
}

impl crate::scenario::Correction for Profile {
    fn time_factor(&self, s: &Scenario, op: Op, bytes: f64) -> f64 {
        if self.check_hardware(s).is_err() {
            return 1.0;
        }
        let f = self.ratio(op, s.nodes(), s.gpus_per_node(), bytes).map_or(1.0, |(r, _)| 1.0 / r);
        if f.is_finite() && f > 0.0 { f } else { 1.0 }
    }
}

/// One usable run: its key and its rows.
struct Prepared {
    file: String,
    op: Op,
    nodes: u32,
    gpus_per_node: u32,
    /// (size, model time, measured time).
    rows: Vec<(f64, f64, f64)>,
    /// Health's share of the expected bus bandwidth when the run is degraded (kept, and said).
    degraded: Option<f64>,
}

/// The size bands of the validation (the calibration replay's).
const BANDS: [(&str, f64, f64); 4] = [
    ("< 64 KiB", 0.0, 65_536.0),
    ("64 KiB - 1 MiB", 65_536.0, 1_048_576.0),
    ("1 - 64 MiB", 1_048_576.0, 67_108_864.0),
    (">= 64 MiB", 67_108_864.0, f64::INFINITY),
];

/// Calibrates on `runs` measured on the hardware of `s` (its GPU, GPUs per node, adapters, line rate, fabric; the
/// node count of each run is its own). Runs that cannot calibrate are refused with the reason; `None` when none
/// can.
pub fn calibrate(s: &Scenario, runs: &[CalibrationRun<'_>]) -> (Option<Profile>, Vec<Refused>) {
    let mut refused = Vec::new();
    let mut prepared = Vec::new();
    for r in runs.iter().take(MAX_RUNS) {
        match prepare(s, r) {
            Ok(p) => prepared.push(p),
            Err(reason) => refused.push(Refused { file: r.file.clone(), reason }),
        }
    }
    for r in runs.iter().skip(MAX_RUNS) {
        refused.push(Refused { file: r.file.clone(), reason: format!("more than {MAX_RUNS} runs in one calibration") });
    }
    let prepared = drop_outliers(prepared, &mut refused);
    if prepared.is_empty() {
        return (None, refused);
    }
    let i = s.input();
    let hardware = ProfileHardware {
        gpu: s.gpu().key.to_string(),
        gpus_per_node: s.gpus_per_node(),
        adapters_per_node: i.adapters_per_node,
        link_gbps: i.link_gbps,
        fabric: i.fabric,
    };
    let all: Vec<&Prepared> = prepared.iter().collect();
    let corrections = fit_all(&all);
    let validation = (prepared.len() > 1).then(|| validate(&hardware, &prepared));
    let profile = Profile {
        schema_version: PROFILE_VERSION,
        generator: String::new(),
        hardware,
        files: prepared.iter().map(|p| p.file.clone()).collect(),
        corrections,
        validation,
        notes: prepared
            .iter()
            .filter_map(|p| {
                Some(format!(
                    "{}: degraded ({} of the expected bus bandwidth at its large sizes), kept as this cluster's level \
                     of {} on {} nodes; if the cluster's other runs read near the model, this one is the outlier: \
                     probe-cli health on it says why",
                    p.file,
                    crate::human::pct(p.degraded?),
                    p.op.name(),
                    p.nodes
                ))
            })
            .collect(),
    };
    (Some(profile), refused)
}

fn prepare(s: &Scenario, r: &CalibrationRun<'_>) -> Result<Prepared, String> {
    let run = r.run;
    let op = match (run.op(), run.test.as_deref()) {
        (Some(op), _) => op,
        (None, Some(t)) => return Err(format!("{t} is not a collective the model covers")),
        (None, None) => return Err(format!("nothing to calibrate on, {}", crate::import::nccl_tests::NO_ROWS)),
    };
    let (ranks, _) = run
        .rank_count(op)
        .ok_or("the run does not say its ranks (no rank lines, and its busbw/algbw ratio does not tell)")?;
    let g = s.gpus_per_node();
    let (nodes, gpus_per_node) = if ranks < g {
        (1, ranks)
    } else if ranks % g == 0 {
        (ranks / g, g)
    } else {
        return Err(format!("{ranks} ranks are not a whole number of {g}-GPU nodes"));
    };
    let on = s.with(|i| {
        i.nodes = i64::from(nodes);
        i.gpus_per_node = i64::from(gpus_per_node);
        i.measured_busbw_gbs = None;
    });
    let on = on.map_err(|e| format!("the hardware on {nodes} nodes: {e}"))?;
    let judged = health::judge(&on, run, Evidence::default());
    if let Some(h) = &judged {
        match h.verdict {
            Verdict::Unhealthy => {
                return Err(format!(
                    "unhealthy ({} of the expected bus bandwidth at {} bytes): an unhealthy run is not a \
                     calibration; probe-cli health says why",
                    crate::human::pct(h.large.ratio),
                    h.large.size_bytes
                ));
            }
            Verdict::Mismatch => {
                return Err(format!(
                    "not this hardware ({}): calibrate with the hardware it ran on",
                    h.mismatch.join("; ")
                ));
            }
            Verdict::Healthy | Verdict::Degraded => {}
        }
    }
    let degraded = judged.filter(|h| h.verdict == Verdict::Degraded).map(|h| h.large.ratio);
    let mut rows: Vec<(f64, f64, f64)> = run
        .rows
        .iter()
        .filter(|x| x.size_bytes >= 1.0 && x.time_us.is_finite() && x.time_us > 0.0)
        .map(|x| (x.size_bytes, collective(&on, op, Bytes::new(x.size_bytes)).time_us, x.time_us))
        .filter(|(_, m, _)| m.is_finite() && *m > 0.0)
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    rows.dedup_by(|a, b| a.0 == b.0);
    // A row that takes longer than a larger size of the same run (by [`NOISE_RATIO`]) is a launch hiccup or a
    // first call's setup, not the collective: left out, as the calibration replay leaves it out.
    let mut later = f64::INFINITY;
    let mut kept = Vec::with_capacity(rows.len());
    for r in rows.iter().rev() {
        if r.2 <= NOISE_RATIO * later {
            kept.push(*r);
        }
        later = later.min(r.2);
    }
    kept.reverse();
    let rows = kept;
    if rows.is_empty() {
        return Err(format!("nothing to calibrate on, {}", crate::import::nccl_tests::NO_ROWS));
    }
    Ok(Prepared { file: r.file.clone(), op, nodes, gpus_per_node, rows, degraded })
}

/// (collective's index, nodes, GPUs per node).
type Key = (u8, u32, u32);

fn key(p: &Prepared) -> Key {
    (Op::ALL.iter().position(|o| *o == p.op).unwrap_or(0) as u8, p.nodes, p.gpus_per_node)
}

/// A run's level against the model: the median log of model over measured time at its large sizes (from 64 MiB),
/// or at every size when it has none there.
fn level(p: &Prepared) -> f64 {
    let large: Vec<f64> = p.rows.iter().filter(|r| r.0 >= 67_108_864.0).map(|r| (r.1 / r.2).ln()).collect();
    let all = || p.rows.iter().map(|r| (r.1 / r.2).ln()).collect();
    median(if large.is_empty() { all() } else { large }).unwrap_or(0.0)
}

/// Among three runs or more of one (collective, nodes, GPUs per node), a run whose level is outside health's
/// healthy share of the others' median (0.75x to 1/0.75x) is not the cluster's level but one bad run: refused,
/// with the two levels. Two runs that disagree are both kept; the validation shows it.
fn drop_outliers(prepared: Vec<Prepared>, refused: &mut Vec<Refused>) -> Vec<Prepared> {
    let mut levels: BTreeMap<Key, Vec<f64>> = BTreeMap::new();
    for p in &prepared {
        levels.entry(key(p)).or_default().push(level(p));
    }
    let band = (1.0 / health::HEALTHY).ln();
    let mut kept = Vec::with_capacity(prepared.len());
    for p in prepared {
        let group = &levels[&key(&p)];
        let median = median(group.clone()).unwrap_or(0.0);
        let own = level(&p);
        if group.len() >= 3 && (own - median).abs() > band {
            refused.push(Refused {
                file: p.file.clone(),
                reason: format!(
                    "at its large sizes it takes {} of the model's time for NCCL's default choice, the other runs of \
                     {} on {} nodes {}: one run off the others is not the cluster's level; probe-cli health on it says \
                     why",
                    crate::human::pct(1.0 / own.exp()),
                    p.op.name(),
                    p.nodes,
                    crate::human::pct(1.0 / median.exp())
                ),
            });
        } else {
            kept.push(p);
        }
    }
    kept
}

fn fit_all(runs: &[&Prepared]) -> Vec<Correction> {
    let mut keys: BTreeMap<Key, (Op, u32, Vec<fit::Row>)> = BTreeMap::new();
    for p in runs {
        let e = keys.entry(key(p)).or_insert((p.op, 0, Vec::new()));
        e.1 += 1;
        e.2.extend(p.rows.iter().map(|&(b, m, t)| fit::Row { bytes: b, ratio: m / t }));
    }
    keys.into_iter().filter_map(|((_, n, g), (op, count, rows))| fit::fit(op, n, g, count, &rows)).collect()
}

/// One (collective, band)'s left-out rows: the model's errors, the calibrated ones, and calibrated time over
/// measured.
type BandRows = (Vec<f64>, Vec<f64>, Vec<f64>);

/// Each run left out in turn and predicted by the corrections of the others.
fn validate(hardware: &ProfileHardware, runs: &[Prepared]) -> Validation {
    // (op, band) -> (model errors, calibrated errors)
    let mut by: BTreeMap<(u8, usize), BandRows> = BTreeMap::new();
    let mut model_all = Vec::new();
    let mut cal_all = Vec::new();
    let mut extrapolated = 0;
    // Leaving a run out changes only its own key's correction: the others are fitted once.
    let all: Vec<&Prepared> = runs.iter().collect();
    let full = fit_all(&all);
    for (i, p) in runs.iter().enumerate() {
        let same: Vec<&Prepared> =
            runs.iter().enumerate().filter(|(j, r)| *j != i && key(r) == key(p)).map(|(_, r)| r).collect();
        let mut corrections: Vec<Correction> = full
            .iter()
            .filter(|c| (c.op, c.nodes, c.gpus_per_node) != (p.op, p.nodes, p.gpus_per_node))
            .cloned()
            .collect();
        corrections.extend(fit_all(&same));
        let profile = Profile {
            schema_version: PROFILE_VERSION,
            generator: String::new(),
            hardware: hardware.clone(),
            files: Vec::new(),
            corrections,
            validation: None,
            notes: Vec::new(),
        };
        if !matches!(profile.find(p.op, p.nodes, p.gpus_per_node), Some((_, Match::Exact))) {
            extrapolated += 1;
        }
        for &(bytes, model, measured) in &p.rows {
            let ratio = profile.ratio(p.op, p.nodes, p.gpus_per_node, bytes).map_or(1.0, |(r, _)| r);
            let model_err = (model / measured - 1.0).abs();
            let cal_err = (model / ratio / measured - 1.0).abs();
            let band = BANDS.iter().position(|(_, lo, hi)| bytes >= *lo && bytes < *hi).unwrap_or(BANDS.len() - 1);
            let op = Op::ALL.iter().position(|o| *o == p.op).unwrap_or(0) as u8;
            let e = by.entry((op, band)).or_default();
            e.0.push(model_err);
            e.1.push(cal_err);
            e.2.push(model / ratio / measured);
            model_all.push(model_err);
            cal_all.push(cal_err);
        }
    }
    let rows = u32::try_from(model_all.len()).unwrap_or(u32::MAX);
    Validation {
        method: "leave one run out".into(),
        runs: u32::try_from(runs.len()).unwrap_or(u32::MAX),
        rows,
        model_error: median(model_all).unwrap_or(0.0),
        calibrated_error: median(cal_all).unwrap_or(0.0),
        bands: by
            .into_iter()
            .map(|((op, band), (m, c, q))| BandError {
                op: Op::ALL[usize::from(op)],
                band: BANDS[band].0.to_string(),
                rows: u32::try_from(m.len()).unwrap_or(u32::MAX),
                model_error: median(m).unwrap_or(0.0),
                calibrated_error: median(c).unwrap_or(0.0),
                // The nearest-rank 5th percentile, as the public floors.
                calibrated_floor: (q.len() >= MIN_FLOOR_ROWS)
                    .then(|| quantile(q, FLOOR_SHARE).map(|f| f.min(1.0)))
                    .flatten(),
            })
            .collect(),
        extrapolated_runs: extrapolated,
    }
}

#[cfg(test)]
mod tests;
