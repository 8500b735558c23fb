//! `probe-cli report`: reads a node's GPUs, RDMA adapters, network interfaces, GPUDirect RDMA support and GPU-to-NIC
//! affinity, and builds estimator-core's [`Report`].
//!
//! sysfs and `/proc` are read through [`fs::Tree`] (the live `/`, or a captured tree with `--root`); NVML and
//! libibverbs through [`gpu::GpuLibrary`] and [`verbs::VerbsLibrary`] (the live libraries, loaded at run time, or the
//! answers a capture holds), which [`libraries`] runs on threads with a deadline, so a wedged driver cannot hang the
//! probe. From what they read, [`gpu::merge`] lists the GPUs, [`affinity`] pairs each with its nearest NIC,
//! [`summary`] says what the node offers the estimator and [`gdr`] decides GPUDirect RDMA. Nothing here writes to
//! the system.

pub mod affinity;
pub mod environment;
pub mod fs;
pub mod gdr;
pub mod gpu;
pub mod host;
pub mod libraries;
pub mod nvml_fabric;
pub mod pci;
pub mod rdma;
pub mod summary;
pub mod text;
pub mod verbs;
pub mod verbs_abi;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use estimator_core::report::{Report, SCHEMA_VERSION, Source, Summary, VerbsDevice, VerbsStatus};

use self::fs::{Need, Tree};
use self::gpu::NvmlFacts;
use self::libraries::{Answers, LIBRARY_DEADLINE, Libraries};
use self::pci::PciDevice;
use crate::outcome::Failure;

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

/// Probes the live machine (`/`, with the live libraries) or a captured tree (`--root`, with the libraries' answers
/// it holds). A root that is not a directory is a usage error; everything else that goes wrong is a warning in the
/// report.
pub fn probe_root(root: Option<&Path>, identifiers: bool) -> Result<Probe, Failure> {
    match root {
        None => {
            let live = environment::LiveFacts::read(Path::new("/dev/infiniband"), std::env::vars(), identifiers);
            Ok(probe(Tree::new("/"), Libraries::live(identifiers), live, identifiers, LIBRARY_DEADLINE))
        }
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Failure::Usage(format!("--root {}: not a directory", dir.display())));
            }
            let mut tree = Tree::new(PathBuf::from(dir));
            let libs = Libraries::captured(&mut tree);
            let live = environment::LiveFacts::captured(&mut tree);
            Ok(probe(tree, libs, live, identifiers, LIBRARY_DEADLINE))
        }
    }
}

/// Probes `tree` with `libs`, which have `limit` to answer, and `live`, what only the live process sees.
/// `identifiers` keeps hostnames, GUIDs, MACs, GIDs, UUIDs and serials in the report.
fn probe(mut tree: Tree, libs: Libraries, live: environment::LiveFacts, identifiers: bool, limit: Duration) -> Probe {
    let pending = libs.start(limit);

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
    let gdr_module = gdr::peer_memory_module(&mut tree);
    let open_kernel_module =
        tree.read("/proc/driver/nvidia/version", Need::Optional).map(|v| v.contains("Open Kernel Module"));
    let environment = environment::read(&mut tree, live);

    let Answers { nvml, verbs, live } = pending.wait();

    let mut warnings = std::mem::take(&mut tree.warnings);
    let mut warn = |source: &str, message: String| {
        warnings.push(estimator_core::report::Warning { source: source.to_string(), message });
    };
    let (gpus, nvml_status) = gpu::merge(&pci_devices, nvml.as_ref(), identifiers, &mut warn);
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
    let affinity = affinity::nearest_nics(&gpus, &rdma_adapters, &net_interfaces, &by_address);
    let summary = summary::summarize(&gpus, &rdma_adapters, &net_interfaces, &mut warn);
    let gdr = gdr::verdict(&summary, gdr_module, &verbs_status, &affinity, open_kernel_module);
    let summary = Summary { gdr: gdr.status, ..summary };
    if let Err(e) = summary.validate() {
        warnings.push(estimator_core::report::Warning {
            source: "summary".to_string(),
            message: format!("{e}: the page and `estimate step --report` will refuse this report"),
        });
    }

    let mut report = Report {
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
        environment,
        readiness: Vec::new(),
        summary,
    };
    report.readiness = estimator_core::report::checks(&report);
    Probe { report, captured: tree.captured, nvml: nvml.ok(), verbs: verbs.ok() }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::gpu::GpuLibrary;
    use super::verbs::VerbsLibrary;
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
        let p = probe(Tree::new(root), libs, environment::LiveFacts::default(), false, Duration::from_millis(200));
        assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
        for status in [p.report.nvml.error, p.report.verbs.error] {
            assert!(status.as_deref().is_some_and(|e| e.contains("did not answer within 0.2 s")), "{status:?}");
        }
        // The rest of the report stands: the GPUs come from PCI, the ports from sysfs.
        assert_eq!((p.report.summary.gpus, p.report.summary.rdma_adapters), (8, 8));
    }
}
