//! The likely causes of a slow run, each with the step it would give on this hardware (the model run again with
//! the fault: sockets instead of the fabric, no GPUDirect RDMA, fewer adapters) and what to check; ranked by how
//! close that step is to the measured one, after those the evidence confirms. Evidence rules causes out too: an
//! NCCL log that shows NET/IB rules out the socket fallback, a healthy nccl-tests run on the same nodes rules out
//! the fabric.

use serde::Serialize;

use super::{RunEvidence, RunVerdict, step_at, tolerance};
use crate::collective::model_peak_busbw_gbs;
use crate::fabric::{Fabric, SLOWEST_SOCKET_BUSBW_GBYTE_PER_S, TCP_SOCKET_CAP_GBYTE_PER_S};
use crate::health::{Health, Verdict};
use crate::human::{num, pct};
use crate::recommend::{SAME_STEP, advise};
use crate::report::{GdrSupport, ReportFabric};
use crate::scenario::{Scenario, ScenarioInput};
use crate::step::{StepEstimate, estimate_step};
use crate::units::Seconds;

/// A likely cause of a slow run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunCause {
    /// A stable id: `socket-fallback`, `gdr-off`, `fewer-nics`, `gpu-far-from-nic`, `fabric-slow`, `straggler`,
    /// `layout`.
    pub id: String,
    /// What it is, with the step it would give.
    pub text: String,
    /// What to check or change, one step each.
    pub check: Vec<String>,
    /// `confirmed` when the evidence given shows it, else `possible`.
    pub status: &'static str,
    /// The step the model gives with this fault, seconds (`None` for a straggler, which has no figure of its own);
    /// the fastest end when the fault spans a range.
    pub step_s: Option<f64>,
    /// The slowest end, when the fault spans a range (a socket fallback: sockets at their best on the fabric's own
    /// ports, or at the slowest sourced socket bus bandwidth, [`SLOWEST_SOCKET_BUSBW_GBYTE_PER_S`]).
    pub step_max_s: Option<f64>,
}

/// A cause ruled out, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuledOut {
    /// The cause's id.
    pub id: String,
    /// Why: the evidence, or the step it would give.
    pub why: String,
}

/// What the causes module found.
pub(super) struct Found {
    pub causes: Vec<RunCause>,
    pub ruled_out: Vec<RuledOut>,
    pub cannot_tell: Vec<RuledOut>,
    pub evidence: Vec<String>,
}

pub(super) const CONFIRMED: &str = "confirmed";
pub(super) const POSSIBLE: &str = "possible";

/// A network cause fits the measured step when the step it gives is within this factor of it; a straggler is
/// ranked after those that fit and before those that do not.
const FITS: f64 = 1.5;

pub(super) fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|t| t.to_string()).collect()
}

fn secs(t: f64) -> String {
    crate::human::secs(Seconds::new(t))
}

/// The step of `s` changed by `change`, when the change is a valid scenario.
fn step_with(s: &Scenario, change: impl FnOnce(&mut ScenarioInput)) -> Option<(Scenario, f64)> {
    let v = s.with(change).ok()?;
    let t = estimate_step(&v).step_s.as_secs();
    Some((v, t))
}

/// The candidates on this hardware, every one with its figure, before the evidence.
fn candidates(s: &Scenario, measured: f64, expected_busbw: f64) -> Vec<RunCause> {
    let mut out = Vec::new();
    let multi = s.nodes() > 1;
    let fabric = s.input().fabric;
    if !multi {
        return out;
    }
    if fabric != Fabric::Tcp
        && let Some((v, t)) = step_with(s, |i| {
            i.fabric = Fabric::Tcp;
            i.gdr = false;
        })
    {
        let slowest = step_with(s, |i| {
            i.fabric = Fabric::Tcp;
            i.gdr = false;
            i.measured_busbw_gbs = Some(SLOWEST_SOCKET_BUSBW_GBYTE_PER_S);
        })
        .map(|(_, slow)| slow.max(t));
        out.push(RunCause {
            id: "socket-fallback".into(),
            text: format!(
                "NCCL fell back to TCP sockets (NET/Socket): at best they move about {} GB/s per node on the \
                 fabric's own ports (an all-reduce bus bandwidth of {} GB/s here against {} GB/s), and as little as \
                 {} GB/s on an untuned stack, a slow interface or IPoIB; the step would be {}{}",
                num(TCP_SOCKET_CAP_GBYTE_PER_S, 1),
                num(model_peak_busbw_gbs(&v), 1),
                num(expected_busbw, 1),
                num(SLOWEST_SOCKET_BUSBW_GBYTE_PER_S, 2),
                secs(t),
                slowest
                    .map(|m| format!(" at best, {} at {} GB/s", secs(m), num(SLOWEST_SOCKET_BUSBW_GBYTE_PER_S, 2)))
                    .unwrap_or_default()
            ),
            check: strings(fabric.fallback_fixes()),
            status: POSSIBLE,
            step_s: Some(t),
            step_max_s: slowest,
        });
    }
    if fabric.is_rdma()
        && s.input().gdr
        && let Some((_, t)) = step_with(s, |i| i.gdr = false)
    {
        out.push(RunCause {
            id: "gdr-off".into(),
            text: format!(
                "GPUDirect RDMA is off: the adapters read and write host memory and every transfer is copied \
                 through it; the step would be {}",
                secs(t)
            ),
            check: {
                let mut c = strings(fabric.gdr_fixes());
                c.push("NCCL_DEBUG=INFO: the network channels should end in /GDRDMA".to_string());
                c.push("probe-cli report shows GPUDirect RDMA support and its reasons".to_string());
                c
            },
            status: POSSIBLE,
            step_s: Some(t),
            step_max_s: None,
        });
        out.push(RunCause {
            id: "gpu-far-from-nic".into(),
            text: format!(
                "a GPU without a NIC within PXB (behind the CPU, PHB/NODE/SYS): NCCL's default turns GPUDirect RDMA \
                 off for it and its traffic crosses the CPU; the step would be about {}",
                secs(t)
            ),
            check: strings(&[
                "nvidia-smi topo -m: each GPU should have a NIC at PIX or PXB",
                "NCCL_NET_GDR_LEVEL=SYS allows GPUDirect RDMA over the CPU (often slower); check the GPU-NIC pairing",
            ]),
            status: POSSIBLE,
            step_s: Some(t),
            step_max_s: None,
        });
    }
    let adapters = s.adapters_per_node();
    if adapters > 1 {
        // The adapter count whose step is nearest the measured one (in ratio).
        let best = (1..adapters)
            .filter_map(|k| step_with(s, |i| i.adapters_per_node = i64::from(k)).map(|(_, t)| (k, t)))
            .min_by(|a, b| (a.1 / measured).ln().abs().total_cmp(&(b.1 / measured).ln().abs()));
        if let Some((k, t)) = best {
            out.push(fewer_nics(k, adapters, t, POSSIBLE));
        }
    }
    out
}

fn fewer_nics(used: u32, present: u32, t: f64, status: &'static str) -> RunCause {
    RunCause {
        id: "fewer-nics".into(),
        text: format!(
            "NCCL uses {used} of the node's {present} adapters (a port down or at a lower rate, NCCL_IB_HCA naming \
             fewer, a VM without all its NICs): the step would be {}",
            secs(t)
        ),
        check: strings(&[
            "ibstat on each node: every port State: Active at the full Rate",
            "NCCL_IB_HCA unset (or listing every adapter); NCCL_DEBUG=INFO lists the adapters it uses",
        ]),
        status,
        step_s: Some(t),
        step_max_s: None,
    }
}

/// Marks the candidate `id` confirmed, with the evidence appended to its text. A cause with no candidate on this
/// hardware (sockets on a TCP fabric, GPUDirect RDMA on a scenario without it) stays out: the model expects it.
pub(super) fn confirm(causes: &mut [RunCause], id: &str, because: &str) {
    if let Some(c) = causes.iter_mut().find(|c| c.id == id)
        && c.status != CONFIRMED
    {
        c.status = CONFIRMED;
        c.text = format!("{} ({because})", c.text);
    }
}

pub(super) fn rule_out(causes: &mut Vec<RunCause>, ruled: &mut Vec<RuledOut>, id: &str, why: String) {
    if let Some(at) = causes.iter().position(|c| c.id == id && c.status != CONFIRMED) {
        causes.remove(at);
        if !ruled.iter().any(|r| r.id == id) {
            ruled.push(RuledOut { id: id.to_string(), why });
        }
    }
}

/// The causes of the run's step, confirmed or ruled out by the evidence, ranked.
pub(super) fn causes(
    s: &Scenario,
    e: &StepEstimate,
    measured: f64,
    verdict: RunVerdict,
    ev: &RunEvidence<'_>,
    health: Option<&Health>,
    run: (Option<&crate::run_collectives::CollectivesCheck>, Option<&super::TraceComparison>),
) -> Found {
    let expected = e.step_s.as_secs();
    let expected_busbw = model_peak_busbw_gbs(s);
    let mut evidence =
        crate::health::evidence_lines(&crate::health::Evidence { log: ev.log, topo: ev.topo, summary: ev.summary });
    let mut causes = candidates(s, measured, expected_busbw);
    let mut ruled = Vec::new();

    if let Some(log) = ev.log {
        let on_sockets = log.transports.get("socket").copied().unwrap_or(0);
        match log.transport.as_deref() {
            Some("socket") => confirm(&mut causes, "socket-fallback", "the NCCL log shows NET/Socket"),
            Some("mixed") if on_sockets > 0 => confirm(
                &mut causes,
                "socket-fallback",
                &format!(
                    "the NCCL log shows {on_sockets} of its {} processes on NET/Socket: the job runs at their pace",
                    log.transports.values().sum::<u32>()
                ),
            ),
            Some(t) => {
                let why = if t == "mixed" {
                    let by: Vec<String> = log.transports.iter().map(|(k, n)| format!("{k} on {n}")).collect();
                    format!("the NCCL log's processes use {}: none on sockets", by.join(", "))
                } else {
                    format!("the NCCL log shows the {t} transport")
                };
                rule_out(&mut causes, &mut ruled, "socket-fallback", why)
            }
            None => {}
        }
        match log.gdr {
            Some(false) if log.transport.as_deref() != Some("socket") => {
                confirm(&mut causes, "gdr-off", "the NCCL log's network channels run without /GDRDMA")
            }
            Some(true) => {
                let why = "the NCCL log's network channels run /GDRDMA".to_string();
                rule_out(&mut causes, &mut ruled, "gdr-off", why.clone());
                rule_out(&mut causes, &mut ruled, "gpu-far-from-nic", why);
            }
            _ => {}
        }
        let present = ev.summary.map(|x| x.rdma_adapters).filter(|n| *n > 0).unwrap_or(s.adapters_per_node());
        if let Some(used) = log.nics_used {
            if used < present {
                causes.retain(|c| c.id != "fewer-nics");
                if let Some((_, t)) = step_with(s, |i| i.adapters_per_node = i64::from(used.max(1))) {
                    causes.push(fewer_nics(used, present, t, CONFIRMED));
                }
            } else {
                rule_out(
                    &mut causes,
                    &mut ruled,
                    "fewer-nics",
                    format!("the NCCL log's channels go through {used} adapters, all the node has"),
                );
            }
        }
    }
    if let Some(topo) = ev.topo
        && !topo.nearest.is_empty()
    {
        let far: Vec<&str> = topo.nearest.iter().filter(|n| !n.gdr_distance_ok).map(|n| n.gpu.as_str()).collect();
        if far.is_empty() {
            rule_out(
                &mut causes,
                &mut ruled,
                "gpu-far-from-nic",
                "the topology gives every GPU a NIC within PXB".to_string(),
            );
        } else {
            confirm(
                &mut causes,
                "gpu-far-from-nic",
                &format!("the topology: {} without a NIC within PXB", far.join(", ")),
            );
        }
    }
    if let Some(x) = ev.summary {
        if x.gdr == GdrSupport::NotSupported {
            confirm(&mut causes, "gdr-off", "the node report says GPUDirect RDMA is not supported");
        }
        if s.input().fabric.is_rdma() && matches!(x.fabric, ReportFabric::Ethernet | ReportFabric::None) {
            confirm(&mut causes, "socket-fallback", "the node report finds no active RDMA port");
        }
        if x.rdma_adapters > 0
            && x.rdma_adapters < s.adapters_per_node()
            && !causes.iter().any(|c| c.id == "fewer-nics" && c.status == CONFIRMED)
        {
            causes.retain(|c| c.id != "fewer-nics");
            if let Some((_, t)) = step_with(s, |i| i.adapters_per_node = i64::from(x.rdma_adapters)) {
                let mut c = fewer_nics(x.rdma_adapters, s.adapters_per_node(), t, CONFIRMED);
                c.text = format!("{} (the node report finds {} active RDMA adapters)", c.text, x.rdma_adapters);
                causes.push(c);
            }
        }
    }
    if let Some(h) = health {
        nccl_tests_evidence(s, measured, h, &mut causes, &mut ruled, &mut evidence);
    }
    if run.0.is_some() || run.1.is_some() {
        super::collectives::weigh(s, measured, run.0, run.1, &mut causes, &mut ruled, &mut evidence);
    }

    // A cause is ruled out by the figures only when even its slowest step, with the model's own spread on top
    // (the high end of what reads as expected, as a share of the expected step), cannot reach the measured one.
    // One whose step would itself read as expected cannot be told from a healthy run by the step alone.
    let tol = tolerance(s.input().fabric).share;
    let band = super::as_expected_band(e, tol);
    let spread = if expected > 0.0 { band[1] / expected } else { 1.0 };
    let mut kept = Vec::new();
    let mut cannot_tell = Vec::new();
    for c in causes {
        let (fastest, slowest) = (c.step_s, c.step_max_s.or(c.step_s));
        if c.status == CONFIRMED {
            kept.push(c);
            continue;
        }
        if let Some(t) = slowest
            && t * spread < measured
        {
            ruled.push(RuledOut {
                id: c.id.clone(),
                why: format!(
                    "at its slowest it would give {} ({} with the model's spread of +{} on top): short of the \
                     measured {}",
                    secs(t),
                    secs(t * spread),
                    pct(spread - 1.0),
                    secs(measured)
                ),
            });
            continue;
        }
        if let Some(t) = fastest
            && t <= band[1]
            && c.id != "layout"
        {
            cannot_tell.push(RuledOut {
                id: c.id.clone(),
                why: format!(
                    "it would give {}, itself within what reads as expected ({} to {}): {}",
                    secs(t),
                    secs(band[0]),
                    secs(band[1]),
                    c.check.first().map_or("the evidence tells", String::as_str)
                ),
            });
        }
        kept.push(c);
    }
    let mut causes = kept;
    // How far the measured step is from what a cause gives (0 inside its range), as a log ratio.
    let distance = |c: &RunCause| match (c.step_s, c.step_max_s) {
        (Some(lo), Some(hi)) if (lo..=hi).contains(&measured) => 0.0,
        (Some(lo), hi) => (lo / measured).ln().abs().min(hi.map_or(f64::INFINITY, |h| (h / measured).ln().abs())),
        (None, _) => f64::INFINITY,
    };
    causes.sort_by(|a, b| {
        (b.status == CONFIRMED).cmp(&(a.status == CONFIRMED)).then_with(|| distance(a).total_cmp(&distance(b)))
    });
    if s.participants() > 1 && measured > expected && !causes.iter().any(|c| c.id == "straggler") {
        let straggler = straggler(e, measured);
        let at = causes.iter().position(|c| c.status != CONFIRMED && distance(c) > FITS.ln()).unwrap_or(causes.len());
        causes.insert(at, straggler);
    }
    if let Some(layout) = layout_cause(s) {
        causes.push(layout);
    }
    if verdict != RunVerdict::SlowerThanExpected {
        // Nothing to explain: keep only the advice on the layout, and what the evidence confirms is wrong.
        causes.retain(|c| c.id == "layout" || c.status == CONFIRMED);
        ruled.clear();
    } else {
        // The run is slow: the causes are ranked against its step, not weighed against a healthy one.
        cannot_tell.clear();
    }
    Found { causes, ruled_out: ruled, cannot_tell, evidence }
}

/// A straggler: the excess over the expected step as one node's slower compute.
fn straggler(e: &StepEstimate, measured: f64) -> RunCause {
    let excess = measured - e.step_s.as_secs();
    let compute = e.compute_s.as_secs();
    let slower = if compute > 0.0 { format!(" {} slower", pct(excess / compute)) } else { String::new() };
    RunCause {
        id: "straggler".into(),
        text: format!(
            "one node (or GPU) computing{slower} than the others makes every rank wait for it at each \
             collective, which is the {} over the expected step",
            secs(excess)
        ),
        check: strings(&[
            "time the single-node step on each node: the slowest one is the straggler",
            "nvidia-smi -q -d PERFORMANCE,CLOCK,TEMPERATURE on each node: throttling, lower clocks, a hot GPU",
            "the data loader, storage and CPU of each node (a rank waiting for input stalls every collective)",
        ]),
        status: POSSIBLE,
        step_s: None,
        step_max_s: None,
    }
}

/// A layout that sends less over the network, when the layout advice finds one faster by more than
/// [`SAME_STEP`].
fn layout_cause(s: &Scenario) -> Option<RunCause> {
    if s.nodes() <= 1 {
        return None;
    }
    let a = advise(s)?;
    let own = s.input().sync;
    if a.best == own || a.step_s.as_secs() >= a.current_step_s.as_secs() * (1.0 - SAME_STEP) {
        return None;
    }
    Some(RunCause {
        id: "layout".into(),
        text: format!("the layout sends more over the network than needed: {}", a.headline),
        check: vec![format!("run with {} (--sync {})", a.description, a.best.name())],
        status: POSSIBLE,
        step_s: Some(a.step_s.as_secs()),
        step_max_s: None,
    })
}

/// What a nccl-tests run on the same nodes says: a healthy one rules the fabric out; a slow one confirms it, with
/// the step its bus bandwidth gives (against the measured `step`).
fn nccl_tests_evidence(
    s: &Scenario,
    step: f64,
    h: &Health,
    causes: &mut Vec<RunCause>,
    ruled: &mut Vec<RuledOut>,
    evidence: &mut Vec<String>,
) {
    let measured = h.large.measured_busbw_gbs;
    let share = pct(h.large.ratio);
    match h.verdict {
        Verdict::Mismatch => {
            evidence.push(format!("The nccl-tests run is not from this hardware: {}.", h.mismatch.join("; ")));
        }
        Verdict::Healthy => {
            evidence.push(format!(
                "The nccl-tests run reads healthy: {} GB/s, {share} of the model's {} GB/s.",
                num(measured, 1),
                num(h.large.expected_busbw_gbs, 1)
            ));
            let why = format!(
                "a nccl-tests run on these nodes reads healthy ({} GB/s, {share} of the model's), unless the training \
                 job runs with other NCCL settings than the test",
                num(measured, 1)
            );
            for id in ["socket-fallback", "gdr-off", "fewer-nics", "gpu-far-from-nic"] {
                rule_out(causes, ruled, id, why.clone());
            }
        }
        Verdict::Degraded | Verdict::Unhealthy => {
            evidence.push(format!(
                "The nccl-tests run reads {}: {} GB/s, {share} of the model's {} GB/s.",
                h.verdict.name(),
                num(measured, 1),
                num(h.large.expected_busbw_gbs, 1)
            ));
            for c in &h.causes {
                confirm(causes, &c.id, "the nccl-tests run's evidence shows it");
            }
            // The step with the bandwidth the run measured, scaled to the all-reduce's own figure.
            let busbw = model_peak_busbw_gbs(s) * h.large.ratio;
            if let Some(t) = step_at(s, busbw.max(crate::scenario::limits::MIN_FRACTION)) {
                causes.push(RunCause {
                    id: "fabric-slow".into(),
                    text: format!(
                        "the fabric itself is slow: nccl-tests on these nodes measures {} GB/s, {share} of what the \
                         hardware should give; with that bandwidth the step would be {}{}",
                        num(measured, 1),
                        secs(t),
                        if t * (1.0 + tolerance(s.input().fabric).share) < step {
                            format!(", which does not explain {} alone", secs(step))
                        } else {
                            String::new()
                        }
                    ),
                    check: strings(&[
                        "probe-cli health with the run, its NCCL_DEBUG=INFO log and nvidia-smi topo -m names the cause",
                    ]),
                    status: CONFIRMED,
                    step_s: Some(t),
                    step_max_s: None,
                });
            }
        }
    }
}
