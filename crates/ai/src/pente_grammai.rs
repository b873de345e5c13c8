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
use ludus_engine::pente_grammai::{PenteGrammai, Point, Rules, corner, goal, is_home};

/// Turns a counter still needs, by how far it is from home, in units of one turn.
type Turns = f64;

/// A turn's worth of lead moves the value by about this much before `tanh`.
const TURN_WEIGHT: f64 = 0.35;
/// Whose turn it is is worth about half a turn.
const TEMPO: Turns = 0.5;
/// A threat against the player about to move is partly answered by that move; one against the
/// player who has just moved is met by the opponent's die as it falls.
const THREAT_IF_TO_MOVE: f64 = 0.35;

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

    fn settings(&self, level: Level) -> Settings {
        Settings::for_level(level)
    }
}

/// The turns `player` still needs, counting the counters the opponent may undo at their odds.
fn turns_to_win(game: &PenteGrammai, player: Player) -> Turns {
    let position = game.position();
    let board = &position.board;
    let rules = position.rules;
    let to_go = |point: Point| turns_from(rules, player, point);
    let on_route: Turns = Point::ALL
        .into_iter()
        .map(|p| board.count(player, p) as f64 * to_go(p))
        .sum();
    let (reserve, removed) = (
        position.reserve[player.index()] as f64,
        position.removed[player.index()] as f64,
    );
    let restart = restart_turns(rules, player);
    let mut turns = on_route + (reserve + removed) * restart;
    let undo_weight = if position.to_move == player {
        THREAT_IF_TO_MOVE
    } else {
        1.0
    };
    for threat in game.threatened(player) {
        let (Ok(point), Some(odds)) = (threat.place.parse::<u8>(), threat.odds) else {
            continue;
        };
        let point = Point::new(point).expect("a threat names a point of the board");
        let chance = odds.hits as f64 / odds.of as f64;
        let lost = restart - to_go(point);
        turns += undo_weight * chance * board.count(player, point) as f64 * lost;
    }
    if rules == Rules::Perimeter {
        // Counters pinned now are removed unless this very turn answers the threat.
        for line in position
            .threatened
            .iter()
            .filter(|_| position.to_move == player)
        {
            for point in line.ends() {
                let lost = restart - to_go(point);
                turns += THREAT_IF_TO_MOVE * board.count(player, point) as f64 * lost;
            }
        }
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
