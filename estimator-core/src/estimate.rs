//! The whole answer for one scenario: step, memory, recommendation and warnings in one document.

use serde::Serialize;

use crate::catalog::IntraNodeLink;
use crate::memory::{MemoryFit, memory_fit};
use crate::recommend::{Recommendation, recommend_with};
use crate::scenario::Scenario;
use crate::step::{LowerBound, StepEstimate, estimate_step, reference_lower_bound};

/// Which GPU the estimate used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuUsed {
    /// Catalog key (`generic` when the name was unknown).
    pub key: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Whether the name given was recognised.
    pub known: bool,
    /// Intra-node link used.
    pub intra_node: IntraNodeLink,
}

/// One scenario's estimate. Serialises flat: the step's keys at the top, then `memory`, `recommendation`,
/// `gpu`, `warnings`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The step.
    #[serde(flatten)]
    pub step: StepEstimate,
    /// The reference arithmetic, a one-link reference for DDP's all-reduce: ring factor 2 (unless overridden), one
    /// adapter per participant ([`reference_lower_bound`]). Not a bound on a node with several GPUs and adapters
    /// (`lower_bound_s` above is the bound); the key keeps its name from before issue 39.
    pub reference_lower_bound: LowerBound,
    /// Whether a gradient synchronisation of this layout crosses the adapters, where the reference arithmetic
    /// describes something the job sends ([`crate::step::gradient_sync_crosses_adapters`]); the page shows the
    /// reference only then.
    pub reference_applies: bool,
    /// Memory fit.
    pub memory: MemoryFit,
    /// Single-node or multi-node, and the fabric.
    pub recommendation: Recommendation,
    /// The GPU used.
    pub gpu: GpuUsed,
    /// How the inputs were read (unknown GPU, and so on).
    pub warnings: Vec<String>,
    /// How to read the figures (for instance, why the realistic estimate is below the lower bound).
    pub notes: Vec<String>,
    /// Why the realistic communication is below the reference arithmetic, in one line, when it is and the reference
    /// applies (also in `notes`).
    pub below_lower_bound: Option<String>,
}

/// Estimates a scenario, with the layout advice (`recommendation.layout`).
pub fn estimate(s: &Scenario) -> Estimate {
    let mut e = estimate_without_layout_advice(s);
    e.recommendation.layout = crate::recommend::advise(s);
    e
}

/// [`estimate`] without `recommendation.layout`, which estimates the step once per sync strategy: for a front end
/// that asks for the advice apart ([`crate::recommend::advise`]), as the page does from its worker.
pub fn estimate_without_layout_advice(s: &Scenario) -> Estimate {
    assemble::<true>(s)
}

/// [`estimate_without_layout_advice`] without `recommendation.reasons` ([`crate::recommend::recommend_brief`]) and
/// with no note but `below_lower_bound`: for the page's first load, whose details worker draws the reasons and
/// the notes with the layout advice and the traffic table.
pub fn estimate_brief(s: &Scenario) -> Estimate {
    assemble::<false>(s)
}

fn assemble<const EXPLAIN: bool>(s: &Scenario) -> Estimate {
    let step = estimate_step(s);
    let memory = memory_fit(s);
    let recommendation =
        if EXPLAIN { recommend_with(s, &step, &memory) } else { crate::recommend::recommend_brief(s, &step, &memory) };
    let mut notes = Vec::new();
    let reference = reference_lower_bound(s);
    let reference_applies = crate::step::gradient_sync_crosses_adapters(&step.traffic);
    let below_lower_bound = (reference_applies && step.comm_s < reference.time_s).then(|| {
        let adapters = match s.adapters_per_domain() {
            1 => "its one adapter carries".to_string(),
            n => format!("its {n} adapters share"),
        };
        let node = if s.multi_node_nvlink() { "NVLink domain" } else { "node" };
        format!(
            "The realistic communication ({}) is below the one-link reference ({}), which sends all of a \
             participant's ring traffic through one adapter: here each {node} has {} GPUs, {} carries most ring \
             hops, and {adapters} only the hops between {node}s.",
            step.comm_s,
            reference.time_s,
            s.gpus_per_domain(),
            s.intra_node().link.label(),
        )
    });
    notes.extend(below_lower_bound.clone());
    // An all-reduce over D domains cannot pass the node's adapters faster than their line rate: its bus bandwidth
    // is at most that rate x (n-1)/n x D/(D-1) (the domain's data reduced inside it first). The details say a
    // measurement above that even where latency keeps the communication above its floor; a brief estimate (the
    // page's first load) says it where the floor holds the communication.
    let held = step.traffic.iter().any(|t| t.at_line_rate);
    if let Some(m) = s.input().measured_busbw_gbs {
        if EXPLAIN && s.domains() > 1 {
            let (n, d) = (f64::from(s.participants()), f64::from(s.domains()));
            let cap =
                s.link().to_gbyte_per_s().get() * f64::from(s.adapters_per_node()) * (n - 1.0) / n * d / (d - 1.0);
            if held || m > cap {
                notes.push(format!(
                    "The measured bus bandwidth ({} GB/s) is more than the adapters carry here (at most {} GB/s){}.",
                    crate::human::num(m, 3),
                    crate::human::num(cap, 3),
                    if held { ": the communication is held at their line rate" } else { "" }
                ));
            }
        } else if held {
            notes.push(format!(
                "The measured bus bandwidth ({} GB/s) is more than the adapters carry here: the communication is \
                 held at their line rate.",
                crate::human::num(m, 3)
            ));
        }
    }
    let i = s.input();
    if EXPLAIN && s.nodes() > 1 && i.fabric.is_rdma() && !i.gdr {
        // Without GPUDirect RDMA each adapter is capped by the host staging ([`crate::fabric::no_gdr_adapter_cap`]);
        // a slower adapter never reaches the cap, so turning GDR off changes next to nothing, and the user should
        // know why.
        let cap = crate::fabric::no_gdr_adapter_cap(s.gpu().pcie_gen);
        let link = s.link().to_gbyte_per_s();
        if link <= cap {
            notes.push(format!(
                "GPUDirect RDMA off costs next to nothing here: staging through host memory caps each adapter at {} \
                 GB/s (half the GPU's PCIe Gen{} x16), above one {} Gb/s adapter's {} GB/s; only NCCL's LL128 \
                 protocol, which needs it, is lost.",
                crate::human::num(cap.get(), 3),
                s.gpu().pcie_gen,
                crate::human::num(i.link_gbps, 3),
                crate::human::num(link.get(), 3),
            ));
        }
    }
    if EXPLAIN && s.nodes() > 1 && s.domains() == 1 && s.participants() > 1 {
        notes.push(format!(
            "The job's {} nodes are one NVLink domain: its gradients never touch the network, and the one-link \
             reference for DDP's all-reduce ({} at {} Gb/s) describes nothing it sends.",
            s.nodes(),
            reference.time_s,
            crate::human::num(s.input().link_gbps, 3)
        ));
    }
    if EXPLAIN && s.domains() > 1 && !reference_applies {
        notes.push(format!(
            "No gradient synchronisation of this layout crosses the adapters (its data-parallel ranks share a node \
             or an NVLink domain), so the one-link reference for DDP's all-reduce ({}) describes nothing it sends; \
             what does cross them is in the traffic table.",
            reference.time_s,
        ));
    }
    if EXPLAIN && s.nodes() == 1 && s.participants() > 1 {
        notes.push(format!(
            "On one node the gradients never touch the network, and the one-link reference for DDP's all-reduce ({} \
             at {} Gb/s) describes nothing it sends.",
            reference.time_s,
            crate::human::num(s.input().link_gbps, 3)
        ));
    }
    Estimate {
        reference_lower_bound: reference,
        reference_applies,
        step,
        memory,
        recommendation,
        gpu: GpuUsed { key: s.gpu().key, name: s.gpu().name, known: s.gpu_known(), intra_node: s.intra_node().link },
        warnings: s.warnings().to_vec(),
        notes,
        below_lower_bound,
    }
}
