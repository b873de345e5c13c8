//! The served OpenAPI document describes what is served: answers of every kind (creation, join,
//! views of each seat and mode, moves, listings, events, hints, analysis, health, errors) are
//! checked against the schema the document gives for their path and status. Every field served
//! must be declared, every required field present, every value of its declared type.

use ludus_tests::{
    Api, Database, Reply, TestServer, game_id, on_both_databases, personal_token, player,
    seat_token, sign_up,
};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// The document, and a checker of values against its schemas.
struct Document(Value);

impl Document {
    async fn fetch(api: &Api) -> Document {
        let (status, document) = api.get("/api/v1/openapi.json", None).await;
        assert_eq!(status, 200);
        Document(document)
    }

    /// The schema of the JSON answer of `method path` with `status` (`path` as the document
    /// writes it, e.g. `/api/v1/games/{id}`).
    fn response_schema(&self, method: &str, path: &str, status: u16) -> &Value {
        let response = &self.0["paths"][path][method]["responses"][status.to_string()];
        let schema = &response["content"]["application/json"]["schema"];
        assert!(
            !schema.is_null(),
            "the document has no JSON schema for {method} {path} {status}"
        );
        schema
    }

    /// Checks `answer`, served for `method path` with `status`, against the document.
    fn check_answer(&self, method: &str, path: &str, (status, answer): &(u16, Value)) {
        let schema = self.response_schema(method, path, *status);
        if let Err(error) = self.check(schema, answer, "$") {
            panic!("{method} {path} {status} does not match the document: {error}\n{answer:#}");
        }
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        match schema["$ref"].as_str() {
            Some(reference) => {
                let name = reference.trim_start_matches("#/components/schemas/");
                let target = &self.0["components"]["schemas"][name];
                assert!(!target.is_null(), "{reference} is not in the document");
                self.resolve(target)
            }
            None => schema,
        }
    }

    /// The properties `schema` declares for the object `value` (validating their values), and
    /// whether it allows others.
    fn fields(
        &self,
        schema: &Value,
        value: &Map<String, Value>,
        at: &str,
    ) -> Result<(BTreeSet<String>, bool), String> {
        let schema = self.resolve(schema);
        if let Some(parts) = schema["allOf"].as_array() {
            let mut all = (BTreeSet::new(), false);
            for part in parts {
                let (names, open) = self.fields(part, value, at)?;
                all.0.extend(names);
                all.1 |= open;
            }
            return Ok(all);
        }
        if let Some(branches) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
            let mut errors = Vec::new();
            for branch in branches {
                match self.fields(branch, value, at) {
                    Ok(found) => return Ok(found),
                    Err(e) => errors.push(e),
                }
            }
            return Err(format!("{at}: no branch matches: {}", errors.join(" | ")));
        }
        if !self.allows_type(schema, &Value::Object(value.clone())) {
            return Err(format!("{at}: an object where {schema} is declared"));
        }
        let empty = Map::new();
        let properties = schema["properties"].as_object().unwrap_or(&empty);
        for required in schema["required"].as_array().into_iter().flatten() {
            let name = required.as_str().unwrap_or_default();
            if !value.contains_key(name) {
                return Err(format!("{at}: the required field {name:?} is missing"));
            }
        }
        for (name, declared) in properties {
            if let Some(v) = value.get(name) {
                self.check(declared, v, &format!("{at}.{name}"))?;
            }
        }
        let open = schema["properties"].is_null()
            || matches!(
                &schema["additionalProperties"],
                Value::Bool(true) | Value::Object(_)
            );
        Ok((properties.keys().cloned().collect(), open))
    }

    fn allows_type(&self, schema: &Value, value: &Value) -> bool {
        let kind = match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        let fits = |t: &str| t == kind || (t == "number" && kind == "integer");
        match &schema["type"] {
            Value::String(t) => fits(t),
            Value::Array(types) => types.iter().any(|t| fits(t.as_str().unwrap_or_default())),
            _ => true,
        }
    }

    fn check(&self, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
        let schema = self.resolve(schema);
        if let Value::Object(object) = value {
            let (declared, open) = self.fields(schema, object, at)?;
            if !open && let Some(extra) = object.keys().find(|k| !declared.contains(*k)) {
                return Err(format!(
                    "{at}: the field {extra:?} is served but not declared"
                ));
            }
            return Ok(());
        }
        if let Some(branches) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
            return branches
                .iter()
                .any(|b| self.check(b, value, at).is_ok())
                .then_some(())
                .ok_or_else(|| format!("{at}: {value} matches no branch of {schema}"));
        }
        if let Some(parts) = schema["allOf"].as_array() {
            return parts.iter().try_for_each(|p| self.check(p, value, at));
        }
        if !self.allows_type(schema, value) {
            return Err(format!(
                "{at}: {value} is not of the declared type {}",
                schema["type"]
            ));
        }
        if let Some(allowed) = schema["enum"].as_array()
            && !allowed.contains(value)
        {
            return Err(format!("{at}: {value} is not one of {allowed:?}"));
        }
        if let Value::Array(items) = value {
            for (i, item) in items.iter().enumerate() {
                self.check(&schema["items"], item, &format!("{at}[{i}]"))?;
            }
        }
        Ok(())
    }
}

const GAME: &str = "/api/v1/games/{id}";

/// Every `$ref` anywhere in `value`.
fn references(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                found.insert(reference.clone());
            }
            map.values().for_each(|v| references(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, found)),
        _ => {}
    }
}

/// A client generator reads every reference: one to a schema the document lacks breaks it (a
/// bot writer's audit: the socket's `view` parameter named `ViewShape`, which was not there).
async fn every_reference_in_the_document_resolves(database: Database) {
    let server = TestServer::start(database).await;
    let document = Document::fetch(&server.api()).await;
    let mut found = BTreeSet::new();
    references(&document.0, &mut found);
    assert!(found.len() > 20, "{found:?}");
    for reference in &found {
        let name = reference
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("{reference} is not a schema's"));
        assert!(
            document.0["components"]["schemas"][name].is_object(),
            "{reference} is not in the document"
        );
    }
    server.stop().await;
}

async fn served_answers_match_the_served_document(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let document = Document::fetch(&api).await;

    // Creation and join; views of the creator, the joiner and a spectator.
    let body = json!({ "variant": "petteia-6", "mode": "online", "clock": { "initial_ms": 60000, "increment_ms": 0 } });
    let created = api.post("/api/v1/games", None, body).await;
    document.check_answer("post", "/api/v1/games", &created);
    let game = game_id(&created.1).to_string();
    let creator = seat_token(&created.1).to_string();
    let invite = created.1["invite"].as_str().unwrap().to_string();
    let joined = api
        .post(&format!("/api/v1/invites/{invite}/join"), None, json!({}))
        .await;
    document.check_answer("post", "/api/v1/invites/{invite}/join", &joined);
    let joiner = seat_token(&joined.1).to_string();
    for token in [Some(creator.as_str()), Some(joiner.as_str()), None] {
        let view = api.get(&format!("/api/v1/games/{game}"), token).await;
        document.check_answer("get", GAME, &view);
    }
    // The checker itself: a field the document does not declare, or a value of another type, fails.
    let view = api
        .get(&format!("/api/v1/games/{game}"), Some(&creator))
        .await
        .1;
    let schema = document.response_schema("get", GAME, 200);
    let mut extra = view.clone();
    extra["undeclared"] = json!(1);
    assert!(document.check(schema, &extra, "$").is_err());
    let mut retyped = view.clone();
    retyped["version"] = json!("two");
    assert!(document.check(schema, &retyped, "$").is_err());
    let mut missing = view;
    missing.as_object_mut().unwrap().remove("position");
    assert!(document.check(schema, &missing, "$").is_err());

    // A move, a refused move (each error carries its own fields), a draw offer, a resignation.
    let moved = api.play(&game, &creator, "A1-A2", 2).await;
    document.check_answer("post", "/api/v1/games/{id}/moves", &moved);
    let stale = api.play(&game, &joiner, "A6-A5", 0).await;
    assert_eq!(stale.0, 409);
    document.check_answer("post", "/api/v1/games/{id}/moves", &stale);
    let version = moved.1["version"].as_u64().unwrap();
    let illegal = api.play(&game, &joiner, "A6-A1", version).await;
    assert_eq!(illegal.0, 422);
    document.check_answer("post", "/api/v1/games/{id}/moves", &illegal);
    let offered = api.act(&game, Some(&joiner), "draw").await;
    document.check_answer("post", "/api/v1/games/{id}/draw", &offered);
    let resigned = api.act(&game, Some(&creator), "resign").await;
    document.check_answer("post", "/api/v1/games/{id}/resign", &resigned);
    let over = api.act(&game, Some(&creator), "resign").await;
    assert_eq!(over.0, 409);
    document.check_answer("post", "/api/v1/games/{id}/resign", &over);

    // The event log and the listing of finished games.
    let events = api
        .get(&format!("/api/v1/games/{game}/events?since=0"), None)
        .await;
    document.check_answer("get", "/api/v1/games/{id}/events", &events);
    let listed = api.get("/api/v1/games?status=finished", None).await;
    assert!(!listed.1.as_array().unwrap().is_empty());
    document.check_answer("get", "/api/v1/games", &listed);

    // A dice game against the computer (dice, level, commitment), its hint; a local game's view.
    let computer = api
        .post(
            "/api/v1/games",
            None,
            json!({ "variant": "duodecim-scripta", "mode": "computer", "level": 2 }),
        )
        .await;
    document.check_answer("post", "/api/v1/games", &computer);
    let (id, token) = (game_id(&computer.1), seat_token(&computer.1));
    let view = api.get(&format!("/api/v1/games/{id}"), Some(token)).await;
    document.check_answer("get", GAME, &view);
    if view.1["legal_moves"]
        .as_array()
        .is_some_and(|m| !m.is_empty())
    {
        let hint = api
            .get(&format!("/api/v1/games/{id}/hint"), Some(token))
            .await;
        document.check_answer("get", "/api/v1/games/{id}/hint", &hint);
    }
    let local = api
        .create(json!({ "variant": "pente-grammai-kidd", "mode": "local" }))
        .await;
    let view = api
        .get(
            &format!("/api/v1/games/{}", game_id(&local)),
            Some(seat_token(&local)),
        )
        .await;
    document.check_answer("get", GAME, &view);
    let missing = api.get("/api/v1/games/nosuchgame", None).await;
    assert_eq!(missing.0, 404);
    document.check_answer("get", GAME, &missing);

    // Analysis and health.
    let analysed = api
        .post(
            "/api/v1/analysis",
            None,
            json!({ "variant": "petteia-6", "position": view_position(&api).await }),
        )
        .await;
    document.check_answer("post", "/api/v1/analysis", &analysed);
    document.check_answer("get", "/healthz", &api.get("/healthz", None).await);
    document.check_answer("get", "/readyz", &api.get("/readyz", None).await);

    // The variants; players: a profile with rated, computer and history entries, its games, a
    // leaderboard with its five-game minimum met, who sits at a game, attaching a seat.
    let variants = api.get("/api/v1/variants", None).await;
    document.check_answer("get", "/api/v1/variants", &variants);
    let ann = player(&server, "ann").await;
    let bob = player(&server, "bob").await;
    let mut rated = String::new();
    for _ in 0..5 {
        let body = json!({ "variant": "petteia-6", "mode": "online", "side": "first" });
        let (status, created) = api.post("/api/v1/games", Some(&ann), body).await;
        assert_eq!(status, 201, "{created}");
        let invite = created["invite"].as_str().unwrap();
        let join = format!("/api/v1/invites/{invite}/join");
        assert_eq!(api.post(&join, Some(&bob), json!({})).await.0, 200);
        rated = game_id(&created).to_string();
        // A move each (a game resigned sooner is not rated), each by its account's token.
        for player in [&ann, &bob] {
            let view = api.view(&rated, Some(player)).await;
            let (mv, version) = (
                view["legal_moves"][0].as_str().unwrap(),
                view["version"].as_u64().unwrap(),
            );
            assert_eq!(api.play(&rated, player, mv, version).await.0, 200);
        }
        let resigned = api.act(&rated, Some(seat_token(&created)), "resign").await;
        assert_eq!(resigned.0, 200, "{}", resigned.1);
    }
    let body = json!({ "variant": "petteia-6", "mode": "computer", "level": 3 });
    let (_, computer) = api.post("/api/v1/games", Some(&ann), body).await;
    let resigned = api
        .act(game_id(&computer), Some(seat_token(&computer)), "resign")
        .await;
    assert_eq!(resigned.0, 200, "{}", resigned.1);
    let profile = api.get("/api/v1/players/ann", None).await;
    assert!(
        profile.1["variants"]["petteia-6"]["rating"].is_number()
            && profile.1["computer"]["petteia-6"]["3"]["losses"] == 1
            && !profile.1["history"]["petteia-6"][0].is_null(),
        "{}",
        profile.1
    );
    document.check_answer("get", "/api/v1/players/{username}", &profile);
    let missing = api.get("/api/v1/players/nobody", None).await;
    assert_eq!(missing.0, 404);
    document.check_answer("get", "/api/v1/players/{username}", &missing);
    let games = api.get("/api/v1/players/ann/games", None).await;
    assert_eq!(games.1.as_array().unwrap().len(), 6, "{}", games.1);
    document.check_answer("get", "/api/v1/players/{username}/games", &games);
    let leaders = api.get("/api/v1/leaderboard/petteia-6", None).await;
    assert_eq!(leaders.1.as_array().unwrap().len(), 2, "{}", leaders.1);
    document.check_answer("get", "/api/v1/leaderboard/{variant}", &leaders);
    let holders = api
        .get(&format!("/api/v1/games/{rated}/players"), None)
        .await;
    assert_eq!(holders.1.as_array().unwrap().len(), 2, "{}", holders.1);
    document.check_answer("get", "/api/v1/games/{id}/players", &holders);
    let anonymous = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let body = json!({ "tokens": [seat_token(&anonymous)] });
    let attached = api.post("/api/v1/account/seats", Some(&ann), body).await;
    assert_eq!(attached.1["attached"], 1);
    document.check_answer("post", "/api/v1/account/seats", &attached);
    server.stop().await;
}

/// Every operation that takes an account's session documents how it refuses one: 401 for a
/// personal token that is unknown or revoked and, when it changes state, 403 for a signed-in
/// request from another site's page (docs/API.md, "Identity"; `docs::add_identity_refusals`). The
/// served refusals of creating a game, where the identity is optional, match the document.
async fn identity_refusals_are_documented(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let document = Document::fetch(&api).await;

    let mut identified = 0;
    for (path, operations) in document.0["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            let takes_a_session = operation["security"]
                .as_array()
                .is_some_and(|schemes| schemes.iter().any(|s| s.get("cookie").is_some()));
            if !takes_a_session {
                continue;
            }
            identified += 1;
            let responses = &operation["responses"];
            assert!(
                !responses["401"].is_null(),
                "{method} {path} takes an identity but does not document 401"
            );
            assert!(
                method == "get" || !responses["403"].is_null(),
                "{method} {path} changes state for an identity but does not document 403"
            );
        }
    }
    assert!(
        identified >= 20,
        "only {identified} operations take an identity"
    );

    let body = json!({ "variant": "petteia-6", "mode": "online" });
    let ann_session = sign_up(&server, "ann").await;
    let revoked = api
        .post("/api/v1/games", Some("lp_nosuchtoken"), body.clone())
        .await;
    assert_eq!(revoked.0, 401, "{}", revoked.1);
    document.check_answer("post", "/api/v1/games", &revoked);
    let elsewhere = ludus_tests::from_another_site(
        &server,
        reqwest::Method::POST,
        "/api/v1/games",
        ("cookie", &ann_session),
        Some(body.clone()),
    )
    .await;
    assert_eq!(elsewhere.0, 403, "{}", elsewhere.1);
    document.check_answer("post", "/api/v1/games", &elsewhere);
    let ann_token = personal_token(&server, &ann_session).await;
    let created = api.post("/api/v1/games", Some(&ann_token), body).await;
    assert_eq!(created.0, 201, "{}", created.1);
    server.stop().await;
}

/// The limits the document states for what a request may hold are the ones the server enforces:
/// a value at each limit is accepted and one past it refused with 400, and the variant ids the
/// document lists are the variants served. (Read from the document, so that the two cannot drift
/// apart; schemathesis then spends its examples inside them, and sends the ones outside as bad
/// input.)
async fn documented_limits_are_the_ones_enforced(database: Database) {
    let server = TestServer::start(database).await;
    let api = server.api();
    let document = Document::fetch(&api).await;
    let schemas = &document.0["components"]["schemas"];
    let limit = |schema: &Value, key: &str| {
        schema[key]
            .as_i64()
            .unwrap_or_else(|| panic!("no {key} in {schema}"))
    };
    let bounds = |schema: &Value| (limit(schema, "minimum"), limit(schema, "maximum"));
    let length = |schema: &Value| {
        let (shortest, longest) = (limit(schema, "minLength"), limit(schema, "maxLength"));
        (shortest as usize, longest as usize)
    };
    let query_parameter = |path: &str, name: &str| {
        let parameters = document.0["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap();
        parameters.iter().find(|p| p["name"] == name).unwrap()["schema"].clone()
    };
    // A reply to a request within the limits (`within`) is a success; past them, a 400.
    let judge = |(status, body): Reply, within: bool, what: &str| {
        if within {
            assert!((200..300).contains(&status), "{what}: {status} {body}");
        } else {
            let code = body["error"]["code"].as_str();
            assert_eq!((status, code), (400, Some("bad_request")), "{what}: {body}");
        }
    };

    // The variant ids: those served, each creates a game, and each has a leaderboard.
    let listed: Vec<&str> = schemas["VariantId"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap())
        .collect();
    let (_, variants) = api.get("/api/v1/variants", None).await;
    let served: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, served);
    for id in &listed {
        let body = json!({ "variant": id, "mode": "local" });
        judge(api.post("/api/v1/games", None, body).await, true, id);
        let leaderboard = format!("/api/v1/leaderboard/{id}");
        judge(api.get(&leaderboard, None).await, true, id);
    }
    let body = json!({ "variant": "petteia-7", "mode": "local" });
    judge(
        api.post("/api/v1/games", None, body).await,
        false,
        "petteia-7",
    );
    let leaderboard = api.get("/api/v1/leaderboard/petteia-7", None).await;
    judge(leaderboard, false, "the leaderboard of petteia-7");

    // The clock's range.
    let clock = &schemas["ClockSettings"]["properties"];
    let (least, most) = bounds(&clock["initial_ms"]);
    let most_increment = limit(&clock["increment_ms"], "maximum");
    for (initial, increment, ok) in [
        (least, 0, true),
        (most, most_increment, true),
        (least - 1, 0, false),
        (most + 1, 0, false),
        (least, most_increment + 1, false),
    ] {
        let body = json!({ "variant": "petteia-6", "mode": "online", "clock": { "initial_ms": initial, "increment_ms": increment } });
        let what = format!("a clock of {initial} + {increment} ms");
        let reply = api.post("/api/v1/games", None, body).await;
        judge(reply, ok, &what)
    }

    // The computer's level, creating a game and asking for a suggestion.
    let position = view_position(&api).await;
    for (schema, ask) in [
        (&schemas["CreateBody"]["properties"]["level"], "create"),
        (&schemas["SuggestBody"]["properties"]["level"], "suggest"),
    ] {
        let (least, most) = bounds(schema);
        for (level, ok) in [
            (least, true),
            (most, true),
            (least - 1, false),
            (most + 1, false),
        ] {
            let reply = match ask {
                "create" => {
                    api.post(
                        "/api/v1/games",
                        None,
                        json!({ "variant": "petteia-6", "mode": "computer", "level": level }),
                    )
                    .await
                }
                _ => {
                    api.post(
                        "/api/v1/analysis/suggest",
                        None,
                        json!({ "variant": "petteia-6", "position": position, "level": level }),
                    )
                    .await
                }
            };
            let what = format!("{ask} at level {level}");
            judge(reply, ok, &what)
        }
    }

    // The seed's entropy, creating and joining.
    let most = limit(&schemas["CreateBody"]["properties"]["entropy"], "maxLength");
    assert_eq!(
        limit(&schemas["JoinBody"]["properties"]["entropy"], "maxLength"),
        most
    );
    let most = most as usize;
    // Counted in characters, as the schema's maxLength is: two bytes each here.
    for (entropy, ok) in [("é".repeat(most), true), ("é".repeat(most + 1), false)] {
        let created = api
            .post(
                "/api/v1/games",
                None,
                json!({ "variant": "petteia-6", "mode": "online", "entropy": entropy }),
            )
            .await;
        let fresh = api
            .create(json!({ "variant": "petteia-6", "mode": "online" }))
            .await;
        let join = format!("/api/v1/invites/{}/join", fresh["invite"].as_str().unwrap());
        let joined = api.post(&join, None, json!({ "entropy": entropy })).await;
        let what = format!("{} characters of entropy", entropy.chars().count());
        judge(created, ok, &what);
        judge(joined, ok, &what);
    }

    // A move's id, in characters (from a third-party client's audit: the limit was enforced and
    // not described).
    let most = limit(&schemas["MoveBody"]["properties"]["id"], "maxLength") as usize;
    for (id, ok) in [("é".repeat(most), true), ("é".repeat(most + 1), false)] {
        let created = api.local_petteia().await;
        let (game, token) = (game_id(&created), seat_token(&created));
        let version = api.view(game, None).await["version"].clone();
        let body = json!({ "move": "A1-A2", "version": version, "id": id });
        let reply = api
            .post(&format!("/api/v1/games/{game}/moves"), Some(token), body)
            .await;
        judge(
            reply,
            ok,
            &format!("a move id of {} characters", id.chars().count()),
        );
    }

    // The pages of events and of stored games.
    let game = game_id(&api.local_petteia().await).to_string();
    for (path, listing) in [
        (
            "/api/v1/games/{id}/events",
            format!("/api/v1/games/{game}/events"),
        ),
        ("/api/v1/games", "/api/v1/games".to_string()),
    ] {
        let (least, most) = bounds(&query_parameter(path, "limit"));
        for (limit, ok) in [
            (least, true),
            (most, true),
            (least - 1, false),
            (most + 1, false),
        ] {
            let reply = api.get(&format!("{listing}?limit={limit}"), None).await;
            let what = format!("{path} with limit {limit}");
            judge(reply, ok, &what)
        }
    }

    // The game id of every path that names a game: what the document describes is what a
    // created game's id is, and a path past that length names no game.
    let created = api
        .create(json!({ "variant": "petteia-6", "mode": "online" }))
        .await;
    let id = game_id(&created);
    let game_paths: Vec<&String> = document.0["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|path| path.starts_with("/api/v1/games/{id}"))
        .collect();
    assert!(game_paths.len() >= 15, "{game_paths:?}");
    let mut longest_id = 0;
    for path in game_paths {
        for operation in document.0["paths"][path].as_object().unwrap().values() {
            let parameters = operation["parameters"].as_array().unwrap();
            let schema = &parameters.iter().find(|p| p["name"] == "id").unwrap()["schema"];
            assert_eq!(schema["pattern"], "^[0-9A-Za-z]{1,64}$", "{path}");
            let (shortest, longest) = length(schema);
            assert!((shortest..=longest).contains(&id.len()), "{path}: {id}");
            longest_id = longest;
            assert!(id.bytes().all(|b| b.is_ascii_alphanumeric()), "{id}");
        }
    }
    // The listings' page ends name a game by the same rule.
    for path in ["/api/v1/games", "/api/v1/players/{username}/games"] {
        let parameters = document.0["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap();
        let before_id = parameters.iter().find(|p| p["name"] == "before_id");
        assert_eq!(
            before_id.unwrap()["schema"]["pattern"],
            "^[0-9A-Za-z]{1,64}$",
            "{path}"
        );
    }
    let past = format!("/api/v1/games/{}", "a".repeat(longest_id + 1));
    let (status, body) = api.get(&past, None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found"))
    );

    // A new account's name and password.
    let credentials = &schemas["Credentials"]["properties"];
    let (shortest, longest) = length(&credentials["username"]);
    let (shortest_password, longest_password) = length(&credentials["password"]);
    assert_eq!(credentials["username"]["pattern"], "^[A-Za-z0-9_-]+$");
    let good_password = "p".repeat(shortest_password);
    let cases = [
        ("a".repeat(shortest), good_password.clone(), true),
        ("b".repeat(longest), "p".repeat(longest_password), true),
        ("c".repeat(shortest - 1), good_password.clone(), false),
        ("d".repeat(longest + 1), good_password.clone(), false),
        ("e f".to_string(), good_password.clone(), false),
        ("gg".to_string(), "p".repeat(shortest_password - 1), false),
        ("hh".to_string(), "p".repeat(longest_password + 1), false),
    ];
    for (username, password, ok) in cases {
        let reply = api.sign_up(&username, &password).await;
        let what = format!(
            "the username {username:?} with a password of {} characters",
            password.len()
        );
        judge(reply, ok, &what)
    }
    server.stop().await;
}

/// A Petteia 6×6 position, as a fresh game's view gives it.
async fn view_position(api: &Api) -> String {
    let created = api.local_petteia().await;
    let view = api
        .view(game_id(&created), Some(seat_token(&created)))
        .await;
    view["position"].as_str().unwrap().to_string()
}

on_both_databases!(
    every_reference_in_the_document_resolves,
    served_answers_match_the_served_document,
    identity_refusals_are_documented,
    documented_limits_are_the_ones_enforced
);
