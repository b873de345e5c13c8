//! The one event shape: what the log stores, the WebSocket and the HTTP stream send, and replay
//! reads. Sides appear by name; a stored event never holds a secret (the server seed appears
//! only in `finished`, when it is revealed).

use super::GameId;
use ludus_engine::{AnyMove, Side, Termination};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Each player's remaining time in milliseconds at the moment of an event.
pub type ClockReading = BTreeMap<Side, i64>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameEvent {
    /// The invited player took the other seat.
    Joined {
        #[schema(value_type = String)]
        side: Side,
    },
    /// The clocks start; the side to move runs first.
    ClockStarted {
        #[schema(value_type = Object)]
        clocks: ClockReading,
    },
    /// The server rolled the dice for `side` (docs/RULES.md §4).
    Roll {
        #[schema(value_type = String)]
        side: Side,
        dice: Vec<u8>,
    },
    Move {
        #[schema(value_type = String)]
        side: Side,
        #[serde(rename = "move")]
        notation: String,
        /// Played by the server because it held no choice (a forced pass, a decline of unplayable bonus dice).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        automatic: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<Object>)]
        clocks: Option<ClockReading>,
        /// The move as the server read and checked it when it decided this event.
        #[serde(skip)]
        #[schema(ignore)]
        checked: Checked,
    },
    DrawOffered {
        #[schema(value_type = String)]
        side: Side,
    },
    DrawDeclined {
        #[schema(value_type = String)]
        side: Side,
    },
    /// Online: `side` asks to take back its last move; the opponent accepts or declines.
    UndoOffered {
        #[schema(value_type = String)]
        side: Side,
    },
    UndoDeclined {
        #[schema(value_type = String)]
        side: Side,
    },
    /// Play went back: only the first `keep` actions (rolls and moves) remain. Time is not given back.
    Undo {
        #[schema(value_type = String)]
        side: Side,
        keep: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<Object>)]
        clocks: Option<ClockReading>,
    },
    Finished {
        #[schema(value_type = Option<String>)]
        winner: Option<Side>,
        #[schema(value_type = String)]
        termination: Termination,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_seed: Option<String>,
    },
    Aborted {
        #[schema(value_type = Option<String>)]
        side: Option<Side>,
    },
    /// Online, after the end: `side` offers a rematch; the opponent's rematch accepts it.
    RematchOffered {
        #[schema(value_type = String)]
        side: Side,
    },
    RematchDeclined {
        #[schema(value_type = String)]
        side: Side,
    },
    /// A new game with the same settings and the sides swapped; the same seat tokens play it.
    Rematch {
        #[schema(value_type = String)]
        game_id: GameId,
    },
}

/// A move the server has already read from its notation and checked against the position it is
/// played in, carried with the event it decided so that applying the event does not read the
/// notation again. Never stored or sent (events read back from the log have none); equality
/// ignores it, since the notation says the same.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checked(pub Option<AnyMove>);

impl PartialEq for Checked {
    fn eq(&self, _: &Checked) -> bool {
        true
    }
}

impl Eq for Checked {}

/// The stored rows of a batch of events that follows version `before`; the first row carries the
/// client's move id, if any.
pub fn event_rows(
    batch: &[GameEvent],
    before: u64,
    at: i64,
    move_id: Option<&str>,
) -> Vec<ludus_store::EventRow> {
    batch
        .iter()
        .enumerate()
        .map(|(i, event)| ludus_store::EventRow {
            seq: (before + 1 + i as u64) as i64,
            at,
            body: serde_json::to_string(event).expect("events serialise"),
            move_id: if i == 0 {
                move_id.map(String::from)
            } else {
                None
            },
        })
        .collect()
}

/// An event with its version and time, as clients receive it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct VersionedEvent {
    pub version: u64,
    pub at: i64,
    #[serde(flatten)]
    pub event: GameEvent,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_read_back_from_their_stored_json() {
        let events = [
            GameEvent::Move {
                side: Side::Light,
                notation: "A1-A2".into(),
                automatic: false,
                clocks: None,
                checked: Checked::default(),
            },
            GameEvent::Roll {
                side: Side::White,
                dice: vec![3, 1, 6],
            },
            GameEvent::Finished {
                winner: None,
                termination: Termination::Agreement,
                server_seed: None,
            },
        ];
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            assert_eq!(serde_json::from_str::<GameEvent>(&json).unwrap(), event);
        }
        let json = serde_json::to_value(GameEvent::DrawOffered { side: Side::Dark }).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "draw_offered", "side": "dark"})
        );
    }
}
