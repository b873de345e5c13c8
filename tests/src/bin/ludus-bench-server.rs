//! The server load test: `ludus-bench-server --games N --seconds S [--database-url URL]`.
//!
//! Starts the real `ludus` binary (the one built beside this one) on a loopback port, opens N
//! concurrent online games with two WebSocket clients each, and plays uniformly random legal
//! moves as fast as the replies come (or at `--moves-per-second`) for S seconds (a finished
//! game is replaced by a new one). Prints moves/s, the p50/p95/p99 of the time from a move sent to the opponent receiving it,
//! the CPU the server, the generator and Postgres used, and the server's memory per connection.
//!
//! With `--memory waiting|playing|finished` it measures memory instead: it opens N games in that
//! state (playing and finished ones with both players' sockets open and idle, after a few moves)
//! and prints the server's resident memory per game.
//!
//! With `--instances 2` (Postgres), two server processes share the database and the players of
//! each game are on different instances (the creator on one, the joiner on the other), so every
//! move crosses from one instance to the other through the database's notifications.
//!
//! Build and run: `cargo build --release -p ludus-server -p ludus-tests` then
//! `target/release/ludus-bench-server --games 500 --seconds 20 --database-url postgres://…`.

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use ludus_tests::Api;
use rand::Rng;
use serde::Deserialize;
use serde_json::json;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Parser)]
struct Args {
    /// Concurrent games (two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// How long to play.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// The server's database (default: a fresh SQLite file).
    #[arg(long)]
    database_url: Option<String>,
    #[arg(long, default_value = "petteia-8")]
    variant: String,
    /// Pace the games to this many moves a second in all (each game moving every
    /// games/rate seconds), as people would; without it every reply is answered at once.
    #[arg(long)]
    moves_per_second: Option<f64>,
    /// Measure memory per game instead of speed, with N games in this state.
    #[arg(long, value_enum)]
    memory: Option<GameState>,
    /// With --memory playing|finished: moves played in each game before measuring.
    #[arg(long, default_value_t = 6)]
    moves_each: usize,
    /// Server processes on the one database (more than one needs Postgres); each game's two
    /// players are on different instances.
    #[arg(long, default_value_t = 1)]
    instances: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum GameState {
    /// Created, the invite not used, no socket.
    Waiting,
    /// Joined, a few moves played, both players' sockets open and idle.
    Playing,
    /// As playing, then resigned (sockets still open).
    Finished,
}

/// Latencies in microseconds, and the count of acknowledged moves.
#[derive(Default)]
struct Tally {
    latencies: Mutex<Vec<u64>>,
    moves: AtomicU64,
}

/// What the two players of one game share: the move in flight (its version after the move, and
/// when it was sent), and when the game may move next (with `--moves-per-second`).
#[derive(Default)]
struct GameTurn {
    in_flight: Option<(u64, Instant)>,
    next_move_at: Option<Instant>,
}

type SharedTurn = Arc<Mutex<GameTurn>>;

/// The parts of a server message a player reads; serde skips the rest (the move list) unread.
/// A snapshot brings the whole view (`game`); an event brings what changed (`delta`), which holds
/// every field read here but the seat, which never changes.
#[derive(Deserialize)]
struct ServerMessage<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default)]
    version: u64,
    #[serde(default, borrow)]
    event: Option<EventHead<'a>>,
    #[serde(default, borrow)]
    game: Option<GameHead<'a>>,
    #[serde(default, borrow)]
    delta: Option<GameHead<'a>>,
}

#[derive(Deserialize)]
struct EventHead<'a> {
    #[serde(borrow)]
    kind: &'a str,
    #[serde(default, borrow)]
    side: Option<&'a str>,
}

#[derive(Deserialize)]
struct GameHead<'a> {
    #[serde(borrow)]
    status: &'a str,
    version: u64,
    #[serde(default, borrow)]
    seat: Option<SeatHead<'a>>,
    #[serde(default, borrow)]
    legal_moves: Vec<&'a str>,
}

#[derive(Deserialize)]
struct SeatHead<'a> {
    #[serde(borrow)]
    side: &'a str,
}

/// CPU time (user + system) a process has used, from /proc.
fn cpu_seconds(pid: &str) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of stat(5): 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds used so far by this program, the servers, and every local Postgres process.
fn cpu_split(servers: &[u32]) -> [f64; 3] {
    let postgres: f64 = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            std::fs::read_to_string(entry.path().join("comm")).is_ok_and(|c| c.trim() == "postgres")
        })
        .map(|entry| cpu_seconds(&entry.file_name().to_string_lossy()))
        .sum();
    [
        cpu_seconds("self"),
        servers.iter().map(|id| cpu_seconds(&id.to_string())).sum(),
        postgres,
    ]
}

fn resident_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Starts `ludus serve` with at most `connections` to Postgres.
fn start_server(database_url: &str, port: u16, connections: u32) -> Child {
    let binary = std::env::current_exe()
        .expect("this program's path")
        .with_file_name("ludus");
    Command::new(&binary)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database-url",
            database_url,
        ])
        .args([
            "--create-per-minute",
            "1000000",
            "--join-per-minute",
            "1000000",
            // The players answer as fast as they can: the per-connection limit would measure itself.
            "--socket-messages-per-second",
            "1000000",
            // Every simulated player connects from loopback: one address.
            "--connections-per-address",
            "1000000",
            "--database-connections",
            &connections.to_string(),
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {}: {e} (build it with cargo build --release -p ludus-server)",
                binary.display()
            )
        })
}

/// One player's socket: answers every view in which it is to move with a random legal move, at
/// once or, with a pace, no sooner than the game's next slot.
async fn player(
    base: String,
    game: String,
    token: String,
    turn: SharedTurn,
    pace: Option<Duration>,
    tally: Arc<Tally>,
    stop: Arc<AtomicBool>,
) -> bool {
    let url = format!("{}/api/v1/games/{game}/ws", base.replacen("http", "ws", 1));
    // No Nagle on the players' side either (the server sets TCP_NODELAY on its own).
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async_with_config(url, None, true).await
    else {
        return false;
    };
    if socket
        .send(Message::text(
            json!({ "type": "hello", "token": token }).to_string(),
        ))
        .await
        .is_err()
    {
        return false;
    }
    let mut counter = 0u64;
    let mut answered_version = None;
    let mut my_side = String::new();
    while let Some(Ok(frame)) = socket.next().await {
        let Message::Text(text) = frame else { continue };
        let Ok(message) = serde_json::from_str::<ServerMessage>(&text) else {
            continue;
        };
        let Some(view) = message.game.or(message.delta) else {
            continue;
        };
        if let Some(seat) = &view.seat {
            seat.side.clone_into(&mut my_side);
        }
        let is_event = message.kind == "event";
        if let Some(event) = message.event.filter(|e| is_event && e.kind == "move") {
            let mut turn = turn.lock().expect("lock");
            if let Some((expected, at)) = turn.in_flight
                && expected == message.version
                && event.side != Some(my_side.as_str())
            {
                tally
                    .latencies
                    .lock()
                    .expect("lock")
                    .push(at.elapsed().as_micros() as u64);
                turn.in_flight = None;
            }
        }
        if view.status != "playing" {
            return true; // finished: the caller starts a new game
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        // One move per version: a snapshot (someone connected) repeats a version already answered.
        let answered = answered_version.is_some_and(|v| v >= view.version);
        if view.legal_moves.is_empty() || (is_event && view.version != message.version) || answered
        {
            continue;
        }
        answered_version = Some(view.version);
        let mv = view.legal_moves[rand::rng().random_range(0..view.legal_moves.len())];
        counter += 1;
        let request =
            json!({ "type": "move", "move": mv, "version": view.version, "id": format!("{counter}") })
                .to_string();
        let wait = {
            let mut turn = turn.lock().expect("lock");
            let now = Instant::now();
            let at = turn.next_move_at.map_or(now, |at| at.max(now));
            turn.next_move_at = pace.map(|pace| at + pace);
            turn.in_flight = Some((view.version + 1, at));
            at - now
        };
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
        if socket.send(Message::text(request)).await.is_err() {
            return false;
        }
        tally.moves.fetch_add(1, Ordering::Relaxed);
    }
    false
}

/// Plays games one after another in one slot until told to stop: created through `api`, joined
/// and played by the second player through `joiner_api`.
#[allow(clippy::too_many_arguments)]
async fn slot(
    api: Api,
    joiner_api: Api,
    variant: String,
    pace: Option<Duration>,
    tally: Arc<Tally>,
    stop: Arc<AtomicBool>,
    ready: Arc<tokio::sync::Barrier>,
) {
    let mut first = true;
    while !stop.load(Ordering::Relaxed) {
        let created = api
            .create(json!({ "variant": variant, "mode": "online" }))
            .await;
        let joined = joiner_api.join(&created).await;
        let game = created["game_id"].as_str().expect("id").to_string();
        let turn = SharedTurn::default();
        if first {
            ready.wait().await;
            first = false;
        }
        let a = tokio::spawn(player(
            api.base.clone(),
            game.clone(),
            created["seat"]["token"].as_str().expect("token").into(),
            turn.clone(),
            pace,
            tally.clone(),
            stop.clone(),
        ));
        let b = tokio::spawn(player(
            joiner_api.base.clone(),
            game,
            joined["seat"]["token"].as_str().expect("token").into(),
            turn,
            pace,
            tally.clone(),
            stop.clone(),
        ));
        let (_, _) = (a.await, b.await);
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

/// Keeps a socket open and idle: reads (and so answers the server's pings) until it closes.
async fn idle_socket(base: &str, game: &str, token: &str) {
    let url = format!("{}/api/v1/games/{game}/ws", base.replacen("http", "ws", 1));
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the socket opens");
    let hello = json!({ "type": "hello", "token": token }).to_string();
    socket.send(Message::text(hello)).await.expect("hello");
    // The hello's snapshot: the socket is subscribed.
    socket.next().await;
    tokio::spawn(async move { while let Some(Ok(_)) = socket.next().await {} });
}

/// Opens one game in `state` (see `GameState`).
async fn open_game(api: Api, variant: String, state: GameState, moves_each: usize) {
    let created = api
        .create(json!({ "variant": variant, "mode": "online" }))
        .await;
    if state == GameState::Waiting {
        return;
    }
    let joined = api.join(&created).await;
    let game = created["game_id"].as_str().expect("id");
    let tokens = [
        created["seat"]["token"].as_str().expect("token"),
        joined["seat"]["token"].as_str().expect("token"),
    ];
    for token in tokens {
        idle_socket(&api.base, game, token).await;
    }
    let mut view = api.view(game, Some(tokens[0])).await;
    for _ in 0..moves_each {
        if view["status"] != "playing" {
            break;
        }
        let mover = usize::from(view["to_move"] != view["seat"]["side"]);
        let mine = api.view(game, Some(tokens[mover])).await;
        let legal = mine["legal_moves"].as_array().expect("legal moves").clone();
        let mv = legal[rand::rng().random_range(0..legal.len())]
            .as_str()
            .expect("a move")
            .to_string();
        let version = mine["version"].as_u64().expect("version");
        let (status, _) = api.play(game, tokens[mover], &mv, version).await;
        assert_eq!(status, 200, "the move is played");
        view = api.view(game, Some(tokens[0])).await;
    }
    if state == GameState::Finished && view["status"] == "playing" {
        let (status, _) = api.act(game, Some(tokens[0]), "resign").await;
        assert_eq!(status, 200, "the resignation is accepted");
    }
}

/// Opens `games` games in `state` and prints the server's resident memory per game.
async fn measure_memory(args: &Args, state: GameState, api: &Api, server: &Child) {
    use futures_util::stream::{self, StreamExt as _};
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let idle_kib = resident_kib(server.id());
    let began = Instant::now();
    stream::iter(0..args.games)
        .map(|_| open_game(api.clone(), args.variant.clone(), state, args.moves_each))
        .buffer_unordered(64)
        .collect::<Vec<()>>()
        .await;
    let opened_in = began.elapsed().as_secs_f64();
    // Let the last answers and buffers settle.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let loaded_kib = resident_kib(server.id());
    let sockets = if state == GameState::Waiting { 0 } else { 2 };
    println!(
        "games:           {} {state:?} ({} sockets), {}, opened in {opened_in:.1} s",
        args.games,
        sockets * args.games,
        args.variant
    );
    println!(
        "server memory:   {idle_kib} KiB idle, {loaded_kib} KiB with the games, {:.2} KiB per game{}",
        loaded_kib.saturating_sub(idle_kib) as f64 / args.games as f64,
        if sockets > 0 {
            " (its two sockets included)"
        } else {
            ""
        }
    );
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    // A fresh database either way: a Postgres URL names the server, and a new database is made on it.
    let database_url = match &args.database_url {
        Some(url) if url.starts_with("postgres") => ludus_tests::fresh_postgres_database(url).await,
        Some(url) => url.clone(),
        None => format!("sqlite://{}", ludus_tests::temp_path("bench.db").display()),
    };
    let mut servers = Vec::new();
    let mut apis = Vec::new();
    for _ in 0..args.instances.max(1) {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("a port")
            .local_addr()
            .expect("addr")
            .port();
        // The instances share one pool's worth of Postgres connections (its limit is 100).
        let connections = 64 / args.instances.max(1) as u32;
        servers.push(start_server(&database_url, port, connections));
        let api = Api::new(&format!("http://127.0.0.1:{port}"));
        api.wait_until_ready().await;
        apis.push(api);
    }
    let server_ids: Vec<u32> = servers.iter().map(Child::id).collect();
    let idle_kib: u64 = server_ids.iter().map(|&id| resident_kib(id)).sum();
    if let Some(state) = args.memory {
        measure_memory(&args, state, &apis[0], &servers[0]).await;
        for server in &mut servers {
            let _ = server.kill();
            let _ = server.wait();
        }
        return;
    }

    let pace = args
        .moves_per_second
        .map(|rate| Duration::from_secs_f64(args.games as f64 / rate));
    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let ready = Arc::new(tokio::sync::Barrier::new(args.games + 1));
    let slots: Vec<_> = (0..args.games)
        .map(|i| {
            tokio::spawn(slot(
                apis[i % apis.len()].clone(),
                apis[(i + 1) % apis.len()].clone(),
                args.variant.clone(),
                pace,
                tally.clone(),
                stop.clone(),
                ready.clone(),
            ))
        })
        .collect();
    ready.wait().await;
    // Let the sockets connect before reading the memory they cost.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let loaded_kib: u64 = server_ids.iter().map(|&id| resident_kib(id)).sum();
    let moves_before = tally.moves.load(Ordering::Relaxed);
    let cpu_before = cpu_split(&server_ids);
    tally.latencies.lock().expect("lock").clear();
    let began = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let elapsed = began.elapsed().as_secs_f64();
    let moves = tally.moves.load(Ordering::Relaxed) - moves_before;
    let cpu_after = cpu_split(&server_ids);
    stop.store(true, Ordering::Relaxed);
    let mut latencies = std::mem::take(&mut *tally.latencies.lock().expect("lock"));
    latencies.sort_unstable();
    // The players first: a game starting as the server goes would fail loudly.
    for s in slots {
        s.abort();
    }
    for server in &mut servers {
        let _ = server.kill();
        let _ = server.wait();
    }
    let connections = (2 * args.games) as f64;
    println!(
        "database:        {}",
        database_url.split('@').next_back().unwrap_or(&database_url)
    );
    println!(
        "instances:       {} (each game's players on {})",
        servers.len(),
        if servers.len() > 1 {
            "different instances"
        } else {
            "the one instance"
        }
    );
    println!(
        "games:           {} concurrent ({} sockets), {} for {:.1} s",
        args.games,
        2 * args.games,
        args.variant,
        elapsed
    );
    println!("moves/s:         {:.0}", moves as f64 / elapsed);
    println!(
        "move → opponent: p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms ({} samples)",
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.95),
        percentile(&latencies, 0.99),
        latencies.len()
    );
    let [generator, server_cpu, postgres] =
        std::array::from_fn(|i| (cpu_after[i] - cpu_before[i]) / elapsed);
    println!(
        "cpu (cores):     server {server_cpu:.2} ({:.0} µs a move), generator {generator:.2}, postgres {postgres:.2}, of {} cores",
        server_cpu * 1e6 * elapsed / moves.max(1) as f64,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "server memory:   {} KiB idle, {} KiB loaded, {:.1} KiB per connection (games' state included)",
        idle_kib,
        loaded_kib,
        (loaded_kib.saturating_sub(idle_kib)) as f64 / connections
    );
}
