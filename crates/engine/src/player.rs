//! The two players of every game, and the names their sides go by.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the two players, in the order the variant lists its sides (docs/RULES.md's table):
/// `First` is Light, Terracotta or White. Who *moves* first is a separate matter: in Perimeter
/// Line Battle and Duodecim Scripta the game's seed draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: for arrays indexed by player.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A side's public name, as it appears in JSON (`light`, `terracotta`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Light,
    Dark,
    Terracotta,
    Black,
    White,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Light => "light",
            Side::Dark => "dark",
            Side::Terracotta => "terracotta",
            Side::Black => "black",
            Side::White => "white",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
