//! The Duodecim Scripta evaluation for the chance search: a race of pips, corrected for the pieces
//! the opponent's next roll may hit (by one die, or by one piece moving with several) and for the
//! stacks that block it.
//!
//! A piece on step s still needs 37 − s pips (a piece in reserve 37, one borne off none), and a
//! roll of three dice brings about 10.5 (`PIPS_PER_TURN`). The lead in pips, with the side about
//! to roll counted half a roll ahead, is measured against the spread a race of that length has, so
//! that the same lead weighs more near the end than at the start.

use crate::Level;
use crate::chance::{Evaluate, Settings};
use ludus_engine::Player;
use ludus_engine::duodecim::{Board, Dice, Duodecim, ROLLS, ROUTE_LEN, Step, THROWS};

/// Pips a roll of three dice brings on average.
const PIPS_PER_TURN: f64 = 10.5;
/// The pips a piece still needs from the reserve: enter, run all 36 steps, bear off.
const FROM_RESERVE: u32 = ROUTE_LEN as u32 + 1;
/// The race's spread in pips grows like the square root of its length; this scales it.
const SPREAD: f64 = 1.6;
/// A stack of two or more in front of the opponent's pieces costs it about this many pips for
/// every piece behind it that the stack can stop (within six steps).
const BLOCK: f64 = 1.5;
/// Stacks on the entry table keep reserve pieces out: dice that cannot enter go to the blocker.
const ENTRY_BLOCK: f64 = 3.0;
/// A blot the opponent may hit on its next roll is lost at its odds; when the blot's owner rolls
/// first, it may cover or move it, so its risk counts for less.
const RISK_IF_TO_MOVE: f64 = 0.3;

/// Levels 1–5, measured in the arena (CALIBRATION.md). Every level searches the
/// rest of its turn, every order of its dice, and judges where the turn ends; looking one roll
/// further costs the opponent's whole turn for each of 56 rolls, too slow for a game of over a
/// hundred turns. A game that long punishes every slip, so a small share of random moves
/// separates the levels.
const LEVELS: [Settings; 5] = [
    Settings::without_noise(0.6, 0, 100_000),
    Settings::without_noise(0.3, 0, 100_000),
    Settings::without_noise(0.12, 0, 100_000),
    Settings::without_noise(0.04, 0, 100_000),
    Settings::without_noise(0.0, 0, 100_000),
];

/// The evaluation of Duodecim Scripta.
#[derive(Clone, Copy, Debug, Default)]
pub struct DuodecimEvaluation;

impl Evaluate<Duodecim> for DuodecimEvaluation {
    fn evaluate(&self, game: &Duodecim, player: Player) -> f64 {
        let position = game.position();
        let board = &position.board;
        let to_move = position.to_move;
        let needed = |p: Player| {
            let risk = if p == to_move { RISK_IF_TO_MOVE } else { 1.0 };
            pips_to_go(board, p) as f64 + risk * pips_at_risk(board, p) + blocked(board, p)
        };
        let (mine, theirs) = (needed(player), needed(player.other()));
        // Having the roll is worth half a roll; dice still to play this turn replace that roll,
        // bonus dice come on top of it.
        let pips = |dice: &Dice| dice.faces().iter().map(|&d| d as f64).sum::<f64>();
        let tempo = pips(&position.dice)
            + pips(&position.bonus)
            + if position.dice.is_empty() {
                PIPS_PER_TURN
            } else {
                0.0
            }
            - PIPS_PER_TURN / 2.0;
        let lead = theirs - mine + if to_move == player { tempo } else { -tempo };
        let spread = SPREAD * (mine + theirs).max(PIPS_PER_TURN).sqrt();
        (lead / spread).tanh()
    }

    fn settings(&self, _: &Duodecim, level: Level) -> Settings {
        LEVELS[level.number() as usize - 1]
    }
}

/// The pips `player` still has to bring home.
fn pips_to_go(board: &Board, player: Player) -> u32 {
    let on_route: u32 = Step::all()
        .filter_map(|step| match board.stack(step) {
            Some((owner, n)) if owner == player => {
                Some(n as u32 * (FROM_RESERVE - step.get() as u32))
            }
            _ => None,
        })
        .sum();
    on_route + board.reserve(player) as u32 * FROM_RESERVE
}

/// The pips `player` expects to lose to hits on its lone pieces next roll: each lone piece goes
/// back to the reserve with the chance that the opponent's roll reaches it.
fn pips_at_risk(board: &Board, player: Player) -> f64 {
    let lone = board.lone(player);
    if lone == 0 {
        return 0.0;
    }
    let hitter = player.other();
    if board.reserve(hitter) > 0 {
        // Reserve first: the hitter's dice enter, each on its own step, so only single dice reach.
        let hits: [u64; 6] = std::array::from_fn(|i| board.hits(hitter, i as u8 + 1));
        return bits(lone)
            .map(|step| {
                let faces = hits.iter().filter(|&&h| h & (1 << step) != 0).count();
                let missed = (6 - faces) as f64 / 6.0;
                (1.0 - missed * missed * missed) * step as f64
            })
            .sum();
    }
    let (attackers, stops_closed) = (occupied(board, hitter), doubled(board, player));
    bits(lone)
        .map(|step| {
            let hitting: u32 = ROLLS
                .iter()
                .filter(|(faces, _)| reaches(faces, step, attackers, stops_closed))
                .map(|&(_, weight)| weight)
                .sum();
            hitting as f64 / THROWS as f64 * step as f64
        })
        .sum()
}

/// Whether some piece on `attackers` lands on `target` with one, two or all three of `faces`
/// (each a separate move of that piece, in any order), stopping only on steps not `closed`.
/// Combination shots matter as much as direct ones: measured, counting them won 78% of 400 games
/// against the same evaluation without them.
fn reaches(faces: &[u8], target: u8, attackers: u64, closed: u64) -> bool {
    let attacker_at = |from: i32| from >= 1 && attackers & (1 << from) != 0;
    let open = |stop: i32| closed & (1 << stop) == 0;
    let target = target as i32;
    let [a, b, c] = [faces[0], faces[1], faces[2]].map(i32::from);
    let orders = [
        [a, b, c],
        [a, c, b],
        [b, a, c],
        [b, c, a],
        [c, a, b],
        [c, b, a],
    ];
    orders.iter().any(|&[first, second, third]| {
        attacker_at(target - first)
            || (attacker_at(target - first - second) && open(target - second))
            || (attacker_at(target - first - second - third)
                && open(target - second - third)
                && open(target - third))
    })
}

/// The steps where `player` has pieces.
fn occupied(board: &Board, player: Player) -> u64 {
    stacks_of(board, player, 1)
}

/// The steps where `player` has two or more pieces: the opponent may not stop there.
fn doubled(board: &Board, player: Player) -> u64 {
    stacks_of(board, player, 2)
}

fn stacks_of(board: &Board, player: Player, at_least: u8) -> u64 {
    Step::all()
        .filter(|&step| matches!(board.stack(step), Some((owner, n)) if owner == player && n >= at_least))
        .fold(0, |set, step| set | 1 << step.get())
}

/// The set bits of `set`, lowest first.
fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set.trailing_zeros() as u8;
            set &= set - 1;
            bit
        })
    })
}

/// The pips `player` is expected to lose to the opponent's stacks of two or more in its way.
fn blocked(board: &Board, player: Player) -> f64 {
    let blocker = player.other();
    let entering = board.reserve(player) > 0;
    let mut lost = 0.0;
    for step in Step::all() {
        let Some((owner, n)) = board.stack(step) else {
            continue;
        };
        if owner != blocker || n < 2 {
            continue;
        }
        if entering && step.get() <= 6 {
            lost += ENTRY_BLOCK;
        }
        // The pieces within six steps behind the stack are the ones it stands in front of.
        let behind: u32 = (step.get().saturating_sub(6).max(1)..step.get())
            .filter_map(Step::new)
            .filter_map(|s| board.stack(s))
            .filter(|&(owner, _)| owner == player)
            .map(|(_, n)| n as u32)
            .sum();
        lost += BLOCK * behind as f64;
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_engine::duodecim::PIECES;

    #[test]
    fn a_combination_shot_needs_an_open_stop_and_a_direct_shot_none() {
        let at = |steps: &[u8]| steps.iter().fold(0u64, |set, &s| set | 1 << s);
        // From step 4 the 1, 2 and 3 together reach 10, stopping on two of 5–9 in some order.
        assert!(reaches(&[1, 2, 3], 10, at(&[4]), 0));
        assert!(reaches(&[1, 2, 3], 10, at(&[4]), at(&[5, 9])));
        assert!(!reaches(&[1, 2, 3], 10, at(&[4]), at(&[5, 6, 7, 8, 9])));
        // From step 8 the 2 alone hits, whatever stands between.
        assert!(reaches(&[2, 5, 6], 10, at(&[8]), at(&[9])));
        assert!(!reaches(&[2, 5, 6], 10, at(&[11]), 0));
    }

    #[test]
    fn every_piece_starts_thirty_seven_pips_from_home() {
        let board = Board::start();
        assert_eq!(pips_to_go(&board, Player::First), PIECES as u32 * 37);
    }
}
