//! The page's markup is escaped by construction (`web/src/html.rs`): `html!` escapes each argument, but a format
//! string that names a variable (`"{name}"`) captures it without the macro's wrapper, unescaped. This checks every
//! `html!` in the page's sources for such a capture, and that nothing sets markup from a bare `format!`.

use std::path::{Path, PathBuf};

fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/src");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("web/src reads") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The string literal that starts at or after `from` (plain `"..."` or raw `r#"..."#`), as written.
fn literal_after(text: &str, from: usize) -> Option<&str> {
    let rest = text.get(from..)?;
    let quote = rest.find('"')?;
    let raw = rest.get(..quote)?.ends_with("r#");
    let body_start = quote + 1;
    let body = rest.get(body_start..)?;
    let end = if raw {
        body.find("\"#")?
    } else {
        let bytes = body.as_bytes();
        let mut i = 0;
        loop {
            match bytes.get(i)? {
                b'\\' => i += 2,
                b'"' => break i,
                _ => i += 1,
            }
        }
    };
    body.get(..end)
}

/// `{name}` or `{name:...}` in a format string: a variable captured from the scope.
fn captures(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        let after = rest.get(i + 1..).unwrap_or_default();
        if let Some(stripped) = after.strip_prefix('{') {
            rest = stripped; // `{{` is a literal brace
            continue;
        }
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
            out.push(name);
        }
        rest = after;
    }
    out
}

#[test]
fn no_html_template_captures_a_variable() {
    let mut found = Vec::new();
    let mut templates = 0;
    for path in sources() {
        let text = std::fs::read_to_string(&path).expect("source reads");
        for (at, _) in text.match_indices("html!(") {
            let Some(template) = literal_after(&text, at) else { continue };
            templates += 1;
            for name in captures(template) {
                found.push(format!("{}: html! captures `{name}`", path.display()));
            }
        }
    }
    assert!(templates > 20, "found only {templates} html! templates: is the scan still reading web/src?");
    assert!(found.is_empty(), "pass these as arguments, so that they are escaped:\n{}", found.join("\n"));
}

#[test]
fn the_scan_finds_a_capture() {
    assert_eq!(captures(r#"<p id="{k}-x">{}</p>{{k}}{0}"#), vec!["k".to_string()]);
    let text = "html!(h, r#\"<b>{name}</b>\"#, x)";
    assert_eq!(literal_after(text, 0), Some("<b>{name}</b>"));
}

/// Markup reaches the DOM only as an `Html`: the page's code never calls `.inner_html(` or `set_inner_html` with
/// a string it formatted itself.
#[test]
fn no_markup_is_set_from_a_formatted_string() {
    for path in sources() {
        let text = std::fs::read_to_string(&path).expect("source reads");
        for line in text.lines() {
            if line.contains("set_inner_html") || line.contains("inner_html=") {
                assert!(
                    line.contains("into_string()") || !line.contains("format!"),
                    "{}: markup from format!: {line}",
                    path.display()
                );
            }
        }
    }
}
