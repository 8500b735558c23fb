//! One scenario's form as the user typed it, and its reading into the model's [`ScenarioInput`].
//!
//! Text stays text until it is read, so a half-typed or wrong value is kept in the field and shown with its error,
//! while the page keeps the last scenario that was valid (and the URL holds what the cards show: `app.rs`). Ranges are the model's own
//! ([`Scenario::new`]); only percentages are checked here, because the form shows them in percent.

use estimator_core::quantity::{parse_count, parse_number};
use estimator_core::scenario::inputs::{Role, Value};
use estimator_core::{ComputeInput, Fabric, GradDtype, Scenario, ScenarioInput, SyncStrategy};

use estimator_core::human;

pub use crate::presets::{PRESETS, Preset};

mod field;

pub use field::FormField;

/// Longest text a field keeps (longer pastes are cut): no real value needs more, and the parser stays cheap.
pub const MAX_TEXT: usize = 64;

/// Where the compute time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputeMode {
    /// From tokens per step and MFU.
    Tokens,
    /// A given time per step.
    Given,
}

/// A value the form could not use, and why, in words for the field's error line.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// The field.
    pub field: FormField,
    /// The reason.
    pub message: String,
}

/// One scenario's inputs as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioForm {
    /// Parameters: `7B`, `7e9`, `70000000000`.
    pub params: String,
    /// Gradient type.
    pub dtype: GradDtype,
    /// DDP, ZeRO-1, ZeRO-2 or ZeRO-3/FSDP.
    pub sync: SyncStrategy,
    /// Catalog key of the GPU.
    pub gpu: String,
    /// GPUs per node.
    pub gpus_per_node: String,
    /// Nodes.
    pub nodes: String,
    /// Network adapters per node.
    pub adapters: String,
    /// GPUs in one NVLink domain; empty for the node.
    pub domain: String,
    /// Line rate per adapter, Gb/s.
    pub link_gbps: String,
    /// Fabric class.
    pub fabric: Fabric,
    /// GPUDirect RDMA.
    pub gdr: bool,
    /// Share of communication hidden behind compute, percent; empty for what the frameworks' schedule hides.
    pub overlap_pct: String,
    /// Where compute comes from.
    pub compute_mode: ComputeMode,
    /// Compute per step, ms (when given).
    pub compute_ms: String,
    /// Tokens per optimizer step (when derived): `4M`, `4194304`.
    pub tokens: String,
    /// MFU, percent.
    pub mfu_pct: String,
    /// Gradient-accumulation micro-steps.
    pub accum: String,
    /// Per-adapter efficiency override, percent; empty for the fabric's prior.
    pub efficiency_pct: String,
    /// Latency override per collective, µs; empty for the model's.
    pub latency_us: String,
    /// Measured all-reduce bus bandwidth, GB/s (from a pasted nccl-tests run); empty for the model's.
    pub measured_busbw: String,
    /// A model of the shape catalog (its key); empty for a dense model of `params` parameters.
    pub model: String,
    /// Tensor-parallel degree.
    pub tp: String,
    /// Pipeline stages.
    pub pp: String,
    /// Expert-parallel degree.
    pub ep: String,
    /// Expert tensor-parallel degree; empty for the tensor-parallel degree (megatron-core's default).
    pub etp: String,
    /// Micro-batches per step; empty for the model's (from tokens per step).
    pub micro_batches: String,
    /// Tokens per sequence.
    pub seq_len: String,
    /// Sequences per micro-batch.
    pub micro_batch_size: String,
    /// Activation checkpointing.
    pub checkpointing: bool,
    /// ZeRO-1/2: the gradient reduce-scatter behind the backward (Megatron's `--overlap-grad-reduce`).
    pub grad_overlap: bool,
    /// ZeRO-1/2: the parameter all-gather behind the next forward (Megatron's `--overlap-param-gather`).
    pub param_overlap: bool,
    /// The field being typed in, with the form from before its typing began.
    pub typing: Typing,
}

/// The field being typed in and the scenario the form read before its typing began (none when it did not read): a
/// text that stops reading falls back to that scenario, never to a value half typed on the way (`1e3` on the way
/// to `1e30`). A field's typing begins with its first change (`ScenarioForm::typed`) and ends with the page's next
/// `change` event (the field left, Enter, a select or a box changed). It never makes two forms differ: forms
/// compare by what they read.
#[derive(Clone, Debug, Default)]
pub struct Typing(Option<(FormField, Option<std::sync::Arc<Scenario>>)>);

impl PartialEq for Typing {
    fn eq(&self, _: &Typing) -> bool {
        true
    }
}

impl ScenarioForm {
    /// The form showing a model input.
    pub fn from_input(i: &ScenarioInput) -> ScenarioForm {
        let (compute_mode, compute_ms, tokens, mfu_pct) = match i.compute {
            ComputeInput::Given { ms } => (
                ComputeMode::Given,
                human::num(ms, 3),
                "4M".to_string(),
                human::num(100.0 * estimator_core::scenario::DEFAULT_MFU, 1),
            ),
            ComputeInput::Tokens { tokens_per_step, mfu } => {
                (ComputeMode::Tokens, "1000".to_string(), tokens_text(tokens_per_step), human::num(mfu * 100.0, 2))
            }
        };
        ScenarioForm {
            params: human::params(i.params),
            dtype: i.dtype,
            sync: i.sync,
            gpu: i.gpu.clone(),
            gpus_per_node: i.gpus_per_node.to_string(),
            nodes: i.nodes.to_string(),
            adapters: i.adapters_per_node.to_string(),
            domain: i.nvlink_domain_gpus.map(|d| d.to_string()).unwrap_or_default(),
            link_gbps: human::num(i.link_gbps, 3),
            fabric: i.fabric,
            gdr: i.gdr,
            overlap_pct: i.overlap.map(|o| human::num(o * 100.0, 2)).unwrap_or_default(),
            compute_mode,
            compute_ms,
            tokens,
            mfu_pct,
            accum: i.grad_accum_steps.to_string(),
            efficiency_pct: i.link_efficiency.map(|e| human::num(e * 100.0, 2)).unwrap_or_default(),
            latency_us: i.latency_us.map(|l| human::num(l, 3)).unwrap_or_default(),
            measured_busbw: i.measured_busbw_gbs.map(|b| human::num(b, 2)).unwrap_or_default(),
            model: i.model.clone().unwrap_or_default(),
            tp: i.tp.to_string(),
            pp: i.pp.to_string(),
            ep: i.ep.to_string(),
            etp: i.etp.map(|e| e.to_string()).unwrap_or_default(),
            micro_batches: i.micro_batches.map(|m| m.to_string()).unwrap_or_default(),
            seq_len: i.seq_len.to_string(),
            micro_batch_size: i.micro_batch_size.to_string(),
            checkpointing: i.activation_checkpointing,
            grad_overlap: i.overlap_grad_reduce,
            param_overlap: i.overlap_param_gather,
            typing: Typing::default(),
        }
    }

    /// The job of the first load: 7B in BF16 with ZeRO-1 (the all-reduce's gradient bytes, so the reference
    /// arithmetic holds, and states that fit an 80 GB H100), at the batch of a cited public recipe (see
    /// [`PAGE_TOKENS_PER_STEP`], [`PAGE_MFU`]), on two nodes of 8 H100.
    pub fn page_job() -> ScenarioInput {
        estimator_core::scenario::reference::reference_fast()
    }

    /// Scenario A of the first load: the rental the reference question warns about, one 25 GbE port per node
    /// (the "8× H100 SXM, 1× 25 GbE" preset).
    pub fn page_a() -> ScenarioForm {
        let mut f = ScenarioForm::from_input(&ScenarioForm::page_job());
        if let Some(p) = PRESETS.iter().find(|p| p.id == "h100-25g") {
            f.apply(p);
        }
        f
    }

    /// Scenario B of the first load: the same job on 8× 400 Gb/s InfiniBand per node.
    pub fn page_b() -> ScenarioForm {
        ScenarioForm::from_input(&ScenarioForm::page_job())
    }

    /// Scenario A of links written before the first load changed (links without `v=2`): 8× 25 Gb/s RoCE per
    /// node, DDP, 4M tokens per step. Such a link still means what its author saw.
    pub fn legacy_a() -> ScenarioForm {
        ScenarioForm::from_input(&ScenarioInput { link_gbps: 25.0, fabric: Fabric::Roce, ..ScenarioInput::default() })
    }

    /// Scenario B of links without `v=2`: the model's default, 8× 400 Gb/s InfiniBand, DDP, 4M tokens per step.
    pub fn legacy_b() -> ScenarioForm {
        ScenarioForm::from_input(&ScenarioInput::default())
    }

    /// The text of a text field (`None` for selects and the checkbox).
    pub fn text(&self, f: FormField) -> Option<&str> {
        Some(match f {
            FormField::Params => &self.params,
            FormField::GpusPerNode => &self.gpus_per_node,
            FormField::Nodes => &self.nodes,
            FormField::Adapters => &self.adapters,
            FormField::Domain => &self.domain,
            FormField::Link => &self.link_gbps,
            FormField::Overlap => &self.overlap_pct,
            FormField::ComputeMs => &self.compute_ms,
            FormField::Tokens => &self.tokens,
            FormField::Mfu => &self.mfu_pct,
            FormField::Accum => &self.accum,
            FormField::Efficiency => &self.efficiency_pct,
            FormField::Latency => &self.latency_us,
            FormField::Busbw => &self.measured_busbw,
            FormField::Gpu => &self.gpu,
            FormField::Model => &self.model,
            FormField::Tp => &self.tp,
            FormField::Pp => &self.pp,
            FormField::Ep => &self.ep,
            FormField::Etp => &self.etp,
            FormField::MicroBatches => &self.micro_batches,
            FormField::SeqLen => &self.seq_len,
            FormField::MicroBatchSize => &self.micro_batch_size,
            FormField::Dtype
            | FormField::Sync
            | FormField::Fabric
            | FormField::Gdr
            | FormField::Compute
            | FormField::Checkpointing
            | FormField::GradOverlap
            | FormField::ParamOverlap => {
                return None;
            }
        })
    }

    /// The value of any field as the URL writes it.
    pub fn value(&self, f: FormField) -> String {
        match f {
            FormField::Dtype => self.dtype.name().to_string(),
            FormField::Sync => self.sync.name().to_string(),
            FormField::Fabric => self.fabric.name().to_string(),
            FormField::Gdr => if self.gdr { "1" } else { "0" }.to_string(),
            FormField::Checkpointing => if self.checkpointing { "1" } else { "0" }.to_string(),
            FormField::GradOverlap => if self.grad_overlap { "1" } else { "0" }.to_string(),
            FormField::ParamOverlap => if self.param_overlap { "1" } else { "0" }.to_string(),
            FormField::Compute => match self.compute_mode {
                ComputeMode::Tokens => "tokens",
                ComputeMode::Given => "given",
            }
            .to_string(),
            _ => self.text(f).unwrap_or_default().to_string(),
        }
    }

    /// Sets a field from text (typed, or read from the URL). A select or checkbox value that means nothing is
    /// refused with the reason, and the field keeps its value.
    pub fn set(&mut self, f: FormField, v: &str) -> Result<(), FieldError> {
        let refuse = |what: &str| FieldError { field: f, message: format!("'{}' is not {what}", clip(v)) };
        let text = clip(v).to_string();
        match f {
            FormField::Params => self.params = text,
            FormField::GpusPerNode => self.gpus_per_node = text,
            FormField::Nodes => self.nodes = text,
            FormField::Adapters => self.adapters = text,
            FormField::Domain => self.domain = text,
            FormField::Link => self.link_gbps = text,
            FormField::Overlap => self.overlap_pct = text,
            FormField::ComputeMs => self.compute_ms = text,
            FormField::Tokens => self.tokens = text,
            FormField::Mfu => self.mfu_pct = text,
            FormField::Accum => self.accum = text,
            FormField::Efficiency => self.efficiency_pct = text,
            FormField::Latency => self.latency_us = text,
            FormField::Busbw => self.measured_busbw = text,
            FormField::Tp => self.tp = text,
            FormField::Pp => self.pp = text,
            FormField::Ep => self.ep = text,
            FormField::Etp => self.etp = text,
            FormField::MicroBatches => self.micro_batches = text,
            FormField::SeqLen => self.seq_len = text,
            FormField::MicroBatchSize => self.micro_batch_size = text,
            FormField::Model => {
                let t = text.trim();
                if !t.is_empty() && estimator_core::shape::lookup(t).is_none() {
                    return Err(refuse("a model of the catalog"));
                }
                self.model = estimator_core::shape::lookup(t).map(|m| m.key.to_string()).unwrap_or_default();
            }
            FormField::Gpu => {
                let t = text.trim();
                if !estimator_core::catalog::GPUS.iter().any(|g| g.key == t) {
                    return Err(refuse("a GPU of the catalog"));
                }
                self.gpu = t.to_string();
            }
            FormField::Dtype => self.dtype = GradDtype::parse(v).ok_or_else(|| refuse("fp32, bf16, fp16 or fp8"))?,
            FormField::Sync => {
                self.sync = SyncStrategy::parse(v).ok_or_else(|| refuse("ddp, zero1, zero2, zero3 or hsdp"))?
            }
            FormField::Fabric => {
                self.fabric = Fabric::parse(v)
                    .ok_or_else(|| refuse("infiniband, roce, efa, efa-v2, efa-v3, tcpx, tcpxo, rdma or tcp"))?
            }
            FormField::Gdr => self.gdr = flag(v).ok_or_else(|| refuse("1 or 0"))?,
            FormField::Checkpointing => self.checkpointing = flag(v).ok_or_else(|| refuse("1 or 0"))?,
            FormField::GradOverlap => self.grad_overlap = flag(v).ok_or_else(|| refuse("1 or 0"))?,
            FormField::ParamOverlap => self.param_overlap = flag(v).ok_or_else(|| refuse("1 or 0"))?,
            FormField::Compute => {
                self.compute_mode = match v.trim() {
                    "tokens" => ComputeMode::Tokens,
                    "given" | "ms" => ComputeMode::Given,
                    _ => return Err(refuse("tokens or given")),
                }
            }
        }
        Ok(())
    }

    /// Takes `from`'s job: every field whose input in the core's table is the job's, its compute's or its node
    /// count (model, layout, frameworks' settings, tokens and MFU, nodes), keeping this form's hardware and tuning.
    /// So A and B compare the same job on two fabrics without typing it twice (on other node counts a step given
    /// in milliseconds is not the same work). A measured bus bandwidth belongs to the node count it was measured
    /// on: a new count clears it, and what was cleared is returned in words.
    pub fn take_job(&mut self, from: &ScenarioForm) -> Option<String> {
        let nodes = self.value(FormField::Nodes);
        self.take(from, &[Role::Nodes, Role::Job, Role::Compute]);
        if self.value(FormField::Nodes) != nodes { self.clear_measured() } else { None }
    }

    /// Takes `from`'s fields whose input in the core's table has one of `roles`.
    pub fn take(&mut self, from: &ScenarioForm, roles: &[Role]) {
        for f in FormField::ALL {
            if roles.contains(&f.input().role) {
                // A value another form holds is one this form takes.
                let _ = self.set(f, &from.value(f));
            }
        }
    }

    /// Whether [`ScenarioForm::read`] reads field `f`: the compute's fields that its mode does not use are not read
    /// (and not written into a link, `app.rs`).
    pub fn reads(&self, f: FormField) -> bool {
        match f {
            FormField::ComputeMs => self.compute_mode == ComputeMode::Given,
            FormField::Tokens | FormField::Mfu => self.compute_mode == ComputeMode::Tokens,
            _ => true,
        }
    }

    /// Whether a field describes the hardware (or node count) a measured bus bandwidth was measured on: the role
    /// of its input in the core's table.
    pub fn is_hardware(f: FormField) -> bool {
        f.is_hardware()
    }

    /// Sets a field as the user edits it: as [`ScenarioForm::set`], and a change of hardware or node count clears
    /// a measured bus bandwidth, which belongs to what it was measured on. Returns what was cleared, in words.
    pub fn edit(&mut self, f: FormField, v: &str) -> Option<String> {
        let before = self.value(f);
        // A select only offers valid values and text fields take any text, so this cannot be refused.
        let _ = self.set(f, v);
        // A model brings its parameter count; a count typed by hand is a model of that size.
        match f {
            FormField::Model => {
                if let Some(m) = estimator_core::shape::lookup(&self.model) {
                    self.params = human::params(m.params);
                }
            }
            FormField::Params if self.value(f) != before => self.model.clear(),
            _ => {}
        }
        if ScenarioForm::is_hardware(f) && self.value(f) != before { self.clear_measured() } else { None }
    }

    /// [`ScenarioForm::edit`] as the user types: the first change of a field since the last typing ended keeps the
    /// scenario the form reads now, to fall back to.
    pub fn typed(&mut self, f: FormField, v: &str) -> Option<String> {
        if self.typing.0.as_ref().map(|t| t.0) != Some(f) {
            self.typing = Typing(Some((f, self.to_scenario().ok().map(std::sync::Arc::new))));
        }
        self.edit(f, v)
    }

    /// The scenario the form read before the typing under way began, if one is and it read.
    pub fn before_typing(&self) -> Option<&Scenario> {
        self.typing.0.as_ref().and_then(|t| t.1.as_deref())
    }

    /// Ends the typing under way: what the form holds now is what was typed.
    pub fn end_typing(&mut self) {
        self.typing = Typing::default();
    }

    /// Drops the measured bus bandwidth; returns the sentence that says so, when there was one.
    pub fn clear_measured(&mut self) -> Option<String> {
        if self.measured_busbw.trim().is_empty() {
            return None;
        }
        let was = std::mem::take(&mut self.measured_busbw);
        Some(format!(
            "Cleared the measured bus bandwidth ({} GB/s): it was measured on other hardware. The model is back.",
            clip(was.trim())
        ))
    }

    /// A hint for a value that reads but is unlikely to be meant ("70 parameters: did you mean 70B?"); it does not
    /// block the estimate.
    pub fn hint(&self, f: FormField) -> Option<String> {
        let t = self.text(f)?.trim();
        let pct = |v: f64, what: &str| {
            (v > 0.0 && v < 1.0)
                .then(|| format!("{what} {}%: did you mean {}%?", human::num(v, 3), human::num(v * 100.0, 1)))
        };
        match f {
            FormField::Params => {
                let v = parse_count(t).ok()?;
                (v < 1e6).then(|| format!("{} parameters: did you mean {}B?", human::count(v), human::num(v, 3)))
            }
            FormField::Mfu => pct(parse_number(t.trim_end_matches('%').trim())?, "MFU"),
            FormField::Overlap => pct(parse_number(t.trim_end_matches('%').trim())?, "Overlap"),
            _ => None,
        }
    }

    /// Reads the form into a model input, without the model's range checks, and lists every field that cannot be
    /// read. Each field is read and written by its entry in the core's table of inputs (`Input::parse`, the reader
    /// of the CLI's flags, then `Input::set`), except the three the form shows in percent; the compute's fields that
    /// its mode does not use are not read. An unreadable field keeps the model's default in the input, so the model
    /// can still check the others.
    pub fn read(&self) -> (ScenarioInput, Vec<FieldError>) {
        let mut input = ScenarioInput::default();
        let mut errors = Vec::new();
        for f in FormField::ALL {
            if !self.reads(f) {
                continue;
            }
            let entry = f.input();
            let text = self.value(f);
            let value = match f {
                FormField::Mfu => percent(&text, 0.1).map(Value::Number),
                FormField::Overlap | FormField::Efficiency if text.trim().is_empty() => Ok(Value::Unset),
                FormField::Overlap => percent(&text, 0.0).map(Value::Number),
                FormField::Efficiency => percent(&text, 0.1).map(Value::Number),
                _ => entry.parse(&text),
            };
            // The table writes every value its reader gives; a refusal would be this crate's mistake, said (in
            // words of its own: `WrongKind`'s message formats the value with `core::fmt`'s float code, 7 KB).
            let set = |v: Value| entry.set(&mut input, &v).map_err(|_| "the page cannot use this value".to_string());
            if let Err(message) = value.and_then(set) {
                errors.push(FieldError { field: f, message });
            }
        }
        (input, errors)
    }

    /// Reads and validates the form. Errors name every unreadable field, plus the model's first range error on a
    /// field that could be read.
    pub fn to_scenario(&self) -> Result<Scenario, Vec<FieldError>> {
        let (input, mut errors) = self.read();
        match Scenario::new(input) {
            Ok(s) if errors.is_empty() => Ok(s),
            Ok(_) => Err(errors),
            Err(e) => {
                let field = FormField::from_model(e.field).unwrap_or(FormField::Params);
                if !errors.iter().any(|x| x.field == field) {
                    errors.push(FieldError { field, message: e.reason.to_string() });
                }
                Err(errors)
            }
        }
    }

    /// Fills the hardware from a probe report's summary (estimator-core's
    /// [`Summary::apply`](estimator_core::report::Summary::apply)), and from the whole report when given (its
    /// interfaces: `recipe::apply_interfaces`), and returns what it took, one line each. A GPU
    /// the catalog does not know keeps the form's GPU (the page offers only catalog models), and the line says so.
    pub fn apply_report(
        &mut self,
        summary: &estimator_core::report::Summary,
        full: Option<&estimator_core::report::Report>,
    ) -> Vec<String> {
        let (mut input, _) = self.read();
        let mut said = summary.apply(&mut input);
        // The whole report, when serde reads it, as the CLI does: what only its interfaces say (GCP's TCPXO).
        if let Some(r) = full {
            estimator_core::recipe::apply_interfaces(r, &mut input, &mut said);
        }
        if !estimator_core::catalog::GPUS.iter().any(|g| g.key == input.gpu) {
            if let Some(first) = said.first_mut() {
                first.push_str(&format!("; the page keeps {} (choose the closest model)", self.gpu));
            }
            input.gpu = self.gpu.clone();
        }
        self.gpu = input.gpu;
        self.gpus_per_node = input.gpus_per_node.to_string();
        self.adapters = input.adapters_per_node.to_string();
        self.domain = input.nvlink_domain_gpus.map(|d| d.to_string()).unwrap_or_default();
        self.link_gbps = human::num(input.link_gbps, 3);
        self.fabric = input.fabric;
        self.gdr = input.gdr;
        if summary.fabric == estimator_core::report::ReportFabric::None {
            self.nodes = input.nodes.to_string();
        }
        said.extend(self.clear_measured());
        said
    }

    /// Applies a rental preset: GPU, GPUs per node, adapters, line rate, fabric and GPUDirect RDMA. Other
    /// hardware clears a measured bus bandwidth; the sentence that says so is returned.
    pub fn apply(&mut self, p: &Preset) -> Option<String> {
        let before = self.clone();
        self.gpu = p.gpu.to_string();
        self.gpus_per_node = p.gpus_per_node.to_string();
        self.domain =
            if p.nvlink_domain_gpus > p.gpus_per_node { p.nvlink_domain_gpus.to_string() } else { String::new() };
        self.adapters = p.adapters.to_string();
        self.link_gbps = human::num(p.link_gbps, 3);
        self.fabric = p.fabric;
        self.gdr = p.gdr;
        let changed =
            FormField::ALL.iter().any(|f| ScenarioForm::is_hardware(*f) && before.value(*f) != self.value(*f));
        if changed { self.clear_measured() } else { None }
    }
}

fn tokens_text(t: f64) -> String {
    // 4194304 reads better as itself than as "4.19M", and stays exact.
    if t.fract() == 0.0 && t < 1e10 { human::fixed(t, 0) } else { human::num(t, 3) }
}

fn clip(v: &str) -> &str {
    match v.char_indices().nth(MAX_TEXT) {
        Some((i, _)) => v.get(..i).unwrap_or(v),
        None => v,
    }
}

fn number(t: &str) -> Result<f64, String> {
    if t.trim().is_empty() {
        return Err("enter a value".to_string());
    }
    // The core's reader: the standard library's float parser would add 12 KB to the first load.
    estimator_core::quantity::parse_finite(t)
}

fn flag(v: &str) -> Option<bool> {
    match v.trim() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

fn percent(t: &str, min: f64) -> Result<f64, String> {
    let v = number(t.trim().trim_end_matches('%'))?;
    if v < min || v > 100.0 {
        return Err(format!("must be between {} and 100 % (got {})", human::num(min, 3), human::num(v, 3)));
    }
    Ok(v / 100.0)
}

/// Tokens per optimizer step of the first load: the reference job's ([`estimator_core::scenario::reference`]).
pub const PAGE_TOKENS_PER_STEP: f64 = estimator_core::scenario::reference::REFERENCE_TOKENS_PER_STEP;

/// MFU of the first load: the reference job's.
pub const PAGE_MFU: f64 = estimator_core::scenario::reference::REFERENCE_MFU;

/// The model-size presets of the parameters field.
pub const MODEL_SIZES: [&str; 5] = ["1B", "7B", "13B", "70B", "405B"];

/// The line-rate presets of the link field, Gb/s.
pub const LINE_RATES: [u32; 7] = [10, 25, 50, 100, 200, 400, 800];
