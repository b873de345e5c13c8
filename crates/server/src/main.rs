//! The `ludus` command: parses the command line and calls the library. Nothing else lives here.

use clap::{Parser, Subcommand};
use ludus_engine::{AnyGame, Variant};
use ludus_server::analysis;
use ludus_server::config::{LogFormat, ServeConfig};
use std::process::ExitCode;

// The server allocates many short-lived strings per move (views, messages, rows); under load
// glibc's allocator took over a quarter of its CPU, mimalloc a fraction of that (called as
// `ludus-allocator` explains). The feature `system-allocator` keeps glibc's, which heap
// profilers see.
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: ludus_allocator::Allocator = ludus_allocator::Allocator;

#[derive(Debug, Parser)]
#[command(
    name = "ludus",
    version,
    about = "Ludus: ancient Greek and Roman board games, online",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Without a command, `ludus` serves (as `ludus serve`), with the same settings.
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeConfig,
}

/// The command line of a tool alone, without the serving settings `Cli` reads beside it (see
/// `command`).
#[derive(Debug, Parser)]
#[command(name = "ludus", version)]
struct Tools {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the games and the browser client (the default). The serving settings belong to this
    /// command, so the tools' own help lists only theirs.
    Serve(Box<ServeConfig>),
    /// Print the analysis of a position as JSON: legal moves, outcome, threatened pieces.
    Analyze {
        #[arg(long)]
        variant: String,
        /// Pente Grammai positions may begin with `-` (an empty point): taken as a value.
        #[arg(long, allow_hyphen_values = true)]
        position: String,
        /// The roll the position awaits, e.g. 3,4,1.
        #[arg(long)]
        dice: Option<String>,
    },
    /// Exit 0 when the server at --url answers 200 (for container health checks; no curl needed).
    Health {
        /// Default: `/readyz` at LUDUS_LISTEN's address (loopback for `0.0.0.0` or `[::]`; port 8080
        /// without it).
        #[arg(long)]
        url: Option<String>,
    },
    /// Check a game record: the commitment, every die against the seed, every move, the result.
    Verify {
        /// The record file (`-` for standard input).
        record: String,
    },
    /// Count the move sequences of a given length (the node count is the last line).
    Perft {
        #[arg(long)]
        variant: String,
        /// The start position when omitted (it may begin with `-`).
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        #[arg(long)]
        depth: u32,
        /// The dice of the rolls met on the way, in order, e.g. 3,4,1,6.
        #[arg(long)]
        dice: Option<String>,
    },
    /// Play seeded games between two computer levels; the last line is the score with its 95% CI.
    Arena {
        #[arg(long)]
        variant: String,
        /// The level the score is reported for, 1 to 5.
        #[arg(long)]
        a: ludus_ai::Level,
        /// Its opponent, 1 to 5.
        #[arg(long)]
        b: ludus_ai::Level,
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (one core each).
        #[arg(long, default_value_t = 1)]
        threads: usize,
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

/// What to do. A tool's command line is read first on its own: the serving settings (and their
/// `LUDUS_…` variables) are no business of `ludus perft`, and a value there that the server would
/// refuse must not stop a tool.
fn command() -> Command {
    if let Ok(Tools { command }) = Tools::try_parse()
        && !matches!(command, Command::Serve(_))
    {
        return command;
    }
    let cli = Cli::try_parse().unwrap_or_else(|error| {
        // Help and the version are not errors: clap prints them to stdout.
        if !error.use_stderr() {
            error.exit()
        }
        eprint!("{}", naming_the_variable(&error));
        std::process::exit(error.exit_code())
    });
    cli.command.unwrap_or(Command::Serve(Box::new(cli.serve)))
}

/// Clap's message for a bad setting, naming the `LUDUS_…` variable it came from when it did not
/// come from the command line: clap names only the flag, which a compose file never mentions.
fn naming_the_variable(error: &clap::Error) -> String {
    use clap::CommandFactory;
    use clap::error::{ContextKind, ContextValue};
    let message = error.render().to_string();
    let Some(ContextValue::String(shown)) = error.get(ContextKind::InvalidArg) else {
        return message;
    };
    let flag = shown.split([' ', '=']).next().unwrap_or_default();
    let given = std::env::args().any(|arg| arg == flag || arg.starts_with(&format!("{flag}=")));
    let cli = Cli::command();
    let serve = cli.find_subcommand("serve").into_iter();
    let variable = std::iter::once(&cli)
        .chain(serve)
        .flat_map(|command| command.get_arguments())
        .find(|arg| {
            arg.get_long()
                .is_some_and(|long| flag == format!("--{long}"))
        })
        .and_then(|arg| arg.get_env())
        .filter(|variable| !given && std::env::var_os(variable).is_some());
    match variable {
        Some(variable) => message.replacen(
            &format!("'{shown}'"),
            &format!(
                "'{shown}' (the environment variable {})",
                variable.to_string_lossy()
            ),
            1,
        ),
        None => message,
    }
}

fn main() -> ExitCode {
    let tool = match command() {
        Command::Serve(config) => return serve(*config),
        Command::Verify { record } => return verify(&record),
        Command::Health { url } => {
            return match url.map_or_else(own_readiness_url, Ok) {
                Ok(url) => health(&url),
                Err(refused) => refuse(refused),
            };
        }
        Command::Analyze {
            variant,
            position,
            dice,
        } => analyze(&variant, &position, dice.as_deref()),
        Command::Perft {
            variant,
            position,
            depth,
            dice,
        } => perft(&variant, position.as_deref(), depth, dice.as_deref()),
        Command::Arena {
            variant,
            a,
            b,
            games,
            seed,
            threads,
        } => parse_variant(&variant).map(|variant| {
            println!(
                "{}",
                ludus_ai::arena::run(ludus_ai::arena::Match {
                    variant,
                    a,
                    b,
                    games,
                    seed,
                    threads
                })
            );
        }),
    };
    match tool {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => refuse(message),
    }
}

fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse().map_err(|e| format!("--variant: {e}"))
}

fn analyze(variant: &str, position: &str, dice: Option<&str>) -> Result<(), String> {
    let variant = parse_variant(variant)?;
    let dice = dice.map(parse_dice).transpose()?;
    let result =
        analysis::analyze(variant, position, dice.as_deref(), &[]).map_err(|e| e.to_string())?;
    println!(
        "{}",
        serde_json::to_string_pretty(&result).expect("analysis serialises")
    );
    Ok(())
}

fn perft(
    variant: &str,
    position: Option<&str>,
    depth: u32,
    dice: Option<&str>,
) -> Result<(), String> {
    let variant = parse_variant(variant)?;
    let dice = dice.map(parse_dice).transpose()?.unwrap_or_default();
    let game = match position {
        Some(text) => {
            AnyGame::from_position(variant, text, None).map_err(|e| format!("position: {e}"))?
        }
        None => AnyGame::new(variant, ludus_engine::Player::First),
    };
    let nodes = game
        .perft(depth, &dice)
        .map_err(|e| format!("--dice: {e}"))?;
    println!("{nodes}");
    Ok(())
}

fn serve(config: ServeConfig) -> ExitCode {
    init_logging(config.log_format);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => return refuse(format!("cannot start the runtime: {e}")),
    };
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
        ludus_server::run(listener, config, shutdown_signal()).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    const DEFAULT_FILTER: &str = "info,sqlx=warn,tower_http=warn";
    // A `RUST_LOG` that does not parse is said once logging runs, not silently replaced (a
    // self-hoster who mistyped it saw only the default lines, with no word why).
    let asked = std::env::var(EnvFilter::DEFAULT_ENV).unwrap_or_default();
    let (filter, refused) = match EnvFilter::try_new(&asked) {
        Ok(filter) if !asked.trim().is_empty() => (filter, None),
        Ok(_) => (EnvFilter::new(DEFAULT_FILTER), None),
        Err(error) => (EnvFilter::new(DEFAULT_FILTER), Some(error)),
    };
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Json => builder.json().init(),
        // Colours only for a person at a terminal, not in a file or the journal.
        LogFormat::Text => builder
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .init(),
    }
    if let Some(error) = refused {
        tracing::warn!(rust_log = %asked, %error, "RUST_LOG is not a valid filter: logging with the default one ({DEFAULT_FILTER})");
    }
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

fn verify(path: &str) -> ExitCode {
    let text = if path == "-" {
        let mut text = String::new();
        match std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            Ok(_) => text,
            Err(e) => return refuse(format!("cannot read standard input: {e}")),
        }
    } else {
        match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => return refuse(format!("cannot read {path}: {e}")),
        }
    };
    let record: ludus_engine::record::Record = match text.parse() {
        Ok(r) => r,
        Err(e) => return refuse(format!("{path}: {e}")),
    };
    match record.verify() {
        Ok(verified) => {
            if !verified.dice_proven && record.tag("Commitment").is_some() {
                println!(
                    "{} moves and {} rolls replay; the dice are not proven until the server seed is revealed at the end",
                    verified.moves, verified.rolls
                );
            }
            println!("verified");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("not verified: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The readiness of the server this environment runs, at the address `LUDUS_LISTEN` names (on
/// loopback when it listens on every address; port 8080 without it). An address the server could
/// not have listened on is refused, not replaced by the default.
fn own_readiness_url() -> Result<String, String> {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
    let listen = match std::env::var("LUDUS_LISTEN") {
        Ok(listen) => listen.parse::<SocketAddr>().map_err(|_| {
            format!("LUDUS_LISTEN {listen:?} is not an address and port, like 0.0.0.0:8080")
        })?,
        Err(_) => SocketAddr::from((Ipv4Addr::LOCALHOST, 8080)),
    };
    let host = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    Ok(format!(
        "http://{}/readyz",
        SocketAddr::new(host, listen.port())
    ))
}

/// A plain HTTP/1.0 GET over TCP: the health check needs nothing but the standard library.
fn health(url: &str) -> ExitCode {
    use std::io::{Read, Write};
    let Some(rest) = url.strip_prefix("http://") else {
        return refuse("--url: only http:// URLs are checked");
    };
    let (host, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_string()), |(h, p)| (h, format!("/{p}")));
    let answer = (|| -> std::io::Result<String> {
        // Each address the name has, in turn (`localhost` may be ::1 first, the server on IPv4).
        let mut stream = None;
        let mut last = std::io::Error::other("the name has no address");
        for address in std::net::ToSocketAddrs::to_socket_addrs(host)? {
            match std::net::TcpStream::connect_timeout(&address, HEALTH_WITHIN) {
                Ok(connected) => {
                    stream = Some(connected);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let mut stream = stream.ok_or(last)?;
        stream.set_read_timeout(Some(HEALTH_WITHIN))?;
        write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n")?;
        let mut response = String::new();
        stream.take(4096).read_to_string(&mut response)?;
        Ok(response)
    })();
    match answer {
        Ok(response)
            if response.starts_with("HTTP/1.1 200") || response.starts_with("HTTP/1.0 200") =>
        {
            println!("healthy");
            ExitCode::SUCCESS
        }
        Ok(response) => {
            eprintln!("unhealthy: {}", response.lines().next().unwrap_or(""));
            ExitCode::FAILURE
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            eprintln!(
                "unhealthy: no answer from {url} within {} s",
                HEALTH_WITHIN.as_secs()
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("unhealthy: {url}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// How long the health check waits to connect, and then for the answer.
const HEALTH_WITHIN: std::time::Duration = std::time::Duration::from_secs(3);
