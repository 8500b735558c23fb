//! One training step: gradient bytes, the lower bound, bucketed synchronisation, compute and overlap.

use serde::Serialize;

use crate::collective::{self, Bottleneck};
use crate::layout::Layout;
use crate::layout::groups;
use crate::scenario::{ComputeInput, Scenario};
use crate::schedule::{OverlapSource, schedule};
use crate::traffic::{Traffic, group_scenario, local_params, traffic};
use crate::units::{Bytes, GbytePerSec, Seconds};

/// FLOPs per parameter per token for a forward and backward pass (Kaplan et al. 2020, "Scaling Laws for Neural
/// Language Models", section 2.1: C ~ 6 N per token).
pub const FLOPS_PER_PARAM_PER_TOKEN: f64 = 6.0;

/// Ring factor of the reference lower bound: 2, the limit of 2(N-1)/N for many participants (the reference
/// arithmetic: "a ring all-reduce over many participants moves about 2 x G through each participant's link").
pub const REFERENCE_RING_FACTOR: f64 = 2.0;

/// The seed's one-link arithmetic spelled out: G x ring factor x sync volume through one adapter's line rate. No
/// latency, no efficiency loss, no overlap, and all of a participant's traffic through one adapter of its own, as
/// with one GPU and one adapter per node. It is a reference for DDP's all-reduce, not a bound on a node whose GPUs
/// share NVLink and several adapters: [`StepEstimate::lower_bound_s`] is that bound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LowerBound {
    /// Gradient bytes G.
    pub gradient_bytes: Bytes,
    /// Ring factor used.
    pub ring_factor: f64,
    /// Communication volume relative to a DDP all-reduce.
    pub sync_volume_factor: f64,
    /// Bytes through the participant's link: G x ring factor x volume factor.
    pub bytes_per_participant: Bytes,
    /// One adapter's line rate in GB/s.
    pub link_gbyte_per_s: GbytePerSec,
    /// Bytes / line rate.
    pub time_s: Seconds,
}

/// The one-link arithmetic of a scenario for a given ring factor.
pub fn lower_bound(s: &Scenario, ring_factor: f64) -> LowerBound {
    let g = gradient_bytes(s);
    let volume = s.input().sync.volume_factor();
    let bytes = g.scale(ring_factor * volume);
    let link = s.link().to_gbyte_per_s();
    LowerBound {
        gradient_bytes: g,
        ring_factor,
        sync_volume_factor: volume,
        bytes_per_participant: bytes,
        link_gbyte_per_s: link,
        time_s: link.transfer_time(bytes),
    }
}

/// The reference arithmetic: DDP's gradient all-reduce through one link per participant, whatever the layout (the
/// seed's arithmetic is that all-reduce's: volume factor 1), at ring factor 2 (many participants) unless the
/// scenario overrides the ring factor. A reference, not a bound: on a node with several GPUs and adapters the step
/// can take less ([`StepEstimate::lower_bound_s`] is the bound); [`gradient_sync_crosses_adapters`] says whether it
/// describes anything the job sends.
pub fn reference_lower_bound(s: &Scenario) -> LowerBound {
    let mut lb = lower_bound(s, s.input().ring_factor.unwrap_or(REFERENCE_RING_FACTOR));
    if lb.sync_volume_factor != 1.0 {
        let bytes = lb.gradient_bytes.scale(lb.ring_factor);
        lb = LowerBound {
            sync_volume_factor: 1.0,
            bytes_per_participant: bytes,
            time_s: lb.link_gbyte_per_s.transfer_time(bytes),
            ..lb
        };
    }
    lb
}

/// The time of one optimizer step and its parts. Keys are the JSON contract of `probe-cli estimate step --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepEstimate {
    /// Gradient bytes G = params x bytes per element.
    pub gradient_bytes: Bytes,
    /// Participants N = nodes x GPUs per node.
    pub participants: u32,
    /// Ring factor used, 2(N-1)/N unless overridden.
    pub ring_factor: f64,
    /// Communication volume relative to a DDP all-reduce (1.5 for ZeRO-3/FSDP).
    pub sync_volume_factor: f64,
    /// Bytes through each participant's link per step, were it one GPU with one adapter of its own: ring factor x G
    /// x volume factor (the one-link arithmetic at this job's ranks).
    pub bytes_per_participant: Bytes,
    /// One adapter's line rate in GB/s.
    pub lower_bound_link_gbyte_per_s: GbytePerSec,
    /// The node's adapters together at line rate, GB/s (`adapters_per_node` x one adapter's): the divisor of
    /// `lower_bound_s`.
    pub lower_bound_node_gbyte_per_s: GbytePerSec,
    /// A true lower bound of the communication (`comm_s`, and so of the step): the fewest bytes this layout's
    /// traffic can send through one node's adapters per step (`network_floor_bytes_per_node`) over those adapters
    /// at line rate, with no latency and no efficiency loss. 0 when nothing crosses the adapters. For one GPU and
    /// one adapter per node it is the one-link arithmetic (`bytes_per_participant` over one adapter). It was that arithmetic on every node before
    /// issue 39, which a node with several adapters beats.
    pub lower_bound_s: Seconds,
    /// The links' bus-bandwidth ceiling (a Ring all-reduce's at large sizes), GB/s.
    pub busbw_gbs: GbytePerSec,
    /// What limits it.
    pub bottleneck: Bottleneck,
    /// Share of line rate per adapter used for the network.
    pub link_efficiency: f64,
    /// Latency paid by each bucket's collective (NCCL's, for the pair it picks at the bucket size).
    pub latency_per_collective_s: Seconds,
    /// DDP's gradient buckets of one GPU's gradients (each pays the latency), whatever the layout.
    pub buckets: u64,
    /// The all-reduce of one full bucket over the data-parallel group, as NCCL runs it: its time. (What the
    /// layout itself sends, bucket by bucket or unit by unit, is in `traffic`.)
    pub bucket_allreduce_s: Seconds,
    /// The bus bandwidth nccl-tests would print at the bucket size, GB/s: below `busbw_gbs` where latency and
    /// mid-size effects matter.
    pub bucket_busbw_gbs: GbytePerSec,
    /// NCCL's algorithm for the bucket size (`Ring`, `Tree`, `NVLS`, `NVLSTree`; `none` on one GPU).
    pub algorithm: &'static str,
    /// NCCL's protocol for the bucket size (`LL`, `LL128`, `Simple`).
    pub protocol: &'static str,
    /// Communication per step: every kind of traffic, each call timed at its size.
    pub comm_s: Seconds,
    /// Communication hidden behind compute.
    pub hidden_comm_s: Seconds,
    /// Communication not hidden: it adds to the step.
    pub exposed_comm_s: Seconds,
    /// Compute per optimizer step.
    pub compute_s: Seconds,
    /// The pipeline bubble: (stages - 1) / micro-batches of the compute (0 without pipeline parallelism).
    pub bubble_s: Seconds,
    /// The wait for the slowest rank: a synchronous step ends when its slowest GPU does. v (e(N) - e(G)) /
    /// (1 + v e(G)) of the compute, v the `rank_variation`, e the expected maxima of N ranks' and of one node's G
    /// standard normals ([`crate::straggler::wait_share`]); 0 on one node.
    pub rank_wait_s: Seconds,
    /// The per-rank coefficient of variation of the compute behind `rank_wait_s` (fitted on public runs:
    /// [`crate::terms::Terms::rank_variation`]).
    pub rank_variation: f64,
    /// Step time: compute + exposed communication + bubble + the wait for the slowest rank.
    pub step_s: Seconds,
    /// The step's range, [low, high]: the 5th to 95th percentile of measured over predicted step on public runs
    /// the model was not shaped on ([`crate::accuracy`]); it always holds `step_s`.
    pub step_range_s: [Seconds; 2],
    /// Compute / step: 1 when communication is free.
    pub scaling_efficiency: f64,
    /// Exposed communication / step.
    pub exposed_share: f64,
    /// Tokens per second, when tokens per step are known.
    pub tokens_per_s: Option<f64>,
    /// Hidden / all communication.
    pub overlap: f64,
    /// Where the hidden share comes from: the frameworks' `schedule`, or the user's `overlap` (`set`).
    pub overlap_source: OverlapSource,
    /// Bytes per GPU that cross the node's adapters per step, all kinds (`traffic[].network_bytes_per_gpu`): the
    /// GPU's share of its NVLink domain's network traffic.
    pub network_bytes_per_gpu: Bytes,
    /// Bytes through one node's adapters per step: its GPUs' shares (`network_bytes_per_gpu` x GPUs per node).
    pub network_bytes_per_node: Bytes,
    /// The fewest bytes any algorithm NCCL runs could send through one node's adapters for this layout's traffic
    /// (`traffic[].network_floor_bytes_per_gpu` x GPUs per node): the numerator of `lower_bound_s`.
    pub network_floor_bytes_per_node: Bytes,
    /// Every kind of traffic of the step.
    pub traffic: Vec<Traffic>,
    /// The layout it ran with, and its framework.
    pub layout: LayoutUsed,
}

/// Whether a gradient synchronisation of the step crosses the adapters (DDP's all-reduce, ZeRO's reduce-scatter,
/// FSDP's per unit, HSDP's across replicas): where the reference arithmetic describes something the job sends.
pub fn gradient_sync_crosses_adapters(rows: &[Traffic]) -> bool {
    use crate::traffic::Kind;
    rows.iter().any(|t| {
        matches!(
            t.kind,
            Kind::GradientAllReduce | Kind::GradientReduceScatter | Kind::FsdpReduceScatter | Kind::HsdpAllReduce
        ) && t.network_bytes_per_gpu.get() > 0.0
    })
}

/// Gradient bytes of a scenario: the whole model's, as the reference arithmetic counts them.
pub fn gradient_bytes(s: &Scenario) -> Bytes {
    Bytes::new(s.input().params * s.input().dtype.bytes())
}

/// FLOPs per parameter per token with activation checkpointing: the recomputed forward adds 2 to the 6
/// (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models", section 6: full
/// recomputation costs an extra forward pass, about 33% more).
pub const FLOPS_PER_PARAM_PER_TOKEN_RECOMPUTE: f64 = 8.0;

/// Share of a micro-batch's compute that is the forward pass: 1/3 (the backward is twice the forward), 1/4
/// with checkpointing (the backward also recomputes the forward).
pub fn forward_share(s: &Scenario) -> f64 {
    let b = crate::schedule::BACKWARD_OVER_FORWARD;
    if s.layout().activation_checkpointing { 1.0 / (2.0 + b) } else { 1.0 / (1.0 + b) }
}

/// FLOPs per active parameter per token of the scenario: 6, or 8 with activation checkpointing.
pub fn flops_per_param_per_token(s: &Scenario) -> f64 {
    if s.layout().activation_checkpointing { FLOPS_PER_PARAM_PER_TOKEN_RECOMPUTE } else { FLOPS_PER_PARAM_PER_TOKEN }
}

/// Compute time per optimizer step. From tokens, the FLOPs are those of the parameters each token goes through
/// (all of a dense model's, the active ones of a mixture of experts).
pub fn compute_time(s: &Scenario) -> Seconds {
    match s.input().compute {
        ComputeInput::Given { ms } => Seconds::from_millis(ms),
        ComputeInput::Tokens { tokens_per_step, mfu } => {
            let flops = flops_per_param_per_token(s) * s.shape().active_params * tokens_per_step;
            let rate = f64::from(s.participants()) * s.gpu().bf16_dense_tflops.flop_per_s() * mfu;
            Seconds::new(flops / rate)
        }
    }
}

/// The layout a step ran with, for the JSON (`layout`: `model`, `description` and the [`Layout`]'s keys).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutUsed {
    /// The shape's catalog key (`generic` for a parameter count).
    pub model: &'static str,
    /// The degrees and batch.
    pub layout: Layout,
    /// The framework given (`None`: the one the layout implies); the JSON's `layout.framework` is the one the
    /// step followed ([`crate::scenario::Framework::of_layout`] where none was given).
    pub framework: Option<crate::scenario::Framework>,
}

impl LayoutUsed {
    /// The framework whose rules sized the gradient buckets.
    pub fn framework(&self) -> crate::scenario::Framework {
        let l = &self.layout;
        self.framework.unwrap_or(crate::scenario::Framework::of_layout(l.sync, i64::from(l.tp), i64::from(l.pp)))
    }
}

impl LayoutUsed {
    /// The layout in a few words (`ZeRO-3/FSDP + TP 8`).
    pub fn description(&self) -> String {
        self.layout.describe()
    }
}

/// Written out by hand so that the description is made only when the JSON is (the page never makes it).
impl Serialize for LayoutUsed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let l = &self.layout;
        let mut m = serializer.serialize_struct("LayoutUsed", 14)?;
        m.serialize_field("model", self.model)?;
        m.serialize_field("framework", &self.framework())?;
        m.serialize_field("description", &self.description())?;
        m.serialize_field("sync", &l.sync)?;
        m.serialize_field("tp", &l.tp)?;
        m.serialize_field("pp", &l.pp)?;
        m.serialize_field("dp", &l.dp)?;
        m.serialize_field("ep", &l.ep)?;
        m.serialize_field("etp", &l.etp)?;
        m.serialize_field("shard_group", &l.shard_group)?;
        m.serialize_field("micro_batches", &l.micro_batches)?;
        m.serialize_field("seq_len", &l.seq_len)?;
        m.serialize_field("micro_batch_size", &l.micro_batch_size)?;
        m.serialize_field("activation_checkpointing", &l.activation_checkpointing)?;
        m.end()
    }
}

/// DDP's buckets on this GPU's gradients: their count and one full bucket's all-reduce over the data-parallel
/// group (time, bus bandwidth, latency, NCCL's algorithm and protocol); a set ring factor scales its bytes as it
/// scales the lower bound.
fn bucket_figures(s: &Scenario) -> (u64, Seconds, f64, Seconds, &'static str, &'static str) {
    let group = groups(s.layout(), s.gpus_per_node(), s.gpus_per_domain()).dp;
    let grads = local_params(s) * s.input().dtype.bytes();
    if group.ranks <= 1 || grads <= 0.0 {
        return (0, Seconds::ZERO, 0.0, Seconds::ZERO, "none", "none");
    }
    let bucket = crate::traffic::gradient_bucket_bytes(s).min(grads);
    let mut t = collective::timing(&group_scenario(s, group), collective::Op::AllReduce, Bytes::new(bucket));
    if let Some(r) = s.input().ring_factor {
        t.transfer_us *= r / collective::nccl_busbw_factor(group.ranks);
    }
    let time = Seconds::from_micros(t.time_us());
    let busbw = if time.as_secs() > 0.0 {
        bucket / 1e9 / time.as_secs() * collective::nccl_busbw_factor(group.ranks)
    } else {
        0.0
    };
    // At most 1 PB / 1 KiB buckets: the cast is exact.
    let count = (grads / bucket).ceil().max(1.0) as u64;
    (count, time, busbw, Seconds::from_micros(t.latency_us), t.algorithm, t.protocol)
}

/// Estimates one optimizer step.
pub fn estimate_step(s: &Scenario) -> StepEstimate {
    let r = collective::ring_factor(s);
    let LowerBound {
        gradient_bytes: g, sync_volume_factor: volume, bytes_per_participant, link_gbyte_per_s: link, ..
    } = self::lower_bound(s, r);

    let bus = collective::bus_bandwidth(s);
    let compute = compute_time(s);
    let mut rows = traffic(s);
    let o = schedule(s, &mut rows, compute, forward_share(s));

    // The bucket keys keep their meaning whatever the layout: one full bucket of this GPU's gradients all-reduced
    // over its data-parallel group, as DDP runs it (the traffic rows have what the layout itself sends).
    let (buckets, bucket_time, bucket_busbw, latency, algorithm, protocol) = bucket_figures(s);
    let terms = s.terms();
    // Compute slowed beside the communication it hides (a candidate term, off as shipped: `terms.rs`), and the
    // wait for the slowest rank.
    let exposed = o.exposed + o.hidden().scale(terms.interference);
    let wait = compute.scale(crate::straggler::wait_share(terms.rank_variation, s.participants(), s.gpus_per_node()));
    let step = compute + exposed + o.bubble + wait;
    let (scaling_efficiency, exposed_share) = if step.as_secs() > 0.0 {
        (compute.as_secs() / step.as_secs(), exposed.as_secs() / step.as_secs())
    } else {
        (1.0, 0.0)
    };
    let tokens_per_s = match s.input().compute {
        ComputeInput::Tokens { tokens_per_step, .. } if step.as_secs() > 0.0 => Some(tokens_per_step / step.as_secs()),
        _ => None,
    };
    let network: f64 = rows.iter().map(|t| t.network_bytes_per_gpu.get()).sum();
    let network_per_node = Bytes::new(network * f64::from(s.gpus_per_node()));
    let floor: f64 = rows.iter().map(|t| t.network_floor_bytes_per_gpu.get()).sum();
    let floor_per_node = Bytes::new(floor * f64::from(s.gpus_per_node()));
    let node_rate = GbytePerSec::new(link.get() * f64::from(s.adapters_per_node()));
    let lower_bound = if floor_per_node.get() > 0.0 && node_rate.get() > 0.0 {
        node_rate.transfer_time(floor_per_node)
    } else {
        Seconds::ZERO
    };
    StepEstimate {
        gradient_bytes: g,
        participants: s.participants(),
        ring_factor: r,
        sync_volume_factor: volume,
        bytes_per_participant,
        lower_bound_link_gbyte_per_s: link,
        lower_bound_node_gbyte_per_s: node_rate,
        lower_bound_s: lower_bound,
        busbw_gbs: bus.busbw,
        bottleneck: bus.bottleneck,
        link_efficiency: bus.efficiency,
        latency_per_collective_s: latency,
        buckets,
        bucket_allreduce_s: bucket_time,
        bucket_busbw_gbs: GbytePerSec::new(bucket_busbw),
        algorithm,
        protocol,
        comm_s: o.comm,
        hidden_comm_s: o.hidden(),
        exposed_comm_s: exposed,
        compute_s: compute,
        bubble_s: o.bubble,
        rank_wait_s: wait,
        rank_variation: terms.rank_variation,
        step_s: step,
        step_range_s: crate::accuracy::step_range(step),
        scaling_efficiency,
        exposed_share,
        tokens_per_s,
        overlap: o.share(),
        overlap_source: o.source,
        network_bytes_per_gpu: Bytes::new(network),
        network_bytes_per_node: network_per_node,
        network_floor_bytes_per_node: floor_per_node,
        traffic: rows,
        layout: LayoutUsed { model: s.shape().key, layout: *s.layout(), framework: s.input().framework },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::Op;
    use crate::scenario::{ScenarioInput, SyncStrategy};

    fn estimate(change: impl FnOnce(&mut ScenarioInput)) -> StepEstimate {
        let mut i = ScenarioInput::default();
        change(&mut i);
        estimate_step(&Scenario::new(i).expect("valid"))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn the_reference_arithmetic_holds() {
        for (gbps, secs) in [(400.0, 0.56), (25.0, 8.96)] {
            let e = estimate(|i| {
                i.link_gbps = gbps;
                i.ring_factor = Some(2.0);
            });
            assert!(close(e.gradient_bytes.get(), 14e9));
            assert!(close(e.bytes_per_participant.get(), 28e9));
            // The flat ring sends 28 GB through the node (each GPU's ring traffic leaves it once for its 8 GPUs);
            // reduced inside the node first, the two nodes exchange 2(2-1)/2 x 14 GB = 14 GB each, through 8
            // adapters: a sixteenth of the one-link arithmetic.
            assert!(close(e.network_bytes_per_node.get(), 28e9));
            assert!(e.lower_bound_s <= e.comm_s);
            let exact = estimate(|i| i.link_gbps = gbps);
            assert!(close(exact.network_floor_bytes_per_node.get(), 14e9));
            assert!(close(exact.lower_bound_s.as_secs(), secs / 16.0), "{gbps} Gb/s: {:?}", exact.lower_bound_s);
            assert!(exact.lower_bound_s <= exact.comm_s);
            // With one GPU and one adapter per node the bound is the seed's figure itself.
            let one = estimate(|i| {
                i.link_gbps = gbps;
                i.ring_factor = Some(2.0);
                i.nodes = 64;
                i.gpus_per_node = 1;
                i.adapters_per_node = 1;
            });
            assert!(close(one.lower_bound_s.as_secs(), secs), "{gbps} Gb/s: {:?}", one.lower_bound_s);
            assert!(one.lower_bound_s <= one.comm_s, "{} > {}", one.lower_bound_s, one.comm_s);
        }
    }

    #[test]
    fn nothing_through_the_adapters_has_no_network_floor() {
        // One node: no bytes cross the adapters, whatever the one-link reference says.
        let e = estimate(|i| i.nodes = 1);
        assert_eq!(e.lower_bound_s, Seconds::ZERO);
        assert!(!gradient_sync_crosses_adapters(&e.traffic));
        // TP 8 x PP 4 on 4 nodes: no data parallelism, only the pipeline's sends cross the adapters.
        let e = estimate(|i| {
            i.params = 70.6e9;
            i.nodes = 4;
            i.model = Some("llama-3.1-70b".into());
            i.tp = 8;
            i.pp = 4;
        });
        assert!(!gradient_sync_crosses_adapters(&e.traffic));
        assert!(e.lower_bound_s > Seconds::ZERO && e.lower_bound_s <= e.comm_s && e.comm_s <= e.step_s);
        // DDP on two nodes: it does.
        assert!(gradient_sync_crosses_adapters(&estimate(|_| {}).traffic));
    }

    #[test]
    fn the_reference_lower_bound_uses_ring_factor_two_by_default() {
        for (gbps, secs) in [(400.0, 0.56), (25.0, 8.96)] {
            let mut i = ScenarioInput { link_gbps: gbps, ..ScenarioInput::default() };
            let lb = reference_lower_bound(&Scenario::new(i.clone()).expect("valid"));
            assert!(close(lb.bytes_per_participant.get(), 28e9));
            assert!(close(lb.time_s.as_secs(), secs));
            i.ring_factor = Some(1.0);
            let lb = reference_lower_bound(&Scenario::new(i).expect("valid"));
            assert!(close(lb.time_s.as_secs(), secs / 2.0), "an override is honoured");
        }
    }

    #[test]
    fn the_default_ring_factor_is_2_n_minus_1_over_n() {
        let e = estimate(|_| {});
        assert!(close(e.ring_factor, 2.0 * 15.0 / 16.0));
        assert!(close(e.bytes_per_participant.get(), 14e9 * 1.875));
    }

    #[test]
    fn zero3_moves_one_and_a_half_times_the_bytes() {
        let ddp = estimate(|_| {});
        let z3 = estimate(|i| i.sync = SyncStrategy::Zero3);
        assert!(close(z3.bytes_per_participant.get(), 1.5 * ddp.bytes_per_participant.get()));
        // Per micro-batch, every unit is gathered twice and reduce-scattered once: 3 x (n-1)/n of the model.
        let sent: f64 = z3.traffic.iter().map(|t| t.bytes_per_gpu.get()).sum();
        let m = f64::from(z3.layout.layout.micro_batches);
        assert!(close(sent, 3.0 * m * 15.0 / 16.0 * 14e9), "{sent}");
    }

    #[test]
    fn each_bucket_is_an_all_reduce_at_its_size() {
        let e = estimate(|_| {});
        let bucket = 25.0 * 1024.0 * 1024.0;
        assert_eq!(e.buckets, (14e9f64 / bucket).ceil() as u64);
        let s = Scenario::new(ScenarioInput::default()).expect("valid");
        let full = collective::timing(&s, Op::AllReduce, Bytes::new(bucket));
        let whole = (14e9f64 / bucket).floor();
        let last = collective::timing(&s, Op::AllReduce, Bytes::new(14e9 - whole * bucket));
        let expected = full.time_us() * whole + last.time_us();
        assert!(close(e.comm_s.as_micros(), expected), "{} vs {expected}", e.comm_s.as_micros());
        assert_eq!((e.algorithm, e.protocol), (full.algorithm, full.protocol));
        assert!(e.bucket_busbw_gbs < e.busbw_gbs.scale(1.3), "a 25 MiB bucket is below the ceiling");
    }

    #[test]
    fn overlap_never_hides_more_than_the_compute_window() {
        let e = estimate(|i| {
            i.overlap = Some(1.0);
            i.link_gbps = 25.0;
            i.compute = ComputeInput::Given { ms: 500.0 };
        });
        assert!(close(e.hidden_comm_s.as_secs(), 0.5));
        assert!(close(e.step_s.as_secs(), e.comm_s.as_secs() + e.rank_wait_s.as_secs()));
        let accum = estimate(|i| {
            i.overlap = Some(1.0);
            i.link_gbps = 25.0;
            i.grad_accum_steps = 4;
            i.compute = ComputeInput::Given { ms: 500.0 };
        });
        assert!(close(accum.hidden_comm_s.as_secs(), 0.125));
    }

    #[test]
    fn without_the_schedule_nothing_is_hidden_and_derived_scenarios_keep_the_terms() {
        use crate::terms::Terms;
        let s = Scenario::new(ScenarioInput { compute: ComputeInput::Given { ms: 500.0 }, ..ScenarioInput::default() })
            .expect("valid");
        let shipped = estimate_step(&s);
        let off = s.clone().with_terms(Terms::NONE);
        let e = estimate_step(&off);
        assert_eq!(e.overlap_source, OverlapSource::None);
        assert_eq!(e.hidden_comm_s, Seconds::ZERO);
        assert!(close(e.step_s.as_secs(), e.compute_s.as_secs() + e.comm_s.as_secs() + e.rank_wait_s.as_secs()));
        assert!(shipped.hidden_comm_s > Seconds::ZERO, "the schedule hides some of it");
        assert!(e.step_s >= shipped.step_s);
        assert_eq!(off.with(|i| i.nodes = 4).expect("valid").terms(), Terms::NONE);
        // A user's overlap is the user's, whatever the terms.
        let set = s.with(|i| i.overlap = Some(0.5)).expect("valid");
        let a = estimate_step(&set);
        let b = estimate_step(&set.clone().with_terms(Terms { schedule: false, ..Terms::SHIPPED }));
        assert_eq!((a.step_s, a.overlap_source), (b.step_s, OverlapSource::Set));
    }

    #[test]
    fn the_step_waits_for_its_slowest_rank_across_nodes_only() {
        let e = estimate(|i| i.compute = ComputeInput::Given { ms: 1000.0 });
        let share = crate::straggler::wait_share(crate::terms::RANK_VARIATION, 16, 8);
        assert!(close(e.rank_wait_s.as_secs(), share));
        assert_eq!(e.rank_variation, crate::terms::RANK_VARIATION);
        let parts = e.compute_s + e.exposed_comm_s + e.bubble_s + e.rank_wait_s;
        assert!(close(e.step_s.as_secs(), parts.as_secs()), "the parts add up to the step");
        let one = estimate(|i| i.nodes = 1);
        assert_eq!(one.rank_wait_s, Seconds::ZERO);
        let many = estimate(|i| {
            i.nodes = 128;
            i.compute = ComputeInput::Given { ms: 1000.0 };
        });
        assert!(many.rank_wait_s > e.rank_wait_s);
    }

    #[test]
    fn compute_from_tokens_uses_six_flops_per_param_per_token() {
        let e = estimate(|i| i.compute = ComputeInput::Tokens { tokens_per_step: 4e6, mfu: 0.5 });
        let expected = 6.0 * 7e9 * 4e6 / (16.0 * 989e12 * 0.5);
        assert!(close(e.compute_s.as_secs(), expected));
        assert!(close(e.tokens_per_s.expect("tokens known"), 4e6 / e.step_s.as_secs()));
    }

    #[test]
    fn a_single_gpu_step_is_pure_compute() {
        let e = estimate(|i| {
            i.nodes = 1;
            i.gpus_per_node = 1;
            i.compute = ComputeInput::Given { ms: 0.0 };
        });
        assert_eq!(e.comm_s, Seconds::ZERO);
        assert_eq!(e.step_s, Seconds::ZERO);
        assert_eq!(e.scaling_efficiency, 1.0);
    }
}
