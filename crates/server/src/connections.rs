//! Accepting connections so that slow or greedy clients cannot starve the others: a client must
//! finish its request headers within a time limit, and one address may hold only so many
//! connections at once (trusted proxies excepted: every visitor comes through them). Each
//! connection is served by hyper with WebSocket upgrades, and the client's address is attached
//! to its requests as axum's `ConnectInfo`.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use ipnet::IpNet;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

/// How connections are admitted.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// A client that has not sent its whole request head by then is disconnected.
    pub header_read_timeout: Duration,
    /// Open connections one address may hold; past that, new ones are closed at once.
    pub per_address: usize,
    /// Addresses exempt from `per_address` (the reverse proxies).
    pub trusted_proxies: Vec<IpNet>,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            per_address: 64,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then waits for the open connections to
/// finish (sockets and streams end by themselves when the application shuts down).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let open = OpenConnections::default();
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, say: wait a moment instead of spinning.
                    tracing::warn!(%error, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let limit = if limits
            .trusted_proxies
            .iter()
            .any(|n| n.contains(&peer.ip()))
        {
            usize::MAX
        } else {
            limits.per_address
        };
        let Some(slot) = open.admit(peer.ip(), limit) else {
            tracing::debug!(address = %peer.ip(), "too many connections from one address");
            continue;
        };
        // Without TCP_NODELAY, Nagle's algorithm holds a small message (an event after an ack)
        // until the previous one is acknowledged: milliseconds added to every move.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::warn!(%error, "could not set TCP_NODELAY");
        }
        let service = tower::ServiceExt::map_request(
            app.clone(),
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            },
        );
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service))
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// The number of open connections of each address.
#[derive(Clone, Debug, Default)]
struct OpenConnections {
    // A std mutex: held for one map update, never across an await.
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One admitted connection; dropping it frees its place.
#[derive(Debug)]
struct Slot {
    open: OpenConnections,
    address: IpAddr,
}

impl OpenConnections {
    fn admit(&self, address: IpAddr, limit: usize) -> Option<Slot> {
        let mut counts = self.counts.lock().expect("connection counts");
        let count = counts.entry(address).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(Slot {
            open: self.clone(),
            address,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.open.counts.lock().expect("connection counts");
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_limit_and_a_place_back_when_one_closes() {
        let open = OpenConnections::default();
        let address: IpAddr = "192.0.2.7".parse().unwrap();
        let first = open.admit(address, 2).expect("first");
        let _second = open.admit(address, 2).expect("second");
        assert!(open.admit(address, 2).is_none(), "the third is refused");
        assert!(
            open.admit("192.0.2.8".parse().unwrap(), 2).is_some(),
            "another address is not"
        );
        drop(first);
        assert!(
            open.admit(address, 2).is_some(),
            "a closed one frees its place"
        );
    }
}
