//! The test to run: the nccl-tests commands that answer "is this fabric what I rented?" on the node's own fabric,
//! ready to paste. One node (the NVLink/PCIe baseline), two nodes (the fabric), and pairwise rounds over a host
//! list (for `pairs`), for all_reduce, all_gather, reduce_scatter and alltoall, as `mpirun` and `srun` lines, with
//! the environment the fabric needs, each variable with why and its source ([`mod@env`]), the fabric read from the
//! node's report ([`mod@detect`]), and iterations sized by the model so that a run takes about a minute
//! ([`commands`]). [`script`] writes it all as one bash script; nothing is run here.

pub mod commands;
pub mod detect;
pub mod env;

use serde::{Deserialize, Serialize};

pub use commands::{Launcher, Scope, TestCommand, pair_rounds, read_hosts};
pub use detect::{Detected, RecipeFabric, apply_interfaces, detect};
pub use env::{EnvVar, SetupLine, parse_version};

use crate::collective::Op;
use crate::scenario::Scenario;

/// What the recipe is written for.
#[derive(Clone, Debug)]
pub struct RecipeInput<'a> {
    /// The node's fabric and names.
    pub detected: Detected,
    /// The node's hardware (GPUs per node, adapters, fabric); the recipe sets the node count.
    pub scenario: &'a Scenario,
    /// Hosts for the two-node runs (the first two) and the pairwise rounds; empty: `$HOST_A` and `$HOST_B`.
    pub hosts: Vec<String>,
    /// The NCCL version the runs will use, when the user says (else the node's environment's).
    pub nccl_version: Option<String>,
    /// The launchers to write lines for.
    pub launchers: Vec<Launcher>,
}

/// The recipe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Recipe {
    /// The fabric the environment is for; `null` when the node has none (one-node runs only).
    pub fabric: Option<RecipeFabric>,
    /// What was read from the node.
    pub detected: Detected,
    /// The NCCL version the environment assumes (`null`: unknown, so it holds for old and new).
    pub nccl_version: Option<String>,
    /// GPUs per node (`-np` and `--ntasks-per-node`).
    pub gpus_per_node: u32,
    /// Lines to run first.
    pub setup: Vec<SetupLine>,
    /// The environment, each variable with why and its source.
    pub env: Vec<EnvVar>,
    /// The commands.
    pub commands: Vec<TestCommand>,
    /// The pairwise rounds over the hosts given (each round's pairs run at once).
    pub pair_rounds: Vec<Vec<[String; 2]>>,
    /// What else to know, one sentence each.
    pub notes: Vec<String>,
}

/// Writes the recipe.
pub fn recipe(input: &RecipeInput<'_>) -> Recipe {
    let d = &input.detected;
    let version_text = input.nccl_version.clone().or_else(|| d.nccl_version.clone());
    let version = version_text.as_deref().and_then(parse_version);
    let fe = env::fabric_env(d, version);
    let forward: Vec<String> = fe.vars.iter().map(|v| v.name.clone()).collect();
    let g = input.scenario.gpus_per_node().max(1);
    let one = input.scenario.with(|i| i.nodes = 1).ok();
    let two = input.scenario.with(|i| i.nodes = 2).ok();
    let named = input.hosts.len() >= 2;
    let (a, b) =
        if named { (input.hosts[0].as_str(), input.hosts[1].as_str()) } else { ("\"$HOST_A\"", "\"$HOST_B\"") };
    let mut commands = Vec::new();
    let rounds = if d.fabric.is_some() && named { pair_rounds(&input.hosts) } else { Vec::new() };
    for &launcher in &input.launchers {
        for (scope, s) in [(Scope::OneNode, one.as_ref()), (Scope::TwoNodes, two.as_ref())] {
            let Some(s) = s else { continue };
            if scope == Scope::TwoNodes && d.fabric.is_none() {
                continue;
            }
            for op in commands::OPS {
                let (iters, expected_s) = commands::iterations(s, op);
                let nodes = if scope == Scope::OneNode { 1 } else { 2 };
                let file = format!(" 2>&1 | tee {}_{}.txt", scope_file(scope), op.name());
                let line = commands::Line {
                    op,
                    gpus_per_node: g,
                    nodes,
                    hosts: [a, b],
                    named: named || (launcher == Launcher::Mpirun && scope == Scope::TwoNodes),
                    forward: &forward,
                    mpirun_extra: fe.mpirun_extra,
                    iters,
                    redirect: &file,
                };
                commands.push(TestCommand { op, scope, launcher, iters, expected_s, line: line.render(launcher) });
            }
        }
        if let Some(s) = two.as_ref() {
            let (iters, expected_s) = commands::iterations(s, Op::AllReduce);
            for pair in rounds.iter().flatten() {
                let file = format!(" > pairs/{}_{}.txt 2>&1 &", pair[0], pair[1]);
                let line = commands::Line {
                    op: Op::AllReduce,
                    gpus_per_node: g,
                    nodes: 2,
                    hosts: [&pair[0], &pair[1]],
                    named: true,
                    forward: &forward,
                    mpirun_extra: fe.mpirun_extra,
                    iters,
                    redirect: &file,
                };
                commands.push(TestCommand {
                    op: Op::AllReduce,
                    scope: Scope::Pair,
                    launcher,
                    iters,
                    expected_s,
                    line: line.render(launcher),
                });
            }
        }
    }
    let mut notes = fe.notes;
    if d.fabric.is_none() {
        notes.push("This node has no network for a multi-node job: only the one-node runs are written.".into());
    }
    if version.is_none() {
        notes.push(
            "The NCCL version is unknown (give --nccl-version, or run in the container whose NCCL_VERSION the probe \
             reads): the environment holds for old and new releases."
                .into(),
        );
    }
    Recipe {
        fabric: d.fabric,
        detected: d.clone(),
        nccl_version: version_text,
        gpus_per_node: g,
        setup: fe.setup,
        env: fe.vars,
        commands,
        pair_rounds: rounds,
        notes,
    }
}

fn scope_file(scope: Scope) -> &'static str {
    match scope {
        Scope::OneNode => "one-node",
        Scope::TwoNodes => "two-nodes",
        Scope::Pair => "pair",
    }
}

/// A value as one shell word: single-quoted, with `$LD_LIBRARY_PATH` (the one expansion the environment uses) left
/// to the shell.
pub fn shell_word(value: &str) -> String {
    const KEEP: &str = "$LD_LIBRARY_PATH";
    let quote = |s: &str| if s.is_empty() { String::new() } else { format!("'{}'", s.replace('\'', "'\\''")) };
    let parts: Vec<String> = value.split(KEEP).map(quote).collect();
    let word = parts.join(&format!("\"{KEEP}\""));
    if word.is_empty() { "''".to_string() } else { word }
}

/// The recipe as one bash script: comments say what each part is, why each variable and where it comes from.
pub fn script(r: &Recipe) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let fabric = r.fabric.map_or("no multi-node fabric", RecipeFabric::name);
    let _ = writeln!(t, "#!/usr/bin/env bash");
    let _ = writeln!(t, "# nccl-tests for this node's fabric ({fabric}), written by probe-cli recipe.");
    for e in &r.detected.evidence {
        let _ = writeln!(t, "# Read from the node: {}.", comment(e));
    }
    let _ = writeln!(
        t,
        "# Each run sweeps {} (8 B to 8 GiB, one process per GPU); -n is sized by the model so that a run takes about \
         a minute.",
        commands::SWEEP
    );
    let _ = writeln!(t, "# Needs nccl-tests built with MPI (make MPI=1 MPI_HOME=...) in $NCCL_TESTS.");
    let _ = writeln!(t, "NCCL_TESTS=${{NCCL_TESTS:-./build}}");
    if !r.setup.is_empty() || !r.env.is_empty() {
        let _ = writeln!(t, "\n# ---- Environment ----");
    }
    for s in &r.setup {
        let _ = writeln!(t, "# {} ({})", comment(&s.why), comment(&s.source));
        let _ = writeln!(t, "{}", s.line);
    }
    for v in &r.env {
        let _ = writeln!(t, "# {} ({})", comment(&v.why), comment(&v.source));
        let _ = writeln!(t, "export {}={}", v.name, shell_word(&v.value));
    }
    for n in &r.notes {
        let _ = writeln!(t, "# Note: {}", comment(n));
    }
    let launchers: Vec<Launcher> = {
        let mut l: Vec<Launcher> = r.commands.iter().map(|c| c.launcher).collect();
        l.dedup();
        l
    };
    if launchers.len() > 1 {
        let _ = writeln!(t, "\n# Below: the same runs with Open MPI, then with Slurm. Run one set, not both.");
    }
    for launcher in launchers {
        let by = match launcher {
            Launcher::Mpirun => "Open MPI (mpirun)",
            Launcher::Srun => "Slurm (srun, inside an allocation of the nodes)",
        };
        for scope in [Scope::OneNode, Scope::TwoNodes] {
            let mut cmds = r.commands.iter().filter(|c| c.launcher == launcher && c.scope == scope).peekable();
            if cmds.peek().is_none() {
                continue;
            }
            let what = match scope {
                Scope::OneNode => "One node: NVLink/PCIe only, the baseline the network is judged beside",
                _ => "Two nodes: the fabric",
            };
            let _ = writeln!(t, "\n# ---- {what}, {by} ----");
            if scope == Scope::TwoNodes
                && r.pair_rounds.is_empty()
                && cmds.peek().is_some_and(|c| c.line.contains("$HOST_A"))
            {
                let _ =
                    writeln!(t, ": \"${{HOST_A:?set HOST_A and HOST_B to two nodes}}\" \"${{HOST_B:?set HOST_B}}\"");
            }
            for c in cmds {
                let _ = writeln!(t, "# {}: about {} s by the model, -n {}", c.op.name(), c.expected_s.round(), c.iters);
                let _ = writeln!(t, "{}", c.line);
            }
        }
        let pairs: Vec<&TestCommand> =
            r.commands.iter().filter(|c| c.launcher == launcher && c.scope == Scope::Pair).collect();
        if !pairs.is_empty() {
            let hosts = r.pair_rounds.iter().flatten().flatten().collect::<std::collections::BTreeSet<_>>().len();
            let _ = writeln!(
                t,
                "\n# ---- Pairwise rounds, {by}: all_reduce on every pair of a round at once (about {} s a round), one \
                 output per pair for probe-cli pairs ----",
                pairs[0].expected_s.round()
            );
            let _ = writeln!(t, "mkdir -p pairs");
            let mut k = 0;
            for (i, round) in r.pair_rounds.iter().enumerate() {
                let _ = writeln!(t, "# Round {} of {}: {} pairs", i + 1, r.pair_rounds.len(), round.len());
                for c in pairs.iter().skip(k).take(round.len()) {
                    let _ = writeln!(t, "{}", c.line);
                }
                k += round.len();
                let _ = writeln!(t, "wait");
            }
            let _ = writeln!(
                t,
                "# Then name the bad node from the {hosts} nodes' pairs: probe-cli pairs --report node.json pairs/"
            );
        }
    }
    let _ = writeln!(
        t,
        "\n# Judge each output against the model: probe-cli health --report node.json two-nodes_all_reduce.txt"
    );
    t
}

/// Text for a comment line: one line, no control characters.
fn comment(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

#[cfg(test)]
mod tests;
