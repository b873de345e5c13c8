//! The search's view of a Petteia position: the engine's own [`Position`] (board, side to move,
//! no-capture count and its incrementally kept Zobrist hash), played with
//! [`Position::play_unchecked`], since search only plays moves the position listed. Copying one is
//! copying 40 bytes, so search uses copy-make (no unmake) and keeps the repetition history as a
//! stack of hashes beside it.
//!
//! What this module adds is the end checks in docs/RULES.md §1 order, which `after` applies exactly
//! like `petteia::Petteia` does, and the capture moves quiescence needs.

use ludus_engine::Player;
use ludus_engine::petteia::{
    self, Bitboard, Board, Direction, Move, NO_CAPTURE_LIMIT, Position, shift, slides,
};

/// A node of the search: a position.
pub(crate) type Node = Position;

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

/// Plays a listed move; returns the new node and what happened. Repetition is the caller's to
/// judge, since it needs the history.
pub(crate) fn after(node: &Node, mv: Move) -> (Node, After) {
    let mut child = *node;
    let captured = child.play_unchecked(mv);
    let opponent = child.to_move;
    let after = if child.board.of(opponent).count_ones() <= 1 || !child.board.can_move(opponent) {
        After::MoverWins
    } else if child.quiet_plies >= NO_CAPTURE_LIMIT {
        // The engine checks repetition before this; both are draws, so the order is moot here.
        After::Drawn
    } else {
        After::Continues {
            captured: captured != 0,
        }
    };
    (child, after)
}

/// Appends the moves that capture at least one piece.
pub(crate) fn captures(node: &Node, out: &mut Vec<Move>) {
    let targets = capture_squares(&node.board, node.to_move);
    if targets == 0 {
        return;
    }
    let blockers = node.board.blockers();
    for from in petteia::squares(node.board.of(node.to_move)) {
        let reach = slides(from, blockers) & targets;
        out.extend(petteia::squares(reach).map(|to| Move { from, to }));
    }
}

/// How many pieces `mv` captures.
pub(crate) fn captures_of(node: &Node, mv: Move) -> u32 {
    // The mover's own piece never flanks through `from` (the slide passed the enemy's square),
    // so the board before the move gives the same answer as the board after it.
    node.board.captures_at(node.to_move, mv.to).count_ones()
}

/// Empty squares where a piece of `mover` would close a sandwich: an enemy next to it in some
/// direction with a friend right behind that enemy.
pub(crate) fn capture_squares(board: &Board, mover: Player) -> Bitboard {
    let (us, them) = (board.of(mover), board.of(mover.other()));
    let mut targets = 0;
    for d in Direction::ALL {
        // A square Y with Y+d an enemy and Y+2d a friend.
        let back = d.opposite();
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
    fn captures_and_end_checks_match_the_engine_over_random_games() {
        use crate::random::generator;
        use rand::seq::IndexedRandom;
        let mut rng = generator(5);
        for size in [Size::Six, Size::Eight] {
            for _ in 0..40 {
                let mut game = Petteia::new(size);
                while game.outcome().is_none() {
                    let node = *game.position();
                    let mut theirs = Vec::new();
                    game.legal_moves(&mut theirs);
                    let mut found = Vec::new();
                    captures(&node, &mut found);
                    let capturing: Vec<Move> = theirs
                        .iter()
                        .copied()
                        .filter(|&mv| captures_of(&node, mv) > 0)
                        .collect();
                    assert_eq!(found, capturing);
                    let mv = *theirs.choose(&mut rng).expect("a move");
                    let (child, after) = after(&node, mv);
                    game.play(mv).expect("legal");
                    assert_eq!(&child, game.position());
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
    fn a_winning_capture_is_found_and_judged_like_the_engine() {
        let mut game = Petteia::parse("6/3L2/3D2/1LD1DL/6/3L2 l").expect("parses");
        let node = *game.position();
        let mut found = Vec::new();
        captures(&node, &mut found);
        let names: Vec<String> = found.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["D1-D3"]);
        let (child, after) = after(&node, found[0]);
        assert_eq!(after, After::MoverWins);
        game.play(found[0]).expect("legal");
        assert_eq!(&child, game.position());
    }
}
