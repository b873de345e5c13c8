//! The black-box harness: start the real server on an ephemeral port with a fresh database
//! (SQLite, or Postgres beside `TEST_DATABASE_URL`'s), removed after the test, and talk to it as
//! any client would, over HTTP and WebSocket. One way to start the server in tests: [`TestServer::start`].

use futures_util::{SinkExt, StreamExt};
use ludus_server::config::{LogFormat, ServeConfig};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Database {
    Sqlite,
    Postgres,
}

/// The Postgres URL of this run, if the run has one.
pub fn postgres_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A fresh, unique path under the system's temporary directory (in a folder of its own, which
/// the caller removes).
pub fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ludus-tests-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

/// A fresh, empty database for one test, removed when dropped (even when the test fails): a
/// SQLite file in a folder of its own, or a new Postgres database beside `TEST_DATABASE_URL`'s, so
/// a server under test starts empty (and rebuilds only its own games after a restart).
#[derive(Debug)]
pub struct TestDatabase {
    url: String,
    kind: Database,
}

impl TestDatabase {
    /// Panics when Postgres is asked for and `TEST_DATABASE_URL` is not set: the Postgres tests
    /// are ignored without it, so reaching here means someone ran them on purpose.
    pub async fn create(kind: Database) -> TestDatabase {
        let url = match kind {
            Database::Sqlite => format!("sqlite://{}", temp_path("ludus.db").display()),
            Database::Postgres => {
                let admin = postgres_url().expect(
                    "TEST_DATABASE_URL is not set: the Postgres tests need a Postgres database",
                );
                fresh_postgres_database(&admin).await
            }
        };
        TestDatabase { url, kind }
    }

    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match self.kind {
            Database::Sqlite => {
                let file = self.url.trim_start_matches("sqlite://");
                if let Some(dir) = std::path::Path::new(file).parent() {
                    let _ = std::fs::remove_dir_all(dir);
                }
            }
            Database::Postgres => {
                // Drop runs inside the test's runtime, which cannot be blocked on: the database
                // is dropped from a thread with a runtime of its own.
                let (admin, name) = (postgres_url(), database_name(&self.url).to_string());
                let dropped = std::thread::spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .expect("a runtime");
                    runtime.block_on(async {
                        let Some(admin) = admin else { return };
                        if let Ok(mut connection) =
                            <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await
                        {
                            drop_database(&mut connection, &name).await;
                        }
                    });
                });
                let _ = dropped.join();
            }
        }
    }
}

/// Drops a database [`fresh_postgres_database`] made (best effort), from the admin URL it was
/// made with.
pub async fn remove_postgres_database(admin: &str, url: &str) {
    if let Ok(mut connection) = <sqlx::PgConnection as sqlx::Connection>::connect(admin).await {
        drop_database(&mut connection, database_name(url)).await;
    }
}

/// The database name at the end of a Postgres URL.
fn database_name(url: &str) -> &str {
    url.rsplit_once('/').map_or(url, |(_, name)| name)
}

/// Drops a test database, closing whatever connections a server left open. Best effort: a
/// failure leaves it for [`drop_databases_of_finished_runs`].
async fn drop_database(connection: &mut sqlx::PgConnection, name: &str) {
    if name.starts_with("ludus_test_")
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
        let _ = sqlx::Executor::execute(&mut *connection, sqlx::AssertSqlSafe(drop)).await;
    }
}

/// Creates a new, empty database on the server of `admin` (a Postgres URL); returns its URL.
/// Tests use [`TestDatabase`], which also removes it.
pub async fn fresh_postgres_database(admin: &str) -> String {
    let name = format!(
        "ludus_test_{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
        rand::random::<u32>()
    );
    let mut connection = <sqlx::PgConnection as sqlx::Connection>::connect(admin)
        .await
        .expect("the Postgres URL connects");
    drop_databases_of_finished_runs(&mut connection).await;
    sqlx::Executor::execute(
        &mut connection,
        sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")),
    )
    .await
    .expect("a fresh database is created");
    let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
    format!("{base}/{name}")
}

/// Drops the databases of earlier processes that did not drop their own (killed, or the bench),
/// recognised by the process id in their names. Best effort.
async fn drop_databases_of_finished_runs(connection: &mut sqlx::PgConnection) {
    // Whether a process is still running is read from /proc: without it, drop nothing.
    if !std::path::Path::new("/proc/self").exists() {
        return;
    }
    let names: Vec<String> =
        sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE 'ludus\\_test\\_%'")
            .fetch_all(&mut *connection)
            .await
            .unwrap_or_default();
    for name in names {
        let pid = name.split('_').nth(2).unwrap_or_default();
        if !pid.is_empty() && !std::path::Path::new("/proc").join(pid).exists() {
            drop_database(connection, &name).await;
        }
    }
}

/// The configuration tests start from: loopback, no computer delay, generous rate limits.
pub fn test_config(database_url: String) -> ServeConfig {
    ServeConfig {
        listen: "127.0.0.1:0".parse().expect("an address"),
        database_url,
        public_url: None,
        static_dir: Some(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../static"
        ))),
        log_format: LogFormat::Text,
        create_per_minute: 10_000,
        join_per_minute: 10_000,
        sign_in_per_minute: 10_000,
        // Tests play as fast as the server answers; the flood test sets the default back.
        socket_messages_per_second: 10_000,
        socket_heartbeat_secs: 120,
        computer_delay_ms: 10,
        claim_after_timed_secs: 60,
        claim_after_untimed_secs: 600,
        hints_per_minute: 10_000,
        invite_expiry_secs: 86_400,
        trusted_proxies: Vec::new(),
        forwarded_header: Default::default(),
        header_read_timeout_secs: 10,
        write_timeout_secs: 10,
        // Every test client connects from loopback; the slow-client test sets the default back.
        connections_per_address: 10_000,
        // The default (ludus_store::POSTGRES_CONNECTIONS).
        database_connections: 64,
    }
}

/// The real server, in this process, on an ephemeral port.
#[derive(Debug)]
pub struct TestServer {
    pub base: String,
    pub database_url: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), String>>,
    /// The database made for this server, removed after it (none when the caller brought one).
    _database: Option<TestDatabase>,
    /// Set by [`TestServer::start_paused`]: time stands still until the test moves it.
    frozen: Option<FrozenTime>,
}

/// How long, in real time, a test's time may stand still: past that the hold ends by itself, so
/// that a test stuck waiting fails on one of its timeouts instead of hanging.
const FROZEN_AT_MOST: Duration = Duration::from_secs(120);

/// Time that moves only when the test moves it ([`TestServer::advance`]).
///
/// Tokio's paused clock advances by itself to the next timer whenever the runtime is idle, and a
/// runtime that waits on its database is idle (SQLite answers from a thread of its own, Postgres
/// through a socket): timers would fire at random moments, a flag early or the pool's acquire
/// timeout. A blocking task stops that for as long as it runs (tokio's documented way, see
/// `tokio::time::pause`): held for the whole test, requests and queries take the real time they
/// take while the server's clock stands still.
#[derive(Debug)]
struct FrozenTime {
    release: std::sync::mpsc::Sender<()>,
}

impl FrozenTime {
    /// Panics unless the runtime's time is paused.
    fn hold() -> FrozenTime {
        let (release, released) = std::sync::mpsc::channel::<()>();
        tokio::task::spawn_blocking(move || {
            let _ = released.recv_timeout(FROZEN_AT_MOST);
        });
        FrozenTime { release }
    }
}

impl Drop for FrozenTime {
    fn drop(&mut self) {
        let _ = self.release.send(());
    }
}

impl TestServer {
    /// Starts a server on a fresh database of that kind, with the tests' configuration.
    pub async fn start(database: Database) -> TestServer {
        TestServer::start_configured(database, |config| config).await
    }

    /// The same with settings changed from the tests' configuration, e.g.
    /// `|config| ServeConfig { create_per_minute: 2, ..config }`.
    pub async fn start_configured(
        database: Database,
        configure: impl FnOnce(ServeConfig) -> ServeConfig,
    ) -> TestServer {
        let database = TestDatabase::create(database).await;
        let mut server = TestServer::start_with(configure(test_config(database.url.clone()))).await;
        server._database = Some(database);
        server
    }

    /// A server whose time stands still until the test moves it with [`TestServer::advance`]:
    /// for the scenarios about clocks, presence and expiry, which then wait no real time. The
    /// test runs on a paused runtime (the `paused:` list of [`on_both_databases!`]), and so does
    /// the server.
    pub async fn start_paused(
        database: Database,
        configure: impl FnOnce(ServeConfig) -> ServeConfig,
    ) -> TestServer {
        let frozen = FrozenTime::hold();
        let mut server = TestServer::start_configured(database, |config| {
            configure(ServeConfig {
                // Idle keep-alive connections of the test's client are not closed under it when
                // the test moves time on.
                header_read_timeout_secs: 86_400,
                ..config
            })
        })
        .await;
        server.frozen = Some(frozen);
        server
    }

    /// Moves the time of a [`TestServer::start_paused`] server on: every timer due by then fires.
    pub async fn advance(&self, by: Duration) {
        assert!(
            self.frozen.is_some(),
            "only a paused server's time is moved"
        );
        tokio::time::advance(by).await;
    }

    /// Starts a server on the database `config` names, which the caller keeps.
    pub async fn start_with(config: ServeConfig) -> TestServer {
        TestServer::start_until(config, "/readyz").await
    }

    /// Like [`TestServer::start_with`], for a server that serves without being ready (its
    /// database refuses writes, say): it answers `/healthz`.
    pub async fn start_unready(config: ServeConfig) -> TestServer {
        TestServer::start_until(config, "/healthz").await
    }

    /// What a server that refuses to start says, within a bound (not a measurement): a setting
    /// it cannot serve under ends it before it serves.
    pub async fn refused(config: ServeConfig) -> String {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .expect("a free port");
        tokio::time::timeout(
            Duration::from_secs(10),
            ludus_server::run(listener, config, std::future::pending()),
        )
        .await
        .expect("it stops at once rather than serving")
        .expect_err("it refuses to start")
    }

    /// Starts a server and waits until `path` answers 200.
    async fn start_until(config: ServeConfig, path: &str) -> TestServer {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .expect("a free port");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
        let database_url = config.database_url.clone();
        let task = tokio::spawn(ludus_server::run(listener, config, async move {
            let _ = stop.await;
        }));
        let mut server = TestServer {
            base,
            database_url,
            shutdown: Some(shutdown),
            task,
            _database: None,
            frozen: None,
        };
        // The listener is bound already: the first request waits until the server serves, so
        // the poll below sleeps only if the server could not start, which the task then tells.
        let api = server.api();
        tokio::select! {
            () = api.wait_until_ok(path) => {}
            stopped = &mut server.task => panic!("the server stopped before it was ready: {stopped:?}"),
        }
        server
    }

    pub fn api(&self) -> Api {
        Api::new(&self.base)
    }

    /// Graceful shutdown, as on SIGTERM. A paused server's time flows again first, as real time
    /// does: the shutdown waits on timers, and tokio's own advancing would end the wait below
    /// early.
    pub async fn stop(mut self) {
        if self.frozen.take().is_some() {
            tokio::time::resume();
        }
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        let result = tokio::time::timeout(Duration::from_secs(10), &mut self.task).await;
        assert!(
            matches!(result, Ok(Ok(Ok(())))),
            "the server stops cleanly: {result:?}"
        );
    }
}

/// The game id in the answer to a creation.
pub fn game_id(created: &Value) -> &str {
    created["game_id"].as_str().expect("a game id")
}

/// The seat token in the answer to a creation or a join.
pub fn seat_token(seat: &Value) -> &str {
    seat["seat"]["token"].as_str().expect("a seat token")
}

/// Signs up; returns the session cookie (`name=value`) after checking its attributes.
pub async fn sign_up(server: &TestServer, username: &str) -> String {
    let response = reqwest::Client::new()
        .post(format!("{}/api/v1/accounts", server.base))
        .json(&json!({ "username": username, "password": "a good password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let cookie = response
        .headers()
        .get("set-cookie")
        .expect("a session cookie")
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "plain http: no Secure flag");
    let session = session_cookie(&response);
    assert_eq!(
        response.json::<Value>().await.unwrap()["username"],
        username
    );
    session
}

/// Signs in an account through the API; the session cookie.
pub async fn sign_in(server: &TestServer, username: &str, password: &str) -> String {
    let response = reqwest::Client::new()
        .post(format!("{}/api/v1/session", server.base))
        .json(&json!({ "username": username, "password": password }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    session_cookie(&response)
}

/// The session a response's `set-cookie` opens, as a `cookie` header sends it back.
pub fn session_cookie(response: &reqwest::Response) -> String {
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

/// A request with the session cookie (and the browser's Origin, as a page of this site sends).
pub async fn with_cookie(
    server: &TestServer,
    method: reqwest::Method,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> Reply {
    send_from(&server.base, server, method, path, ("cookie", cookie), body).await
}

/// A request a page of another site makes (its Origin) with `credential`, a header and its value:
/// the visitor's session cookie, which the browser sends by itself, or a token.
pub async fn from_another_site(
    server: &TestServer,
    method: reqwest::Method,
    path: &str,
    credential: (&str, &str),
    body: Option<Value>,
) -> Reply {
    let origin = "https://elsewhere.example";
    send_from(origin, server, method, path, credential, body).await
}

async fn send_from(
    origin: &str,
    server: &TestServer,
    method: reqwest::Method,
    path: &str,
    (header, value): (&str, &str),
    body: Option<Value>,
) -> Reply {
    let mut request = reqwest::Client::new()
        .request(method, format!("{}{path}", server.base))
        .header(header, value)
        .header("origin", origin);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Signs up and makes a personal token; returns it.
pub async fn player(server: &TestServer, username: &str) -> String {
    let cookie = sign_up(server, username).await;
    personal_token(server, &cookie).await
}

/// Makes a personal token for the account signed in with `cookie`; returns it.
pub async fn personal_token(server: &TestServer, cookie: &str) -> String {
    let (status, made) = with_cookie(
        server,
        reqwest::Method::POST,
        "/api/v1/account/tokens",
        cookie,
        Some(json!({ "description": "tests" })),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    made["token"].as_str().unwrap().to_string()
}

/// An HTTP client of the API.
#[derive(Clone, Debug)]
pub struct Api {
    pub base: String,
    http: reqwest::Client,
}

/// A response: the status code and the JSON body (`Null` when the body is not JSON).
pub type Reply = (u16, Value);

impl Api {
    pub fn new(base: &str) -> Api {
        Api {
            base: base.to_string(),
            http: reqwest::Client::new(),
        }
    }

    pub async fn wait_until_ready(&self) {
        self.wait_until_ok("/readyz").await;
    }

    /// Polls `path` until it answers 200.
    pub async fn wait_until_ok(&self, path: &str) {
        for _ in 0..200 {
            if let Ok(response) = self.http.get(format!("{}{path}", self.base)).send().await
                && response.status().is_success()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the server at {} did not answer {path}", self.base);
    }

    async fn send(&self, request: reqwest::RequestBuilder, token: Option<&str>) -> Reply {
        self.try_send(request, token)
            .await
            .expect("the server answers")
    }

    /// The reply, or `None` when the server cannot be reached (a killed process, say).
    async fn try_send(
        &self,
        request: reqwest::RequestBuilder,
        token: Option<&str>,
    ) -> Option<Reply> {
        let request = match token {
            Some(t) => request.bearer_auth(t),
            None => request,
        };
        let response = request.send().await.ok()?;
        let status = response.status().as_u16();
        let text = response.text().await.ok()?;
        Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    pub async fn try_post(&self, path: &str, token: Option<&str>, body: Value) -> Option<Reply> {
        self.try_send(
            self.http.post(format!("{}{path}", self.base)).json(&body),
            token,
        )
        .await
    }

    /// Like [`Api::get`], or `None` when the server cannot be reached.
    pub async fn try_get(&self, path: &str, token: Option<&str>) -> Option<Reply> {
        self.try_send(self.http.get(format!("{}{path}", self.base)), token)
            .await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.send(self.http.get(format!("{}{path}", self.base)), token)
            .await
    }

    /// A game's text record (docs/RULES.md §4).
    pub async fn record(&self, game_id: &str) -> String {
        let url = format!("{}/api/v1/games/{game_id}/record", self.base);
        let response = self.http.get(url).send().await.expect("the record answers");
        assert_eq!(response.status(), 200, "the record of {game_id}");
        response.text().await.expect("the record's text")
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.send(
            self.http.post(format!("{}{path}", self.base)).json(&body),
            token,
        )
        .await
    }

    /// Posts raw bytes with a JSON content type (for malformed and oversized bodies).
    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: Vec<u8>) -> Reply {
        self.send(
            self.http
                .post(format!("{}{path}", self.base))
                .header("content-type", "application/json")
                .body(body),
            token,
        )
        .await
    }

    /// The text of `/metrics`; panics unless it is served.
    pub async fn metrics_text(&self) -> String {
        let response = self
            .http
            .get(format!("{}/metrics", self.base))
            .send()
            .await
            .expect("the server answers");
        assert_eq!(response.status(), 200, "/metrics");
        response.text().await.expect("the metrics' text")
    }

    /// The values of these lines of `/metrics` (a name with its labels), read at once: `None`
    /// for a line not there (a labelled counter appears at its first count).
    pub async fn metrics(&self, lines: &[&str]) -> Vec<Option<u64>> {
        let text = self.metrics_text().await;
        lines
            .iter()
            .map(|line| {
                text.lines()
                    .find_map(|l| l.strip_prefix(line)?.strip_prefix(' ')?.parse().ok())
            })
            .collect()
    }

    /// Asks to sign up `username` with `password`, whatever the answer (see `sign_up` for an
    /// account that must be made).
    pub async fn sign_up(&self, username: &str, password: &str) -> Reply {
        let body = json!({ "username": username, "password": password });
        self.post("/api/v1/accounts", None, body).await
    }

    /// Creates a game; panics unless it is created.
    pub async fn create(&self, body: Value) -> Value {
        let (status, created) = self.post("/api/v1/games", None, body).await;
        assert_eq!(status, 201, "created: {created}");
        created
    }

    /// Creates a Petteia 6×6 game on one screen (its one token plays both sides): the game most
    /// tests need only to exist.
    pub async fn local_petteia(&self) -> Value {
        self.create(json!({ "variant": "petteia-6", "mode": "local" }))
            .await
    }

    /// Redeems the invite of a created online game; panics unless it succeeds.
    pub async fn join(&self, created: &Value) -> Value {
        let invite = created["invite"]
            .as_str()
            .expect("an online game has an invite");
        let (status, joined) = self
            .post(&format!("/api/v1/invites/{invite}/join"), None, json!({}))
            .await;
        assert_eq!(status, 200, "joined: {joined}");
        joined
    }

    pub async fn view(&self, game_id: &str, token: Option<&str>) -> Value {
        let (status, view) = self.get(&format!("/api/v1/games/{game_id}"), token).await;
        assert_eq!(status, 200, "view: {view}");
        view
    }

    /// A game's live event stream (NDJSON, `?{query}` such as `since=0`), as it is answered: the
    /// caller reads its lines, or its status when it is refused.
    pub async fn event_stream(
        &self,
        game_id: &str,
        query: &str,
        token: Option<&str>,
    ) -> reqwest::Response {
        let mut request = self
            .http
            .get(format!(
                "{}/api/v1/games/{game_id}/events?{query}",
                self.base
            ))
            .header("accept", "application/x-ndjson");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("the server answers")
    }

    /// A bodiless action of a game: resign, draw, undo, abort, claim, rematch, …
    pub async fn act(&self, game_id: &str, token: Option<&str>, action: &str) -> Reply {
        self.post(
            &format!("/api/v1/games/{game_id}/{action}"),
            token,
            json!({}),
        )
        .await
    }

    pub async fn play(&self, game_id: &str, token: &str, mv: &str, version: u64) -> Reply {
        self.post(
            &format!("/api/v1/games/{game_id}/moves"),
            Some(token),
            json!({ "move": mv, "version": version }),
        )
        .await
    }
}

/// The fields of a game view that a delta leaves out because they never change (docs/PROTOCOL.md §3).
pub const FIXED_FIELDS: [&str; 6] = ["game_id", "variant", "mode", "sides", "level", "commitment"];

/// A WebSocket client of one game. Like any client of the default shape, it joins each event's
/// `delta` with the last whole view and the moves of the events since into the next whole view,
/// which it adds to the message as `game` (the shape `?view=full` sends).
#[derive(Debug)]
pub struct Socket {
    stream: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    /// The last whole view, and its moves with those of the events since.
    view: Option<Value>,
    moves: Vec<Value>,
    /// The code and reason of the close frame the server sent, once the socket has closed with one.
    close_frame: Option<(u16, String)>,
}

impl Socket {
    /// Connects and says hello (with a token to play, without to watch).
    pub async fn connect(
        base: &str,
        game_id: &str,
        token: Option<&str>,
        since: Option<u64>,
    ) -> Socket {
        Socket::try_connect(base, game_id, token, since)
            .await
            .expect("the socket opens")
    }

    /// Like [`Socket::connect`], or `None` when the server refuses or drops the connection
    /// before the hello is sent (it is going away, say).
    pub async fn try_connect(
        base: &str,
        game_id: &str,
        token: Option<&str>,
        since: Option<u64>,
    ) -> Option<Socket> {
        Socket::connect_to(base, game_id, "", token, since).await
    }

    /// Connects with `?view=full`: every event carries the whole view.
    pub async fn connect_full(base: &str, game_id: &str, token: Option<&str>) -> Socket {
        Socket::connect_to(base, game_id, "?view=full", token, None)
            .await
            .expect("the socket opens")
    }

    /// Connects without a hello (`query` is the URL's, "" or "?…").
    pub async fn open(base: &str, game_id: &str, query: &str) -> Option<Socket> {
        let url = format!(
            "{}/api/v1/games/{game_id}/ws{query}",
            base.replacen("http", "ws", 1)
        );
        let (stream, _) = tokio_tungstenite::connect_async(url).await.ok()?;
        Some(Socket {
            stream,
            view: None,
            moves: Vec::new(),
            close_frame: None,
        })
    }

    async fn connect_to(
        base: &str,
        game_id: &str,
        query: &str,
        token: Option<&str>,
        since: Option<u64>,
    ) -> Option<Socket> {
        let mut socket = Socket::open(base, game_id, query).await?;
        let mut hello = json!({ "type": "hello" });
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        if let Some(v) = since {
            hello["since"] = json!(v);
        }
        socket
            .stream
            .send(Message::text(hello.to_string()))
            .await
            .ok()?;
        Some(socket)
    }

    pub async fn send(&mut self, message: Value) {
        self.stream
            .send(Message::text(message.to_string()))
            .await
            .expect("the socket sends");
    }

    pub async fn send_raw(&mut self, message: Message) {
        let _ = self.stream.send(message).await;
    }

    /// Sends a ping frame and reads until its pong comes back: the server has read everything
    /// sent before it. Messages that come first are skipped. A browser whose page is frozen
    /// still does this much (its network stack answers pings; the page sends nothing).
    pub async fn transport_round_trip(&mut self) {
        self.stream
            .send(Message::Ping(Default::default()))
            .await
            .expect("the socket sends");
        loop {
            match self.stream.next().await {
                Some(Ok(Message::Pong(_))) => return,
                Some(Ok(_)) => continue,
                other => panic!("the socket closed before the pong: {other:?}"),
            }
        }
    }

    /// Writes `bytes` to the connection as they are: frames the WebSocket client would never
    /// send (reserved bits, text that is not UTF-8, …).
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        use tokio::io::AsyncWriteExt;
        let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = self.stream.get_mut() else {
            panic!("the tests' sockets are plain TCP");
        };
        tcp.write_all(bytes).await.expect("the bytes are written");
    }

    /// The next JSON message (ping and pong frames skipped), with the whole view joined from a
    /// delta as `game`; `None` when the socket closes.
    pub async fn next(&mut self) -> Option<Value> {
        self.next_within(Duration::from_secs(10)).await
    }

    /// Like [`Socket::next`], waiting at most `wait` for each frame.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        let mut message = self.next_sent_within(wait).await?;
        if message["event"]["kind"] == "move" {
            self.moves.push(message["event"]["move"].clone());
        }
        if message["game"].is_object() {
            self.view = Some(message["game"].clone());
            self.moves = message["game"]["moves"]
                .as_array()
                .expect("a view has its moves")
                .clone();
        } else if let Some(delta) = message.get("delta").and_then(Value::as_object) {
            let held = self.view.as_ref().expect("a delta follows a whole view");
            assert_eq!(
                Some(self.moves.len() as u64),
                delta["move_count"].as_u64(),
                "the moves of the events add up to the delta's count: {message}"
            );
            let mut view = serde_json::Map::new();
            for field in FIXED_FIELDS {
                if let Some(value) = held.get(field) {
                    view.insert(field.into(), value.clone());
                }
            }
            for (field, value) in delta {
                if field != "move_count" {
                    view.insert(field.clone(), value.clone());
                }
            }
            view.insert("moves".into(), Value::Array(self.moves.clone()));
            let view = Value::Object(view);
            self.view = Some(view.clone());
            message["game"] = view;
        }
        Some(message)
    }

    /// The next JSON message exactly as the server sent it (ping and pong frames skipped);
    /// `None` when the socket closes.
    pub async fn next_sent(&mut self) -> Option<Value> {
        self.next_sent_within(Duration::from_secs(10)).await
    }

    /// Like [`Socket::next_sent`], waiting at most `wait` for each frame.
    pub async fn next_sent_within(&mut self, wait: Duration) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(wait, self.stream.next())
                .await
                .unwrap_or_else(|_| panic!("a message within {wait:?}"));
            match frame {
                Some(Ok(Message::Text(text))) => {
                    return Some(serde_json::from_str(&text).expect("JSON messages"));
                }
                Some(Ok(Message::Close(frame))) => {
                    self.close_frame =
                        frame.map(|frame| (u16::from(frame.code), frame.reason.to_string()));
                    return None;
                }
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next message of a type, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let message = self
                .next()
                .await
                .unwrap_or_else(|| panic!("the socket closed while waiting for {kind}"));
            if message["type"] == kind {
                return message;
            }
        }
    }

    /// Skips messages until an event or snapshot shows `version` (or later); returns its game view.
    pub async fn until_version(&mut self, version: u64) -> Value {
        loop {
            let message = self.next().await.expect("the socket stays open");
            let game = &message["game"];
            if game["version"].as_u64().is_some_and(|v| v >= version) {
                return game.clone();
            }
        }
    }

    /// Like [`Socket::until_version`], starting from a view already read.
    pub async fn until_version_from(&mut self, seen: Value, version: u64) -> Value {
        if seen["version"].as_u64().is_some_and(|v| v >= version) {
            seen
        } else {
            self.until_version(version).await
        }
    }

    /// The code the server closed the socket with (`None` while open, or after a close without
    /// a close frame: a dropped connection).
    pub fn close_code(&self) -> Option<u16> {
        self.close_frame.as_ref().map(|(code, _)| *code)
    }

    /// The reason of the close frame, as [`Socket::close_code`].
    pub fn close_reason(&self) -> Option<&str> {
        self.close_frame.as_ref().map(|(_, reason)| reason.as_str())
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}

/// Generates, for each scenario `async fn name(database: Database)`, a test on SQLite and one on
/// Postgres. The Postgres tests are ignored (the runner's summary counts them, with the reason)
/// unless run with `-- --include-ignored` and `TEST_DATABASE_URL` set, as `.ci/run` does.
/// Scenarios listed after `paused:` run on a current-thread runtime whose time starts paused,
/// for a server started with [`TestServer::start_paused`].
#[macro_export]
macro_rules! on_both_databases {
    ($($scenario:ident),* $(,)? $(; paused: $($paused:ident),* $(,)?)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $scenario() {
                    super::$scenario($crate::Database::Sqlite).await;
                }
            )*
            $($(
                #[tokio::test(start_paused = true)]
                async fn $paused() {
                    super::$paused($crate::Database::Sqlite).await;
                }
            )*)?
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
                async fn $scenario() {
                    super::$scenario($crate::Database::Postgres).await;
                }
            )*
            $($(
                #[tokio::test(start_paused = true)]
                #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
                async fn $paused() {
                    super::$paused($crate::Database::Postgres).await;
                }
            )*)?
        }
    };
}

/// The server in a process of its own (`ludus-test-server`), for tests that kill it (SIGKILL),
/// stop it (SIGTERM) or run several on one database; dropping it kills and reaps the process.
#[derive(Debug)]
pub struct ServerProcess {
    child: std::process::Child,
    pub base: String,
}

impl ServerProcess {
    /// Starts the server `program` (a test's `env!("CARGO_BIN_EXE_ludus-test-server")`) on
    /// `database_url` and waits until it accepts connections.
    pub fn start(program: &str, database_url: &str) -> ServerProcess {
        use std::io::BufRead;
        let child = std::process::Command::new(program)
            .arg(database_url)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the server process starts");
        let mut process = ServerProcess {
            child,
            base: String::new(),
        };
        let mut stdout = std::io::BufReader::new(process.child.stdout.take().expect("piped"));
        let mut line = String::new();
        while process.base.is_empty() {
            line.clear();
            assert!(
                stdout.read_line(&mut line).unwrap_or(0) > 0,
                "the server exited before listening"
            );
            if let Some(base) = line.trim().strip_prefix("listening on ") {
                process.base = base.to_string();
            }
        }
        process
    }

    pub fn api(&self) -> Api {
        Api::new(&self.base)
    }

    /// SIGKILL: no chance to flush or finish anything.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("the process ends");
    }

    /// SIGSTOP: the process stays, frozen (its heartbeat lapses), until [`ServerProcess::resume`].
    pub fn pause(&mut self) {
        self.signal("-STOP");
    }

    /// SIGCONT: a paused process runs on.
    pub fn resume(&mut self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "{signal} sent");
    }

    /// SIGTERM, and waits until the process has shut down gracefully.
    pub fn terminate(&mut self) {
        self.signal("-TERM");
        let status = self.child.wait().expect("the process ends");
        assert!(status.success(), "a graceful shutdown: {status}");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
