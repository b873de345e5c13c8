//! Petteia's notation (docs/RULES.md §1): squares `D2`, moves `D2-D4` (lenient on input), and positions
//! `<ranks N..1> <side l|d> [<no-capture plies> <move number>]`.

use super::board::{Bitboard, Board, Size, Square};
use super::{Move, Position};
use crate::Player;
use crate::notation::{NotationError, check_length, excerpt};
use std::fmt;

impl Square {
    /// Reads a square name such as `D2` or `d2`; the board size says which squares exist.
    pub fn parse(text: &str, size: Size) -> Result<Square, NotationError> {
        let bad = || {
            NotationError::new(format!(
                "{:?} is not a square (a file letter then a rank, like D2)",
                excerpt(text)
            ))
        };
        let mut chars = text.chars();
        let file = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if !file.is_ascii_uppercase() || rank == 0 {
            return Err(bad());
        }
        let n = size.n();
        match Square::new(file as u8 - b'A', rank - 1).filter(|sq| sq.on(size)) {
            Some(square) => Ok(square),
            None => Err(NotationError::new(format!(
                "{} is off the {n}×{n} board",
                text.to_uppercase()
            ))),
        }
    }
}

impl Move {
    /// "A1-A4" (see `Square::name`).
    pub(crate) fn notation(self) -> [u8; 5] {
        let ([a, b], [c, d]) = (self.from.name(), self.to.name());
        [a, b, b'-', c, d]
    }

    pub(crate) fn notation_str(notation: &[u8; 5]) -> &str {
        std::str::from_utf8(notation).expect("a move's notation is ASCII")
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Move::notation_str(&self.notation()))
    }
}

/// A move as written: the move itself and, if given, the squares it claims to capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub mv: Move,
    pub claimed_captures: Option<Vec<Square>>,
}

impl MoveText {
    /// Reads `D2-D4`, `d2-d4`, `D2 → D4`, `D2->D4`, `D2 D4` or `d2d4`, optionally followed by a
    /// capture suffix `xC3,E3`.
    pub fn parse(text: &str, size: Size) -> Result<MoveText, NotationError> {
        check_length(text, "move")?;
        let trimmed = text.trim();
        let (body, suffix) = match trimmed.find(['x', 'X']) {
            Some(at) => (&trimmed[..at], Some(&trimmed[at + 1..])),
            None => (trimmed, None),
        };
        let not_a_move = || {
            NotationError::new(format!(
                "{:?} is not a move: write it as from-to, like D2-D4",
                excerpt(text)
            ))
        };
        // The first square ends where its rank digits end.
        let first_len = body
            .char_indices()
            .skip(1)
            .find(|(_, c)| !c.is_ascii_digit())
            .map_or(body.len(), |(i, _)| i);
        let (from_text, rest) = body.split_at(first_len);
        let rest = rest.trim_start();
        let to_text = ["->", "→", "-"]
            .iter()
            .find_map(|sep| rest.strip_prefix(sep))
            .unwrap_or(rest)
            .trim();
        if from_text.is_empty() || to_text.is_empty() {
            return Err(not_a_move());
        }
        let mv = Move {
            from: Square::parse(from_text, size)?,
            to: Square::parse(to_text, size)?,
        };
        let claimed_captures = match suffix {
            None => None,
            Some(list) => Some(
                list.split(',')
                    .map(|s| Square::parse(s.trim(), size))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(MoveText {
            mv,
            claimed_captures,
        })
    }
}

impl Position {
    /// Reads a position; the number of ranks gives the board size.
    pub fn parse(text: &str) -> Result<Position, NotationError> {
        check_length(text, "position")?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=4).contains(&fields.len()) {
            return Err(NotationError::new(format!(
                "a Petteia position has 2 to 4 fields (ranks, side, no-capture plies, move number); {:?} has {}",
                excerpt(text),
                fields.len()
            )));
        }
        let board = parse_board(fields[0])?;
        let to_move = match fields[1] {
            "l" | "L" => Player::First,
            "d" | "D" => Player::Second,
            other => {
                return Err(NotationError::new(format!(
                    "the side to move is l or d, not {:?}",
                    excerpt(other)
                )));
            }
        };
        let number = |index: usize, what: &str, default: u32| match fields.get(index) {
            None => Ok(default),
            Some(field) => field
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= 1_000_000)
                .ok_or_else(|| {
                    NotationError::new(format!(
                        "the {what} must be a whole number, not {:?}",
                        excerpt(field)
                    ))
                }),
        };
        let quiet_plies = number(2, "no-capture ply count", 0)?;
        let move_number = number(3, "move number", 1)?;
        if move_number == 0 {
            return Err(NotationError::new("the move number starts at 1"));
        }
        Ok(Position::new(board, to_move, quiet_plies, move_number))
    }
}

fn parse_board(field: &str) -> Result<Board, NotationError> {
    let ranks: Vec<&str> = field.split('/').collect();
    let size = match ranks.len() {
        6 => Size::Six,
        8 => Size::Eight,
        n => {
            return Err(NotationError::new(format!(
                "a Petteia board has 6 or 8 ranks separated by '/'; this one has {n}"
            )));
        }
    };
    let n = size.n();
    let mut pieces = [0u64; 2];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = n - 1 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            let owner = match c {
                'L' => Some(Player::First),
                'D' => Some(Player::Second),
                '1'..='8' => None,
                _ => {
                    return Err(NotationError::new(format!(
                        "rank {}: {c:?} is not L, D or a count of empty squares",
                        rank + 1
                    )));
                }
            };
            let width = if owner.is_some() { 1 } else { c as u8 - b'0' };
            if file + width > n {
                return Err(NotationError::new(format!(
                    "rank {} has more than {n} squares",
                    rank + 1
                )));
            }
            if let Some(player) = owner {
                pieces[player.index()] |= Square::new(file, rank)
                    .expect("file and rank < n ≤ 8")
                    .bit();
            }
            file += width;
        }
        if file != n {
            return Err(NotationError::new(format!(
                "rank {} has {file} squares; a {n}×{n} board needs {n}",
                rank + 1
            )));
        }
    }
    Ok(Board { size, pieces })
}

impl Position {
    /// Appends the position in its notation (what `Display` writes), without the formatting
    /// machinery: the server writes one at every version of a game.
    pub fn push_notation(&self, text: &mut String) {
        // Rank by rank from the top, piece by piece along each rank (the gaps between pieces are
        // counted from their files), rather than square by square.
        let n = self.board.size.n();
        let [light, dark] = self.board.pieces;
        for rank in (0..n).rev() {
            let row = |set: Bitboard| (set >> (8 * rank)) as u8;
            let (light, mut pieces) = (row(light), row(light | dark));
            let mut file = 0;
            while pieces != 0 {
                let at = pieces.trailing_zeros() as u8;
                if at > file {
                    text.push(char::from(b'0' + at - file));
                }
                text.push(if light >> at & 1 == 1 { 'L' } else { 'D' });
                file = at + 1;
                pieces &= pieces - 1;
            }
            if n > file {
                text.push(char::from(b'0' + n - file));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push_str(if self.to_move == Player::First {
            " l "
        } else {
            " d "
        });
        text.push_str(itoa::Buffer::new().format(self.quiet_plies));
        text.push(' ');
        text.push_str(itoa::Buffer::new().format(self.move_number));
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(96);
        self.push_notation(&mut text);
        f.write_str(&text)
    }
}
