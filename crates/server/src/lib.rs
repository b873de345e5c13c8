//! The Ludus service and its tools. `main.rs` only parses the command line and calls in here.

pub mod analysis;
