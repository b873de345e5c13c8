//! The Ludus service and its tools. The library exposes `app` (the router, testable without a
//! socket) and `run` (serve on a listener until a shutdown signal, as mini-redis's `run`);
//! `main.rs` only parses the command line, binds the listener and calls in here.

pub mod analysis;
pub mod api;
pub mod client;
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
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;
use std::path::Path;
use tower_http::trace::TraceLayer;

/// The whole application: the API, and the browser client from `static_dir`.
pub fn app(state: AppState, static_dir: &Path) -> Router {
    // Client routes (`/join/…`, `/game/…`, `/rules/…`, `/analysis`, …) all load the one page, which reads the path.
    let client = client::ClientFiles::load(static_dir)
        .router(
            static_dir,
            &[
                "/join",
                "/game",
                "/rules",
                "/analysis",
                "/verify",
                "/@",
                "/leaderboard",
                "/challenges",
                "/account",
                "/signin",
                "/signup",
            ],
        )
        .layer(axum::middleware::map_response(revalidated))
        .layer(axum::middleware::from_fn(api::refuse_unservable_paths));
    // Each request's log lines name its client, as the limits see it (behind a trusted proxy,
    // the address the proxy names).
    let connections = state.limits.connections.clone();
    let proxies = connections.clone();
    // The error shape is the API's: the client's pages (the not-found page is index.html with a
    // 404) stay pages.
    api::router(state)
        .layer(axum::middleware::from_fn(api::error_shape))
        .fallback_service(client)
        .layer(
            TraceLayer::new_for_http().make_span_with(move |request: &axum::http::Request<_>| {
                let id = request
                    .headers()
                    .get("x-request-id")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-")
                    .to_string();
                let client = connections.client(request.extensions(), request.headers());
                tracing::info_span!("request", method = %request.method(), path = %logged_path(request.uri().path()), client = %client, request_id = %id)
            }),
        )
        .layer(axum::middleware::map_response(with_security_headers))
        .layer(tower_http::request_id::PropagateRequestIdLayer::x_request_id())
        .layer(tower_http::request_id::SetRequestIdLayer::x_request_id(tower_http::request_id::MakeRequestUuid))
        // A request's id is the trusted proxy's, else made here: a client's own would be written
        // into the log as if a proxy had vouched for it.
        .layer(axum::middleware::from_fn(move |mut request: axum::extract::Request, next: axum::middleware::Next| {
            let trusted = proxies.from_trusted_proxy(request.extensions());
            if !trusted {
                request.headers_mut().remove("x-request-id");
            }
            next.run(request)
        }))
}

/// A request's path as the log shows it: an invite's code, which seats whoever holds it, is left
/// out (the page `/join/{invite}` and the API's `/api/v1/invites/{invite}/join`).
fn logged_path(path: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |prefix: &str, rest: &str| {
        let after = rest.find('/').map_or("", |slash| &rest[slash..]);
        format!("{prefix}…{after}").into()
    };
    if let Some(rest) = path.strip_prefix("/join/") {
        hidden("/join/", rest)
    } else if let Some(rest) = path.strip_prefix("/api/v1/invites/") {
        hidden("/api/v1/invites/", rest)
    } else {
        path.into()
    }
}

/// What every response says to the browser: no page of the site runs inside another site's frame
/// (a framed game page could be clicked into a resignation), no file is read as another type than
/// it is served as, and no address of the site (an invite's, a game's) leaves it in a `Referer`.
const SECURITY_HEADERS: [(HeaderName, HeaderValue); 4] = [
    (
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    ),
    (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    (
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ),
    (
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    ),
];

async fn with_security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name, value);
    }
    response
}

/// The client's files are used only once the server says they have not changed (an unchanged
/// one is a 304, by its date): served with a date alone, a browser may keep yesterday's scripts
/// for days after an upgrade, against the new server.
async fn revalidated(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

#[cfg(test)]
mod tests {
    use super::logged_path;

    #[test]
    fn an_invites_code_is_not_logged() {
        assert_eq!(
            logged_path("/api/v1/invites/Xy7secret/join"),
            "/api/v1/invites/…/join"
        );
        assert_eq!(logged_path("/join/Xy7secret"), "/join/…");
        assert_eq!(
            logged_path("/api/v1/games/g1/moves"),
            "/api/v1/games/g1/moves"
        );
    }
}
