//! The rental plan: node counts, the deadline, prices and the ranking; prices and offers read from text.

use super::*;
use crate::scenario::ScenarioInput;

/// Llama 3.1 8B with FSDP, 4M tokens per step at 40% MFU.
fn job() -> ScenarioInput {
    ScenarioInput { model: Some("llama-3.1-8b".into()), sync: SyncStrategy::Zero3, ..ScenarioInput::default() }
}

fn only(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_offer_is_planned_and_ranked_by_time_without_prices() {
    let p = plan(&job(), &PlanInput { tokens: 1e11, max_nodes: 16, ..PlanInput::default() }).expect("a plan");
    assert_eq!(p.ranked_by, "time");
    assert_eq!(p.offers.len(), OFFERS.len());
    assert_eq!(p.steps, (1e11 / crate::scenario::DEFAULT_TOKENS_PER_STEP).ceil() as u64, "whole steps");
    let fitting: Vec<&OfferPlan> = p.offers.iter().filter(|o| o.nodes.is_some()).collect();
    assert!(fitting.len() >= 30, "{}", fitting.len());
    for w in fitting.windows(2) {
        assert!(w[0].time_to_train_s <= w[1].time_to_train_s, "{} before {}", w[0].id, w[1].id);
    }
    for o in &fitting {
        let (n, step, time, hours) = (
            o.nodes.expect("nodes"),
            o.step_s.expect("step"),
            o.time_to_train_s.expect("time"),
            o.gpu_hours.expect("hours"),
        );
        assert!((time - p.steps as f64 * step).abs() <= 1e-9 * time, "{}", o.id);
        assert!((hours - f64::from(n * o.offer.gpus_per_node) * time / 3600.0).abs() <= 1e-9 * hours, "{}", o.id);
        assert_eq!(o.cost_usd, None);
        assert!(o.min_nodes.is_some_and(|m| m <= n), "{}", o.id);
    }
    assert!(p.headline.starts_with("Fastest, each offer at its fewest GPU-hours"), "{}", p.headline);
}

#[test]
fn the_smallest_count_that_fits_is_the_first_that_fits() {
    // Llama 3.1 70B with FSDP and activation checkpointing: 16 bytes per parameter over the GPUs, plus the
    // checkpointed activations; one 8x H100 node is too small.
    let job = ScenarioInput { model: Some("llama-3.1-70b".into()), activation_checkpointing: true, ..job() };
    let p = plan(
        &job,
        &PlanInput { tokens: 1e10, max_nodes: 16, only: only(&["azure-nd96isr-h100-v5"]), ..Default::default() },
    )
    .expect("a plan");
    let o = &p.offers[0];
    let min = o.min_nodes.expect("fits on some count");
    assert!(min > 1, "{min}");
    let at = |n: u32| {
        let mut i = job.clone();
        o.offer.apply(&mut i);
        i.nodes = i64::from(n);
        memory_fit(&Scenario::new(i).expect("valid")).fits
    };
    assert!(at(min) && !at(min - 1), "{min}");
}

#[test]
fn a_deadline_picks_the_smallest_count_that_meets_it() {
    let base = PlanInput { tokens: 2e11, max_nodes: 64, only: only(&["aws-p5.48xlarge"]), ..Default::default() };
    let free = plan(&job(), &base).expect("a plan");
    let one = &free.offers[0];
    let t = one.time_to_train_s.expect("a time");
    // A deadline a third of the cheapest plan's time: more nodes, and one fewer would miss it.
    let p = plan(&job(), &PlanInput { deadline_s: Some(t / 3.0), ..base.clone() }).expect("a plan");
    let o = &p.offers[0];
    let n = o.deadline_nodes.expect("met within 64 nodes");
    assert_eq!(o.meets_deadline, Some(true));
    assert!(o.time_to_train_s.expect("a time") <= t / 3.0);
    let mut i = job();
    o.offer.apply(&mut i);
    i.nodes = i64::from(n - 1);
    let slower = estimate_step(&Scenario::new(i).expect("valid")).step_s.as_secs() * p.steps as f64;
    assert!(slower > t / 3.0, "{} nodes would meet it too", n - 1);
    // An impossible deadline: the offer comes closest at its fastest, and says so.
    let p = plan(&job(), &PlanInput { deadline_s: Some(60.0), ..base }).expect("a plan");
    let o = &p.offers[0];
    assert_eq!(o.meets_deadline, Some(false));
    assert!(o.why.as_deref().is_some_and(|w| w.starts_with("misses the deadline")), "{:?}", o.why);
    assert!(p.headline.starts_with("No offer meets the deadline"), "{}", p.headline);
}

#[test]
fn prices_rank_by_cost_and_unpriced_offers_follow() {
    let prices = parse_prices("id,usd_per_gpu_hour\naws-p5.48xlarge,3.9\nazure-nd96isr-h100-v5,6.98\n").expect("read");
    let p = plan(
        &job(),
        &PlanInput {
            tokens: 1e11,
            max_nodes: 16,
            prices,
            only: only(&["aws-p5.48xlarge", "azure-nd96isr-h100-v5", "generic-8xh100-sxm-1x25gbe-tcp"]),
            ..Default::default()
        },
    )
    .expect("a plan");
    assert_eq!(p.ranked_by, "cost");
    let ids: Vec<&str> = p.offers.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids[2], "generic-8xh100-sxm-1x25gbe-tcp", "unpriced last: {ids:?}");
    for o in &p.offers[..2] {
        let c = o.cost_usd.expect("priced");
        assert!((c - o.gpu_hours.expect("hours") * o.usd_per_gpu_hour.expect("price")).abs() < 1e-6 * c);
    }
    assert!(p.offers[0].cost_usd <= p.offers[1].cost_usd);
    assert!(p.headline.starts_with("Cheapest: "), "{}", p.headline);
}

#[test]
fn an_offer_that_cannot_take_the_job_says_why_and_comes_last() {
    let job = ScenarioInput { model: Some("llama-3.1-405b".into()), sync: SyncStrategy::Ddp, ..job() };
    let p = plan(
        &job,
        &PlanInput {
            max_nodes: 4,
            only: only(&["generic-1xrtx4090-10gbe-tcp", "aws-p5.48xlarge"]),
            best_layout: true,
            ..Default::default()
        },
    )
    .expect("a plan");
    let last = p.offers.last().expect("two");
    assert_eq!((last.id.as_str(), last.fits, last.nodes), ("generic-1xrtx4090-10gbe-tcp", false, None));
    assert!(last.why.as_deref().is_some_and(|w| w.contains("does not fit in memory")), "{:?}", last.why);
}

#[test]
fn the_best_layout_is_never_slower_than_the_jobs_own() {
    let base =
        PlanInput { tokens: 1e11, max_nodes: 8, only: only(&["generic-8xh100-sxm-1x25gbe-tcp"]), ..Default::default() };
    let own = plan(&job(), &base).expect("a plan");
    let best = plan(&job(), &PlanInput { best_layout: true, ..base }).expect("a plan");
    assert!(best.offers[0].gpu_hours <= own.offers[0].gpu_hours, "{:?} vs {:?}", best.offers[0], own.offers[0]);
    // On one 25 GbE port FSDP's gathers cross the network every micro-batch: another layout is faster.
    assert_ne!(best.offers[0].layout, own.offers[0].layout);
}

#[test]
fn offers_of_ones_own_are_planned_beside_the_catalog() {
    let rows = parse_prices(
        "# my quotes\nid,name,gpu,gpus_per_node,adapters,link_gbps,fabric,usd_per_gpu_hour\n\
         my-h100,\"My cloud, 8x H100\",h100-sxm,8,4,200,roce,2.1\n",
    )
    .expect("read");
    let o = rows[0].offer.as_ref().expect("an offer");
    assert_eq!((o.name.as_str(), o.adapters, o.gdr, o.source.as_str()), ("My cloud, 8x H100", 4, true, "your file"));
    let p = plan(
        &job(),
        &PlanInput { tokens: 1e10, max_nodes: 4, prices: rows, only: only(&["aws-p5.48xlarge"]), ..Default::default() },
    )
    .expect("a plan");
    assert_eq!(p.offers.len(), 2);
    assert!(p.offers.iter().any(|o| o.id == "my-h100" && o.cost_usd.is_some()));
}

#[test]
fn bad_prices_and_offers_name_the_line_and_the_column() {
    let err = |text: &str| parse_prices(text).expect_err("refused");
    let e = err("id,usd_per_gpu_hour\naws-p5.48xlarge,cheap\n");
    assert_eq!((e.at.as_str(), e.column.as_str()), ("line 2", "usd_per_gpu_hour"));
    let e = err("id,usd_per_gpu_hour\naws-p5.48xlarge,-1\n");
    assert!(e.why.contains("from 0"), "{e}");
    let e = err("id,colour\nx,red\n");
    assert_eq!((e.at.as_str(), e.column.as_str()), ("line 1", "colour"));
    let e = err("id,gpu,gpus_per_node,adapters,link_gbps,fabric\nmine,h100,8,4,200,pigeon\n");
    assert_eq!(e.column, "fabric");
    let e = err("id,gpu,gpus_per_node\nmine,h100,8\n");
    assert_eq!(e.column, "adapters");
    let e = err("id,gpu,gpus_per_node,adapters,link_gbps,fabric\nmine,h100,8.5,4,200,ib\n");
    assert_eq!(e.column, "gpus_per_node");
    let e = err("id,usd_per_gpu_hour\n<script>,1\n");
    assert_eq!(e.column, "id");
    let many: String = (0..=prices::MAX_ROWS).map(|i| format!("o{i}=1\n")).collect();
    assert!(err(&many).why.contains("more than"), "a cap on rows");
    assert_eq!(parse_prices("aws-p5.48xlarge=3.9\nazure-nd96isr-h100-v5 = 7\n").expect("read").len(), 2);
    assert!(prices::parse_price_arg("aws-p5.48xlarge").is_err());
    // An unknown id without hardware, a catalog id with hardware, an unknown offer in `only`: refused by the plan.
    let bad = |p: PlanInput| plan(&job(), &p).expect_err("refused").field;
    let rows = |t: &str| parse_prices(t).expect("read");
    // A priced id that is no offer is the prices' error (issue 39: it was blamed on --only).
    assert_eq!(bad(PlanInput { prices: rows("nope=1"), ..Default::default() }), Field::Price);
    let mine = "id,gpu,gpus_per_node,adapters,link_gbps,fabric\naws-p5.48xlarge,h100,8,4,200,ib\n";
    assert_eq!(bad(PlanInput { prices: rows(mine), ..Default::default() }), Field::Offer);
    assert_eq!(bad(PlanInput { only: only(&["nope"]), ..Default::default() }), Field::Offer);
    let twice = "id,gpu,gpus_per_node,adapters,link_gbps,fabric\nmine,h100,8,4,200,ib\nmine,h100,8,4,200,ib\n";
    let e = plan(&job(), &PlanInput { prices: rows(twice), ..Default::default() }).expect_err("refused");
    assert!(e.to_string().contains("described twice"), "{e}");
    assert_eq!(bad(PlanInput { tokens: 0.0, ..Default::default() }), Field::Tokens);
    assert_eq!(bad(PlanInput { deadline_s: Some(f64::NAN), ..Default::default() }), Field::DeadlineS);
    assert_eq!(bad(PlanInput { max_nodes: 0, ..Default::default() }), Field::MaxNodes);
}

#[test]
fn offers_that_meet_the_deadline_come_before_cheaper_ones_that_miss_it() {
    // 1e11 tokens in 20 days: the fast B200 offer meets it unpriced; the priced A100 offer misses it.
    let p = plan(
        &job(),
        &PlanInput {
            tokens: 1e11,
            deadline_s: Some(20.0 * 86_400.0),
            max_nodes: 2,
            prices: parse_prices("aws-p4d.24xlarge=1").expect("read"),
            only: only(&["aws-p4d.24xlarge", "nebius-gpu-b200-sxm-8"]),
            ..Default::default()
        },
    )
    .expect("a plan");
    let ids: Vec<(&str, Option<bool>)> = p.offers.iter().map(|o| (o.id.as_str(), o.meets_deadline)).collect();
    assert_eq!(ids, [("nebius-gpu-b200-sxm-8", Some(true)), ("aws-p4d.24xlarge", Some(false))], "{}", p.headline);
    assert!(p.headline.starts_with("No priced offer meets the deadline"), "{}", p.headline);
}

#[test]
fn a_large_node_limit_is_searched_without_trying_every_count() {
    // A job that fits nowhere, up to the largest limit: answered (the test's own time limit is the check).
    let big = ScenarioInput { model: Some("llama-3.1-405b".into()), sync: SyncStrategy::Ddp, ..job() };
    let p = plan(
        &big,
        &PlanInput { max_nodes: MAX_PLAN_NODES, only: only(&["generic-1xrtx4090-10gbe-tcp"]), ..Default::default() },
    )
    .expect("a plan");
    assert!(!p.offers[0].fits);
    // And the smallest count that fits is still the first: Llama 3.1 70B with FSDP needs more than one node.
    let fsdp = ScenarioInput { model: Some("llama-3.1-70b".into()), activation_checkpointing: true, ..job() };
    let p = plan(
        &fsdp,
        &PlanInput { max_nodes: MAX_PLAN_NODES, only: only(&["azure-nd96isr-h100-v5"]), ..Default::default() },
    )
    .expect("a plan");
    let small = plan(&fsdp, &PlanInput { max_nodes: 16, only: only(&["azure-nd96isr-h100-v5"]), ..Default::default() })
        .expect("a plan");
    assert_eq!(p.offers[0].min_nodes, small.offers[0].min_nodes);
}

#[test]
fn the_fastest_count_is_given_beside_the_fewest_gpu_hours() {
    let p = plan(&job(), &PlanInput { tokens: 1e11, only: only(&["aws-p5.48xlarge"]), ..PlanInput::default() })
        .expect("a plan");
    let o = &p.offers[0];
    let (n, f) = (o.nodes.expect("fits"), o.fastest_nodes.expect("fits"));
    assert!(f >= n, "the fastest count is never below the cheapest: {f} < {n}");
    assert!(o.fastest_time_to_train_s.expect("time") <= o.time_to_train_s.expect("time"));
    assert!(o.fastest_gpu_hours.expect("hours") >= o.gpu_hours.expect("hours"));
    assert_eq!(o.tokens_per_step, Some(crate::scenario::DEFAULT_TOKENS_PER_STEP), "the job's batch");
    assert_eq!(o.fastest_cost_usd, None, "no price");
}

#[test]
fn keeping_tokens_per_gpu_grows_the_batch_with_the_nodes() {
    // A small batch (262k tokens, the page's first load): its per-step communication shows as it is split.
    let small = ScenarioInput { compute: ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.4 }, ..job() };
    let input = |batch, batch_gpus| PlanInput {
        tokens: 1e11,
        max_nodes: 16,
        only: only(&["aws-p5.48xlarge"]),
        batch,
        batch_gpus,
        ..PlanInput::default()
    };
    let kept = plan(&small, &input(BatchRule::KeepGlobal, None)).expect("a plan");
    let grown = plan(&small, &input(BatchRule::KeepPerGpu, Some(16))).expect("a plan");
    assert_eq!(grown.batch, BatchRule::KeepPerGpu);
    let o = &grown.offers[0];
    let n = o.nodes.expect("fits");
    // The job's 262k tokens were for 16 GPUs: on n nodes of 8 the batch is 262k / 16 x 8n, and the time to train
    // is that batch's steps times the step.
    let tps = 262_144.0 / 16.0 * f64::from(8 * n);
    assert_eq!(o.tokens_per_step, Some(tps));
    let time = step_count(1e11, tps) as f64 * o.step_s.expect("step");
    assert!((o.time_to_train_s.expect("time") - time).abs() <= 1e-9 * time);
    // On more nodes a kept global batch is split further; kept per GPU, it grows: fewer syncs, faster to train.
    let fastest = |p: &Plan| p.offers[0].fastest_time_to_train_s.expect("time");
    assert!(fastest(&grown) < fastest(&kept), "{} against {}", fastest(&grown), fastest(&kept));
    // Without batch_gpus, the job's own GPUs (its nodes x GPUs per node) set the tokens per GPU.
    let own = plan(&small, &input(BatchRule::KeepPerGpu, None)).expect("a plan");
    assert_eq!(own.offers[0].tokens_per_step, grown.offers[0].tokens_per_step, "the default job is 2 x 8 GPUs");
}

#[test]
fn a_batch_rule_reads_and_scales() {
    assert_eq!(BatchRule::parse("per-gpu"), Some(BatchRule::KeepPerGpu));
    assert_eq!(BatchRule::parse("Keep_Global"), Some(BatchRule::KeepGlobal));
    assert_eq!(BatchRule::parse("per-node"), None);
    assert_eq!(BatchRule::KeepGlobal.tokens_per_step(1e6, 16, 64), 1e6);
    assert_eq!(BatchRule::KeepPerGpu.tokens_per_step(1e6, 16, 64), 4e6);
    assert_eq!(BatchRule::KeepPerGpu.tokens_per_step(1e6, 0, 8), 8e6, "no GPUs reads as one");
    let mut i = ScenarioInput::default();
    BatchRule::KeepPerGpu.apply(&mut i, 16, 4);
    assert_eq!(i.nodes, 4);
    assert!(
        matches!(i.compute, ComputeInput::Tokens { tokens_per_step, .. } if tokens_per_step == crate::scenario::DEFAULT_TOKENS_PER_STEP * 2.0)
    );
    let mut given = ScenarioInput { compute: ComputeInput::Given { ms: 900.0 }, ..ScenarioInput::default() };
    BatchRule::KeepPerGpu.apply(&mut given, 16, 4);
    assert_eq!(given.compute, ComputeInput::Given { ms: 900.0 }, "a given compute stays as given");
    // Keeping the global batch splits a given compute over the GPUs, and a micro-batch count set with it.
    let mut given = ScenarioInput {
        compute: ComputeInput::Given { ms: 900.0 },
        micro_batches: Some(8),
        ..ScenarioInput::default()
    };
    BatchRule::KeepGlobal.apply(&mut given, 16, 8);
    assert_eq!(given.compute, ComputeInput::Given { ms: 225.0 });
    assert_eq!(given.micro_batches, Some(2));
    let mut accum =
        ScenarioInput { grad_accum_steps: 4, compute: ComputeInput::Given { ms: 900.0 }, ..ScenarioInput::default() };
    BatchRule::KeepGlobal.apply(&mut accum, 16, 1);
    assert_eq!((accum.grad_accum_steps, accum.micro_batches), (1, Some(8)), "accumulation follows as micro-batches");
    let mut derived = ScenarioInput::default();
    BatchRule::KeepGlobal.apply(&mut derived, 16, 1);
    assert_eq!(derived.micro_batches, None, "derived from the tokens per step");
    // With tokens, a count the user set is the user's (a plan's rows keep it, whatever GPUs its batch is for).
    let mut set = ScenarioInput { micro_batches: Some(8), ..ScenarioInput::default() };
    BatchRule::KeepGlobal.apply(&mut set, 16, 64);
    assert_eq!(set.micro_batches, Some(8));
}
