//! Random identifiers and secrets: game ids, seat tokens and invite codes. A secret is kept by
//! the store only as its hash (`SecretHash`): the database never holds a usable one.

use super::GameId;
use ludus_store::SecretHash;
use rand::Rng;
use std::fmt;

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// The length of a seat token or invite code: 32 base-62 characters (190 bits).
const SECRET_LEN: usize = 32;

/// `len` characters from the operating system's cryptographic generator (via `rand::rng`).
pub(crate) fn random_text(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A new game id: 12 base-62 characters (71 bits), short enough for a URL.
pub fn new_game_id() -> GameId {
    random_text(12).parse().expect("base-62 text is a game id")
}

/// Declares a secret type: random when new, parsed from what a request presents, hashed to be
/// stored or compared. Its `Debug` does not show it (logs never hold a usable secret).
macro_rules! secret {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            pub fn new() -> $name {
                $name(random_text(SECRET_LEN))
            }

            /// The secret a request presents, if it has the form of one.
            pub fn parse(text: &str) -> Option<$name> {
                (text.len() == SECRET_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric()))
                    .then(|| $name(text.to_string()))
            }

            /// What the store keeps and compares.
            pub fn hash(&self) -> SecretHash {
                SecretHash::of(&self.0)
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl Default for $name {
            fn default() -> $name {
                $name::new()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($name), "(…)"))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

secret! {
    /// The bearer secret of a seat: whoever presents it plays that seat.
    SeatToken
}

secret! {
    /// The secret of an online game's invite: redeeming it takes the other seat, once.
    InviteCode
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_distinct_and_stored_hashed() {
        let (a, b) = (SeatToken::new(), SeatToken::new());
        assert_ne!(a, b);
        assert_eq!(SeatToken::parse(a.as_str()), Some(a.clone()));
        assert_ne!(a.hash().as_str(), a.as_str());
        assert_eq!(SeatToken::parse("short"), None);
        assert!(!format!("{a:?}").contains(a.as_str()), "Debug hides it");
    }
}
