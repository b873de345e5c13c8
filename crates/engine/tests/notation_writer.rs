//! The notations the server writes without formatting (`push_notation`, `legal_notations`) are
//! the ones `Display` writes, over seeded random games of every variant.

mod common;

use ludus_engine::{AnyGame, Variant};

fn displayed_sorted(game: &AnyGame) -> Vec<String> {
    let mut notations: Vec<String> = game.legal_moves().iter().map(|mv| mv.to_string()).collect();
    notations.sort();
    notations
}

#[test]
fn every_legal_move_is_written_as_display_writes_it() {
    for variant in Variant::ALL {
        let mut states = 0;
        common::random_games(variant, 20, 400, |game| {
            for mv in game.legal_moves() {
                let mut written = String::from("[");
                mv.push_notation(&mut written);
                assert_eq!(written, format!("[{mv}"), "{variant:?}");
            }
            assert_eq!(
                game.legal_notations(),
                displayed_sorted(game),
                "{variant:?}: the legal notations, in text order"
            );
            states += 1;
        });
        assert!(states > 100, "{variant:?}: only {states} states were tried");
    }
}
