//! Property tests: the Petteia parsers never panic on any input, and what they print they read back.

use ludus_engine::petteia::{Board, Petteia, Position, Size};
use ludus_engine::{AnyGame, Player, Variant};
use proptest::prelude::*;

fn any_position() -> impl Strategy<Value = Position> {
    (
        any::<bool>(),
        any::<u64>(),
        any::<u64>(),
        any::<bool>(),
        0u32..200,
        1u32..500,
    )
        .prop_map(|(eight, a, b, light, quiet, number)| {
            let size = if eight { Size::Eight } else { Size::Six };
            let light_pieces = a & size.squares();
            let dark_pieces = b & size.squares() & !light_pieces;
            let to_move = if light { Player::First } else { Player::Second };
            Position::new(
                Board {
                    size,
                    pieces: [light_pieces, dark_pieces],
                },
                to_move,
                quiet,
                number,
            )
        })
}

proptest! {
    #[test]
    fn positions_round_trip(position in any_position()) {
        let text = position.to_string();
        let read = Position::parse(&text).unwrap();
        prop_assert_eq!(read, position);
        prop_assert_eq!(read.to_string(), text);
    }

    #[test]
    fn the_position_parser_never_panics(text in "\\PC{0,80}") {
        let _ = Position::parse(&text);
        for variant in [Variant::Petteia6, Variant::Petteia8] {
            let _ = AnyGame::from_position(variant, &text, None);
        }
    }

    #[test]
    fn position_like_text_never_panics(text in "[LD1-9/]{0,70} [ldx]( [0-9]{1,12}){0,3}") {
        let _ = Position::parse(&text);
    }

    #[test]
    fn the_move_parser_never_panics(text in "\\PC{0,30}", eight in any::<bool>()) {
        let game = Petteia::new(if eight { Size::Eight } else { Size::Six });
        let _ = game.parse_move(&text);
    }

    #[test]
    fn move_like_text_never_panics(text in "[a-hA-H][0-9]{1,3}( |-|->|→)?[a-hA-H][0-9]{1,3}(x[A-H0-9, ]{0,10})?") {
        let _ = Petteia::new(Size::Eight).parse_move(&text);
    }

    #[test]
    fn listed_moves_round_trip_through_their_notation(position in any_position()) {
        let game = Petteia::from_position(position);
        let mut moves = Vec::new();
        ludus_engine::Game::legal_moves(&game, &mut moves);
        for mv in moves {
            prop_assert_eq!(game.parse_move(&mv.to_string()).unwrap().unwrap(), mv);
        }
    }
}
