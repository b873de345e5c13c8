//! One actor per live game: a tokio task that owns the game's state, its clocks and its broadcast
//! channel. Commands arrive in order on an mpsc channel; each is checked against the state, its
//! events are committed to the store, and only then applied, acknowledged and broadcast. Nothing
//! else writes a game. Subscribing happens inside the actor, so a snapshot and the stream after it
//! never miss or repeat an event.
//!
//! One concern per file: `protocol` (what is said to an actor), `run` (the loop and the reads),
//! `write` (the write path: commit, join, rematch), `computer` (the computer's turns).

mod computer;
mod peers;
mod protocol;
mod run;
mod write;

pub use protocol::{Acted, Action, Command, Hinted, Join, Published, Subscription};

/// Where a game's actor hears its commands; cheap to clone. The commands wait in the queue
/// boxed: tokio's channel allocates room for its messages 32 at a time and keeps the blocks for
/// the channel's life (a busy game two), ~1.8 KB each with the commands inline, ~300 bytes with
/// a pointer each.
#[derive(Clone, Debug)]
pub struct Mailbox(mpsc::Sender<Box<Command>>);

impl Mailbox {
    /// Waits for room in the queue; fails once the actor has stopped.
    pub async fn send(&self, command: Command) -> Result<(), GameError> {
        self.0
            .send(Box::new(command))
            .await
            .map_err(|_| GameError::Stopped)
    }

    /// Without waiting: a full queue hands the command to a task that waits for room.
    pub fn tell(&self, command: Command) {
        if let Err(mpsc::error::TrySendError::Full(command)) = self.0.try_send(Box::new(command)) {
            let queue = self.0.clone();
            tokio::spawn(async move { queue.send(command).await });
        }
    }

    /// A seat's action, answered once it is decided and committed. A socket acts through the
    /// mailbox it subscribed with (the actor cannot stop while the socket is subscribed) rather
    /// than looking the game up for every move.
    pub async fn act(&self, token: &SecretHash, action: Action) -> Result<Acted, GameError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Command::Act {
            token: token.clone(),
            action: Box::new(action),
            reply,
        })
        .await?;
        answer.await.map_err(|_| GameError::Stopped)?
    }

    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }

    /// Once the actor has stopped.
    pub async fn closed(&self) {
        self.0.closed().await
    }
}

/// What a player did that tells whether they are present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Touch {
    /// An authenticated request.
    Request,
    /// A socket or event stream opened.
    Opened,
    /// A socket or event stream closed, last heard from at `last_heard`: a link that died
    /// without a word is closed only once found silent, and its player was gone from then.
    Closed { last_heard: i64 },
}

use super::error::GameError;
use super::event::VersionedEvent;
use super::instance::PresenceReport;
use super::live::LiveGame;
use super::restore::{MoveAnswers, Restored};
use super::services::Services;
use super::view::{MoveList, Presence, Snapshot};
use ludus_store::SecretHash;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// An actor with no sockets, no running clock and no command for this long stops; the next
/// command rebuilds it from the store.
const IDLE_AFTER: Duration = Duration::from_secs(300);
/// A finished game's actor stops sooner: little more is asked of it (a rematch, a last look),
/// and a long game's state is not worth holding for minutes.
const FINISHED_IDLE_AFTER: Duration = Duration::from_secs(10);
/// Events a slow socket may fall behind before it is resynchronised with a snapshot. The channel
/// holds this many slots from the start, in every live game: 256 cost ~10 KB a game.
pub const BROADCAST_CAPACITY: usize = 16;

/// How often a change of the spectators' count alone is told to every socket: a crowd coming and
/// going (or a client reconnecting in a loop) would otherwise send each socket a whole view at
/// each arrival.
const SPECTATORS_TOLD_EVERY: Duration = Duration::from_secs(1);

/// Called once when an actor stops (the registry forgets its handle).
pub type OnStop = Box<dyn FnOnce() + Send>;

pub struct GameActor {
    game: LiveGame,
    seats: [Option<SecretHash>; 2],
    log: Vec<VersionedEvent>,
    move_answers: MoveAnswers,
    snapshot: Arc<Snapshot>,
    /// The moves' JSON for the snapshots, kept up to date with the game.
    move_list: MoveList,
    events: broadcast::Sender<Arc<Published>>,
    presence: Presence,
    services: Arc<Services>,
    commands: mpsc::Receiver<Box<Command>>,
    me: mpsc::WeakSender<Box<Command>>,
    /// The flag is not raised before this time (a grace period after a restart).
    flag_not_before: i64,
    /// Whether this instance runs the game's timers: the flag, the computer's moves (always on
    /// SQLite; on Postgres, when it owns the game).
    leads: bool,
    /// Who is connected through the other instances, by instance: the latest report's stamp
    /// and the report.
    remote_presence: HashMap<String, (u64, PresenceReport)>,
    /// Spectators' comings and goings are told at most once a [`SPECTATORS_TOLD_EVERY`]: until
    /// this instant a change of their count alone waits, and `spectators_untold` says one did.
    spectators_quiet_until: Option<tokio::time::Instant>,
    spectators_untold: bool,
    /// A commit failed in a way that may have landed all the same (its answer lost with the
    /// connection): the actor looks at the log once the request has its answer (`run`).
    log_unsure: bool,
    /// The store knows this game against the computer was played with help (`mark_assisted`).
    assisted: bool,
    /// The version applied and published, or being committed, for the registry (shared with
    /// the game's slot): see `commit`.
    known_version: Arc<AtomicU64>,
}

impl std::fmt::Debug for GameActor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameActor")
            .field("game", &self.game.id)
            .field("version", &self.game.version)
            .finish()
    }
}

/// How a game came to its actor.
#[derive(Clone, Copy, Debug)]
pub enum Arrival {
    /// Just made: its players were last seen when it was made.
    Created,
    /// Loaded from the store: its players count as seen now (a restart does not make them
    /// absent at once), and its flag waits until `flag_not_before` (a restart's grace).
    Loaded { flag_not_before: i64 },
}

impl GameActor {
    /// Starts the actor of a restored game; `on_stop` runs when it stops.
    pub fn spawn(
        restored: Restored,
        services: Arc<Services>,
        arrival: Arrival,
        known_version: Arc<AtomicU64>,
        on_stop: OnStop,
    ) -> Mailbox {
        let (sender, commands) = mpsc::channel(64);
        let (events, _) = broadcast::channel(BROADCAST_CAPACITY);
        let (seen_at, flag_not_before) = match arrival {
            Arrival::Created => (restored.game.created_at, 0),
            Arrival::Loaded { flag_not_before } => (services.clock.now_ms(), flag_not_before),
        };
        let window = services.config.claim_window(restored.game.clocks.is_some());
        let presence = Presence::new(seen_at, window.as_millis() as i64);
        let services_leads = services.leads(&restored.game.id);
        let mut move_list = MoveList::default();
        move_list.update(&restored.game);
        known_version.store(restored.game.version, Ordering::Release);
        // Boxed: the task's future then holds a pointer, where inline it held the actor twice
        // (captured, and inside `run`'s future).
        let actor = Box::new(GameActor {
            snapshot: Snapshot::of(&restored.game, &move_list, presence),
            move_list,
            game: restored.game,
            seats: restored.seats,
            log: restored.log,
            move_answers: restored.move_answers,
            events,
            presence,
            services,
            commands,
            me: sender.downgrade(),
            flag_not_before,
            leads: services_leads,
            remote_presence: HashMap::new(),
            spectators_quiet_until: None,
            spectators_untold: false,
            log_unsure: false,
            assisted: false,
            known_version,
        });
        tokio::spawn(async move {
            actor.ask_presence();
            actor.run().await;
            on_stop();
        });
        Mailbox(sender)
    }
}
