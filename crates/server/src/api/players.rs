//! Players' results: profiles, their finished games, leaderboards, who sits at a game, and seats
//! given to an account (taken while identified, or attached later with their seat tokens).
//!
//! What counts (docs/API.md "Players and bots"): online games in results and, between two
//! accounts unless created unrated, in Glicko-2 ratings; computer games per level; shared-screen
//! and aborted games nowhere. Ratings are written by the store when a game finishes.

use super::accounts::Identity;
use super::games::page_after;
use super::{ApiJson, AppState, GamePath};
use crate::error::ApiError;
use crate::game::{Mode, Settings};
use crate::players::credentials::DELETED;
use axum::Json;
use axum::extract::{Path, Query, State};
use ludus_engine::{Player, Variant};
use ludus_store::{AccountRow, GameId, PageAfter, PlayedGame, SeatOwner, SecretHash};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Rated games a player needs before appearing on a leaderboard.
const LEADERBOARD_MIN_GAMES: i64 = 5;
const LEADERBOARD_SIZE: i64 = 100;
/// The most seat tokens attached in one request.
const MAX_ATTACH: usize = 200;

/// `account_id` holding `player`'s seat in a game of `variant`.
pub fn seat_owner(account_id: &str, variant: Variant, player: Player) -> SeatOwner<'_> {
    SeatOwner {
        account_id,
        player: player.index() as i64,
        side: variant.side(player).name(),
    }
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

/// A player's wins, draws and losses (at one level of the computer, or within a variant).
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
pub struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
}

impl Tally {
    fn add(&mut self, result: &str) {
        match result {
            "win" => self.wins += 1,
            "loss" => self.losses += 1,
            _ => self.draws += 1,
        }
    }
}

/// A player's online record in one variant, and their rating once they have one.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
pub struct VariantRecord {
    games: u64,
    #[serde(flatten)]
    tally: Tally,
    rating: Option<f64>,
    deviation: Option<f64>,
}

/// One point of a player's rating history.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RatingAt {
    at: i64,
    rating: f64,
}

/// A player's profile: online records and ratings per variant, computer results per variant and
/// level, and rating history per variant.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Profile {
    username: String,
    created_at: i64,
    variants: BTreeMap<String, VariantRecord>,
    /// Variant, then level ("1", "2", …); games played with a hint or a takeback are not counted.
    computer: BTreeMap<String, BTreeMap<String, Tally>>,
    history: BTreeMap<String, Vec<RatingAt>>,
}

#[utoipa::path(get, path = "/api/v1/players/{username}", tag = "players", params(("username" = String, Path)), responses((status = 200, body = Profile), (status = 404, body = super::docs::ErrorBody)))]
pub async fn profile(
    State(state): State<AppState>,
    Path(username): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let account = live_account(&state, &username).await?;
    let store = state.registry.store();
    let games = store
        .played_games(&account.id, i64::MAX, &PageAfter::START)
        .await?;
    let mut variants: BTreeMap<String, VariantRecord> = BTreeMap::new();
    let mut computer: BTreeMap<String, BTreeMap<String, Tally>> = BTreeMap::new();
    for game in &games {
        let result = result_for(game);
        if game.mode == Mode::Computer.name() {
            // Won with the computer's own hints, or by taking moves back, it is not a result
            // against the level (the game stays in the list, marked).
            if game.assisted {
                continue;
            }
            let level = level_of(game).unwrap_or(1).to_string();
            computer
                .entry(game.variant.clone())
                .or_default()
                .entry(level)
                .or_default()
                .add(result);
        } else {
            let record = variants.entry(game.variant.clone()).or_default();
            record.games += 1;
            record.tally.add(result);
        }
    }
    for rating in store.ratings_of(&account.id).await? {
        let record = variants.entry(rating.variant).or_default();
        record.rating = Some(rating.rating.round());
        record.deviation = Some(rating.deviation.round());
    }
    let mut history: BTreeMap<String, Vec<RatingAt>> = BTreeMap::new();
    for point in store.rating_history(&account.id).await? {
        history.entry(point.variant).or_default().push(RatingAt {
            at: point.at,
            rating: point.rating.round(),
        });
    }
    Ok(Json(Profile {
        username: account.username,
        created_at: account.created_at,
        variants,
        computer,
        history,
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct GamesQuery {
    #[serde(default)]
    limit: Option<i64>,
    /// Only games finished strictly before this time (milliseconds), for the next page.
    #[serde(default)]
    before: Option<i64>,
    /// With `before`: the last game listed, so the page also holds the games that ended in that
    /// same millisecond after it (by id, descending).
    #[serde(default)]
    #[param(pattern = "^[0-9A-Za-z]{1,64}$")]
    before_id: Option<String>,
}

/// A finished game seen from the player's seat.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PlayedGameSummary {
    game_id: String,
    variant: String,
    mode: String,
    /// The computer's level, in a game against the computer.
    level: Option<u8>,
    side: String,
    /// The opponent's username, "deleted", "computer", or null for a seat without an account.
    opponent: Option<String>,
    /// "win", "loss" or "draw".
    result: &'static str,
    termination: Option<String>,
    finished_at: i64,
    rating_before: Option<f64>,
    rating_after: Option<f64>,
    rating_change: Option<f64>,
    /// Against the computer: the player took a hint or a move back (not counted at the level).
    assisted: bool,
}

#[utoipa::path(get, path = "/api/v1/players/{username}/games", tag = "players", params(("username" = String, Path), GamesQuery), responses((status = 200, description = "Finished games, newest first", body = Vec<PlayedGameSummary>), (status = 400, body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody)))]
pub async fn games(
    State(state): State<AppState>,
    Path(username): Path<String>,
    Query(query): Query<GamesQuery>,
) -> Result<Json<Vec<PlayedGameSummary>>, ApiError> {
    let limit = query.limit.unwrap_or(20);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::BadRequest("limit is 1 to 200".into()));
    }
    let account = live_account(&state, &username).await?;
    let games = state
        .registry
        .store()
        .played_games(
            &account.id,
            limit,
            &page_after(query.before, query.before_id.as_deref())?,
        )
        .await?;
    let games = games
        .into_iter()
        .map(|game| {
            let opponent = shown_name(game.opponent.clone(), game.opponent_deleted)
                .or_else(|| (game.mode == Mode::Computer.name()).then(|| "computer".to_string()));
            let rating_change = shown_change(game.rating_before, game.rating_after);
            PlayedGameSummary {
                level: level_of(&game),
                result: result_for(&game),
                opponent,
                rating_before: game.rating_before.map(f64::round),
                rating_after: game.rating_after.map(f64::round),
                rating_change,
                assisted: game.assisted,
                game_id: game.game_id,
                variant: game.variant,
                mode: game.mode,
                side: game.side,
                termination: game.termination,
                finished_at: game.finished_at,
            }
        })
        .collect();
    Ok(Json(games))
}

/// A place on a variant's leaderboard.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Leader {
    /// 1 for the highest rating.
    rank: usize,
    username: String,
    rating: f64,
    deviation: f64,
    games: i64,
}

#[utoipa::path(get, path = "/api/v1/leaderboard/{variant}", tag = "players", params(("variant" = crate::variants::VariantId, Path)), responses((status = 200, description = "The top 100 by rating with at least 5 rated games", body = Vec<Leader>), (status = 400, body = super::docs::ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(variant): Path<String>,
) -> Result<Json<Vec<Leader>>, ApiError> {
    let variant: Variant = variant
        .parse()
        .map_err(|e: ludus_engine::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    let leaders = state
        .registry
        .store()
        .leaderboard(variant.id(), LEADERBOARD_MIN_GAMES, LEADERBOARD_SIZE)
        .await?;
    let rows = leaders
        .into_iter()
        .enumerate()
        .map(|(i, l)| Leader {
            rank: i + 1,
            username: l.username,
            rating: l.rating.round(),
            deviation: l.deviation.round(),
            games: l.games,
        })
        .collect();
    Ok(Json(rows))
}

/// Who holds one seat of a game.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SeatHolder {
    side: String,
    /// The account's username, or "deleted".
    username: String,
    /// The holder's rating in the game's variant (null when deleted or not yet rated).
    rating: Option<f64>,
    /// What this game's end did to that rating, once it ended rated (null before, or unrated).
    rating_change: Option<f64>,
    /// Whether the game counts for the ratings when both seats are held by accounts: an online
    /// game not created unrated (the same for both holders).
    rated: bool,
}

/// A rated game's change of rating as shown: the difference of the two ratings as they are shown
/// (rounded), so that the three figures agree (1662.4 to 1576.5 is 1662 to 1577, −85 and not −86).
fn shown_change(before: Option<f64>, after: Option<f64>) -> Option<f64> {
    before
        .zip(after)
        .map(|(before, after)| after.round() - before.round())
}

#[utoipa::path(get, path = "/api/v1/games/{id}/players", tag = "players", params(super::GamePath), responses((status = 200, description = "Who holds each seat (\"deleted\" for a deleted account; seats without an account are left out)", body = Vec<SeatHolder>), (status = 404, body = super::docs::ErrorBody)))]
pub async fn seat_holders(
    State(state): State<AppState>,
    GamePath(id): GamePath,
) -> Result<Json<Vec<SeatHolder>>, ApiError> {
    let holders = state.registry.store().seat_holders(&id).await?;
    let holders = holders
        .into_iter()
        .map(|h| {
            if h.deleted {
                SeatHolder {
                    side: h.side,
                    username: DELETED.to_string(),
                    rating: None,
                    rating_change: None,
                    rated: h.rated,
                }
            } else {
                SeatHolder {
                    side: h.side,
                    username: h.username,
                    // A game that ended rated shows the rating it left (a finished game's page
                    // read later showed today's rating beside that game's change).
                    rating: h.rating_after.or(h.rating).map(f64::round),
                    rating_change: shown_change(h.rating_before, h.rating_after),
                    rated: h.rated,
                }
            }
        })
        .collect();
    Ok(Json(holders))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachBody {
    /// Seat tokens this browser holds.
    tokens: Vec<String>,
}

/// How many seats an attach request gave the account.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Attached {
    attached: u64,
}

/// An account's name as others see it: "deleted" once it is.
fn shown_name(username: Option<String>, deleted: Option<bool>) -> Option<String> {
    match deleted {
        Some(true) => Some(DELETED.to_string()),
        _ => username,
    }
}

/// A game in play or waiting that the account holds a seat of.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct LiveGameSummary {
    game_id: String,
    #[schema(value_type = crate::variants::VariantId)]
    variant: String,
    #[schema(value_type = Mode)]
    mode: String,
    /// waiting or playing.
    #[schema(value_type = crate::game::Status)]
    status: String,
    /// The account's side.
    side: String,
    /// The opponent's username, or "deleted"; null for a guest, the computer, or no one yet.
    opponent: Option<String>,
}

/// The account's games in play or waiting, newest first (at most 200): a player finds them on any
/// device, and opens each as its seat (signed in, no seat token needed).
#[utoipa::path(get, path = "/api/v1/account/games", tag = "players", security(("bearer" = []), ("cookie" = [])), responses((status = 200, body = Vec<LiveGameSummary>), (status = 401, body = super::docs::ErrorBody)))]
pub async fn live_games(
    State(state): State<AppState>,
    identity: Identity,
) -> Result<Json<Vec<LiveGameSummary>>, ApiError> {
    let seats = state
        .registry
        .store()
        .live_seats(&identity.account.id)
        .await?;
    Ok(Json(
        seats
            .into_iter()
            .map(|seat| LiveGameSummary {
                game_id: seat.game_id,
                variant: seat.variant,
                mode: seat.mode,
                status: seat.status,
                side: seat.side,
                opponent: shown_name(seat.opponent, seat.opponent_deleted),
            })
            .collect(),
    ))
}

#[utoipa::path(post, path = "/api/v1/account/seats", tag = "players", request_body = AttachBody, security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "The seats now the account's (seats another account holds stay its)", body = Attached), (status = 400, body = super::docs::ErrorBody), (status = 401, body = super::docs::ErrorBody)))]
pub async fn attach_seats(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<AttachBody>,
) -> Result<Json<Attached>, ApiError> {
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
                    .own_seat(&game_id, seat_owner(&identity.account.id, variant, player))
                    .await?
            {
                attached += 1;
            }
        }
    }
    Ok(Json(Attached { attached }))
}

#[cfg(test)]
mod tests {
    use super::shown_change;

    #[test]
    fn a_shown_change_agrees_with_the_shown_ratings() {
        assert_eq!(shown_change(Some(1662.4), Some(1576.5)), Some(-85.0));
        assert_eq!(shown_change(Some(1500.0), Some(1662.2)), Some(162.0));
        assert_eq!(shown_change(Some(1500.0), None), None);
    }
}
