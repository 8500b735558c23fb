//! The hardware report that `probe-cli report` writes and the page and `probe-cli estimate step --report` read.
//!
//! One definition for every reader, in five parts:
//!
//! - `schema`: [`Report`], the whole document, and its sections; [`SCHEMA_VERSION`] and [`REDACTED`].
//! - `summary`: [`Summary`], the part that maps onto the estimator's cluster inputs, with [`Summary::validate`]
//!   and [`Summary::apply`], which fills a [`ScenarioInput`](crate::ScenarioInput) and says what it took.
//! - `read`: the head readers. [`check_version`] and [`read_head`] turn any serde deserializer into a checked
//!   [`ReportHead`]; [`read_fields`] does the same checks over a function that answers for a field's path (the
//!   page's details worker, over the browser's `JSON.parse`).
//! - `readiness`: [`checks`], is the node ready (devices, locked memory, the fabric's environment variables,
//!   GPUDirect RDMA, the IOMMU, PCIe links), from the report's facts and its `environment` section.
//! - `error`: [`ReportError`], which names the refused field, with one wording of each refusal for every reader.

mod error;
mod read;
mod readiness;
mod schema;
mod summary;
#[cfg(test)]
pub(crate) mod testing;

pub use error::ReportError;
pub use read::{MAX_REPORT_BYTES, ReportHead, Scalar, check_version, read_fields, read_head};
pub use readiness::{
    CheckStatus, DeviceNode, Environment, MAX_CHECKS, ReadinessCheck, checks, hca_selects, read_readiness,
};
pub use schema::{
    Affinity, Attachment, Gdr, GidEntry, Gpu, Host, LibraryStatus, NetInterface, NvlinkFabric, PcieLink, REDACTED,
    RdmaAdapter, RdmaPort, Report, SCHEMA_VERSION, Source, VerbsDevice, VerbsGid, VerbsPort, VerbsStatus, Warning,
};
pub use summary::{GdrSupport, ReportFabric, Summary};
