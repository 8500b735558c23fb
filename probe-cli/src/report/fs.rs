//! Reading a file-system tree (`/`, or a captured one under `--root`) the way the probe must: never blocking on a
//! special file, never reading without bound, never failing the report. Every problem becomes a [`Warning`], and
//! every file and symbolic link read is recorded so that `probe-cli gather` can capture exactly those.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::io::Read as _;
use std::path::{Component, Path, PathBuf};

use estimator_core::report::Warning;

/// The most bytes read from one file (a 384-CPU `/proc/cpuinfo` is about 600 KB).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Symbolic links followed for one path before giving up (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// Whether a missing file deserves a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The probe expects it on every kernel: missing is worth a warning.
    Expected,
    /// Only some drivers or kernels have it: missing is normal.
    Optional,
}

/// What was read, by path inside the tree: the captured form of a file or a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Captured {
    /// A regular file and the bytes read.
    File(Vec<u8>),
    /// A symbolic link and its target as written.
    Link(PathBuf),
    /// A directory whose existence or listing the probe used.
    Dir,
}

/// A tree to read, the warnings so far and the record of what was read.
#[derive(Debug)]
pub struct Tree {
    root: PathBuf,
    /// Problems met, in the order met.
    pub warnings: Vec<Warning>,
    /// Every file and link read, by absolute path inside the tree (`/sys/class/net/eth0/speed`).
    pub captured: BTreeMap<PathBuf, Captured>,
    /// Paths known to exist and not to be links, and links with their targets: each is looked at once (a sysfs
    /// device path is walked for every file below it).
    real: HashSet<PathBuf>,
    links: HashMap<PathBuf, PathBuf>,
}

impl Tree {
    /// A tree rooted at `root` (`/` for the live system).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Tree {
            root: root.into(),
            warnings: Vec::new(),
            captured: BTreeMap::new(),
            real: HashSet::new(),
            links: HashMap::new(),
        }
    }

    /// The root as given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Adds a warning about `source`.
    pub fn warn(&mut self, source: impl Into<String>, message: impl Into<String>) {
        let w = Warning { source: source.into(), message: message.into() };
        // A link loop is met once per file read below it: say it once.
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    fn host_path(&self, path: &Path) -> PathBuf {
        self.root.join(path.strip_prefix("/").unwrap_or(path))
    }

    /// Follows the symbolic links along `path` inside the tree (recording each one), and returns the resolved path
    /// inside the tree, or `None` when a component is missing, a link points outside the tree, or links loop.
    pub fn resolve(&mut self, path: &Path) -> Option<PathBuf> {
        let mut done = PathBuf::from("/");
        let mut rest: Vec<std::ffi::OsString> = components(path);
        rest.reverse();
        let mut links = 0;
        while let Some(part) = rest.pop() {
            let next = done.join(&part);
            if self.real.contains(&next) {
                done = next;
                continue;
            }
            let target = match self.links.get(&next) {
                Some(t) => Some(t.clone()),
                None => {
                    let host = self.host_path(&next);
                    let meta = fs::symlink_metadata(&host).ok()?;
                    if meta.file_type().is_symlink() {
                        let t = fs::read_link(&host).ok()?;
                        self.captured.insert(next.clone(), Captured::Link(t.clone()));
                        self.links.insert(next.clone(), t.clone());
                        Some(t)
                    } else {
                        self.real.insert(next.clone());
                        None
                    }
                }
            };
            if let Some(target) = target {
                links += 1;
                if links > MAX_LINKS {
                    self.warn(next.display().to_string(), "too many levels of symbolic links");
                    return None;
                }
                let base = if target.is_absolute() { PathBuf::from("/") } else { done.clone() };
                let mut joined = components(&base.join(&target));
                done = PathBuf::from("/");
                joined.reverse();
                rest.extend(joined);
            } else {
                done = next;
            }
        }
        Some(done)
    }

    /// Reads a small text file: trimmed, or `None` (with a warning unless it is optional and absent).
    pub fn read(&mut self, path: impl AsRef<Path>, need: Need) -> Option<String> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let Some(real) = self.resolve(path) else {
            if need == Need::Expected {
                self.warn(shown, "missing");
            }
            return None;
        };
        let host = self.host_path(&real);
        let meta = match fs::metadata(&host) {
            Ok(m) => m,
            Err(e) => {
                self.warn(shown, format!("unreadable: {e}"));
                return None;
            }
        };
        if !meta.is_file() {
            // A directory, a FIFO or a device where a value should be: reading a FIFO would block forever.
            self.warn(shown, "not a regular file");
            return None;
        }
        let mut bytes = Vec::new();
        let read = fs::File::open(&host).and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes));
        if let Err(e) = read {
            // sysfs answers EINVAL for `rate` without a cable and for `speed` of an interface that is down.
            if need == Need::Expected || e.raw_os_error() != Some(22) {
                self.warn(shown, format!("unreadable: {e}"));
            }
            return None;
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            bytes.truncate(MAX_FILE_BYTES as usize);
            self.warn(shown.clone(), format!("longer than {MAX_FILE_BYTES} bytes; the rest was not read"));
        }
        self.captured.insert(real, Captured::File(bytes.clone()));
        match String::from_utf8(bytes) {
            Ok(s) if s.chars().any(|c| c.is_control() && !c.is_whitespace()) => {
                self.warn(shown, "not text (control characters)");
                None
            }
            Ok(s) => Some(s.trim().to_string()),
            Err(_) => {
                self.warn(shown, "not text (invalid UTF-8)");
                None
            }
        }
    }

    /// Reads and parses a value; an unparseable one is a warning naming the file and what was in it.
    pub fn parse<T>(
        &mut self,
        path: impl AsRef<Path>,
        need: Need,
        what: &str,
        f: impl FnOnce(&str) -> Option<T>,
    ) -> Option<T> {
        let path = path.as_ref();
        let text = self.read(path, need)?;
        let parsed = f(&text);
        if parsed.is_none() {
            self.warn(path.display().to_string(), format!("expected {what}, found {:?}", clip(&text)));
        }
        parsed
    }

    /// The names in a directory, sorted; empty (with a warning when expected) if it is missing.
    pub fn list(&mut self, path: impl AsRef<Path>, need: Need) -> Vec<String> {
        let path = path.as_ref();
        let Some(real) = self.resolve(path) else {
            if need == Need::Expected {
                self.warn(path.display().to_string(), "missing");
            }
            return Vec::new();
        };
        match fs::read_dir(self.host_path(&real)) {
            Ok(entries) => {
                let mut names = Vec::new();
                self.captured.entry(real.clone()).or_insert(Captured::Dir);
                for e in entries.filter_map(|e| e.ok()) {
                    let Ok(name) = e.file_name().into_string() else { continue };
                    // What a listing shows must survive a capture: links with their targets, and directories.
                    let child = real.join(&name);
                    match e.file_type() {
                        Ok(t) if t.is_symlink() => {
                            if let Ok(target) = fs::read_link(e.path()) {
                                self.captured.insert(child, Captured::Link(target));
                            }
                        }
                        Ok(t) if t.is_dir() => {
                            self.captured.entry(child).or_insert(Captured::Dir);
                        }
                        _ => {}
                    }
                    names.push(name);
                }
                names.sort_by_key(|n| natural(n));
                names
            }
            Err(e) => {
                self.warn(path.display().to_string(), format!("unreadable directory: {e}"));
                Vec::new()
            }
        }
    }

    /// The resolved path of a link-bearing path (`/sys/bus/pci/devices/0000:1b:00.0` to
    /// `/sys/devices/pci0000:17/.../0000:1b:00.0`), if it exists.
    pub fn real_path(&mut self, path: impl AsRef<Path>) -> Option<PathBuf> {
        let real = self.resolve(path.as_ref())?;
        let meta = fs::symlink_metadata(self.host_path(&real)).ok()?;
        if meta.is_dir() {
            self.captured.entry(real.clone()).or_insert(Captured::Dir);
        }
        Some(real)
    }

    /// Whether a path exists in the tree (following links).
    pub fn exists(&mut self, path: impl AsRef<Path>) -> bool {
        self.real_path(path).is_some()
    }
}

/// The path's normal components (`..` kept for [`Tree::resolve`] to apply).
fn components(path: &Path) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(s) => out.push(s.to_os_string()),
            Component::ParentDir => {
                out.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// Sorts `mlx5_10` after `mlx5_9` and `GPU10` after `GPU9`.
fn natural(s: &str) -> (String, u64) {
    let digits_at = s.rfind(|c: char| !c.is_ascii_digit()).map_or(0, |i| i + 1);
    let (head, tail) = s.split_at(digits_at);
    match tail.parse::<u64>() {
        Ok(n) => (head.to_string(), n),
        Err(_) => (s.to_string(), 0),
    }
}

/// At most 60 characters of a value for a warning.
pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("probe-fs-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("test setup");
        dir
    }

    #[test]
    fn links_resolve_inside_the_tree_and_are_recorded() {
        let dir = temp("links");
        fs::create_dir_all(dir.join("sys/devices/pci0000:00/0000:00:01.0")).expect("test setup");
        fs::write(dir.join("sys/devices/pci0000:00/0000:00:01.0/vendor"), "0x10de\n").expect("test setup");
        fs::create_dir_all(dir.join("sys/bus/pci/devices")).expect("test setup");
        std::os::unix::fs::symlink(
            "../../../devices/pci0000:00/0000:00:01.0",
            dir.join("sys/bus/pci/devices/0000:00:01.0"),
        )
        .expect("test setup");
        let mut t = Tree::new(&dir);
        assert_eq!(t.read("/sys/bus/pci/devices/0000:00:01.0/vendor", Need::Expected).as_deref(), Some("0x10de"));
        assert_eq!(
            t.real_path("/sys/bus/pci/devices/0000:00:01.0").expect("test setup"),
            PathBuf::from("/sys/devices/pci0000:00/0000:00:01.0")
        );
        assert!(t.captured.contains_key(Path::new("/sys/bus/pci/devices/0000:00:01.0")));
        assert!(t.captured.contains_key(Path::new("/sys/devices/pci0000:00/0000:00:01.0/vendor")));
        assert!(t.warnings.is_empty(), "{:?}", t.warnings);
        fs::remove_dir_all(dir).expect("test setup");
    }

    #[test]
    fn loops_fifos_directories_and_escapes_are_warnings_not_hangs() {
        let dir = temp("odd");
        std::os::unix::fs::symlink("b", dir.join("a")).expect("test setup");
        std::os::unix::fs::symlink("a", dir.join("b")).expect("test setup");
        fs::create_dir_all(dir.join("dir")).expect("test setup");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
        std::os::unix::fs::symlink("/../../../../etc/hostname", dir.join("escape")).expect("test setup");
        fs::write(dir.join("bin"), [0xff, 0xfe, 0x00]).expect("test setup");
        let mut t = Tree::new(&dir);
        assert_eq!(t.read("/a", Need::Expected), None);
        assert_eq!(t.read("/dir", Need::Expected), None);
        if made {
            assert_eq!(t.read("/fifo", Need::Expected), None);
        }
        assert_eq!(t.read("/escape", Need::Optional), None);
        assert_eq!(t.read("/bin", Need::Expected), None);
        let text: Vec<String> = t.warnings.iter().map(|w| format!("{}: {}", w.source, w.message)).collect();
        assert!(text.iter().any(|w| w.contains("symbolic links")), "{text:?}");
        assert!(text.iter().any(|w| w.starts_with("/dir: not a regular file")), "{text:?}");
        assert!(text.iter().any(|w| w.starts_with("/bin: not text")), "{text:?}");
        fs::remove_dir_all(dir).expect("test setup");
    }

    #[test]
    fn names_sort_naturally() {
        let mut v = vec!["mlx5_10", "mlx5_2", "mlx5_1", "eth0"];
        v.sort_by_key(|n| natural(n));
        assert_eq!(v, ["eth0", "mlx5_1", "mlx5_2", "mlx5_10"]);
    }
}
