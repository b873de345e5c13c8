//! Nothing lost: the server process is killed with SIGKILL while moves are in flight; after a
//! restart on the same database every acknowledged move is there, and play goes on.

use ludus_tests::{
    Api, Database, ServerProcess, TestDatabase, game_id, on_both_databases, seat_token,
};
use serde_json::json;

const SERVER: &str = env!("CARGO_BIN_EXE_ludus-test-server");

async fn every_acknowledged_move_survives_a_sigkill(database: Database) {
    let database = TestDatabase::create(database).await;
    let url = database.url();
    let mut first = ServerProcess::start(SERVER, url);
    let api = Api::new(&first.base);
    let created = api
        .create(json!({ "variant": "petteia-8", "mode": "local" }))
        .await;
    let game = game_id(&created).to_string();
    let token = seat_token(&created).to_string();

    // Play as fast as the answers come, in a task, and kill the process mid-stream: once a few
    // moves are acknowledged, while the next are in flight.
    let (acknowledged_count, mut progress) = tokio::sync::watch::channel(0_usize);
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
                        acknowledged_count.send_replace(acknowledged.len());
                        view = next;
                    }
                    _ => return acknowledged,
                }
            }
        })
    };
    // The answer of `wait_for` borrows the count: dropped at once, or the player's next
    // `send_replace` would wait for it (blocking its thread) while the process is killed.
    let enough = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        progress.wait_for(|count| *count >= 5),
    )
    .await
    .is_ok_and(|waited| waited.is_ok());
    assert!(enough, "the server acknowledges moves before it is killed");
    first.kill();
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

    let second = ServerProcess::start(SERVER, url);
    let api = Api::new(&second.base);
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
}

on_both_databases!(every_acknowledged_move_survives_a_sigkill);
