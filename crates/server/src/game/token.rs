//! Random identifiers and secrets: game ids, seat tokens and invite codes, and the hash under
//! which tokens and invites are stored (the database never holds a usable secret).

use rand::Rng;
use sha2::{Digest, Sha256};

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` characters from the operating system's cryptographic generator (via `rand::rng`).
fn random_text(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A game id: 12 base-62 characters (71 bits), short enough for a URL.
pub fn new_game_id() -> String {
    random_text(12)
}

/// A seat token or invite code: 32 base-62 characters (190 bits).
pub fn new_secret() -> String {
    random_text(32)
}

/// The stored form of a token or invite code.
pub fn hash_secret(secret: &str) -> String {
    ludus_engine::dice::to_hex(&Sha256::digest(secret.as_bytes()))
}

/// A plausible token: what a request may present before it is hashed and compared.
pub fn looks_like_secret(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_distinct_and_stored_hashed() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(looks_like_secret(&a));
        assert_eq!(hash_secret(&a).len(), 64);
        assert_ne!(hash_secret(&a), a);
        assert!(!looks_like_secret("short"));
    }
}
