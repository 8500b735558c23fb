//! NVML and libibverbs for the probe: which ones (the live libraries, or the answers a capture holds), and running
//! their queries on threads of their own with a deadline, so that a wedged driver cannot hang the probe: a library
//! that has not answered by then is left behind (its thread keeps running until the process exits) and the report
//! says so.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use estimator_core::report::VerbsDevice;

use super::fs::{Need, Tree};
use super::gpu::{self, GpuLibrary, NvmlFacts};
use super::verbs::{self, VerbsLibrary};

/// How long NVML and libibverbs together may take before the report goes on without them.
pub const LIBRARY_DEADLINE: Duration = Duration::from_secs(10);

/// Where the capture keeps the libraries' answers.
pub const NVML_CAPTURE: &str = "/probe-cli/nvml.json";
/// The same for libibverbs.
pub const VERBS_CAPTURE: &str = "/probe-cli/verbs.json";

/// Where NVML and libibverbs facts come from.
pub struct Libraries {
    /// NVML, live or captured.
    pub gpu: Box<dyn GpuLibrary + Send>,
    /// libibverbs, live or captured.
    pub verbs: Box<dyn VerbsLibrary + Send>,
    /// Whether these are the live libraries (for the report's `source.live`).
    pub live: bool,
}

impl Libraries {
    /// The live libraries; `PROBE_CLI_NVML_LIB` and `PROBE_CLI_IBVERBS_LIB` name other files to load.
    /// `identifiers` keeps the GID values libibverbs reports.
    pub fn live(identifiers: bool) -> Self {
        Libraries {
            gpu: Box::new(gpu::LiveNvml { lib_path: std::env::var_os("PROBE_CLI_NVML_LIB") }),
            verbs: Box::new(verbs::LiveVerbs { lib_path: std::env::var_os("PROBE_CLI_IBVERBS_LIB"), identifiers }),
            live: true,
        }
    }

    /// The answers a captured tree holds (written by `probe-cli gather`), if any.
    pub fn captured(tree: &mut Tree) -> Self {
        Libraries {
            gpu: Box::new(gpu::CapturedNvml { text: tree.read(NVML_CAPTURE, Need::Optional) }),
            verbs: Box::new(verbs::CapturedVerbs { text: tree.read(VERBS_CAPTURE, Need::Optional) }),
            live: false,
        }
    }
}

/// The two queries, running.
pub struct Pending {
    nvml: mpsc::Receiver<Result<NvmlFacts, String>>,
    verbs: mpsc::Receiver<Result<Vec<VerbsDevice>, String>>,
    deadline: Instant,
    limit: Duration,
    live: bool,
}

/// What the libraries said, or why not (their own words, or that they did not answer in time).
pub struct Answers {
    /// NVML's facts.
    pub nvml: Result<NvmlFacts, String>,
    /// libibverbs' devices.
    pub verbs: Result<Vec<VerbsDevice>, String>,
    /// Whether these came from the live libraries (for the report's `source.live`).
    pub live: bool,
}

impl Libraries {
    /// Starts both queries, each on its own thread; [`Pending::wait`] collects them until `limit` from now.
    pub fn start(self, limit: Duration) -> Pending {
        let Libraries { gpu, verbs, live } = self;
        Pending {
            nvml: spawn(move || gpu.query()),
            verbs: spawn(move || verbs.query()),
            deadline: Instant::now() + limit,
            limit,
            live,
        }
    }
}

impl Pending {
    /// Waits for both answers until the deadline set by [`Libraries::start`].
    pub fn wait(self) -> Answers {
        Answers {
            nvml: wait(&self.nvml, self.deadline, self.limit, "NVML"),
            verbs: wait(&self.verbs, self.deadline, self.limit, "libibverbs"),
            live: self.live,
        }
    }
}

fn spawn<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> mpsc::Receiver<Result<T, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx
}

fn wait<T>(
    rx: &mpsc::Receiver<Result<T, String>>,
    deadline: Instant,
    limit: Duration,
    what: &str,
) -> Result<T, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    match rx.recv_timeout(left) {
        Ok(r) => r,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(format!("{what} did not answer within {:.1} s; left behind", limit.as_secs_f64()))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(format!("{what} failed without an answer")),
    }
}
