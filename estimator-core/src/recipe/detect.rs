//! Which fabric a node's report shows, for the recipe: InfiniBand and RoCE from its active RDMA ports, AWS EFA from
//! the `efa` driver behind its RDMA devices, GCP's GPUDirect-TCPX and -TCPXO from its gVNIC (`gve`) interfaces,
//! plain sockets otherwise; with the active HCAs, the RoCE v2 GID index and the bootstrap interface.

use serde::{Deserialize, Serialize};

use crate::fabric::Fabric;
use crate::report::{NetInterface, Report, ReportFabric};

/// The fabric classes the recipe writes environments for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum RecipeFabric {
    /// InfiniBand through NCCL's own NET/IB.
    Infiniband,
    /// RoCE v2 through NCCL's NET/IB.
    Roce,
    /// AWS EFA through libfabric and the aws-ofi-nccl plugin.
    Efa,
    /// GCP GPUDirect-TCPX (a3-highgpu-8g) through its NCCL plugin.
    Tcpx,
    /// GCP GPUDirect-TCPXO (a3-megagpu-8g) through its NCCL plugin (FasTrak).
    Tcpxo,
    /// NCCL's socket transport over TCP.
    Socket,
}

impl RecipeFabric {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            RecipeFabric::Infiniband => "infiniband",
            RecipeFabric::Roce => "roce",
            RecipeFabric::Efa => "efa",
            RecipeFabric::Tcpx => "tcpx",
            RecipeFabric::Tcpxo => "tcpxo",
            RecipeFabric::Socket => "socket",
        }
    }

    /// The recipe's class for the estimator's fabric (`--fabric`).
    pub fn of(f: Fabric) -> RecipeFabric {
        match f {
            Fabric::Infiniband => RecipeFabric::Infiniband,
            Fabric::Roce => RecipeFabric::Roce,
            Fabric::Efa | Fabric::EfaV2 | Fabric::EfaV3 => RecipeFabric::Efa,
            Fabric::Tcpx => RecipeFabric::Tcpx,
            Fabric::Tcpxo => RecipeFabric::Tcpxo,
            // Another RDMA fabric through a plugin: NCCL's own defaults, no variables the recipe can name.
            Fabric::Rdma | Fabric::Tcp => RecipeFabric::Socket,
        }
    }
}

/// What the recipe knows of the node's network.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Detected {
    /// The fabric; `None` when the node has no network a multi-node job could use.
    pub fabric: Option<RecipeFabric>,
    /// The active RDMA ports, `device:port` (InfiniBand and RoCE).
    pub hcas: Vec<String>,
    /// The RoCE v2 GID index with an IPv4 address the ports share (RoCE).
    pub gid_index: Option<u32>,
    /// The interface for NCCL's bootstrap and socket traffic.
    pub socket_ifname: Option<String>,
    /// The NICs that carry GPU traffic on TCPX/TCPXO (every gVNIC but the first).
    pub gpu_nics: Vec<String>,
    /// The NCCL version the node's environment names (`NCCL_VERSION`, as NGC containers set it).
    pub nccl_version: Option<String>,
    /// What each conclusion was read from, one line each.
    pub evidence: Vec<String>,
}

/// gVNIC's driver name (Linux `drivers/net/ethernet/google/gve`).
const GVE: &str = "gve";

/// A name the kernel could have given an interface or an RDMA device (at most 64 bytes of letters, digits and
/// `.`, `_`, `-`, `:`, `@`): anything else in a report is not written into a script.
fn plausible(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | ':' | '@'))
}

/// The node's fabric and the names the environment needs, from its report. Names that no kernel writes (a report
/// edited by hand) are left out.
pub fn detect(r: &Report) -> Detected {
    let mut d = Detected {
        nccl_version: r.environment.fabric_env.as_ref().and_then(|e| e.get("NCCL_VERSION")).cloned(),
        ..Detected::default()
    };
    let up_ethernet: Vec<&NetInterface> = r
        .net_interfaces
        .iter()
        .filter(|n| n.kind == "ethernet" && n.pci_bus_id.is_some() && n.operstate.as_deref() == Some("up"))
        .filter(|n| plausible(&n.name))
        .collect();
    let efa: Vec<&str> = r
        .rdma_adapters
        .iter()
        .filter(|a| a.driver.as_deref() == Some("efa") && a.ports.iter().any(|p| p.active))
        .map(|a| a.name.as_str())
        .collect();
    let mut gve: Vec<&NetInterface> =
        up_ethernet.iter().copied().filter(|n| n.driver.as_deref() == Some(GVE)).collect();
    gve.sort_by_key(|n| natural(&n.name));
    if !efa.is_empty() {
        d.fabric = Some(RecipeFabric::Efa);
        d.evidence.push(format!("{} active EFA device(s) (driver efa): {}", efa.len(), list(&efa)));
        d.socket_ifname = bootstrap(&up_ethernet);
    } else if matches!(r.summary.fabric, ReportFabric::Infiniband | ReportFabric::Roce) {
        let roce = r.summary.fabric == ReportFabric::Roce;
        let want = if roce { "Ethernet" } else { "InfiniBand" };
        let mut gids = Vec::new();
        for a in r.rdma_adapters.iter().filter(|a| plausible(&a.name)) {
            for p in a.ports.iter().filter(|p| p.active) {
                let layer = p.link_layer.as_deref().unwrap_or("InfiniBand");
                if (layer == "Ethernet") == roce && (roce || layer == want) {
                    d.hcas.push(format!("{}:{}", a.name, p.port));
                    gids.extend(p.roce_v2_gid_index);
                }
            }
        }
        d.fabric = Some(if roce { RecipeFabric::Roce } else { RecipeFabric::Infiniband });
        d.evidence.push(format!(
            "{} active {} port(s): {}",
            d.hcas.len(),
            if roce { "RoCE" } else { "InfiniBand" },
            list(&d.hcas.iter().map(String::as_str).collect::<Vec<_>>())
        ));
        if roce {
            d.gid_index = most_common(&gids);
            match d.gid_index {
                Some(g) if gids.iter().all(|x| *x == g) => {
                    d.evidence.push(format!("RoCE v2 GID with an IPv4 address at index {g} on every port"));
                }
                Some(g) => d.evidence.push(format!(
                    "RoCE v2 GID indexes differ between ports ({gids:?}); the most common, {g}, is used"
                )),
                None => d.evidence.push("no port has a RoCE v2 GID with an IPv4 address (is an IP configured?)".into()),
            }
        }
        let rdma_netdevs: Vec<&str> =
            r.rdma_adapters.iter().flat_map(|a| a.ports.iter().filter_map(|p| p.netdev.as_deref())).collect();
        let plain: Vec<&NetInterface> =
            up_ethernet.iter().copied().filter(|n| !rdma_netdevs.contains(&n.name.as_str())).collect();
        d.socket_ifname = bootstrap(&plain).or_else(|| bootstrap(&up_ethernet));
    } else if gve.len() >= TCPX_MIN_GVE {
        // The first gVNIC is the VM's primary interface; the others carry GPU traffic.
        let tcpxo = gve.len() >= TCPXO_MIN_GVE;
        d.fabric = Some(if tcpxo { RecipeFabric::Tcpxo } else { RecipeFabric::Tcpx });
        d.socket_ifname = Some(gve[0].name.clone());
        d.gpu_nics = gve[1..].iter().map(|n| n.name.clone()).collect();
        d.evidence.push(format!(
            "{} gVNIC interfaces up (driver gve): {} primary, {} for GPU traffic, as {} has",
            gve.len(),
            gve[0].name,
            d.gpu_nics.len(),
            if tcpxo { "a3-megagpu-8g (GPUDirect-TCPXO)" } else { "a3-highgpu-8g (GPUDirect-TCPX)" }
        ));
    } else if !up_ethernet.is_empty() {
        d.fabric = Some(RecipeFabric::Socket);
        // NCCL's sockets carry the data over every interface listed (one network device each): the fastest.
        let top = up_ethernet.iter().filter_map(|n| n.speed_mbps).max();
        let mut fastest: Vec<&NetInterface> =
            up_ethernet.iter().copied().filter(|n| top.is_none() || n.speed_mbps == top).collect();
        fastest.sort_by_key(|n| natural(&n.name));
        let names: Vec<&str> = fastest.iter().map(|n| n.name.as_str()).collect();
        d.socket_ifname = (!names.is_empty()).then(|| names.join(","));
        d.evidence.push(format!(
            "no active RDMA port: NCCL's socket transport over {} Ethernet interface(s) up, the fastest {}",
            up_ethernet.len(),
            match top {
                Some(mbps) => format!("at {} Gb/s: {}", crate::human::num(mbps as f64 / 1000.0, 3), list(&names)),
                None => format!("of unknown speed: {}", list(&names)),
            }
        ));
    } else {
        d.evidence.push("no RDMA port and no physical Ethernet interface up: no multi-node fabric".into());
    }
    // EFA's environment names no interface (AWS's exclusion list), so none is said.
    if let (Some(i), false) = (&d.socket_ifname, matches!(d.fabric, Some(RecipeFabric::Socket | RecipeFabric::Efa))) {
        d.evidence.push(format!("bootstrap interface {i}"));
    }
    d
}

impl Detected {
    /// Without a report: the fabric the user names, and what only a report can say left out (the ports, the
    /// interfaces), but GCP's interface names, which Google's images fix (Slurm images: `enp0s12` primary; GKE's
    /// pods use `eth0` to `eth8`; the sources are in `env.rs`).
    pub fn of_fabric(f: Fabric) -> Detected {
        let fabric = RecipeFabric::of(f);
        let mut d = Detected { fabric: Some(fabric), ..Detected::default() };
        d.evidence
            .push(format!("--fabric {} (no report: the active ports and the interfaces are not known)", f.name()));
        let gpu: &[&str] = match fabric {
            RecipeFabric::Tcpx => &["enp6s0", "enp12s0", "enp134s0", "enp140s0"],
            RecipeFabric::Tcpxo => {
                &["enp6s0", "enp7s0", "enp13s0", "enp14s0", "enp134s0", "enp135s0", "enp141s0", "enp142s0"]
            }
            _ => return d,
        };
        d.socket_ifname = Some("enp0s12".to_string());
        d.gpu_nics = gpu.iter().map(|g| g.to_string()).collect();
        d.evidence.push(format!(
            "interface names of Google's Slurm images (enp0s12 primary); on GKE they are eth0 to eth{}",
            gpu.len()
        ));
        d
    }

    /// For GCP's TCPX and TCPXO, what the report cannot say (its gVNICs have no RDMA and no stated speed): the
    /// GPU NICs, their rate and the fabric, from the offer catalog's a3-highgpu-8g and a3-megagpu-8g, and NCCL's
    /// Ring, which Google's environment asks for (`NCCL_ALGO=Ring` on TCPX, `Ring,Tree` with NVLS off on TCPXO:
    /// `env.rs`); the offer's name when it was used.
    pub fn fill_hardware(&self, input: &mut crate::ScenarioInput) -> Option<&'static str> {
        let id = match self.fabric? {
            RecipeFabric::Tcpx => "gcp-a3-highgpu-8g",
            RecipeFabric::Tcpxo => "gcp-a3-megagpu-8g",
            _ => return None,
        };
        let o = crate::offer::OFFERS.iter().find(|o| o.id == id)?;
        input.fabric = o.fabric;
        input.adapters_per_node = i64::from(o.adapters);
        input.link_gbps = o.link_gbps;
        input.gdr = o.gdr;
        input.algorithm = crate::scenario::Algorithm::Ring;
        Some(o.name)
    }
}

/// After [`crate::report::Summary::apply`], what only a report's interfaces say, as every command and the page read
/// it: GCP's gVNICs carry no RDMA and state no speed, so the summary reads an a3-megagpu-8g as TCP sockets over 9
/// ports of unknown speed; its TCPX/TCPXO hardware comes from the offer catalog ([`Detected::fill_hardware`]), and
/// the lines the summary said of the network and GPUDirect RDMA are replaced by one that says so.
pub fn apply_interfaces(r: &crate::report::Report, input: &mut crate::ScenarioInput, said: &mut Vec<String>) {
    let d = detect(r);
    if let Some(name) = d.fill_hardware(input) {
        said.retain(|l| !l.starts_with("Network:") && !l.starts_with("GPUDirect RDMA:"));
        said.push(format!(
            "Network: {} x {} Gb/s {}, the offer catalog's {name}: {} (gVNICs state no speed)",
            input.adapters_per_node,
            crate::human::num(input.link_gbps, 3),
            input.fabric.label(),
            d.evidence.first().map_or("its gVNICs", String::as_str),
        ));
    }
}

/// gVNICs up from which a node is an a3-highgpu-8g (1 primary + 4 for GPUs); see `env.rs` for the source.
pub const TCPX_MIN_GVE: usize = super::env::A3_HIGH_GVE;
/// From which an a3-megagpu-8g (1 primary + 8 for GPUs).
pub const TCPXO_MIN_GVE: usize = super::env::A3_MEGA_GVE;

/// The interface NCCL's bootstrap should use: the first by name (eth0 before eth1, ens3 before ens10).
fn bootstrap(candidates: &[&NetInterface]) -> Option<String> {
    candidates.iter().min_by(|a, b| natural(&a.name).cmp(&natural(&b.name))).map(|n| n.name.clone())
}

/// A name's sort key that reads its digit runs as numbers: `enp7s0` before `enp13s0`, `eth9` before `eth10`.
fn natural(name: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let text_len = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_len);
        let digits = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
        let (num, after) = tail.split_at(digits);
        key.push((text.to_string(), num.parse().unwrap_or(u64::MAX)));
        rest = after;
    }
    key
}

fn most_common(v: &[u32]) -> Option<u32> {
    let mut counts = std::collections::BTreeMap::<u32, usize>::new();
    for x in v {
        *counts.entry(*x).or_default() += 1;
    }
    counts.into_iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0))).map(|(g, _)| g)
}

fn list(names: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut s = names.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    s
}
