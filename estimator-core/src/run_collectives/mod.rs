//! A run's own collectives against the model: the calls an NCCL Inspector dump or a PyTorch profiler trace recorded
//! ([`Calls`], filled by [`crate::import::inspector`] and [`crate::import::trace`]), grouped by communicator and
//! collective, each group's bus bandwidth per size band against what the model expects for a communicator of that
//! shape on the run's hardware (and the floor healthy runs clear, [`crate::thresholds`]), and a verdict per group.
//! `straggler.rs` reads several ranks' records of the same calls for the rank the others wait for.
//!
//! A communicator's shape is its ranks and the nodes they span: from the source when it says (the Inspector's node
//! count), else from its members' global ranks placed node by node (`torchrun`'s order: rank r on node r / GPUs per
//! node). Its expectation is the model's collective on that group ([`crate::traffic::group_scenario`]: its ranks over
//! its nodes with its share of each node's adapters, as the layout's own groups are modelled).

mod straggler;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::calibrate::Profile;
use crate::health::{HEALTHY, MISMATCH_RATIO};
use crate::layout::Group;
use crate::op::Op;
use crate::scenario::Scenario;
use crate::stats::median;
use crate::thresholds::{self, BANDS};

pub use straggler::Straggler;

pub use crate::import::calls::{Call, Calls, Communicator, MAX_CALLS, MAX_COMMS, MAX_MEMBERS};

/// Fewest calls in a size band for it to be judged.
pub const MIN_CALLS: usize = 3;

/// Where a communicator's ranks sit on the run's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Shape {
    /// Ranks.
    pub ranks: u32,
    /// Nodes spanned.
    pub nodes: u32,
    /// Ranks per node (the most on one node).
    pub per_node: u32,
    /// How the nodes were found: `source` (the source said), `members` (its ranks' places), `layout` (neither, but
    /// the scenario's layout has a group of that size: placed as the layout places it), `assumed` (none of those:
    /// ranks packed onto as few nodes as they fill, and no conclusion drawn from where it runs).
    pub from: &'static str,
}

impl Shape {
    /// Where it runs, in words: `inside one node (8 GPUs)`, `across 4 nodes (1 GPU on each)`, with how that was
    /// found when the source did not say.
    pub fn place(&self) -> String {
        let gpus = |n: u32| crate::human::plural(u64::from(n), "GPU");
        let place = if self.nodes <= 1 {
            format!("inside one node ({})", gpus(self.ranks))
        } else {
            format!("across {} nodes ({} on each)", self.nodes, gpus(self.per_node))
        };
        match self.from {
            "layout" => format!("{place}, placed as the scenario's layout places a group of {}", self.ranks),
            "assumed" => format!("{place} (placement assumed: the records do not say)"),
            _ => place,
        }
    }

    /// Whether where it runs is known (the source, its members or the layout say).
    pub fn known(&self) -> bool {
        self.from != "assumed"
    }
}

/// The shape of `c` on the scenario's nodes.
pub fn shape_in(c: &Communicator, s: &Scenario) -> Shape {
    let found = shape(c, s.gpus_per_node());
    if found.known() {
        return found;
    }
    // The layout's groups of that size (tensor parallel at stride 1, data parallel at the tensor-parallel degree,
    // ...), when exactly one kind has it.
    let gpn = s.gpus_per_node();
    let g = crate::layout::groups(s.layout(), gpn, s.nvlink_domain_gpus().max(gpn));
    let sizes: Vec<Group> =
        [g.tp, g.dp, g.shard, g.replica, g.ep, g.expert_dp].into_iter().filter(|x| x.ranks == c.ranks).collect();
    match sizes.as_slice() {
        [one, rest @ ..] if rest.iter().all(|x| x.nodes == one.nodes && x.per_node == one.per_node) => {
            Shape { ranks: c.ranks, nodes: one.nodes.max(1), per_node: one.per_node.max(1), from: "layout" }
        }
        _ => found,
    }
}

/// The shape of `c` on nodes of `gpn` GPUs, from the source or its members only.
pub fn shape(c: &Communicator, gpn: u32) -> Shape {
    let gpn = gpn.max(1);
    let ranks = c.ranks.max(1);
    if let Some(nodes) = c.nodes.filter(|n| *n >= 1 && *n <= ranks) {
        return Shape { ranks, nodes, per_node: ranks.div_ceil(nodes), from: "source" };
    }
    if !c.members.is_empty() {
        let mut per: HashMap<u32, u32> = HashMap::new();
        for m in &c.members {
            *per.entry(m / gpn).or_insert(0) += 1;
        }
        let per_node = per.values().copied().max().unwrap_or(1);
        return Shape { ranks, nodes: per.len() as u32, per_node, from: "members" };
    }
    let nodes = ranks.div_ceil(gpn);
    Shape { ranks, nodes, per_node: ranks.div_ceil(nodes), from: "assumed" }
}

/// The scenario a communicator of `shape` runs on: the job's hardware with the group's ranks over its nodes.
pub fn group_scenario(s: &Scenario, shape: &Shape) -> Scenario {
    let gpn = s.gpus_per_node();
    let per_node = shape.per_node.clamp(1, gpn);
    // Its ranks at the stride that puts `per_node` of them on each node.
    let stride = if shape.nodes > 1 { (gpn / per_node).max(1) } else { 1 };
    let mut g = Group::placed(shape.ranks, stride, gpn, s.nvlink_domain_gpus().max(gpn));
    g.nodes = shape.nodes.max(1);
    g.per_node = per_node;
    crate::traffic::group_scenario(s, g)
}

/// How a size band of a group reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum BandStatus {
    /// At least [`HEALTHY`] of the slower expectation.
    AsExpected,
    /// Below that, above the floor healthy runs clear at this size: below the model, within what healthy public
    /// runs show.
    Low,
    /// Below the floor healthy runs clear.
    Slow,
    /// Above [`MISMATCH_RATIO`] times the expectation: not this hardware, or not this communicator's shape.
    Faster,
    /// Fewer than [`MIN_CALLS`] calls: not judged.
    TooFew,
}

impl BandStatus {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            BandStatus::AsExpected => "as-expected",
            BandStatus::Low => "low",
            BandStatus::Slow => "slow",
            BandStatus::Faster => "faster",
            BandStatus::TooFew => "too-few",
        }
    }
}

/// One size band of a group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BandCheck {
    /// From (inclusive), bytes.
    pub from_bytes: f64,
    /// To (exclusive), bytes; `None`: no end.
    pub to_bytes: Option<f64>,
    /// Calls in it.
    pub calls: usize,
    /// Their median size, bytes.
    pub median_bytes: f64,
    /// Their median bus bandwidth, GB/s per GPU as nccl-tests computes it.
    pub measured_busbw_gbs: f64,
    /// The model's at each call's size (to within 1/16 octave, 4.4%), their median, GB/s.
    pub expected_busbw_gbs: f64,
    /// Measured over expected.
    pub ratio: f64,
    /// The floor: healthy runs read at least this bus bandwidth here (the median of each call's), GB/s.
    pub floor_busbw_gbs: f64,
    /// Where the floor comes from: `public` or `profile`.
    pub floor_from: String,
    /// How it reads.
    pub status: BandStatus,
}

/// The calls of one size (a power of two), for a chart: measured against expected.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SizePoint {
    /// The calls' median size, bytes.
    pub bytes: f64,
    /// Calls.
    pub calls: usize,
    /// Their median bus bandwidth, GB/s.
    pub measured_busbw_gbs: f64,
    /// The model's at that size, GB/s.
    pub expected_busbw_gbs: f64,
}

/// How a group reads as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum GroupVerdict {
    /// Every judged band at or above its expectation's healthy share.
    AsExpected,
    /// Some band below the model, none below the floor: within what healthy public runs show.
    Low,
    /// Some band below the floor healthy runs clear.
    Slow,
    /// Faster than the hardware could give: the scenario is not this run's hardware or shape.
    Faster,
    /// No band has enough calls.
    TooFew,
}

impl GroupVerdict {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            GroupVerdict::AsExpected => "as-expected",
            GroupVerdict::Low => "low",
            GroupVerdict::Slow => "slow",
            GroupVerdict::Faster => "faster",
            GroupVerdict::TooFew => "too-few",
        }
    }
}

/// One communicator's calls of one collective, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupCheck {
    /// The communicator's id.
    pub comm: String,
    /// Its description, if the source gave one.
    pub label: Option<String>,
    /// The collective.
    pub op: Op,
    /// Where its ranks sit.
    pub shape: Shape,
    /// Whether its traffic crosses the network (it spans NVLink domains).
    pub crosses_network: bool,
    /// Calls (one per call, however many ranks recorded it).
    pub calls: usize,
    /// The time they took, seconds: the sum of their durations, each call's shortest over the ranks that
    /// recorded it (the others' include their wait for the last rank to start it).
    pub time_s: f64,
    /// By size band ([`crate::thresholds::BANDS`]), those with calls.
    pub bands: Vec<BandCheck>,
    /// By size, for a chart.
    pub sizes: Vec<SizePoint>,
    /// The model's bus bandwidth for this communicator at every power of two from 8 times under the smallest size
    /// measured to twice the largest (at most 32 sizes), GB/s: the curve the measured sizes are drawn against.
    pub model_curve: Vec<(f64, f64)>,
    /// The verdict.
    pub verdict: GroupVerdict,
    /// The verdict in a sentence, with its figure.
    pub text: String,
}

/// A run's collectives, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CollectivesCheck {
    /// One per (communicator, collective), slowest verdicts first.
    pub groups: Vec<GroupCheck>,
    /// The ranks whose records were read.
    pub ranks: Vec<u32>,
    /// The rank the others wait for, with several ranks' records of the same calls.
    pub straggler: Option<Straggler>,
    /// Whether the records could tell a straggler: several ranks' records of enough of the same calls. False with
    /// one rank's records, or too few calls matched.
    pub straggler_checked: bool,
    /// What the check cannot say from these records (one rank only, a share of the run), one sentence each.
    pub limits: Vec<String>,
    /// The findings in one line each: the verdict per group, the straggler.
    pub summary: Vec<String>,
}

impl CollectivesCheck {
    /// Groups across the network, judged (not too few), whose placement is known.
    pub fn cross_node(&self) -> impl Iterator<Item = &GroupCheck> {
        self.groups.iter().filter(|g| g.crosses_network && g.verdict != GroupVerdict::TooFew && g.shape.known())
    }

    /// Groups inside a node (or an NVLink domain), judged, whose placement is known.
    pub fn inside(&self) -> impl Iterator<Item = &GroupCheck> {
        self.groups.iter().filter(|g| !g.crosses_network && g.verdict != GroupVerdict::TooFew && g.shape.known())
    }

    /// Groups judged (not too few), wherever they run.
    pub fn judged(&self) -> impl Iterator<Item = &GroupCheck> {
        self.groups.iter().filter(|g| g.verdict != GroupVerdict::TooFew)
    }
}

/// The key of a size's expectation in the cache: the group's scenario index, the collective and the size in 1/16
/// octaves (4.4%: a run's sizes take a few of them; a hostile one cannot make millions of model runs).
type Key = (usize, Op, i32);

struct Expect<'a> {
    scenarios: Vec<Scenario>,
    /// Each communicator's shape, as an index: communicators of one shape share their expectations.
    shape_of: Vec<usize>,
    cache: HashMap<Key, f64>,
    profile: Option<&'a Profile>,
}

impl Expect<'_> {
    /// The model's bus bandwidth (at the call's size to within a 1/16 octave, 4.4%: the model is run once per
    /// such step of size), the floor healthy runs clear at the call's own size (its band's share of that), and where
    /// the floor comes from.
    fn at(&mut self, g: usize, op: Op, bytes: f64) -> (f64, f64, &'static str) {
        let sixteenth = (bytes.max(1.0).log2() * 16.0).round().clamp(0.0, 1024.0) as i32;
        let key = (self.shape_of[g], op, sixteenth);
        let expected = match self.cache.get(&key) {
            Some(v) => *v,
            None => {
                let at = 2f64.powf(f64::from(sixteenth) / 16.0);
                let t = thresholds::thresholds(&self.scenarios[g], &[op], &[at], None);
                let v = t.first().map_or(0.0, |t| {
                    t.expected_ring_busbw_gbs.map_or(t.expected_busbw_gbs, |r| r.min(t.expected_busbw_gbs))
                });
                self.cache.insert(key, v);
                v
            }
        };
        let own = self.profile.and_then(|p| p.floor(op, bytes));
        let share = own.unwrap_or(thresholds::band(bytes).floor);
        (expected, expected * share, if own.is_some() { "profile" } else { "public" })
    }
}

/// Judges a run's calls on the scenario's hardware (its correction, if calibrated, sets the expectation; `profile`'s
/// own floors where it has them).
pub fn judge(s: &Scenario, calls: &Calls, profile: Option<&Profile>) -> CollectivesCheck {
    let shapes: Vec<Shape> = calls.comms.iter().map(|c| shape_in(c, s)).collect();
    let mut distinct: Vec<(u32, u32, u32)> = Vec::new();
    let shape_of: Vec<usize> = shapes
        .iter()
        .map(|sh| {
            let k = (sh.ranks, sh.nodes, sh.per_node);
            distinct.iter().position(|d| *d == k).unwrap_or_else(|| {
                distinct.push(k);
                distinct.len() - 1
            })
        })
        .collect();
    let mut ex = Expect {
        scenarios: shapes.iter().map(|sh| group_scenario(s, sh)).collect(),
        shape_of,
        cache: HashMap::new(),
        profile,
    };
    // Calls by (communicator, collective), in the order first seen.
    // A call several ranks recorded counts once, at its shortest: the others' include their wait for the last to
    // start it (`straggler.rs`), the shortest is the transfer itself.
    // (The same file given twice, too, counts once.)
    let mut shortest: HashMap<(u32, Op, u64), usize> = HashMap::new();
    for (i, c) in calls.calls.iter().enumerate() {
        let e = shortest.entry((c.comm, c.op, c.seq)).or_insert(i);
        if c.duration_us < calls.calls[*e].duration_us {
            *e = i;
        }
    }
    let mut order: Vec<(u32, Op)> = Vec::new();
    let mut by: HashMap<(u32, Op), Vec<&Call>> = HashMap::new();
    for (i, c) in calls.calls.iter().enumerate() {
        if !shortest.is_empty() && shortest.get(&(c.comm, c.op, c.seq)) != Some(&i) {
            continue;
        }
        by.entry((c.comm, c.op))
            .or_insert_with(|| {
                order.push((c.comm, c.op));
                Vec::new()
            })
            .push(c);
    }
    let mut groups = Vec::new();
    for key in order {
        let list = &by[&key];
        let (ci, op) = (key.0 as usize, key.1);
        let comm = &calls.comms[ci];
        let shape = shapes[ci];
        // Across the network: more nodes than one NVLink domain holds (a node, without a larger domain).
        let crosses = shape.nodes > s.nodes_per_domain().max(1);
        let ranks = shape.ranks;
        let time_s = list.iter().map(|c| c.duration_us).sum::<f64>() * 1e-6;
        let mut bands = Vec::new();
        for b in &BANDS {
            let inb: Vec<&&Call> = list.iter().filter(|c| c.bytes >= b.from_bytes && c.bytes < b.to_bytes).collect();
            if inb.is_empty() {
                continue;
            }
            let mut measured = Vec::with_capacity(inb.len());
            let mut expected = Vec::with_capacity(inb.len());
            let mut floors = Vec::with_capacity(inb.len());
            let mut from = "public";
            for c in &inb {
                measured.push(c.busbw_gbs(ranks));
                let (e, f, w) = ex.at(ci, op, c.bytes);
                expected.push(e);
                floors.push(f);
                from = w;
            }
            let m = median(measured).unwrap_or(0.0);
            let e = median(expected).unwrap_or(0.0);
            let f = median(floors).unwrap_or(0.0);
            let ratio = if e > 0.0 { m / e } else { 0.0 };
            let status = if inb.len() < MIN_CALLS {
                BandStatus::TooFew
            } else if ratio > MISMATCH_RATIO {
                BandStatus::Faster
            } else if ratio >= HEALTHY {
                BandStatus::AsExpected
            } else if m >= f {
                BandStatus::Low
            } else {
                BandStatus::Slow
            };
            bands.push(BandCheck {
                from_bytes: b.from_bytes,
                to_bytes: b.to_bytes.is_finite().then_some(b.to_bytes),
                calls: inb.len(),
                median_bytes: median(inb.iter().map(|c| c.bytes).collect()).unwrap_or(0.0),
                measured_busbw_gbs: m,
                expected_busbw_gbs: e,
                ratio,
                floor_busbw_gbs: f,
                floor_from: from.to_string(),
                status,
            });
        }
        let sizes = size_points(list, ranks, &mut ex, ci, op);
        let model_curve = curve(&sizes, &mut ex, ci, op);
        let verdict = verdict(&bands);
        let text = group_text(comm, op, &shape, &bands, verdict);
        groups.push(GroupCheck {
            comm: comm.id.clone(),
            label: comm.label.clone(),
            op,
            shape,
            crosses_network: crosses,
            calls: list.len(),
            time_s,
            bands,
            sizes,
            model_curve,
            verdict,
            text,
        });
    }
    let rank_of = |v: GroupVerdict| match v {
        GroupVerdict::Slow => 0,
        GroupVerdict::Faster => 1,
        GroupVerdict::Low => 2,
        GroupVerdict::AsExpected => 3,
        GroupVerdict::TooFew => 4,
    };
    groups.sort_by(|a, b| rank_of(a.verdict).cmp(&rank_of(b.verdict)).then(b.time_s.total_cmp(&a.time_s)));
    let mut limits = calls.coverage.clone();
    let mut none_stands_out = None;
    let read = straggler::read(calls);
    let checked = read.is_ok();
    let straggler = match read {
        Ok(found) => {
            if found.is_none() {
                none_stands_out = Some(format!(
                    "none stands out as a straggler over {} {}: the fastest of a call changes from call to call, or \
                     the others' wait is under {} of their time",
                    calls.ranks.len(),
                    calls.recorder_word(true),
                    crate::human::pct(straggler::MIN_WAIT_SHARE)
                ));
            }
            found
        }
        Err(matched) => {
            if calls.ranks.len() >= 2 {
                limits.push(format!(
                    "{matched} calls were recorded on two ranks or more, under the {} needed to name a straggler",
                    straggler::MIN_MATCHED
                ));
            } else {
                limits.push(
                    "the records are one rank's: a call's time includes the wait for the slowest rank, so from them \
                     alone a straggler cannot be told from a slow fabric (give every rank's records to tell)"
                        .to_string(),
                );
            }
            None
        }
    };
    let mut summary: Vec<String> =
        groups.iter().filter(|g| g.verdict != GroupVerdict::TooFew).map(|g| g.text.clone()).collect();
    summary.extend(straggler.as_ref().map(|st| st.text.clone()).or(none_stands_out));
    CollectivesCheck { groups, ranks: calls.ranks.clone(), straggler, straggler_checked: checked, limits, summary }
}

/// The calls by power-of-two size: median size and bus bandwidth against the model's.
fn size_points(list: &[&Call], ranks: u32, ex: &mut Expect<'_>, ci: usize, op: Op) -> Vec<SizePoint> {
    let mut by: std::collections::BTreeMap<i32, Vec<&Call>> = std::collections::BTreeMap::new();
    for c in list {
        let k = if c.bytes > 0.0 { c.bytes.log2().round() as i32 } else { -1 };
        by.entry(k).or_default().push(c);
    }
    by.into_values()
        .map(|v| {
            let bytes = median(v.iter().map(|c| c.bytes).collect()).unwrap_or(0.0);
            SizePoint {
                bytes,
                calls: v.len(),
                measured_busbw_gbs: median(v.iter().map(|c| c.busbw_gbs(ranks)).collect()).unwrap_or(0.0),
                expected_busbw_gbs: ex.at(ci, op, bytes).0,
            }
        })
        .collect()
}

/// The model's curve around the measured sizes.
fn curve(sizes: &[SizePoint], ex: &mut Expect<'_>, ci: usize, op: Op) -> Vec<(f64, f64)> {
    let logs = sizes.iter().filter(|p| p.bytes >= 1.0).map(|p| p.bytes.log2());
    let (lo, hi) = logs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if !lo.is_finite() {
        return Vec::new();
    }
    let (from, to) = ((lo.floor() - 3.0).max(0.0) as i32, (hi.ceil() + 1.0).min(50.0) as i32);
    (from..=to.min(from + 31))
        .map(|k| {
            let b = 2f64.powi(k);
            (b, ex.at(ci, op, b).0)
        })
        .collect()
}

fn verdict(bands: &[BandCheck]) -> GroupVerdict {
    let judged: Vec<&BandCheck> = bands.iter().filter(|b| b.status != BandStatus::TooFew).collect();
    if judged.is_empty() {
        return GroupVerdict::TooFew;
    }
    if judged.iter().any(|b| b.status == BandStatus::Slow) {
        GroupVerdict::Slow
    } else if judged.iter().any(|b| b.status == BandStatus::Faster) {
        GroupVerdict::Faster
    } else if judged.iter().any(|b| b.status == BandStatus::Low) {
        GroupVerdict::Low
    } else {
        GroupVerdict::AsExpected
    }
}

/// A size in binary units for people: `1 MiB`, `256 KiB`, `64 B`.
pub fn size_label(bytes: f64) -> String {
    crate::human::binary(crate::units::Bytes::new(bytes))
}

fn group_text(c: &Communicator, op: Op, shape: &Shape, bands: &[BandCheck], v: GroupVerdict) -> String {
    use crate::human::{num, pct};
    let name = c.label.as_deref().map_or_else(|| format!("communicator {}", c.id), |l| format!("{l} ({})", c.id));
    let what = format!("the {} on {name}, {}", op.name(), shape.place());
    let judged: Vec<&BandCheck> = bands.iter().filter(|b| b.status != BandStatus::TooFew).collect();
    let worst = |st: BandStatus| judged.iter().filter(|b| b.status == st).min_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let from = |b: &BandCheck| format!("from {}", size_label(b.from_bytes));
    match v {
        GroupVerdict::TooFew => format!("{what}: too few calls in any size band to judge"),
        GroupVerdict::Slow => {
            let b = worst(BandStatus::Slow).expect("a slow band");
            let slow_from = judged
                .iter()
                .filter(|x| x.status == BandStatus::Slow)
                .map(|x| x.from_bytes)
                .fold(f64::INFINITY, f64::min);
            format!(
                "{what}, runs at {} of expected from {} up ({} GB/s against {} GB/s at {}), below the {} GB/s healthy \
                 runs clear there: slow",
                pct(b.ratio),
                size_label(slow_from),
                num(b.measured_busbw_gbs, 1),
                num(b.expected_busbw_gbs, 1),
                size_label(b.median_bytes),
                num(b.floor_busbw_gbs, 1)
            )
        }
        GroupVerdict::Faster => {
            let b = worst(BandStatus::Faster).expect("a faster band");
            format!(
                "{what}, runs at {} of expected ({} GB/s against {} GB/s at {}): faster than this hardware could \
                 give, so the scenario is not this run's hardware or the communicator's shape is not what it seems",
                pct(b.ratio),
                num(b.measured_busbw_gbs, 1),
                num(b.expected_busbw_gbs, 1),
                size_label(b.median_bytes)
            )
        }
        GroupVerdict::Low => {
            let b = worst(BandStatus::Low).expect("a low band");
            format!(
                "{what}, runs at {} of expected {} ({} GB/s against {} GB/s at {}): below the model, above the {} \
                 GB/s healthy runs clear at this size",
                pct(b.ratio),
                from(b),
                num(b.measured_busbw_gbs, 1),
                num(b.expected_busbw_gbs, 1),
                size_label(b.median_bytes),
                num(b.floor_busbw_gbs, 1)
            )
        }
        GroupVerdict::AsExpected => {
            let low = judged.iter().min_by(|a, b| a.ratio.total_cmp(&b.ratio)).expect("judged");
            format!(
                "{what}, runs as expected (at least {} of the model's bus bandwidth in every size band)",
                pct(low.ratio)
            )
        }
    }
}

#[cfg(test)]
mod tests;
