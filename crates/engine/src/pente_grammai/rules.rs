//! The rules of the three sets on one position: which actions a die allows, why one is refused,
//! and what playing one does (hits, gathering, Perimeter's removals and threats, the win).
//!
//! Generation and checking are written separately on purpose: generation is the hot path of search
//! and playouts (no allocation beyond the caller's buffer), checking names the first rule a move
//! breaks. The consistency tests hold the two to each other.

use super::board::{Line, Lines, POINTS, Point, Points, corner, goal, home, is_home};
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

    /// Calls `found` with every legal move for `die` except the pass, and says whether any of them
    /// leaves the holy line alone (a move off Kidd's holy line never forbids a pass). Works on sets
    /// of points: the hot path of playouts and search, with no allocation.
    fn actions(&self, die: u8, mut found: impl FnMut(Move)) -> bool {
        let me = self.to_move;
        let them = me.other();
        let board = &self.board;
        let mut go = |from: Origin, to: Point| {
            found(Move {
                die,
                action: Action::Go { from, to },
            })
        };
        let (movers, landings) = match self.rules {
            Rules::Schaedler => (
                board.occupied(me),
                !(board.occupied(me) | board.occupied(them)) | Points::SACRED,
            ),
            Rules::Kidd => (board.occupied(me), !board.stacked(them)),
            Rules::Perimeter => {
                // Counters on a line threatened against their player are pinned.
                let pinned = self
                    .threatened
                    .iter()
                    .fold(Points::default(), |pinned, line| pinned | line.points());
                (board.occupied(me) & !pinned, Points::ALL)
            }
        };
        let targets = movers.advance(die) & landings;
        for to in targets.iter() {
            go(Origin::Point(to.back(die)), to);
        }
        let mut beyond_holy_line = !targets.is_empty();
        match self.rules {
            Rules::Schaedler => {}
            Rules::Kidd => {
                let entry = corner(me);
                if self.reserve[me.index()] > 0 && landings.contains(entry) {
                    go(Origin::Reserve, entry);
                    beyond_holy_line = true;
                }
                let off = goal(me).advance(die);
                if self.holy[me.index()] > 0 && landings.contains(off) {
                    go(Origin::HolyLine, off);
                }
            }
            Rules::Perimeter => {
                // Perimeter never passes in practice: five counters cannot all be outnumbered on
                // lines where the opponent, with five too, has at least two and more; and a
                // removed counter can always re-enter.
                if self.removed[me.index()] > 0 {
                    for to in home(me) {
                        go(Origin::Removed, to);
                    }
                    beyond_holy_line = true;
                }
            }
        }
        beyond_holy_line
    }

    /// Appends the legal moves for `die`: the actions, and the pass when the rules allow it.
    pub(super) fn legal_moves(&self, die: u8, moves: &mut Vec<Move>) {
        let before = moves.len();
        let beyond_holy_line = self.actions(die, |mv| moves.push(mv));
        if moves.len() == before || (self.rules == Rules::Kidd && !beyond_holy_line) {
            moves.push(Move {
                die,
                action: Action::Pass,
            });
        }
    }

    /// The move at index `pick(n)` of the `n` that [`Position::legal_moves`] lists for `die`, in
    /// the same order, gathered on the stack: a move from each point of the route, at most one
    /// from the reserve and one from the holy line, one per home point, and the pass stay under
    /// twenty.
    pub(super) fn pick_legal_move(&self, die: u8, pick: impl FnOnce(usize) -> usize) -> Move {
        let pass = Move {
            die,
            action: Action::Pass,
        };
        // Slots past the actions hold the pass, so the pass is the slot after the last action.
        let mut listed = [pass; 2 * POINTS];
        let mut count = 0;
        let beyond_holy_line = self.actions(die, |mv| {
            listed[count] = mv;
            count += 1;
        });
        let pass_listed = count == 0 || (self.rules == Rules::Kidd && !beyond_holy_line);
        listed[pick(count + usize::from(pass_listed))]
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
            if from == Origin::Point(goal(me)) && self.holy[me.index()] > 0 {
                // Kidd's gathered counters sit on the holy line, written H, not on the goal point.
                return Err(Reason::OnHolyLine { goal: goal(me), to });
            }
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
        let mut first = None;
        let beyond_holy_line = self.actions(die, |mv| {
            first.get_or_insert(mv);
        });
        match first {
            Some(example) if self.rules != Rules::Kidd || beyond_holy_line => {
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
