//! `ludus serve`: connect the store, rebuild the games in progress, listen, and run until a
//! shutdown signal.

use crate::api::{ApiLimits, AppState};
use crate::config::ServeConfig;
use crate::game::registry::Registry;
use crate::game::services::GameConfig;
use crate::metrics::Metrics;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

pub async fn serve(
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    serve_on(listener, config, shutdown).await
}

/// Serves on a listener that is already bound (tests bind port 0 and read the port first).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let store = ludus_store::Store::connect(&config.database_url)
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
        ..GameConfig::default()
    };
    let registry = Registry::new(store, game_config, metrics.clone());
    let restored = registry
        .restore_in_progress()
        .await
        .map_err(|e| format!("cannot rebuild the games in progress: {e}"))?;
    let limits = ApiLimits {
        create_per_minute: config.create_per_minute,
        join_per_minute: config.join_per_minute,
        socket_messages_per_second: config.socket_messages_per_second,
        sign_in_per_minute: config.sign_in_per_minute,
        ..ApiLimits::default()
    };
    let (shutdown_sender, shutdown_receiver) = tokio::sync::watch::channel(false);
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
    let static_dir = config.static_dir();
    let app = crate::app(state.clone(), &static_dir);
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(%address, games_restored = restored, database = %redact(&config.database_url), static_dir = %static_dir.display(), "listening");
    println!("Ludus is running: open {public_url}/ (listening on {address})");
    crate::run(listener, app, state, shutdown_sender, shutdown)
        .await
        .map_err(|e| e.to_string())
}

/// A database URL without its password, for logs.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            let user = credentials.split(':').next().unwrap_or("");
            format!("{}://{user}:***{}", &url[..scheme], &url[at..])
        }
        _ => url.to_string(),
    }
}
