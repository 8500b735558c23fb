//! A byte-level scanner over a Chrome-trace JSON document fed in chunks: it hands out each element of the top-level
//! `traceEvents` array (or of a top-level array, Chrome's "JSON Array Format") as its own bytes, and the values of a
//! few other top-level keys, without ever holding the document. Memory is bounded by the largest element kept
//! ([`MAX_EVENT_BYTES`], [`MAX_VALUE_BYTES`]); time is one pass with a constant amount of work per byte.

/// The largest event kept, bytes: an event over it is skipped and counted (a kernel's is a few hundred bytes; a CPU
/// op with `record_shapes` a few KB).
pub const MAX_EVENT_BYTES: usize = 1 << 20;
/// The largest top-level value kept (`distributedInfo`, `deviceProperties`), bytes.
pub const MAX_VALUE_BYTES: usize = 4 << 20;
/// The longest top-level key compared, bytes.
const MAX_KEY: usize = 64;

/// The top-level keys whose values are handed out.
pub const KEPT_KEYS: [&str; 4] = ["distributedInfo", "deviceProperties", "displayTimeUnit", "baseTimeNanoseconds"];

/// What the scanner found in a chunk.
#[derive(Debug, PartialEq)]
pub enum Item<'a> {
    /// One element of the events array, whole: its index, the byte offset it starts at, and its bytes.
    Event(u64, u64, &'a [u8]),
    /// An element over [`MAX_EVENT_BYTES`], skipped: its index and the byte offset it starts at.
    Oversized(u64, u64),
    /// A kept top-level key's value.
    Value(&'static str, &'a [u8]),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Capture {
    None,
    /// An event from its `{`: kept while under the limit.
    Event {
        over: bool,
    },
    /// A top-level value of a kept key, from its first byte.
    Value {
        key: usize,
        over: bool,
    },
}

/// Where the scanner stands.
#[derive(Debug)]
pub struct Scanner {
    depth: u32,
    in_string: bool,
    escape: bool,
    /// The document's first byte was seen: `{` (an object) or `[` (an array of events).
    root: Option<u8>,
    /// At the root object's level: the next string is a key.
    expect_key: bool,
    key: Vec<u8>,
    key_over: bool,
    reading_key: bool,
    /// The depth inside the events array, while in it.
    events_depth: Option<u32>,
    /// The events array was seen (whole or in part).
    pub saw_events: bool,
    capture: Capture,
    buf: Vec<u8>,
    events: u64,
    /// The offset of the byte being scanned, and of the event being kept.
    cur: u64,
    event_start: u64,
    /// Bytes fed so far.
    pub offset: u64,
    /// The first byte that is not JSON's start, where the document should begin.
    pub bad_start: Option<u8>,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner {
            depth: 0,
            in_string: false,
            escape: false,
            root: None,
            expect_key: false,
            key: Vec::new(),
            key_over: false,
            reading_key: false,
            events_depth: None,
            saw_events: false,
            capture: Capture::None,
            buf: Vec::new(),
            events: 0,
            cur: 0,
            event_start: 0,
            offset: 0,
            bad_start: None,
        }
    }
}

impl Scanner {
    /// The events handed out so far (kept or oversized).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The document was opened and closed (depth back to 0 after its first bracket).
    pub fn complete(&self) -> bool {
        self.root.is_some() && self.depth == 0 && !self.in_string
    }

    /// Scans `chunk`, calling `out` for each item completed in it.
    pub fn feed(&mut self, chunk: &[u8], out: &mut dyn FnMut(Item<'_>)) {
        for (i, &b) in chunk.iter().enumerate() {
            self.cur = self.offset + i as u64;
            self.byte(b, out);
        }
        self.offset += chunk.len() as u64;
    }

    fn keep(&mut self, b: u8) {
        match &mut self.capture {
            Capture::None => {}
            Capture::Event { over } => {
                if !*over {
                    if self.buf.len() < MAX_EVENT_BYTES {
                        self.buf.push(b);
                    } else {
                        *over = true;
                        self.buf.clear();
                    }
                }
            }
            Capture::Value { over, .. } => {
                if !*over {
                    if self.buf.len() < MAX_VALUE_BYTES {
                        self.buf.push(b);
                    } else {
                        *over = true;
                        self.buf.clear();
                    }
                }
            }
        }
    }

    fn end_value(&mut self, out: &mut dyn FnMut(Item<'_>)) {
        if let Capture::Value { key, over } = self.capture {
            if !over {
                let trimmed = trim_end(&self.buf);
                out(Item::Value(KEPT_KEYS[key], trimmed));
            }
            self.buf.clear();
            self.capture = Capture::None;
        }
    }

    fn byte(&mut self, b: u8, out: &mut dyn FnMut(Item<'_>)) {
        if self.in_string {
            self.keep(b);
            if self.reading_key && !self.escape && b != b'"' && b != b'\\' {
                if self.key.len() < MAX_KEY {
                    self.key.push(b);
                } else {
                    self.key_over = true;
                }
            }
            if self.escape {
                self.escape = false;
                if self.reading_key {
                    // An escaped key is none of the kept ones.
                    self.key_over = true;
                }
            } else if b == b'\\' {
                self.escape = true;
            } else if b == b'"' {
                self.in_string = false;
                self.reading_key = false;
            }
            return;
        }
        if self.root.is_none() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => return,
                // A byte-order mark, written by some editors.
                0xEF | 0xBB | 0xBF if self.cur < 3 => return,
                b'{' => {
                    self.root = Some(b'{');
                    self.depth = 1;
                    self.expect_key = true;
                    return;
                }
                b'[' => {
                    self.root = Some(b'[');
                    self.depth = 1;
                    self.events_depth = Some(1);
                    self.saw_events = true;
                    return;
                }
                _ => {
                    if self.bad_start.is_none() {
                        self.bad_start = Some(b);
                    }
                    return;
                }
            }
        }
        if self.depth == 0 {
            // After the document: ignored.
            return;
        }
        let at_root = self.root == Some(b'{') && self.depth == 1;
        match b {
            b'"' => {
                if at_root && self.expect_key && matches!(self.capture, Capture::None) {
                    self.key.clear();
                    self.key_over = false;
                    self.reading_key = true;
                } else if at_root && !self.expect_key && matches!(self.capture, Capture::None) {
                    self.start_value();
                }
                self.keep(b);
                self.in_string = true;
            }
            b'{' | b'[' => {
                if Some(self.depth) == self.events_depth && b == b'{' {
                    self.capture = Capture::Event { over: false };
                    self.event_start = self.cur;
                    self.buf.clear();
                } else if at_root && !self.expect_key && matches!(self.capture, Capture::None) {
                    if b == b'[' && self.key == b"traceEvents" && !self.key_over {
                        self.events_depth = Some(2);
                        self.saw_events = true;
                    } else {
                        self.start_value();
                    }
                }
                self.keep(b);
                self.depth = self.depth.saturating_add(1);
            }
            b'}' | b']' => {
                // The root's own closing bracket belongs to no value.
                if self.depth > 1 {
                    self.keep(b);
                }
                self.depth -= 1;
                if Some(self.depth) == self.events_depth
                    && let Capture::Event { over } = self.capture
                {
                    let n = self.events;
                    self.events += 1;
                    if over {
                        out(Item::Oversized(n, self.event_start));
                    } else {
                        out(Item::Event(n, self.event_start, &self.buf));
                    }
                    self.buf.clear();
                    self.capture = Capture::None;
                } else if self.events_depth.is_some_and(|d| self.depth + 1 == d) && b == b']' {
                    // The events array closed.
                    self.events_depth = None;
                } else if self.depth == 0 {
                    self.end_value(out);
                }
            }
            b':' if at_root => {
                self.expect_key = false;
            }
            b',' if at_root => {
                self.end_value(out);
                self.expect_key = true;
            }
            b' ' | b'\t' | b'\n' | b'\r' => self.keep(b),
            _ => {
                if at_root && !self.expect_key && matches!(self.capture, Capture::None) {
                    self.start_value();
                }
                self.keep(b);
            }
        }
    }

    /// A value at the root starts: kept when its key is one of [`KEPT_KEYS`].
    fn start_value(&mut self) {
        if self.key_over {
            return;
        }
        if let Some(k) = KEPT_KEYS.iter().position(|k| k.as_bytes() == self.key.as_slice()) {
            self.capture = Capture::Value { key: k, over: false };
            self.buf.clear();
        }
    }
}

fn trim_end(b: &[u8]) -> &[u8] {
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(0, |i| i + 1);
    &b[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(doc: &str, chunk: usize) -> (Vec<String>, Vec<(String, String)>, Scanner) {
        let mut s = Scanner::default();
        let (mut events, mut values) = (Vec::new(), Vec::new());
        for c in doc.as_bytes().chunks(chunk.max(1)) {
            s.feed(c, &mut |i| match i {
                Item::Event(_, _, b) => events.push(String::from_utf8_lossy(b).into_owned()),
                Item::Oversized(n, _) => events.push(format!("oversized {n}")),
                Item::Value(k, b) => values.push((k.to_string(), String::from_utf8_lossy(b).into_owned())),
            });
        }
        (events, values, s)
    }

    #[test]
    fn events_and_kept_values_come_out_whole_at_any_chunk_size() {
        let doc = r#"{"schemaVersion": 1, "distributedInfo": {"rank": 3, "s": "a}\"]"}, "traceEvents": [
            {"ph": "X", "name": "a{[\"", "args": {"x": [1, {"y": 2}]}},
            {"ph": "i", "name": "b"}
          ], "displayTimeUnit": "ms", "baseTimeNanoseconds": 1700000000000000000}"#;
        for chunk in [1, 2, 3, 7, 64, 10_000] {
            let (events, values, s) = scan(doc, chunk);
            assert_eq!(events.len(), 2, "chunk {chunk}");
            assert_eq!(events[0], r#"{"ph": "X", "name": "a{[\"", "args": {"x": [1, {"y": 2}]}}"#);
            assert_eq!(events[1], r#"{"ph": "i", "name": "b"}"#);
            assert_eq!(
                values,
                vec![
                    ("distributedInfo".to_string(), r#"{"rank": 3, "s": "a}\"]"}"#.to_string()),
                    ("displayTimeUnit".to_string(), r#""ms""#.to_string()),
                    ("baseTimeNanoseconds".to_string(), "1700000000000000000".to_string()),
                ],
                "chunk {chunk}"
            );
            assert!(s.complete() && s.saw_events);
        }
    }

    #[test]
    fn a_bare_array_is_the_events() {
        let (events, values, s) = scan(r#" [{"a": 1}, {"b": [2]}] "#, 5);
        assert_eq!(events, vec![r#"{"a": 1}"#, r#"{"b": [2]}"#]);
        assert!(values.is_empty() && s.complete());
    }

    #[test]
    fn nested_trace_events_keys_are_not_the_array() {
        let (events, _, s) = scan(r#"{"x": {"traceEvents": [{"no": 1}]}, "y": 2}"#, 4);
        assert!(events.is_empty() && !s.saw_events);
    }

    #[test]
    fn an_oversized_event_is_counted_not_kept() {
        let big = format!(r#"{{"traceEvents": [{{"name": "{}"}}, {{"ok": 1}}]}}"#, "x".repeat(MAX_EVENT_BYTES + 10));
        let (events, _, _) = scan(&big, 4096);
        assert_eq!(events, vec!["oversized 0".to_string(), r#"{"ok": 1}"#.to_string()]);
    }

    #[test]
    fn junk_never_panics() {
        for junk in
            ["", "}", "]]]", "\"", "{\"traceEvents\": [", "{\"a\":}}}}", "\\\\\"{", "x{", "{\"traceEvents\":[}]}"]
        {
            let (_, _, s) = scan(junk, 1);
            let _ = s.complete();
        }
        let (_, _, s) = scan("<html>", 3);
        assert_eq!(s.bad_start, Some(b'<'));
    }
}
