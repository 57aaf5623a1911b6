//! Log lines for a person at a terminal, in the shape of `tracing-subscriber`'s default format
//! (time, level, spans, target, message and fields), with the request's context shown as the
//! `request{..}` span it replaces.

use std::fmt;
use std::time::SystemTime;

use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::LookupSpan;

use super::context::RequestContext;
use super::json::write_timestamp;

/// Formats an event as one line of text, coloured when the writer takes ANSI escapes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PrettyLines;

impl<S, N> FormatEvent<S, N> for PrettyLines
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
    N: for<'writer> FormatFields<'writer> + 'static,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, N>, mut out: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        let metadata = event.metadata();
        let ansi = out.has_ansi_escapes();
        let (dim, reset) = if ansi { ("\x1b[2m", "\x1b[0m") } else { ("", "") };
        out.write_str(dim)?;
        write_timestamp(&mut out, SystemTime::now())?;
        out.write_str(reset)?;
        let colour = match *metadata.level() {
            Level::ERROR => "\x1b[31m",
            Level::WARN => "\x1b[33m",
            Level::INFO => "\x1b[32m",
            Level::DEBUG => "\x1b[34m",
            Level::TRACE => "\x1b[35m",
        };
        let (colour, reset) = if ansi { (colour, reset) } else { ("", "") };
        write!(out, " {colour}{:>5}{reset} ", metadata.level())?;
        if let Some(request) = RequestContext::current() {
            write!(out, "request{{method={} path={} request_id={}}}: ", request.method, request.path(), request.id())?;
        }
        for span in ctx.event_scope().into_iter().flat_map(|scope| scope.from_root()) {
            out.write_str(span.name())?;
            let extensions = span.extensions();
            if let Some(fields) = extensions.get::<FormattedFields<N>>().filter(|fields| !fields.is_empty()) {
                write!(out, "{{{fields}}}")?;
            }
            out.write_str(": ")?;
        }
        write!(out, "{dim}{}:{reset} ", metadata.target())?;
        ctx.format_fields(out.by_ref(), event)?;
        writeln!(out)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::http::{HeaderValue, Method, Uri};

    use super::*;
    use crate::telemetry::Captured;

    #[test]
    fn a_line_shows_the_request_spans_target_message_and_fields() {
        let captured = Captured::default();
        let subscriber =
            tracing_subscriber::fmt().with_writer(captured.clone()).with_ansi(false).event_format(PrettyLines).finish();
        let request = Arc::new(RequestContext {
            method: Method::POST,
            uri: Uri::from_static("/v1/solve?x=1"),
            request_id: HeaderValue::from_static("id-7"),
            received: std::time::Instant::now(),
        });
        tracing::subscriber::with_default(subscriber, || {
            RequestContext::scope(&request, || {
                let span = tracing::info_span!("job", work = "solve");
                span.in_scope(|| tracing::warn!(count = 3u64, "slow"));
            });
            tracing::info!("outside");
        });
        let text = captured.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(
            &lines[0][27..],
            "  WARN request{method=POST path=/v1/solve request_id=id-7}: job{work=\"solve\"}: \
             sudokud::telemetry::pretty::tests: slow count=3"
        );
        assert_eq!(&lines[1][27..], "  INFO sudokud::telemetry::pretty::tests: outside");
        assert_eq!(&lines[0][10..11], "T");
    }
}
