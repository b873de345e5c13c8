//! The game view of API.md: what a seat (or a spectator) sees. The parts every viewer shares are
//! computed once per version (`Snapshot`); `render` adds the seat's own parts: its side, the side
//! at the bottom, its legal moves when it is to move, and whether its opponent is connected.

use super::live::LiveGame;
use super::{Mode, Seat, Status};
use ludus_engine::{Player, Side, Termination, Variant};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Who is connected: open sockets per player, and when each was last heard from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    pub sockets: [u32; 2],
    pub last_seen: [i64; 2],
}

impl Presence {
    /// A player with no socket who has not acted over HTTP for this long counts as gone.
    const HTTP_PRESENCE_MS: i64 = 30_000;

    /// How long `player` has been gone (None while connected or recently active over HTTP).
    pub fn gone_for(&self, player: Player, now: i64) -> Option<i64> {
        let i = player.index();
        let gone = now - self.last_seen[i];
        (self.sockets[i] == 0 && gone >= Self::HTTP_PRESENCE_MS).then_some(gone)
    }
}

/// What every viewer of one version of a game shares.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub game_id: String,
    pub variant: Variant,
    pub mode: Mode,
    pub status: Status,
    pub version: u64,
    pub position: String,
    pub to_move: Player,
    pub first: Player,
    pub dice: Vec<u8>,
    pub moves: Vec<String>,
    pub legal_moves: Vec<String>,
    pub clocks: Option<ClockSnapshot>,
    pub result: Option<ResultView>,
    pub draw_offer: Option<Side>,
    pub rematch: Option<String>,
    pub commitment: Option<String>,
    pub server_seed: Option<String>,
    pub level: Option<u8>,
    pub creator: Player,
    pub presence: Presence,
    /// Written once per version: the shared fields, and the legal moves as JSON.
    shared: String,
    legal_moves_json: String,
}

#[derive(Clone, Copy, Debug)]
pub struct ClockSnapshot {
    pub clocks: super::clock::GameClocks,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ResultView {
    pub winner: Option<Side>,
    pub termination: Termination,
    pub finished_at: i64,
}

impl Snapshot {
    pub fn of(game: &LiveGame, presence: Presence) -> Arc<Snapshot> {
        let dice_game = game.variant.dice_per_roll() > 0;
        let mut snapshot = Snapshot {
            game_id: game.id.clone(),
            variant: game.variant,
            mode: game.mode,
            status: game.status,
            version: game.version,
            position: game.engine.position(),
            to_move: game.engine.to_move(),
            first: game.first_player(),
            dice: game.engine.dice(),
            moves: game.moves().map(|m| m.to_string()).collect(),
            legal_moves: if game.status == Status::Playing {
                game.engine
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect()
            } else {
                Vec::new()
            },
            clocks: game.clocks.map(|clocks| ClockSnapshot { clocks }),
            result: game.result.map(|r| ResultView {
                winner: r.outcome.winner.map(|p| game.variant.side(p)),
                termination: r.outcome.termination,
                finished_at: r.finished_at,
            }),
            draw_offer: game.draw_offer.map(|p| game.variant.side(p)),
            rematch: game.rematch.clone(),
            commitment: dice_game
                .then(|| ludus_engine::dice::to_hex(&game.server_seed.commitment())),
            server_seed: game
                .revealed_seed()
                .map(|_| ludus_engine::dice::to_hex(&game.server_seed.0)),
            level: game.settings.level,
            creator: game.creator(),
            presence,
            shared: String::new(),
            legal_moves_json: String::new(),
        };
        snapshot.shared = snapshot.shared_text();
        snapshot.legal_moves_json = json!(snapshot.legal_moves).to_string();
        Arc::new(snapshot)
    }

    /// The same version with other presence.
    pub fn with_presence(&self, presence: Presence) -> Arc<Snapshot> {
        Arc::new(Snapshot {
            presence,
            ..self.clone()
        })
    }

    /// Whether the opponent of `seat` is connected (always, but in online games).
    pub fn opponent_connected(&self, seat: Seat, now: i64) -> bool {
        match seat {
            Seat::Player(p) if self.mode == Mode::Online => {
                self.presence.gone_for(p.other(), now).is_none()
            }
            _ => true,
        }
    }

    /// The view for `seat` at `now`.
    pub fn render(&self, seat: Seat, now: i64) -> Value {
        serde_json::from_str(&self.render_text(seat, now)).expect("the view is JSON")
    }

    /// The view for `seat` at `now` as JSON text: the part every viewer shares was written once
    /// for this version; only the seat's own fields and the clocks are written here.
    pub fn render_text(&self, seat: Seat, now: i64) -> String {
        let side = |p: Player| self.variant.side(p);
        let clocks = self.clocks.map_or(Value::Null, |c| {
            let remaining = c.clocks.read(now);
            let mut clocks = Map::new();
            for p in Player::BOTH {
                clocks.insert(side(p).name().into(), json!(remaining[p.index()]));
            }
            clocks.insert("running".into(), json!(c.clocks.running.map(side)));
            clocks.insert("initial_ms".into(), json!(c.clocks.settings.initial_ms));
            clocks.insert("increment_ms".into(), json!(c.clocks.settings.increment_ms));
            Value::Object(clocks)
        });
        let seat_view = match seat {
            Seat::Spectator => Value::Null,
            Seat::Player(p) => json!({ "side": side(p), "bottom": side(p) }),
            Seat::Both => {
                json!({ "side": side(Player::First), "bottom": side(Player::First), "both": true })
            }
        };
        let mut text = String::with_capacity(self.shared.len() + self.legal_moves_json.len() + 160);
        text.push_str(&self.shared);
        text.push_str(&format!(",\"clocks\":{clocks},\"seat\":{seat_view}"));
        if seat != Seat::Spectator {
            let mine = self.status == Status::Playing
                && seat.speaks_for(self.to_move)
                && self.mode_lets_seat_move(seat);
            text.push_str(",\"legal_moves\":");
            text.push_str(if mine { &self.legal_moves_json } else { "[]" });
            text.push_str(&format!(
                ",\"opponent_connected\":{}",
                self.opponent_connected(seat, now)
            ));
        }
        text.push('}');
        text
    }

    /// The fields every viewer shares, as a JSON object missing its closing brace.
    fn shared_text(&self) -> String {
        let side = |p: Player| self.variant.side(p);
        let mut view = Map::new();
        view.insert("game_id".into(), json!(self.game_id));
        view.insert("variant".into(), json!(self.variant));
        view.insert("mode".into(), json!(self.mode));
        view.insert("status".into(), json!(self.status));
        view.insert("version".into(), json!(self.version));
        view.insert("position".into(), json!(self.position));
        let playing = self.status == Status::Playing;
        view.insert(
            "to_move".into(),
            if playing {
                json!(side(self.to_move))
            } else {
                Value::Null
            },
        );
        view.insert("first".into(), json!(side(self.first)));
        view.insert("sides".into(), json!(self.variant.sides()));
        if self.variant.dice_per_roll() > 0 {
            view.insert("dice".into(), json!(self.dice));
        }
        view.insert("moves".into(), json!(self.moves));
        view.insert("result".into(), json!(self.result));
        view.insert("draw_offer".into(), json!(self.draw_offer));
        if let Some(id) = &self.rematch {
            view.insert("rematch".into(), json!(id));
        }
        if let Some(level) = self.level {
            view.insert("level".into(), json!(level));
        }
        if let Some(commitment) = &self.commitment {
            view.insert("commitment".into(), json!(commitment));
        }
        if let Some(seed) = &self.server_seed {
            view.insert("server_seed".into(), json!(seed));
        }
        let mut text = Value::Object(view).to_string();
        text.pop(); // the closing brace: render_text adds the seat's fields first
        text
    }

    fn mode_lets_seat_move(&self, seat: Seat) -> bool {
        !(self.mode == Mode::Computer && seat == Seat::Player(self.creator.other()))
    }
}
