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
    // `legal_notations` sorts notations of up to eight bytes by their bytes alone, and a list
    // with a longer one by the general path: both must be met.
    let (mut short_lists, mut long_lists) = (0, 0);
    for variant in Variant::ALL {
        let mut states = 0;
        common::random_games(variant, 20, 400, |game| {
            for mv in game.legal_moves() {
                let mut written = String::from("[");
                mv.push_notation(&mut written);
                assert_eq!(written, format!("[{mv}"), "{variant:?}");
            }
            let notations = game.legal_notations();
            match notations.iter().map(String::len).max() {
                Some(9..) => long_lists += 1,
                Some(_) => short_lists += 1,
                None => {}
            }
            assert_eq!(
                notations,
                displayed_sorted(game),
                "{variant:?}: the legal notations, in text order"
            );
            states += 1;
        });
        assert!(states > 100, "{variant:?}: only {states} states were tried");
    }
    assert!(
        short_lists > 100 && long_lists > 100,
        "lists of short notations: {short_lists}, with a long one: {long_lists}"
    );
}
