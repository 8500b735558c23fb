//! Any bytes as a pasted report: the CLI's reader (serde_json, check_version, read_head) and the page's
//! (read_fields over the parsed value) never panic and give the same verdict: the same summary, or the same error
//! (field and words).
#![no_main]

use estimator_core::report::{self, Scalar};
use libfuzzer_sys::fuzz_target;

fn scalar(v: Option<&serde_json::Value>) -> Scalar {
    match v {
        None => Scalar::Missing,
        Some(serde_json::Value::Null) => Scalar::Null,
        Some(serde_json::Value::Bool(b)) => Scalar::Bool(*b),
        Some(serde_json::Value::Number(n)) => Scalar::Number(n.as_f64().unwrap_or(f64::NAN)),
        Some(serde_json::Value::String(s)) => Scalar::Text(s.clone()),
        Some(serde_json::Value::Object(_)) => Scalar::Object,
        Some(serde_json::Value::Array(_)) => Scalar::Array,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else { return };
    let serde_side = report::check_version(&v).and_then(|()| report::read_head(&v));
    let fields_side = report::read_fields(|path| {
        let mut at = Some(&v);
        for part in path.split('.').filter(|p| !p.is_empty()) {
            at = at.and_then(|x| x.get(part));
        }
        scalar(at)
    });
    match (&serde_side, &fields_side) {
        (Ok(a), Ok(b)) => assert_eq!(&a.summary, b),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("the readers disagree: serde {serde_side:?}, fields {fields_side:?}"),
    }
    if let Ok(h) = serde_side {
        let mut input = estimator_core::ScenarioInput::default();
        let _ = h.summary.apply(&mut input);
    }
});
