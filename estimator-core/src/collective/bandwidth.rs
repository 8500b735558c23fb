//! What limits the bus bandwidth of a scenario's links: the intra-node link, the adapters at the fabric's
//! efficiency, host staging without GPUDirect RDMA, the GPUs' PCIe links, or TCP sockets. This is the
//! large-message ceiling of a Ring all-reduce (nccl-tests#309, #119: flat 350 GB/s from 2 to 8 MI325X nodes), and
//! what the NCCL graph of `comm.rs` divides into channels.

use serde::Serialize;

use crate::fabric::{self, Fabric, TCP_SOCKET_CAP_GBYTE_PER_S};
use crate::scenario::{Algorithm, Scenario};
use crate::units::GbytePerSec;

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
    if s.domains() == 1 {
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
    let intra_cap = intra_node_cap(s).unwrap_or(GbytePerSec::new(f64::INFINITY));
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

/// The intra-node ceiling of a multi-node ring: one GPU in g hands its ring traffic to a NIC instead of NVLink,
/// so each GPU's intra-node link carries (g-1)/g of the traffic of a single-node ring. `None` with one GPU per
/// node, where the network is the only limit.
pub(crate) fn intra_node_cap(s: &Scenario) -> Option<GbytePerSec> {
    let g = f64::from(s.gpus_per_domain());
    (s.gpus_per_domain() > 1).then(|| s.intra_node().ring.scale(g / (g - 1.0)))
}

/// The node's network bandwidth for the ring and what caps it.
pub(crate) fn network_bandwidth(s: &Scenario, eff: f64) -> (GbytePerSec, Bottleneck) {
    network_bandwidth_with(s, eff, s.adapters_per_domain())
}

/// [`network_bandwidth`] with `adapters` of the node's adapters.
pub(crate) fn network_bandwidth_with(s: &Scenario, eff: f64, adapters: u32) -> (GbytePerSec, Bottleneck) {
    let fabric = s.input().fabric;
    let adapters = f64::from(adapters);
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
    let pcie = GbytePerSec::new(pcie_x16_raw_gbyte_per_s(s.gpu().pcie_gen) * f64::from(s.gpus_per_domain()));
    if fabric != Fabric::Tcp && pcie < node {
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
