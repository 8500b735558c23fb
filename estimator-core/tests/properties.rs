//! Model invariants over random valid scenarios (proptest).

use estimator_core::traffic::Kind;
use estimator_core::{
    ComputeInput, Fabric, GradDtype, IntraNodeLink, Scenario, ScenarioInput, StepEstimate, SyncStrategy, estimate,
    estimate_step,
};
use proptest::prelude::*;

const GPUS: [&str; 8] = ["h100-sxm", "a100-sxm4-80gb", "l40s", "mi300x", "rtx-4090", "b200", "a10g", "unknown gpu"];

fn fabric() -> impl Strategy<Value = Fabric> {
    prop::sample::select(Fabric::ALL.to_vec())
}

fn scenario() -> impl Strategy<Value = ScenarioInput> {
    (
        (1e6..1e13f64, prop::sample::select(GradDtype::ALL.to_vec()), any::<bool>(), 1i64..16),
        (1i64..64, 1i64..9, prop::sample::select(GPUS.to_vec()), 1i64..17, 1.0..1600.0f64, fabric(), any::<bool>()),
        (prop::option::of(0.0..=1.0f64), prop::option::of(0.05..=1.0f64), prop::option::of(0.0..5000.0f64)),
        (any::<bool>(), 0.0..1e6f64, 1e3..1e8f64, 0.05..=1.0f64),
        (0u32..4, any::<bool>(), prop::option::of(1i64..64), prop::option::of(prop::sample::select(MODELS.to_vec()))),
        (any::<bool>(), any::<bool>(), any::<bool>(), 0usize..4),
    )
        .prop_map(|(w, c, o, k, l, f)| {
            let gpn = c.1;
            let nodes = c.0;
            // A tensor-parallel degree that divides the node, two pipeline stages when the nodes pair up.
            let tp = (0..=l.0).rev().map(|e| 1i64 << e).find(|t| gpn % t == 0).unwrap_or(1);
            // (A generic model below about 1e8 parameters has one layer: one stage.)
            let pp = if l.1 && nodes % 2 == 0 && (l.3.is_some() || w.0 >= 1e8) { 2 } else { 1 };
            let model = l.3.map(str::to_string);
            let moe = l.3.is_some_and(|m| estimator_core::shape::lookup(m).is_some_and(|s| s.is_moe()));
            let dp = nodes * gpn / tp / pp;
            // Expert parallel over 2 ranks when the model has experts and the data-parallel ranks pair up.
            let ep = if moe && f.2 && dp % 2 == 0 { 2 } else { 1 };
            let heads_split = |s: &estimator_core::shape::ModelShape| {
                s.heads.is_multiple_of(tp as u32) && s.kv_heads.is_multiple_of(tp as u32)
            };
            let tp = if model.as_deref().and_then(estimator_core::shape::lookup).is_some_and(|s| !heads_split(s)) {
                1
            } else {
                tp
            };
            ScenarioInput {
                params: w.0,
                dtype: w.1,
                sync: SyncStrategy::ALL[(f.3 * 2 + usize::from(w.2)) % 5],
                tp,
                pp,
                ep,
                model,
                // Micro-batches and accumulation steps count the same thing: one of them.
                micro_batches: if w.3 > 1 { None } else { l.2 },
                activation_checkpointing: f.0,
                tp_overlap: f.1,
                grad_accum_steps: w.3,
                nodes: c.0,
                gpus_per_node: c.1,
                gpu: c.2.to_string(),
                adapters_per_node: c.3,
                link_gbps: c.4,
                fabric: c.5,
                gdr: c.6,
                overlap: o.0,
                link_efficiency: o.1,
                latency_us: o.2,
                compute: if k.0 {
                    ComputeInput::Given { ms: k.1 }
                } else {
                    ComputeInput::Tokens { tokens_per_step: k.2, mfu: k.3 }
                },
                ..ScenarioInput::default()
            }
        })
}

const MODELS: [&str; 5] = ["llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b", "qwen3-30b-a3b", "gpt3-175b"];

/// Every number in `v`'s serialised form, walked in serde's own data model (`serde_value`), which keeps NaN and
/// infinities as they are: `serde_json::to_value` would turn them into `null` and hide them. Returns the path of
/// the first number that is not finite.
fn first_non_finite(v: &impl serde::Serialize) -> Option<String> {
    use serde_value::Value;
    fn walk(v: &Value, path: &str) -> Option<String> {
        let bad = |x: f64| (!x.is_finite()).then(|| format!("{path} = {x}"));
        match v {
            Value::F64(x) => bad(*x),
            Value::F32(x) => bad(f64::from(*x)),
            Value::Option(Some(inner)) | Value::Newtype(inner) => walk(inner, path),
            Value::Seq(items) => items.iter().enumerate().find_map(|(i, x)| walk(x, &format!("{path}[{i}]"))),
            Value::Map(m) => m.iter().find_map(|(k, x)| {
                let key = match k {
                    Value::String(s) => s.clone(),
                    other => format!("{other:?}"),
                };
                walk(x, &format!("{path}.{key}"))
            }),
            _ => None,
        }
    }
    match serde_value::to_value(v) {
        Ok(value) => walk(&value, "$"),
        Err(e) => Some(format!("does not serialise: {e}")),
    }
}

/// The check above can fail: a NaN or an infinity anywhere in an estimate is found and named.
#[test]
fn the_finiteness_check_finds_an_injected_nan() {
    let mut e = estimate(&Scenario::new(ScenarioInput::default()).expect("default is valid"));
    assert_eq!(first_non_finite(&e), None);
    e.step.comm_s = estimator_core::Seconds::new(f64::NAN);
    assert_eq!(first_non_finite(&e).as_deref(), Some("$.comm_s = NaN"));
    e.step.comm_s = estimator_core::Seconds::new(1.0);
    e.step.tokens_per_s = Some(f64::INFINITY);
    assert_eq!(first_non_finite(&e).as_deref(), Some("$.tokens_per_s = inf"));
}

fn step(i: &ScenarioInput) -> StepEstimate {
    estimate_step(&Scenario::new(i.clone()).expect("strategy yields valid scenarios"))
}

/// Allows for floating-point rounding when comparing two step times.
fn not_slower(after: &StepEstimate, before: &StepEstimate) -> bool {
    after.step_s.as_secs() <= before.step_s.as_secs() * (1.0 + 1e-12) + 1e-15
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn every_number_is_finite_and_nothing_panics(i in scenario()) {
        let s = Scenario::new(i).expect("valid");
        let e = estimate(&s);
        prop_assert_eq!(first_non_finite(&e), None);
        // The other entry points of the model, on the same scenario.
        prop_assert_eq!(first_non_finite(&estimator_core::allreduce(&s, estimator_core::step::gradient_bytes(&s))), None);
        prop_assert!(!e.recommendation.reasons.is_empty());
        // No sentence the model writes shows a number it could not compute.
        for line in e.warnings.iter().chain(&e.notes).chain(&e.recommendation.reasons) {
            prop_assert!(!line.contains(estimator_core::human::NOT_A_NUMBER) && !line.contains("NaN"), "{}", line);
        }
    }

    #[test]
    fn step_is_at_least_compute_and_exposed_comm(i in scenario()) {
        let e = step(&i);
        prop_assert!(e.step_s >= e.compute_s);
        prop_assert!(e.step_s >= e.exposed_comm_s);
        // The range always holds the point.
        prop_assert!(e.step_range_s[0] <= e.step_s && e.step_s <= e.step_range_s[1], "{:?}", e.step_range_s);
        prop_assert!(e.exposed_comm_s.as_secs() >= 0.0);
        prop_assert!(e.exposed_comm_s <= e.comm_s);
        // Communication on different links runs side by side, so more can be hidden than the compute lasts, but
        // no kind hides more than the step.
        for t in &e.traffic {
            prop_assert!(t.time_s - t.exposed_s <= e.step_s.max(e.compute_s), "{:?}", t.kind);
        }
        prop_assert!(e.hidden_comm_s <= e.comm_s);
    }

    #[test]
    fn more_bandwidth_never_slows_a_step(i in scenario(), factor in 1.0..8.0f64) {
        let faster = ScenarioInput { link_gbps: (i.link_gbps * factor).min(3200.0), ..i.clone() };
        prop_assert!(not_slower(&step(&faster), &step(&i)));
    }

    #[test]
    fn more_adapters_never_slow_a_step(i in scenario(), more in 1i64..8) {
        let wider = ScenarioInput { adapters_per_node: (i.adapters_per_node + more).min(64), ..i.clone() };
        prop_assert!(not_slower(&step(&wider), &step(&i)));
    }

    #[test]
    fn more_overlap_never_slows_a_step(i in scenario(), extra in 0.0..=1.0f64) {
        // A larger share set by the user.
        let set = i.overlap.unwrap_or(0.0);
        let before = ScenarioInput { overlap: Some(set), ..i.clone() };
        let hidden = ScenarioInput { overlap: Some((set + extra).min(1.0)), ..i.clone() };
        prop_assert!(not_slower(&step(&hidden), &step(&before)));
        // The schedule never exposes more than no overlap at all.
        let schedule = ScenarioInput { overlap: None, ..i.clone() };
        let none = ScenarioInput { overlap: Some(0.0), ..i.clone() };
        prop_assert!(not_slower(&step(&schedule), &step(&none)));
        // A framework that overlaps tensor- and expert-parallel communication.
        let overlapped = ScenarioInput { tp_overlap: true, ep_overlap: true, ..schedule.clone() };
        let exposed = ScenarioInput { tp_overlap: false, ep_overlap: false, ..schedule.clone() };
        prop_assert!(not_slower(&step(&overlapped), &step(&exposed)));
        // ZeRO-1/2's parameter all-gather behind the next forward never exposes more than after the optimizer.
        let gathered = ScenarioInput { overlap_param_gather: true, overlap_grad_reduce: true, ..schedule.clone() };
        let after = ScenarioInput { overlap_param_gather: false, overlap_grad_reduce: true, ..schedule };
        prop_assert!(not_slower(&step(&gathered), &step(&after)));
    }

    #[test]
    fn the_wait_for_the_slowest_rank_grows_with_the_ranks_and_the_parts_add_up(i in scenario(), more in 1i64..8) {
        let e = step(&i);
        prop_assert!(e.rank_wait_s.as_secs() >= 0.0);
        let parts = e.compute_s + e.exposed_comm_s + e.bubble_s + e.rank_wait_s;
        prop_assert!((parts.as_secs() - e.step_s.as_secs()).abs() <= 1e-9 * e.step_s.as_secs().max(1.0));
        if i.nodes == 1 {
            prop_assert_eq!(e.rank_wait_s.as_secs(), 0.0);
        }
        // More nodes of the same kind: never less to wait for, in seconds per second of compute.
        let wider = ScenarioInput { nodes: i.nodes * more, ..i.clone() };
        if let Ok(w) = Scenario::new(wider) {
            let w = estimate_step(&w);
            let share = |e: &StepEstimate| {
                if e.compute_s.as_secs() > 0.0 { e.rank_wait_s.as_secs() / e.compute_s.as_secs() } else { 0.0 }
            };
            prop_assert!(share(&w) + 1e-12 >= share(&e));
        }
    }

    #[test]
    fn hsdp_never_sends_more_over_the_network_than_fsdp(i in scenario()) {
        let fsdp = step(&ScenarioInput { sync: SyncStrategy::Zero3, shard_group: None, ..i.clone() });
        let hsdp = step(&ScenarioInput { sync: SyncStrategy::Hsdp, shard_group: None, ..i });
        prop_assert!(hsdp.network_bytes_per_gpu.get() <= fsdp.network_bytes_per_gpu.get() * (1.0 + 1e-12));
    }

    #[test]
    fn a_layout_that_sends_fewer_bytes_over_the_network_is_never_slower(i in scenario(), group in 0u32..4) {
        // The same schedule with less of it crossing the network: HSDP keeps ZeRO-3's gathers and
        // reduce-scatters inside a shard group (of 1, 2, 4 or 8 data-parallel ranks when they divide) and sends
        // only the gradient shards' all-reduce across.
        // The schedule's overlap: a share set by the user applies to the sum of all kinds, side by side or not.
        let i = ScenarioInput { overlap: None, ..i };
        let fsdp = step(&ScenarioInput { sync: SyncStrategy::Zero3, shard_group: None, ..i.clone() });
        let dp = i64::from(fsdp.layout.layout.dp);
        let node = (i.gpus_per_node.max(1) / i.tp.max(1)).max(1);
        let shard = (0..=group)
            .rev()
            .map(|e| 1i64 << e)
            .find(|g| dp % g == 0 && (g % node == 0 || node % g == 0))
            .unwrap_or(1);
        let hsdp = step(&ScenarioInput { sync: SyncStrategy::Hsdp, shard_group: Some(shard), ..i.clone() });
        // Where the node's own links are the slower tier (PCIe cards, or NICs that outrun NVLink), keeping traffic
        // inside the node is not cheaper. The law holds where the node's network is slower than its own
        // NVLink-class ring.
        let s = Scenario::new(i.clone()).expect("valid");
        let network = estimator_core::collective::bus_bandwidth(&s).network.map_or(f64::INFINITY, |n| n.get());
        let intra_faster = !matches!(s.intra_node().link, IntraNodeLink::Pcie | IntraNodeLink::PcieHostStaged)
            && network <= s.intra_node().ring.get();
        // HSDP adds a call per unit: where latency, not bytes, sets the time, more calls cost more whatever the
        // bytes. The law is about bytes: every call moves more than its latency's worth.
        let bandwidth_bound =
            |e: &StepEstimate| e.traffic.iter().all(|t| !t.latency_bound);
        if intra_faster
            && bandwidth_bound(&hsdp)
            && bandwidth_bound(&fsdp)
            && hsdp.network_bytes_per_gpu < fsdp.network_bytes_per_gpu
        {
            // HSDP's last unit's all-reduce follows its reduce-scatter when the backward is over: nothing hides
            // it. Beyond that, never slower.
            let tail = hsdp.traffic.iter().filter(|t| t.kind == Kind::HsdpAllReduce).map(|t| t.call_s().as_secs()).sum::<f64>();
            let slack = StepEstimate { step_s: fsdp.step_s + estimator_core::Seconds::new(tail), ..fsdp.clone() };
            prop_assert!(not_slower(&hsdp, &slack), "{} {} vs {} {}", hsdp.layout.description(), hsdp.step_s, fsdp.layout.description(), fsdp.step_s);
        }
    }

    #[test]
    fn more_parameters_never_make_a_step_faster(i in scenario(), factor in 1.0..10.0f64) {
        // Beyond bucket packing: the last bucket is what is left over, so a model just past a multiple of the
        // bucket size exposes a smaller last bucket; never by more than one full bucket's time.
        let bigger = ScenarioInput { params: (i.params * factor).min(1e14), ..i.clone() };
        let (small, large) = (step(&i), step(&bigger));
        let bucket = large.traffic.iter().chain(&small.traffic).map(|t| t.call_s()).fold(estimator_core::Seconds::ZERO, estimator_core::Seconds::max);
        let slack = StepEstimate { step_s: large.step_s + bucket, ..large.clone() };
        prop_assert!(not_slower(&small, &slack), "{} vs {}", small.step_s, large.step_s);
    }

    #[test]
    fn lower_bound_is_a_bound_of_the_communication_and_the_step(i in scenario()) {
        let e = step(&i);
        let rate = i.link_gbps / 8.0 * 1e9 * i.adapters_per_node as f64;
        let floor = e.network_floor_bytes_per_node.get();
        prop_assert!(floor <= e.network_bytes_per_node.get() * (1.0 + 1e-12));
        let expected = if floor > 0.0 { floor / rate } else { 0.0 };
        prop_assert!((e.lower_bound_s.as_secs() - expected).abs() <= 1e-9 * expected.max(1e-9));
        // A bound is below what it bounds: the communication (each call at its size, with latency and the links'
        // efficiency) and so the step.
        prop_assert!(e.lower_bound_s.as_secs() <= e.comm_s.as_secs() * (1.0 + 1e-9), "{} > {}", e.lower_bound_s, e.comm_s);
        prop_assert!(e.lower_bound_s.as_secs() <= e.step_s.as_secs() * (1.0 + 1e-9), "{} > {}", e.lower_bound_s, e.step_s);
    }

    #[test]
    fn lower_bound_is_the_one_link_arithmetic_with_one_gpu_and_one_adapter_per_node(
        i in scenario(), sync in prop::sample::select(vec![SyncStrategy::Ddp, SyncStrategy::Zero1]),
    ) {
        let i = ScenarioInput { gpus_per_node: 1, adapters_per_node: 1, tp: 1, pp: 1, ep: 1, etp: None, model: None,
            sync, nodes: i.nodes.max(2), nvlink_domain_gpus: None, shard_group: None, micro_batches: None, ..i };
        let Ok(s) = Scenario::new(i.clone()) else { return Ok(()) };
        let e = estimator_core::estimate_step(&s);
        let expected = e.bytes_per_participant.get() / (i.link_gbps / 8.0 * 1e9);
        prop_assert!((e.lower_bound_s.as_secs() - expected).abs() <= 1e-6 * expected, "{} vs {expected}", e.lower_bound_s);
    }
}

fn op() -> impl Strategy<Value = estimator_core::collective::Op> {
    prop::sample::select(estimator_core::collective::Op::ALL.to_vec())
}

/// The time of `op` on `bytes` for a scenario input, µs.
fn time_us(i: &ScenarioInput, op: estimator_core::collective::Op, bytes: f64) -> f64 {
    let s = Scenario::new(i.clone()).expect("strategy yields valid scenarios");
    estimator_core::collective::collective(&s, op, estimator_core::Bytes::new(bytes)).time_us
}

/// Allows for floating-point rounding when comparing two times.
fn not_longer(after: f64, before: f64) -> bool {
    after <= before * (1.0 + 1e-9) + 1e-9
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn every_collective_is_finite_at_every_size(i in scenario(), op in op(), log_bytes in 0.0..48.0f64) {
        let s = Scenario::new(i).expect("valid");
        let e = estimator_core::collective::collective(&s, op, estimator_core::Bytes::new(2f64.powf(log_bytes)));
        prop_assert_eq!(first_non_finite(&e), None);
        prop_assert!(e.time_us >= 0.0 && e.busbw_gbs >= 0.0);
    }

    #[test]
    fn larger_messages_never_take_less_time(i in scenario(), op in op(), log_bytes in 0.0..44.0f64, grow in 1.0..64.0f64) {
        let b = 2f64.powf(log_bytes);
        prop_assert!(not_longer(time_us(&i, op, b), time_us(&i, op, b * grow)), "{:?} {} -> {}", op, b, b * grow);
    }

    #[test]
    fn more_adapters_never_slow_a_collective(i in scenario(), op in op(), log_bytes in 0.0..40.0f64, more in 1i64..8) {
        let wider = ScenarioInput { adapters_per_node: (i.adapters_per_node + more).min(64), ..i.clone() };
        let b = 2f64.powf(log_bytes);
        prop_assert!(not_longer(time_us(&wider, op, b), time_us(&i, op, b)));
    }

    #[test]
    fn a_faster_link_never_slows_a_collective(i in scenario(), op in op(), log_bytes in 0.0..40.0f64, factor in 1.0..8.0f64) {
        let faster = ScenarioInput { link_gbps: (i.link_gbps * factor).min(3200.0), ..i.clone() };
        let b = 2f64.powf(log_bytes);
        prop_assert!(not_longer(time_us(&faster, op, b), time_us(&i, op, b)));
    }
}

proptest! {
    #[test]
    fn a_measured_bus_bandwidth_never_takes_the_communication_below_its_bound(
        i in scenario(), busbw in 0.1..5000.0f64,
    ) {
        let i = ScenarioInput { measured_busbw_gbs: Some(busbw), ..i };
        let Ok(s) = Scenario::new(i) else { return Ok(()) };
        let e = estimate_step(&s);
        prop_assert!(e.lower_bound_s.as_secs() <= e.comm_s.as_secs() * (1.0 + 1e-9), "{} > {}", e.lower_bound_s, e.comm_s);
        prop_assert!(e.lower_bound_s.as_secs() <= e.step_s.as_secs() * (1.0 + 1e-9), "{} > {}", e.lower_bound_s, e.step_s);
    }
}
