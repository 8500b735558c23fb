//! How far the model's step is from the measured step of a run it was not shaped on: the range given with every
//! step ([`crate::StepEstimate::step_range_s`]).
//!
//! The range is the spread of measured over predicted step on the step replay's public multi-node training runs
//! (`tests/data/steps/`: README, "The step, against public training runs"), each run predicted out of source
//! (leave one source out: no constant or rule taken from the run's own source), with the run's own single-node or
//! single-GPU step as the compute. Its ends are the 5th and 95th percentiles of that ratio, so it is as wide as the
//! model's validated accuracy on runs it has not seen, and no wider.
//!
//! One pool, not one range per regime: on these runs, ranges taken per fabric class, per layout family, per node
//! count or per communication share held the measured step less often out of source than the pooled range
//! (`tests/tests/calibration.rs`, `the_step_range_is_the_out_of_source_spread` prints each); 63 runs from 11 sources
//! are too few to give each regime a range of its own.
//!
//! What it does not cover: the compute's own error. The replay gives each run its measured compute; a step whose
//! compute comes from the GPU's catalog rate and an assumed MFU carries that assumption on top of this range.

use crate::units::Seconds;

/// The low end of the range: measured over predicted step at the 5th percentile, out of source, of the step
/// replay's 63 public runs (11 sources), rounded down to 0.001. `tests/tests/calibration.rs` holds it equal to the
/// runs.
pub const STEP_RANGE_LOW: f64 = 0.760;
/// The high end: the 95th percentile of the same ratio, rounded up to 0.001.
pub const STEP_RANGE_HIGH: f64 = 1.203;
/// The runs behind the range.
pub const STEP_RANGE_RUNS: usize = 63;
/// Their sources (a paper, benchmark page or issue thread each).
pub const STEP_RANGE_SOURCES: usize = 11;

/// Where the range comes from, in one sentence for the front ends.
pub const STEP_RANGE_BASIS: &str = "the 5th to 95th percentile of measured over predicted step on 63 public \
                                    multi-node training runs (11 sources), each predicted without anything taken \
                                    from its own source, with its measured compute (README, the step replay); the \
                                    compute's own error is not in it";

/// The range of a predicted step: [low, high], which always holds the step.
pub fn step_range(step: Seconds) -> [Seconds; 2] {
    [step.scale(STEP_RANGE_LOW.min(1.0)), step.scale(STEP_RANGE_HIGH.max(1.0))]
}

/// 5th and 95th percentiles of measured over predicted, with linear interpolation between the sorted ratios (the
/// common "type 7" estimator): what [`STEP_RANGE_LOW`] and [`STEP_RANGE_HIGH`] are, computed from `ratios`.
/// `None` for no ratio or one that is not a positive number.
pub fn range_of(ratios: &[f64]) -> Option<(f64, f64)> {
    if ratios.is_empty() || ratios.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return None;
    }
    let mut v = ratios.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let k = q * (v.len() - 1) as f64;
        let (i, f) = (k.floor() as usize, k - k.floor());
        let j = (i + 1).min(v.len() - 1);
        v[i] + f * (v[j] - v[i])
    };
    Some((at(0.05), at(0.95)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_holds_the_step_and_scales_with_it() {
        for t in [0.0, 1e-6, 0.5, 13.0, 86_400.0] {
            let [lo, hi] = step_range(Seconds::new(t));
            assert!(lo.as_secs() <= t && t <= hi.as_secs(), "{t}: {lo:?} {hi:?}");
            assert!((hi.as_secs() - t * STEP_RANGE_HIGH).abs() <= 1e-12 * t.max(1.0));
        }
    }

    #[test]
    fn percentiles_interpolate_between_sorted_ratios() {
        let r: Vec<f64> = (1..=21).map(f64::from).collect();
        assert_eq!(range_of(&r), Some((2.0, 20.0)));
        assert_eq!(range_of(&[1.0]), Some((1.0, 1.0)));
        assert_eq!(range_of(&[]), None);
        assert_eq!(range_of(&[1.0, f64::NAN]), None);
        assert_eq!(range_of(&[1.0, 0.0]), None);
    }
}
