//! What the report's and the fleet's tests share: the fixture nodes' reports, and a field getter over a JSON
//! document like the page's over `JSON.parse`.

use super::{Report, Scalar};

/// A report the probe wrote for one of the fixture nodes (tests/fixtures/nodes, from real sysfs layouts).
pub fn fixture(name: &str) -> Report {
    let path = format!("{}/../tests/fixtures/nodes/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("a report")
}

/// A getter over a serde_json document, as the page's worker has one over `JSON.parse`: object keys and array
/// indexes, the empty path for the document itself.
pub fn getter(doc: &serde_json::Value) -> impl Fn(&str) -> Scalar + '_ {
    move |path: &str| {
        let mut at = doc;
        for key in path.split('.').filter(|k| !k.is_empty()) {
            let next = match at {
                serde_json::Value::Object(m) => m.get(key),
                serde_json::Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            match next {
                Some(v) => at = v,
                None => return Scalar::Missing,
            }
        }
        match at {
            serde_json::Value::String(s) => Scalar::Text(s.clone()),
            serde_json::Value::Null => Scalar::Null,
            serde_json::Value::Bool(b) => Scalar::Bool(*b),
            serde_json::Value::Number(n) => Scalar::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::Array(_) => Scalar::Array,
            serde_json::Value::Object(_) => Scalar::Object,
        }
    }
}
