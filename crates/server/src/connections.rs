//! Accepting connections so that slow or greedy clients cannot starve the others: a client must
//! finish its request headers within a time limit, must take what it is sent (a write that makes
//! no progress for a while drops the connection), and one address may hold only so many
//! connections at once (trusted proxies excepted: every visitor comes through them). Each
//! connection is served by hyper's HTTP/1.1 with WebSocket upgrades, and the client's address is
//! attached to its requests as axum's `ConnectInfo`. HTTP/1.1 alone: browsers speak HTTP/2 only
//! over TLS, which a proxy in front ends, and HTTP/2 without it had no header timeout (a
//! connection that sent its preface alone was held for good).

use crate::api::ForwardingHeader;
use crate::metrics::Metrics;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use ipnet::IpNet;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tower_http::timeout::TimeoutBody;

/// How connections are admitted.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// A client that has not sent its whole request head by then is disconnected; one whose body
    /// stalls that long between its parts is answered 400.
    pub header_read_timeout: Duration,
    /// A write to the client that makes no progress for this long fails, and the connection
    /// with it (see `WriteDeadline`).
    pub write_timeout: Duration,
    /// Open connections one address may hold; past that, new ones are closed at once.
    pub per_address: usize,
    /// Addresses exempt from `per_address` (the reverse proxies).
    pub trusted_proxies: Vec<IpNet>,
    /// The header those proxies name the client in.
    pub forwarded_header: ForwardingHeader,
}

impl ConnectionLimits {
    /// The client of a request (its connection's peer, or behind a trusted proxy the address the
    /// proxy names), from the request's extensions and headers.
    pub fn client(
        &self,
        extensions: &axum::http::Extensions,
        headers: &axum::http::HeaderMap,
    ) -> std::net::IpAddr {
        crate::api::address::client_address(
            peer(extensions),
            headers,
            &self.trusted_proxies,
            self.forwarded_header,
        )
    }

    /// Whether a request's connection comes from a proxy the deployment trusts: what it says of
    /// the request (the client's address, the request's id) is believed.
    pub fn from_trusted_proxy(&self, extensions: &axum::http::Extensions) -> bool {
        self.trusts(peer(extensions))
    }

    /// Whether `address` is one of the trusted proxies' (an IPv4 address written as IPv6, as a
    /// dual-stack listener sees it, read as the IPv4 address it is, as `client_address` reads it).
    fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.trusted_proxies
            .iter()
            .any(|net| net.contains(&address))
    }
}

/// The address of a request's connection (loopback where none was recorded, as in tests that
/// call the router directly).
fn peer(extensions: &axum::http::Extensions) -> std::net::IpAddr {
    extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map_or(std::net::IpAddr::from([127, 0, 0, 1]), |info| info.0.ip())
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            per_address: 64,
            trusted_proxies: Vec::new(),
            forwarded_header: ForwardingHeader::default(),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then waits for the open connections to
/// finish (sockets and streams end by themselves when the application shuts down).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    metrics: Arc<Metrics>,
    shutdown: impl Future<Output = ()>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let open = OpenConnections::default();
    // Told to every connection at shutdown: it finishes the request in flight, then closes.
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut refusals = Refusals::default();
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
        let limit = if limits.trusts(peer.ip()) {
            usize::MAX
        } else {
            limits.per_address
        };
        let Some(slot) = open.admit(crate::api::address::limited_as(peer.ip()), limit) else {
            metrics.connections_refused.fetch_add(1, Ordering::Relaxed);
            refusals.note(peer.ip(), limit);
            continue;
        };
        // Without TCP_NODELAY, Nagle's algorithm holds a small message (an event after an ack)
        // until the previous one is acknowledged: milliseconds added to every move.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::warn!(%error, "could not set TCP_NODELAY");
        }
        // A request body that stops arriving gets as long between its parts as the head had
        // (a client that sent its head and holds the body back would hold its connection and
        // handler for good).
        let body_timeout = limits.header_read_timeout;
        let service = tower::ServiceExt::map_request(
            app.clone(),
            move |request: axum::http::Request<hyper::body::Incoming>| {
                let mut request = request.map(|body| TimeoutBody::new(body_timeout, body));
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            },
        );
        let connection = http
            .serve_connection(
                TokioIo::new(WriteDeadline::new(
                    Admitted {
                        stream,
                        _slot: slot,
                    },
                    limits.write_timeout,
                )),
                TowerToHyperService::new(service),
            )
            .with_upgrades();
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopping.wait_for(|&stop| stop) => connection.as_mut().graceful_shutdown(),
            }
            let _ = connection.await;
        });
        // The connections that ended are let go as others come.
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = stop.send(true);
    // Requests in flight finish (a move waits for its commit, itself bounded); a connection
    // that does not finish in time is dropped rather than keep the process from exiting.
    let finished = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(10), finished)
        .await
        .is_err()
    {
        tracing::warn!("shutting down: connections still open after 10 s are dropped");
    }
}

/// The connections refused for the cap, told in the log at most once a minute: a flood would
/// fill it, and a wrong `--trusted-proxies`, which makes every visitor the proxy, must be seen
/// (the whole site then answers 502 through the proxy).
#[derive(Default)]
struct Refusals {
    last_told: Option<std::time::Instant>,
    untold: u64,
}

impl Refusals {
    const TOLD_EVERY: Duration = Duration::from_secs(60);

    fn note(&mut self, address: IpAddr, limit: usize) {
        self.untold += 1;
        if self
            .last_told
            .is_some_and(|told| told.elapsed() < Self::TOLD_EVERY)
        {
            return;
        }
        tracing::warn!(
            %address,
            limit,
            refused = self.untold,
            "refused connections: an address holds its cap of open connections (behind a reverse proxy, is the proxy's address in --trusted-proxies?)"
        );
        self.last_told = Some(std::time::Instant::now());
        self.untold = 0;
    }
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

/// An admitted connection's stream, holding its place among its address's connections for as
/// long as the stream lives: past a WebSocket upgrade that is the socket's life, not the HTTP
/// connection's (which ends at the upgrade, and freed the place then: an address could open any
/// number of sockets).
struct Admitted<T> {
    stream: T,
    /// Dropped with the stream.
    _slot: Slot,
}

impl<T: AsyncRead + Unpin> AsyncRead for Admitted<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Admitted<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// A connection whose writes must make progress: a write (or flush) still waiting for the client
/// after `limit` fails with `TimedOut`. A client that stops reading (a frozen tab, a hostile
/// client) would otherwise hold a write for good once the buffers between fill: a WebSocket's
/// task, past its idle timer, or an event stream, each still counting its player as present. The
/// timer is made only for a write that waits, and any progress puts it away.
struct WriteDeadline<T> {
    inner: T,
    limit: Duration,
    /// Since when a write has waited: boxed, as only a waiting write needs it.
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> WriteDeadline<T> {
    fn new(inner: T, limit: Duration) -> WriteDeadline<T> {
        WriteDeadline {
            inner,
            limit,
            waiting: None,
        }
    }

    /// `polled`, or the timeout once a write has waited `limit`.
    fn bounded<R>(
        &mut self,
        polled: Poll<io::Result<R>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<R>> {
        if polled.is_ready() {
            self.waiting = None;
            return polled;
        }
        let limit = self.limit;
        let deadline = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing it was sent within the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteDeadline<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.bounded(polled, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.bounded(polled, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.bounded(polled, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.bounded(polled, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A client that reads nothing: once the pipe is full the write fails at the limit.
    #[tokio::test(start_paused = true)]
    async fn a_write_the_client_never_takes_fails_at_the_limit() {
        let (server, _client) = tokio::io::duplex(64);
        let mut server = WriteDeadline::new(server, Duration::from_secs(10));
        let started = tokio::time::Instant::now();
        let error = server.write_all(&[7; 1000]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    }

    /// A slow client that keeps reading is never cut off, however long the whole write takes.
    #[tokio::test(start_paused = true)]
    async fn a_slow_reader_that_makes_progress_is_kept() {
        let (server, mut client) = tokio::io::duplex(64);
        let mut server = WriteDeadline::new(server, Duration::from_secs(10));
        let reader = tokio::spawn(async move {
            let mut taken = Vec::new();
            let mut chunk = [0; 64];
            while taken.len() < 1000 {
                tokio::time::sleep(Duration::from_secs(9)).await;
                let n = client.read(&mut chunk).await.unwrap();
                taken.extend_from_slice(&chunk[..n]);
            }
            taken
        });
        let started = tokio::time::Instant::now();
        server
            .write_all(&[7; 1000])
            .await
            .expect("the write completes");
        assert!(
            started.elapsed() > Duration::from_secs(100),
            "it took many waits of 9 s"
        );
        assert_eq!(reader.await.unwrap(), vec![7; 1000]);
    }

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
