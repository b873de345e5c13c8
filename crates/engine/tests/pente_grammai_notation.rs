//! Property tests of Pente Grammai's notation: no input makes a parser panic, and whatever parses
//! prints back to text that parses to the same value.

use ludus_engine::pente_grammai::{MoveText, Position, Rules};
use ludus_engine::{AnyGame, Variant};
use proptest::prelude::*;

const RULES: [Rules; 3] = [Rules::Schaedler, Rules::Kidd, Rules::Perimeter];

/// Text made of the notation's own characters, so that much of it comes close to parsing.
fn notation_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[TBtb0-9/ :,@rhxRHXpas\\-]{0,80}").expect("a valid regex")
}

fn check_position_text(text: &str) {
    for rules in RULES {
        if let Ok(position) = Position::parse(rules, text) {
            let printed = position.to_string();
            let again = Position::parse(rules, &printed).expect("printed positions parse");
            assert_eq!(again, position);
            assert_eq!(again.to_string(), printed);
        }
        let _ = AnyGame::from_position(rules.variant(), text, Some(&[3]));
    }
}

fn check_move_text(text: &str) {
    if let Ok(mv) = MoveText::parse(text) {
        let printed = mv.to_string();
        assert_eq!(MoveText::parse(&printed), Ok(mv));
    }
    let mut game = AnyGame::new(Variant::PenteGrammaiKidd, ludus_engine::Player::First);
    let _ = game.parse_move(text);
    game.roll(&[4]).unwrap();
    let _ = game.parse_move(text);
}

/// A position with five counters of each player spread over the ten points and the off-board
/// zone of Perimeter (removed), written in the notation; every such position is legal there.
fn perimeter_position() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(0usize..11, 5),
        proptest::collection::vec(0usize..11, 5),
        any::<bool>(),
    )
        .prop_map(|(terracotta, black, black_to_move)| {
            let mut counts = [[0u8; 11]; 2];
            for (player, places) in [terracotta, black].iter().enumerate() {
                for &place in places {
                    counts[player][place] += 1;
                }
            }
            let points: Vec<String> = (0..10)
                .map(|p| match (counts[0][p], counts[1][p]) {
                    (0, 0) => "-".to_string(),
                    (t, b) => format!(
                        "{}{}",
                        if t > 0 {
                            format!("{t}T")
                        } else {
                            String::new()
                        },
                        if b > 0 {
                            format!("{b}B")
                        } else {
                            String::new()
                        }
                    ),
                })
                .collect();
            let side = if black_to_move { 'b' } else { 't' };
            format!(
                "{} {side} x:{},{}",
                points.join("/"),
                counts[0][10],
                counts[1][10]
            )
        })
}

proptest! {
    #[test]
    fn no_text_makes_the_position_parser_panic(text in any::<String>()) {
        check_position_text(&text);
    }

    #[test]
    fn notation_like_positions_round_trip_when_they_parse(text in notation_like()) {
        check_position_text(&text);
    }

    #[test]
    fn no_text_makes_the_move_parser_panic(text in any::<String>()) {
        check_move_text(&text);
    }

    #[test]
    fn notation_like_moves_round_trip_when_they_parse(text in notation_like()) {
        check_move_text(&text);
    }

    #[test]
    fn every_perimeter_position_round_trips(text in perimeter_position()) {
        let position = Position::parse(Rules::Perimeter, &text).expect("five counters a side");
        let printed = position.to_string();
        prop_assert_eq!(Position::parse(Rules::Perimeter, &printed), Ok(position));
    }

    #[test]
    fn every_written_move_round_trips(
        die in 1u8..=6,
        from in prop_oneof![
            (0u8..10).prop_map(|p| p.to_string()),
            Just("R".to_string()),
            Just("H".to_string()),
            Just("X".to_string()),
        ],
        to in 0u8..10,
        pass in any::<bool>(),
    ) {
        let text = if pass { format!("{die}:pass") } else { format!("{die}:{from}-{to}") };
        prop_assert_eq!(MoveText::parse(&text).expect("well-formed").to_string(), text);
    }
}
