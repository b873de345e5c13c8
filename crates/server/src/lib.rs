//! The Ludus service and its tools. The library exposes `app` (the router, testable without a
//! socket) and `run` (serve on a listener until a shutdown signal); `main.rs` only parses the
//! command line and calls in here.

pub mod analysis;
pub mod api;
pub mod config;
pub mod connections;
pub mod error;
pub mod game;
pub mod metrics;
pub mod serve;
pub mod variants;

use api::AppState;
use axum::Router;
use std::future::Future;
use std::path::Path;
use tokio::net::TcpListener;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

/// The whole application: the API, and the browser client from `static_dir`.
pub fn app(state: AppState, static_dir: &Path) -> Router {
    let index = ServeFile::new(static_dir.join("index.html"));
    // Client routes (`/join/…`, `/game/…`, `/rules/…`) all load the one page, which reads the path.
    let client = Router::new()
        .nest_service("/join", index.clone())
        .nest_service("/game", index.clone())
        .nest_service("/rules", index.clone())
        .fallback_service(ServeDir::new(static_dir).not_found_service(index))
        .layer(axum::middleware::from_fn(api::refuse_unservable_paths));
    // The error shape is the API's: the client's pages (the not-found page is index.html with a
    // 404) stay pages.
    api::router(state)
        .layer(axum::middleware::from_fn(api::error_shape))
        .fallback_service(client)
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &axum::http::Request<_>| {
                let id = request
                    .headers()
                    .get("x-request-id")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-")
                    .to_string();
                tracing::info_span!("request", method = %request.method(), path = %request.uri().path(), request_id = %id)
            }),
        )
        .layer(tower_http::request_id::PropagateRequestIdLayer::x_request_id())
        .layer(tower_http::request_id::SetRequestIdLayer::x_request_id(tower_http::request_id::MakeRequestUuid))
}

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting, closes the sockets
/// with a reason, lets the game actors finish the commands they hold, and closes the store.
pub async fn run(
    listener: TcpListener,
    app: Router,
    state: AppState,
    shutdown_sender: tokio::sync::watch::Sender<bool>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let registry = state.registry.clone();
    let signal = async move {
        shutdown.await;
        tracing::info!("shutting down: closing sockets and finishing commands in flight");
        let _ = shutdown_sender.send(true);
    };
    connections::serve(listener, app, state.limits.connections.clone(), signal).await;
    // WebSockets close themselves on the signal. Stop the games only once they have (or after a
    // bound), so that a socket's last word is "server shutting down", not its game going away.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while state
        .metrics
        .sockets
        .load(std::sync::atomic::Ordering::Relaxed)
        > 0
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    registry.shutdown().await;
    registry.store().close().await;
    Ok(())
}
