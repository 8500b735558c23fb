//! `probe-cli estimate step` and `probe-cli estimate allreduce`: flags to a scenario, the model, text or JSON out.

use std::fmt::Write as _;

use estimator_core::collective::{bus_bandwidth, nccl_busbw_factor};
use estimator_core::scenario::{DEFAULT_MFU, DEFAULT_TOKENS_PER_STEP};
use estimator_core::{
    AllReduceEstimate, Bytes, Comparison, ComputeInput, Estimate, Field, Scenario, ScenarioInput, Seconds, SweepPoint,
    allreduce as model_allreduce, compare, estimate, sweep_line_rate, sweep_nodes,
};
use serde::Serialize;

use crate::cli::{AllreduceArgs, CatalogArgs, StepArgs};
use crate::files::load_report;
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};
use crate::scenario::{apply_cluster, flag, usage};

/// The scenario `estimate step` describes, and with `--report` what it took from the report (one line each).
fn step_scenario(a: &StepArgs) -> Result<(Scenario, Vec<String>), Failure> {
    let mut input = ScenarioInput {
        params: a.params,
        dtype: a.dtype,
        sync: a.sync,
        grad_accum_steps: a.grad_accum_steps,
        bucket_bytes: a.bucket_bytes,
        activation_bytes_per_gpu: a.activation_bytes_per_gpu,
        overlap: a.overlap,
        ring_factor: a.ring_factor,
        target_exposed_share: a.target_exposed_share,
        compute: match (a.compute_ms, a.tokens_per_step, a.mfu) {
            (Some(ms), _, _) => ComputeInput::Given { ms },
            (None, tokens, mfu) => ComputeInput::Tokens {
                tokens_per_step: tokens.unwrap_or(DEFAULT_TOKENS_PER_STEP),
                mfu: mfu.unwrap_or(DEFAULT_MFU),
            },
        },
        ..ScenarioInput::default()
    };
    let summary = a.report.as_deref().map(load_report).transpose()?.map(|(head, _)| head.summary);
    let taken = apply_cluster(&mut input, &a.cluster, a.nodes, summary.as_ref())?;
    let s = Scenario::new(input).map_err(|e| usage(&e))?;
    Ok((s, taken))
}

/// `estimate step --json`: the estimate, flat, plus the inputs it used and any sweeps.
#[derive(Serialize)]
struct StepDocument<'a> {
    #[serde(flatten)]
    estimate: &'a Estimate,
    input: &'a ScenarioInput,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep_nodes: Option<Vec<SweepPoint>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep_link_gbps: Option<Vec<SweepPoint>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vs: Option<VsDocument<'a>>,
    /// With `--report`: what the scenario took from the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    from_report: Option<&'a [String]>,
}

/// Scenario B of `--vs-*` and how it compares with A.
#[derive(Serialize)]
struct VsDocument<'a> {
    input: &'a ScenarioInput,
    #[serde(flatten)]
    comparison: &'a Comparison,
}

/// Scenario B: A with the `--vs-*` flags applied, if any was given.
fn vs_scenario(a: &StepArgs, s: &Scenario) -> Result<Option<Scenario>, Failure> {
    if a.vs_link_gbps.is_none() && a.vs_fabric.is_none() && a.vs_adapters.is_none() {
        return Ok(None);
    }
    if s.nodes() == 1 {
        return Err(Failure::Usage("--vs-link-gbps, --vs-fabric and --vs-adapters need --nodes > 1".to_string()));
    }
    s.with(|i| {
        if let Some(r) = a.vs_link_gbps {
            i.link_gbps = r;
        }
        if let Some(f) = a.vs_fabric {
            i.fabric = f;
        }
        if let Some(n) = a.vs_adapters {
            i.adapters_per_node = n;
        }
    })
    .map(Some)
    .map_err(|e| {
        let flag = match e.field {
            Field::LinkGbps => "--vs-link-gbps",
            Field::AdaptersPerNode => "--vs-adapters",
            other => flag(other),
        };
        Failure::Usage(format!("{flag}: {}", e.reason))
    })
}

/// Runs `estimate step`. An estimate is an answer, never a finding: exit 0 whatever it says.
pub fn step(a: &StepArgs) -> Result<Outcome, Failure> {
    let (s, taken) = step_scenario(a)?;
    let e = estimate(&s);
    let sweep_n = (!a.sweep_nodes.is_empty()).then(|| sweep_nodes(&s, &a.sweep_nodes)).transpose();
    let sweep_r = (!a.sweep_link_gbps.is_empty()).then(|| sweep_line_rate(&s, &a.sweep_link_gbps)).transpose();
    let sweep_n = sweep_n.map_err(|e| Failure::Usage(format!("--sweep-nodes: {}", e.reason)))?;
    let sweep_r = sweep_r.map_err(|e| Failure::Usage(format!("--sweep-link-gbps: {}", e.reason)))?;
    let vs = vs_scenario(a, &s)?;
    let comparison = vs.as_ref().map(|b| compare(&s, b));
    for w in s.warnings() {
        diag(&format!("warning: {w}"));
    }
    if a.cluster.json {
        let vs_doc = match (&vs, &comparison) {
            (Some(b), Some(c)) => Some(VsDocument { input: b.input(), comparison: c }),
            _ => None,
        };
        print_json(&StepDocument {
            estimate: &e,
            input: s.input(),
            sweep_nodes: sweep_n,
            sweep_link_gbps: sweep_r,
            vs: vs_doc,
            from_report: a.report.is_some().then_some(taken.as_slice()),
        })?;
        return Ok(Outcome::Clean);
    }
    let mut t = String::new();
    if let Some(path) = &a.report {
        let _ = writeln!(t, "From {}:", path.display());
        for line in &taken {
            let _ = writeln!(t, "  {line}");
        }
        t.push('\n');
    }
    t.push_str(&step_text(&s, &e));
    if let (Some(b), Some(c)) = (&vs, &comparison) {
        t.push_str(&compare_text(&s, b, c));
    }
    if let Some(p) = &sweep_n {
        t.push_str(&sweep_text("nodes", p));
    }
    if let Some(p) = &sweep_r {
        t.push_str(&sweep_text("Gb/s", p));
    }
    print_text(&t)?;
    Ok(Outcome::Clean)
}

fn secs(s: f64) -> String {
    Seconds::new(s).to_string()
}

fn count(v: f64) -> String {
    for (div, suffix) in [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")] {
        if v >= div {
            return format!("{}{suffix}", trim(v / div));
        }
    }
    trim(v)
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The human report of a step estimate.
fn step_text(s: &Scenario, e: &Estimate) -> String {
    let i = s.input();
    let st = &e.step;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} parameters, {} gradients ({}), {} x {} {}, {}",
        count(i.params),
        i.dtype.name(),
        i.sync.name(),
        plural(s.nodes(), "node"),
        s.gpus_per_node(),
        s.gpu().name,
        if s.nodes() > 1 {
            format!(
                "{} x {} Gb/s {}, GPUDirect RDMA {}",
                s.adapters_per_node(),
                trim(i.link_gbps),
                i.fabric.label(),
                if i.gdr && i.fabric.is_rdma() { "on" } else { "off" }
            )
        } else {
            format!("intra-node {}", s.intra_node().link.label())
        }
    );
    t.push('\n');
    let row = |t: &mut String, k: &str, v: String| {
        let _ = writeln!(t, "  {k:<22} {v}");
    };
    row(
        &mut t,
        "gradients",
        format!("{:.2} GB ({} params x {} B)", st.gradient_bytes.as_gb(), count(i.params), i.dtype.bytes()),
    );
    row(
        &mut t,
        "bytes per participant",
        format!(
            "{:.2} GB (ring factor {:.3}{}{})",
            st.bytes_per_participant.as_gb(),
            st.ring_factor,
            if i.ring_factor.is_some() { ", set" } else { " = 2(N-1)/N" },
            if st.sync_volume_factor != 1.0 { ", x1.5 for ZeRO-3" } else { "" }
        ),
    );
    row(
        &mut t,
        "lower bound",
        format!(
            "{} ({:.2} GB / {:.3} GB/s: one {} Gb/s adapter, no latency, no overlap)",
            secs(st.lower_bound_s.as_secs()),
            st.bytes_per_participant.as_gb(),
            st.lower_bound_link_gbyte_per_s.get(),
            trim(i.link_gbps)
        ),
    );
    row(&mut t, "bus bandwidth", format!("{:.1} GB/s, limited by {}", st.busbw_gbs.get(), st.bottleneck.describe()));
    row(
        &mut t,
        "communication",
        format!(
            "{} ({} buckets x {} latency + transfer)",
            secs(st.comm_s.as_secs()),
            st.buckets,
            secs(st.latency_per_collective_s.as_secs())
        ),
    );
    row(
        &mut t,
        "  hidden by overlap",
        format!("{} (overlap {:.0}%)", secs(st.hidden_comm_s.as_secs()), i.overlap * 100.0),
    );
    row(&mut t, "  exposed", secs(st.exposed_comm_s.as_secs()));
    let compute_note = match i.compute {
        ComputeInput::Given { .. } => "given".to_string(),
        ComputeInput::Tokens { tokens_per_step, mfu } => format!(
            "6 x {} params x {} tokens / ({} GPUs x {} TFLOP/s x MFU {})",
            count(i.params),
            count(tokens_per_step),
            s.participants(),
            trim(s.gpu().bf16_dense_tflops.get()),
            trim(mfu)
        ),
    };
    row(&mut t, "compute", format!("{} ({compute_note})", secs(st.compute_s.as_secs())));
    let tokens = st.tokens_per_s.map_or(String::new(), |v| format!(", {} tokens/s", count(v)));
    row(
        &mut t,
        "step",
        format!(
            "{} (scaling efficiency {:.1}%, exposed communication {:.1}% of the step{tokens})",
            secs(st.step_s.as_secs()),
            st.scaling_efficiency * 100.0,
            st.exposed_share * 100.0
        ),
    );
    let m = &e.memory;
    row(
        &mut t,
        "memory per GPU",
        format!(
            "{:.1} GiB of {:.1} GiB ({})",
            m.total_bytes_per_gpu.as_gib(),
            m.gpu_memory_bytes.as_gib(),
            if m.fits { "fits" } else { "does not fit" }
        ),
    );
    let kind = match e.recommendation.kind {
        estimator_core::RecommendationKind::SingleNode => "single-node",
        estimator_core::RecommendationKind::MultiNode => "multi-node",
    };
    for n in &e.notes {
        let _ = writeln!(t, "\n  note: {n}");
    }
    let _ = writeln!(t, "\nRecommendation: {kind}. {}.", e.recommendation.headline);
    for r in &e.recommendation.reasons {
        let _ = writeln!(t, "  - {r}");
    }
    t
}

fn fabric_line(s: &Scenario) -> String {
    format!("{} x {} Gb/s {}", s.adapters_per_node(), trim(s.input().link_gbps), s.input().fabric.label())
}

/// A against B, side by side.
fn compare_text(a: &Scenario, b: &Scenario, c: &Comparison) -> String {
    let mut t = format!("\n  {:<24} {:>26} {:>26}\n", "A vs B", fabric_line(a), fabric_line(b));
    let rows: [(&str, f64, f64); 5] = [
        ("lower bound", c.a.step.lower_bound_s.as_secs(), c.b.step.lower_bound_s.as_secs()),
        ("communication", c.a.step.comm_s.as_secs(), c.b.step.comm_s.as_secs()),
        ("exposed communication", c.a.step.exposed_comm_s.as_secs(), c.b.step.exposed_comm_s.as_secs()),
        ("compute", c.a.step.compute_s.as_secs(), c.b.step.compute_s.as_secs()),
        ("step", c.a.step.step_s.as_secs(), c.b.step.step_s.as_secs()),
    ];
    for (k, x, y) in rows {
        let _ = writeln!(t, "  {k:<24} {:>26} {:>26}", secs(x), secs(y));
    }
    let _ = writeln!(
        t,
        "  B takes {:.2}x A's step time ({}{} per step).",
        c.step_ratio_b_over_a,
        if c.step_delta_s >= 0.0 { "+" } else { "-" },
        secs(c.step_delta_s.abs())
    );
    t
}

fn sweep_text(axis: &str, points: &[SweepPoint]) -> String {
    let mut t = format!("\n  {axis:>8}  {:>12}  {:>12}  {:>12}  {:>10}\n", "step", "compute", "exposed", "efficiency");
    for p in points {
        let _ = writeln!(
            t,
            "  {:>8}  {:>12}  {:>12}  {:>12}  {:>9.1}%",
            trim(p.x),
            secs(p.step_s.as_secs()),
            secs(p.compute_s.as_secs()),
            secs(p.exposed_comm_s.as_secs()),
            p.scaling_efficiency * 100.0
        );
    }
    t
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
}

/// Runs `estimate allreduce`.
pub fn allreduce(a: &AllreduceArgs) -> Result<Outcome, Failure> {
    let bytes = estimator_core::collective::message_bytes(a.bytes).map_err(|e| usage(&e))?;
    let mut input = ScenarioInput::default();
    apply_cluster(&mut input, &a.cluster, a.nodes, None)?;
    let s = Scenario::new(input).map_err(|e| usage(&e))?;
    for w in s.warnings() {
        diag(&format!("warning: {w}"));
    }
    let largest = model_allreduce(&s, bytes);
    let mut rows = Vec::new();
    if a.table {
        let mut size = 8.0;
        while size < bytes.get() {
            rows.push(model_allreduce(&s, Bytes::new(size)));
            size *= 2.0;
        }
        rows.push(largest.clone());
    }
    if a.cluster.json {
        print_json(&AllreduceDocument { largest: &largest, gpu: s.gpu().key, rows, warnings: s.warnings() })?;
        return Ok(Outcome::Clean);
    }
    let bus = bus_bandwidth(&s);
    let mut t = String::new();
    let _ = writeln!(
        t,
        "all_reduce of {} on {} ({} x {} {}): busbw factor 2(n-1)/n = {:.3}",
        human_bytes(bytes.get()),
        plural(largest.ranks, "rank"),
        plural(s.nodes(), "node"),
        s.gpus_per_node(),
        s.gpu().name,
        nccl_busbw_factor(largest.ranks)
    );
    let _ = writeln!(
        t,
        "bottleneck: {} at {:.1} GB/s; latency {:.1} us",
        bus.bottleneck.describe(),
        bus.busbw.get(),
        largest.latency_us
    );
    let _ = writeln!(t, "\n  {:>14}  {:>12}  {:>10}  {:>10}", "size (B)", "time (us)", "algbw", "busbw");
    let shown = if rows.is_empty() { std::slice::from_ref(&largest) } else { &rows[..] };
    for r in shown {
        let _ = writeln!(
            t,
            "  {:>14}  {:>12.1}  {:>10.2}  {:>10.2}",
            r.size_bytes.get(),
            r.time_us,
            r.algbw_gbs,
            r.busbw_gbs
        );
    }
    if let Some(tree) = largest.tree_2node_busbw_gbs {
        let _ = writeln!(
            t,
            "\nOn two nodes NCCL's default Tree/NVLSTree may report up to {tree:.1} GB/s busbw at this size (it moves \
             fewer bytes over the network than a ring); NCCL_ALGO=Ring and three or more nodes give the figure above."
        );
    }
    print_text(&t)?;
    Ok(Outcome::Clean)
}

fn plural(n: u32, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

fn human_bytes(b: f64) -> String {
    for (div, suffix) in [(1u64 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] {
        let d = div as f64;
        if b >= d {
            return format!("{} {suffix}", trim(b / d));
        }
    }
    format!("{b} B")
}

/// `estimate catalog --json`.
#[derive(Serialize)]
struct CatalogDocument {
    gpus: &'static [estimator_core::GpuSpec],
    fabrics: Vec<FabricEntry>,
}

#[derive(Serialize)]
struct FabricEntry {
    fabric: estimator_core::Fabric,
    #[serde(flatten)]
    prior: &'static estimator_core::fabric::FabricPrior,
}

/// Runs `estimate catalog`.
pub fn catalog(a: &CatalogArgs) -> Result<Outcome, Failure> {
    let gpus = estimator_core::catalog::GPUS;
    let fabrics: Vec<FabricEntry> =
        estimator_core::Fabric::ALL.iter().map(|&f| FabricEntry { fabric: f, prior: f.prior() }).collect();
    if a.json {
        print_json(&CatalogDocument { gpus, fabrics })?;
        return Ok(Outcome::Clean);
    }
    let mut t = format!(
        "  {:<16} {:<20} {:>8} {:>11}  {:<36} {:>10}\n",
        "key", "name", "memory", "BF16 TF/s", "intra-node", "busbw GB/s"
    );
    for g in gpus {
        let _ = writeln!(
            t,
            "  {:<16} {:<20} {:>4} GiB {:>11}  {:<36} {:>10.1}",
            g.key,
            g.name,
            g.memory_gib,
            trim(g.bf16_dense_tflops.get()),
            g.intra_node.label(),
            g.allreduce_busbw.get()
        );
    }
    let _ = writeln!(t, "\n  {:<24} {:>10} {:>12}", "fabric", "efficiency", "latency (us)");
    for f in &fabrics {
        let _ = writeln!(t, "  {:<24} {:>10} {:>12}", f.fabric.label(), f.prior.efficiency, f.prior.latency_us);
    }
    t.push_str("\n  Sources: probe-cli estimate catalog --json (field `source`).\n");
    print_text(&t)?;
    Ok(Outcome::Clean)
}
