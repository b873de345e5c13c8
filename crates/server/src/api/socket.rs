//! The WebSocket protocol of docs/API.md: `hello` first (with a seat token to play, without to watch,
//! and `since` to receive what was missed), then moves and actions answered by `ack` or `error`,
//! and every event of the game pushed in version order with what changed for this socket's seat
//! (or, with `?view=full`, the whole view).
//! Small buffers, a message size limit, a message rate per connection and an idle timeout keep
//! one connection cheap and unable to harm the others.

use super::accounts::Credential;
use super::games::Counting;
use super::limits::{Bucket, Rate};
use super::{AppState, GamePath, GameSeat};
use crate::error::{ApiError, ErrorObject};
use crate::game::actor::{Action, Command, Mailbox, Published, Subscription};
use crate::game::json;
use crate::game::view::Snapshot;
use crate::game::{GameId, Seat};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use ludus_store::SecretHash;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use tokio::sync::watch;

/// What a socket whose first message is not a hello within [`HELLO_WITHIN`] is told.
const NO_HELLO: &str = "the first message must be {\"type\": \"hello\"}, within 10 s";
/// The first message must arrive within this time.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// How often the server pings an idle socket.
const PING_EVERY: Duration = Duration::from_secs(20);
/// Refusals for rate after which the connection is closed.
const MAX_RATE_REFUSALS: u32 = 50;
/// Per-socket buffers: axum's defaults cost ~134 KB per idle connection, 4 KB buffers ~6 KB.
/// The read buffer is allocated whole at the start and a client's messages are short (a move is
/// under 100 bytes, a hello with its 32-character token about 80; a longer message grows it):
/// 256 bytes.
pub const BUFFER_BYTES: usize = 4096;
pub const READ_BUFFER_BYTES: usize = 256;
/// Messages up to this many times the protocol's limit are read and refused; larger ones end the
/// connection at the transport.
const TRANSPORT_LIMIT_FACTOR: usize = 16;

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        since: Option<u64>,
        /// The client promises a message at least every [`ApiLimits::socket_heartbeat`]: its
        /// silence beyond that means a page that stopped (a frozen tab whose browser still
        /// answers the pings), and its player no longer counts as present until it speaks.
        #[serde(default)]
        heartbeat: bool,
        /// Allowed as on every message (a client that tags each one lost its socket), and given
        /// back on a refusal of the hello.
        #[serde(default)]
        id: Option<String>,
    },
    Move {
        #[serde(rename = "move")]
        notation: String,
        version: u64,
        #[serde(default)]
        id: Option<String>,
    },
    Resign {
        #[serde(default)]
        id: Option<String>,
    },
    Draw {
        #[serde(default)]
        id: Option<String>,
    },
    DrawDecline {
        #[serde(default)]
        id: Option<String>,
    },
    Undo {
        #[serde(default)]
        id: Option<String>,
    },
    UndoAccept {
        #[serde(default)]
        id: Option<String>,
    },
    UndoDecline {
        #[serde(default)]
        id: Option<String>,
    },
    RematchDecline {
        #[serde(default)]
        id: Option<String>,
    },
    Abort {
        #[serde(default)]
        id: Option<String>,
    },
    Claim {
        #[serde(default)]
        id: Option<String>,
    },
    Rematch {
        #[serde(default)]
        id: Option<String>,
        /// Mixed into a dice rematch's seed (docs/RULES.md §4).
        #[serde(default)]
        entropy: Option<String>,
    },
    /// Answered `pong`, with the ping's id if it has one (to match them, for a round trip).
    Ping {
        #[serde(default)]
        id: Option<String>,
    },
}

fn parse_client_message(text: &str) -> Result<ClientMessage, serde_json::Error> {
    match read_move(text) {
        Some(message) => Ok(message),
        None => serde_json::from_str(text),
    }
}

/// The `id` of a message refused before it was read as one of the protocol (too large, over the
/// rate, a field wrong or unknown), if it is JSON with a text `id`: the error carries it, so a
/// client waiting for the answer to that id hears it. Off the path of every message answered.
fn salvaged_id(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct WithId {
        id: Option<String>,
    }
    serde_json::from_str::<WithId>(text).ok()?.id
}

/// A move, the message sent most, read by hand in one pass: a flat object of `type`, `move`,
/// `version` and an optional `id` (a text or `null`) in any order, without spaces or escapes, as
/// clients write it (`JSON.stringify`, serde_json). Anything else, or anything unusual in it, is `None` and goes
/// through `ClientMessage`, whose answers and errors are the protocol's. (serde's derived reader
/// took a fortieth of a move's instructions on the server.)
fn read_move(text: &str) -> Option<ClientMessage> {
    let mut rest = text.strip_prefix('{')?;
    let mut tagged = false;
    let (mut notation, mut version, mut id) = (None, None, None);
    loop {
        let (key, after) = plain_text(rest)?;
        let value = after.strip_prefix(':')?;
        rest = match key {
            "type" if !tagged => {
                let (tag, after) = plain_text(value)?;
                if tag != "move" {
                    return None;
                }
                tagged = true;
                after
            }
            "move" if notation.is_none() => {
                let (text, after) = plain_text(value)?;
                notation = Some(text);
                after
            }
            "version" if version.is_none() => {
                let (number, after) = plain_integer(value)?;
                version = Some(number);
                after
            }
            "id" if id.is_none() => {
                let (text, after) = match value.strip_prefix("null") {
                    Some(after) => (None, after),
                    None => plain_text(value).map(|(text, after)| (Some(text), after))?,
                };
                id = Some(text);
                after
            }
            _ => return None, // another key, or one given twice
        };
        match rest.strip_prefix(',') {
            Some(after) => rest = after,
            None if rest == "}" => break,
            None => return None,
        }
    }
    if !tagged {
        return None;
    }
    Some(ClientMessage::Move {
        notation: notation?.to_owned(),
        version: version?,
        id: id.flatten().map(str::to_owned),
    })
}

/// A JSON string without escapes at the start of `text`, and what follows it.
fn plain_text(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix('"')?;
    // By bytes, not characters: what ends a plain string is ASCII, so where it is found is a
    // character's boundary, and a byte of a longer character is never one of them.
    let end = body
        .bytes()
        .position(|b| b == b'"' || b == b'\\' || b < b' ')?;
    let after = body[end..].strip_prefix('"')?;
    Some((&body[..end], after))
}

/// A JSON number that is a `u64` in plain digits at the start of `text`, and what follows it
/// (a sign, a leading zero or an overflow is left to serde; a fraction fails what follows).
fn plain_integer(text: &str) -> Option<(u64, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits > 1 && text.starts_with('0')) {
        return None;
    }
    let value = text[..digits].parse().ok()?;
    Some((value, &text[digits..]))
}

/// What the events of a socket carry besides the event (docs/PROTOCOL.md §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ViewShape {
    /// What changed: the view without `moves` and without the fields that never change.
    #[default]
    Delta,
    /// The whole view with every move, as before deltas.
    Full,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SocketQuery {
    /// `full`: every event carries the whole game view; by default it carries what changed.
    #[serde(default)]
    view: ViewShape,
}

/// The WebSocket of a game (docs/PROTOCOL.md).
#[utoipa::path(get, path = "/api/v1/games/{id}/ws", tag = "games", params(super::GamePath, SocketQuery), security((), ("bearer" = []), ("cookie" = [])), responses((status = 400, description = "a malformed query, or not a WebSocket upgrade", body = super::docs::ErrorBody), (status = 101, description = "Switching to the WebSocket protocol of docs/PROTOCOL.md"), (status = 401, description = "a Bearer that is no seat token, or a personal token that is unknown or revoked", body = super::docs::ErrorBody), (status = 404, body = super::docs::ErrorBody)))]
pub async fn upgrade(
    State(state): State<AppState>,
    GamePath(id): GamePath,
    upgrade_seat: GameSeat,
    Query(query): Query<SocketQuery>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = match ws {
        Ok(ws) => ws,
        // Asked with another method than GET (HEAD, say), the route says which it takes: its
        // 405 comes from the upgrade, not the router, which would have said so itself.
        Err(rejection) if rejection.status() == StatusCode::METHOD_NOT_ALLOWED => {
            let mut refused = ApiError::MethodNotAllowed.into_response();
            refused
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET"));
            return Ok(refused);
        }
        Err(rejection) => return Ok(rejection.into_response()),
    };
    // Refuse an unknown game before upgrading, with a plain 404.
    state.registry.find(&id).await?;
    // The transport cuts off far beyond the protocol's limit, so that a message a little too
    // large is read whole and answered with a `too_large` error on an open connection.
    let transport_max = TRANSPORT_LIMIT_FACTOR * state.limits.max_socket_message;
    Ok(ws
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(BUFFER_BYTES)
        .max_write_buffer_size(256 * 1024)
        .max_message_size(transport_max)
        .max_frame_size(transport_max)
        .on_upgrade(move |socket| async move {
            state.metrics.sockets.fetch_add(1, Ordering::Relaxed);
            // Boxed: opening may load the game from the store, a large future that would
            // otherwise size the socket's task for its whole life.
            let opened = Box::pin(Session::open(
                socket,
                state.clone(),
                id,
                upgrade_seat,
                query.view,
            ))
            .await;
            // The session runs in a task of its own: this one, which still holds room for the
            // socket it handed over (here and in axum's upgrade), ends.
            tokio::spawn(async move {
                if let Some(session) = opened {
                    session.run().await;
                }
                state.metrics.sockets.fetch_sub(1, Ordering::Relaxed);
            });
        }))
}

fn text(value: Value) -> Message {
    Message::Text(Utf8Bytes::from(value.to_string()))
}

/// `{"type": "error", "id"?, "code", "message", ...}`: the HTTP error object, on the socket.
#[derive(Serialize)]
struct ErrorMessage<'a> {
    r#type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    #[serde(flatten)]
    error: ErrorObject,
}

fn error_message(id: Option<&str>, error: &ApiError) -> Message {
    let message = ErrorMessage {
        r#type: "error",
        id,
        error: error.object(),
    };
    Message::Text(Utf8Bytes::from(
        serde_json::to_string(&message).expect("an error serialises"),
    ))
}

/// Closes the connection with `code` and `reason`, then reads what the client had already sent
/// until its own close (within `CLOSING_WITHIN`): a socket closed with unread data is reset by
/// the kernel, and the client would lose the closing frame, and the errors before it, unread.
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }));
    if socket.send(frame).await.is_err() {
        return;
    }
    let _ = tokio::time::timeout(CLOSING_WITHIN, async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Tells the client why (`error`, without an id: nothing it sent can be answered) and closes.
async fn refuse(socket: &mut WebSocket, error: &ApiError, code: u16, reason: &'static str) {
    refuse_message(socket, None, error, code, reason).await;
}

/// `refuse`, answering the message whose `id` is given.
async fn refuse_message(
    socket: &mut WebSocket,
    id: Option<&str>,
    error: &ApiError,
    code: u16,
    reason: &'static str,
) {
    let _ = socket.send(error_message(id, error)).await;
    close(socket, code, reason).await;
}

/// How long a closing connection is read for the client's close.
const CLOSING_WITHIN: Duration = Duration::from_secs(1);

/// What an event message carries besides the event.
enum Attached {
    /// Nothing: an event replayed after `since`, or one a later event of its batch follows.
    Nothing,
    /// `delta`: what changed.
    Delta,
    /// `game`: the whole view.
    Game,
}

/// `{"type": "event", "version", "event", "delta" | "game"?}` for `seat` at `now`, written into
/// one buffer: one is sent to every socket of a game at every version. `event` is the event's
/// JSON text.
fn event_message(
    version: u64,
    event: &str,
    attached: Attached,
    (snapshot, seat, now): (&Snapshot, Seat, i64),
) -> Message {
    let room = match attached {
        Attached::Nothing => 0,
        Attached::Delta => snapshot.delta_len(seat),
        Attached::Game => 4096,
    };
    let mut message = String::with_capacity(64 + event.len() + room);
    message.push_str(r#"{"type":"event","version":"#);
    message.push_str(itoa::Buffer::new().format(version));
    message.push_str(r#","event":"#);
    message.push_str(event);
    match attached {
        Attached::Nothing => {}
        Attached::Delta => {
            message.push_str(r#","delta":"#);
            snapshot.push_delta_text(&mut message, seat, now);
        }
        Attached::Game => {
            message.push_str(r#","game":"#);
            snapshot.push_text(&mut message, seat, now);
        }
    }
    message.push('}');
    text_message(message)
}

/// `{"type": "ack", "id", "version"}`, written directly into one buffer: one is sent for every
/// move.
fn ack_message(id: Option<&str>, version: u64) -> Message {
    let mut message = String::with_capacity(64 + id.map_or(0, str::len));
    message.push_str(r#"{"type":"ack","id":"#);
    match id {
        Some(id) => json::push_any_text(&mut message, id),
        None => message.push_str("null"),
    }
    message.push_str(r#","version":"#);
    message.push_str(itoa::Buffer::new().format(version));
    message.push('}');
    text_message(message)
}

/// A text frame of JSON written into `message`. Fitted to its length first (in place: the
/// allocator keeps a block that shrinks by less than half), since a buffer with room left
/// over costs one more allocation to become the frame's bytes. Taken as a `String`: an event's
/// message is a kilobyte, and checking its bytes as text again cost more than writing them.
fn text_message(mut message: String) -> Message {
    message.shrink_to_fit();
    Message::Text(Utf8Bytes::from(message))
}

fn snapshot_message(view: &str) -> Message {
    Message::Text(Utf8Bytes::from(format!(
        r#"{{"type":"snapshot","game":{view}}}"#
    )))
}

/// What a read that failed says about the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Broken {
    /// A message over the transport's size limit.
    TooLarge,
    /// A frame the protocol forbids, with the close code RFC 6455 §7.4.1 gives it. The
    /// connection can still carry the server's error and close frame.
    Violation { code: u16, reason: &'static str },
    /// The connection itself failed or was closed: nothing can be told.
    Gone,
}

/// What `error` says about the connection: by the error's kind, not its text.
fn broken(error: &axum::Error) -> Broken {
    use tungstenite::error::{Error, ProtocolError};
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(inner) = cause {
        match inner.downcast_ref::<Error>() {
            Some(Error::Capacity(_)) => return Broken::TooLarge,
            Some(Error::Utf8(_)) => {
                return Broken::Violation {
                    code: 1007,
                    reason: "a text message that is not UTF-8",
                };
            }
            Some(Error::Protocol(
                ProtocolError::ResetWithoutClosingHandshake
                | ProtocolError::SendAfterClosing
                | ProtocolError::ReceivedAfterClosing,
            )) => return Broken::Gone,
            Some(Error::Protocol(_)) => {
                return Broken::Violation {
                    code: 1002,
                    reason: "a frame the WebSocket protocol forbids",
                };
            }
            Some(_) => return Broken::Gone,
            None => cause = inner.source(),
        }
    }
    Broken::Gone
}

/// Tells the client what ended its connection while it can still hear it (an `error`, then the
/// close frame with its code), and closes.
async fn refuse_broken(socket: &mut WebSocket, error: &axum::Error, limit: usize) {
    match broken(error) {
        Broken::TooLarge => {
            let too_large = ApiError::TooLarge { limit };
            refuse(socket, &too_large, 1009, "message too large").await;
        }
        Broken::Violation { code, reason } => {
            let violation = ApiError::BadRequest(format!("{reason}: {error}"));
            refuse(socket, &violation, code, reason).await;
        }
        Broken::Gone => return,
    }
    // The socket reads nothing after a failed read, so what the client sent after the broken
    // frame (the rest of a message too large) stays unread: dropped now, the connection would be
    // reset, and the client lose the error and the close frame unread. It is held open a while.
    tokio::time::sleep(CLOSING_WITHIN).await;
}

/// What a hello asks for.
struct HelloRequest {
    token: Option<String>,
    since: Option<u64>,
    heartbeat: bool,
}

/// Reads the hello: the token (if any), the version the client has seen, and whether it promises
/// a heartbeat. On anything else the socket is told why and closed.
async fn read_hello(socket: &mut WebSocket, limit: usize) -> Option<HelloRequest> {
    let bad_request = |message: String| ApiError::BadRequest(message);
    let no_hello = || bad_request(NO_HELLO.into());
    let (hello, id) = match tokio::time::timeout(HELLO_WITHIN, socket.recv()).await {
        Ok(Some(Ok(Message::Text(t)))) => {
            (serde_json::from_str::<ClientMessage>(&t), salvaged_id(&t))
        }
        Ok(Some(Ok(_))) | Err(_) => {
            refuse(socket, &no_hello(), 1008, "no hello").await;
            return None;
        }
        Ok(Some(Err(error))) => {
            refuse_broken(socket, &error, limit).await;
            return None;
        }
        Ok(None) => return None,
    };
    let request = match hello {
        Ok(ClientMessage::Hello {
            token,
            since,
            heartbeat,
            ..
        }) => HelloRequest {
            token,
            since,
            heartbeat,
        },
        other => {
            let error = match other {
                Err(e) => bad_request(format!("not a message of the protocol: {e}")),
                Ok(_) => no_hello(),
            };
            refuse_message(socket, id.as_deref(), &error, 1008, "no hello").await;
            return None;
        }
    };
    Some(request)
}

/// The seat a hello's token speaks for: a seat token's; a personal token's account's seat in the
/// game (none: it watches); without a token, the seat the upgrade request was made for (its
/// Bearer's, or the signed-in account's), as over HTTP.
async fn hello_seat(
    state: &AppState,
    game_id: &GameId,
    token: Option<&str>,
    upgrade_seat: GameSeat,
) -> Result<GameSeat, ApiError> {
    let Some(token) = token else {
        return Ok(upgrade_seat);
    };
    if let Some(seat) = super::presented_seat(token)? {
        return Ok(GameSeat::of_token(&seat));
    }
    let identity = super::accounts::personal_identity(state, token).await?;
    GameSeat::of_account(state, game_id, identity).await
}

/// One connection after its hello: the socket, the seat it speaks for, the game's events, and
/// the limits on what it may send. Each source of input has its own method.
struct Session {
    socket: WebSocket,
    state: AppState,
    game_id: GameId,
    /// The seat's token hash, which every action presents: hashed once, not at every move.
    token_hash: Option<SecretHash>,
    /// What identified the account whose seat the socket plays, checked at every ping: signing
    /// out, revoking the token or deleting the account closes the socket.
    account: Option<Credential>,
    seat: Seat,
    /// The game's actor, told when the socket closes (presence).
    actor: Mailbox,
    events: broadcast::Receiver<Arc<Published>>,
    last_version: u64,
    shape: ViewShape,
    /// An undo was sent since the last view: the next view goes whole (a delta cannot take
    /// moves back).
    undone: bool,
    rate: Rate,
    bucket: Bucket,
    refusals: u32,
    /// The last frame of any kind, a pong included.
    heard: tokio::time::Instant,
    /// The hello promised a heartbeat: see `spoke`.
    heartbeat: bool,
    /// The last message (a text frame): with a heartbeat promised, silence past
    /// [`ApiLimits::socket_heartbeat`] counts the socket out of its player's presence (`quiet`)
    /// until the next.
    spoke: tokio::time::Instant,
    quiet: bool,
}

impl Session {
    /// Reads the hello, subscribes, and sends what was missed and the present view. The session
    /// is boxed: the socket's task then holds a pointer, where inline it held the session once
    /// for each future it passed through.
    async fn open(
        mut socket: WebSocket,
        state: AppState,
        game_id: GameId,
        upgrade_seat: GameSeat,
        shape: ViewShape,
    ) -> Option<Box<Session>> {
        let limit = state.limits.max_socket_message;
        let HelloRequest {
            token,
            since,
            heartbeat,
        } = read_hello(&mut socket, limit).await?;
        let GameSeat {
            hash: token_hash,
            account,
        } = match hello_seat(&state, &game_id, token.as_deref(), upgrade_seat).await {
            Ok(seat) => seat,
            Err(error) => {
                refuse(&mut socket, &error, 1008, error.code()).await;
                return None;
            }
        };
        let subscribed = state
            .registry
            .subscribe(&game_id, token_hash.as_ref(), since)
            .await;
        let (subscription, actor) = match subscribed {
            Ok(s) => s,
            // The close's reason is the error's code, as a hello's refusals all give it: a
            // token of another game is as unauthorized here as a token of none.
            Err(error) => {
                let error = ApiError::from(error);
                refuse(&mut socket, &error, 1008, error.code()).await;
                return None;
            }
        };
        let Subscription {
            seat,
            snapshot,
            missed,
            events,
        } = subscription;
        let rate = Rate {
            per_second: f64::from(state.limits.socket_messages_per_second),
            burst: 2.0 * f64::from(state.limits.socket_messages_per_second),
        };
        let mut session = Box::new(Session {
            bucket: Bucket::full(rate, state.registry.now_ms()),
            rate,
            refusals: 0,
            heard: tokio::time::Instant::now(),
            heartbeat,
            spoke: tokio::time::Instant::now(),
            quiet: false,
            last_version: snapshot.version,
            shape,
            undone: false,
            socket,
            state,
            game_id,
            token_hash,
            account,
            seat,
            actor,
            events,
        });
        let mut sent = Ok(());
        for event in &missed {
            let json = serde_json::to_string(event).expect("events serialise");
            let message = event_message(
                event.version,
                &json,
                Attached::Nothing,
                (&snapshot, seat, 0),
            );
            sent = sent.and(session.socket.send(message).await);
        }
        let view = session.render(&snapshot);
        sent = sent.and(session.socket.send(snapshot_message(&view)).await);
        match sent {
            Ok(()) => Some(session),
            Err(_) => {
                session.leave().await;
                None
            }
        }
    }

    /// Plays until the client leaves, the connection fails or the server shuts down.
    async fn run(mut self: Box<Self>) {
        let mut ping = tokio::time::interval(PING_EVERY);
        let mut shutdown: watch::Receiver<bool> = self.state.shutdown.clone();
        // Made once: a new one at every turn of the loop would join and leave the watch's
        // waiters at every message.
        let shutdown = shutdown.changed();
        tokio::pin!(shutdown);
        loop {
            let flow = tokio::select! {
                // In this order, not a random one: a turn ends at the first branch ready, and
                // most turns are an event or a message, so the timer and the shutdown are
                // polled only when nothing came. The game's events go first: what the
                // players are owed is sent before more is read from this one.
                biased;
                item = self.events.recv() => Box::pin(self.on_published(item)).await,
                // Boxed: an action's future (through the registry to the store) is large, and
                // inline it would make every idle socket's task that large.
                incoming = self.socket.recv() => Box::pin(self.on_incoming(incoming)).await,
                // Boxed too, though rare and small: inline, even a send's future would be room
                // in every idle socket's task all its life.
                _ = ping.tick() => Box::pin(self.on_ping()).await,
                _ = &mut shutdown => Box::pin(self.shut_down()).await,
            };
            if flow.is_break() {
                break;
            }
        }
        // Boxed for the same reason as the rare branches above.
        Box::pin(self.leave()).await;
    }

    async fn shut_down(&mut self) -> ControlFlow<()> {
        close(&mut self.socket, 1001, "server shutting down").await;
        ControlFlow::Break(())
    }

    async fn leave(&mut self) {
        // A quiet socket was counted out of its player's presence already.
        if !self.quiet {
            self.count_out(self.heard).await;
        }
    }

    /// Tells the actor this socket no longer keeps its player present, last heard at `last_heard`.
    async fn count_out(&mut self, last_heard: tokio::time::Instant) {
        let _ = self
            .actor
            .send(Command::Unsubscribe {
                seat: self.seat,
                last_heard: self.state.registry.ms_at(last_heard),
            })
            .await;
    }

    fn render(&self, snapshot: &Snapshot) -> String {
        snapshot.render_text(self.seat, self.state.registry.now_ms())
    }

    /// What an event carries: the view (whole or what changed) after its batch, on the batch's
    /// last event (the snapshot is the game after the whole batch). A batch with an undo ends
    /// with the whole view.
    fn attach(&mut self, version: u64, takes_back: bool, snapshot: &Snapshot) -> Attached {
        if self.shape == ViewShape::Full {
            return Attached::Game;
        }
        self.undone |= takes_back;
        if version < snapshot.version {
            return Attached::Nothing;
        }
        if std::mem::take(&mut self.undone) {
            return Attached::Game;
        }
        Attached::Delta
    }

    /// Sends a message; a failed send ends the session.
    async fn send(&mut self, message: Message) -> ControlFlow<()> {
        self.feed(message).await?;
        self.flush().await
    }

    /// Queues a message without writing it out yet (see `flush`).
    async fn feed(&mut self, message: Message) -> ControlFlow<()> {
        match self.socket.feed(message).await {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }

    /// Writes out what was queued: one write for all of it.
    async fn flush(&mut self) -> ControlFlow<()> {
        match self.socket.flush().await {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }

    /// Queues what the game has already published and this socket has not yet sent.
    async fn feed_published_now(&mut self) -> ControlFlow<()> {
        loop {
            let item = match self.events.try_recv() {
                Ok(item) => Ok(item),
                Err(TryRecvError::Empty) => return ControlFlow::Continue(()),
                Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                Err(TryRecvError::Closed) => Err(RecvError::Closed),
            };
            self.feed_published(item).await?;
        }
    }

    /// A frame from the client.
    async fn on_incoming(
        &mut self,
        incoming: Option<Result<Message, axum::Error>>,
    ) -> ControlFlow<()> {
        let heard = tokio::time::Instant::now();
        self.heard = heard;
        let limit = self.state.limits.max_socket_message;
        let frame = match incoming {
            Some(Ok(Message::Close(_))) | None => return ControlFlow::Break(()),
            Some(Ok(frame)) => frame,
            Some(Err(error)) => {
                refuse_broken(&mut self.socket, &error, limit).await;
                return ControlFlow::Break(());
            }
        };
        // Every frame counts against the rate, whatever it is: refusing a binary or oversized
        // message costs the server as answering one does, and ping frames are answered too.
        if let Err(retry_after_ms) = self
            .bucket
            .take(self.rate, self.state.registry.ms_at(heard))
        {
            self.refusals += 1;
            // A message is told why, with its id when it is text within the size limit; a control
            // frame is not answered.
            if matches!(frame, Message::Text(_) | Message::Binary(_)) {
                let id = match &frame {
                    Message::Text(text) if text.len() <= limit => salvaged_id(text),
                    _ => None,
                };
                let refused =
                    error_message(id.as_deref(), &ApiError::RateLimited { retry_after_ms });
                self.send(refused).await?;
            }
            if self.refusals > MAX_RATE_REFUSALS {
                close(&mut self.socket, 1008, "too many messages").await;
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(());
        }
        let message = match frame {
            Message::Text(text) => {
                self.spoke = heard;
                if self.quiet {
                    self.quiet = false;
                    let _ = self.actor.send(Command::Spoke { seat: self.seat }).await;
                }
                text
            }
            Message::Binary(_) => {
                let error = ApiError::BadRequest("messages are JSON text frames".into());
                return self.send(error_message(None, &error)).await;
            }
            _ => return ControlFlow::Continue(()), // ping and pong frames
        };
        if message.len() > limit {
            let id = salvaged_id(&message);
            return self
                .send(error_message(id.as_deref(), &ApiError::TooLarge { limit }))
                .await;
        }
        let reply = self.answer(&message).await;
        // An action's events are published before its answer comes back: they go out with the
        // answer in one write (a write to a socket is most of what a relayed move costs).
        self.feed(reply).await?;
        self.feed_published_now().await?;
        self.flush().await
    }

    /// Something the game published, and whatever else it published since: one write.
    async fn on_published(&mut self, item: Result<Arc<Published>, RecvError>) -> ControlFlow<()> {
        self.feed_published(item).await?;
        self.feed_published_now().await?;
        self.flush().await
    }

    /// Queues what the game published: an event with its view, or a change of presence.
    async fn feed_published(&mut self, item: Result<Arc<Published>, RecvError>) -> ControlFlow<()> {
        match item {
            Ok(published) => match &*published {
                Published::Event {
                    version,
                    takes_back,
                    json,
                    snapshot,
                } => {
                    if *version <= self.last_version {
                        return ControlFlow::Continue(());
                    }
                    self.last_version = *version;
                    let attached = self.attach(*version, *takes_back, snapshot);
                    let now = self.state.registry.now_ms();
                    let message =
                        event_message(*version, json, attached, (snapshot, self.seat, now));
                    self.feed(message).await
                }
                Published::Presence { snapshot } => {
                    let view = self.render(snapshot);
                    self.feed(snapshot_message(&view)).await
                }
            },
            // Fell behind: resynchronise with a snapshot of the present. Boxed, as a rare path:
            // the registry's future (which may load the game) would otherwise make every event's
            // future, copied into its box at every event, four times as large.
            Err(RecvError::Lagged(_)) => Box::pin(self.resynchronise()).await,
            // The game's actor stopped: at shutdown that is the server going away, not the game.
            Err(RecvError::Closed) if *self.state.shutdown.borrow() => self.shut_down().await,
            Err(RecvError::Closed) => {
                close(
                    &mut self.socket,
                    1012,
                    "game restarting; reconnect with since",
                )
                .await;
                ControlFlow::Break(())
            }
        }
    }

    /// Queues a snapshot of the present, for a socket that fell behind the game's events.
    async fn resynchronise(&mut self) -> ControlFlow<()> {
        let view = self
            .state
            .registry
            .view(&self.game_id, self.token_hash.as_ref())
            .await;
        let Ok(view) = view else {
            return ControlFlow::Break(());
        };
        let version = serde_json::from_str::<Value>(&view)
            .ok()
            .and_then(|v| v["version"].as_u64());
        self.last_version = version.unwrap_or(self.last_version);
        self.feed(snapshot_message(&view)).await
    }

    /// The ping timer: close a silent connection, and one whose account's credential no longer
    /// holds (signed out, revoked, deleted); else ping it.
    async fn on_ping(&mut self) -> ControlFlow<()> {
        if self.heard.elapsed() > self.state.limits.socket_idle {
            close(&mut self.socket, 1001, "idle").await;
            return ControlFlow::Break(());
        }
        if self.heartbeat
            && !self.quiet
            && self.spoke.elapsed() > self.state.limits.socket_heartbeat
        {
            self.quiet = true;
            self.count_out(self.spoke).await;
        }
        // A database that does not answer now closes nothing: the next ping asks again.
        if let Some(account) = &self.account
            && let Ok(false) = account.holds(&self.state).await
        {
            refuse(&mut self.socket, &ApiError::NotSignedIn, 1008, "signed out").await;
            return ControlFlow::Break(());
        }
        self.send(Message::Ping(Default::default())).await
    }

    /// Handles one message after hello: the reply to send (ack, pong or error).
    async fn answer(&mut self, message: &str) -> Message {
        let parsed: ClientMessage = match parse_client_message(message) {
            Ok(m) => m,
            Err(e) => {
                return error_message(
                    salvaged_id(message).as_deref(),
                    &ApiError::BadRequest(format!("not a message of the protocol: {e}")),
                );
            }
        };
        let (action, id) = match parsed {
            ClientMessage::Ping { id } => {
                let mut pong = json!({ "type": "pong" });
                if let Some(id) = id {
                    pong["id"] = id.into();
                }
                return text(pong);
            }
            ClientMessage::Hello { id, .. } => {
                return error_message(
                    id.as_deref(),
                    &ApiError::BadRequest("hello was already received".into()),
                );
            }
            ClientMessage::Move {
                notation,
                version,
                id,
            } => (
                Action::Move {
                    text: notation,
                    version,
                    id: id.clone(),
                },
                id,
            ),
            ClientMessage::Resign { id } => (Action::Resign, id),
            ClientMessage::Draw { id } => (Action::Draw, id),
            ClientMessage::DrawDecline { id } => (Action::DrawDecline, id),
            ClientMessage::Undo { id } => (Action::Undo, id),
            ClientMessage::UndoAccept { id } => (Action::UndoAccept, id),
            ClientMessage::UndoDecline { id } => (Action::UndoDecline, id),
            ClientMessage::RematchDecline { id } => (Action::RematchDecline, id),
            ClientMessage::Abort { id } => (Action::Abort, id),
            ClientMessage::Claim { id } => (Action::Claim, id),
            ClientMessage::Rematch { id, entropy } => match super::games::entropy(entropy) {
                Ok(entropy) => (Action::Rematch { entropy }, id),
                Err(refused) => return error_message(id.as_deref(), &refused),
            },
        };
        let Some(token) = &self.token_hash else {
            return error_message(id.as_deref(), &ApiError::Unauthorized);
        };
        let counting = Counting::start(&action);
        let result = self.actor.act(token, action).await;
        match counting.answer(&self.state, result) {
            Ok(acted) => ack_message(id.as_deref(), acted.version),
            Err(error) => error_message(id.as_deref(), &error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ClientMessage, Message, ack_message, parse_client_message, read_move};

    /// An ack written directly is the JSON of its fields, whatever the client's id holds.
    #[test]
    fn an_ack_is_the_json_of_its_fields() {
        let ids = [
            None,
            Some("7"),
            Some("a\"b"),
            Some("back\\slash"),
            Some("tab\t"),
            Some("é"),
            Some("\u{7f}"),
        ];
        for id in ids {
            let Message::Text(text) = ack_message(id, 12) else {
                panic!("an ack is a text frame");
            };
            let read: serde_json::Value = serde_json::from_str(text.as_str()).expect("JSON");
            assert_eq!(
                read,
                serde_json::json!({"type": "ack", "id": id, "version": 12}),
                "{id:?}"
            );
        }
    }

    /// The fast path for moves reads what the protocol's enum reads, and refuses (or leaves to
    /// the enum) what it refuses.
    #[test]
    fn a_move_reads_as_the_protocol_reads_it() {
        let messages = [
            r#"{"type":"move","move":"A1-A2","version":3}"#,
            r#"{"type":"move","move":"A1-A2","version":3,"id":"7"}"#,
            r#"{"id":null,"version":0,"move":"A1-A2","type":"move"}"#,
            r#"{"type":"move","move":"A1\u002dA2","version":3,"id":"a\"b"}"#,
            r#"{"type":"move","move":"A1-A2","version":3,"extra":1}"#,
            r#"{"type":"move","move":"A1-A2"}"#,
            r#"{"type":"move","move":"A1-A2","version":-1}"#,
            r#"{"type":"move","move":"A1-A2","version":3,"version":4}"#,
            r#"{"type":"resign","id":"2"}"#,
            r#"{"type":"hello","token":"t"}"#,
            r#"{"type":"moves","move":"A1-A2","version":3}"#,
            r#"{"type":"ping"}"#,
            "not json",
            // What the hand reader takes, and what it leaves to serde.
            r#"{"id":"12","move":"A1-A2","type":"move","version":3}"#,
            r#"{"move":"A1-A2","version":0,"type":"move"}"#,
            r#"{"type":"move","move":"é-ü","version":18446744073709551615}"#,
            r#"{"type":"move","move":"A1-A2","version":18446744073709551616}"#,
            r#"{"type":"move","move":"A1-A2","version":03}"#,
            r#"{"type":"move","move":"A1-A2","version":3.0}"#,
            r#"{"type":"move","move":"A1-A2","version":3e0}"#,
            r#"{"type":"move","move":"A1-A2","version":"3"}"#,
            r#"{"type":"move","move":"","version":3}"#,
            r#"{"type":"move","move":"A1\tA2","version":3}"#,
            "{\"type\":\"move\",\"move\":\"A1\tA2\",\"version\":3}",
            r#"{"type":"move","move":"A1-A2","version":3,"id":null,"id":"7"}"#,
            r#"{"type":"move","type":"move","move":"A1-A2","version":3}"#,
            r#"{"type":"move","move":"A1-A2","move":"A2-A3","version":3}"#,
            r#"{"type":"move","move":"A1-A2","version":3,"id":7}"#,
            r#"{"type":"move","move":"A1-A2","version":3,"id":null}"#,
            r#"{"type":"move","move":"A1-A2","version":-0}"#,
            r#"{"type":"move","move":"A1-A2","version":-3}"#,
            r#"{"type":"move","move":"A1-A2","version":1e3}"#,
            r#"{"type":"move","move":"A1-A2","version":null}"#,
            r#"{"type":"move","move":null,"version":3}"#,
            r#"{"type":null,"move":"A1-A2","version":3}"#,
            r#"{"typ\u0065":"move","move":"A1-A2","version":3}"#,
            r#"{"type":"move","move":"A1-A2","version":3,}"#,
            r#"{"type":"move","move":"A1-A2","version":3} "#,
            r#"{"type":"move","move":"A1-A2","version":3}}"#,
            r#" {"type":"move","move":"A1-A2","version":3}"#,
            r#"{"type": "move", "move": "A1-A2", "version": 3}"#,
            r#"{"type":"move","move":"A1-A2","version":3"#,
            r#"{"type":"move","move":"A1-A2,"version":3}"#,
            r#"{"move":"A1-A2","version":3}"#,
            r#"{"type":"move","version":3}"#,
            r#"{"type":"move","move":"A1-A2"}"#,
            r#"{"type":"resign","move":"A1-A2","version":3}"#,
            r#"{}"#,
            "",
        ];
        for message in messages {
            let fast = parse_client_message(message).map_err(|e| e.to_string());
            let plain = serde_json::from_str::<ClientMessage>(message).map_err(|e| e.to_string());
            assert_eq!(fast, plain, "{message}");
        }
        // The clients' moves take the hand reader: the browser's order, serde_json's sorted keys.
        let clients = [
            r#"{"type":"move","move":"A1-A2","version":3,"id":"7"}"#,
            r#"{"id":"7","move":"A1-A2","type":"move","version":3}"#,
        ];
        for message in clients {
            assert_eq!(
                read_move(message),
                Some(ClientMessage::Move {
                    notation: "A1-A2".into(),
                    version: 3,
                    id: Some("7".into())
                }),
                "{message}"
            );
        }
    }
}
