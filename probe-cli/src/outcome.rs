//! What a command reports back to `main`: it ran and found nothing wrong, it ran and found something, or it failed.
//! `main` alone turns these into exit codes (`ExitStatus` there); commands never exit.

/// How a command that ran to the end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing wrong (a report written, an estimate printed, a healthy run): exit 0.
    Clean,
    /// The command ran and its answer is a problem a script may gate on (a degraded, unhealthy or mismatched
    /// run): exit 1, or 0 with `--exit-zero`. The output says what was found.
    Findings,
}

/// Why a command did not run to the end: exit 2, whatever `--exit-zero` says.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or values the model rejects; the message names the flag.
    Usage(String),
    /// An input that cannot be read or understood (a missing, garbled or ambiguous file), or output that cannot
    /// be written; the message names the file.
    Input(anyhow::Error),
}

impl Failure {
    /// An input failure with a message of its own.
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure::Input(anyhow::anyhow!("{message}"))
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Input(e)
    }
}
