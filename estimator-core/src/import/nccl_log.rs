//! `NCCL_DEBUG=INFO` logs: which transport NCCL chose, with which devices, and whether GPUDirect RDMA is in use.
//!
//! Lines look like `host:pid:tid [dev] NCCL INFO <message>`, as in the public logs in
//! `tests/data/tool-outputs/nccl_*` (each names the NVIDIA/nccl issue it comes from on its first line). The messages
//! read here are NCCL's own (<https://github.com/NVIDIA/nccl>: `src/transport/net_ib.cc`, a `net_ib/` directory in
//! newer releases, `src/transport/net_socket.cc`, `src/init.cc`, `src/graph/`):
//! - `NCCL version 2.18.5+cuda12.2`;
//! - `comm 0x... rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 ... - Init START` (older: `nRanks`, and `nNodes` on
//!   `Init COMPLETE` or `comm ... nRanks 16 nNodes 2 localRanks 8`);
//! - `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>`, `NET/IB : No device found.`,
//!   `NET/Socket : Using [0]ens3:172.31.12.210<0>`, `Using network IB` / `Socket` / `AWS Libfabric` (a plugin),
//!   `NET/OFI ...`, `NET/Plugin : No plugin found (libnccl-net.so)`;
//! - `Channel 01/0 : 2[c7000] -> 0[87000] [receive] via NET/IB/5/GDRDMA` (GDR), `via NET/IB/3` (no GDR),
//!   `via NET/Socket/0`, `via P2P/IPC`, `via P2P/direct pointer/read`, `via SHM/direct/direct`;
//! - `NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'` / `Enabled for HCA ...`, `GPU Direct RDMA (DMABUF)
//!   enabled for HCA ...`;
//! - `Channel 00/02 :    0   1   2 ...` (a ring) and `Trees [0] 1/-1/-1->0->-1 ...`.

use serde::{Deserialize, Serialize};

use super::strip_launcher;

/// One network device NCCL said it uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NetDevice {
    /// NCCL's index (`[0]`).
    pub index: u32,
    /// `mlx5_0:1`, or an interface name for sockets.
    pub name: String,
    /// `IB`, `RoCE`, or `socket`.
    pub link: String,
}

/// A parsed log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NcclLog {
    /// `2.18.5+cuda12.2`.
    pub version: Option<String>,
    /// Ranks (`nranks`).
    pub ranks: Option<u32>,
    /// Nodes, when NCCL printed `nNodes`.
    pub nodes: Option<u32>,
    /// Distinct hosts in the line prefixes (one node's log names only its own host).
    pub hosts: u32,
    /// Those hosts' names, in the order the log first names them (at most [`MAX_HOST_NAMES`]): what `pairs` reads a
    /// two-node run's nodes from when its rank lines do not name them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_names: Vec<String>,
    /// `ib`, `roce`, `socket`, or the plugin's name (`aws libfabric`, `ofi`); `mixed` when the processes of the log
    /// chose different ones ([`NcclLog::transports`]); `None` when the log does not say. `ib` is also NCCL's NET/IB
    /// over RoCE when no line of the log shows the devices' link layer.
    pub transport: Option<String>,
    /// The processes (`host:pid` of the line prefixes) that said which network they use, by transport
    /// (`{"ib": 8, "socket": 8}`): more than one key is a job where some ranks fell back (nccl-tests#188).
    #[serde(default)]
    pub transports: std::collections::BTreeMap<String, u32>,
    /// GPUDirect RDMA: `true` when the network channels run `/GDRDMA` or NCCL says it is enabled, `false` when
    /// they run without it or NCCL says it is disabled; `None` when unknown.
    pub gdr: Option<bool>,
    /// The devices of the `NET/IB : Using` or `NET/Socket : Using` line.
    pub net_devices: Vec<NetDevice>,
    /// Distinct network devices the channels actually go through (`via NET/IB/<n>`).
    pub nics_used: Option<u32>,
    /// Whether `NET/IB : No device found.` was printed (no usable RDMA device: the socket fallback).
    pub ib_not_found: bool,
    /// Intra-node transports seen on the channels (`P2P/IPC`, `P2P/direct pointer`, `SHM`).
    pub intra_node: Vec<String>,
    /// Ring channels NCCL printed.
    pub rings: u32,
    /// Whether tree channels were printed.
    pub trees: bool,
    /// NCCL's warnings (`NCCL WARN ...`), at most 20.
    pub warnings: Vec<String>,
}

impl NcclLog {
    /// What the log says that matters for a verdict, in words, leaving out what it does not say: `NCCL 2.21.5`,
    /// `transport ib`, `GPUDirect RDMA off`, `1 NIC in use`.
    pub fn facts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(v) = &self.version {
            parts.push(format!("NCCL {v}"));
        }
        if let Some(t) = &self.transport {
            if self.transports.len() > 1 {
                let by: Vec<String> = self.transports.iter().map(|(k, n)| format!("{k} {n}")).collect();
                parts.push(format!(
                    "transport {t} ({} processes: {})",
                    self.transports.values().sum::<u32>(),
                    by.join(", ")
                ));
            } else {
                parts.push(format!("transport {t}"));
            }
        }
        if let Some(g) = self.gdr {
            parts.push(format!("GPUDirect RDMA {}", if g { "on" } else { "off" }));
        }
        if let Some(n) = self.nics_used {
            parts.push(format!("{n} NIC{} in use", if n == 1 { "" } else { "s" }));
        }
        parts
    }
}

/// The message of an NCCL line (after `NCCL INFO `), the host of its prefix, whether it is a warning, and the
/// `host:pid` of the process that printed it.
fn message(line: &str) -> Option<(&str, Option<&str>, bool, Option<&str>)> {
    let (prefix, rest, warn) = if let Some(i) = line.find("NCCL INFO ") {
        (&line[..i], &line[i + "NCCL INFO ".len()..], false)
    } else if let Some(i) = line.find("NCCL WARN ") {
        (&line[..i], &line[i + "NCCL WARN ".len()..], true)
    } else {
        return None;
    };
    // `host:pid:tid [dev] `: the host is everything before the second-to-last colon of the first word.
    let first = prefix.split_whitespace().next().unwrap_or("");
    let mut parts = first.rsplitn(3, ':');
    let (host, process) = match (parts.next(), parts.next(), parts.next()) {
        (Some(tid), Some(_pid), Some(h)) if !h.is_empty() => (Some(h), first.get(..first.len() - tid.len() - 1)),
        _ => (None, None),
    };
    Some((rest.trim(), host, warn, process))
}

/// The number after `key ` in a message.
fn field(msg: &str, key: &str) -> Option<u32> {
    let mut it = msg.split_whitespace();
    while let Some(t) = it.next() {
        if t == key {
            return it.next().and_then(|v| v.parse().ok());
        }
    }
    None
}

/// The most host names [`NcclLog::host_names`] keeps (a log of a thousand nodes counts them all in `hosts`).
pub const MAX_HOST_NAMES: usize = 64;

/// Reads an NCCL log.
pub fn parse(text: &str) -> NcclLog {
    let text = super::strip_ansi(text);
    let mut log = NcclLog::default();
    let mut hosts: Vec<String> = Vec::new();
    let mut used: Vec<u32> = Vec::new();
    let mut net_gdr: Option<bool> = None;
    let mut said_gdr: Option<bool> = None;
    let mut rings: Vec<u32> = Vec::new();
    let mut network: Option<String> = None;
    let mut via_net_ib = false;
    // Whether `network` came from a `Using network` line (which beats what `NET/OFI` lines suggest).
    let mut network_said = false;
    // Each process's own word on its network: `Using network X`, else its `NET/IB : Using` devices' link, else
    // `NET/Socket : Using`.
    let mut per_process: std::collections::BTreeMap<String, (u8, String)> = std::collections::BTreeMap::new();
    let mut note = |process: Option<&str>, rank: u8, t: String| {
        if let Some(p) = process
            && (per_process.len() < 100_000 || per_process.contains_key(p))
        {
            let e = per_process.entry(p.to_string()).or_insert((0, String::new()));
            if rank >= e.0 {
                *e = (rank, t);
            }
        }
    };
    for raw in text.lines() {
        let line = strip_launcher(raw);
        // nccl-tests prints the version on a line of its own, without NCCL's prefix (`NCCL version 2.19.3+cuda12.3`,
        // behind a launcher's `[1,0]<stdout>:` too); NCCL's own INFO line has it after the prefix (below).
        if let Some(v) = line.strip_prefix("NCCL version ") {
            log.version = v.split_whitespace().next().map(str::to_string);
            continue;
        }
        let Some((msg, host, warn, process)) = message(line) else { continue };
        if let Some(h) = host
            && hosts.len() < 100_000
            && !hosts.iter().any(|x| x == h)
        {
            hosts.push(h.to_string());
        }
        if warn {
            if log.warnings.len() < 20 {
                log.warnings.push(msg.chars().take(300).collect());
            }
            continue;
        }
        if let Some(v) = msg.strip_prefix("NCCL version ") {
            log.version = v.split_whitespace().next().map(str::to_string);
        } else if let Some(n) = field(msg, "nranks").or_else(|| field(msg, "nRanks")) {
            log.ranks = Some(log.ranks.map_or(n, |r| r.max(n)));
            if let Some(nodes) = field(msg, "nNodes") {
                log.nodes = Some(nodes);
            }
        }
        if msg.starts_with("NET/IB : No device found") {
            log.ib_not_found = true;
        } else if let Some(list) = msg.strip_prefix("NET/IB : Using ").or_else(|| msg.strip_prefix("NET/IB: Using ")) {
            let devs = devices(list, None);
            if let Some(t) = rdma_of(&devs) {
                note(process, 1, t);
            }
            log.net_devices = devs;
        } else if let Some(list) = msg.strip_prefix("NET/Socket : Using ") {
            // NCCL may initialise its socket transport beside IB and print both lines: IB's word is stronger.
            note(process, 0, "socket".to_string());
            if log.net_devices.is_empty() || log.net_devices.iter().all(|d| d.link == "socket") {
                log.net_devices = devices(list, Some("socket"));
            }
        } else if let Some(n) = msg.strip_prefix("Using network ") {
            let n = n.trim().to_string();
            note(process, 2, transport_name(&n, &log.net_devices));
            // A socket fallback on some ranks is the finding: it is not hidden by the others' IB.
            if !network_said || n.eq_ignore_ascii_case("socket") {
                network = Some(n);
                network_said = true;
            }
        } else if msg.starts_with("NET/OFI") && network.is_none() {
            network = Some("OFI".to_string());
        }
        if msg.contains("GPU Direct RDMA Disabled") {
            said_gdr = Some(false);
        } else if msg.contains("GPU Direct RDMA Enabled") || msg.contains("GPU Direct RDMA (DMABUF) enabled") {
            said_gdr = said_gdr.or(Some(true));
        }
        if let Some(via) = msg.split(" via ").nth(1) {
            let via = via.trim();
            if let Some(rest) = via.strip_prefix("NET/") {
                // NET/IB/5/GDRDMA, NET/IB/3, NET/Socket/0, NET/AWS Libfabric/2/GDRDMA
                let parts: Vec<&str> = rest.split('/').collect();
                if let Some(n) = parts.iter().find_map(|p| p.parse::<u32>().ok())
                    && !used.contains(&n)
                    && used.len() < 1024
                {
                    used.push(n);
                }
                // Any network channel through GPUDirect RDMA means NCCL uses it.
                let gdr = parts.iter().any(|p| p.starts_with("GDRDMA"));
                net_gdr = Some(net_gdr.unwrap_or(false) || gdr);
                if network.is_none() && parts.first() == Some(&"Socket") {
                    network = Some("Socket".to_string());
                }
                via_net_ib |= parts.first() == Some(&"IB");
            } else {
                let kind = if via.starts_with("P2P/IPC") {
                    "P2P/IPC"
                } else if via.starts_with("P2P/CUMEM") {
                    "P2P/CUMEM"
                } else if via.starts_with("P2P") {
                    "P2P/direct pointer"
                } else if via.starts_with("SHM") {
                    "SHM"
                } else if via.starts_with("CollNet") {
                    "CollNet"
                } else {
                    ""
                };
                if !kind.is_empty() && !log.intra_node.iter().any(|k| k == kind) {
                    log.intra_node.push(kind.to_string());
                }
            }
        } else if let Some(rest) = msg.strip_prefix("Channel ") {
            // `Channel 00/02 :    0   1   2   3` is a ring; `Channel 00/0 : 0[0] -> 1[1] ...` has a via (above).
            if let Some((id, order)) = rest.split_once(':')
                && order.split_whitespace().all(|t| t.parse::<u32>().is_ok())
                && order.split_whitespace().count() > 1
                && let Some(ch) = id.split('/').next().and_then(|c| c.trim().parse::<u32>().ok())
                && !rings.contains(&ch)
                && rings.len() < 1024
            {
                rings.push(ch);
            }
        } else if msg.starts_with("Trees ") || msg.contains(" Trees [") {
            log.trees = true;
        }
    }
    log.nics_used = (!used.is_empty()).then(|| u32::try_from(used.len()).unwrap_or(u32::MAX));
    log.rings = u32::try_from(rings.len()).unwrap_or(u32::MAX);
    log.hosts = u32::try_from(hosts.len()).unwrap_or(u32::MAX);
    hosts.truncate(MAX_HOST_NAMES);
    log.host_names = hosts;
    // The channels are the evidence; NCCL's own "Disabled/Enabled" lines stand in when no channel line is there.
    log.gdr = match (net_gdr, said_gdr) {
        (Some(g), _) => Some(g),
        (None, s) => s,
    };
    log.transport = transport(&log, network.as_deref());
    if log.transport.is_none() && via_net_ib {
        // Channels through NET/IB, but no line that shows the devices' link layer: NCCL's IB verbs transport.
        log.transport = Some("ib".to_string());
    }
    for (_, (_, t)) in per_process {
        *log.transports.entry(t).or_insert(0) += 1;
    }
    if log.transports.len() > 1 {
        log.transport = Some("mixed".to_string());
    }
    log
}

/// `ib` or `roce` from the devices' link layers.
fn rdma_of(devs: &[NetDevice]) -> Option<String> {
    if devs.iter().any(|d| d.link == "IB") {
        Some("ib".to_string())
    } else if devs.iter().any(|d| d.link == "RoCE") {
        Some("roce".to_string())
    } else {
        None
    }
}

/// A `Using network X` name as a transport: `IB` is `ib` or `roce` by the devices seen, `Socket` is `socket`, a
/// plugin keeps its name in lower case.
fn transport_name(network: &str, devs: &[NetDevice]) -> String {
    match network.to_ascii_lowercase().as_str() {
        "ib" => rdma_of(devs).unwrap_or_else(|| "ib".to_string()),
        other => other.to_string(),
    }
}

fn transport(log: &NcclLog, network: Option<&str>) -> Option<String> {
    let rdma = rdma_of;
    match network.map(str::to_ascii_lowercase).as_deref() {
        Some("ib") => rdma(&log.net_devices).or(Some("ib".to_string())),
        Some("socket") => Some("socket".to_string()),
        Some(other) => Some(other.to_string()),
        None if log.ib_not_found || log.net_devices.iter().any(|d| d.link == "socket") => {
            if log.net_devices.iter().any(|d| d.link != "socket") {
                rdma(&log.net_devices)
            } else {
                Some("socket".to_string())
            }
        }
        None => rdma(&log.net_devices),
    }
}

/// `[0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ...` or `[0]ens3:172.31.12.210<0>`.
fn devices(list: &str, link: Option<&str>) -> Vec<NetDevice> {
    let list = list.split(';').next().unwrap_or("");
    let mut out = Vec::new();
    for t in list.split_whitespace() {
        let Some(rest) = t.strip_prefix('[') else { continue };
        let Some((idx, dev)) = rest.split_once(']') else { continue };
        let Ok(index) = idx.parse::<u32>() else { continue };
        if dev.is_empty() || out.len() >= 256 {
            continue;
        }
        let (name, kind) = match link {
            Some(l) => (dev.split(':').next().unwrap_or(dev).to_string(), l.to_string()),
            None => match dev.rsplit_once('/') {
                Some((n, k)) => (n.to_string(), k.to_string()),
                None => (dev.to_string(), "IB".to_string()),
            },
        };
        out.push(NetDevice { index, name, link: kind });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transports_and_gdr_read_from_the_lines_nccl_prints() {
        let ib = "h1:1:2 [0] NCCL INFO NCCL version 2.18.5+cuda12.2\n\
                  h1:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.0.1<0>\n\
                  h1:1:2 [0] NCCL INFO Using network IB\n\
                  h1:1:2 [0] NCCL INFO comm 0x55 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 - Init START\n\
                  h2:1:2 [0] NCCL INFO Channel 01/0 : 2[c7000] -> 0[87000] [receive] via NET/IB/1/GDRDMA\n\
                  h2:1:2 [0] NCCL INFO Channel 01/0 : 2[c7000] -> 0[87000] [send] via NET/IB/0/GDRDMA\n\
                  h1:1:2 [0] NCCL INFO Channel 00/02 :    0   1   2   3\n\
                  h1:1:2 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1";
        let l = parse(ib);
        assert_eq!(l.version.as_deref(), Some("2.18.5+cuda12.2"));
        assert_eq!((l.transport.as_deref(), l.gdr, l.ranks, l.hosts), (Some("ib"), Some(true), Some(16), 2));
        assert_eq!((l.nics_used, l.net_devices.len(), l.rings, l.trees), (Some(2), 2, 1, true));
        let roce = "h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB x<0>\n\
                    h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'";
        let l = parse(roce);
        assert_eq!((l.transport.as_deref(), l.gdr), (Some("roce"), Some(false)));
        let sock = "a:1:1 [0] NCCL INFO NET/IB : No device found.\na:1:1 [0] NCCL INFO NET/Socket : Using [0]ens3:172.31.12.210<0>";
        assert_eq!(parse(sock).transport.as_deref(), Some("socket"));
        let no_gdr = "h:1:2 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3\n\
                      h:1:2 [7] NCCL INFO Channel 00/0 : 7[7] -> 6[6] via P2P/direct pointer/read";
        let l = parse(no_gdr);
        assert_eq!((l.gdr, l.intra_node.as_slice()), (Some(false), ["P2P/direct pointer".to_string()].as_slice()));
        let ofi =
            "n:1:1 [0] NCCL INFO NET/OFI Selected Provider is cxi\nn:1:1 [0] NCCL INFO Using network AWS Libfabric";
        assert_eq!(parse(ofi).transport.as_deref(), Some("aws libfabric"));
        assert_eq!(parse("no nccl here").transport, None);
    }
}
