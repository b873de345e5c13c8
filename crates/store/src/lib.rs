//! Persistence for Ludus: one enum over SQLite and Postgres with runtime queries, and methods that
//! are domain operations (create a game, redeem an invite, append events, list results).
//!
//! The append-only `game_events` table, keyed by `(game_id, seq)`, is the one arbiter of a game's
//! history: two writers can never both append the same version, and a caller acknowledges a move
//! only after `append_events` returns. Status changes ride in the same transaction as their event.
//! The queries are written once: `$n` placeholders and the column types used here mean the same on
//! both backends, and `on_backend!` expands each body once per pool type.

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;

mod appender;
mod cluster;
mod held;
mod model;
mod presence;
mod reader;
pub use appender::Appender;
pub use cluster::{ALIVE_FOR_MS, Appended, Listener, Notification};
pub use model::{GameId, Malformed, Mode, PageAfter, SecretHash, Status, UnknownName, parse_name};
pub use presence::PresenceSender;
pub use reader::EventReader;
#[cfg(feature = "testing")]
pub mod testing;

use ludus_engine::dice::{ServerSeed, from_hex, to_hex};
use ludus_engine::{Player, Side, Termination, Variant};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/postgres");

/// The most connections a Postgres pool opens unless told otherwise: commits wait on the disk,
/// and more connections let Postgres group them.
pub const POSTGRES_CONNECTIONS: u32 = 64;

/// The Postgres connections an instance holds for as long as it runs: the group commit's
/// writers, the presence sender, the event reader and the listener (`held`, `cluster`).
pub const HELD_POSTGRES_CONNECTIONS: u32 = appender::POSTGRES_WRITERS + 3;

/// The fewest connections a Postgres pool may have: the held ones, and three for everything
/// else (a pool no larger than the held ones answers nothing, and one or two more stall under
/// light load).
pub const MIN_POSTGRES_CONNECTIONS: u32 = HELD_POSTGRES_CONNECTIONS + 3;

/// The longest a statement waits for a Postgres connection from the pool, connecting included:
/// while the database cannot be reached, how long a request takes to be answered 503.
pub const POSTGRES_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest a Postgres statement may run (`statement_timeout`).
const STATEMENT_TIMEOUT: &str = "5s";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Not a `source`: the message is the database's, and sqlx's own text would follow it in a
    /// chain of causes (`database_message`).
    #[error("database: {}", database_message(.0))]
    Database(sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Holds the URL's scheme only (empty without one): the rest may hold a password.
    #[error("unsupported database URL (scheme {0:?}): use sqlite://… or postgres://…")]
    UnsupportedUrl(String),
    /// The [`Appender`]'s writers have stopped (the runtime is shutting down).
    #[error("the store's writer has stopped")]
    Closed,
    /// Another writer appended this version first (or the move id was used before).
    #[error("conflict: the event was already written")]
    Conflict,
    /// A stored row does not read back as the values it was written from.
    #[error(transparent)]
    Row(#[from] RowError),
    /// Asked of SQLite what only Postgres does: serve several instances.
    #[error("several instances share only a Postgres database")]
    SingleInstance,
    /// The failure of a batch of statements, met by each of them.
    #[error(transparent)]
    Shared(std::sync::Arc<StoreError>),
    /// The database did not answer within this time.
    #[error("the database did not answer within {0:?}")]
    TimedOut(std::time::Duration),
}

/// What the database said, in its words: sqlx's own text adds "error returned from database" and
/// Postgres's source line ("… does not exist at line 948"), which tell a self-hoster nothing.
fn database_message(error: &sqlx::Error) -> String {
    match error {
        sqlx::Error::Database(error) => error.message().to_string(),
        other => other.to_string(),
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        StoreError::Database(error)
    }
}

impl StoreError {
    /// Whether the database answered the statement with this error (a conflict, a constraint, a
    /// trigger): something about what was written, which another statement may not share. Any
    /// other failure (no connection within the pool's timeout, a connection broken, the writers
    /// stopped) is the database's as a whole, and every statement meets it alike.
    ///
    /// A connection's end told in the database's words is not the statement's: Postgres says
    /// "terminating connection due to administrator command" (SQLSTATE 57P01) to every connection
    /// of a database restarted or whose backends were ended, at their next statement (the first
    /// move after it was refused 503 where a new connection plays it), and class 08 is a failed
    /// connection.
    pub fn is_the_statements(&self) -> bool {
        match self {
            StoreError::Conflict => true,
            StoreError::Database(sqlx::Error::Database(error)) => !error
                .code()
                .is_some_and(|code| code.starts_with("57P") || code.starts_with("08")),
            StoreError::Shared(error) => error.is_the_statements(),
            _ => false,
        }
    }
}

/// A column of a stored game that holds no value of its type.
#[derive(Debug, thiserror::Error)]
#[error("game {game}, column {column}: {reason}")]
pub struct RowError {
    pub game: String,
    pub column: &'static str,
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub enum Store {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs the same body against whichever pool the store holds.
macro_rules! on_backend {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            Store::Sqlite($pool) => $body,
            Store::Postgres($pool) => $body,
        }
    };
}

/// A new game's row.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: GameId,
    pub variant: Variant,
    pub mode: Mode,
    pub status: Status,
    /// The server's settings of the game, as JSON (the store does not read them).
    pub settings: String,
    /// The seat tokens' hashes, by player index.
    pub seats: [Option<SecretHash>; 2],
    pub invite: Option<SecretHash>,
    pub server_seed: ServerSeed,
    /// Whether the game throws dice: only then is the commitment published.
    pub dice: bool,
    pub creator_entropy: String,
    /// Known at creation only when both seats are filled after a commitment was published (a
    /// rematch's accepter, docs/RULES.md §4); else empty until the join.
    pub joiner_entropy: String,
    pub created_at: i64,
    /// Whether anyone may find the game in the listing while it is live.
    pub listed: bool,
    /// The instance that runs the game's timers (Postgres, several instances); none on SQLite.
    pub owner: Option<String>,
    /// The accounts holding its seats from the start, and whether it is rated.
    pub holders: Holders,
}

/// Who holds a new game's seats, and whether it counts for ratings: written in the game's own
/// transaction, so that no crash leaves a game without the accounts that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holders {
    /// A new game: the signed-in creator's account and seat, if any, and whether it is rated
    /// (online games between two accounts are, unless created with `"rated": false`).
    New {
        creator: Option<AccountSeat>,
        rated: bool,
    },
    /// A rematch of a finished game: its holders, each on the other side (the rematch swaps the
    /// seats), rated as it was. Deleted accounts stay behind: their seat has no holder.
    RematchOf(GameId),
}

/// An account holding one seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSeat {
    pub account_id: String,
    pub player: Player,
}

/// A rematch's seed, drawn when the rematch was offered so that the offer could publish its
/// commitment before the other player's entropy (docs/RULES.md §4): secret until the rematch ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferedSeed {
    pub server_seed: ServerSeed,
    /// The offerer's entropy: the rematch's creator entropy.
    pub entropy: String,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub variant: Variant,
    pub mode: Mode,
    pub status: Status,
    /// The server's settings of the game, as JSON.
    pub settings: String,
    pub seats: [Option<SecretHash>; 2],
    pub invite_redeemed: bool,
    pub server_seed: ServerSeed,
    pub creator_entropy: String,
    pub joiner_entropy: String,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// Set when the game finished (not when it was aborted).
    pub result: Option<StoredResult>,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// None for a draw.
    pub winner: Option<Side>,
    pub termination: Termination,
}

/// The columns of `games` as the database returns them; read into a [`GameRow`].
#[derive(sqlx::FromRow)]
struct RawGame {
    id: String,
    variant: String,
    mode: String,
    status: String,
    settings: String,
    seat0_hash: Option<String>,
    seat1_hash: Option<String>,
    invite_redeemed: bool,
    server_seed: Option<String>,
    creator_entropy: String,
    joiner_entropy: String,
    created_at: i64,
    finished_at: Option<i64>,
    winner: Option<String>,
    termination: Option<String>,
}

impl TryFrom<RawGame> for GameRow {
    type Error = RowError;

    fn try_from(raw: RawGame) -> Result<GameRow, RowError> {
        let game = raw.id.clone();
        let fault = |column: &'static str| {
            let game = game.clone();
            move |reason: String| RowError {
                game,
                column,
                reason,
            }
        };
        let hash = |column: &'static str, text: Option<String>| {
            text.map(|t| {
                t.parse::<SecretHash>()
                    .map_err(|e| fault(column)(e.to_string()))
            })
            .transpose()
        };
        let result = match (raw.winner, raw.termination) {
            (winner, Some(termination)) => Some(StoredResult {
                winner: winner
                    .map(|w| parse_name::<Side>(&w).map_err(|e| fault("winner")(e.to_string())))
                    .transpose()?,
                termination: parse_name(&termination)
                    .map_err(|e| fault("termination")(e.to_string()))?,
            }),
            (_, None) => None,
        };
        Ok(GameRow {
            id: raw
                .id
                .parse()
                .map_err(|e: Malformed| fault("id")(e.to_string()))?,
            variant: raw
                .variant
                .parse()
                .map_err(|e: ludus_engine::UnknownVariant| fault("variant")(e.to_string()))?,
            mode: parse_name(&raw.mode).map_err(|e| fault("mode")(e.to_string()))?,
            status: parse_name(&raw.status).map_err(|e| fault("status")(e.to_string()))?,
            settings: raw.settings,
            seats: [
                hash("seat0_hash", raw.seat0_hash)?,
                hash("seat1_hash", raw.seat1_hash)?,
            ],
            invite_redeemed: raw.invite_redeemed,
            server_seed: raw
                .server_seed
                .as_deref()
                .and_then(from_hex)
                .map(ServerSeed)
                .ok_or_else(|| fault("server_seed")("not 32 bytes in hex".into()))?,
            creator_entropy: raw.creator_entropy,
            joiner_entropy: raw.joiner_entropy,
            created_at: raw.created_at,
            finished_at: raw.finished_at,
            result,
        })
    }
}

/// One event of a game's log.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EventRow {
    pub seq: i64,
    pub at: i64,
    /// The server's event, as JSON (the store does not read it).
    pub body: String,
    pub move_id: Option<String>,
}

/// A change of status written with the event that causes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusChange {
    pub status: Status,
    /// Only change a game whose status is this one (so two writers never both finish a game).
    pub from: Status,
    pub finished_at: Option<i64>,
    pub result: Option<StoredResult>,
    /// Whether a finished game between two accounts may change their ratings: false when it
    /// ended before each side had moved (a resignation at once would hand out rating points).
    pub rated: bool,
}

/// How redeeming an invite went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redeemed {
    /// The seat is now the joiner's.
    Joined {
        game_id: GameId,
    },
    /// Someone redeemed it first.
    AlreadyUsed,
    /// The joining account holds the game's other seat (no one plays themselves): nothing is
    /// redeemed.
    OwnGame,
    NotFound,
}

/// `SELECT <every GameRow column> FROM games <rest>`, as one literal (sqlx refuses built strings).
macro_rules! select_games {
    ($rest:literal) => {
        concat!(
            "SELECT id, variant, mode, status, settings, seat0_hash, seat1_hash, invite_redeemed, server_seed, ",
            "creator_entropy, joiner_entropy, created_at, finished_at, winner, termination FROM games ",
            $rest
        )
    };
}

/// Appends one event row inside a transaction; a taken version or move id is a `Conflict`.
macro_rules! insert_event {
    ($tx:expr, $game_id:expr, $event:expr) => {{
        let event: &EventRow = $event;
        let result = sqlx::query(
            "INSERT INTO game_events (game_id, seq, at, body, move_id) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind($game_id)
        .bind(event.seq)
        .bind(event.at)
        .bind(&event.body)
        .bind(&event.move_id)
        .execute(&mut *$tx)
        .await;
        match result {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(StoreError::Conflict);
            }
            Err(e) => return Err(e.into()),
        }
    }};
}

/// On Postgres, tells every instance (inside the transaction `$tx`, so at its commit) that the
/// log of `$game_id` grew to `$seq`.
macro_rules! notify_appended {
    ($store:expr, $tx:expr, $game_id:expr, $seq:expr) => {
        if $store.backend() == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(cluster::GAMES_CHANNEL)
                .bind(format!("{} {}", $game_id, $seq))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// A write refused by a unique key (a version, a move id, a name already written) is a `Conflict`.
fn conflict_if_taken(result: Result<(), sqlx::Error>) -> Result<(), StoreError> {
    match result {
        Ok(()) => Ok(()),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(StoreError::Conflict),
        Err(e) => Err(e.into()),
    }
}

#[macro_use]
mod accounts;
pub use accounts::{
    AccountRow, ChallengeAnswer, ChallengeRow, Leader, LiveSeat, PlayedGame, RatingPoint,
    RatingRow, SeatHolder, SeatOwner, TokenRow, TokenSeat, VariantRating,
};

impl Store {
    /// Opens `sqlite://path` (created if missing) or `postgres://…`, and runs that backend's migrations.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with_pool(url, POSTGRES_CONNECTIONS).await
    }

    /// Like [`Store::connect`], opening at most `postgres_connections` on Postgres (several
    /// instances share the database's connections), and never fewer than
    /// [`MIN_POSTGRES_CONNECTIONS`].
    pub async fn connect_with_pool(
        url: &str,
        postgres_connections: u32,
    ) -> Result<Store, StoreError> {
        if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // With WAL, NORMAL is still durable against a process crash (not a power loss).
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(5));
            let pool = SqlitePoolOptions::new()
                .max_connections(4)
                .connect_with(options)
                .await?;
            SQLITE_MIGRATIONS.run(&pool).await?;
            Ok(Store::Sqlite(pool))
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            // Every statement is bounded, so that a lock held on a table cannot hang the moves: past
            // the bound the statement fails and the request is answered 503. A URL that sets
            // its own (`?options=-c%20statement_timeout%3D…`) keeps it.
            let mut options = PgConnectOptions::from_str(url)?;
            // Only `options=` reaches Postgres; sqlx ignores a bare `statement_timeout=` parameter
            // (with a warning), which must not take the bound away.
            let own_bound = url.split_once('?').is_some_and(|(_, query)| {
                query
                    .split('&')
                    .any(|p| p.starts_with("options=") && p.contains("statement_timeout"))
            });
            if !own_bound {
                options = options.options([("statement_timeout", STATEMENT_TIMEOUT)]);
            }
            // One connection first, alone: a pool that cannot connect says only that it timed
            // out, where this says why (refused, no such database, a wrong password).
            sqlx::Connection::close(
                <sqlx::PgConnection as sqlx::Connection>::connect_with(&options).await?,
            )
            .await?;
            let pool = PgPoolOptions::new()
                .max_connections(postgres_connections.max(MIN_POSTGRES_CONNECTIONS))
                .acquire_timeout(POSTGRES_ACQUIRE_TIMEOUT)
                .connect_with(options)
                .await?;
            POSTGRES_MIGRATIONS.run(&pool).await?;
            Ok(Store::Postgres(pool))
        } else {
            let scheme = url.split_once("://").map_or("", |(scheme, _)| scheme);
            Err(StoreError::UnsupportedUrl(
                scheme.chars().take(20).collect(),
            ))
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Store::Sqlite(_) => Backend::Sqlite,
            Store::Postgres(_) => Backend::Postgres,
        }
    }

    /// Whether the database answers and could be written now, for `/readyz`: on SQLite a write
    /// that changes nothing (a file the server may read but not write fails it), on Postgres
    /// whether an event could be appended (a lock held on the log fails this within a second or
    /// two).
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(pool) => {
                let mut transaction = pool.begin().await?;
                sqlx::query("DELETE FROM liveness WHERE 0")
                    .execute(&mut *transaction)
                    .await?;
                transaction.rollback().await?;
            }
            Store::Postgres(pool) => {
                let mut transaction = pool.begin().await?;
                sqlx::query("SET LOCAL lock_timeout = '2s'")
                    .execute(&mut *transaction)
                    .await?;
                sqlx::query("LOCK TABLE game_events IN ROW EXCLUSIVE MODE")
                    .execute(&mut *transaction)
                    .await?;
                transaction.rollback().await?;
            }
        }
        Ok(())
    }

    pub async fn close(&self) {
        on_backend!(self, pool => pool.close().await);
    }

    /// Inserts a new game with its first events, in one transaction.
    pub async fn create_game(&self, game: &NewGame, events: &[EventRow]) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO games (id, variant, mode, status, settings, seat0_hash, seat1_hash, invite_hash, \
                 server_seed, commitment, creator_entropy, joiner_entropy, created_at, listed, owner) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            )
            .bind(game.id.as_str())
            .bind(game.variant.id())
            .bind(game.mode.name())
            .bind(game.status.name())
            .bind(&game.settings)
            .bind(game.seats[0].as_ref().map(SecretHash::as_str))
            .bind(game.seats[1].as_ref().map(SecretHash::as_str))
            .bind(game.invite.as_ref().map(SecretHash::as_str))
            .bind(to_hex(&game.server_seed.0))
            .bind(game.dice.then(|| to_hex(&game.server_seed.commitment())))
            .bind(&game.creator_entropy)
            .bind(&game.joiner_entropy)
            .bind(game.created_at)
            .bind(game.listed)
            .bind(&game.owner)
            .execute(&mut *tx)
            .await?;
            for event in events {
                insert_event!(tx, game.id.as_str(), event);
            }
            match &game.holders {
                Holders::New { creator, rated } => {
                    if let Some(seat) = creator {
                        sqlx::query(accounts::INSERT_SEAT_OWNER)
                            .bind(game.id.as_str())
                            .bind(seat.player.index() as i64)
                            .bind(game.variant.side(seat.player).name())
                            .bind(&seat.account_id)
                            .execute(&mut *tx)
                            .await?;
                    }
                    if !rated {
                        sqlx::query("INSERT INTO unrated_games (game_id) VALUES ($1)")
                            .bind(game.id.as_str())
                            .execute(&mut *tx)
                            .await?;
                    }
                }
                Holders::RematchOf(original) => {
                    let [first, second] = game.variant.sides().map(Side::name);
                    sqlx::query(
                        "INSERT INTO seat_owners (game_id, player, side, account_id) \
                         SELECT $1, 1 - seat_owners.player, CASE seat_owners.player WHEN 0 THEN $3 ELSE $4 END, seat_owners.account_id \
                         FROM seat_owners JOIN accounts ON accounts.id = seat_owners.account_id \
                         WHERE seat_owners.game_id = $2 AND NOT accounts.deleted",
                    )
                    .bind(game.id.as_str()).bind(original.as_str()).bind(second).bind(first)
                    .execute(&mut *tx).await?;
                    sqlx::query("INSERT INTO unrated_games (game_id) SELECT $1 FROM unrated_games WHERE game_id = $2")
                        .bind(game.id.as_str()).bind(original.as_str())
                        .execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The game an invite belongs to, if any.
    pub async fn find_invite(&self, invite: &SecretHash) -> Result<Option<GameId>, StoreError> {
        let id: Option<(String,)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT id FROM games WHERE invite_hash = $1").bind(invite.as_str()).fetch_optional(pool).await?
        });
        id.map(|(id,)| stored_id(id)).transpose()
    }

    /// Gives `seat`'s place in the invite's game to the joiner, once: of two racing joins exactly
    /// one wins. The joiner's events, and its account's hold on the seat, are written in the same
    /// transaction; an account that holds the other seat redeems nothing (`OwnGame`).
    pub async fn redeem_invite(
        &self,
        invite: &SecretHash,
        seat: Player,
        seat_hash: &SecretHash,
        joiner_entropy: &str,
        owner: Option<SeatOwner<'_>>,
        events: &[EventRow],
    ) -> Result<Redeemed, StoreError> {
        macro_rules! redeem {
            ($column:literal) => {
                concat!(
                    "UPDATE games SET ", $column, " = $1, joiner_entropy = $2, invite_redeemed = TRUE, status = 'playing' ",
                    "WHERE invite_hash = $3 AND invite_redeemed = FALSE AND status = 'waiting' RETURNING id"
                )
            };
        }
        let update = if seat == Player::First {
            redeem!("seat0_hash")
        } else {
            redeem!("seat1_hash")
        };
        on_backend!(self, pool => {
            let mut tx = pool.begin().await?;
            let joined: Option<(String,)> = sqlx::query_as(update)
                .bind(seat_hash.as_str())
                .bind(joiner_entropy)
                .bind(invite.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let Some((game_id,)) = joined else {
                tx.rollback().await?;
                let exists: Option<(String,)> = sqlx::query_as("SELECT id FROM games WHERE invite_hash = $1")
                    .bind(invite.as_str())
                    .fetch_optional(pool)
                    .await?;
                return Ok(if exists.is_some() { Redeemed::AlreadyUsed } else { Redeemed::NotFound });
            };
            for event in events {
                insert_event!(tx, &game_id, event);
            }
            if let Some(owner) = owner {
                let owned = sqlx::query(accounts::INSERT_SEAT_OWNER)
                    .bind(&game_id).bind(owner.player).bind(owner.side).bind(owner.account_id)
                    .execute(&mut *tx).await?.rows_affected();
                // The joiner's seat had no holder, so only the account's other seat conflicts.
                if owned == 0 {
                    tx.rollback().await?;
                    return Ok(Redeemed::OwnGame);
                }
            }
            if let Some(last) = events.last() {
                notify_appended!(self, tx, game_id, last.seq);
            }
            tx.commit().await?;
            Ok(Redeemed::Joined { game_id: stored_id(game_id)? })
        })
    }

    /// Appends events (and a status change, if any) in one transaction. `Conflict` if a version or
    /// move id was already written, or the status was no longer `change.from`.
    pub async fn append_events(
        &self,
        game_id: &GameId,
        events: &[EventRow],
        change: Option<&StatusChange>,
    ) -> Result<(), StoreError> {
        if change.is_none() {
            // One statement: atomic without a transaction, and one round trip instead of three
            // (the common case, a move and its automatic follow-ups).
            return self.append_many(&[(game_id, events)]).await;
        }
        on_backend!(self, pool => {
            let mut tx = pool.begin().await?;
            for event in events {
                insert_event!(tx, game_id.as_str(), event);
            }
            if let Some(change) = change {
                // Returns what settling the ratings reads of the game, saving it a round trip.
                let updated: Option<(String, String, Option<String>)> = sqlx::query_as(
                    "UPDATE games SET status = $1, finished_at = COALESCE($2, finished_at), winner = $3, termination = $4 \
                     WHERE id = $5 AND status = $6 RETURNING variant, mode, winner",
                )
                .bind(change.status.name())
                .bind(change.finished_at)
                .bind(change.result.and_then(|r| r.winner).map(Side::name))
                .bind(change.result.map(|r| r.termination.name()))
                .bind(game_id.as_str())
                .bind(change.from.name())
                .fetch_optional(&mut *tx)
                .await?;
                let Some(game) = updated else {
                    tx.rollback().await?;
                    return Err(StoreError::Conflict);
                };
                // A game's end settles its players' ratings with its result, never a move.
                if change.status == Status::Finished && change.rated {
                    settle_ratings!(tx, game_id.as_str(), game, change.finished_at.unwrap_or_default());
                }
            }
            if let Some(last) = events.last() {
                notify_appended!(self, tx, game_id, last.seq);
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Appends the events of several games with one statement: all of them or, on any error (a
    /// `Conflict` for a version or move id already written), none. The group commit of
    /// [`Appender`] writes a batch this way, on a connection each of its writers holds.
    pub async fn append_many(&self, appends: &[(&GameId, &[EventRow])]) -> Result<(), StoreError> {
        self.connection().await?.append_many(appends).await
    }

    /// Keeps the seed that `game_id`'s rematch offer drew, in place of an earlier offer's.
    pub async fn offer_rematch_seed(
        &self,
        game_id: &GameId,
        offered: &OfferedSeed,
    ) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("UPDATE games SET rematch_server_seed = $1, rematch_entropy = $2 WHERE id = $3")
                .bind(to_hex(&offered.server_seed.0)).bind(&offered.entropy).bind(game_id.as_str())
                .execute(pool).await?;
        });
        Ok(())
    }

    /// Marks a game against the computer as played with help (a hint, a takeback): it no longer
    /// counts in the player's record at the computer's level.
    pub async fn mark_assisted(&self, game_id: &GameId) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("UPDATE games SET assisted = TRUE WHERE id = $1")
                .bind(game_id.as_str()).execute(pool).await?;
        });
        Ok(())
    }

    /// The seed that `game_id`'s last rematch offer drew, if one did.
    pub async fn rematch_seed(&self, game_id: &GameId) -> Result<Option<OfferedSeed>, StoreError> {
        let row: Option<(String, String)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT rematch_server_seed, rematch_entropy FROM games WHERE id = $1")
                .bind(game_id.as_str()).fetch_optional(pool).await?
        });
        Ok(row.and_then(|(seed, entropy)| {
            Some(OfferedSeed {
                server_seed: ServerSeed(from_hex(&seed)?),
                entropy,
            })
        }))
    }

    pub async fn load_game(&self, game_id: &GameId) -> Result<Option<GameRow>, StoreError> {
        let query = select_games!("WHERE id = $1");
        let raw: Option<RawGame> = on_backend!(self, pool => sqlx::query_as(query).bind(game_id.as_str()).fetch_optional(pool).await?);
        Ok(raw.map(GameRow::try_from).transpose()?)
    }

    /// The events after version `since`, in order.
    pub async fn events_since(
        &self,
        game_id: &GameId,
        since: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as("SELECT seq, at, body, move_id FROM game_events WHERE game_id = $1 AND seq > $2 ORDER BY seq")
                .bind(game_id.as_str())
                .bind(since)
                .fetch_all(pool)
                .await?
        }))
    }

    /// Games with this status, newest first (by end time for finished games, else creation; by id
    /// within a millisecond), after `after`. Live games (waiting or playing) are listed only when
    /// their creator chose so; finished and aborted ones always are.
    pub async fn list_games(
        &self,
        status: Status,
        limit: i64,
        after: &PageAfter,
    ) -> Result<Vec<GameRow>, StoreError> {
        let query = select_games!(
            "WHERE status = $1 AND (listed OR $4) \
             AND (COALESCE(finished_at, created_at) < $2 OR (COALESCE(finished_at, created_at) = $2 AND id < $5)) \
             ORDER BY COALESCE(finished_at, created_at) DESC, id DESC LIMIT $3"
        );
        let raw: Vec<RawGame> = on_backend!(self, pool => {
            sqlx::query_as(query).bind(status.name()).bind(after.at).bind(limit).bind(status.is_over()).bind(after.id_bound()).fetch_all(pool).await?
        });
        Ok(raw
            .into_iter()
            .map(GameRow::try_from)
            .collect::<Result<_, _>>()?)
    }

    /// The ids of the games being played: what a restart rebuilds (their clocks run on).
    pub async fn games_in_progress(&self) -> Result<Vec<GameId>, StoreError> {
        let rows: Vec<(String,)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT id FROM games WHERE status = 'playing' ORDER BY created_at")
                .fetch_all(pool)
                .await?
        });
        rows.into_iter().map(|(id,)| stored_id(id)).collect()
    }

    /// Notes that a server is alive at `at` (milliseconds); the latest note is kept.
    pub async fn mark_alive(&self, at: i64) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO liveness (id, alive_at) VALUES (1, $1) ON CONFLICT (id) \
                 DO UPDATE SET alive_at = excluded.alive_at WHERE liveness.alive_at < excluded.alive_at",
            )
            .bind(at)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// When a server last noted that it was alive (none before the first note).
    pub async fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT alive_at FROM liveness WHERE id = 1")
                .fetch_optional(pool)
                .await?
        });
        Ok(row.map(|(at,)| at))
    }

    /// The ids of the games still waiting for their invite that were created before `before`
    /// (milliseconds): the invites that have expired.
    pub async fn waiting_games_created_before(
        &self,
        before: i64,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows: Vec<(String,)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT id FROM games WHERE status = 'waiting' AND created_at < $1 ORDER BY created_at")
                .bind(before)
                .fetch_all(pool)
                .await?
        });
        rows.into_iter().map(|(id,)| stored_id(id)).collect()
    }
}

/// A game id read from the database.
pub(crate) fn stored_id(id: String) -> Result<GameId, StoreError> {
    id.parse().map_err(|e: Malformed| {
        StoreError::Row(RowError {
            reason: e.to_string(),
            game: id,
            column: "id",
        })
    })
}
