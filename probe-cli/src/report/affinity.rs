//! Each GPU's nearest NIC, with the PCIe distance class `nvidia-smi topo -m` prints and whether NCCL's default
//! GPUDirect RDMA level allows it. A Grace superchip's GPU (GH200, GB200, GB300) reaches the CPU's PCIe over
//! NVLink-C2C: `nvidia-smi topo -m` says SYS or NODE, but NCCL's path is P2C, which it allows GPUDirect RDMA over
//! by default (`NCCL_NET_GDR_C2C=1`, `src/graph/paths.cc`; research note on MNNVL §4).

use std::collections::BTreeMap;

use estimator_core::report::{Affinity, Gpu, NetInterface, RdmaAdapter};

use super::pci::{self, PciDevice};

/// The nearest NIC of every GPU on the PCI bus: RDMA adapters when there are any, otherwise physical Ethernet
/// interfaces. `by_address` holds the PCI functions by address.
pub fn nearest_nics(
    gpus: &[Gpu],
    adapters: &[RdmaAdapter],
    nets: &[NetInterface],
    by_address: &BTreeMap<String, PciDevice>,
) -> Vec<Affinity> {
    // RDMA adapters when there are any; otherwise physical Ethernet interfaces. Ties in distance go to the faster
    // NIC, then to the name.
    let mut nics: Vec<(&str, f64, &PciDevice)> = adapters
        .iter()
        .filter_map(|a| {
            let speed = a.ports.iter().filter(|p| p.active).filter_map(|p| p.rate_gbps).fold(0.0, f64::max);
            Some((a.name.as_str(), speed, by_address.get(a.pci_bus_id.as_deref()?)?))
        })
        .collect();
    if nics.is_empty() {
        nics = nets
            .iter()
            .filter(|n| n.kind == "ethernet")
            .filter_map(|n| {
                let speed = n.speed_mbps.map_or(0.0, |s| s as f64 / 1000.0);
                Some((n.name.as_str(), speed, by_address.get(n.pci_bus_id.as_deref()?)?))
            })
            .collect();
    }
    let mut out = Vec::new();
    for g in gpus {
        let Some(gd) = by_address.get(&g.pci_bus_id) else { continue };
        let nearest = nics
            .iter()
            .filter_map(|(name, speed, nd)| Some((pci::distance(gd, nd)?, -speed, *name)))
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(b.2)));
        let c2c = g.name.as_deref().is_some_and(|n| estimator_core::catalog::lookup(n).spec().grace_host());
        if let Some((d, _, nic)) = nearest {
            out.push(Affinity {
                gpu: g.index,
                nic: nic.to_string(),
                class: d.label().to_string(),
                nccl_path: if c2c && !d.gdr_ok() { "P2C".to_string() } else { d.nccl_path().to_string() },
                gdr_distance_ok: d.gdr_ok() || c2c,
            });
        }
    }
    out
}
