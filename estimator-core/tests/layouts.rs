//! The step as frameworks run it: each layout's traffic, its schedule and its advice, on worked examples whose
//! numbers follow from the shapes and the rules by hand.

use estimator_core::traffic::{Kind, Tier};
use estimator_core::{
    ComputeInput, Fabric, Field, Scenario, ScenarioInput, StepEstimate, SyncStrategy, estimate, estimate_step,
};

fn scenario(change: impl FnOnce(&mut ScenarioInput)) -> Scenario {
    let mut i = ScenarioInput::default();
    change(&mut i);
    Scenario::new(i).expect("valid")
}

fn step(change: impl FnOnce(&mut ScenarioInput)) -> StepEstimate {
    estimate_step(&scenario(change))
}

fn row(e: &StepEstimate, kind: Kind) -> &estimator_core::traffic::Traffic {
    e.traffic.iter().find(|t| t.kind == kind).unwrap_or_else(|| panic!("{kind:?} in {:?}", e.traffic))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn tensor_parallel_all_reduces_b_s_h_four_times_per_layer() {
    // Llama 3.1 70B, TP 8 inside each node: 80 layers x 4 all-reduces of 1 x 4096 x 8192 x 2 bytes per micro-batch.
    let e = step(|i| {
        i.model = Some("llama-3.1-70b".into());
        i.sync = SyncStrategy::Zero1;
        i.tp = 8;
        i.micro_batches = Some(16);
    });
    let tp = row(&e, Kind::TpAllReduce);
    assert_eq!((tp.ranks, tp.tier), (8, Tier::IntraNode));
    assert_eq!(tp.calls, 16 * 80 * 4);
    assert!(close(tp.message_bytes.get(), 4096.0 * 8192.0 * 2.0));
    // Data parallel over the 2 nodes: one rank per node, the node's adapters shared by the 8 TP ranks' groups.
    let dp = row(&e, Kind::GradientReduceScatter);
    assert_eq!((dp.ranks, dp.tier), (2, Tier::Network));
    // Each GPU holds an eighth of the model: its gradients are 70.6B x 2 / 8 bytes.
    let grads: f64 = 70.6e9 * 2.0 / 8.0;
    assert!(close(dp.bytes_per_gpu.get(), grads * 0.5), "reduce-scatter over 2 ranks sends half");
}

#[test]
fn hsdp_keeps_the_gathers_in_the_node_and_sends_only_the_shards_across() {
    let fsdp = step(|i| i.sync = SyncStrategy::Zero3);
    let hsdp = step(|i| i.sync = SyncStrategy::Hsdp);
    assert!(fsdp.traffic.iter().all(|t| t.tier == Tier::Network));
    assert_eq!(row(&hsdp, Kind::FsdpAllGather).tier, Tier::IntraNode);
    let across = row(&hsdp, Kind::HsdpAllReduce);
    assert_eq!((across.ranks, across.tier), (2, Tier::Network));
    // Once per step, each GPU's eighth of the gradients, all-reduced over 2 nodes: 2 x (1/2) x 14 GB / 8.
    assert!(close(across.bytes_per_gpu.get(), 14e9 / 8.0), "{}", across.bytes_per_gpu.get());
    assert!(close(hsdp.network_bytes_per_gpu.get(), 14e9 / 8.0));
    assert!(hsdp.network_bytes_per_gpu.get() * 10.0 < fsdp.network_bytes_per_gpu.get());
}

#[test]
fn the_layout_advice_moves_the_shards_off_a_slow_link() {
    // 7B with ZeRO-3 over one 25 GbE port per node: HSDP is the advice, and says by how much.
    let s = scenario(|i| {
        i.sync = SyncStrategy::Zero3;
        i.adapters_per_node = 1;
        i.link_gbps = 25.0;
        i.fabric = Fabric::Roce;
        i.compute = ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.4 };
    });
    let advice = estimate(&s).recommendation.layout.expect("advice on 16 GPUs");
    assert_eq!(advice.best, SyncStrategy::Hsdp);
    assert!(advice.step_s < advice.current_step_s);
    assert!(advice.headline.starts_with("HSDP (shard over 8) cuts each GPU's share"), "{}", advice.headline);
    // DDP keeps 20 bytes per parameter on every GPU: 140 GB do not fit in 80 GiB, so it is never the advice.
    let ddp = advice.options.iter().find(|o| o.sync == SyncStrategy::Ddp).expect("compared");
    assert!(!ddp.fits);
    // One GPU: nothing to advise.
    let one = scenario(|i| {
        i.nodes = 1;
        i.gpus_per_node = 1;
        i.params = 1e9;
    });
    assert_eq!(estimate(&one).recommendation.layout, None);
}

#[test]
fn pipeline_stages_send_activations_and_wait_in_the_bubble() {
    let e = step(|i| {
        i.model = Some("llama-3.1-8b".into());
        i.pp = 2;
        i.micro_batches = Some(8);
        i.compute = ComputeInput::Given { ms: 8000.0 };
    });
    let pp = row(&e, Kind::PpSend);
    assert_eq!((pp.calls, pp.tier), (16, Tier::Network), "one forward and one backward per micro-batch");
    assert!(close(pp.message_bytes.get(), 4096.0 * 4096.0 * 2.0));
    // 1F1B: (p - 1) / m of the compute.
    assert!(close(e.bubble_s.as_secs(), 8.0 / 8.0));
    let parts = e.compute_s.as_secs() + e.exposed_comm_s.as_secs() + e.rank_wait_s.as_secs() + 1.0;
    assert!(close(e.step_s.as_secs(), parts));
}

#[test]
fn experts_exchange_tokens_top_k_times_per_moe_layer() {
    // Mixtral 8x7B, EP 8 inside a node: 32 MoE layers x 4 all-to-alls of 4096 tokens x 2 experts x 4096 x 2 bytes.
    let e = step(|i| {
        i.model = Some("mixtral-8x7b".into());
        i.sync = SyncStrategy::Zero3;
        i.ep = 8;
        i.micro_batches = Some(4);
    });
    let a2a = row(&e, Kind::EpAllToAll);
    assert_eq!((a2a.ranks, a2a.tier, a2a.calls), (8, Tier::IntraNode, 4 * 32 * 4));
    assert!(close(a2a.message_bytes.get(), 4096.0 * 2.0 * 4096.0 * 2.0));
    assert_eq!(a2a.exposed_s, a2a.time_s, "exposed unless the framework overlaps it");
    let overlapped = step(|i| {
        i.model = Some("mixtral-8x7b".into());
        i.sync = SyncStrategy::Zero3;
        i.ep = 8;
        i.micro_batches = Some(4);
        i.ep_overlap = true;
    });
    assert!(row(&overlapped, Kind::EpAllToAll).exposed_s < a2a.exposed_s);
    // Compute follows the active parameters: 12.9B of 46.7B.
    let dense_like = 6.0 * 12.9e9 * estimator_core::scenario::DEFAULT_TOKENS_PER_STEP / (16.0 * 989e12 * 0.4);
    assert!(close(e.compute_s.as_secs(), dense_like));
}

#[test]
fn bad_layouts_name_the_field_and_the_reason() {
    let reject = |change: fn(&mut ScenarioInput), field: Field, text: &str| {
        let mut i = ScenarioInput::default();
        change(&mut i);
        let e = Scenario::new(i).expect_err("rejected");
        assert_eq!(e.field, field, "{e}");
        assert!(e.to_string().contains(text), "'{e}' should say '{text}'");
    };
    reject(|i| i.tp = 3, Field::Tp, "must divide the job's 16 GPUs");
    reject(|i| i.pp = 32, Field::Pp, "at most 16");
    reject(|i| i.ep = 2, Field::Ep, "mixture-of-experts");
    reject(|i| i.model = Some("gpt-7".into()), Field::Model, "unknown model 'gpt-7'");
    reject(
        |i| {
            i.model = Some("llama-3.1-8b".into());
            i.nodes = 8;
            i.tp = 64;
        },
        Field::Tp,
        "32 attention heads",
    );
    reject(
        |i| {
            i.sync = SyncStrategy::Hsdp;
            i.shard_group = Some(3);
        },
        Field::ShardGroup,
        "must divide",
    );
    reject(|i| i.micro_batch_size = 0, Field::MicroBatchSize, "at least 1");
    // Tensor parallelism across nodes is allowed, and warned about.
    let s = scenario(|i| i.tp = 16);
    assert!(s.warnings().iter().any(|w| w.contains("spans nodes")), "{:?}", s.warnings());
}

#[test]
fn a_named_model_counts_its_activations_and_checkpointing_shrinks_them() {
    let plain = estimate(&scenario(|i| {
        i.model = Some("llama-3.1-70b".into());
        i.sync = SyncStrategy::Zero3;
        i.nodes = 4;
    }));
    let ckpt = estimate(&scenario(|i| {
        i.model = Some("llama-3.1-70b".into());
        i.sync = SyncStrategy::Zero3;
        i.nodes = 4;
        i.activation_checkpointing = true;
    }));
    // 80 layers x 34 x 4096 x 8192 bytes (91 GB) do not fit an 80 GiB H100; 2 bytes per layer do.
    assert!(!plain.memory.fits && ckpt.memory.fits);
    assert!(ckpt.memory.activation_bytes_per_gpu.get() * 10.0 < plain.memory.activation_bytes_per_gpu.get());
    // Recomputation costs a forward pass: 8 instead of 6 FLOPs per parameter per token.
    assert!(close(ckpt.step.compute_s.as_secs() / plain.step.compute_s.as_secs(), 8.0 / 6.0));
    // A bare parameter count is a dense transformer of that size: the generic shape's activations count (issue
    // 39: an L40S "fit" a 7B job on its states alone), within a fifth of the published 70B shape's.
    let bare = estimate(&scenario(|i| i.params = 70e9));
    assert_eq!(bare.memory.activations_from, estimator_core::memory::ActivationSource::Generic);
    let ratio = bare.memory.activation_bytes_per_gpu.get() / plain.memory.activation_bytes_per_gpu.get();
    assert!((0.8..1.25).contains(&ratio), "{ratio}");
}

#[test]
fn a_measured_bus_bandwidth_reaches_the_groups_across_nodes() {
    // HSDP: the cross-node all-reduce runs on groups of 2 ranks; a fabric measured at half the model's own
    // all-reduce bus bandwidth halves their bandwidth too, and leaves the gathers inside the node alone.
    let plain = step(|i| i.sync = SyncStrategy::Hsdp);
    let peak = estimator_core::collective::model_peak_busbw_gbs(&scenario(|i| i.sync = SyncStrategy::Hsdp));
    let half = step(|i| {
        i.sync = SyncStrategy::Hsdp;
        i.measured_busbw_gbs = Some(peak / 2.0);
    });
    let (a, b) = (row(&plain, Kind::HsdpAllReduce), row(&half, Kind::HsdpAllReduce));
    assert!(b.call_s.as_secs() > 1.5 * a.call_s.as_secs(), "{:?} vs {:?}", b.call_s, a.call_s);
    assert_eq!(row(&plain, Kind::FsdpAllGather).call_s, row(&half, Kind::FsdpAllGather).call_s);
}

#[test]
fn megatrons_overlap_settings_decide_what_zero1_exposes() {
    let job = |grad: bool, param: bool| {
        step(|i| {
            i.model = Some("llama-3.1-8b".into());
            i.sync = SyncStrategy::Zero1;
            i.nodes = 8;
            i.compute = ComputeInput::Given { ms: 4000.0 };
            i.overlap_grad_reduce = grad;
            i.overlap_param_gather = param;
        })
    };
    let (recipe, default, off) = (job(true, true), job(true, false), job(false, false));
    // Without overlap, megatron-core reduce-scatters the whole gradient at once, after the backward: one call,
    // all of it exposed.
    let rs = row(&off, Kind::GradientReduceScatter);
    assert_eq!(rs.calls, 1);
    assert_eq!(rs.exposed_s, rs.time_s);
    assert!(row(&default, Kind::GradientReduceScatter).calls > 1);
    // With it on, the buckets hide behind the backward; the parameter gather behind the next forward.
    let (ag_on, ag_off) = (row(&recipe, Kind::ParameterAllGather), row(&default, Kind::ParameterAllGather));
    assert_eq!(ag_off.exposed_s, ag_off.time_s);
    assert!(ag_on.exposed_s < ag_on.time_s);
    assert!(recipe.step_s <= default.step_s && default.step_s <= off.step_s);
    // The settings mean nothing to DDP.
    let ddp = |grad| {
        step(|i| {
            i.overlap_grad_reduce = grad;
            i.compute = ComputeInput::Given { ms: 4000.0 };
        })
    };
    assert_eq!(ddp(true).step_s, ddp(false).step_s);
}

/// megatron-core's MoE parallel folding: the experts take their own decomposition of a stage's ranks (expert
/// tensor parallel, expert parallel, expert data parallel, in that order), so an expert-parallel degree may pass the
/// data-parallel one, and with ETP 1 an EP 8 group beside TP 2 stays inside an 8-GPU node.
#[test]
fn experts_fold_into_the_tensor_and_data_parallel_ranks() {
    // Qwen3-235B-A22B on 8 nodes x 8 GPUs, TP 4 inside each node: 16 data-parallel ranks, yet EP 32.
    let folded = |etp: Option<i64>, ep: i64| {
        Scenario::new(ScenarioInput {
            model: Some("qwen3-235b-a22b".into()),
            sync: SyncStrategy::Zero1,
            nodes: 8,
            tp: 4,
            ep,
            etp,
            micro_batches: Some(8),
            ..ScenarioInput::default()
        })
    };
    let s = folded(Some(1), 32).expect("EP 32 over 16 data-parallel ranks folds with ETP 1");
    let l = s.layout();
    assert_eq!((l.dp, l.ep, l.etp, l.expert_dp()), (16, 32, 1, 2));
    let e = estimate_step(&s);
    let a2a = row(&e, Kind::EpAllToAll);
    assert_eq!((a2a.ranks, a2a.tier), (32, Tier::Network), "32 adjacent ranks: four nodes");
    // Each GPU holds 1/(1 x 32) of the routed experts and 1/4 of the rest.
    let shape = s.shape();
    let local = (shape.params - shape.expert_params()) / 4.0 + shape.expert_params() / 32.0;
    assert!(close(estimator_core::traffic::local_params(&s), local));
    // The experts' gradients are reduced over the 2 ranks that hold the same experts, the rest over the 16
    // data-parallel ranks; with EP 64 each expert lives on one rank and has nothing to reduce.
    let rs: Vec<(u32, f64)> = e
        .traffic
        .iter()
        .filter(|t| t.kind == Kind::GradientReduceScatter)
        .map(|t| (t.ranks, t.bytes_per_gpu.get()))
        .collect();
    let expert_bytes = shape.expert_params() / 32.0 * 2.0;
    assert_eq!(rs.len(), 2, "{rs:?}");
    assert_eq!(rs[0].0, 16);
    assert!(rs[1].0 == 2 && close(rs[1].1, expert_bytes / 2.0), "{rs:?}");
    let alone = estimate_step(&folded(Some(1), 64).expect("EP 64 over a stage of 64"));
    let rows: Vec<u32> =
        alone.traffic.iter().filter(|t| t.kind == Kind::GradientReduceScatter).map(|t| t.ranks).collect();
    assert_eq!(rows, [16], "one expert per rank: nothing of theirs to reduce");
    // Without ETP the experts take TP's 4: 4 x 32 = 128 ranks do not divide a stage of 64.
    let err = folded(None, 32).expect_err("ep x tp = 128 over 64 GPUs");
    assert_eq!(err.field, Field::Ep);
    assert!(err.to_string().contains("must divide a pipeline stage's 64 GPUs"), "{err}");
    let err = folded(Some(3), 8).expect_err("ETP 3 on nodes of 8");
    assert_eq!(err.field, Field::Etp);

    // Mixtral 8x7B, TP 2 and EP 8 on 2 nodes x 8: with ETP 1 the expert-parallel group is 8 adjacent ranks, one
    // node, and its all-to-all never touches the adapters; with ETP = TP (megatron-core's default) it strides 2
    // and spans both nodes.
    let mixtral = |etp: Option<i64>| {
        step(|i| {
            i.model = Some("mixtral-8x7b".into());
            i.sync = SyncStrategy::Zero1;
            i.tp = 2;
            i.ep = 8;
            i.etp = etp;
            i.micro_batches = Some(8);
        })
    };
    let inside = mixtral(Some(1));
    let a2a = row(&inside, Kind::EpAllToAll);
    assert_eq!((a2a.ranks, a2a.tier, a2a.network_bytes_per_gpu.get()), (8, Tier::IntraNode, 0.0));
    let across = mixtral(None);
    assert_eq!(row(&across, Kind::EpAllToAll).tier, Tier::Network);
    assert!(across.layout.layout.etp == 2 && across.network_bytes_per_gpu > inside.network_bytes_per_gpu);
    // A dense model takes no expert tensor parallelism.
    let dense = Scenario::new(ScenarioInput { etp: Some(1), tp: 2, ..ScenarioInput::default() });
    assert_eq!(dense.expect_err("no experts").field, Field::Etp);
}

#[test]
fn a_global_batch_under_one_sequence_per_rank_is_said() {
    // Issue 39: 262,144 tokens on 16 nodes of 8 GPUs at 8,192-token sequences is a quarter sequence per rank.
    let s = scenario(|i| {
        i.nodes = 16;
        i.seq_len = 8192;
        i.compute = ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.35 };
    });
    let w = s.warnings().join(" ");
    assert!(w.contains("262k tokens per step are fewer than one micro-batch (1 x 8192 tokens)"), "{w}");
    assert!(w.contains("128 data-parallel ranks"), "{w}");
    // The same batch on 2 nodes is two sequences per rank: nothing to say.
    let s = scenario(|i| {
        i.seq_len = 8192;
        i.compute = ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.35 };
    });
    assert!(!s.warnings().iter().any(|w| w.contains("fewer than one micro-batch")), "{:?}", s.warnings());
}

#[test]
fn gpudirect_rdma_off_says_why_it_changes_nothing_on_slow_adapters() {
    // H100s on PCIe Gen5: host staging caps an adapter at 24 GB/s, above 100 Gb/s (12.5 GB/s), below 400 Gb/s.
    let with = |gdr: bool, gbps: f64| {
        estimate(&scenario(|i| {
            i.link_gbps = gbps;
            i.gdr = gdr;
        }))
    };
    let (on, off) = (with(true, 100.0), with(false, 100.0));
    let (a, b) = (on.step.step_s.as_secs(), off.step.step_s.as_secs());
    assert!((a - b).abs() < 1e-3 * a, "next to nothing changes at 100 Gb/s: {a} against {b}");
    let note = off.notes.iter().find(|n| n.contains("GPUDirect RDMA off costs next to nothing")).expect("the note");
    assert!(note.contains("24 GB/s") && note.contains("12.5 GB/s"), "{note}");
    assert!(!on.notes.iter().any(|n| n.contains("GPUDirect RDMA off")), "no note with GDR on");
    let fast = with(false, 400.0);
    assert!(fast.step.step_s > with(true, 400.0).step.step_s, "at 400 Gb/s the staging costs");
    assert!(!fast.notes.iter().any(|n| n.contains("next to nothing")), "{:?}", fast.notes);
}

#[test]
fn an_l40s_holds_what_its_driver_reports_and_a_7b_jobs_activations() {
    // Issue 39: a 7B job "fit" an L40S at 35.9 of "48.0 GiB": its states alone, against the card's 48 GB read as
    // GiB. The driver reports 46068 MiB (ECC on), and a 7B transformer's activations count.
    let e = estimate(&scenario(|i| {
        i.gpu = "l40s".into();
        i.sync = SyncStrategy::Zero1;
    }));
    assert_eq!(e.memory.gpu_memory_bytes.get(), 46068.0 * 1024.0 * 1024.0);
    assert!(e.memory.activation_bytes_per_gpu.get() > 10e9, "{:?}", e.memory);
    assert!(!e.memory.fits, "{:?}", e.memory);
    // The named 8B shape and the generic 7B one need about as much.
    let named = estimate(&scenario(|i| {
        i.gpu = "l40s".into();
        i.sync = SyncStrategy::Zero1;
        i.model = Some("llama-3.1-8b".into());
        i.params = 8.03e9;
    }));
    let ratio = named.memory.activation_bytes_per_gpu.get() / e.memory.activation_bytes_per_gpu.get();
    assert!((0.8..1.25).contains(&ratio), "{ratio}");
}

#[test]
fn recomputed_activations_split_by_tensor_parallelism_and_do_not_grow_with_stages() {
    // A stranger's try of issue 39: with checkpointing, activations grew with pipeline stages (one recomputed layer
    // counted per micro-batch in flight) and did not split over TP. Korthikanti et al. 2022: the first stage holds
    // p micro-batches of L/p layers' inputs (2 sbh / t each, sequence parallel), and recomputes one layer at a time.
    let act = |tp: i64, pp: i64| {
        estimate(&scenario(|i| {
            i.model = Some("llama-3.1-70b".into());
            i.params = 70.6e9;
            i.sync = SyncStrategy::Zero3;
            i.nodes = 8;
            i.tp = tp;
            i.pp = pp;
            i.activation_checkpointing = true;
        }))
        .memory
        .activation_bytes_per_gpu
        .get()
    };
    assert!(act(8, 1) < act(1, 1) / 4.0, "TP 8 splits them: {} against {}", act(8, 1), act(1, 1));
    assert!(act(8, 8) <= act(8, 1) * 1.01, "stages do not add: {} against {}", act(8, 8), act(8, 1));
}

#[test]
fn a_measured_bus_bandwidth_past_the_adapters_is_said() {
    // 8 x 400 Gb/s on two nodes of 8: an all-reduce's bus bandwidth is at most 400 GB/s x 15/16 x 2 = 750 GB/s.
    let e = estimate(&scenario(|i| i.measured_busbw_gbs = Some(5000.0)));
    assert!(e.notes.iter().any(|n| n.contains("(at most 750 GB/s)")), "{:?}", e.notes);
    let e = estimate(&scenario(|i| i.measured_busbw_gbs = Some(300.0)));
    assert!(!e.notes.iter().any(|n| n.contains("more than the adapters carry")), "{:?}", e.notes);
}

#[test]
fn each_framework_buckets_and_reduces_as_its_source_does() {
    use estimator_core::scenario::Framework;
    // 7B ZeRO-2 over 2 nodes with 8 micro-batches. DeepSpeed (the layout's framework without TP or PP) reduces
    // every micro-batch in 5e8-element buckets; Megatron only in the last, in max(40M, 1M x 16) elements.
    let ds = step(|i| {
        i.sync = SyncStrategy::Zero2;
        i.micro_batches = Some(8);
    });
    assert_eq!(ds.layout.framework(), Framework::Deepspeed);
    let rs = row(&ds, Kind::GradientReduceScatter);
    assert!(close(rs.message_bytes.get(), 5e8 * 2.0));
    let grads: f64 = 7e9 * 2.0;
    assert_eq!(rs.calls, 8 * (grads / 1e9).ceil() as u64, "every micro-batch");
    let mg = step(|i| {
        i.sync = SyncStrategy::Zero2;
        i.micro_batches = Some(8);
        i.framework = Some(Framework::Megatron);
    });
    let rs = row(&mg, Kind::GradientReduceScatter);
    assert!(close(rs.message_bytes.get(), 40e6 * 2.0));
    assert_eq!(rs.calls, (grads / 80e6).ceil() as u64, "the last micro-batch only");
    assert!(mg.comm_s < ds.comm_s);
    // PyTorch DDP's 25 MiB; a bucket given overrides any framework's.
    let ddp = step(|_| {});
    assert!(close(row(&ddp, Kind::GradientAllReduce).message_bytes.get(), 25.0 * 1024.0 * 1024.0));
    let given = step(|i| {
        i.framework = Some(Framework::Megatron);
        i.bucket_bytes = Some(1e8);
    });
    assert!(close(row(&given, Kind::GradientAllReduce).message_bytes.get(), 1e8));
    // Megatron's bucket grows with the data-parallel ranks past 40: 128 ranks, 128M elements.
    let wide = step(|i| {
        i.sync = SyncStrategy::Zero1;
        i.nodes = 16;
        i.framework = Some(Framework::Megatron);
    });
    assert!(close(row(&wide, Kind::GradientReduceScatter).message_bytes.get(), 128e6 * 2.0));
}
