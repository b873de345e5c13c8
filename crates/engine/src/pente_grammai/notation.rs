//! Pente Grammai's notation (docs/RULES.md §2.5): moves `<die>:<from>-<to>` (`5:2-7`, `4:R-0`, `6:X-3`,
//! `2:H-9`, `5:pass`; the die may be omitted on input) and positions
//! `<p0>/…/<p9> <side t|b> [r:<T>,<B>] [h:<T>,<B>] [x:<T>,<B>] [th:<side>@<line>,…]`.
//!
//! A position is checked as well as read: five counters a side, the fields its rule set has, the
//! states its rules can reach, and a `th:` that agrees with the board (a threat follows from the
//! board after the last turn, so one that does not describes no reachable game).

use super::board::{Board, COUNTERS, Line, Lines, Point, goal};
use super::{Action, Move, Origin, Position, Rules};
use crate::Player;
use crate::notation::{NotationError, check_length, excerpt};
use std::fmt;

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Point(p) => p.fmt(f),
            Origin::Reserve => f.write_str("R"),
            Origin::HolyLine => f.write_str("H"),
            Origin::Removed => f.write_str("X"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Go { from, to } => write!(f, "{from}-{to}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.die, self.action)
    }
}

/// A move as written: the die is optional on input (it is the one rolled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub die: Option<u8>,
    pub action: Action,
}

impl From<Move> for MoveText {
    fn from(mv: Move) -> MoveText {
        MoveText {
            die: Some(mv.die),
            action: mv.action,
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(die) = self.die {
            write!(f, "{die}:")?;
        }
        self.action.fmt(f)
    }
}

impl Point {
    /// Reads a point number, `0` to `9`.
    pub fn parse(text: &str) -> Result<Point, NotationError> {
        match text.as_bytes() {
            [digit @ b'0'..=b'9'] => Ok(Point::new(digit - b'0').expect("a digit is a point")),
            _ => Err(NotationError::new(format!(
                "{:?} is not a point (the points are numbered 0 to 9)",
                excerpt(text)
            ))),
        }
    }
}

impl MoveText {
    /// Reads `5:2-7`, `4:R-0`, `6:X-3`, `2:H-9`, `5:pass`, or any of them without `<die>:`.
    /// Zones and `pass` may be written in either case; spaces around the parts are ignored.
    pub fn parse(text: &str) -> Result<MoveText, NotationError> {
        check_length(text, "move")?;
        let not_a_move = || {
            NotationError::new(format!(
                "{:?} is not a move: write <die>:<from>-<to> or <die>:pass, like 5:2-7, 4:R-0 or 5:pass",
                excerpt(text)
            ))
        };
        let trimmed = text.trim();
        let (die, body) = match trimmed.split_once(':') {
            Some((die, body)) => {
                let die = match die.trim().as_bytes() {
                    [d @ b'1'..=b'6'] => d - b'0',
                    _ => {
                        return Err(NotationError::new(format!(
                            "{:?}: a die shows 1 to 6, not {:?}",
                            excerpt(text),
                            excerpt(die.trim())
                        )));
                    }
                };
                (Some(die), body.trim())
            }
            None => (None, trimmed),
        };
        if body.eq_ignore_ascii_case("pass") {
            return Ok(MoveText {
                die,
                action: Action::Pass,
            });
        }
        let (from, to) = body.split_once('-').ok_or_else(not_a_move)?;
        let from = match from.trim() {
            "R" | "r" => Origin::Reserve,
            "H" | "h" => Origin::HolyLine,
            "X" | "x" => Origin::Removed,
            point => Origin::Point(Point::parse(point).map_err(|_| not_a_move())?),
        };
        let to = Point::parse(to.trim()).map_err(|_| not_a_move())?;
        Ok(MoveText {
            die,
            action: Action::Go { from, to },
        })
    }
}

fn side_letter(player: Player) -> char {
    match player {
        Player::First => 't',
        Player::Second => 'b',
    }
}

/// `t@1,t@4`: the lines threatened against `victim`, by line.
fn threat_list(victim: Player, lines: Lines) -> String {
    let items: Vec<String> = lines
        .iter()
        .map(|l| format!("{}@{}", side_letter(victim), l.number()))
        .collect();
    items.join(",")
}

fn parse_side(text: &str) -> Result<Player, NotationError> {
    match text {
        "t" | "T" => Ok(Player::First),
        "b" | "B" => Ok(Player::Second),
        other => Err(NotationError::new(format!(
            "a side is t (Terracotta) or b (Black), not {:?}",
            excerpt(other)
        ))),
    }
}

/// Reads one point's field: `-`, bare letters (`T`, `B`, `TB`) or counts (`2T`, `1T3B`).
fn parse_point(text: &str, point: usize) -> Result<[u8; 2], NotationError> {
    let bad = |why: &str| {
        NotationError::new(format!(
            "point {point} ({:?}): {why}; write -, T, B, TB or counts like 2T1B",
            excerpt(text)
        ))
    };
    if text == "-" {
        return Ok([0, 0]);
    }
    if text.is_empty() {
        return Err(bad("empty"));
    }
    let mut counts = [0u8; 2];
    let mut seen = [false; 2];
    let mut number: Option<u8> = None;
    for c in text.chars() {
        match c {
            '0'..='9' => {
                let digit = c as u8 - b'0';
                let n = number.unwrap_or(0) * 10 + digit;
                if n > COUNTERS {
                    return Err(bad("a side has five counters"));
                }
                number = Some(n);
            }
            'T' | 't' | 'B' | 'b' => {
                let player = parse_side(&c.to_string()).expect("t or b");
                if seen[player.index()] {
                    return Err(bad("each colour is written once"));
                }
                seen[player.index()] = true;
                counts[player.index()] = match number.take() {
                    None => 1,
                    Some(0) => return Err(bad("a count is at least 1")),
                    Some(n) => n,
                };
            }
            _ => return Err(bad(&format!("{c:?} is not a count or a colour"))),
        }
    }
    if number.is_some() {
        return Err(bad("a count must be followed by a colour"));
    }
    Ok(counts)
}

fn parse_pair(field: &str, name: &str) -> Result<[u8; 2], NotationError> {
    let bad = || {
        NotationError::new(format!(
            "{name}: holds two counts, Terracotta's then Black's, like {name}:0,1; not {:?}",
            excerpt(field)
        ))
    };
    let (t, b) = field.split_once(',').ok_or_else(bad)?;
    let count = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= COUNTERS);
    Ok([count(t).ok_or_else(bad)?, count(b).ok_or_else(bad)?])
}

/// Reads `th:b@1,t@4` into the side and the lines it lists.
fn parse_threats(field: &str) -> Result<Vec<(Player, Line)>, NotationError> {
    field
        .split(',')
        .map(|item| {
            let bad = || {
                NotationError::new(format!(
                    "th: lists <side>@<line> items like b@1; {:?} is not one (lines 1, 2, 4, 5 can be threatened)",
                    excerpt(item)
                ))
            };
            let (side, line) = item.split_once('@').ok_or_else(bad)?;
            let side = parse_side(side).map_err(|_| bad())?;
            let line = line
                .parse::<u8>()
                .ok()
                .and_then(Line::new)
                .filter(|&l| l != Line::SACRED)
                .ok_or_else(bad)?;
            Ok((side, line))
        })
        .collect()
}

impl Position {
    /// Reads a position of the given rule set and checks that its rules can reach it.
    pub fn parse(rules: Rules, text: &str) -> Result<Position, NotationError> {
        check_length(text, "position")?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(NotationError::new(format!(
                "a Pente Grammai position is <p0>/…/<p9> <side t|b> then r:, h:, x: or th: fields; {:?} has {} fields",
                excerpt(text),
                fields.len()
            )));
        }
        let points: Vec<&str> = fields[0].split('/').collect();
        if points.len() != 10 {
            return Err(NotationError::new(format!(
                "the board lists the ten points 0 to 9 separated by '/'; this one has {}",
                points.len()
            )));
        }
        let mut board = Board::default();
        for (point, field) in Point::ALL.into_iter().zip(&points) {
            let counts = parse_point(field, point.index())?;
            for player in Player::BOTH {
                board.add(player, point, counts[player.index()]);
            }
        }
        let to_move = parse_side(fields[1])?;
        let mut position = Position {
            rules,
            board,
            to_move,
            reserve: [0; 2],
            holy: [0; 2],
            removed: [0; 2],
            threatened: Lines::NONE,
        };
        let mut stated_threats = None;
        let mut seen = Vec::new();
        for field in &fields[2..] {
            let (name, value) = field.split_once(':').ok_or_else(|| {
                NotationError::new(format!(
                    "{:?} is not a field: write r:, h:, x: or th: and its value",
                    excerpt(field)
                ))
            })?;
            let allowed = match name {
                "r" | "h" => rules == Rules::Kidd,
                "x" | "th" => rules == Rules::Perimeter,
                _ => {
                    return Err(NotationError::new(format!(
                        "unknown field {:?}: the fields are r: (reserve), h: (holy line), x: (removed) and th: (threats)",
                        excerpt(name)
                    )));
                }
            };
            if !allowed {
                return Err(NotationError::new(format!(
                    "{} positions have no {name}: field",
                    rules.name()
                )));
            }
            if seen.contains(&name) {
                return Err(NotationError::new(format!(
                    "the {name}: field is given twice"
                )));
            }
            seen.push(name);
            match name {
                "r" => position.reserve = parse_pair(value, name)?,
                "h" => position.holy = parse_pair(value, name)?,
                "x" => position.removed = parse_pair(value, name)?,
                _ => stated_threats = Some(parse_threats(value)?),
            }
        }
        position.validate()?;
        if rules == Rules::Perimeter {
            position.threatened = position.threats_against(to_move);
            if let Some(stated) = stated_threats {
                position.check_stated_threats(&stated)?;
            }
        }
        Ok(position)
    }

    /// Refuses counts and placements that the rule set can never reach.
    fn validate(&self) -> Result<(), NotationError> {
        for player in Player::BOTH {
            let i = player.index();
            let total = self.board.total(player) + self.reserve[i] + self.holy[i] + self.removed[i];
            if total != COUNTERS {
                return Err(NotationError::new(format!(
                    "{} has {total} counters here; each side has {COUNTERS}",
                    super::side_name(player)
                )));
            }
        }
        for point in Point::ALL {
            let [t, b] = Player::BOTH.map(|p| self.board.count(p, point));
            match self.rules {
                Rules::Schaedler if !point.is_sacred() && t + b > 1 => {
                    return Err(NotationError::new(format!(
                        "point {point} holds {} counters; in {} an ordinary point holds one",
                        t + b,
                        self.rules.name()
                    )));
                }
                Rules::Kidd if t > 0 && b > 0 => {
                    return Err(NotationError::new(format!(
                        "point {point} holds both colours; in {} a landing hits a blot or is refused",
                        self.rules.name()
                    )));
                }
                _ => {}
            }
        }
        if self.rules == Rules::Kidd {
            for player in Player::BOTH {
                if self.board.count(player, goal(player)) > 0 {
                    return Err(NotationError::new(format!(
                        "{}'s counters on its goal {} are on the holy line: count them in h:",
                        super::side_name(player),
                        goal(player)
                    )));
                }
            }
        }
        Ok(())
    }

    /// A stated `th:` must list exactly the threats the board makes against the side to move: a
    /// threat is judged after every turn, and stands only against the player who answers it next.
    fn check_stated_threats(&self, stated: &[(Player, Line)]) -> Result<(), NotationError> {
        let mut lines = Lines::NONE;
        for &(player, line) in stated {
            if player != self.to_move {
                return Err(NotationError::new(format!(
                    "th: lists {}@{}, but threats stand only against the side to move",
                    side_letter(player),
                    line.number()
                )));
            }
            lines.insert(line);
        }
        if lines != self.threatened {
            let list = |lines: Lines| match threat_list(self.to_move, lines) {
                none if none.is_empty() => "none".to_string(),
                some => some,
            };
            return Err(NotationError::new(format!(
                "th: lists {}, but this board threatens {}",
                list(lines),
                list(self.threatened)
            )));
        }
        Ok(())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for point in Point::ALL {
            if point.index() > 0 {
                f.write_str("/")?;
            }
            let counts = Player::BOTH.map(|p| self.board.count(p, point));
            let letters = ['T', 'B'];
            if counts == [0, 0] {
                f.write_str("-")?;
            } else if counts.iter().all(|&n| n <= 1) {
                for (n, letter) in counts.into_iter().zip(letters) {
                    if n == 1 {
                        write!(f, "{letter}")?;
                    }
                }
            } else {
                for (n, letter) in counts.into_iter().zip(letters) {
                    if n > 0 {
                        write!(f, "{n}{letter}")?;
                    }
                }
            }
        }
        write!(f, " {}", side_letter(self.to_move))?;
        let pair = |f: &mut fmt::Formatter<'_>, name: &str, counts: [u8; 2]| {
            write!(f, " {name}:{},{}", counts[0], counts[1])
        };
        match self.rules {
            Rules::Schaedler => {}
            Rules::Kidd => {
                pair(f, "r", self.reserve)?;
                pair(f, "h", self.holy)?;
            }
            Rules::Perimeter => {
                pair(f, "x", self.removed)?;
                if !self.threatened.is_empty() {
                    write!(f, " th:{}", threat_list(self.to_move, self.threatened))?;
                }
            }
        }
        Ok(())
    }
}
