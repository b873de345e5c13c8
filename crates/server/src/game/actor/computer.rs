//! The computer's turns: searched off the actor (on the blocking pool, one search per core), and
//! played through the write path only if the game has not moved on meanwhile.

use super::GameActor;
use super::protocol::Command;
use crate::game::error::error_chain;
use crate::game::services::Searcher;
use crate::game::{GameId, Seat, Status};
use std::time::Duration;

impl GameActor {
    /// Starts the computer thinking, if it is to move: after a short delay in a game without a
    /// clock (so a person sees the reply arrive; with a clock the pause would run on the
    /// computer's own time, and it lost long games on time by it), on the blocking pool, at most one search per core at a time (a queue, not a
    /// thread per game), within its level's budget and a share of its clock. The answer comes back
    /// as a command and is played only if the game has not moved on meanwhile.
    pub(super) fn schedule_computer(&self) {
        let Some((computer, level)) = self.game.computer_player() else {
            return;
        };
        if self.game.status != Status::Playing
            || !self.leads
            || self.game.engine.to_move() != computer
            || self.game.engine.phase() != ludus_engine::Phase::AwaitingMove
        {
            return;
        }
        let mut budget = level.time_budget();
        if let Some(clocks) = self.game.clocks.filter(|c| c.running.is_some()) {
            // Never spend more than a thirtieth of what is left on one move.
            let left = clocks.read(self.services.clock.now_ms())[computer.index()].max(0) as u64;
            budget = budget.min(Duration::from_millis(left / 30));
        }
        let delay = match self.game.clocks {
            Some(_) => Duration::ZERO,
            None => self.services.config.computer_delay,
        };
        let (me, version) = (self.me.clone(), self.game.version);
        let (engine, services) = (self.game.engine.clone(), self.services.clone());
        let seed = game_seed(&self.game.id, version);
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let choice = services
                .think(Searcher::Seat, engine, level, seed, budget)
                .await;
            if let (Some(mv), Some(me)) = (choice, me.upgrade()) {
                let _ = me
                    .send(Box::new(Command::ComputerMove {
                        version,
                        notation: mv.to_string(),
                    }))
                    .await;
            }
        });
    }

    /// Plays the computer's chosen move at `now`, if the game is still where the search started.
    pub(super) async fn play_computer(&mut self, version: u64, notation: String, now: i64) {
        let Some(computer) = self.game.computer() else {
            return;
        };
        if version != self.game.version || self.game.status != Status::Playing {
            return;
        }
        match self
            .game
            .decide_move(Seat::Player(computer), &notation, version, now)
        {
            Ok(event) => {
                if let Err(error) = self.commit(vec![event], None, now).await {
                    tracing::warn!(game = %self.game.id, error = %error_chain(&error), "the computer's move was not recorded");
                    self.schedule_computer();
                }
            }
            Err(error) => {
                tracing::error!(game = %self.game.id, %error, "the computer chose a refused move")
            }
        }
    }
}

/// The computer's seed for one position of one game: varied from game to game, fixed for a game
/// and version (so a replayed game thinks the same).
pub(super) fn game_seed(game_id: &GameId, version: u64) -> u64 {
    // FNV-1a: stable across processes, unlike the standard library's hasher.
    game_id
        .as_str()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
        ^ version
}
