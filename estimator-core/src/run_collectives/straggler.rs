//! The rank the others wait for, from several ranks' records of the same calls. A collective ends on every rank at
//! about the same time (none can finish before the last one's data arrives), so the rank that starts it last has the
//! shortest kernel, and every other rank's kernel includes its wait for that one: a call's wait on a rank is its
//! duration less the shortest duration of the same call on any rank. Durations only: the ranks' clocks (different
//! hosts, often skewed by more than a collective lasts) are never compared.
//!
//! A call is the same on every rank when it has the same communicator, collective and number on each rank
//! ([`super::Call::seq`]: the Inspector's `coll_sn`, or its place among its communicator's calls in a trace).

use std::collections::HashMap;

use serde::Serialize;

use super::Calls;

/// Fewest calls recorded on two ranks or more before a straggler is named.
pub const MIN_MATCHED: usize = 10;
/// A rank is the straggler when it is the fastest (the one waited for) in at least this share of the matched calls
/// with three ranks or more; with two, in [`TWO_RANK_SHARE`]: one rank in two is fastest half the time by chance.
pub const SHARE: f64 = 0.5;
/// With two ranks.
pub const TWO_RANK_SHARE: f64 = 0.8;
/// ... and the others' wait for it is at least this share of their time in those calls: a rank fastest by a
/// hair is no straggler.
pub const MIN_WAIT_SHARE: f64 = 0.10;

/// The rank the others wait for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Straggler {
    /// Its global rank (for the Inspector, its process's index in [`Calls::recorders`]).
    pub rank: u32,
    /// Who it is: `rank 16`, or the Inspector's `host pid N`.
    pub who: String,
    /// Of the matched calls, the share in which it was the fastest (the others waited for it).
    pub share: f64,
    /// Calls recorded on two ranks or more.
    pub matched_calls: usize,
    /// Ranks whose records were matched.
    pub ranks: usize,
    /// What the others wait for it, per rank, over the calls it was fastest in: the sum over those calls of the
    /// others' mean duration less its own, seconds.
    pub others_wait_s: f64,
    /// That wait as a share of the others' time in those calls.
    pub wait_share: f64,
    /// The finding in a sentence.
    pub text: String,
}

/// Matched calls and the straggler: `Err(matched)` when there are too few ranks or matched calls to say, `Ok(None)`
/// when no rank stands out.
pub fn read(calls: &Calls) -> Result<Option<Straggler>, usize> {
    if calls.ranks.len() < 2 {
        return Err(0);
    }
    // (comm, collective, seq) -> durations by rank: the Inspector numbers each collective type on its own.
    let mut by: HashMap<(u32, crate::op::Op, u64), Vec<(u32, f64)>> = HashMap::new();
    for c in &calls.calls {
        if let Some(r) = c.rank {
            by.entry((c.comm, c.op, c.seq)).or_default().push((r, c.duration_us));
        }
    }
    let mut fastest: HashMap<u32, (usize, f64, f64)> = HashMap::new();
    let mut matched = 0;
    let mut ranks_seen = std::collections::BTreeSet::new();
    for v in by.values_mut() {
        // One entry per rank (its shortest): the same file given twice, or a process recording several ranks of
        // one communicator, is not a second rank.
        v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        v.dedup_by_key(|x| x.0);
        if v.len() < 2 {
            continue;
        }
        matched += 1;
        let (r, min) = v.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1)).expect("two or more");
        let others: Vec<f64> = v.iter().filter(|x| x.0 != r).map(|x| x.1).collect();
        let mean = others.iter().sum::<f64>() / others.len() as f64;
        let e = fastest.entry(r).or_insert((0, 0.0, 0.0));
        e.0 += 1;
        e.1 += mean - min;
        e.2 += mean;
        for x in v {
            ranks_seen.insert(x.0);
        }
    }
    if matched < MIN_MATCHED {
        return Err(matched);
    }
    let (&rank, &(n, wait_us, time_us)) =
        fastest.iter().max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.0.cmp(a.0))).expect("matched calls");
    let share = n as f64 / matched as f64;
    let need = if ranks_seen.len() <= 2 { TWO_RANK_SHARE } else { SHARE };
    let wait_share = if time_us > 0.0 { wait_us / time_us } else { 0.0 };
    if share < need || wait_share < MIN_WAIT_SHARE {
        return Ok(None);
    }
    use crate::human::{pct, secs};
    let who = calls.who(rank);
    let wait_s = wait_us * 1e-6;
    let text = format!(
        "{who} is the straggler: the others wait for it in {} of {} calls matched over {} {} (its kernels are the \
         shortest there, theirs include the wait), {} per {} in all, {} of their time in those calls",
        n,
        matched,
        ranks_seen.len(),
        calls.recorder_word(true),
        secs(crate::units::Seconds::new(wait_s)),
        calls.recorder_word(false),
        pct(wait_share)
    );
    Ok(Some(Straggler {
        rank,
        who,
        share,
        matched_calls: matched,
        ranks: ranks_seen.len(),
        others_wait_s: wait_s,
        wait_share,
        text,
    }))
}
