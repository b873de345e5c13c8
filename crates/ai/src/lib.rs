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
pub mod duodecim;
mod level;
pub mod pente_grammai;
pub mod petteia;
mod random;

pub use level::{BadLevel, Level};

use duodecim::DuodecimEvaluation;
use ludus_engine::{AnyGame, AnyMove};
use pente_grammai::PenteGrammaiEvaluation;
use std::time::Instant;

/// The move the computer plays at `level` in `game`, or `None` when no move is awaited (the game
/// is over, or a dice game awaits its roll). The search stops at `deadline` or at the level's own
/// time budget, whichever comes first; `seed` fixes every random choice.
pub fn choose_move(game: &AnyGame, level: Level, seed: u64, deadline: Instant) -> Option<AnyMove> {
    // The search stops at 95% of the budget: returning from the iteration it cuts short, and
    // freeing its table, takes the rest.
    let deadline = deadline.min(Instant::now() + level.time_budget().mul_f64(0.95));
    match game {
        AnyGame::Petteia(g) => petteia::choose_move(g, level, seed, deadline).map(AnyMove::Petteia),
        // `Chance` games have no hash: the position's text varies the seed from move to move.
        AnyGame::PenteGrammai(g) => {
            let seed = random::position_seed(seed, &game.position());
            chance::choose_move(g, &PenteGrammaiEvaluation, level, seed, deadline)
                .map(AnyMove::PenteGrammai)
        }
        AnyGame::Duodecim(g) => {
            let seed = random::position_seed(seed, &game.position());
            chance::choose_move(g, &DuodecimEvaluation, level, seed, deadline)
                .map(AnyMove::Duodecim)
        }
    }
}

/// A legal move drawn uniformly with `seed`, in any variant.
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
