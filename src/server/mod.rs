//! Serving connections, guarding them against slow, idle and careless clients, and the
//! shutdown path.
//!
//! Connections are served by our own accept loop over hyper rather than `axum::serve`, for the
//! guards it does not offer: at most `--max-connections` at once (past it, new connections wait
//! in the kernel's backlog instead of costing memory and tasks here); an idle timeout counted
//! from accept, whatever protocol the client speaks, which is also the header read timeout and
//! the keep-alive timeout (`connection.rs`); a send timeout for clients that stop reading, and a
//! lingering close so that an early answer (413, 408) reaches a client still sending its body
//! (`io.rs`).
//!
//! Shutdown is explicit, as in tokio's mini-redis: when the `shutdown` future completes
//! (SIGTERM or SIGINT in the binary), readiness flips so `/readyz` answers 503 `shutting-down`;
//! the server goes on serving everything else, new connections included, for
//! `--shutdown-delay-ms`, so load balancers polling `/readyz` stop sending traffic before it
//! leaves; then the listeners close, every connection is told to finish (idle keep-alives close
//! at once, HTTP/2 gets GOAWAY) and in-flight requests run to completion. Each connection task
//! holds a clone of one channel's sender, so the server knows the drain is over when the channel
//! closes; if it has not within `--shutdown-timeout-ms` the server returns anyway, so an
//! orchestrator's stop never hangs on a stuck client.

pub mod allocator;
mod connection;
mod io;
mod rejection;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, mpsc, watch};

use crate::config::ServeConfig;
use crate::http::{self, AppState, Readiness};

/// Serves the API on `listener` (and `/metrics` on `--metrics-addr` when set) until `shutdown`
/// completes and the drain ends.
pub async fn serve(
    listener: TcpListener,
    config: &ServeConfig,
    readiness: Readiness,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Before any request: metrics recorded while no recorder is installed are lost.
    crate::metrics::install();
    let app = http::app(config, AppState::new(config, readiness.clone()));
    let metrics_listener = match config.metrics_addr {
        Some(addr) => {
            let listener = TcpListener::bind(addr).await?;
            tracing::info!(addr = %listener.local_addr()?, "serving /metrics");
            Some(listener)
        }
        None => None,
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let (drained_tx, mut drained_rx) = mpsc::channel::<()>(1);
    let guards = Guards::new(config, stop_rx, drained_tx);
    let serving = accept_loop(listener, app, &guards);
    let serving_metrics = async {
        if let Some(listener) = metrics_listener {
            accept_loop(listener, http::metrics_app(config), &guards).await;
        }
    };
    let delay = config.shutdown_delay();
    let stopping = async {
        shutdown.await;
        readiness.begin_shutdown();
        tracing::info!(delay_ms = delay.as_millis() as u64, "shutdown requested; /readyz answers 503");
        tokio::time::sleep(delay).await;
        tracing::info!("no longer accepting connections; finishing in-flight requests");
        let _ = stop_tx.send(true);
    };
    tokio::join!(serving, serving_metrics, stopping);
    // Every connection task holds a sender; the last one to end closes the channel.
    drop(guards);
    let drain_timeout = config.shutdown_timeout();
    if tokio::time::timeout(drain_timeout, drained_rx.recv()).await.is_err() {
        tracing::warn!(
            timeout_ms = drain_timeout.as_millis() as u64,
            "requests still in flight after the shutdown timeout; exiting anyway"
        );
    }
    Ok(())
}

/// What every connection is served with.
struct Guards {
    connections: Arc<Semaphore>,
    builder: Arc<auto::Builder<TokioExecutor>>,
    idle_timeout: Duration,
    /// Turns true when the listeners close and connections must finish.
    stop: watch::Receiver<bool>,
    /// Cloned into every connection task, so its end is known (see the module documentation).
    drained: mpsc::Sender<()>,
}

impl Guards {
    fn new(config: &ServeConfig, stop: watch::Receiver<bool>, drained: mpsc::Sender<()>) -> Guards {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        // hyper's own header timeout is off: the connection's idle timeout (`connection.rs`)
        // covers a slow head, at the configured length (hyper's default of 30 s would cut a
        // longer one short), and hyper re-armed its timer for every request.
        builder.http1().timer(TokioTimer::new()).header_read_timeout(None).keep_alive(true);
        builder.http2().timer(TokioTimer::new());
        Guards {
            connections: Arc::new(Semaphore::new(config.max_connections.get())),
            builder: Arc::new(builder),
            idle_timeout: config.header_read_timeout(),
            stop,
            drained,
        }
    }
}

/// Accepts connections on `listener` and serves each on its own task until the guards' stop
/// turns true.
async fn accept_loop(listener: TcpListener, app: impl connection::App, guards: &Guards) {
    let mut stop = guards.stop.clone();
    let stopped = async move {
        // An error means the sender is gone, which also means stop.
        let _ = stop.wait_for(|&stop| stop).await;
    };
    tokio::pin!(stopped);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&guards.connections).acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut stopped => return,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors and the like: back off rather than spin.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stopped => return,
        };
        // Small responses go out at once rather than waiting for Nagle's timer.
        let _ = stream.set_nodelay(true);
        let (app, builder, stop, drained) =
            (app.clone(), Arc::clone(&guards.builder), guards.stop.clone(), guards.drained.clone());
        let idle_timeout = guards.idle_timeout;
        tokio::spawn(async move {
            // The permit and the drain sender are held while the connection lives.
            let _held = (permit, drained);
            connection::serve(stream, app, builder, idle_timeout, stop).await;
        });
    }
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM (what `docker stop` and Kubernetes send).
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("received SIGINT"),
        () = terminate => tracing::info!("received SIGTERM"),
    }
}
