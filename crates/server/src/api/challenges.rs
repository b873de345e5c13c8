//! Challenges between accounts and the event stream that carries them (lichess's Board and Bot
//! APIs, for these games): a challenge names a player, a variant and the game's terms; accepting it
//! starts an online game with both seats held by the two accounts, and both streams receive
//! `game_start` with their own seat token. A challenge unanswered for 10 minutes lapses.

use super::accounts::Identity;
use super::games::{
    CreateBody, async_stream, entropy, entropy_of, line, ndjson_response, validate,
};
use super::{ApiJson, AppState};
use crate::error::ApiError;
use crate::game::services::Seeding;
use crate::players::credentials::new_id;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use ludus_engine::Variant;
use ludus_engine::dice::{self, ServerSeed};
use ludus_store::{ChallengeAnswer, ChallengeRow};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;

/// A challenge lapses when unanswered this long.
pub const CHALLENGE_LAPSES_AFTER_MS: i64 = 10 * 60 * 1000;
/// An empty line this often keeps an idle stream (and the proxies before it) open.
const KEEP_ALIVE: Duration = Duration::from_secs(10);

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeBody {
    /// The player challenged.
    #[schema(min_length = 2, max_length = 20, pattern = "^[A-Za-z0-9_-]+$")]
    username: String,
    #[schema(value_type = crate::variants::VariantId)]
    variant: String,
    /// As a game's creation takes it (kept as given, and validated by the games' own rules when
    /// the game is made).
    #[serde(default)]
    #[schema(value_type = Option<crate::game::ClockSettings>)]
    clock: Option<Value>,
    /// The challenger's side: first, second or random.
    #[serde(default)]
    #[schema(value_type = Option<super::games::SideChoice>)]
    side: Option<String>,
    #[serde(default)]
    rated: Option<bool>,
    /// Mixed into a dice game's seed (docs/RULES.md §4), as a game's creator gives it: at most
    /// 256 characters.
    #[serde(default)]
    #[schema(max_length = 256)]
    entropy: Option<String>,
}

/// The terms as a game's creation body (validated by the games' own rules).
fn creation(variant: &str, terms: &Value) -> Result<CreateBody, ApiError> {
    let mut body = json!({ "variant": variant, "mode": "online", "clock": terms["clock"] });
    if let Some(side) = terms["side"].as_str() {
        body["side"] = json!(side);
    }
    if let Some(rated) = terms["rated"].as_bool() {
        body["rated"] = json!(rated);
    }
    serde_json::from_value(body).map_err(|e| ApiError::BadRequest(format!("the challenge: {e}")))
}

#[utoipa::path(post, path = "/api/v1/challenges", tag = "players", request_body = ChallengeBody, security(("bearer" = []), ("cookie" = [])), responses((status = 201, description = "`{\"challenge_id\"}`"), (status = 400, description = "bad terms, or a challenge to yourself", body = super::docs::ErrorBody), (status = 401, body = super::docs::ErrorBody), (status = 404, description = "no such player", body = super::docs::ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<ChallengeBody>,
) -> Result<Response, ApiError> {
    let store = state.registry.store();
    let mut terms = json!({
        "challenger": identity.account.username,
        "variant": body.variant,
        "clock": body.clock,
        "side": body.side.unwrap_or_else(|| "random".into()),
        "rated": body.rated.unwrap_or(true),
    });
    let request = validate(creation(&body.variant, &terms)?, None)?;
    let challenged = store
        .account_named(&body.username)
        .await?
        .filter(|a| !a.deleted)
        .ok_or_else(|| ApiError::NotFound("player".into()))?;
    terms["challenged"] = json!(challenged.username);
    if challenged.id == identity.account.id {
        return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
    }
    // A dice game's seed is drawn now, so that the challenged player sees its commitment before
    // adding their entropy at the accept: the server cannot choose it knowing theirs.
    let server_seed = ServerSeed(rand::random());
    let challenge = ChallengeRow {
        id: new_id(),
        challenger_id: identity.account.id.clone(),
        challenged_id: challenged.id.clone(),
        variant: request.variant.id().to_string(),
        terms: terms.to_string(),
        status: "pending".into(),
        created_at: state.registry.now_ms(),
        game_id: None,
        server_seed: dice::to_hex(&server_seed.0),
        entropy: entropy(body.entropy)?,
    };
    store.create_challenge(&challenge).await?;
    state.notifier.notify(
        &challenged.id,
        challenge_notice(&challenge),
        false,
        challenge.created_at,
    );
    Ok((
        StatusCode::CREATED,
        Json(json!({ "challenge_id": challenge.id })),
    )
        .into_response())
}

/// `{"type": "challenge", "challenge_id", "challenger", "challenged", "variant", "clock", "side",
/// "rated", "created_at", "commitment"?}`: a dice game's commitment to its seed, which the
/// accept's entropy is added to.
fn challenge_notice(challenge: &ChallengeRow) -> Value {
    let mut notice: Value = serde_json::from_str(&challenge.terms).unwrap_or_else(|_| json!({}));
    notice["type"] = json!("challenge");
    notice["challenge_id"] = json!(challenge.id);
    notice["created_at"] = json!(challenge.created_at);
    if let Some(seed) = seed_of(challenge) {
        notice["commitment"] = json!(dice::to_hex(&seed.commitment()));
    }
    notice
}

/// A dice game's seed drawn with the challenge (none for other variants, and for a challenge
/// made before seeds were drawn with them).
fn seed_of(challenge: &ChallengeRow) -> Option<ServerSeed> {
    let variant: Variant = challenge.variant.parse().ok()?;
    (variant.dice_per_roll() > 0)
        .then(|| dice::from_hex(&challenge.server_seed).map(ServerSeed))
        .flatten()
}

#[utoipa::path(get, path = "/api/v1/challenges", tag = "players", security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "`{\"incoming\": [challenge], \"outgoing\": [challenge]}`: the pending challenges to and from the account, oldest first, each as the stream's `challenge` notice"), (status = 401, body = super::docs::ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    identity: Identity,
) -> Result<Json<Value>, ApiError> {
    let account_id = &identity.account.id;
    let pending = state
        .registry
        .store()
        .pending_challenges(
            account_id,
            state.registry.now_ms() - CHALLENGE_LAPSES_AFTER_MS,
        )
        .await?;
    let (outgoing, incoming): (Vec<_>, Vec<_>) = pending
        .iter()
        .partition(|challenge| challenge.challenger_id == *account_id);
    let notices =
        |list: Vec<&ChallengeRow>| list.into_iter().map(challenge_notice).collect::<Vec<_>>();
    Ok(Json(
        json!({ "incoming": notices(incoming), "outgoing": notices(outgoing) }),
    ))
}

/// The challenge, if it exists; `forbidden` unless `who` is the party that may answer this way.
async fn challenge_for(
    state: &AppState,
    id: &str,
    identity: &Identity,
    answer: Answer,
) -> Result<ChallengeRow, ApiError> {
    let challenge = state
        .registry
        .store()
        .load_challenge(id)
        .await?
        .ok_or_else(|| ApiError::NotFound("challenge".into()))?;
    let party = match answer {
        Answer::Accept | Answer::Decline => &challenge.challenged_id,
        Answer::Cancel => &challenge.challenger_id,
    };
    if *party != identity.account.id {
        return Err(ApiError::Forbidden(format!(
            "only the {} may {} this challenge",
            match answer {
                Answer::Cancel => "challenger",
                _ => "challenged player",
            },
            answer.verb()
        )));
    }
    Ok(challenge)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Accept,
    Decline,
    Cancel,
}

impl Answer {
    fn verb(self) -> &'static str {
        match self {
            Answer::Accept => "accept",
            Answer::Decline => "decline",
            Answer::Cancel => "cancel",
        }
    }

    fn status(self) -> &'static str {
        match self {
            Answer::Accept => "accepted",
            Answer::Decline => "declined",
            Answer::Cancel => "canceled",
        }
    }
}

/// Moves a pending challenge to the answer's status, once; a lapsed or answered one is a conflict.
async fn answer(
    state: &AppState,
    challenge: &ChallengeRow,
    answer: Answer,
) -> Result<(), ApiError> {
    let answered = state
        .registry
        .store()
        .answer_challenge(&ChallengeAnswer {
            id: &challenge.id,
            status: answer.status(),
            created_after: state.registry.now_ms() - CHALLENGE_LAPSES_AFTER_MS,
        })
        .await?;
    if answered {
        Ok(())
    } else {
        Err(ApiError::Conflict(
            "the challenge was answered, canceled or has lapsed".into(),
        ))
    }
}

#[utoipa::path(post, path = "/api/v1/challenges/{id}/accept", tag = "players", params(("id" = String, Path)), request_body(content = Option<super::games::JoinBody>, description = "Optional: the accepting player's entropy, mixed into a dice game's seed after its commitment (the challenge's `commitment`)"), security(("bearer" = []), ("cookie" = [])), responses((status = 400, description = "a malformed body", body = super::docs::ErrorBody), (status = 200, description = "`{\"game_id\", \"seat\": {\"side\", \"token\"}}`"), (status = 401, body = super::docs::ErrorBody), (status = 403, description = "not your challenge to accept", body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody), (status = 409, description = "answered, canceled or lapsed", body = super::docs::ErrorBody)))]
pub async fn accept(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let joiner_entropy = entropy_of(&body, "the accept body")?;
    let challenge = challenge_for(&state, &id, &identity, Answer::Accept).await?;
    answer(&state, &challenge, Answer::Accept).await?;
    let terms: Value = serde_json::from_str(&challenge.terms).unwrap_or_else(|_| json!({}));
    // The challenger holds the creator's seat, the challenged takes the other by the invite; the
    // game's seed is the one the challenge committed to.
    let mut request = validate(
        creation(&challenge.variant, &terms)?,
        Some(&challenge.challenger_id),
    )?;
    request.seeding = Seeding {
        server_seed: seed_of(&challenge),
        creator_entropy: challenge.entropy.clone(),
        ..Seeding::default()
    };
    let variant = request.variant;
    let registry = &state.registry;
    let created = registry.create(request).await?;
    let game_id = created.game_id.clone();
    let invite = created
        .invite
        .as_ref()
        .expect("an online game has an invite");
    let joined = registry
        .join(invite, None, joiner_entropy, Some(&challenge.challenged_id))
        .await?;
    let joiner = variant
        .player(joined.side)
        .expect("the joiner's side is the variant's");
    registry
        .store()
        .set_challenge_game(&challenge.id, &game_id)
        .await?;
    let now = registry.now_ms();
    let seat = |player, token: &str| json!({ "side": variant.side(player), "token": token });
    let start = |player, token: &str| json!({ "type": "game_start", "game_id": game_id, "challenge_id": challenge.id, "seat": seat(player, token) });
    state.notifier.notify(
        &challenge.challenger_id,
        start(created.side, created.token.as_str()),
        true,
        now,
    );
    state.notifier.notify(
        &challenge.challenged_id,
        start(joiner, joined.token.as_str()),
        false,
        now,
    );
    Ok(Json(
        json!({ "game_id": game_id, "seat": seat(joiner, joined.token.as_str()) }),
    ))
}

macro_rules! refusal_endpoint {
    ($name:ident, $answer:expr, $path:literal, $notice:literal, $tell:ident, $what:literal) => {
        #[doc = $what]
        #[utoipa::path(post, path = $path, tag = "players", params(("id" = String, Path)), security(("bearer" = []), ("cookie" = [])), responses((status = 204, description = $what), (status = 401, body = super::docs::ErrorBody), (status = 403, body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody), (status = 409, description = "answered, canceled or lapsed", body = super::docs::ErrorBody)))]
        pub async fn $name(
            State(state): State<AppState>,
            identity: Identity,
            Path(id): Path<String>,
        ) -> Result<StatusCode, ApiError> {
            let challenge = challenge_for(&state, &id, &identity, $answer).await?;
            answer(&state, &challenge, $answer).await?;
            state.notifier.notify(
                &challenge.$tell,
                json!({ "type": $notice, "challenge_id": challenge.id }),
                false,
                state.registry.now_ms(),
            );
            Ok(StatusCode::NO_CONTENT)
        }
    };
}

refusal_endpoint!(
    decline,
    Answer::Decline,
    "/api/v1/challenges/{id}/decline",
    "challenge_declined",
    challenger_id,
    "The challenged player declines."
);
refusal_endpoint!(
    cancel,
    Answer::Cancel,
    "/api/v1/challenges/{id}/cancel",
    "challenge_canceled",
    challenged_id,
    "The challenger withdraws the challenge."
);

#[utoipa::path(get, path = "/api/v1/stream/events", tag = "players", security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "NDJSON: pending `challenge`s, then `challenge`, `challenge_canceled`, `challenge_declined` and `game_start` as they happen; an empty line every 10 s", content_type = "application/x-ndjson"), (status = 401, body = super::docs::ErrorBody)))]
pub async fn stream(
    State(state): State<AppState>,
    identity: Identity,
) -> Result<Response, ApiError> {
    let account_id = identity.account.id;
    let now = state.registry.now_ms();
    let (waiting, mut receiver) = state.notifier.subscribe(&account_id, now);
    let pending = state
        .registry
        .store()
        .pending_challenges(&account_id, now - CHALLENGE_LAPSES_AFTER_MS)
        .await?;
    let mut first: Vec<Value> = pending
        .iter()
        .filter(|challenge| challenge.challenged_id == account_id)
        .map(challenge_notice)
        .collect();
    first.extend(waiting);
    let mut shutdown = state.shutdown.clone();
    let body = async_stream(move |sender| async move {
        for notice in first {
            if sender.send(line(&notice)).await.is_err() {
                return;
            }
        }
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            tokio::select! {
                notice = receiver.recv() => match notice {
                    Ok(notice) => if sender.send(line(&notice)).await.is_err() { return; },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                },
                _ = keep_alive.tick() => if sender.send(Bytes::from_static(b"\n")).await.is_err() { return; },
                _ = shutdown.changed() => return,
            }
        }
    });
    Ok(ndjson_response(body))
}
