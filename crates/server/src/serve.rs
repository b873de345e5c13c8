//! `ludus serve`: connect the store, rebuild the games in progress, serve, and run until a
//! shutdown signal.

use crate::api::{ApiLimits, AppState};
use crate::config::{LogFormat, ServeConfig};
use crate::connections::ConnectionLimits;
use crate::game::error::{GameError, error_chain};
use crate::game::registry::Registry;
use crate::game::services::GameConfig;
use crate::metrics::Metrics;
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Serves on `listener` until `shutdown` completes: opens the store, rebuilds the games in
/// progress, serves the API and the client, and on shutdown closes sockets with a reason, lets
/// the actors finish what they hold and closes the store. Tests bind port 0 and call it too.
pub async fn run(
    listener: tokio::net::TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    // Held until the server stops: a second process on the same SQLite file refuses to start.
    let _sqlite_lock = lock_sqlite_file(&config.database_url)?;
    if let Some(path) = sqlite_file(&config.database_url) {
        create_private(path);
        warn_if_readable_by_others(path);
    }
    // Without the client there is no site to open: better not to start than to answer 404s.
    let static_dir = config.static_dir();
    if !static_dir.join("index.html").is_file() {
        return Err(format!(
            "the browser client is not in {} (no index.html): set --static-dir or LUDUS_STATIC_DIR",
            static_dir.display()
        ));
    }
    let store =
        ludus_store::Store::connect_with_pool(&config.database_url, config.database_connections)
            .await
            .map_err(|e| {
                format!(
                    "cannot open the database {}: {e}",
                    redact(&config.database_url)
                )
            })?;
    let metrics = Arc::new(Metrics::default());
    let game_config = GameConfig {
        computer_delay: Duration::from_millis(config.computer_delay_ms),
        claim_after_timed: Duration::from_secs(config.claim_after_timed_secs),
        claim_after_untimed: Duration::from_secs(config.claim_after_untimed_secs),
        invite_expiry: Duration::from_secs(config.invite_expiry_secs),
        ..GameConfig::default()
    };
    let registry = Registry::new(store, game_config, metrics.clone());
    let restored = registry
        .restore_in_progress()
        .await
        .map_err(|e| format!("cannot rebuild the games in progress: {}", error_chain(&e)))?;
    let limits = ApiLimits {
        create_per_minute: config.create_per_minute,
        join_per_minute: config.join_per_minute,
        hints_per_minute: config.hints_per_minute,
        socket_messages_per_second: config.socket_messages_per_second,
        socket_heartbeat: Duration::from_secs(config.socket_heartbeat_secs),
        connections: ConnectionLimits {
            header_read_timeout: Duration::from_secs(config.header_read_timeout_secs),
            write_timeout: Duration::from_secs(config.write_timeout_secs),
            per_address: config.connections_per_address,
            trusted_proxies: config.trusted_proxies.clone(),
            forwarded_header: config.forwarded_header,
        },
        sign_in_per_minute: config.sign_in_per_minute,
        ..ApiLimits::default()
    };
    let (shutdown_sender, shutdown_receiver) = tokio::sync::watch::channel(false);
    // Postgres: this instance among others (heartbeat, takeovers, the listening connection).
    let cluster = crate::game::cluster::start(registry.clone(), shutdown_receiver.clone());
    start_chores(
        &registry,
        Duration::from_secs(config.invite_expiry_secs),
        &shutdown_receiver,
    );
    let public_url = match &config.public_url {
        Some(_) => config.public_url(),
        None => ServeConfig {
            listen: listener.local_addr().map_err(|e| e.to_string())?,
            ..config.clone()
        }
        .public_url(),
    };
    let state = AppState::new(
        registry,
        metrics,
        public_url.clone(),
        limits,
        shutdown_receiver,
    );
    let app = crate::app(state.clone(), &static_dir);
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(%address, url = %format!("{public_url}/"), games_restored = restored, database = %redact(&config.database_url), static_dir = %static_dir.display(), "listening");
    // For the person who typed the command; a JSON log stays JSON (the line above says it).
    if config.log_format == LogFormat::Text {
        println!("Ludus is running: open {public_url}/ (listening on {address})");
    }
    serve_app(listener, app, state, shutdown_sender, shutdown, cluster)
        .await
        .map_err(|e| e.to_string())
}

/// How often a server with games loaded notes that it is alive: after a crash, at most this much
/// of the downtime is charged to the clocks that ran.
const NOTE_ALIVE_EVERY: Duration = Duration::from_secs(5);

/// The server's own chores, each now and then until shutdown: aborting the games whose invite
/// expired unused (invites expire whether or not anyone asks for their game again), and noting
/// that this server is alive while it has games loaded (so that a server started after a crash
/// knows when the games stopped being served).
fn start_chores(
    registry: &Registry,
    invite_expiry: Duration,
    shutdown: &tokio::sync::watch::Receiver<bool>,
) {
    let every = (invite_expiry / 4).clamp(Duration::from_secs(1), Duration::from_secs(3600));
    tokio::spawn(now_and_then(
        every,
        "look for expired invites",
        registry.clone(),
        shutdown.clone(),
        |registry| async move { registry.expire_invites().await.map(drop) },
    ));
    tokio::spawn(now_and_then(
        NOTE_ALIVE_EVERY,
        "note that this server is alive",
        registry.clone(),
        shutdown.clone(),
        |registry| async move { registry.note_alive().await },
    ));
}

/// Runs `chore` at once and then every `period`, until shutdown; a failure is logged (`what`
/// the chore does) and the next turn tries again.
async fn now_and_then<Chore: Future<Output = Result<(), GameError>>>(
    period: Duration,
    what: &str,
    registry: Registry,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
    chore: impl Fn(Registry) -> Chore,
) {
    let mut tick = tokio::time::interval(period);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                if let Err(error) = chore(registry.clone()).await {
                    tracing::warn!(error = %error_chain(&error), "could not {what}");
                }
            }
            _ = shutdown.changed() => return,
        }
    }
}

/// SQLite serves one instance: an exclusive lock on a file beside the database, held while the
/// server runs (the OS drops it when the process ends, even by SIGKILL). None for Postgres or an
/// in-memory database.
fn lock_sqlite_file(url: &str) -> Result<Option<std::fs::File>, String> {
    let Some(path) = sqlite_file(url) else {
        return Ok(None);
    };
    let folder = std::path::Path::new(&path)
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty());
    if let Some(folder) = folder.filter(|folder| !folder.is_dir()) {
        // Said as it is: the lock file's "No such file or directory" named a file nobody asked for.
        return Err(format!(
            "the folder of the SQLite database {path} does not exist ({}): create it, or give \
             another --database-url",
            folder.display()
        ));
    }
    let lock_path = format!("{path}.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open the lock file {lock_path}: {e}"))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "another ludus process is serving the SQLite database {path} (it holds {lock_path}): \
             SQLite serves one instance; to run several instances, use Postgres"
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {lock_path}: {e}")),
    }
}

/// Says so when the SQLite database may be read by others than its owner: a backup copied or
/// restored under a usual umask is readable by every local user, with the dice seeds of the games
/// in progress and the password hashes (from the upgrade audit). Left as it is: the file is the
/// self-hoster's.
fn warn_if_readable_by_others(path: &str) {
    #[cfg(unix)]
    if let Ok(metadata) = std::fs::metadata(path) {
        use std::os::unix::fs::PermissionsExt;
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(database = path, mode = %format!("{mode:o}"), "the SQLite database may be read by other users (it holds the dice seeds of games in progress and the password hashes): chmod 600 it");
        }
    }
}

/// Creates a new SQLite database file readable by its owner alone: it holds the dice seeds of
/// the games in progress (secret until each ends) and the accounts' password hashes. SQLite gives
/// its journal files the database's permissions. An existing file is left as it is; a path that
/// cannot be created is left for the database to report.
fn create_private(path: &str) {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let _ = options.open(path);
}

/// The file of a `sqlite:` URL as sqlx opens it: `sqlite://` then the path (so
/// `sqlite:////srv/x.db` is `/srv/x.db` and `sqlite://x.db` is relative), or `sqlite:` then the
/// path; none for another database or one in memory.
fn sqlite_file(url: &str) -> Option<&str> {
    crate::config::sqlite_path(url).filter(|path| !path.is_empty() && !path.contains(":memory:"))
}

/// A database URL without its password, for logs and errors: the one after the user
/// (`user:password@`, up to the last `@`: a password may hold `?`, `/` or `@` unencoded), and one
/// given as a parameter (`?password=…`, which Postgres's URLs take too, or a libpq connection
/// string's `password=…` word).
fn redact(url: &str) -> String {
    let (userinfo, rest) = match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = match url[scheme + 3..at].split_once(':') {
                Some((user, _password)) => format!("{user}:***"),
                None => url[scheme + 3..at].to_string(),
            };
            (format!("{}://{user}", &url[..scheme]), &url[at..])
        }
        _ => (String::new(), url),
    };
    userinfo + &hide_password_parameters(rest)
}

/// `text` with the value of every `password=` (any case) replaced, up to the next `&` or space.
fn hide_password_parameters(text: &str) -> String {
    const KEY: &str = "password=";
    let mut hidden = String::with_capacity(text.len());
    let mut rest = text;
    // Lower-casing ASCII keeps every byte where it was, so its positions are the text's.
    while let Some(at) = rest.to_ascii_lowercase().find(KEY) {
        let value = at + KEY.len();
        hidden.push_str(&rest[..value]);
        hidden.push_str("***");
        let end = rest[value..]
            .find(|c: char| c == '&' || c.is_whitespace())
            .map_or(rest.len(), |length| value + length);
        rest = &rest[end..];
    }
    hidden + rest
}

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting, closes the sockets
/// with a reason, lets the game actors finish the commands they hold, and closes the store.
async fn serve_app(
    listener: TcpListener,
    app: Router,
    state: AppState,
    shutdown_sender: tokio::sync::watch::Sender<bool>,
    shutdown: impl Future<Output = ()> + Send + 'static,
    cluster: Option<tokio::task::JoinHandle<()>>,
) -> std::io::Result<()> {
    let registry = state.registry.clone();
    let signal = async move {
        shutdown.await;
        tracing::info!("shutting down: closing sockets and finishing commands in flight");
        let _ = shutdown_sender.send(true);
    };
    // Our own accept loop: a header read timeout and a cap per address (TCP_NODELAY set there).
    let limits = state.limits.connections.clone();
    crate::connections::serve(listener, app, limits, state.metrics.clone(), signal).await;
    // WebSockets close themselves on the signal. Stop the games only once they have (or after a
    // bound), so that a socket's last word is "server shutting down", not its game going away.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while state
        .metrics
        .sockets
        .load(std::sync::atomic::Ordering::Relaxed)
        > 0
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    registry.shutdown().await;
    // The instance released its games to the others as the signal came (they take them over
    // while this one's sockets close); wait for that before the store closes.
    if let Some(mut cluster) = cluster
        && tokio::time::timeout(Duration::from_secs(5), &mut cluster)
            .await
            .is_err()
    {
        tracing::warn!(
            "shutting down: the games were not released within 5 s; the others take them when this instance's heartbeat lapses"
        );
        cluster.abort();
    }
    // Closing the pool waits for every connection lent out: bounded, so that a task that
    // still holds one cannot keep the process from exiting.
    if tokio::time::timeout(Duration::from_secs(5), registry.store().close())
        .await
        .is_err()
    {
        tracing::warn!("shutting down: a database connection was still in use after 5 s");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_url_names_the_file_sqlx_opens() {
        for (url, file) in [
            ("sqlite://ludus.db", Some("ludus.db")),
            ("sqlite:ludus.db", Some("ludus.db")),
            (
                "sqlite:///var/lib/ludus/ludus.db",
                Some("/var/lib/ludus/ludus.db"),
            ),
            ("sqlite:////srv/ludus.db", Some("//srv/ludus.db")),
            ("sqlite://ludus.db?mode=rwc", Some("ludus.db")),
            ("sqlite::memory:", None),
            ("postgres://ludus@db/ludus", None),
        ] {
            assert_eq!(sqlite_file(url), file, "{url}");
        }
    }

    #[test]
    fn a_logged_database_url_hides_only_a_password() {
        assert_eq!(
            redact("postgres://ludus:secret@db:5432/ludus"),
            "postgres://ludus:***@db:5432/ludus"
        );
        assert_eq!(
            redact("postgres://ludus@db/ludus"),
            "postgres://ludus@db/ludus"
        );
        assert_eq!(redact("sqlite://ludus.db"), "sqlite://ludus.db");
        assert_eq!(
            redact("postgres://ludus@db/ludus?sslmode=require&password=secret"),
            "postgres://ludus@db/ludus?sslmode=require&password=***"
        );
        assert_eq!(
            redact("postgres://ludus:a@db/ludus?Password=b"),
            "postgres://ludus:***@db/ludus?Password=***"
        );
        // A password with characters a URL should have encoded: all of it is hidden still (a
        // `?` in it was read as the query's start, and the password logged whole).
        assert_eq!(
            redact("postgres://ludus:Pa?Secret9@db:5432/ludus"),
            "postgres://ludus:***@db:5432/ludus"
        );
        assert_eq!(
            redact("postgres://ludus:p@ss/w@db/ludus?sslmode=require"),
            "postgres://ludus:***@db/ludus?sslmode=require"
        );
        // A libpq connection string, which the store refuses, is no URL: its password word goes.
        assert_eq!(
            redact("host=db user=ludus password=KvSecret dbname=ludus"),
            "host=db user=ludus password=*** dbname=ludus"
        );
    }
}
