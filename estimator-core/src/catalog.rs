//! The GPU catalog: memory, peak dense BF16 compute, the intra-node fabric and what an all-reduce achieves on it.
//!
//! Every number cites its source in the entry's `source` text. Two kinds of source appear:
//! - a vendor datasheet (memory, TFLOP/s, link bandwidth), and
//! - a public nccl-tests/rccl-tests measurement of the achievable all-reduce bus bandwidth, or, where none is
//!   public, a derivation from the link bandwidth with an efficiency that is itself sourced (see [`NVLINK_RING_EFFICIENCY`],
//!   [`PCIE_P2P_EFFICIENCY`]).
//!
//! Names are matched loosely: case, spaces, dashes and the "NVIDIA"/"Tesla" prefixes do not matter, so the names NVML
//! reports ("NVIDIA H100 80GB HBM3", "Tesla P40") and short names ("h100", "MI300X") both resolve.

use serde::{Deserialize, Serialize};

use crate::units::{Bytes, GbytePerSec, TflopPerSec};

/// The GPU maker, which decides the collective library (NCCL or RCCL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// NVIDIA (NCCL).
    Nvidia,
    /// AMD (RCCL).
    Amd,
    /// Unknown maker.
    Unknown,
}

/// How the GPUs inside one node talk to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntraNodeLink {
    /// NVLink through NVSwitch (HGX/DGX boards): every GPU reaches every other at full NVLink bandwidth.
    Nvswitch,
    /// Direct NVLink without a switch: bridge pairs (A40, A100 PCIe, H100 PCIe) or meshes (DGX-1, GH200 nodes).
    Nvlink,
    /// AMD Infinity Fabric (xGMI) mesh between OAM modules.
    Xgmi,
    /// PCIe with peer-to-peer transfers between GPUs.
    Pcie,
    /// PCIe without peer-to-peer (unsupported, or `NCCL_P2P_DISABLE=1`): every transfer is staged in host memory.
    PcieHostStaged,
}

impl IntraNodeLink {
    /// A short human label.
    pub fn label(self) -> &'static str {
        match self {
            IntraNodeLink::Nvswitch => "NVLink/NVSwitch",
            IntraNodeLink::Nvlink => "NVLink (no switch)",
            IntraNodeLink::Xgmi => "Infinity Fabric (xGMI)",
            IntraNodeLink::Pcie => "PCIe peer-to-peer",
            IntraNodeLink::PcieHostStaged => "PCIe, staged in host memory (no P2P)",
        }
    }
}

/// One GPU model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuSpec {
    /// Stable identifier, used in URLs and JSON (e.g. `h100-sxm`).
    pub key: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Maker.
    pub vendor: Vendor,
    /// The names NVML (`nvidia-smi --query-gpu=name`) or `rocm-smi` report for this model.
    pub reported_names: &'static [&'static str],
    /// Memory per GPU in GiB, as the board is sold (an "80GB" H100 has 80 GiB of HBM).
    pub memory_gib: f64,
    /// Peak dense (no sparsity) BF16 tensor throughput; for parts without BF16 (V100, P40) the closest
    /// training precision, as the source says.
    pub bf16_dense_tflops: TflopPerSec,
    /// The usual intra-node fabric for this model.
    pub intra_node: IntraNodeLink,
    /// Unidirectional NVLink (or xGMI) bandwidth per GPU in GB/s, if the model has such links.
    pub gpu_link_gbyte_per_s: Option<f64>,
    /// PCIe generation of the GPU's host link (3, 4, 5).
    pub pcie_gen: u8,
    /// Large-message all-reduce bus bandwidth on one node over the default fabric, best algorithm (NVLS on
    /// Hopper/Blackwell NVSwitch boards).
    pub allreduce_busbw: GbytePerSec,
    /// The same with the Ring algorithm, which is what the intra-node hops of a multi-node ring run.
    pub ring_busbw: GbytePerSec,
    /// Where the numbers come from.
    pub source: &'static str,
    /// Lower-case alphanumeric fragments that identify the model inside a reported name. Checked in catalog order,
    /// so more specific models come first.
    #[serde(skip)]
    patterns: &'static [&'static str],
}

impl GpuSpec {
    /// Memory per GPU.
    pub fn memory(&self) -> Bytes {
        Bytes::gib(self.memory_gib)
    }
}

/// Ring all-reduce bus bandwidth as a share of the unidirectional NVLink bandwidth. Source: NCCL maintainer,
/// NVIDIA/nccl#1455: H100 Ring "about 80% of 450GBps"; nccl-tests#309 measured 368.76 GB/s with NVLS off (0.82).
pub const NVLINK_RING_EFFICIENCY: f64 = 0.80;

/// PCIe peer-to-peer all-reduce bus bandwidth as a share of the PCIe x16 bandwidth NCCL assumes (`width*speed/80`
/// in NCCL's `src/graph/topo.cc`: Gen3 12, Gen4 24, Gen5 48 GB/s). Source: NVIDIA/nccl#1639, 8x RTX 5090 on PCIe 5.0
/// reach 28 GB/s of 48 (0.58); the maintainer says PCIe results are bounded by CPU and memory bandwidth.
pub const PCIE_P2P_EFFICIENCY: f64 = 0.58;

/// All-reduce bus bandwidth when peer-to-peer is off and every transfer is staged through host memory. Source:
/// eugenesiow/LLM-Insights (NCCL 2.16): 3.6-4.0 GB/s on an A40 pair and 5.2 GB/s on a DGX A100 with
/// `NCCL_P2P_DISABLE=1`; this is the middle of that range.
pub const HOST_STAGED_BUSBW_GBYTE_PER_S: f64 = 4.5;

/// NVLS (NVLink SHARP) all-reduce bus bandwidth over the unidirectional NVLink bandwidth, measured on H100:
/// 470 of 450 GB/s (nccl-tests#290, maintainer: "476GB/s looks to be in the expected range for H100").
const NVLS_OVER_LINK_HOPPER: f64 = 470.0 / 450.0;
/// NCCL's `nvlsEfficiency` (src/graph/tuning.cc): Hopper 0.85, Blackwell 0.74. Used to carry the Hopper
/// measurement over to Blackwell.
const NVLS_BLACKWELL_OVER_HOPPER: f64 = 0.74 / 0.85;

/// The PCIe x16 bandwidth NCCL assumes for a generation, GB/s (`src/graph/topo.cc`: width * speed / 80).
pub fn pcie_x16_gbyte_per_s(generation: u8) -> f64 {
    match generation {
        0..=3 => 12.0,
        4 => 24.0,
        5 => 48.0,
        _ => 96.0,
    }
}

const fn bw(gbyte_per_s: f64) -> GbytePerSec {
    GbytePerSec::new(gbyte_per_s)
}

const fn tf(tflops: f64) -> TflopPerSec {
    TflopPerSec::new(tflops)
}

/// PCIe peer-to-peer bus bandwidth for a generation (see [`PCIE_P2P_EFFICIENCY`]).
fn pcie_p2p(generation: u8) -> f64 {
    pcie_x16_gbyte_per_s(generation) * PCIE_P2P_EFFICIENCY
}

/// The catalog, most specific patterns first. Numbers in `source` are per GPU.
pub static GPUS: &[GpuSpec] = &[
    GpuSpec {
        key: "v100-sxm2-16gb",
        name: "V100 SXM2 16GB",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla V100-SXM2-16GB"],
        memory_gib: 16.0,
        bf16_dense_tflops: tf(125.0),
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(150.0),
        pcie_gen: 3,
        allreduce_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        source: "NVIDIA V100 datasheet: 16 GB HBM2, 125 TFLOP/s FP16 tensor (no BF16 on Volta), NVLink2 300 GB/s \
                 bidirectional (150 one way); busbw derived as 150 x 0.80 (NVLINK_RING_EFFICIENCY)",
        patterns: &["v100sxm216"],
    },
    GpuSpec {
        key: "v100-pcie",
        name: "V100 PCIe 32GB",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla V100-PCIE-32GB", "Tesla V100-PCIE-16GB", "Tesla V100S-PCIE-32GB"],
        memory_gib: 32.0,
        bf16_dense_tflops: tf(112.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 3,
        allreduce_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA V100 datasheet: 32 GB HBM2, 112 TFLOP/s FP16 tensor (PCIe); busbw derived from PCIe Gen3 x16 \
                 12 GB/s x 0.58 (PCIE_P2P_EFFICIENCY)",
        patterns: &["v100pcie", "v100s"],
    },
    GpuSpec {
        key: "v100-sxm2-32gb",
        name: "V100 SXM2 32GB",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla V100-SXM2-32GB"],
        memory_gib: 32.0,
        bf16_dense_tflops: tf(125.0),
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(150.0),
        pcie_gen: 3,
        allreduce_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        source: "NVIDIA V100 datasheet: 32 GB HBM2, 125 TFLOP/s FP16 tensor (no BF16 on Volta), NVLink2 150 GB/s one \
                 way; busbw derived as 150 x 0.80 (NVLINK_RING_EFFICIENCY)",
        patterns: &["v100"],
    },
    GpuSpec {
        key: "p40",
        name: "Tesla P40",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla P40"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(11.76),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 3,
        allreduce_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA Tesla P40 datasheet: 24 GB GDDR5, 11.76 TFLOP/s FP32 (no tensor cores, no fast BF16/FP16); busbw \
                 derived from PCIe Gen3 x16 12 GB/s x 0.58",
        patterns: &["p40"],
    },
    GpuSpec {
        key: "a10g",
        name: "A10G",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A10G"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(70.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        source: "AWS EC2 G5 / Baseten 'A10 vs A10G': 24 GB GDDR6, 70 TFLOP/s BF16 tensor (the A10 datasheet's 125 is \
                 the A10, not AWS's A10G); busbw derived from PCIe Gen4 x16 24 GB/s x 0.58",
        patterns: &["a10g"],
    },
    GpuSpec {
        key: "a40",
        name: "A40",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A40"],
        memory_gib: 48.0,
        bf16_dense_tflops: tf(149.7),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(56.25),
        pcie_gen: 4,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA A40 datasheet: 48 GB GDDR6, 149.7 TFLOP/s BF16 dense, optional NVLink bridge 112.5 GB/s \
                 bidirectional (56.25 one way); busbw derived from PCIe Gen4 x16 24 GB/s x 0.58",
        patterns: &["a40"],
    },
    GpuSpec {
        key: "a100-pcie-80gb",
        name: "A100 PCIe 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100 80GB PCIe"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(312.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA A100 datasheet: 80 GB HBM2e, 312 TFLOP/s BF16 dense, NVLink bridge 600 GB/s bidirectional; \
                 busbw derived from PCIe Gen4 x16 24 GB/s x 0.58",
        patterns: &["a10080gbpcie", "a100pcie80"],
    },
    GpuSpec {
        key: "a100-pcie-40gb",
        name: "A100 PCIe 40GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100-PCIE-40GB"],
        memory_gib: 40.0,
        bf16_dense_tflops: tf(312.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA A100 datasheet: 40 GB HBM2, 312 TFLOP/s BF16 dense; busbw derived from PCIe Gen4 x16 \
                 24 GB/s x 0.58",
        patterns: &["a100pcie"],
    },
    GpuSpec {
        key: "a100-sxm4-80gb",
        name: "A100 SXM4 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100-SXM4-80GB"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(312.0),
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        allreduce_busbw: bw(230.0),
        ring_busbw: bw(230.0),
        source: "NVIDIA A100 datasheet: 80 GB HBM2e, 312 TFLOP/s BF16 dense, NVLink3 600 GB/s bidirectional; busbw \
                 measured: 230.77 GB/s on 8x A100 p4dn (NVIDIA/nccl#527), 234.7 on DGX A100 (eugenesiow/LLM-Insights)",
        patterns: &["a100sxm480", "a10080gb", "a100sxm80"],
    },
    GpuSpec {
        key: "a100-sxm4-40gb",
        name: "A100 SXM4 40GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100-SXM4-40GB"],
        memory_gib: 40.0,
        bf16_dense_tflops: tf(312.0),
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        allreduce_busbw: bw(230.0),
        ring_busbw: bw(230.0),
        source: "NVIDIA A100 datasheet: 40 GB HBM2, 312 TFLOP/s BF16 dense; busbw measured 230.77 GB/s on 8x A100 \
                 (NVIDIA/nccl#527)",
        patterns: &["a100"],
    },
    GpuSpec {
        key: "l40s",
        name: "L40S",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA L40S"],
        memory_gib: 48.0,
        bf16_dense_tflops: tf(362.05),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA L40S datasheet: 48 GB GDDR6, 362.05 TFLOP/s BF16 dense (733 with sparsity); busbw derived \
                 from PCIe Gen4 x16 24 GB/s x 0.58",
        patterns: &["l40s"],
    },
    GpuSpec {
        key: "l4",
        name: "L4",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA L4"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(121.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA L4 datasheet: 24 GB GDDR6, 242 TFLOP/s BF16 with sparsity (121 dense); busbw derived from \
                 PCIe Gen4 x16 24 GB/s x 0.58",
        // Not the bare fragment "l4": it is inside "L40", a different board (48 GB, 181 TFLOP/s).
        patterns: &["l424gb"],
    },
    GpuSpec {
        key: "h100-pcie",
        name: "H100 PCIe",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H100 PCIe"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(756.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 5,
        allreduce_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA H100 datasheet: 80 GB HBM2e, 1513 TFLOP/s BF16 with sparsity (756 dense), NVLink bridge \
                 600 GB/s bidirectional; busbw derived from PCIe Gen5 x16 48 GB/s x 0.58",
        patterns: &["h100pcie"],
    },
    GpuSpec {
        key: "h100-nvl",
        name: "H100 NVL",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H100 NVL"],
        memory_gib: 94.0,
        bf16_dense_tflops: tf(835.0),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 5,
        allreduce_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        source: "NVIDIA H100 datasheet: H100 NVL 94 GB HBM3, 1671 TFLOP/s BF16 with sparsity (835 dense), NVLink \
                 bridge 600 GB/s bidirectional; busbw derived from PCIe Gen5 x16 48 GB/s x 0.58",
        patterns: &["h100nvl"],
    },
    GpuSpec {
        key: "gh200-144gb",
        name: "GH200 144GB HBM3e",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GH200 144G HBM3e"],
        memory_gib: 144.0,
        bf16_dense_tflops: tf(989.0),
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        allreduce_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        source: "NVIDIA GH200 datasheet: 144 GB HBM3e, 989 TFLOP/s BF16 dense, NVLink4 900 GB/s bidirectional; busbw \
                 derived as 450 x 0.80 (no NVSwitch in multi-GH200 nodes, so no NVLS)",
        patterns: &["gh200144", "gh200hbm3e"],
    },
    GpuSpec {
        key: "gh200",
        name: "GH200 96GB HBM3",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GH200 480GB", "NVIDIA GH200 120GB"],
        memory_gib: 96.0,
        bf16_dense_tflops: tf(989.0),
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        allreduce_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        source: "NVIDIA GH200 datasheet: 96 GB HBM3 (480 GB superchip with LPDDR5X), 989 TFLOP/s BF16 dense, NVLink4 \
                 900 GB/s bidirectional; busbw derived as 450 x 0.80 (no NVSwitch, so no NVLS)",
        patterns: &["gh200"],
    },
    GpuSpec {
        key: "h200",
        name: "H200",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H200", "NVIDIA H200 NVL"],
        memory_gib: 141.0,
        bf16_dense_tflops: tf(989.0),
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        allreduce_busbw: bw(470.0),
        ring_busbw: bw(369.0),
        source: "NVIDIA H200 datasheet: 141 GB HBM3e, 989 TFLOP/s BF16 dense, NVLink4 900 GB/s bidirectional, the same \
                 NVSwitch board as H100 SXM, so the H100 measurements apply: 470 GB/s NVLS (nccl-tests#290), 369 Ring \
                 (nccl-tests#309)",
        patterns: &["h200"],
    },
    GpuSpec {
        key: "h100-sxm",
        name: "H100 SXM5 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H100 80GB HBM3"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(989.0),
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        allreduce_busbw: bw(470.0),
        ring_busbw: bw(369.0),
        source: "NVIDIA H100 datasheet: 80 GB HBM3, 989 TFLOP/s BF16 dense (1979 with sparsity), NVLink4 900 GB/s \
                 bidirectional; busbw measured: 468-482 GB/s with NVLS (nccl-tests#290, #309), 368.76 GB/s Ring with \
                 NCCL_NVLS_ENABLE=0 (nccl-tests#309)",
        patterns: &["h100"],
    },
    GpuSpec {
        key: "b200",
        name: "B200",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA B200"],
        memory_gib: 180.0,
        bf16_dense_tflops: tf(2250.0),
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(900.0),
        pcie_gen: 6,
        allreduce_busbw: bw(900.0 * NVLS_OVER_LINK_HOPPER * NVLS_BLACKWELL_OVER_HOPPER),
        ring_busbw: bw(900.0 * NVLINK_RING_EFFICIENCY),
        source: "NVIDIA HGX B200 specification (1000 W): 180 GB HBM3e, 2250 TFLOP/s BF16 dense, NVLink5 1800 GB/s \
                 bidirectional; no public busbw in the calibration set, so derived: NVLS = 900 x (470/450 measured on \
                 H100) x (0.74/0.85, NCCL's Blackwell/Hopper nvlsEfficiency) = 818, Ring = 900 x 0.80 = 720",
        patterns: &["b200"],
    },
    GpuSpec {
        key: "rtx-5090",
        name: "GeForce RTX 5090",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GeForce RTX 5090"],
        memory_gib: 32.0,
        bf16_dense_tflops: tf(209.5),
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 5,
        allreduce_busbw: bw(28.0),
        ring_busbw: bw(28.0),
        source: "NVIDIA Blackwell GeForce whitepaper: 32 GB GDDR7, 209.5 TFLOP/s BF16 dense (FP32 accumulate); busbw \
                 measured 28 GB/s on 8 GPUs over PCIe 5.0 (NVIDIA/nccl#1639)",
        patterns: &["5090"],
    },
    GpuSpec {
        key: "rtx-4090",
        name: "GeForce RTX 4090",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GeForce RTX 4090"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(165.2),
        intra_node: IntraNodeLink::PcieHostStaged,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        allreduce_busbw: bw(HOST_STAGED_BUSBW_GBYTE_PER_S),
        ring_busbw: bw(HOST_STAGED_BUSBW_GBYTE_PER_S),
        source: "NVIDIA Ada whitepaper: 24 GB GDDR6X, 165.2 TFLOP/s BF16 dense (FP32 accumulate); GeForce Ada has no \
                 GPU peer-to-peer, so transfers are host-staged (HOST_STAGED_BUSBW_GBYTE_PER_S)",
        patterns: &["4090"],
    },
    GpuSpec {
        key: "mi355x",
        name: "Instinct MI355X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI355X"],
        memory_gib: 288.0,
        bf16_dense_tflops: tf(2516.6),
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(537.6),
        pcie_gen: 5,
        allreduce_busbw: bw(315.0 * 153.6 / 128.0),
        ring_busbw: bw(315.0 * 153.6 / 128.0),
        source: "AMD Instinct MI355X datasheet: 288 GB HBM3E, 2.5 PFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 153.6 GB/s; busbw derived from the MI300X measurement (315 GB/s) scaled by the link speed, 153.6/128",
        patterns: &["mi355"],
    },
    GpuSpec {
        key: "mi325x",
        name: "Instinct MI325X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI325X"],
        memory_gib: 256.0,
        bf16_dense_tflops: tf(1307.4),
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(448.0),
        pcie_gen: 5,
        allreduce_busbw: bw(319.0),
        ring_busbw: bw(319.0),
        source: "AMD Instinct MI325X datasheet: 256 GB HBM3E, 1307.4 TFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 128 GB/s; busbw measured 319.08 GB/s, 8 GPUs, RCCL Ring (hisohara/ai-scripts rccl smoke test)",
        patterns: &["mi325"],
    },
    GpuSpec {
        key: "mi300x",
        name: "Instinct MI300X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI300X", "AMD Instinct MI300X OAM"],
        memory_gib: 192.0,
        bf16_dense_tflops: tf(1307.4),
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(448.0),
        pcie_gen: 5,
        allreduce_busbw: bw(315.0),
        ring_busbw: bw(315.0),
        source: "AMD Instinct MI300X datasheet: 192 GB HBM3, 1307.4 TFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 128 GB/s; busbw measured 315.69 GB/s on 8 GPUs (hisohara/ai-scripts rccl smoke test)",
        patterns: &["mi300"],
    },
];

/// What an unknown GPU name resolves to: a mid-range PCIe Gen4 data-centre card. Every figure is a placeholder
/// for the user to override, and estimates made with it carry a warning.
pub static GENERIC_GPU: GpuSpec = GpuSpec {
    key: "generic",
    name: "Unknown GPU (generic PCIe Gen4 defaults)",
    vendor: Vendor::Unknown,
    reported_names: &[],
    memory_gib: 24.0,
    bf16_dense_tflops: tf(100.0),
    intra_node: IntraNodeLink::Pcie,
    gpu_link_gbyte_per_s: None,
    pcie_gen: 4,
    allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
    ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
    source: "generic defaults, not a real part: 24 GiB, 100 TFLOP/s, PCIe Gen4 x16 x 0.58",
    patterns: &[],
};

/// How a name was resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lookup {
    /// The key or one of the reported names, exactly (ignoring case and punctuation).
    Exact(&'static GpuSpec),
    /// A catalog pattern occurs inside the name (e.g. "H100 80GB (Dell XE9680)").
    Matched(&'static GpuSpec),
    /// Nothing matched; generic defaults.
    Unknown,
}

impl Lookup {
    /// The spec to use (generic when unknown).
    pub fn spec(self) -> &'static GpuSpec {
        match self {
            Lookup::Exact(s) | Lookup::Matched(s) => s,
            Lookup::Unknown => &GENERIC_GPU,
        }
    }
}

/// Lower-case ASCII letters and digits only, with a leading "nvidia", "tesla", "amd" or "instinct" removed.
fn normalize(name: &str) -> String {
    let mut s: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
    for prefix in ["nvidia", "tesla", "amd", "instinct", "geforce"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
        }
    }
    s
}

/// Finds a GPU by catalog key, reported name or a recognisable fragment.
pub fn lookup(name: &str) -> Lookup {
    let wanted = normalize(name);
    if wanted.is_empty() {
        return Lookup::Unknown;
    }
    let exact = GPUS.iter().find(|g| {
        normalize(g.key) == wanted
            || normalize(g.name) == wanted
            || g.reported_names.iter().any(|n| normalize(n) == wanted)
    });
    if let Some(g) = exact {
        return Lookup::Exact(g);
    }
    GPUS.iter().find(|g| g.patterns.iter().any(|p| wanted.contains(p))).map_or(Lookup::Unknown, Lookup::Matched)
}

/// The all-reduce bus bandwidths of a GPU over an intra-node link that may differ from its default (a user who
/// says "these A40s have NVLink bridges", or "P2P is disabled").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntraNodeBandwidth {
    /// Best single-node algorithm.
    pub allreduce: GbytePerSec,
    /// Ring algorithm, the intra-node part of a multi-node ring.
    pub ring: GbytePerSec,
    /// The link actually used (a GPU without NVLink cannot use one).
    pub link: IntraNodeLink,
}

/// Bus bandwidth of `gpu` over `link`.
pub fn intra_node_bandwidth(gpu: &GpuSpec, link: IntraNodeLink) -> IntraNodeBandwidth {
    if link == gpu.intra_node {
        return IntraNodeBandwidth { allreduce: gpu.allreduce_busbw, ring: gpu.ring_busbw, link };
    }
    let pcie = bw(pcie_p2p(gpu.pcie_gen));
    match (link, gpu.gpu_link_gbyte_per_s) {
        (IntraNodeLink::PcieHostStaged, _) => {
            let b = bw(HOST_STAGED_BUSBW_GBYTE_PER_S);
            IntraNodeBandwidth { allreduce: b, ring: b, link }
        }
        (IntraNodeLink::Pcie, _) => IntraNodeBandwidth { allreduce: pcie, ring: pcie, link },
        (IntraNodeLink::Nvlink | IntraNodeLink::Nvswitch | IntraNodeLink::Xgmi, Some(l)) => {
            let b = bw(l * NVLINK_RING_EFFICIENCY);
            IntraNodeBandwidth { allreduce: b, ring: b, link }
        }
        (IntraNodeLink::Nvlink | IntraNodeLink::Nvswitch | IntraNodeLink::Xgmi, None) => {
            IntraNodeBandwidth { allreduce: pcie, ring: pcie, link: IntraNodeLink::Pcie }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, key: &str) {
        assert_eq!(lookup(name).spec().key, key, "{name}");
    }

    #[test]
    fn nvml_names_resolve() {
        check("NVIDIA H100 80GB HBM3", "h100-sxm");
        check("NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb");
        check("NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb");
        check("NVIDIA A100 80GB PCIe", "a100-pcie-80gb");
        check("NVIDIA A100-PCIE-40GB", "a100-pcie-40gb");
        check("Tesla P40", "p40");
        check("Tesla V100-SXM2-16GB", "v100-sxm2-16gb");
        check("Tesla V100-SXM2-32GB", "v100-sxm2-32gb");
        check("NVIDIA H100 PCIe", "h100-pcie");
        check("NVIDIA GH200 480GB", "gh200");
        check("NVIDIA H200", "h200");
        check("NVIDIA L40S", "l40s");
        // "L4" is a fragment of "L40": the L40 must not read as an L4.
        assert!(matches!(lookup("NVIDIA L40"), Lookup::Unknown));
        check("NVIDIA L4", "l4");
        check("NVIDIA L4", "l4");
        check("NVIDIA A10G", "a10g");
        check("NVIDIA GeForce RTX 4090", "rtx-4090");
        check("AMD Instinct MI300X", "mi300x");
    }

    #[test]
    fn loose_names_resolve_to_the_most_specific_entry() {
        check("h100", "h100-sxm");
        check("H100 80GB HBM3 (Dell XE9680 HGX)", "h100-sxm");
        check("GH200 120GB", "gh200");
        check("mi325x", "mi325x");
        check("MI355X", "mi355x");
        check("RTX 5090", "rtx-5090");
        check("b200", "b200");
        check("A100 (p4dn.24xlarge)", "a100-sxm4-40gb");
        check("a40", "a40");
    }

    #[test]
    fn unknown_names_are_generic_not_errors() {
        assert_eq!(lookup("Voodoo 5 6000"), Lookup::Unknown);
        assert_eq!(lookup("").spec().key, "generic");
        assert_eq!(lookup("   ").spec().key, "generic");
    }

    #[test]
    fn every_entry_is_sane() {
        for g in GPUS {
            assert!(g.memory_gib > 0.0 && g.bf16_dense_tflops.get() > 0.0, "{}", g.key);
            assert!(g.ring_busbw <= g.allreduce_busbw, "{}", g.key);
            assert!(!g.source.is_empty() && !g.patterns.is_empty(), "{}", g.key);
            assert_eq!(lookup(g.key).spec().key, g.key, "key of {} resolves to itself", g.key);
            for n in g.reported_names {
                assert_eq!(lookup(n).spec().key, g.key, "reported name {n}");
            }
        }
    }

    #[test]
    fn overriding_the_link_derives_bandwidth() {
        let a40 = lookup("a40").spec();
        let nv = intra_node_bandwidth(a40, IntraNodeLink::Nvlink);
        assert!((nv.ring.get() - 45.0).abs() < 1e-9);
        let l4 = lookup("l4").spec();
        assert_eq!(intra_node_bandwidth(l4, IntraNodeLink::Nvlink).link, IntraNodeLink::Pcie);
        let h100 = lookup("h100").spec();
        assert_eq!(intra_node_bandwidth(h100, IntraNodeLink::PcieHostStaged).ring.get(), 4.5);
    }
}
