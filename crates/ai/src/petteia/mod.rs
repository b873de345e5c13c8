//! The Petteia player: iterative deepening over `search`, with the root judged by the engine
//! itself (a clone of the game plays each root move), so that the game's real history decides
//! threefold repetition one ply ahead, where it matters most.

mod eval;
mod node;
mod search;

use crate::Level;
use crate::random::{generator, splitmix64};
use ludus_engine::Game;
use ludus_engine::petteia::{Move, Petteia};
use node::Node;
use rand::Rng;
use rand::seq::IndexedRandom;
use search::{INFINITY, Limits, Searcher, WIN};
use std::time::Instant;

/// What one level may do in Petteia.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The chance of playing a uniformly random legal move instead of searching.
    pub random_move: f64,
    /// The deepest iteration, in plies (quiescence comes on top).
    pub max_depth: i32,
    /// Nodes the search may visit (the deterministic budget; the level's time cap stays a cap).
    pub nodes: u64,
    /// Evaluation noise either way, in hundredths of a piece.
    pub noise: i32,
    /// What a draw costs, in hundredths of a piece (see `search::Limits`).
    pub contempt: i32,
}

impl Settings {
    pub fn for_level(level: Level) -> Settings {
        match level.number() {
            1 => Settings {
                random_move: 0.5,
                max_depth: 1,
                nodes: 2_000,
                noise: 120,
                contempt: 0,
            },
            2 => Settings {
                random_move: 0.25,
                max_depth: 2,
                nodes: 10_000,
                noise: 50,
                contempt: 25,
            },
            3 => Settings {
                random_move: 0.1,
                max_depth: 3,
                nodes: 50_000,
                noise: 25,
                contempt: 25,
            },
            4 => Settings {
                random_move: 0.03,
                max_depth: 5,
                nodes: 200_000,
                noise: 10,
                contempt: 25,
            },
            _ => Settings {
                random_move: 0.0,
                max_depth: 64,
                nodes: 1_000_000,
                noise: 3,
                contempt: 25,
            },
        }
    }
}

/// The result of one decision, with what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub mv: Move,
    /// The score from the mover's view, in hundredths of a piece (wins near ±30000); `None` for a
    /// random move.
    pub score: Option<i32>,
    /// The deepest iteration completed.
    pub depth: i32,
    pub nodes: u64,
}

/// The move `level` plays in `game`, or `None` if the game is over.
pub fn choose_move(game: &Petteia, level: Level, seed: u64, deadline: Instant) -> Option<Move> {
    decide(game, Settings::for_level(level), seed, deadline).map(|d| d.mv)
}

/// Searches with explicit settings.
pub fn decide(
    game: &Petteia,
    settings: Settings,
    seed: u64,
    deadline: Instant,
) -> Option<Decision> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let root: Node = *game.position();
    // One game seed gives different (but replayable) choices in different positions.
    let seed = splitmix64(seed ^ root.hash());
    let mut rng = generator(seed);
    if moves.len() <= 1 || rng.random_bool(settings.random_move) {
        let mv = *moves.choose(&mut rng)?;
        return Some(Decision {
            mv,
            score: None,
            depth: 0,
            nodes: 0,
        });
    }

    // Root moves that end the game, judged by the engine with the game's whole history.
    let known: Vec<Option<i32>> = moves
        .iter()
        .map(|&mv| {
            let mut after = game.clone();
            after.play_listed(mv);
            after.outcome().map(|outcome| match outcome.winner {
                Some(winner) if winner == game.to_move() => WIN - 1,
                Some(_) => -(WIN - 1),
                None => -settings.contempt,
            })
        })
        .collect();

    let limits = Limits {
        nodes: settings.nodes,
        deadline,
        noise: settings.noise,
        seed,
        contempt: settings.contempt,
    };
    let mut searcher = Searcher::new(limits, root.hash());
    let mut order: Vec<usize> = (0..moves.len()).collect();
    let mut decision = None;
    for depth in 1..=settings.max_depth {
        let table_move = searcher.table_move(root.hash());
        order.sort_by_key(|&i| {
            std::cmp::Reverse(searcher.order_key(&root, moves[i], table_move, 0))
        });
        if let Some(Decision { mv, .. }) = decision {
            let previous = order
                .iter()
                .position(|&i| moves[i] == mv)
                .expect("a root move");
            order[..=previous].rotate_right(1);
        }
        let mut alpha = -INFINITY;
        let mut best: Option<(usize, i32)> = None;
        for &i in &order {
            let score = match known[i] {
                Some(score) => score,
                None => searcher.score_move(&root, moves[i], depth, alpha, INFINITY, 0),
            };
            if searcher.stopped {
                break;
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
                alpha = alpha.max(score);
            }
        }
        // A cut-short iteration still counts for the moves it finished: the previous best was
        // searched first, so anything that beat it is better at the deeper depth.
        if let Some((i, score)) = best {
            decision = Some(Decision {
                mv: moves[i],
                score: Some(score),
                depth: if searcher.stopped { depth - 1 } else { depth },
                nodes: searcher.nodes,
            });
        }
        let decided = best.is_some_and(|(_, score)| score.abs() > WIN - 1_000);
        if searcher.stopped || decided {
            break;
        }
    }
    decision.or_else(|| {
        Some(Decision {
            mv: moves[0],
            score: None,
            depth: 0,
            nodes: searcher.nodes,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(3600)
    }

    /// The move `level`'s search chooses, its share of random moves set aside: which moves a
    /// seed turns random is luck, not search.
    fn best(position: &str, level: Level) -> String {
        let game = Petteia::parse(position).expect("parses");
        let settings = Settings {
            random_move: 0.0,
            ..Settings::for_level(level)
        };
        decide(&game, settings, 7, far())
            .expect("a move")
            .mv
            .to_string()
    }

    #[test]
    fn a_capture_that_wins_by_reduction_is_played() {
        // docs/RULES.md test vector 3: D1-D3 takes the last three Dark pieces.
        for level in Level::ALL[2..].iter().copied() {
            assert_eq!(best("6/3L2/3D2/1LD1DL/6/3L2 l", level), "D1-D3");
        }
    }

    #[test]
    fn a_long_slide_that_closes_the_last_sandwich_is_played() {
        // Dark has two pieces; A2-C2 flanks C3 against C4 and leaves Dark one piece.
        for level in Level::ALL[2..].iter().copied() {
            assert_eq!(best("6/6/2L3/2D3/L5/3D2 l", level), "A2-C2");
        }
    }
}
