//! The layout of a job whose user did not give one: the fastest sync strategy that fits in memory, its tensor,
//! pipeline and expert parallelism kept. `estimate step`, `plan` and the report's hint choose when `--sync` is not
//! given, and say so (`layout_source: "chosen"`); a layout given (`--sync ddp`) is kept exactly, and `check-run`
//! and `health`, which judge a run that used its own layout, never choose.

use serde::Serialize;

use crate::human::{gib, secs};
use crate::memory::memory_fit;
use crate::scenario::{Scenario, ScenarioError, ScenarioInput, SyncStrategy};
use crate::step::estimate_step;

/// Where a scenario's layout comes from (`layout_source` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LayoutSource {
    /// The user gave it.
    Given,
    /// [`choose_sync`] chose it.
    Chosen,
}

/// A chosen layout and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayoutChoice {
    /// The sync strategy chosen.
    pub sync: SyncStrategy,
    /// Whether it fits (false only when none does: then the one that needs the least memory per GPU).
    pub fits: bool,
    /// Why, in one sentence with the figures.
    pub why: String,
}

/// The fastest of the sync strategies that fit `input`'s GPUs, or, when none fits, the one that needs the least
/// memory per GPU; the others' figures in the sentence. An error only when no strategy makes a valid scenario
/// (then DDP's error, which names the field).
pub fn choose_sync(input: &ScenarioInput) -> Result<(Scenario, LayoutChoice), ScenarioError> {
    let mut tried: Vec<(Scenario, f64, bool, f64)> = Vec::new();
    let mut first_err = None;
    for sync in SyncStrategy::ALL {
        let mut i = input.clone();
        i.sync = sync;
        if sync != SyncStrategy::Hsdp {
            i.shard_group = None;
        }
        match Scenario::new(i) {
            // HSDP over a shard group of one GPU (a node with one data-parallel GPU) is DDP under another name.
            Ok(s) if s.layout().is_degenerate_hsdp() => {}
            Ok(s) => {
                let m = memory_fit(&s);
                let step = estimate_step(&s).step_s.as_secs();
                tried.push((s, step, m.fits, m.total_bytes_per_gpu.get()));
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    // The fastest that fits; among those within SAME_STEP of it, the first in SyncStrategy::ALL's order (the
    // simplest): the model cannot tell steps 1% apart, and a simpler layout is the better advice then.
    let fastest = tried.iter().filter(|t| t.2).map(|t| t.1).min_by(f64::total_cmp);
    let best = match fastest {
        Some(f) => tried.iter().position(|t| t.2 && t.1 <= f * (1.0 + super::layout::SAME_STEP)),
        None => tried.iter().enumerate().min_by(|a, b| a.1.3.total_cmp(&b.1.3)).map(|(i, _)| i),
    };
    let Some(at) = best else {
        return Err(first_err.unwrap_or_else(|| ScenarioError::missing(crate::Field::Params, "no layout")));
    };
    let (s, step, fits, need) = tried.remove(at);
    let sync = s.input().sync;
    let label = s.layout().describe();
    let others: Vec<String> = tried
        .iter()
        .map(|(o, t, f, n)| {
            let d = o.layout().describe();
            if *f {
                format!("{d} {}", secs(crate::Seconds::new(*t)))
            } else {
                format!("{d} needs {}", gib(crate::Bytes::new(*n)))
            }
        })
        .collect();
    // A bare parameter count sizes its activations from the generic shape of that size: said, with how to do better.
    let states_only = if memory_fit(&s).activations_from == crate::memory::ActivationSource::Generic {
        " with a generic shape's activations (--model for a model's own)"
    } else {
        ""
    };
    let why = if fits {
        format!(
            "{label}, chosen: the fastest layout that fits ({} per step, {} per GPU{states_only}; {}). Give --sync \
             to keep another",
            secs(crate::Seconds::new(step)),
            gib(crate::Bytes::new(need)),
            others.join(", ")
        )
    } else {
        format!(
            "{label}, chosen: no layout fits, and this one needs the least memory, {} per GPU ({})",
            gib(crate::Bytes::new(need)),
            others.join(", ")
        )
    };
    Ok((s, LayoutChoice { sync, fits, why }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_layout_that_fits_is_chosen_and_said() {
        // 7B on 2 x 8 H100: DDP's 20 bytes per parameter (130 GiB) do not fit an 80 GB H100; a sharded one does.
        let (s, c) = choose_sync(&ScenarioInput::default()).expect("a layout");
        assert!(c.fits && c.sync != SyncStrategy::Ddp, "{c:?}");
        assert!(memory_fit(&s).fits);
        assert!(c.why.contains("chosen: the fastest layout that fits") && c.why.contains("DDP needs"), "{}", c.why);
        // No layout that fits is faster than the chosen one by more than the model can tell apart.
        for sync in SyncStrategy::ALL {
            let o = s.with(|i| i.sync = sync).expect("valid");
            if memory_fit(&o).fits {
                let (other, chosen) = (estimate_step(&o).step_s.as_secs(), estimate_step(&s).step_s.as_secs());
                assert!(other * (1.0 + super::super::layout::SAME_STEP) >= chosen, "{sync:?}");
            }
        }
        // A model too large for the GPUs: the least memory, said.
        let huge = ScenarioInput { params: 5e12, ..ScenarioInput::default() };
        let (_, c) = choose_sync(&huge).expect("a layout");
        assert!(!c.fits && c.why.contains("no layout fits"), "{}", c.why);
    }

    #[test]
    fn one_gpu_nodes_get_ddp_not_hsdp_over_one_gpu() {
        // A cloud VM with one H200 per node (tests/fixtures/nodes/h200-vm): HSDP's default shard group is the node's
        // one GPU, which is DDP under another name; DDP, ZeRO-1 and HSDP tie, and the simplest is the advice. 5B, so
        // that DDP's 20 bytes per parameter fit the H200 (7B's 140 GB do not, beside the activations).
        let one = ScenarioInput {
            gpu: "h200".into(),
            gpus_per_node: 1,
            adapters_per_node: 1,
            params: 5e9,
            ..Default::default()
        };
        let (s, c) = choose_sync(&one).expect("a layout");
        assert_eq!(c.sync, SyncStrategy::Ddp, "{}", c.why);
        assert!(!c.why.contains("HSDP") && s.warnings().iter().all(|w| !w.contains("HSDP")), "{}", c.why);
        let advice = crate::recommend::layout::advise(&s).expect("two GPUs");
        assert!(advice.options.iter().all(|o| o.sync != SyncStrategy::Hsdp), "{:?}", advice.options);
    }
}
