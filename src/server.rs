//! Serving connections, guarding them against slow and idle clients, and the shutdown path.
//!
//! Connections are served by our own accept loop over hyper rather than `axum::serve`, for
//! three guards it does not offer: at most `--max-connections` at once (past it, new
//! connections wait in the kernel's backlog instead of costing memory and tasks here), a
//! header read timeout (a client must send a request's complete head within
//! `--header-read-timeout-ms`, so a slowloris cannot hold a connection open byte by byte), and,
//! by the same timer, an idle timeout for keep-alive connections (hyper starts it when it waits
//! for the next request).
//!
//! Shutdown is explicit: when the `shutdown` future completes (SIGTERM or SIGINT in the binary),
//! readiness flips so `/readyz` answers 503, the listeners stop accepting, and in-flight
//! requests run to completion. If they have not finished within the shutdown timeout the server
//! returns anyway, so an orchestrator's stop never hangs on a stuck client.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::config::ServeConfig;
use crate::http::{self, AppState, Readiness};

/// Serves the API on `listener` (and `/metrics` on `--metrics-addr` when set) until `shutdown`
/// completes and the drain ends.
pub async fn serve(
    listener: TcpListener,
    config: &ServeConfig,
    readiness: Readiness,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
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
    let upkeep = tokio::spawn(metrics_upkeep(stop_rx.clone()));
    let guards = Guards::new(config);
    let graceful = GracefulShutdown::new();
    let serving = accept_loop(listener, app, &guards, &graceful, stop_rx.clone());
    let serving_metrics = async {
        if let Some(listener) = metrics_listener {
            accept_loop(listener, http::metrics_app(config), &guards, &graceful, stop_rx).await;
        }
    };
    let stopping = async {
        shutdown.await;
        readiness.begin_shutdown();
        tracing::info!("shutdown requested; finishing in-flight requests");
        let _ = stop_tx.send(true);
    };
    tokio::join!(serving, serving_metrics, stopping);
    upkeep.abort();
    let drain_timeout = config.shutdown_timeout();
    if tokio::time::timeout(drain_timeout, graceful.shutdown()).await.is_err() {
        tracing::warn!(
            timeout_ms = drain_timeout.as_millis() as u64,
            "requests still in flight after the shutdown timeout; exiting anyway"
        );
    }
    Ok(())
}

/// What every connection is served with: the connection limit and hyper's configuration.
struct Guards {
    connections: Arc<Semaphore>,
    builder: auto::Builder<TokioExecutor>,
}

impl Guards {
    fn new(config: &ServeConfig) -> Guards {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder.http1().timer(TokioTimer::new()).header_read_timeout(config.header_read_timeout()).keep_alive(true);
        builder.http2().timer(TokioTimer::new());
        Guards { connections: Arc::new(Semaphore::new(config.max_connections.get())), builder }
    }
}

/// Accepts connections on `listener` and serves each on its own task until `stop` turns true;
/// each connection is registered with `graceful` so shutdown can drain it.
async fn accept_loop(
    listener: TcpListener,
    app: Router,
    guards: &Guards,
    graceful: &GracefulShutdown,
    mut stop: watch::Receiver<bool>,
) {
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
        let connection = guards
            .builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(app.clone()))
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // The permit is held while the connection lives.
            let _permit = permit;
            if let Err(error) = connection.await {
                tracing::debug!(error = %error, "connection ended with an error");
            }
        });
    }
}

/// Runs the metrics recorder's upkeep every few seconds until `stop` turns true.
async fn metrics_upkeep(mut stop: watch::Receiver<bool>) {
    let mut every = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            _ = every.tick() => crate::metrics::upkeep(),
            _ = stop.wait_for(|&stop| stop) => return,
        }
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
