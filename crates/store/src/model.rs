//! The values the store speaks in, shared with the server: a game's id, the hash under which a
//! secret (seat token, invite code) is kept, how a game's seats are filled and where it stands.
//! Parsed once at the edge; inside, a `GameId` is never confused with a hash or a notation.

use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// A game's public id: what its URLs carry (1 to 64 letters and digits). Shared text: an id is
/// cloned into every command, append and copy of a game, at every move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct GameId(Arc<str>);

impl GameId {
    pub const MAX_LEN: usize = 64;
    /// The rule of `from_str` as a regular expression (the OpenAPI document's pattern).
    pub const PATTERN: &'static str = "^[0-9A-Za-z]{1,64}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A map keyed by ids is searched with the id's text (the derived `Hash` hashes the text alone,
/// as `str` does).
impl std::borrow::Borrow<str> for GameId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// Where the next page of a listing newest first begins: after the game listed last, so games
/// that ended (or began) in the same millisecond are neither skipped nor listed twice. Within a
/// millisecond the listings order games by id, descending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageAfter {
    /// The last game's time in the listing's order (milliseconds).
    pub at: i64,
    /// The last game's id; without it the page holds only games strictly earlier than `at`.
    pub game_id: Option<GameId>,
}

impl PageAfter {
    /// The start of a listing: every game.
    pub const START: PageAfter = PageAfter {
        at: i64::MAX,
        game_id: None,
    };

    /// The id bound of the query's `time < at OR (time = at AND id < bound)`: an empty text,
    /// which no id is below, when no id was given.
    pub(crate) fn id_bound(&self) -> &str {
        self.game_id.as_ref().map_or("", GameId::as_str)
    }
}

/// Text that cannot be the id (or a hash) it was given as.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} {text:?} is malformed")]
pub struct Malformed {
    what: &'static str,
    text: String,
}

impl FromStr for GameId {
    type Err = Malformed;

    fn from_str(text: &str) -> Result<GameId, Malformed> {
        let valid = (1..=GameId::MAX_LEN).contains(&text.len())
            && text.bytes().all(|b| b.is_ascii_alphanumeric());
        if valid {
            Ok(GameId(text.into()))
        } else {
            Err(Malformed {
                what: "a game id",
                text: text.chars().take(GameId::MAX_LEN).collect(),
            })
        }
    }
}

impl TryFrom<String> for GameId {
    type Error = Malformed;
    fn try_from(text: String) -> Result<GameId, Malformed> {
        text.parse()
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.0.to_string()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The SHA-256 of a secret, in hex: the database never holds a usable seat token or invite.
/// Shared text: a seat's hash goes with every action it sends.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SecretHash(Arc<str>);

impl SecretHash {
    /// The hash of `secret`.
    pub fn of(secret: &str) -> SecretHash {
        use sha2::{Digest, Sha256};
        SecretHash(ludus_engine::dice::to_hex(&Sha256::digest(secret.as_bytes())).into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for SecretHash {
    type Err = Malformed;

    fn from_str(text: &str) -> Result<SecretHash, Malformed> {
        if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(SecretHash(text.into()))
        } else {
            Err(Malformed {
                what: "a secret's hash",
                text: text.chars().take(64).collect(),
            })
        }
    }
}

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

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Online, before the invite is redeemed.
    Waiting,
    Playing,
    Finished,
    Aborted,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Online, Mode::Computer, Mode::Local];

    /// The name its JSON and its column use (`parse_name` reads it back).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Online => "online",
            Mode::Computer => "computer",
            Mode::Local => "local",
        }
    }
}

impl Status {
    pub const ALL: [Status; 4] = [
        Status::Waiting,
        Status::Playing,
        Status::Finished,
        Status::Aborted,
    ];

    /// The name its JSON and its column use (`parse_name` reads it back).
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    pub fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Aborted)
    }
}

/// A name of an enum that none of its values has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnknownName(String);

/// Reads an enum from its name, as its serde derive names it: the one way names are parsed,
/// whether they come from JSON, a query string or a database column.
pub fn parse_name<T: DeserializeOwned>(text: &str) -> Result<T, UnknownName> {
    T::deserialize(text.into_deserializer())
        .map_err(|e: serde::de::value::Error| UnknownName(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_ids_pattern_says_what_its_parser_takes() {
        assert!(GameId::PATTERN.contains(&format!("{{1,{}}}", GameId::MAX_LEN)));
        for good in ["a", "Z9", &"x".repeat(GameId::MAX_LEN)] {
            assert!(good.parse::<GameId>().is_ok(), "{good}");
        }
        for bad in ["", "a-b", "é", &"x".repeat(GameId::MAX_LEN + 1)] {
            assert!(bad.parse::<GameId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn names_read_back_as_the_values_they_name() {
        for mode in Mode::ALL {
            assert_eq!(parse_name::<Mode>(mode.name()), Ok(mode));
        }
        for status in Status::ALL {
            assert_eq!(parse_name::<Status>(status.name()), Ok(status));
        }
        assert!(parse_name::<Status>("over").is_err());
    }

    #[test]
    fn game_ids_are_short_alphanumeric_text() {
        assert_eq!("abc123".parse::<GameId>().unwrap().as_str(), "abc123");
        assert!("".parse::<GameId>().is_err());
        assert!("a/b".parse::<GameId>().is_err());
        assert!("x".repeat(65).parse::<GameId>().is_err());
    }

    #[test]
    fn a_secret_is_kept_as_its_sha256() {
        let hash = SecretHash::of("abc");
        assert_eq!(
            hash.as_str(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hash.as_str().parse::<SecretHash>(), Ok(hash));
    }
}
