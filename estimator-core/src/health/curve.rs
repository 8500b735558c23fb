//! A run against the model at each size: the check at one size, and where along the curve the run departs.

use super::{HEALTHY, SizeCheck};
use crate::collective::{Op, collective};
use crate::human;
use crate::scenario::{Algorithm, Scenario};
use crate::units::Bytes;

/// The check at one size. On several nodes with NCCL's default choice an all-reduce may run as NCCL's cost model
/// picks or, where NVLS or the release differs, as a ring: a measurement between the two is as expected, and the
/// ratio is taken to the nearer one.
pub(super) fn check(s: &Scenario, op: Op, size: f64, measured: f64) -> SizeCheck {
    let bytes = Bytes::new(size);
    let e = collective(s, op, bytes);
    let ring = (op == Op::AllReduce && s.nodes() > 1 && s.input().algorithm == Algorithm::Auto)
        .then(|| s.with(|i| i.algorithm = Algorithm::Ring).ok())
        .flatten()
        .map(|r| collective(&r, op, bytes).busbw_gbs);
    let tree = (op == Op::AllReduce).then(|| crate::collective::tree_2node_busbw(s, bytes)).flatten();
    let low = ring.map_or(e.busbw_gbs, |r| r.min(e.busbw_gbs));
    let high = ring.map_or(e.busbw_gbs, |r| r.max(e.busbw_gbs));
    let ratio = if measured < low {
        if low > 0.0 { measured / low } else { 1.0 }
    } else if measured > high {
        if high > 0.0 { measured / high } else { 1.0 }
    } else {
        1.0
    };
    SizeCheck {
        size_bytes: size,
        measured_busbw_gbs: measured,
        expected_busbw_gbs: e.busbw_gbs,
        expected_tree_busbw_gbs: tree,
        expected_ring_busbw_gbs: ring,
        expected_time_us: e.time_us,
        algorithm: e.algorithm.to_string(),
        protocol: e.protocol.to_string(),
        latency_bound: e.latency_bound,
        ratio,
    }
}

/// A run whose largest size is expected below this share of the fabric's bandwidth-bound bus bandwidth has not
/// measured that bandwidth.
const BANDWIDTH_BOUND_SHARE: f64 = 0.8;

/// Where along the curve a run departs from the model, in one sentence with what to look at; `None` without rows.
/// `ceiling` is the model's bus bandwidth at a bandwidth-bound size: a run that stops short of it is said to have
/// measured no such size.
pub(super) fn departure(curve: &[SizeCheck], ceiling: f64) -> Option<String> {
    let first = curve.first()?;
    let last = curve.last()?;
    let range = format!("{} to {}", size(first.size_bytes), size(last.size_bytes));
    let bad: Vec<&SizeCheck> = curve.iter().filter(|c| c.ratio < HEALTHY).collect();
    let short = (last.expected_busbw_gbs < BANDWIDTH_BOUND_SHARE * ceiling).then(|| {
        format!(
            " No bandwidth-bound size was measured: at {} the model expects {} GB/s of the {} GB/s the fabric gives at \
             large sizes; run to 8G (-e 8G) to judge the fabric's bandwidth.",
            size(last.size_bytes),
            human::num(last.expected_busbw_gbs, 1),
            human::num(ceiling, 1)
        )
    });
    let short = short.unwrap_or_default();
    if bad.is_empty() {
        return Some(format!("As expected at every size measured ({range}).{short}"));
    }
    if bad.len() == curve.len() {
        let worst = worst(&bad)?;
        return Some(format!(
            "Below the model at every size measured ({range}): down to {} of the expected bus bandwidth at {}.",
            human::pct(worst.ratio),
            size(worst.size_bytes)
        ));
    }
    let worst = worst(&bad)?;
    let slower = format!("{}x slower than expected", human::num(1.0 / worst.ratio.max(1e-9), 2));
    let first_bad = curve.iter().position(|c| c.ratio < HEALTHY)?;
    let last_bad = curve.iter().rposition(|c| c.ratio < HEALTHY)?;
    // Bad below some size, as expected above it: the small, latency-bound sizes.
    if first_bad == 0 && curve[..=last_bad].iter().all(|c| c.ratio < HEALTHY) {
        let good = curve.get(last_bad + 1)?;
        // Where the model says latency is most of the time, the latency is what to look at; above that, the
        // protocols and channels NCCL uses for mid sizes.
        let what = if worst.latency_bound {
            "latency-bound sizes. Look at the network's latency (ib_send_lat between two nodes), CPU power saving \
             on the hosts, NCCL_PROTO or NCCL_ALGO set in the environment, and the launcher's GPU and NUMA binding."
        } else {
            "small and mid sizes. Look at NCCL_PROTO, NCCL_ALGO, NCCL_MIN_NCHANNELS or NCCL_BUFFSIZE set in the \
             environment, the network's latency (ib_send_lat), and CPU power saving on the hosts."
        };
        return Some(format!(
            "As expected from {} up; {slower} at {} (sizes up to {}): {what}",
            size(good.size_bytes),
            size(worst.size_bytes),
            size(curve[last_bad].size_bytes)
        ));
    }
    // As expected below some size, bad above it: the bandwidth-bound sizes.
    if last_bad == curve.len() - 1 && curve[first_bad..].iter().all(|c| c.ratio < HEALTHY) {
        let good = curve.get(first_bad.checked_sub(1)?)?;
        return Some(format!(
            "As expected up to {}; {slower} at {}: bandwidth-bound sizes. Look at the adapters in use, GPUDirect \
             RDMA and each port's rate (probe-cli report), and the causes below.",
            size(good.size_bytes),
            size(worst.size_bytes)
        ));
    }
    let sizes: Vec<String> = bad.iter().map(|b| size(b.size_bytes)).collect();
    Some(format!("Departs from the model at {}: {slower} at {}.", sizes.join(", "), size(worst.size_bytes)))
}

fn worst<'a>(bad: &[&'a SizeCheck]) -> Option<&'a SizeCheck> {
    bad.iter().copied().min_by(|a, b| a.ratio.total_cmp(&b.ratio))
}

fn size(bytes: f64) -> String {
    human::binary(Bytes::new(bytes))
}
