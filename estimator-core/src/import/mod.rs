//! Readers for what users measure before a long multi-node run: nccl-tests output (`all_reduce_perf` and the other
//! `*_perf`), `NCCL_DEBUG=INFO` logs, `nvidia-smi topo -m`, `ibstat` and `ibv_devinfo` (plain and `-v`); and for what
//! a run records of its own collectives: NCCL Inspector dumps (`inspector`) and PyTorch profiler traces (`trace`).
//!
//! Every reader takes any text: it skips what it does not know, never panics, and is linear in time and memory
//! (one pass over the lines, no backtracking; a line is looked at a bounded number of times). Launcher prefixes
//! (`[1,0]<stdout>:` from Open MPI's `--tag-output`, ` 0: ` from `srun -l`) are removed first, and before them the
//! terminal's escape sequences ([`strip_ansi`]: a `script` or `tee` of a coloured terminal keeps them). [`detect`]
//! tells which kind a text is; [`import`] detects and reads.

pub mod calls;
pub mod ib;
pub mod inspector;
pub mod nccl_log;
pub mod nccl_tests;
pub mod topo;
pub mod trace;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

pub use ib::{IbAdapter, IbPort};
pub use nccl_log::NcclLog;
pub use nccl_tests::{NcclTestsRow, NcclTestsRun, RankDevice, RankSource};
pub use topo::Topology;

/// The kinds of text the readers know, by their JSON names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Kind {
    /// nccl-tests `*_perf` output.
    #[serde(rename = "nccl-tests")]
    NcclTests,
    /// An `NCCL_DEBUG=INFO` log.
    #[serde(rename = "nccl-log")]
    NcclLog,
    /// `nvidia-smi topo -m`.
    #[serde(rename = "nvidia-smi-topo")]
    NvidiaSmiTopo,
    /// `ibstat`.
    #[serde(rename = "ibstat")]
    Ibstat,
    /// `ibv_devinfo` or `ibv_devinfo -v`.
    #[serde(rename = "ibv-devinfo")]
    IbvDevinfo,
    /// NCCL Inspector's JSON records.
    #[serde(rename = "nccl-inspector")]
    NcclInspector,
    /// A PyTorch profiler (Kineto) trace.
    #[serde(rename = "pytorch-trace")]
    PytorchTrace,
}

impl Kind {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::NcclTests => "nccl-tests",
            Kind::NcclLog => "nccl-log",
            Kind::NvidiaSmiTopo => "nvidia-smi-topo",
            Kind::Ibstat => "ibstat",
            Kind::IbvDevinfo => "ibv-devinfo",
            Kind::NcclInspector => "nccl-inspector",
            Kind::PytorchTrace => "pytorch-trace",
        }
    }
}

/// What a text held, by kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind")]
pub enum Imported {
    /// nccl-tests output.
    #[serde(rename = "nccl-tests")]
    NcclTests(NcclTestsRun),
    /// An NCCL log.
    #[serde(rename = "nccl-log")]
    NcclLog(NcclLog),
    /// `nvidia-smi topo -m`.
    #[serde(rename = "nvidia-smi-topo")]
    NvidiaSmiTopo(Topology),
    /// `ibstat`.
    #[serde(rename = "ibstat")]
    Ibstat {
        /// The adapters.
        adapters: Vec<IbAdapter>,
    },
    /// `ibv_devinfo`.
    #[serde(rename = "ibv-devinfo")]
    IbvDevinfo {
        /// The adapters.
        adapters: Vec<IbAdapter>,
    },
    /// NCCL Inspector records.
    #[serde(rename = "nccl-inspector")]
    NcclInspector(Box<inspector::InspectorDump>),
    /// A PyTorch profiler trace.
    #[serde(rename = "pytorch-trace")]
    PytorchTrace(Box<trace::PytorchTrace>),
}

impl Imported {
    /// Host names (nccl-tests' rank lines, an NCCL log's line prefixes) written as `with` (the report's
    /// `REDACTED`): what `probe-cli report --attach` does unless identifiers are asked for.
    pub fn redact_hosts(&mut self, with: &str) {
        let redact_log = |log: &mut NcclLog| {
            for h in &mut log.host_names {
                *h = with.to_string();
            }
        };
        match self {
            Imported::NcclTests(run) => {
                for d in &mut run.devices {
                    if d.host.is_some() {
                        d.host = Some(with.to_string());
                    }
                }
                if let Some(log) = run.nccl_log.as_deref_mut() {
                    redact_log(log);
                }
            }
            Imported::NcclLog(log) => redact_log(log),
            _ => {}
        }
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Imported::NcclTests(_) => Kind::NcclTests,
            Imported::NcclLog(_) => Kind::NcclLog,
            Imported::NvidiaSmiTopo(_) => Kind::NvidiaSmiTopo,
            Imported::Ibstat { .. } => Kind::Ibstat,
            Imported::IbvDevinfo { .. } => Kind::IbvDevinfo,
            Imported::NcclInspector(_) => Kind::NcclInspector,
            Imported::PytorchTrace(_) => Kind::PytorchTrace,
        }
    }
}

/// The text without terminal escape sequences (ECMA-48): CSI (`ESC [` ... a final byte from `@` to `~`, the colours
/// and cursor moves of a coloured terminal), OSC (`ESC ]` ... `BEL` or `ESC \\`, window titles and links), and any
/// other `ESC` with the one byte after it; a lone 8-bit CSI (U+009B) likewise. One pass, no allocation when there is
/// none. `\r\n` (what `script` writes) becomes `\n`, and a lone `\r` ends a line.
pub fn strip_ansi(text: &str) -> Cow<'_, str> {
    if !text.contains(['\u{1b}', '\u{9b}']) && !text.contains("\r") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                Some('[') => skip_csi(&mut chars, &mut out),
                Some(']') => {
                    // OSC: up to BEL or ESC \; a cut one ends at the line's end, which stays.
                    while let Some(x) = chars.next() {
                        if x == '\n' {
                            out.push('\n');
                            break;
                        }
                        if x == '\u{7}' || (x == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some('\n') => out.push('\n'),
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars, &mut out),
            // `\r\n` is one line end; a lone `\r` (a progress line redrawn, or old Mac line ends) ends a line too.
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Skips a CSI sequence: its parameter and intermediate bytes (0x20 to 0x3F) and its final byte (0x40 to 0x7E).
/// A cut sequence ends at the first other character, which is kept (a line end stays a line end).
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) {
    for x in chars.by_ref() {
        if ('\u{20}'..='\u{3f}').contains(&x) {
            continue;
        }
        if !('@'..='~').contains(&x) {
            out.push(x);
        }
        break;
    }
}

/// Removes launcher prefixes from a line: Open MPI's `[1,0]<stdout>:` / `<stderr>:` and Slurm's ` 0: ` (`srun -l`),
/// repeatedly (`srun -l` around `mpirun --tag-output` gives both), and the leading white space.
pub fn strip_launcher(line: &str) -> &str {
    let mut s = line;
    loop {
        let t = s.trim_start();
        if let Some(rest) = t.strip_prefix('[') {
            // [R,N]<stdout>: or [R,N]<stderr>:
            if let Some(close) = rest.find(']') {
                let inside = &rest[..close];
                let after = &rest[close + 1..];
                let tagged = after.strip_prefix("<stdout>:").or_else(|| after.strip_prefix("<stderr>:"));
                if let Some(after) = tagged
                    && inside.chars().all(|c| c.is_ascii_digit() || c == ',')
                {
                    s = after;
                    continue;
                }
            }
        }
        // `0: ` from srun -l: digits, a colon, then a space (a data row has no colon after its first number).
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0
            && digits <= 6
            && t.as_bytes().get(digits) == Some(&b':')
            && t.as_bytes().get(digits + 1) == Some(&b' ')
        {
            s = &t[digits + 1..];
            continue;
        }
        return t;
    }
}

/// Which kind a text is, from markers only these tools print; `None` when none is found.
pub fn detect(text: &str) -> Option<Kind> {
    // The JSON kinds, from their first 64 KiB.
    let head = text.get(..text.len().min(64 * 1024)).unwrap_or_else(|| {
        let mut end = 64 * 1024;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    });
    if inspector::looks_like(head) {
        return Some(Kind::NcclInspector);
    }
    if trace::looks_like(head) {
        return Some(Kind::PytorchTrace);
    }
    let text = strip_ansi(text);
    let mut scores = [0u32; 5];
    for line in text.lines().take(20_000) {
        let l = strip_launcher(line).trim();
        if l.starts_with("# nThread")
            || l.starts_with("# Avg bus bandwidth")
            || (l.contains("out-of-place") && l.contains("in-place"))
        {
            scores[0] += 3;
        } else if nccl_tests::looks_like_row(l) {
            scores[0] += 1;
        }
        if l.contains(" NCCL INFO ") || l.contains(" NCCL WARN ") || l.starts_with("NCCL INFO") {
            scores[1] += 1;
        }
        if l.starts_with("GPU0") && l.contains(" X ") || l.contains("Legend:") || l.starts_with("NIC Legend") {
            scores[2] += 3;
        }
        if l.starts_with("CA '") || l.starts_with("CA type:") || l.starts_with("Physical state:") {
            scores[3] += 2;
        }
        if l.starts_with("hca_id:") || l.starts_with("vendor_part_id:") || l.starts_with("phys_port_cnt:") {
            scores[4] += 2;
        }
    }
    // An nccl-tests run with NCCL_DEBUG=INFO prints more log lines than table lines: its table is what it is.
    if scores[0] >= 3 {
        return Some(Kind::NcclTests);
    }
    let best = (0..5).max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))?;
    if scores[best] == 0 {
        return None;
    }
    Some([Kind::NcclTests, Kind::NcclLog, Kind::NvidiaSmiTopo, Kind::Ibstat, Kind::IbvDevinfo][best])
}

/// Reads a text of a known kind.
pub fn read(kind: Kind, text: &str) -> Imported {
    match kind {
        Kind::NcclTests => Imported::NcclTests(nccl_tests::parse(text)),
        Kind::NcclLog => Imported::NcclLog(nccl_log::parse(text)),
        Kind::NvidiaSmiTopo => Imported::NvidiaSmiTopo(topo::parse(text)),
        Kind::Ibstat => Imported::Ibstat { adapters: ib::parse_ibstat(text) },
        Kind::IbvDevinfo => Imported::IbvDevinfo { adapters: ib::parse_ibv_devinfo(text) },
        Kind::NcclInspector => Imported::NcclInspector(Box::new(
            inspector::parse("input", text)
                .unwrap_or_else(|e| inspector::InspectorDump { problems: vec![e.to_string()], ..Default::default() }),
        )),
        Kind::PytorchTrace => Imported::PytorchTrace(Box::new(
            trace::parse(text.as_bytes())
                .unwrap_or_else(|e| trace::PytorchTrace { problems: vec![e.to_string()], ..Default::default() }),
        )),
    }
}

/// Detects the kind of a text and reads it; `None` when the kind is not recognised.
pub fn import(text: &str) -> Option<Imported> {
    detect(text).map(|k| read(k, text))
}

/// The first number in a token (`"200"`, `"100.0"`, `"4X"` → 4), if any.
pub(crate) fn leading_number(s: &str) -> Option<f64> {
    let s = s.trim_start();
    let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    s.get(..end).and_then(|n| n.parse().ok()).filter(|v: &f64| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launcher_prefixes_come_off() {
        assert_eq!(strip_launcher("[1,0]<stdout>:# nThread 1"), "# nThread 1");
        assert_eq!(strip_launcher(" 0: # Avg bus bandwidth    : 142.735"), "# Avg bus bandwidth    : 142.735");
        assert_eq!(strip_launcher("  0: [1,3]<stderr>:x"), "x");
        assert_eq!(strip_launcher("     8388608       2097152     float"), "8388608       2097152     float");
        assert_eq!(strip_launcher("[x]<stdout>:y"), "[x]<stdout>:y");
        assert_eq!(strip_launcher("12:"), "12:");
        assert_eq!(strip_launcher(""), "");
    }

    #[test]
    fn a_run_with_its_nccl_log_interleaved_is_a_run() {
        let mut text = String::new();
        for _ in 0..50 {
            text.push_str("h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA\n");
        }
        text.push_str("# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20\n");
        text.push_str("           8             2     float     sum      -1    24.51    0.00    0.00      0    24.27    0.00    0.00      0\n");
        assert_eq!(detect(&text), Some(Kind::NcclTests));
        // ... and the same text read as a log still gives the log's facts.
        assert_eq!(nccl_log::parse(&text).gdr, Some(true));
    }

    #[test]
    fn a_cut_escape_sequence_keeps_the_next_line() {
        assert_eq!(strip_ansi("x\u{1b}[\nhost:1:1 [0] NCCL INFO"), "x\nhost:1:1 [0] NCCL INFO");
        assert_eq!(strip_ansi("a\u{1b}]0;title\nb"), "a\nb", "an OSC without its end stops at the line's");
        assert_eq!(strip_ansi("\u{1b}[1;31mred\u{1b}[0m"), "red");
    }

    #[test]
    fn unknown_text_is_none_and_nothing_panics() {
        assert_eq!(detect(""), None);
        assert_eq!(detect("hello\nworld"), None);
        for junk in ["[", "[1,0]<stdout>:", "0:", "CA '", "GPU0 X", "# nThread", "hca_id:", "\u{0}\u{ffff}"] {
            let _ = import(junk);
        }
        assert_eq!(leading_number("4X"), Some(4.0));
        assert_eq!(leading_number("100.0 Gbps"), Some(100.0));
        assert_eq!(leading_number("x"), None);
    }
}
