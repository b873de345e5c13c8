//! Several server instances on one Postgres database: the instances' heartbeats, which instance
//! owns each game in play (runs its timers), and the notifications that wake the others after a
//! commit. Postgres only: on SQLite these answer `StoreError::SingleInstance`.
//!
//! The event log stays the one truth; a notification only says "look at the log". Every commit
//! that appends events also notifies on [`GAMES_CHANNEL`], inside its transaction, so that the
//! notification leaves at the commit and never before it: a line `<game id> <last seq>` for each
//! game it appended to (a group commit's batch notifies its games in a few notifications, not
//! one each).

use crate::{GameId, Store, StoreError, stored_id};
use sqlx::postgres::{PgListener, PgPool};

/// Events were appended: the payload has a line `<game id> <seq of the last one>` for each game.
pub const GAMES_CHANNEL: &str = "ludus_games";
/// The most lines in one notification of [`GAMES_CHANNEL`]: 64 lines of at most 85 bytes (a
/// 64-character id, a space, a 19-digit seq, a newline) stay within Postgres's 8,000 bytes.
pub const GAMES_PER_NOTIFICATION: usize = 64;
/// An instance left (its games are free to take at once): the payload is its id.
pub const INSTANCES_CHANNEL: &str = "ludus_instances";
/// Who is connected to a game through one instance (not stored: lost with the instance).
pub const PRESENCE_CHANNEL: &str = "ludus_presence";
/// How long an instance counts as alive after its last heartbeat, in milliseconds.
pub const ALIVE_FOR_MS: i64 = 5_000;

/// The database's clock in milliseconds: the one clock every instance's lease is read against.
macro_rules! now_ms {
    () => {
        "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
    };
}

/// What another instance (or this one) said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notification {
    /// Games' logs grew: see [`Appended::games`].
    Appended(Appended),
    /// An instance left: its games are free.
    InstanceGone { instance: String },
    /// An instance's presence in a game (the payload is the server's).
    Presence { payload: String },
}

/// The games of one commit's notification, each with the seq of its last event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appended(String);

impl Appended {
    /// Each game's id (as text: most are looked up, few need a `GameId`) and last seq; a line
    /// that is not of that form is skipped.
    pub fn games(&self) -> impl Iterator<Item = (&str, i64)> {
        self.0.lines().filter_map(|line| {
            let (id, seq) = line.split_once(' ')?;
            Some((id, seq.parse().ok()?))
        })
    }
}

/// The one listening connection of an instance.
pub struct Listener(PgListener);

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Listener")
    }
}

impl Listener {
    /// The next notification; `None` when the connection was lost and made again (notifications
    /// sent meanwhile are gone: the caller catches up from the log).
    pub async fn next(&mut self) -> Result<Option<Notification>, StoreError> {
        loop {
            let Some(notification) = self.0.try_recv().await? else {
                return Ok(None);
            };
            let payload = notification.payload();
            let parsed = match notification.channel() {
                GAMES_CHANNEL => Some(Notification::Appended(Appended(payload.to_string()))),
                INSTANCES_CHANNEL => Some(Notification::InstanceGone {
                    instance: payload.to_string(),
                }),
                PRESENCE_CHANNEL => Some(Notification::Presence {
                    payload: payload.to_string(),
                }),
                _ => None,
            };
            if let Some(parsed) = parsed {
                return Ok(Some(parsed));
            }
        }
    }
}

impl Store {
    fn postgres(&self) -> Result<&PgPool, StoreError> {
        match self {
            Store::Postgres(pool) => Ok(pool),
            Store::Sqlite(_) => Err(StoreError::SingleInstance),
        }
    }

    /// Opens the listening connection on the three channels.
    pub async fn listen(&self) -> Result<Listener, StoreError> {
        let mut listener = PgListener::connect_with(self.postgres()?).await?;
        listener
            .listen_all([GAMES_CHANNEL, INSTANCES_CHANNEL, PRESENCE_CHANNEL])
            .await?;
        Ok(Listener(listener))
    }

    /// Renews the instance's life for [`ALIVE_FOR_MS`]. `false` when it had lapsed (or was never
    /// registered): others may have taken its games, so the caller reads again which it owns.
    pub async fn heartbeat(&self, instance: &str) -> Result<bool, StoreError> {
        let pool = self.postgres()?;
        let renewed = sqlx::query(concat!(
            "UPDATE instances SET alive_until = ",
            now_ms!(),
            " + $2 WHERE id = $1 AND alive_until > ",
            now_ms!()
        ))
        .bind(instance)
        .bind(ALIVE_FOR_MS)
        .execute(pool)
        .await?;
        if renewed.rows_affected() == 1 {
            return Ok(true);
        }
        sqlx::query(concat!(
            "INSERT INTO instances (id, alive_until) VALUES ($1, ",
            now_ms!(),
            " + $2) ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until"
        ))
        .bind(instance)
        .bind(ALIVE_FOR_MS)
        .execute(pool)
        .await?;
        Ok(false)
    }

    /// Makes `instance` the owner of every game in play whose owner is gone (or none), and
    /// returns them. Of two instances sweeping at once, each game goes to one: the update
    /// re-reads a row another has just taken, and its new owner is alive.
    pub async fn take_over_games(&self, instance: &str) -> Result<Vec<GameId>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(concat!(
            "UPDATE games SET owner = $1 WHERE status = 'playing' AND (owner IS NULL OR owner NOT IN ",
            "(SELECT id FROM instances WHERE alive_until > ",
            now_ms!(),
            ")) RETURNING id"
        ))
        .bind(instance)
        .fetch_all(self.postgres()?)
        .await?;
        rows.into_iter().map(|(id,)| stored_id(id)).collect()
    }

    /// The games in play that `instance` owns.
    pub async fn owned_games(&self, instance: &str) -> Result<Vec<GameId>, StoreError> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT id FROM games WHERE status = 'playing' AND owner = $1")
                .bind(instance)
                .fetch_all(self.postgres()?)
                .await?;
        rows.into_iter().map(|(id,)| stored_id(id)).collect()
    }

    /// The instances alive now (and, on the way, forgets those gone for a minute).
    pub async fn alive_instances(&self) -> Result<Vec<String>, StoreError> {
        let pool = self.postgres()?;
        sqlx::query(concat!(
            "DELETE FROM instances WHERE alive_until < ",
            now_ms!(),
            " - 60000"
        ))
        .execute(pool)
        .await?;
        let rows: Vec<(String,)> = sqlx::query_as(concat!(
            "SELECT id FROM instances WHERE alive_until > ",
            now_ms!()
        ))
        .fetch_all(pool)
        .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Each instance alive now, with the time its life runs to (its heartbeat moves it on).
    pub async fn alive_instances_until(&self) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(sqlx::query_as(concat!(
            "SELECT id, alive_until FROM instances WHERE alive_until > ",
            now_ms!()
        ))
        .fetch_all(self.postgres()?)
        .await?)
    }

    /// An instance leaves: its games lose their owner and the others are told, so they take
    /// them over at once instead of when the heartbeat lapses.
    pub async fn release_instance(&self, instance: &str) -> Result<(), StoreError> {
        let mut tx = self.postgres()?.begin().await?;
        sqlx::query("UPDATE games SET owner = NULL WHERE owner = $1")
            .bind(instance)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM instances WHERE id = $1")
            .bind(instance)
            .execute(&mut *tx)
            .await?;
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(INSTANCES_CHANNEL)
            .bind(instance)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
