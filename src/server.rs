//! Binding, serving and the shutdown path.
//!
//! Shutdown is explicit: when the `shutdown` future completes (SIGTERM or SIGINT in the binary),
//! readiness flips so `/readyz` answers 503, the listener stops accepting, and in-flight
//! requests run to completion. If they have not finished within the shutdown timeout the server
//! returns anyway, so an orchestrator's stop never hangs on a stuck client.

use std::future::Future;
use std::io;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::config::ServeConfig;
use crate::http::{self, AppState, Readiness};

/// Serves the API on `listener` until `shutdown` completes and the drain ends.
pub async fn serve(
    listener: TcpListener,
    config: &ServeConfig,
    readiness: Readiness,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let app = http::app(config, AppState::new(config, readiness.clone()));
    let (draining_tx, draining_rx) = oneshot::channel();
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        shutdown.await;
        readiness.begin_shutdown();
        tracing::info!("shutdown requested; finishing in-flight requests");
        let _ = draining_tx.send(());
    });
    let drain_timeout = config.shutdown_timeout();
    tokio::select! {
        biased;
        result = server => result,
        () = expire_drain(draining_rx, drain_timeout) => {
            tracing::warn!(timeout_ms = drain_timeout.as_millis() as u64, "requests still in flight after the shutdown timeout; exiting anyway");
            Ok(())
        }
    }
}

/// Completes `timeout` after draining starts; never, if it does not.
async fn expire_drain(draining: oneshot::Receiver<()>, timeout: Duration) {
    match draining.await {
        Ok(()) => tokio::time::sleep(timeout).await,
        // The server ended without draining (it failed); let its result win the select.
        Err(_) => std::future::pending().await,
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
