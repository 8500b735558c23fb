//! The GPU catalog: memory, peak dense BF16 compute, the intra-node fabric and what an all-reduce achieves on it.
//!
//! The table itself, [`GPUS`], is in `gpus.rs`; this module holds the types, the efficiencies that derive a bus
//! bandwidth from a link, name resolution ([`lookup`]) and the link overrides ([`intra_node_bandwidth`]).
//!
//! Every number cites its source in the entry's `source` text. Two kinds of source appear:
//! - a vendor datasheet (memory, TFLOP/s, link bandwidth), and
//! - a public nccl-tests/rccl-tests measurement of the achievable all-reduce bus bandwidth, or, where none is
//!   public, a derivation from the link bandwidth with an efficiency that is itself sourced (see
//!   [`NVLINK_RING_EFFICIENCY`], [`PCIE_P2P_EFFICIENCY`]).
//!
//! Several of those measurements are also points of the calibration set (`tests/data/nccl-tests/measurements.json`):
//! the calibration replay records which number was set from which point (`PROVENANCE` in
//! `tests/src/calibration.rs`) and scores those points apart as fitted, not as validation.
//!
//! Names are matched loosely: case, spaces, dashes and the "NVIDIA"/"Tesla" prefixes do not matter, so the names NVML
//! reports ("NVIDIA H100 80GB HBM3", "Tesla P40") and short names ("h100", "MI300X") both resolve.

use serde::{Deserialize, Serialize};

use crate::units::{Bytes, GbytePerSec, TflopPerSec};

mod gpus;

pub use gpus::{GENERIC_GPU, GPUS};

/// The GPU maker, which decides the collective library (NCCL or RCCL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// NVIDIA (NCCL).
    Nvidia,
    /// AMD (RCCL).
    Amd,
    /// Unknown maker.
    Unknown,
}

/// How the GPUs inside one node talk to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntraNodeLink {
    /// NVLink through NVSwitch (HGX/DGX boards): every GPU reaches every other at full NVLink bandwidth.
    Nvswitch,
    /// Direct NVLink without a switch: bridge pairs (A40, A100 PCIe, H100 PCIe) or meshes (DGX-1, GH200 nodes).
    Nvlink,
    /// AMD Infinity Fabric (xGMI) mesh between OAM modules.
    Xgmi,
    /// PCIe with peer-to-peer transfers between GPUs.
    Pcie,
    /// PCIe without peer-to-peer (unsupported, or `NCCL_P2P_DISABLE=1`): every transfer is staged in host memory.
    PcieHostStaged,
}

impl IntraNodeLink {
    /// Every link, in the order a user interface lists them.
    pub const ALL: [IntraNodeLink; 5] = [
        IntraNodeLink::Nvswitch,
        IntraNodeLink::Nvlink,
        IntraNodeLink::Xgmi,
        IntraNodeLink::Pcie,
        IntraNodeLink::PcieHostStaged,
    ];

    /// The lower-case name, as JSON writes it (`nvswitch`, `pcie-host-staged`); [`IntraNodeLink::parse`] reads
    /// it back.
    pub fn name(self) -> &'static str {
        match self {
            IntraNodeLink::Nvswitch => "nvswitch",
            IntraNodeLink::Nvlink => "nvlink",
            IntraNodeLink::Xgmi => "xgmi",
            IntraNodeLink::Pcie => "pcie",
            IntraNodeLink::PcieHostStaged => "pcie-host-staged",
        }
    }

    /// Parses the names, and `infinity-fabric`, `no-p2p` and `host-staged`.
    pub fn parse(s: &str) -> Option<IntraNodeLink> {
        match s.trim().to_ascii_lowercase().as_str() {
            "nvswitch" => Some(IntraNodeLink::Nvswitch),
            "nvlink" => Some(IntraNodeLink::Nvlink),
            "xgmi" | "infinity-fabric" => Some(IntraNodeLink::Xgmi),
            "pcie" => Some(IntraNodeLink::Pcie),
            "pcie-host-staged" | "no-p2p" | "host-staged" => Some(IntraNodeLink::PcieHostStaged),
            _ => None,
        }
    }

    /// A short human label.
    pub fn label(self) -> &'static str {
        match self {
            IntraNodeLink::Nvswitch => "NVLink/NVSwitch",
            IntraNodeLink::Nvlink => "NVLink (no switch)",
            IntraNodeLink::Xgmi => "Infinity Fabric (xGMI)",
            IntraNodeLink::Pcie => "PCIe peer-to-peer",
            IntraNodeLink::PcieHostStaged => "PCIe, staged in host memory (no P2P)",
        }
    }
}

/// One GPU model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuSpec {
    /// Stable identifier, used in URLs and JSON (e.g. `h100-sxm`).
    pub key: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Maker.
    pub vendor: Vendor,
    /// The names NVML (`nvidia-smi --query-gpu=name`) or `rocm-smi` report for this model.
    pub reported_names: &'static [&'static str],
    /// Memory per GPU in MiB as the driver reports it (`nvidia-smi --query-gpu=memory.total`, rocm-smi's VRAM
    /// total), what a job can allocate at most: an "80GB" H100 reports 81559 MiB (79.6 GiB), a "48GB" L40S 46068
    /// MiB with ECC on, as clouds ship it. CUDA's own context takes a few hundred MiB more (not counted).
    pub memory_mib: f64,
    /// Peak dense (no sparsity) BF16 tensor throughput; for parts without BF16 (V100, P40) the closest
    /// training precision, as the source says.
    pub bf16_dense_tflops: TflopPerSec,
    /// Peak dense FP8 tensor throughput; `None` for parts without FP8 tensor cores (before Ada/Hopper/CDNA3).
    pub fp8_dense_tflops: Option<TflopPerSec>,
    /// The node shapes the part is sold in, each with its NVLink domain (the source says where from).
    pub shapes: &'static [NodeShape],
    /// The usual intra-node fabric for this model.
    pub intra_node: IntraNodeLink,
    /// Unidirectional NVLink (or xGMI) bandwidth per GPU in GB/s, if the model has such links.
    pub gpu_link_gbyte_per_s: Option<f64>,
    /// PCIe generation of the GPU's host link (3, 4, 5).
    pub pcie_gen: u8,
    /// CUDA compute capability x 10 (NVIDIA's "CUDA GPUs" table: 70 Volta, 80/86 Ampere, 89 Ada, 90 Hopper, 100
    /// and 120 Blackwell); 0 for a GPU that is not NVIDIA's. NCCL's tuning tables are indexed by it ([`Arch`]).
    pub compute_capability: u16,
    /// Large-message all-reduce bus bandwidth on one node over the default fabric, best algorithm (NVLS on
    /// Hopper/Blackwell NVSwitch boards).
    pub allreduce_busbw: GbytePerSec,
    /// The same with the Ring algorithm, which is what the intra-node hops of a multi-node ring run.
    pub ring_busbw: GbytePerSec,
    /// Lower-case alphanumeric fragments that identify the model inside a reported name. Checked in catalog order,
    /// so more specific models come first.
    #[serde(skip)]
    patterns: &'static [&'static str],
}

/// A node shape a GPU is sold in: an HGX board of 8, a GB200 NVL72 compute tray of 4 in a rack-scale NVLink
/// domain of 72, a PCIe server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NodeShape {
    /// `HGX 8-GPU`, `NVL72 compute tray`.
    pub name: &'static str,
    /// GPUs in one node (one host, one operating system).
    pub gpus_per_node: u32,
    /// GPUs in one NVLink domain: the node's, or the rack's (72) when NVLink switches join the nodes.
    pub nvlink_domain_gpus: u32,
}

/// The architecture bucket NCCL's tuning tables are indexed by (`src/graph/tuning.cc` v2.30.7 L263-266: compute
/// capability >= 100 Blackwell, >= 90 Hopper, >= 80 Ampere, else Volta).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// Below compute capability 8.0.
    Volta,
    /// 8.0 to 8.9 (Ampere, Ada).
    Ampere,
    /// 9.x.
    Hopper,
    /// 10.0 and above.
    Blackwell,
}

impl Arch {
    /// The row of NCCL's per-architecture tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl GpuSpec {
    /// NCCL's architecture bucket. AMD GPUs run RCCL, whose own tables are not ported: they are taken as Hopper,
    /// the NVIDIA generation of the same years (MI300X and H100 both 2023), and the GPU's own measured bus
    /// bandwidths from the catalog still set the bandwidth.
    pub fn arch(&self) -> Arch {
        match self.compute_capability {
            0 if self.vendor == Vendor::Amd => Arch::Hopper,
            cc if cc >= 100 => Arch::Blackwell,
            cc if cc >= 90 => Arch::Hopper,
            cc if cc >= 80 => Arch::Ampere,
            _ => Arch::Volta,
        }
    }

    /// Memory per GPU, as the driver reports it.
    pub fn memory(&self) -> Bytes {
        Bytes::mib(self.memory_mib)
    }

    /// Memory per GPU in GiB, as the page and the CLI show it.
    pub fn memory_gib(&self) -> f64 {
        self.memory_mib / 1024.0
    }

    /// Whether the GPU shares a module with an Arm Grace CPU (GH200, GB200, GB300: NVIDIA's superchip
    /// datasheets), so its host is not x86.
    pub fn grace_host(&self) -> bool {
        matches!(self.key, "gh200" | "gh200-144gb" | "gb200" | "gb300")
    }

    /// The NVLink generation of a GPU that talks to its peers over NVLink: 2 on Volta, 3 on Ampere, 4 on Hopper, 5 on
    /// Blackwell, read from the compute capability's major version; `None` over PCIe or Infinity Fabric. Source:
    /// NVIDIA's NVLink and NVSwitch page (nvidia.com/en-us/data-center/nvlink, its generations table: second
    /// generation in V100, third in A100, fourth in H100, fifth in B200/GB200) and the CUDA GPUs page
    /// (developer.nvidia.com/cuda-gpus: compute capability 7.0 V100, 8.0 A100, 9.0 H100, 10.0 B200, 10.3 B300).
    pub fn nvlink_generation(&self) -> Option<u8> {
        if self.vendor != Vendor::Nvidia || !matches!(self.intra_node, IntraNodeLink::Nvswitch | IntraNodeLink::Nvlink)
        {
            return None;
        }
        match self.compute_capability / 10 {
            7 => Some(2),
            8 => Some(3),
            9 => Some(4),
            10..=12 => Some(5),
            _ => None,
        }
    }

    /// The rack-scale shape whose NVLink domain spans nodes (GB200/GB300 NVL72), if the part is sold in one.
    pub fn rack_nvlink_domain(&self) -> Option<&'static NodeShape> {
        self.shapes.iter().filter(|s| s.nvlink_domain_gpus > s.gpus_per_node).max_by_key(|s| s.nvlink_domain_gpus)
    }
}

/// Ring all-reduce bus bandwidth as a share of the unidirectional NVLink bandwidth. Source: NCCL maintainer,
/// NVIDIA/nccl#1455: H100 Ring "about 80% of 450GBps"; nccl-tests#309 measured 368.76 GB/s with NVLS off (0.82).
pub const NVLINK_RING_EFFICIENCY: f64 = 0.80;

/// PCIe peer-to-peer all-reduce bus bandwidth as a share of the PCIe x16 bandwidth NCCL assumes (`width*speed/80`
/// in NCCL's `src/graph/topo.cc`: Gen3 12, Gen4 24, Gen5 48 GB/s). Source: NVIDIA/nccl#1639, 8x RTX 5090 on PCIe 5.0
/// reach 28 GB/s of 48 (0.58); the maintainer says PCIe results are bounded by CPU and memory bandwidth.
pub const PCIE_P2P_EFFICIENCY: f64 = 0.58;

/// All-reduce bus bandwidth when peer-to-peer is off and every transfer is staged through host memory. Source:
/// eugenesiow/LLM-Insights (NCCL 2.16): 3.6-4.0 GB/s on an A40 pair and 5.2 GB/s on a DGX A100 with
/// `NCCL_P2P_DISABLE=1`; this is the middle of that range.
pub const HOST_STAGED_BUSBW_GBYTE_PER_S: f64 = 4.5;

/// The PCIe x16 bandwidth NCCL assumes for a generation, GB/s (`src/graph/topo.cc`: width * speed / 80).
pub fn pcie_x16_gbyte_per_s(generation: u8) -> f64 {
    match generation {
        0..=3 => 12.0,
        4 => 24.0,
        5 => 48.0,
        _ => 96.0,
    }
}

const fn bw(gbyte_per_s: f64) -> GbytePerSec {
    GbytePerSec::new(gbyte_per_s)
}

/// PCIe peer-to-peer bus bandwidth for a generation (see [`PCIE_P2P_EFFICIENCY`]).
fn pcie_p2p(generation: u8) -> f64 {
    pcie_x16_gbyte_per_s(generation) * PCIE_P2P_EFFICIENCY
}

/// How a name was resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lookup {
    /// The key or one of the reported names, exactly (ignoring case and punctuation).
    Exact(&'static GpuSpec),
    /// A catalog pattern occurs inside the name (e.g. "H100 80GB (Dell XE9680)").
    Matched(&'static GpuSpec),
    /// Nothing matched; generic defaults.
    Unknown,
}

impl Lookup {
    /// The spec to use (generic when unknown).
    pub fn spec(self) -> &'static GpuSpec {
        match self {
            Lookup::Exact(s) | Lookup::Matched(s) => s,
            Lookup::Unknown => &GENERIC_GPU,
        }
    }
}

/// Lower-case ASCII letters and digits only, with a leading "nvidia", "tesla", "amd" or "instinct" removed.
fn normalize(name: &str) -> String {
    let mut s: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
    for prefix in ["nvidia", "tesla", "amd", "instinct", "geforce"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
        }
    }
    s
}

/// The family names people write for the board most rented under them, each read as that entry without a
/// warning (the README writes `--gpu h100`): the SXM boards of HGX 8-GPU nodes, the 80 GB parts where the family
/// has both sizes.
pub const SHORT_NAMES: [(&str, &str); 4] =
    [("h100", "h100-sxm"), ("a100", "a100-sxm4-80gb"), ("v100", "v100-sxm2-32gb"), ("a800", "a800-sxm4-80gb")];

/// Finds a GPU by catalog key, reported name, one of the [`SHORT_NAMES`], or a recognisable fragment.
pub fn lookup(name: &str) -> Lookup {
    let wanted = normalize(name);
    if wanted.is_empty() {
        return Lookup::Unknown;
    }
    if let Some((_, key)) = SHORT_NAMES.iter().find(|(short, _)| *short == wanted.as_str())
        && let Some(g) = GPUS.iter().find(|g| g.key == *key)
    {
        return Lookup::Exact(g);
    }
    let exact = GPUS.iter().find(|g| {
        normalize(g.key) == wanted
            || normalize(g.name) == wanted
            || g.reported_names.iter().any(|n| normalize(n) == wanted)
    });
    if let Some(g) = exact {
        return Lookup::Exact(g);
    }
    GPUS.iter().find(|g| g.patterns.iter().any(|p| has(&wanted, p))).map_or(Lookup::Unknown, Lookup::Matched)
}

/// Whether `needle` occurs in `hay`, byte by byte: names are a few dozen bytes, and `str::contains` would bring
/// the standard library's two-way searcher into the page's first load (0.9 KB gzipped, measured).
fn has(hay: &str, needle: &str) -> bool {
    needle.is_empty() || hay.as_bytes().windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// The catalog fragment that made `name` read as `spec` (for [`Lookup::Matched`]: what the user is told).
pub fn matched_fragment(name: &str, spec: &GpuSpec) -> Option<&'static str> {
    let wanted = normalize(name);
    spec.patterns.iter().copied().find(|p| has(&wanted, p))
}

/// The all-reduce bus bandwidths of a GPU over an intra-node link that may differ from its default (a user who
/// says "these A40s have NVLink bridges", or "P2P is disabled").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntraNodeBandwidth {
    /// Best single-node algorithm.
    pub allreduce: GbytePerSec,
    /// Ring algorithm, the intra-node part of a multi-node ring.
    pub ring: GbytePerSec,
    /// The link actually used (a GPU without NVLink cannot use one).
    pub link: IntraNodeLink,
}

/// Bus bandwidth of `gpu` over `link`.
pub fn intra_node_bandwidth(gpu: &GpuSpec, link: IntraNodeLink) -> IntraNodeBandwidth {
    if link == gpu.intra_node {
        return IntraNodeBandwidth { allreduce: gpu.allreduce_busbw, ring: gpu.ring_busbw, link };
    }
    let pcie = bw(pcie_p2p(gpu.pcie_gen));
    match (link, gpu.gpu_link_gbyte_per_s) {
        (IntraNodeLink::PcieHostStaged, _) => {
            let b = bw(HOST_STAGED_BUSBW_GBYTE_PER_S);
            IntraNodeBandwidth { allreduce: b, ring: b, link }
        }
        (IntraNodeLink::Pcie, _) => IntraNodeBandwidth { allreduce: pcie, ring: pcie, link },
        (IntraNodeLink::Nvlink | IntraNodeLink::Nvswitch | IntraNodeLink::Xgmi, Some(l)) => {
            let b = bw(l * NVLINK_RING_EFFICIENCY);
            IntraNodeBandwidth { allreduce: b, ring: b, link }
        }
        (IntraNodeLink::Nvlink | IntraNodeLink::Nvswitch | IntraNodeLink::Xgmi, None) => {
            IntraNodeBandwidth { allreduce: pcie, ring: pcie, link: IntraNodeLink::Pcie }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, key: &str) {
        assert_eq!(lookup(name).spec().key, key, "{name}");
    }

    #[test]
    fn nvlink_generations_follow_the_architecture() {
        let generation = |key: &str| lookup(key).spec().nvlink_generation();
        for (key, g) in [
            ("v100-sxm2-32gb", Some(2)),
            ("a100-sxm4-80gb", Some(3)),
            ("h100-sxm", Some(4)),
            ("h800", Some(4)),
            ("gh200", Some(4)),
            ("b200", Some(5)),
            ("gb200", Some(5)),
            ("gb300", Some(5)),
            ("l40s", None),
            ("rtx-pro-6000-blackwell", None),
            ("mi300x", None),
        ] {
            assert_eq!(generation(key), g, "{key}");
        }
    }

    #[test]
    fn nvml_names_resolve() {
        check("NVIDIA H100 80GB HBM3", "h100-sxm");
        check("NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb");
        check("NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb");
        check("NVIDIA A100 80GB PCIe", "a100-pcie-80gb");
        check("NVIDIA A100-PCIE-40GB", "a100-pcie-40gb");
        check("Tesla P40", "p40");
        check("Tesla V100-SXM2-16GB", "v100-sxm2-16gb");
        check("Tesla V100-SXM2-32GB", "v100-sxm2-32gb");
        check("NVIDIA H100 PCIe", "h100-pcie");
        check("NVIDIA GH200 480GB", "gh200");
        check("NVIDIA H200", "h200");
        check("NVIDIA L40S", "l40s");
        // "L4" is a fragment of "L40" and "L40S": each reads as itself.
        check("NVIDIA L40", "l40");
        check("NVIDIA L4", "l4");
        check("NVIDIA L4", "l4");
        check("NVIDIA A10G", "a10g");
        check("NVIDIA GeForce RTX 4090", "rtx-4090");
        check("AMD Instinct MI300X", "mi300x");
        // The GPUs people rent in 2026, as NVML and rocm-smi name them. "GB200" holds "B200", "GB300" "B300",
        // "H200" "H20" and "A100" "A10": the longer names come first in the catalog.
        check("NVIDIA GB200", "gb200");
        check("NVIDIA GB300", "gb300");
        check("NVIDIA B300 SXM6 AC", "b300");
        check("NVIDIA B200", "b200");
        check("NVIDIA H20", "h20");
        check("NVIDIA H20-3e", "h20");
        check("NVIDIA H200", "h200");
        check("NVIDIA H800", "h800");
        check("NVIDIA A800-SXM4-80GB", "a800-sxm4-80gb");
        check("NVIDIA A800 80GB PCIe", "a800-pcie-80gb");
        check("NVIDIA A10", "a10");
        check("NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-blackwell");
        check("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "rtx-pro-6000-blackwell");
        check("NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada");
        check("NVIDIA RTX A6000", "rtx-a6000");
        check("NVIDIA GeForce RTX 3090", "rtx-3090");
        check("AMD Instinct MI350X", "mi350x");
        check("AMD Instinct MI355X", "mi355x");
        assert!(matches!(lookup("NVIDIA GB200"), Lookup::Exact(_)));
    }

    #[test]
    fn rack_scale_parts_know_their_nvlink_domain() {
        for key in ["gb200", "gb300"] {
            let shape = lookup(key).spec().rack_nvlink_domain().expect("NVL72");
            assert_eq!((shape.gpus_per_node, shape.nvlink_domain_gpus), (4, 72), "{key}");
            assert!(lookup(key).spec().grace_host());
        }
        for key in ["b200", "h100-sxm", "gh200", "rtx-3090", "generic"] {
            assert!(lookup(key).spec().rack_nvlink_domain().is_none(), "{key}");
        }
    }

    #[test]
    fn loose_names_resolve_to_the_most_specific_entry() {
        check("h100", "h100-sxm");
        check("H100 80GB HBM3 (Dell XE9680 HGX)", "h100-sxm");
        check("GH200 120GB", "gh200");
        check("mi325x", "mi325x");
        check("MI355X", "mi355x");
        check("RTX 5090", "rtx-5090");
        check("b200", "b200");
        check("A100 (p4dn.24xlarge)", "a100-sxm4-40gb");
        check("a40", "a40");
    }

    #[test]
    fn unknown_names_are_generic_not_errors() {
        assert_eq!(lookup("Voodoo 5 6000"), Lookup::Unknown);
        assert_eq!(lookup("").spec().key, "generic");
        assert_eq!(lookup("   ").spec().key, "generic");
    }

    #[test]
    fn every_entry_is_sane() {
        for g in GPUS {
            assert!(g.memory_mib > 0.0 && g.bf16_dense_tflops.get() > 0.0, "{}", g.key);
            assert!(g.ring_busbw <= g.allreduce_busbw, "{}", g.key);
            assert!(!g.source().starts_with("generic") && !g.patterns.is_empty(), "{}", g.key);
            assert_eq!(lookup(g.key).spec().key, g.key, "key of {} resolves to itself", g.key);
            for n in g.reported_names {
                assert_eq!(lookup(n).spec().key, g.key, "reported name {n}");
            }
        }
    }

    #[test]
    fn overriding_the_link_derives_bandwidth() {
        let a40 = lookup("a40").spec();
        let nv = intra_node_bandwidth(a40, IntraNodeLink::Nvlink);
        assert!((nv.ring.get() - 45.0).abs() < 1e-9);
        let l4 = lookup("l4").spec();
        assert_eq!(intra_node_bandwidth(l4, IntraNodeLink::Nvlink).link, IntraNodeLink::Pcie);
        let h100 = lookup("h100").spec();
        assert_eq!(intra_node_bandwidth(h100, IntraNodeLink::PcieHostStaged).ring.get(), 4.5);
    }
}
