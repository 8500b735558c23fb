//! Judging a run's collectives: the files `tests/data/traces/generate.py` writes (a healthy run, one with a slow
//! network across nodes, four ranks with a straggler) give their verdicts, and the figures add up.

use super::*;
use crate::import::{inspector, trace};
use crate::scenario::ScenarioInput;

const D: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data");

/// 4 nodes of 8 H100, 8 x 400G InfiniBand, TP 8 (the files' job).
fn job() -> Scenario {
    Scenario::new(ScenarioInput { nodes: 4, tp: 8, ..ScenarioInput::default() }).expect("valid")
}

fn trace_calls(name: &str) -> Calls {
    let bytes = std::fs::read(format!("{D}/traces/{name}")).expect("file");
    trace::parse(&bytes).expect("reads").calls
}

fn dump(dir: &str) -> Calls {
    let mut r = inspector::InspectorReader::new();
    let mut files: Vec<_> = std::fs::read_dir(format!("{D}/inspector/{dir}")).expect("dir").flatten().collect();
    files.sort_by_key(|e| e.path());
    for f in files {
        r.add(&f.path().display().to_string(), &std::fs::read_to_string(f.path()).expect("text"));
    }
    r.finish().expect("reads").calls
}

fn verdict(c: &CollectivesCheck, label: &str) -> GroupVerdict {
    c.groups.iter().find(|g| g.label.as_deref() == Some(label)).map(|g| g.verdict).expect("the group")
}

#[test]
fn a_slow_network_is_the_cross_node_group_and_not_the_node() {
    for calls in [trace_calls("slow-network-rank0.json"), dump("slow-network")] {
        let c = judge(&job(), &calls, None);
        assert_eq!(verdict(&c, "dp"), GroupVerdict::Slow);
        assert_eq!(verdict(&c, "tp"), GroupVerdict::AsExpected);
        let dp = c.groups.iter().find(|g| g.label.as_deref() == Some("dp")).expect("dp");
        assert!(dp.crosses_network && dp.shape.nodes == 4 && dp.shape.per_node == 1, "{:?}", dp.shape);
        assert!(dp.text.contains("38% of expected"), "{}", dp.text);
        assert_eq!(c.groups[0].verdict, GroupVerdict::Slow, "slowest first");
    }
}

#[test]
fn a_healthy_run_reads_as_expected_everywhere() {
    for calls in [trace_calls("healthy-rank0.json"), dump("healthy")] {
        let c = judge(&job(), &calls, None);
        assert!(c.groups.iter().all(|g| g.verdict == GroupVerdict::AsExpected), "{:?}", c.summary);
    }
}

#[test]
fn the_figures_add_up() {
    let c = judge(&job(), &trace_calls("slow-network-rank0.json"), None);
    for g in &c.groups {
        assert_eq!(g.calls, g.bands.iter().map(|b| b.calls).sum::<usize>(), "every call in one band");
        assert_eq!(g.calls, g.sizes.iter().map(|p| p.calls).sum::<usize>(), "and in one size");
        for b in &g.bands {
            assert!(
                (b.ratio - b.measured_busbw_gbs / b.expected_busbw_gbs).abs() < 1e-12,
                "ratio = measured / expected"
            );
            assert!(b.floor_busbw_gbs <= b.expected_busbw_gbs);
        }
    }
}

#[test]
fn several_ranks_name_the_straggler_and_one_rank_cannot() {
    let mut calls = trace_calls("straggler/rank0.json");
    for r in [8, 16, 24] {
        calls.merge(trace_calls(&format!("straggler/rank{r}.json")));
    }
    assert_eq!(calls.ranks, vec![0, 8, 16, 24]);
    let c = judge(&job(), &calls, None);
    let st = c.straggler.as_ref().expect("a straggler");
    assert_eq!(st.rank, 16);
    assert!(st.share > 0.9 && st.others_wait_s > 0.0, "{st:?}");
    // Each call counts once at its shortest: the data-parallel group reads at its own speed, not the others' wait.
    assert_eq!(verdict(&c, "dp"), GroupVerdict::AsExpected, "{:?}", c.summary);
    let one = judge(&job(), &trace_calls("straggler/rank0.json"), None);
    assert!(one.straggler.is_none());
    assert!(one.limits.iter().any(|l| l.contains("one rank's")), "{:?}", one.limits);
    // A healthy run's ranks: no straggler stands out.
    let mut even = trace_calls("healthy-rank0.json");
    let mut other = trace_calls("healthy-rank0.json");
    for c in &mut other.calls {
        c.rank = Some(8);
    }
    other.ranks = vec![8];
    even.merge(other);
    let c = judge(&job(), &even, None);
    assert!(
        c.straggler.is_none() && c.summary.iter().any(|l| l.contains("none stands out as a straggler")),
        "{:?}",
        c.summary
    );
}

#[test]
fn shapes_come_from_the_source_or_the_members() {
    let c = Communicator { id: "x".into(), ranks: 4, members: vec![0, 8, 16, 24], ..Default::default() };
    assert_eq!((shape(&c, 8).nodes, shape(&c, 8).per_node, shape(&c, 8).from), (4, 1, "members"));
    let c = Communicator { id: "x".into(), ranks: 8, nodes: Some(2), ..Default::default() };
    assert_eq!((shape(&c, 8).nodes, shape(&c, 8).per_node, shape(&c, 8).from), (2, 4, "source"));
    let c = Communicator { id: "x".into(), ranks: 16, ..Default::default() };
    assert_eq!((shape(&c, 8).nodes, shape(&c, 8).from), (2, "assumed"));
    assert_eq!(shape(&c, 8).place(), "across 2 nodes (8 GPUs on each) (placement assumed: the records do not say)");
    // Without members, a group of the layout's data-parallel size is placed as the layout places it: one GPU on each
    // of the 4 nodes (TP 8), not packed into one node.
    let dp = Communicator { id: "x".into(), ranks: 4, ..Default::default() };
    let sh = shape_in(&dp, &job());
    assert_eq!((sh.nodes, sh.per_node, sh.from), (4, 1, "layout"), "{sh:?}");
    assert!(sh.known());
    // An assumed placement draws no conclusion: a slow group of unknown placement is neither across nor inside.
    let mut calls = trace_calls("slow-network-rank0.json");
    for c in &mut calls.comms {
        c.members.clear();
        c.ranks = if c.ranks == 4 { 5 } else { c.ranks };
    }
    let judged = judge(&job(), &calls, None);
    assert_eq!(judged.cross_node().count(), 0, "{:?}", judged.summary);
    assert!(judged.groups.iter().any(|g| !g.shape.known() && g.text.contains("placement assumed")));
}
