//! Analysis of a position given alone: its canonical form, the side to move, the legal moves, the
//! outcome and the threatened pieces. One function serves `ludus analyze` and the HTTP API.
//! The computer's suggestion for such a position is here too (it needs the server's search queue).

use crate::api::{ApiJson, AppState, ClientAddress};
use crate::error::ApiError;
use axum::Json;
use axum::extract::State;
use ludus_ai::Level;
use ludus_engine::{AnyGame, MoveError, Outcome, PositionError, Side, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What `POST /api/v1/analysis` and `ludus analyze` answer (docs/API.md).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Analysis {
    #[schema(value_type = String)]
    pub variant: Variant,
    pub position: String,
    #[schema(value_type = String)]
    pub to_move: Side,
    pub legal_moves: Vec<String>,
    pub outcome: Option<OutcomeView>,
    /// Each side's threatened squares, points or cells, under the side's name.
    #[schema(value_type = Object)]
    pub threatened: BTreeMap<Side, Vec<String>>,
    /// In dice games: for each threatened piece, how many of the equally likely rolls hit it.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = Option<Object>)]
    pub threat_odds: BTreeMap<Side, BTreeMap<String, ludus_engine::Odds>>,
}

#[derive(Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct OutcomeView {
    #[schema(value_type = Option<String>)]
    pub winner: Option<Side>,
    #[schema(value_type = String)]
    pub termination: ludus_engine::Termination,
}

impl OutcomeView {
    pub fn new(variant: Variant, outcome: Outcome) -> OutcomeView {
        OutcomeView {
            winner: outcome.winner.map(|p| variant.side(p)),
            termination: outcome.termination,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("position: {0}")]
    Position(#[from] PositionError),
    #[error("move {number} ({text:?}): {error}")]
    Move {
        /// The move's place in the list, counted from 1 as a person counts them.
        number: usize,
        text: String,
        error: MoveError,
    },
}

/// Reads the position (with the dice it awaits, if any), plays `moves` in order, and analyses the result.
pub fn analyze(
    variant: Variant,
    position: &str,
    dice: Option<&[u8]>,
    moves: &[String],
) -> Result<Analysis, AnalysisError> {
    let mut game = AnyGame::from_position(variant, position, dice)?;
    for (index, text) in moves.iter().enumerate() {
        game.play_text(text).map_err(|error| AnalysisError::Move {
            number: index + 1,
            text: text.clone(),
            error,
        })?;
    }
    Ok(describe(&game))
}

/// One move of a game being replayed, with the roll it was played on when it began a turn.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayPly {
    #[serde(rename = "move")]
    pub text: String,
    #[serde(default)]
    pub dice: Option<Vec<u8>>,
}

/// The position after each of `plies`, from `position`: each read, with its ply's roll if it has
/// one, and played, as one `analyze` of one move a ply would (a review steps through a game's
/// positions; asked one move at a time, a long game's review asked the server once a move).
pub fn replay(
    variant: Variant,
    position: &str,
    plies: &[ReplayPly],
) -> Result<Vec<String>, AnalysisError> {
    let mut current = position.to_string();
    let mut positions = Vec::with_capacity(plies.len());
    for (index, ply) in plies.iter().enumerate() {
        let mut game = AnyGame::from_position(variant, &current, ply.dice.as_deref())?;
        game.play_text(&ply.text)
            .map_err(|error| AnalysisError::Move {
                number: index + 1,
                text: ply.text.clone(),
                error,
            })?;
        current = game.position();
        positions.push(current.clone());
    }
    Ok(positions)
}

pub fn describe(game: &AnyGame) -> Analysis {
    let variant = game.variant();
    let threats = game.threats();
    let mut threatened = BTreeMap::new();
    let mut threat_odds = BTreeMap::new();
    for player in ludus_engine::Player::BOTH {
        let side = variant.side(player);
        let list = &threats[player.index()];
        threatened.insert(side, list.iter().map(|t| t.place.clone()).collect());
        let odds: BTreeMap<String, _> = list
            .iter()
            .filter_map(|t| Some((t.place.clone(), t.odds?)))
            .collect();
        if !odds.is_empty() {
            threat_odds.insert(side, odds);
        }
    }
    Analysis {
        variant,
        position: game.position(),
        to_move: variant.side(game.to_move()),
        legal_moves: game.legal_moves().iter().map(|m| m.to_string()).collect(),
        outcome: game.outcome().map(|o| OutcomeView::new(variant, o)),
        threatened,
        threat_odds,
    }
}

/// `POST /api/v1/analysis/suggest`: a position given alone (with the dice it awaits, if any).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestBody {
    #[schema(value_type = crate::variants::VariantId)]
    variant: String,
    position: String,
    #[serde(default)]
    dice: Option<Vec<u8>>,
    /// 1 to 5; the strongest when absent.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 5)]
    level: Option<u8>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Suggestion {
    #[serde(rename = "move")]
    pub notation: String,
    pub level: u8,
}

/// The computer's move in a position typed on the analysis board, searched in the hints' queue
/// (never the computer seats'), within the hints' budget of the client's address.
#[utoipa::path(post, path = "/api/v1/analysis/suggest", tag = "analysis", request_body = SuggestBody, responses((status = 200, description = "The move the computer would play at that level", body = Suggestion), (status = 400, description = "bad variant, position, dice or level; or a position that awaits its dice", body = crate::api::docs::ErrorBody), (status = 409, description = "game_over: the position is finished", body = crate::api::docs::ErrorBody), (status = 429, description = "rate_limited: the address's hints and suggestions", body = crate::api::docs::ErrorBody)))]
pub async fn suggest(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    ApiJson(body): ApiJson<SuggestBody>,
) -> Result<Json<Suggestion>, ApiError> {
    state.admit_search(address)?;
    let variant: Variant = body
        .variant
        .parse()
        .map_err(|e: ludus_engine::UnknownVariant| ApiError::BadRequest(e.to_string()))?;
    let level = match body.level {
        None => Level::MAX,
        Some(number) => Level::new(number).ok_or_else(|| {
            ApiError::BadRequest(format!("a level is a number from 1 to 5, not {number}"))
        })?,
    };
    let game = AnyGame::from_position(variant, &body.position, body.dice.as_deref())
        .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?;
    if game.outcome().is_some() {
        return Err(ApiError::GameOver);
    }
    if game.legal_moves().is_empty() {
        return Err(ApiError::BadRequest(
            "the position awaits its dice: give them in \"dice\"".into(),
        ));
    }
    let mv = state
        .registry
        .suggest(game, level)
        .await
        .ok_or(crate::game::error::GameError::NoMove)?;
    Ok(Json(Suggestion {
        notation: mv.to_string(),
        level: level.number(),
    }))
}
