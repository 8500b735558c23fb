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

/// A fault the model prices above this slowdown of a 2-node all-reduce is a `fail`, whatever its kind: a node
/// that runs the fabric this much slower is not ready, though it starts.
pub const FAIL_SLOWDOWN: f64 = 2.0;

/// What a change to the node costs, in words and as the slowdown of a 2-node all-reduce of 1 GiB (1 when it
/// costs nothing).
pub(super) struct Priced {
    pub text: String,
    pub slowdown: f64,
}

/// The price of a change ([`Priced`]).
pub(super) fn price(r: &Report, change: impl FnOnce(&mut ScenarioInput)) -> Option<Priced> {
    price_from(r, |_| {}, change)
}

/// The price of `change` against the node with `base` applied first: a fault the summary already carries (no
/// GPUDirect RDMA) is priced against the node without it.
pub(super) fn price_from(
    r: &Report,
    base: impl FnOnce(&mut ScenarioInput),
    change: impl FnOnce(&mut ScenarioInput),
) -> Option<Priced> {
    let s = node_scenario(r)?.with(base).ok()?;
    let after = s.with(change).ok()?;
    let gib = Bytes::gib(1.0);
    let (was, now) = (collective(&s, Op::AllReduce, gib).busbw_gbs, collective(&after, Op::AllReduce, gib).busbw_gbs);
    let slowdown = if now > 0.0 { (was / now).max(1.0) } else { 1.0 };
    Some(Priced { text: cost_text(was, now), slowdown })
}

fn cost_text(was: f64, now: f64) -> String {
    if was.is_nan() || was <= 0.0 {
        "the model has no network bandwidth on this node to price it against".to_string()
    } else if now < was * 0.99 && now > 0.0 {
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
    }
}

/// A warning whose fault the model prices above [`FAIL_SLOWDOWN`] becomes a fail, and says why.
pub(super) fn escalate(status: CheckStatus, priced: Option<Priced>) -> (CheckStatus, Option<String>) {
    match priced {
        Some(p) if status == CheckStatus::Warn && p.slowdown > FAIL_SLOWDOWN => (
            CheckStatus::Fail,
            Some(format!("{}: more than {}x slower, so the node is not ready", p.text, human::num(FAIL_SLOWDOWN, 0))),
        ),
        Some(p) => (status, Some(p.text)),
        None => (status, None),
    }
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
    // NCCL reads its switches with strtoll: `1` (or `1abc`) is on; `true`, `yes` and the empty string are 0.
    let on = |v: &str| leading_integer(v) != 0;
    let sockets = |i: &mut ScenarioInput| {
        i.fabric = Fabric::Tcp;
        i.gdr = false;
    };
    let mut flag = |id: &str, status: CheckStatus, saw: String, fix: &str, priced: Option<Priced>| {
        let (status, cost) = escalate(status, priced);
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
            if rdma { price(r, sockets) } else { None },
        );
    }
    if let Some(v) = get("NCCL_NET").filter(|v| v.trim().eq_ignore_ascii_case("socket")) {
        flag(
            "nccl-env",
            if rdma { CheckStatus::Fail } else { CheckStatus::Warn },
            format!("NCCL_NET={v}: NCCL uses its socket transport, not the RDMA adapters"),
            "unset NCCL_NET, or set it to IB",
            if rdma { price(r, sockets) } else { None },
        );
    }
    if let Some(v) = get("NCCL_IB_HCA") {
        let active: Vec<(&str, u32)> = r
            .rdma_adapters
            .iter()
            .flat_map(|a| a.ports.iter().filter(|p| p.active).map(move |p| (a.name.as_str(), p.port)))
            .collect();
        let kept: Vec<String> = active
            .iter()
            .filter(|(name, port)| hca_selects(v, name, Some(*port)))
            .map(|(name, port)| format!("{name}:{port}"))
            .collect();
        if !active.is_empty() && kept.len() < active.len() {
            let n = i64::try_from(kept.len()).unwrap_or(0);
            flag(
                "nccl-env",
                if kept.is_empty() { CheckStatus::Fail } else { CheckStatus::Warn },
                format!(
                    "NCCL_IB_HCA={v} keeps {} of the {} active RDMA ports ({})",
                    kept.len(),
                    active.len(),
                    if kept.is_empty() { "none: NCCL falls back to sockets".to_string() } else { kept.join(", ") }
                ),
                "list every active port's adapter in NCCL_IB_HCA, or unset it",
                if n > 0 { price(r, |i| i.adapters_per_node = n) } else { price(r, sockets) },
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
        let up: Vec<&str> = r
            .net_interfaces
            .iter()
            .filter(|n| n.operstate.as_deref() == Some("up") && hca_selects(v, &n.name, None))
            .map(|n| n.name.as_str())
            .collect();
        let named = r
            .net_interfaces
            .iter()
            .filter(|n| n.operstate.as_deref() == Some("up") && hca_selects(v, &n.name, None))
            .filter_map(|n| n.speed_mbps)
            .max();
        if up.is_empty() && !r.net_interfaces.is_empty() {
            // NCCL bootstraps over this interface even when its data goes over RDMA.
            flag(
                "nccl-env",
                CheckStatus::Fail,
                format!(
                    "NCCL_SOCKET_IFNAME={v} matches no interface that is up: NCCL cannot start (\"no socket interface \
                     found\"), over RDMA or not"
                ),
                "name an interface that is up (ip -br link), or unset NCCL_SOCKET_IFNAME",
                None,
            );
        } else if let (false, Some((best, top)), Some(speed)) = (rdma, fastest, named)
            && speed < top
        {
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
                price(r, |i| i.link_gbps = speed as f64 / 1000.0),
            );
        }
    }
    if let Some(v) = get("NCCL_P2P_DISABLE").filter(|v| on(v)) {
        flag(
            "nccl-env",
            CheckStatus::Warn,
            format!("NCCL_P2P_DISABLE={v}: GPUs inside the node exchange data through host memory"),
            "unset NCCL_P2P_DISABLE",
            price(r, |i| i.intra_node = Some(IntraNodeLink::PcieHostStaged)),
        );
    }
    if let Some(v) = get("NCCL_NET_GDR_LEVEL").filter(|v| matches!(v.trim(), "0" | "LOC")) {
        flag(
            "nccl-env",
            if rdma { CheckStatus::Warn } else { CheckStatus::Pass },
            format!("NCCL_NET_GDR_LEVEL={v}: no GPUDirect RDMA, every transfer is staged in host memory"),
            "unset NCCL_NET_GDR_LEVEL (NCCL picks PXB or SYS by itself)",
            if rdma && r.summary.gdr == GdrSupport::Supported { price(r, |i| i.gdr = false) } else { None },
        );
    }
    if let Some(v) = get("UCX_TLS").filter(|v| rdma && !ucx_uses_rdma(v)) {
        flag(
            "nccl-env",
            CheckStatus::Warn,
            format!("UCX_TLS={v} leaves out the RDMA transports (rc, dc, ud): UCX's MPI and NCCL plugin use TCP"),
            "add rc (or unset UCX_TLS)",
            None,
        );
    }
    // `tcp;ofi_rxm` names its core provider first.
    let fi_tcp = |v: &&str| matches!(v.split(';').next().unwrap_or("").trim(), "tcp" | "sockets" | "udp");
    if let Some(v) = get("FI_PROVIDER").filter(|v| rdma && fi_tcp(v)) {
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

/// Whether an `NCCL_IB_HCA` (or `NCCL_SOCKET_IFNAME`) list selects the device `name` on `port` (`None`: any),
/// as NCCL 2.30's `matchIfList` (src/misc/utils.cc) and its callers read it: `mlx5_0,mlx5_1` (prefixes),
/// `=mlx5_0` (exact names), `^...` (all but those), each entry optionally `:port`; an empty list selects every
/// device, so `^` alone selects none.
pub fn hca_selects(list: &str, name: &str, port: Option<u32>) -> bool {
    let list = list.trim();
    let (not, list) = list.strip_prefix('^').map_or((false, list), |l| (true, l));
    let (exact, list) = list.strip_prefix('=').map_or((false, list), |l| (true, l));
    let entries: Vec<(&str, Option<u32>)> = list
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|e| match e.split_once(':') {
            Some((prefix, p)) => (prefix, p.trim().parse().ok()),
            None => (e, None),
        })
        .collect();
    let matched = entries.is_empty()
        || entries.iter().any(|(prefix, p)| {
            let named = if exact { name == *prefix } else { name.starts_with(prefix) };
            named && (p.is_none() || port.is_none() || *p == port)
        });
    matched != not
}

/// A number as C's strtoll reads it: leading blanks, a sign, then digits; no digits is 0.
fn leading_integer(v: &str) -> i64 {
    let t = v.trim_start();
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits: String = t.chars().take_while(char::is_ascii_digit).take(18).collect();
    sign * digits.parse::<i64>().unwrap_or(0)
}

/// Whether a `UCX_TLS` list leaves UCX an RDMA transport: `all`, `ib`, or an `rc`/`dc`/`ud` family (`rc_x`,
/// `dc_mlx5`, ...) named; with `^`, unless `ib` or all three families are excluded (UCX documentation, "UCX_TLS").
fn ucx_uses_rdma(list: &str) -> bool {
    let list = list.trim();
    let (not, list) = list.strip_prefix('^').map_or((false, list), |l| (true, l));
    let tokens: Vec<&str> = list.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
    let family = |f: &str| tokens.iter().any(|t| *t == f || t.starts_with(&format!("{f}_")));
    if not {
        !(tokens.contains(&"ib") || (family("rc") && family("dc") && family("ud")))
    } else {
        tokens.iter().any(|t| matches!(*t, "all" | "ib")) || family("rc") || family("dc") || family("ud")
    }
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
        assert!(
            hca.saw.contains("keeps 6 of the 8 active RDMA ports") && hca.status == CheckStatus::Warn,
            "{}",
            hca.saw
        );
        assert!(says("NCCL_P2P_DISABLE=").saw.contains("x slower"));
        assert!(says("NCCL_NET_GDR_LEVEL=").saw.contains("x slower"));
        assert_eq!(says("UCX_TLS=").status, CheckStatus::Warn);
        assert_eq!(says("FI_PROVIDER=").status, CheckStatus::Warn);
        assert!(env.iter().all(|c| !c.saw.starts_with("NCCL_IB_DISABLE")), "0 leaves IB on");
    }

    #[test]
    fn nccl_ib_hca_reads_as_nccl_does() {
        assert!(hca_selects("mlx5", "mlx5_3", Some(1)), "a prefix");
        assert!(!hca_selects("=mlx5", "mlx5_3", Some(1)), "= means exact names");
        assert!(hca_selects("=mlx5_3:1", "mlx5_3", Some(1)));
        assert!(!hca_selects("=mlx5_3:1", "mlx5_3", Some(2)), "another port of the same adapter");
        assert!(!hca_selects("^mlx5_3", "mlx5_3", Some(1)));
        assert!(hca_selects("^mlx5_3", "mlx5_0", Some(1)));
        assert!(hca_selects("mlx5_0:1,mlx5_1:1", "mlx5_1", Some(1)));
        assert!(!hca_selects("mlx5_0:1,mlx5_1:1", "mlx5_2", Some(1)));
        assert!(!hca_selects("^=mlx5_0", "mlx5_0", None));
        assert!(hca_selects("", "mlx5_0", Some(1)), "an empty list selects every device");
        assert!(!hca_selects("^", "mlx5_0", Some(1)), "so ^ alone selects none");
        assert!(hca_selects("eth", "eth0", None) && !hca_selects("eth", "ens1f0", None));
    }

    #[test]
    fn switches_read_as_strtoll_and_ucx_lists_by_transport() {
        for (v, n) in [("1", 1), (" 1abc", 1), ("true", 0), ("yes", 0), ("", 0), ("-2", -2), ("0", 0)] {
            assert_eq!(leading_integer(v), n, "{v:?}");
        }
        for (tls, rdma) in [
            ("tcp,self", false),
            ("rc_x,sm", true),
            ("dc_mlx5", true),
            ("^tcp", true),
            ("^rc,dc,ud", false),
            ("^ib", false),
            ("^rc", true),
            ("all", true),
        ] {
            assert_eq!(ucx_uses_rdma(tls), rdma, "{tls}");
        }
    }
}
