//! The traits every game implements, and the vocabulary of a game's state.
//!
//! `Game` is what search and the server need from any game; `Chance` adds the explicit roll event of
//! the dice games: a state awaiting a roll lists the possible rolls with their weights, and a roll is
//! applied like a move. The engine never draws a random number itself.

use crate::Player;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;

/// What the game waits for next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The player to move must roll (dice games only).
    AwaitingRoll,
    /// The player to move must choose one of the legal moves.
    AwaitingMove,
    /// The game has ended.
    Over(Outcome),
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Player>,
    pub termination: Termination,
}

impl Outcome {
    pub fn win(winner: Player, termination: Termination) -> Outcome {
        Outcome {
            winner: Some(winner),
            termination,
        }
    }

    pub fn draw(termination: Termination) -> Outcome {
        Outcome {
            winner: None,
            termination,
        }
    }
}

/// Why a game ended. The first group comes from the rules of the board; the second from the
/// players or their clocks, and is decided by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// Petteia: the opponent has at most one piece left.
    Reduction,
    /// Petteia: the opponent cannot move.
    Blockade,
    /// Petteia: the same position for the third time.
    Repetition,
    /// Petteia: 100 plies without a capture.
    NoCapture,
    /// Pente Grammai (Schädler, Kidd): all five counters gathered.
    Gathered,
    /// Pente Grammai (Perimeter): all five counters on the opponent's setup points.
    Exchange,
    /// Duodecim Scripta: all fifteen pieces borne off.
    BorneOff,
    /// A safety cap that is not part of any historical rule.
    MoveLimit,
    Timeout,
    Resignation,
    Agreement,
    Abandoned,
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::Reduction => "reduction",
            Termination::Blockade => "blockade",
            Termination::Repetition => "repetition",
            Termination::NoCapture => "no-capture",
            Termination::Gathered => "gathered",
            Termination::Exchange => "exchange",
            Termination::BorneOff => "borne-off",
            Termination::MoveLimit => "move-limit",
            Termination::Timeout => "timeout",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game: whose turn it is, what it waits for, the legal moves, and playing one.
pub trait Game: Clone {
    type Move: Copy + Eq + fmt::Debug + fmt::Display;
    /// Why a move was refused; its `Display` names the move and the reason ("A1-A6: A6 is occupied").
    type Illegal: std::error::Error;

    fn to_move(&self) -> Player;
    fn phase(&self) -> Phase;

    /// Appends the legal moves to `moves` (a buffer the caller reuses); none unless the phase is
    /// `AwaitingMove`.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Says why `mv` may not be played here, if it may not; changes nothing.
    fn check(&self, mv: Self::Move) -> Result<(), Self::Illegal>;

    /// Plays `mv`, which [`Game::check`] accepts, without checking it again. Games implement this
    /// and [`Game::check`]; callers use [`Game::play`] or [`Game::play_listed`], written once here.
    fn apply(&mut self, mv: Self::Move);

    /// Plays `mv` if it is legal; otherwise says why and leaves the game unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::Illegal> {
        self.check(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// Plays a move that this very state listed ([`Game::legal_moves`], [`Game::pick_legal_move`])
    /// without checking it again: the path of search and playouts, which only ever play such moves.
    /// Anything from outside goes through [`Game::play`]; an unlisted move here breaks the game
    /// (debug builds check it and panic).
    fn play_listed(&mut self, mv: Self::Move) {
        if cfg!(debug_assertions)
            && let Err(illegal) = self.check(mv)
        {
            panic!("a move that was not listed: {illegal}");
        }
        self.apply(mv);
    }

    /// One of the `n` legal moves, chosen by `pick(n)`, which returns an index below `n`; `None`
    /// when there are none. Each index gives a different move (not necessarily in the order of
    /// [`Game::legal_moves`]), so a `pick` that draws uniformly gives a uniform legal move. Games
    /// override it to find the move without building the list: a random playout then costs a
    /// count, not a list.
    fn pick_legal_move(&self, pick: impl FnOnce(usize) -> usize) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        Some(moves[pick(moves.len())])
    }

    /// Appends `mv`'s notation to `text`, as its `Display` writes it. A game whose notation has
    /// a fixed shape writes it directly: the server writes every legal move at every version of
    /// every game it serves, and the formatting machinery was most of that.
    fn push_notation(mv: Self::Move, text: &mut String) {
        use std::fmt::Write;
        write!(text, "{mv}").expect("a String takes any text");
    }

    /// `mv`'s notation as a number that orders as the text does, when it has at most eight
    /// bytes: the bytes big-endian, zeros after (a notation holds no NUL byte); `None` when it is
    /// longer. Lists of legal moves are sorted by it. A game whose notation has a fixed shape
    /// makes it directly.
    fn short_notation(mv: Self::Move) -> Option<u64> {
        /// Up to eight bytes of text; more is an error.
        struct Short([u8; 8], usize);
        impl std::fmt::Write for Short {
            fn write_str(&mut self, text: &str) -> std::fmt::Result {
                let end = self.1 + text.len();
                let room = self.0.get_mut(self.1..end).ok_or(std::fmt::Error)?;
                room.copy_from_slice(text.as_bytes());
                self.1 = end;
                Ok(())
            }
        }
        use std::fmt::Write;
        let mut short = Short([0; 8], 0);
        write!(short, "{mv}").ok()?;
        Some(u64::from_be_bytes(short.0))
    }

    /// Calls `visit` with the bytes of each legal move's notation (whole notations: valid text)
    /// in the order of the texts. By default the moves are listed and sorted by
    /// [`Game::short_notation`]; a game that can list its moves in that order overrides it (the
    /// server writes the list at every version of every game it serves, and the sort was a
    /// fifth of writing it).
    fn for_each_legal_notation_bytes(&self, mut visit: impl FnMut(&[u8])) {
        visit_sorted_notations(self, &mut visit);
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.phase() {
            Phase::Over(outcome) => Some(outcome),
            _ => None,
        }
    }
}

/// The chance extension of the dice games: a roll is an explicit event.
pub trait Chance: Game {
    /// How many dice one roll throws.
    const DICE_PER_ROLL: usize;

    /// Every distinct roll with its weight (how many of the 6^n ordered throws give it), so that
    /// search can average over them. The dice of a roll are listed in ascending order.
    fn roll_outcomes(&self) -> &'static [(&'static [u8], u32)];

    /// Applies a roll; only legal while the phase is `AwaitingRoll`.
    fn roll(&mut self, dice: &[u8]) -> Result<(), crate::RollError>;
}

/// The chance that a piece is hit next turn: `hits` of the `of` equally likely rolls hit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Odds {
    pub hits: u32,
    pub of: u32,
}

/// A piece the opponent could take with its next move, and, in dice games, the odds of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    /// The square, point or cell in the game's notation.
    pub place: String,
    pub odds: Option<Odds>,
}

/// The threatened pieces of each player, indexed by [`Player::index`].
pub type Threats = [Vec<Threat>; 2];

/// The first 8 bytes of a notation as a number that orders as the text does (a notation holds
/// no NUL byte, so the zeros after a short one order it first): most comparisons stop there.
fn sort_key(notation: &str) -> u64 {
    let mut bytes = [0; 8];
    let len = notation.len().min(8);
    bytes[..len].copy_from_slice(&notation.as_bytes()[..len]);
    u64::from_be_bytes(bytes)
}

/// Visits the notations of `game`'s legal moves in their text's order. A notation of at most
/// eight bytes (every Petteia move, most others) is its own sort key (`Game::short_notation`),
/// so the keys alone are sorted and written back; a longer one sends the whole list through the
/// general path.
fn visit_sorted_notations<G: Game>(game: &G, visit: &mut dyn FnMut(&[u8])) {
    let moves = collect(game);
    let mut keys = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let Some(key) = G::short_notation(mv) else {
            return visit_sorted_long_notations::<G>(&moves, visit);
        };
        keys.push(key);
    }
    keys.sort_unstable();
    for key in keys {
        let bytes = key.to_be_bytes();
        // A whole notation: each fits in its key.
        visit(&bytes[..8 - (key.trailing_zeros() / 8) as usize]);
    }
}

/// The general path: every notation written into one buffer, sorted by key and then by text.
fn visit_sorted_long_notations<G: Game>(moves: &[G::Move], visit: &mut dyn FnMut(&[u8])) {
    let mut text = String::with_capacity(16 * moves.len());
    let mut spans: Vec<(u64, Range<usize>)> = moves
        .iter()
        .map(|&mv| {
            let start = text.len();
            G::push_notation(mv, &mut text);
            (sort_key(&text[start..]), start..text.len())
        })
        .collect();
    spans.sort_unstable_by(|(key_a, a), (key_b, b)| {
        key_a
            .cmp(key_b)
            .then_with(|| text[a.clone()].cmp(&text[b.clone()]))
    });
    for (_, span) in spans {
        visit(text[span].as_bytes());
    }
}

pub(crate) fn collect<G: Game>(game: &G) -> Vec<G::Move> {
    // Room for the moves of nearly every position at once: grown from empty, the list was
    // reallocated four or five times at every version of a served game.
    let mut moves = Vec::with_capacity(128);
    game.legal_moves(&mut moves);
    moves
}
