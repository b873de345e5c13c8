//! Group commit: the appends of many games gathered into one statement.
//!
//! A game's actor awaits each append before its next, so one game has at most one append in
//! flight; it is across games that appends arrive together, and one statement (one round trip,
//! one commit) for a batch of them costs the database little more than for one. A few writer
//! tasks take turns at one queue: the writer holding the queue gathers whatever is waiting while
//! the others write the batches before it. A batch is atomic; when it fails, each of its appends
//! is tried again alone, so only an append at fault (a `Conflict`, say) sees an error.

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
    loop {
        let mut batch = {
            let mut queue = queue.lock().await;
            let Some(first) = queue.recv().await else {
                return; // every Appender is gone
            };
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH
                && let Ok(next) = queue.try_recv()
            {
                batch.push(next);
            }
            batch
        };
        let appends: Vec<(&GameId, &[EventRow])> = batch
            .iter()
            .map(|a| (&a.game_id, a.events.as_slice()))
            .collect();
        match store.append_many(&appends).await {
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
                    let result = store
                        .append_many(&[(&append.game_id, &append.events)])
                        .await;
                    let _ = append.done.send(result);
                }
            }
        }
    }
}
