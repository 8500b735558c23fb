//! What a health check can gate on: the expected bus bandwidth per collective and size for a node shape and node
//! count, and the floor under it that healthy runs clear. The floor is the expectation times a per-band share: the
//! 5th percentile of measured over modelled bus bandwidth over the held-out healthy public runs, every row of their
//! tables (`tests/tests/calibration.rs` recomputes it and fails when [`BANDS`] is stale). Where NCCL may run two
//! ways (an all-reduce across nodes with the default algorithm: its cost model's choice, or a Ring), the floor is
//! taken under the slower of the two, as `health` judges.

use serde::{Deserialize, Serialize};

use crate::collective::{Op, collective};
use crate::scenario::{Algorithm, Scenario};
use crate::units::Bytes;

pub use crate::calibrate::FLOOR_SHARE;

/// One size band and its floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorBand {
    /// From (inclusive), bytes.
    pub from_bytes: f64,
    /// To (exclusive), bytes.
    pub to_bytes: f64,
    /// Measured over modelled bus bandwidth that all but [`FLOOR_SHARE`] of the held-out healthy rows reach.
    pub floor: f64,
    /// The held-out rows it was taken over.
    pub rows: usize,
}

const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * 1024.0;

/// The floors by size band, the calibration replay's bands (README, "Every size"), from `cargo test -p tests --test
/// calibration -- --nocapture threshold_floors` (`FLOOR_DETAIL=1` lists the rows below 0.6). Below 64 MiB they are
/// loose: one held-out run, GKE's B200 all_gather over RoCE (`gke-dranet-a4-b200-2node-allgather`), reads 4 to 10
/// times below the model there and sets the 5th percentile; from 64 MiB up the floor is the tight one to gate on.
pub const BANDS: [FloorBand; 4] = [
    FloorBand { from_bytes: 0.0, to_bytes: 64.0 * KIB, floor: 0.14, rows: 47 },
    FloorBand { from_bytes: 64.0 * KIB, to_bytes: MIB, floor: 0.13, rows: 16 },
    FloorBand { from_bytes: MIB, to_bytes: 64.0 * MIB, floor: 0.11, rows: 40 },
    FloorBand { from_bytes: 64.0 * MIB, to_bytes: f64::INFINITY, floor: 0.68, rows: 117 },
];

/// The band a size falls in.
pub fn band(size_bytes: f64) -> &'static FloorBand {
    BANDS.iter().find(|b| size_bytes >= b.from_bytes && size_bytes < b.to_bytes).unwrap_or(&BANDS[BANDS.len() - 1])
}

/// One gate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Threshold {
    /// The collective, as nccl-tests names its binary (`all_reduce`).
    pub op: Op,
    /// Nodes.
    pub nodes: u32,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// nccl-tests' size column, bytes.
    pub size_bytes: f64,
    /// The model's bus bandwidth, GB/s per GPU as nccl-tests reports it (NCCL's choice of algorithm).
    pub expected_busbw_gbs: f64,
    /// The Ring's, where NCCL may run either.
    pub expected_ring_busbw_gbs: Option<f64>,
    /// The floor: a healthy run reads at least this busbw, GB/s.
    pub min_busbw_gbs: f64,
    /// The tolerance under the slower expectation: 1 - the band's floor.
    pub tolerance: f64,
    /// Where the floor comes from: `public` (the held-out public runs, [`BANDS`]) or `profile` (the user's own runs
    /// left out in turn, with `--profile`).
    pub floor_from: String,
    /// NCCL's algorithm and protocol, as the model picks them.
    pub algorithm: String,
    /// The protocol.
    pub protocol: String,
}

/// The gates for `ops` at `sizes` on the scenario's nodes (its correction, if any, sets the expectation; `profile`'s
/// own left-out rows set the floor where it has enough of them in a band).
pub fn thresholds(
    s: &Scenario,
    ops: &[Op],
    sizes: &[f64],
    profile: Option<&crate::calibrate::Profile>,
) -> Vec<Threshold> {
    let ring = (s.nodes() > 1 && s.input().algorithm == Algorithm::Auto)
        .then(|| s.with(|i| i.algorithm = Algorithm::Ring).ok())
        .flatten();
    let mut out = Vec::with_capacity(ops.len() * sizes.len());
    for &op in ops {
        for &size in sizes {
            let e = collective(s, op, Bytes::new(size));
            let r = (op == Op::AllReduce)
                .then_some(ring.as_ref())
                .flatten()
                .map(|r| collective(r, op, Bytes::new(size)).busbw_gbs);
            let low = r.map_or(e.busbw_gbs, |r| r.min(e.busbw_gbs));
            let own = profile.and_then(|p| p.floor(op, size));
            let floor = own.unwrap_or(band(size).floor);
            out.push(Threshold {
                op,
                nodes: s.nodes(),
                gpus_per_node: s.gpus_per_node(),
                size_bytes: size,
                expected_busbw_gbs: e.busbw_gbs,
                expected_ring_busbw_gbs: r,
                min_busbw_gbs: low * floor,
                tolerance: 1.0 - floor,
                floor_from: if own.is_some() { "profile" } else { "public" }.to_string(),
                algorithm: e.algorithm.to_string(),
                protocol: e.protocol.to_string(),
            });
        }
    }
    out
}

/// The gates as CSV: a header, then one row per (collective, size), numbers as plain decimals.
pub fn csv(rows: &[Threshold]) -> String {
    use std::fmt::Write as _;
    let mut t = String::from(
        "collective,nodes,gpus_per_node,size_bytes,expected_busbw_gbs,expected_ring_busbw_gbs,min_busbw_gbs,tolerance,\
         algorithm,protocol,floor_from\n",
    );
    for r in rows {
        let _ = writeln!(
            t,
            "{},{},{},{},{},{},{},{:.2},{},{},{}",
            r.op.name(),
            r.nodes,
            r.gpus_per_node,
            r.size_bytes,
            sig(r.expected_busbw_gbs),
            r.expected_ring_busbw_gbs.map_or(String::new(), sig),
            sig(r.min_busbw_gbs),
            r.tolerance,
            r.algorithm,
            r.protocol,
            r.floor_from
        );
    }
    t
}

/// A bus bandwidth with four significant digits and at least two decimals (0.0004321 at 8 bytes, 459.72 at 8 GiB),
/// no thousands separator.
fn sig(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return format!("{x:.2}");
    }
    let decimals = (3 - x.log10().floor() as i32).clamp(2, 12) as usize;
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioInput;

    #[test]
    fn bands_cover_every_size_once() {
        for w in BANDS.windows(2) {
            assert_eq!(w[0].to_bytes, w[1].from_bytes);
        }
        assert_eq!(BANDS[0].from_bytes, 0.0);
        assert!(BANDS.iter().all(|b| (0.0..=1.0).contains(&b.floor) && b.rows > 0));
        assert_eq!(band(8.0).from_bytes, 0.0);
        assert_eq!(band(8.0 * 1024.0 * MIB).to_bytes, f64::INFINITY);
    }

    #[test]
    fn a_floor_sits_under_the_slower_of_ncclss_two_ways() {
        let s = Scenario::new(ScenarioInput::default()).expect("valid");
        let size = 8.0 * 1024.0 * MIB;
        let t = &thresholds(&s, &[Op::AllReduce], &[size], None)[0];
        let ring = t.expected_ring_busbw_gbs.expect("two nodes, default algorithm");
        let low = ring.min(t.expected_busbw_gbs);
        assert!((t.min_busbw_gbs - low * band(size).floor).abs() < 1e-9);
        assert!(t.min_busbw_gbs < low);
        assert_eq!(sig(0.000432119), "0.0004321");
        assert_eq!(sig(459.7234), "459.72");
        let csv = csv(std::slice::from_ref(t));
        assert!(csv.lines().nth(1).is_some_and(|l| l.starts_with("all_reduce,2,8,8589934592,")), "{csv}");
    }
}
