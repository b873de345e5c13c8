//! Players: optional accounts (names, passwords, sessions and personal tokens), and the notices a
//! signed-in player receives on their event stream. Anonymous play never passes through here: a
//! game needs no account, and an account only adds who holds a seat.

pub mod credentials;
pub mod notifier;
