//! The game endpoints: create, join, view, move, the other actions, events and results.

use super::accounts::MaybeIdentity;
use super::players::take_seat;
use super::{ApiJson, AppState, Bearer, ClientAddress};
use crate::error::ApiError;
use crate::game::actor::{Acted, Action, Published};
use crate::game::registry::NewGameRequest;
use crate::game::{ClockSettings, Mode, PlayerIndex, Settings, Status};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ludus_engine::{Player, Variant};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;

/// Longest accepted entropy string (it only feeds a hash).
const MAX_ENTROPY: usize = 256;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    variant: String,
    mode: Mode,
    #[serde(default)]
    clock: Option<ClockSettings>,
    #[serde(default)]
    side: SideChoice,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    entropy: Option<String>,
    /// Online games between two accounts are rated unless this is false.
    #[serde(default)]
    rated: Option<bool>,
}

#[derive(Debug, Default, Deserialize, PartialEq, Eq, Clone, Copy, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
enum SideChoice {
    #[default]
    First,
    Second,
    Random,
}

fn entropy(text: Option<String>) -> Result<String, ApiError> {
    let text = text.unwrap_or_default();
    if text.len() > MAX_ENTROPY {
        return Err(ApiError::BadRequest(format!(
            "entropy has at most {MAX_ENTROPY} bytes"
        )));
    }
    Ok(text)
}

pub(super) fn validate(body: CreateBody) -> Result<NewGameRequest, ApiError> {
    let variant: Variant = body
        .variant
        .parse()
        .map_err(|e: ludus_engine::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    if let Some(clock) = body.clock {
        if !(1_000..=3 * 3_600_000).contains(&clock.initial_ms) {
            return Err(ApiError::BadRequest(
                "clock.initial_ms is between 1000 (1 s) and 10800000 (3 h)".into(),
            ));
        }
        if clock.increment_ms > 180_000 {
            return Err(ApiError::BadRequest(
                "clock.increment_ms is at most 180000 (3 min)".into(),
            ));
        }
    }
    let level = match (body.mode, body.level) {
        (Mode::Computer, None) => Some(1),
        (Mode::Computer, Some(level @ 1..=5)) => Some(level),
        (Mode::Computer, Some(other)) => {
            return Err(ApiError::BadRequest(format!(
                "level is 1 to 5, not {other}"
            )));
        }
        (_, Some(_)) => {
            return Err(ApiError::BadRequest(
                "level is for games against the computer".into(),
            ));
        }
        (_, None) => None,
    };
    let creator = match body.side {
        SideChoice::First => Player::First,
        SideChoice::Second => Player::Second,
        SideChoice::Random => {
            if rand::random::<bool>() {
                Player::First
            } else {
                Player::Second
            }
        }
    };
    Ok(NewGameRequest {
        variant,
        mode: body.mode,
        settings: Settings {
            clock: body.clock,
            level,
            creator: PlayerIndex(creator),
        },
        entropy: entropy(body.entropy)?,
    })
}

fn rate_limited(result: Result<(), u64>) -> Result<(), ApiError> {
    result.map_err(|retry_after_ms| ApiError::RateLimited { retry_after_ms })
}

#[utoipa::path(post, path = "/api/v1/games", tag = "games", request_body = CreateBody, responses((status = 201, body = super::docs::Created), (status = 400, body = super::docs::ErrorBody), (status = 413, body = super::docs::ErrorBody), (status = 429, body = super::docs::ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    MaybeIdentity(identity): MaybeIdentity,
    ApiJson(body): ApiJson<CreateBody>,
) -> Result<Response, ApiError> {
    rate_limited(state.create_limiter.check(address, state.registry.now_ms()))?;
    let unrated = body.rated == Some(false);
    let request = validate(body)?;
    let variant = request.variant;
    let created = state.registry.create(request).await?;
    let account = identity.as_ref().map(|i| i.account.id.as_str());
    take_seat(&state, account, &created.game_id, variant, created.side).await?;
    if unrated {
        state
            .registry
            .store()
            .mark_unrated(&created.game_id)
            .await?;
    }
    let base = &state.public_url;
    let mut body = json!({
        "game_id": created.game_id,
        "seat": { "side": variant.side(created.side), "token": created.token },
        "seat_url": format!("{base}/game/{}#token={}", created.game_id, created.token),
        "watch_url": format!("{base}/game/{}", created.game_id),
    });
    if let Some(invite) = &created.invite {
        body["invite_url"] = json!(format!("{base}/join/{invite}"));
        body["invite"] = json!(invite);
    }
    if let Some(commitment) = created.commitment {
        body["commitment"] = json!(commitment);
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    #[serde(default)]
    entropy: Option<String>,
}

#[utoipa::path(post, path = "/api/v1/invites/{invite}/join", tag = "games", params(("invite" = String, Path)), request_body(content = JoinBody, description = "Optional: the joiner's entropy"), responses((status = 200, body = super::docs::Joined), (status = 404, body = super::docs::ErrorBody), (status = 409, description = "seat_taken", body = super::docs::ErrorBody), (status = 429, body = super::docs::ErrorBody)))]
pub async fn join(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    MaybeIdentity(identity): MaybeIdentity,
    Path(invite): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    rate_limited(state.join_limiter.check(address, state.registry.now_ms()))?;
    let body: JoinBody = if body.iter().all(u8::is_ascii_whitespace) {
        JoinBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("the join body: {e}")))?
    };
    if !crate::game::token::looks_like_secret(&invite) {
        return Err(ApiError::NotFound("invite".into()));
    }
    let (game_id, side, token) = state.registry.join(&invite, entropy(body.entropy)?).await?;
    let view = state.registry.view(&game_id, Some(&token)).await?;
    if let Some(variant) = view["variant"].as_str().and_then(|v| v.parse().ok()) {
        let account = identity.as_ref().map(|i| i.account.id.as_str());
        take_seat(&state, account, &game_id, variant, side).await?;
    }
    Ok(Json(json!({
        "game_id": game_id,
        "seat": { "side": view["seat"]["side"], "token": token },
        "seat_url": format!("{}/game/{game_id}#token={token}", state.public_url),
        "game": view,
    })))
}

#[utoipa::path(get, path = "/api/v1/games/{id}", tag = "games", params(("id" = String, Path)), security((), ("bearer" = [])), responses((status = 200, body = super::docs::GameView), (status = 401, body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody)))]
pub async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.registry.view(&id, token.as_deref()).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    notation: String,
    version: u64,
    #[serde(default)]
    id: Option<String>,
}

/// Runs an action for the bearer's seat, counting moves for the metrics.
pub async fn run_action(
    state: &AppState,
    id: &str,
    token: Option<&str>,
    action: Action,
) -> Result<Acted, ApiError> {
    let is_move = matches!(action, Action::Move { .. });
    let started = std::time::Instant::now();
    let result = state.registry.act(id, token, action).await;
    if is_move {
        match &result {
            Ok(_) => {
                state
                    .metrics
                    .moves_accepted
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                state.metrics.move_latency.observe(started.elapsed());
            }
            Err(error) => state.metrics.refuse(error.code()),
        }
    }
    result
}

#[utoipa::path(post, path = "/api/v1/games/{id}/moves", tag = "games", params(("id" = String, Path)), request_body = MoveBody, security(("bearer" = [])), responses((status = 200, body = super::docs::GameView), (status = 400, body = super::docs::ErrorBody), (status = 401, body = super::docs::ErrorBody), (status = 403, description = "not_your_turn or forbidden", body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody), (status = 409, description = "stale or game_over", body = super::docs::ErrorBody), (status = 422, description = "illegal_move", body = super::docs::ErrorBody)))]
pub async fn play_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<Json<Value>, ApiError> {
    let action = Action::Move {
        text: body.notation,
        version: body.version,
        id: body.id,
    };
    let acted = run_action(&state, &id, token.as_deref(), action).await?;
    Ok(Json(acted.view(state.registry.now_ms())))
}

macro_rules! action_endpoint {
    ($($name:ident => $action:expr, $path:literal, $what:literal);* $(;)?) => {$(
        #[doc = $what]
        #[utoipa::path(post, path = $path, tag = "games", params(("id" = String, Path)), security(("bearer" = [])),
            responses((status = 200, body = super::docs::GameView), (status = 400, body = super::docs::ErrorBody),
                (status = 401, body = super::docs::ErrorBody), (status = 403, body = super::docs::ErrorBody),
                (status = 404, body = super::docs::ErrorBody), (status = 409, description = "game_over", body = super::docs::ErrorBody)))]
        pub async fn $name(State(state): State<AppState>, Path(id): Path<String>, Bearer(token): Bearer) -> Result<Json<Value>, ApiError> {
            let acted = run_action(&state, &id, token.as_deref(), $action).await?;
            Ok(Json(acted.view(state.registry.now_ms())))
        }
    )*};
}

action_endpoint! {
    resign => Action::Resign, "/api/v1/games/{id}/resign", "Resign the game.";
    draw => Action::Draw, "/api/v1/games/{id}/draw", "Offer a draw, or accept the opponent's offer (Petteia).";
    draw_decline => Action::DrawDecline, "/api/v1/games/{id}/draw/decline", "Decline the opponent's draw offer.";
    undo => Action::Undo, "/api/v1/games/{id}/undo", "Take back (computer and local games; never gives time back).";
    abort => Action::Abort, "/api/v1/games/{id}/abort", "Abort before the first move.";
    claim => Action::Claim, "/api/v1/games/{id}/claim", "Claim the win when the opponent has been gone long enough.";
    rematch => Action::Rematch, "/api/v1/games/{id}/rematch", "A new game with the sides swapped, for the same seats.";
}

/// A suggested move for the seat to move, from the computer at level 5 (computer and local games).
#[utoipa::path(get, path = "/api/v1/games/{id}/hint", tag = "games", params(("id" = String, Path)), security(("bearer" = [])), responses((status = 200, body = crate::game::registry::Hint), (status = 401, body = super::docs::ErrorBody), (status = 403, description = "forbidden (an online game) or not_your_turn", body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody), (status = 409, description = "game_over", body = super::docs::ErrorBody)))]
pub async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<Json<crate::game::registry::Hint>, ApiError> {
    Ok(Json(state.registry.hint(&id, token.as_deref()).await?))
}

/// The text record of docs/RULES.md §4.
#[utoipa::path(get, path = "/api/v1/games/{id}/record", tag = "games", params(("id" = String, Path)), responses((status = 200, description = "The text record of docs/RULES.md §4", content_type = "text/plain", body = String), (status = 404, body = super::docs::ErrorBody)))]
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let record = state.registry.record(&id).await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        record,
    )
        .into_response())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct EventsQuery {
    #[serde(default)]
    since: u64,
}

/// The events after `since`: a JSON array, or with `Accept: application/x-ndjson` a stream that
/// sends each new event as a line, keep-alive empty lines, and ends when the game does.
#[utoipa::path(get, path = "/api/v1/games/{id}/events", tag = "games", params(("id" = String, Path), EventsQuery), responses((status = 200, description = "The events after `since`: a JSON array, or with `Accept: application/x-ndjson` a stream of lines that ends with the game", body = Vec<super::docs::Event>), (status = 404, body = super::docs::ErrorBody)))]
pub async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let wants_stream = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("application/x-ndjson"));
    if !wants_stream {
        return Ok(Json(state.registry.events(&id, query.since).await?).into_response());
    }
    let (subscription, _handle) = state
        .registry
        .subscribe(&id, None, Some(query.since))
        .await?;
    let mut receiver = subscription.events;
    let mut last = query.since;
    let mut over = subscription.snapshot.status.is_over();
    let missed = subscription.missed;
    let mut shutdown = state.shutdown.clone();
    let stream = async_stream(move |sender| async move {
        for event in missed {
            last = event.version;
            if sender.send(line(&event)).await.is_err() {
                return;
            }
        }
        let mut keep_alive = tokio::time::interval(Duration::from_secs(15));
        keep_alive.tick().await;
        while !over {
            tokio::select! {
                item = receiver.recv() => match item {
                    Ok(published) => if let Published::Event { event, snapshot } = &*published
                        && event.version > last
                    {
                        last = event.version;
                        over = snapshot.status.is_over();
                        if sender.send(line(event)).await.is_err() { return; }
                    },
                    // Fell behind or the game's actor stopped: the client resumes with `since`.
                    Err(_) => return,
                },
                _ = keep_alive.tick() => if sender.send(Bytes::from_static(b"\n")).await.is_err() { return; },
                _ = shutdown.changed() => return,
            }
        }
    });
    Ok(Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(stream)
        .expect("a valid response"))
}

fn line(event: &crate::game::event::VersionedEvent) -> Bytes {
    let mut text = serde_json::to_vec(event).expect("events serialise");
    text.push(b'\n');
    Bytes::from(text)
}

/// A streamed body fed by a task through a small channel.
pub(super) fn async_stream<F, Fut>(produce: F) -> Body
where
    F: FnOnce(tokio::sync::mpsc::Sender<Bytes>) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (sender, mut receiver) = tokio::sync::mpsc::channel::<Bytes>(16);
    tokio::spawn(produce(sender));
    let stream = futures_util::stream::poll_fn(move |cx| {
        receiver
            .poll_recv(cx)
            .map(|b| b.map(Ok::<_, std::io::Error>))
    });
    Body::from_stream(stream)
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ListQuery {
    #[serde(default = "finished")]
    status: String,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    before: Option<i64>,
}

fn finished() -> String {
    "finished".into()
}

/// Stored games of a status, newest first: `GET /api/v1/games?status=finished&limit=&before=`.
#[utoipa::path(get, path = "/api/v1/games", tag = "games", params(ListQuery), responses((status = 200, body = Vec<super::docs::GameSummary>), (status = 400, body = super::docs::ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let status = Status::parse(&query.status).ok_or_else(|| {
        ApiError::BadRequest("status is waiting, playing, finished or aborted".into())
    })?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::BadRequest("limit is 1 to 200".into()));
    }
    let rows = state
        .registry
        .store()
        .list_games(status.name(), limit, query.before)
        .await?;
    let games: Vec<Value> = rows
        .into_iter()
        .map(|row| {
            json!({
                "game_id": row.id,
                "variant": row.variant,
                "mode": row.mode,
                "status": row.status,
                "created_at": row.created_at,
                "finished_at": row.finished_at,
                "result": row.termination.as_ref().map(|t| json!({ "winner": row.winner, "termination": t })),
            })
        })
        .collect();
    Ok(Json(json!(games)))
}
