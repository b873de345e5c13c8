//! `cargo bench -p ludus-engine`: legal-move generation over mid-game positions, and uniformly random
//! playouts, for every built variant. Prints plies/s and playouts/s (one thread, per CPU-second of it
//! where Linux says; see `Stopwatch`).
//!
//! Reference (Ludii, same kind of machine, one thread): Petteia 8×8 about 180,000 moves/s,
//! Petteia 6×6 about 279,000 moves/s; Pente Grammai about 478 playouts/s, 135,000 moves/s;
//! XII Scripta about 186 playouts/s and 92,000 moves/s.

use ludus_engine::dice::Seed;
use ludus_engine::duodecim::Duodecim;
use ludus_engine::pente_grammai::{PenteGrammai, Rules};
use ludus_engine::petteia::{Petteia, Size};
use ludus_engine::{Chance, Game, Player};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::{Duration, Instant};

const MEASURE_FOR: Duration = Duration::from_secs(3);

/// Times a measurement: it runs for [`MEASURE_FOR`] of wall-clock time, and its rates are per
/// second of the CPU time this thread ran where Linux tells it (`/proc/thread-self/schedstat`),
/// so that a machine shared with other work does not halve the figures; elsewhere per wall-clock
/// second.
struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    fn running(&self) -> bool {
        self.wall.elapsed() < MEASURE_FOR
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_time()) {
            (Some(began), Some(now)) => (now - began).as_secs_f64(),
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// The CPU time this thread has run so far (Linux only: the first field of its schedstat, in ns).
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Plays one uniformly random game to its end; `roll` throws dice whenever a roll is awaited.
fn playout<G: Game>(
    game: &mut G,
    rng: &mut SmallRng,
    roll: &impl Fn(&mut G, &mut SmallRng),
) -> u64 {
    let mut plies = 0;
    loop {
        match game.phase() {
            ludus_engine::Phase::Over(_) => return plies,
            ludus_engine::Phase::AwaitingRoll => roll(game, rng),
            ludus_engine::Phase::AwaitingMove => {
                let mv = game
                    .pick_legal_move(|n| rng.random_range(0..n))
                    .expect("a move is awaited");
                game.play_listed(mv);
                plies += 1;
            }
        }
    }
}

/// 200 positions, each a number of uniformly random plies (drawn from `plies`) from the start,
/// in games still awaiting a move.
fn random_positions<G: Game>(
    plies: std::ops::Range<u32>,
    start: &impl Fn() -> G,
    roll: &impl Fn(&mut G, &mut SmallRng),
    rng: &mut SmallRng,
) -> Vec<G> {
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    while positions.len() < 200 {
        let mut game = start();
        let target = rng.random_range(plies.clone());
        let mut played = 0;
        while played < target && game.outcome().is_none() {
            if game.phase() == ludus_engine::Phase::AwaitingRoll {
                roll(&mut game, rng);
                continue;
            }
            moves.clear();
            game.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("legal");
            played += 1;
        }
        // A dice game stops after a move, awaiting the next roll: throw it to measure a move list.
        if game.phase() == ludus_engine::Phase::AwaitingRoll {
            roll(&mut game, rng);
        }
        if game.phase() == ludus_engine::Phase::AwaitingMove {
            positions.push(game);
        }
    }
    positions
}

/// `cargo bench -p ludus-engine -- duodecim` runs only the variants whose name contains a word given.
fn wanted(name: &str) -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| !a.starts_with('-') && (i == 0 || args[i - 1] != "--playouts"))
        .map(|(_, a)| a)
        .collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// `--playouts N`: play exactly N seeded playouts per variant and time nothing, for an instruction
/// count that the machine's load does not move (`valgrind --tool=callgrind`, total ÷ N).
fn fixed_playouts() -> Option<u64> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == "--playouts")?;
    Some(
        args.get(at + 1)
            .and_then(|n| n.parse().ok())
            .expect("--playouts takes a number"),
    )
}

fn bench_variant<G: Game>(name: &str, start: impl Fn() -> G, roll: impl Fn(&mut G, &mut SmallRng)) {
    if !wanted(name) {
        return;
    }
    let mut rng = SmallRng::seed_from_u64(0x1ad05);
    if let Some(games) = fixed_playouts() {
        let plies: u64 = (0..games)
            .map(|_| playout(&mut start(), &mut rng, &roll))
            .sum();
        println!("{name:<26} {games} playouts, {plies} plies");
        return;
    }
    let mut moves = Vec::new();

    // Mid-game positions: 20–60 random plies from the start, games still going.
    let positions = random_positions(20..60, &start, &roll, &mut rng);
    let (mut generated, mut calls) = (0u64, 0u64);
    let stopwatch = Stopwatch::start();
    while stopwatch.running() {
        for game in &positions {
            moves.clear();
            game.legal_moves(&mut moves);
            generated += black_box(moves.len()) as u64;
            calls += 1;
        }
    }
    let seconds = stopwatch.seconds();
    println!(
        "{name:<26} legal moves: {:>12.0} positions/s {:>14.0} moves/s",
        calls as f64 / seconds,
        generated as f64 / seconds
    );

    let (mut plies, mut games) = (0u64, 0u64);
    let stopwatch = Stopwatch::start();
    while stopwatch.running() {
        let mut game = start();
        plies += playout(&mut game, &mut rng, &roll);
        games += 1;
    }
    let seconds = stopwatch.seconds();
    println!(
        "{name:<26} playouts:    {:>12.0} playouts/s  {:>14.0} plies/s  ({:.1} plies a game)",
        games as f64 / seconds,
        plies as f64 / seconds,
        plies as f64 / games as f64
    );
}

/// Threatened pieces with their odds, per request: both players, 2 × 56 rolls searched each time.
fn bench_duodecim_threats() {
    let mut rng = SmallRng::seed_from_u64(0x7ea7);
    let positions = random_positions(
        50..400,
        &|| Duodecim::new(Player::First),
        &roll_three,
        &mut rng,
    );
    let (mut calls, mut threatened) = (0u64, 0usize);
    let stopwatch = Stopwatch::start();
    while stopwatch.running() {
        for game in &positions {
            threatened += black_box(game.threats())
                .iter()
                .map(Vec::len)
                .sum::<usize>();
            calls += 1;
        }
    }
    let seconds = stopwatch.seconds();
    println!(
        "{:<26} threats:     {:>12.0} positions/s  ({:.3} ms each, {:.1} threatened pieces a position)",
        "duodecim-scripta",
        calls as f64 / seconds,
        seconds * 1000.0 / calls as f64,
        threatened as f64 / calls as f64
    );
}

fn roll_three(game: &mut Duodecim, rng: &mut SmallRng) {
    let dice: [u8; 3] = std::array::from_fn(|_| rng.random_range(1..=6));
    game.roll(&dice).expect("a roll is awaited");
}

/// Three dice derived as the server derives them (docs/RULES.md §4, HMAC-SHA256 a die), for the
/// cost of that derivation in a playout; the other playouts throw a seeded fast generator's dice,
/// as search and the figures of the README do.
fn roll_three_derived(game: &mut Duodecim, rng: &mut SmallRng) {
    let seed = Seed([7; 32]);
    let dice: [u8; 3] = std::array::from_fn(|_| seed.die(rng.random()));
    game.roll(&dice).expect("a roll is awaited");
}

fn no_dice<G>(_: &mut G, _: &mut SmallRng) {
    unreachable!("this game has no dice")
}

/// Throws one die, uniformly.
fn one_die<G: Chance>(game: &mut G, rng: &mut SmallRng) {
    game.roll(&[rng.random_range(1..=6)])
        .expect("a roll is awaited");
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing and only wants a smoke run.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    if fixed_playouts().is_none() {
        let clock = match thread_cpu_time() {
            Some(_) => "CPU-second of the bench's thread",
            None => "wall-clock second",
        };
        println!("rates per {clock}");
    }
    bench_variant("petteia-6", || Petteia::new(Size::Six), no_dice);
    bench_variant("petteia-8", || Petteia::new(Size::Eight), no_dice);
    for rules in [Rules::Schaedler, Rules::Kidd, Rules::Perimeter] {
        bench_variant(
            rules.variant().id(),
            || PenteGrammai::new(rules, Player::First),
            one_die,
        );
    }
    bench_variant(
        "duodecim-scripta",
        || Duodecim::new(Player::First),
        roll_three,
    );
    bench_variant(
        "duodecim-derived-dice",
        || Duodecim::new(Player::First),
        roll_three_derived,
    );
    if wanted("duodecim-scripta") && fixed_playouts().is_none() {
        bench_duodecim_threats();
    }
}
