//! The one enum the server, the command line and the tools use for every variant: moves, positions
//! and dice as text at the edge, the typed games inside. Matching on an enum keeps each game's
//! types concrete (no `Box<dyn>`), and adding a game is adding an arm.

use crate::duodecim::{self, Duodecim};
use crate::game::{Chance, Game, Outcome, Phase, Threat, Threats, collect};
use crate::notation::NotationError;
use crate::pente_grammai::{self, PenteGrammai, Rules};
use crate::petteia::{self, Petteia, Size};
use crate::{Player, Variant};
use std::fmt;

/// A game of any variant.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Petteia(Petteia),
    PenteGrammai(PenteGrammai),
    Duodecim(Duodecim),
}

/// A move of any variant; `Display` gives its canonical notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyMove {
    Petteia(petteia::Move),
    PenteGrammai(pente_grammai::Move),
    Duodecim(duodecim::Move),
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Petteia(mv) => mv.fmt(f),
            AnyMove::PenteGrammai(mv) => mv.fmt(f),
            AnyMove::Duodecim(mv) => mv.fmt(f),
        }
    }
}

impl AnyMove {
    /// Appends the move's notation to `text`, as `Display` writes it, without formatting where
    /// the game writes it directly ([`Game::push_notation`]).
    pub fn push_notation(self, text: &mut String) {
        match self {
            AnyMove::Petteia(mv) => Petteia::push_notation(mv, text),
            AnyMove::PenteGrammai(mv) => PenteGrammai::push_notation(mv, text),
            AnyMove::Duodecim(mv) => Duodecim::push_notation(mv, text),
        }
    }

    /// The move's notation (`to_string`, written as `push_notation` writes it).
    pub fn notation(self) -> String {
        let mut text = String::with_capacity(16);
        self.push_notation(&mut text);
        text
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{0}")]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Roll(#[from] RollError),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in the variant's notation.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A well-formed move that the rules refuse here.
    #[error("{notation}: {reason}")]
    Illegal { notation: String, reason: String },
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RollError {
    #[error("{0} is played without dice")]
    NoDice(Variant),
    #[error("a roll throws {expected} dice, not {given}")]
    WrongCount { expected: usize, given: usize },
    #[error("a die shows 1 to 6, not {0}")]
    BadFace(u8),
    #[error("no roll is awaited now")]
    NotAwaited,
    /// Perft met more rolls along a path than the dice given cover.
    #[error("the tree needs more rolls than the {given} dice given")]
    TooFewDice { given: usize },
}

impl AnyGame {
    /// A new game at the variant's start, `first` to move.
    pub fn new(variant: Variant, first: Player) -> AnyGame {
        match variant {
            Variant::Petteia6 | Variant::Petteia8 => {
                let size = if variant == Variant::Petteia6 {
                    Size::Six
                } else {
                    Size::Eight
                };
                let mut start = petteia::Position::start(size);
                if first == Player::Second {
                    start = petteia::Position::new(start.board, first, 0, 1);
                }
                AnyGame::Petteia(Petteia::from_position(start))
            }
            Variant::PenteGrammaiSchaedler
            | Variant::PenteGrammaiKidd
            | Variant::PenteGrammaiPerimeter => {
                let rules = Rules::from_variant(variant).expect("a Pente Grammai variant");
                AnyGame::PenteGrammai(PenteGrammai::new(rules, first))
            }
            Variant::DuodecimScripta => AnyGame::Duodecim(Duodecim::new(first)),
        }
    }

    /// Reads a position of `variant`; `dice`, where given, is the roll it awaits (Duodecim's
    /// notation carries the dice of a turn already rolled, so there `dice` rolls for a position
    /// awaiting its roll).
    pub fn from_position(
        variant: Variant,
        text: &str,
        dice: Option<&[u8]>,
    ) -> Result<AnyGame, PositionError> {
        let mut game = match variant {
            Variant::Petteia6 | Variant::Petteia8 => {
                let game = Petteia::parse(text)?;
                let expected = if variant == Variant::Petteia6 {
                    Size::Six
                } else {
                    Size::Eight
                };
                if game.size() != expected {
                    let n = expected.n();
                    return Err(NotationError::new(format!(
                        "a {variant} position has {n} ranks of {n} squares; this one has {}",
                        game.size().n()
                    ))
                    .into());
                }
                AnyGame::Petteia(game)
            }
            Variant::PenteGrammaiSchaedler
            | Variant::PenteGrammaiKidd
            | Variant::PenteGrammaiPerimeter => {
                let rules = Rules::from_variant(variant).expect("a Pente Grammai variant");
                AnyGame::PenteGrammai(PenteGrammai::parse(rules, text)?)
            }
            Variant::DuodecimScripta => AnyGame::Duodecim(Duodecim::parse(text)?),
        };
        match dice {
            // A finished position awaits no roll: a die given with it is checked, then unused.
            Some(dice) if game.outcome().is_some() && variant.dice_per_roll() > 0 => {
                game.check_roll(dice)?;
            }
            Some(dice) => game.roll(dice)?,
            None => {}
        }
        Ok(game)
    }

    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Petteia(game) if game.size() == Size::Six => Variant::Petteia6,
            AnyGame::Petteia(_) => Variant::Petteia8,
            AnyGame::PenteGrammai(game) => game.rules().variant(),
            AnyGame::Duodecim(_) => Variant::DuodecimScripta,
        }
    }

    /// The position in canonical notation.
    pub fn position(&self) -> String {
        // Sized for any variant's position at once, rather than grown as it is written.
        fn text(position: impl fmt::Display) -> String {
            use std::fmt::Write;
            let mut text = String::with_capacity(96);
            write!(text, "{position}").expect("a String takes any text");
            text
        }
        match self {
            AnyGame::Petteia(game) => {
                let mut text = String::with_capacity(96);
                game.position().push_notation(&mut text);
                text
            }
            AnyGame::PenteGrammai(game) => text(game.position()),
            AnyGame::Duodecim(game) => text(game.position()),
        }
    }

    pub fn to_move(&self) -> Player {
        match self {
            AnyGame::Petteia(game) => game.to_move(),
            AnyGame::PenteGrammai(game) => game.to_move(),
            AnyGame::Duodecim(game) => game.to_move(),
        }
    }

    pub fn phase(&self) -> Phase {
        match self {
            AnyGame::Petteia(game) => game.phase(),
            AnyGame::PenteGrammai(game) => game.phase(),
            AnyGame::Duodecim(game) => game.phase(),
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase() {
            Phase::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// The legal moves, in the order of their canonical notation.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        let mut moves: Vec<AnyMove> = match self {
            AnyGame::Petteia(game) => collect(game).into_iter().map(AnyMove::Petteia).collect(),
            AnyGame::PenteGrammai(game) => collect(game)
                .into_iter()
                .map(AnyMove::PenteGrammai)
                .collect(),
            AnyGame::Duodecim(game) => collect(game).into_iter().map(AnyMove::Duodecim).collect(),
        };
        moves.sort_by_cached_key(|mv| mv.to_string());
        moves
    }

    /// The legal moves' notations, in the order of `legal_moves`: for a caller that only writes
    /// them, without writing each notation twice (once to sort, once to show).
    pub fn legal_notations(&self) -> Vec<String> {
        let mut notations = Vec::new();
        self.for_each_legal_notation(|notation| notations.push(notation.to_string()));
        notations
    }

    /// Calls `visit` with each legal move's notation, in the order of `legal_moves`.
    pub fn for_each_legal_notation(&self, mut visit: impl FnMut(&str)) {
        self.for_each_legal_notation_bytes(|bytes| {
            visit(std::str::from_utf8(bytes).expect("a whole notation is text"))
        });
    }

    /// Calls `visit` with the bytes of each legal move's notation (whole notations: valid
    /// text), in the order of `legal_moves`, without a string per move: the server writes them
    /// at every version of a game, and checking each as text again was a fifth of that.
    pub fn for_each_legal_notation_bytes(&self, mut visit: impl FnMut(&[u8])) {
        match self {
            AnyGame::Petteia(game) => game.for_each_legal_notation_bytes(&mut visit),
            AnyGame::PenteGrammai(game) => game.for_each_legal_notation_bytes(&mut visit),
            AnyGame::Duodecim(game) => game.for_each_legal_notation_bytes(&mut visit),
        }
    }

    /// Reads a move in the variant's (lenient) notation and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        match self {
            AnyGame::Petteia(game) => match game.parse_move(text)? {
                Ok(mv) => Ok(AnyMove::Petteia(mv)),
                Err(illegal) => Err(illegal_move(illegal.mv, illegal.reason)),
            },
            AnyGame::PenteGrammai(game) => match game.parse_move(text)? {
                Ok(mv) => Ok(AnyMove::PenteGrammai(mv)),
                Err(illegal) => Err(illegal_move(illegal.mv, illegal.reason)),
            },
            AnyGame::Duodecim(game) => match game.parse_move(text)? {
                Ok(mv) => Ok(AnyMove::Duodecim(mv)),
                Err(illegal) => Err(illegal_move(illegal.mv, illegal.reason)),
            },
        }
    }

    pub fn play(&mut self, mv: AnyMove) -> Result<(), MoveError> {
        match (self, mv) {
            (AnyGame::Petteia(game), AnyMove::Petteia(mv)) => game
                .play(mv)
                .map_err(|illegal| illegal_move(illegal.mv, illegal.reason)),
            (AnyGame::PenteGrammai(game), AnyMove::PenteGrammai(mv)) => game
                .play(mv)
                .map_err(|illegal| illegal_move(illegal.mv, illegal.reason)),
            (AnyGame::Duodecim(game), AnyMove::Duodecim(mv)) => game
                .play(mv)
                .map_err(|illegal| illegal_move(illegal.mv, illegal.reason)),
            (game, mv) => Err(illegal_move(
                mv,
                format!("this is not a move of {}", game.variant()),
            )),
        }
    }

    /// Reads, checks and plays a move; returns it as played.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, MoveError> {
        let mv = self.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Applies a roll (dice games only, while a roll is awaited).
    pub fn roll(&mut self, dice: &[u8]) -> Result<(), RollError> {
        self.check_roll(dice)?;
        match self {
            AnyGame::Petteia(_) => Err(RollError::NoDice(self.variant())),
            AnyGame::PenteGrammai(game) => game.roll(dice),
            AnyGame::Duodecim(game) => game.roll(dice),
        }
    }

    /// Checks that `dice` could be a roll of this variant (faces and count), whatever the phase.
    fn check_roll(&self, dice: &[u8]) -> Result<(), RollError> {
        if let Some(&face) = dice.iter().find(|&&d| !(1..=6).contains(&d)) {
            return Err(RollError::BadFace(face));
        }
        let expected = self.variant().dice_per_roll();
        if expected == 0 {
            return Err(RollError::NoDice(self.variant()));
        }
        if dice.len() != expected {
            return Err(RollError::WrongCount {
                expected,
                given: dice.len(),
            });
        }
        Ok(())
    }

    /// The dice of the current roll still to be played (empty before the roll and in Petteia).
    pub fn dice(&self) -> Vec<u8> {
        match self {
            AnyGame::Petteia(_) => Vec::new(),
            AnyGame::PenteGrammai(game) => game.die().into_iter().collect(),
            AnyGame::Duodecim(game) => game.position().dice.faces().to_vec(),
        }
    }

    /// The roll that [`AnyGame::from_position`] needs besides the notation to rebuild this state:
    /// Pente Grammai's notation has no die, so a rolled die travels beside it. `None` elsewhere.
    pub fn roll_outside_notation(&self) -> Option<Vec<u8>> {
        match self {
            AnyGame::Petteia(_) | AnyGame::Duodecim(_) => None,
            AnyGame::PenteGrammai(game) => game.die().map(|die| vec![die]),
        }
    }

    /// A move the server plays by itself because it holds no choice: the only legal move when it is
    /// a pass (Pente Grammai) or the decline of bonus dice none of which can be played (Duodecim).
    pub fn automatic_move(&self) -> Option<AnyMove> {
        match self {
            AnyGame::Petteia(_) => None,
            AnyGame::PenteGrammai(game) => match collect(game).as_slice() {
                [mv] if mv.action == pente_grammai::Action::Pass => {
                    Some(AnyMove::PenteGrammai(*mv))
                }
                _ => None,
            },
            AnyGame::Duodecim(game) => game
                .must_decline()
                .then_some(AnyMove::Duodecim(duodecim::Move::Decline)),
        }
    }

    /// Each player's pieces that the opponent could take with its next move.
    pub fn threats(&self) -> Threats {
        match self {
            AnyGame::Petteia(game) => Player::BOTH.map(|player| {
                petteia::squares(game.threatened(player))
                    .map(|sq| Threat {
                        place: sq.to_string(),
                        odds: None,
                    })
                    .collect()
            }),
            AnyGame::PenteGrammai(game) => Player::BOTH.map(|player| game.threatened(player)),
            AnyGame::Duodecim(game) => game.threats(),
        }
    }
}

fn illegal_move(mv: impl fmt::Display, reason: impl fmt::Display) -> MoveError {
    MoveError::Illegal {
        notation: mv.to_string(),
        reason: reason.to_string(),
    }
}

impl AnyGame {
    /// Perft from this game: the leaf nodes `depth` plies below it. Roll events are not plies.
    /// In a dice game, `dice` is one sequence shared by every path: the k-th roll met along any
    /// path (k = 0, 1, …, counted from this node) shows the k-th roll's worth of dice of `dice`,
    /// so every path meets the same rolls in the same order. Games without dice ignore `dice`.
    pub fn perft(&self, depth: u32, dice: &[u8]) -> Result<u64, RollError> {
        match self {
            AnyGame::Petteia(game) => Ok(crate::perft::perft(game, depth)),
            AnyGame::PenteGrammai(game) => crate::perft::perft_with_dice(game, depth, dice),
            AnyGame::Duodecim(game) => crate::perft::perft_with_dice(game, depth, dice),
        }
    }
}
