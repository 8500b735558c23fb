//! The likely causes of a run below the model, from the evidence given with it: the NCCL log, the topology, the
//! node report; and the note on a two-node Tree reading.

use super::{Cause, Evidence, SizeCheck, Verdict};
use crate::report::GdrSupport;
use crate::scenario::{Algorithm, Scenario};

/// What the evidence says, one line each.
pub(crate) fn evidence_lines(ev: &Evidence<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(log) = ev.log {
        let parts = log.facts();
        if !parts.is_empty() {
            out.push(format!("The NCCL log: {}.", parts.join(", ")));
        }
    }
    if let Some(topo) = ev.topo {
        let far: Vec<&str> = topo.nearest.iter().filter(|n| !n.gdr_distance_ok).map(|n| n.gpu.as_str()).collect();
        if !topo.nearest.is_empty() {
            out.push(if far.is_empty() {
                "The topology: every GPU has a NIC within PXB.".to_string()
            } else {
                format!("The topology: {} without a NIC within PXB.", far.join(", "))
            });
        }
    }
    if let Some(x) = ev.summary {
        out.push(format!(
            "The node report: {} RDMA adapter{} ({}), GPUDirect RDMA {}.",
            x.rdma_adapters,
            if x.rdma_adapters == 1 { "" } else { "s" },
            x.fabric.name(),
            x.gdr.name()
        ));
    }
    out
}

fn cause(id: &str, text: String, check: &[&str]) -> Cause {
    debug_assert!(!check.is_empty(), "{id}: a cause says what to check");
    Cause { id: id.to_string(), text, check: check.iter().map(|t| t.to_string()).collect() }
}

fn cause_push(causes: &mut Vec<Cause>, c: Cause) {
    if !causes.iter().any(|x| x.id == c.id) {
        causes.push(c);
    }
}

/// The causes, most likely first. For a healthy run only the note on a two-node Tree reading is kept.
pub(super) fn causes(s: &Scenario, ev: &Evidence<'_>, large: &SizeCheck, verdict: Verdict) -> Vec<Cause> {
    let mut causes = Vec::new();
    let multi = s.nodes() > 1;
    let rdma_hw = s.input().fabric.is_rdma() || ev.summary.is_some_and(|x| x.fabric.is_rdma());
    // Any fabric but plain TCP has a faster path than NCCL's sockets: RDMA, or GCP's GPUDirect-TCPX/TCPXO plugin.
    let faster_than_sockets = rdma_hw || s.input().fabric != crate::Fabric::Tcp;
    let fabric = s.input().fabric;
    // GPUDirect RDMA is a cause only where the scenario expects it: on an RDMA fabric with `gdr` (a user's
    // `--no-gdr`, or EFA on g4dn, already has the host-memory path in the expected curve).
    let expects_gdr = fabric.is_rdma() && s.input().gdr;

    if let Some(log) = ev.log {
        let on_sockets = log.transports.get("socket").copied().unwrap_or(0);
        let mixed = log.transport.as_deref() == Some("mixed") && on_sockets > 0;
        if multi && faster_than_sockets && (log.transport.as_deref() == Some("socket") || mixed) {
            let text = if mixed {
                format!(
                    "{on_sockets} of the log's {} processes fell back to TCP sockets (NET/Socket) while the others use \
                     the fabric: every collective runs at the sockets' pace",
                    log.transports.values().sum::<u32>()
                )
            } else {
                "NCCL fell back to TCP sockets (NET/Socket) although the nodes have a faster network path".to_string()
            };
            let fixes = if fabric == crate::Fabric::Tcp {
                crate::Fabric::Infiniband.fallback_fixes()
            } else {
                fabric.fallback_fixes()
            };
            cause_push(&mut causes, cause("socket-fallback", text, fixes));
        }
        if multi && expects_gdr && log.gdr == Some(false) && log.transport.as_deref() != Some("socket") {
            cause_push(
                &mut causes,
                cause(
                    "gdr-off",
                    "GPUDirect RDMA is off: the network channels run through host memory (no /GDRDMA)".to_string(),
                    fabric.gdr_fixes(),
                ),
            );
        }
        let present = ev
            .summary
            .map(|x| x.rdma_adapters)
            .filter(|n| *n > 0)
            .or_else(|| u32::try_from(s.input().adapters_per_node).ok().filter(|n| *n > 0 && rdma_hw));
        if let (Some(used), Some(present)) = (log.nics_used, present)
            && multi
            && used < present
        {
            cause_push(
                &mut causes,
                cause(
                    "fewer-nics",
                    format!("NCCL used {used} of the node's {present} RDMA adapters"),
                    &["NCCL_IB_HCA should list every adapter (or be unset)", "check that each port is ACTIVE (ibstat)"],
                ),
            );
        }
        if log.intra_node.iter().any(|k| k == "SHM") && !log.intra_node.iter().any(|k| k.starts_with("P2P")) {
            cause_push(
                &mut causes,
                cause(
                    "p2p-disabled",
                    "inside the node NCCL goes through shared host memory (SHM), not GPU peer-to-peer".to_string(),
                    &["unset NCCL_P2P_DISABLE", "disable ACS on the PCIe switches, or enable IOMMU passthrough"],
                ),
            );
        }
    }
    if let Some(topo) = ev.topo
        && multi
        && expects_gdr
    {
        let far: Vec<&str> = topo.nearest.iter().filter(|n| !n.gdr_distance_ok).map(|n| n.gpu.as_str()).collect();
        if !far.is_empty() {
            cause_push(
                &mut causes,
                cause(
                    "gpu-far-from-nic",
                    format!(
                        "{} {} no NIC within PXB (PHB/NODE/SYS): NCCL's default disables GPUDirect RDMA there",
                        far.join(", "),
                        if far.len() == 1 { "has" } else { "have" }
                    ),
                    &[
                        "NCCL_NET_GDR_LEVEL=SYS to allow GPUDirect RDMA over the CPU (often slower)",
                        "check the GPU-NIC pairing",
                    ],
                ),
            );
        }
    }
    if let Some(x) = ev.summary
        && multi
        && x.gdr == GdrSupport::NotSupported
        && rdma_hw
        && expects_gdr
        && !causes.iter().any(|c| c.id == "gdr-off")
    {
        let mut fixes = fabric.gdr_fixes().to_vec();
        fixes.push("probe-cli report shows the reasons under GDR");
        cause_push(
            &mut causes,
            cause(
                "gdr-off",
                "the node report says GPUDirect RDMA is not supported (no peer-memory module or DMA-BUF)".to_string(),
                &fixes,
            ),
        );
    }
    if let Some(ring) = large.expected_ring_busbw_gbs
        && large.measured_busbw_gbs > ring * 1.1
        && s.nodes() == 2
        && s.input().algorithm == Algorithm::Auto
    {
        cause_push(
            &mut causes,
            cause(
                "tree-reading",
                format!(
                    "{:.0} GB/s is above the Ring figure of {:.0} GB/s: on two nodes NCCL's default Tree/NVLSTree moves \
                     less than 2(N-1)/N x the size through the NICs, so nccl-tests' busbw reads high (the model \
                     expects {:.0}). It says little of the fabric itself; compare with NCCL_ALGO=Ring",
                    large.measured_busbw_gbs, ring, large.expected_busbw_gbs
                ),
                &["NCCL_ALGO=Ring all_reduce_perf -b 1G -e 8G -f 2 for the fabric's own figure"],
            ),
        );
    }
    if verdict != Verdict::Healthy && causes.iter().all(|c| c.id == "tree-reading") {
        cause_push(
            &mut causes,
            cause(
                "unexplained",
                "nothing given explains it: add the run's NCCL_DEBUG=INFO log, nvidia-smi topo -m and probe-cli report"
                    .to_string(),
                &[
                    "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
                    "check every port with ibstat (State: Active, the full Rate)",
                ],
            ),
        );
    }
    if verdict == Verdict::Healthy {
        // Nothing to explain: keep only what reads the figure (the two-node Tree note).
        causes.retain(|c| c.id == "tree-reading");
    }
    causes
}
