//! The `ludus` command's tools, run as a user runs them: output on success, exit status 2 and one
//! line on bad input, never a panic.

use std::process::{Command, Output};

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn refused_with(output: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(2),
        "exit status 2, stderr: {stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains(needle),
        "{stderr:?} should mention {needle:?}"
    );
    assert!(!stderr.contains("panicked"));
}

#[test]
fn analyze_prints_the_analysis_as_json() {
    let out = ludus(&[
        "analyze",
        "--variant",
        "petteia-6",
        "--position",
        "4DD/6/L5/2D3/2L3/6 l",
    ]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"], "petteia-6");
    assert_eq!(json["position"], "4DD/6/L5/2D3/2L3/6 l 0 1");
    assert_eq!(json["to_move"], "light");
    assert_eq!(json["outcome"], serde_json::Value::Null);
    assert!(
        json["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == "A4-C4")
    );
    assert_eq!(json["threatened"]["dark"], serde_json::json!(["C3"]));
}

#[test]
fn analyze_reports_a_finished_position() {
    let out = ludus(&[
        "analyze",
        "--variant",
        "petteia-6",
        "--position",
        "5D/3L2/2L1L1/DD4/4LL/2DL2 d 100 95",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["outcome"],
        serde_json::json!({"winner": null, "termination": "no-capture"})
    );
    assert_eq!(json["legal_moves"], serde_json::json!([]));
}

#[test]
fn perft_prints_the_node_count_last() {
    let out = ludus(&["perft", "--variant", "petteia-6", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim().lines().last(),
        Some("14284")
    );
}

#[test]
fn bad_input_exits_with_status_two_and_one_line() {
    refused_with(
        &ludus(&["analyze", "--variant", "chess", "--position", "x"]),
        "unknown variant",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-6",
            "--position",
            "DDDDDD/6/6 l",
        ]),
        "ranks",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-8",
            "--position",
            "DDDDDD/6/6/6/6/LLLLLL l",
        ]),
        "petteia-8 position has 8 ranks",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-6",
            "--position",
            "DDDDDD/6/6/6/6/LLLLLL l",
            "--dice",
            "3,9",
        ]),
        "die 2",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-6",
            "--position",
            "DDDDDD/6/6/6/6/LLLLLL l",
            "--dice",
            "3",
        ]),
        "without dice",
    );
    refused_with(
        &ludus(&[
            "perft",
            "--variant",
            "petteia-6",
            "--position",
            "",
            "--depth",
            "2",
        ]),
        "position",
    );
}

/// A record of a seeded Pente Grammai game, played by always taking the first legal move.
fn seeded_record() -> String {
    use ludus_engine::dice::{ServerSeed, to_hex};
    use ludus_engine::record::{Record, Step};
    use ludus_engine::{AnyGame, Phase, Player, Variant};
    let server = ServerSeed(std::array::from_fn(|i| i as u8));
    let seed = server.game_seed("alice", "bob");
    let mut game = AnyGame::new(Variant::PenteGrammaiSchaedler, Player::First);
    let mut record = Record::default();
    record.set("Variant", "pente-grammai-schaedler");
    record.set("Commitment", to_hex(&server.commitment()));
    record.set("CreatorEntropy", "alice");
    record.set("JoinerEntropy", "bob");
    record.set("ServerSeed", to_hex(&server.0));
    record.set("Result", "*");
    let mut die = 0;
    for _ in 0..40 {
        match game.phase() {
            Phase::AwaitingRoll => {
                let dice = seed.dice(die, 1);
                die += 1;
                game.roll(&dice).unwrap();
                record.steps.push(Step::Roll(dice));
            }
            Phase::AwaitingMove => {
                let mv = game.legal_moves()[0];
                game.play(mv).unwrap();
                record.steps.push(Step::Move(mv.to_string()));
            }
            Phase::Over(_) => break,
        }
    }
    record.to_string()
}

#[test]
fn verify_accepts_a_true_record_and_names_the_first_altered_die() {
    let dir = std::env::temp_dir().join(format!("ludus-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    let text = seeded_record();
    std::fs::write(&good, &text).unwrap();
    let out = ludus(&["verify", good.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim().lines().last(),
        Some("verified")
    );
    // The golden dice start 3 2 4 4 1; make the second roll a 5.
    let bad = dir.join("bad.txt");
    let mut rolls = 0;
    let altered: Vec<String> = text
        .split(' ')
        .map(|token| {
            let line_start = token.rsplit('\n').next().unwrap_or(token);
            if line_start.starts_with('{') {
                rolls += 1;
                if rolls == 2 {
                    return token.replacen("{2}", "{5}", 1);
                }
            }
            token.to_string()
        })
        .collect();
    std::fs::write(&bad, altered.join(" ")).unwrap();
    let out = ludus(&["verify", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("die 1 of the game is 5 in the record but the seed gives 2"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ludus serve` on a SQLite file and a free loopback port, with more `settings` and environment
/// variables; its output.
fn spawn_serve(
    database: &str,
    settings: &[&str],
    env: &[(&str, &str)],
) -> (
    std::process::Child,
    std::io::BufReader<std::process::ChildStdout>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--database-url",
            database,
        ])
        .args(settings)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
    (child, stdout)
}

/// The next line the server writes; panics once it has exited.
fn next_line(stdout: &mut std::io::BufReader<std::process::ChildStdout>) -> String {
    let mut line = String::new();
    let read = std::io::BufRead::read_line(stdout, &mut line).unwrap_or(0);
    assert!(read > 0, "the server exited");
    line
}

/// What `ludus serve` writes on a SQLite file, with `env`, until it says it is running; then it
/// is stopped.
fn start_lines(database: &str, env: &[(&str, &str)]) -> Vec<String> {
    let (mut child, mut stdout) = spawn_serve(database, &[], env);
    let lines = until_running(&mut stdout);
    child.kill().unwrap();
    child.wait().unwrap();
    lines
}

/// The lines a server writes until it says it is running (panics if it exits first).
fn until_running(stdout: &mut std::io::BufReader<std::process::ChildStdout>) -> Vec<String> {
    let mut lines = Vec::new();
    while !lines
        .last()
        .is_some_and(|l: &String| l.contains("Ludus is running"))
    {
        lines.push(next_line(stdout));
    }
    lines
}

/// `ludus serve` on a SQLite file, until it says it is running (or exits).
fn serve_sqlite(database: &str) -> std::process::Child {
    let (child, mut stdout) = spawn_serve(database, &[], &[]);
    until_running(&mut stdout);
    child
}

/// `ludus serve` on a SQLite file and a free loopback port, run to its end (a refusal).
fn serve_refused(database: &str) -> Output {
    ludus(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--database-url",
        database,
    ])
}

#[test]
fn a_second_process_on_the_same_sqlite_file_refuses_to_start() {
    let dir = std::env::temp_dir().join(format!("ludus-cli-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = format!("sqlite://{}", dir.join("ludus.db").display());
    let mut first = serve_sqlite(&database);

    let second = serve_refused(&database);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "the second process stops");
    assert!(
        stderr.contains("another ludus process is serving the SQLite database")
            && stderr.contains("use Postgres"),
        "it says why: {stderr}"
    );

    // A new database is its owner's alone (it holds the dice seeds of games in progress).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("ludus.db"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the database file's mode is {mode:o}");
    }

    // The lock goes with the process, even one killed: the next one starts.
    first.kill().unwrap();
    first.wait().unwrap();
    let mut third = serve_sqlite(&database);
    third.kill().unwrap();
    third.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The serving settings are the server's: `ludus --help` and `ludus serve --help` list them, the
/// tools' help lists only the tools' own, and a setting given before `serve` (where it would be
/// silently replaced by the command's default) is refused.
#[test]
fn each_command_lists_and_takes_only_its_own_settings() {
    let help = |args: &[&str]| String::from_utf8(ludus(args).stdout).expect("help is text");
    for server in [&["--help"][..], &["serve", "--help"]] {
        assert!(help(server).contains("--database-url"), "{server:?}");
    }
    for tool in ["analyze", "verify", "perft", "arena", "health"] {
        let text = help(&[tool, "--help"]);
        assert!(text.contains("Usage: ludus"), "{tool}: {text}");
        assert!(!text.contains("--database-url"), "{tool}: {text}");
    }
    let mixed = ludus(&["--listen", "127.0.0.1:9", "serve"]);
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("cannot be used with"));

    // The server's environment is the server's: a setting it would refuse stops the server,
    // not a tool run beside it.
    let with_refused_setting = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .env("LUDUS_CREATE_PER_MINUTE", "0")
            .output()
            .expect("the binary runs")
    };
    let perft = with_refused_setting(&["perft", "--variant", "petteia-6", "--depth", "1"]);
    assert!(perft.status.success(), "{perft:?}");
    for server in [&["serve"][..], &[]] {
        let refused = with_refused_setting(server);
        assert_eq!(refused.status.code(), Some(2), "{server:?}");
        assert!(String::from_utf8_lossy(&refused.stderr).contains("--create-per-minute"));
    }
}

/// `ludus health` without `--url` checks the server `LUDUS_LISTEN` names, where it listens: an
/// IPv6 loopback too (it checked 127.0.0.1 whatever the address).
#[test]
fn health_checks_the_server_at_its_listening_address() {
    let listener = std::net::TcpListener::bind("[::1]:0").expect("IPv6 loopback");
    let address = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        use std::io::{Read, Write};
        let (mut connection, _) = listener.accept().unwrap();
        let mut request = Vec::new();
        let mut part = [0; 1024];
        while !request.ends_with(b"\r\n\r\n") {
            let read = connection.read(&mut part).unwrap();
            assert!(read > 0, "the request ends with an empty line");
            request.extend_from_slice(&part[..read]);
        }
        connection
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
            .unwrap();
        String::from_utf8_lossy(&request).into_owned()
    });
    let checked = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("health")
        .env("LUDUS_LISTEN", address.to_string())
        .output()
        .expect("the binary runs");
    assert!(checked.status.success(), "{checked:?}");
    assert!(server.join().unwrap().starts_with("GET /readyz "));
}

/// A `LUDUS_LISTEN` the server could not listen on is refused by the check, which checked
/// port 8080 instead (a self-hoster's `localhost:8081` passed or failed on another server).
#[test]
fn health_refuses_a_listen_address_that_is_none() {
    let checked = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("health")
        .env("LUDUS_LISTEN", "localhost:8081")
        .output()
        .expect("the binary runs");
    assert_eq!(checked.status.code(), Some(2), "{checked:?}");
    assert!(
        String::from_utf8_lossy(&checked.stderr).contains("LUDUS_LISTEN \"localhost:8081\""),
        "{checked:?}"
    );
}

/// What a self-hoster's ban list reads: a wrong password and a request over a limit are each
/// logged with the client's address, and an invite's code is not.
#[test]
fn the_log_names_the_client_of_a_refusal_and_hides_invites() {
    use std::io::{Read, Write};
    let dir = std::env::temp_dir().join(format!("ludus-cli-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = format!("sqlite://{}", dir.join("ludus.db").display());
    let (mut child, mut stdout) = spawn_serve(
        &database,
        &["--log-format", "json", "--sign-in-per-minute", "1"],
        &[],
    );
    let address = loop {
        // The JSON log's first line says where it listens (no plain line in that format).
        if let Some(rest) = next_line(&mut stdout).split(r#""address":""#).nth(1) {
            break rest.split('"').next().unwrap().to_string();
        }
    };
    let post = |path: &str, body: &str| {
        let mut connection = std::net::TcpStream::connect(&address).unwrap();
        write!(
            connection,
            "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        connection.read_to_string(&mut answer).unwrap();
        answer
    };
    let guess = r#"{"username": "nobody", "password": "a wrong guess"}"#;
    assert!(post("/api/v1/session", guess).starts_with("HTTP/1.1 401"));
    assert!(post("/api/v1/session", guess).starts_with("HTTP/1.1 429"));
    assert!(post("/api/v1/invites/Secret0Code/join", "{}").starts_with("HTTP/1.1 404"));
    child.kill().unwrap();
    child.wait().unwrap();
    let mut log = String::new();
    stdout.read_to_string(&mut log).unwrap();
    let logged = |needle: &str| {
        log.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line says {needle:?}: {log}"))
            .to_string()
    };
    for refusal in ["refused: a wrong password", "refused: over a rate limit"] {
        assert!(logged(refusal).contains(r#""client":"127.0.0.1""#), "{log}");
    }
    assert!(!log.contains("Secret0Code"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mistyped `RUST_LOG` is said at the start, where it was silently replaced by the default.
#[test]
fn an_invalid_rust_log_is_said_and_the_default_kept() {
    let dir = std::env::temp_dir().join(format!("ludus-cli-rust-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = format!("sqlite://{}", dir.join("ludus.db").display());
    let lines = start_lines(&database, &[("RUST_LOG", "info,ludus=loud")]);
    assert!(
        lines.iter().any(|l| l.contains("WARN")
            && l.contains("RUST_LOG is not a valid filter")
            && l.contains("info,ludus=loud")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A SQLite database in a folder that does not exist is refused, naming the folder (it named the
/// lock file beside the database, which nobody asked for).
#[test]
fn a_database_in_a_missing_folder_is_refused_naming_the_folder() {
    let folder = std::env::temp_dir().join(format!("ludus-cli-missing-{}", std::process::id()));
    let database = format!("sqlite://{}", folder.join("ludus.db").display());
    let out = serve_refused(&database);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("does not exist") && stderr.contains(&*folder.to_string_lossy()),
        "{stderr}"
    );
    assert!(!stderr.contains(".lock"), "{stderr}");
    assert!(!folder.exists(), "nothing was created");
}

/// A bad value from a `LUDUS_…` variable (what a compose file sets) is refused naming the
/// variable, where clap named only the flag nobody typed; from the command line, the flag alone.
#[test]
fn a_bad_setting_from_the_environment_names_its_variable() {
    let refused = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .env("LUDUS_LISTEN", "not-an-address")
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for args in [&[][..], &["serve"]] {
        let stderr = refused(args);
        assert!(
            stderr.contains("'--listen <LISTEN>' (the environment variable LUDUS_LISTEN)"),
            "{args:?}: {stderr}"
        );
    }
    let stderr = refused(&["serve", "--listen", "also-not-one"]);
    assert!(
        stderr.contains("also-not-one") && !stderr.contains("LUDUS_LISTEN"),
        "{stderr}"
    );
}

/// A SQLite database others may read (a backup restored under a usual umask) is warned of at the
/// start; one the server made is its owner's alone and is not.
#[cfg(unix)]
#[test]
fn a_database_others_may_read_is_warned_of() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("ludus-cli-mode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ludus.db");
    let database = format!("sqlite://{}", file.display());
    let warning = "may be read by other users";
    assert!(
        !start_lines(&database, &[]).concat().contains(warning),
        "a database the server made"
    );
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let lines = start_lines(&database, &[]).concat();
    assert!(
        lines.contains(warning) && lines.contains("mode=644"),
        "{lines}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
