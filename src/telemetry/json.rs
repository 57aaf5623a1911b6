//! JSON log lines, written straight into the line buffer.
//!
//! The lines have the shape of `tracing-subscriber`'s JSON format, which collectors already parse:
//! `{"timestamp","level","fields":{..},"target","span":{..,"name"}}`. Its formatter stores a span's
//! fields as JSON text and then parses that text back into a `serde_json::Value` for every line
//! that carries the span, and formats the time through `chrono`-style machinery; on the access log
//! line of a `GET /healthz` that was a fifth of the server's CPU time. Here a span's fields are
//! stored as a JSON fragment (`"method":"GET","path":"/"`) and copied as they are, and the
//! timestamp's date and second are formatted once per second.

use std::cell::RefCell;
use std::fmt::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::LookupSpan;

use super::context::RequestContext;
use super::{ACCESS_MESSAGE, ACCESS_TARGET};
use crate::decimal::Decimal;
use crate::puzzle_id::Date;

/// Formats an event as one JSON line, with its request's context (else its innermost span's
/// fields) under `span`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct JsonLines;

/// Writes a request's context as the `span` member lines had when it was a tracing span named
/// `request`, which log queries by `span.request_id` rely on.
fn write_request(out: &mut impl Write, request: &RequestContext) -> fmt::Result {
    out.write_str(",\"span\":{\"method\":")?;
    write_string(out, request.method.as_str())?;
    out.write_str(",\"path\":")?;
    write_string(out, request.path())?;
    out.write_str(",\"request_id\":")?;
    write_string(out, request.id())?;
    out.write_str(",\"name\":\"request\"}")
}

/// Formats fields as the members of a JSON object, without the braces, so a span's stored fields
/// can be copied into every line as they are.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct JsonFields;

impl<S> FormatEvent<S, JsonFields> for JsonLines
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, JsonFields>, mut out: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        // The line is built in a buffer of ours and handed over in one piece: written straight
        // into the `Writer`, each of its few dozen pieces was a call through `dyn fmt::Write`
        // (about half of the line's cost).
        with_line(|line| {
            write_line(line, ctx, event)?;
            out.write_str(line)
        })
    }
}

/// Runs `write` with an empty line buffer of this thread's (a fresh one for a line written while
/// another is: a field whose formatting logs a line of its own).
fn with_line<R>(write: impl FnOnce(&mut String) -> R) -> R {
    thread_local! {
        static LINE: RefCell<String> = const { RefCell::new(String::new()) };
    }
    LINE.with(|line| match line.try_borrow_mut() {
        Ok(mut line) => {
            line.clear();
            write(&mut line)
        }
        Err(_) => write(&mut String::new()),
    })
}

/// The access log line of a request answered with `status` after `latency_us`, as [`JsonLines`]
/// writes the front layer's event (a test holds the two to the same text), handed to `sink`.
/// Its fixed parts are written as they are, without tracing's dispatch, its field visitors
/// and the escaping of known text: 2,900 -> 1,100 instructions a line.
pub(super) fn with_access_line<R>(
    request: &RequestContext,
    status: u16,
    latency_us: u64,
    now: SystemTime,
    sink: impl FnOnce(&[u8]) -> R,
) -> R {
    with_line(|line| {
        line.push_str("{\"timestamp\":\"");
        let written = write_timestamp(line, now);
        line.push_str("\",\"level\":\"INFO\",\"fields\":{\"message\":\"");
        line.push_str(ACCESS_MESSAGE);
        line.push_str("\",\"status\":");
        write_integer(line, false, status.into()).and(written).expect("a String takes any text");
        line.push_str(",\"latency_us\":");
        write_integer(line, false, latency_us).expect("a String takes any text");
        line.push_str("},\"target\":\"");
        line.push_str(ACCESS_TARGET);
        line.push('"');
        write_request(line, request).expect("a String takes any text");
        line.push_str("}\n");
        sink(line.as_bytes())
    })
}

/// Writes `event` as one JSON line into `out`.
fn write_line<S>(out: &mut String, ctx: &FmtContext<'_, S, JsonFields>, event: &Event<'_>) -> fmt::Result
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    let metadata = event.metadata();
    out.push_str("{\"timestamp\":\"");
    write_timestamp(out, SystemTime::now())?;
    out.push_str("\",\"level\":\"");
    out.push_str(metadata.level().as_str());
    out.push_str("\",\"fields\":{");
    let mut fields = Members::new(&mut *out);
    event.record(&mut fields);
    fields.result?;
    out.push_str("},\"target\":");
    write_string(out, metadata.target())?;
    // The request's context, else the innermost span (spans of dependencies, of tests).
    if let Some(request) = RequestContext::current() {
        write_request(out, &request)?;
    } else if let Some(span) = ctx.event_scope().and_then(|mut scope| scope.next()) {
        out.push_str(",\"span\":{");
        let extensions = span.extensions();
        if let Some(stored) = extensions.get::<FormattedFields<JsonFields>>().filter(|stored| !stored.is_empty()) {
            out.push_str(stored);
            out.push(',');
        }
        out.push_str("\"name\":");
        write_string(out, span.name())?;
        out.push('}');
    }
    out.push_str("}\n");
    Ok(())
}

impl<'writer> FormatFields<'writer> for JsonFields {
    fn format_fields<R: RecordFields>(&self, mut out: Writer<'writer>, fields: R) -> fmt::Result {
        let mut members = Members::new(&mut out);
        fields.record(&mut members);
        members.result
    }

    /// Fields recorded on a span after it was created continue its member list.
    fn add_fields(
        &self,
        current: &'writer mut FormattedFields<Self>,
        fields: &tracing::span::Record<'_>,
    ) -> fmt::Result {
        let first = current.fields.is_empty();
        let mut out = current.as_writer();
        let mut members = Members { out: &mut out, first, result: Ok(()) };
        fields.record(&mut members);
        members.result
    }
}

/// Writes each field it visits as a JSON member, `"name":value`.
struct Members<'a, W> {
    out: &'a mut W,
    first: bool,
    result: fmt::Result,
}

impl<'a, W: Write> Members<'a, W> {
    fn new(out: &'a mut W) -> Self {
        Members { out, first: true, result: Ok(()) }
    }

    fn member(&mut self, field: &Field, value: impl FnOnce(&mut W) -> fmt::Result) {
        if self.result.is_err() {
            return;
        }
        let separator = if std::mem::take(&mut self.first) { "" } else { "," };
        self.result = self
            .out
            .write_str(separator)
            .and_then(|()| write_string(self.out, field.name()))
            .and_then(|()| self.out.write_char(':'))
            .and_then(|()| value(self.out));
    }
}

impl<W: Write> Visit for Members<'_, W> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.member(field, |out| write_string(out, value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.member(field, |out| write_integer(out, false, value));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.member(field, |out| write_integer(out, value < 0, value.unsigned_abs()));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.member(field, |out| write!(out, "{value}"));
    }

    /// JSON has no NaN or infinity; those are written as strings.
    fn record_f64(&mut self, field: &Field, value: f64) {
        if value.is_finite() {
            self.member(field, |out| write!(out, "{value}"));
        } else {
            self.member(field, |out| write!(out, "\"{value}\""));
        }
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.member(field, |out| write_display(out, value));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.member(field, |out| {
            out.write_char('"')?;
            write!(Escaped(out), "{value:?}")?;
            out.write_char('"')
        });
    }
}

/// Writes an integer in decimal, without `core::fmt`'s padding machinery (every access line has
/// two).
fn write_integer(out: &mut impl Write, negative: bool, magnitude: u64) -> fmt::Result {
    out.write_str(Decimal::new(negative, magnitude).as_str())
}

fn write_display(out: &mut impl Write, value: &dyn fmt::Display) -> fmt::Result {
    out.write_char('"')?;
    write!(Escaped(out), "{value}")?;
    out.write_char('"')
}

fn write_string(out: &mut impl Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    Escaped(out).write_str(text)?;
    out.write_char('"')
}

/// Escapes what it is given for the inside of a JSON string (RFC 8259 section 7).
struct Escaped<'a, W>(&'a mut W);

impl<W: Write> Write for Escaped<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        // Most text needs no escape: one check over all of it, then one copy.
        if !needs_escape(text.as_bytes()) {
            return self.0.write_str(text);
        }
        let mut plain_from = 0;
        for (at, byte) in text.bytes().enumerate() {
            let escape = match byte {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..0x20 | 0x7f => "",
                _ => continue,
            };
            self.0.write_str(&text[plain_from..at])?;
            if escape.is_empty() {
                write!(self.0, "\\u{byte:04x}")?;
            } else {
                self.0.write_str(escape)?;
            }
            plain_from = at + 1;
        }
        self.0.write_str(&text[plain_from..])
    }
}

/// Whether `bytes` holds a byte a JSON string must escape: a control character, `"`, `\\` or DEL.
/// Eight bytes at a time (a line's few hundred bytes were checked a byte and four comparisons at
/// a time: about a tenth of an access line's cost).
fn needs_escape(bytes: &[u8]) -> bool {
    let word_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    if bytes.len() < 8 {
        // Byte by byte into a word of spaces, rather than a call to copy them.
        let word = bytes.iter().rev().fold(u64::from_le_bytes([b' '; 8]), |word, &byte| (word << 8) | u64::from(byte));
        return word_needs_escape(word);
    }
    // Whole words, then the last eight bytes (overlapping the last word read).
    (0..bytes.len() / 8).any(|word| word_needs_escape(word_at(8 * word))) || word_needs_escape(word_at(bytes.len() - 8))
}

/// [`needs_escape`] for the eight bytes of `word`.
fn word_needs_escape(word: u64) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // Some byte is below `n` (n <= 0x80): the borrow of its subtraction sets its high bit, and a
    // byte whose own high bit is set is masked off (the classic test, exact for "any byte").
    let any_below = |word: u64, n: u64| word.wrapping_sub(n * ONES) & !word & HIGHS != 0;
    let any_zero = |word: u64| any_below(word, 1);
    any_below(word, 0x20)
        || any_zero(word ^ (u64::from(b'"') * ONES))
        || any_zero(word ^ (u64::from(b'\\') * ONES))
        || any_zero(word ^ (0x7f * ONES))
}

/// Writes `time` in RFC 3339, UTC, to the microsecond: `2026-12-01T02:20:58.461896Z`.
pub(super) fn write_timestamp(out: &mut impl Write, time: SystemTime) -> fmt::Result {
    /// The last second formatted on this thread, and its text up to the seconds.
    struct Second {
        unix: u64,
        text: String,
    }
    thread_local! {
        static LAST: RefCell<Second> = const { RefCell::new(Second { unix: u64::MAX, text: String::new() }) };
    }
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let unix = since_epoch.as_secs();
    LAST.with_borrow_mut(|last| {
        if last.unix != unix {
            last.unix = unix;
            last.text.clear();
            let date = Date::from_days((unix / 86_400) as i64);
            let seconds_of_day = unix % 86_400;
            let (hour, minute, second) = (seconds_of_day / 3600, seconds_of_day / 60 % 60, seconds_of_day % 60);
            write!(last.text, "{date}T{hour:02}:{minute:02}:{second:02}")?;
        }
        out.write_str(&last.text)
    })?;
    let mut fraction = *b".000000Z";
    let mut micros = since_epoch.subsec_micros();
    for digit in fraction[1..7].iter_mut().rev() {
        *digit = b'0' + (micros % 10) as u8;
        micros /= 10;
    }
    out.write_str(std::str::from_utf8(&fraction).expect("ASCII digits"))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::{Value, json};

    use super::*;
    use crate::telemetry::Captured;

    /// What `log` logs, as JSON lines.
    fn text_of(log: impl FnOnce()) -> String {
        let captured = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(captured.clone())
            .fmt_fields(JsonFields)
            .event_format(JsonLines)
            .finish();
        tracing::subscriber::with_default(subscriber, log);
        captured.text()
    }

    fn lines_of(log: impl FnOnce()) -> Vec<Value> {
        text_of(log).lines().map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))).collect()
    }

    #[test]
    fn a_line_has_the_members_collectors_expect_and_escapes_what_it_must() {
        let lines = lines_of(|| {
            let span = tracing::info_span!("request", method = "GET", path = "/a\"b", request_id = "id-1");
            let _entered = span.enter();
            let error = std::io::Error::other("bad\nthing");
            tracing::warn!(count = 3u64, delta = -2i64, ok = true, ratio = 0.5, nan = f64::NAN, %error, debug = ?"q\"", "hello\t\u{1}");
        });
        assert_eq!(lines.len(), 1);
        let line = &lines[0];
        assert_eq!(line["level"], "WARN");
        assert_eq!(line["target"], module_path!());
        assert_eq!(
            line["fields"],
            json!({"message": "hello\t\u{1}", "count": 3, "delta": -2, "ok": true, "ratio": 0.5, "nan": "NaN",
                   "error": "bad\nthing", "debug": "\"q\\\"\""})
        );
        assert_eq!(line["span"], json!({"method": "GET", "path": "/a\"b", "request_id": "id-1", "name": "request"}));
        let timestamp = line["timestamp"].as_str().unwrap();
        assert_eq!((timestamp.len(), &timestamp[10..11], &timestamp[26..]), (27, "T", "Z"));
    }

    #[test]
    fn fields_recorded_later_join_the_span_and_a_line_outside_a_span_has_none() {
        let lines = lines_of(|| {
            let span = tracing::info_span!("job", work = "solve", outcome = tracing::field::Empty);
            span.record("outcome", "done");
            span.in_scope(|| tracing::info!("inside"));
            tracing::info!("outside");
        });
        assert_eq!(lines[0]["span"], json!({"work": "solve", "outcome": "done", "name": "job"}));
        assert!(lines[1].get("span").is_none());
    }

    /// The access line written straight is the line of the same event through tracing, byte
    /// for byte but the time.
    #[test]
    fn the_access_line_is_the_line_its_event_would_be() {
        let request = std::sync::Arc::new(RequestContext {
            method: axum::http::Method::POST,
            uri: axum::http::Uri::from_static("/v1/solve?x=1"),
            request_id: axum::http::HeaderValue::from_static("id-\"\\-1"),
            received: std::time::Instant::now(),
        });
        let without_time = |line: &str| {
            let time_end = line.find("\",\"level\"").unwrap();
            (line[..14].to_owned(), line[time_end..].to_owned())
        };
        for (status, latency_us) in [(200, 0), (404, 7), (503, u64::MAX)] {
            let through_tracing = text_of(|| {
                RequestContext::scope(&request, || {
                    tracing::info!(target: ACCESS_TARGET, message = ACCESS_MESSAGE, status, latency_us);
                })
            });
            let straight = with_access_line(&request, status, latency_us, SystemTime::now(), |line| {
                String::from_utf8(line.to_vec()).unwrap()
            });
            assert_eq!(without_time(&straight), without_time(&through_tracing));
            assert!(!needs_escape(ACCESS_MESSAGE.as_bytes()) && !needs_escape(ACCESS_TARGET.as_bytes()));
        }
    }

    /// The word-at-a-time check against a byte-at-a-time one: every byte value at every position
    /// of texts of every length up to three words, among plain bytes and bytes with the high bit.
    #[test]
    fn needs_escape_finds_exactly_the_bytes_json_escapes() {
        let escaped = |byte: u8| byte < 0x20 || byte == b'"' || byte == b'\\' || byte == 0x7f;
        for len in 1..=24 {
            for at in 0..len {
                for byte in 0..=255u8 {
                    for filler in [b'a', 0xc3, 0x80, 0xff, b'!'] {
                        let mut text = vec![filler; len];
                        text[at] = byte;
                        assert_eq!(needs_escape(&text), escaped(byte) || escaped(filler), "{text:?}");
                    }
                }
            }
        }
        assert!(!needs_escape(b""));
    }

    #[test]
    fn timestamps_are_rfc_3339_utc_to_the_microsecond() {
        let mut text = String::new();
        write_timestamp(&mut text, UNIX_EPOCH + Duration::new(1_764_555_658, 461_896_123)).unwrap();
        assert_eq!(text, "2025-12-01T02:20:58.461896Z");
        text.clear();
        write_timestamp(&mut text, UNIX_EPOCH + Duration::new(951_782_400, 0)).unwrap();
        assert_eq!(text, "2000-02-29T00:00:00.000000Z");
    }
}
