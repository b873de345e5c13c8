//! Several instances on one Postgres database (docs/DESIGN.md, "Several instances on one
//! Postgres"): three `ludus` processes, the two players of each game on different instances.
//! Every event reaches every socket in version order, none missed or doubled; one instance is
//! killed mid-game and another restarted, and the games go on with every acknowledged move; an
//! invite is redeemed once, a clock flags once, the computer moves once. Every instance in turn
//! is SIGTERMed and started again while 200 games play (a rolling restart): no game lost, every
//! close a 1001. An instance frozen past its heartbeat's lapse stops the timers of the games it
//! lost; a cut listening connection is made again and its sockets miss nothing. Postgres only:
//! SQLite serves one instance (a second process on its file refuses to start:
//! `crates/server/tests/cli.rs`).

use futures_util::StreamExt;
use ludus_tests::{Api, Database, ServerProcess, Socket, TestDatabase, game_id, seat_token};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SERVER: &str = env!("CARGO_BIN_EXE_ludus-test-server");
const GAMES: usize = 6;
const INITIAL_MS: i64 = 600_000;
/// Long enough for a takeover (a heartbeat lapses after 5 s) and the computer's reply.
const PATIENCE: Duration = Duration::from_secs(30);

/// Three instances on one fresh Postgres database.
async fn three_instances() -> (TestDatabase, Vec<ServerProcess>) {
    let database = TestDatabase::create(Database::Postgres).await;
    let servers = (0..3)
        .map(|_| ServerProcess::start(SERVER, database.url()))
        .collect();
    (database, servers)
}

/// One player of one game: the instance it talks to, and the versions its sockets received.
struct Player {
    game: String,
    token: String,
    instance: usize,
    received: Arc<Mutex<Vec<u64>>>,
    reader: Option<tokio::task::JoinHandle<()>>,
}

impl Player {
    fn new(game: &str, token: &str, instance: usize) -> Player {
        Player {
            game: game.to_string(),
            token: token.to_string(),
            instance,
            received: Arc::default(),
            reader: None,
        }
    }

    /// Opens a socket on `base` from the last version received (as the browser client does when
    /// it reconnects), and reads its events until it closes.
    async fn connect(&mut self, base: &str) {
        if let Some(reader) = self.reader.take() {
            reader.await.expect("the reader does not panic");
        }
        let since = self.received.lock().unwrap().last().copied().unwrap_or(0);
        let mut socket = Socket::connect(base, &self.game, Some(&self.token), Some(since)).await;
        let received = self.received.clone();
        self.reader = Some(tokio::spawn(async move {
            while let Some(message) = socket.next_within(Duration::from_secs(120)).await {
                if message["type"] == "event" {
                    let version = message["version"].as_u64().expect("an event's version");
                    received.lock().unwrap().push(version);
                }
            }
        }));
    }

    /// Moves to another instance (its own went away) and reconnects there.
    async fn move_to(&mut self, instance: usize, base: &str) {
        self.instance = instance;
        self.connect(base).await;
    }
}

/// A move of the player to move of game `pair`, through that player's own instance: the view it
/// reads there shows the opponent's last move, wherever it was played. The version the move
/// was acknowledged at and the move, or None when the game is over.
async fn play_one(apis: &[Option<Api>], pair: &[Player; 2]) -> Option<(u64, String)> {
    let api = |p: &Player| apis[p.instance].clone().expect("a live instance");
    let first = api(&pair[0])
        .view(&pair[0].game, Some(&pair[0].token))
        .await;
    if first["status"] != "playing" {
        return None;
    }
    let mover = if first["to_move"] == first["seat"]["side"] {
        &pair[0]
    } else {
        &pair[1]
    };
    let view = api(mover).view(&mover.game, Some(&mover.token)).await;
    assert_eq!(
        view["to_move"], view["seat"]["side"],
        "the mover's instance has caught up with the opponent's move: {view}"
    );
    let legal = view["legal_moves"].as_array().expect("legal moves");
    let version = view["version"].as_u64().unwrap();
    let mv = legal[version as usize * 7 % legal.len()].as_str().unwrap();
    let (status, after) = api(mover)
        .play(&mover.game, &mover.token, mv, version)
        .await;
    assert_eq!(status, 200, "the move is accepted: {after}");
    Some((version + 1, mv.to_string()))
}

/// Plays `plies` moves in every game; records what was acknowledged.
async fn play_rounds(
    apis: &[Option<Api>],
    players: &[[Player; 2]],
    acknowledged: &mut [Vec<(u64, String)>],
    plies: usize,
) {
    for _ in 0..plies {
        for (pair, acknowledged) in players.iter().zip(acknowledged.iter_mut()) {
            acknowledged.extend(play_one(apis, pair).await);
        }
    }
}

/// The whole log of a game, read through `api`.
async fn log(api: &Api, game: &str) -> Vec<Value> {
    let (status, events) = api
        .get(&format!("/api/v1/games/{game}/events?since=0"), None)
        .await;
    assert_eq!(status, 200, "events: {events}");
    events.as_array().expect("a list of events").clone()
}

/// The game's log as it must be after any failover: versions 1..n without a gap, and every
/// acknowledged move at the version it was acknowledged with.
async fn checked_log(api: &Api, game: &str, acknowledged: &[(u64, String)]) -> Vec<Value> {
    let log = log(api, game).await;
    let versions: Vec<u64> = log.iter().map(|e| e["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=log.len() as u64).collect::<Vec<_>>());
    for (version, mv) in acknowledged {
        assert_eq!(
            log[*version as usize - 1]["move"],
            *mv,
            "the acknowledged move is at version {version}"
        );
    }
    log
}

/// Waits until a player's sockets have received as many events as the log holds, then asserts
/// they received each version of it once, in order, across every reconnection.
async fn received_once_in_order(received: &Mutex<Vec<u64>>, log: &[Value], who: &str) {
    let versions: Vec<u64> = log.iter().map(|e| e["version"].as_u64().unwrap()).collect();
    eventually("every socket receives every event", async || {
        received.lock().unwrap().len() >= versions.len()
    })
    .await;
    assert_eq!(
        *received.lock().unwrap(),
        versions,
        "{who}'s sockets received each event once, in order"
    );
}

/// Waits until `predicate` holds, polling.
async fn eventually(what: &str, mut predicate: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !predicate().await {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The clocks in a view: each side's time left.
fn clocks(view: &Value) -> (i64, i64, Value) {
    let clocks = &view["clocks"];
    (
        clocks["light"].as_i64().expect("light's clock"),
        clocks["dark"].as_i64().expect("dark's clock"),
        clocks["running"].clone(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn games_go_on_across_instances_through_a_kill_and_a_restart() {
    let (database, mut servers) = three_instances().await;
    let mut apis: Vec<Option<Api>> = servers.iter().map(|s| Some(s.api())).collect();
    let mut bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();

    // Game g is created through instance g % 3 (which owns it) and joined through the next one.
    let mut players: Vec<[Player; 2]> = Vec::new();
    for g in 0..GAMES {
        let (creator, joiner) = (g % 3, (g + 1) % 3);
        let created = apis[creator]
            .as_ref()
            .unwrap()
            .create(json!({
                "variant": "petteia-8", "mode": "online",
                "clock": { "initial_ms": INITIAL_MS, "increment_ms": 0 },
            }))
            .await;
        let joined = apis[joiner].as_ref().unwrap().join(&created).await;
        let game = game_id(&created);
        let mut pair = [
            Player::new(game, seat_token(&created), creator),
            Player::new(game, seat_token(&joined), joiner),
        ];
        for player in &mut pair {
            player.connect(&bases[player.instance]).await;
        }
        players.push(pair);
    }
    let mut acknowledged = vec![Vec::new(); GAMES];
    play_rounds(&apis, &players, &mut acknowledged, 6).await;

    // SIGKILL instance 2 mid-game. Its games (2 and 5) go on through the others, with every
    // acknowledged move, and their clocks go on from the stored times.
    let owned_by_killed: Vec<usize> = (0..GAMES).filter(|g| g % 3 == 2).collect();
    let mut before = Vec::new();
    for &g in &owned_by_killed {
        let player = &players[g][0];
        let api = apis[player.instance].as_ref().unwrap();
        before.push(api.view(&player.game, Some(&player.token)).await);
    }
    let killed_at = Instant::now();
    servers[2].kill();
    apis[2] = None;
    for pair in &mut players {
        for side in 0..2 {
            if pair[side].instance == 2 {
                let elsewhere = (0..2).find(|&i| i != pair[1 - side].instance).unwrap();
                let base = bases[elsewhere].clone();
                pair[side].move_to(elsewhere, &base).await;
            }
        }
    }
    for (&g, before) in owned_by_killed.iter().zip(&before) {
        let player = &players[g][0];
        let view = apis[player.instance]
            .as_ref()
            .unwrap()
            .view(&player.game, Some(&player.token))
            .await;
        let (light, dark, running) = clocks(&view);
        let (light_before, dark_before, running_before) = clocks(before);
        assert_eq!(running, running_before, "the same clock runs");
        let (still, still_before, ran, ran_before) = if running == "light" {
            (dark, dark_before, light, light_before)
        } else {
            (light, light_before, dark, dark_before)
        };
        assert_eq!(still, still_before, "the stopped clock is as stored");
        assert!(
            ran <= ran_before && ran < INITIAL_MS,
            "the running clock goes on from the stored time ({ran_before} then {ran})"
        );
    }
    let mut first_after_kill = None;
    for g in &owned_by_killed {
        if let Some(played) = play_one(&apis, &players[*g]).await {
            first_after_kill.get_or_insert(killed_at.elapsed());
            acknowledged[*g].push(played);
        }
    }
    println!(
        "SIGKILL to the next move accepted in a game of the killed instance: {first_after_kill:?}"
    );
    play_rounds(&apis, &players, &mut acknowledged, 6).await;

    // SIGTERM instance 1 and start it again: its sockets close (the players reconnect, to the
    // new process) and its games pass on at once.
    let terminated_at = Instant::now();
    servers[1].terminate();
    println!("SIGTERM to the process gone: {:?}", terminated_at.elapsed());
    servers[1] = ServerProcess::start(SERVER, database.url());
    apis[1] = Some(servers[1].api());
    bases[1] = servers[1].base.clone();
    for pair in &mut players {
        for player in pair.iter_mut().filter(|p| p.instance == 1) {
            let base = bases[1].clone();
            player.move_to(1, &base).await;
        }
    }
    play_rounds(&apis, &players, &mut acknowledged, 6).await;

    // Every acknowledged move is in the log, at its version; every socket received every
    // event once, in version order, across its reconnections.
    let reader = apis[0].clone().unwrap();
    for (pair, acknowledged) in players.iter().zip(&acknowledged) {
        assert!(
            acknowledged.len() >= 12,
            "the game went on: {acknowledged:?}"
        );
        let log = checked_log(&reader, &pair[0].game, acknowledged).await;
        every_socket_has_the_log(pair, &log).await;
    }
    drop(servers);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn an_invite_is_redeemed_once_across_instances() {
    let (_database, servers) = three_instances().await;
    let created = servers[0]
        .api()
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let invite = created["invite"].as_str().unwrap().to_string();
    let joins = (0..9).map(|i| {
        let api = servers[i % 3].api();
        let path = format!("/api/v1/invites/{invite}/join");
        async move { api.post(&path, None, json!({})).await }
    });
    let answers = futures_util::future::join_all(joins).await;
    let joined = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(joined, 1, "one join wins: {answers:?}");
    assert!(
        answers
            .iter()
            .all(|(status, _)| *status == 200 || *status == 409),
        "the others are told the seat is taken: {answers:?}"
    );
    for server in &servers {
        let log = log(&server.api(), game_id(&created)).await;
        let joins = log.iter().filter(|e| e["kind"] == "joined").count();
        assert_eq!(joins, 1, "one join in the log, seen from every instance");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn a_clock_flags_once_with_its_players_on_two_instances() {
    let (_database, servers) = three_instances().await;
    let clock = json!({ "initial_ms": 1000, "increment_ms": 0 });
    let players = game_across(&servers, 0, 1, clock).await;
    let game = players[0].game.as_str();
    // Nobody moves: the first mover's second runs out, and the owner (instance 0) raises the flag.
    let api = servers[2].api();
    eventually("the flag falls", async || {
        api.view(game, None).await["status"] == "finished"
    })
    .await;
    // Give every instance time to try, had any other been running the clock.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let log = log(&api, game).await;
    let finished: Vec<&Value> = log.iter().filter(|e| e["kind"] == "finished").collect();
    assert_eq!(finished.len(), 1, "one flag: {log:?}");
    assert_eq!(finished[0]["termination"], "timeout");
    every_socket_has_the_log(&players, &log).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn the_computer_moves_once_and_goes_on_after_its_instance_is_killed() {
    let (_database, mut servers) = three_instances().await;
    // Created through instance 0, which owns it (and runs the computer); played through the others.
    let created = servers[0]
        .api()
        .create(json!({ "variant": "petteia-6", "mode": "computer", "level": 1, "side": "first" }))
        .await;
    let (game, token) = (
        game_id(&created).to_string(),
        seat_token(&created).to_string(),
    );
    let (mut failover, mut killed_at) = (None, Instant::now());
    for turn in 0..8 {
        if turn == 4 {
            servers[0].kill();
            killed_at = Instant::now();
        }
        let api = servers[1 + turn % 2].api();
        let view = api.view(&game, Some(&token)).await;
        if view["status"] != "playing" {
            break;
        }
        let version = view["version"].as_u64().unwrap();
        let legal = view["legal_moves"].as_array().unwrap();
        let mv = legal[version as usize * 7 % legal.len()].as_str().unwrap();
        let (status, after) = api.play(&game, &token, mv, version).await;
        assert_eq!(status, 200, "the move is accepted: {after}");
        if after["status"] != "playing" {
            break;
        }
        // The computer answers, through whichever instance owns the game now.
        eventually("the computer replies", async || {
            let view = api.view(&game, Some(&token)).await;
            view["version"].as_u64() > Some(version + 1) || view["status"] != "playing"
        })
        .await;
        if turn == 4 {
            failover = Some(killed_at.elapsed());
        }
    }
    println!("SIGKILL of the computer's instance to its next move: {failover:?}");
    let log = log(&servers[1].api(), &game).await;
    let sides: Vec<&str> = log
        .iter()
        .filter(|e| e["kind"] == "move")
        .map(|e| e["side"].as_str().unwrap())
        .collect();
    assert!(sides.len() >= 8, "the game went on: {sides:?}");
    for pair in sides.chunks(2) {
        assert_eq!(
            pair[0], "light",
            "the player's move, then the computer's once: {sides:?}"
        );
        if let Some(reply) = pair.get(1) {
            assert_eq!(*reply, "dark", "one reply per move: {sides:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn a_player_connected_to_another_instance_counts_as_present() {
    let (_database, servers) = three_instances().await;
    let created = servers[0]
        .api()
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let joined = servers[1].api().join(&created).await;
    let game = game_id(&created);
    let creator_view = async || {
        let view = servers[0]
            .api()
            .view(game, Some(seat_token(&created)))
            .await;
        view["opponent_connected"].clone()
    };
    // The joiner's socket on instance 1 opens and closes, then opens again: instance 0 sees each
    // (after the first close, nothing but that second socket makes the joiner present).
    let connect = || Socket::connect(&servers[1].base, game, Some(seat_token(&joined)), None);
    connect().await.close().await;
    eventually("instance 0 sees the joiner leave", async || {
        creator_view().await == false
    })
    .await;
    let socket = connect().await;
    eventually(
        "instance 0 sees the joiner's socket on instance 1",
        async || creator_view().await == true,
    )
    .await;
    socket.close().await;
    eventually("instance 0 sees it close", async || {
        creator_view().await == false
    })
    .await;
}

/// Games played through the rolling restart.
const ROLLING_GAMES: usize = 200;
/// How long the games play between two restarts (and before the first, after the last).
const ROLLING_PLAY: Duration = Duration::from_secs(2);
/// Each game's pause between its moves: enough to keep every game going without swamping three
/// debug servers on a small machine.
const ROLLING_PAUSE: Duration = Duration::from_millis(250);

/// The base address of each instance, `None` while it restarts (no player chooses it then).
type Bases = Arc<Mutex<Vec<Option<String>>>>;

/// A player who follows the instances: when its socket closes it reconnects to another live
/// instance (not its opponent's), from the last version it received, as the browser does.
struct Roamer {
    game: String,
    token: String,
    instance: AtomicUsize,
    received: Mutex<Vec<u64>>,
    /// The close code of each socket of this player that the server closed.
    closes: Mutex<Vec<Option<u16>>>,
    /// Connections refused or dropped before the hello (an instance going away).
    failed_connections: AtomicUsize,
}

impl Roamer {
    fn new(game: &str, token: &str, instance: usize) -> Arc<Roamer> {
        Arc::new(Roamer {
            game: game.to_string(),
            token: token.to_string(),
            instance: AtomicUsize::new(instance),
            received: Mutex::default(),
            closes: Mutex::default(),
            failed_connections: AtomicUsize::new(0),
        })
    }

    fn instance(&self) -> usize {
        self.instance.load(Ordering::SeqCst)
    }

    /// The player's instance's API, unless it is restarting.
    fn api(&self, bases: &Bases) -> Option<Api> {
        bases.lock().unwrap()[self.instance()]
            .as_deref()
            .map(Api::new)
    }

    /// Holds a socket open on the player's instance, reconnecting after each close.
    async fn follow(self: Arc<Roamer>, opponent: Arc<Roamer>, bases: Bases) {
        loop {
            let instance = self.instance();
            let base = bases.lock().unwrap()[instance].clone();
            if let Some(base) = base {
                let since = self.received.lock().unwrap().last().copied().unwrap_or(0);
                // The instance may have been chosen just before it was taken out (on a busy
                // machine, this task runs late): then the connection fails, and the player
                // tries another, as the browser does.
                let socket =
                    Socket::try_connect(&base, &self.game, Some(&self.token), Some(since)).await;
                if let Some(mut socket) = socket {
                    while let Some(message) = socket.next_within(Duration::from_secs(600)).await {
                        if message["type"] == "event" {
                            let version = message["version"].as_u64().expect("an event's version");
                            self.received.lock().unwrap().push(version);
                        }
                    }
                    self.closes.lock().unwrap().push(socket.close_code());
                } else {
                    self.failed_connections.fetch_add(1, Ordering::SeqCst);
                }
            }
            // Another live instance than the one that closed and the opponent's.
            loop {
                let elsewhere = {
                    let bases = bases.lock().unwrap();
                    (0..bases.len())
                        .find(|&i| i != instance && i != opponent.instance() && bases[i].is_some())
                };
                if let Some(elsewhere) = elsewhere {
                    self.instance.store(elsewhere, Ordering::SeqCst);
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// A player's view through its instance, or `None` while that instance is unreachable.
async fn roaming_view(player: &Roamer, bases: &Bases) -> Option<Value> {
    let api = player.api(bases)?;
    let (status, view) = api
        .try_get(
            &format!("/api/v1/games/{}", player.game),
            Some(&player.token),
        )
        .await?;
    (status == 200).then_some(view)
}

/// Games in play owned by no instance.
const NO_OWNER: &str = "owner IS NULL";
/// Games in play owned by an instance whose heartbeat has lapsed (or that has left).
const DEAD_OWNER: &str = "owner NOT IN (SELECT id FROM instances \
     WHERE alive_until > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT)";

/// How many games in play match `condition` (one of the two above).
async fn owned(admin: &mut sqlx::PgConnection, condition: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM games WHERE status = 'playing' AND {condition}"
    )))
    .fetch_one(admin)
    .await
    .expect("the games' owners")
}

/// What one game's moves met: the moves acknowledged (version, move) and the refusals seen.
#[derive(Default)]
struct Played {
    acknowledged: Vec<(u64, String)>,
    refused: Vec<(u16, Value)>,
    unreachable: usize,
}

/// Plays game `pair` until `stop`, each move through the mover's own instance over HTTP; a move
/// that meets an instance going away is tried again (from a fresh view) once the player has moved on.
async fn keep_playing(pair: [Arc<Roamer>; 2], bases: Bases, stop: Arc<AtomicBool>) -> Played {
    let mut played = Played::default();
    while !stop.load(Ordering::SeqCst) {
        tokio::time::sleep(ROLLING_PAUSE).await;
        let Some(first) = roaming_view(&pair[0], &bases).await else {
            played.unreachable += 1;
            continue;
        };
        if first["status"] != "playing" {
            break;
        }
        let mover = if first["to_move"] == first["seat"]["side"] {
            &pair[0]
        } else {
            &pair[1]
        };
        let Some(view) = roaming_view(mover, &bases).await else {
            played.unreachable += 1;
            continue;
        };
        assert_eq!(
            view["to_move"], view["seat"]["side"],
            "the mover's instance has caught up with the opponent's move: {view}"
        );
        let legal = view["legal_moves"].as_array().expect("legal moves");
        let version = view["version"].as_u64().unwrap();
        let mv = legal[version as usize * 7 % legal.len()].as_str().unwrap();
        let Some(api) = mover.api(&bases) else {
            played.unreachable += 1;
            continue;
        };
        let path = format!("/api/v1/games/{}/moves", mover.game);
        let body = json!({ "move": mv, "version": version });
        match api.try_post(&path, Some(&mover.token), body).await {
            Some((200, _)) => played.acknowledged.push((version + 1, mv.to_string())),
            Some(refused) => played.refused.push(refused),
            None => played.unreachable += 1,
        }
    }
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn a_rolling_restart_of_every_instance_ends_no_game() {
    let (database, mut servers) = three_instances().await;
    let bases: Bases = Arc::new(Mutex::new(
        servers.iter().map(|s| Some(s.base.clone())).collect(),
    ));

    // Game g is created through instance g % 3 and joined through the next one; each player
    // holds a socket on the instance it came through. A few at a time: 200 creations at once
    // would meet the statement timeout on a busy machine (and be told 503, rightly).
    let pairs: Vec<[Arc<Roamer>; 2]> = futures_util::stream::iter((0..ROLLING_GAMES).map(|g| {
        let (creator, joiner) = (servers[g % 3].api(), servers[(g + 1) % 3].api());
        async move {
            let created = creator
                .create(json!({
                    "variant": "petteia-8", "mode": "online",
                    "clock": { "initial_ms": INITIAL_MS, "increment_ms": 0 },
                }))
                .await;
            let joined = joiner.join(&created).await;
            let game = game_id(&created);
            [
                Roamer::new(game, seat_token(&created), g % 3),
                Roamer::new(game, seat_token(&joined), (g + 1) % 3),
            ]
        }
    }))
    .buffered(8)
    .collect()
    .await;
    let mut followers = Vec::new();
    for [first, second] in &pairs {
        for (player, opponent) in [(first, second), (second, first)] {
            let follow = player.clone().follow(opponent.clone(), bases.clone());
            followers.push(tokio::spawn(follow));
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let games: Vec<_> = pairs
        .iter()
        .map(|pair| tokio::spawn(keep_playing(pair.clone(), bases.clone(), stop.clone())))
        .collect();

    // Each instance in turn: taken out of the choice, SIGTERMed, started again.
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(database.url())
        .await
        .expect("a connection to the test database");
    let rolling_started = Instant::now();
    for (i, server) in servers.iter_mut().enumerate() {
        tokio::time::sleep(ROLLING_PLAY).await;
        bases.lock().unwrap()[i] = None;
        // A player that chose this instance a moment ago has its socket open before the SIGTERM.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let restart = Instant::now();
        tokio::task::block_in_place(|| server.terminate());
        let stopped = restart.elapsed();
        // Gone gracefully, it released its games: none is left to an instance not alive.
        assert_eq!(owned(&mut admin, DEAD_OWNER).await, 0, "its games released");
        eventually("the others take the released games over", async || {
            owned(&mut admin, NO_OWNER).await == 0
        })
        .await;
        let handed_over = restart.elapsed();
        *server = tokio::task::block_in_place(|| ServerProcess::start(SERVER, database.url()));
        bases.lock().unwrap()[i] = Some(server.base.clone());
        let ready = restart.elapsed();
        println!(
            "instance {i}: SIGTERM to gone {stopped:?}, to its games owned by the others {handed_over:?}, \
             to its successor ready {ready:?}"
        );
    }
    tokio::time::sleep(ROLLING_PLAY).await;
    stop.store(true, Ordering::SeqCst);
    let mut played = Vec::new();
    for game in games {
        played.push(game.await.expect("a game's player does not panic"));
    }
    println!(
        "rolling restart of three instances: {:?}",
        rolling_started.elapsed()
    );

    let reader = servers[0].api();
    let (mut moves, mut unreachable, mut reconnects, mut failed_connections) = (0, 0, 0, 0);
    for (pair, played) in pairs.iter().zip(&played) {
        assert!(
            played.refused.is_empty(),
            "no move is refused: {:?}",
            played.refused
        );
        assert!(!played.acknowledged.is_empty(), "the game went on");
        moves += played.acknowledged.len();
        unreachable += played.unreachable;
        let log = checked_log(&reader, &pair[0].game, &played.acknowledged).await;
        // Still in play, or ended by its own moves: no flag, no abort. And the others served
        // the games throughout, so no instance paused their clocks as it stopped.
        for event in &log {
            assert!(
                event["kind"] != "aborted" && event["termination"] != "timeout",
                "the restarts ended no game: {event}"
            );
            assert_ne!(event["kind"], "clocks_paused", "a clock paused: {event}");
        }
        for player in pair {
            received_once_in_order(&player.received, &log, "a roaming player").await;
            let closes = player.closes.lock().unwrap().clone();
            assert!(!closes.is_empty(), "every player's instance restarted once");
            assert!(
                closes.iter().all(|code| *code == Some(1001)),
                "a restart closes a socket with 1001 (going away): {closes:?}"
            );
            reconnects += closes.len();
            failed_connections += player.failed_connections.load(Ordering::SeqCst);
        }
    }
    println!(
        "{ROLLING_GAMES} games: {moves} moves acknowledged, {reconnects} reconnects, \
         {failed_connections} sockets and {unreachable} requests to an instance going away \
         (tried again elsewhere)"
    );
    for follower in followers {
        follower.abort();
    }
}

/// An online game created through instance `creator` and joined through `joiner`, each player
/// with a socket on the instance they came through.
async fn game_across(
    servers: &[ServerProcess],
    creator: usize,
    joiner: usize,
    clock: Value,
) -> [Player; 2] {
    game_watched_from(servers, creator, joiner, [creator, joiner], clock).await
}

/// Like [`game_across`], the two players' sockets on the instances `sockets` (the creator's
/// first).
async fn game_watched_from(
    servers: &[ServerProcess],
    creator: usize,
    joiner: usize,
    sockets: [usize; 2],
    clock: Value,
) -> [Player; 2] {
    let created = servers[creator]
        .api()
        .create(json!({ "variant": "petteia-6", "mode": "online", "clock": clock }))
        .await;
    let joined = servers[joiner].api().join(&created).await;
    let game = game_id(&created);
    let mut pair = [
        Player::new(game, seat_token(&created), sockets[0]),
        Player::new(game, seat_token(&joined), sockets[1]),
    ];
    for player in &mut pair {
        player.connect(&servers[player.instance].base).await;
    }
    pair
}

/// Waits until every socket of `players` has received the whole log, and checks that each
/// received every version once, in order.
async fn every_socket_has_the_log(players: &[Player], log: &[Value]) {
    let versions: Vec<u64> = log.iter().map(|e| e["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=log.len() as u64).collect::<Vec<_>>());
    for player in players {
        let who = format!("the player on instance {}", player.instance);
        received_once_in_order(&player.received, log, &who).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn an_instance_whose_heartbeat_lapses_while_alive_flags_nothing_twice() {
    let (database, mut servers) = three_instances().await;
    // Instance 0 owns the game (it runs its flag); its players are on instances 1 and 2.
    let clock = json!({ "initial_ms": 12_000, "increment_ms": 0 });
    let players = game_watched_from(&servers, 0, 1, [1, 2], clock).await;
    let game = players[0].game.as_str();
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(database.url())
        .await
        .expect("a connection to the test database");
    let owner_query =
        || sqlx::query_scalar::<_, Option<String>>("SELECT owner FROM games WHERE id = $1");
    let first_owner = owner_query()
        .bind(game)
        .fetch_one(&mut admin)
        .await
        .expect("the game's owner")
        .expect("an owner");
    // Frozen past the lapse of its heartbeat (5 s): another instance takes the game over.
    // Thawed before the flag's time (12 s), instance 0 finds its heartbeat lapsed, learns it lost
    // the game and stops running its clock; the flag falls once, from the new owner.
    servers[0].pause();
    tokio::time::sleep(Duration::from_secs(8)).await;
    servers[0].resume();
    let owner = owner_query()
        .bind(game)
        .fetch_one(&mut admin)
        .await
        .expect("the game's owner");
    assert!(
        owner.is_some() && owner != Some(first_owner),
        "another instance took the game over, and the thawed one did not take it back: {owner:?}"
    );
    let api = servers[2].api();
    eventually("the flag falls", async || {
        api.view(game, None).await["status"] == "finished"
    })
    .await;
    // Give every instance time to try, had two of them been running the clock.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for server in &servers {
        let log = log(&server.api(), game).await;
        let finished: Vec<&Value> = log.iter().filter(|e| e["kind"] == "finished").collect();
        assert_eq!(
            finished.len(),
            1,
            "one flag, seen from every instance: {log:?}"
        );
        assert_eq!(finished[0]["termination"], "timeout");
    }
    let events = log(&api, game).await;
    let at = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["at"].as_i64();
    let fell_after = at("finished").unwrap() - at("joined").unwrap();
    println!(
        "the flag fell {fell_after} ms after the join (the clock: 12000 ms, the freeze: 8000 ms)"
    );
    // Not at the clock's 12 s, from the thawed instance: it no longer runs the clock. The new
    // owner took over no sooner than 4 s in (a heartbeat each second, lapsing after 5) and holds
    // the flag for the restart grace (15 s) from then: a slow machine only makes it later.
    assert!(
        fell_after > 15_000,
        "the flag waits the new owner's grace ({fell_after} ms after the join)"
    );
    every_socket_has_the_log(&players, &events).await;
    // Instance 0 runs on as an instance among the others: a new game through it is played
    // across instances as before.
    let pair = game_across(&servers, 0, 1, Value::Null).await;
    let apis: Vec<Option<Api>> = servers.iter().map(|s| Some(s.api())).collect();
    let mut acknowledged = vec![Vec::new()];
    play_rounds(&apis, std::slice::from_ref(&pair), &mut acknowledged, 4).await;
    assert_eq!(acknowledged[0].len(), 4, "the game goes on");
    every_socket_has_the_log(&pair, &log(&api, &pair[0].game).await).await;
}

/// Plays `plies` moves of game `pair` through `api` alone, whatever instance its players' sockets
/// are on; the moves acknowledged (version, move).
async fn play_through(api: &Api, pair: &[Player; 2], plies: usize) -> Vec<(u64, String)> {
    let mut acknowledged = Vec::new();
    for _ in 0..plies {
        let first = api.view(&pair[0].game, Some(&pair[0].token)).await;
        let mover = if first["to_move"] == first["seat"]["side"] {
            &pair[0]
        } else {
            &pair[1]
        };
        let view = api.view(&mover.game, Some(&mover.token)).await;
        if view["status"] != "playing" {
            break;
        }
        let legal = view["legal_moves"].as_array().expect("legal moves");
        let version = view["version"].as_u64().unwrap();
        let mv = legal[version as usize * 7 % legal.len()].as_str().unwrap();
        let (status, after) = api.play(&mover.game, &mover.token, mv, version).await;
        assert_eq!(status, 200, "the move is accepted: {after}");
        acknowledged.push((version + 1, mv.to_string()));
    }
    acknowledged
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn events_reach_the_sockets_after_the_listening_connections_are_cut() {
    let (database, servers) = three_instances().await;
    // The players' sockets are on instances 1 and 2, and every move is played through instance 0:
    // nothing but the notifications (and the catching up after a listener is made again) brings
    // the moves to those sockets.
    let pair = game_across(&servers, 1, 2, Value::Null).await;
    let mover = servers[0].api();
    let mut acknowledged = play_through(&mover, &pair, 4).await;

    // Postgres ends every instance's listening connection (as a restart of Postgres, a network
    // cut or an administrator would); the moves go on at once, before the instances listen
    // again: what they miss meanwhile they read from the log once they do.
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(database.url())
        .await
        .expect("a connection to the test database");
    let listening = "SELECT pid FROM pg_stat_activity \
                     WHERE datname = current_database() AND query LIKE 'LISTEN%'";
    let cut: Vec<bool> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT pg_terminate_backend(pid) FROM ({listening}) AS listeners"
    )))
    .fetch_all(&mut admin)
    .await
    .expect("the listeners are cut");
    assert_eq!(cut, vec![true; 3], "one listening connection per instance");
    acknowledged.extend(play_through(&mover, &pair, 8).await);

    // Each instance listens again; its sockets receive every event once, in order, those of
    // the moves made while it was not listening and those made since.
    eventually("every instance listens again", async || {
        let pids: Vec<i32> = sqlx::query_scalar(sqlx::AssertSqlSafe(listening))
            .fetch_all(&mut admin)
            .await
            .expect("pg_stat_activity");
        pids.len() == 3
    })
    .await;
    // Before any further move (whose notification would wake them anyway).
    every_socket_has_the_log(&pair, &log(&mover, &pair[0].game).await).await;
    acknowledged.extend(play_through(&mover, &pair, 4).await);
    assert_eq!(acknowledged.len(), 16, "the game went on");
    let log = log(&mover, &pair[0].game).await;
    for (version, mv) in &acknowledged {
        assert_eq!(log[*version as usize - 1]["move"], *mv);
    }
    every_socket_has_the_log(&pair, &log).await;
}
