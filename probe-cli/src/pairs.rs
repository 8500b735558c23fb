//! `probe-cli pairs DIR|RUN...`: many two-node nccl-tests runs judged against the model (estimator-core's `pairs`):
//! which pairs are slow, the nodes they point to, and the next round of pairs that would tell the rest apart.
//! Files are read on every core; one that is not a two-node nccl-tests run is named and left out, never fatal.
//! Suspects, unexplained slow pairs and files left out are findings (exit 1).

use std::fmt::Write as _;
use std::path::Path;

use estimator_core::import::{Imported, NcclTestsRun, nccl_tests};
use estimator_core::pairs::{self, HostsFrom, PairInput, Pairs, Reference, Refused};
use estimator_core::report::Summary;
use estimator_core::{Bytes, Field, Scenario, ScenarioInput, human};
use serde::Serialize;

use crate::cli::{PairsArgs, RunChoice};
use crate::files::{load_report, read_text};
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};
use crate::scenario::{apply_cluster, profiled, usage};

/// `pairs --json`.
#[derive(Serialize)]
struct PairsDocument<'a> {
    #[serde(flatten)]
    pairs: &'a Pairs,
    /// Files not judged, and why.
    refused: &'a [Refused],
    /// The hardware each pair was judged against (two nodes of it).
    input: &'a ScenarioInput,
    /// With `--profile`: what the profile changed, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// One file's run, its hosts and where they came from, or why not.
fn read_pair(path: &Path, run: Option<RunChoice>) -> Result<(NcclTestsRun, [String; 2], HostsFrom), String> {
    let text = read_text(path)?;
    let first = match estimator_core::import::import(&text) {
        Some(Imported::NcclTests(r)) => r,
        Some(other) => return Err(format!("a {} output, not nccl-tests", other.kind().name())),
        None => return Err("not an nccl-tests output".to_string()),
    };
    let chosen = if first.runs_in_file > 1 || run.is_some() {
        let mut runs = nccl_tests::parse_runs(&text);
        let n = runs.len();
        let at = match run {
            Some(RunChoice::Last) => n.checked_sub(1),
            Some(RunChoice::Number(k)) => usize::try_from(k).ok().and_then(|k| k.checked_sub(1)).filter(|i| *i < n),
            None => return Err(format!("{n} runs in this file: pass --run K (1 to {n}) or --run last")),
        };
        let at = at.ok_or_else(|| format!("has {n} run(s); --run names none of them"))?;
        runs.swap_remove(at)
    } else {
        first
    };
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let (hosts, from) = pairs::hosts(&name, &chosen)?;
    Ok((chosen, hosts, from))
}

/// Runs `pairs`.
pub fn pairs(a: &PairsArgs) -> Result<Outcome, Failure> {
    let summary: Option<Summary> = match &a.report {
        Some(path) => Some(load_report(path)?.0.summary),
        None => None,
    };
    let files = crate::files::list(&a.paths, |_| true, pairs::MAX_PAIRS)?;
    let mut refused = Vec::new();
    let mut read = Vec::new();
    for (path, r) in crate::files::read_parallel(&files, |f| read_pair(f, a.run)) {
        match r {
            Ok(x) => read.push((path.display().to_string(), x)),
            Err(reason) => refused.push(Refused { file: path.display().to_string(), reason }),
        }
    }
    if read.is_empty() {
        let why: String = refused.iter().take(5).map(|r| format!("\n  {}: {}", r.file, r.reason)).collect();
        return Err(Failure::input(format!("no two-node nccl-tests run among the {} file(s) given{why}", files.len())));
    }
    let s = scenario(a, summary.as_ref(), &read)?;
    let (s, profile) = profiled(s, &a.cluster)?;
    let inputs: Vec<PairInput<'_>> = read
        .iter()
        .map(|(file, (run, hosts, from))| PairInput {
            file: file.clone(),
            hosts: hosts.clone(),
            hosts_from: *from,
            run,
        })
        .collect();
    let (p, more) = pairs::judge(&s, &inputs);
    refused.extend(more);
    if a.cluster.json {
        print_json(&PairsDocument { pairs: &p, refused: &refused, input: s.input(), profile: profile.as_deref() })?;
    } else {
        let line = profile.map_or(String::new(), |l| format!("Profile: {l}.\n"));
        print_text(&format!("{line}{}", text(&p, &refused, &s)))?;
    }
    // A fabric below the model as a whole is a finding too, whatever the pairs say of one another.
    let findings = !p.suspects.is_empty()
        || !p.unexplained.is_empty()
        || !refused.is_empty()
        || p.reference == Reference::MedianPair;
    Ok(if findings { Outcome::Findings } else { Outcome::Clean })
}

/// Two nodes of the hardware given (flags or report). GPUs per node, when neither says, is half the ranks most runs
/// have.
fn scenario(a: &PairsArgs, summary: Option<&Summary>, read: &[(String, ReadPair)]) -> Result<Scenario, Failure> {
    let c = &a.cluster;
    if summary.is_none()
        && let Some(missing) = crate::scenario::missing_flags(&c.hardware, &[Field::AdaptersPerNode, Field::LinkGbps])
    {
        return Err(Failure::Usage(format!(
            "pairs judges two-node runs against the model: give {} (the adapters per node and their line \
                 rate), or --report node.json",
            missing
        )));
    }
    let mut input = ScenarioInput::default();
    apply_cluster(&mut input, &c.hardware, 2, summary)?;
    input.nodes = 2;
    input.measured_busbw_gbs = None;
    if summary.is_none() && c.hardware.get(Field::GpusPerNode).is_none() {
        let mut counts = std::collections::BTreeMap::<u32, usize>::new();
        for (_, (run, _, _)) in read {
            if let Some(r) = run.ranks.filter(|r| *r >= 2 && r % 2 == 0) {
                *counts.entry(r / 2).or_default() += 1;
            }
        }
        if let Some((g, _)) = counts.iter().max_by_key(|(_, n)| **n) {
            input.gpus_per_node = i64::from(*g);
        }
    }
    Scenario::new(input).map_err(|e| usage(&e))
}

type ReadPair = (NcclTestsRun, [String; 2], HostsFrom);

/// The round in words: the hardware, each slow pair, the suspects, the next round.
fn text(p: &Pairs, refused: &[Refused], s: &Scenario) -> String {
    let mut t = String::new();
    let i = s.input();
    let _ = writeln!(
        t,
        "{} two-node runs judged against 2 x {} {}, {} x {} Gb/s {} per node.",
        p.pairs.len(),
        i.gpus_per_node,
        s.gpu().name,
        i.adapters_per_node,
        human::num(i.link_gbps, 3),
        i.fabric.name()
    );
    let against = match p.reference {
        Reference::Model => "the model",
        Reference::MedianPair => "the fabric's level",
    };
    let slow: Vec<_> = p.pairs.iter().filter(|x| x.slow).collect();
    if !slow.is_empty() {
        let _ = writeln!(
            t,
            "\nSlow pairs (bus bandwidth per GPU as nccl-tests reports it; share of {against}, to the nearer end of \
             the model's range):"
        );
        for x in &slow {
            // The model's range where NCCL may run two ways; the share is taken to its nearer end.
            let model = match x.expected_ring_busbw_gbs {
                Some(r) if (r - x.expected_busbw_gbs).abs() > 0.05 => {
                    let (lo, hi) = (r.min(x.expected_busbw_gbs), r.max(x.expected_busbw_gbs));
                    format!("{} to {}", human::num(lo, 1), human::num(hi, 1))
                }
                _ => human::num(x.expected_busbw_gbs, 1),
            };
            let _ = writeln!(
                t,
                "  {} + {}  {} GB/s at {} (model {model} GB/s)  {}  {}",
                x.hosts[0],
                x.hosts[1],
                human::num(x.busbw_gbs, 1),
                human::binary(Bytes::new(x.size_bytes)),
                human::pct(x.ratio),
                x.file
            );
        }
    }
    let fast = p.pairs.len() - slow.len();
    if fast > 0 {
        let shares: Vec<f64> = p.pairs.iter().filter(|x| !x.slow).map(|x| x.ratio).collect();
        let lo = shares.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = shares.iter().copied().fold(0.0, f64::max);
        let _ = writeln!(t, "\n{fast} pairs as expected: {} to {} of {against}.", human::pct(lo), human::pct(hi));
    }
    if p.suspects.is_empty() {
        let _ = writeln!(t, "\nSuspects: none.");
    } else {
        let _ = writeln!(t, "\nSuspects:");
        for x in &p.suspects {
            let _ = writeln!(t, "  {}  {}: {}", x.node, x.certainty.name(), x.why);
        }
    }
    if !p.next_round.is_empty() {
        let _ = writeln!(t, "\nNext round (no node twice: run them at once):");
        for x in &p.next_round {
            let _ = writeln!(t, "  {} + {}  ({})", x.hosts[0], x.hosts[1], x.why);
        }
    }
    for f in &p.findings {
        let _ = writeln!(t, "\n{f}");
    }
    if !refused.is_empty() {
        let _ = writeln!(t, "\nLeft out:");
        for r in refused {
            let _ = writeln!(t, "  {}: {}", r.file, r.reason);
        }
    }
    t
}
