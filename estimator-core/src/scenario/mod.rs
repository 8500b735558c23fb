//! The inputs of one estimate and their validation.
//!
//! [`ScenarioInput`] is plain data (what a form, a URL or CLI flags hold); [`Scenario::new`] checks every value once
//! and resolves the GPU, so the model functions that take a [`Scenario`] are total: no panic, no NaN, no infinity.

use crate::catalog::{self, GpuSpec, IntraNodeBandwidth, IntraNodeLink, Lookup};
use crate::layout::{self, Layout};
use crate::shape::ModelShape;
use crate::terms::Terms;
use crate::units::{GbitPerSec, Seconds};

mod error;
mod framework;
mod input;
pub mod inputs;
pub mod reference;

use error::count;
pub use error::{Field, Reason, ScenarioError, Shown, limits};
pub(crate) use error::{count_in, range};
pub use framework::Framework;
pub use input::*;

/// A validated scenario. Build it with [`Scenario::new`]; derive variants with [`Scenario::with`].
#[derive(Clone, Debug)]
pub struct Scenario {
    input: ScenarioInput,
    gpu: &'static GpuSpec,
    gpu_lookup: Lookup,
    intra: IntraNodeBandwidth,
    nodes: u32,
    gpus_per_node: u32,
    adapters_per_node: u32,
    /// Nodes of the job in one NVLink domain (1 without a domain larger than the node).
    domain_nodes: u32,
    grad_accum_steps: u32,
    shape: ModelShape,
    layout: Layout,
    warnings: Vec<String>,
    /// The model's shaped terms (`Terms::SHIPPED` unless set with [`Scenario::with_terms`]).
    terms: Terms,
    /// A correction of every collective's time measured on this hardware (a calibrated profile), set with
    /// [`Scenario::with_correction`]; `None`: the model as it is.
    correction: Option<&'static dyn Correction>,
}

/// A correction of the model's collective times, fitted to the user's own measurements (`calibrate::Profile`).
/// Behind a trait so that a scenario without one costs the page nothing.
pub trait Correction: std::fmt::Debug + Send + Sync {
    /// The factor (finite, positive) on the model's time of one call of `op` on `bytes` (nccl-tests' size) on
    /// `s`'s nodes; 1 where it knows nothing, or `s` is not the hardware it was measured on.
    fn time_factor(&self, s: &Scenario, op: crate::op::Op, bytes: f64) -> f64;
}

/// Everything else in a scenario follows from its inputs and how its GPU name was resolved. A correction is not
/// compared: it is a measurement of the hardware, not part of the question (and the page, which compares scenarios
/// on every keystroke, never has one).
impl PartialEq for Scenario {
    fn eq(&self, other: &Scenario) -> bool {
        self.gpu_lookup == other.gpu_lookup && self.input == other.input && self.terms == other.terms
    }
}

impl Scenario {
    /// Validates `input` and resolves its GPU. Unknown GPU names are not an error: they give generic defaults
    /// and a warning.
    pub fn new(input: ScenarioInput) -> Result<Scenario, ScenarioError> {
        let gpu_lookup = catalog::lookup(&input.gpu);
        Scenario::build(input, gpu_lookup)
    }

    fn build(mut input: ScenarioInput, gpu_lookup: Lookup) -> Result<Scenario, ScenarioError> {
        use limits::*;
        // A blank model name is no model.
        if input.model.as_deref().is_some_and(|m| m.trim().is_empty()) {
            input.model = None;
        }
        let shape = layout::resolve_shape(&input)?;
        if input.model.is_some() {
            // A named model brings its own parameter count.
            input.params = shape.params;
        }
        // Every input's bounds, from the table of inputs; what depends on other inputs is checked below and in
        // `layout::resolve`.
        inputs::check_all(&input)?;
        let grad_accum_steps = count(Field::GradAccumSteps, input.grad_accum_steps, 1, MAX_GRAD_ACCUM)?;
        let nodes = count(Field::Nodes, input.nodes, 1, MAX_NODES)?;
        let gpus_per_node = count(Field::GpusPerNode, input.gpus_per_node, 1, MAX_GPUS_PER_NODE)?;
        let adapters_per_node = count(Field::AdaptersPerNode, input.adapters_per_node, 0, MAX_ADAPTERS_PER_NODE)?;

        let gpu = gpu_lookup.spec();
        let mut warnings = Vec::new();
        match gpu_lookup {
            Lookup::Unknown => warnings.push(format!(
                "unknown GPU '{}': no catalog name or fragment matches it, so it falls back to the 'generic' entry \
                 ({} GiB, {} TFLOP/s BF16, PCIe Gen4); pick a catalog GPU for real figures",
                input.gpu,
                crate::human::num(gpu.memory_gib(), 1),
                crate::human::num(gpu.bf16_dense_tflops.get(), 1)
            )),
            Lookup::Matched(g) => warnings.push(format!(
                "GPU '{}' read as catalog entry '{}' ({}): its name contains '{}'",
                input.gpu,
                g.key,
                g.name,
                catalog::matched_fragment(&input.gpu, g).unwrap_or(g.key)
            )),
            Lookup::Exact(_) => {}
        }
        let (layout, layout_warnings) =
            layout::resolve(&input, &shape, nodes.saturating_mul(gpus_per_node), gpus_per_node)?;
        warnings.extend(layout_warnings);
        if matches!(input.sync, SyncStrategy::Zero1 | SyncStrategy::Zero2)
            && input.overlap_param_gather
            && !input.overlap_grad_reduce
        {
            warnings.push(
                "overlap_param_gather needs overlap_grad_reduce ('Must use --overlap-param-gather with \
                 --overlap-grad-reduce', Megatron's arguments.py): modelled as one reduce-scatter, the gather \
                 overlapped"
                    .to_string(),
            );
        }
        let link = input.intra_node.unwrap_or(gpu.intra_node);
        let intra = catalog::intra_node_bandwidth(gpu, link);
        if intra.link != link {
            warnings.push(format!("{} has no {}; using {}", gpu.name, link.label(), intra.link.label()));
        }
        let domain_nodes = domain_nodes(&input, gpus_per_node, nodes, intra.link, &mut warnings)?;
        Ok(Scenario {
            input,
            gpu,
            gpu_lookup,
            intra,
            nodes,
            gpus_per_node,
            adapters_per_node,
            domain_nodes,
            grad_accum_steps,
            shape,
            layout,
            warnings,
            terms: Terms::SHIPPED,
            correction: None,
        })
    }

    /// A copy with some inputs changed, validated again. The GPU is resolved again only if its name changed.
    pub fn with(&self, change: impl FnOnce(&mut ScenarioInput)) -> Result<Scenario, ScenarioError> {
        let mut input = self.input.clone();
        change(&mut input);
        self.with_input(input)
    }

    /// [`Scenario::with`]'s checks on the changed input: one copy of them, not one per caller's closure (the
    /// page's first load counts each).
    #[inline(never)]
    fn with_input(&self, mut input: ScenarioInput) -> Result<Scenario, ScenarioError> {
        // A measured bus bandwidth belongs to the hardware and node count it was measured on (the inputs whose
        // role says so, `inputs::Role::measured_on`).
        if input.measured_busbw_gbs == self.input.measured_busbw_gbs && !inputs::same_measured_on(&input, &self.input) {
            input.measured_busbw_gbs = None;
        }
        // The correction travels with the scenario; it applies only to the hardware it was measured on, which it
        // checks itself (`Correction::time_factor`).
        let s =
            if input.gpu == self.input.gpu { Scenario::build(input, self.gpu_lookup) } else { Scenario::new(input) };
        s.map(|mut s| {
            s.terms = self.terms;
            s.correction = self.correction;
            s
        })
    }

    /// The same scenario with every collective's time corrected ([`Correction`]); scenarios derived with
    /// [`Scenario::with`] on the same hardware keep it.
    /// A correction lives as long as the program (a CLI reads one profile; the page's worker keeps each it fits,
    /// one per load of several runs): a plain reference keeps every scenario's copy and drop free of it, which the
    /// page's first load counts.
    pub fn with_correction(mut self, c: &'static dyn Correction) -> Scenario {
        self.correction = Some(c);
        self
    }

    /// The correction, if any.
    pub fn correction(&self) -> Option<&dyn Correction> {
        self.correction
    }

    /// The same scenario estimated with other model terms (the step replay's out-of-source predictions); every
    /// scenario derived from it with [`Scenario::with`] keeps them.
    pub fn with_terms(mut self, terms: Terms) -> Scenario {
        self.terms = terms;
        self
    }

    /// Whether ZeRO-1/2's gradient reduce-scatter runs behind the backward: the input, or its default when the
    /// model's terms do not take it ([`Terms::framework_overlap`]).
    pub fn overlap_grad_reduce(&self) -> bool {
        if self.terms.framework_overlap { self.input.overlap_grad_reduce } else { true }
    }

    /// Whether ZeRO-1/2's parameter all-gather overlaps the next forward: the input, or its default when the
    /// model's terms do not take it.
    pub fn overlap_param_gather(&self) -> bool {
        self.terms.framework_overlap && self.input.overlap_param_gather
    }

    /// The framework whose rules the step follows: the input's, else the one the layout implies.
    pub fn framework(&self) -> Framework {
        let i = &self.input;
        i.framework.unwrap_or(Framework::of_layout(i.sync, i.tp, i.pp))
    }

    /// The model's shaped terms this scenario is estimated with.
    pub fn terms(&self) -> Terms {
        self.terms
    }

    /// The validated inputs.
    pub fn input(&self) -> &ScenarioInput {
        &self.input
    }

    /// The model's shape: the catalog's, or the generic shape of the parameter count.
    pub fn shape(&self) -> &ModelShape {
        &self.shape
    }

    /// The parallel layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The resolved GPU (generic defaults when the name was unknown).
    pub fn gpu(&self) -> &'static GpuSpec {
        self.gpu
    }

    /// Whether the GPU name was recognised.
    pub fn gpu_known(&self) -> bool {
        !matches!(self.gpu_lookup, Lookup::Unknown)
    }

    /// Intra-node all-reduce bandwidths for this GPU and link.
    pub fn intra_node(&self) -> IntraNodeBandwidth {
        self.intra
    }

    /// Nodes, at least 1.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// GPUs per node, at least 1.
    pub fn gpus_per_node(&self) -> u32 {
        self.gpus_per_node
    }

    /// All GPUs in the job.
    pub fn participants(&self) -> u32 {
        self.nodes.saturating_mul(self.gpus_per_node)
    }

    /// Adapters per node (at least 1 when nodes > 1).
    pub fn adapters_per_node(&self) -> u32 {
        self.adapters_per_node
    }

    /// NVLink domains the job spans: its nodes over the domain's nodes, rounded up (the nodes, without a domain
    /// larger than the node). NCCL's multi-node NVLink fuses a domain's ranks into one topology, so the
    /// collectives see a domain where they would see a node.
    pub fn domains(&self) -> u32 {
        self.nodes.div_ceil(self.domain_nodes.max(1))
    }

    /// Nodes of the job in one NVLink domain: the domain's nodes, or the job's when it has fewer.
    pub fn nodes_per_domain(&self) -> u32 {
        self.domain_nodes
    }

    /// GPUs of the job in one NVLink domain: what the collectives take for GPUs per node.
    pub fn gpus_per_domain(&self) -> u32 {
        self.gpus_per_node.saturating_mul(self.domain_nodes)
    }

    /// Adapters of one NVLink domain's nodes: what the collectives take for adapters per node.
    pub fn adapters_per_domain(&self) -> u32 {
        self.adapters_per_node.saturating_mul(self.domain_nodes)
    }

    /// The NVLink domain's size as given, in GPUs (the node's GPUs when none was given).
    pub fn nvlink_domain_gpus(&self) -> u32 {
        match self.input.nvlink_domain_gpus {
            Some(d) => u32::try_from(d).unwrap_or(self.gpus_per_node),
            None => self.gpus_per_node,
        }
    }

    /// Whether an NVLink domain holds more than one node.
    pub fn multi_node_nvlink(&self) -> bool {
        self.nvlink_domain_gpus() > self.gpus_per_node
    }

    /// Accumulation micro-steps per optimizer step, at least 1.
    pub fn grad_accum_steps(&self) -> u32 {
        self.grad_accum_steps
    }

    /// One adapter's line rate.
    pub fn link(&self) -> GbitPerSec {
        GbitPerSec::new(self.input.link_gbps)
    }

    /// Latency override, if set.
    pub fn latency_override(&self) -> Option<Seconds> {
        self.input.latency_us.map(Seconds::from_micros)
    }

    /// What the user should know about how the inputs were read.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// The job's nodes in one NVLink domain, from `nvlink_domain_gpus`: whole nodes, over NVLink switches when it
/// holds more than one, at most [`limits::MAX_NVLINK_DOMAIN_GPUS`]. A job whose nodes do not fill whole domains is
/// told how it is modelled.
fn domain_nodes(
    input: &ScenarioInput,
    gpus_per_node: u32,
    nodes: u32,
    link: IntraNodeLink,
    warnings: &mut Vec<String>,
) -> Result<u32, ScenarioError> {
    let Some(d) = input.nvlink_domain_gpus else {
        return Ok(1);
    };
    let field = Field::NvlinkDomainGpus;
    let d = count(field, d, 1, limits::MAX_NVLINK_DOMAIN_GPUS)?;
    if d % gpus_per_node != 0 {
        return Err(ScenarioError::missing(
            field,
            format!("{d} must be a multiple of the {gpus_per_node} GPUs per node: a domain is whole nodes"),
        ));
    }
    let per_domain = d / gpus_per_node;
    if per_domain > 1 && link != IntraNodeLink::Nvswitch {
        return Err(ScenarioError::missing(
            field,
            format!(
                "{d} GPUs span {per_domain} nodes, which needs NVLink switches between them (NVL72-class racks);                  these GPUs talk over {}",
                link.label()
            ),
        ));
    }
    let used = per_domain.min(nodes);
    if nodes > used && !nodes.is_multiple_of(used) {
        warnings.push(format!(
            "{nodes} nodes do not fill NVLink domains of {per_domain} nodes: modelled as {} whole domains (the last \
             one holds {} nodes)",
            nodes.div_ceil(used),
            nodes % used
        ));
    }
    Ok(used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::Fabric;

    fn rejects(change: impl FnOnce(&mut ScenarioInput), field: Field, text: &str) {
        let mut input = ScenarioInput::default();
        change(&mut input);
        let e = Scenario::new(input).expect_err("must be rejected");
        assert_eq!(e.field, field);
        assert!(e.to_string().contains(text), "'{e}' should contain '{text}'");
        assert!(e.to_string().starts_with(field.key()), "'{e}' names the field first");
    }

    #[test]
    fn the_default_is_valid() {
        let s = Scenario::new(ScenarioInput::default()).expect("default is valid");
        assert_eq!(s.participants(), 16);
        assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    }

    #[test]
    fn bad_values_name_the_field_and_the_reason() {
        rejects(|i| i.params = 0.0, Field::Params, "at least 1");
        rejects(|i| i.params = -7e9, Field::Params, "at least 1");
        rejects(|i| i.params = 1e20, Field::Params, "at most 1e14 parameters (got 1e20)");
        rejects(|i| i.params = f64::NAN, Field::Params, "finite");
        rejects(|i| i.params = f64::INFINITY, Field::Params, "finite");
        rejects(|i| i.nodes = 0, Field::Nodes, "at least 1 (got 0)");
        rejects(|i| i.nodes = -2, Field::Nodes, "(got -2)");
        rejects(|i| i.gpus_per_node = 0, Field::GpusPerNode, "at least 1");
        rejects(|i| i.adapters_per_node = -1, Field::AdaptersPerNode, "at least 0");
        rejects(|i| i.adapters_per_node = 0, Field::AdaptersPerNode, "nodes > 1");
        rejects(|i| i.link_gbps = 10_000.0, Field::LinkGbps, "at most 3200 Gb/s");
        rejects(|i| i.link_gbps = 0.0, Field::LinkGbps, "at least");
        rejects(|i| i.overlap = Some(1.5), Field::Overlap, "at most 1");
        rejects(|i| i.overlap = Some(-0.1), Field::Overlap, "at least 0");
        rejects(|i| i.link_efficiency = Some(0.0), Field::LinkEfficiency, "at least");
        rejects(|i| i.ring_factor = Some(3.0), Field::RingFactor, "at most 2");
        rejects(|i| i.latency_us = Some(f64::NEG_INFINITY), Field::LatencyUs, "finite");
        rejects(|i| i.grad_accum_steps = 0, Field::GradAccumSteps, "at least 1");
        rejects(|i| i.compute = ComputeInput::Given { ms: -1.0 }, Field::ComputeMs, "at least 0");
        rejects(|i| i.compute = ComputeInput::Tokens { tokens_per_step: 1e6, mfu: 1.2 }, Field::Mfu, "at most 1");
    }

    #[test]
    fn one_node_needs_no_adapter() {
        let input = ScenarioInput { nodes: 1, adapters_per_node: 0, ..ScenarioInput::default() };
        assert!(Scenario::new(input).is_ok());
    }

    #[test]
    fn unknown_gpu_is_a_warning() {
        let input = ScenarioInput { gpu: "Imaginary X1".into(), ..ScenarioInput::default() };
        let s = Scenario::new(input).expect("unknown GPU is still a scenario");
        assert!(!s.gpu_known());
        assert!(s.warnings()[0].contains("unknown GPU 'Imaginary X1'"));
    }

    /// `Field::ALL` lists every variant once: `position` is an exhaustive match, so a new variant does not compile
    /// until it is given its place, and this test fails until ALL has it there.
    #[test]
    fn field_all_is_complete() {
        fn position(f: Field) -> usize {
            match f {
                Field::Params => 0,
                Field::GradAccumSteps => 1,
                Field::BucketBytes => 2,
                Field::ComputeMs => 3,
                Field::TokensPerStep => 4,
                Field::Mfu => 5,
                Field::ActivationBytesPerGpu => 6,
                Field::Nodes => 7,
                Field::GpusPerNode => 8,
                Field::AdaptersPerNode => 9,
                Field::LinkGbps => 10,
                Field::Overlap => 11,
                Field::LinkEfficiency => 12,
                Field::LatencyUs => 13,
                Field::RingFactor => 14,
                Field::MeasuredBusbwGbs => 15,
                Field::TargetExposedShare => 16,
                Field::Bytes => 17,
                Field::Model => 18,
                Field::Tp => 19,
                Field::Pp => 20,
                Field::Ep => 21,
                Field::Etp => 22,
                Field::MicroBatches => 23,
                Field::SeqLen => 24,
                Field::MicroBatchSize => 25,
                Field::ShardGroup => 26,
                Field::MeasuredStepS => 27,
                Field::MeasuredTokensPerS => 28,
                Field::MeasuredSamplesPerS => 29,
                Field::SamplesPerStep => 30,
                Field::Tokens => 31,
                Field::DeadlineS => 32,
                Field::MaxNodes => 33,
                Field::Price => 34,
                Field::Offer => 35,
                Field::NvlinkDomainGpus => 36,
                Field::Dtype => 37,
                Field::Sync => 38,
                Field::Gpu => 39,
                Field::IntraNode => 40,
                Field::Fabric => 41,
                Field::Gdr => 42,
                Field::Algorithm => 43,
                Field::ActivationCheckpointing => 44,
                Field::TpOverlap => 45,
                Field::EpOverlap => 46,
                Field::OverlapGradReduce => 47,
                Field::OverlapParamGather => 48,
                Field::Compute => 49,
                Field::Framework => 50,
            }
        }
        for (i, f) in Field::ALL.into_iter().enumerate() {
            assert_eq!(position(f), i, "{f:?} is out of place in Field::ALL");
        }
    }

    #[test]
    fn input_round_trips_through_json_with_defaults() {
        let s: ScenarioInput = serde_json::from_str(r#"{"params": 70e9, "fabric": "roce"}"#).expect("parses");
        assert_eq!(s.params, 70e9);
        assert_eq!(s.fabric, Fabric::Roce);
        assert_eq!(s.nodes, 2);
        let back: ScenarioInput = serde_json::from_str(&serde_json::to_string(&s).expect("ser")).expect("de");
        assert_eq!(back, s);
        assert!(serde_json::from_str::<ScenarioInput>(r#"{"parms": 1}"#).is_err());
    }
}
