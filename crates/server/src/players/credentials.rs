//! What identifies a player: a validated username, a password hashed with Argon2id, and the
//! secrets handed out (session cookies, personal API tokens), stored only as their SHA-256.

use crate::error::ApiError;
use crate::game::token::random_text;
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// A personal token starts with this, so a Bearer that is a seat token (32 alphanumerics) is
/// never mistaken for one, and the other way round.
pub const PERSONAL_TOKEN_PREFIX: &str = "lp_";

/// A rule of an account's name or password that refused it (400), named in the error body's
/// `refusal` as a rule of play is, so that the client says it in the page's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountRule {
    #[error("a username is 2 to 20 of A-Z a-z 0-9 _ -")]
    UsernameFormat,
    #[error("a password has 8 to 128 characters")]
    PasswordLength,
}

impl AccountRule {
    pub fn name(self) -> &'static str {
        match self {
            AccountRule::UsernameFormat => "username_format",
            AccountRule::PasswordLength => "password_length",
        }
    }
}

/// 2 to 20 of `A–Z a–z 0–9 _ -`; unique without regard to case (the store compares lower case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username(String);

/// Shown in place of a deleted account's name, so nobody may take it.
pub const DELETED: &str = "deleted";

impl FromStr for Username {
    type Err = ApiError;

    fn from_str(text: &str) -> Result<Username, ApiError> {
        let valid = (2..=20).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !valid {
            return Err(ApiError::AccountRule(AccountRule::UsernameFormat));
        }
        if text.eq_ignore_ascii_case(DELETED) {
            return Err(ApiError::Conflict("that username is taken".into()));
        }
        Ok(Username(text.to_string()))
    }
}

impl Username {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A new password: 8 to 128 characters.
#[derive(Clone, PartialEq, Eq)]
pub struct NewPassword(String);

impl fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NewPassword(…)")
    }
}

impl FromStr for NewPassword {
    type Err = ApiError;

    fn from_str(text: &str) -> Result<NewPassword, ApiError> {
        if !(8..=128).contains(&text.chars().count()) {
            return Err(ApiError::AccountRule(AccountRule::PasswordLength));
        }
        Ok(NewPassword(text.to_string()))
    }
}

/// Hashes a password (Argon2id, the crate's default parameters, a random salt) to a PHC string.
/// Slow on purpose: call it off the async threads.
pub fn hash_password(password: &NewPassword) -> String {
    Argon2::default()
        .hash_password(password.0.as_bytes())
        .expect("Argon2 hashes any password of at most 128 characters")
        .to_string()
}

/// Whether `password` matches a stored PHC string. Without one (an unknown user or a deleted
/// account) it checks against a hash of a random password, so both answers take the same time.
pub fn verify_password(password: &str, stored: Option<&str>) -> bool {
    static DUMMY: LazyLock<String> = LazyLock::new(|| hash_password(&NewPassword(new_secret())));
    let (phc, real) = match stored {
        Some(phc) if !phc.is_empty() => (phc, true),
        _ => (DUMMY.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    let matches = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    matches && real
}

/// A new random secret: a session cookie's value (190 bits, as a seat token's).
pub fn new_secret() -> String {
    random_text(32)
}

/// A new id of an account, a token or a challenge (not secret: 12 base-62 characters).
pub fn new_id() -> String {
    random_text(12)
}

/// A new personal API token (shown once; the store keeps its hash).
pub fn new_personal_token() -> String {
    format!("{PERSONAL_TOKEN_PREFIX}{}", new_secret())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_2_to_20_plain_characters() {
        for good in ["ab", "Ann_Lee-2", "x".repeat(20).as_str()] {
            assert!(good.parse::<Username>().is_ok(), "{good}");
        }
        for bad in ["a", "has space", "ünï", "x".repeat(21).as_str(), ""] {
            assert!(
                matches!(
                    bad.parse::<Username>(),
                    Err(ApiError::AccountRule(AccountRule::UsernameFormat))
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            "Deleted".parse::<Username>(),
            Err(ApiError::Conflict(_))
        ));
    }

    #[test]
    fn a_password_verifies_only_against_its_own_hash() {
        let password: NewPassword = "correct horse".parse().unwrap();
        let stored = hash_password(&password);
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", Some(&stored)));
        assert!(!verify_password("wrong horse", Some(&stored)));
        assert!(!verify_password("correct horse", None));
        assert!("short".parse::<NewPassword>().is_err());
        assert!("é".repeat(129).parse::<NewPassword>().is_err());
    }
}
