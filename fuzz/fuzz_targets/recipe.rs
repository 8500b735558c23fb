//! Any bytes as a report for `recipe` (the fabric, ports and interfaces it reads) and as a `--hosts` file: no panic,
//! the recipe serializes, and its script names no host that the host list's checks did not pass.
#![no_main]

use estimator_core::recipe::{self, Launcher, RecipeInput};
use estimator_core::{Report, Scenario, ScenarioInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let hosts = recipe::read_hosts(&text).unwrap_or_default();
    for h in &hosts {
        assert!(h.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'), "{h}");
    }
    let detected = match serde_json::from_str::<Report>(&text) {
        Ok(r) => recipe::detect(&r),
        Err(_) => recipe::Detected::default(),
    };
    let s = Scenario::new(ScenarioInput::default()).expect("the default scenario is valid");
    let r = recipe::recipe(&RecipeInput {
        detected,
        scenario: &s,
        hosts,
        nccl_version: None,
        launchers: vec![Launcher::Mpirun, Launcher::Srun],
    });
    serde_json::to_string(&r).expect("a recipe always serializes");
    let _ = recipe::script(&r);
});
