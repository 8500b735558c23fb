use super::*;
use crate::ScenarioInput;
use crate::import::nccl_tests::NcclTestsRow;

/// Two nodes of 8 H100 with 8 x 400 Gb/s InfiniBand.
fn two_nodes() -> Scenario {
    Scenario::new(ScenarioInput::default()).expect("valid")
}

/// An all_reduce_perf run on 16 ranks at 8 GiB reading `share` of what the model expects.
fn run_at(s: &Scenario, share: f64) -> NcclTestsRun {
    let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
    let probe = NcclTestsRun {
        test: Some("all_reduce_perf".into()),
        ranks: Some(16),
        rows: vec![NcclTestsRow { size_bytes: size, busbw_gbs: 1.0, algbw_gbs: 1.0 / 1.875, ..Default::default() }],
        ..Default::default()
    };
    // The ratio is taken to the nearer of NCCL's two ways on several nodes: 1 GB/s reads 1 / that.
    let low = 1.0 / health::large_check(s, &probe).expect("judged").1.ratio;
    let busbw = low * share;
    NcclTestsRun {
        rows: vec![NcclTestsRow {
            size_bytes: size,
            busbw_gbs: busbw,
            algbw_gbs: busbw / 1.875,
            time_us: size / (busbw / 1.875) / 1e3,
            ..Default::default()
        }],
        ..probe
    }
}

/// 16 nodes in 16 pairs: two rounds of perfect matchings (i with i+1, then i with i+8), so each node meets two
/// partners. `bad` nodes bring their pairs to half the model.
fn round(s: &Scenario, bad: &[usize], wobble: bool) -> (Vec<String>, Vec<[String; 2]>, Vec<NcclTestsRun>) {
    let name = |i: usize| format!("node{:02}", i + 1);
    let mut hosts = Vec::new();
    for i in (0..16).step_by(2) {
        hosts.push([name(i), name(i + 1)]);
    }
    for i in 0..8 {
        hosts.push([name(i), name(i + 8)]);
    }
    let mut runs = Vec::new();
    let mut files = Vec::new();
    for (k, h) in hosts.iter().enumerate() {
        let is_bad = bad.iter().any(|b| h.contains(&name(*b)));
        let share = if is_bad {
            0.5
        } else if wobble {
            0.9 + 0.01 * (k % 7) as f64
        } else {
            0.95
        };
        runs.push(run_at(s, share));
        files.push(format!("{}_{}.txt", h[0], h[1]));
    }
    (files, hosts, runs)
}

fn judge_round(s: &Scenario, bad: &[usize]) -> Pairs {
    let (files, hosts, runs) = round(s, bad, true);
    let inputs: Vec<PairInput<'_>> = files
        .iter()
        .zip(&hosts)
        .zip(&runs)
        .map(|((f, h), r)| PairInput { file: f.clone(), hosts: h.clone(), hosts_from: HostsFrom::FileName, run: r })
        .collect();
    let (p, refused) = judge(s, &inputs);
    assert!(refused.is_empty(), "{refused:?}");
    p
}

fn names(p: &Pairs) -> Vec<(&str, Certainty)> {
    p.suspects.iter().map(|s| (s.node.as_str(), s.certainty)).collect()
}

#[test]
fn one_bad_node_is_named_and_confirmed() {
    let s = two_nodes();
    let p = judge_round(&s, &[6]);
    assert_eq!(names(&p), vec![("node07", Certainty::Confirmed)]);
    assert_eq!(p.reference, Reference::Model);
    assert!(p.next_round.is_empty(), "{:?}", p.next_round);
    assert!(p.unexplained.is_empty());
    assert_eq!(p.pairs.iter().filter(|x| x.slow).count(), 2);
}

#[test]
fn two_bad_nodes_are_both_named() {
    let s = two_nodes();
    let p = judge_round(&s, &[2, 12]);
    assert_eq!(names(&p), vec![("node03", Certainty::Confirmed), ("node13", Certainty::Confirmed)]);
}

#[test]
fn two_bad_nodes_the_round_cannot_tell_apart_get_a_next_round() {
    // node03 and node12 share both partners (node04 and node11): {node03, node12} and {node04, node11} explain
    // the same four slow pairs.
    let s = two_nodes();
    let p = judge_round(&s, &[2, 11]);
    let mut n: Vec<(&str, Certainty)> = names(&p);
    n.sort();
    let possible = Certainty::Possible;
    assert_eq!(n, vec![("node03", possible), ("node04", possible), ("node11", possible), ("node12", possible)]);
    assert_eq!(p.next_round.len(), 4, "{:?}", p.next_round);
    let mut seen = std::collections::BTreeSet::new();
    for x in &p.next_round {
        assert!(p.nodes.iter().any(|n| n.node == x.hosts[1] && n.standing == "cleared"), "{x:?}");
        assert!(seen.insert(x.hosts[0].clone()) && seen.insert(x.hosts[1].clone()), "no node twice: {x:?}");
    }
}

#[test]
fn no_bad_node_names_none() {
    let s = two_nodes();
    let p = judge_round(&s, &[]);
    assert!(p.suspects.is_empty() && p.next_round.is_empty() && p.unexplained.is_empty());
    assert!(p.findings.iter().any(|f| f.starts_with("No pair is slow")), "{:?}", p.findings);
}

#[test]
fn a_fabric_slow_everywhere_is_judged_against_its_median_pair() {
    let s = two_nodes();
    let (files, hosts, _) = round(&s, &[], false);
    let runs: Vec<NcclTestsRun> =
        (0..16).map(|k| run_at(&s, if hosts[k].contains(&"node05".to_string()) { 0.2 } else { 0.5 })).collect();
    let inputs: Vec<PairInput<'_>> = (0..16)
        .map(|k| PairInput {
            file: files[k].clone(),
            hosts: hosts[k].clone(),
            hosts_from: HostsFrom::FileName,
            run: &runs[k],
        })
        .collect();
    let (p, _) = judge(&s, &inputs);
    assert_eq!(p.reference, Reference::MedianPair);
    assert!((p.median_model_ratio - 0.5).abs() < 1e-9);
    assert_eq!(names(&p), vec![("node05", Certainty::Confirmed)]);
    assert!(p.findings[0].contains("whole fabric"), "{:?}", p.findings);
}

#[test]
fn a_suspect_seen_once_gets_a_pair_with_a_cleared_node() {
    let s = two_nodes();
    // node01's pairs: node02 and node09, both slow; drop the second, so one witness.
    let (files, hosts, runs) = round(&s, &[0], true);
    let keep: Vec<usize> = (0..16).filter(|k| hosts[*k] != ["node01".to_string(), "node09".to_string()]).collect();
    let inputs: Vec<PairInput<'_>> = keep
        .iter()
        .map(|&k| PairInput {
            file: files[k].clone(),
            hosts: hosts[k].clone(),
            hosts_from: HostsFrom::FileName,
            run: &runs[k],
        })
        .collect();
    let (p, _) = judge(&s, &inputs);
    assert_eq!(names(&p), vec![("node01", Certainty::Likely)]);
    assert_eq!(p.next_round.len(), 1);
    let next = &p.next_round[0];
    assert_eq!(next.hosts[0], "node01");
    assert!(p.nodes.iter().any(|n| n.node == next.hosts[1] && n.standing == "cleared"));
    assert_ne!(next.hosts[1], "node02", "a partner it has met tells nothing new");
}

#[test]
fn a_slow_pair_of_two_cleared_nodes_is_run_again() {
    let s = two_nodes();
    let (files, hosts, mut runs) = round(&s, &[], true);
    runs[0] = run_at(&s, 0.4);
    let inputs: Vec<PairInput<'_>> = (0..16)
        .map(|k| PairInput {
            file: files[k].clone(),
            hosts: hosts[k].clone(),
            hosts_from: HostsFrom::FileName,
            run: &runs[k],
        })
        .collect();
    let (p, _) = judge(&s, &inputs);
    assert!(p.suspects.is_empty(), "{:?}", p.suspects);
    assert_eq!(p.unexplained, vec![files[0].clone()]);
    assert_eq!(p.next_round.len(), 1);
    assert!(p.next_round[0].why.starts_with("again"));
}

#[test]
fn runs_that_cannot_be_judged_are_refused_with_a_reason() {
    let s = two_nodes();
    let eight = NcclTestsRun { ranks: Some(8), ..run_at(&s, 1.0) };
    let empty = NcclTestsRun::default();
    let same = run_at(&s, 1.0);
    let inputs = [
        PairInput {
            file: "a_b.txt".into(),
            hosts: ["a".into(), "b".into()],
            hosts_from: HostsFrom::FileName,
            run: &eight,
        },
        PairInput {
            file: "c_d.txt".into(),
            hosts: ["c".into(), "d".into()],
            hosts_from: HostsFrom::FileName,
            run: &empty,
        },
        PairInput {
            file: "e_e.txt".into(),
            hosts: ["e".into(), "e".into()],
            hosts_from: HostsFrom::FileName,
            run: &same,
        },
    ];
    let (p, refused) = judge(&s, &inputs);
    assert!(p.pairs.is_empty());
    let reasons: Vec<&str> = refused.iter().map(|r| r.reason.as_str()).collect();
    assert!(reasons[0].contains("8 ranks") && reasons[0].contains("16"), "{reasons:?}");
    assert!(reasons[1].contains("nothing to judge"), "{reasons:?}");
    assert!(reasons[2].contains("two nodes"), "{reasons:?}");
}

#[test]
fn one_bad_node_in_half_the_pairs_is_still_found() {
    // A chain of four nodes, node02 bad: two of three pairs are slow, so the median pair is slow too; each node's
    // best pair is not.
    let s = two_nodes();
    let hosts = [["node01", "node02"], ["node02", "node03"], ["node03", "node04"]];
    let runs: Vec<NcclTestsRun> = [0.55, 0.55, 0.95].iter().map(|&r| run_at(&s, r)).collect();
    let inputs: Vec<PairInput<'_>> = hosts
        .iter()
        .zip(&runs)
        .map(|(h, r)| PairInput {
            file: format!("{}_{}.txt", h[0], h[1]),
            hosts: [h[0].to_string(), h[1].to_string()],
            hosts_from: HostsFrom::FileName,
            run: r,
        })
        .collect();
    let (p, _) = judge(&s, &inputs);
    assert_eq!(p.reference, Reference::Model);
    assert_eq!(p.suspects[0].node, "node02");
    assert_eq!(p.suspects[0].certainty, Certainty::Likely);
    assert!(p.next_round.iter().any(|x| x.hosts[0] == "node02"), "{:?}", p.next_round);
}
