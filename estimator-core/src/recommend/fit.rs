//! The layout that fits when the scenario's does not on any number of nodes: its activations alone exceed a GPU's
//! memory, which more data-parallel GPUs never change. Tensor parallelism over the node, pipeline stages and
//! activation checkpointing each cut them (Korthikanti et al. 2022, table 2: 34 sbh / t per layer, L / p layers
//! a stage, 2 sbh a layer with full recomputation).

use crate::layout::Layout;
use crate::memory::memory_fit;
use crate::scenario::{Scenario, SyncStrategy};

/// Pipeline stages tried, as Megatron-LM's recipes set them (powers of two).
const STAGES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

/// The layout with ZeRO-3/FSDP that holds the job on the fewest GPUs when the scenario's own holds it on none:
/// tensor parallelism over the node (the largest power of two that divides its GPUs and the model's heads, or the
/// scenario's if larger), with each number of pipeline stages and with and without activation checkpointing
/// (under 1F1B the first stage still holds p micro-batches of L/p layers: stages shrink the states, recomputation
/// the activations). The layout and the GPUs it needs; `None` when none of these fits either.
pub fn fitting_layout(s: &Scenario) -> Option<(Layout, u64)> {
    let gpn = s.gpus_per_node();
    let shape = s.shape();
    let splits = |t: u32| gpn.is_multiple_of(t) && shape.heads.is_multiple_of(t) && shape.kv_heads.is_multiple_of(t);
    let tp = STAGES.into_iter().rev().find(|t| splits(*t)).unwrap_or(1).max(s.layout().tp);
    let mut best: Option<(Layout, u64)> = None;
    for checkpointing in [s.layout().activation_checkpointing, true] {
        for pp in STAGES.into_iter().filter(|p| *p <= shape.layers && *p >= s.layout().pp) {
            let v = s.with(|i| {
                i.sync = SyncStrategy::Zero3;
                i.tp = i64::from(tp);
                i.pp = i64::from(pp);
                i.activation_checkpointing = checkpointing;
                i.micro_batches = None;
                // Enough nodes for one replica of tensor x pipeline parallelism.
                i.nodes = i.nodes.max(i64::from((tp * pp).div_ceil(gpn.max(1))));
            });
            let found = v.ok().and_then(|v| memory_fit(&v).min_gpus_zero3.map(|g| (*v.layout(), g)));
            // The fewest GPUs; on a tie the first tried (fewer stages, no recomputation).
            if let Some(f) = found.filter(|f| best.is_none_or(|b| f.1 < b.1)) {
                best = Some(f);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recommend::{recommend_brief, recommend_with};
    use crate::scenario::{ComputeInput, ScenarioInput};
    use crate::step::estimate_step;

    #[test]
    fn a_405b_job_fits_with_tensor_and_pipeline_parallelism() {
        // Llama 3.1 405B at 8,192-token sequences: 126 layers x 34 x 8192 x 16384 bytes per GPU without
        // parallelism, far over an 80 GiB H100; TP 8 and pipeline stages bring them in.
        let s = Scenario::new(ScenarioInput {
            params: 405e9,
            model: Some("llama-3.1-405b".into()),
            sync: SyncStrategy::Zero3,
            seq_len: 8192,
            nodes: 16,
            compute: ComputeInput::Tokens { tokens_per_step: 16e6, mfu: 0.4 },
            ..ScenarioInput::default()
        })
        .expect("valid");
        assert!(memory_fit(&s).min_gpus_zero3.is_none(), "as laid out it fits on no number of GPUs");
        let (l, gpus) = fitting_layout(&s).expect("a layout fits");
        assert_eq!(l.tp, 8);
        // TP 8 alone leaves about 13 GB for states (some 500 GPUs); recomputation frees far more.
        assert!(l.activation_checkpointing, "{l:?}");
        assert!(gpus < 200, "{gpus}");
        let v = s
            .with(|i| {
                i.tp = 8;
                i.pp = i64::from(l.pp);
                i.activation_checkpointing = l.activation_checkpointing;
                i.nodes = i64::try_from(gpus.div_ceil(8)).unwrap_or(i64::MAX);
            })
            .expect("valid");
        let m = memory_fit(&v);
        assert!(m.activation_bytes_per_gpu < m.gpu_memory_bytes, "{m:?}");
        // The fewest GPUs hold 405e9 x 16 bytes over the memory the activations leave.
        assert!(gpus as f64 >= 405e9 * 16.0 / m.gpu_memory_bytes.get());
    }

    #[test]
    fn a_job_whose_activations_fit_no_gpu_is_told_the_layout_that_fits() {
        // Issue 39: 405B at 8,192-token sequences with no tensor parallelism, pipeline or recomputation: its
        // activations alone exceed an 80 GiB H100, whatever the number of nodes.
        let mut i = ScenarioInput {
            params: 405e9,
            sync: SyncStrategy::Zero3,
            nodes: 16,
            seq_len: 8192,
            compute: ComputeInput::Tokens { tokens_per_step: 16e6, mfu: 0.4 },
            ..ScenarioInput::default()
        };
        let s = Scenario::new(i.clone()).expect("valid");
        let (step, mem) = (estimate_step(&s), memory_fit(&s));
        assert!(mem.min_gpus_zero3.is_none());
        let full = recommend_with(&s, &step, &mem);
        assert!(full.headline.starts_with("Needs several nodes: at least"), "{}", full.headline);
        let (l, _) = fitting_layout(&s).expect("a layout fits");
        assert!(full.headline.ends_with(&format!("with {}", l.describe())) || l.activation_checkpointing);
        assert!(full.min_nodes.is_some_and(|n| n > 1), "{:?}", full.min_nodes);
        assert!(
            full.reasons.iter().any(|r| r.contains("as laid out no number of nodes fits; with")),
            "{:?}",
            full.reasons
        );
        // The first load's brief answer says where to look rather than search.
        let brief = recommend_brief(&s, &step, &mem);
        assert!(brief.headline.starts_with("Does not fit as laid out"), "{}", brief.headline);
        // With the layout it names, the job fits on that many nodes.
        i.tp = i64::from(l.tp);
        i.pp = i64::from(l.pp);
        i.activation_checkpointing = l.activation_checkpointing;
        i.nodes = i64::from(full.min_nodes.unwrap_or(1));
        let fitted = Scenario::new(i).expect("valid");
        assert!(memory_fit(&fitted).fits, "{}", full.headline);
    }
}
