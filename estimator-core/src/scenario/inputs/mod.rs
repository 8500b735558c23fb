//! Every scenario input, defined once.
//!
//! [`INPUTS`] is one table with an entry for each input of a [`ScenarioInput`]: the [`Field`] its errors name, its
//! JSON path, its CLI flag, its key in the page's URL, what it describes ([`Role`]: the hardware, the node count,
//! an override of the collectives, the job or its compute), its [`Kind`] with its unit and bounds, a label, a help
//! text, and how to read it from a `ScenarioInput` (`write`, beside the table, writes it). The core's range
//! checks ([`super::Scenario::new`]), what counts as hardware ([`super::Scenario::with`] and the page), probe-cli's
//! scenario flags and their mapping, and the page's URL keys, labels and form fields are built from it. Adding an
//! input is one entry here and one arm of `write`, plus its use in the model; a test here fails when a
//! `ScenarioInput` key has no entry or an entry no writer, and one in each front end when it misses an entry.

use super::error::{Reason, count, range};
use super::{Algorithm, Field, GradDtype, ScenarioError};
use super::{ScenarioInput, SyncStrategy};
use crate::catalog::IntraNodeLink;
use crate::fabric::Fabric;
use crate::quantity::{parse_bytes, parse_count, parse_finite, parse_gbps, parse_whole};

/// A help text, kept where a front end shows it: with the `help` feature (probe-cli's flags). The page shows its
/// labels, and without the feature the texts stay out of its first load.
macro_rules! help {
    ($text:literal) => {
        if cfg!(feature = "help") { $text } else { "" }
    };
}

mod table;
mod write;

pub use table::INPUTS;
use write::write;

/// What an input describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The nodes' hardware (GPU, adapters, fabric, NCCL's algorithm): a rental preset sets it, and a measured bus
    /// bandwidth belongs to it.
    Hardware,
    /// How many nodes: a measured bus bandwidth belongs to it too.
    Nodes,
    /// An override of how the collectives are modelled (adapter efficiency, latency, a measured bus bandwidth).
    Tuning,
    /// The job: the model, its layout, the frameworks' settings.
    Job,
    /// The job's compute per optimizer step.
    Compute,
}

impl Role {
    /// Whether a measured bus bandwidth belongs to inputs of this role: the hardware and the node count it was
    /// measured on. Changing one drops the measurement (`Scenario::with`, the page's form).
    pub fn measured_on(self) -> bool {
        matches!(self, Role::Hardware | Role::Nodes)
    }
}

/// How a number is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// A plain number: `0.4`, `1e3`.
    Plain,
    /// A count with a suffix: `7B`, `4Mi`, `1.5T` ([`parse_count`]).
    Count,
    /// Bytes with a unit: `25MiB`, `8GB` ([`parse_bytes`]).
    Bytes,
    /// A line rate in Gb/s: `400`, `400G`, `100GbE` ([`parse_gbps`]).
    Gbps,
}

/// The kind of an input's value, with its bounds.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `min..=max`. Parallel degrees are checked again against the job's GPUs
    /// (`layout::resolve`), the NVLink domain against the node (`Scenario::new`).
    Count {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A real number in `min..=max`, written in `unit` (in errors: ` Gb/s`).
    Number {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
        /// The unit after a value, with its leading space (empty for none).
        unit: &'static str,
        /// How it is written.
        notation: Notation,
    },
    /// A share in `min..=max` of 1 (the page shows it in percent).
    Share {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// One of a list of names (a test holds them to the type's own names).
    Choice {
        /// The names, as JSON writes them, in the order a user interface lists them.
        names: &'static [&'static str],
    },
    /// On or off.
    Switch,
    /// Free text (a GPU name, a model of the shape catalog), checked by the model.
    Text,
}

/// An input's value, as the table reads and writes it. Choices are their JSON names.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An optional input that is not set (the model's own figure).
    Unset,
    /// A whole number.
    Count(i64),
    /// A real number (a share is 0..1).
    Number(f64),
    /// A switch.
    Switch(bool),
    /// A name or a text.
    Text(String),
}

impl Value {
    fn count(&self) -> Option<i64> {
        match self {
            Value::Count(v) => Some(*v),
            _ => None,
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Value::Number(v) => Some(*v),
            // A whole number where a real one is wanted reads as one.
            Value::Count(v) => Some(*v as f64),
            _ => None,
        }
    }

    fn switch(&self) -> Option<bool> {
        match self {
            Value::Switch(v) => Some(*v),
            _ => None,
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Value::Text(v) => Some(v),
            _ => None,
        }
    }
}

/// Where an input is named in a front end: its key there (`link-gbps`, `link`), or why that front end has
/// none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The key.
    At(&'static str),
    /// Why there is none (empty without the `help` feature).
    Not(&'static str),
}

impl Key {
    /// The key, if there is one.
    pub fn get(self) -> Option<&'static str> {
        match self {
            Key::At(k) => Some(k),
            Key::Not(_) => None,
        }
    }
}

/// A value of the wrong kind for an input (`Input::set`): a front end's mistake, not a user's.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {value:?} is not a value of this input")]
pub struct WrongKind {
    /// The input.
    pub field: Field,
    /// What was given.
    pub value: Value,
}

/// One input of a scenario.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    /// The field its errors name ([`Field::key`] is its key there).
    pub field: Field,
    /// Its path in a `ScenarioInput`'s JSON (`compute.ms` inside the compute object).
    pub json: &'static str,
    /// Its probe-cli flag, without `--`, or why no flag sets it.
    pub flag: Key,
    /// Its key in the page's URL (`a.link=25`) and element ids (`a-link`), or why the page has no field for it.
    pub url: Key,
    /// What it describes.
    pub role: Role,
    /// Whether a probe report's summary sets it (`Summary::apply`), so that `--report` replaces its flag.
    pub from_report: bool,
    /// Its kind and bounds.
    pub kind: Kind,
    /// Whether it may be unset (`None` in the input, an empty field on the page): the model's own figure.
    pub optional: bool,
    /// A short label, as the page's form shows it.
    pub label: &'static str,
    /// What it is, in a sentence or two (the CLI's help); empty without the `help` feature.
    pub help: &'static str,
    get: fn(&ScenarioInput) -> Value,
}

impl Input {
    /// The value in `input`.
    pub fn get(&self, input: &ScenarioInput) -> Value {
        (self.get)(input)
    }

    /// Writes `value` into `input`, unchecked (the model checks it); a value of another kind is refused.
    pub fn set(&self, input: &mut ScenarioInput, value: &Value) -> Result<(), WrongKind> {
        let unset_ok = self.optional || !matches!(value, Value::Unset);
        match unset_ok.then(|| write(self.field, input, value)).flatten() {
            Some(()) => Ok(()),
            None => Err(WrongKind { field: self.field, value: value.clone() }),
        }
    }

    /// The value of the model's default input ([`ScenarioInput::default`]).
    pub fn default_value(&self) -> Value {
        self.get(&ScenarioInput::default())
    }

    /// Reads text as users type it (a flag's argument, a form field, a URL value) into a value of this input,
    /// without the bounds (the model checks them, [`Input::check`]). Empty text is `Unset` for an optional input.
    /// The error is the reason, without the field's name.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let t = text.trim();
        if t.is_empty() {
            return if self.optional { Ok(Value::Unset) } else { Err("enter a value".to_string()) };
        }
        match self.kind {
            Kind::Count { .. } => parse_whole(t).map(Value::Count),
            Kind::Number { notation, .. } => {
                let v = match notation {
                    Notation::Plain => parse_finite(t),
                    Notation::Count => parse_count(t).map_err(|e| e.to_string()),
                    Notation::Bytes => parse_bytes(t).map_err(|e| e.to_string()),
                    Notation::Gbps => parse_gbps(t).map_err(|e| e.to_string()),
                }?;
                Ok(Value::Number(v))
            }
            Kind::Share { .. } => parse_finite(t).map(Value::Number),
            Kind::Choice { names } => choice(self.field, t)
                .map(|n| Value::Text(n.to_string()))
                .ok_or_else(|| format!("unknown value (use {})", names.join(", "))),
            Kind::Switch => match t.to_ascii_lowercase().as_str() {
                "1" | "true" | "on" | "yes" => Ok(Value::Switch(true)),
                "0" | "false" | "off" | "no" => Ok(Value::Switch(false)),
                _ => Err("must be true or false".to_string()),
            },
            Kind::Text => Ok(Value::Text(t.to_string())),
        }
    }

    /// Checks the value in `input` against this input's bounds, with the error the model gives. Two rules of
    /// the model stay beside the bounds, where the old checks had them: a job of several nodes needs an adapter
    /// (checked with the adapters), and only HSDP has a shard group (`layout::resolve` checks it against the
    /// data-parallel degree).
    pub fn check(&self, input: &ScenarioInput) -> Result<(), ScenarioError> {
        if self.field == Field::ShardGroup && input.sync != SyncStrategy::Hsdp {
            return Ok(());
        }
        if self.field == Field::AdaptersPerNode && input.nodes > 1 && input.adapters_per_node == 0 {
            return Err(ScenarioError { field: self.field, reason: Reason::NeedsAdapters });
        }
        match (self.kind, self.get(input)) {
            (Kind::Count { min, max }, Value::Count(v)) => count(self.field, v, min, max).map(|_| ()),
            (Kind::Number { min, max, unit, .. }, Value::Number(v)) => range(self.field, v, min, max, unit).map(|_| ()),
            (Kind::Share { min, max }, Value::Number(v)) => range(self.field, v, min, max, "").map(|_| ()),
            _ => Ok(()),
        }
    }
}

/// The entry of `field`, if it is a scenario input.
pub fn input(field: Field) -> Option<&'static Input> {
    INPUTS.iter().find(|i| i.field == field)
}

/// The entry whose URL key on the page is `key`.
pub fn by_url(key: &str) -> Option<&'static Input> {
    INPUTS.iter().find(|i| i.url.get() == Some(key))
}

/// Checks every input of `input` against its bounds, in the table's order: the model's range checks.
pub fn check_all(input: &ScenarioInput) -> Result<(), ScenarioError> {
    INPUTS.iter().try_for_each(|i| i.check(input))
}

/// Whether `a` and `b` describe the same hardware and node count: what a measured bus bandwidth belongs to.
pub fn same_measured_on(a: &ScenarioInput, b: &ScenarioInput) -> bool {
    INPUTS.iter().filter(|i| i.role.measured_on()).all(|i| i.get(a) == i.get(b))
}

/// A choice as users type it (`ib`, `fsdp`, `ms`) into its JSON name.
fn choice(field: Field, s: &str) -> Option<&'static str> {
    match field {
        Field::Framework => crate::scenario::Framework::parse(s).map(crate::scenario::Framework::name),
        Field::Dtype => GradDtype::parse(s).map(GradDtype::name),
        Field::Sync => SyncStrategy::parse(s).map(SyncStrategy::name),
        Field::IntraNode => IntraNodeLink::parse(s).map(IntraNodeLink::name),
        Field::Fabric => Fabric::parse(s).map(Fabric::name),
        Field::Algorithm => Algorithm::parse(s).map(Algorithm::name),
        Field::Compute => match s.trim().to_ascii_lowercase().as_str() {
            "tokens" => Some("tokens"),
            "given" | "ms" => Some("given"),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::scenario::ComputeInput;

    /// The keys of a `ScenarioInput` as it serializes, nested ones as `parent.key`, with both kinds of compute.
    fn json_keys() -> BTreeSet<String> {
        let mut keys = BTreeSet::new();
        for compute in [ComputeInput::Given { ms: 1.0 }, ComputeInput::default()] {
            let input = ScenarioInput { compute, ..ScenarioInput::default() };
            let v = serde_json::to_value(&input).expect("serializes");
            for (k, v) in v.as_object().expect("an object") {
                match v.as_object() {
                    Some(inner) => keys.extend(inner.keys().map(|i| format!("{k}.{i}"))),
                    None => {
                        keys.insert(k.clone());
                    }
                }
            }
        }
        keys
    }

    #[test]
    fn every_scenario_input_key_has_one_entry() {
        let keys = json_keys();
        let table: BTreeSet<String> = INPUTS.iter().map(|i| i.json.to_string()).collect();
        assert_eq!(table.len(), INPUTS.len(), "an input is in the table twice");
        assert_eq!(keys, table, "ScenarioInput's JSON keys and the table's differ: add an entry (or remove one)");
        let fields: BTreeSet<&str> = INPUTS.iter().map(|i| i.field.key()).collect();
        assert_eq!(fields.len(), INPUTS.len(), "two entries name one field");
        let urls: Vec<&str> = INPUTS.iter().filter_map(|i| i.url.get()).collect();
        assert_eq!(urls.iter().collect::<BTreeSet<_>>().len(), urls.len(), "two entries share a URL key");
        let flags: Vec<&str> = INPUTS.iter().filter_map(|i| i.flag.get()).collect();
        assert_eq!(flags.iter().collect::<BTreeSet<_>>().len(), flags.len(), "two entries share a flag");
    }

    /// Each entry reads and writes its own field: setting a value changes what `get` returns and nothing the
    /// other entries read (the compute's three entries share one object, so they are left out of the second).
    #[test]
    fn get_and_set_are_one_field_each() {
        let other = |i: &Input| -> Value {
            match (i.kind, i.default_value()) {
                (Kind::Count { min, .. }, Value::Count(v)) => Value::Count(if v == min { min + 1 } else { min }),
                (Kind::Count { min, .. }, Value::Unset) => Value::Count(min + 1),
                (Kind::Number { min, .. } | Kind::Share { min, .. }, Value::Number(v)) => {
                    Value::Number(if v == min { min * 2.0 + 0.5 } else { min })
                }
                (Kind::Number { min, .. } | Kind::Share { min, .. }, Value::Unset) => Value::Number(min + 0.25),
                (Kind::Switch, Value::Switch(b)) => Value::Switch(!b),
                (Kind::Choice { names, .. }, v) => {
                    let n = names.iter().find(|n| Value::Text((*n).to_string()) != v).expect("two names");
                    Value::Text(n.to_string())
                }
                (Kind::Text, _) => Value::Text("llama-3.1-8b".to_string()),
                (k, v) => panic!("{:?}: {k:?} with {v:?}", i.field),
            }
        };
        for i in &INPUTS {
            let mut input = ScenarioInput::default();
            let v = other(i);
            i.set(&mut input, &v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(i.get(&input), v, "{:?}", i.field);
            if !i.optional {
                assert!(i.set(&mut input.clone(), &Value::Unset).is_err(), "{:?} is not optional", i.field);
            }
            if i.role == Role::Compute {
                continue;
            }
            for j in INPUTS.iter().filter(|j| j.field != i.field && j.role != Role::Compute) {
                assert_eq!(j.get(&input), j.default_value(), "setting {:?} changed {:?}", i.field, j.field);
            }
            if i.optional {
                i.set(&mut input, &Value::Unset).expect("unset");
                assert_eq!(i.get(&input), Value::Unset, "{:?}", i.field);
            } else {
                assert!(i.set(&mut input, &Value::Unset).is_err(), "{:?} is not optional", i.field);
            }
        }
    }

    /// The model reports the first error in the order its checks always had: the adapters of a multi-node job
    /// before the line rate, the adapters before the NVLink domain; a shard group only under HSDP.
    #[test]
    fn errors_come_in_the_models_order() {
        use crate::scenario::Scenario;
        let first = |i: ScenarioInput| Scenario::new(i).err().map(|e| (e.field, e.reason));
        let two = ScenarioInput { nodes: 2, adapters_per_node: 0, link_gbps: 0.0, ..ScenarioInput::default() };
        assert_eq!(first(two), Some((Field::AdaptersPerNode, Reason::NeedsAdapters)));
        let both = ScenarioInput { nvlink_domain_gpus: Some(0), adapters_per_node: -1, ..ScenarioInput::default() };
        assert_eq!(first(both).map(|e| e.0), Some(Field::AdaptersPerNode));
        let ddp = ScenarioInput { sync: SyncStrategy::Ddp, shard_group: Some(0), ..ScenarioInput::default() };
        assert_eq!(first(ddp), None, "a shard group means nothing without HSDP");
        let hsdp = ScenarioInput { sync: SyncStrategy::Hsdp, shard_group: Some(0), ..ScenarioInput::default() };
        assert_eq!(first(hsdp).map(|e| e.0), Some(Field::ShardGroup));
    }

    /// What an entry's reader gives, its writer takes: a front end that reads with `parse` and writes with `set`
    /// (probe-cli's flags) never meets `WrongKind`.
    #[test]
    fn every_value_read_is_one_the_entry_writes() {
        for i in &INPUTS {
            let mut texts = vec!["", "1", "2.5", "7B", "true", "off", "h100", "-3"];
            if let Kind::Choice { names } = i.kind {
                texts.extend(names.iter().copied());
            }
            for t in texts {
                if let Ok(v) = i.parse(t) {
                    let mut input = ScenarioInput::default();
                    assert!(i.set(&mut input, &v).is_ok(), "{:?} reads '{t}' as {v:?} but does not write it", i.field);
                }
            }
        }
    }

    #[test]
    fn text_reads_as_each_kind_says() {
        let of = |f: Field| input(f).expect("an input");
        assert_eq!(of(Field::Params).parse("7B"), Ok(Value::Number(7e9)));
        assert_eq!(of(Field::LinkGbps).parse("400G"), Ok(Value::Number(400.0)));
        assert_eq!(of(Field::BucketBytes).parse("25MiB"), Ok(Value::Number(25.0 * 1024.0 * 1024.0)));
        assert_eq!(of(Field::Nodes).parse(" 4 "), Ok(Value::Count(4)));
        assert!(of(Field::Nodes).parse("2.5").expect_err("not whole").contains("whole number"));
        assert_eq!(of(Field::Fabric).parse("ib"), Ok(Value::Text("infiniband".into())));
        assert!(of(Field::Fabric).parse("token-ring").expect_err("unknown").contains("infiniband, roce"));
        assert_eq!(of(Field::Etp).parse(""), Ok(Value::Unset));
        assert_eq!(of(Field::Nodes).parse("").expect_err("needed"), "enter a value");
        assert_eq!(of(Field::Gdr).parse("off"), Ok(Value::Switch(false)));
        assert!(of(Field::Mfu).parse("NaN").is_err());
        assert_eq!(of(Field::ComputeMs).parse("").expect_err("needed"), "enter a value");
    }

    /// The model's range checks are the table's bounds: a value just outside each numeric input's bounds is
    /// refused by `Scenario::new`, naming that input's field, and its bound just inside is not refused for it.
    #[test]
    fn the_model_refuses_what_the_bounds_refuse() {
        for i in &INPUTS {
            let outside = match i.kind {
                Kind::Count { min, .. } => Value::Count(min - 1),
                Kind::Number { min, .. } | Kind::Share { min, .. } if min > 0.0 => Value::Number(min / 2.0),
                Kind::Number { max, .. } | Kind::Share { max, .. } => Value::Number(max * 2.0),
                _ => continue,
            };
            // A shard group is HSDP's.
            let mut input = ScenarioInput { sync: SyncStrategy::Hsdp, ..ScenarioInput::default() };
            i.set(&mut input, &outside).expect("the right kind");
            let e = super::super::Scenario::new(input).expect_err("outside the bounds");
            assert_eq!(e.field, i.field, "{:?}: {e}", i.field);
        }
    }
}
