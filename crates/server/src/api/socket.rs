//! The WebSocket protocol of docs/API.md: `hello` first (with a seat token to play, without to watch,
//! and `since` to receive what was missed), then moves and actions answered by `ack` or `error`,
//! and every event of the game pushed in version order with the view for this socket's seat.
//! Small buffers, a message size limit, a message rate per connection and an idle timeout keep
//! one connection cheap and unable to harm the others.

use super::AppState;
use super::games::run_action;
use super::limits::{Bucket, Rate};
use crate::error::ApiError;
use crate::game::Seat;
use crate::game::actor::{Action, Command, Published};
use crate::game::event::VersionedEvent;
use crate::game::view::Snapshot;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// The first message must arrive within this time.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// How often the server pings an idle socket.
const PING_EVERY: Duration = Duration::from_secs(20);
/// Refusals for rate after which the connection is closed.
const MAX_RATE_REFUSALS: u32 = 50;
/// Per-socket buffers: axum's defaults cost ~134 KB per idle connection, 4 KB buffers ~6 KB.
const BUFFER_BYTES: usize = 4096;
/// Messages up to this many times the protocol's limit are read and refused; larger ones end the
/// connection at the transport.
const TRANSPORT_LIMIT_FACTOR: usize = 16;

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        since: Option<u64>,
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
    },
    Ping,
}

/// The WebSocket of a game (docs/PROTOCOL.md).
#[utoipa::path(get, path = "/api/v1/games/{id}/ws", tag = "games", params(("id" = String, Path)), responses((status = 101, description = "Switching to the WebSocket protocol of docs/PROTOCOL.md"), (status = 404, body = super::docs::ErrorBody)))]
pub async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Refuse an unknown game before upgrading, with a plain 404.
    state.registry.view(&id, None).await?;
    // The transport cuts off far beyond the protocol's limit, so that a message a little too
    // large is read whole and answered with a `too_large` error on an open connection.
    let transport_max = TRANSPORT_LIMIT_FACTOR * state.limits.max_socket_message;
    Ok(ws
        .read_buffer_size(BUFFER_BYTES)
        .write_buffer_size(BUFFER_BYTES)
        .max_write_buffer_size(256 * 1024)
        .max_message_size(transport_max)
        .max_frame_size(transport_max)
        .on_upgrade(move |socket| async move {
            state.metrics.sockets.fetch_add(1, Ordering::Relaxed);
            session(socket, &state, &id).await;
            state.metrics.sockets.fetch_sub(1, Ordering::Relaxed);
        }))
}

fn text(value: Value) -> Message {
    Message::Text(Utf8Bytes::from(value.to_string()))
}

fn error_message(id: Option<&str>, error: &ApiError) -> Message {
    let mut body = error.body();
    body.insert("type".into(), json!("error"));
    if let Some(id) = id {
        body.insert("id".into(), json!(id));
    }
    text(Value::Object(body))
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// An event message; `game` is the view's JSON text (absent for events replayed after `since`).
fn event_message(event: &VersionedEvent, game: Option<String>) -> Message {
    let event_json = serde_json::to_string(event).expect("events serialise");
    let message = match game {
        Some(game) => format!(
            r#"{{"type":"event","version":{},"event":{event_json},"game":{game}}}"#,
            event.version
        ),
        None => format!(
            r#"{{"type":"event","version":{},"event":{event_json}}}"#,
            event.version
        ),
    };
    Message::Text(Utf8Bytes::from(message))
}

/// One connection, from hello to close.
async fn session(mut socket: WebSocket, state: &AppState, game_id: &str) {
    // 1. hello
    let hello = match tokio::time::timeout(HELLO_WITHIN, socket.recv()).await {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<ClientMessage>(&t),
        Ok(Some(Ok(_))) | Err(_) => {
            let error = ApiError::BadRequest(
                "the first message must be {\"type\": \"hello\"}, within 10 s".into(),
            );
            let _ = socket.send(error_message(None, &error)).await;
            let _ = socket.send(close(1008, "no hello")).await;
            return;
        }
        Ok(Some(Err(_)) | None) => return,
    };
    let (token, since) = match hello {
        Ok(ClientMessage::Hello { token, since }) => (token, since),
        other => {
            let message = match other {
                Err(e) => format!("not a message of the protocol: {e}"),
                Ok(_) => "the first message must be hello".into(),
            };
            let _ = socket
                .send(error_message(None, &ApiError::BadRequest(message)))
                .await;
            let _ = socket.send(close(1008, "no hello")).await;
            return;
        }
    };
    if token
        .as_deref()
        .is_some_and(|t| !crate::game::token::looks_like_secret(t))
    {
        let _ = socket
            .send(error_message(None, &ApiError::Unauthorized))
            .await;
        let _ = socket.send(close(1008, "unauthorized")).await;
        return;
    }
    let (subscription, actor) = match state
        .registry
        .subscribe(game_id, token.as_deref(), since)
        .await
    {
        Ok(s) => s,
        Err(error) => {
            let _ = socket.send(error_message(None, &error)).await;
            let _ = socket.send(close(1008, "refused")).await;
            return;
        }
    };
    let seat = subscription.seat;
    let mut events = subscription.events;
    let mut last_version = subscription.snapshot.version;
    let mut snapshot = subscription.snapshot;
    let mut connected = true;
    for event in &subscription.missed {
        connected &= socket.send(event_message(event, None)).await.is_ok();
    }
    connected &= socket
        .send(render_snapshot(state, &snapshot, seat))
        .await
        .is_ok();

    // 2. play
    let rate = Rate {
        per_second: f64::from(state.limits.socket_messages_per_second),
        burst: 2.0 * f64::from(state.limits.socket_messages_per_second),
    };
    let mut bucket = Bucket::full(rate, state.registry.now_ms());
    let mut refusals = 0;
    let mut ping = tokio::time::interval(PING_EVERY);
    let mut heard = tokio::time::Instant::now();
    let mut shutdown = state.shutdown.clone();
    while connected {
        tokio::select! {
            incoming = socket.recv() => {
                heard = tokio::time::Instant::now();
                let message = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        connected = socket.send(error_message(None, &ApiError::BadRequest("messages are JSON text frames".into()))).await.is_ok();
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(_)) => continue, // ping and pong frames
                    Some(Err(error)) => {
                        // A message over the size limit ends up here; say so before closing.
                        let too_large = error.to_string().contains("too long") || error.to_string().contains("size");
                        if too_large {
                            let _ = socket.send(error_message(None, &ApiError::TooLarge { limit: state.limits.max_socket_message })).await;
                            let _ = socket.send(close(1009, "message too large")).await;
                        }
                        break;
                    }
                };
                if message.len() > state.limits.max_socket_message {
                    let error = ApiError::TooLarge { limit: state.limits.max_socket_message };
                    connected = socket.send(error_message(None, &error)).await.is_ok();
                    continue;
                }
                if let Err(retry_after_ms) = bucket.take(rate, state.registry.now_ms()) {
                    refusals += 1;
                    connected = socket.send(error_message(None, &ApiError::RateLimited { retry_after_ms })).await.is_ok();
                    if refusals > MAX_RATE_REFUSALS {
                        let _ = socket.send(close(1008, "too many messages")).await;
                        break;
                    }
                    continue;
                }
                let reply = answer(state, game_id, token.as_deref(), &message).await;
                connected = socket.send(reply).await.is_ok();
            }
            item = events.recv() => match item {
                Ok(published) => match &*published {
                    Published::Event { event, snapshot: after } => {
                        snapshot = after.clone();
                        if event.version > last_version {
                            last_version = event.version;
                            let game = render(state, &snapshot, seat);
                            connected = socket.send(event_message(event, Some(game))).await.is_ok();
                        }
                    }
                    Published::Presence { snapshot: now } => {
                        snapshot = now.clone();
                        connected = socket.send(render_snapshot(state, &snapshot, seat)).await.is_ok();
                    }
                },
                // Fell behind: resynchronise with a snapshot of the present.
                Err(RecvError::Lagged(_)) => {
                    let view = state.registry.view(game_id, token.as_deref()).await.unwrap_or(Value::Null);
                    last_version = view["version"].as_u64().unwrap_or(last_version);
                    connected = socket.send(text(json!({ "type": "snapshot", "game": view }))).await.is_ok();
                }
                Err(RecvError::Closed) => {
                    let _ = socket.send(close(1012, "game restarting; reconnect with since")).await;
                    break;
                }
            },
            _ = ping.tick() => {
                if heard.elapsed() > state.limits.socket_idle {
                    let _ = socket.send(close(1001, "idle")).await;
                    break;
                }
                connected = socket.send(Message::Ping(Default::default())).await.is_ok();
            }
            _ = shutdown.changed() => {
                let _ = socket.send(close(1001, "server shutting down")).await;
                break;
            }
        }
    }
    let _ = actor.send(Command::Unsubscribe { seat }).await;
}

fn render(state: &AppState, snapshot: &Snapshot, seat: Seat) -> String {
    snapshot.render_text(seat, state.registry.now_ms())
}

fn render_snapshot(state: &AppState, snapshot: &Snapshot, seat: Seat) -> Message {
    Message::Text(Utf8Bytes::from(format!(
        r#"{{"type":"snapshot","game":{}}}"#,
        render(state, snapshot, seat)
    )))
}

/// Handles one message after hello: the reply to send (ack, pong or error).
async fn answer(state: &AppState, game_id: &str, token: Option<&str>, message: &str) -> Message {
    let parsed: ClientMessage = match serde_json::from_str(message) {
        Ok(m) => m,
        Err(e) => {
            return error_message(
                None,
                &ApiError::BadRequest(format!("not a message of the protocol: {e}")),
            );
        }
    };
    let (action, id) = match parsed {
        ClientMessage::Ping => return text(json!({ "type": "pong" })),
        ClientMessage::Hello { .. } => {
            return error_message(
                None,
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
        ClientMessage::Abort { id } => (Action::Abort, id),
        ClientMessage::Claim { id } => (Action::Claim, id),
        ClientMessage::Rematch { id } => (Action::Rematch, id),
    };
    match run_action(state, game_id, token, action).await {
        Ok(acted) => text(json!({ "type": "ack", "id": id, "version": acted.version })),
        Err(error) => error_message(id.as_deref(), &error),
    }
}
