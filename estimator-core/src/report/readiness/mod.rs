//! Is the node ready for multi-node training? The report's `readiness` section: checks of what most often breaks a
//! job on a rented node that has the right hardware. Each says what it saw and the fix, and the environment
//! variables that turn the fabric off say what that costs in the model's terms.
//!
//! The probe collects the facts (the report's `environment` section, the PCIe links, GPUDirect RDMA) and
//! [`checks`] turns them into [`ReadinessCheck`]s; it is pure, so any reader can recompute them from a report.
//! `env.rs` holds the check of the fabric's environment variables and what each costs in the model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::read::Scalar;
use super::schema::{PcieLink, Report};
use super::summary::GdrSupport;
use crate::{Bytes, human};

/// What the probe read of the node's environment, beside its hardware. `null` fields were not read (a captured tree
/// without the probe's answer, or a file that was not there).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Environment {
    /// The soft locked-memory limit the probe ran with, as `/proc/self/limits` writes it: `unlimited` or bytes.
    pub memlock: Option<String>,
    /// The entries of `/dev/infiniband` (`uverbs0`, `rdma_cm`, ...) and whether this user could open each; `[]`
    /// when the directory is missing.
    pub dev_infiniband: Option<Vec<DeviceNode>>,
    /// The `NCCL_*`, `UCX_*` and `FI_*` variables of the probe's environment (addresses read `redacted` unless
    /// identifiers are included).
    pub fabric_env: Option<BTreeMap<String, String>>,
    /// The effective user id the probe ran with (`/proc/self/status`); root is not bound by the locked-memory
    /// limit, a job run as another user is.
    #[serde(default)]
    pub euid: Option<u32>,
    /// The IOMMU's mode: `off`, `passthrough` or `translated`.
    pub iommu: Option<String>,
    /// What the IOMMU's mode was read from.
    pub iommu_evidence: Option<String>,
}

/// One entry of `/dev/infiniband`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeviceNode {
    /// `uverbs0`, `rdma_cm`, `umad0`, ...
    pub name: String,
    /// Whether it opened for reading and writing; `null` when not tried.
    pub openable: Option<bool>,
    /// Why it did not open.
    pub error: Option<String>,
}

/// A check's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// Nothing to do.
    Pass,
    /// It works, slower or less surely than it could.
    Warn,
    /// A multi-node job will fail or fall back to something much slower.
    Fail,
    /// The probe could not tell.
    Unknown,
}

impl CheckStatus {
    /// Every status, in order of concern.
    pub const ALL: [CheckStatus; 4] = [CheckStatus::Fail, CheckStatus::Warn, CheckStatus::Unknown, CheckStatus::Pass];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            CheckStatus::Pass => "pass",
            CheckStatus::Warn => "warn",
            CheckStatus::Fail => "fail",
            CheckStatus::Unknown => "unknown",
        }
    }
}

/// One readiness check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReadinessCheck {
    /// What is checked: `rdma-devices`, `rdma-cm`, `memlock`, `nccl-env`, `gdr`, `iommu`, `pcie-gpu`, `pcie-nic`.
    pub id: String,
    /// The outcome.
    pub status: CheckStatus,
    /// What the probe saw.
    pub saw: String,
    /// What to do about it (`null` when nothing).
    pub fix: Option<String>,
}

mod env;

pub use env::hca_selects;
use env::{escalate, fabric_env, price_from};

fn check(id: &str, status: CheckStatus, saw: String, fix: Option<&str>) -> ReadinessCheck {
    ReadinessCheck { id: id.to_string(), status, saw, fix: fix.map(str::to_string) }
}

/// Every check, from the report's facts, in a fixed order.
pub fn checks(r: &Report) -> Vec<ReadinessCheck> {
    let mut out = vec![network(r), ports(r)];
    let rdma = r.rdma_adapters.iter().any(|a| a.ports.iter().any(|p| p.active));
    devices(r, rdma, &mut out);
    out.push(memlock(r.environment.memlock.as_deref(), rdma, r.environment.euid == Some(0)));
    fabric_env(r, rdma, &mut out);
    out.push(gdr(r, rdma));
    out.push(iommu(r));
    let gpus: Vec<(String, &PcieLink)> = r.gpus.iter().map(|g| (format!("GPU{}", g.index), &g.pcie)).collect();
    out.push(pcie("pcie-gpu", "GPU", &gpus, true));
    // Adapters with an active port: a spare one's link does not matter to a job.
    let nics: Vec<(String, &PcieLink)> = r
        .rdma_adapters
        .iter()
        .filter(|a| a.ports.iter().any(|p| p.active))
        .map(|a| (a.name.clone(), &a.pcie))
        .collect();
    out.push(pcie("pcie-nic", "RDMA adapter", &nics, false));
    out
}

/// Whether a multi-node job has a network here: active RDMA ports (InfiniBand, RoCE, EFA) pass; only Ethernet up
/// warns (NCCL's TCP sockets, or GCP's GPUDirect-TCPX/TCPXO over gVNICs: no RDMA); nothing up fails, since the
/// node cannot take part in a multi-node job at all (issue 39: such a report read "ready, with warnings").
fn network(r: &Report) -> ReadinessCheck {
    use super::summary::ReportFabric;
    let s = &r.summary;
    let rate = s.adapter_gbps.map_or_else(String::new, |g| format!(" at {} Gb/s", human::num(g, 3)));
    match s.fabric {
        ReportFabric::Infiniband | ReportFabric::Roce | ReportFabric::Efa => check(
            "network",
            CheckStatus::Pass,
            format!("{} active {} port(s){rate}", s.rdma_adapters, s.fabric.name()),
            None,
        ),
        ReportFabric::Ethernet => {
            let up = r
                .net_interfaces
                .iter()
                .filter(|n| n.kind == "ethernet" && n.pci_bus_id.is_some() && n.operstate.as_deref() == Some("up"))
                .count();
            check(
                "network",
                CheckStatus::Warn,
                format!(
                    "no active RDMA port, {up} Ethernet interface(s) up: GPU traffic goes over TCP (NCCL's sockets, \
                     or GCP's GPUDirect-TCPX/TCPXO on gVNICs)"
                ),
                Some("on a cluster sold with RDMA, check that its adapters and drivers are present and up"),
            )
        }
        ReportFabric::None => check(
            "network",
            CheckStatus::Fail,
            "no RDMA port and no Ethernet interface up: the node cannot take part in a multi-node job".to_string(),
            Some("bring up the node's network interfaces (ip link, the provider's network setup)"),
        ),
    }
}

/// Every RDMA adapter's ports up: a port that is down carries nothing, and NCCL spreads the job over the others.
fn ports(r: &Report) -> ReadinessCheck {
    let all: Vec<(&str, u32, bool)> =
        r.rdma_adapters.iter().flat_map(|a| a.ports.iter().map(move |p| (a.name.as_str(), p.port, p.active))).collect();
    let down: Vec<String> = all.iter().filter(|p| !p.2).map(|(a, p, _)| format!("{a} port {p}")).collect();
    if all.is_empty() {
        check("rdma-ports", CheckStatus::Unknown, "no RDMA adapter".to_string(), None)
    } else if down.is_empty() {
        check("rdma-ports", CheckStatus::Pass, format!("all {} RDMA port(s) active", all.len()), None)
    } else {
        check(
            "rdma-ports",
            CheckStatus::Warn,
            format!("{} of {} RDMA port(s) not active: {}", down.len(), all.len(), down.join(", ")),
            Some("check the cable and the switch port (ibstat's physical state); a spare port can be left as it is"),
        )
    }
}

/// `/dev/infiniband`: the user-space verbs devices (one per adapter) and the RDMA connection manager.
fn devices(r: &Report, rdma: bool, out: &mut Vec<ReadinessCheck>) {
    let adapters = r.rdma_adapters.len();
    let Some(nodes) = &r.environment.dev_infiniband else {
        let saw = "/dev/infiniband was not looked at (a captured tree without the probe's environment)".to_string();
        out.push(check("rdma-devices", CheckStatus::Unknown, saw.clone(), None));
        out.push(check("rdma-cm", CheckStatus::Unknown, saw, None));
        return;
    };
    let uverbs: Vec<&DeviceNode> = nodes.iter().filter(|n| n.name.starts_with("uverbs")).collect();
    let shut: Vec<String> = uverbs
        .iter()
        .filter(|n| n.openable == Some(false))
        .map(|n| format!("{} ({})", n.name, n.error.as_deref().unwrap_or("not openable")))
        .collect();
    let container = "run the container with the RDMA devices (docker run --device=/dev/infiniband, or Kubernetes' \
                     RDMA device plugin) and, for the user, read-write access to them (group rdma, or udev rules)";
    out.push(if adapters == 0 {
        check(
            "rdma-devices",
            CheckStatus::Unknown,
            "no RDMA adapter in /sys/class/infiniband: nothing to open".to_string(),
            None,
        )
    } else if uverbs.is_empty() {
        check(
            "rdma-devices",
            if rdma { CheckStatus::Fail } else { CheckStatus::Warn },
            format!(
                "{adapters} RDMA adapter(s) in sysfs but no /dev/infiniband/uverbs* device: libibverbs cannot open \
                 them, so NCCL falls back to TCP sockets"
            ),
            Some(container),
        )
    } else if !shut.is_empty() {
        check(
            "rdma-devices",
            CheckStatus::Fail,
            format!("this user cannot open {}: NCCL falls back to TCP sockets", shut.join(", ")),
            Some(container),
        )
    } else if uverbs.len() < adapters {
        check(
            "rdma-devices",
            CheckStatus::Warn,
            format!("{} uverbs device(s) for {adapters} RDMA adapters: the others are not usable here", uverbs.len()),
            Some(container),
        )
    } else {
        let opened = if uverbs.iter().all(|n| n.openable == Some(true)) { ", each opens" } else { "" };
        check("rdma-devices", CheckStatus::Pass, format!("{} uverbs device(s){opened}", uverbs.len()), None)
    });
    out.push(match nodes.iter().find(|n| n.name == "rdma_cm") {
        _ if adapters == 0 => check("rdma-cm", CheckStatus::Unknown, "no RDMA adapter".to_string(), None),
        Some(n) if n.openable == Some(false) => check(
            "rdma-cm",
            CheckStatus::Warn,
            format!("/dev/infiniband/rdma_cm does not open ({})", n.error.as_deref().unwrap_or("denied")),
            Some("NCCL does not need it; MPI and UCX over RDMA CM do: give the user access to it"),
        ),
        Some(_) => check("rdma-cm", CheckStatus::Pass, "/dev/infiniband/rdma_cm is there".to_string(), None),
        None => check(
            "rdma-cm",
            CheckStatus::Warn,
            "no /dev/infiniband/rdma_cm".to_string(),
            Some("NCCL does not need it; MPI and UCX over RDMA CM do: load rdma_ucm and pass the device in"),
        ),
    });
}

/// NCCL's buffers are registered (pinned) memory: `NCCL_BUFFSIZE`, 4 MiB by default, per channel and peer (NCCL
/// environment variables documentation); below this limit registration fails with ENOMEM at start (NVIDIA/nccl#563:
/// "Unable to register memory ... RC: 12, Error: Cannot allocate memory"). Docker's default is 64 KiB, systemd's
/// 8 MiB.
const MEMLOCK_FAIL_BELOW: u64 = 64 << 20;

/// The locked-memory limit. RDMA needs it unlimited (Red Hat Enterprise Linux 7 Networking Guide, §13.5.3
/// "Relaxing memlock restrictions for users": `* soft memlock unlimited`, `* hard memlock unlimited`).
/// A probe run as root is not bound by the limit (CAP_IPC_LOCK), but a job run as another user is: a failure reads
/// as a warning then.
fn memlock(limit: Option<&str>, rdma: bool, root: bool) -> ReadinessCheck {
    let fix = "ulimit -l unlimited before the launcher (or `* soft memlock unlimited` and `* hard memlock \
               unlimited` in /etc/security/limits.d/, docker run --ulimit memlock=-1, LimitMEMLOCK=infinity for \
               a systemd service)";
    match limit.map(str::trim) {
        None => check("memlock", CheckStatus::Unknown, "/proc/self/limits was not read".to_string(), None),
        Some("unlimited") => check("memlock", CheckStatus::Pass, "locked memory: unlimited".to_string(), None),
        Some(text) => match text.parse::<u64>() {
            Err(_) => check("memlock", CheckStatus::Unknown, format!("locked memory limit '{text}'"), None),
            Ok(bytes) => {
                let saw = format!("locked memory limited to {}", human::binary(Bytes::new(bytes as f64)));
                let status = match (rdma, bytes < MEMLOCK_FAIL_BELOW) {
                    (false, _) => CheckStatus::Pass,
                    (true, true) => CheckStatus::Fail,
                    (true, false) => CheckStatus::Warn,
                };
                let mut saw = match status {
                    CheckStatus::Pass => format!("{saw} (no active RDMA port registers memory here)"),
                    CheckStatus::Fail => format!("{saw}: NCCL cannot register its buffers over RDMA"),
                    _ => format!("{saw}: large jobs can fail to register their buffers"),
                };
                let status = if root && status == CheckStatus::Fail {
                    saw.push_str(
                        " (the probe ran as root, which the limit does not bind; a job run as another user is)",
                    );
                    CheckStatus::Warn
                } else {
                    status
                };
                check("memlock", status, saw, (status != CheckStatus::Pass).then_some(fix))
            }
        },
    }
}

/// GPUDirect RDMA: the peer-memory module or DMA-BUF (the report's `gdr`).
fn gdr(r: &Report, rdma: bool) -> ReadinessCheck {
    let reasons = r.gdr.reasons.join("; ");
    match r.gdr.status {
        _ if r.gpus.is_empty() || !rdma => {
            check("gdr", CheckStatus::Unknown, "no GPU with an active RDMA port to check".to_string(), None)
        }
        GdrSupport::Supported => check("gdr", CheckStatus::Pass, format!("GPUDirect RDMA: {reasons}"), None),
        GdrSupport::NotSupported => {
            // The summary already has no GPUDirect RDMA: priced against the node with it.
            let (status, cost) = escalate(CheckStatus::Warn, price_from(r, |i| i.gdr = true, |i| i.gdr = false));
            check(
                "gdr",
                status,
                format!(
                    "no GPUDirect RDMA: {reasons}; {}",
                    cost.unwrap_or_else(|| "every transfer is staged in host memory".to_string())
                ),
                Some(
                    "load nvidia_peermem (modprobe nvidia_peermem), or use a kernel and driver with DMA-BUF (Linux 5.12+, \
                 the open kernel module, NCCL 2.13+)",
                ),
            )
        }
        GdrSupport::Unknown => check("gdr", CheckStatus::Unknown, format!("GPUDirect RDMA: {reasons}"), None),
    }
}

/// The IOMMU: in translated mode every DMA between a GPU and a NIC goes through it, which NVIDIA's GPUDirect RDMA
/// documentation says to avoid ("Disable the IOMMU or set it to pass-through", GPUDirect RDMA, "Supported Systems").
fn iommu(r: &Report) -> ReadinessCheck {
    let evidence = r.environment.iommu_evidence.clone().unwrap_or_default();
    match r.environment.iommu.as_deref() {
        Some("off") | Some("passthrough") => check(
            "iommu",
            CheckStatus::Pass,
            format!("IOMMU {}: {evidence}", r.environment.iommu.as_deref().unwrap_or("")),
            None,
        ),
        Some("translated") => check(
            "iommu",
            CheckStatus::Warn,
            format!("IOMMU in translated mode: {evidence}; GPU-NIC DMA goes through it (slower, or refused)"),
            Some("boot with iommu=pt (intel_iommu=on iommu=pt, or amd_iommu=on iommu=pt), or turn it off"),
        ),
        _ => check("iommu", CheckStatus::Unknown, "the IOMMU's mode was not read".to_string(), None),
    }
}

/// PCIe links trained below their maximum: fewer lanes is a bad node (a reseat, a riser, a slot); a lower speed on
/// a GPU is often its idle power saving, so it is a warning to recheck under load.
fn pcie(id: &str, what: &str, devices: &[(String, &PcieLink)], idle_downclocks: bool) -> ReadinessCheck {
    if devices.is_empty() {
        return check(id, CheckStatus::Unknown, format!("no {what}"), None);
    }
    let mut narrow = Vec::new();
    let mut slow = Vec::new();
    let mut unread = 0;
    for (name, l) in devices {
        match (l.current_width, l.max_width, l.current_gen, l.max_gen) {
            (Some(cw), Some(mw), Some(cg), Some(mg)) => {
                if cw < mw {
                    narrow.push(format!("{name} x{cw} of x{mw}"));
                }
                if cg < mg {
                    slow.push((name.as_str(), format!("Gen{cg} of Gen{mg}")));
                }
            }
            _ => unread += 1,
        }
    }
    let n = devices.len();
    if !narrow.is_empty() {
        return check(
            id,
            CheckStatus::Fail,
            format!("PCIe link trained narrower than it can: {}", narrow.join(", ")),
            Some(
                "reseat the card or its riser, or ask the provider for another node (lspci -vv: LnkSta against LnkCap; \
                 a card in a narrower slot shows the slot's width in the bridge's LnkCap)",
            ),
        );
    }
    if !slow.is_empty() {
        let (status, fix) = if idle_downclocks {
            (
                CheckStatus::Warn,
                "GPUs lower their link speed when idle: check again under load (nvidia-smi -q -d PCIE), and reseat \
                 or replace a GPU that stays slow",
            )
        } else {
            // The card's own maximum: in a slot of an older generation it trains lower with nothing wrong.
            (
                CheckStatus::Warn,
                "compare with the slot (lspci -vv: the bridge's LnkCap above the adapter): a slot of an older \
                 generation explains it; otherwise reseat the adapter or ask for another node",
            )
        };
        // Eight GPUs idling alike read as one.
        let listed = if slow.len() == n && slow.iter().all(|(_, t)| *t == slow[0].1) {
            format!("all {n} {what}s at {}", slow[0].1)
        } else {
            slow.iter().map(|(name, t)| format!("{name} {t}")).collect::<Vec<_>>().join(", ")
        };
        return check(id, status, format!("PCIe link slower than it can: {listed}"), Some(fix));
    }
    if unread == n {
        return check(id, CheckStatus::Unknown, format!("no {what}'s PCIe link could be read"), None);
    }
    let read = n - unread;
    check(id, CheckStatus::Pass, format!("{read} {what}(s) at their full PCIe speed and width"), None)
}

/// The most checks a reader takes from a document.
pub const MAX_CHECKS: usize = 64;

/// The report's `readiness` entries through a field getter (the page's worker over `JSON.parse`): every entry
/// with a known status and text fields, at most [`MAX_CHECKS`]; others are skipped.
pub fn read_readiness(get: impl Fn(&str) -> Scalar) -> Vec<ReadinessCheck> {
    let mut out = Vec::new();
    for i in 0..MAX_CHECKS {
        let text = |k: &str| match get(&format!("readiness.{i}.{k}")) {
            Scalar::Text(t) => Some(t),
            _ => None,
        };
        let (Some(id), Some(status), Some(saw)) = (text("id"), text("status"), text("saw")) else {
            if matches!(get(&format!("readiness.{i}")), Scalar::Missing) {
                break;
            }
            continue;
        };
        let Some(status) = CheckStatus::ALL.into_iter().find(|s| s.name() == status) else { continue };
        out.push(ReadinessCheck { id, status, saw, fix: text("fix") });
    }
    out
}

impl Report {
    /// The worst status among the readiness checks (`None` without checks).
    pub fn readiness_status(&self) -> Option<CheckStatus> {
        CheckStatus::ALL.into_iter().find(|s| self.readiness.iter().any(|c| c.status == *s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{fixture, getter};

    fn status(checks: &[ReadinessCheck], id: &str) -> Vec<CheckStatus> {
        checks.iter().filter(|c| c.id == id).map(|c| c.status).collect()
    }

    #[test]
    fn the_probes_checks_are_the_cores_and_a_bad_node_fails_them() {
        for name in ["h100-ib-8x400", "h100-ib-port-down", "roce-2x200", "eth-25g", "gb200-tray", "laptop", "garbage"] {
            let r = fixture(name);
            assert_eq!(checks(&r), r.readiness, "{name}: a reader recomputes what the probe wrote");
        }
        let bad = fixture("h100-ib-port-down");
        let failed: Vec<&str> =
            bad.readiness.iter().filter(|c| c.status == CheckStatus::Fail).map(|c| c.id.as_str()).collect();
        assert_eq!(failed, ["rdma-devices", "memlock", "nccl-env", "pcie-nic"]);
        assert_eq!(bad.readiness_status(), Some(CheckStatus::Fail));
        assert!(
            bad.readiness
                .iter()
                .all(|c| c.status == CheckStatus::Pass || c.fix.is_some() || c.status == CheckStatus::Unknown)
        );
        let good = fixture("h100-ib-8x400");
        assert!(good.readiness.iter().all(|c| c.status != CheckStatus::Fail), "{:?}", good.readiness);
        // Its GPUs idle at 2.5 GT/s: a warning to recheck under load, not a failure.
        assert_eq!(status(&good.readiness, "pcie-gpu"), [CheckStatus::Warn]);
        // Issue 39: a node with no network is not ready for a multi-node job ("ready, with warnings" before).
        let laptop = fixture("laptop");
        assert_eq!(laptop.readiness_status(), Some(CheckStatus::Fail));
        assert_eq!(status(&laptop.readiness, "network"), [CheckStatus::Fail]);
        assert_eq!(status(&bad.readiness, "rdma-ports"), [CheckStatus::Warn]);
        assert_eq!(status(&fixture("eth-25g").readiness, "network"), [CheckStatus::Warn]);
    }

    #[test]
    fn the_locked_memory_limit_fails_below_what_registration_needs() {
        assert_eq!(memlock(Some("unlimited"), true, false).status, CheckStatus::Pass);
        assert_eq!(memlock(Some("65536"), true, false).status, CheckStatus::Fail);
        assert_eq!(memlock(Some("8388608"), true, false).status, CheckStatus::Fail);
        assert_eq!(memlock(Some("17179869184"), true, false).status, CheckStatus::Warn);
        assert_eq!(memlock(Some("65536"), false, false).status, CheckStatus::Pass, "nothing to register without RDMA");
        assert_eq!(memlock(Some("lots"), true, false).status, CheckStatus::Unknown);
        assert_eq!(memlock(None, true, false).status, CheckStatus::Unknown);
        let root = memlock(Some("65536"), true, true);
        assert!(root.status == CheckStatus::Warn && root.saw.contains("ran as root"), "{root:?}");
    }

    #[test]
    fn the_page_reads_the_checks_a_report_holds() {
        let r = fixture("h100-ib-port-down");
        let doc = serde_json::to_value(&r).expect("json");
        let get = getter(&doc);
        assert_eq!(read_readiness(&get), r.readiness);
        assert!(read_readiness(|_| Scalar::Missing).is_empty());
        // An entry with an unknown status or a number for text is skipped, the rest kept.
        let odd = |path: &str| match path {
            "readiness.0" | "readiness.1" => Scalar::Object,
            "readiness.0.id" => Scalar::Text("memlock".into()),
            "readiness.0.status" => Scalar::Text("catastrophic".into()),
            "readiness.0.saw" | "readiness.1.saw" => Scalar::Text("x".into()),
            "readiness.1.id" => Scalar::Text("gdr".into()),
            "readiness.1.status" => Scalar::Text("pass".into()),
            _ => Scalar::Missing,
        };
        assert_eq!(read_readiness(odd).iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["gdr"]);
    }
}
