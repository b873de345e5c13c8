//! What tests need of the store beyond its API (the `testing` feature, which the store's own
//! tests and the black-box tests turn on).

/// A TCP proxy in front of a Postgres server that can be cut, as a database host lost from
/// the network: then every connection through it breaks, and each new one is accepted and never
/// answered. [`DatabaseProxy::mend`] forwards new connections again.
#[derive(Debug)]
pub struct DatabaseProxy {
    upstream: String,
    address: String,
    cut: tokio::sync::watch::Sender<bool>,
}

impl DatabaseProxy {
    /// A proxy to the server of `url` (`postgres://user@host:port/database`).
    pub async fn start(url: &str) -> DatabaseProxy {
        let upstream = postgres_host(url).to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free loopback port");
        let address = listener.local_addr().expect("an address").to_string();
        let (cut, is_cut) = tokio::sync::watch::channel(false);
        let to = upstream.clone();
        tokio::spawn(async move {
            let mut unanswered = Vec::new();
            while let Ok((mut client, _)) = listener.accept().await {
                if *is_cut.borrow() {
                    unanswered.push(client);
                    continue;
                }
                let Ok(mut server) = tokio::net::TcpStream::connect(&to).await else {
                    continue;
                };
                let mut is_cut = is_cut.clone();
                tokio::spawn(async move {
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = is_cut.wait_for(|cut| *cut) => {}
                    }
                });
            }
        });
        DatabaseProxy {
            upstream,
            address,
            cut,
        }
    }

    /// `url` (a database on the proxied server) reached through this proxy.
    pub fn route(&self, url: &str) -> String {
        url.replacen(&self.upstream, &self.address, 1)
    }

    pub fn cut(&self) {
        self.cut.send_replace(true);
    }

    pub fn mend(&self) {
        self.cut.send_replace(false);
    }
}

/// The `host:port` of a `postgres://user@host:port/database` URL.
fn postgres_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split('/').next().unwrap_or(rest);
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
}
