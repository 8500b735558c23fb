//! What of the step's traffic the frameworks' schedule hides behind compute, and what it leaves exposed. The rules
//! and where they are written (PyTorch v2.11.0, megatron-core 0.16.1, DeepSpeed v0.19.8):
//!
//! - DDP (and ZeRO-1/2's gradient reduce-scatter, ZeRO-2's on every micro-batch): buckets are laid out in reverse parameter order
//!   (`torch/nn/parallel/distributed.py` L1252-1258), a bucket's all-reduce starts as soon as its gradients are
//!   ready, in bucket order, behind the rest of the backward (`reducer.cpp` `mark_variable_ready`,
//!   `mark_bucket_ready`), and the backward returns only when all are done (`finalize_backward`); with gradient
//!   accumulation only the last micro-batch synchronises (`no_sync`). Exposed: what ends after the backward, at
//!   least the last bucket.
//! - ZeRO-1/2's gradient reduce-scatter without `overlap_grad_reduce` is one call after the backward: exposed.
//! - ZeRO-1/2's parameter all-gather runs after the optimizer step: exposed, unless `overlap_param_gather`
//!   (Megatron's) hides it behind the next forward, bucket by bucket ([`gathers_exposed`]).
//! - ZeRO-3/FSDP and HSDP: all-gathers run on their own stream, so the next unit's overlaps this unit's forward
//!   ("the 1st all-gather will not be able to overlap with anything", `docs/source/notes/fsdp.rst`, "FSDP
//!   Prefetch Nuances"), at most two in flight (`limit_all_gathers=True`, `fully_sharded_data_parallel.py` L411,
//!   `_limiter_utils.py` L15); in the backward the next unit's gather is issued before this unit's gradient
//!   (`BackwardPrefetch.BACKWARD_PRE`, the default) and its reduce-scatter after it, on one NCCL stream
//!   (`_runtime_utils.py` L264-266, L748-755). HSDP all-reduces each gradient shard across groups on its own
//!   stream (L853-872), once per optimizer step with FSDP2's `set_requires_all_reduce(False)` on the other
//!   micro-batches (`_fully_shard.py` L343-349).
//! - Tensor parallel: the forward's all-reduces sit between the layer's GEMMs, exposed; the backward's are issued
//!   asynchronously behind the weight-gradient GEMM (megatron-core `tensor_parallel/layers.py` L542-559);
//!   `--tp-comm-overlap` (off by default) hides them behind the GEMMs (`tp_overlap`).
//! - Expert parallel: 4 all-to-alls per MoE layer and micro-batch (`transformer/moe/token_dispatcher.py`
//!   L348-360, L661-671), exposed unless overlapped (`--overlap-moe-expert-parallel-comm`, off by default;
//!   DeepSeek-V3's DualPipe) (`ep_overlap`).
//! - Pipeline sends are exposed, and the 1F1B bubble adds (p - 1) / m of the compute (Narayanan et al.,
//!   "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC'21, section 2.2.1).
//!
//! A user's `overlap` replaces all of this: that share of the communication is hidden, at most the last
//! micro-batch's compute, as before the schedule existed.

use serde::Serialize;

use crate::scenario::Scenario;
use crate::traffic::{Kind, Traffic};
use crate::units::Seconds;

/// The backward pass costs twice the forward (Narayanan et al. SC'21, section 5.1: a forward and backward pass
/// is 3x the forward's FLOPs, the "6 x params" of [`crate::step::FLOPS_PER_PARAM_PER_TOKEN`]).
pub const BACKWARD_OVER_FORWARD: f64 = 2.0;

/// Where the hidden share comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OverlapSource {
    /// The frameworks' schedule.
    Schedule,
    /// The user's `overlap`.
    Set,
    /// Nothing hidden: the model without its schedule ([`crate::terms::Terms::schedule`] off), as the step
    /// replay scores the runs the schedule was written beside.
    None,
}

impl OverlapSource {
    /// `schedule` or `set`.
    pub fn name(self) -> &'static str {
        match self {
            OverlapSource::Schedule => "schedule",
            OverlapSource::Set => "set",
            OverlapSource::None => "none",
        }
    }
}

/// The step's communication after the schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overlap {
    /// All communication.
    pub comm: Seconds,
    /// Exposed communication.
    pub exposed: Seconds,
    /// The pipeline bubble.
    pub bubble: Seconds,
    /// Where the hidden share comes from.
    pub source: OverlapSource,
}

impl Overlap {
    /// Hidden communication.
    pub fn hidden(&self) -> Seconds {
        self.comm - self.exposed
    }

    /// Hidden / all communication (0 without communication).
    pub fn share(&self) -> f64 {
        if self.comm.as_secs() > 0.0 { self.hidden().as_secs() / self.comm.as_secs() } else { 0.0 }
    }
}

/// Sets each row's `exposed_s` for a step of `compute` and says what is hidden. `forward_share` is the share
/// of one micro-batch's compute that is the forward pass.
pub fn schedule(s: &Scenario, rows: &mut [Traffic], compute: Seconds, forward_share: f64) -> Overlap {
    let l = s.layout();
    let m = f64::from(l.micro_batches.max(1));
    let comm = rows.iter().fold(Seconds::ZERO, |a, r| a + r.time_s);
    let bubble = if l.pp > 1 { compute.scale(f64::from(l.pp - 1) / m) } else { Seconds::ZERO };
    // The user's share, as before the schedule; without the schedule (`Terms::schedule` off), none.
    let share = match s.input().overlap {
        Some(share) => Some((share, OverlapSource::Set)),
        None => (!s.terms().schedule).then_some((0.0, OverlapSource::None)),
    };
    if let Some((share, source)) = share {
        // At most the last accumulation step's compute is hidden.
        let window = compute.scale(1.0 / f64::from(s.grad_accum_steps()));
        let hidden = comm.scale(share).min(window);
        let exposed = comm - hidden;
        let ratio = if comm.as_secs() > 0.0 { exposed.as_secs() / comm.as_secs() } else { 0.0 };
        for r in rows.iter_mut() {
            r.exposed_s = r.time_s.scale(ratio);
        }
        return Overlap { comm, exposed, bubble, source };
    }

    let micro = compute.as_secs() / m;
    let forward = micro * forward_share;
    let backward = micro - forward;
    let find = |rows: &[Traffic], k: Kind| rows.iter().position(|r| r.kind == k);

    // DDP and ZeRO-1 buckets behind the last micro-batch's backward; ZeRO-2's behind every micro-batch's, but
    // Megatron's (`traffic::syncs_per_step`).
    // Every row of a kind: MoE layouts reduce the experts' gradients over their own group, a row of its own.
    for kind in [Kind::GradientAllReduce, Kind::GradientReduceScatter] {
        let of_kind: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].kind == kind).collect();
        for i in of_kind {
            let r = &rows[i];
            let per_step = crate::traffic::syncs_per_step(s);
            let calls = (r.calls as f64 / per_step).round().max(1.0) as u64;
            let exposed = if kind == Kind::GradientReduceScatter && !s.overlap_grad_reduce() {
                r.time_s.as_secs()
            } else {
                per_step * buckets_exposed(backward, calls, r.call_s().as_secs(), r.last_call_s().as_secs())
            };
            rows[i].exposed_s = Seconds::new(exposed.min(r.time_s.as_secs()));
        }
    }
    let gathers: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].kind == Kind::ParameterAllGather).collect();
    for i in gathers {
        let r = &rows[i];
        rows[i].exposed_s = if s.overlap_param_gather() {
            Seconds::new(gathers_exposed(forward, r.calls, r.call_s().as_secs()).min(r.time_s.as_secs()))
        } else {
            r.time_s
        };
    }

    // ZeRO-3/FSDP/HSDP units behind each micro-batch's forward and backward (with a shard group of one GPU,
    // HSDP has only the all-reduce).
    let ag = find(rows, Kind::FsdpAllGather);
    let rs = find(rows, Kind::FsdpReduceScatter);
    let ar = find(rows, Kind::HsdpAllReduce);
    if ag.is_some() || ar.is_some() {
        let units = match (ag, ar) {
            (Some(i), _) => rows[i].calls as f64 / (2.0 * m),
            (None, Some(i)) => rows[i].calls as f64,
            (None, None) => 1.0,
        }
        .round()
        .max(1.0);
        let t = |i: Option<usize>| i.map_or(0.0, |i| rows[i].call_s().as_secs());
        let (t_ag, t_rs, t_ar) = (t(ag), t(rs), t(ar));
        // Units are at most the layers of one stage plus one; the cast is exact.
        let n = units as usize;
        let plain = fsdp_micro_batch(forward, backward, n, t_ag, t_rs, None) - micro;
        let last = fsdp_micro_batch(forward, backward, n, t_ag, t_rs, ar.map(|_| t_ar)) - micro;
        let exposed = (plain.max(0.0) * (m - 1.0) + last.max(0.0)).max(0.0);
        let kinds: Vec<usize> = [ag, rs, ar].into_iter().flatten().collect();
        let total: f64 = kinds.iter().map(|&i| rows[i].time_s.as_secs()).sum();
        for i in kinds {
            let share = if total > 0.0 { rows[i].time_s.as_secs() / total } else { 0.0 };
            rows[i].exposed_s = Seconds::new((exposed * share).min(rows[i].time_s.as_secs()));
        }
    }

    // Tensor- and expert-parallel communication between a layer's computations; pipeline sends.
    for (kind, overlapped) in [(Kind::TpAllReduce, s.input().tp_overlap), (Kind::EpAllToAll, s.input().ep_overlap)] {
        if let Some(i) = find(rows, kind) {
            let time = rows[i].time_s;
            rows[i].exposed_s = if overlapped {
                (time - compute).max(Seconds::ZERO)
            } else if kind == Kind::TpAllReduce {
                // Megatron issues the backward's input-gradient all-reduce asynchronously, behind the weight-
                // gradient GEMM, half of the backward (megatron-core 0.16.1 `tensor_parallel/layers.py`
                // L542-559): the forward's calls are exposed, the backward's beyond that GEMM.
                // Two of the layer's four calls are the backward's (two of six with recomputation).
                let backward_calls = if l.activation_checkpointing { 1.0 / 3.0 } else { 0.5 };
                let bwd = time.scale(backward_calls);
                let wgrad = Seconds::new(m * backward / 2.0);
                time - bwd + (bwd - wgrad).max(Seconds::ZERO)
            } else {
                time
            };
        }
    }
    if let Some(i) = find(rows, Kind::PpSend) {
        rows[i].exposed_s = rows[i].time_s;
    }

    // Kinds on different links run side by side (HSDP's all-reduce beside its gathers, tensor parallel over
    // NVLink beside FSDP over the network): hidden communication can exceed the compute, never the step.
    let exposed = rows.iter().fold(Seconds::ZERO, |a, r| a + r.exposed_s);
    Overlap { comm, exposed, bubble, source: OverlapSource::Schedule }
}

/// Exposed time of `calls` buckets reduced behind a backward pass of `backward` seconds: bucket k of K is full
/// at k/K of the backward; the links take them one after another. The end is the latest of "bucket k ready plus
/// all calls from k on", linear in k, so one of the two ends.
pub fn buckets_exposed(backward: f64, calls: u64, call: f64, last: f64) -> f64 {
    if calls == 0 {
        return 0.0;
    }
    let k = calls as f64;
    let first_ready = backward / k;
    // The bucket reduced last holds what is left of the model's first parameters (DDP fills buckets in reverse
    // order): a model just past a multiple of the bucket size has a small last bucket, and a little less exposed.
    let end = (backward + last).max(first_ready + (k - 1.0) * call + last);
    (end - backward).max(0.0)
}

/// Exposed time of `calls` parameter all-gathers of `call` seconds each, issued back to back before a forward
/// pass of `forward` seconds that needs bucket k at k/K of it (Megatron's `--overlap-param-gather`: each
/// bucket's gather is waited on by the forward pre-hook of its first parameter, megatron-core
/// `distributed_data_parallel.py`): the forward stalls by the latest of "gather k done minus its need time",
/// `call + max(0, (K - 1)(call - forward / K))`.
pub fn gathers_exposed(forward: f64, calls: u64, call: f64) -> f64 {
    if calls == 0 {
        return 0.0;
    }
    let k = calls as f64;
    call + ((k - 1.0) * (call - forward / k)).max(0.0)
}

/// The end of one micro-batch of `n` units under FSDP's schedule (forward prefetch of one unit, backward
/// prefetch before each unit's backward, reduce-scatter after it, on one set of links; HSDP's all-reduce after
/// each reduce-scatter on another).
pub fn fsdp_micro_batch(forward: f64, backward: f64, n: usize, ag: f64, rs: f64, ar: Option<f64>) -> f64 {
    let n = n.max(1);
    let (fu, bu) = (forward / n as f64, backward / n as f64);
    // Forward: unit 0's gather is exposed; the gather of unit i + 1 starts when the links are free and unit
    // i - 1 has finished (two gathered units at most).
    let mut t = 0.0;
    let mut links = ag;
    let mut ready = ag;
    for i in 0..n {
        let next = (i + 1 < n).then(|| {
            links = links.max(t) + ag;
            links
        });
        t = t.max(ready) + fu;
        if let Some(r) = next {
            ready = r;
        }
    }
    // Backward, last unit first: gathered again, the next unit's gather issued as a unit's backward starts, its
    // reduce-scatter as it ends.
    links = links.max(t) + ag;
    ready = links;
    let mut net = 0.0f64;
    for i in (0..n).rev() {
        let start = t.max(ready);
        let next = (i > 0).then(|| {
            links = links.max(start) + ag;
            links
        });
        t = start + bu;
        links = links.max(t) + rs;
        if let Some(ar) = ar {
            net = net.max(links) + ar;
        }
        if let Some(r) = next {
            ready = r;
        }
    }
    t.max(links).max(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_buckets_leave_only_the_last_exposed() {
        assert!((buckets_exposed(1.0, 10, 0.01, 0.01) - 0.01).abs() < 1e-12);
        // Slow links: the buckets queue; all but the first ready interval is exposed.
        assert!((buckets_exposed(1.0, 10, 0.5, 0.5) - (0.1 + 5.0 - 1.0)).abs() < 1e-12);
    }

    #[test]
    fn gathers_before_use_expose_the_first_unless_the_forward_is_short() {
        assert!((gathers_exposed(1.0, 10, 0.01) - 0.01).abs() < 1e-12);
        // Gathers slower than the forward uses them: all but the forward's share is exposed.
        assert!((gathers_exposed(1.0, 10, 0.5) - (0.5 + 9.0 * 0.4)).abs() < 1e-12);
        assert_eq!(gathers_exposed(1.0, 0, 0.5), 0.0);
    }

    #[test]
    fn fsdp_with_free_links_is_the_compute_and_the_first_gather() {
        let end = fsdp_micro_batch(1.0, 2.0, 10, 1e-6, 1e-6, None);
        assert!((end - 3.0).abs() < 1e-4, "{end}");
        // Links slower than compute: the step is the links' time.
        let end = fsdp_micro_batch(1.0, 2.0, 10, 1.0, 1.0, None);
        assert!(end >= 30.0, "3 x 10 unit transfers on one set of links: {end}");
    }
}
