//! Any bytes, read as text by the nccl_log reader (and by detect + import): no panic, and the result serializes.
#![no_main]

use estimator_core::import::{self, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = import::read(Kind::NcclLog, &text);
    assert_eq!(read.kind(), Kind::NcclLog);
    serde_json::to_string(&read).expect("a parsed result always serializes");
    let _ = import::import(&text);
});
