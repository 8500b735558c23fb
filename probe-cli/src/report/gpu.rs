//! GPUs from NVML (nvml-wrapper, which loads `libnvidia-ml.so.1` at run time), behind [`GpuLibrary`] so that a
//! captured tree can stand in for the driver, and [`merge`]d with the GPUs on the PCI bus: without NVML the GPUs
//! still come from PCI (see `pci.rs`).

use std::ffi::OsString;

use estimator_core::report::{Gpu, LibraryStatus, REDACTED};
use serde::{Deserialize, Serialize};

use super::pci::{self, PciDevice};

/// What NVML said about the node. `probe-cli gather` writes it to `/probe-cli/nvml.json` in the capture, so a
/// captured tree carries the driver's view too.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NvmlFacts {
    /// Driver version (`570.133.20`).
    pub driver_version: Option<String>,
    /// CUDA driver API version (`12.8`).
    pub cuda_driver_version: Option<String>,
    /// One entry per GPU, in NVML index order.
    pub gpus: Vec<NvmlGpu>,
    /// Calls that failed for one GPU or one field (the rest of the answer still counts).
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// One GPU as NVML sees it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NvmlGpu {
    /// NVML index.
    pub index: u32,
    /// `NVIDIA H100 80GB HBM3`.
    pub name: Option<String>,
    /// PCI address in sysfs form (`0000:1b:00.0`).
    pub pci_bus_id: Option<String>,
    /// Total memory, bytes.
    pub memory_bytes: Option<u64>,
    /// `9.0`.
    pub compute_capability: Option<String>,
    /// Active NVLink links.
    pub nvlink_active_links: Option<u32>,
    /// UUID.
    pub uuid: Option<String>,
    /// Serial number.
    pub serial: Option<String>,
    /// The NVLink fabric (`nvmlDeviceGetGpuFabricInfo`); `None` when NVML has none for this GPU.
    #[serde(default)]
    pub fabric: Option<estimator_core::report::NvlinkFabric>,
}

/// Where GPU facts come from: the live driver or a capture.
pub trait GpuLibrary {
    /// The facts, or why there are none (the library's own words).
    fn query(&self) -> Result<NvmlFacts, String>;
}

/// NVML on this machine. `lib_path` overrides `libnvidia-ml.so.1` (the `PROBE_CLI_NVML_LIB` variable).
pub struct LiveNvml {
    /// The library to load instead of the default.
    pub lib_path: Option<OsString>,
}

/// NVML's `00000000:1B:00.0` in sysfs form, `0000:1b:00.0`.
pub fn sysfs_bus_id(nvml: &str) -> Option<String> {
    let tail = nvml.get(nvml.len().checked_sub(12)?..)?.to_ascii_lowercase();
    pci::is_address(&tail).then_some(tail)
}

impl GpuLibrary for LiveNvml {
    fn query(&self) -> Result<NvmlFacts, String> {
        use nvml_wrapper::Nvml;
        let nvml = match &self.lib_path {
            Some(p) => Nvml::builder().lib_path(p).init(),
            None => Nvml::init(),
        }
        .map_err(|e| e.to_string())?;
        let mut facts = NvmlFacts {
            driver_version: nvml.sys_driver_version().ok(),
            cuda_driver_version: nvml.sys_cuda_driver_version().ok().map(|v| {
                format!("{}.{}", nvml_wrapper::cuda_driver_version_major(v), nvml_wrapper::cuda_driver_version_minor(v))
            }),
            ..Default::default()
        };
        let count = nvml.device_count().map_err(|e| format!("nvmlDeviceGetCount: {e}"))?;
        for index in 0..count {
            let d = match nvml.device_by_index(index) {
                Ok(d) => d,
                Err(e) => {
                    facts.warnings.push(format!("GPU {index}: nvmlDeviceGetHandleByIndex: {e}"));
                    continue;
                }
            };
            let mut field = |what: &str, r: Result<String, nvml_wrapper::error::NvmlError>| match r {
                Ok(v) => Some(v),
                Err(nvml_wrapper::error::NvmlError::NotSupported) => None,
                Err(e) => {
                    facts.warnings.push(format!("GPU {index}: {what}: {e}"));
                    None
                }
            };
            let name = field("name", d.name());
            let pci = field("PCI info", d.pci_info().map(|p| p.bus_id));
            let memory = field("memory", d.memory_info().map(|m| m.total.to_string()));
            let cc =
                field("compute capability", d.cuda_compute_capability().map(|c| format!("{}.{}", c.major, c.minor)));
            let uuid = field("UUID", d.uuid());
            let serial = field("serial", d.serial());
            let fabric = super::nvml_fabric::query(&nvml, &d).unwrap_or_else(|e| {
                facts.warnings.push(format!("GPU {index}: {e}"));
                None
            });
            // NVLink: iterate every possible link (NVML_NVLINK_MAX_LINKS = 18 in nvml-wrapper-sys 0.10); past the
            // last one NVML answers InvalidArg, and NotSupported without NVLink (nvml-wrapper 0.13, NvLink::is_active).
            let active = (0..18u32).filter(|&l| d.link_wrapper_for(l).is_active().unwrap_or(false)).count();
            facts.gpus.push(NvmlGpu {
                index,
                name,
                pci_bus_id: pci.as_deref().and_then(sysfs_bus_id),
                memory_bytes: memory.and_then(|m| m.parse().ok()),
                compute_capability: cc,
                nvlink_active_links: Some(u32::try_from(active).unwrap_or(0)),
                uuid,
                serial,
                fabric,
            });
        }
        Ok(facts)
    }
}

/// NVML facts from a capture (`/probe-cli/nvml.json` in the tree), or why there are none.
pub struct CapturedNvml {
    /// The file's text, if the capture has it.
    pub text: Option<String>,
}

impl GpuLibrary for CapturedNvml {
    fn query(&self) -> Result<NvmlFacts, String> {
        let text = self.text.as_deref().ok_or_else(|| {
            "not queried: a captured tree (--root) holds NVML's answer only when `probe-cli gather` wrote \
             /probe-cli/nvml.json"
                .to_string()
        })?;
        serde_json::from_str(text).map_err(|e| format!("/probe-cli/nvml.json is not NVML facts: {e}"))
    }
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

/// The report's GPUs: NVML's when it answered (with the PCI facts of each), plus any GPU on the PCI bus that NVML
/// does not list (with a warning); without NVML, the compute GPUs on the PCI bus. Also NVML's status for the report.
pub fn merge(
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
                gpu.nvlink_fabric = g.fabric.clone().map(|f| estimator_core::report::NvlinkFabric {
                    cluster_uuid: redact(f.cluster_uuid.clone(), identifiers),
                    ..f
                });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_ids_take_the_sysfs_form() {
        assert_eq!(sysfs_bus_id("00000000:1B:00.0").as_deref(), Some("0000:1b:00.0"));
        assert_eq!(sysfs_bus_id("0000:1b:00.0").as_deref(), Some("0000:1b:00.0"));
        assert_eq!(sysfs_bus_id("1B:00.0"), None);
        assert_eq!(sysfs_bus_id("é"), None);
    }

    #[test]
    fn without_a_driver_nvml_says_why() {
        let e = LiveNvml { lib_path: Some("/nonexistent/libnvidia-ml.so.1".into()) }.query().expect_err("an error");
        assert!(e.contains("libnvidia-ml.so.1"), "{e}");
        let e = CapturedNvml { text: None }.query().expect_err("an error");
        assert!(e.contains("gather"), "{e}");
        let e = CapturedNvml { text: Some("{".into()) }.query().expect_err("an error");
        assert!(e.contains("not NVML facts"), "{e}");
    }
}
