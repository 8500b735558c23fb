//! `ibstat` (infiniband-diags) and `ibv_devinfo` (libibverbs' example, plain and `-v`): adapters and their ports.
//! Formats: rdma-core's `infiniband-diags/ibstat.c` and `libibverbs/examples/devinfo.c`
//! (<https://github.com/linux-rdma/rdma-core>), and the public outputs in `tests/data/tool-outputs/ibstat_*` and
//! `ibv_devinfo*`, each with the URL it was taken from on its first line.

use serde::{Deserialize, Serialize};

use super::{leading_number, strip_launcher};

/// One port.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IbPort {
    /// Port number.
    pub port: u32,
    /// `Active`, `Down`, `PORT_ACTIVE`, ... as printed, without the `(4)`.
    pub state: Option<String>,
    /// `LinkUp`, `Disabled`, `LINK_UP`, ...
    pub physical_state: Option<String>,
    /// Active and linked.
    pub active: bool,
    /// Line rate in Gb/s (`Rate: 200`; or `active_width` x `active_speed` from `ibv_devinfo -v`).
    pub rate_gbps: Option<f64>,
    /// `InfiniBand` or `Ethernet`.
    pub link_layer: Option<String>,
    /// Populated GIDs (`ibv_devinfo -v`), with their type where printed (`RoCE v2`).
    pub gids: u32,
    /// Whether a RoCE v2 GID is listed.
    pub roce_v2: bool,
}

/// One adapter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IbAdapter {
    /// `mlx5_0`.
    pub name: String,
    /// `MT4129` (ibstat's CA type), or `vendor_part_id` from ibv_devinfo.
    pub model: Option<String>,
    /// Firmware version.
    pub firmware: Option<String>,
    /// Ports, in order.
    pub ports: Vec<IbPort>,
}

fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.strip_prefix(key).map(|v| v.trim_start_matches(':').trim())
}

/// `PORT_ACTIVE (4)` to `PORT_ACTIVE`.
fn word(v: &str) -> String {
    v.split(" (").next().unwrap_or(v).trim().to_string()
}

fn is_active(state: Option<&str>, phys: Option<&str>) -> bool {
    let up = |s: Option<&str>, words: &[&str]| s.is_some_and(|s| words.iter().any(|w| s.eq_ignore_ascii_case(w)));
    up(state, &["Active", "PORT_ACTIVE"]) && (phys.is_none() || up(phys, &["LinkUp", "LINK_UP"]))
}

/// The ports of an adapters' listing that are not active, as `mlx5_3 port 1`.
pub fn down_ports(adapters: &[IbAdapter]) -> Vec<String> {
    adapters
        .iter()
        .flat_map(|a| a.ports.iter().filter(|p| !p.active).map(move |p| format!("{} port {}", a.name, p.port)))
        .collect()
}

/// The adapters that carry a GPU node's traffic, from an adapters' listing: the active ports at the highest line
/// rate (slower ones carry storage or management), how many, their rate in Gb/s, and RoCE when their link layer is
/// Ethernet, else InfiniBand. `None` when no active port states a rate.
pub fn gpu_ports(adapters: &[IbAdapter]) -> Option<(u32, f64, crate::fabric::Fabric)> {
    let active: Vec<&IbPort> = adapters.iter().flat_map(|a| a.ports.iter()).filter(|p| p.active).collect();
    let best = active.iter().filter_map(|p| p.rate_gbps).fold(0.0_f64, f64::max);
    let fast: Vec<&&IbPort> = active.iter().filter(|p| p.rate_gbps == Some(best)).collect();
    if fast.is_empty() || best <= 0.0 {
        return None;
    }
    let ethernet = fast.iter().any(|p| p.link_layer.as_deref().is_some_and(|l| l.eq_ignore_ascii_case("ethernet")));
    let fabric = if ethernet { crate::fabric::Fabric::Roce } else { crate::fabric::Fabric::Infiniband };
    Some((u32::try_from(fast.len()).unwrap_or(u32::MAX), best, fabric))
}

const MAX_ITEMS: usize = 4096;

/// Reads `ibstat` output.
pub fn parse_ibstat(text: &str) -> Vec<IbAdapter> {
    let text = super::strip_ansi(text);
    let mut out: Vec<IbAdapter> = Vec::new();
    for raw in text.lines() {
        let line = strip_launcher(raw).trim();
        if let Some(rest) = line.strip_prefix("CA '") {
            if out.len() < MAX_ITEMS {
                out.push(IbAdapter { name: rest.trim_end_matches('\'').to_string(), ..Default::default() });
            }
            continue;
        }
        let Some(ca) = out.last_mut() else { continue };
        if let Some(v) = value(line, "CA type") {
            ca.model = Some(v.to_string());
        } else if let Some(v) = value(line, "Firmware version") {
            ca.firmware = Some(v.to_string());
        } else if let Some(n) =
            line.strip_prefix("Port ").and_then(|r| r.strip_suffix(':')).and_then(|n| n.parse().ok())
        {
            if ca.ports.len() < MAX_ITEMS {
                ca.ports.push(IbPort { port: n, ..Default::default() });
            }
        } else if let Some(p) = ca.ports.last_mut() {
            if let Some(v) = value(line, "State") {
                p.state = Some(v.to_string());
            } else if let Some(v) = value(line, "Physical state") {
                p.physical_state = Some(v.to_string());
            } else if let Some(v) = value(line, "Rate") {
                // `Rate: 2.5` and `Rate: 40 (FDR10)` are printed as such.
                p.rate_gbps = leading_number(v);
            } else if let Some(v) = value(line, "Link layer") {
                p.link_layer = Some(v.to_string());
            }
            p.active = is_active(p.state.as_deref(), p.physical_state.as_deref());
        }
    }
    out
}

/// Lanes of `active_width: 4X (2)`.
fn width(v: &str) -> Option<f64> {
    leading_number(v)
}

/// Reads `ibv_devinfo` or `ibv_devinfo -v` output.
pub fn parse_ibv_devinfo(text: &str) -> Vec<IbAdapter> {
    let text = super::strip_ansi(text);
    let mut out: Vec<IbAdapter> = Vec::new();
    let mut lanes: Option<f64> = None;
    let mut speed: Option<f64> = None;
    let finish = |p: &mut IbPort, lanes: Option<f64>, speed: Option<f64>| {
        if let (Some(l), Some(s)) = (lanes, speed) {
            p.rate_gbps = Some(l * s);
        }
    };
    for raw in text.lines() {
        let line = strip_launcher(raw).trim();
        if let Some(v) = value(line, "hca_id") {
            if let Some(p) = out.last_mut().and_then(|c| c.ports.last_mut()) {
                finish(p, lanes, speed);
            }
            (lanes, speed) = (None, None);
            if out.len() < MAX_ITEMS {
                out.push(IbAdapter { name: v.to_string(), ..Default::default() });
            }
            continue;
        }
        let Some(ca) = out.last_mut() else { continue };
        if let Some(v) = value(line, "fw_ver") {
            ca.firmware = Some(v.to_string()).filter(|f| !f.is_empty());
        } else if let Some(v) = value(line, "vendor_part_id") {
            ca.model = Some(v.to_string());
        } else if let Some(n) = value(line, "port").and_then(|n| n.parse().ok()) {
            if let Some(p) = ca.ports.last_mut() {
                finish(p, lanes, speed);
            }
            (lanes, speed) = (None, None);
            if ca.ports.len() < MAX_ITEMS {
                ca.ports.push(IbPort { port: n, ..Default::default() });
            }
        } else if let Some(p) = ca.ports.last_mut() {
            if let Some(v) = value(line, "state") {
                p.state = Some(word(v));
            } else if let Some(v) = value(line, "phys_state") {
                p.physical_state = Some(word(v));
            } else if let Some(v) = value(line, "link_layer") {
                p.link_layer = Some(v.to_string());
            } else if let Some(v) = value(line, "active_width") {
                lanes = width(v);
            } else if let Some(v) = value(line, "active_speed") {
                // `100.0 Gbps (128)`; old libibverbs printed `25.0 Gbps (32)` too.
                speed = leading_number(v);
            } else if line.starts_with("GID[") {
                p.gids = p.gids.saturating_add(1);
                p.roce_v2 |= line.ends_with("RoCE v2");
            }
            p.active = is_active(p.state.as_deref(), p.physical_state.as_deref());
        }
    }
    if let Some(p) = out.last_mut().and_then(|c| c.ports.last_mut()) {
        finish(p, lanes, speed);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_active_ports_carry_the_gpus_and_a_down_one_is_named() {
        let port = |n: u32, active: bool, rate: f64, layer: &str| IbPort {
            port: n,
            active,
            rate_gbps: Some(rate),
            link_layer: Some(layer.to_string()),
            ..IbPort::default()
        };
        let card = |name: &str, p: IbPort| IbAdapter { name: name.to_string(), ports: vec![p], ..IbAdapter::default() };
        let a = [
            card("mlx5_0", port(1, true, 400.0, "InfiniBand")),
            card("mlx5_1", port(1, true, 400.0, "InfiniBand")),
            card("mlx5_2", port(1, false, 400.0, "InfiniBand")),
            card("mlx5_bond", port(1, true, 25.0, "Ethernet")),
        ];
        assert_eq!(gpu_ports(&a), Some((2, 400.0, crate::fabric::Fabric::Infiniband)));
        assert_eq!(down_ports(&a), ["mlx5_2 port 1"]);
        assert_eq!(gpu_ports(&a[2..3]), None, "no active port");
    }

    #[test]
    fn ibstat_and_devinfo_read_ports() {
        let ibstat = "CA 'mlx5_0'\n\tCA type: MT4129\n\tFirmware version: 28.39.1002\n\tPort 1:\n\t\tState: Active\n\
                      \t\tPhysical state: LinkUp\n\t\tRate: 200\n\t\tLink layer: Ethernet\n";
        let a = parse_ibstat(ibstat);
        assert_eq!(
            (a[0].model.as_deref(), a[0].ports[0].rate_gbps, a[0].ports[0].active),
            (Some("MT4129"), Some(200.0), true)
        );
        let dev = "hca_id: mlx5_2\n\tfw_ver: 28.39.2048\n\tvendor_part_id: 4129\n\t\tport:\t1\n\t\t\tstate:\tPORT_ACTIVE (4)\n\
                   \t\t\tactive_width:\t4X (2)\n\t\t\tactive_speed:\t100.0 Gbps (128)\n\t\t\tphys_state:\tLINK_UP (5)\n\
                   \t\t\tlink_layer:\tEthernet\n\t\t\tGID[  3]:\t::ffff:10.0.0.1, RoCE v2\n";
        let a = parse_ibv_devinfo(dev);
        let p = &a[0].ports[0];
        assert_eq!((p.rate_gbps, p.active, p.roce_v2, p.gids), (Some(400.0), true, true, 1));
        assert_eq!(p.state.as_deref(), Some("PORT_ACTIVE"));
    }
}
