//! What every game's actor shares, and what it asks of the world: the store and its group-commit
//! appender, the server's clock, the settings of live play, the metrics, and the computer's
//! thinking time. It knows neither the actors nor the registry that finds them.

use super::error::GameError;
use super::event::{VersionedEvent, event_rows};
use super::instance::Instance;
use super::live::{Creation, LiveGame};
use super::{GameId, Mode, PlayerIndex, Settings, Status, token};
use crate::metrics::Metrics;
use ludus_ai::Level;
use ludus_engine::dice::ServerSeed;
use ludus_engine::{AnyGame, AnyMove, Variant};
use ludus_store::{
    Appender, Backend, EventReader, Holders, NewGame, PresenceSender, SecretHash, Store,
};
use std::sync::Arc;
use std::time::Duration;

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
    /// How long an online game waits for its invite to be used before it is aborted.
    pub invite_expiry: Duration,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            computer_delay: Duration::from_millis(400),
            claim_after_timed: Duration::from_secs(60),
            claim_after_untimed: Duration::from_secs(600),
            restart_grace: Duration::from_secs(15),
            invite_expiry: Duration::from_secs(24 * 3600),
        }
    }
}

impl GameConfig {
    /// How long a player may be away before the opponent may claim: with a clock or without.
    pub fn claim_window(&self, timed: bool) -> Duration {
        if timed {
            self.claim_after_timed
        } else {
            self.claim_after_untimed
        }
    }
}

/// A validated request to create a game.
#[derive(Clone, Debug)]
pub struct NewGameRequest {
    pub variant: Variant,
    pub mode: Mode,
    pub settings: Settings,
    pub seeding: Seeding,
    /// Whether the game is listed for anyone to watch while it is live.
    pub listed: bool,
    /// The accounts holding its seats from the start, and whether it is rated.
    pub holders: Holders,
}

/// What a new game's dice come from (docs/RULES.md §4).
#[derive(Clone, Debug, Default)]
pub struct Seeding {
    /// A seed drawn and committed to before the game is made (a challenge's, a rematch offer's);
    /// drawn at creation if none.
    pub server_seed: Option<ServerSeed>,
    pub creator_entropy: String,
    /// Empty, but for a game both of whose seats are filled at creation after its commitment was
    /// published (a rematch's accepter's entropy); an invite's joiner gives it at the join.
    pub joiner_entropy: String,
}

/// A game just stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: GameId,
    /// Dice games: the SHA-256 of the server seed, published before any die is thrown.
    pub commitment: Option<String>,
    /// The game as stored, and its log: what its actor starts from, without reading it back.
    pub game: LiveGame,
    pub log: Vec<VersionedEvent>,
}

/// What every actor shares.
#[derive(Debug)]
pub struct Services {
    pub store: Store,
    /// Where actors append their events: a group commit over the store.
    pub appender: Appender,
    /// Where actors read the log after a version (a catch-up, a load): a group read.
    pub reader: EventReader,
    pub clock: super::clock::ServerClock,
    pub config: GameConfig,
    pub metrics: Arc<Metrics>,
    /// On Postgres, this instance among others (the games it owns); none on SQLite, whose one
    /// instance owns every game.
    pub instance: Option<Arc<Instance>>,
    /// Set at start-up when the server before this one crashed: the games it served with their
    /// clocks running are paused from when it was last known alive (`LiveGame::pause_after`).
    pub outage: std::sync::OnceLock<Outage>,
    search_permits: SearchPermits,
}

/// The time no server served the games, as a start-up after a crash knows it: from the last note
/// that a server was alive (`Store::mark_alive`, every few seconds while games are loaded) until
/// this server started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    pub last_alive: i64,
    pub restarted_at: i64,
}

/// The permits a search holds while it runs on the blocking pool: the computer seats' own (one
/// per core) and, apart, the helpers' (half the cores, at least one). A hint or suggestion never
/// waits in, nor takes from, the seats' queue, so however many are asked for, a computer's move
/// waits only for other computer moves.
#[derive(Debug)]
struct SearchPermits {
    seats: Arc<tokio::sync::Semaphore>,
    helpers: Arc<tokio::sync::Semaphore>,
}

impl SearchPermits {
    fn new(cores: usize) -> SearchPermits {
        SearchPermits {
            seats: Arc::new(tokio::sync::Semaphore::new(cores)),
            helpers: Arc::new(tokio::sync::Semaphore::new((cores / 2).max(1))),
        }
    }

    /// Waits for a permit of `searcher`'s own queue (`None` once the queue is closed).
    async fn acquire(&self, searcher: Searcher) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let queue = match searcher {
            Searcher::Seat => &self.seats,
            Searcher::Helper => &self.helpers,
        };
        queue.clone().acquire_owned().await.ok()
    }
}

/// Who a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searcher {
    /// A computer seat playing its move.
    Seat,
    /// A hint or suggestion for a person.
    Helper,
}

impl Services {
    /// Call it inside the tokio runtime (the appender starts tasks).
    pub fn new(store: Store, config: GameConfig, metrics: Arc<Metrics>) -> Services {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let instance = (store.backend() == Backend::Postgres)
            .then(|| Arc::new(Instance::new(PresenceSender::start(store.clone()))));
        Services {
            appender: Appender::start(store.clone()),
            reader: EventReader::start(store.clone()),
            instance,
            store,
            clock: super::clock::ServerClock::new(),
            config,
            metrics,
            outage: std::sync::OnceLock::new(),
            search_permits: SearchPermits::new(cores),
        }
    }

    /// Whether this instance runs `game`'s timers (its flags, the computer's moves).
    pub fn leads(&self, game: &GameId) -> bool {
        self.instance.as_ref().is_none_or(|i| i.owns(game))
    }

    /// The computer's move at `level` in `engine`, searched on the blocking pool once a permit of
    /// `searcher`'s queue is free, within `budget`. Computer seats and hints both ask here.
    pub async fn think(
        &self,
        searcher: Searcher,
        engine: AnyGame,
        level: Level,
        seed: u64,
        budget: Duration,
    ) -> Option<AnyMove> {
        let permit = self.search_permits.acquire(searcher).await?;
        let deadline = std::time::Instant::now() + budget;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            ludus_ai::choose_move(&engine, level, seed, deadline)
        })
        .await
        .ok()
        .flatten()
    }

    /// Stores a new game and its first events (the clock start and rolls of games that start now).
    pub async fn create_game(
        &self,
        request: NewGameRequest,
        seats: [Option<SecretHash>; 2],
        invite: Option<SecretHash>,
    ) -> Result<StoredGame, GameError> {
        let now = self.clock.now_ms();
        let server_seed = request
            .seeding
            .server_seed
            .unwrap_or_else(|| ServerSeed(rand::random()));
        let id = token::new_game_id();
        let mut game = LiveGame::new(Creation {
            id: id.clone(),
            variant: request.variant,
            mode: request.mode,
            settings: request.settings.clone(),
            server_seed,
            creator_entropy: request.seeding.creator_entropy.clone(),
            joiner_entropy: request.seeding.joiner_entropy.clone(),
            created_at: now,
            // As `restore` judges it: a computer game starts at once though only one seat has a token.
            seated: request.mode != Mode::Online || seats.iter().all(Option::is_some),
        });
        let start = if game.status == Status::Playing {
            game.clock_start().into_iter().collect()
        } else {
            Vec::new()
        };
        let batch = game
            .advance(start, now)
            .map_err(|source| GameError::Replay {
                game: id.clone(),
                source,
            })?;
        let rows = event_rows(&batch, 0, now, None);
        let log = batch
            .into_iter()
            .enumerate()
            .map(|(i, event)| VersionedEvent {
                version: i as u64 + 1,
                at: now,
                event,
            })
            .collect();
        let row = NewGame {
            id: id.clone(),
            variant: request.variant,
            mode: request.mode,
            status: game.status,
            settings: serde_json::to_string(&request.settings).expect("settings serialise"),
            seats,
            invite,
            server_seed,
            dice: request.variant.dice_per_roll() > 0,
            creator_entropy: request.seeding.creator_entropy,
            joiner_entropy: request.seeding.joiner_entropy,
            created_at: now,
            listed: request.listed,
            owner: self.instance.as_ref().map(|i| i.id().to_string()),
            holders: request.holders,
        };
        self.store.create_game(&row, &rows).await?;
        if let Some(instance) = &self.instance {
            instance.gain(&id);
        }
        Ok(StoredGame {
            id,
            commitment: row
                .dice
                .then(|| ludus_engine::dice::to_hex(&server_seed.commitment())),
            game,
            log,
        })
    }

    /// A new game like `game` with the sides swapped, played by the same seat tokens and held by
    /// the same accounts (rated as `game` was).
    pub async fn create_rematch(
        &self,
        game: &LiveGame,
        seats: &[Option<SecretHash>; 2],
        seeding: Seeding,
    ) -> Result<GameId, GameError> {
        let settings = Settings {
            creator: PlayerIndex(game.creator().other()),
            ..game.settings.clone()
        };
        let swapped = [seats[1].clone(), seats[0].clone()];
        let request = NewGameRequest {
            variant: game.variant,
            mode: game.mode,
            settings,
            seeding,
            // The players choose again whether a new game is watched.
            listed: false,
            holders: Holders::RematchOf(game.id.clone()),
        };
        Ok(self.create_game(request, swapped, None).await?.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    /// Hints running and hints queued behind them, on a machine of one core and of two: each
    /// computer seat still gets its permit at once (the acquisition is ready when first polled).
    #[tokio::test]
    async fn hints_never_make_a_computer_move_wait_for_a_search_permit() {
        for cores in [1, 2] {
            let permits = Arc::new(SearchPermits::new(cores));
            let (release, released) = tokio::sync::watch::channel(false);
            let mut hints = Vec::new();
            for _ in 0..8 {
                let (permits, mut released) = (permits.clone(), released.clone());
                hints.push(tokio::spawn(async move {
                    let _permit = permits.acquire(Searcher::Helper).await;
                    let _ = released.wait_for(|done| *done).await;
                }));
            }
            // The hints run until each holds a permit or waits in its queue.
            while permits.helpers.available_permits() > 0 {
                tokio::task::yield_now().await;
            }
            for _ in 0..8 {
                tokio::task::yield_now().await;
            }
            let seats: Vec<_> = (0..cores)
                .map(|_| permits.acquire(Searcher::Seat).now_or_never().flatten())
                .collect();
            assert!(
                seats.iter().all(Option::is_some),
                "{cores} core(s): a computer seat waited behind hints"
            );
            release.send(true).expect("the hints listen");
            for hint in hints {
                hint.await.expect("a hint ends");
            }
        }
    }
}
