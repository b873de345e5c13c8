//! The rules of the three sets on one position: which actions a die allows, why one is refused,
//! and what playing one does (hits, gathering, Perimeter's removals and threats, the win).
//!
//! Generation and checking are written separately on purpose: generation is the hot path of search
//! and playouts (no allocation beyond the caller's buffer), checking names the first rule a move
//! breaks. The consistency tests hold the two to each other.

use super::board::{Line, Lines, Point, corner, goal, home, is_home};
use super::{Action, Move, Origin, Position, Reason, Rules};
use crate::Player;
use crate::game::Termination;

impl Position {
    /// Whether `player` may land a counter on `to`: the landing rule of each set (for entering too).
    fn landing(&self, player: Player, to: Point) -> Result<(), Reason> {
        match self.rules {
            Rules::Schaedler if !to.is_sacred() && !self.board.is_empty(to) => {
                Err(Reason::Occupied(to))
            }
            Rules::Kidd => match self.board.count(player.other(), to) {
                enemies @ 2.. => Err(Reason::Yoke { point: to, enemies }),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// The line whose threat pins the side to move's counters on `point`, if any.
    fn pin(&self, point: Point) -> Option<Line> {
        let line = point.line();
        self.threatened.contains(line).then_some(line)
    }

    /// Every legal move for `die` except the pass, in a fixed buffer (the hot path of playouts and
    /// search allocates nothing), and whether any of them leaves the route's own counters alone
    /// (anything but a move off Kidd's holy line, which never forbids a pass).
    fn actions(&self, die: u8) -> (Actions, bool) {
        let me = self.to_move;
        let mine = self.board.of(me);
        let theirs = self.board.of(me.other());
        let mut found = Actions::default();
        for from in Point::ALL {
            if mine[from.index()] == 0 {
                continue;
            }
            let to = from.advance(die);
            let lands = match self.rules {
                Rules::Schaedler => to.is_sacred() || mine[to.index()] + theirs[to.index()] == 0,
                Rules::Kidd => theirs[to.index()] < 2,
                // A counter on a threatened line is pinned; otherwise anything may share a point.
                Rules::Perimeter => !self.threatened.contains(from.line()),
            };
            if lands {
                found.push(die, Origin::Point(from), to);
            }
        }
        let on_route = found.len > 0;
        match self.rules {
            Rules::Schaedler => (found, on_route),
            Rules::Kidd => {
                let entry = corner(me);
                let enters = self.reserve[me.index()] > 0 && theirs[entry.index()] < 2;
                if enters {
                    found.push(die, Origin::Reserve, entry);
                }
                let off = goal(me).advance(die);
                if self.holy[me.index()] > 0 && theirs[off.index()] < 2 {
                    found.push(die, Origin::HolyLine, off);
                }
                (found, on_route || enters)
            }
            Rules::Perimeter => {
                // Perimeter never passes in practice: five counters cannot all be outnumbered on
                // lines where the opponent, with five too, has at least two and more; and a
                // removed counter can always re-enter.
                if self.removed[me.index()] > 0 {
                    for to in home(me) {
                        found.push(die, Origin::Removed, to);
                    }
                }
                let any = found.len > 0;
                (found, any)
            }
        }
    }

    /// Appends the legal moves for `die`: the actions, and the pass when the rules allow it.
    pub(super) fn legal_moves(&self, die: u8, moves: &mut Vec<Move>) {
        let (found, beyond_holy_line) = self.actions(die);
        moves.extend_from_slice(found.as_slice());
        if found.len == 0 || (self.rules == Rules::Kidd && !beyond_holy_line) {
            moves.push(Move {
                die,
                action: Action::Pass,
            });
        }
    }

    /// Why `mv` is illegal here, if it is; the die is known to be the one rolled.
    pub(super) fn check(&self, mv: Move) -> Result<(), Reason> {
        let me = self.to_move;
        let (from, to) = match mv.action {
            Action::Pass => return self.check_pass(mv.die),
            Action::Go { from, to } => (from, to),
        };
        let zone_exists = match from {
            Origin::Point(_) => true,
            Origin::Reserve | Origin::HolyLine => self.rules == Rules::Kidd,
            Origin::Removed => self.rules == Rules::Perimeter,
        };
        if !zone_exists {
            return Err(Reason::NoSuchZone {
                rules: self.rules,
                from,
            });
        }
        let available = match from {
            Origin::Point(p) => self.board.count(me, p),
            Origin::Reserve => self.reserve[me.index()],
            Origin::HolyLine => self.holy[me.index()],
            Origin::Removed => self.removed[me.index()],
        };
        if available == 0 {
            return Err(Reason::NoCounter { player: me, from });
        }
        let reaches = match from {
            Origin::Point(p) => Some(p.advance(mv.die)),
            Origin::HolyLine => Some(goal(me).advance(mv.die)),
            Origin::Reserve if to != corner(me) => {
                return Err(Reason::NotTheCorner { corner: corner(me) });
            }
            Origin::Removed if !is_home(me, to) => {
                return Err(Reason::NotHome { player: me, to });
            }
            Origin::Reserve | Origin::Removed => None,
        };
        if let Some(reaches) = reaches.filter(|&r| r != to) {
            return Err(Reason::WrongDistance {
                die: mv.die,
                from,
                reaches,
            });
        }
        if let Origin::Point(p) = from
            && self.rules == Rules::Perimeter
            && let Some(line) = self.pin(p)
        {
            return Err(Reason::Pinned { point: p, line });
        }
        self.landing(me, to)
    }

    fn check_pass(&self, die: u8) -> Result<(), Reason> {
        let (found, beyond_holy_line) = self.actions(die);
        match found.as_slice().first() {
            Some(&example) if self.rules != Rules::Kidd || beyond_holy_line => {
                Err(Reason::MustMove {
                    rules: self.rules,
                    example,
                })
            }
            _ => Ok(()),
        }
    }

    /// Plays a legal move and passes the turn; returns how the mover won, if it did.
    pub(super) fn apply(&mut self, mv: Move) -> Option<Termination> {
        let me = self.to_move;
        let them = me.other();
        if let Action::Go { from, to } = mv.action {
            match from {
                Origin::Point(p) => self.board.take(me, p, 1),
                Origin::Reserve => self.reserve[me.index()] -= 1,
                Origin::HolyLine => self.holy[me.index()] -= 1,
                Origin::Removed => self.removed[me.index()] -= 1,
            }
            if self.rules == Rules::Kidd {
                // A lone enemy counter (a blot) is hit back to its reserve; the landing rule has
                // already refused two or more. Landing on the own goal then gathers the counter.
                if self.board.count(them, to) == 1 {
                    self.board.take(them, to, 1);
                    self.reserve[them.index()] += 1;
                }
                if to == goal(me) {
                    self.holy[me.index()] += 1;
                } else {
                    self.board.add(me, to, 1);
                }
            } else {
                self.board.add(me, to, 1);
            }
        }
        if self.rules == Rules::Perimeter {
            self.remove_unanswered(me);
        }
        let won = self.winning_termination(me);
        self.to_move = them;
        if self.rules == Rules::Perimeter {
            self.threatened = self.threats_against(them);
        }
        won
    }

    /// Perimeter: after `me`'s turn (a pass too), every line threatened against `me` at its start
    /// where `me` is still strictly outnumbered loses all of `me`'s counters, all lines together.
    fn remove_unanswered(&mut self, me: Player) {
        let them = me.other();
        for line in self.threatened.iter() {
            let (mine, theirs) = (self.board.on_line(me, line), self.board.on_line(them, line));
            if theirs >= 2 && theirs > mine && mine > 0 {
                for point in line.ends() {
                    let n = self.board.count(me, point);
                    self.board.take(me, point, n);
                    self.removed[me.index()] += n;
                }
            }
        }
        self.threatened = Lines::NONE;
    }

    /// Perimeter: the ordinary lines where `victim`'s opponent has at least two counters and
    /// strictly more than `victim`, who has at least one there. The sacred line is never threatened.
    pub(super) fn threats_against(&self, victim: Player) -> Lines {
        let mut lines = Lines::NONE;
        for line in Line::ORDINARY {
            let mine = self.board.on_line(victim, line);
            let theirs = self.board.on_line(victim.other(), line);
            if theirs >= 2 && theirs > mine && mine > 0 {
                lines.insert(line);
            }
        }
        lines
    }

    /// How `player` has won in this position, if it has.
    pub(super) fn winning_termination(&self, player: Player) -> Option<Termination> {
        let all = super::COUNTERS;
        let won = match self.rules {
            Rules::Schaedler => self.board.count(player, goal(player)) == all,
            Rules::Kidd => self.holy[player.index()] == all,
            Rules::Perimeter => {
                Point::ALL
                    .into_iter()
                    .filter(|&p| !is_home(player, p))
                    .map(|p| self.board.count(player, p))
                    .sum::<u8>()
                    == all
            }
        };
        won.then_some(match self.rules {
            Rules::Perimeter => Termination::Exchange,
            _ => Termination::Gathered,
        })
    }
}

/// The most actions one die allows: a move from each of the ten points, or Perimeter's moves from
/// the points not emptied by removals plus five re-entries.
const MAX_ACTIONS: usize = 16;

/// A fixed buffer of moves, so that generating them allocates nothing.
#[derive(Clone, Copy)]
struct Actions {
    list: [Move; MAX_ACTIONS],
    len: usize,
}

impl Default for Actions {
    fn default() -> Actions {
        Actions {
            list: [Move {
                die: 0,
                action: Action::Pass,
            }; MAX_ACTIONS],
            len: 0,
        }
    }
}

impl Actions {
    fn push(&mut self, die: u8, from: Origin, to: Point) {
        self.list[self.len] = Move {
            die,
            action: Action::Go { from, to },
        };
        self.len += 1;
    }

    fn as_slice(&self) -> &[Move] {
        &self.list[..self.len]
    }
}
