//! Seeds and noise. Every random choice of the computer player comes from the seed it is given,
//! so a game replays move for move in tests; the server varies play by varying the seed.

use rand::SeedableRng;
use rand::rngs::SmallRng;

/// One step of splitmix64: a well-mixed 64-bit value from any input.
pub(crate) const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator for one decision.
pub(crate) fn generator(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(splitmix64(seed))
}

/// A value in `-amplitude..=amplitude` fixed by the seed and a position's hash: evaluation noise
/// that stays consistent within one search (so the transposition table stays sound) and changes
/// with the seed (so games vary).
pub(crate) fn noise(seed: u64, hash: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (splitmix64(seed ^ hash) % span) as i32 - amplitude
}

/// A seed for one decision from the game's seed and the position's text, so that one game seed
/// gives different (but replayable) choices in different positions.
pub(crate) fn position_seed(seed: u64, position: &str) -> u64 {
    position
        .bytes()
        .fold(splitmix64(seed), |h, b| splitmix64(h ^ b as u64))
}
