//! `probe-cli estimate collective` and `probe-cli estimate allreduce`: what nccl-tests would print for one
//! collective on this hardware, and how NCCL runs it. `allreduce` is `collective --op all_reduce` with the keys it
//! always had.

use std::fmt::Write as _;

use estimator_core::collective::{self, CollectiveEstimate, Op};
use estimator_core::{AllReduceEstimate, Bytes, Scenario, ScenarioInput, Seconds, allreduce as model_allreduce, human};
use serde::Serialize;

use crate::cli::{AllreduceArgs, CollectiveArgs};
use crate::files::load_report;
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};
use crate::scenario::{apply_cluster, profiled_for, usage};

/// The scenario and the size the flags describe, and with `--report` what it took from the report.
fn scenario(a: &AllreduceArgs, op: Op) -> Result<(Scenario, Bytes, Vec<String>, Option<String>), Failure> {
    let bytes = collective::message_bytes(a.bytes).map_err(|e| usage(&e))?;
    let summary = a.report.as_deref().map(load_report).transpose()?.map(|(head, _)| head.summary);
    let mut input = ScenarioInput::default();
    let taken = apply_cluster(&mut input, &a.cluster.hardware, a.nodes, summary.as_ref())?;
    let s = Scenario::new(input).map_err(|e| usage(&e))?;
    let (s, profile) = profiled_for(s, &a.cluster, op)?;
    for w in s.warnings() {
        diag(&format!("warning: {w}"));
    }
    Ok((s, bytes, taken, profile))
}

/// The sizes of `--table`: nccl-tests' `-b 8 -e SIZE -f 2`, which ends with the size itself.
fn table_sizes(bytes: Bytes) -> Vec<Bytes> {
    let mut sizes = collective::sweep_sizes(Bytes::new(8.0), bytes, 2.0);
    if sizes.last().is_none_or(|l| l.get() < bytes.get()) {
        sizes.push(bytes);
    }
    sizes
}

/// `estimate collective --json`.
#[derive(Serialize)]
struct CollectiveDocument<'a> {
    #[serde(flatten)]
    largest: &'a CollectiveEstimate,
    gpu: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rows: Vec<CollectiveEstimate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from_report: Option<&'a [String]>,
    warnings: &'a [String],
    /// With `--profile`: what the profile changed, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// Runs `estimate collective`.
pub fn collective(a: &CollectiveArgs) -> Result<Outcome, Failure> {
    let (s, bytes, taken, profile) = scenario(&a.common, a.op)?;
    let largest = collective::collective(&s, a.op, bytes);
    let rows = if a.common.table {
        table_sizes(bytes).into_iter().map(|b| collective::collective(&s, a.op, b)).collect()
    } else {
        Vec::new()
    };
    if a.common.cluster.json {
        print_json(&CollectiveDocument {
            largest: &largest,
            gpu: s.gpu().key,
            rows,
            from_report: a.common.report.is_some().then_some(taken.as_slice()),
            warnings: s.warnings(),
            profile: profile.as_deref(),
        })?;
        return Ok(Outcome::Clean);
    }
    let shown = if rows.is_empty() { std::slice::from_ref(&largest) } else { &rows[..] };
    print_text(&format!("{}{}", profile_line(profile.as_deref()), text(&s, a.op, &largest, shown, &taken)))?;
    Ok(Outcome::Clean)
}

/// `estimate allreduce --json`.
#[derive(Serialize)]
struct AllreduceDocument<'a> {
    #[serde(flatten)]
    largest: &'a AllReduceEstimate,
    gpu: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rows: Vec<AllReduceEstimate>,
    warnings: &'a [String],
    /// With `--profile`: what the profile changed, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// Runs `estimate allreduce`.
pub fn allreduce(a: &AllreduceArgs) -> Result<Outcome, Failure> {
    let (s, bytes, taken, profile) = scenario(a, Op::AllReduce)?;
    let largest = model_allreduce(&s, bytes);
    let rows: Vec<AllReduceEstimate> =
        if a.table { table_sizes(bytes).into_iter().map(|b| model_allreduce(&s, b)).collect() } else { Vec::new() };
    if a.cluster.json {
        print_json(&AllreduceDocument {
            largest: &largest,
            gpu: s.gpu().key,
            rows,
            warnings: s.warnings(),
            profile: profile.as_deref(),
        })?;
        return Ok(Outcome::Clean);
    }
    // The text is `estimate collective --op all_reduce`'s: the same figures (a test holds them equal).
    let full = collective::collective(&s, Op::AllReduce, bytes);
    let shown: Vec<CollectiveEstimate> = if a.table {
        table_sizes(bytes).into_iter().map(|b| collective::collective(&s, Op::AllReduce, b)).collect()
    } else {
        vec![full.clone()]
    };
    let mut t = profile_line(profile.as_deref());
    t.push_str(&text(&s, Op::AllReduce, &full, &shown, &taken));
    // Only where it says something: NCCL's choice is not already that pair, and the reading is above it.
    if let Some(tree) = largest
        .tree_2node_busbw_gbs
        .filter(|t| !matches!(largest.algorithm, "Tree" | "NVLSTree") && *t > largest.busbw_gbs * 1.01)
    {
        let _ = writeln!(
            t,
            "\nOn two nodes the best Tree/NVLSTree pair would read {} GB/s busbw at this size (it moves fewer bytes \
             over the network than a ring).",
            human::num(tree, 1)
        );
    }
    print_text(&t)?;
    Ok(Outcome::Clean)
}

/// `Profile: ...` and a blank line, or nothing.
fn profile_line(line: Option<&str>) -> String {
    line.map_or(String::new(), |l| format!("Profile: {l}.\n\n"))
}

/// The human report: the hardware, the busbw factor, NCCL's choice, the ceiling, then nccl-tests' columns.
fn text(s: &Scenario, op: Op, e: &CollectiveEstimate, rows: &[CollectiveEstimate], taken: &[String]) -> String {
    let mut t = String::new();
    for line in taken {
        let _ = writeln!(t, "from the report: {line}");
    }
    let factor = op.busbw_factor_formula();
    let _ = writeln!(
        t,
        "{} of {} on {} ({} x {} {}): busbw factor {factor} = {}",
        op.name(),
        human::binary(e.bytes),
        human::plural(u64::from(e.ranks), "rank"),
        human::plural(u64::from(s.nodes()), "node"),
        s.gpus_per_node(),
        s.gpu().name,
        human::num(op.busbw_factor(e.ranks), 3)
    );
    if e.ranks > 1 {
        let _ = writeln!(
            t,
            "NCCL picks {}/{} on {} at this size; latency {}{}",
            e.algorithm,
            e.protocol,
            human::plural(u64::from(e.channels), "channel"),
            human::secs(Seconds::from_micros(e.latency_us)),
            if e.latency_bound { " (latency-bound: most of the time)" } else { "" }
        );
        let _ = writeln!(
            t,
            "ceiling: {} GB/s busbw at large sizes, limited by {}",
            human::num(e.peak_busbw_gbs, 1),
            e.bottleneck.describe()
        );
    }
    // The columns of nccl-tests' *_perf, with its decimals, so the two read side by side.
    let _ = writeln!(
        t,
        "\n  {:>14}  {:>12}  {:>10}  {:>10}  {:>9}  {:>6}",
        "size (B)", "time (us)", "algbw", "busbw", "algorithm", "proto"
    );
    for r in rows {
        let _ = writeln!(
            t,
            "  {:>14}  {:>12}  {:>10}  {:>10}  {:>9}  {:>6}",
            human::fixed(r.bytes.get(), 0),
            human::fixed(r.time_us, 1),
            human::fixed(r.algbw_gbs, 2),
            human::fixed(r.busbw_gbs, 2),
            r.algorithm,
            r.protocol
        );
    }
    t
}
