//! What each variant is, for the variants endpoint and the game pages: names, sides, dice, the
//! board, a rules summary, what is evidence and what is reconstruction, and the sources.

use ludus_engine::duodecim::Face;
use ludus_engine::{FirstPlayer, Side, Variant};
use serde::Serialize;

/// One variant as the variants endpoint describes it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VariantInfo {
    id: &'static str,
    /// The family: "petteia", "pente-grammai" or "duodecim-scripta".
    game: &'static str,
    name: String,
    /// The two sides, first player's seat first.
    #[schema(value_type = Vec<String>)]
    players: [Side; 2],
    /// Dice thrown per roll (0: no dice).
    dice: usize,
    /// The side that moves first, or "seed" when the game's seed draws it.
    first: &'static str,
    board: Board,
    summary: &'static str,
    status: &'static str,
    sources: &'static [&'static str],
}

/// The board's shape, by its kind.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Board {
    Grid {
        files: u8,
        ranks: u8,
    },
    Lines {
        lines: u8,
        points: u8,
        sacred_line: u8,
    },
    Track {
        rows: u8,
        columns: u8,
        /// The faces a board can wear: six words, top row first, left half first (none: plain).
        faces: Vec<BoardFace>,
    },
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BoardFace {
    id: &'static str,
    words: Option<[&'static str; 6]>,
}

/// A variant's id where a request names one (`petteia-6`, …). The field stays text, read with
/// `Variant::from_str` so that an unknown id gets the API's own 400; the document lists the ids
/// the engine knows, so that clients and fuzzers know them too.
#[derive(Debug)]
pub struct VariantId;

impl utoipa::PartialSchema for VariantId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A variant's id, as `GET /api/v1/variants` lists them.",
            ))
            .enum_values(Some(Variant::ALL.iter().map(|variant| variant.id())))
            .into()
    }
}

impl utoipa::ToSchema for VariantId {}

pub fn catalogue() -> Vec<VariantInfo> {
    Variant::ALL.iter().map(|&v| describe(v)).collect()
}

/// Pente Grammai's board: five lines of ten points, the third sacred.
const FIVE_LINES: Board = Board::Lines {
    lines: 5,
    points: 10,
    sacred_line: 3,
};

fn describe(variant: Variant) -> VariantInfo {
    let (game, name, board, summary, status) = match variant {
        Variant::Petteia6 | Variant::Petteia8 => {
            let n = if variant == Variant::Petteia6 { 6 } else { 8 };
            (
                "petteia",
                format!("Petteia {n}×{n}"),
                Board::Grid { files: n, ranks: n },
                "Move a piece like a rook; capture an enemy by closing it between two of yours in a row or column. Win by leaving the opponent at most one piece or no move.",
                "A modern reconstruction: no complete ancient rulebook survives.",
            )
        }
        Variant::PenteGrammaiSchaedler => (
            "pente-grammai",
            "Pente Grammai — Schädler's suggestion".into(),
            FIVE_LINES,
            "Five counters each on the line ends; one die; move exactly, never onto an occupied ordinary point. Gather all five on the opponent-facing end of the sacred line.",
            "Schädler's documented playable suggestion, not a recovery of the ancient rules.",
        ),
        Variant::PenteGrammaiKidd => (
            "pente-grammai",
            "Pente Grammai — Kidd's reconstruction".into(),
            FIVE_LINES,
            "All counters start in reserve; enter on your corner, hit lone enemy counters, build yokes, and gather all five on the holy line.",
            "Kidd's possible reconstruction, resting on inference, not preserved ancient rules.",
        ),
        Variant::PenteGrammaiPerimeter => (
            "pente-grammai",
            "Pente Grammai — Perimeter Line Battle".into(),
            FIVE_LINES,
            "Outnumber the enemy on an ordinary line to pin it; unanswered threats remove the outnumbered counters. Win by moving all five onto the opponent's setup points.",
            "A provisional modern design, not a claimed reconstruction of the ancient game.",
        ),
        Variant::DuodecimScripta => (
            "duodecim-scripta",
            "Duodecim Scripta".into(),
            Board::Track {
                rows: 3,
                columns: 12,
                faces: Face::ALL
                    .iter()
                    .map(|f| BoardFace {
                        id: f.id(),
                        words: f.words(),
                    })
                    .collect(),
            },
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
    VariantInfo {
        id: variant.id(),
        game,
        name,
        players: variant.sides(),
        dice: variant.dice_per_roll(),
        first: match variant.first_player() {
            FirstPlayer::Fixed(p) => variant.side(p).name(),
            FirstPlayer::DrawnFromSeed => "seed",
        },
        board,
        summary,
        status,
        sources,
    }
}
