//! Bad input over the socket and the body limit: a clear, structured error, nothing changed,
//! and a connection that cannot harm the others (a flood is refused, a client that stops reading is
//! dropped). Graceful shutdown closes sockets with a reason.

use ludus_server::config::ServeConfig;
use ludus_tests::{Database, Socket, TestServer, game_id, on_both_databases, seat_token};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio_tungstenite::tungstenite::Message;

async fn bad_socket_messages_get_errors_and_change_nothing(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let game = game_id(&created);
    let token = seat_token(&created);
    let mut socket = Socket::connect(&server.base, game, Some(token), None).await;
    let version = socket.next_of("snapshot").await["game"]["version"]
        .as_u64()
        .unwrap();

    socket.send_raw(Message::text("{not json")).await;
    assert_eq!(socket.next_of("error").await["code"], "bad_request");
    socket.send(json!({ "type": "teleport" })).await;
    assert_eq!(socket.next_of("error").await["code"], "bad_request");
    socket
        .send(json!({ "type": "move", "move": "A1-A6", "version": version, "id": "bad" }))
        .await;
    let illegal = socket.next_of("error").await;
    assert_eq!(
        (illegal["code"].as_str(), illegal["id"].as_str()),
        (Some("illegal_move"), Some("bad"))
    );
    assert_eq!(illegal["reason"], "A6 is occupied");
    socket.send(json!({ "type": "ping", "id": "p1" })).await;
    assert_eq!(
        socket.next_of("pong").await["id"],
        "p1",
        "a ping's id comes back"
    );
    assert_eq!(
        api.view(game, Some(token)).await["version"],
        version,
        "nothing changed"
    );

    // An oversized message: an error that says so, with the message's id when it has one, and
    // the connection stays usable.
    socket
        .send_raw(Message::text(format!(
            "{{\"type\":\"ping\",\"id\":\"big\",\"pad\":\"{}\"}}",
            "x".repeat(10_000)
        )))
        .await;
    let too_large = socket.next_of("error").await;
    assert_eq!(
        (too_large["code"].as_str(), too_large["id"].as_str()),
        (Some("too_large"), Some("big"))
    );
    // A message that is not one of the protocol (an unknown field, a version as text) is
    // answered with its id too: a client waiting for that id hears why.
    for (wrong, id) in [
        (json!({ "type": "resign", "id": "r1", "extra": 1 }), "r1"),
        (
            json!({ "type": "move", "move": "A1-A2", "version": "0", "id": "m1" }),
            "m1",
        ),
    ] {
        socket.send(wrong).await;
        let refused = socket.next_of("error").await;
        assert_eq!(
            (refused["code"].as_str(), refused["id"].as_str()),
            (Some("bad_request"), Some(id))
        );
    }
    socket.send(json!({ "type": "ping" })).await;
    assert_eq!(socket.next_of("pong").await["type"], "pong");
    server.stop().await;
}

/// A server at the default socket rate (test_config raises it for the tests that play fast), a
/// local game, and a spectator's socket past its snapshot, ready to flood.
/// A client frame as a client writes it: `first` (FIN, reserved bits, opcode), a length under 126
/// with the mask bit set, a mask, and `payload` masked with it.
fn masked_frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut frame = vec![first, 0x80 | payload.len() as u8];
    frame.extend(mask);
    frame.extend(payload.iter().zip(mask.iter().cycle()).map(|(b, m)| b ^ m));
    frame
}

/// A frame the WebSocket protocol forbids, text that is not UTF-8, or a message past the
/// transport's limit, before the hello or after it: the client is told why (`error`) and the
/// connection closed with the code RFC 6455 gives it (it was dropped without a close frame, so a
/// client saw only an abnormal closure).
async fn a_broken_frame_is_told_why_and_closed_with_its_code(database: Database) {
    let server = TestServer::start(database).await;
    let created = server.api().local_petteia().await;
    let game = game_id(&created);
    let too_large = "x".repeat(128 << 10);
    let cases = [
        (
            "text that is not UTF-8",
            masked_frame(0x81, &[0xff, 0xfe]),
            1007,
            "bad_request",
        ),
        (
            "a reserved bit set",
            masked_frame(0xc1, b"{}"),
            1002,
            "bad_request",
        ),
        (
            "a fragmented ping",
            masked_frame(0x09, b""),
            1002,
            "bad_request",
        ),
        (
            "an unmasked frame",
            vec![0x81, 0x02, b'{', b'}'],
            1002,
            "bad_request",
        ),
        ("past the transport's limit", Vec::new(), 1009, "too_large"),
    ];
    for hello in [false, true] {
        for (kind, frame, code, error) in &cases {
            let mut socket = Socket::open(&server.base, game, "")
                .await
                .expect("the socket opens");
            if hello {
                socket.send(json!({ "type": "hello" })).await;
                socket.next_of("snapshot").await;
            }
            if frame.is_empty() {
                socket.send_raw(Message::text(too_large.as_str())).await;
            } else {
                socket.send_bytes(frame).await;
            }
            let told = socket
                .next_sent()
                .await
                .unwrap_or_else(|| panic!("{kind}, hello {hello}: the error before the close"));
            assert_eq!(
                (&told["type"], &told["code"]),
                (&json!("error"), &json!(error)),
                "{kind}, hello {hello}: {told}"
            );
            assert!(socket.next_sent().await.is_none(), "{kind}: closed");
            assert_eq!(socket.close_code(), Some(*code), "{kind}, hello {hello}");
        }
    }
    server.stop().await;
}

async fn flood_ready(database: Database) -> (TestServer, Value, Socket) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        socket_messages_per_second: 20,
        ..config
    })
    .await;
    let created = server.api().local_petteia().await;
    let mut flood = Socket::connect(&server.base, game_id(&created), None, None).await;
    flood.next_of("snapshot").await;
    (server, created, flood)
}

async fn a_flood_is_rate_limited_and_the_game_is_unharmed(database: Database) {
    let (server, created, mut flood) = flood_ready(database).await;
    let api = server.api();
    let game = game_id(&created);
    // Twice the burst: the second half is refused (but not so many that the server hangs up).
    for n in 0..80 {
        flood
            .send(json!({ "type": "ping", "id": format!("p{n}") }))
            .await;
    }
    let mut limited = None;
    while let Some(message) = flood.next().await {
        if message["code"] == "rate_limited" {
            limited = Some(message);
            break;
        }
    }
    let limited = limited.expect("a flood is refused");
    assert!(limited["retry_after_ms"].as_u64().is_some());
    assert!(
        limited["id"].as_str().is_some_and(|id| id.starts_with('p')),
        "the refusal names the message it refuses: {limited}"
    );
    // Another client plays on undisturbed.
    let token = seat_token(&created);
    let version = api.view(game, Some(token)).await["version"]
        .as_u64()
        .unwrap();
    assert_eq!(api.play(game, token, "A1-A2", version).await.0, 200);
    server.stop().await;
}

async fn a_flood_past_the_refusals_is_closed_and_hears_why(database: Database) {
    let (server, created, mut flood) = flood_ready(database).await;
    // Far past the burst and the refusals allowed: the server closes, and the client still
    // reads the refusals and the closing frame (closed with its data unread, the connection
    // was reset and both were lost).
    for _ in 0..200 {
        flood.send(json!({ "type": "ping" })).await;
    }
    let mut refused = 0;
    while let Some(message) = flood.next().await {
        if message["code"] == "rate_limited" {
            refused += 1;
        }
    }
    assert!(refused > 0, "the refusals arrive");
    assert_eq!(flood.close_code(), Some(1008), "the closing frame arrives");
    // Every frame counts, whatever it is: a flood of binary frames, of messages over the size
    // limit or of ping frames is closed alike (from a hostile-client audit: the first two were
    // answered a million times in 2 s and never closed, since they were refused before the rate
    // was asked).
    let frames = [
        ("binary", Message::binary(vec![1, 2, 3])),
        ("too large", Message::text("x".repeat(5_000))),
        ("ping frames", Message::Ping(Vec::new().into())),
    ];
    for (kind, frame) in frames {
        let mut flood = Socket::connect(&server.base, game_id(&created), None, None).await;
        flood.next_of("snapshot").await;
        for _ in 0..200 {
            flood.send_raw(frame.clone()).await;
        }
        while flood.next().await.is_some() {}
        assert_eq!(flood.close_code(), Some(1008), "{kind}");
    }
    server.stop().await;
}

async fn creating_games_too_fast_is_rate_limited(database: Database) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        create_per_minute: 2,
        ..config
    })
    .await;
    let api = server.api();
    let body = json!({ "variant": "petteia-6", "mode": "local" });
    assert_eq!(api.post("/api/v1/games", None, body.clone()).await.0, 201);
    assert_eq!(api.post("/api/v1/games", None, body.clone()).await.0, 201);
    let (status, refused) = api.post("/api/v1/games", None, body).await;
    assert_eq!(status, 429);
    assert_eq!(refused["error"]["code"], "rate_limited");
    assert!(refused["error"]["retry_after_ms"].as_u64().unwrap() > 0);
    server.stop().await;
}

async fn shutdown_closes_sockets_with_a_reason(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let game = game_id(&created).to_string();
    let url = format!(
        "{}/api/v1/games/{game}/ws",
        server.base.replacen("http", "ws", 1)
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    socket
        .send(Message::text(json!({ "type": "hello" }).to_string()))
        .await
        .unwrap();
    let _snapshot = socket.next().await;
    let stopping = tokio::spawn(server.stop());
    let mut reason = None;
    while let Ok(Some(Ok(frame))) =
        tokio::time::timeout(std::time::Duration::from_secs(10), socket.next()).await
    {
        if let Message::Close(Some(close)) = frame {
            reason = Some(close.reason.to_string());
            break;
        }
    }
    assert_eq!(reason.as_deref(), Some("server shutting down"));
    stopping.await.unwrap();
}

/// A client that tags every message with an id (a bot writer's audit): the hello may carry one,
/// and a refusal before or of the hello gives it back, as every other message's does.
async fn a_hello_may_carry_an_id_and_its_refusal_gives_it_back(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let game = game_id(&created);
    let token = seat_token(&created);
    let mut tagged = Socket::open(&server.base, game, "")
        .await
        .expect("the socket opens");
    tagged
        .send(json!({ "type": "hello", "token": token, "id": "h1" }))
        .await;
    tagged.next_of("snapshot").await;
    tagged.send(json!({ "type": "hello", "id": "h2" })).await;
    let again = tagged.next_of("error").await;
    assert_eq!(
        (&again["id"], &again["code"]),
        (&json!("h2"), &json!("bad_request")),
        "{again}"
    );
    for (first, kind) in [
        (
            json!({ "type": "move", "move": "A1-A2", "version": 0, "id": "m0" }),
            "a move before the hello",
        ),
        (
            json!({ "type": "hello", "tokn": token, "id": "m0" }),
            "a hello with a misspelt field",
        ),
    ] {
        let mut socket = Socket::open(&server.base, game, "")
            .await
            .expect("the socket opens");
        socket.send(first).await;
        let told = socket
            .next_sent()
            .await
            .unwrap_or_else(|| panic!("{kind}: no error"));
        assert_eq!(
            (&told["id"], &told["code"]),
            (&json!("m0"), &json!("bad_request")),
            "{kind}: {told}"
        );
        assert!(socket.next_sent().await.is_none(), "{kind}: closed");
        assert_eq!(socket.close_reason(), Some("no hello"), "{kind}");
    }
    server.stop().await;
}

/// A spectator that says hello and then reads nothing, over a connection with a small receive
/// buffer: once the buffers between fill, the server's writes to it wait.
async fn stalled_spectator(base: &str, game: &str) -> tokio::net::TcpStream {
    use futures_util::SinkExt;
    let address = base.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let stream = socket.connect(address).await.unwrap();
    let url = format!("ws://{address}/api/v1/games/{game}/ws");
    let (mut socket, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    socket
        .send(Message::text(json!({ "type": "hello" }).to_string()))
        .await
        .unwrap();
    socket.into_inner()
}

async fn a_client_that_stops_reading_is_dropped_and_counts_no_more(database: Database) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        write_timeout_secs: 1,
        ..config
    })
    .await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "petteia-8", "mode": "local" }))
        .await;
    let (game, token) = (game_id(&created), seat_token(&created));
    // A long game makes every view long, and a takeback sends every socket the whole view.
    let mut view = api.view(game, Some(token)).await;
    while view["moves"].as_array().unwrap().len() < 100 && view["status"] == "playing" {
        let version = view["version"].as_u64().unwrap();
        // Spread over the legal moves (the first each time repeats a position within 30).
        let legal = view["legal_moves"].as_array().unwrap();
        let mv = legal[(version as usize * 7_919) % legal.len()]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(api.play(game, token, &mv, version).await.0, 200);
        view = api.view(game, Some(token)).await;
    }
    assert_eq!(view["status"], "playing", "{view}");
    let spectators = |view: Value| view["spectators"].as_u64().unwrap();
    let mut stalled = stalled_spectator(&server.base, game).await;
    while spectators(api.view(game, None).await) != 1 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A move and its takeback, again and again, until the views the stalled one is sent fill the
    // buffers and a write to it waits past the timeout: then it is dropped, and no longer counted.
    let mut takebacks = 0;
    loop {
        let view = api.view(game, Some(token)).await;
        let version = view["version"].as_u64().unwrap();
        let first = view["legal_moves"][0].as_str().unwrap().to_string();
        assert_eq!(api.play(game, token, &first, version).await.0, 200);
        assert_eq!(api.act(game, Some(token), "undo").await.0, 200);
        takebacks += 1;
        if takebacks % 25 == 0 && spectators(api.view(game, None).await) == 0 {
            break;
        }
        assert!(
            takebacks < 5_000,
            "a spectator that reads nothing is still counted after {takebacks} takebacks"
        );
    }
    // The server closed its connection: what it had sent is read, then the end.
    let mut buffer = vec![0; 64 * 1024];
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            match stalled.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the server still holds the stalled connection"
    );
    // Everyone else is unharmed.
    let view = api.view(game, Some(token)).await;
    let version = view["version"].as_u64().unwrap();
    if let Some(next) = view["legal_moves"][0].as_str() {
        assert_eq!(api.play(game, token, next, version).await.0, 200);
    }
    server.stop().await;
}

/// Spectators reconnecting in a loop send the players no storm of views (from a hostile-client
/// audit: each arrival and departure sent every socket a whole view, 2,300 a second to a player).
async fn a_crowd_coming_and_going_is_told_at_most_once_a_second(database: Database) {
    let server = TestServer::start(database).await;
    let created = server.api().local_petteia().await;
    let game = game_id(&created);
    let mut player = Socket::connect(&server.base, game, Some(seat_token(&created)), None).await;
    player.next_of("snapshot").await;
    let started = tokio::time::Instant::now();
    for _ in 0..30 {
        let mut watcher = Socket::connect(&server.base, game, None, None).await;
        watcher.next_of("snapshot").await;
        watcher.close().await;
    }
    let seconds = started.elapsed().as_secs() as usize;
    let mut told = Vec::new();
    while let Ok(Some(message)) =
        tokio::time::timeout(Duration::from_millis(2_500), player.next()).await
    {
        if message["type"] == "snapshot" {
            told.push(message["game"]["spectators"].clone());
        }
    }
    // Sixty changes of the count: told once at once, then at most once a second, the last
    // once the crowd is gone.
    assert!(
        told.len() <= seconds + 3,
        "{} views in {seconds} s: {told:?}",
        told.len()
    );
    assert_eq!(told.last(), Some(&json!(0)), "{told:?}");
    server.stop().await;
}

on_both_databases!(
    a_hello_may_carry_an_id_and_its_refusal_gives_it_back,
    a_crowd_coming_and_going_is_told_at_most_once_a_second,
    a_broken_frame_is_told_why_and_closed_with_its_code,
    bad_socket_messages_get_errors_and_change_nothing,
    a_client_that_stops_reading_is_dropped_and_counts_no_more,
    a_flood_is_rate_limited_and_the_game_is_unharmed,
    a_flood_past_the_refusals_is_closed_and_hears_why,
    creating_games_too_fast_is_rate_limited,
    shutdown_closes_sockets_with_a_reason,
);
