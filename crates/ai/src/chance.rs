//! Expectimax for the dice games, generic over the engine's [`Chance`] trait, with Star1 pruning.
//!
//! The tree follows the game's phases, never a fixed alternation: an `AwaitingRoll` state is a
//! chance node over [`Chance::roll_outcomes`] with their weights; an `AwaitingMove` state is a max
//! node when the root player is to move and a min node otherwise. A turn of several moves by one
//! player (Duodecim's three dice, its bonus dice) is therefore a run of max nodes searched as one
//! whole turn. Depth counts rolls: depth 0 searches the rest of the current turn and evaluates at
//! the next roll; each further unit expands one more roll and the turn after it.
//!
//! Values are the expected result for the root player, from -1 (a sure loss) to 1 (a sure win);
//! each game supplies its evaluation through [`Evaluate`], which must stay within those bounds, as
//! Star1 relies on them.

use crate::Level;
use crate::random::generator;
use ludus_engine::{Chance, Phase, Player};
use rand::Rng;
use rand::seq::IndexedRandom;
use std::time::Instant;

/// The lowest and highest value a state can have.
const LOSS: f64 = -1.0;
const WIN: f64 = 1.0;
/// The most an evaluation may claim: an estimate stays short of a proven result, so that a won
/// game reached by search always ranks above a position that merely looks won.
const SUREST_ESTIMATE: f64 = 1.0 - 1e-6;

/// A game's evaluation for the chance search.
pub trait Evaluate<G: Chance> {
    /// The expected result of `game` for `player`, from -1 (lost) to 1 (won), in any phase: at
    /// the start of a turn (awaiting its roll) or in the middle of one.
    fn evaluate(&self, game: &G, player: Player) -> f64;

    /// What each level does in `game`: games differ in their cost per node, in their luck and in
    /// what search gains there, so each game tunes its levels by measurement.
    fn settings(&self, _game: &G, level: Level) -> Settings {
        Settings::for_level(level)
    }
}

/// What one level may do in a dice game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The chance of playing a uniformly random legal move instead of searching.
    pub random_move: f64,
    /// The most rolls to look ahead (0: the rest of this turn only).
    pub max_depth: u32,
    /// Nodes the search may visit (the deterministic budget; the time cap stays a cap).
    pub nodes: u64,
    /// Noise added to each root move's value, at most this much either way.
    pub noise: f64,
}

impl Settings {
    /// A level that plays a random move with the chance `random_move` and otherwise the best
    /// move found `max_depth` rolls ahead within `nodes`, unblurred. In long dice games even
    /// slight noise decides the game once one side leads (the values of the moves then differ
    /// by little), so the dice games weaken their levels by random moves instead.
    pub const fn without_noise(random_move: f64, max_depth: u32, nodes: u64) -> Settings {
        Settings {
            random_move,
            max_depth,
            nodes,
            noise: 0.0,
        }
    }

    pub fn for_level(level: Level) -> Settings {
        match level.number() {
            1 => Settings {
                random_move: 0.5,
                max_depth: 0,
                nodes: 5_000,
                noise: 0.3,
            },
            2 => Settings {
                random_move: 0.1,
                max_depth: 0,
                nodes: 20_000,
                noise: 0.1,
            },
            3 => Settings {
                random_move: 0.0,
                max_depth: 1,
                nodes: 100_000,
                noise: 0.03,
            },
            4 => Settings {
                random_move: 0.0,
                max_depth: 2,
                nodes: 400_000,
                noise: 0.01,
            },
            _ => Settings {
                random_move: 0.0,
                max_depth: 3,
                nodes: 2_000_000,
                noise: 0.0,
            },
        }
    }
}

/// The move `level` plays, or `None` when no move is awaited (the game is over or awaits a roll).
pub fn choose_move<G: Chance, E: Evaluate<G>>(
    game: &G,
    evaluation: &E,
    level: Level,
    seed: u64,
    deadline: Instant,
) -> Option<G::Move> {
    decide(
        game,
        evaluation,
        evaluation.settings(game, level),
        seed,
        deadline,
    )
}

/// Chooses with explicit settings.
pub fn decide<G: Chance, E: Evaluate<G>>(
    game: &G,
    evaluation: &E,
    settings: Settings,
    seed: u64,
    deadline: Instant,
) -> Option<G::Move> {
    if game.phase() != Phase::AwaitingMove {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut rng = generator(seed);
    if moves.len() <= 1 || rng.random_bool(settings.random_move) {
        return moves.choose(&mut rng).copied();
    }
    let mut search = Expectimax::new(game.to_move(), evaluation, settings.nodes, deadline);
    let mut chosen = None;
    for depth in 0..=settings.max_depth {
        // Every root move gets an exact value (a full window), so that noise compares like with like.
        let values: Vec<f64> = moves
            .iter()
            .map(|&mv| search.after_move(game, mv, depth, LOSS, WIN))
            .collect();
        if search.stopped && chosen.is_some() {
            break;
        }
        // Noise blurs estimates only: a proven win or loss keeps its value, and no estimate is
        // blurred into one.
        let noisy = values.iter().map(|&v| {
            if v.abs() >= WIN {
                v
            } else {
                let blur = settings.noise * (2.0 * rng.random::<f64>() - 1.0);
                (v + blur).clamp(-SUREST_ESTIMATE, SUREST_ESTIMATE)
            }
        });
        chosen = noisy
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| moves[i]);
        if search.stopped {
            break;
        }
    }
    chosen
}

/// The expected result for the player to move of searching `depth` rolls ahead: for tests and
/// analysis. `None` unless a move is awaited.
pub fn value<G: Chance, E: Evaluate<G>>(game: &G, evaluation: &E, depth: u32) -> Option<f64> {
    if game.phase() != Phase::AwaitingMove {
        return None;
    }
    let far = Instant::now() + std::time::Duration::from_secs(24 * 3600);
    let mut search = Expectimax::new(game.to_move(), evaluation, u64::MAX, far);
    Some(search.value(game, depth, LOSS, WIN))
}

struct Expectimax<'e, E> {
    root_player: Player,
    evaluation: &'e E,
    node_limit: u64,
    deadline: Instant,
    nodes: u64,
    stopped: bool,
}

impl<'e, E> Expectimax<'e, E> {
    fn new(root_player: Player, evaluation: &'e E, node_limit: u64, deadline: Instant) -> Self {
        Expectimax {
            root_player,
            evaluation,
            node_limit,
            deadline,
            nodes: 0,
            stopped: false,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.stopped
            && (self.nodes >= self.node_limit
                || (self.nodes.is_multiple_of(256) && Instant::now() >= self.deadline))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn after_move<G: Chance>(
        &mut self,
        game: &G,
        mv: G::Move,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64
    where
        E: Evaluate<G>,
    {
        let mut child = game.clone();
        child.play_listed(mv);
        self.value(&child, depth, alpha, beta)
    }

    /// The value of `game` for the root player, fail-soft within (`alpha`, `beta`).
    fn value<G: Chance>(&mut self, game: &G, depth: u32, alpha: f64, beta: f64) -> f64
    where
        E: Evaluate<G>,
    {
        self.nodes += 1;
        // Every node counts towards the budget, leaves too: they are most of the nodes.
        let stopped = self.out_of_budget();
        match game.phase() {
            Phase::Over(outcome) => match outcome.winner {
                Some(winner) if winner == self.root_player => WIN,
                Some(_) => LOSS,
                None => 0.0,
            },
            Phase::AwaitingRoll if depth == 0 || stopped => self.leaf(game),
            Phase::AwaitingRoll => self.chance(game, depth - 1, alpha, beta),
            Phase::AwaitingMove if stopped => self.leaf(game),
            Phase::AwaitingMove => self.choice(game, depth, alpha, beta),
        }
    }

    fn leaf<G: Chance>(&self, game: &G) -> f64
    where
        E: Evaluate<G>,
    {
        self.evaluation
            .evaluate(game, self.root_player)
            .clamp(-SUREST_ESTIMATE, SUREST_ESTIMATE)
    }

    /// A max node for the root player's moves, a min node for the opponent's.
    fn choice<G: Chance>(&mut self, game: &G, depth: u32, mut alpha: f64, mut beta: f64) -> f64
    where
        E: Evaluate<G>,
    {
        let maximising = game.to_move() == self.root_player;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut children: Vec<G> = moves
            .iter()
            .map(|&mv| {
                let mut child = game.clone();
                child.play_listed(mv);
                child
            })
            .collect();
        if depth > 0 && children.len() > 1 {
            // The most promising first, by a glance at each child: cutoffs come sooner.
            let mut keyed: Vec<(f64, G)> =
                children.into_iter().map(|c| (self.leaf(&c), c)).collect();
            keyed.sort_by(|a, b| {
                let order = b.0.total_cmp(&a.0);
                if maximising { order } else { order.reverse() }
            });
            children = keyed.into_iter().map(|(_, c)| c).collect();
        }
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for child in &children {
            let v = self.value(child, depth, alpha, beta);
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The weighted mean over the rolls, with Star1's cutoffs: stop once the rolls still to come
    /// could not lift the mean above `alpha` (or bring it below `beta`) even at their bounds.
    fn chance<G: Chance>(&mut self, game: &G, depth: u32, alpha: f64, beta: f64) -> f64
    where
        E: Evaluate<G>,
    {
        let outcomes = game.roll_outcomes();
        let total: u32 = outcomes.iter().map(|&(_, w)| w).sum();
        let mut sum = 0.0;
        let mut remaining = 1.0;
        for &(dice, weight) in outcomes {
            let p = weight as f64 / total as f64;
            remaining -= p;
            // The window this roll's value must fall in for the mean to land inside ours.
            let child_alpha = ((alpha - sum - remaining * WIN) / p).max(LOSS);
            let child_beta = ((beta - sum - remaining * LOSS) / p).min(WIN);
            let mut child = game.clone();
            child.roll(dice).expect("a roll the game lists");
            sum += p * self.value(&child, depth, child_alpha, child_beta);
            let (lowest, highest) = (sum + remaining * LOSS, sum + remaining * WIN);
            if highest <= alpha {
                return highest;
            }
            if lowest >= beta {
                return lowest;
            }
        }
        sum
    }
}
