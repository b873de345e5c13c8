//! Petteia (docs/RULES.md §1): rook moves on a 6×6 or 8×8 board, custodial capture, and the end checks
//! in their stated order. The game keeps the hashes of the positions since the last capture, which
//! is all the history threefold repetition needs (a capture is irreversible).
//!
//! Two ways in: [`Game::play`] checks a move from anywhere; [`Game::play_listed`] and
//! [`Position::play_unchecked`] take a move this position listed, for search and playouts.

mod board;
mod notation;

pub use board::{
    Bitboard, Board, Direction, Size, Square, nearest, neighbours, shift, slide_targets, slides,
    squares, transpose,
};
pub use notation::MoveText;

use crate::bitset::RankedBits;
use crate::game::{Game, Outcome, Phase, Termination};
use crate::notation::NotationError;
use crate::{Player, zobrist};
use std::fmt;

/// No-capture plies after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u32 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

/// A position as its notation states it: the board, the side to move and the two counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub board: Board,
    pub to_move: Player,
    /// Consecutive plies without a capture.
    pub quiet_plies: u32,
    /// Goes up after each move by the second player (Dark).
    pub move_number: u32,
    hash: u64,
}

const PIECE_KEYS: [u64; 128] = zobrist::keys(0x7e77_e1a0);
const SECOND_TO_MOVE_KEY: u64 = zobrist::splitmix64(0x7e77_e1a1);

impl Position {
    pub fn new(board: Board, to_move: Player, quiet_plies: u32, move_number: u32) -> Position {
        let mut hash = if to_move == Player::Second {
            SECOND_TO_MOVE_KEY
        } else {
            0
        };
        for player in Player::BOTH {
            for sq in squares(board.of(player)) {
                hash ^= piece_key(player, sq);
            }
        }
        Position {
            board,
            to_move,
            quiet_plies,
            move_number,
            hash,
        }
    }

    pub fn start(size: Size) -> Position {
        Position::new(Board::start(size), Player::First, 0, 1)
    }

    /// A hash of the board and the side to move: what threefold repetition compares. It is kept
    /// up to date move by move (Zobrist), never recomputed.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Appends every slide of the side to move: piece by piece from the lowest square, each
    /// piece's destinations from the lowest. The game's end is not this type's to judge.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        let blockers = self.board.blockers();
        for from in squares(self.board.of(self.to_move)) {
            let reach = slides(from, blockers);
            moves.reserve(reach.count_ones() as usize);
            moves.extend(squares(reach).map(|to| Move { from, to }));
        }
    }

    /// Calls `visit` with every slide of the side to move in the order of their notations ("A1-A2"
    /// before "A1-B1" before "B1-A1"): pieces and destinations are taken file by file, from
    /// transposed sets, so the list needs no sorting (the server writes it at every version).
    pub fn for_each_legal_move_in_notation_order(&self, mut visit: impl FnMut(Move)) {
        let blockers = self.board.blockers();
        for from in squares(transpose(self.board.of(self.to_move))) {
            let from = from.transposed();
            for to in squares(transpose(slides(from, blockers))) {
                visit(Move {
                    from,
                    to: to.transposed(),
                });
            }
        }
    }

    /// One of the `n` legal moves, chosen by `pick(n)` (below `n`), without listing them: each
    /// index gives a different move, so a uniform `pick` gives a uniform move. The moves are
    /// counted per direction, where each reachable square is one move (see [`slide_targets`]):
    /// the index picks a direction and a square, and the piece is the nearest one behind it.
    pub fn pick_legal_move(&self, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
        // One copy of the body per board size, each with its own fill (see `slide_targets`): the
        // size is branched on once a ply, the same way all through a game.
        match self.board.size {
            Size::Six => self.pick_legal_move_on(Size::Six, pick),
            Size::Eight => self.pick_legal_move_on(Size::Eight, pick),
        }
    }

    /// [`Position::pick_legal_move`] on a board of `size`, the board's own.
    #[inline(always)]
    fn pick_legal_move_on(&self, size: Size, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
        let movers = self.board.of(self.to_move);
        let empty = size.squares() & !self.board.occupied();
        // Written out rather than mapped over `Direction::ALL`: the compiler then keeps each
        // direction's shifts constant, where a map sometimes left it calling a closure per direction.
        let targets = [
            RankedBits::new(slide_targets(movers, empty, Direction::North, size)),
            RankedBits::new(slide_targets(movers, empty, Direction::East, size)),
            RankedBits::new(slide_targets(movers, empty, Direction::South, size)),
            RankedBits::new(slide_targets(movers, empty, Direction::West, size)),
        ];
        let counts = targets.map(|set| set.len());
        // The first index of each direction's moves.
        let starts = [
            0,
            counts[0],
            counts[0] + counts[1],
            counts[0] + counts[1] + counts[2],
        ];
        let total = starts[3] + counts[3];
        if total == 0 {
            return None;
        }
        let index = pick(total as usize) as u32;
        assert!(
            index < total,
            "pick({total}) must return an index below {total}"
        );
        // The direction is the number of later starts the index has reached: worked out without
        // branching on it, since a random index would mispredict every branch.
        let d = usize::from(index >= starts[1])
            + usize::from(index >= starts[2])
            + usize::from(index >= starts[3]);
        let to = Square::from_index(targets[d].nth(index - starts[d]));
        let from = nearest(to, Direction::ALL[d].opposite(), movers)
            .expect("a reached square has its piece behind it");
        Some(Move { from, to })
    }

    /// Plays `mv`, which must be legal here, and returns the captured squares: the board, the side
    /// to move, both counters and the hash, updated in place and without any check.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Bitboard {
        let mover = self.to_move;
        let captured = self.board.apply(mover, mv.from, mv.to);
        self.hash ^= piece_key(mover, mv.from) ^ piece_key(mover, mv.to) ^ SECOND_TO_MOVE_KEY;
        for sq in squares(captured) {
            self.hash ^= piece_key(mover.other(), sq);
        }
        self.to_move = mover.other();
        if mover == Player::Second {
            self.move_number += 1;
        }
        if captured == 0 {
            self.quiet_plies += 1;
        } else {
            self.quiet_plies = 0;
        }
        captured
    }
}

/// The size of the repetition filter in 64-bit words (1024 bits).
const FILTER_WORDS: usize = 16;

/// The most positions since the last capture: the game is drawn once `NO_CAPTURE_LIMIT` plies
/// pass without one, so no move is played after the 100th quiet ply.
const HISTORY_LIMIT: usize = NO_CAPTURE_LIMIT as usize + 1;

/// The hashes of the positions since the last capture, which is all the history threefold
/// repetition needs (a capture is irreversible), with a 1024-bit filter of them: a position whose
/// bit is clear has not occurred, and most positions are new, so the list is seldom scanned. With
/// up to 100 positions in it, 256 bits let a third of the new ones through to a scan; 1024, a tenth.
///
/// The hashes live in a boxed array of the most there can be, not a vector: recording one is then
/// a store, with no capacity check and no call to grow, which leaves a playout's `apply` no call
/// but the bounds checks' cold panics (and half the registers to save). Boxed, so that every game
/// of the `AnyGame` enum stays as small as before.
#[derive(Clone)]
struct History {
    /// `hashes[..len]`, oldest first, the current position last.
    hashes: Box<[u64; HISTORY_LIMIT]>,
    len: usize,
    filter: [u64; FILTER_WORDS],
}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History")
            .field("hashes", &self.recorded())
            .field("filter", &self.filter)
            .finish()
    }
}

impl History {
    fn new(hash: u64) -> History {
        let mut history = History {
            hashes: Box::new([0; HISTORY_LIMIT]),
            len: 0,
            filter: [0; FILTER_WORDS],
        };
        history.record(hash);
        history
    }

    fn recorded(&self) -> &[u64] {
        &self.hashes[..self.len]
    }

    /// Forgets every position: after a capture none of them can occur again.
    fn clear(&mut self) {
        self.len = 0;
        self.filter = [0; FILTER_WORDS];
    }

    /// Records the current position; returns how often it has occurred, this time included.
    fn record(&mut self, hash: u64) -> usize {
        let slot = (hash >> 54) as usize;
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        let seen = self.filter[word] & bit != 0;
        self.filter[word] |= bit;
        self.hashes[self.len] = hash;
        self.len += 1;
        if !seen {
            return 1;
        }
        // The same side is to move every other ply: only those positions can be equal.
        self.recorded()
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == hash)
            .count()
    }
}

fn piece_key(player: Player, square: Square) -> u64 {
    PIECE_KEYS[player.index() * 64 + square.bit().trailing_zeros() as usize]
}

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    GameOver,
    Empty(Square),
    NotYours(Square),
    Stays,
    NotStraight,
    OffBoard(Square),
    Occupied(Square),
    Blocked(Square),
    WrongCaptures {
        claimed: Vec<Square>,
        actual: Vec<Square>,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |squares: &[Square]| {
            if squares.is_empty() {
                "nothing".to_string()
            } else {
                squares
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            }
        };
        match self {
            Reason::GameOver => write!(f, "the game is over"),
            Reason::Empty(sq) => write!(f, "{sq} is empty"),
            Reason::NotYours(sq) => write!(f, "{sq} holds an opponent's piece"),
            Reason::Stays => write!(f, "a piece must move at least one square"),
            Reason::NotStraight => {
                write!(f, "pieces move along a rank or a file, never diagonally")
            }
            Reason::OffBoard(sq) => write!(f, "{sq} is off the board"),
            Reason::Occupied(sq) => write!(f, "{sq} is occupied"),
            Reason::Blocked(sq) => write!(f, "{sq} is in the way"),
            Reason::WrongCaptures { claimed, actual } => {
                write!(
                    f,
                    "the move captures {}, not {}",
                    list(actual),
                    list(claimed)
                )
            }
        }
    }
}

/// A refused move: which one and why ("A1-A6: A6 is occupied").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv}: {reason}")]
pub struct Illegal {
    pub mv: Move,
    pub reason: Reason,
}

/// A game of Petteia in progress.
#[derive(Clone, Debug)]
pub struct Petteia {
    position: Position,
    history: History,
    /// How often the current position has occurred since the last capture.
    occurrences: usize,
    outcome: Option<Outcome>,
}

impl Petteia {
    pub fn new(size: Size) -> Petteia {
        Petteia::from_position(Position::start(size))
    }

    /// Starts from a position given alone: it is judged as if the side not to move had just moved,
    /// and, without history, never as a repetition.
    pub fn from_position(position: Position) -> Petteia {
        let mut game = Petteia {
            position,
            history: History::new(position.hash),
            occurrences: 1,
            outcome: None,
        };
        game.outcome = game.judge(position.to_move.other());
        game
    }

    pub fn parse(text: &str) -> Result<Petteia, NotationError> {
        Position::parse(text).map(Petteia::from_position)
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn size(&self) -> Size {
        self.position.board.size
    }

    /// Reads a move in lenient notation and checks it, including a capture suffix if one is given.
    pub fn parse_move(&self, text: &str) -> Result<Result<Move, Illegal>, NotationError> {
        let written = MoveText::parse(text, self.size())?;
        let mv = written.mv;
        if let Err(illegal) = self.check(mv) {
            return Ok(Err(illegal));
        }
        if let Some(mut claimed) = written.claimed_captures {
            let mut after = self.position.board;
            let mut actual: Vec<Square> =
                squares(after.apply(self.position.to_move, mv.from, mv.to)).collect();
            claimed.sort();
            claimed.dedup();
            actual.sort();
            if claimed != actual {
                return Ok(Err(Illegal {
                    mv,
                    reason: Reason::WrongCaptures { claimed, actual },
                }));
            }
        }
        Ok(Ok(mv))
    }

    /// The rule `mv` breaks here, if any.
    fn check_reason(&self, mv: Move) -> Result<(), Reason> {
        let board = &self.position.board;
        let (from, to) = (mv.from, mv.to);
        if self.outcome.is_some() {
            return Err(Reason::GameOver);
        }
        if !from.on(board.size) {
            return Err(Reason::OffBoard(from));
        }
        match board.owner(from) {
            None => return Err(Reason::Empty(from)),
            Some(owner) if owner != self.position.to_move => return Err(Reason::NotYours(from)),
            Some(_) => {}
        }
        if from == to {
            return Err(Reason::Stays);
        }
        if from.file() != to.file() && from.rank() != to.rank() {
            return Err(Reason::NotStraight);
        }
        if !to.on(board.size) {
            return Err(Reason::OffBoard(to));
        }
        if board.occupied() & to.bit() != 0 {
            return Err(Reason::Occupied(to));
        }
        if board::slides(from, board.blockers()) & to.bit() == 0 {
            let (df, dr) = (
                (to.file() as i8 - from.file() as i8).signum(),
                (to.rank() as i8 - from.rank() as i8).signum(),
            );
            let mut at = from;
            loop {
                at = Square::new((at.file() as i8 + df) as u8, (at.rank() as i8 + dr) as u8)
                    .expect("between from and to");
                if board.occupied() & at.bit() != 0 {
                    return Err(Reason::Blocked(at));
                }
            }
        }
        Ok(())
    }

    /// The end checks of docs/RULES.md §1, in order, after `mover` has moved.
    fn judge(&self, mover: Player) -> Option<Outcome> {
        let board = &self.position.board;
        let opponent = mover.other();
        let remaining = board.of(opponent);
        // At most one piece: clearing the lowest leaves none.
        if remaining & remaining.wrapping_sub(1) == 0 {
            return Some(Outcome::win(mover, Termination::Reduction));
        }
        if !board.can_move(opponent) {
            return Some(Outcome::win(mover, Termination::Blockade));
        }
        if self.occurrences >= 3 {
            return Some(Outcome::draw(Termination::Repetition));
        }
        if self.position.quiet_plies >= NO_CAPTURE_LIMIT {
            return Some(Outcome::draw(Termination::NoCapture));
        }
        None
    }

    /// The pieces of `player` that the opponent could capture with one move on this board.
    pub fn threatened(&self, player: Player) -> Bitboard {
        let board = &self.position.board;
        let attacker = player.other();
        let mut threatened = 0;
        for from in squares(board.of(attacker)) {
            for to in squares(board::slides(from, board.blockers())) {
                let mut after = *board;
                threatened |= after.apply(attacker, from, to);
            }
        }
        threatened
    }
}

impl Game for Petteia {
    type Move = Move;
    type Illegal = Illegal;

    fn to_move(&self) -> Player {
        self.position.to_move
    }

    fn phase(&self) -> Phase {
        match self.outcome {
            Some(outcome) => Phase::Over(outcome),
            None => Phase::AwaitingMove,
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.outcome.is_none() {
            self.position.legal_moves(moves);
        }
    }

    fn push_notation(mv: Move, text: &mut String) {
        // Char by char: the bytes are ASCII, and checking them again as text cost more than
        // writing them (the server writes each move played twice).
        text.extend(mv.notation().map(char::from));
    }

    fn short_notation(mv: Move) -> Option<u64> {
        let [a, b, c, d, e] = mv.notation();
        Some(u64::from_be_bytes([a, b, c, d, e, 0, 0, 0]))
    }

    fn for_each_legal_notation_bytes(&self, mut visit: impl FnMut(&[u8])) {
        if self.outcome.is_none() {
            self.position
                .for_each_legal_move_in_notation_order(|mv| visit(&mv.notation()));
        }
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        self.check_reason(mv)
            .map_err(|reason| Illegal { mv, reason })
    }

    fn apply(&mut self, mv: Move) {
        let mover = self.position.to_move;
        let captured = self.position.play_unchecked(mv);
        if captured != 0 {
            self.history.clear();
        }
        self.occurrences = self.history.record(self.position.hash);
        // A move is only played in a game still going, so the outcome is written only when the game
        // ends. Writing `None` back every ply cost a playout dearly: the compiler stored its two
        // bytes one by one, and the `phase` read right after, one wider load, cannot take its value
        // from two pending stores, so it waited for them to reach the cache.
        debug_assert!(self.outcome.is_none(), "a move played in a finished game");
        if let Some(outcome) = self.judge(mover) {
            self.outcome = Some(outcome);
        }
    }

    fn pick_legal_move(&self, pick: impl FnOnce(usize) -> usize) -> Option<Move> {
        match self.outcome {
            None => self.position.pick_legal_move(pick),
            Some(_) => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

#[cfg(test)]
mod tests;
