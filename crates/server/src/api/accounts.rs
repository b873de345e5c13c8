//! Accounts over HTTP: sign-up, sign-in and out (a session cookie), the account, personal API
//! tokens, deletion; and the [`Identity`] extractor every endpoint uses to know who is asking.
//!
//! An identity comes from `Authorization: Bearer lp_…` (a personal token) or the session cookie.
//! A Bearer without the prefix is a seat token and belongs to the game endpoints, untouched here.
//! A cookie-identified request that changes state must come from the server's own origin.

use super::{ApiJson, AppState, ClientAddress};
use crate::error::ApiError;
use crate::players::credentials::{
    NewPassword, PERSONAL_TOKEN_PREFIX, Username, hash_password, new_id, new_personal_token,
    new_secret, verify_password,
};
use axum::Json;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ludus_store::{AccountRow, SecretHash, TokenRow};
use serde::Deserialize;
use serde_json::json;

const SESSION_COOKIE: &str = "ludus_session";
/// A session lasts a year unless the player signs out.
const SESSION_SECONDS: u64 = 365 * 24 * 3600;
const MAX_DESCRIPTION: usize = 100;

/// The account a request speaks for, and what identified it.
#[derive(Clone, Debug)]
pub struct Identity {
    pub account: AccountRow,
    pub credential: Credential,
}

/// What identified an account, by its hash: asked again while a socket acts for the account's
/// seat, so that signing out, revoking the token or deleting the account ends its play there too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    PersonalToken(SecretHash),
    Session(SecretHash),
}

impl Credential {
    /// Whether it still identifies a live account.
    pub async fn holds(&self, state: &AppState) -> Result<bool, ApiError> {
        let store = state.registry.store();
        let account = match self {
            Credential::PersonalToken(hash) => store.account_of_token(hash).await?,
            Credential::Session(hash) => store.account_of_session(hash).await?,
        };
        Ok(account.is_some())
    }
}

/// An identity if the request carries one (anonymous requests pass with `None`); a revoked or
/// unknown personal token is refused, a stale cookie is ignored.
#[derive(Clone, Debug)]
pub struct MaybeIdentity(pub Option<Identity>);

impl FromRequestParts<AppState> for MaybeIdentity {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let store = state.registry.store();
        if let Some(token) = personal_token(&parts.headers) {
            return personal_identity(state, token)
                .await
                .map(Some)
                .map(MaybeIdentity);
        }
        let Some(session) = session_cookie(&parts.headers) else {
            return Ok(MaybeIdentity(None));
        };
        let session = SecretHash::of(session);
        let Some(account) = store.account_of_session(&session).await? else {
            return Ok(MaybeIdentity(None));
        };
        if !matches!(parts.method, Method::GET | Method::HEAD)
            && !from_own_origin(&parts.headers, &state.public_url)
        {
            return Err(ApiError::Forbidden(
                "a signed-in change must come from this site's own pages".into(),
            ));
        }
        Ok(MaybeIdentity(Some(Identity {
            account,
            credential: Credential::Session(session),
        })))
    }
}

impl FromRequestParts<AppState> for Identity {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        MaybeIdentity::from_request_parts(parts, state)
            .await?
            .0
            .ok_or(ApiError::NotSignedIn)
    }
}

/// The identity of a personal token; an unknown or revoked one is refused.
pub(super) async fn personal_identity(state: &AppState, token: &str) -> Result<Identity, ApiError> {
    let hash = SecretHash::of(token);
    let account = state
        .registry
        .store()
        .account_of_token(&hash)
        .await?
        .ok_or(ApiError::NotSignedIn)?;
    Ok(Identity {
        account,
        credential: Credential::PersonalToken(hash),
    })
}

/// The personal token of `Authorization: Bearer lp_…`, if any.
pub fn personal_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|t| t.starts_with(PERSONAL_TOKEN_PREFIX))
}

fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(';'))
        .find_map(|pair| pair.trim().strip_prefix("ludus_session="))
}

/// Whether `Origin` (when the browser sends one) is this server: its public URL, or the host the
/// request was addressed to. A request without `Origin` is not from a browser's page of another site.
/// The public URL's host under another scheme is not (a plain-HTTP page of an `https` site is
/// another origin, whoever serves it); another host the request names is, whatever its scheme
/// (the server reached directly, behind the proxy).
pub(super) fn from_own_origin(headers: &HeaderMap, public_url: &str) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match authority_of(origin) {
        Some(authority) if Some(authority) == authority_of(public_url) => origin == public_url,
        Some(authority) => Some(authority) == host,
        None => false,
    }
}

/// The part of a URL after its scheme: `ludus.example.org` of `https://ludus.example.org`.
fn authority_of(url: &str) -> Option<&str> {
    url.split_once("://").map(|(_, authority)| authority)
}

fn session_cookie_header(state: &AppState, secret: &str, max_age: u64) -> HeaderValue {
    let secure = if state.public_url.starts_with("https:") {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    ))
    .expect("a cookie of plain characters")
}

/// Opens a session for the account: the response carries its cookie.
async fn signed_in(
    state: &AppState,
    account: &AccountRow,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let secret = new_secret();
    state
        .registry
        .store()
        .create_session(
            &SecretHash::of(&secret),
            &account.id,
            state.registry.now_ms(),
        )
        .await?;
    let mut response = (status, Json(json!({ "username": account.username }))).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        session_cookie_header(state, &secret, SESSION_SECONDS),
    );
    Ok(response)
}

fn check_credentials_rate(state: &AppState, address: std::net::IpAddr) -> Result<(), ApiError> {
    state
        .credentials_limiter
        .admit(address, state.registry.now_ms())
}

/// Password work running at once: one a core. Each Argon2 run takes tens of milliseconds and 19 MiB
/// on purpose; more at once would only queue on the cores while holding their memory (the blocking
/// pool runs up to 512), so the rest wait here, holding nothing.
static PASSWORD_WORK: std::sync::LazyLock<tokio::sync::Semaphore> =
    std::sync::LazyLock::new(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    });

/// Runs Argon2 off the async threads, one run a core at most.
async fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let _permit = PASSWORD_WORK
        .acquire()
        .await
        .expect("the semaphore is never closed");
    tokio::task::spawn_blocking(work)
        .await
        .expect("password hashing does not panic")
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 2 to 20 of A-Z a-z 0-9 _ -.
    #[schema(min_length = 2, max_length = 20, pattern = "^[A-Za-z0-9_-]+$")]
    username: String,
    /// 8 to 128 characters.
    #[schema(min_length = 8, max_length = 128)]
    password: String,
}

#[utoipa::path(post, path = "/api/v1/accounts", tag = "players", request_body = Credentials, responses((status = 201, description = "Signed up and in: `{\"username\"}` and the session cookie"), (status = 400, body = super::docs::ErrorBody), (status = 409, description = "conflict: the name is taken", body = super::docs::ErrorBody), (status = 429, body = super::docs::ErrorBody)))]
pub async fn sign_up(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    check_credentials_rate(&state, address)?;
    let username: Username = body.username.parse()?;
    let password: NewPassword = body.password.parse()?;
    let account = AccountRow {
        id: new_id(),
        username: username.to_string(),
        password_hash: off_thread(move || hash_password(&password)).await,
        created_at: state.registry.now_ms(),
        deleted: false,
    };
    match state.registry.store().create_account(&account).await {
        Err(ludus_store::StoreError::Conflict) => {
            return Err(ApiError::Conflict("that username is taken".into()));
        }
        other => other?,
    }
    signed_in(&state, &account, StatusCode::CREATED).await
}

/// Checks a password against the named live account, taking the same time whether or not it exists.
async fn check_password(
    state: &AppState,
    address: std::net::IpAddr,
    username: &str,
    password: String,
) -> Result<AccountRow, ApiError> {
    // Every check counts against the address's sign-in rate, wherever it is asked for (signing
    // in, deleting the account): each one costs the server what a guess would.
    check_credentials_rate(state, address)?;
    let account = state
        .registry
        .store()
        .account_named(username)
        .await?
        .filter(|a| !a.deleted);
    let stored = account.as_ref().map(|a| a.password_hash.clone());
    let matches = off_thread(move || verify_password(&password, stored.as_deref())).await;
    account
        .filter(|_| matches)
        .ok_or(ApiError::WrongCredentials)
}

#[utoipa::path(post, path = "/api/v1/session", tag = "players", request_body = Credentials, responses((status = 400, description = "a malformed body", body = super::docs::ErrorBody), (status = 200, description = "Signed in: `{\"username\"}` and the session cookie"), (status = 401, description = "unauthorized: a wrong password or an unknown user alike", body = super::docs::ErrorBody), (status = 429, body = super::docs::ErrorBody)))]
pub async fn sign_in(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    let account = check_password(&state, address, &body.username, body.password).await?;
    signed_in(&state, &account, StatusCode::OK).await
}

#[utoipa::path(delete, path = "/api/v1/session", tag = "players", responses((status = 204, description = "Signed out; the cookie is cleared")))]
pub async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(secret) = session_cookie(&headers) {
        if !from_own_origin(&headers, &state.public_url) {
            return Err(ApiError::Forbidden(
                "a signed-in change must come from this site's own pages".into(),
            ));
        }
        state
            .registry
            .store()
            .delete_session(&SecretHash::of(secret))
            .await?;
    }
    Ok(cleared_cookie(&state))
}

fn cleared_cookie(state: &AppState) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, session_cookie_header(state, "", 0));
    response
}

#[utoipa::path(get, path = "/api/v1/account", tag = "players", security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "`{\"username\", \"created_at\"}`"), (status = 401, body = super::docs::ErrorBody)))]
pub async fn account(identity: Identity) -> Json<serde_json::Value> {
    Json(json!({
        "username": identity.account.username,
        "created_at": identity.account.created_at,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordBody {
    password: String,
}

#[utoipa::path(delete, path = "/api/v1/account", tag = "players", request_body = PasswordBody, security(("bearer" = []), ("cookie" = [])), responses((status = 400, description = "a malformed body", body = super::docs::ErrorBody), (status = 204, description = "Deleted: tokens and sessions gone, games kept under \"deleted\""), (status = 401, body = super::docs::ErrorBody), (status = 429, description = "the password checks of the client's address are over the sign-in rate", body = super::docs::ErrorBody)))]
pub async fn delete_account(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    identity: Identity,
    ApiJson(body): ApiJson<PasswordBody>,
) -> Result<Response, ApiError> {
    let account =
        check_password(&state, address, &identity.account.username, body.password).await?;
    state.registry.store().delete_account(&account.id).await?;
    Ok(cleared_cookie(&state))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    password: String,
    /// 8 to 128 characters.
    #[schema(min_length = 8, max_length = 128)]
    new_password: String,
}

#[utoipa::path(post, path = "/api/v1/account/password", tag = "players", request_body = PasswordChange, security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "Changed: every session of the account ended, and this one begun anew (`{\"username\"}` and the session cookie); personal tokens stay"), (status = 400, description = "a malformed body, or a new password of fewer than 8 or more than 128 characters", body = super::docs::ErrorBody), (status = 401, description = "not signed in, or a wrong password", body = super::docs::ErrorBody), (status = 429, description = "the password checks of the client's address are over the sign-in rate", body = super::docs::ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    identity: Identity,
    ApiJson(body): ApiJson<PasswordChange>,
) -> Result<Response, ApiError> {
    let new_password: NewPassword = body.new_password.parse()?;
    let account =
        check_password(&state, address, &identity.account.username, body.password).await?;
    let hash = off_thread(move || hash_password(&new_password)).await;
    if !state
        .registry
        .store()
        .change_password(&account.id, &hash)
        .await?
    {
        return Err(ApiError::WrongCredentials);
    }
    signed_in(&state, &account, StatusCode::OK).await
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    description: String,
}

#[utoipa::path(post, path = "/api/v1/account/tokens", tag = "players", request_body = TokenBody, security(("bearer" = []), ("cookie" = [])), responses((status = 201, description = "`{\"id\", \"token\"}`: the token is shown this once"), (status = 400, body = super::docs::ErrorBody), (status = 401, body = super::docs::ErrorBody)))]
pub async fn create_token(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(body): ApiJson<TokenBody>,
) -> Result<Response, ApiError> {
    let description = body.description.trim();
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(ApiError::BadRequest(format!(
            "a description has at most {MAX_DESCRIPTION} characters"
        )));
    }
    let token = new_personal_token();
    let row = TokenRow {
        id: new_id(),
        description: description.to_string(),
        created_at: state.registry.now_ms(),
    };
    state
        .registry
        .store()
        .create_token(&identity.account.id, &SecretHash::of(&token), &row)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": row.id, "token": token })),
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/v1/account/tokens", tag = "players", security(("bearer" = []), ("cookie" = [])), responses((status = 200, description = "`[{\"id\", \"description\", \"created_at\"}]`, without secrets"), (status = 401, body = super::docs::ErrorBody)))]
pub async fn list_tokens(
    State(state): State<AppState>,
    identity: Identity,
) -> Result<Json<serde_json::Value>, ApiError> {
    let tokens = state
        .registry
        .store()
        .tokens_of(&identity.account.id)
        .await?;
    let tokens: Vec<_> = tokens
        .into_iter()
        .map(|t| json!({ "id": t.id, "description": t.description, "created_at": t.created_at }))
        .collect();
    Ok(Json(json!(tokens)))
}

#[utoipa::path(delete, path = "/api/v1/account/tokens/{id}", tag = "players", params(("id" = String, Path)), security(("bearer" = []), ("cookie" = [])), responses((status = 204, description = "Revoked"), (status = 401, body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody)))]
pub async fn revoke_token(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    if state
        .registry
        .store()
        .revoke_token(&identity.account.id, &id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound("token".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), value.parse().unwrap());
        }
        map
    }

    #[test]
    fn a_change_from_another_site_is_not_from_our_origin() {
        let ours = "https://ludus.example.org";
        assert!(from_own_origin(&headers(&[]), ours));
        assert!(from_own_origin(&headers(&[(header::ORIGIN, ours)]), ours));
        assert!(from_own_origin(
            &headers(&[
                (header::ORIGIN, "http://127.0.0.1:9000"),
                (header::HOST, "127.0.0.1:9000")
            ]),
            ours
        ));
        assert!(!from_own_origin(
            &headers(&[
                (header::ORIGIN, "https://evil.example"),
                (header::HOST, "ludus.example.org")
            ]),
            ours
        ));
        // The public host's plain-HTTP page is another origin, though the Host matches.
        assert!(!from_own_origin(
            &headers(&[
                (header::ORIGIN, "http://ludus.example.org"),
                (header::HOST, "ludus.example.org")
            ]),
            ours
        ));
        assert!(!from_own_origin(
            &headers(&[
                (header::ORIGIN, "null"),
                (header::HOST, "ludus.example.org")
            ]),
            ours
        ));
    }

    #[test]
    fn the_session_is_read_from_among_other_cookies() {
        let map = headers(&[(header::COOKIE, "theme=dark; ludus_session=abc; x=y")]);
        assert_eq!(session_cookie(&map), Some("abc"));
        let bearer = headers(&[(header::AUTHORIZATION, "Bearer lp_secret")]);
        assert_eq!(personal_token(&bearer), Some("lp_secret"));
        let seat = headers(&[(header::AUTHORIZATION, "Bearer AbC123")]);
        assert_eq!(
            personal_token(&seat),
            None,
            "a seat token is not a personal one"
        );
    }
}
