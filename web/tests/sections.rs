//! "Check a run" and "Plan a rental", the details worker's pure modules, in headless Chromium: their state in the
//! URL next to the app's, the checks and plans they draw, the errors naming their input, and text from a link
//! never becoming markup.
//!
//! Run: `cargo test -p web --target wasm32-unknown-unknown` (the runner is set in .cargo/config.toml).

#![allow(missing_docs)]

use wasm_bindgen_test::*;
use web::plan_section::{self, PlanForm};
use web::run_section::{self, RunForm};
use web::share::{PageState, Side, section, with_sections};

wasm_bindgen_test_configure!(run_in_browser);

/// The page's first load (A: 2 nodes of 8 x H100 on one 25 GbE port; B: 8 x 400G InfiniBand) with `extra`.
fn query(extra: &str) -> String {
    with_sections(&PageState::default().to_query(), extra)
}

#[wasm_bindgen_test]
fn the_sections_pairs_survive_the_apps_own_writes() {
    let old = "?v=3&a.link=100&run.side=b&run.measured=9&plan.prices=aws-p5.48xlarge%3D3.9%0Ax%3D1&embed=1";
    let kept = with_sections("v=3&a.link=400", old);
    assert_eq!(kept, "v=3&a.link=400&run.side=b&run.measured=9&plan.prices=aws-p5.48xlarge%3D3.9%0Ax%3D1");
    assert_eq!(with_sections("", "?a.link=1"), "");
    let run = section(old, "run");
    assert_eq!(run, [("side".to_string(), "b".to_string()), ("measured".to_string(), "9".to_string())]);
    assert_eq!(section(old, "plan")[0].1, "aws-p5.48xlarge=3.9\nx=1");
    // The app reads past them.
    let (state, notes) = PageState::from_query(old);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(state.a.link_gbps, "100");
}

#[wasm_bindgen_test]
fn a_run_is_checked_on_its_scenario_and_named_beside_it() {
    let q = query("run.side=b&run.compute_ms=1000&run.measured=9");
    let f = RunForm::from_query(&q);
    assert_eq!((f.side, f.filled(false)), (Side::B, true));
    let (side, c) = run_section::check(&q, None, None).expect("reads").expect("filled");
    assert_eq!(side, Side::B);
    assert_eq!(c.verdict.name(), "slower-than-expected");
    let html = run_section::result(&q, None, None);
    assert!(html.contains("id=\"run-verdict\"") && html.contains("socket-fallback"), "{}", html.as_str());
    assert!(run_section::verdict_line(&q, Side::B, None, None).contains("b-run-verdict"));
    assert!(run_section::verdict_line(&q, Side::A, None, None).is_empty(), "only the checked scenario");
    // Tokens per second with the scenario's tokens per step.
    let q = query("run.compute_ms=1000&run.by=tokens&run.measured=50k&run.side=b");
    let (_, c) = run_section::check(&q, None, None).expect("reads").expect("filled");
    assert!(c.measured_from.contains("tokens"), "{}", c.measured_from);
    // Before the user starts: a prompt, no verdict.
    assert!(run_section::result(&query(""), None, None).contains("Fill the compute"));
    // Times and rates as people write them: the same check as the bare numbers in the fields' units.
    let same = |a: &str, b: &str| {
        let c = |x: &str| run_section::check(&query(x), None, None).expect("reads").expect("filled").1;
        assert_eq!(c(a).measured_step_s, c(b).measured_step_s, "{a} / {b}");
        assert_eq!(c(a).expected_step_s, c(b).expected_step_s, "{a} / {b}");
    };
    same("run.side=b&run.compute_ms=1000&run.measured=1.2", "run.side=b&run.compute_ms=1%20s&run.measured=1.2%20s");
    same("run.side=b&run.compute_ms=850&run.measured=0.9", "run.side=b&run.compute_ms=850ms&run.measured=900%20ms");
    same(
        "run.side=b&run.compute_ms=1000&run.by=tokens&run.measured=50k",
        "run.side=b&run.compute_ms=1000&run.by=tokens&run.measured=50k%20tokens%2Fs",
    );
}

#[wasm_bindgen_test]
fn a_bad_run_input_is_named_and_a_links_text_stays_text() {
    let err = |extra: &str| run_section::check(&query(extra), None, None).expect_err("refused");
    assert!(
        err("run.compute_ms=-5&run.measured=9").starts_with("Compute"),
        "{}",
        err("run.compute_ms=-5&run.measured=9")
    );
    assert!(err("run.compute_ms=100&run.measured=fast").starts_with("Measured:"));
    assert!(err("run.compute_ms=100&run.by=samples&run.measured=3").starts_with("Per step"));
    let hostile = query("run.compute_ms=100&run.measured=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    let html = run_section::result(&hostile, None, None);
    assert!(!html.contains("<script"), "{}", html.as_str());
    let form = run_section::form(&hostile);
    assert!(!form.contains("<script") && form.contains("&lt;script"), "{}", form.as_str());
}

#[wasm_bindgen_test]
fn a_plan_ranks_the_offers_and_a_row_fills_a_scenario() {
    let q =
        query("plan.tokens=100B&plan.prices=aws-p5.48xlarge%3D3.9%0Aazure-nd96isr-h100-v5%3D6.98&plan.deadline=30d");
    let f = PlanForm::from_query(&q);
    assert_eq!((f.tokens.as_str(), f.deadline.as_str()), ("100B", "30d"));
    let (side, p, _) = plan_section::plan_of(&q).expect("a plan");
    assert_eq!((side, p.ranked_by), (Side::A, "cost"));
    let html = plan_section::result(&q);
    assert!(html.contains("id=\"plan-chart\"") && html.contains("data-fill=\"b\""), "{}", &html[..400]);
    // Sorted by time to train: the rows' times never fall.
    let sorted = plan_section::result(&format!("{q}&plan.sort=time"));
    assert!(sorted.contains("data-sort=\"time\" aria-pressed=\"true\""));
    // Fill B with the p5 row: its node, node count and layout, the sections kept.
    let filled = plan_section::fill(&q, Side::B, "aws-p5.48xlarge").expect("a row");
    let (state, _) = PageState::from_query(&filled);
    let row = p.offers.iter().find(|o| o.id == "aws-p5.48xlarge").expect("planned");
    assert_eq!(state.b.adapters, "32");
    assert_eq!(state.b.nodes, row.nodes.expect("fits").to_string());
    // B runs the job the row priced, A's (B's own model was another).
    let q3 = format!("{q}&a.params=3B");
    let b3 = PageState::from_query(&plan_section::fill(&q3, Side::B, "aws-p5.48xlarge").expect("a row")).0.b;
    assert_eq!(b3.params, "3B");
    assert!(filled.contains("plan.tokens=100B"), "{filled}");
    assert!(plan_section::fill(&q, Side::B, "no-such-offer").is_none());
    // A rack's row brings its NVLink domain, and a plain node's row takes it away again.
    let nvl = p.offers.iter().find(|o| o.offer.nvlink_domain_gpus == Some(72) && o.nodes.is_some()).expect("NVL72");
    let racked = plan_section::fill(&q, Side::A, &nvl.id).expect("a row");
    let (state, _) = PageState::from_query(&racked);
    assert_eq!(state.a.domain, "72", "{racked}");
    let back = plan_section::fill(&racked, Side::A, "aws-p5.48xlarge").expect("a row");
    assert_eq!(PageState::from_query(&back).0.a.domain, "", "{back}");
}

#[wasm_bindgen_test]
fn a_plan_says_its_batch_rule_shows_ids_the_fastest_option_and_the_top_rows() {
    let q = query("plan.tokens=1T");
    let html = plan_section::result(&q);
    assert!(html.contains("id=\"plan-batch-rule\"") && html.contains("the global batch is kept"), "{}", html.as_str());
    // Each offer's id, as the prices box takes it.
    let (_, p, _) = plan_section::plan_of(&q).expect("a plan");
    let first = format!("<code class=\"offer-id\">{}</code>", p.offers[0].id);
    assert!(html.contains(&first), "{}", html.as_str());
    // Dots at one place share one label ("2,3,4"), not a pile of numbers: no two labels closer than one label's
    // size, and the first load's offers that tie do share one.
    let labels: Vec<(f64, f64, String)> = html
        .split("<text class=\"tick dot-label\" x=\"")
        .skip(1)
        .filter_map(|t| {
            let (x, rest) = t.split_once("\" y=\"")?;
            let (y, rest) = rest.split_once("\">")?;
            Some((x.parse().ok()?, y.parse().ok()?, rest.split('<').next()?.to_string()))
        })
        .collect();
    assert!(labels.len() >= 2, "{labels:?}");
    // Boxes as a phone draws them: 22-unit text, about 12 units a character and 22 high.
    let boxed = |l: &(f64, f64, String)| (l.0, l.0 + 12.0 * l.2.len() as f64, l.1 - 22.0, l.1);
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            let (p, q) = (boxed(a), boxed(b));
            let apart = p.1 <= q.0 || q.1 <= p.0 || p.3 <= q.2 || q.3 <= p.2;
            assert!(apart || (a.1 - b.1).abs() >= 16.0, "{a:?} and {b:?} overlap");
        }
    }
    assert!(labels.iter().any(|l| l.2.contains(',')), "{labels:?}");
    // Without a deadline each offer plans its fewest GPU-hours, and says how fast it could go.
    assert!(html.contains("fastest: "), "{}", html.as_str());
    // The first rows, and a button for the rest.
    assert!(p.offers.len() > plan_section::TOP_ROWS);
    assert_eq!(html.matches("<tr data-offer=").count(), plan_section::TOP_ROWS);
    assert!(html.contains(&format!("Show all {} offers", p.offers.len())), "{}", html.as_str());
    let all = plan_section::result(&format!("{q}&plan.all=1"));
    assert_eq!(all.matches("<tr data-offer=").count(), p.offers.len());
    assert!(!all.contains("plan-all"));
    // Keeping tokens per GPU: more nodes train on a larger batch in fewer steps, so the fastest count is faster.
    let per_gpu = plan_section::plan_of(&format!("{q}&plan.batch=keep-per-gpu")).expect("a plan").1;
    assert_eq!(per_gpu.batch, estimator_core::BatchRule::KeepPerGpu);
    let fastest = |p: &estimator_core::plan::Plan| {
        let o = p.offers.iter().find(|o| o.id == "aws-p5.48xlarge").expect("p5");
        (o.fastest_nodes.expect("fits"), o.fastest_time_to_train_s.expect("fits"))
    };
    let (kept, grown) = (fastest(&p), fastest(&per_gpu));
    assert!(grown.1 < kept.1, "per GPU {grown:?} against global {kept:?}");
    let html = plan_section::result(&format!("{q}&plan.batch=keep-per-gpu"));
    assert!(html.contains("the tokens per GPU are kept"), "{}", html.as_str());
    // A row filled under that rule brings its own batch, so the card shows the row's step.
    let per = format!("{q}&plan.batch=keep-per-gpu");
    let row = per_gpu.offers.iter().find(|o| o.id == "aws-p5.48xlarge").expect("p5");
    let filled = plan_section::fill(&per, Side::A, &row.id).expect("a row");
    let (state, _) = PageState::from_query(&filled);
    let tps = row.tokens_per_step.expect("fits");
    assert_eq!(state.a.tokens, format!("{}", tps.round() as u64));
    // The other side runs the job the row priced, A's, with the row's batch: its card shows the row's step too.
    let other = PageState::from_query(&plan_section::fill(&per, Side::B, &row.id).expect("a row")).0;
    assert_eq!(other.b.tokens, state.a.tokens);
    let b = other.b.to_scenario().expect("valid");
    let b_step = estimator_core::step::estimate_step(&b).step_s.as_secs();
    assert!((b_step - row.step_s.expect("step")).abs() <= 1e-9 * b_step, "B {b_step} against {:?}", row.step_s);
    let s = state.a.to_scenario().expect("valid");
    let step = estimator_core::step::estimate_step(&s).step_s.as_secs();
    assert!((step - row.step_s.expect("step")).abs() <= 1e-9 * step, "{step} against the row's {:?}", row.step_s);
    // A job given in milliseconds was planned on the page's default tokens and MFU: the filled side runs that, so
    // its step is the row's too (the reviewer's case).
    let ms = format!("v=3&{q}&a.compute=given&a.compute_ms=900");
    let (_, planned, from_ms) = plan_section::plan_of(&ms).expect("a plan");
    assert!(from_ms);
    let ms_row = planned.offers.iter().find(|o| o.id == "aws-p5.48xlarge").expect("p5");
    for side in [Side::A, Side::B] {
        let st = PageState::from_query(&plan_section::fill(&ms, side, &ms_row.id).expect("a row")).0;
        let f = if side == Side::A { st.a } else { st.b };
        let step = estimator_core::step::estimate_step(&f.to_scenario().expect("valid")).step_s.as_secs();
        assert!(
            (step - ms_row.step_s.expect("step")).abs() <= 1e-9 * step,
            "{side:?} {step} against {:?}",
            ms_row.step_s
        );
    }
}

#[wasm_bindgen_test]
fn a_bad_plan_input_is_named() {
    let err = |extra: &str| plan_section::plan_of(&query(extra)).expect_err("refused");
    assert!(err("plan.tokens=lots").starts_with("Tokens to train"));
    assert!(err("plan.deadline=30").starts_with("Deadline"));
    assert!(err("plan.max_nodes=0").starts_with("Up to nodes"));
    assert!(err("plan.prices=id%2Cusd_per_gpu_hour%0Aaws-p5.48xlarge%2Ccheap").contains("line 2, usd_per_gpu_hour"));
    let html = plan_section::result(&query("plan.prices=%3Cimg%20src%3Dx%3E%3D1"));
    assert!(!html.contains("<img"), "{}", html.as_str());
}

/// Issue 39, item 10: a mistyped offer id is named with the id it is near and left out; the rest is planned. Sorted
/// by cost, the first row is the headline's "Cheapest".
#[wasm_bindgen_test]
fn a_mistyped_offer_is_left_out_with_a_did_you_mean() {
    let q = query("plan.tokens=100B&plan.prices=aws-p5.48xlarg%3D3.9%0Aazure-nd96isr-h100-v5%3D6.98");
    let html = plan_section::result(&q);
    assert!(html.contains("did you mean &#39;aws-p5.48xlarge&#39;?"), "{}", &html[..html.len().min(600)]);
    assert!(html.contains("id=\"plan-headline\"") && html.contains("<tr data-offer="), "the rest is planned");
    let q = query("plan.tokens=100B&plan.prices=aws-p5.48xlarge%3D3.9%0Aazure-nd96isr-h100-v5%3D6.98&plan.deadline=7d");
    let (_, p, _) = plan_section::plan_of(&q).expect("a plan");
    let by_cost = plan_section::result(&format!("{q}&plan.sort=cost"));
    let first = by_cost.split("<tr data-offer=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
    assert!(p.headline.starts_with("Cheapest") && p.headline.contains(&p.offers[0].name), "{}", p.headline);
    assert_eq!(first, p.offers[0].id, "{}", p.headline);
}

/// The run's own records: a trace sent in chunks as sections.js sends it (any split), judged in the result; a file
/// name that is markup stays text; a cleared selection drops them.
#[wasm_bindgen_test]
fn a_trace_sent_in_chunks_is_judged_and_its_name_stays_text() {
    use web::run_records;
    let trace = include_str!("../../tests/data/traces/slow-network-rank0.json");
    let name = "<img src=x onerror=alert(1)>.json";
    let chunks: Vec<&str> = {
        let mut v = Vec::new();
        let mut rest = trace;
        while !rest.is_empty() {
            let mut at = rest.len().min(70_001);
            while !rest.is_char_boundary(at) {
                at -= 1;
            }
            v.push(&rest[..at]);
            rest = &rest[at..];
        }
        v
    };
    let mut status = web::html::Html::new();
    for (i, c) in chunks.iter().enumerate() {
        status = run_records::chunk(name, c, i == 0, i == 0, i + 1 == chunks.len());
    }
    assert!(status.contains("PyTorch profiler trace, rank 0 of 32"), "{}", status.as_str());
    assert!(!status.contains("<img") && status.contains("&lt;img"), "{}", status.as_str());
    // Scenario B on the trace's job; the compute and the step from the trace.
    let q = query("b.nodes=4&b.tp=8&run.side=b");
    let html = run_section::result(&q, None, None);
    assert!(html.contains("id=\"run-collectives\"") && html.contains("data-verdict=\"slow\""), "{}", html.as_str());
    assert!(html.contains("median step over 3 steps"), "the step from the trace: {}", html.as_str());
    assert!(html.contains("id=\"run-curve-0\""), "a chart of measured against the model");
    // Inspector records beside the trace: left out, with why.
    let dump = include_str!("../../tests/data/inspector/datadog-agent-worker0.jsonl");
    let mixed = run_records::chunk("node-pid1.log", dump, false, true, true);
    assert!(
        mixed.contains("node-pid1.log: left out: give traces or Inspector records, not both"),
        "{}",
        mixed.as_str()
    );
    // A file that is neither kind is named, and a cleared selection drops everything.
    // A refused file is marked while it is read, so that the page stops reading it.
    let refused = run_records::chunk("notes.txt", "hello", true, true, false);
    assert!(refused.contains("data-skip=\"1\""), "{}", refused.as_str());
    let bad = run_records::chunk("notes.txt", "", false, false, true);
    assert!(bad.contains("notes.txt: not a PyTorch profiler trace"), "{}", bad.as_str());
    run_records::chunk("", "", true, false, false);
    assert!(!run_section::result(&q, None, None).contains("run-collectives"));
}

/// An Inspector dump sent in chunks cut mid-line is read record by record as it comes: every record, once.
#[wasm_bindgen_test]
fn an_inspector_dump_in_chunks_reads_every_record() {
    use web::run_records;
    let dump = include_str!("../../tests/data/inspector/healthy/node00-pid4000.log");
    let records = dump.lines().count();
    let cuts = [0, 1001, 17_777, dump.len()];
    let mut status = web::html::Html::new();
    for (i, w) in cuts.windows(2).enumerate() {
        status = run_records::chunk("node00-pid4000.log", &dump[w[0]..w[1]], i == 0, i == 0, w[1] == dump.len());
    }
    assert!(status.contains("NCCL Inspector records"), "{}", status.as_str());
    let n = run_records::with(|calls, _| calls.map_or(0, |c| c.calls.len()));
    assert_eq!(n, records);
    run_records::chunk("", "", true, false, false);
}
