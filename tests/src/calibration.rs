//! The calibration replay.
//!
//! Each point becomes a scenario (GPU from the catalog, nodes, GPUs per node, NICs, line rate, fabric, GDR) and is
//! sorted into one of four groups, decided from the point's own metadata and notes, never from the model's error:
//! - `point`: one node, three or more nodes, or two nodes with `NCCL_ALGO=Ring`;
//! - `two-node default`: two nodes with NCCL's default algorithm (Tree/NVLSTree may win there: the model picks as
//!   NCCL does, so these are scored the same way, and listed apart because they read above the NICs' rate);
//! - `unhealthy`: the notes call the system degraded or misconfigured. Listed apart; the model predicts the
//!   healthy value, so the measurement must fall well below it;
//! - `low confidence`: unknown GPU or NICs, or notes that say to treat the point with care. Listed only.
//!
//! Within the two scored groups a point is *held out* or *fitted*: fitted when a constant its prediction uses was
//! set from that very measurement ([`provenance`]). Only held-out points measure the model; their median and
//! maximum |error| are the validation figure, and the targets apply to them. Fitted points are listed apart.
//!
//! [`curves`] replays every size of every table, of every collective, by size band.

pub mod curves;
pub mod provenance;
pub mod steps;

use std::fmt::Write as _;
use std::path::PathBuf;

use estimator_core::{
    Algorithm, Bytes, Fabric, IntraNodeLink, Scenario, ScenarioInput, allreduce, catalog, collective::Bottleneck,
};
use provenance::Constant;
use serde::Deserialize;

/// One row of a point: out-of-place figures as nccl-tests prints them.
#[derive(Clone, Debug, Deserialize)]
pub struct Row {
    /// Message size, bytes.
    pub size_bytes: f64,
    /// Out-of-place time, microseconds.
    pub time_us: Option<f64>,
    /// Out-of-place bus bandwidth, GB/s.
    #[serde(rename = "busbw_GBps")]
    pub busbw_gbps: Option<f64>,
}

/// One public measurement.
#[derive(Clone, Debug, Deserialize)]
pub struct Point {
    /// Identifier.
    pub id: String,
    /// Nodes.
    pub nodes: u32,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// GPU as the source names it.
    pub gpu: String,
    /// Intra-node description.
    pub intra_node: Option<String>,
    /// Fabric description.
    pub fabric: String,
    /// NIC line rate, Gb/s.
    pub nic_speed_gbps: Option<f64>,
    /// NICs per node.
    pub nics_per_node: Option<u32>,
    /// GPUs in one NVLink domain when it spans nodes (GB200/GB300 NVL72 racks); absent: the node.
    #[serde(default)]
    pub nvlink_domain_gpus: Option<u32>,
    /// GPUDirect RDMA description.
    pub gdr: String,
    /// Algorithm description.
    pub algo: String,
    /// Notes.
    pub notes: Option<String>,
    /// Rows.
    #[serde(default)]
    pub rows: Vec<Row>,
    /// A typed summary (`{"8_gpus": 28}`) when there is no table.
    #[serde(rename = "summary_busbw_GBps")]
    pub summary_busbw_gbps: Option<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Deserialize)]
struct File {
    points: Vec<Point>,
}

/// The group a point is scored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// One node, three or more, or two with `NCCL_ALGO=Ring`: scored against NCCL's choice.
    Point,
    /// Two nodes with NCCL's default: scored against NCCL's choice too, listed apart (Tree/NVLSTree read high).
    TwoNodeDefault,
    /// Degraded or misconfigured: the measurement should be well below the model.
    Unhealthy,
    /// Too little metadata; listed only.
    LowConfidence,
}

impl Group {
    /// Label for the table.
    pub fn label(self) -> &'static str {
        match self {
            Group::Point => "point",
            Group::TwoNodeDefault => "two-node default",
            Group::Unhealthy => "unhealthy",
            Group::LowConfidence => "low confidence",
        }
    }
}

/// A point replayed through the model.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The point's identifier.
    pub id: String,
    /// Its group.
    pub group: Group,
    /// Message size compared, bytes.
    pub size_bytes: f64,
    /// Measured busbw, GB/s.
    pub measured: f64,
    /// The model's busbw (NCCL's choice of algorithm and protocol), GB/s.
    pub predicted: f64,
    /// NCCL's algorithm and protocol for the size, as the model picks them.
    pub algorithm: String,
    /// Signed relative error (model - measured) / measured.
    pub error: f64,
    /// The model constants the prediction uses.
    pub uses: Vec<Constant>,
    /// Those of them that were set from this point; empty for a held-out point.
    pub fitted_by: Vec<Constant>,
    /// What limits the prediction.
    pub bottleneck: Bottleneck,
    /// What was assumed (inferred NIC speed, catalog entry).
    pub assumptions: Vec<String>,
}

impl Replay {
    /// Whether no constant of its prediction was set from it.
    pub fn held_out(&self) -> bool {
        self.fitted_by.is_empty()
    }
}

/// The path of the calibration file: `CALIBRATION_FILE`, else the copy in this crate.
pub fn calibration_path() -> PathBuf {
    std::env::var_os("CALIBRATION_FILE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/nccl-tests/measurements.json"))
}

/// Reads the points of a calibration file.
pub fn load(path: &std::path::Path) -> Result<Vec<Point>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let f: File = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(f.points)
}

fn fabric_of(desc: &str) -> Option<Fabric> {
    let d = desc.to_ascii_lowercase();
    if d.contains("socket") {
        Some(Fabric::Tcp)
    } else if d.contains("tcpxo") {
        Some(Fabric::Tcpxo)
    } else if d.contains("tcpx") {
        Some(Fabric::Tcpx)
    } else if d.contains("slingshot") {
        Some(Fabric::Rdma)
    } else if d.contains("roce") {
        Some(Fabric::Roce)
    } else if d.contains("infiniband") {
        Some(Fabric::Infiniband)
    } else if d.contains("efa v2") || d.contains("efav2") {
        Some(Fabric::EfaV2)
    } else if d.contains("efa v3") || d.contains("efav3") {
        Some(Fabric::EfaV3)
    } else if d.contains("efa") {
        Some(Fabric::Efa)
    } else {
        None
    }
}

fn intra_of(desc: Option<&str>) -> Option<IntraNodeLink> {
    let d = desc?.to_ascii_lowercase();
    if d.contains("p2p_disable") || d.contains("host-staged") {
        Some(IntraNodeLink::PcieHostStaged)
    } else if d.contains("nvlink bridge") {
        Some(IntraNodeLink::Nvlink)
    } else {
        None
    }
}

/// The large-message figure of a point: the row with the peak busbw (the rows are large sizes already, and the
/// peak is what the set's `peak_oop_busbw_GBps` records), or the typed summary for its GPU count.
fn large_message(p: &Point) -> Option<(f64, f64)> {
    let peak = p.rows.iter().filter_map(|r| Some((r.size_bytes, r.busbw_gbps?))).max_by(|a, b| a.1.total_cmp(&b.1));
    if peak.is_some() {
        return peak;
    }
    let summary = p.summary_busbw_gbps.as_ref()?;
    let v = summary.get(&format!("{}_gpus", p.gpus_per_node))?.as_f64()?;
    // A typed summary is a peak over large sizes; compare at 8 GiB.
    Some((8.0 * 1024.0 * 1024.0 * 1024.0, v))
}

/// The hardware of a point as a scenario, the group it is scored in, and what was assumed. `None` when its
/// scenario is not valid.
pub fn scenario_of(p: &Point) -> Option<(Scenario, Group, Vec<String>)> {
    let notes = p.notes.clone().unwrap_or_default().to_ascii_lowercase();
    let mut assumptions = Vec::new();
    let lookup = catalog::lookup(&p.gpu);
    let mut low_confidence = matches!(lookup, catalog::Lookup::Unknown)
        || notes.contains("lower confidence")
        || notes.contains("sanity check");
    if !matches!(lookup, catalog::Lookup::Unknown) {
        assumptions.push(format!("gpu={}", lookup.spec().key));
    }
    let multi = p.nodes > 1;
    let fabric = if multi { fabric_of(&p.fabric) } else { Some(Fabric::Infiniband) };
    if fabric.is_none() {
        low_confidence = true;
    }
    let nics = p.nics_per_node;
    let speed = match (p.nic_speed_gbps, nics) {
        (Some(s), _) => Some(s),
        (None, Some(_)) if multi => {
            // A fabric sold at one rate has it; otherwise the common 400G.
            let rate = match fabric.map(Fabric::line_rates_gbps) {
                Some([one]) => *one,
                _ => 400.0,
            };
            assumptions.push(format!("nic speed inferred {rate}G"));
            Some(rate)
        }
        _ => None,
    };
    if multi && (nics.is_none() || speed.is_none()) {
        low_confidence = true;
        assumptions.push("NICs unknown: 1x 100G assumed".to_string());
    }
    let input = ScenarioInput {
        nodes: i64::from(p.nodes),
        gpus_per_node: i64::from(p.gpus_per_node),
        gpu: p.gpu.clone(),
        intra_node: intra_of(p.intra_node.as_deref()),
        nvlink_domain_gpus: p.nvlink_domain_gpus.map(i64::from),
        adapters_per_node: i64::from(if multi { nics.unwrap_or(1) } else { 0 }),
        link_gbps: speed.unwrap_or(100.0),
        fabric: fabric.unwrap_or(Fabric::Infiniband),
        gdr: !p.gdr.trim().to_ascii_lowercase().starts_with("no"),
        ..ScenarioInput::default()
    };
    let algo = p.algo.to_ascii_lowercase();
    let ring_forced = algo.contains("ring") || algo.contains("nvls_enable=0");
    let input = ScenarioInput { algorithm: if ring_forced { Algorithm::Ring } else { Algorithm::Auto }, ..input };
    let scenario = Scenario::new(input).ok()?;
    let group = if notes.contains("degraded") || notes.contains("misconfig") {
        Group::Unhealthy
    } else if low_confidence {
        Group::LowConfidence
    } else if p.nodes == 2 && !ring_forced {
        Group::TwoNodeDefault
    } else {
        Group::Point
    };
    Some((scenario, group, assumptions))
}

/// Replays one point. `None` when it has no large-message figure at all.
pub fn replay(p: &Point) -> Option<Replay> {
    let (size, measured) = large_message(p)?;
    let (scenario, group, assumptions) = scenario_of(p)?;
    let uses = provenance::constants_used(&scenario);
    let fitted_by = provenance::fitted_by(&p.id, &uses);
    let model = allreduce(&scenario, Bytes::new(size));
    let predicted = model.busbw_gbs;
    Some(Replay {
        id: p.id.clone(),
        group,
        size_bytes: size,
        measured,
        predicted,
        algorithm: format!("{}/{}", model.algorithm, model.protocol),
        error: (predicted - measured) / measured,
        uses,
        fitted_by,
        bottleneck: model.bottleneck,
        assumptions,
    })
}

/// Replays every point: by group, held-out points before fitted ones, then by id.
pub fn replay_all(points: &[Point]) -> Vec<Replay> {
    let mut v: Vec<Replay> = points.iter().filter_map(replay).collect();
    v.sort_by(|a, b| a.group.cmp(&b.group).then(b.held_out().cmp(&a.held_out())).then_with(|| a.id.cmp(&b.id)));
    v
}

/// The replays of one group, held out or fitted.
pub fn subset(replays: &[Replay], group: Group, held_out: bool) -> Vec<&Replay> {
    replays.iter().filter(|r| r.group == group && r.held_out() == held_out).collect()
}

/// How large some errors are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// How many.
    pub n: usize,
    /// Median |error|.
    pub median: f64,
    /// Largest |error|.
    pub max: f64,
}

impl Spread {
    /// Of some signed relative errors; `None` when there are none.
    pub fn of(errors: impl IntoIterator<Item = f64>) -> Option<Spread> {
        let mut e: Vec<f64> = errors.into_iter().map(f64::abs).collect();
        if e.is_empty() {
            return None;
        }
        e.sort_by(f64::total_cmp);
        let n = e.len();
        let median = if n % 2 == 1 { e[n / 2] } else { (e[n / 2 - 1] + e[n / 2]) / 2.0 };
        Some(Spread { n, median, max: e[n - 1] })
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let points = if self.n == 1 { "point" } else { "points" };
        write!(f, "{} {points}, median |error| {:.1}%, max {:.1}%", self.n, self.median * 100.0, self.max * 100.0)
    }
}

fn percent(e: f64) -> String {
    format!("{:+.1}%", e * 100.0)
}

/// The table as Markdown: every point, the held-out and fitted figures of each scored group, and where the
/// constants the replay uses came from.
pub fn markdown_table(replays: &[Replay]) -> String {
    let mut s = String::new();
    s.push_str(
        "| point | group | set | size | measured busbw (GB/s) | predicted (GB/s) | NCCL's choice | error | limited by |\n",
    );
    s.push_str("|---|---|---|---:|---:|---:|---|---:|---|\n");
    for r in replays {
        let size = if r.size_bytes >= 1e9 {
            format!("{:.0} GiB", r.size_bytes / 1073741824.0)
        } else {
            format!("{:.0} MiB", r.size_bytes / 1048576.0)
        };
        let set = if r.held_out() {
            "held out".to_string()
        } else {
            format!("fitted: {}", r.fitted_by.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "))
        };
        let note = if r.assumptions.is_empty() { String::new() } else { format!(" ({})", r.assumptions.join(", ")) };
        let _ = writeln!(
            s,
            "| {} | {} | {set} | {size} | {:.2} | {:.1} | {} | {} | {:?}{note} |",
            r.id,
            r.group.label(),
            r.measured,
            r.predicted,
            r.algorithm,
            percent(r.error),
            r.bottleneck,
        );
    }
    s.push_str("\nValidation, held-out points only (no constant of their prediction was set from them):\n\n");
    for g in [Group::Point, Group::TwoNodeDefault] {
        if let Some(sp) = Spread::of(subset(replays, g, true).iter().map(|r| r.error)) {
            let _ = writeln!(s, "- {}: {sp}", g.label());
        }
    }
    s.push_str(
        "\nFitted points (a constant of their prediction was set from them; they show the fit, not accuracy):\n\n",
    );
    for g in [Group::Point, Group::TwoNodeDefault] {
        if let Some(sp) = Spread::of(subset(replays, g, false).iter().map(|r| r.error)) {
            let _ = writeln!(s, "- {}: {sp}", g.label());
        }
    }
    s.push_str(
        "\nThe constants these predictions use and the calibration points each was set from (`PROVENANCE` in \
         `tests/src/calibration/provenance.rs` records every constant):\n\n",
    );
    s.push_str("| constant | value | set from | how |\n|---|---|---|---|\n");
    let mut used: Vec<Constant> = Vec::new();
    for c in replays.iter().flat_map(|r| &r.uses) {
        if !used.contains(c) {
            used.push(*c);
        }
    }
    for p in provenance::PROVENANCE.iter().filter(|p| used.contains(&p.constant)) {
        let from = provenance::set_from(p.constant);
        let from = if from.is_empty() { "-".to_string() } else { from.join(", ") };
        let _ = writeln!(s, "| {} | {} | {from} | {} |", p.constant.name(), p.constant.value(), p.basis);
    }
    s
}
