//! Petteia's geometry on bitboards: squares, rook slides and custodial captures.
//!
//! Both sizes live in one 8×8 frame (bit = rank × 8 + file). On the 6×6 board the frame's squares
//! outside the board are walls: they block slides like pieces, and since no piece ever stands on
//! them they never flank, exactly like the board edge.

use crate::Player;
use std::fmt;

/// A set of squares of the 8×8 frame.
pub type Bitboard = u64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    Six,
    Eight,
}

impl Size {
    pub fn n(self) -> u8 {
        match self {
            Size::Six => 6,
            Size::Eight => 8,
        }
    }

    /// The board's squares within the frame.
    pub fn squares(self) -> Bitboard {
        match self {
            Size::Six => 0x3f3f_3f3f_3f3f,
            Size::Eight => !0,
        }
    }
}

/// A square, named from Light's seat: file A… left to right, rank 1… from Light's side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` and `rank` (both from 0), if it lies in the 8×8 frame.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 8 && rank < 8).then(|| Square(rank * 8 + file))
    }

    pub(crate) fn from_index(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    pub fn file(self) -> u8 {
        self.0 % 8
    }

    pub fn rank(self) -> u8 {
        self.0 / 8
    }

    pub fn bit(self) -> Bitboard {
        1 << self.0
    }

    pub fn on(self, size: Size) -> bool {
        self.file() < size.n() && self.rank() < size.n()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The squares of a bitboard, lowest first.
pub fn squares(mut set: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = Square::from_index(set.trailing_zeros());
            set &= set - 1;
            sq
        })
    })
}

/// The four orthogonal directions as (file, rank) steps; north and east increase the bit index.
const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn step(index: usize, (df, dr): (i8, i8)) -> Option<usize> {
    let file = (index % 8) as i8 + df;
    let rank = (index / 8) as i8 + dr;
    if file < 0 || file > 7 || rank < 0 || rank > 7 {
        None
    } else {
        Some((rank * 8 + file) as usize)
    }
}

/// `RAYS[d][sq]`: the frame squares strictly beyond `sq` in direction `d`.
const RAYS: [[Bitboard; 64]; 4] = {
    let mut rays = [[0; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let mut at = step(sq, DIRECTIONS[d]);
            while let Some(next) = at {
                rays[d][sq] |= 1 << next;
                at = step(next, DIRECTIONS[d]);
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// `NEIGHBOURS[d][sq]`: the one square next to `sq` in direction `d`, or the empty set at the frame's edge.
const NEIGHBOURS: [[Bitboard; 64]; 4] = {
    let mut next = [[0; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            if let Some(n) = step(sq, DIRECTIONS[d]) {
                next[d][sq] = 1 << n;
            }
            sq += 1;
        }
        d += 1;
    }
    next
};

/// The squares a rook-like slide from `from` reaches through empty squares; `blockers` holds every
/// piece and wall.
pub fn slides(from: Square, blockers: Bitboard) -> Bitboard {
    let mut reach = 0;
    for (d, rays) in RAYS.iter().enumerate() {
        let ray = rays[from.0 as usize];
        let hit = ray & blockers;
        reach |= if hit == 0 {
            ray
        } else {
            // North and east rays grow with the bit index, so their nearest blocker is the lowest bit.
            let nearest = if d < 2 {
                hit.trailing_zeros()
            } else {
                63 - hit.leading_zeros()
            };
            ray & !(rays[nearest as usize] | 1 << nearest)
        };
    }
    reach
}

/// The frame squares orthogonally next to any square of `set`.
pub fn neighbours(set: Bitboard) -> Bitboard {
    const NOT_FILE_A: Bitboard = 0xfefe_fefe_fefe_fefe;
    const NOT_FILE_H: Bitboard = 0x7f7f_7f7f_7f7f_7f7f;
    (set << 8) | (set >> 8) | ((set << 1) & NOT_FILE_A) | ((set >> 1) & NOT_FILE_H)
}

/// The pieces of two players on a board of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub size: Size,
    pub pieces: [Bitboard; 2],
}

impl Board {
    pub fn start(size: Size) -> Board {
        let n = size.n();
        let first_rank: Bitboard = (1 << n) - 1;
        Board {
            size,
            pieces: [first_rank, first_rank << (8 * (n - 1))],
        }
    }

    pub fn of(&self, player: Player) -> Bitboard {
        self.pieces[player.index()]
    }

    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    pub fn empty(&self) -> Bitboard {
        self.size.squares() & !self.occupied()
    }

    /// Pieces and walls: everything a slide stops before.
    pub fn blockers(&self) -> Bitboard {
        !self.empty()
    }

    pub fn owner(&self, square: Square) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|&p| self.of(p) & square.bit() != 0)
    }

    /// Whether `player` has at least one legal move: some piece next to an empty square.
    pub fn can_move(&self, player: Player) -> bool {
        neighbours(self.of(player)) & self.empty() != 0
    }

    /// The enemy pieces a piece of `mover` arriving on `to` would capture, judged on this board with
    /// the mover already on `to`: an enemy next to `to` with a friend right behind it.
    pub fn captures_at(&self, mover: Player, to: Square) -> Bitboard {
        let (us, them) = (self.of(mover), self.of(mover.other()));
        let mut captured = 0;
        for next in &NEIGHBOURS {
            let enemy = next[to.0 as usize] & them;
            if enemy != 0 && next[enemy.trailing_zeros() as usize] & us != 0 {
                captured |= enemy;
            }
        }
        captured
    }

    /// Moves `mover`'s piece and removes what it captures; returns the captured set.
    pub fn apply(&mut self, mover: Player, from: Square, to: Square) -> Bitboard {
        self.pieces[mover.index()] ^= from.bit() | to.bit();
        let captured = self.captures_at(mover, to);
        self.pieces[mover.other().index()] &= !captured;
        captured
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'A', b[1] - b'1').unwrap()
    }

    #[test]
    fn slides_stop_before_pieces_and_walls() {
        let board = Board::start(Size::Six);
        // From A1 on the start board every piece of rank 1 blocks sideways; up runs to A5.
        let reach = slides(sq("A1"), board.blockers());
        let names: Vec<String> = squares(reach).map(|s| s.to_string()).collect();
        assert_eq!(names, ["A2", "A3", "A4", "A5"]);
        // An empty 6×6 board: a corner reaches 5 + 5 squares, never the frame beyond F or 6.
        let empty = Board {
            size: Size::Six,
            pieces: [0, 0],
        };
        assert_eq!(slides(sq("F6"), empty.blockers()).count_ones(), 10);
    }

    #[test]
    fn neighbours_do_not_wrap_around_the_frame() {
        assert_eq!(neighbours(sq("H1").bit()), sq("H2").bit() | sq("G1").bit());
        assert_eq!(
            neighbours(sq("A2").bit()),
            sq("A1").bit() | sq("A3").bit() | sq("B2").bit()
        );
    }
}
