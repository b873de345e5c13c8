//! The registry of live games: finds a game's actor or rebuilds it from the store, creates games,
//! and stops every actor at shutdown. The map is locked only to find or add a handle.

use super::actor::{Acted, Action, Command, GameActor, Restored, Subscription};
use super::event::{GameEvent, VersionedEvent, event_rows};
use super::live::{Creation, LiveGame};
use super::{Mode, PlayerIndex, Settings, Status, token};
use crate::error::ApiError;
use crate::metrics::Metrics;
use ludus_ai::Level;
use ludus_engine::dice::{ServerSeed, from_hex, to_hex};
use ludus_engine::{AnyGame, AnyMove, Player, Variant};
use ludus_store::{Appender, EventRow, GameRow, NewGame, Store};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Settings of live play that a deployment may change.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// How long the computer waits before it moves (so a person sees the reply arrive).
    pub computer_delay: Duration,
    /// How long an opponent must be gone before a win can be claimed, with and without a clock.
    pub claim_after_timed: Duration,
    pub claim_after_untimed: Duration,
    /// After a restart, no flag falls before this much time has passed.
    pub restart_grace: Duration,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            computer_delay: Duration::from_millis(400),
            claim_after_timed: Duration::from_secs(60),
            claim_after_untimed: Duration::from_secs(600),
            restart_grace: Duration::from_secs(15),
        }
    }
}

/// What every actor shares.
#[derive(Debug)]
pub struct Shared {
    pub store: Store,
    /// Where actors append their events: a group commit over the store.
    pub appender: Appender,
    pub clock: super::clock::ServerClock,
    pub config: GameConfig,
    pub metrics: Arc<Metrics>,
    /// One permit per core: the computer players' searches queue for them.
    pub thinkers: Arc<tokio::sync::Semaphore>,
    games: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    /// Serialises rebuilding, so two requests never start two actors for one game.
    loading: tokio::sync::Mutex<()>,
}

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
    shared: Arc<Shared>,
}

/// A validated request to create a game.
#[derive(Clone, Debug)]
pub struct NewGameRequest {
    pub variant: Variant,
    pub mode: Mode,
    pub settings: Settings,
    pub entropy: String,
}

/// What the creator receives.
#[derive(Clone, Debug)]
pub struct CreatedGame {
    pub game_id: String,
    pub side: Player,
    pub token: String,
    pub invite: Option<String>,
    pub commitment: Option<String>,
}

impl Registry {
    /// A registry with no games yet; call it inside the tokio runtime (the appender starts tasks).
    pub fn new(store: Store, config: GameConfig, metrics: Arc<Metrics>) -> Registry {
        Registry {
            shared: Arc::new(Shared {
                appender: Appender::start(store.clone()),
                store,
                clock: super::clock::ServerClock::new(),
                config,
                metrics,
                thinkers: Arc::new(tokio::sync::Semaphore::new(
                    std::thread::available_parallelism().map_or(1, |n| n.get()),
                )),
                games: Mutex::new(HashMap::new()),
                loading: tokio::sync::Mutex::new(()),
            }),
        }
    }

    pub fn store(&self) -> &Store {
        &self.shared.store
    }

    pub fn now_ms(&self) -> i64 {
        self.shared.clock.now_ms()
    }

    pub fn live_games(&self) -> usize {
        self.shared.games.lock().expect("registry lock").len()
    }

    /// Rebuilds every game in progress (at start-up), so clocks go on and flags fall.
    pub async fn restore_in_progress(&self) -> Result<usize, ApiError> {
        let ids = self.shared.store.games_in_progress().await?;
        let grace =
            self.shared.clock.now_ms() + self.shared.config.restart_grace.as_millis() as i64;
        let mut restored = 0;
        for id in &ids {
            // One game that does not replay must not keep the others (or the server) down.
            match self.load(id, grace).await {
                Ok(_) => restored += 1,
                Err(error) => {
                    tracing::error!(game = %id, %error, "could not rebuild a game in progress")
                }
            }
        }
        Ok(restored)
    }

    pub async fn create(&self, request: NewGameRequest) -> Result<CreatedGame, ApiError> {
        let token = token::new_secret();
        let token_hash = token::hash_secret(&token);
        let invite = (request.mode == Mode::Online).then(token::new_secret);
        let creator = request.settings.creator.0;
        let mut seat_hashes = [None, None];
        seat_hashes[creator.index()] = Some(token_hash.clone());
        if request.mode == Mode::Local {
            seat_hashes[creator.other().index()] = Some(token_hash);
        }
        let id = self
            .shared
            .create_game(
                request,
                seat_hashes,
                invite.as_deref().map(token::hash_secret),
            )
            .await?;
        let commitment = {
            let handle = self.handle(&id).await?;
            let view = view_of(&handle, None).await?;
            view.get("commitment")
                .and_then(|c| c.as_str())
                .map(String::from)
        };
        Ok(CreatedGame {
            game_id: id,
            side: creator,
            token,
            invite,
            commitment,
        })
    }

    /// Redeems an invite: the joiner's token and side.
    pub async fn join(
        &self,
        invite: &str,
        entropy: String,
    ) -> Result<(String, Player, String), ApiError> {
        let invite_hash = token::hash_secret(invite);
        let game_id = self
            .shared
            .store
            .find_invite(&invite_hash)
            .await?
            .ok_or_else(|| ApiError::NotFound("invite".into()))?;
        let token = token::new_secret();
        let seat_hash = token::hash_secret(&token);
        let side = self
            .request(&game_id, |reply| Command::Join {
                invite_hash: invite_hash.clone(),
                seat_hash: seat_hash.clone(),
                entropy: entropy.clone(),
                reply,
            })
            .await??;
        Ok((game_id, side, token))
    }

    pub async fn view(&self, game_id: &str, token: Option<&str>) -> Result<Value, ApiError> {
        let token_hash = token.map(token::hash_secret);
        self.request(game_id, |reply| Command::View {
            token_hash: token_hash.clone(),
            reply,
        })
        .await?
    }

    pub async fn act(
        &self,
        game_id: &str,
        token: Option<&str>,
        action: Action,
    ) -> Result<Acted, ApiError> {
        let token_hash = token
            .map(token::hash_secret)
            .ok_or(ApiError::Unauthorized)?;
        self.request(game_id, |reply| Command::Act {
            token_hash: Some(token_hash.clone()),
            action: action.clone(),
            reply,
        })
        .await?
    }

    /// A suggested move for the seat to move in a computer or local game: the strongest level's
    /// (the lower levels of the dice games play some moves at random on purpose).
    pub async fn hint(&self, game_id: &str, token: Option<&str>) -> Result<Hint, ApiError> {
        // Without a token the actor sees a spectator, and refuses it as it refuses any.
        let token_hash = token.map(token::hash_secret);
        let hinted = self
            .request(game_id, |reply| Command::Hint {
                token_hash: token_hash.clone(),
                reply,
            })
            .await??;
        let level = Level::MAX;
        let mv = self
            .shared
            .think(hinted.engine, level, hinted.seed, level.time_budget())
            .await
            .ok_or(ApiError::Unavailable)?;
        Ok(Hint {
            notation: mv.to_string(),
            version: hinted.version,
            level: level.number(),
        })
    }

    /// The computer's move at `level` in a position given alone (the analysis board).
    pub async fn suggest(&self, engine: AnyGame, level: Level) -> Option<AnyMove> {
        // A fixed seed: the same position and level suggest the same move.
        self.shared
            .think(engine, level, 0, level.time_budget())
            .await
    }

    /// The game's text record (docs/RULES.md §4).
    pub async fn record(&self, game_id: &str) -> Result<String, ApiError> {
        self.request(game_id, |reply| Command::Record { reply })
            .await
    }

    pub async fn events(&self, game_id: &str, since: u64) -> Result<Vec<VersionedEvent>, ApiError> {
        self.request(game_id, |reply| Command::Events { since, reply })
            .await
    }

    pub async fn subscribe(
        &self,
        game_id: &str,
        token: Option<&str>,
        since: Option<u64>,
    ) -> Result<(Subscription, mpsc::Sender<Command>), ApiError> {
        let token_hash = token.map(token::hash_secret);
        let handle = self.handle(game_id).await?;
        let (reply, answer) = oneshot::channel();
        handle
            .send(Command::Subscribe {
                token_hash,
                since,
                reply,
            })
            .await
            .map_err(|_| ApiError::Unavailable)?;
        let subscription = answer.await.map_err(|_| ApiError::Unavailable)??;
        Ok((subscription, handle))
    }

    /// Sends a command built by `command` to the game's actor and awaits its answer; if the
    /// actor had just stopped, rebuilds it once and tries again.
    async fn request<T>(
        &self,
        game_id: &str,
        command: impl Fn(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        for _ in 0..2 {
            let handle = self.handle(game_id).await?;
            let (reply, answer) = oneshot::channel();
            if handle.send(command(reply)).await.is_err() {
                self.shared.forget(game_id, &handle.downgrade());
                continue;
            }
            if let Ok(value) = answer.await {
                return Ok(value);
            }
        }
        Err(ApiError::Unavailable)
    }

    /// The running actor of a game, if any.
    fn running(&self, game_id: &str) -> Option<mpsc::Sender<Command>> {
        self.shared
            .games
            .lock()
            .expect("registry lock")
            .get(game_id)
            .cloned()
    }

    async fn handle(&self, game_id: &str) -> Result<mpsc::Sender<Command>, ApiError> {
        match self.running(game_id) {
            Some(handle) => Ok(handle),
            None => self.load(game_id, 0).await,
        }
    }

    async fn load(
        &self,
        game_id: &str,
        flag_not_before: i64,
    ) -> Result<mpsc::Sender<Command>, ApiError> {
        if game_id.len() > 64 {
            return Err(ApiError::NotFound("game".into()));
        }
        let _loading = self.shared.loading.lock().await;
        if let Some(handle) = self.running(game_id) {
            return Ok(handle);
        }
        let restored = self
            .shared
            .restore(game_id)
            .await?
            .ok_or_else(|| ApiError::NotFound("game".into()))?;
        let handle = GameActor::spawn(restored, self.shared.clone(), flag_not_before);
        self.shared
            .games
            .lock()
            .expect("registry lock")
            .insert(game_id.to_string(), handle.clone());
        Ok(handle)
    }

    /// Stops every actor after the commands already queued, and waits for them (bounded).
    pub async fn shutdown(&self) {
        let handles: Vec<_> = self
            .shared
            .games
            .lock()
            .expect("registry lock")
            .drain()
            .map(|(_, h)| h)
            .collect();
        for handle in &handles {
            let _ = handle.send(Command::Stop).await;
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        for handle in handles {
            let _ = tokio::time::timeout_at(deadline, handle.closed()).await;
        }
    }
}

async fn view_of(
    handle: &mpsc::Sender<Command>,
    token_hash: Option<String>,
) -> Result<Value, ApiError> {
    let (reply, answer) = oneshot::channel();
    handle
        .send(Command::View { token_hash, reply })
        .await
        .map_err(|_| ApiError::Unavailable)?;
    answer.await.map_err(|_| ApiError::Unavailable)?
}

impl Shared {
    /// The computer's move at `level` in `engine`, searched on the blocking pool once one of the
    /// permits (one per core) is free, within `budget`. Computer seats and hints both ask here.
    pub async fn think(
        &self,
        engine: AnyGame,
        level: Level,
        seed: u64,
        budget: std::time::Duration,
    ) -> Option<AnyMove> {
        let permit = self.thinkers.clone().acquire_owned().await.ok()?;
        let deadline = std::time::Instant::now() + budget;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            ludus_ai::choose_move(&engine, level, seed, deadline)
        })
        .await
        .ok()
        .flatten()
    }

    /// Drops the registry's handle of a stopped actor (unless a new actor already replaced it).
    pub fn forget(&self, game_id: &str, handle: &mpsc::WeakSender<Command>) {
        let mut games = self.games.lock().expect("registry lock");
        if games
            .get(game_id)
            .is_some_and(|h| handle.upgrade().is_none_or(|mine| mine.same_channel(h)))
        {
            games.remove(game_id);
        }
    }

    /// Stores a new game and its first events (the clock start and rolls of games that start now).
    async fn create_game(
        &self,
        request: NewGameRequest,
        seat_hashes: [Option<String>; 2],
        invite_hash: Option<String>,
    ) -> Result<String, ApiError> {
        let now = self.clock.now_ms();
        let server_seed = ServerSeed(rand::random());
        let id = token::new_game_id();
        let mut game = LiveGame::new(Creation {
            id: id.clone(),
            variant: request.variant,
            mode: request.mode,
            settings: request.settings.clone(),
            server_seed,
            creator_entropy: request.entropy.clone(),
            created_at: now,
            // As `restore_from` judges it: a computer game starts at once though only one seat has a token.
            seated: request.mode != Mode::Online || seat_hashes.iter().all(Option::is_some),
        });
        let start = if game.status == Status::Playing {
            game.clock_start().into_iter().collect()
        } else {
            Vec::new()
        };
        let batch = game
            .advance(start, now)
            .map_err(|_| ApiError::Unavailable)?;
        let rows = event_rows(&batch, 0, now, None);
        let dice = request.variant.dice_per_roll() > 0;
        let row = NewGame {
            id: id.clone(),
            variant: request.variant.id().into(),
            mode: request.mode.name().into(),
            status: game.status.name().into(),
            settings: serde_json::to_string(&request.settings).expect("settings serialise"),
            seat_hashes,
            invite_hash,
            server_seed: Some(to_hex(&server_seed.0)),
            commitment: dice.then(|| to_hex(&server_seed.commitment())),
            creator_entropy: request.entropy,
            created_at: now,
        };
        self.store.create_game(&row, &rows).await?;
        Ok(id)
    }

    /// A new game like `game` with the sides swapped, played by the same seat tokens.
    pub async fn create_rematch(
        &self,
        game: &LiveGame,
        seat_hashes: &[Option<String>; 2],
    ) -> Result<String, ApiError> {
        let settings = Settings {
            creator: PlayerIndex(game.creator().other()),
            ..game.settings.clone()
        };
        let swapped = [seat_hashes[1].clone(), seat_hashes[0].clone()];
        let request = NewGameRequest {
            variant: game.variant,
            mode: game.mode,
            settings,
            entropy: String::new(),
        };
        self.create_game(request, swapped, None).await
    }

    /// Rebuilds a game from its stored row and events.
    pub async fn restore(&self, game_id: &str) -> Result<Option<Restored>, ApiError> {
        let Some(row) = self.store.load_game(game_id).await? else {
            return Ok(None);
        };
        let events = self.store.events_since(game_id, 0).await?;
        restore_from(&row, &events).map(Some).map_err(|error| {
            tracing::error!(game = game_id, %error, "a stored game does not replay");
            ApiError::Unavailable
        })
    }
}

fn restore_from(row: &GameRow, events: &[EventRow]) -> Result<Restored, String> {
    let variant: Variant = row.variant.parse().map_err(|e| format!("{e}"))?;
    let mode: Mode =
        serde_json::from_value(Value::String(row.mode.clone())).map_err(|e| e.to_string())?;
    let settings: Settings = serde_json::from_str(&row.settings).map_err(|e| e.to_string())?;
    let server_seed = row
        .server_seed
        .as_deref()
        .and_then(from_hex)
        .map(ServerSeed)
        .ok_or("no server seed")?;
    let mut game = LiveGame::new(Creation {
        id: row.id.clone(),
        variant,
        mode,
        settings,
        server_seed,
        creator_entropy: row.creator_entropy.clone(),
        created_at: row.created_at,
        // Both seats filled without an invite: a game on one screen, against the computer, or a rematch.
        seated: mode != Mode::Online
            || (row.seat0_hash.is_some() && row.seat1_hash.is_some() && !row.invite_redeemed),
    });
    if mode == Mode::Online {
        game.joiner_entropy = row.joiner_entropy.clone();
    }
    let mut log = Vec::with_capacity(events.len());
    let mut move_answers = HashMap::new();
    for row_event in events {
        let event: GameEvent = serde_json::from_str(&row_event.body).map_err(|e| e.to_string())?;
        game.apply(&event, row_event.at)?;
        if let Some(id) = &row_event.move_id {
            move_answers.insert(id.clone(), row_event.seq as u64);
        }
        log.push(VersionedEvent {
            version: row_event.seq as u64,
            at: row_event.at,
            event,
        });
    }
    Ok(Restored {
        game,
        seat_hashes: [row.seat0_hash.clone(), row.seat1_hash.clone()],
        log,
        move_answers,
    })
}
