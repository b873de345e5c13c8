//! The rules of docs/RULES.md §1, one test each, positions written in the notation.

use super::*;

fn game(position: &str) -> Petteia {
    Petteia::parse(position).expect("test positions parse")
}

fn play(game: &mut Petteia, text: &str) -> Bitboard {
    let mv = game.parse_move(text).expect("well-formed").expect("legal");
    let before = game.position().board.of(game.to_move().other());
    game.play(mv).expect("legal");
    before & !game.position().board.of(game.to_move())
}

fn names(set: Bitboard) -> Vec<String> {
    squares(set).map(|s| s.to_string()).collect()
}

fn legal(game: &Petteia) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

#[test]
fn start_positions_offer_rook_moves_up_the_board() {
    // Test vector 1: 6 pieces × 1–4 squares; 8 pieces × 1–6 squares.
    assert_eq!(legal(&Petteia::new(Size::Six)).len(), 24);
    assert_eq!(legal(&Petteia::new(Size::Eight)).len(), 48);
}

#[test]
fn a_move_that_closes_a_sandwich_captures() {
    // Test vector 2.
    let start = game("4DD/6/L5/2D3/2L3/6 l");
    let mut g = start.clone();
    assert_eq!(names(play(&mut g, "A4-C4")), ["C3"]);
    let mut g = start;
    assert!(names(play(&mut g, "C2-B2")).is_empty());
}

#[test]
fn captures_in_every_direction_apply_together_and_reduction_wins() {
    // Test vector 3.
    let mut g = game("6/3L2/3D2/1LD1DL/6/3L2 l");
    let mut captured = names(play(&mut g, "D1-D3"));
    captured.sort();
    assert_eq!(captured, ["C3", "D4", "E3"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Player::First, Termination::Reduction))
    );
    assert!(legal(&g).is_empty());
}

#[test]
fn two_enemies_in_a_row_are_never_taken_as_a_block() {
    // Test vector 4.
    let mut g = game("5D/6/6/1DDL2/6/L5 l");
    assert!(names(play(&mut g, "A1-A3")).is_empty());
}

#[test]
fn moving_between_two_enemies_is_safe() {
    // Test vector 5.
    let mut g = game("DDD3/6/6/6/1D1D2/2L2L l");
    assert!(names(play(&mut g, "C1-C2")).is_empty());
    play(&mut g, "A6-A5");
    assert_eq!(
        g.position()
            .board
            .owner(Square::parse("C2", Size::Six).unwrap()),
        Some(Player::First)
    );
}

#[test]
fn edge_never_flanks() {
    // Test vector 6.
    let mut g = game("DDD3/6/6/1L4/6/D4L l");
    assert!(names(play(&mut g, "B3-B1")).is_empty());
}

#[test]
fn a_sandwich_the_mover_did_not_close_captures_nothing() {
    // Light moves F1-F2 while Dark's B2 already stands between Light's A2 and C2.
    let mut g = game("DDD3/6/6/6/LDL3/5L l");
    assert!(names(play(&mut g, "F1-F2")).is_empty());
    assert_eq!(g.position().board.of(Player::Second).count_ones(), 4);
}

#[test]
fn illegal_moves_say_why() {
    let g = game("DDD3/6/6/1L4/6/D4L l");
    let reason = |text: &str| {
        g.parse_move(text)
            .expect("well-formed")
            .expect_err("illegal")
            .to_string()
    };
    assert_eq!(reason("F1-A1"), "F1-A1: A1 is occupied");
    assert_eq!(
        reason("F1-F1"),
        "F1-F1: a piece must move at least one square"
    );
    assert_eq!(
        reason("B3-C4"),
        "B3-C4: pieces move along a rank or a file, never diagonally"
    );
    assert_eq!(reason("A1-A2"), "A1-A2: A1 holds an opponent's piece");
    assert_eq!(reason("C3-C4"), "C3-C4: C3 is empty");
    assert_eq!(reason("B3-B6"), "B3-B6: B6 is occupied");
    let blocked = game("6/6/6/1L4/1D4/1L4 l");
    assert_eq!(
        blocked
            .parse_move("B1-B4")
            .unwrap()
            .unwrap_err()
            .to_string(),
        "B1-B4: B2 is in the way"
    );
}

#[test]
fn blockade_wins_when_the_opponent_cannot_move() {
    // Dark's F6 is already boxed in; A6 is boxed in by A5 and B6 once Light closes B6.
    let mut g = game("D3LD/L4L/6/6/6/1L4 l");
    play(&mut g, "B1-B6");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Player::First, Termination::Blockade))
    );
}

#[test]
fn the_third_occurrence_of_a_position_draws_and_the_start_counts_once() {
    let mut g = game("D2D2/6/6/6/6/L2L2 l");
    for _ in 0..2 {
        for mv in ["A1-B1", "A6-B6", "B1-A1", "B6-A6"] {
            assert_eq!(g.outcome(), None);
            play(&mut g, mv);
        }
    }
    assert_eq!(g.outcome(), Some(Outcome::draw(Termination::Repetition)));
}

#[test]
fn a_hundred_quiet_plies_draw_and_a_capture_resets_the_count() {
    let mut quiet = game("D2D2/6/6/6/6/L2L2 l 99 60");
    assert_eq!(
        quiet.outcome(),
        None,
        "a position alone is never a repetition"
    );
    play(&mut quiet, "A1-B1");
    assert_eq!(quiet.position().quiet_plies, 100);
    assert_eq!(quiet.outcome(), Some(Outcome::draw(Termination::NoCapture)));

    let mut capture = game("1D4/6/6/6/D5/2LD1L l 99 60");
    assert_eq!(names(play(&mut capture, "F1-E1")), ["D1"]);
    assert_eq!(capture.position().quiet_plies, 0);
    assert_eq!(capture.outcome(), None);
}

#[test]
fn the_history_holds_every_position_of_a_hundred_quiet_plies() {
    // Seeded random games until one is drawn by the no-capture rule: its history then holds the
    // position of the last capture (or the start) and the hundred after it, the most there can be.
    let mut state = 0x9_u64;
    let drawn = loop {
        let mut game = Petteia::new(Size::Eight);
        while let Some(mv) = game.pick_legal_move(|n| {
            state = zobrist::splitmix64(state);
            (state % n as u64) as usize
        }) {
            game.play_listed(mv);
        }
        if game.outcome() == Some(Outcome::draw(Termination::NoCapture)) {
            break game;
        }
    };
    assert_eq!(drawn.history.recorded().len(), HISTORY_LIMIT);
}

#[test]
fn the_move_number_goes_up_after_dark_moves() {
    let mut g = Petteia::new(Size::Six);
    play(&mut g, "A1-A2");
    assert_eq!(g.position().to_string(), "DDDDDD/6/6/6/L5/1LLLLL d 1 1");
    play(&mut g, "A6-A5");
    assert_eq!(g.position().to_string(), "1DDDDD/D5/6/6/L5/1LLLLL l 2 2");
}

#[test]
fn lenient_move_input_reads_every_documented_form() {
    let g = Petteia::new(Size::Six);
    for text in [
        "A1-A3",
        "a1-a3",
        "A1 → A3",
        "A1->A3",
        "A1 A3",
        "a1a3",
        " A1 - A3 ",
    ] {
        assert_eq!(
            g.parse_move(text).unwrap().unwrap().to_string(),
            "A1-A3",
            "{text}"
        );
    }
    for text in [
        "", "A1", "A1-", "A0-A3", "G1-G2", "A1-A3-A4", "1A-3A", "A1xx",
    ] {
        assert!(g.parse_move(text).is_err(), "{text:?} should not parse");
    }
}

#[test]
fn a_capture_suffix_must_name_exactly_the_captured_squares() {
    let g = game("6/3L2/3D2/1LD1DL/6/3L2 l");
    assert!(g.parse_move("D1-D3xC3,E3,D4").unwrap().is_ok());
    assert!(g.parse_move("D1-D3 xD4,C3,E3").unwrap().is_ok());
    let wrong = g.parse_move("D1-D3xC3").unwrap().unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "D1-D3: the move captures C3,E3,D4, not C3"
    );
    let quiet = Petteia::new(Size::Six);
    assert!(quiet.parse_move("A1-A3xA4").unwrap().is_err());
}

#[test]
fn threatened_pieces_are_those_one_enemy_move_captures() {
    let g = game("4DD/6/L5/2D3/2L3/6 l");
    assert_eq!(names(g.threatened(Player::Second)), ["C3"]);
    assert!(names(g.threatened(Player::First)).is_empty());
}

#[test]
fn positions_round_trip_and_malformed_ones_say_where() {
    for text in [
        "DDDDDD/6/6/6/6/LLLLLL l 0 1",
        "DDDDDDDD/8/8/8/8/8/8/LLLLLLLL l 0 1",
        "4DD/6/L5/2D3/2L3/6 d 17 9",
    ] {
        assert_eq!(game(text).position().to_string(), text);
    }
    assert_eq!(
        game("4DD/6/L5/2D3/2L3/6 l").position().to_string(),
        "4DD/6/L5/2D3/2L3/6 l 0 1"
    );
    let error = |text: &str| Position::parse(text).unwrap_err().to_string();
    assert_eq!(
        error("DDDDDD/6/6/6/6/LLLLL l"),
        "rank 1 has 5 squares; a 6×6 board needs 6"
    );
    assert_eq!(
        error("DDDDDD/6/6/6/LLLLLL l"),
        "a Petteia board has 6 or 8 ranks separated by '/'; this one has 5"
    );
    assert_eq!(
        error("DDDDDD/6/6/6/6/LLLLLX l"),
        "rank 1: 'X' is not L, D or a count of empty squares"
    );
    assert_eq!(
        error("DDDDDD/6/6/6/6/LLLLLL w"),
        "the side to move is l or d, not \"w\""
    );
    assert!(error("DDDDDD/6/6/6/6/LLLLLL l x").contains("no-capture ply count"));
}
