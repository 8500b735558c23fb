//! estimator-core: a pure model of one distributed-training step, for deciding whether a job needs a fast fabric.
//!
//! It computes the gradient bytes, the ring all-reduce factor 2(N-1)/N, the bytes through each participant's link,
//! the reference lower bound (bytes / one adapter's line rate), a realistic all-reduce time from the bottleneck bus
//! bandwidth (intra-node NVLink/xGMI/PCIe, or adapters x line rate x fabric efficiency), bucketed synchronisation,
//! compute, overlap, memory fit, and a single-node vs multi-node recommendation.
//!
//! What it is not: a simulator of NCCL's algorithm choice, of congestion or of pipeline/tensor parallelism. It does no
//! I/O, reads no clock, has no `unsafe` and no platform `cfg`, and builds for `wasm32-unknown-unknown` as well as
//! native. Inputs are validated once by [`Scenario::new`]; every function that takes a [`Scenario`] is then total.
//!
//! ```
//! use estimator_core::{Scenario, ScenarioInput, estimate};
//! let a = Scenario::new(ScenarioInput { link_gbps: 25.0, ring_factor: Some(2.0), ..Default::default() }).unwrap();
//! let e = estimate(&a);
//! assert!((e.step.lower_bound_s.as_secs() - 8.96).abs() < 1e-9);
//! ```

pub mod accuracy;
pub mod catalog;
pub mod collective;
pub mod estimate;
pub mod fabric;
pub mod fleet;
pub mod health;
pub mod human;
pub mod import;
pub mod layout;
pub mod memory;
pub mod offer;
pub mod plan;
pub mod quantity;
pub mod recommend;
pub mod report;
pub mod run_check;
pub mod scenario;
pub mod schedule;
pub mod shape;
pub mod step;
pub mod straggler;
pub mod sweep;
pub mod terms;
pub mod traffic;
pub mod units;

pub use catalog::{GpuSpec, IntraNodeLink};
pub use collective::{AllReduceEstimate, Bottleneck, allreduce};
pub use estimate::{Estimate, estimate, estimate_brief, estimate_without_layout_advice};
pub use fabric::Fabric;
pub use memory::MemoryFit;
pub use recommend::{Recommendation, RecommendationKind};
pub use report::{Report, ReportError, ReportHead, Summary};
pub use scenario::{
    Algorithm, ComputeInput, Field, GradDtype, Reason, Scenario, ScenarioError, ScenarioInput, SyncStrategy,
};
pub use step::{LowerBound, StepEstimate, estimate_step, lower_bound, reference_lower_bound};
pub use sweep::{Comparison, SweepPoint, compare, compare_estimates, sweep_line_rate, sweep_nodes};
pub use units::{Bytes, GbitPerSec, GbytePerSec, Seconds, TflopPerSec};
