//! `probe-cli recipe [--report node.json | hardware flags] [--hosts FILE]`: the nccl-tests commands for this node's
//! fabric, ready to paste (estimator-core's `recipe`): a bash script in text, the parts in `--json`. Nothing is run.

use estimator_core::recipe::{self, Detected, Launcher, RecipeInput};
use estimator_core::report::Report;
use estimator_core::{Field, Scenario, ScenarioInput};
use serde::Serialize;

use crate::cli::{LauncherChoice, RecipeArgs};
use crate::files::{load_report, read_text};
use crate::outcome::{Failure, Outcome};
use crate::output::{print_json, print_text};
use crate::scenario::{apply_cluster, profiled, usage};

/// `recipe --json`.
#[derive(Serialize)]
struct RecipeDocument<'a> {
    #[serde(flatten)]
    recipe: &'a recipe::Recipe,
    /// The script the text output prints.
    script: &'a str,
    /// With `--profile`: what the profile changed in the sizing, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
}

/// Runs `recipe`.
pub fn recipe(a: &RecipeArgs) -> Result<Outcome, Failure> {
    let report: Option<Report> =
        match &a.report {
            Some(path) => {
                let (_, value) = load_report(path)?;
                Some(serde_json::from_value(value).map_err(|e| {
                    Failure::input(format!("{}: not a report the recipe can read: {e}", path.display()))
                })?)
            }
            None => None,
        };
    let detected = match &report {
        Some(r) => recipe::detect(r),
        None => from_flags(a)?,
    };
    let hosts = match &a.hosts {
        Some(path) => {
            let text = read_text(path).map_err(|e| Failure::input(format!("--hosts {}: {e}", path.display())))?;
            recipe::read_hosts(&text).map_err(|e| Failure::input(format!("--hosts {}: {e}", path.display())))?
        }
        None => Vec::new(),
    };
    let s = scenario(a, report.as_ref(), &detected)?;
    let (s, profile) = profiled(s, &a.cluster)?;
    let launchers = match a.launcher {
        LauncherChoice::Both => vec![Launcher::Mpirun, Launcher::Srun],
        LauncherChoice::Mpirun => vec![Launcher::Mpirun],
        LauncherChoice::Srun => vec![Launcher::Srun],
    };
    let r =
        recipe::recipe(&RecipeInput { detected, scenario: &s, hosts, nccl_version: a.nccl_version.clone(), launchers });
    let mut script = recipe::script(&r);
    if let Some(l) = &profile {
        // After the shebang: the runs are sized with the calibrated model.
        script = script.replacen('\n', &format!("\n# Sized with the profile: {l}.\n"), 1);
    }
    if a.cluster.json {
        print_json(&RecipeDocument { recipe: &r, script: &script, profile: profile.as_deref() })?;
    } else {
        print_text(&script)?;
    }
    Ok(Outcome::Clean)
}

/// Without a report: the fabric from `--fabric` (`Detected::of_fabric`).
fn from_flags(a: &RecipeArgs) -> Result<Detected, Failure> {
    if a.cluster.hardware.get(Field::Fabric).is_none() {
        return Err(Failure::Usage(
            "recipe writes the environment of a fabric: give --report node.json (probe-cli report --json on the \
             node), or --fabric (ib, roce, efa, tcpx, tcpxo, tcp)"
                .into(),
        ));
    }
    let mut input = ScenarioInput::default();
    a.cluster.hardware.apply(&mut input);
    Ok(Detected::of_fabric(input.fabric))
}

/// The node's hardware on two nodes, to size the runs.
fn scenario(a: &RecipeArgs, report: Option<&Report>, d: &Detected) -> Result<Scenario, Failure> {
    let c = &a.cluster;
    let summary = report.map(|r| &r.summary);
    let mut input = ScenarioInput::default();
    let network = summary.is_some_and(|s| s.fabric.to_fabric().is_some() && s.rdma_adapters + s.ethernet_ports > 0);
    if summary.is_none()
        && let Some(missing) = crate::scenario::missing_flags(&c.hardware, &[Field::AdaptersPerNode, Field::LinkGbps])
    {
        return Err(Failure::Usage(format!(
            "recipe sizes each run with the model: give {} (the adapters per node and their line rate), or \
                 --report node.json",
            missing
        )));
    }
    // A node without a network sizes its one-node runs only.
    let nodes = if summary.is_some() && !network { 1 } else { 2 };
    apply_cluster(&mut input, &c.hardware, nodes, summary)?;
    if report.is_some() {
        d.fill_hardware(&mut input);
    }
    input.nodes = if d.fabric.is_some() { 2 } else { nodes };
    input.measured_busbw_gbs = None;
    Scenario::new(input).map_err(|e| usage(&e))
}
