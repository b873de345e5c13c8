//! Connections that long-lived tasks hold, rather than take from the pool for each statement:
//! sqlx pings a pooled connection as it leaves the pool and again as it comes back, so a
//! statement on a held connection costs one round trip where a pooled one costs three. The
//! group commit's writers (`appender`) and the presence sender (`presence`) each hold one, and
//! write what waits in their queue in batches.

use crate::{Store, StoreError};
use sqlx::pool::PoolConnection;
use sqlx::{Postgres, Sqlite};
use std::sync::Arc;
use tokio::sync::oneshot;

/// A connection taken from the store's pool and kept.
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

/// One task's connection: taken when first needed, let go when it fails.
#[derive(Debug)]
pub(crate) struct Held {
    store: Store,
    connection: Option<Connection>,
}

impl Held {
    pub(crate) fn new(store: Store) -> Held {
        Held {
            store,
            connection: None,
        }
    }

    /// Waits for `next` (the task's next batch). Closing the pool waits for every connection to
    /// come back, so meanwhile the connection is given back as soon as the pool starts closing
    /// (a later statement takes another, which fails: the pool is closed).
    pub(crate) async fn wait<T>(&mut self, next: impl Future<Output = T>) -> T {
        tokio::pin!(next);
        loop {
            let closing = self.store.close_event();
            tokio::select! {
                value = &mut next => return value,
                () = closing, if self.connection.is_some() => self.connection = None,
            }
        }
    }

    /// The held connection, taken from the pool if none is held.
    pub(crate) async fn connection(&mut self) -> Result<&mut Connection, StoreError> {
        if self.connection.is_none() {
            self.connection = Some(self.store.connection().await?);
        }
        Ok(self.connection.as_mut().expect("taken above"))
    }

    /// Whether a connection is held (taken before, so perhaps stale).
    pub(crate) fn holds(&self) -> bool {
        self.connection.is_some()
    }

    /// Whether a statement that met `result` should run once more, on a new connection: the
    /// connection was held from before (`was_held`) and failed other than by the statement's
    /// fault, so it may only be stale (the database restarted since). The stale one is let go.
    /// So a batch meets a broken connection once, and an unreachable database one pool's timeout.
    pub(crate) fn retry_on_new<T>(
        &mut self,
        was_held: bool,
        result: &Result<T, StoreError>,
    ) -> bool {
        let retry = was_held && result.as_ref().is_err_and(|e| !e.is_the_statements());
        if retry {
            self.connection = None;
        }
        retry
    }

    /// Passes on the result of a statement on the held connection. A connection that failed
    /// other than by a conflict may be broken (the database restarted, say): it is let go, and
    /// the next statement takes another.
    pub(crate) fn settle<T>(&mut self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if result
            .as_ref()
            .is_err_and(|e| !matches!(e, StoreError::Conflict))
        {
            self.connection = None;
        }
        result
    }
}

/// Answers each waiter of a batch with the batch's error: as it is to one waiter, shared among
/// several.
pub(crate) fn fail_all<T>(
    mut waiters: Vec<oneshot::Sender<Result<T, StoreError>>>,
    error: StoreError,
) {
    if waiters.len() == 1 {
        let _ = waiters.remove(0).send(Err(error));
        return;
    }
    let error = Arc::new(error);
    for waiter in waiters {
        let _ = waiter.send(Err(StoreError::Shared(error.clone())));
    }
}

/// The first item of `queue` when one comes, with whatever else is waiting, up to `max`.
pub(crate) async fn next_batch<T>(
    queue: &mut tokio::sync::mpsc::Receiver<T>,
    max: usize,
) -> Option<Vec<T>> {
    let first = queue.recv().await?;
    let mut batch = vec![first];
    while batch.len() < max
        && let Ok(next) = queue.try_recv()
    {
        batch.push(next);
    }
    Some(batch)
}
