//! The rental presets of the form: common node shapes, each from its vendor's published configuration.

use estimator_core::Fabric;

/// A common rental: GPUs and fabric of one node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// Stable id (select value).
    pub id: &'static str,
    /// What the menu says.
    pub label: &'static str,
    /// Catalog GPU key.
    pub gpu: &'static str,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// Adapters per node.
    pub adapters: u32,
    /// Line rate per adapter, Gb/s.
    pub link_gbps: f64,
    /// Fabric.
    pub fabric: Fabric,
    /// GPUDirect RDMA.
    pub gdr: bool,
    /// Where the node's configuration comes from.
    pub source: &'static str,
}

/// Common rentals, each from its vendor's published configuration.
pub const PRESETS: [Preset; 11] = [
    Preset {
        id: "h100-ib",
        label: "8× H100 SXM, 8× 400G InfiniBand",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        adapters: 8,
        link_gbps: 400.0,
        fabric: Fabric::Infiniband,
        gdr: true,
        source: "NVIDIA DGX H100 datasheet: 8x ConnectX-7, 400 Gb/s InfiniBand each",
    },
    Preset {
        id: "h100-25g",
        label: "8× H100 SXM, 1× 25 GbE (no RDMA)",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        adapters: 1,
        link_gbps: 25.0,
        fabric: Fabric::Tcp,
        gdr: false,
        source: "a bare-metal or VM rental with one 25 GbE port and no RDMA (common on low-cost GPU clouds)",
    },
    Preset {
        id: "h200-ib",
        label: "8× H200, 8× 400G InfiniBand",
        gpu: "h200",
        gpus_per_node: 8,
        adapters: 8,
        link_gbps: 400.0,
        fabric: Fabric::Infiniband,
        gdr: true,
        source: "NVIDIA HGX H200 reference: 8x ConnectX-7 400 Gb/s",
    },
    Preset {
        id: "b200-ib",
        label: "8× B200, 8× 400G InfiniBand",
        gpu: "b200",
        gpus_per_node: 8,
        adapters: 8,
        link_gbps: 400.0,
        fabric: Fabric::Infiniband,
        gdr: true,
        source: "NVIDIA DGX B200 datasheet: 8x single-port ConnectX-7, up to 400 Gb/s",
    },
    Preset {
        id: "a100-ib",
        label: "8× A100 80GB, 8× 200G InfiniBand",
        gpu: "a100-sxm4-80gb",
        gpus_per_node: 8,
        adapters: 8,
        link_gbps: 200.0,
        fabric: Fabric::Infiniband,
        gdr: true,
        source: "NVIDIA DGX A100 datasheet: 8x single-port ConnectX-6, 200 Gb/s HDR InfiniBand",
    },
    Preset {
        id: "a100-25g",
        label: "8× A100 80GB, 1× 25 GbE (no RDMA)",
        gpu: "a100-sxm4-80gb",
        gpus_per_node: 8,
        adapters: 1,
        link_gbps: 25.0,
        fabric: Fabric::Tcp,
        gdr: false,
        source: "a rental with one 25 GbE port and no RDMA",
    },
    Preset {
        id: "p5-efa",
        label: "AWS p5.48xlarge: 8× H100, 32× 100G EFA v2",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        adapters: 32,
        link_gbps: 100.0,
        fabric: Fabric::EfaV2,
        gdr: true,
        source: "AWS EC2 P5 instance page: 3200 Gbps of EFAv2 networking (32 network cards)",
    },
    Preset {
        id: "p4d-efa",
        label: "AWS p4d.24xlarge: 8× A100 40GB, 4× 100G EFA",
        gpu: "a100-sxm4-40gb",
        gpus_per_node: 8,
        adapters: 4,
        link_gbps: 100.0,
        fabric: Fabric::Efa,
        gdr: true,
        source: "AWS EC2 P4d instance page: 400 Gbps EFA networking (4x 100 Gbps)",
    },
    Preset {
        id: "a3-high-tcpx",
        label: "GCP a3-highgpu-8g: 8× H100, 4× 200G GPUDirect-TCPX",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        adapters: 4,
        link_gbps: 200.0,
        fabric: Fabric::Tcpx,
        gdr: true,
        source: "GKE GPUDirect-TCPX page: up to 4 secondary NICs of 200 Gbps for GPU traffic on A3 High",
    },
    Preset {
        id: "a3-mega-tcpxo",
        label: "GCP a3-megagpu-8g: 8× H100, 8× 200G GPUDirect-TCPXO",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        adapters: 8,
        link_gbps: 200.0,
        fabric: Fabric::Tcpxo,
        gdr: true,
        source: "GCP GPU network bandwidth page: A3 Mega 1,800 Gbps, an 8+1 NIC arrangement (8x 200 Gbps for GPUs)",
    },
    Preset {
        id: "mi300x-roce",
        label: "8× MI300X, 8× 400G RoCE",
        gpu: "mi300x",
        gpus_per_node: 8,
        adapters: 8,
        link_gbps: 400.0,
        fabric: Fabric::Roce,
        gdr: true,
        source: "AMD Instinct MI300X platform: one 400 GbE RDMA NIC per GPU (8 per node)",
    },
];
