//! Negamax alpha-beta with a transposition table, move ordering (table move, captures, killers,
//! history) and a quiescence search on captures. Iterative deepening and the root live in
//! `super`; this module searches below the root.
//!
//! Repetition: a node whose hash already occurred on the path since the last capture scores as a
//! draw. The engine draws only at the third occurrence, but a side that can repeat once can repeat
//! again, and the path is all the history search has.

use super::eval::{self, WEIGHTS};
use super::node::{self, After, Node};
use crate::random::noise;
use ludus_engine::petteia::{Move, Square};
use std::time::Instant;

/// A won game scores `WIN - plies to the win`; every evaluation stays far below it.
pub(crate) const WIN: i32 = 30_000;
const WIN_BOUND: i32 = WIN - 1_000;
pub(crate) const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    hash: u64,
    best: Option<Move>,
    score: i32,
    depth: i8,
    bound: Bound,
}

/// What one search may spend, and how it is perturbed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub nodes: u64,
    pub deadline: Instant,
    /// Evaluation noise, in centipieces either way.
    pub noise: i32,
    pub seed: u64,
    /// What a draw costs the root player, in hundredths of a piece: a level that expects to be
    /// the stronger side plays on rather than repeating or waiting for the no-capture limit.
    pub contempt: i32,
}

/// The state of one decision's search, kept across the iterations of iterative deepening.
#[derive(Debug)]
pub(crate) struct Searcher {
    table: Vec<Option<Entry>>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// `history[from][to]`: how often a quiet move cut off, weighted by depth².
    history: Box<[[u32; 64]; 64]>,
    /// Hashes on the path from the root, the current node last.
    path: Vec<u64>,
    /// Where in `path` the positions since the last capture begin.
    rep_start: usize,
    limits: Limits,
    pub nodes: u64,
    pub stopped: bool,
}

fn index(sq: Square) -> usize {
    sq.bit().trailing_zeros() as usize
}

impl Searcher {
    pub fn new(limits: Limits, root_hash: u64) -> Searcher {
        let slots = (limits.nodes.next_power_of_two()).clamp(1 << 12, 1 << 20) as usize;
        Searcher {
            table: vec![None; slots],
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 64]; 64]),
            path: vec![root_hash],
            rep_start: 0,
            limits,
            nodes: 0,
            stopped: false,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.stopped
            && (self.nodes >= self.limits.nodes
                || (self.nodes.is_multiple_of(1024) && Instant::now() >= self.limits.deadline))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn slot(&self, hash: u64) -> usize {
        (hash as usize) & (self.table.len() - 1)
    }

    /// A draw from the view of the side that just moved at `ply` (the root player moves at even plies).
    pub fn draw(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.limits.contempt
        } else {
            self.limits.contempt
        }
    }

    fn evaluate(&self, node: &Node) -> i32 {
        eval::evaluate(node, &WEIGHTS) + noise(self.limits.seed, node.hash(), self.limits.noise)
    }

    /// The score of the move `mv` from `node` for the side that plays it, searched `depth` plies
    /// deep (at most 1: captures only).
    pub fn score_move(
        &mut self,
        node: &Node,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let (child, after) = node::after(node, mv);
        match after {
            After::MoverWins => WIN - (ply as i32 + 1),
            After::Drawn => self.draw(ply),
            After::Continues { captured } => {
                let saved_start = self.rep_start;
                if captured {
                    self.rep_start = self.path.len();
                } else if self.path[self.rep_start..].contains(&child.hash()) {
                    return self.draw(ply);
                }
                self.path.push(child.hash());
                let score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
                self.path.pop();
                self.rep_start = saved_start;
                score
            }
        }
    }

    pub fn negamax(
        &mut self,
        node: &Node,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(node, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let original_alpha = alpha;
        let slot = self.slot(node.hash());
        let mut table_move = None;
        if let Some(entry) = self.table[slot].filter(|e| e.hash == node.hash()) {
            table_move = entry.best;
            if entry.depth as i32 >= depth {
                let score = from_table(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        let mut moves = Vec::with_capacity(64);
        node.legal_moves(&mut moves);
        let mut keys: Vec<i64> = moves
            .iter()
            .map(|&mv| self.order_key(node, mv, table_move, ply))
            .collect();

        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            // Selection sort: a cutoff usually comes early, so sorting everything is wasted.
            let pick = (i..moves.len()).max_by_key(|&j| keys[j]).expect("i < len");
            moves.swap(i, pick);
            keys.swap(i, pick);
            let mv = moves[i];
            let score = self.score_move(node, mv, depth, alpha, beta, ply);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if node::captures_of(node, mv) == 0 {
                    let killers = &mut self.killers[ply];
                    if killers[0] != Some(mv) {
                        killers[1] = killers[0];
                        killers[0] = Some(mv);
                    }
                    let h = &mut self.history[index(mv.from)][index(mv.to)];
                    *h = h.saturating_add((depth * depth) as u32);
                }
                break;
            }
        }

        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            hash: node.hash(),
            best: best_move,
            score: to_table(best, ply),
            depth: depth.min(i8::MAX as i32) as i8,
            bound,
        });
        best
    }

    /// Captures only, until the position is quiet; the side to move may always stand pat.
    fn quiescence(&mut self, node: &Node, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let stand_pat = self.evaluate(node);
        if stand_pat >= beta || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut captures = Vec::with_capacity(8);
        node::captures(node, &mut captures);
        captures.sort_by_key(|&mv| std::cmp::Reverse(node::captures_of(node, mv)));
        let mut best = stand_pat;
        for mv in captures {
            let score = self.score_move(node, mv, 0, alpha, beta, ply);
            if self.stopped {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Larger searches first: the table's move, then captures (more first), killers, history.
    pub fn order_key(&self, node: &Node, mv: Move, table_move: Option<Move>, ply: usize) -> i64 {
        if Some(mv) == table_move {
            return i64::MAX;
        }
        let captures = node::captures_of(node, mv);
        if captures > 0 {
            return (1 << 40) + captures as i64;
        }
        if self.killers[ply][0] == Some(mv) {
            return (1 << 39) + 1;
        }
        if self.killers[ply][1] == Some(mv) {
            return 1 << 39;
        }
        self.history[index(mv.from)][index(mv.to)] as i64
    }

    /// The best move stored for `hash`, if any.
    pub fn table_move(&self, hash: u64) -> Option<Move> {
        self.table[self.slot(hash)]
            .filter(|e| e.hash == hash)
            .and_then(|e| e.best)
    }
}

/// Win scores are stored relative to the node, so that a transposition at another ply reads right.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
