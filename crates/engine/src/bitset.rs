//! Choosing a member of a bit set by its rank, which the random playouts of every game do once a
//! ply. Without `popcnt` (the release build targets baseline x86-64) clearing the lowest bit k
//! times costs k rounds and a mispredicted loop exit; counting the bits per byte first finds the
//! k-th in a fixed number of steps.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// `RANK_IN_BYTE[byte][k]`: the position of the k-th lowest set bit of `byte` (0 past its last).
static RANK_IN_BYTE: [[u8; 8]; 256] = rank_in_byte();

const fn rank_in_byte() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

/// A bit set with the running count of its members byte by byte: its size and the member of any
/// rank both follow from that count, so a playout that sizes several sets and then picks from one
/// of them counts each set's bits once.
#[derive(Clone, Copy, Debug)]
pub struct RankedBits {
    set: u64,
    /// Byte i holds the number of members in bytes 0..=i (at most 64, so no byte overflows).
    up_to: u64,
}

impl RankedBits {
    pub const EMPTY: RankedBits = RankedBits { set: 0, up_to: 0 };

    #[inline(always)]
    pub fn new(set: u64) -> RankedBits {
        // Bits per byte, then (multiplying by ONES) byte i holds the bits of bytes 0..=i. The
        // bytes are summed with two masks where one would do: with one, the compiler recognises a
        // population count in `len` and computes it a second time on its own.
        let pairs = set - ((set >> 1) & 0x5555_5555_5555_5555);
        let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
        let bytes = (nibbles & 0x0f0f_0f0f_0f0f_0f0f) + ((nibbles >> 4) & 0x0f0f_0f0f_0f0f_0f0f);
        RankedBits {
            set,
            up_to: bytes.wrapping_mul(ONES),
        }
    }

    /// The number of members (the running count's last byte).
    #[inline(always)]
    pub fn len(&self) -> u32 {
        (self.up_to >> 56) as u32
    }

    /// The position of the member of rank `k` (0 for the lowest); the set has more than `k`
    /// members.
    #[inline(always)]
    pub fn nth(&self, k: u32) -> u32 {
        debug_assert!(k < self.len(), "rank {k} of a set of {}", self.len());
        // High bit of each byte whose running count is at most k: the bytes wholly below the
        // member (counts stay below 128, so no byte borrows from the next).
        let below = (((u64::from(k) * ONES) | HIGH_BITS) - self.up_to) & HIGH_BITS;
        let shift = (((below >> 7).wrapping_mul(ONES) >> 56) * 8) as u32;
        let before = ((self.up_to << 8) >> shift) & 0xff;
        let byte = (self.set >> shift) & 0xff;
        shift + u32::from(RANK_IN_BYTE[byte as usize][(u64::from(k) - before) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rank_gives_its_member_lowest_first() {
        let sets = [
            1u64,
            0b1011_0000_0001,
            u64::MAX,
            1 << 63,
            0x8000_0001_0000_0100,
            0x1f_ffff_fffe,
            0xdead_beef_0bad_f00d,
        ];
        for set in sets {
            let members: Vec<u32> = (0..64).filter(|&b| set & (1 << b) != 0).collect();
            let ranked = RankedBits::new(set);
            for (k, &member) in members.iter().enumerate() {
                assert_eq!(ranked.nth(k as u32), member, "rank {k} of {set:#x}");
            }
            assert_eq!(ranked.len(), members.len() as u32);
        }
    }
}
