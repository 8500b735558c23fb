//! Any bytes as a two-node run: the first line is the file's name, the rest its text. The host names (rank lines,
//! NCCL log lines or the name) and the judgement of a round of that run with itself and a healthy twin: no panic,
//! and the result serializes.
#![no_main]

use estimator_core::import::nccl_tests;
use estimator_core::pairs::{self, HostsFrom, PairInput};
use estimator_core::{Scenario, ScenarioInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (name, body) = text.split_once('\n').unwrap_or((&text, ""));
    let run = nccl_tests::parse(body);
    let hosts = pairs::hosts(name, &run);
    let s = Scenario::new(ScenarioInput::default()).expect("the default scenario is valid");
    let (h, from) = hosts.unwrap_or_else(|_| (["a".to_string(), "b".to_string()], HostsFrom::FileName));
    let inputs = [
        PairInput { file: name.to_string(), hosts: h.clone(), hosts_from: from, run: &run },
        PairInput { file: "b_c.txt".to_string(), hosts: [h[1].clone(), "c".to_string()], hosts_from: from, run: &run },
    ];
    let (p, refused) = pairs::judge(&s, &inputs);
    assert_eq!(p.pairs.len() + refused.len(), 2);
    serde_json::to_string(&p).expect("a judged round always serializes");
});
