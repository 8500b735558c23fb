//! Flags to the model's input and back: the hardware flags every model command shares (`ClusterArgs`, or a
//! report's summary with `--report`) into a `ScenarioInput`, and a model error into the flag that set the value.
//! `estimate step`, `estimate allreduce`, `health` and `check-run` all fill their hardware through
//! [`apply_cluster`]; `estimate step` and `check-run` their job through [`job_input`].

use std::path::PathBuf;

use estimator_core::calibrate::Profile;
use estimator_core::report::Summary;
use estimator_core::scenario::inputs;
use estimator_core::{ComputeInput, Field, Scenario, ScenarioError, ScenarioInput};

use crate::cli::{ClusterArgs, JobArgs, NodesArgs};
use crate::files::{load_report, read_text};
use crate::flags::HardwareFlags;
use crate::outcome::Failure;

/// A job's input from its flags, and what came with `--report`.
pub struct JobInput {
    /// The model's input.
    pub input: ScenarioInput,
    /// What the scenario took from the report, one line each (empty without `--report`).
    pub taken: Vec<String>,
    /// The report's path and its JSON, with `--report` (its attachments are evidence for `check-run`).
    pub report: Option<(PathBuf, serde_json::Value)>,
    /// The report's summary.
    pub summary: Option<Summary>,
}

/// The job flags (`JobArgs`) and a compute into a `ScenarioInput`, on the default hardware (`plan` replaces it
/// with each offer's). Without `--sync` the layout is DDP, the one a run is judged in or a choice starts from
/// (`estimate step` and `plan` choose when it is not given: `choose_sync`).
pub fn job_template(j: &JobArgs, compute: ComputeInput) -> ScenarioInput {
    let mut input = ScenarioInput { compute, sync: estimator_core::SyncStrategy::Ddp, ..ScenarioInput::default() };
    j.apply(&mut input);
    input
}

/// The job flags (`JobArgs`) and a compute into a `ScenarioInput`, on its nodes (`NodesArgs`): the hardware from
/// the flags or `--report`.
pub fn job_input(j: &JobArgs, on: &NodesArgs, compute: ComputeInput) -> Result<JobInput, Failure> {
    let mut input = job_template(j, compute);
    let report = on.report.as_deref().map(|p| load_report(p).map(|(head, value)| (p.to_path_buf(), head, value)));
    let report = report.transpose()?;
    let summary = report.as_ref().map(|(_, head, _)| head.summary.clone());
    let mut taken = apply_cluster(&mut input, &on.cluster.hardware, on.nodes, summary.as_ref())?;
    if let Some((_, _, value)) = &report {
        // What only the report's interfaces say (GCP's TCPX/TCPXO), as `recipe` and the page read it.
        if let Ok(full) = serde_json::from_value::<estimator_core::report::Report>(value.clone()) {
            estimator_core::recipe::apply_interfaces(&full, &mut input, &mut taken);
        }
        taken.extend(assumed_fixed(value));
    }
    Ok(JobInput { input, taken, report: report.map(|(p, _, v)| (p, v)), summary })
}

/// The report's failed and warned readiness checks that the scenario does not carry, one line each: the estimate
/// models the node as if each were fixed, and says so. GPUDirect RDMA's support, the active ports and their rate
/// are in the summary (and the `network` and `rdma-ports` checks that say them), so the scenario has them; an environment variable, a narrow PCIe link, the IOMMU or a
/// locked-memory limit it does not.
fn assumed_fixed(report: &serde_json::Value) -> Vec<String> {
    let Some(checks) = report.get("readiness").and_then(serde_json::Value::as_array) else { return Vec::new() };
    checks
        .iter()
        .filter_map(|c| {
            let id = c.get("id")?.as_str()?;
            let status = c.get("status")?.as_str()?;
            let saw = c.get("saw")?.as_str().unwrap_or("");
            // GPUDirect RDMA, the network and its active ports are in the summary: the scenario carries them.
            (matches!(status, "fail" | "warn") && !matches!(id, "gdr" | "network" | "rdma-ports"))
                .then(|| format!("assumed fixed: {id} ({status}: {saw}); the estimate is for the node without it"))
        })
        .collect()
}

/// The flag that sets a model field: a scenario input's from the core's table of inputs, the run check's and
/// the plan's own otherwise.
pub fn flag(field: Field) -> String {
    if let Some(i) = inputs::input(field) {
        // The compute's kind has no flag of its own: which flag is given chooses it.
        return format!("--{}", i.flag.get().unwrap_or("compute-ms"));
    }
    match field {
        Field::Bytes => "--bytes",
        Field::MeasuredStepS => "--measured-step-s",
        Field::MeasuredTokensPerS => "--measured-tokens-per-s",
        Field::MeasuredSamplesPerS => "--measured-samples-per-s",
        Field::SamplesPerStep => "--samples-per-step",
        Field::Tokens => "--tokens",
        Field::DeadlineS => "--deadline",
        Field::MaxNodes => "--max-nodes",
        Field::Price => "--price",
        Field::Offer => "--only",
        // Every other field is a scenario input (a test holds each to a flag clap knows).
        _ => "",
    }
    .to_string()
}

/// A value the model rejects, as a usage error naming its flag.
pub fn usage(e: &ScenarioError) -> Failure {
    Failure::Usage(format!("{}: {}", flag(e.field), e.reason))
}

/// The flags of `fields` not given, in words (`--adapters and --link-gbps`); `None` when all were.
pub fn missing_flags(flags: &HardwareFlags, fields: &[Field]) -> Option<String> {
    let mut missing: Vec<String> = fields.iter().filter(|f| flags.get(**f).is_none()).map(|f| flag(*f)).collect();
    let last = missing.pop()?;
    Some(if missing.is_empty() { last } else { format!("{} and {last}", missing.join(", ")) })
}

/// Reads a profile (`calibrate --out`): its version first, then the document, then its values. Errors name the file.
/// The profile lives as long as the process: a scenario holds it by reference, and a second call for the same file
/// (a command that applies it and reads its floors) gets the one read first.
pub fn load_profile(path: &std::path::Path) -> Result<&'static Profile, Failure> {
    static READ: std::sync::OnceLock<(PathBuf, &'static Profile)> = std::sync::OnceLock::new();
    if let Some((p, profile)) = READ.get()
        && p == path
    {
        return Ok(profile);
    }
    let at = |e: String| Failure::input(format!("--profile {}: {e}", path.display()));
    let text = read_text(path).map_err(at)?;
    if text.len() > estimator_core::calibrate::MAX_PROFILE_BYTES {
        return Err(at("larger than a profile can be".into()));
    }
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| at(format!("not JSON: {e}")))?;
    Profile::check_version(v.get("schema_version").and_then(serde_json::Value::as_u64)).map_err(at)?;
    let p: Profile = serde_json::from_value(v).map_err(|e| at(format!("not a profile: {e}")))?;
    p.validate().map_err(at)?;
    let p: &'static Profile = Box::leak(Box::new(p));
    let _ = READ.set((path.to_path_buf(), p));
    Ok(p)
}

/// The scenario corrected by `--profile` when it is given, and the line that says what the profile changed (for
/// all-reduce, the step's; [`profiled_for`] names another collective); a profile of other hardware is an error that
/// names the difference.
pub fn profiled(s: Scenario, c: &ClusterArgs) -> Result<(Scenario, Option<String>), Failure> {
    profiled_for(s, c, estimator_core::collective::Op::AllReduce)
}

/// [`profiled`], the line saying what the profile does for `op`.
pub fn profiled_for(
    s: Scenario,
    c: &ClusterArgs,
    op: estimator_core::collective::Op,
) -> Result<(Scenario, Option<String>), Failure> {
    let Some(path) = &c.profile else { return Ok((s, None)) };
    let p = load_profile(path)?;
    let s = p.apply(s).map_err(|e| Failure::input(format!("--profile {}: {e}", path.display())))?;
    let line = p.describe(&s, op);
    Ok((s, Some(line)))
}

/// Fills the cluster half of `input`: the node count, the hardware (from the flags, or from a report's summary,
/// which `--report` makes conflict with the hardware flags), and the model overrides (`--intra-node`, `--algo`,
/// `--link-efficiency`, `--latency-us`, `--measured-busbw-gbs`), which apply either way. Returns what the summary
/// gave, one line each (nothing for flags).
pub fn apply_cluster(
    input: &mut ScenarioInput,
    flags: &HardwareFlags,
    nodes: i64,
    summary: Option<&Summary>,
) -> Result<Vec<String>, Failure> {
    input.nodes = nodes;
    if let Some(summary) = summary {
        let taken = summary.apply(input);
        // The flags a report does not replace apply over it (`--nvlink-domain-gpus` wins over NVML's domain).
        flags.apply_except(input, |i| i.from_report);
        return Ok(taken);
    }
    // On one node the adapters are 0 unless given: nothing crosses a network.
    input.adapters_per_node = 0;
    flags.apply(input);
    if nodes > 1 {
        let required = |name: &str| Failure::Usage(format!("{name} is required when --nodes > 1"));
        flags.get(Field::AdaptersPerNode).ok_or_else(|| required("--adapters"))?;
        flags.get(Field::LinkGbps).ok_or_else(|| required("--link-gbps"))?;
    }
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use clap::CommandFactory;
    use estimator_core::ComputeInput;

    use super::*;
    use crate::cli::Cli;

    /// The long flags clap knows for `probe-cli estimate <sub>`.
    fn flags_of(sub: &str) -> BTreeSet<String> {
        let cli = Cli::command();
        let estimate = cli.find_subcommand("estimate").expect("estimate");
        let cmd = estimate.find_subcommand(sub).unwrap_or_else(|| panic!("estimate {sub}"));
        cmd.get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")).collect()
    }

    #[test]
    fn every_field_in_an_error_names_a_flag_clap_knows() {
        let cli = Cli::command();
        let top = |name: &str| -> BTreeSet<String> {
            let cmd = cli.find_subcommand(name).unwrap_or_else(|| panic!("{name}"));
            cmd.get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")).collect()
        };
        let known: BTreeSet<String> = flags_of("step")
            .union(&flags_of("allreduce"))
            .cloned()
            .chain(top("check-run"))
            .chain(top("plan"))
            .collect();
        for f in Field::ALL {
            assert!(known.contains(&flag(f)), "{f:?} maps to {}, which `estimate` does not know", flag(f));
        }
    }

    /// Every scenario input with a flag in the core's table is a flag of `estimate step`, and the inputs of the
    /// hardware's roles are flags of `estimate allreduce` too.
    #[test]
    fn every_input_of_the_table_is_a_flag_of_estimate_step() {
        let step = flags_of("step");
        let allreduce = flags_of("allreduce");
        for i in &inputs::INPUTS {
            let Some(f) = i.flag.get() else { continue };
            assert!(step.contains(&format!("--{f}")), "{:?}: --{f} is not a flag of estimate step", i.field);
            if matches!(i.role, inputs::Role::Hardware | inputs::Role::Tuning | inputs::Role::Nodes) {
                assert!(allreduce.contains(&format!("--{f}")), "{:?}: --{f} is not a flag of allreduce", i.field);
            }
        }
    }

    /// What the command line takes and refuses around the table's flags (each found in review): an empty compute
    /// is refused, `--ring-factor` is a job flag (plan's, not allreduce's), a count without its value does not
    /// swallow the next flag, and `--reference` takes `--overlap` and refuses the other scenario flags.
    #[test]
    fn the_command_line_takes_what_it_should_and_refuses_the_rest() {
        use clap::Parser;
        let parses = |args: &[&str]| Cli::try_parse_from(std::iter::once("probe-cli").chain(args.iter().copied()));
        assert!(parses(&["estimate", "step", "--compute-ms="]).is_err());
        assert!(parses(&["plan", "--tokens", "1T", "--ring-factor", "2"]).is_ok());
        assert!(parses(&["estimate", "allreduce", "--bytes", "1G", "--ring-factor", "2"]).is_err());
        let e = parses(&["estimate", "step", "--tp", "--pp", "2"]).expect_err("no value");
        assert!(e.to_string().contains("a value is required for '--tp"), "{e}");
        // A minus sign reaches the reader, which says what is wrong with the value.
        let e = parses(&["estimate", "step", "--params", "-7B"]).expect_err("negative");
        assert!(e.to_string().contains("invalid value '-7B' for '--params"), "{e}");
        assert!(parses(&["estimate", "step", "--reference", "--overlap", "0.5"]).is_ok());
        for flag in [["--bucket-bytes", "1MiB"], ["--measured-busbw-gbs", "300"], ["--tp", "2"]] {
            let args = ["estimate", "step", "--reference", flag[0], flag[1]];
            assert!(parses(&args).is_err(), "--reference with {}", flag[0]);
        }
    }

    /// The flags read into the model's input as the table reads them: a given value reaches its field, one not
    /// given keeps the default, and a switch's spelling (`--no-gdr`, `--overlap-grad-reduce false`) is honoured.
    #[test]
    fn flags_fill_the_input_as_the_table_says() {
        use clap::Parser;
        let cli = Cli::try_parse_from([
            "probe-cli",
            "estimate",
            "step",
            "--params",
            "70B",
            "--nodes",
            "2",
            "--adapters",
            "4",
            "--link-gbps",
            "100GbE",
            "--fabric",
            "roce",
            "--no-gdr",
            "--tp",
            "2",
            "--overlap-grad-reduce",
            "false",
            "--bucket-bytes",
            "50MiB",
            "--activation-checkpointing",
            "--compute-ms",
            "1500",
            "--sync",
            "fsdp",
        ])
        .expect("parses");
        let crate::cli::Command::Estimate(crate::cli::EstimateCommand::Step(a)) = cli.command else {
            panic!("estimate step")
        };
        let job = job_input(&a.job, &a.nodes, ComputeInput::Given { ms: 1500.0 }).map_err(|_| "job").expect("job");
        let i = job.input;
        assert_eq!((i.params, i.nodes, i.adapters_per_node, i.link_gbps), (70e9, 2, 4, 100.0));
        assert_eq!((i.fabric, i.gdr, i.tp, i.overlap_grad_reduce), (estimator_core::Fabric::Roce, false, 2, false));
        assert_eq!((i.bucket_bytes, i.activation_checkpointing), (Some(50.0 * 1024.0 * 1024.0), true));
        assert_eq!(i.sync, estimator_core::SyncStrategy::Zero3);
        // Not given: the model's defaults.
        assert_eq!((i.gpus_per_node, i.pp, i.overlap_param_gather), (8, 1, false));
        assert!(a.compute.get(Field::ComputeMs).is_some());
    }
}
