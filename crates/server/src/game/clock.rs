//! Time: the server's clock (injectable, so tests can run on paused tokio time) and the players'
//! game clocks, which are derived from stored timestamps and never ticked.

use super::ClockSettings;
use ludus_engine::Player;

/// Milliseconds since the Unix epoch, advanced by tokio's clock after start-up: under
/// `tokio::time::pause()` it moves only when tokio's time does.
#[derive(Clone, Copy, Debug)]
pub struct ServerClock {
    epoch_ms_at_start: i64,
    started: tokio::time::Instant,
}

impl ServerClock {
    pub fn new() -> ServerClock {
        let epoch_ms_at_start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        ServerClock {
            epoch_ms_at_start,
            started: tokio::time::Instant::now(),
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.ms_at(tokio::time::Instant::now())
    }

    /// The epoch time of the tokio instant `at`: for an instant already read, so that the clock
    /// is not read twice.
    pub fn ms_at(&self, at: tokio::time::Instant) -> i64 {
        self.epoch_ms_at_start + at.saturating_duration_since(self.started).as_millis() as i64
    }

    /// The tokio instant at which the epoch time `at_ms` falls.
    pub fn instant_at(&self, at_ms: i64) -> tokio::time::Instant {
        let offset = at_ms - self.epoch_ms_at_start;
        self.started + std::time::Duration::from_millis(offset.max(0) as u64)
    }
}

impl Default for ServerClock {
    fn default() -> ServerClock {
        ServerClock::new()
    }
}

/// Both players' game clocks: what was left at the last reading, and who has been running since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClocks {
    pub settings: ClockSettings,
    /// Remaining milliseconds at `since`, by player index.
    pub remaining: [i64; 2],
    /// The player whose clock runs, from `since` on (None before the start and after the end).
    pub running: Option<Player>,
    pub since: i64,
}

impl GameClocks {
    pub fn new(settings: ClockSettings) -> GameClocks {
        let initial = settings.initial_ms as i64;
        GameClocks {
            settings,
            remaining: [initial, initial],
            running: None,
            since: 0,
        }
    }

    /// Remaining time of each player at `now` (never below zero).
    pub fn read(&self, now: i64) -> [i64; 2] {
        let mut remaining = self.remaining;
        if let Some(p) = self.running {
            remaining[p.index()] -= (now - self.since).max(0);
        }
        remaining.map(|ms| ms.max(0))
    }

    /// Charges the running player up to `now` and starts `next` (None stops both clocks).
    pub fn switch(&mut self, now: i64, next: Option<Player>) {
        self.remaining = self.read(now);
        self.running = next;
        self.since = now;
    }

    /// Adds the increment to `player` (after a completed move).
    pub fn add_increment(&mut self, player: Player) {
        self.remaining[player.index()] += self.settings.increment_ms as i64;
    }

    /// When the running player's time runs out.
    pub fn deadline(&self) -> Option<(Player, i64)> {
        self.running
            .map(|p| (p, self.since + self.remaining[p.index()]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_clock_is_charged_and_the_increment_added_after_the_move() {
        let mut clocks = GameClocks::new(ClockSettings {
            initial_ms: 60_000,
            increment_ms: 2_000,
        });
        clocks.switch(1_000, Some(Player::First));
        assert_eq!(clocks.read(11_000), [50_000, 60_000]);
        clocks.switch(11_000, Some(Player::Second));
        clocks.add_increment(Player::First);
        assert_eq!(clocks.read(11_000), [52_000, 60_000]);
        assert_eq!(clocks.deadline(), Some((Player::Second, 71_000)));
        assert_eq!(clocks.read(200_000), [52_000, 0], "never below zero");
    }
}
