//! Seeded matches between two levels, for calibrating them: sides alternate game by game, dice
//! come from the match seed, and the report gives the score with a 95% confidence interval and
//! the time each level spent per move. `ludus arena` prints [`Report`].

use crate::random::{generator, splitmix64};
use crate::{Level, choose_move};
use ludus_engine::{AnyGame, FirstPlayer, Phase, Player, Variant};
use rand::Rng;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Plies after which an arena game is scored a draw: a guard, never reached in Petteia (the
/// no-capture rule ends it first).
const MAX_PLIES: u32 = 4_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    pub variant: Variant,
    /// The level the result is reported for.
    pub a: Level,
    pub b: Level,
    pub games: u32,
    pub seed: u64,
    pub threads: usize,
}

/// Time spent by one level over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    pub moves: u64,
    pub total: Duration,
    pub max: Duration,
}

impl MoveTimes {
    fn add(&mut self, spent: Duration) {
        self.moves += 1;
        self.total += spent;
        self.max = self.max.max(spent);
    }

    fn merge(&mut self, other: &MoveTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }

    pub fn mean(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total / self.moves as u32
        }
    }
}

/// The result of a match, from `a`'s point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub setup: Match,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Index 0 for `a`, 1 for `b`.
    pub times: [MoveTimes; 2],
    /// How the drawn games ended, by termination.
    pub draw_reasons: BTreeMap<String, u32>,
}

impl Report {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// `a`'s score, a draw counting half, from 0 to 1.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// The Wilson score interval at 95% around [`Report::score`], which stays inside 0–1 and
    /// means something after a clean sweep. Draws make a game's score vary less than a coin's,
    /// so the games count for `n · p(1−p) / variance` coin tosses (the same `n` without draws).
    pub fn interval(&self) -> (f64, f64) {
        let games = self.games().max(1) as f64;
        let p = self.score();
        let mean_square = (self.wins as f64 + 0.25 * self.draws as f64) / games;
        let variance = mean_square - p * p;
        let coin = p * (1.0 - p);
        let n = if variance > 1e-12 && coin > 0.0 {
            games * coin / variance
        } else {
            games
        };
        wilson(p, n)
    }
}

/// The Wilson score interval at 95% for a share `p` of `n` coin tosses.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96_f64;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Match {
            variant,
            a,
            b,
            seed,
            ..
        } = self.setup;
        writeln!(f, "{variant}: {} games, seed {seed}", self.games())?;
        for (level, times) in [a, b].iter().zip(&self.times) {
            writeln!(
                f,
                "{level}: {} moves, mean {:.3} ms, max {:.1} ms per move",
                times.moves,
                times.mean().as_secs_f64() * 1e3,
                times.max.as_secs_f64() * 1e3
            )?;
        }
        if !self.draw_reasons.is_empty() {
            let reasons: Vec<String> = self
                .draw_reasons
                .iter()
                .map(|(reason, n)| format!("{reason} {n}"))
                .collect();
            writeln!(f, "draws by {}", reasons.join(", "))?;
        }
        let decisive = self.wins + self.losses;
        if decisive > 0 {
            let share = self.wins as f64 / decisive as f64;
            let (lo, hi) = wilson(share, decisive as f64);
            writeln!(
                f,
                "decisive games: {a} won {} of {decisive} ({:.1}%, 95% CI {:.1}–{:.1}%)",
                self.wins,
                100.0 * share,
                100.0 * lo,
                100.0 * hi
            )?;
        }
        let (lo, hi) = self.interval();
        write!(
            f,
            "{a} vs {b}: {}-{}-{}, {a} scores {:.1}% (95% CI {:.1}–{:.1}%)",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score(),
            100.0 * lo,
            100.0 * hi
        )
    }
}

/// How one game ended for `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Result {
    Win,
    /// With the termination's name.
    Draw(&'static str),
    Loss,
}

/// Plays the match on `setup.threads` threads. Game `i` gives `a` the first side when `i` is even;
/// each game's dice and choices come from the match seed and `i`, so the tally does not depend on
/// the number of threads (as long as no search hits its time cap).
pub fn run(setup: Match) -> Report {
    let next = AtomicU32::new(0);
    let tally = Mutex::new(Report {
        setup,
        wins: 0,
        draws: 0,
        losses: 0,
        times: [MoveTimes::default(); 2],
        draw_reasons: BTreeMap::new(),
    });
    std::thread::scope(|scope| {
        for _ in 0..setup.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= setup.games {
                        break;
                    }
                    let mut times = [MoveTimes::default(); 2];
                    let result = play_one(&setup, index, &mut times);
                    // A short critical section once per game: the tally is the only shared state.
                    let mut report = tally
                        .lock()
                        .expect("no arena thread panics holding the tally");
                    match result {
                        Result::Win => report.wins += 1,
                        Result::Draw(reason) => {
                            report.draws += 1;
                            *report.draw_reasons.entry(reason.to_string()).or_default() += 1;
                        }
                        Result::Loss => report.losses += 1,
                    }
                    for (total, game) in report.times.iter_mut().zip(&times) {
                        total.merge(game);
                    }
                }
            });
        }
    });
    tally.into_inner().expect("no arena thread panicked")
}

fn play_one(setup: &Match, index: u32, times: &mut [MoveTimes; 2]) -> Result {
    let game_seed = splitmix64(setup.seed ^ splitmix64(index as u64));
    let mut dice_rng = generator(game_seed);
    let a_player = if index.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    let first = match setup.variant.first_player() {
        FirstPlayer::Fixed(player) => player,
        // Pairs of games share the draw, so each level moves first as often as the other.
        FirstPlayer::DrawnFromSeed => {
            if splitmix64(setup.seed ^ (index / 2) as u64).is_multiple_of(2) {
                Player::First
            } else {
                Player::Second
            }
        }
    };
    let mut game = AnyGame::new(setup.variant, first);
    let dice_per_roll = setup.variant.dice_per_roll();
    for ply in 0..MAX_PLIES {
        match game.phase() {
            Phase::Over(outcome) => {
                return match outcome.winner {
                    None => Result::Draw(outcome.termination.name()),
                    Some(winner) if winner == a_player => Result::Win,
                    Some(_) => Result::Loss,
                };
            }
            Phase::AwaitingRoll => {
                let dice: Vec<u8> = (0..dice_per_roll)
                    .map(|_| dice_rng.random_range(1..=6))
                    .collect();
                game.roll(&dice).expect("a roll is awaited");
            }
            Phase::AwaitingMove => {
                let mover = game.to_move();
                let (level, side) = if mover == a_player {
                    (setup.a, 0)
                } else {
                    (setup.b, 1)
                };
                let started = Instant::now();
                let seed = splitmix64(game_seed ^ (ply as u64) << 1 ^ side as u64);
                let mv = choose_move(&game, level, seed, started + level.time_budget())
                    .expect("a move is awaited");
                times[side].add(started.elapsed());
                game.play(mv).expect("the computer plays legal moves");
            }
        }
    }
    Result::Draw("arena ply limit")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(wins: u32, draws: u32, losses: u32) -> Report {
        let level = |n| Level::new(n).expect("a level");
        Report {
            setup: Match {
                variant: Variant::Petteia6,
                a: level(2),
                b: level(1),
                games: wins + draws + losses,
                seed: 1,
                threads: 1,
            },
            wins,
            draws,
            losses,
            times: [MoveTimes::default(); 2],
            draw_reasons: BTreeMap::new(),
        }
    }

    #[test]
    fn the_last_line_states_the_tally_score_and_interval() {
        let text = report(60, 20, 20).to_string();
        let last = text.lines().last().expect("lines");
        assert_eq!(
            last,
            "L2 vs L1: 60-20-20, L2 scores 70.0% (95% CI 61.7–77.2%)"
        );
    }

    #[test]
    fn the_share_of_decisive_games_comes_with_its_own_interval() {
        let text = report(60, 20, 20).to_string();
        assert!(
            text.contains("decisive games: L2 won 60 of 80 (75.0%, 95% CI 64.5–83.2%)"),
            "{text}"
        );
    }

    #[test]
    fn a_clean_sweep_keeps_its_interval_inside_certainty() {
        let (lo, hi) = report(30, 0, 0).interval();
        assert!(lo > 0.85 && lo < 1.0, "{lo}");
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn a_match_is_the_same_on_one_thread_and_two() {
        let level = |n| Level::new(n).expect("a level");
        let setup = Match {
            variant: Variant::Petteia6,
            a: level(1),
            b: level(1),
            games: 4,
            seed: 11,
            threads: 1,
        };
        let one = run(setup);
        let two = run(Match {
            threads: 2,
            ..setup
        });
        assert_eq!(one.games(), 4);
        assert_eq!(
            (one.wins, one.draws, one.losses),
            (two.wins, two.draws, two.losses)
        );
    }
}
