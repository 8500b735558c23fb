//! The two order statistics the readers of many runs share (`pairs`, `calibrate`, and through the tests'
//! replay, `thresholds`): the median and the nearest-rank quantile, over the finite values given.

/// The median of the finite values; `None` when there are none.
pub fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

/// The nearest-rank `share` quantile of the finite values (0.05: the smallest value with at least 5% of them at or
/// below it); `None` when there are none.
pub fn quantile(mut v: Vec<f64>, share: f64) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let k = ((share * v.len() as f64).ceil() as usize).clamp(1, v.len());
    Some(v[k - 1])
}

/// A file, or a run of one, that a reader of many left out, and why.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Refused {
    /// The file (`file#2` for a file's second run).
    pub file: String,
    /// Why, naming what is missing or wrong.
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_quantiles_skip_what_is_not_a_number() {
        assert_eq!(median(vec![3.0, f64::NAN, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0]), Some(2.5));
        assert_eq!(median(vec![f64::INFINITY]), None);
        let v: Vec<f64> = (1..=40).map(f64::from).collect();
        assert_eq!(quantile(v.clone(), 0.05), Some(2.0));
        assert_eq!(quantile(v, 1.0), Some(40.0));
        assert_eq!(quantile(vec![], 0.5), None);
    }
}
