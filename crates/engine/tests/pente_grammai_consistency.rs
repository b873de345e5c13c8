//! Pente Grammai over thousands of seeded random games of each rule set, through `AnyGame` as the
//! server drives it: every state passes the shared checks, every move text that is not listed is
//! refused with a reason, the forced pass is the automatic move, and the threat hints are sane.

mod common;

use ludus_engine::{AnyGame, MoveError, Phase, Player, Variant};

/// Every move the notation can write, with and without the die: `<d>:<from>-<to>` and `<d>:pass`.
fn every_move_text() -> Vec<String> {
    let origins: Vec<String> = (0..10)
        .map(|p| p.to_string())
        .chain(["R", "H", "X"].map(String::from))
        .collect();
    let prefixes = std::iter::once(String::new()).chain((1..=6).map(|d| format!("{d}:")));
    prefixes
        .flat_map(|prefix| {
            let moves: Vec<String> = origins
                .iter()
                .flat_map(|from| (0..10).map(move |to| format!("{from}-{to}")))
                .chain(["pass".to_string()])
                .map(|body| format!("{prefix}{body}"))
                .collect();
            moves
        })
        .collect()
}

/// Every well-formed move text is either listed (and read back as the listed move) or refused
/// with a reason.
fn unlisted_moves_are_refused(game: &AnyGame, texts: &[String]) {
    let listed: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    for text in texts {
        match game.parse_move(text) {
            Ok(mv) => assert!(
                listed.contains(&mv.to_string()),
                "{text} accepted but not listed in {}",
                game.position()
            ),
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(
                    !listed.contains(text),
                    "{text} listed but refused: {reason}"
                );
                assert!(!reason.is_empty());
            }
            Err(other) => panic!("{text} should parse: {other}"),
        }
    }
}

/// The forced pass is played by the server; any other choice is left to the player.
fn automatic_move_is_the_forced_pass(game: &AnyGame) {
    let moves = game.legal_moves();
    let forced = matches!(moves.as_slice(), [mv] if mv.to_string().ends_with(":pass"));
    assert_eq!(
        game.automatic_move().is_some(),
        forced,
        "{}",
        game.position()
    );
    if forced {
        assert_eq!(game.automatic_move(), Some(moves[0]));
    }
}

/// Threatened counters stand where their player has counters, with odds over the six throws.
fn threats_are_sane(game: &AnyGame) {
    let threats = game.threats();
    let position = game.position();
    let points: Vec<&str> = position
        .split(' ')
        .next()
        .expect("a board field")
        .split('/')
        .collect();
    for player in Player::BOTH {
        let letter = if player == Player::First { 'T' } else { 'B' };
        for threat in &threats[player.index()] {
            let point: usize = threat.place.parse().expect("a point number");
            assert!(points[point].contains(letter), "{position}: {threat:?}");
            let odds = threat.odds.expect("dice games give odds");
            assert!((1..=6).contains(&odds.hits) && odds.of == 6, "{odds:?}");
        }
    }
    if game.variant() == Variant::PenteGrammaiSchaedler || game.outcome().is_some() {
        assert!(threats.iter().all(Vec::is_empty));
    }
}

/// Plays `games` random games of at most `max_steps` steps (rolls and moves); returns how many
/// finished. The full refusal check reads ~800 texts, so it runs on a sample of the states.
fn random_games_are_consistent(variant: Variant, games: u64, max_steps: usize) -> u64 {
    let texts = every_move_text();
    let mut states = 0u64;
    let mut moves_awaited = 0u64;
    let finished = common::random_games(variant, games, max_steps, |game| {
        states += 1;
        if game.phase() == Phase::AwaitingMove {
            moves_awaited += 1;
            automatic_move_is_the_forced_pass(game);
        }
        if states.is_multiple_of(509) {
            unlisted_moves_are_refused(game, &texts);
        }
        if states.is_multiple_of(53) {
            threats_are_sane(game);
        }
    });
    assert!(moves_awaited > games * 10, "{variant}: games have moves");
    finished
}

/// More steps than the safety cap allows: 2,000 moves and their rolls.
const TO_THE_END: usize = 4_100;

/// Checks `full` games to their end and a thousand more over their first 150 plies, which keeps
/// the file fast although random Schädler and Kidd games are long (Kidd's mostly reach the cap:
/// hits keep sending counters back to reserve).
fn a_thousand_games_are_consistent(variant: Variant, full: u64) {
    let finished = random_games_are_consistent(variant, full, TO_THE_END);
    assert_eq!(
        finished, full,
        "{variant}: every game ends, by the safety cap at the latest"
    );
    random_games_are_consistent(variant, 1000, 300);
}

#[test]
fn random_schaedler_games_are_consistent() {
    a_thousand_games_are_consistent(Variant::PenteGrammaiSchaedler, 40);
}

#[test]
fn random_kidd_games_are_consistent() {
    a_thousand_games_are_consistent(Variant::PenteGrammaiKidd, 6);
}

#[test]
fn random_perimeter_games_are_consistent() {
    // Perimeter games are short: a thousand run to their end.
    let finished = random_games_are_consistent(Variant::PenteGrammaiPerimeter, 1000, TO_THE_END);
    assert_eq!(
        finished, 1000,
        "every game ends, by the safety cap at the latest"
    );
}

#[test]
fn the_seed_draws_the_first_player_of_perimeter_line_battle() {
    for first in Player::BOTH {
        let game = AnyGame::new(Variant::PenteGrammaiPerimeter, first);
        assert_eq!(game.to_move(), first);
        let side = if first == Player::First { 't' } else { 'b' };
        assert_eq!(game.position(), format!("T/T/T/T/T/B/B/B/B/B {side} x:0,0"));
    }
}
