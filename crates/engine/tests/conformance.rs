//! The conformance positions of an independent implementation of docs/RULES.md (copied into
//! `tests/data/conformance`): for every line, the legal moves and the outcome must agree exactly.

use ludus_engine::{AnyGame, Variant};
use serde_json::Value;

fn check_file(name: &str, lines: &str) {
    for (number, line) in lines
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Value = serde_json::from_str(line).expect("conformance lines are JSON");
        let variant: Variant = case["variant"].as_str().unwrap().parse().unwrap();
        let position = case["position"].as_str().unwrap();
        let dice: Option<Vec<u8>> = case.get("dice").map(|d| {
            d.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u8)
                .collect()
        });
        let at = format!("{name}:{} {position}", number + 1);
        let game = AnyGame::from_position(variant, position, dice.as_deref())
            .unwrap_or_else(|e| panic!("{at}: does not parse: {e}"));
        let mut expected: Vec<String> = case["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        expected.sort();
        let in_order: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            game.legal_notations(),
            in_order,
            "{at}: the notations of the legal moves, in their order"
        );
        let mut actual = in_order;
        actual.sort();
        assert_eq!(actual, expected, "{at}: legal moves");
        let outcome = game.outcome().map(|o| {
            serde_json::json!({
                "winner": o.winner.map(|p| variant.side(p)),
                "termination": o.termination,
            })
        });
        assert_eq!(
            outcome.unwrap_or(Value::Null),
            case["outcome"],
            "{at}: outcome"
        );
    }
}

macro_rules! conformance {
    ($($test:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            check_file($file, include_str!(concat!("data/conformance/", $file)));
        }
    )*};
}

conformance! {
    petteia_6_agrees_with_the_conformance_positions => "petteia-6.jsonl",
    petteia_8_agrees_with_the_conformance_positions => "petteia-8.jsonl",
    pente_grammai_schaedler_agrees_with_the_conformance_positions => "pente-grammai-schaedler.jsonl",
    pente_grammai_kidd_agrees_with_the_conformance_positions => "pente-grammai-kidd.jsonl",
    pente_grammai_perimeter_agrees_with_the_conformance_positions => "pente-grammai-perimeter.jsonl",
    duodecim_scripta_agrees_with_the_conformance_positions => "duodecim-scripta.jsonl",
}
