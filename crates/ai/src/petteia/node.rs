//! The search's own view of a Petteia position: a board, the side to move, the no-capture count and
//! an incrementally kept hash. Copying a node is copying 40 bytes, so search uses copy-make (no
//! unmake) and keeps the repetition history as a stack of hashes beside it.
//!
//! Moves come from the engine's slide and capture geometry; what this module adds is the end checks
//! in docs/RULES.md §1 order, which [`Node::after`] applies exactly like `petteia::Petteia` does.

use crate::random::splitmix64;
use ludus_engine::Player;
use ludus_engine::petteia::{
    self, Bitboard, Board, Move, NO_CAPTURE_LIMIT, Position, Square, slides,
};

/// Search-private Zobrist keys: the engine's are private to it, and a key per (player, square) plus
/// one for the side to move is all an incremental hash needs.
const PIECE_KEYS: [[u64; 64]; 2] = {
    let mut keys = [[0; 64]; 2];
    let mut i = 0;
    while i < 128 {
        keys[i / 64][i % 64] = splitmix64(0x6c75_6475_735f_6169 ^ (i as u64 * 0x9e37));
        i += 1;
    }
    keys
};
const SECOND_TO_MOVE_KEY: u64 = splitmix64(0x6c75_6475_735f_6169);

fn key(player: Player, square: Square) -> u64 {
    PIECE_KEYS[player.index()][square.bit().trailing_zeros() as usize]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub board: Board,
    pub to_move: Player,
    /// Consecutive plies without a capture.
    pub quiet_plies: u32,
    pub hash: u64,
}

/// What a move led to, judged as the engine judges it after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum After {
    /// The game goes on; `captured` says whether the repetition history starts afresh.
    Continues { captured: bool },
    /// The mover won (reduction or blockade).
    MoverWins,
    /// The no-capture limit was reached.
    Drawn,
}

impl Node {
    pub fn from_position(position: &Position) -> Node {
        let mut hash = if position.to_move == Player::Second {
            SECOND_TO_MOVE_KEY
        } else {
            0
        };
        for player in Player::BOTH {
            for sq in petteia::squares(position.board.of(player)) {
                hash ^= key(player, sq);
            }
        }
        Node {
            board: position.board,
            to_move: position.to_move,
            quiet_plies: position.quiet_plies,
            hash,
        }
    }

    /// Plays a legal move; returns the new node and what happened. Repetition is the caller's to
    /// judge, since it needs the history.
    pub fn after(&self, mv: Move) -> (Node, After) {
        let mover = self.to_move;
        let opponent = mover.other();
        let mut board = self.board;
        let captured = board.apply(mover, mv.from, mv.to);
        let mut hash = self.hash ^ key(mover, mv.from) ^ key(mover, mv.to) ^ SECOND_TO_MOVE_KEY;
        for sq in petteia::squares(captured) {
            hash ^= key(opponent, sq);
        }
        let quiet_plies = if captured == 0 {
            self.quiet_plies + 1
        } else {
            0
        };
        let node = Node {
            board,
            to_move: opponent,
            quiet_plies,
            hash,
        };
        let after = if board.of(opponent).count_ones() <= 1 || !board.can_move(opponent) {
            After::MoverWins
        } else if quiet_plies >= NO_CAPTURE_LIMIT {
            // The engine checks repetition before this; both are draws, so the order is moot here.
            After::Drawn
        } else {
            After::Continues {
                captured: captured != 0,
            }
        };
        (node, after)
    }

    /// Appends every legal move of the side to move.
    pub fn moves(&self, out: &mut Vec<Move>) {
        let blockers = self.board.blockers();
        for from in petteia::squares(self.board.of(self.to_move)) {
            out.extend(petteia::squares(slides(from, blockers)).map(|to| Move { from, to }));
        }
    }

    /// Appends the moves that capture at least one piece.
    pub fn captures(&self, out: &mut Vec<Move>) {
        let targets = capture_squares(&self.board, self.to_move);
        if targets == 0 {
            return;
        }
        let blockers = self.board.blockers();
        for from in petteia::squares(self.board.of(self.to_move)) {
            let reach = slides(from, blockers) & targets;
            out.extend(petteia::squares(reach).map(|to| Move { from, to }));
        }
    }

    /// How many pieces `mv` captures.
    pub fn captures_of(&self, mv: Move) -> u32 {
        // The mover's own piece never flanks through `from` (the slide passed the enemy's square),
        // so the board before the move gives the same answer as the board after it.
        self.board.captures_at(self.to_move, mv.to).count_ones()
    }
}

/// The four orthogonal shifts of a set of frame squares, without wrapping around the frame.
pub(crate) fn shift(set: Bitboard, direction: usize) -> Bitboard {
    const NOT_FILE_A: Bitboard = 0xfefe_fefe_fefe_fefe;
    const NOT_FILE_H: Bitboard = 0x7f7f_7f7f_7f7f_7f7f;
    match direction {
        0 => set << 8,
        1 => (set << 1) & NOT_FILE_A,
        2 => set >> 8,
        _ => (set >> 1) & NOT_FILE_H,
    }
}

/// The opposite of a direction of [`shift`].
pub(crate) fn opposite(direction: usize) -> usize {
    (direction + 2) % 4
}

/// Empty squares where a piece of `mover` would close a sandwich: an enemy next to it in some
/// direction with a friend right behind that enemy.
pub(crate) fn capture_squares(board: &Board, mover: Player) -> Bitboard {
    let (us, them) = (board.of(mover), board.of(mover.other()));
    let mut targets = 0;
    for d in 0..4 {
        // A square Y with Y+d an enemy and Y+2d a friend.
        let back = opposite(d);
        let enemy_with_friend_behind = them & shift(us, back);
        targets |= shift(enemy_with_friend_behind, back);
    }
    targets & board.empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_engine::Game;
    use ludus_engine::petteia::{Petteia, Size};

    #[test]
    fn moves_and_end_checks_match_the_engine_over_random_games() {
        use crate::random::generator;
        use rand::seq::IndexedRandom;
        let mut rng = generator(5);
        for size in [Size::Six, Size::Eight] {
            for _ in 0..40 {
                let mut game = Petteia::new(size);
                while game.outcome().is_none() {
                    let node = Node::from_position(game.position());
                    let mut ours = Vec::new();
                    node.moves(&mut ours);
                    let mut theirs = Vec::new();
                    game.legal_moves(&mut theirs);
                    assert_eq!(ours, theirs);
                    let mut captures = Vec::new();
                    node.captures(&mut captures);
                    let capturing: Vec<Move> = theirs
                        .iter()
                        .copied()
                        .filter(|&mv| node.captures_of(mv) > 0)
                        .collect();
                    assert_eq!(captures, capturing);
                    let mv = *theirs.choose(&mut rng).expect("a move");
                    let (child, after) = node.after(mv);
                    game.play(mv).expect("legal");
                    assert_eq!(child, Node::from_position(game.position()));
                    match after {
                        After::MoverWins => {
                            assert!(game.outcome().is_some_and(|o| o.winner.is_some()))
                        }
                        After::Drawn => assert!(game.outcome().is_some_and(|o| o.winner.is_none())),
                        After::Continues { .. } => assert!(
                            game.outcome().is_none_or(|o| o.winner.is_none()),
                            "only repetition, which the node leaves to the caller"
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn incremental_hash_matches_a_fresh_one_and_captures_match_the_engine() {
        let mut game = Petteia::parse("6/3L2/3D2/1LD1DL/6/3L2 l").expect("parses");
        let node = Node::from_position(game.position());
        let mut captures = Vec::new();
        node.captures(&mut captures);
        let names: Vec<String> = captures.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["D1-D3"]);
        let (child, after) = node.after(captures[0]);
        assert_eq!(after, After::MoverWins);
        game.play(captures[0]).expect("legal");
        assert_eq!(child, Node::from_position(game.position()));
    }
}
