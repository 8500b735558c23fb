//! Flags to the model's input and back: the hardware flags every model command shares (`ClusterArgs`, or a
//! report's summary with `--report`) into a `ScenarioInput`, and a model error into the flag that set the value.
//! `estimate step`, `estimate allreduce`, `health` and `check-run` all fill their hardware through
//! [`apply_cluster`]; `estimate step` and `check-run` their job through [`job_input`].

use std::path::PathBuf;

use estimator_core::report::Summary;
use estimator_core::{ComputeInput, Field, ScenarioError, ScenarioInput};

use crate::cli::{ClusterArgs, JobArgs, NodesArgs};
use crate::files::load_report;
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
/// with each offer's).
pub fn job_template(j: &JobArgs, compute: ComputeInput) -> ScenarioInput {
    ScenarioInput {
        params: j.params.unwrap_or(ScenarioInput::default().params),
        model: j.model.clone(),
        dtype: j.dtype,
        // The layout a run used, or the one to start a choice from (`estimate step` and `plan` choose when it is
        // not given: `choose_sync`).
        sync: j.sync.unwrap_or(estimator_core::SyncStrategy::Ddp),
        shard_group: j.shard_group,
        tp: j.tp,
        pp: j.pp,
        ep: j.ep,
        etp: j.etp,
        micro_batches: j.micro_batches,
        seq_len: j.seq_len,
        micro_batch_size: j.micro_batch_size,
        activation_checkpointing: j.activation_checkpointing,
        tp_overlap: j.tp_overlap,
        ep_overlap: j.ep_overlap,
        overlap_grad_reduce: j.overlap_grad_reduce,
        overlap_param_gather: j.overlap_param_gather,
        grad_accum_steps: j.grad_accum_steps,
        bucket_bytes: j.bucket_bytes,
        overlap: j.overlap,
        ring_factor: j.ring_factor,
        compute,
        ..ScenarioInput::default()
    }
}

/// The job flags (`JobArgs`) and a compute into a `ScenarioInput`, on its nodes (`NodesArgs`): the hardware from
/// the flags or `--report`.
pub fn job_input(j: &JobArgs, on: &NodesArgs, compute: ComputeInput) -> Result<JobInput, Failure> {
    let mut input = job_template(j, compute);
    let report = on.report.as_deref().map(|p| load_report(p).map(|(head, value)| (p.to_path_buf(), head, value)));
    let report = report.transpose()?;
    let summary = report.as_ref().map(|(_, head, _)| head.summary.clone());
    let mut taken = apply_cluster(&mut input, &on.cluster, on.nodes, summary.as_ref())?;
    if let Some((_, _, value)) = &report {
        taken.extend(assumed_fixed(value));
    }
    Ok(JobInput { input, taken, report: report.map(|(p, _, v)| (p, v)), summary })
}

/// The report's failed and warned readiness checks that the scenario does not carry, one line each: the estimate
/// models the node as if each were fixed, and says so. GPUDirect RDMA's support, the active ports and their rate
/// are in the summary, so the scenario has them; an environment variable, a narrow PCIe link, the IOMMU or a
/// locked-memory limit it does not.
fn assumed_fixed(report: &serde_json::Value) -> Vec<String> {
    let Some(checks) = report.get("readiness").and_then(serde_json::Value::as_array) else { return Vec::new() };
    checks
        .iter()
        .filter_map(|c| {
            let id = c.get("id")?.as_str()?;
            let status = c.get("status")?.as_str()?;
            let saw = c.get("saw")?.as_str().unwrap_or("");
            (matches!(status, "fail" | "warn") && id != "gdr")
                .then(|| format!("assumed fixed: {id} ({status}: {saw}); the estimate is for the node without it"))
        })
        .collect()
}

/// The flag that sets a model field. Exhaustive on purpose: a new `Field` does not compile until it has a flag.
pub fn flag(field: Field) -> &'static str {
    match field {
        Field::Params => "--params",
        Field::GradAccumSteps => "--grad-accum-steps",
        Field::BucketBytes => "--bucket-bytes",
        Field::ComputeMs => "--compute-ms",
        Field::TokensPerStep => "--tokens-per-step",
        Field::Mfu => "--mfu",
        Field::ActivationBytesPerGpu => "--activation-bytes-per-gpu",
        Field::Nodes => "--nodes",
        Field::GpusPerNode => "--gpus-per-node",
        Field::AdaptersPerNode => "--adapters",
        Field::LinkGbps => "--link-gbps",
        Field::Overlap => "--overlap",
        Field::LinkEfficiency => "--link-efficiency",
        Field::LatencyUs => "--latency-us",
        Field::RingFactor => "--ring-factor",
        Field::MeasuredBusbwGbs => "--measured-busbw-gbs",
        Field::TargetExposedShare => "--target-exposed-share",
        Field::Bytes => "--bytes",
        Field::Model => "--model",
        Field::Tp => "--tp",
        Field::Pp => "--pp",
        Field::Ep => "--ep",
        Field::Etp => "--etp",
        Field::MicroBatches => "--micro-batches",
        Field::SeqLen => "--seq-len",
        Field::MicroBatchSize => "--micro-batch-size",
        Field::ShardGroup => "--shard-group",
        Field::MeasuredStepS => "--measured-step-s",
        Field::MeasuredTokensPerS => "--measured-tokens-per-s",
        Field::MeasuredSamplesPerS => "--measured-samples-per-s",
        Field::SamplesPerStep => "--samples-per-step",
        Field::Tokens => "--tokens",
        Field::DeadlineS => "--deadline",
        Field::MaxNodes => "--max-nodes",
        Field::Price => "--price",
        Field::Offer => "--only",
        Field::NvlinkDomainGpus => "--nvlink-domain-gpus",
    }
}

/// A value the model rejects, as a usage error naming its flag.
pub fn usage(e: &ScenarioError) -> Failure {
    Failure::Usage(format!("{}: {}", flag(e.field), e.reason))
}

/// Fills the cluster half of `input`: the node count, the hardware (from the flags, or from a report's summary,
/// which `--report` makes conflict with the hardware flags), and the model overrides (`--intra-node`, `--algo`,
/// `--link-efficiency`, `--latency-us`, `--measured-busbw-gbs`), which apply either way. Returns what the summary
/// gave, one line each (nothing for flags).
pub fn apply_cluster(
    input: &mut ScenarioInput,
    c: &ClusterArgs,
    nodes: i64,
    summary: Option<&Summary>,
) -> Result<Vec<String>, Failure> {
    input.nodes = nodes;
    input.intra_node = c.intra_node;
    input.algorithm = c.algo;
    input.link_efficiency = c.link_efficiency;
    input.latency_us = c.latency_us;
    input.measured_busbw_gbs = c.measured_busbw_gbs;
    if let Some(summary) = summary {
        let taken = summary.apply(input);
        if c.nvlink_domain_gpus.is_some() {
            input.nvlink_domain_gpus = c.nvlink_domain_gpus;
        }
        return Ok(taken);
    }
    input.nvlink_domain_gpus = c.nvlink_domain_gpus;
    input.gpus_per_node = c.gpus_per_node;
    input.gpu.clone_from(&c.gpu);
    input.fabric = c.fabric;
    input.gdr = !c.no_gdr;
    if nodes > 1 {
        let required = |name: &str| Failure::Usage(format!("{name} is required when --nodes > 1"));
        input.adapters_per_node = c.adapters.ok_or_else(|| required("--adapters"))?;
        input.link_gbps = c.link_gbps.ok_or_else(|| required("--link-gbps"))?;
    } else {
        input.adapters_per_node = c.adapters.unwrap_or(0);
        input.link_gbps = c.link_gbps.unwrap_or(input.link_gbps);
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
            assert!(known.contains(flag(f)), "{f:?} maps to {}, which `estimate` does not know", flag(f));
        }
    }

    /// `ScenarioInput` keys whose flag is not `--` plus the key with `-` for `_`.
    const RENAMED: [(&str, &str); 6] = [
        ("adapters_per_node", "--adapters"),
        ("algorithm", "--algo"),
        ("gdr", "--no-gdr"),
        ("compute.ms", "--compute-ms"),
        ("compute.tokens_per_step", "--tokens-per-step"),
        ("compute.mfu", "--mfu"),
    ];

    /// `ScenarioInput` keys that deliberately have no flag, with the reason.
    const NO_FLAG: [(&str, &str); 2] = [
        ("compute", "an object: its keys below are the flags"),
        ("compute.kind", "chosen by which is given: --compute-ms, or --tokens-per-step and --mfu"),
    ];

    /// The keys of a `ScenarioInput` as it serializes, nested ones as `parent.key`, with both kinds of compute.
    fn input_keys() -> BTreeSet<String> {
        let mut keys = BTreeSet::new();
        for compute in [ComputeInput::Given { ms: 1.0 }, ComputeInput::default()] {
            let input = ScenarioInput { compute, ..ScenarioInput::default() };
            let v = serde_json::to_value(&input).expect("serializes");
            for (k, v) in v.as_object().expect("an object") {
                keys.insert(k.clone());
                for inner in v.as_object().into_iter().flat_map(|o| o.keys()) {
                    keys.insert(format!("{k}.{inner}"));
                }
            }
        }
        keys
    }

    #[test]
    fn every_scenario_input_key_has_a_flag_in_estimate_step() {
        let known = flags_of("step");
        let keys = input_keys();
        for key in &keys {
            if NO_FLAG.iter().any(|(k, _)| k == key) {
                continue;
            }
            let flag = RENAMED
                .iter()
                .find(|(k, _)| k == key)
                .map_or_else(|| format!("--{}", key.replace('_', "-")), |(_, f)| (*f).to_string());
            assert!(
                known.contains(&flag),
                "ScenarioInput's `{key}` has no flag in `estimate step` (looked for {flag}): add one, or list it in \
                 RENAMED or NO_FLAG with the reason"
            );
        }
        for (k, _) in RENAMED.iter().chain(NO_FLAG.iter()) {
            assert!(keys.contains(*k), "{k} is listed here but is not a ScenarioInput key any more");
        }
    }
}
