//! PyTorch profiler traces (`torch.profiler`'s Kineto Chrome-trace JSON, what Holistic Trace Analysis reads): the
//! NCCL kernels with their collective, size and process group, the compute kernels beside them, and the steps
//! (`ProfilerStep#N`). From them: [`Calls`] to judge against the model, and per step the communication the GPU ran,
//! what of it no compute kernel overlapped (exposed) and what one did (hidden).
//!
//! The format, from its writers (notes with lines in `tests/data/traces/README.md`):
//! - pytorch/kineto `libkineto/src/output_json.cpp` @002d991: a JSON object with `traceEvents` (or, in old traces,
//!   a bare array of events); `ts` and `dur` in microseconds (3 decimals, or integers in old traces); kernels are
//!   `"ph": "X"` events of category `kernel` (`Kernel` in old ones) with `args.device`, `args.stream`,
//!   `args.correlation` and `args."External id"` (`external id` in old ones); the collective's metadata is copied
//!   onto the NCCL kernel from the `record_param_comms` CPU op with the same `External id` (l.494-609).
//! - pytorch/pytorch `torch/csrc/profiler/util.h` @035290b l.188-206: the metadata's keys `Collective name`,
//!   `dtype` (c10's name: `Float`, `BFloat16`), `In msg nelems` and `Out msg nelems` (element counts; `In msg
//!   size` in older releases), `Group size`, `Process Group Name`, `Process Group Description`, `Process Group
//!   Ranks` (a string `"[0, 1]"`, cut with `...` past 30 ranks).
//! - Steps: `torch.profiler`'s `ProfilerStep#N` user annotation on the CPU; a kernel belongs to the step its launch
//!   (the `cuda_runtime` event with the same `correlation`) falls in, as HTA assigns them (`hta/common/trace.py`).
//! - NCCL kernels: names starting `nccl` (`ncclDevKernel_AllReduce_Sum_bf16_RING_LL(...)` from NCCL 2.19,
//!   `ncclKernel_AllReduce_RING_LL_Sum_float(...)` before): HTA 0.5.0's `^nccl.*Kernel` (`hta/utils/utils.py`).
//!   Old traces without the metadata give the size on the `nccl:<collective>` CPU op's `Input Dims` and `Input
//!   type` (`record_shapes`).
//!
//! The reader is fed the document in chunks ([`TraceReader::feed`]) and never holds it: memory is bounded by the
//! largest event ([`scan::MAX_EVENT_BYTES`]) and by what it keeps per kernel, and a 500 MB trace is read as it
//! streams by. Nothing in a trace makes it panic; an event it cannot read is counted and the first few are named
//! with their index and byte offset.

mod fields;
pub mod scan;
mod steps;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::import::calls::{Call, Calls, Communicator};
use crate::op::Op;

pub(crate) use fields::flex;
use fields::{Args, Event, RankList, flex_u32, shape_bytes};
pub use fields::{dtype_bytes, op_of};
pub use steps::{StepTimes, TraceSteps};

/// The most kernels kept from one trace (about 40 bytes each); later ones are counted, not kept.
pub const MAX_KERNELS: usize = 8_000_000;
/// The most steps kept.
pub const MAX_STEPS: usize = 100_000;
/// The largest `ts` read, µs (about 300 years): Kineto writes `ts` relative to `baseTimeNanoseconds`, old traces
/// in microseconds since 1970 (about 1.7e15); beyond, a time is not a profiler's (and sums of them stay finite).
const MAX_TS_US: f64 = 1e16;
/// The longest kernel or step read, µs: a day.
const MAX_DUR_US: f64 = 86_400e6;
/// Calls numbered by their order in time start here, apart from those PyTorch's `Seq` numbers.
const BY_TIME: u64 = 1 << 62;
/// The most problems named; the rest are counted.
const MAX_PROBLEMS: usize = 8;

/// One GPU kernel, as much as the reader keeps.
#[derive(Clone, Copy, Debug)]
struct Kernel {
    ts: f64,
    dur: f64,
    device: i64,
    /// Index into the NCCL metadata, for an NCCL kernel.
    nccl: Option<u32>,
    correlation: Option<u64>,
}

/// What an NCCL kernel's metadata says.
#[derive(Clone, Copy, Debug, Default)]
struct Meta {
    op: Option<Op>,
    /// nccl-tests' size, bytes, when known.
    bytes: Option<f64>,
    /// The process group, an index into [`TraceReader::groups`].
    group: Option<u32>,
    /// `Group size`, for a kernel without a process group's name.
    size: Option<u32>,
    /// `Seq`: the process group's own number for the call, the same on every rank of it.
    seq: Option<u64>,
    /// The `External id` to find the size on a CPU op when the kernel has none.
    external: Option<u64>,
    /// A collective was named (`Collective name`), one the model has no figure for when `op` is `None`.
    named: bool,
}

/// A process group as the trace names it, kept once however many kernels name it.
#[derive(Clone, Debug, Default)]
struct Group {
    name: String,
    desc: Option<String>,
    size: Option<u32>,
    list: RankList,
}

/// A PyTorch profiler trace, read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PytorchTrace {
    /// The rank that wrote it (`distributedInfo.rank`), when it says.
    pub rank: Option<u32>,
    /// The job's ranks (`distributedInfo.world_size`), when it says.
    pub world_size: Option<u32>,
    /// Events read.
    pub events: u64,
    /// GPU kernels.
    pub kernels: u64,
    /// Of them, NCCL's.
    pub nccl_kernels: u64,
    /// The steps and their communication.
    pub steps: TraceSteps,
    /// The NCCL kernels as collective calls (those with a size and a collective the model knows).
    pub calls: Calls,
    /// Events that could not be read, and other problems, the first few named with their index and byte offset.
    pub problems: Vec<String>,
    /// How many events could not be read.
    pub unreadable_events: u64,
}

impl PytorchTrace {
    /// What it holds, in one line.
    pub fn describe(&self) -> String {
        use crate::human::{plural, secs};
        let rank = self.rank.map_or_else(|| "rank unknown".to_string(), |r| format!("rank {r}"));
        let world = self.world_size.map_or(String::new(), |w| format!(" of {w}"));
        let steps = match self.steps.median_step_s {
            Some(t) => {
                format!(", {} (median {})", plural(self.steps.steps.len() as u64, "step"), secs(crate::Seconds::new(t)))
            }
            None => ", no ProfilerStep".to_string(),
        };
        format!(
            "PyTorch profiler trace, {rank}{world}: {} kernels, {} of them NCCL's ({} with a size, over {}){steps}",
            self.kernels,
            self.nccl_kernels,
            self.calls.calls.len(),
            plural(self.calls.comms.len() as u64, "process group")
        )
    }
}

/// Why a document is not a trace at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// gzip's magic bytes.
    #[error("the file is gzip-compressed: decompress it first (gunzip), or give it to probe-cli, which reads .gz")]
    Gzip,
    /// Not JSON at its first byte.
    #[error("not a PyTorch profiler trace: it does not start with a JSON object or array (byte {byte:#04x})")]
    NotJson {
        /// The first byte that is not white space.
        byte: u8,
    },
    /// Empty.
    #[error("the file is empty")]
    Empty,
    /// JSON without events.
    #[error("not a PyTorch profiler trace: no traceEvents array at its top level")]
    NoEvents,
}

/// Reads a trace fed in chunks.
#[derive(Default)]
pub struct TraceReader {
    scan: scan::Scanner,
    kernels: Vec<Kernel>,
    metas: Vec<Meta>,
    /// `correlation` of a CUDA launch -> its CPU time.
    launches: HashMap<u64, f64>,
    /// `External id` of a CPU op with a collective's size -> the metadata it gives.
    cpu_meta: HashMap<u64, Meta>,
    /// The process groups named, and their index by name.
    groups: Vec<Group>,
    group_index: HashMap<String, u32>,
    steps: Vec<(u32, f64, f64)>,
    step_numbers: std::collections::HashSet<u32>,
    rank: Option<u32>,
    world: Option<u32>,
    events: u64,
    kernels_seen: u64,
    nccl_seen: u64,
    unreadable: u64,
    problems: Vec<String>,
    first: Option<u8>,
    dropped_kernels: u64,
}

impl TraceReader {
    /// A reader at the document's start.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the next chunk of the document.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.first.is_none() {
            self.first = chunk.iter().copied().find(|b| !b.is_ascii_whitespace());
            if self.first == Some(0x1f) && chunk.get(1) == Some(&0x8b) {
                return;
            }
        }
        if self.first == Some(0x1f) {
            return;
        }
        let mut scan = std::mem::take(&mut self.scan);
        scan.feed(chunk, &mut |item| match item {
            scan::Item::Event(n, at, bytes) => self.event(n, at, bytes),
            scan::Item::Oversized(n, at) => {
                self.unreadable += 1;
                self.problem(format!("event {n} (at byte {at}): over {} MiB, skipped", scan::MAX_EVENT_BYTES >> 20));
            }
            scan::Item::Value(key, bytes) => self.value(key, bytes),
        });
        self.scan = scan;
    }

    /// The collective's metadata (from `Collective name` and the counts, else the kernel's or op's name), its process
    /// group kept once in [`TraceReader::groups`].
    fn meta(&mut self, args: &mut Args<'_>, name: &str) -> Meta {
        let named = args.collective.is_some();
        // A named collective the model has no figure for (send, recv, barrier) stays unknown.
        let op = match args.collective.as_deref() {
            Some(c) => op_of(c),
            None => op_of(name.strip_prefix("nccl:").unwrap_or(name)),
        };
        let elem = args.dtype.as_deref().and_then(dtype_bytes);
        let bytes = match (op, elem) {
            (Some(Op::AllGather), Some(e)) => args.out_nelems.map(|n| n * e),
            (Some(_), Some(e)) => args.in_nelems.map(|n| n * e),
            _ => None,
        };
        let group =
            args.pg.take().and_then(|pg| self.intern(pg, args.pg_desc.take(), args.group_size, args.pg_ranks.take()));
        Meta { op, bytes, group, size: args.group_size, seq: args.seq, external: None, named }
    }

    /// The index of the process group `name`, what this event says of it filling what earlier ones did not.
    fn intern(&mut self, name: String, desc: Option<String>, size: Option<u32>, list: Option<RankList>) -> Option<u32> {
        if let Some(&i) = self.group_index.get(&name) {
            let g = &mut self.groups[i as usize];
            g.desc = g.desc.take().or(desc);
            g.size = g.size.or(size);
            if g.list.ranks.is_empty()
                && let Some(l) = list
            {
                g.list = l;
            }
            return Some(i);
        }
        if self.groups.len() >= crate::import::calls::MAX_COMMS {
            return None;
        }
        let i = self.groups.len() as u32;
        self.group_index.insert(name.clone(), i);
        self.groups.push(Group { name, desc, size, list: list.unwrap_or_default() });
        Some(i)
    }

    fn problem(&mut self, p: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(p);
        }
    }

    fn value(&mut self, key: &str, bytes: &[u8]) {
        if key != "distributedInfo" {
            return;
        }
        #[derive(Deserialize)]
        struct Dist {
            #[serde(default, deserialize_with = "flex_u32")]
            rank: Option<u32>,
            #[serde(default, deserialize_with = "flex_u32")]
            world_size: Option<u32>,
        }
        match serde_json::from_slice::<Dist>(bytes) {
            Ok(d) => {
                self.rank = self.rank.or(d.rank);
                self.world = self.world.or(d.world_size);
            }
            Err(e) => self.problem(format!("distributedInfo: {e}")),
        }
    }

    fn event(&mut self, n: u64, at: u64, bytes: &[u8]) {
        self.events += 1;
        let ev: Event<'_> = match serde_json::from_slice(bytes) {
            Ok(e) => e,
            Err(e) => {
                self.unreadable += 1;
                self.problem(format!("event {n} (at byte {at}): {e}"));
                return;
            }
        };
        if ev.ph.as_deref().is_some_and(|p| p != "X") {
            return;
        }
        let cat = ev.cat.as_deref().unwrap_or("");
        let name = ev.name.as_deref().unwrap_or("");
        let mut args = ev.args.unwrap_or_default();
        // Times a profiler can write: within about four months of its base, no negative or day-long kernel.
        let (ts, dur) = (ev.ts.filter(|t| t.abs() <= MAX_TS_US), ev.dur.filter(|d| (0.0..=MAX_DUR_US).contains(d)));
        match cat {
            "kernel" | "Kernel" => {
                self.kernels_seen += 1;
                let (Some(ts), Some(dur)) = (ts, dur) else {
                    self.unreadable += 1;
                    self.problem(format!("event {n} (at byte {at}): a kernel without a ts or dur in range"));
                    return;
                };
                let nccl = if name.starts_with("nccl") {
                    self.nccl_seen += 1;
                    let mut m = self.meta(&mut args, name);
                    m.external = args.external;
                    if self.metas.len() < MAX_KERNELS {
                        self.metas.push(m);
                        Some((self.metas.len() - 1) as u32)
                    } else {
                        None
                    }
                } else {
                    None
                };
                if self.kernels.len() < MAX_KERNELS {
                    self.kernels.push(Kernel {
                        ts,
                        dur,
                        device: args.device.unwrap_or(0),
                        nccl,
                        correlation: args.correlation,
                    });
                } else {
                    self.dropped_kernels += 1;
                }
            }
            "cuda_runtime" | "cuda_driver" | "Runtime" => {
                if let (Some(c), Some(ts)) = (args.correlation, ts)
                    && self.launches.len() < MAX_KERNELS
                {
                    self.launches.insert(c, ts);
                }
            }
            "user_annotation" | "cpu_op" | "Operator" | "python_function" => {
                // Before the metadata takes the group's fields: the default group's `Rank` is the global rank.
                if self.rank.is_none()
                    && name == "record_param_comms"
                    && args.pg_desc.as_deref() == Some("default_pg")
                    && let Some(r) = args.rank
                {
                    self.rank = Some(r);
                }
                if let Some(k) = name.strip_prefix("ProfilerStep#") {
                    if let (Ok(k), Some(ts), Some(dur)) = (k.trim().parse::<u32>(), ts, dur)
                        && self.steps.len() < MAX_STEPS
                        && self.step_numbers.insert(k)
                    {
                        self.steps.push((k, ts, dur));
                    }
                } else if (name == "record_param_comms" || name.starts_with("nccl:"))
                    && let Some(x) = args.external
                {
                    let mut m = self.meta(&mut args, name);
                    if m.bytes.is_none() {
                        m.bytes = shape_bytes(bytes, m.op);
                    }
                    if self.cpu_meta.len() < MAX_KERNELS {
                        // `record_param_comms` has the metadata; an old `nccl:` op only the shapes.
                        let keep = match self.cpu_meta.get(&x) {
                            Some(old) => old.bytes.is_none() || name == "record_param_comms",
                            None => true,
                        };
                        if keep {
                            self.cpu_meta.insert(x, m);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The trace, once the whole document was fed.
    pub fn finish(mut self) -> Result<PytorchTrace, TraceError> {
        match self.first {
            None => return Err(TraceError::Empty),
            Some(0x1f) => return Err(TraceError::Gzip),
            Some(b) if b != b'{' && b != b'[' && b != 0xEF => return Err(TraceError::NotJson { byte: b }),
            _ => {}
        }
        if !self.scan.saw_events {
            return Err(TraceError::NoEvents);
        }
        if !self.scan.complete() {
            self.problems.push(format!(
                "the document is cut at byte {}: the events read up to there are used",
                self.scan.offset
            ));
        }
        if self.dropped_kernels > 0 {
            self.problems.push(format!("{} kernels past the first {MAX_KERNELS} were not kept", self.dropped_kernels));
        }
        // Fill sizes from the CPU ops, by External id.
        for m in &mut self.metas {
            if let Some(c) = m.external.and_then(|x| self.cpu_meta.get(&x)) {
                m.bytes = m.bytes.or(c.bytes);
                if m.op.is_none() && !m.named {
                    m.op = c.op;
                    m.named = c.named;
                }
                m.group = m.group.or(c.group);
                m.size = m.size.or(c.size);
                m.seq = m.seq.or(c.seq);
            }
        }
        self.steps.sort_by(|a, b| a.1.total_cmp(&b.1));
        let steps = steps::steps(&self.steps, &self.kernels, &self.launches);
        let calls = self.calls(&steps);
        Ok(PytorchTrace {
            rank: self.rank,
            world_size: self.world,
            events: self.events,
            kernels: self.kernels_seen,
            nccl_kernels: self.nccl_seen,
            steps,
            calls,
            problems: self.problems,
            unreadable_events: self.unreadable,
        })
    }

    fn calls(&self, steps: &TraceSteps) -> Calls {
        let mut calls = Calls::default();
        let mut seq = HashMap::new();
        let (mut no_size, mut other, mut unknown_group, mut by_time) = (0u64, 0u64, 0u64, 0u64);
        let mut by_size: HashMap<u32, Option<u32>> = HashMap::new();
        // In the order they ran: a trace's events are not sorted, and a call's place among its group's calls
        // matches it across ranks when the trace has no `Seq`.
        let mut order: Vec<&Kernel> = self.kernels.iter().filter(|k| k.nccl.is_some()).collect();
        order.sort_by(|a, b| a.ts.total_cmp(&b.ts));
        let mut comm_of: HashMap<u32, Option<u32>> = HashMap::new();
        for k in order {
            let Some(m) = k.nccl.and_then(|i| self.metas.get(i as usize)) else { continue };
            let Some(op) = m.op else {
                other += 1;
                continue;
            };
            let Some(bytes) = m.bytes.filter(|b| *b > 0.0) else {
                no_size += 1;
                continue;
            };
            let comm = match m.group {
                Some(g) => *comm_of.entry(g).or_insert_with(|| {
                    let group = &self.groups[g as usize];
                    let size = group
                        .size
                        .or((!group.list.cut && !group.list.ranks.is_empty()).then_some(group.list.ranks.len() as u32));
                    let size = size.filter(|n| *n > 1)?;
                    calls.comm_index(&group.name, || Communicator {
                        id: String::new(),
                        label: group.desc.clone(),
                        ranks: size,
                        nodes: None,
                        members: group.list.members(Some(size)),
                    })
                }),
                None => match m.size.filter(|n| *n > 1) {
                    Some(n) => *by_size.entry(n).or_insert_with(|| {
                        calls.comm_index(&format!("group of {n}"), || Communicator {
                            id: String::new(),
                            label: None,
                            ranks: n,
                            nodes: None,
                            members: Vec::new(),
                        })
                    }),
                    None => None,
                },
            };
            let Some(comm) = comm else {
                unknown_group += 1;
                continue;
            };
            let call = Call { comm, op, bytes, duration_us: k.dur, rank: self.rank, seq: 0, source_busbw_gbs: None };
            match m.seq {
                Some(n) => calls.push_numbered(Call { seq: n.min(BY_TIME - 1), ..call }),
                None => {
                    by_time += 1;
                    calls.push(call, &mut seq);
                    if let Some(last) = calls.calls.last_mut() {
                        // Numbers of their own, apart from `Seq`'s.
                        last.seq = last.seq.saturating_add(BY_TIME);
                    }
                }
            }
        }
        if by_time > 0 {
            calls.coverage.push(format!(
                "{by_time} NCCL kernels carry no Seq (PyTorch's number for the call): they are matched across ranks by \
                 their order in time, which a profiling window that starts or stops mid-collective can shift"
            ));
        }
        if unknown_group > 0 {
            calls.dropped += unknown_group;
            calls.coverage.push(format!(
                "{unknown_group} NCCL kernels belong to a process group whose size the trace does not say: not judged"
            ));
        }
        calls.dropped += no_size + other;
        if no_size > 0 {
            calls.coverage.push(format!(
                "{no_size} NCCL kernels carry no size (a trace without record_shapes, or from before PyTorch \
                 recorded the collectives' metadata): not judged"
            ));
        }
        if other > 0 {
            calls.coverage.push(format!(
                "{other} NCCL kernels are point-to-point (send/recv), a barrier or a collective the model has no \
                 figure for: not judged"
            ));
        }
        if !steps.steps.is_empty() {
            calls.coverage.push(format!(
                "the trace covers {} profiled (ProfilerStep#{} to #{})",
                crate::human::plural(steps.steps.len() as u64, "step"),
                steps.steps.first().map_or(0, |s| s.step),
                steps.steps.last().map_or(0, |s| s.step)
            ));
        }
        calls
    }
}

/// Reads a whole trace held in memory (the page's worker, tests): [`TraceReader`] over it in one chunk.
pub fn parse(bytes: &[u8]) -> Result<PytorchTrace, TraceError> {
    let mut r = TraceReader::new();
    r.feed(bytes);
    r.finish()
}

/// Whether a text starts like a trace: a JSON object or array with `traceEvents`, or events with `ph` and `ts`.
pub fn looks_like(head: &str) -> bool {
    let t = head.trim_start_matches('\u{feff}').trim_start();
    (t.starts_with('{') || t.starts_with('['))
        && (t.contains("\"traceEvents\"") || (t.contains("\"ph\"") && t.contains("\"ts\"")))
}

#[cfg(test)]
mod tests;
