//! PCI devices from `/sys/bus/pci/devices`: identity, NUMA node, PCIe link, and the PCIe distance between two
//! devices as `nvidia-smi topo -m` names it (PIX, PXB, PHB, NODE, SYS), derived from each device's real sysfs path.
//! Layouts and rules from the public sources: Linux `drivers/pci/probe.c` (`pci_speed_string`, the
//! `current_link_speed` and `max_link_speed` strings), NCCL `src/graph/xml.cc` (the PCIe tree it builds from each
//! device's `realpath`, and its PIX/PXB/PHB/SYS path types) and `src/os/linux.cc` (how it resolves that path);
//! `nvidia-smi topo -m` outputs in `tests/data/tool-outputs` are the oracle the tests compare with.

use std::path::{Path, PathBuf};

use estimator_core::report::PcieLink;

use super::fs::{Need, Tree};

/// NVIDIA's PCI vendor id.
pub const NVIDIA: u16 = 0x10de;
/// AMD/ATI's.
pub const AMD: u16 = 0x1002;

/// One PCI function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PciDevice {
    /// `0000:1b:00.0`.
    pub address: String,
    /// Vendor id.
    pub vendor: Option<u16>,
    /// Device id.
    pub device: Option<u16>,
    /// 24-bit class code.
    pub class: Option<u32>,
    /// NUMA node; `None` for -1 or missing.
    pub numa_node: Option<i32>,
    /// PCIe link.
    pub link: PcieLink,
    /// The real path inside the tree (`/sys/devices/pci0000:17/0000:17:01.0/.../0000:1b:00.0`).
    pub real_path: Option<PathBuf>,
}

impl PciDevice {
    /// A GPU: display controller (class 0x03xxxx) from NVIDIA or AMD.
    pub fn is_gpu(&self) -> bool {
        matches!(self.vendor, Some(NVIDIA | AMD)) && self.class.is_some_and(|c| c >> 16 == 0x03)
    }
}

/// Whether a name looks like a PCI address (`0000:1b:00.0`).
pub fn is_address(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 12
        && b[4] == b':'
        && b[7] == b':'
        && b[10] == b'.'
        && s.chars().enumerate().all(|(i, c)| matches!(i, 4 | 7 | 10) || c.is_ascii_hexdigit())
}

fn hex<T: TryFrom<u64>>(s: &str) -> Option<T> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    u64::from_str_radix(digits, 16).ok().and_then(|v| T::try_from(v).ok())
}

/// The PCIe generation of a `current_link_speed`/`max_link_speed` value (`16.0 GT/s PCIe`, `8 GT/s`, `Unknown`).
pub fn link_gen(s: &str) -> Option<u8> {
    let gts: f64 = s.split_whitespace().next()?.parse().ok()?;
    [(2.5, 1), (5.0, 2), (8.0, 3), (16.0, 4), (32.0, 5), (64.0, 6)]
        .iter()
        .find(|(g, _)| (gts - g).abs() < 0.01)
        .map(|&(_, gen_)| gen_)
}

/// Reads one device under `/sys/bus/pci/devices/<address>`.
pub fn read_device(tree: &mut Tree, address: &str) -> PciDevice {
    let dir = PathBuf::from("/sys/bus/pci/devices").join(address);
    let vendor = tree.parse(dir.join("vendor"), Need::Expected, "a hex vendor id", hex::<u16>);
    let device = tree.parse(dir.join("device"), Need::Expected, "a hex device id", hex::<u16>);
    let class = tree.parse(dir.join("class"), Need::Expected, "a hex class code", hex::<u32>);
    let numa_node = tree
        .parse(dir.join("numa_node"), Need::Optional, "a NUMA node number", |s| s.parse::<i32>().ok())
        .filter(|n| *n >= 0);
    let width = |tree: &mut Tree, name: &str| {
        tree.parse(dir.join(name), Need::Optional, "a lane count", |s| s.parse::<u8>().ok()).filter(|w| *w > 0)
    };
    let speed = |tree: &mut Tree, name: &str| {
        let text = tree.read(dir.join(name), Need::Optional)?;
        if text.eq_ignore_ascii_case("unknown") {
            return None;
        }
        let g = link_gen(&text);
        if g.is_none() {
            tree.warn(
                dir.join(name).display().to_string(),
                format!("expected a PCIe speed such as \"16.0 GT/s PCIe\", found {text:?}"),
            );
        }
        g
    };
    let link = PcieLink {
        current_gen: speed(tree, "current_link_speed"),
        current_width: width(tree, "current_link_width"),
        max_gen: speed(tree, "max_link_speed"),
        max_width: width(tree, "max_link_width"),
    };
    let real_path = tree.real_path(&dir);
    PciDevice { address: address.to_string(), vendor, device, class, numa_node, link, real_path }
}

/// Every PCI function in the tree, in address order.
pub fn read_all(tree: &mut Tree) -> Vec<PciDevice> {
    let names = tree.list("/sys/bus/pci/devices", Need::Expected);
    let mut out = Vec::new();
    for name in names {
        if is_address(&name) {
            out.push(read_device(tree, &name));
        } else {
            tree.warn(format!("/sys/bus/pci/devices/{name}"), "not a PCI address; skipped");
        }
    }
    out
}

/// The PCI function behind a device link (`/sys/class/infiniband/mlx5_0/device`): the last PCI address on its real
/// path, so that a virtio NIC (`.../0000:00:05.0/virtio1`) maps to its PCI function too.
pub fn address_of(tree: &mut Tree, device_link: &Path) -> Option<String> {
    let real = tree.real_path(device_link)?;
    real.iter().filter_map(|c| c.to_str()).rfind(|c| is_address(c)).map(str::to_string)
}

/// A distance class, nearest first, as `nvidia-smi topo -m` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Distance {
    /// At most one PCIe bridge (both below one switch).
    Pix,
    /// Several bridges, below one host bridge.
    Pxb,
    /// Through a PCIe host bridge (the CPU).
    Phb,
    /// Between host bridges of one NUMA node.
    Node,
    /// Across NUMA nodes (UPI, xGMI, ...).
    Sys,
}

impl Distance {
    /// `PIX`, `PXB`, `PHB`, `NODE`, `SYS`.
    pub fn label(self) -> &'static str {
        match self {
            Distance::Pix => "PIX",
            Distance::Pxb => "PXB",
            Distance::Phb => "PHB",
            Distance::Node => "NODE",
            Distance::Sys => "SYS",
        }
    }

    /// NCCL's path type (`src/include/graph.h`): NCCL has no NODE, its path goes through the CPU (PHB).
    pub fn nccl_path(self) -> &'static str {
        match self {
            Distance::Node => "PHB",
            d => d.label(),
        }
    }

    /// NCCL's default GDR level is PXB (`src/graph/paths.cc` ncclTopoCheckGdr: `distance > netGdrLevel` disables
    /// GPUDirect RDMA), so PIX and PXB allow it, PHB, NODE and SYS do not.
    pub fn gdr_ok(self) -> bool {
        self <= Distance::Pxb
    }
}

/// `(host bridge, bridges and device below it)` from `/sys/devices/pci0000:17/0000:17:01.0/.../0000:1b:00.0`.
fn hierarchy(real: &Path) -> Option<(String, Vec<String>)> {
    let mut parts = real.strip_prefix("/sys/devices").ok()?.iter().map(|p| p.to_string_lossy().into_owned());
    let root = parts.next().filter(|r| r.starts_with("pci"))?;
    let below: Vec<String> = parts.filter(|p| is_address(p)).collect();
    (!below.is_empty()).then_some((root, below))
}

/// The distance between two PCI devices, the way `nvidia-smi topo -m` classifies it (its legend, in
/// `tests/data/tool-outputs/nvidia-smi-topo-m_01_*.txt`, and the outputs there that the tests check against):
/// different host bridges are NODE on one NUMA node (also when neither knows its node) and SYS across nodes; below one
/// host bridge, sharing nothing but it is PHB, hanging off one switch (at most two hops each below the last common
/// element) is PIX, and anything deeper is PXB. `None` when a path is not a PCI hierarchy.
pub fn distance(a: &PciDevice, b: &PciDevice) -> Option<Distance> {
    let (root_a, path_a) = hierarchy(a.real_path.as_deref()?)?;
    let (root_b, path_b) = hierarchy(b.real_path.as_deref()?)?;
    if root_a != root_b {
        return Some(if a.numa_node == b.numa_node { Distance::Node } else { Distance::Sys });
    }
    let common = path_a.iter().zip(&path_b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return Some(Distance::Phb);
    }
    let (ra, rb) = (path_a.len() - common, path_b.len() - common);
    Some(if ra <= 2 && rb <= 2 { Distance::Pix } else { Distance::Pxb })
}

/// Model names of data-centre GPUs by PCI device id, for nodes without a driver. From the PCI ID Repository
/// (<https://pci-ids.ucw.cz>, vendor 10de and 1002), written the way NVML and rocm-smi name the boards so the
/// estimator's catalog resolves them.
const GPU_NAMES: &[(u16, u16, &str)] = &[
    (NVIDIA, 0x2330, "NVIDIA H100 80GB HBM3"),  // GH100 [H100 SXM5 80GB]
    (NVIDIA, 0x2331, "NVIDIA H100 PCIe"),       // GH100 [H100 PCIe]
    (NVIDIA, 0x2321, "NVIDIA H100 NVL"),        // GH100 [H100 NVL]
    (NVIDIA, 0x2324, "NVIDIA H800"),            // GH100 [H800]
    (NVIDIA, 0x2335, "NVIDIA H200"),            // GH100 [H200 SXM 141GB]
    (NVIDIA, 0x2901, "NVIDIA B200"),            // GB100 [B200]
    (NVIDIA, 0x20b0, "NVIDIA A100-SXM4-40GB"),  // GA100 [A100 SXM4 40GB]
    (NVIDIA, 0x20b2, "NVIDIA A100-SXM4-80GB"),  // GA100 [A100 SXM4 80GB]
    (NVIDIA, 0x20b5, "NVIDIA A100 80GB PCIe"),  // GA100 [A100 PCIe 80GB]
    (NVIDIA, 0x20f1, "NVIDIA A100-PCIE-40GB"),  // GA100 [A100 PCIe 40GB]
    (NVIDIA, 0x26b9, "NVIDIA L40S"),            // AD102GL [L40S]
    (NVIDIA, 0x26b5, "NVIDIA L40"),             // AD102GL [L40]
    (NVIDIA, 0x27b8, "NVIDIA L4"),              // AD104GL [L4]
    (NVIDIA, 0x2236, "NVIDIA A10"),             // GA102GL [A10]
    (NVIDIA, 0x1db4, "Tesla V100-PCIE-16GB"),   // GV100GL [Tesla V100 PCIe 16GB]
    (NVIDIA, 0x1db5, "Tesla V100-SXM2-32GB"),   // GV100GL [Tesla V100 SXM2 32GB]
    (AMD, 0x74a1, "AMD Instinct MI300X"),       // Aqua Vanjaram [Instinct MI300X]
    (AMD, 0x740c, "AMD Instinct MI250X/MI250"), // Aldebaran/MI200 [Instinct MI250X/MI250]
];

/// The model name of a GPU from its PCI ids, if the table knows it.
pub fn gpu_name(vendor: u16, device: u16) -> Option<&'static str> {
    GPU_NAMES.iter().find(|(v, d, _)| *v == vendor && *d == device).map(|(_, _, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(path: &str, numa: Option<i32>) -> PciDevice {
        PciDevice { real_path: Some(PathBuf::from(path)), numa_node: numa, ..Default::default() }
    }

    #[test]
    fn distances_follow_the_pci_hierarchy() {
        let gpu = dev("/sys/devices/pci0000:17/0000:17:01.0/0000:18:00.0/0000:19:00.0/0000:1b:00.0", Some(0));
        let same_switch = dev("/sys/devices/pci0000:17/0000:17:01.0/0000:18:00.0/0000:19:01.0/0000:1c:00.0", Some(0));
        let deeper =
            dev("/sys/devices/pci0000:17/0000:17:01.0/0000:18:00.0/0000:19:02.0/0000:1d:00.0/0000:1e:00.0", Some(0));
        let other_port = dev("/sys/devices/pci0000:17/0000:17:02.0/0000:20:00.0", Some(0));
        let other_bridge = dev("/sys/devices/pci0000:38/0000:38:01.0/0000:39:00.0", Some(0));
        let other_socket = dev("/sys/devices/pci0000:9a/0000:9a:01.0/0000:9b:00.0", Some(1));
        assert_eq!(distance(&gpu, &same_switch), Some(Distance::Pix));
        assert_eq!(distance(&gpu, &deeper), Some(Distance::Pxb));
        assert_eq!(distance(&gpu, &other_port), Some(Distance::Phb));
        assert_eq!(distance(&gpu, &other_bridge), Some(Distance::Node));
        assert_eq!(distance(&gpu, &other_socket), Some(Distance::Sys));
        assert_eq!(distance(&gpu, &dev("/sys/devices/virtual/net/lo", None)), None);
        assert!(Distance::Pxb.gdr_ok() && !Distance::Phb.gdr_ok());
        assert_eq!(Distance::Node.nccl_path(), "PHB");
    }

    #[test]
    fn pci_names_resolve_to_the_right_catalog_entry() {
        // Models the catalog has must resolve to themselves; the others (H800, L40, A10, MI250X) stay unknown
        // and get generic figures rather than a wrong model's.
        let expected = [
            (0x2330, "h100-sxm"),
            (0x2331, "h100-pcie"),
            (0x2321, "h100-nvl"),
            (0x2335, "h200"),
            (0x2901, "b200"),
            (0x20b0, "a100-sxm4-40gb"),
            (0x20b2, "a100-sxm4-80gb"),
            (0x20b5, "a100-pcie-80gb"),
            (0x20f1, "a100-pcie-40gb"),
            (0x26b9, "l40s"),
            (0x27b8, "l4"),
            (0x74a1, "mi300x"),
            (0x2324, "h800"),
            (0x26b5, "l40"),
            (0x2236, "a10"),
            (0x1db4, "v100-pcie"),
            (0x1db5, "v100-sxm2-32gb"),
        ];
        for (vendor, device, name) in GPU_NAMES {
            let got = estimator_core::catalog::lookup(name);
            match expected.iter().find(|(d, _)| d == device) {
                Some((_, key)) => assert_eq!(got.spec().key, *key, "{vendor:x}:{device:x} {name}"),
                None => assert!(
                    matches!(got, estimator_core::catalog::Lookup::Unknown),
                    "{name} resolved to {}",
                    got.spec().key
                ),
            }
        }
    }

    #[test]
    fn values_parse_as_the_kernel_writes_them() {
        assert_eq!(link_gen("16.0 GT/s PCIe"), Some(4));
        assert_eq!(link_gen("8 GT/s"), Some(3));
        assert_eq!(link_gen("2.5 GT/s PCIe"), Some(1));
        assert_eq!(link_gen("Unknown"), None);
        assert!(is_address("0000:1b:00.0") && !is_address("0000:1b:00") && !is_address("pci0000:17xx"));
        assert_eq!(hex::<u16>("0x10de"), Some(0x10de));
        assert_eq!(hex::<u16>("0x1234567"), None);
        assert_eq!(gpu_name(NVIDIA, 0x2330), Some("NVIDIA H100 80GB HBM3"));
    }
}
