//! Perft: the number of move sequences of a given length, the standard golden test of a move
//! generator (a wrong rule anywhere in the tree changes the count).

use crate::Game;

/// Leaf nodes `depth` plies below `game`; a finished game has none below it.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play(mv).expect("a listed move is legal");
            perft(&next, depth - 1)
        })
        .sum()
}
