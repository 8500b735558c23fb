//! `probe-cli estimate step`: flags to a scenario, the model, text or JSON out.
//! Numbers read as on the page, through `estimator_core::human`.

use std::fmt::Write as _;

use estimator_core::recommend::LayoutSource;
use estimator_core::schedule::OverlapSource;
use estimator_core::traffic::Traffic;
use estimator_core::{
    Comparison, ComputeInput, Estimate, Field, Scenario, ScenarioInput, Seconds, SweepPoint, SyncStrategy, compare,
    estimate, human, sweep_line_rate, sweep_nodes,
};
use serde::Serialize;

use crate::cli::StepArgs;
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};
use crate::scenario::{flag, job_input, profiled, usage};

/// The scenario `estimate step` describes, and with `--report` what it took from the report (one line each).
fn step_scenario(a: &StepArgs) -> Result<(Scenario, Vec<String>, LayoutSource), Failure> {
    if a.reference {
        let s = Scenario::new(reference(a, estimator_core::scenario::reference::reference_slow()))
            .map_err(|e| usage(&e))?;
        return Ok((s, Vec::new(), LayoutSource::Given));
    }
    // The compute from tokens and MFU (the defaults where not given), or the time given (`--compute-ms`); given
    // both, the tokens are the job's global batch (its micro-batches) and the time its compute.
    let mut job = job_input(&a.job, &a.nodes, ComputeInput::default())?;
    let tokens = match (a.compute.get(Field::ComputeMs), a.compute.get(Field::TokensPerStep)) {
        (Some(_), Some(estimator_core::scenario::inputs::Value::Number(t))) => Some(*t),
        _ => None,
    };
    a.compute.apply_except(&mut job.input, |i| tokens.is_some() && i.field == Field::TokensPerStep);
    if tokens.is_some() {
        let s = Scenario::new(job.input.clone()).map_err(|e| usage(&e))?;
        let run = estimator_core::run_check::RunInput { tokens_per_step: tokens, ..Default::default() };
        job.input = run.job(&s).map_err(|e| usage(&e))?.input().clone();
    }
    if a.job.get(Field::Sync).is_none() {
        // No layout given: the fastest that fits, said (a layout given is kept exactly).
        let (s, choice) = estimator_core::recommend::choose_sync(&job.input).map_err(|e| usage(&e))?;
        let mut taken = job.taken;
        taken.push(format!("layout: {}", choice.why));
        return Ok((s, taken, LayoutSource::Chosen));
    }
    let s = Scenario::new(job.input).map_err(|e| usage(&e))?;
    Ok((s, job.taken, LayoutSource::Given))
}

/// `estimate step --json`: the estimate, flat, plus the inputs it used and any sweeps.
#[derive(Serialize)]
struct StepDocument<'a> {
    #[serde(flatten)]
    estimate: &'a Estimate,
    input: &'a ScenarioInput,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep_nodes: Option<Vec<SweepPoint>>,
    /// What the node sweep holds equal: the global batch (`same-global-batch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep_nodes_comparison: Option<estimator_core::WorkCompared>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep_link_gbps: Option<Vec<SweepPoint>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vs: Option<VsDocument<'a>>,
    /// With `--report`: what the scenario took from the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    from_report: Option<&'a [String]>,
    /// `given` (`--sync`) or `chosen` (the fastest layout that fits, when `--sync` is not given).
    layout_source: LayoutSource,
    /// Why the layout was chosen, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    layout_choice: Option<&'a str>,
    /// With `--profile`: what the profile changed, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// Scenario B of `--vs-*` and how it compares with A.
#[derive(Serialize)]
struct VsDocument<'a> {
    input: &'a ScenarioInput,
    #[serde(flatten)]
    comparison: &'a Comparison,
}

/// A side of the reference question with the one flag it takes, `--overlap` (clap refuses the others with it).
fn reference(a: &StepArgs, mut input: ScenarioInput) -> ScenarioInput {
    a.job.apply_except(&mut input, |i| i.field != Field::Overlap);
    input
}

/// Scenario B: A with the `--vs-*` flags applied, if any was given.
fn vs_scenario(a: &StepArgs, s: &Scenario) -> Result<Option<Scenario>, Failure> {
    if a.reference {
        return Scenario::new(reference(a, estimator_core::scenario::reference::reference_fast()))
            .map(Some)
            .map_err(|e| usage(&e));
    }
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
            other => &flag(other),
        };
        Failure::Usage(format!("{flag}: {}", e.reason))
    })
}

/// Runs `estimate step`. An estimate is an answer, never a finding: exit 0 whatever it says.
pub fn step(a: &StepArgs) -> Result<Outcome, Failure> {
    let (s, taken, layout_source) = step_scenario(a)?;
    let (s, profile) = profiled(s, &a.nodes.cluster)?;
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
    // What came from the report, without the layout choice, which did not.
    let from_report: Vec<String> = taken.iter().filter(|l| !l.starts_with("layout: ")).cloned().collect();
    if a.nodes.cluster.json {
        let vs_doc = match (&vs, &comparison) {
            (Some(b), Some(c)) => Some(VsDocument { input: b.input(), comparison: c }),
            _ => None,
        };
        print_json(&StepDocument {
            estimate: &e,
            input: s.input(),
            sweep_nodes_comparison: sweep_n.as_ref().map(|_| estimator_core::BatchRule::KeepGlobal.compared()),
            sweep_nodes: sweep_n,
            sweep_link_gbps: sweep_r,
            vs: vs_doc,
            from_report: a.nodes.report.is_some().then_some(from_report.as_slice()),
            layout_source,
            layout_choice: (layout_source == LayoutSource::Chosen)
                .then(|| taken.iter().rev().find_map(|l| l.strip_prefix("layout: ")))
                .flatten(),
            profile: profile.as_deref(),
        })?;
        return Ok(Outcome::Clean);
    }
    let mut t = String::new();
    if let Some(path) = &a.nodes.report {
        let _ = writeln!(t, "From {}:", path.display());
        for line in taken.iter().filter(|l| !l.starts_with("layout: ")) {
            let _ = writeln!(t, "  {line}");
        }
        t.push('\n');
    }
    if let Some(line) = &profile {
        let _ = writeln!(t, "Profile: {line}.\n");
    }
    if let Some(choice) = taken.iter().find_map(|l| l.strip_prefix("layout: ")) {
        let _ = writeln!(t, "Layout {choice}.\n");
    }
    t.push_str(&step_text(&s, &e));
    if let (Some(b), Some(c)) = (&vs, &comparison) {
        t.push_str(&compare_text(&s, b, c));
    }
    if let Some(p) = &sweep_n {
        t.push_str(
            "\n  On each node count the same global batch: a compute in milliseconds is split over the GPUs, tokens per \
             step are kept.",
        );
        t.push_str(&sweep_text("nodes", p));
    }
    if let Some(p) = &sweep_r {
        t.push_str(&sweep_text("Gb/s", p));
    }
    print_text(&t)?;
    Ok(Outcome::Clean)
}

/// The human report of a step estimate.
fn step_text(s: &Scenario, e: &Estimate) -> String {
    let i = s.input();
    let st = &e.step;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} parameters, {} gradients ({}), {} x {} {}, {}",
        human::params(i.params),
        i.dtype.name(),
        i.sync.name(),
        human::plural(u64::from(s.nodes()), "node"),
        s.gpus_per_node(),
        s.gpu().name,
        if s.nodes() > 1 {
            format!("{}, {}", fabric_line(s), i.fabric.gpu_path(i.gdr))
        } else {
            format!("intra-node {}", s.intra_node().link.label())
        }
    );
    t.push('\n');
    let m = &e.memory;
    if !m.fits {
        let _ = writeln!(
            t,
            "  {}: {} per GPU with {} ({} of model states, {}), the {} has {}. The step below is for a job that {} \
             as configured.\n",
            if m.may_fit { "MAY NOT FIT" } else { "DOES NOT FIT" },
            human::gib(m.total_bytes_per_gpu),
            st.layout.description(),
            human::gib(m.model_state_bytes_per_gpu),
            beside_states(m),
            s.gpu().name,
            human::gib(m.gpu_memory_bytes),
            if m.may_fit { "may not run" } else { "cannot run" }
        );
        if m.may_fit {
            let _ = writeln!(
                t,
                "  That is as {} allocates it; as {} does, {} of {}. Which one runs decides: measure before \
                 renting.\n",
                m.implementation,
                m.least_implementation,
                human::gib(m.least_total_bytes_per_gpu),
                human::gib(m.gpu_memory_bytes)
            );
        }
    }
    let row = |t: &mut String, k: &str, v: String| {
        let _ = writeln!(t, "  {k:<22} {v}");
    };
    row(
        &mut t,
        "gradients",
        format!(
            "{} ({} params x {} B)",
            human::gb(st.gradient_bytes),
            human::params(i.params),
            human::num(i.dtype.bytes(), 0)
        ),
    );
    row(
        &mut t,
        "one-link bytes",
        format!(
            "{} per participant with one link per GPU (ring factor {}{}{})",
            human::gb(st.bytes_per_participant),
            human::num(st.ring_factor, 3),
            if i.ring_factor.is_some() { ", set" } else { " = 2(N-1)/N" },
            if st.sync_volume_factor != 1.0 { ", x1.5 for ZeRO-3" } else { "" }
        ),
    );
    row(
        &mut t,
        "lower bound",
        if st.network_floor_bytes_per_node.get() > 0.0 {
            format!(
                "{} ({} through each node's {} x {} Gb/s adapters = {} GB/s at line rate: no fewer bytes can \
                 cross there on average, each collective reduced inside the node first; no latency, no overlap)",
                human::secs(st.lower_bound_s),
                human::gb(st.network_floor_bytes_per_node),
                s.adapters_per_node(),
                human::num(i.link_gbps, 3),
                human::num(st.lower_bound_node_gbyte_per_s.get(), 4)
            )
        } else {
            format!("{} (nothing crosses the adapters)", human::secs(st.lower_bound_s))
        },
    );
    if e.reference_applies {
        // The seed's arithmetic is DDP's gradient all-reduce at ring factor 2 through one link per GPU, whatever
        // the layout: a reference, not a bound on a node with several adapters. The bridge to what this layout
        // sends is the next line.
        let r = &e.reference_lower_bound;
        row(
            &mut t,
            "reference arithmetic",
            format!(
                "{} (one-link reference for DDP's all-reduce, one adapter per GPU, not a bound: {} x {} = {} / {} \
                 GB/s)",
                human::secs(r.time_s),
                human::num(r.ring_factor, 3),
                human::gb(r.gradient_bytes),
                human::gb(r.bytes_per_participant),
                human::num(r.link_gbyte_per_s.get(), 4)
            ),
        );
    }
    if s.nodes() > 1 {
        let sent = estimator_core::Bytes::new(st.traffic.iter().map(|t| t.bytes_per_gpu.get()).sum());
        let parts: Vec<String> =
            st.traffic.iter().map(|t| format!("{} {}", human::gb(t.bytes_per_gpu), t.kind.name())).collect();
        row(
            &mut t,
            "  this layout sends",
            format!(
                "{} per GPU per step over any link ({}), {} per GPU",
                human::gb(sent),
                parts.join(" + "),
                human::over_network(st.network_bytes_per_gpu)
            ),
        );
    }
    row(
        &mut t,
        "bus bandwidth",
        format!("{} GB/s, limited by {}", human::num(st.busbw_gbs.get(), 1), st.bottleneck.describe()),
    );
    let l = &st.layout.layout;
    row(
        &mut t,
        "layout",
        format!(
            "{} ({}; {} micro-batch{} of {} x {} tokens per GPU)",
            st.layout.description(),
            if i.model.is_some() { s.shape().name } else { "dense model of this size" },
            l.micro_batches,
            if l.micro_batches == 1 { "" } else { "es" },
            l.micro_batch_size,
            l.seq_len
        ),
    );
    let framework = s.framework();
    row(
        &mut t,
        "framework",
        format!(
            "{} ({}): {}{}",
            framework.label(),
            if i.framework.is_some() { "given" } else { "the layout's; --framework to choose" },
            if l.sync.shards_parameters() {
                "one gather and one reduce-scatter per FSDP unit, whatever the framework (its buckets apply to DDP and \
                 ZeRO-1/2)"
                    .to_string()
            } else {
                format!(
                    "gradient buckets of {} ({})",
                    human::binary(estimator_core::Bytes::new(estimator_core::traffic::gradient_bucket_bytes(s))),
                    if i.bucket_bytes.is_some() { "--bucket-bytes" } else { framework.bucket_rule() }
                )
            },
            // What the model takes of DeepSpeed's ZeRO-1/2 is its bucket: said, not hidden behind its name.
            if framework == estimator_core::scenario::Framework::Deepspeed
                && matches!(l.sync, SyncStrategy::Zero1 | SyncStrategy::Zero2)
            {
                "; its all-reduce of each bucket (use_multi_rank_bucket_allreduce) and overlap_comm off by default are \
                 not modelled: the reduce-scatter and overlap below are Megatron's"
            } else {
                ""
            }
        ),
    );
    if matches!(l.sync, SyncStrategy::Zero1 | SyncStrategy::Zero2) && i.overlap.is_none() {
        row(
            &mut t,
            "framework overlap",
            format!(
                "gradient reduce-scatter {}; parameter all-gather {} (set with --overlap-grad-reduce and \
                 --overlap-param-gather)",
                if i.overlap_grad_reduce {
                    "bucket by bucket behind the backward (Megatron --overlap-grad-reduce, as its recipes set it)"
                } else {
                    "in one call after the backward (megatron-core's default)"
                },
                if i.overlap_param_gather {
                    "behind the next forward (Megatron --overlap-param-gather)"
                } else {
                    "after the optimizer step, exposed (DeepSpeed's ZeRO-1/2, megatron-core's default)"
                }
            ),
        );
    }
    row(
        &mut t,
        "communication",
        format!(
            "{} per step, {} per GPU ({} per node)",
            human::secs(st.comm_s),
            human::over_network(st.network_bytes_per_gpu),
            human::gb(st.network_bytes_per_node)
        ),
    );
    t.push_str(&traffic_text(&st.traffic));
    row(
        &mut t,
        "  hidden by overlap",
        format!(
            "{} (overlap {}, {})",
            human::secs(st.hidden_comm_s),
            human::pct(st.overlap),
            match st.overlap_source {
                OverlapSource::Schedule => "from the frameworks' schedule",
                OverlapSource::Set => "set with --overlap",
                OverlapSource::None => "none: the model without its schedule",
            }
        ),
    );
    row(&mut t, "  exposed", human::secs(st.exposed_comm_s));
    if st.bubble_s.as_secs() > 0.0 {
        row(
            &mut t,
            "pipeline bubble",
            format!("{} ((stages - 1) / micro-batches of the compute)", human::secs(st.bubble_s)),
        );
    }
    if st.rank_wait_s.as_secs() > 0.0 {
        row(
            &mut t,
            "wait for the slowest rank",
            format!(
                "{} (the slowest of {} GPUs against one node's: per-rank variation {}% of the compute, fitted \
                 on public runs)",
                human::secs(st.rank_wait_s),
                s.participants(),
                human::num(st.rank_variation * 100.0, 1)
            ),
        );
    }
    let compute_note = match i.compute {
        ComputeInput::Given { .. } => "given".to_string(),
        ComputeInput::Tokens { tokens_per_step, mfu } => format!(
            "{} x {} params x {} tokens / ({} GPUs x {} TFLOP/s x MFU {})",
            human::num(estimator_core::step::flops_per_param_per_token(s), 0),
            human::params(s.shape().active_params),
            human::count(tokens_per_step),
            s.participants(),
            human::num(s.gpu().bf16_dense_tflops.get(), 0),
            human::pct(mfu)
        ),
    };
    row(&mut t, "compute", format!("{} ({compute_note})", human::secs(st.compute_s)));
    let tokens = st.tokens_per_s.map_or(String::new(), |v| format!(", {} tokens/s", human::count(v)));
    row(
        &mut t,
        "step",
        format!(
            "{}, {} to {} (scaling efficiency {}, exposed communication {} of the step{tokens})",
            human::secs(st.step_s),
            human::secs(st.step_range_s[0]),
            human::secs(st.step_range_s[1]),
            human::pct(st.scaling_efficiency),
            human::pct(st.exposed_share)
        ),
    );
    row(&mut t, "  range", estimator_core::accuracy::STEP_RANGE_BASIS.to_string());
    row(
        &mut t,
        "memory per GPU",
        format!(
            "{} of {} ({})",
            human::gib(m.total_bytes_per_gpu),
            human::gib(m.gpu_memory_bytes),
            if m.fits {
                "fits"
            } else if m.may_fit {
                "may not fit: the implementations differ"
            } else {
                "does not fit"
            }
        ),
    );
    let kind = match e.recommendation.kind {
        estimator_core::RecommendationKind::SingleNode => "single-node",
        estimator_core::RecommendationKind::SingleDomain => "single-domain",
        estimator_core::RecommendationKind::MultiNode => "multi-node",
    };
    for n in &e.notes {
        let _ = writeln!(t, "\n  note: {n}");
    }
    let _ = writeln!(t, "\nRecommendation: {kind}. {}.", e.recommendation.headline);
    for r in &e.recommendation.reasons {
        let _ = writeln!(t, "  - {r}");
    }
    if let Some(l) = &e.recommendation.layout {
        let _ = writeln!(t, "\nLayout: {}.", l.headline);
        for o in &l.options {
            let _ = writeln!(
                t,
                "  {:<34} step {:>10}, {:>28} per GPU{}",
                o.description,
                human::secs(o.step_s),
                human::over_network(o.network_bytes_per_gpu),
                if o.fits { "" } else { " (does not fit)" }
            );
        }
    }
    t
}

/// The step's traffic as a table: one row per kind.
fn traffic_text(rows: &[Traffic]) -> String {
    let mut t = format!(
        "    {:<24} {:<13} {:>5} {:>8} {:>10} {:>10} {:>12} {:>10} {:>10}  {}\n",
        "kind", "tier", "ranks", "calls", "message", "sent/GPU", "adapters/GPU", "time", "exposed", "NCCL"
    );
    for r in rows {
        let _ = writeln!(
            t,
            "    {:<24} {:<13} {:>5} {:>8} {:>10} {:>10} {:>12} {:>10} {:>10}  {}/{}",
            r.kind.name(),
            r.tier.name(),
            r.ranks,
            r.calls,
            human::binary(r.message_bytes),
            human::gb(r.bytes_per_gpu),
            human::gb(r.network_bytes_per_gpu),
            human::secs(r.time_s),
            human::secs(r.exposed_s),
            r.algorithm,
            r.protocol
        );
    }
    if rows.is_empty() {
        t.push_str("    (none: one GPU, or nothing to synchronise)\n");
    }
    t
}

/// `8 x 400 Gb/s InfiniBand`.
fn fabric_line(s: &Scenario) -> String {
    format!("{} x {} Gb/s {}", s.adapters_per_node(), human::num(s.input().link_gbps, 3), s.input().fabric.label())
}

/// A against B, side by side.
fn compare_text(a: &Scenario, b: &Scenario, c: &Comparison) -> String {
    let mut t = format!("\n  {:<24} {:>26} {:>26}\n", "A vs B", fabric_line(a), fabric_line(b));
    let rows: [(&str, Seconds, Seconds); 7] = [
        ("lower bound (adapters)", c.a.step.lower_bound_s, c.b.step.lower_bound_s),
        ("communication", c.a.step.comm_s, c.b.step.comm_s),
        ("exposed communication", c.a.step.exposed_comm_s, c.b.step.exposed_comm_s),
        ("pipeline bubble", c.a.step.bubble_s, c.b.step.bubble_s),
        ("wait for slowest rank", c.a.step.rank_wait_s, c.b.step.rank_wait_s),
        ("compute", c.a.step.compute_s, c.b.step.compute_s),
        ("step", c.a.step.step_s, c.b.step.step_s),
    ];
    for (k, x, y) in rows {
        let _ = writeln!(t, "  {k:<24} {:>26} {:>26}", human::secs(x), human::secs(y));
    }
    // A ratio only between equal work both sides can run (as the page's verdict).
    let nofit: Vec<&str> = [("A", &c.a), ("B", &c.b)].iter().filter(|(_, e)| !e.memory.fits).map(|(n, _)| *n).collect();
    let differ = estimator_core::sweep::job_differences(a, b);
    if !nofit.is_empty() {
        let may = [&c.a, &c.b].iter().all(|e| e.memory.fits || e.memory.may_fit);
        let who = match (nofit.len(), may) {
            (2, false) => "neither A nor B fits".to_string(),
            (2, true) => "neither A nor B surely fits".to_string(),
            (_, false) => format!("{} does not fit", nofit[0]),
            (_, true) => format!("{} may not fit", nofit[0]),
        };
        let _ = writeln!(t, "  Steps not compared: {who} in its GPUs' memory.");
    } else if !differ.is_empty() {
        let _ = writeln!(t, "  Steps not compared: A and B run different jobs (they differ in {}).", differ.join(", "));
    } else {
        let _ = writeln!(
            t,
            "  B takes {}x A's step time ({}{} per step).",
            human::num(c.step_ratio_b_over_a, 2),
            if c.step_delta_s >= 0.0 { "+" } else { "-" },
            human::secs(Seconds::new(c.step_delta_s.abs()))
        );
    }
    t
}

/// A sweep as a table: one row per point of `axis`.
fn sweep_text(axis: &str, points: &[SweepPoint]) -> String {
    let mut t = format!(
        "\n  {axis:>8}  {:>12}  {:>12}  {:>12}  {:>12}  {:>12}  {:>10}\n",
        "step", "compute", "exposed", "bubble", "wait", "efficiency"
    );
    for p in points {
        let _ = writeln!(
            t,
            "  {:>8}  {:>12}  {:>12}  {:>12}  {:>12}  {:>12}  {:>10}",
            human::num(p.x, 3),
            human::secs(p.step_s),
            human::secs(p.compute_s),
            human::secs(p.exposed_comm_s),
            human::secs(p.bubble_s),
            human::secs(p.rank_wait_s),
            human::pct(p.scaling_efficiency)
        );
    }
    t
}

/// What the peak holds beside the model states, in words: the activations through backward, or the optimizer step's
/// FP32 working copy after it where that is larger (`memory::implementations`).
fn beside_states(m: &estimator_core::memory::MemoryFit) -> String {
    if m.optimizer_step_bytes_per_gpu.get() > m.activation_bytes_per_gpu.get() {
        format!(
            "{} of the optimizer step's FP32 working copy, more than the {} of activations freed before it",
            human::gib(m.optimizer_step_bytes_per_gpu),
            human::gib(m.activation_bytes_per_gpu)
        )
    } else {
        format!("{} of activations", human::gib(m.activation_bytes_per_gpu))
    }
}
