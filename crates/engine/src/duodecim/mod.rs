//! Duodecim Scripta (docs/RULES.md §3): fifteen pieces a side run one 36-step route with three dice,
//! entering from reserve, hitting lone pieces and bearing off from the exit table.
//!
//! A turn is a roll event, then one single move per die until the dice of a maximal sequence are
//! played; dice left unplayable become the opponent's bonus dice, which it plays or declines before
//! its own roll. The legal first moves are computed once per state and kept as one set of origins
//! per die face, so listing and checking moves never search again.

mod board;
mod faces;
mod notation;
mod sequences;

pub use board::{Board, Cell, EXIT_TABLE, PIECES, ROUTE_LEN, Row, Step};
pub use faces::Face;
pub use notation::MoveText;
pub use sequences::{Dice, ROLLS, THROWS};

use crate::bitset::RankedBits;
use crate::game::{Chance, Game, Odds, Outcome, Phase, Termination, Threat, Threats};
use crate::notation::NotationError;
use crate::{Player, RollError};
use std::fmt;

/// Single moves (declines included) after which the game is drawn: a safety cap, not a historical
/// rule.
pub const MOVE_LIMIT: u32 = 5_000;

/// Where a moving piece comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    Reserve,
    Route(Step),
}

impl Origin {
    /// Bit 0 for the reserve, bit s for step s: the encoding of the origin sets.
    fn index(self) -> u8 {
        match self {
            Origin::Reserve => 0,
            Origin::Route(step) => step.get(),
        }
    }

    #[inline]
    fn from_index(index: u8) -> Origin {
        Step::new(index).map_or(Origin::Reserve, Origin::Route)
    }
}

/// Where a moving piece ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Landing {
    Route(Step),
    Off,
}

/// One single move: a die and the piece it moves (the destination follows), or the decline of the
/// remaining bonus dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play { die: u8, from: Origin },
    Decline,
}

impl Move {
    /// Where the piece lands: entering on step `die`, or `die` steps on, or off the board.
    pub fn landing(die: u8, from: Origin) -> Landing {
        let at = match from {
            Origin::Reserve => 0,
            Origin::Route(step) => step.get(),
        };
        Step::new(at + die).map_or(Landing::Off, Landing::Route)
    }
}

/// A position as its notation states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub to_move: Player,
    /// The dice of this turn still to play, in the order rolled (empty before the roll).
    pub dice: Dice,
    /// The opponent's unplayable dice that the side to move may play before rolling.
    pub bonus: Dice,
}

impl Position {
    pub fn start(first: Player) -> Position {
        Position {
            board: Board::start(),
            to_move: first,
            dice: Dice::NONE,
            bonus: Dice::NONE,
        }
    }
}

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    GameOver,
    NotRolled,
    NoSuchDie(u8),
    NoBonus,
    EmptyReserve,
    ReserveFirst,
    Empty(Cell),
    NotYours(Cell),
    Blocked(Cell),
    NotHome,
    NotMaximal,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::GameOver => write!(f, "the game is over"),
            Reason::NotRolled => write!(f, "the dice have not been rolled"),
            Reason::NoSuchDie(die) => write!(f, "no {die} is left to play"),
            Reason::NoBonus => write!(f, "there are no bonus dice to decline"),
            Reason::EmptyReserve => write!(f, "no piece is in reserve"),
            Reason::ReserveFirst => {
                write!(f, "a piece in reserve must enter before any other moves")
            }
            Reason::Empty(cell) => write!(f, "{cell} is empty"),
            Reason::NotYours(cell) => write!(f, "{cell} holds the opponent's pieces"),
            Reason::Blocked(cell) => write!(f, "{cell} holds two or more enemy pieces"),
            Reason::NotHome => write!(
                f,
                "bearing off needs every piece on B7–B12 and none in reserve"
            ),
            Reason::NotMaximal => write!(
                f,
                "it begins no sequence that plays as many dice as possible, then the most pips"
            ),
        }
    }
}

/// A refused move: which one and why ("4:R-M4: M4 holds two or more enemy pieces").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv}: {reason}")]
pub struct Illegal {
    pub mv: Move,
    pub reason: Reason,
}

/// A game of Duodecim Scripta in progress.
#[derive(Clone, Debug)]
pub struct Duodecim {
    position: Position,
    /// Single moves played since the game (or the position it was read from) began.
    moves_played: u32,
    outcome: Option<Outcome>,
    /// The legal die moves of this state: per face (index face − 1) a set of origins.
    allowed: [u64; 6],
}

impl Duodecim {
    /// A new game, `first` to roll.
    pub fn new(first: Player) -> Duodecim {
        Duodecim::from_position(Position::start(first))
    }

    /// Starts from a position. Pending dice none of which can be played end the turn at once, as
    /// they would have during play: they become the opponent's bonus dice.
    pub fn from_position(position: Position) -> Duodecim {
        let mut game = Duodecim {
            position,
            moves_played: 0,
            outcome: None,
            allowed: [0; 6],
        };
        game.outcome = Player::BOTH
            .into_iter()
            .find(|&p| position.board.borne_off(p))
            .map(|p| Outcome::win(p, Termination::BorneOff));
        game.settle();
        game
    }

    pub fn parse(text: &str) -> Result<Duodecim, NotationError> {
        Position::parse(text).map(Duodecim::from_position)
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The dice that the side to move may play now: its bonus dice before its roll, else its roll.
    pub fn pending(&self) -> Dice {
        if self.position.bonus.is_empty() {
            self.position.dice
        } else {
            self.position.bonus
        }
    }

    /// The bonus dice remain but none of them can be played: declining is the only move.
    pub fn must_decline(&self) -> bool {
        self.outcome.is_none()
            && !self.position.bonus.is_empty()
            && self.allowed.iter().all(|&o| o == 0)
    }

    /// Computes the legal moves of the state, ending the turn when no pending die can be played.
    fn settle(&mut self) {
        self.allowed = [0; 6];
        if self.outcome.is_some() {
            return;
        }
        let position = &mut self.position;
        if !position.bonus.is_empty() {
            self.allowed =
                sequences::single_moves(&position.board, position.to_move, position.bonus);
            return;
        }
        if position.dice.is_empty() {
            return;
        }
        self.allowed =
            sequences::maximal_first_moves(&position.board, position.to_move, position.dice);
        if self.allowed.iter().all(|&o| o == 0) {
            // The turn ends: the dice left unplayed go to the opponent, never to come back.
            position.bonus = position.dice;
            position.dice = Dice::NONE;
            position.to_move = position.to_move.other();
            self.allowed =
                sequences::single_moves(&position.board, position.to_move, position.bonus);
        }
    }

    /// The rule `mv` breaks here, if any.
    fn check_reason(&self, mv: Move) -> Result<(), Reason> {
        if self.outcome.is_some() {
            return Err(Reason::GameOver);
        }
        let position = &self.position;
        let (die, from) = match mv {
            Move::Decline if position.bonus.is_empty() => return Err(Reason::NoBonus),
            Move::Decline => return Ok(()),
            Move::Play { die, from } => (die, from),
        };
        let pending = self.pending();
        if pending.is_empty() {
            return Err(Reason::NotRolled);
        }
        if !pending.contains(die) {
            return Err(Reason::NoSuchDie(die));
        }
        if self.allowed[die as usize - 1] & (1 << from.index()) != 0 {
            return Ok(());
        }
        let board = &position.board;
        let me = position.to_move;
        match from {
            Origin::Reserve if board.reserve(me) == 0 => return Err(Reason::EmptyReserve),
            Origin::Route(_) if board.reserve(me) > 0 => return Err(Reason::ReserveFirst),
            Origin::Route(step) => match board.stack(step) {
                None => return Err(Reason::Empty(step.cell())),
                Some((owner, _)) if owner != me => return Err(Reason::NotYours(step.cell())),
                Some(_) => {}
            },
            Origin::Reserve => {}
        }
        match Move::landing(die, from) {
            Landing::Route(to) => match board.stack(to) {
                Some((owner, n)) if owner != me && n >= 2 => Err(Reason::Blocked(to.cell())),
                _ => Err(Reason::NotMaximal),
            },
            Landing::Off if !board.may_bear_off(me) => Err(Reason::NotHome),
            Landing::Off => Err(Reason::NotMaximal),
        }
    }

    /// Reads a move in lenient notation (the die may be left out where one pending die fits) and
    /// checks it.
    pub fn parse_move(&self, text: &str) -> Result<Result<Move, Illegal>, NotationError> {
        let mv = MoveText::parse(text)?.resolve(self.pending())?;
        Ok(self.check(mv).map(|()| mv))
    }

    /// Each lone piece of `player` that the opponent could hit on its next turn, rolled from this
    /// board (its bonus dice left aside), with the number of the 216 throws that hit it.
    pub fn threatened(&self, player: Player) -> Vec<(Step, Odds)> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let odds = sequences::hit_odds(&self.position.board, player);
        Step::all()
            .filter(|step| odds[step.get() as usize] > 0)
            .map(|step| {
                let hits = odds[step.get() as usize];
                (step, Odds { hits, of: THROWS })
            })
            .collect()
    }

    /// Both players' threatened pieces, as [`crate::AnyGame::threats`] gives them.
    pub fn threats(&self) -> Threats {
        Player::BOTH.map(|player| {
            self.threatened(player)
                .into_iter()
                .map(|(step, odds)| Threat {
                    place: step.to_string(),
                    odds: Some(odds),
                })
                .collect()
        })
    }
}

impl Game for Duodecim {
    type Move = Move;
    type Illegal = Illegal;

    fn to_move(&self) -> Player {
        self.position.to_move
    }

    fn phase(&self) -> Phase {
        match self.outcome {
            Some(outcome) => Phase::Over(outcome),
            None if self.pending().is_empty() => Phase::AwaitingRoll,
            None => Phase::AwaitingMove,
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let count: u32 = self.allowed.iter().map(|o| o.count_ones()).sum();
        moves.reserve(count as usize + 1);
        for (face, &origins) in (1u8..).zip(&self.allowed) {
            let mut set = origins;
            while set != 0 {
                let index = set.trailing_zeros() as u8;
                set &= set - 1;
                moves.push(Move::Play {
                    die: face,
                    from: Origin::from_index(index),
                });
            }
        }
        if !self.position.bonus.is_empty() {
            moves.push(Move::Decline);
        }
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        self.check_reason(mv)
            .map_err(|reason| Illegal { mv, reason })
    }

    fn apply(&mut self, mv: Move) {
        let position = &mut self.position;
        let me = position.to_move;
        self.moves_played += 1;
        match mv {
            Move::Decline => position.bonus = Dice::NONE,
            Move::Play { die, from } => {
                position.board.apply(me, die, from.index());
                if position.bonus.is_empty() {
                    position.dice = position.dice.without(die);
                    if position.dice.is_empty() {
                        position.to_move = me.other();
                    }
                } else {
                    position.bonus = position.bonus.without(die);
                }
                if position.board.borne_off(me) {
                    // The game ends here; the position shows the winner as the side that just
                    // moved, and no dice are left to anyone.
                    position.dice = Dice::NONE;
                    position.bonus = Dice::NONE;
                    position.to_move = me.other();
                    self.outcome = Some(Outcome::win(me, Termination::BorneOff));
                }
            }
        }
        if self.outcome.is_none() && self.moves_played >= MOVE_LIMIT {
            self.outcome = Some(Outcome::draw(Termination::MoveLimit));
        }
        self.settle();
    }

    /// Counts the origin sets computed for this state; nothing is listed. At most three faces
    /// have origins, so only those are counted (without the `popcnt` instruction, which the
    /// baseline x86-64 target lacks, each count costs a dozen instructions), and the picked one is
    /// not counted again to find its member.
    fn pick_legal_move(&self, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let mut ranked_origins = [RankedBits::EMPTY; 6];
        let mut plays = 0;
        for (ranked, &origins) in ranked_origins.iter_mut().zip(&self.allowed) {
            if origins != 0 {
                *ranked = RankedBits::new(origins);
                plays += ranked.len();
            }
        }
        let decline = u32::from(!self.position.bonus.is_empty());
        if plays + decline == 0 {
            return None;
        }
        let mut index = pick((plays + decline) as usize) as u32;
        for (face, origins) in (1u8..).zip(ranked_origins) {
            if index < origins.len() {
                return Some(Move::Play {
                    die: face,
                    from: Origin::from_index(origins.nth(index) as u8),
                });
            }
            index -= origins.len();
        }
        Some(Move::Decline)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Chance for Duodecim {
    const DICE_PER_ROLL: usize = 3;

    fn roll_outcomes(&self) -> &'static [(&'static [u8], u32)] {
        &ROLLS
    }

    fn roll(&mut self, dice: &[u8]) -> Result<(), RollError> {
        if self.phase() != Phase::AwaitingRoll {
            return Err(RollError::NotAwaited);
        }
        if dice.len() != Self::DICE_PER_ROLL {
            return Err(RollError::WrongCount {
                expected: Self::DICE_PER_ROLL,
                given: dice.len(),
            });
        }
        if let Some(&face) = dice.iter().find(|d| !(1..=6).contains(*d)) {
            return Err(RollError::BadFace(face));
        }
        self.position.dice = Dice::new(dice).expect("three faces 1–6");
        self.settle();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
