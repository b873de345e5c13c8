//! The game view of docs/API.md: what a seat (or a spectator) sees. The parts every viewer shares are
//! computed once per version (`Snapshot`); `render` adds the seat's own parts: its side, the side
//! at the bottom, its legal moves when it is to move, and whether its opponent is connected.

use super::live::LiveGame;
use super::{Mode, Seat, Status};
use ludus_engine::{AnyMove, Player, Side, Termination, Variant};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use utoipa::ToSchema;

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
    pub variant: Variant,
    pub mode: Mode,
    pub status: Status,
    pub version: u64,
    pub to_move: Player,
    pub clocks: Option<ClockSnapshot>,
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

/// How a finished game ended.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, ToSchema)]
pub struct ResultView {
    /// Null for a draw.
    #[schema(value_type = Option<String>)]
    pub winner: Option<Side>,
    #[schema(value_type = String)]
    pub termination: Termination,
    pub finished_at: i64,
}

/// A game as a seat (or a spectator) sees it: the fields every viewer shares, the moves, and the
/// seat's own. Served as text assembled from these very types (see `Snapshot::render_text`), so
/// this schema is the served shape.
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)] // the schema of the assembled text; never built as a value
pub struct GameView {
    #[serde(flatten)]
    shared: SharedView<'static>,
    /// The moves played, in notation.
    moves: Vec<String>,
    #[serde(flatten)]
    own: SeatPart,
    /// A seat's legal moves: all of them when it is to move, else none (absent for a spectator).
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<Vec<String>>,
}

/// The fields of the view every viewer shares, borrowed from the game for one serialisation.
#[derive(Debug, Serialize, ToSchema)]
struct SharedView<'a> {
    game_id: &'a str,
    /// petteia-6, petteia-8, pente-grammai-schaedler, pente-grammai-kidd, pente-grammai-perimeter, duodecim-scripta.
    #[schema(value_type = String)]
    variant: Variant,
    mode: Mode,
    status: Status,
    /// The number of events so far.
    version: u64,
    /// The position in the notation of docs/RULES.md.
    position: String,
    /// None once the game is over.
    #[schema(value_type = Option<String>)]
    to_move: Option<Side>,
    #[schema(value_type = String)]
    first: Side,
    #[schema(value_type = Vec<String>)]
    sides: [Side; 2],
    /// Dice games: the dice of the current roll still to play.
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<Vec<u8>>,
    result: Option<ResultView>,
    #[schema(value_type = Option<String>)]
    draw_offer: Option<Side>,
    /// The rematch's game id, once one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    rematch: Option<&'a str>,
    /// Computer games: the computer's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
    /// Dice games: SHA-256 of the server seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
    /// Dice games, after the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    server_seed: Option<String>,
}

/// The fields of the view that depend on the seat and the time.
#[derive(Debug, Serialize, ToSchema)]
struct SeatPart {
    /// Null without a clock.
    clocks: Option<ClockView>,
    /// Null for a spectator.
    seat: Option<SeatView>,
    /// Online games: whether the opponent is present (absent for a spectator).
    #[serde(skip_serializing_if = "Option::is_none")]
    opponent_connected: Option<bool>,
}

/// Both clocks at the moment of the view.
#[derive(Debug, Serialize, ToSchema)]
struct ClockView {
    /// Each side's remaining milliseconds, under the side's name.
    #[serde(flatten)]
    #[schema(value_type = Object, additional_properties)]
    remaining: BTreeMap<Side, i64>,
    #[schema(value_type = Option<String>)]
    running: Option<Side>,
    initial_ms: u64,
    increment_ms: u64,
}

/// The seat a view is for.
#[derive(Debug, Serialize, ToSchema)]
struct SeatView {
    #[schema(value_type = String)]
    side: Side,
    /// The side drawn at the bottom of this seat's board.
    #[schema(value_type = String)]
    bottom: Side,
    /// Local games: the one token plays both sides.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schema(value_type = Option<bool>)]
    both: bool,
}

/// The JSON array of a game's moves, kept from version to version: a view is written at every
/// version, and writing every notation of a long game each time was most of the server's work
/// per move. Only the moves after the part still in common with the game are written again.
#[derive(Clone, Debug)]
pub struct MoveList {
    moves: Vec<AnyMove>,
    /// Where each move's notation ends in `json`.
    ends: Vec<usize>,
    /// The array without its closing bracket.
    json: String,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList {
            moves: Vec::new(),
            ends: Vec::new(),
            json: "[".into(),
        }
    }
}

impl MoveList {
    /// Brings the list up to `game`'s moves (after new moves, an undo, or a reload).
    pub fn update(&mut self, game: &LiveGame) {
        let common = self
            .moves
            .iter()
            .zip(game.moves())
            .take_while(|(kept, played)| kept == played)
            .count();
        self.moves.truncate(common);
        self.ends.truncate(common);
        self.json.truncate(self.ends.last().copied().unwrap_or(1));
        for mv in game.moves().skip(common) {
            if !self.moves.is_empty() {
                self.json.push(',');
            }
            self.json
                .push_str(&serde_json::to_string(&Notation(mv)).expect("a notation serialises"));
            self.moves.push(*mv);
            self.ends.push(self.json.len());
        }
    }
}

/// A move as its JSON string, written straight from its notation.
struct Notation<'a>(&'a AnyMove);

impl Serialize for Notation<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// Moves as a JSON array of notations, written without a string per move.
struct Notations<I>(I);

impl<'a, I: Iterator<Item = &'a AnyMove> + Clone> Serialize for Notations<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone().map(Notation))
    }
}

impl Snapshot {
    /// The snapshot of `game`'s present version; `moves` must be up to date with it.
    pub fn of(game: &LiveGame, moves: &MoveList, presence: Presence) -> Arc<Snapshot> {
        let side = |p: Player| game.variant.side(p);
        let dice_game = game.variant.dice_per_roll() > 0;
        let playing = game.status == Status::Playing;
        let shared = SharedView {
            game_id: game.id.as_str(),
            variant: game.variant,
            mode: game.mode,
            status: game.status,
            version: game.version,
            position: game.engine.position(),
            to_move: playing.then(|| side(game.engine.to_move())),
            first: side(game.first_player()),
            sides: game.variant.sides(),
            dice: dice_game.then(|| game.engine.dice()),
            result: game.result.map(|r| {
                let sided = game.sided(r.outcome);
                ResultView {
                    winner: sided.winner,
                    termination: sided.termination,
                    finished_at: r.finished_at,
                }
            }),
            draw_offer: game.draw_offer.map(side),
            rematch: game.rematch.as_ref().map(|id| id.as_str()),
            level: game.settings.level.map(|level| level.number()),
            commitment: dice_game
                .then(|| ludus_engine::dice::to_hex(&game.server_seed.commitment())),
            server_seed: game
                .revealed_seed()
                .map(|_| ludus_engine::dice::to_hex(&game.server_seed.0)),
        };
        let mut shared = serde_json::to_string(&shared).expect("the view serialises");
        shared.pop(); // the closing brace: the moves and then the seat's own fields follow
        shared.push_str(",\"moves\":");
        shared.push_str(&moves.json);
        shared.push(']');
        let legal_moves: Vec<AnyMove> = if playing {
            game.engine.legal_moves()
        } else {
            Vec::new()
        };
        let legal_moves_json =
            serde_json::to_string(&Notations(legal_moves.iter())).expect("notations serialise");
        Arc::new(Snapshot {
            variant: game.variant,
            mode: game.mode,
            status: game.status,
            version: game.version,
            to_move: game.engine.to_move(),
            clocks: game.clocks.map(|clocks| ClockSnapshot { clocks }),
            creator: game.creator(),
            presence,
            shared,
            legal_moves_json,
        })
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
        let own = SeatPart {
            clocks: self.clocks.map(|c| {
                let remaining = c.clocks.read(now);
                ClockView {
                    remaining: Player::BOTH
                        .iter()
                        .map(|&p| (side(p), remaining[p.index()]))
                        .collect(),
                    running: c.clocks.running.map(side),
                    initial_ms: c.clocks.settings.initial_ms,
                    increment_ms: c.clocks.settings.increment_ms,
                }
            }),
            seat: seat.side(self.variant).map(|shown| SeatView {
                side: shown,
                bottom: shown,
                both: seat == Seat::Both,
            }),
            opponent_connected: (seat != Seat::Spectator)
                .then(|| self.opponent_connected(seat, now)),
        };
        let own = serde_json::to_string(&own).expect("the view serialises");
        let mut text = String::with_capacity(self.shared.len() + self.legal_moves_json.len() + 160);
        text.push_str(&self.shared);
        text.push(',');
        // The seat's part without its closing brace: the legal moves, written once per version,
        // follow it.
        text.push_str(&own[1..own.len() - 1]);
        if seat != Seat::Spectator {
            let mine = self.status == Status::Playing
                && seat.speaks_for(self.to_move)
                && self.mode_lets_seat_move(seat);
            text.push_str(",\"legal_moves\":");
            text.push_str(if mine { &self.legal_moves_json } else { "[]" });
        }
        text.push('}');
        text
    }

    fn mode_lets_seat_move(&self, seat: Seat) -> bool {
        !(self.mode == Mode::Computer && seat == Seat::Player(self.creator.other()))
    }
}
