//! The computer opponent: synchronous search over the engine's traits, five [`Level`]s per variant.
//!
//! - Petteia: negamax alpha-beta with iterative deepening, a transposition table, move ordering and
//!   quiescence on captures ([`petteia`]).
//! - Dice games: expectimax with Star1 pruning, generic over [`ludus_engine::Chance`], each game
//!   bringing its [`chance::Evaluate`] ([`chance`]).
//!
//! Everything here is pure computation bounded by a node budget and a deadline: callers run it on
//! a blocking thread, never inside an async task. The same game, level and seed give the same move
//! (unless the deadline, a safety cap, cuts a search short).

pub mod arena;
pub mod chance;
mod level;
pub mod petteia;
mod random;

pub use level::{BadLevel, Level};

use ludus_engine::{AnyGame, AnyMove};
use std::time::Instant;

/// The move the computer plays at `level` in `game`, or `None` when no move is awaited (the game
/// is over, or a dice game awaits its roll). The search stops at `deadline` or at the level's own
/// time budget, whichever comes first; `seed` fixes every random choice.
///
/// Variants without their own search yet play [`random_move`]; wiring a search in is one match arm.
pub fn choose_move(game: &AnyGame, level: Level, seed: u64, deadline: Instant) -> Option<AnyMove> {
    // The search stops at 95% of the budget: returning from the iteration it cuts short, and
    // freeing its table, takes the rest.
    let deadline = deadline.min(Instant::now() + level.time_budget().mul_f64(0.95));
    match game {
        AnyGame::Petteia(g) => petteia::choose_move(g, level, seed, deadline).map(AnyMove::Petteia),
        // After the merge, one arm per dice game. `Chance` games have no hash, so mix the
        // position into the seed as `random_move` does, e.g.:
        // AnyGame::Duodecim(g) => chance::choose_move(g, &DuodecimEvaluation, level,
        //     random::position_seed(seed, &game.position()), deadline).map(AnyMove::Duodecim),
        #[allow(unreachable_patterns)]
        _ => random_move(game, seed),
    }
}

/// A legal move drawn uniformly with `seed`: the fallback for variants without a search.
pub fn random_move(game: &AnyGame, seed: u64) -> Option<AnyMove> {
    use rand::seq::IndexedRandom;
    let mut rng = random::generator(random::position_seed(seed, &game.position()));
    game.legal_moves().choose(&mut rng).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_engine::{Player, Variant};

    #[test]
    fn the_random_fallback_plays_a_legal_move_fixed_by_the_seed() {
        let game = AnyGame::new(Variant::Petteia8, Player::First);
        let mv = random_move(&game, 4).expect("a move");
        assert!(game.legal_moves().contains(&mv));
        assert_eq!(random_move(&game, 4), Some(mv));
        let over = AnyGame::from_position(Variant::Petteia6, "6/3L2/6/1L4/6/3LD1 d", None)
            .expect("parses");
        assert_eq!(random_move(&over, 4), None);
    }
}
