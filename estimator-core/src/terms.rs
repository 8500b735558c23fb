//! The step model's terms that were shaped on public training runs, each of which can be switched to what the
//! model would be without it.
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
pub const TERM_IDS: [&str; 2] = [Terms::SCHEDULE, Terms::RING_RAMP_IN_TIME];

/// Which of the shaped terms the model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
}

impl Terms {
    /// [`Terms::schedule`]'s identifier.
    pub const SCHEDULE: &'static str = "schedule";
    /// [`Terms::ring_ramp_in_time`]'s identifier.
    pub const RING_RAMP_IN_TIME: &'static str = "ring-ramp-in-time";

    /// The model as shipped: every term on.
    pub const SHIPPED: Terms = Terms { schedule: true, ring_ramp_in_time: true };

    /// The model before any shaped term.
    pub const NONE: Terms = Terms { schedule: false, ring_ramp_in_time: false };

    /// These terms with the one named `id` off; `None` for an unknown identifier.
    pub fn without(self, id: &str) -> Option<Terms> {
        let mut t = self;
        match id {
            Terms::SCHEDULE => t.schedule = false,
            Terms::RING_RAMP_IN_TIME => t.ring_ramp_in_time = false,
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
        for id in TERM_IDS {
            let t = Terms::SHIPPED.without(id).expect("a known identifier");
            assert_ne!(t, Terms::SHIPPED, "{id}");
            assert_eq!(t.without(id), Some(t), "{id}: off stays off");
        }
        let all = TERM_IDS.iter().fold(Terms::SHIPPED, |t, id| t.without(id).expect("known"));
        assert_eq!(all, Terms::NONE);
        assert_eq!(Terms::SHIPPED.without("no-such-term"), None);
    }
}
