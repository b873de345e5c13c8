//! The unchecked path that search and playouts take agrees with the checked one, over seeded random
//! games of every variant: `pick_legal_move` picks each listed move once and nothing else, and
//! `play_listed` leaves the same game as `play`.

mod common;

use ludus_engine::{AnyGame, Game, Variant};
use std::fmt::Debug;

/// Checks the unchecked path in one state; `view` shows what two games must share to be the same.
fn listed_moves_play_alike<G: Game>(game: &G, view: impl Fn(&G) -> String) {
    let mut listed = Vec::new();
    game.legal_moves(&mut listed);
    let mut picked = Vec::new();
    for k in 0..listed.len() {
        let mv = game
            .pick_legal_move(|n| {
                assert_eq!(n, listed.len(), "the count is the number of listed moves");
                k
            })
            .expect("a listed move");
        assert!(listed.contains(&mv), "{mv} is picked but not listed");
        assert!(!picked.contains(&mv), "{mv} is picked twice");
        picked.push(mv);
    }
    if listed.is_empty() {
        assert_eq!(game.pick_legal_move(|n| n), None);
    }
    for mv in listed {
        let mut checked = game.clone();
        checked.play(mv).expect("a listed move plays");
        let mut unchecked = game.clone();
        unchecked.play_listed(mv);
        assert_eq!(view(&unchecked), view(&checked), "after {mv}");
    }
}

fn view<G: Game>(position: &impl Debug, game: &G) -> String {
    format!("{position:?} {:?}", game.phase())
}

fn the_unchecked_path_agrees(variant: Variant, games: u64) {
    common::random_games(variant, games, 3_000, |game| match game {
        AnyGame::Petteia(g) => listed_moves_play_alike(g, |g| view(g.position(), g)),
        AnyGame::PenteGrammai(g) => listed_moves_play_alike(g, |g| view(g.position(), g)),
        AnyGame::Duodecim(g) => listed_moves_play_alike(g, |g| view(g.position(), g)),
    });
}

#[test]
fn petteia_moves_picked_or_played_unchecked_are_the_listed_ones() {
    the_unchecked_path_agrees(Variant::Petteia6, 60);
    the_unchecked_path_agrees(Variant::Petteia8, 60);
}

#[test]
fn pente_grammai_moves_picked_or_played_unchecked_are_the_listed_ones() {
    for variant in [
        Variant::PenteGrammaiSchaedler,
        Variant::PenteGrammaiKidd,
        Variant::PenteGrammaiPerimeter,
    ] {
        the_unchecked_path_agrees(variant, 20);
    }
}

#[test]
fn duodecim_moves_picked_or_played_unchecked_are_the_listed_ones() {
    the_unchecked_path_agrees(Variant::DuodecimScripta, 10);
}

/// Debug builds (the tests') check what `play_listed` is given: an unlisted move stops there, with
/// the reason `play` would give, rather than corrupting the game.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "a move that was not listed: A1-A6: A6 is occupied")]
fn an_unlisted_move_played_unchecked_panics_in_debug_builds() {
    use ludus_engine::petteia::{Petteia, Size};
    let mut game = Petteia::new(Size::Six);
    let mv = game
        .parse_move("A1-A6")
        .expect("well-formed")
        .expect_err("A6 holds a Dark piece")
        .mv;
    game.play_listed(mv);
}

/// `play`, written once for every game, refuses with the game's reason and changes nothing.
#[test]
fn play_refuses_an_illegal_move_and_leaves_the_game_as_it_was() {
    use ludus_engine::petteia::{Move, Petteia, Size, Square};
    let mut game = Petteia::new(Size::Six);
    let before = format!("{:?}", game.position());
    let onto_own_piece = Move {
        from: Square::new(0, 0).expect("A1"),
        to: Square::new(1, 0).expect("B1"),
    };
    let refused = game
        .play(onto_own_piece)
        .expect_err("B1 holds a Light piece");
    assert_eq!(refused.to_string(), "A1-B1: B1 is occupied");
    assert_eq!(format!("{:?}", game.position()), before);
}
