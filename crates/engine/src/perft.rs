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
            next.play_listed(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

/// Perft of a dice game along one fixed sequence of dice: the k-th roll met along any path takes
/// the k-th `G::DICE_PER_ROLL` dice of `dice`, so that every path meets the same rolls in the same
/// order and the count is a function of the move generator alone. Roll events are not plies.
pub fn perft_with_dice<G: Chance>(game: &G, depth: u32, dice: &[u8]) -> Result<u64, RollError> {
    walk(game, depth, dice, 0)
}

/// `used` dice of `dice` have been rolled on the way here.
fn walk<G: Chance>(game: &G, depth: u32, dice: &[u8], used: usize) -> Result<u64, RollError> {
    if depth == 0 {
        return Ok(1);
    }
    match game.phase() {
        Phase::Over(_) => Ok(0),
        Phase::AwaitingRoll => {
            let roll = dice
                .get(used..used + G::DICE_PER_ROLL)
                .ok_or(RollError::TooFewDice { given: dice.len() })?;
            let mut rolled = game.clone();
            rolled.roll(roll)?;
            walk(&rolled, depth, dice, used + G::DICE_PER_ROLL)
        }
        Phase::AwaitingMove => {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            if depth == 1 {
                return Ok(moves.len() as u64);
            }
            let mut nodes = 0;
            for mv in moves {
                let mut next = game.clone();
                next.play_listed(mv);
                nodes += walk(&next, depth - 1, dice, used)?;
            }
            Ok(nodes)
        }
    }
}
