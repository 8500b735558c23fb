//! The mid-size correction NCCL's model lacks: at mid sizes a ring's pipeline is not full and NVLSTree has not
//! reached its peak, so the time is longer than NCCL's bandwidth says (NCCL's own model is 18-37% fast at
//! 16-128 MiB on H100, `../shared/research/nccl-protocol-model.md` §9).
//!
//! Source: meta-pytorch/autoparallel `autoparallel/cost_models/nccl_cost_model.py` (commit `0288b2ca`), fitted
//! there on H100 NVSwitch nccl-tests at 2-8 nodes (PRs #365, #425), none of which is in this project's
//! calibration set. Each table multiplies the algorithm bandwidth and is indexed by the bytes per GPU
//! (`size / ranks`) at `64 x 2^i`:
//! - `_RING_CORRECTION_FACTOR` (L669-697, applied at L591-601): every Ring protocol and collective across nodes;
//!   beyond 4 nodes its factors below 1 are raised to `1 + 0.2 (log2i(nodes) - 2)`, each at most twice the one
//!   before (L700-719, PR #425), the exponent held at its 32-node value beyond 32 nodes; on a node network
//!   slower than the one it was fitted on, read at proportionally more bytes ([`REF_NODE_GBS`]);
//! - `_NVLS_TREE_RAMP` (L862-890, applied at L1043-1048): NVLSTree all-reduce. autoparallel's cause, "NVLS
//!   protocol startup" (L856-858), is NVLS's own, so the ramp is applied to one node's NVLS all-reduce as well,
//!   which autoparallel prices from its own single-node measurements instead (L729-747);
//! - `_RING_SYNC_OVERHEAD_PER_NODE` (L722-727, applied at L522-528): 4.7 µs per node added to a multi-node ring's
//!   latency, times `(nodes/4)^0.65` beyond 4 nodes ("per-node coordination overhead (barrier sync, NIC
//!   arbitration) not captured by per-step constants", fitted on H100 all-gather small messages at 2-8 nodes).
//!   autoparallel's tables reach 32 nodes (PR #474); beyond that the overhead is held at its 32-node value
//!   rather than extrapolated.
//!
//! autoparallel reads between entries linearly; here the factor is read between entries geometrically (linear
//! in log f), which changes no entry and keeps the time of a larger message from ever being shorter: every rise
//! between neighbouring entries is at most 2x (drops, such as 1.0 to 0.10, only lengthen the time).

use super::nccl::{self, Algo, Coll, Comm, Proto};

/// `_RING_CORRECTION_FACTOR`, 64 B .. 512 MiB per GPU. autoparallel leaves 1.0 (no correction) below 128 KiB per
/// GPU, where it fitted nothing; here the first fitted factor holds there instead. Otherwise a size just below the
/// fitted range would run 10x faster per byte than one just inside it, and adding nodes (which shrinks each GPU's
/// share of a 25 MiB bucket below 128 KiB) would speed a step up. This changes none of the calibration's medians.
const RING: [f64; 24] = [
    0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.18, 0.30, 0.43, 0.63, 0.55, 0.78, 0.93,
    1.0, 1.0, 1.0, 1.0, 1.0,
];

/// `_NVLS_TREE_RAMP`, 64 B .. 512 MiB per GPU; below 16 KiB per GPU the first fitted factor holds, as for the
/// Ring's.
const NVLS_TREE: [f64; 24] = [
    0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.15, 0.28, 0.41, 0.55, 0.72, 0.88, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0,
];

/// NVLS all-reduce over a multi-node NVLink domain (trays joined by NVLink switches, NCCL's MNNVL), by the call's
/// bytes at 512 KiB x 2^i up to 16 GiB, where H100's one-node [`NVLS_TREE`] (at its peak from 4 MiB per GPU) is far
/// too fast: NVLS runs the whole buffer through its channels whatever the ranks, and across NVL72 trays it takes
/// gigabytes to reach its peak. Each entry is the bandwidth share that gives the measured time over NCCL's 25 us
/// NVLS latency, `(bytes / peak algbw) / (time - 25 us)`, on the full curve of 16 trays (64 GPUs) of one GB300 NVL72
/// domain in oracle-quickstart/oci-gpu-quickstarts' GB300 README @2631bee (NCCL 2.28.7, `tests/data/nccl-tests/
/// nvl72/`). Held out: the same page's 2-tray curve and CoreWeave's 72-GPU GB200 curve (`tests/tests/nvl72.rs`).
/// NVLSTree across such domains reads it too: each domain's NVLS runs the whole buffer.
const MNNVL_NVLS: [f64; 16] =
    [0.027, 0.053, 0.099, 0.178, 0.254, 0.287, 0.366, 0.464, 0.546, 0.645, 0.704, 0.806, 0.886, 0.933, 0.966, 1.0];
/// The bytes of [`MNNVL_NVLS`]'s first entry.
const MNNVL_NVLS_FIRST: f64 = 512.0 * 1024.0;

/// The node network the Ring ramp was fitted on, GB/s: autoparallel's multi-node tables are NCCL 2.27.5's for
/// "H100 + 8x400G" (`nccl_cost_model.py` L764-853; research note §10.3), 8 adapters x 50 GB/s x InfiniBand's 0.96.
/// A ring's pipeline fills with a bandwidth-delay product's worth of data: on a slower network it fills with
/// proportionally fewer bytes, so for the Simple protocol the table is read at `bytes x REF_NODE_GBS / the
/// node's ring bandwidth` (never below the bytes themselves). Without it a 64 MiB bucket over one 25 GbE port per node ran at 60% of the
/// link, where public runs show it near line rate (Horovod's 2017 RDMA table in `tests/data/steps/runs.json`);
/// it changes no large-message point of the calibration and no held-out band of the curves.
const REF_NODE_GBS: f64 = 8.0 * 50.0 * 0.96;

/// `_RING_SYNC_OVERHEAD_PER_NODE`, µs per node.
const RING_SYNC_US_PER_NODE: f64 = 4.7;
/// The most nodes the sync overhead is read at (autoparallel's tables stop at 32).
const RING_SYNC_MAX_NODES: f64 = 32.0;

/// The latency a multi-node Ring pays on top of NCCL's, µs; 0 on one node and for other algorithms.
pub fn ring_sync_us(comm: &Comm, a: Algo) -> f64 {
    if a != Algo::Ring || comm.nodes <= 1 {
        return 0.0;
    }
    let n = f64::from(comm.nodes).min(RING_SYNC_MAX_NODES);
    let mut us = RING_SYNC_US_PER_NODE * n;
    if n > 4.0 {
        us *= (n / 4.0).powf(0.65);
    }
    us
}

/// The factor on the bandwidth of `(a, p)` for `bytes` (nccl-tests' size); 1 where no correction applies.
pub fn factor(comm: &Comm, c: Coll, a: Algo, p: Proto, bytes: f64) -> f64 {
    let per_gpu = bytes / f64::from(comm.ranks.max(1));
    match a {
        Algo::Ring if comm.nodes > 1 => {
            // Simple's bandwidth is the node's ring bandwidth, so its pipeline fills with it; LL and LL128 run at
            // their own per-channel caps whatever the network, and keep the table as fitted (which also keeps
            // more bandwidth from ever making their time longer).
            let node = comm.ring.bw_inter * f64::from(comm.ring.channels);
            let scale = if p == Proto::Simple && node > 0.0 && comm.ring_ramp_in_time {
                (REF_NODE_GBS / node).max(1.0)
            } else {
                1.0
            };
            read(&comm.ring_ramp, per_gpu * scale)
        }
        // On Blackwell x86 hosts NCCL corrects NVLSTree itself (`nvls_tree_corrected`): not twice.
        Algo::NvlsTree if nccl::nvls_tree_corrected(comm, c, a) => 1.0,
        Algo::Nvls | Algo::NvlsTree if c == Coll::AllReduce && comm.multi_node_nvlink => {
            read_from(&MNNVL_NVLS, MNNVL_NVLS_FIRST, bytes)
        }
        Algo::NvlsTree | Algo::Nvls if c == Coll::AllReduce => read(&NVLS_TREE, per_gpu),
        _ => 1.0,
    }
}

/// The Ring table for `nodes` (`Comm::ring_ramp` holds it).
pub fn ring_table(nodes: u32) -> [f64; 24] {
    depth_scaled(nodes)
}

/// `_depth_scaled_ring_correction`: the Ring table for `nodes`.
fn depth_scaled(nodes: u32) -> [f64; 24] {
    let mut table = RING;
    if nodes <= 4 {
        return table;
    }
    // autoparallel fits up to 32 nodes (PR #474): the exponent is held there beyond, as the sync overhead is.
    let exp = 1.0 + 0.2 * (f64::from(nodes.min(32)).log2().floor() - 2.0);
    for i in 0..table.len() {
        let mut f = table[i];
        if f < 1.0 {
            f = f.powf(exp);
        }
        if i > 0 {
            f = f.min(2.0 * table[i - 1]);
        }
        table[i] = f;
    }
    table
}

/// A table indexed by `log2(bytes_per_gpu / 64)`, read geometrically between entries and held at its ends.
pub(crate) fn read(table: &[f64; 24], bytes_per_gpu: f64) -> f64 {
    read_from(table, 64.0, bytes_per_gpu)
}

/// A table whose entry `i` is at `first x 2^i` bytes, read as [`read`] reads its tables.
fn read_from(table: &[f64], first: f64, bytes: f64) -> f64 {
    let x = (bytes / first).max(1.0).log2();
    let last = table.len() - 1;
    if x >= last as f64 {
        return table[last];
    }
    let i = x.floor() as usize;
    let t = x - i as f64;
    table[i].powf(1.0 - t) * table[i + 1].powf(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_read_as_published() {
        assert_eq!(read(&RING, 64.0 * 2f64.powi(11)), 0.10);
        assert!((read(&RING, 64.0 * 2f64.powi(15)) - 0.63).abs() < 1e-12);
        assert!((read(&NVLS_TREE, 64.0 * 2f64.powi(14)) - 0.72).abs() < 1e-12);
        assert_eq!(read(&RING, 1e12), 1.0);
        assert_eq!(read(&RING, 1.0), 0.10, "below the fitted range the first fitted factor holds");
    }

    #[test]
    fn deeper_rings_ramp_later_and_never_rise_more_than_twice() {
        let eight = depth_scaled(8);
        assert!((eight[11] - 0.1f64.powf(1.2)).abs() < 1e-12);
        assert!((eight[12] - 2.0 * eight[11]).abs() < 1e-12, "clamped to twice the entry before");
        for t in [RING, NVLS_TREE, depth_scaled(16), depth_scaled(1024)] {
            for w in t.windows(2) {
                assert!(w[1] <= 2.0 * w[0] + 1e-12);
            }
        }
    }
}
