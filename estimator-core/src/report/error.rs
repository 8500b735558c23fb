//! Why a reader refuses a report: [`ReportError`] names the field, and `Problem` words the reason, once for
//! every reader (the CLI's serde reader, the page's field reader and the full [`Report`](super::Report)'s counts).

use serde::Serialize;

use super::read::MAX_REPORT_BYTES;
use super::schema::SCHEMA_VERSION;
use super::summary::ReportFabric;
use crate::human;
use crate::scenario::limits::{
    MAX_ADAPTERS_PER_NODE, MAX_GPUS_PER_NODE, MAX_LINK_GBPS, MAX_NVLINK_DOMAIN_GPUS, MIN_LINK_GBPS,
};

/// A report field a reader rejected, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ReportError {
    /// The JSON path of the field (`summary.adapter_gbps`), or `report` for the document as a whole.
    pub field: String,
    /// What is wrong with it, in words.
    pub reason: String,
}

impl ReportError {
    /// The field at `field` has `problem`.
    pub(crate) fn new(field: impl Into<String>, problem: Problem) -> Self {
        ReportError { field: field.into(), reason: problem.to_string() }
    }

    /// The document is larger than [`MAX_REPORT_BYTES`].
    pub fn too_large(len: usize) -> Self {
        ReportError::new("report", Problem::TooLarge(len))
    }

    /// The document is not JSON at all; `detail` is the parser's message.
    pub fn not_json(detail: impl std::fmt::Display) -> Self {
        ReportError::new("report", Problem::NotJson(detail.to_string()))
    }

    /// The file has nothing in it (or only white space): the probe wrote nothing, which a JSON parser calls an
    /// unexpected end of input.
    pub fn empty() -> Self {
        ReportError::new("report", Problem::Empty)
    }

    /// Whether `text` is empty or white space only: a report the probe did not write.
    pub fn is_empty_text(text: &[u8]) -> bool {
        text.iter().all(u8::is_ascii_whitespace)
    }
}

/// What is wrong with a report or one of its fields: the one place each refusal is worded. Numbers echoed back are
/// written with [`human::sig`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum Problem {
    #[error(
        "the file is {0} bytes; a probe-cli report is at most {MAX_REPORT_BYTES} bytes (1 MiB), so this is not one"
    )]
    TooLarge(usize),
    #[error("not JSON ({0}); expected the output of `probe-cli report --json`")]
    NotJson(String),
    #[error(
        "the file is empty: the probe wrote nothing (run `probe-cli report --json > node.json` again and check that \
         it exits 0)"
    )]
    Empty,
    #[error("expected a JSON object (the output of `probe-cli report --json`)")]
    NotAnObject,
    #[error("missing: this JSON is not a probe-cli report (run `probe-cli report --json > node.json`)")]
    NoVersion,
    #[error("must be the number {SCHEMA_VERSION}")]
    VersionNotANumber,
    #[error(
        "this report has schema version {}, and this version of the estimator reads version {SCHEMA_VERSION}; use \
         the probe-cli release that matches the page",
        human::sig(*.0, 6)
    )]
    OtherVersion(f64),
    #[error("missing")]
    Missing,
    /// A value of the wrong JSON type: `want` and `found` are kinds with their article (`a string`, `null`).
    #[error("expected {want}, found {found}")]
    WrongType { want: &'static str, found: &'static str },
    /// A string that is not one of the schema's names for the field.
    #[error("expected one of `{}`, found `{found}`", names.join("`, `"))]
    UnknownName { found: String, names: Vec<&'static str> },
    #[error("expected a whole number from 0, found {}", human::sig(*.0, 6))]
    NotWhole(f64),
    #[error("{0} GPUs in one node is not plausible (at most {MAX_GPUS_PER_NODE})")]
    TooManyGpus(u32),
    #[error("{0} ports in one node is not plausible (at most {MAX_ADAPTERS_PER_NODE})")]
    TooManyPorts(u32),
    #[error(
        "{} Gb/s is not a line rate (between {} and {} Gb/s)",
        human::sig(*.0, 6),
        human::num(MIN_LINK_GBPS, 3),
        human::num(MAX_LINK_GBPS, 3)
    )]
    NotALineRate(f64),
    #[error("is not a GPU name (over 200 characters or control characters)")]
    NotAGpuName,
    #[error("is 0, but fabric is \"{}\", which needs an active RDMA port", .0.name())]
    NoActivePort(ReportFabric),
    #[error("is missing, but fabric is \"{}\" with active ports", .0.name())]
    NoLineRate(ReportFabric),
    #[error(
        "{domain} GPUs is not an NVLink domain of nodes of {gpus} GPUs (a multiple of them, at most \
         {MAX_NVLINK_DOMAIN_GPUS})"
    )]
    NotADomain { domain: u32, gpus: u32 },
}
