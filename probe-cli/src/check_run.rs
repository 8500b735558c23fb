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
    let job = job_input(&a.job, &a.nodes, ComputeInput::Given { ms: a.compute_ms })?;
    let s = Scenario::new(job.input).map_err(|e| usage(&e))?;
    let (s, profile) = profiled(s, &a.nodes.cluster)?;
    let run = RunInput {
        measured_step_s: a.measured_step_s,
        measured_tokens_per_s: a.measured_tokens_per_s,
        tokens_per_step: a.tokens_per_step,
        measured_samples_per_s: a.measured_samples_per_s,
        samples_per_step: a.samples_per_step,
    };
    let measured = run.step(&s).map_err(|e| usage(&e))?;
    let attached = match job.report {
        Some((path, value)) => Evidences::attached(&path, value),
        None => Evidences::default(),
    };
    let given = Evidences::given(&a.files, "check-run", a.run)?;
    let nccl_tests = pick([given.run, attached.run], "nccl-tests outputs", ONE_RUN)?;
    let embedded = Offered(given.embedded_log.into_iter().collect());
    let log = pick([given.log, embedded, attached.log], "NCCL logs", ONE_RUN)?;
    let topo = pick([given.topo, attached.topo], "nvidia-smi topo -m outputs", ONE_RUN)?;
    let files: Vec<String> =
        [nccl_tests.as_ref().map(|r| &r.from), log.as_ref().map(|l| &l.from), topo.as_ref().map(|t| &t.from)]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
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
    if !files.is_empty() {
        let _ = writeln!(t, "From: {}", files.join(", "));
    }
    t
}
