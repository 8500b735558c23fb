//! Any bytes as a PyTorch profiler trace, fed in two chunks split at the first byte's value: the reader never
//! panics, reads the same however the bytes are split, and what it reads is judged on the default hardware and
//! serializes.
#![no_main]

use estimator_core::import::trace::{TraceReader, parse};
use estimator_core::run_collectives::judge;
use estimator_core::{Scenario, ScenarioInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let whole = parse(data);
    let at = usize::from(data.first().copied().unwrap_or(0)).min(data.len());
    let mut r = TraceReader::new();
    r.feed(&data[..at]);
    r.feed(&data[at..]);
    let split = r.finish();
    assert_eq!(whole, split, "the reading does not depend on the chunks");
    if let Ok(t) = whole {
        let s = Scenario::new(ScenarioInput { nodes: 4, ..ScenarioInput::default() }).expect("valid");
        let c = judge(&s, &t.calls, None);
        serde_json::to_string(&c).expect("a judgement always serializes");
        serde_json::to_string(&t).expect("a trace always serializes");
    }
});
