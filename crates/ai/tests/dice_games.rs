//! The dice-game players against the engine: the search of every level finds the move that wins
//! on the spot and plays whole Duodecim turns that finish the game; no level, random moves
//! included, ever plays an illegal move.

use ludus_ai::chance::{self, Evaluate, Settings};
use ludus_ai::duodecim::DuodecimEvaluation;
use ludus_ai::pente_grammai::PenteGrammaiEvaluation;
use ludus_ai::{Level, choose_move};
use ludus_engine::{AnyGame, AnyMove, Chance, Phase, Player, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const DICE_VARIANTS: [Variant; 4] = [
    Variant::PenteGrammaiSchaedler,
    Variant::PenteGrammaiKidd,
    Variant::PenteGrammaiPerimeter,
    Variant::DuodecimScripta,
];

fn far() -> Instant {
    Instant::now() + Duration::from_secs(3600)
}

fn position(variant: Variant, text: &str, dice: Option<&[u8]>) -> AnyGame {
    AnyGame::from_position(variant, text, dice).expect("the test position parses")
}

/// What `level` searches in `game`, without its share of random moves (which the lower levels
/// play on purpose).
fn search_only<G: Chance, E: Evaluate<G>>(game: &G, evaluation: &E, level: Level) -> Settings {
    Settings {
        random_move: 0.0,
        ..evaluation.settings(game, level)
    }
}

/// The move the search of `level` chooses.
fn searched_move(game: &AnyGame, level: Level, seed: u64) -> AnyMove {
    let chosen = match game {
        AnyGame::PenteGrammai(g) => {
            let settings = search_only(g, &PenteGrammaiEvaluation, level);
            chance::decide(g, &PenteGrammaiEvaluation, settings, seed, far())
                .map(AnyMove::PenteGrammai)
        }
        AnyGame::Duodecim(g) => {
            let settings = search_only(g, &DuodecimEvaluation, level);
            chance::decide(g, &DuodecimEvaluation, settings, seed, far()).map(AnyMove::Duodecim)
        }
        AnyGame::Petteia(_) => unreachable!("only dice games here"),
    };
    chosen.expect("a move is awaited")
}

/// The search of every level, playing the rest of the turn, wins the game.
fn assert_wins(game: AnyGame, what: &str) {
    let mover = game.to_move();
    for level in Level::ALL {
        for seed in 0..4 {
            let mut after = game.clone();
            while after.phase() == Phase::AwaitingMove && after.to_move() == mover {
                let mv = searched_move(&after, level, seed);
                after.play(mv).expect("the search plays legal moves");
            }
            let winner = after.outcome().and_then(|o| o.winner);
            assert_eq!(winner, Some(mover), "{what}: {level}, seed {seed}");
        }
    }
}

#[test]
fn the_last_counter_lands_on_the_goal_in_schaedlers_rules() {
    // Terracotta has four counters gathered on 7; a 4 brings the fifth from 3 (or moves one of
    // the gathered counters away to 1).
    let game = position(
        Variant::PenteGrammaiSchaedler,
        "B/-/-/T/-/B/B/4T/B/B t",
        Some(&[4]),
    );
    assert_eq!(game.legal_moves().len(), 2);
    assert_wins(game, "Schädler, 3-7 gathers the fifth counter");
}

#[test]
fn the_last_counter_reaches_the_holy_line_in_kidds_rules() {
    // Four Terracotta counters are on the holy line; a 4 takes the fifth from 3 onto it (or takes
    // one off the holy line to 1).
    let game = position(
        Variant::PenteGrammaiKidd,
        "-/-/-/T/-/B/-/-/-/- t r:0,4 h:4,0",
        Some(&[4]),
    );
    assert_eq!(game.legal_moves().len(), 2);
    assert_wins(game, "Kidd, 3-7 gathers the fifth counter");
}

#[test]
fn the_last_counter_crosses_over_in_perimeter_line_battle() {
    // Four Terracotta counters stand on Black's setup points; a 2 brings the fifth from 3 to 5,
    // and every other move of a 2 leaves or stays short.
    let game = position(
        Variant::PenteGrammaiPerimeter,
        "B/B/B/T/B/T/T/B/T/T t x:0,0",
        Some(&[2]),
    );
    assert_eq!(game.legal_moves().len(), 5);
    assert_wins(game, "Perimeter, 3-5 completes the exchange");
}

#[test]
fn a_whole_duodecim_turn_bears_off_the_last_two_pieces() {
    // White has pieces on B7 and B11 with 6, 2 and 1 to play: the 6 bears off B7 and a small die
    // bears off B11. Opening with 2:B7-B9 can no longer win, though the dice all play.
    let game = position(
        Variant::DuodecimScripta,
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,1w,.,.,.,1w,. \
         w r:0,15 o:13,0 dice:[6,2,1] bonus:[]",
        None,
    );
    assert!(game.legal_moves().len() > 2);
    assert_wins(game, "Duodecim, the turn bears off both pieces");
}

/// Positions reached by random play with a fixed seed, one every few plies, awaiting a move.
fn random_positions(variant: Variant, games: u32, every: u32, seed: u64) -> Vec<AnyGame> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut found = Vec::new();
    for _ in 0..games {
        let first = if rng.random_bool(0.5) {
            Player::First
        } else {
            Player::Second
        };
        let mut game = AnyGame::new(variant, first);
        for ply in 0.. {
            match game.phase() {
                Phase::Over(_) => break,
                Phase::AwaitingRoll => {
                    let dice: Vec<u8> = (0..variant.dice_per_roll())
                        .map(|_| rng.random_range(1..=6))
                        .collect();
                    game.roll(&dice).expect("a roll is awaited");
                }
                Phase::AwaitingMove => {
                    let moves = game.legal_moves();
                    if ply % every == 0 {
                        found.push(game.clone());
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    game.play(mv).expect("a listed move is legal");
                }
            }
        }
    }
    found
}

#[test]
fn every_level_plays_a_legal_move_in_random_positions_of_every_dice_game() {
    for variant in DICE_VARIANTS {
        let every = if variant == Variant::DuodecimScripta {
            97
        } else {
            13
        };
        let positions = random_positions(variant, 3, every, 7);
        assert!(
            positions.len() >= 10,
            "{variant}: {} positions",
            positions.len()
        );
        for (i, game) in positions.iter().enumerate() {
            let legal = game.legal_moves();
            for level in Level::ALL {
                let mv = choose_move(game, level, i as u64, far()).expect("a move is awaited");
                assert!(
                    legal.contains(&mv),
                    "{variant} {level}: {mv} in {}",
                    game.position()
                );
            }
        }
    }
}

#[test]
fn no_move_is_chosen_while_a_dice_game_awaits_its_roll_or_is_over() {
    for variant in DICE_VARIANTS {
        let game = AnyGame::new(variant, Player::First);
        assert_eq!(game.phase(), Phase::AwaitingRoll);
        assert_eq!(choose_move(&game, Level::MAX, 1, far()), None);
    }
    let over = position(
        Variant::PenteGrammaiSchaedler,
        "B/-/-/-/-/B/B/5T/B/B b",
        None,
    );
    assert!(over.outcome().is_some());
    assert_eq!(choose_move(&over, Level::MAX, 1, far()), None);
}
