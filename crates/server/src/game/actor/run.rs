//! The actor's loop: commands in order, the flag's timer, the idle stop; and the commands that
//! only read (views, events, records, hints) or note who is connected.

use super::computer::game_seed;
use super::protocol::{Command, Hinted, Join, Published, Subscription};
use super::{FINISHED_IDLE_AFTER, GameActor, IDLE_AFTER, Touch};
use crate::game::error::{GameError, Refusal, error_chain};
use crate::game::event::{GameEvent, VersionedEvent};
use crate::game::{Mode, Seat, Status};
use ludus_engine::Player;
use ludus_store::SecretHash;
use std::time::Duration;

impl GameActor {
    pub(super) async fn run(mut self: Box<Self>) {
        // Before any command: a game loaded after a crash is paused from when its server was
        // last known alive, and a paused game (by that, or by an orderly shutdown) goes on from here.
        if let Some(&outage) = self.services.outage.get()
            && let Some(pause) = self.game.pause_after(outage)
        {
            let now = self.services.clock.now_ms();
            Box::pin(self.commit_own(pause, now, "the clocks' pause after a crash")).await;
        }
        Box::pin(self.resume_clocks()).await;
        self.schedule_computer();
        loop {
            let wake = self.next_wake();
            tokio::select! {
                command = self.commands.recv() => match command.map(|command| *command) {
                    None => break,
                    Some(Command::Stop { pause_clocks }) => {
                        if pause_clocks {
                            Box::pin(self.pause_clocks()).await;
                        }
                        break;
                    }
                    // Boxed, as the writes below: the write path's future (a store transaction,
                    // a reload) is large, and inline it would make every idle actor's task as
                    // large.
                    Some(command) => Box::pin(self.handle(command)).await,
                },
                why = sleep_for(wake) => match why {
                    Wake::Flag => Box::pin(self.raise_flag()).await,
                    Wake::Resume => Box::pin(self.resume_clocks()).await,
                    Wake::Expiry => Box::pin(self.expire_invite()).await,
                    Wake::Presence => self.presence_changed(),
                    Wake::Idle => break,
                },
            }
            if std::mem::take(&mut self.log_unsure) {
                Box::pin(self.catch_up(None)).await;
            }
        }
    }

    /// The earliest of the times the actor wakes at without a command, and why. One timer
    /// rather than one for each: every timer is in every idle game's task, and each made with a
    /// deadline is entered in the runtime's wheel at every turn of the loop.
    fn next_wake(&self) -> Option<(tokio::time::Instant, Wake)> {
        let flag = self.flag_deadline();
        // A waiting game's actor may stop: its invite's expiry is checked again when it is
        // loaded (and the registry's sweep loads the expired ones). The clock is read only for
        // an idle actor.
        let idle = (self.events.receiver_count() == 0 && flag.is_none())
            .then(|| tokio::time::Instant::now() + self.idle_after());
        [
            flag.map(|at| (at, Wake::Flag)),
            // Paused while no server served the game: this one does, so they go on now.
            self.game
                .clocks_paused()
                .then(|| (tokio::time::Instant::now(), Wake::Resume)),
            self.expiry_deadline().map(|at| (at, Wake::Expiry)),
            self.presence_deadline().map(|at| (at, Wake::Presence)),
            self.spectators_untold
                .then_some(self.spectators_quiet_until)
                .flatten()
                .map(|at| (at, Wake::Presence)),
            idle.map(|at| (at, Wake::Idle)),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|&(at, _)| at)
    }

    fn flag_deadline(&self) -> Option<tokio::time::Instant> {
        // Only the instance that leads the game raises its flag (any would be kept once: the
        // log's key takes one event per version; this keeps the others from trying).
        if self.game.status != Status::Playing || !self.leads {
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
        if let Some(event) = self.game.flag_due(due, &self.seen()) {
            self.commit_own(event, now, "a time-out").await;
        }
    }

    /// Paused clocks (a shutdown, a crash) go on from where they stood.
    async fn resume_clocks(&mut self) {
        if let Some(event) = self.game.resume_clocks() {
            let now = self.services.clock.now_ms();
            self.commit_own(event, now, "the clocks' resumption").await;
        }
    }

    /// The last instance shuts down: the clocks stand still until a server serves the game
    /// again and resumes them, so that the time no server serves it is charged to no one. Not
    /// retried: if it fails, that time is charged, as after a crash.
    async fn pause_clocks(&mut self) {
        let now = self.services.clock.now_ms();
        if let Some(event) = self.game.pause_clocks(now)
            && let Err(error) = self.commit(vec![event], None, now).await
        {
            tracing::warn!(game = %self.game.id, error = %error_chain(&error), "could not pause the clocks at shutdown");
        }
    }

    /// Commits an event the server decides by itself (a time-out, an expiry, the clocks
    /// resumed); on failure it logs and waits a little, so that the timer that asked tries again
    /// shortly rather than spins.
    async fn commit_own(&mut self, event: GameEvent, now: i64, what: &str) {
        if let Err(error) = self.commit(vec![event], None, now).await {
            tracing::warn!(game = %self.game.id, error = %error_chain(&error), "could not record {what}");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// How long the actor waits, unwatched and without a running clock, before it stops.
    fn idle_after(&self) -> Duration {
        if self.game.status.is_over() {
            FINISHED_IDLE_AFTER
        } else {
            IDLE_AFTER
        }
    }

    fn expiry_ms(&self) -> i64 {
        self.services.config.invite_expiry.as_millis() as i64
    }

    fn expiry_deadline(&self) -> Option<tokio::time::Instant> {
        let at = self.game.invite_expires_at(self.expiry_ms())?;
        Some(self.services.clock.instant_at(at))
    }

    /// The invite was not used in time: the game is aborted (if a join did not come first).
    pub(super) async fn expire_invite(&mut self) {
        let now = self.services.clock.now_ms();
        if let Some(abort) = self.game.expiry_due(self.expiry_ms(), now) {
            self.commit_own(abort, now, "an expired invite's abort")
                .await;
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

    /// Notes what `seat` did; a change of who is present (or of the spectators) is told to
    /// every socket.
    pub(super) fn touch(&mut self, seat: Seat, touch: Touch, now: i64) {
        let before = self.seen();
        let presence = &mut self.presence;
        match (seat, touch) {
            (Seat::Spectator, Touch::Opened) => presence.spectators += 1,
            (Seat::Spectator, Touch::Closed { .. }) => {
                presence.spectators = presence.spectators.saturating_sub(1)
            }
            (Seat::Player(p), Touch::Request) => presence.last_request[p.index()] = Some(now),
            (Seat::Player(p), Touch::Opened) => presence.sockets[p.index()] += 1,
            (Seat::Player(p), Touch::Closed { last_heard }) => {
                let i = p.index();
                presence.sockets[i] = presence.sockets[i].saturating_sub(1);
                if presence.sockets[i] == 0 {
                    // Their last sign of life, which may be long before the close (docs/API.md
                    // "Presence"): never before they were last seen otherwise.
                    presence.left_at[i] = last_heard.max(presence.left_at[i]).min(now);
                    presence.last_request[i] = None;
                }
            }
            (Seat::Spectator, Touch::Request) | (Seat::Both, _) => return,
        }
        let seen = self.seen();
        let players_changed = Player::BOTH
            .iter()
            .any(|&p| before.is_present(p, now) != seen.is_present(p, now));
        let changed = before.spectators != seen.spectators || players_changed;
        // The views read presence from the snapshot: refresh it when presence changes, or when
        // the last request it holds grows old against the window (not on every request: that
        // copy is not free).
        let tolerance = (self.presence.window_ms / 10).min(5_000);
        let stale = Player::BOTH.iter().any(|p| {
            let i = p.index();
            self.presence.last_request[i].unwrap_or(0)
                - self.snapshot.presence.last_request[i].unwrap_or(0)
                > tolerance
        });
        if changed || stale || touch != Touch::Request {
            self.snapshot = self.snapshot.with_presence(seen);
            // The other instances need a request's time only for a player without a socket here:
            // the socket reported keeps them present there whatever their requests' times, and
            // its closing is reported with the time it closed.
            let request_only = match seat {
                Seat::Player(p) => self.presence.sockets[p.index()] == 0,
                Seat::Spectator | Seat::Both => true,
            };
            if changed || touch != Touch::Request || request_only {
                self.report_presence();
            }
        }
        if players_changed {
            self.tell_presence();
        } else if changed {
            // The spectators alone: told now, unless they were within the last second; then
            // once that second is over, with whatever came and went meanwhile.
            let instant = tokio::time::Instant::now();
            match self.spectators_quiet_until {
                Some(until) if until > instant => self.spectators_untold = true,
                _ => self.tell_presence(),
            }
        }
    }

    /// Sends every socket the snapshot as it stands; a change of the spectators alone is not
    /// sent again for a while.
    pub(super) fn tell_presence(&mut self) {
        self.spectators_untold = false;
        self.spectators_quiet_until =
            Some(tokio::time::Instant::now() + super::SPECTATORS_TOLD_EVERY);
        self.publish(Published::Presence {
            snapshot: self.snapshot.clone(),
        });
    }

    /// When a player present only by an old request becomes away.
    fn presence_deadline(&self) -> Option<tokio::time::Instant> {
        if self.game.mode != Mode::Online || self.game.status.is_over() {
            return None;
        }
        self.seen()
            .next_expiry(|| self.services.clock.now_ms())
            .map(|at| self.services.clock.instant_at(at))
    }

    async fn handle(&mut self, command: Command) {
        // Several instances: what is read here must be as recent as the log (a player may have
        // just acted through another instance), and a token may be of a seat taken there.
        // The rare paths that read or write much (a catch-up, a join) are boxed: this future is
        // moved into a box for every command, so its size is paid by every move.
        if self.services.instance.is_some()
            && matches!(
                command,
                Command::Subscribe { .. } | Command::View { .. } | Command::Events { .. }
            )
        {
            Box::pin(self.catch_up(None)).await;
        }
        if let Command::Act { token, .. } = &command
            && self.services.instance.is_some()
            && self.seat(Some(token)).is_err()
        {
            Box::pin(self.catch_up(None)).await;
        }
        // Read once for all the command does (the presence, the decision, the events' stamp),
        // where each read it for itself: three readings of a move's nine.
        let now = self.services.clock.now_ms();
        match command {
            Command::Subscribe {
                token,
                since,
                reply,
            } => {
                let result = self.seat(token.as_ref()).map(|seat| {
                    self.touch(seat, Touch::Opened, now);
                    Subscription {
                        seat,
                        snapshot: self.snapshot.clone(),
                        missed: since.map(|v| self.events_since(v)).unwrap_or_default(),
                        events: self.events.subscribe(),
                    }
                });
                let _ = reply.send(result.map_err(GameError::from));
            }
            Command::Unsubscribe { seat, last_heard } => {
                self.touch(seat, Touch::Closed { last_heard }, now)
            }
            Command::Spoke { seat } => self.touch(seat, Touch::Opened, now),
            Command::View {
                token,
                presence,
                reply,
            } => {
                let view = self.seat(token.as_ref()).map(|seat| {
                    if presence {
                        self.touch(seat, Touch::Request, now);
                    }
                    self.snapshot.render_text(seat, now)
                });
                let _ = reply.send(view.map_err(GameError::from));
            }
            Command::Events {
                token,
                since,
                limit,
                reply,
            } => {
                let events = self.seat(token.as_ref()).map(|seat| {
                    self.touch(seat, Touch::Request, now);
                    let from = (since as usize).min(self.log.len());
                    let to = from.saturating_add(limit).min(self.log.len());
                    self.log[from..to].to_vec()
                });
                let _ = reply.send(events.map_err(GameError::from));
            }
            Command::Act {
                token,
                action,
                reply,
            } => {
                let result = match self.seat(Some(&token)) {
                    Ok(seat) => {
                        self.touch(seat, Touch::Request, now);
                        self.act(seat, *action, now)
                            .await
                            .map(|version| super::Acted {
                                version,
                                seat,
                                snapshot: self.snapshot.clone(),
                            })
                    }
                    Err(refusal) => Err(refusal.into()),
                };
                let _ = reply.send(result);
            }
            Command::Join(join) => match *join {
                Join {
                    presented: Some(token),
                    reply,
                    ..
                } => {
                    let _ = reply.send(self.seat_of_invite(&token));
                }
                Join {
                    invite,
                    presented: None,
                    seat,
                    entropy,
                    account,
                    reply,
                } => {
                    let joined = Box::pin(self.join(invite, seat, entropy, account.as_deref()));
                    let _ = reply.send(joined.await);
                }
            },
            Command::Record { reply } => {
                let _ = reply.send(Ok(self.game.record().to_string()));
            }
            Command::Hint { token, reply } => {
                // Boxed, as the other rare paths: the store's future inline would enlarge every
                // command's future.
                let hinted = Box::pin(self.hint(token.as_ref())).await;
                let _ = reply.send(hinted);
            }
            Command::ComputerMove { version, notation } => {
                self.play_computer(version, notation, now).await
            }
            Command::CatchUp { seq } => {
                Box::pin(self.catch_up(seq)).await;
            }
            Command::Lead(leads) => self.lead(leads),
            Command::Presence(message) => self.heard_presence(*message),
            Command::InstanceGone { instance } => self.instance_gone(&instance),
            Command::Stop { .. } => {}
        }
    }

    /// What a hint is searched from, once the seat may have one and the help is marked.
    async fn hint(&mut self, token: Option<&SecretHash>) -> Result<Hinted, GameError> {
        let seat = self.seat(token)?;
        self.game.allow_hint(seat)?;
        self.mark_assisted().await?;
        Ok(Hinted {
            engine: self.game.engine.clone(),
            version: self.game.version,
            seed: game_seed(&self.game.id, self.game.version),
        })
    }

    fn events_since(&self, since: u64) -> Vec<VersionedEvent> {
        let from = (since as usize).min(self.log.len());
        self.log[from..].to_vec()
    }
}

/// Why the actor woke without a command.
#[derive(Debug, Clone, Copy)]
enum Wake {
    /// The clock of the side to move ran out.
    Flag,
    /// The clocks were paused while no server served the game.
    Resume,
    /// The invite was not used in time.
    Expiry,
    /// A player present only by an old request became away, or the spectators' count changed
    /// while it was not to be told.
    Presence,
    /// Nobody watches and no clock runs: the actor stops.
    Idle,
}

/// Sleeps until `wake`'s time and returns why; without one, never returns.
async fn sleep_for(wake: Option<(tokio::time::Instant, Wake)>) -> Wake {
    match wake {
        Some((at, why)) => {
            tokio::time::sleep_until(at).await;
            why
        }
        None => std::future::pending().await,
    }
}
