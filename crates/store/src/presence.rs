//! Presence reports to the other instances: notifications on [`PRESENCE_CHANNEL`] (not stored),
//! queued without waiting and sent by one task, several a statement, on a connection it holds
//! (`held`). Postgres only, as everything that serves several instances.

use crate::cluster::PRESENCE_CHANNEL;
use crate::held::{Connection, Held, next_batch};
use crate::{Store, StoreError};
use tokio::sync::mpsc;

/// The most reports sent in one statement.
const MAX_BATCH: usize = 256;

/// Where an instance queues its presence reports; cheap to clone.
#[derive(Clone, Debug)]
pub struct PresenceSender(mpsc::Sender<String>);

impl PresenceSender {
    /// Starts the sending task on the current tokio runtime.
    pub fn start(store: Store) -> PresenceSender {
        let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(send_all(store, receiver));
        PresenceSender(queue)
    }

    /// Queues a report for every instance (this one hears it too). A full queue hands it to a
    /// task that waits for room: the caller never waits for the database.
    pub fn send(&self, payload: String) {
        if let Err(mpsc::error::TrySendError::Full(payload)) = self.0.try_send(payload) {
            let queue = self.0.clone();
            tokio::spawn(async move { queue.send(payload).await });
        }
    }
}

async fn send_all(store: Store, mut queue: mpsc::Receiver<String>) {
    let mut held = Held::new(store);
    while let Some(batch) = held.wait(next_batch(&mut queue, MAX_BATCH)).await {
        let sent = match held.connection().await {
            Ok(connection) => connection.notify_all(&batch).await,
            Err(error) => Err(error),
        };
        if let Err(error) = held.settle(sent) {
            tracing::warn!(%error, reports = batch.len(), "could not send presence reports");
        }
    }
}

impl Connection {
    /// One notification on the presence channel for each payload, in order.
    async fn notify_all(&mut self, payloads: &[String]) -> Result<(), StoreError> {
        let Connection::Postgres(connection) = self else {
            return Err(StoreError::SingleInstance);
        };
        sqlx::query("SELECT pg_notify($1, payload) FROM UNNEST($2::text[]) AS payload")
            .bind(PRESENCE_CHANNEL)
            .bind(payloads)
            .execute(&mut **connection)
            .await?;
        Ok(())
    }
}
