//! The ten-point board of Pente Grammai (docs/RULES.md §2.1): points numbered along the one route, the
//! five lines that join them, and how many counters of each player stand on each point. Geometry
//! only: which moves are legal is the business of `rules.rs`.

use crate::Player;
use std::fmt;

/// The number of points (line ends) on the board.
pub const POINTS: usize = 10;
/// Every player has five counters, wherever they are (route, reserve, holy line, removed).
pub const COUNTERS: u8 = 5;

/// One of the ten line ends, numbered 0–9 along the route `0→1→…→9→0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    pub const ALL: [Point; POINTS] = {
        let mut all = [Point(0); POINTS];
        let mut i = 0;
        while i < POINTS {
            all[i] = Point(i as u8);
            i += 1;
        }
        all
    };

    pub const fn new(number: u8) -> Option<Point> {
        if (number as usize) < POINTS {
            Some(Point(number))
        } else {
            None
        }
    }

    pub fn number(self) -> u8 {
        self.0
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Where a die of `die` takes a counter standing here (passing over anything).
    pub fn advance(self, die: u8) -> Point {
        Point((self.0 + die) % POINTS as u8)
    }

    /// Where a counter stood that a die of `die` brought here.
    pub fn back(self, die: u8) -> Point {
        Point((self.0 + POINTS as u8 - die % POINTS as u8) % POINTS as u8)
    }

    /// The line this point ends: points p and 9−p share a line, line n = {n−1, 10−n}.
    pub fn line(self) -> Line {
        Line(if self.0 < 5 { self.0 + 1 } else { 10 - self.0 })
    }

    /// The two ends of the sacred line hold any number of counters in Schädler's rules.
    pub fn is_sacred(self) -> bool {
        self.line() == Line::SACRED
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One of the five parallel lines, numbered 1 (Terracotta's edge) to 5 (Black's edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Line(u8);

impl Line {
    /// Line 3, {2, 7}: never threatened in Perimeter Line Battle.
    pub const SACRED: Line = Line(3);
    /// The lines a Perimeter formation can threaten on.
    pub const ORDINARY: [Line; 4] = [Line(1), Line(2), Line(4), Line(5)];

    pub fn new(number: u8) -> Option<Line> {
        (1..=5).contains(&number).then_some(Line(number))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    pub fn ends(self) -> [Point; 2] {
        [Point(self.0 - 1), Point(10 - self.0)]
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.0)
    }
}

/// A set of lines, one bit per line number: the threats pending in Perimeter Line Battle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lines(u8);

impl Lines {
    pub const NONE: Lines = Lines(0);

    pub fn contains(self, line: Line) -> bool {
        self.0 & (1 << line.0) != 0
    }

    pub fn insert(&mut self, line: Line) {
        self.0 |= 1 << line.0;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: Lines) -> Lines {
        Lines(self.0 | other.0)
    }

    pub fn iter(self) -> impl Iterator<Item = Line> {
        (1..=5).map(Line).filter(move |&l| self.contains(l))
    }
}

/// The point a counter must land on exactly to be gathered: Terracotta 7, Black 2.
pub fn goal(player: Player) -> Point {
    match player {
        Player::First => Point(7),
        Player::Second => Point(2),
    }
}

/// Kidd's starting corner, where reserve counters enter: Terracotta 0, Black 5.
pub fn corner(player: Player) -> Point {
    match player {
        Player::First => Point(0),
        Player::Second => Point(5),
    }
}

/// Whether `point` is on `player`'s side at setup (Terracotta 0–4, Black 5–9).
pub fn is_home(player: Player, point: Point) -> bool {
    (point.0 < 5) == (player == Player::First)
}

/// `player`'s five setup points.
pub fn home(player: Player) -> impl Iterator<Item = Point> {
    Point::ALL.into_iter().filter(move |&p| is_home(player, p))
}

/// A set of points, one bit per point number: what move generation works on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Points(u16);

impl Points {
    pub const ALL: Points = Points((1 << POINTS) - 1);
    /// The two ends of the sacred line, 2 and 7.
    pub const SACRED: Points = Points(1 << 2 | 1 << 7);

    pub fn contains(self, point: Point) -> bool {
        self.0 & (1 << point.0) != 0
    }

    /// Where counters on these points go with a die of `die`: the set turned along the route.
    pub fn advance(self, die: u8) -> Points {
        let d = u32::from(die) % POINTS as u32;
        Points(((self.0 << d) | (self.0 >> (POINTS as u32 - d))) & Points::ALL.0)
    }

    pub fn iter(self) -> impl Iterator<Item = Point> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let point = Point(bits.trailing_zeros() as u8);
                bits &= bits - 1;
                point
            })
        })
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Points {
    type Output = Points;
    fn bitor(self, other: Points) -> Points {
        Points(self.0 | other.0)
    }
}

impl std::ops::BitAnd for Points {
    type Output = Points;
    fn bitand(self, other: Points) -> Points {
        Points(self.0 & other.0)
    }
}

impl std::ops::Not for Points {
    type Output = Points;
    fn not(self) -> Points {
        Points(!self.0 & Points::ALL.0)
    }
}

impl Line {
    /// The two ends of the line as a set.
    pub fn points(self) -> Points {
        let [a, b] = self.ends();
        Points(1 << a.0 | 1 << b.0)
    }
}

/// The counters on the route: how many of each player's stand on each point, and, kept in step
/// with the counts, where each player stands and stacks two or more (for move generation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    counts: [[u8; POINTS]; 2],
    occupied: [Points; 2],
    stacked: [Points; 2],
}

impl Board {
    /// Terracotta on 0–4 and Black on 5–9, one counter a point (Schädler, Perimeter).
    pub fn own_sides() -> Board {
        let mut board = Board::default();
        for player in Player::BOTH {
            for point in home(player) {
                board.add(player, point, 1);
            }
        }
        board
    }

    pub fn count(&self, player: Player, point: Point) -> u8 {
        self.counts[player.index()][point.index()]
    }

    pub fn is_empty(&self, point: Point) -> bool {
        !(self.occupied[0] | self.occupied[1]).contains(point)
    }

    /// The points where `player` has at least one counter.
    pub fn occupied(&self, player: Player) -> Points {
        self.occupied[player.index()]
    }

    /// The points where `player` has two or more counters (Kidd's yokes).
    pub fn stacked(&self, player: Player) -> Points {
        self.stacked[player.index()]
    }

    pub fn add(&mut self, player: Player, point: Point, n: u8) {
        self.counts[player.index()][point.index()] += n;
        self.refresh(player, point);
    }

    /// Removes `n` of `player`'s counters from `point`; there must be that many.
    pub fn take(&mut self, player: Player, point: Point, n: u8) {
        self.counts[player.index()][point.index()] -= n;
        self.refresh(player, point);
    }

    fn refresh(&mut self, player: Player, point: Point) {
        let i = player.index();
        let n = self.counts[i][point.index()];
        let bit = 1u16 << point.0;
        self.occupied[i].0 = (self.occupied[i].0 & !bit) | (u16::from(n > 0) << point.0);
        self.stacked[i].0 = (self.stacked[i].0 & !bit) | (u16::from(n > 1) << point.0);
    }

    /// `player`'s counters on both ends of `line`: its formation there.
    pub fn on_line(&self, player: Player, line: Line) -> u8 {
        let [a, b] = line.ends();
        self.count(player, a) + self.count(player, b)
    }

    /// `player`'s counters on the route.
    pub fn total(&self, player: Player) -> u8 {
        self.counts[player.index()].iter().sum()
    }

    /// The points where `player` has at least one counter, in route order.
    pub fn occupied_by(&self, player: Player) -> impl Iterator<Item = Point> {
        self.occupied(player).iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_p_and_9_minus_p_share_a_line() {
        for p in Point::ALL {
            let other = Point::new(9 - p.number()).unwrap();
            assert_eq!(p.line(), other.line());
            assert!(p.line().ends().contains(&p));
        }
        assert_eq!(Line::new(1).unwrap().ends(), [Point(0), Point(9)]);
        assert_eq!(Line::SACRED.ends(), [Point(2), Point(7)]);
    }

    #[test]
    fn a_set_of_points_turns_along_the_route() {
        let set = Points(1 << 0 | 1 << 8);
        assert_eq!(set.advance(3), Points(1 << 3 | 1 << 1));
        assert_eq!(Points::ALL.advance(6), Points::ALL);
        assert_eq!(set.iter().collect::<Vec<_>>(), [Point(0), Point(8)]);
    }

    #[test]
    fn the_route_wraps_from_9_to_0() {
        assert_eq!(Point(9).advance(1), Point(0));
        assert_eq!(Point(4).advance(1), Point(5));
        assert_eq!(Point(7).advance(6), Point(3));
    }

    #[test]
    fn goals_and_corners_are_seven_steps_apart() {
        for player in Player::BOTH {
            assert_eq!(corner(player).advance(7), goal(player));
            assert!(goal(player).is_sacred());
            // Each goal lies on the opponent's side: the race crosses the board.
            assert!(!is_home(player, goal(player)));
        }
    }
}
