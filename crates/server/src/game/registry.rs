//! The registry of live games: finds a game's actor or rebuilds it from the store, creates games,
//! and stops every actor at shutdown. The map is locked only to find or add a game's slot; a
//! game is loaded under its own slot's lock, so loading one game never waits for another.

use super::actor::{Acted, Action, Arrival, Command, GameActor, Join, Mailbox, Subscription};
use super::error::{GameError, error_chain};
use super::event::VersionedEvent;
use super::restore::{MoveAnswers, Restored, restore};
use super::services::{GameConfig, NewGameRequest, Outage, Searcher, Services};
use super::token::{InviteCode, SeatToken};
use super::{GameId, Mode};
use crate::metrics::Metrics;
use ludus_ai::Level;
use ludus_engine::{AnyGame, AnyMove, Player, Side};
use ludus_store::{SecretHash, Store};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, oneshot};

/// A game's place in the registry.
#[derive(Debug, Default)]
struct SlotState {
    /// The actor's handle, set once by whoever loads it first (the others wait for that load
    /// instead of starting a second actor).
    actor: OnceCell<Mailbox>,
    /// The version the actor has applied and published, or is committing: a notification of a
    /// version it has or is about to have (this instance's own commit, heard back from Postgres,
    /// often before the commit's answer reaches the actor) wakes nobody.
    version: Arc<AtomicU64>,
}

type Slot = Arc<SlotState>;
type Games = Arc<Mutex<HashMap<GameId, Slot>>>;

/// A suggested move, for the version it was searched at.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Hint {
    #[serde(rename = "move")]
    pub notation: String,
    pub version: u64,
    pub level: u8,
}

/// The handle the API holds: cheap to clone.
#[derive(Clone, Debug)]
pub struct Registry {
    services: Arc<Services>,
    /// A std mutex: it is held only to look up or insert a slot, never across an await.
    games: Games,
    /// Set when the shutdown begins: no game is loaded from then on (the notification of the
    /// shutdown's own pause would load a game again, and its clocks would resume).
    closing: Arc<AtomicBool>,
}

/// What the creator receives.
#[derive(Clone, Debug)]
pub struct CreatedGame {
    pub game_id: GameId,
    pub side: Player,
    pub token: SeatToken,
    pub invite: Option<InviteCode>,
    /// Dice games: the SHA-256 of the server seed, published before any die is thrown.
    pub commitment: Option<String>,
}

/// What the joiner receives.
#[derive(Clone, Debug)]
pub struct JoinedGame {
    pub game_id: GameId,
    pub side: Side,
    pub token: SeatToken,
}

impl Registry {
    /// A registry with no games yet; call it inside the tokio runtime (the appender starts tasks).
    pub fn new(store: Store, config: GameConfig, metrics: Arc<Metrics>) -> Registry {
        Registry {
            services: Arc::new(Services::new(store, config, metrics)),
            games: Arc::default(),
            closing: Arc::default(),
        }
    }

    pub fn store(&self) -> &Store {
        &self.services.store
    }

    pub fn now_ms(&self) -> i64 {
        self.services.clock.now_ms()
    }

    pub fn ms_at(&self, at: tokio::time::Instant) -> i64 {
        self.services.clock.ms_at(at)
    }

    pub fn live_games(&self) -> usize {
        self.games.lock().expect("registry lock").len()
    }

    /// Loads the games whose invite expired unused: each actor aborts its game as it starts.
    pub async fn expire_invites(&self) -> Result<usize, GameError> {
        let expiry = self.services.config.invite_expiry.as_millis() as i64;
        let before = self.services.clock.now_ms() - expiry;
        let ids = self
            .services
            .store
            .waiting_games_created_before(before)
            .await?;
        for id in &ids {
            if let Err(error) = self.handle(id, 0).await {
                tracing::error!(game = %id, error = %error_chain(&error), "could not abort an expired invite");
            }
        }
        Ok(ids.len())
    }

    /// Rebuilds every game in play (at start-up), so clocks go on and flags fall. Games waiting
    /// for their invite are loaded when asked for (or by `expire_invites`). With several
    /// instances, only the games that no live instance owns: this one takes them over.
    pub async fn restore_in_progress(&self) -> Result<usize, GameError> {
        let restarted_at = self.services.clock.now_ms();
        let ids = match &self.services.instance {
            None => self.services.store.games_in_progress().await?,
            Some(instance) => {
                self.services.store.heartbeat(instance.id()).await?;
                self.services.store.take_over_games(instance.id()).await?
            }
        };
        // No server served the games from the last note that one was alive until now, unless
        // another instance lives (it served them). After an orderly shutdown their clocks are
        // paused already, and this changes nothing. Without a note (none was due yet), each
        // game's last event says when its server was last alive.
        if !self.another_instance_serves_at_start().await {
            let outage = Outage {
                last_alive: self.services.store.last_alive().await?.unwrap_or(0),
                restarted_at,
            };
            let _ = self.services.outage.set(outage);
        }
        self.take_over(&ids).await
    }

    /// Notes in the store that this server is alive, while it has games loaded (`Outage`).
    pub async fn note_alive(&self) -> Result<(), GameError> {
        if self.live_games() > 0 {
            let now = self.services.clock.now_ms();
            self.services.store.mark_alive(now).await?;
        }
        Ok(())
    }

    /// Loads games this instance now owns, their flags held for the restart grace (their
    /// players may be reconnecting); games already loaded start their timers here.
    pub async fn take_over(&self, ids: &[GameId]) -> Result<usize, GameError> {
        let grace =
            self.services.clock.now_ms() + self.services.config.restart_grace.as_millis() as i64;
        if let Some(instance) = &self.services.instance {
            for id in ids {
                instance.gain(id);
                self.tell(id, Command::Lead(true));
            }
        }
        let mut restored = 0;
        for id in ids {
            // One game that does not replay must not keep the others (or the server) down.
            match self.handle(id, grace).await {
                Ok(_) => restored += 1,
                Err(error) => {
                    tracing::error!(game = %id, error = %error_chain(&error), "could not rebuild a game in progress")
                }
            }
        }
        Ok(restored)
    }

    pub async fn create(&self, request: NewGameRequest) -> Result<CreatedGame, GameError> {
        let token = SeatToken::new();
        let invite = (request.mode == Mode::Online).then(InviteCode::new);
        let creator = request.settings.creator.0;
        let mut seats = [None, None];
        seats[creator.index()] = Some(token.hash());
        if request.mode == Mode::Local {
            seats[creator.other().index()] = Some(token.hash());
        }
        let stored = self
            .services
            .create_game(
                request,
                seats.clone(),
                invite.as_ref().map(InviteCode::hash),
            )
            .await?;
        // The actor starts now, from the state just stored (not read back): a computer that
        // moves first starts thinking.
        self.start(Restored {
            game: stored.game,
            seats,
            log: stored.log,
            move_answers: MoveAnswers::default(),
        });
        Ok(CreatedGame {
            game_id: stored.id,
            side: creator,
            token,
            invite,
            commitment: stored.commitment,
        })
    }

    /// Redeems an invite: the joiner's new seat. With a seat token of the invite's game
    /// (`presented`), that seat, and nothing is redeemed. A used invite's refusal names its game.
    pub async fn join(
        &self,
        invite: &InviteCode,
        presented: Option<&SeatToken>,
        entropy: String,
        account: Option<&str>,
    ) -> Result<JoinedGame, GameError> {
        let invite = invite.hash();
        let game_id = self
            .services
            .store
            .find_invite(&invite)
            .await?
            .ok_or(GameError::NoInvite)?;
        let token = presented.cloned().unwrap_or_default();
        let side = self
            .request(&game_id, |reply| {
                Command::Join(Box::new(Join {
                    invite: invite.clone(),
                    presented: presented.map(SeatToken::hash),
                    seat: token.hash(),
                    entropy: entropy.clone(),
                    account: account.map(str::to_string),
                    reply,
                }))
            })
            .await?;
        Ok(JoinedGame {
            game_id,
            side,
            token,
        })
    }

    /// Whether the game exists: its actor is running, or is started from the store.
    pub async fn find(&self, game_id: &GameId) -> Result<(), GameError> {
        self.handle(game_id, 0).await.map(drop)
    }

    /// The game's view for the seat whose token hash is `token` (none: a spectator's).
    pub async fn view(
        &self,
        game_id: &GameId,
        token: Option<&SecretHash>,
    ) -> Result<String, GameError> {
        self.request(game_id, |reply| Command::View {
            token: token.cloned(),
            presence: true,
            reply,
        })
        .await
    }

    /// The view a join answers with: not a sign of life after the start, which the join itself
    /// is at the start, so that a joiner who never comes back is "not seen since the game
    /// began" whether or not the clock ticked between the join and its answer.
    pub async fn view_after_join(
        &self,
        game_id: &GameId,
        token: &SecretHash,
    ) -> Result<String, GameError> {
        self.request(game_id, |reply| Command::View {
            token: Some(token.clone()),
            presence: false,
            reply,
        })
        .await
    }

    /// `token` is the seat token's hash: a socket hashes its token once, not at every move.
    pub async fn act(
        &self,
        game_id: &GameId,
        token: &SecretHash,
        action: Action,
    ) -> Result<Acted, GameError> {
        self.request(game_id, |reply| Command::Act {
            token: token.clone(),
            action: Box::new(action.clone()),
            reply,
        })
        .await
    }

    /// A suggested move for the seat to move in a computer or local game: the strongest level's
    /// (the lower levels of the dice games play some moves at random on purpose).
    pub async fn hint(
        &self,
        game_id: &GameId,
        token: Option<&SecretHash>,
    ) -> Result<Hint, GameError> {
        // Without a token the actor sees a spectator, and refuses it as it refuses any.
        let hinted = self
            .request(game_id, |reply| Command::Hint {
                token: token.cloned(),
                reply,
            })
            .await?;
        let level = Level::MAX;
        let mv = self
            .services
            .think(
                Searcher::Helper,
                hinted.engine,
                level,
                hinted.seed,
                level.time_budget(),
            )
            .await
            .ok_or(GameError::NoMove)?;
        Ok(Hint {
            notation: mv.to_string(),
            version: hinted.version,
            level: level.number(),
        })
    }

    /// The computer's move at `level` in a position given alone (the analysis board).
    pub async fn suggest(&self, engine: AnyGame, level: Level) -> Option<AnyMove> {
        // A fixed seed: the same position and level suggest the same move.
        self.services
            .think(Searcher::Helper, engine, level, 0, level.time_budget())
            .await
    }

    /// The game's text record (docs/RULES.md §4).
    pub async fn record(&self, game_id: &GameId) -> Result<String, GameError> {
        self.request(game_id, |reply| Command::Record { reply })
            .await
    }

    pub async fn events(
        &self,
        game_id: &GameId,
        token: Option<&SecretHash>,
        since: u64,
        limit: usize,
    ) -> Result<Vec<VersionedEvent>, GameError> {
        self.request(game_id, |reply| Command::Events {
            token: token.cloned(),
            since,
            limit,
            reply,
        })
        .await
    }

    /// Subscribes to a game's events: the subscription, and the actor's handle to unsubscribe.
    pub async fn subscribe(
        &self,
        game_id: &GameId,
        token: Option<&SecretHash>,
        since: Option<u64>,
    ) -> Result<(Subscription, Mailbox), GameError> {
        let token = token.cloned();
        let handle = self.handle(game_id, 0).await?;
        let (reply, answer) = oneshot::channel();
        handle
            .send(Command::Subscribe {
                token,
                since,
                reply,
            })
            .await?;
        let subscription = answer.await.map_err(|_| GameError::Stopped)??;
        Ok((subscription, handle))
    }

    /// Sends a command built by `command` to the game's actor and awaits its answer; if the
    /// actor had just stopped, rebuilds it once and tries again.
    async fn request<T>(
        &self,
        game_id: &GameId,
        command: impl Fn(oneshot::Sender<Result<T, GameError>>) -> Command,
    ) -> Result<T, GameError> {
        for _ in 0..2 {
            let handle = self.handle(game_id, 0).await?;
            let (reply, answer) = oneshot::channel();
            if handle.send(command(reply)).await.is_err() {
                continue;
            }
            if let Ok(result) = answer.await {
                return result;
            }
        }
        Err(GameError::Stopped)
    }

    /// The game's running actor, started from the store if it has none.
    async fn handle(&self, game_id: &GameId, flag_not_before: i64) -> Result<Mailbox, GameError> {
        loop {
            if self.closing.load(Ordering::Acquire) {
                return Err(GameError::Stopped);
            }
            let slot = {
                let mut games = self.games.lock().expect("registry lock");
                // Looked up before it is inserted: the key's copy is made only for a new slot.
                match games.get(game_id) {
                    Some(slot) => slot.clone(),
                    None => games.entry(game_id.clone()).or_default().clone(),
                }
            };
            let loaded = slot
                .actor
                .get_or_try_init(|| self.load(game_id, &slot, flag_not_before))
                .await;
            match loaded {
                Ok(handle) if !handle.is_closed() => return Ok(handle.clone()),
                // The actor stopped after it was found: its slot goes, and the next one loads.
                Ok(_) => forget(&self.games, game_id, &slot),
                Err(error) => {
                    forget(&self.games, game_id, &slot);
                    return Err(error);
                }
            }
        }
    }

    async fn load(
        &self,
        game_id: &GameId,
        slot: &Slot,
        flag_not_before: i64,
    ) -> Result<Mailbox, GameError> {
        let restored = restore(&self.services, game_id).await?;
        Ok(self.spawn(restored, slot, Arrival::Loaded { flag_not_before }))
    }

    /// Starts the actor of a game just created, in a slot of its own (a new id has none yet).
    fn start(&self, created: Restored) {
        let id = created.game.id.clone();
        let slot = Slot::default();
        let actor = self.spawn(created, &slot, Arrival::Created);
        slot.actor.set(actor).expect("a new slot holds no actor");
        self.games.lock().expect("registry lock").insert(id, slot);
    }

    /// Starts the actor of `restored` for `slot`; when it stops, the slot goes.
    fn spawn(&self, restored: Restored, slot: &Slot, arrival: Arrival) -> Mailbox {
        let slot_version = slot.version.clone();
        let (games, id, slot) = (
            Arc::downgrade(&self.games),
            restored.game.id.clone(),
            Arc::downgrade(slot),
        );
        let on_stop = Box::new(move || {
            if let (Some(games), Some(slot)) = (games.upgrade(), slot.upgrade()) {
                forget(&games, &id, &slot);
            }
        });
        GameActor::spawn(
            restored,
            self.services.clone(),
            arrival,
            slot_version,
            on_stop,
        )
    }

    /// Tells a loaded game's actor `command` (without waiting for room in its queue); whether
    /// the game was loaded.
    pub fn tell(&self, game_id: &GameId, command: Command) -> bool {
        let handle = self
            .games
            .lock()
            .expect("registry lock")
            .get(game_id)
            .and_then(|slot| slot.actor.get().cloned());
        let Some(handle) = handle else {
            return false;
        };
        handle.tell(command);
        true
    }

    /// Tells every loaded game's actor the command `command` builds.
    pub fn tell_all(&self, command: impl Fn() -> Command) {
        let ids: Vec<GameId> = self
            .games
            .lock()
            .expect("registry lock")
            .keys()
            .cloned()
            .collect();
        for id in ids {
            self.tell(&id, command());
        }
    }

    /// Another instance appended to a game's log up to `seq`: its actor here catches up; a game
    /// this instance owns but had let go from memory is loaded, so its timers run.
    pub async fn appended(&self, game_id: &str, seq: i64) {
        // Every commit of this instance comes back too: most notifications are of versions the
        // actor already has, and cost a look here rather than a wake-up of the actor.
        let known = self
            .games
            .lock()
            .expect("registry lock")
            .get(game_id)
            .map(|slot| slot.version.load(Ordering::Acquire));
        if known.is_some_and(|version| seq <= version as i64) {
            return;
        }
        let Ok(game_id) = game_id.parse::<GameId>() else {
            return;
        };
        if !self.tell(&game_id, Command::CatchUp { seq: Some(seq) })
            && self.services.leads(&game_id)
            && let Err(error) = self.handle(&game_id, 0).await
        {
            tracing::warn!(game = %game_id, error = %error_chain(&error), "could not load an owned game");
        }
    }

    /// This instance lost these games to another (its heartbeat lapsed): their timers stop here.
    pub fn lost(&self, ids: &[GameId]) {
        for id in ids {
            self.tell(id, Command::Lead(false));
        }
    }

    /// Whether this instance is the last one alive (always, on SQLite). In a rolling restart the
    /// others take its games over at once, and their clocks run on; when in doubt (the database
    /// does not answer in time), the clocks are paused, and the next instance to load a game resumes it.
    async fn nobody_else_serves(&self) -> bool {
        let Some(instance) = &self.services.instance else {
            return true;
        };
        // Bounded, as every step of a shutdown.
        match tokio::time::timeout(Duration::from_secs(2), self.store().alive_instances()).await {
            Ok(Ok(alive)) => alive.iter().all(|id| id == instance.id()),
            Ok(Err(_)) | Err(_) => true,
        }
    }

    /// At start-up, whether another instance serves games. One that looks alive may be this
    /// server's predecessor, killed within its heartbeat's lapse (a crash restarted at once, as
    /// compose's `restart: unless-stopped` does, whose downtime was charged to the clocks): an
    /// instance is taken for alive only once its heartbeat moves on while this one watches, for
    /// two and a half heartbeats at most. When the database does not answer, none is.
    async fn another_instance_serves_at_start(&self) -> bool {
        const WATCH_FOR: Duration = Duration::from_millis(2_500);
        const LOOK_EVERY: Duration = Duration::from_millis(250);
        let Some(instance) = &self.services.instance else {
            return false;
        };
        let others = || async {
            let rows = self.store().alive_instances_until().await.ok()?;
            Some(
                rows.into_iter()
                    .filter(|(id, _)| id != instance.id())
                    .collect::<HashMap<_, _>>(),
            )
        };
        let Some(first) = others().await.filter(|others| !others.is_empty()) else {
            return false;
        };
        let watched_since = tokio::time::Instant::now();
        while watched_since.elapsed() < WATCH_FOR {
            tokio::time::sleep(LOOK_EVERY).await;
            let Some(now) = others().await else {
                return false;
            };
            let renewed = now
                .iter()
                .any(|(id, until)| first.get(id).is_none_or(|before| until > before));
            if renewed {
                return true;
            }
            if now.is_empty() {
                return false;
            }
        }
        false
    }

    pub fn services(&self) -> &Services {
        &self.services
    }

    /// Stops every actor after the commands already queued, and waits for them (bounded). When
    /// no other instance is alive to serve them, the games' clocks are paused as they stop.
    pub async fn shutdown(&self) {
        self.closing.store(true, Ordering::Release);
        let pause_clocks = self.nobody_else_serves().await;
        let slots: Vec<Slot> = self
            .games
            .lock()
            .expect("registry lock")
            .drain()
            .map(|(_, slot)| slot)
            .collect();
        let handles: Vec<_> = slots
            .iter()
            .filter_map(|s| s.actor.get().cloned())
            .collect();
        // Bounded as a whole: an actor that is stuck, its queue full, must not hold the process.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        for handle in &handles {
            let _ = tokio::time::timeout_at(deadline, handle.send(Command::Stop { pause_clocks }))
                .await;
        }
        let mut stopped = 0;
        for handle in &handles {
            if tokio::time::timeout_at(deadline, handle.closed())
                .await
                .is_ok()
            {
                stopped += 1;
            }
        }
        if stopped < handles.len() {
            tracing::warn!(
                stopped,
                actors = handles.len(),
                "shutting down: not every game's actor stopped within 5 s"
            );
        }
    }
}

/// Drops a game's slot, unless a newer one already replaced it.
fn forget(games: &Mutex<HashMap<GameId, Slot>>, game_id: &GameId, slot: &Slot) {
    let mut games = games.lock().expect("registry lock");
    if games.get(game_id).is_some_and(|s| Arc::ptr_eq(s, slot)) {
        games.remove(game_id);
    }
}
