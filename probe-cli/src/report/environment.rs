//! The environment a job would run in, beside the hardware: the report's `environment` section, which the core's
//! readiness checks read.
//!
//! From the tree (so `gather` captures them and `--root` reads them back): the soft locked-memory limit
//! (`/proc/self/limits`) and the IOMMU's mode (the type of the IOMMU groups, `/sys/kernel/iommu_groups/*/type`:
//! `identity` is pass-through, `DMA` and `DMA-FQ` translate). From the live process only, and kept in the capture's
//! `/probe-cli/environment.json`: the entries of `/dev/infiniband` (device nodes a capture cannot hold), each
//! opened for reading and writing as libibverbs would, and the `NCCL_*`, `UCX_*` and `FI_*` variables.

use std::collections::BTreeMap;
use std::path::Path;

use estimator_core::report::{DeviceNode, Environment, REDACTED};
use serde::{Deserialize, Serialize};

use super::fs::{Need, Tree};

/// Where a capture keeps what only the live process can see.
pub const ENVIRONMENT_CAPTURE: &str = "/probe-cli/environment.json";

/// The variables kept (the fabric's).
const PREFIXES: [&str; 3] = ["NCCL_", "UCX_", "FI_"];

/// The live-only facts, as a capture holds them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveFacts {
    /// `/dev/infiniband`'s entries.
    pub dev_infiniband: Option<Vec<DeviceNode>>,
    /// The fabric's variables.
    pub fabric_env: Option<BTreeMap<String, String>>,
}

impl LiveFacts {
    /// This process's: `/dev/infiniband` under `dev` (normally `/dev/infiniband`) and `vars`.
    pub fn read(dev: &Path, vars: impl Iterator<Item = (String, String)>, identifiers: bool) -> LiveFacts {
        LiveFacts { dev_infiniband: Some(device_nodes(dev)), fabric_env: Some(fabric_vars(vars, identifiers)) }
    }

    /// A capture's, or none (the report says the checks could not be made).
    pub fn captured(tree: &mut Tree) -> LiveFacts {
        let Some(text) = tree.read(ENVIRONMENT_CAPTURE, Need::Optional) else { return LiveFacts::default() };
        match serde_json::from_str(&text) {
            Ok(facts) => facts,
            Err(e) => {
                tree.warn(ENVIRONMENT_CAPTURE, format!("not the probe's environment: {e}"));
                LiveFacts::default()
            }
        }
    }
}

/// Whether an entry of `/dev/infiniband` is opened to see if this user can: the verbs devices (what libibverbs
/// opens) and the RDMA connection manager. Never `issm*` (opening it takes the port's subnet-manager lock, blocking
/// while opensm holds it, and sets the port's IsSM bit) nor `umad*` (the management datagram interface): those are
/// only listed.
fn opened_to_check(name: &str) -> bool {
    name.starts_with("uverbs") || name == "rdma_cm"
}

/// The entries of `dir`; the verbs devices and `rdma_cm` opened read-write without blocking and closed again (the
/// probe changes nothing); `[]` when it is missing.
fn device_nodes(dir: &Path) -> Vec<DeviceNode> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut nodes: Vec<DeviceNode> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !opened_to_check(&name) {
                return Some(DeviceNode { name, openable: None, error: None });
            }
            let opened =
                std::fs::OpenOptions::new().read(true).write(true).custom_flags(libc::O_NONBLOCK).open(e.path());
            Some(DeviceNode { name, openable: Some(opened.is_ok()), error: opened.err().map(|err| err.to_string()) })
        })
        .collect();
    nodes.sort_by(|a, b| a.name.cmp(&b.name));
    nodes
}

/// The fabric's variables. Unless `identifiers`, a value reads [`REDACTED`] when it may say who or where: its name
/// speaks of an address, a host, a file, a path, a directory, a plugin or a log, or the value holds a `/`, an `@`
/// or (but in `NCCL_IB_HCA`'s `device:port` lists) a `:`.
fn fabric_vars(vars: impl Iterator<Item = (String, String)>, identifiers: bool) -> BTreeMap<String, String> {
    vars.filter(|(k, _)| PREFIXES.iter().any(|p| k.starts_with(p)))
        .map(|(k, v)| {
            let named =
                ["ADDR", "COMM_ID", "HOST", "IP", "FILE", "PATH", "DIR", "PLUGIN", "LOG"].iter().any(|w| k.contains(w));
            let valued = v.contains('/') || v.contains('@') || (v.contains(':') && k != "NCCL_IB_HCA");
            let v = if (named || valued) && !identifiers { REDACTED.to_string() } else { v };
            (k, v)
        })
        .collect()
}

/// The soft locked-memory limit from `/proc/self/limits` (`Max locked memory  8388608  8388608  bytes`).
fn memlock(tree: &mut Tree) -> Option<String> {
    let text = tree.read("/proc/self/limits", Need::Optional)?;
    let line = text.lines().find(|l| l.starts_with("Max locked memory"))?;
    let soft = line.trim_start_matches("Max locked memory").split_whitespace().next()?;
    if soft != "unlimited" && soft.parse::<u64>().is_err() {
        tree.warn("/proc/self/limits", format!("unreadable locked-memory limit {soft:?}"));
    }
    Some(super::fs::clip(soft))
}

/// The effective user id, from `/proc/self/status` (`Uid:  real  effective  saved  fs`).
fn euid(tree: &mut Tree) -> Option<u32> {
    let text = tree.read("/proc/self/status", Need::Optional)?;
    text.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1)?.parse().ok())
}

/// The IOMMU's mode and what it was read from.
fn iommu(tree: &mut Tree) -> (Option<String>, Option<String>) {
    let groups = tree.list("/sys/kernel/iommu_groups", Need::Optional);
    if groups.is_empty() {
        // The directory is there on every kernel that can have an IOMMU; empty, none is on.
        if tree.exists("/sys/kernel/iommu_groups") {
            return (Some("off".into()), Some("no IOMMU group under /sys/kernel/iommu_groups".into()));
        }
        return (None, None);
    }
    let mut types = BTreeMap::<String, usize>::new();
    for g in &groups {
        if let Some(t) = tree.read(format!("/sys/kernel/iommu_groups/{g}/type"), Need::Optional) {
            *types.entry(t.trim().to_string()).or_default() += 1;
        }
    }
    let Some((kind, _)) = types.iter().max_by_key(|(_, n)| **n) else {
        return (None, Some(format!("{} IOMMU groups without a readable type", groups.len())));
    };
    let evidence = format!(
        "{} IOMMU groups, type {}",
        groups.len(),
        types.iter().map(|(t, n)| format!("{t} ({n})")).collect::<Vec<_>>().join(", ")
    );
    let mode = match kind.as_str() {
        "identity" => "passthrough",
        "DMA" | "DMA-FQ" => "translated",
        _ => return (None, Some(evidence)),
    };
    (Some(mode.to_string()), Some(evidence))
}

/// The section: tree facts, and the live-only ones.
pub fn read(tree: &mut Tree, live: LiveFacts) -> Environment {
    let memlock = memlock(tree);
    let (iommu, iommu_evidence) = iommu(tree);
    let euid = euid(tree);
    Environment {
        memlock,
        dev_infiniband: live.dev_infiniband,
        fabric_env: live.fabric_env,
        euid,
        iommu,
        iommu_evidence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_fabric_variables_are_kept_and_addresses_are_redacted() {
        let vars = [
            ("NCCL_IB_DISABLE", "1"),
            ("NCCL_COMM_ID", "10.0.0.1:1234"),
            ("UCX_TLS", "tcp"),
            ("HOME", "/root"),
            ("FI_PROVIDER", "efa"),
            ("MASTER_ADDR", "10.0.0.1"),
            ("NCCL_DEBUG_FILE", "/home/alice/nccl.%h.log"),
            ("NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let kept = fabric_vars(vars.clone().into_iter(), false);
        assert_eq!(
            kept.keys().map(String::as_str).collect::<Vec<_>>(),
            ["FI_PROVIDER", "NCCL_COMM_ID", "NCCL_DEBUG_FILE", "NCCL_IB_DISABLE", "NCCL_IB_HCA", "UCX_TLS"]
        );
        assert_eq!(kept["NCCL_DEBUG_FILE"], REDACTED, "a path says whose");
        assert_eq!(kept["NCCL_IB_HCA"], "=mlx5_0:1,mlx5_1:1", "device:port is no address");
        assert_eq!(kept["NCCL_COMM_ID"], REDACTED);
        assert_eq!(fabric_vars(vars.into_iter(), true)["NCCL_COMM_ID"], "10.0.0.1:1234");
    }

    #[test]
    fn device_nodes_say_which_open() {
        let dir = std::env::temp_dir().join(format!("probe-cli-dev-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("dir");
        std::fs::create_dir_all(dir.join("uverbs1")).expect("dir");
        std::fs::write(dir.join("uverbs0"), b"").expect("file");
        std::fs::write(dir.join("issm0"), b"").expect("file");
        let nodes = device_nodes(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        let names: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["issm0", "sub", "uverbs0", "uverbs1"]);
        assert_eq!(nodes[0].openable, None, "issm is never opened: it would take the subnet manager's lock");
        assert_eq!(nodes[1].openable, None);
        assert_eq!(nodes[2].openable, Some(true));
        assert_eq!(nodes[3].openable, Some(false), "a directory does not open for writing");
        assert!(device_nodes(Path::new("/no/such/dir")).is_empty());
    }
}
