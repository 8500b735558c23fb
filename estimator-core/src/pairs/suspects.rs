//! The pairs read together: a fast pair clears both its nodes, a slow pair holds at least one bad node. A node in
//! slow pairs only is a suspect; how sure depends on its partners: each partner that is fast with another node is a
//! witness (that pair's slowness has no other explanation). Two witnesses make it **confirmed**, one **likely**,
//! none **possible** (its slow pairs were with other suspects). A node fast once but slow with two witnesses is
//! **intermittent**.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{PairResult, Pairs, Reference};

/// How sure a suspect is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Certainty {
    /// Slow with two or more partners that are fast with other nodes, and never fast.
    Confirmed,
    /// Slow with one partner that is fast with another node, and never fast.
    Likely,
    /// Slow with two or more witnesses, but fast in some pair: a node that comes and goes.
    Intermittent,
    /// Only ever slow with other suspects: it or they.
    Possible,
}

impl Certainty {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Certainty::Confirmed => "confirmed",
            Certainty::Likely => "likely",
            Certainty::Intermittent => "intermittent",
            Certainty::Possible => "possible",
        }
    }
}

/// A node the slow pairs point to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Suspect {
    /// The node.
    pub node: String,
    /// How sure.
    pub certainty: Certainty,
    /// Its slow pairs.
    pub slow_pairs: u32,
    /// All its pairs.
    pub pairs: u32,
    /// Its slow pairs' partners that are fast with another node.
    pub witnesses: Vec<String>,
    /// Why, in one sentence.
    pub why: String,
}

/// One node's standing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NodeStatus {
    /// The node.
    pub node: String,
    /// Its pairs.
    pub pairs: u32,
    /// Its slow pairs.
    pub slow_pairs: u32,
    /// Its best pair's ratio to the reference.
    pub best_ratio: f64,
    /// `cleared` (in a fast pair and not a suspect) or `suspect`.
    pub standing: String,
}

/// A pair to run in the next round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NextPair {
    /// The two nodes: the one to tell about first.
    pub hosts: [String; 2],
    /// What it tells.
    pub why: String,
}

#[derive(Default)]
struct Tally {
    pairs: u32,
    fast: u32,
    slow: u32,
    slow_partners: BTreeSet<String>,
    partners: BTreeSet<String>,
    best: f64,
}

/// The standing of every node, the suspects, the unexplained slow pairs and the next round, from judged pairs.
pub(super) fn read(pairs: Vec<PairResult>) -> Pairs {
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for p in &pairs {
        for (me, other) in [(&p.hosts[0], &p.hosts[1]), (&p.hosts[1], &p.hosts[0])] {
            let t = tally.entry(me.clone()).or_insert_with(|| Tally { best: 0.0, ..Tally::default() });
            t.pairs += 1;
            t.best = t.best.max(p.ratio);
            t.partners.insert(other.clone());
            if p.slow {
                t.slow += 1;
                t.slow_partners.insert(other.clone());
            } else {
                t.fast += 1;
            }
        }
    }
    let fast = |n: &str| tally.get(n).is_some_and(|t| t.fast > 0);
    let mut suspects = Vec::new();
    for (node, t) in &tally {
        if t.slow == 0 {
            continue;
        }
        let witnesses: Vec<String> = t.slow_partners.iter().filter(|p| fast(p)).cloned().collect();
        let certainty = match (t.fast, witnesses.len()) {
            (0, w) if w >= 2 => Certainty::Confirmed,
            (0, 1) => Certainty::Likely,
            (0, _) => Certainty::Possible,
            (f, w) if w >= 2 && t.slow > f => Certainty::Intermittent,
            _ => continue,
        };
        let why = match certainty {
            Certainty::Possible => format!(
                "slow in {} of {} pairs, each with another suspect ({}): it or they",
                t.slow,
                t.pairs,
                t.slow_partners.iter().cloned().collect::<Vec<_>>().join(", ")
            ),
            Certainty::Intermittent => format!(
                "slow in {} of {} pairs with nodes that are fast with others ({}), but fast in {}",
                t.slow,
                t.pairs,
                witnesses.join(", "),
                t.fast
            ),
            _ => format!(
                "slow in {} of {} pairs; {} with other nodes ({})",
                t.slow,
                t.pairs,
                if witnesses.len() == 1 { "that partner is fast" } else { "those partners are fast" },
                witnesses.join(", ")
            ),
        };
        suspects.push(Suspect { node: node.clone(), certainty, slow_pairs: t.slow, pairs: t.pairs, witnesses, why });
    }
    suspects.sort_by(|a, b| a.certainty.cmp(&b.certainty).then(b.slow_pairs.cmp(&a.slow_pairs)));
    let suspect = |n: &str| suspects.iter().any(|s| s.node == n);
    let unexplained: Vec<String> = pairs
        .iter()
        .filter(|p| p.slow && !suspect(&p.hosts[0]) && !suspect(&p.hosts[1]))
        .map(|p| p.file.clone())
        .collect();
    let nodes = tally
        .iter()
        .map(|(node, t)| NodeStatus {
            node: node.clone(),
            pairs: t.pairs,
            slow_pairs: t.slow,
            best_ratio: t.best,
            standing: if suspect(node) { "suspect" } else { "cleared" }.to_string(),
        })
        .collect();
    let next_round = next_round(&suspects, &tally, &pairs, &unexplained);
    Pairs {
        reference: Reference::Model,
        median_model_ratio: 1.0,
        pairs,
        nodes,
        suspects,
        next_round,
        unexplained,
        findings: Vec::new(),
    }
}

/// Each suspect that is not confirmed against a cleared node it has not met (the most proven first), then the
/// unexplained slow pairs again, no node twice.
fn next_round(
    suspects: &[Suspect],
    tally: &BTreeMap<String, Tally>,
    pairs: &[PairResult],
    unexplained: &[String],
) -> Vec<NextPair> {
    let mut good: Vec<(&String, &Tally)> =
        tally.iter().filter(|(n, t)| t.fast > 0 && !suspects.iter().any(|s| &s.node == *n)).collect();
    good.sort_by(|a, b| b.1.fast.cmp(&a.1.fast).then(a.0.cmp(b.0)));
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for s in suspects.iter().filter(|s| s.certainty != Certainty::Confirmed) {
        let met = |g: &str| tally.get(&s.node).is_some_and(|t| t.partners.contains(g));
        let pick = good
            .iter()
            .find(|(g, _)| !used.contains(*g) && !met(g))
            .or_else(|| good.iter().find(|(g, _)| !used.contains(*g)));
        let Some((g, _)) = pick else { break };
        used.insert((*g).clone());
        used.insert(s.node.clone());
        out.push(NextPair {
            hosts: [s.node.clone(), (*g).clone()],
            why: format!("{} is fast with others: a slow run here convicts {}, a fast one clears it", g, s.node),
        });
    }
    for file in unexplained {
        let Some(p) = pairs.iter().find(|p| &p.file == file) else { continue };
        if p.hosts.iter().any(|h| used.contains(h)) {
            continue;
        }
        used.extend(p.hosts.iter().cloned());
        out.push(NextPair {
            hosts: p.hosts.clone(),
            why: format!("again: slow once ({file}) though both are fast with others"),
        });
    }
    out
}
