//! The `serve` command's configuration: flags, each also read from the environment.

use crate::api::ForwardingHeader;
use clap::{Args, ValueEnum};
use ipnet::IpNet;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// The address to listen on.
    #[arg(long, env = "LUDUS_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// sqlite://FILE (created if missing) or postgres://…
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://ludus.db",
        value_parser = parse_database_url
    )]
    pub database_url: String,
    /// The base of invite links, e.g. `https://ludus.example.org` (default: from the listen address).
    #[arg(long, env = "LUDUS_PUBLIC_URL", value_parser = parse_public_url)]
    pub public_url: Option<String>,
    /// The browser client's files (default: ./static, else the one beside the source).
    #[arg(long, env = "LUDUS_STATIC_DIR")]
    pub static_dir: Option<PathBuf>,
    /// How log lines are written: `text` for a terminal, `json` (one object a line) for a log
    /// collector; which lines, `RUST_LOG` says.
    #[arg(long, env = "LUDUS_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Games one address may create per minute.
    #[arg(
        long,
        env = "LUDUS_CREATE_PER_MINUTE",
        default_value_t = 30,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub create_per_minute: u32,
    /// Invites one address may redeem per minute.
    #[arg(
        long,
        env = "LUDUS_JOIN_PER_MINUTE",
        default_value_t = 60,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub join_per_minute: u32,
    /// Password checks one address may ask for per minute: sign-ups, sign-ins, password changes
    /// and account deletions.
    #[arg(
        long,
        env = "LUDUS_SIGN_IN_PER_MINUTE",
        default_value_t = 10,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub sign_in_per_minute: u32,
    /// Messages one WebSocket connection may send per second (twice that in a burst).
    #[arg(
        long,
        env = "LUDUS_SOCKET_MESSAGES_PER_SECOND",
        default_value_t = 20,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub socket_messages_per_second: u32,
    /// Seconds without a message after which a socket whose hello promised a heartbeat no longer
    /// keeps its player present (a frozen page; docs/PROTOCOL.md §4). Found at the server's
    /// ping, every 20 s. The browser pings every 10 s.
    #[arg(
        long,
        env = "LUDUS_SOCKET_HEARTBEAT_SECS",
        default_value_t = 120,
        value_parser = clap::value_parser!(u64).range(11..)
    )]
    pub socket_heartbeat_secs: u64,
    /// Milliseconds the computer waits before it moves (at most an hour).
    #[arg(
        long,
        env = "LUDUS_COMPUTER_DELAY_MS",
        default_value_t = 400,
        value_parser = clap::value_parser!(u64).range(..=3_600_000)
    )]
    pub computer_delay_ms: u64,
    /// Seconds an opponent must be gone before the win can be claimed, in games with a clock.
    #[arg(
        long,
        env = "LUDUS_CLAIM_AFTER_TIMED_SECS",
        default_value_t = 60,
        value_parser = clap::value_parser!(u64).range(1..=MAX_SECS)
    )]
    pub claim_after_timed_secs: u64,
    /// The same for games without a clock.
    #[arg(
        long,
        env = "LUDUS_CLAIM_AFTER_UNTIMED_SECS",
        default_value_t = 600,
        value_parser = clap::value_parser!(u64).range(1..=MAX_SECS)
    )]
    pub claim_after_untimed_secs: u64,
    /// Hints one seat may ask for per minute (one address: three times that).
    #[arg(
        long,
        env = "LUDUS_HINTS_PER_MINUTE",
        default_value_t = 20,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub hints_per_minute: u32,
    /// Seconds an online game waits for its invite to be used; then it is aborted.
    #[arg(
        long,
        env = "LUDUS_INVITE_EXPIRY_SECS",
        default_value_t = 86_400,
        value_parser = clap::value_parser!(u64).range(1..=MAX_SECS)
    )]
    pub invite_expiry_secs: u64,
    /// Reverse proxies (CIDR, comma-separated, e.g. `127.0.0.1/32,10.0.0.0/8`) whose forwarding
    /// header (`--forwarded-header`) names the client; from anyone else it is ignored.
    #[arg(
        long,
        env = "LUDUS_TRUSTED_PROXIES",
        value_delimiter = ',',
        value_parser = parse_network
    )]
    pub trusted_proxies: Vec<IpNet>,
    /// The header the trusted proxies write the client's address in; the other is ignored (a
    /// proxy passes it on as the client sent it).
    #[arg(
        long,
        env = "LUDUS_FORWARDED_HEADER",
        value_enum,
        default_value_t = ForwardingHeader::XForwardedFor
    )]
    pub forwarded_header: ForwardingHeader,
    /// Seconds a client has to send its request headers before it is disconnected.
    #[arg(
        long,
        env = "LUDUS_HEADER_READ_TIMEOUT_SECS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..=MAX_SECS)
    )]
    pub header_read_timeout_secs: u64,
    /// Seconds a write to a client may wait for it to read before the connection is dropped (a
    /// frozen tab, or a client that stops reading, would otherwise stay connected).
    #[arg(
        long,
        env = "LUDUS_WRITE_TIMEOUT_SECS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..=MAX_SECS)
    )]
    pub write_timeout_secs: u64,
    /// Connections one address may hold open at once (trusted proxies are not limited).
    #[arg(
        long,
        env = "LUDUS_CONNECTIONS_PER_ADDRESS",
        default_value_t = 64,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub connections_per_address: usize,
    /// Postgres: the most connections this instance opens, at least 8 (five are held for as long
    /// as it runs: the group commit's two writers, the presence sender, the event reader and
    /// the listener). Several instances share the database's `max_connections` (100 by
    /// default): keep their sum below it.
    #[arg(
        long,
        env = "LUDUS_DATABASE_CONNECTIONS",
        default_value_t = ludus_store::POSTGRES_CONNECTIONS,
        value_parser = clap::value_parser!(u32).range(i64::from(ludus_store::MIN_POSTGRES_CONNECTIONS)..)
    )]
    pub database_connections: u32,
}

/// The longest any setting in seconds may be: a year. Times are reckoned in milliseconds from
/// the epoch, and a setting near `u64::MAX` seconds overflowed them (every invite expired at once,
/// every connection's header deadline panicked).
const MAX_SECS: u64 = 365 * 24 * 3600;

/// The site's address as people open it: http:// or https://, a host and perhaps a port; no
/// path (the pages link to absolute paths from the site's root), no query.
fn parse_public_url(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    let not_an_address = || {
        format!(
            "{text:?} is not an address such as https://ludus.example.org (a scheme, a host, \
             perhaps a port; the site is served from the root, so no path)"
        )
    };
    let authority = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(not_an_address)?;
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => {
            let (address, rest) = bracketed.split_once(']').ok_or_else(not_an_address)?;
            address
                .parse::<std::net::Ipv6Addr>()
                .map_err(|_| not_an_address())?;
            (
                address,
                rest.strip_prefix(':')
                    .or(Some(rest).filter(|r| !r.is_empty())),
            )
        }
        None => authority
            .rsplit_once(':')
            .map_or((authority, None), |(host, port)| (host, Some(port))),
    };
    let port_ok = port.is_none_or(|port| port.parse::<u16>().is_ok_and(|port| port > 0));
    if host.is_empty()
        || !port_ok
        || authority.contains(['/', '?', '#', ' ', '@'])
        || (!authority.starts_with('[') && host.contains(':'))
    {
        return Err(not_an_address());
    }
    Ok(text.to_string())
}

/// A database URL; a SQLite one names its file (or `:memory:`): without one, each connection of
/// the pool opened a database of its own, and the server stopped with "no such table".
fn parse_database_url(text: &str) -> Result<String, String> {
    if sqlite_path(text).is_some_and(str::is_empty) {
        return Err(format!(
            "{text:?} names no file: write sqlite://ludus.db (created if missing), or \
             sqlite::memory: for a database that lasts as long as the process"
        ));
    }
    Ok(text.to_string())
}

/// The path of a `sqlite:` URL as sqlx reads it: `sqlite://` then the path, or `sqlite:` then the
/// path, without the query (perhaps empty, perhaps `:memory:`); none for another database.
pub(crate) fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite:")?;
    let path = rest.strip_prefix("//").unwrap_or(rest);
    Some(path.split('?').next().unwrap_or(path))
}

/// A network in CIDR notation; a bare address is the network of that one address.
fn parse_network(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is not a network such as 10.0.0.0/8 or an address"))
}

impl ServeConfig {
    pub fn public_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None if self.listen.ip().is_unspecified() => {
                format!("http://localhost:{}", self.listen.port())
            }
            None => format!("http://{}", self.listen),
        }
    }

    pub fn static_dir(&self) -> PathBuf {
        if let Some(dir) = &self.static_dir {
            return dir.clone();
        }
        let local = PathBuf::from("static");
        if local.join("index.html").exists() {
            local
        } else {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../static"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use clap::error::ErrorKind;

    #[derive(Debug, Parser)]
    struct Flags {
        #[command(flatten)]
        serve: ServeConfig,
    }

    fn parse(args: &[&str]) -> Result<ServeConfig, clap::Error> {
        Flags::try_parse_from(std::iter::once("ludus").chain(args.iter().copied()))
            .map(|flags| flags.serve)
    }

    #[test]
    fn a_setting_under_which_the_server_could_not_serve_is_refused_at_start() {
        for args in [
            ["--connections-per-address", "0"],
            ["--create-per-minute", "0"],
            ["--join-per-minute", "0"],
            ["--sign-in-per-minute", "0"],
            ["--hints-per-minute", "0"],
            ["--socket-messages-per-second", "0"],
            ["--header-read-timeout-secs", "0"],
            ["--write-timeout-secs", "0"],
            ["--invite-expiry-secs", "0"],
            ["--claim-after-timed-secs", "0"],
            ["--database-connections", "0"],
            ["--database-connections", "5"],
            ["--public-url", "notaurl"],
            ["--public-url", "https://"],
            ["--public-url", "https://ludus.example.org/sub/path"],
            ["--public-url", "https://:::"],
            ["--public-url", "https://ludus.example.org:99999"],
            ["--public-url", "https://ludus.example.org:"],
            ["--public-url", "https://[::1"],
            ["--database-url", "sqlite://"],
            ["--database-url", "sqlite:?mode=memory"],
            ["--header-read-timeout-secs", "18446744073709551615"],
            ["--write-timeout-secs", "31536001"],
            ["--invite-expiry-secs", "9223372036854775"],
            ["--claim-after-untimed-secs", "31536001"],
            ["--computer-delay-ms", "3600001"],
        ] {
            let refused = parse(&args).expect_err(&format!("{args:?} is refused"));
            assert_eq!(refused.kind(), ErrorKind::ValueValidation, "{args:?}");
        }
        let config = parse(&[
            "--database-connections",
            "8",
            "--connections-per-address",
            "1",
            "--public-url",
            "https://ludus.example.org/",
        ])
        .expect("the smallest working values");
        assert_eq!(config.database_connections, 8);
        assert_eq!(config.connections_per_address, 1);
        assert_eq!(config.public_url(), "https://ludus.example.org");
        for url in [
            "http://127.0.0.1:8080",
            "https://[2001:db8::1]:8443",
            "http://[::1]",
            "https://ludus.example.org:443/",
        ] {
            let config = parse(&["--public-url", url, "--invite-expiry-secs", "31536000"])
                .unwrap_or_else(|e| panic!("{url}: {e}"));
            assert_eq!(config.public_url(), url.trim_end_matches('/'));
        }
    }
}
