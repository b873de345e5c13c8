//! The accounts contract, both backends (as tests/contract.rs): names unique without regard to
//! case, secrets found only by their hash, ratings settled by the transaction that finishes a game,
//! challenges answered once.

use ludus_store::{
    AccountRow, ChallengeAnswer, ChallengeRow, NewGame, StatusChange, Store, StoreError, TokenRow,
};
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}{nanos:x}{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A fresh SQLite file always; Postgres when `TEST_DATABASE_URL` is set.
async fn stores() -> Vec<Store> {
    let dir = std::env::temp_dir().join(unique("ludus-accounts-test"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut stores = vec![
        Store::connect(&format!("sqlite://{}", dir.join("test.db").display()))
            .await
            .unwrap(),
    ];
    match std::env::var("TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => stores.push(Store::connect(&url).await.unwrap()),
        _ => eprintln!("note: TEST_DATABASE_URL is not set; the Postgres half was skipped"),
    }
    stores
}

async fn account(store: &Store, name: &str) -> AccountRow {
    let row = AccountRow {
        id: unique("a"),
        username: name.to_string(),
        password_hash: "$argon2id$stand-in".into(),
        created_at: 7,
        deleted: false,
    };
    store.create_account(&row).await.unwrap();
    row
}

async fn online_game(store: &Store, mode: &str) -> String {
    let id = unique("g");
    let game = NewGame {
        id: id.clone(),
        variant: "petteia-6".into(),
        mode: mode.into(),
        status: "playing".into(),
        settings: "{}".into(),
        seat_hashes: [Some(unique("h")), Some(unique("h"))],
        invite_hash: None,
        server_seed: None,
        commitment: None,
        creator_entropy: String::new(),
        created_at: 5,
    };
    store.create_game(&game, &[]).await.unwrap();
    id
}

async fn finish(store: &Store, game_id: &str, winner: Option<&str>) {
    let change = StatusChange {
        status: "finished".into(),
        from: "playing".into(),
        finished_at: Some(500),
        winner: winner.map(String::from),
        termination: Some("resignation".into()),
    };
    let event = ludus_store::EventRow {
        seq: 1,
        at: 500,
        body: "{}".into(),
        move_id: None,
    };
    store
        .append_events(game_id, &[event], Some(&change))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_name_is_taken_in_any_case_and_secrets_are_found_by_hash_only() {
    for store in stores().await {
        let name = unique("Ann");
        let ann = account(&store, &name).await;
        let upper = AccountRow {
            id: unique("a"),
            username: name.to_uppercase(),
            ..ann.clone()
        };
        assert!(matches!(
            store.create_account(&upper).await,
            Err(StoreError::Conflict)
        ));
        assert_eq!(
            store.account_named(&name.to_lowercase()).await.unwrap(),
            Some(ann.clone())
        );

        let session = unique("s");
        store.create_session(&session, &ann.id, 9).await.unwrap();
        assert_eq!(
            store
                .account_of_session(&session)
                .await
                .unwrap()
                .map(|a| a.id),
            Some(ann.id.clone())
        );
        let token = TokenRow {
            id: unique("t"),
            description: "bot".into(),
            created_at: 9,
        };
        let token_hash = unique("th");
        store
            .create_token(&ann.id, &token_hash, &token)
            .await
            .unwrap();
        assert_eq!(store.tokens_of(&ann.id).await.unwrap(), vec![token.clone()]);
        assert!(store.account_of_token(&token_hash).await.unwrap().is_some());
        assert!(store.revoke_token(&ann.id, &token.id).await.unwrap());
        assert!(store.account_of_token(&token_hash).await.unwrap().is_none());
        assert!(!store.revoke_token(&ann.id, &token.id).await.unwrap());

        store.delete_account(&ann.id).await.unwrap();
        assert!(store.account_of_session(&session).await.unwrap().is_none());
        let deleted = store
            .account_named(&name)
            .await
            .unwrap()
            .expect("the row stays");
        assert!(deleted.deleted && deleted.password_hash.is_empty());
    }
}

#[tokio::test]
async fn finishing_an_online_game_between_two_accounts_rates_both_in_its_variant() {
    for store in stores().await {
        let (ann, bob) = (
            account(&store, &unique("ann")).await,
            account(&store, &unique("bob")).await,
        );
        let rated = online_game(&store, "online").await;
        assert!(store.own_seat(&rated, 0, "light", &ann.id).await.unwrap());
        assert!(store.own_seat(&rated, 1, "dark", &bob.id).await.unwrap());
        assert!(
            !store.own_seat(&rated, 1, "dark", &ann.id).await.unwrap(),
            "a held seat keeps its holder"
        );
        finish(&store, &rated, Some("light")).await;
        let ann_rating = &store.ratings_of(&ann.id).await.unwrap()[0];
        let bob_rating = &store.ratings_of(&bob.id).await.unwrap()[0];
        assert_eq!(
            (ann_rating.variant.as_str(), ann_rating.games),
            ("petteia-6", 1)
        );
        assert!(ann_rating.rating > 1500.0 && bob_rating.rating < 1500.0);
        let played = store.played_games(&ann.id, 10, None).await.unwrap();
        assert_eq!(played[0].opponent.as_deref(), Some(bob.username.as_str()));
        assert_eq!(played[0].rating_before, Some(1500.0));
        assert_eq!(played[0].rating_after, Some(ann_rating.rating));

        // Unrated, local and one-account games leave ratings alone.
        let unrated = online_game(&store, "online").await;
        store.mark_unrated(&unrated).await.unwrap();
        let local = online_game(&store, "local").await;
        for game in [&unrated, &local] {
            store.own_seat(game, 0, "light", &ann.id).await.unwrap();
            store.own_seat(game, 1, "dark", &bob.id).await.unwrap();
            finish(&store, game, Some("dark")).await;
        }
        assert_eq!(store.ratings_of(&ann.id).await.unwrap()[0].games, 1);
        assert_eq!(
            store.played_games(&ann.id, 10, None).await.unwrap().len(),
            2,
            "the unrated game counts in results, the local one nowhere"
        );
    }
}

#[tokio::test]
async fn a_challenge_is_answered_once_and_not_after_it_lapsed() {
    for store in stores().await {
        let (ann, bob) = (
            account(&store, &unique("ann")).await,
            account(&store, &unique("bob")).await,
        );
        let challenge = ChallengeRow {
            id: unique("c"),
            challenger_id: ann.id.clone(),
            challenged_id: bob.id.clone(),
            variant: "petteia-6".into(),
            terms: "{}".into(),
            status: "pending".into(),
            created_at: 1_000,
            game_id: None,
        };
        store.create_challenge(&challenge).await.unwrap();
        assert_eq!(
            store.challenges_to(&bob.id, 0).await.unwrap(),
            vec![challenge.clone()]
        );
        assert!(
            store
                .challenges_to(&bob.id, 1_000)
                .await
                .unwrap()
                .is_empty(),
            "lapsed"
        );
        let answer = |status| ChallengeAnswer {
            id: &challenge.id,
            status,
            created_after: 0,
        };
        let lapsed = ChallengeAnswer {
            created_after: 1_000,
            ..answer("accepted")
        };
        assert!(!store.answer_challenge(&lapsed).await.unwrap());
        assert!(store.answer_challenge(&answer("accepted")).await.unwrap());
        assert!(!store.answer_challenge(&answer("declined")).await.unwrap());
        assert_eq!(
            store
                .load_challenge(&challenge.id)
                .await
                .unwrap()
                .unwrap()
                .status,
            "accepted"
        );
    }
}
