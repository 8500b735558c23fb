//! A port of NCCL's own collective cost model: the bandwidth and latency of every (algorithm, protocol) pair for
//! a communicator, the time of one call, and NCCL's choice, the cheapest pair.
//!
//! Source: NVIDIA/nccl **v2.30.7-1** (tag commit `73cf1122`), `src/graph/tuning.cc`: the constant tables L138-212,
//! `ncclTopoTuneModel` L243-618 (bandwidths L288-383, latencies L384-435, the default enables L495-541),
//! `treeCorrectionFactor` L620-627, `ncclTopoGetAlgoTime` L630-655; `src/enqueue.cc` `topoGetAlgoInfo`
//! L2028-2117 (the argmin). `../shared/research/nccl-protocol-model.md` sums them up with those line numbers.
//! The constant values were checked again against the newest stored NCCL source, where the tables moved to
//! `src/tuning/cost_model.cc` (commit `1fc949c5`, `ncclTunerConstantsDefaults` L141-220,
//! `treeCorrectionFactor` L222-226) and `src/tuning/nvls.cc` (v2.32.3, `nvlsEfficiency` L12-17): identical.
//! What NCCL learns from its topology search (channels and per-channel bandwidths of the ring, tree and NVLS
//! graphs) is [`Comm`]'s, built from the scenario in `comm.rs`.
//!
//! Units as NCCL's: latencies in microseconds, bandwidths in GB/s (1e9 B/s), `time_us = lat + bytes / (1000 bw)`.
//! CollNet (SHARP) is not modelled: it needs a switch plugin that rented clusters rarely expose, and NCCL
//! disables it by default (L495-541).

use serde::Serialize;

use crate::catalog::Arch;

/// A collective NCCL's model covers (all-to-all is point-to-point in NCCL and modelled apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coll {
    /// `ncclBroadcast`.
    Broadcast,
    /// `ncclAllGather`.
    AllGather,
    /// `ncclReduceScatter`.
    ReduceScatter,
    /// `ncclAllReduce`.
    AllReduce,
}

/// NCCL's algorithms (`NCCL_ALGO`), in the order its argmin breaks ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algo {
    /// A tree across nodes, chains inside them (all-reduce only since 2.23).
    Tree,
    /// The ring.
    Ring,
    /// NVLink SHARP: the NVSwitch reduces (one node).
    Nvls,
    /// NVLS inside nodes, a tree across them.
    NvlsTree,
    /// Parallel aggregated trees: all-gather and reduce-scatter with one GPU per node.
    Pat,
}

impl Algo {
    /// Every algorithm, in tie-break order (`enqueue.cc` L2028-2117 scans the table in this order).
    pub const ALL: [Algo; 5] = [Algo::Tree, Algo::Ring, Algo::Nvls, Algo::NvlsTree, Algo::Pat];

    /// NCCL's name, as `NCCL_ALGO` and its logs write it.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Tree => "Tree",
            Algo::Ring => "Ring",
            Algo::Nvls => "NVLS",
            Algo::NvlsTree => "NVLSTree",
            Algo::Pat => "PAT",
        }
    }
}

/// NCCL's protocols (`NCCL_PROTO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Proto {
    /// Low latency: 8-byte stores with a flag in each, half the bandwidth.
    Ll,
    /// 128-byte lines with a flag, about 92% of the bandwidth; needs NVLink inside the node.
    Ll128,
    /// Plain copies with a fence per step: full bandwidth, the highest latency.
    Simple,
}

impl Proto {
    /// Every protocol, in tie-break order.
    pub const ALL: [Proto; 3] = [Proto::Ll, Proto::Ll128, Proto::Simple];

    /// NCCL's name.
    pub fn name(self) -> &'static str {
        match self {
            Proto::Ll => "LL",
            Proto::Ll128 => "LL128",
            Proto::Simple => "Simple",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The kind of hop a latency is paid on (`hwLatencies`' first index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Hop {
    /// NVLink (or NVSwitch, or AMD's xGMI, taken as NVLink).
    Nvlink,
    /// PCIe.
    Pci,
    /// The network.
    Net,
}

// ---------------------------------------------------------------------------------------------------------------
// Constants: NVIDIA/nccl v2.30.7-1 `src/graph/tuning.cc`. Rows [LL, LL128, Simple] unless said otherwise.
// ---------------------------------------------------------------------------------------------------------------

/// `baseLatencies[algo][proto]`, µs (L149-155). Rows Tree, Ring, NVLS, NVLSTree, PAT.
const BASE_LAT: [[f64; 3]; 5] = [[6.8, 14.0, 8.4], [6.6, 14.0, 8.4], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [8.0, 8.0, 8.0]];

/// `hwLatencies[hw][algo][proto]`, µs (L156-176). NVLS, NVLSTree and PAT run Simple only.
const HW_LAT: [[[f64; 3]; 5]; 3] = [
    // NVLINK
    [[0.6, 1.25, 4.0], [0.6, 1.9, 3.4], [0.0, 0.0, 25.0], [0.0, 0.0, 25.0], [0.0, 0.0, 4.0]],
    // PCI
    [[1.0, 1.9, 4.0], [1.0, 2.5, 5.7], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 4.0]],
    // NET
    [[5.0, 8.5, 14.0], [2.7, 4.0, 14.0], [0.0, 0.0, 18.0], [0.0, 0.0, 20.9], [0.0, 0.0, 14.0]],
];

/// `llMaxBws[row][N1, N2, N4]`, GB/s (L177-183). One node: the row of the GPU's architecture; several nodes: row
/// 0 for Intel (and other) CPUs, row 1 for AMD CPUs (L269-271).
const LL_MAX_BW: [[f64; 3]; 4] = [[39.0, 39.0, 20.4], [87.7, 22.5, 19.0], [141.0, 45.0, 35.0], [282.0, 90.0, 70.0]];

/// `perChMaxRingLL128Bws[arch][N1, N2, N4]`, GB/s per channel (L184-189).
const PER_CH_RING_LL128: [[f64; 3]; 4] = [[20.0; 3], [20.0; 3], [36.7; 3], [40.0; 3]];
/// `perChMaxTreeLL128Bws[arch][N1, N2, N4]` (L190-195).
const PER_CH_TREE_LL128: [[f64; 3]; 4] = [[20.0; 3], [20.0; 3], [36.7, 36.7, 29.0], [55.6, 31.67, 20.0]];
/// `perChMaxTreeBws[arch][N1, N2, N4]` (L196-201).
const PER_CH_TREE: [[f64; 3]; 4] = [[26.5, 18.5, 10.0], [24.0, 23.6, 17.8], [38.7, 41.4, 36.0], [70.0, 42.8, 24.0]];
/// `perChMaxNVLSTreeBws[arch][N1, N2, N4]` (L202-211).
const PER_CH_NVLS_TREE: [[f64; 3]; 4] = [[26.5, 18.5, 10.0], [24.0, 23.6, 17.8], [0.0, 57.7, 45.5], [0.0, 96.0, 80.0]];
/// `nvlsEfficiency[arch]` (L139-144).
const NVLS_EFFICIENCY: [f64; 4] = [0.0, 0.0, 0.85, 0.74];

/// `treeCorrectionFactor[proto][log2(bytes / 64)]` (L620-627): NCCL's own size correction of the Tree bandwidth,
/// 64 B to 512 MiB.
const TREE_CORRECTION: [[f64; 24]; 3] = [
    [
        1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0,
        1.0, 1.0,
    ],
    [
        1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0,
        1.0, 1.0,
    ],
    [
        0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9,
        0.9, 0.9,
    ],
];

/// `getNetOverhead` (L226-233): the CPU's cost of a network step, µs, Intel 1.0, AMD 2.0.
const NET_OVERHEAD_US: [f64; 2] = [1.0, 2.0];

/// The plateau rule of `ncclTopoGetAlgoTime` (L645-648): a multi-node Ring/Simple all-reduce of at least 64 bytes
/// per channel and rank pays its latency 1.4 times (1.9 before compute capability 8.0).
const RING_PLATEAU: [f64; 2] = [1.9, 1.4];

/// `tuning.cc` ratio of a bus to an algorithm bandwidth for Tree and CollNet (L377-382).
const TREE_RATIO: f64 = 0.5;

/// What NCCL's topology search found for one pattern (`struct ncclTopoGraph`): how many channels, and the
/// bandwidth of each inside and between nodes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Graph {
    /// Search channels (`graph->nChannels`).
    pub channels: u32,
    /// Per-channel bandwidth inside the node, GB/s (`bwIntra`).
    pub bw_intra: f64,
    /// Per-channel bandwidth between nodes, GB/s (`bwInter`).
    pub bw_inter: f64,
}

/// Everything NCCL's tuning model reads about a communicator.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Comm {
    /// The GPUs' architecture bucket.
    pub arch: Arch,
    /// Nodes.
    pub nodes: u32,
    /// Ranks (GPUs).
    pub ranks: u32,
    /// The hop inside a node: NVLink or PCIe.
    pub intra_hop: Hop,
    /// The hosts' CPUs are AMD's (NCCL's multi-node LL row and network overhead).
    pub amd_cpu: bool,
    /// The hosts' CPUs are Arm (Grace): NCCL's `cpuArch` is not x86.
    pub arm_host: bool,
    /// A node is a multi-node NVLink domain: trays joined by NVLink switches (NCCL's MNNVL).
    pub multi_node_nvlink: bool,
    /// The ring graph.
    pub ring: Graph,
    /// The tree graph (also PAT's, `init.cc` L980-981).
    pub tree: Graph,
    /// The NVLS graph, when the node has NVLink SHARP (NVSwitch, compute capability 9.0 or later).
    pub nvls: Option<Graph>,
    /// `comm->nChannels`, the channels kernels run on (`connect.cc` L460, L480-483).
    pub exec_channels: u32,
    /// The net plugin's latency per network hop, µs (`graph->latencyInter`; 0 for NCCL's own IB and socket
    /// transports, `topo.cc` L414-421).
    pub latency_inter_us: f64,
    /// LL128 is allowed (NVLink inside the node, GPUDirect RDMA across nodes, compute capability 7.0 or later).
    pub ll128: bool,
    /// The Ring ramp is read in time on node networks slower than its fit's ([`crate::terms::Terms`]).
    #[serde(skip)]
    pub ring_ramp_in_time: bool,
    /// The Ring's mid-size ramp for this node count (`ramp.rs`), computed once.
    #[serde(skip)]
    pub ring_ramp: [f64; 24],
}

impl Comm {
    /// GPUs per node as NCCL's float `ppn`.
    fn ppn(&self) -> f64 {
        f64::from(self.ranks) / f64::from(self.nodes.max(1))
    }

    /// `index2`: 0 for one node, 1 for two, 2 for three or more (L267).
    fn scale_index(&self) -> usize {
        match self.nodes {
            0 | 1 => 0,
            2 => 1,
            _ => 2,
        }
    }

    fn graph(&self, a: Algo) -> Option<Graph> {
        match a {
            Algo::Nvls | Algo::NvlsTree => self.nvls,
            Algo::Ring => Some(self.ring),
            Algo::Tree | Algo::Pat => Some(self.tree),
        }
    }
}

fn steps(c: Coll, ranks: u32) -> f64 {
    let n = f64::from(ranks);
    match c {
        Coll::AllReduce => 2.0 * (n - 1.0),
        Coll::AllGather | Coll::ReduceScatter => n - 1.0,
        Coll::Broadcast => n,
    }
}

fn log2i(x: f64) -> f64 {
    if x < 1.0 { 0.0 } else { x.log2().floor() }
}

/// Whether NCCL would consider this pair at all (L293-304, L495-541, and `updateCollCostTable` in `enqueue.cc`).
fn eligible(comm: &Comm, c: Coll, a: Algo, p: Proto) -> bool {
    let by_coll = match c {
        Coll::Broadcast => a == Algo::Ring,
        Coll::AllGather | Coll::ReduceScatter => matches!(a, Algo::Ring | Algo::Nvls | Algo::Pat),
        Coll::AllReduce => a != Algo::Pat,
    };
    let simple_only = matches!(a, Algo::Nvls | Algo::NvlsTree | Algo::Pat);
    let by_proto = match p {
        Proto::Simple => true,
        Proto::Ll128 => !simple_only && comm.ll128,
        Proto::Ll => !simple_only,
    };
    let by_algo = match a {
        // Multi-node NVLS needs CollNet (SHARP); NVLSTree is off on one node.
        // NVLS all-gather and reduce-scatter need at most 32 local ranks (`updateCollCostTable`).
        Algo::Nvls => comm.nvls.is_some() && comm.nodes == 1 && (c == Coll::AllReduce || comm.ppn() <= 32.0),
        Algo::NvlsTree => comm.nvls.is_some() && comm.nodes > 1,
        // PAT: one GPU per node, compute capability 6.0 or later (every bucket here).
        Algo::Pat => comm.nodes == comm.ranks && comm.nodes > 1,
        Algo::Tree | Algo::Ring => true,
    };
    by_coll && by_proto && by_algo
}

/// NCCL's algorithm bandwidth for `nBytes` per second, GB/s, before the size corrections (L288-383); `None` when
/// NCCL disables the pair.
pub fn bandwidth(comm: &Comm, c: Coll, a: Algo, p: Proto) -> Option<f64> {
    if !eligible(comm, c, a, p) {
        return None;
    }
    let g = comm.graph(a)?;
    let arch = comm.arch.index();
    let idx = comm.scale_index();
    let nodes = comm.nodes;
    let ppn = comm.ppn();
    let nch = f64::from(g.channels);
    let mut bw = if nodes <= 2 { g.bw_intra } else { g.bw_inter };
    if matches!(a, Algo::Nvls | Algo::NvlsTree) {
        if g.channels < 2 {
            return None;
        }
        let mut intra = g.bw_intra * NVLS_EFFICIENCY[arch] * (nch - 1.0) / nch;
        intra *= if c == Coll::AllReduce { 2.0 } else { (ppn - 1.0) / ppn };
        let inter = g.bw_inter * if nodes <= 2 && a == Algo::NvlsTree { 2.0 } else { 1.0 };
        bw = intra.min(inter);
        if a == Algo::NvlsTree {
            bw = bw.min(PER_CH_NVLS_TREE[arch][idx]);
        }
    }
    let mut bus = nch * bw;
    let ll_row = if nodes == 1 { arch } else { usize::from(comm.amd_cpu) };
    let ll_max = LL_MAX_BW[ll_row][idx];
    match (a, p) {
        (Algo::Ring, Proto::Ll) => bus = ll_max.min(0.5 * bus),
        (Algo::Ring, Proto::Ll128) => bus = (0.92 * bus).min(nch * PER_CH_RING_LL128[arch][idx]),
        _ => {}
    }
    if a == Algo::Tree && c == Coll::AllReduce {
        bus = (0.92 * bus).min(nch * PER_CH_TREE[arch][idx]);
    }
    match (a, p) {
        (Algo::Tree, Proto::Ll) => bus = (bus / 3.8).min(ll_max),
        (Algo::Tree, Proto::Ll128) => {
            let f = if nodes == 1 { 7.0 / 9.0 } else { 120.0 / 128.0 };
            bus = (bus * f).min(nch * PER_CH_TREE_LL128[arch][idx]);
        }
        _ => {}
    }
    // Hopper and later search the balanced "TREE" pattern, which NCCL derates (`maxTreePattern`, 2.26+).
    if a == Algo::Tree && comm.arch >= Arch::Hopper {
        bus *= 0.85;
    }
    if a == Algo::Pat {
        bus *= 0.75;
    }
    let ag_rs = matches!(c, Coll::AllGather | Coll::ReduceScatter);
    if !(a != Algo::Ring && ag_rs) {
        let ratio = match a {
            Algo::Ring | Algo::Nvls | Algo::NvlsTree => f64::from(comm.ranks) / steps(c, comm.ranks),
            Algo::Tree | Algo::Pat => TREE_RATIO,
        };
        bus *= ratio;
    }
    (bus > 0.0 && bus.is_finite()).then_some(bus)
}

fn hw_lat(hop: Hop, a: Algo, p: Proto) -> f64 {
    let hw = match hop {
        Hop::Nvlink => 0,
        Hop::Pci => 1,
        Hop::Net => 2,
    };
    HW_LAT[hw][a as usize][p.index()]
}

/// NCCL's latency of one call, µs (L384-435).
pub fn latency(comm: &Comm, c: Coll, a: Algo, p: Proto) -> f64 {
    let nodes = comm.nodes;
    let ranks = comm.ranks;
    let ppn = comm.ppn();
    let nsteps = steps(c, ranks);
    let mut lat = BASE_LAT[a as usize][p.index()];
    let intra = hw_lat(comm.intra_hop, a, p);
    let net_a = if ppn <= 1.0 { Algo::Tree } else { a };
    let mut inter = hw_lat(Hop::Net, net_a, p) + comm.latency_inter_us;
    if p == Proto::Simple {
        // NCCL's "flush" extra latency.
        inter += comm.latency_inter_us;
    }
    let log_nodes = log2i(f64::from(nodes));
    match a {
        Algo::Ring if c == Coll::Broadcast => {
            // NCCL's ring graphs share their channels on the nodes modelled here (`sameChannels`): one hop.
            lat += hw_lat(if nodes == 1 { comm.intra_hop } else { Hop::Net }, Algo::Ring, p);
        }
        Algo::Ring => {
            let overhead = if nodes > 1 {
                NET_OVERHEAD_US[usize::from(comm.amd_cpu)] * if p == Proto::Simple { 3.0 } else { 1.0 }
            } else {
                0.0
            };
            let intra = intra.max(overhead);
            let inter_steps = match (nodes, c) {
                (1, _) => 0.0,
                (_, Coll::AllReduce) => 2.0 * f64::from(nodes - 1),
                _ => f64::from(nodes - 1),
            };
            lat += (nsteps - inter_steps) * intra + inter_steps * inter;
        }
        Algo::Tree => lat += 2.0 * ((ppn - 1.0) * intra + log_nodes * inter),
        Algo::Nvls => lat = intra + if nodes > 1 { inter } else { 0.0 },
        Algo::NvlsTree => lat += intra + 2.0 * log_nodes * inter,
        Algo::Pat => lat += log_nodes * inter / 3.5 + 2.8 * f64::from(ranks),
    }
    lat
}

/// NCCL's size correction of the Tree all-reduce bandwidth at `bytes`, for table entries `0..limit` (Tree reads
/// `0 <= logSize < 23`, NVLSTree `< 24`, `ncclTopoGetAlgoTime` L636-640): none below 64 B or from entry `limit` up.
/// NCCL steps from one entry to the next at each power of two; here the factor is read between them on a log2
/// scale (and from the last entry up to 1.0 over the doubling after it), which changes no entry and keeps the
/// time growing with the size, which NCCL's steps do not always do.
pub fn tree_correction(p: Proto, bytes: f64, limit: usize) -> f64 {
    if bytes < 64.0 {
        return 1.0;
    }
    let x = (bytes / 64.0).log2();
    let row = &TREE_CORRECTION[p.index()];
    let limit = limit.min(row.len());
    let entry = |i: usize| if i < limit { row[i] } else { 1.0 };
    if x >= limit as f64 {
        return 1.0;
    }
    let i = x.floor() as usize;
    let t = x - i as f64;
    entry(i) + (entry(i + 1) - entry(i)) * t
}

/// NCCL's Tree correction covers `logSize` 0 to 22 for Tree, 0 to 23 for NVLSTree.
const TREE_CORRECTION_LIMIT: usize = 23;
const NVLS_TREE_CORRECTION_LIMIT: usize = 24;

/// `nvlsEfficiency` of an architecture bucket.
pub fn nvls_efficiency(arch: Arch) -> f64 {
    NVLS_EFFICIENCY[arch.index()]
}

/// The latency of one point-to-point step with the Simple protocol: NCCL's Ring/Simple base latency and one hop
/// inside the node (`baseLatencies`, `hwLatencies`).
pub fn p2p_latency(comm: &Comm) -> f64 {
    BASE_LAT[Algo::Ring as usize][Proto::Simple.index()] + hw_lat(comm.intra_hop, Algo::Ring, Proto::Simple)
}

/// Whether NCCL applies its Tree correction to NVLSTree: all-reduce on Blackwell with x86 hosts (L641-642,
/// `cpuArch == NCCL_TOPO_CPU_ARCH_X86`): not on Grace (GB200/GB300 trays).
pub fn nvls_tree_corrected(comm: &Comm, c: Coll, a: Algo) -> bool {
    a == Algo::NvlsTree && c == Coll::AllReduce && comm.arch >= Arch::Blackwell && !comm.amd_cpu && !comm.arm_host
}

/// The time of one call on `bytes` (nccl-tests' size) as NCCL's `ncclTopoGetAlgoTime` computes it (L630-655),
/// split into its latency and its transfer, µs: Tree's size correction and the Ring/Simple plateau applied. `bw`
/// is [`bandwidth`]'s figure, possibly corrected by the caller; `extra_lat` is latency the caller adds before the
/// plateau (autoparallel adds its ring sync there too, `nccl_cost_model.py` L522-528 then L603-611).
pub fn time_parts(comm: &Comm, c: Coll, a: Algo, p: Proto, bytes: f64, bw: f64, extra_lat: f64) -> (f64, f64) {
    let mut bw = bw;
    let mut lat = latency(comm, c, a, p) + extra_lat;
    if a == Algo::Tree && c == Coll::AllReduce {
        bw *= tree_correction(p, bytes, TREE_CORRECTION_LIMIT);
    }
    if nvls_tree_corrected(comm, c, a) {
        bw *= tree_correction(p, bytes, NVLS_TREE_CORRECTION_LIMIT);
    }
    if a == Algo::Ring
        && p == Proto::Simple
        && comm.nodes > 1
        && c == Coll::AllReduce
        && bytes / f64::from(comm.exec_channels * comm.ranks) >= 64.0
    {
        lat *= RING_PLATEAU[usize::from(comm.arch >= Arch::Ampere)];
    }
    (lat, bytes / (1000.0 * bw))
}

/// Channels NCCL runs a call on after its choice (`enqueue.cc` `topoGetAlgoInfo`, research note §7): fewer
/// than `comm->nChannels` for small messages (each channel wants `threads x threshold` bytes); NVLS runs its own
/// 16 channels on Hopper, 24 on Blackwell (`nvls.cc` L155-213), at most `comm->nChannels` across nodes. The
/// tuning model itself never sees this: one reason it is optimistic at mid sizes.
pub fn run_channels(comm: &Comm, a: Algo, p: Proto, bytes: f64) -> u32 {
    if matches!(a, Algo::Nvls | Algo::NvlsTree) {
        let nvls = if comm.arch >= Arch::Blackwell { 24 } else { 16 };
        return if comm.nodes > 1 { nvls.min(comm.exec_channels) } else { nvls };
    }
    // `device.h` L91-114: 512 threads (640 for LL128); `comm.h` L49-51: 8 bytes a thread for LL (times the ranks
    // on a ring) and LL128, 64 for Simple.
    let threads = if p == Proto::Ll128 { 640.0 } else { 512.0 };
    let per_thread = match p {
        Proto::Ll if a == Algo::Ring => 8.0 * f64::from(comm.ranks),
        Proto::Ll | Proto::Ll128 => 8.0,
        Proto::Simple => 64.0,
    };
    let mut nc = comm.exec_channels;
    while nc >= 2 && bytes < f64::from(nc) * threads * per_thread {
        nc -= 1;
    }
    nc.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An H100 node with eight 400 Gb/s InfiniBand adapters, as NCCL 2.27.5 printed its graphs (8 channels of
    /// 48 GB/s; NVLS 8 channels, 40 intra, 48 inter), on `nodes` nodes.
    fn h100(nodes: u32) -> Comm {
        Comm {
            arch: Arch::Hopper,
            nodes,
            ranks: nodes * 8,
            intra_hop: Hop::Nvlink,
            amd_cpu: false,
            arm_host: false,
            multi_node_nvlink: false,
            ring: Graph { channels: 8, bw_intra: 48.0, bw_inter: 48.0 },
            tree: Graph { channels: 8, bw_intra: 48.0, bw_inter: 48.0 },
            nvls: Some(Graph { channels: 8, bw_intra: 40.0, bw_inter: 48.0 }),
            exec_channels: 32,
            latency_inter_us: 0.0,
            ll128: true,
            ring_ramp_in_time: true,
            ring_ramp: [1.0; 24],
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// NCCL 2.27.5's own printed tuning table for H100 + 8x400G (autoparallel `nccl_cost_model.py` L764-853;
    /// the research note's §9), latency µs / bandwidth GB/s. The NVLSTree bandwidth changed in 2.28 and is
    /// checked against the 2.30 formula instead.
    #[test]
    fn reproduces_nccls_printed_tuning_table() {
        let cases = [
            (2, Algo::Ring, Proto::Ll, 40.0, 20.8),
            (2, Algo::Ring, Proto::Ll128, 75.2, 156.6),
            (2, Algo::Ring, Proto::Simple, 131.6, 204.8),
            (2, Algo::Tree, Proto::Ll, 25.2, 16.6),
            (2, Algo::Tree, Proto::Ll128, 48.5, 124.8),
            (2, Algo::Tree, Proto::Simple, 92.4, 140.8),
            (4, Algo::Ring, Proto::Simple, 282.8, 198.2),
            (4, Algo::Tree, Proto::Ll, 35.2, 8.7),
            (8, Algo::Ring, Proto::Ll128, 282.8, 149.1),
            (16, Algo::Tree, Proto::Simple, 176.4, 122.4),
        ];
        for (nodes, a, p, lat, bw) in cases {
            let comm = h100(nodes);
            let got_lat = latency(&comm, Coll::AllReduce, a, p);
            let got_bw = bandwidth(&comm, Coll::AllReduce, a, p).expect("eligible");
            assert!(close(got_lat, lat, 0.05), "{nodes} {a:?} {p:?} latency {got_lat} vs {lat}");
            assert!(close(got_bw, bw, 0.06), "{nodes} {a:?} {p:?} bandwidth {got_bw} vs {bw}");
        }
        // All-gather Ring Simple on 2 x 8: 70.0 µs, 409.6 GB/s.
        let comm = h100(2);
        assert!(close(latency(&comm, Coll::AllGather, Algo::Ring, Proto::Simple), 70.0, 0.05));
        assert!(close(bandwidth(&comm, Coll::AllGather, Algo::Ring, Proto::Simple).expect("ring"), 409.6, 0.06));
        // NVLSTree, 2.30 formula: min(40 x 0.85 x 7/8 x 2, 2 x 48, 57.7) x 8 x 16/30.
        let nvlstree = bandwidth(&comm, Coll::AllReduce, Algo::NvlsTree, Proto::Simple).expect("nvlstree");
        assert!(close(nvlstree, 57.7 * 8.0 * 16.0 / 30.0, 1e-9));
    }

    #[test]
    fn disabled_pairs_are_none() {
        let comm = h100(2);
        assert_eq!(bandwidth(&comm, Coll::AllReduce, Algo::Nvls, Proto::Simple), None, "multi-node NVLS needs SHARP");
        assert_eq!(bandwidth(&comm, Coll::AllReduce, Algo::NvlsTree, Proto::Ll), None);
        assert_eq!(bandwidth(&comm, Coll::AllGather, Algo::Tree, Proto::Simple), None);
        assert_eq!(bandwidth(&comm, Coll::Broadcast, Algo::Tree, Proto::Simple), None);
        assert_eq!(bandwidth(&comm, Coll::AllGather, Algo::Pat, Proto::Simple), None, "PAT needs 1 GPU per node");
        let one = Comm { nodes: 1, ranks: 8, ..h100(1) };
        assert_eq!(bandwidth(&one, Coll::AllReduce, Algo::NvlsTree, Proto::Simple), None);
        assert!(bandwidth(&one, Coll::AllReduce, Algo::Nvls, Proto::Simple).is_some());
        let pcie = Comm { ll128: false, ..h100(2) };
        assert_eq!(bandwidth(&pcie, Coll::AllReduce, Algo::Ring, Proto::Ll128), None);
    }

    #[test]
    fn the_tree_correction_is_read_between_powers_of_two() {
        let t = TREE_CORRECTION_LIMIT;
        assert_eq!(tree_correction(Proto::Ll, 64.0, t), 1.0);
        assert_eq!(tree_correction(Proto::Simple, 8.0, t), 1.0, "none below 64 B");
        assert!(close(tree_correction(Proto::Simple, 64.0 * 2f64.powi(11), t), 0.5, 1e-12));
        assert!(close(tree_correction(Proto::Simple, 64.0 * 2f64.powf(10.5), t), 0.55, 1e-12));
        assert!(
            close(tree_correction(Proto::Simple, 64.0 * 2f64.powi(22), t), 0.9, 1e-12),
            "the last entry Tree reads"
        );
        assert_eq!(tree_correction(Proto::Simple, 64.0 * 2f64.powi(23), t), 1.0, "none from 512 MiB up");
        assert_eq!(tree_correction(Proto::Simple, 1e15, t), 1.0);
    }
}
