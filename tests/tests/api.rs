//! The public API beyond play: records that verify, the event stream, variants and analysis.

use futures_util::StreamExt;
use ludus_engine::record::Record;
use ludus_tests::{Database, Socket, TestServer, game_id, on_both_databases, seat_token};
use serde_json::{Value, json};

/// Plays a local game by always choosing the first legal move until it ends or `limit` moves.
async fn play_first_moves(api: &ludus_tests::Api, game: &str, token: &str, limit: usize) -> Value {
    let mut view = api.view(game, Some(token)).await;
    for _ in 0..limit {
        let Some(mv) = view["legal_moves"]
            .as_array()
            .and_then(|m| m.first())
            .cloned()
        else {
            break;
        };
        let (status, next) = api
            .play(
                game,
                token,
                mv.as_str().unwrap(),
                view["version"].as_u64().unwrap(),
            )
            .await;
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    view
}

/// A game that a move ends: the stream sends the move and then the `finished` its batch holds,
/// every event of the log, and closes.
async fn the_event_stream_sends_the_end_a_move_brings(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let game = game_id(&created).to_string();
    let stream = api.event_stream(&game, "since=0", None).await;
    let end = play_first_moves(&api, &game, seat_token(&created), 5_000).await;
    assert_eq!(end["status"], "finished", "{end}");
    let streamed = tokio::time::timeout(std::time::Duration::from_secs(10), stream.text())
        .await
        .expect("the stream closes with the game")
        .unwrap();
    let streamed: Vec<Value> = streamed
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (_, log) = api
        .get(&format!("/api/v1/games/{game}/events?since=0"), None)
        .await;
    assert_eq!(streamed.last().unwrap()["kind"], "finished");
    assert_eq!(&Value::from(streamed), &log);
    server.stop().await;
}

async fn a_finished_dice_game_record_verifies_and_an_altered_die_fails(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api
        .create(
            json!({ "variant": "pente-grammai-schaedler", "mode": "local", "entropy": "alice" }),
        )
        .await;
    let game = game_id(&created);
    let token = seat_token(&created);
    let commitment = created["commitment"]
        .as_str()
        .expect("dice games publish a commitment")
        .to_string();
    // Two moves cannot end a game (gathering five counters takes at least six).
    let view = play_first_moves(&api, game, token, 2).await;
    assert_eq!(view["status"], "playing");
    let ongoing = api.record(game).await;
    assert!(
        !ongoing.contains("ServerSeed"),
        "the seed stays secret while the game goes on:\n{ongoing}"
    );
    // Play on; a game that has not ended by itself is resigned.
    if play_first_moves(&api, game, token, 30).await["status"] == "playing" {
        let (status, resigned) = api.act(game, Some(token), "resign").await;
        assert_eq!(status, 200, "{resigned}");
    }
    let text = api.record(game).await;
    let record: Record = text.parse().expect("the record parses");
    assert_eq!(record.tag("Commitment"), Some(commitment.as_str()));
    let verified = record.verify().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(verified.dice_proven && verified.rolls > 5 && verified.moves > 5);

    // Alter the third roll: verification fails at that die.
    let mut altered = record.clone();
    let rolls: Vec<usize> = altered
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, ludus_engine::record::Step::Roll(_)))
        .map(|(i, _)| i)
        .collect();
    let ludus_engine::record::Step::Roll(dice) = &mut altered.steps[rolls[2]] else {
        unreachable!()
    };
    dice[0] = dice[0] % 6 + 1;
    let error = altered.verify().unwrap_err().to_string();
    assert!(
        error.contains("roll 3") && error.contains("die 2 of the game"),
        "{error}"
    );
    server.stop().await;
}

async fn the_event_stream_delivers_every_event_once_in_order_across_a_reconnect(
    database: Database,
) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let game = game_id(&created).to_string();
    let token = seat_token(&created).to_string();
    let mut first = api
        .event_stream(&game, "since=0", None)
        .await
        .bytes_stream();
    play_first_moves(&api, &game, &token, 3).await;
    let mut seen: Vec<u64> = Vec::new();
    let mut buffer = String::new();
    while seen.len() < 3 {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(5), first.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some((line, rest)) = buffer.split_once('\n') {
            if !line.trim().is_empty() {
                let event: Value = serde_json::from_str(line).unwrap();
                seen.push(event["version"].as_u64().unwrap());
            }
            buffer = rest.to_string();
        }
    }
    drop(first);
    // Reconnect from the last version seen; play on; the stream resumes exactly there.
    let last = *seen.last().unwrap();
    play_first_moves(&api, &game, &token, 2).await;
    api.act(&game, Some(&token), "resign").await;
    let rest = api
        .event_stream(&game, &format!("since={last}"), None)
        .await
        .text()
        .await
        .unwrap();
    for line in rest.lines().filter(|l| !l.trim().is_empty()) {
        seen.push(
            serde_json::from_str::<Value>(line).unwrap()["version"]
                .as_u64()
                .unwrap(),
        );
    }
    let expected: Vec<u64> = (1..=seen.len() as u64).collect();
    assert_eq!(
        seen, expected,
        "every event once, in order; the stream closed when the game ended"
    );
    let (_, array) = api
        .get(&format!("/api/v1/games/{game}/events?since=0"), None)
        .await;
    assert_eq!(array.as_array().unwrap().len(), seen.len());
    // A page's limit does not cut a stream short, and a limit out of range is refused alike.
    let whole = api
        .event_stream(&game, "since=0&limit=1", None)
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        whole.lines().filter(|l| !l.trim().is_empty()).count(),
        seen.len()
    );
    let refused = api.event_stream(&game, "since=0&limit=0", None).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(
        refused.json::<Value>().await.unwrap()["error"]["code"],
        "bad_request"
    );
    server.stop().await;
}

async fn variants_and_analysis_answer_and_refuse_bad_input(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let (status, variants) = api.get("/api/v1/variants", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"petteia-8") && ids.contains(&"pente-grammai-perimeter"));
    let duodecim = variants
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "duodecim-scripta")
        .unwrap();
    assert_eq!(
        duodecim["board"]["faces"][1]["words"][2], "LVDERE",
        "the board faces, as data to draw"
    );
    assert_eq!(
        duodecim["board"]["faces"][2]["words"],
        json!(null),
        "and a plain face"
    );
    let (status, analysis) = api
        .post(
            "/api/v1/analysis",
            None,
            json!({ "variant": "petteia-6", "position": "4DD/6/L5/2D3/2L3/6 l" }),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(analysis["threatened"]["dark"], json!(["C3"]));
    let (status, after) = api.post("/api/v1/analysis/play", None, json!({ "variant": "petteia-6", "position": "4DD/6/L5/2D3/2L3/6 l", "moves": ["A4-C4"] })).await;
    assert_eq!(status, 200);
    assert_eq!(after["position"], "4DD/6/2L3/6/2L3/6 d 0 1");
    let (status, error) = api
        .post(
            "/api/v1/analysis",
            None,
            json!({ "variant": "petteia-6", "position": "DDD/6 l" }),
        )
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
    let (status, error) = api.post("/api/v1/analysis/play", None, json!({ "variant": "petteia-6", "position": "4DD/6/L5/2D3/2L3/6 l", "moves": ["A4-B5"] })).await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (422, Some("illegal_move"))
    );
    // Moves are counted as a person counts them: the first is move 1.
    let reason = error["error"]["reason"].as_str().unwrap_or_default();
    assert!(reason.starts_with("move 1: "), "{error}");
    let (status, dice) = api.post("/api/v1/analysis", None, json!({ "variant": "pente-grammai-kidd", "position": "-/-/-/-/-/-/-/-/-/- t r:5,5 h:0,0", "dice": [4] })).await;
    assert_eq!(status, 200);
    assert_eq!(dice["legal_moves"], json!(["4:R-0"]));
    // A game's plies replayed at once give the positions /analysis/play gives one by one, a
    // turn's roll on its first ply; the first illegal ply is named as a person counts.
    let kidd = "-/-/-/-/-/-/-/-/-/- t r:5,5 h:0,0";
    let plies = json!([{ "move": "4:R-0", "dice": [4] }, { "move": "2:R-5", "dice": [2] }, { "move": "3:0-3", "dice": [3] }]);
    let (status, replayed) = api
        .post(
            "/api/v1/analysis/replay",
            None,
            json!({ "variant": "pente-grammai-kidd", "position": kidd, "plies": plies }),
        )
        .await;
    assert_eq!(status, 200, "{replayed}");
    let mut position = kidd.to_string();
    for (ply, replayed) in plies
        .as_array()
        .unwrap()
        .iter()
        .zip(replayed["positions"].as_array().unwrap())
    {
        let (_, after) = api
            .post("/api/v1/analysis/play", None, json!({ "variant": "pente-grammai-kidd", "position": position, "dice": ply["dice"], "moves": [ply["move"]] }))
            .await;
        assert_eq!(&after["position"], replayed);
        position = after["position"].as_str().unwrap().to_string();
    }
    let (status, error) = api
        .post("/api/v1/analysis/replay", None, json!({ "variant": "petteia-6", "position": "4DD/6/L5/2D3/2L3/6 l", "plies": [{ "move": "A4-C4" }, { "move": "A6-A1" }] }))
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (422, Some("illegal_move"))
    );
    assert!(
        error["error"]["reason"]
            .as_str()
            .unwrap_or_default()
            .starts_with("move 2: "),
        "{error}"
    );
    let metrics = api.metrics_text().await;
    assert!(metrics.contains("ludus_live_games") && metrics.contains("ludus_move_seconds_bucket"));
    server.stop().await;
}

async fn the_openapi_document_parses_and_covers_every_route(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let (status, document) = api.get("/api/v1/openapi.json", None).await;
    assert_eq!(status, 200);
    assert_eq!(document["openapi"], "3.1.0");
    let documented: Vec<(String, String)> = document["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |method| (method.to_uppercase(), path.clone()))
        })
        .collect();
    // Every route of docs/API.md is documented …
    for route in [
        "POST /api/v1/games",
        "GET /api/v1/games",
        "GET /api/v1/games/{id}",
        "POST /api/v1/games/{id}/moves",
        "POST /api/v1/games/{id}/resign",
        "POST /api/v1/games/{id}/draw",
        "POST /api/v1/games/{id}/draw/decline",
        "POST /api/v1/games/{id}/undo",
        "POST /api/v1/games/{id}/abort",
        "POST /api/v1/games/{id}/claim",
        "POST /api/v1/games/{id}/rematch",
        "GET /api/v1/games/{id}/events",
        "GET /api/v1/games/{id}/record",
        "GET /api/v1/games/{id}/ws",
        "POST /api/v1/invites/{invite}/join",
        "GET /api/v1/variants",
        "POST /api/v1/analysis",
        "POST /api/v1/analysis/play",
        "POST /api/v1/analysis/replay",
        "GET /healthz",
        "GET /readyz",
        "GET /metrics",
    ] {
        let (method, path) = route.split_once(' ').unwrap();
        assert!(
            documented.contains(&(method.to_string(), path.to_string())),
            "{route} is documented"
        );
    }
    // … and every documented route is served (the router is built from the same declarations).
    let client = reqwest::Client::new();
    for (method, path) in &documented {
        let url = format!(
            "{}{}",
            server.base,
            path.replace("{id}", "nosuchgame")
                .replace("{invite}", "nosuchinvite")
        );
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let response = client
            .request(method.clone(), url)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        assert!(
            status != 405 && !body.contains("route not found"),
            "{method} {path} is served: {status} {body}"
        );
    }
    server.stop().await;
}

async fn a_hint_is_a_legal_move_for_the_seat_to_move_in_computer_and_local_games(
    database: Database,
) {
    let server = TestServer::start(database).await;
    let api = server.api();
    for (variant, mode) in [("petteia-6", "computer"), ("duodecim-scripta", "local")] {
        let created = api
            .create(json!({ "variant": variant, "mode": mode, "side": "first" }))
            .await;
        let game = game_id(&created);
        let token = seat_token(&created);
        let view = api.view(game, Some(token)).await;
        let path = format!("/api/v1/games/{game}/hint");
        let (status, hint) = api.get(&path, Some(token)).await;
        assert_eq!(status, 200, "{variant} {mode}: {hint}");
        assert_eq!(hint["version"], view["version"]);
        assert!(
            view["legal_moves"]
                .as_array()
                .unwrap()
                .contains(&hint["move"]),
            "{variant}: the hint {hint} is one of {}",
            view["legal_moves"]
        );
        let (status, _) = api
            .play(
                game,
                token,
                hint["move"].as_str().unwrap(),
                view["version"].as_u64().unwrap(),
            )
            .await;
        assert_eq!(status, 200, "the hint plays");
        assert_eq!(api.get(&path, None).await.0, 401, "a hint needs a seat");
        let (status, _) = api.act(game, Some(token), "resign").await;
        assert_eq!(status, 200);
        let (status, over) = api.get(&path, Some(token)).await;
        assert_eq!(
            (status, over["error"]["code"].as_str()),
            (409, Some("game_over"))
        );
    }
    // Online, a hint would be the computer playing for one side.
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online", "side": "first" }))
        .await;
    api.join(&created).await;
    let game = game_id(&created);
    let token = seat_token(&created);
    let (status, refused) = api
        .get(&format!("/api/v1/games/{game}/hint"), Some(token))
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("forbidden"))
    );
    server.stop().await;
}

/// Moves are counted in `/metrics` as they are answered, over HTTP and over the socket alike:
/// accepted ones with their latency, refused ones by code; other actions are not moves.
async fn moves_are_counted_in_the_metrics_over_http_and_the_socket(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let (game, token) = (game_id(&created), seat_token(&created));
    let counted = [
        "ludus_moves_accepted_total",
        "ludus_move_seconds_count",
        r#"ludus_moves_refused_total{code="stale"}"#,
        r#"ludus_moves_refused_total{code="illegal_move"}"#,
    ];
    assert_eq!(api.metrics(&counted).await, [Some(0), Some(0), None, None]);

    let view = play_first_moves(&api, game, token, 1).await;
    let version = view["version"].as_u64().unwrap();
    let (status, _) = api.play(game, token, "A1-A2", version - 1).await;
    assert_eq!(status, 409);
    assert_eq!(
        api.metrics(&counted).await,
        [Some(1), Some(1), Some(1), None]
    );

    let mut socket = Socket::connect(&server.base, game, Some(token), None).await;
    let mv = socket.next_of("snapshot").await["game"]["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    socket
        .send(json!({ "type": "move", "move": mv, "version": version, "id": "a" }))
        .await;
    assert_eq!(socket.next_of("ack").await["version"], version + 1);
    socket
        .send(json!({ "type": "move", "move": "A1-F6", "version": version + 1, "id": "b" }))
        .await;
    assert_eq!(socket.next_of("error").await["code"], "illegal_move");
    socket.send(json!({ "type": "resign", "id": "c" })).await;
    socket.next_of("ack").await;
    assert_eq!(
        api.metrics(&counted).await,
        [Some(2), Some(2), Some(1), Some(1)]
    );
    socket.close().await;
    server.stop().await;
}

on_both_databases!(
    the_event_stream_sends_the_end_a_move_brings,
    moves_are_counted_in_the_metrics_over_http_and_the_socket,
    the_openapi_document_parses_and_covers_every_route,
    a_hint_is_a_legal_move_for_the_seat_to_move_in_computer_and_local_games,
    a_finished_dice_game_record_verifies_and_an_altered_die_fails,
    the_event_stream_delivers_every_event_once_in_order_across_a_reconnect,
    variants_and_analysis_answer_and_refuse_bad_input,
);

/// Runs `statement` as `TEST_DATABASE_URL`'s user, on its database.
async fn as_admin(statement: String) {
    let admin = ludus_tests::postgres_url().expect("TEST_DATABASE_URL");
    let mut connection = <sqlx::PgConnection as sqlx::Connection>::connect(&admin)
        .await
        .unwrap();
    sqlx::Executor::execute(&mut connection, sqlx::AssertSqlSafe(statement))
        .await
        .unwrap();
}

/// Ends every connection to database `name`, as a restart of Postgres does to the server's.
async fn end_connections_to(name: &str) {
    as_admin(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
    ))
    .await;
}

/// `/readyz` says 503 when the database is gone, and ready again once it is back (Postgres only:
/// a test can take a Postgres database away under the server; a SQLite file cannot be).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn readiness_follows_the_database() {
    let server = TestServer::start(Database::Postgres).await;
    let url = server.database_url.clone();
    let ready = |base: String| async move {
        reqwest::get(format!("{base}/readyz"))
            .await
            .unwrap()
            .status()
            .as_u16()
    };
    assert_eq!(ready(server.base.clone()).await, 200);
    let name = url.rsplit('/').next().unwrap().to_string();
    as_admin(format!(
        "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false"
    ))
    .await;
    end_connections_to(&name).await;
    let (status, body) = {
        let response = reqwest::get(format!("{}/readyz", server.base))
            .await
            .unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    };
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("unreachable"));
    assert_eq!(
        reqwest::get(format!("{}/healthz", server.base))
            .await
            .unwrap()
            .status()
            .as_u16(),
        200,
        "the process is still up"
    );
    as_admin(format!("ALTER DATABASE {name} WITH ALLOW_CONNECTIONS true")).await;
    assert_eq!(ready(server.base.clone()).await, 200, "ready again");
    server.stop().await;
}

/// Moves go on being played, none refused, after Postgres ended every connection of the server
/// (a restart of the database, `pg_terminate_backend`): each connection held from before fails
/// once, with "terminating connection due to administrator command", and the move is written on
/// a new one (from a self-hoster's audit: the next move was refused 503).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn moves_are_played_after_postgres_ends_every_connection() {
    let server = TestServer::start(Database::Postgres).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let (game, token) = (game_id(&created), seat_token(&created));
    let play_one = async || {
        let view = api.view(game, Some(token)).await;
        let version = view["version"].as_u64().unwrap();
        let first_legal = view["legal_moves"][0].as_str().unwrap().to_string();
        api.play(game, token, &first_legal, version).await
    };
    assert_eq!(play_one().await.0, 200);
    end_connections_to(server.database_url.rsplit('/').next().unwrap()).await;
    for turn in 0..4 {
        let (status, answer) = play_one().await;
        assert_eq!(
            status, 200,
            "move {turn} after the connections ended: {answer}"
        );
    }
    server.stop().await;
}

/// A database URL that asks for TLS (`sslmode=require`, as managed Postgres services want) gets
/// encrypted connections, every one of them, and the server plays on them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn postgres_over_tls_when_the_url_asks_for_it() {
    let database = ludus_tests::TestDatabase::create(Database::Postgres).await;
    let server = TestServer::start_with(ludus_tests::test_config(format!(
        "{}?sslmode=require",
        database.url()
    )))
    .await;
    let api = server.api();
    let created = api.local_petteia().await;
    let view = play_first_moves(&api, game_id(&created), seat_token(&created), 2).await;
    assert_eq!(view["version"], 2, "{view}");
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(database.url())
        .await
        .unwrap();
    let (connections, encrypted): (i64, i64) = sqlx::query_as(
        "SELECT count(*), count(*) FILTER (WHERE ssl.ssl) FROM pg_stat_activity activity \
         JOIN pg_stat_ssl ssl USING (pid) \
         WHERE activity.datname = current_database() AND activity.pid <> pg_backend_pid()",
    )
    .fetch_one(&mut admin)
    .await
    .unwrap();
    assert!(
        connections > 0 && encrypted == connections,
        "{encrypted} of the server's {connections} connections are encrypted"
    );
    server.stop().await;
}
