//! The consistency check every variant passes over seeded random games (after board-game-rs):
//! at every step, every listed move reads back from its own notation and plays; the phase agrees
//! with the moves and the outcome; the position round-trips through its notation.

#![allow(dead_code)] // each test binary uses the part it needs

use ludus_engine::dice::ServerSeed;
use ludus_engine::{AnyGame, Phase, Termination, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays `games` random games of `variant` (dice from docs/RULES.md §4 with a per-game seed), calling
/// `check` on every state reached; stops a game after `max_plies` moves. Returns the finished count.
pub fn random_games(
    variant: Variant,
    games: u64,
    max_plies: usize,
    mut check: impl FnMut(&AnyGame),
) -> u64 {
    let mut finished = 0;
    for game_number in 0..games {
        let mut rng = SmallRng::seed_from_u64(game_number);
        let seed = ServerSeed(rng.random()).game_seed(&format!("game {game_number}"), "");
        let first = match variant.first_player() {
            ludus_engine::FirstPlayer::Fixed(p) => p,
            ludus_engine::FirstPlayer::DrawnFromSeed => seed.first_player(),
        };
        let mut game = AnyGame::new(variant, first);
        let mut next_die = 0u64;
        for _ in 0..max_plies {
            check_state(&game);
            check(&game);
            match game.phase() {
                Phase::Over(_) => {
                    finished += 1;
                    break;
                }
                Phase::AwaitingRoll => {
                    let dice = seed.dice(next_die, variant.dice_per_roll());
                    next_die += dice.len() as u64;
                    game.roll(&dice).expect("a roll is awaited");
                }
                Phase::AwaitingMove => {
                    let moves = game.legal_moves();
                    let mv = moves[rng.random_range(0..moves.len())];
                    game.play(mv).expect("a listed move plays");
                }
            }
        }
    }
    finished
}

/// The checks that hold in every state of every variant.
pub fn check_state(game: &AnyGame) {
    let moves = game.legal_moves();
    match game.phase() {
        Phase::Over(_) => {
            assert!(
                moves.is_empty(),
                "a finished game lists no moves: {}",
                game.position()
            );
            assert!(game.outcome().is_some());
        }
        Phase::AwaitingRoll => assert!(moves.is_empty(), "a game awaiting a roll lists no moves"),
        Phase::AwaitingMove => {
            assert!(
                !moves.is_empty(),
                "a game awaiting a move lists some: {}",
                game.position()
            );
            assert!(game.outcome().is_none());
        }
    }
    for mv in &moves {
        let text = mv.to_string();
        assert_eq!(
            game.parse_move(&text).as_ref(),
            Ok(mv),
            "{text} reads back in {}",
            game.position()
        );
        let mut after = game.clone();
        after
            .play(*mv)
            .unwrap_or_else(|e| panic!("listed move {text} refused: {e}"));
    }
    let position = game.position();
    let again = AnyGame::from_position(
        game.variant(),
        &position,
        game.roll_outside_notation().as_deref(),
    )
    .unwrap_or_else(|e| panic!("{position} does not read back: {e}"));
    assert_eq!(again.position(), position, "the position round-trips");
    // Repetition and the safety caps depend on the game's history, which a position alone lacks.
    let judged_by_history = game.outcome().is_some_and(|o| {
        matches!(
            o.termination,
            Termination::Repetition | Termination::MoveLimit
        )
    });
    if !judged_by_history {
        assert_eq!(
            again.legal_moves(),
            moves,
            "the re-read position has the same moves: {position}"
        );
        assert_eq!(
            again.outcome(),
            game.outcome(),
            "the re-read position has the same outcome: {position}"
        );
    }
    assert_eq!(
        again.to_move(),
        game.to_move(),
        "the re-read position has the same side to move: {position}"
    );
}
