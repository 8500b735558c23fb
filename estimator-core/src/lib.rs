//! estimator-core: a pure model of one distributed-training step, for deciding whether a job needs a fast fabric.
//!
//! What it models: the step of a job in a layout (DDP, ZeRO-1/2, ZeRO-3/FSDP, HSDP, with tensor, pipeline and
//! expert parallelism placed as megatron-core places them, [`layout`]), every collective of that step timed at its
//! size as NCCL's own cost model would run it ([`collective`], NCCL's tuning tables with their source lines), on the
//! node's links and the fabric's adapters ([`fabric`], [`catalog`]); what the frameworks' schedule hides behind
//! compute ([`schedule`]), the pipeline bubble, the wait for the slowest rank ([`straggler`]), the memory fit
//! ([`memory`]), the step's range from its out-of-source accuracy ([`accuracy`]), and the reference arithmetic
//! beside it (2 x the gradient bytes through one adapter's line rate). On top: the recommendation (one node or
//! several, the smallest fabric, the layout, [`recommend`]), the rental plan over node offers ([`plan`],
//! [`offer`]), the check of a measured run ([`run_check`]) and of a measured nccl-tests curve ([`health`]), the
//! readers of tool outputs ([`import`]), the probe report's schema and readiness ([`report`]) and the fleet
//! ([`fleet`]). Every scenario input is defined once, in [`scenario::inputs`].
//!
//! What it is not: a packet-level simulator (no congestion, no topology beyond nodes, NVLink domains and
//! adapters) or a compute model (the compute comes from MFU or is given). It does no I/O, reads no clock, has no
//! `unsafe` and no platform `cfg`, and builds for `wasm32-unknown-unknown` as well as native. Inputs are validated
//! once by [`Scenario::new`]; every function that takes a [`Scenario`] is then total.
//!
//! ```
//! use estimator_core::{Scenario, ScenarioInput, estimate};
//! let a = Scenario::new(ScenarioInput { link_gbps: 25.0, ring_factor: Some(2.0), ..Default::default() }).unwrap();
//! let e = estimate(&a);
//! // The seed's one-link arithmetic: 2 x 14 GB through one 25 Gb/s link.
//! assert!((e.reference_lower_bound.time_s.as_secs() - 8.96).abs() < 1e-9);
//! // The bound on this node, whose 8 GPUs share NVLink and 8 adapters, is far below it and below the step.
//! assert!(e.step.lower_bound_s < e.step.comm_s && e.step.comm_s <= e.step.step_s);
//! ```

pub mod accuracy;
pub mod batch;
pub mod calibrate;
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
pub mod op;
pub mod pairs;
pub mod plan;
pub mod quantity;
pub mod recipe;
pub mod recommend;
pub mod report;
pub mod run_check;
pub mod run_collectives;
pub mod scenario;
pub mod schedule;
pub mod shape;
pub mod stats;
pub mod step;
pub mod straggler;
pub mod sweep;
pub mod terms;
pub mod thresholds;
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
pub use sweep::{
    BatchRule, Comparison, SweepPoint, WorkCompared, compare, compare_estimates, on_nodes, sweep_line_rate,
    sweep_nodes, sweep_nodes_as,
};
pub use units::{Bytes, GbitPerSec, GbytePerSec, Seconds, TflopPerSec};
