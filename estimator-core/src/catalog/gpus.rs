//! The GPU table: one [`GpuSpec`] per model, with the datasheet figures and the achievable all-reduce bus
//! bandwidth, each entry citing its sources in `source`. Name resolution and the link overrides are in the parent
//! module.

use super::{
    GpuSpec, HOST_STAGED_BUSBW_GBYTE_PER_S, IntraNodeLink, NVLINK_RING_EFFICIENCY, NodeShape, PCIE_P2P_EFFICIENCY,
    Vendor, bw,
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
        // Driver-reported total, nvidia-smi, ECC on: `Tesla V100-SXM2-16GB ... 84MiB / 16384MiB` (a public GitHub file, search index id 641070059).
        memory_mib: 16384.0,
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
        // Driver-reported total, nvidia-smi, ECC on: `Tesla V100-PCIE-32GB ... 0MiB / 32768MiB` (public GitHub file, index id 66599649631).
        memory_mib: 32768.0,
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
        // Driver-reported total, nvidia-smi, ECC on: `Tesla V100-SXM2-32GB ... 1MiB / 32768MiB` (public GitHub file, index id 70902377371).
        memory_mib: 32768.0,
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
        // Driver-reported total, nvidia-smi, ECC on: `Tesla P40 ... 3593MiB / 23040MiB` (public GitHub file, index id 65809471236).
        memory_mib: 23040.0,
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
        key: "t4",
        name: "T4",
        vendor: Vendor::Nvidia,
        reported_names: &["Tesla T4"],
        // Driver-reported total, nvidia-smi, ECC on: `Tesla T4 ... 0MiB / 15360MiB` (index id 57935490124); modal-labs/modal-client#2797: "T4: 15360MiB".
        memory_mib: 15360.0,
        // No BF16 on Turing: its FP16 tensor figure, the closest training precision.
        bf16_dense_tflops: tf(65.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 3,
        compute_capability: 75,
        allreduce_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(12.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["t4"],
    },
    GpuSpec {
        key: "a10g",
        name: "A10G",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A10G"],
        // Driver-reported total, nvidia-smi, ECC on: NVIDIA/DCGM#232 `NVIDIA A10G ... 8722MiB / 23028MiB`.
        memory_mib: 23028.0,
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
        // Driver-reported total, nvidia-smi, ECC on (as clouds ship it; 49140 MiB off): `NVIDIA A40 ... 0MiB / 46068MiB` (index id 41857157737).
        memory_mib: 46068.0,
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
        // Driver-reported total, nvidia-smi: `NVIDIA A100 80GB PCIe ... 0MiB / 81920MiB` (index id 70130704178).
        memory_mib: 81920.0,
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
        // Driver-reported total, nvidia-smi: `NVIDIA A100-PCIE-40GB ... 36882MiB / 40960MiB` (index id 41216515260).
        memory_mib: 40960.0,
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
        // Driver-reported total, nvidia-smi: NVIDIA/mig-parted#31 `NVIDIA A100-SXM4-80GB ... 87MiB / 81920MiB`.
        memory_mib: 81920.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[NodeShape { name: "HGX 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
        // Driver-reported total, nvidia-smi, ECC on: `NVIDIA A100-SXM4-40GB ... 1MiB / 40960MiB` (Slusheeking/nextgen docs/SYSTEM_HARDWARE.md).
        memory_mib: 40960.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[NodeShape { name: "HGX 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
        // Driver-reported total, nvidia-smi, ECC on: akash-network/provider-configs#99 `NVIDIA L40S, 595.71.05, 46068 MiB`.
        memory_mib: 46068.0,
        bf16_dense_tflops: tf(362.05),
        fp8_dense_tflops: Some(tf(733.0)),
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
        key: "l40",
        name: "L40",
        vendor: Vendor::Nvidia,
        reported_names: &[],
        // Driver-reported total, nvidia-smi, ECC on (49140 MiB off): `... 5MiB / 46068MiB` (index id 15020386292).
        memory_mib: 46068.0,
        bf16_dense_tflops: tf(181.05),
        fp8_dense_tflops: Some(tf(362.0)),
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 89,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["l40"],
    },
    GpuSpec {
        key: "l4",
        name: "L4",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA L4"],
        // Driver-reported total, nvidia-smi, ECC on: `NVIDIA L4 ... 0MiB / 23034MiB` (index id 1501022455); modal-labs/modal-client#2797.
        memory_mib: 23034.0,
        bf16_dense_tflops: tf(121.0),
        fp8_dense_tflops: Some(tf(242.5)),
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
        // Driver-reported total, nvidia-smi, ECC on: Beomi/BitNet-Transformers README `NVIDIA H100 PCIe ... 49010MiB / 81559MiB`.
        memory_mib: 81559.0,
        bf16_dense_tflops: tf(756.0),
        fp8_dense_tflops: Some(tf(1513.0)),
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
        // Driver-reported total, nvidia-smi: `NVIDIA H100 NVL ... 1MiB / 95830MiB` (index id 14249706504).
        memory_mib: 95830.0,
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
        // Driver-reported total, nvidia-smi: `NVIDIA GH200 144G HBM3e, 580.173.02, 146831 MiB` (index id 57699609541).
        memory_mib: 146831.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: Some(tf(1979.0)),
        shapes: &[NodeShape { name: "GH200 NVL2", gpus_per_node: 2, nvlink_domain_gpus: 2 }],
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
        // Driver-reported total, nvidia-smi: hu-po/warp-ik docs/specs/arm-gh200.md `NVIDIA GH200 480GB ... 1MiB / 97871MiB`.
        memory_mib: 97871.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: Some(tf(1979.0)),
        shapes: &[NodeShape { name: "GH200 NVL2", gpus_per_node: 2, nvlink_domain_gpus: 2 }],
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
        // Driver-reported total, nvidia-smi: sgl-project/sglang#3196 `NVIDIA H200 ... 124585MiB / 143771MiB`.
        memory_mib: 143771.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: Some(tf(1978.9)),
        shapes: &[NodeShape { name: "HGX 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
        // Driver-reported total, nvidia-smi: NVIDIA/nccl#1264 `NVIDIA H100 80GB HBM3 ... 0MiB / 81559MiB`.
        memory_mib: 81559.0,
        bf16_dense_tflops: tf(989.0),
        fp8_dense_tflops: Some(tf(1979.0)),
        shapes: &[NodeShape { name: "HGX 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(470.0),
        ring_busbw: bw(369.0),
        patterns: &["h100"],
    },
    GpuSpec {
        key: "h20",
        name: "H20",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H20", "NVIDIA H20-3e"],
        // Driver-reported total, nvidia-smi: `NVIDIA H20 ... 3MiB / 97871MiB` (index id 69782509629); the 141 GB H20-3e is another part.
        memory_mib: 97871.0,
        bf16_dense_tflops: tf(148.0),
        fp8_dense_tflops: Some(tf(296.0)),
        shapes: &[NodeShape { name: "HGX H20 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(450.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(470.0),
        ring_busbw: bw(369.0),
        patterns: &["h20"],
    },
    GpuSpec {
        key: "h800",
        name: "H800 SXM",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA H800"],
        // Driver-reported total, nvidia-smi: `NVIDIA H800 ... 1MiB / 81559MiB` (index id 40223502532).
        memory_mib: 81559.0,
        bf16_dense_tflops: tf(989.5),
        fp8_dense_tflops: Some(tf(1979.0)),
        shapes: &[NodeShape { name: "HGX H800 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(200.0),
        pcie_gen: 5,
        compute_capability: 90,
        allreduce_busbw: bw(215.0),
        ring_busbw: bw(200.0 * NVLINK_RING_EFFICIENCY),
        patterns: &["h800"],
    },
    GpuSpec {
        key: "a800-pcie-80gb",
        name: "A800 PCIe 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A800 80GB PCIe"],
        // Driver-reported total, nvidia-smi: `NVIDIA A800 80GB PCIe ... 7MiB / 81920MiB` (index id 17125984962).
        memory_mib: 81920.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(200.0),
        pcie_gen: 4,
        compute_capability: 80,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a80080gbpcie", "a800pcie"],
    },
    GpuSpec {
        key: "a800-sxm4-80gb",
        name: "A800 SXM4 80GB",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A800-SXM4-80GB"],
        // Driver-reported total, nvidia-smi: dexmal/dexbotic#41 `NVIDIA A800-SXM4-80GB ... 34447MiB / 81920MiB`.
        memory_mib: 81920.0,
        bf16_dense_tflops: tf(312.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(200.0),
        pcie_gen: 4,
        compute_capability: 80,
        allreduce_busbw: bw(230.77 * 200.0 / 300.0),
        ring_busbw: bw(230.77 * 200.0 / 300.0),
        patterns: &["a800"],
    },
    GpuSpec {
        key: "rtx-pro-6000-blackwell",
        name: "RTX PRO 6000 Blackwell",
        vendor: Vendor::Nvidia,
        reported_names: &[
            "NVIDIA RTX PRO 6000 Blackwell Server Edition",
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
            "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
        ],
        // Driver-reported total, nvidia-smi, ECC on or off: `NVIDIA RTX PRO 6000 Blac... 4MiB / 97887MiB` (index id 60698112702).
        memory_mib: 97887.0,
        bf16_dense_tflops: tf(500.0),
        fp8_dense_tflops: Some(tf(1000.0)),
        shapes: &[NodeShape { name: "8-card PCIe server", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 5,
        compute_capability: 120,
        allreduce_busbw: bw(37.6),
        ring_busbw: bw(37.6),
        patterns: &["rtxpro6000"],
    },
    GpuSpec {
        key: "rtx-6000-ada",
        name: "RTX 6000 Ada",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA RTX 6000 Ada Generation"],
        // Driver-reported total, nvidia-smi, ECC off (its usual state; 46068 MiB on): `NVIDIA RTX 6000 Ada Gene... 2MiB / 49140MiB` (index id 70288770903).
        memory_mib: 49140.0,
        bf16_dense_tflops: tf(364.25),
        fp8_dense_tflops: Some(tf(728.5)),
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 89,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["rtx6000ada"],
    },
    GpuSpec {
        key: "rtx-a6000",
        name: "RTX A6000",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA RTX A6000"],
        // Driver-reported total, nvidia-smi, ECC off: `NVIDIA RTX A6000 ... 2MiB / 49140MiB` (index id 69528102088).
        memory_mib: 49140.0,
        bf16_dense_tflops: tf(154.8),
        fp8_dense_tflops: None,
        shapes: &[NodeShape { name: "NVLink-bridged pair", gpus_per_node: 2, nvlink_domain_gpus: 2 }],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(56.25),
        pcie_gen: 4,
        compute_capability: 86,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a6000"],
    },
    GpuSpec {
        key: "rtx-3090",
        name: "GeForce RTX 3090",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GeForce RTX 3090"],
        // Driver-reported total, nvidia-smi: noonghunna/club-3090#1128 `NVIDIA GeForce RTX 3090 ... 22598MiB / 24576MiB`.
        memory_mib: 24576.0,
        bf16_dense_tflops: tf(71.0),
        fp8_dense_tflops: None,
        shapes: &[NodeShape { name: "NVLink-bridged pair", gpus_per_node: 2, nvlink_domain_gpus: 2 }],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: Some(56.25),
        pcie_gen: 4,
        compute_capability: 86,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["rtx3090"],
    },
    GpuSpec {
        key: "gb200",
        name: "GB200 (NVL72)",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GB200"],
        // Driver-reported total, nvidia-smi: `NVIDIA GB200 ... 0MiB / 189471MiB` (index id 58750094259).
        memory_mib: 189471.0,
        bf16_dense_tflops: tf(2500.0),
        fp8_dense_tflops: Some(tf(5000.0)),
        shapes: &[
            NodeShape { name: "NVL72 compute tray", gpus_per_node: 4, nvlink_domain_gpus: 72 },
            NodeShape { name: "GB200 NVL4 board", gpus_per_node: 4, nvlink_domain_gpus: 4 },
        ],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(900.0),
        pcie_gen: 5,
        compute_capability: 100,
        allreduce_busbw: bw(839.16 / 0.933),
        ring_busbw: bw(679.61),
        patterns: &["gb200"],
    },
    GpuSpec {
        key: "gb300",
        name: "GB300 (NVL72)",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA GB300"],
        // Driver-reported total, nvidia-smi: `NVIDIA GB300 ... 0MiB / 284208MiB` (index id 66256874927).
        memory_mib: 284208.0,
        bf16_dense_tflops: tf(2500.0),
        fp8_dense_tflops: Some(tf(5000.0)),
        shapes: &[NodeShape { name: "NVL72 compute tray", gpus_per_node: 4, nvlink_domain_gpus: 72 }],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(900.0),
        pcie_gen: 6,
        compute_capability: 103,
        allreduce_busbw: bw(930.48),
        ring_busbw: bw(679.61),
        patterns: &["gb300"],
    },
    GpuSpec {
        key: "b300",
        name: "B300 SXM6",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA B300 SXM6 AC"],
        // Driver-reported total, nvidia-smi: `NVIDIA B300 SXM6 AC ... 0MiB / 275040MiB` (index id 62548362303).
        memory_mib: 275040.0,
        bf16_dense_tflops: tf(2250.0),
        fp8_dense_tflops: Some(tf(4500.0)),
        shapes: &[NodeShape { name: "HGX B300 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
        intra_node: IntraNodeLink::Nvswitch,
        gpu_link_gbyte_per_s: Some(900.0),
        pcie_gen: 6,
        compute_capability: 103,
        allreduce_busbw: bw(845.0),
        ring_busbw: bw(695.0),
        patterns: &["b300"],
    },
    GpuSpec {
        key: "b200",
        name: "B200",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA B200"],
        // Driver-reported total, nvidia-smi: NVIDIA/TensorRT-LLM#10278 `NVIDIA B200 ... 166593MiB / 183359MiB`.
        memory_mib: 183359.0,
        bf16_dense_tflops: tf(2250.0),
        fp8_dense_tflops: Some(tf(4500.0)),
        shapes: &[NodeShape { name: "HGX 8-GPU", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
        // Driver-reported total, nvidia-smi: noonghunna/club-3090#1107 `NVIDIA GeForce RTX 5090 ... 29428MiB / 32607MiB`.
        memory_mib: 32607.0,
        bf16_dense_tflops: tf(209.5),
        fp8_dense_tflops: Some(tf(419.0)),
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
        // Driver-reported total, nvidia-smi: RLinf/RLinf#255 `NVIDIA GeForce RTX 4090 ... 507MiB / 24564MiB`.
        memory_mib: 24564.0,
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
        key: "a10",
        name: "A10",
        vendor: Vendor::Nvidia,
        reported_names: &["NVIDIA A10"],
        // Driver-reported total, NVML: mayooot/detect-gpu#3 `"name":"NVIDIA A10","memoryInfo":{"Total":24146608128`.
        memory_mib: 23028.0,
        bf16_dense_tflops: tf(125.0),
        fp8_dense_tflops: None,
        shapes: &[],
        intra_node: IntraNodeLink::Pcie,
        gpu_link_gbyte_per_s: None,
        pcie_gen: 4,
        compute_capability: 86,
        allreduce_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        ring_busbw: bw(24.0 * PCIE_P2P_EFFICIENCY),
        patterns: &["a10"],
    },
    GpuSpec {
        key: "mi350x",
        name: "Instinct MI350X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI350X"],
        // Driver-reported total, a test fixture's `r["vram"] == 294896 * 1024 * 1024` for device 0x75a0 (index id 56503102581; no rocm-smi output found), as the MI355X's.
        memory_mib: 294896.0,
        bf16_dense_tflops: tf(2307.2),
        fp8_dense_tflops: Some(tf(4614.4)),
        shapes: &[NodeShape { name: "8x OAM", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
        intra_node: IntraNodeLink::Xgmi,
        gpu_link_gbyte_per_s: Some(537.6),
        pcie_gen: 5,
        compute_capability: 0,
        allreduce_busbw: bw(315.0 * 153.6 / 128.0),
        ring_busbw: bw(315.0 * 153.6 / 128.0),
        patterns: &["mi350"],
    },
    GpuSpec {
        key: "mi355x",
        name: "Instinct MI355X",
        vendor: Vendor::Amd,
        reported_names: &["AMD Instinct MI355X"],
        // Driver-reported total, amd-smi in ROCm's JAX install doc (rocm-install-on-linux@04c1549f) `AMD Instinct MI355X ... 283/294896 MB` (amd-smi's MB are MiB).
        memory_mib: 294896.0,
        bf16_dense_tflops: tf(2516.6),
        fp8_dense_tflops: Some(tf(5033.2)),
        shapes: &[NodeShape { name: "8x OAM", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
        // Driver-reported total, amd-smi in ROCm 7.0.1's JAX install doc `AMD Instinct MI325X ... 283/262128 MB` (MiB).
        memory_mib: 262128.0,
        bf16_dense_tflops: tf(1307.4),
        fp8_dense_tflops: Some(tf(2614.9)),
        shapes: &[NodeShape { name: "8x OAM", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
        // Driver-reported total, rocm-smi: ROCm/legacy-rocm-build#4750 `VRAM Total Memory (B): 206141652992` (196592 MiB).
        memory_mib: 196592.0,
        bf16_dense_tflops: tf(1307.4),
        fp8_dense_tflops: Some(tf(2614.9)),
        shapes: &[NodeShape { name: "8x OAM", gpus_per_node: 8, nvlink_domain_gpus: 8 }],
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
    /// The precision of [`GpuSpec::bf16_dense_tflops`]: `BF16`, or for NVIDIA parts before Ampere (no BF16), the
    /// closest training precision their datasheet gives: `FP16` tensor on Volta and Turing (compute capability 7.x),
    /// `FP32` on Pascal and older.
    pub fn training_precision(&self) -> &'static str {
        match (self.vendor, self.compute_capability) {
            (Vendor::Nvidia, 70..=79) => "FP16",
            (Vendor::Nvidia, 1..=69) => "FP32",
            _ => "BF16",
        }
    }

    /// Where this model's numbers come from. Apart from the table, so that a binary which never asks (the page's
    /// first load: its details worker shows them) leaves the text out.
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
            "t4" => {
                "NVIDIA T4 datasheet: 16 GB GDDR6, 65 TFLOP/s FP16/FP32 mixed-precision tensor (no BF16 on Turing), \
                 PCIe Gen3 x16, no NVLink (AWS g4dn: up to 8 T4, EFA on the largest sizes, no GPUDirect RDMA); busbw \
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
                 measured: 230.77 GB/s on 8x A100 p4dn (NVIDIA/nccl#527), 234.7 on DGX A100 (eugenesiow/LLM-Insights); HGX 8-GPU boards (offer aws-p4de.24xlarge)"
            }
            "a100-sxm4-40gb" => {
                "NVIDIA A100 datasheet: 40 GB HBM2, 312 TFLOP/s BF16 dense; busbw measured 230.77 GB/s on 8x A100 \
                 (NVIDIA/nccl#527); HGX 8-GPU boards (offer aws-p4d.24xlarge)"
            }
            "l40s" => {
                "NVIDIA L40S datasheet: 48 GB GDDR6, 362.05 TFLOP/s BF16 dense (733 with sparsity); busbw derived \
                 from PCIe Gen4 x16 24 GB/s x 0.58; FP8 733 dense (datasheet 1466 with sparsity)"
            }
            "l4" => {
                "NVIDIA L4 datasheet: 24 GB GDDR6, 242 TFLOP/s BF16 with sparsity (121 dense); busbw derived from \
                 PCIe Gen4 x16 24 GB/s x 0.58; FP8 242.5 dense (datasheet 485 with sparsity, as quoted by yobitel.com)"
            }
            "h100-pcie" => {
                "NVIDIA H100 datasheet: 80 GB HBM2e, 1513 TFLOP/s BF16 with sparsity (756 dense), NVLink bridge \
                 600 GB/s bidirectional; busbw derived from PCIe Gen5 x16 48 GB/s x 0.58; FP8 1513 dense (3026 with sparsity)"
            }
            "h100-nvl" => {
                "NVIDIA H100 datasheet: H100 NVL 94 GB HBM3, 1671 TFLOP/s BF16 with sparsity (835 dense), NVLink \
                 bridge 600 GB/s bidirectional; busbw derived from PCIe Gen5 x16 48 GB/s x 0.58"
            }
            "gh200-144gb" => {
                "NVIDIA GH200 datasheet: 144 GB HBM3e, 989 TFLOP/s BF16 dense, NVLink4 900 GB/s bidirectional; busbw \
                 derived as 450 x 0.80 (no NVSwitch in multi-GH200 nodes, so no NVLS); FP8 1979 dense (GH200 datasheet); GH200 NVL2 (same datasheet)"
            }
            "gh200" => {
                "NVIDIA GH200 datasheet: 96 GB HBM3 (480 GB superchip with LPDDR5X), 989 TFLOP/s BF16 dense, NVLink4 \
                 900 GB/s bidirectional; busbw derived as 450 x 0.80 (no NVSwitch, so no NVLS); FP8 1979 dense (GH200 datasheet 3958 with sparsity); GH200 NVL2: two superchips joined by NVLink (same \
                 datasheet)"
            }
            "h200" => {
                "NVIDIA H200 datasheet: 141 GB HBM3e, 989 TFLOP/s BF16 dense, NVLink4 900 GB/s bidirectional, the same \
                 NVSwitch board as H100 SXM, so the H100 measurements apply: 470 GB/s NVLS (nccl-tests#290), 369 Ring \
                 (nccl-tests#309); FP8 1978.9 dense (alpharomercoma/MI300X-vs-H200 METHODOLOGY.md); HGX 8-GPU boards (offer \
                 aws-p5e.48xlarge)"
            }
            "h100-sxm" => {
                "NVIDIA H100 datasheet: 80 GB HBM3, 989 TFLOP/s BF16 dense (1979 with sparsity), NVLink4 900 GB/s \
                 bidirectional; busbw measured: 468-482 GB/s with NVLS (nccl-tests#290, #309), 368.76 GB/s Ring with \
                 NCCL_NVLS_ENABLE=0 (nccl-tests#309); FP8 1979 dense (datasheet 3958 with sparsity, halved); HGX 8-GPU boards (offers aws-p5.48xlarge, \
                 azure-nd96isr-h100-v5)"
            }
            "b200" => {
                "NVIDIA HGX B200 specification (1000 W): 180 GB HBM3e, 2250 TFLOP/s BF16 dense, NVLink5 1800 GB/s \
                 bidirectional; no public busbw in the calibration set, so derived: NVLS = 900 x (470/450 measured on \
                 H100) x (0.74/0.85, NCCL's Blackwell/Hopper nvlsEfficiency) = 818, Ring = 900 x 0.80 = 720; FP8 4500 dense (Blackwell datasheet: 9 PFLOPS with sparsity); HGX 8-GPU boards (offer \
                 aws-p6-b200.48xlarge)"
            }
            "rtx-5090" => {
                "NVIDIA Blackwell GeForce whitepaper: 32 GB GDDR7, 209.5 TFLOP/s BF16 dense (FP32 accumulate); busbw \
                 measured 28 GB/s on 8 GPUs over PCIe 5.0 (NVIDIA/nccl#1639); FP8 419 dense with FP32 accumulate (same whitepaper)"
            }
            "rtx-4090" => {
                "NVIDIA Ada whitepaper: 24 GB GDDR6X, 165.2 TFLOP/s BF16 dense (FP32 accumulate); GeForce Ada has no \
                 GPU peer-to-peer, so transfers are host-staged (HOST_STAGED_BUSBW_GBYTE_PER_S)"
            }
            "mi355x" => {
                "AMD Instinct MI355X datasheet: 288 GB HBM3E, 2.5 PFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 153.6 GB/s; busbw derived from the MI300X measurement (315 GB/s) scaled by the link speed, 153.6/128; FP8 5033.2 dense, derived: 256 CUs x 8192 FLOP/clock (ISSCC 2026) x 2.4 GHz; 8x OAM nodes (offer \
                 oci-bm.gpu.mi355x.8)"
            }
            "mi325x" => {
                "AMD Instinct MI325X datasheet: 256 GB HBM3E, 1307.4 TFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 128 GB/s; busbw measured 319.08 GB/s, 8 GPUs, RCCL Ring (hisohara/ai-scripts rccl smoke test); FP8 2614.9 dense, MI300X's compute (stas00/ml-engineering accelerator table); 8x OAM nodes"
            }
            "mi300x" => {
                "AMD Instinct MI300X datasheet: 192 GB HBM3, 1307.4 TFLOP/s BF16 dense, 7 Infinity Fabric links of \
                 128 GB/s; busbw measured 315.69 GB/s on 8 GPUs (hisohara/ai-scripts rccl smoke test); FP8 2614.9 dense (alpharomercoma/MI300X-vs-H200 METHODOLOGY.md); 8x OAM nodes (offer \
                 azure-nd96isr-mi300x-v5)"
            }
            "gb200" => {
                "NVIDIA Blackwell datasheet (GB200 NVL72, per GPU; transcribed in atineoSE/coding-model-seeks-gpu \
                 gb200_specs.md): 186 GB HBM3E, BF16 5 PFLOPS and FP8 10 PFLOPS with sparsity (2500 and 5000 dense), \
                 NVLink5 1.8 TB/s bidirectional through NVLink switch trays; NVML name from a real nvidia-smi -q capture \
                 (NVIDIA/k8s-test-infra qx-gb200.xml); compute capability 10.0 (NVIDIA CUDA GPUs table); shapes: \
                 NVL72 racks of 18 trays of 4 GPUs in one NVLink domain (NVIDIA/k8s-test-infra#727), GB200 NVL4 \
                 boards of 4 (datasheet); busbw: 839.16 GB/s measured with NVLS over a full NVL72 rack of 72 GPUs at 4 GiB \
                 (coreweave/nccl-tests README @0120901, NCCL 2.26.2), over the multi-node NVLS ramp's 0.933 there \
                 (collective/ramp.rs) = 899 at its peak, 679.61 GB/s Ring on one 4-GPU host at 8 GiB \
                 (Azure/AI-benchmarking-guide ND GB200 v6, NCCL 2.25.1); one tray alone reads lower with NVLS (663, \
                 OCI GB200 quickstart)"
            }
            "gb300" => {
                "NVIDIA GB300 NVL72 figures per GPU (Verda blog, quoting NVIDIA): 279 GB HBM3E, BF16 2.5 and FP8 5 \
                 PFLOPS dense, NVLink5 1.8 TB/s; PCIe Gen6 and the NVML name from a real nvidia-smi -q capture \
                 (NVIDIA/k8s-test-infra qx-gb300.xml); compute capability 10.3 (NVIDIA CUDA GPUs table); NVL72 racks \
                 of 18 trays of 4; busbw measured: 930.48 GB/s NVLS over 16 trays (64 GPUs) of one rack at 16 GiB \
                 (oracle-quickstart/oci-gpu-quickstarts GB300 README @2631bee, NCCL 2.28.7); Ring taken as GB200's \
                 measured 679.61 (the same NVLink5 switch trays)"
            }
            "b300" => {
                "NVIDIA HGX B300 (Verda blog and NVIDIA/cosmos-framework#114, quoting NVIDIA): 270 GB HBM3E usable, \
                 2250 TFLOP/s BF16 and 4500 FP8 dense, NVLink5 1.8 TB/s, PCIe Gen6, HGX 8-GPU boards; NVML name from \
                 NVIDIA/cosmos-framework#114; compute capability 10.3; busbw measured on 8x B300: 845 GB/s with NVLS, \
                 695 with NVLS off (NVIDIA/nccl#2140, NCCL 2.30.4)"
            }
            "h20" => {
                "H20 (no NVIDIA datasheet is public; third-party spec pages): 96 GB HBM3, 148 TFLOP/s BF16 and 296 FP8 \
                 dense, NVLink4 900 GB/s bidirectional on HGX 8-GPU NVSwitch boards (openucx/ucx#10936: NV18); PCIe \
                 Gen5 and compute capability 9.0 as the GH100 it is; no public H20 busbw found, so H100 SXM's measured \
                 470 (NVLS) and 369 (Ring) on the same NVLink4 NVSwitch board"
            }
            "h800" => {
                "NVIDIA H800 datasheet (astroC86/gpu-datasheet): 80 GB, 1979 TFLOP/s BF16 and 3958 FP8 with sparsity \
                 (989.5 and 1979 dense); NVLink 400 GB/s bidirectional (third-party; 300 in pre-launch reports); PCIe \
                 Gen5 and compute capability 9.0 as the GH100 it is; busbw measured 215 GB/s on 8x H800 \
                 (NVIDIA/nccl#1374), Ring derived as 200 x 0.80"
            }
            "a800-pcie-80gb" => {
                "A800 PCIe 80GB: the A100 PCIe's GA100 with NVLink cut to 400 GB/s (Datura-ai/lium-io#1199), so A100's \
                 312 TFLOP/s BF16 dense, PCIe Gen4 and compute capability 8.0; NVML name from mli/transformers-benchmarks#4; \
                 busbw derived from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "a800-sxm4-80gb" => {
                "A800 SXM4 80GB: the A100's GA100 with NVLink cut from 600 to 400 GB/s (techpowerup), so A100's 312 \
                 TFLOP/s BF16, PCIe Gen4 and compute capability 8.0; NVML name from dexmal/dexbotic#41; busbw derived \
                 from A100's measured 230.77 GB/s (NVIDIA/nccl#527) scaled by the link, 400/600"
            }
            "rtx-pro-6000-blackwell" => {
                "NVIDIA RTX PRO 6000 Blackwell datasheet (atineoSE/coding-model-seeks-gpu rtxpro6000_specs.md): 96 GB \
                 GDDR7, PCIe 5.0 x16, no NVLink, 4000 AI TOPS (FP4 with sparsity); BF16 500 and FP8 1000 dense derived \
                 from it (sparse / 2, FP4 / 2, FP8 / 2, as the RTX 5090's 3352 AI TOPS / 8 = 419 is its whitepaper's \
                 full-rate BF16), a professional card at full-rate FP32 accumulate; compute capability 12.0; NVML names \
                 of the Server, Workstation and Max-Q editions from vLLM's and dorado's tuned configs; busbw measured \
                 37.6 GB/s on 8x Server Edition over PCIe, direct attach (voipmonitor/rtx6kpro pcie-bandwidth.md)"
            }
            "rtx-6000-ada" => {
                "NVIDIA RTX 6000 Ada datasheet (atineoSE/coding-model-seeks-gpu rtx6000ada_specs.md): 48 GB GDDR6, \
                 PCIe 4.0 x16, no NVLink, 1457 FP8 TFLOP/s with sparsity (728.5 dense); BF16 364.25 derived as FP8 / 2 \
                 (Ada's ratio on the L40S datasheet, 733 / 362.05); compute capability 8.9; busbw derived from PCIe \
                 Gen4 x16 24 GB/s x 0.58"
            }
            "rtx-a6000" => {
                "NVIDIA RTX A6000 specification (ServeTheHome): 48 GB GDDR6, PCIe 4.0 x16, NVLink bridge between two \
                 cards 112.5 GB/s bidirectional; 154.8 TFLOP/s BF16 dense; compute capability 8.6; busbw derived from \
                 PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "rtx-3090" => {
                "NVIDIA GA102 whitepaper: 24 GB GDDR6X, 71 TFLOP/s BF16 dense with FP32 accumulate, NVLink3 bridge \
                 between two cards 56.25 GB/s each way; PCIe 4.0 x16; compute capability 8.6; busbw derived from PCIe \
                 Gen4 x16 24 GB/s x 0.58 (whether a GeForce 3090 allows P2P over PCIe without the bridge is not \
                 established: set the intra-node link to pcie-host-staged if NCCL says P2P is off)"
            }
            "l40" => {
                "NVIDIA L40/L40S datasheet table (mullet.se reproduction): L40 48 GB GDDR6, 181.05 TFLOP/s BF16 and 362 \
                 FP8 dense, PCIe Gen4 x16; compute capability 8.9; busbw derived from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "a10" => {
                "NVIDIA A10 datasheet: 24 GB GDDR6, 125 TFLOP/s BF16 dense; PCIe Gen4 as the A10G (the same GA102); \
                 compute capability 8.6; busbw derived from PCIe Gen4 x16 24 GB/s x 0.58"
            }
            "mi350x" => {
                "AMD MI350X: 288 GB HBM3E and 256 CUs (ROCm GPU specifications), 2.2 GHz (Hot Chips 2025); FP8 4614.4 \
                 dense derived as 256 x 8192 FLOP/clock (ISSCC 2026) x 2.2 GHz, BF16 2307.2 as FP8 / 2 (MI355X's \
                 ratio); 7 Infinity Fabric links of 153.6 GB/s in 8x OAM nodes (MLPerf 8xMI350X system); busbw as \
                 MI355X's (the same links)"
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
    // Driver-reported total, a 24 GiB card, as a guess for an unknown GPU.
    memory_mib: 24576.0,
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
