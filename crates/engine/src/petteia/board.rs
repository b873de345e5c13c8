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

    /// The square mirrored in the A1–H8 diagonal (see [`transpose`]).
    pub fn transposed(self) -> Square {
        Square(self.0 % 8 * 8 + self.0 / 8)
    }

    pub fn bit(self) -> Bitboard {
        1 << self.0
    }

    pub fn on(self, size: Size) -> bool {
        self.file() < size.n() && self.rank() < size.n()
    }

    /// The square's name, a file letter and a rank digit ("A1"; a board has at most 8 ranks).
    /// Without the formatting machinery: the server writes every legal move's name at every
    /// version of a game.
    pub(crate) fn name(self) -> [u8; 2] {
        [b'A' + self.file(), b'1' + self.rank()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        f.write_str(std::str::from_utf8(&name).expect("a square's name is ASCII"))
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

/// `set` mirrored in the A1–H8 diagonal: the square of file f and rank r goes to file r and
/// rank f. Squares are numbered rank by rank, and names ("A1") and so notations sort file by
/// file: the bits of a transposed set, taken from the lowest, come in the order of the names.
pub fn transpose(mut set: Bitboard) -> Bitboard {
    // Three exchanges of blocks across the diagonal: 4×4, then 2×2, then single squares.
    let t = 0x0f0f_0f0f_0000_0000 & (set ^ set << 28);
    set ^= t ^ t >> 28;
    let t = 0x3333_0000_3333_0000 & (set ^ set << 14);
    set ^= t ^ t >> 14;
    let t = 0x5500_5500_5500_5500 & (set ^ set << 7);
    set ^ t ^ t >> 7
}

/// The four orthogonal directions; north and east increase the bit index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    pub fn opposite(self) -> Direction {
        // Two places on in `ALL`: a lookup, where a match compiled to a jump on the direction.
        Direction::ALL[(self as usize + 2) % 4]
    }

    const fn step(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }
}

/// Every square of `set` moved one step in `direction`; what leaves the frame is dropped, and
/// nothing wraps from one side of the frame to the other.
pub fn shift(set: Bitboard, direction: Direction) -> Bitboard {
    const NOT_FILE_A: Bitboard = 0xfefe_fefe_fefe_fefe;
    const NOT_FILE_H: Bitboard = 0x7f7f_7f7f_7f7f_7f7f;
    match direction {
        Direction::North => set << 8,
        Direction::East => (set << 1) & NOT_FILE_A,
        Direction::South => set >> 8,
        Direction::West => (set >> 1) & NOT_FILE_H,
    }
}

/// The empty squares that some piece of `movers` reaches by sliding in `direction` through
/// `empty` (the empty squares of a board of `size`): a Kogge-Stone fill, doubling steps instead of
/// one step a square.
///
/// No two pieces reach one square in the same direction, since the nearer one stands in the other's
/// way: each square of the set is exactly one move, and the four sets together count them all.
///
/// Inlined with a constant `size`, each board gets its own fill: a 6×6 slide is at most 5 squares,
/// which steps of 1, 2 and 2 cover with the one "two squares open" set, where 8×8 needs steps of
/// 1, 2 and 4 (7 squares) and a "four squares open" set; and on 6×6 the frame's files G and H are
/// walls, never empty, so a step east or west that would wrap around the frame lands on a wall and
/// stops there without the file masks 8×8 needs.
#[inline(always)]
pub fn slide_targets(
    movers: Bitboard,
    empty: Bitboard,
    direction: Direction,
    size: Size,
) -> Bitboard {
    const NOT_FILE_A: Bitboard = 0xfefe_fefe_fefe_fefe;
    const NOT_FILE_H: Bitboard = 0x7f7f_7f7f_7f7f_7f7f;
    // A step east must not land on file A (nor west on file H): that would be a wrap.
    let (unit, rising, enterable) = match (direction, size) {
        (Direction::North, _) => (8, true, !0),
        (Direction::East, Size::Six) => (1, true, !0),
        (Direction::East, Size::Eight) => (1, true, NOT_FILE_A),
        (Direction::South, _) => (8, false, !0),
        (Direction::West, Size::Six) => (1, false, !0),
        (Direction::West, Size::Eight) => (1, false, NOT_FILE_H),
    };
    let step = |set: Bitboard, squares: u32| {
        if rising {
            set << (unit * squares)
        } else {
            set >> (unit * squares)
        }
    };
    // `open_n`: the squares entered by a step of n squares, each with the n - 1 before it empty.
    let open_1 = empty & enterable;
    let open_2 = open_1 & step(open_1, 1);
    // Pieces, then the squares they reach within 1, then within 3.
    let mut reached = movers | (open_1 & step(movers, 1));
    reached |= open_2 & step(reached, 2);
    reached |= match size {
        Size::Six => open_2 & step(reached, 2),
        Size::Eight => open_2 & step(open_2, 2) & step(reached, 4),
    };
    // Everything reached but the pieces themselves.
    reached ^ movers
}

/// The piece in `occupied` nearest to `at` in `direction`, if there is one.
pub fn nearest(at: Square, direction: Direction, occupied: Bitboard) -> Option<Square> {
    let hit = RAYS[direction as usize][at.0 as usize] & occupied;
    if hit == 0 {
        return None;
    }
    // North and east rise through the bits, south and west fall: the lowest or the highest bit,
    // selected rather than branched to, since random playouts give a random direction.
    let ends = [hit.trailing_zeros(), 63 - hit.leading_zeros()];
    Some(Square::from_index(ends[direction as usize / 2]))
}

/// The frame squares orthogonally next to any square of `set`.
pub fn neighbours(set: Bitboard) -> Bitboard {
    Direction::ALL
        .into_iter()
        .fold(0, |around, d| around | shift(set, d))
}

/// `RAYS[d][sq]`: the frame squares strictly beyond `sq` in direction `d` (in [`Direction::ALL`]
/// order).
const RAYS: [[Bitboard; 64]; 4] = {
    let mut rays = [[0; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = Direction::ALL[d].step();
        let mut sq = 0;
        while sq < 64 {
            let (mut file, mut rank) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
            while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                rays[d][sq] |= 1 << (rank * 8 + file);
                file += df;
                rank += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// `AT_DISTANCE[k - 1][sq]`: the frame squares exactly `k` squares from `sq` along its rank or
/// file, for k = 1 and 2.
const AT_DISTANCE: [[Bitboard; 64]; 2] = {
    let mut at = [[0; 64]; 2];
    let mut k = 1;
    while k <= 2 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = Direction::ALL[d].step();
            let mut sq = 0;
            while sq < 64 {
                let (file, rank) = ((sq % 8) as i8 + df * k, (sq / 8) as i8 + dr * k);
                if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                    at[k as usize - 1][sq] |= 1 << (rank * 8 + file);
                }
                sq += 1;
            }
            d += 1;
        }
        k += 1;
    }
    at
};

/// The squares a rook-like slide from `from` reaches through empty squares; `blockers` holds every
/// piece and wall.
///
/// Branch-free: along each ray the nearest blocker cuts off its own ray beyond it. Where a ray
/// holds no blocker, the search for one finds a sentinel corner instead (H8 for the rising rays,
/// A1 for the falling ones), whose ray in that direction is empty, so the whole ray stays. The
/// blocker itself, kept by the cut, goes with the final mask.
#[inline]
pub fn slides(from: Square, blockers: Bitboard) -> Bitboard {
    let at = from.0 as usize;
    let rising = |rays: &[Bitboard; 64]| {
        let ray = rays[at];
        ray ^ rays[((ray & blockers) | 1 << 63).trailing_zeros() as usize]
    };
    let falling = |rays: &[Bitboard; 64]| {
        let ray = rays[at];
        ray ^ rays[63 - ((ray & blockers) | 1).leading_zeros() as usize]
    };
    (rising(&RAYS[0]) | rising(&RAYS[1]) | falling(&RAYS[2]) | falling(&RAYS[3])) & !blockers
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
    ///
    /// The friends two squares from `to` in a straight line flank whatever lies between: the
    /// square next to both `to` and such a friend, since no square next to `to` is next to a friend
    /// two squares away along another line. Steps from the flankers need no file masks: a step that
    /// wraps around the frame lands two files or more from `to`, never next to it.
    #[inline]
    pub fn captures_at(&self, mover: Player, to: Square) -> Bitboard {
        let (us, them) = (self.of(mover), self.of(mover.other()));
        let flankers = AT_DISTANCE[1][to.0 as usize] & us;
        let beside_flankers = flankers << 1 | flankers >> 1 | flankers << 8 | flankers >> 8;
        AT_DISTANCE[0][to.0 as usize] & them & beside_flankers
    }

    /// Moves `mover`'s piece and removes what it captures; returns the captured set.
    #[inline]
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
    fn direction_targets_count_every_slide_once() {
        // Scattered boards of both sizes: the per-direction sets hold each (piece, square) slide
        // exactly once, and the piece behind each square is the one that slides there.
        for board in scattered_boards(0x5eed, 500, |bits| bits & bits >> 7) {
            let (movers, empty) = (board.pieces[0], board.empty());
            let mut pairs = 0;
            for d in Direction::ALL {
                for to in squares(slide_targets(movers, empty, d, board.size)) {
                    let from = nearest(to, d.opposite(), movers).expect("a piece behind");
                    assert_ne!(slides(from, board.blockers()) & to.bit(), 0);
                    pairs += 1;
                }
            }
            let expected: u32 = squares(movers)
                .map(|from| slides(from, board.blockers()).count_ones())
                .sum();
            assert_eq!(pairs, expected);
        }
    }

    /// `count` boards of each size, seeded: each player's pieces are the bits `thin` keeps of a
    /// pseudo-random word, within the board (Dark's where Light has none).
    fn scattered_boards(seed: u64, count: usize, thin: fn(u64) -> u64) -> Vec<Board> {
        let mut state = seed;
        let mut next = |size: Size| {
            state = crate::zobrist::splitmix64(state);
            thin(state) & size.squares()
        };
        [Size::Six, Size::Eight]
            .into_iter()
            .flat_map(|size| std::iter::repeat_n(size, count))
            .map(|size| {
                let light = next(size);
                Board {
                    size,
                    pieces: [light, next(size) & !light],
                }
            })
            .collect()
    }

    #[test]
    fn transposing_mirrors_each_square_in_the_diagonal() {
        for index in 0..64 {
            let square = Square::from_index(index);
            let mirrored = Square::new(square.rank(), square.file()).expect("in the frame");
            assert_eq!(square.transposed(), mirrored);
            assert_eq!(transpose(square.bit()), mirrored.bit());
        }
        for board in scattered_boards(0x7a05, 100, |bits| bits) {
            let set = board.pieces[0];
            let mirrored = squares(set).fold(0, |t, s| t | s.transposed().bit());
            assert_eq!(transpose(set), mirrored);
            assert_eq!(transpose(transpose(set)), set);
        }
    }

    #[test]
    fn captures_are_the_enemies_between_the_arrival_and_a_friend() {
        // Scattered boards of both sizes, every arrival square: the flanker shortcut of
        // `captures_at` against the rule stated direction by direction.
        for board in scattered_boards(0xca97, 300, |bits| bits) {
            for to in squares(board.size.squares()) {
                for mover in Player::BOTH {
                    let (us, them) = (board.of(mover), board.of(mover.other()));
                    let expected = Direction::ALL.into_iter().fold(0, |captured, d| {
                        captured | (shift(to.bit(), d) & them & shift(us, d.opposite()))
                    });
                    assert_eq!(board.captures_at(mover, to), expected, "{to} {mover:?}");
                }
            }
        }
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
