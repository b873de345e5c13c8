//! The Petteia player against the engine: its moves are legal, and it finds the wins a brute-force
//! search over the engine finds.

use ludus_ai::Level;
use ludus_ai::petteia::{self, Settings};
use ludus_engine::petteia::{Board, Move, Petteia, Position, Size, Square};
use ludus_engine::{AnyGame, Game, Player, Variant};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn far() -> Instant {
    Instant::now() + Duration::from_secs(3600)
}

fn legal(game: &Petteia) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// Whether the side to move can force a win within `plies` of its own and the opponent's moves
/// (odd: the win comes on the mover's move), by brute force over the engine.
fn wins_within(game: &Petteia, plies: u32) -> bool {
    let mover = game.to_move();
    legal(game).into_iter().any(|mv| {
        let mut after = game.clone();
        after.play(mv).expect("legal");
        match after.outcome() {
            Some(outcome) => outcome.winner == Some(mover),
            None if plies >= 3 => legal(&after).into_iter().all(|reply| {
                let mut next = after.clone();
                next.play(reply).expect("legal");
                match next.outcome() {
                    Some(outcome) => outcome.winner == Some(mover),
                    None => wins_within(&next, plies - 2),
                }
            }),
            None => false,
        }
    })
}

/// A random position on a 6×6 board with a few pieces each, Light to move, not yet over.
fn random_position(rng: &mut SmallRng, light: usize, dark: usize) -> Petteia {
    loop {
        let mut squares: Vec<Square> = (0..6)
            .flat_map(|rank| (0..6).filter_map(move |file| Square::new(file, rank)))
            .collect();
        let mut pieces = [0u64; 2];
        for (player, count) in [(0, light), (1, dark)] {
            for _ in 0..count {
                let i = rng.random_range(0..squares.len());
                pieces[player] |= squares.swap_remove(i).bit();
            }
        }
        let board = Board {
            size: Size::Six,
            pieces,
        };
        let game = Petteia::from_position(Position::new(board, Player::First, 0, 1));
        if game.outcome().is_none() {
            return game;
        }
    }
}

#[test]
fn a_win_in_three_plies_is_found_whenever_brute_force_finds_one() {
    let mut rng = SmallRng::seed_from_u64(41);
    let mut found = 0;
    while found < 12 {
        let game = random_position(&mut rng, 4, 2);
        if wins_within(&game, 1) || !wins_within(&game, 3) {
            continue;
        }
        found += 1;
        let mv = petteia::choose_move(&game, Level::MAX, 1, far()).expect("a move");
        let mut after = game.clone();
        after.play(mv).expect("legal");
        let forced = match after.outcome() {
            Some(outcome) => outcome.winner == Some(Player::First),
            None => legal(&after).into_iter().all(|reply| {
                let mut next = after.clone();
                next.play(reply).expect("legal");
                next.outcome().is_some() || wins_within(&next, 1)
            }),
        };
        assert!(forced, "{}: {mv} does not force the win", game.position());
    }
}

#[test]
fn every_level_plays_only_legal_moves_in_random_games() {
    let mut rng = SmallRng::seed_from_u64(3);
    for size in [Size::Six, Size::Eight] {
        for game_number in 0..6 {
            let mut game = Petteia::new(size);
            let mut ply = 0u64;
            while game.outcome().is_none() {
                // Random moves take the game to varied positions; the computer answers in between,
                // on a small node budget so that the test stays quick.
                let mv = if ply % 3 == 2 {
                    let level = Level::ALL[(game_number + ply as usize) % 5];
                    let cheap = Settings {
                        nodes: 3_000,
                        ..Settings::for_level(level)
                    };
                    petteia::decide(&game, cheap, ply, far())
                        .expect("a move")
                        .mv
                } else {
                    *legal(&game).choose(&mut rng).expect("a move")
                };
                assert!(legal(&game).contains(&mv), "{mv} in {}", game.position());
                game.play(mv).expect("legal");
                ply += 1;
            }
        }
    }
    // And through the public entry point, at each level's real budget.
    for variant in [Variant::Petteia6, Variant::Petteia8] {
        let game = AnyGame::new(variant, Player::First);
        for level in Level::ALL {
            let mv = ludus_ai::choose_move(&game, level, 5, far()).expect("a move");
            assert!(game.legal_moves().contains(&mv), "{level}: {mv}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_move_and_a_finished_game_gives_none() {
    let game = AnyGame::new(Variant::Petteia8, Player::First);
    // Levels 1–3 stay far inside their time caps, so only the seed decides.
    for level in Level::ALL[..3].iter().copied() {
        let first = ludus_ai::choose_move(&game, level, 99, far());
        assert!(first.is_some());
        assert_eq!(
            first,
            ludus_ai::choose_move(&game, level, 99, far()),
            "{level}"
        );
    }
    let over =
        AnyGame::from_position(Variant::Petteia6, "6/3L2/6/1L4/6/3LD1 d", None).expect("parses");
    assert!(over.outcome().is_some());
    assert_eq!(ludus_ai::choose_move(&over, Level::MAX, 1, far()), None);
}
