//! What every probe-cli integration test needs: the built binary, and the repository's test data and fixtures.
#![allow(dead_code)] // each test binary uses its own share of these

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The built `probe-cli`.
pub fn cli() -> Command {
    Command::cargo_bin("probe-cli").expect("binary is built")
}

/// A path in the repository.
pub fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

/// A path under `tests/data`.
pub fn data(rel: &str) -> PathBuf {
    repo("tests/data").join(rel)
}

/// The first file in `tests/data/<dir>` whose name starts with `start`.
pub fn first(dir: &str, start: &str) -> PathBuf {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data(dir))
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(start)))
        .collect();
    names.sort();
    names.into_iter().next().unwrap_or_else(|| panic!("no {start} in tests/data/{dir}"))
}

/// A captured node tree under `tests/fixtures/nodes`.
pub fn node(name: &str) -> PathBuf {
    repo("tests/fixtures/nodes").join(name)
}

/// A fresh, empty temporary directory for one test (`tag` keeps test binaries apart).
pub fn temp(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("probe-{tag}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
