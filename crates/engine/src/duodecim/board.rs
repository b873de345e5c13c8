//! The board of Duodecim Scripta: thirty-six cells in three rows, one route for both players, and
//! the pieces on it, in reserve and borne off.
//!
//! Both players run the same route in the same direction, so a cell is a `Step` (1–36) for either
//! player. The board keeps, besides the stack heights, two bit sets per player (bit s = step s):
//! occupied steps and steps holding two or more pieces. Single moves, hits and bear-offs of a die
//! are then a few shifts, which is what the maximal-sequence search spends its time on.

use crate::Player;
use std::fmt;

/// Steps on the route; a piece moved past the last one is borne off.
pub const ROUTE_LEN: u8 = 36;
/// Pieces per player.
pub const PIECES: u8 = 15;
/// The first step of the exit table (B7): bearing off needs every piece at or past it.
pub const EXIT_TABLE: u8 = 31;

/// Bits 1..=36: every step of the route (bit 0 stands for the reserve in origin sets).
const ROUTE: u64 = ((1u64 << ROUTE_LEN) - 1) << 1;
/// Steps 1..=30: a piece there forbids bearing off.
const BEFORE_EXIT: u64 = ((1u64 << (EXIT_TABLE - 1)) - 1) << 1;

/// A step of the route, 1 (M1) to 36 (B12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step(u8);

impl Step {
    #[inline]
    pub fn new(n: u8) -> Option<Step> {
        (1..=ROUTE_LEN).contains(&n).then_some(Step(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// Where a die of `die` pips takes a piece from here: a step, or `None` past the end.
    pub fn advance(self, die: u8) -> Option<Step> {
        Step::new(self.0 + die)
    }

    pub fn cell(self) -> Cell {
        let s = self.0;
        match s {
            1..=12 => Cell::at(Row::Middle, s),
            13..=24 => Cell::at(Row::Top, 25 - s),
            _ => Cell::at(Row::Bottom, s - 24),
        }
    }

    /// Every step, in route order.
    pub fn all() -> impl Iterator<Item = Step> {
        (1..=ROUTE_LEN).map(Step)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cell().fmt(f)
    }
}

/// A row of the board as seen from White's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    Top,
    Middle,
    Bottom,
}

impl Row {
    pub const ALL: [Row; 3] = [Row::Top, Row::Middle, Row::Bottom];

    pub fn letter(self) -> char {
        match self {
            Row::Top => 'T',
            Row::Middle => 'M',
            Row::Bottom => 'B',
        }
    }
}

/// A cell named from White's seat: a row and a column 1–12 counted left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    row: Row,
    column: u8,
}

impl Cell {
    pub fn new(row: Row, column: u8) -> Option<Cell> {
        (1..=12).contains(&column).then_some(Cell { row, column })
    }

    fn at(row: Row, column: u8) -> Cell {
        Cell { row, column }
    }

    pub fn row(self) -> Row {
        self.row
    }

    pub fn column(self) -> u8 {
        self.column
    }

    /// The route step of this cell: M1→M12, then T12→T1, then B1→B12.
    pub fn step(self) -> Step {
        Step(match self.row {
            Row::Middle => self.column,
            Row::Top => 25 - self.column,
            Row::Bottom => 24 + self.column,
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row.letter(), self.column)
    }
}

/// Iterates the set bits of `set`, lowest first.
pub(crate) fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set.trailing_zeros() as u8;
            set &= set - 1;
            bit
        })
    })
}

/// One player's pieces against the opponent's stacks of two: see [`Board::origins`].
#[derive(Clone, Copy)]
pub(super) struct Mobility {
    entering: bool,
    occupied: u64,
    /// Steps without an enemy stack of two: where a piece may land.
    open: u64,
    bearing_off: bool,
}

impl Mobility {
    pub(super) fn origins(&self, die: u8) -> u64 {
        if self.entering {
            // Reserve first: the die can only enter a piece, on step `die`.
            return (self.open >> die) & 1;
        }
        let mut origins = ((self.occupied << die) & self.open & ROUTE) >> die;
        if self.bearing_off {
            // Steps s with s + die > 36: no exact throw needed.
            let overshoot = ROUTE & !(ROUTE >> die);
            origins |= self.occupied & overshoot;
        }
        origins
    }
}

/// Every piece of both players: stacks on the route, reserve and borne-off counts.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Stack height per player and step (index 0 unused).
    stacks: [[u8; ROUTE_LEN as usize + 1]; 2],
    occupied: [u64; 2],
    /// Steps holding two or more pieces: the opponent may not land there.
    doubled: [u64; 2],
    reserve: [u8; 2],
    off: [u8; 2],
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(")?;
        for step in Step::all() {
            if let Some((player, n)) = self.stack(step) {
                write!(f, "{step}:{n}{} ", ['w', 'b'][player.index()])?;
            }
        }
        write!(f, "r:{:?} o:{:?})", self.reserve, self.off)
    }
}

impl Board {
    /// An empty board with nothing in reserve; [`Board::start`] is the real start.
    pub fn empty() -> Board {
        Board {
            stacks: [[0; ROUTE_LEN as usize + 1]; 2],
            occupied: [0; 2],
            doubled: [0; 2],
            reserve: [0; 2],
            off: [0; 2],
        }
    }

    /// The start: all fifteen pieces of each player in reserve.
    pub fn start() -> Board {
        Board {
            reserve: [PIECES; 2],
            ..Board::empty()
        }
    }

    /// Who holds `step` and how many pieces stand there.
    pub fn stack(&self, step: Step) -> Option<(Player, u8)> {
        Player::BOTH.into_iter().find_map(|p| {
            let n = self.stacks[p.index()][step.0 as usize];
            (n > 0).then_some((p, n))
        })
    }

    pub fn reserve(&self, player: Player) -> u8 {
        self.reserve[player.index()]
    }

    pub fn off(&self, player: Player) -> u8 {
        self.off[player.index()]
    }

    /// Pieces of `player` standing on the route.
    pub fn on_route(&self, player: Player) -> u8 {
        self.stacks[player.index()].iter().sum()
    }

    /// Steps holding exactly one piece of `player`: the pieces that can be hit.
    pub fn lone(&self, player: Player) -> u64 {
        self.occupied[player.index()] & !self.doubled[player.index()]
    }

    /// Sets the counts (used by the notation, which has checked them).
    pub(super) fn set(&mut self, player: Player, step: Step, count: u8) {
        let (p, s) = (player.index(), step.0 as usize);
        self.stacks[p][s] = count;
        self.refresh(p, s);
    }

    pub(super) fn set_reserve_and_off(&mut self, player: Player, reserve: u8, off: u8) {
        self.reserve[player.index()] = reserve;
        self.off[player.index()] = off;
    }

    /// Brings the bit sets of step `s` in line with its count, without branching on it.
    fn refresh(&mut self, p: usize, s: usize) {
        let n = self.stacks[p][s];
        self.occupied[p] = (self.occupied[p] & !(1 << s)) | u64::from(n >= 1) << s;
        self.doubled[p] = (self.doubled[p] & !(1 << s)) | u64::from(n >= 2) << s;
    }

    /// How many pieces of `player` an origin holds: 0 the reserve, s step s.
    pub fn pieces_at(&self, player: Player, origin: u8) -> u8 {
        let p = player.index();
        if origin == 0 {
            self.reserve[p]
        } else {
            self.stacks[p][origin as usize]
        }
    }

    /// Bearing off is open: nothing in reserve and every piece on the exit table (steps 31–36).
    pub fn may_bear_off(&self, player: Player) -> bool {
        let p = player.index();
        self.reserve[p] == 0 && self.occupied[p] & BEFORE_EXIT == 0
    }

    /// The origins from which `player` can move by `die` under the landing, reserve-first and
    /// bearing-off rules: bit 0 is the reserve, bit s the piece on step s.
    pub fn origins(&self, player: Player, die: u8) -> u64 {
        self.mobility(player).origins(die)
    }

    /// What every die's origins for `player` depend on, worked out once for all the dice of a turn.
    pub(super) fn mobility(&self, player: Player) -> Mobility {
        let (p, q) = (player.index(), player.other().index());
        Mobility {
            entering: self.reserve[p] > 0,
            occupied: self.occupied[p],
            open: !self.doubled[q],
            bearing_off: self.may_bear_off(player),
        }
    }

    /// The steps from which `player` could move a board piece by `die` without leaving the
    /// route, were nothing in reserve: what its board pieces can do once the reserve is empty.
    pub fn route_origins(&self, player: Player, die: u8) -> u64 {
        let (p, q) = (player.index(), player.other().index());
        ((self.occupied[p] << die) & !self.doubled[q] & ROUTE) >> die
    }

    /// A piece of `player` may enter on step `die` (no enemy stack of two there).
    pub fn entry_open(&self, player: Player, die: u8) -> bool {
        self.doubled[player.other().index()] & (1 << die) == 0
    }

    /// The steps where a move of `player` by `die` would hit a lone enemy piece.
    pub fn hits(&self, player: Player, die: u8) -> u64 {
        let p = player.index();
        let lone = self.lone(player.other());
        if self.reserve[p] > 0 {
            lone & (1 << die)
        } else {
            (self.occupied[p] << die) & lone & ROUTE
        }
    }

    /// Moves a piece of `player` from `origin` (0 = reserve, else a step) by `die`, hitting a lone
    /// enemy piece on the landing step. The move must be one of [`Board::origins`].
    pub fn apply(&mut self, player: Player, die: u8, origin: u8) {
        let (p, q) = (player.index(), player.other().index());
        if origin == 0 {
            self.reserve[p] -= 1;
        } else {
            self.stacks[p][origin as usize] -= 1;
            self.refresh(p, origin as usize);
        }
        let to = (origin + die) as usize;
        if to > ROUTE_LEN as usize {
            self.off[p] += 1;
            return;
        }
        if self.stacks[q][to] == 1 {
            self.stacks[q][to] = 0;
            self.refresh(q, to);
            self.reserve[q] += 1;
        }
        self.stacks[p][to] += 1;
        self.refresh(p, to);
    }

    /// All fifteen pieces of `player` are off.
    pub fn borne_off(&self, player: Player) -> bool {
        self.off[player.index()] == PIECES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_route_runs_middle_then_top_leftward_then_bottom() {
        let names: Vec<String> = [1, 6, 7, 12, 13, 18, 19, 24, 25, 30, 31, 36]
            .into_iter()
            .map(|n| Step::new(n).unwrap().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "M1", "M6", "M7", "M12", "T12", "T7", "T6", "T1", "B1", "B6", "B7", "B12"
            ]
        );
        for step in Step::all() {
            assert_eq!(step.cell().step(), step);
        }
        assert_eq!(Step::new(0), None);
        assert_eq!(Step::new(37), None);
    }
}
