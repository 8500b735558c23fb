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
///
/// Git keeps no empty directory, but an empty one is data on a real node (`/sys/class/infiniband` with no adapter,
/// `/sys/kernel/iommu_groups` with the IOMMU off). A tree captured by `probe-cli gather` lists its empty directories
/// in `EMPTY-DIRS` (one path a line, relative to the tree), and they are made again here, as the node had them.
pub fn node(name: &str) -> PathBuf {
    let root = repo("tests/fixtures/nodes").join(name);
    if let Ok(list) = std::fs::read_to_string(root.join("EMPTY-DIRS")) {
        for rel in list.lines().map(str::trim).filter(|l| !l.is_empty()) {
            assert!(
                Path::new(rel).components().all(|c| matches!(c, std::path::Component::Normal(_))),
                "{name}/EMPTY-DIRS: {rel} is not a plain relative path"
            );
            std::fs::create_dir_all(root.join(rel)).expect("empty directory of the captured tree");
        }
    }
    root
}

/// A fresh, empty temporary directory for one test (`tag` keeps test binaries apart).
pub fn temp(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("probe-{tag}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
