//! Perft: the number of move sequences of a given length, the standard golden test of a move
//! generator (a wrong rule anywhere in the tree changes the count).

use crate::{Chance, Game, Phase, RollError};

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

/// Perft through chance events: each roll met along a path takes the next
/// [`Chance::DICE_PER_ROLL`] dice of `dice` (the k-th roll of a path takes dice k·n … k·n + n − 1,
/// whichever moves led to it), and roll events are not plies. Fails if a path needs more dice than
/// given, or if a roll is refused.
pub fn perft_with_rolls<G: Chance>(game: &G, depth: u32, dice: &[u8]) -> Result<u64, RollError> {
    if depth == 0 {
        return Ok(1);
    }
    match game.phase() {
        Phase::Over(_) => Ok(0),
        Phase::AwaitingRoll => {
            let n = G::DICE_PER_ROLL;
            let roll = dice.get(..n).ok_or(RollError::DiceRanOut)?;
            let mut next = game.clone();
            next.roll(roll)?;
            perft_with_rolls(&next, depth, &dice[n..])
        }
        Phase::AwaitingMove => {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            if depth == 1 {
                return Ok(moves.len() as u64);
            }
            moves
                .into_iter()
                .map(|mv| {
                    let mut next = game.clone();
                    next.play(mv).expect("a listed move is legal");
                    perft_with_rolls(&next, depth - 1, dice)
                })
                .sum()
        }
    }
}
