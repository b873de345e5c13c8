//! Group read: the reads of many games' events after a version, gathered into one statement on a
//! connection held for them (`held`), as the group commit gathers appends. With several instances
//! an actor reads the log before every view and socket it serves (another instance may have
//! appended), so these reads are many and small; one statement answers whatever is waiting.
//! Postgres only: on SQLite, which serves one instance, a read goes to the pool.

use crate::held::{Connection, Held, fail_all, next_batch};
use crate::{EventRow, GameId, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

/// The most reads answered by one statement.
const MAX_BATCH: usize = 256;

/// Reads games' events after a version, batching the reads of different games together.
#[derive(Clone, Debug)]
pub struct EventReader {
    store: Store,
    /// None on SQLite.
    queue: Option<mpsc::Sender<Read>>,
}

#[derive(Debug)]
struct Read {
    game_id: GameId,
    since: i64,
    done: oneshot::Sender<Result<Vec<EventRow>, StoreError>>,
}

impl EventReader {
    /// Starts the reading task on the current tokio runtime (on Postgres).
    pub fn start(store: Store) -> EventReader {
        let queue = matches!(store, Store::Postgres(_)).then(|| {
            let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
            tokio::spawn(read_all(store.clone(), receiver));
            queue
        });
        EventReader { store, queue }
    }

    /// The events of `game_id` after version `since`, in order, as [`Store::events_since`]
    /// reads them.
    pub async fn events_since(
        &self,
        game_id: &GameId,
        since: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let Some(queue) = &self.queue else {
            return self.store.events_since(game_id, since).await;
        };
        let (done, answer) = oneshot::channel();
        let read = Read {
            game_id: game_id.clone(),
            since,
            done,
        };
        if queue.send(read).await.is_err() {
            return Err(StoreError::Closed);
        }
        answer.await.unwrap_or(Err(StoreError::Closed))
    }
}

async fn read_all(store: Store, mut queue: mpsc::Receiver<Read>) {
    let mut held = Held::new(store);
    while let Some(batch) = held.wait(next_batch(&mut queue, MAX_BATCH)).await {
        let wanted: Vec<(&GameId, i64)> = batch.iter().map(|r| (&r.game_id, r.since)).collect();
        match read_held(&mut held, &wanted).await {
            Ok(mut answers) => {
                for read in batch.into_iter().rev() {
                    let _ = read.done.send(Ok(answers.pop().unwrap_or_default()));
                }
            }
            Err(error) => fail_all(batch.into_iter().map(|r| r.done).collect(), error),
        }
    }
}

async fn read_held(
    held: &mut Held,
    wanted: &[(&GameId, i64)],
) -> Result<Vec<Vec<EventRow>>, StoreError> {
    let was_held = held.holds();
    let mut result = held.connection().await?.events_since_many(wanted).await;
    if held.retry_on_new(was_held, &result) {
        result = held.connection().await?.events_since_many(wanted).await;
    }
    held.settle(result)
}

impl Connection {
    /// For each `(game, since)`, that game's events after `since`, in order.
    async fn events_since_many(
        &mut self,
        wanted: &[(&GameId, i64)],
    ) -> Result<Vec<Vec<EventRow>>, StoreError> {
        let Connection::Postgres(connection) = self else {
            return Err(StoreError::SingleInstance);
        };
        let ids: Vec<&str> = wanted.iter().map(|(id, _)| id.as_str()).collect();
        let sinces: Vec<i64> = wanted.iter().map(|&(_, since)| since).collect();
        // Planned for each batch, not kept: a plan kept from when the log was small (a fresh
        // database) scanned the whole log at every read.
        let rows: Vec<(i64, i64, i64, String, Option<String>)> = sqlx::query_as(
            "SELECT r.n, e.seq, e.at, e.body, e.move_id \
             FROM UNNEST($1::text[], $2::bigint[]) WITH ORDINALITY AS r(game_id, since, n) \
             CROSS JOIN LATERAL (SELECT seq, at, body, move_id FROM game_events \
             WHERE game_id = r.game_id AND seq > r.since) e \
             ORDER BY r.n, e.seq",
        )
        .bind(ids)
        .bind(sinces)
        .persistent(false)
        .fetch_all(&mut **connection)
        .await?;
        let mut answers: Vec<Vec<EventRow>> = std::iter::repeat_with(Vec::new)
            .take(wanted.len())
            .collect();
        for (n, seq, at, body, move_id) in rows {
            // WITH ORDINALITY counts from 1.
            if let Some(answer) = answers.get_mut((n - 1) as usize) {
                answer.push(EventRow {
                    seq,
                    at,
                    body,
                    move_id,
                });
            }
        }
        Ok(answers)
    }
}
