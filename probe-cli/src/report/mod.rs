//! `probe-cli report`: reads a node's GPUs, RDMA adapters, network interfaces, GPUDirect RDMA support and GPU-to-NIC
//! affinity, and builds estimator-core's [`Report`].
//!
//! sysfs and `/proc` are read through [`fs::Tree`] (the live `/`, or a captured tree with `--root`); NVML and
//! libibverbs through [`gpu::GpuLibrary`] and [`verbs::VerbsLibrary`] (the live libraries, loaded at run time, or the
//! answers a capture holds). Each library call runs on its own thread with a deadline, so a wedged driver cannot hang
//! the probe. Nothing here writes to the system.

pub mod fs;
pub mod gpu;
pub mod host;
pub mod pci;
pub mod rdma;
pub mod text;
pub mod verbs;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use estimator_core::report::{
    Affinity, Gdr, GdrSupport, Gpu, LibraryStatus, NetInterface, REDACTED, RdmaAdapter, Report, ReportFabric,
    SCHEMA_VERSION, Source, Summary, VerbsDevice, VerbsStatus,
};

use self::fs::{Need, Tree};
use self::gpu::{GpuLibrary, NvmlFacts};
use self::pci::PciDevice;
use self::verbs::VerbsLibrary;

/// How long NVML and libibverbs together may take before the report goes on without them.
pub const LIBRARY_DEADLINE: Duration = Duration::from_secs(10);

/// Where the capture keeps the libraries' answers.
pub const NVML_CAPTURE: &str = "/probe-cli/nvml.json";
/// The same for libibverbs.
pub const VERBS_CAPTURE: &str = "/probe-cli/verbs.json";

/// Where NVML and libibverbs facts come from.
pub struct Libraries {
    /// NVML, live or captured.
    pub gpu: Box<dyn GpuLibrary + Send>,
    /// libibverbs, live or captured.
    pub verbs: Box<dyn VerbsLibrary + Send>,
    /// Whether these are the live libraries (for the report's `source.live`).
    pub live: bool,
}

impl Libraries {
    /// The live libraries; `PROBE_CLI_NVML_LIB` and `PROBE_CLI_IBVERBS_LIB` name other files to load.
    /// `identifiers` keeps the GID values libibverbs reports.
    pub fn live(identifiers: bool) -> Self {
        Libraries {
            gpu: Box::new(gpu::LiveNvml { lib_path: std::env::var_os("PROBE_CLI_NVML_LIB") }),
            verbs: Box::new(verbs::LiveVerbs { lib_path: std::env::var_os("PROBE_CLI_IBVERBS_LIB"), identifiers }),
            live: true,
        }
    }

    /// The answers a captured tree holds (written by `probe-cli gather`), if any.
    pub fn captured(tree: &mut Tree) -> Self {
        Libraries {
            gpu: Box::new(gpu::CapturedNvml { text: tree.read(NVML_CAPTURE, Need::Optional) }),
            verbs: Box::new(verbs::CapturedVerbs { text: tree.read(VERBS_CAPTURE, Need::Optional) }),
            live: false,
        }
    }
}

/// A finished probe: the report, what was read, and the libraries' raw answers (for `gather`).
pub struct Probe {
    /// The report.
    pub report: Report,
    /// Every file and link read.
    pub captured: BTreeMap<PathBuf, fs::Captured>,
    /// NVML's answer, when it gave one.
    pub nvml: Option<NvmlFacts>,
    /// libibverbs' answer, when it gave one.
    pub verbs: Option<Vec<VerbsDevice>>,
}

fn spawn<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> mpsc::Receiver<Result<T, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx
}

fn wait<T>(
    rx: &mpsc::Receiver<Result<T, String>>,
    deadline: Instant,
    limit: Duration,
    what: &str,
) -> Result<T, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    match rx.recv_timeout(left) {
        Ok(r) => r,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(format!("{what} did not answer within {:.1} s; left behind", limit.as_secs_f64()))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(format!("{what} failed without an answer")),
    }
}

/// Probes `tree` with `libs`. `identifiers` keeps hostnames, GUIDs, MACs, GIDs, UUIDs and serials in the report.
pub fn probe(tree: Tree, libs: Libraries, identifiers: bool) -> Probe {
    probe_within(tree, libs, identifiers, LIBRARY_DEADLINE)
}

/// [`probe`], with the libraries' deadline given.
fn probe_within(mut tree: Tree, libs: Libraries, identifiers: bool, limit: Duration) -> Probe {
    let deadline = Instant::now() + limit;
    let Libraries { gpu: gpu_lib, verbs: verbs_lib, live } = libs;
    let nvml_rx = spawn(move || gpu_lib.query());
    let verbs_rx = spawn(move || verbs_lib.query());

    let host = host::read(&mut tree, identifiers);
    let pci_devices = pci::read_all(&mut tree);
    let by_address: BTreeMap<String, PciDevice> = pci_devices.iter().map(|d| (d.address.clone(), d.clone())).collect();
    let net_interfaces = rdma::read_interfaces(&mut tree, identifiers);
    let speeds: BTreeMap<String, f64> = net_interfaces
        .iter()
        .filter(|n| n.operstate.as_deref() == Some("up"))
        .filter_map(|n| n.speed_mbps.map(|s| (n.name.clone(), s as f64 / 1000.0)))
        .collect();
    let rdma_adapters = rdma::read_adapters(&mut tree, identifiers, &|name| speeds.get(name).copied());
    let gdr_module = peer_memory_module(&mut tree);
    let open_kernel_module =
        tree.read("/proc/driver/nvidia/version", Need::Optional).map(|v| v.contains("Open Kernel Module"));

    let nvml = wait(&nvml_rx, deadline, limit, "NVML");
    let verbs = wait(&verbs_rx, deadline, limit, "libibverbs");

    let mut warnings = std::mem::take(&mut tree.warnings);
    let mut warn = |source: &str, message: String| {
        warnings.push(estimator_core::report::Warning { source: source.to_string(), message });
    };
    let (gpus, nvml_status) = merge_gpus(&pci_devices, nvml.as_ref(), identifiers, &mut warn);
    let verbs_status = match &verbs {
        Ok(devices) => {
            let mut devices = devices.clone();
            if !identifiers {
                // A capture may have been made with identifiers; the report still redacts them unless asked.
                verbs::redact_gids(&mut devices);
            }
            VerbsStatus { available: true, error: None, devices }
        }
        Err(e) => VerbsStatus { available: false, error: Some(e.clone()), devices: Vec::new() },
    };
    for d in &verbs_status.devices {
        if d.memory_registration != "ok" {
            warn("libibverbs", format!("{}: memory registration smoke test: {}", d.name, d.memory_registration));
        }
    }
    if verbs_status.available
        && verbs_status.devices.is_empty()
        && rdma_adapters.iter().any(|a| a.ports.iter().any(|p| p.active))
    {
        warn(
            "libibverbs",
            "the kernel has active RDMA ports but libibverbs lists no device: is the user-space provider \
             (rdma-core's libmlx5 and friends) installed, and /dev/infiniband readable?"
                .to_string(),
        );
    }
    let affinity = affinity(&gpus, &rdma_adapters, &net_interfaces, &by_address);
    let summary = summarize(&gpus, &rdma_adapters, &net_interfaces, &mut warn);
    let gdr = gdr(&summary, gdr_module, &verbs_status, &affinity, open_kernel_module);
    let summary = Summary { gdr: gdr.status, ..summary };
    if let Err(e) = summary.validate() {
        warnings.push(estimator_core::report::Warning {
            source: "summary".to_string(),
            message: format!("{e}: the page and `estimate step --report` will refuse this report"),
        });
    }

    let report = Report {
        schema_version: SCHEMA_VERSION,
        generator: format!("probe-cli {}", env!("CARGO_PKG_VERSION")),
        source: Source { root: tree.root().display().to_string(), live, identifiers_included: identifiers },
        host,
        gpus,
        nvml: nvml_status,
        rdma_adapters,
        verbs: verbs_status,
        net_interfaces,
        gdr,
        affinity,
        warnings,
        attachments: Vec::new(),
        summary,
    };
    Probe { report, captured: tree.captured, nvml: nvml.ok(), verbs: verbs.ok() }
}

fn redact(v: Option<String>, identifiers: bool) -> Option<String> {
    v.map(|s| if identifiers { s } else { REDACTED.to_string() })
}

fn gpu_from_pci(index: u32, d: &PciDevice) -> Gpu {
    let name = d.vendor.zip(d.device).and_then(|(v, dev)| pci::gpu_name(v, dev)).map(str::to_string);
    Gpu {
        index,
        pci_bus_id: d.address.clone(),
        name,
        source: "pci".into(),
        vendor_id: d.vendor.map(|v| format!("{v:#06x}")),
        device_id: d.device.map(|v| format!("{v:#06x}")),
        numa_node: d.numa_node,
        pcie: d.link.clone(),
        ..Default::default()
    }
}

/// A PCI GPU: any NVIDIA display controller; an AMD one only if it is a compute part (class 0x0380, or in the
/// table), so that a laptop's integrated Radeon is not counted.
fn is_compute_gpu(d: &PciDevice) -> bool {
    d.is_gpu()
        && (d.vendor == Some(pci::NVIDIA)
            || d.class.is_some_and(|c| c >> 8 == 0x0380)
            || d.device.is_some_and(|dev| pci::gpu_name(pci::AMD, dev).is_some()))
}

fn merge_gpus(
    pci_devices: &[PciDevice],
    nvml: Result<&NvmlFacts, &String>,
    identifiers: bool,
    warn: &mut impl FnMut(&str, String),
) -> (Vec<Gpu>, LibraryStatus) {
    let on_pci: Vec<&PciDevice> = pci_devices.iter().filter(|d| is_compute_gpu(d)).collect();
    match nvml {
        Err(e) => {
            let gpus = on_pci.iter().zip(0u32..).map(|(d, i)| gpu_from_pci(i, d)).collect();
            (gpus, LibraryStatus { available: false, error: Some(e.clone()), ..Default::default() })
        }
        Ok(facts) => {
            for w in &facts.warnings {
                warn("nvml", w.clone());
            }
            let mut gpus = Vec::new();
            for g in &facts.gpus {
                let pci = g.pci_bus_id.as_deref().and_then(|id| on_pci.iter().find(|d| d.address == id));
                let mut gpu = match pci {
                    Some(d) => gpu_from_pci(g.index, d),
                    None => Gpu {
                        index: g.index,
                        pci_bus_id: g.pci_bus_id.clone().unwrap_or_default(),
                        ..Default::default()
                    },
                };
                gpu.source = "nvml".into();
                gpu.name = g.name.clone().or(gpu.name);
                gpu.memory_bytes = g.memory_bytes;
                gpu.compute_capability.clone_from(&g.compute_capability);
                gpu.nvlink_active_links = g.nvlink_active_links;
                gpu.uuid = redact(g.uuid.clone(), identifiers);
                gpu.serial = redact(g.serial.clone(), identifiers);
                gpus.push(gpu);
            }
            let mut next = facts.gpus.iter().map(|g| g.index + 1).max().unwrap_or(0);
            for d in &on_pci {
                if !gpus.iter().any(|g| g.pci_bus_id == d.address) {
                    warn(
                        &format!("/sys/bus/pci/devices/{}", d.address),
                        "a GPU on the PCI bus that NVML does not list (driver not bound, or the GPU fell off the bus)"
                            .to_string(),
                    );
                    gpus.push(gpu_from_pci(next, d));
                    next += 1;
                }
            }
            let status = LibraryStatus {
                available: true,
                error: None,
                driver_version: facts.driver_version.clone(),
                cuda_driver_version: facts.cuda_driver_version.clone(),
            };
            (gpus, status)
        }
    }
}

/// NCCL's check for a peer-memory module (`src/transport/net_ib/gdr.cc`): any of these files existing.
fn peer_memory_module(tree: &mut Tree) -> Option<(String, Option<String>)> {
    [
        ("/sys/module/nvidia_peermem/version", "nvidia_peermem"),
        ("/sys/kernel/mm/memory_peers/nv_mem/version", "nv_peer_mem"),
        ("/sys/kernel/mm/memory_peers/nv_mem_nc/version", "nv_peer_mem (nc)"),
    ]
    .into_iter()
    .find(|(path, _)| tree.exists(path))
    .map(|(path, name)| (name.to_string(), tree.read(path, Need::Optional)))
}

fn affinity(
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
        if let Some((d, _, nic)) = nearest {
            out.push(Affinity {
                gpu: g.index,
                nic: nic.to_string(),
                class: d.label().to_string(),
                nccl_path: d.nccl_path().to_string(),
                gdr_distance_ok: d.gdr_ok(),
            });
        }
    }
    out
}

fn summarize(
    gpus: &[Gpu],
    adapters: &[RdmaAdapter],
    nets: &[NetInterface],
    warn: &mut impl FnMut(&str, String),
) -> Summary {
    // Active RDMA ports with a known rate, split by link layer.
    let mut ib = Vec::new();
    let mut roce = Vec::new();
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
            if p.link_layer.as_deref() == Some("Ethernet") {
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
    Summary {
        fabric,
        rdma_adapters: ports,
        adapter_gbps: gbps,
        ethernet_ports: eth_ports,
        gpus: u32::try_from(gpus.len()).unwrap_or(u32::MAX),
        gpu_model,
        gdr: GdrSupport::Unknown,
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

fn gdr(
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
    let rdma = matches!(summary.fabric, ReportFabric::Infiniband | ReportFabric::Roce);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A library that hangs, as a wedged driver can.
    struct Hangs;

    impl GpuLibrary for Hangs {
        fn query(&self) -> Result<NvmlFacts, String> {
            std::thread::sleep(Duration::from_secs(30));
            Err("woke up".to_string())
        }
    }

    impl VerbsLibrary for Hangs {
        fn query(&self) -> Result<Vec<VerbsDevice>, String> {
            std::thread::sleep(Duration::from_secs(30));
            Err("woke up".to_string())
        }
    }

    #[test]
    fn a_library_that_hangs_is_left_behind_at_the_deadline() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nodes/h100-ib-8x400");
        let libs = Libraries { gpu: Box::new(Hangs), verbs: Box::new(Hangs), live: true };
        let started = Instant::now();
        let p = probe_within(Tree::new(root), libs, false, Duration::from_millis(200));
        assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
        for status in [p.report.nvml.error, p.report.verbs.error] {
            assert!(status.as_deref().is_some_and(|e| e.contains("did not answer within 0.2 s")), "{status:?}");
        }
        // The rest of the report stands: the GPUs come from PCI, the ports from sysfs.
        assert_eq!((p.report.summary.gpus, p.report.summary.rdma_adapters), (8, 8));
    }
}
