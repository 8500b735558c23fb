//! GPUDirect RDMA: whether the NICs can read and write GPU memory directly, decided as NCCL decides it (a
//! peer-memory module, or DMA-BUF registration with a driver that exports it) and limited by each GPU's distance
//! from its nearest NIC.

use estimator_core::report::{Affinity, Gdr, GdrSupport, Summary, VerbsStatus};

use super::fs::{Need, Tree};

/// NCCL's check for a peer-memory module (`src/transport/net_ib/gdr.cc`): any of these files existing.
pub fn peer_memory_module(tree: &mut Tree) -> Option<(String, Option<String>)> {
    [
        ("/sys/module/nvidia_peermem/version", "nvidia_peermem"),
        ("/sys/kernel/mm/memory_peers/nv_mem/version", "nv_peer_mem"),
        ("/sys/kernel/mm/memory_peers/nv_mem_nc/version", "nv_peer_mem (nc)"),
    ]
    .into_iter()
    .find(|(path, _)| tree.exists(path))
    .map(|(path, name)| (name.to_string(), tree.read(path, Need::Optional)))
}

/// The verdict from the summary (GPUs, fabric), the peer-memory module, libibverbs' DMA-BUF probe, the GPU-NIC
/// affinity and whether the NVIDIA driver is the open kernel module.
pub fn verdict(
    summary: &Summary,
    module: Option<(String, Option<String>)>,
    verbs: &VerbsStatus,
    affinity: &[Affinity],
    open_kernel_module: Option<bool>,
) -> Gdr {
    let dmabuf = if !verbs.available || verbs.devices.is_empty() {
        GdrSupport::Unknown
    } else if verbs.devices.iter().any(|d| d.dmabuf == "supported") {
        GdrSupport::Supported
    } else if verbs.devices.iter().all(|d| d.dmabuf == "not-supported") {
        GdrSupport::NotSupported
    } else {
        GdrSupport::Unknown
    };
    let (peer_memory_module, peer_memory_version) = module.map_or((None, None), |(m, v)| (Some(m), v));
    let mut reasons = Vec::new();
    let rdma = summary.fabric.is_rdma();
    let near = affinity.iter().filter(|a| a.gdr_distance_ok).count();
    let status = if summary.gpus == 0 {
        reasons.push("no GPU".to_string());
        GdrSupport::NotSupported
    } else if !rdma {
        reasons.push("no active RDMA port".to_string());
        GdrSupport::NotSupported
    } else if !affinity.is_empty() && near == 0 {
        reasons.push(
            "every GPU is PHB/NODE/SYS from its nearest NIC, and NCCL's default NCCL_NET_GDR_LEVEL (PXB) disables \
             GPUDirect RDMA over such paths"
                .to_string(),
        );
        GdrSupport::NotSupported
    } else if let Some(m) = &peer_memory_module {
        reasons.push(format!("peer-memory module {m} is loaded (what NCCL checks)"));
        if near < affinity.len() {
            reasons.push(format!(
                "{} of {} GPUs are too far from their nearest NIC for NCCL's default GDR level",
                affinity.len() - near,
                affinity.len()
            ));
        }
        GdrSupport::Supported
    } else if dmabuf == GdrSupport::Supported && open_kernel_module == Some(true) {
        reasons.push(
            "no peer-memory module, but the NICs register DMA-BUF and the NVIDIA open kernel module exports it"
                .to_string(),
        );
        GdrSupport::Supported
    } else if dmabuf == GdrSupport::NotSupported {
        reasons.push(
            "no peer-memory module (nvidia_peermem, nv_peer_mem) and the NICs refuse DMA-BUF registration".to_string(),
        );
        GdrSupport::NotSupported
    } else {
        reasons.push(match dmabuf {
            GdrSupport::Supported => "no peer-memory module; the NICs register DMA-BUF, but whether the GPU driver exports DMA-BUF (CUDA 11.7+, usually the open kernel module) is not known".to_string(),
            _ => "no peer-memory module (modprobe nvidia_peermem), and DMA-BUF could not be checked without libibverbs".to_string(),
        });
        GdrSupport::Unknown
    };
    Gdr { status, peer_memory_module, peer_memory_version, dmabuf, reasons }
}
