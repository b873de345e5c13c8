//! The server on the open internet: slow clients cannot starve the others, forwarding headers
//! count only from trusted proxies, text the database cannot hold is refused before it gets
//! there, a locked database is unavailable rather than a hang, and every error — whoever answers
//! it — is the JSON error shape with a 4xx.

use ludus_server::config::ServeConfig;
use ludus_tests::{Database, Socket, TestServer, game_id, on_both_databases, seat_token};
use serde_json::{Value, json};
use std::net::IpAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A bound on how long an answer may take before the test fails (not a measurement).
const PROMPTLY: Duration = Duration::from_secs(10);

/// The server's address as `host:port`.
fn authority(server: &TestServer) -> String {
    server.base.trim_start_matches("http://").to_string()
}

/// A client whose connections come from another loopback address than the test's others.
fn client_from(address: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(address.parse::<IpAddr>().expect("an address"))
        .build()
        .expect("a client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_cannot_starve_the_others() {
    let server = TestServer::start_configured(Database::Sqlite, |config| ServeConfig {
        header_read_timeout_secs: 2,
        connections_per_address: 64,
        ..config
    })
    .await;
    // 300 connections that begin a request and never finish its headers.
    let mut slow = Vec::new();
    for _ in 0..300 {
        let mut stream = TcpStream::connect(authority(&server)).await.unwrap();
        // Past the cap the server closes a connection at once, and the write may fail.
        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
        slow.push(stream);
    }
    // Another address is served at once.
    let health = tokio::time::timeout(
        PROMPTLY,
        client_from("127.0.0.2")
            .get(format!("{}/healthz", server.base))
            .send(),
    )
    .await
    .expect("/healthz answers promptly")
    .expect("/healthz answers");
    assert_eq!(health.status(), 200);
    // Every slow connection ends: the ones past the cap at once, the others at the header timeout.
    for stream in &mut slow {
        let mut buffer = [0_u8; 256];
        let ended = tokio::time::timeout(PROMPTLY, async {
            loop {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {} // a 408 answer, then the end
                }
            }
        })
        .await;
        assert!(
            ended.is_ok(),
            "a client that never finishes its headers is disconnected"
        );
    }
    // A connection that opens HTTP/2 without TLS and says nothing more ends too: the server
    // speaks HTTP/1.1 alone (HTTP/2 had no header timeout, and held such a connection for good).
    let mut preface_only = TcpStream::connect(authority(&server)).await.unwrap();
    preface_only
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let ended = tokio::time::timeout(PROMPTLY, preface_only.read_to_end(&mut answer)).await;
    assert!(
        ended.is_ok(),
        "an HTTP/2 preface alone is not held: {}",
        String::from_utf8_lossy(&answer)
    );
    // A request whose head is whole and whose body stalls is answered, and ends, too (from a
    // hostile-client audit: it was held for good).
    let mut stalled = TcpStream::connect(authority(&server)).await.unwrap();
    stalled
        .write_all(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"variant\":")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PROMPTLY, stalled.read_to_end(&mut answer))
        .await
        .expect("a stalled body is cut")
        .unwrap();
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 400"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    // And the address is served again once its connections are gone.
    let again = reqwest::get(format!("{}/healthz", server.base))
        .await
        .unwrap();
    assert_eq!(again.status(), 200);
    server.stop().await;
}

/// A WebSocket counts against its address's connections for as long as it is open, not only
/// until its upgrade (from a third-party client's audit: 80 sockets from one address all opened
/// under a cap of 64).
#[tokio::test]
async fn open_sockets_count_against_their_address() {
    let server = TestServer::start_configured(Database::Sqlite, |config| ServeConfig {
        connections_per_address: 4,
        ..config
    })
    .await;
    let created = server.api().local_petteia().await;
    let game = game_id(&created);
    let mut sockets = Vec::new();
    for _ in 0..4 {
        let mut socket = Socket::connect(&server.base, game, None, None).await;
        socket.next_of("snapshot").await;
        sockets.push(socket);
    }
    let refused = Socket::try_connect(&server.base, game, None, None).await;
    assert!(
        refused.is_none(),
        "a fifth connection from the address opens"
    );
    // Another address is served, and its operator sees the refusal counted.
    let health = client_from("127.0.0.2")
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .expect("/healthz answers");
    assert_eq!(health.status(), 200);
    let metrics = client_from("127.0.0.2")
        .get(format!("{}/metrics", server.base))
        .send()
        .await
        .expect("/metrics answers")
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("\nludus_connections_refused_total 1\n"),
        "{metrics}"
    );
    // And this address again once a socket has closed.
    drop(sockets.pop());
    let mut again = None;
    for _ in 0..50 {
        again = Socket::try_connect(&server.base, game, None, None).await;
        if again.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    again
        .expect("a place freed by a closed socket is taken again")
        .next_of("snapshot")
        .await;
    server.stop().await;
}

/// Creates a game with `X-Forwarded-For: forwarded_for` from loopback; returns the status.
async fn create_as(server: &TestServer, forwarded_for: &str) -> u16 {
    create_with(server, &[("x-forwarded-for", forwarded_for)]).await
}

/// Creates a game with these headers from loopback; returns the status.
async fn create_with(server: &TestServer, headers: &[(&str, &str)]) -> u16 {
    let mut request = reqwest::Client::new().post(format!("{}/api/v1/games", server.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
        .json(&json!({ "variant": "petteia-6", "mode": "local" }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// A request's id is kept from a trusted proxy only: a client's own would go into the log as if
/// a proxy had vouched for it (the self-hoster audit forged `abc` through nginx).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_id_is_kept_from_a_trusted_proxy_only() {
    let behind_proxy = TestServer::start_configured(Database::Sqlite, |config| ServeConfig {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..config
    })
    .await;
    let direct = TestServer::start(Database::Sqlite).await;
    let id_answered = |server: &TestServer| {
        let url = format!("{}/api/v1/variants", server.base);
        async move {
            let answer = reqwest::Client::new()
                .get(url)
                .header("x-request-id", "forged-by-the-client")
                .send()
                .await
                .unwrap();
            answer.headers()["x-request-id"]
                .to_str()
                .unwrap()
                .to_string()
        }
    };
    assert_eq!(id_answered(&behind_proxy).await, "forged-by-the-client");
    let made = id_answered(&direct).await;
    assert_ne!(made, "forged-by-the-client");
    assert_eq!(made.len(), 36, "a UUID made here: {made}");
    behind_proxy.stop().await;
    direct.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_names_the_client_and_anyone_else_cannot() {
    let behind_proxy = TestServer::start_configured(Database::Sqlite, |config| ServeConfig {
        create_per_minute: 1,
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..config
    })
    .await;
    assert_eq!(create_as(&behind_proxy, "198.51.100.1").await, 201);
    assert_eq!(
        create_as(&behind_proxy, "198.51.100.1").await,
        429,
        "the same visitor is limited"
    );
    assert_eq!(
        create_as(&behind_proxy, "198.51.100.2").await,
        201,
        "another visitor behind the proxy has a bucket of its own"
    );
    // The proxy writes X-Forwarded-For and passes a client's own Forwarded on: that one names
    // nobody.
    let spoofed = [
        ("x-forwarded-for", "198.51.100.2"),
        ("forwarded", "for=198.51.100.77"),
    ];
    assert_eq!(
        create_with(&behind_proxy, &spoofed).await,
        429,
        "a visitor cannot name itself in the header the proxy does not write"
    );
    behind_proxy.stop().await;

    // A proxy that writes Forwarded (`--forwarded-header forwarded`): the other way round.
    let forwarded_proxy = TestServer::start_configured(Database::Sqlite, |config| ServeConfig {
        create_per_minute: 1,
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        forwarded_header: ludus_server::api::ForwardingHeader::Forwarded,
        ..config
    })
    .await;
    let visitor = [("forwarded", "for=198.51.100.1")];
    assert_eq!(create_with(&forwarded_proxy, &visitor).await, 201);
    let spoofed = [
        ("forwarded", "for=198.51.100.1"),
        ("x-forwarded-for", "198.51.100.78"),
    ];
    assert_eq!(create_with(&forwarded_proxy, &spoofed).await, 429);
    forwarded_proxy.stop().await;

    let open = TestServer::start_configured(Database::Sqlite, |config| ServeConfig {
        create_per_minute: 1,
        ..config
    })
    .await;
    assert_eq!(create_as(&open, "198.51.100.1").await, 201);
    assert_eq!(
        create_as(&open, "198.51.100.2").await,
        429,
        "a client that names another address is still itself"
    );
    open.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxys_basic_credentials_lock_no_visitor_out() {
    let server = TestServer::start(Database::Sqlite).await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let game = game_id(&created);
    let invite = created["invite"].as_str().unwrap();
    // The browser sends the site's Basic credentials with every request once it has them.
    let with_basic = |method: reqwest::Method, path: &str| {
        reqwest::Client::new()
            .request(method, format!("{}{path}", server.base))
            .header("authorization", "Basic dXNlcjpwYXNz")
    };
    let joined = with_basic(
        reqwest::Method::POST,
        &format!("/api/v1/invites/{invite}/join"),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(joined.status(), 200, "the friend joins");
    for path in [
        format!("/api/v1/games/{game}"),
        format!("/api/v1/games/{game}/events"),
    ] {
        let watched = with_basic(reqwest::Method::GET, &path)
            .send()
            .await
            .unwrap();
        assert_eq!(watched.status(), 200, "{path} is watched");
    }
    let resigned = with_basic(
        reqwest::Method::POST,
        &format!("/api/v1/games/{game}/resign"),
    )
    .send()
    .await
    .unwrap();
    assert_eq!(resigned.status(), 401, "an action still needs a seat token");
    // A Bearer that is no seat token of any game is refused, as before.
    let (status, _) = api
        .get(&format!("/api/v1/games/{game}"), Some("not-a-seat-token"))
        .await;
    assert_eq!(status, 401);
    server.stop().await;
}

async fn nul_bytes_are_refused_before_the_database(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let bad_request = |(status, body): (u16, Value)| {
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("bad_request")),
            "{body}"
        );
    };
    bad_request(
        api.post(
            "/api/v1/games",
            None,
            json!({ "variant": "petteia-6", "mode": "online", "entropy": "a\u{0}b" }),
        )
        .await,
    );
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let game = game_id(&created);
    let invite = created["invite"].as_str().unwrap();
    bad_request(
        api.post(
            &format!("/api/v1/invites/{invite}/join"),
            None,
            json!({ "entropy": "\u{0}" }),
        )
        .await,
    );
    // A game id that cannot be one names no game (the browser shows its not-found page).
    for path in ["/api/v1/games/ab%00cd", "/api/v1/games/ab%00cd/events"] {
        let (status, body) = api.get(path, None).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("not_found"))
        );
    }
    let joined = api.join(&created).await;
    let light = seat_token(&created);
    let version = api.view(game, Some(light)).await["version"]
        .as_u64()
        .unwrap();
    bad_request(
        api.post(
            &format!("/api/v1/games/{game}/moves"),
            Some(light),
            json!({ "move": "A1-A2", "version": version, "id": "m\u{0}1" }),
        )
        .await,
    );
    // Nothing changed, and the database is as healthy as before.
    let view = api.view(game, Some(seat_token(&joined))).await;
    assert_eq!(view["version"].as_u64(), Some(version));
    assert_eq!(api.get("/readyz", None).await.0, 200);
    let (status, _) = api
        .post(
            &format!("/api/v1/games/{game}/moves"),
            Some(light),
            json!({ "move": "A1-A2", "version": version, "id": "m1" }),
        )
        .await;
    assert_eq!(status, 200, "play goes on");
    // The accounts' and players' routes too (from a hostile-client audit: on Postgres each was a
    // 503 `unavailable` and an error in the log, as if the database had failed).
    let token = ludus_tests::player(&server, "leto").await;
    for (path, body) in [
        (
            "/api/v1/session",
            json!({ "username": "le\u{0}to", "password": "whatever1" }),
        ),
        (
            "/api/v1/account/tokens",
            json!({ "description": "bot\u{0}" }),
        ),
        (
            "/api/v1/challenges",
            json!({ "username": "a\u{0}b", "variant": "petteia-6" }),
        ),
    ] {
        bad_request(api.post(path, Some(&token), body).await);
    }
    for path in [
        "/api/v1/players/a%00b",
        "/api/v1/players/a%00b/games",
        "/api/v1/challenges/a%00b/accept",
        "/api/v1/account/tokens/a%00b",
    ] {
        for method in [
            reqwest::Method::GET,
            reqwest::Method::POST,
            reqwest::Method::DELETE,
        ] {
            let response = reqwest::Client::new()
                .request(method.clone(), format!("{}{path}", server.base))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 404, "{method} {path}");
        }
    }
    bad_request(
        api.get("/api/v1/games?before_id=a%00b&before=1", None)
            .await,
    );
    // An escaped backslash before u0000 is no NUL: that text is taken as written (created, 201).
    api.create(json!({ "variant": "petteia-6", "mode": "local", "entropy": "\\u0000" }))
        .await;
    assert_eq!(api.get("/readyz", None).await.0, 200);
    server.stop().await;
}

on_both_databases!(nul_bytes_are_refused_before_the_database);

/// Sends a raw request and returns the status line's code and the body as JSON.
async fn raw(server: &TestServer, request: &[u8]) -> (u16, Value) {
    let mut stream = TcpStream::connect(authority(server)).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PROMPTLY, stream.read_to_end(&mut answer))
        .await
        .expect("the server answers")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_the_json_error_shape_with_a_4xx() {
    let server = TestServer::start(Database::Sqlite).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let game = game_id(&created);
    let long = "a".repeat(300);
    // Each name short enough, the whole past what the system opens (from a hostile-client audit:
    // a 500 and an error in the log).
    let deep = format!("/{}", vec!["b".repeat(200); 25].join("/"));
    let cases = [
        (format!("/{long}"), 404, "not_found"),
        (deep, 404, "not_found"),
        (format!("/static/{long}.js"), 404, "not_found"),
        (
            format!("/api/v1/games/{game}/events?since=-1"),
            400,
            "bad_request",
        ),
        (
            format!("/api/v1/games/{game}/events?since=x"),
            400,
            "bad_request",
        ),
        ("/api/v1/games?limit=abc".into(), 400, "bad_request"),
        ("/api/v1/games?limit=0".into(), 400, "bad_request"),
        ("/api/v1/games?before=yesterday".into(), 400, "bad_request"),
        ("/api/v1/games/%FF%FE".into(), 404, "not_found"),
        ("/api/v1/games/%FF%FE/record".into(), 404, "not_found"),
        // `/api` itself is under `/api` (from a hostile-client audit: the client's page).
        ("/api".into(), 404, "not_found"),
        ("/api/".into(), 404, "not_found"),
    ];
    for (path, status, code) in cases {
        let (got, body) = api.get(&path, None).await;
        assert_eq!(
            (got, body["error"]["code"].as_str()),
            (status, Some(code)),
            "GET {path}: {body}"
        );
        assert!(body["error"]["message"].is_string(), "GET {path}: {body}");
    }
    // A wrong method: 405 in the error shape, and the methods that are allowed.
    let wrong = reqwest::Client::new()
        .delete(format!("{}/api/v1/games", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 405);
    let allow = wrong.headers()["allow"].to_str().unwrap().to_string();
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["error"]["code"], "method_not_allowed");
    // The socket's route, asked with another method than its upgrade's GET, says which.
    let head = reqwest::Client::new()
        .head(format!("{}/api/v1/games/{game}/ws", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        (
            head.status().as_u16(),
            head.headers().get("allow").and_then(|a| a.to_str().ok())
        ),
        (405, Some("GET"))
    );
    // Raw bytes that are not UTF-8 in the request line never reach the application: hyper's
    // parser refuses them with a bare 400 (the one error that cannot have the JSON shape).
    let (status, body) = raw(
        &server,
        b"GET /api/v1/games/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!((status, body), (400, Value::Null));
    server.stop().await;
}

/// A lock held on the event log: moves fail with 503 `unavailable` once the statement timeout
/// passes (instead of hanging), `/readyz` says so, and both recover when the lock is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn a_locked_event_log_is_unavailable_not_a_hang() {
    use sqlx::{Connection, Executor};
    let server = TestServer::start(Database::Postgres).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let (game, token) = (game_id(&created), seat_token(&created));
    let version = api.view(game, Some(token)).await["version"]
        .as_u64()
        .unwrap();
    let mut locker = sqlx::PgConnection::connect(&server.database_url)
        .await
        .unwrap();
    locker.execute("BEGIN").await.unwrap();
    locker
        .execute("LOCK TABLE game_events IN SHARE MODE")
        .await
        .unwrap();

    let (status, refused) = tokio::time::timeout(
        Duration::from_secs(30),
        api.play(game, token, "A1-A2", version),
    )
    .await
    .expect("the move is answered, not left hanging");
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (503, Some("unavailable")),
        "{refused}"
    );
    assert_eq!(
        api.get("/readyz", None).await.0,
        503,
        "/readyz sees the lock"
    );

    locker.execute("ROLLBACK").await.unwrap();
    assert_eq!(api.get("/readyz", None).await.0, 200);
    assert_eq!(api.play(game, token, "A1-A2", version).await.0, 200);
    server.stop().await;
}

/// A server whose client files are missing (a wrong `--static-dir`, a binary run away from its
/// tree) says so and does not start, rather than serving a site of 404s that reports healthy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_its_browser_client_refuses_to_start() {
    let database = ludus_tests::TestDatabase::create(Database::Sqlite).await;
    let config = ServeConfig {
        static_dir: Some(ludus_tests::temp_path("no-client-here")),
        ..ludus_tests::test_config(database.url().to_string())
    };
    let refused = TestServer::refused(config).await;
    assert!(refused.contains("index.html"), "{refused}");
}

/// On SQLite, `/readyz` says whether the database could be written, not only read: a file the
/// server may read but not write (here opened read-only; a backup restored by another user, in a
/// deployment) is not ready, while `/healthz` says the process is up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_that_cannot_be_written_is_not_ready() {
    let database = ludus_tests::TestDatabase::create(Database::Sqlite).await;
    // A first server makes the database and its tables.
    TestServer::start_with(ludus_tests::test_config(database.url().to_string()))
        .await
        .stop()
        .await;
    let config = ludus_tests::test_config(format!("{}?mode=ro", database.url()));
    let server = TestServer::start_unready(config).await;
    let api = server.api();
    assert_eq!(api.get("/healthz", None).await.0, 200);
    assert_eq!(api.get("/readyz", None).await.0, 503);
    server.stop().await;
}

/// A Postgres that refuses the connection is named as such at start (a pool alone said only that
/// it timed out waiting), and promptly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_postgres_is_named_at_start() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let config = ludus_tests::test_config(format!("postgres://ludus@127.0.0.1:{port}/ludus"));
    let refused = TestServer::refused(config).await;
    assert!(refused.contains("refused"), "{refused}");
}

/// A Postgres that answers with an error is quoted in its own words: sqlx's text added "error
/// returned from database" and Postgres's source line ("does not exist at line 948").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn a_postgres_error_at_start_is_said_in_its_own_words() {
    let url = ludus_tests::postgres_url().expect("TEST_DATABASE_URL");
    let (server, _) = url.rsplit_once('/').expect("a database URL");
    let config = ludus_tests::test_config(format!("{server}/ludus_no_such_database"));
    let refused = TestServer::refused(config).await;
    assert!(
        refused.ends_with(r#"database: database "ludus_no_such_database" does not exist"#),
        "{refused}"
    );
}

/// Every answer, page or API, forbids framing by another site, type sniffing and the site's
/// addresses in a `Referer` (a framed game page could be clicked into a resignation; an invite's
/// path is its secret).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_browser_protections() {
    let server = TestServer::start(Database::Sqlite).await;
    let client = reqwest::Client::new();
    for path in [
        "/",
        "/join/0123456789abcdefghijABCDEFGHIJ01",
        "/js/app.js",
        "/api/v1/games",
        "/api/v1/games/nope",
        "/no-such-page",
    ] {
        let answer = client
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        let headers = answer.headers();
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        assert_eq!(
            (
                header("content-security-policy"),
                header("x-frame-options"),
                header("x-content-type-options"),
                header("referrer-policy"),
            ),
            (
                Some("frame-ancestors 'none'"),
                Some("DENY"),
                Some("nosniff"),
                Some("same-origin")
            ),
            "{path} ({})",
            answer.status()
        );
    }
    server.stop().await;
}

/// The client's files are revalidated before each use: after an upgrade a browser loads the new
/// scripts rather than yesterday's against the new server (they were served with a date only,
/// which browsers may trust for days).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_s_files_are_revalidated_after_an_upgrade() {
    let server = TestServer::start(Database::Sqlite).await;
    let client = reqwest::Client::new();
    for path in ["/", "/game/g1", "/js/app.js", "/css/ludus.css"] {
        let answer = client
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{path}");
        assert_eq!(
            answer
                .headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok()),
            Some("no-cache"),
            "{path}"
        );
        // Revalidating costs a request, not the file: an unchanged one is answered 304.
        let modified = answer.headers().get("last-modified").cloned();
        if let Some(modified) = modified {
            let again = client
                .get(format!("{}{path}", server.base))
                .header("if-modified-since", modified)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), 304, "{path}");
        }
    }
    server.stop().await;
}

/// The page loads its scripts and styles under its files' version: a release whose files differ
/// names them at new addresses, which no browser has cached (from a self-hoster's audit of an
/// upgrade: the previous release's files, kept by the browser's own guess, ran against the new
/// server for days, or mixed with new ones into a blank page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upgrade_s_client_files_come_at_new_addresses() {
    let copy = ludus_tests::temp_path("client");
    let source = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../static"));
    copy_folder(source, &copy);
    let files_of = async |static_dir: &std::path::Path| {
        let database = ludus_tests::TestDatabase::create(Database::Sqlite).await;
        let server = TestServer::start_with(ServeConfig {
            static_dir: Some(static_dir.to_path_buf()),
            ..ludus_tests::test_config(database.url().to_string())
        })
        .await;
        let page = reqwest::get(format!("{}/game/g1", server.base))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let script = page
            .split(r#"<script type="module" src=""#)
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the page loads its script")
            .to_string();
        let folder = script
            .strip_suffix("/js/app.js")
            .expect("under a folder")
            .to_string();
        // The script's imports are relative: the whole client comes from that folder.
        for file in ["/js/app.js", "/js/game/panels.js", "/css/ludus.css"] {
            let answer = reqwest::get(format!("{}{folder}{file}", server.base))
                .await
                .unwrap();
            assert_eq!(answer.status(), 200, "{folder}{file}");
            assert_eq!(
                answer.text().await.unwrap(),
                std::fs::read_to_string(static_dir.join(&file[1..])).unwrap()
            );
        }
        assert!(
            page.contains(&format!(r#"href="{folder}/css/ludus.css""#)),
            "{page}"
        );
        server.stop().await;
        folder
    };
    let before = files_of(&copy).await;
    assert_eq!(
        files_of(&copy).await,
        before,
        "the same files, the same addresses"
    );
    let panels = copy.join("js/game/panels.js");
    let text = std::fs::read_to_string(&panels).unwrap();
    std::fs::write(&panels, format!("{text}\n// the next release\n")).unwrap();
    assert_ne!(
        files_of(&copy).await,
        before,
        "a file changed: new addresses"
    );
    let _ = std::fs::remove_dir_all(copy.parent().unwrap_or(&copy));
}

/// Copies a folder and everything in it.
fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
