//! The Pente Grammai evaluation for the chance search: each rule set is a race, so a position is
//! judged by how many turns each player still needs to win, with what the opponent's next die
//! could undo (Kidd's hits, Perimeter's threats) counted at its odds.
//!
//! One move a turn means a counter not yet home costs at least one turn, and more when one die
//! cannot bring it home; the difference in turns, plus half a turn for the side about to roll,
//! goes through `tanh` into the search's -1…1.

use crate::Level;
use crate::chance::{Evaluate, Settings};
use ludus_engine::Player;
use ludus_engine::pente_grammai::{
    Line, PenteGrammai, Point, Position, Rules, corner, goal, is_home,
};

/// Turns a counter still needs, by how far it is from home, in units of one turn.
type Turns = f64;

/// A turn's worth of lead moves the value by about this much before `tanh`.
const TURN_WEIGHT: f64 = 0.35;
/// Whose turn it is is worth about half a turn.
const TEMPO: Turns = 0.5;
/// A threat against the player about to move is partly answered by that move; one against the
/// player who has just moved is met by the opponent's die as it falls.
const THREAT_IF_TO_MOVE: f64 = 0.35;

/// Levels 1–5 of each rule set, measured in the arena (CALIBRATION.md). One die
/// and few moves a turn make the search cheap; what separates the levels is mostly the share of
/// random moves, and the depth where it pays (Perimeter's threats, Kidd's hits). Schädler's race
/// gains nothing from looking ahead.
const SCHAEDLER: [Settings; 5] = [
    Settings::without_noise(0.9, 0, 10_000),
    Settings::without_noise(0.7, 0, 10_000),
    Settings::without_noise(0.48, 0, 10_000),
    Settings::without_noise(0.25, 1, 10_000),
    Settings::without_noise(0.0, 1, 10_000),
];
const KIDD: [Settings; 5] = [
    Settings::without_noise(0.8, 0, 10_000),
    Settings::without_noise(0.5, 0, 10_000),
    Settings::without_noise(0.25, 0, 10_000),
    Settings::without_noise(0.1, 1, 100_000),
    Settings::without_noise(0.0, 3, 300_000),
];
const PERIMETER: [Settings; 5] = [
    Settings::without_noise(0.75, 0, 10_000),
    Settings::without_noise(0.45, 0, 10_000),
    Settings::without_noise(0.2, 0, 10_000),
    Settings::without_noise(0.08, 1, 100_000),
    Settings::without_noise(0.0, 3, 300_000),
];

/// The evaluation of all three rule sets.
#[derive(Clone, Copy, Debug, Default)]
pub struct PenteGrammaiEvaluation;

impl Evaluate<PenteGrammai> for PenteGrammaiEvaluation {
    fn evaluate(&self, game: &PenteGrammai, player: Player) -> f64 {
        let to_move = game.position().to_move;
        let lead = turns_to_win(game, player.other()) - turns_to_win(game, player)
            + if to_move == player { TEMPO } else { -TEMPO };
        (TURN_WEIGHT * lead).tanh()
    }

    fn settings(&self, game: &PenteGrammai, level: Level) -> Settings {
        let levels = match game.rules() {
            Rules::Schaedler => &SCHAEDLER,
            Rules::Kidd => &KIDD,
            Rules::Perimeter => &PERIMETER,
        };
        levels[level.number() as usize - 1]
    }
}

/// The turns `player` still needs, counting the counters the opponent may undo at their odds.
fn turns_to_win(game: &PenteGrammai, player: Player) -> Turns {
    let position = game.position();
    let board = &position.board;
    let rules = position.rules;
    let on_route: Turns = Point::ALL
        .into_iter()
        .map(|p| board.count(player, p) as f64 * turns_from(rules, player, p))
        .sum();
    let off_route = position.reserve[player.index()] + position.removed[player.index()];
    let at_risk = match rules {
        Rules::Schaedler => 0.0,
        Rules::Kidd => blots_at_risk(position, player),
        Rules::Perimeter => formations_at_risk(position, player),
    };
    let undo_weight = if position.to_move == player {
        THREAT_IF_TO_MOVE
    } else {
        1.0
    };
    on_route + off_route as f64 * restart_turns(rules, player) + undo_weight * at_risk
}

/// Kidd: the turns `player` expects to lose to the opponent's next die hitting its blots (lone
/// counters on the route), each hit sending a counter back to the reserve.
fn blots_at_risk(position: &Position, player: Player) -> Turns {
    let board = &position.board;
    let hitter = player.other();
    let (reserve, holy) = (
        position.reserve[hitter.index()],
        position.holy[hitter.index()],
    );
    let restart = restart_turns(Rules::Kidd, player);
    Point::ALL
        .into_iter()
        .filter(|&p| board.count(player, p) == 1)
        .map(|p| {
            // Entering on its corner needs no particular throw.
            let entering = reserve > 0 && corner(hitter) == p;
            let faces = (1..=6)
                .filter(|&die| {
                    entering
                        || board.count(hitter, p.back(die)) > 0
                        || (holy > 0 && goal(hitter).advance(die) == p)
                })
                .count();
            faces as f64 / 6.0 * (restart - turns_from(Rules::Kidd, player, p))
        })
        .sum()
}

/// Perimeter: the turns `player` expects to lose to removals. Its counters on a line already
/// outnumbered (pinned, or about to be) are lost unless answered; on a line where one more
/// opponent counter would outnumber them, they are at the odds that the opponent's die brings
/// one there, and half lost even then, as a threat can still be answered.
fn formations_at_risk(position: &Position, player: Player) -> Turns {
    let board = &position.board;
    let rival = player.other();
    let restart = restart_turns(Rules::Perimeter, player);
    let mut turns = 0.0;
    for line in Line::ORDINARY {
        let (mine, theirs) = (board.on_line(player, line), board.on_line(rival, line));
        if mine == 0 || theirs < mine.max(1) {
            continue;
        }
        let chance = if theirs >= 2 && theirs > mine {
            1.0
        } else {
            let ends = line.points();
            let re_entry = position.removed[rival.index()] > 0
                && line.ends().iter().any(|&p| is_home(rival, p));
            let faces = (1..=6)
                .filter(|&die| {
                    re_entry
                        || board
                            .occupied(rival)
                            .iter()
                            .any(|q| !ends.contains(q) && ends.contains(q.advance(die)))
                })
                .count();
            0.5 * faces as f64 / 6.0
        };
        let lost: Turns = line
            .ends()
            .iter()
            .map(|&p| {
                board.count(player, p) as f64 * (restart - turns_from(Rules::Perimeter, player, p))
            })
            .sum();
        turns += chance * lost;
    }
    turns
}

/// The turns a counter on `point` still needs: none once home, one when a single die may bring
/// it there, two when it needs two; plus a fraction for each face that does not fit.
fn turns_from(rules: Rules, player: Player, point: Point) -> Turns {
    if rules == Rules::Perimeter {
        // Home is any of the opponent's setup points; count the faces that land there.
        if !is_home(player, point) {
            return 0.0;
        }
        let fitting = (1..=6)
            .filter(|&die| !is_home(player, point.advance(die)))
            .count();
        return 1.0 + 0.15 * (6 - fitting) as f64;
    }
    // Schädler and Kidd gather on the goal, landing exactly.
    let distance = (goal(player).number() + 10 - point.number()) % 10;
    match distance {
        0 => 0.0,
        1..=6 => 1.3,
        _ => 2.3,
    }
}

/// The turns a counter off the route (Kidd's reserve, Perimeter's removed) needs: one to come
/// back, then the way from where it comes back.
fn restart_turns(rules: Rules, player: Player) -> Turns {
    match rules {
        // It may come back on any setup point: the best of them.
        Rules::Perimeter => {
            1.0 + Point::ALL
                .into_iter()
                .filter(|&p| is_home(player, p))
                .map(|p| turns_from(rules, player, p))
                .fold(f64::INFINITY, f64::min)
        }
        _ => 1.0 + turns_from(rules, player, corner(player)),
    }
}
