//! `POST /api/v1/analysis/suggest`: the computer's move in a position given alone, for the
//! analysis board. The answer is a legal move of that position; bad input is refused.

use ludus_tests::{Database, TestServer};
use serde_json::{Value, json};

async fn legal_moves(api: &ludus_tests::Api, body: Value) -> Vec<String> {
    let (status, analysis) = api.post("/api/v1/analysis", None, body).await;
    assert_eq!(status, 200, "{analysis}");
    serde_json::from_value(analysis["legal_moves"].clone()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_suggestion_takes_the_winning_capture() {
    let server = TestServer::start(Database::Sqlite).await;
    let api = server.api();
    // RULES.md §1 test vector 3: D1-D3 captures three and leaves Dark with no piece.
    let (status, suggestion) = api
        .post(
            "/api/v1/analysis/suggest",
            None,
            json!({ "variant": "petteia-6", "position": "6/3L2/3D2/1LD1DL/6/3L2 l", "level": 5 }),
        )
        .await;
    assert_eq!(status, 200, "{suggestion}");
    assert_eq!(suggestion, json!({ "move": "D1-D3", "level": 5 }));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_level_suggests_a_legal_move_with_the_dice_given() {
    let server = TestServer::start(Database::Sqlite).await;
    let api = server.api();
    let cases = [
        json!({ "variant": "duodecim-scripta", "position": ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,2b,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,13 o:0,0 dice:[4,1,2] bonus:[]" }),
        json!({ "variant": "pente-grammai-kidd", "position": "-/-/-/-/-/-/-/-/-/- t r:5,5 h:0,0", "dice": [4] }),
        json!({ "variant": "pente-grammai-schaedler", "position": "T/T/T/T/T/B/B/B/B/B t", "dice": [3] }),
    ];
    for case in cases {
        let legal = legal_moves(&api, case.clone()).await;
        for level in [1, 3, 5] {
            let mut body = case.clone();
            body["level"] = json!(level);
            let (status, suggestion) = api.post("/api/v1/analysis/suggest", None, body).await;
            assert_eq!(status, 200, "{suggestion}");
            let mv = suggestion["move"].as_str().unwrap().to_string();
            assert!(legal.contains(&mv), "{mv} is one of {legal:?}");
            assert_eq!(suggestion["level"], json!(level));
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_positions_levels_and_finished_games_are_refused() {
    let server = TestServer::start(Database::Sqlite).await;
    let api = server.api();
    let refused = [
        (
            json!({ "variant": "chess", "position": "x" }),
            400,
            "bad_request",
        ),
        (
            json!({ "variant": "petteia-6", "position": "not a position" }),
            400,
            "bad_request",
        ),
        (
            json!({ "variant": "petteia-6", "position": "DDDDDD/6/6/6/6/LLLLLL l", "level": 9 }),
            400,
            "bad_request",
        ),
        (
            json!({ "variant": "petteia-6", "position": "DDDDDD/6/6/6/6/LLLLLL l", "extra": 1 }),
            400,
            "bad_request",
        ),
        // A dice game without its dice has no move to suggest yet.
        (
            json!({ "variant": "pente-grammai-schaedler", "position": "T/T/T/T/T/B/B/B/B/B t" }),
            400,
            "bad_request",
        ),
        // Light has just moved and left Dark one piece: Light has won.
        (
            json!({ "variant": "petteia-6", "position": "D5/6/6/6/6/LLLLLL d" }),
            409,
            "game_over",
        ),
    ];
    for (body, status, code) in refused {
        let (got, error) = api
            .post("/api/v1/analysis/suggest", None, body.clone())
            .await;
        assert_eq!(
            (got, error["error"]["code"].as_str()),
            (status, Some(code)),
            "{body}: {error}"
        );
    }
    let (status, error) = api
        .post_raw("/api/v1/analysis/suggest", None, b"{not json".to_vec())
        .await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
    // The endpoint is in the OpenAPI document.
    let (_, document) = api.get("/api/v1/openapi.json", None).await;
    assert!(document["paths"]["/api/v1/analysis/suggest"]["post"].is_object());
    server.stop().await;
}
