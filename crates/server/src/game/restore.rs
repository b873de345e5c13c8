//! A game rebuilt from the store: its row and every event of its log replayed through the pure
//! core. What the registry loads an actor from, and what an actor reloads after a conflict.

use super::error::{GameError, ReplayError};
use super::event::{GameEvent, VersionedEvent};
use super::live::{Creation, LiveGame};
use super::services::Services;
use super::{GameId, Mode, Settings};
use ludus_store::{EventRow, GameRow, SecretHash};

/// The version each client move id was answered with, by the id scoped to its seat. Hashed with
/// foldhash's quality hasher, seeded per process: the ids are the clients', a game holds at most
/// one per move, and std's SipHash cost several times as much at every move.
pub type MoveAnswers = std::collections::HashMap<String, u64, foldhash::quality::RandomState>;

/// A game's state rebuilt from its stored row and events.
#[derive(Debug)]
pub struct Restored {
    pub game: LiveGame,
    pub seats: [Option<SecretHash>; 2],
    pub log: Vec<VersionedEvent>,
    pub move_answers: MoveAnswers,
}

/// Rebuilds a game from the store; `NoGame` if there is none with this id.
pub async fn restore(services: &Services, game_id: &GameId) -> Result<Restored, GameError> {
    let row = services
        .store
        .load_game(game_id)
        .await?
        .ok_or(GameError::NoGame)?;
    let events = services.reader.events_since(game_id, 0).await?;
    replay(row, &events).map_err(|source| GameError::Replay {
        game: game_id.clone(),
        source,
    })
}

fn replay(row: GameRow, events: &[EventRow]) -> Result<Restored, ReplayError> {
    let settings: Settings = serde_json::from_str(&row.settings).map_err(ReplayError::Settings)?;
    if row.mode == Mode::Computer && settings.level.is_none() {
        return Err(ReplayError::NoLevel);
    }
    let mut game = LiveGame::new(Creation {
        id: row.id,
        variant: row.variant,
        mode: row.mode,
        settings,
        server_seed: row.server_seed,
        creator_entropy: row.creator_entropy,
        joiner_entropy: row.joiner_entropy,
        created_at: row.created_at,
        // Both seats filled without an invite: a game on one screen, against the computer, or a rematch.
        seated: row.mode != Mode::Online
            || (row.seats.iter().all(Option::is_some) && !row.invite_redeemed),
    });
    let mut log = Vec::with_capacity(events.len());
    let mut move_answers = MoveAnswers::default();
    for stored in events {
        let event: GameEvent =
            serde_json::from_str(&stored.body).map_err(|source| ReplayError::Event {
                seq: stored.seq,
                source,
            })?;
        game.apply(&event, stored.at)?;
        if let Some(id) = &stored.move_id {
            move_answers.insert(id.clone(), stored.seq as u64);
        }
        log.push(VersionedEvent {
            version: stored.seq as u64,
            at: stored.at,
            event,
        });
    }
    Ok(Restored {
        game,
        seats: row.seats,
        log,
        move_answers,
    })
}
