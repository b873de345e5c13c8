//! Group commit: the appends of many games gathered into one statement.
//!
//! A game's actor awaits each append before its next, so one game has at most one append in
//! flight; it is across games that appends arrive together, and one statement (one round trip,
//! one commit) for a batch of them costs the database little more than for one. A few writer
//! tasks take turns at one queue: the writer holding the queue gathers whatever is waiting while
//! the others write the batches before it. A batch is atomic; when it fails, each of its appends
//! is tried again alone, so only an append at fault (a `Conflict`, say) sees an error. Each
//! writer holds a connection of its own (`held`) rather than taking one from the pool for each
//! batch.

use crate::held::{Connection, Held, fail_all, next_batch};
use crate::{Backend, EventRow, GameId, StatusChange, Store, StoreError};
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

/// The group commit's writers on Postgres, each holding a connection (see `Appender::start`).
pub(crate) const POSTGRES_WRITERS: u32 = 2;

impl Appender {
    /// Starts the writer tasks (on the current tokio runtime): two on Postgres, so that one
    /// batch gathers while the other is written; one on SQLite, which writes one transaction at
    /// a time. Four on Postgres made smaller batches: with 500 games on two cores, each move cost
    /// the server and Postgres more CPU (39–42 µs a move against 38–39 with two, alternated runs
    /// of `ludus-bench-server`) for no more moves a second.
    pub fn start(store: Store) -> Appender {
        let writers = match store.backend() {
            Backend::Sqlite => 1,
            Backend::Postgres => POSTGRES_WRITERS,
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

/// One writer: takes a batch from the queue, writes it on its held connection, answers each
/// append, and again.
async fn write(store: Store, queue: Arc<Mutex<mpsc::Receiver<Append>>>) {
    let mut held = Held::new(store);
    while let Some(batch) = held
        .wait(async { next_batch(&mut *queue.lock().await, MAX_BATCH).await })
        .await
    {
        let appends: Vec<(&GameId, &[EventRow])> = batch
            .iter()
            .map(|a| (&a.game_id, a.events.as_slice()))
            .collect();
        match append_held(&mut held, &appends).await {
            Ok(()) => {
                for append in batch {
                    let _ = append.done.send(Ok(()));
                }
            }
            // A statement the database refused: each append is tried alone, so that only the
            // one at fault (a `Conflict`, say) sees an error.
            Err(error) if batch.len() > 1 && error.is_the_statements() => {
                for append in batch {
                    let one = [(&append.game_id, append.events.as_slice())];
                    let result = append_held(&mut held, &one).await;
                    let _ = append.done.send(result);
                }
            }
            // The database could not be reached: every append meets the same, answered at once
            // (tried alone, the last would wait a pool's timeout for each before it).
            Err(error) => fail_all(batch.into_iter().map(|a| a.done).collect(), error),
        }
    }
}

async fn append_held(
    held: &mut Held,
    appends: &[(&GameId, &[EventRow])],
) -> Result<(), StoreError> {
    let was_held = held.holds();
    let mut result = held.connection().await?.append_many(appends).await;
    if held.retry_on_new(was_held, &result) {
        result = held.connection().await?.append_many(appends).await;
    }
    held.settle(result)
}

impl Connection {
    /// See [`Store::append_many`].
    pub(crate) async fn append_many(
        &mut self,
        appends: &[(&GameId, &[EventRow])],
    ) -> Result<(), StoreError> {
        let count = appends.iter().map(|(_, events)| events.len()).sum();
        let mut rows: Vec<(&str, &EventRow)> = Vec::with_capacity(count);
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
            // notifies each game's last version too, a few games a notification (one each cost
            // the listening side of every instance a message per game): the notifications leave
            // at the commit.
            Connection::Postgres(connection) => {
                // Each column's array for UNNEST, sized once from the rows.
                let ids: Vec<&str> = rows.iter().map(|&(game_id, _)| game_id).collect();
                let seqs: Vec<i64> = rows.iter().map(|(_, event)| event.seq).collect();
                let ats: Vec<i64> = rows.iter().map(|(_, event)| event.at).collect();
                let bodies: Vec<&str> = rows.iter().map(|(_, event)| event.body.as_str()).collect();
                let move_ids: Vec<Option<&str>> = rows
                    .iter()
                    .map(|(_, event)| event.move_id.as_deref())
                    .collect();
                sqlx::query(
                    "WITH appended AS (INSERT INTO game_events (game_id, seq, at, body, move_id) \
                     SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[]) \
                     RETURNING game_id, seq), \
                     last AS (SELECT game_id, MAX(seq) AS seq, row_number() OVER () - 1 AS n \
                     FROM appended GROUP BY game_id) \
                     SELECT pg_notify('ludus_games', string_agg(game_id || ' ' || seq, E'\\n')) \
                     FROM last GROUP BY n / $6::bigint",
                )
                .bind(ids)
                .bind(seqs)
                .bind(ats)
                .bind(bodies)
                .bind(move_ids)
                .bind(crate::cluster::GAMES_PER_NOTIFICATION as i64)
                .execute(&mut **connection)
                .await
                .map(|_| ())
            }
        };
        crate::conflict_if_taken(result)
    }
}
