//! The actor's loop: commands in order, the flag's timer, the idle stop; and the commands that
//! only read (views, events, records, hints) or note who is connected.

use super::computer::game_seed;
use super::protocol::{Command, Hinted, Published, Subscription};
use super::{GameActor, IDLE_AFTER};
use crate::game::error::{GameError, Refusal, error_chain};
use crate::game::event::VersionedEvent;
use crate::game::{Seat, Status};
use ludus_engine::Player;
use ludus_store::SecretHash;
use std::time::Duration;

impl GameActor {
    pub(super) async fn run(mut self) {
        self.schedule_computer();
        loop {
            let deadline = self.flag_deadline();
            let idle = self.events.receiver_count() == 0 && deadline.is_none();
            tokio::select! {
                command = self.commands.recv() => match command {
                    None | Some(Command::Stop) => break,
                    Some(command) => self.handle(command).await,
                },
                _ = sleep_until_opt(deadline) => self.raise_flag().await,
                _ = tokio::time::sleep(IDLE_AFTER), if idle => break,
            }
        }
    }

    fn flag_deadline(&self) -> Option<tokio::time::Instant> {
        if self.game.status != Status::Playing {
            return None;
        }
        let (_, at) = self.game.clocks?.deadline()?;
        Some(self.services.clock.instant_at(at.max(self.flag_not_before)))
    }

    async fn raise_flag(&mut self) {
        // The timer fired at the deadline; the clock reading may lag it by a rounding.
        let now = self.services.clock.now_ms();
        let due = self
            .game
            .clocks
            .and_then(|c| c.deadline())
            .map_or(now, |(_, at)| at.max(now));
        if let Some(event) = self.game.flag_due(due)
            && let Err(error) = self.commit(vec![event], None).await
        {
            tracing::warn!(game = %self.game.id, error = %error_chain(&error), "could not record a time-out");
            // Try again shortly rather than spin.
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// The seat a token's hash speaks for; a token that matches no seat is refused.
    pub(super) fn seat(&self, token: Option<&SecretHash>) -> Result<Seat, Refusal> {
        let Some(token) = token else {
            return Ok(Seat::Spectator);
        };
        match self
            .seats
            .each_ref()
            .map(|seat| seat.as_ref() == Some(token))
        {
            [true, true] => Ok(Seat::Both),
            [true, false] => Ok(Seat::Player(Player::First)),
            [false, true] => Ok(Seat::Player(Player::Second)),
            [false, false] => Err(Refusal::NoSeat),
        }
    }

    fn view(&self, seat: Seat) -> String {
        self.snapshot
            .render_text(seat, self.services.clock.now_ms())
    }

    /// Notes that `seat` was heard from; a change of who is connected is told to every socket.
    pub(super) fn touch(&mut self, seat: Seat, sockets_change: i32) {
        let Seat::Player(p) = seat else { return };
        let now = self.services.clock.now_ms();
        let mut presence = self.presence;
        let i = p.index();
        presence.last_seen[i] = now;
        presence.sockets[i] = presence.sockets[i].saturating_add_signed(sockets_change);
        let was_connected =
            self.presence.gone_for(p, now).is_none() && self.presence.sockets[i] > 0;
        let is_connected = presence.sockets[i] > 0;
        // The views read presence from the snapshot; refresh it when sockets come or go, or when
        // the last sign of life it holds grows old (not on every move: that copy is not free).
        let stale = now - self.snapshot.presence.last_seen[i] > 5_000;
        self.presence = presence;
        if sockets_change != 0 || stale {
            self.snapshot = self.snapshot.with_presence(presence);
        }
        if was_connected != is_connected {
            self.publish(Published::Presence {
                snapshot: self.snapshot.clone(),
            });
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Subscribe {
                token,
                since,
                reply,
            } => {
                let result = self.seat(token.as_ref()).map(|seat| {
                    self.touch(seat, 1);
                    Subscription {
                        seat,
                        snapshot: self.snapshot.clone(),
                        missed: since.map(|v| self.events_since(v)).unwrap_or_default(),
                        events: self.events.subscribe(),
                    }
                });
                let _ = reply.send(result.map_err(GameError::from));
            }
            Command::Unsubscribe { seat } => self.touch(seat, -1),
            Command::View { token, reply } => {
                let view = self.seat(token.as_ref()).map(|seat| self.view(seat));
                let _ = reply.send(view.map_err(GameError::from));
            }
            Command::Events { since, reply } => {
                let _ = reply.send(Ok(self.events_since(since)));
            }
            Command::Act {
                token,
                action,
                reply,
            } => {
                let result = match self.seat(Some(&token)) {
                    Ok(seat) => {
                        self.touch(seat, 0);
                        self.act(seat, action).await.map(|version| super::Acted {
                            version,
                            seat,
                            snapshot: self.snapshot.clone(),
                        })
                    }
                    Err(refusal) => Err(refusal.into()),
                };
                let _ = reply.send(result);
            }
            Command::Join {
                invite,
                seat,
                entropy,
                reply,
            } => {
                let _ = reply.send(self.join(invite, seat, entropy).await);
            }
            Command::Record { reply } => {
                let _ = reply.send(Ok(self.game.record().to_string()));
            }
            Command::Hint { token, reply } => {
                let hinted = self.seat(token.as_ref()).and_then(|seat| {
                    self.game.allow_hint(seat)?;
                    Ok(Hinted {
                        engine: self.game.engine.clone(),
                        version: self.game.version,
                        seed: game_seed(&self.game.id, self.game.version),
                    })
                });
                let _ = reply.send(hinted.map_err(GameError::from));
            }
            Command::ComputerMove { version, notation } => {
                self.play_computer(version, notation).await
            }
            Command::Stop => {}
        }
    }

    fn events_since(&self, since: u64) -> Vec<VersionedEvent> {
        let from = (since as usize).min(self.log.len());
        self.log[from..].to_vec()
    }
}

async fn sleep_until_opt(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
