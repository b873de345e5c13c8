//! The HTTP and WebSocket API of docs/API.md: routes, the extractors that turn requests into typed
//! values (refusing bad input with the one error shape), and the application state they share.

mod accounts;
pub(crate) mod address;
mod challenges;
pub mod docs;
mod games;
pub mod limits;
mod operations;
mod players;
mod socket;

/// The header trusted proxies name the client in (`--forwarded-header`).
pub use address::ForwardingHeader;
/// A socket's buffer sizes (the load test's bare relay uses the same).
pub use socket::{BUFFER_BYTES, READ_BUFFER_BYTES};

use crate::connections::ConnectionLimits;
use crate::error::ApiError;
use crate::game::GameId;
use crate::game::registry::Registry;
use crate::game::token::SeatToken;
use crate::metrics::Metrics;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use limits::{AddressLimiter, Limiter, Rate};
use ludus_store::SecretHash;
use serde::de::DeserializeOwned;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::watch;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The largest request body accepted (413 beyond it).
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Limits of the API a deployment may change.
#[derive(Clone, Debug)]
pub struct ApiLimits {
    pub create_per_minute: u32,
    pub join_per_minute: u32,
    /// Hints a seat may ask for per minute (an address, three times that).
    pub hints_per_minute: u32,
    /// WebSocket messages per second per connection (twice that as a burst).
    pub socket_messages_per_second: u32,
    pub max_socket_message: usize,
    /// A socket that sends nothing (not even a pong) for this long is closed: found at the ping
    /// after it (every 20 s), so a link that died without a word is closed within 40 s. The
    /// browser pings every 10 s, and every client's library answers the server's pings.
    pub socket_idle: std::time::Duration,
    /// A socket whose hello promised a heartbeat and that sends no message for this long (pongs
    /// do not count) no longer keeps its player present, until it speaks again: the page stopped
    /// (`--socket-heartbeat-secs`). The browser pings every 10 s, once a minute at worst in a tab
    /// long hidden.
    pub socket_heartbeat: std::time::Duration,
    /// Slow clients, connections per address, and the proxies whose forwarding headers name the
    /// client (for every per-address limit).
    pub connections: ConnectionLimits,
    /// Sign-ups and sign-ins one address may attempt per minute.
    pub sign_in_per_minute: u32,
}

impl Default for ApiLimits {
    fn default() -> ApiLimits {
        ApiLimits {
            create_per_minute: 30,
            join_per_minute: 60,
            hints_per_minute: 20,
            socket_messages_per_second: 20,
            max_socket_message: 4096,
            socket_idle: std::time::Duration::from_secs(30),
            socket_heartbeat: std::time::Duration::from_secs(120),
            connections: ConnectionLimits::default(),
            sign_in_per_minute: 10,
        }
    }
}

/// What every handler shares, behind one pointer: a request and a socket each hold a copy of the
/// state for their whole life, and an idle socket should cost little.
#[derive(Clone, Debug)]
pub struct AppState(Arc<SharedState>);

impl std::ops::Deref for AppState {
    type Target = SharedState;

    fn deref(&self) -> &SharedState {
        &self.0
    }
}

#[derive(Debug)]
pub struct SharedState {
    pub registry: Registry,
    pub metrics: Arc<Metrics>,
    /// The base of the links the server hands out (invite, watch, seat).
    pub public_url: String,
    pub limits: ApiLimits,
    create_limiter: Arc<AddressLimiter>,
    join_limiter: Arc<AddressLimiter>,
    credentials_limiter: Arc<AddressLimiter>,
    /// Challenges and game starts for signed-in players' event streams.
    pub notifier: Arc<crate::players::notifier::Notifier>,
    hint_limiter: Arc<AddressLimiter>,
    seat_hint_limiter: Arc<Limiter<SecretHash>>,
    /// Turns true when the server shuts down: sockets close with a reason.
    pub shutdown: watch::Receiver<bool>,
}

impl AppState {
    pub fn new(
        registry: Registry,
        metrics: Arc<Metrics>,
        public_url: String,
        limits: ApiLimits,
        shutdown: watch::Receiver<bool>,
    ) -> AppState {
        AppState(Arc::new(SharedState {
            create_limiter: Arc::new(AddressLimiter::new(Rate::per_minute(
                limits.create_per_minute,
            ))),
            join_limiter: Arc::new(AddressLimiter::new(Rate::per_minute(
                limits.join_per_minute,
            ))),
            credentials_limiter: Arc::new(AddressLimiter::new(Rate::per_minute(
                limits.sign_in_per_minute,
            ))),
            notifier: Arc::default(),
            hint_limiter: Arc::new(AddressLimiter::new(Rate::per_minute(
                limits.hints_per_minute.saturating_mul(3),
            ))),
            seat_hint_limiter: Arc::new(Limiter::new(Rate::per_minute(limits.hints_per_minute))),
            registry,
            metrics,
            public_url: public_url.trim_end_matches('/').to_string(),
            limits,
            shutdown,
        }))
    }

    /// Admits a search for `address`: hints and the analysis board's suggestions wait in one
    /// queue of their own, so they share one budget an address (three seats' worth), and no
    /// client can fill the queue that other players' hints wait in.
    pub fn admit_search(&self, address: IpAddr) -> Result<(), ApiError> {
        self.hint_limiter.admit(address, self.registry.now_ms())
    }
}

pub fn router(state: AppState) -> Router {
    let (router, mut openapi) = OpenApiRouter::with_openapi(docs::ApiDoc::openapi())
        .routes(routes!(games::create, games::list))
        .routes(routes!(games::view))
        .routes(routes!(games::play_move))
        .routes(routes!(games::resign))
        .routes(routes!(games::draw))
        .routes(routes!(games::draw_decline))
        .routes(routes!(games::undo))
        .routes(routes!(games::undo_accept))
        .routes(routes!(games::undo_decline))
        .routes(routes!(games::abort))
        .routes(routes!(games::claim))
        .routes(routes!(games::rematch))
        .routes(routes!(games::rematch_decline))
        .routes(routes!(games::events))
        .routes(routes!(games::record))
        .routes(routes!(games::hint))
        .routes(routes!(socket::upgrade))
        .routes(routes!(games::join))
        .routes(routes!(accounts::sign_up))
        .routes(routes!(accounts::sign_in, accounts::sign_out))
        .routes(routes!(accounts::account, accounts::delete_account))
        .routes(routes!(accounts::change_password))
        .routes(routes!(accounts::create_token, accounts::list_tokens))
        .routes(routes!(accounts::revoke_token))
        .routes(routes!(players::attach_seats))
        .routes(routes!(players::live_games))
        .routes(routes!(players::profile))
        .routes(routes!(players::games))
        .routes(routes!(players::leaderboard))
        .routes(routes!(players::seat_holders))
        .routes(routes!(challenges::create, challenges::list))
        .routes(routes!(challenges::accept))
        .routes(routes!(challenges::decline))
        .routes(routes!(challenges::cancel))
        .routes(routes!(challenges::stream))
        .routes(routes!(operations::variants))
        .routes(routes!(operations::analysis))
        .routes(routes!(operations::analysis_play))
        .routes(routes!(operations::analysis_replay))
        .routes(routes!(crate::analysis::suggest))
        .routes(routes!(operations::openapi))
        .routes(routes!(operations::healthz))
        .routes(routes!(operations::readyz))
        .routes(routes!(operations::metrics))
        .split_for_parts();
    docs::add_identity_refusals(&mut openapi);
    let _ = docs::OPENAPI_JSON.set(openapi.to_json().expect("the document serialises"));
    // Every unknown path under `/api` answers in the API's shape, `/api` itself included.
    router
        .route("/api", axum::routing::any(operations::api_not_found))
        .route("/api/", axum::routing::any(operations::api_not_found))
        .route(
            "/api/{*path}",
            axum::routing::any(operations::api_not_found),
        )
        .layer(axum::middleware::from_fn(refuse_nul_in_target))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// A JSON body whose rejections use the API's error shape (400, or 413 when too large). A body
/// whose text holds a NUL character (`\u0000`, which Postgres text cannot hold) is a 400 before
/// it is read into `T`: refused before the database, on either backend.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        // The body is read as the router's limit allows (the request's own extensions carry it),
        // then parsed from what was read, with the headers that say it is JSON.
        let headers = request.headers().clone();
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| match rejection.status() {
                StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge {
                    limit: MAX_BODY_BYTES,
                },
                _ => ApiError::BadRequest(rejection.body_text()),
            })?;
        refuse_nul(&bytes)?;
        let mut request = Request::new(axum::body::Body::from(bytes));
        *request.headers_mut() = headers;
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

/// Refuses a JSON text that holds a NUL character: the escape `\u0000` in a string (a raw NUL
/// byte is no JSON at all, which the parser refuses), not an escaped backslash before `u0000`.
pub(super) fn refuse_nul(json: &[u8]) -> Result<(), ApiError> {
    let mut bytes = json.iter();
    while let Some(&byte) = bytes.next() {
        if byte == b'\\' {
            match bytes.next() {
                Some(b'u') if bytes.as_slice().starts_with(b"0000") => return Err(nul_refused()),
                _ => continue,
            }
        }
    }
    Ok(())
}

fn nul_refused() -> ApiError {
    ApiError::BadRequest("text holds no NUL character (\\u0000)".into())
}

/// Refuses, before any handler reads it, a request whose path or query holds a NUL byte (`%00`):
/// no name, id or token holds one, and Postgres text cannot. A path names nothing then (404), a
/// query is malformed (400).
pub async fn refuse_nul_in_target(request: Request, next: Next) -> Response {
    let has_nul = |text: &str| {
        text.as_bytes()
            .windows(3)
            .any(|w| w.eq_ignore_ascii_case(b"%00"))
    };
    let uri = request.uri();
    if has_nul(uri.path()) {
        return ApiError::NotFound("resource".into()).into_response();
    }
    if uri.query().is_some_and(has_nul) {
        return nul_refused().into_response();
    }
    next.run(request).await
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::TooLarge {
            limit: MAX_BODY_BYTES,
        }
    } else {
        ApiError::BadRequest(rejection.body_text())
    }
}

/// The seat token of `Authorization: Bearer <token>`, if the request has one.
#[derive(Debug)]
pub struct Bearer(pub Option<SeatToken>);

impl Bearer {
    /// The token an action needs.
    pub fn required(self) -> Result<SeatToken, ApiError> {
        self.0.ok_or(ApiError::Unauthorized)
    }
}

/// The seat a request to a game speaks for, as its token's hash (what the game's actions
/// present): the seat token's of `Authorization: Bearer`, else the seat the identified account
/// holds in the game (signed in, or a personal token: a player's seat on any device, without
/// the token), else none (a spectator).
#[derive(Debug, Default)]
pub struct GameSeat {
    pub hash: Option<SecretHash>,
    /// What identified the account whose seat it is, if it is one (not a seat token's).
    pub account: Option<accounts::Credential>,
}

impl GameSeat {
    /// The seat an action needs.
    pub fn required(self) -> Result<SecretHash, ApiError> {
        self.hash.ok_or(ApiError::Unauthorized)
    }

    /// A seat token's seat.
    fn of_token(token: &SeatToken) -> GameSeat {
        GameSeat {
            hash: Some(token.hash()),
            account: None,
        }
    }

    /// The seat an identified account holds in the game, if any.
    async fn of_account(
        state: &AppState,
        game_id: &GameId,
        identity: accounts::Identity,
    ) -> Result<GameSeat, ApiError> {
        let hash = state
            .registry
            .store()
            .account_seat(game_id, &identity.account.id)
            .await?;
        Ok(GameSeat {
            account: hash.as_ref().map(|_| identity.credential),
            hash,
        })
    }
}

impl FromRequestParts<AppState> for GameSeat {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Bearer(Some(token)) = Bearer::from_request_parts(parts, state).await? {
            return Ok(GameSeat::of_token(&token));
        }
        let accounts::MaybeIdentity(identity) =
            accounts::MaybeIdentity::from_request_parts(parts, state).await?;
        // A page of another site may open a socket with the visitor's cookie, which the browser
        // sends by itself (a change it could make is refused already): it gets no seat. A
        // personal token is sent only by whoever holds it, from any site.
        let Some(identity) = identity.filter(|identity| {
            matches!(identity.credential, accounts::Credential::PersonalToken(_))
                || accounts::from_own_origin(&parts.headers, &state.public_url)
        }) else {
            return Ok(GameSeat::default());
        };
        let GamePath(game_id) = GamePath::from_request_parts(parts, state).await?;
        GameSeat::of_account(state, &game_id, identity).await
    }
}

/// The game id of a `/games/{id}/…` path. Text that cannot be a game id (a NUL byte, bytes that
/// are not UTF-8) names no game: not found, refused before it reaches the database.
#[derive(Debug)]
pub struct GamePath(pub GameId);

impl<S: Send + Sync> FromRequestParts<S> for GamePath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let not_found = || ApiError::NotFound("game".into());
        let axum::extract::Path(id) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|_| not_found())?;
        id.parse().map(GamePath).map_err(|_| not_found())
    }
}

/// How the OpenAPI document describes the `{id}` that `GamePath` reads (`params(GamePath)`), so
/// a client or a fuzzer knows what an id looks like (`GameId`'s rule) without trying.
impl utoipa::IntoParams for GamePath {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::{ObjectBuilder, Required, Type};
        let id = ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .max_length(Some(GameId::MAX_LEN))
            .pattern(Some(GameId::PATTERN));
        vec![
            ParameterBuilder::new()
                .name("id")
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .description(Some(
                    "The game's id, as its links carry it. Text that cannot be one is 404.",
                ))
                .schema(Some(id))
                .build(),
        ]
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
            return Ok(Bearer(None));
        };
        let value = header.to_str().map_err(|_| ApiError::Unauthorized)?;
        let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
        // Another scheme is not for the game: a proxy's own Basic credentials in front of the
        // site (which the browser then sends with every request) must not lock visitors out.
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Ok(Bearer(None));
        }
        Ok(Bearer(presented_seat(token.trim())?))
    }
}

/// The seat token presented to a game (a Bearer's, or a socket's hello): none for a personal
/// token, which names an account (whose seat, if any, `GameSeat::of_account` finds); anything
/// else must be a seat token.
fn presented_seat(token: &str) -> Result<Option<SeatToken>, ApiError> {
    if token.starts_with(crate::players::credentials::PERSONAL_TOKEN_PREFIX) {
        return Ok(None);
    }
    SeatToken::parse(token)
        .map(Some)
        .ok_or(ApiError::Unauthorized)
}

/// The client's address, for the per-address limits: the connection's (loopback when the server
/// runs without connection info, as in tests), or the one a trusted proxy forwarded; an IPv6 one
/// as its /64 network (`address::limited_as`).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let client = state
            .limits
            .connections
            .client(&parts.extensions, &parts.headers);
        Ok(ClientAddress(address::limited_as(client)))
    }
}

/// The net under every API extractor and route: an error answered by anything but [`ApiError`]
/// (axum's own rejections such as a malformed query, a wrong method) is rewritten into the one
/// error shape, with a 4xx for anything the client got wrong.
pub async fn error_shape(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let text = axum::body::to_bytes(response.into_body(), 1024)
        .await
        .map(|body| String::from_utf8_lossy(&body).trim().to_string())
        .unwrap_or_default();
    let error = match status {
        StatusCode::NOT_FOUND => ApiError::NotFound("route".into()),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge {
            limit: MAX_BODY_BYTES,
        },
        _ if status.is_client_error() && !text.is_empty() => ApiError::BadRequest(text),
        _ if status.is_client_error() => ApiError::BadRequest(status.to_string()),
        _ => ApiError::Unavailable(Arc::new(std::io::Error::other(format!(
            "{status} from a lower layer: {text}"
        )))),
    };
    let mut response = error.into_response();
    if let Some(allow) = allow {
        response.headers_mut().insert(header::ALLOW, allow);
    }
    response
}

/// No file has a name of 256 bytes or more, nor a path of 1,024 (the client's longest is a
/// tenth of that); the file server would answer such a path with a 500 (the system refuses to
/// open it), so it is a 404 here.
pub async fn refuse_unservable_paths(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path.len() >= 1024 || path.split('/').any(|segment| segment.len() > 255) {
        return ApiError::NotFound("file".into()).into_response();
    }
    next.run(request).await
}
