//! The chance search on a toy dice game, so it is proven before the real dice games arrive.
//!
//! Toy race: each player has two tokens on a track from 0 to 10. A roll throws two dice; the player
//! then plays the dice one at a time (two moves by the same player, like a Duodecim turn), moving
//! one token forward by the die, never past 10. A token on 10 is home; both home wins. A player
//! with no playable die passes, which ends the turn.

use ludus_ai::Level;
use ludus_ai::chance::{self, Evaluate, Settings};
use ludus_engine::{Chance, Game, Outcome, Phase, Player, RollError, Termination};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::fmt;
use std::time::{Duration, Instant};

const HOME: u8 = 10;

#[derive(Clone, Debug)]
struct Race {
    tokens: [[u8; 2]; 2],
    to_move: Player,
    /// The dice still to play this turn; empty while a roll is awaited.
    dice: Vec<u8>,
    winner: Option<Player>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Advance { token: usize, die: u8 },
    Pass,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Advance { token, die } => write!(f, "{token}+{die}"),
            Step::Pass => f.write_str("pass"),
        }
    }
}

#[derive(Debug)]
struct Refused(Step);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: not legal here", self.0)
    }
}

impl std::error::Error for Refused {}

/// Every unordered pair of dice with how many of the 36 throws give it.
const ROLLS: [(&[u8], u32); 21] = {
    const PAIRS: [[u8; 2]; 21] = {
        let mut pairs = [[0; 2]; 21];
        let mut k = 0;
        let mut a = 1;
        while a <= 6 {
            let mut b = a;
            while b <= 6 {
                pairs[k] = [a, b];
                k += 1;
                b += 1;
            }
            a += 1;
        }
        pairs
    };
    let mut rolls: [(&[u8], u32); 21] = [(&[], 0); 21];
    let mut k = 0;
    while k < 21 {
        let weight = if PAIRS[k][0] == PAIRS[k][1] { 1 } else { 2 };
        rolls[k] = (&PAIRS[k], weight);
        k += 1;
    }
    rolls
};

impl Race {
    fn new(first: [u8; 2], second: [u8; 2], to_move: Player, dice: &[u8]) -> Race {
        Race {
            tokens: [first, second],
            to_move,
            dice: dice.to_vec(),
            winner: None,
        }
    }

    fn pips_to_go(&self, player: Player) -> u32 {
        self.tokens[player.index()]
            .iter()
            .map(|&t| (HOME - t) as u32)
            .sum()
    }
}

impl Game for Race {
    type Move = Step;
    type Illegal = Refused;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn phase(&self) -> Phase {
        match self.winner {
            Some(winner) => Phase::Over(Outcome::win(winner, Termination::BorneOff)),
            None if self.dice.is_empty() => Phase::AwaitingRoll,
            None => Phase::AwaitingMove,
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Step>) {
        if self.phase() != Phase::AwaitingMove {
            return;
        }
        let start = moves.len();
        let mut dice = self.dice.clone();
        dice.dedup();
        for &die in &dice {
            for (token, &at) in self.tokens[self.to_move.index()].iter().enumerate() {
                if at < HOME && at + die <= HOME {
                    moves.push(Step::Advance { token, die });
                }
            }
        }
        if moves.len() == start {
            moves.push(Step::Pass);
        }
    }

    fn check(&self, step: Step) -> Result<(), Refused> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&step) {
            Ok(())
        } else {
            Err(Refused(step))
        }
    }

    fn apply(&mut self, step: Step) {
        match step {
            Step::Pass => self.dice.clear(),
            Step::Advance { token, die } => {
                self.tokens[self.to_move.index()][token] += die;
                let used = self.dice.iter().position(|&d| d == die).expect("listed");
                self.dice.remove(used);
                if self.pips_to_go(self.to_move) == 0 {
                    self.winner = Some(self.to_move);
                }
            }
        }
        if self.dice.is_empty() && self.winner.is_none() {
            self.to_move = self.to_move.other();
        }
    }
}

impl Chance for Race {
    const DICE_PER_ROLL: usize = 2;

    fn roll_outcomes(&self) -> &'static [(&'static [u8], u32)] {
        &ROLLS
    }

    fn roll(&mut self, dice: &[u8]) -> Result<(), RollError> {
        if self.phase() != Phase::AwaitingRoll {
            return Err(RollError::NotAwaited);
        }
        self.dice = dice.to_vec();
        Ok(())
    }
}

/// The race's evaluation: the pip lead, squashed into -1..1.
struct PipLead;

impl Evaluate<Race> for PipLead {
    fn evaluate(&self, game: &Race, player: Player) -> f64 {
        let lead = game.pips_to_go(player.other()) as f64 - game.pips_to_go(player) as f64;
        (lead / 8.0).tanh()
    }
}

/// Plain expectimax, written independently of the crate: the reference Star1 must agree with.
fn reference(game: &Race, root: Player, depth: u32) -> f64 {
    match game.phase() {
        Phase::Over(outcome) => {
            if outcome.winner == Some(root) {
                1.0
            } else {
                -1.0
            }
        }
        Phase::AwaitingRoll if depth == 0 => PipLead.evaluate(game, root),
        Phase::AwaitingRoll => {
            let total: u32 = ROLLS.iter().map(|r| r.1).sum();
            ROLLS
                .iter()
                .map(|&(dice, weight)| {
                    let mut child = game.clone();
                    child.roll(dice).expect("awaited");
                    weight as f64 / total as f64 * reference(&child, root, depth - 1)
                })
                .sum()
        }
        Phase::AwaitingMove => {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let values = moves.iter().map(|&mv| {
                let mut child = game.clone();
                child.play(mv).expect("legal");
                reference(&child, root, depth)
            });
            if game.to_move() == root {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
    }
}

fn far() -> Instant {
    Instant::now() + Duration::from_secs(3600)
}

/// Random positions awaiting a move, reached by random play from random token placements.
fn random_positions(count: usize, seed: u64) -> Vec<Race> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut token = || rng.random_range(0..HOME);
        let (first, second) = ([token(), token()], [token(), token()]);
        let roll = ROLLS.choose(&mut rng).expect("rolls").0;
        let mut game = Race::new(first, second, Player::First, roll);
        let mut moves = Vec::new();
        for _ in 0..rng.random_range(0..6) {
            match game.phase() {
                Phase::AwaitingMove => {
                    moves.clear();
                    game.legal_moves(&mut moves);
                    game.play(*moves.choose(&mut rng).expect("a move"))
                        .expect("legal");
                }
                Phase::AwaitingRoll => {
                    let roll = ROLLS.choose(&mut rng).expect("rolls").0;
                    game.roll(roll).expect("awaited");
                }
                Phase::Over(_) => break,
            }
        }
        if game.phase() == Phase::AwaitingMove {
            positions.push(game);
        }
    }
    positions
}

#[test]
fn the_whole_turn_is_searched_so_the_winning_order_of_dice_is_found() {
    // Tokens on 5 and 8 with a 2 and a 5: 8+2 then 5+5 brings both home. Playing the 2 on the
    // token on 5 first leaves the 5 unplayable.
    let game = Race::new([5, 8], [0, 0], Player::First, &[2, 5]);
    for level in Level::ALL[2..].iter().copied() {
        let mv = chance::choose_move(&game, &PipLead, level, 3, far()).expect("a move");
        assert!(
            matches!(
                mv,
                Step::Advance { token: 1, die: 2 } | Step::Advance { token: 0, die: 5 }
            ),
            "{level} played {mv}"
        );
    }
}

#[test]
fn the_move_that_best_raises_the_odds_of_finishing_next_turn_is_preferred() {
    // One 3 left to play, tokens on 7 and 4: both moves leave 6 pips, but 7+3 needs a 6 or two
    // dice making 6 next turn (16 throws in 36), while 4+3 needs a 3 for each token (1 in 36) and
    // wastes every higher die. Only a search that looks past the opponent's turn sees it.
    let game = Race::new([7, 4], [0, 0], Player::First, &[3]);
    for level in Level::ALL[3..].iter().copied() {
        let mv = chance::choose_move(&game, &PipLead, level, 5, far()).expect("a move");
        assert_eq!(mv, Step::Advance { token: 0, die: 3 }, "{level}");
    }
}

#[test]
fn star1_pruning_gives_the_values_of_plain_expectimax() {
    for game in random_positions(30, 17) {
        for depth in 0..=1 {
            let pruned = chance::value(&game, &PipLead, depth).expect("a move is awaited");
            let plain = reference(&game, game.to_move(), depth);
            assert!(
                (pruned - plain).abs() < 1e-9,
                "{game:?} at depth {depth}: {pruned} against {plain}"
            );
        }
    }
}

#[test]
fn the_chance_search_only_ever_plays_legal_moves() {
    for (i, game) in random_positions(200, 23).into_iter().enumerate() {
        let level = Level::ALL[i % 5];
        let settings = Settings {
            max_depth: 1,
            ..Settings::for_level(level)
        };
        let mv = chance::decide(&game, &PipLead, settings, i as u64, far()).expect("a move");
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        assert!(legal.contains(&mv), "{mv} in {game:?}");
    }
}

#[test]
fn no_move_is_chosen_while_a_roll_is_awaited() {
    let game = Race::new([0, 0], [0, 0], Player::First, &[]);
    assert_eq!(game.phase(), Phase::AwaitingRoll);
    assert_eq!(
        chance::choose_move(&game, &PipLead, Level::MAX, 1, far()),
        None
    );
}
