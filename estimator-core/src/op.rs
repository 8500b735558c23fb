//! A collective operation as nccl-tests names it, and what its bus bandwidth means (nccl-tests' factors). Its own
//! module so that a scenario can name one without the model ([`crate::scenario::Correction`]).

use serde::{Deserialize, Serialize};

/// A collective operation, named as nccl-tests' binaries (`all_reduce_perf`, ...) and the JSON write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Op {
    /// Every rank ends with the sum of all ranks' S bytes.
    #[serde(rename = "all_reduce")]
    AllReduce,
    /// Every rank ends with all ranks' S/n bytes (S, nccl-tests' size, is the gathered total).
    #[serde(rename = "all_gather")]
    AllGather,
    /// Every rank ends with its S/n share of the sum (S is each rank's input).
    #[serde(rename = "reduce_scatter")]
    ReduceScatter,
    /// One rank's S bytes reach every rank.
    #[serde(rename = "broadcast")]
    Broadcast,
    /// Every rank sends S/n bytes to each rank (S is what each rank sends in all).
    #[serde(rename = "alltoall")]
    AllToAll,
}

impl Op {
    /// Every operation, in the order the CLI and the page list them.
    pub const ALL: [Op; 5] = [Op::AllReduce, Op::AllGather, Op::ReduceScatter, Op::Broadcast, Op::AllToAll];

    /// The JSON name (`all_reduce`, `all_gather`, `reduce_scatter`, `broadcast`, `alltoall`).
    pub fn name(self) -> &'static str {
        match self {
            Op::AllReduce => "all_reduce",
            Op::AllGather => "all_gather",
            Op::ReduceScatter => "reduce_scatter",
            Op::Broadcast => "broadcast",
            Op::AllToAll => "alltoall",
        }
    }

    /// Reads a name as users and tools write it: the JSON name, with or without the underscore or `_perf`,
    /// dashes, NCCL's `AllReduce` spelling.
    pub fn parse(s: &str) -> Option<Op> {
        let n: String = s.trim().to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        let n = n.strip_suffix("perf").unwrap_or(&n);
        match n {
            "allreduce" => Some(Op::AllReduce),
            "allgather" => Some(Op::AllGather),
            "reducescatter" => Some(Op::ReduceScatter),
            "broadcast" | "bcast" => Some(Op::Broadcast),
            "alltoall" | "a2a" => Some(Op::AllToAll),
            _ => None,
        }
    }

    /// nccl-tests' bus-bandwidth factor (`src/*.cc` `GetBw`): all-reduce 2(n-1)/n; all-gather, reduce-scatter
    /// and all-to-all (n-1)/n; broadcast 1. 0 for one rank.
    pub fn busbw_factor(self, ranks: u32) -> f64 {
        if ranks <= 1 {
            return 0.0;
        }
        let n = f64::from(ranks);
        match self {
            Op::AllReduce => 2.0 * (n - 1.0) / n,
            Op::AllGather | Op::ReduceScatter | Op::AllToAll => (n - 1.0) / n,
            Op::Broadcast => 1.0,
        }
    }

    /// The bus-bandwidth factor as nccl-tests' documentation writes it: `2(n-1)/n`, `(n-1)/n` or `1`.
    pub fn busbw_factor_formula(self) -> &'static str {
        match self {
            Op::AllReduce => "2(n-1)/n",
            Op::AllGather | Op::ReduceScatter | Op::AllToAll => "(n-1)/n",
            Op::Broadcast => "1",
        }
    }
}
