//! All-to-all: in NCCL a group of point-to-point sends and receives (`enqueue.cc`), outside its tuning model.
//!
//! Each rank sends S/n to every rank (S is nccl-tests' size, what one rank sends in all). Of that, the share
//! `(n - g)/n` leaves the node, g GPUs sharing the node's adapters, and `(g - 1)/n` stays on the intra-node link;
//! the two run at once, so the slower sets the time.
//!
//! Source for the constants: meta-pytorch/autoparallel `autoparallel/cost_models/nccl_cost_model.py` (commit
//! `0288b2ca`, L910-975 and `nccl_all_to_all_cost` L1215-1313), fitted there on H100 NVSwitch alltoall_perf:
//! - across nodes: a latency of 37, 42, 60, 98 and 290 µs at 2, 4, 8, 16 and 32 nodes (read between, held at
//!   the ends; 0-byte runs), an adapter efficiency `1 - 0.44/nodes`, and a ramp by the bytes each rank sends
//!   to one peer (`_A2A_NIC_RAMP_FACTOR`, its deficit divided by `log2i(nodes)` from 4 nodes);
//! - inside a node, each GPU's `(g - 1)/n` share crosses the same links a ring uses, at the ring's bus bandwidth
//!   per GPU (the catalog's), after NCCL's Simple base latency and one NVLink or PCIe step (`tuning.cc`
//!   L149-176): the sends to every peer run at once ("AllToAll decomposes into concurrent P2P transfers",
//!   autoparallel L928-931). autoparallel's SM-path factor of 0.7 (`_A2A_BW_CORRECTION`, no data named) is not
//!   used; its copy-engine figure for 8x H100, 380 GB/s of size per second fitted on alltoall_perf, is what the
//!   ring's 369 GB/s gives within 10% (369 x 8/7 = 422).
//!
//! The adapters' bandwidth is the scenario's (line rate x the fabric's efficiency, after the no-GDR and socket
//! caps), so a slow fabric slows all-to-all as it does a ring; the plugin latency of fabrics other than
//! InfiniBand is added once each way. On one node the latency is NCCL's (about 12 µs over NVLink) where
//! autoparallel has 50 µs for its copy-engine path: an 8x B200 node measures 11 µs at small sizes.

use super::Timing;
use super::bandwidth;
use super::nccl::{self, Comm};
use super::ramp;
use crate::fabric::Fabric;
use crate::scenario::Scenario;

/// `_A2A_MULTI_NODE_LAT_POINTS`, (nodes, µs).
const LATENCY_POINTS: [(f64, f64); 5] = [(2.0, 37.0), (4.0, 42.0), (8.0, 60.0), (16.0, 98.0), (32.0, 290.0)];
/// `_A2A_NIC_OVERHEAD`: adapter efficiency `1 - 0.44 / nodes`.
const NIC_OVERHEAD: f64 = 0.44;
/// `_A2A_NIC_RAMP_FACTOR`, by bytes per peer at `64 x 2^i`.
const NIC_RAMP: [f64; 24] = [
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.28, 0.28, 0.35, 0.43, 0.62, 0.71, 0.82, 0.89, 0.92, 0.95, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0,
];

/// How an all-to-all of `bytes` runs. `scale` is a measured bus bandwidth's factor on the model's.
pub fn timing(s: &Scenario, comm: &Comm, bytes: f64, scale: f64) -> Timing {
    let n = f64::from(comm.ranks);
    let g = f64::from(s.gpus_per_domain());
    let nodes = f64::from(comm.nodes);
    let (intra_us, intra_lat) = intra(s, comm, bytes, scale);
    if comm.nodes == 1 {
        return Timing {
            algorithm: "P2P",
            protocol: "Simple",
            channels: comm.exec_channels,
            latency_us: intra_lat,
            transfer_us: intra_us,
        };
    }
    let (network, _) = bandwidth::network_bandwidth(s, bandwidth::efficiency(s));
    // autoparallel's efficiency is of the raw line rate, measured on InfiniBand/RoCE, where the network figure
    // already holds InfiniBand's own 0.96: divided out, so that InfiniBand gets exactly `1 - 0.44/nodes` of its line
    // rate and other fabrics keep what they lose beyond InfiniBand; never above the network's ceiling.
    let share = ((1.0 - NIC_OVERHEAD / nodes) / Fabric::Infiniband.efficiency()).min(1.0);
    let per_gpu = network.get() / g * share * scale;
    let mut corr = ramp::read(&NIC_RAMP, bytes / n);
    let log_nodes = nodes.log2().floor();
    if log_nodes > 1.0 && corr < 1.0 {
        corr = 1.0 - (1.0 - corr) / log_nodes;
    }
    let net_us = bytes * (n - g) / n / (1000.0 * per_gpu * corr);
    Timing {
        algorithm: "P2P",
        protocol: "Simple",
        channels: comm.exec_channels,
        latency_us: latency(nodes) + 2.0 * comm.latency_inter_us,
        transfer_us: net_us.max(intra_us),
    }
}

/// The intra-node share's transfer and the one-node latency, µs.
fn intra(s: &Scenario, comm: &Comm, bytes: f64, scale: f64) -> (f64, f64) {
    let n = f64::from(comm.ranks);
    let g = f64::from(s.gpus_per_domain());
    if g <= 1.0 {
        return (0.0, 0.0);
    }
    let bw = s.intra_node().ring.get() * scale;
    (bytes * (g - 1.0) / n / (1000.0 * bw), nccl::p2p_latency(comm))
}

/// `_A2A_MULTI_NODE_LAT_POINTS` read linearly between points, held at the ends.
fn latency(nodes: f64) -> f64 {
    let (first, last) = (LATENCY_POINTS[0], LATENCY_POINTS[LATENCY_POINTS.len() - 1]);
    if nodes <= first.0 {
        return first.1;
    }
    if nodes >= last.0 {
        return last.1;
    }
    for w in LATENCY_POINTS.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if nodes <= x1 {
            return y0 + (y1 - y0) * (nodes - x0) / (x1 - x0);
        }
    }
    last.1
}
