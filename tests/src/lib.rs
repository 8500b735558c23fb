//! Cross-crate test support: replaying public nccl-tests measurements through the model.
//!
//! [`calibration`] reads `measurements.json` (the calibration set, copied verbatim into `tests/data/nccl-tests/`;
//! set `CALIBRATION_FILE` to replay another file of the same shape), turns each point into a [`ScenarioInput`]
//! and compares the model's large-message bus bandwidth with the measured one.
//!
//! [`browser`] serves the built page and drives headless Chromium for the end-to-end test and the page
//! benchmark.

pub mod browser;
pub mod calibration;

pub use estimator_core::ScenarioInput;
