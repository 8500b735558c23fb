//! "Check a run"'s own records, in the details worker: PyTorch profiler traces and NCCL Inspector dumps, sent by
//! `static/sections.js` in text chunks as the browser reads (and, for `.gz`, decompresses) each file, so a large
//! trace streams through the reader and is never held whole. What was read stays until the next selection.

use std::cell::RefCell;

use estimator_core::import::inspector::{self, InspectorDump, InspectorReader};
use estimator_core::import::trace::{self, PytorchTrace, TraceReader, TraceSteps};
use estimator_core::run_collectives::Calls;

use crate::html;
use crate::html::Html;

/// The most text of an Inspector dump held at once, waiting for its record to end (a record is one line of a few
/// hundred bytes; the whole records before it are read as they come): 64 MiB.
pub const MAX_INSPECTOR_CHARS: usize = 64 << 20;
/// The most files in one selection (a 512-GPU job writes 512 Inspector logs: past this many they are counted).
pub const MAX_FILES: usize = 4096;
/// The most text read of one trace: far past any profiler's output; a gzip bomb stops here.
pub const MAX_TRACE_CHARS: u64 = 8 << 30;

enum Reading {
    /// Not known yet: the first chunk tells.
    Unknown,
    Trace(Box<TraceReader>),
    /// The text after the last record start read so far.
    Inspector(String),
    /// Neither: the rest of the file is skipped.
    Refused(String),
}

struct Loading {
    name: String,
    reading: Reading,
    chars: u64,
    /// An Inspector dump's file was begun in the reader.
    begun: bool,
}

#[derive(Default)]
struct Records {
    traces: Vec<(String, PytorchTrace)>,
    inspector: Option<InspectorReader>,
    dump: Option<InspectorDump>,
    inspector_files: Vec<String>,
    lines: Vec<Result<String, String>>,
    left_out: usize,
    loading: Option<Loading>,
    /// The calls of everything read, merged when first asked for after a file ends.
    calls: Option<Calls>,
    stale: bool,
}

thread_local! {
    static RECORDS: RefCell<Records> = RefCell::new(Records::default());
}

/// One chunk of a file's text: `reset` starts a new selection (the first chunk of its first file), `first` a new
/// file, `last` ends it. Returns the status of what has been read so far.
pub fn chunk(name: &str, text: &str, reset: bool, first: bool, last: bool) -> Html {
    RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        if reset {
            *r = Records::default();
            if !first {
                return Html::new();
            }
        }
        if first {
            r.loading = Some(Loading {
                name: name.chars().take(256).collect(),
                reading: Reading::Unknown,
                chars: 0,
                begun: false,
            });
        }
        if let Some(l) = r.loading.as_mut() {
            feed(l, text);
        }
        drain(&mut r, last);
        if last && let Some(l) = r.loading.take() {
            finish(&mut r, l);
        }
        status(&r)
    })
}

fn feed(l: &mut Loading, text: &str) {
    l.chars += text.len() as u64;
    if l.chars > MAX_TRACE_CHARS && !matches!(l.reading, Reading::Refused(_)) {
        l.reading = Reading::Refused(format!("over {} GiB of text: refused", MAX_TRACE_CHARS >> 30));
        return;
    }
    if matches!(l.reading, Reading::Unknown) {
        let head: String = text.chars().take(64 << 10).collect();
        l.reading = if inspector::looks_like(&head) {
            Reading::Inspector(String::new())
        } else if trace::looks_like(&head) {
            Reading::Trace(Box::new(TraceReader::new()))
        } else if text.trim().is_empty() {
            Reading::Unknown
        } else {
            Reading::Refused(
                "not a PyTorch profiler trace (torch.profiler's JSON) nor NCCL Inspector records (JSON lines with \
                 header and coll_perf)"
                    .to_string(),
            )
        };
    }
    match &mut l.reading {
        Reading::Trace(t) => t.feed(text.as_bytes()),
        Reading::Inspector(s) => {
            if s.len() + text.len() > MAX_INSPECTOR_CHARS {
                l.reading =
                    Reading::Refused(format!("larger than {} MiB: not an Inspector dump", MAX_INSPECTOR_CHARS >> 20));
            } else {
                s.push_str(text);
            }
        }
        Reading::Unknown | Reading::Refused(_) => {}
    }
}

/// An Inspector dump's whole records, read as they come: up to the last line that starts a record (all of it at the
/// file's end). Beside traces it is left out whole (see [`finish`]).
fn drain(r: &mut Records, last: bool) {
    let Records { loading, inspector, traces, .. } = r;
    let Some(l) = loading.as_mut() else { return };
    let Reading::Inspector(pending) = &mut l.reading else { return };
    if !traces.is_empty() {
        pending.clear();
        return;
    }
    let cut = if last {
        pending.len()
    } else {
        match pending.rfind("\n{") {
            Some(k) => k + 1,
            None => return,
        }
    };
    let part: String = pending.drain(..cut).collect();
    let reader = inspector.get_or_insert_with(InspectorReader::new);
    if !l.begun {
        reader.begin();
        l.begun = true;
    }
    reader.feed(&l.name, &part);
}

fn finish(r: &mut Records, l: Loading) {
    if r.lines.len() >= MAX_FILES {
        r.left_out += 1;
        return;
    }
    let name = l.name;
    // One kind at a time: a trace numbers its ranks globally, the Inspector by process, and both record the same
    // collectives.
    let other_kind = match &l.reading {
        Reading::Trace(_) => r.inspector.is_some(),
        Reading::Inspector(_) => !r.traces.is_empty(),
        _ => false,
    };
    if other_kind {
        r.lines.push(Err(format!(
            "{name}: left out: give traces or Inspector records, not both (they number ranks differently and record \
             the same collectives)"
        )));
        return;
    }
    r.stale = true;
    match l.reading {
        Reading::Trace(t) => match t.finish() {
            Ok(t) => {
                if (t.rank.is_none() && !r.traces.is_empty()) || r.traces.iter().any(|(_, x)| x.rank.is_none()) {
                    r.lines.push(Err(format!(
                        "{name}: left out: with several traces each must say its rank (distributedInfo.rank), to \
                         match their calls"
                    )));
                    return;
                }
                if let Some(rank) = t.rank
                    && r.traces.iter().any(|(_, x)| x.rank == Some(rank))
                {
                    r.lines.push(Err(format!("{name}: a second trace of rank {rank}; left out")));
                    return;
                }
                r.lines.push(Ok(format!("{name}: {}", t.describe())));
                r.traces.push((name, t));
                r.traces.sort_by_key(|(_, t)| t.rank.unwrap_or(u32::MAX));
            }
            Err(e) => r.lines.push(Err(format!("{name}: {e}"))),
        },
        Reading::Inspector(_) => {
            r.inspector_files.push(name.clone());
            r.lines.push(Ok(format!("{name}: NCCL Inspector records")));
        }
        Reading::Refused(why) => r.lines.push(Err(format!("{name}: {why}"))),
        Reading::Unknown => r.lines.push(Err(format!("{name}: the file is empty"))),
    }
}

/// The calls of everything read, merged (once after each file, when first asked for).
fn merged(r: &mut Records) {
    if !r.stale {
        return;
    }
    r.stale = false;
    r.dump = r.inspector.clone().and_then(|i| i.finish().ok());
    let mut calls: Option<Calls> = None;
    for (_, t) in &r.traces {
        match &mut calls {
            Some(c) => c.merge(t.calls.clone()),
            None => calls = Some(t.calls.clone()),
        }
    }
    if let Some(d) = &r.dump {
        calls = Some(d.calls.clone());
    }
    r.calls = calls;
}

fn status(r: &Records) -> Html {
    let mut h = Html::new();
    // A file being read that is refused: the page stops reading it (and sends its end).
    if matches!(r.loading, Some(Loading { reading: Reading::Refused(_), .. })) {
        h.push_static("<ul class=\"fine\" id=\"run-records-read\" data-skip=\"1\">");
    } else {
        h.push_static("<ul class=\"fine\" id=\"run-records-read\">");
    }
    for l in &r.lines {
        match l {
            Ok(t) => html!(h, "<li>{}</li>", t),
            Err(e) => html!(h, "<li class=\"error\">{}</li>", e),
        }
    }
    if r.left_out > 0 {
        html!(h, "<li class=\"error\">{} files past the first {} were left out</li>", r.left_out, MAX_FILES);
    }
    if let Some(l) = &r.loading {
        html!(h, "<li>reading {} ...</li>", l.name);
    }
    h.push_static("</ul>");
    h
}

/// Runs `f` with the records read: the calls of every file, merged, and the lowest rank's trace steps.
pub fn with<T>(f: impl FnOnce(Option<&Calls>, Option<&TraceSteps>) -> T) -> T {
    RECORDS.with(|r| {
        let mut r = r.borrow_mut();
        merged(&mut r);
        let steps = r.traces.iter().map(|(_, t)| &t.steps).find(|s| !s.steps.is_empty());
        f(r.calls.as_ref(), steps)
    })
}
