//! Live games: the vocabulary (modes, seats, settings), the event log's shape, the pure state
//! machine that replays and decides events, the per-game actor, and the registry of actors.

pub mod actor;
pub mod clock;
pub mod event;
pub mod live;
pub mod registry;
pub mod token;
pub mod view;

use ludus_engine::{Player, Side, Variant};
use serde::{Deserialize, Serialize};

/// How the two seats are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Two people, the second invited by link.
    Online,
    /// One person against the computer.
    Computer,
    /// Two people sharing one screen: one token plays both sides.
    Local,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Online => "online",
            Mode::Computer => "computer",
            Mode::Local => "local",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Online, before the invite is redeemed.
    Waiting,
    Playing,
    Finished,
    Aborted,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        [
            Status::Waiting,
            Status::Playing,
            Status::Finished,
            Status::Aborted,
        ]
        .into_iter()
        .find(|s| s.name() == text)
    }

    pub fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Aborted)
    }
}

/// Base time and increment, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ClockSettings {
    pub initial_ms: u64,
    pub increment_ms: u64,
}

/// What a game was created with; stored as JSON in the game's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub clock: Option<ClockSettings>,
    /// The computer's level (computer games).
    pub level: Option<u8>,
    /// The creator's seat.
    pub creator: PlayerIndex,
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
