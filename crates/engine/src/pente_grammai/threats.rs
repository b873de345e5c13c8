//! "Show my threatened counters": for each player, the counters the opponent's next move could
//! endanger, with how many of the six throws do it. The hint is judged as if the opponent moved
//! now from this board, whoever is to move, as Petteia's is.
//!
//! - Schädler: nothing is ever captured, so nothing is threatened.
//! - Kidd: each own blot (a lone counter on the route) the opponent could hit; a throw counts when
//!   some action it allows lands there (entry on the opponent's corner needs no particular throw).
//! - Perimeter: each point holding own counters on a line where the opponent's next move could
//!   leave a threat against them; a throw counts when some action it allows does (including a
//!   threat that already stands and that the move leaves in place).

use super::board::{Lines, POINTS, Point, corner, goal};
use super::{Position, Rules};
use crate::Player;
use crate::game::{Odds, Threat};

const FACES: u32 = 6;

impl Position {
    pub(super) fn threatened_counters(&self, victim: Player) -> Vec<Threat> {
        let hits_at: [u32; POINTS] = match self.rules {
            Rules::Schaedler => return Vec::new(),
            Rules::Kidd => self.blots_in_reach(victim),
            Rules::Perimeter => self.formations_in_reach(victim),
        };
        Point::ALL
            .into_iter()
            .filter(|&p| hits_at[p.index()] > 0)
            .map(|p| Threat {
                place: p.to_string(),
                odds: Some(Odds {
                    hits: hits_at[p.index()],
                    of: FACES,
                }),
            })
            .collect()
    }

    fn blots_in_reach(&self, victim: Player) -> [u32; POINTS] {
        let hitter = victim.other();
        let h = hitter.index();
        let mut hits = [0; POINTS];
        for p in Point::ALL
            .into_iter()
            .filter(|&p| self.board.count(victim, p) == 1)
        {
            let entry = self.reserve[h] > 0 && corner(hitter) == p;
            hits[p.index()] = (1..=FACES as u8)
                .filter(|&die| {
                    entry
                        || self.board.count(hitter, p.back(die)) > 0
                        || (self.holy[h] > 0 && goal(hitter).advance(die) == p)
                })
                .count() as u32;
        }
        hits
    }

    fn formations_in_reach(&self, victim: Player) -> [u32; POINTS] {
        let mover = victim.other();
        let mut turn = *self;
        if turn.to_move != mover {
            // As if the victim had just passed: threats against the mover judged afresh.
            turn.to_move = mover;
            turn.threatened = turn.threats_against(mover);
        }
        let mut hits_on_line = [0u32; 6];
        let mut moves = Vec::with_capacity(16);
        for die in 1..=FACES as u8 {
            moves.clear();
            turn.legal_moves(die, &mut moves);
            let reached = moves.iter().fold(Lines::NONE, |reached, &mv| {
                let mut after = turn;
                after.apply(mv);
                reached.union(after.threatened)
            });
            for line in reached.iter() {
                hits_on_line[line.number() as usize] += 1;
            }
        }
        let mut hits = [0; POINTS];
        for p in self.board.occupied_by(victim) {
            hits[p.index()] = hits_on_line[p.line().number() as usize];
        }
        hits
    }
}
