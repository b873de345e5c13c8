//! Property tests of Duodecim Scripta's notation: the parsers never panic, whatever the input,
//! and every position and move prints to a text that reads back as itself.

use ludus_engine::duodecim::{Dice, Move, MoveText, Origin, Position, Step};
use ludus_engine::{AnyGame, Variant};
use proptest::prelude::*;

/// Text close to the notation, so that the parsers get past their first checks.
fn near_position() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        Just(".".to_string()),
        "[0-9]{0,3}[wbWBx]".prop_map(|s| s),
        ".{0,3}".prop_map(|s| s),
    ];
    let row = prop::collection::vec(cell, 0..14).prop_map(|cells| cells.join(","));
    let field = prop_oneof![
        "r:[0-9]{0,3},[0-9]{0,3}",
        "o:[0-9]{0,3},[0-9]{0,3}",
        "dice:\\[[0-9,]{0,8}\\]",
        "bonus:\\[[0-9,]{0,8}\\]",
        "[a-z]{0,6}:.{0,6}",
    ];
    (
        prop::collection::vec(row, 0..5),
        "[wbWBx ]{0,2}",
        prop::collection::vec(field, 0..7),
    )
        .prop_map(|(rows, side, fields)| format!("{} {side} {}", rows.join("/"), fields.join(" ")))
}

fn near_move() -> impl Strategy<Value = String> {
    let place = "([RrOo]|[TMBtmbX][0-9]{0,3}|.{0,2})";
    ("([0-9]{0,2}:)?", place, "[-*>]{0,2}", place, "[*]{0,2}")
        .prop_map(|(die, from, sep, to, mark)| format!("{die}{from}{sep}{to}{mark}"))
}

/// A valid position: each player's fifteen pieces spread over reserve (0), the steps (1–36) and
/// off (37); a step claimed by both keeps White's pieces and sends Black's to reserve.
fn position() -> impl Strategy<Value = String> {
    let places = || prop::collection::vec(0u8..=37, 15);
    let dice = || prop::collection::vec(1u8..=6, 0..=3);
    (
        places(),
        places(),
        any::<bool>(),
        dice(),
        dice(),
        any::<bool>(),
    )
        .prop_map(|(white, black, black_to_move, dice, bonus, use_bonus)| {
            let mut counts = [[0u8; 38]; 2];
            for &place in &white {
                counts[0][place as usize] += 1;
            }
            for &place in &black {
                let place = if (1..=36).contains(&place) && counts[0][place as usize] > 0 {
                    0
                } else {
                    place
                };
                counts[1][place as usize] += 1;
            }
            let rows = ["T", "M", "B"].map(|row| {
                (1..=12)
                    .map(|column| {
                        let step = Step::parse(&format!("{row}{column}")).unwrap().get() as usize;
                        match (counts[0][step], counts[1][step]) {
                            (0, 0) => ".".to_string(),
                            (w, 0) => format!("{w}w"),
                            (_, b) => format!("{b}b"),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            });
            let list = |d: &[u8]| {
                d.iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let (dice, bonus) = if use_bonus {
                (Vec::new(), bonus)
            } else {
                (dice, Vec::new())
            };
            format!(
                "{} {} r:{},{} o:{},{} dice:[{}] bonus:[{}]",
                rows.join("/"),
                if black_to_move { "b" } else { "w" },
                counts[0][0],
                counts[1][0],
                counts[0][37],
                counts[1][37],
                list(&dice),
                list(&bonus)
            )
        })
}

fn a_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        Just(Move::Decline),
        (1u8..=6).prop_map(|die| Move::Play {
            die,
            from: Origin::Reserve
        }),
        (1u8..=6, 1u8..=36).prop_map(|(die, step)| Move::Play {
            die,
            from: Origin::Route(Step::new(step).unwrap())
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_position_parser_never_panics(text in prop_oneof![near_position(), ".{0,700}"]) {
        let _ = Position::parse(&text);
        let _ = AnyGame::from_position(Variant::DuodecimScripta, &text, Some(&[1, 2, 3]));
    }

    #[test]
    fn the_move_parser_never_panics(text in prop_oneof![near_move(), ".{0,700}"], position in position()) {
        let _ = MoveText::parse(&text);
        let game = AnyGame::from_position(Variant::DuodecimScripta, &position, None).unwrap();
        let _ = game.parse_move(&text);
    }

    #[test]
    fn positions_round_trip(text in position()) {
        let position = Position::parse(&text).unwrap();
        prop_assert_eq!(position.to_string(), text.clone());
        let game = AnyGame::from_position(Variant::DuodecimScripta, &text, None).unwrap();
        let again = AnyGame::from_position(Variant::DuodecimScripta, &game.position(), None).unwrap();
        prop_assert_eq!(again.position(), game.position());
    }

    #[test]
    fn moves_round_trip(mv in a_move(), dice in prop::collection::vec(1u8..=6, 0..=3)) {
        let text = mv.to_string();
        let read = MoveText::parse(&text).unwrap().resolve(Dice::new(&dice).unwrap());
        prop_assert_eq!(read, Ok(mv));
        let marked = MoveText::parse(&format!("{text}*")).unwrap();
        prop_assert_eq!(marked, MoveText::parse(&text).unwrap());
    }
}
