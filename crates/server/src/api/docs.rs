//! The OpenAPI document, generated from the code: every route is registered through
//! `utoipa_axum::routes!`, and every body it names is the type the handler serialises, so neither
//! the routes nor the shapes can drift from what is served (`tests/tests/openapi.rs` checks
//! served answers against the served document).

use std::sync::OnceLock;
use utoipa::OpenApi;

#[derive(Debug, OpenApi)]
#[openapi(
    info(title = "Ludus API", version = "1", description = "Play Petteia, Pente Grammai and Duodecim Scripta: games, seats, moves, events, records, analysis. The WebSocket protocol is in docs/PROTOCOL.md."),
    // Schemas only a query parameter names, which utoipa does not collect from the paths.
    components(schemas(crate::error::ErrorBody, super::socket::ViewShape)),
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

/// Documents what the account extractors (`accounts::Identity`, `accounts::MaybeIdentity`)
/// refuse, once for every operation that takes a signed-in session rather than in each handler's
/// list (docs/API.md, "Identity"): 401 for a personal token that is unknown or revoked and, for a
/// change of state, 403 for a signed-in request from another site's page. A status an operation
/// documents itself (a seat token's 401, a challenge's 403) keeps its own description.
pub fn add_identity_refusals(openapi: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::security::SecurityRequirement;
    let session = SecurityRequirement::new("cookie", Vec::<String>::new());
    for item in openapi.paths.paths.values_mut() {
        let operations = [
            (&mut item.get, false),
            (&mut item.post, true),
            (&mut item.put, true),
            (&mut item.patch, true),
            (&mut item.delete, true),
        ];
        for (operation, changes_state) in operations {
            let Some(operation) = operation else { continue };
            if !operation
                .security
                .as_ref()
                .is_some_and(|requirements| requirements.contains(&session))
            {
                continue;
            }
            for (status, description) in
                std::iter::once(UNKNOWN_TOKEN).chain(changes_state.then_some(ELSEWHERE))
            {
                operation
                    .responses
                    .responses
                    .entry(status.to_string())
                    .or_insert_with(|| error_response(description));
            }
        }
    }
}

const UNKNOWN_TOKEN: (&str, &str) = ("401", "a personal token that is unknown or revoked");
const ELSEWHERE: (&str, &str) = ("403", "a signed-in change from another site's page");

/// A response of the one error shape (`ErrorBody`), as `body = ErrorBody` writes it.
fn error_response(
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::response::Response> {
    use utoipa::ToSchema;
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name(crate::error::ErrorBody::name())))
        .build();
    ResponseBuilder::new()
        .description(description)
        .content("application/json", content)
        .into()
}

/// The document as JSON, once the router has been built.
pub static OPENAPI_JSON: OnceLock<String> = OnceLock::new();

pub use crate::error::ErrorBody;
