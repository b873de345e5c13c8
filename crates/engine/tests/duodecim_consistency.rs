//! Duodecim Scripta over thousands of seeded random games, and an exhaustive reference check of
//! the maximal-sequence rule and of the threat odds on a sample of the positions met.
//!
//! The reference below is deliberately naive: a signed count per step, every single move tried
//! for every remaining die (duplicates included), every complete sequence enumerated. It shares
//! nothing with the engine but the position it reads.

mod common;

use ludus_engine::duodecim::{Duodecim, Position, Step};
use ludus_engine::{AnyGame, AnyMove, MoveError, Phase, Player, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// The cell of a route step, written out from docs/RULES.md §3.1's table.
fn cell_name(step: u8) -> String {
    match step {
        1..=12 => format!("M{step}"),
        13..=24 => format!("T{}", 25 - step),
        _ => format!("B{}", step - 24),
    }
}

/// A position as plain numbers: `cells[s] > 0` White pieces on step s, `< 0` Black pieces.
#[derive(Clone, Debug)]
struct Model {
    cells: [i8; 37],
    reserve: [u8; 2],
    off: [u8; 2],
}

impl Model {
    fn read(position: &Position) -> Model {
        let mut cells = [0i8; 37];
        for s in 1..=36u8 {
            if let Some((player, n)) = position.board.stack(Step::new(s).unwrap()) {
                cells[s as usize] = if player == Player::First {
                    n as i8
                } else {
                    -(n as i8)
                };
            }
        }
        let both = |f: &dyn Fn(Player) -> u8| [f(Player::First), f(Player::Second)];
        Model {
            cells,
            reserve: both(&|p| position.board.reserve(p)),
            off: both(&|p| position.board.off(p)),
        }
    }

    fn own(&self, p: usize, s: usize) -> i8 {
        if p == 0 {
            self.cells[s].max(0)
        } else {
            (-self.cells[s]).max(0)
        }
    }

    fn enemy(&self, p: usize, s: usize) -> i8 {
        self.own(1 - p, s)
    }

    /// Every legal single move of player `p` with `die`: (origin 0 = reserve or step, landing
    /// step or 37 for off, whether it hits, the model after it).
    fn moves(&self, p: usize, die: u8) -> Vec<(u8, u8, bool, Model)> {
        let sign = if p == 0 { 1 } else { -1 };
        let mut out = Vec::new();
        let origins: Vec<u8> = if self.reserve[p] > 0 {
            vec![0]
        } else {
            (1..=36).filter(|&s| self.own(p, s as usize) > 0).collect()
        };
        let home = self.reserve[p] == 0 && (1..=30).all(|s| self.own(p, s) == 0);
        for from in origins {
            let to = from + die;
            let mut after = self.clone();
            if from == 0 {
                after.reserve[p] -= 1;
            } else {
                after.cells[from as usize] -= sign;
            }
            if to > 36 {
                if home {
                    after.off[p] += 1;
                    out.push((from, 37, false, after));
                }
                continue;
            }
            let enemies = self.enemy(p, to as usize);
            if enemies >= 2 {
                continue;
            }
            let hit = enemies == 1;
            if hit {
                after.cells[to as usize] = 0;
                after.reserve[1 - p] += 1;
            }
            after.cells[to as usize] += sign;
            out.push((from, to, hit, after));
        }
        out
    }
}

/// One complete sequence: its first move as text, its score, and the steps it hits.
struct Sequence {
    first: Option<String>,
    score: (usize, u32),
    hits: BTreeSet<u8>,
}

/// Every complete sequence of `p` with `dice` (a sequence stops only when no remaining die plays).
fn sequences(model: &Model, p: usize, dice: &[u8]) -> Vec<Sequence> {
    let total: (usize, u32) = (dice.len(), dice.iter().map(|&d| u32::from(d)).sum());
    let mut out = Vec::new();
    extend(model, p, dice, total, &mut Vec::new(), &mut out);
    out
}

fn extend(
    model: &Model,
    p: usize,
    dice: &[u8],
    total: (usize, u32),
    path: &mut Vec<(u8, u8, u8, bool)>,
    out: &mut Vec<Sequence>,
) {
    let mut moved = false;
    for i in 0..dice.len() {
        let die = dice[i];
        let rest: Vec<u8> = dice[..i].iter().chain(&dice[i + 1..]).copied().collect();
        for (from, to, hit, after) in model.moves(p, die) {
            moved = true;
            path.push((die, from, to, hit));
            if after.off[p] == 15 {
                out.push(finish(path, total));
            } else {
                extend(&after, p, &rest, total, path, out);
            }
            path.pop();
        }
    }
    if !moved {
        let used = path.len();
        let pips = path.iter().map(|m| u32::from(m.0)).sum();
        let mut sequence = finish(path, total);
        sequence.score = (used, pips);
        out.push(sequence);
    }
}

/// A sequence that ends here, scored as a win (every die used); the caller rescores non-wins.
fn finish(path: &[(u8, u8, u8, bool)], total: (usize, u32)) -> Sequence {
    Sequence {
        first: path.first().map(|&(die, from, to, _)| {
            let from = if from == 0 {
                "R".to_string()
            } else {
                cell_name(from)
            };
            let to = if to == 37 {
                "O".to_string()
            } else {
                cell_name(to)
            };
            format!("{die}:{from}-{to}")
        }),
        score: total,
        hits: path.iter().filter(|m| m.3).map(|m| m.2).collect(),
    }
}

/// The first moves of the maximal sequences, by the reference search.
fn reference_first_moves(model: &Model, p: usize, dice: &[u8]) -> BTreeSet<String> {
    let all = sequences(model, p, dice);
    let best = all.iter().map(|s| s.score).max().unwrap_or((0, 0));
    all.into_iter()
        .filter(|s| s.score == best)
        .filter_map(|s| s.first)
        .collect()
}

fn duodecim(game: &AnyGame) -> Duodecim {
    Duodecim::parse(&game.position()).expect("positions read back")
}

/// While dice are being played, the engine's moves are exactly the first moves of the maximal
/// sequences; while bonus dice remain, every single move of a bonus die plus `decline`. Returns
/// whether the maximal rule refused some single move here (the cases a careless generator gets
/// wrong).
fn moves_agree_with_the_reference(game: &AnyGame) -> bool {
    if game.phase() != Phase::AwaitingMove {
        return false;
    }
    let engine = duodecim(game);
    let position = engine.position();
    let p = position.to_move.index();
    let model = Model::read(position);
    let listed: BTreeSet<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    let single = |dice: &[u8]| -> BTreeSet<String> {
        dice.iter()
            .flat_map(|&die| sequences(&model, p, &[die]))
            .filter_map(|s| s.first)
            .collect()
    };
    let pruned = position.bonus.is_empty() && listed != single(position.dice.faces());
    let expected: BTreeSet<String> = if position.bonus.is_empty() {
        reference_first_moves(&model, p, position.dice.faces())
    } else {
        let mut each = single(position.bonus.faces());
        each.insert("decline".to_string());
        each
    };
    assert_eq!(listed, expected, "{}", game.position());
    assert_eq!(
        game.automatic_move().map(|m| m.to_string()),
        (listed.len() == 1 && listed.contains("decline")).then(|| "decline".to_string()),
        "{}",
        game.position()
    );
    pruned
}

/// The odds of every threatened piece, by enumerating the 216 throws with the reference search.
fn threats_agree_with_the_reference(game: &AnyGame) {
    let engine = duodecim(game);
    let model = Model::read(engine.position());
    let threats = game.threats();
    for player in Player::BOTH {
        let attacker = player.other().index();
        let mut counts = std::collections::BTreeMap::<String, u32>::new();
        let mut memo = std::collections::BTreeMap::<Vec<u8>, BTreeSet<u8>>::new();
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                for c in 1..=6u8 {
                    let mut roll = vec![a, b, c];
                    roll.sort();
                    let hits = memo.entry(roll.clone()).or_insert_with(|| {
                        let all = sequences(&model, attacker, &roll);
                        let best = all.iter().map(|s| s.score).max().unwrap_or((0, 0));
                        all.into_iter()
                            .filter(|s| s.score == best)
                            .flat_map(|s| s.hits)
                            .collect()
                    });
                    for &step in hits.iter() {
                        *counts.entry(cell_name(step)).or_default() += 1;
                    }
                }
            }
        }
        let engine_counts: std::collections::BTreeMap<String, u32> = threats[player.index()]
            .iter()
            .map(|t| (t.place.clone(), t.odds.expect("dice odds").hits))
            .collect();
        assert_eq!(engine_counts, counts, "{}", game.position());
    }
}

/// Every die from every origin, written out: accepted exactly when listed.
fn unlisted_moves_are_refused(game: &AnyGame) {
    let listed: BTreeSet<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    for die in 1..=6u8 {
        for from in 0..=36u8 {
            let to = from + die;
            let text = format!(
                "{die}:{}-{}",
                if from == 0 {
                    "R".to_string()
                } else {
                    cell_name(from)
                },
                if to > 36 {
                    "O".to_string()
                } else {
                    cell_name(to)
                }
            );
            match game.parse_move(&text) {
                Ok(AnyMove::Duodecim(mv)) => {
                    assert!(
                        listed.contains(&mv.to_string()),
                        "{text} accepted, not listed"
                    )
                }
                Ok(other) => panic!("{text} read as {other:?}"),
                Err(MoveError::Illegal { reason, .. }) => {
                    assert!(
                        !listed.contains(&text),
                        "{text} listed but refused: {reason}"
                    )
                }
                Err(other) => panic!("{text} should parse: {other}"),
            }
        }
    }
}

#[test]
fn random_games_are_consistent_and_agree_with_the_reference_search() {
    let games = 1000;
    let (mut states, mut compared, mut pruned, mut odds_checked) = (0u64, 0u64, 0u64, 0u64);
    let finished = common::random_games(Variant::DuodecimScripta, games, 30_000, |game| {
        states += 1;
        if states.is_multiple_of(211) {
            unlisted_moves_are_refused(game);
        }
        if states.is_multiple_of(97) {
            pruned += u64::from(moves_agree_with_the_reference(game));
            compared += 1;
        }
        if states.is_multiple_of(40_009) {
            threats_agree_with_the_reference(game);
            odds_checked += 1;
        }
    });
    assert_eq!(
        finished, games,
        "every game ends, by bearing off at the latest by the cap"
    );
    println!(
        "{compared} states compared, {pruned} where the maximal rule refused a single move, {odds_checked} threat checks"
    );
    assert!(
        compared > 1000 && pruned > 5 && odds_checked > 3,
        "{compared} {pruned} {odds_checked}"
    );
}

/// A random position where the maximal rule often bites: White, to move, has one to three
/// runners (sometimes one in reserve, sometimes all in the exit table) and the rest off; Black
/// holds stacks of two scattered along the route.
fn few_runners(rng: &mut SmallRng) -> String {
    let mut cells = [(0u8, 'w'); 37];
    let in_reserve = u8::from(rng.random_bool(0.2));
    let home = rng.random_bool(0.3);
    let runners = rng.random_range(1..=3u8);
    for _ in 0..runners {
        let step = if home {
            rng.random_range(31..=36)
        } else {
            rng.random_range(1..=36)
        };
        cells[step as usize].0 += 1;
    }
    let mut black = 0;
    for _ in 0..rng.random_range(4..=10) {
        let step = rng.random_range(1..=36usize);
        if cells[step].0 == 0 && black <= 12 {
            cells[step] = (2, 'b');
            black += 2;
        }
    }
    let rows = ["T", "M", "B"].map(|row| {
        (1..=12)
            .map(|column| {
                let step = Step::parse(&format!("{row}{column}")).unwrap().get();
                match cells[step as usize] {
                    (0, _) => ".".to_string(),
                    (n, colour) => format!("{n}{colour}"),
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    });
    let dice: Vec<String> = (0..rng.random_range(2..=3))
        .map(|_| rng.random_range(1..=6u8).to_string())
        .collect();
    format!(
        "{} w r:{in_reserve},{} o:{},0 dice:[{}]",
        rows.join("/"),
        15 - black,
        15 - runners - in_reserve,
        dice.join(",")
    )
}

#[test]
fn positions_with_few_runners_agree_with_the_reference_search() {
    let mut rng = SmallRng::seed_from_u64(0xd0de);
    let mut pruned = 0;
    for round in 0..4000 {
        let text = few_runners(&mut rng);
        let game = AnyGame::from_position(Variant::DuodecimScripta, &text, None)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pruned += u32::from(moves_agree_with_the_reference(&game));
        if round % 40 == 0 {
            threats_agree_with_the_reference(&game);
        }
    }
    println!("the maximal rule refused a single move in {pruned} of 4000 positions");
    assert!(
        pruned > 150,
        "the maximal rule refused moves in {pruned} positions only"
    );
}
