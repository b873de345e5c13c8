//! The rules of live play, without a server: requests in, events out, replay agrees.

use super::*;
use crate::game::ClockSettings;
use crate::game::view::{MoveList, Presence, Snapshot};

fn game(variant: Variant, mode: Mode, clock: Option<ClockSettings>) -> LiveGame {
    LiveGame::for_tests(variant, mode, clock)
}

/// A clock of `initial_ms` with `increment_ms` after each move.
fn clock(initial_ms: u64, increment_ms: u64) -> Option<ClockSettings> {
    Some(ClockSettings {
        initial_ms,
        increment_ms,
    })
}

/// Applies events and their automatic follow-ups, as the actor does.
fn commit(game: &mut LiveGame, events: Vec<GameEvent>, now: i64) -> Vec<GameEvent> {
    game.advance(events, now).expect("decided events apply")
}

const ME: Seat = Seat::Player(Player::First);
const THEM: Seat = Seat::Player(Player::Second);
const WINDOW_MS: i64 = 600_000;

/// Both players connected.
fn both_here() -> Presence {
    Presence {
        sockets: [1, 1],
        ..Presence::new(0, WINDOW_MS)
    }
}

/// `player`'s last socket closed at `at`; the other connected.
fn left_at(player: Player, at: i64) -> Presence {
    let mut presence = both_here();
    let i = player.index();
    (
        presence.sockets[i],
        presence.left_at[i],
        presence.last_request[i],
    ) = (0, at, None);
    presence
}

#[test]
fn an_online_game_waits_for_the_join_and_its_clock_starts_then() {
    let mut g = game(Variant::Petteia6, Mode::Online, clock(60_000, 2_000));
    assert_eq!(g.status, Status::Waiting);
    assert!(matches!(
        g.decide_move(ME, "A1-A2", 0, 10),
        Err(Refusal::NotStarted)
    ));
    let join = g.decide_join();
    commit(&mut g, join, 5_000);
    assert_eq!(g.status, Status::Playing);
    assert_eq!(g.clocks.unwrap().running, Some(Player::First));
    assert_eq!(
        g.clocks.unwrap().read(15_000),
        [50_000, 60_000],
        "the clock runs from the join, not the creation"
    );
    let mv = g.decide_move(ME, "A1-A2", g.version, 15_000).unwrap();
    commit(&mut g, vec![mv], 15_000);
    assert_eq!(
        g.clocks.unwrap().read(15_000),
        [52_000, 60_000],
        "increment after the move"
    );
    assert_eq!(g.clocks.unwrap().running, Some(Player::Second));
}

#[test]
fn moves_are_checked_for_seat_turn_version_and_legality() {
    let mut g = game(Variant::Petteia6, Mode::Online, None);
    let join = g.decide_join();
    commit(&mut g, join, 0);
    let v = g.version;
    assert_eq!(
        g.decide_move(THEM, "A6-A5", v, 0),
        Err(Refusal::NotYourTurn)
    );
    assert_eq!(
        g.decide_move(Seat::Spectator, "A1-A2", v, 0),
        Err(Refusal::NoSeat)
    );
    assert_eq!(
        g.decide_move(ME, "A1-A2", v + 3, 0),
        Err(Refusal::Stale { version: v })
    );
    assert!(matches!(
        g.decide_move(ME, "A1-A6", v, 0),
        Err(Refusal::Move(ludus_engine::MoveError::Illegal { .. }))
    ));
    assert!(matches!(
        g.decide_move(ME, "hello", v, 0),
        Err(Refusal::Move(ludus_engine::MoveError::Notation(_)))
    ));
    assert!(g.decide_move(ME, "a1 a2", v, 0).is_ok());
}

#[test]
fn a_move_is_stale_only_when_the_board_changed_since_it_was_seen() {
    let mut g = game(Variant::Petteia6, Mode::Online, clock(60_000, 0));
    let join = g.decide_join();
    commit(&mut g, join, 0);
    let seen = g.version;
    // A restart pauses and starts the clocks, and the opponent offers a draw: the board is the
    // one the move was chosen on.
    let pause = g.pause_clocks(1_000).expect("the clocks run");
    commit(&mut g, vec![pause], 1_000);
    let resume = g.resume_clocks().expect("the clocks were paused");
    commit(&mut g, vec![resume], 2_000);
    let offer = g.decide_draw(THEM).unwrap();
    commit(&mut g, vec![offer], 2_000);
    assert_eq!(g.version, seen + 3);
    assert_eq!(
        g.decide_move(ME, "A1-A2", g.version + 1, 2_000),
        Err(Refusal::Stale { version: g.version }),
        "a version the game has not reached"
    );
    let mv = g.decide_move(ME, "A1-A2", seen, 2_000).expect("not stale");
    commit(&mut g, vec![mv], 2_000);
    assert_eq!(g.draw_offer, None, "the move declines the offer");
    // Dark chose at `seen` too, but Light's move changed the board.
    assert_eq!(
        g.decide_move(THEM, "A6-A5", seen, 3_000),
        Err(Refusal::Stale { version: g.version })
    );
    assert!(g.decide_move(THEM, "A6-A5", g.version, 3_000).is_ok());

    // A dice game: the roll that follows a move changes the board too.
    let mut g = game(Variant::DuodecimScripta, Mode::Local, None);
    let seen = g.version;
    commit(&mut g, vec![], 0); // the first roll
    assert!(g.version > seen);
    let any = g.engine.legal_moves()[0].to_string();
    assert!(g.decide_move(Seat::Both, &any, g.version, 0).is_ok());
    assert_eq!(
        g.decide_move(Seat::Both, &any, seen, 0),
        Err(Refusal::Stale { version: g.version })
    );
}

#[test]
fn a_rematch_follows_a_finished_game_and_not_an_aborted_one() {
    // An online game whose invite nobody took, then aborted (the invite expired): a rematch
    // offer there would wait for an opponent who never came (a bot writer's audit).
    let mut g = game(Variant::Petteia6, Mode::Online, None);
    let expired = g.expiry_due(1_000, 1_000).expect("the invite expired");
    commit(&mut g, vec![expired], 1_000);
    assert_eq!(g.status, Status::Aborted);
    assert!(matches!(
        g.decide_rematch(ME),
        Err(Refusal::RematchBeforeEnd)
    ));
    // A finished game has its rematch.
    let mut g = game(Variant::Petteia6, Mode::Online, None);
    let join = g.decide_join();
    commit(&mut g, join, 0);
    assert!(matches!(
        g.decide_rematch(ME),
        Err(Refusal::RematchBeforeEnd)
    ));
    let resign = g.decide_resign(THEM).unwrap();
    commit(&mut g, vec![resign], 0);
    assert!(matches!(g.decide_rematch(ME), Ok(RematchStep::Offer(_))));
}

#[test]
fn a_flag_falls_for_the_player_whose_time_ran_out() {
    let mut g = game(Variant::Petteia8, Mode::Local, clock(1_000, 0));
    let start = g.clock_start().into_iter().collect();
    commit(&mut g, start, 0);
    assert_eq!(g.flag_due(999, &both_here()), None);
    let flag = g.flag_due(1_000, &both_here()).expect("time is up");
    commit(&mut g, vec![flag], 1_000);
    assert_eq!(
        g.result.unwrap().outcome,
        Outcome::win(Player::Second, Termination::Timeout)
    );
}

#[test]
fn clocks_paused_while_no_server_serves_the_game_charge_no_one_and_resume_where_they_stood() {
    let mut g = game(Variant::Petteia6, Mode::Online, clock(60_000, 0));
    assert_eq!(g.pause_clocks(1_000), None, "no clock runs before the join");
    let join = g.decide_join();
    commit(&mut g, join, 0);
    let mv = g.decide_move(ME, "A1-A2", g.version, 10_000).unwrap();
    commit(&mut g, vec![mv], 10_000);
    assert_eq!(g.resume_clocks(), None, "running clocks are not resumed");

    // The server shuts down 4 s into Dark's turn and serves the game again at 100 s.
    let pause = g.pause_clocks(14_000).expect("the clocks run");
    commit(&mut g, vec![pause.clone()], 14_000);
    assert!(g.clocks_paused());
    assert_eq!(
        g.flag_due(1_000_000, &both_here()),
        None,
        "no flag falls while paused"
    );
    assert_eq!(g.pause_clocks(20_000), None, "paused once");
    let resume = g.resume_clocks().expect("paused clocks resume");
    commit(&mut g, vec![resume.clone()], 100_000);
    assert!(!g.clocks_paused());
    assert_eq!(g.clocks.unwrap().running, Some(Player::Second));
    assert_eq!(
        g.clocks.unwrap().read(101_000),
        [50_000, 55_000],
        "Dark is charged its 4 s before the pause and 1 s after, not the 86 s between"
    );

    // Replay from the log agrees, and a finished game's clocks are not paused.
    let mut replayed = game(Variant::Petteia6, Mode::Online, clock(60_000, 0));
    let log: Vec<(GameEvent, i64)> = vec![
        (GameEvent::Joined { side: Side::Dark }, 0),
        (replayed.clock_start().unwrap(), 0),
        (
            GameEvent::Move {
                side: Side::Light,
                notation: "A1-A2".into(),
                automatic: false,
                clocks: Some([(Side::Light, 50_000), (Side::Dark, 60_000)].into()),
                checked: Checked::default(),
            },
            10_000,
        ),
        (pause, 14_000),
        (resume, 100_000),
    ];
    for (event, at) in &log {
        replayed.apply(event, *at).unwrap();
    }
    assert_eq!(replayed.clocks, g.clocks);
    let resign = g.decide_resign(THEM).unwrap();
    commit(&mut g, vec![resign], 101_000);
    assert_eq!(g.pause_clocks(102_000), None);
    assert!(!g.clocks_paused());
}

#[test]
fn after_a_crash_the_clocks_are_charged_until_the_server_was_last_known_alive() {
    use crate::game::services::Outage;
    let mut g = game(Variant::Petteia6, Mode::Local, clock(60_000, 0));
    let start = g.clock_start().into_iter().collect();
    commit(&mut g, start, 0);
    let mv = g.decide_move(ME, "A1-A2", g.version, 10_000).unwrap();
    commit(&mut g, vec![mv], 10_000);
    let dark = |event: Option<GameEvent>| match event {
        Some(GameEvent::ClocksPaused { clocks }) => Some(clocks[&Side::Dark]),
        _ => None,
    };
    // Last known alive 3 s into Dark's turn; the server came back at 500 s.
    let outage = |last_alive| Outage {
        last_alive,
        restarted_at: 500_000,
    };
    assert_eq!(dark(g.pause_after(outage(13_000))), Some(57_000));
    // A note older than the last move: the server was alive at the move, so from there.
    assert_eq!(dark(g.pause_after(outage(4_000))), Some(60_000));
    // A game that moved after the restart is not paused.
    let later = Outage {
        last_alive: 1_000,
        restarted_at: 5_000,
    };
    assert_eq!(g.pause_after(later), None);
    // Paused clocks (an orderly shutdown came first) are not paused again.
    let pause = g.pause_clocks(12_000).unwrap();
    commit(&mut g, vec![pause], 12_000);
    assert_eq!(g.pause_after(outage(13_000)), None);
}

#[test]
fn undo_against_the_computer_goes_back_to_the_humans_turn_and_never_gives_time_back() {
    let mut g = game(Variant::Petteia6, Mode::Computer, clock(60_000, 0));
    let start = g.clock_start().into_iter().collect();
    commit(&mut g, start, 0);
    let mine = g.decide_move(ME, "A1-A2", g.version, 10_000).unwrap();
    commit(&mut g, vec![mine], 10_000);
    let reply = g.decide_move(THEM, "A6-A5", g.version, 12_000).unwrap();
    commit(&mut g, vec![reply], 12_000);
    let undo = g.decide_undo(ME, 20_000).unwrap();
    commit(&mut g, vec![undo], 20_000);
    assert_eq!(g.engine.position(), "DDDDDD/6/6/6/6/LLLLLL l 0 1");
    // Light used 10 s, then Dark 2 s, then Light 8 s until the undo: none of it comes back.
    assert_eq!(
        g.clocks.unwrap().read(20_000),
        [42_000, 58_000],
        "time spent stays spent"
    );
    assert!(
        matches!(g.decide_undo(ME, 20_000), Err(Refusal::NothingToTakeBack)),
        "nothing left to undo"
    );
}

#[test]
fn replaying_the_log_rebuilds_the_same_state() {
    let mut g = game(Variant::Petteia6, Mode::Local, None);
    let mut log = Vec::new();
    for (i, mv) in ["A1-A3", "F6-F4", "B1-B2"].iter().enumerate() {
        let event = g.decide_move(Seat::Both, mv, g.version, i as i64).unwrap();
        log.extend(commit(&mut g, vec![event], i as i64));
    }
    let undo = g.decide_undo(Seat::Both, 9).unwrap();
    log.extend(commit(&mut g, vec![undo], 9));
    let mut replayed = game(Variant::Petteia6, Mode::Local, None);
    for event in &log {
        replayed.apply(event, 0).unwrap();
    }
    assert_eq!(replayed.engine.position(), g.engine.position());
    assert_eq!(replayed.version, g.version);
    assert_eq!(replayed.moves().count(), 2);
}

#[test]
fn draws_are_offered_accepted_and_declined_in_petteia_only() {
    let mut g = game(Variant::Petteia6, Mode::Online, None);
    let join = g.decide_join();
    commit(&mut g, join, 0);
    assert!(matches!(
        g.decide_draw_decline(THEM),
        Err(Refusal::NoDrawOffer)
    ));
    let offer = g.decide_draw(ME).unwrap();
    commit(&mut g, vec![offer], 0);
    assert!(
        matches!(g.decide_draw(ME), Err(Refusal::DrawAlreadyOffered)),
        "one offer at a time"
    );
    let accept = g.decide_draw(THEM).unwrap();
    commit(&mut g, vec![accept], 0);
    assert_eq!(
        (g.result.unwrap().outcome, g.draw_offer),
        (Outcome::draw(Termination::Agreement), None)
    );
    assert_eq!(g.decide_resign(ME), Err(Refusal::GameOver));
}

/// `claimant`'s claim at `now`, after checking that their view said beforehand what it does:
/// `claim_aborts` when it aborts the game, not when it wins it.
fn claimed(g: &LiveGame, claimant: Seat, seen: &Presence, now: i64) -> Result<GameEvent, Refusal> {
    let mut list = MoveList::default();
    list.update(g);
    let view = Snapshot::of(g, &list, *seen).render(claimant, now);
    let claim = g.decide_claim(claimant, seen, now);
    if let Ok(event) = &claim {
        let aborts = matches!(event, GameEvent::Aborted { .. });
        assert_eq!(view["claim_aborts"], serde_json::json!(aborts), "{view}");
    }
    claim
}

#[test]
fn a_claim_needs_the_opponent_gone_long_enough() {
    let mut g = game(Variant::Petteia6, Mode::Online, None);
    let join = g.decide_join();
    commit(&mut g, join, 0);
    // They left at 1 s, after the game began.
    let gone = left_at(Player::Second, 1_000);
    let claim_at = 1_000 + WINDOW_MS;
    assert!(matches!(
        claimed(&g, ME, &both_here(), claim_at),
        Err(Refusal::OpponentConnected)
    ));
    assert!(matches!(
        claimed(&g, ME, &gone, claim_at - 1),
        Err(Refusal::ClaimTooEarly { .. })
    ));
    // Before each side has moved, a claim aborts: nobody won a game that never started.
    let aborted_by_me = Ok(GameEvent::Aborted {
        side: Some(g.variant.side(Player::First)),
        absent: None,
    });
    assert_eq!(claimed(&g, ME, &gone, claim_at), aborted_by_me);
    let mut one_side_moved = g.clone();
    let mv = one_side_moved
        .decide_move(ME, "A1-A2", g.version, 0)
        .unwrap();
    commit(&mut one_side_moved, vec![mv], 0);
    let claim = claimed(&one_side_moved, ME, &gone, claim_at);
    assert_eq!(claim, aborted_by_me);
    commit(&mut one_side_moved, vec![claim.unwrap()], 0);
    assert_eq!(
        (one_side_moved.status, one_side_moved.result),
        (Status::Aborted, None)
    );
    // Once each side has moved, the claim wins.
    for (mover, text) in [(ME, "A1-A2"), (THEM, "A6-A5")] {
        let mv = g.decide_move(mover, text, g.version, 0).unwrap();
        commit(&mut g, vec![mv], 0);
    }
    let claim = claimed(&g, ME, &gone, claim_at).unwrap();
    commit(&mut g, vec![claim], 0);
    assert_eq!(
        g.result.unwrap().outcome,
        Outcome::win(Player::First, Termination::Abandoned)
    );
}

#[test]
fn a_player_not_seen_since_the_game_began_loses_neither_by_a_claim_nor_on_time() {
    // An online dice game: its first dice are thrown at the join (5 s), seen by whoever is there.
    let mut g = game(Variant::DuodecimScripta, Mode::Online, clock(60_000, 0));
    let join = g.decide_join();
    commit(&mut g, join, 5_000);
    assert_eq!(g.started_at, Some(5_000));
    let claimant = Seat::Player(Player::First);
    let claimant_side = g.variant.side(Player::First);
    // Away since before the start (a challenger away at the accept): the claim aborts.
    let never_came = left_at(Player::Second, 4_000);
    assert_eq!(
        claimed(&g, claimant, &never_came, 4_000 + WINDOW_MS),
        Ok(GameEvent::Aborted {
            side: Some(claimant_side),
            absent: None
        })
    );
    // Seen after the dice were thrown, then gone: the claim wins, as it did.
    let came_and_left = left_at(Player::Second, 6_000);
    assert_eq!(
        claimed(&g, claimant, &came_and_left, 6_000 + WINDOW_MS),
        Ok(g.finished(Outcome::win(Player::First, Termination::Abandoned)))
    );

    // The flag of the player to move: an abort naming them if they never came, else a loss.
    let (mover, deadline) = g.clocks.unwrap().deadline().expect("a clock runs");
    assert_eq!(deadline, 65_000);
    assert_eq!(
        g.flag_due(deadline, &left_at(mover, 4_000)),
        Some(GameEvent::Aborted {
            side: None,
            absent: Some(g.variant.side(mover))
        })
    );
    let lost_on_time = Some(g.finished(Outcome::win(mover.other(), Termination::Timeout)));
    assert_eq!(g.flag_due(deadline, &left_at(mover, 6_000)), lost_on_time);
    assert_eq!(g.flag_due(deadline, &both_here()), lost_on_time);
    let flag = g.flag_due(deadline, &left_at(mover, 4_000)).unwrap();
    commit(&mut g, vec![flag], deadline);
    assert_eq!((g.status, g.result), (Status::Aborted, None));
}

#[test]
fn the_views_move_list_follows_moves_undo_and_a_rebuilt_history() {
    use std::sync::Arc;
    let both = Seat::Both;
    let play = |g: &mut LiveGame, mv: &str| {
        let event = g.decide_move(both, mv, g.version, 0).unwrap();
        commit(g, vec![event], 0);
    };
    // Each snapshot follows the previous one, as the actor's do: it keeps the previous moves'
    // array only while no move was played or taken back. Its legal moves are the engine's.
    let presence = Presence::new(0, 60_000);
    let moves_in_view = |g: &LiveGame, list: &mut MoveList, previous: &mut Arc<Snapshot>| {
        list.update(g);
        *previous = previous.after(g, list, presence);
        let view = previous.render(both, 0);
        let from_game: Vec<String> = g.moves().map(|m| m.to_string()).collect();
        assert_eq!(view["moves"], serde_json::json!(from_game));
        let legal: Vec<String> = g
            .engine
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(view["legal_moves"], serde_json::json!(legal));
        from_game
    };
    let mut g = game(Variant::Petteia6, Mode::Local, None);
    let mut list = MoveList::default();
    let mut snapshot = Snapshot::of(&g, &list, presence);
    assert!(moves_in_view(&g, &mut list, &mut snapshot).is_empty());
    play(&mut g, "A1-A2");
    play(&mut g, "A6-A5");
    assert_eq!(
        moves_in_view(&g, &mut list, &mut snapshot),
        ["A1-A2", "A6-A5"]
    );
    // The snapshots share the moves' text: each keeps showing its own version's moves.
    let before_undo = snapshot.clone();
    let undo = g.decide_undo(both, 0).unwrap();
    commit(&mut g, vec![undo], 0);
    assert_eq!(moves_in_view(&g, &mut list, &mut snapshot), ["A1-A2"]);
    // The same number of moves again, but another one.
    play(&mut g, "B6-B5");
    assert_eq!(
        moves_in_view(&g, &mut list, &mut snapshot),
        ["A1-A2", "B6-B5"]
    );
    // A snapshot without a new move keeps the array.
    assert_eq!(
        moves_in_view(&g, &mut list, &mut snapshot),
        ["A1-A2", "B6-B5"]
    );
    // A history that differs before its end (as after a reload) is written again from there.
    let mut other = game(Variant::Petteia6, Mode::Local, None);
    play(&mut other, "B1-B2");
    play(&mut other, "A6-A5");
    assert_eq!(
        moves_in_view(&other, &mut list, &mut snapshot),
        ["B1-B2", "A6-A5"]
    );
    let kept = before_undo.render(both, 0);
    assert_eq!(kept["moves"], serde_json::json!(["A1-A2", "A6-A5"]));
    // A snapshot taken before more moves were appended to the text it shares.
    let after_one = snapshot.clone();
    play(&mut other, "B2-B3");
    moves_in_view(&other, &mut list, &mut snapshot);
    let kept = after_one.render(both, 0);
    assert_eq!(kept["moves"], serde_json::json!(["B1-B2", "A6-A5"]));
}

#[test]
fn the_move_list_extended_by_the_moves_of_each_batch_is_the_games_list() {
    let both = Seat::Both;
    // Duodecim: a move may bring a roll and forced moves with it, all in one batch.
    let mut g = game(Variant::DuodecimScripta, Mode::Local, None);
    commit(&mut g, vec![], 0); // the first roll
    let mut list = MoveList::default();
    list.update(&g);
    for _ in 0..60 {
        if g.status != Status::Playing {
            break;
        }
        let mv = g.engine.legal_moves()[0].to_string();
        let before = g.moves().count();
        let event = g.decide_move(both, &mv, g.version, 0).unwrap();
        commit(&mut g, vec![event], 0);
        list.extend(&g, g.moves().count() - before);
        let view = Snapshot::of(&g, &list, Presence::new(0, 60_000)).render(both, 0);
        let from_game: Vec<String> = g.moves().map(|m| m.to_string()).collect();
        assert_eq!(view["moves"], serde_json::json!(from_game));
    }
}

#[test]
fn a_roll_with_no_die_to_play_passes_the_clock_with_the_turn() {
    // Duodecim, timed: a roll none of whose dice can be played ends its turn at once, and the
    // clock that runs is the side's that is to move, from that roll on.
    let mut g = game(Variant::DuodecimScripta, Mode::Local, clock(600_000, 0));
    let mut now = 0;
    let start = g.clock_start().into_iter().collect();
    commit(&mut g, start, now);
    let mut passed_turns = 0;
    for _ in 0..3_000 {
        if g.status != Status::Playing {
            break;
        }
        now += 1_000;
        let mv = g.engine.legal_moves()[0].to_string();
        let event = g.decide_move(Seat::Both, &mv, g.version, now).unwrap();
        let batch = commit(&mut g, vec![event], now);
        if let Some(GameEvent::Roll { side, .. }) = batch.last()
            && g.player_of(*side).unwrap() != g.engine.to_move()
        {
            passed_turns += 1;
        }
        if let Some(running) = g.clocks.and_then(|c| c.running) {
            assert_eq!(running, g.engine.to_move(), "after {batch:?}");
        }
    }
    assert!(passed_turns > 0, "the game met a turn with no move");
}

#[test]
fn a_records_lines_are_turns_each_of_one_side() {
    // Played by the first legal move, long enough for bonus dice, a roll with no die to play and
    // a few hundred plies of Petteia.
    for variant in [Variant::DuodecimScripta, Variant::Petteia6] {
        let mut g = game(variant, Mode::Local, None);
        commit(&mut g, vec![], 0);
        for _ in 0..400 {
            if g.status != Status::Playing {
                break;
            }
            let mv = g.engine.legal_moves()[0].to_string();
            let event = g.decide_move(Seat::Both, &mv, g.version, 0).unwrap();
            commit(&mut g, vec![event], 0);
        }
        let text = g.record().to_string();
        let movetext = text
            .split("\n\n")
            .nth(1)
            .expect("tags, a blank line, the moves");
        let mut replay = AnyGame::new(variant, g.first_player());
        for line in movetext.lines() {
            let side = replay.to_move();
            if variant == Variant::Petteia6 {
                assert_eq!(side, g.first_player(), "{line}");
            }
            for (i, token) in line.split_whitespace().enumerate() {
                if let Some(dice) = token.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                    let dice: Vec<u8> = dice.split(',').map(|d| d.parse().unwrap()).collect();
                    assert_eq!(replay.to_move(), side, "{line}");
                    replay.roll(&dice).unwrap();
                } else {
                    // Petteia's second ply is the other side's, on the same line.
                    let expected = if variant == Variant::Petteia6 && i == 1 {
                        side.other()
                    } else {
                        side
                    };
                    assert_eq!(replay.to_move(), expected, "{line}");
                    replay.play_text(token).unwrap();
                }
            }
        }
        assert_eq!(replay.position(), g.engine.position());
        if variant == Variant::DuodecimScripta {
            let bonus_lines = movetext.lines().filter(|l| !l.starts_with('{')).count();
            assert!(bonus_lines > 0, "the game met bonus dice:\n{movetext}");
        } else {
            assert!(movetext.lines().count() > 5, "{movetext}");
        }
    }
}
