//! Endpoints that are not about one game: the variants, analysis, health, readiness and metrics.

use super::{ApiJson, AppState};
use crate::analysis::{self, Analysis, AnalysisError};
use crate::error::ApiError;
use crate::variants;
use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use ludus_engine::Variant;
use ludus_store::StoreError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[utoipa::path(get, path = "/api/v1/variants", tag = "analysis", responses((status = 200, description = "Every variant: names, sides, dice, board, rules summary, status of the reconstruction, sources", body = Vec<variants::VariantInfo>)))]
pub async fn variants() -> Json<Vec<variants::VariantInfo>> {
    Json(variants::catalogue())
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisBody {
    #[schema(value_type = crate::variants::VariantId)]
    variant: String,
    position: String,
    #[serde(default)]
    dice: Option<Vec<u8>>,
    #[serde(default)]
    moves: Vec<String>,
}

/// A game's moves to replay from a position (`POST /api/v1/analysis/replay`).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayBody {
    #[schema(value_type = crate::variants::VariantId)]
    variant: String,
    position: String,
    /// At most 1000; each with the roll it was played on when it began a turn.
    plies: Vec<analysis::ReplayPly>,
}

/// The position after each ply.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Replayed {
    positions: Vec<String>,
}

/// An analysis's refusal: a position or a move's notation that does not read is a bad request, a
/// move the position does not allow an illegal one, named by its number.
fn refused(error: AnalysisError) -> ApiError {
    match error {
        AnalysisError::Position(e) => ApiError::BadRequest(format!("position: {e}")),
        AnalysisError::Move {
            number,
            text,
            error: ludus_engine::MoveError::Notation(e),
        } => ApiError::BadRequest(format!("move {number} ({text:?}): {e}")),
        AnalysisError::Move {
            number,
            error: ludus_engine::MoveError::Illegal { notation, reason },
            ..
        } => ApiError::IllegalMove {
            notation,
            reason: format!("move {number}: {reason}"),
        },
    }
}

fn parse_variant(text: &str) -> Result<Variant, ApiError> {
    text.parse()
        .map_err(|e: ludus_engine::UnknownVariant| ApiError::BadRequest(e.to_string()))
}

fn analyse(body: AnalysisBody, moves_allowed: bool) -> Result<Json<Analysis>, ApiError> {
    let variant = parse_variant(&body.variant)?;
    if !moves_allowed && !body.moves.is_empty() {
        return Err(ApiError::BadRequest(
            "moves are played by /api/v1/analysis/play".into(),
        ));
    }
    if body.moves.len() > 1000 {
        return Err(ApiError::BadRequest(
            "at most 1000 moves are played in one analysis".into(),
        ));
    }
    analysis::analyze(variant, &body.position, body.dice.as_deref(), &body.moves)
        .map(Json)
        .map_err(refused)
}

#[utoipa::path(post, path = "/api/v1/analysis/replay", tag = "analysis", request_body = ReplayBody, responses((status = 200, description = "The position after each ply", body = Replayed), (status = 400, body = super::docs::ErrorBody), (status = 422, description = "the first illegal move", body = super::docs::ErrorBody)))]
pub async fn analysis_replay(
    ApiJson(body): ApiJson<ReplayBody>,
) -> Result<Json<Replayed>, ApiError> {
    let variant = parse_variant(&body.variant)?;
    if body.plies.len() > 1000 {
        return Err(ApiError::BadRequest(
            "at most 1000 plies are replayed in one request".into(),
        ));
    }
    analysis::replay(variant, &body.position, &body.plies)
        .map(|positions| Json(Replayed { positions }))
        .map_err(refused)
}

#[utoipa::path(post, path = "/api/v1/analysis", tag = "analysis", request_body = AnalysisBody, responses((status = 200, description = "variant, position, to_move, legal_moves, outcome, threatened (and threat_odds in dice games)", body = Analysis), (status = 400, body = super::docs::ErrorBody)))]
pub async fn analysis(ApiJson(body): ApiJson<AnalysisBody>) -> Result<Json<Analysis>, ApiError> {
    analyse(body, false)
}

#[utoipa::path(post, path = "/api/v1/analysis/play", tag = "analysis", request_body = AnalysisBody, responses((status = 200, description = "The analysis after the moves", body = Analysis), (status = 400, body = super::docs::ErrorBody), (status = 422, description = "the first illegal move", body = super::docs::ErrorBody)))]
pub async fn analysis_play(
    ApiJson(body): ApiJson<AnalysisBody>,
) -> Result<Json<Analysis>, ApiError> {
    analyse(body, true)
}

/// The answer of the health and readiness checks.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// ok (the process is up), ready, or unavailable.
    status: &'static str,
    /// When unavailable: what does not answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    database: Option<&'static str>,
}

#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "The process is up", body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok",
        database: None,
    })
}

/// How long `/readyz` waits for the database.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

#[utoipa::path(get, path = "/readyz", tag = "operations", responses((status = 200, description = "The database answers", body = Health), (status = 503, description = "The database does not answer", body = Health)))]
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    // Within a health check's own timeout (3 s in the image): a database gone makes the pool wait
    // its 10 s for a connection, and a check that times out says less than a 503.
    let answered = tokio::time::timeout(READY_WITHIN, state.registry.store().ping()).await;
    match answered.unwrap_or_else(|_| Err(StoreError::TimedOut(READY_WITHIN))) {
        Ok(()) => (
            StatusCode::OK,
            Json(Health {
                status: "ready",
                database: None,
            }),
        ),
        Err(error) => {
            tracing::warn!(%error, "readiness check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Health {
                    status: "unavailable",
                    database: Some("unreachable"),
                }),
            )
        }
    }
}

#[utoipa::path(get, path = "/metrics", tag = "operations", responses((status = 200, description = "Prometheus text", content_type = "text/plain", body = String)))]
pub async fn metrics(State(state): State<AppState>) -> Response {
    let body = state.metrics.render(state.registry.live_games());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], body).into_response()
}

/// This document.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "operations", responses((status = 200, description = "The OpenAPI 3.1 document of this API", body = serde_json::Value)))]
pub async fn openapi() -> Response {
    let body = super::docs::OPENAPI_JSON.get().cloned().unwrap_or_default();
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Unknown API paths answer in the API's error shape.
pub async fn api_not_found() -> ApiError {
    ApiError::NotFound("route".into())
}
