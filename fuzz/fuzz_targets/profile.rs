//! Any bytes as a profile (`--profile`: version, document, values, as probe-cli reads it) and as a run to
//! calibrate on: no panic; a profile that reads and validates gives a finite positive factor at every size.
#![no_main]

use estimator_core::calibrate::{CalibrationRun, Profile, calibrate};
use estimator_core::collective::Op;
use estimator_core::import::nccl_tests;
use estimator_core::scenario::Correction;
use estimator_core::{Scenario, ScenarioInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let s = Scenario::new(ScenarioInput::default()).expect("the default scenario is valid");
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
        && Profile::check_version(v.get("schema_version").and_then(serde_json::Value::as_u64)).is_ok()
        && let Ok(p) = serde_json::from_value::<Profile>(v)
        && p.validate().is_ok()
    {
        for bytes in [1.0, 8.0, 1e6, 8e9, 1e15] {
            for nodes in [1, 2, 3, 64] {
                let on = s.with(|i| i.nodes = nodes).expect("valid");
                let f = p.time_factor(&on, Op::AllReduce, bytes);
                assert!(f.is_finite() && f > 0.0, "{f}");
            }
        }
    }
    let run = nccl_tests::parse(&text);
    let (p, refused) = calibrate(&s, &[CalibrationRun { file: "fuzz.txt".into(), run: &run }]);
    assert_eq!(usize::from(p.is_some()) + refused.len(), 1);
});
