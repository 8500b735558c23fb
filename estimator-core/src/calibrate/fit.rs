//! The correction of one (collective, nodes, GPUs per node): measured over modelled bus bandwidth, r(S) = model time
//! / measured time, fitted as a smooth function of the size S. ln r is a line through knots every 16x in size
//! ([`KNOTS`]: 8 B, 128 B, ..., 32 GiB), interpolated in log size and flat beyond the first and last: the first
//! knot corrects the latency (what the smallest sizes see), the last the peak bus bandwidth (what the largest
//! see), the ones between are the ramp. The knots are a least-squares fit to the rows, with a penalty on the step
//! between neighbours (so that a knot with no row near it follows its neighbours, and the ramp stays smooth) and a
//! small one toward 0 (so that what no row says stays the model's). The model is corrected, not replaced: where a
//! size, a node count or a collective was not measured, the model's own shape carries it.

use serde::{Deserialize, Serialize};

use crate::collective::Op;
use crate::stats::median;

/// The knots' sizes, as powers of two: 8 B to 32 GiB, every 16x.
pub const KNOTS: [i32; 9] = [3, 7, 11, 15, 19, 23, 27, 31, 35];
/// The penalty on the step between neighbouring knots, in squared log-ratio: about one row's worth.
const SMOOTH: f64 = 1.0;
/// The penalty on each knot toward the model (ln r = 0).
const TOWARD_MODEL: f64 = 0.01;
/// The widest correction taken: a profile that says the fabric is 100 times off the model is not a correction.
const MAX_LOG_RATIO: f64 = 4.605_170_185_988_091; // ln 100

/// One fitted correction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Correction {
    /// The collective.
    pub op: Op,
    /// Nodes of the runs it was fitted on.
    pub nodes: u32,
    /// GPUs per node of those runs.
    pub gpus_per_node: u32,
    /// Runs (files, or runs of a file) it was fitted on.
    pub runs: u32,
    /// Table rows it was fitted on.
    pub rows: u32,
    /// Smallest and largest size measured, bytes.
    pub sizes_bytes: [f64; 2],
    /// Measured over modelled bus bandwidth at the smallest sizes (the latency's correction).
    pub small_ratio: f64,
    /// At the largest sizes (the peak bus bandwidth's correction).
    pub large_ratio: f64,
    /// The ramp: (size in bytes, measured over modelled bus bandwidth) at each knot, smallest first.
    pub ramp: Vec<[f64; 2]>,
    /// Median |error| of the corrected time on the rows it was fitted on (in sample).
    pub fitted_error: f64,
}

impl Correction {
    /// Measured over modelled bus bandwidth at `bytes`: what the model's time is divided by.
    pub fn ratio(&self, bytes: f64) -> f64 {
        let t = bytes.max(1.0).log2();
        let (Some(first), Some(last)) = (self.ramp.first(), self.ramp.last()) else { return 1.0 };
        if t <= first[0].log2() {
            return first[1];
        }
        if t >= last[0].log2() {
            return last[1];
        }
        for w in self.ramp.windows(2) {
            let (t0, t1) = (w[0][0].log2(), w[1][0].log2());
            if t <= t1 {
                let f = (t - t0) / (t1 - t0);
                return (w[0][1].ln() * (1.0 - f) + w[1][1].ln() * f).exp();
            }
        }
        last[1]
    }
}

/// One measured row: its size and measured over modelled bus bandwidth (model time / measured time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// nccl-tests' size, bytes.
    pub bytes: f64,
    /// Model time over measured time.
    pub ratio: f64,
}

/// The hat functions at the knots for a size: (index, weight) of the one or two knots it falls between.
fn hats(bytes: f64) -> [(usize, f64); 2] {
    let t = bytes.max(1.0).log2();
    let n = KNOTS.len();
    if t <= f64::from(KNOTS[0]) {
        return [(0, 1.0), (0, 0.0)];
    }
    if t >= f64::from(KNOTS[n - 1]) {
        return [(n - 1, 1.0), (n - 1, 0.0)];
    }
    let j = KNOTS.iter().rposition(|k| f64::from(*k) <= t).unwrap_or(0).min(n - 2);
    let f = (t - f64::from(KNOTS[j])) / f64::from(KNOTS[j + 1] - KNOTS[j]);
    [(j, 1.0 - f), (j + 1, f)]
}

/// Fits the correction of one key to its rows; `None` without a usable row.
pub fn fit(op: Op, nodes: u32, gpus_per_node: u32, runs: u32, rows: &[Row]) -> Option<Correction> {
    let rows: Vec<Row> =
        rows.iter().copied().filter(|r| r.ratio.is_finite() && r.ratio > 0.0 && r.bytes > 0.0).collect();
    if rows.is_empty() {
        return None;
    }
    const N: usize = KNOTS.len();
    // Normal equations (A^T A + penalties) w = A^T y.
    let mut m = [[0.0f64; N]; N];
    let mut v = [0.0f64; N];
    for r in &rows {
        let y = r.ratio.ln().clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO);
        let h = hats(r.bytes);
        for &(i, a) in &h {
            v[i] += a * y;
            for &(j, b) in &h {
                m[i][j] += a * b;
            }
        }
    }
    for (i, row) in m.iter_mut().enumerate() {
        row[i] += TOWARD_MODEL;
    }
    for j in 1..N {
        m[j - 1][j - 1] += SMOOTH;
        m[j][j] += SMOOTH;
        m[j - 1][j] -= SMOOTH;
        m[j][j - 1] -= SMOOTH;
    }
    let w = solve(m, v)?;
    let ramp: Vec<[f64; 2]> =
        KNOTS.iter().zip(w).map(|(k, x)| [2f64.powi(*k), x.clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO).exp()]).collect();
    let lo = rows.iter().map(|r| r.bytes).fold(f64::INFINITY, f64::min);
    let hi = rows.iter().map(|r| r.bytes).fold(0.0, f64::max);
    let mut c = Correction {
        op,
        nodes,
        gpus_per_node,
        runs,
        rows: u32::try_from(rows.len()).unwrap_or(u32::MAX),
        sizes_bytes: [lo, hi],
        small_ratio: 1.0,
        large_ratio: 1.0,
        ramp,
        fitted_error: 0.0,
    };
    c.small_ratio = c.ratio(lo);
    c.large_ratio = c.ratio(hi);
    c.fitted_error = median(rows.iter().map(|r| (r.ratio / c.ratio(r.bytes) - 1.0).abs()).collect()).unwrap_or(0.0);
    Some(c)
}

/// Gaussian elimination with partial pivoting; `None` when the system is singular (it never is with the penalty).
fn solve<const N: usize>(mut m: [[f64; N]; N], mut v: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let p = (col..N).max_by(|a, b| m[*a][col].abs().total_cmp(&m[*b][col].abs()))?;
        if m[p][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, p);
        v.swap(col, p);
        let pivot = m[col];
        for r in col + 1..N {
            let f = m[r][col] / pivot[col];
            for (x, p) in m[r].iter_mut().zip(pivot.iter()).skip(col) {
                *x -= f * p;
            }
            v[r] -= f * v[col];
        }
    }
    let mut x = [0.0; N];
    for r in (0..N).rev() {
        let s: f64 = (r + 1..N).map(|c| m[r][c] * x[c]).sum();
        x[r] = (v[r] - s) / m[r][r];
    }
    x.iter().all(|e| e.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(f: impl Fn(f64) -> f64) -> Vec<Row> {
        (3..=33).map(|e| 2f64.powi(e)).map(|b| Row { bytes: b, ratio: f(b) }).collect()
    }

    #[test]
    fn a_flat_ratio_fits_as_flat() {
        let c = fit(Op::AllReduce, 2, 8, 1, &rows(|_| 0.8)).expect("fits");
        assert!((c.large_ratio - 0.8).abs() < 0.01 && (c.small_ratio - 0.8).abs() < 0.01, "{c:?}");
        assert!(c.fitted_error < 0.01);
    }

    #[test]
    fn a_dip_at_mid_sizes_is_followed() {
        // 1 at small and large sizes, 0.7 around 64 MiB: what a model fast at mid sizes leaves.
        let dip = |b: f64| {
            let d = (b.log2() - 26.0) / 3.0;
            1.0 - 0.3 * (-d * d).exp()
        };
        let c = fit(Op::AllReduce, 2, 8, 1, &rows(dip)).expect("fits");
        assert!(c.fitted_error < 0.06, "{c:?}");
        // Followed, a little flattened by the smoothing: most of the way down at its bottom.
        let bottom = c.ratio(64.0 * 1024.0 * 1024.0);
        assert!((0.7..0.85).contains(&bottom), "{bottom}");
        assert!((c.ratio(8.0) - 1.0).abs() < 0.05 && (c.ratio(8.0 * 1024.0 * 1024.0 * 1024.0) - 1.0).abs() < 0.05);
    }

    #[test]
    fn sizes_no_row_reached_follow_the_nearest_knots() {
        let large: Vec<Row> = (28..=33).map(|e| Row { bytes: 2f64.powi(e), ratio: 0.5 }).collect();
        let c = fit(Op::AllGather, 4, 8, 1, &large).expect("fits");
        assert!((c.ratio(2f64.powi(33)) - 0.5).abs() < 0.03, "{c:?}");
        // Far below the rows the ramp drifts back toward the model, never past it.
        let small = c.ratio(8.0);
        assert!(small > 0.5 && small <= 1.0, "{small}");
    }

    #[test]
    fn wild_ratios_are_bounded_and_junk_rows_dropped() {
        let mut r = rows(|_| 1e9);
        r.push(Row { bytes: 8.0, ratio: f64::NAN });
        r.push(Row { bytes: -1.0, ratio: 1.0 });
        let c = fit(Op::AllGather, 4, 8, 1, &r).expect("fits");
        assert!(c.large_ratio <= 100.0 + 1e-9 && c.large_ratio > 50.0, "{c:?}");
        assert!(fit(Op::AllGather, 4, 8, 1, &[Row { bytes: 8.0, ratio: 0.0 }]).is_none());
    }
}
