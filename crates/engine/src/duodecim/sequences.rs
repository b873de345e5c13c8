//! "Use as many dice as possible, then the most pips" (RULES.md §3.2), and the odds of being hit.
//!
//! With at most three dice a turn's sequences form a tree of depth three; the search walks it on
//! board copies (no allocation) and stops a subtree as soon as it finds a sequence that uses every
//! remaining die, since nothing scores higher. A sequence that bears off the last piece scores as
//! if it used every die, so a winning move is always allowed.

use super::board::{Board, bits};
use crate::Player;
use std::fmt;

/// Up to three dice, in the order rolled.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Dice {
    faces: [u8; 3],
    len: u8,
}

impl Dice {
    pub const NONE: Dice = Dice {
        faces: [0; 3],
        len: 0,
    };

    /// The dice, or `None` when there are more than three or a face is not 1–6.
    pub fn new(faces: &[u8]) -> Option<Dice> {
        if faces.len() > 3 || faces.iter().any(|f| !(1..=6).contains(f)) {
            return None;
        }
        let mut dice = Dice::NONE;
        dice.faces[..faces.len()].copy_from_slice(faces);
        dice.len = faces.len() as u8;
        Some(dice)
    }

    pub fn faces(&self) -> &[u8] {
        &self.faces[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, face: u8) -> bool {
        self.faces().contains(&face)
    }

    /// The faces once each, in the order first rolled.
    pub fn distinct(&self) -> impl Iterator<Item = u8> + '_ {
        let faces = self.faces();
        faces
            .iter()
            .enumerate()
            .filter(|&(i, f)| !faces[..i].contains(f))
            .map(|(_, &f)| f)
    }

    /// These dice less one die showing `face` (the first one rolled); unchanged if none does.
    pub fn without(&self, face: u8) -> Dice {
        let mut dice = *self;
        if let Some(at) = self.faces().iter().position(|&f| f == face) {
            dice.faces.copy_within(at + 1..self.len as usize, at);
            dice.len -= 1;
            dice.faces[dice.len as usize] = 0;
        }
        dice
    }

    fn pips(&self) -> u8 {
        self.faces().iter().sum()
    }
}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.faces().fmt(f)
    }
}

/// How far a sequence goes: dice used first, then pips, as one comparable number.
type Score = u16;

fn score(used: u8, pips: u8) -> Score {
    u16::from(used) * 32 + u16::from(pips)
}

/// What a sequence using every one of `dice` scores: nothing can score more.
fn full(dice: Dice) -> Score {
    score(dice.len, dice.pips())
}

/// The best score `player` can reach from `board` with `dice`.
fn best(board: &Board, player: Player, dice: Dice) -> Score {
    if dice.is_empty() {
        return 0;
    }
    let ceiling = full(dice);
    let mut best = 0;
    for die in dice.distinct() {
        let origins = board.origins(player, die);
        if origins == 0 {
            continue;
        }
        if dice.len == 1 {
            return ceiling;
        }
        for origin in bits(origins) {
            let found = after(board, player, dice, die, origin);
            best = best.max(found);
            if best == ceiling {
                return best;
            }
        }
    }
    best
}

/// The best score of the sequences that begin with moving `origin` by `die`.
fn after(board: &Board, player: Player, dice: Dice, die: u8, origin: u8) -> Score {
    let mut next = *board;
    next.apply(player, die, origin);
    if next.borne_off(player) {
        return full(dice);
    }
    score(1, die) + best(&next, player, dice.without(die))
}

/// The first moves of the maximal sequences: for each face (index face − 1), the set of origins
/// (bit 0 the reserve, bit s step s) whose move by that face begins one. All empty when no die
/// can be played.
pub fn maximal_first_moves(board: &Board, player: Player, dice: Dice) -> [u64; 6] {
    let mut allowed = [0u64; 6];
    let mut top = 0;
    for die in dice.distinct() {
        for origin in bits(board.origins(player, die)) {
            let found = after(board, player, dice, die, origin);
            if found > top {
                top = found;
                allowed = [0; 6];
            }
            if found == top {
                allowed[die as usize - 1] |= 1 << origin;
            }
        }
    }
    allowed
}

/// Every single move of each face, unbound by the maximal rule: what bonus dice allow.
pub fn single_moves(board: &Board, player: Player, dice: Dice) -> [u64; 6] {
    let mut allowed = [0u64; 6];
    for die in dice.distinct() {
        allowed[die as usize - 1] = board.origins(player, die);
    }
    allowed
}

/// The best score of `player`'s sequences with `dice`, and the steps of the opponent's lone
/// pieces that some sequence of that score hits.
fn best_with_hits(board: &Board, player: Player, dice: Dice) -> (Score, u64) {
    if dice.is_empty() {
        return (0, 0);
    }
    let ceiling = full(dice);
    let (mut best, mut hit) = (0, 0);
    for die in dice.distinct() {
        let origins = board.origins(player, die);
        if origins == 0 {
            continue;
        }
        let (found, hits) = if dice.len == 1 {
            // The last die: every move of it scores the same, so every hit it can make counts.
            (ceiling, board.hits(player, die))
        } else {
            let mut found = (0, 0);
            let here = board.hits(player, die);
            for origin in bits(origins) {
                let mut next = *board;
                next.apply(player, die, origin);
                let landing = 1u64.checked_shl(u32::from(origin + die)).unwrap_or(0);
                let (s, h) = if next.borne_off(player) {
                    (ceiling, 0)
                } else {
                    let (s, h) = best_with_hits(&next, player, dice.without(die));
                    (score(1, die) + s, h)
                };
                let h = h | (here & landing);
                if s > found.0 {
                    found = (s, h);
                } else if s == found.0 {
                    found.1 |= h;
                }
            }
            found
        };
        if found > best {
            (best, hit) = (found, hits);
        } else if found == best {
            hit |= hits;
        }
    }
    (best, hit)
}

/// The 56 distinct rolls of three dice, ascending, with how many of the 216 ordered throws give each.
pub static ROLLS: [(&[u8], u32); 56] = [
    (&[1, 1, 1], 1),
    (&[1, 1, 2], 3),
    (&[1, 1, 3], 3),
    (&[1, 1, 4], 3),
    (&[1, 1, 5], 3),
    (&[1, 1, 6], 3),
    (&[1, 2, 2], 3),
    (&[1, 2, 3], 6),
    (&[1, 2, 4], 6),
    (&[1, 2, 5], 6),
    (&[1, 2, 6], 6),
    (&[1, 3, 3], 3),
    (&[1, 3, 4], 6),
    (&[1, 3, 5], 6),
    (&[1, 3, 6], 6),
    (&[1, 4, 4], 3),
    (&[1, 4, 5], 6),
    (&[1, 4, 6], 6),
    (&[1, 5, 5], 3),
    (&[1, 5, 6], 6),
    (&[1, 6, 6], 3),
    (&[2, 2, 2], 1),
    (&[2, 2, 3], 3),
    (&[2, 2, 4], 3),
    (&[2, 2, 5], 3),
    (&[2, 2, 6], 3),
    (&[2, 3, 3], 3),
    (&[2, 3, 4], 6),
    (&[2, 3, 5], 6),
    (&[2, 3, 6], 6),
    (&[2, 4, 4], 3),
    (&[2, 4, 5], 6),
    (&[2, 4, 6], 6),
    (&[2, 5, 5], 3),
    (&[2, 5, 6], 6),
    (&[2, 6, 6], 3),
    (&[3, 3, 3], 1),
    (&[3, 3, 4], 3),
    (&[3, 3, 5], 3),
    (&[3, 3, 6], 3),
    (&[3, 4, 4], 3),
    (&[3, 4, 5], 6),
    (&[3, 4, 6], 6),
    (&[3, 5, 5], 3),
    (&[3, 5, 6], 6),
    (&[3, 6, 6], 3),
    (&[4, 4, 4], 1),
    (&[4, 4, 5], 3),
    (&[4, 4, 6], 3),
    (&[4, 5, 5], 3),
    (&[4, 5, 6], 6),
    (&[4, 6, 6], 3),
    (&[5, 5, 5], 1),
    (&[5, 5, 6], 3),
    (&[5, 6, 6], 3),
    (&[6, 6, 6], 1),
];

/// Ordered throws of three dice.
pub const THROWS: u32 = 216;

/// For each lone piece of `player` (by step), how many of the 216 throws of the opponent's next
/// turn, played from this board under the maximal rule, let it hit that piece. Steps without a lone
/// piece, or that no throw can reach, stay 0.
pub fn hit_odds(board: &Board, player: Player) -> [u32; 37] {
    let mut odds = [0u32; 37];
    if board.lone(player) == 0 {
        return odds;
    }
    let attacker = player.other();
    for &(faces, weight) in &ROLLS {
        let dice = Dice::new(faces).expect("the table holds three faces 1–6");
        let (_, hit) = best_with_hits(board, attacker, dice);
        for step in bits(hit) {
            odds[step as usize] += weight;
        }
    }
    odds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roll_table_lists_each_multiset_once_with_its_weight() {
        let mut counted = std::collections::BTreeMap::new();
        for a in 1..=6u8 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let mut roll = vec![a, b, c];
                    roll.sort();
                    *counted.entry(roll).or_insert(0u32) += 1;
                }
            }
        }
        let table: std::collections::BTreeMap<Vec<u8>, u32> =
            ROLLS.iter().map(|(f, w)| (f.to_vec(), *w)).collect();
        assert_eq!(table, counted);
        assert_eq!(ROLLS.iter().map(|r| r.1).sum::<u32>(), THROWS);
    }

    #[test]
    fn dice_lose_the_first_die_of_a_face_and_keep_their_order() {
        let dice = Dice::new(&[4, 1, 4]).unwrap();
        assert_eq!(dice.without(4).faces(), [1, 4]);
        assert_eq!(dice.without(1).faces(), [4, 4]);
        assert_eq!(dice.without(6).faces(), [4, 1, 4]);
        assert_eq!(dice.distinct().collect::<Vec<_>>(), [4, 1]);
        assert_eq!(Dice::new(&[1, 2, 3, 4]), None);
        assert_eq!(Dice::new(&[0]), None);
    }
}
