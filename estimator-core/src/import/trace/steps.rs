//! A trace's steps: each `ProfilerStep#N`'s time on the CPU, and on the rank's GPU the time NCCL kernels ran
//! (their union), what of it no compute kernel overlapped (exposed) and what one did (hidden), as Holistic Trace
//! Analysis measures overlap (`hta/analyzers/communication_analysis.py`: merged communication and compute kernel
//! intervals, their intersection over the communication). A kernel belongs to the step its launch falls in.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::Kernel;

/// One step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepTimes {
    /// `N` of `ProfilerStep#N`.
    pub step: u32,
    /// Its time on the CPU (the annotation's duration), seconds.
    pub step_s: f64,
    /// The time NCCL kernels ran on the GPU (their union), seconds.
    pub comm_s: f64,
    /// Of it, the time no compute kernel ran beside it, seconds.
    pub exposed_comm_s: f64,
    /// Of it, the time a compute kernel ran beside it, seconds: `comm_s` = exposed + hidden.
    pub hidden_comm_s: f64,
    /// The time compute kernels ran (their union), seconds.
    pub compute_busy_s: f64,
}

/// The steps of a trace and their medians.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TraceSteps {
    /// The steps, in order.
    pub steps: Vec<StepTimes>,
    /// The GPU read (the device with the most kernels).
    pub device: Option<i64>,
    /// The median step: the step whose time is the median (the lower of the two middle ones), seconds. The
    /// `median_*` figures below are that step's, so that they add up (`comm = exposed + hidden`,
    /// `compute = step - exposed`) as medians taken apart would not.
    pub median_step_s: Option<f64>,
    /// The median step's communication.
    pub median_comm_s: Option<f64>,
    /// Its exposed communication.
    pub median_exposed_comm_s: Option<f64>,
    /// Its hidden communication.
    pub median_hidden_comm_s: Option<f64>,
    /// Its time less its exposed communication: the step's compute as a single-node run would take it (kernels,
    /// launches and the GPU's idle time), seconds.
    pub median_compute_s: Option<f64>,
    /// Kernels of the GPU read whose launch falls in no step.
    pub outside_steps: u64,
}

impl TraceSteps {
    /// The share of the median step's communication hidden.
    pub fn hidden_share(&self) -> Option<f64> {
        match (self.median_hidden_comm_s, self.median_comm_s) {
            (Some(h), Some(c)) if c > 0.0 => Some(h / c),
            _ => None,
        }
    }
}

/// Sorted, merged intervals.
fn merge(mut v: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

fn length(v: &[(f64, f64)]) -> f64 {
    v.iter().map(|(a, b)| b - a).sum()
}

/// The length of the intersection of two merged lists.
fn overlap(a: &[(f64, f64)], b: &[(f64, f64)]) -> f64 {
    let (mut i, mut j, mut t) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        let lo = a[i].0.max(b[j].0);
        let hi = a[i].1.min(b[j].1);
        if hi > lo {
            t += hi - lo;
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    t
}

/// The steps: `marks` are (N, ts, dur) sorted by ts, microseconds.
pub(super) fn steps(marks: &[(u32, f64, f64)], kernels: &[Kernel], launches: &HashMap<u64, f64>) -> TraceSteps {
    let mut per_device: HashMap<i64, usize> = HashMap::new();
    for k in kernels {
        *per_device.entry(k.device).or_insert(0) += 1;
    }
    let device = per_device.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(d, _)| *d);
    let mut out = TraceSteps { device, ..TraceSteps::default() };
    if marks.is_empty() {
        return out;
    }
    let starts: Vec<f64> = marks.iter().map(|m| m.1).collect();
    let mut comm: Vec<Vec<(f64, f64)>> = vec![Vec::new(); marks.len()];
    let mut compute: Vec<Vec<(f64, f64)>> = vec![Vec::new(); marks.len()];
    for k in kernels.iter().filter(|k| Some(k.device) == device) {
        let at = k.correlation.and_then(|c| launches.get(&c).copied()).unwrap_or(k.ts);
        let i = starts.partition_point(|s| *s <= at);
        let Some(i) = i.checked_sub(1).filter(|i| at < marks[*i].1 + marks[*i].2) else {
            out.outside_steps += 1;
            continue;
        };
        let span = (k.ts, k.ts + k.dur);
        if k.nccl.is_some() { comm[i].push(span) } else { compute[i].push(span) }
    }
    for (i, m) in marks.iter().enumerate() {
        let c = merge(std::mem::take(&mut comm[i]));
        let x = merge(std::mem::take(&mut compute[i]));
        let comm_us = length(&c);
        let hidden = overlap(&c, &x);
        out.steps.push(StepTimes {
            step: m.0,
            step_s: m.2 * 1e-6,
            comm_s: comm_us * 1e-6,
            exposed_comm_s: (comm_us - hidden).max(0.0) * 1e-6,
            hidden_comm_s: hidden * 1e-6,
            compute_busy_s: length(&x) * 1e-6,
        });
    }
    let mut by_time: Vec<&StepTimes> = out.steps.iter().collect();
    by_time.sort_by(|a, b| a.step_s.total_cmp(&b.step_s));
    if let Some(m) = by_time.get(by_time.len().saturating_sub(1) / 2).copied().copied() {
        out.median_step_s = Some(m.step_s);
        out.median_comm_s = Some(m.comm_s);
        out.median_exposed_comm_s = Some(m.exposed_comm_s);
        out.median_hidden_comm_s = Some(m.hidden_comm_s);
        out.median_compute_s = Some((m.step_s - m.exposed_comm_s).max(0.0));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_steps_figures_add_up() {
        let k =
            |ts: f64, dur: f64, nccl: bool| Kernel { ts, dur, device: 0, nccl: nccl.then_some(0), correlation: None };
        // Three steps of different shapes: the medians taken apart would not add up.
        let marks = [(1, 0.0, 100.0), (2, 100.0, 300.0), (3, 400.0, 200.0)];
        let kernels = [
            k(0.0, 50.0, false),
            k(40.0, 40.0, true),
            k(100.0, 100.0, false),
            k(150.0, 150.0, true),
            k(400.0, 20.0, false),
            k(410.0, 180.0, true),
        ];
        let t = steps(&marks, &kernels, &HashMap::new());
        let (c, e, h) =
            (t.median_comm_s.expect("c"), t.median_exposed_comm_s.expect("e"), t.median_hidden_comm_s.expect("h"));
        assert!((c - e - h).abs() < 1e-15, "{t:?}");
        assert!((t.median_compute_s.expect("x") - (t.median_step_s.expect("s") - e)).abs() < 1e-15);
        assert_eq!(t.median_step_s, Some(200.0 * 1e-6), "the step whose time is the median");
    }

    #[test]
    fn overlap_of_merged_intervals() {
        let a = merge(vec![(0.0, 10.0), (5.0, 12.0), (20.0, 30.0)]);
        assert_eq!(a, vec![(0.0, 12.0), (20.0, 30.0)]);
        let b = merge(vec![(8.0, 22.0), (25.0, 26.0)]);
        assert_eq!(overlap(&a, &b), 4.0 + 2.0 + 1.0);
        assert_eq!(overlap(&a, &[]), 0.0);
    }
}
