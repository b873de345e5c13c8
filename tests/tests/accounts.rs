//! Players and bots, black-box on both databases: accounts, sessions and personal tokens, results
//! and Glicko-2 ratings, what does not count, challenges over the event stream, and bad input.

use futures_util::StreamExt;
use ludus_server::config::ServeConfig;
use ludus_tests::{
    Api, Database, Reply, Socket, TestServer, from_another_site, game_id, on_both_databases,
    personal_token, player, seat_token, session_cookie, sign_in, sign_up, with_cookie,
};
use serde_json::{Value, json};
use std::time::Duration;

/// An online Petteia game created by `first`'s account and joined by `second`'s; the seat tokens.
async fn online_game(
    api: &Api,
    first: &str,
    second: &str,
    extra: Value,
) -> (String, String, String) {
    let mut body = json!({ "variant": "petteia-6", "mode": "online", "side": "first" });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, created) = api.post("/api/v1/games", Some(first), body).await;
    assert_eq!(status, 201, "{created}");
    let invite = created["invite"].as_str().unwrap();
    let (status, joined) = api
        .post(
            &format!("/api/v1/invites/{invite}/join"),
            Some(second),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    (
        game_id(&created).to_string(),
        seat_token(&created).to_string(),
        seat_token(&joined).to_string(),
    )
}

/// Each side plays one move (the first legal one, whoever is to move): a game ended sooner is not
/// rated.
async fn a_move_each(api: &Api, game: &str, seats: [&str; 2]) {
    for _ in 0..2 {
        let mut played = false;
        for seat in seats {
            let view = api.view(game, Some(seat)).await;
            if let Some(mv) = view["legal_moves"].get(0).and_then(Value::as_str) {
                let version = view["version"].as_u64().unwrap();
                let (status, moved) = api.play(game, seat, mv, version).await;
                assert_eq!(status, 200, "{moved}");
                played = true;
                break;
            }
        }
        assert!(played, "a side is to move in {game}");
    }
}

/// An online game between two accounts in which each has moved: it counts for their ratings.
async fn rated_game(
    api: &Api,
    first: &str,
    second: &str,
    extra: Value,
) -> (String, String, String) {
    let (game, first_seat, second_seat) = online_game(api, first, second, extra).await;
    a_move_each(api, &game, [&first_seat, &second_seat]).await;
    (game, first_seat, second_seat)
}

async fn resign(api: &Api, game: &str, seat: &str) {
    let (status, view) = api.act(game, Some(seat), "resign").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["status"], "finished");
}

async fn profile(api: &Api, username: &str) -> Value {
    let (status, profile) = api.get(&format!("/api/v1/players/{username}"), None).await;
    assert_eq!(status, 200, "{profile}");
    profile
}

async fn signed_up_players_get_results_and_ratings_from_a_rated_game(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let ann = player(&server, "Ann").await;
    let bob = player(&server, "bob_2").await;
    let (game, ann_seat, _) = rated_game(&api, &ann, &bob, json!({})).await;
    resign(&api, &game, &ann_seat).await;

    let ann_profile = profile(&api, "ann").await;
    assert_eq!(
        ann_profile["username"], "Ann",
        "names are found in any case"
    );
    let ann_petteia = &ann_profile["variants"]["petteia-6"];
    assert_eq!(
        (
            ann_petteia["games"].as_u64(),
            ann_petteia["losses"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert!(
        ann_petteia["rating"].as_f64().unwrap() < 1500.0,
        "{ann_profile}"
    );
    let bob_petteia = &profile(&api, "bob_2").await["variants"]["petteia-6"];
    assert_eq!(bob_petteia["wins"], 1);
    assert!(bob_petteia["rating"].as_f64().unwrap() > 1500.0);

    let (_, games) = api.get("/api/v1/players/bob_2/games?limit=5", None).await;
    let last = &games[0];
    assert_eq!(
        (
            last["game_id"].as_str(),
            last["opponent"].as_str(),
            last["result"].as_str()
        ),
        (Some(game.as_str()), Some("Ann"), Some("win"))
    );
    assert!(last["rating_change"].as_f64().unwrap() > 0.0, "{last}");
    let (_, seats) = api
        .get(&format!("/api/v1/games/{game}/players"), None)
        .await;
    assert_eq!(seats[0]["username"], "Ann");
    assert_eq!(
        (&seats[0]["rated"], &seats[1]["rated"]),
        (&json!(true), &json!(true)),
        "the page can say the game is rated"
    );
    assert_eq!(
        seats[1]["rating"], bob_petteia["rating"],
        "the game shows each player's rating"
    );
    assert_eq!(
        (
            seats[1]["rating_change"].as_f64(),
            seats[0]["rating_change"].as_f64()
        ),
        (
            last["rating_change"].as_f64(),
            Some(-last["rating_change"].as_f64().unwrap())
        ),
        "and what the game did to it: {seats}"
    );

    // Five rated games put bob on the leaderboard, above ann.
    let (_, board) = api.get("/api/v1/leaderboard/petteia-6", None).await;
    assert_eq!(board, json!([]), "one game is not enough to be ranked");
    for _ in 0..4 {
        let (game, ann_seat, _) = rated_game(&api, &ann, &bob, json!({})).await;
        resign(&api, &game, &ann_seat).await;
    }
    let (_, board) = api.get("/api/v1/leaderboard/petteia-6", None).await;
    assert_eq!(
        (
            board[0]["username"].as_str(),
            board[0]["rank"].as_u64(),
            board[1]["username"].as_str()
        ),
        (Some("bob_2"), Some(1), Some("Ann"))
    );
    // The first game still shows each player's rating as that game left it, not today's.
    let (_, seats_then) = api
        .get(&format!("/api/v1/games/{game}/players"), None)
        .await;
    assert_eq!(
        seats_then, seats,
        "the first game's seats, four games later"
    );
    assert_ne!(
        seats_then[1]["rating"],
        profile(&api, "bob_2").await["variants"]["petteia-6"]["rating"],
        "bob's rating has moved since"
    );
    let (_, games) = api.get("/api/v1/players/bob_2/games?limit=2", None).await;
    let before = games[1]["finished_at"].as_i64().unwrap();
    let (_, older) = api
        .get(
            &format!("/api/v1/players/bob_2/games?limit=10&before={before}"),
            None,
        )
        .await;
    assert_eq!(
        older.as_array().unwrap().len(),
        3,
        "paged after the second newest"
    );
    server.stop().await;
}

async fn shared_screen_aborted_and_unrated_games_leave_ratings_alone(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let ann = player(&server, "ann").await;
    let bob = player(&server, "bob").await;
    let (_, local) = api
        .post(
            "/api/v1/games",
            Some(&ann),
            json!({ "variant": "petteia-6", "mode": "local" }),
        )
        .await;
    resign(&api, game_id(&local), seat_token(&local)).await;
    let (game, ann_seat, _) = online_game(&api, &ann, &bob, json!({})).await;
    let (status, aborted) = api.act(&game, Some(&ann_seat), "abort").await;
    assert_eq!((status, aborted["status"].as_str()), (200, Some("aborted")));
    let (game, ann_seat, _) = rated_game(&api, &ann, &bob, json!({ "rated": false })).await;
    let (_, seats) = api
        .get(&format!("/api/v1/games/{game}/players"), None)
        .await;
    assert_eq!(
        (&seats[0]["rated"], &seats[1]["rated"]),
        (&json!(false), &json!(false)),
        "the page can say the game is unrated: {seats}"
    );
    resign(&api, &game, &ann_seat).await;
    // A rated game resigned before each side has moved changes no rating (nor farms one).
    let (game, _, bob_seat) = online_game(&api, &ann, &bob, json!({})).await;
    resign(&api, &game, &bob_seat).await;
    let (_, computer) = api
        .post(
            "/api/v1/games",
            Some(&ann),
            json!({ "variant": "petteia-6", "mode": "computer", "level": 3 }),
        )
        .await;
    resign(&api, game_id(&computer), seat_token(&computer)).await;

    let ann_profile = profile(&api, "ann").await;
    let petteia = &ann_profile["variants"]["petteia-6"];
    assert_eq!(
        (petteia["games"].as_u64(), petteia["losses"].as_u64()),
        (Some(2), Some(1)),
        "the unrated online game and the one resigned at once: {ann_profile}"
    );
    assert_eq!(
        petteia["rating"],
        Value::Null,
        "an unrated game gives no rating"
    );
    assert_eq!(
        ann_profile["computer"]["petteia-6"]["3"],
        json!({ "wins": 0, "draws": 0, "losses": 1 })
    );
    let (_, games) = api.get("/api/v1/players/ann/games", None).await;
    assert_eq!(
        games.as_array().unwrap().len(),
        3,
        "local and aborted games count nowhere: {games}"
    );
    assert!(
        games[1]["rating_change"].is_null(),
        "resigned at once, unrated: {games}"
    );
    // Anonymous play is unchanged: no account, no seat holders.
    let anonymous = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let (_, seats) = api
        .get(
            &format!("/api/v1/games/{}/players", game_id(&anonymous)),
            None,
        )
        .await;
    assert_eq!(seats, json!([]));
    server.stop().await;
}

/// Against the computer, a hint or a takeback is help: the game is listed, marked, and not
/// counted in the player's record at the level. A game without help counts as before.
async fn computer_games_played_with_help_are_listed_but_not_counted_at_the_level(
    database: Database,
) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let ann = player(&server, "ann").await;
    let computer_game = || async {
        let body =
            json!({ "variant": "petteia-6", "mode": "computer", "level": 2, "side": "first" });
        let (status, created) = api.post("/api/v1/games", Some(&ann), body).await;
        assert_eq!(status, 201, "{created}");
        (
            game_id(&created).to_string(),
            seat_token(&created).to_string(),
        )
    };
    let (hinted, seat) = computer_game().await;
    let (status, hint) = api
        .get(&format!("/api/v1/games/{hinted}/hint"), Some(&seat))
        .await;
    assert_eq!(status, 200, "{hint}");
    resign(&api, &hinted, &seat).await;

    let (taken_back, seat) = computer_game().await;
    let view = api.view(&taken_back, Some(&seat)).await;
    let (status, moved) = api
        .play(
            &taken_back,
            &seat,
            view["legal_moves"][0].as_str().unwrap(),
            view["version"].as_u64().unwrap(),
        )
        .await;
    assert_eq!(status, 200, "{moved}");
    let (status, undone) = api.act(&taken_back, Some(&seat), "undo").await;
    assert_eq!(status, 200, "{undone}");
    resign(&api, &taken_back, &seat).await;

    let (unhelped, seat) = computer_game().await;
    resign(&api, &unhelped, &seat).await;

    assert_eq!(
        profile(&api, "ann").await["computer"]["petteia-6"]["2"],
        json!({ "wins": 0, "draws": 0, "losses": 1 }),
        "only the game without help counts at level 2"
    );
    let (_, games) = api.get("/api/v1/players/ann/games", None).await;
    let listed: Vec<(&str, bool)> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["game_id"].as_str().unwrap(), g["assisted"] == json!(true)))
        .collect();
    assert_eq!(
        listed,
        [
            (unhelped.as_str(), false),
            (taken_back.as_str(), true),
            (hinted.as_str(), true)
        ],
        "every game listed, newest first, the helped ones marked: {games}"
    );
    server.stop().await;
}

/// Both players ask for a rematch of `game`; the rematch's id.
async fn rematch(api: &Api, game: &str, seats: [&str; 2]) -> String {
    for seat in seats {
        let (status, view) = api.act(game, Some(seat), "rematch").await;
        assert_eq!(status, 200, "{view}");
    }
    api.view(game, None).await["rematch"]
        .as_str()
        .expect("the rematch's id")
        .to_string()
}

async fn a_rematch_keeps_its_players_accounts_with_sides_swapped(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let ann = player(&server, "ann").await;
    let bob = player(&server, "bob").await;
    let (game, ann_seat, bob_seat) = rated_game(&api, &ann, &bob, json!({})).await;
    resign(&api, &game, &ann_seat).await;
    let second = rematch(&api, &game, [&ann_seat, &bob_seat]).await;
    let (_, seats) = api
        .get(&format!("/api/v1/games/{second}/players"), None)
        .await;
    assert_eq!(
        (
            seats[0]["side"].as_str(),
            seats[0]["username"].as_str(),
            seats[1]["side"].as_str(),
            seats[1]["username"].as_str()
        ),
        (Some("light"), Some("bob"), Some("dark"), Some("ann")),
        "the sides are swapped: {seats}"
    );
    assert_eq!(
        api.view(&second, Some(&bob_seat)).await["seat"]["side"],
        "light"
    );
    a_move_each(&api, &second, [&bob_seat, &ann_seat]).await;
    resign(&api, &second, &bob_seat).await;
    for (name, wins) in [("ann", 1), ("bob", 1)] {
        let petteia = &profile(&api, name).await["variants"]["petteia-6"];
        assert_eq!(
            (petteia["games"].as_u64(), petteia["wins"].as_u64()),
            (Some(2), Some(wins)),
            "the rematch counts for {name}: {petteia}"
        );
    }
    let (_, games) = api.get("/api/v1/players/ann/games", None).await;
    assert_eq!(games[0]["game_id"], json!(second));
    assert!(
        games[0]["rating_change"].as_f64().unwrap() > 0.0,
        "the rematch is rated as the original was: {games}"
    );

    // An unrated game's rematch is unrated too.
    let carl = player(&server, "carl").await;
    let dora = player(&server, "dora").await;
    let (game, carl_seat, dora_seat) =
        online_game(&api, &carl, &dora, json!({ "rated": false })).await;
    resign(&api, &game, &carl_seat).await;
    let second = rematch(&api, &game, [&dora_seat, &carl_seat]).await;
    resign(&api, &second, &dora_seat).await;
    let petteia = &profile(&api, "carl").await["variants"]["petteia-6"];
    assert_eq!(
        (
            petteia["games"].as_u64(),
            petteia["wins"].as_u64(),
            &petteia["rating"]
        ),
        (Some(2), Some(1), &Value::Null),
        "{petteia}"
    );
    server.stop().await;
}

async fn seats_played_before_signing_in_are_attached_to_the_account(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let computer = api
        .create(json!({ "variant": "petteia-6", "mode": "computer", "level": 2 }))
        .await;
    resign(&api, game_id(&computer), seat_token(&computer)).await;
    let local = api.local_petteia().await;
    let online = api
        .create(json!({ "variant": "petteia-6", "mode": "online", "side": "first" }))
        .await;
    let kim = player(&server, "kim").await;
    let invite = online["invite"].as_str().unwrap();
    let (_, joined) = api
        .post(
            &format!("/api/v1/invites/{invite}/join"),
            Some(&kim),
            json!({}),
        )
        .await;

    let lou = player(&server, "lou").await;
    let tokens = [&computer, &local, &online, &joined].map(seat_token);
    let (status, attached) = api
        .post(
            "/api/v1/account/seats",
            Some(&lou),
            json!({ "tokens": [tokens[0], tokens[1], tokens[2], tokens[3], "not a token"] }),
        )
        .await;
    assert_eq!(
        (status, &attached),
        (200, &json!({ "attached": 2 })),
        "the computer and online seats; not the shared screen, not kim's seat"
    );
    let (_, seats) = api
        .get(&format!("/api/v1/games/{}/players", game_id(&online)), None)
        .await;
    assert_eq!(
        (seats[0]["username"].as_str(), seats[1]["username"].as_str()),
        (Some("lou"), Some("kim")),
        "{seats}"
    );
    assert_eq!(
        profile(&api, "lou").await["computer"]["petteia-6"]["2"],
        json!({ "wins": 0, "draws": 0, "losses": 1 })
    );
    let (_, again) = api
        .post(
            "/api/v1/account/seats",
            Some(&lou),
            json!({ "tokens": [tokens[0]] }),
        )
        .await;
    assert_eq!(again, json!({ "attached": 0 }), "held already");
    server.stop().await;
}

async fn a_revoked_token_and_a_closed_session_are_refused(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let cookie = sign_up(&server, "carol").await;
    let (_, made) = with_cookie(
        &server,
        reqwest::Method::POST,
        "/api/v1/account/tokens",
        &cookie,
        Some(json!({ "description": "bot" })),
    )
    .await;
    let token = made["token"].as_str().unwrap();
    assert!(token.starts_with("lp_"));
    let (status, account) = api.get("/api/v1/account", Some(token)).await;
    assert_eq!((status, account["username"].as_str()), (200, Some("carol")));
    let (_, listed) = api.get("/api/v1/account/tokens", Some(token)).await;
    assert_eq!(listed[0]["description"], "bot");
    assert!(
        !listed.to_string().contains(token),
        "the list holds no secret"
    );

    let id = made["id"].as_str().unwrap();
    let (status, _) = with_cookie(
        &server,
        reqwest::Method::DELETE,
        &format!("/api/v1/account/tokens/{id}"),
        &cookie,
        None,
    )
    .await;
    assert_eq!(status, 204);
    let (status, refused) = api.get("/api/v1/account", Some(token)).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (401, Some("unauthorized"))
    );
    let (status, _) = api
        .post(
            "/api/v1/games",
            Some(token),
            json!({ "variant": "petteia-6", "mode": "online" }),
        )
        .await;
    assert_eq!(status, 401, "a revoked token creates nothing");

    let (status, _) = with_cookie(
        &server,
        reqwest::Method::DELETE,
        "/api/v1/session",
        &cookie,
        None,
    )
    .await;
    assert_eq!(status, 204);
    let (status, _) = with_cookie(
        &server,
        reqwest::Method::GET,
        "/api/v1/account",
        &cookie,
        None,
    )
    .await;
    assert_eq!(status, 401, "signed out");
    server.stop().await;
}

/// A player changes a password that may have leaked: the old one no longer signs in, every
/// session of the account ends (another device's too) and this one begins anew; a bot's
/// personal token goes on working.
async fn a_changed_password_ends_every_session_but_the_new_one(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let here = sign_up(&server, "pat").await;
    let token = personal_token(&server, &here).await;
    let elsewhere = sign_in(&server, "pat", "a good password").await;

    let change = |password: &str, new_password: &str| {
        let body = json!({ "password": password, "new_password": new_password });
        with_cookie(
            &server,
            reqwest::Method::POST,
            "/api/v1/account/password",
            &here,
            Some(body),
        )
    };
    let (status, refused) = change("not my password", "a better password").await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (401, &json!("unauthorized"))
    );
    let (status, refused) = change("a good password", "short").await;
    assert_eq!(
        (
            status,
            &refused["error"]["code"],
            &refused["error"]["refusal"]
        ),
        (400, &json!("bad_request"), &json!("password_length"))
    );
    let changed = reqwest::Client::new()
        .post(format!("{}/api/v1/account/password", server.base))
        .header("cookie", &here)
        .json(&json!({ "password": "a good password", "new_password": "a better password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200);
    let renewed = session_cookie(&changed);

    let account = |cookie| {
        with_cookie(
            &server,
            reqwest::Method::GET,
            "/api/v1/account",
            cookie,
            None,
        )
    };
    assert_eq!(account(&here).await.0, 401, "the old session ended");
    assert_eq!(account(&elsewhere).await.0, 401, "another device's ended");
    assert_eq!(account(&renewed).await.0, 200, "this one begins anew");
    assert_eq!(api.get("/api/v1/account", Some(&token)).await.0, 200);
    let old = json!({ "username": "pat", "password": "a good password" });
    assert_eq!(api.post("/api/v1/session", None, old).await.0, 401);
    sign_in(&server, "pat", "a better password").await;
    server.stop().await;
}

async fn a_deleted_account_keeps_its_games_under_deleted(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let dan = player(&server, "dan").await;
    let eve = player(&server, "eve").await;
    let (game, dan_seat, _) = online_game(&api, &dan, &eve, json!({})).await;
    resign(&api, &game, &dan_seat).await;
    let delete = |password: &str| {
        reqwest::Client::new()
            .delete(format!("{}/api/v1/account", server.base))
            .bearer_auth(&dan)
            .json(&json!({ "password": password }))
            .send()
    };
    assert_eq!(delete("wrong password").await.unwrap().status(), 401);
    assert_eq!(delete("a good password").await.unwrap().status(), 204);
    assert_eq!(
        api.get("/api/v1/account", Some(&dan)).await.0,
        401,
        "its tokens are gone"
    );
    assert_eq!(api.get("/api/v1/players/dan", None).await.0, 404);
    let (_, games) = api.get("/api/v1/players/eve/games", None).await;
    assert_eq!(games[0]["opponent"], "deleted");
    let (status, _) = api
        .post(
            "/api/v1/session",
            None,
            json!({ "username": "dan", "password": "a good password" }),
        )
        .await;
    assert_eq!(status, 401);
    server.stop().await;
}

async fn an_account_plays_its_seats_on_any_device_without_their_tokens(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let dan_cookie = sign_up(&server, "dan").await;
    let dan = ludus_tests::personal_token(&server, &dan_cookie).await;
    let eve = player(&server, "eve").await;
    let fay_cookie = sign_up(&server, "fay").await;
    let fay = ludus_tests::personal_token(&server, &fay_cookie).await;
    // Dan creates (light), Eve joins: then neither uses a seat token again.
    let (game, _, _) = online_game(&api, &dan, &eve, json!({})).await;
    let path = format!("/api/v1/games/{game}");
    // Dan's session (another browser of his) and his personal token open his seat; another
    // account's token watches.
    let (status, view) = with_cookie(&server, reqwest::Method::GET, &path, &dan_cookie, None).await;
    assert_eq!(
        (status, &view["seat"]["side"]),
        (200, &json!("light")),
        "{view}"
    );
    let (_, view) = api.get(&path, Some(&dan)).await;
    assert_eq!(view["seat"]["side"], "light", "{view}");
    let body = json!({ "move": view["legal_moves"][0], "version": view["version"] });
    let (_, watched) = api.get(&path, Some(&fay)).await;
    assert_eq!(watched["seat"], Value::Null, "{watched}");
    // A page of another site (as a socket it opens, which the browser sends the cookie with)
    // gets no seat by the cookie; a personal token, which only its holder sends, counts from
    // any site (a third-party client's).
    let get = reqwest::Method::GET;
    let (_, by_cookie) =
        from_another_site(&server, get.clone(), &path, ("cookie", &dan_cookie), None).await;
    assert_eq!(by_cookie["seat"], Value::Null, "{by_cookie}");
    let bearer = format!("Bearer {dan}");
    let (_, by_token) =
        from_another_site(&server, get, &path, ("authorization", &bearer), None).await;
    assert_eq!(by_token["seat"]["side"], "light", "{by_token}");
    // Dan moves with his session, from the site's own page; a page of another site may not.
    let moves = format!("{path}/moves");
    let post = reqwest::Method::POST;
    let (status, _) = from_another_site(
        &server,
        post,
        &moves,
        ("cookie", &dan_cookie),
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, 403);
    let (status, moved) = with_cookie(
        &server,
        reqwest::Method::POST,
        &format!("{path}/moves"),
        &dan_cookie,
        Some(body),
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    // Eve plays over the socket with her personal token in the hello.
    let mut socket = Socket::connect(&server.base, &game, Some(&eve), None).await;
    let snapshot = socket.next_of("snapshot").await;
    assert_eq!(snapshot["game"]["seat"]["side"], "dark", "{snapshot}");
    let reply = snapshot["game"]["legal_moves"][0].clone();
    socket
        .send(json!({ "type": "move", "move": reply, "version": 1, "id": "e1" }))
        .await;
    let answer = socket.next().await.unwrap();
    assert_eq!(answer["version"], 2, "{answer}");
    socket.close().await;
    // Fay's token watches the socket too.
    let mut watcher = Socket::connect(&server.base, &game, Some(&fay), None).await;
    assert_eq!(
        watcher.next_of("snapshot").await["game"]["seat"],
        Value::Null
    );
    watcher.close().await;
    // No one plays themselves: Dan opening his own invite, signed in, is sent to the game.
    let (_, created) = api
        .post(
            "/api/v1/games",
            Some(&dan),
            json!({ "variant": "petteia-6", "mode": "online", "side": "first" }),
        )
        .await;
    let invite = created["invite"].as_str().unwrap();
    let (status, refused) = with_cookie(
        &server,
        reqwest::Method::POST,
        &format!("/api/v1/invites/{invite}/join"),
        &dan_cookie,
        Some(json!({})),
    )
    .await;
    assert_eq!(
        (status, &refused["error"]["game_id"]),
        (409, &created["game_id"]),
        "{refused}"
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("other seat"),
        "{refused}"
    );
    // Dan finds both games on any device: the one waiting for its invite, and the one in play.
    let (status, live) = with_cookie(
        &server,
        reqwest::Method::GET,
        "/api/v1/account/games",
        &dan_cookie,
        None,
    )
    .await;
    assert_eq!(status, 200, "{live}");
    let listed: Vec<(&str, &str, &str, Option<&str>)> = live
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game_id"].as_str().unwrap(),
                g["status"].as_str().unwrap(),
                g["side"].as_str().unwrap(),
                g["opponent"].as_str(),
            )
        })
        .collect();
    let waiting = created["game_id"].as_str().unwrap();
    assert_eq!(
        listed,
        [
            (waiting, "waiting", "light", None),
            (game.as_str(), "playing", "light", Some("eve"))
        ]
    );
    // A revoked personal token is refused, not taken for a spectator.
    revoke_the_token(&server, &fay_cookie).await;
    let (status, _) = api.get(&path, Some(&fay)).await;
    assert_eq!(status, 401);
    server.stop().await;
}

/// Revokes the one personal token of the account signed in with `cookie`.
async fn revoke_the_token(server: &TestServer, cookie: &str) {
    let get = reqwest::Method::GET;
    let (_, tokens) = with_cookie(server, get, "/api/v1/account/tokens", cookie, None).await;
    let path = format!(
        "/api/v1/account/tokens/{}",
        tokens[0]["id"].as_str().unwrap()
    );
    let (status, _) = with_cookie(server, reqwest::Method::DELETE, &path, cookie, None).await;
    assert_eq!(status, 204);
}

/// A socket playing an account's seat by its personal token stops when the token is revoked (at
/// its next ping): a leaked bot token, once revoked, plays no more.
async fn a_socket_stops_playing_an_account_s_seat_when_its_token_is_revoked(database: Database) {
    let server = TestServer::start_paused(database, |config| config).await;
    let api = server.api();
    let hal_cookie = sign_up(&server, "hal").await;
    let hal = ludus_tests::personal_token(&server, &hal_cookie).await;
    let ivy = player(&server, "ivy").await;
    let (game, _, _) = online_game(&api, &hal, &ivy, json!({})).await;
    let mut socket = Socket::connect(&server.base, &game, Some(&hal), None).await;
    let snapshot = socket.next_of("snapshot").await;
    assert_eq!(snapshot["game"]["seat"]["side"], "light", "{snapshot}");
    revoke_the_token(&server, &hal_cookie).await;
    server.advance(Duration::from_secs(21)).await;
    let refused = socket.next_of("error").await;
    assert_eq!(refused["code"], "unauthorized", "{refused}");
    assert!(socket.next().await.is_none(), "the socket closes");
    assert_eq!(socket.close_code(), Some(1008));
    server.stop().await;
}

/// Reads NDJSON notices from `GET /api/v1/stream/events`, skipping keep-alive lines.
struct Notices {
    lines: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<Vec<u8>>> + Send>>,
    buffer: String,
}

impl Notices {
    async fn open(server: &TestServer, token: &str) -> Notices {
        let response = reqwest::Client::new()
            .get(format!("{}/api/v1/stream/events", server.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let lines = response.bytes_stream().map(|b| b.map(|b| b.to_vec()));
        Notices {
            lines: Box::pin(lines),
            buffer: String::new(),
        }
    }

    async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buffer.find('\n') {
                let line: String = self.buffer.drain(..=end).collect();
                if line.trim().is_empty() {
                    continue;
                }
                return serde_json::from_str(&line).unwrap();
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.lines.next())
                .await
                .expect("a notice within 10 s")
                .expect("the stream stays open")
                .unwrap();
            self.buffer.push_str(&String::from_utf8(chunk).unwrap());
        }
    }
}

/// A challenge made with `"rated": false` starts a game both accounts hold that counts in their
/// results but not in their ratings (the terms reach the game's creation, in its transaction).
async fn an_unrated_challenge_is_played_unrated(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let fay = player(&server, "fay").await;
    let gus = player(&server, "gus").await;
    let terms =
        json!({ "username": "gus", "variant": "petteia-6", "side": "first", "rated": false });
    let (status, made) = api.post("/api/v1/challenges", Some(&fay), terms).await;
    assert_eq!(status, 201, "{made}");
    let challenge = made["challenge_id"].as_str().unwrap();
    let accept = format!("/api/v1/challenges/{challenge}/accept");
    let (status, accepted) = api.post(&accept, Some(&gus), json!({})).await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["game_id"].as_str().unwrap();
    let (_, players) = api
        .get(&format!("/api/v1/games/{game}/players"), None)
        .await;
    let names: Vec<_> = players
        .as_array()
        .expect("the seats' holders")
        .iter()
        .map(|p| (p["side"].as_str(), p["username"].as_str()))
        .collect();
    assert_eq!(
        names,
        [(Some("light"), Some("fay")), (Some("dark"), Some("gus"))]
    );
    resign(&api, game, accepted["seat"]["token"].as_str().unwrap()).await;
    let fay_profile = profile(&api, "fay").await;
    let petteia = &fay_profile["variants"]["petteia-6"];
    assert_eq!(
        (petteia["games"].as_u64(), petteia["wins"].as_u64()),
        (Some(1), Some(1)),
        "{fay_profile}"
    );
    assert_eq!(
        petteia["rating"],
        Value::Null,
        "an unrated challenge gives no rating"
    );
    server.stop().await;
}

/// A dice game from a challenge is as fair as one from an invite: the challenge commits to the
/// game's seed, and the challenged player's entropy, given when accepting, is mixed in after it
/// (the server cannot choose its seed knowing it), beside the challenger's.
async fn a_dice_challenge_commits_to_its_seed_before_the_accept_adds_entropy(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let (ida, jon) = (player(&server, "ida").await, player(&server, "jon").await);
    let terms = json!({ "username": "jon", "variant": "duodecim-scripta", "entropy": "ida's own" });
    let (status, made) = api.post("/api/v1/challenges", Some(&ida), terms).await;
    assert_eq!(status, 201, "{made}");
    let (_, pending) = api.get("/api/v1/challenges", Some(&jon)).await;
    let commitment = pending["incoming"][0]["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(commitment.len(), 64, "{pending}");
    let challenge = made["challenge_id"].as_str().unwrap();
    let (status, accepted) = api
        .post(
            &format!("/api/v1/challenges/{challenge}/accept"),
            Some(&jon),
            json!({ "entropy": "jon's own" }),
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["game_id"].as_str().unwrap();
    let record = api.record(game).await;
    for tag in [
        format!("[Commitment \"{commitment}\"]"),
        "[CreatorEntropy \"ida's own\"]".to_string(),
        "[JoinerEntropy \"jon's own\"]".to_string(),
    ] {
        assert!(record.contains(&tag), "{tag} in {record}");
    }
    // A game without dice has no seed to commit to.
    let terms = json!({ "username": "jon", "variant": "petteia-6" });
    api.post("/api/v1/challenges", Some(&ida), terms).await;
    let (_, pending) = api.get("/api/v1/challenges", Some(&jon)).await;
    assert!(
        pending["incoming"][0].get("commitment").is_none(),
        "{pending}"
    );
    server.stop().await;
}

async fn an_accepted_challenge_starts_a_rated_game_on_both_streams(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let fay = player(&server, "fay").await;
    let gus = player(&server, "gus").await;
    let mut gus_notices = Notices::open(&server, &gus).await;
    let (status, made) = api
        .post(
            "/api/v1/challenges",
            Some(&fay),
            json!({ "username": "GUS", "variant": "petteia-6", "clock": null, "side": "first" }),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let challenge = made["challenge_id"].as_str().unwrap();
    let notice = gus_notices.next().await;
    assert_eq!(
        (
            notice["type"].as_str(),
            notice["challenge_id"].as_str(),
            notice["challenger"].as_str()
        ),
        (Some("challenge"), Some(challenge), Some("fay"))
    );
    assert_eq!(notice["challenged"], "gus", "the name as it was signed up");
    // Both see it pending, each on their side of it; nobody else does.
    for (token, incoming, outgoing) in [(&gus, 1, 0), (&fay, 0, 1)] {
        let (status, pending) = api.get("/api/v1/challenges", Some(token)).await;
        assert_eq!(status, 200, "{pending}");
        assert_eq!(
            (
                pending["incoming"].as_array().unwrap().len(),
                pending["outgoing"].as_array().unwrap().len()
            ),
            (incoming, outgoing),
            "{pending}"
        );
    }
    let (_, fay_pending) = api.get("/api/v1/challenges", Some(&fay)).await;
    assert_eq!(fay_pending["outgoing"][0], notice, "the stream's notice");
    let (status, _) = api.get("/api/v1/challenges", None).await;
    assert_eq!(status, 401, "identified only");

    let (status, refused) = api
        .post(
            &format!("/api/v1/challenges/{challenge}/accept"),
            Some(&fay),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("forbidden")),
        "only gus may accept"
    );
    let (status, accepted) = api
        .post(
            &format!("/api/v1/challenges/{challenge}/accept"),
            Some(&gus),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["game_id"].as_str().unwrap();
    let gus_start = gus_notices.next().await;
    assert_eq!(
        (
            gus_start["type"].as_str(),
            gus_start["seat"]["token"].as_str()
        ),
        (Some("game_start"), accepted["seat"]["token"].as_str())
    );
    // fay opened no stream: her seat waits for her first.
    let fay_start = Notices::open(&server, &fay).await.next().await;
    assert_eq!(
        (
            fay_start["game_id"].as_str(),
            fay_start["seat"]["side"].as_str()
        ),
        (Some(game), Some("light"))
    );
    let (status, _) = api
        .post(
            &format!("/api/v1/challenges/{challenge}/accept"),
            Some(&gus),
            json!({}),
        )
        .await;
    assert_eq!(status, 409, "accepted once");
    let (_, pending) = api.get("/api/v1/challenges", Some(&fay)).await;
    assert_eq!(
        pending,
        json!({ "incoming": [], "outgoing": [] }),
        "an accepted challenge is no longer pending"
    );

    let fay_seat = fay_start["seat"]["token"].as_str().unwrap();
    a_move_each(
        &api,
        game,
        [fay_seat, accepted["seat"]["token"].as_str().unwrap()],
    )
    .await;
    resign(&api, game, fay_seat).await;
    assert!(
        profile(&api, "gus").await["variants"]["petteia-6"]["rating"]
            .as_f64()
            .unwrap()
            > 1500.0
    );

    // Declined and canceled challenges tell the other side.
    let mut fay_notices = Notices::open(&server, &fay).await;
    let (_, second) = api
        .post(
            "/api/v1/challenges",
            Some(&fay),
            json!({ "username": "gus", "variant": "duodecim-scripta" }),
        )
        .await;
    let second = second["challenge_id"].as_str().unwrap();
    assert_eq!(
        api.post(
            &format!("/api/v1/challenges/{second}/decline"),
            Some(&gus),
            json!({})
        )
        .await
        .0,
        204
    );
    assert_eq!(
        fay_notices.next().await,
        json!({ "type": "challenge_declined", "challenge_id": second })
    );
    let (_, third) = api
        .post(
            "/api/v1/challenges",
            Some(&fay),
            json!({ "username": "gus", "variant": "petteia-8" }),
        )
        .await;
    let third = third["challenge_id"].as_str().unwrap();
    assert_eq!(
        api.post(
            &format!("/api/v1/challenges/{third}/cancel"),
            Some(&gus),
            json!({})
        )
        .await
        .0,
        403
    );
    assert_eq!(
        api.post(
            &format!("/api/v1/challenges/{third}/cancel"),
            Some(&fay),
            json!({})
        )
        .await
        .0,
        204
    );
    loop {
        let notice = gus_notices.next().await;
        if notice["type"] == "challenge_canceled" {
            assert_eq!(notice["challenge_id"], third);
            break;
        }
    }
    server.stop().await;
}

/// `examples/bot.py`, run as its users run it; killed if the test ends before it does.
struct Bot(std::process::Child);

impl Bot {
    fn start(server: &TestServer, token: &str) -> Bot {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/bot.py");
        let child = std::process::Command::new("python3")
            .args([
                script,
                &server.base,
                token,
                "--variants",
                "petteia-6",
                "--games",
                "1",
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("python3 runs examples/bot.py");
        Bot(child)
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn the_bot_example_accepts_a_challenge_and_plays_it_to_the_end(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let robot = player(&server, "robot").await;
    let human = player(&server, "human").await;
    let mut bot = Bot::start(&server, &robot);
    let mut notices = Notices::open(&server, &human).await;
    let (status, made) = api
        .post(
            "/api/v1/challenges",
            Some(&human),
            json!({ "username": "robot", "variant": "petteia-6", "side": "first" }),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let start = notices.next().await;
    assert_eq!(start["type"], "game_start", "the bot accepted: {start}");
    let game = start["game_id"].as_str().unwrap();
    let token = start["seat"]["token"].as_str().unwrap();
    // The human plays each turn's first legal move; the bot answers through the public API.
    let mut view = api.view(game, Some(token)).await;
    while view["status"] == "playing" {
        if view["to_move"] == start["seat"]["side"]
            && let Some(first) = view["legal_moves"].get(0).and_then(Value::as_str)
        {
            let version = view["version"].as_u64().unwrap();
            let (status, answer) = api.play(game, token, first, version).await;
            assert!(status == 200 || status == 409, "{status} {answer}");
        } else {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        view = api.view(game, Some(token)).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    let exited = tokio::task::spawn_blocking(move || {
        let status = bot.0.wait().expect("the bot ends");
        (bot, status)
    })
    .await
    .unwrap()
    .1;
    assert!(
        exited.success(),
        "the bot stops after its one game: {exited}"
    );
    for name in ["human", "robot"] {
        let petteia = &profile(&api, name).await["variants"]["petteia-6"];
        assert_eq!(petteia["games"], 1, "{name}: {petteia}");
        assert!(petteia["rating"].is_number(), "rated for {name}: {petteia}");
    }
    server.stop().await;
}

async fn bad_input_gets_a_clear_error_and_changes_nothing(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let hal = player(&server, "hal").await;
    let code = |reply: &Reply| reply.1["error"]["code"].as_str().map(String::from);
    let taken = api.sign_up("HAL", "another password").await;
    assert_eq!((taken.0, code(&taken).as_deref()), (409, Some("conflict")));
    // The rule broken is named, for the client to say it in its language; a password is
    // counted in characters (four emoji are eight UTF-16 units to a browser's field).
    for (username, password, rule) in [
        ("h", "long enough", "username_format"),
        ("has space", "long enough", "username_format"),
        ("ivy", "short", "password_length"),
        (
            "ivy",
            "\u{1F600}\u{1F600}\u{1F600}\u{1F600}",
            "password_length",
        ),
    ] {
        let reply = api.sign_up(username, password).await;
        assert_eq!(
            (reply.0, code(&reply).as_deref()),
            (400, Some("bad_request")),
            "{username}"
        );
        assert_eq!(reply.1["error"]["refusal"], rule, "{username} {password}");
    }
    assert_eq!(
        api.get("/api/v1/players/ivy", None).await.0,
        404,
        "nothing was created"
    );
    let wrong = api
        .post(
            "/api/v1/session",
            None,
            json!({ "username": "hal", "password": "not the password" }),
        )
        .await;
    let unknown = api
        .post(
            "/api/v1/session",
            None,
            json!({ "username": "nobody", "password": "not the password" }),
        )
        .await;
    assert_eq!(
        wrong, unknown,
        "a wrong password and an unknown user get the same answer"
    );
    assert_eq!(wrong.0, 401);
    let to_nobody = api
        .post(
            "/api/v1/challenges",
            Some(&hal),
            json!({ "username": "nobody", "variant": "petteia-6" }),
        )
        .await;
    assert_eq!(to_nobody.0, 404);
    let to_self = api
        .post(
            "/api/v1/challenges",
            Some(&hal),
            json!({ "username": "hal", "variant": "petteia-6" }),
        )
        .await;
    assert_eq!(
        (to_self.0, code(&to_self).as_deref()),
        (400, Some("bad_request"))
    );
    let anonymous = api
        .post(
            "/api/v1/challenges",
            None,
            json!({ "username": "hal", "variant": "petteia-6" }),
        )
        .await;
    assert_eq!(anonymous.0, 401);
    assert_eq!(api.get("/api/v1/players/nobody", None).await.0, 404);
    assert_eq!(api.get("/api/v1/leaderboard/chess", None).await.0, 400);
    // A cookie-signed change from another site is refused.
    let cookie = sign_up(&server, "ivy").await;
    let (status, _) = from_another_site(
        &server,
        reqwest::Method::POST,
        "/api/v1/account/tokens",
        ("cookie", &cookie),
        Some(json!({ "description": "stolen" })),
    )
    .await;
    assert_eq!(status, 403);
    server.stop().await;
}

async fn sign_ins_from_one_address_are_rate_limited(database: Database) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        sign_in_per_minute: 2,
        ..config
    })
    .await;
    let api = server.api();
    for _ in 0..2 {
        let reply = api
            .post(
                "/api/v1/session",
                None,
                json!({ "username": "nobody", "password": "whatever1" }),
            )
            .await;
        assert_eq!(reply.0, 401);
    }
    let (status, limited) = api.sign_up("late", "whatever1").await;
    assert_eq!(
        (status, limited["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(limited["error"]["retry_after_ms"].as_u64().unwrap() > 0);
    server.stop().await;
}

/// Deleting an account checks its password as signing in does, and costs the server as much: the
/// checks count against the address's sign-in rate too (from a hostile-client audit, where a held
/// token let one address run them without limit and fill both cores).
async fn every_password_check_counts_against_the_sign_in_rate(database: Database) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        sign_in_per_minute: 2,
        ..config
    })
    .await;
    let token = player(&server, "leto").await; // the sign-up: one of the two
    let delete = |password: &'static str| {
        let request = reqwest::Client::new()
            .delete(format!("{}/api/v1/account", server.base))
            .bearer_auth(&token)
            .json(&json!({ "password": password }));
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (
                status,
                response.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    assert_eq!(delete("not the password").await.0, 401);
    let (status, limited) = delete("not the password").await;
    assert_eq!(
        (status, limited["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    // Past the rate even the right password waits; the account is still there.
    assert_eq!(delete("a good password").await.0, 429);
    let (status, _) = server.api().get("/api/v1/players/leto", None).await;
    assert_eq!(status, 200);
    server.stop().await;
}

async fn the_session_cookie_is_secure_behind_https(database: Database) {
    let server = TestServer::start_configured(database, |config| ServeConfig {
        public_url: Some("https://ludus.example".into()),
        ..config
    })
    .await;
    let response = reqwest::Client::new()
        .post(format!("{}/api/v1/accounts", server.base))
        .json(&json!({ "username": "sue", "password": "a good password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.contains("; Secure"), "{cookie}");
    server.stop().await;
}

/// Every page of a listing after `path` (which ends in `limit=2`), each page beginning after the
/// last game of the one before by its time and id: the game ids, in the order listed.
async fn every_page(api: &Api, path: &str, time: &str) -> Vec<String> {
    let mut listed = Vec::new();
    let mut page = path.to_string();
    loop {
        let (status, games) = api.get(&page, None).await;
        assert_eq!(status, 200, "{page}: {games}");
        let games = games.as_array().unwrap();
        listed.extend(
            games
                .iter()
                .map(|g| g["game_id"].as_str().unwrap().to_string()),
        );
        let Some(last) = games.last() else {
            return listed;
        };
        page = format!(
            "{path}&before={}&before_id={}",
            last[time],
            last["game_id"].as_str().unwrap()
        );
    }
}

async fn games_ended_in_one_millisecond_are_each_listed_once_across_pages(database: Database) {
    // The server's time stands still: every game ends in the same millisecond.
    let server = TestServer::start_paused(database, |config| config).await;
    let api = server.api();
    let ann = player(&server, "ann").await;
    let bob = player(&server, "bob").await;
    let mut ended = Vec::new();
    for _ in 0..5 {
        let (game, ann_seat, _) = online_game(&api, &ann, &bob, json!({})).await;
        resign(&api, &game, &ann_seat).await;
        ended.push(game);
    }
    ended.sort();
    for path in [
        "/api/v1/games?status=finished&limit=2",
        "/api/v1/players/bob/games?limit=2",
    ] {
        let mut listed = every_page(&api, path, "finished_at").await;
        assert_eq!(listed.len(), 5, "{path}: {listed:?}");
        listed.sort();
        assert_eq!(listed, ended, "{path}");
    }
    // A page's id without its time, or an id no game could have, is refused.
    for path in [
        "/api/v1/games?before_id=abc",
        "/api/v1/games?before=1&before_id=a-b",
        "/api/v1/players/bob/games?before_id=abc",
    ] {
        let (status, body) = api.get(path, None).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("bad_request")),
            "{path}"
        );
    }
    server.stop().await;
}

on_both_databases!(
    signed_up_players_get_results_and_ratings_from_a_rated_game,
    shared_screen_aborted_and_unrated_games_leave_ratings_alone,
    computer_games_played_with_help_are_listed_but_not_counted_at_the_level,
    a_rematch_keeps_its_players_accounts_with_sides_swapped,
    seats_played_before_signing_in_are_attached_to_the_account,
    a_revoked_token_and_a_closed_session_are_refused,
    a_deleted_account_keeps_its_games_under_deleted,
    a_changed_password_ends_every_session_but_the_new_one,
    an_accepted_challenge_starts_a_rated_game_on_both_streams,
    a_dice_challenge_commits_to_its_seed_before_the_accept_adds_entropy,
    an_unrated_challenge_is_played_unrated,
    the_bot_example_accepts_a_challenge_and_plays_it_to_the_end,
    bad_input_gets_a_clear_error_and_changes_nothing,
    sign_ins_from_one_address_are_rate_limited,
    every_password_check_counts_against_the_sign_in_rate,
    the_session_cookie_is_secure_behind_https,
    an_account_plays_its_seats_on_any_device_without_their_tokens;
    paused: games_ended_in_one_millisecond_are_each_listed_once_across_pages,
    a_socket_stops_playing_an_account_s_seat_when_its_token_is_revoked,
);
