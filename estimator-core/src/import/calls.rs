//! A run's own collective calls as a source recorded them (NCCL Inspector records, a PyTorch profiler trace's NCCL
//! kernels): the communicators and the calls, what both readers fill and [`crate::run_collectives`] judges. Here,
//! beside the readers, so that the readers need nothing of the judgement.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::op::Op;

/// The most communicators a source may name; more are refused as one (a reader stops adding them).
pub const MAX_COMMS: usize = 4096;
/// The most calls kept from one source; later ones are counted, not kept.
pub const MAX_CALLS: usize = 4_000_000;
/// The most member ranks kept per communicator.
pub const MAX_MEMBERS: usize = 65_536;

/// One communicator as the source names it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Communicator {
    /// The source's id: the Inspector's communicator hash, a trace's process group name.
    pub id: String,
    /// The source's description (`default_pg`, a process group's description), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Ranks in it.
    pub ranks: u32,
    /// Nodes it spans, when the source says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    /// Its members' global ranks, when the source lists them (at most [`MAX_MEMBERS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<u32>,
}

/// One collective call as one rank recorded it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Call {
    /// Index into [`Calls::comms`].
    pub comm: u32,
    /// The collective.
    pub op: Op,
    /// nccl-tests' size for it, bytes (all-gather: the gathered total; the others: each rank's input).
    pub bytes: f64,
    /// How long it ran on the GPU, microseconds (the wait for the slowest rank included).
    pub duration_us: f64,
    /// The global rank that recorded it, when known.
    pub rank: Option<u32>,
    /// Its number: the source's own (the Inspector's `coll_sn`, PyTorch's `Seq`), else its place in time among its
    /// communicator's calls on that rank (from 2^62 in a trace, apart from `Seq`'s): the same call on every rank has
    /// the same one, unless the source dropped some.
    pub seq: u64,
    /// The bus bandwidth the source itself computed, GB/s, when it did (the Inspector's `busBw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_busbw_gbs: Option<f64>,
}

impl Call {
    /// nccl-tests' bus bandwidth of the call, GB/s: size over time, times the operation's factor for `ranks`.
    pub fn busbw_gbs(&self, ranks: u32) -> f64 {
        if self.duration_us <= 0.0 {
            return 0.0;
        }
        self.bytes / (1000.0 * self.duration_us) * self.op.busbw_factor(ranks)
    }
}

/// What a source recorded: its communicators and calls, the ranks that recorded them, and what it does not hold.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Calls {
    /// The communicators.
    pub comms: Vec<Communicator>,
    /// The calls (at most [`MAX_CALLS`]).
    pub calls: Vec<Call>,
    /// The ranks that recorded calls, ascending.
    pub ranks: Vec<u32>,
    /// Where the source knows its recorders by process rather than by global rank (the Inspector: host and pid),
    /// their names: [`Call::rank`] indexes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorders: Vec<String>,
    /// Calls read but not kept (over [`MAX_CALLS`], or of a collective the model has no figure for: send/recv).
    pub dropped: u64,
    /// What share of the run the records cover, and why not all of it, one sentence each.
    pub coverage: Vec<String>,
}

impl Calls {
    /// The index of the communicator `id`, added when new (`None` past [`MAX_COMMS`]).
    pub fn comm_index(&mut self, id: &str, make: impl FnOnce() -> Communicator) -> Option<u32> {
        if let Some(i) = self.comms.iter().position(|c| c.id == id) {
            return Some(i as u32);
        }
        if self.comms.len() >= MAX_COMMS {
            return None;
        }
        let mut c = make();
        c.id = id.to_string();
        self.comms.push(c);
        Some((self.comms.len() - 1) as u32)
    }

    /// The index of the recorder `who` (a process), added when new, as a call's rank.
    pub fn recorder(&mut self, who: &str) -> Option<u32> {
        let i = match self.recorders.iter().position(|r| r == who) {
            Some(i) => i,
            None if self.recorders.len() < MAX_COMMS * 16 => {
                self.recorders.push(who.chars().take(128).collect());
                self.recorders.len() - 1
            }
            None => return None,
        };
        let r = i as u32;
        if let Err(at) = self.ranks.binary_search(&r) {
            self.ranks.insert(at, r);
        }
        Some(r)
    }

    /// What the recorders are, in words: `ranks` (`rank` for one), or `processes` where the source knows them by
    /// process (the Inspector).
    pub fn recorder_word(&self, plural: bool) -> &'static str {
        match (self.recorders.is_empty(), plural) {
            (true, true) => "ranks",
            (true, false) => "rank",
            (false, true) => "processes",
            (false, false) => "process",
        }
    }

    /// Who recorded as `rank`: `rank 8`, or the process's name.
    pub fn who(&self, rank: u32) -> String {
        self.recorders.get(rank as usize).cloned().unwrap_or_else(|| format!("rank {rank}"))
    }

    /// Adds a call with the number its source gave it (the Inspector's `coll_sn`, a trace's `Seq`); counts it dropped
    /// past [`MAX_CALLS`].
    pub fn push_numbered(&mut self, call: Call) {
        if self.calls.len() >= MAX_CALLS || !call.duration_us.is_finite() || !call.bytes.is_finite() {
            self.dropped += 1;
            return;
        }
        if let Some(r) = call.rank
            && let Err(at) = self.ranks.binary_search(&r)
        {
            self.ranks.insert(at, r);
        }
        self.calls.push(call);
    }

    /// Adds a call, numbering it among its communicator's calls on its rank; counts it dropped past [`MAX_CALLS`].
    pub fn push(&mut self, mut call: Call, seq: &mut HashMap<(u32, Option<u32>), u64>) {
        if self.calls.len() >= MAX_CALLS || !call.duration_us.is_finite() || !call.bytes.is_finite() {
            self.dropped += 1;
            return;
        }
        let n = seq.entry((call.comm, call.rank)).or_insert(0);
        call.seq = *n;
        *n += 1;
        if let Some(r) = call.rank
            && let Err(at) = self.ranks.binary_search(&r)
        {
            self.ranks.insert(at, r);
        }
        self.calls.push(call);
    }

    /// Another source's calls added to these (several ranks' traces, several Inspector files), its communicators
    /// matched by id.
    pub fn merge(&mut self, other: Calls) {
        let mut map = Vec::with_capacity(other.comms.len());
        for c in other.comms {
            let members = c.members.clone();
            let i = self.comm_index(&c.id.clone(), || c);
            if let Some(i) = i
                && self.comms[i as usize].members.is_empty()
            {
                self.comms[i as usize].members = members;
            }
            map.push(i);
        }
        // Processes named by the other source are numbered among these ones'.
        let who: Vec<Option<u32>> = other.recorders.iter().map(|w| self.recorder(w)).collect();
        for call in other.calls {
            if let Some(Some(comm)) = map.get(call.comm as usize) {
                let mut c = call;
                c.comm = *comm;
                if !who.is_empty() {
                    c.rank = c.rank.and_then(|r| who.get(r as usize).copied().flatten());
                }
                // The sequence numbers of another source stand as they are: a rank's calls come from one source.
                if self.calls.len() < MAX_CALLS {
                    if let Some(r) = c.rank
                        && let Err(at) = self.ranks.binary_search(&r)
                    {
                        self.ranks.insert(at, r);
                    }
                    self.calls.push(c);
                } else {
                    self.dropped += 1;
                }
            } else {
                self.dropped += 1;
            }
        }
        self.dropped += other.dropped;
        for line in other.coverage {
            if !self.coverage.contains(&line) {
                self.coverage.push(line);
            }
        }
    }
}
