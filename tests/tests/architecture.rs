//! ARCHITECTURE.md's rules, held by reading the source: which module may use which (the import rule), and where
//! state lives outside the URL.
//!
//! A module "uses" another when a line of code (not a comment) names `crate::other` (or, in the worker binary,
//! `web::other`); tests (`#[cfg(test)]` modules) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its comments and its test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The top-level modules named after `prefix::` in `code`, also inside a group: `crate::{a, b::c}` names `a` and
/// `b`. (A name re-exported at the crate root, such as `crate::Bytes`, starts with a capital and is not a module.)
fn named(code: &str, prefix: &str) -> BTreeSet<String> {
    let module =
        |s: &str| -> String { s.trim_start().chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect() };
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let after = &rest[i + prefix.len()..];
        if let Some(group) = after.strip_prefix('{') {
            // The top level of the group: split at commas outside nested braces.
            let (mut depth, mut start) = (0, 0);
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.insert(module(&group[start..j]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(module(&group[start..j]));
                        start = j + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(module(after));
        }
        rest = after;
    }
    out.remove("");
    out
}

#[test]
fn names_are_read_from_paths_and_groups() {
    let got = named("use crate::{a, b::{c, d}, E};\nlet x = crate::f::g(); use crate::{Bytes, human};", "crate::");
    assert_eq!(got, ["a", "b", "f", "human"].iter().map(|s| s.to_string()).collect());
}

/// Each top-level module of the crate at `src` and the top-level modules it uses (a folder is one module).
fn graph(src: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = repo(src);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&root).expect("under the root");
        let top =
            rel.components().next().expect("a file").as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        if matches!(top.as_str(), "lib" | "main" | "bin") {
            continue;
        }
        let uses = named(&code(&f), "crate::");
        g.entry(top.clone()).or_default().extend(uses.into_iter().filter(|u| *u != top));
    }
    g
}

/// The groups of modules that use each other, directly or not (strongly connected components of two or more).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for n in g.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for m in g.keys() {
        let from_m = reach(m);
        let group: BTreeSet<String> =
            g.keys().filter(|n| *n == m || (from_m.contains(*n) && reach(n).contains(m))).cloned().collect();
        if group.len() > 1 && !out.contains(&group) {
            out.push(group);
        }
    }
    out
}

/// The page's modules in layers, lowest first: a module uses only modules of lower layers (ARCHITECTURE.md,
/// "Modules import downwards only").
const WEB_LAYERS: [&[&str]; 11] = [
    &["html", "presets"],
    &["form"],
    &["share"],
    &["result", "browser", "section_form"],
    &["chart", "run_records"],
    &["curve", "plan_section"],
    &["render", "run_records_view"],
    &["run_section", "verdict"],
    &["report", "app", "calibration"],
    &["fleet"],
    &["protocol"],
];

#[test]
fn the_page_imports_downwards_only() {
    let g = graph("web/src");
    let layer = |m: &str| WEB_LAYERS.iter().position(|l| l.contains(&m));
    for (m, uses) in &g {
        let at = layer(m).unwrap_or_else(|| panic!("web/src/{m} is in no layer of WEB_LAYERS: give it one"));
        for u in uses {
            let below = layer(u).unwrap_or_else(|| panic!("{m} uses {u}, which is in no layer"));
            assert!(below < at, "{m} (layer {at}) uses {u} (layer {below}): the page imports downwards only");
        }
    }
    assert!(cycles(&g).is_empty(), "{:?}", cycles(&g));
    // The worker binary is a front end of the library, as `main.rs` is: nothing it reaches uses `app` (the page's
    // components), directly or not.
    let worker = named(&code(&repo("web/src/bin/details_worker.rs")), "web::");
    let mut reached = worker.clone();
    let mut todo: Vec<String> = worker.into_iter().collect();
    while let Some(m) = todo.pop() {
        for n in g.get(&m).into_iter().flatten() {
            if reached.insert(n.clone()) {
                todo.push(n.clone());
            }
        }
    }
    assert!(reached.contains("protocol") && !reached.contains("app"), "the worker reaches {reached:?}");
}

/// probe-cli: one module per command, and no command uses another; what they share is in the shared modules.
#[test]
fn no_command_of_probe_cli_uses_another() {
    let g = graph("probe-cli/src");
    let commands = [
        "estimate",
        "collective",
        "catalog",
        "imports",
        "health",
        "node",
        "gather",
        "check_run",
        "plan",
        "shell",
        "fleet",
        "pairs",
        "recipe",
        "thresholds",
        "calibrate",
    ];
    for c in commands {
        let uses = g.get(c).unwrap_or_else(|| panic!("probe-cli/src/{c}.rs"));
        for other in commands.iter().filter(|o| **o != c) {
            assert!(!uses.contains(*other), "the {c} command uses the {other} command: move what they share out");
        }
    }
}

/// The core's modules use each other without cycles, but for the two pairs ARCHITECTURE.md names: `units` and
/// `human` (a unit's `Display` is its human form), `scenario` and `layout` (a scenario resolves its layout once;
/// the layout reads the scenario's input and names its fields). A new cycle fails here.
#[test]
fn the_core_has_no_cycle_but_the_two_it_names() {
    let known: Vec<BTreeSet<String>> = [["human", "units"], ["layout", "scenario"]]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    let found = cycles(&graph("estimator-core/src"));
    for c in &found {
        assert!(known.contains(c), "a new cycle among estimator-core's modules: {c:?}");
    }
}

/// State outside the URL: the page keeps all of its own in the URL (`share::PageState`) and the signals built
/// from it; the details worker keeps exactly the two pieces ARCHITECTURE.md documents, with why: the NCCL log and
/// topology loaded last (`EVIDENCE`: evidence for the next run's verdict, too large for a URL) and the offer of the
/// last verdict (`OFFER`: what "Apply" would change, made from a pasted run that is not kept). Any other static
/// state in the page's crate fails here until it is documented and listed.
#[test]
fn state_outside_the_url_is_the_two_documented_pieces() {
    let mut files = Vec::new();
    rust_files(&repo("web/src"), &mut files);
    let mut found = BTreeSet::new();
    let kinds = ["RefCell", "Cell<", "Mutex", "RwLock", "Atomic", "OnceLock", "OnceCell", "LazyLock", "LazyCell"];
    for f in &files {
        let code = code(f);
        // Every `static NAME: TYPE =` item, its type read up to the `=` across lines.
        let mut rest = code.as_str();
        while let Some(i) = rest.find("static ") {
            let before = rest[..i].chars().last();
            let after = &rest[i + "static ".len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'') {
                continue;
            }
            let (mutable, item) = match after.strip_prefix("mut ") {
                Some(item) => (true, item),
                None => (false, after),
            };
            let name: String = item.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let ty = item.split('=').next().unwrap_or_default();
            if !name.is_empty() && (mutable || kinds.iter().any(|k| ty.contains(k))) {
                found.insert(format!("{}:{name}", f.file_name().and_then(|n| n.to_str()).unwrap_or("?")));
            }
        }
    }
    let want: BTreeSet<String> =
        ["report.rs:EVIDENCE", "report.rs:OFFER", "run_records.rs:RECORDS"].iter().map(|s| s.to_string()).collect();
    assert_eq!(found, want, "state kept outside the URL in web/src");
    let doc = std::fs::read_to_string(repo("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    assert!(
        doc.contains("`EVIDENCE`") && doc.contains("`OFFER`") && doc.contains("`RECORDS`"),
        "ARCHITECTURE.md documents the worker's state"
    );
}
