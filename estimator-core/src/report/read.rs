//! Reading a report's head, `schema_version` and [`Summary`]: the part a front end needs to fill a scenario. One set
//! of checks, two ways in:
//!
//! - [`check_version`] and [`read_head`] take any serde deserializer (serde_json in the CLI);
//! - [`read_fields`] takes a function that answers for a dotted path, so that the page reads the browser's own
//!   `JSON.parse` result field by field, with no JSON parser in its details worker.
//!
//! [`read_head`] collects the few values it needs into a small tree and hands them to [`read_fields`], so the two
//! accept and refuse the same documents in the same words (`Problem` words each refusal); a test below and the
//! `report_json` fuzz target hold them to it.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::error::{Problem, ReportError};
use super::schema::SCHEMA_VERSION;
use super::summary::{self, GdrSupport, ReportFabric, Summary};

/// The largest report a front end accepts, in bytes (1 MiB). The 8-GPU fixture's report
/// (`tests/fixtures/nodes/h100-ib-8x400.json`) is about 20 KB.
pub const MAX_REPORT_BYTES: usize = 1 << 20;

/// `schema_version` and the summary: what a front end needs to fill a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportHead {
    /// Always [`SCHEMA_VERSION`] once read.
    pub schema_version: u32,
    /// The summary.
    pub summary: Summary,
}

/// Checks that a document is a report of this schema version. Call it before [`read_head`] or a full
/// [`Report`](super::Report) deserialization, so that a report from another version gets this message and not a
/// missing field.
pub fn check_version<'de, D: Deserializer<'de>>(d: D) -> Result<(), ReportError> {
    let doc = Node::read(d)?;
    version(&doc.get(""), &doc.get("schema_version"))
}

/// Reads and checks `schema_version` and `summary` through serde, with [`read_fields`]'s checks; unknown keys and
/// the other sections are skipped unread. Errors name the JSON path of the bad field.
pub fn read_head<'de, D: Deserializer<'de>>(d: D) -> Result<ReportHead, ReportError> {
    let doc = Node::read(d)?;
    let summary = read_fields(|path| doc.get(path))?;
    Ok(ReportHead { schema_version: SCHEMA_VERSION, summary })
}

/// One JSON value as [`read_fields`] sees it: its kind, and its value when it is not a container.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// The key is absent.
    Missing,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// An object (`{...}`).
    Object,
    /// An array (`[...]`).
    Array,
}

impl Scalar {
    /// The kind, with its article, as an error message names it.
    fn kind(&self) -> &'static str {
        match self {
            Scalar::Missing => "nothing",
            Scalar::Null => "null",
            Scalar::Bool(_) => "a boolean",
            Scalar::Number(_) => "a number",
            Scalar::Text(_) => "a string",
            Scalar::Object => "an object",
            Scalar::Array => "an array",
        }
    }
}

/// Reads and checks a report's version and summary from its fields: the document must be an object of
/// [`SCHEMA_VERSION`] with a plausible summary ([`Summary::validate`]). `get` answers for a dotted path: `""` (the
/// document), `"schema_version"`, `"summary"`, `"summary.fabric"`, ...; a path through something that is not an
/// object is [`Scalar::Missing`].
pub fn read_fields(get: impl Fn(&str) -> Scalar) -> Result<Summary, ReportError> {
    version(&get(""), &get("schema_version"))?;
    match get("summary") {
        Scalar::Object => {}
        Scalar::Missing => return Err(ReportError::new("summary", Problem::Missing)),
        other => {
            return Err(ReportError::new("summary", Problem::WrongType { want: "an object", found: other.kind() }));
        }
    }
    let at = |key: &str| {
        let path = format!("summary.{key}");
        let value = get(&path);
        (path, value)
    };
    let summary = Summary {
        fabric: named(at("fabric"), &ReportFabric::ALL, ReportFabric::name)?,
        rdma_adapters: count(at("rdma_adapters"), None)?,
        adapter_gbps: nullable(at("adapter_gbps"), "a number or null", |v| match v {
            Scalar::Number(n) => Ok(n),
            other => Err(other),
        })?,
        ethernet_ports: count(at("ethernet_ports"), Some(0))?,
        gpus: count(at("gpus"), None)?,
        gpu_model: nullable(at("gpu_model"), "a string or null", |v| match v {
            Scalar::Text(t) => Ok(t),
            other => Err(other),
        })?,
        gdr: named(at("gdr"), &GdrSupport::ALL, GdrSupport::name)?,
        nvlink_domain_gpus: match at("nvlink_domain_gpus") {
            (_, Scalar::Missing | Scalar::Null) => None,
            field => Some(count(field, None)?),
        },
    };
    summary.validate()?;
    Ok(summary)
}

/// The document must be an object whose `schema_version` is [`SCHEMA_VERSION`].
fn version(document: &Scalar, version: &Scalar) -> Result<(), ReportError> {
    let problem = match (document, version) {
        (Scalar::Object, Scalar::Number(v)) if *v == f64::from(SCHEMA_VERSION) => return Ok(()),
        (Scalar::Object, Scalar::Missing) => Problem::NoVersion,
        (Scalar::Object, Scalar::Number(v)) => Problem::OtherVersion(*v),
        (Scalar::Object, _) => Problem::VersionNotANumber,
        _ => return Err(ReportError::new("report", Problem::NotAnObject)),
    };
    Err(ReportError::new("schema_version", problem))
}

/// One of `all`, by its JSON name.
fn named<T: Copy>((path, value): (String, Scalar), all: &[T], name: fn(T) -> &'static str) -> Result<T, ReportError> {
    let problem = match value {
        Scalar::Text(t) => match all.iter().find(|x| name(**x) == t) {
            Some(x) => return Ok(*x),
            None => Problem::UnknownName { found: t, names: all.iter().map(|x| name(*x)).collect() },
        },
        Scalar::Missing => Problem::Missing,
        other => Problem::WrongType { want: "a string", found: other.kind() },
    };
    Err(ReportError::new(path, problem))
}

/// A count ([`summary::count`]); `default` when the key is absent, where it may be.
fn count((path, value): (String, Scalar), default: Option<u32>) -> Result<u32, ReportError> {
    let problem = match (value, default) {
        (Scalar::Number(n), _) => match summary::count(n) {
            Ok(c) => return Ok(c),
            Err(p) => p,
        },
        (Scalar::Missing, Some(d)) => return Ok(d),
        (Scalar::Missing, None) => Problem::Missing,
        (other, _) => Problem::WrongType { want: "a whole number", found: other.kind() },
    };
    Err(ReportError::new(path, problem))
}

/// A value that may be absent or `null`; `take` accepts a present one or hands it back, and `want` says what it
/// should have been.
fn nullable<T>(
    (path, value): (String, Scalar),
    want: &'static str,
    take: impl FnOnce(Scalar) -> Result<T, Scalar>,
) -> Result<Option<T>, ReportError> {
    match value {
        Scalar::Missing | Scalar::Null => Ok(None),
        v => {
            take(v).map(Some).map_err(|other| ReportError::new(path, Problem::WrongType { want, found: other.kind() }))
        }
    }
}

/// A JSON document as [`read_head`] sees it: every value as a [`Scalar`], with the members of objects down to the
/// summary's fields (two levels); deeper values and array elements are skipped unread.
struct Node {
    scalar: Scalar,
    members: Vec<(String, Node)>,
}

impl Node {
    fn leaf(scalar: Scalar) -> Node {
        Node { scalar, members: Vec::new() }
    }

    /// Reads a document; the deserializer's own error (bad syntax) means it is not JSON.
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Node, ReportError> {
        Depth(2).deserialize(d).map_err(ReportError::not_json)
    }

    /// The value at a dotted path (`""` is the document). Of two members with one key the later counts, as in
    /// `JSON.parse`.
    fn get(&self, path: &str) -> Scalar {
        let mut at = self;
        for key in path.split('.').filter(|k| !k.is_empty()) {
            match at.members.iter().rev().find(|(k, _)| k == key) {
                Some((_, member)) => at = member,
                None => return Scalar::Missing,
            }
        }
        at.scalar.clone()
    }
}

/// Reads one value into a [`Node`], keeping the members of objects this many levels down.
#[derive(Clone, Copy)]
struct Depth(u8);

impl<'de> DeserializeSeed<'de> for Depth {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Depth {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Bool(b)))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Number(n as f64)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Number(n as f64)))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Number(n)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Text(s.to_owned())))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Null))
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::leaf(Scalar::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Node::leaf(Scalar::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members = Vec::new();
        match self.0.checked_sub(1) {
            Some(below) => {
                while let Some(key) = map.next_key::<String>()? {
                    members.push((key, map.next_value_seed(Depth(below))?));
                }
            }
            None => while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {},
        }
        Ok(Node { scalar: Scalar::Object, members })
    }
}

#[cfg(test)]
mod tests {
    use super::super::summary::tests::h100;
    use super::*;

    fn head(json: &str) -> Result<ReportHead, ReportError> {
        let v: serde_json::Value = serde_json::from_str(json).map_err(ReportError::not_json)?;
        check_version(&v)?;
        read_head(&v)
    }

    #[test]
    fn readers_check_the_version_first_and_name_the_bad_field() {
        let good = serde_json::json!({"schema_version": 1, "summary": h100(), "extra": [1, 2]});
        assert_eq!(head(&good.to_string()).expect("test setup").summary, h100());
        let cases = [
            ("[1,2]", "report", "expected a JSON object"),
            ("{}", "schema_version", "missing: this JSON is not a probe-cli report"),
            (r#"{"schema_version":"1"}"#, "schema_version", "must be the number 1"),
            (r#"{"schema_version":null}"#, "schema_version", "must be the number 1"),
            (r#"{"schema_version":2,"summary":{}}"#, "schema_version", "has schema version 2, and"),
            (r#"{"schema_version":1e300}"#, "schema_version", "has schema version 1e300, and"),
            (r#"{"schema_version":1}"#, "summary", "missing"),
            (
                r#"{"schema_version":1,"summary":{"fabric":"carrier-pigeon"}}"#,
                "summary.fabric",
                "expected one of `infiniband`, `roce`, `efa`, `ethernet`, `none`, found `carrier-pigeon`",
            ),
            (
                r#"{"schema_version":1,"summary":{"fabric":"roce","rdma_adapters":-1}}"#,
                "summary.rdma_adapters",
                "expected a whole number from 0, found -1",
            ),
            (
                r#"{"schema_version":1,"summary":{"fabric":"roce","rdma_adapters":"2"}}"#,
                "summary.rdma_adapters",
                "expected a whole number, found a string",
            ),
        ];
        for (json, field, words) in cases {
            let e = head(json).expect_err("an error");
            assert_eq!(e.field, field, "{json}: {e}");
            assert!(e.reason.contains(words), "{json}: {e}");
        }
        assert!(head("{not json").expect_err("an error").reason.starts_with("not JSON"));
        assert!(ReportError::too_large(2 << 20).to_string().contains("at most 1048576 bytes (1 MiB)"));
    }

    #[test]
    fn read_head_skips_what_it_does_not_need_and_takes_the_last_of_two_keys() {
        let mut summary = serde_json::to_value(h100()).expect("json");
        summary["gpus"] = 4.into();
        let text = format!(
            r#"{{"schema_version": 1, "gpus": [{{"deep": {{"deeper": [1, {{}}]}}}}], "summary": {}, "summary": {}}}"#,
            serde_json::json!({"gpus": 2}),
            summary
        );
        let h = read_head(&mut serde_json::Deserializer::from_str(&text)).expect("reads");
        assert_eq!(h.summary.gpus, 4);
        let cut = &text[..text.len() - 5];
        let e = read_head(&mut serde_json::Deserializer::from_str(cut)).expect_err("cut");
        assert!(e.reason.starts_with("not JSON"), "{e}");
    }

    /// [`read_fields`] over a serde_json value, as the page does over `JSON.parse`'s result.
    fn fields(json: &str) -> Result<Summary, ReportError> {
        let v: serde_json::Value = serde_json::from_str(json).map_err(ReportError::not_json)?;
        read_fields(|path| {
            let mut at = Some(&v);
            for part in path.split('.').filter(|p| !p.is_empty()) {
                at = at.and_then(|x| x.get(part));
            }
            match at {
                None => Scalar::Missing,
                Some(serde_json::Value::Null) => Scalar::Null,
                Some(serde_json::Value::Bool(b)) => Scalar::Bool(*b),
                Some(serde_json::Value::Number(n)) => Scalar::Number(n.as_f64().unwrap_or(f64::NAN)),
                Some(serde_json::Value::String(s)) => Scalar::Text(s.clone()),
                Some(serde_json::Value::Object(_)) => Scalar::Object,
                Some(serde_json::Value::Array(_)) => Scalar::Array,
            }
        })
    }

    #[test]
    fn the_page_reader_and_the_serde_reader_agree() {
        let good = serde_json::to_value(h100()).expect("json");
        let mut docs = vec![
            "[1]".to_string(),
            "3".to_string(),
            "{}".to_string(),
            r#"{"schema_version":"1"}"#.to_string(),
            r#"{"schema_version":null}"#.to_string(),
            r#"{"schema_version":2,"summary":{}}"#.to_string(),
            r#"{"schema_version":1}"#.to_string(),
            r#"{"schema_version":1,"summary":[]}"#.to_string(),
            r#"{"schema_version":1,"summary":null}"#.to_string(),
        ];
        let edits: Vec<(&str, serde_json::Value)> = vec![
            ("fabric", "carrier-pigeon".into()),
            ("fabric", 3.into()),
            ("fabric", "ethernet".into()),
            ("fabric", "none".into()),
            ("rdma_adapters", (-1).into()),
            ("rdma_adapters", 8.5.into()),
            ("rdma_adapters", "8".into()),
            ("rdma_adapters", 0.into()),
            ("rdma_adapters", 8.0.into()),
            ("gpus", 8.0.into()),
            ("gpus", 1e300.into()),
            ("rdma_adapters", 5000.into()),
            ("adapter_gbps", serde_json::Value::Null),
            ("adapter_gbps", "fast".into()),
            ("adapter_gbps", 1e9.into()),
            ("adapter_gbps", 0.0.into()),
            ("ethernet_ports", serde_json::Value::Null),
            ("ethernet_ports", 100.into()),
            ("gpus", 1e6.into()),
            ("gpus", true.into()),
            ("gpus", serde_json::json!({"n": 8})),
            ("gpu_model", serde_json::Value::Null),
            ("gpu_model", 7.into()),
            ("gdr", "maybe".into()),
            ("gdr", "not-supported".into()),
        ];
        for (k, val) in &edits {
            let mut s = good.clone();
            s[*k] = val.clone();
            docs.push(serde_json::json!({"schema_version": 1, "summary": s}).to_string());
        }
        for k in ["fabric", "rdma_adapters", "adapter_gbps", "ethernet_ports", "gpus", "gpu_model", "gdr"] {
            let mut s = good.clone();
            s.as_object_mut().expect("object").remove(k);
            docs.push(serde_json::json!({"schema_version": 1, "summary": s}).to_string());
        }
        docs.push(serde_json::json!({"schema_version": 1, "summary": good, "gpus": [1]}).to_string());
        for doc in &docs {
            let a = head(doc).map(|h| h.summary);
            let b = fields(doc);
            assert_eq!(a, b, "{doc}: the same verdict in the same words");
        }
    }
}
