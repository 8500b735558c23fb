//! Which layout keeps the slow link out of the way: the same job with each synchronisation (DDP, ZeRO-1/2,
//! ZeRO-3/FSDP, HSDP with the shard inside a node), its tensor, pipeline and expert parallelism kept, compared on
//! the scenario's hardware among those that fit in memory.

use serde::Serialize;

use crate::human::{gb, times};
use crate::memory::memory_fit;
use crate::scenario::{Scenario, SyncStrategy};
use crate::step::estimate_step;
use crate::units::{Bytes, Seconds};

/// Steps closer than this share are the same for the advice: the model is not that precise (README, the step
/// replay), and changing a job's layout costs more than 1% of a step.
pub const SAME_STEP: f64 = 0.01;

/// One layout of the comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayoutOption {
    /// The synchronisation.
    pub sync: SyncStrategy,
    /// The layout in a few words.
    pub description: String,
    /// Whether its model states and activations fit in the GPU's memory.
    pub fits: bool,
    /// Its step.
    pub step_s: Seconds,
    /// Each GPU's share of the bytes through its node's network adapters per step.
    pub network_bytes_per_gpu: Bytes,
}

/// The layout advice. Keys are the JSON contract of `recommendation.layout`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayoutAdvice {
    /// The fastest layout that fits (the scenario's own on a tie).
    pub best: SyncStrategy,
    /// It in a few words.
    pub description: String,
    /// Its step.
    pub step_s: Seconds,
    /// The scenario's own step.
    pub current_step_s: Seconds,
    /// The advice in one sentence, with figures.
    pub headline: String,
    /// Every layout compared, in [`SyncStrategy::ALL`]'s order.
    pub options: Vec<LayoutOption>,
}

/// Compares the scenario's job under each synchronisation; `None` on one GPU, where there is nothing to
/// synchronise.
pub fn advise(s: &Scenario) -> Option<LayoutAdvice> {
    if s.participants() <= 1 {
        return None;
    }
    let own = s.input().sync;
    let mut options = Vec::new();
    for sync in SyncStrategy::ALL {
        let Ok(v) = s.with(|i| {
            i.sync = sync;
            if sync != SyncStrategy::Hsdp {
                i.shard_group = None;
            }
        }) else {
            continue;
        };
        // HSDP over one GPU is DDP under another name: not a layout to offer, unless it is the scenario's own.
        if sync != own && v.layout().is_degenerate_hsdp() {
            continue;
        }
        let e = estimate_step(&v);
        options.push(LayoutOption {
            sync,
            description: v.layout().describe(),
            fits: memory_fit(&v).fits,
            step_s: e.step_s,
            network_bytes_per_gpu: e.network_bytes_per_gpu,
        });
    }
    let current = options.iter().find(|o| o.sync == own)?.clone();
    let best = options
        .iter()
        .filter(|o| o.fits)
        .min_by(|a, b| {
            a.step_s.as_secs().total_cmp(&b.step_s.as_secs()).then_with(|| (b.sync == own).cmp(&(a.sync == own)))
        })
        .cloned();
    let headline = match &best {
        None => "No synchronisation fits this job in memory with this parallel layout: shard more (tensor or \
                 pipeline parallelism), checkpoint activations or add GPUs"
            .to_string(),
        Some(b) if b.sync == own => {
            format!(
                "{} is the fastest layout that fits for this job here: step {}",
                current.description, current.step_s
            )
        }
        Some(b) if current.fits && b.step_s.as_secs() >= current.step_s.as_secs() * (1.0 - SAME_STEP) => format!(
            "{} is as fast as any layout that fits here, within {} ({}: step {} instead of {})",
            current.description,
            crate::human::pct(SAME_STEP),
            b.description,
            b.step_s,
            current.step_s
        ),
        Some(b) => {
            let fewer = current.network_bytes_per_gpu.get() / b.network_bytes_per_gpu.get().max(1.0);
            let bytes = if s.nodes() > 1 && fewer >= 1.5 {
                format!(
                    " cuts each GPU's share of the traffic through the network adapters {} ({} instead of {}):",
                    times(fewer),
                    gb(b.network_bytes_per_gpu),
                    gb(current.network_bytes_per_gpu)
                )
            } else {
                String::new()
            };
            let fits = if current.fits { "" } else { ", and it fits in memory where yours does not" };
            format!(
                "{}{bytes} step {} instead of {} with {}{fits}",
                b.description, b.step_s, current.step_s, current.description
            )
        }
    };
    let best = best.unwrap_or(current.clone());
    Some(LayoutAdvice {
        best: best.sync,
        description: best.description,
        step_s: best.step_s,
        current_step_s: current.step_s,
        headline,
        options,
    })
}
