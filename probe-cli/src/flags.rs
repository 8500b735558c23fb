//! The scenario's flags, built from the core's table of inputs ([`INPUTS`]): one flag per entry that has one, with the entry's help,
//! read with the entry's own reader and written into a `ScenarioInput` by the entry's own setter. The commands take
//! them in groups by the entry's role: [`HardwareFlags`] (the hardware and the overrides of the collectives),
//! [`JobFlags`] (the model, its layout and the frameworks' settings) and [`ComputeFlags`] (the compute per step).
//! The node count is each command's own flag (`health` reads it from the run when not given), with the table's help.
//!
//! What the table does not say is spelled here, each once: the flags that exclude each other (a `--model` brings
//! its parameter count; `--compute-ms` replaces `--tokens-per-step` and `--mfu`), how a switch is written (by its
//! presence; `--no-gdr` turns GPUDirect RDMA off; Megatron's two overlap settings take `true|false`, as its
//! config does), and the defaults the command line shows.

use std::marker::PhantomData;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use estimator_core::scenario::inputs::{INPUTS, Input, Kind, Notation, Role, Value};
use estimator_core::{Field, ScenarioInput, human};

/// Which roles a group of flags holds.
pub trait Roles {
    /// Whether the group holds inputs of `role`.
    fn holds(role: Role) -> bool;
}

/// The hardware and the overrides of how its collectives are modelled.
#[derive(Debug)]
pub struct Hardware;
/// The job.
#[derive(Debug)]
pub struct Job;
/// The compute per step.
#[derive(Debug)]
pub struct Compute;

impl Roles for Hardware {
    fn holds(role: Role) -> bool {
        matches!(role, Role::Hardware | Role::Tuning)
    }
}
impl Roles for Job {
    fn holds(role: Role) -> bool {
        role == Role::Job
    }
}
impl Roles for Compute {
    fn holds(role: Role) -> bool {
        role == Role::Compute
    }
}

/// The flags of one group that the user gave, as values of their inputs.
#[derive(Debug)]
pub struct Flags<R> {
    given: Vec<(&'static Input, Value)>,
    roles: PhantomData<R>,
}

/// `--gpu`, `--adapters`, `--link-gbps`, `--fabric`, ... and `--link-efficiency`, `--latency-us`,
/// `--measured-busbw-gbs`.
pub type HardwareFlags = Flags<Hardware>;
/// `--params`, `--model`, `--sync`, `--tp`, ...
pub type JobFlags = Flags<Job>;
/// `--compute-ms`, or `--tokens-per-step` and `--mfu`.
pub type ComputeFlags = Flags<Compute>;

impl<R: Roles> Flags<R> {
    /// The inputs of this group that have a flag.
    fn inputs() -> impl Iterator<Item = &'static Input> {
        INPUTS.iter().filter(|i| R::holds(i.role) && i.flag.get().is_some())
    }

    /// The value given for `field`, if its flag was given.
    pub fn get(&self, field: Field) -> Option<&Value> {
        self.given.iter().find(|(i, _)| i.field == field).map(|(_, v)| v)
    }

    /// A whole number given for `field`.
    pub fn count(&self, field: Field) -> Option<i64> {
        match self.get(field) {
            Some(Value::Count(v)) => Some(*v),
            _ => None,
        }
    }

    /// Writes every value given into `input`, except those `skip` names.
    pub fn apply_except(&self, input: &mut ScenarioInput, skip: impl Fn(&Input) -> bool) {
        for (i, v) in self.given.iter().filter(|(i, _)| !skip(i)) {
            // The value came from the entry's own reader, which gives only what its writer takes (a test in the
            // table, `every_value_read_is_one_the_entry_writes`): this cannot fail.
            let _ = i.set(input, v);
        }
    }

    /// Writes every value given into `input`.
    pub fn apply(&self, input: &mut ScenarioInput) {
        self.apply_except(input, |_| false);
    }
}

/// Every flag `estimate step --reference` cannot be given with: the scenario's, which the reference question
/// fixes, but `--overlap` (what the frameworks hide, asked of the same question: `make estimate ARGS="--overlap
/// 0.5"`), and `extra` (the report, the comparison flags).
pub fn reference_conflicts(extra: &[&str]) -> Vec<String> {
    INPUTS
        .iter()
        .filter(|i| i.field != Field::Overlap)
        .filter_map(|i| i.flag.get())
        .map(id)
        .chain(extra.iter().map(|e| e.to_string()))
        .collect()
}

/// The flag's id in clap (the key with `_`, as clap derive names a field): `--gpus-per-node` is `gpus_per_node`.
/// Other flags name these ids in `conflicts_with`.
pub fn id(flag: &str) -> String {
    flag.replace('-', "_")
}

/// Whether a switch takes `true|false` (Megatron's overlap settings, written as its config writes them) rather
/// than being set by its presence.
fn takes_bool(i: &Input) -> bool {
    matches!(i.field, Field::OverlapGradReduce | Field::OverlapParamGather)
}

/// The default the command line shows: the model's default input on one node; none where not giving the flag
/// means something else (`--sync`: a layout chosen; `--adapters` and `--link-gbps`: required on several nodes).
fn shown_default(i: &Input) -> Option<String> {
    if i.optional || matches!(i.field, Field::Sync | Field::AdaptersPerNode | Field::LinkGbps | Field::Nodes) {
        return (i.field == Field::Nodes).then(|| "1".to_string());
    }
    Some(match (i.kind, i.default_value()) {
        (_, Value::Count(v)) => v.to_string(),
        (Kind::Number { notation: Notation::Bytes, .. }, Value::Number(v)) => {
            human::binary(estimator_core::Bytes::new(v))
        }
        (Kind::Number { notation: Notation::Count, .. }, Value::Number(v)) => human::params(v),
        (_, Value::Number(v)) => human::num(v, 3),
        (_, Value::Switch(true)) if takes_bool(i) => "true".to_string(),
        (_, Value::Switch(_)) => return None,
        (_, Value::Text(t)) => t,
        (_, Value::Unset) => return None,
    })
}

fn value_name(i: &Input) -> String {
    match i.kind {
        Kind::Count { .. } => "N".to_string(),
        Kind::Number { notation: Notation::Count, .. } => "COUNT".to_string(),
        Kind::Number { notation: Notation::Bytes, .. } => "SIZE".to_string(),
        Kind::Number { notation: Notation::Gbps, .. } => "GBPS".to_string(),
        Kind::Number { .. } | Kind::Share { .. } => id(i.flag.get().unwrap_or("value")).to_ascii_uppercase(),
        Kind::Choice { names } => names.join("|"),
        Kind::Switch => "true|false".to_string(),
        Kind::Text => "NAME".to_string(),
    }
}

/// The clap argument of one entry.
fn arg(i: &'static Input) -> Arg {
    let flag = i.flag.get().unwrap_or_default();
    let mut help = i.help.to_string();
    if let Some(d) = shown_default(i) {
        help.push_str(&format!(" [default: {d}]"));
    }
    let arg = Arg::new(id(flag)).long(flag).help(help);
    let arg = match i.kind {
        Kind::Switch if !takes_bool(i) => return arg.action(ArgAction::SetTrue),
        Kind::Switch => arg.num_args(0..=1).default_missing_value("true"),
        // A minus sign reaches the reader, which says what is wrong with the value (`--params -7B`); a count or
        // a plain number takes a negative number as its value, so `--tp --pp 2` still says --tp has none.
        Kind::Number { notation: Notation::Count | Notation::Gbps, .. } => arg.allow_hyphen_values(true),
        Kind::Count { .. } | Kind::Number { .. } | Kind::Share { .. } => arg.allow_negative_numbers(true),
        Kind::Choice { .. } | Kind::Text => arg,
    };
    let arg = arg.value_name(value_name(i)).action(ArgAction::Set).value_parser(move |s: &str| i.parse(s));
    match i.field {
        // A model brings its own parameter count.
        Field::Params => arg.conflicts_with("model"),
        // A compute time given replaces the one derived from tokens.
        // With --compute-ms, --tokens-per-step is the global batch (its micro-batches), as in check-run.
        Field::ComputeMs => arg.conflicts_with("mfu"),
        _ => arg,
    }
}

impl<R: Roles> Args for Flags<R> {
    fn augment_args(cmd: Command) -> Command {
        Self::inputs().fold(cmd, |cmd, i| cmd.arg(arg(i)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<R: Roles> FromArgMatches for Flags<R> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for i in Self::inputs() {
            let key = id(i.flag.get().unwrap_or_default());
            if m.value_source(&key) != Some(ValueSource::CommandLine) {
                continue;
            }
            let value = match i.kind {
                Kind::Switch if !takes_bool(i) => {
                    // `--no-gdr` turns it off; the others turn theirs on.
                    let negated = i.flag.get().is_some_and(|f| f.starts_with("no-"));
                    Value::Switch(m.get_flag(&key) != negated)
                }
                _ => match m.get_one::<Value>(&key) {
                    Some(v) => v.clone(),
                    None => continue,
                },
            };
            given.push((i, value));
        }
        Ok(Flags { given, roles: PhantomData })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
