//! Any bytes as NCCL Inspector records: the reader never panics, and what it reads is judged on the default
//! hardware and serializes.
#![no_main]

use estimator_core::import::inspector;
use estimator_core::run_collectives::judge;
use estimator_core::{Scenario, ScenarioInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(d) = inspector::parse("fuzz", &text) {
        let s = Scenario::new(ScenarioInput { nodes: 2, ..ScenarioInput::default() }).expect("valid");
        let c = judge(&s, &d.calls, None);
        serde_json::to_string(&c).expect("a judgement always serializes");
        serde_json::to_string(&d).expect("a dump always serializes");
    }
});
