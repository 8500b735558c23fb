//! The all-reduce model: which link is the bottleneck, its bus bandwidth, the latency, and the time for S bytes.
//!
//! `t(S) = alpha + ring_factor x S / busbw`, with nccl-tests' definitions (`algbw = S / t`,
//! `busbw = algbw x 2(N-1)/N`). The bus bandwidth is the bottleneck of the Ring algorithm:
//! - on one node, the GPU's intra-node all-reduce bus bandwidth (NVLink/NVSwitch, xGMI or PCIe);
//! - across nodes, `min(intra-node ring x g/(g-1), adapters x line rate x efficiency)`: the ring's busbw ceiling is
//!   the node's adapters, whatever the node count (nccl-tests#309, #119; flat 350 GB/s from 2 to 8 MI325X nodes).
//!   Inside a node one GPU in g hands its ring traffic to a NIC instead of NVLink, so each GPU's intra-node link
//!   carries (g-1)/g of the traffic of a single-node ring.
//!
//! **Two-node runs.** On exactly two nodes NCCL picks Tree or NVLSTree by default, which moves S rather than
//! 2(N-1)/N x S through each node's NICs, so nccl-tests reports a busbw above the NIC aggregate (469 GB/s on
//! 8x400G, nccl-tests#309). The model keeps the Ring figure for the step estimate: it is what holds from three
//! nodes on, what NCCL_ALGO=Ring measures on two, and the conservative answer for a user planning to scale out.
//! The two-node Tree/NVLSTree reading is reported beside it as [`AllReduceEstimate::tree_2node_busbw_gbs`]:
//! `min(intra-node best algorithm, network x 2(N-1)/N)`.

use serde::Serialize;

use crate::fabric::{self, Fabric, TCP_SOCKET_CAP_GBYTE_PER_S};
use crate::scenario::{self, Algorithm, Field, Scenario, ScenarioError};
use crate::units::{Bytes, GbytePerSec, Seconds};

/// What limits the bus bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bottleneck {
    /// One GPU alone: nothing to synchronise.
    None,
    /// The intra-node link (NVLink, xGMI, PCIe).
    IntraNode,
    /// The adapters' line rate times the fabric's efficiency.
    Network,
    /// Without GPUDirect RDMA: the PCIe path through host memory.
    HostStaging,
    /// The GPUs' PCIe links feeding more adapters than they can.
    GpuPcie,
    /// TCP sockets, whatever the link speed.
    Sockets,
    /// Not modelled: the bus bandwidth measured with nccl-tests (`measured_busbw_gbs`).
    Measured,
}

impl Bottleneck {
    /// Plain words.
    pub fn describe(self) -> &'static str {
        match self {
            Bottleneck::None => "a single GPU has nothing to synchronise",
            Bottleneck::IntraNode => "the intra-node link between GPUs",
            Bottleneck::Network => "the network adapters",
            Bottleneck::HostStaging => "staging through host memory (no GPUDirect RDMA)",
            Bottleneck::GpuPcie => "the GPUs' PCIe links to the adapters",
            Bottleneck::Sockets => "TCP sockets (NCCL's socket transport)",
            Bottleneck::Measured => "the bus bandwidth measured with nccl-tests",
        }
    }
}

/// The bus bandwidth of the Ring all-reduce for a scenario, and its parts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BusBandwidth {
    /// The effective bus bandwidth.
    pub busbw: GbytePerSec,
    /// What limits it.
    pub bottleneck: Bottleneck,
    /// The network's share (adapters x per-adapter bandwidth, after caps), if the job spans nodes.
    pub network: Option<GbytePerSec>,
    /// The intra-node limit that applies.
    pub intra_node: GbytePerSec,
    /// Per-adapter share of line rate used.
    pub efficiency: f64,
}

/// Raw PCIe x16 bandwidth per direction (PCI-SIG: 8, 16, 32, 64 GT/s per lane, 128b/130b), GB/s.
fn pcie_x16_raw_gbyte_per_s(generation: u8) -> f64 {
    match generation {
        0..=3 => 15.75,
        4 => 31.5,
        5 => 63.0,
        _ => 126.0,
    }
}

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
    if ranks <= 1 {
        0.0
    } else {
        let n = f64::from(ranks);
        2.0 * (n - 1.0) / n
    }
}

/// The per-adapter share of line rate: the override, else the fabric prior.
pub fn efficiency(s: &Scenario) -> f64 {
    s.input().link_efficiency.unwrap_or(s.input().fabric.efficiency())
}

/// The bottleneck bus bandwidth of the Ring all-reduce.
pub fn bus_bandwidth(s: &Scenario) -> BusBandwidth {
    let intra = s.intra_node();
    let eff = efficiency(s);
    if s.participants() <= 1 {
        return BusBandwidth {
            busbw: intra.allreduce,
            bottleneck: Bottleneck::None,
            network: None,
            intra_node: intra.allreduce,
            efficiency: eff,
        };
    }
    if s.nodes() == 1 {
        let modelled = match s.input().algorithm {
            Algorithm::Auto => intra.allreduce,
            Algorithm::Ring => intra.ring,
        };
        let (busbw, bottleneck) = match s.input().measured_busbw_gbs {
            Some(m) => (GbytePerSec::new(m), Bottleneck::Measured),
            None => (modelled, Bottleneck::IntraNode),
        };
        return BusBandwidth { busbw, bottleneck, network: None, intra_node: modelled, efficiency: eff };
    }
    let (network, net_limit) = network_bandwidth(s, eff);
    let g = f64::from(s.gpus_per_node());
    let intra_cap =
        if s.gpus_per_node() > 1 { intra.ring.scale(g / (g - 1.0)) } else { GbytePerSec::new(f64::INFINITY) };
    let (busbw, bottleneck) = match s.input().measured_busbw_gbs {
        Some(m) => (GbytePerSec::new(m), Bottleneck::Measured),
        None if intra_cap < network => (intra_cap, Bottleneck::IntraNode),
        None => (network, net_limit),
    };
    BusBandwidth {
        busbw,
        bottleneck,
        network: Some(network),
        // Never report an infinity: with one GPU per node the network is the only limit.
        intra_node: if intra_cap.get().is_finite() { intra_cap } else { network },
        efficiency: eff,
    }
}

/// The node's network bandwidth for the ring and what caps it.
fn network_bandwidth(s: &Scenario, eff: f64) -> (GbytePerSec, Bottleneck) {
    let fabric = s.input().fabric;
    let adapters = f64::from(s.adapters_per_node());
    let mut per_adapter = s.link().to_gbyte_per_s().scale(eff);
    let mut limit = Bottleneck::Network;
    if fabric.is_rdma() && !s.input().gdr {
        let cap = fabric::no_gdr_adapter_cap(s.gpu().pcie_gen);
        if cap < per_adapter {
            per_adapter = cap;
            limit = Bottleneck::HostStaging;
        }
    }
    let mut node = per_adapter.scale(adapters);
    let pcie = GbytePerSec::new(pcie_x16_raw_gbyte_per_s(s.gpu().pcie_gen) * f64::from(s.gpus_per_node()));
    if fabric.is_rdma() && pcie < node {
        node = pcie;
        limit = Bottleneck::GpuPcie;
    }
    if fabric == Fabric::Tcp {
        let cap = GbytePerSec::new(TCP_SOCKET_CAP_GBYTE_PER_S);
        if cap < node {
            node = cap;
            limit = Bottleneck::Sockets;
        }
    }
    (node, limit)
}

/// The latency of one all-reduce: the override, else the intra-node floor on one node, else the fabric's floor
/// growing with log2(nodes) as NCCL's tree latency does (`src/graph/tuning.cc`: `2*log2(nNodes)*interLat`).
pub fn latency(s: &Scenario) -> Seconds {
    if let Some(l) = s.latency_override() {
        return l;
    }
    if s.participants() <= 1 {
        return Seconds::ZERO;
    }
    if s.nodes() == 1 {
        return fabric::intra_node_latency(s.intra_node().link);
    }
    let floor = Seconds::from_micros(s.input().fabric.latency_us());
    floor.scale(f64::from(s.nodes()).log2().max(1.0))
}

/// The time of one all-reduce of `bytes` with the model's bus bandwidth.
pub fn allreduce_time(s: &Scenario, bus: &BusBandwidth, bytes: Bytes) -> Seconds {
    if s.participants() <= 1 {
        return Seconds::ZERO;
    }
    latency(s) + bus.busbw.transfer_time(bytes.scale(ring_factor(s)))
}

/// Validates the size of one all-reduce message: 1 byte to 1 PB.
pub fn message_bytes(bytes: f64) -> Result<Bytes, ScenarioError> {
    scenario::range(Field::Bytes, bytes, 1.0, scenario::limits::MAX_MESSAGE_BYTES, " bytes").map(Bytes::new)
}

/// What nccl-tests' `all_reduce_perf` would print for one size on this hardware.
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
    /// The large-message limit of busbw (the bottleneck), GB/s.
    pub peak_busbw_gbs: f64,
    /// What limits it.
    pub bottleneck: Bottleneck,
    /// Latency used, microseconds.
    pub latency_us: f64,
    /// On exactly two nodes: the busbw NCCL's default Tree/NVLSTree may report instead, GB/s (see module docs).
    pub tree_2node_busbw_gbs: Option<f64>,
}

/// The expected nccl-tests result for `bytes` on the scenario's hardware.
pub fn allreduce(s: &Scenario, bytes: Bytes) -> AllReduceEstimate {
    let bus = bus_bandwidth(s);
    let t = allreduce_time(s, &bus, bytes);
    let ranks = s.participants();
    let factor = nccl_busbw_factor(ranks);
    let algbw = if t.as_secs() > 0.0 { bytes.as_gb() / t.as_secs() } else { 0.0 };
    let tree_2node_busbw_gbs = (s.nodes() == 2 && s.input().algorithm == Algorithm::Auto).then(|| {
        // Tree/NVLSTree move S, not 2(N-1)/N x S, through each node's NICs; inside the node the best single-node
        // algorithm (NVLS) or the ring's share of the links applies, whichever is larger.
        let net = bus.network.unwrap_or(bus.busbw).scale(factor);
        let intra = if s.gpus_per_node() > 1 { s.intra_node().allreduce.max(bus.intra_node) } else { net };
        let peak = intra.min(net).max(bus.busbw);
        let tree_t = latency(s) + peak.transfer_time(bytes.scale(factor));
        if tree_t.as_secs() > 0.0 { bytes.as_gb() / tree_t.as_secs() * factor } else { 0.0 }
    });
    AllReduceEstimate {
        size_bytes: bytes,
        ranks,
        time_us: t.as_micros(),
        algbw_gbs: algbw,
        busbw_gbs: algbw * factor,
        peak_busbw_gbs: if ranks > 1 { bus.busbw.get() } else { 0.0 },
        bottleneck: bus.bottleneck,
        latency_us: latency(s).as_micros(),
        tree_2node_busbw_gbs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let s = scenario(|_| {});
        let r = allreduce(&s, Bytes::gib(8.0));
        assert!((r.busbw_gbs - r.peak_busbw_gbs).abs() / r.peak_busbw_gbs < 0.01);
        assert!(r.tree_2node_busbw_gbs.expect("two nodes") > r.busbw_gbs);
        let small = allreduce(&s, Bytes::new(8.0));
        assert!(small.time_us >= 25.0 && small.busbw_gbs < 1.0);
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
