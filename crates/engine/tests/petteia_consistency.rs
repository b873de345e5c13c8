//! Petteia over thousands of seeded random games of both sizes.

mod common;

use ludus_engine::petteia::{Size, Square};
use ludus_engine::{AnyGame, MoveError, Variant};

fn every_pair(size: Size) -> Vec<(Square, Square)> {
    let n = size.n();
    let squares: Vec<Square> = (0..n)
        .flat_map(|r| (0..n).map(move |f| Square::new(f, r).unwrap()))
        .collect();
    squares
        .iter()
        .flat_map(|&a| squares.iter().map(move |&b| (a, b)))
        .collect()
}

/// Every from–to pair that is not listed is refused with a reason, and every listed one is accepted.
fn unlisted_pairs_are_refused(game: &AnyGame, size: Size) {
    let listed: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    for (from, to) in every_pair(size) {
        let text = format!("{from}-{to}");
        match game.parse_move(&text) {
            Ok(mv) => assert!(
                listed.contains(&mv.to_string()),
                "{text} accepted but not listed"
            ),
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(
                    !listed.contains(&text),
                    "{text} listed but refused: {reason}"
                );
                assert!(!reason.is_empty());
            }
            Err(other) => panic!("{text} should parse: {other}"),
        }
    }
}

fn random_games_are_consistent(variant: Variant, size: Size, games: u64) {
    let mut states = 0u64;
    let finished = common::random_games(variant, games, 2_000, |game| {
        states += 1;
        // The full pair check is quadratic in squares: run it on a sample of the states.
        if states.is_multiple_of(61) {
            unlisted_pairs_are_refused(game, size);
        }
    });
    assert_eq!(
        finished, games,
        "{variant}: every game ends by the no-capture rule at the latest"
    );
}

#[test]
fn random_games_on_the_6x6_board_are_consistent() {
    random_games_are_consistent(Variant::Petteia6, Size::Six, 1000);
}

#[test]
fn random_games_on_the_8x8_board_are_consistent() {
    random_games_are_consistent(Variant::Petteia8, Size::Eight, 1000);
}
