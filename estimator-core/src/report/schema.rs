//! The whole report document: [`Report`] and its sections, as `probe-cli report --json` writes them.
//!
//! Identifiers (hostname, GUIDs, MAC and IP addresses, serial numbers, UUIDs) are written as [`REDACTED`] unless
//! the user asked for them; the probe does that, this module only defines the shape.

use serde::{Deserialize, Serialize};

use super::summary::{GdrSupport, Summary};

/// The schema version this crate writes and reads. A reader refuses other versions with a message that says which.
pub const SCHEMA_VERSION: u32 = 1;

/// What an identifier reads as when it is redacted.
pub const REDACTED: &str = "redacted";

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
    /// What the probe read of the environment a job would run in: the locked-memory limit, `/dev/infiniband`,
    /// the fabric's environment variables, the IOMMU.
    #[serde(default)]
    pub environment: super::readiness::Environment,
    /// Is the node ready for multi-node training: each check with what it saw and the fix
    /// (`estimator_core::report::checks` derives them from the rest of the report).
    #[serde(default)]
    pub readiness: Vec<super::readiness::ReadinessCheck>,
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
    /// The GPU's NVLink fabric as NVML reports it (`nvmlDeviceGetGpuFabricInfo`): on GB200/GB300 NVL72 racks,
    /// whether the tray's GPUs have joined the rack's multi-node NVLink domain. `null` when NVML did not say (no
    /// driver, a driver before R525, a capture without it).
    #[serde(default)]
    pub nvlink_fabric: Option<NvlinkFabric>,
}

/// A GPU's place in a multi-node NVLink fabric (NVML's `nvmlGpuFabricInfo_t`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NvlinkFabric {
    /// NVML's `state`: `not-supported` (no multi-node NVLink: an HGX board, a PCIe card), `not-started`,
    /// `in-progress` (the fabric manager has not finished: NCCL will not use multi-node NVLink yet) or `completed`.
    pub state: String,
    /// NVML's `status` once `completed`: `success`, or NVML's error for the registration.
    pub status: Option<String>,
    /// The clique: GPUs with the same cluster UUID and clique id share one NVLink domain (what NCCL's MNNVL
    /// checks).
    pub clique_id: Option<u32>,
    /// The fabric's cluster UUID, [`REDACTED`] unless identifiers are included.
    pub cluster_uuid: Option<String>,
}

impl NvlinkFabric {
    /// Whether the GPU has joined a multi-node NVLink domain: state `completed`, status `success`.
    pub fn joined(&self) -> bool {
        self.state == "completed" && self.status.as_deref() == Some("success")
    }
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
    /// The kernel driver of that function (`mlx5_core`, `efa`, `bnxt_en`, `irdma`); `null` when unknown.
    #[serde(default)]
    pub driver: Option<String>,
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
