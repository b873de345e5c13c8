//! Limits against floods of the game log (issue 14): one draw offer per side per move, and the
//! event log served in pages.

use ludus_tests::{Database, TestServer, game_id, on_both_databases, seat_token};
use serde_json::{Value, json};

async fn a_draw_is_offered_once_per_side_per_move(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    // One token holding both seats, as the flooding client did.
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "local" }))
        .await;
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
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "local" }))
        .await;
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

on_both_databases!(
    a_draw_is_offered_once_per_side_per_move,
    the_event_log_is_served_in_pages,
);
