//! The static evaluation of a Petteia node, in centipieces from the side to move's view: material,
//! mobility, safety (own pieces the opponent could take next move) and threats (enemy pieces we
//! could take next move).

use super::node::Node;
use ludus_engine::Player;
use ludus_engine::petteia::{Bitboard, Board, Direction, shift, slide_targets};

/// The weights of the evaluation terms.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    pub piece: i32,
    /// Per square a side's pieces can slide to (counted per piece).
    pub mobility: i32,
    /// Per enemy piece the side to move could take now.
    pub threat: i32,
    /// Per own piece the opponent could take after our move, if we do nothing about it.
    pub exposed: i32,
    /// Extra when two or more own pieces are exposed: one move rarely saves both.
    pub fork: i32,
}

pub(crate) const WEIGHTS: Weights = Weights {
    piece: 100,
    mobility: 2,
    threat: 30,
    exposed: 12,
    fork: 35,
};

/// What one side's pieces reach: the union of their slides and the count of (piece, square) pairs.
struct Reach {
    squares: Bitboard,
    count: i32,
}

/// Counted per direction: a square reached in one direction is reached by one piece only (see
/// [`slide_targets`]), so the pairs are the sum of the four sets' sizes.
fn reach(board: &Board, player: Player) -> Reach {
    let (pieces, empty) = (board.of(player), board.empty());
    Direction::ALL.into_iter().fold(
        Reach {
            squares: 0,
            count: 0,
        },
        |reach, d| {
            let targets = slide_targets(pieces, empty, d, board.size);
            Reach {
                squares: reach.squares | targets,
                count: reach.count + targets.count_ones() as i32,
            }
        },
    )
}

/// The pieces of `victim` that an attacker reaching `attacker_reach` could take with one move:
/// a piece with an attacker on one side and, on the other, an empty square the attacker reaches.
fn exposed(board: &Board, victim: Player, attacker_reach: Bitboard) -> Bitboard {
    let (pieces, attackers) = (board.of(victim), board.of(victim.other()));
    let mut exposed = 0;
    for d in Direction::ALL {
        // X with X+d reachable and X-d an attacker.
        exposed |= pieces & shift(attacker_reach, d.opposite()) & shift(attackers, d);
    }
    exposed
}

pub(crate) fn evaluate(node: &Node, weights: &Weights) -> i32 {
    let board = &node.board;
    let us = node.to_move;
    let them = us.other();
    let (our_reach, their_reach) = (reach(board, us), reach(board, them));
    let our_pieces = board.of(us).count_ones() as i32;
    let their_pieces = board.of(them).count_ones() as i32;
    let threats = exposed(board, them, our_reach.squares).count_ones() as i32;
    let our_exposed = exposed(board, us, their_reach.squares).count_ones() as i32;

    let mut score = weights.piece * (our_pieces - their_pieces);
    score += weights.mobility * (our_reach.count - their_reach.count);
    score += weights.threat * threats.min(2);
    score -= weights.exposed * our_exposed;
    if our_exposed >= 2 {
        score -= weights.fork;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_engine::petteia::Position;

    fn node(text: &str) -> Node {
        Position::parse(text).expect("parses")
    }

    #[test]
    fn exposed_pieces_are_those_the_engine_calls_threatened() {
        for text in [
            "4DD/6/L5/2D3/2L3/6 l",
            "6/3L2/3D2/1LD1DL/6/3L2 l",
            "DDD3/6/6/6/1D1D2/2L2L d",
            "DDDDDDDD/8/8/3L4/8/8/8/LLL1LLLL d",
        ] {
            let game = ludus_engine::petteia::Petteia::parse(text).expect("parses");
            let n = node(text);
            for victim in Player::BOTH {
                let attacker = reach(&n.board, victim.other());
                assert_eq!(
                    exposed(&n.board, victim, attacker.squares),
                    game.threatened(victim),
                    "{text}, {victim:?}"
                );
            }
        }
    }

    #[test]
    fn a_piece_ahead_scores_for_the_side_that_has_it() {
        let ahead = node("DDDDD1/6/6/6/6/LLLLLL l");
        assert!(evaluate(&ahead, &WEIGHTS) > 50);
        let behind = node("DDDDD1/6/6/6/6/LLLLLL d");
        assert!(evaluate(&behind, &WEIGHTS) < -50);
    }
}
