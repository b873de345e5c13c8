//! Real play between two people (issue 12, the server's half): own invite links, presence and
//! claims, takeback and rematch by consent, a declined draw told to the one who offered, and the
//! same actions over the WebSocket. Every scenario runs on SQLite and, when configured, Postgres.

use ludus_engine::dice::{ServerSeed, from_hex, to_hex};
use ludus_server::config::ServeConfig;
use ludus_tests::{
    Api, Database, Reply, Socket, TestDatabase, TestServer, game_id, on_both_databases, seat_token,
    test_config,
};
use serde_json::{Value, json};
use std::time::Duration;

async fn server(database: Database) -> TestServer {
    TestServer::start(database).await
}

/// A server whose claim window is one second and whose time moves only when the test moves it
/// (`TestServer::advance`), so that presence runs out exactly when the test says.
async fn server_with_short_claims(database: Database) -> TestServer {
    TestServer::start_paused(database, |config| ServeConfig {
        claim_after_timed_secs: 1,
        claim_after_untimed_secs: 1,
        ..config
    })
    .await
}

/// An online Petteia 6×6 game, joined: (game id, the creator's token, the joiner's token).
async fn joined_game(api: &Api, clock: Value) -> (String, String, String) {
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online", "clock": clock }))
        .await;
    let joined = api.join(&created).await;
    (
        game_id(&created).to_string(),
        seat_token(&created).to_string(),
        seat_token(&joined).to_string(),
    )
}

/// A seat's live event stream (NDJSON) of a game, open.
async fn open_event_stream(server: &TestServer, game: &str, token: &str) -> reqwest::Response {
    let stream = server
        .api()
        .event_stream(game, "since=0", Some(token))
        .await;
    assert_eq!(stream.status(), 200);
    stream
}

/// Reads a seat's socket until a snapshot says the opponent is away; returns that game view.
async fn until_opponent_away(socket: &mut Socket) -> Value {
    loop {
        let snapshot = socket.next_of("snapshot").await;
        if snapshot["game"]["opponent_connected"] == false {
            return snapshot["game"].clone();
        }
    }
}

fn join_path(created: &Value) -> String {
    format!(
        "/api/v1/invites/{}/join",
        created["invite"].as_str().unwrap()
    )
}

async fn opening_an_invite_with_a_seat_token_returns_that_seat(database: Database) {
    let server = server(database).await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let (game, creator) = (game_id(&created), seat_token(&created));
    // The creator opens their own link: their seat, and the invite is still there for the friend.
    let (status, own) = api
        .post(&join_path(&created), Some(creator), json!({}))
        .await;
    assert_eq!(status, 200, "{own}");
    assert_eq!(
        (seat_token(&own), &own["seat"]["side"]),
        (creator, &json!("light"))
    );
    assert_eq!(own["game"]["status"], "waiting");
    // No one has taken the invite: no opponent is connected (from a third-party client's audit:
    // the view said one was).
    assert_eq!(own["game"]["opponent_connected"], false, "{own}");
    // A token of another game changes nothing.
    let other = api.local_petteia().await;
    let (status, refused) = api
        .post(&join_path(&created), Some(seat_token(&other)), json!({}))
        .await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (401, &json!("unauthorized"))
    );
    assert_eq!(api.view(game, None).await["status"], "waiting");
    // The friend joins; opening the link again with their token lands them in their game.
    let (status, joined) = api.post(&join_path(&created), None, json!({})).await;
    assert_eq!((status, &joined["seat"]["side"]), (200, &json!("dark")));
    let friend = seat_token(&joined);
    let (status, again) = api
        .post(&join_path(&created), Some(friend), json!({}))
        .await;
    assert_eq!((status, seat_token(&again)), (200, friend));
    assert_eq!(again["seat"]["side"], "dark");
    assert_eq!(
        again["game"]["opponent_connected"], true,
        "the creator was just here"
    );
    // The creator's link still gives the creator's seat; a stranger is told the seat is taken,
    // and which game it was for, to watch it.
    let (status, own) = api
        .post(&join_path(&created), Some(creator), json!({}))
        .await;
    assert_eq!((status, &own["seat"]["side"]), (200, &json!("light")));
    let (status, taken) = api.post(&join_path(&created), None, json!({})).await;
    assert_eq!(
        (status, &taken["error"]["code"], &taken["error"]["game_id"]),
        (409, &json!("seat_taken"), &json!(game))
    );
    let watched = api.view(game, None).await;
    assert_eq!(
        (&watched["status"], &watched["seat"]),
        (&json!("playing"), &Value::Null)
    );
    // Other refusals name no game.
    let unknown = "0123456789abcdefghijABCDEFGHIJ01";
    let (status, missing) = api
        .post(&format!("/api/v1/invites/{unknown}/join"), None, json!({}))
        .await;
    assert_eq!((status, missing["error"].get("game_id")), (404, None));
    server.stop().await;
}

async fn a_closed_socket_is_seen_at_once_and_the_claim_time_is_given(database: Database) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    let mut mine = Socket::connect(&server.base, &game, Some(&light), None).await;
    let first = mine.next_of("snapshot").await;
    assert_eq!(first["game"]["spectators"], 0);
    let theirs = Socket::connect(&server.base, &game, Some(&dark), None).await;
    let watcher = Socket::connect(&server.base, &game, None, None).await;
    // The spectator is counted in the players' views.
    loop {
        let snapshot = mine.next_of("snapshot").await;
        if snapshot["game"]["spectators"] == 1 {
            break;
        }
    }
    let (status, refused) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(
        (
            status,
            &refused["error"]["code"],
            &refused["error"]["refusal"]
        ),
        (403, &json!("forbidden"), &json!("opponent_connected"))
    );
    for (token, mv, version) in [(&light, "A1-A2", 1), (&dark, "A6-A5", 2)] {
        let (status, played) = api.play(&game, token, mv, version).await;
        assert_eq!(status, 200, "{played}");
    }
    // The opponent's last connection closes: the other seat's socket is told at once.
    theirs.close().await;
    let away = until_opponent_away(&mut mine).await;
    let since = away["opponent_away_since"].as_i64().expect("since when");
    assert_eq!(away["claim_allowed_at"].as_i64(), Some(since + 1_000));
    // Before the window has passed a claim is refused; from its end on, allowed.
    let (status, refused) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (403, &json!("forbidden"))
    );
    server.advance(Duration::from_millis(999)).await;
    let (status, refused) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(
        (
            status,
            &refused["error"]["code"],
            &refused["error"]["refusal"]
        ),
        (403, &json!("forbidden"), &json!("claim_too_early"))
    );
    server.advance(Duration::from_millis(1)).await;
    let (status, claimed) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["result"]["termination"], "abandoned");
    watcher.close().await;
    server.stop().await;
}

/// A timed online game (10 minutes each; the claim window the default 60 s) in which Light
/// played A1-A2 over HTTP: (game id, Light's token, Dark's token, the version Light moved at).
async fn a_timed_game_light_moved_in(api: &Api) -> (String, String, String, u64) {
    let (game, light, dark) =
        joined_game(api, json!({ "initial_ms": 600_000, "increment_ms": 0 })).await;
    let version = api.view(&game, Some(&light)).await["version"]
        .as_u64()
        .unwrap();
    let (status, played) = api.play(&game, &light, "A1-A2", version).await;
    assert_eq!(status, 200, "{played}");
    (game, light, dark, version)
}

/// When the game's last event happened (ms since the epoch, the server's clock).
async fn last_event_at(api: &Api, game: &str) -> i64 {
    let events = api
        .get(&format!("/api/v1/games/{game}/events?since=0"), None)
        .await
        .1;
    events.as_array().unwrap().last().unwrap()["at"]
        .as_i64()
        .unwrap()
}

/// A link that dies without a word (a phone's Wi-Fi gone): nothing closes the socket, which
/// answers no ping. The server closes it once silent for 30 s, and its player counts as away
/// from when it was last heard, not from the close: the claim comes as long after the link died
/// as after a closed tab (a spectators' and flaky networks' audit: 77 s to be seen away, and
/// the claim after 137 s).
async fn a_silent_socket_is_closed_and_its_player_away_from_when_last_heard(database: Database) {
    // The claim window of a timed game is the default, 60 s.
    let server = TestServer::start_paused(database, |config| config).await;
    let api = server.api();
    let (game, light, dark, version) = a_timed_game_light_moved_in(&api).await;
    // Dark moves by its socket, then is never read again: no pong goes back.
    let mut theirs = Socket::connect(&server.base, &game, Some(&dark), None).await;
    theirs.next_of("snapshot").await;
    theirs
        .send(json!({ "type": "move", "move": "A6-A5", "version": version + 1, "id": "m1" }))
        .await;
    assert_eq!(theirs.next_of("ack").await["id"], "m1");
    let last_heard = last_event_at(&api, &game).await;
    // Light asks by HTTP (a socket of its own, unread, would go silent too).
    server.advance(Duration::from_secs(20)).await;
    let view = api.view(&game, Some(&light)).await;
    assert_eq!(
        view["opponent_connected"], true,
        "20 s silent: not yet closed"
    );
    server.advance(Duration::from_secs(21)).await;
    // The close waits a second for the client's close frame, which never comes; the actor then
    // hears of it. Time moves on a little at a time, the view asked after each step.
    let mut away = api.view(&game, Some(&light)).await;
    for _ in 0..40 {
        if away["opponent_connected"] == false {
            break;
        }
        server.advance(Duration::from_millis(100)).await;
        away = api.view(&game, Some(&light)).await;
    }
    assert_eq!(
        away["opponent_connected"], false,
        "closed after 40 s silent: {away}"
    );
    let since = away["opponent_away_since"].as_i64().expect("since when");
    assert!(
        (last_heard..last_heard + 1_000).contains(&since),
        "away since {since}, last heard at {last_heard}: the close came 40 s later"
    );
    assert_eq!(away["claim_allowed_at"].as_i64(), Some(since + 60_000));
    drop(theirs);
    server.stop().await;
}

/// Light's view of the game once `server`'s time has moved on a little at a time until
/// `opponent_connected` is `connected` (a presence change reaches the actor through a message).
async fn until_opponent_connected(
    server: &TestServer,
    game: &str,
    light: &str,
    connected: bool,
) -> Value {
    let api = server.api();
    let mut view = api.view(game, Some(light)).await;
    for _ in 0..40 {
        if view["opponent_connected"] == connected {
            break;
        }
        server.advance(Duration::from_millis(100)).await;
        view = api.view(game, Some(light)).await;
    }
    assert_eq!(view["opponent_connected"], connected, "{view}");
    view
}

/// Moves `server`'s time on by `seconds`, 20 s at a time (the server's ping), with `socket`
/// heard at each step as a browser whose page is frozen is: its transport's frames, no message.
async fn only_transport_for(server: &TestServer, socket: &mut Socket, seconds: u64) {
    for _ in 0..seconds / 20 {
        server.advance(Duration::from_secs(20)).await;
        socket.transport_round_trip().await;
    }
}

/// A page that stops (a tab frozen in the background) while its browser still answers the
/// server's pings: its hello promised a heartbeat, so its silence past two minutes counts its
/// player away from its last message, and its next message brings them back. A client that
/// promised none (a bot thinking long) stays present however long it is silent, as before.
async fn a_socket_that_promised_a_heartbeat_and_went_quiet_is_away_from_its_last_message(
    database: Database,
) {
    let server = TestServer::start_paused(database, |config| config).await;
    let api = server.api();
    let (game, light, dark, version) = a_timed_game_light_moved_in(&api).await;
    let mut page = Socket::open(&server.base, &game, "")
        .await
        .expect("the socket opens");
    page.send(json!({ "type": "hello", "token": dark, "heartbeat": true }))
        .await;
    page.next_of("snapshot").await;
    page.send(json!({ "type": "move", "move": "A6-A5", "version": version + 1, "id": "m1" }))
        .await;
    assert_eq!(page.next_of("ack").await["id"], "m1");
    let last_message = last_event_at(&api, &game).await;
    only_transport_for(&server, &mut page, 100).await;
    let view = api.view(&game, Some(&light)).await;
    assert_eq!(view["opponent_connected"], true, "100 s quiet: present");
    // Found quiet at the first ping past 120 s.
    only_transport_for(&server, &mut page, 40).await;
    let away = until_opponent_connected(&server, &game, &light, false).await;
    let since = away["opponent_away_since"].as_i64().expect("since when");
    assert!(
        (last_message..last_message + 1_000).contains(&since),
        "away since {since}, last message at {last_message}"
    );
    assert_eq!(away["claim_allowed_at"].as_i64(), Some(since + 60_000));
    // The page wakes: its ping brings its player back.
    page.send(json!({ "type": "ping", "id": "p1" })).await;
    assert_eq!(page.next_of("pong").await["id"], "p1");
    until_opponent_connected(&server, &game, &light, true).await;
    // Closed, it counts out once: Dark is away, and a bot of Dark's with no heartbeat promised
    // keeps them present through the same silence.
    drop(page);
    until_opponent_connected(&server, &game, &light, false).await;
    let mut bot = Socket::connect(&server.base, &game, Some(&dark), None).await;
    bot.next_of("snapshot").await;
    until_opponent_connected(&server, &game, &light, true).await;
    only_transport_for(&server, &mut bot, 160).await;
    let view = api.view(&game, Some(&light)).await;
    assert_eq!(view["opponent_connected"], true, "{view}");
    drop(bot);
    server.stop().await;
}

async fn a_claim_before_each_side_has_moved_aborts_the_game(database: Database) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    let (game, light, _dark) = joined_game(&api, json!(null)).await;
    let (status, played) = api.play(&game, &light, "A1-A2", 1).await;
    assert_eq!(status, 200, "{played}");
    // Dark joined and never came back: after the window, light's claim ends the game with no
    // winner, so it counts in neither player's results (lichess's rule for an unstarted game).
    server.advance(Duration::from_millis(1_000)).await;
    let (status, claimed) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(
        (&claimed["status"], &claimed["result"]),
        (&json!("aborted"), &Value::Null)
    );
    server.stop().await;
}

/// Online, a die thrown is a die both have seen: neither player may abort to have the opening
/// roll thrown again (from a dice players' audit: the first mover saw 6-2-3 beside an Abort
/// button), and a player who leaves then loses by the claim rather than having it aborted.
async fn an_online_dice_game_is_begun_once_a_die_is_thrown(database: Database) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    let created = api
        .create(json!({ "variant": "duodecim-scripta", "mode": "online" }))
        .await;
    let joined = api.join(&created).await;
    let game = game_id(&created);
    let seats = [seat_token(&created), seat_token(&joined)];
    // Both look at the dice after they were thrown (a player who never did is another case:
    // `a_player_not_seen_since_the_start_loses_neither_by_a_claim_nor_on_time`).
    server.advance(Duration::from_millis(10)).await;
    let view = api.view(game, Some(seats[0])).await;
    api.view(game, Some(seats[1])).await;
    assert!(
        view["dice"].as_array().is_some_and(|d| d.len() == 3),
        "{view}"
    );
    for seat in seats {
        let (status, refused) = api.act(game, Some(seat), "abort").await;
        assert_eq!(
            (status, &refused["error"]["refusal"]),
            (403, &json!("abort_after_roll")),
            "{refused}"
        );
    }
    // The side to move leaves without moving: the other's claim wins.
    let mover = view["to_move"].as_str().unwrap();
    let claimer = if view["seat"]["side"] == mover {
        seats[1]
    } else {
        seats[0]
    };
    server.advance(Duration::from_millis(1_000)).await;
    let (status, claimed) = api.act(game, Some(claimer), "claim").await;
    assert_eq!(status, 200, "{claimed}");
    let claimer_side = api.view(game, Some(claimer)).await["seat"]["side"].clone();
    assert_eq!(
        (&claimed["status"], &claimed["result"]["winner"]),
        (&json!("finished"), &claimer_side),
        "{claimed}"
    );
    // Before the dice, while the invite waits, the creator may still call the game off.
    let waiting = api
        .create(json!({ "variant": "duodecim-scripta", "mode": "online" }))
        .await;
    let (status, aborted) = api
        .act(game_id(&waiting), Some(seat_token(&waiting)), "abort")
        .await;
    assert_eq!((status, &aborted["status"]), (200, &json!("aborted")));
    server.stop().await;
}

/// A player not seen since the game began (a challenger away when their challenge was accepted,
/// an inviter whose page closed before the join) loses neither by a claim nor on time: the game
/// is aborted, and counts for no one (from a club audit: an absent challenger's clock ran, and
/// an online dice game was won by the claim against them).
async fn a_player_not_seen_since_the_start_loses_neither_by_a_claim_nor_on_time(
    database: Database,
) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    // The log's last event, without its version and time.
    let last_event = async |game: &str| {
        let (_, events) = api.get(&format!("/api/v1/games/{game}/events"), None).await;
        let mut last = events.as_array().and_then(|e| e.last()).cloned().unwrap();
        let fields = last.as_object_mut().unwrap();
        fields.remove("version");
        fields.remove("at");
        last
    };
    // A dice game: its first dice are thrown at the join, which the creator did not see.
    let created = api
        .create(json!({ "variant": "duodecim-scripta", "mode": "online" }))
        .await;
    server.advance(Duration::from_millis(10)).await;
    let joined = api.join(&created).await;
    let game = game_id(&created);
    server.advance(Duration::from_millis(10)).await;
    let view = api.view(game, Some(seat_token(&joined))).await;
    assert!(
        view["dice"].as_array().is_some_and(|d| d.len() == 3),
        "{view}"
    );
    server.advance(Duration::from_millis(1_000)).await;
    let (status, claimed) = api.act(game, Some(seat_token(&joined)), "claim").await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(
        (&claimed["status"], &claimed["result"]),
        (&json!("aborted"), &Value::Null)
    );
    assert_eq!(
        last_event(game).await,
        json!({ "kind": "aborted", "side": view["seat"]["side"] })
    );

    // A timed game whose creator, to move first, has not come since the join: their time runs
    // out, and the game is aborted, naming them.
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online", "clock": { "initial_ms": 60_000, "increment_ms": 0 } }))
        .await;
    server.advance(Duration::from_millis(10)).await;
    let joined = api.join(&created).await;
    let game = game_id(&created);
    server.advance(Duration::from_millis(60_000)).await;
    let ended = api.view(game, Some(seat_token(&joined))).await;
    assert_eq!(
        (
            &ended["status"],
            &ended["result"],
            &ended["clocks"]["light"]
        ),
        (&json!("aborted"), &Value::Null, &json!(0)),
        "{ended}"
    );
    assert_eq!(
        last_event(game).await,
        json!({ "kind": "aborted", "side": null, "absent": "light" })
    );

    // A joiner over HTTP who never comes back after the join (whose answer is no later sign of
    // life): the creator moves, the joiner's time runs out, and the game is aborted, naming them
    // (a bot writer's audit saw them lose on time when the clock ticked before the join's answer).
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online", "clock": { "initial_ms": 60_000, "increment_ms": 0 } }))
        .await;
    server.advance(Duration::from_millis(10)).await;
    api.join(&created).await;
    let game = game_id(&created);
    let version = api.view(game, Some(seat_token(&created))).await["version"]
        .as_u64()
        .unwrap();
    assert_eq!(
        api.play(game, seat_token(&created), "A1-A2", version)
            .await
            .0,
        200
    );
    server.advance(Duration::from_millis(60_000)).await;
    let ended = api.view(game, Some(seat_token(&created))).await;
    assert_eq!(
        (&ended["status"], &ended["result"]),
        (&json!("aborted"), &Value::Null),
        "{ended}"
    );
    assert_eq!(
        last_event(game).await,
        json!({ "kind": "aborted", "side": null, "absent": "dark" })
    );
    server.stop().await;
}

async fn a_player_on_http_only_counts_as_present_while_active(database: Database) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    // Dark polls its view or the event log every 0.4 s, within the window: each time light
    // tries to claim, 0.4 s after dark's last request, it is refused.
    for poll in 0..4 {
        server.advance(Duration::from_millis(400)).await;
        let (status, refused) = api.act(&game, Some(&light), "claim").await;
        assert_eq!(
            status, 403,
            "an active player is not claimed against: {refused}"
        );
        assert_eq!(
            api.view(&game, Some(&light)).await["opponent_connected"],
            true
        );
        let path = if poll % 2 == 0 {
            format!("/api/v1/games/{game}")
        } else {
            format!("/api/v1/games/{game}/events?since=0")
        };
        assert_eq!(api.get(&path, Some(&dark)).await.0, 200);
    }
    // Dark stops: present until the window has passed since its last request, then away.
    server.advance(Duration::from_millis(999)).await;
    assert_eq!(
        api.view(&game, Some(&light)).await["opponent_connected"],
        true
    );
    server.advance(Duration::from_millis(1)).await;
    let view = api.view(&game, Some(&light)).await;
    assert_eq!(view["opponent_connected"], false, "{view}");
    let since = view["opponent_away_since"].as_i64().expect("since when");
    assert_eq!(view["claim_allowed_at"].as_i64(), Some(since + 1_000));
    let (status, claimed) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(status, 200, "{claimed}");
    server.stop().await;
}

async fn an_open_event_stream_counts_as_present(database: Database) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    let stream = open_event_stream(&server, &game, &dark).await;
    server.advance(Duration::from_millis(1_500)).await;
    let (status, refused) = api.act(&game, Some(&light), "claim").await;
    assert_eq!(status, 403, "the stream holder is present: {refused}");
    drop(stream);
    server.stop().await;
}

/// The client of an event stream goes away: its player is away at once, not at the stream's next
/// keep-alive line (time stands still here, so no keep-alive comes).
async fn a_closed_event_stream_is_seen_at_once(database: Database) {
    let server = server_with_short_claims(database).await;
    let api = server.api();
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    let mut mine = Socket::connect(&server.base, &game, Some(&light), None).await;
    mine.next_of("snapshot").await;
    let stream = open_event_stream(&server, &game, &dark).await;
    // Dark's join counted as presence for the window; the stream keeps dark present past it.
    server.advance(Duration::from_millis(1_500)).await;
    assert_eq!(
        api.view(&game, Some(&light)).await["opponent_connected"],
        true
    );
    drop(stream);
    let away = until_opponent_away(&mut mine).await;
    let since = away["opponent_away_since"].as_i64().expect("since when");
    assert_eq!(away["claim_allowed_at"].as_i64(), Some(since + 1_000));
    mine.close().await;
    server.stop().await;
}

async fn online_takeback_asks_the_opponent(database: Database) {
    let server = server(database).await;
    let api = server.api();
    let (game, light, dark) =
        joined_game(&api, json!({ "initial_ms": 600_000, "increment_ms": 0 })).await;
    let mut dark_socket = Socket::connect(&server.base, &game, Some(&dark), None).await;
    dark_socket.next_of("snapshot").await;
    let version = api.view(&game, Some(&light)).await["version"]
        .as_u64()
        .unwrap();
    // Before a move of its own, a seat has nothing to take back: its view says so, and the
    // request is refused by name.
    assert_eq!(api.view(&game, Some(&light)).await["can_take_back"], false);
    let (status, moved) = api.play(&game, &light, "A1-A2", version).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["can_take_back"], true);
    let told = dark_socket.next_of("event").await;
    assert_eq!(told["event"]["kind"], "move");
    assert_eq!(
        told["delta"]["can_take_back"], false,
        "dark has not moved: {told}"
    );
    assert_eq!(api.view(&game, None).await.get("can_take_back"), None);
    let (status, refused) = api.act(&game, Some(&dark), "undo").await;
    assert_eq!(
        (status, &refused["error"]["refusal"]),
        (400, &json!("nothing_to_take_back"))
    );
    // Light asks; dark is told, and declines; light asks again and dark accepts.
    let (status, asked) = api.act(&game, Some(&light), "undo").await;
    assert_eq!((status, &asked["undo_offer"]), (200, &json!("light")));
    assert_eq!(
        asked["moves"],
        json!(["A1-A2"]),
        "nothing is taken back yet"
    );
    assert_eq!(
        next_event(&mut dark_socket, "undo_offered").await["side"],
        "light"
    );
    let (status, again) = api.act(&game, Some(&light), "undo").await;
    assert_eq!(
        (status, &again["error"]["code"], &again["error"]["refusal"]),
        (400, &json!("bad_request"), &json!("undo_pending"))
    );
    let (status, declined) = api.act(&game, Some(&dark), "undo/decline").await;
    assert_eq!((status, &declined["undo_offer"]), (200, &json!(null)));
    assert_eq!(declined["moves"], json!(["A1-A2"]));
    api.act(&game, Some(&light), "undo").await;
    let before = api.view(&game, Some(&light)).await["clocks"]["light"]
        .as_i64()
        .unwrap();
    let (status, accepted) = api.act(&game, Some(&dark), "undo/accept").await;
    assert_eq!(status, 200, "{accepted}");
    assert_eq!(
        (&accepted["moves"], &accepted["to_move"]),
        (&json!([]), &json!("light"))
    );
    assert!(
        accepted["clocks"]["light"].as_i64().unwrap() <= before,
        "no clock gets time back"
    );
    // A move withdraws a request: light moves, asks, and dark's move answers it.
    let v = accepted["version"].as_u64().unwrap();
    api.play(&game, &light, "A1-A2", v).await;
    let (_, asked) = api.act(&game, Some(&light), "undo").await;
    let v = asked["version"].as_u64().unwrap();
    let (status, replied) = api.play(&game, &dark, "A6-A5", v).await;
    assert_eq!((status, &replied["undo_offer"]), (200, &json!(null)));
    let (status, _) = api.act(&game, Some(&dark), "undo/accept").await;
    assert_eq!(status, 400, "no request is left to accept");
    server.stop().await;
}

/// Skips socket messages until an event of `kind`; returns the event.
async fn next_event(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = socket.next_of("event").await;
        if message["event"]["kind"] == kind {
            return message["event"].clone();
        }
    }
}

async fn a_rematch_is_made_when_both_want_it(database: Database) {
    let server = server(database).await;
    let api = server.api();
    let (game, light, dark) =
        joined_game(&api, json!({ "initial_ms": 60_000, "increment_ms": 0 })).await;
    api.act(&game, Some(&dark), "resign").await;
    let mut light_socket = Socket::connect(&server.base, &game, Some(&light), None).await;
    light_socket.next_of("snapshot").await;
    let (_, offered) = api.act(&game, Some(&dark), "rematch").await;
    assert_eq!(offered["rematch_offer"], "dark");
    assert_eq!(
        next_event(&mut light_socket, "rematch_offered").await["side"],
        "dark"
    );
    let (status, declined) = api.act(&game, Some(&light), "rematch/decline").await;
    assert_eq!((status, &declined["rematch_offer"]), (200, &json!(null)));
    assert_eq!(
        next_event(&mut light_socket, "rematch_declined").await["side"],
        "light"
    );
    assert!(declined.get("rematch").is_none());
    // Offered again and accepted over the socket: the new game exists, its clock just started.
    api.act(&game, Some(&dark), "rematch").await;
    light_socket
        .send(json!({ "type": "rematch", "id": "r1" }))
        .await;
    assert_eq!(light_socket.next_of("ack").await["id"], "r1");
    let made = next_event(&mut light_socket, "rematch").await;
    let new_game = made["game_id"].as_str().expect("the new game's id");
    let view = api.view(new_game, Some(&light)).await;
    assert_eq!(
        (&view["status"], &view["seat"]["side"]),
        (&json!("playing"), &json!("dark"))
    );
    assert_eq!(view["clocks"]["running"], "light");
    assert!(view["clocks"]["light"].as_i64().unwrap() > 55_000);
    let old = api.view(&game, None).await;
    assert_eq!(old["rematch"], json!(new_game));
    assert_eq!(
        old["rematch_offer"],
        Value::Null,
        "the offer was answered: {old}"
    );
    server.stop().await;
}

/// A dice game's rematch is as fair as a game from an invite (docs/RULES.md §4): the offer
/// publishes the rematch's commitment, and the accepting player's entropy, given with the accept,
/// is mixed in after it (the server cannot choose the seed knowing it), beside the offerer's. The
/// rematch keeps its seed across a restart.
async fn a_dice_rematch_commits_to_its_seed_before_the_accept_adds_entropy(database: Database) {
    let database = TestDatabase::create(database).await;
    let first = TestServer::start_with(test_config(database.url().to_string())).await;
    let api = first.api();
    let created = api
        .create(json!({ "variant": "duodecim-scripta", "mode": "online" }))
        .await;
    let joined = api.join(&created).await;
    let (game, creator, joiner) = (game_id(&created), seat_token(&created), seat_token(&joined));
    api.act(game, Some(joiner), "resign").await;
    let mut creator_socket = Socket::connect(&first.base, game, Some(creator), None).await;
    creator_socket.next_of("snapshot").await;
    let rematch_path = format!("/api/v1/games/{game}/rematch");
    let offer = json!({ "entropy": "the offerer's" });
    let (status, offered) = api.post(&rematch_path, Some(joiner), offer).await;
    assert_eq!(status, 200, "{offered}");
    let offered = next_event(&mut creator_socket, "rematch_offered").await;
    let commitment = offered["commitment"]
        .as_str()
        .expect("the offer's commitment");
    assert_eq!(commitment.len(), 64, "{offered}");
    // An entropy Postgres could not store is refused, and accepts nothing.
    creator_socket
        .send(json!({ "type": "rematch", "id": "nul", "entropy": "a\u{0}b" }))
        .await;
    let refused = creator_socket.next_of("error").await;
    assert_eq!(
        (&refused["id"], &refused["code"]),
        (&json!("nul"), &json!("bad_request")),
        "{refused}"
    );
    creator_socket
        .send(json!({ "type": "rematch", "id": "r1", "entropy": "the accepter's" }))
        .await;
    assert_eq!(creator_socket.next_of("ack").await["id"], "r1");
    let made = next_event(&mut creator_socket, "rematch").await;
    let rematch = made["game_id"].as_str().expect("the rematch's id");
    assert_eq!(api.view(rematch, None).await["commitment"], commitment);
    first.stop().await;

    let second = TestServer::start_with(test_config(database.url().to_string())).await;
    let api = second.api();
    let (status, _) = api.act(rematch, Some(creator), "resign").await;
    assert_eq!(status, 200);
    let record = api.record(rematch).await;
    let tag = |name: &str| {
        let start = format!("[{name} \"");
        let from = record
            .find(&start)
            .unwrap_or_else(|| panic!("{name} in {record}"));
        let value = &record[from + start.len()..];
        value[..value.find('"').unwrap()].to_string()
    };
    assert_eq!(
        (tag("CreatorEntropy"), tag("JoinerEntropy")),
        ("the offerer's".to_string(), "the accepter's".to_string())
    );
    let server_seed = ServerSeed(from_hex(&tag("ServerSeed")).expect("the revealed seed"));
    assert_eq!(to_hex(&server_seed.commitment()), commitment);
    let seed = server_seed.game_seed("the offerer's", "the accepter's");
    assert_eq!(tag("Seed"), to_hex(&seed.0), "{record}");
    // A game without dice has no seed to commit to.
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    api.act(&game, Some(&dark), "resign").await;
    let mut light_socket = Socket::connect(&second.base, &game, Some(&light), None).await;
    light_socket.next_of("snapshot").await;
    api.act(&game, Some(&dark), "rematch").await;
    let offered = next_event(&mut light_socket, "rematch_offered").await;
    assert!(offered.get("commitment").is_none(), "{offered}");
    second.stop().await;
}

async fn a_declined_draw_is_told_to_the_one_who_offered(database: Database) {
    let server = server(database).await;
    let api = server.api();
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    let mut light_socket = Socket::connect(&server.base, &game, Some(&light), None).await;
    light_socket.next_of("snapshot").await;
    light_socket
        .send(json!({ "type": "draw", "id": "d1" }))
        .await;
    assert_eq!(light_socket.next_of("ack").await["id"], "d1");
    let mut dark_socket = Socket::connect(&server.base, &game, Some(&dark), None).await;
    dark_socket.next_of("snapshot").await;
    dark_socket.send(json!({ "type": "draw_decline" })).await;
    dark_socket.next_of("ack").await;
    assert_eq!(
        next_event(&mut light_socket, "draw_declined").await["side"],
        "dark"
    );
    // Offered again before a move, it is refused by name; in a dice game, never offered.
    let (status, again) = api.act(&game, Some(&light), "draw").await;
    assert_eq!(
        (status, &again["error"]["refusal"]),
        (403, &json!("one_draw_offer_per_move"))
    );
    let created = api
        .create(json!({ "variant": "duodecim-scripta", "mode": "online" }))
        .await;
    let joined = api.join(&created).await;
    let (status, refused) = api
        .act(game_id(&created), Some(seat_token(&joined)), "draw")
        .await;
    assert_eq!(
        (status, &refused["error"]["refusal"]),
        (403, &json!("draws_in_petteia_only"))
    );
    server.stop().await;
}

async fn takeback_answers_work_over_the_socket(database: Database) {
    let server = server(database).await;
    let api = server.api();
    let (game, light, dark) = joined_game(&api, json!(null)).await;
    let version = api.view(&game, Some(&light)).await["version"]
        .as_u64()
        .unwrap();
    api.play(&game, &light, "A1-A2", version).await;
    let mut dark_socket = Socket::connect(&server.base, &game, Some(&dark), None).await;
    dark_socket.next_of("snapshot").await;
    let mut light_socket = Socket::connect(&server.base, &game, Some(&light), None).await;
    light_socket.next_of("snapshot").await;
    light_socket
        .send(json!({ "type": "undo", "id": "u1" }))
        .await;
    assert_eq!(light_socket.next_of("ack").await["id"], "u1");
    next_event(&mut dark_socket, "undo_offered").await;
    dark_socket
        .send(json!({ "type": "undo_accept", "id": "a1" }))
        .await;
    let reply: Value = dark_socket.next_of("ack").await;
    assert_eq!(reply["id"], "a1");
    let undone = next_event(&mut light_socket, "undo").await;
    assert_eq!(
        (&undone["side"], &undone["keep"]),
        (&json!("light"), &json!(0))
    );
    let refused: Reply = api.act(&game, Some(&dark), "undo/decline").await;
    assert_eq!(refused.0, 400);
    server.stop().await;
}

on_both_databases!(
    opening_an_invite_with_a_seat_token_returns_that_seat,
    online_takeback_asks_the_opponent,
    a_rematch_is_made_when_both_want_it,
    a_dice_rematch_commits_to_its_seed_before_the_accept_adds_entropy,
    a_declined_draw_is_told_to_the_one_who_offered,
    takeback_answers_work_over_the_socket;
    paused:
    a_closed_socket_is_seen_at_once_and_the_claim_time_is_given,
    a_silent_socket_is_closed_and_its_player_away_from_when_last_heard,
    a_socket_that_promised_a_heartbeat_and_went_quiet_is_away_from_its_last_message,
    a_claim_before_each_side_has_moved_aborts_the_game,
    an_online_dice_game_is_begun_once_a_die_is_thrown,
    a_player_not_seen_since_the_start_loses_neither_by_a_claim_nor_on_time,
    a_player_on_http_only_counts_as_present_while_active,
    an_open_event_stream_counts_as_present,
    a_closed_event_stream_is_seen_at_once,
);
