//! Component tests in headless Chromium (wasm-bindgen-test-runner drives chromedriver): the pure modules, and the
//! page mounted into a real DOM, typed into and read back.
//!
//! Run: `cargo test -p web --target wasm32-unknown-unknown` (the runner is set in .cargo/config.toml).

#![allow(missing_docs)]

use estimator_core::Seconds;
use estimator_core::human as format;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web::chart::{self, SegmentKind};
use web::form::{FormField, PRESETS, ScenarioForm};
use web::report;
use web::share::{ChartAxis, PageState, Side};
use web_sys::{Document, Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---- pure modules -------------------------------------------------------------------------------------------

#[wasm_bindgen_test]
fn the_first_load_forms_are_valid_and_answer_the_reference_question() {
    for (form, secs) in [(ScenarioForm::page_a(), 8.96), (ScenarioForm::page_b(), 0.56)] {
        let s = form.to_scenario().expect("first-load form is valid");
        let lb = estimator_core::reference_lower_bound(&s);
        assert!((lb.gradient_bytes.get() - 14e9).abs() < 1.0);
        assert!((lb.bytes_per_participant.get() - 28e9).abs() < 1.0);
        assert!((lb.time_s.as_secs() - secs).abs() < 1e-9, "{:?}", lb.time_s);
        assert_eq!(format::secs(lb.time_s), format!("{secs:.2} s"));
    }
}

/// Every input of the core's table with a URL key is a field of the form, and every field of the form is an
/// input with that key: a new input the page forgets fails here (or the table says why in its `url`: `Key::Not`).
#[wasm_bindgen_test]
fn the_form_has_every_input_of_the_table_with_a_url_key() {
    use estimator_core::scenario::inputs;
    for i in &inputs::INPUTS {
        match (i.url.get(), FormField::from_model(i.field)) {
            (Some(key), Some(f)) => assert_eq!(f.key(), key, "{:?}", i.field),
            (Some(key), None) => panic!("{:?} has the URL key {key} but no field on the form", i.field),
            (None, Some(f)) => panic!("{f:?} is on the form but {:?} has no URL key", i.field),
            (None, None) => {}
        }
    }
    for f in FormField::ALL {
        assert_eq!(f.input().field, f.field(), "{f:?}");
    }
    // What counts as hardware is the table's role.
    assert!(ScenarioForm::is_hardware(FormField::Link) && ScenarioForm::is_hardware(FormField::Nodes));
    assert!(!ScenarioForm::is_hardware(FormField::Tp) && !ScenarioForm::is_hardware(FormField::Busbw));
}

/// The volumes a card and its traffic table show add up, on several layouts: the card's bytes through each node's
/// adapters are its per-GPU figure times the GPUs that share them, and that per-GPU figure is the traffic table's
/// total of the adapters column; the table's time and exposed totals are the card's communication and exposed
/// figures.
#[wasm_bindgen_test]
fn the_volumes_on_a_card_add_up_with_its_traffic_table() {
    use web::render;
    use web::result::SideResult;
    let between = |h: &str, from: &str, to: &str| -> String {
        h.split(from).nth(1).and_then(|r| r.split(to).next()).unwrap_or_default().to_string()
    };
    let mut layouts = Vec::new();
    for (fields, label) in [
        (&[][..], "the first load's A (ZeRO-1, 25 GbE)"),
        (&[(FormField::Sync, "zero3")][..], "ZeRO-3 on 2 nodes"),
        (&[(FormField::Sync, "hsdp"), (FormField::Tp, "2")][..], "HSDP with TP 2"),
        (&[(FormField::Sync, "ddp"), (FormField::Nodes, "4"), (FormField::Params, "1B")][..], "DDP on 4 nodes"),
        (&[(FormField::Nodes, "1")][..], "one node"),
        (&[(FormField::Nodes, "36"), (FormField::Params, "70B"), (FormField::Sync, "zero3")][..], "NVL72 racks"),
    ] {
        let mut f = ScenarioForm::page_a();
        if label == "NVL72 racks" {
            f.apply(PRESETS.iter().find(|p| p.id == "gb200-nvl72").expect("preset"));
        }
        for (field, v) in fields {
            f.set(*field, v).expect("text");
        }
        layouts.push((f.to_scenario().unwrap_or_else(|e| panic!("{label}: {e:?}")), label));
    }
    layouts.push((ScenarioForm::page_b().to_scenario().expect("B"), "the first load's B (8 x 400G IB)"));
    for (s, label) in layouts {
        let r = SideResult::new(&s);
        let card = render::result_card(Side::A, &r).into_string();
        let (traffic, _) = render::details(Side::A, &s);
        let traffic = traffic.into_string();
        let per_gpu = between(&traffic, "id=\"a-traffic-network\">", "<");
        if per_gpu == "0 B" || s.nodes() == 1 {
            assert!(card.contains("nothing through the network adapters"), "{label}: {card}");
            continue;
        }
        // A node carries its own GPUs' shares (an NVL72 tray's 4, not its rack's 72).
        let node = human_gb(r.estimate.step.network_bytes_per_gpu.get() * f64::from(s.gpus_per_node()));
        let said = format!("{node} through each node&#39;s adapters ({per_gpu} per GPU)");
        assert!(card.contains(&said), "{label}: '{said}' not on the card: {card}");
        assert!(traffic.contains(&format!("({node} per node: this column × {} GPUs)", s.gpus_per_node())), "{label}");
        let total = between(&traffic, "<tr class=\"total\">", "</tr>");
        let comm = between(&card, "id=\"a-comm\">", "<");
        assert!(
            total.contains(&format!("<td data-label=\"Time\">{comm}</td>")),
            "{label}: time total against the card's {comm}: {total}"
        );
        let exposed = between(&card, "id=\"a-exposed\">", "<");
        assert!(
            total.ends_with(&format!("<td data-label=\"Exposed\">{exposed}</td>")),
            "{label}: exposed {exposed}: {total}"
        );
    }
}

fn human_gb(b: f64) -> String {
    estimator_core::human::gb(estimator_core::Bytes::new(b))
}

/// One request of each kind: a kind added to `Request` fails to compile here until it is listed.
fn every_request() -> Vec<web::protocol::Request> {
    use web::fleet::File;
    use web::protocol::Request;
    let all = vec![
        Request::Load { side: Side::B, name: Some("n.json".into()), size: Some(2), text: "{}".into() },
        Request::Fleet { side: None, files: vec![File { name: "a.json".into(), size: None, text: "{}".into() }] },
        Request::Offer,
        Request::Nodes,
        Request::Details,
        Request::Run { form: true },
        Request::RunRecords { name: "t.json".into(), chunk: "{}".into(), reset: true, first: true, last: true },
        Request::Plan { form: false },
        Request::Fill { side: Side::A, offer: "x".into() },
    ];
    for r in &all {
        match r {
            Request::Load { .. }
            | Request::Fleet { .. }
            | Request::Offer
            | Request::Nodes
            | Request::Details
            | Request::Run { .. }
            | Request::RunRecords { .. }
            | Request::Plan { .. }
            | Request::Fill { .. } => {}
        }
    }
    all
}

/// A message as the page's scripts post it, from its JSON text.
fn message(json: &str) -> wasm_bindgen::JsValue {
    js_sys::JSON::parse(json).expect("JSON")
}

/// The worker's protocol: each request as the scripts write it reads back as that request, with its id and the
/// page's query; an unknown action or a missing field is refused with the reason (never read as a file for "Your
/// node"); a reply comes back as `{id, reply: {kind, ...}}`; the details of the first load hold both sides' traffic.
/// Issue 39, item 5: between the implementation that keeps most and the one that keeps least, the card says the job
/// may not fit, with both figures, rather than that it cannot run.
#[wasm_bindgen_test]
fn a_job_between_the_implementations_may_not_fit() {
    use estimator_core::scenario::{Scenario, ScenarioInput, SyncStrategy};
    use web::render;
    use web::result::SideResult;
    // 7B with ZeRO-1 on one node of 2 H100, 10 GB of activations: 7 x (6 + 6) + 10 = 94 GB as Megatron-LM keeps
    // it, 7 x (4 + 6) + 14 (its step's FP32 copy) = 84 GB as DeepSpeed stage 1 does.
    let i = ScenarioInput {
        sync: SyncStrategy::Zero1,
        nodes: 1,
        gpus_per_node: 2,
        activation_bytes_per_gpu: 10e9,
        ..ScenarioInput::default()
    };
    let s = Scenario::new(i).expect("valid");
    let r = SideResult::new(&s);
    assert!(r.estimate.memory.may_fit);
    let card = render::result_card(Side::A, &r).into_string();
    let least = format::gib(r.estimate.memory.least_total_bytes_per_gpu);
    assert!(card.contains("<b>May not fit:</b>") && card.contains(&least), "{card}");
    assert!(card.contains("may not run as configured") && !card.contains("cannot run"), "{card}");
}

#[wasm_bindgen_test]
fn the_worker_protocol_reads_each_request_and_answers_the_details() {
    use wasm_bindgen::JsValue;
    use web::protocol::{Reply, Request, answer, read_message, write_reply};
    let cases = [
        (r#""nodes""#, Request::Nodes),
        (r#""offer""#, Request::Offer),
        (r#""details""#, Request::Details),
        (r#"{"run":{"form":true}}"#, Request::Run { form: true }),
        (r#"{"plan":{"form":false}}"#, Request::Plan { form: false }),
        (r#"{"fill":{"side":"b","offer":"x"}}"#, Request::Fill { side: Side::B, offer: "x".into() }),
        (
            r#"{"load":{"side":"a","text":"{}"}}"#,
            Request::Load { side: Side::A, name: None, size: None, text: "{}".into() },
        ),
        (
            r#"{"load":{"side":"b","name":"n.json","size":2,"text":"{}"}}"#,
            Request::Load { side: Side::B, name: Some("n.json".into()), size: Some(2), text: "{}".into() },
        ),
        (
            r#"{"fleet":{"files":[{"name":"n.json","size":null,"text":"{}"}]}}"#,
            Request::Fleet {
                side: None,
                files: vec![web::fleet::File { name: "n.json".into(), size: None, text: "{}".into() }],
            },
        ),
        (r#"{"fleet":{"side":"b","files":[]}}"#, Request::Fleet { side: Some(Side::B), files: Vec::new() }),
    ];
    for (json, want) in cases {
        let (id, query, read) = read_message(&message(&format!(r#"{{"id":7,"query":"?a.nodes=4","request":{json}}}"#)));
        assert_eq!((id.as_f64(), query.as_str(), read), (Some(7.0), "?a.nodes=4", Ok(want)), "{json}");
    }
    let bad = [
        r#""delete-everything""#,
        r#"{"run":{}}"#,
        r#"{"side":"b","text":"{}"}"#,
        r#"{"load":{"side":"c","text":""}}"#,
        "3",
    ];
    for bad in bad {
        let (_, _, read) = read_message(&message(&format!(r#"{{"id":1,"request":{bad}}}"#)));
        let why = read.expect_err(bad);
        assert!(why.contains("reload the page"), "{why}");
    }
    let details = answer("", Request::Details);
    let Reply::Details { sides } = &details else { panic!("details") };
    for d in sides {
        assert!(d.traffic.as_str().contains("<table") && d.layout.as_str().contains("Layout:"), "{d:?}");
        assert!(d.verdict.as_str().is_empty(), "no run is checked");
    }
    // On the wire: what boot.js reads.
    let get = |v: &JsValue, path: &str| {
        path.split('.').fold(v.clone(), |at, k| js_sys::Reflect::get(&at, &JsValue::from_str(k)).expect("get"))
    };
    let out = write_reply(&JsValue::from(7), &details);
    assert_eq!(get(&out, "id").as_f64(), Some(7.0));
    assert_eq!(get(&out, "reply.kind").as_string().as_deref(), Some("details"));
    assert_eq!(get(&out, "reply.sides.1.traffic").as_string().as_deref(), Some(sides[1].traffic.as_str()));
    let none = write_reply(&JsValue::from(1), &Reply::Fill { query: None });
    assert!(get(&none, "reply.query").is_undefined(), "no row: no query, as sections.js tests");
    let refused = write_reply(&JsValue::from(1), &Reply::refused("<b>"));
    assert_eq!(get(&refused, "reply.html").as_string().as_deref(), Some("<p class=\"error\">&lt;b&gt;</p>"));
}

/// The page's scripts ask the worker only what the protocol reads and expect only the replies it writes, and every
/// request of the protocol is asked by one of them.
#[wasm_bindgen_test]
fn the_page_scripts_ask_what_the_protocol_reads() {
    use wasm_bindgen::JsValue;
    let scripts = [include_str!("../../static/boot.js"), include_str!("../../static/sections.js")].concat();
    // Each request the scripts write, by its first argument to `request(` or `ask(`: the variant it names.
    let written = [
        ("{ load: { side, name, size, text } }", "load"),
        ("{ fleet: { side, files: list } }", "fleet"),
        ("\"offer\"", "offer"),
        ("\"nodes\"", "nodes"),
        ("\"details\"", "details"),
        ("{ [sec]: { form: false } }", "run plan"),
        ("{ [sec]: { form: true } }", "run plan"),
        ("{ fill: { side: fill.dataset.fill, offer: fill.dataset.offer } }", "fill"),
        ("{ \"run-records\": chunk }", "run-records"),
    ];
    assert!(scripts.contains("for (const sec of [\"run\", \"plan\"])"), "sections.js's sections changed");
    let mut asked = Vec::new();
    for call in scripts.split("request(").skip(1).chain(scripts.split(" ask(").skip(1)) {
        let first = match call.strip_prefix('{') {
            Some(_) => call.find(" }, ").map_or(call, |end| &call[..end + 2]),
            None => call.split([',', ')']).next().unwrap_or(call),
        };
        // A definition's parameter or a request passed on is not one written.
        if ["req", "message", "url"].contains(&first) || call.starts_with("message, ") {
            continue;
        }
        let Some((_, names)) = written.iter().find(|(w, _)| *w == first) else {
            panic!("the scripts write a request the test does not know: {first}")
        };
        asked.extend(names.split(' ').map(String::from));
    }
    let tag = |r: &web::protocol::Request| {
        let v = serde_wasm_bindgen::to_value(r).expect("a request");
        let object: &js_sys::Object = v.unchecked_ref();
        v.as_string().unwrap_or_else(|| js_sys::Object::keys(object).get(0).as_string().expect("a key"))
    };
    let names: Vec<String> = every_request().iter().map(tag).collect();
    for a in &asked {
        assert!(names.contains(a), "the scripts ask '{a}', which the worker does not read");
    }
    for n in &names {
        assert!(asked.contains(n), "no script asks '{n}'");
    }
    // The reply kinds the scripts wait for (`request(req, "kind", ...)`) are kinds the worker writes.
    use web::html::Html;
    use web::protocol::{Reply, SideDetails};
    let side = || SideDetails { verdict: Html::new(), traffic: Html::new(), layout: Html::new() };
    let replies = [
        Reply::Status { html: Html::new(), query: None },
        Reply::Markup { html: Html::new() },
        Reply::Nodes { svg: Html::new(), rows: Html::new() },
        Reply::Details { sides: [side(), side()] },
        Reply::Fill { query: None },
        Reply::refused("x"),
    ];
    let kinds: Vec<String> = replies
        .iter()
        .map(|r| {
            // A kind added to `Reply` fails to compile here until it is listed above.
            match r {
                Reply::Status { .. }
                | Reply::Markup { .. }
                | Reply::Nodes { .. }
                | Reply::Details { .. }
                | Reply::Fill { .. }
                | Reply::Refused { .. } => {}
            }
            let v = serde_wasm_bindgen::to_value(r).expect("a reply");
            js_sys::Reflect::get(&v, &JsValue::from_str("kind")).expect("kind").as_string().expect("a name")
        })
        .collect();
    let mut expected = Vec::new();
    for call in scripts.split("request(").skip(1) {
        let args = call.split(')').next().unwrap_or("");
        // After the request: its object literal, or a name.
        let rest = match args.rfind('}') {
            Some(end) if args.starts_with('{') => &args[end + 1..],
            _ => args.split_once(',').map_or("", |(_, r)| r),
        };
        let kinds_of = rest.split(',').map(|k| k.trim().trim_matches('"').to_string());
        // `...kinds` is the definition's own parameter.
        expected.extend(kinds_of.filter(|k| !k.is_empty() && !k.starts_with("...")));
    }
    assert!(expected.len() >= 8, "{expected:?}");
    for k in &expected {
        assert!(kinds.contains(k), "the scripts wait for a '{k}' reply, which the worker never writes");
    }
}

/// A preset or first-load GPU that only resolved loosely (or fell back to generic figures) would estimate
/// another GPU than the menu says.
#[wasm_bindgen_test]
fn every_preset_and_first_load_gpu_is_a_catalog_key() {
    use estimator_core::catalog::{Lookup, lookup};
    let first = [ScenarioForm::page_a().gpu, ScenarioForm::page_b().gpu];
    for gpu in PRESETS.iter().map(|p| p.gpu).chain(first.iter().map(String::as_str)) {
        match lookup(gpu) {
            Lookup::Exact(spec) => assert_eq!(spec.key, gpu, "{gpu} is a reported name, not the key"),
            other => panic!("{gpu} does not resolve exactly: {other:?}"),
        }
    }
}

#[wasm_bindgen_test]
fn bad_text_names_the_field_and_the_reason() {
    let cases: [(FormField, &str, &str); 9] = [
        (FormField::Params, "", "enter a value"),
        (FormField::Link, "50GB/s", "that is 400 Gb/s"),
        (FormField::Params, "abc", "not a number"),
        (FormField::Params, "-7B", "at least 0"),
        (FormField::Params, "1e20", "at most 1e14"),
        (FormField::Nodes, "2.5", "whole number"),
        (FormField::Nodes, "0", "at least 1"),
        (FormField::Link, "99999", "at most 3200 Gb/s"),
        (FormField::Overlap, "150", "between 0 and 100"),
    ];
    for (field, text, expected) in cases {
        let mut f = ScenarioForm::page_a();
        f.set(field, text).expect("text fields take any text");
        let errors = f.to_scenario().expect_err("must be rejected");
        assert_eq!(errors[0].field, field, "{text}");
        assert!(errors[0].message.contains(expected), "{text}: '{}'", errors[0].message);
    }
    let mut f = ScenarioForm::page_a();
    f.set(FormField::Params, "x").expect("text");
    f.set(FormField::Link, "y").expect("text");
    let errors = f.to_scenario().expect_err("two bad fields");
    assert_eq!(errors.len(), 2, "every unreadable field is reported");
    f.set(FormField::Link, "100").expect("text");
    f.set(FormField::Nodes, "0").expect("text");
    let errors = f.to_scenario().expect_err("one unreadable, one out of range");
    let fields: Vec<_> = errors.iter().map(|e| e.field).collect();
    assert_eq!(fields, [FormField::Params, FormField::Nodes], "the model still checks the readable fields");
    assert!(f.set(FormField::Fabric, "carrier-pigeon").is_err());
    assert_eq!(f.fabric, ScenarioForm::page_a().fabric, "a refused select value keeps the old one");
}

/// A line rate reads as a port is sold, as the CLI's `--link-gbps` reads it (the table's reader).
#[wasm_bindgen_test]
fn a_line_rate_reads_with_its_unit() {
    for (text, gbps) in [("400G", 400.0), ("400 Gb/s", 400.0), ("100GbE", 100.0), ("1.6T", 1600.0), ("25", 25.0)] {
        let mut f = ScenarioForm::page_a();
        f.set(FormField::Link, text).expect("text");
        let s = f.to_scenario().unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(s.input().link_gbps, gbps, "{text}");
    }
}

#[wasm_bindgen_test]
fn a_changed_state_round_trips_through_the_url() {
    assert_eq!(PageState::default().to_query(), "", "the first load has an empty query");
    let mut st = PageState::default();
    st.a.set(FormField::Nodes, "4").expect("text");
    st.b.set(FormField::Fabric, "roce").expect("fabric");
    st.b.set(FormField::Params, "70B & more").expect("text");
    let _ = st.b.apply(&PRESETS[4]);
    st.chart.axis = ChartAxis::Efficiency;
    st.embed = true;
    let q = st.to_query();
    assert!(q.starts_with("v=3&"), "a link names the first load it was written against: {q}");
    assert!(q.contains("a.nodes=4"), "{q}");
    assert!(q.contains("embed=1"), "{q}");
    let (back, notes) = PageState::from_query(&format!("?{q}"));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back, st);
}

#[wasm_bindgen_test]
fn expert_tensor_parallelism_reads_from_the_form_and_the_link() {
    let mut f = ScenarioForm::page_b();
    for (field, v) in
        [(FormField::Model, "mixtral-8x7b"), (FormField::Tp, "2"), (FormField::Ep, "8"), (FormField::Etp, "1")]
    {
        f.set(field, v).expect("text");
    }
    let s = f.to_scenario().expect("valid");
    assert_eq!((s.layout().ep, s.layout().etp), (8, 1));
    let st = PageState { b: f.clone(), ..PageState::default() };
    let (back, notes) = PageState::from_query(&st.to_query());
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back.b.value(FormField::Etp), "1");
    // Empty is megatron-core's default: the tensor-parallel degree.
    f.set(FormField::Etp, "").expect("text");
    assert_eq!(f.to_scenario().expect("valid").layout().etp, 2);
}

/// Issue 25, item 10: the page's first load is the core's reference scenario, A and B, with its figures (the CLI's
/// `estimate step --reference` is held to the same definition in probe-cli/tests/cli.rs).
#[wasm_bindgen_test]
fn the_first_load_is_the_cores_reference_scenario() {
    use estimator_core::scenario::reference::{reference_fast, reference_slow};
    for (form, want) in [(ScenarioForm::page_a(), reference_slow()), (ScenarioForm::page_b(), reference_fast())] {
        let s = form.to_scenario().expect("valid");
        assert_eq!(s.input(), &want, "the page's scenario is the core's");
        let page = web::result::SideResult::new(&s).estimate.step.step_s;
        let core = estimator_core::estimate_step(&estimator_core::Scenario::new(want).expect("valid")).step_s;
        assert_eq!(page, core);
    }
}

#[wasm_bindgen_test]
fn any_query_reads_without_panicking() {
    for q in ["", "?", "&&&", "a.nodes", "a.=1", "%", "%zz=%", "a.fabric=%FF%FE", "b.gdr=maybe", "x.y.z=1"] {
        let _ = PageState::from_query(q);
    }
    let (st, notes) = PageState::from_query("a.fabric=warp&a.link=100&b.dtype=int4&zzz=1");
    assert_eq!(st.a.link_gbps, "100");
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].contains("a.fabric"), "{notes:?}");
    // A notice names the key and never echoes the value: a link's text does not reach the page.
    let (_, notes) = PageState::from_query("v=2&a.gpu=Call%20support%20at%20evil.example%20now");
    assert_eq!(notes.len(), 1);
    assert!(!notes[0].contains("evil") && notes[0].contains("a.gpu"), "{notes:?}");
    let long = "a.params=".to_string() + &"9".repeat(100_000);
    let (st, _) = PageState::from_query(&long);
    assert!(st.a.params.len() <= web::form::MAX_TEXT);
}

#[wasm_bindgen_test]
fn bars_split_the_step_and_sum_to_it() {
    let mut f = ScenarioForm::page_a();
    f.set(FormField::Overlap, "50").expect("text");
    f.set(FormField::Compute, "given").expect("mode");
    f.set(FormField::ComputeMs, "50000").expect("text");
    let s = f.to_scenario().expect("valid");
    let e = estimator_core::estimate_step(&s);
    let segs = chart::bar_segments(&e, e.step_s.as_secs(), 100.0);
    let kinds: Vec<_> = segs.iter().map(|s| s.kind).collect();
    let mut want = vec![SegmentKind::Compute, SegmentKind::Hidden, SegmentKind::Exposed];
    if e.rank_wait_s.as_secs() > 0.0 {
        want.push(SegmentKind::Wait);
    }
    assert_eq!(kinds, want);
    let total: f64 = segs.iter().map(|s| s.seconds).sum();
    assert!((total - e.step_s.as_secs()).abs() < 1e-9);
    assert!((segs.iter().map(|s| s.width).sum::<f64>() - 100.0).abs() < 1e-6);
}

#[wasm_bindgen_test]
fn the_card_and_the_bar_show_the_steps_range() {
    let s = ScenarioForm::page_a().to_scenario().expect("valid");
    let r = web::result::SideResult::new(&s);
    let e = &r.estimate.step;
    let [lo, hi] = e.step_range_s;
    assert!(lo < e.step_s && e.step_s < hi, "{lo:?} {:?} {hi:?}", e.step_s);
    let card = web::render::result_card(Side::A, &r).into_string();
    let range = format!("{} to {}", format::secs(lo), format::secs(hi));
    assert!(card.contains(&range), "the card shows {range}: {card}");
    // One whisker per bar, from the low end to the high end on the bars' time scale (the highest end spans it).
    let svg = chart::bars_svg(&[("A", e), ("B", e)]).into_string();
    assert_eq!(svg.matches(r#"<g class="bar-range">"#).count(), 2, "{svg}");
    let x =
        |t: Seconds| format!("x1=\"{}\"", estimator_core::human::fixed(28.0 + t.as_secs() / hi.as_secs() * 520.0, 2));
    assert!(svg.contains(&x(lo)) && svg.contains(&x(hi)), "{svg}");
}

#[wasm_bindgen_test]
fn the_nodes_chart_puts_more_time_higher() {
    let s = ScenarioForm::page_a().to_scenario().expect("valid");
    let sweep = chart::node_sweep(&s, estimator_core::BatchRule::KeepGlobal);
    assert_eq!(sweep.len(), chart::NODE_STEPS.len());
    // Keeping tokens per GPU, the compute per step stays as the scenario's on its own 2 nodes: no point's step
    // falls below it, where a kept global batch shrinks the compute with more GPUs.
    let grown = chart::node_sweep(&s, estimator_core::BatchRule::KeepPerGpu);
    let own = grown.iter().find(|p| p.x == 2.0).expect("2 nodes").compute_s.as_secs();
    assert!(grown.iter().all(|p| (p.compute_s.as_secs() - own).abs() <= 1e-9 * own), "{grown:?}");
    assert!(sweep.last().expect("points").compute_s.as_secs() < own / 100.0, "256 nodes split the kept batch");
    let (_, rows) = web::chart::nodes_figure("batch=per-gpu");
    let (_, kept_rows) = web::chart::nodes_figure("");
    assert_ne!(rows.as_str(), kept_rows.as_str(), "the chart follows the rule in the URL");
    let c = chart::nodes_chart(&[(&sweep[..], 2)], ChartAxis::StepTime);
    let line = &c.lines[0];
    assert!(line.path.starts_with('M'));
    assert_eq!(line.points.iter().filter(|p| p.current).count(), 1);
    // Step time falls with more nodes here (compute shrinks), so y (down the screen) grows.
    for (w, p) in sweep.windows(2).zip(line.points.windows(2)) {
        if w[1].step_s < w[0].step_s {
            assert!(p[1].y >= p[0].y);
        }
    }
    let e = chart::nodes_chart(&[(&sweep[..], 2)], ChartAxis::Efficiency);
    assert!(e.lines[0].points.iter().all(|p| p.y >= chart::TOP - 1e-9 && p.y <= chart::HEIGHT - chart::BOTTOM + 1e-9));
}

#[wasm_bindgen_test]
fn durations_read_as_people_write_them() {
    assert_eq!(format::secs(Seconds::new(8.96)), "8.96 s");
    assert_eq!(format::secs(Seconds::new(0.56)), "0.56 s");
    assert_eq!(format::secs(Seconds::new(0.0863)), "86.3 ms");
    assert_eq!(format::secs(Seconds::new(25e-6)), "25 µs");
    assert_eq!(format::gb(estimator_core::Bytes::new(14e9)), "14 GB");
    assert_eq!(format::num(3.125, 4), "3.125");
    assert_eq!(format::secs(Seconds::new(250.0)), "250 s");
    assert_eq!(format::secs(Seconds::new(3600.0)), "60 min");
    assert_eq!(format::decade(100.0), "100 s");
    assert_eq!(format::decade(0.01), "10 ms");
}

// ---- the mounted page ---------------------------------------------------------------------------------------

/// Real `probe-cli report --json` outputs: the snapshots of two fixture nodes.
const H100_REPORT: &str = include_str!("../../tests/fixtures/nodes/h100-ib-8x400.json");
const ROCE_REPORT: &str = include_str!("../../tests/fixtures/nodes/roce-2x200.json");

#[wasm_bindgen_test]
fn a_report_fills_one_side_and_says_what_it_took() {
    let r = report::handle("", Side::A, Some("node.json"), Some(H100_REPORT.len()), H100_REPORT);
    let q = r.query.expect("a filled scenario");
    let (state, notes) = PageState::from_query(&q);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(state.a.value(FormField::Link), "400");
    assert_eq!(state.a.value(FormField::Fabric), "infiniband");
    assert_eq!(state.b, ScenarioForm::page_b(), "B is untouched");
    for part in ["Filled scenario A from node.json", "8 active InfiniBand ports at 400 Gb/s", "report-rec"] {
        assert!(r.html.contains(part), "{part} not in {}", r.html);
    }
    // Into B, on top of a changed page: the rest of the state stays.
    let r = report::handle("?a.params=70B&a.nodes=4", Side::B, None, None, ROCE_REPORT);
    let (state, _) = PageState::from_query(&r.query.expect("filled"));
    assert_eq!((state.a.value(FormField::Params), state.a.value(FormField::Nodes)), ("70B".into(), "4".into()));
    assert_eq!(state.b.value(FormField::Gpu), "l40s");
    assert_eq!(state.b.value(FormField::GpusPerNode), "4");
    assert_eq!(state.b.value(FormField::Fabric), "roce");
    assert_eq!(state.b.value(FormField::Gdr), "1", "gdr unknown keeps the form's value");
    assert!(r.html.contains("the pasted text"));
}

/// The bad node of a fleet: a port down, a NIC at x8, a container without /dev/infiniband, 64 KiB of locked memory
/// and NCCL_IB_DISABLE=1.
const BAD_NODE_REPORT: &str = include_str!("../../tests/fixtures/nodes/h100-ib-port-down.json");
const A3_MEGA_REPORT: &str = include_str!("../../tests/fixtures/nodes/gcp-a3mega-tcpxo.json");
const LAPTOP_REPORT: &str = include_str!("../../tests/fixtures/nodes/laptop.json");

/// Issue 39, item 7: the page reads a report as the CLI does: GCP's A3 Mega is 8 x 200 Gb/s TCPXO (not 9 ports of
/// TCP), a node with no network is not ready, and a port that is down is flagged.
#[wasm_bindgen_test]
fn a_report_reads_as_the_cli_reads_it() {
    let r = report::handle("", Side::A, Some("a3mega.json"), None, A3_MEGA_REPORT);
    let (state, _) = PageState::from_query(&r.query.expect("filled"));
    assert_eq!(
        (state.a.value(FormField::Adapters), state.a.value(FormField::Link), state.a.value(FormField::Fabric)),
        ("8".to_string(), "200".to_string(), "tcpxo".to_string()),
        "{}",
        r.html
    );
    let r = report::handle("", Side::A, Some("laptop.json"), None, LAPTOP_REPORT);
    assert!(r.html.contains("Readiness for a multi-node job: <b>not ready</b>"), "{}", r.html);
    assert!(r.html.contains("network"), "{}", r.html);
    let r = report::handle("", Side::A, Some("bad.json"), None, BAD_NODE_REPORT);
    assert!(r.html.contains("rdma-ports: 1 of 8 RDMA port(s) not active: mlx5_3 port 1"), "{}", r.html);
}

#[wasm_bindgen_test]
fn a_loaded_report_shows_what_keeps_the_node_from_being_ready() {
    let r = report::handle("", Side::A, Some("node.json"), None, BAD_NODE_REPORT);
    assert!(r.query.is_some(), "the hardware is still taken");
    for part in [
        "Readiness for a multi-node job: <b>not ready</b>",
        "<b>fail</b> memlock: locked memory limited to 64 KiB",
        "NCCL_IB_DISABLE=1",
        "x slower",
        "Fix: unset NCCL_IB_DISABLE",
        "mlx5_4 x8 of x16",
    ] {
        assert!(r.html.contains(part), "{part} not in {}", r.html);
    }
    // Fails first, then warnings, then the passes by name.
    let (fail, warn, pass) = (r.html.find("<b>fail</b>"), r.html.find("<b>warn</b>"), r.html.find("<b>pass</b>"));
    assert!(fail < warn && warn < pass, "{}", r.html);
    // The scenario filled from it says which faults it assumes away.
    assert!(r.html.contains("The estimate is for this node with") && r.html.contains("memlock"), "{}", r.html);
    let r = report::handle("", Side::A, Some("node.json"), None, H100_REPORT);
    assert!(r.html.contains("ready, with warnings") && r.html.contains("check again under load"), "{}", r.html);
    // A report without checks (an older probe) gets today's, recomputed from its facts as the CLI's reader does.
    let old = H100_REPORT.replacen("\"readiness\": [", "\"checks_of_a_later_probe\": [", 1);
    assert_ne!(old, H100_REPORT);
    let r = report::handle("", Side::A, Some("node.json"), None, &old);
    assert!(r.query.is_some() && r.html.contains("Readiness for a multi-node job"), "{}", r.html);
}

#[wasm_bindgen_test]
fn several_reports_are_a_fleet_with_its_odd_node_named() {
    use web::fleet::File;
    let files: Vec<File> = [
        ("gpu-1.json", H100_REPORT),
        ("gpu-2.json", H100_REPORT),
        ("gpu-3.json", BAD_NODE_REPORT),
        ("notes.json", "{ not a report"),
        ("<img src=x>.json", "[]"),
    ]
    .iter()
    .map(|(n, t)| File { name: n.to_string(), size: Some(t.len()), text: t.to_string() })
    .chain(std::iter::once(File { name: "huge.json".to_string(), size: Some(5 << 20), text: String::new() }))
    .collect();
    let h = web::fleet::table(&files);
    for part in [
        // Issue 39: the node with a port down is one of the fleet's kind, and fields read in words.
        "Fleet of 3 nodes, 1 kind(s) of node; 3 outlier field(s)",
        "3 × 8 x NVIDIA H100 80GB HBM3, 8 x 400 Gb/s infiniband",
        "<tr><td>gpu-3</td><td>NIC PCIe width</td><td>x8</td><td>x16</td></tr>",
        "notes.json: report: not JSON",
        "&lt;img src=x&gt;.json",
        "huge.json: report: the file is",
    ] {
        assert!(h.contains(part), "{part} not in {}", h.as_str());
    }
    assert!(!h.contains("<img"), "a file name is text");
    // Ports 8 and 7 on two H100 nodes: no majority, so the node with the most ports is the healthy one; the RoCE
    // node of another kind is held to its own kind's values, not to the H100s' (issue 39).
    let three: Vec<File> = [("eight", H100_REPORT), ("seven", BAD_NODE_REPORT), ("two", ROCE_REPORT)]
        .iter()
        .map(|(n, t)| File { name: format!("{n}.json"), size: None, text: t.to_string() })
        .collect();
    let h = web::fleet::table(&three);
    assert!(h.contains("<tr><td>seven</td><td>active RDMA ports</td><td>7</td><td>8</td></tr>"), "{}", h.as_str());
    assert!(!h.contains("<tr><td>two</td>"), "another kind is not held to the H100s' values: {}", h.as_str());
    assert!(!h.contains("<tr><td>eight</td><td>active RDMA ports"), "the healthy node is not flagged: {}", h.as_str());
    assert!(!h.contains("fleet-ties"), "two of three share every other value: {}", h.as_str());
    let none = web::fleet::table(&[File { name: "a.json".to_string(), size: None, text: "nope".to_string() }]);
    assert!(none.contains("None of the 1 files is a report"), "{}", none.as_str());
}

/// A real nccl-tests run (2 x 8 H100, 8 x 400G NDR, NCCL_ALGO=Ring, reported as misconfigured) and a real NCCL log
/// whose network channels run without GPUDirect RDMA.
const RUN_290: &str = include_str!("../../tests/data/nccl-tests/raw/nccl-tests-290-h100-2node-ndr-ring.txt");
/// A real run with rank lines (2 x 8 H100 on OCI, 16 x 200G RoCE; ranks 1-14 elided in the source).
const RUN_OCI_H100: &str = include_str!("../../tests/data/nccl-tests/raw/oci-h100-2node-roce-16x200.txt");
const LOG_NO_GDR: &str = include_str!("../../tests/data/tool-outputs/nccl_02_NET-IB_noGDR_HDR_nccl-1412_EXCERPT.txt");

/// An nccl-tests output with its header and no row says why there is nothing to judge, beside its "0 rows".
#[wasm_bindgen_test]
fn an_output_without_rows_says_why() {
    let head: String = RUN_OCI_H100
        .lines()
        .take_while(|l| !l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| format!("{l}\n"))
        .collect();
    let r = report::handle("", Side::B, Some("cut.txt"), None, &head);
    assert!(r.html.contains("0 rows"), "{}", r.html);
    assert!(r.html.contains("no result row was read: the output stops before its table"), "{}", r.html);
    assert_eq!(r.query, None);
}

#[wasm_bindgen_test]
fn a_paste_of_several_runs_judges_the_first_and_lists_them() {
    let two = format!("{RUN_OCI_H100}\n{RUN_OCI_H100}");
    let r = report::handle("", Side::B, Some("sweep.txt"), None, &two);
    assert!(r.html.contains("This text holds 2 runs; the first is judged here"), "{}", r.html);
    assert!(r.html.contains("run 2: 16 ranks on 2 nodes, "), "each run with its own ranks: {}", r.html);
    assert!(r.html.contains("Verdict:"), "{}", r.html);
}

const IBSTAT_ETH100: &str = include_str!("../../tests/data/tool-outputs/ibstat_02_l2fwd-nv-6_cx6dx_eth100.txt");

/// Issue 39, item 8: a pasted `ibstat` leads to its next step: the active ports offered as the side's adapters; and
/// one after a shell prompt that opens with `[` is read as the tool output it is, not as JSON.
#[wasm_bindgen_test]
fn a_pasted_ibstat_offers_its_ports_as_the_adapters() {
    let text = IBSTAT_ETH100.split_once("=======\n").map_or(IBSTAT_ETH100, |(_, t)| t);
    let pasted = format!("[root@node ~]# ibstat\n{text}");
    let r = report::handle("", Side::A, None, None, &pasted);
    assert!(!r.html.contains("not JSON"), "{}", r.html);
    assert!(r.html.contains("2 active ports at 100 Gb/s (RoCE"), "{}", r.html);
    assert!(r.html.contains("Fill A with 2 x 100 Gb/s RoCE"), "{}", r.html);
    assert_eq!(r.query, None, "nothing changes without the user's say");
    let r = report::accept_offer("");
    let (state, _) = PageState::from_query(&r.query.expect("A takes the ports"));
    assert_eq!(state.a.value(FormField::Adapters), "2");
    assert_eq!(state.a.value(FormField::Link), "100");
    assert_eq!(state.a.value(FormField::Fabric), "roce");
    // A port that is down is named, and not offered.
    let down = text.replacen("State: Active", "State: Down", 1).replacen(
        "Physical state: LinkUp",
        "Physical state: Disabled",
        1,
    );
    let r = report::handle("", Side::A, None, None, &down);
    assert!(r.html.contains("Not active: mlx5_0 port 1"), "{}", r.html);
    assert!(r.html.contains("1 active port at 100 Gb/s"), "{}", r.html);
}

#[wasm_bindgen_test]
fn a_pasted_run_gets_a_verdict_and_the_user_decides_what_changes() {
    // The log first: it is shown and kept as evidence.
    let r = report::handle("", Side::B, Some("nccl.log"), None, LOG_NO_GDR);
    assert_eq!(r.query, None, "a log changes no scenario");
    assert!(r.html.contains("nccl-log") && r.html.contains("GPUDirect RDMA off"), "{}", r.html);
    assert!(!r.html.contains('?'), "no placeholders: {}", r.html);
    let r = report::handle("", Side::B, Some("run.txt"), None, RUN_290);
    assert!(r.html.contains("Verdict: <b>unhealthy</b>"), "{}", r.html);
    assert!(r.html.contains("GPUDirect RDMA is off"), "the log's evidence names a cause: {}", r.html);
    assert!(
        r.html.contains("The NCCL log: transport ib, GPUDirect RDMA off"),
        "the evidence given earlier is in the verdict: {}",
        r.html
    );
    assert_eq!(r.query, None, "nothing changes without the user's say");
    assert!(r.html.contains("Use the measured 95.5"), "{}", r.html);
    // The user clicks the offer.
    let r = report::accept_offer("");
    let (state, _) = PageState::from_query(&r.query.expect("B now uses the measured busbw"));
    let measured = state.b.value(FormField::Busbw);
    assert!(measured.starts_with("95.5"), "{measured}");
    assert_eq!(state.b.value(FormField::Nodes), "2", "the node count is the run's and B's");
    let s = state.b.to_scenario().expect("valid");
    let card = web::render::result_card(Side::B, &web::result::SideResult::new(&s));
    assert!(card.contains("GB/s per GPU as nccl-tests would print it, measured;"), "the card labels it: {card}");
    assert!(card.contains("b-use-model"), "with a one-click way back: {card}");
    assert_eq!(state.a, ScenarioForm::page_a(), "A is untouched");
    assert_eq!(report::accept_offer("").query, None, "an offer is taken once");
}

#[wasm_bindgen_test]
fn a_run_from_other_hardware_is_a_mismatch_and_changes_nothing() {
    // An 8 x 400G InfiniBand run pasted onto A (one 25 GbE port per node): far above what A can give.
    let r = report::handle("", Side::A, Some("run.txt"), None, RUN_290);
    assert!(r.html.contains("Verdict: <b>not judged</b> (mismatch)"), "{}", r.html);
    assert!(r.html.contains("faster hardware"), "{}", r.html);
    assert!(!r.html.contains("healthy"), "{}", r.html);
    // Not judged means no share of the model's figure and no "as expected" along a curve beside it.
    for judged in ["%.", "As expected", "report-departure", "the model expects"] {
        assert!(!r.html.contains(judged), "a mismatch says '{judged}': {}", r.html);
    }
    assert_eq!(r.query, None);
    assert!(!r.html.contains("report-offer"), "nothing to fill: the run does not say what its network was");
    // An H100 run after an L40S report filled A: the run's own lines say what it ran on, and the page offers it.
    let filled = report::handle("", Side::A, Some("node.json"), None, ROCE_REPORT).query.expect("filled");
    let r = report::handle(&filled, Side::A, Some("run.txt"), None, RUN_OCI_H100);
    assert!(r.html.contains("Verdict: <b>not judged</b> (mismatch)"), "{}", r.html);
    assert!(r.html.contains("NVIDIA H100"), "{}", r.html);
    assert!(r.html.contains("16 ranks; the scenario has 8 GPUs"), "{}", r.html);
    assert!(r.html.contains("Fill A with this run&#39;s hardware"), "{}", r.html);
    let (before, _) = PageState::from_query(&filled);
    assert_eq!(before.a.value(FormField::Gpu), "l40s");
    let (after, _) = PageState::from_query(&report::accept_offer(&filled).query.expect("the user said yes"));
    assert_eq!(after.a.value(FormField::Gpu), "h100-sxm");
    assert_eq!(after.a.value(FormField::GpusPerNode), "8");
    assert_eq!(after.a.value(FormField::Nodes), "2");
    assert!(after.a.value(FormField::Busbw).starts_with("464.5"), "{}", after.a.value(FormField::Busbw));
    // A GPU name with markup in a run's rank lines is shown as text.
    let hostile = RUN_OCI_H100.replace("NVIDIA H100 80GB HBM3", "<img src=x onerror=alert(1)> H100");
    let r = report::handle(&filled, Side::A, Some("run.txt"), None, &hostile);
    assert!(!r.html.contains("<img"), "{}", r.html);
}

#[wasm_bindgen_test]
fn a_measured_bus_bandwidth_belongs_to_its_hardware() {
    let mut f = ScenarioForm::page_b();
    f.measured_busbw = "392.3".into();
    assert_eq!(f.edit(FormField::Params, "13B"), None, "the model is not hardware");
    assert_eq!(f.measured_busbw, "392.3");
    assert_eq!(f.edit(FormField::Link, "400"), None, "the same value changes nothing");
    let said = f.edit(FormField::Link, "25").expect("cleared");
    assert!(said.contains("392.3") && said.contains("other hardware"), "{said}");
    assert_eq!(f.measured_busbw, "");
    f.measured_busbw = "392.3".into();
    assert!(f.apply(&PRESETS[1]).is_some(), "a preset of other hardware clears it");
    f.measured_busbw = "392.3".into();
    let said = report::handle("v=2&a.busbw=392.3", Side::A, Some("n.json"), None, ROCE_REPORT);
    let (state, _) = PageState::from_query(&said.query.expect("filled"));
    assert_eq!(state.a.measured_busbw, "", "a report clears it");
    assert!(said.html.contains("Cleared the measured bus bandwidth"), "and says so: {}", said.html);
}

#[wasm_bindgen_test]
fn implausible_values_get_a_hint() {
    let mut f = ScenarioForm::page_a();
    f.set(FormField::Params, "70").expect("text");
    assert_eq!(f.hint(FormField::Params).as_deref(), Some("70 parameters: did you mean 70B?"));
    f.set(FormField::Mfu, "0.4").expect("text");
    assert_eq!(f.hint(FormField::Mfu).as_deref(), Some("MFU 0.4%: did you mean 40%?"));
    assert!(f.to_scenario().is_ok(), "a hint does not block the estimate");
    f.set(FormField::Params, "7B").expect("text");
    f.set(FormField::Mfu, "40").expect("text");
    assert_eq!((f.hint(FormField::Params), f.hint(FormField::Mfu)), (None, None));
}

#[wasm_bindgen_test]
fn links_written_before_v2_keep_their_meaning() {
    // Before v=2, A was 8 x 25 Gb/s RoCE and both sides ran DDP at 4M tokens per step.
    let (old, _) = PageState::from_query("a.nodes=4");
    assert_eq!(old.a.value(FormField::Adapters), "8");
    assert_eq!(old.a.value(FormField::Fabric), "roce");
    assert_eq!(old.a.value(FormField::Sync), "ddp");
    let (new, _) = PageState::from_query("v=2&a.nodes=4");
    assert_eq!(new.a.value(FormField::Adapters), "1");
    assert_eq!(new.a.value(FormField::Sync), "zero1");
    let (back, _) = PageState::from_query(&old.to_query());
    assert_eq!(back, old, "an old link re-written as v=3 means the same");
    // Before v=3 an overlap the link did not write was none; now it is the frameworks' schedule.
    assert_eq!(new.a.value(FormField::Overlap), "0");
    assert_eq!(old.b.value(FormField::Overlap), "0");
    let (now, _) = PageState::from_query("v=3&a.nodes=4");
    assert_eq!(now.a.value(FormField::Overlap), "", "the schedule's");
    let (back, _) = PageState::from_query(&new.to_query());
    assert_eq!(back, new, "a v=2 link re-written as v=3 means the same");
}

#[wasm_bindgen_test]
fn a_bad_report_names_the_problem_and_changes_nothing() {
    let v2 = H100_REPORT.replacen("\"schema_version\": 1", "\"schema_version\": 2", 1);
    let absurd = H100_REPORT.replacen("\"adapter_gbps\": 400.0", "\"adapter_gbps\": 1e9", 1);
    let cases: [(&str, Option<usize>, &str); 5] = [
        ("GPU0 NV18 PIX", None, "not JSON"),
        (&v2, None, "schema version 2"),
        (&absurd, None, "summary.adapter_gbps"),
        ("", Some(5 << 20), "1 MiB"),
        ("{\"hello\": 1}", None, "schema_version: missing"),
    ];
    for (text, size, words) in cases {
        let r = report::handle("", Side::A, Some("x.json"), size, text);
        assert_eq!(r.query, None, "{words}");
        assert!(r.html.contains(words) && r.html.contains("unchanged"), "{words}: {}", r.html);
    }
    // Markup in a file name or a value is shown as text: a file name, a report's field, a URL key.
    let r = report::handle("", Side::A, Some("<img src=x>.json"), None, "nope");
    assert!(!r.html.contains("<img") && r.html.contains("&lt;img"), "{}", r.html);
    let hostile = H100_REPORT
        .replace("\"gpu_model\": \"NVIDIA H100 80GB HBM3\"", "\"gpu_model\": \"<img src=x onerror=alert(1)>\"");
    assert_ne!(hostile, H100_REPORT, "the fixture names its GPU model");
    let r = report::handle("", Side::A, Some("node.json"), None, &hostile);
    assert!(!r.html.contains("<img") && r.html.contains("&lt;img"), "{}", r.html);
    // A readiness check's text is text too (its facts are the report's: the down port's adapter name).
    let hostile = BAD_NODE_REPORT.replace("mlx5_3", "<script>alert(1)</script>");
    assert_ne!(hostile, BAD_NODE_REPORT);
    let r = report::handle("", Side::A, Some("node.json"), None, &hostile);
    assert!(!r.html.contains("<script") && r.html.contains("&lt;script&gt;"), "{}", r.html);
    let (_, notes) = PageState::from_query("a.%3Cimg%20src%3Dx%3E=1&%3Cscript%3E=1&a.gpu=%3Cb%3E");
    assert!(notes.iter().all(|n| !n.contains('<')), "{notes:?}");
}

fn document() -> Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

thread_local! {
    static ROOT: std::cell::RefCell<Option<Element>> = const { std::cell::RefCell::new(None) };
}

/// An element of the mounted page by id (looked up inside the page's root, not the whole test document).
fn by_id(id: &str) -> Element {
    let root = ROOT.with(|r| r.borrow().clone()).expect("a page is mounted");
    root.query_selector(&format!("#{id}")).ok().flatten().unwrap_or_else(|| panic!("#{id} is on the page"))
}

fn text(id: &str) -> String {
    by_id(id).text_content().unwrap_or_default()
}

fn dispatch(el: &Element, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(kind, &init).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
}

async fn type_into(id: &str, value: &str) {
    let input: HtmlInputElement = by_id(id).dyn_into().expect("an input");
    input.set_value(value);
    dispatch(&input, "input");
    leptos::task::tick().await;
}

async fn choose(id: &str, value: &str) {
    let select: HtmlSelectElement = by_id(id).dyn_into().expect("a select");
    select.set_value(value);
    dispatch(&select, "change");
    leptos::task::tick().await;
}

async fn click(id: &str) {
    let el: HtmlElement = by_id(id).dyn_into().expect("an element");
    el.click();
    leptos::task::tick().await;
}

/// Mounts the page into a fresh div. The query is cleared first: the page reads its state from the URL and writes
/// it back, and the tests share one document.
fn mount(query: &str) -> (leptos::mount::UnmountHandle<impl leptos::prelude::Mountable>, Element) {
    web::browser::replace_query(query);
    let div = document().create_element("div").expect("div");
    document().body().expect("body").append_child(&div).expect("append");
    let handle = leptos::mount::mount_to(div.clone().unchecked_into(), web::App);
    ROOT.with(|r| *r.borrow_mut() = Some(div.clone()));
    (handle, div)
}

async fn first_load_shows_the_reference_answer_with_its_arithmetic() {
    let (_h, root) = mount("");
    leptos::task::tick().await;
    assert_eq!(text("a-reference"), "8.96 s");
    assert_eq!(text("b-reference"), "0.56 s");
    let all = root.text_content().unwrap_or_default();
    for part in ["14 GB", "28 GB", "3.125 GB/s", "50 GB/s", "ring factor 2"] {
        assert!(all.contains(part), "the arithmetic shows '{part}'");
    }
    assert!(!text("a-compute").is_empty());
    // The phone's strip: both step times, as the cards show them.
    assert_eq!(text("strip"), format!("A{}B{}", text("a-step"), text("b-step")));
    assert!(by_id("bar-chart").query_selector_all("rect").expect("rects").length() >= 2, "a bar per scenario");
    // The nodes chart's frame is on the page; the details worker draws into it (boot.js), from this function.
    assert!(by_id("nodes-chart").closest(".full-only").ok().flatten().is_some());
    let (svg, rows) = web::chart::nodes_figure(&web::browser::query());
    assert_eq!(svg.matches("<path").count(), 2, "a line per scenario");
    assert_eq!(rows.matches("<tr>").count(), web::chart::NODE_STEPS.len());
    // The chart says how it moves the batch, and offers the other rule; the choice is in the link.
    assert!(text("nodes-caption").contains("global batch (tokens per step) is kept"), "{}", text("nodes-caption"));
    click("batch-per-gpu").await;
    assert!(text("nodes-caption").contains("tokens per GPU are kept"), "{}", text("nodes-caption"));
    assert!(web::browser::query().contains("batch=per-gpu"), "{}", web::browser::query());
    click("batch-global").await;
    assert!(!web::browser::query().contains("batch="), "{}", web::browser::query());
    root.remove();
}

async fn typing_recomputes_and_bad_input_keeps_the_last_result() {
    let (_h, root) = mount("");
    type_into("a-link", "400").await;
    assert_eq!(text("a-reference"), "0.56 s", "A at 400 Gb/s equals B");
    assert!(web::browser::query().contains("a.link=400"), "the URL follows the inputs");

    type_into("a-params", "abc").await;
    assert!(text("a-params-error").contains("not a number"), "{}", text("a-params-error"));
    assert_eq!(by_id("a-params").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(text("a-reference"), "0.56 s", "the last valid result stays");

    type_into("a-params", "70B").await;
    assert_eq!(text("a-params-error"), "");
    assert_eq!(text("a-reference"), "5.60 s", "70B at 400 Gb/s: 280 GB / 50 GB/s");
    root.remove();
}

async fn copy_swap_and_presets_move_whole_scenarios() {
    let (_h, root) = mount("");
    // "B runs A's job": the job, its compute and its node count move, B's node and fabric stay.
    type_into("a-params", "70B").await;
    choose("a-sync", "zero3").await;
    type_into("a-nodes", "4").await;
    type_into("b-nodes", "8").await;
    click("same-job").await;
    let b_nodes: HtmlInputElement = by_id("b-nodes").dyn_into().expect("input");
    assert_eq!(b_nodes.value(), "4", "the same job on as many nodes");
    let b_params: HtmlInputElement = by_id("b-params").dyn_into().expect("input");
    assert_eq!(b_params.value(), "70B");
    let b_sync: HtmlSelectElement = by_id("b-sync").dyn_into().expect("select");
    assert_eq!(b_sync.value(), "zero3");
    let b_link: HtmlInputElement = by_id("b-link").dyn_into().expect("input");
    assert_eq!(b_link.value(), "400", "B keeps its fabric");
    assert!(text("b-title").contains("70B") && text("b-title").contains("InfiniBand"), "{}", text("b-title"));
    click("reset").await;
    click("swap").await;
    assert_eq!(text("a-reference"), "0.56 s");
    assert_eq!(text("b-reference"), "8.96 s");
    let fabric: HtmlSelectElement = by_id("a-fabric").dyn_into().expect("select");
    assert_eq!(fabric.value(), "infiniband", "the selects follow a swapped scenario");
    click("copy-a-to-b").await;
    assert_eq!(text("b-reference"), "0.56 s");
    assert_eq!(text("a-step"), text("b-step"));
    choose("a-preset", "a100-25g").await;
    let a: HtmlInputElement = by_id("a-link").dyn_into().expect("input");
    assert_eq!(a.value(), "25");
    assert!(text("a-title").contains("TCP"), "{}", text("a-title"));
    let gdr: HtmlInputElement = by_id("a-gdr").dyn_into().expect("checkbox");
    assert!(!gdr.checked(), "the 25 GbE preset has no GPUDirect RDMA");
    choose("a-preset", "gb200-nvl72").await;
    let domain: HtmlInputElement = by_id("a-domain").dyn_into().expect("input");
    assert_eq!(domain.value(), "72", "an NVL72 tray brings its rack's NVLink domain");
    type_into("a-nodes", "16").await;
    assert!(text("a-title").contains("GB200"), "{}", text("a-title"));
    assert_eq!(text("a-nodes-error"), "", "16 trays of 4 fill 64 of the domain's 72 GPUs");
    choose("a-preset", "h100-ib").await;
    assert_eq!(domain.value(), "", "an HGX node's domain is the node");
    click("reset").await;
    assert_eq!(text("a-reference"), "8.96 s");
    assert_eq!(text("b-reference"), "0.56 s");
    assert_eq!(web::browser::query(), "", "the first-load view has a bare URL");
    root.remove();
}

async fn a_link_restores_its_scenario_and_embed_drops_the_chrome() {
    let (_h, root) = mount("a.nodes=4&b.params=70B");
    leptos::task::tick().await;
    let nodes: HtmlInputElement = by_id("a-nodes").dyn_into().expect("input");
    assert_eq!(nodes.value(), "4");
    assert_eq!(text("b-reference"), "5.60 s", "70B at 400 Gb/s: 280 GB / 50 GB/s");
    let q = web::browser::query();
    assert!(q.contains("a.nodes=4") && q.contains("v=3"), "the URL (the share link) keeps it: {q}");
    root.remove();
    drop(_h);

    let (_h, root) = mount("embed=1");
    leptos::task::tick().await;
    let html = document().document_element().expect("<html>");
    assert!(html.class_list().contains("embed"), "embed mode marks <html> for its CSS");
    let charts = by_id("nodes-chart").closest(".full-only").expect("closest");
    assert!(charts.is_some(), "the nodes chart is a full-page section, hidden in embed mode");
    assert_eq!(text("a-reference"), "8.96 s");
    root.remove();
    drop(_h);
    let (_h, root) = mount("");
    assert!(!document().document_element().expect("<html>").class_list().contains("embed"));
    root.remove();
}

/// A measured bus bandwidth stays with its hardware, as a user meets it: it shows on its card with a way back,
/// and editing the hardware clears it and says so.
async fn a_measured_bus_bandwidth_is_shown_and_cleared_with_its_hardware() {
    let (_h, root) = mount("v=2&a.busbw=392.3");
    leptos::task::tick().await;
    assert!(text("a-measured").contains("392.3 GB/s"), "{}", text("a-measured"));
    type_into("a-link", "100").await;
    assert!(root.query_selector("#a-measured").ok().flatten().is_none(), "other hardware, no measurement");
    assert!(text("a-cleared").contains("Cleared the measured bus bandwidth (392.3 GB/s)"), "{}", text("a-cleared"));
    assert!(!web::browser::query().contains("busbw"), "{}", web::browser::query());
    root.remove();
    drop(_h);
    let (_h, root) = mount("v=2&a.busbw=392.3");
    leptos::task::tick().await;
    click("a-use-model").await;
    assert!(root.query_selector("#a-measured").ok().flatten().is_none(), "one click back to the model");
    assert!(!web::browser::query().contains("busbw"));
    root.remove();
}

/// Points 3 to 5: the first screen shows what one 25 GbE port costs, leads each card with the step, names the
/// reference arithmetic and says why the estimate is below it, and a job that does not fit says so first.
async fn the_first_screen_leads_with_the_step_and_what_does_not_fit() {
    let (_h, root) = mount("");
    leptos::task::tick().await;
    let secs = |id: &str| seconds(&text(id));
    assert!(secs("a-step") > 3.0 * secs("b-step"), "25 GbE costs: {} against {}", text("a-step"), text("b-step"));
    assert!(secs("a-exposed") > 0.5 * secs("a-step"), "most of A's step is communication: {}", text("a-exposed"));
    let all = root.text_content().unwrap_or_default();
    assert!(all.contains("The reference arithmetic (one link per GPU)"), "the seed's figure is named");
    assert!(text("b-below").contains("NVLink"), "why B's estimate is below it: {}", text("b-below"));
    let before = |x: &str, y: &str| by_id(x).compare_document_position(&by_id(y)) & 4 != 0;
    assert!(before("a-step", "a-reference"), "the card leads with the step");
    assert!(root.query_selector("#a-nofit").ok().flatten().is_none(), "ZeRO-1 fits");
    choose("a-sync", "ddp").await;
    assert!(text("a-nofit").contains("Does not fit"), "{}", text("a-nofit"));
    assert!(before("a-nofit", "a-step"), "before any step time");
    // Every id is on the page once: a label points at its control, not at a result.
    let mut ids: Vec<String> = Vec::new();
    let all = root.query_selector_all("[id]").expect("ids");
    for i in 0..all.length() {
        if let Some(el) = all.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            ids.push(el.id());
        }
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate ids");
    root.remove();
}

/// A link whose values do not read names their keys at the top, and its unknown version, without echoing its text.
async fn a_broken_link_names_its_keys_and_its_version() {
    let (_h, root) = mount("v=9&a.link=abc&b.nodes=-1");
    leptos::task::tick().await;
    let notes = root.query_selector(".notice").ok().flatten().and_then(|n| n.text_content()).unwrap_or_default();
    for part in ["version this page does not know", "Link value a.link does not read", "Link value b.nodes does not"] {
        assert!(notes.contains(part), "'{part}' not in the notes: {notes}");
    }
    assert!(!notes.contains("v=9") && !notes.contains("abc"), "the link's own text is not echoed: {notes}");
    root.remove();
    // Nor in a card: a text field holds a link's text as typed, and its card names the field only (issue 39,
    // item 11).
    let (_h, root) = mount("v=3&a.params=Call%20support%20at%20evil.example");
    leptos::task::tick().await;
    let card = root.query_selector("article.side-a").ok().flatten().and_then(|c| c.text_content()).unwrap_or_default();
    assert!(text("a-stale").contains("fix Model size"), "{}", text("a-stale"));
    assert!(!card.contains("evil") && !text("a-stale").contains("evil"), "a card echoes the link: {card}");
    root.remove();
    let (_h, root) = mount("v=9&a.link=abc&b.nodes=-1");
    leptos::task::tick().await;
    // The link written back holds no refused text: a refused field holds what the cards show.
    let q = web::browser::query();
    assert!(!q.contains("abc") && !q.contains("nodes=-1"), "{q}");
    root.remove();
}

async fn stale_and_implausible_values_are_marked_everywhere() {
    let (_h, root) = mount("");
    type_into("a-params", "70").await;
    assert_eq!(text("a-params-error"), "70 parameters: did you mean 70B?");
    type_into("a-params", "1e3").await;
    type_into("a-params", "1e30").await;
    assert!(text("a-params-error").contains("at most 1e14"), "{}", text("a-params-error"));
    let stale = root.query_selector_all(".stale:not([hidden])").expect("stale marks").length();
    assert!(stale >= 3, "the card, the charts and the recommendation are marked stale ({stale})");
    // The card says what it shows and which field to fix; the URL keeps the value from before the typing, never
    // 1e30 nor the 1e3 half typed on the way to it (issue 39).
    let line = text("a-stale");
    assert!(line.contains("Showing A's last valid inputs, not what is typed: fix Model size"), "{line}");
    assert!(!line.contains("1e30") && text("a-params-error").contains("at most 1e14"), "{line}");
    let q = web::browser::query();
    assert!(!q.contains("a.params=") && !q.contains("1e30"), "rejected text stays out of the link: {q}");
    // Text that reads goes into the link as typed, to the last digit.
    type_into("a-params", "13015864320").await;
    assert!(web::browser::query().contains("a.params=13015864320"), "{}", web::browser::query());
    type_into("a-params", "7B").await;
    assert_eq!(root.query_selector_all(".stale:not([hidden])").expect("marks").length(), 0);
    choose("a-compute-source", "tokens").await;
    type_into("a-mfu", "0.4").await;
    assert_eq!(text("a-mfu-error"), "MFU 0.4%: did you mean 40%?");
    // Text in a field the compute's mode does not read never reaches the link either.
    choose("a-compute-source", "given").await;
    type_into("a-compute_ms", "abc").await;
    assert!(!web::browser::query().contains("abc"), "{}", web::browser::query());
    choose("a-compute-source", "tokens").await;
    assert!(!web::browser::query().contains("abc"), "an unread field: {}", web::browser::query());
    root.remove();
}

async fn the_parallelism_group_drives_the_traffic_table_and_the_layout_advice() {
    let (_h, root) = mount("");
    leptos::task::tick().await;
    // The worker's boxes are on the page, empty until it fills them (boot.js; the e2e test sees them filled).
    assert_eq!(text("a-traffic-box"), "");
    assert_eq!(text("b-layout"), "");
    // A catalog model brings its parameter count; HSDP with tensor parallelism inside the node.
    choose("a-model", "llama-3.1-70b").await;
    let params: HtmlInputElement = by_id("a-params").dyn_into().expect("input");
    assert_eq!(params.value(), "70.6B");
    choose("a-sync", "hsdp").await;
    type_into("a-tp", "8").await;
    click("a-ckpt").await;
    let q = web::browser::query();
    assert!(q.contains("a.model=llama-3.1-70b") && q.contains("a.tp=8") && q.contains("a.sync=hsdp"), "{q}");
    assert!(q.contains("a.ckpt=1"), "activation checkpointing is on: {q}");
    // What the worker draws for that query: the traffic, kind by kind, and the layout advice.
    let [(traffic, layout), _] = web::render::details_of_query(&q);
    let traffic = traffic.into_string();
    assert!(
        traffic.contains("id=\"a-traffic\"") && traffic.contains("tensor-parallel activation all-reduce"),
        "{traffic}"
    );
    assert!(
        traffic.contains("gradient-shard all-reduce across replicas") && traffic.contains("intra-node"),
        "{traffic}"
    );
    assert!(traffic.contains("id=\"a-gpu-source\">GPU figures: NVIDIA H100 datasheet"), "the GPU's sources: {traffic}");
    assert!(layout.into_string().starts_with("<b>Layout:</b>"));
    // A degree that does not divide the GPUs is refused on its field; the link keeps the last value that read.
    type_into("a-tp", "3").await;
    let error = text("a-tp-error");
    assert!(error.contains("must divide"), "{error}");
    let q = web::browser::query();
    assert!(q.contains("a.tp=8") && !q.contains("a.tp=3"), "the link holds no refused value: {q}");
    // Only a pipeline has a bubble, and only then does the bar chart's legend name it.
    let bubble = |_: ()| by_id("legend-bubble").has_attribute("hidden");
    assert!(bubble(()), "no pipeline, no bubble in the legend");
    type_into("a-tp", "1").await;
    type_into("a-pp", "2").await;
    assert!(!bubble(()), "two stages: the legend names the bubble");
    assert!(text("a-bubble").ends_with('s'), "{}", text("a-bubble"));
    type_into("a-pp", "1").await;
    // Emptying the overlap field hands it back to the schedule; the card says where the hidden share comes from.
    type_into("a-tp", "8").await;
    assert!(text("a-hidden-how").contains("hidden by the frameworks"), "{}", text("a-hidden-how"));
    type_into("a-overlap", "50").await;
    assert!(text("a-hidden-how").contains("the overlap you set"), "{}", text("a-hidden-how"));
    root.remove();
}

/// A time as `human::secs` writes it (`2.06 s`, `35 ms`, `25 µs`, `1.5 min`), in seconds.
fn seconds(t: &str) -> f64 {
    let (v, unit) = t.trim().split_once(' ').unwrap_or((t, "s"));
    let v: f64 = v.parse().unwrap_or(f64::NAN);
    match unit {
        "ms" => v / 1e3,
        "µs" => v / 1e6,
        "min" => v * 60.0,
        "h" => v * 3600.0,
        _ => v,
    }
}

/// The floor beside a card's communication: "at least X at their line rate" (issue 39, item 1).
fn floor_of(side: &str) -> Option<f64> {
    let how = by_id(&format!("{side}-comm")).next_element_sibling().and_then(|e| e.text_content()).unwrap_or_default();
    let at = how.split("at least ").nth(1)?;
    Some(seconds(at.split(" at their").next()?))
}

/// Issue 39, item 1: a bound is below what it bounds, and the one-link reference is named as one and shown only
/// where a gradient sync crosses the adapters.
async fn a_bound_is_below_what_it_bounds() {
    let (_h, root) = mount("v=3&a.adapters=32&a.link=100&a.fabric=efa-v2&a.gdr=1");
    leptos::task::tick().await;
    let v = text("verdict");
    assert!(!v.contains("lower bound"), "{v}");
    assert!(v.contains("one-link reference for DDP's all-reduce"), "{v}");
    let floor = floor_of("a").expect("A's communication has its floor");
    assert!(floor > 0.0 && floor <= seconds(&text("a-comm")), "{floor} against {}", text("a-comm"));
    // It checks by hand: the bytes it names over the node's 32 x 100 Gb/s (400 GB/s).
    let how = by_id("a-comm").next_element_sibling().and_then(|e| e.text_content()).unwrap_or_default();
    let bytes = how.split("line rate for the ").nth(1).and_then(|t| t.split(" GB no algorithm").next());
    let gb: f64 = bytes.and_then(|b| b.parse().ok()).unwrap_or(f64::NAN);
    assert!((gb / 400.0 - floor).abs() <= 0.01 * floor, "{gb} GB / 400 GB/s against {floor} s: {how}");
    assert!(seconds(&text("a-comm")) <= seconds(&text("a-step")));
    assert!(text("a-reference").ends_with(" s"), "the reference stays, named: {}", text("a-reference"));
    root.remove();
    // TP 8 x PP 4 on 4 nodes: no gradient all-reduce crosses the adapters, so no reference is shown.
    let (_h, root) = mount(
        "v=3&a.params=70.6B&a.nodes=4&a.model=llama-3.1-70b&a.tp=8&a.pp=4&b.params=70.6B&b.nodes=4&b.model=llama-3.1-70b&b.tp=8&b.pp=4",
    );
    leptos::task::tick().await;
    assert!(root.query_selector("#a-reference").ok().flatten().is_none(), "no reference without a gradient sync");
    assert!(!text("verdict").contains("reference"), "{}", text("verdict"));
    for side in ["a", "b"] {
        let floor = floor_of(side).expect("the pipeline's sends cross the adapters");
        assert!(floor <= seconds(&text(&format!("{side}-comm"))), "{side}: {floor}");
    }
    root.remove();
    // One node: nothing crosses the adapters, no reference.
    let (_h, root) = mount("v=3&a.nodes=1");
    leptos::task::tick().await;
    assert!(root.query_selector("#a-reference").ok().flatten().is_none());
    assert!(floor_of("a").is_none(), "no floor where nothing crosses the adapters");
    root.remove();
}

/// Issue 39, item 5: a bare model size counts a transformer's activations, against the memory the driver reports.
async fn memory_counts_activations_against_the_drivers_total() {
    let (_h, root) = mount("v=3&a.gpu=l40s");
    leptos::task::tick().await;
    let nofit = text("a-nofit");
    assert!(nofit.contains("the L40S has 45.0 GiB"), "46068 MiB as nvidia-smi reports it: {nofit}");
    assert!(text("verdict").starts_with("A does not fit"), "{}", text("verdict"));
    root.remove();
}

/// The card's bus bandwidth is what nccl-tests would print for the job: given back as measured, it changes
/// nothing (a stranger's check: the ring ceiling it showed before gave 11.1 s back for 5.62 s).
async fn the_cards_bus_bandwidth_given_back_changes_nothing() {
    let q = "v=3&a.params=7B&a.nodes=2&a.adapters=1&a.link=25&a.fabric=roce&a.sync=ddp&a.gdr=1";
    let (_h, root) = mount(q);
    leptos::task::tick().await;
    let how = by_id("a-comm").next_element_sibling().and_then(|e| e.text_content()).unwrap_or_default();
    let busbw = how.split("bus bandwidth ").nth(1).and_then(|t| t.split(' ').next()).unwrap_or_default().to_string();
    let comm = seconds(&text("a-comm"));
    root.remove();
    let again_q = format!("{q}&a.busbw={busbw}");
    let (_h, root) = mount(&again_q);
    leptos::task::tick().await;
    let again = seconds(&text("a-comm"));
    // The figure is rounded to 0.1 GB/s.
    assert!((again / comm - 1.0).abs() < 0.05, "{busbw} GB/s: {again} against {comm}");
    root.remove();
}

/// Issue 39, item 3: the verdict compares steps of equal jobs only, and says first what does not fit.
async fn the_verdict_compares_equal_jobs_only() {
    let (_h, root) = mount("");
    leptos::task::tick().await;
    assert!(text("verdict").contains("shorter"), "the first load compares: {}", text("verdict"));
    type_into("a-params", "70B").await;
    let v = text("verdict");
    assert!(v.contains("different jobs (they differ in the model"), "{v}");
    assert!(!v.contains("shorter"), "no ratio between unequal jobs: {v}");
    type_into("b-params", "70B").await;
    let v = text("verdict");
    assert!(v.starts_with("A does not fit") && v.contains("B does not fit") && v.contains("not compared"), "{v}");
    assert!(!v.contains("shorter"), "no ratio when neither fits: {v}");
    root.remove();
}

/// Issue 39, item 4: a value half typed on the way to one that does not read never becomes the answer.
async fn half_typed_values_never_become_the_answer() {
    let (_h, root) = mount("");
    leptos::task::tick().await;
    let (verdict, step, reference) = (text("verdict"), text("a-step"), text("a-reference"));
    for (id, steps) in [
        ("a-params", ["1", "1e", "1e3", "1e30"]),
        ("a-nodes", ["1", "1e", "1e1", "1e9"]),
        ("a-link", ["1", "1e", "1e1", "1e12"]),
    ] {
        for t in steps {
            type_into(id, t).await;
        }
        assert!(!text(&format!("{id}-error")).is_empty(), "{id}: the last value is refused");
        assert_eq!(text("verdict"), verdict, "{id}: the answer is the one before the typing");
        assert_eq!(text("a-step"), step, "{id}");
        assert_eq!(text("a-reference"), reference, "{id}");
        let q = web::browser::query();
        let half = ["a.params=1000", "a.nodes=10", "a.link=10"];
        assert!(!q.trim_start_matches('?').split('&').any(|p| half.contains(&p)), "{q}");
        // Leaving the field keeps it so; the original value again clears the error.
        dispatch(&by_id(id), "change");
        leptos::task::tick().await;
        assert_eq!(text("a-step"), step, "{id}");
        let original = match id {
            "a-params" => "7B",
            "a-nodes" => "2",
            _ => "25",
        };
        type_into(id, original).await;
        dispatch(&by_id(id), "change");
        leptos::task::tick().await;
        assert_eq!(text(&format!("{id}-error")), "", "{id}");
    }
    root.remove();
}

/// The page tests share one document and the URL, so they run one after the other in a single test (async
/// wasm-bindgen tests interleave at every await).
#[wasm_bindgen_test]
async fn the_mounted_page() {
    first_load_shows_the_reference_answer_with_its_arithmetic().await;
    typing_recomputes_and_bad_input_keeps_the_last_result().await;
    copy_swap_and_presets_move_whole_scenarios().await;
    a_link_restores_its_scenario_and_embed_drops_the_chrome().await;
    a_measured_bus_bandwidth_is_shown_and_cleared_with_its_hardware().await;
    the_first_screen_leads_with_the_step_and_what_does_not_fit().await;
    stale_and_implausible_values_are_marked_everywhere().await;
    a_broken_link_names_its_keys_and_its_version().await;
    the_parallelism_group_drives_the_traffic_table_and_the_layout_advice().await;
    a_bound_is_below_what_it_bounds().await;
    the_verdict_compares_equal_jobs_only().await;
    half_typed_values_never_become_the_answer().await;
    memory_counts_activations_against_the_drivers_total().await;
    the_cards_bus_bandwidth_given_back_changes_nothing().await;
}

/// Issue 39, item 2: "Check a run" converts tokens per second with the scenario's tokens per step, and asks about
/// a bare compute far below the model's.
#[wasm_bindgen_test]
fn a_run_by_tokens_uses_the_scenarios_tokens() {
    let q = "v=3&a.sync=zero3&a.gpu=a100-sxm4-80gb&a.link=100&a.fabric=roce&run.compute_ms=1.2+s&run.by=tokens&run.measured=20k";
    let (_, c) = web::run_section::check(q, None, None).expect("reads").expect("filled");
    // The first load's 262,144 tokens per step at 20k tokens/s: 13.1 s, not 65,536's 3.28 s.
    assert!((c.measured_step_s - 262_144.0 / 20e3).abs() < 1e-9, "{} ({})", c.measured_step_s, c.measured_from);
    assert!(c.measured_from.contains("the scenario's"), "{}", c.measured_from);
    // The check's scenario keeps the scenario's micro-batches: its communication is the scenario's own.
    let (state, _) = web::share::PageState::from_query(q);
    let s = state.a.to_scenario().expect("A reads");
    let comm = estimator_core::estimate_step(&s).comm_s.as_secs();
    assert!((c.expected_comm_s - comm).abs() <= 1e-9 * comm, "{} against the scenario's {comm}", c.expected_comm_s);
    let bare = q.replace("run.compute_ms=1.2+s", "run.compute_ms=1.2");
    let e = web::run_section::check(&bare, None, None).expect_err("a bare 1.2 is asked about");
    assert!(e.contains("write the unit") && e.contains("1.2 s"), "{e}");
    let ms = q.replace("run.compute_ms=1.2+s", "run.compute_ms=1.2+ms");
    assert!(web::run_section::check(&ms, None, None).is_ok(), "a unit written is taken as written");
    // A compute that does not read gives time examples, not model sizes.
    let bad = q.replace("run.compute_ms=1.2+s", "run.compute_ms=abc");
    let e = web::run_section::check(&bad, None, None).expect_err("abc is no time");
    assert!(e.contains("1.2 s") && !e.contains("7B"), "{e}");
}

const RUN_309: &str = include_str!("../../tests/data/nccl-tests/raw/nccl-tests-309-h100-8x400ib-2-4-8node.txt");

/// One run of the issue's file: the lines of section `start` up to the next section.
fn section(start: &str) -> String {
    RUN_309
        .lines()
        .skip_while(|l| !l.contains(start))
        .skip(1)
        .take_while(|l| !l.starts_with("==="))
        .collect::<Vec<_>>()
        .join("\n")
}

#[wasm_bindgen_test]
fn a_pasted_run_is_drawn_against_the_model_and_its_rank_count_read_from_its_ratio() {
    // Two nodes as B has them: judged at every size, drawn as two lines.
    let r = report::handle("", Side::B, Some("run.txt"), None, &section("=== A)"));
    assert!(r.html.contains("Verdict: <b>healthy</b>"), "{}", r.html);
    // Issue 39: the share is said against what it is taken from, never "100%" of a figure it is not.
    let verdict = r.html.split("id=\"report-verdict\"").nth(1).and_then(|v| v.split("</p>").next()).unwrap_or_default();
    assert!(
        verdict.contains("within the model&#39;s range, from") || verdict.contains("% of the range&#39;s nearer end"),
        "{verdict}"
    );
    assert!(!verdict.contains("hardware: 100%"), "{verdict}");
    assert!(r.html.contains("from the run&#39;s busbw/algbw ratio"), "{}", r.html);
    assert!(r.html.contains("id=\"report-departure\""), "{}", r.html);
    assert!(r.html.contains("id=\"report-curve\"") && r.html.contains("<svg"), "{}", r.html);
    assert!(r.html.contains("class=\"line-measured\"") && r.html.contains("class=\"line-model\""), "{}", r.html);
    assert!(!r.html.contains("line-a"), "measured and model are not A's and B's colours: {}", r.html);
    // The y axis spans the values (with a margin), so the lines fill the plot, with at least three gridlines.
    let curve = r.html.split("id=\"report-curve\"").nth(1).unwrap_or_default();
    let ys: Vec<f64> = curve
        .split("<circle class=\"dot\" cx=\"")
        .skip(1)
        .filter_map(|c| c.split("cy=\"").nth(1)?.split('"').next()?.parse().ok())
        .collect();
    let (top, bottom) = ys.iter().fold((f64::INFINITY, 0.0f64), |(t, b), y| (t.min(*y), b.max(*y)));
    let plot = web::chart::HEIGHT - web::chart::TOP - web::chart::BOTTOM;
    assert!(bottom - top > 0.6 * plot, "the data spans {:.0} of {plot:.0} units", bottom - top);
    assert!(curve.matches("class=\"gridline\"").count() >= 3, "{curve}");
    // Four nodes with no rank lines: the busbw/algbw ratio says 32 ranks, not B's 16, and the page offers them.
    let r = report::handle("", Side::B, Some("run.txt"), None, &section("=== B)"));
    assert!(r.html.contains("Verdict: <b>not judged</b> (mismatch)"), "{}", r.html);
    assert!(r.html.contains("32 ranks"), "{}", r.html);
    assert!(r.html.contains("4 nodes"), "the offer names the run's node count: {}", r.html);
}

/// Several nccl-tests outputs at once: a profile of the cluster for the chosen scenario's hardware (B here, set to
/// the runs' 2 x 8 H100 with 8 x 400G InfiniBand), with the left-out validation, B's step with and without it, the
/// three curves in B's colour for the calibrated one, and the degraded run refused with the reason.
#[wasm_bindgen_test]
fn several_runs_make_a_profile_of_the_cluster() {
    use web::fleet::File;
    let runs = [
        ("node01_node02.txt", include_str!("../../tests/data/pairs/none/node01_node02.txt")),
        ("node03_node04.txt", include_str!("../../tests/data/pairs/none/node03_node04.txt")),
        ("node05_node06.txt", include_str!("../../tests/data/pairs/none/node05_node06.txt")),
        ("node06_node07.txt", include_str!("../../tests/data/pairs/one-bad/node06_node07.txt")),
        ("notes.txt", "hello"),
    ];
    let files: Vec<File> =
        runs.iter().map(|(n, t)| File { name: n.to_string(), size: None, text: t.to_string() }).collect();
    let query = "b.gpu=h100-sxm&b.gpus=8&b.nodes=2&b.adapters=8&b.link=400&b.fabric=ib";
    let h = web::fleet::files(query, Side::B, &files);
    let t = h.as_str();
    assert!(t.contains("id=\"calibration-summary\"") && t.contains("calibrated on your cluster: 3 runs"), "{t}");
    assert!(t.contains("id=\"calibration-step\"") && t.contains("Scenario B's step with the profile: "), "{t}");
    assert!(t.contains("id=\"calibration-validation\"") && t.contains("&gt;= 64 MiB"), "{t}");
    assert!(
        t.contains("id=\"calibration-curve\"") && t.contains("class=\"line-b\"") && t.contains("class=\"line-model\"")
    );
    assert!(t.contains("node06_node07.txt: at its large sizes it takes"), "the degraded run is refused: {t}");
    assert!(t.contains("notes.txt: neither a report nor an nccl-tests output"), "{t}");
    // Reports alone are still a fleet.
    let fleet = web::fleet::files(query, Side::B, &[File { name: "a.json".into(), size: None, text: "nope".into() }]);
    assert!(fleet.contains("None of the 1 files is a report"), "{}", fleet.as_str());
}
