//! How a job's global batch follows its node count: the rule a sweep, a plan or the recommendation's one-node
//! comparison moves a scenario by, and what the comparison then holds equal.

use serde::Serialize;

use crate::scenario::{Scenario, ScenarioError};

/// How a job's global batch follows its node count in a sweep, a plan or the recommendation's one-node comparison.
/// A step's compute (`--compute-ms`, the page's compute) is the compute at the scenario's own node count: keeping
/// the global batch splits it over the GPUs, keeping the tokens per GPU keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BatchRule {
    /// The job's tokens per step at every node count: more GPUs split the same batch (strong scaling), so past
    /// some count communication outgrows the shrinking compute. Steps compare as they are: equal work.
    #[default]
    KeepGlobal,
    /// The job's tokens per GPU at every node count: the global batch grows with the GPUs (weak scaling), as a
    /// run that adds nodes to go faster usually does, within what the optimizer tolerates. Steps do unequal work:
    /// compare them per token.
    KeepPerGpu,
}

/// What a comparison between node counts holds equal, as the JSON says it (`comparison`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkCompared {
    /// Both sides run the same global batch: their steps do the same work.
    SameGlobalBatch,
    /// Both sides keep their tokens per GPU: a step of more GPUs does more work, so they compare per token.
    SamePerGpuBatch,
}

impl BatchRule {
    /// Its JSON and URL name.
    pub fn name(self) -> &'static str {
        match self {
            BatchRule::KeepGlobal => "keep-global",
            BatchRule::KeepPerGpu => "keep-per-gpu",
        }
    }

    /// What a comparison under this rule holds equal.
    pub fn compared(self) -> WorkCompared {
        match self {
            BatchRule::KeepGlobal => WorkCompared::SameGlobalBatch,
            BatchRule::KeepPerGpu => WorkCompared::SamePerGpuBatch,
        }
    }

    /// Reads a name as users type it.
    pub fn parse(s: &str) -> Option<BatchRule> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "keep-global" | "global" => Some(BatchRule::KeepGlobal),
            "keep-per-gpu" | "per-gpu" => Some(BatchRule::KeepPerGpu),
            _ => None,
        }
    }

    /// The tokens per step of a job of `tokens_per_step` on `gpus` GPUs when it runs on `to_gpus`.
    pub fn tokens_per_step(self, tokens_per_step: f64, gpus: u32, to_gpus: u32) -> f64 {
        match self {
            BatchRule::KeepGlobal => tokens_per_step,
            BatchRule::KeepPerGpu => tokens_per_step / f64::from(gpus.max(1)) * f64::from(to_gpus.max(1)),
        }
    }

    /// `input` moved to `nodes` nodes under this rule, from `from_gpus` GPUs. Its tokens per step follow the rule.
    /// Keeping the global batch, a compute given in milliseconds is split over the GPUs (each does `from / to` of
    /// its work) and so are its micro-batches (the user's count, or one; the tensor and pipeline degrees stay),
    /// rounded to the nearest, at least one. With tokens, the micro-batches are derived from them (or are the
    /// user's, as set). Keeping the tokens per GPU, a given compute and its micro-batches stay.
    pub fn apply(self, input: &mut crate::scenario::ScenarioInput, from_gpus: u32, nodes: u32) {
        use crate::scenario::ComputeInput;
        // The GPUs' share of the work each does on the new count: from / to.
        let share = f64::from(from_gpus.max(1)) / (input.gpus_per_node.max(1) as f64 * f64::from(nodes.max(1)));
        input.nodes = i64::from(nodes);
        let global = self == BatchRule::KeepGlobal;
        match &mut input.compute {
            ComputeInput::Tokens { tokens_per_step, .. } if !global => *tokens_per_step /= share,
            ComputeInput::Given { ms } if global => {
                *ms *= share;
                if share != 1.0 {
                    let accum = (input.grad_accum_steps > 1).then_some(input.grad_accum_steps);
                    let m = input.micro_batches.or(accum).unwrap_or(1);
                    // `as` saturates; the count is the micro-batches' from here.
                    input.micro_batches = Some(((m as f64 * share + 0.5) as i64).max(1));
                    input.grad_accum_steps = 1;
                }
            }
            _ => {}
        }
    }
}

/// `s` on `nodes` nodes with its global batch following `rule` (its hardware, layout and terms kept); a node
/// count above one gets an adapter where the scenario has none.
pub fn on_nodes(s: &Scenario, nodes: u32, rule: BatchRule) -> Result<Scenario, ScenarioError> {
    let gpus = s.participants();
    s.with(|i| {
        rule.apply(i, gpus, nodes);
        if nodes > 1 && i.adapters_per_node < 1 {
            i.adapters_per_node = 1;
        }
    })
}
