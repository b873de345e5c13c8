//! The five levels of the computer player. A level is a budget (nodes and a time cap) plus a
//! deliberate weakness at the low end (random moves, evaluation noise); each game family turns a
//! level into its own search settings.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A strength from 1 (beatable by a beginner) to 5 (the strongest within two seconds a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(5);
    pub const ALL: [Level; 5] = [Level(1), Level(2), Level(3), Level(4), Level(5)];

    /// The level with this number, if it is from 1 to 5.
    pub fn new(number: u8) -> Option<Level> {
        (1..=5).contains(&number).then_some(Level(number))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    /// The most one move may take on one core, whatever deadline the caller gives.
    pub fn time_budget(self) -> Duration {
        Duration::from_millis(match self.0 {
            1 => 50,
            2 => 200,
            3 => 500,
            4 => 1_000,
            _ => 2_000,
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a level is a number from 1 to 5 (optionally written L1…L5), not {0:?}")]
pub struct BadLevel(String);

impl FromStr for Level {
    type Err = BadLevel;

    fn from_str(text: &str) -> Result<Level, BadLevel> {
        let digits = text.trim().trim_start_matches(['L', 'l']);
        digits
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| BadLevel(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_as_numbers_or_l_names_from_one_to_five() {
        assert_eq!("3".parse::<Level>(), Ok(Level(3)));
        assert_eq!("L5".parse::<Level>(), Ok(Level::MAX));
        assert!("0".parse::<Level>().is_err());
        assert!("6".parse::<Level>().is_err());
        assert_eq!(Level::MIN.to_string(), "L1");
    }
}
