//! Fabric classes and their priors: the share of line rate NCCL/RCCL reach per adapter, and the small-message
//! latency floor of one all-reduce. Each constant cites its source. Several were read off public nccl-tests runs
//! that are also points of the calibration set (`tests/data/nccl-tests/measurements.json`); the calibration replay
//! records which (`PROVENANCE` in `tests/src/calibration.rs`) and scores those points apart as fitted, not as
//! validation.

use serde::{Deserialize, Serialize};

use crate::catalog::pcie_x16_gbyte_per_s;
use crate::units::GbytePerSec;

/// The inter-node fabric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Fabric {
    /// InfiniBand (HDR, NDR, XDR).
    Infiniband,
    /// RDMA over Converged Ethernet (RoCE v2).
    Roce,
    /// AWS Elastic Fabric Adapter, first generation (p4d, p4de: 4x 100 Gb/s), through libfabric and aws-ofi-nccl.
    Efa,
    /// AWS EFA v2 (p5, p5e: 32x 100 Gb/s).
    #[serde(rename = "efa-v2")]
    EfaV2,
    /// AWS EFA v3 (p5en: 16x 200 Gb/s; p6-b200: 8x 400 Gb/s).
    #[serde(rename = "efa-v3")]
    EfaV3,
    /// GCP GPUDirect-TCPX (a3-highgpu-8g: 4x 200 Gb/s): GPU memory straight to TCP, no RDMA.
    Tcpx,
    /// GCP GPUDirect-TCPXO (a3-megagpu-8g: 8x 200 Gb/s): TCPX offloaded to the NIC.
    Tcpxo,
    /// Another RDMA fabric through a NCCL net plugin (HPE Slingshot through aws-ofi-nccl, ...).
    Rdma,
    /// Plain TCP/IP Ethernet, no RDMA: NCCL's socket transport.
    Tcp,
}

impl Fabric {
    /// All classes, in the order a user interface lists them.
    pub const ALL: [Fabric; 9] = [
        Fabric::Infiniband,
        Fabric::Roce,
        Fabric::Efa,
        Fabric::EfaV2,
        Fabric::EfaV3,
        Fabric::Tcpx,
        Fabric::Tcpxo,
        Fabric::Rdma,
        Fabric::Tcp,
    ];

    /// The lower-case name, as JSON writes it (`infiniband`, `roce`, `efa`, `efa-v2`, `efa-v3`, `tcpx`, `tcpxo`,
    /// `rdma`, `tcp`); [`Fabric::parse`] reads it back.
    pub fn name(self) -> &'static str {
        match self {
            Fabric::Infiniband => "infiniband",
            Fabric::Roce => "roce",
            Fabric::Efa => "efa",
            Fabric::EfaV2 => "efa-v2",
            Fabric::EfaV3 => "efa-v3",
            Fabric::Tcpx => "tcpx",
            Fabric::Tcpxo => "tcpxo",
            Fabric::Rdma => "rdma",
            Fabric::Tcp => "tcp",
        }
    }

    /// A short human label.
    pub fn label(self) -> &'static str {
        match self {
            Fabric::Infiniband => "InfiniBand",
            Fabric::Roce => "RoCE",
            Fabric::Efa => "AWS EFA (p4d)",
            Fabric::EfaV2 => "AWS EFA v2 (p5)",
            Fabric::EfaV3 => "AWS EFA v3 (p5en, p6)",
            Fabric::Tcpx => "GCP GPUDirect-TCPX (A3 High)",
            Fabric::Tcpxo => "GCP GPUDirect-TCPXO (A3 Mega)",
            Fabric::Rdma => "other RDMA",
            Fabric::Tcp => "TCP/Ethernet (no RDMA)",
        }
    }

    /// Whether the fabric does RDMA, so that GPUDirect RDMA can apply. GCP's TCPX and TCPXO move GPU memory
    /// over TCP instead: neither GPUDirect RDMA nor the socket transport's limits apply to them.
    pub fn is_rdma(self) -> bool {
        !matches!(self, Fabric::Tcp | Fabric::Tcpx | Fabric::Tcpxo)
    }

    /// Whether the network path reads and writes GPU memory directly (GPUDirect RDMA when `gdr`, or GCP's
    /// GPUDirect-TCPX/TCPXO), which NCCL's LL128 protocol needs across nodes.
    pub fn gpu_direct(self, gdr: bool) -> bool {
        match self {
            Fabric::Tcp => false,
            Fabric::Tcpx | Fabric::Tcpxo => true,
            _ => gdr,
        }
    }

    /// How the network path reaches GPU memory, in words for the texts: GPUDirect RDMA on an RDMA fabric with
    /// `gdr`, host memory without it, GCP's GPUDirect-TCPX/TCPXO (GPU memory to the NIC over TCP: not RDMA), or
    /// NCCL's sockets through host memory on plain TCP.
    pub fn gpu_path(self, gdr: bool) -> &'static str {
        match self {
            Fabric::Tcp => "NCCL's TCP sockets, through host memory",
            Fabric::Tcpx => "GPUDirect-TCPX: GPU memory to the NIC over TCP, no RDMA",
            Fabric::Tcpxo => "GPUDirect-TCPXO: GPU memory to the NIC over TCP offloaded to the NIC, no RDMA",
            _ if gdr => "GPUDirect RDMA",
            _ => "no GPUDirect RDMA: through host memory",
        }
    }

    /// What turns GPUDirect RDMA on for this fabric, one step each; empty where it does not apply (TCP, and
    /// GCP's TCPX/TCPXO, which are not RDMA). Sources: NVIDIA's GPUDirect RDMA guide (`nvidia_peermem`, DMA-BUF
    /// from driver 515 and NCCL 2.13), NCCL's environment variables (`NCCL_NET_GDR_LEVEL`, `NCCL_IB_GID_INDEX`),
    /// aws-ofi-nccl's and AWS's EFA documentation (`FI_EFA_USE_DEVICE_RDMA=1` on p4d and later; EFA on g4dn and
    /// p3dn has no RDMA read, so no GPUDirect RDMA at all).
    pub fn gdr_fixes(self) -> &'static [&'static str] {
        match self {
            Fabric::Tcp | Fabric::Tcpx | Fabric::Tcpxo => &[],
            Fabric::Efa | Fabric::EfaV2 | Fabric::EfaV3 => &[
                "aws-ofi-nccl with FI_EFA_USE_DEVICE_RDMA=1 (p4d and later; EFA on g4dn and p3dn has no RDMA read \
                 and no GPUDirect RDMA)",
                "NCCL_DEBUG=INFO should print 'NET/OFI Selected Provider is efa' and channels via NET/AWS \
                 Libfabric/.../GDRDMA",
            ],
            Fabric::Roce => &[
                "load the peer-memory module: modprobe nvidia_peermem (or use DMA-BUF with a recent driver)",
                "NCCL_IB_GID_INDEX must name the RoCE v2 GID (probe-cli report shows it)",
                "NCCL_NET_GDR_LEVEL=PHB (or SYS) when GPUs are further from their NIC than NCCL's default allows",
            ],
            Fabric::Infiniband | Fabric::Rdma => &[
                "load the peer-memory module: modprobe nvidia_peermem (or use DMA-BUF with a recent driver)",
                "NCCL_NET_GDR_LEVEL=PHB (or SYS) when GPUs are further from their NIC than NCCL's default allows",
            ],
        }
    }

    /// What brings NCCL onto this fabric when it fell back to TCP sockets, one step each; empty on plain TCP.
    /// Sources: NCCL's environment variables (`NCCL_IB_DISABLE`, `NCCL_IB_HCA`, `NCCL_NET_PLUGIN`), aws-ofi-nccl
    /// (`FI_PROVIDER=efa`), GCP's GPUDirect-TCPX/TCPXO guides (GoogleCloudPlatform/container-engine-accelerators:
    /// the plugin and its receive-datapath daemon).
    pub fn fallback_fixes(self) -> &'static [&'static str] {
        match self {
            Fabric::Tcp => &[],
            Fabric::Infiniband | Fabric::Roce => &[
                "check NCCL_IB_DISABLE is unset and NCCL_IB_HCA names the adapters (ibv_devinfo)",
                "install the RDMA user-space provider (rdma-core, libibverbs) in the job's image",
                "NCCL_DEBUG=INFO should print 'NET/IB : Using [0]mlx5_0:1/IB ...' (or /RoCE), not 'NET/Socket'",
            ],
            Fabric::Efa | Fabric::EfaV2 | Fabric::EfaV3 => &[
                "install aws-ofi-nccl and libfabric's EFA provider (the EFA installer) in the job's image, on \
                 LD_LIBRARY_PATH",
                "FI_PROVIDER=efa; NCCL_DEBUG=INFO should print 'NET/OFI Selected Provider is efa' and 'Using network \
                 AWS Libfabric'",
            ],
            Fabric::Tcpx | Fabric::Tcpxo => &[
                "install GCP's GPUDirect-TCPX/TCPXO NCCL plugin and run its receive-datapath daemon on each node",
                "NCCL_NET_PLUGIN (or LD_LIBRARY_PATH) must reach the plugin's libnccl-net.so; NCCL_DEBUG=INFO names the \
                 plugin it loads",
            ],
            Fabric::Rdma => &[
                "install the fabric's NCCL net plugin (aws-ofi-nccl with the libfabric provider for HPE Slingshot: \
                 cxi) and point NCCL_NET_PLUGIN at it",
                "NCCL_DEBUG=INFO should name the plugin's network ('Using network AWS Libfabric'), not 'NET/Socket'",
            ],
        }
    }

    /// Whether NCCL runs LL128 across nodes on this fabric. GCP's TCPX setup pins `NCCL_PROTO=Simple`
    /// (GoogleCloudPlatform/container-engine-accelerators `gpudirect-tcpx/README.md`); TCPXO enables LL128 from
    /// installer v1.0.12 (`gpudirect-tcpxo/best-practice.md`).
    pub fn ll128(self, gdr: bool) -> bool {
        self != Fabric::Tcpx && self.gpu_direct(gdr)
    }

    /// Parses the names users type: the JSON names, and `ib`, `ethernet`, `socket`, `efa2`, `gpudirect-tcpxo`.
    pub fn parse(s: &str) -> Option<Fabric> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ib" | "infiniband" => Some(Fabric::Infiniband),
            "roce" | "rocev2" | "roce-v2" => Some(Fabric::Roce),
            "efa" | "aws-efa" | "efa-v1" | "efav1" => Some(Fabric::Efa),
            "efa-v2" | "efav2" | "efa2" => Some(Fabric::EfaV2),
            "efa-v3" | "efav3" | "efa3" => Some(Fabric::EfaV3),
            "tcpx" | "gpudirect-tcpx" => Some(Fabric::Tcpx),
            "tcpxo" | "gpudirect-tcpxo" | "fastrak" => Some(Fabric::Tcpxo),
            "rdma" | "other-rdma" | "slingshot" => Some(Fabric::Rdma),
            "tcp" | "ethernet" | "eth" | "socket" | "sockets" => Some(Fabric::Tcp),
            _ => None,
        }
    }

    /// The line rates one adapter of this class is sold at, Gb/s, slowest first: what the fabric ladder of the
    /// recommendation offers ([`crate::recommend::smallest_fabric`]).
    ///
    /// - InfiniBand: EDR 100, HDR 200, NDR 400, XDR 800 Gb/s per 4x port (InfiniBand Trade Association roadmap;
    ///   ConnectX-5/6/7 and ConnectX-8). There is no 25 or 50 Gb/s generation in use.
    /// - RoCE and plain Ethernet: 25, 50, 100, 200 and 400 GbE (IEEE 802.3by, 802.3cd, 802.3bj, 802.3bs); the
    ///   per-GPU RoCE NICs of 2024-2026 rentals stop at 400 GbE (ConnectX-7, BlueField-3 SuperNIC of Spectrum-X).
    /// - AWS EFA: 100 Gb/s per network card on p4d (EFA v1) and p5 (v2: 32 cards, 3,200 Gb/s, AWS "Maximize
    ///   network bandwidth" p5-efa page), 200 on p5en and 400 on p6-b200 (v3; AWS EC2 accelerated computing
    ///   instance pages).
    /// - GCP GPUDirect-TCPX and TCPXO: 200 Gb/s per GPU NIC (GKE "gpu-bandwidth-gpudirect-tcpx" page: up to 4
    ///   secondary NICs of 200 Gbps on A3 High; 8 on A3 Mega, GCP "gpu-network-bandwidth" page).
    /// - Other RDMA (HPE Slingshot 200 Gb/s, plugins): 100, 200, 400.
    pub fn line_rates_gbps(self) -> &'static [f64] {
        match self {
            Fabric::Infiniband => &[100.0, 200.0, 400.0, 800.0],
            Fabric::Roce | Fabric::Tcp => &[25.0, 50.0, 100.0, 200.0, 400.0],
            Fabric::Efa | Fabric::EfaV2 => &[100.0],
            Fabric::EfaV3 => &[200.0, 400.0],
            Fabric::Tcpx | Fabric::Tcpxo => &[200.0],
            Fabric::Rdma => &[100.0, 200.0, 400.0],
        }
    }

    /// Large-message all-reduce bus bandwidth per adapter as a share of its line rate (the prior's).
    pub fn efficiency(self) -> f64 {
        // Field by field, so that a binary which never asks for `prior()` (the page) leaves out the sources.
        match self {
            Fabric::Infiniband => INFINIBAND.efficiency,
            Fabric::Roce => ROCE.efficiency,
            Fabric::Efa => EFA.efficiency,
            Fabric::EfaV2 => EFA_V2.efficiency,
            Fabric::EfaV3 => EFA_V3.efficiency,
            Fabric::Tcpx => TCPX.efficiency,
            Fabric::Tcpxo => TCPXO.efficiency,
            Fabric::Rdma => OTHER_RDMA.efficiency,
            Fabric::Tcp => TCP.efficiency,
        }
    }

    /// The latency floor of one small all-reduce across two nodes, in microseconds (the prior's).
    pub fn latency_us(self) -> f64 {
        match self {
            Fabric::Infiniband => INFINIBAND.latency_us,
            Fabric::Roce => ROCE.latency_us,
            Fabric::Efa => EFA.latency_us,
            Fabric::EfaV2 => EFA_V2.latency_us,
            Fabric::EfaV3 => EFA_V3.latency_us,
            Fabric::Tcpx => TCPX.latency_us,
            Fabric::Tcpxo => TCPXO.latency_us,
            Fabric::Rdma => OTHER_RDMA.latency_us,
            Fabric::Tcp => TCP.latency_us,
        }
    }

    /// The prior for this fabric class, with its sources.
    pub fn prior(self) -> &'static FabricPrior {
        match self {
            Fabric::Infiniband => &INFINIBAND,
            Fabric::Roce => &ROCE,
            Fabric::Efa => &EFA,
            Fabric::EfaV2 => &EFA_V2,
            Fabric::EfaV3 => &EFA_V3,
            Fabric::Tcpx => &TCPX,
            Fabric::Tcpxo => &TCPXO,
            Fabric::Rdma => &OTHER_RDMA,
            Fabric::Tcp => &TCP,
        }
    }
}

/// What a healthy fabric of one class achieves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FabricPrior {
    /// Large-message all-reduce bus bandwidth per adapter as a share of its line rate, with GPUDirect RDMA.
    pub efficiency: f64,
    /// Latency floor of one small all-reduce across two nodes, in microseconds.
    pub latency_us: f64,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// InfiniBand.
pub static INFINIBAND: FabricPrior = FabricPrior {
    efficiency: 0.96,
    latency_us: 25.0,
    source: "efficiency: NCCL maintainers, '24GB/s is the peak performance per 200G NIC' (nccl-tests#119), \
             '8x200Gbit/s IB ... 192GB/s AllReduce BusBW' (nccl#812), 'NDR @ 400Gbps ... 46-48GB/s per NIC' \
             (nccl-tests#290); latency: ~25 us small-message floor on 2-node H100 NDR (nccl-tests#309 raw table)",
};

/// RoCE v2.
pub static ROCE: FabricPrior = FabricPrior {
    efficiency: 0.92,
    latency_us: 35.0,
    source: "efficiency: Ring runs on RoCE in the calibration set reach 0.88-0.96 of line rate (OCI A100 16x100G \
             0.96, AMD MI355X Pollara 400G 0.92, MI325X Thor2 0.88 if 400G); the middle is taken. Latency: ~35 us \
             floor on OCI A100 RoCE (oracle-quickstart/oci-hpc-oke nccl-tests table, 8 B: 34.7-36.5 us)",
};

/// AWS EFA, first generation (p4d, p4de).
pub static EFA: FabricPrior = FabricPrior {
    efficiency: 0.63,
    latency_us: 167.0,
    source: "efficiency: p4d/p4dn 4x100G EFA reach 0.59-0.65 of line rate on 3-4 nodes (NVIDIA/nccl#527, \
             aws-samples/aws-efa-eks, NCCL 2.8-2.9 with aws-ofi-nccl); latency: 167 us floor (aws-efa-eks raw table), \
             164.3 us on 2x p4de (aws-samples/awsome-distributed-training micro-benchmarks/nccl-tests README); \
             aws-ofi-nccl itself reports 75 us per network hop to NCCL for p4d (src/platform-aws.cpp). Newer \
             aws-ofi-nccl releases are faster: override link_efficiency where you have a measurement",
};

/// AWS EFA v2 (p5, p5e).
pub static EFA_V2: FabricPrior = FabricPrior {
    efficiency: 0.70,
    latency_us: 69.1,
    source: "efficiency: 8x p5 (32x100G EFA), 4 GiB all_reduce 279.78 GB/s busbw of 400 GB/s, NCCL 2.19 \
             (NVIDIA/nccl PR #1112); latency: 69.12 us for 8 B on 2x p5.48xlarge \
             (aws-samples/awsome-distributed-training micro-benchmarks/nccl-tests README, commit 0162aac)",
};

/// AWS EFA v3 (p5en, p6-b200).
pub static EFA_V3: FabricPrior = FabricPrior {
    efficiency: 0.70,
    latency_us: 50.6,
    source: "efficiency: no public large-message p5en/p6 run was found; EFA v2's 0.70 (NVIDIA/nccl PR #1112) is \
             assumed: override link_efficiency with a measurement. Latency: 50.58 us for 8 B on 2x p6-b200 \
             (dstackai/dstack PR #3961); aws-ofi-nccl reports 35 us per hop for p5en and p6 against 75 for p5 \
             (src/platform-aws.cpp)",
};

/// GCP GPUDirect-TCPX (A3 High).
pub static TCPX: FabricPrior = FabricPrior {
    efficiency: 0.50,
    latency_us: 135.8,
    source: "efficiency: 2x a3-highgpu-8g all_gather 50.17 GB/s busbw at 8 GiB over 4x200G (dstackai/dstack \
             examples/clusters/a3high README); latency: no public small-message TCPX run was found, so TCPXO's \
             floor is assumed (the TCPX plugin, like TCPXO's, reports no latency of its own to NCCL: \
             google/nccl-plugin-gpudirecttcpx src/net_tcpx.cc)",
};

/// GCP GPUDirect-TCPXO (A3 Mega).
pub static TCPXO: FabricPrior = FabricPrior {
    efficiency: 0.94,
    latency_us: 135.8,
    source: "efficiency: 2x a3-megagpu-8g all_gather 188.54 GB/s busbw at 8 GiB over 8x200G (dstackai/dstack \
             examples/clusters/a3mega README; 188.82 in MG-Cafe/TCPXO-Enabled-A3-Mega-H100-Benchmarks, NCCL \
             2.28.7); latency: 135.8 us for an 8 B all_reduce out of place on 2 A3 Mega nodes \
             (lessizzmore/create-a3mega-ztan-fork ztan-NCCL-test-result)",
};

/// Other RDMA or GPU-direct fabrics through a net plugin.
pub static OTHER_RDMA: FabricPrior = FabricPrior {
    efficiency: 0.85,
    latency_us: 20.0,
    source: "efficiency: an assumption, 0.85, inside the 0.6-0.9 of line rate taken as usual for plugin fabrics (0.6 \
             is AWS EFA's, NVIDIA/nccl#527); no public Ring or 3-node run on one (Slingshot via aws-ofi-nccl, \
             GPUDirect-TCPXO) sets it. Latency: 17.5 us floor on CSCS Alps GH200 Slingshot (eth-cscs/cscs-docs)",
};

/// TCP sockets.
pub static TCP: FabricPrior = FabricPrior {
    efficiency: 0.90,
    latency_us: 50.0,
    source: "efficiency: TCP reaches about 90% of an Ethernet link's rate (frame, IP and TCP headers); latency: \
             ~50 us floor of NCCL's socket transport (CSCS Alps TCP fallback raw table). Throughput is capped at \
             TCP_SOCKET_CAP_GBYTE_PER_S per node whatever the link speed",
};

/// What NCCL's socket transport moves per node at best, whatever the link speed. Source: CSCS Alps GH200, the
/// same 4x200G Slingshot nodes reach 5.53 GB/s busbw through NCCL's socket fallback against 122.6 GB/s with the
/// RDMA plugin (eth-cscs/cscs-docs, image-nccl-tests.md, in the project's shared data); the cap is fitted to that
/// run. Public all-reduce runs over sockets on 100 GbE agree: "the bus can sustain around 6GB/s" on 2 x 8 V100
/// p3dn.24xlarge over ENA, NCCL 2.4.8 (NVIDIA/nccl#398), and "the best performance (bus-bw) is between 4~6GB/s" on
/// 4 x 8 V100 over a 100 Gb/s TCP network (NVIDIA/nccl#450); none faster on 200 or 400 GbE was found.
pub const TCP_SOCKET_CAP_GBYTE_PER_S: f64 = 5.5;

/// The slowest all-reduce bus bandwidth NCCL's sockets are known to give between healthy nodes, GB/s: the socket
/// fallback's slow end, where an old stack, an untuned interface or IPoIB in datagram mode carries the traffic.
/// Source: NVIDIA Base Command Manager 11 Administrator Manual, section 7.3 (pp. 341-342): all_reduce_perf on 2
/// nodes x 1 V100 with `NCCL_IB_DISABLE=1` ("Using network Socket", NCCL 2.11.4, default socket threads), 0.72
/// GB/s busbw out of place at 4 GiB ("# Avg bus bandwidth : 0.810575"). Beside it, slower than 10 GbE's line
/// rate on faster links: 1.40 GB/s at 128 MiB over 100 Gb/s TCP with 2 socket threads (NVIDIA/nccl#450), 1.45
/// to 1.95 GB/s over 32 GbE with NCCL 2.4.2 (NVIDIA/nccl#209), 1.7 GB/s at most over 25 Gb/s Azure VMs
/// (NVIDIA/nccl-tests#83).
pub const SLOWEST_SOCKET_BUSBW_GBYTE_PER_S: f64 = 0.72;

/// The most one adapter moves when GPUDirect RDMA is off. Without GDR each byte goes GPU -> host memory -> NIC:
/// it crosses the PCIe switch's upstream link twice, in both directions, so a GPU/NIC pair under one switch gets
/// at most half of the GPU's PCIe x16 bandwidth. Source: NCCL's PCIe bandwidths (`src/graph/topo.cc`) and its
/// GPUDirect RDMA rules (`src/graph/paths.cc`).
pub fn no_gdr_adapter_cap(pcie_gen: u8) -> GbytePerSec {
    GbytePerSec::new(pcie_x16_gbyte_per_s(pcie_gen) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_json_names_and_parse_back() {
        for f in Fabric::ALL {
            assert_eq!(Fabric::parse(f.name()), Some(f));
            assert_eq!(serde_json::to_value(f).expect("ser"), serde_json::json!(f.name()));
        }
    }

    #[test]
    fn names_users_type() {
        for (s, f) in [
            ("ib", Fabric::Infiniband),
            ("InfiniBand", Fabric::Infiniband),
            ("roce", Fabric::Roce),
            ("efa", Fabric::Efa),
            ("EFA-v2", Fabric::EfaV2),
            ("efa3", Fabric::EfaV3),
            ("gpudirect-tcpxo", Fabric::Tcpxo),
            ("tcpx", Fabric::Tcpx),
            ("rdma", Fabric::Rdma),
            ("tcp", Fabric::Tcp),
            (" ethernet ", Fabric::Tcp),
        ] {
            assert_eq!(Fabric::parse(s), Some(f), "{s}");
        }
        assert_eq!(Fabric::parse("carrier-pigeon"), None);
    }

    #[test]
    fn priors_are_shares_of_line_rate() {
        for f in Fabric::ALL {
            let p = f.prior();
            assert!(p.efficiency > 0.0 && p.efficiency <= 1.0);
            assert!(p.latency_us > 0.0);
        }
        assert_eq!(no_gdr_adapter_cap(5).get(), 24.0);
    }
}
