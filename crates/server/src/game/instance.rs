//! This instance among others on one Postgres database: its id, the games in play it owns (whose
//! timers it runs: flags, the computer's moves) and the presence it tells the others. The store
//! holds the truth (`games.owner`, the instances' heartbeats); this is the instance's copy, kept
//! by `cluster` (which sweeps, heartbeats and listens) and read by the actors. On SQLite there is
//! none: one instance owns everything.

use super::GameId;
use ludus_store::PresenceSender;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug)]
pub struct Instance {
    id: String,
    /// A std mutex: held only to read or change the set, never across an await.
    owned: Mutex<HashSet<GameId>>,
    /// Orders this instance's presence reports.
    stamps: AtomicU64,
    presence: PresenceSender,
}

/// Who is connected to one game through one instance: what it tells the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceReport {
    /// Open sockets and event streams per player.
    pub sockets: [u32; 2],
    pub spectators: u32,
    pub last_request: [Option<i64>; 2],
    pub left_at: [i64; 2],
}

/// What goes over the presence channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PresenceMessage {
    /// An instance's presence in a game; `stamp` orders its reports.
    Report {
        instance: String,
        game: GameId,
        stamp: u64,
        presence: PresenceReport,
    },
    /// An instance just loaded the game: the others report again.
    Ask { instance: String, game: GameId },
}

impl Instance {
    /// A new instance, with an id of its own (random: a restarted process is a new instance),
    /// that tells the others through `presence`.
    pub fn new(presence: PresenceSender) -> Instance {
        Instance {
            id: super::token::random_text(16),
            owned: Mutex::default(),
            stamps: AtomicU64::new(0),
            presence,
        }
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn owns(&self, game: &GameId) -> bool {
        self.owned.lock().expect("owned games").contains(game)
    }

    /// This instance now owns `game` (it created it or took it over).
    pub fn gain(&self, game: &GameId) {
        self.owned.lock().expect("owned games").insert(game.clone());
    }

    /// The game ended: nothing of it needs an owner any more.
    pub fn release(&self, game: &GameId) {
        self.owned.lock().expect("owned games").remove(game);
    }

    /// Replaces the owned set with what the store says (after a lapse of this instance's
    /// heartbeat); returns the games it no longer owns.
    pub fn reset(&self, owned: Vec<GameId>) -> Vec<GameId> {
        let owned: HashSet<GameId> = owned.into_iter().collect();
        let mut mine = self.owned.lock().expect("owned games");
        let lost = mine.difference(&owned).cloned().collect();
        *mine = owned;
        lost
    }

    pub fn next_stamp(&self) -> u64 {
        self.stamps.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Tells every instance (this one too) what `message` says, without waiting.
    pub fn say(&self, message: &PresenceMessage) {
        let payload = serde_json::to_string(message).expect("a presence message serialises");
        self.presence.send(payload);
    }
}

impl PresenceMessage {
    /// The instance that sent the message.
    pub fn instance(&self) -> &str {
        match self {
            PresenceMessage::Report { instance, .. } | PresenceMessage::Ask { instance, .. } => {
                instance
            }
        }
    }

    /// The game the message is about.
    pub fn game(&self) -> &GameId {
        match self {
            PresenceMessage::Report { game, .. } | PresenceMessage::Ask { game, .. } => game,
        }
    }
}
