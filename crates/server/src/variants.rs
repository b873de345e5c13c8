//! What each variant is, for the variants endpoint and the game pages: names, sides, dice, the
//! board, a rules summary, what is evidence and what is reconstruction, and the sources.

use ludus_engine::duodecim::Face;
use ludus_engine::{FirstPlayer, Variant};
use serde_json::{Value, json};

pub fn catalogue() -> Vec<Value> {
    Variant::ALL.iter().map(|&v| describe(v)).collect()
}

fn describe(variant: Variant) -> Value {
    let (game, name, board, summary, status) = match variant {
        Variant::Petteia6 | Variant::Petteia8 => {
            let n = if variant == Variant::Petteia6 { 6 } else { 8 };
            (
                "petteia",
                format!("Petteia {n}×{n}"),
                json!({ "kind": "grid", "files": n, "ranks": n }),
                "Move a piece like a rook; capture an enemy by closing it between two of yours in a row or column. Win by leaving the opponent at most one piece or no move.",
                "A modern reconstruction: no complete ancient rulebook survives.",
            )
        }
        Variant::PenteGrammaiSchaedler => (
            "pente-grammai",
            "Pente Grammai — Schädler's suggestion".into(),
            json!({ "kind": "lines", "lines": 5, "points": 10, "sacred_line": 3 }),
            "Five counters each on the line ends; one die; move exactly, never onto an occupied ordinary point. Gather all five on the opponent-facing end of the sacred line.",
            "Schädler's documented playable suggestion, not a recovery of the ancient rules.",
        ),
        Variant::PenteGrammaiKidd => (
            "pente-grammai",
            "Pente Grammai — Kidd's reconstruction".into(),
            json!({ "kind": "lines", "lines": 5, "points": 10, "sacred_line": 3 }),
            "All counters start in reserve; enter on your corner, hit lone enemy counters, build yokes, and gather all five on the holy line.",
            "Kidd's possible reconstruction, resting on inference, not preserved ancient rules.",
        ),
        Variant::PenteGrammaiPerimeter => (
            "pente-grammai",
            "Pente Grammai — Perimeter Line Battle".into(),
            json!({ "kind": "lines", "lines": 5, "points": 10, "sacred_line": 3 }),
            "Outnumber the enemy on an ordinary line to pin it; unanswered threats remove the outnumbered counters. Win by moving all five onto the opponent's setup points.",
            "A provisional modern design, not a claimed reconstruction of the ancient game.",
        ),
        Variant::DuodecimScripta => (
            "duodecim-scripta",
            "Duodecim Scripta".into(),
            json!({
                "kind": "track",
                "rows": 3,
                "columns": 12,
                // The faces a board can wear: six words, top row first, left half first (none: plain).
                "faces": Face::ALL.iter().map(|f| json!({ "id": f.id(), "words": f.words() })).collect::<Vec<_>>(),
            }),
            "Fifteen pieces each enter from reserve and race along three rows of twelve with three dice; hit lone enemy pieces; bear off all fifteen to win.",
            "Rules after a French description and Ludii's first track; boards with six-letter words are attested, the rules are reconstructed.",
        ),
    };
    let sources: &[&str] = match variant {
        Variant::Petteia6 | Variant::Petteia8 => {
            &["Ancient references to petteia and polis (Plato, Pollux); modern reconstruction"]
        }
        Variant::DuodecimScripta => &[
            "French description of XII scripta (seed text)",
            "CIL XIV 4125 (LEVATE DALOCV board)",
            "Ludii: XII Scripta",
        ],
        _ => &[
            "Schädler's and Kidd's texts as quoted in navpil.github.io posts on Five Lines",
            "Ludii: Pente Grammai.lud",
            "TabletopGames: pentegrammai module",
        ],
    };
    json!({
        "id": variant.id(),
        "game": game,
        "name": name,
        "players": variant.sides(),
        "dice": variant.dice_per_roll(),
        "first": match variant.first_player() {
            FirstPlayer::Fixed(p) => json!(variant.side(p)),
            FirstPlayer::DrawnFromSeed => json!("seed"),
        },
        "board": board,
        "summary": summary,
        "status": status,
        "sources": sources,
    })
}
