//! Which calibration points each model constant was set from.
//!
//! A constant is a number of the model that a public measurement could have set: a catalog entry's all-reduce bus
//! bandwidth (`estimator_core::catalog::GPUS`), the efficiencies that derive one from a link, a fabric's
//! efficiency and latency floor (`estimator_core::fabric`), the intra-node latency floors, the socket cap and the
//! no-GPUDirect cap. [`PROVENANCE`] gives each one the calibration points it was read from, the constants it was
//! derived from, and how. It is read from the `source` text and doc comment next to each constant, and from the
//! raw tables those cite; where they name a vendor datasheet, NCCL's source or a maintainer's statement rather than
//! a point of the set, no point is recorded.
//!
//! A point is *fitted* when a constant its prediction uses was set from it ([`constants_used`], [`set_from`]); it
//! is then no test of the model and is scored apart from the held-out points.

use Constant::*;
use estimator_core::{Fabric, IntraNodeLink, Scenario, catalog, fabric};

/// A model constant that a measurement could have set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Constant {
    /// A catalog entry's `allreduce_busbw` and `ring_busbw`, by key (`generic` for `GENERIC_GPU`).
    GpuBusbw(&'static str),
    /// `catalog::NVLINK_RING_EFFICIENCY`: busbw over NVLink/xGMI link bandwidth when the link is overridden.
    NvlinkRingEfficiency,
    /// `catalog::PCIE_P2P_EFFICIENCY`: busbw over NCCL's PCIe x16 bandwidth.
    PcieP2pEfficiency,
    /// `catalog::HOST_STAGED_BUSBW_GBYTE_PER_S`: busbw without peer-to-peer.
    HostStagedBusbw,
    /// A fabric prior's `efficiency`.
    FabricEfficiency(Fabric),
    /// A fabric prior's `latency_us`.
    FabricLatency(Fabric),
    /// NCCL's own cost model: its constant tables and formulas (`estimator_core::collective::nccl`).
    NcclModel,
    /// The mid-size ramps and the all-to-all constants from meta-pytorch/autoparallel
    /// (`estimator_core::collective` `ramp.rs`, `alltoall.rs`).
    AutoparallelRamps,
    /// `fabric::TCP_SOCKET_CAP_GBYTE_PER_S`.
    TcpSocketCap,
    /// `fabric::no_gdr_adapter_cap`.
    NoGdrAdapterCap,
    /// The NVLS ramp over multi-node NVLink domains (`ramp.rs` `MNNVL_NVLS`).
    MnnvlNvlsRamp,
}

impl Constant {
    /// A short name for tables.
    pub fn name(self) -> String {
        match self {
            Constant::GpuBusbw(key) => format!("{key} busbw"),
            Constant::NvlinkRingEfficiency => "NVLink Ring efficiency".to_string(),
            Constant::PcieP2pEfficiency => "PCIe P2P efficiency".to_string(),
            Constant::HostStagedBusbw => "host-staged busbw".to_string(),
            Constant::FabricEfficiency(f) => format!("{} efficiency", fabric_name(f)),
            Constant::FabricLatency(f) => format!("{} latency", fabric_name(f)),
            Constant::NcclModel => "NCCL's cost model".to_string(),
            Constant::AutoparallelRamps => "mid-size ramps".to_string(),
            Constant::TcpSocketCap => "socket cap".to_string(),
            Constant::NoGdrAdapterCap => "no-GDR cap".to_string(),
            Constant::MnnvlNvlsRamp => "multi-node NVLS ramp".to_string(),
        }
    }

    /// The value the model uses, read from estimator-core, with its unit.
    pub fn value(self) -> String {
        match self {
            Constant::GpuBusbw(key) => {
                let g = gpu(key).map_or((f64::NAN, f64::NAN), |g| (g.allreduce_busbw.get(), g.ring_busbw.get()));
                if g.0 == g.1 { format!("{:.1} GB/s", g.0) } else { format!("{:.1} (Ring {:.1}) GB/s", g.0, g.1) }
            }
            Constant::NvlinkRingEfficiency => format!("{}", catalog::NVLINK_RING_EFFICIENCY),
            Constant::PcieP2pEfficiency => format!("{}", catalog::PCIE_P2P_EFFICIENCY),
            Constant::HostStagedBusbw => format!("{} GB/s", catalog::HOST_STAGED_BUSBW_GBYTE_PER_S),
            Constant::FabricEfficiency(f) => format!("{}", f.prior().efficiency),
            Constant::FabricLatency(f) => format!("{} us", f.prior().latency_us),
            Constant::NcclModel => "NCCL v2.30.7 tables".to_string(),
            Constant::AutoparallelRamps => "autoparallel 0288b2ca".to_string(),
            Constant::TcpSocketCap => format!("{} GB/s", fabric::TCP_SOCKET_CAP_GBYTE_PER_S),
            Constant::NoGdrAdapterCap => "PCIe x16 / 2".to_string(),
            Constant::MnnvlNvlsRamp => "GB300, 64 GPUs".to_string(),
        }
    }
}

fn fabric_name(f: Fabric) -> &'static str {
    match f {
        Fabric::Infiniband => "InfiniBand",
        Fabric::Roce => "RoCE",
        Fabric::Efa => "EFA",
        Fabric::EfaV2 => "EFA v2",
        Fabric::EfaV3 => "EFA v3",
        Fabric::Tcpx => "TCPX",
        Fabric::Tcpxo => "TCPXO",
        Fabric::Rdma => "other-RDMA",
        Fabric::Tcp => "TCP",
    }
}

/// The catalog entry with this key, `generic` included.
pub fn gpu(key: &str) -> Option<&'static catalog::GpuSpec> {
    catalog::GPUS.iter().chain([&catalog::GENERIC_GPU]).find(|g| g.key == key)
}

/// Where one constant came from.
#[derive(Debug)]
pub struct Provenance {
    /// The constant.
    pub constant: Constant,
    /// The calibration points (ids in `measurements.json`) its value was read from.
    pub points: &'static [&'static str],
    /// The constants it was computed from; their points count as its own.
    pub via: &'static [Constant],
    /// How it was set, and from which source outside the calibration set.
    pub basis: &'static str,
}

const fn from(constant: Constant, points: &'static [&'static str], basis: &'static str) -> Provenance {
    Provenance { constant, points, via: &[], basis }
}

const fn via(constant: Constant, via: &'static [Constant], basis: &'static str) -> Provenance {
    Provenance { constant, points: &[], via, basis }
}

const NVLINK: &[Constant] = &[NvlinkRingEfficiency];
const PCIE: &[Constant] = &[PcieP2pEfficiency];
const A100_SXM: &[&str] = &["nccl-527-aws-p4dn-1node-nvswitch", "eugenesiow-dgxa100-4gpu-nvswitch"];

/// Every constant the calibration points could have set.
pub static PROVENANCE: &[Provenance] = &[
    via(GpuBusbw("v100-sxm2-16gb"), NVLINK, "NVLink2 150 GB/s one way (datasheet) x NVLink Ring efficiency"),
    via(GpuBusbw("v100-pcie"), PCIE, "PCIe Gen3 x16 12 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("v100-sxm2-32gb"), NVLINK, "NVLink2 150 GB/s one way (datasheet) x NVLink Ring efficiency"),
    via(GpuBusbw("p40"), PCIE, "PCIe Gen3 x16 12 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("t4"), PCIE, "PCIe Gen3 x16 12 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("a10g"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("a40"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("a100-pcie-80gb"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("a100-pcie-40gb"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    from(
        GpuBusbw("a100-sxm4-80gb"),
        A100_SXM,
        "230.77 on 8x A100 p4dn (NVIDIA/nccl#527) rounded down; its source also cites 234.7 on a DGX A100",
    ),
    from(
        GpuBusbw("a100-sxm4-40gb"),
        A100_SXM,
        "230.77 on 8x A100 p4dn (NVIDIA/nccl#527) rounded down; the 80 GB entry's source, same 230, also cites 234.7 \
         on a DGX A100",
    ),
    via(GpuBusbw("l40s"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("l4"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("h100-pcie"), PCIE, "PCIe Gen5 x16 48 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("h100-nvl"), PCIE, "PCIe Gen5 x16 48 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("gh200-144gb"), NVLINK, "NVLink4 450 GB/s one way (datasheet) x NVLink Ring efficiency"),
    via(GpuBusbw("gh200"), NVLINK, "NVLink4 450 GB/s one way (datasheet) x NVLink Ring efficiency"),
    via(GpuBusbw("h200"), &[GpuBusbw("h100-sxm")], "the H100 SXM figures: the same NVSwitch board"),
    from(
        GpuBusbw("h100-sxm"),
        &["nccl-tests-290-h100-1node-nvls"],
        "NVLS 470 from 473.6 (nccl-tests#290); Ring 369 from 368.76 with NVLS off (nccl-tests#309, not a point here)",
    ),
    via(
        GpuBusbw("b200"),
        &[GpuBusbw("h100-sxm"), NvlinkRingEfficiency],
        "NVLS 900 x 470/450 (H100) x 0.74/0.85 (NCCL's nvlsEfficiency); Ring 900 x NVLink Ring efficiency",
    ),
    from(
        GpuBusbw("gb200"),
        &[],
        "NVLS 839.16 at 4 GiB on 72 GPUs (CoreWeave) over the multi-node NVLS ramp, Ring 679.61 on 4 GPUs (Azure): \
         both in tests/data/nccl-tests/nvl72.json, outside this set",
    ),
    from(GpuBusbw("gb300"), &[], "NVLS 930.48 at 16 GiB on 64 GPUs (OCI, nvl72.json, outside this set); Ring: GB200's"),
    from(GpuBusbw("b300"), &[], "845 with NVLS, 695 without, on 8x B300 (NVIDIA/nccl#2140), outside this set"),
    via(GpuBusbw("h20"), &[GpuBusbw("h100-sxm")], "the H100 SXM figures: the same NVLink4 NVSwitch board"),
    via(
        GpuBusbw("h800"),
        NVLINK,
        "215 measured on 8x H800 (NVIDIA/nccl#1374, outside this set); Ring 200 x NVLink Ring efficiency",
    ),
    via(GpuBusbw("a800-pcie-80gb"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("a800-sxm4-80gb"), &[GpuBusbw("a100-sxm4-80gb")], "A100's 230.77 x 400/600 (NVLink cut to 400 GB/s)"),
    from(
        GpuBusbw("rtx-pro-6000-blackwell"),
        &[],
        "37.6 on 8 GPUs over PCIe 5.0 (voipmonitor/rtx6kpro), outside this set",
    ),
    via(GpuBusbw("rtx-6000-ada"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("rtx-a6000"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("rtx-3090"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("l40"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("a10"), PCIE, "PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    via(GpuBusbw("mi350x"), &[GpuBusbw("mi355x")], "MI355X's: the same Infinity Fabric links"),
    from(GpuBusbw("rtx-5090"), &["nccl-1639-rtx5090-8gpu-pcie"], "28 GB/s on 8 GPUs, PCIe 5.0 (NVIDIA/nccl#1639)"),
    via(GpuBusbw("rtx-4090"), &[HostStagedBusbw], "GeForce Ada has no peer-to-peer: host-staged"),
    via(
        GpuBusbw("mi355x"),
        &[GpuBusbw("mi300x")],
        "MI300X's 315 x 153.6/128 (Infinity Fabric link speeds, datasheets)",
    ),
    from(GpuBusbw("mi325x"), &["amd-mi325x-1node-xgmi"], "319.08 on 8 GPUs, RCCL Ring (hisohara/ai-scripts)"),
    from(GpuBusbw("mi300x"), &["amd-mi300x-1node-xgmi"], "315.69 on 8 GPUs (hisohara/ai-scripts)"),
    via(GpuBusbw("generic"), PCIE, "placeholder: PCIe Gen4 x16 24 GB/s x PCIe P2P efficiency"),
    from(
        NvlinkRingEfficiency,
        &[],
        "NCCL maintainer, NVIDIA/nccl#1455: H100 Ring 'about 80% of 450GBps' (368.76/450 in nccl-tests#309)",
    ),
    from(PcieP2pEfficiency, &["nccl-1639-rtx5090-8gpu-pcie"], "28 of NCCL's 48 GB/s for PCIe Gen5 x16 on 8x RTX 5090"),
    from(
        HostStagedBusbw,
        &["eugenesiow-a40-pcie-p2p-disabled-2gpu", "eugenesiow-dgxa100-4gpu-p2p-disabled"],
        "the middle of 3.6-4.0 (A40 pair) and 5.2 (DGX A100) GB/s with NCCL_P2P_DISABLE=1",
    ),
    from(
        FabricEfficiency(Fabric::Infiniband),
        &[],
        "NCCL maintainers: 24 GB/s per 200G NIC (nccl-tests#119), 192 GB/s on 8x200G (nccl#812)",
    ),
    from(
        FabricLatency(Fabric::Infiniband),
        &["nccl-tests-309-h100-2node-8x400ib-default"],
        "the 8 B row of that run's table: 24.7-25.0 us",
    ),
    from(
        FabricEfficiency(Fabric::Roce),
        &[
            "oci-a100-2node-roce-16x100-ubuntu",
            "amd-mi355x-2node-pollara400",
            "amd-mi325x-2node-ring-bnxt",
            "amd-mi325x-4node-ring-bnxt",
            "amd-mi325x-8node-ring-bnxt",
        ],
        "the middle of 0.96 (OCI A100), 0.92 (MI355X) and 0.88 (MI325X, 400G inferred) of line rate",
    ),
    from(FabricLatency(Fabric::Roce), &["oci-oke-a100-2node-roce"], "the 8 B row of that run's table: 34.7-36.5 us"),
    from(
        FabricEfficiency(Fabric::Efa),
        &["nccl-527-aws-p4dn-3node-efa", "nccl-527-aws-p4dn-4node-efa", "aws-p4d-2node-efa-eks"],
        "inside their 0.59-0.65 of 4x100G",
    ),
    from(FabricLatency(Fabric::Efa), &["aws-p4d-2node-efa-eks"], "the 8 B row of that run's table: 167 us"),
    from(FabricEfficiency(Fabric::Rdma), &[], "an assumption inside the 0.6-0.9 usual for plugin fabrics"),
    from(FabricLatency(Fabric::Rdma), &["cscs-alps-gh200-2x4-slingshot-ofi"], "its 17.5 us floor, taken as 20"),
    from(FabricEfficiency(Fabric::Tcp), &[], "frame, IP and TCP headers on Ethernet"),
    from(FabricLatency(Fabric::Tcp), &["cscs-alps-gh200-2x4-tcp-fallback"], "its ~50 us floor"),
    from(TcpSocketCap, &["cscs-alps-gh200-2x4-tcp-fallback"], "its 5.53 GB/s through NCCL's socket transport"),
    from(NoGdrAdapterCap, &[], "half of NCCL's PCIe x16 bandwidth (src/graph/topo.cc)"),
    from(
        FabricEfficiency(Fabric::EfaV2),
        &[],
        "8x p5, 279.78 GB/s of 400 at 4 GiB (NVIDIA/nccl PR #1112), a run outside the set",
    ),
    from(FabricLatency(Fabric::EfaV2), &["aws-p5-2node-allreduce-efa"], "the 8 B row of that run's table: 69.12 us"),
    from(FabricEfficiency(Fabric::EfaV3), &[], "EFA v2's, assumed: no public p5en/p6 large-message run"),
    from(FabricLatency(Fabric::EfaV3), &[], "50.58 us for 8 B on 2x p6-b200 (dstackai/dstack PR #3961)"),
    from(FabricEfficiency(Fabric::Tcpx), &["dstack-a3high-2node-allgather-tcpx"], "its 50.17 GB/s of 100 at 8 GiB"),
    from(FabricLatency(Fabric::Tcpx), &[], "TCPXO's floor, assumed: no public small-message TCPX run"),
    from(FabricEfficiency(Fabric::Tcpxo), &["dstack-a3mega-2node-allgather-tcpxo"], "its 188.54 GB/s of 200 at 8 GiB"),
    from(
        FabricLatency(Fabric::Tcpxo),
        &[],
        "135.8 us for 8 B on 2 A3 Mega nodes (lessizzmore/create-a3mega-ztan-fork)",
    ),
    from(NcclModel, &[], "NVIDIA/nccl v2.30.7 src/graph/tuning.cc and src/enqueue.cc, read at the source"),
    from(AutoparallelRamps, &[], "meta-pytorch/autoparallel nccl_cost_model.py, fitted there on H100 runs of its own"),
    from(
        MnnvlNvlsRamp,
        &[],
        "the 64-GPU GB300 NVL72 curve of tests/data/nccl-tests/nvl72.json (OCI quickstart), outside this set",
    ),
];

/// The record of one constant.
pub fn provenance(c: Constant) -> Option<&'static Provenance> {
    PROVENANCE.iter().find(|p| p.constant == c)
}

/// Every calibration point a constant was set from, directly or through the constants it was derived from.
/// A constant without a record counts as set from no point; `provenance_covers_the_model` keeps that from happening.
pub fn set_from(c: Constant) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut todo = vec![c];
    let mut seen = Vec::new();
    while let Some(c) = todo.pop() {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        if let Some(p) = provenance(c) {
            out.extend(p.points.iter().copied());
            todo.extend(p.via.iter().copied());
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The constants the model uses to predict a scenario's all-reduce (its Ring figure and, on two nodes, its Tree
/// figure), following `estimator_core::collective::bus_bandwidth`, `latency` and `catalog::intra_node_bandwidth`.
pub fn constants_used(s: &Scenario) -> Vec<Constant> {
    let mut used = Vec::new();
    if s.participants() <= 1 {
        return used;
    }
    let gpu = s.gpu();
    let input = s.input();
    let link = s.intra_node().link;
    // With one GPU per node nothing crosses the intra-node link.
    if s.gpus_per_domain() > 1 {
        used.push(if input.intra_node.unwrap_or(gpu.intra_node) == gpu.intra_node {
            Constant::GpuBusbw(gpu.key)
        } else {
            match link {
                IntraNodeLink::PcieHostStaged => Constant::HostStagedBusbw,
                IntraNodeLink::Pcie => Constant::PcieP2pEfficiency,
                IntraNodeLink::Nvswitch | IntraNodeLink::Nvlink | IntraNodeLink::Xgmi => Constant::NvlinkRingEfficiency,
            }
        });
    }
    used.extend([Constant::NcclModel, Constant::AutoparallelRamps]);
    if s.nodes_per_domain() > 1 {
        used.push(Constant::MnnvlNvlsRamp);
    }
    // Inside one NVLink domain nothing crosses the fabric.
    if s.latency_override().is_none() && s.domains() > 1 {
        used.push(Constant::FabricLatency(input.fabric));
    }
    if s.domains() > 1 {
        if input.link_efficiency.is_none() {
            used.push(Constant::FabricEfficiency(input.fabric));
        }
        if input.fabric == Fabric::Tcp {
            used.push(Constant::TcpSocketCap);
        }
        if input.fabric.is_rdma() && !input.gdr {
            used.push(Constant::NoGdrAdapterCap);
        }
    }
    used
}

/// The constants of `used` that were set from the point `id`.
pub fn fitted_by(id: &str, used: &[Constant]) -> Vec<Constant> {
    used.iter().copied().filter(|&c| set_from(c).contains(&id)).collect()
}
