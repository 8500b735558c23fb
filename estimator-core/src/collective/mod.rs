//! Collectives at every message size, as NCCL runs them: all-reduce, all-gather, reduce-scatter, broadcast and
//! all-to-all, with nccl-tests' definitions of size and bus bandwidth.
//!
//! - `bandwidth.rs`: what limits the links (the adapters at the fabric's efficiency, host staging without
//!   GPUDirect RDMA, the GPUs' PCIe, TCP sockets, the intra-node link): the large-message ceiling.
//! - `comm.rs`: the communicator NCCL's topology search would find on those links (channels and their bandwidth).
//! - `nccl.rs`: NCCL's own tuning model (v2.30.7 `tuning.cc`), every (algorithm, protocol) pair's bandwidth and
//!   latency, with NCCL's own size corrections.
//! - `ramp.rs`: the mid-size correction NCCL's model lacks, from public measurements (a sourced term, not a fit
//!   to this project's points).
//! - `alltoall.rs`: all-to-all, point-to-point in NCCL, outside its tuning model.
//!
//! NCCL's choice is the cheapest pair (`enqueue.cc` `topoGetAlgoInfo`), as here; `NCCL_ALGO=Ring`
//! ([`Algorithm::Ring`]) keeps the Ring pairs only. On two nodes NCCL's Tree/NVLSTree moves S rather than
//! 2(N-1)/N x S through each node's NICs, so nccl-tests reports a busbw above the NIC aggregate (469 GB/s on
//! 8x400G, nccl-tests#309): the model now shows that as NCCL picks it.

mod alltoall;
mod bandwidth;
mod comm;
pub mod nccl;
mod ramp;

use serde::Serialize;

pub use bandwidth::{Bottleneck, BusBandwidth, bus_bandwidth, efficiency};
pub use comm::comm;
pub use nccl::{Algo, Proto};

use crate::scenario::{self, Algorithm, Field, Scenario, ScenarioError};
use crate::units::{Bytes, Seconds};
use nccl::Coll;

/// Participants in the collective.
pub fn participants(s: &Scenario) -> u32 {
    s.participants()
}

/// The ring factor 2(N-1)/N (0 for one participant), or the override.
pub fn ring_factor(s: &Scenario) -> f64 {
    s.input().ring_factor.unwrap_or_else(|| nccl_busbw_factor(s.participants()))
}

/// nccl-tests' all-reduce bus-bandwidth factor 2(n-1)/n.
pub fn nccl_busbw_factor(ranks: u32) -> f64 {
    Op::AllReduce.busbw_factor(ranks)
}

pub use crate::op::Op;

impl Op {
    fn coll(self) -> Option<Coll> {
        match self {
            Op::AllReduce => Some(Coll::AllReduce),
            Op::AllGather => Some(Coll::AllGather),
            Op::ReduceScatter => Some(Coll::ReduceScatter),
            Op::Broadcast => Some(Coll::Broadcast),
            Op::AllToAll => None,
        }
    }
}

/// How one call runs and what it costs: the pair NCCL picks and the time split into latency and transfer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// NCCL's algorithm (`Ring`, `Tree`, `NVLS`, `NVLSTree`, `PAT`), `P2P` for all-to-all, `none` for one rank.
    pub algorithm: &'static str,
    /// NCCL's protocol (`LL`, `LL128`, `Simple`), `none` for one rank.
    pub protocol: &'static str,
    /// Channels the call runs on.
    pub channels: u32,
    /// The latency part, µs.
    pub latency_us: f64,
    /// The transfer part, µs.
    pub transfer_us: f64,
}

impl Timing {
    const NONE: Timing = Timing { algorithm: "none", protocol: "none", channels: 0, latency_us: 0.0, transfer_us: 0.0 };

    /// Latency plus transfer, µs.
    pub fn time_us(&self) -> f64 {
        self.latency_us + self.transfer_us
    }
}

/// The size far beyond any bucket at which a collective's bus bandwidth has reached its ceiling: 1 TiB.
const PEAK_BYTES: f64 = 1_099_511_627_776.0;

/// How one call of `op` on `bytes` (nccl-tests' size) runs on the scenario's hardware.
pub fn timing(s: &Scenario, op: Op, bytes: Bytes) -> Timing {
    let c = comm(s);
    let scale = measured_scale(s, &c);
    timing_on(s, &c, op, bytes.get(), scale)
}

/// The share of the model's bandwidth that a measured all-reduce bus bandwidth says the hardware gives: the
/// measurement over the model's own large-message all-reduce bus bandwidth on the same hardware. 1 without one.
pub fn measured_share(s: &Scenario) -> f64 {
    measured_scale(s, &comm(s))
}

/// The factor a measured all-reduce bus bandwidth puts on every modelled bandwidth: measured over the model's
/// own large-message all-reduce busbw on the same hardware. 1 without a measurement.
fn measured_scale(s: &Scenario, c: &nccl::Comm) -> f64 {
    let Some(measured) = s.input().measured_busbw_gbs else { return 1.0 };
    if s.participants() <= 1 {
        return 1.0;
    }
    let peak = peak_on(s, c);
    if peak > 0.0 && peak.is_finite() { measured / peak } else { 1.0 }
}

/// The model's own all-reduce bus bandwidth at large sizes with NCCL's choice of algorithm, GB/s, whatever a
/// measurement says: what a measurement is set against, and what nccl-tests should print at its largest sizes.
pub fn model_peak_busbw_gbs(s: &Scenario) -> f64 {
    if s.participants() <= 1 {
        return bus_bandwidth(s).busbw.get();
    }
    peak_on(s, &comm(s))
}

fn peak_on(s: &Scenario, c: &nccl::Comm) -> f64 {
    let t = timing_on(s, c, Op::AllReduce, PEAK_BYTES, 1.0);
    Op::AllReduce.busbw_factor(s.participants()) * PEAK_BYTES / (1000.0 * t.transfer_us.max(f64::MIN_POSITIVE))
}

/// One (algorithm, protocol) pair on `bytes`: `None` when NCCL would not run it. The bandwidth is NCCL's with a
/// measurement's scale and the mid-size ramp; the latency NCCL's with the ring's sync, or the user's override.
fn pair_time(s: &Scenario, c: &nccl::Comm, coll: Coll, a: Algo, p: Proto, bytes: f64, scale: f64) -> Option<Timing> {
    let bw = nccl::bandwidth(c, coll, a, p)? * scale * ramp::factor(c, coll, a, p, bytes);
    let (lat, transfer) = nccl::time_parts(c, coll, a, p, bytes, bw, ramp::ring_sync_us(c, a));
    Some(Timing {
        algorithm: a.name(),
        protocol: p.name(),
        channels: nccl::run_channels(c, a, p, bytes),
        latency_us: s.latency_override().map_or(lat, Seconds::as_micros),
        transfer_us: transfer,
    })
}

/// The fastest of `algos`' pairs: NCCL's choice among them (the first in NCCL's order on a tie).
fn fastest(s: &Scenario, c: &nccl::Comm, coll: Coll, algos: &[Algo], bytes: f64, scale: f64) -> Option<Timing> {
    let mut best: Option<Timing> = None;
    for &a in algos {
        for p in Proto::ALL {
            if let Some(t) = pair_time(s, c, coll, a, p, bytes, scale)
                && best.is_none_or(|b| t.time_us() < b.time_us())
            {
                best = Some(t);
            }
        }
    }
    best
}

fn timing_on(s: &Scenario, c: &nccl::Comm, op: Op, bytes: f64, scale: f64) -> Timing {
    if s.participants() <= 1 {
        return Timing::NONE;
    }
    let mut t = model_timing_on(s, c, op, bytes, scale);
    if let Some(k) = s.correction() {
        let f = k.time_factor(s, op, bytes);
        t.latency_us *= f;
        t.transfer_us *= f;
    }
    t
}

fn model_timing_on(s: &Scenario, c: &nccl::Comm, op: Op, bytes: f64, scale: f64) -> Timing {
    match op.coll() {
        None => {
            let mut t = alltoall::timing(s, c, bytes, scale);
            if let Some(l) = s.latency_override() {
                t.latency_us = l.as_micros();
            }
            t
        }
        Some(coll) => {
            let algos: &[Algo] = if s.input().algorithm == Algorithm::Ring { &[Algo::Ring] } else { &Algo::ALL };
            // Ring/Simple is always eligible, so there is a choice; the fallback keeps the function total.
            fastest(s, c, coll, algos, bytes, scale).unwrap_or(Timing::NONE)
        }
    }
}

/// Validates the size of one collective message: 1 byte to 1 PB.
pub fn message_bytes(bytes: f64) -> Result<Bytes, ScenarioError> {
    scenario::range(Field::Bytes, bytes, 1.0, scenario::limits::MAX_MESSAGE_BYTES, " bytes").map(Bytes::new)
}

/// What nccl-tests' `<op>_perf` would print for one size on this hardware, and how NCCL runs it. Keys are the
/// JSON contract of `probe-cli estimate collective --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CollectiveEstimate {
    /// The operation.
    pub op: Op,
    /// nccl-tests' size column, bytes.
    pub bytes: Bytes,
    /// Ranks (GPUs).
    pub ranks: u32,
    /// Time of one call, microseconds.
    pub time_us: f64,
    /// Algorithm bandwidth, size / time, GB/s.
    pub algbw_gbs: f64,
    /// Bus bandwidth, algbw x the operation's factor, GB/s.
    pub busbw_gbs: f64,
    /// NCCL's algorithm for this size (`P2P` for all-to-all).
    pub algorithm: &'static str,
    /// NCCL's protocol for this size.
    pub protocol: &'static str,
    /// Channels it runs on.
    pub channels: u32,
    /// What limits the bandwidth at large sizes.
    pub bottleneck: Bottleneck,
    /// The latency part of the time, microseconds.
    pub latency_us: f64,
    /// The latency is most of the time: a larger message would cost little more.
    pub latency_bound: bool,
    /// The large-message limit of busbw for this operation, GB/s.
    pub peak_busbw_gbs: f64,
}

/// The expected nccl-tests result of `op` on `bytes` on the scenario's hardware.
pub fn collective(s: &Scenario, op: Op, bytes: Bytes) -> CollectiveEstimate {
    let c = comm(s);
    let scale = measured_scale(s, &c);
    estimate_on(s, &c, scale, op, bytes)
}

fn estimate_on(s: &Scenario, c: &nccl::Comm, scale: f64, op: Op, bytes: Bytes) -> CollectiveEstimate {
    let t = timing_on(s, c, op, bytes.get(), scale);
    let ranks = s.participants();
    let factor = op.busbw_factor(ranks);
    let time = t.time_us();
    let algbw = if time > 0.0 { bytes.get() / (1000.0 * time) } else { 0.0 };
    let peak = timing_on(s, c, op, PEAK_BYTES, scale);
    let peak_busbw = if peak.transfer_us > 0.0 { factor * PEAK_BYTES / (1000.0 * peak.transfer_us) } else { 0.0 };
    CollectiveEstimate {
        op,
        bytes,
        ranks,
        time_us: time,
        algbw_gbs: algbw,
        busbw_gbs: algbw * factor,
        algorithm: t.algorithm,
        protocol: t.protocol,
        channels: t.channels,
        bottleneck: if ranks > 1 { bus_bandwidth(s).bottleneck } else { Bottleneck::None },
        latency_us: t.latency_us,
        latency_bound: t.latency_us > t.transfer_us,
        peak_busbw_gbs: peak_busbw,
    }
}

/// The most sizes one [`sweep`] returns.
pub const MAX_SWEEP: usize = 256;

/// nccl-tests' sizes (`-b from -e to -f factor`): every size from `from` by `factor` up to `to`, at most
/// [`MAX_SWEEP`] (a factor of 1 or less is taken as 2).
pub fn sweep_sizes(from: Bytes, to: Bytes, factor: f64) -> Vec<Bytes> {
    let factor = if factor.is_finite() && factor > 1.0 { factor } else { 2.0 };
    let mut out = Vec::new();
    let mut b = from.get().max(1.0);
    while b <= to.get() * (1.0 + 1e-12) && out.len() < MAX_SWEEP {
        out.push(Bytes::new(b.round()));
        b *= factor;
    }
    out
}

/// nccl-tests' size sweep: [`collective`] at each of [`sweep_sizes`].
pub fn sweep(s: &Scenario, op: Op, from: Bytes, to: Bytes, factor: f64) -> Vec<CollectiveEstimate> {
    let c = comm(s);
    let scale = measured_scale(s, &c);
    sweep_sizes(from, to, factor).into_iter().map(|b| estimate_on(s, &c, scale, op, b)).collect()
}

/// What nccl-tests' `all_reduce_perf` would print for one size on this hardware. Keys are the JSON contract of
/// `probe-cli estimate allreduce --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllReduceEstimate {
    /// Message size in bytes.
    pub size_bytes: Bytes,
    /// Ranks (GPUs).
    pub ranks: u32,
    /// Time of one all-reduce, microseconds.
    pub time_us: f64,
    /// Algorithm bandwidth, size / time, GB/s.
    pub algbw_gbs: f64,
    /// Bus bandwidth, algbw x 2(n-1)/n, GB/s.
    pub busbw_gbs: f64,
    /// The large-message limit of busbw, GB/s.
    pub peak_busbw_gbs: f64,
    /// What limits it.
    pub bottleneck: Bottleneck,
    /// The latency part of the time, microseconds.
    pub latency_us: f64,
    /// On exactly two nodes with NCCL's default choice: the busbw of the best Tree/NVLSTree pair at this size,
    /// GB/s, which can exceed the NIC aggregate (see the module docs).
    pub tree_2node_busbw_gbs: Option<f64>,
    /// NCCL's algorithm for this size.
    pub algorithm: &'static str,
    /// NCCL's protocol for this size.
    pub protocol: &'static str,
    /// Channels it runs on.
    pub channels: u32,
}

/// On exactly two nodes with NCCL's default choice: the busbw of the best Tree/NVLSTree all-reduce pair at `bytes`,
/// GB/s, which can exceed the NIC aggregate (see the module docs). `None` elsewhere.
pub fn tree_2node_busbw(s: &Scenario, bytes: Bytes) -> Option<f64> {
    let c = comm(s);
    tree_on(s, &c, measured_scale(s, &c), bytes)
}

fn tree_on(s: &Scenario, c: &nccl::Comm, scale: f64, bytes: Bytes) -> Option<f64> {
    (s.domains() == 2 && s.input().algorithm == Algorithm::Auto).then(|| {
        let tree = fastest(s, c, Coll::AllReduce, &[Algo::Tree, Algo::NvlsTree], bytes.get(), scale);
        let t = tree.map_or(0.0, |t| t.time_us());
        let factor = Op::AllReduce.busbw_factor(s.participants());
        if t > 0.0 { bytes.get() / (1000.0 * t) * factor } else { 0.0 }
    })
}

/// The expected nccl-tests result for `bytes` on the scenario's hardware: [`collective`] for `all_reduce`.
pub fn allreduce(s: &Scenario, bytes: Bytes) -> AllReduceEstimate {
    let c = comm(s);
    let scale = measured_scale(s, &c);
    let e = estimate_on(s, &c, scale, Op::AllReduce, bytes);
    let tree_2node_busbw_gbs = tree_on(s, &c, scale, bytes);
    AllReduceEstimate {
        size_bytes: e.bytes,
        ranks: e.ranks,
        time_us: e.time_us,
        algbw_gbs: e.algbw_gbs,
        busbw_gbs: e.busbw_gbs,
        peak_busbw_gbs: e.peak_busbw_gbs,
        bottleneck: e.bottleneck,
        latency_us: e.latency_us,
        tree_2node_busbw_gbs,
        algorithm: e.algorithm,
        protocol: e.protocol,
        channels: e.channels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::{Fabric, TCP_SOCKET_CAP_GBYTE_PER_S};
    use crate::scenario::ScenarioInput;

    fn scenario(change: impl FnOnce(&mut ScenarioInput)) -> Scenario {
        let mut i = ScenarioInput::default();
        change(&mut i);
        Scenario::new(i).expect("valid")
    }

    #[test]
    fn eight_400g_infiniband_adapters_give_384_gb_s() {
        let s = scenario(|_| {});
        let b = bus_bandwidth(&s);
        assert_eq!(b.bottleneck, Bottleneck::Network);
        assert!((b.busbw.get() - 8.0 * 50.0 * 0.96).abs() < 1e-9);
    }

    #[test]
    fn one_node_uses_the_intra_node_link() {
        let s = scenario(|i| i.nodes = 1);
        let b = bus_bandwidth(&s);
        assert_eq!(b.bottleneck, Bottleneck::IntraNode);
        assert_eq!(b.busbw.get(), 470.0);
    }

    #[test]
    fn forcing_ring_on_one_h100_node_drops_nvls() {
        let s = scenario(|i| {
            i.nodes = 1;
            i.algorithm = Algorithm::Ring;
        });
        assert_eq!(bus_bandwidth(&s).busbw.get(), 369.0);
        let two = scenario(|i| i.algorithm = Algorithm::Ring);
        assert_eq!(allreduce(&two, Bytes::gib(8.0)).tree_2node_busbw_gbs, None);
    }

    #[test]
    fn tcp_is_capped_by_sockets_whatever_the_link() {
        let s = scenario(|i| {
            i.fabric = Fabric::Tcp;
            i.link_gbps = 400.0;
        });
        let b = bus_bandwidth(&s);
        assert_eq!(b.bottleneck, Bottleneck::Sockets);
        assert_eq!(b.busbw.get(), TCP_SOCKET_CAP_GBYTE_PER_S);
    }

    #[test]
    fn no_gdr_halves_a_400g_adapter_on_pcie_gen5() {
        let s = scenario(|i| i.gdr = false);
        let b = bus_bandwidth(&s);
        assert_eq!(b.bottleneck, Bottleneck::HostStaging);
        assert!((b.busbw.get() - 8.0 * 24.0).abs() < 1e-9);
    }

    #[test]
    fn large_messages_approach_the_bus_bandwidth() {
        // Three nodes run the Ring (NVLSTree's per-channel cap is lower there): its busbw nears the NIC ceiling.
        let s = scenario(|i| i.nodes = 3);
        let r = allreduce(&s, Bytes::gib(8.0));
        assert_eq!(r.algorithm, "Ring");
        assert!((r.busbw_gbs - r.peak_busbw_gbs).abs() / r.peak_busbw_gbs < 0.01);
        assert!((r.peak_busbw_gbs - bus_bandwidth(&s).busbw.get()).abs() < 1e-6);
        // On two nodes NCCL's NVLSTree reads above the NICs' ceiling (469 GB/s measured, nccl-tests#309).
        let two = allreduce(&scenario(|_| {}), Bytes::gib(8.0));
        assert_eq!(two.algorithm, "NVLSTree");
        assert!(two.busbw_gbs > bus_bandwidth(&scenario(|_| {})).busbw.get());
        assert_eq!(two.tree_2node_busbw_gbs, Some(two.busbw_gbs));
        let small = allreduce(&scenario(|_| {}), Bytes::new(8.0));
        assert_eq!((small.algorithm, small.protocol), ("Tree", "LL"));
        assert!(small.time_us >= 20.0 && small.busbw_gbs < 1.0);
    }

    #[test]
    fn message_sizes_are_validated() {
        assert!(message_bytes(8.0).is_ok());
        for bad in [0.0, -1.0, f64::NAN, 1e20] {
            assert_eq!(message_bytes(bad).expect_err("rejected").field, Field::Bytes);
        }
    }

    #[test]
    fn a_single_gpu_has_nothing_to_reduce() {
        let s = scenario(|i| {
            i.nodes = 1;
            i.gpus_per_node = 1;
        });
        let r = allreduce(&s, Bytes::gib(1.0));
        assert_eq!(r.time_us, 0.0);
        assert_eq!(r.busbw_gbs, 0.0);
        assert_eq!(r.bottleneck, Bottleneck::None);
    }
}

#[cfg(test)]
mod measured_tests {
    use super::*;
    use crate::ScenarioInput;

    #[test]
    fn a_measured_bus_bandwidth_replaces_the_model_on_its_own_hardware_only() {
        let s = Scenario::new(ScenarioInput { measured_busbw_gbs: Some(155.6), ..ScenarioInput::default() })
            .expect("valid");
        let b = bus_bandwidth(&s);
        assert_eq!((b.busbw.get(), b.bottleneck), (155.6, Bottleneck::Measured));
        // Another model on the same hardware keeps it; other hardware or another node count drops it.
        let bigger = s.with(|i| i.params = 70e9).expect("valid");
        assert_eq!(bus_bandwidth(&bigger).bottleneck, Bottleneck::Measured);
        for changed in [s.with(|i| i.nodes = 4), s.with(|i| i.link_gbps = 200.0), s.with(|i| i.adapters_per_node = 4)] {
            assert_ne!(bus_bandwidth(&changed.expect("valid")).bottleneck, Bottleneck::Measured);
        }
        let one =
            Scenario::new(ScenarioInput { nodes: 1, measured_busbw_gbs: Some(400.0), ..ScenarioInput::default() })
                .expect("valid");
        assert_eq!(bus_bandwidth(&one).busbw.get(), 400.0);
        let bad = Scenario::new(ScenarioInput { measured_busbw_gbs: Some(-1.0), ..ScenarioInput::default() });
        assert_eq!(bad.expect_err("rejected").field, crate::Field::MeasuredBusbwGbs);
    }
}
