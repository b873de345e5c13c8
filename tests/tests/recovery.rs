//! Nothing lost: the server process is killed with SIGKILL while moves are in flight; after a
//! restart on the same database every acknowledged move is there, and play goes on.

use ludus_tests::{Api, Database, on_both_databases};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts the server in its own process; returns it and its base URL.
fn start_process(database_url: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus-test-server"))
        .arg(database_url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server process starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            stdout.read_line(&mut line).expect("the server prints") > 0,
            "the server exited before listening"
        );
        if let Some(base) = line.trim().strip_prefix("listening on ") {
            return (child, base.to_string());
        }
    }
}

async fn every_acknowledged_move_survives_a_sigkill(database: Database) {
    let url = ludus_tests::database_url(database)
        .await
        .expect("configured");
    let (mut child, base) = start_process(&url);
    let api = Api::new(&base);
    let created = api
        .create(json!({ "variant": "petteia-8", "mode": "local" }))
        .await;
    let game = created["game_id"].as_str().unwrap().to_string();
    let token = created["seat"]["token"].as_str().unwrap().to_string();

    // Play as fast as the answers come, in a task, and kill the process mid-stream.
    let player = {
        let (api, game, token) = (api.clone(), game.clone(), token.clone());
        tokio::spawn(async move {
            let mut acknowledged: Vec<String> = Vec::new();
            let mut view = api.view(&game, Some(&token)).await;
            loop {
                let Some(mv) = view["legal_moves"]
                    .as_array()
                    .and_then(|m| m.first())
                    .and_then(|m| m.as_str())
                    .map(String::from)
                else {
                    return acknowledged;
                };
                let version = view["version"].as_u64().unwrap();
                let path = format!("/api/v1/games/{game}/moves");
                let request = api.try_post(
                    &path,
                    Some(&token),
                    json!({ "move": mv, "version": version }),
                );
                match tokio::time::timeout(std::time::Duration::from_secs(5), request).await {
                    Ok(Some((200, next))) => {
                        acknowledged.push(mv);
                        view = next;
                    }
                    _ => return acknowledged,
                }
            }
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    child.kill().expect("SIGKILL");
    child.wait().expect("the process ends");
    // Requests to a dead server fail fast; the task returns what was acknowledged.
    let acknowledged = tokio::time::timeout(std::time::Duration::from_secs(10), player)
        .await
        .expect("the player stops")
        .expect("the player does not panic");
    assert!(
        acknowledged.len() > 3,
        "moves were in flight when the process died ({} acknowledged)",
        acknowledged.len()
    );

    let (mut child, base) = start_process(&url);
    let api = Api::new(&base);
    let view = api.view(&game, Some(&token)).await;
    let stored: Vec<String> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(
        stored.len() >= acknowledged.len(),
        "{} stored, {} acknowledged",
        stored.len(),
        acknowledged.len()
    );
    assert_eq!(
        stored[..acknowledged.len()],
        acknowledged[..],
        "every acknowledged move is there, in order"
    );
    if view["status"] == "playing" {
        let mv = view["legal_moves"][0].as_str().unwrap();
        let (status, after) = api
            .play(&game, &token, mv, view["version"].as_u64().unwrap())
            .await;
        assert_eq!(status, 200, "play goes on: {after}");
    }
    child.kill().expect("stop");
    child.wait().expect("the process ends");
}

on_both_databases!(every_acknowledged_move_survives_a_sigkill);
