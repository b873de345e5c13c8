//! Fixed pseudo-random keys for position hashing, generated at compile time (splitmix64), so
//! hashes are the same in every build and every process.

pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` keys drawn from the stream that starts at `salt`.
pub const fn keys<const N: usize>(salt: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix64(salt.wrapping_mul(0x1000_0000_01B3).wrapping_add(i as u64));
        i += 1;
    }
    out
}
