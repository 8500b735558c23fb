//! Which node is bad? Many two-node nccl-tests runs, each judged against the model for its hardware (or a
//! calibrated profile), then read together: a slow pair holds at least one bad node, a fast pair clears both of its
//! nodes. The nodes left in slow pairs with no fast pair are the suspects, each with how sure that is, and the next
//! round of pairs pits each suspect that is not yet certain against a node already cleared.
//!
//! This is how the public pairwise checks isolate a node (AWS's awsome-distributed-training runs N/2 two-node
//! nccl-tests pairs, Azure's azurehpc runs ring pairs in parallel); what this adds is the model as the yardstick, so
//! a cluster where every pair is equally slow is told apart from one with a bad node.
//!
//! A pair is **slow** below [`SLOW`] of its reference: the model's bus bandwidth at its large sizes
//! ([`crate::health::large_check`]), or, when the median pair itself is below that share of the model, the median
//! pair (the whole fabric is below the model, a finding of its own: then the question is which nodes are slower than
//! their peers).

mod hosts;
mod suspects;

use serde::{Deserialize, Serialize};

pub use hosts::{HostsFrom, hosts};
pub use suspects::{Certainty, NextPair, NodeStatus, Suspect};

use crate::collective::Op;
use crate::health;
use crate::import::NcclTestsRun;
use crate::scenario::Scenario;
pub use crate::stats::Refused;
use crate::stats::median;

/// Below this share of its reference a pair is slow: health's line between healthy and degraded (a bad node shows
/// far below it; one NIC of eight down halves a pair's bus bandwidth or worse).
pub const SLOW: f64 = health::HEALTHY;

/// The most pair files one call reads (a 4,096-node cluster's N/2 pairs, ten rounds over).
pub const MAX_PAIRS: usize = 20_480;

/// One two-node run to judge: where it came from, its two hosts and its parsed table.
#[derive(Clone, Debug)]
pub struct PairInput<'a> {
    /// The file's name as the user gave it.
    pub file: String,
    /// Its two hosts ([`hosts`]).
    pub hosts: [String; 2],
    /// Where the host names came from.
    pub hosts_from: HostsFrom,
    /// The nccl-tests run.
    pub run: &'a NcclTestsRun,
}

/// One pair, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PairResult {
    /// The file.
    pub file: String,
    /// Its two nodes.
    pub hosts: [String; 2],
    /// Where their names came from: `rank lines`, `NCCL log` or `file name`.
    pub hosts_from: HostsFrom,
    /// The collective.
    pub op: Op,
    /// The size the verdict reads (the best bus bandwidth among sizes from 256 MiB, else the largest), bytes.
    pub size_bytes: f64,
    /// Its measured out-of-place bus bandwidth, GB/s per GPU as nccl-tests reports it.
    pub busbw_gbs: f64,
    /// What the model expects there for two nodes of this hardware, GB/s (NCCL's choice of algorithm).
    pub expected_busbw_gbs: f64,
    /// The Ring's bus bandwidth there, when NCCL may run either (all-reduce with the default algorithm): a pair
    /// between the two is as expected, and the share is taken to the nearer one.
    pub expected_ring_busbw_gbs: Option<f64>,
    /// Measured over expected.
    pub model_ratio: f64,
    /// Measured over the reference (the model, or the median pair when the fabric as a whole is below the model).
    pub ratio: f64,
    /// Below [`SLOW`] of the reference.
    pub slow: bool,
}

/// What the pairs are judged against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Reference {
    /// The model's bus bandwidth for each pair.
    Model,
    /// The fabric's own level, the median over nodes of each node's best pair: it is below [`SLOW`] of the model,
    /// so the whole fabric is.
    MedianPair,
}

/// Every pair judged, every node's standing, the suspects and the next round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Pairs {
    /// What a pair's `ratio` is taken against.
    pub reference: Reference,
    /// The fabric's level against the model: the median over nodes of each node's best pair's measured over
    /// expected.
    pub median_model_ratio: f64,
    /// Each pair, in the order given.
    pub pairs: Vec<PairResult>,
    /// Each node, by name.
    pub nodes: Vec<NodeStatus>,
    /// The nodes the slow pairs point to, surest first.
    pub suspects: Vec<Suspect>,
    /// Pairs to run next: each suspect that is not certain against a node already cleared, no node twice, so the
    /// round runs at once.
    pub next_round: Vec<NextPair>,
    /// Slow pairs whose two nodes are both fast with others: run them again (a transient, or the link between
    /// them).
    pub unexplained: Vec<String>,
    /// What the round says as a whole, one sentence each.
    pub findings: Vec<String>,
}

/// Judges every pair on the hardware of `s` (two nodes of it) and reads them together. A run that cannot be judged
/// (no table row, a binary the model does not cover, another rank count than two of `s`'s nodes) is refused with
/// its reason, never fatal.
pub fn judge(s: &Scenario, inputs: &[PairInput<'_>]) -> (Pairs, Vec<Refused>) {
    let mut judged = Vec::with_capacity(inputs.len());
    let mut refused = Vec::new();
    for p in inputs.iter().take(MAX_PAIRS) {
        match judge_one(s, p) {
            Ok(r) => judged.push(r),
            Err(reason) => refused.push(Refused { file: p.file.clone(), reason }),
        }
    }
    for p in inputs.iter().skip(MAX_PAIRS) {
        refused.push(Refused { file: p.file.clone(), reason: format!("more than {MAX_PAIRS} pairs in one call") });
    }
    // The fabric's own level: the median over nodes of each node's best pair. A bad node drags down every pair it
    // is in, but not its partners' other pairs, so this is the healthy nodes' level however many pairs it spoils
    // (the median of the pairs is not: with four nodes in a ring, one bad node is in half the pairs).
    let mut best: std::collections::BTreeMap<&str, f64> = std::collections::BTreeMap::new();
    for p in &judged {
        for h in &p.hosts {
            let b = best.entry(h.as_str()).or_insert(0.0);
            *b = b.max(p.model_ratio);
        }
    }
    let median = median(best.values().copied().collect()).unwrap_or(1.0);
    let reference = if median < SLOW { Reference::MedianPair } else { Reference::Model };
    for p in &mut judged {
        p.ratio = match reference {
            Reference::Model => p.model_ratio,
            Reference::MedianPair if median > 0.0 => p.model_ratio / median,
            Reference::MedianPair => 1.0,
        };
        p.slow = p.ratio < SLOW;
    }
    let mut pairs = suspects::read(judged);
    pairs.reference = reference;
    pairs.median_model_ratio = median;
    pairs.findings = findings(&pairs, s.participants());
    (pairs, refused)
}

/// One pair against the model, or why it cannot be judged.
fn judge_one(s: &Scenario, p: &PairInput<'_>) -> Result<PairResult, String> {
    if p.hosts[0] == p.hosts[1] {
        return Err(format!("both ranks' hosts are {}: a pair is two nodes", p.hosts[0]));
    }
    let (op, c) = health::large_check(s, p.run).ok_or_else(|| match p.run.test.as_deref() {
        Some(t) if p.run.op().is_none() => format!("{t} is not a collective the model covers"),
        _ => format!("nothing to judge, {}", crate::import::nccl_tests::NO_ROWS),
    })?;
    if let Some((ranks, _)) = p.run.rank_count(op)
        && ranks != s.participants()
    {
        return Err(format!(
            "{ranks} ranks; two nodes of {} GPUs are {} (give the node's GPUs per node, or --report)",
            s.gpus_per_node(),
            s.participants()
        ));
    }
    Ok(PairResult {
        file: p.file.clone(),
        hosts: p.hosts.clone(),
        hosts_from: p.hosts_from,
        op,
        size_bytes: c.size_bytes,
        busbw_gbs: c.measured_busbw_gbs,
        expected_busbw_gbs: c.expected_busbw_gbs,
        expected_ring_busbw_gbs: c.expected_ring_busbw_gbs,
        model_ratio: c.ratio,
        ratio: c.ratio,
        slow: false,
    })
}

/// The round in sentences: the fabric against the model, the suspects, what is left to tell.
fn findings(p: &Pairs, ranks: u32) -> Vec<String> {
    use crate::human::pct;
    let mut out = Vec::new();
    if p.pairs.is_empty() {
        return out;
    }
    let slow = p.pairs.iter().filter(|x| x.slow).count();
    if p.reference == Reference::MedianPair {
        out.push(format!(
            "The nodes' best pairs reach {} of the model's bus bandwidth for two nodes ({ranks} ranks) at the \
             median: the whole fabric (or the model for it) is below, not one node. Pairs are judged against that \
             level; run `probe-cli health` on one pair to see why.",
            pct(p.median_model_ratio)
        ));
    }
    if slow == 0 {
        out.push(format!("No pair is slow: all {} reach {} of their reference or more.", p.pairs.len(), pct(SLOW)));
    } else {
        out.push(format!("{slow} of {} pairs are slow (below {} of their reference).", p.pairs.len(), pct(SLOW)));
    }
    if !p.unexplained.is_empty() {
        out.push(format!(
            "{} slow pair(s) hold two nodes that are fast with others: run them again ({}).",
            p.unexplained.len(),
            p.unexplained.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests;
