//! Dice from a seed, exactly as docs/RULES.md §4 says, so that anyone can re-derive every die of a game.
//!
//! `seed = SHA-256("ludus-dice-v1" || server_seed || SHA-256(creator) || SHA-256(joiner))`;
//! die k is the first four bytes of `HMAC-SHA256(seed, "die" || u64_be(k) || u32_be(attempt))` read
//! big-endian, rejected while ≥ 4294967292 (so that `mod 6` is unbiased), then `x mod 6 + 1`.

use crate::Player;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// The largest multiple of 6 that fits in a u32: values at or above it are rejected.
const REJECT_FROM: u32 = 4_294_967_292;

/// 32 secret bytes drawn by the server when a game is created; revealed when the game ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ServerSeed(pub [u8; 32]);

/// The seed every die of one game derives from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Seed(pub [u8; 32]);

// Debug never prints the bytes: a seed in a log line would let a reader foresee every die.
impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServerSeed(..)")
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(..)")
    }
}

impl ServerSeed {
    /// `SHA-256(server_seed)`, published when the game is created.
    pub fn commitment(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// The game's seed from this server seed and the players' entropy strings ("" when absent).
    pub fn game_seed(&self, creator_entropy: &str, joiner_entropy: &str) -> Seed {
        let mut hasher = Sha256::new();
        hasher.update(b"ludus-dice-v1");
        hasher.update(self.0);
        hasher.update(Sha256::digest(creator_entropy.as_bytes()));
        hasher.update(Sha256::digest(joiner_entropy.as_bytes()));
        Seed(hasher.finalize().into())
    }
}

impl Seed {
    fn hmac(&self, message: &[&[u8]]) -> [u8; 32] {
        let mut mac =
            HmacSha256::new_from_slice(&self.0).expect("HMAC accepts a key of any length");
        for part in message {
            mac.update(part);
        }
        mac.finalize().into_bytes().into()
    }

    /// Die number `k` of the game (every die counted from 0), a face 1–6.
    pub fn die(&self, k: u64) -> u8 {
        let mut attempt: u32 = 0;
        loop {
            let digest = self.hmac(&[b"die", &k.to_be_bytes(), &attempt.to_be_bytes()]);
            let x = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
            if x < REJECT_FROM {
                return (x % 6 + 1) as u8;
            }
            attempt += 1;
        }
    }

    /// `count` dice starting at die number `first`.
    pub fn dice(&self, first: u64, count: usize) -> Vec<u8> {
        (first..first + count as u64).map(|k| self.die(k)).collect()
    }

    /// The player who moves first where the seed draws it: the low bit of the first byte of
    /// `HMAC-SHA256(seed, "first")`, 0 for the first-listed side.
    pub fn first_player(&self) -> Player {
        if self.hmac(&[b"first"])[0] & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
}

/// Lower-case hex, the form seeds and commitments take in records and the API.
pub fn to_hex(bytes: &[u8]) -> String {
    // By table, into one buffer: a seat token's hash is written at every request (a `format!`
    // per byte was a string allocated per byte).
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        hex.push(DIGITS[usize::from(b >> 4)] as char);
        hex.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    hex
}

/// Reads exactly 32 bytes of hex (either case).
pub fn from_hex(text: &str) -> Option<[u8; 32]> {
    let text = text.as_bytes();
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks(2).enumerate() {
        let digit = |c: u8| (c as char).to_digit(16);
        out[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Golden values computed independently of this code (issue #2).
    fn counting_seed() -> ServerSeed {
        ServerSeed(std::array::from_fn(|i| i as u8))
    }

    #[test]
    fn commitment_seed_and_dice_match_the_golden_values() {
        let server = counting_seed();
        assert_eq!(
            to_hex(&server.commitment()),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        let seed = server.game_seed("alice", "bob");
        assert_eq!(
            to_hex(&seed.0),
            "35c085ab3ce05e73928bf2dd5585aa9f56c9301ef789dd1fe6865b5ebcf3df21"
        );
        assert_eq!(
            seed.dice(0, 20),
            [3, 2, 4, 4, 1, 4, 5, 3, 3, 2, 3, 5, 6, 3, 5, 1, 2, 1, 3, 4]
        );
        assert_eq!(seed.first_player(), Player::First);
    }

    #[test]
    fn empty_entropies_match_the_golden_values() {
        let seed = counting_seed().game_seed("", "");
        assert_eq!(
            to_hex(&seed.0),
            "612f07db544853378408b2b36be64fd6e1d2c55ef8ccb7864a012e501b31a3c0"
        );
        assert_eq!(seed.dice(0, 10), [5, 6, 6, 4, 5, 4, 6, 2, 3, 5]);
    }

    #[test]
    fn hex_round_trips_and_rejects_bad_text() {
        let bytes = counting_seed().0;
        assert_eq!(from_hex(&to_hex(&bytes)), Some(bytes));
        assert_eq!(from_hex("zz"), None);
        assert_eq!(from_hex(&"g".repeat(64)), None);
    }
}
