//! probe-cli end to end: the flags, the JSON contract, the exit codes.

mod common;

use common::cli;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = cli().args(args).arg("--json").output().expect("runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn f(v: &Value, key: &str) -> f64 {
    v.pointer(key).and_then(Value::as_f64).unwrap_or_else(|| panic!("{key} is a number in {v}"))
}

/// The seed's arithmetic: DDP's gradient all-reduce (a layout given is kept exactly; without `--sync` the command
/// would choose one that fits).
const REFERENCE: [&str; 16] = [
    "estimate",
    "step",
    "--sync",
    "ddp",
    "--params",
    "7B",
    "--dtype",
    "bf16",
    "--nodes",
    "2",
    "--gpus-per-node",
    "8",
    "--adapters",
    "1",
    "--ring-factor",
    "2",
];

#[test]
fn step_json_reproduces_the_reference_arithmetic() {
    for (gbps, lower_bound) in [("400", 0.56), ("25", 8.96)] {
        let mut args = REFERENCE.to_vec();
        args.extend(["--link-gbps", gbps]);
        let v = json(&args);
        assert_eq!(f(&v, "/gradient_bytes"), 14e9);
        assert_eq!(f(&v, "/bytes_per_participant"), 28e9);
        // The seed's figure is the reference; the bound on this node (8 GPUs over NVLink, one adapter) is below
        // it: reduced inside the node first, 2(2-1)/2 x 14 GB cross the adapter (x 2 / 1.875 at ring factor 2).
        assert!((f(&v, "/reference_lower_bound/time_s") - lower_bound).abs() < 1e-9, "{gbps}: {v}");
        let bound = f(&v, "/lower_bound_s");
        assert!((bound - lower_bound * 16.0 / 30.0).abs() < 1e-9, "{gbps}: {bound}");
        assert!(bound <= f(&v, "/comm_s"));
        assert_eq!(v.pointer("/reference_applies"), Some(&Value::Bool(true)));
        for key in ["/comm_s", "/exposed_comm_s", "/compute_s", "/step_s"] {
            assert!(f(&v, key) >= 0.0, "{key}");
        }
        assert!(f(&v, "/step_s") >= f(&v, "/compute_s"));
        let kind = v.pointer("/recommendation/kind").and_then(Value::as_str).expect("kind");
        assert!(kind == "single-node" || kind == "multi-node");
        let reasons = v.pointer("/recommendation/reasons").and_then(Value::as_array).expect("reasons");
        assert!(!reasons.is_empty() && reasons.iter().all(Value::is_string));
    }
}

#[test]
fn the_lower_bound_is_below_what_it_bounds_on_a_node_with_many_adapters() {
    // Issue 39: 32 x 100 Gb/s EFA on two nodes printed "lower bound 2.10 s" beside 0.18 s of communication.
    let args = [
        "estimate",
        "step",
        "--params",
        "7B",
        "--nodes",
        "2",
        "--adapters",
        "32",
        "--link-gbps",
        "100",
        "--fabric",
        "efa-v2",
    ];
    let v = json(&args);
    let (bound, comm, step) = (f(&v, "/lower_bound_s"), f(&v, "/comm_s"), f(&v, "/step_s"));
    assert!(bound > 0.0 && bound <= comm && comm <= step, "{bound} {comm} {step}");
    // The node's bytes through its 32 adapters at 12.5 GB/s each.
    let expected = f(&v, "/network_floor_bytes_per_node") / (32.0 * 12.5e9);
    assert!((bound - expected).abs() < 1e-12 * expected.max(1.0), "{bound} vs {expected}");
    assert_eq!(f(&v, "/lower_bound_node_gbyte_per_s"), 400.0);
    // The seed's one-link figure stays, named as a reference, above the whole communication here.
    assert!(f(&v, "/reference_lower_bound/time_s") > comm);
    let out = cli().args(args).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("one-link reference for DDP's all-reduce"), "{text}");
    assert!(text.contains("through each node's 32 x 100 Gb/s adapters"), "{text}");
    assert!(text.contains("at least"), "{text}");
}

#[test]
fn the_help_example_runs_with_a_given_compute_time() {
    let v = json(&[
        "estimate",
        "step",
        "--params",
        "7B",
        "--dtype",
        "bf16",
        "--nodes",
        "2",
        "--gpus-per-node",
        "8",
        "--gpu",
        "NVIDIA H100 80GB HBM3",
        "--adapters",
        "8",
        "--link-gbps",
        "400",
        "--fabric",
        "ib",
        "--overlap",
        "0.5",
        "--compute-ms",
        "900",
        "--sync",
        "ddp",
    ]);
    assert_eq!(f(&v, "/compute_s"), 0.9);
    assert_eq!(v.pointer("/gpu/key").and_then(Value::as_str), Some("h100-sxm"));
    assert!(f(&v, "/exposed_comm_s") < f(&v, "/comm_s"), "half of it is hidden");
}

#[test]
fn a_large_model_is_multi_node() {
    let v = json(&[
        "estimate",
        "step",
        "--params",
        "405B",
        "--sync",
        "zero3",
        "--nodes",
        "16",
        "--adapters",
        "8",
        "--link-gbps",
        "400",
        "--fabric",
        "roce",
        "--tokens-per-step",
        "16M",
        "--mfu",
        "0.4",
    ]);
    assert_eq!(v.pointer("/recommendation/kind").and_then(Value::as_str), Some("multi-node"));
    assert!(v.pointer("/recommendation/min_fabric/link_gbps").is_some(), "{v}");
}

#[test]
fn slow_links_cost_more_than_fast_ones() {
    let base = ["estimate", "step", "--params", "7B", "--nodes", "4", "--adapters", "8", "--compute-ms", "2000"];
    let slow = json(&[&base[..], &["--link-gbps", "25"]].concat());
    let fast = json(&[&base[..], &["--link-gbps", "400"]].concat());
    assert!(f(&slow, "/step_s") > f(&fast, "/step_s"));
    // 16x the line rate: a 25 MiB bucket fills 25 Gb/s links (75% of their ceiling) but not 400 Gb/s ones (41%),
    // whose pipelines need more bytes in flight, so the communication is 8-9x, not 16x, cheaper.
    assert!(f(&slow, "/comm_s") > 6.0 * f(&fast, "/comm_s"));
    assert!(f(&slow, "/bucket_busbw_gbs") < f(&fast, "/bucket_busbw_gbs") / 6.0);
}

#[test]
fn sweeps_come_out_in_json_and_text() {
    let v = json(&["estimate", "step", "--sweep-nodes", "1,2,4", "--adapters", "8", "--link-gbps", "100"]);
    assert_eq!(v.pointer("/sweep_nodes").and_then(Value::as_array).map(Vec::len), Some(3));
    let out = cli()
        .args([
            "estimate",
            "step",
            "--nodes",
            "2",
            "--adapters",
            "8",
            "--link-gbps",
            "25",
            "--sweep-link-gbps",
            "25,400",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Gb/s") && text.lines().filter(|l| l.trim_start().starts_with("400")).count() == 1, "{text}");
}

#[test]
fn allreduce_json_has_nccl_tests_keys() {
    let v = json(&[
        "estimate",
        "allreduce",
        "--bytes",
        "8GiB",
        "--nodes",
        "2",
        "--gpus-per-node",
        "8",
        "--gpu",
        "h100",
        "--adapters",
        "8",
        "--link-gbps",
        "400",
        "--fabric",
        "ib",
    ]);
    let (t, alg, bus) = (f(&v, "/time_us"), f(&v, "/algbw_gbs"), f(&v, "/busbw_gbs"));
    let size = 8.0 * 1024.0 * 1024.0 * 1024.0;
    assert!((alg - size / 1e9 / (t / 1e6)).abs() < 1e-6 * alg, "algbw = size / time");
    assert!((bus - alg * 2.0 * 15.0 / 16.0).abs() < 1e-6 * bus, "busbw = algbw x 2(n-1)/n");
    // Two nodes: NCCL's NVLSTree reads above the NICs' 384 GB/s (469 measured, nccl-tests#309).
    assert!(bus > 430.0 && bus < 480.0, "8x400G IB, two nodes: {bus}");
    assert_eq!(v.pointer("/algorithm").and_then(Value::as_str), Some("NVLSTree"));
    assert_eq!(v.pointer("/protocol").and_then(Value::as_str), Some("Simple"));
    assert!(f(&v, "/tree_2node_busbw_gbs") >= bus);
}

#[test]
fn allreduce_on_one_node_needs_no_adapter_flags() {
    let v =
        json(&["estimate", "allreduce", "--bytes", "4GiB", "--gpus-per-node", "8", "--gpu", "NVIDIA A100-SXM4-80GB"]);
    assert!((f(&v, "/busbw_gbs") - 230.0).abs() < 5.0);
    let table = json(&["estimate", "allreduce", "--bytes", "1MiB", "--table"]);
    assert_eq!(table.pointer("/rows").and_then(Value::as_array).map(Vec::len), Some(18), "8 B .. 1 MiB doubling");
}

#[test]
fn bad_flags_exit_2_and_name_the_flag() {
    for (args, needle) in [
        (&["estimate", "step", "--nodes", "0"][..], "--nodes"),
        (&["estimate", "step", "--params", "1e20"][..], "--params"),
        (&["estimate", "step", "--params", "seven"][..], "--params"),
        (&["estimate", "step", "--nodes", "2", "--adapters", "8", "--link-gbps", "10000"][..], "--link-gbps"),
        (&["estimate", "step", "--overlap", "2"][..], "--overlap"),
        (&["estimate", "step", "--fabric", "pigeon"][..], "--fabric"),
        (&["estimate", "step", "--nodes", "-3"][..], "--nodes"),
        (&["estimate", "step", "--nodes", "2"][..], "--adapters"),
        (&["estimate", "step", "--nodes", "2", "--adapters", "0", "--link-gbps", "100"][..], "--adapters"),
        (&["estimate", "allreduce", "--bytes", "8 parsecs"][..], "--bytes"),
        (&["estimate", "allreduce"][..], "--bytes"),
        (&["estimate", "teleport"][..], "teleport"),
        (&["estimate", "step", "--tp", "3"][..], "--tp: 3 must divide"),
        (&["estimate", "step", "--ep", "2"][..], "--ep"),
        (&["estimate", "step", "--model", "llama-9"][..], "--model: unknown model 'llama-9'"),
        (&["estimate", "step", "--sync", "hsdp", "--shard-group", "3"][..], "--shard-group"),
        (&["estimate", "step", "--model", "llama-3.1-8b", "--params", "7B"][..], "--params"),
    ] {
        let out = cli().args(args).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

#[test]
fn unknown_gpu_warns_and_still_answers() {
    let out = cli().args(["estimate", "step", "--gpu", "Imaginary X1", "--json"]).output().expect("runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown GPU"));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v.pointer("/gpu/known").and_then(Value::as_bool), Some(false));
}

#[test]
fn help_has_an_example_per_subcommand() {
    for sub in ["step", "allreduce"] {
        let out = cli().args(["estimate", sub, "--help"]).output().expect("runs");
        assert!(out.status.success());
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("Example:") && help.contains(&format!("probe-cli estimate {sub}")), "{help}");
    }
}

#[test]
fn text_output_spells_out_the_arithmetic() {
    let mut args = REFERENCE.to_vec();
    args.extend(["--link-gbps", "25"]);
    let out = cli().args(&args).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    // The numbers read as on the page (estimator_core::human): `14 GB`, `8.96 s`, `3.125 GB/s`.
    for needle in [
        "gradients              14 GB (7B params x 2 B)",
        "reference arithmetic   8.96 s (one-link reference for DDP's all-reduce, one adapter per GPU, not a bound: 2 x \
         14 GB = 28 GB / 3.125 GB/s)",
        "lower bound            4.78 s (14.93 GB through each node's 1 x 25 Gb/s adapters = 3.125 GB/s at line rate",
        "Recommendation:",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
}

/// Every README example that shows output (a `probe-cli ...` line followed by `#  ` lines) prints those lines.
#[test]
fn readme_examples_print_what_the_readme_shows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README.md");
    let lines: Vec<&str> = readme.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(args) = line.strip_prefix("probe-cli ") else { continue };
        let shown: Vec<&str> = lines[i + 1..].iter().map_while(|l| l.strip_prefix('#')).collect();
        if shown.is_empty() {
            continue;
        }
        let out = cli().args(args.split_whitespace()).output().expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        for s in shown {
            assert!(
                text.lines().any(|l| l == s),
                "README line {}: {line}\nshows {s:?}, which it does not print:\n{text}",
                i + 1
            );
        }
        checked += 1;
    }
    assert!(checked > 0, "README.md has an example with its output");
}

#[test]
fn a_side_that_does_not_fit_gets_no_step_ratio() {
    // Issue 39: 70B with DDP fits neither side; the text said "B takes 0.84x A's step time".
    let args = ["estimate", "step", "--params", "70B", "--sync", "ddp", "--nodes", "2", "--adapters", "1"];
    let out =
        cli().args(args).args(["--link-gbps", "25", "--fabric", "tcp", "--vs-fabric", "ib"]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Steps not compared: neither A nor B fits"), "{text}");
    assert!(!text.contains("x A's step time"), "{text}");
}

#[test]
fn vs_flags_compare_two_scenarios() {
    let mut args = REFERENCE.to_vec();
    args.extend(["--link-gbps", "25", "--vs-link-gbps", "400", "--vs-fabric", "ib"]);
    let v = json(&args);
    assert!((f(&v, "/vs/b/reference_lower_bound/time_s") - 0.56).abs() < 1e-9, "{v}");
    assert!((f(&v, "/vs/a/reference_lower_bound/time_s") - 8.96).abs() < 1e-9);
    assert!(f(&v, "/vs/a/lower_bound_s") <= f(&v, "/vs/a/comm_s"));
    assert!(f(&v, "/vs/step_ratio_b_over_a") < 1.0);
    assert_eq!(v.pointer("/vs/input/fabric").and_then(Value::as_str), Some("infiniband"));
    let out = cli().args(["estimate", "step", "--vs-link-gbps", "400"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "one node has no fabric to compare");
}

#[test]
fn catalog_lists_every_required_gpu_with_a_source() {
    let v = json(&["estimate", "catalog"]);
    let gpus = v.pointer("/gpus").and_then(Value::as_array).expect("gpus");
    let keys: Vec<&str> = gpus.iter().filter_map(|g| g.get("key").and_then(Value::as_str)).collect();
    for k in [
        "v100-sxm2-32gb",
        "p40",
        "a10g",
        "a40",
        "a100-pcie-40gb",
        "a100-sxm4-40gb",
        "a100-sxm4-80gb",
        "l4",
        "l40s",
        "h100-pcie",
        "h100-sxm",
        "h200",
        "gh200",
        "b200",
        "rtx-4090",
        "rtx-5090",
        "mi300x",
        "mi325x",
        "mi355x",
    ] {
        assert!(keys.contains(&k), "{k} missing from {keys:?}");
    }
    assert!(gpus.iter().all(|g| g.get("source").and_then(Value::as_str).is_some_and(|s| s.len() > 20)));
    assert_eq!(v.pointer("/fabrics").and_then(Value::as_array).map(Vec::len), Some(estimator_core::Fabric::ALL.len()));
}

#[test]
fn collective_gives_each_op_with_nccl_tests_definitions_and_nccls_choice() {
    let hw = ["--bytes", "1GiB", "--nodes", "4", "--adapters", "8", "--link-gbps", "400", "--fabric", "ib"];
    let size = 1024.0 * 1024.0 * 1024.0;
    for (op, factor) in [
        ("all_reduce", 2.0 * 31.0 / 32.0),
        ("all_gather", 31.0 / 32.0),
        ("reduce_scatter", 31.0 / 32.0),
        ("broadcast", 1.0),
        ("alltoall", 31.0 / 32.0),
    ] {
        let mut args = vec!["estimate", "collective", "--op", op];
        args.extend(hw);
        let v = json(&args);
        assert_eq!(v.pointer("/op").and_then(Value::as_str), Some(op));
        assert_eq!(f(&v, "/bytes"), size);
        let (t, alg, bus) = (f(&v, "/time_us"), f(&v, "/algbw_gbs"), f(&v, "/busbw_gbs"));
        assert!((alg - size / 1e9 / (t / 1e6)).abs() < 1e-6 * alg, "{op}: algbw = size / time");
        assert!((bus - alg * factor).abs() < 1e-6 * bus, "{op}: busbw factor");
        for key in ["/algorithm", "/protocol", "/bottleneck"] {
            assert!(v.pointer(key).and_then(Value::as_str).is_some_and(|s| !s.is_empty()), "{op}{key}");
        }
        assert!(f(&v, "/channels") >= 1.0);
    }
    // `estimate allreduce` gives the same figures as `--op all_reduce`.
    let mut ar = vec!["estimate", "allreduce"];
    ar.extend(hw);
    let mut op = vec!["estimate", "collective", "--op", "all_reduce"];
    op.extend(hw);
    let (a, b) = (json(&ar), json(&op));
    for key in ["/time_us", "/algbw_gbs", "/busbw_gbs", "/peak_busbw_gbs", "/latency_us"] {
        assert_eq!(f(&a, key), f(&b, key), "{key}");
    }
    assert_eq!(a.pointer("/algorithm"), b.pointer("/algorithm"));
    // --table is nccl-tests' sweep from 8 bytes, doubling, ending at the size; times grow with the size.
    let mut table = vec!["estimate", "collective", "--op", "reduce_scatter", "--table"];
    table.extend(hw);
    let rows = json(&table).pointer("/rows").and_then(Value::as_array).cloned().expect("rows");
    assert_eq!(rows.len(), 28, "8 B .. 1 GiB");
    assert!(rows.windows(2).all(|w| f(&w[0], "/time_us") <= f(&w[1], "/time_us")));
    assert_eq!(rows[0].pointer("/protocol").and_then(Value::as_str), Some("LL"), "small sizes are LL");
    // An unknown op is a usage error naming the flag.
    let out = cli().args(["estimate", "collective", "--op", "all_scatter", "--bytes", "1G"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--op"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn health_judges_an_all_gather_run_and_counts_its_ranks_from_its_ratio() {
    // Two GCP A3 Mega nodes over GPUDirect-TCPXO, an excerpt without rank lines (dstackai/dstack's README).
    let run = common::data("nccl-tests/raw/dstack-a3mega-2node-allgather-tcpxo.txt");
    let run = run.to_str().expect("utf-8 path");
    let args = ["health", run, "--fabric", "tcpxo", "--adapters", "8", "--link-gbps", "200", "--exit-zero"];
    let v = json(&args);
    assert_eq!(v.pointer("/op").and_then(Value::as_str), Some("all_gather"));
    assert_eq!(f(&v, "/ranks"), 16.0);
    assert!(v.pointer("/ranks_from").and_then(Value::as_str).is_some_and(|s| s.contains("busbw/algbw")), "{v}");
    assert_eq!(v.pointer("/verdict").and_then(Value::as_str), Some("healthy"), "{v}");
    let curve = v.pointer("/curve").and_then(Value::as_array).expect("a curve");
    assert!(curve.len() >= 8, "every size with a bus bandwidth");
    assert!(v.pointer("/departure").and_then(Value::as_str).is_some(), "{v}");
}

#[test]
fn a_layout_shows_its_traffic_and_what_does_not_fit_comes_first() {
    // Mixtral with expert parallelism over each node: the all-to-all is a row of the traffic, exposed.
    let v = json(&[
        "estimate",
        "step",
        "--model",
        "mixtral-8x7b",
        "--sync",
        "zero3",
        "--ep",
        "8",
        "--nodes",
        "2",
        "--adapters",
        "8",
        "--link-gbps",
        "400",
    ]);
    let traffic = v.pointer("/traffic").and_then(Value::as_array).expect("traffic");
    let a2a = traffic.iter().find(|t| t["kind"] == "ep_all_to_all").expect("an all-to-all row");
    assert_eq!((a2a["tier"].as_str(), a2a["ranks"].as_u64()), (Some("intra-node"), Some(8)));
    for key in ["bytes_per_gpu", "message_bytes", "time_s", "exposed_s"] {
        assert!(a2a[key].as_f64().is_some_and(|x| x > 0.0), "{key} in {a2a}");
    }
    assert_eq!(v.pointer("/overlap_source").and_then(Value::as_str), Some("schedule"));
    assert_eq!(v.pointer("/layout/ep").and_then(Value::as_u64), Some(8));
    assert!(v.pointer("/recommendation/layout/headline").and_then(Value::as_str).is_some());
    // Llama 3.1 70B with FSDP on two nodes, activations unchecked: the text says it does not fit before the step.
    let out = cli()
        .args(["estimate", "step", "--model", "llama-3.1-70b", "--sync", "fsdp", "--nodes", "2", "--adapters", "8"])
        .args(["--link-gbps", "400"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let (no_fit, step) = (text.find("DOES NOT FIT").expect("said"), text.find("\n  step ").expect("a step line"));
    assert!(no_fit < step, "{text}");
    assert!(text.contains("fsdp_all_gather") && text.contains("Layout:"), "{text}");
}

#[test]
fn bash_completes_commands_and_flags_from_the_script() {
    let out = cli().args(["completions", "bash"]).output().expect("runs");
    assert!(out.status.success());
    let dir = std::env::temp_dir().join(format!("probe-cli-completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let script = dir.join("probe-cli.bash");
    std::fs::write(&script, &out.stdout).expect("write");
    // What bash offers after `probe-cli rep` and after `probe-cli report --j`, from the script itself.
    let complete = |words: &str| {
        let line = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             _probe__cli probe-cli \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
             echo \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let o = std::process::Command::new("bash").arg("-c").arg(line).output().expect("bash");
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    };
    assert_eq!(complete("probe-cli rep"), "report");
    assert_eq!(complete("probe-cli re"), "report recipe");
    assert!(complete("probe-cli report --j").contains("--json"));
    assert!(complete("probe-cli estimate step --nvlink").contains("--nvlink-domain-gpus"));
    let _ = std::fs::remove_dir_all(&dir);
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = cli().args(["completions", shell]).output().expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains("check-run"), "{shell}");
    }
    let bad = cli().args(["completions", "tcsh"]).output().expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("tcsh"), "the refusal names the value");
}

#[test]
fn the_manual_page_has_every_command_and_flag() {
    let out = cli().arg("man").output().expect("runs");
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.starts_with(".ie") || page.contains(".TH probe-cli"), "{}", &page[..page.len().min(200)]);
    for section in ["PROBE-CLI REPORT", "PROBE-CLI ESTIMATE STEP", "PROBE-CLI CHECK-RUN", "PROBE-CLI COMPLETIONS"] {
        assert!(page.contains(&format!(".SH \"{section}\"")), "{section}");
    }
    for flag in ["nvlink\\-domain\\-gpus", "include\\-identifiers", "measured\\-step\\-s", "best\\-layout"] {
        assert!(page.contains(&format!("\\-\\-{flag}")), "{flag}");
    }
    assert!(!page.contains("probe\\-cli\\-report(1)"), "no reference to a page that is not installed");
}

/// Issue 25, item 8: the answers to the inputs people really type. A rate with its unit reads; bytes per second,
/// a negative count and NaN say what they are; health says where a node count it was not given came from; an
/// empty report is called empty.
#[test]
fn inputs_people_type_get_answers_in_their_terms() {
    let two_nodes = ["estimate", "step", "--nodes", "2", "--adapters", "8"];
    let with = |extra: &[&str]| cli().args(two_nodes).args(extra).arg("--json").output().expect("runs");
    let g = with(&["--link-gbps", "400G"]);
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    let plain = with(&["--link-gbps", "400"]);
    assert_eq!(g.stdout, plain.stdout, "400G is 400 Gb/s");
    let err = |extra: &[&str]| {
        let out = cli().args(two_nodes).args(extra).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(err(&["--link-gbps", "50GB/s"]).contains("that is 400 Gb/s"));
    let neg = err(&["--link-gbps", "400", "--params", "-7B"]);
    assert!(neg.contains("--params") && neg.contains("'-7B' must be a finite number of at least 0"), "{neg}");
    let nan = err(&["--link-gbps", "400", "--mfu", "nan"]);
    assert!(nan.contains("--mfu") && nan.contains("NaN, not a number") && !nan.contains('–'), "{nan}");
    // health: the node count came from the run, not from a --nodes the user never gave.
    let run = common::first("nccl-tests/raw", "abci-v100-2node");
    let out = cli().arg("health").arg(&run).args(["--gpu", "v100", "--gpus-per-node", "4"]).output().expect("runs");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("the run is 2 nodes (from the run's ranks") && !e.contains("when --nodes > 1"), "{e}");
    // An empty report.
    let dir = common::temp("cli", "empty-report");
    let empty = dir.join("node.json");
    std::fs::write(&empty, "\n").expect("write");
    let out = cli().args(["estimate", "step", "--report"]).arg(&empty).output().expect("runs");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("the file is empty: the probe wrote nothing") && !e.contains("EOF"), "{e}");
}

/// Issue 25, item 9: counts are integers in JSON (keys unchanged), a part without BF16 says which precision its
/// figure is, T4 is in the catalog, the README's `--gpu h100` does not warn, one of a thing is singular, and the
/// default tokens per step can be typed as it is (4Mi).
#[test]
fn counts_units_and_names_read_as_people_expect() {
    let step = json(&["estimate", "step", "--bucket-bytes", "25MiB"]);
    for key in [
        "/gradient_bytes",
        "/bytes_per_participant",
        "/traffic/0/bytes_per_gpu",
        "/input/params",
        "/input/bucket_bytes",
    ] {
        assert!(step.pointer(key).is_some_and(Value::is_u64), "{key} is an integer: {:?}", step.pointer(key));
    }
    let plan = json(&["plan", "--tokens", "100B"]);
    assert!(plan["steps"].is_u64() && plan["tokens"].is_u64(), "{} {}", plan["steps"], plan["tokens"]);
    let out = cli().args(["estimate", "catalog"]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("125 FP16") && text.contains("11.76 FP32") && text.contains("  t4 "), "{text}");
    assert!(text.lines().filter(|l| l.contains("V100")).all(|l| l.contains("FP16")), "V100 has no BF16: {text}");
    for line in text.lines().filter(|l| l.contains(" GiB ")) {
        let cols: Vec<&str> = line.split("  ").filter(|c| !c.trim().is_empty()).collect();
        assert!(cols.len() >= 5, "columns stay apart: {line}");
    }
    let out = cli().args(["estimate", "step", "--gpu", "h100"]).output().expect("runs");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "{}", String::from_utf8_lossy(&out.stderr));
    let a = json(&["estimate", "step", "--bucket-bytes", "25MiB", "--tokens-per-step", "4Mi"]);
    assert_eq!(a["step_s"], step["step_s"], "4Mi is the default's 4,194,304");
    let out = cli().args(["estimate", "step", "--params", "0"]).output().expect("runs");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 1 parameter (got 0)"));
    let out = cli().args(["estimate", "step", "--nodes", "1"]).output().expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing through the network adapters per GPU"));
}

/// Issue 25, item 10: one reference scenario in the core; `estimate step --reference` is it, A and B, with the
/// core's figures (the page's first load is held to the same definition in web/tests/browser.rs).
#[test]
fn the_reference_command_is_the_cores_reference_scenario() {
    use estimator_core::scenario::reference::{reference_fast, reference_slow};
    let v = json(&["estimate", "step", "--reference"]);
    for (got, want) in [(&v["input"], reference_slow()), (&v["vs"]["input"], reference_fast())] {
        let want_json = serde_json::to_value(&want).expect("json");
        assert_eq!(got, &want_json, "the command's scenario is the core's");
        let s = estimator_core::Scenario::new(want).expect("valid");
        let e = estimator_core::estimate_step(&s);
        let step = if got == &v["input"] { f(&v, "/step_s") } else { f(&v, "/vs/b/step_s") };
        assert!((step - e.step_s.as_secs()).abs() < 1e-12, "{step} against {}", e.step_s.as_secs());
    }
}

/// Issue 25, item 7: without --sync, estimate step and plan take the fastest layout that fits and say so; a
/// --sync given is kept exactly, even one that does not fit; check-run never chooses (a run used its own layout).
#[test]
fn without_sync_the_fastest_layout_that_fits_is_chosen_and_said() {
    let chosen = json(&["estimate", "step", "--nodes", "2", "--adapters", "8", "--link-gbps", "400"]);
    assert_eq!(chosen["layout_source"], "chosen");
    assert!(
        chosen["memory"]["fits"].as_bool() == Some(true) && chosen["input"]["sync"] != "ddp",
        "{}",
        chosen["input"]
    );
    assert!(chosen["layout_choice"].as_str().is_some_and(|c| c.contains("the fastest layout that fits")));
    // The seed's arithmetic stays DDP's whatever was chosen.
    assert!((f(&chosen, "/reference_lower_bound/bytes_per_participant") - 28e9).abs() < 1.0);
    let given = json(&["estimate", "step", "--sync", "ddp", "--nodes", "2", "--adapters", "8", "--link-gbps", "400"]);
    assert_eq!((given["layout_source"].as_str(), given["input"]["sync"].as_str()), (Some("given"), Some("ddp")));
    assert_eq!(given["memory"]["fits"].as_bool(), Some(false), "kept exactly, though it does not fit");
    let out = cli()
        .args(["estimate", "step", "--nodes", "2", "--adapters", "8", "--link-gbps", "400"])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Layout "), "the text says first that it chose");
    let run = json(&[
        "check-run",
        "--nodes",
        "2",
        "--adapters",
        "8",
        "--link-gbps",
        "400",
        "--compute-ms",
        "1000",
        "--measured-step-s",
        "1.1",
    ]);
    assert_eq!(run["input"]["sync"], "ddp", "check-run judges the run's own layout");
}

/// Issue 40: `--tokens-per-step` is the job's global batch in every command. With `--compute-ms` it sets the
/// micro-batches and leaves the compute as given, as `check-run` does; a one-node comparison keeps that batch.
#[test]
fn tokens_per_step_is_the_global_batch_beside_a_given_compute() {
    let args = ["estimate", "step", "--sync", "zero2", "--nodes", "2", "--adapters", "1", "--link-gbps", "100"];
    let both = json(&[&args[..], &["--compute-ms", "1000", "--tokens-per-step", "4194304"]].concat());
    // 4,194,304 tokens of 4,096-token sequences over 16 data-parallel GPUs: 64 micro-batches each.
    assert_eq!(both["layout"]["micro_batches"], 64, "{}", both["layout"]);
    assert_eq!(both["compute_s"], 1.0);
    assert_eq!(both["recommendation"]["comparison"], "same-global-batch");
    let out = cli().args(args).args(["--compute-ms", "1000", "--mfu", "0.4"]).output().expect("runs");
    assert!(!out.status.success(), "--mfu has no meaning beside a given compute");
}
