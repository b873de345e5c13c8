//! "Use as many dice as possible, then the most pips" (docs/RULES.md §3.2), and the odds of being hit.
//!
//! With at most three dice a turn's sequences form a tree of depth three; the search walks it on
//! board copies (no allocation) and stops a subtree as soon as it finds a sequence that uses every
//! remaining die, since nothing scores higher. A sequence that bears off the last piece scores as
//! if it used every die, so a winning move is always allowed.
//!
//! Most of the time no search is needed: if each remaining die can be given its own piece (or
//! its own piece of a stack) that it can move on the board as it stands, the dice can be played
//! one after the other in any order. A piece's move never spoils another's: it removes no enemy
//! stack of two, a hit only takes an enemy piece away, bearing off only opens up as pieces
//! advance, and while pieces remain in reserve every die enters. [`all_dice_apart`] checks that
//! with bit sets, and the search runs only where it fails.

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
        let mut seen = 0u8;
        self.faces().iter().copied().filter(move |&face| {
            let first = seen & (1 << face) == 0;
            seen |= 1 << face;
            first
        })
    }

    /// These dice less one die showing `face` (the first one rolled); unchanged if none does.
    pub fn without(&self, face: u8) -> Dice {
        // Three places written out (the search calls this at every step): the faces after the
        // removed one move up, and the zero past `len` fills the end.
        let [a, b, c] = self.faces;
        let faces = match self.len {
            1.. if a == face => [b, c, 0],
            2.. if b == face => [a, c, 0],
            3.. if c == face => [a, b, 0],
            _ => return *self,
        };
        Dice {
            faces,
            len: self.len - 1,
        }
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

/// `set` holds at least `n` members (`n` at most 3 here): cheaper than counting them all.
fn at_least(mut set: u64, n: u32) -> bool {
    for _ in 1..n {
        set &= set.wrapping_sub(1);
    }
    n == 0 || set != 0
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

/// The origins of each face of `dice` (index face − 1) on one board, with the piece of a first
/// move set aside.
struct Reach<'a> {
    board: &'a Board,
    player: Player,
    origins: [u64; 6],
    /// The origin of a first move already decided on, whose piece is no longer free.
    taken: Option<u8>,
}

impl<'a> Reach<'a> {
    fn new(board: &'a Board, player: Player, dice: Dice) -> Reach<'a> {
        let mobility = board.mobility(player);
        let mut origins = [0u64; 6];
        // A face rolled twice is worked out twice: cheaper than finding the distinct ones.
        for &die in dice.faces() {
            origins[die as usize - 1] = mobility.origins(die);
        }
        Reach {
            board,
            player,
            origins,
            taken: None,
        }
    }

    /// Free pieces on `origin`.
    fn free(&self, origin: u8) -> u8 {
        self.board.pieces_at(self.player, origin) - u8::from(self.taken == Some(origin))
    }

    /// The origins of `die` that still hold a free piece.
    fn usable(&self, die: u8) -> u64 {
        let origins = self.origins[die as usize - 1];
        match self.taken {
            Some(o) if self.free(o) == 0 => origins & !(1 << o),
            _ => origins,
        }
    }

    /// The origins in `set` hold at least `need` free pieces between them.
    fn holds(&self, set: u64, need: u8) -> bool {
        if at_least(set, u32::from(need)) {
            return true;
        }
        let mut free = 0;
        for origin in bits(set).take(need as usize) {
            free += self.free(origin);
            if free >= need {
                return true;
            }
        }
        false
    }

    /// Each of `dice` can be given its own free piece that it moves from this board. By Hall's
    /// theorem (origins counted with their free pieces), that holds when every group of the dice
    /// reaches at least as many free pieces as it has dice.
    fn all_dice_apart(&self, dice: &[u8]) -> bool {
        // One or two dice are what the search meets (a first move is always set aside).
        match *dice {
            [] => true,
            [a] => self.usable(a) != 0,
            [a, b] => {
                let (x, y) = (self.usable(a), self.usable(b));
                x != 0 && y != 0 && self.holds(x | y, 2)
            }
            _ => {
                let n = dice.len().min(3);
                let sets: [u64; 3] =
                    std::array::from_fn(|i| dice.get(i).map_or(0, |&d| self.usable(d)));
                (1..1u32 << n).all(|group| {
                    let union = (0..n)
                        .filter(|i| group & (1 << i) != 0)
                        .fold(0, |u, i| u | sets[i]);
                    self.holds(union, group.count_ones() as u8)
                })
            }
        }
    }

    /// [`Reach::all_dice_apart`] holds whichever single piece a first move takes away: each die
    /// keeps two origins, and two dice keep three between them.
    fn apart_whatever_is_taken(&self, dice: &[u8]) -> bool {
        let origins = |d: u8| self.origins[d as usize - 1];
        match *dice {
            [] => true,
            [a] => at_least(origins(a), 2),
            [a, b] => {
                at_least(origins(a), 2)
                    && at_least(origins(b), 2)
                    && at_least(origins(a) | origins(b), 3)
            }
            _ => false,
        }
    }
}

/// With `reserve` pieces of `player` still to enter, each of `dice` can be played: as many as
/// there are pieces in reserve enter (each on a step open to it), and the others each move their
/// own piece that stands on the board now. Entering never spoils a board move (it only adds own
/// pieces and takes enemy ones away), so the order is free.
fn entries_then_apart(board: &Board, player: Player, dice: &[u8], reserve: u8) -> bool {
    let enters = |die: u8| board.entry_open(player, die);
    let moves = |die: u8| board.route_origins(player, die);
    if usize::from(reserve) >= dice.len() {
        return dice.iter().all(|&die| enters(die));
    }
    match (dice, reserve) {
        (&[a], 0) => moves(a) != 0,
        (&[a, b], 0) => {
            let (x, y) = (moves(a), moves(b));
            x != 0
                && y != 0
                && (at_least(x | y, 2)
                    || board.pieces_at(player, (x | y).trailing_zeros() as u8) >= 2)
        }
        (&[a, b], 1) => (enters(a) && moves(b) != 0) || (enters(b) && moves(a) != 0),
        _ => false,
    }
}

/// The best score `player` can reach from `board` with `dice`.
fn best(board: &Board, player: Player, dice: Dice) -> Score {
    if dice.is_empty() {
        return 0;
    }
    let ceiling = full(dice);
    if let [die] = *dice.faces() {
        // The last die: any move of it plays every die there is.
        return if board.origins(player, die) != 0 {
            ceiling
        } else {
            0
        };
    }
    let reach = Reach::new(board, player, dice);
    let reserve = board.reserve(player);
    if reach.all_dice_apart(dice.faces())
        || (reserve > 0 && entries_then_apart(board, player, dice.faces(), reserve))
    {
        return ceiling;
    }
    let mut best = 0;
    for die in dice.distinct() {
        let origins = reach.origins[die as usize - 1];
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
#[inline]
pub fn maximal_first_moves(board: &Board, player: Player, dice: Dice) -> [u64; 6] {
    let mobility = board.mobility(player);
    let mut single = [0u64; 6];
    // Each die has at least as many origins as there are dice: whichever piece a first move
    // takes, every other die keeps one origin per die left, so each die can be given its own.
    let mut roomy = true;
    for &die in dice.faces() {
        let origins = mobility.origins(die);
        single[die as usize - 1] = origins;
        roomy &= at_least(origins, u32::from(dice.len));
    }
    let entering_all = usize::from(board.reserve(player)) >= dice.faces().len()
        && dice
            .faces()
            .iter()
            .all(|&die| board.entry_open(player, die));
    if roomy || dice.len == 1 || entering_all {
        // Every move of the last die plays all the dice there are; and where each die enters a
        // piece of its own, every entry begins a sequence that plays them all.
        return single;
    }
    searched_first_moves(board, player, dice, single)
}

/// [`maximal_first_moves`] where no die is sure to have a piece of its own: `single` holds the
/// single moves of each face.
#[inline(never)]
fn searched_first_moves(board: &Board, player: Player, dice: Dice, single: [u64; 6]) -> [u64; 6] {
    let reserve = board.reserve(player);
    if reserve > 0 {
        // Only entries can begin (reserve first). When the entry of each die that can enter
        // leaves the other dice playable, every entry begins a sequence that plays them all.
        let mut entries = [0u64; 6];
        let all_full = dice.distinct().all(|die| {
            let entry = single[die as usize - 1];
            entries[die as usize - 1] = entry;
            entry == 0 || entries_then_apart(board, player, dice.without(die).faces(), reserve - 1)
        });
        if all_full {
            return entries;
        }
    }
    let mut allowed = [0u64; 6];
    let mut top = 0;
    let mut reach = Reach {
        board,
        player,
        origins: single,
        taken: None,
    };
    let mut record = |found: Score, die: u8, origins: u64| {
        if found > top {
            top = found;
            allowed = [0; 6];
        }
        if found == top {
            allowed[die as usize - 1] |= origins;
        }
    };
    for die in dice.distinct() {
        let rest = dice.without(die);
        let origins = reach.origins[die as usize - 1];
        if origins != 0 && reach.apart_whatever_is_taken(rest.faces()) {
            record(full(dice), die, origins);
            continue;
        }
        for origin in bits(origins) {
            reach.taken = Some(origin);
            let entering = origin == 0;
            let found = if reach.all_dice_apart(rest.faces())
                || (entering
                    && entries_then_apart(board, player, rest.faces(), board.reserve(player) - 1))
            {
                full(dice)
            } else {
                after(board, player, dice, die, origin)
            };
            record(found, die, 1 << origin);
        }
        reach.taken = None;
    }
    allowed
}

/// Every single move of each face, unbound by the maximal rule: what bonus dice allow.
pub fn single_moves(board: &Board, player: Player, dice: Dice) -> [u64; 6] {
    Reach::new(board, player, dice).origins
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
                // At most step 42 (a bear-off), which no hit set contains.
                let landing = 1u64 << (origin + die);
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
    fn dice_are_apart_when_every_group_of_them_reaches_enough_free_pieces() {
        // White's pieces not on the middle row are borne off, so only these can move.
        let apart = |middle: &str, faces: &[u8]| {
            let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
            let on_board: u8 = middle
                .split(',')
                .filter_map(|c| c.strip_suffix('w')?.parse::<u8>().ok())
                .sum();
            let text = format!("{empty}/{middle}/{empty} w o:{},0", 15 - on_board);
            let position = super::super::Position::parse(&text).unwrap();
            let dice = Dice::new(faces).unwrap();
            Reach::new(&position.board, Player::First, dice).all_dice_apart(dice.faces())
        };
        assert!(apart("1w,1w,1w,.,.,.,.,.,.,.,.,.", &[1, 1, 1]));
        assert!(apart("3w,.,.,.,.,.,.,.,.,.,.,.", &[2, 3, 4]));
        assert!(!apart("2w,.,.,.,.,.,.,.,.,.,.,.", &[2, 3, 4]));
        assert!(apart("2w,.,.,.,.,.,.,.,.,.,.,.", &[2, 3]));
        assert!(!apart("1w,.,.,.,.,.,.,.,.,.,.,.", &[2, 3]));
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
