use super::*;
use crate::ScenarioInput;
use crate::report::testing::fixture;

fn node() -> Scenario {
    Scenario::new(ScenarioInput::default()).expect("valid")
}

fn input<'a>(d: Detected, s: &'a Scenario, hosts: &[&str]) -> RecipeInput<'a> {
    RecipeInput {
        detected: d,
        scenario: s,
        hosts: hosts.iter().map(|h| h.to_string()).collect(),
        nccl_version: None,
        launchers: vec![Launcher::Mpirun, Launcher::Srun],
    }
}

fn value<'a>(r: &'a Recipe, name: &str) -> Option<&'a str> {
    r.env.iter().find(|v| v.name == name).map(|v| v.value.as_str())
}

#[test]
fn infiniband_pins_the_active_ports_by_exact_name() {
    let d = detect(&fixture("h100-ib-8x400"));
    assert_eq!(d.fabric, Some(RecipeFabric::Infiniband));
    assert_eq!(d.hcas.len(), 8);
    let s = node();
    let r = recipe(&input(d, &s, &[]));
    let hca = value(&r, "NCCL_IB_HCA").expect("set");
    assert!(hca.starts_with("=mlx5_0:1,") && hca.split(',').count() == 8, "{hca}");
    assert!(value(&r, "NCCL_IB_GID_INDEX").is_none(), "InfiniBand has no GID index to pick");
    // 4 collectives x (one node, two nodes) x 2 launchers, no pairs without hosts.
    assert_eq!(r.commands.len(), 16);
    assert!(r.env.iter().all(|v| !v.why.is_empty() && !v.source.is_empty()));
}

#[test]
fn a_port_that_is_down_is_left_out() {
    let d = detect(&fixture("h100-ib-port-down"));
    assert_eq!(d.hcas.len(), 7);
    assert!(!d.hcas.iter().any(|h| h.starts_with("mlx5_3:")), "{:?}", d.hcas);
}

#[test]
fn roce_gets_its_gid_index_and_a_bootstrap_interface() {
    let d = detect(&fixture("roce-2x200"));
    assert_eq!(d.fabric, Some(RecipeFabric::Roce));
    assert_eq!(d.hcas.len(), 2);
    assert!(d.gid_index.is_some());
    assert!(d.socket_ifname.is_some());
}

#[test]
fn sockets_use_the_fastest_interfaces() {
    let d = detect(&fixture("eth-25g"));
    assert_eq!(d.fabric, Some(RecipeFabric::Socket));
    assert_eq!(d.socket_ifname.as_deref(), Some("ens1f0,ens1f1"), "not the 1 GbE management port");
}

#[test]
fn a_laptop_gets_one_node_runs_only() {
    let d = detect(&fixture("laptop"));
    let s = node();
    let r = recipe(&input(d, &s, &["a", "b"]));
    assert!(r.commands.iter().all(|c| c.scope == Scope::OneNode), "{:?}", r.commands);
    assert!(r.notes.iter().any(|n| n.contains("only the one-node runs")));
}

#[test]
fn hosts_make_pairwise_rounds_with_one_output_per_pair() {
    let d = detect(&fixture("h100-ib-8x400"));
    let s = node();
    let hosts = ["n1", "n2", "n3", "n4"];
    let r = recipe(&RecipeInput { launchers: vec![Launcher::Mpirun], ..input(d, &s, &hosts) });
    assert_eq!(r.pair_rounds.len(), 2);
    let pairs: Vec<&TestCommand> = r.commands.iter().filter(|c| c.scope == Scope::Pair).collect();
    assert_eq!(pairs.len(), 4);
    assert!(pairs[0].line.contains("-H n1:8,n2:8") && pairs[0].line.ends_with("> pairs/n1_n2.txt 2>&1 &"));
    let two = r.commands.iter().find(|c| c.scope == Scope::TwoNodes).expect("two-node runs");
    assert!(two.line.contains("-np 16 -H n1:8,n2:8"), "{}", two.line);
}

#[test]
fn values_are_single_shell_words() {
    assert_eq!(shell_word("=mlx5_0:1"), "'=mlx5_0:1'");
    assert_eq!(shell_word("/opt/x:$LD_LIBRARY_PATH"), "'/opt/x:'\"$LD_LIBRARY_PATH\"");
    assert_eq!(shell_word("a'b$(rm)"), "'a'\\''b$(rm)'");
    assert_eq!(shell_word(""), "''");
}

#[test]
fn the_script_has_every_variable_with_why_and_source() {
    let d = detect(&fixture("roce-2x200"));
    let s = node();
    let r = recipe(&input(d, &s, &[]));
    let t = script(&r);
    for v in &r.env {
        assert!(t.contains(&format!("export {}=", v.name)), "{}", v.name);
        assert!(t.contains(&v.source), "{}", v.source);
    }
    assert!(t.starts_with("#!/usr/bin/env bash\n"));
    assert!(t.contains("Run one set, not both"));
}
