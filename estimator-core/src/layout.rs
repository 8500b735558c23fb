//! The parallel layout of a job: tensor, pipeline, expert and data parallel degrees, HSDP's shard group and the
//! micro-batches, checked against the GPU count and the model's shape; and where each group's ranks sit.
//!
//! Ranks are placed as Megatron-LM places them (`parallel_state.py`, order `tp-cp-ep-dp-pp`): tensor-parallel
//! ranks are adjacent, so a tensor-parallel group stays inside a node when its degree is at most the GPUs per
//! node; data-parallel ranks follow at a stride of `tp`; pipeline stages are outermost. The routed experts have
//! their own decomposition of a stage's ranks (megatron-core's MoE parallel folding: `initialize_model_parallel`
//! builds `expert_decoder_rank_generator` with `tp=expert_tensor_parallel_size, ep=expert_model_parallel_size,
//! dp=expert_data_parallel_size`, order `tp-ep-dp-pp`): expert tensor-parallel ranks are adjacent, an
//! expert-parallel group's ranks follow at a stride of `etp`, and the expert-data-parallel ranks (those holding
//! the same experts) at a stride of `etp x ep`. So an expert-parallel degree can exceed the data-parallel one,
//! and TP 2 with EP 8 and ETP 1 keeps the expert-parallel group inside an 8-GPU node.

use serde::Serialize;

use crate::scenario::{ComputeInput, Field, Reason, ScenarioError, ScenarioInput, SyncStrategy};
use crate::shape::{self, ModelShape};

/// A validated layout.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Layout {
    /// The gradient synchronisation.
    pub sync: SyncStrategy,
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline stages.
    pub pp: u32,
    /// Data-parallel degree: GPUs / (tp x pp).
    pub dp: u32,
    /// Expert-parallel degree (1 for a dense model).
    pub ep: u32,
    /// Expert tensor-parallel degree: each routed expert split over this many ranks (the tensor-parallel degree
    /// unless set, as in megatron-core).
    pub etp: u32,
    /// GPUs a ZeRO-3/FSDP shard spans: all data-parallel ranks, HSDP's group, or 1 for DDP and ZeRO-1/2's
    /// parameters.
    pub shard_group: u32,
    /// Micro-batches (forward and backward passes) per optimizer step on each data-parallel rank.
    pub micro_batches: u32,
    /// Tokens per sequence.
    pub seq_len: u32,
    /// Sequences per micro-batch.
    pub micro_batch_size: u32,
    /// Activation checkpointing.
    pub activation_checkpointing: bool,
}

impl Layout {
    /// `ddp`, `fsdp x tp 8`: the layout in a few words.
    pub fn describe(&self) -> String {
        let mut out = self.sync.label().to_string();
        if self.sync == SyncStrategy::Hsdp {
            out.push_str(&format!(" (shard over {})", self.shard_group));
        }
        for (name, n) in [("TP", self.tp), ("PP", self.pp), ("EP", self.ep)] {
            if n > 1 {
                out.push_str(&format!(" + {name} {n}"));
            }
        }
        if self.etp != self.tp {
            out.push_str(&format!(" (ETP {})", self.etp));
        }
        out
    }

    /// HSDP over a shard group of one GPU: nothing is sharded, and the layout is DDP under another name.
    pub fn is_degenerate_hsdp(&self) -> bool {
        self.sync == SyncStrategy::Hsdp && self.shard_group <= 1
    }

    /// Layers of the first (largest) pipeline stage of a model of `layers` layers.
    pub fn stage_layers(&self, layers: u32) -> u32 {
        layers.div_ceil(self.pp.max(1))
    }

    /// Expert-data-parallel degree: the ranks of a stage (tensor x data parallel) over `etp x ep`, the ranks that
    /// hold the same experts (megatron-core's `expert_data_parallel_size`).
    pub fn expert_dp(&self) -> u32 {
        (self.tp.saturating_mul(self.dp) / self.etp.saturating_mul(self.ep).max(1)).max(1)
    }

    /// Tokens in one micro-batch on one GPU.
    pub fn micro_batch_tokens(&self) -> f64 {
        f64::from(self.seq_len) * f64::from(self.micro_batch_size)
    }
}

/// Where a communication group's ranks sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// Ranks in the group.
    pub ranks: u32,
    /// Of those, ranks in one node.
    pub per_node: u32,
    /// Nodes the group spans.
    pub nodes: u32,
    /// Groups of this kind that share each node's adapters at the same time (one per node's other ranks).
    pub sharing: u32,
    /// Of its ranks, those in one NVLink domain (`per_node` when the domain is the node).
    pub per_domain: u32,
    /// NVLink domains the group spans (`nodes` when the domain is the node).
    pub domains: u32,
}

impl Group {
    /// Whether the group spans nodes (over the network, or over NVLink inside one NVLink domain).
    pub fn crosses_nodes(&self) -> bool {
        self.nodes > 1
    }

    /// Whether the group's traffic crosses the network: it spans NVLink domains.
    pub fn crosses_domains(&self) -> bool {
        self.domains > 1
    }

    /// A group of `ranks` ranks at a stride of `stride` over nodes of `gpn` GPUs, each its own NVLink domain.
    pub fn strided(ranks: u32, stride: u32, gpn: u32) -> Group {
        Group::placed(ranks, stride, gpn, gpn)
    }

    /// A group of `ranks` ranks at a stride of `stride` over nodes of `gpn` GPUs in NVLink domains of `gpd`.
    pub fn placed(ranks: u32, stride: u32, gpn: u32, gpd: u32) -> Group {
        let ranks = ranks.max(1);
        let stride = stride.max(1);
        // Ranks of the group that land in one node (domain): gpn / stride of them when the stride fits.
        let within = |size: u32| if stride >= size { 1 } else { (size / stride).clamp(1, ranks) };
        let per_node = within(gpn);
        let nodes = ranks.div_ceil(per_node);
        let sharing = if nodes > 1 { (gpn / per_node).max(1) } else { 1 };
        let per_domain = within(gpd.max(gpn)).max(per_node);
        Group { ranks, per_node, nodes, sharing, per_domain, domains: ranks.div_ceil(per_domain) }
    }
}

/// The groups of a layout on nodes of `gpn` GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Groups {
    /// A tensor-parallel group.
    pub tp: Group,
    /// A data-parallel group (all data-parallel ranks of one model shard).
    pub dp: Group,
    /// A ZeRO-3/HSDP shard group (the data-parallel ranks that shard one copy of the states).
    pub shard: Group,
    /// HSDP's replica group: one rank of each shard group.
    pub replica: Group,
    /// An expert-parallel group: `ep` ranks at a stride of `etp`.
    pub ep: Group,
    /// An expert-data-parallel group: the ranks holding the same experts, at a stride of `etp x ep`.
    pub expert_dp: Group,
    /// Two neighbouring pipeline stages.
    pub pp: Group,
}

/// Where the layout's groups sit on nodes of `gpn` GPUs in NVLink domains of `gpd` GPUs (`gpn` when the domain
/// is the node).
pub fn groups(l: &Layout, gpn: u32, gpd: u32) -> Groups {
    let at = |ranks: u32, stride: u32| Group::placed(ranks, stride, gpn, gpd);
    let tp = at(l.tp, 1);
    let dp = at(l.dp, l.tp);
    let shard = at(l.shard_group, l.tp);
    let replica = at(l.dp / l.shard_group.max(1), l.tp.saturating_mul(l.shard_group));
    let ep = at(l.ep, l.etp);
    let expert_dp = at(l.expert_dp(), l.etp.saturating_mul(l.ep));
    let stage_stride = l.tp.saturating_mul(l.dp);
    let pp = at(if l.pp > 1 { 2 } else { 1 }, stage_stride);
    Groups { tp, dp, shard, replica, ep, expert_dp, pp }
}

/// Whether an error is about the parallel layout (its degrees, shard group, micro-batches), which a sweep over node
/// counts skips rather than fails on.
pub fn is_layout_field(f: Field) -> bool {
    matches!(f, Field::Tp | Field::Pp | Field::Ep | Field::Etp | Field::ShardGroup | Field::MicroBatches)
}

fn layout_err(field: Field, why: String) -> ScenarioError {
    ScenarioError { field, reason: Reason::Layout { why } }
}

fn degree(field: Field, v: i64, max: i64) -> Result<u32, ScenarioError> {
    crate::scenario::count_in(field, v, 1, max)
}

/// The shape of a scenario: the catalog model it names, or the generic shape of its parameter count.
pub fn resolve_shape(input: &ScenarioInput) -> Result<ModelShape, ScenarioError> {
    match input.model.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        None => Ok(shape::generic(input.params)),
        Some(name) => shape::lookup(name).copied().ok_or_else(|| ScenarioError {
            field: Field::Model,
            reason: Reason::Unknown { what: "model", got: name.to_string(), known: shape::keys() },
        }),
    }
}

/// Checks the layout of `input` on `gpus` GPUs in nodes of `gpn`, and the warnings it deserves.
pub fn resolve(
    input: &ScenarioInput,
    shape: &ModelShape,
    gpus: u32,
    gpn: u32,
) -> Result<(Layout, Vec<String>), ScenarioError> {
    let mut warnings = Vec::new();
    let max = i64::from(gpus);
    let tp = degree(Field::Tp, input.tp, max)?;
    let pp = degree(Field::Pp, input.pp, max)?;
    let ep = degree(Field::Ep, input.ep, max)?;
    if !gpus.is_multiple_of(tp) {
        return Err(layout_err(Field::Tp, format!("{tp} must divide the job's {gpus} GPUs")));
    }
    if !(gpus / tp).is_multiple_of(pp) {
        let both = u64::from(tp) * u64::from(pp);
        return Err(layout_err(Field::Pp, format!("tp x pp = {both} must divide the job's {gpus} GPUs")));
    }
    let dp = gpus / tp / pp;
    // Tensor-parallel groups line up with nodes: a part of one node, or whole nodes.
    if (tp < gpn && !gpn.is_multiple_of(tp)) || (tp > gpn && tp % gpn != 0) {
        return Err(layout_err(
            Field::Tp,
            format!("{tp} must divide the {gpn} GPUs of a node or be a multiple of them"),
        ));
    }
    // Megatron-LM splits the key/value heads too (`num_query_groups` must divide by the TP size).
    if shape.key != "generic" && !shape.kv_heads.is_multiple_of(tp) && tp <= shape.heads {
        return Err(layout_err(
            Field::Tp,
            format!("{tp} must divide {}'s {} key/value heads", shape.name, shape.kv_heads),
        ));
    }
    if shape.key != "generic" && !shape.heads.is_multiple_of(tp) {
        return Err(layout_err(
            Field::Tp,
            format!("{tp} must divide {}'s {} attention heads", shape.name, shape.heads),
        ));
    }
    if pp > shape.layers {
        let layers = if shape.layers == 1 { "layer" } else { "layers" };
        return Err(layout_err(
            Field::Pp,
            format!("{pp} stages, but {} has {} {layers}: at most one stage per layer", shape.name, shape.layers),
        ));
    }
    if ep > 1 {
        let Some(moe) = shape.moe.filter(|_| shape.is_moe()) else {
            return Err(layout_err(
                Field::Ep,
                format!("{ep} needs a mixture-of-experts model (a model with experts); {} has none", shape.name),
            ));
        };
        if moe.experts % ep != 0 {
            return Err(layout_err(Field::Ep, format!("{ep} must divide {}'s {} experts", shape.name, moe.experts)));
        }
    }
    let etp = match input.etp {
        Some(v) => degree(Field::Etp, v, max)?,
        None => tp,
    };
    if etp != tp && !shape.is_moe() {
        return Err(layout_err(
            Field::Etp,
            format!("{etp} splits routed experts; {} has none (leave it unset)", shape.name),
        ));
    }
    // Expert tensor-parallel groups line up with nodes, as tensor-parallel ones do.
    if (etp < gpn && !gpn.is_multiple_of(etp)) || (etp > gpn && etp % gpn != 0) {
        return Err(layout_err(
            Field::Etp,
            format!("{etp} must divide the {gpn} GPUs of a node or be a multiple of them"),
        ));
    }
    // megatron-core: "decoder world_size ... is not divisible by expert_tensor_model_pipeline_parallel size".
    let stage = u64::from(tp) * u64::from(dp);
    let expert_block = u64::from(etp) * u64::from(ep);
    if !stage.is_multiple_of(expert_block) {
        let (field, what) = if input.etp.is_some() { (Field::Etp, "ep x etp") } else { (Field::Ep, "ep x tp") };
        return Err(layout_err(
            field,
            format!("{what} = {expert_block} must divide a pipeline stage's {stage} GPUs (tensor x data parallel)"),
        ));
    }
    // Inside an NVLink domain of whole nodes (NVL72) tensor parallelism across trays stays on NVLink.
    let domain = input.nvlink_domain_gpus.and_then(|d| u32::try_from(d).ok()).unwrap_or(gpn).max(gpn);
    if tp > domain {
        warnings.push(format!(
            "tensor parallel degree {tp} spans nodes of {gpn} GPUs: its all-reduces cross the network in every \
             layer; keep it at most {domain}"
        ));
    }
    let shard_group = match input.sync {
        SyncStrategy::Zero3 => dp,
        SyncStrategy::Hsdp => {
            let default = (gpn / tp.min(gpn)).clamp(1, dp);
            let g = match input.shard_group {
                Some(g) => degree(Field::ShardGroup, g, i64::from(dp))?,
                None => default,
            };
            if !dp.is_multiple_of(g) {
                return Err(layout_err(Field::ShardGroup, format!("{g} must divide the data-parallel degree {dp}")));
            }
            // Groups line up with nodes: a part of one node's data-parallel ranks, or whole nodes.
            let node = (gpn / tp).max(1);
            if tp <= gpn && g % node != 0 && !node.is_multiple_of(g) {
                return Err(layout_err(
                    Field::ShardGroup,
                    format!("{g} must divide a node's {node} data-parallel GPUs or be a multiple of them"),
                ));
            }
            g
        }
        _ => 1,
    };
    let seq_len = crate::scenario::count_in(Field::SeqLen, input.seq_len, 1, 10_000_000)?;
    let micro_batch_size = crate::scenario::count_in(Field::MicroBatchSize, input.micro_batch_size, 1, 1_000_000)?;
    let micro_batches = match input.micro_batches {
        Some(m) => {
            let m = crate::scenario::count_in(Field::MicroBatches, m, 1, 1_000_000)?;
            if input.grad_accum_steps > 1 && i64::from(m) != input.grad_accum_steps {
                return Err(layout_err(
                    Field::MicroBatches,
                    format!(
                        "{m} differs from the {} gradient-accumulation steps; both count an optimizer step's \
                         micro-batches: give one",
                        input.grad_accum_steps
                    ),
                ));
            }
            m
        }
        None => default_micro_batches(input, dp, seq_len, micro_batch_size),
    };
    let batches = if micro_batches == 1 { "micro-batch" } else { "micro-batches" };
    if pp > 1 && micro_batches < pp {
        warnings.push(format!(
            "{pp} pipeline stages with {micro_batches} {batches} per step: the bubble is {}x the compute; more \
             micro-batches (--micro-batches) shrink it",
            crate::human::num(f64::from(pp - 1) / f64::from(micro_batches), 2)
        ));
    }
    if let ComputeInput::Tokens { tokens_per_step, .. } = input.compute {
        // Each data-parallel rank takes at least one micro-batch of whole sequences a step.
        let least = f64::from(dp) * f64::from(micro_batch_size) * f64::from(seq_len);
        if tokens_per_step < least {
            warnings.push(format!(
                "{} tokens per step are fewer than one micro-batch ({micro_batch_size} x {seq_len} tokens) for each \
                 of the {dp} data-parallel ranks: raise them or shorten the sequences",
                crate::human::count(tokens_per_step),
            ));
        }
    }
    if input.sync == SyncStrategy::Hsdp && shard_group == 1 {
        warnings.push(
            "HSDP's shard group is one GPU (a node holds one data-parallel GPU): nothing is sharded and HSDP is \
             DDP here; set the shard group (--shard-group) to a multiple of the node's data-parallel GPUs"
                .to_string(),
        );
    }
    let layout = Layout {
        sync: input.sync,
        tp,
        pp,
        dp,
        ep,
        etp,
        shard_group,
        micro_batches,
        seq_len,
        micro_batch_size,
        activation_checkpointing: input.activation_checkpointing,
    };
    Ok((layout, warnings))
}

/// Micro-batches when not given: the accumulation steps when set above 1; else, with tokens per step known, the
/// sequences each data-parallel rank processes over the micro-batch size (Megatron-LM's
/// `global_batch_size / (micro_batch_size x data_parallel_size)`); else 1.
fn default_micro_batches(input: &ScenarioInput, dp: u32, seq_len: u32, mbs: u32) -> u32 {
    if input.grad_accum_steps > 1 {
        return u32::try_from(input.grad_accum_steps).unwrap_or(u32::MAX);
    }
    match input.compute {
        ComputeInput::Tokens { tokens_per_step, .. } => micro_batches_of(tokens_per_step, seq_len, mbs, dp),
        ComputeInput::Given { .. } => 1,
    }
}

/// The micro-batches each data-parallel rank runs for `tokens_per_step` across the job: Megatron-LM's
/// `global_batch_size / (micro_batch_size x data_parallel_size)` in tokens, rounded up, 1 to 1,000,000.
pub fn micro_batches_of(tokens_per_step: f64, seq_len: u32, mbs: u32, dp: u32) -> u32 {
    let per_rank = tokens_per_step / (f64::from(seq_len) * f64::from(mbs) * f64::from(dp.max(1)));
    if per_rank.is_finite() { per_rank.ceil().clamp(1.0, 1e6) as u32 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_sit_where_megatron_puts_them() {
        // TP inside the node, DP across it.
        let dp = Group::strided(4, 8, 8);
        assert_eq!((dp.per_node, dp.nodes, dp.sharing), (1, 4, 8));
        let tp = Group::strided(8, 1, 8);
        assert_eq!((tp.per_node, tp.nodes), (8, 1));
        // DP of 16 at stride 2 on 8-GPU nodes: 4 per node over 4 nodes, 2 groups share each node.
        let g = Group::strided(16, 2, 8);
        assert_eq!((g.per_node, g.nodes, g.sharing), (4, 4, 2));
        // All 16 GPUs of two nodes.
        let all = Group::strided(16, 1, 8);
        assert_eq!((all.per_node, all.nodes, all.sharing), (8, 2, 1));
    }
}
