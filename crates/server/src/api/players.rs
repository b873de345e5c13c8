//! Players' results: profiles, their finished games, leaderboards, who sits at a game, and seats
//! given to an account (taken while identified, or attached later with their seat tokens).
//!
//! What counts (docs/API.md "Players and bots"): online games in results and, between two
//! accounts unless created unrated, in Glicko-2 ratings; computer games per level; shared-screen
//! and aborted games nowhere. Ratings are written by the store when a game finishes.

use super::accounts::Identity;
use super::{ApiJson, AppState, GamePath};
use crate::error::ApiError;
use crate::game::{Mode, Settings};
use crate::players::credentials::DELETED;
use axum::Json;
use axum::extract::{Path, Query, State};
use ludus_engine::{Player, Variant};
use ludus_store::{AccountRow, GameId, PlayedGame, SecretHash};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// Rated games a player needs before appearing on a leaderboard.
const LEADERBOARD_MIN_GAMES: i64 = 5;
const LEADERBOARD_SIZE: i64 = 100;
/// The most seat tokens attached in one request.
const MAX_ATTACH: usize = 200;

/// Gives the seat of `player` in a new or joined game to the identified account, if any.
pub async fn take_seat(
    state: &AppState,
    account_id: Option<&str>,
    game_id: &GameId,
    variant: Variant,
    player: Player,
) -> Result<(), ApiError> {
    if let Some(account_id) = account_id {
        state
            .registry
            .store()
            .own_seat(
                game_id,
                player.index() as i64,
                variant.side(player).name(),
                account_id,
            )
            .await?;
    }
    Ok(())
}

async fn live_account(state: &AppState, username: &str) -> Result<AccountRow, ApiError> {
    state
        .registry
        .store()
        .account_named(username)
        .await?
        .filter(|a| !a.deleted)
        .ok_or_else(|| ApiError::NotFound("player".into()))
}

/// A game's result for the player: "win", "loss" or "draw".
fn result_for(game: &PlayedGame) -> &'static str {
    match &game.winner {
        None => "draw",
        Some(w) if *w == game.side => "win",
        Some(_) => "loss",
    }
}

fn level_of(game: &PlayedGame) -> Option<u8> {
    serde_json::from_str::<Settings>(&game.settings)
        .ok()
        .and_then(|s| s.level)
        .map(|level| level.number())
}

/// Adds one result to a `{"wins", "draws", "losses"}` tally (and `games` when present).
fn tally(counts: &mut Value, result: &str) {
    let key = match result {
        "win" => "wins",
        "loss" => "losses",
        _ => "draws",
    };
    counts[key] = json!(counts[key].as_u64().unwrap_or(0) + 1);
    if counts.get("games").is_some() {
        counts["games"] = json!(counts["games"].as_u64().unwrap_or(0) + 1);
    }
}

#[utoipa::path(get, path = "/api/v1/players/{username}", tag = "players", params(("username" = String, Path)), responses((status = 200, description = "`{\"username\", \"created_at\", \"variants\": {variant: {games, wins, draws, losses, rating, deviation}}, \"computer\": {variant: {level: {wins, draws, losses}}}, \"history\": {variant: [{at, rating}]}}`"), (status = 404, body = super::docs::ErrorBody)))]
pub async fn profile(
    State(state): State<AppState>,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let account = live_account(&state, &username).await?;
    let store = state.registry.store();
    let games = store.played_games(&account.id, i64::MAX, None).await?;
    let mut variants = Map::new();
    let mut computer = Map::new();
    for game in &games {
        let result = result_for(game);
        if game.mode == Mode::Computer.name() {
            let level = level_of(game).unwrap_or(1).to_string();
            let levels = computer
                .entry(game.variant.clone())
                .or_insert_with(|| json!({}));
            let counts = levels
                .as_object_mut()
                .expect("an object")
                .entry(level)
                .or_insert_with(|| json!({ "wins": 0, "draws": 0, "losses": 0 }));
            tally(counts, result);
        } else {
            let counts = variants.entry(game.variant.clone()).or_insert_with(|| {
                json!({ "games": 0, "wins": 0, "draws": 0, "losses": 0, "rating": null, "deviation": null })
            });
            tally(counts, result);
        }
    }
    for rating in store.ratings_of(&account.id).await? {
        let entry = variants
            .entry(rating.variant)
            .or_insert_with(|| json!({ "games": 0, "wins": 0, "draws": 0, "losses": 0 }));
        entry["rating"] = json!(rating.rating.round());
        entry["deviation"] = json!(rating.deviation.round());
    }
    let mut history = Map::new();
    for point in store.rating_history(&account.id).await? {
        let points = history.entry(point.variant).or_insert_with(|| json!([]));
        points
            .as_array_mut()
            .expect("an array")
            .push(json!({ "at": point.at, "rating": point.rating.round() }));
    }
    Ok(Json(json!({
        "username": account.username,
        "created_at": account.created_at,
        "variants": variants,
        "computer": computer,
        "history": history,
    })))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct GamesQuery {
    #[serde(default)]
    limit: Option<i64>,
    /// Only games finished strictly before this time (milliseconds), for the next page.
    #[serde(default)]
    before: Option<i64>,
}

#[utoipa::path(get, path = "/api/v1/players/{username}/games", tag = "players", params(("username" = String, Path), GamesQuery), responses((status = 200, description = "Finished games, newest first: `[{game_id, variant, mode, level, side, opponent, result, termination, finished_at, rating_before, rating_after, rating_change}]`"), (status = 400, body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody)))]
pub async fn games(
    State(state): State<AppState>,
    Path(username): Path<String>,
    Query(query): Query<GamesQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = query.limit.unwrap_or(20);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::BadRequest("limit is 1 to 200".into()));
    }
    let account = live_account(&state, &username).await?;
    let games = state
        .registry
        .store()
        .played_games(&account.id, limit, query.before)
        .await?;
    let games: Vec<Value> = games
        .iter()
        .map(|game| {
            let opponent = match (&game.opponent, game.opponent_deleted) {
                (_, Some(true)) => json!(DELETED),
                (Some(name), _) => json!(name),
                (None, _) if game.mode == Mode::Computer.name() => json!("computer"),
                (None, _) => Value::Null,
            };
            let change = game
                .rating_before
                .zip(game.rating_after)
                .map(|(before, after)| (after - before).round());
            json!({
                "game_id": game.game_id,
                "variant": game.variant,
                "mode": game.mode,
                "level": level_of(game),
                "side": game.side,
                "opponent": opponent,
                "result": result_for(game),
                "termination": game.termination,
                "finished_at": game.finished_at,
                "rating_before": game.rating_before.map(f64::round),
                "rating_after": game.rating_after.map(f64::round),
                "rating_change": change,
            })
        })
        .collect();
    Ok(Json(json!(games)))
}

#[utoipa::path(get, path = "/api/v1/leaderboard/{variant}", tag = "players", params(("variant" = String, Path)), responses((status = 200, description = "The top 100 by rating with at least 5 rated games: `[{rank, username, rating, deviation, games}]`"), (status = 400, body = super::docs::ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(variant): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let variant: Variant = variant
        .parse()
        .map_err(|e: ludus_engine::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    let leaders = state
        .registry
        .store()
        .leaderboard(variant.id(), LEADERBOARD_MIN_GAMES, LEADERBOARD_SIZE)
        .await?;
    let rows: Vec<Value> = leaders
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            json!({ "rank": i + 1, "username": l.username, "rating": l.rating.round(), "deviation": l.deviation.round(), "games": l.games })
        })
        .collect();
    Ok(Json(json!(rows)))
}

#[utoipa::path(get, path = "/api/v1/games/{id}/players", tag = "players", params(("id" = String, Path)), responses((status = 200, description = "Who holds each seat: `[{side, username, rating}]` (\"deleted\" for a deleted account; seats without an account are left out)"), (status = 404, body = super::docs::ErrorBody)))]
pub async fn seat_holders(
    State(state): State<AppState>,
    GamePath(id): GamePath,
) -> Result<Json<Value>, ApiError> {
    let holders = state.registry.store().seat_holders(&id).await?;
    let holders: Vec<Value> = holders
        .into_iter()
        .map(|h| {
            if h.deleted {
                json!({ "side": h.side, "username": DELETED, "rating": null })
            } else {
                json!({ "side": h.side, "username": h.username, "rating": h.rating.map(f64::round) })
            }
        })
        .collect();
    Ok(Json(json!(holders)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachBody {
    /// Seat tokens this browser holds.
    tokens: Vec<String>,
}

#[utoipa::path(post, path = "/api/v1/account/seats", tag = "players", request_body = AttachBody, security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "`{\"attached\": n}`: the seats now the account's (seats another account holds stay its)"), (status = 400, body = super::docs::ErrorBody), (status = 401, body = super::docs::ErrorBody)))]
pub async fn attach_seats(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<AttachBody>,
) -> Result<Json<Value>, ApiError> {
    if body.tokens.len() > MAX_ATTACH {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_ATTACH} tokens at once"
        )));
    }
    let hashes: Vec<SecretHash> = body
        .tokens
        .iter()
        .filter(|t| crate::game::token::SeatToken::parse(t).is_some())
        .map(|t| SecretHash::of(t))
        .collect();
    let store = state.registry.store();
    let mut attached = 0;
    for seat in store.seats_of_tokens(&hashes).await? {
        // A shared-screen game counts nowhere; its one token opens both seats.
        let (Ok(variant), Ok(game_id)) = (
            seat.variant.parse::<Variant>(),
            seat.game_id.parse::<GameId>(),
        ) else {
            continue;
        };
        if seat.mode == Mode::Local.name() {
            continue;
        }
        for (player, hash) in [
            (Player::First, &seat.seat0_hash),
            (Player::Second, &seat.seat1_hash),
        ] {
            if hash
                .as_deref()
                .is_some_and(|h| hashes.iter().any(|mine| mine.as_str() == h))
                && store
                    .own_seat(
                        &game_id,
                        player.index() as i64,
                        variant.side(player).name(),
                        &identity.account.id,
                    )
                    .await?
            {
                attached += 1;
            }
        }
    }
    Ok(Json(json!({ "attached": attached })))
}
