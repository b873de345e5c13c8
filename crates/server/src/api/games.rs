//! The game endpoints: create, join, view, move, the other actions, events and results.

use super::accounts::MaybeIdentity;
use super::docs::ErrorBody;
use super::{ApiJson, AppState, Bearer, ClientAddress, GamePath, GameSeat};
use crate::error::ApiError;
use crate::game::actor::{Acted, Action, Command, Published, Subscription};
use crate::game::error::GameError;
use crate::game::event::VersionedEvent;
use crate::game::registry::Hint;
use crate::game::services::{NewGameRequest, Seeding};
use crate::game::token::{InviteCode, SeatToken};
use crate::game::view::GameView;
use crate::game::{ClockSettings, GameId, Mode, PlayerIndex, Settings, Status};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ludus_ai::Level;
use ludus_engine::{Player, Side, Variant};
use ludus_store::{AccountSeat, Holders, PageAfter, SecretHash};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;
use utoipa::ToSchema;

/// Longest accepted entropy string (it only feeds a hash).
const MAX_ENTROPY: usize = 256;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    #[schema(value_type = crate::variants::VariantId)]
    variant: String,
    mode: Mode,
    #[serde(default)]
    clock: Option<ClockSettings>,
    #[serde(default)]
    side: SideChoice,
    /// Computer games: 1 to 5 (1 when omitted).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 5)]
    level: Option<u8>,
    /// Mixed into the game's seed (docs/RULES.md §4): at most 256 characters.
    #[serde(default)]
    #[schema(max_length = 256)]
    entropy: Option<String>,
    /// Online games between two accounts are rated unless this is false.
    #[serde(default)]
    rated: Option<bool>,
    /// Whether anyone may find the game in `GET /api/v1/games?status=waiting|playing` while it
    /// is live, to watch it. Off by default; finished games are listed either way.
    #[serde(default)]
    listed: bool,
}

#[derive(Debug, Default, Deserialize, PartialEq, Eq, Clone, Copy, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum SideChoice {
    #[default]
    First,
    Second,
    Random,
}

pub(super) fn entropy(text: Option<String>) -> Result<String, ApiError> {
    let text = text.unwrap_or_default();
    // Counted in characters, as the OpenAPI document's maxLength counts.
    if text.chars().count() > MAX_ENTROPY {
        return Err(ApiError::BadRequest(format!(
            "entropy has at most {MAX_ENTROPY} characters"
        )));
    }
    // Postgres text cannot hold a NUL (a socket's message may carry one).
    if text.contains('\0') {
        return Err(ApiError::BadRequest("entropy holds a NUL character".into()));
    }
    Ok(text)
}

/// The game `body` asks for, created by the signed-in `account` if any (it holds the creator's
/// seat from the start).
pub(super) fn validate(
    body: CreateBody,
    account: Option<&str>,
) -> Result<NewGameRequest, ApiError> {
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
        (Mode::Computer, None) => Some(Level::MIN),
        (Mode::Computer, Some(number)) => Some(
            Level::new(number)
                .ok_or_else(|| ApiError::BadRequest(format!("level is 1 to 5, not {number}")))?,
        ),
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
        seeding: Seeding {
            creator_entropy: entropy(body.entropy)?,
            ..Seeding::default()
        },
        listed: body.listed,
        holders: Holders::New {
            creator: account.map(|account_id| AccountSeat {
                account_id: account_id.to_string(),
                player: creator,
            }),
            rated: body.rated != Some(false),
        },
    })
}

/// A seat and its bearer token (keep it private).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatGrant {
    #[schema(value_type = String)]
    side: Side,
    #[schema(value_type = String)]
    token: SeatToken,
}

impl Serialize for SeatToken {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The answer to creating a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    #[schema(value_type = String)]
    game_id: GameId,
    seat: SeatGrant,
    /// The private link of the creator's seat (token in the fragment).
    seat_url: String,
    watch_url: String,
    /// Online games: the link that grants the other seat once.
    #[serde(skip_serializing_if = "Option::is_none")]
    invite_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
    /// Dice games: SHA-256 of the server seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
}

/// The answer to redeeming an invite.
#[derive(Debug, Serialize, ToSchema)]
pub struct Joined {
    #[schema(value_type = String)]
    game_id: GameId,
    seat: SeatGrant,
    seat_url: String,
    #[schema(value_type = GameView)]
    game: serde_json::Value,
}

/// A game view as its snapshot wrote it: JSON text of the shape `GameView`.
#[derive(Debug)]
pub struct ViewJson(pub String);

impl IntoResponse for ViewJson {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// The private link of a seat: the game's page, the token in the fragment (never sent to a server).
fn seat_url(state: &AppState, game_id: &GameId, token: &SeatToken) -> String {
    format!("{}/game/{game_id}#token={token}", state.public_url)
}

#[utoipa::path(post, path = "/api/v1/games", tag = "games", request_body = CreateBody, security((), ("bearer" = []), ("cookie" = [])), responses((status = 201, body = Created), (status = 400, body = ErrorBody), (status = 413, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    MaybeIdentity(identity): MaybeIdentity,
    ApiJson(body): ApiJson<CreateBody>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    state
        .create_limiter
        .admit(address, state.registry.now_ms())?;
    let request = validate(body, identity.as_ref().map(|i| i.account.id.as_str()))?;
    let variant = request.variant;
    let created = state.registry.create(request).await?;
    let base = &state.public_url;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            seat_url: seat_url(&state, &created.game_id, &created.token),
            watch_url: format!("{base}/game/{}", created.game_id),
            invite_url: created
                .invite
                .as_ref()
                .map(|invite| format!("{base}/join/{invite}")),
            invite: created.invite.as_ref().map(|i| i.to_string()),
            commitment: created.commitment,
            seat: SeatGrant {
                side: variant.side(created.side),
                token: created.token,
            },
            game_id: created.game_id,
        }),
    ))
}

/// The optional body `{"entropy"}` of a join, a rematch or a challenge's acceptance: the
/// entropy, checked. No body, an empty one and JSON `null` (which the document's `oneOf [JoinBody,
/// null]` allows, and a generated client sends for "none") all mean none.
pub(super) fn entropy_of(body: &[u8], what: &str) -> Result<String, ApiError> {
    let body: Option<JoinBody> = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        super::refuse_nul(body)?;
        serde_json::from_slice(body).map_err(|e| ApiError::BadRequest(format!("{what}: {e}")))?
    };
    entropy(body.unwrap_or_default().entropy)
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinBody {
    /// Mixed into the game's seed (docs/RULES.md §4): at most 256 characters.
    #[serde(default)]
    #[schema(max_length = 256)]
    entropy: Option<String>,
}

#[utoipa::path(post, path = "/api/v1/invites/{invite}/join", tag = "games", params(("invite" = String, Path, description = "The invite code of the link: 32 of 0-9 A-Z a-z", pattern = "^[0-9A-Za-z]{32}$")), request_body(content = Option<JoinBody>, description = "Optional: the joiner's entropy"), security((), ("bearer" = []), ("cookie" = [])), responses((status = 400, body = ErrorBody), (status = 200, description = "The joiner's seat; with a seat token of this game, that seat (nothing is redeemed)", body = Joined), (status = 401, description = "a token that is not of this game, or a personal token that is unknown or revoked", body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, description = "seat_taken, with the invite's `game_id` to watch it; game_over, the invite expired", body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn join(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    MaybeIdentity(identity): MaybeIdentity,
    Path(invite): Path<String>,
    Bearer(presented): Bearer,
    body: Bytes,
) -> Result<Json<Joined>, ApiError> {
    state.join_limiter.admit(address, state.registry.now_ms())?;
    let entropy = entropy_of(&body, "the join body")?;
    let invite = InviteCode::parse(&invite).ok_or_else(|| ApiError::NotFound("invite".into()))?;
    let account = identity.as_ref().map(|i| i.account.id.as_str());
    let joined = state
        .registry
        .join(&invite, presented.as_ref(), entropy, account)
        .await?;
    let view = state
        .registry
        .view_after_join(&joined.game_id, &joined.token.hash())
        .await?;
    let game: Value = serde_json::from_str(&view).expect("a view is JSON");
    Ok(Json(Joined {
        seat_url: seat_url(&state, &joined.game_id, &joined.token),
        seat: SeatGrant {
            side: joined.side,
            token: joined.token,
        },
        game_id: joined.game_id,
        game,
    }))
}

#[utoipa::path(get, path = "/api/v1/games/{id}", tag = "games", params(super::GamePath), security((), ("bearer" = []), ("cookie" = [])), responses((status = 400, description = "a malformed query", body = ErrorBody), (status = 200, body = GameView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn view(
    State(state): State<AppState>,
    GamePath(id): GamePath,
    seat: GameSeat,
) -> Result<ViewJson, ApiError> {
    Ok(ViewJson(
        state.registry.view(&id, seat.hash.as_ref()).await?,
    ))
}
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    notation: String,
    version: u64,
    /// The client's move id (a resend with it is answered as the first and plays nothing twice):
    /// at most 64 characters, none a control character.
    #[serde(default)]
    #[schema(max_length = 64)]
    id: Option<String>,
}

/// Runs an action for the bearer's seat, counting moves for the metrics.
pub async fn run_action(
    state: &AppState,
    id: &GameId,
    token: &SecretHash,
    action: Action,
) -> Result<Acted, ApiError> {
    let counting = Counting::start(&action);
    let result = state.registry.act(id, token, action).await;
    counting.answer(state, result)
}

/// An action on its way, counted in the metrics once its answer comes: moves accepted and their
/// latency, refusals. Started before the action is sent and given the answer, rather than the
/// future that gives it: a future taken by value is held twice in the caller's (as the argument
/// and as the one awaited), and the socket's is copied into a box at every move.
pub struct Counting {
    /// When a move was sent; `None` for the other actions, which are not counted.
    move_started: Option<std::time::Instant>,
}

impl Counting {
    pub fn start(action: &Action) -> Counting {
        Counting {
            move_started: matches!(action, Action::Move { .. }).then(std::time::Instant::now),
        }
    }

    /// The action's answer, counted.
    pub fn answer(
        self,
        state: &AppState,
        result: Result<Acted, GameError>,
    ) -> Result<Acted, ApiError> {
        let result = result.map_err(ApiError::from);
        match (self.move_started, &result) {
            (None, _) => {}
            (Some(started), Ok(_)) => {
                state
                    .metrics
                    .moves_accepted
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                state.metrics.move_latency.observe(started.elapsed());
            }
            (Some(_), Err(error)) => state.metrics.refuse(error.code()),
        }
        result
    }
}

#[utoipa::path(post, path = "/api/v1/games/{id}/moves", tag = "games", params(super::GamePath), request_body = MoveBody, security(("bearer" = []), ("cookie" = [])), responses((status = 200, body = GameView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, description = "not_your_turn or forbidden", body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, description = "stale or game_over", body = ErrorBody), (status = 422, description = "illegal_move", body = ErrorBody)))]
pub async fn play_move(
    State(state): State<AppState>,
    GamePath(id): GamePath,
    seat: GameSeat,
    ApiJson(body): ApiJson<MoveBody>,
) -> Result<ViewJson, ApiError> {
    let action = Action::Move {
        text: body.notation,
        version: body.version,
        id: body.id,
    };
    let acted = run_action(&state, &id, &seat.required()?, action).await?;
    Ok(ViewJson(acted.view(state.registry.now_ms())))
}

macro_rules! action_endpoint {
    ($($name:ident => $action:expr, $path:literal, $what:literal);* $(;)?) => {$(
        #[doc = $what]
        #[utoipa::path(post, path = $path, tag = "games", params(super::GamePath), security(("bearer" = []), ("cookie" = [])),
            responses((status = 200, body = GameView), (status = 400, body = ErrorBody),
                (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
                (status = 404, body = ErrorBody), (status = 409, description = "game_over", body = ErrorBody)))]
        pub async fn $name(State(state): State<AppState>, GamePath(id): GamePath, seat: GameSeat) -> Result<ViewJson, ApiError> {
            let acted = run_action(&state, &id, &seat.required()?, $action).await?;
            Ok(ViewJson(acted.view(state.registry.now_ms())))
        }
    )*};
}

action_endpoint! {
    resign => Action::Resign, "/api/v1/games/{id}/resign", "Resign the game.";
    draw => Action::Draw, "/api/v1/games/{id}/draw", "Offer a draw, or accept the opponent's offer (Petteia).";
    draw_decline => Action::DrawDecline, "/api/v1/games/{id}/draw/decline", "Decline the opponent's draw offer.";
    undo => Action::Undo, "/api/v1/games/{id}/undo", "Take back: at once in computer and local games; online it asks the opponent (event undo_offered). Never gives time back.";
    undo_accept => Action::UndoAccept, "/api/v1/games/{id}/undo/accept", "Accept the opponent's takeback request: their last move is taken back.";
    undo_decline => Action::UndoDecline, "/api/v1/games/{id}/undo/decline", "Decline the opponent's takeback request (event undo_declined).";
    abort => Action::Abort, "/api/v1/games/{id}/abort", "Abort before the first move.";
    claim => Action::Claim, "/api/v1/games/{id}/claim", "Claim the win when the opponent has been gone long enough.";
    rematch_decline => Action::RematchDecline, "/api/v1/games/{id}/rematch/decline", "Decline the opponent's rematch offer (event rematch_declined).";
}

/// Online, the first asks (event rematch_offered, with a dice game's commitment) and the opponent's
/// accepts; then a new game with the sides swapped, for the same seats (event rematch).
#[utoipa::path(post, path = "/api/v1/games/{id}/rematch", tag = "games", params(super::GamePath), request_body(content = Option<JoinBody>, description = "Optional: the asker's entropy, mixed into a dice rematch's seed (docs/RULES.md §4): an offer's as the creator's, an accept's as the joiner's, after the offer's commitment"), security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, body = GameView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "game_over", body = ErrorBody)))]
pub async fn rematch(
    State(state): State<AppState>,
    GamePath(id): GamePath,
    seat: GameSeat,
    body: Bytes,
) -> Result<ViewJson, ApiError> {
    let entropy = entropy_of(&body, "the rematch body")?;
    let acted = run_action(&state, &id, &seat.required()?, Action::Rematch { entropy }).await?;
    Ok(ViewJson(acted.view(state.registry.now_ms())))
}

/// A suggested move for the seat to move, from the computer at level 5 (computer and local games).
#[utoipa::path(get, path = "/api/v1/games/{id}/hint", tag = "games", params(super::GamePath), security(("bearer" = []), ("cookie" = [])), responses((status = 400, description = "a malformed query", body = ErrorBody), (status = 200, body = Hint), (status = 401, body = ErrorBody), (status = 403, description = "forbidden (an online game) or not_your_turn", body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, description = "game_over", body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn hint(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    GamePath(id): GamePath,
    GameSeat { hash: seat, .. }: GameSeat,
) -> Result<Json<Hint>, ApiError> {
    state.admit_search(address)?;
    if let Some(seat) = &seat {
        state
            .seat_hint_limiter
            .admit(seat.clone(), state.registry.now_ms())?;
    }
    Ok(Json(state.registry.hint(&id, seat.as_ref()).await?))
}

/// The text record of docs/RULES.md §4.
#[utoipa::path(get, path = "/api/v1/games/{id}/record", tag = "games", params(super::GamePath), responses((status = 400, description = "a malformed query", body = ErrorBody), (status = 200, description = "The text record of docs/RULES.md §4", content_type = "text/plain", body = String), (status = 404, body = ErrorBody)))]
pub async fn record(
    State(state): State<AppState>,
    GamePath(id): GamePath,
) -> Result<Response, ApiError> {
    let record = state.registry.record(&id).await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        record,
    )
        .into_response())
}

/// The most events one answer of `GET …/events` holds (a page; the stream is not paged).
const MAX_EVENTS_PAGE: usize = 1000;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// The version after which events are wanted (default 0: from the start).
    #[serde(default)]
    since: u64,
    /// At most this many events (1 to 1000, the default); `x-next-since` says where the next
    /// page starts when there may be more. A stream sends every missed event.
    #[serde(default)]
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<usize>,
}

/// The events after `since`: a JSON array, or with `Accept: application/x-ndjson` a stream that
/// sends each new event as a line, keep-alive empty lines, and ends when the game does. With a
/// seat token, the request (and the open stream) counts as that player's presence.
#[utoipa::path(get, path = "/api/v1/games/{id}/events", tag = "games", params(super::GamePath, EventsQuery), security((), ("bearer" = []), ("cookie" = [])), responses((status = 200, description = "The events after `since`: a JSON array, or with `Accept: application/x-ndjson` a stream of lines that ends with the game", body = Vec<VersionedEvent>, headers(("x-next-since" = u64, description = "A full page: the `since` of the next one"))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn events(
    State(state): State<AppState>,
    GamePath(id): GamePath,
    GameSeat { hash: seat, .. }: GameSeat,
    Query(query): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let wants_stream = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("application/x-ndjson"));
    // Checked for either shape, so a request is refused or served alike whatever it accepts.
    let limit = query.limit.unwrap_or(MAX_EVENTS_PAGE);
    if !(1..=MAX_EVENTS_PAGE).contains(&limit) {
        return Err(ApiError::BadRequest("limit is 1 to 1000".into()));
    }
    if !wants_stream {
        let events = state
            .registry
            .events(&id, seat.as_ref(), query.since, limit)
            .await?;
        // A full page may have more after it: the next page starts after its last event.
        let next = events.last().filter(|_| events.len() == limit);
        let next = next.map(|e| e.version.to_string());
        let mut response = Json(events).into_response();
        if let Some(version) = next {
            response
                .headers_mut()
                .insert("x-next-since", version.parse().expect("a number"));
        }
        return Ok(response);
    }
    let (subscription, actor) = state
        .registry
        .subscribe(&id, seat.as_ref(), Some(query.since))
        .await?;
    let shutdown = state.shutdown.clone();
    let registry = state.registry.clone();
    let stream = async_stream(move |sender| async move {
        let seat = subscription.seat;
        stream_events(subscription, query.since, sender, shutdown).await;
        // The stream is closed: its player is no longer present by it. A stream's client says
        // nothing back, so it was last heard from as it closed.
        let last_heard = registry.now_ms();
        let _ = actor.send(Command::Unsubscribe { seat, last_heard }).await;
    });
    Ok(ndjson_response(stream))
}

/// Sends the missed events and then each new one as a line, until the game ends, the client
/// goes, or the server shuts down.
async fn stream_events(
    subscription: Subscription,
    since: u64,
    sender: tokio::sync::mpsc::Sender<Bytes>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let mut receiver = subscription.events;
    let mut last = since;
    let mut over = subscription.snapshot.status.is_over();
    for event in subscription.missed {
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
                Ok(published) => if let Published::Event { version, json, snapshot, .. } = &*published
                    && *version > last
                {
                    last = *version;
                    // The snapshot is the game after the event's whole batch: over only once
                    // the batch's last event (a move's `finished` follows the move) is sent.
                    over = snapshot.version == *version && snapshot.status.is_over();
                    let mut text = Vec::with_capacity(json.len() + 1);
                    text.extend_from_slice(json.as_bytes());
                    text.push(b'\n');
                    if sender.send(Bytes::from(text)).await.is_err() { return; }
                },
                // Fell behind or the game's actor stopped: the client resumes with `since`.
                Err(_) => return,
            },
            _ = keep_alive.tick() => if sender.send(Bytes::from_static(b"\n")).await.is_err() { return; },
            // The client went away (hyper dropped the body): its player is away now, not at
            // the next keep-alive line.
            () = sender.closed() => return,
            _ = shutdown.changed() => return,
        }
    }
}

/// A streamed NDJSON answer (events, or a player's notices).
pub(super) fn ndjson_response(body: Body) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(body)
        .expect("a valid response")
}

/// One line of NDJSON.
pub(super) fn line<T: Serialize>(item: &T) -> Bytes {
    let mut text = serde_json::to_vec(item).expect("events and notices serialise");
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
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// waiting, playing, finished (the default) or aborted.
    #[serde(default)]
    status: Option<String>,
    /// 1 to 200 (50 by default).
    #[serde(default)]
    #[param(minimum = 1, maximum = 200)]
    limit: Option<i64>,
    /// Only games strictly earlier than this (ms) by the listing's order: when they ended for
    /// finished and aborted games, when they were created for live ones.
    #[serde(default)]
    before: Option<i64>,
    /// With `before`: the last game listed, so the page also holds the games of that same
    /// millisecond that come after it (by id, descending).
    #[serde(default)]
    #[param(pattern = "^[0-9A-Za-z]{1,64}$")]
    before_id: Option<String>,
}

/// Where a listing's page begins, from its `before` and `before_id` parameters.
pub(super) fn page_after(
    before: Option<i64>,
    before_id: Option<&str>,
) -> Result<PageAfter, ApiError> {
    let game_id = before_id
        .map(|id| {
            id.parse::<GameId>()
                .map_err(|_| ApiError::BadRequest("before_id is a game id".into()))
        })
        .transpose()?;
    match (before, game_id) {
        (None, Some(_)) => Err(ApiError::BadRequest("before_id goes with before".into())),
        (None, None) => Ok(PageAfter::START),
        (Some(at), game_id) => Ok(PageAfter { at, game_id }),
    }
}

/// A stored game in a listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    #[schema(value_type = String)]
    game_id: GameId,
    #[schema(value_type = String)]
    variant: Variant,
    mode: Mode,
    status: Status,
    created_at: i64,
    finished_at: Option<i64>,
    /// Finished games: how it ended.
    result: Option<SummaryResult>,
}

/// How a listed game ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct SummaryResult {
    /// Null for a draw.
    #[schema(value_type = Option<String>)]
    winner: Option<Side>,
    #[schema(value_type = String)]
    termination: ludus_engine::Termination,
}

/// Stored games of a status, newest first: `GET /api/v1/games?status=finished&limit=&before=`.
/// Live games (waiting, playing) appear only when created with `listed`.
#[utoipa::path(get, path = "/api/v1/games", tag = "games", params(ListQuery), responses((status = 200, body = Vec<GameSummary>), (status = 400, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let status = match query.status.as_deref() {
        None => Status::Finished,
        Some(name) => ludus_store::parse_name(name).map_err(|_| {
            ApiError::BadRequest("status is waiting, playing, finished or aborted".into())
        })?,
    };
    let limit = query.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::BadRequest("limit is 1 to 200".into()));
    }
    let rows = state
        .registry
        .store()
        .list_games(
            status,
            limit,
            &page_after(query.before, query.before_id.as_deref())?,
        )
        .await?;
    Ok(Json(
        rows.into_iter()
            .map(|row| GameSummary {
                game_id: row.id,
                variant: row.variant,
                mode: row.mode,
                status: row.status,
                created_at: row.created_at,
                finished_at: row.finished_at,
                result: row.result.map(|r| SummaryResult {
                    winner: r.winner,
                    termination: r.termination,
                }),
            })
            .collect(),
    ))
}
