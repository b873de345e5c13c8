//! One contract, both backends: every scenario runs on SQLite (a fresh file) and on Postgres (a
//! fresh database beside `TEST_DATABASE_URL`'s). The Postgres tests are ignored, and counted so in
//! the summary, unless run with `-- --include-ignored` (as `.ci/run` does). Each test removes its
//! database when it passes; a failed one leaves it to look at.

use ludus_engine::dice::ServerSeed;
use ludus_engine::{Player, Side, Termination, Variant};
use ludus_store::{
    AccountSeat, Appender, EventReader, EventRow, GameId, Holders, Mode, NewGame, PageAfter,
    Redeemed, SecretHash, Status, StatusChange, Store, StoreError, StoredResult,
};
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}{nanos:x}x{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A fresh game id.
fn new_id() -> GameId {
    unique("g").parse().unwrap()
}

/// A fresh store for one test: a SQLite file in a folder of its own, or a new Postgres database
/// on `TEST_DATABASE_URL`'s server (named like the black-box tests' databases, whose harness
/// sweeps away those a failed run left behind).
#[derive(Debug)]
struct TestStore {
    store: Store,
    remove: Removal,
}

#[derive(Debug)]
enum Removal {
    Folder(std::path::PathBuf),
    PostgresDatabase { admin: String, name: String },
}

impl TestStore {
    async fn sqlite() -> TestStore {
        let dir = std::env::temp_dir().join(unique("ludus-store-test"));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("test.db").display());
        TestStore {
            store: Store::connect(&url).await.unwrap(),
            remove: Removal::Folder(dir),
        }
    }

    async fn postgres() -> TestStore {
        let (url, remove) = fresh_postgres().await;
        TestStore {
            store: Store::connect(&url).await.unwrap(),
            remove,
        }
    }

    async fn remove(self) {
        self.store.close().await;
        self.remove.run().await;
    }
}

impl Removal {
    async fn run(self) {
        match self {
            Removal::Folder(dir) => std::fs::remove_dir_all(dir).unwrap(),
            Removal::PostgresDatabase { admin, name } => {
                admin_execute(&admin, &format!("DROP DATABASE {name} WITH (FORCE)")).await;
            }
        }
    }
}

/// A new database on `TEST_DATABASE_URL`'s server (named like the black-box tests' databases,
/// whose harness sweeps away those a failed run left behind): its URL, and its removal.
async fn fresh_postgres() -> (String, Removal) {
    let admin = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .expect("TEST_DATABASE_URL is not set: the Postgres tests need a Postgres database");
    let name = format!(
        "ludus_test_{}_{}",
        std::process::id(),
        unique("store").replace('-', "_")
    );
    admin_execute(&admin, &format!("CREATE DATABASE {name}")).await;
    let base = admin
        .rsplit_once('/')
        .map_or(admin.as_str(), |(base, _)| base);
    let url = format!("{base}/{name}");
    (url, Removal::PostgresDatabase { admin, name })
}

async fn admin_execute(admin: &str, statement: &str) {
    use sqlx::{Connection, Executor};
    let mut connection = sqlx::PgConnection::connect(admin)
        .await
        .expect("TEST_DATABASE_URL connects");
    connection
        .execute(sqlx::AssertSqlSafe(statement.to_string()))
        .await
        .expect(statement);
}

/// For each scenario `async fn name(store: Store)`, a test on SQLite and one on Postgres.
macro_rules! on_both_backends {
    ($($scenario:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $scenario() {
                    let database = super::TestStore::sqlite().await;
                    super::$scenario(database.store.clone()).await;
                    database.remove().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
                async fn $scenario() {
                    let database = super::TestStore::postgres().await;
                    super::$scenario(database.store.clone()).await;
                    database.remove().await;
                }
            )*
        }
    };
}

fn new_game(id: &GameId, invite: Option<&SecretHash>, created_at: i64) -> NewGame {
    NewGame {
        id: id.clone(),
        variant: Variant::Petteia6,
        mode: Mode::Online,
        status: if invite.is_some() {
            Status::Waiting
        } else {
            Status::Playing
        },
        settings: "{}".into(),
        seats: [Some(SecretHash::of("creator")), None],
        invite: invite.cloned(),
        server_seed: ServerSeed([0; 32]),
        dice: false,
        creator_entropy: "alice".into(),
        joiner_entropy: String::new(),
        created_at,
        listed: false,
        owner: None,
        holders: Holders::New {
            creator: None,
            rated: true,
        },
    }
}

fn finish(termination: Termination, winner: Option<Side>, finished_at: i64) -> StatusChange {
    StatusChange {
        status: Status::Finished,
        from: Status::Playing,
        finished_at: Some(finished_at),
        result: Some(StoredResult {
            winner,
            termination,
        }),
        rated: true,
    }
}

fn event(seq: i64, body: &str, move_id: Option<&str>) -> EventRow {
    EventRow {
        seq,
        at: 1_000 + seq,
        body: body.into(),
        move_id: move_id.map(String::from),
    }
}

async fn a_created_game_loads_with_its_events(store: Store) {
    let id = new_id();
    store
        .create_game(
            &new_game(&id, None, 5),
            &[event(1, r#"{"kind":"clock_started"}"#, None)],
        )
        .await
        .unwrap();
    let row = store.load_game(&id).await.unwrap().expect("stored");
    assert_eq!(
        (row.variant, row.status, row.creator_entropy.as_str()),
        (Variant::Petteia6, Status::Playing, "alice")
    );
    assert_eq!(row.seats[0], Some(SecretHash::of("creator")));
    assert_eq!(
        store.events_since(&id, 0).await.unwrap(),
        vec![event(1, r#"{"kind":"clock_started"}"#, None)]
    );
    let unknown = "nosuchgame".parse().unwrap();
    assert!(store.load_game(&unknown).await.unwrap().is_none());
}

async fn a_version_is_written_once_and_a_move_id_once(store: Store) {
    let id = new_id();
    store
        .create_game(&new_game(&id, None, 5), &[])
        .await
        .unwrap();
    store
        .append_events(&id, &[event(1, "a", Some("m1"))], None)
        .await
        .unwrap();
    assert!(matches!(
        store.append_events(&id, &[event(1, "b", None)], None).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store
            .append_events(&id, &[event(2, "c", Some("m1"))], None)
            .await,
        Err(StoreError::Conflict)
    ));
    // A failed append leaves nothing behind, even when its first event was fine.
    assert!(matches!(
        store
            .append_events(&id, &[event(2, "d", None), event(1, "e", None)], None)
            .await,
        Err(StoreError::Conflict)
    ));
    store
        .append_events(&id, &[event(2, "f", None), event(3, "g", None)], None)
        .await
        .unwrap();
    let bodies: Vec<String> = store
        .events_since(&id, 1)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.body)
        .collect();
    assert_eq!(bodies, ["f", "g"]);
}

/// The bodies stored for a game, in order.
async fn bodies(store: &Store, id: &GameId) -> Vec<String> {
    let events = store.events_since(id, 0).await.unwrap();
    events.into_iter().map(|e| e.body).collect()
}

async fn the_events_of_several_games_append_together_or_not_at_all(store: Store) {
    let (a, b) = (new_id(), new_id());
    for id in [&a, &b] {
        store
            .create_game(&new_game(id, None, 5), &[])
            .await
            .unwrap();
    }
    let a_first = [event(1, "a1", Some("m1")), event(2, "a2", None)];
    let b_first = [event(1, "b1", None)];
    store
        .append_many(&[(&a, &a_first), (&b, &b_first)])
        .await
        .unwrap();
    assert_eq!(bodies(&store, &a).await, ["a1", "a2"]);
    assert_eq!(bodies(&store, &b).await, ["b1"]);
    // b's version 1 is taken: a's new event is not written either.
    let a_next = [event(3, "a3", None)];
    let b_again = [event(1, "b1 again", None)];
    assert!(matches!(
        store.append_many(&[(&a, &a_next), (&b, &b_again)]).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(bodies(&store, &a).await, ["a1", "a2"]);
    assert_eq!(bodies(&store, &b).await, ["b1"]);
    store.append_many(&[]).await.unwrap();
}

async fn the_appender_lands_concurrent_appends_and_refuses_only_a_conflicting_one(store: Store) {
    let appender = Appender::start(store.clone());
    let games: Vec<GameId> = (0..40).map(|_| new_id()).collect();
    for id in &games {
        store
            .create_game(&new_game(id, None, 5), &[])
            .await
            .unwrap();
    }
    // Ten versions of forty games, every game's appends in order and all games at once,
    // with one append that repeats a version among them.
    let runs: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let (appender, id) = (appender.clone(), id.clone());
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for seq in 1..=10 {
                    answers.push(
                        appender
                            .append(&id, vec![event(seq, &format!("{seq}"), None)], None)
                            .await,
                    );
                }
                if i == 7 {
                    answers.push(
                        appender
                            .append(&id, vec![event(4, "again", None)], None)
                            .await,
                    );
                }
                answers
            })
        })
        .collect();
    for (i, run) in runs.into_iter().enumerate() {
        let answers = run.await.unwrap();
        assert!(
            answers[..10].iter().all(Result::is_ok),
            "game {i}: {answers:?}"
        );
        if i == 7 {
            assert!(matches!(answers[10], Err(StoreError::Conflict)));
        }
    }
    let expected: Vec<String> = (1..=10).map(|seq| seq.to_string()).collect();
    for id in &games {
        assert_eq!(bodies(&store, id).await, expected);
    }
    // A status change is written with its events, as append_events writes it.
    let change = finish(Termination::Agreement, None, 9);
    appender
        .append(&games[0], vec![event(11, "end", None)], Some(&change))
        .await
        .unwrap();
    let row = store.load_game(&games[0]).await.unwrap().expect("stored");
    assert_eq!(row.status, Status::Finished);
}

/// The appender's writers each hold a connection: closing the store takes them back while the
/// appender lives on (a server closes its store before its games' actors are gone), and an
/// append after the close is refused rather than left waiting.
async fn the_store_closes_while_its_appender_holds_connections(store: Store) {
    use std::time::Duration;
    let appender = Appender::start(store.clone());
    let id = new_id();
    store
        .create_game(&new_game(&id, None, 5), &[])
        .await
        .unwrap();
    appender
        .append(&id, vec![event(1, "1", None)], None)
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(10), store.close())
        .await
        .expect("the store closes with its appender alive");
    let late = tokio::time::timeout(
        Duration::from_secs(10),
        appender.append(&id, vec![event(2, "2", None)], None),
    )
    .await
    .expect("an append after the close is answered");
    assert!(late.is_err(), "an append after the close is refused");
}

/// The group read answers each game's read with that game's events after its version, as a
/// read of its own would, however many are read at once.
async fn the_reader_answers_each_read_with_its_own_games_events(store: Store) {
    let reader = EventReader::start(store.clone());
    let mut games = Vec::new();
    for n in 1..=12 {
        let id = new_id();
        store
            .create_game(&new_game(&id, None, 5), &[])
            .await
            .unwrap();
        let rows: Vec<EventRow> = (1..=n)
            .map(|seq| event(seq, &format!("{{\"n\":{seq}}}"), Some(&format!("m{seq}"))))
            .collect();
        store.append_events(&id, &rows, None).await.unwrap();
        games.push((id, n));
    }
    let reads = games.iter().flat_map(|(id, n)| {
        [0, n / 2, *n].map(|since| {
            let reader = reader.clone();
            async move { (since, reader.events_since(id, since).await.unwrap()) }
        })
    });
    let answers = futures_util::future::join_all(reads).await;
    for ((id, _), answers) in games.iter().zip(answers.chunks(3)) {
        for (since, events) in answers {
            assert_eq!(events, &store.events_since(id, *since).await.unwrap());
        }
        assert_eq!(answers[0].1.len() as i64, answers[0].1.last().unwrap().seq);
        assert!(answers[2].1.is_empty());
    }
}

/// A new waiting game with an invite: its id and the invite's hash.
async fn invited_game(store: &Store) -> (GameId, SecretHash) {
    let id = new_id();
    let invite = SecretHash::of(&unique("invite"));
    store
        .create_game(&new_game(&id, Some(&invite), 5), &[])
        .await
        .unwrap();
    (id, invite)
}

async fn an_invite_is_redeemed_exactly_once_even_when_joins_race(store: Store) {
    let (id, invite) = invited_game(&store).await;
    assert_eq!(store.find_invite(&invite).await.unwrap(), Some(id.clone()));
    let joins = (0..8).map(|i| {
        let store = store.clone();
        let invite = invite.clone();
        tokio::spawn(async move {
            store
                .redeem_invite(
                    &invite,
                    Player::Second,
                    &SecretHash::of(&format!("joiner-{i}")),
                    "bob",
                    None,
                    &[event(1, "joined", None)],
                )
                .await
        })
    });
    let mut outcomes = Vec::new();
    for join in joins {
        outcomes.push(join.await.unwrap().unwrap());
    }
    let winners = outcomes
        .iter()
        .filter(|o| matches!(o, Redeemed::Joined { .. }))
        .count();
    assert_eq!(winners, 1, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, Redeemed::Joined { .. } | Redeemed::AlreadyUsed))
    );
    let row = store.load_game(&id).await.unwrap().unwrap();
    assert_eq!(
        (row.status, row.joiner_entropy.as_str(), row.invite_redeemed),
        (Status::Playing, "bob", true)
    );
    let joiner = row.seats[1].clone().expect("the joiner's seat");
    assert!((0..8).any(|i| joiner == SecretHash::of(&format!("joiner-{i}"))));
    assert_eq!(store.events_since(&id, 0).await.unwrap().len(), 1);
    assert_eq!(
        store
            .redeem_invite(
                &SecretHash::of("unknown"),
                Player::Second,
                &SecretHash::of("x"),
                "",
                None,
                &[]
            )
            .await
            .unwrap(),
        Redeemed::NotFound
    );
}

async fn a_game_is_finished_by_one_writer_only(store: Store) {
    let id = new_id();
    store
        .create_game(&new_game(&id, None, 5), &[])
        .await
        .unwrap();
    let finish = |seq: i64| finish(Termination::Resignation, Some(Side::Light), 99 + seq);
    store
        .append_events(&id, &[event(1, "finished", None)], Some(&finish(1)))
        .await
        .unwrap();
    assert!(matches!(
        store
            .append_events(&id, &[event(2, "finished again", None)], Some(&finish(2)))
            .await,
        Err(StoreError::Conflict)
    ));
    let row = store.load_game(&id).await.unwrap().unwrap();
    assert_eq!(
        (row.status, row.finished_at, row.result),
        (
            Status::Finished,
            Some(100),
            Some(StoredResult {
                winner: Some(Side::Light),
                termination: Termination::Resignation
            })
        )
    );
    assert_eq!(
        store.events_since(&id, 0).await.unwrap().len(),
        1,
        "the losing writer's event is rolled back"
    );
    assert!(!store.games_in_progress().await.unwrap().contains(&id));
}

async fn finished_games_list_newest_first_with_paging(store: Store) {
    // Times far from any other test's, so a shared Postgres does not interleave.
    let base = 1_000_000
        + (NEXT.fetch_add(1, Ordering::Relaxed) as i64) * 1_000_000
        + std::process::id() as i64 * 100_000_000;
    // A game created at `base` and finished at `at`.
    let finished_at = async |at: i64| {
        let id = new_id();
        store
            .create_game(&new_game(&id, None, base), &[])
            .await
            .unwrap();
        let change = finish(Termination::Agreement, None, at);
        store
            .append_events(&id, &[event(1, "finished", None)], Some(&change))
            .await
            .unwrap();
        id
    };
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(finished_at(base + i).await);
    }
    let listed: Vec<GameId> = store
        .list_games(
            Status::Finished,
            2,
            &PageAfter {
                at: base + 3,
                game_id: None,
            },
        )
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(listed, [ids[2].clone(), ids[1].clone()]);
    let next: Vec<GameId> = store
        .list_games(
            Status::Finished,
            2,
            &PageAfter {
                at: base + 1,
                game_id: None,
            },
        )
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .take(1)
        .collect();
    assert_eq!(next, [ids[0].clone()]);

    // Three games that end in one millisecond: a page that ends among them is followed by the
    // rest, after the last one listed by its id.
    let mut same = Vec::new();
    for _ in 0..3 {
        same.push(finished_at(base + 10).await);
    }
    let mut after = PageAfter {
        at: base + 11,
        game_id: None,
    };
    let mut listed = Vec::new();
    for _ in 0..2 {
        let page = store.list_games(Status::Finished, 2, &after).await.unwrap();
        let last = page.last().unwrap();
        after = PageAfter {
            at: last.finished_at.unwrap(),
            game_id: Some(last.id.clone()),
        };
        listed.extend(page.into_iter().map(|g| g.id));
    }
    assert_eq!(&listed[3..], [ids[2].clone()], "then the earlier games");
    listed.truncate(3);
    listed.sort();
    same.sort();
    assert_eq!(listed, same, "each game of the millisecond once");
    assert!(store.games_in_progress().await.is_ok());
}

async fn the_latest_note_that_a_server_is_alive_is_kept(store: Store) {
    assert_eq!(store.last_alive().await.unwrap(), None);
    store.mark_alive(2_000).await.unwrap();
    assert_eq!(store.last_alive().await.unwrap(), Some(2_000));
    // Two instances noting at once: an older note does not overwrite a newer one.
    store.mark_alive(1_000).await.unwrap();
    store.mark_alive(3_000).await.unwrap();
    assert_eq!(store.last_alive().await.unwrap(), Some(3_000));
}

#[tokio::test]
async fn a_database_url_of_another_kind_is_refused() {
    assert!(matches!(
        Store::connect("mysql://localhost/x").await,
        Err(StoreError::UnsupportedUrl(scheme)) if scheme == "mysql"
    ));
    // The refusal names the scheme only: the rest of what was given may hold a password.
    let Err(refused) = Store::connect("host=db password=KvSecret dbname=ludus").await else {
        panic!("a libpq connection string is no URL the store takes");
    };
    assert!(!refused.to_string().contains("KvSecret"), "{refused}");
}

/// Migration 0010 marks the computer games whose log holds a takeback made before 0009 marked such
/// games, and no other game (from the upgrade audit: they still counted at their level).
async fn migration_0010_marks_the_takebacks_made_before_the_mark(store: Store) {
    let computer = |id: &GameId| NewGame {
        mode: Mode::Computer,
        ..new_game(id, None, 5)
    };
    let (took_back, played_on, online) = (new_id(), new_id(), new_id());
    let undo = r#"{"kind":"undo","side":"light","keep":0}"#;
    let moved = r#"{"kind":"move","side":"light","move":"A1-A2"}"#;
    let offered = r#"{"kind":"undo_offered","side":"light"}"#;
    // Stored unmarked, as before 0009 (the store ran 0010 at its start, on no game).
    for (game, body) in [
        (computer(&took_back), undo),
        (computer(&played_on), moved),
        (computer(&new_id()), offered),
        (new_game(&online, None, 5), undo),
    ] {
        store
            .create_game(&game, &[event(1, body, None)])
            .await
            .unwrap();
    }
    // The migration's statement, run again now that the games are there; then the marked games.
    macro_rules! mark_and_read {
        ($pool:expr, $migration:literal) => {{
            let mark = sqlx::AssertSqlSafe(include_str!($migration));
            sqlx::raw_sql(mark).execute($pool).await.unwrap();
            sqlx::query_scalar::<_, String>("SELECT id FROM games WHERE assisted ORDER BY id")
                .fetch_all($pool)
                .await
                .unwrap()
        }};
    }
    let marked = match &store {
        Store::Sqlite(pool) => {
            mark_and_read!(pool, "../../../migrations/sqlite/0010_assisted_before.sql")
        }
        Store::Postgres(pool) => {
            mark_and_read!(
                pool,
                "../../../migrations/postgres/0010_assisted_before.sql"
            )
        }
    };
    assert_eq!(marked, [took_back.as_str()]);
}

on_both_backends!(
    migration_0010_marks_the_takebacks_made_before_the_mark,
    a_created_game_loads_with_its_events,
    a_version_is_written_once_and_a_move_id_once,
    the_events_of_several_games_append_together_or_not_at_all,
    the_appender_lands_concurrent_appends_and_refuses_only_a_conflicting_one,
    the_store_closes_while_its_appender_holds_connections,
    the_reader_answers_each_read_with_its_own_games_events,
    an_invite_is_redeemed_exactly_once_even_when_joins_race,
    a_game_is_finished_by_one_writer_only,
    finished_games_list_newest_first_with_paging,
    the_latest_note_that_a_server_is_alive_is_kept,
);

/// Accounts (issue 13): names unique without regard to case, secrets found only by their hash,
/// ratings settled by the transaction that finishes a game, challenges answered once.
mod accounts {
    use super::*;
    use ludus_store::{AccountRow, ChallengeAnswer, ChallengeRow, SeatOwner, TokenRow};

    fn owner<'a>(player: i64, side: &'static str, account_id: &'a str) -> SeatOwner<'a> {
        SeatOwner {
            account_id,
            player,
            side,
        }
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

    /// Holders of a new game created by `account`'s player 0 (light).
    fn created_by(account: &AccountRow, rated: bool) -> Holders {
        Holders::New {
            creator: Some(AccountSeat {
                account_id: account.id.clone(),
                player: Player::First,
            }),
            rated,
        }
    }

    /// The seats' holders of a game, as (side, username).
    async fn holder_names(store: &Store, id: &GameId) -> Vec<(String, String)> {
        let holders = store.seat_holders(id).await.unwrap();
        holders.into_iter().map(|h| (h.side, h.username)).collect()
    }

    /// A game being played between seats the two accounts hold (player 0 light, the creator, and
    /// 1 dark).
    async fn held_game(
        store: &Store,
        mode: Mode,
        rated: bool,
        light: &AccountRow,
        dark: &AccountRow,
    ) -> GameId {
        let id = new_id();
        let game = NewGame {
            mode,
            holders: created_by(light, rated),
            ..new_game(&id, None, 5)
        };
        store.create_game(&game, &[]).await.unwrap();
        assert!(
            store
                .own_seat(&id, owner(1, "dark", &dark.id))
                .await
                .unwrap()
        );
        id
    }

    async fn finish_won_by(store: &Store, id: &GameId, winner: Side) {
        let change = finish(Termination::Resignation, Some(winner), 500);
        store
            .append_events(id, &[event(1, "{}", None)], Some(&change))
            .await
            .unwrap();
    }

    pub(super) async fn a_name_is_taken_in_any_case_and_secrets_are_found_by_hash_only(
        store: Store,
    ) {
        let ann = account(&store, "Ann").await;
        let upper = AccountRow {
            id: unique("a"),
            username: "ANN".into(),
            ..ann.clone()
        };
        assert!(matches!(
            store.create_account(&upper).await,
            Err(StoreError::Conflict)
        ));
        assert_eq!(store.account_named("ann").await.unwrap(), Some(ann.clone()));

        let session = SecretHash::of("session");
        store.create_session(&session, &ann.id, 9).await.unwrap();
        let found = store.account_of_session(&session).await.unwrap();
        assert_eq!(found.map(|a| a.id), Some(ann.id.clone()));
        let token = TokenRow {
            id: unique("t"),
            description: "bot".into(),
            created_at: 9,
        };
        let token_hash = SecretHash::of("lp_token");
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
            .account_named("Ann")
            .await
            .unwrap()
            .expect("the row stays");
        assert!(deleted.deleted && deleted.password_hash.is_empty());
    }

    pub(super) async fn finishing_an_online_game_between_two_accounts_rates_both_in_its_variant(
        store: Store,
    ) {
        let (ann, bob) = (account(&store, "ann").await, account(&store, "bob").await);
        let rated = held_game(&store, Mode::Online, true, &ann, &bob).await;
        assert!(
            !store
                .own_seat(&rated, owner(1, "dark", &ann.id))
                .await
                .unwrap(),
            "a held seat keeps its holder"
        );
        finish_won_by(&store, &rated, Side::Light).await;
        let ann_rating = &store.ratings_of(&ann.id).await.unwrap()[0];
        let bob_rating = &store.ratings_of(&bob.id).await.unwrap()[0];
        assert_eq!(
            (ann_rating.variant.as_str(), ann_rating.games),
            ("petteia-6", 1)
        );
        assert!(ann_rating.rating > 1500.0 && bob_rating.rating < 1500.0);
        let played = store
            .played_games(&ann.id, 10, &PageAfter::START)
            .await
            .unwrap();
        assert_eq!(played[0].opponent.as_deref(), Some("bob"));
        assert_eq!(played[0].rating_before, Some(1500.0));
        assert_eq!(played[0].rating_after, Some(ann_rating.rating));

        // Unrated and shared-screen games leave ratings alone.
        let unrated = held_game(&store, Mode::Online, false, &ann, &bob).await;
        let local = held_game(&store, Mode::Local, true, &ann, &bob).await;
        for game in [&unrated, &local] {
            finish_won_by(&store, game, Side::Dark).await;
        }
        assert_eq!(store.ratings_of(&ann.id).await.unwrap()[0].games, 1);
        assert_eq!(
            store
                .played_games(&ann.id, 10, &PageAfter::START)
                .await
                .unwrap()
                .len(),
            2,
            "the unrated game counts in results, the local one nowhere"
        );
    }

    pub(super) async fn a_new_game_is_written_with_its_holders_and_a_rematch_with_the_originals(
        store: Store,
    ) {
        let (ann, bob) = (account(&store, "ann").await, account(&store, "bob").await);
        let original = held_game(&store, Mode::Online, false, &ann, &bob).await;
        let pair = |light: &str, dark: &str| {
            vec![
                ("light".to_string(), light.to_string()),
                ("dark".to_string(), dark.to_string()),
            ]
        };
        assert_eq!(holder_names(&store, &original).await, pair("ann", "bob"));
        // A game that cannot be stored (its id is taken) writes none of its holders either.
        let again = NewGame {
            holders: created_by(&bob, true),
            ..new_game(&original, None, 6)
        };
        assert!(store.create_game(&again, &[]).await.is_err());
        assert_eq!(holder_names(&store, &original).await, pair("ann", "bob"));

        let rematch = new_id();
        let game = NewGame {
            holders: Holders::RematchOf(original.clone()),
            ..new_game(&rematch, None, 7)
        };
        store.create_game(&game, &[]).await.unwrap();
        assert_eq!(holder_names(&store, &rematch).await, pair("bob", "ann"));
        // Unrated as the original: finishing it leaves both ratings alone.
        finish_won_by(&store, &rematch, Side::Light).await;
        assert!(store.ratings_of(&bob.id).await.unwrap().is_empty());
        // A deleted account stays behind: its seat of the next rematch has no holder.
        store.delete_account(&ann.id).await.unwrap();
        let second = new_id();
        let game = NewGame {
            holders: Holders::RematchOf(rematch.clone()),
            ..new_game(&second, None, 8)
        };
        store.create_game(&game, &[]).await.unwrap();
        assert_eq!(
            holder_names(&store, &second).await,
            vec![("dark".to_string(), "bob".to_string())]
        );
    }

    pub(super) async fn a_challenge_is_answered_once_and_not_after_it_lapsed(store: Store) {
        let (ann, bob) = (account(&store, "ann").await, account(&store, "bob").await);
        let challenge = ChallengeRow {
            id: unique("c"),
            challenger_id: ann.id.clone(),
            challenged_id: bob.id.clone(),
            variant: "duodecim-scripta".into(),
            terms: "{}".into(),
            status: "pending".into(),
            created_at: 1_000,
            game_id: None,
            server_seed: "ab".repeat(32),
            entropy: "ann's".into(),
        };
        store.create_challenge(&challenge).await.unwrap();
        for party in [&bob, &ann] {
            assert_eq!(
                store.pending_challenges(&party.id, 0).await.unwrap(),
                vec![challenge.clone()],
                "both parties see it"
            );
        }
        assert!(
            store
                .pending_challenges(&bob.id, 1_000)
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
        let stored = store.load_challenge(&challenge.id).await.unwrap().unwrap();
        assert_eq!(stored.status, "accepted");
    }

    /// The joiner's account holds its seat from the moment the join commits: written in the
    /// redemption's transaction, so whoever sees the join sees the name; a join that lost the
    /// race leaves no owner behind.
    pub(super) async fn a_redemption_records_the_joiner_s_account_with_it(store: Store) {
        let bob = account(&store, "Bob").await;
        let eve = account(&store, "Eve").await;
        let (id, invite) = invited_game(&store).await;
        // `account` joins with the invite `invite`, taking the dark seat with token `seat`.
        let redeem = |invite: &SecretHash, account: &AccountRow, seat: &str| {
            let store = store.clone();
            let invite = invite.clone();
            let account_id = account.id.clone();
            let seat = SecretHash::of(seat);
            async move {
                let owner = owner(1, "dark", &account_id);
                store
                    .redeem_invite(
                        &invite,
                        Player::Second,
                        &seat,
                        "",
                        Some(owner),
                        &[event(1, "joined", None)],
                    )
                    .await
                    .unwrap()
            }
        };
        assert!(matches!(
            redeem(&invite, &bob, "bob").await,
            Redeemed::Joined { .. }
        ));
        assert!(matches!(
            redeem(&invite, &eve, "eve").await,
            Redeemed::AlreadyUsed
        ));
        let holders = store.seat_holders(&id).await.unwrap();
        let names: Vec<(&str, &str)> = holders
            .iter()
            .map(|h| (h.side.as_str(), h.username.as_str()))
            .collect();
        assert_eq!(names, [("dark", "Bob")]);

        // Bob joining the invite of a game whose other seat is his redeems nothing.
        let own = new_id();
        let invite = SecretHash::of(&unique("invite"));
        let game = NewGame {
            holders: created_by(&bob, true),
            ..new_game(&own, Some(&invite), 5)
        };
        store.create_game(&game, &[]).await.unwrap();
        let joined = redeem(&invite, &bob, "bob again").await;
        assert!(matches!(joined, Redeemed::OwnGame), "{joined:?}");
        assert!(store.events_since(&own, 0).await.unwrap().is_empty());
        let joined = redeem(&invite, &eve, "eve").await;
        assert!(
            matches!(joined, Redeemed::Joined { .. }),
            "the invite is still there to use: {joined:?}"
        );
    }

    /// An account holds at most one seat of a game (no one plays themselves), and finds it by the
    /// hash of its token, as the game's actions present it.
    pub(super) async fn an_account_holds_one_seat_of_a_game_and_finds_it(store: Store) {
        let (ann, bob) = (account(&store, "ann").await, account(&store, "bob").await);
        let id = new_id();
        let game = NewGame {
            holders: created_by(&ann, true),
            ..new_game(&id, None, 5)
        };
        store.create_game(&game, &[]).await.unwrap();
        assert!(
            !store
                .own_seat(&id, owner(1, "dark", &ann.id))
                .await
                .unwrap(),
            "the creator does not take the other seat too"
        );
        assert_eq!(
            store.account_seat(&id, &ann.id).await.unwrap(),
            Some(SecretHash::of("creator"))
        );
        assert_eq!(store.account_seat(&id, &bob.id).await.unwrap(), None);
        assert!(
            store
                .own_seat(&id, owner(1, "dark", &bob.id))
                .await
                .unwrap()
        );
        assert_eq!(holder_names(&store, &id).await.len(), 2);
        // Two requests giving one account a game's two seats at once: one wins, whatever the
        // interleaving (a check before the insert let both through on Postgres).
        for _ in 0..20 {
            let id = new_id();
            store
                .create_game(&new_game(&id, None, 5), &[])
                .await
                .unwrap();
            let (first, second) = tokio::join!(
                store.own_seat(&id, owner(0, "light", &bob.id)),
                store.own_seat(&id, owner(1, "dark", &bob.id)),
            );
            assert!(
                first.unwrap() ^ second.unwrap(),
                "one seat of {id} is bob's"
            );
        }
    }

    /// A finished game the server says is not to be rated (it ended before each side moved)
    /// changes no rating, though two accounts hold its seats.
    pub(super) async fn a_game_finished_unrated_changes_no_rating(store: Store) {
        let (ann, bob) = (account(&store, "ann").await, account(&store, "bob").await);
        let id = held_game(&store, Mode::Online, true, &ann, &bob).await;
        let change = StatusChange {
            rated: false,
            ..finish(Termination::Resignation, Some(Side::Light), 500)
        };
        store
            .append_events(&id, &[event(1, "{}", None)], Some(&change))
            .await
            .unwrap();
        assert_eq!(store.ratings_of(&ann.id).await.unwrap(), []);
        assert_eq!(store.ratings_of(&bob.id).await.unwrap(), []);
    }

    on_both_backends!(
        a_game_finished_unrated_changes_no_rating,
        an_account_holds_one_seat_of_a_game_and_finds_it,
        a_redemption_records_the_joiner_s_account_with_it,
        a_name_is_taken_in_any_case_and_secrets_are_found_by_hash_only,
        finishing_an_online_game_between_two_accounts_rates_both_in_its_variant,
        a_new_game_is_written_with_its_holders_and_a_rematch_with_the_originals,
        a_challenge_is_answered_once_and_not_after_it_lapsed,
    );
}

/// Several instances on one Postgres database (`cluster.rs`): heartbeats, owners and takeovers,
/// and the notification of every append. SQLite serves one instance and refuses them.
mod instances {
    use super::{Appender, Status, Store, StoreError, TestStore, event, new_game, new_id};
    use ludus_store::{NewGame, Notification};

    /// A game in play owned by `owner`.
    async fn owned_game(store: &Store, owner: &str) -> ludus_store::GameId {
        let id = new_id();
        let game = NewGame {
            status: Status::Playing,
            owner: Some(owner.to_string()),
            ..new_game(&id, None, 1)
        };
        store.create_game(&game, &[]).await.unwrap();
        id
    }

    #[tokio::test]
    #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
    async fn a_game_is_taken_over_once_and_only_from_an_instance_gone() {
        let database = TestStore::postgres().await;
        let store = database.store.clone();
        assert!(!store.heartbeat("a").await.unwrap(), "a new instance");
        assert!(store.heartbeat("a").await.unwrap(), "renewed in time");
        let id = owned_game(&store, "a").await;
        assert!(
            store.take_over_games("b").await.unwrap().is_empty(),
            "the owner is alive"
        );
        assert_eq!(
            store.owned_games("a").await.unwrap(),
            std::slice::from_ref(&id)
        );

        store.release_instance("a").await.unwrap();
        // Instances take over only once alive themselves (the server's heartbeat comes first).
        for instance in ["b", "c"] {
            store.heartbeat(instance).await.unwrap();
        }
        let (b, c) = tokio::join!(store.take_over_games("b"), store.take_over_games("c"));
        let (b, c) = (b.unwrap(), c.unwrap());
        assert_eq!(b.len() + c.len(), 1, "one instance takes it: {b:?} {c:?}");
        let winner = if b.is_empty() { "c" } else { "b" };
        assert!(store.heartbeat(winner).await.is_ok());
        assert_eq!(store.owned_games(winner).await.unwrap(), [id]);
        assert!(store.take_over_games("d").await.unwrap().is_empty());
        database.remove().await;
    }

    #[tokio::test]
    #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
    async fn every_append_notifies_its_game_and_last_version() {
        let database = TestStore::postgres().await;
        let store = database.store.clone();
        let mut listener = store.listen().await.unwrap();
        let id = owned_game(&store, "a").await;
        store
            .append_events(&id, &[event(1, "{}", None), event(2, "{}", None)], None)
            .await
            .unwrap();
        let appender = Appender::start(store.clone());
        appender
            .append(&id, vec![event(3, "{}", Some("m"))], None)
            .await
            .unwrap();
        for seq in [2, 3] {
            assert_eq!(heard(&mut listener).await, [(id.to_string(), seq)]);
        }
        // The listening connection is the pool's: the pool closes once it is given back.
        drop(listener);
        database.remove().await;
    }

    /// What the next notification says of appends: each game with its last seq.
    async fn heard(listener: &mut ludus_store::Listener) -> Vec<(String, i64)> {
        let heard = tokio::time::timeout(std::time::Duration::from_secs(5), listener.next())
            .await
            .expect("a notification within 5 s")
            .unwrap();
        match heard {
            Some(Notification::Appended(appended)) => appended
                .games()
                .map(|(id, seq)| (id.to_string(), seq))
                .collect(),
            other => panic!("not an append: {other:?}"),
        }
    }

    /// A batch notifies a few games a notification, each game once with its last version, and
    /// however many games it holds (Postgres refuses a payload over 8,000 bytes).
    #[tokio::test]
    #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
    async fn a_batch_notifies_every_game_once_with_its_last_version() {
        let database = TestStore::postgres().await;
        let store = database.store.clone();
        let mut listener = store.listen().await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..150 {
            ids.push(owned_game(&store, "a").await);
        }
        let rows = [event(1, "{}", None), event(2, "{}", None)];
        let appends: Vec<_> = ids.iter().map(|id| (id, &rows[..])).collect();
        store.append_many(&appends).await.unwrap();
        let mut games = Vec::new();
        let mut notifications = 0;
        while games.len() < ids.len() {
            games.extend(heard(&mut listener).await);
            notifications += 1;
        }
        assert_eq!(notifications, 3, "150 games in notifications of 64 at most");
        games.sort();
        let mut expected: Vec<(String, i64)> = ids.iter().map(|id| (id.to_string(), 2)).collect();
        expected.sort();
        assert_eq!(games, expected);
        drop(listener);
        database.remove().await;
    }

    #[tokio::test]
    async fn sqlite_serves_one_instance() {
        let database = TestStore::sqlite().await;
        assert!(matches!(
            database.store.heartbeat("a").await,
            Err(StoreError::SingleInstance)
        ));
        database.remove().await;
    }
}

/// Every Postgres statement is bounded (5 s, so that a lock held on a table cannot hang the
/// moves) unless the URL sets its own bound through `options`; a bare `statement_timeout=`
/// parameter, which sqlx ignores, leaves the bound in place (it took it away).
#[tokio::test]
#[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
async fn every_postgres_statement_is_bounded_unless_the_url_sets_its_own_bound() {
    let (url, removal) = fresh_postgres().await;
    for (parameters, bound) in [
        ("", "5s"),
        ("?statement_timeout=1000", "5s"),
        ("?options=-c%20statement_timeout%3D7s", "7s"),
    ] {
        let store = Store::connect(&format!("{url}{parameters}")).await.unwrap();
        let Store::Postgres(pool) = &store else {
            panic!("a Postgres store")
        };
        let shown: String = sqlx::query_scalar("SHOW statement_timeout")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(shown, bound, "{parameters:?}");
        store.close().await;
    }
    removal.run().await;
}

/// A database that cannot be reached: what waits on it is answered within the pool's timeout,
/// whatever the size of its batch. Postgres only: SQLite is a file, with no host to lose.
mod outage {
    use super::{Appender, EventReader, Store, event, fresh_postgres, new_game, new_id};
    use ludus_store::POSTGRES_ACQUIRE_TIMEOUT;
    use ludus_store::testing::DatabaseProxy;

    #[tokio::test]
    #[ignore = "needs TEST_DATABASE_URL (Postgres); run with -- --include-ignored"]
    async fn a_lost_database_fails_each_batch_once_not_each_of_its_members_in_turn() {
        let (url, removal) = fresh_postgres().await;
        let proxy = DatabaseProxy::start(&url).await;
        let store = Store::connect(&proxy.route(&url)).await.unwrap();
        let appender = Appender::start(store.clone());
        let reader = EventReader::start(store.clone());
        let mut games = Vec::new();
        for _ in 0..6 {
            let id = new_id();
            store
                .create_game(&new_game(&id, None, 1), &[])
                .await
                .unwrap();
            appender
                .append(&id, vec![event(1, "{}", None)], None)
                .await
                .unwrap();
            assert_eq!(reader.events_since(&id, 0).await.unwrap().len(), 1);
            games.push(id);
        }

        proxy.cut();
        // From here only the pool's timeouts move the clock: tokio's runs ahead to the next one
        // whenever every task waits.
        tokio::time::pause();
        let started = tokio::time::Instant::now();
        let appends = games.iter().map(|id| async {
            let result = appender.append(id, vec![event(2, "{}", None)], None).await;
            (result, started.elapsed())
        });
        let reads = games.iter().map(|id| async {
            let result = reader.events_since(id, 0).await.map(|_| ());
            (result, started.elapsed())
        });
        let (appended, read) = tokio::join!(
            futures_util::future::join_all(appends),
            futures_util::future::join_all(reads)
        );
        // Each batch meets its broken connection, then one timeout getting a new one; tried
        // one by one, the sixth append or read would wait six.
        for (what, answers) in [("append", appended), ("read", read)] {
            for (result, waited) in answers {
                assert!(
                    matches!(result, Err(ref error) if !error.is_the_statements()),
                    "{what}: {result:?}"
                );
                assert!(
                    waited < 2 * POSTGRES_ACQUIRE_TIMEOUT,
                    "an {what} answered after {waited:?} of the clock (the pool's timeout: {POSTGRES_ACQUIRE_TIMEOUT:?})"
                );
            }
        }

        tokio::time::resume();
        drop((appender, reader));
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), store.close()).await;
        removal.run().await;
    }
}
