//! The game view of docs/API.md: what a seat (or a spectator) sees. The parts every viewer shares are
//! computed once per version (`Snapshot`); `render` adds the seat's own parts: its side, the side
//! at the bottom, its legal moves when it is to move, and whether its opponent is connected.

use super::json::Fields;
use super::live::{Action, LiveGame};
use super::{Mode, Seat, Status};
use ludus_engine::{AnyMove, Player, Side, Termination, Variant};
use serde::Serialize;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use utoipa::ToSchema;

/// Who is present. A player is present while a socket or event stream of theirs is open, or
/// when they made an authenticated request within the claim window; once away that long, the
/// opponent may claim the win. Spectators are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Presence {
    /// Open sockets and event streams per player.
    pub sockets: [u32; 2],
    pub spectators: u32,
    /// Each player's last authenticated request; forgotten when their last socket closes (a
    /// closed connection says more than an earlier request).
    pub last_request: [Option<i64>; 2],
    /// When each player's last socket closed (or the game's actor started).
    pub left_at: [i64; 2],
    /// The claim window, in milliseconds.
    pub window_ms: i64,
}

impl Presence {
    /// Everyone counts as seen at `seen_at`: a restart does not make players absent at once
    /// (the restart's time), and a game just made has seen its players when it was made.
    pub fn new(seen_at: i64, window_ms: i64) -> Presence {
        Presence {
            sockets: [0, 0],
            spectators: 0,
            last_request: [Some(seen_at); 2],
            left_at: [seen_at; 2],
            window_ms,
        }
    }

    /// `player`'s last sign of life: None while they have a socket open.
    pub fn last_seen(&self, player: Player) -> Option<i64> {
        let i = player.index();
        (self.sockets[i] == 0)
            .then(|| self.left_at[i].max(self.last_request[i].unwrap_or(i64::MIN)))
    }

    pub fn is_present(&self, player: Player, now: i64) -> bool {
        let i = player.index();
        self.sockets[i] > 0 || self.last_request[i].is_some_and(|t| now - t < self.window_ms)
    }

    /// Since when `player` has been away: their last sign of life (None while present).
    pub fn away_since(&self, player: Player, now: i64) -> Option<i64> {
        self.last_seen(player)
            .filter(|_| !self.is_present(player, now))
    }

    /// When the opponent of `player` may claim the win (None while `player` is present).
    pub fn claim_allowed_at(&self, player: Player, now: i64) -> Option<i64> {
        self.away_since(player, now).map(|t| t + self.window_ms)
    }

    /// When the first player kept present only by a request stops being present. `now` is
    /// called only if a player has no socket: a socket keeps its player present whatever the
    /// time, and the actor asks this at every turn of its loop.
    pub fn next_expiry(&self, now: impl FnOnce() -> i64) -> Option<i64> {
        if self.sockets.iter().all(|&sockets| sockets > 0) {
            return None;
        }
        let now = now();
        Player::BOTH
            .iter()
            .filter(|&&p| self.sockets[p.index()] == 0 && self.is_present(p, now))
            .filter_map(|p| self.last_request[p.index()].map(|t| t + self.window_ms))
            .min()
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
    /// Whether each player has a move to take back (`LiveGame::can_take_back`).
    can_take_back: [bool; 2],
    claim_rule: super::live::ClaimRule,
    /// Written once per game: the fields that never change (`FIXED_FIELDS`), without braces.
    fixed: Arc<str>,
    /// Written once per version: the shared fields that change, without braces. The texts are
    /// shared (a change of presence keeps them) and exactly their size: a live game holds its
    /// present snapshot all along.
    changing: Arc<str>,
    /// The moves' JSON array without its closing bracket (one text shared by the versions of a
    /// game, see `MovesText`), and how many there are.
    moves_json: MovesText,
    move_count: usize,
    legal_moves_json: Arc<str>,
}

/// The fields of a view that never change during a game: a delta leaves them out, and a client
/// keeps them from the last whole view it received (docs/PROTOCOL.md §3).
pub const FIXED_FIELDS: [&str; 6] = ["game_id", "variant", "mode", "sides", "level", "commitment"];

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
    fixed: FixedView<'static>,
    #[serde(flatten)]
    changing: ChangingView<'static>,
    /// The moves played, in notation.
    moves: Vec<String>,
    #[serde(flatten)]
    own: SeatPart,
    /// A seat's legal moves: all of them when it is to move, else none (absent for a spectator).
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<Vec<String>>,
}

/// The fields of the view that never change during a game (`FIXED_FIELDS`).
#[derive(Debug, Serialize, ToSchema)]
struct FixedView<'a> {
    game_id: &'a str,
    /// petteia-6, petteia-8, pente-grammai-schaedler, pente-grammai-kidd, pente-grammai-perimeter, duodecim-scripta.
    #[schema(value_type = String)]
    variant: Variant,
    mode: Mode,
    #[schema(value_type = Vec<String>)]
    sides: [Side; 2],
    /// Computer games: the computer's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
    /// Dice games: SHA-256 of the server seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
}

/// The fields of the view every viewer shares that change from version to version, borrowed from
/// the game for one serialisation.
#[derive(Debug, Serialize, ToSchema)]
struct ChangingView<'a> {
    status: Status,
    /// The number of events so far.
    version: u64,
    /// The position in the notation of docs/RULES.md.
    position: String,
    /// None while the game waits for its join, and once it is over.
    #[schema(value_type = Option<String>)]
    to_move: Option<Side>,
    /// None while an online game of a variant that draws who moves first waits for its join.
    #[schema(value_type = Option<String>)]
    first: Option<Side>,
    /// Dice games: the dice of the current roll still to play.
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<Vec<u8>>,
    result: Option<ResultView>,
    #[schema(value_type = Option<String>)]
    draw_offer: Option<Side>,
    /// Online: the side that asked to take back its last move, awaiting the answer.
    #[schema(value_type = Option<String>)]
    undo_offer: Option<Side>,
    /// Online, after the end: the side that offered a rematch.
    #[schema(value_type = Option<String>)]
    rematch_offer: Option<Side>,
    /// The rematch's game id, once one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    rematch: Option<&'a str>,
    /// Dice games, after the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    server_seed: Option<String>,
}

impl ChangingView<'_> {
    fn of(game: &LiveGame) -> ChangingView<'_> {
        let side = |p: Player| game.variant.side(p);
        let dice_game = game.variant.dice_per_roll() > 0;
        let playing = game.status == Status::Playing;
        ChangingView {
            status: game.status,
            version: game.version,
            position: game.engine.position(),
            to_move: playing.then(|| side(game.engine.to_move())),
            first: game.known_first_player().map(side),
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
            undo_offer: game.undo_offer.map(side),
            rematch_offer: game.rematch_offer.map(side),
            rematch: game.rematch.as_ref().map(|id| id.as_str()),
            server_seed: game
                .revealed_seed()
                .filter(|_| dice_game)
                .map(|_| ludus_engine::dice::to_hex(&game.server_seed.0)),
        }
    }

    /// The fields as serde writes them (see `json`).
    fn write(&self, fields: &mut Fields<'_>) {
        fields.text("status", self.status.name());
        fields.integer("version", self.version);
        fields.text("position", &self.position);
        fields.maybe_text("to_move", self.to_move.map(Side::name));
        fields.maybe_text("first", self.first.map(Side::name));
        if let Some(dice) = &self.dice {
            let mut list = String::from("[");
            for (i, die) in dice.iter().enumerate() {
                if i > 0 {
                    list.push(',');
                }
                list.push_str(itoa::Buffer::new().format(*die));
            }
            list.push(']');
            fields.raw("dice", &list);
        }
        match &self.result {
            Some(result) => fields.object("result", |f| {
                f.maybe_text("winner", result.winner.map(Side::name));
                f.text("termination", result.termination.name());
                f.integer("finished_at", result.finished_at);
            }),
            None => fields.null("result"),
        }
        fields.maybe_text("draw_offer", self.draw_offer.map(Side::name));
        fields.maybe_text("undo_offer", self.undo_offer.map(Side::name));
        fields.maybe_text("rematch_offer", self.rematch_offer.map(Side::name));
        if let Some(rematch) = self.rematch {
            fields.text("rematch", rematch);
        }
        if let Some(seed) = &self.server_seed {
            fields.text("server_seed", seed);
        }
    }
}

/// The fields of the view that depend on the seat and the time.
#[derive(Debug, Serialize, ToSchema)]
struct SeatPart {
    /// Null without a clock.
    clocks: Option<ClockView>,
    /// Null for a spectator.
    seat: Option<SeatView>,
    /// Whether the opponent is present: a socket or event stream open, or an authenticated
    /// request within the claim window (always true but online, false while the invite waits;
    /// absent for a spectator).
    #[serde(skip_serializing_if = "Option::is_none")]
    opponent_connected: Option<bool>,
    /// Online, the opponent away: since when (milliseconds since the epoch).
    #[serde(skip_serializing_if = "Option::is_none")]
    opponent_away_since: Option<i64>,
    /// Online, the opponent away: when this seat may claim the win.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim_allowed_at: Option<i64>,
    /// With `claim_allowed_at`: whether the claim would abort the game, not yet begun by both,
    /// rather than win it.
    #[serde(skip_serializing_if = "Option::is_none")]
    claim_aborts: Option<bool>,
    /// To a seat: whether it has a move to take back (`/undo` is refused otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    can_take_back: Option<bool>,
    /// How many sockets watch without a seat.
    spectators: u32,
}

impl SeatPart {
    /// The fields as serde writes them (see `json`).
    fn write(&self, fields: &mut Fields<'_>) {
        match &self.clocks {
            Some(clocks) => fields.object("clocks", |f| {
                for (side, ms) in clocks.remaining.sorted() {
                    f.integer(side.name(), ms);
                }
                f.maybe_text("running", clocks.running.map(Side::name));
                f.integer("initial_ms", clocks.initial_ms);
                f.integer("increment_ms", clocks.increment_ms);
            }),
            None => fields.null("clocks"),
        }
        match &self.seat {
            Some(seat) => fields.object("seat", |f| {
                f.text("side", seat.side.name());
                f.text("bottom", seat.bottom.name());
                if seat.both {
                    f.boolean("both", true);
                }
            }),
            None => fields.null("seat"),
        }
        if let Some(connected) = self.opponent_connected {
            fields.boolean("opponent_connected", connected);
        }
        if let Some(since) = self.opponent_away_since {
            fields.integer("opponent_away_since", since);
        }
        if let Some(at) = self.claim_allowed_at {
            fields.integer("claim_allowed_at", at);
        }
        if let Some(aborts) = self.claim_aborts {
            fields.boolean("claim_aborts", aborts);
        }
        if let Some(can) = self.can_take_back {
            fields.boolean("can_take_back", can);
        }
        fields.integer("spectators", self.spectators);
    }
}

/// Both clocks at the moment of the view.
#[derive(Debug, Serialize, ToSchema)]
struct ClockView {
    /// Each side's remaining milliseconds, under the side's name.
    #[serde(flatten)]
    #[schema(value_type = Object, additional_properties)]
    remaining: Remaining,
    #[schema(value_type = Option<String>)]
    running: Option<Side>,
    initial_ms: u64,
    increment_ms: u64,
}

/// Each side's remaining milliseconds, a map from the side's name, in the sides' order (as a
/// `BTreeMap` wrote it, without one allocated at every view).
#[derive(Debug)]
struct Remaining([(Side, i64); 2]);

impl Remaining {
    fn sorted(&self) -> [(Side, i64); 2] {
        let mut sides = self.0;
        sides.sort_unstable_by_key(|&(side, _)| side);
        sides
    }
}

impl Serialize for Remaining {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let sides = self.sorted();
        let mut map = serializer.serialize_map(Some(sides.len()))?;
        for (side, ms) in &sides {
            map.serialize_entry(side, ms)?;
        }
        map.end()
    }
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
#[derive(Debug)]
pub struct MoveList {
    moves: Vec<AnyMove>,
    /// Where each move's notation ends in `json`.
    ends: Vec<usize>,
    /// The array without its closing bracket, shared with the snapshots (see `MovesText`).
    json: MovesText,
}

/// A prefix of a text that only grows, shared: the moves' array of one version is a prefix of
/// the next version's, so each snapshot keeps the one text and its length then, where copying
/// the array at every version cost as much as a long game's move list. The text is never
/// changed before its end: a list whose moves change (an undo, a reload) starts a text of its
/// own, and the snapshots holding the old one keep it as it was.
#[derive(Clone, Debug)]
struct MovesText {
    text: Arc<Mutex<String>>,
    len: usize,
}

impl MovesText {
    fn new(text: &str) -> MovesText {
        MovesText {
            text: Arc::new(Mutex::new(text.to_string())),
            len: text.len(),
        }
    }

    fn append(&mut self, write: impl FnOnce(&mut String)) {
        let mut text = self.text.lock().expect("the moves' text lock");
        debug_assert_eq!(text.len(), self.len, "only the list appends to its text");
        write(&mut text);
        self.len = text.len();
    }

    /// A text of its own holding this one's first `len` bytes.
    fn truncated(&self, len: usize) -> MovesText {
        let text = self.text.lock().expect("the moves' text lock");
        MovesText::new(&text[..len])
    }

    fn push_to(&self, out: &mut String) {
        out.push_str(&self.text.lock().expect("the moves' text lock")[..self.len]);
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList {
            moves: Vec::new(),
            ends: Vec::new(),
            json: MovesText::new("["),
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
        if common < self.moves.len() {
            self.moves.truncate(common);
            self.ends.truncate(common);
            self.json = self.json.truncated(self.ends.last().copied().unwrap_or(1));
        }
        for mv in game.moves().skip(common) {
            self.push(mv);
        }
    }

    /// Appends the last `played` moves of `game`, after a batch that only added moves (one with an
    /// undo goes through `update`): without comparing the whole list again at every version.
    pub fn extend(&mut self, game: &LiveGame, played: usize) {
        // Where the last `played` moves start, found from the end (rolls come between them).
        let mut start = game.actions.len();
        for _ in 0..played {
            let before = game.actions[..start]
                .iter()
                .rposition(|action| matches!(action, Action::Move { .. }));
            match before {
                Some(at) => start = at,
                None => break,
            }
        }
        for action in &game.actions[start..] {
            if let Action::Move { mv, .. } = action {
                self.push(mv);
            }
        }
    }

    fn push(&mut self, mv: &AnyMove) {
        let first = self.moves.is_empty();
        self.json.append(|json| {
            if !first {
                json.push(',');
            }
            push_notation(json, |json| mv.push_notation(json));
        });
        self.moves.push(*mv);
        self.ends.push(self.json.len);
    }
}

/// Appends a move's notation, written by `write`, as a JSON string, copied as it is: a notation
/// is letters, digits and signs (docs/RULES.md), never a character JSON escapes. (No formatting
/// machinery: this runs for every legal move at every version.)
fn push_notation(json: &mut String, write: impl FnOnce(&mut String)) {
    json.push('"');
    let start = json.len();
    write(json);
    debug_assert!(
        !json[start..].contains(|c: char| c == '"' || c == '\\' || c.is_control()),
        "a notation needs no escaping"
    );
    json.push('"');
}

/// The longest notation `legal_moves_json` writes in one copy (every Petteia and Pente Grammai
/// move, most of Duodecim Scripta's).
const SHORT_NOTATION: usize = 13;

/// The legal moves of `game` as a JSON array of notations, in the order of `legal_moves`, written
/// into one buffer as bytes (this runs at every version of every game). A notation needs no
/// escaping (see `push_notation`).
fn legal_moves_json(game: &ludus_engine::AnyGame) -> Arc<str> {
    let mut json = Vec::with_capacity(512);
    game.for_each_legal_notation_bytes(|notation| {
        debug_assert!(
            !notation
                .iter()
                .any(|&b| b == b'"' || b == b'\\' || b.is_ascii_control()),
            "a notation needs no escaping"
        );
        // Each behind a comma, the first's turned into the bracket below: no test per move.
        // Put together on the stack and copied once: three appends, each checking the room
        // left, made the snapshot a sixth dearer (a notation of known length, as Petteia's,
        // makes the copies fixed moves).
        match notation.len() {
            len @ ..=SHORT_NOTATION => {
                let mut item = [b'"'; SHORT_NOTATION + 3];
                item[0] = b',';
                item[2..2 + len].copy_from_slice(notation);
                json.extend_from_slice(&item[..len + 3]);
            }
            _ => {
                json.extend_from_slice(b",\"");
                json.extend_from_slice(notation);
                json.push(b'"');
            }
        }
    });
    match json.first_mut() {
        Some(comma) => *comma = b'[',
        None => json.push(b'['),
    }
    json.push(b']');
    String::from_utf8(json)
        .expect("whole notations are text")
        .into()
}

impl Snapshot {
    /// The snapshot of `game`'s present version; `moves` must be up to date with it.
    pub fn of(game: &LiveGame, moves: &MoveList, presence: Presence) -> Arc<Snapshot> {
        let dice_game = game.variant.dice_per_roll() > 0;
        let fixed = FixedView {
            game_id: game.id.as_str(),
            variant: game.variant,
            mode: game.mode,
            sides: game.variant.sides(),
            level: game.settings.level.map(|level| level.number()),
            commitment: dice_game
                .then(|| ludus_engine::dice::to_hex(&game.server_seed.commitment())),
        };
        Snapshot::with_fixed(game, moves, presence, inner_json(&fixed))
    }

    /// The snapshot of the next version of the same game: the fields that never change are kept.
    pub fn after(&self, game: &LiveGame, moves: &MoveList, presence: Presence) -> Arc<Snapshot> {
        Snapshot::with_fixed(game, moves, presence, self.fixed.clone())
    }

    fn with_fixed(
        game: &LiveGame,
        moves: &MoveList,
        presence: Presence,
        fixed: Arc<str>,
    ) -> Arc<Snapshot> {
        let legal_moves_json = if game.status == Status::Playing {
            legal_moves_json(&game.engine)
        } else {
            "[]".into()
        };
        // Room for the shared fields at once (written at every version).
        let mut changing = String::with_capacity(256);
        ChangingView::of(game).write(&mut Fields::new(&mut changing, true));
        Arc::new(Snapshot {
            variant: game.variant,
            mode: game.mode,
            status: game.status,
            version: game.version,
            to_move: game.engine.to_move(),
            clocks: game.clocks.map(|clocks| ClockSnapshot { clocks }),
            creator: game.creator(),
            presence,
            can_take_back: Player::BOTH.map(|p| game.can_take_back(Seat::Player(p))),
            claim_rule: game.claim_rule(),
            fixed,
            changing: changing.into(),
            moves_json: moves.json.clone(),
            move_count: moves.moves.len(),
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

    /// The opponent of `seat`, in an online game.
    fn online_opponent(&self, seat: Seat) -> Option<Player> {
        match seat {
            Seat::Player(p) if self.mode == Mode::Online => Some(p.other()),
            _ => None,
        }
    }

    /// The view for `seat` at `now`.
    pub fn render(&self, seat: Seat, now: i64) -> Value {
        serde_json::from_str(&self.render_text(seat, now)).expect("the view is JSON")
    }

    /// The view for `seat` at `now` as JSON text: the parts every viewer shares were written once
    /// for this version; only the seat's own fields and the clocks are written here.
    pub fn render_text(&self, seat: Seat, now: i64) -> String {
        let mut text = String::with_capacity(
            self.fixed.len() + self.changing.len() + self.moves_json.len + 400,
        );
        self.push_text(&mut text, seat, now);
        text
    }

    /// Appends the view for `seat` at `now` (`render_text`) to `text`.
    pub fn push_text(&self, text: &mut String, seat: Seat, now: i64) {
        text.push('{');
        text.push_str(&self.fixed);
        text.push(',');
        text.push_str(&self.changing);
        text.push_str(",\"moves\":");
        self.moves_json.push_to(text);
        text.push(']');
        self.push_own(text, seat, now);
    }

    /// Appends what changed, for `seat` at `now`, to `text`: the view without the fields that
    /// never change (`FIXED_FIELDS`) and without `moves`, which the events carry one by one;
    /// with `move_count`, the length of `moves` (docs/PROTOCOL.md §3).
    pub fn push_delta_text(&self, text: &mut String, seat: Seat, now: i64) {
        text.push('{');
        text.push_str(&self.changing);
        text.push_str(",\"move_count\":");
        text.push_str(itoa::Buffer::new().format(self.move_count));
        self.push_own(text, seat, now);
    }

    /// About how long `push_delta_text` makes it for `seat`, a little more rather than less.
    pub fn delta_len(&self, seat: Seat) -> usize {
        let legal = if self.seat_moves(seat) {
            self.legal_moves_json.len()
        } else {
            2
        };
        self.changing.len() + legal + 300
    }

    /// Appends `,` the seat's own fields, its legal moves, and the closing brace.
    fn push_own(&self, text: &mut String, seat: Seat, now: i64) {
        self.seat_part(seat, now)
            .write(&mut Fields::new(text, false));
        if seat != Seat::Spectator {
            text.push_str(",\"legal_moves\":");
            text.push_str(if self.seat_moves(seat) {
                &self.legal_moves_json
            } else {
                "[]"
            });
        }
        text.push('}');
    }

    /// Whether `seat` is to move (and so is shown the legal moves).
    fn seat_moves(&self, seat: Seat) -> bool {
        self.status == Status::Playing
            && seat.speaks_for(self.to_move)
            && self.mode_lets_seat_move(seat)
    }

    /// The fields of `seat`'s view at `now`.
    fn seat_part(&self, seat: Seat, now: i64) -> SeatPart {
        let side = |p: Player| self.variant.side(p);
        // The opponent away, and when this seat may claim against them.
        let claimable = self
            .online_opponent(seat)
            .and_then(|o| Some((o, self.presence.claim_allowed_at(o, now)?)));
        SeatPart {
            clocks: self.clocks.map(|c| {
                let remaining = c.clocks.read(now);
                ClockView {
                    remaining: Remaining(Player::BOTH.map(|p| (side(p), remaining[p.index()]))),
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
            opponent_connected: (seat != Seat::Spectator).then(|| {
                match self.online_opponent(seat) {
                    None => true,
                    // The invite is not taken yet: there is no one to be connected.
                    Some(_) if self.status == Status::Waiting => false,
                    Some(opponent) => self.presence.is_present(opponent, now),
                }
            }),
            opponent_away_since: self
                .online_opponent(seat)
                .and_then(|o| self.presence.away_since(o, now)),
            claim_allowed_at: claimable.map(|(_, at)| at),
            claim_aborts: claimable.map(|(o, _)| self.claim_rule.aborts(o, &self.presence)),
            can_take_back: match seat {
                Seat::Player(p) => Some(self.can_take_back[p.index()]),
                // The one token plays the side to move (and takes back anyone's move).
                Seat::Both => Some(self.can_take_back[self.to_move.index()]),
                Seat::Spectator => None,
            },
            spectators: self.presence.spectators,
        }
    }

    fn mode_lets_seat_move(&self, seat: Seat) -> bool {
        !(self.mode == Mode::Computer && seat == Seat::Player(self.creator.other()))
    }
}

/// A struct's JSON object without its braces, to be joined with others into one object.
fn inner_json<T: Serialize>(value: &T) -> Arc<str> {
    let mut text = String::new();
    push_inner_json(&mut text, value);
    Arc::from(text)
}

/// Appends a struct's JSON object without its braces to `text`, written in place (this runs for
/// every socket at every version).
fn push_inner_json<T: Serialize>(text: &mut String, value: &T) {
    let mut bytes = std::mem::take(text).into_bytes();
    let start = bytes.len();
    serde_json::to_writer(&mut bytes, value).expect("the view serialises");
    debug_assert!(bytes[start] == b'{' && bytes.last() == Some(&b'}'));
    bytes.pop();
    bytes.remove(start);
    *text = String::from_utf8(bytes).expect("JSON is UTF-8");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ClockSettings;
    use crate::game::event::GameEvent;
    use crate::game::live::RematchStep;

    fn by_serde<T: Serialize>(value: &T) -> String {
        let mut text = String::new();
        push_inner_json(&mut text, value);
        text
    }

    fn written(write: impl FnOnce(&mut Fields<'_>)) -> String {
        let mut text = String::new();
        write(&mut Fields::new(&mut text, true));
        text
    }

    /// The shared fields and every seat's own, now and once its opponent is long away.
    fn check(game: &LiveGame, now: i64) {
        let changing = ChangingView::of(game);
        assert_eq!(
            written(|f| changing.write(f)),
            by_serde(&changing),
            "{:?} at version {}",
            game.variant,
            game.version
        );
        let mut moves = MoveList::default();
        moves.update(game);
        let snapshot = Snapshot::of(game, &moves, Presence::new(now, 60_000));
        let seats = [
            Seat::Player(Player::First),
            Seat::Player(Player::Second),
            Seat::Both,
            Seat::Spectator,
        ];
        for seat in seats {
            for at in [now, now + 100_000] {
                let own = snapshot.seat_part(seat, at);
                assert_eq!(written(|f| own.write(f)), by_serde(&own), "{seat:?}");
            }
        }
    }

    /// The view's parts written directly are the text serde writes from their structs (the
    /// schema's), in every variant and mode, with and without clocks, through offers, to the end.
    #[test]
    fn the_view_parts_written_directly_are_serdes_text() {
        let clocks = [
            None,
            Some(ClockSettings {
                initial_ms: 60_000,
                increment_ms: 2_000,
            }),
        ];
        for variant in Variant::ALL {
            for clock in clocks {
                for mode in [Mode::Online, Mode::Local] {
                    let mut game = LiveGame::for_tests(variant, mode, clock);
                    check(&game, 0);
                    let started = match mode {
                        Mode::Online => game.decide_join(),
                        _ => Vec::new(),
                    };
                    game.advance(started, 0).unwrap();
                    let mut now = 0;
                    for ply in 0..60 {
                        check(&game, now);
                        if game.status != Status::Playing {
                            break;
                        }
                        let seat = match mode {
                            Mode::Online => Seat::Player(game.engine.to_move()),
                            _ => Seat::Both,
                        };
                        if ply == 5
                            && let Ok(offer) = game.decide_draw(seat)
                        {
                            game.advance(vec![offer], now).unwrap();
                            check(&game, now);
                        }
                        let legal = game.engine.legal_notations();
                        let notation = &legal[ply * 7 % legal.len()];
                        let event = game.decide_move(seat, notation, game.version, now).unwrap();
                        game.advance(vec![event], now).unwrap();
                        now += 1_500;
                    }
                    if game.status == Status::Playing {
                        let seat = match mode {
                            Mode::Online => Seat::Player(Player::First),
                            _ => Seat::Both,
                        };
                        let resign = game.decide_resign(seat).unwrap();
                        game.advance(vec![resign], now).unwrap();
                    }
                    check(&game, now);
                    if mode == Mode::Online {
                        let asker = Seat::Player(Player::Second);
                        if let Ok(RematchStep::Offer(side)) = game.decide_rematch(asker) {
                            let offer = GameEvent::RematchOffered {
                                side,
                                commitment: None,
                            };
                            game.advance(vec![offer], now).unwrap();
                            check(&game, now);
                        }
                        let rematch = GameEvent::Rematch {
                            game_id: "r".parse().unwrap(),
                        };
                        game.advance(vec![rematch], now).unwrap();
                        check(&game, now);
                        assert!(game.rematch.is_some());
                    }
                }
            }
        }
    }
}
