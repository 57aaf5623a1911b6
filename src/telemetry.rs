//! Logging set-up for the server: JSON lines for collectors, pretty lines for people.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global subscriber. The level filter comes from `RUST_LOG` (default `info`).
/// Without an explicit format, JSON is used unless stdout is a terminal.
pub fn init(format: Option<LogFormat>) {
    let format = format.unwrap_or(if std::io::stdout().is_terminal() { LogFormat::Pretty } else { LogFormat::Json });
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        // Span fields (method, path, request_id) go on every line of a request, flattened, so a
        // log query by request id finds all of them.
        LogFormat::Json => builder.json().with_current_span(true).with_span_list(false).init(),
        LogFormat::Pretty => builder.init(),
    }
}
