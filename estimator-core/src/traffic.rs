//! The traffic of one optimizer step, kind by kind: which collective, over which group, at which message size,
//! how many calls, the bytes each GPU sends and the time of all calls, from [`crate::collective`] at the real
//! message size on the links the group actually uses. What of it the schedule hides is [`crate::schedule`]'s.

use serde::Serialize;

use crate::collective::{self, Op};
use crate::layout::{Group, Groups, Layout, groups};
use crate::scenario::{Framework, Scenario, SyncStrategy};
use crate::units::{Bytes, Seconds};

/// DeepSpeed's `allgather_bucket_size` default: 5e8 elements per parameter all-gather of ZeRO-1/2 (DeepSpeed
/// v0.19.8 `deepspeed/runtime/zero/config.py` L132-136, `allgather_bucket_size: int = Field(pp_int(5e8), ge=0)`);
/// the updated parameters are gathered in chunks of this many elements after the optimizer step.
pub const ZERO_ALLGATHER_BUCKET_ELEMENTS: f64 = 5e8;

/// Where a kind of traffic runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// NVLink, xGMI or PCIe inside one node.
    IntraNode,
    /// NVLink between the nodes of one NVLink domain (NVL72 trays), through NVLink switches.
    NvlinkDomain,
    /// Between nodes (NVLink domains), through the adapters.
    Network,
}

impl Tier {
    /// `intra-node` or `network`.
    pub fn name(self) -> &'static str {
        match self {
            Tier::IntraNode => "intra-node",
            Tier::NvlinkDomain => "nvlink-domain",
            Tier::Network => "network",
        }
    }

    fn of(g: Group) -> Tier {
        if g.crosses_domains() {
            Tier::Network
        } else if g.crosses_nodes() {
            Tier::NvlinkDomain
        } else {
            Tier::IntraNode
        }
    }
}

/// The kinds of traffic a step has. Their names are JSON keys' values (`traffic[].kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// DDP: the all-reduce of each gradient bucket.
    GradientAllReduce,
    /// ZeRO-1/2: the reduce-scatter of each gradient bucket.
    GradientReduceScatter,
    /// ZeRO-1/2: the all-gather of the updated parameters after the optimizer step.
    ParameterAllGather,
    /// ZeRO-3/FSDP/HSDP: each unit's parameters gathered before its forward and again before its backward.
    FsdpAllGather,
    /// ZeRO-3/FSDP/HSDP: each unit's gradients reduce-scattered after its backward.
    FsdpReduceScatter,
    /// HSDP: each unit's gradient shard all-reduced across the replicas.
    HsdpAllReduce,
    /// Tensor parallel: the activations' all-reduces of each layer (2 forward, 2 backward).
    TpAllReduce,
    /// Pipeline parallel: activations forward and their gradients backward between stages.
    PpSend,
    /// Expert parallel: dispatch and combine all-to-all of each MoE layer, forward and backward.
    EpAllToAll,
}

impl Kind {
    /// The JSON name (`fsdp_all_gather`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::GradientAllReduce => "gradient_all_reduce",
            Kind::GradientReduceScatter => "gradient_reduce_scatter",
            Kind::ParameterAllGather => "parameter_all_gather",
            Kind::FsdpAllGather => "fsdp_all_gather",
            Kind::FsdpReduceScatter => "fsdp_reduce_scatter",
            Kind::HsdpAllReduce => "hsdp_all_reduce",
            Kind::TpAllReduce => "tp_all_reduce",
            Kind::PpSend => "pp_send",
            Kind::EpAllToAll => "ep_all_to_all",
        }
    }

    /// What it is, in a few words.
    pub fn label(self) -> &'static str {
        match self {
            Kind::GradientAllReduce => "gradient all-reduce (DDP buckets)",
            Kind::GradientReduceScatter => "gradient reduce-scatter (ZeRO buckets)",
            Kind::ParameterAllGather => "parameter all-gather after the optimizer",
            Kind::FsdpAllGather => "parameter all-gather per unit (forward and backward)",
            Kind::FsdpReduceScatter => "gradient reduce-scatter per unit",
            Kind::HsdpAllReduce => "gradient-shard all-reduce across replicas",
            Kind::TpAllReduce => "tensor-parallel activation all-reduce",
            Kind::PpSend => "pipeline activations between stages",
            Kind::EpAllToAll => "expert-parallel all-to-all",
        }
    }
}

/// One kind of traffic in one optimizer step. Keys are the JSON contract of `estimate step --json`'s `traffic`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Traffic {
    /// The kind.
    pub kind: Kind,
    /// The collective.
    pub op: Op,
    /// Intra-node or network.
    pub tier: Tier,
    /// Ranks in the group.
    pub ranks: u32,
    /// Calls per optimizer step.
    pub calls: u64,
    /// Bytes each GPU sends per optimizer step over any link, all calls: nccl-tests' bus bytes (the algorithm
    /// bytes times the op's busbw factor, `(n-1)/n` for a gather or a reduce-scatter, `2(n-1)/n` for an all-reduce).
    pub bytes_per_gpu: Bytes,
    /// Of those, the bytes that cross the adapters, per GPU, as the algorithm the time is taken on sends them: a
    /// ring enters and leaves each node (NVLink domain) once, so its node carries one rank's bytes for its
    /// `per_node` (`per_domain`) ranks; NCCL's tree (Tree, NVLSTree) between two nodes sends the floor below; an
    /// all-to-all sends `(n - g)/n` of each rank's data off the node (domain). 0 inside a node or an NVLink domain.
    pub network_bytes_per_gpu: Bytes,
    /// The fewest of those bytes any algorithm NCCL runs could send: a collective over D NVLink domains reduced or
    /// gathered inside each domain first moves its bus factor at D, not at its n ranks (a hierarchical all-reduce
    /// sends 2(D-1)/D of the data through a node's adapters where a flat ring sends 2(n-1)/n); in-network
    /// reduction (CollNet, SHARP) is not modelled. Point-to-point and all-to-all bytes are already the least.
    pub network_floor_bytes_per_gpu: Bytes,
    /// nccl-tests' size of one call.
    pub message_bytes: Bytes,
    /// All calls of the step, one after another.
    pub time_s: Seconds,
    /// What the schedule leaves exposed: it adds to the step.
    pub exposed_s: Seconds,
    /// NCCL's algorithm for the message size.
    pub algorithm: &'static str,
    /// NCCL's protocol for the message size.
    pub protocol: &'static str,
    /// One call's time.
    #[serde(skip)]
    pub call_s: Seconds,
    /// The last call's time when it is smaller (the rest of a bucketed total), else `call_s`.
    #[serde(skip)]
    pub last_call_s: Seconds,
    /// Whether one call's latency is more than its transfer: more calls would cost more whatever the bytes.
    #[serde(skip)]
    pub latency_bound: bool,
    /// Whether the row was held at its floor: its bytes through the node's adapters at their line rate, which a
    /// measured bus bandwidth above what they carry would have passed.
    #[serde(skip)]
    pub at_line_rate: bool,
}

impl Traffic {
    /// One call's time.
    pub fn call_s(&self) -> Seconds {
        self.call_s
    }

    /// The last call's time.
    pub fn last_call_s(&self) -> Seconds {
        self.last_call_s
    }
}

/// Parameters each GPU holds of the model before any ZeRO sharding: the dense part split by tensor and pipeline
/// parallelism, the routed experts by expert tensor, expert and pipeline parallelism (megatron-core's folding).
pub fn local_params(s: &Scenario) -> f64 {
    let l = s.layout();
    let shape = s.shape();
    let pp = f64::from(l.pp);
    (shape.params - shape.expert_params()) / (f64::from(l.tp) * pp)
        + shape.expert_params() / (f64::from(l.etp) * f64::from(l.ep) * pp)
}

/// The scenario a group's collectives run on: its ranks over its nodes (and their NVLink domains), with its share
/// of each node's adapters when other groups use them at the same time. The job's own scenario (and its measured
/// bus bandwidth) when the group is the whole job; a group across NVLink domains keeps the measurement's share of
/// the model's bandwidth (a fabric measured at 60% of the model's all-reduce gives every group on it 60%).
pub fn group_scenario(s: &Scenario, g: Group) -> Scenario {
    if g.ranks == s.participants() && g.per_node == s.gpus_per_node() {
        return s.clone();
    }
    let adapters = f64::from(s.adapters_per_node()) / f64::from(g.sharing.max(1));
    // A fractional share keeps the node's bandwidth: whole adapters at a line rate scaled down (never up, which
    // could pass the largest rate a scenario accepts).
    let whole = adapters.ceil().max(1.0);
    let link = s.input().link_gbps * adapters / whole;
    let v = s
        .with(|i| {
            i.nodes = i64::from(g.nodes);
            i.gpus_per_node = i64::from(g.per_node);
            i.adapters_per_node = if g.nodes > 1 { whole as i64 } else { i.adapters_per_node };
            // A domain is whole nodes of the group's ranks.
            i.nvlink_domain_gpus =
                (g.per_domain > g.per_node).then(|| i64::from(g.per_domain.div_ceil(g.per_node.max(1)) * g.per_node));
            if g.nodes > 1 {
                i.link_gbps = link.max(crate::scenario::limits::MIN_LINK_GBPS);
            }
            i.tp = 1;
            i.pp = 1;
            i.ep = 1;
            i.etp = None;
            i.sync = SyncStrategy::Ddp;
            i.shard_group = None;
            i.micro_batches = None;
            i.model = None;
        })
        .unwrap_or_else(|_| s.clone());
    if !g.crosses_domains() || s.input().measured_busbw_gbs.is_none() {
        return v;
    }
    // The group's own all-reduce figure (the one a measurement is set against) at the job's share, within what a
    // scenario accepts: a group left without its share would run at the model's full bandwidth.
    let busbw = crate::collective::model_peak_busbw_gbs(&v) * crate::collective::measured_share(s);
    let busbw = busbw.clamp(crate::scenario::limits::MIN_FRACTION, crate::scenario::limits::MAX_MEASURED_BUSBW_GBS);
    v.with(|i| i.measured_busbw_gbs = Some(busbw)).unwrap_or(v)
}

struct Builder<'a> {
    s: &'a Scenario,
    groups: Groups,
    rows: Vec<Traffic>,
}

impl Builder<'_> {
    /// Adds `calls` calls of `op` over `group`, `bytes` each, and when `last` differs a last call of that size.
    fn add(&mut self, kind: Kind, op: Op, group: Group, calls: f64, bytes: f64, last: Option<f64>) {
        self.add_times(kind, op, group, (calls, bytes, last), 1.0);
    }

    /// [`Builder::add`] of one pass of buckets `(calls, bytes, last)`, repeated `times` times in a step.
    fn add_times(&mut self, kind: Kind, op: Op, group: Group, pass: (f64, f64, Option<f64>), times: f64) {
        let (calls, bytes, last) = pass;
        if group.ranks <= 1 || calls < 1.0 || bytes <= 0.0 {
            return;
        }
        let on = group_scenario(self.s, group);
        // A ring factor set by the user scales the bytes each gradient all-reduce moves, as it scales the lower
        // bound.
        let scale = match self.s.input().ring_factor {
            Some(r) if kind == Kind::GradientAllReduce => r / collective::nccl_busbw_factor(group.ranks),
            _ => 1.0,
        };
        let time = |b: f64| {
            let mut t = collective::timing(&on, op, Bytes::new(b));
            t.transfer_us *= scale;
            t
        };
        let call = time(bytes);
        let last_call = match last {
            Some(b) if b > 0.0 && b < bytes => time(b),
            _ => call,
        };
        let total_bytes = times * (bytes * (calls - 1.0) + last.filter(|b| *b > 0.0 && *b < bytes).unwrap_or(bytes));
        // A set ring factor scales the bytes as it scales the time: the lower bound on them stays below.
        let sent = total_bytes * op.busbw_factor(group.ranks) * scale;
        let n = f64::from(group.ranks);
        let g = f64::from(group.per_domain);
        let network = match (group.crosses_domains(), op) {
            (false, _) => 0.0,
            (true, Op::AllToAll) => sent * (n - g) / (n - 1.0).max(1.0),
            (true, _) => sent / g.max(1.0),
        };
        let floor = match (group.crosses_domains(), op) {
            (true, Op::AllReduce | Op::AllGather | Op::ReduceScatter) => {
                total_bytes * op.busbw_factor(group.domains) * scale / g.max(1.0)
            }
            _ => network,
        };
        let floor = floor.min(network);
        // NCCL's tree (and NVLS with a tree between nodes), all-reduce only, reduces inside each node (domain)
        // first and then over a double binary tree of the D domains, each tree carrying half the data up (reduce)
        // and down (broadcast). On two domains each is the other's parent in one tree and child in the other: a
        // domain sends half the data each way, 2(2-1)/2 of it, the floor. From three domains on, most are inner
        // nodes of one tree and send twice the data (NCCL's ncclGetDtree), as much as the flat ring's 2(n-1)/n
        // or more, so the ring's bytes stand for "each node". The bytes follow the algorithm the time is taken
        // on; a ring factor the user set keeps the ring's bytes it scales.
        let set_ring = self.s.input().ring_factor.is_some() && kind == Kind::GradientAllReduce;
        let tree_pair = call.algorithm.ends_with("Tree") && group.domains == 2;
        let network = if tree_pair && !set_ring { floor } else { network };
        // The bytes cannot cross the node's adapters faster than their line rate: a measured bus bandwidth above
        // what they carry would take a call below its share of the floor, so it is held there (each call on its
        // own, so that a faster measurement never lengthens the step).
        let node = self.s.link().to_gbyte_per_s().scale(f64::from(self.s.adapters_per_node()));
        let floor_us = if node.get() > 0.0 && total_bytes > 0.0 {
            node.transfer_time(Bytes::new(floor * f64::from(self.s.gpus_per_node()))).as_secs() * 1e6
        } else {
            0.0
        };
        let last_bytes = last.filter(|b| *b > 0.0 && *b < bytes).unwrap_or(bytes);
        let per_byte = if total_bytes > 0.0 { floor_us / total_bytes } else { 0.0 };
        let (call_us, last_us) = (call.time_us().max(per_byte * bytes), last_call.time_us().max(per_byte * last_bytes));
        let at_line_rate = call_us > call.time_us() || last_us > last_call.time_us();
        let time = times * (call_us * (calls - 1.0) + last_us);
        self.rows.push(Traffic {
            kind,
            op,
            tier: Tier::of(group),
            ranks: group.ranks,
            calls: (calls * times) as u64,
            bytes_per_gpu: Bytes::new(sent),
            network_bytes_per_gpu: Bytes::new(network),
            network_floor_bytes_per_gpu: Bytes::new(floor),
            message_bytes: Bytes::new(bytes),
            time_s: Seconds::from_micros(time),
            exposed_s: Seconds::ZERO,
            algorithm: call.algorithm,
            protocol: call.protocol,
            call_s: Seconds::from_micros(call_us),
            last_call_s: Seconds::from_micros(last_us),
            latency_bound: call.latency_us > call.transfer_us,
            at_line_rate,
        });
    }

    /// `total` bytes in buckets of `bucket`: the calls, the bucket and the last one's size.
    fn buckets(total: f64, bucket: f64) -> (f64, f64, Option<f64>) {
        let bucket = bucket.min(total).max(1.0);
        let whole = (total / bucket).floor();
        let rest = total - whole * bucket;
        if rest > 0.5 { (whole + 1.0, bucket, Some(rest)) } else { (whole.max(1.0), bucket, None) }
    }
}

/// How many times a step reduces the gradients: once (DDP, ZeRO-1, and Megatron, whose distributed optimizer
/// reduces them in the last micro-batch only, the others running under `no_sync`:
/// NVIDIA/Megatron-LM@d98e8a64ddf34856e74b24714e3bedb2f5a39553 `megatron/core/pipeline_parallel/schedules.py:814-815`,
/// `megatron/core/distributed/param_and_grad_buffer.py:876-885`), or on every micro-batch where ZeRO-2 keeps only
/// its shard of the gradients (DeepSpeed `engine.py` `allreduce_gradients`: "ZeRO stage >= 2 communicates during
/// non gradient accumulation boundaries as well"; FSDP's `SHARD_GRAD_OP` likewise).
pub fn syncs_per_step(s: &Scenario) -> f64 {
    let per_micro_batch = s.layout().sync == SyncStrategy::Zero2 && s.framework() != Framework::Megatron;
    if per_micro_batch { f64::from(s.layout().micro_batches) } else { 1.0 }
}

/// The gradient bucket of a step, bytes: the input's, else its framework's default for this data-parallel group
/// and gradient type ([`crate::scenario::Framework::bucket_bytes`]), where the framework buckets by unit (FSDP)
/// one unit: this stage's gradients over its blocks and the root unit.
pub fn gradient_bucket_bytes(s: &Scenario) -> f64 {
    let elem = s.input().dtype.bytes();
    let l = s.layout();
    let framework = s.framework().bucket_bytes(l.dp, elem);
    s.input()
        .bucket_bytes
        .or(framework)
        .unwrap_or_else(|| local_params(s) * elem / (f64::from(l.stage_layers(s.shape().layers)) + 1.0))
}

/// Every kind of traffic of one optimizer step, exposure not yet set.
pub fn traffic(s: &Scenario) -> Vec<Traffic> {
    let l: &Layout = s.layout();
    let shape = s.shape();
    let elem = s.input().dtype.bytes();
    let g = groups(l, s.gpus_per_node(), s.gpus_per_domain());
    let mut b = Builder { s, groups: g, rows: Vec::new() };
    let m = f64::from(l.micro_batches);
    let layers_per_stage = f64::from(l.stage_layers(shape.layers));
    let grads = local_params(s) * elem;
    let size = gradient_bucket_bytes(s);

    // With experts of their own decomposition (EP > 1, or ETP apart from TP), megatron-core reduces the routed
    // experts' gradients over the expert-data-parallel group, the ranks that hold the same experts, and the rest
    // over the data-parallel group (`distributed_data_parallel.py`: the expert-parallel buffers use
    // `expt_dp_group`); an expert group of one rank has nothing to reduce. DDP and ZeRO-1/2 split their gradient
    // traffic so; ZeRO-3/FSDP and HSDP keep one group for both (not modelled apart).
    let folded = l.ep > 1 || l.etp != l.tp;
    let expert = if folded {
        shape.expert_params() / (f64::from(l.etp) * f64::from(l.ep) * f64::from(l.pp)) * elem
    } else {
        0.0
    };
    let dense = grads - expert;
    let expert_group = (expert > 0.0 && b.groups.expert_dp.ranks > 1).then_some(b.groups.expert_dp);
    match l.sync {
        SyncStrategy::Ddp => {
            let (calls, bucket, last) = Builder::buckets(dense, size);
            b.add(Kind::GradientAllReduce, Op::AllReduce, b.groups.dp, calls, bucket, last);
            if let Some(g) = expert_group {
                let (calls, bucket, last) = Builder::buckets(expert, size);
                b.add(Kind::GradientAllReduce, Op::AllReduce, g, calls, bucket, last);
            }
        }
        SyncStrategy::Zero1 | SyncStrategy::Zero2 if folded => {
            let bucket = if s.overlap_grad_reduce() { size } else { grads.max(1.0) };
            let times = syncs_per_step(s);
            let gather = ZERO_ALLGATHER_BUCKET_ELEMENTS * elem;
            let parts = [(dense, Some(b.groups.dp)), (expert, expert_group)];
            for (bytes, group) in parts {
                let Some(group) = group.filter(|_| bytes > 0.0) else { continue };
                b.add_times(
                    Kind::GradientReduceScatter,
                    Op::ReduceScatter,
                    group,
                    Builder::buckets(bytes, bucket),
                    times,
                );
                let (calls, bucket, last) = Builder::buckets(bytes, gather);
                b.add(Kind::ParameterAllGather, Op::AllGather, group, calls, bucket, last);
            }
        }
        SyncStrategy::Zero1 | SyncStrategy::Zero2 => {
            // ZeRO-2 keeps only its shard of the gradients, so it reduces them on every micro-batch (DeepSpeed
            // v0.19.8 `engine.py` `allreduce_gradients`: "ZeRO stage >= 2 communicates during non gradient
            // accumulation boundaries as well"); ZeRO-1 once per step, as DDP.
            // Without overlap, megatron-core makes the whole gradient one bucket (`bucket_size = None`:
            // `distributed_data_parallel.py`, "Set bucket_size to infinity if overlap_grad_reduce is False").
            let bucket = if s.overlap_grad_reduce() { size } else { grads.max(1.0) };
            let pass = Builder::buckets(grads, bucket);
            let times = syncs_per_step(s);
            b.add_times(Kind::GradientReduceScatter, Op::ReduceScatter, b.groups.dp, pass, times);
            let (calls, bucket, last) = Builder::buckets(grads, ZERO_ALLGATHER_BUCKET_ELEMENTS * elem);
            b.add(Kind::ParameterAllGather, Op::AllGather, b.groups.dp, calls, bucket, last);
        }
        SyncStrategy::Zero3 | SyncStrategy::Hsdp => {
            // One FSDP unit per transformer block on this stage, plus the root unit holding the embeddings.
            let units = layers_per_stage + 1.0;
            let unit = grads / units;
            b.add(Kind::FsdpAllGather, Op::AllGather, b.groups.shard, 2.0 * m * units, unit, None);
            b.add(Kind::FsdpReduceScatter, Op::ReduceScatter, b.groups.shard, m * units, unit, None);
            if l.sync == SyncStrategy::Hsdp {
                let shard = unit / f64::from(l.shard_group.max(1));
                b.add(Kind::HsdpAllReduce, Op::AllReduce, b.groups.replica, units, shard, None);
            }
        }
    }
    let recompute = if l.activation_checkpointing { 1.5 } else { 1.0 };
    let activation = l.micro_batch_tokens() * f64::from(shape.hidden) * elem;
    if l.tp > 1 {
        // Megatron-LM: two all-reduces in each block's forward (attention and MLP outputs) and two in its
        // backward (Shoeybi et al. 2019, figure 3); recomputation repeats the forward's.
        let calls = m * layers_per_stage * 4.0 * recompute;
        b.add(Kind::TpAllReduce, Op::AllReduce, b.groups.tp, calls, activation, None);
    }
    if l.pp > 1 {
        // One activation forward and one gradient backward per micro-batch at each stage boundary.
        b.add(Kind::PpSend, Op::Broadcast, b.groups.pp, 2.0 * m, activation, None);
    }
    if l.ep > 1
        && let Some(moe) = shape.moe
    {
        // Dispatch and combine in the forward, their gradients in the backward; tokens split over the tensor-
        // parallel ranks (sequence parallel), each sent to top-k experts.
        let moe_layers = f64::from(shape.moe_layers()) / f64::from(l.pp);
        let calls = m * moe_layers * 4.0 * recompute;
        let bytes = activation / f64::from(l.tp) * f64::from(moe.top_k);
        b.add(Kind::EpAllToAll, Op::AllToAll, b.groups.ep, calls.round(), bytes, None);
    }
    b.rows
}
