//! Why the game layer says no, or fails. The pure core (`live`) and the actor refuse requests
//! with a `Refusal`, which names the rule that was broken and knows nothing of HTTP; a game that
//! does not replay from its log is a `ReplayError` (a fault of the server's data, never of the
//! request); `GameError` is what the registry answers, causes kept. The API maps it to the wire
//! shape once (`impl From<GameError> for ApiError`).

use ludus_engine::{MoveError, RollError, Side, Variant};

/// A request the rules of live play do not allow; nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The request came without a seat token of this game.
    #[error("a valid seat token is required")]
    NoSeat,
    #[error("the game has not started: the invite has not been used yet")]
    NotStarted,
    #[error("the game is over")]
    GameOver,
    #[error("the game has moved on to version {version}")]
    Stale { version: u64 },
    #[error("it is not your turn")]
    NotYourTurn,
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("a move id has at most 64 characters and no control characters")]
    MalformedMoveId,
    #[error("draws by agreement are offered in Petteia only")]
    DrawsInPetteiaOnly,
    #[error("the computer does not take draw offers")]
    ComputerTakesNoDraws,
    #[error("you have already offered a draw")]
    DrawAlreadyOffered,
    #[error("there is no draw offer to decline")]
    NoDrawOffer,
    #[error("a draw is offered once per move: play on, then offer again")]
    OneDrawOfferPerMove,
    #[error("hints are given in computer and local games")]
    HintsOffline,
    #[error("a takeback request is waiting for its answer")]
    UndoPending,
    #[error("there is no takeback request to answer")]
    NoUndoRequest,
    #[error("there is no move to take back")]
    NothingToTakeBack,
    #[error("a game can be aborted only before the first move")]
    AbortAfterFirstMove,
    #[error("an online dice game cannot be aborted once its dice are thrown: resign instead")]
    AbortAfterRoll,
    #[error("only a player of an online game can claim a win")]
    ClaimOnlyOnline,
    #[error("the opponent is connected")]
    OpponentConnected,
    #[error(
        "the opponent has been gone for {} s; a win can be claimed after {} s",
        gone_ms / 1000,
        needed_ms / 1000
    )]
    ClaimTooEarly { gone_ms: i64, needed_ms: i64 },
    #[error("a rematch follows a finished game")]
    RematchBeforeEnd,
    #[error("there is no rematch offer to decline")]
    NoRematchOffer,
    /// Names the invite's game: whoever holds the invite may watch it, and an account that holds
    /// the game's other seat (`yours`) opens it as that seat.
    #[error("{}", seat_taken_words(*yours))]
    SeatTaken {
        game: ludus_store::GameId,
        yours: bool,
    },
}

/// Why a join found its seat taken.
pub fn seat_taken_words(yours: bool) -> &'static str {
    if yours {
        "you hold this game's other seat: no one plays themselves (open the game to play it)"
    } else {
        "the seat was taken: the invite has been used"
    }
}

impl Refusal {
    /// The rule's name in an error body (`refusal`), for the refusals answered as `bad_request`
    /// or `forbidden`; the others have codes of their own.
    pub fn name(&self) -> Option<&'static str> {
        Some(match self {
            Refusal::MalformedMoveId => "malformed_move_id",
            Refusal::DrawAlreadyOffered => "draw_already_offered",
            Refusal::NoDrawOffer => "no_draw_offer",
            Refusal::NothingToTakeBack => "nothing_to_take_back",
            Refusal::UndoPending => "undo_pending",
            Refusal::NoUndoRequest => "no_undo_request",
            Refusal::NoRematchOffer => "no_rematch_offer",
            Refusal::OneDrawOfferPerMove => "one_draw_offer_per_move",
            Refusal::NotStarted => "not_started",
            Refusal::DrawsInPetteiaOnly => "draws_in_petteia_only",
            Refusal::ComputerTakesNoDraws => "computer_takes_no_draws",
            Refusal::HintsOffline => "hints_offline",
            Refusal::AbortAfterFirstMove => "abort_after_first_move",
            Refusal::AbortAfterRoll => "abort_after_roll",
            Refusal::ClaimOnlyOnline => "claim_only_online",
            Refusal::OpponentConnected => "opponent_connected",
            Refusal::ClaimTooEarly { .. } => "claim_too_early",
            Refusal::RematchBeforeEnd => "rematch_before_end",
            Refusal::NoSeat
            | Refusal::GameOver
            | Refusal::Stale { .. }
            | Refusal::NotYourTurn
            | Refusal::Move(_)
            | Refusal::SeatTaken { .. } => return None,
        })
    }

    /// Whether the rule forbids the request (403) rather than finding it malformed or out of
    /// place (400).
    pub fn forbids(&self) -> bool {
        matches!(
            self,
            Refusal::OneDrawOfferPerMove
                | Refusal::NotStarted
                | Refusal::DrawsInPetteiaOnly
                | Refusal::ComputerTakesNoDraws
                | Refusal::HintsOffline
                | Refusal::AbortAfterFirstMove
                | Refusal::AbortAfterRoll
                | Refusal::ClaimOnlyOnline
                | Refusal::OpponentConnected
                | Refusal::ClaimTooEarly { .. }
                | Refusal::RematchBeforeEnd
        )
    }
}

/// A stored or decided event that does not apply to the game it belongs to.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{side} does not play {variant}")]
    ForeignSide { side: Side, variant: Variant },
    #[error("a roll does not apply: {0}")]
    Roll(#[from] RollError),
    #[error("a move does not apply: {0}")]
    Move(#[from] MoveError),
    #[error("an undo keeps {keep} actions of {played}")]
    UndoPastStart { keep: usize, played: usize },
    #[error("a computer game without a computer level")]
    NoLevel,
    #[error("the stored settings: {0}")]
    Settings(serde_json::Error),
    #[error("event {seq} is not an event: {source}")]
    Event { seq: i64, source: serde_json::Error },
}

/// What the registry and the actors answer when they do not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("no such game")]
    NoGame,
    #[error("no such invite")]
    NoInvite,
    #[error("the store failed")]
    Store(#[from] ludus_store::StoreError),
    #[error("game {game} does not replay")]
    Replay {
        game: ludus_store::GameId,
        source: ReplayError,
    },
    /// The game's actor stopped before it answered (the server is shutting down).
    #[error("the game's actor stopped")]
    Stopped,
    /// The computer's search ended without a move (its task failed).
    #[error("the computer found no move")]
    NoMove,
}

/// An error and its causes on one line, for a log. A cause whose words the line already ends
/// with is not repeated (sqlx's errors, among others, show their source in their own message).
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let words = inner.to_string();
        if !text.ends_with(&words) {
            text.push_str(": ");
            text.push_str(&words);
        }
        cause = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_chain;

    #[derive(Debug, thiserror::Error)]
    #[error("{words}")]
    struct Layer {
        words: &'static str,
        #[source]
        cause: Option<Box<Layer>>,
    }

    fn layers(words: &[&'static str]) -> Layer {
        words
            .iter()
            .rev()
            .fold(None, |cause, &words| {
                Some(Layer {
                    words,
                    cause: cause.map(Box::new),
                })
            })
            .expect("a layer")
    }

    #[test]
    fn a_chain_names_each_cause_once() {
        assert_eq!(
            error_chain(&layers(&["the store failed", "disk full"])),
            "the store failed: disk full"
        );
        // A layer that already shows its cause (as sqlx's do) is not followed by it again.
        assert_eq!(
            error_chain(&layers(&[
                "the store failed",
                "database: readonly",
                "readonly"
            ])),
            "the store failed: database: readonly"
        );
    }
}
