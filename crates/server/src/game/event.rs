//! The one event shape: what the log stores, the WebSocket and the HTTP stream send, and replay
//! reads. Sides appear by name; a stored event never holds a secret (the server seed appears
//! only in `finished`, when it is revealed).

use super::GameId;
use super::json::Fields;
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
    /// The clocks start, or resume after `clocks_paused`; the side to move runs.
    ClockStarted {
        #[schema(value_type = Object)]
        clocks: ClockReading,
    },
    /// No server serves the game in play (the last one shut down; or it crashed, and `clocks`
    /// are then the readings when it was last known alive): neither clock runs until a server
    /// serves the game again and `clock_started` resumes them, so the downtime is charged to no one.
    ClocksPaused {
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
    /// `side` called the game off; null when no one did: an invite expired, or the time ran out
    /// of `absent`, a player not seen since the game began (a challenger away at the accept).
    Aborted {
        #[schema(value_type = Option<String>)]
        side: Option<Side>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<String>)]
        absent: Option<Side>,
    },
    /// Online, after the end: `side` offers a rematch; the opponent's rematch accepts it. A dice
    /// game's offer carries the rematch's commitment, published before the accept adds the other
    /// player's entropy (docs/RULES.md §4); none in offers made before it did.
    RematchOffered {
        #[schema(value_type = String)]
        side: Side,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commitment: Option<String>,
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

impl GameEvent {
    /// Whether the event leaves the board (the position, the dice and the side to move) as it
    /// was: a move chosen before it still means what it meant.
    pub fn leaves_board(&self) -> bool {
        match self {
            GameEvent::Joined { .. }
            | GameEvent::ClockStarted { .. }
            | GameEvent::ClocksPaused { .. }
            | GameEvent::DrawOffered { .. }
            | GameEvent::DrawDeclined { .. }
            | GameEvent::UndoOffered { .. }
            | GameEvent::UndoDeclined { .. }
            | GameEvent::RematchOffered { .. }
            | GameEvent::RematchDeclined { .. } => true,
            GameEvent::Roll { .. }
            | GameEvent::Move { .. }
            | GameEvent::Undo { .. }
            | GameEvent::Finished { .. }
            | GameEvent::Aborted { .. }
            | GameEvent::Rematch { .. } => false,
        }
    }
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

/// The JSON `event` is stored as: the text serde writes for it. A move, the event written at
/// every move, is written directly (see `json`): serde writes a tagged enum field by field
/// through a map, and that was most of writing a move's row.
fn stored_json(event: &GameEvent) -> String {
    let GameEvent::Move {
        side,
        notation,
        automatic,
        clocks,
        checked: _,
    } = event
    else {
        return serde_json::to_string(event).expect("events serialise");
    };
    let mut json = String::with_capacity(96);
    json.push('{');
    let mut fields = Fields::new(&mut json, true);
    fields.text("kind", "move");
    fields.text("side", side.name());
    fields.text("move", notation);
    if *automatic {
        fields.boolean("automatic", true);
    }
    if let Some(clocks) = clocks {
        fields.object("clocks", |fields| {
            for (side, ms) in clocks {
                fields.integer(side.name(), *ms);
            }
        });
    }
    json.push('}');
    json
}

/// The stored rows of a batch of events that follows version `before`; the first row carries the
/// client's move id, if any.
pub fn event_rows(
    batch: &[GameEvent],
    before: u64,
    at: i64,
    move_id: Option<&str>,
) -> Vec<ludus_store::EventRow> {
    let last = batch.len().saturating_sub(1);
    batch
        .iter()
        .enumerate()
        .map(|(i, event)| ludus_store::EventRow {
            seq: (before + 1 + i as u64) as i64,
            at,
            body: stored_json(event),
            // On the batch's last row: its seq is the version the move was acknowledged with
            // (the move and what followed it, a roll), which a resent id is answered with again.
            move_id: if i == last {
                move_id.map(String::from)
            } else {
                None
            },
        })
        .collect()
}

/// The JSON clients receive for each of the stored `rows` (see `VersionedEvent::json_from_body`).
pub fn clients_json(rows: &[ludus_store::EventRow]) -> Vec<String> {
    rows.iter()
        .map(|row| VersionedEvent::json_from_body(row.seq as u64, row.at, &row.body))
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

impl VersionedEvent {
    /// The event as clients receive it, written from its stored JSON `body` (the `GameEvent`'s
    /// text, as `event_rows` writes it): the text serde writes for the `VersionedEvent`, without
    /// serialising the event a second time at every move (flattened, serde writes it field by
    /// field through a map).
    pub fn json_from_body(version: u64, at: i64, body: &str) -> String {
        let fields = body
            .strip_prefix('{')
            .expect("an event's JSON is an object with its kind");
        // Room for both numbers at their longest, so the text is never moved while written.
        let mut json = String::with_capacity(64 + body.len());
        json.push_str(r#"{"version":"#);
        json.push_str(itoa::Buffer::new().format(version));
        json.push_str(r#","at":"#);
        json.push_str(itoa::Buffer::new().format(at));
        json.push(',');
        json.push_str(fields);
        json
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_stored_as_serde_writes_it() {
        let mut clocks = ClockReading::new();
        clocks.insert(Side::White, 1_000);
        clocks.insert(Side::Black, 0);
        for automatic in [false, true] {
            for clocks in [None, Some(clocks.clone())] {
                let event = GameEvent::Move {
                    side: Side::Black,
                    notation: "3/5 19/22".into(),
                    automatic,
                    clocks,
                    checked: Checked::default(),
                };
                assert_eq!(stored_json(&event), serde_json::to_string(&event).unwrap());
            }
        }
    }

    #[test]
    fn the_event_clients_receive_is_written_from_its_stored_json() {
        let mut clocks = ClockReading::new();
        clocks.insert(Side::Light, 59_000);
        clocks.insert(Side::Dark, 60_000);
        let events = [
            GameEvent::Move {
                side: Side::Light,
                notation: "A1-A2".into(),
                automatic: true,
                clocks: Some(clocks.clone()),
                checked: Checked::default(),
            },
            GameEvent::ClockStarted { clocks },
            GameEvent::Roll {
                side: Side::White,
                dice: vec![3, 1, 6],
            },
            GameEvent::Finished {
                winner: Some(Side::Dark),
                termination: Termination::Timeout,
                server_seed: Some("00ff".into()),
            },
            GameEvent::Aborted {
                side: None,
                absent: Some(Side::White),
            },
            GameEvent::Rematch {
                game_id: "g1".parse().unwrap(),
            },
        ];
        for (version, event) in (1..).zip(events) {
            let rows = event_rows(std::slice::from_ref(&event), version - 1, 1_700, None);
            let versioned = VersionedEvent {
                version,
                at: 1_700,
                event,
            };
            assert_eq!(
                clients_json(&rows),
                [serde_json::to_string(&versioned).unwrap()]
            );
        }
    }

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
