//! RDMA adapters (`/sys/class/infiniband`) and network interfaces (`/sys/class/net`), read from sysfs by the probe
//! itself, unprivileged. Formats from the public sources: Linux `drivers/infiniband/core/sysfs.c` (`state`,
//! `phys_state`, `rate`, `gids`, `gid_attrs`) and `Documentation/ABI/stable/sysfs-class-infiniband`, and
//! `net/core/net-sysfs.c` (`speed` in Mb/s, `-1` or EINVAL when unknown); the `ibstat` outputs in
//! `tests/data/tool-outputs` show the same ports as rdma-core's tools print them.

use std::path::PathBuf;

use estimator_core::report::{GidEntry, NetInterface, REDACTED, RdmaAdapter, RdmaPort};

use super::fs::{Need, Tree, clip};
use super::pci;

/// `"4: ACTIVE"` to `(4, "ACTIVE")`: the number before the first `": "` is authoritative.
pub fn numbered(s: &str) -> Option<(u32, String)> {
    let (n, name) = s.split_once(':')?;
    Some((n.trim().parse().ok()?, name.trim().to_string()))
}

/// `"400 Gb/sec (4X NDR)"` to 400.0; also `"2.5 Gb/sec (1X SDR)"` and old kernels' `"10 Gb/sec (4X)"`.
pub fn rate_gbps(s: &str) -> Option<f64> {
    let (num, rest) = s.split_once(' ')?;
    let rest = rest.trim_start();
    if !rest.starts_with("Gb/sec") {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    // 1600 Gb/s (8X XDR) is the fastest port a kernel can report today; far beyond is a garbled file.
    (v.is_finite() && v > 0.0 && v <= estimator_core::scenario::limits::MAX_LINK_GBPS).then_some(v)
}

/// Whether a GID (`0000:0000:0000:0000:0000:ffff:0a0c:0015`) is IPv4-mapped (`::ffff:a.b.c.d`).
fn ipv4_mapped(gid: &str) -> bool {
    let groups: Vec<&str> = gid.split(':').collect();
    groups.len() == 8 && groups[..5].iter().all(|g| g.trim_start_matches('0').is_empty()) && groups[5] == "ffff"
}

fn is_zero_gid(gid: &str) -> bool {
    gid.chars().all(|c| c == '0' || c == ':')
}

/// Reads every adapter in `/sys/class/infiniband`. An absent directory is a node without RDMA: no warning.
pub fn read_adapters(tree: &mut Tree, identifiers: bool, net_speed: &dyn Fn(&str) -> Option<f64>) -> Vec<RdmaAdapter> {
    let mut out = Vec::new();
    for name in tree.list("/sys/class/infiniband", Need::Optional) {
        let dir = PathBuf::from("/sys/class/infiniband").join(&name);
        let pci_bus_id = pci::address_of(tree, &dir.join("device"));
        let (numa_node, pcie) = match &pci_bus_id {
            Some(addr) => {
                let d = pci::read_device(tree, addr);
                (d.numa_node, d.link)
            }
            None => (None, Default::default()),
        };
        let node_type = tree.read(dir.join("node_type"), Need::Expected).map(|s| numbered(&s).map_or(s, |(_, n)| n));
        let node_guid = tree
            .read(dir.join("node_guid"), Need::Optional)
            .map(|g| if identifiers { g } else { REDACTED.to_string() });
        let netdevs = tree.list(dir.join("device/net"), Need::Optional);
        let mut ports = Vec::new();
        for port in tree.list(dir.join("ports"), Need::Expected) {
            let Ok(n) = port.parse::<u32>() else {
                tree.warn(dir.join("ports").join(&port).display().to_string(), "not a port number; skipped");
                continue;
            };
            ports.push(read_port(tree, &dir, n, identifiers, &netdevs, net_speed));
        }
        let driver = tree
            .real_path(dir.join("device/driver"))
            .and_then(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()));
        out.push(RdmaAdapter {
            name: name.clone(),
            pci_bus_id,
            driver,
            node_type,
            hca_type: tree.read(dir.join("hca_type"), Need::Optional),
            fw_ver: tree.read(dir.join("fw_ver"), Need::Optional),
            board_id: tree.read(dir.join("board_id"), Need::Optional),
            node_guid,
            numa_node,
            pcie,
            ports,
        });
    }
    out
}

fn read_port(
    tree: &mut Tree,
    dev: &std::path::Path,
    n: u32,
    identifiers: bool,
    netdevs: &[String],
    net_speed: &dyn Fn(&str) -> Option<f64>,
) -> RdmaPort {
    let dir = dev.join("ports").join(n.to_string());
    let state = tree.parse(dir.join("state"), Need::Expected, "a port state such as \"4: ACTIVE\"", numbered);
    let phys = tree.parse(dir.join("phys_state"), Need::Expected, "a physical state such as \"5: LinkUp\"", numbered);
    let link_layer = tree.read(dir.join("link_layer"), Need::Expected);
    // `rate` fails with EINVAL when no cable is plugged in: Optional keeps that quiet.
    let rate_text = tree.read(dir.join("rate"), Need::Optional);
    let mut rate = rate_text.as_deref().and_then(rate_gbps);
    if let (Some(text), None) = (&rate_text, rate) {
        tree.warn(
            dir.join("rate").display().to_string(),
            format!("expected a rate such as \"400 Gb/sec (4X NDR)\", found {:?}", clip(text)),
        );
    }
    let active = state.as_ref().is_some_and(|(s, _)| *s == 4) && phys.as_ref().is_some_and(|(p, _)| *p == 5);
    let ethernet = link_layer.as_deref() == Some("Ethernet");

    // GIDs: empty entries read as all zeros; their types file fails with EINVAL.
    let mut gids = Vec::new();
    let mut gid_netdev = None;
    for idx in tree.list(dir.join("gids"), Need::Optional) {
        let Ok(i) = idx.parse::<u32>() else { continue };
        let Some(gid) = tree.read(dir.join("gids").join(&idx), Need::Optional) else { continue };
        if is_zero_gid(&gid) {
            continue;
        }
        let gid_type = tree.read(dir.join("gid_attrs/types").join(&idx), Need::Optional);
        let netdev = tree.read(dir.join("gid_attrs/ndevs").join(&idx), Need::Optional);
        if gid_netdev.is_none() {
            gid_netdev.clone_from(&netdev);
        }
        gids.push(GidEntry {
            index: i,
            ipv4_mapped: ipv4_mapped(&gid),
            gid: if identifiers { gid } else { REDACTED.to_string() },
            gid_type,
            netdev,
        });
    }
    let roce_v2_gid_index = if ethernet {
        gids.iter().find(|g| g.gid_type.as_deref() == Some("RoCE v2") && g.ipv4_mapped).map(|g| g.index)
    } else {
        None
    };
    // The port's netdev: the GID table says it for RoCE; otherwise the device's only netdev (IPoIB, or the one
    // function of a single-port NIC); the n-th for a multi-port function.
    let netdev = gid_netdev.or_else(|| match netdevs.len() {
        0 => None,
        1 => Some(netdevs[0].clone()),
        _ => netdevs.get(n.saturating_sub(1) as usize).cloned(),
    });
    // For RoCE the Ethernet speed is the truth: mlx5 maps it onto IB speed names, and reports a default when down.
    if ethernet && let Some(speed) = netdev.as_deref().and_then(net_speed) {
        rate = Some(speed);
    }
    RdmaPort {
        port: n,
        state: state.map(|(_, s)| s),
        phys_state: phys.map(|(_, s)| s),
        link_layer,
        rate_gbps: rate,
        rate_text,
        active,
        netdev,
        roce_v2_gid_index,
        gids,
    }
}

/// Reads every interface in `/sys/class/net`.
pub fn read_interfaces(tree: &mut Tree, identifiers: bool) -> Vec<NetInterface> {
    let mut out = Vec::new();
    for name in tree.list("/sys/class/net", Need::Expected) {
        let dir = PathBuf::from("/sys/class/net").join(&name);
        // cfg80211 links a Wi-Fi netdev to its wiphy (`phy80211`); wireless extensions add `wireless/`.
        let wireless = tree.exists(dir.join("phy80211")) || tree.exists(dir.join("wireless"));
        let kind = match tree.read(dir.join("type"), Need::Expected).as_deref() {
            // Wi-Fi is ARPHRD_ETHER too, and carries no training job.
            Some("1") if wireless => "wireless".to_string(),
            Some("1") => "ethernet".to_string(),
            Some("32") => "infiniband".to_string(),
            Some("772") => "loopback".to_string(),
            Some(other) => format!("arphrd-{}", clip(other)),
            None => "unknown".to_string(),
        };
        let operstate = tree.read(dir.join("operstate"), Need::Expected);
        // `speed` is EINVAL for an interface that is down, and -1 when the driver does not know.
        let speed_mbps = tree.read(dir.join("speed"), Need::Optional).and_then(|s| match s.parse::<i64>() {
            // Some drivers print SPEED_UNKNOWN as an unsigned 4294967295; nothing real is above 3.2 Tb/s.
            Ok(v) if v > 0 && v as f64 <= estimator_core::scenario::limits::MAX_LINK_GBPS * 1000.0 => {
                u64::try_from(v).ok()
            }
            Ok(_) => None,
            Err(_) => {
                tree.warn(dir.join("speed").display().to_string(), format!("expected Mb/s, found {:?}", clip(&s)));
                None
            }
        });
        let pci_bus_id = pci::address_of(tree, &dir.join("device"));
        let rdma_device = if pci_bus_id.is_some() {
            tree.list(dir.join("device/infiniband"), Need::Optional).into_iter().next()
        } else {
            None
        };
        let driver = tree
            .real_path(dir.join("device/driver"))
            .and_then(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()));
        let mac =
            tree.read(dir.join("address"), Need::Optional).map(|m| if identifiers { m } else { REDACTED.to_string() });
        out.push(NetInterface {
            name,
            operstate,
            speed_mbps,
            kind,
            driver,
            mtu: tree.parse(dir.join("mtu"), Need::Optional, "an MTU", |s| s.parse().ok()),
            pci_bus_id,
            rdma_device,
            mac,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_values_parse_as_the_kernel_writes_them() {
        assert_eq!(numbered("4: ACTIVE"), Some((4, "ACTIVE".to_string())));
        assert_eq!(numbered("5: LinkUp"), Some((5, "LinkUp".to_string())));
        assert_eq!(numbered("ACTIVE"), None);
        for (text, gbps) in [
            ("400 Gb/sec (4X NDR)", 400.0),
            ("2.5 Gb/sec (1X SDR)", 2.5),
            ("10 Gb/sec (4X)", 10.0),
            ("100 Gb/sec (2X HDR)", 100.0),
            ("1600 Gb/sec (8X XDR)", 1600.0),
        ] {
            assert_eq!(rate_gbps(text), Some(gbps), "{text}");
        }
        assert_eq!(rate_gbps("fast"), None);
        assert_eq!(rate_gbps("99999 Gb/sec (4X NDR)"), None);
        assert_eq!(rate_gbps("NaN Gb/sec (4X)"), None);
        assert!(ipv4_mapped("0000:0000:0000:0000:0000:ffff:0a0c:0015"));
        assert!(!ipv4_mapped("fe80:0000:0000:0000:8ae9:a4ff:fe9c:7f1a"));
    }
}
