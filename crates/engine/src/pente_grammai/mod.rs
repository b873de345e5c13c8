//! Pente Grammai (docs/RULES.md §2): one ten-point board, one route, one die, and three rule sets —
//! Schädler's playable suggestion, Kidd's possible reconstruction and Perimeter Line Battle — as
//! parameters of one game type, because they share the board, the turn and the notation and differ
//! only in where a counter may land and what happens after it lands.
//!
//! The die is an explicit roll event: the game awaits a roll, then a move written with that die.
//! A pass is a move too, listed only when the rules allow it. Nothing here draws a random number.

mod board;
mod notation;
mod rules;
mod threats;

pub use board::{Board, COUNTERS, Line, Lines, POINTS, Point, Points, corner, goal, home, is_home};
pub use notation::MoveText;

use crate::game::{Chance, Game, Outcome, Phase, Termination};
use crate::notation::NotationError;
use crate::{Player, RollError, Variant};
use std::fmt;

/// Plies without a winner after which the game is drawn. A safety cap of this engine, not part of
/// any historical or reconstructed rule (the UI says so).
pub const MOVE_LIMIT: u32 = 2_000;

/// The three rule sets played on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// `pente-grammai-schaedler`: a race to the own sacred endpoint, one counter a point.
    Schaedler,
    /// `pente-grammai-kidd`: enter from reserve, hit blots, build yokes, gather on the holy line.
    Kidd,
    /// `pente-grammai-perimeter`: formations threaten, pin and remove; win by exchange of sides.
    Perimeter,
}

impl Rules {
    pub fn variant(self) -> Variant {
        match self {
            Rules::Schaedler => Variant::PenteGrammaiSchaedler,
            Rules::Kidd => Variant::PenteGrammaiKidd,
            Rules::Perimeter => Variant::PenteGrammaiPerimeter,
        }
    }

    pub fn from_variant(variant: Variant) -> Option<Rules> {
        match variant {
            Variant::PenteGrammaiSchaedler => Some(Rules::Schaedler),
            Variant::PenteGrammaiKidd => Some(Rules::Kidd),
            Variant::PenteGrammaiPerimeter => Some(Rules::Perimeter),
            _ => None,
        }
    }

    /// The name people know the rule set by, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Schaedler => "Schädler's rules",
            Rules::Kidd => "Kidd's rules",
            Rules::Perimeter => "Perimeter Line Battle",
        }
    }
}

/// Where a counter comes from: a point of the route, or one of the zones off it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    Point(Point),
    /// Kidd: a counter not yet entered, or hit.
    Reserve,
    /// Kidd: a gathered counter, leaving the holy line from its goal point.
    HolyLine,
    /// Perimeter: a counter removed by an unanswered threat.
    Removed,
}

/// What a turn does with the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Move, enter or re-enter one counter onto `to`.
    Go {
        from: Origin,
        to: Point,
    },
    Pass,
}

/// A move, with the die it was rolled for (`5:2-7`, `4:R-0`, `5:pass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub die: u8,
    pub action: Action,
}

/// The name of a player's side in messages.
pub fn side_name(player: Player) -> &'static str {
    match player {
        Player::First => "Terracotta",
        Player::Second => "Black",
    }
}

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    GameOver,
    /// The die has not been rolled yet.
    NotRolled,
    /// The move is written with another die than the one rolled.
    WrongDie {
        rolled: u8,
    },
    /// The zone does not exist in these rules (a reserve in Schädler's, say).
    NoSuchZone {
        rules: Rules,
        from: Origin,
    },
    /// The player has no counter where the move starts.
    NoCounter {
        player: Player,
        from: Origin,
    },
    /// Kidd: a gathered counter written as leaving its goal point rather than the holy line.
    OnHolyLine {
        goal: Point,
        to: Point,
    },
    /// The die does not take the counter to the point written.
    WrongDistance {
        die: u8,
        from: Origin,
        reaches: Point,
    },
    /// Kidd: reserve counters enter on the own corner only.
    NotTheCorner {
        corner: Point,
    },
    /// Perimeter: removed counters re-enter on the own setup points only.
    NotHome {
        player: Player,
        to: Point,
    },
    /// Schädler: an ordinary point holds one counter.
    Occupied(Point),
    /// Kidd: two or more enemy counters block the point.
    Yoke {
        point: Point,
        enemies: u8,
    },
    /// Perimeter: the counter stands on a line threatened against its player.
    Pinned {
        point: Point,
        line: Line,
    },
    /// A pass while another move is legal (Kidd: while a move off the holy line is not the only one).
    MustMove {
        rules: Rules,
        example: Move,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::GameOver => write!(f, "the game is over"),
            Reason::NotRolled => write!(f, "the die has not been rolled yet"),
            Reason::WrongDie { rolled } => write!(f, "the die rolled is {rolled}"),
            Reason::NoSuchZone { rules, from } => {
                write!(f, "{} have no {}", rules.name(), zone_name(*from))
            }
            Reason::NoCounter { player, from } => match from {
                Origin::Point(p) => write!(f, "{p} holds no {} counter", side_name(*player)),
                _ => write!(
                    f,
                    "{} has no counter {}",
                    side_name(*player),
                    zone_place(*from)
                ),
            },
            Reason::OnHolyLine { goal, to } => write!(
                f,
                "the counters gathered on {goal} are on the holy line: write H-{to}"
            ),
            Reason::WrongDistance { die, from, reaches } => {
                write!(
                    f,
                    "a {die} takes a counter {} to {reaches}",
                    origin_phrase(*from)
                )
            }
            Reason::NotTheCorner { corner } => {
                write!(f, "a counter enters on the own starting corner, {corner}")
            }
            Reason::NotHome { player, to } => write!(
                f,
                "{to} is not a setup point of {}: removed counters re-enter on {}",
                side_name(*player),
                if *player == Player::First {
                    "0–4"
                } else {
                    "5–9"
                }
            ),
            Reason::Occupied(p) => write!(
                f,
                "{p} is occupied, and only the sacred endpoints 2 and 7 hold more than one counter"
            ),
            Reason::Yoke { point, enemies } => {
                write!(f, "{point} holds {enemies} enemy counters, which block it")
            }
            Reason::Pinned { point, line } => {
                write!(
                    f,
                    "the counters on {point} are pinned: {line} is threatened"
                )
            }
            Reason::MustMove { rules, example } => match rules {
                Rules::Kidd => write!(
                    f,
                    "a pass is allowed only when nothing but moves off the holy line is legal ({example} is)"
                ),
                _ => write!(
                    f,
                    "a pass is allowed only when no move is legal ({example} is)"
                ),
            },
        }
    }
}

fn zone_name(from: Origin) -> &'static str {
    match from {
        Origin::Point(_) => "point",
        Origin::Reserve => "reserve (R)",
        Origin::HolyLine => "holy line (H)",
        Origin::Removed => "removed counters (X)",
    }
}

fn zone_place(from: Origin) -> &'static str {
    match from {
        Origin::Point(_) => "there",
        Origin::Reserve => "in reserve",
        Origin::HolyLine => "on the holy line",
        Origin::Removed => "removed",
    }
}

fn origin_phrase(from: Origin) -> String {
    match from {
        Origin::Point(p) => format!("from {p}"),
        Origin::HolyLine => "off the holy line".to_string(),
        other => zone_place(other).to_string(),
    }
}

/// A refused move: which one and why ("3:4-5: 5 is occupied, …").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv}: {reason}")]
pub struct Illegal {
    pub mv: MoveText,
    pub reason: Reason,
}

/// A position as its notation states it: the counters everywhere and the side to move. A pending
/// threat (Perimeter) follows from the board and the side to move, and is kept with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub rules: Rules,
    pub board: Board,
    pub to_move: Player,
    /// Kidd: counters not on the route yet (or hit back), per player.
    pub reserve: [u8; 2],
    /// Kidd: counters gathered on the holy line, per player.
    pub holy: [u8; 2],
    /// Perimeter: counters removed by threats, per player.
    pub removed: [u8; 2],
    /// Perimeter: the lines threatened against the side to move, whose counters there are pinned.
    pub threatened: Lines,
}

impl Position {
    pub fn start(rules: Rules, first: Player) -> Position {
        let (board, reserve) = match rules {
            Rules::Kidd => (Board::default(), [COUNTERS; 2]),
            Rules::Schaedler | Rules::Perimeter => (Board::own_sides(), [0; 2]),
        };
        Position {
            rules,
            board,
            to_move: first,
            reserve,
            holy: [0; 2],
            removed: [0; 2],
            threatened: Lines::NONE,
        }
    }
}

/// The roll outcomes of one die, each face once.
const ROLLS: [(&[u8], u32); 6] = [
    (&[1], 1),
    (&[2], 1),
    (&[3], 1),
    (&[4], 1),
    (&[5], 1),
    (&[6], 1),
];

/// A game of Pente Grammai in progress, under one of the three rule sets.
#[derive(Clone, Debug)]
pub struct PenteGrammai {
    position: Position,
    /// The die rolled for the current turn, `None` while the roll is awaited.
    die: Option<u8>,
    /// Plies played in this game object, for the safety cap.
    plies: u32,
    outcome: Option<Outcome>,
}

impl PenteGrammai {
    pub fn new(rules: Rules, first: Player) -> PenteGrammai {
        PenteGrammai::from_position(Position::start(rules, first))
    }

    /// Starts from a position given alone, awaiting the roll; it is judged as if the side not to
    /// move had just moved. Its ply count starts at zero (the notation has none).
    pub fn from_position(position: Position) -> PenteGrammai {
        let outcome = [position.to_move.other(), position.to_move]
            .into_iter()
            .find_map(|player| {
                position
                    .winning_termination(player)
                    .map(|t| Outcome::win(player, t))
            });
        PenteGrammai {
            position,
            die: None,
            plies: 0,
            outcome,
        }
    }

    pub fn parse(rules: Rules, text: &str) -> Result<PenteGrammai, NotationError> {
        Position::parse(rules, text).map(PenteGrammai::from_position)
    }

    pub fn rules(&self) -> Rules {
        self.position.rules
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The die rolled for the current turn, while a move is awaited.
    pub fn die(&self) -> Option<u8> {
        self.die
    }

    /// Reads a move in lenient notation (the die may be omitted) and checks it.
    pub fn parse_move(&self, text: &str) -> Result<Result<Move, Illegal>, NotationError> {
        let written = MoveText::parse(text)?;
        let die = match (written.die, self.die) {
            (Some(die), _) | (None, Some(die)) => die,
            (None, None) => {
                let reason = if self.outcome.is_some() {
                    Reason::GameOver
                } else {
                    Reason::NotRolled
                };
                return Ok(Err(Illegal {
                    mv: written,
                    reason,
                }));
            }
        };
        let mv = Move {
            die,
            action: written.action,
        };
        Ok(self
            .check_reason(mv)
            .map(|()| mv)
            .map_err(|reason| Illegal {
                mv: written,
                reason,
            }))
    }

    /// The rule `mv` breaks here, if any.
    fn check_reason(&self, mv: Move) -> Result<(), Reason> {
        if self.outcome.is_some() {
            return Err(Reason::GameOver);
        }
        match self.die {
            None => Err(Reason::NotRolled),
            Some(rolled) if rolled != mv.die => Err(Reason::WrongDie { rolled }),
            Some(_) => self.position.check(mv),
        }
    }

    /// Each counter of `player` that the opponent's next move could threaten, where it stands
    /// (see `threats.rs` for what "threatened" means in each rule set).
    pub fn threatened(&self, player: Player) -> Vec<crate::Threat> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.threatened_counters(player)
    }
}

impl Game for PenteGrammai {
    type Move = Move;
    type Illegal = Illegal;

    fn to_move(&self) -> Player {
        self.position.to_move
    }

    fn phase(&self) -> Phase {
        match (self.outcome, self.die) {
            (Some(outcome), _) => Phase::Over(outcome),
            (None, None) => Phase::AwaitingRoll,
            (None, Some(_)) => Phase::AwaitingMove,
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if let (None, Some(die)) = (self.outcome, self.die) {
            self.position.legal_moves(die, moves);
        }
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        self.check_reason(mv).map_err(|reason| Illegal {
            mv: mv.into(),
            reason,
        })
    }

    /// The die is spent and the game judged.
    fn apply(&mut self, mv: Move) {
        let mover = self.position.to_move;
        let won = self.position.apply(mv);
        self.die = None;
        self.plies += 1;
        // Written only when the game ends (a move is only played in a game still going): see
        // Petteia's `apply` for what writing `None` back every ply cost a playout.
        debug_assert!(self.outcome.is_none(), "a move played in a finished game");
        let outcome = match won {
            Some(termination) => Some(Outcome::win(mover, termination)),
            None if self.plies >= MOVE_LIMIT => Some(Outcome::draw(Termination::MoveLimit)),
            None => None,
        };
        if outcome.is_some() {
            self.outcome = outcome;
        }
    }

    fn pick_legal_move(&self, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
        match (self.outcome, self.die) {
            (None, Some(die)) => Some(self.position.pick_legal_move(die, pick)),
            _ => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Chance for PenteGrammai {
    const DICE_PER_ROLL: usize = 1;

    fn roll_outcomes(&self) -> &'static [(&'static [u8], u32)] {
        &ROLLS
    }

    fn roll(&mut self, dice: &[u8]) -> Result<(), RollError> {
        let &[die] = dice else {
            return Err(RollError::WrongCount {
                expected: 1,
                given: dice.len(),
            });
        };
        if !(1..=6).contains(&die) {
            return Err(RollError::BadFace(die));
        }
        if self.outcome.is_some() || self.die.is_some() {
            return Err(RollError::NotAwaited);
        }
        self.die = Some(die);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
