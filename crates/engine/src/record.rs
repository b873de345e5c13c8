//! Game records (docs/RULES.md §4): header tags, then the rolls and moves in order, so that a record
//! replays without the seed and, once the server seed is revealed, proves every die.
//!
//! ```text
//! [Variant "pente-grammai-kidd"]
//! [Commitment "630d…"]
//! [CreatorEntropy "alice"]
//! [JoinerEntropy "bob"]
//! [ServerSeed "0001…"]
//! [Seed "35c0…"]
//! [First "terracotta"]
//! [Result "1-0"]
//! [Termination "gathered"]
//! [RulesVersion "1"]
//!
//! {3} 3:R-0
//! {5} 5:R-5
//! ```
//! A roll is written `{d,d,d}` in the order thrown; every other token is a move in the variant's
//! notation. Lines are for people (one turn a line: a side's bonus dice, its roll and its moves;
//! in Petteia both sides' moves); the tokens alone carry the meaning.

use crate::dice::{ServerSeed, from_hex, to_hex};
use crate::{AnyGame, FirstPlayer, Phase, Player, Termination, Variant};
use std::fmt;

/// The version of the rules a record was played under.
pub const RULES_VERSION: &str = "1";

/// One step of a game as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Roll(Vec<u8>),
    Move(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Header tags in order, as (name, value).
    pub tags: Vec<(String, String)>,
    pub steps: Vec<Step>,
    /// Where the lines of the text begin, as indices of `steps` in increasing order: a layout for
    /// people, which verification does not read (the writer knows whose turn each step is; the
    /// text alone does not say it). Empty: a line at each roll.
    pub line_starts: Vec<usize>,
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.tags.push((name.to_string(), value.into()));
    }
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        let mut line = String::new();
        let mut line_starts = self.line_starts.iter().peekable();
        for (index, step) in self.steps.iter().enumerate() {
            let starts_line = if self.line_starts.is_empty() {
                matches!(step, Step::Roll(_))
            } else {
                line_starts.next_if_eq(&&index).is_some()
            };
            if starts_line && !line.is_empty() {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            match step {
                Step::Roll(dice) => {
                    let faces: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
                    line.push_str(&format!("{{{}}}", faces.join(",")));
                }
                Step::Move(mv) => line.push_str(mv),
            }
        }
        if !line.is_empty() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Where and why a record does not parse or does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

fn fail<T>(message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError(message.into()))
}

/// Longest record accepted (a 5,000-move Duodecim game is well under it).
const MAX_RECORD_BYTES: usize = 1 << 20;

impl std::str::FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return fail(format!(
                "the record is {} bytes; at most {MAX_RECORD_BYTES} are read",
                text.len()
            ));
        }
        let mut record = Record::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            let at = number + 1;
            if line.is_empty() {
                continue;
            }
            if let Some(tag) = line.strip_prefix('[') {
                let tag = tag
                    .strip_suffix(']')
                    .ok_or_else(|| RecordError(format!("line {at}: a tag ends with ]")))?;
                let (name, quoted) = tag
                    .split_once(' ')
                    .ok_or_else(|| RecordError(format!("line {at}: a tag is [Name \"value\"]")))?;
                let inner = quoted
                    .strip_prefix('"')
                    .and_then(|q| q.strip_suffix('"'))
                    .ok_or_else(|| {
                        RecordError(format!(
                            "line {at}: the value of {name} is in double quotes"
                        ))
                    })?;
                let mut value = String::new();
                let mut chars = inner.chars();
                while let Some(c) = chars.next() {
                    value.push(match (c, c == '\\') {
                        (_, true) => match chars.next() {
                            Some('n') => '\n',
                            Some(other) => other,
                            None => return fail(format!("line {at}: a lone backslash in {name}")),
                        },
                        (c, false) => c,
                    });
                }
                record.tags.push((name.to_string(), value));
                continue;
            }
            record.line_starts.push(record.steps.len());
            for token in line.split_whitespace() {
                if let Some(dice) = token.strip_prefix('{') {
                    let dice = dice.strip_suffix('}').ok_or_else(|| {
                        RecordError(format!("line {at}: a roll is written {{3,1,4}}"))
                    })?;
                    let faces = dice
                        .split(',')
                        .map(|d| d.parse::<u8>().ok().filter(|d| (1..=6).contains(d)))
                        .collect::<Option<Vec<u8>>>()
                        .ok_or_else(|| {
                            RecordError(format!("line {at}: {token} is not a roll of dice 1–6"))
                        })?;
                    record.steps.push(Step::Roll(faces));
                } else {
                    record.steps.push(Step::Move(token.to_string()));
                }
            }
        }
        Ok(record)
    }
}

/// What a successful verification proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub moves: usize,
    pub rolls: usize,
    /// Whether the dice were checked against the revealed server seed (not only replayed).
    pub dice_proven: bool,
}

impl Record {
    /// Checks the record: the commitment against the revealed server seed, every die against the
    /// seed, every move through the engine, and the result against the final position.
    pub fn verify(&self) -> Result<Verified, RecordError> {
        let variant: Variant = match self.tag("Variant") {
            Some(v) => v
                .parse()
                .map_err(|e| RecordError(format!("[Variant]: {e}")))?,
            None => return fail("the record has no [Variant] tag"),
        };
        let seed = match self.tag("ServerSeed") {
            None => None,
            Some(hex) => {
                let server = ServerSeed(
                    from_hex(hex)
                        .ok_or_else(|| RecordError("[ServerSeed] is not 64 hex digits".into()))?,
                );
                let commitment = self
                    .tag("Commitment")
                    .ok_or_else(|| RecordError("[ServerSeed] without [Commitment]".into()))?;
                if to_hex(&server.commitment()) != commitment.to_ascii_lowercase() {
                    return fail(
                        "the commitment does not match the server seed: SHA-256(ServerSeed) ≠ Commitment",
                    );
                }
                let seed = server.game_seed(
                    self.tag("CreatorEntropy").unwrap_or(""),
                    self.tag("JoinerEntropy").unwrap_or(""),
                );
                if let Some(stated) = self.tag("Seed")
                    && to_hex(&seed.0) != stated.to_ascii_lowercase()
                {
                    return fail(
                        "[Seed] is not SHA-256(\"ludus-dice-v1\" ‖ server seed ‖ SHA-256(creator) ‖ SHA-256(joiner))",
                    );
                }
                Some(seed)
            }
        };
        let sides = variant.sides();
        let stated_first = match self.tag("First") {
            Some(name) => Some(
                Player::BOTH
                    .into_iter()
                    .find(|&p| sides[p.index()].name() == name)
                    .ok_or_else(|| {
                        RecordError(format!("[First] {name:?} is not a side of {variant}"))
                    })?,
            ),
            None => None,
        };
        let first = match (variant.first_player(), seed) {
            (FirstPlayer::Fixed(player), _) => player,
            (FirstPlayer::DrawnFromSeed, Some(seed)) => {
                let drawn = seed.first_player();
                if stated_first.is_some_and(|p| p != drawn) {
                    return fail(format!(
                        "[First] says {} but the seed draws {}",
                        sides[stated_first.unwrap_or(drawn).index()],
                        sides[drawn.index()]
                    ));
                }
                drawn
            }
            (FirstPlayer::DrawnFromSeed, None) => {
                stated_first.ok_or_else(|| RecordError("the record has no [First] tag".into()))?
            }
        };
        let mut game = AnyGame::new(variant, first);
        let (mut die, mut moves, mut rolls) = (0u64, 0usize, 0usize);
        for (index, step) in self.steps.iter().enumerate() {
            let at = index + 1;
            match step {
                Step::Roll(dice) => {
                    rolls += 1;
                    if let Some(seed) = seed {
                        let expected = seed.dice(die, dice.len());
                        for (i, (&written, &derived)) in dice.iter().zip(&expected).enumerate() {
                            if written != derived {
                                return fail(format!(
                                    "step {at} (roll {rolls}): die {} of the game is {written} in the record but the seed gives {derived}",
                                    die + i as u64
                                ));
                            }
                        }
                    }
                    die += dice.len() as u64;
                    if game.phase() != Phase::AwaitingRoll {
                        return fail(format!("step {at} (roll {rolls}): no roll is due here"));
                    }
                    game.roll(dice)
                        .map_err(|e| RecordError(format!("step {at} (roll {rolls}): {e}")))?;
                }
                Step::Move(text) => {
                    moves += 1;
                    game.play_text(text).map_err(|e| {
                        RecordError(format!("step {at} (move {moves}, {text}): {e}"))
                    })?;
                }
            }
        }
        self.check_result(variant, &game)?;
        Ok(Verified {
            moves,
            rolls,
            dice_proven: seed.is_some(),
        })
    }

    fn check_result(&self, variant: Variant, game: &AnyGame) -> Result<(), RecordError> {
        let (Some(result), termination) = (self.tag("Result"), self.tag("Termination")) else {
            return Ok(());
        };
        if result == "*" {
            return if game.outcome().is_some() {
                fail("[Result] is * but the moves end the game")
            } else {
                Ok(())
            };
        }
        match game.outcome() {
            Some(outcome) => {
                let expected = result_text(outcome.winner);
                if result != expected
                    || termination.is_some_and(|t| t != outcome.termination.name())
                {
                    return fail(format!(
                        "the moves end the game {expected} by {}, but the record says {result} by {}",
                        outcome.termination,
                        termination.unwrap_or("?")
                    ));
                }
            }
            None => {
                // Resignation, time, agreement or abandonment: decided off the board.
                let off_board = [
                    Termination::Timeout,
                    Termination::Resignation,
                    Termination::Agreement,
                    Termination::Abandoned,
                    Termination::MoveLimit,
                ];
                if !termination.is_some_and(|t| off_board.iter().any(|o| o.name() == t)) {
                    return fail(format!(
                        "[Result] is {result} but the moves do not end the game ({variant})"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `1-0`, `0-1` or `1/2-1/2`, the first player's score first.
pub fn result_text(winner: Option<Player>) -> &'static str {
    match winner {
        Some(Player::First) => "1-0",
        Some(Player::Second) => "0-1",
        None => "1/2-1/2",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_their_text() {
        let mut record = Record::default();
        record.set("Variant", "duodecim-scripta");
        record.set("CreatorEntropy", "say \"hi\"\\ there");
        record.steps = vec![
            Step::Roll(vec![3, 1, 4]),
            Step::Move("3:R-M3".into()),
            Step::Move("decline".into()),
            Step::Roll(vec![6, 6, 2]),
        ];
        // The other side's decline opens its turn's line, before its roll.
        record.line_starts = vec![0, 2];
        let text = record.to_string();
        assert!(
            text.ends_with("\n{3,1,4} 3:R-M3\ndecline {6,6,2}\n"),
            "{text}"
        );
        assert_eq!(text.parse::<Record>().unwrap(), record);
        // Without a layout, a line at each roll.
        record.line_starts.clear();
        assert!(
            record
                .to_string()
                .ends_with("\n{3,1,4} 3:R-M3 decline\n{6,6,2}\n")
        );
        assert!("[Variant \"x\"\n{9}".parse::<Record>().is_err());
    }

    #[test]
    fn a_petteia_record_replays_and_its_result_is_checked() {
        let text = "[Variant \"petteia-6\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\nA1-A3 F6-F4\n";
        assert_eq!(text.parse::<Record>().unwrap().verify().unwrap().moves, 2);
        let wrong = "[Variant \"petteia-6\"]\n\nA1-A6\n";
        assert!(
            wrong
                .parse::<Record>()
                .unwrap()
                .verify()
                .unwrap_err()
                .0
                .contains("move 1")
        );
        let unfinished =
            "[Variant \"petteia-6\"]\n[Result \"1-0\"]\n[Termination \"reduction\"]\n\nA1-A3\n";
        assert!(unfinished.parse::<Record>().unwrap().verify().is_err());
    }
}
