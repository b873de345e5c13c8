//! The Ludus service and its tools. The library exposes `app` (the router, testable without a
//! socket) and `run` (serve on a listener until a shutdown signal, as mini-redis's `run`);
//! `main.rs` only parses the command line, binds the listener and calls in here.

pub mod analysis;
pub mod api;
pub mod config;
pub mod connections;
pub mod error;
pub mod game;
pub mod metrics;
pub mod players;
pub mod serve;
pub mod variants;

pub use serve::run;

use api::AppState;
use axum::Router;
use std::path::Path;
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
        .nest_service("/challenges", index.clone())
        .nest_service("/account", index.clone())
        .nest_service("/signin", index.clone())
        .nest_service("/signup", index.clone())
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
