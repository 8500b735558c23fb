//! The report's `summary`: what the node offers the estimator (fabric, active RDMA ports and their rate, Ethernet
//! ports, GPUs and their model), with a warning for whatever it leaves out.

use std::collections::BTreeMap;

use estimator_core::catalog;
use estimator_core::report::{GdrSupport, Gpu, NetInterface, RdmaAdapter, ReportFabric, Summary};

/// The summary of the node's GPUs, RDMA adapters and network interfaces; `gdr` is left `unknown` for the GDR
/// verdict to fill. What is not counted is said through `warn(source, message)`.
pub fn summarize(
    gpus: &[Gpu],
    adapters: &[RdmaAdapter],
    nets: &[NetInterface],
    warn: &mut impl FnMut(&str, String),
) -> Summary {
    // Active RDMA ports with a known rate, split by link layer.
    let mut ib = Vec::new();
    let mut roce = Vec::new();
    let mut efa = Vec::new();
    for a in adapters {
        for p in a.ports.iter().filter(|p| p.active) {
            let label = format!("{}:{}", a.name, p.port);
            let Some(rate) = p.rate_gbps else {
                warn(
                    &format!("/sys/class/infiniband/{}/ports/{}", a.name, p.port),
                    "active, but its rate is unknown: not counted".into(),
                );
                continue;
            };
            if a.driver.as_deref() == Some("efa") {
                // EFA's ports have no link layer NCCL's NET/IB takes ("Unknown"): aws-ofi-nccl drives them.
                efa.push((label, rate));
            } else if p.link_layer.as_deref() == Some("Ethernet") {
                if p.roce_v2_gid_index.is_none() {
                    warn(&format!("/sys/class/infiniband/{label}"), "RoCE port without a RoCE v2 IPv4 GID: NCCL needs one (is an IP address configured on its netdev?)".into());
                }
                roce.push((label, rate));
            } else {
                ib.push((label, rate));
            }
        }
    }
    // Physical (a `device` link; bridges, bonds and veth have none) Ethernet interfaces that are up. A virtual
    // machine's virtio NIC counts, with an unknown speed.
    let up: Vec<&NetInterface> = nets
        .iter()
        .filter(|n| n.kind == "ethernet" && n.pci_bus_id.is_some() && n.operstate.as_deref() == Some("up"))
        .collect();
    let known: Vec<(String, f64)> =
        up.iter().filter_map(|n| Some((n.name.clone(), n.speed_mbps? as f64 / 1000.0))).collect();
    let (eth_ports, eth_gbps) = if known.is_empty() {
        (u32::try_from(up.len()).unwrap_or(u32::MAX), None)
    } else {
        dominant(&known, "Ethernet interface", &mut |_, _| {})
    };
    let (fabric, ports, gbps) = if !ib.is_empty() {
        let (n, g) = dominant(&ib, "InfiniBand port", warn);
        (ReportFabric::Infiniband, n, g)
    } else if !roce.is_empty() {
        let (n, g) = dominant(&roce, "RoCE port", warn);
        (ReportFabric::Roce, n, g)
    } else if !efa.is_empty() {
        let (n, g) = dominant(&efa, "EFA device", warn);
        (ReportFabric::Efa, n, g)
    } else if eth_ports > 0 {
        (ReportFabric::Ethernet, 0, eth_gbps)
    } else {
        (ReportFabric::None, 0, None)
    };

    let mut names: BTreeMap<&str, u32> = BTreeMap::new();
    for g in gpus {
        *names.entry(g.name.as_deref().unwrap_or("")).or_default() += 1;
    }
    if names.len() > 1 {
        warn(
            "gpus",
            format!("mixed GPU models: {:?}; the summary names the most common", names.keys().collect::<Vec<_>>()),
        );
    }
    let gpu_model = names.iter().max_by_key(|(_, n)| **n).map(|(name, _)| name.to_string()).map(|n| {
        if n.is_empty() {
            gpus.iter()
                .find_map(|g| Some(format!("PCI {}:{}", g.vendor_id.as_deref()?, g.device_id.as_deref()?)))
                .unwrap_or_else(|| "unknown GPU".to_string())
        } else {
            n
        }
    });
    let nvlink_domain_gpus = nvlink_domain(gpus, gpu_model.as_deref(), warn);
    Summary {
        fabric,
        rdma_adapters: ports,
        adapter_gbps: gbps,
        ethernet_ports: eth_ports,
        gpus: u32::try_from(gpus.len()).unwrap_or(u32::MAX),
        gpu_model,
        gdr: GdrSupport::Unknown,
        nvlink_domain_gpus,
    }
}

/// The NVLink domain the GPUs have joined, from NVML's fabric state. NVML tells one GPU its clique, not how many
/// GPUs share it: the domain's size is the rack the catalog sells this GPU in (72 for GB200/GB300 NVL72), and what
/// NVML says that the summary cannot use is warned about (a fabric not ready, a GPU the catalog has no rack for).
fn nvlink_domain(gpus: &[Gpu], model: Option<&str>, warn: &mut impl FnMut(&str, String)) -> Option<u32> {
    let fabrics: Vec<_> = gpus.iter().filter_map(|g| Some((g.index, g.nvlink_fabric.as_ref()?))).collect();
    let pending: Vec<String> = fabrics
        .iter()
        .filter(|(_, f)| matches!(f.state.as_str(), "not-started" | "in-progress"))
        .map(|(i, f)| format!("GPU {i} {}", f.state))
        .collect();
    if !pending.is_empty() {
        warn(
            "nvml",
            format!(
                "the multi-node NVLink fabric is not ready ({}): until the fabric manager finishes, NCCL cannot use \
                 NVLink between trays and sends that traffic over the network",
                pending.join(", ")
            ),
        );
        return None;
    }
    let failed: Vec<String> = fabrics
        .iter()
        .filter(|(_, f)| f.state == "completed" && !f.joined())
        .map(|(i, f)| format!("GPU {i}: {}", f.status.as_deref().unwrap_or("no status")))
        .collect();
    if !failed.is_empty() {
        warn(
            "nvml",
            format!("the NVLink fabric registration failed ({}): the node is its own domain", failed.join(", ")),
        );
        return None;
    }
    let joined = fabrics.iter().filter(|(_, f)| f.joined()).count();
    if joined == 0 {
        return None;
    }
    let cliques: std::collections::BTreeSet<_> =
        fabrics.iter().filter(|(_, f)| f.joined()).map(|(_, f)| (f.cluster_uuid.clone(), f.clique_id)).collect();
    if joined < gpus.len() || cliques.len() > 1 {
        warn(
            "nvml",
            format!(
                "{joined} of {} GPUs joined the NVLink fabric, in {} clique(s): NCCL uses multi-node NVLink only \
                 among GPUs of one clique; the node is taken as its own domain",
                gpus.len(),
                cliques.len()
            ),
        );
        return None;
    }
    let spec = catalog::lookup(model.unwrap_or("")).spec();
    match spec.rack_nvlink_domain() {
        Some(shape) => Some(shape.nvlink_domain_gpus),
        None => {
            warn(
                "nvml",
                format!(
                    "the GPUs joined a multi-node NVLink fabric, but how many GPUs share it is not on this node and the \
                     catalog sells {} in no rack-scale NVLink domain: give the domain with --nvlink-domain-gpus",
                    spec.name
                ),
            );
            None
        }
    }
}

/// The group of ports that carries the most bandwidth, as (ports, Gb/s each). Ports at other rates are warned
/// about (a storage or front-end NIC beside the compute NICs, or a link that trained down).
fn dominant(ports: &[(String, f64)], what: &str, warn: &mut impl FnMut(&str, String)) -> (u32, Option<f64>) {
    let mut groups: Vec<(f64, Vec<&str>)> = Vec::new();
    for (name, rate) in ports {
        match groups.iter_mut().find(|(r, _)| (*r - rate).abs() < 1e-9) {
            Some((_, names)) => names.push(name),
            None => groups.push((*rate, vec![name])),
        }
    }
    groups.sort_by(|a, b| (b.0 * b.1.len() as f64).total_cmp(&(a.0 * a.1.len() as f64)));
    let Some((rate, names)) = groups.first() else { return (0, None) };
    for (r, others) in &groups[1..] {
        warn(
            "summary",
            format!(
                "{} more active {what}{} at {r} Gb/s ({}) not counted: the summary uses the {} at {rate} Gb/s",
                others.len(),
                if others.len() == 1 { "" } else { "s" },
                others.join(", "),
                names.len()
            ),
        );
    }
    (u32::try_from(names.len()).unwrap_or(u32::MAX), Some(*rate))
}
