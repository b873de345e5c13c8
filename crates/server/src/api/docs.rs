//! The OpenAPI document, generated from the code: every route is registered through
//! `utoipa_axum::routes!`, and every body it names is the type the handler serialises, so neither
//! the routes nor the shapes can drift from what is served (`tests/tests/openapi.rs` checks
//! served answers against the served document).

use std::sync::OnceLock;
use utoipa::OpenApi;

#[derive(Debug, OpenApi)]
#[openapi(
    info(title = "Ludus API", version = "1", description = "Play Petteia, Pente Grammai and Duodecim Scripta: games, seats, moves, events, records, analysis. The WebSocket protocol is in docs/PROTOCOL.md."),
    components(schemas(crate::error::ErrorBody)),
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

pub use crate::error::ErrorBody;
