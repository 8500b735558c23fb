//! The step model's terms that were shaped on, or fitted to, public training runs, each of which can be switched
//! to what the model would be without it.
//!
//! A rule shaped while looking at a source's runs is fitted to that source, even when no constant was taken
//! from it. To score such a source's runs out of source (leave one source out), the model must be able to run
//! without what was shaped on them: each term here has the shipped value ([`Terms::SHIPPED`]) and the model as it
//! was before the term ([`Terms::NONE`]). The step replay (`tests/src/calibration/steps/`) names, for each public
//! run, the terms its source shaped, and predicts the run with those terms off.
//!
//! A [`crate::Scenario`] carries its terms ([`crate::Scenario::with_terms`]); everything the front ends build
//! uses [`Terms::SHIPPED`].

use serde::Serialize;

/// The identifiers of the terms, as the step replay's data names them (`fitted`).
pub const TERM_IDS: [&str; 5] =
    [Terms::SCHEDULE, Terms::RING_RAMP_IN_TIME, Terms::FRAMEWORK_OVERLAP, Terms::INTERFERENCE, Terms::RANK_VARIATION];

/// The shipped per-rank variation ([`Terms::rank_variation`]).
pub const RANK_VARIATION: f64 = 0.042;

/// Which of the shaped terms the model uses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Terms {
    /// Overlap from the frameworks' schedule (`schedule.rs`: DDP's buckets behind the backward, FSDP's prefetch,
    /// Megatron's asynchronous tensor-parallel all-reduce). Off: nothing is hidden unless the user sets
    /// `overlap`, the model before the schedule (commit e676bc9 added the schedule together with the step
    /// replay's first 34 runs, so it was written while looking at them).
    pub schedule: bool,
    /// The Ring ramp read in time, not bytes, on node networks slower than the one it was fitted on
    /// (`collective/ramp.rs`, `REF_NODE_GBS`). Off: the ramp read at the bytes themselves, as fitted. Shaped on
    /// the step replay (commit 2e8690f: a 64 MiB bucket over one 25 GbE port, Horovod's 2017 RDMA table).
    pub ring_ramp_in_time: bool,
    /// ZeRO-1/2's framework overlap settings are honoured (`overlap_grad_reduce`, `overlap_param_gather`:
    /// megatron-core's rules for each, `schedule.rs`). Off: every run is taken at their defaults, the model
    /// before the settings were inputs. Added after FlagPerf's 440-GPU Megatron run read 55% slow out of source,
    /// so that source names it.
    pub framework_overlap: bool,
    /// Compute slowed while communication overlaps it: the hidden communication adds this share of itself to
    /// the step's exposed time. A candidate, off as shipped: Lee et al. (arXiv 2507.03114, abstract: "an
    /// average computational slowdown of 18.9%, with a maximum of 40.0%") made the step replay's out-of-source
    /// error larger, not smaller (README, "Terms tried").
    pub interference: f64,
    /// The per-rank coefficient of variation of the compute: the step waits for the slowest rank
    /// ([`crate::straggler`]). 0: off. Fitted on the step replay's public runs: the value of least mean
    /// |ln(predicted / measured step)| over all of them, on a 0.1% grid (`tests/src/calibration/steps/fold.rs`,
    /// which fits it again without each source to score that source out of source; `tests/tests/calibration.rs`
    /// holds the two equal). It stands for everything that grows with the rank count and the model does not
    /// have apart: GPUs of one model differ in speed (Sinha et al., SC'22, arXiv 2208.11035 v3: "8% (max 22%)
    /// average performance variation"), and NCCL's latency and jitter at scale.
    pub rank_variation: f64,
}

impl Terms {
    /// [`Terms::schedule`]'s identifier.
    pub const SCHEDULE: &'static str = "schedule";
    /// [`Terms::ring_ramp_in_time`]'s identifier.
    pub const RING_RAMP_IN_TIME: &'static str = "ring-ramp-in-time";
    /// [`Terms::framework_overlap`]'s identifier.
    pub const FRAMEWORK_OVERLAP: &'static str = "framework-overlap";
    /// [`Terms::interference`]'s identifier.
    pub const INTERFERENCE: &'static str = "interference";
    /// [`Terms::rank_variation`]'s identifier.
    pub const RANK_VARIATION: &'static str = "rank-variation";

    /// The model as shipped: every term on but the candidate.
    pub const SHIPPED: Terms = Terms {
        schedule: true,
        ring_ramp_in_time: true,
        framework_overlap: true,
        interference: 0.0,
        rank_variation: RANK_VARIATION,
    };

    /// The model before any shaped term.
    pub const NONE: Terms = Terms {
        schedule: false,
        ring_ramp_in_time: false,
        framework_overlap: false,
        interference: 0.0,
        rank_variation: 0.0,
    };

    /// These terms with the one named `id` off; `None` for an unknown identifier.
    pub fn without(self, id: &str) -> Option<Terms> {
        let mut t = self;
        match id {
            Terms::SCHEDULE => t.schedule = false,
            Terms::RING_RAMP_IN_TIME => t.ring_ramp_in_time = false,
            Terms::FRAMEWORK_OVERLAP => t.framework_overlap = false,
            Terms::INTERFERENCE => t.interference = 0.0,
            Terms::RANK_VARIATION => t.rank_variation = 0.0,
            _ => return None,
        }
        Some(t)
    }
}

impl Default for Terms {
    fn default() -> Terms {
        Terms::SHIPPED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_identifier_switches_its_own_term_off() {
        let all_on = Terms { interference: 0.189, ..Terms::SHIPPED };
        for id in TERM_IDS {
            let t = all_on.without(id).expect("a known identifier");
            assert_ne!(t, all_on, "{id}");
            assert_eq!(t.without(id), Some(t), "{id}: off stays off");
        }
        let all = TERM_IDS.iter().fold(all_on, |t, id| t.without(id).expect("known"));
        assert_eq!(all, Terms::NONE);
        assert_eq!(Terms::SHIPPED.without("no-such-term"), None);
    }
}
