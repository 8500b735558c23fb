//! What the run's own collectives say (NCCL Inspector records, a PyTorch profiler trace): judged per communicator
//! against the model ([`crate::run_collectives::judge`]), they weigh the causes as an NCCL log or a nccl-tests run
//! does. Collectives across nodes at their expected speed rule the network out; a slow communicator across nodes
//! beside healthy ones inside them points to the fabric (or, from one rank's records, to a straggler just as well);
//! a straggler named from several ranks' records is confirmed; an exposed share of communication far above the
//! model's with the collectives at their expected speed points to the overlap.

use serde::Serialize;

use super::causes::{CONFIRMED, POSSIBLE, RunCause, confirm, rule_out, strings};
use super::{RuledOut, step_at, tolerance};
use crate::collective::model_peak_busbw_gbs;
use crate::human::{pct, secs};
use crate::import::trace::TraceSteps;
use crate::run_collectives::{CollectivesCheck, GroupCheck, GroupVerdict};
use crate::scenario::Scenario;
use crate::step::StepEstimate;
use crate::units::Seconds;

/// A trace's measured communication per step against the model's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceComparison {
    /// Steps measured.
    pub steps: usize,
    /// The median step on the CPU, seconds.
    pub step_s: Option<f64>,
    /// The median time NCCL kernels ran, seconds; the model's `expected_comm_s` beside it.
    pub comm_s: Option<f64>,
    /// The median exposed communication (no compute kernel beside it), seconds.
    pub exposed_comm_s: Option<f64>,
    /// The median hidden communication, seconds.
    pub hidden_comm_s: Option<f64>,
    /// The share hidden, measured.
    pub hidden_share: Option<f64>,
    /// The model's communication for the step, seconds.
    pub expected_comm_s: f64,
    /// What of it the model's schedule leaves exposed, seconds.
    pub expected_exposed_comm_s: f64,
    /// The share the model hides.
    pub expected_hidden_share: f64,
    /// The compute taken from the trace (each step less its exposed communication, the median), seconds.
    pub compute_s: Option<f64>,
}

impl TraceComparison {
    /// The comparison of a trace's steps with the model's step.
    pub fn new(t: &TraceSteps, e: &StepEstimate) -> TraceComparison {
        TraceComparison {
            steps: t.steps.len(),
            step_s: t.median_step_s,
            comm_s: t.median_comm_s,
            exposed_comm_s: t.median_exposed_comm_s,
            hidden_comm_s: t.median_hidden_comm_s,
            hidden_share: t.hidden_share(),
            expected_comm_s: e.comm_s.as_secs(),
            expected_exposed_comm_s: e.exposed_comm_s.as_secs(),
            expected_hidden_share: e.overlap,
            compute_s: t.median_compute_s,
        }
    }
}

fn s(t: f64) -> String {
    secs(Seconds::new(t))
}

/// The worst judged band of a group: its ratio.
fn worst_ratio(g: &GroupCheck) -> Option<f64> {
    g.bands
        .iter()
        .filter(|b| b.status != crate::run_collectives::BandStatus::TooFew)
        .map(|b| b.ratio)
        .min_by(f64::total_cmp)
}

/// The ratio of a group's largest judged band: the share of its bandwidth the network gives (a small-message band's
/// ratio says more of latency than of bandwidth).
fn bandwidth_ratio(g: &GroupCheck) -> Option<f64> {
    g.bands.iter().filter(|b| b.status != crate::run_collectives::BandStatus::TooFew).map(|b| b.ratio).next_back()
}

/// Weighs the causes with the run's collectives and trace.
pub(super) fn weigh(
    sc: &Scenario,
    measured: f64,
    check: Option<&CollectivesCheck>,
    trace: Option<&TraceComparison>,
    causes: &mut Vec<RunCause>,
    ruled: &mut Vec<RuledOut>,
    evidence: &mut Vec<String>,
) {
    let empty = CollectivesCheck {
        groups: Vec::new(),
        ranks: Vec::new(),
        straggler: None,
        straggler_checked: false,
        limits: Vec::new(),
        summary: Vec::new(),
    };
    let check = check.unwrap_or(&empty);
    let cross: Vec<&GroupCheck> = check.cross_node().collect();
    let inside: Vec<&GroupCheck> = check.inside().collect();
    for g in check.judged() {
        evidence.push(format!("The run's collectives: {}.", g.text));
    }
    let slow_cross: Vec<&GroupCheck> = cross.iter().copied().filter(|g| g.verdict == GroupVerdict::Slow).collect();
    let cross_fine =
        !cross.is_empty() && cross.iter().all(|g| matches!(g.verdict, GroupVerdict::AsExpected | GroupVerdict::Low));
    if cross_fine {
        let low = cross.iter().filter_map(|g| worst_ratio(g)).fold(f64::INFINITY, f64::min);
        let why = format!(
            "the run's own collectives across nodes run at {} of the model's bus bandwidth or better, at or above \
             what healthy runs read",
            pct(low)
        );
        for id in ["socket-fallback", "gdr-off", "fewer-nics", "gpu-far-from-nic"] {
            rule_out(causes, ruled, id, why.clone());
        }
    }
    if let Some(st) = &check.straggler {
        confirm(causes, "straggler", &st.text);
        if let Some(c) = causes.iter_mut().find(|c| c.id == "straggler") {
            c.status = CONFIRMED;
        } else {
            causes.push(RunCause {
                id: "straggler".into(),
                text: st.text.clone(),
                check: strings(&[
                    "nvidia-smi -q -d PERFORMANCE,CLOCK,TEMPERATURE on that rank's node: throttling, lower clocks",
                    "that rank's data loader, storage and CPU",
                ]),
                status: CONFIRMED,
                step_s: None,
                step_max_s: None,
            });
        }
    }
    if let Some(worst) =
        slow_cross.iter().min_by(|a, b| worst_ratio(a).unwrap_or(1.0).total_cmp(&worst_ratio(b).unwrap_or(1.0)))
    {
        let ratio = bandwidth_ratio(worst).unwrap_or(1.0);
        let inside_fine = inside.iter().all(|g| g.verdict != GroupVerdict::Slow);
        let one_rank = check.ranks.len() <= 1;
        // Confirmed only where the ranks' records could tell a straggler and named none.
        let status = if check.straggler_checked && check.straggler.is_none() { CONFIRMED } else { POSSIBLE };
        let busbw = (model_peak_busbw_gbs(sc) * ratio).max(crate::scenario::limits::MIN_FRACTION);
        let t = step_at(sc, busbw);
        let inside_note = match (inside.is_empty(), inside_fine) {
            (true, _) => String::new(),
            (false, true) => "; the collectives inside the nodes run as expected".to_string(),
            (false, false) => "; the collectives inside the nodes are slow too (not the network alone)".to_string(),
        };
        let caveat = if one_rank {
            ". From one rank's records a straggler cannot be told from a slow fabric: its kernels include the wait \
             for the slowest rank (give every rank's records to tell)"
        } else if check.straggler.is_some() {
            ". A straggler is named from the ranks' records: the others' kernels include their wait for it"
        } else if !check.straggler_checked {
            ". Too few calls were recorded on several ranks to tell a straggler from a slow fabric"
        } else {
            ""
        };
        causes.retain(|c| c.id != "fabric-slow");
        causes.push(RunCause {
            id: "fabric-slow".into(),
            text: format!(
                "the network is slow: {}{inside_note}; at {} of the bandwidth (its largest sizes' share) the step \
                 would be {}{caveat}",
                worst.text,
                pct(ratio),
                t.map_or_else(|| "unknown".to_string(), s)
            ),
            check: strings(&[
                "probe-cli pairs over two-node nccl-tests runs finds a bad node or link",
                "probe-cli health with a nccl-tests run on these nodes, its NCCL_DEBUG=INFO log and nvidia-smi topo -m",
            ]),
            status,
            step_s: t,
            step_max_s: None,
        });
    } else if !inside.is_empty() && inside.iter().any(|g| g.verdict == GroupVerdict::Slow) {
        evidence.push(
            "The collectives inside a node are slow while none across nodes is: not the network (NVLink or PCIe, \
             P2P disabled, GPU clocks; nvidia-smi topo -m and NCCL_DEBUG=INFO's P2P lines tell)."
                .to_string(),
        );
    }
    if let Some(tc) = trace
        && let Some(exposed) = tc.exposed_comm_s
    {
        evidence.push(format!(
            "The trace's steps: communication {} per step, {} of it exposed and {} hidden ({} hidden; the model: {} \
             communication, {} exposed, {} hidden).",
            tc.comm_s.map_or_else(|| "?".into(), s),
            s(exposed),
            tc.hidden_comm_s.map_or_else(|| "?".into(), s),
            tc.hidden_share.map_or_else(|| "?".into(), pct),
            s(tc.expected_comm_s),
            s(tc.expected_exposed_comm_s),
            pct(tc.expected_hidden_share)
        ));
        let tol = tolerance(sc.input().fabric).share;
        let excess = exposed - tc.expected_exposed_comm_s;
        let judged = check.judged().count() > 0;
        let collectives_fine =
            judged && slow_cross.is_empty() && !check.judged().any(|g| g.verdict == GroupVerdict::Slow);
        let unjudged = !judged;
        if excess > tol * measured.max(f64::MIN_POSITIVE) && (collectives_fine || unjudged) {
            let speed = if collectives_fine {
                "the collectives run at their expected speed, but"
            } else {
                "the trace's collectives were not judged (too few calls, no size or no group), and"
            };
            causes.push(RunCause {
                id: "overlap".into(),
                text: format!(
                    "{speed} {} of communication per step is exposed where the model's schedule leaves {} ({} more, \
                     {} of the measured step): the overlap{}",
                    s(exposed),
                    s(tc.expected_exposed_comm_s),
                    s(excess),
                    pct(excess / measured.max(f64::MIN_POSITIVE)),
                    if collectives_fine { ", not the network" } else { ", or collectives slower than their due" }
                ),
                check: strings(&[
                    "the framework's overlap settings: DDP's bucket_cap_mb, FSDP's forward/backward prefetch, \
                     Megatron's --overlap-grad-reduce and --overlap-param-gather",
                    "a CPU-bound step (launch gaps in the trace) exposes communication a GPU-bound one hides",
                ]),
                status: if collectives_fine { CONFIRMED } else { POSSIBLE },
                step_s: Some(measured),
                step_max_s: None,
            });
        }
    }
}
