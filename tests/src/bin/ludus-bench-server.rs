//! The server load test: `ludus-bench-server --games N --seconds S [--database-url URL]`.
//!
//! Starts the real `ludus` binary (the one built beside this one) on a loopback port, opens N
//! concurrent online games with two WebSocket clients each, and plays uniformly random legal
//! moves as fast as the replies come for S seconds (a finished game is replaced by a new one).
//! Prints moves/s, the p50/p95/p99 of the time from a move sent to the opponent receiving it,
//! and the server's resident memory per connection.
//!
//! Build and run: `cargo build --release -p ludus-server -p ludus-tests` then
//! `target/release/ludus-bench-server --games 500 --seconds 20 --database-url postgres://…`.

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use ludus_tests::Api;
use rand::Rng;
use serde_json::{Value, json};
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
}

/// Latencies in microseconds, and the count of acknowledged moves.
#[derive(Default)]
struct Tally {
    latencies: Mutex<Vec<u64>>,
    moves: AtomicU64,
}

/// The one move in flight of a game: its version after the move, and when it was sent.
type InFlight = Arc<Mutex<Option<(u64, Instant)>>>;

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

fn start_server(database_url: &str, port: u16) -> Child {
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

/// One player's socket: answers every view in which it is to move with a random legal move.
async fn player(
    base: String,
    game: String,
    token: String,
    in_flight: InFlight,
    tally: Arc<Tally>,
    stop: Arc<AtomicBool>,
) -> bool {
    let url = format!("{}/api/v1/games/{game}/ws", base.replacen("http", "ws", 1));
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url).await else {
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
    while let Some(Ok(frame)) = socket.next().await {
        let Message::Text(text) = frame else { continue };
        let Ok(message) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let game_view = &message["game"];
        if message["type"] == "event" && message["event"]["kind"] == "move" {
            let version = message["version"].as_u64().unwrap_or(0);
            let mut sent = in_flight.lock().expect("lock");
            if let Some((expected, at)) = *sent
                && expected == version
                && message["event"]["side"] != game_view["seat"]["side"]
            {
                tally
                    .latencies
                    .lock()
                    .expect("lock")
                    .push(at.elapsed().as_micros() as u64);
                *sent = None;
            }
        }
        if game_view["status"] != "playing" && game_view.is_object() {
            return true; // finished: the caller starts a new game
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let Some(legal) = game_view["legal_moves"]
            .as_array()
            .filter(|m| !m.is_empty())
        else {
            continue;
        };
        if message["type"] == "event" && game_view["version"] != message["version"] {
            continue;
        }
        let version = game_view["version"].as_u64().unwrap_or(0);
        let mv = legal[rand::rng().random_range(0..legal.len())].clone();
        counter += 1;
        *in_flight.lock().expect("lock") = Some((version + 1, Instant::now()));
        let request =
            json!({ "type": "move", "move": mv, "version": version, "id": format!("{counter}") });
        if socket
            .send(Message::text(request.to_string()))
            .await
            .is_err()
        {
            return false;
        }
        tally.moves.fetch_add(1, Ordering::Relaxed);
    }
    false
}

/// Plays games one after another in one slot until told to stop.
async fn slot(
    api: Api,
    variant: String,
    tally: Arc<Tally>,
    stop: Arc<AtomicBool>,
    ready: Arc<tokio::sync::Barrier>,
) {
    let mut first = true;
    while !stop.load(Ordering::Relaxed) {
        let created = api
            .create(json!({ "variant": variant, "mode": "online" }))
            .await;
        let joined = api.join(&created).await;
        let game = created["game_id"].as_str().expect("id").to_string();
        let in_flight: InFlight = Arc::default();
        if first {
            ready.wait().await;
            first = false;
        }
        let a = tokio::spawn(player(
            api.base.clone(),
            game.clone(),
            created["seat"]["token"].as_str().expect("token").into(),
            in_flight.clone(),
            tally.clone(),
            stop.clone(),
        ));
        let b = tokio::spawn(player(
            api.base.clone(),
            game,
            joined["seat"]["token"].as_str().expect("token").into(),
            in_flight,
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

#[tokio::main]
async fn main() {
    let args = Args::parse();
    // A fresh database either way: a Postgres URL names the server, and a new database is made on it.
    let database_url = match &args.database_url {
        Some(url) if url.starts_with("postgres") => ludus_tests::fresh_postgres_database(url).await,
        Some(url) => url.clone(),
        None => format!("sqlite://{}", ludus_tests::temp_path("bench.db").display()),
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a port")
        .local_addr()
        .expect("addr")
        .port();
    let mut server = start_server(&database_url, port);
    let api = Api::new(&format!("http://127.0.0.1:{port}"));
    api.wait_until_ready().await;
    let idle_kib = resident_kib(server.id());

    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let ready = Arc::new(tokio::sync::Barrier::new(args.games + 1));
    let slots: Vec<_> = (0..args.games)
        .map(|_| {
            tokio::spawn(slot(
                api.clone(),
                args.variant.clone(),
                tally.clone(),
                stop.clone(),
                ready.clone(),
            ))
        })
        .collect();
    ready.wait().await;
    // Let the sockets connect before reading the memory they cost.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let loaded_kib = resident_kib(server.id());
    let moves_before = tally.moves.load(Ordering::Relaxed);
    tally.latencies.lock().expect("lock").clear();
    let began = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let elapsed = began.elapsed().as_secs_f64();
    let moves = tally.moves.load(Ordering::Relaxed) - moves_before;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = std::mem::take(&mut *tally.latencies.lock().expect("lock"));
    latencies.sort_unstable();
    let _ = server.kill();
    let _ = server.wait();
    for s in slots {
        s.abort();
    }
    let connections = (2 * args.games) as f64;
    println!(
        "database:        {}",
        database_url.split('@').next_back().unwrap_or(&database_url)
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
    println!(
        "server memory:   {} KiB idle, {} KiB loaded, {:.1} KiB per connection (games' state included)",
        idle_kib,
        loaded_kib,
        (loaded_kib.saturating_sub(idle_kib)) as f64 / connections
    );
}
