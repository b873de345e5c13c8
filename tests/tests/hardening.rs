//! Limits against floods of the game log and of memory (issue 14): one draw offer per side per
//! move, the event log served in pages, unused invites that expire.

use ludus_server::config::ServeConfig;
use ludus_tests::{
    Api, Database, Socket, TestDatabase, TestServer, game_id, on_both_databases, seat_token,
    test_config,
};
use serde_json::{Value, json};
use std::time::Duration;

async fn a_draw_is_offered_once_per_side_per_move(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    // One token holding both seats, as the flooding client did.
    let created = api.local_petteia().await;
    let (game, token) = (game_id(&created), seat_token(&created));
    let (status, offered) = api.act(game, Some(token), "draw").await;
    assert_eq!((status, &offered["draw_offer"]), (200, &json!("light")));
    assert_eq!(api.act(game, Some(token), "draw/decline").await.0, 200);
    let (status, refused) = api.act(game, Some(token), "draw").await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (403, &json!("forbidden"))
    );
    let version = api.view(game, Some(token)).await["version"].clone();
    // After a move the side to move may offer; and light again after its next turn comes.
    let (_, moved) = api
        .play(game, token, "A1-A2", version.as_u64().unwrap())
        .await;
    assert_eq!(
        moved["version"],
        version.as_u64().unwrap() + 1,
        "the refusal wrote nothing"
    );
    let (status, offered) = api.act(game, Some(token), "draw").await;
    assert_eq!((status, &offered["draw_offer"]), (200, &json!("dark")));
    api.act(game, Some(token), "draw/decline").await;
    let v = api.view(game, Some(token)).await["version"]
        .as_u64()
        .unwrap();
    api.play(game, token, "A6-A5", v).await;
    let (status, offered) = api.act(game, Some(token), "draw").await;
    assert_eq!((status, &offered["draw_offer"]), (200, &json!("light")));
    server.stop().await;
}

async fn the_event_log_is_served_in_pages(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let created = api.local_petteia().await;
    let (game, token) = (game_id(&created), seat_token(&created));
    let mut view = api.view(game, Some(token)).await;
    for mv in ["A1-A2", "A6-A5", "B1-B2", "B6-B5", "C1-C2"] {
        let (status, next) = api
            .play(game, token, mv, view["version"].as_u64().unwrap())
            .await;
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    let all = api
        .get(&format!("/api/v1/games/{game}/events"), None)
        .await
        .1;
    let all = all.as_array().unwrap().clone();
    assert_eq!(all.len() as u64, view["version"].as_u64().unwrap());
    // Follow the pages of two by `x-next-since` until a page is not full.
    let client = reqwest::Client::new();
    let mut since = 0;
    let mut paged: Vec<Value> = Vec::new();
    loop {
        let response = client
            .get(format!(
                "{}/api/v1/games/{game}/events?since={since}&limit=2",
                server.base
            ))
            .send()
            .await
            .unwrap();
        let next = response
            .headers()
            .get("x-next-since")
            .map(|v| v.to_str().unwrap().parse::<u64>().unwrap());
        let page: Vec<Value> = response.json().await.unwrap();
        assert!(page.len() <= 2);
        paged.extend(page);
        match next {
            Some(next) => since = next,
            None => break,
        }
    }
    assert_eq!(paged, all);
    let (status, refused) = api
        .get(&format!("/api/v1/games/{game}/events?limit=0"), None)
        .await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (400, &json!("bad_request"))
    );
    server.stop().await;
}

async fn an_unused_invite_expires_and_its_game_is_aborted(database: Database) {
    let server = TestServer::start_paused(database, |config| ServeConfig {
        invite_expiry_secs: 10,
        ..config
    })
    .await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let game = game_id(&created).to_string();
    let mut watcher = Socket::connect(&server.base, &game, None, None).await;
    watcher.next_of("snapshot").await;
    // A moment before the expiry the invite still stands; at the expiry the game is aborted,
    // though no player asks for it again.
    server.advance(Duration::from_millis(9_999)).await;
    assert_eq!(api.view(&game, None).await["status"], "waiting");
    server.advance(Duration::from_millis(1)).await;
    loop {
        let message = watcher.next_of("event").await;
        if message["event"]["kind"] == "aborted" {
            break;
        }
    }
    let (_, listed) = api.get("/api/v1/games?status=aborted", None).await;
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["game_id"] == json!(game)),
        "the game of an expired invite is listed as aborted"
    );
    let events = api
        .get(&format!("/api/v1/games/{game}/events"), None)
        .await
        .1;
    assert_eq!(
        events.as_array().unwrap().last().unwrap()["kind"],
        "aborted"
    );
    let (status, refused) = api
        .post(
            &format!(
                "/api/v1/invites/{}/join",
                created["invite"].as_str().unwrap()
            ),
            None,
            json!({}),
        )
        .await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (409, &json!("game_over"))
    );
    server.stop().await;
}

/// The ids of the listed games of a status.
async fn listed(api: &Api, status: &str) -> Vec<String> {
    let (code, games) = api
        .get(&format!("/api/v1/games?status={status}"), None)
        .await;
    assert_eq!(code, 200, "{games}");
    games
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| g["game_id"].as_str().expect("an id").to_string())
        .collect()
}

async fn live_games_are_listed_only_when_their_creator_chose_so(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let watched = api
        .create(json!({ "variant": "petteia-6", "mode": "online", "listed": true }))
        .await;
    let private = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let (status, refused) = api
        .post(
            "/api/v1/games",
            None,
            json!({ "variant": "petteia-6", "mode": "online", "listed": "yes" }),
        )
        .await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (400, &json!("bad_request"))
    );
    let (watched_id, private_id) = (game_id(&watched).to_string(), game_id(&private).to_string());
    assert_eq!(listed(&api, "waiting").await, [watched_id.as_str()]);
    let watched_joiner = api.join(&watched).await;
    api.join(&private).await;
    assert_eq!(listed(&api, "playing").await, [watched_id.as_str()]);
    assert!(listed(&api, "waiting").await.is_empty());
    // The results stay public, whatever was chosen.
    for (game, token) in [
        (&watched_id, seat_token(&watched_joiner)),
        (&private_id, seat_token(&private)),
    ] {
        assert_eq!(api.act(game, Some(token), "resign").await.0, 200);
    }
    let mut finished = listed(&api, "finished").await;
    finished.sort();
    let mut both = vec![watched_id, private_id];
    both.sort();
    assert_eq!(finished, both);
    assert!(listed(&api, "playing").await.is_empty());
    server.stop().await;
}

/// The number of games with a running actor, from `/metrics` (which loads none).
async fn live_games(api: &Api) -> u64 {
    api.metrics(&["ludus_live_games"]).await[0].expect("the live games gauge")
}

async fn a_finished_game_leaves_memory_soon(database: Database) {
    let server = TestServer::start_paused(database, |config| config).await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "petteia-8", "mode": "local" }))
        .await;
    assert_eq!(live_games(&api).await, 1);
    api.act(game_id(&created), Some(seat_token(&created)), "resign")
        .await;
    // Ten seconds after its end, unwatched, the game's actor stops: time stands still otherwise,
    // so the gauge is read until the actor has finished stopping (a few requests at most).
    server.advance(Duration::from_secs(10)).await;
    let mut readings = 0;
    while live_games(&api).await != 0 {
        readings += 1;
        assert!(readings < 100, "the finished game's actor stopped");
        tokio::task::yield_now().await;
    }
    // It is rebuilt when asked for again.
    let view = api.view(game_id(&created), None).await;
    assert_eq!(view["status"], "finished");
    server.stop().await;
}

async fn a_restart_rebuilds_only_the_games_in_play(database: Database) {
    let database = TestDatabase::create(database).await;
    let first = TestServer::start_with(test_config(database.url().to_string())).await;
    let api = first.api();
    let waiting = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    api.local_petteia().await;
    first.stop().await;
    let second = TestServer::start_with(test_config(database.url().to_string())).await;
    let api = second.api();
    assert_eq!(
        live_games(&api).await,
        1,
        "the game in play, not the one waiting"
    );
    // The waiting game loads when its invite is used.
    assert_eq!(api.join(&waiting).await["game"]["status"], "playing");
    second.stop().await;
}

async fn hints_are_limited_per_seat(database: Database) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        hints_per_minute: 2,
        ..config
    })
    .await;
    let api = server.api();
    let created = api.local_petteia().await;
    let path = format!("/api/v1/games/{}/hint", game_id(&created));
    for _ in 0..2 {
        let (status, hint) = api.get(&path, Some(seat_token(&created))).await;
        assert_eq!(status, 200, "{hint}");
    }
    let (status, refused) = api.get(&path, Some(seat_token(&created))).await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (429, &json!("rate_limited"))
    );
    assert!(refused["error"]["retry_after_ms"].as_u64().unwrap() > 0);
    // Another seat has its own allowance (the address's is three times a seat's).
    let other = api.local_petteia().await;
    let path = format!("/api/v1/games/{}/hint", game_id(&other));
    assert_eq!(api.get(&path, Some(seat_token(&other))).await.0, 200);
    // The analysis board's suggestions search in the same queue, within the same budget of the
    // address (six here, four of it spent): two more, then refused.
    let position = api.view(game_id(&other), Some(seat_token(&other))).await["position"].clone();
    let suggest = || {
        api.post(
            "/api/v1/analysis/suggest",
            None,
            json!({ "variant": "petteia-6", "position": position, "level": 1 }),
        )
    };
    for _ in 0..2 {
        let (status, suggested) = suggest().await;
        assert_eq!(status, 200, "{suggested}");
    }
    let (status, refused) = suggest().await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (429, &json!("rate_limited"))
    );
    server.stop().await;
}

on_both_databases!(
    hints_are_limited_per_seat,
    a_restart_rebuilds_only_the_games_in_play,
    a_draw_is_offered_once_per_side_per_move,
    the_event_log_is_served_in_pages,
    live_games_are_listed_only_when_their_creator_chose_so;
    paused:
    a_finished_game_leaves_memory_soon,
    an_unused_invite_expires_and_its_game_is_aborted,
);
