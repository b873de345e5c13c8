//! The write path: a seat's action decided by the pure core, its events and their automatic
//! follow-ups committed to the store first, then applied, logged and broadcast. Joining and
//! rematches write here too. On a store failure the state is rebuilt from the store: nothing that
//! was not committed is ever shown or acknowledged.

use super::GameActor;
use super::protocol::{Action, Published};
use crate::game::error::{GameError, Refusal, error_chain};
use crate::game::event::{GameEvent, VersionedEvent, clients_json, event_rows};
use crate::game::live::{LiveGame, RematchStep};
use crate::game::restore::restore;
use crate::game::services::Seeding;
use crate::game::{Mode, Seat, Status};
use ludus_engine::Side;
use ludus_engine::dice::{ServerSeed, to_hex};
use ludus_store::{OfferedSeed, Redeemed, SeatOwner, SecretHash, StatusChange, StoreError};

/// The longest client move id kept for resends.
const MAX_MOVE_ID: usize = 64;

/// How many times an action is decided again after this instance caught up with the log.
const MAX_CATCH_UPS: usize = 3;

impl GameActor {
    /// Decides and commits a seat's action, asked at `now`. With several instances, this one may
    /// be behind the log (another instance appended first): a refusal, or the conflict of an
    /// append, sends it to catch up from the log and decide again, so the action is judged
    /// against the true state.
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        action: Action,
        mut now: i64,
    ) -> Result<u64, GameError> {
        let mut catch_ups = 0;
        loop {
            let from = self.game.version;
            let result = self.act_once(seat, &action, now).await;
            if !matches!(result, Err(GameError::Refused(_)))
                || self.services.instance.is_none()
                || catch_ups == MAX_CATCH_UPS
            {
                return result;
            }
            catch_ups += 1;
            // A conflict already caught up (the version moved); a refusal looks at the log.
            if self.game.version == from && !Box::pin(self.catch_up(None)).await {
                return result;
            }
            now = self.services.clock.now_ms();
        }
    }

    async fn act_once(&mut self, seat: Seat, action: &Action, now: i64) -> Result<u64, GameError> {
        // Paused clocks (a pause caught up from the log just now) go on first.
        if let Some(resume) = self.game.resume_clocks() {
            self.commit(vec![resume], None, now).await?;
        }
        // A clock that ran out before this request ends the game first.
        if let Some(flag) = self
            .game
            .flag_due(now, &self.seen())
            .filter(|_| now >= self.flag_not_before)
        {
            self.commit(vec![flag], None, now).await?;
        }
        let game = &self.game;
        let event = match action {
            Action::Move { text, version, id } => {
                // Stored as text: Postgres text cannot hold a NUL byte, so none reaches it.
                if id.as_ref().is_some_and(|id| {
                    id.chars().count() > MAX_MOVE_ID || id.chars().any(char::is_control)
                }) {
                    return Err(Refusal::MalformedMoveId.into());
                }
                // Move ids are the client's: each seat has its own, so two players' "1" never collide.
                let key = id
                    .as_ref()
                    .map(|id| [seat_key(game.variant, seat), "/", id].concat());
                if let Some(&answered) = key.as_ref().and_then(|key| self.move_answers.get(key)) {
                    return Ok(answered);
                }
                let event = game.decide_move(seat, text, *version, now)?;
                return self.commit(vec![event], key, now).await;
            }
            Action::Resign => game.decide_resign(seat)?,
            Action::Draw => game.decide_draw(seat)?,
            Action::DrawDecline => game.decide_draw_decline(seat)?,
            Action::Undo => {
                let undo = game.decide_undo(seat, now)?;
                self.mark_assisted().await?;
                undo
            }
            Action::UndoAccept => game.decide_undo_accept(seat, now)?,
            Action::UndoDecline => game.decide_undo_decline(seat)?,
            Action::RematchDecline => game.decide_rematch_decline(seat)?,
            Action::Abort => game.decide_abort(seat)?,
            Action::Claim => game.decide_claim(seat, &self.seen(), now)?,
            // Boxed, as every rare path of the write: the rematch's creation is a large future.
            Action::Rematch { entropy } => {
                return Box::pin(self.rematch(seat, entropy.clone(), now)).await;
            }
        };
        self.commit(vec![event], None, now).await
    }

    /// Against the computer, a hint or a takeback is help: the store marks the game before the
    /// help is given, so that its result does not count in the player's record at the level
    /// (docs/API.md "Players and bots"). Once a game: a restart marks it again, harmlessly.
    pub(super) async fn mark_assisted(&mut self) -> Result<(), GameError> {
        if self.game.mode == Mode::Computer && !self.assisted {
            self.services.store.mark_assisted(&self.game.id).await?;
            self.assisted = true;
        }
        Ok(())
    }

    /// Commits `events`, stamped at `now`, and their automatic follow-ups in one transaction, then
    /// applies and broadcasts them.
    pub(super) async fn commit(
        &mut self,
        events: Vec<GameEvent>,
        move_id: Option<String>,
        now: i64,
    ) -> Result<u64, GameError> {
        let undoes = events.iter().any(|e| matches!(e, GameEvent::Undo { .. }));
        let before = Rollback::of(&mut self.game, undoes);
        let batch = self.advance_from(&before, events, now)?;
        let rows = event_rows(&batch, before.game.version, now, move_id.as_deref());
        // What the sockets will receive, written from the rows before they go to the store.
        let published = clients_json(&rows);
        let change = (self.game.status != before.game.status)
            .then(|| status_change(&before.game, &self.game, now));
        // Postgres notifies this instance of its own commit too, often before the answer comes
        // back here: the registry knows it is this actor's, and wakes nobody for it.
        self.known_version
            .store(self.game.version, std::sync::atomic::Ordering::Release);
        let started = std::time::Instant::now();
        let stored = self
            .services
            .appender
            .append(&self.game.id, rows, change.as_ref())
            .await;
        self.services
            .metrics
            .store_latency
            .observe(started.elapsed());
        if let Err(error) = stored {
            before.put_back(&mut self.game);
            self.known_version
                .store(self.game.version, std::sync::atomic::Ordering::Release);
            return Err(match error {
                StoreError::Conflict => {
                    // Another writer got there first: catch up from the store.
                    Box::pin(self.reload()).await;
                    Refusal::Stale {
                        version: self.game.version,
                    }
                    .into()
                }
                other => {
                    // The commit may have landed though its answer was lost (the connection
                    // dropped after it): the notification that would have said so was taken
                    // for this commit's, so the log is looked at, once this request is
                    // answered (while the database is unreachable that read waits as long as
                    // the commit did).
                    self.log_unsure = self.services.instance.is_some();
                    other.into()
                }
            });
        }
        self.record(batch, published, before.game.version, now, move_id);
        Ok(self.game.version)
    }

    /// Applies `events` and their follow-ups; if they do not apply, the game is put back to
    /// `before` (a decided event that does not apply is a fault of the server, not the request).
    fn advance_from(
        &mut self,
        before: &Rollback,
        events: Vec<GameEvent>,
        now: i64,
    ) -> Result<Vec<GameEvent>, GameError> {
        self.game.advance(events, now).map_err(|source| {
            before.put_back(&mut self.game);
            GameError::Replay {
                game: self.game.id.clone(),
                source,
            }
        })
    }

    /// Adds committed events to the log and tells every subscriber (`published`: each event's
    /// JSON as clients receive it).
    fn record(
        &mut self,
        batch: Vec<GameEvent>,
        published: Vec<String>,
        before: u64,
        now: i64,
        move_id: Option<String>,
    ) {
        if batch.iter().any(|e| matches!(e, GameEvent::Undo { .. })) {
            self.move_list.update(&self.game);
        } else {
            let played = batch
                .iter()
                .filter(|e| matches!(e, GameEvent::Move { .. }))
                .count();
            self.move_list.extend(&self.game, played);
        }
        self.take_snapshot();
        if let Some(id) = move_id {
            self.move_answers.insert(id, before + batch.len() as u64);
        }
        for ((i, event), json) in batch.into_iter().enumerate().zip(published) {
            let event = VersionedEvent {
                version: before + 1 + i as u64,
                at: now,
                event,
            };
            self.publish(Published::event(&event, json, self.snapshot.clone()));
            self.log.push(event);
        }
        self.schedule_computer();
    }

    /// A new snapshot after the game changed.
    pub(super) fn refresh_snapshot(&mut self) {
        self.move_list.update(&self.game);
        self.take_snapshot();
    }

    /// The snapshot of the game as it stands, its move list already brought up to date; the
    /// registry learns the version. A game that has ended needs no instance's timers any more.
    fn take_snapshot(&mut self) {
        self.snapshot = self
            .snapshot
            .after(&self.game, &self.move_list, self.seen());
        self.known_version
            .store(self.game.version, std::sync::atomic::Ordering::Release);
        if self.game.status.is_over()
            && let Some(instance) = &self.services.instance
        {
            instance.release(&self.game.id);
        }
    }

    pub(super) fn publish(&self, item: Published) {
        // No receivers is fine: nobody is watching.
        let _ = self.events.send(std::sync::Arc::new(item));
    }

    /// Rebuilds the game from the store (another writer got there first) and publishes the
    /// events it did not know, in order.
    pub(super) async fn reload(&mut self) {
        let from = self.game.version;
        match restore(&self.services, &self.game.id).await {
            Ok(restored) => {
                self.game = restored.game;
                self.seats = restored.seats;
                self.move_answers = restored.move_answers;
                let mut log = restored.log;
                let known = log.partition_point(|e| e.version <= from);
                let new = log.split_off(known);
                self.log = log;
                if new.is_empty() {
                    self.refresh_snapshot();
                    self.publish(Published::Presence {
                        snapshot: self.snapshot.clone(),
                    });
                } else {
                    self.publish_caught_up(new);
                }
            }
            Err(error) => {
                tracing::error!(game = %self.game.id, error = %error_chain(&error), "could not reload the game from the store")
            }
        }
    }

    pub(super) async fn join(
        &mut self,
        invite: SecretHash,
        seat: SecretHash,
        entropy: String,
        account: Option<&str>,
    ) -> Result<Side, GameError> {
        // An invite past its time aborts its game first.
        self.expire_invite().await;
        match self.game.status {
            Status::Waiting => {}
            Status::Aborted => return Err(Refusal::GameOver.into()),
            Status::Playing | Status::Finished => return Err(self.seat_taken(false)),
        }
        let now = self.services.clock.now_ms();
        let joiner = self.game.creator().other();
        let before = Rollback::of(&mut self.game, false);
        self.game.joiner_entropy = entropy.as_str().into();
        let joined = self.game.decide_join();
        let batch = self.advance_from(&before, joined, now)?;
        let rows = event_rows(&batch, before.game.version, now, None);
        let owner = account.map(|account_id| SeatOwner {
            account_id,
            player: joiner.index() as i64,
            side: self.game.variant.side(joiner).name(),
        });
        let redeemed = self
            .services
            .store
            .redeem_invite(&invite, joiner, &seat, &entropy, owner, &rows)
            .await;
        match redeemed {
            Ok(Redeemed::Joined { .. }) => {
                self.seats[joiner.index()] = Some(seat);
                // Both just showed up: the joiner joined, the creator is waiting for them.
                self.presence.last_request = [Some(now); 2];
                self.record(batch, clients_json(&rows), before.game.version, now, None);
                Ok(self.game.variant.side(joiner))
            }
            Ok(Redeemed::AlreadyUsed) => {
                before.put_back(&mut self.game);
                self.reload().await;
                Err(self.seat_taken(false))
            }
            Ok(Redeemed::OwnGame) => {
                before.put_back(&mut self.game);
                Err(self.seat_taken(true))
            }
            Ok(Redeemed::NotFound) => {
                before.put_back(&mut self.game);
                Err(GameError::NoInvite)
            }
            Err(error) => {
                before.put_back(&mut self.game);
                Err(error.into())
            }
        }
    }

    /// The invite's seat is not the joiner's: taken, or (`yours`) the joiner holds the other.
    fn seat_taken(&self, yours: bool) -> GameError {
        Refusal::SeatTaken {
            game: self.game.id.clone(),
            yours,
        }
        .into()
    }

    /// The side of a seat token of this game presented with its invite (the creator opening their
    /// own link, the joiner opening it again): nothing is redeemed.
    pub(super) fn seat_of_invite(&self, token: &SecretHash) -> Result<Side, GameError> {
        match self.seat(Some(token))? {
            Seat::Player(player) => Ok(self.game.variant.side(player)),
            Seat::Both | Seat::Spectator => Err(Refusal::NoSeat.into()),
        }
    }

    /// An offer, or the rematch itself once both want it (its clocks start at its creation). A
    /// dice game's offer draws the rematch's seed and publishes its commitment, so that the
    /// accept's entropy comes after it, as a join's after an invite's (docs/RULES.md §4).
    async fn rematch(&mut self, seat: Seat, entropy: String, now: i64) -> Result<u64, GameError> {
        let seeding = match self.game.decide_rematch(seat)? {
            RematchStep::Offer(side) => {
                let commitment = if self.game.variant.dice_per_roll() > 0 {
                    let offered = OfferedSeed {
                        server_seed: ServerSeed(rand::random()),
                        entropy,
                    };
                    let store = &self.services.store;
                    store.offer_rematch_seed(&self.game.id, &offered).await?;
                    Some(to_hex(&offered.server_seed.commitment()))
                } else {
                    None
                };
                let offer = GameEvent::RematchOffered { side, commitment };
                return self.commit(vec![offer], None, now).await;
            }
            RematchStep::AlreadyDone => return Ok(self.game.version),
            RematchStep::Create => {
                let offered = match self.game.rematch_offer {
                    Some(_) => self.services.store.rematch_seed(&self.game.id).await?,
                    None => None,
                };
                match offered {
                    // The offerer's entropy is the creator's, the accepter's the joiner's.
                    Some(offered) => Seeding {
                        server_seed: Some(offered.server_seed),
                        creator_entropy: offered.entropy,
                        joiner_entropy: entropy,
                    },
                    // No opponent to ask (or an offer made before offers drew seeds): the seed
                    // is drawn now, with the asker's entropy.
                    None => Seeding {
                        creator_entropy: entropy,
                        ..Seeding::default()
                    },
                }
            }
        };
        let id = self
            .services
            .create_rematch(&self.game, &self.seats, seeding)
            .await?;
        // Stamped when it is made, after the new game's creation.
        let now = self.services.clock.now_ms();
        self.commit(vec![GameEvent::Rematch { game_id: id }], None, now)
            .await
    }
}

/// The game before a batch, to put back if the batch does not apply or is not committed. Its
/// actions are not copied when the batch can only add to them (anything but an undo): putting
/// back truncates them instead. In a long game they were most of the copy made at every move.
struct Rollback {
    /// The game as it was, without its actions when `actions` says how many it had.
    game: LiveGame,
    actions: Option<usize>,
}

impl Rollback {
    fn of(game: &mut LiveGame, undoes: bool) -> Rollback {
        if undoes {
            return Rollback {
                game: game.clone(),
                actions: None,
            };
        }
        let actions = std::mem::take(&mut game.actions);
        let copy = game.clone();
        game.actions = actions;
        Rollback {
            actions: Some(game.actions.len()),
            game: copy,
        }
    }

    /// Puts `game` back as it was (a rare path: a fault, or a store that did not commit).
    fn put_back(&self, game: &mut LiveGame) {
        let mut before = self.game.clone();
        if let Some(len) = self.actions {
            before.actions = std::mem::take(&mut game.actions);
            before.actions.truncate(len);
        }
        *game = before;
    }
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
        status: after.status,
        from: before.status,
        finished_at: after.status.is_over().then_some(now),
        result: after.result.map(|r| after.sided(r.outcome)),
        rated: after.each_side_has_moved(),
    }
}

#[cfg(test)]
mod tests {
    use super::Rollback;
    use crate::game::live::LiveGame;
    use crate::game::{Mode, Seat};
    use ludus_engine::Variant;

    fn played(moves: usize) -> LiveGame {
        let mut game = LiveGame::for_tests(Variant::Petteia8, Mode::Local, None);
        for _ in 0..moves {
            play_first_legal(&mut game);
        }
        game
    }

    fn play_first_legal(game: &mut LiveGame) {
        let notation = game.engine.legal_notations()[0].clone();
        let event = game
            .decide_move(Seat::Both, &notation, game.version, 0)
            .unwrap();
        game.advance(vec![event], 0).unwrap();
    }

    /// Without copying the actions, putting back still gives the game as it was: the same
    /// version, position, moves and record.
    #[test]
    fn a_rollback_puts_the_game_back_as_it_was() {
        for undoes in [false, true] {
            let mut game = played(4);
            let expected = (
                game.version,
                game.engine.position(),
                game.record().to_string(),
            );
            let before = Rollback::of(&mut game, undoes);
            assert_eq!(
                game.actions.len(),
                4,
                "taking the rollback keeps the actions"
            );
            play_first_legal(&mut game);
            play_first_legal(&mut game);
            before.put_back(&mut game);
            let now = (
                game.version,
                game.engine.position(),
                game.record().to_string(),
            );
            assert_eq!(now, expected);
            assert_eq!(game.actions.len(), 4);
        }
    }
}
