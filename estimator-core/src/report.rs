//! The hardware report that `probe-cli report` writes and the page and `probe-cli estimate step --report` read.
//!
//! One definition for every reader: [`Report`] is the whole document; [`ReportHead`] is the part a front end needs to
//! fill a scenario (`schema_version` and [`Summary`]), and [`read_head`] turns any serde deserializer (serde_json in
//! the CLI, the browser's own `JSON.parse` through serde-wasm-bindgen in the page) into a checked [`ReportHead`] or a
//! [`ReportError`] that names the field. [`Summary::apply`] maps the summary onto a [`ScenarioInput`] and says what it
//! took.
//!
//! Identifiers (hostname, GUIDs, MAC and IP addresses, serial numbers, UUIDs) are written as [`REDACTED`] unless
//! the user asked for them; the probe does that, this module only defines the shape.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use crate::catalog;
use crate::fabric::Fabric;
use crate::scenario::ScenarioInput;
use crate::scenario::limits::{MAX_ADAPTERS_PER_NODE, MAX_GPUS_PER_NODE, MAX_LINK_GBPS, MIN_LINK_GBPS};

/// The schema version this crate writes and reads. A reader refuses other versions with a message that says which.
pub const SCHEMA_VERSION: u32 = 1;

/// The largest report a front end accepts, in bytes (1 MiB). A real 8-GPU report is about 30 KB.
pub const MAX_REPORT_BYTES: usize = 1 << 20;

/// What an identifier reads as when it is redacted.
pub const REDACTED: &str = "redacted";

/// The fabric a node offers, as the summary names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ReportFabric {
    /// At least one active InfiniBand port.
    Infiniband,
    /// Active RDMA ports on Ethernet (RoCE), no InfiniBand.
    Roce,
    /// No active RDMA port, but an Ethernet interface that is up.
    Ethernet,
    /// No network interface that could carry a multi-node job.
    None,
}

impl ReportFabric {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            ReportFabric::Infiniband => "infiniband",
            ReportFabric::Roce => "roce",
            ReportFabric::Ethernet => "ethernet",
            ReportFabric::None => "none",
        }
    }

    /// All values, in the order the schema lists them.
    pub const ALL: [ReportFabric; 4] =
        [ReportFabric::Infiniband, ReportFabric::Roce, ReportFabric::Ethernet, ReportFabric::None];

    /// The estimator's fabric class for it; `None` when there is no network at all.
    pub fn to_fabric(self) -> Option<Fabric> {
        match self {
            ReportFabric::Infiniband => Some(Fabric::Infiniband),
            ReportFabric::Roce => Some(Fabric::Roce),
            ReportFabric::Ethernet => Some(Fabric::Tcp),
            ReportFabric::None => None,
        }
    }
}

/// Whether GPUDirect RDMA can work on the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum GdrSupport {
    /// A peer-memory module is loaded and the GPUs sit close enough to their NICs for NCCL's default GDR level.
    Supported,
    /// Known not to work: no RDMA adapter, no NVIDIA GPU, no peer-memory module and no DMA-BUF, or every GPU too far
    /// from every NIC.
    NotSupported,
    /// The probe could not tell (for example DMA-BUF could only be checked through libibverbs, which is missing).
    Unknown,
}

impl GdrSupport {
    /// All values.
    pub const ALL: [GdrSupport; 3] = [GdrSupport::Supported, GdrSupport::NotSupported, GdrSupport::Unknown];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            GdrSupport::Supported => "supported",
            GdrSupport::NotSupported => "not-supported",
            GdrSupport::Unknown => "unknown",
        }
    }
}

/// The part of the report that maps onto the estimator's cluster inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    /// The fabric for a multi-node job from this node.
    pub fabric: ReportFabric,
    /// Active RDMA ports (each one is an adapter to the estimator).
    #[serde(deserialize_with = "whole")]
    pub rdma_adapters: u32,
    /// Line rate of one of those ports in Gb/s (the slowest, if they differ); for `ethernet`, of the Ethernet
    /// interfaces that are up. `null` when there is none.
    pub adapter_gbps: Option<f64>,
    /// Physical Ethernet interfaces that are up (what NCCL's socket transport would use when `fabric` is
    /// `ethernet`).
    #[serde(default, deserialize_with = "whole")]
    pub ethernet_ports: u32,
    /// GPUs in the node.
    #[serde(deserialize_with = "whole")]
    pub gpus: u32,
    /// The GPU model as NVML names it, or from the PCI ID database without a driver; `null` with no GPU.
    pub gpu_model: Option<String>,
    /// GPUDirect RDMA.
    pub gdr: GdrSupport,
}

/// A count written as any JSON number that is a whole one (`8` or `8.0`): the page reads JSON with the browser's
/// `JSON.parse`, which cannot tell the two apart, so the CLI must not either (found by the `report_json` fuzz target).
fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = f64::deserialize(d)?;
    if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) {
        Ok(v as u32)
    } else {
        Err(serde::de::Error::custom(format!("invalid value: {v}, expected a whole number from 0")))
    }
}

/// A report field a reader rejected, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ReportError {
    /// The JSON path of the field (`summary.adapter_gbps`), or `report` for the document as a whole.
    pub field: String,
    /// What is wrong with it, in words.
    pub reason: String,
}

impl ReportError {
    fn new(field: impl Into<String>, reason: impl fmt::Display) -> Self {
        ReportError { field: field.into(), reason: reason.to_string() }
    }

    /// The document is larger than [`MAX_REPORT_BYTES`].
    pub fn too_large(len: usize) -> Self {
        ReportError::new(
            "report",
            format!(
                "the file is {} bytes; a probe-cli report is at most {} bytes (1 MiB), so this is not one",
                len, MAX_REPORT_BYTES
            ),
        )
    }

    /// The document is not JSON at all; `detail` is the parser's message.
    pub fn not_json(detail: impl fmt::Display) -> Self {
        ReportError::new("report", format!("not JSON ({detail}); expected the output of `probe-cli report --json`"))
    }
}

/// `schema_version` and the summary: what a front end needs to fill a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportHead {
    /// Always [`SCHEMA_VERSION`] once read.
    pub schema_version: u32,
    /// The summary.
    pub summary: Summary,
}

#[derive(Deserialize)]
struct VersionOnly {
    schema_version: Option<AnyValue>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum AnyValue {
    Number(f64),
    Other(serde::de::IgnoredAny),
}

/// Checks that a document is a report of this schema version. Call it before [`read_head`] or a full
/// [`Report`] deserialization, so that a report from another version gets this message and not a missing field.
pub fn check_version<'de, D: Deserializer<'de>>(d: D) -> Result<(), ReportError> {
    let found = VersionOnly::deserialize(d)
        .map_err(|_| ReportError::new("report", "expected a JSON object (the output of `probe-cli report --json`)"))?
        .schema_version;
    match found {
        None => Err(ReportError::new(
            "schema_version",
            "missing: this JSON is not a probe-cli report (run `probe-cli report --json > node.json`)",
        )),
        Some(AnyValue::Other(_)) => {
            Err(ReportError::new("schema_version", format!("must be the number {SCHEMA_VERSION}")))
        }
        Some(AnyValue::Number(v)) if v == f64::from(SCHEMA_VERSION) => Ok(()),
        Some(AnyValue::Number(v)) => Err(ReportError::new(
            "schema_version",
            format!(
                "this report has schema version {v}, and this version of the estimator reads version \
                 {SCHEMA_VERSION}; use the probe-cli release that matches the page"
            ),
        )),
    }
}

/// One JSON value as a reader without serde sees it: the page reads the browser's `JSON.parse` result field by
/// field with [`read_fields`], which keeps serde's deserializers (about 20 KB of gzipped wasm) out of the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// The key is absent.
    Missing,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// An object (`{...}`).
    Object,
    /// An array (`[...]`).
    Array,
}

impl Scalar {
    fn kind(&self) -> &'static str {
        match self {
            Scalar::Missing => "nothing",
            Scalar::Null => "null",
            Scalar::Bool(_) => "a boolean",
            Scalar::Number(_) => "a number",
            Scalar::Text(_) => "a string",
            Scalar::Object => "an object",
            Scalar::Array => "an array",
        }
    }
}

/// Reads and checks a report's version and summary from its fields, the way [`check_version`] then [`read_head`]
/// do through serde (a test holds the two to the same verdicts). `get` answers for a dotted path: `""` (the
/// document), `"schema_version"`, `"summary"`, `"summary.fabric"`, ...
pub fn read_fields(get: impl Fn(&str) -> Scalar) -> Result<Summary, ReportError> {
    if get("") != Scalar::Object {
        return Err(ReportError::new("report", "expected a JSON object (the output of `probe-cli report --json`)"));
    }
    match get("schema_version") {
        Scalar::Missing => {
            return Err(ReportError::new(
                "schema_version",
                "missing: this JSON is not a probe-cli report (run `probe-cli report --json > node.json`)",
            ));
        }
        Scalar::Number(v) if v == f64::from(SCHEMA_VERSION) => {}
        Scalar::Number(v) => {
            return Err(ReportError::new(
                "schema_version",
                format!(
                    "this report has schema version {v}, and this version of the estimator reads version \
                     {SCHEMA_VERSION}; use the probe-cli release that matches the page"
                ),
            ));
        }
        _ => return Err(ReportError::new("schema_version", format!("must be the number {SCHEMA_VERSION}"))),
    }
    match get("summary") {
        Scalar::Object => {}
        Scalar::Missing => return Err(ReportError::new("report", "missing field `summary`")),
        other => return Err(ReportError::new("summary", format!("expected an object, found {}", other.kind()))),
    }
    let key = |k: &str| format!("summary.{k}");
    let wrong =
        |k: &str, want: &str, got: &Scalar| ReportError::new(key(k), format!("expected {want}, found {}", got.kind()));
    let name = |k: &str, names: &[&str]| -> Result<String, ReportError> {
        match get(&key(k)) {
            Scalar::Text(t) if names.contains(&t.as_str()) => Ok(t),
            Scalar::Text(t) => Err(ReportError::new(
                key(k),
                format!("unknown variant `{t}`, expected one of `{}`", names.join("`, `")),
            )),
            Scalar::Missing => Err(ReportError::new(key(k), "missing")),
            other => Err(wrong(k, "a string", &other)),
        }
    };
    let count = |k: &str, default: Option<u32>| -> Result<u32, ReportError> {
        match get(&key(k)) {
            Scalar::Number(n) if n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n) => Ok(n as u32),
            Scalar::Number(n) => {
                Err(ReportError::new(key(k), format!("invalid value: {n}, expected a whole number from 0")))
            }
            Scalar::Missing => default.ok_or_else(|| ReportError::new(key(k), "missing")),
            other => Err(wrong(k, "a whole number", &other)),
        }
    };
    let fabrics = ReportFabric::ALL.map(ReportFabric::name);
    let fabric_name = name("fabric", &fabrics)?;
    let fabric = ReportFabric::ALL.into_iter().find(|f| f.name() == fabric_name).unwrap_or(ReportFabric::None);
    let rdma_adapters = count("rdma_adapters", None)?;
    let adapter_gbps = match get(&key("adapter_gbps")) {
        Scalar::Number(n) => Some(n),
        Scalar::Missing | Scalar::Null => None,
        other => return Err(wrong("adapter_gbps", "a number or null", &other)),
    };
    let ethernet_ports = count("ethernet_ports", Some(0))?;
    let gpus = count("gpus", None)?;
    let gpu_model = match get(&key("gpu_model")) {
        Scalar::Text(t) => Some(t),
        Scalar::Missing | Scalar::Null => None,
        other => return Err(wrong("gpu_model", "a string or null", &other)),
    };
    let gdrs = GdrSupport::ALL.map(GdrSupport::name);
    let gdr_name = name("gdr", &gdrs)?;
    let gdr = GdrSupport::ALL.into_iter().find(|g| g.name() == gdr_name).unwrap_or(GdrSupport::Unknown);
    let summary = Summary { fabric, rdma_adapters, adapter_gbps, ethernet_ports, gpus, gpu_model, gdr };
    summary.validate()?;
    Ok(summary)
}

/// Deserializes and checks `schema_version` and `summary`; unknown keys and the other sections are ignored.
/// Errors name the JSON path of the bad field.
pub fn read_head<'de, D: Deserializer<'de>>(d: D) -> Result<ReportHead, ReportError> {
    let head: ReportHead = serde_path_to_error::deserialize(d).map_err(|e| {
        let path = e.path().to_string();
        let message = e.inner().to_string();
        // serde names a missing field in its message and the object in the path: name the field itself.
        let missing = message.strip_prefix("missing field `").and_then(|m| m.split('`').next());
        let field = match (path.as_str(), missing) {
            (".", Some("summary")) | (".", None) => "report".to_string(),
            (".", Some(m)) => m.to_string(),
            (p, Some(m)) => format!("{p}.{m}"),
            (p, None) => p.to_string(),
        };
        ReportError::new(field, message)
    })?;
    head.summary.validate()?;
    Ok(head)
}

impl Summary {
    /// Rejects values no real node has (the estimator's own input limits), naming the field.
    pub fn validate(&self) -> Result<(), ReportError> {
        if i64::from(self.gpus) > MAX_GPUS_PER_NODE {
            return Err(ReportError::new(
                "summary.gpus",
                format!("{} GPUs in one node is not plausible (at most {MAX_GPUS_PER_NODE})", self.gpus),
            ));
        }
        for (field, n) in
            [("summary.rdma_adapters", self.rdma_adapters), ("summary.ethernet_ports", self.ethernet_ports)]
        {
            if i64::from(n) > MAX_ADAPTERS_PER_NODE {
                return Err(ReportError::new(
                    field,
                    format!("{n} ports in one node is not plausible (at most {MAX_ADAPTERS_PER_NODE})"),
                ));
            }
        }
        if let Some(g) = self.adapter_gbps
            && !(MIN_LINK_GBPS..=MAX_LINK_GBPS).contains(&g)
        {
            return Err(ReportError::new(
                "summary.adapter_gbps",
                format!("{g} Gb/s is not a line rate (between {MIN_LINK_GBPS} and {MAX_LINK_GBPS} Gb/s)"),
            ));
        }
        if let Some(m) = &self.gpu_model
            && (m.len() > 200 || m.chars().any(char::is_control))
        {
            return Err(ReportError::new(
                "summary.gpu_model",
                "is not a GPU name (over 200 characters or control characters)",
            ));
        }
        let rdma = matches!(self.fabric, ReportFabric::Infiniband | ReportFabric::Roce);
        if rdma && self.rdma_adapters == 0 {
            return Err(ReportError::new(
                "summary.rdma_adapters",
                format!("is 0, but fabric is \"{}\", which needs an active RDMA port", self.fabric.name()),
            ));
        }
        // A virtual machine's NIC often has no known speed: only RDMA ports must state theirs.
        if rdma && self.adapter_gbps.is_none() {
            return Err(ReportError::new(
                "summary.adapter_gbps",
                format!("is missing, but fabric is \"{}\" with active ports", self.fabric.name()),
            ));
        }
        Ok(())
    }

    /// Fills the cluster part of `input` from the summary (GPU model, GPUs per node, adapters, line rate, fabric,
    /// GPUDirect RDMA) and says, one line each, what it took and what it left as it was. The model, its size, the
    /// node count and the compute stay the user's.
    pub fn apply(&self, input: &mut ScenarioInput) -> Vec<String> {
        let mut said = Vec::new();
        match (&self.gpu_model, self.gpus) {
            (Some(model), n) if n > 0 => {
                let lookup = catalog::lookup(model);
                let spec = lookup.spec();
                input.gpu =
                    if matches!(lookup, catalog::Lookup::Unknown) { model.clone() } else { spec.key.to_string() };
                input.gpus_per_node = i64::from(n);
                if matches!(lookup, catalog::Lookup::Unknown) {
                    said.push(format!(
                        "GPU: {n} x \"{model}\", which the catalog does not know: generic figures are used"
                    ));
                } else {
                    said.push(format!("GPU: {n} x {} (reported as \"{model}\")", spec.name));
                }
            }
            _ => said.push("GPU: the report lists no GPU, so the GPU and GPUs per node are kept".to_string()),
        }
        match self.fabric {
            ReportFabric::Infiniband | ReportFabric::Roce => {
                input.adapters_per_node = i64::from(self.rdma_adapters);
                if let Some(g) = self.adapter_gbps {
                    input.link_gbps = g;
                }
                input.fabric = self.fabric.to_fabric().unwrap_or(Fabric::Infiniband);
                said.push(format!(
                    "Network: {} active {} port{} at {} Gb/s",
                    self.rdma_adapters,
                    if self.fabric == ReportFabric::Infiniband { "InfiniBand" } else { "RoCE" },
                    if self.rdma_adapters == 1 { "" } else { "s" },
                    self.adapter_gbps.map_or_else(|| "?".to_string(), |g| g.to_string())
                ));
            }
            ReportFabric::Ethernet => {
                input.fabric = Fabric::Tcp;
                input.adapters_per_node = i64::from(self.ethernet_ports.max(1));
                let ports = format!(
                    "Network: no RDMA port; {} Ethernet port{} up",
                    self.ethernet_ports,
                    if self.ethernet_ports == 1 { "" } else { "s" }
                );
                match self.adapter_gbps {
                    Some(g) => {
                        input.link_gbps = g;
                        said.push(format!("{ports} at {g} Gb/s, so NCCL would use TCP sockets"));
                    }
                    None => said.push(format!(
                        "{ports} at a speed the kernel does not know (a virtual NIC?): kept {} Gb/s, set it to what \
                         the provider sells; NCCL would use TCP sockets",
                        input.link_gbps
                    )),
                }
            }
            ReportFabric::None => {
                input.nodes = 1;
                input.adapters_per_node = 0;
                said.push("Network: none that could carry a multi-node job, so the scenario is one node".to_string());
            }
        }
        match self.gdr {
            GdrSupport::Supported => {
                input.gdr = true;
                said.push("GPUDirect RDMA: supported".to_string());
            }
            GdrSupport::NotSupported => {
                input.gdr = false;
                said.push("GPUDirect RDMA: not supported, so the NICs go through host memory".to_string());
            }
            GdrSupport::Unknown => said.push(format!(
                "GPUDirect RDMA: the report could not tell; kept as {}",
                if input.gdr { "on" } else { "off" }
            )),
        }
        said
    }
}

/// The whole report. Every section but `schema_version` and `summary` defaults to empty when a reader meets a
/// document without it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The program and version that wrote it (`probe-cli 0.1.0`).
    #[serde(default)]
    pub generator: String,
    /// Where the facts were read.
    #[serde(default)]
    pub source: Source,
    /// The machine.
    #[serde(default)]
    pub host: Host,
    /// GPUs, from NVML when it loads, else from PCI.
    #[serde(default)]
    pub gpus: Vec<Gpu>,
    /// What NVML said (loaded or not, and why).
    #[serde(default)]
    pub nvml: LibraryStatus,
    /// RDMA adapters and their ports, from sysfs.
    #[serde(default)]
    pub rdma_adapters: Vec<RdmaAdapter>,
    /// What libibverbs said, and the memory-registration smoke test.
    #[serde(default)]
    pub verbs: VerbsStatus,
    /// Network interfaces, from `/sys/class/net`.
    #[serde(default)]
    pub net_interfaces: Vec<NetInterface>,
    /// GPUDirect RDMA: the checks NCCL makes.
    #[serde(default)]
    pub gdr: Gdr,
    /// Each GPU's nearest RDMA adapter (or NIC) and the PCIe distance class between them.
    #[serde(default)]
    pub affinity: Vec<Affinity>,
    /// Files that were missing, unreadable or garbled, and other things a reader should know.
    #[serde(default)]
    pub warnings: Vec<Warning>,
    /// Tool outputs attached with `probe-cli report --attach` (nccl-tests, NCCL logs, `nvidia-smi topo -m`, ...),
    /// as estimator-core's readers read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// What maps onto the estimator.
    pub summary: Summary,
}

/// One attached tool output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Attachment {
    /// The file's name (without its directories).
    pub file: String,
    /// What it held.
    #[serde(flatten)]
    pub imported: crate::import::Imported,
}

/// Where the report's facts were read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Source {
    /// The file-system root read (`/`, or the `--root` directory of a captured tree).
    pub root: String,
    /// Whether the live libraries (NVML, libibverbs) were asked; false for a captured tree.
    pub live: bool,
    /// Whether identifiers are in the report (`--include-identifiers`) or redacted.
    pub identifiers_included: bool,
}

/// The machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Host {
    /// Host name, [`REDACTED`] unless identifiers are included.
    pub hostname: Option<String>,
    /// CPU model name (`/proc/cpuinfo`).
    pub cpu_model: Option<String>,
    /// Logical CPUs.
    pub cpus: Option<u32>,
    /// CPU sockets (distinct `physical id`).
    pub sockets: Option<u32>,
    /// NUMA nodes (`/sys/devices/system/node`).
    pub numa_nodes: Option<u32>,
    /// Total memory in bytes (`/proc/meminfo`).
    pub memory_bytes: Option<u64>,
    /// Kernel release (`/proc/sys/kernel/osrelease`).
    pub kernel: Option<String>,
    /// Operating system (`PRETTY_NAME` of `/etc/os-release`).
    pub os: Option<String>,
}

/// A PCIe link: generation and lanes, now and at most.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PcieLink {
    /// Generation of the current link speed (1..6).
    pub current_gen: Option<u8>,
    /// Current lanes.
    pub current_width: Option<u8>,
    /// Generation of the highest supported speed.
    pub max_gen: Option<u8>,
    /// Most lanes.
    pub max_width: Option<u8>,
}

/// One GPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Gpu {
    /// NVML index, or the order on the PCI bus without NVML.
    pub index: u32,
    /// PCI address, sysfs form (`0000:1b:00.0`).
    pub pci_bus_id: String,
    /// The model: NVML's name, or the PCI ID database's without a driver.
    pub name: Option<String>,
    /// `nvml` or `pci`.
    pub source: String,
    /// PCI vendor id (`0x10de`).
    pub vendor_id: Option<String>,
    /// PCI device id (`0x2330`).
    pub device_id: Option<String>,
    /// NUMA node of the PCI device (`null` when the kernel says -1).
    pub numa_node: Option<i32>,
    /// The PCIe link.
    pub pcie: PcieLink,
    /// Total memory, bytes (NVML).
    pub memory_bytes: Option<u64>,
    /// CUDA compute capability (`9.0`).
    pub compute_capability: Option<String>,
    /// Active NVLink links (NVML).
    pub nvlink_active_links: Option<u32>,
    /// UUID, [`REDACTED`] unless identifiers are included.
    pub uuid: Option<String>,
    /// Serial number, [`REDACTED`] unless identifiers are included.
    pub serial: Option<String>,
}

/// Whether a run-time library loaded, and what it said.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LibraryStatus {
    /// It loaded and answered.
    pub available: bool,
    /// Why not, or what went wrong, in the library's words.
    pub error: Option<String>,
    /// Driver version (`570.133.20`).
    pub driver_version: Option<String>,
    /// CUDA driver API version (`12.8`).
    pub cuda_driver_version: Option<String>,
}

/// One RDMA adapter (`/sys/class/infiniband/<name>`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RdmaAdapter {
    /// Device name (`mlx5_0`).
    pub name: String,
    /// PCI address of its function.
    pub pci_bus_id: Option<String>,
    /// `node_type` (`CA`, `RNIC`).
    pub node_type: Option<String>,
    /// `hca_type` (`MT4129`).
    pub hca_type: Option<String>,
    /// Firmware version.
    pub fw_ver: Option<String>,
    /// `board_id` (PSID).
    pub board_id: Option<String>,
    /// Node GUID, [`REDACTED`] unless identifiers are included.
    pub node_guid: Option<String>,
    /// NUMA node.
    pub numa_node: Option<i32>,
    /// The PCIe link.
    pub pcie: PcieLink,
    /// Its ports.
    pub ports: Vec<RdmaPort>,
}

/// One port of an RDMA adapter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RdmaPort {
    /// Port number (1-based).
    pub port: u32,
    /// `ACTIVE`, `DOWN`, `INIT`, `ARMED`, ...
    pub state: Option<String>,
    /// `LinkUp`, `Polling`, `Disabled`, ...
    pub phys_state: Option<String>,
    /// `InfiniBand` or `Ethernet`.
    pub link_layer: Option<String>,
    /// Line rate in Gb/s (from `rate`; for RoCE the netdev's speed when it is known).
    pub rate_gbps: Option<f64>,
    /// The `rate` file as written (`400 Gb/sec (4X NDR)`).
    pub rate_text: Option<String>,
    /// Active and linked: the estimator counts it as an adapter.
    pub active: bool,
    /// The Ethernet (RoCE) or IPoIB interface behind the port.
    pub netdev: Option<String>,
    /// Index of the first RoCE v2 GID with an IPv4-mapped address (`NCCL_IB_GID_INDEX`), RoCE only.
    pub roce_v2_gid_index: Option<u32>,
    /// Non-empty GIDs: index, type and (unless redacted) value.
    pub gids: Vec<GidEntry>,
}

/// One GID table entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GidEntry {
    /// Table index.
    pub index: u32,
    /// `IB/RoCE v1` or `RoCE v2`.
    #[serde(rename = "type")]
    pub gid_type: Option<String>,
    /// The GID, [`REDACTED`] unless identifiers are included (it holds the IP or the port GUID).
    pub gid: String,
    /// Whether it is an IPv4-mapped address (`::ffff:a.b.c.d`).
    pub ipv4_mapped: bool,
    /// The netdev it belongs to.
    pub netdev: Option<String>,
}

/// What libibverbs said.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerbsStatus {
    /// `libibverbs.so.1` loaded and `ibv_get_device_list` answered.
    pub available: bool,
    /// Why not, in the library's words.
    pub error: Option<String>,
    /// Devices libibverbs lists (a kernel device without a user-space provider is not among them).
    pub devices: Vec<VerbsDevice>,
}

/// One device as libibverbs sees it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerbsDevice {
    /// Device name.
    pub name: String,
    /// Ports with their state and speed as verbs reports them.
    pub ports: Vec<VerbsPort>,
    /// Protection domain plus a registered 1 MiB buffer: `ok`, or the failing call and its error.
    pub memory_registration: String,
    /// `ibv_reg_dmabuf_mr` probe as NCCL makes it: `supported`, `not-supported` or `unknown`.
    pub dmabuf: String,
}

/// One port as libibverbs sees it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerbsPort {
    /// Port number.
    pub port: u32,
    /// `ACTIVE`, `DOWN`, ...
    pub state: String,
    /// `InfiniBand`, `Ethernet` or `Unspecified`.
    pub link_layer: String,
    /// Active speed x width in Gb/s, when the encoding is known.
    pub rate_gbps: Option<f64>,
    /// GID table length.
    pub gid_table_len: u32,
    /// The populated GID entries (`_ibv_query_gid_ex`, rdma-core v32 and later; empty on older ones).
    #[serde(default)]
    pub gids: Vec<VerbsGid>,
}

/// One populated GID entry as libibverbs reports it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VerbsGid {
    /// Table index.
    pub index: u32,
    /// `IB`, `RoCE v1` or `RoCE v2`.
    #[serde(rename = "type")]
    pub gid_type: String,
    /// The GID, [`REDACTED`] unless identifiers are included.
    pub gid: String,
}

/// One network interface (`/sys/class/net/<name>`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NetInterface {
    /// Interface name.
    pub name: String,
    /// `up`, `down`, `unknown`, ...
    pub operstate: Option<String>,
    /// Speed in Mb/s (`null` when the kernel does not know or the link is down).
    pub speed_mbps: Option<u64>,
    /// `ethernet`, `wireless`, `infiniband` (IPoIB), `loopback`, `arphrd-N` for another type, or `unknown`.
    pub kind: String,
    /// Driver name.
    pub driver: Option<String>,
    /// MTU.
    pub mtu: Option<u32>,
    /// PCI address; `null` for virtual interfaces (bridges, bonds, veth).
    pub pci_bus_id: Option<String>,
    /// The RDMA device on the same PCI function (RoCE or IPoIB).
    pub rdma_device: Option<String>,
    /// MAC address, [`REDACTED`] unless identifiers are included.
    pub mac: Option<String>,
}

/// GPUDirect RDMA: the checks NCCL makes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Gdr {
    /// The verdict (also in the summary).
    pub status: GdrSupport,
    /// The peer-memory module found: `nvidia_peermem` (`/sys/module/nvidia_peermem/version`), `nv_peer_mem`
    /// (`/sys/kernel/mm/memory_peers/nv_mem/version`) or `nv_peer_mem (nc)`; `null` if none.
    pub peer_memory_module: Option<String>,
    /// Its version file.
    pub peer_memory_version: Option<String>,
    /// DMA-BUF registration on the NICs (libibverbs probe): `supported`, `not-supported`, `unknown`.
    pub dmabuf: GdrSupport,
    /// Why the verdict is what it is, one line each.
    pub reasons: Vec<String>,
}

impl Default for Gdr {
    fn default() -> Self {
        Gdr {
            status: GdrSupport::Unknown,
            peer_memory_module: None,
            peer_memory_version: None,
            dmabuf: GdrSupport::Unknown,
            reasons: Vec::new(),
        }
    }
}

/// A GPU and its nearest NIC.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Affinity {
    /// GPU index.
    pub gpu: u32,
    /// The nearest RDMA adapter (or, without one, network interface).
    pub nic: String,
    /// `nvidia-smi topo -m` class: `PIX`, `PXB`, `PHB`, `NODE` or `SYS`.
    pub class: String,
    /// NCCL's path type for it (NCCL has no NODE: the path goes through the CPU, so `PHB`).
    pub nccl_path: String,
    /// NCCL's default `NCCL_NET_GDR_LEVEL` (PXB) allows GPUDirect RDMA over this path.
    pub gdr_distance_ok: bool,
}

/// Something the reader should know: a file that was missing or garbled, a port running slower than its peers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Warning {
    /// The file or facility it is about (`/sys/class/infiniband/mlx5_0/ports/1/rate`, `nvml`).
    pub source: String,
    /// What happened, in words.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> Summary {
        Summary {
            fabric: ReportFabric::Infiniband,
            rdma_adapters: 8,
            adapter_gbps: Some(400.0),
            ethernet_ports: 0,
            gpus: 8,
            gpu_model: Some("NVIDIA H100 80GB HBM3".to_string()),
            gdr: GdrSupport::Supported,
        }
    }

    #[test]
    fn a_summary_fills_the_cluster_and_keeps_the_job() {
        let mut input = ScenarioInput { params: 70e9, nodes: 4, link_gbps: 25.0, ..Default::default() };
        let said = summary().apply(&mut input);
        assert_eq!(input.gpu, "h100-sxm");
        assert_eq!((input.gpus_per_node, input.adapters_per_node, input.link_gbps), (8, 8, 400.0));
        assert_eq!((input.fabric, input.gdr, input.params, input.nodes), (Fabric::Infiniband, true, 70e9, 4));
        assert!(said[0].contains("H100"), "{said:?}");
    }

    #[test]
    fn ethernet_and_none_map_to_tcp_and_one_node() {
        let mut input = ScenarioInput::default();
        let eth = Summary {
            fabric: ReportFabric::Ethernet,
            rdma_adapters: 0,
            adapter_gbps: Some(25.0),
            ethernet_ports: 2,
            gdr: GdrSupport::NotSupported,
            ..summary()
        };
        eth.validate().expect("test setup");
        eth.apply(&mut input);
        assert_eq!((input.fabric, input.adapters_per_node, input.link_gbps, input.gdr), (Fabric::Tcp, 2, 25.0, false));
        let none = Summary { fabric: ReportFabric::None, adapter_gbps: None, ethernet_ports: 0, ..eth };
        none.validate().expect("test setup");
        none.apply(&mut input);
        assert_eq!((input.nodes, input.adapters_per_node), (1, 0));
    }

    #[test]
    fn absurd_values_name_their_field() {
        let cases = [
            (Summary { gpus: 100_000, ..summary() }, "summary.gpus"),
            (Summary { rdma_adapters: 1000, ..summary() }, "summary.rdma_adapters"),
            (Summary { adapter_gbps: Some(1e9), ..summary() }, "summary.adapter_gbps"),
            (Summary { adapter_gbps: Some(f64::NAN), ..summary() }, "summary.adapter_gbps"),
            (Summary { adapter_gbps: None, ..summary() }, "summary.adapter_gbps"),
            (Summary { rdma_adapters: 0, ..summary() }, "summary.rdma_adapters"),
            (Summary { gpu_model: Some("x\u{0}".into()), ..summary() }, "summary.gpu_model"),
        ];
        for (s, field) in cases {
            assert_eq!(s.validate().expect_err("an error").field, field);
        }
    }

    fn head(json: &str) -> Result<ReportHead, ReportError> {
        let v: serde_json::Value = serde_json::from_str(json).map_err(ReportError::not_json)?;
        check_version(&v)?;
        read_head(&v)
    }

    #[test]
    fn readers_check_the_version_first_and_name_the_bad_field() {
        let good = serde_json::json!({"schema_version": 1, "summary": summary(), "extra": [1, 2]});
        assert_eq!(head(&good.to_string()).expect("test setup").summary, summary());
        let cases = [
            ("[1,2]", "report", "JSON object"),
            ("{}", "schema_version", "missing"),
            (r#"{"schema_version":"1"}"#, "schema_version", "must be the number 1"),
            (r#"{"schema_version":2,"summary":{}}"#, "schema_version", "schema version 2"),
            (r#"{"schema_version":1}"#, "report", "missing field `summary`"),
            (r#"{"schema_version":1,"summary":{"fabric":"carrier-pigeon"}}"#, "summary.fabric", "unknown variant"),
            (
                r#"{"schema_version":1,"summary":{"fabric":"roce","rdma_adapters":-1}}"#,
                "summary.rdma_adapters",
                "invalid value",
            ),
        ];
        for (json, field, words) in cases {
            let e = head(json).expect_err("an error");
            assert_eq!(e.field, field, "{json}: {e}");
            assert!(e.reason.contains(words), "{json}: {e}");
        }
        assert!(head("{not json").expect_err("an error").reason.starts_with("not JSON"));
    }

    /// [`read_fields`] over a serde_json value, as the page does over `JSON.parse`'s result.
    fn fields(json: &str) -> Result<Summary, ReportError> {
        let v: serde_json::Value = serde_json::from_str(json).map_err(ReportError::not_json)?;
        read_fields(|path| {
            let mut at = Some(&v);
            for part in path.split('.').filter(|p| !p.is_empty()) {
                at = at.and_then(|x| x.get(part));
            }
            match at {
                None => Scalar::Missing,
                Some(serde_json::Value::Null) => Scalar::Null,
                Some(serde_json::Value::Bool(b)) => Scalar::Bool(*b),
                Some(serde_json::Value::Number(n)) => Scalar::Number(n.as_f64().unwrap_or(f64::NAN)),
                Some(serde_json::Value::String(s)) => Scalar::Text(s.clone()),
                Some(serde_json::Value::Object(_)) => Scalar::Object,
                Some(serde_json::Value::Array(_)) => Scalar::Array,
            }
        })
    }

    #[test]
    fn the_page_reader_and_the_serde_reader_agree() {
        let good = serde_json::to_value(summary()).expect("json");
        let mut docs = vec![
            "[1]".to_string(),
            "3".to_string(),
            "{}".to_string(),
            r#"{"schema_version":"1"}"#.to_string(),
            r#"{"schema_version":2,"summary":{}}"#.to_string(),
            r#"{"schema_version":1}"#.to_string(),
            r#"{"schema_version":1,"summary":[]}"#.to_string(),
        ];
        let edits: Vec<(&str, serde_json::Value)> = vec![
            ("fabric", "carrier-pigeon".into()),
            ("fabric", 3.into()),
            ("fabric", "ethernet".into()),
            ("fabric", "none".into()),
            ("rdma_adapters", (-1).into()),
            ("rdma_adapters", 8.5.into()),
            ("rdma_adapters", "8".into()),
            ("rdma_adapters", 0.into()),
            ("rdma_adapters", 8.0.into()),
            ("gpus", 8.0.into()),
            ("gpus", 1e300.into()),
            ("rdma_adapters", 5000.into()),
            ("adapter_gbps", serde_json::Value::Null),
            ("adapter_gbps", "fast".into()),
            ("adapter_gbps", 1e9.into()),
            ("adapter_gbps", 0.0.into()),
            ("ethernet_ports", serde_json::Value::Null),
            ("ethernet_ports", 100.into()),
            ("gpus", 1e6.into()),
            ("gpus", true.into()),
            ("gpu_model", serde_json::Value::Null),
            ("gpu_model", 7.into()),
            ("gdr", "maybe".into()),
            ("gdr", "not-supported".into()),
        ];
        for (k, val) in &edits {
            let mut s = good.clone();
            s[*k] = val.clone();
            docs.push(serde_json::json!({"schema_version": 1, "summary": s}).to_string());
        }
        for k in ["fabric", "rdma_adapters", "adapter_gbps", "ethernet_ports", "gpus", "gpu_model", "gdr"] {
            let mut s = good.clone();
            s.as_object_mut().expect("object").remove(k);
            docs.push(serde_json::json!({"schema_version": 1, "summary": s}).to_string());
        }
        docs.push(serde_json::json!({"schema_version": 1, "summary": good, "gpus": [1]}).to_string());
        for doc in &docs {
            let a = head(doc).map(|h| h.summary);
            let b = fields(doc);
            match (&a, &b) {
                (Ok(x), Ok(y)) => assert_eq!(x, y, "{doc}"),
                (Err(x), Err(y)) => assert_eq!(x.field, y.field, "{doc}: {x} / {y}"),
                _ => panic!("{doc}: serde says {a:?}, fields say {b:?}"),
            }
        }
    }

    #[test]
    fn unknown_gpu_is_kept_by_name_and_no_gpu_keeps_the_inputs() {
        let mut input = ScenarioInput::default();
        let said = Summary { gpu_model: Some("Mystery X9".into()), ..summary() }.apply(&mut input);
        assert_eq!(input.gpu, "Mystery X9");
        assert!(said[0].contains("does not know"));
        let mut input = ScenarioInput::default();
        Summary { gpus: 0, gpu_model: None, ..summary() }.apply(&mut input);
        assert_eq!((input.gpu.as_str(), input.gpus_per_node), ("h100-sxm", 8));
    }
}
