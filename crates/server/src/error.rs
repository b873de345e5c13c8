//! The one error shape of the API: `{"error": {"code", "message", ...}}` with a fitting status.
//! Every layer's errors are mapped here once; bad input never becomes a 500. A fault of the
//! server keeps its cause, and the cause is logged once, when the error is answered.

use crate::game::error::{GameError, Refusal, error_chain};
use crate::players::credentials::AccountRule;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// Why the service could not answer: kept for the log, never shown to the client.
pub type Cause = Arc<dyn std::error::Error + Send + Sync>;

#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("a valid seat token is required")]
    Unauthorized,
    /// No account identified (sign in, or a personal token), or a revoked token.
    #[error("sign in, or send a valid personal token")]
    NotSignedIn,
    /// A wrong password and an unknown user alike.
    #[error("wrong username or password")]
    WrongCredentials,
    #[error("{0}")]
    Forbidden(String),
    /// A rule of live play refused the request (400 or 403): the body names the rule, so a
    /// client can say why in its own words.
    #[error("{0}")]
    Refused(Refusal),
    /// An account's name or password breaks its rule (400), named as `refusal` is.
    #[error("{0}")]
    AccountRule(AccountRule),
    #[error("{0}")]
    Conflict(String),
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("{0} not found")]
    NotFound(String),
    #[error("the game has moved on to version {version}")]
    Stale { version: u64 },
    /// The game the invite was for (to watch it instead, or, `yours`, to play the other seat).
    #[error("{}", crate::game::error::seat_taken_words(*yours))]
    SeatTaken {
        game_id: ludus_store::GameId,
        yours: bool,
    },
    #[error("the game is over")]
    GameOver,
    #[error("the request is larger than {limit} bytes")]
    TooLarge { limit: usize },
    #[error("{notation}: {reason}")]
    IllegalMove { notation: String, reason: String },
    #[error("too many requests; try again in {retry_after_ms} ms")]
    RateLimited { retry_after_ms: u64 },
    #[error("this path does not take that method")]
    MethodNotAllowed,
    /// The database (or an actor) failed: nothing was changed or acknowledged.
    #[error("the service is temporarily unavailable")]
    Unavailable(#[source] Cause),
}

impl ApiError {
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) | ApiError::AccountRule(_) => "bad_request",
            ApiError::Unauthorized | ApiError::NotSignedIn | ApiError::WrongCredentials => {
                "unauthorized"
            }
            ApiError::Conflict(_) => "conflict",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::Refused(refusal) if refusal.forbids() => "forbidden",
            ApiError::Refused(_) => "bad_request",
            ApiError::NotYourTurn => "not_your_turn",
            ApiError::NotFound(_) => "not_found",
            ApiError::Stale { .. } => "stale",
            ApiError::SeatTaken { .. } => "seat_taken",
            ApiError::GameOver => "game_over",
            ApiError::TooLarge { .. } => "too_large",
            ApiError::IllegalMove { .. } => "illegal_move",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Unavailable(_) => "unavailable",
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::AccountRule(_) => StatusCode::BAD_REQUEST,
            ApiError::Refused(refusal) if refusal.forbids() => StatusCode::FORBIDDEN,
            ApiError::Refused(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::NotSignedIn | ApiError::WrongCredentials => {
                StatusCode::UNAUTHORIZED
            }
            ApiError::Forbidden(_) | ApiError::NotYourTurn => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Stale { .. }
            | ApiError::SeatTaken { .. }
            | ApiError::GameOver
            | ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::IllegalMove { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The error object: code, message and the fields its code promises. Every error reaches a
    /// client through here (HTTP and WebSocket), so a fault of the server is logged here, once.
    pub fn object(&self) -> ErrorObject {
        // What a self-hoster's ban list (fail2ban, say) reads: a wrong password and a client over
        // a limit, each on a line with the request's client address (its span's `client`).
        match self {
            ApiError::WrongCredentials => tracing::info!("refused: a wrong password"),
            ApiError::RateLimited { .. } => tracing::info!("refused: over a rate limit"),
            _ => {}
        }
        if let ApiError::Unavailable(cause) = self {
            tracing::error!(cause = %error_chain(cause.as_ref()), "answered unavailable");
        }
        let mut object = ErrorObject {
            code: self.code(),
            message: self.to_string(),
            version: None,
            notation: None,
            reason: None,
            refusal: None,
            retry_after_ms: None,
            game_id: None,
        };
        match self {
            ApiError::Stale { version } => object.version = Some(*version),
            ApiError::IllegalMove { notation, reason } => {
                object.notation = Some(notation.clone());
                object.reason = Some(reason.clone());
            }
            ApiError::RateLimited { retry_after_ms } => {
                object.retry_after_ms = Some(*retry_after_ms)
            }
            ApiError::SeatTaken { game_id, .. } => {
                object.game_id = Some(game_id.as_str().to_string())
            }
            ApiError::Refused(refusal) => object.refusal = refusal.name(),
            ApiError::AccountRule(rule) => object.refusal = Some(rule.name()),
            _ => {}
        }
        object
    }
}

/// Every error: `{"error": {"code", "message", ...}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorObject,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorObject {
    /// bad_request, unauthorized, forbidden, not_your_turn, not_found, stale, seat_taken,
    /// game_over, too_large, illegal_move, rate_limited, unavailable.
    pub code: &'static str,
    pub message: String,
    /// stale: the game's version now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// illegal_move: the move refused.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    /// illegal_move: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// bad_request and forbidden from a rule of live play, or of an account's name or password:
    /// which rule (docs/API.md lists them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<&'static str>,
    /// rate_limited: when to try again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// seat_taken: the invite's game, which anyone holding the invite may watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.object(),
        };
        let mut response = (self.status(), axum::Json(body)).into_response();
        if let ApiError::RateLimited { retry_after_ms } = self {
            let seconds = retry_after_ms.div_ceil(1000).to_string();
            if let Ok(value) = seconds.parse() {
                response
                    .headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, value);
            }
        }
        response
    }
}

impl From<ludus_store::StoreError> for ApiError {
    fn from(error: ludus_store::StoreError) -> ApiError {
        ApiError::Unavailable(Arc::new(error))
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        match error {
            GameError::Refused(refusal) => refusal.into(),
            GameError::NoGame => ApiError::NotFound("game".into()),
            GameError::NoInvite => ApiError::NotFound("invite".into()),
            fault @ (GameError::Store(_)
            | GameError::Replay { .. }
            | GameError::Stopped
            | GameError::NoMove) => ApiError::Unavailable(Arc::new(fault)),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        match refusal {
            Refusal::NoSeat => ApiError::Unauthorized,
            Refusal::NotYourTurn => ApiError::NotYourTurn,
            Refusal::GameOver => ApiError::GameOver,
            Refusal::Stale { version } => ApiError::Stale { version },
            Refusal::SeatTaken { game, yours } => ApiError::SeatTaken {
                game_id: game,
                yours,
            },
            Refusal::Move(error) => error.into(),
            // The rest are rules of play, answered with their names (`Refusal::name`).
            rule => ApiError::Refused(rule),
        }
    }
}

impl From<ludus_engine::MoveError> for ApiError {
    fn from(error: ludus_engine::MoveError) -> ApiError {
        match error {
            ludus_engine::MoveError::Notation(e) => ApiError::BadRequest(e.to_string()),
            ludus_engine::MoveError::Illegal { notation, reason } => {
                ApiError::IllegalMove { notation, reason }
            }
        }
    }
}
