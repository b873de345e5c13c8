//! The six variant ids of docs/RULES.md and what the server needs to know about each.

use crate::{Player, Side};
use serde::{Deserialize, Serialize};
use std::{fmt, str::FromStr};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    #[serde(rename = "petteia-6")]
    Petteia6,
    #[serde(rename = "petteia-8")]
    Petteia8,
    #[serde(rename = "pente-grammai-schaedler")]
    PenteGrammaiSchaedler,
    #[serde(rename = "pente-grammai-kidd")]
    PenteGrammaiKidd,
    #[serde(rename = "pente-grammai-perimeter")]
    PenteGrammaiPerimeter,
    #[serde(rename = "duodecim-scripta")]
    DuodecimScripta,
}

/// Who moves first in a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstPlayer {
    /// Always the same player (docs/RULES.md names it).
    Fixed(Player),
    /// The game's seed draws it (docs/RULES.md §4).
    DrawnFromSeed,
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Petteia6,
        Variant::Petteia8,
        Variant::PenteGrammaiSchaedler,
        Variant::PenteGrammaiKidd,
        Variant::PenteGrammaiPerimeter,
        Variant::DuodecimScripta,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Variant::Petteia6 => "petteia-6",
            Variant::Petteia8 => "petteia-8",
            Variant::PenteGrammaiSchaedler => "pente-grammai-schaedler",
            Variant::PenteGrammaiKidd => "pente-grammai-kidd",
            Variant::PenteGrammaiPerimeter => "pente-grammai-perimeter",
            Variant::DuodecimScripta => "duodecim-scripta",
        }
    }

    /// The sides in the variant's order: index 0 is [`Player::First`].
    pub fn sides(self) -> [Side; 2] {
        match self {
            Variant::Petteia6 | Variant::Petteia8 => [Side::Light, Side::Dark],
            Variant::PenteGrammaiSchaedler
            | Variant::PenteGrammaiKidd
            | Variant::PenteGrammaiPerimeter => [Side::Terracotta, Side::Black],
            Variant::DuodecimScripta => [Side::White, Side::Black],
        }
    }

    pub fn side(self, player: Player) -> Side {
        self.sides()[player.index()]
    }

    pub fn player(self, side: Side) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| self.side(p) == side)
    }

    /// How many dice one roll throws (0 for a game without dice).
    pub fn dice_per_roll(self) -> usize {
        match self {
            Variant::Petteia6 | Variant::Petteia8 => 0,
            Variant::PenteGrammaiSchaedler
            | Variant::PenteGrammaiKidd
            | Variant::PenteGrammaiPerimeter => 1,
            Variant::DuodecimScripta => 3,
        }
    }

    pub fn first_player(self) -> FirstPlayer {
        match self {
            Variant::PenteGrammaiPerimeter | Variant::DuodecimScripta => FirstPlayer::DrawnFromSeed,
            _ => FirstPlayer::Fixed(Player::First),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant {0:?}; the variants are petteia-6, petteia-8, pente-grammai-schaedler, pente-grammai-kidd, pente-grammai-perimeter, duodecim-scripta"
)]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.id() == s)
            .ok_or_else(|| UnknownVariant(s.chars().take(64).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_unknown_ids_are_refused() {
        for v in Variant::ALL {
            assert_eq!(v.id().parse::<Variant>(), Ok(v));
        }
        assert!("chess".parse::<Variant>().is_err());
    }

    #[test]
    fn side_names_map_to_players() {
        assert_eq!(Variant::Petteia8.player(Side::Dark), Some(Player::Second));
        assert_eq!(
            Variant::DuodecimScripta.player(Side::White),
            Some(Player::First)
        );
        assert_eq!(Variant::Petteia6.player(Side::White), None);
    }
}
