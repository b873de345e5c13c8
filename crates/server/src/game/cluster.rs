//! Several instances on one Postgres database, beside the registry: the instance's heartbeat,
//! the sweep that takes over the games of instances gone, and the one listening connection that
//! wakes the actors when another instance appended to their game's log.
//!
//! Why it is correct when instances race: every write is a conditional append (a version is
//! taken once, a status changes from an expected one), so any instance may decide a command; the
//! loser of a race catches up from the log and decides again. The notifications are only
//! wake-ups: an actor reads the log after the version it knows, so a lost or repeated
//! notification can delay an event but never drop or double it. Ownership only says which
//! instance runs a game's timers; two owners at once (a lapse) would still raise a flag once.

use super::actor::Command;
use super::error::error_chain;
use super::registry::Registry;
use ludus_store::Notification;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

/// How often an instance renews its life and looks for games without a live owner: well within
/// the five seconds after which it counts as gone.
const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// Starts the heartbeat, the sweep and the listener, on Postgres (none on SQLite). The task
/// returned ends after `shutdown`, once the instance has released its games to the others.
pub fn start(registry: Registry, shutdown: watch::Receiver<bool>) -> Option<JoinHandle<()>> {
    registry.services().instance.as_ref()?;
    let sweep_now = Arc::new(Notify::new());
    // Stopped with this task, also when it is aborted: the listener holds one of the pool's
    // connections, and closing the pool waits for every connection to come back.
    let listener = AbortOnDrop(tokio::spawn(listen(registry.clone(), sweep_now.clone())));
    Some(tokio::spawn(async move {
        keep_alive(&registry, &sweep_now, shutdown).await;
        drop(listener);
        let instance = registry
            .services()
            .instance
            .as_ref()
            .expect("checked above");
        match registry.store().release_instance(instance.id()).await {
            Ok(()) => tracing::info!("released this instance's games to the others"),
            Err(error) => {
                tracing::warn!(error = %error_chain(&error), "could not release this instance's games: they pass on when its heartbeat lapses")
            }
        }
    }))
}

/// A task that stops when its handle is dropped.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Every second until shutdown (or at once when an instance leaves): renew this instance's
/// life, take over the games no live instance owns, and forget the presence of instances gone.
async fn keep_alive(registry: &Registry, sweep_now: &Notify, mut shutdown: watch::Receiver<bool>) {
    let instance = registry.services().instance.clone().expect("an instance");
    let store = registry.store().clone();
    let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut alive: HashSet<String> = HashSet::new();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = sweep_now.notified() => {}
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
        match store.heartbeat(instance.id()).await {
            Ok(true) => {}
            // The heartbeat had lapsed: another instance may have taken some games.
            Ok(false) => match store.owned_games(instance.id()).await {
                Ok(owned) => registry.lost(&instance.reset(owned)),
                Err(error) => {
                    tracing::warn!(error = %error_chain(&error), "could not read the games owned");
                    continue;
                }
            },
            Err(error) => {
                tracing::warn!(error = %error_chain(&error), "could not renew this instance's heartbeat");
                continue;
            }
        }
        match store.take_over_games(instance.id()).await {
            Ok(ids) if ids.is_empty() => {}
            Ok(ids) => {
                tracing::info!(games = ids.len(), "took over games whose instance is gone");
                if let Err(error) = registry.take_over(&ids).await {
                    tracing::warn!(error = %error_chain(&error), "could not load games taken over");
                }
            }
            Err(error) => {
                tracing::warn!(error = %error_chain(&error), "could not look for games to take over")
            }
        }
        if let Ok(now_alive) = store.alive_instances().await {
            let now_alive: HashSet<String> = now_alive.into_iter().collect();
            for gone in alive.difference(&now_alive) {
                registry.tell_all(|| Command::InstanceGone {
                    instance: gone.clone(),
                });
            }
            alive = now_alive;
        }
    }
}

/// The listening connection: wakes the actors of games another instance appended to, hands
/// presence reports to them, and sweeps at once when an instance leaves. After the connection
/// is lost and made again, every loaded game catches up (notifications sent meanwhile are lost).
async fn listen(registry: Registry, sweep_now: Arc<Notify>) {
    loop {
        let mut listener = match registry.store().listen().await {
            Ok(listener) => listener,
            Err(error) => {
                tracing::warn!(error = %error_chain(&error), "could not listen for other instances' commits");
                tokio::time::sleep(HEARTBEAT_EVERY).await;
                continue;
            }
        };
        registry.tell_all(|| Command::CatchUp { seq: None });
        loop {
            match listener.next().await {
                Ok(Some(notification)) => heard(&registry, &sweep_now, notification).await,
                Ok(None) => registry.tell_all(|| Command::CatchUp { seq: None }),
                Err(error) => {
                    tracing::warn!(error = %error_chain(&error), "lost the listening connection");
                    tokio::time::sleep(HEARTBEAT_EVERY).await;
                    break;
                }
            }
        }
    }
}

async fn heard(registry: &Registry, sweep_now: &Notify, notification: Notification) {
    match notification {
        Notification::Appended(appended) => {
            for (game_id, seq) in appended.games() {
                registry.appended(game_id, seq).await;
            }
        }
        Notification::InstanceGone { instance } => {
            sweep_now.notify_one();
            registry.tell_all(|| Command::InstanceGone {
                instance: instance.clone(),
            });
        }
        Notification::Presence { payload } => {
            let Ok(message) = serde_json::from_str::<super::instance::PresenceMessage>(&payload)
            else {
                return;
            };
            // This instance's own reports come back too: its actors know them already.
            let mine = registry.services().instance.as_ref().map(|i| i.id());
            if mine == Some(message.instance()) {
                return;
            }
            let game = message.game().clone();
            registry.tell(&game, Command::Presence(Box::new(message)));
        }
    }
}
