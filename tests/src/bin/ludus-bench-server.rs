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
//! With `--bare-relay`, the same players play against a bare relay instead of `ludus`: this program
//! again, in a process of its own (`--serve-relay`, hidden), so that its CPU is measured as the
//! server's is. It answers the routes and socket messages the players use, with messages of the
//! real server's sizes written the real server's way, but validates nothing and stores nothing:
//! the floor of a relayed move's cost on this machine (see `relay`).
//!
//! Build and run: `cargo build --release -p ludus-server -p ludus-tests` then
//! `target/release/ludus-bench-server --games 500 --seconds 20 --database-url postgres://…`
//! (or `--bare-relay` instead of `--database-url`).

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use ludus_tests::Api;
use rand::Rng;
use serde::Deserialize;
use serde_json::json;
use std::net::SocketAddr;
use std::path::Path;
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
    /// Play against a bare relay (no validation, no storage) instead of the real server: the
    /// floor of a relayed move's CPU on this machine.
    #[arg(long, conflicts_with_all = ["database_url", "variant", "memory", "instances"])]
    bare_relay: bool,
    /// Be the bare relay, on --listen (what --bare-relay starts).
    #[arg(long, hide = true, requires = "listen")]
    serve_relay: bool,
    #[arg(long, hide = true)]
    listen: Option<SocketAddr>,
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

/// CPU time a process has used, from /proc: user and system apart, since the kernel's share (the
/// loopback sockets) and the program's own move differently (docs/BENCHMARKS.md).
#[derive(Clone, Copy, Default)]
struct CpuTime {
    user: f64,
    system: f64,
}

impl CpuTime {
    fn of(pid: &str) -> CpuTime {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return CpuTime::default();
        };
        // The fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
        let seconds = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<f64>().ok())
                .unwrap_or(0.0)
                / 100.0
        };
        // utime and stime are fields 14 and 15 of stat(5): 12 and 13 after the name.
        CpuTime {
            user: seconds(11),
            system: seconds(12),
        }
    }

    fn total(self) -> f64 {
        self.user + self.system
    }

    fn since(self, before: CpuTime) -> CpuTime {
        CpuTime {
            user: self.user - before.user,
            system: self.system - before.system,
        }
    }
}

impl std::iter::Sum for CpuTime {
    fn sum<I: Iterator<Item = CpuTime>>(times: I) -> CpuTime {
        times.fold(CpuTime::default(), |a, b| CpuTime {
            user: a.user + b.user,
            system: a.system + b.system,
        })
    }
}

/// How many times a process's threads have been switched out so far, by choice or not
/// (`voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` of each thread, proc(5)).
fn context_switches(pid: u32) -> u64 {
    let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    threads
        .flatten()
        .filter_map(|thread| std::fs::read_to_string(thread.path().join("status")).ok())
        .map(|status| {
            status
                .lines()
                .filter(|line| line.contains("ctxt_switches:"))
                .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum()
}

/// What the processes measured have used so far.
struct Usage {
    generator: CpuTime,
    servers: CpuTime,
    /// Every local Postgres process.
    postgres: CpuTime,
    server_switches: u64,
}

impl Usage {
    fn now(servers: &[u32]) -> Usage {
        let postgres = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| {
                std::fs::read_to_string(entry.path().join("comm"))
                    .is_ok_and(|c| c.trim() == "postgres")
            })
            .map(|entry| CpuTime::of(&entry.file_name().to_string_lossy()))
            .sum();
        Usage {
            generator: CpuTime::of("self"),
            servers: servers.iter().map(|id| CpuTime::of(&id.to_string())).sum(),
            postgres,
            server_switches: servers.iter().map(|&id| context_switches(id)).sum(),
        }
    }
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

/// Starts `binary` with `args`, quietly.
fn spawn_server(binary: &Path, args: &[&str]) -> Child {
    Command::new(binary)
        .args(args)
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

/// Starts `ludus serve` with at most `connections` to Postgres.
fn start_server(database_url: &str, port: u16, connections: u32) -> Child {
    let this = std::env::current_exe().expect("this program's path");
    let connections = connections.to_string();
    spawn_server(
        &this.with_file_name("ludus"),
        &[
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database-url",
            database_url,
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
            &connections,
        ],
    )
}

/// Starts the bare relay: this program with `--serve-relay`.
fn start_relay(port: u16) -> Child {
    let this = std::env::current_exe().expect("this program's path");
    spawn_server(
        &this,
        &["--serve-relay", "--listen", &format!("127.0.0.1:{port}")],
    )
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

fn main() {
    let args = Args::parse();
    // `ludus`'s runtime (tokio's default multi-thread one), for the relay as for the generator.
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    match args.listen.filter(|_| args.serve_relay) {
        Some(listen) => runtime.block_on(relay::serve(listen)),
        None => runtime.block_on(generate(args)),
    }
}

/// Stops the servers, and drops the Postgres database made for the run.
async fn stop_servers(servers: &mut [Child], args: &Args, database_url: Option<&str>) {
    for server in servers {
        let _ = server.kill();
        let _ = server.wait();
    }
    if let (Some(admin), Some(url)) = (&args.database_url, database_url)
        && url.starts_with("postgres")
    {
        ludus_tests::remove_postgres_database(admin, url).await;
    }
}

async fn generate(args: Args) {
    // A fresh database either way: a Postgres URL names the server, and a new database is made on it.
    let database_url = match &args.database_url {
        _ if args.bare_relay => None,
        Some(url) if url.starts_with("postgres") => {
            Some(ludus_tests::fresh_postgres_database(url).await)
        }
        Some(url) => Some(url.clone()),
        None => Some(format!(
            "sqlite://{}",
            ludus_tests::temp_path("bench.db").display()
        )),
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
        servers.push(match &database_url {
            Some(url) => start_server(url, port, connections),
            None => start_relay(port),
        });
        let api = Api::new(&format!("http://127.0.0.1:{port}"));
        api.wait_until_ready().await;
        apis.push(api);
    }
    let server_ids: Vec<u32> = servers.iter().map(Child::id).collect();
    let idle_kib: u64 = server_ids.iter().map(|&id| resident_kib(id)).sum();
    if let Some(state) = args.memory {
        measure_memory(&args, state, &apis[0], &servers[0]).await;
        stop_servers(&mut servers, &args, database_url.as_deref()).await;
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
    let before = Usage::now(&server_ids);
    tally.latencies.lock().expect("lock").clear();
    let began = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let elapsed = began.elapsed().as_secs_f64();
    let moves = tally.moves.load(Ordering::Relaxed) - moves_before;
    let after = Usage::now(&server_ids);
    stop.store(true, Ordering::Relaxed);
    let mut latencies = std::mem::take(&mut *tally.latencies.lock().expect("lock"));
    latencies.sort_unstable();
    // The players first: a game starting as the server goes would fail loudly.
    for s in slots {
        s.abort();
    }
    stop_servers(&mut servers, &args, database_url.as_deref()).await;
    let connections = (2 * args.games) as f64;
    println!(
        "database:        {}",
        database_url
            .as_deref()
            .map_or("none: the bare relay", |url| url
                .split('@')
                .next_back()
                .unwrap_or(url))
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
    let server = after.servers.since(before.servers);
    let per_move = |seconds: f64| seconds * 1e6 / moves.max(1) as f64;
    println!(
        "cpu (cores):     server {:.2} ({:.0} µs a move), generator {:.2}, postgres {:.2}, of {} cores",
        server.total() / elapsed,
        per_move(server.total()),
        after.generator.since(before.generator).total() / elapsed,
        after.postgres.since(before.postgres).total() / elapsed,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "server a move:   user {:.1} µs, system {:.1} µs, {:.2} context switches",
        per_move(server.user),
        per_move(server.system),
        (after.server_switches - before.server_switches) as f64 / moves.max(1) as f64
    );
    println!(
        "server memory:   {} KiB idle, {} KiB loaded, {:.1} KiB per connection (games' state included)",
        idle_kib,
        loaded_kib,
        (loaded_kib.saturating_sub(idle_kib)) as f64 / connections
    );
}

/// The bare relay (`--serve-relay`): what the players above use of the server, and nothing else.
/// No validation and no storage: a game is a broadcast channel between its two sockets, as in the
/// real server (where the game's actor publishes on it); a move is acknowledged and relayed as it
/// comes. The messages have the real server's shape and about its sizes for Petteia-8 (a fixed
/// position and a fixed list of legal moves), each socket writes its own, and the writes follow
/// `ludus`'s: the mover's ack and event in one write, the opponent's event in another, with
/// `ludus`'s socket buffer settings and TCP_NODELAY.
mod relay {
    use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
    use axum::extract::{Path, State};
    use axum::http::StatusCode;
    use axum::response::{IntoResponse, Response};
    use axum::routing::{get, post};
    use axum::{Json, Router};
    use futures_util::SinkExt;
    use rand::Rng;
    use serde::Deserialize;
    use serde_json::json;
    use std::collections::HashMap;
    use std::fmt::Write;
    use std::net::SocketAddr;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};
    use tokio::sync::broadcast::{self, error::TryRecvError};

    /// The version of a game once both players are in, as in `ludus`.
    const FIRST_VERSION: u64 = 1;
    /// Each game finishes after a number of moves drawn from 1 to this: random games of
    /// Petteia-8 on `ludus` last about 250 moves on average (457 finished in 126,000 moves with
    /// 100 games), and lengths spread out keep the games from all ending at once, so games are
    /// replaced (created, joined, connected) about as often as with the real server.
    const LONGEST_GAME: u64 = 500;
    const SIDES: [&str; 2] = ["light", "dark"];
    /// A Petteia-8 position in the middle of a game, and its legal moves (54): `ludus` sends
    /// 37-byte acks, 450-byte events to the mover and 850 to 870-byte events with the legal moves
    /// to the opponent on average; these make 37, 448 and 879 bytes.
    const POSITION: &str = "DDD1DDDD/3D4/8/1D6/5L2/8/L1L5/1LLLLLL1 l 2 9";
    const LEGAL_MOVES: &str = r#"["A2-A3","A2-A4","A2-A5","A2-A6","A2-A7","A2-A1","A2-B2","C2-C3","C2-C4","C2-C5","C2-C6","C2-C7","C2-B2","C2-D2","C2-E2","C2-F2","C2-G2","C2-H2","F4-F5","F4-F6","F4-F7","F4-F3","F4-F2","F4-E4","F4-D4","F4-C4","F4-B4","F4-A4","F4-G4","F4-H4","B1-B2","B1-B3","B1-B4","B1-A1","D1-D2","D1-D3","D1-D4","D1-D5","D1-D6","E1-E2","E1-E3","E1-E4","E1-E5","E1-E6","E1-E7","F1-F2","F1-F3","G1-G2","G1-G3","G1-G4","G1-G5","G1-G6","G1-G7","G1-H1"]"#;
    // `ludus`'s own socket buffers and broadcast channel per game, not copies of them.
    use ludus_server::api::{BUFFER_BYTES, READ_BUFFER_BYTES};
    use ludus_server::game::actor::BROADCAST_CAPACITY;

    /// A move as relayed to both sockets of its game; each writes its own message from it.
    #[derive(Debug)]
    struct Relayed {
        version: u64,
        mover: usize,
        notation: String,
        at: u128,
    }

    /// A game: its channel, its present version, and its length in moves.
    #[derive(Clone, Debug)]
    struct Game {
        moves: broadcast::Sender<Arc<Relayed>>,
        /// A socket that connects after the first move starts from the present, as in `ludus`
        /// (else the second player could miss the move that makes it its turn).
        version: Arc<AtomicU64>,
        length: u64,
    }

    #[derive(Clone, Debug, Default)]
    struct Relay {
        games: Arc<Mutex<HashMap<u64, Game>>>,
        next_id: Arc<AtomicU64>,
    }

    /// A seat's token: the game and the seat, readable (nothing checks it).
    fn token(game: u64, seat: usize) -> String {
        format!("{game}.{seat}")
    }

    pub async fn serve(listen: SocketAddr) {
        use axum::serve::ListenerExt;
        let app = Router::new()
            .route("/readyz", get(|| async { Json(json!({ "status": "ok" })) }))
            .route("/api/v1/games", post(create))
            .route("/api/v1/invites/{invite}/join", post(join))
            .route("/api/v1/games/{id}/ws", get(upgrade))
            .with_state(Relay::default());
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .expect("the relay's address is free")
            // As `ludus`: without it, Nagle holds an event written after an ack.
            .tap_io(|stream| {
                let _ = stream.set_nodelay(true);
            });
        axum::serve(listener, app).await.expect("the relay serves");
    }

    async fn create(State(relay): State<Relay>) -> Response {
        let id = relay.next_id.fetch_add(1, Ordering::Relaxed);
        let game = Game {
            moves: broadcast::channel(BROADCAST_CAPACITY).0,
            version: Arc::new(AtomicU64::new(FIRST_VERSION)),
            length: rand::rng().random_range(1..=LONGEST_GAME),
        };
        relay.games.lock().expect("games").insert(id, game);
        let created = json!({
            "game_id": id.to_string(),
            "invite": id.to_string(),
            "seat": { "token": token(id, 0), "side": SIDES[0] },
        });
        (StatusCode::CREATED, Json(created)).into_response()
    }

    async fn join(Path(invite): Path<String>) -> Response {
        let Ok(id) = invite.parse::<u64>() else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let joined =
            json!({ "game_id": invite, "seat": { "token": token(id, 1), "side": SIDES[1] } });
        Json(joined).into_response()
    }

    async fn upgrade(
        State(relay): State<Relay>,
        Path(id): Path<String>,
        ws: WebSocketUpgrade,
    ) -> Response {
        let game = id
            .parse::<u64>()
            .ok()
            .and_then(|id| Some((id, relay.games.lock().expect("games").get(&id)?.clone())));
        let Some((id, game)) = game else {
            return StatusCode::NOT_FOUND.into_response();
        };
        ws.read_buffer_size(READ_BUFFER_BYTES)
            .write_buffer_size(BUFFER_BYTES)
            .max_write_buffer_size(256 * 1024)
            .on_upgrade(move |socket| session(socket, relay, id, game))
    }

    #[derive(Deserialize)]
    struct Hello {
        token: String,
    }

    #[derive(Deserialize)]
    struct Move {
        #[serde(rename = "move")]
        notation: String,
        version: u64,
        id: Option<String>,
    }

    /// One socket: the hello, the snapshot, then moves in and events out until it closes.
    async fn session(mut socket: WebSocket, relay: Relay, id: u64, game: Game) {
        let Some(Ok(Message::Text(hello))) = socket.recv().await else {
            return;
        };
        let Ok(hello) = serde_json::from_str::<Hello>(&hello) else {
            return;
        };
        let seat = usize::from(hello.token.ends_with(".1"));
        // Subscribed first: a move after the version is read is received; one before is in the
        // snapshot (and skipped if also received).
        let events = game.moves.subscribe();
        let last_version = game.version.load(Ordering::Acquire);
        if socket
            .send(text(snapshot(&game, id, last_version, seat)))
            .await
            .is_err()
        {
            return;
        }
        let mut session = Session {
            socket,
            events,
            last_version,
            game,
            seat,
        };
        loop {
            let sent = tokio::select! {
                incoming = session.socket.recv() => match incoming {
                    Some(Ok(Message::Text(message))) => session.on_move(&message, &relay, id).await,
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => break,
                },
                relayed = session.events.recv() => match relayed {
                    Ok(relayed) => session.on_relayed(&relayed).await,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                },
            };
            if sent.is_err() || session.socket.flush().await.is_err() {
                break;
            }
        }
    }

    /// A socket after its hello and snapshot.
    struct Session {
        socket: WebSocket,
        events: broadcast::Receiver<Arc<Relayed>>,
        /// The version of the last view sent.
        last_version: u64,
        game: Game,
        seat: usize,
    }

    impl Session {
        /// A move from the client: relayed, then the ack and the events already relayed queued
        /// (one write, as in `ludus`).
        async fn on_move(
            &mut self,
            message: &str,
            relay: &Relay,
            id: u64,
        ) -> Result<(), axum::Error> {
            let Ok(played) = serde_json::from_str::<Move>(message) else {
                return Ok(());
            };
            let version = played.version + 1;
            if version >= FIRST_VERSION + self.game.length {
                relay.games.lock().expect("games").remove(&id);
            }
            self.game.version.store(version, Ordering::Release);
            let relayed = Relayed {
                version,
                mover: self.seat,
                notation: played.notation,
                at: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |since| since.as_millis()),
            };
            let _ = self.game.moves.send(Arc::new(relayed));
            self.socket
                .feed(text(ack(played.id.as_deref(), version)))
                .await?;
            self.feed_relayed_now().await
        }

        /// A move relayed to this socket, and whatever else was relayed since: one write.
        async fn on_relayed(&mut self, relayed: &Relayed) -> Result<(), axum::Error> {
            self.feed_event(relayed).await?;
            self.feed_relayed_now().await
        }

        /// Queues the moves relayed and not yet written.
        async fn feed_relayed_now(&mut self) -> Result<(), axum::Error> {
            loop {
                match self.events.try_recv() {
                    Ok(relayed) => self.feed_event(&relayed).await?,
                    Err(TryRecvError::Lagged(_)) => continue,
                    Err(TryRecvError::Empty | TryRecvError::Closed) => return Ok(()),
                }
            }
        }

        /// Queues the event of a move unless the socket already has it (in its snapshot).
        async fn feed_event(&mut self, relayed: &Relayed) -> Result<(), axum::Error> {
            if relayed.version <= self.last_version {
                return Ok(());
            }
            self.last_version = relayed.version;
            let event = event(relayed, &self.game, self.seat);
            self.socket.feed(text(event)).await
        }
    }

    fn text(message: String) -> Message {
        Message::Text(Utf8Bytes::from(message))
    }

    fn ack(id: Option<&str>, version: u64) -> String {
        let id = serde_json::to_string(&id).expect("an id serialises");
        format!(r#"{{"type":"ack","id":{id},"version":{version}}}"#)
    }

    /// The fields of a view that change, and the seat's own, for `seat` at `version`.
    fn write_changing(message: &mut String, game: &Game, version: u64, seat: usize) {
        let moved = version - FIRST_VERSION;
        let playing = moved < game.length;
        let to_move = usize::from(moved % 2 == 1);
        let (status, to_move_json, result) = if playing {
            ("playing", format!("\"{}\"", SIDES[to_move]), "null".into())
        } else {
            let result = r#"{"winner":"light","termination":"immobilised","finished_at":0}"#;
            ("finished", "null".into(), result.to_string())
        };
        let legal = if playing && to_move == seat {
            LEGAL_MOVES
        } else {
            "[]"
        };
        let side = SIDES[seat];
        write!(
            message,
            r#""status":"{status}","version":{version},"position":"{POSITION}","to_move":{to_move_json},"first":"light","result":{result},"draw_offer":null,"undo_offer":null,"rematch_offer":null,"move_count":{moved},"clocks":null,"seat":{{"side":"{side}","bottom":"{side}"}},"opponent_connected":true,"spectators":0,"legal_moves":{legal}"#
        )
        .expect("a String takes any text");
    }

    fn snapshot(game: &Game, id: u64, version: u64, seat: usize) -> String {
        let mut message = format!(
            r#"{{"type":"snapshot","game":{{"game_id":"{id}","variant":"petteia-8","mode":"online","sides":["light","dark"],"moves":[],"#
        );
        write_changing(&mut message, game, version, seat);
        message.push_str("}}");
        message
    }

    fn event(relayed: &Relayed, game: &Game, seat: usize) -> String {
        let Relayed {
            version,
            mover,
            notation,
            at,
        } = relayed;
        let mut message = format!(
            r#"{{"type":"event","version":{version},"event":{{"version":{version},"at":{at},"kind":"move","side":"{}","move":"{notation}"}},"delta":{{"#,
            SIDES[*mover]
        );
        write_changing(&mut message, game, *version, seat);
        message.push_str("}}");
        message
    }
}
