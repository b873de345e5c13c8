//! One actor per live game: a tokio task that owns the game's state, its clocks and its broadcast
//! channel. Commands arrive in order on an mpsc channel; each is checked against the state, its
//! events are committed to the store, and only then applied, acknowledged and broadcast. Nothing
//! else writes a game. Subscribing happens inside the actor, so a snapshot and the stream after it
//! never miss or repeat an event.

use super::event::{GameEvent, VersionedEvent, event_rows};
use super::live::LiveGame;
use super::registry::Shared;
use super::view::{MoveList, Presence, Snapshot};
use super::{Seat, Status};
use crate::error::ApiError;
use ludus_engine::Player;
use ludus_store::{Redeemed, StatusChange, StoreError};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};

/// An actor with no sockets, no running clock and no command for this long stops; the next
/// command rebuilds it from the store.
const IDLE_AFTER: Duration = Duration::from_secs(300);
/// Events a slow socket may fall behind before it is resynchronised with a snapshot.
const BROADCAST_CAPACITY: usize = 256;

/// What a socket receives from its game.
#[derive(Debug)]
pub enum Published {
    Event {
        event: VersionedEvent,
        snapshot: Arc<Snapshot>,
    },
    /// A player connected or left: views change, the version does not.
    Presence { snapshot: Arc<Snapshot> },
}

/// A request on behalf of a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Move {
        text: String,
        version: u64,
        id: Option<String>,
    },
    Resign,
    Draw,
    DrawDecline,
    Undo,
    Abort,
    Claim,
    Rematch,
}

/// How the actor answered an action.
#[derive(Debug, Clone)]
pub struct Acted {
    /// The version after the action (for a resent move id, after its first answer).
    pub version: u64,
    pub seat: Seat,
    /// The game as it stood after the action.
    pub snapshot: Arc<Snapshot>,
}

impl Acted {
    /// The game view for the seat that acted. Rendered on demand: an HTTP answer needs it, a
    /// WebSocket acknowledgement does not (the event brings the view).
    pub fn view(&self, now: i64) -> Value {
        self.snapshot.render(self.seat, now)
    }
}

/// What a hint is searched from: the game at one version, and the seed of that version.
#[derive(Debug)]
pub struct Hinted {
    pub engine: ludus_engine::AnyGame,
    pub version: u64,
    pub seed: u64,
}

/// A socket's start: who it is, the current view, what it missed, and the stream after that.
#[derive(Debug)]
pub struct Subscription {
    pub seat: Seat,
    pub snapshot: Arc<Snapshot>,
    pub missed: Vec<VersionedEvent>,
    pub events: broadcast::Receiver<Arc<Published>>,
}

#[derive(Debug)]
pub enum Command {
    Subscribe {
        token_hash: Option<String>,
        since: Option<u64>,
        reply: oneshot::Sender<Result<Subscription, ApiError>>,
    },
    Unsubscribe {
        seat: Seat,
    },
    View {
        token_hash: Option<String>,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    Events {
        since: u64,
        reply: oneshot::Sender<Vec<VersionedEvent>>,
    },
    Act {
        token_hash: Option<String>,
        action: Action,
        reply: oneshot::Sender<Result<Acted, ApiError>>,
    },
    Join {
        invite_hash: String,
        seat_hash: String,
        entropy: String,
        reply: oneshot::Sender<Result<Player, ApiError>>,
    },
    Record {
        reply: oneshot::Sender<String>,
    },
    /// The position to search for a hint, if the seat may have one.
    Hint {
        token_hash: Option<String>,
        reply: oneshot::Sender<Result<Hinted, ApiError>>,
    },
    /// The computer's search finished: its move, for the version it searched.
    ComputerMove {
        version: u64,
        notation: String,
    },
    Stop,
}

pub struct GameActor {
    game: LiveGame,
    seat_hashes: [Option<String>; 2],
    log: Vec<VersionedEvent>,
    move_answers: HashMap<String, u64>,
    snapshot: Arc<Snapshot>,
    /// The moves' JSON for the snapshots, kept up to date with the game.
    move_list: MoveList,
    events: broadcast::Sender<Arc<Published>>,
    presence: Presence,
    shared: Arc<Shared>,
    commands: mpsc::Receiver<Command>,
    me: mpsc::WeakSender<Command>,
    /// The flag is not raised before this time (a grace period after a restart).
    flag_not_before: i64,
}

impl std::fmt::Debug for GameActor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameActor")
            .field("game", &self.game.id)
            .field("version", &self.game.version)
            .finish()
    }
}

/// A game's state rebuilt from its stored row and events.
#[derive(Debug)]
pub struct Restored {
    pub game: LiveGame,
    pub seat_hashes: [Option<String>; 2],
    pub log: Vec<VersionedEvent>,
    pub move_answers: HashMap<String, u64>,
}

impl GameActor {
    pub fn spawn(
        restored: Restored,
        shared: Arc<Shared>,
        flag_not_before: i64,
    ) -> mpsc::Sender<Command> {
        let (sender, commands) = mpsc::channel(64);
        let (events, _) = broadcast::channel(BROADCAST_CAPACITY);
        let now = shared.clock.now_ms();
        let presence = Presence {
            sockets: [0, 0],
            last_seen: [now, now],
        };
        let mut move_list = MoveList::default();
        move_list.update(&restored.game);
        let actor = GameActor {
            snapshot: Snapshot::of(&restored.game, &move_list, presence),
            move_list,
            game: restored.game,
            seat_hashes: restored.seat_hashes,
            log: restored.log,
            move_answers: restored.move_answers,
            events,
            presence,
            shared,
            commands,
            me: sender.downgrade(),
            flag_not_before,
        };
        tokio::spawn(actor.run());
        sender
    }

    async fn run(mut self) {
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
        self.shared.forget(&self.game.id, &self.me);
    }

    fn flag_deadline(&self) -> Option<tokio::time::Instant> {
        if self.game.status != Status::Playing {
            return None;
        }
        let (_, at) = self.game.clocks?.deadline()?;
        Some(self.shared.clock.instant_at(at.max(self.flag_not_before)))
    }

    async fn raise_flag(&mut self) {
        // The timer fired at the deadline; the clock reading may lag it by a rounding.
        let now = self.shared.clock.now_ms();
        let due = self
            .game
            .clocks
            .and_then(|c| c.deadline())
            .map_or(now, |(_, at)| at.max(now));
        if let Some(event) = self.game.flag_due(due)
            && let Err(error) = self.commit(vec![event], None).await
        {
            tracing::warn!(game = %self.game.id, %error, "could not record a time-out");
            // Try again shortly rather than spin.
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// The seat a token hash speaks for; a token that matches no seat is refused.
    fn seat(&self, token_hash: Option<&str>) -> Result<Seat, ApiError> {
        let Some(hash) = token_hash else {
            return Ok(Seat::Spectator);
        };
        let matches = self
            .seat_hashes
            .each_ref()
            .map(|h| h.as_deref() == Some(hash));
        match matches {
            [true, true] => Ok(Seat::Both),
            [true, false] => Ok(Seat::Player(Player::First)),
            [false, true] => Ok(Seat::Player(Player::Second)),
            [false, false] => Err(ApiError::Unauthorized),
        }
    }

    fn view(&self, seat: Seat) -> Value {
        self.snapshot.render(seat, self.shared.clock.now_ms())
    }

    /// Notes that `seat` was heard from; a change of who is connected is told to every socket.
    fn touch(&mut self, seat: Seat, sockets_change: i32) {
        let Seat::Player(p) = seat else { return };
        let now = self.shared.clock.now_ms();
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
                token_hash,
                since,
                reply,
            } => {
                let result = self.seat(token_hash.as_deref()).map(|seat| {
                    self.touch(seat, 1);
                    Subscription {
                        seat,
                        snapshot: self.snapshot.clone(),
                        missed: since.map(|v| self.events_since(v)).unwrap_or_default(),
                        events: self.events.subscribe(),
                    }
                });
                let _ = reply.send(result);
            }
            Command::Unsubscribe { seat } => self.touch(seat, -1),
            Command::View { token_hash, reply } => {
                let _ = reply.send(self.seat(token_hash.as_deref()).map(|seat| self.view(seat)));
            }
            Command::Events { since, reply } => {
                let _ = reply.send(self.events_since(since));
            }
            Command::Act {
                token_hash,
                action,
                reply,
            } => {
                let result = match self.seat(token_hash.as_deref()) {
                    Ok(seat) => {
                        self.touch(seat, 0);
                        self.act(seat, action).await.map(|version| Acted {
                            version,
                            seat,
                            snapshot: self.snapshot.clone(),
                        })
                    }
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Command::Join {
                invite_hash,
                seat_hash,
                entropy,
                reply,
            } => {
                let _ = reply.send(self.join(invite_hash, seat_hash, entropy).await);
            }
            Command::Record { reply } => {
                let _ = reply.send(self.game.record().to_string());
            }
            Command::Hint { token_hash, reply } => {
                let hinted = self.seat(token_hash.as_deref()).and_then(|seat| {
                    self.game.allow_hint(seat)?;
                    Ok(Hinted {
                        engine: self.game.engine.clone(),
                        version: self.game.version,
                        seed: game_seed(&self.game.id, self.game.version),
                    })
                });
                let _ = reply.send(hinted);
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

    async fn act(&mut self, seat: Seat, action: Action) -> Result<u64, ApiError> {
        let now = self.shared.clock.now_ms();
        // A clock that ran out before this request ends the game first.
        if let Some(flag) = self
            .game
            .flag_due(now)
            .filter(|_| now >= self.flag_not_before)
        {
            self.commit(vec![flag], None).await?;
        }
        let game = &self.game;
        let events = match action {
            Action::Move { text, version, id } => {
                if id.as_ref().is_some_and(|id| id.len() > 64) {
                    return Err(ApiError::BadRequest(
                        "a move id has at most 64 characters".into(),
                    ));
                }
                // Move ids are the client's: each seat has its own, so two players' "1" never collide.
                let key = id.map(|id| format!("{}/{id}", seat_key(game.variant, seat)));
                if let Some(&answered) = key.as_ref().and_then(|key| self.move_answers.get(key)) {
                    return Ok(answered);
                }
                let event = game.decide_move(seat, &text, version, now)?;
                return self.commit(vec![event], key).await;
            }
            Action::Resign => game.decide_resign(seat)?,
            Action::Draw => game.decide_draw(seat)?,
            Action::DrawDecline => game.decide_draw_decline(seat)?,
            Action::Undo => game.decide_undo(seat, now)?,
            Action::Abort => game.decide_abort(seat)?,
            Action::Claim => {
                let Seat::Player(player) = seat else {
                    return Err(ApiError::Forbidden(
                        "only a player of an online game can claim a win".into(),
                    ));
                };
                let needed = if game.clocks.is_some() {
                    self.shared.config.claim_after_timed
                } else {
                    self.shared.config.claim_after_untimed
                };
                game.decide_claim(
                    seat,
                    self.presence.gone_for(player.other(), now),
                    needed.as_millis() as i64,
                )?
            }
            Action::Rematch => return self.rematch(seat).await,
        };
        self.commit(vec![events], None).await
    }

    /// Commits `events` and their automatic follow-ups in one transaction, then applies and
    /// broadcasts them. On a store failure the state is rebuilt from the store: nothing that was
    /// not committed is ever shown or acknowledged.
    async fn commit(
        &mut self,
        events: Vec<GameEvent>,
        move_id: Option<String>,
    ) -> Result<u64, ApiError> {
        let now = self.shared.clock.now_ms();
        let before = self.game.clone();
        let batch = match self.game.advance(events, now) {
            Ok(batch) => batch,
            Err(error) => {
                tracing::error!(game = %self.game.id, %error, "a decided event did not apply");
                self.game = before;
                return Err(ApiError::Unavailable);
            }
        };
        let rows = event_rows(&batch, before.version, now, move_id.as_deref());
        let change =
            (self.game.status != before.status).then(|| status_change(&before, &self.game, now));
        let started = std::time::Instant::now();
        let stored = self
            .shared
            .appender
            .append(&self.game.id, rows, change.as_ref())
            .await;
        self.shared.metrics.store_latency.observe(started.elapsed());
        if let Err(error) = stored {
            self.game = before;
            return Err(match error {
                StoreError::Conflict => {
                    // Another writer got there first: catch up from the store.
                    self.reload().await;
                    ApiError::Stale {
                        version: self.game.version,
                    }
                }
                other => ApiError::from(other),
            });
        }
        self.record(batch, before.version, now, move_id);
        Ok(self.game.version)
    }

    /// Adds committed events to the log and tells every subscriber.
    fn record(&mut self, batch: Vec<GameEvent>, before: u64, now: i64, move_id: Option<String>) {
        self.refresh_snapshot();
        if let Some(id) = move_id {
            self.move_answers.insert(id, before + 1);
        }
        for (i, event) in batch.into_iter().enumerate() {
            let event = VersionedEvent {
                version: before + 1 + i as u64,
                at: now,
                event,
            };
            self.log.push(event.clone());
            self.publish(Published::Event {
                event,
                snapshot: self.snapshot.clone(),
            });
        }
        self.schedule_computer();
    }

    /// A new snapshot after the game changed.
    fn refresh_snapshot(&mut self) {
        self.move_list.update(&self.game);
        self.snapshot = Snapshot::of(&self.game, &self.move_list, self.presence);
    }

    fn publish(&self, item: Published) {
        // No receivers is fine: nobody is watching.
        let _ = self.events.send(Arc::new(item));
    }

    async fn reload(&mut self) {
        match self.shared.restore(&self.game.id).await {
            Ok(Some(restored)) => {
                self.game = restored.game;
                self.seat_hashes = restored.seat_hashes;
                self.log = restored.log;
                self.move_answers = restored.move_answers;
                self.refresh_snapshot();
                self.publish(Published::Presence {
                    snapshot: self.snapshot.clone(),
                });
            }
            Ok(None) | Err(_) => {
                tracing::error!(game = %self.game.id, "could not reload the game from the store")
            }
        }
    }

    async fn join(
        &mut self,
        invite_hash: String,
        seat_hash: String,
        entropy: String,
    ) -> Result<Player, ApiError> {
        if self.game.status != Status::Waiting {
            return Err(ApiError::SeatTaken);
        }
        let now = self.shared.clock.now_ms();
        let joiner = self.game.creator().other();
        let before = self.game.clone();
        self.game.joiner_entropy = entropy.clone();
        let joined = self.game.decide_join();
        let batch = match self.game.advance(joined, now) {
            Ok(batch) => batch,
            Err(_) => {
                self.game = before;
                return Err(ApiError::Unavailable);
            }
        };
        let rows = event_rows(&batch, before.version, now, None);
        match self
            .shared
            .store
            .redeem_invite(&invite_hash, joiner.index(), &seat_hash, &entropy, &rows)
            .await
        {
            Ok(Redeemed::Joined { .. }) => {
                self.seat_hashes[joiner.index()] = Some(seat_hash);
                self.presence.last_seen[joiner.index()] = now;
                self.presence.last_seen[joiner.other().index()] = now;
                self.record(batch, before.version, now, None);
                Ok(joiner)
            }
            Ok(Redeemed::AlreadyUsed) => {
                self.game = before;
                self.reload().await;
                Err(ApiError::SeatTaken)
            }
            Ok(Redeemed::NotFound) => {
                self.game = before;
                Err(ApiError::NotFound("invite".into()))
            }
            Err(error) => {
                self.game = before;
                Err(error.into())
            }
        }
    }

    async fn rematch(&mut self, seat: Seat) -> Result<u64, ApiError> {
        if seat == Seat::Spectator {
            return Err(ApiError::Unauthorized);
        }
        if !self.game.status.is_over() {
            return Err(ApiError::Forbidden(
                "a rematch follows a finished game".into(),
            ));
        }
        if self.game.rematch.is_some() {
            return Ok(self.game.version);
        }
        let id = self
            .shared
            .create_rematch(&self.game, &self.seat_hashes)
            .await?;
        self.commit(vec![GameEvent::Rematch { game_id: id }], None)
            .await
    }

    /// Starts the computer thinking, if it is to move: after a short delay (so a person sees the
    /// reply arrive), on the blocking pool, at most one search per core at a time (a queue, not a
    /// thread per game), within its level's budget and a share of its clock. The answer comes back
    /// as a command and is played only if the game has not moved on meanwhile.
    fn schedule_computer(&self) {
        let Some(computer) = self.game.computer() else {
            return;
        };
        if self.game.status != Status::Playing
            || self.game.engine.to_move() != computer
            || self.game.engine.phase() != ludus_engine::Phase::AwaitingMove
        {
            return;
        }
        let level = ludus_ai::Level::new(self.game.settings.level.unwrap_or(1))
            .unwrap_or(ludus_ai::Level::MIN);
        let mut budget = level.time_budget();
        if let Some(clocks) = self.game.clocks.filter(|c| c.running.is_some()) {
            // Never spend more than a thirtieth of what is left on one move.
            let left = clocks.read(self.shared.clock.now_ms())[computer.index()].max(0) as u64;
            budget = budget.min(Duration::from_millis(left / 30));
        }
        let (me, version, delay) = (
            self.me.clone(),
            self.game.version,
            self.shared.config.computer_delay,
        );
        let (engine, shared) = (self.game.engine.clone(), self.shared.clone());
        let seed = game_seed(&self.game.id, version);
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let choice = shared.think(engine, level, seed, budget).await;
            if let (Some(mv), Some(me)) = (choice, me.upgrade()) {
                let _ = me
                    .send(Command::ComputerMove {
                        version,
                        notation: mv.to_string(),
                    })
                    .await;
            }
        });
    }

    /// Plays the computer's chosen move, if the game is still where the search started.
    async fn play_computer(&mut self, version: u64, notation: String) {
        let Some(computer) = self.game.computer() else {
            return;
        };
        if version != self.game.version || self.game.status != Status::Playing {
            return;
        }
        let now = self.shared.clock.now_ms();
        match self
            .game
            .decide_move(Seat::Player(computer), &notation, version, now)
        {
            Ok(event) => {
                if let Err(error) = self.commit(vec![event], None).await {
                    tracing::warn!(game = %self.game.id, %error, "the computer's move was not recorded");
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
fn game_seed(game_id: &str, version: u64) -> u64 {
    // FNV-1a: stable across processes, unlike the standard library's hasher.
    game_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }) ^ version
}

/// The scope of a seat's move ids.
fn seat_key(variant: ludus_engine::Variant, seat: Seat) -> &'static str {
    match seat {
        Seat::Player(p) => variant.side(p).name(),
        Seat::Both => "both",
        Seat::Spectator => "watcher",
    }
}

fn status_change(before: &LiveGame, after: &LiveGame, now: i64) -> StatusChange {
    StatusChange {
        status: after.status.name().into(),
        from: before.status.name().into(),
        finished_at: after.status.is_over().then_some(now),
        winner: after
            .result
            .and_then(|r| r.outcome.winner)
            .map(|p| after.variant.side(p).name().into()),
        termination: after.result.map(|r| r.outcome.termination.name().into()),
    }
}

async fn sleep_until_opt(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
