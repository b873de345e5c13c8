//! Feeds arbitrary text to every variant's position parser and, where a position parses, to its
//! move parser; whatever parses must print and read back to the same position. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ludus_engine::{AnyGame, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (position, mv) = text.split_once('\n').unwrap_or((text, ""));
    for variant in Variant::ALL {
        if let Ok(game) = AnyGame::from_position(variant, position, None) {
            let printed = game.position();
            let again = AnyGame::from_position(variant, &printed, game.roll_outside_notation().as_deref())
                .expect("a printed position reads back");
            assert_eq!(again.position(), printed);
            let _ = game.parse_move(mv);
        }
    }
});
