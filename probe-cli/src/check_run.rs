//! `probe-cli check-run`: is a slow training run the network's fault? The step measured on N nodes against the
//! model's step for the same job and hardware with the run's own single-node step as the compute
//! (estimator-core's `run_check::check_run`), with the evidence given as files or attached to the report.

use std::fmt::Write as _;

use estimator_core::run_check::{RunCheck, RunEvidence, RunInput, RunVerdict, check_run};
use estimator_core::{ComputeInput, Scenario, ScenarioInput, human};
use serde::Serialize;

use crate::cli::CheckRunArgs;
use crate::evidence::{Evidences, Offered, pick};
use crate::outcome::{Failure, Outcome};
use crate::output::{diag, print_json, print_text};
use crate::run_records::RunRecords;
use crate::scenario::{job_input, profiled, usage};

/// `check-run --json`: the check, flat, with the scenario and the measurement it was given.
#[derive(Serialize)]
struct CheckDocument<'a> {
    #[serde(flatten)]
    check: &'a RunCheck,
    /// The job and hardware checked against.
    input: &'a ScenarioInput,
    /// The measurement as given.
    run: &'a RunInput,
    /// Where each piece of evidence came from.
    files: &'a [String],
    /// With `--report`: what the scenario took from the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    from_report: Option<&'a [String]>,
    /// With `--profile`: what the profile changed, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

const ONE_RUN: &str = "check-run checks one run";

/// Runs `check-run`. A run as expected is a clean outcome (exit 0); a slower or faster one is a finding (exit 1,
/// after the check is printed).
pub fn check(a: &CheckRunArgs) -> Result<Outcome, Failure> {
    let records = RunRecords::read(a)?;
    let compute_ms = match (a.compute_ms, records.steps().and_then(|t| t.median_compute_s)) {
        (Some(ms), _) => ms,
        (None, Some(t)) => t * 1000.0,
        (None, None) => {
            return Err(Failure::Usage(
                "--compute-ms: give the run's own step on one node (or a --trace with ProfilerStep#N steps, whose \
                 steps less their exposed communication are the compute)"
                    .to_string(),
            ));
        }
    };
    let job = job_input(&a.job, &a.nodes, ComputeInput::Given { ms: compute_ms })?;
    let s = Scenario::new(job.input).map_err(|e| usage(&e))?;
    let (s, profile) = profiled(s, &a.nodes.cluster)?;
    let no_measurement =
        a.measured_step_s.is_none() && a.measured_tokens_per_s.is_none() && a.measured_samples_per_s.is_none();
    let trace_step = records.steps().and_then(|t| t.median_step_s).filter(|_| no_measurement);
    let run = RunInput {
        measured_step_s: a.measured_step_s.or(trace_step),
        measured_tokens_per_s: a.measured_tokens_per_s,
        tokens_per_step: a.tokens_per_step,
        measured_samples_per_s: a.measured_samples_per_s,
        samples_per_step: a.samples_per_step,
        // The command's scenario has no modelled compute: its tokens are `--tokens-per-step` or the layout's.
        scenario_tokens_per_step: None,
    };
    // `--tokens-per-step` is the job's global batch, as in `estimate`: it sets the micro-batches too.
    let s = run.job(&s).map_err(|e| usage(&e))?;
    let mut measured = run.step(&s).map_err(|e| usage(&e))?;
    if let (Some(_), Some(t)) = (trace_step, records.steps()) {
        measured.from = format!(
            "the trace's median step over {} (ProfilerStep#N on the CPU)",
            human::plural(t.steps.len() as u64, "step")
        );
    }
    let attached = match job.report {
        Some((path, value)) => Evidences::attached(&path, value),
        None => Evidences::default(),
    };
    let given = Evidences::given(&a.files, "check-run", a.run)?;
    let nccl_tests = pick([given.run, attached.run], "nccl-tests outputs", ONE_RUN)?;
    let embedded = Offered(given.embedded_log.into_iter().collect());
    let log = pick([given.log, embedded, attached.log], "NCCL logs", ONE_RUN)?;
    let topo = pick([given.topo, attached.topo], "nvidia-smi topo -m outputs", ONE_RUN)?;
    let mut files: Vec<String> =
        [nccl_tests.as_ref().map(|r| &r.from), log.as_ref().map(|l| &l.from), topo.as_ref().map(|t| &t.from)]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
    files.extend(records.from.iter().cloned());
    if let Some(r) = &nccl_tests
        && r.value.rows.is_empty()
    {
        return Err(Failure::input(format!(
            "{}: nothing to judge, {}",
            r.from,
            estimator_core::import::nccl_tests::NO_ROWS
        )));
    }
    let ev = RunEvidence {
        log: log.as_ref().map(|l| &l.value),
        topo: topo.as_ref().map(|t| &t.value),
        summary: job.summary.as_ref(),
        nccl_tests: nccl_tests.as_ref().map(|r| &r.value),
        calls: records.calls.as_ref(),
        trace: records.steps(),
        profile: a.nodes.cluster.profile.as_deref().map(crate::scenario::load_profile).transpose()?,
    };
    for w in s.warnings() {
        diag(&format!("warning: {w}"));
    }
    let c = check_run(&s, &measured, ev);
    if a.nodes.cluster.json {
        print_json(&CheckDocument {
            check: &c,
            input: s.input(),
            run: &run,
            files: &files,
            from_report: a.nodes.report.is_some().then_some(job.taken.as_slice()),
            profile: profile.as_deref(),
        })?;
    } else {
        let line = profile.map_or(String::new(), |l| format!("Profile: {l}.\n"));
        print_text(&format!("{line}{}", text(&c, &s, &files)))?;
    }
    Ok(if c.verdict == RunVerdict::AsExpected { Outcome::Clean } else { Outcome::Findings })
}

/// The check in words: the hardware, the verdict, the figures side by side, the causes and the evidence.
fn text(c: &RunCheck, s: &Scenario, files: &[String]) -> String {
    let mut t = String::new();
    let i = s.input();
    let _ = writeln!(
        t,
        "Checked against {} x {} {}, {} x {} Gb/s {} ({}); {}, {}:",
        human::plural(u64::from(s.nodes()), "node"),
        i.gpus_per_node,
        s.gpu().name,
        i.adapters_per_node,
        human::num(i.link_gbps, 3),
        i.fabric.name(),
        i.fabric.gpu_path(i.gdr),
        c.step.layout.description(),
        human::params(s.shape().params),
    );
    let _ = writeln!(t, "\nVerdict: {}", c.verdict.name());
    let _ = writeln!(t, "  {}.", c.headline);
    let _ = writeln!(t);
    for (label, line) in c.figures() {
        let _ = writeln!(t, "  {label:<15} {line}");
    }
    if !c.causes.is_empty() {
        let title =
            if c.verdict == RunVerdict::SlowerThanExpected { "Likely causes, most likely first" } else { "Notes" };
        let _ = writeln!(t, "\n{title}:");
        for (n, k) in c.causes.iter().enumerate() {
            let _ = writeln!(t, "  {}. [{}] {}: {}", n + 1, k.status, k.id, k.text);
            for x in &k.check {
                let _ = writeln!(t, "       check: {x}");
            }
        }
    }
    if !c.ruled_out.is_empty() {
        let _ = writeln!(t, "\nRuled out:");
        for r in &c.ruled_out {
            let _ = writeln!(t, "  - {}: {}", r.id, r.why);
        }
    }
    if !c.cannot_tell.is_empty() {
        let _ = writeln!(t, "\nCannot tell from the step alone (the range is too wide):");
        for r in &c.cannot_tell {
            let _ = writeln!(t, "  - {}: {}", r.id, r.why);
        }
    }
    if !c.evidence.is_empty() {
        let _ = writeln!(t, "\nEvidence:");
        for e in &c.evidence {
            let _ = writeln!(t, "  {e}");
        }
    }
    if let Some(cc) = &c.collectives {
        collectives_text(&mut t, cc);
    }
    if let Some(tc) = &c.trace {
        let sec = |x: Option<f64>| x.map_or_else(|| "?".to_string(), |v| human::secs(estimator_core::Seconds::new(v)));
        let _ = writeln!(
            t,
            "\nThe trace's steps (the median step of {}: its figures add up):",
            human::plural(tc.steps as u64, "step")
        );
        let _ = writeln!(
            t,
            "  communication   measured {} = exposed {} + hidden {}; the model's {} = exposed {} + hidden {}",
            sec(tc.comm_s),
            sec(tc.exposed_comm_s),
            sec(tc.hidden_comm_s),
            sec(Some(tc.expected_comm_s)),
            sec(Some(tc.expected_exposed_comm_s)),
            sec(Some(tc.expected_comm_s - tc.expected_exposed_comm_s)),
        );
        let _ = writeln!(
            t,
            "  step            {} (on the CPU); compute {} (the step less its exposed communication)",
            sec(tc.step_s),
            sec(tc.compute_s)
        );
    }
    if !files.is_empty() {
        let _ = writeln!(t, "From: {}", files.join(", "));
    }
    t
}

/// The run's collectives per communicator: the verdict, then each size band's figures.
fn collectives_text(t: &mut String, cc: &estimator_core::run_collectives::CollectivesCheck) {
    use estimator_core::run_collectives::size_label;
    let _ =
        writeln!(t, "\nThe run's collectives against the model (bus bandwidth per GPU, as nccl-tests computes it):");
    for g in &cc.groups {
        let _ = writeln!(t, "  [{}] {}", g.verdict.name(), g.text);
        for b in &g.bands {
            let _ = writeln!(
                t,
                "      {:>9} to {:<9} {:>6} calls, median {:>9}: measured {:>8} GB/s, expected {:>8} GB/s ({}), floor {} GB/s [{}]",
                size_label(b.from_bytes),
                b.to_bytes.map_or_else(|| "up".to_string(), size_label),
                b.calls,
                size_label(b.median_bytes),
                human::num(b.measured_busbw_gbs, 1),
                human::num(b.expected_busbw_gbs, 1),
                human::pct(b.ratio),
                human::num(b.floor_busbw_gbs, 1),
                b.status.name()
            );
        }
    }
    if let Some(st) = &cc.straggler {
        let _ = writeln!(t, "  Straggler: {}", st.text);
    }
    for l in &cc.limits {
        let _ = writeln!(t, "  Note: {l}");
    }
}
