//! Live games: the vocabulary (modes, seats, settings), the event log's shape, the pure state
//! machine that replays and decides events, the per-game actor, and the registry of actors.
//!
//! The modules depend on each other in one direction: `live` (pure rules), `instance` (this
//! instance among others) ← `services` (what actors share) ← `restore` (a game from the store) ←
//! `actor` ← `registry` (finds actors) ← `cluster` (heartbeat, takeovers, notifications).

pub mod actor;
pub mod clock;
pub mod cluster;
pub mod error;
pub mod event;
pub mod instance;
pub(crate) mod json;
pub mod live;
pub mod registry;
pub mod restore;
pub mod services;
pub mod token;
pub mod view;

pub use ludus_store::{GameId, Mode, Status};

use ludus_ai::Level;
use ludus_engine::{Player, Side, Variant};
use serde::{Deserialize, Serialize};

/// Base time and increment, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// 1 s to 3 h.
    #[schema(minimum = 1000, maximum = 10800000)]
    pub initial_ms: u64,
    /// At most 3 min.
    #[schema(maximum = 180000)]
    pub increment_ms: u64,
}

/// What a game was created with; stored as JSON in the game's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub clock: Option<ClockSettings>,
    /// The computer's level: set in computer games, and only there.
    #[serde(with = "level_number")]
    pub level: Option<Level>,
    /// The creator's seat.
    pub creator: PlayerIndex,
}

/// A level stored as its number, 1 to 5.
mod level_number {
    use ludus_ai::Level;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(level: &Option<Level>, s: S) -> Result<S::Ok, S::Error> {
        match level {
            Some(level) => s.serialize_some(&level.number()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Level>, D::Error> {
        Option::<u8>::deserialize(d)?
            .map(|n| Level::new(n).ok_or_else(|| D::Error::custom(format!("no level {n}"))))
            .transpose()
    }
}

/// A player stored as 0 or 1 (the variant's order of sides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub struct PlayerIndex(pub Player);

impl From<PlayerIndex> for u8 {
    fn from(p: PlayerIndex) -> u8 {
        p.0.index() as u8
    }
}

impl TryFrom<u8> for PlayerIndex {
    type Error = String;
    fn try_from(i: u8) -> Result<PlayerIndex, String> {
        match i {
            0 => Ok(PlayerIndex(Player::First)),
            1 => Ok(PlayerIndex(Player::Second)),
            _ => Err(format!("a player index is 0 or 1, not {i}")),
        }
    }
}

/// Who a request or socket speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// One side's player.
    Player(Player),
    /// The one token of a game on a shared screen: both sides.
    Both,
    /// No rights: watches.
    Spectator,
}

impl Seat {
    /// Whether this seat may act for `player`.
    pub fn speaks_for(self, player: Player) -> bool {
        match self {
            Seat::Player(p) => p == player,
            Seat::Both => true,
            Seat::Spectator => false,
        }
    }

    /// The side this seat is shown as: its own, or the first side for a shared screen.
    pub fn side(self, variant: Variant) -> Option<Side> {
        match self {
            Seat::Player(p) => Some(variant.side(p)),
            Seat::Both => Some(variant.side(Player::First)),
            Seat::Spectator => None,
        }
    }
}
