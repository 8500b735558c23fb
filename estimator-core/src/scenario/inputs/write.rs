//! How each input is written into a `ScenarioInput`: one arm per entry of the table, beside it rather than in it
//! (one match, where forty closures in the table would each be code of their own), for the CLI's flags and the
//! page's form alike.

use super::Value;
use crate::catalog::IntraNodeLink;
use crate::fabric::Fabric;
use crate::scenario::{Algorithm, SyncStrategy};
use crate::scenario::{ComputeInput, DEFAULT_MFU, DEFAULT_TOKENS_PER_STEP, Field, GradDtype, ScenarioInput};

/// Writes `v` into the field of `i` that `field`'s entry names; `None` when `v` is not of its kind.
pub(super) fn write(field: Field, i: &mut ScenarioInput, v: &Value) -> Option<()> {
    match field {
        Field::Model => {
            i.model = match v {
                Value::Unset => None,
                v => Some(v.text()?.to_string()),
            };
        }
        Field::Params => i.params = v.number()?,
        Field::Dtype => i.dtype = GradDtype::parse(v.text()?)?,
        Field::Sync => i.sync = SyncStrategy::parse(v.text()?)?,
        Field::GradAccumSteps => i.grad_accum_steps = v.count()?,
        Field::BucketBytes => i.bucket_bytes = set_opt_number(v)?,
        Field::Framework => {
            i.framework = match v {
                Value::Unset => None,
                v => Some(crate::scenario::Framework::parse(v.text()?)?),
            };
        }
        Field::Compute => {
            i.compute = match (v.text()?, i.compute) {
                ("tokens", c @ ComputeInput::Tokens { .. }) | ("given", c @ ComputeInput::Given { .. }) => c,
                ("tokens", _) => ComputeInput::default(),
                ("given", _) => ComputeInput::Given { ms: GIVEN_COMPUTE_MS },
                _ => return None,
            };
        }
        Field::ComputeMs => i.compute = ComputeInput::Given { ms: v.number()? },
        Field::TokensPerStep => i.compute = ComputeInput::Tokens { tokens_per_step: v.number()?, mfu: tokens_mfu(i).1 },
        Field::Mfu => i.compute = ComputeInput::Tokens { tokens_per_step: tokens_mfu(i).0, mfu: v.number()? },
        Field::ActivationBytesPerGpu => i.activation_bytes_per_gpu = v.number()?,
        Field::Nodes => i.nodes = v.count()?,
        Field::Gpu => i.gpu = v.text()?.to_string(),
        Field::GpusPerNode => i.gpus_per_node = v.count()?,
        Field::IntraNode => {
            i.intra_node = match v {
                Value::Unset => None,
                v => Some(IntraNodeLink::parse(v.text()?)?),
            };
        }
        Field::NvlinkDomainGpus => i.nvlink_domain_gpus = set_opt_count(v)?,
        Field::AdaptersPerNode => i.adapters_per_node = v.count()?,
        Field::LinkGbps => i.link_gbps = v.number()?,
        Field::Fabric => i.fabric = Fabric::parse(v.text()?)?,
        Field::Gdr => i.gdr = v.switch()?,
        Field::Algorithm => i.algorithm = Algorithm::parse(v.text()?)?,
        Field::Overlap => i.overlap = set_opt_number(v)?,
        Field::LinkEfficiency => i.link_efficiency = set_opt_number(v)?,
        Field::LatencyUs => i.latency_us = set_opt_number(v)?,
        Field::RingFactor => i.ring_factor = set_opt_number(v)?,
        Field::MeasuredBusbwGbs => i.measured_busbw_gbs = set_opt_number(v)?,
        Field::TargetExposedShare => i.target_exposed_share = v.number()?,
        Field::Tp => i.tp = v.count()?,
        Field::Pp => i.pp = v.count()?,
        Field::Ep => i.ep = v.count()?,
        Field::Etp => i.etp = set_opt_count(v)?,
        Field::MicroBatches => i.micro_batches = set_opt_count(v)?,
        Field::SeqLen => i.seq_len = v.count()?,
        Field::MicroBatchSize => i.micro_batch_size = v.count()?,
        Field::ShardGroup => i.shard_group = set_opt_count(v)?,
        Field::ActivationCheckpointing => i.activation_checkpointing = v.switch()?,
        Field::TpOverlap => i.tp_overlap = v.switch()?,
        Field::EpOverlap => i.ep_overlap = v.switch()?,
        Field::OverlapGradReduce => i.overlap_grad_reduce = v.switch()?,
        Field::OverlapParamGather => i.overlap_param_gather = v.switch()?,
        _ => return None,
    }
    Some(())
}

/// An optional count from a value: `Some(None)` for `Unset`.
fn set_opt_count(v: &Value) -> Option<Option<i64>> {
    match v {
        Value::Unset => Some(None),
        v => v.count().map(Some),
    }
}

fn set_opt_number(v: &Value) -> Option<Option<f64>> {
    match v {
        Value::Unset => Some(None),
        v => v.number().map(Some),
    }
}

/// The compute's tokens and MFU, the defaults when it is given as a time.
fn tokens_mfu(i: &ScenarioInput) -> (f64, f64) {
    match i.compute {
        ComputeInput::Tokens { tokens_per_step, mfu } => (tokens_per_step, mfu),
        ComputeInput::Given { .. } => (DEFAULT_TOKENS_PER_STEP, DEFAULT_MFU),
    }
}

/// A compute time given when the page switches to it: one second.
const GIVEN_COMPUTE_MS: f64 = 1000.0;
