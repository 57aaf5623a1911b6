//! Service configuration: every knob is a flag with an environment variable, so the same binary
//! is configured the same way on a laptop (`--flag`) and in a container (`SUDOKUD_*`).

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::time::Duration;

use clap::{Args, ValueEnum};

/// How the server writes its logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line, for log collectors.
    Json,
    /// Human-readable, coloured lines for a terminal.
    Pretty,
}

/// Options of `sudokud serve`.
#[derive(Clone, Debug, Args)]
pub struct ServeConfig {
    /// Address and port to listen on.
    #[arg(long, env = "SUDOKUD_ADDR", default_value = "0.0.0.0:8080")]
    pub addr: SocketAddr,

    /// Longest a solve may take, from the moment its request is admitted (waiting for a solver
    /// slot counts). Past it the answer is a 503 `solve-timeout` problem and the solver stops.
    #[arg(long, env = "SUDOKUD_SOLVE_TIMEOUT_MS", default_value_t = 1000, value_name = "MS")]
    pub solve_timeout_ms: u64,

    /// Longest making one puzzle may take (`/v1/generate`, a line of `/v1/generate/batch`, a
    /// booklet's puzzle or page, the puzzle of the day or of an id), from the moment its request is
    /// admitted as for a solve; past it a 503 `solve-timeout` problem. Longer than the solve
    /// timeout: a 25x25 expert puzzle takes about half a second of a core to make, and a puzzle
    /// a level offers should be made on a busy machine too.
    #[arg(long, env = "SUDOKUD_GENERATE_TIMEOUT_MS", default_value_t = 3000, value_name = "MS")]
    pub generate_timeout_ms: u64,

    /// Longest a whole request may take, body upload included; past it the answer is a 408
    /// `request-timeout` problem.
    #[arg(long, env = "SUDOKUD_REQUEST_TIMEOUT_MS", default_value_t = 5000, value_name = "MS")]
    pub request_timeout_ms: u64,

    /// Longest a batch (`/v1/solve/batch`, `/v1/generate/batch`, `/v1/booklet`) goes on starting
    /// work, from when its request came: each item not started by then is answered with a
    /// `request-timeout` problem (a line of its own in a stream), so no request holds the solvers
    /// for longer, however many items it asks for.
    #[arg(long, env = "SUDOKUD_BATCH_TIMEOUT_MS", default_value_t = 60_000, value_name = "MS")]
    pub batch_timeout_ms: u64,

    /// Solves that may run at once on the blocking pool [default: the number of CPUs].
    #[arg(long, env = "SUDOKUD_MAX_CONCURRENT_SOLVES", value_name = "N")]
    pub max_concurrent_solves: Option<NonZeroUsize>,

    /// Solves that may wait for a slot; one more is refused at once with 503 `overloaded`.
    #[arg(long, env = "SUDOKUD_MAX_QUEUED_SOLVES", default_value_t = 64, value_name = "N")]
    pub max_queued_solves: usize,

    /// Longest a solve may wait for a slot before it is refused with 503 `overloaded`.
    #[arg(long, env = "SUDOKUD_QUEUE_TIMEOUT_MS", default_value_t = 100, value_name = "MS")]
    pub queue_timeout_ms: u64,

    /// Largest request body accepted; a larger one gets 413 `payload-too-large`. A board in any
    /// representation fits in well under 1 KiB (a 25x25 one under 3 KiB); a variant's
    /// constraints take more (a 25x25 killer's cages about 10 KiB).
    #[arg(long, env = "SUDOKUD_BODY_LIMIT_BYTES", default_value_t = 16384, value_name = "BYTES")]
    pub body_limit_bytes: usize,

    /// Highest `limit` a `/v1/count` request may ask for; a higher one is lowered to this. At
    /// about half a microsecond per solution, the default bounds a count to tens of milliseconds.
    #[arg(long, env = "SUDOKUD_MAX_COUNT_LIMIT", default_value = "100000", value_name = "N")]
    pub max_count_limit: NonZeroUsize,

    /// Most boards in one JSON `/v1/solve/batch` request; its body may be this many times
    /// `--body-limit-bytes`. NDJSON batches stream and have no count limit.
    #[arg(long, env = "SUDOKUD_MAX_BATCH_BOARDS", default_value = "1000", value_name = "N")]
    pub max_batch_boards: NonZeroUsize,

    /// Serve `GET /metrics` on this address instead of the API's, e.g. to keep it off a public
    /// port. Unset: `/metrics` is served with the API.
    #[arg(long, env = "SUDOKUD_METRICS_ADDR", value_name = "ADDR")]
    pub metrics_addr: Option<SocketAddr>,

    /// A connection with no request in flight is closed after this long, whatever protocol it
    /// speaks: a client must send a request's complete head within this long of connecting or
    /// of its previous answer, an idle keep-alive (HTTP/1.1 or HTTP/2) lasts this long, and a
    /// client that stops reading its answer for this long is cut off.
    #[arg(long, env = "SUDOKUD_HEADER_READ_TIMEOUT_MS", default_value_t = 10_000, value_name = "MS")]
    pub header_read_timeout_ms: u64,

    /// Connections served at once; more wait in the kernel's accept queue until one closes.
    #[arg(long, env = "SUDOKUD_MAX_CONNECTIONS", default_value = "4096", value_name = "N")]
    pub max_connections: NonZeroUsize,

    /// Origins allowed to call the API from a browser (CORS), comma-separated; `*` allows any.
    /// Empty: no cross-origin access.
    #[arg(long, env = "SUDOKUD_CORS_ORIGINS", value_delimiter = ',', value_name = "ORIGINS", value_parser = parse_origin)]
    pub cors_origins: Vec<String>,

    /// After SIGTERM or SIGINT, how long the server goes on serving as usual while `/readyz`
    /// answers 503, so load balancers that poll it stop sending traffic first. Then it stops
    /// accepting connections and drains.
    #[arg(long, env = "SUDOKUD_SHUTDOWN_DELAY_MS", default_value_t = 0, value_name = "MS")]
    pub shutdown_delay_ms: u64,

    /// After the shutdown delay, how long in-flight requests may take to finish before the
    /// process exits anyway.
    #[arg(long, env = "SUDOKUD_SHUTDOWN_TIMEOUT_MS", default_value_t = 5000, value_name = "MS")]
    pub shutdown_timeout_ms: u64,

    /// Log format [default: json when stdout is not a terminal, pretty when it is]. The level
    /// filter comes from RUST_LOG (default: info).
    #[arg(long, env = "SUDOKUD_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
}

impl ServeConfig {
    /// `--solve-timeout-ms`: each solve's deadline, counted from its admission to the pool.
    pub fn solve_timeout(&self) -> Duration {
        Duration::from_millis(self.solve_timeout_ms)
    }

    /// `--generate-timeout-ms`: making one puzzle's deadline, counted as a solve's.
    pub fn generate_timeout(&self) -> Duration {
        Duration::from_millis(self.generate_timeout_ms)
    }

    /// `--request-timeout-ms`: how long a whole request may take.
    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }

    /// `--batch-timeout-ms`: how long a batch goes on starting work after its request came.
    pub fn batch_timeout(&self) -> Duration {
        Duration::from_millis(self.batch_timeout_ms)
    }

    /// `--header-read-timeout-ms`: how long a connection may have no request in flight.
    pub fn header_read_timeout(&self) -> Duration {
        Duration::from_millis(self.header_read_timeout_ms)
    }

    /// `--queue-timeout-ms`: how long an admitted job may wait for a solver slot.
    pub fn queue_timeout(&self) -> Duration {
        Duration::from_millis(self.queue_timeout_ms)
    }

    /// `--shutdown-delay-ms`: how long the server serves on, not ready, after a signal.
    pub fn shutdown_delay(&self) -> Duration {
        Duration::from_millis(self.shutdown_delay_ms)
    }

    /// `--shutdown-timeout-ms`: how long in-flight requests may take to finish at shutdown.
    pub fn shutdown_timeout(&self) -> Duration {
        Duration::from_millis(self.shutdown_timeout_ms)
    }

    /// The configured number of solver slots, or one per CPU.
    pub fn solver_slots(&self) -> usize {
        self.max_concurrent_solves.map_or_else(available_cpus, NonZeroUsize::get)
    }
}

impl Default for ServeConfig {
    /// The defaults of the command line, ignoring the environment.
    fn default() -> ServeConfig {
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            config: ServeConfig,
        }
        // Parsing an empty argument list would still read SUDOKUD_* variables, so the command is
        // stripped of them first and only the flag defaults remain.
        let command = <Defaults as clap::CommandFactory>::command().mut_args(|arg| arg.env(None::<&str>));
        let matches = command.get_matches_from(["sudokud"]);
        <Defaults as clap::FromArgMatches>::from_arg_matches(&matches).expect("defaults are valid").config
    }
}

/// Accepts `*` or an `http(s)://host[:port]` origin that can be sent as a header value.
fn parse_origin(origin: &str) -> Result<String, String> {
    let origin = origin.trim();
    let well_formed = origin == "*"
        || ((origin.starts_with("http://") || origin.starts_with("https://"))
            && !origin.trim_end_matches('/').contains(|c: char| c.is_whitespace() || c.is_control()));
    if well_formed {
        Ok(origin.trim_end_matches('/').to_owned())
    } else {
        Err(format!("{origin:?} is not an origin like https://example.com or *"))
    }
}

/// The number of CPUs this process may use (cgroup limits included), at least 1.
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_documentation() {
        let config = ServeConfig::default();
        assert_eq!(config.addr, "0.0.0.0:8080".parse().unwrap());
        assert_eq!(config.solve_timeout(), Duration::from_secs(1));
        assert_eq!(config.body_limit_bytes, 16384);
        assert_eq!(config.max_count_limit.get(), 100_000);
        assert_eq!(config.max_batch_boards.get(), 1000);
        assert_eq!(config.solver_slots(), available_cpus());
        assert!(config.cors_origins.is_empty());
        assert_eq!(config.log_format, None);
    }

    #[test]
    fn origins_must_be_origins() {
        assert_eq!(parse_origin("https://example.com/"), Ok("https://example.com".to_owned()));
        assert_eq!(parse_origin("*"), Ok("*".to_owned()));
        assert!(parse_origin("example.com").is_err());
        assert!(parse_origin("https://a b").is_err());
    }
}
