//! What NCCL's topology search would find on the scenario's nodes: the [`Comm`] its tuning model reads.
//!
//! NCCL measures its graphs at start-up; this module derives them from the scenario's links so that NCCL's
//! formulas, at large sizes, give back the bus bandwidths the catalog and the fabric priors were measured at:
//! - **Ring/Tree graph.** Across nodes one channel per adapter, duplicated as NCCL does (below), (NCCL's rail-optimised rings put one channel on
//!   each NIC; `search.cc` L1074-1290), each carrying the node's ring ceiling ([`super::bus_bandwidth`]'s network or
//!   intra-node figure) divided by the channels: on 8x 400 Gb/s InfiniBand that is 8 channels of 48 GB/s, what
//!   NCCL prints (research note §2.1). Then `ncclTopoDupChannels` (`search.cc` L1036-1049): channels of 25 GB/s
//!   or more are split in two, unless compute capability > 8.0, under 50 GB/s and more than 4 channels (and never
//!   fewer channels than fewer adapters would get: `ring_graph`). NCCL's
//!   speed steps (`search.cc` L1051-1067) are not reproduced: the fabric's measured efficiency replaces them,
//!   which is the same figure on InfiniBand (48 of 50 GB/s) and the measured one elsewhere.
//!   On one node: the catalog's Ring bus bandwidth over 12 channels on NVLink-class links (NCCL's logs), over
//!   `ceil(busbw / 12 GB/s)` on PCIe.
//! - **NVLS graph** (NVSwitch, compute capability 9.0+): the per-channel `bwIntra` that makes NCCL's NVLS
//!   formula give the catalog's measured single-node NVLS bus bandwidth; on H100 over 8 channels this is 39.5
//!   GB/s, the 40 NCCL prints. `bwInter` is the ring's.
//! - **Plugin latency** (`graph->latencyInter`): 0 on InfiniBand, as NCCL sets for its own transport
//!   (`topo.cc` L414-421); for other fabrics the value that makes NCCL's two-node small-message time equal the
//!   fabric's measured floor ([`crate::fabric::FabricPrior::latency_us`]).

use super::bandwidth;
use super::nccl::{Algo, Coll, Comm, Graph, Hop, Proto};
use crate::catalog::{Arch, IntraNodeLink, Vendor};
use crate::scenario::Scenario;

/// Per-channel bandwidth at and above which `ncclTopoDupChannels` splits channels, GB/s (`search.cc` L1036-1049).
const DUP_CHANNELS_MIN_BW: f64 = 25.0;
/// Search channels of a one-node ring over NVLink, NVSwitch or xGMI: 12 on 8x H100 ("Pattern 4, crossNic 0,
/// nChannels 12, bw 30/30" quoted from NVIDIA/nccl#1197; "24 coll channels" in a p5.48xlarge log, `connect.cc`
/// doubling search channels) and on 8x A100 ("Channel 23/24", NVIDIA/nccl-tests#100). NVIDIA/nccl#1429: "the
/// number of NCCL channels is directly related to" the GPU's NVLinks.
const ONE_NODE_NVLINK_CHANNELS: u32 = 12;
/// NCCL's per-channel bandwidth of a PCIe hop, GB/s (`PCI_BW`, `src/graph/topo.h`).
const PCI_CHANNEL_GBS: f64 = 12.0;
/// NCCL's most channels (`MAXCHANNELS`, `src/include/device.h`), search channels being at most half of it.
const MAX_SEARCH_CHANNELS: u32 = 32;

/// The scenario's communicator as NCCL's tuning model sees it.
pub fn comm(s: &Scenario) -> Comm {
    let gpu = s.gpu();
    let arch = gpu.arch();
    // Multi-node NVLink: a domain's ranks are one node to NCCL.
    let nodes = s.domains();
    let ranks = s.participants();
    let link = s.intra_node().link;
    let intra_hop = match link {
        IntraNodeLink::Nvswitch | IntraNodeLink::Nvlink | IntraNodeLink::Xgmi => Hop::Nvlink,
        IntraNodeLink::Pcie | IntraNodeLink::PcieHostStaged => Hop::Pci,
    };
    let ring = ring_graph(s, arch);
    let tree = tree_graph(s, ring);
    let nvls = (arch >= Arch::Hopper
        && gpu.vendor == Vendor::Nvidia
        && link == IntraNodeLink::Nvswitch
        && s.gpus_per_domain() > 1
        && s.intra_node().allreduce > s.intra_node().ring)
        .then(|| {
            let nch = f64::from(ring.channels.max(2));
            let eff = super::nccl::nvls_efficiency(arch);
            let total = s.intra_node().allreduce.get();
            // The ring's network bandwidth, over the NVLS graph's channels.
            let network = ring.bw_inter * f64::from(ring.channels);
            Graph {
                channels: ring.channels.max(2),
                bw_intra: total / (2.0 * eff * (nch - 1.0)),
                bw_inter: if nodes > 1 { network / nch } else { total / nch },
            }
        });
    let mut exec_channels = (2 * ring.channels).min(64);
    if arch >= Arch::Hopper && nodes > 1 && ring.bw_intra > 45.0 && exec_channels < 16 {
        exec_channels *= 2;
    }
    let fabric = s.input().fabric;
    let ll128 = gpu.compute_capability >= 70
        && intra_hop == Hop::Nvlink
        && gpu.vendor == Vendor::Nvidia
        && (nodes == 1 || fabric.ll128(s.input().gdr));
    let mut c = Comm {
        arch,
        nodes,
        ranks,
        intra_hop,
        // NCCL's multi-node rows differ by CPU maker; the scenario does not say, so AMD GPUs are taken on AMD
        // hosts (as MI300X platforms ship) and NVIDIA GPUs on Intel hosts (as DGX/HGX H100 reference boards).
        amd_cpu: gpu.vendor == Vendor::Amd,
        // GH200, GB200 and GB300 sit on Grace: Arm, which NCCL treats as "other" (research note on MNNVL, `topo.cc`).
        arm_host: gpu.grace_host(),
        multi_node_nvlink: s.nodes_per_domain() > 1,
        ring,
        tree,
        nvls,
        exec_channels,
        latency_inter_us: 0.0,
        ll128,
        ring_ramp_in_time: s.terms().ring_ramp_in_time,
        ring_ramp: super::ramp::ring_table(nodes),
    };
    c.latency_inter_us = plugin_latency_us(&c, fabric.latency_us());
    c
}

/// The ring and tree graph.
fn ring_graph(s: &Scenario, arch: Arch) -> Graph {
    if s.domains() == 1 {
        let total = s.intra_node().ring.get();
        let channels = match s.intra_node().link {
            IntraNodeLink::Nvswitch | IntraNodeLink::Nvlink | IntraNodeLink::Xgmi => ONE_NODE_NVLINK_CHANNELS,
            IntraNodeLink::Pcie | IntraNodeLink::PcieHostStaged => {
                ((total / PCI_CHANNEL_GBS).ceil() as u32).clamp(2, MAX_SEARCH_CHANNELS)
            }
        };
        let per = total / f64::from(channels);
        return Graph { channels, bw_intra: per, bw_inter: per };
    }
    let eff = bandwidth::efficiency(s);
    // `ncclTopoDupChannels` tests `ccMin > 80`: SM86/89 parts (A10G, A40, L40S, RTX 4090) duplicate like A100s do
    // not. AMD GPUs have no compute capability: taken as Hopper, as everywhere in this model.
    let gpu = s.gpu();
    let cc_over_80 = gpu.compute_capability > 80 || (gpu.compute_capability == 0 && arch >= Arch::Hopper);
    let intra = bandwidth::intra_node_cap(s).map_or(f64::INFINITY, |c| c.get());
    // The ring's ceiling with `a` of the node's adapters.
    let ceiling = |a: u32| bandwidth::network_bandwidth_with(s, eff, a).0.get().min(intra);
    let adapters = s.adapters_per_domain().clamp(1, MAX_SEARCH_CHANNELS);
    // `ncclTopoDupChannels` on `a` adapters' channels. NCCL's rule alone can give fewer adapters more channels (7
    // fast adapters 14 channels, 13 slower ones 13: above 4 channels under 50 GB/s it keeps them), and the
    // per-channel caps then make the added adapters slower. Taking the most channels any count up to the node's
    // gets keeps an added adapter from ever slowing a collective, and is NCCL's own count on the usual nodes
    // (8x 400G: 8 channels; 1x 400G: 2).
    let dup = |a: u32| -> u32 {
        let per = ceiling(a) / f64::from(a);
        let keep = cc_over_80 && per < 50.0 && a > 4;
        if per >= DUP_CHANNELS_MIN_BW && !keep && a * 2 <= MAX_SEARCH_CHANNELS { a * 2 } else { a }
    };
    let channels = (1..=adapters).map(dup).max().unwrap_or(adapters);
    let per = ceiling(adapters) / f64::from(channels);
    Graph { channels, bw_intra: per, bw_inter: per }
}

/// The tree graph: the ring's channels, with `bwIntra` raised up to twice `bwInter` as far as the intra-node
/// link allows (`ncclTopoCompute`'s second pass, `search.cc` L1074-1290: "for trees raise bwIntra up to
/// 2 x bwInter", research note §2.1). On two nodes NCCL's Tree runs at `bwIntra` (`tuning.cc` L306), which is
/// why a two-node tree reads above the adapters' rate (NVIDIA/nccl-tests#22, #309).
fn tree_graph(s: &Scenario, ring: Graph) -> Graph {
    if s.domains() == 1 {
        return ring;
    }
    let intra = bandwidth::intra_node_cap(s).map_or(f64::INFINITY, |c| c.get() / f64::from(ring.channels));
    Graph { bw_intra: (2.0 * ring.bw_inter).min(intra).max(ring.bw_intra), ..ring }
}

/// The plugin latency per network hop that makes NCCL's two-node small-message time (Tree/LL, 1 byte, the pair
/// NCCL picks there) equal a fabric's measured floor. NCCL adds the plugin latency twice per tree level, once
/// for each direction, so half the excess over the InfiniBand figure; never negative.
fn plugin_latency_us(c: &Comm, floor_us: f64) -> f64 {
    let reference = Comm { nodes: 2, ranks: 16, intra_hop: Hop::Nvlink, latency_inter_us: 0.0, ..*c };
    let ib = super::nccl::latency(&reference, Coll::AllReduce, Algo::Tree, Proto::Ll);
    ((floor_us - ib) / 2.0).max(0.0)
}
