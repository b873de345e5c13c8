//! Duodecim Scripta's notation (docs/RULES.md §3.3): cells `M3`, moves `5:M3-M8` (`R` the reserve, `O`
//! off the board, `decline`), and positions
//! `<top>/<middle>/<bottom> <side w|b> r:<W>,<B> o:<W>,<B> dice:[…] bonus:[…]`.
//!
//! Parsing never trusts its input: lengths are bounded before any work, and every malformed piece
//! is an error that quotes a short excerpt of it.

use super::board::{Board, Cell, PIECES, Row, Step};
use super::{Dice, Landing, Move, Origin, Position};
use crate::Player;
use crate::notation::{NotationError, check_length, excerpt};
use std::fmt;

impl Cell {
    /// Reads a cell name such as `M3` or `t12`.
    pub fn parse(text: &str) -> Result<Cell, NotationError> {
        let bad = || {
            NotationError::new(format!(
                "{:?} is not a cell (a row T, M or B then a column 1–12, like M3)",
                excerpt(text)
            ))
        };
        let mut chars = text.chars();
        let row = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('T') => Row::Top,
            Some('M') => Row::Middle,
            Some('B') => Row::Bottom,
            _ => return Err(bad()),
        };
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let column: u8 = digits.parse().map_err(|_| bad())?;
        Cell::new(row, column).ok_or_else(bad)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Reserve => f.write_str("R"),
            Origin::Route(step) => step.fmt(f),
        }
    }
}

impl fmt::Display for Landing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Landing::Route(step) => step.fmt(f),
            Landing::Off => f.write_str("O"),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Play { die, from } => write!(f, "{die}:{from}-{}", Move::landing(die, from)),
            Move::Decline => f.write_str("decline"),
        }
    }
}

/// A move as written, before the pending dice say which die a bare `B10-O` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    Play {
        die: Option<u8>,
        from: Origin,
        to: Landing,
    },
    Decline,
}

impl MoveText {
    /// Reads `5:M3-M8`, `M3-M8`, `3:R-M3`, `6:B10-O` or `decline` (either case); a trailing `*`
    /// (the hit mark) is ignored, since the hit follows from the board.
    pub fn parse(text: &str) -> Result<MoveText, NotationError> {
        check_length(text, "move")?;
        let body = text.trim().trim_end_matches('*').trim_end();
        if body.eq_ignore_ascii_case("decline") {
            return Ok(MoveText::Decline);
        }
        let not_a_move = || {
            NotationError::new(format!(
                "{:?} is not a move: write die:from-to, like 5:M3-M8, 3:R-M3 or 6:B10-O, or decline",
                excerpt(text)
            ))
        };
        let (die, path) = match body.split_once(':') {
            Some((die, path)) => match die.trim().parse::<u8>() {
                Ok(face @ 1..=6) => (Some(face), path),
                _ => {
                    return Err(NotationError::new(format!(
                        "{:?}: a die shows 1 to 6",
                        excerpt(text)
                    )));
                }
            },
            None => (None, body),
        };
        let (from, to) = path.split_once('-').ok_or_else(not_a_move)?;
        let (from, to) = (from.trim(), to.trim());
        let from = if from.eq_ignore_ascii_case("R") {
            Origin::Reserve
        } else if from.eq_ignore_ascii_case("O") {
            return Err(NotationError::new("a borne-off piece never moves again"));
        } else {
            Origin::Route(Cell::parse(from)?.step())
        };
        let to = if to.eq_ignore_ascii_case("O") {
            Landing::Off
        } else if to.eq_ignore_ascii_case("R") {
            return Err(NotationError::new(
                "no move goes to the reserve; a hit piece is sent there by itself",
            ));
        } else {
            Landing::Route(Cell::parse(to)?.step())
        };
        Ok(MoveText::Play { die, from, to })
    }

    /// The move meant, given the dice the side to move may play: the die follows from the
    /// distance, except for a bear-off, where it may be left out if exactly one pending face fits.
    pub fn resolve(self, pending: Dice) -> Result<Move, NotationError> {
        let (die, from, to) = match self {
            MoveText::Decline => return Ok(Move::Decline),
            MoveText::Play { die, from, to } => (die, from, to),
        };
        let path = format!("{from}-{to}");
        let start = match from {
            Origin::Reserve => 0,
            Origin::Route(step) => step.get(),
        };
        let die = match (to, die) {
            (Landing::Route(end), written) => {
                let distance = i16::from(end.get()) - i16::from(start);
                if !(1..=6).contains(&distance) {
                    return Err(NotationError::new(format!(
                        "{path} is {distance} steps along the route; a die moves a piece 1 to 6 steps forward"
                    )));
                }
                written.unwrap_or(distance as u8)
            }
            (Landing::Off, _) if from == Origin::Reserve => {
                return Err(NotationError::new(
                    "a piece in reserve enters the board before it can bear off",
                ));
            }
            (Landing::Off, Some(written)) => written,
            (Landing::Off, None) => {
                let mut fits = pending.distinct().filter(|&d| start + d > super::ROUTE_LEN);
                match (fits.next(), fits.next()) {
                    (Some(die), None) => die,
                    (Some(a), Some(b)) => {
                        return Err(NotationError::new(format!(
                            "{path}: both {a} and {b} bear off from {from}; write the die, like {a}:{path}"
                        )));
                    }
                    (None, _) => {
                        return Err(NotationError::new(format!(
                            "{path}: no die to play bears off from {from}"
                        )));
                    }
                }
            }
        };
        let landing = Move::landing(die, from);
        if landing != to {
            return Err(NotationError::new(format!(
                "{die}:{path}: a {die} takes {from} to {landing}"
            )));
        }
        Ok(Move::Play { die, from })
    }
}

impl Position {
    /// Reads a position. `r:` may be left out (the pieces neither on the board nor off are in
    /// reserve), and so may `o:` (none off), `dice:` and `bonus:` (none).
    pub fn parse(text: &str) -> Result<Position, NotationError> {
        check_length(text, "position")?;
        let fields: Vec<&str> = text.split_whitespace().take(7).collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(NotationError::new(format!(
                "a Duodecim Scripta position has the rows, the side and up to four fields r:, o:, dice:, bonus:; {:?} does not",
                excerpt(text)
            )));
        }
        let mut board = parse_rows(fields[0])?;
        let to_move = match fields[1] {
            "w" | "W" => Player::First,
            "b" | "B" => Player::Second,
            other => {
                return Err(NotationError::new(format!(
                    "the side to move is w or b, not {:?}",
                    excerpt(other)
                )));
            }
        };
        let (mut reserve, mut off, mut dice, mut bonus) = (None, None, None, None);
        for field in &fields[2..] {
            let (key, value) = field.split_once(':').ok_or_else(|| {
                NotationError::new(format!(
                    "{:?} is not one of r:, o:, dice:, bonus:",
                    excerpt(field)
                ))
            })?;
            let slot = match key {
                "r" => fill_once(&mut reserve, parse_pair(value, key)?),
                "o" => fill_once(&mut off, parse_pair(value, key)?),
                "dice" => fill_once(&mut dice, parse_dice(value, key)?),
                "bonus" => fill_once(&mut bonus, parse_dice(value, key)?),
                _ => {
                    return Err(NotationError::new(format!(
                        "{:?} is not one of r:, o:, dice:, bonus:",
                        excerpt(field)
                    )));
                }
            };
            if !slot {
                return Err(NotationError::new(format!("{key}: is given twice")));
            }
        }
        let off = off.unwrap_or([0, 0]);
        if off == [PIECES; 2] {
            return Err(NotationError::new(
                "both sides cannot have borne off all their pieces: the game ends with the first",
            ));
        }
        for player in Player::BOTH {
            let p = player.index();
            let on_route = board.on_route(player);
            let in_reserve = reserve.map_or(PIECES.saturating_sub(on_route + off[p]), |r| r[p]);
            let total = u16::from(on_route) + u16::from(in_reserve) + u16::from(off[p]);
            if total != u16::from(PIECES) {
                let side = ["White", "Black"][p];
                return Err(NotationError::new(format!(
                    "{side} has {total} pieces ({on_route} on the board, {in_reserve} in reserve, {} off); each side has {PIECES}",
                    off[p]
                )));
            }
            board.set_reserve_and_off(player, in_reserve, off[p]);
        }
        let (dice, bonus) = (dice.unwrap_or(Dice::NONE), bonus.unwrap_or(Dice::NONE));
        if !dice.is_empty() && !bonus.is_empty() {
            return Err(NotationError::new(
                "bonus dice are played or declined before the roll, so dice and bonus are never both pending",
            ));
        }
        Ok(Position {
            board,
            to_move,
            dice,
            bonus,
        })
    }
}

fn parse_rows(field: &str) -> Result<Board, NotationError> {
    let rows: Vec<&str> = field.split('/').take(4).collect();
    if rows.len() != 3 {
        return Err(NotationError::new(
            "the board is three rows (top, middle, bottom) separated by '/'",
        ));
    }
    let mut board = Board::empty();
    for (row, text) in Row::ALL.into_iter().zip(rows) {
        let cells: Vec<&str> = text.split(',').take(13).collect();
        if cells.len() != 12 {
            return Err(NotationError::new(format!(
                "row {} has {}{} cells; each row has 12, separated by commas",
                row.letter(),
                cells.len().min(12),
                if cells.len() > 12 { " or more" } else { "" }
            )));
        }
        for (column, cell_text) in (1u8..).zip(cells) {
            let cell = Cell::new(row, column).expect("columns 1–12");
            if cell_text == "." {
                continue;
            }
            let bad = || {
                NotationError::new(format!(
                    "{cell}: {:?} is not '.' or a count and a colour, like 3w or 1b",
                    excerpt(cell_text)
                ))
            };
            let player = match cell_text.chars().last() {
                Some('w' | 'W') => Player::First,
                Some('b' | 'B') => Player::Second,
                _ => return Err(bad()),
            };
            // The colour letter is ASCII, so the count ends one byte before the end.
            let count = &cell_text[..cell_text.len() - 1];
            let count = if count.is_empty() {
                1
            } else if count.len() <= 2 && count.bytes().all(|b| b.is_ascii_digit()) {
                count.parse::<u8>().map_err(|_| bad())?
            } else {
                return Err(bad());
            };
            if !(1..=PIECES).contains(&count) {
                return Err(bad());
            }
            board.set(player, cell.step(), count);
        }
    }
    Ok(board)
}

/// Fills `slot` with `value`; false if it was already filled.
fn fill_once<T>(slot: &mut Option<T>, value: T) -> bool {
    let empty = slot.is_none();
    slot.get_or_insert(value);
    empty
}

/// Reads `<W>,<B>`: White's count then Black's.
fn parse_pair(value: &str, key: &str) -> Result<[u8; 2], NotationError> {
    let bad = || {
        NotationError::new(format!(
            "{key}: takes two counts 0–15, White's then Black's, like {key}:15,15; not {:?}",
            excerpt(value)
        ))
    };
    let (w, b) = value.split_once(',').ok_or_else(bad)?;
    let count = |t: &str| {
        t.parse::<u8>()
            .ok()
            .filter(|&n| n <= PIECES && t.len() <= 2)
            .ok_or_else(bad)
    };
    Ok([count(w)?, count(b)?])
}

/// Reads `[<d>,…]`: at most three faces 1–6.
fn parse_dice(value: &str, key: &str) -> Result<Dice, NotationError> {
    let bad = || {
        NotationError::new(format!(
            "{key}: takes up to three dice 1–6 in brackets, like {key}:[4,1,2]; not {:?}",
            excerpt(value)
        ))
    };
    let inner = value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(bad)?;
    let mut faces = Vec::with_capacity(3);
    if !inner.is_empty() {
        for face in inner.split(',').take(4) {
            match face {
                "1" | "2" | "3" | "4" | "5" | "6" => faces.push(face.as_bytes()[0] - b'0'),
                _ => return Err(bad()),
            }
        }
    }
    Dice::new(&faces).ok_or_else(bad)
}

fn write_dice(f: &mut fmt::Formatter<'_>, dice: Dice) -> fmt::Result {
    f.write_str("[")?;
    for (i, face) in dice.faces().iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{face}")?;
    }
    f.write_str("]")
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in Row::ALL.into_iter().enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for column in 1..=12 {
                if column > 1 {
                    f.write_str(",")?;
                }
                let step = Cell::new(row, column).expect("columns 1–12").step();
                match self.board.stack(step) {
                    None => f.write_str(".")?,
                    Some((player, n)) => write!(f, "{n}{}", ['w', 'b'][player.index()])?,
                }
            }
        }
        let side = ['w', 'b'][self.to_move.index()];
        let [rw, rb] = Player::BOTH.map(|p| self.board.reserve(p));
        let [ow, ob] = Player::BOTH.map(|p| self.board.off(p));
        write!(f, " {side} r:{rw},{rb} o:{ow},{ob} dice:")?;
        write_dice(f, self.dice)?;
        f.write_str(" bonus:")?;
        write_dice(f, self.bonus)
    }
}

impl Step {
    /// Reads a step by the name of its cell (`B10` is step 34).
    pub fn parse(text: &str) -> Result<Step, NotationError> {
        Cell::parse(text).map(Cell::step)
    }
}
