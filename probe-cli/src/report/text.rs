//! The report for a person: a few lines in the spirit of `ibstat` plus `nvidia-smi topo -m`.

use std::fmt::Write as _;

use estimator_core::report::{CheckStatus, Report, ReportFabric};
use estimator_core::{Bytes, human};

/// Memory in binary GiB.
fn gib(bytes: u64) -> String {
    human::gib(Bytes::new(bytes as f64))
}

/// `PCIe 5 x16`: the most the link can do.
fn pcie(link: &estimator_core::report::PcieLink) -> String {
    match (link.max_gen, link.max_width) {
        (Some(g), Some(w)) => format!("PCIe {g} x{w}"),
        _ => "PCIe ?".to_string(),
    }
}

/// A value as read, `?` when absent.
fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "?".to_string(), |v| v.to_string())
}

/// `1 socket`, `2 sockets`, `? sockets`.
fn plural(v: Option<u32>, noun: &str) -> String {
    match v {
        Some(n) => human::plural(u64::from(n), noun),
        None => format!("? {noun}s"),
    }
}

/// A line rate, or `unknown speed`.
fn gbps(v: Option<f64>) -> String {
    v.map_or_else(|| "unknown speed".to_string(), |g| format!("{} Gb/s", human::num(g, 3)))
}

/// Renders the report as text.
pub fn render(r: &Report) -> String {
    let mut out = String::new();
    let h = &r.host;
    let _ = writeln!(
        out,
        "Host     {} | {} | {}, {}, {} | {} | {} | kernel {}",
        opt(&h.hostname),
        opt(&h.cpu_model),
        plural(h.cpus, "CPU"),
        plural(h.sockets, "socket"),
        plural(h.numa_nodes, "NUMA node"),
        h.memory_bytes.map_or_else(|| "? memory".to_string(), gib),
        opt(&h.os),
        opt(&h.kernel)
    );
    let nvml = if r.nvml.available {
        format!("NVML, driver {}, CUDA {}", opt(&r.nvml.driver_version), opt(&r.nvml.cuda_driver_version))
    } else {
        format!("from PCI; NVML: {}", opt(&r.nvml.error))
    };
    let _ = writeln!(out, "GPUs     {} ({nvml})", r.gpus.len());
    for g in &r.gpus {
        let near = r.affinity.iter().find(|a| a.gpu == g.index).map_or(String::new(), |a| {
            let how = match (a.gdr_distance_ok, a.nccl_path.as_str()) {
                (true, "P2C") => " (through NVLink-C2C: NCCL's P2C path, GDR allowed)",
                (true, _) => "",
                (false, _) => " (too far for GDR)",
            };
            format!("  nearest {} {}{how}", a.nic, a.class)
        });
        let _ = writeln!(
            out,
            "  GPU{:<2} {} {}  NUMA {}  {}{}{}{}{}",
            g.index,
            g.pci_bus_id,
            g.name.as_deref().unwrap_or("unknown model"),
            opt(&g.numa_node),
            pcie(&g.pcie),
            g.memory_bytes.map_or(String::new(), |m| format!("  {}", gib(m))),
            g.nvlink_active_links.filter(|n| *n > 0).map_or(String::new(), |n| format!("  NVLink x{n}")),
            g.nvlink_fabric.as_ref().filter(|f| f.state != "not-supported").map_or(String::new(), |f| {
                match f.clique_id {
                    Some(c) => format!("  fabric {} (clique {c})", f.state),
                    None => format!("  fabric {}", f.state),
                }
            }),
            near
        );
    }
    let verbs = if r.verbs.available {
        let ok = r.verbs.devices.iter().filter(|d| d.memory_registration == "ok").count();
        format!("libibverbs lists {}, memory registration ok on {ok}", r.verbs.devices.len())
    } else {
        format!("libibverbs: {}", opt(&r.verbs.error))
    };
    let _ = writeln!(out, "RDMA     {} ({verbs})", human::plural(r.rdma_adapters.len() as u64, "adapter"));
    for a in &r.rdma_adapters {
        for p in &a.ports {
            let _ = writeln!(
                out,
                "  {} port {}  {} {}  {}  {}{}{}",
                a.name,
                p.port,
                opt(&p.state),
                opt(&p.phys_state),
                opt(&p.link_layer),
                p.rate_text.as_deref().unwrap_or("rate ?"),
                p.netdev.as_deref().map_or(String::new(), |n| format!("  {n}")),
                p.roce_v2_gid_index.map_or(String::new(), |i| format!("  RoCE v2 GID {i}"))
            );
        }
    }
    let nets: Vec<String> = r
        .net_interfaces
        .iter()
        .filter(|n| n.pci_bus_id.is_some())
        .map(|n| format!("{} {} {}", n.name, opt(&n.operstate), gbps(n.speed_mbps.map(|s| s as f64 / 1000.0))))
        .collect();
    let _ = writeln!(
        out,
        "Network  {}",
        if nets.is_empty() { "no physical interface".to_string() } else { nets.join(", ") }
    );
    let _ = writeln!(out, "GDR      {}: {}", r.gdr.status.name(), r.gdr.reasons.join("; "));
    let s = &r.summary;
    let net = match s.fabric {
        ReportFabric::Infiniband | ReportFabric::Roce | ReportFabric::Efa => {
            format!("{} x {} {}", s.rdma_adapters, gbps(s.adapter_gbps), s.fabric.name())
        }
        ReportFabric::Ethernet => format!("ethernet, {} x {} (no RDMA)", s.ethernet_ports, gbps(s.adapter_gbps)),
        ReportFabric::None => "no network for a multi-node job".to_string(),
    };
    let domain = s.nvlink_domain_gpus.map_or(String::new(), |d| format!(" | NVLink domain of {d} GPUs"));
    let _ = writeln!(
        out,
        "Summary  {} x {} | {net} | GPUDirect RDMA {}{domain}",
        s.gpus,
        s.gpu_model.as_deref().unwrap_or("no GPU"),
        s.gdr.name()
    );
    if let Some(worst) = r.readiness_status() {
        let count = |st: CheckStatus| r.readiness.iter().filter(|c| c.status == st).count();
        let _ = writeln!(
            out,
            "Ready    {}: {} pass, {} warn, {} fail, {} unknown",
            match worst {
                CheckStatus::Fail => "no",
                CheckStatus::Warn => "with warnings",
                CheckStatus::Unknown => "as far as the probe could tell",
                CheckStatus::Pass => "yes",
            },
            count(CheckStatus::Pass),
            count(CheckStatus::Warn),
            count(CheckStatus::Fail),
            count(CheckStatus::Unknown)
        );
        // The problems, worst first; a pass or an unknown is one word on the line above.
        for st in [CheckStatus::Fail, CheckStatus::Warn] {
            for c in r.readiness.iter().filter(|c| c.status == st) {
                let _ = writeln!(out, "  {:<4} {:<12} {}", st.name(), c.id, c.saw);
                if let Some(fix) = &c.fix {
                    let _ = writeln!(out, "       {:<12} fix: {fix}", "");
                }
            }
        }
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out, "Warnings {}", r.warnings.len());
        for w in &r.warnings {
            let _ = writeln!(out, "  {}: {}", w.source, w.message);
        }
    }
    // What --attach put into the report (the JSON has it whole; `probe-cli import FILE` prints it in full).
    for a in &r.attachments {
        let _ = writeln!(
            out,
            "Attached {}: {}, kept in the JSON (probe-cli import shows it)",
            a.file,
            a.imported.kind().name()
        );
    }
    let _ = writeln!(
        out,
        "Next     probe-cli report --json > node.json, then load it into the page, or run\n         \
         probe-cli estimate step --report node.json --params {} --nodes 2",
        hint_params(r)
    );
    out
}

/// The largest of a few model sizes that fit two of this node in some layout (`choose_sync`: states and a generic
/// shape's activations), for the command the report suggests: 13B on two 8 x 80 GB nodes (70B's activations need
/// tensor parallelism or recomputation) and on two nodes of one 141 GB GPU. 7B when none fits or the node has no
/// GPU the model knows.
fn hint_params(r: &Report) -> &'static str {
    const SIZES: [(&str, f64); 4] = [("70B", 70e9), ("13B", 13e9), ("7B", 7e9), ("1B", 1e9)];
    if r.summary.gpus == 0 {
        return "7B";
    }
    SIZES
        .iter()
        .find(|(_, params)| {
            let mut input = estimator_core::ScenarioInput { params: *params, ..Default::default() };
            r.summary.apply(&mut input);
            input.nodes = 2;
            input.adapters_per_node = input.adapters_per_node.max(1);
            estimator_core::recommend::choose_sync(&input).is_ok_and(|(_, c)| c.fits)
        })
        .map_or("7B", |(name, _)| name)
}
