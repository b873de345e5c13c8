//! Group commit: the appends of many games gathered into one statement.
//!
//! A game's actor awaits each append before its next, so one game has at most one append in
//! flight; it is across games that appends arrive together, and one statement (one round trip,
//! one commit) for a batch of them costs the database little more than for one. A few writer
//! tasks take turns at one queue: the writer holding the queue gathers whatever is waiting while
//! the others write the batches before it. A batch is atomic; when it fails, each of its appends
//! is tried again alone, so only an append at fault (a `Conflict`, say) sees an error. Each
//! writer holds a connection of its own rather than taking one from the pool for each batch.

use crate::{Backend, EventRow, GameId, StatusChange, Store, StoreError};
use sqlx::pool::PoolConnection;
use sqlx::{Postgres, Sqlite};
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc, oneshot};

/// The most appends written in one statement (SQLite binds 5 values a row, within its limit).
const MAX_BATCH: usize = 256;

/// Appends events to the store, batching the appends of different games together.
#[derive(Clone, Debug)]
pub struct Appender {
    store: Store,
    queue: mpsc::Sender<Append>,
}

#[derive(Debug)]
struct Append {
    game_id: GameId,
    events: Vec<EventRow>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

impl Appender {
    /// Starts the writer tasks (on the current tokio runtime): several on Postgres, so that
    /// batches overlap their round trips; one on SQLite, which writes one transaction at a time.
    pub fn start(store: Store) -> Appender {
        let writers = match store.backend() {
            Backend::Sqlite => 1,
            Backend::Postgres => 4,
        };
        let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
        let receiver = Arc::new(Mutex::new(receiver));
        for _ in 0..writers {
            tokio::spawn(write(store.clone(), receiver.clone()));
        }
        Appender { store, queue }
    }

    /// Appends a game's events, as [`Store::append_events`] does, returning once they are
    /// committed. Appends with a status change (rare: a game's end) are written on their own.
    pub async fn append(
        &self,
        game_id: &GameId,
        events: Vec<EventRow>,
        change: Option<&StatusChange>,
    ) -> Result<(), StoreError> {
        if change.is_some() {
            // Boxed: a transaction's future is large, and this one is awaited inside every
            // append's future.
            return Box::pin(self.store.append_events(game_id, &events, change)).await;
        }
        let (done, answer) = oneshot::channel();
        let append = Append {
            game_id: game_id.clone(),
            events,
            done,
        };
        if self.queue.send(append).await.is_err() {
            return Err(StoreError::Closed);
        }
        answer.await.unwrap_or(Err(StoreError::Closed))
    }
}

/// One writer: takes a batch from the queue, writes it, answers each append, and again.
async fn write(store: Store, queue: Arc<Mutex<mpsc::Receiver<Append>>>) {
    let mut held = None;
    loop {
        let next = tokio::select! {
            next = next_batch(&queue) => next,
            // Closing the pool waits for every connection to come back: give this one back.
            () = store.close_event(), if held.is_some() => {
                held = None;
                continue;
            }
        };
        let Some(mut batch) = next else {
            return; // every Appender is gone
        };
        let appends: Vec<(&GameId, &[EventRow])> = batch
            .iter()
            .map(|a| (&a.game_id, a.events.as_slice()))
            .collect();
        match append_held(&store, &mut held, &appends).await {
            Ok(()) => {
                for append in batch {
                    let _ = append.done.send(Ok(()));
                }
            }
            Err(error) if batch.len() == 1 => {
                let _ = batch.remove(0).done.send(Err(error));
            }
            Err(_) => {
                for append in batch {
                    let one = [(&append.game_id, append.events.as_slice())];
                    let result = append_held(&store, &mut held, &one).await;
                    let _ = append.done.send(result);
                }
            }
        }
    }
}

/// Waits for the next append, and takes whatever else is waiting with it.
async fn next_batch(queue: &Mutex<mpsc::Receiver<Append>>) -> Option<Vec<Append>> {
    let mut queue = queue.lock().await;
    let first = queue.recv().await?;
    let mut batch = vec![first];
    while batch.len() < MAX_BATCH
        && let Ok(next) = queue.try_recv()
    {
        batch.push(next);
    }
    Some(batch)
}

/// Appends on the writer's connection, taking one from the pool if it holds none. A connection
/// that failed other than by a conflict may be broken (the database restarted, say): it is let
/// go, and the next append takes another.
async fn append_held(
    store: &Store,
    held: &mut Option<Connection>,
    appends: &[(&GameId, &[EventRow])],
) -> Result<(), StoreError> {
    let connection = match held {
        Some(connection) => connection,
        None => held.insert(store.connection().await?),
    };
    let result = connection.append_many(appends).await;
    if result
        .as_ref()
        .is_err_and(|e| !matches!(e, StoreError::Conflict))
    {
        *held = None;
    }
    result
}

/// A connection taken from the store's pool. Each writer holds one: a batch then costs one round
/// trip, where a connection taken from the pool for each batch costs three (sqlx pings a
/// connection as it leaves the pool and again as it comes back).
#[derive(Debug)]
pub(crate) enum Connection {
    Sqlite(PoolConnection<Sqlite>),
    Postgres(PoolConnection<Postgres>),
}

impl Store {
    /// Completes once the pool is closing.
    fn close_event(&self) -> sqlx::pool::CloseEvent {
        match self {
            Store::Sqlite(pool) => pool.close_event(),
            Store::Postgres(pool) => pool.close_event(),
        }
    }

    pub(crate) async fn connection(&self) -> Result<Connection, StoreError> {
        Ok(match self {
            Store::Sqlite(pool) => Connection::Sqlite(pool.acquire().await?),
            Store::Postgres(pool) => Connection::Postgres(pool.acquire().await?),
        })
    }
}

impl Connection {
    /// See [`Store::append_many`].
    pub(crate) async fn append_many(
        &mut self,
        appends: &[(&GameId, &[EventRow])],
    ) -> Result<(), StoreError> {
        let mut rows: Vec<(&str, &EventRow)> = Vec::new();
        for (game_id, events) in appends {
            rows.extend(events.iter().map(|event| (game_id.as_str(), event)));
        }
        if rows.is_empty() {
            return Ok(());
        }
        let result = match self {
            Connection::Sqlite(connection) => {
                let placeholders: Vec<String> = (0..rows.len())
                    .map(|i| {
                        let n = 5 * i;
                        format!(
                            "(${}, ${}, ${}, ${}, ${})",
                            n + 1,
                            n + 2,
                            n + 3,
                            n + 4,
                            n + 5
                        )
                    })
                    .collect();
                // Only numbered placeholders are formatted into the text; every value is bound.
                let sql = sqlx::AssertSqlSafe(format!(
                    "INSERT INTO game_events (game_id, seq, at, body, move_id) VALUES {}",
                    placeholders.join(", ")
                ));
                let mut query = sqlx::query(sql);
                for (game_id, event) in rows {
                    query = query
                        .bind(game_id)
                        .bind(event.seq)
                        .bind(event.at)
                        .bind(&event.body)
                        .bind(&event.move_id);
                }
                query.execute(&mut **connection).await.map(|_| ())
            }
            // One statement text whatever the count, so Postgres plans it once per connection. It
            // notifies each game's last version too: the notifications leave at the commit.
            Connection::Postgres(connection) => {
                let (mut ids, mut seqs, mut ats, mut bodies, mut move_ids) =
                    (vec![], vec![], vec![], vec![], vec![]);
                for (game_id, event) in rows {
                    ids.push(game_id);
                    seqs.push(event.seq);
                    ats.push(event.at);
                    bodies.push(event.body.as_str());
                    move_ids.push(event.move_id.as_deref());
                }
                sqlx::query(
                    "WITH appended AS (INSERT INTO game_events (game_id, seq, at, body, move_id) \
                     SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[]) \
                     RETURNING game_id, seq) \
                     SELECT pg_notify('ludus_games', game_id || ' ' || MAX(seq)) FROM appended GROUP BY game_id",
                )
                .bind(ids)
                .bind(seqs)
                .bind(ats)
                .bind(bodies)
                .bind(move_ids)
                .execute(&mut **connection)
                .await
                .map(|_| ())
            }
        };
        crate::conflict_if_taken(result)
    }
}
