//! The two shapes of the socket's events (docs/PROTOCOL.md §3), over the real server, on both
//! databases: by default an event carries what changed (`delta`), and joined with the hello's
//! snapshot and the events' moves the deltas make the very views that `?view=full` sends whole.

use ludus_tests::{
    Api, Database, FIXED_FIELDS, Socket, TestServer, game_id, on_both_databases, seat_token,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// Reads until a view of `version` (or later) and checks the message's shape: on the default
/// socket an event carries a delta without the moves or the fixed fields, or the whole view after
/// an undo, or nothing (an earlier event of its batch); with `?view=full` every event carries the
/// whole view with its moves.
async fn view_at(socket: &mut Socket, version: u64, full: bool, deltas: &mut usize) -> Value {
    loop {
        let message = socket.next().await.expect("the socket stays open");
        if message["type"] == "event" {
            if full {
                assert!(message.get("delta").is_none(), "{message}");
                assert!(message["game"]["moves"].is_array(), "{message}");
            } else if let Some(delta) = message.get("delta") {
                *deltas += 1;
                assert!(
                    delta.get("moves").is_none(),
                    "a delta has no moves: {delta}"
                );
                for field in FIXED_FIELDS {
                    assert!(
                        delta.get(field).is_none(),
                        "a delta has no {field}: {delta}"
                    );
                }
            }
        }
        if message["game"]["version"]
            .as_u64()
            .is_some_and(|v| v >= version)
        {
            return message["game"].clone();
        }
    }
}

/// The version an action's answer (the game view) shows.
fn version_of((status, view): (u16, Value)) -> u64 {
    assert_eq!(status, 200, "the action succeeds: {view}");
    view["version"].as_u64().expect("a view has its version")
}

/// Plays a game of `variant` by HTTP with random legal moves, a takeback asked and accepted, a
/// draw offered and declined where the variant has draws, and a resignation at the end; after
/// each step, the views joined from deltas equal the whole views of `?view=full`.
async fn deltas_rebuild_the_whole_views(api: &Api, base: &str, variant: &str, seed: u64) {
    let created = api
        .create(json!({ "variant": variant, "mode": "online", "side": "first" }))
        .await;
    let joined = api.join(&created).await;
    let game = game_id(&created);
    let tokens = [seat_token(&created), seat_token(&joined)];
    let mut light = Socket::connect(base, game, Some(tokens[0]), None).await;
    let mut dark = Socket::connect(base, game, Some(tokens[1]), None).await;
    let mut light_full = Socket::connect_full(base, game, Some(tokens[0])).await;
    let mut watcher = Socket::connect(base, game, None, None).await;
    // Every socket settles on the presence of all four before play.
    for socket in [&mut light, &mut dark, &mut light_full] {
        while socket.next_of("snapshot").await["game"]["spectators"] != 1 {}
    }
    watcher.next_of("snapshot").await;

    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deltas = 0;
    let mut version = api.view(game, None).await["version"].as_u64().unwrap();
    for step in 0..40 {
        let view = api.view(game, Some(tokens[0])).await;
        let mover = usize::from(view["to_move"] != view["seat"]["side"]);
        let mover_view = api.view(game, Some(tokens[mover])).await;
        let legal = mover_view["legal_moves"].as_array().unwrap().clone();
        let mv = legal[rng.random_range(0..legal.len())].as_str().unwrap();
        version = version_of(api.play(game, tokens[mover], mv, version).await);
        if step == 10 {
            // The mover asks to take its move back; the opponent accepts: moves are removed.
            version_of(api.act(game, Some(tokens[mover]), "undo").await);
            version = version_of(api.act(game, Some(tokens[1 - mover]), "undo/accept").await);
        }
        if step == 20 && variant.starts_with("petteia") {
            version_of(api.act(game, Some(tokens[mover]), "draw").await);
            version = version_of(api.act(game, Some(tokens[1 - mover]), "draw/decline").await);
        }
        let joined = view_at(&mut light, version, false, &mut deltas).await;
        let whole = view_at(&mut light_full, version, true, &mut deltas).await;
        assert_eq!(joined, whole, "step {step}: the deltas make the whole view");
        view_at(&mut dark, version, false, &mut deltas).await;
        view_at(&mut watcher, version, false, &mut deltas).await;
        if whole["status"] != "playing" {
            break;
        }
    }
    if api.view(game, None).await["status"] == "playing" {
        version = version_of(api.act(game, Some(tokens[0]), "resign").await);
    }
    let joined = view_at(&mut light, version, false, &mut deltas).await;
    let whole = view_at(&mut light_full, version, true, &mut deltas).await;
    assert_ne!(joined["status"], "playing");
    assert_eq!(joined, whole, "the end: the deltas make the whole view");
    assert_eq!(
        joined,
        api.view(game, Some(tokens[0])).await,
        "and the view the API answers"
    );
    let dark_view = view_at(&mut dark, version, false, &mut deltas).await;
    assert_eq!(dark_view, api.view(game, Some(tokens[1])).await);
    let watched = view_at(&mut watcher, version, false, &mut deltas).await;
    assert_eq!(watched, api.view(game, None).await);
    assert!(deltas > 40, "the default socket received deltas ({deltas})");
}

async fn a_delta_stream_joined_with_the_hello_snapshot_equals_the_whole_views(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    deltas_rebuild_the_whole_views(&api, &server.base, "petteia-6", 3).await;
    deltas_rebuild_the_whole_views(&api, &server.base, "duodecim-scripta", 5).await;
    server.stop().await;
}

async fn an_unknown_view_shape_is_refused_with_the_error_shape(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let (status, error) = api
        .get(
            &format!("/api/v1/games/{}/ws?view=everything", game_id(&created)),
            None,
        )
        .await;
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["code"], "bad_request");
    server.stop().await;
}

on_both_databases!(
    a_delta_stream_joined_with_the_hello_snapshot_equals_the_whole_views,
    an_unknown_view_shape_is_refused_with_the_error_shape,
);
