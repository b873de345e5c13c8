//! The OpenAPI document, generated from the code: every route is registered through
//! `utoipa_axum::routes!`, so the router and the document cannot drift apart. The types here
//! describe the JSON shapes that the handlers write (views are written as JSON text for speed).

use serde_json::Value;
use std::sync::OnceLock;
use utoipa::{OpenApi, ToSchema};

#[derive(Debug, OpenApi)]
#[openapi(
    info(title = "Ludus API", version = "1", description = "Play Petteia, Pente Grammai and Duodecim Scripta: games, seats, moves, events, records, analysis. The WebSocket protocol is in docs/PROTOCOL.md."),
    components(schemas(ErrorBody, ErrorObject, GameView, SeatView, ResultView, Created, Joined, SeatToken, Event, GameSummary)),
    modifiers(&BearerToken),
    tags((name = "games", description = "Creating, joining and playing games"), (name = "analysis", description = "Positions without a game"), (name = "players", description = "Optional accounts, results, ratings, challenges and the bot event stream"), (name = "operations", description = "Health and metrics"))
)]
pub struct ApiDoc;

/// Seat tokens travel as `Authorization: Bearer <token>`.
#[derive(Debug)]
struct BearerToken;

impl utoipa::Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        // A signed-in browser's session (`Authorization: Bearer lp_…` is the personal-token form).
        components.add_security_scheme(
            "cookie",
            SecurityScheme::ApiKey(utoipa::openapi::security::ApiKey::Cookie(
                utoipa::openapi::security::ApiKeyValue::new("ludus_session"),
            )),
        );
    }
}

/// The document as JSON, once the router has been built.
pub static OPENAPI_JSON: OnceLock<String> = OnceLock::new();

/// Every error: `{"error": {"code", "message", ...}}`.
#[derive(Debug, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorObject,
}

#[derive(Debug, ToSchema)]
pub struct ErrorObject {
    /// bad_request, unauthorized, forbidden, not_your_turn, not_found, stale, seat_taken,
    /// game_over, too_large, illegal_move, rate_limited, unavailable.
    pub code: String,
    pub message: String,
    /// illegal_move: why.
    pub reason: Option<String>,
    /// illegal_move: the move refused.
    #[schema(rename = "move")]
    pub move_: Option<String>,
    /// stale: the game's version now.
    pub version: Option<u64>,
    /// rate_limited: when to try again.
    pub retry_after_ms: Option<u64>,
}

/// A game as a seat (or a spectator) sees it.
#[derive(Debug, ToSchema)]
pub struct GameView {
    pub game_id: String,
    /// petteia-6, petteia-8, pente-grammai-schaedler, pente-grammai-kidd, pente-grammai-perimeter, duodecim-scripta.
    pub variant: String,
    /// online, computer or local.
    pub mode: String,
    /// waiting, playing, finished or aborted.
    pub status: String,
    /// The number of events so far.
    pub version: u64,
    /// The position in the notation of docs/RULES.md.
    pub position: String,
    pub to_move: Option<String>,
    pub first: String,
    pub sides: Vec<String>,
    /// Dice games: the dice of the current roll still to play.
    pub dice: Option<Vec<u8>>,
    pub moves: Vec<String>,
    /// `{"<side>": ms, "running": side|null, "initial_ms", "increment_ms"}`, or null without a clock.
    pub clocks: Option<Value>,
    pub result: Option<ResultView>,
    pub draw_offer: Option<String>,
    /// The rematch's game id, once one was asked for.
    pub rematch: Option<String>,
    pub level: Option<u8>,
    /// Dice games: SHA-256 of the server seed.
    pub commitment: Option<String>,
    /// Dice games, after the end.
    pub server_seed: Option<String>,
    pub seat: Option<SeatView>,
    /// The seat's legal moves, when it may move.
    pub legal_moves: Option<Vec<String>>,
    pub opponent_connected: Option<bool>,
}

#[derive(Debug, ToSchema)]
pub struct SeatView {
    pub side: String,
    /// The side drawn at the bottom of this seat's board.
    pub bottom: String,
    /// Local games: the one token plays both sides.
    pub both: Option<bool>,
}

#[derive(Debug, ToSchema)]
pub struct ResultView {
    /// Null for a draw.
    pub winner: Option<String>,
    pub termination: String,
    pub finished_at: i64,
}

#[derive(Debug, ToSchema)]
pub struct SeatToken {
    pub side: String,
    /// The bearer token of this seat (keep it private).
    pub token: String,
}

/// The answer to creating a game.
#[derive(Debug, ToSchema)]
pub struct Created {
    pub game_id: String,
    pub seat: SeatToken,
    /// The private link of the creator's seat (token in the fragment).
    pub seat_url: String,
    pub watch_url: String,
    /// Online games: the link that grants the other seat once.
    pub invite_url: Option<String>,
    pub invite: Option<String>,
    pub commitment: Option<String>,
}

/// The answer to redeeming an invite.
#[derive(Debug, ToSchema)]
pub struct Joined {
    pub game_id: String,
    pub seat: SeatToken,
    pub seat_url: String,
    pub game: GameView,
}

/// One event of a game's log (the same shape on the WebSocket and the stream).
#[derive(Debug, ToSchema)]
pub struct Event {
    pub version: u64,
    pub at: i64,
    /// joined, clock_started, roll, move, draw_offered, draw_declined, undo, finished, aborted, rematch.
    pub kind: String,
}

/// A stored game in a listing.
#[derive(Debug, ToSchema)]
pub struct GameSummary {
    pub game_id: String,
    pub variant: String,
    pub mode: String,
    pub status: String,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub result: Option<Value>,
}
