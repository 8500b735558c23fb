//! Single-node or multi-node, in plain words with figures, and the smallest fabric that keeps communication out of
//! the way.

mod choice;
mod fit;
mod layout;

use serde::Serialize;

pub use choice::{LayoutChoice, LayoutSource, choose_sync};
pub use layout::{LayoutAdvice, LayoutOption, SAME_STEP, advise};

use crate::batch::{BatchRule, WorkCompared};
use crate::collective;
use crate::fabric::Fabric;
use crate::human::{gib, num, pct, times};
use crate::memory::{MemoryFit, memory_fit};
use crate::scenario::{Scenario, SyncStrategy};
use crate::step::{StepEstimate, estimate_step};
use crate::units::Seconds;

/// The answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecommendationKind {
    /// The job fits on one node: no RDMA fabric is needed.
    SingleNode,
    /// The job does not fit on one node but fits in one NVLink domain (NVL72 trays joined by NVLink switches):
    /// no RDMA fabric is needed.
    SingleDomain,
    /// The job needs several nodes, and so a fabric.
    MultiNode,
}

/// A fabric from the ladder and what it gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FabricChoice {
    /// Adapters per node.
    pub adapters_per_node: u32,
    /// Line rate per adapter, Gb/s.
    pub link_gbps: f64,
    /// Fabric class.
    pub fabric: Fabric,
    /// Adapters x line rate, Gb/s per node.
    pub per_node_gbps: f64,
    /// Node count it was evaluated for.
    pub nodes: u32,
    /// Step time with it.
    pub step_s: Seconds,
    /// Exposed communication / step with it.
    pub exposed_share: f64,
}

/// The recommendation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recommendation {
    /// Single-node (the model states fit on one node) or multi-node (they do not).
    pub kind: RecommendationKind,
    /// The answer in one line, with the one-node step beside the scenario's when both are known ("Fits on one
    /// node; 2 nodes are 1.9x faster per step").
    pub headline: String,
    /// The step time of the same job on one node of the same kind (one NVLink domain where the job fits one and
    /// not a node), when it fits there and the scenario has more: the same global batch, so a compute given in
    /// milliseconds is the scenario's times its GPUs over the node's (the domain's).
    pub one_node_step_s: Option<Seconds>,
    /// What the one-node comparison holds equal (`same-global-batch`), when there is one.
    pub comparison: Option<WorkCompared>,
    /// Plain-language reasons with figures, most important first.
    pub reasons: Vec<String>,
    /// Exposed communication allowed as a share of the step.
    pub target_exposed_share: f64,
    /// The fewest nodes that hold the model states (with ZeRO-3/FSDP if DDP cannot fit; where the activations
    /// of the layout as given fit no number of GPUs, in the layout the headline names); `None` when nothing fits.
    pub min_nodes: Option<u32>,
    /// The smallest ladder fabric meeting the target at `nodes` (the scenario's, or `min_nodes` if larger);
    /// `None` on one node, or when even the top of the ladder misses the target.
    pub min_fabric: Option<FabricChoice>,
    /// The layout that keeps the slow link out of the way, among those that fit ([`advise`], which
    /// [`crate::estimate()`] fills in); `None` on one GPU.
    pub layout: Option<LayoutAdvice>,
}

/// The smallest fabric whose exposed communication stays within `target` of the step: the scenario's fabric at
/// the line rates it is sold at ([`Fabric::line_rates_gbps`]), with the scenario's adapter count or one adapter
/// per GPU, by rising bandwidth per node. TCP that misses the target is retried as RoCE, since sockets cap
/// throughput whatever the link.
pub fn smallest_fabric(s: &Scenario, target: f64) -> Option<FabricChoice> {
    if s.domains() <= 1 {
        return None;
    }
    let own = s.input().fabric;
    let fallback = (own == Fabric::Tcp).then_some(Fabric::Roce);
    let own_adapters = s.adapters_per_node().max(1);
    for fabric in std::iter::once(own).chain(fallback) {
        // Every (adapters, rate) this fabric offers is tried; the one with the least bandwidth per node that meets
        // the target wins (fewer adapters on a tie).
        let mut best: Option<FabricChoice> = None;
        for adapters in [own_adapters, s.gpus_per_node()] {
            for &rate in fabric.line_rates_gbps() {
                let per_node = rate * f64::from(adapters);
                if best.as_ref().is_some_and(|b| (b.per_node_gbps, b.adapters_per_node) <= (per_node, adapters)) {
                    continue;
                }
                let Ok(candidate) = s.with(|i| {
                    i.link_gbps = rate;
                    i.adapters_per_node = i64::from(adapters);
                    if fabric != i.fabric {
                        i.fabric = fabric;
                        i.gdr = true;
                    }
                }) else {
                    continue;
                };
                let e = estimate_step(&candidate);
                if e.exposed_share <= target {
                    best = Some(FabricChoice {
                        adapters_per_node: adapters,
                        link_gbps: rate,
                        fabric,
                        per_node_gbps: per_node,
                        nodes: candidate.nodes(),
                        step_s: e.step_s,
                        exposed_share: e.exposed_share,
                    });
                }
            }
        }
        if best.is_some() {
            return best;
        }
    }
    None
}

/// Recommends single-node or multi-node for a scenario, given its step estimate.
pub fn recommend(s: &Scenario, step: &StepEstimate) -> Recommendation {
    let mem = memory_fit(s);
    recommend_with(s, step, &mem)
}

/// As [`recommend`], reusing a memory fit already computed.
pub fn recommend_with(s: &Scenario, step: &StepEstimate, mem: &MemoryFit) -> Recommendation {
    decide::<true>(s, step, mem)
}

/// [`recommend_with`] without `reasons` (empty): the answer, its headline and the fabric advice, for a front end
/// that draws the reasons later (the page's first load; its details worker adds them). The reasons' wording is
/// not compiled into a program that only calls this.
pub fn recommend_brief(s: &Scenario, step: &StepEstimate, mem: &MemoryFit) -> Recommendation {
    decide::<false>(s, step, mem)
}

fn decide<const EXPLAIN: bool>(s: &Scenario, step: &StepEstimate, mem: &MemoryFit) -> Recommendation {
    let target = s.input().target_exposed_share;
    let gpu = s.gpu();
    let gpn = s.gpus_per_node();
    let cap = gib(mem.gpu_memory_bytes);
    let mut reasons = Vec::new();
    if EXPLAIN && mem.may_fit {
        reasons.push(format!(
            "As configured it needs {} per GPU as {} allocates it and {} as {} does: it may fit the {cap} each {} \
             has. What follows plans with the larger, which every implementation fits.",
            gib(mem.total_bytes_per_gpu),
            mem.implementation,
            gib(mem.least_total_bytes_per_gpu),
            mem.least_implementation,
            gpu.name
        ));
    }
    // As laid out, or, where no number of GPUs holds the activations, in the layout that fits (`fit.rs`; searched
    // with the reasons only: the page's first load says where to look).
    let fit = if EXPLAIN && mem.min_gpus_zero3.is_none() { fit::fitting_layout(s) } else { None };
    let min_gpus = mem.min_gpus_zero3.or(fit.map(|f| f.1));
    let min_nodes = min_gpus.map(|g| u32::try_from(g.div_ceil(u64::from(gpn))).unwrap_or(u32::MAX).max(1));
    let fit_layout = |l: &crate::layout::Layout| {
        let ckpt = if l.activation_checkpointing { " and activation checkpointing" } else { "" };
        format!("{}{ckpt}", l.describe())
    };

    let kind = if mem.fits_one_node {
        if EXPLAIN {
            reasons.push(format!(
                "The model states and activations (or the optimizer step's working copy) fit on one node: {} per \
                 GPU ({}) of the {cap} each {} has.",
                gib(mem.one_node_bytes_per_gpu),
                s.input().sync.label(),
                gpu.name
            ))
        };
        RecommendationKind::SingleNode
    } else if mem.fits_one_node_zero3 {
        if EXPLAIN {
            reasons.push(format!(
                "With {} on one node every GPU holds {} at its peak (the model states with the activations or the \
                 optimizer step's copy), more than the {cap} each {} has; sharded with ZeRO-3/FSDP over the node's \
                 data-parallel GPUs it needs {} per GPU and fits on one node.",
                s.input().sync.label(),
                gib(mem.one_node_bytes_per_gpu),
                gpu.name,
                gib(mem.one_node_zero3_bytes_per_gpu)
            ))
        };
        RecommendationKind::SingleNode
    } else if s.multi_node_nvlink() && (mem.fits_one_domain || mem.fits_one_domain_zero3) {
        let (need, how) = if mem.fits_one_domain {
            (mem.one_domain_bytes_per_gpu, s.input().sync.label())
        } else {
            (mem.one_domain_zero3_bytes_per_gpu, "ZeRO-3/FSDP")
        };
        if EXPLAIN {
            reasons.push(format!(
                "One node of {gpn} is not enough ({} per GPU with {}), but one NVLink domain of {} GPUs is: {} per GPU \
             with {how}, within the {cap} each {} has.",
                gib(mem.one_node_zero3_bytes_per_gpu),
                SyncStrategy::Zero3.label(),
                mem.nvlink_domain_gpus,
                gib(need),
                gpu.name
            ))
        };
        RecommendationKind::SingleDomain
    } else if let Some(min_gpus) = mem.min_gpus_zero3 {
        if EXPLAIN {
            reasons.push(format!(
                "One node is not enough: even sharded with ZeRO-3/FSDP over one node the model states and activations \
                 need {} per GPU, more than the {cap} each {} has. It takes at least {min_gpus} GPUs, {} of {gpn}.",
                gib(mem.one_node_zero3_bytes_per_gpu),
                gpu.name,
                crate::human::plural(u64::from(min_nodes.unwrap_or(u32::MAX)), "node")
            ))
        };
        RecommendationKind::MultiNode
    } else {
        if EXPLAIN {
            let then = match (&fit, min_nodes) {
                (Some((l, g)), Some(n)) => format!(
                    "with {} it fits on {g} GPUs, {}",
                    fit_layout(l),
                    crate::human::plural(u64::from(n), "node")
                ),
                _ => "neither tensor and pipeline parallelism nor activation checkpointing brings them in: reduce \
                      the micro-batch or the sequence length"
                    .to_string(),
            };
            reasons.push(format!(
                "The activations alone ({} per GPU) exceed the {cap} each {} has: as laid out no number of nodes \
                 fits; {then}.",
                gib(mem.activation_bytes_per_gpu),
                gpu.name
            ))
        };
        RecommendationKind::MultiNode
    };

    let mut one_node_step_s = None;
    let mut comparison = None;
    let mut headline = match (kind, min_nodes) {
        (RecommendationKind::MultiNode, Some(n)) => match &fit {
            Some((l, _)) => format!("Needs several nodes: at least {n}, with {}", fit_layout(l)),
            None => format!("Needs several nodes: at least {n}"),
        },
        (RecommendationKind::MultiNode, None) if EXPLAIN => "Does not fit on any number of nodes".to_string(),
        (RecommendationKind::MultiNode, None) => {
            "Does not fit as laid out: the activations exceed a GPU (the reasons name a layout that fits)".to_string()
        }
        (RecommendationKind::SingleNode, _) => "One node is enough".to_string(),
        (RecommendationKind::SingleDomain, _) => "Fits in one NVLink domain: no RDMA fabric needed".to_string(),
    };
    let domain = kind == RecommendationKind::SingleDomain;
    if domain && EXPLAIN {
        reasons.push(format!(
            "Inside one NVLink domain the nodes' GPUs talk over NVLink switches at about {} GB/s, as inside a node: \
             no RDMA fabric is needed while the job stays in the domain.",
            num(s.intra_node().allreduce.get(), 0)
        ))
    };
    // One node, or one NVLink domain, running the scenario's global batch: each GPU does the scenario's GPUs over
    // its GPUs of the work.
    let unit = if domain { s.nvlink_domain_gpus() / gpn.max(1) } else { 1 };
    let gpus = s.participants();
    let fewer = matches!(kind, RecommendationKind::SingleNode | RecommendationKind::SingleDomain);
    let moved = fewer.then(|| s.with(|i| BatchRule::KeepGlobal.apply(i, gpus, unit)));
    if let (true, Some(Err(e))) = (EXPLAIN, &moved) {
        // The same global batch on fewer GPUs can pass the model's limits (a day of compute, a million
        // micro-batches): said, not dropped without a word.
        reasons.push(format!(
            "No comparison with fewer GPUs: the scenario's global batch on {} is past the model's limits ({e}).",
            crate::human::plural(u64::from(unit) * u64::from(gpn), "GPU")
        ));
    }
    let one = moved.and_then(Result::ok);
    if kind == RecommendationKind::SingleNode && EXPLAIN {
        let intra = one.as_ref().map_or(s.intra_node().allreduce, |o| collective::bus_bandwidth(o).busbw);
        reasons.push(if gpn <= 1 {
            "On one node of one GPU there is nothing to synchronise: no fabric is needed.".to_string()
        } else {
            format!(
                "On one node gradients travel over {} at about {} GB/s: no RDMA fabric is needed.",
                s.intra_node().link.label(),
                num(intra.get(), 0)
            )
        })
    };
    if fewer {
        // Like with like: one node and the scenario's nodes, each with a layout that fits there (the scenario's
        // own where it fits, else the fastest that does), and the trade-off in time and GPU-hours per step.
        let fitting = |on: &Scenario| -> Option<Scenario> {
            if memory_fit(on).fits {
                Some(on.clone())
            } else {
                choice::choose_sync(on.input()).ok().filter(|(_, c)| c.fits).map(|(f, _)| f)
            }
        };
        let one = one.as_ref().and_then(fitting);
        let many = fitting(s);
        if let (Some(one), Some(many)) = (one.filter(|_| s.nodes() > unit), many) {
            let single = estimate_step(&one).step_s;
            let multi = if many.input() == s.input() { step.step_s } else { estimate_step(&many).step_s };
            one_node_step_s = Some(single);
            comparison = Some(WorkCompared::SameGlobalBatch);
            let (place, n, many_of) = if domain {
                ("in one NVLink domain", s.domains(), "domains")
            } else {
                ("on one node", s.nodes(), "nodes")
            };
            let gpu_hours = |gpus: u32, t: Seconds| f64::from(gpus) * t.as_secs() / 3600.0;
            let (h1, hn) = (gpu_hours(one.participants(), single), gpu_hours(s.participants(), multi));
            let speedup = if multi.as_secs() > 0.0 { single.as_secs() / multi.as_secs() } else { 1.0 };
            let cost = if h1 > 0.0 { hn / h1 } else { 1.0 };
            let layouts = |a: &Scenario| a.layout().describe();
            // A side's layout is named where it is not the scenario's own (one that fits there in its place).
            let named = |a: &Scenario| {
                if a.input().sync == s.input().sync { String::new() } else { format!(" ({})", layouts(a)) }
            };
            headline = if speedup <= 1.0 {
                format!(
                    "Fits {place}{}: {single} per step, faster than {multi} on {n} {many_of}{} (same global batch)",
                    named(&one),
                    named(&many)
                )
            } else {
                format!(
                    "Fits {place}{}: {single} per step; {n} {many_of}{}: {multi}, {} faster for {}x the GPU-hours \
                     (same global batch)",
                    named(&one),
                    named(&many),
                    times(speedup),
                    num(cost, 2)
                )
            };
            if EXPLAIN {
                let over = if many.domains() > 1 { "the network" } else { "NVLink (nothing crosses the adapters)" };
                reasons.push(format!(
                    "On one {} of {} ({}) a step of the same global batch takes {single}, {} GPU-hours: {}x the \
                 {multi} on {n} {many_of} ({}, {} GPU-hours), whose scaling efficiency is {}; communication over \
                 {over} leaves {} of their step exposed.",
                    if domain { "NVLink domain" } else { "node" },
                    crate::human::plural(u64::from(one.participants()), "GPU"),
                    layouts(&one),
                    num(h1, 3),
                    num(speedup, 2),
                    layouts(&many),
                    num(hn, 3),
                    pct(estimate_step(&many).scaling_efficiency),
                    pct(estimate_step(&many).exposed_share)
                ))
            };
        }
    }

    if s.nodes() > 1 && s.domains() == 1 {
        if EXPLAIN {
            reasons.push(format!(
            "The job's {} nodes are one NVLink domain: its communication ({} per step, {} of it exposed: {} of a {} \
             step) runs over NVLink, none of it over the network adapters.",
            s.nodes(),
            step.comm_s,
            step.exposed_comm_s,
            pct(step.exposed_share),
            step.step_s
        ))
        };
    } else if s.nodes() > 1 {
        let domains = if s.multi_node_nvlink() {
            format!(
                " ({} NVLink domains of {} GPUs: only traffic between domains crosses the network)",
                s.domains(),
                s.gpus_per_domain()
            )
        } else {
            String::new()
        };
        if EXPLAIN {
            reasons.push(format!(
                "On {} nodes{domains} with {} x {} Gb/s {}, communication takes {} per step (at least {}: its bytes \
             through the node's adapters at line rate), {} of it exposed: {} of a {} step.",
                s.nodes(),
                s.adapters_per_node(),
                num(s.input().link_gbps, 3),
                s.input().fabric.label(),
                step.comm_s,
                step.lower_bound_s,
                step.exposed_comm_s,
                pct(step.exposed_share),
                step.step_s
            ))
        };
    }

    // Fabric advice for the node count that will actually run.
    let fabric_nodes = match kind {
        RecommendationKind::MultiNode => match min_nodes {
            Some(n) if i64::from(n) <= crate::scenario::limits::MAX_NODES => s.nodes().max(n),
            _ => s.nodes(),
        },
        _ => s.nodes(),
    };
    let mut min_fabric = None;
    // Nodes that stay inside one NVLink domain need no fabric.
    let per_domain = (s.nvlink_domain_gpus() / gpn.max(1)).max(1);
    if fabric_nodes > per_domain {
        let needs_zero3 = kind == RecommendationKind::MultiNode && s.input().sync != SyncStrategy::Zero3 && !mem.fits;
        if needs_zero3 && EXPLAIN {
            reasons.push(format!(
                "{} keeps {} of model states on every GPU here, more than the {cap}: use ZeRO-3/FSDP (the fabric \
                 advice below assumes it).",
                s.input().sync.label(),
                gib(mem.model_state_bytes_per_gpu)
            ));
        }
        // More nodes than the scenario's (the fewest that hold the job) run the same global batch.
        let gpus = s.participants();
        let planned = s.with(|i| {
            BatchRule::KeepGlobal.apply(i, gpus, fabric_nodes);
            i.adapters_per_node = i.adapters_per_node.max(1);
            if needs_zero3 {
                i.sync = SyncStrategy::Zero3;
            }
        });
        if let Ok(planned) = planned {
            min_fabric = smallest_fabric(&planned, target);
            match &min_fabric {
                Some(f) => {
                    if EXPLAIN {
                        reasons.push(format!(
                            "The smallest fabric that keeps exposed communication under {} of the step on {} nodes is \
                     {} x {} Gb/s {} ({} Gb/s per node): exposed {}, step {}.",
                            pct(target),
                            f.nodes,
                            f.adapters_per_node,
                            num(f.link_gbps, 3),
                            f.fabric.label(),
                            num(f.per_node_gbps, 3),
                            pct(f.exposed_share),
                            f.step_s
                        ))
                    }
                }
                None => {
                    let fabric = planned.input().fabric;
                    let top = fabric.line_rates_gbps().last().copied().unwrap_or(planned.input().link_gbps);
                    if EXPLAIN {
                        reasons.push(format!(
                            "No fabric up to {} x {} Gb/s {} keeps exposed communication under {} of the step on {} \
                         nodes: more overlap, more compute per synchronisation (a larger batch or gradient \
                         accumulation) or fewer nodes would.",
                            planned.gpus_per_node().max(planned.adapters_per_node()),
                            num(top, 3),
                            if fabric == Fabric::Tcp { Fabric::Roce.label() } else { fabric.label() },
                            pct(target),
                            planned.nodes()
                        ))
                    }
                }
            }
        }
    }

    Recommendation {
        kind,
        headline,
        one_node_step_s,
        comparison,
        reasons,
        target_exposed_share: target,
        min_nodes,
        min_fabric,
        layout: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::on_nodes;
    use crate::scenario::{ComputeInput, ScenarioInput};

    fn rec(change: impl FnOnce(&mut ScenarioInput)) -> Recommendation {
        let mut i = ScenarioInput::default();
        change(&mut i);
        let s = Scenario::new(i).expect("valid");
        recommend(&s, &estimate_step(&s))
    }

    #[test]
    fn a_small_model_stays_on_one_node() {
        let r = rec(|i| i.params = 1e9);
        assert_eq!(r.kind, RecommendationKind::SingleNode);
        assert!(r.reasons[0].contains("fit on one node"), "{:?}", r.reasons);
        assert!(r.reasons.iter().any(|x| x.contains("no RDMA fabric is needed")));
    }

    #[test]
    fn a_job_between_the_implementations_says_it_may_fit() {
        // 7B with ZeRO-1 on one node of 2 H100 and 10 GB of activations: 94 GB as Megatron-LM keeps it, 84 GB as
        // DeepSpeed stage 1 does (memory.rs).
        let r = rec(|i| {
            i.sync = crate::scenario::SyncStrategy::Zero1;
            i.nodes = 1;
            i.gpus_per_node = 2;
            i.activation_bytes_per_gpu = 10e9;
        });
        assert!(r.reasons[0].contains("it may fit the"), "{:?}", r.reasons);
        assert!(!rec(|_| {}).reasons.iter().any(|x| x.contains("may fit")), "the first load fits");
    }

    #[test]
    fn a_7b_model_fits_one_h100_node_with_zero3() {
        let r = rec(|_| {});
        assert_eq!(r.kind, RecommendationKind::SingleNode);
        assert!(r.reasons[0].contains("ZeRO-3/FSDP"), "{:?}", r.reasons);
    }

    #[test]
    fn a_405b_model_needs_several_nodes_and_a_fabric() {
        let r = rec(|i| {
            i.params = 405e9;
            i.sync = SyncStrategy::Zero3;
            i.nodes = 8;
            i.compute = ComputeInput::Tokens { tokens_per_step: 16e6, mfu: 0.4 };
        });
        assert_eq!(r.kind, RecommendationKind::MultiNode);
        let min_nodes = r.min_nodes.expect("fits on some number of nodes");
        assert!(min_nodes >= 10, "405e9 x 16 B over 80 GiB GPUs: {min_nodes}");
        let f = r.min_fabric.expect("a fabric on the ladder meets 10%");
        assert!(f.exposed_share <= 0.10);
        assert!(f.nodes >= min_nodes);
    }

    #[test]
    fn tcp_that_cannot_meet_the_target_is_told_to_use_rdma() {
        let s = Scenario::new(ScenarioInput {
            fabric: Fabric::Tcp,
            link_gbps: 25.0,
            compute: ComputeInput::Given { ms: 2000.0 },
            ..ScenarioInput::default()
        })
        .expect("valid");
        let f = smallest_fabric(&s, 0.10).expect("RoCE meets it");
        assert_eq!(f.fabric, Fabric::Roce);
    }

    #[test]
    fn the_ladder_offers_only_rates_a_fabric_is_sold_at() {
        // A compute-light step on two nodes: the ladder has to climb.
        for (fabric, adapters) in [(Fabric::Infiniband, 8), (Fabric::Tcp, 1), (Fabric::Roce, 1)] {
            let s = Scenario::new(ScenarioInput {
                fabric,
                adapters_per_node: adapters,
                gdr: fabric.is_rdma(),
                link_gbps: 25.0,
                compute: ComputeInput::Given { ms: 2000.0 },
                ..ScenarioInput::default()
            })
            .expect("valid");
            let f = smallest_fabric(&s, 0.10).expect("a fabric meets 10%");
            assert!(f.fabric.line_rates_gbps().contains(&f.link_gbps), "{f:?}");
            assert!(f.fabric != Fabric::Infiniband || f.link_gbps >= 100.0, "{f:?}");
            assert!(f.fabric != Fabric::Roce || f.link_gbps <= 400.0, "{f:?}");
            assert!(i64::from(f.adapters_per_node) == adapters || f.adapters_per_node == 8, "{f:?}");
        }
    }

    #[test]
    fn the_headline_compares_one_node_with_the_scenario() {
        // 7B with ZeRO-1 fits one H100 node; with a small batch two nodes over one 25 GbE port are barely faster.
        let slow = rec(|i| {
            i.sync = SyncStrategy::Zero1;
            i.adapters_per_node = 1;
            i.link_gbps = 25.0;
            i.fabric = Fabric::Tcp;
            i.gdr = false;
            i.compute = ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.35 };
        });
        assert_eq!(slow.kind, RecommendationKind::SingleNode);
        assert!(slow.one_node_step_s.is_some());
        assert!(slow.headline.contains("per step, faster than"), "{}", slow.headline);
        assert!(!slow.headline.contains("enough") && !slow.headline.contains("only"), "{}", slow.headline);
        let fast = rec(|i| {
            i.sync = SyncStrategy::Zero1;
            i.compute = ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.35 };
        });
        assert!(fast.headline.starts_with("Fits on one node:"), "{}", fast.headline);
        assert!(fast.headline.contains("the GPU-hours"), "the trade-off in numbers: {}", fast.headline);
        // The schedule hides most of a 400G fabric's traffic: close to twice as fast, never more.
        let speedup: f64 = fast
            .headline
            .split("2 nodes: ")
            .nth(1)
            .and_then(|r| r.split(", ").nth(1))
            .and_then(|r| r.split('x').next())
            .and_then(|x| x.parse().ok())
            .expect("a speedup in the headline");
        assert!((1.8..=2.0).contains(&speedup), "{}", fast.headline);
        // DDP's 7B does not fit an 80 GB H100: both sides are compared with a layout that fits.
        let ddp = rec(|i| i.compute = ComputeInput::Tokens { tokens_per_step: 262_144.0, mfu: 0.35 });
        assert!(
            ddp.headline.contains("(ZeRO") || ddp.headline.contains("(HSDP"),
            "each side in a layout that fits: {}",
            ddp.headline
        );
        let multi = rec(|i| {
            i.params = 405e9;
            i.sync = SyncStrategy::Zero3;
        });
        assert!(multi.headline.starts_with("Needs several nodes: at least"), "{}", multi.headline);
    }

    #[test]
    fn one_node_runs_the_scenarios_global_batch() {
        // Issue 40: 7B ZeRO-1 on 16 nodes with a 1 s compute. One node runs the same global batch, so each of its
        // GPUs does 16 times the work: its compute is 16 s, and the GPU-hours compare equal work.
        let input = ScenarioInput {
            sync: SyncStrategy::Zero1,
            nodes: 16,
            compute: ComputeInput::Given { ms: 1000.0 },
            ..ScenarioInput::default()
        };
        let s = Scenario::new(input).expect("valid");
        let step = estimate_step(&s);
        let r = recommend(&s, &step);
        assert_eq!(r.comparison, Some(WorkCompared::SameGlobalBatch));
        let one = on_nodes(&s, 1, BatchRule::KeepGlobal).expect("valid");
        assert_eq!(one.input().compute, ComputeInput::Given { ms: 16_000.0 }, "the one node's compute");
        // Same global batch: each side's GPUs x compute is the same GPU-time of work.
        let work = |x: &Scenario| f64::from(x.participants()) * crate::step::compute_time(x).as_secs();
        assert!((work(&one) - work(&s)).abs() < 1e-9, "{} vs {}", work(&one), work(&s));
        // The data-parallel ranks' micro-batches follow: 16 on one node for the scenario's 1.
        assert_eq!(one.layout().micro_batches, 16);
        let single = r.one_node_step_s.expect("a one-node step");
        assert_eq!(single, estimate_step(&one).step_s);
        assert!(single > step.step_s, "16 nodes are faster on the same batch: {single} vs {}", step.step_s);
        assert!(r.headline.contains("faster for") && r.headline.contains("(same global batch)"), "{}", r.headline);
        // Tokens per step are the global batch already: one node keeps them and its compute follows its GPUs.
        let tokens = s.with(|i| i.compute = ComputeInput::Tokens { tokens_per_step: 4e6, mfu: 0.4 }).expect("valid");
        let one = on_nodes(&tokens, 1, BatchRule::KeepGlobal).expect("valid");
        assert!((work(&one) - work(&tokens)).abs() < 1e-9 * work(&tokens));
        // Keeping the tokens per GPU keeps a given compute.
        let per_gpu = on_nodes(&s, 1, BatchRule::KeepPerGpu).expect("valid");
        assert_eq!(per_gpu.input().compute, ComputeInput::Given { ms: 1000.0 });
        // Past the model's limits on one node (2,000 nodes' batch of 1,000 micro-batches each): said, no figure.
        let huge = s
            .with(|i| {
                i.params = 1e9;
                i.sync = SyncStrategy::Ddp;
                i.nodes = 2000;
                i.micro_batches = Some(1000);
            })
            .expect("valid");
        let r = recommend(&huge, &estimate_step(&huge));
        assert_eq!((r.one_node_step_s, r.comparison), (None, None));
        assert!(r.reasons.iter().any(|x| x.contains("No comparison with fewer GPUs")), "{:?}", r.reasons);
    }
}
