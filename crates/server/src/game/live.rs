//! A game's state as the server keeps it: the engine state, the clocks, the seats and the result,
//! rebuilt from the event log by `apply` and advanced by the `decide_*` functions, which check a
//! request against that state and return the events it causes. Pure: no I/O, no clock reading
//! (the time comes in as `now`), so every rule of play can be tested without a server.

use super::clock::GameClocks;
use super::error::{Refusal, ReplayError};
use super::event::{Checked, ClockReading, GameEvent};
use super::services::Outage;
use super::view::Presence;
use super::{GameId, Mode, Seat, Settings, Status};
use ludus_ai::Level;
use ludus_engine::dice::{Seed, ServerSeed};
use ludus_engine::{
    AnyGame, AnyMove, FirstPlayer, Outcome, Phase, Player, Side, Termination, Variant,
};
use ludus_store::StoredResult;
use std::sync::Arc;

/// What a rematch request leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RematchStep {
    /// Online, the first request: this side's offer is recorded.
    Offer(Side),
    /// The rematch is created now (accepted, or a game without an opponent to ask).
    Create,
    /// Nothing more to do: the rematch exists, or this player's offer stands.
    AlreadyDone,
}

/// A roll or a move, in the order played: what undo truncates and replay re-applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Roll(Vec<u8>),
    Move {
        player: Player,
        mv: AnyMove,
        automatic: bool,
    },
}

impl Action {
    /// Plays this action again on `engine` (a replay: the action was played once already).
    fn replay_on(&self, engine: &mut AnyGame) -> Result<(), ReplayError> {
        match self {
            Action::Roll(dice) => engine.roll(dice)?,
            Action::Move { mv, .. } => engine.play(*mv)?,
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    pub finished_at: i64,
}

/// What a game is created with (already validated).
#[derive(Clone, Debug)]
pub struct Creation {
    pub id: GameId,
    pub variant: Variant,
    pub mode: Mode,
    pub settings: Settings,
    pub server_seed: ServerSeed,
    pub creator_entropy: String,
    /// Given before the game is made only when both seats are filled at creation after a
    /// commitment (a rematch's accepter); else empty, until an invite's join gives it.
    pub joiner_entropy: String,
    pub created_at: i64,
    /// Both seats are filled at creation (computer and local games, rematches): play starts now.
    pub seated: bool,
}

#[derive(Clone, Debug)]
pub struct LiveGame {
    pub id: GameId,
    pub variant: Variant,
    pub mode: Mode,
    pub settings: Settings,
    pub status: Status,
    pub created_at: i64,
    /// When play began: the join, or the creation of a game whose seats were filled at once.
    pub started_at: Option<i64>,
    pub server_seed: ServerSeed,
    /// Shared text: a game is copied at every move (to put it back if the move is not committed).
    pub creator_entropy: Arc<str>,
    pub joiner_entropy: Arc<str>,
    /// The dice seed, once both players' entropy is in (dice games).
    seed: Option<Seed>,
    pub engine: AnyGame,
    pub actions: Vec<Action>,
    /// Dice thrown by the retained rolls: the index of the next die (so undo never re-rolls).
    dice_thrown: u64,
    pub clocks: Option<GameClocks>,
    pub draw_offer: Option<Player>,
    /// By player: the number of moves played when they last offered a draw (one offer per side
    /// per move, so that offer and decline cannot flood the log).
    draw_offered_after: [Option<usize>; 2],
    /// Online: the player who asked to take back their last move, until it is answered or a
    /// move is played.
    pub undo_offer: Option<Player>,
    /// Online, after the end: the player who offered a rematch.
    pub rematch_offer: Option<Player>,
    pub result: Option<GameResult>,
    pub rematch: Option<GameId>,
    /// The number of events applied: the game's version.
    pub version: u64,
    /// The version at which the board (the position, the dice, the side to move) was last
    /// changed: a move seen at any version since was chosen on the board of now.
    board_version: u64,
}

/// Whether `player`, as `seen`, has not been seen since play began at `started_at`: no socket of
/// theirs is open and their last sign of life came no later than the start.
fn not_seen_since(started_at: Option<i64>, player: Player, seen: &Presence) -> bool {
    started_at
        .zip(seen.last_seen(player))
        .is_some_and(|(started, seen)| seen <= started)
}

/// What a claim against an absent opponent of an online game does. Before each side has moved
/// there is no game to win (lichess's rule): the claim aborts it, and it counts in no one's
/// results; but not once a die was thrown (`dice_seen_online`), unless the opponent never came to
/// see it (`LiveGame::never_came`). The view tells a seat which (`claim_aborts`), so that its
/// button says what it will do.
#[derive(Clone, Copy, Debug)]
pub struct ClaimRule {
    each_side_has_moved: bool,
    dice_seen_online: bool,
    started_at: Option<i64>,
}

impl ClaimRule {
    /// Whether a claim against `opponent`, `seen` as now, aborts the game rather than wins it.
    pub fn aborts(&self, opponent: Player, seen: &Presence) -> bool {
        !self.each_side_has_moved
            && (!self.dice_seen_online || not_seen_since(self.started_at, opponent, seen))
    }
}

impl LiveGame {
    /// A new game; it starts at once when both seats are filled, else it waits for the invitee.
    pub fn new(creation: Creation) -> LiveGame {
        let Creation {
            id,
            variant,
            mode,
            settings,
            server_seed,
            creator_entropy,
            joiner_entropy,
            created_at,
            seated,
        } = creation;
        let mut game = LiveGame {
            id,
            variant,
            mode,
            clocks: settings.clock.map(GameClocks::new),
            settings,
            status: Status::Waiting,
            created_at,
            started_at: None,
            server_seed,
            creator_entropy: creator_entropy.into(),
            joiner_entropy: joiner_entropy.into(),
            seed: None,
            engine: AnyGame::new(variant, Player::First),
            actions: Vec::new(),
            dice_thrown: 0,
            draw_offer: None,
            draw_offered_after: [None, None],
            undo_offer: None,
            rematch_offer: None,
            result: None,
            rematch: None,
            version: 0,
            board_version: 0,
        };
        if seated {
            game.start(created_at);
        }
        game
    }

    /// Both seats are filled, and both entropies known: the seed and the first player are known
    /// and play begins.
    fn start(&mut self, at: i64) {
        self.status = Status::Playing;
        self.started_at = Some(at);
        let seed = self
            .server_seed
            .game_seed(&self.creator_entropy, &self.joiner_entropy);
        let first = match self.variant.first_player() {
            FirstPlayer::Fixed(player) => player,
            FirstPlayer::DrawnFromSeed => seed.first_player(),
        };
        self.seed = Some(seed);
        self.engine = AnyGame::new(self.variant, first);
    }

    /// Who moves first (known once play has begun).
    pub fn first_player(&self) -> Player {
        self.known_first_player().unwrap_or(Player::First)
    }

    /// Who moves first, if it is known yet: a variant that draws it from the seed knows it once
    /// the seed is made (an online game's at the join).
    pub fn known_first_player(&self) -> Option<Player> {
        match (self.variant.first_player(), self.seed) {
            (FirstPlayer::Fixed(player), _) => Some(player),
            (FirstPlayer::DrawnFromSeed, seed) => seed.map(|seed| seed.first_player()),
        }
    }

    /// The seed, revealed only once the game is over (whoever knew it could foresee every die).
    pub fn revealed_seed(&self) -> Option<Seed> {
        if self.status.is_over() {
            self.seed
        } else {
            None
        }
    }

    pub fn creator(&self) -> Player {
        self.settings.creator.0
    }

    /// The player the computer plays, in computer games.
    pub fn computer(&self) -> Option<Player> {
        (self.mode == Mode::Computer).then(|| self.creator().other())
    }

    /// The computer's player and level, in computer games (creation and replay make sure a
    /// computer game has its level).
    pub fn computer_player(&self) -> Option<(Player, Level)> {
        Some((self.computer()?, self.settings.level?))
    }

    /// An outcome as the sides of this variant name it: how events, views and the store say it.
    pub fn sided(&self, outcome: Outcome) -> StoredResult {
        StoredResult {
            winner: outcome.winner.map(|p| self.variant.side(p)),
            termination: outcome.termination,
        }
    }

    fn player_of(&self, side: Side) -> Result<Player, ReplayError> {
        self.variant.player(side).ok_or(ReplayError::ForeignSide {
            side,
            variant: self.variant,
        })
    }

    pub fn moves(&self) -> impl Iterator<Item = &AnyMove> + Clone {
        self.actions.iter().filter_map(|a| match a {
            Action::Move { mv, .. } => Some(mv),
            Action::Roll(_) => None,
        })
    }

    /// Whether a person has moved yet (abort is allowed until then).
    pub fn has_human_move(&self) -> bool {
        self.actions.iter().any(|a| matches!(a, Action::Move { automatic: false, player, .. } if Some(*player) != self.computer()))
    }

    fn reading_of(&self, clocks: &GameClocks, now: i64) -> ClockReading {
        let remaining = clocks.read(now);
        Player::BOTH
            .iter()
            .map(|&p| (self.variant.side(p), remaining[p.index()]))
            .collect()
    }

    /// The clocks as they stand at `now`, while they run.
    fn reading(&self, now: i64) -> Option<ClockReading> {
        self.clocks
            .filter(|c| c.running.is_some())
            .map(|c| self.reading_of(&c, now))
    }

    /// The reading to store with `mv` by the player to move: charged up to `now`, plus the
    /// increment when the move ends the turn (a Duodecim turn is several moves).
    fn reading_after(&self, mv: AnyMove, now: i64) -> Result<Option<ClockReading>, Refusal> {
        let Some(mut clocks) = self.clocks.filter(|c| c.running.is_some()) else {
            return Ok(None);
        };
        let mover = self.engine.to_move();
        clocks.switch(now, Some(mover));
        let mut after = self.engine.clone();
        after.play(mv)?;
        if after.to_move() != mover || after.outcome().is_some() {
            clocks.add_increment(mover);
        }
        Ok(Some(self.reading_of(&clocks, now)))
    }

    fn set_reading(&mut self, reading: &ClockReading, at: i64) {
        let running = self.clocks_running().then(|| self.engine.to_move());
        if let Some(clocks) = &mut self.clocks {
            for player in Player::BOTH {
                if let Some(&ms) = reading.get(&self.variant.side(player)) {
                    clocks.remaining[player.index()] = ms;
                }
            }
            clocks.running = running;
            clocks.since = at;
        }
    }

    /// Applies one event of the log (replay and live play alike).
    pub fn apply(&mut self, event: &GameEvent, at: i64) -> Result<(), ReplayError> {
        match event {
            GameEvent::Joined { .. } => self.start(at),
            GameEvent::ClockStarted { clocks } => {
                if let Some(c) = &mut self.clocks {
                    c.running = Some(self.engine.to_move());
                }
                self.set_reading(clocks, at);
            }
            GameEvent::ClocksPaused { clocks } => {
                self.stop_clocks(at);
                self.set_reading(clocks, at);
            }
            GameEvent::Roll { dice, .. } => {
                let roller = self.engine.to_move();
                self.engine.roll(dice)?;
                self.dice_thrown += dice.len() as u64;
                self.actions.push(Action::Roll(dice.clone()));
                // A roll none of whose dice can be played ends its turn at once (RULES.md §3.2):
                // the clock passes with the turn. A turn without a move spends no time and earns
                // no increment.
                let next = self.engine.to_move();
                if next != roller
                    && let Some(clocks) = self.clocks.as_mut().filter(|c| c.running.is_some())
                {
                    clocks.switch(at, Some(next));
                }
            }
            GameEvent::Move {
                side,
                notation,
                automatic,
                clocks,
                checked,
            } => {
                let player = self.player_of(*side)?;
                let mv = match checked.0 {
                    Some(mv) => {
                        self.engine.play(mv)?;
                        mv
                    }
                    None => self.engine.play_text(notation)?,
                };
                self.actions.push(Action::Move {
                    player,
                    mv,
                    automatic: *automatic,
                });
                self.draw_offer = None;
                self.undo_offer = None;
                if let Some(reading) = clocks {
                    self.set_reading(reading, at);
                }
            }
            GameEvent::UndoOffered { side } => self.undo_offer = Some(self.player_of(*side)?),
            GameEvent::UndoDeclined { .. } => self.undo_offer = None,
            GameEvent::RematchOffered { side, .. } => {
                self.rematch_offer = Some(self.player_of(*side)?)
            }
            GameEvent::RematchDeclined { .. } => self.rematch_offer = None,
            GameEvent::DrawOffered { side } => {
                let player = self.player_of(*side)?;
                self.draw_offer = Some(player);
                self.draw_offered_after[player.index()] = Some(self.moves().count());
            }
            GameEvent::DrawDeclined { .. } => self.draw_offer = None,
            GameEvent::Undo { keep, clocks, .. } => {
                self.replay_actions(*keep)?;
                self.draw_offer = None;
                self.undo_offer = None;
                if let Some(reading) = clocks {
                    self.set_reading(reading, at);
                }
            }
            GameEvent::Finished {
                winner,
                termination,
                ..
            } => {
                let winner = winner.map(|side| self.player_of(side)).transpose()?;
                self.status = Status::Finished;
                // An offer ends with the game (an accepted draw's too: the result says it).
                self.draw_offer = None;
                self.undo_offer = None;
                self.result = Some(GameResult {
                    outcome: Outcome {
                        winner,
                        termination: *termination,
                    },
                    finished_at: at,
                });
                self.stop_clocks(at);
            }
            GameEvent::Aborted { .. } => {
                self.status = Status::Aborted;
                self.draw_offer = None;
                self.undo_offer = None;
                self.result = None;
                self.stop_clocks(at);
            }
            GameEvent::Rematch { game_id } => {
                // The offer, if any, is answered: nothing is pending any more.
                self.rematch_offer = None;
                self.rematch = Some(game_id.clone());
            }
        }
        self.version += 1;
        if !event.leaves_board() {
            self.board_version = self.version;
        }
        Ok(())
    }

    fn stop_clocks(&mut self, at: i64) {
        if let Some(clocks) = self.clocks.as_mut().filter(|c| c.running.is_some()) {
            clocks.switch(at, None);
        }
    }

    /// Rebuilds the engine from the first `keep` actions.
    fn replay_actions(&mut self, keep: usize) -> Result<(), ReplayError> {
        if keep > self.actions.len() {
            return Err(ReplayError::UndoPastStart {
                keep,
                played: self.actions.len(),
            });
        }
        let kept: Vec<Action> = self.actions.iter().take(keep).cloned().collect();
        self.engine = AnyGame::new(self.variant, self.first_player());
        self.actions.clear();
        self.dice_thrown = 0;
        for action in kept {
            action.replay_on(&mut self.engine)?;
            if let Action::Roll(dice) = &action {
                self.dice_thrown += dice.len() as u64;
            }
            self.actions.push(action);
        }
        Ok(())
    }

    /// Applies `events` and the automatic events that follow them (the end, rolls the phase asks
    /// for, moves with no choice in them); returns them all in order. On an error the game is
    /// left part-way, and the caller restores the state it kept.
    pub fn advance(
        &mut self,
        events: Vec<GameEvent>,
        now: i64,
    ) -> Result<Vec<GameEvent>, ReplayError> {
        /// A bound on follow-ups, against a runaway loop.
        const MAX_FOLLOW_UPS: usize = 64;
        let mut batch = events;
        for event in &batch {
            self.apply(event, now)?;
        }
        while batch.len() < MAX_FOLLOW_UPS {
            let Some(event) = self.next_automatic(now) else {
                break;
            };
            self.apply(&event, now)?;
            batch.push(event);
        }
        Ok(batch)
    }

    // ---- deciding: requests in, events out --------------------------------------------------

    /// The events that follow by themselves: the game's end, a roll the phase asks for, a move
    /// with no choice in it. Called after every applied batch until it returns `None`.
    pub fn next_automatic(&self, now: i64) -> Option<GameEvent> {
        if self.status != Status::Playing {
            return None;
        }
        if let Some(outcome) = self.engine.outcome() {
            return Some(self.finished(outcome));
        }
        let side = self.variant.side(self.engine.to_move());
        match self.engine.phase() {
            Phase::AwaitingRoll => {
                let seed = self.seed.expect("a game being played has its seed");
                Some(GameEvent::Roll {
                    side,
                    dice: seed.dice(self.dice_thrown, self.variant.dice_per_roll()),
                })
            }
            Phase::AwaitingMove => self.engine.automatic_move().map(|mv| GameEvent::Move {
                side,
                notation: mv.notation(),
                automatic: true,
                clocks: self.reading_after(mv, now).ok().flatten(),
                checked: Checked(Some(mv)),
            }),
            Phase::Over(_) => None,
        }
    }

    fn finished(&self, outcome: Outcome) -> GameEvent {
        let StoredResult {
            winner,
            termination,
        } = self.sided(outcome);
        GameEvent::Finished {
            winner,
            termination,
            server_seed: (self.variant.dice_per_roll() > 0)
                .then(|| ludus_engine::dice::to_hex(&self.server_seed.0)),
        }
    }

    /// A time-out due at `now`, if the running player's clock has run out. Online, a player
    /// not `seen` since the game began (`never_came`) does not lose it: the game is aborted.
    pub fn flag_due(&self, now: i64, seen: &Presence) -> Option<GameEvent> {
        let (player, deadline) = self.clocks?.deadline()?;
        if self.status != Status::Playing || now < deadline {
            return None;
        }
        Some(if self.never_came(player, seen) {
            GameEvent::Aborted {
                side: None,
                absent: Some(self.variant.side(player)),
            }
        } else {
            self.finished(Outcome::win(player.other(), Termination::Timeout))
        })
    }

    /// Online, `player` has not been `seen` since play began: no socket of theirs is open and
    /// their last sign of life came no later than the start. A challenger away when their
    /// challenge was accepted; an inviter who closed the page before the join. (After a restart
    /// everyone counts as seen at the restart: the rule then waits for them as for anyone.)
    fn never_came(&self, player: Player, seen: &Presence) -> bool {
        self.mode == Mode::Online && not_seen_since(self.started_at, player, seen)
    }

    /// When an online game still waiting for its invite is aborted (`expiry_ms` after creation).
    pub fn invite_expires_at(&self, expiry_ms: i64) -> Option<i64> {
        (self.status == Status::Waiting).then_some(self.created_at + expiry_ms)
    }

    /// The abort of a game whose invite was not used in time, if it is due at `now`.
    pub fn expiry_due(&self, expiry_ms: i64, now: i64) -> Option<GameEvent> {
        self.invite_expires_at(expiry_ms)
            .filter(|&at| now >= at)
            .map(|_| GameEvent::Aborted {
                side: None,
                absent: None,
            })
    }

    fn require_playing(&self) -> Result<(), Refusal> {
        match self.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(Refusal::NotStarted),
            Status::Finished | Status::Aborted => Err(Refusal::GameOver),
        }
    }

    /// The player a seat acts for in a request that is not a move (local: the side to move).
    fn acting_player(&self, seat: Seat) -> Result<Player, Refusal> {
        match seat {
            Seat::Player(player) => Ok(player),
            Seat::Both => Ok(self.engine.to_move()),
            Seat::Spectator => Err(Refusal::NoSeat),
        }
    }

    /// A move by `seat` seen at `version`: stale only if the board has changed since, so that
    /// events which leave it as it was (the clocks paused and started by a restart, an offer)
    /// do not turn away a move that means what it meant (docs/PROTOCOL.md §2).
    pub fn decide_move(
        &self,
        seat: Seat,
        text: &str,
        version: u64,
        now: i64,
    ) -> Result<GameEvent, Refusal> {
        if seat == Seat::Spectator {
            return Err(Refusal::NoSeat);
        }
        self.require_playing()?;
        if !(self.board_version..=self.version).contains(&version) {
            return Err(Refusal::Stale {
                version: self.version,
            });
        }
        let mover = self.engine.to_move();
        if !seat.speaks_for(mover) {
            return Err(Refusal::NotYourTurn);
        }
        let mv = self.engine.parse_move(text)?;
        Ok(GameEvent::Move {
            side: self.variant.side(mover),
            notation: mv.notation(),
            automatic: false,
            clocks: self.reading_after(mv, now)?,
            checked: Checked(Some(mv)),
        })
    }

    pub fn decide_resign(&self, seat: Seat) -> Result<GameEvent, Refusal> {
        let player = self.acting_player(seat)?;
        self.require_playing()?;
        Ok(self.finished(Outcome::win(player.other(), Termination::Resignation)))
    }

    /// Offers a draw, or accepts the opponent's offer (Petteia, online or on one screen).
    pub fn decide_draw(&self, seat: Seat) -> Result<GameEvent, Refusal> {
        let player = self.acting_player(seat)?;
        self.require_playing()?;
        if self.variant.dice_per_roll() > 0 {
            return Err(Refusal::DrawsInPetteiaOnly);
        }
        if self.mode == Mode::Computer {
            return Err(Refusal::ComputerTakesNoDraws);
        }
        match self.draw_offer {
            Some(offerer) if offerer != player || seat == Seat::Both => {
                Ok(self.finished(Outcome::draw(Termination::Agreement)))
            }
            Some(_) => Err(Refusal::DrawAlreadyOffered),
            None if self.draw_offered_after[player.index()] == Some(self.moves().count()) => {
                Err(Refusal::OneDrawOfferPerMove)
            }
            None => Ok(GameEvent::DrawOffered {
                side: self.variant.side(player),
            }),
        }
    }

    pub fn decide_draw_decline(&self, seat: Seat) -> Result<GameEvent, Refusal> {
        let player = self.acting_player(seat)?;
        self.require_playing()?;
        match self.draw_offer {
            Some(offerer) if offerer != player || seat == Seat::Both => {
                Ok(GameEvent::DrawDeclined {
                    side: self.variant.side(player),
                })
            }
            _ => Err(Refusal::NoDrawOffer),
        }
    }

    /// Whether `seat` may ask for a hint now: in computer and local games only (online, a hint
    /// would be the computer playing for one side), and for a move it is to make.
    pub fn allow_hint(&self, seat: Seat) -> Result<(), Refusal> {
        if seat == Seat::Spectator {
            return Err(Refusal::NoSeat);
        }
        if self.mode == Mode::Online {
            return Err(Refusal::HintsOffline);
        }
        self.require_playing()?;
        // A game in play always awaits a move (the server rolls at once), and the human's seat of
        // a computer game never speaks for the computer.
        if !seat.speaks_for(self.engine.to_move()) {
            return Err(Refusal::NotYourTurn);
        }
        Ok(())
    }

    /// Takes back the last move of a person (computer games: back to the human's previous turn,
    /// undoing the computer's replies too; local games: the last move). Online it asks the
    /// opponent, who accepts with `decide_undo_accept`. Never gives time back.
    pub fn decide_undo(&self, seat: Seat, now: i64) -> Result<GameEvent, Refusal> {
        let player = self.acting_player(seat)?;
        self.require_playing()?;
        let keep = self.last_move_of(self.taken_back_for(player))?;
        if self.mode == Mode::Online {
            // One request at a time: a pending one (either side's) is answered first.
            return match self.undo_offer {
                Some(_) => Err(Refusal::UndoPending),
                None => Ok(GameEvent::UndoOffered {
                    side: self.variant.side(player),
                }),
            };
        }
        // Whose move is taken back: on a shared screen, not the side to move that asked.
        let mover = match self.actions.get(keep) {
            Some(Action::Move { player, .. }) => *player,
            _ => player,
        };
        Ok(GameEvent::Undo {
            side: self.variant.side(mover),
            keep,
            clocks: self.reading(now),
        })
    }

    /// Whether each side has made a move of its own (not one played for it): a game that ended
    /// sooner is not rated.
    pub fn each_side_has_moved(&self) -> bool {
        [Player::First, Player::Second].into_iter().all(|side| {
            self.actions.iter().any(|action| {
                matches!(action, Action::Move { player, automatic: false, .. } if *player == side)
            })
        })
    }

    /// Whether `seat` has a move to take back now (its view says so: a page offers the undo
    /// only then).
    pub fn can_take_back(&self, seat: Seat) -> bool {
        self.status == Status::Playing
            && self
                .acting_player(seat)
                .is_ok_and(|player| self.last_move_of(self.taken_back_for(player)).is_ok())
    }

    /// Whose last move an undo by `player` takes back: its own online, the person's against the
    /// computer (with the computer's replies), anyone's on a shared screen.
    fn taken_back_for(&self, player: Player) -> Option<Player> {
        match self.mode {
            Mode::Online => Some(player),
            Mode::Computer => Some(self.creator()),
            Mode::Local => None,
        }
    }

    /// The opponent of the asker accepts: the asker's last move (and what followed it) is taken
    /// back, the asker to move again. Time is not given back.
    pub fn decide_undo_accept(&self, seat: Seat, now: i64) -> Result<GameEvent, Refusal> {
        let asker = self.opponents_request(seat, self.undo_offer)?;
        Ok(GameEvent::Undo {
            side: self.variant.side(asker),
            keep: self.last_move_of(Some(asker))?,
            clocks: self.reading(now),
        })
    }

    pub fn decide_undo_decline(&self, seat: Seat) -> Result<GameEvent, Refusal> {
        let asker = self.opponents_request(seat, self.undo_offer)?;
        Ok(GameEvent::UndoDeclined {
            side: self.variant.side(asker.other()),
        })
    }

    /// The asker of a request `seat` may answer: a player's opponent, online.
    fn opponents_request(&self, seat: Seat, request: Option<Player>) -> Result<Player, Refusal> {
        let player = self.acting_player(seat)?;
        self.require_playing()?;
        match request {
            Some(asker) if asker != player => Ok(asker),
            _ => Err(Refusal::NoUndoRequest),
        }
    }

    /// The number of actions before the last move a person made (of `player`, if given): what an
    /// undo keeps.
    fn last_move_of(&self, player: Option<Player>) -> Result<usize, Refusal> {
        self.actions
            .iter()
            .rposition(|a| matches!(a, Action::Move { automatic: false, player: p, .. } if player.is_none_or(|want| *p == want)))
            .ok_or(Refusal::NothingToTakeBack)
    }

    /// A rematch request by `seat` after a finished game: in computer and local games it is made
    /// at once; online the first request is an offer and the opponent's request accepts it. An
    /// aborted game has none, as its page offers none (an online one whose invite nobody took got
    /// an offer no one could answer).
    pub fn decide_rematch(&self, seat: Seat) -> Result<RematchStep, Refusal> {
        if seat == Seat::Spectator {
            return Err(Refusal::NoSeat);
        }
        if self.status != Status::Finished {
            return Err(Refusal::RematchBeforeEnd);
        }
        if self.rematch.is_some() {
            return Ok(RematchStep::AlreadyDone);
        }
        let Seat::Player(player) = seat else {
            return Ok(RematchStep::Create);
        };
        match (self.mode, self.rematch_offer) {
            (Mode::Online, None) => Ok(RematchStep::Offer(self.variant.side(player))),
            (Mode::Online, Some(offerer)) if offerer == player => Ok(RematchStep::AlreadyDone),
            _ => Ok(RematchStep::Create),
        }
    }

    pub fn decide_rematch_decline(&self, seat: Seat) -> Result<GameEvent, Refusal> {
        let player = self.acting_player(seat)?;
        match self.rematch_offer {
            Some(offerer) if offerer != player && self.rematch.is_none() => {
                Ok(GameEvent::RematchDeclined {
                    side: self.variant.side(player),
                })
            }
            _ => Err(Refusal::NoRematchOffer),
        }
    }

    /// Aborts a game in which no person has moved yet.
    pub fn decide_abort(&self, seat: Seat) -> Result<GameEvent, Refusal> {
        if seat == Seat::Spectator {
            return Err(Refusal::NoSeat);
        }
        if self.status.is_over() {
            return Err(Refusal::GameOver);
        }
        if self.has_human_move() {
            return Err(Refusal::AbortAfterFirstMove);
        }
        if self.dice_seen_online() {
            return Err(Refusal::AbortAfterRoll);
        }
        let side = match seat {
            Seat::Player(p) => Some(self.variant.side(p)),
            _ => None,
        };
        Ok(GameEvent::Aborted { side, absent: None })
    }

    /// Online, a die was thrown: it was shown to both, so the game has begun though no one has
    /// moved. Aborting then would let a player who dislikes the opening roll throw again (good
    /// backgammon sites count leaving then as a loss).
    fn dice_seen_online(&self) -> bool {
        self.mode == Mode::Online && self.dice_thrown > 0
    }

    /// What a claim would do in the game as it is now (`ClaimRule`).
    pub fn claim_rule(&self) -> ClaimRule {
        ClaimRule {
            each_side_has_moved: self.each_side_has_moved(),
            dice_seen_online: self.dice_seen_online(),
            started_at: self.started_at,
        }
    }

    /// Claims the win when the opponent has been away the claim window (`seen` says), or aborts
    /// a game not begun (`ClaimRule`).
    pub fn decide_claim(
        &self,
        seat: Seat,
        seen: &Presence,
        now: i64,
    ) -> Result<GameEvent, Refusal> {
        let Seat::Player(player) = seat else {
            return Err(Refusal::ClaimOnlyOnline);
        };
        self.require_playing()?;
        if self.mode != Mode::Online {
            return Err(Refusal::ClaimOnlyOnline);
        }
        let opponent = player.other();
        let Some(away_since) = seen.away_since(opponent, now) else {
            return Err(Refusal::OpponentConnected);
        };
        let (gone_ms, needed_ms) = (now - away_since, seen.window_ms);
        if gone_ms < needed_ms {
            return Err(Refusal::ClaimTooEarly { gone_ms, needed_ms });
        }
        if self.claim_rule().aborts(opponent, seen) {
            Ok(GameEvent::Aborted {
                side: Some(self.variant.side(player)),
                absent: None,
            })
        } else {
            Ok(self.finished(Outcome::win(player, Termination::Abandoned)))
        }
    }

    /// The events that start play when the invitee joins.
    pub fn decide_join(&self) -> Vec<GameEvent> {
        let joiner = self.creator().other();
        let mut events = vec![GameEvent::Joined {
            side: self.variant.side(joiner),
        }];
        events.extend(self.clock_start());
        events
    }

    /// The clocks stop while no server serves the game (it shuts down), if they run.
    pub fn pause_clocks(&self, now: i64) -> Option<GameEvent> {
        let clocks = self
            .reading(now)
            .filter(|_| self.status == Status::Playing)?;
        Some(GameEvent::ClocksPaused { clocks })
    }

    /// The clocks paused after a crash (`outage`): charged until the server was last known
    /// alive, or until the game's last event if that came later, and not after. None for a game
    /// whose clocks do not run, or that has moved since the restart.
    pub fn pause_after(&self, outage: Outage) -> Option<GameEvent> {
        let since = self.clocks?.since;
        if since >= outage.restarted_at {
            return None;
        }
        self.pause_clocks(outage.last_alive.clamp(since, outage.restarted_at))
    }

    /// Whether the clocks of a game in play stand still (`clocks_paused`).
    pub fn clocks_paused(&self) -> bool {
        self.status == Status::Playing && self.clocks.is_some_and(|c| c.running.is_none())
    }

    /// The clocks go on from where they were paused, if they were.
    pub fn resume_clocks(&self) -> Option<GameEvent> {
        self.clocks_paused().then(|| self.clock_start()).flatten()
    }

    /// The clocks start (online: at the join; otherwise at creation), the side to move running.
    pub fn clock_start(&self) -> Option<GameEvent> {
        let clocks = self.clocks?;
        Some(GameEvent::ClockStarted {
            clocks: Player::BOTH
                .iter()
                .map(|&p| (self.variant.side(p), clocks.remaining[p.index()]))
                .collect(),
        })
    }

    /// The game's record (docs/RULES.md §4): seeds are shown only once the game is over.
    pub fn record(&self) -> ludus_engine::record::Record {
        use ludus_engine::dice::to_hex;
        use ludus_engine::record::{Record, Step, result_text};
        let mut record = Record::default();
        record.set("Variant", self.variant.id());
        record.set("Game", self.id.to_string());
        record.set("Mode", self.mode.name());
        let dice_game = self.variant.dice_per_roll() > 0;
        if dice_game {
            record.set("Commitment", to_hex(&self.server_seed.commitment()));
        }
        record.set("CreatorEntropy", self.creator_entropy.to_string());
        record.set("JoinerEntropy", self.joiner_entropy.to_string());
        if let (true, Some(seed)) = (dice_game, self.revealed_seed()) {
            record.set("ServerSeed", to_hex(&self.server_seed.0));
            record.set("Seed", to_hex(&seed.0));
        }
        if self.status != Status::Waiting {
            record.set("First", self.variant.side(self.first_player()).name());
        }
        let (result, termination) = match (self.status, self.result) {
            (_, Some(r)) => (result_text(r.outcome.winner), r.outcome.termination.name()),
            (Status::Aborted, None) => ("*", "aborted"),
            _ => ("*", ""),
        };
        record.set("Result", result);
        if !termination.is_empty() {
            record.set("Termination", termination);
        }
        record.set("RulesVersion", ludus_engine::record::RULES_VERSION);
        record.steps = self
            .actions
            .iter()
            .map(|action| match action {
                Action::Roll(dice) => Step::Roll(dice.clone()),
                Action::Move { mv, .. } => Step::Move(mv.to_string()),
            })
            .collect();
        record.line_starts = self.turn_starts();
        record
    }

    /// Where each turn begins among the actions, for the record's lines: in the dice games at
    /// each change of the side that acts (bonus dice are played by the next side, before its
    /// roll), in Petteia at each move of the first side. Replayed, since a roll does not say whose
    /// it is; empty if the actions did not replay (the record then breaks its lines at rolls).
    fn turn_starts(&self) -> Vec<usize> {
        let first = self.first_player();
        let dice_game = self.variant.dice_per_roll() > 0;
        let mut replay = AnyGame::new(self.variant, first);
        let mut starts = Vec::new();
        let mut previous = None;
        for (index, action) in self.actions.iter().enumerate() {
            let mover = replay.to_move();
            if previous != Some(mover) && (dice_game || mover == first) {
                starts.push(index);
            }
            previous = Some(mover);
            if action.replay_on(&mut replay).is_err() {
                return Vec::new();
            }
        }
        starts
    }

    pub fn clocks_running(&self) -> bool {
        self.clocks.is_some_and(|c| c.running.is_some())
    }

    /// A new game for tests: created at 0 by the first player, seated unless online.
    #[cfg(test)]
    pub fn for_tests(
        variant: Variant,
        mode: Mode,
        clock: Option<super::ClockSettings>,
    ) -> LiveGame {
        LiveGame::new(Creation {
            id: "g".parse().unwrap(),
            variant,
            mode,
            settings: Settings {
                clock,
                level: None,
                creator: super::PlayerIndex(Player::First),
            },
            server_seed: ServerSeed([7; 32]),
            creator_entropy: "alice".into(),
            joiner_entropy: String::new(),
            created_at: 0,
            seated: mode != Mode::Online,
        })
    }
}

#[cfg(test)]
mod tests;
