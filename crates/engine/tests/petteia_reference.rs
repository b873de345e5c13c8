//! A second, deliberately naive implementation of docs/RULES.md §1 (a grid of cells, loops, no
//! bitboards), written from the rules alone. Over seeded random games its moves, captures and
//! outcomes must equal the engine's; its perft counts are the check on the golden values.

use ludus_engine::petteia::{Petteia, Size};
use ludus_engine::{AnyGame, Game, Player, Termination, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Light,
    Dark,
}

#[derive(Clone, Debug)]
struct Naive {
    n: i32,
    grid: Vec<Cell>, // index rank * n + file
    light_to_move: bool,
    quiet: u32,
    seen: Vec<(Vec<Cell>, bool)>,
}

impl Naive {
    fn from_engine(game: &Petteia) -> Naive {
        let text = game.position().to_string();
        let board = text.split(' ').next().unwrap();
        let ranks: Vec<&str> = board.split('/').collect();
        let n = ranks.len() as i32;
        let mut grid = vec![Cell::Empty; (n * n) as usize];
        for (i, rank) in ranks.iter().enumerate() {
            let r = n - 1 - i as i32;
            let mut f = 0;
            for c in rank.chars() {
                match c {
                    'L' => {
                        grid[(r * n + f) as usize] = Cell::Light;
                        f += 1
                    }
                    'D' => {
                        grid[(r * n + f) as usize] = Cell::Dark;
                        f += 1
                    }
                    d => f += d.to_digit(10).unwrap() as i32,
                }
            }
        }
        let light_to_move = game.to_move() == Player::First;
        Naive {
            n,
            grid: grid.clone(),
            light_to_move,
            quiet: game.position().quiet_plies,
            seen: vec![(grid, light_to_move)],
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Cell> {
        (f >= 0 && r >= 0 && f < self.n && r < self.n).then(|| self.grid[(r * self.n + f) as usize])
    }

    fn mover(&self) -> Cell {
        if self.light_to_move {
            Cell::Light
        } else {
            Cell::Dark
        }
    }

    fn moves_of(&self, who: Cell) -> Vec<String> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for f in 0..self.n {
                if self.at(f, r) != Some(who) {
                    continue;
                }
                for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    while self.at(tf, tr) == Some(Cell::Empty) {
                        out.push(format!("{}-{}", name(f, r), name(tf, tr)));
                        tf += df;
                        tr += dr;
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn count(&self, who: Cell) -> usize {
        self.grid.iter().filter(|&&c| c == who).count()
    }

    /// Plays a move given as "A1-A3"; returns the names of the captured squares.
    fn play(&mut self, mv: &str) -> Vec<String> {
        let parse = |s: &str| {
            (
                (s.as_bytes()[0] - b'A') as i32,
                s[1..].parse::<i32>().unwrap() - 1,
            )
        };
        let (from, to) = mv.split_once('-').unwrap();
        let ((ff, fr), (tf, tr)) = (parse(from), parse(to));
        let me = self.mover();
        let enemy = if me == Cell::Light {
            Cell::Dark
        } else {
            Cell::Light
        };
        self.grid[(fr * self.n + ff) as usize] = Cell::Empty;
        self.grid[(tr * self.n + tf) as usize] = me;
        let mut captured = Vec::new();
        for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            if self.at(tf + df, tr + dr) == Some(enemy)
                && self.at(tf + 2 * df, tr + 2 * dr) == Some(me)
            {
                captured.push((tf + df, tr + dr));
            }
        }
        for &(f, r) in &captured {
            self.grid[(r * self.n + f) as usize] = Cell::Empty;
        }
        self.quiet = if captured.is_empty() {
            self.quiet + 1
        } else {
            0
        };
        self.light_to_move = !self.light_to_move;
        self.seen.push((self.grid.clone(), self.light_to_move));
        let mut names: Vec<String> = captured.iter().map(|&(f, r)| name(f, r)).collect();
        names.sort();
        names
    }

    /// docs/RULES.md §1's end checks in order, after the player not to move has moved.
    fn outcome(&self) -> Option<(Option<Player>, Termination)> {
        let (mover, opponent) = if self.light_to_move {
            (Cell::Dark, Cell::Light)
        } else {
            (Cell::Light, Cell::Dark)
        };
        let mover_player = if mover == Cell::Light {
            Player::First
        } else {
            Player::Second
        };
        if self.count(opponent) <= 1 {
            return Some((Some(mover_player), Termination::Reduction));
        }
        if self.moves_of(opponent).is_empty() {
            return Some((Some(mover_player), Termination::Blockade));
        }
        let now = (self.grid.clone(), self.light_to_move);
        if self.seen.iter().filter(|&s| *s == now).count() >= 3 {
            return Some((None, Termination::Repetition));
        }
        if self.quiet >= 100 {
            return Some((None, Termination::NoCapture));
        }
        None
    }

    fn legal(&self) -> Vec<String> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            self.moves_of(self.mover())
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .iter()
            .map(|mv| {
                let mut next = self.clone();
                next.play(mv);
                next.perft(depth - 1)
            })
            .sum()
    }
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'A' + f as u8) as char, r + 1)
}

fn engine_moves(game: &Petteia) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    names.sort();
    names
}

#[test]
fn the_engine_agrees_with_the_naive_rules_over_random_games() {
    for (size, games) in [(Size::Six, 300), (Size::Eight, 150)] {
        for seed in 0..games {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut game = Petteia::new(size);
            let mut naive = Naive::from_engine(&game);
            loop {
                let expected = naive.legal();
                assert_eq!(engine_moves(&game), expected, "{}", game.position());
                let outcome = game.outcome().map(|o| (o.winner, o.termination));
                assert_eq!(outcome, naive.outcome(), "{}", game.position());
                if expected.is_empty() {
                    break;
                }
                let mv = &expected[rng.random_range(0..expected.len())];
                let before = game.position().board.of(game.to_move().other());
                game.play(game.parse_move(mv).unwrap().unwrap()).unwrap();
                let taken = before & !game.position().board.of(game.to_move());
                let mut taken: Vec<String> = ludus_engine::petteia::squares(taken)
                    .map(|s| s.to_string())
                    .collect();
                taken.sort();
                assert_eq!(taken, naive.play(mv), "captures of {mv}");
            }
        }
    }
}

#[test]
fn naive_perft_confirms_the_engine_to_depth_three() {
    for (variant, position) in [
        (Variant::Petteia6, "DDDDDD/6/6/6/6/LLLLLL l 0 1"),
        (Variant::Petteia8, "DDDDDDDD/8/8/8/8/8/8/LLLLLLLL l 0 1"),
        (Variant::Petteia6, "6/3L2/3D2/1LD1DL/6/3L2 l"),
        (Variant::Petteia6, "DDD3/6/6/6/1D1D2/2L2L l"),
    ] {
        let game = AnyGame::from_position(variant, position, None).unwrap();
        let naive = Naive::from_engine(&Petteia::parse(position).unwrap());
        for depth in 1..=3 {
            assert_eq!(
                game.perft(depth, &[]).unwrap(),
                naive.perft(depth),
                "{position} depth {depth}"
            );
        }
    }
}
