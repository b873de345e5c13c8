//! Perft golden values: the number of move sequences of each length from the start positions and
//! the docs/RULES.md test-vector positions. Any change to the rules or the move generator changes them.
//! Depths 1–3 were confirmed by the naive implementation in `petteia_reference.rs`.

use ludus_engine::{AnyGame, Variant};

const PETTEIA: &[(Variant, &str, [u64; 4])] = &[
    (
        Variant::Petteia6,
        "DDDDDD/6/6/6/6/LLLLLL l",
        [24, 516, 14_284, 373_748],
    ),
    (
        Variant::Petteia8,
        "DDDDDDDD/8/8/8/8/8/8/LLLLLLLL l",
        [48, 2_136, 112_874, 5_673_664],
    ),
    (
        Variant::Petteia6,
        "4DD/6/L5/2D3/2L3/6 l",
        [16, 341, 5_519, 125_799],
    ),
    (
        Variant::Petteia6,
        "6/3L2/3D2/1LD1DL/6/3L2 l",
        [24, 459, 11_775, 228_766],
    ),
    (
        Variant::Petteia6,
        "5D/6/6/1DDL2/6/L5 l",
        [17, 363, 5_802, 134_915],
    ),
    (
        Variant::Petteia6,
        "DDD3/6/6/6/1D1D2/2L2L l",
        [15, 421, 6_281, 190_109],
    ),
    (
        Variant::Petteia6,
        "DDD3/6/6/1L4/6/D4L l",
        [18, 392, 6_495, 157_346],
    ),
];

#[test]
fn petteia_perft_matches_the_golden_values() {
    for &(variant, position, counts) in PETTEIA {
        let game = AnyGame::from_position(variant, position, None).unwrap();
        for (depth, &expected) in (1..).zip(&counts) {
            assert_eq!(
                game.perft(depth, &[]).unwrap(),
                expected,
                "{position} at depth {depth}"
            );
        }
    }
}
