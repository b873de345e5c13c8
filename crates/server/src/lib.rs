//! The Ludus service and its tools. The library exposes `app` (the router, testable without a
//! socket) and `run` (serve on a listener until a shutdown signal); `main.rs` only parses the
//! command line and calls in here.

pub mod analysis;
pub mod api;
pub mod config;
pub mod error;
pub mod game;
pub mod metrics;
pub mod players;
pub mod serve;
pub mod variants;

use api::AppState;
use axum::Router;
use axum::serve::ListenerExt;
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use tokio::net::TcpListener;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

/// The whole application: the API, and the browser client from `static_dir`.
pub fn app(state: AppState, static_dir: &Path) -> Router {
    let index = ServeFile::new(static_dir.join("index.html"));
    // Client routes (`/join/…`, `/game/…`, `/rules/…`, `/analysis`) all load the one page, which reads the path.
    let client = Router::new()
        .nest_service("/join", index.clone())
        .nest_service("/game", index.clone())
        .nest_service("/rules", index.clone())
        .nest_service("/analysis", index.clone())
        .nest_service("/@", index.clone())
        .nest_service("/leaderboard", index.clone())
        .nest_service("/account", index.clone())
        .nest_service("/signin", index.clone())
        .nest_service("/signup", index.clone())
        .fallback_service(ServeDir::new(static_dir).not_found_service(index));
    api::router(state)
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
    // Without TCP_NODELAY, Nagle's algorithm holds a small message (an event after an ack)
    // until the previous one is acknowledged: milliseconds added to every move.
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::warn!(%error, "could not set TCP_NODELAY");
        }
    });
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(signal)
    .await?;
    registry.shutdown().await;
    registry.store().close().await;
    Ok(())
}
