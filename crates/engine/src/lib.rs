//! The rules of the games Ludus plays: Petteia, Pente Grammai and Duodecim Scripta.
//!
//! This crate is pure and synchronous: no I/O, no async, no global random generator. Dice are
//! explicit roll events whose values come from [`dice`] (docs/RULES.md §4) or from the caller.
//! Positions and moves parse from and print to the notations of docs/RULES.md; inside, everything is typed.

mod any_game;
mod bitset;
pub mod dice;
pub mod duodecim;
mod game;
mod notation;
pub mod pente_grammai;
pub mod perft;
pub mod petteia;
mod player;
pub mod record;
mod variant;
mod zobrist;

pub use any_game::{AnyGame, AnyMove, MoveError, PositionError, RollError};
pub use game::{Chance, Game, Odds, Outcome, Phase, Termination, Threat, Threats};
pub use notation::{MAX_NOTATION_LEN, NotationError};
pub use player::{Player, Side};
pub use variant::{FirstPlayer, UnknownVariant, Variant};
