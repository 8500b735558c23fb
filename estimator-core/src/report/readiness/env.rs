//! The readiness check of the fabric's environment variables (`nccl-env`), each with what it costs in the model.

use super::{CheckStatus, ReadinessCheck, check};
use crate::catalog::IntraNodeLink;
use crate::collective::{Op, collective};
use crate::report::{GdrSupport, Report};
use crate::scenario::{Scenario, ScenarioInput};
use crate::{Bytes, Fabric, human};

/// The node as one rank of a 2-node job, for what a variable costs: its summary over default inputs.
fn node_scenario(r: &Report) -> Option<Scenario> {
    let mut input = ScenarioInput { nodes: 2, ..ScenarioInput::default() };
    r.summary.apply(&mut input);
    Scenario::new(input).ok()
}

/// What a change to the node costs: a 2-node all-reduce of 1 GiB's bus bandwidth before and after.
pub(super) fn cost(r: &Report, change: impl FnOnce(&mut ScenarioInput)) -> Option<String> {
    let s = node_scenario(r)?;
    let after = s.with(change).ok()?;
    let gib = Bytes::gib(1.0);
    let (was, now) = (collective(&s, Op::AllReduce, gib).busbw_gbs, collective(&after, Op::AllReduce, gib).busbw_gbs);
    Some(if now < was * 0.99 && now > 0.0 {
        format!(
            "in the model, a 2-node all-reduce of 1 GiB gets {} GB/s of bus bandwidth instead of {} ({} slower)",
            human::sig(now, 3),
            human::sig(was, 3),
            human::times(was / now)
        )
    } else {
        format!(
            "in the model it costs a 2-node all-reduce nothing here: another link limits it to {} GB/s",
            human::sig(was, 3)
        )
    })
}

/// The `NCCL_*`, `UCX_*` and `FI_*` variables that turn the fabric off or away from its fastest path (NCCL
/// environment variables documentation, v2.30: `NCCL_IB_DISABLE`, `NCCL_NET`, `NCCL_IB_HCA`, `NCCL_SOCKET_IFNAME`,
/// `NCCL_P2P_DISABLE`, `NCCL_NET_GDR_LEVEL`; UCX's `UCX_TLS`; libfabric's `FI_PROVIDER`).
pub(super) fn fabric_env(r: &Report, rdma: bool, out: &mut Vec<ReadinessCheck>) {
    let Some(env) = &r.environment.fabric_env else {
        out.push(check(
            "nccl-env",
            CheckStatus::Unknown,
            "the environment was not read (a captured tree without the probe's environment)".to_string(),
            None,
        ));
        return;
    };
    let before = out.len();
    let on = |v: &str| !matches!(v.trim(), "" | "0" | "false" | "no" | "off");
    let sockets = |i: &mut ScenarioInput| {
        i.fabric = Fabric::Tcp;
        i.gdr = false;
    };
    let mut flag = |id: &str, status: CheckStatus, saw: String, fix: &str, cost: Option<String>| {
        let saw = match cost {
            Some(c) => format!("{saw}; {c}"),
            None => saw,
        };
        out.push(check(id, status, saw, Some(fix)));
    };
    let get = |k: &str| env.get(k).map(String::as_str);
    if let Some(v) = get("NCCL_IB_DISABLE").filter(|v| on(v)) {
        flag(
            "nccl-env",
            if rdma { CheckStatus::Fail } else { CheckStatus::Warn },
            format!("NCCL_IB_DISABLE={v}: NCCL will not use InfiniBand or RoCE and sends over TCP sockets"),
            "unset NCCL_IB_DISABLE (launcher scripts and container images often set it)",
            if rdma { cost(r, sockets) } else { None },
        );
    }
    if let Some(v) = get("NCCL_NET").filter(|v| v.trim().eq_ignore_ascii_case("socket")) {
        flag(
            "nccl-env",
            if rdma { CheckStatus::Fail } else { CheckStatus::Warn },
            format!("NCCL_NET={v}: NCCL uses its socket transport, not the RDMA adapters"),
            "unset NCCL_NET, or set it to IB",
            if rdma { cost(r, sockets) } else { None },
        );
    }
    if let Some(v) = get("NCCL_IB_HCA") {
        let active: Vec<&str> =
            r.rdma_adapters.iter().filter(|a| a.ports.iter().any(|p| p.active)).map(|a| a.name.as_str()).collect();
        let kept: Vec<&str> = active.iter().copied().filter(|name| hca_selects(v, name)).collect();
        if !active.is_empty() && kept.len() < active.len() {
            let n = i64::try_from(kept.len()).unwrap_or(0);
            flag(
                "nccl-env",
                if kept.is_empty() { CheckStatus::Fail } else { CheckStatus::Warn },
                format!(
                    "NCCL_IB_HCA={v} keeps {} of the {} active RDMA adapters ({})",
                    kept.len(),
                    active.len(),
                    if kept.is_empty() { "none".to_string() } else { kept.join(", ") }
                ),
                "list every active adapter in NCCL_IB_HCA, or unset it",
                if n > 0 { cost(r, |i| i.adapters_per_node = n) } else { cost(r, sockets) },
            );
        }
    }
    if let Some(v) = get("NCCL_SOCKET_IFNAME") {
        let fastest = r
            .net_interfaces
            .iter()
            .filter(|n| n.operstate.as_deref() == Some("up"))
            .filter_map(|n| Some((n.name.as_str(), n.speed_mbps?)))
            .max_by_key(|(_, s)| *s);
        let named = r
            .net_interfaces
            .iter()
            .filter(|n| n.operstate.as_deref() == Some("up") && ifname_selects(v, &n.name))
            .filter_map(|n| n.speed_mbps)
            .max();
        if let (false, Some((best, top)), Some(speed)) = (rdma, fastest, named) {
            if speed < top {
                flag(
                    "nccl-env",
                    CheckStatus::Warn,
                    format!(
                        "NCCL_SOCKET_IFNAME={v} picks a {} Gb/s interface, without RDMA the data path, while {best} \
                         runs at {} Gb/s",
                        human::num(speed as f64 / 1000.0, 3),
                        human::num(top as f64 / 1000.0, 3)
                    ),
                    "name the fastest interface in NCCL_SOCKET_IFNAME",
                    cost(r, |i| i.link_gbps = speed as f64 / 1000.0),
                );
            }
        }
    }
    if let Some(v) = get("NCCL_P2P_DISABLE").filter(|v| on(v)) {
        flag(
            "nccl-env",
            CheckStatus::Warn,
            format!("NCCL_P2P_DISABLE={v}: GPUs inside the node exchange data through host memory"),
            "unset NCCL_P2P_DISABLE",
            cost(r, |i| i.intra_node = Some(IntraNodeLink::PcieHostStaged)),
        );
    }
    if let Some(v) = get("NCCL_NET_GDR_LEVEL").filter(|v| matches!(v.trim(), "0" | "LOC")) {
        flag(
            "nccl-env",
            if rdma { CheckStatus::Warn } else { CheckStatus::Pass },
            format!("NCCL_NET_GDR_LEVEL={v}: no GPUDirect RDMA, every transfer is staged in host memory"),
            "unset NCCL_NET_GDR_LEVEL (NCCL picks PXB or SYS by itself)",
            if rdma && r.summary.gdr == GdrSupport::Supported { cost(r, |i| i.gdr = false) } else { None },
        );
    }
    if let Some(v) = get("UCX_TLS").filter(|v| !v.contains("rc") && !v.contains("ib") && !v.contains("all")) {
        flag(
            "nccl-env",
            if rdma { CheckStatus::Warn } else { CheckStatus::Pass },
            format!("UCX_TLS={v} leaves out the RDMA transports (rc, dc, ud): UCX's MPI and NCCL plugin use TCP"),
            "add rc (or unset UCX_TLS)",
            None,
        );
    }
    if let Some(v) = get("FI_PROVIDER").filter(|v| matches!(v.trim(), "tcp" | "sockets" | "udp")) {
        flag(
            "nccl-env",
            CheckStatus::Warn,
            format!("FI_PROVIDER={v}: libfabric (the AWS OFI NCCL plugin on EFA) runs over TCP"),
            "unset FI_PROVIDER, or set it to efa",
            None,
        );
    }
    if out.len() == before {
        let names: Vec<&str> = env.keys().map(String::as_str).collect();
        let saw = if names.is_empty() {
            "no NCCL_, UCX_ or FI_ variable is set".to_string()
        } else {
            format!("{} set, none turns the fabric off", names.join(", "))
        };
        out.push(check("nccl-env", CheckStatus::Pass, saw, None));
    }
}

/// Whether `NCCL_IB_HCA`'s list selects the device `name`: `mlx5_0,mlx5_1`, `^mlx5_2` (all but), `=mlx5_0` (exact
/// names), each optionally `:port`; without `=`, a prefix selects (NCCL environment variables documentation).
pub fn hca_selects(list: &str, name: &str) -> bool {
    let list = list.trim();
    let (exclude, list) = list.strip_prefix('^').map_or((false, list), |l| (true, l));
    let (exact, list) = list.strip_prefix('=').map_or((false, list), |l| (true, l));
    let listed = list
        .split(',')
        .map(|e| e.split(':').next().unwrap_or("").trim())
        .filter(|e| !e.is_empty())
        .any(|e| if exact { e == name } else { name.starts_with(e) });
    listed != exclude
}

/// Whether `NCCL_SOCKET_IFNAME` selects the interface `name` (the same syntax; prefixes unless `=`).
fn ifname_selects(list: &str, name: &str) -> bool {
    hca_selects(list, name)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::{ReadinessCheck, checks};
    use super::*;
    use crate::report::testing::fixture;

    #[test]
    fn each_variable_that_turns_the_fabric_off_is_named_with_its_cost() {
        let mut r = fixture("h100-ib-8x400");
        let env = r.environment.fabric_env.get_or_insert_with(BTreeMap::new);
        for (k, v) in [
            ("NCCL_NET", "Socket"),
            ("NCCL_IB_HCA", "^mlx5_0,mlx5_1"),
            ("NCCL_P2P_DISABLE", "1"),
            ("NCCL_NET_GDR_LEVEL", "LOC"),
            ("UCX_TLS", "tcp,self"),
            ("FI_PROVIDER", "tcp"),
            ("NCCL_IB_DISABLE", "0"),
        ] {
            env.insert(k.to_string(), v.to_string());
        }
        let c = checks(&r);
        let env: Vec<&ReadinessCheck> = c.iter().filter(|c| c.id == "nccl-env").collect();
        let says = |var: &str| env.iter().find(|c| c.saw.starts_with(var)).unwrap_or_else(|| panic!("{var}: {env:?}"));
        assert_eq!(says("NCCL_NET=").status, CheckStatus::Fail);
        assert!(says("NCCL_NET=").saw.contains("x slower"), "{}", says("NCCL_NET=").saw);
        let hca = says("NCCL_IB_HCA=");
        assert!(hca.saw.contains("keeps 6 of the 8") && hca.status == CheckStatus::Warn, "{}", hca.saw);
        assert!(says("NCCL_P2P_DISABLE=").saw.contains("x slower"));
        assert!(says("NCCL_NET_GDR_LEVEL=").saw.contains("x slower"));
        assert_eq!(says("UCX_TLS=").status, CheckStatus::Warn);
        assert_eq!(says("FI_PROVIDER=").status, CheckStatus::Warn);
        assert!(env.iter().all(|c| !c.saw.starts_with("NCCL_IB_DISABLE")), "0 leaves IB on");
    }

    #[test]
    fn nccl_ib_hca_reads_as_nccl_does() {
        assert!(hca_selects("mlx5", "mlx5_3"), "a prefix");
        assert!(!hca_selects("=mlx5", "mlx5_3"), "= means exact names");
        assert!(hca_selects("=mlx5_3:1", "mlx5_3"));
        assert!(!hca_selects("^mlx5_3", "mlx5_3"));
        assert!(hca_selects("^mlx5_3", "mlx5_0"));
        assert!(hca_selects("mlx5_0:1,mlx5_1:1", "mlx5_1"));
        assert!(!hca_selects("mlx5_0:1,mlx5_1:1", "mlx5_2"));
        assert!(!hca_selects("^=mlx5_0", "mlx5_0"));
    }
}
