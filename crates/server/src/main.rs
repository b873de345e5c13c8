//! The `ludus` command: parses the command line and calls the library. Nothing else lives here.

use clap::{Parser, Subcommand};
use ludus_engine::{AnyGame, Variant};
use ludus_server::analysis;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "ludus",
    version,
    about = "Ludus: ancient Greek and Roman board games, online"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the analysis of a position as JSON: legal moves, outcome, threatened pieces.
    Analyze {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        position: String,
        /// The roll the position awaits, e.g. 3,4,1.
        #[arg(long)]
        dice: Option<String>,
    },
    /// Count the move sequences of a given length (the node count is the last line).
    Perft {
        #[arg(long)]
        variant: String,
        /// The start position when omitted.
        #[arg(long)]
        position: Option<String>,
        #[arg(long)]
        depth: u32,
        /// The dice of the rolls met on the way, in order, e.g. 3,4,1,6.
        #[arg(long)]
        dice: Option<String>,
    },
}

/// Bad input: one line that says what is wrong, and exit status 2.
fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn parse_dice(text: &str) -> Result<Vec<u8>, String> {
    text.split(',')
        .enumerate()
        .map(|(i, die)| match die.trim().parse::<u8>() {
            Ok(face @ 1..=6) => Ok(face),
            _ => Err(format!(
                "--dice: die {} is {:?}; a die is a number from 1 to 6",
                i + 1,
                die.trim()
            )),
        })
        .collect()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Analyze {
            variant,
            position,
            dice,
        } => {
            let variant: Variant = match variant.parse() {
                Ok(v) => v,
                Err(e) => return refuse(format!("--variant: {e}")),
            };
            let dice = match dice.as_deref().map(parse_dice).transpose() {
                Ok(d) => d,
                Err(e) => return refuse(e),
            };
            match analysis::analyze(variant, &position, dice.as_deref(), &[]) {
                Ok(result) => {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&result).expect("analysis serialises")
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => refuse(e),
            }
        }
        Command::Perft {
            variant,
            position,
            depth,
            dice,
        } => {
            let variant: Variant = match variant.parse() {
                Ok(v) => v,
                Err(e) => return refuse(format!("--variant: {e}")),
            };
            let dice = match dice.as_deref().map(parse_dice).transpose() {
                Ok(d) => d.unwrap_or_default(),
                Err(e) => return refuse(e),
            };
            let game = match position {
                Some(text) => AnyGame::from_position(variant, &text, None),
                None => AnyGame::new(variant, ludus_engine::Player::First),
            };
            let game = match game {
                Ok(g) => g,
                Err(e) => return refuse(format!("position: {e}")),
            };
            match game.perft(depth, &dice) {
                Ok(nodes) => {
                    println!("{nodes}");
                    ExitCode::SUCCESS
                }
                Err(e) => refuse(format!("--dice: {e}")),
            }
        }
    }
}
