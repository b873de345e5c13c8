//! What is said to a game's actor and what it answers: the commands of the API, the actions of a
//! seat, and what sockets receive.

use super::super::Seat;
use super::super::error::GameError;
use super::super::event::{GameEvent, VersionedEvent};
use super::super::instance::PresenceMessage;
use super::super::view::Snapshot;
use ludus_engine::Side;
use ludus_store::SecretHash;
use std::sync::Arc;
use tokio::sync::{broadcast, oneshot};

/// What a socket receives from its game.
#[derive(Debug)]
pub enum Published {
    /// An event of the log, with the game after its batch.
    Event {
        version: u64,
        /// An undo: moves were taken back.
        takes_back: bool,
        /// The event as clients receive it, written once for every socket and stream (shared
        /// with the rest of the item: kept as written, not copied into a text of its own).
        json: String,
        snapshot: Arc<Snapshot>,
    },
    /// A player connected or left: views change, the version does not.
    Presence { snapshot: Arc<Snapshot> },
}

/// A request on behalf of a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Move {
        text: String,
        version: u64,
        id: Option<String>,
    },
    Resign,
    Draw,
    DrawDecline,
    Undo,
    UndoAccept,
    UndoDecline,
    Abort,
    Claim,
    /// With the asker's entropy (docs/RULES.md §4): an offer's becomes the rematch's creator
    /// entropy, an accept's its joiner entropy.
    Rematch {
        entropy: String,
    },
    RematchDecline,
}

impl Published {
    /// `event`, whose JSON as clients receive it is `json`.
    pub fn event(event: &VersionedEvent, json: String, snapshot: Arc<Snapshot>) -> Published {
        Published::Event {
            version: event.version,
            takes_back: matches!(event.event, GameEvent::Undo { .. }),
            json,
            snapshot,
        }
    }
}

/// How the actor answered an action.
#[derive(Debug, Clone)]
pub struct Acted {
    /// The version after the action (for a resent move id, after its first answer).
    pub version: u64,
    pub seat: Seat,
    /// The game as it stood after the action.
    pub snapshot: Arc<Snapshot>,
}

impl Acted {
    /// The game view for the seat that acted. Rendered on demand: an HTTP answer needs it, a
    /// WebSocket acknowledgement does not (the event brings the view).
    pub fn view(&self, now: i64) -> String {
        self.snapshot.render_text(self.seat, now)
    }
}

/// What a hint is searched from: the game at one version, and the seed of that version.
#[derive(Debug)]
pub struct Hinted {
    pub engine: ludus_engine::AnyGame,
    pub version: u64,
    pub seed: u64,
}

/// A socket's start: who it is, the current view, what it missed, and the stream after that.
#[derive(Debug)]
pub struct Subscription {
    pub seat: Seat,
    pub snapshot: Arc<Snapshot>,
    pub missed: Vec<VersionedEvent>,
    pub events: broadcast::Receiver<Arc<Published>>,
}

/// Redeems the invite for the seat `seat`; or, when the caller presents a token of this game
/// (`presented`), answers with that token's side and redeems nothing.
#[derive(Debug)]
pub struct Join {
    pub invite: SecretHash,
    pub presented: Option<SecretHash>,
    pub seat: SecretHash,
    pub entropy: String,
    /// The joiner's account, when identified: it holds the seat from the join's commit on.
    pub account: Option<String>,
    /// The joiner's side.
    pub reply: Reply<Side>,
}

/// The answer channel of a command.
pub type Reply<T> = oneshot::Sender<Result<T, GameError>>;

#[derive(Debug)]
pub enum Command {
    Subscribe {
        /// The hash of the seat token presented, if any (none: a spectator).
        token: Option<SecretHash>,
        since: Option<u64>,
        reply: Reply<Subscription>,
    },
    /// A socket or stream closed, or a socket whose hello promised a heartbeat went quiet: it no
    /// longer keeps its player present.
    Unsubscribe {
        seat: Seat,
        /// When the socket or stream was last heard from (the registry's clock).
        last_heard: i64,
    },
    /// A socket counted out as quiet spoke again: it keeps its player present once more.
    Spoke {
        seat: Seat,
    },
    /// The game view (JSON text) for the token's seat.
    View {
        token: Option<SecretHash>,
        /// Whether the request counts as its player's presence (a join's own answer does not:
        /// the join is the sign of life, at the start).
        presence: bool,
        reply: Reply<String>,
    },
    Events {
        /// A seat token's hash: the request counts as its player's presence.
        token: Option<SecretHash>,
        since: u64,
        /// At most this many events.
        limit: usize,
        reply: Reply<Vec<VersionedEvent>>,
    },
    /// Boxed, as `Join`: every actor's queue holds blocks of 32 commands from the start, each
    /// the size of the largest.
    Act {
        token: SecretHash,
        action: Box<Action>,
        reply: Reply<Acted>,
    },
    Join(Box<Join>),
    Record {
        reply: Reply<String>,
    },
    /// The position to search for a hint, if the seat may have one.
    Hint {
        token: Option<SecretHash>,
        reply: Reply<Hinted>,
    },
    /// The computer's search finished: its move, for the version it searched.
    ComputerMove {
        version: u64,
        notation: String,
    },
    /// Another instance appended to the game's log, up to `seq` (none: maybe; look).
    CatchUp {
        seq: Option<i64>,
    },
    /// This instance now runs the game's timers (or no longer does).
    Lead(bool),
    /// What another instance says of who is connected to the game through it (boxed: it is the
    /// largest command, and the queue's blocks are sized by the largest).
    Presence(Box<PresenceMessage>),
    /// An instance left: who was connected through it is gone.
    InstanceGone {
        instance: String,
    },
    /// The instance shuts down; `pause_clocks` when no other instance will serve the game.
    Stop {
        pause_clocks: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::Command;

    /// An actor's queue allocates blocks of 32 commands, each the size of the largest, for every
    /// live game: a large variant belongs in a box.
    #[test]
    fn a_command_stays_small() {
        let size = std::mem::size_of::<Command>();
        assert!(size <= 64, "Command is {size} bytes");
    }
}
