//! The nccl-tests command lines: one node, two nodes and the pairwise rounds, as `mpirun` (Open MPI) and `srun`
//! (Slurm) lines, with iterations sized from the model so that each run takes about a minute.

use serde::{Deserialize, Serialize};

use crate::collective::{Op, collective};
use crate::scenario::Scenario;
use crate::units::Bytes;

/// The collectives the recipe measures, with nccl-tests' binary for each.
pub const OPS: [Op; 4] = [Op::AllReduce, Op::AllGather, Op::ReduceScatter, Op::AllToAll];

/// nccl-tests' sweep: `-b 8 -e 8G -f 2` (8 bytes to 8 GiB, doubling), `-g 1` (one GPU per process, one process per
/// GPU: the multi-node form of nccl-tests' README).
pub const SWEEP: &str = "-b 8 -e 8G -f 2 -g 1";
const MIN_BYTES: f64 = 8.0;
const MAX_BYTES: f64 = 8.0 * 1024.0 * 1024.0 * 1024.0;

/// What one run should take: about a minute.
pub const TARGET_S: f64 = 60.0;
/// Warm-up iterations (`-w`): nccl-tests' default (see `recipe/env.rs` for the source).
pub const WARMUP_ITERS: u32 = super::env::NCCL_TESTS_DEFAULT_WARMUP;
/// Checked iterations per pass (`-c`): nccl-tests' default, its data check kept on.
pub const CHECK_ITERS: u32 = super::env::NCCL_TESTS_DEFAULT_CHECK;
/// Fewest timed iterations the recipe asks for, however slow the fabric (fewer is noise).
pub const MIN_ITERS: u32 = 5;
/// Most: a latency-bound fabric at 8 bytes would otherwise ask for millions.
pub const MAX_ITERS: u32 = 10_000;

/// Where a command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// One node: NVLink and PCIe only, the baseline the network is judged beside.
    OneNode,
    /// Two nodes: the fabric.
    TwoNodes,
    /// One pair of a pairwise round (`--hosts`).
    Pair,
}

/// The launcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Launcher {
    /// Open MPI's `mpirun`.
    Mpirun,
    /// Slurm's `srun`.
    Srun,
}

/// One command to paste.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestCommand {
    /// The collective.
    pub op: Op,
    /// Where it runs.
    pub scope: Scope,
    /// The launcher.
    pub launcher: Launcher,
    /// Timed iterations per size (`-n`).
    pub iters: u32,
    /// What the model expects the run to take, seconds (warm-up and both in-place and out-of-place passes; not
    /// the launch or the data check).
    pub expected_s: f64,
    /// The shell line.
    pub line: String,
}

/// The sizes of the sweep, bytes.
fn sizes() -> impl Iterator<Item = f64> {
    std::iter::successors(Some(MIN_BYTES), |b| Some(b * 2.0)).take_while(|b| *b <= MAX_BYTES)
}

/// Timed iterations so that the sweep takes about [`TARGET_S`] on `s`, and the time it then takes. nccl-tests warms
/// up `-w` times at the smallest and the largest size, then runs each size twice (out of place, in place), each
/// pass one untimed call, `-n` timed ones and `-c` checked ones (NVIDIA/nccl-tests `src/common.cu` @d2d40cc8,
/// `TimeTest` and `BenchTime`): T = w (t(b) + t(e)) + sum over sizes of 2 (1 + n + c) t(s).
pub fn iterations(s: &Scenario, op: Op) -> (u32, f64) {
    let t = |b: f64| collective(s, op, Bytes::new(b)).time_us / 1e6;
    let sweep: f64 = sizes().map(t).sum();
    if sweep <= 0.0 || !sweep.is_finite() {
        return (MIN_ITERS, 0.0);
    }
    let warm = f64::from(WARMUP_ITERS) * (t(MIN_BYTES) + t(MAX_BYTES));
    let fixed = 1.0 + f64::from(CHECK_ITERS);
    let n = ((TARGET_S - warm) / (2.0 * sweep) - fixed).floor();
    let n = if n.is_finite() { (n.max(0.0) as u32).clamp(MIN_ITERS, MAX_ITERS) } else { MIN_ITERS };
    (n, warm + 2.0 * (fixed + f64::from(n)) * sweep)
}

/// The pieces a command line is made of.
pub(super) struct Line<'a> {
    pub op: Op,
    pub gpus_per_node: u32,
    pub nodes: u32,
    /// The hosts, as shell words (`"$HOST_A"` or a checked name); unused for one node.
    pub hosts: [&'a str; 2],
    /// Whether to name them (`srun` in an allocation may leave the choice to Slurm).
    pub named: bool,
    /// Variables for `mpirun -x`.
    pub forward: &'a [String],
    /// Extra `mpirun` options the fabric needs.
    pub mpirun_extra: &'a str,
    pub iters: u32,
    /// Where the output goes (`> "$OUT/a_b.txt" &`), or nothing.
    pub redirect: &'a str,
}

impl Line<'_> {
    /// The line for `launcher`.
    pub fn render(&self, launcher: Launcher) -> String {
        match launcher {
            Launcher::Mpirun => self.mpirun(),
            Launcher::Srun => self.srun(),
        }
    }

    fn binary(&self) -> String {
        format!("\"$NCCL_TESTS/{}_perf\" {SWEEP} -n {} -w {WARMUP_ITERS}", self.op.name(), self.iters)
    }

    /// `mpirun -np N [-H a:g,b:g] EXTRA -x VAR ... BIN ...` (EXTRA: the fabric's binding and Open MPI options).
    fn mpirun(&self) -> String {
        let np = self.gpus_per_node * self.nodes;
        let hosts = if self.nodes > 1 {
            format!(" -H {}:{g},{}:{g}", self.hosts[0], self.hosts[1], g = self.gpus_per_node)
        } else if self.named && !self.hosts[0].starts_with('"') {
            // On the first host given, not on the machine the script runs on (a head node may have no GPU).
            format!(" -H {}:{}", self.hosts[0], self.gpus_per_node)
        } else {
            String::new()
        };
        let forward: String = self.forward.iter().map(|v| format!(" -x {v}")).collect();
        let extra = if self.mpirun_extra.is_empty() { String::new() } else { format!(" {}", self.mpirun_extra) };
        format!("mpirun -np {np}{hosts}{extra}{forward} {}{}", self.binary(), self.redirect)
    }

    /// `srun -N n [-w a,b] --ntasks-per-node=g --gpus-per-node=g --mpi=pmix BIN ...` (srun passes the environment).
    fn srun(&self) -> String {
        let hosts = if self.nodes > 1 && self.named {
            format!(" -w {},{}", self.hosts[0], self.hosts[1])
        } else {
            String::new()
        };
        format!(
            "srun -N {}{hosts} --ntasks-per-node={g} --gpus-per-node={g} --mpi=pmix {}{}",
            self.nodes,
            self.binary(),
            self.redirect,
            g = self.gpus_per_node
        )
    }
}

/// Pairwise rounds over `hosts`: round 1 pairs neighbours (1-2, 3-4, ...), round 2 shifts by one (2-3, 4-5, ...,
/// last-1), so every node meets two partners and a bad node shows in two slow pairs (what `pairs` confirms on).
/// With an odd count the two ends meet one partner each in those rounds, so a third round pairs them (last-1).
pub fn pair_rounds(hosts: &[String]) -> Vec<Vec<[String; 2]>> {
    let n = hosts.len();
    if n < 2 {
        return Vec::new();
    }
    if n == 2 {
        return vec![vec![[hosts[0].clone(), hosts[1].clone()]]];
    }
    let round = |start: usize| -> Vec<[String; 2]> {
        (0..n / 2).map(|k| [hosts[(start + 2 * k) % n].clone(), hosts[(start + 2 * k + 1) % n].clone()]).collect()
    };
    let mut rounds = vec![round(0), round(1)];
    if n % 2 == 1 {
        rounds.push(vec![[hosts[n - 1].clone(), hosts[0].clone()]]);
    }
    rounds
}

/// The longest host list `--hosts` takes.
pub const MAX_HOSTS: usize = 4096;

/// Reads a host list: one name a line, `#` comments and blank lines skipped, names as DNS spells them (letters,
/// digits, `-`, `.`, and `_` is refused, since `pairs` reads `hostA_hostB.txt`). Errors name the line.
pub fn read_hosts(text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // A line may be a hostfile's `node01 slots=8`: the name is its first word.
        let name = line.split_whitespace().next().unwrap_or(line);
        let ok = name.len() <= 253
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            && !name.starts_with(['-', '.']);
        if !ok {
            let shown: String = name.chars().take(60).collect();
            return Err(format!(
                "line {}: '{shown}' is not a host name (letters, digits, '-' and '.'; '_' is what pairs splits \
                 hostA_hostB.txt on)",
                i + 1
            ));
        }
        if out.iter().any(|h| h == name) {
            return Err(format!("line {}: {name} is listed twice", i + 1));
        }
        if out.len() == MAX_HOSTS {
            return Err(format!("line {}: more than {MAX_HOSTS} hosts", i + 1));
        }
        out.push(name.to_string());
    }
    if out.len() < 2 {
        return Err(format!("{} host(s): a pairwise round needs at least two", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioInput;

    #[test]
    fn iterations_fill_about_a_minute_and_stay_in_bounds() {
        let fast = Scenario::new(ScenarioInput::default()).expect("valid");
        let (n, t) = iterations(&fast, Op::AllReduce);
        assert!((MIN_ITERS..=MAX_ITERS).contains(&n));
        assert!((30.0..=TARGET_S).contains(&t), "{n} iterations take {t} s");
        // 25 Gb/s sockets: 8 GiB alone takes seconds, so the floor applies and the time says so.
        let slow = Scenario::new(ScenarioInput {
            link_gbps: 25.0,
            adapters_per_node: 1,
            fabric: crate::Fabric::Tcp,
            ..ScenarioInput::default()
        })
        .expect("valid");
        let (n, t) = iterations(&slow, Op::AllReduce);
        assert_eq!(n, MIN_ITERS);
        assert!(t > TARGET_S, "{t}");
    }

    #[test]
    fn rounds_give_every_node_two_partners() {
        let hosts: Vec<String> = (1..=6).map(|i| format!("n{i}")).collect();
        let r = pair_rounds(&hosts);
        assert_eq!(r.len(), 2);
        let names = |r: &[[String; 2]]| r.iter().map(|p| format!("{}-{}", p[0], p[1])).collect::<Vec<_>>().join(" ");
        assert_eq!(names(&r[0]), "n1-n2 n3-n4 n5-n6");
        assert_eq!(names(&r[1]), "n2-n3 n4-n5 n6-n1");
        let odd: Vec<String> = (1..=5).map(|i| format!("n{i}")).collect();
        let r = pair_rounds(&odd);
        assert_eq!(r.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 2, 1]);
        for h in &odd {
            let met = r.iter().flatten().filter(|p| p.contains(h)).count();
            assert!(met >= 2, "{h} meets {met}");
        }
    }

    #[test]
    fn host_lists_are_checked_line_by_line() {
        assert_eq!(read_hosts("# nodes\nnode01 slots=8\n\nnode02\n"), Ok(vec!["node01".into(), "node02".into()]));
        assert!(read_hosts("a\nb;rm -rf /\n").expect_err("shell").starts_with("line 2:"));
        assert!(read_hosts("a\nnode_1\n").expect_err("underscore").contains("'_'"));
        assert!(read_hosts("a\na\n").expect_err("twice").contains("twice"));
        assert!(read_hosts("a\n").expect_err("one").contains("at least two"));
        assert!(read_hosts("a\n$(x)\n").is_err());
    }
}
