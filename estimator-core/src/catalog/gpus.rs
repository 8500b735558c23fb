//! The GPU table: one [`GpuSpec`] per model, with the datasheet figures and the achievable all-reduce bus
//! bandwidth, each entry citing its sources in `source`. Name resolution and the link overrides are in the parent
//! module.

use super::{
    GpuSpec, HOST_STAGED_BUSBW_GBYTE_PER_S, IntraNodeLink, NVLINK_RING_EFFICIENCY, PCIE_P2P_EFFICIENCY, Vendor, bw,
};
use crate::units::TflopPerSec;

const fn tf(tflops: f64) -> TflopPerSec {
    TflopPerSec::new(tflops)
}

/// NVLS (NVLink SHARP) all-reduce bus bandwidth over the unidirectional NVLink bandwidth, measured on H100:
/// 470 of 450 GB/s (nccl-tests#290, maintainer: "476GB/s looks to be in the expected range for H100").
const NVLS_OVER_LINK_HOPPER: f64 = 470.0 / 450.0;
/// NCCL's `nvlsEfficiency` (src/graph/tuning.cc): Hopper 0.85, Blackwell 0.74. Used to carry the Hopper
/// measurement over to Blackwell.
const NVLS_BLACKWELL_OVER_HOPPER: f64 = 0.74 / 0.85;

/// The catalog, most specific patterns first. Numbers in `source` are per GPU.
pub static GPUS: &[GpuSpec] = &[
    GpuSpec {
        key: "v100-sxm2-16gb",
        name: "V100 SXM2 16GB",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla V100-SXM2-16GB"],
        memory_gib: 16.0,
        bf16_dense_tflops: tf(125.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(150.0),
        pcie_gen: 3,
        compute_capability: 70,
        allreduce_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        patterns: &["v100sxm216"],
    },
    GpuSpec {
        key: "v100-pcie",
        name: "V100 PCIe 32GB",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla V100-PCIE-32GB", "Tesla V100-PCIE-16GB", "Tesla V100S-PCIE-32GB"],
        memory_gib: 32.0,
        bf16_dense_tflops: tf(112.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 3,
        compute_capability: 70,
        allreduce_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["v100pcie", "v100s"],
    },
    GpuSpec {
        key: "v100-sxm2-32gb",
        name: "V100 SXM2 32GB",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla V100-SXM2-32GB"],
        memory_gib: 32.0,
        bf16_dense_tflops: tf(125.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(150.0),
        pcie_gen: 3,
        compute_capability: 70,
        allreduce_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(150.0 * NVLINK_RING_EFFICIENCY),
        patterns: &["v100"],
    },
    GpuSpec {
        key: "p40",
        name: "Tesla P40",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla P40"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(11.76),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 3,
        compute_capability: 61,
        allreduce_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["p40"],
    },
    GpuSpec {
        key: "a10g",
        name: "A10G",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A10G"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(70.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 86,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a10g"],
    },
    GpuSpec {
        key: "a40",
        name: "A40",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A40"],
        memory_gib: 48.0,
        bf16_dense_tflops: tf(149.7),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(56.25),
        pcie_gen: 4,
        compute_capability: 86,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a40"],
    },
    GpuSpec {
        key: "a100-pcie-80gb",
        name: "A100 PCIe 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100 80GB PCIe"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        compute_capability: 80,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a10080gbpcie", "a100pcie80"],
    },
    GpuSpec {
        key: "a100-pcie-40gb",
        name: "A100 PCIe 40GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100-PCIE-40GB"],
        memory_gib: 40.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        compute_capability: 80,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a100pcie"],
    },
    GpuSpec {
        key: "a100-sxm4-80gb",
        name: "A100 SXM4 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100-SXM4-80GB"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        compute_capability: 80,
        allreduce_busbw: bw(230.0),
        ring_busbw: bw(230.0),
        patterns: &["a100sxm480", "a10080gb", "a100sxm80"],
    },
    GpuSpec {
        key: "a100-sxm4-40gb",
        name: "A100 SXM4 40GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A100-SXM4-40GB"],
        memory_gib: 40.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 4,
        compute_capability: 80,
        allreduce_busbw: bw(230.0),
        ring_busbw: bw(230.0),
        patterns: &["a100"],
    },
    GpuSpec {
        key: "l40s",
        name: "L40S",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA L40S"],
        memory_gib: 48.0,
        bf16_dense_tflops: tf(362.05),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 89,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["l40s"],
    },
    GpuSpec {
        key: "l4",
        name: "L4",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA L4"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(121.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 89,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
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
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["h100pcie"],
    },
    GpuSpec {
        key: "h100-nvl",
        name: "H100 NVL",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H100 NVL"],
        memory_gib: 94.0,
        bf16_dense_tflops: tf(835.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(300.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(48.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["h100nvl"],
    },
    GpuSpec {
        key: "gh200-144gb",
        name: "GH200 144GB HBM3e",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GH200 144G HBM3e"],
        memory_gib: 144.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        patterns: &["gh200144", "gh200hbm3e"],
    },
    GpuSpec {
        key: "gh200",
        name: "GH200 96GB HBM3",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GH200 480GB", "NVIDIA GH200 120GB"],
        memory_gib: 96.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvlink,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        ring_busbw: bw(450.0 * NVLINK_RING_EFFICIENCY),
        patterns: &["gh200"],
    },
    GpuSpec {
        key: "h200",
        name: "H200",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H200", "NVIDIA H200 NVL"],
        memory_gib: 141.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(470.0),
        ring_busbw: bw(369.0),
        patterns: &["h200"],
    },
    GpuSpec {
        key: "h100-sxm",
        name: "H100 SXM5 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H100 80GB HBM3"],
        memory_gib: 80.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(470.0),
        ring_busbw: bw(369.0),
        patterns: &["h100"],
    },
    GpuSpec {
        key: "b200",
        name: "B200",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA B200"],
        memory_gib: 180.0,
        bf16_dense_tflops: tf(2250.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(900.0),
        pcie_gen: 6,
        compute_capability: 100,
        allreduce_busbw: bw(900.0 * NVLS_OVER_LINK_HOPPER * NVLS_BLACKWELL_OVER_HOPPER),
        ring_busbw: bw(900.0 * NVLINK_RING_EFFICIENCY),
        patterns: &["b200"],
    },
    GpuSpec {
        key: "rtx-5090",
        name: "GeForce RTX 5090",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GeForce RTX 5090"],
        memory_gib: 32.0,
        bf16_dense_tflops: tf(209.5),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 5,
        compute_capability: 120,
        allreduce_busbw: bw(28.0),
        ring_busbw: bw(28.0),
        patterns: &["5090"],
    },
    GpuSpec {
        key: "rtx-4090",
        name: "GeForce RTX 4090",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GeForce RTX 4090"],
        memory_gib: 24.0,
        bf16_dense_tflops: tf(165.2),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::PcieHostStaged,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 89,
        allreduce_busbw: bw(HOST_STAGED_BUSBW_GBYTE_PER_S),
        ring_busbw: bw(HOST_STAGED_BUSBW_GBYTE_PER_S),
        patterns: &["4090"],
    },
    GpuSpec {
        key: "mi355x",
        name: "Instinct MI355X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI355X"],
        memory_gib: 288.0,
        bf16_dense_tflops: tf(2516.6),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(537.6),
        pcie_gen: 5,
        compute_capability: 0,
        allreduce_busbw: bw(315.0 * 153.6 / 128.0),
        ring_busbw: bw(315.0 * 153.6 / 128.0),
        patterns: &["mi355"],
    },
    GpuSpec {
        key: "mi325x",
        name: "Instinct MI325X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI325X"],
        memory_gib: 256.0,
        bf16_dense_tflops: tf(1307.4),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(448.0),
        pcie_gen: 5,
        compute_capability: 0,
        allreduce_busbw: bw(319.0),
        ring_busbw: bw(319.0),
        patterns: &["mi325"],
    },
    GpuSpec {
        key: "mi300x",
        name: "Instinct MI300X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI300X", "AMD Instinct MI300X OAM"],
        memory_gib: 192.0,
        bf16_dense_tflops: tf(1307.4),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(448.0),
        pcie_gen: 5,
        compute_capability: 0,
        allreduce_busbw: bw(315.0),
        ring_busbw: bw(315.0),
        patterns: &["mi300"],
    },
];

impl GpuSpec {
    /// Where this model's numbers come from. Apart from the table, so that a binary which never asks (the page's
    /// first load: its report worker shows them) leaves the text out.
    pub fn source(&self) -> &'static str {
        match self.key {
            "v100-sxm2-16gb" => {
                "NVIDIA V100 datasheet: 16 GB HBM2, 125 TFLOP/s FP16 tensor (no BF16 on Volta), NVLink2 300 GB/s \
                 bidirectional (150 one way); busbw derived as 150 x 0.80 (NVLINK_RING_EFFICIENCY)"
            }
            "v100-pcie" => {
                "NVIDIA V100 datasheet: 32 GB HBM2, 112 TFLOP/s FP16 tensor (PCIe); busbw derived from PCIe Gen3 x16 \
                 12 GB/s x 0.58 (PCIE_P2P_EFFICIENCY)"
            }
            "v100-sxm2-32gb" => {
                "NVIDIA V100 datasheet: 32 GB HBM2, 125 TFLOP/s FP16 tensor (no BF16 on Volta), NVLink2 150 GB/s one \
                 way; busbw derived as 150 x 0.80 (NVLINK_RING_EFFICIENCY)"
            }
            "p40" => {
                "NVIDIA Tesla P40 datasheet: 24 GB GDDR5, 11.76 TFLOP/s FP32 (no tensor cores, no fast BF16/FP16); busbw \
                 derived from PCIe Gen3 x16 12 GB/s x 0.58"
            }
            "a10g" => {
                "AWS EC2 G5 / Baseten 'A10 vs A10G': 24 GB GDDR6, 70 TFLOP/s BF16 tensor (the A10 datasheet's 125 is \
                 the A10, not AWS's A10G); busbw derived from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "a40" => {
                "NVIDIA A40 datasheet: 48 GB GDDR6, 149.7 TFLOP/s BF16 dense, optional NVLink bridge 112.5 GB/s \
                 bidirectional (56.25 one way); busbw derived from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "a100-pcie-80gb" => {
                "NVIDIA A100 datasheet: 80 GB HBM2e, 312 TFLOP/s BF16 dense, NVLink bridge 600 GB/s bidirectional; \
                 busbw derived from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "a100-pcie-40gb" => {
                "NVIDIA A100 datasheet: 40 GB HBM2, 312 TFLOP/s BF16 dense; busbw derived from PCIe Gen4 x16 \
                 24 GB/s x 0.58"
            }
            "a100-sxm4-80gb" => {
                "NVIDIA A100 datasheet: 80 GB HBM2e, 312 TFLOP/s BF16 dense, NVLink3 600 GB/s bidirectional; busbw \
                 measured: 230.77 GB/s on 8x A100 p4dn (NVIDIA/nccl#527), 234.7 on DGX A100 (eugenesiow/LLM-Insights)"
            }
            "a100-sxm4-40gb" => {
                "NVIDIA A100 datasheet: 40 GB HBM2, 312 TFLOP/s BF16 dense; busbw measured 230.77 GB/s on 8x A100 \
                 (NVIDIA/nccl#527)"
            }
            "l40s" => {
                "NVIDIA L40S datasheet: 48 GB GDDR6, 362.05 TFLOP/s BF16 dense (733 with sparsity); busbw derived \
                 from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "l4" => {
                "NVIDIA L4 datasheet: 24 GB GDDR6, 242 TFLOP/s BF16 with sparsity (121 dense); busbw derived from \
                 PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "h100-pcie" => {
                "NVIDIA H100 datasheet: 80 GB HBM2e, 1513 TFLOP/s BF16 with sparsity (756 dense), NVLink bridge \
                 600 GB/s bidirectional; busbw derived from PCIe Gen5 x16 48 GB/s x 0.58"
            }
            "h100-nvl" => {
                "NVIDIA H100 datasheet: H100 NVL 94 GB HBM3, 1671 TFLOP/s BF16 with sparsity (835 dense), NVLink \
                 bridge 600 GB/s bidirectional; busbw derived from PCIe Gen5 x16 48 GB/s x 0.58"
            }
            "gh200-144gb" => {
                "NVIDIA GH200 datasheet: 144 GB HBM3e, 989 TFLOP/s BF16 dense, NVLink4 900 GB/s bidirectional; busbw \
                 derived as 450 x 0.80 (no NVSwitch in multi-GH200 nodes, so no NVLS)"
            }
            "gh200" => {
                "NVIDIA GH200 datasheet: 96 GB HBM3 (480 GB superchip with LPDDR5X), 989 TFLOP/s BF16 dense, NVLink4 \
                 900 GB/s bidirectional; busbw derived as 450 x 0.80 (no NVSwitch, so no NVLS)"
            }
            "h200" => {
                "NVIDIA H200 datasheet: 141 GB HBM3e, 989 TFLOP/s BF16 dense, NVLink4 900 GB/s bidirectional, the same \
                 NVSwitch board as H100 SXM, so the H100 measurements apply: 470 GB/s NVLS (nccl-tests#290), 369 Ring \
                 (nccl-tests#309)"
            }
            "h100-sxm" => {
                "NVIDIA H100 datasheet: 80 GB HBM3, 989 TFLOP/s BF16 dense (1979 with sparsity), NVLink4 900 GB/s \
                 bidirectional; busbw measured: 468-482 GB/s with NVLS (nccl-tests#290, #309), 368.76 GB/s Ring with \
                 NCCL_NVLS_ENABLE=0 (nccl-tests#309)"
            }
            "b200" => {
                "NVIDIA HGX B200 specification (1000 W): 180 GB HBM3e, 2250 TFLOP/s BF16 dense, NVLink5 1800 GB/s \
                 bidirectional; no public busbw in the calibration set, so derived: NVLS = 900 x (470/450 measured on \
                 H100) x (0.74/0.85, NCCL's Blackwell/Hopper nvlsEfficiency) = 818, Ring = 900 x 0.80 = 720"
            }
            "rtx-5090" => {
                "NVIDIA Blackwell GeForce whitepaper: 32 GB GDDR7, 209.5 TFLOP/s BF16 dense (FP32 accumulate); busbw \
                 measured 28 GB/s on 8 GPUs over PCIe 5.0 (NVIDIA/nccl#1639)"
            }
            "rtx-4090" => {
                "NVIDIA Ada whitepaper: 24 GB GDDR6X, 165.2 TFLOP/s BF16 dense (FP32 accumulate); GeForce Ada has no \
                 GPU peer-to-peer, so transfers are host-staged (HOST_STAGED_BUSBW_GBYTE_PER_S)"
            }
            "mi355x" => {
                "AMD Instinct MI355X datasheet: 288 GB HBM3E, 2.5 PFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 153.6 GB/s; busbw derived from the MI300X measurement (315 GB/s) scaled by the link speed, 153.6/128"
            }
            "mi325x" => {
                "AMD Instinct MI325X datasheet: 256 GB HBM3E, 1307.4 TFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 128 GB/s; busbw measured 319.08 GB/s, 8 GPUs, RCCL Ring (hisohara/ai-scripts rccl smoke test)"
            }
            "mi300x" => {
                "AMD Instinct MI300X datasheet: 192 GB HBM3, 1307.4 TFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 128 GB/s; busbw measured 315.69 GB/s on 8 GPUs (hisohara/ai-scripts rccl smoke test)"
            }
            _ => "generic defaults, not a real part: 24 GiB, 100 TFLOP/s, PCIe Gen4 x16 x 0.58",
        }
    }
}

/// What an unknown GPU name resolves to: a mid-range PCIe Gen4 data-centre card. Every figure is a placeholder
/// for the user to override, and estimates made with it carry a warning.
pub static GENERIC_GPU: GpuSpec = GpuSpec {
    key: "generic",
    name: "Unknown GPU (generic PCIe Gen4 defaults)",
    vendor: Vendor::Unknown,
    reported_names: &[],
    memory_gib: 24.0,
    bf16_dense_tflops: tf(100.0),
    fp8_dense_tflops: None,
    shapes: &[],
    intra_node: IntraNodeLink::Pcie,
    gpu_link_gbyte_per_s: None,
    pcie_gen: 4,
    compute_capability: 80,
    allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
    ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
    patterns: &[],
};
