//! The rules of docs/RULES.md §2, one test each, positions written in the notation.

use super::*;
use crate::dice::ServerSeed;
use crate::perft::perft_with_dice;

fn game(rules: Rules, position: &str, die: u8) -> PenteGrammai {
    let mut game = PenteGrammai::parse(rules, position).expect("test positions parse");
    game.roll(&[die]).expect("the position awaits a roll");
    game
}

fn legal(game: &PenteGrammai) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    texts.sort();
    texts
}

fn play(game: &mut PenteGrammai, text: &str) {
    let mv = game
        .parse_move(text)
        .expect("well-formed")
        .unwrap_or_else(|e| panic!("{e}"));
    game.play(mv).expect("legal");
}

/// Plays `text` and rolls `next` for the following turn.
fn play_then_roll(game: &mut PenteGrammai, text: &str, next: u8) {
    play(game, text);
    game.roll(&[next]).expect("a roll follows every move");
}

/// The position after playing `text` from `position` with `die` rolled.
fn after(rules: Rules, position: &str, die: u8, text: &str) -> String {
    let mut g = game(rules, position, die);
    play(&mut g, text);
    g.position().to_string()
}

/// The outcome after playing `text` from `position` with `die` rolled.
fn outcome_after(rules: Rules, position: &str, die: u8, text: &str) -> Option<Outcome> {
    let mut g = game(rules, position, die);
    play(&mut g, text);
    g.outcome()
}

fn refusal(game: &PenteGrammai, text: &str) -> String {
    game.parse_move(text)
        .expect("well-formed")
        .expect_err("illegal")
        .to_string()
}

fn position(game: &PenteGrammai) -> String {
    game.position().to_string()
}

const SCHAEDLER_START: &str = "T/T/T/T/T/B/B/B/B/B t";
const KIDD_START: &str = "-/-/-/-/-/-/-/-/-/- t r:5,5 h:0,0";
const PERIMETER_START: &str = "T/T/T/T/T/B/B/B/B/B t x:0,0";

// ---- The turn: roll, move, pass ----

#[test]
fn a_game_awaits_a_roll_then_a_move_written_with_that_die() {
    let mut g = PenteGrammai::new(Rules::Schaedler, Player::First);
    assert_eq!(g.phase(), Phase::AwaitingRoll);
    assert!(
        legal(&g).is_empty(),
        "a position with no die lists no moves"
    );
    assert_eq!(refusal(&g, "1-2"), "1-2: the die has not been rolled yet");
    assert_eq!(g.roll_outcomes().len(), 6);
    assert!(g.roll_outcomes().iter().all(|&(_, weight)| weight == 1));
    assert_eq!(g.roll(&[7]), Err(RollError::BadFace(7)));
    assert_eq!(
        g.roll(&[1, 2]),
        Err(RollError::WrongCount {
            expected: 1,
            given: 2
        })
    );
    g.roll(&[1]).unwrap();
    assert_eq!(g.roll(&[1]), Err(RollError::NotAwaited));
    assert_eq!(g.phase(), Phase::AwaitingMove);
    assert_eq!(refusal(&g, "2:0-2"), "2:0-2: the die rolled is 1");
    // The die may be omitted: it is the one rolled.
    play(&mut g, "1-2");
    assert_eq!(g.phase(), Phase::AwaitingRoll);
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(position(&g), "T/-/2T/T/T/B/B/B/B/B b");
}

#[test]
fn the_safety_cap_draws_after_2000_plies_without_a_winner() {
    // Two counters each shuttle on the sacred line's ends: nobody can ever gather all five.
    let mut g = PenteGrammai::new(Rules::Perimeter, Player::First);
    let mut moves = Vec::new();
    for ply in 0..MOVE_LIMIT {
        assert!(g.outcome().is_none(), "still going at ply {ply}");
        g.roll(&[5]).unwrap();
        moves.clear();
        g.legal_moves(&mut moves);
        // Always move a counter between 2 and 7, so neither side ever exchanges.
        let mv = *moves
            .iter()
            .find(
                |m| matches!(m.action, Action::Go { from: Origin::Point(p), .. } if p.is_sacred()),
            )
            .expect("a counter on the sacred line moves to the other end");
        g.play(mv).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::draw(Termination::MoveLimit)));
    assert_eq!(g.roll(&[1]), Err(RollError::NotAwaited));
}

// ---- Schädler ----

#[test]
fn schaedler_start_offers_exactly_one_move_per_die() {
    // docs/RULES.md §2.2 test vector.
    let expected = ["1:1-2", "2:0-2", "3:4-7", "4:3-7", "5:2-7", "6:1-7"];
    for (die, mv) in (1..=6).zip(expected) {
        assert_eq!(legal(&game(Rules::Schaedler, SCHAEDLER_START, die)), [mv]);
    }
}

#[test]
fn sacred_endpoints_hold_any_number_of_counters_of_both_colours() {
    let mut g = game(Rules::Schaedler, "-/B/TB/T/T/-/T/1T2B/-/B t", 1);
    // 2-3 lands on Terracotta's own counter; 6-7 and 1-2 land on sacred points holding both.
    assert_eq!(legal(&g), ["1:4-5", "1:6-7", "1:7-8"]);
    play_then_roll(&mut g, "1:6-7", 1);
    assert_eq!(position(&g), "-/B/TB/T/T/-/-/2T2B/-/B b");
    assert!(legal(&g).contains(&"1:1-2".to_string()));
}

#[test]
fn an_ordinary_point_holds_one_counter_own_or_enemy() {
    let g = game(Rules::Schaedler, SCHAEDLER_START, 1);
    assert_eq!(
        refusal(&g, "1:0-1"),
        "1:0-1: 1 is occupied, and only the sacred endpoints 2 and 7 hold more than one counter"
    );
    assert_eq!(
        refusal(&g, "1:4-5"),
        "1:4-5: 5 is occupied, and only the sacred endpoints 2 and 7 hold more than one counter"
    );
    assert_eq!(
        refusal(&g, "1:1-3"),
        "1:1-3: a 1 takes a counter from 1 to 2"
    );
    assert_eq!(refusal(&g, "1:5-6"), "1:5-6: 5 holds no Terracotta counter");
    assert_eq!(
        refusal(&g, "1:R-0"),
        "1:R-0: Schädler's rules have no reserve (R)"
    );
}

#[test]
fn a_gathered_counter_must_leave_when_it_is_the_only_mover() {
    // Three counters gathered on 7; with a 5 the ones on 0 and 1 land on Black's counters.
    let mut g = game(Rules::Schaedler, "T/T/B/-/-/B/B/3T/B/B t", 5);
    assert_eq!(legal(&g), ["5:7-2"]);
    assert!(refusal(&g, "5:pass").contains("a pass is allowed only when no move is legal"));
    play(&mut g, "5:7-2");
    assert_eq!(position(&g), "T/T/TB/-/-/B/B/2T/B/B b");
}

#[test]
fn a_gathered_counter_may_leave_by_choice() {
    let g = game(Rules::Schaedler, "-/-/2T/-/T/T/-/1T4B/B/- t", 3);
    assert_eq!(legal(&g), ["3:4-7", "3:7-0"]);
}

#[test]
fn movement_is_compulsory_and_a_blocked_turn_is_a_pass() {
    let mut g = game(Rules::Schaedler, "T/-/TB/B/B/T/-/2T/B/B b", 6);
    assert_eq!(legal(&g), ["6:pass"]);
    play(&mut g, "pass");
    assert_eq!(position(&g), "T/-/TB/B/B/T/-/2T/B/B t");
}

#[test]
fn five_counters_on_the_goal_win() {
    let mut g = game(Rules::Schaedler, "B/B/B/-/T/B/-/4T/B/- t", 3);
    play(&mut g, "3:4-7");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Player::First, Termination::Gathered))
    );
    assert!(legal(&g).is_empty());
    assert_eq!(refusal(&g, "3:4-7"), "3:4-7: the game is over");
    assert!(g.threatened(Player::First).is_empty());
}

#[test]
fn schaedler_threatens_nothing() {
    let g = game(Rules::Schaedler, SCHAEDLER_START, 3);
    assert!(Player::BOTH.iter().all(|&p| g.threatened(p).is_empty()));
}

// ---- Kidd ----

#[test]
fn kidd_start_offers_only_the_entry_on_the_own_corner() {
    // docs/RULES.md §2.3 test vector.
    for die in 1..=6 {
        assert_eq!(
            legal(&game(Rules::Kidd, KIDD_START, die)),
            [format!("{die}:R-0")]
        );
    }
    let mut g = game(Rules::Kidd, KIDD_START, 4);
    play_then_roll(&mut g, "4:R-0", 2);
    assert_eq!(legal(&g), ["2:R-5"]);
    assert_eq!(
        refusal(&g, "2:R-7"),
        "2:R-7: a counter enters on the own starting corner, 5"
    );
}

#[test]
fn landing_on_a_blot_hits_it_back_to_reserve() {
    assert_eq!(
        after(Rules::Kidd, "T/-/-/B/-/B/-/-/-/- t r:4,3 h:0,0", 3, "3:0-3"),
        "-/-/-/T/-/B/-/-/-/- b r:4,4 h:0,0"
    );
}

#[test]
fn own_counters_stack_and_a_yoke_blocks_landing_but_not_passing() {
    let g = game(Rules::Kidd, "T/-/-/2B/-/B/-/-/-/- t r:4,2 h:0,0", 3);
    assert_eq!(legal(&g), ["3:R-0"]);
    assert_eq!(
        refusal(&g, "3:0-3"),
        "3:0-3: 3 holds 2 enemy counters, which block it"
    );
    let mut g = game(Rules::Kidd, "T/-/-/2B/-/B/-/-/-/- t r:4,2 h:0,0", 4);
    assert_eq!(legal(&g), ["4:0-4", "4:R-0"]);
    play_then_roll(&mut g, "4:R-0", 1);
    play_then_roll(&mut g, "1:3-4", 3);
    // Two Terracotta counters on 0 form a yoke too.
    assert_eq!(position(&g), "2T/-/-/B/B/B/-/-/-/- t r:3,2 h:0,0");
}

#[test]
fn entry_hits_a_blot_on_the_corner_and_a_yoke_there_blocks_it() {
    let mut g = game(Rules::Kidd, "B/-/-/-/-/-/-/-/-/- t r:5,4 h:0,0", 2);
    play(&mut g, "2:R-0");
    assert_eq!(position(&g), "T/-/-/-/-/-/-/-/-/- b r:4,5 h:0,0");
    let g = game(Rules::Kidd, "2B/-/T/-/-/-/-/-/-/- t r:4,3 h:0,0", 2);
    assert_eq!(legal(&g), ["2:2-4"]);
    assert_eq!(
        refusal(&g, "2:R-0"),
        "2:R-0: 0 holds 2 enemy counters, which block it"
    );
}

#[test]
fn reaching_the_goal_exactly_hits_a_blot_there_and_gathers_on_the_holy_line() {
    assert_eq!(
        after(Rules::Kidd, "-/-/-/-/T/B/-/B/-/- t r:4,3 h:0,0", 3, "3:4-7"),
        "-/-/-/-/-/B/-/-/-/- b r:4,4 h:1,0"
    );
}

#[test]
fn the_holy_line_is_safe_and_does_not_block_the_goal_point() {
    // Terracotta's gathered counter stays on the holy line when Black lands on point 7.
    let mut g = game(Rules::Kidd, "-/-/-/-/T/B/-/-/-/- b r:3,4 h:1,0", 2);
    assert_eq!(legal(&g), ["2:5-7", "2:R-5"]);
    play(&mut g, "2:5-7");
    assert_eq!(position(&g), "-/-/-/-/T/-/-/B/-/- t r:3,4 h:1,0");
}

#[test]
fn a_gathered_counter_is_an_optional_mover() {
    let g = game(Rules::Kidd, "4T/-/-/-/-/4B/-/-/-/- t r:0,1 h:1,0", 2);
    assert_eq!(legal(&g), ["2:0-2", "2:H-9"]);
    assert_eq!(
        refusal(&g, "2:7-9"),
        "2:7-9: the counters gathered on 7 are on the holy line: write H-9"
    );
    assert_eq!(
        refusal(&g, "2:pass"),
        "2:pass: a pass is allowed only when nothing but moves off the holy line is legal (2:0-2 is)"
    );
}

#[test]
fn a_player_may_pass_when_only_moves_off_the_holy_line_remain() {
    let mut g = game(Rules::Kidd, "-/T/-/2B/-/B/B/-/-/- t r:0,1 h:4,0", 2);
    assert_eq!(legal(&g), ["2:H-9", "2:pass"]);
    play(&mut g, "2:pass");
    assert_eq!(position(&g), "-/T/-/2B/-/B/B/-/-/- b r:0,1 h:4,0");
}

#[test]
fn five_counters_on_the_holy_line_win() {
    assert_eq!(
        outcome_after(Rules::Kidd, "-/-/-/-/T/B/-/-/-/- t r:0,4 h:4,0", 3, "3:4-7"),
        Some(Outcome::win(Player::First, Termination::Gathered))
    );
}

#[test]
fn kidd_threats_are_blots_in_reach_with_the_throws_that_hit_them() {
    // Terracotta's blot on 3: Black's 1 hits it with a 2, Black's 0 with a 3, the holy line (2)
    // with a 1. Black's blot on 0 is Terracotta's entry corner: any throw enters onto it.
    let g = PenteGrammai::parse(Rules::Kidd, "B/B/-/T/2T/-/-/-/-/- t r:2,2 h:0,1").unwrap();
    let odds = |hits| Some(crate::Odds { hits, of: 6 });
    assert_eq!(
        g.threatened(Player::First),
        [crate::Threat {
            place: "3".into(),
            odds: odds(3)
        }]
    );
    assert_eq!(
        g.threatened(Player::Second),
        [crate::Threat {
            place: "0".into(),
            odds: odds(6)
        }]
    );
}

// ---- Perimeter Line Battle ----

/// Terracotta to move, outnumbered two to one on line 1 ({0, 9}) and on line 4 ({3, 6}).
const TWO_THREATS: &str = "T/T/T/T/T/B/2B/-/-/2B t x:0,0 th:t@1,t@4";

#[test]
fn outnumbered_counters_are_pinned() {
    let g = game(Rules::Perimeter, TWO_THREATS, 1);
    assert_eq!(legal(&g), ["1:1-2", "1:2-3", "1:4-5"]);
    assert_eq!(
        refusal(&g, "1:3-4"),
        "1:3-4: the counters on 3 are pinned: line 4 is threatened"
    );
}

#[test]
fn a_response_that_restores_equality_removes_nothing_there() {
    let mut g = game(Rules::Perimeter, TWO_THREATS, 1);
    // 2-3 makes line 4 two against two; line 1 is still lost.
    play(&mut g, "1:2-3");
    assert_eq!(position(&g), "-/T/-/2T/T/B/2B/-/-/2B b x:1,0");
}

#[test]
fn a_failed_response_removes_every_outnumbered_counter_on_every_threatened_line_at_once() {
    assert_eq!(
        after(Rules::Perimeter, TWO_THREATS, 1, "1:1-2"),
        "-/-/2T/-/T/B/2B/-/-/2B b x:2,0"
    );
}

#[test]
fn re_entry_answers_a_threat() {
    let mut g = game(Rules::Perimeter, "T/-/T/T/T/B/B/B/-/2B t x:1,0 th:t@1", 2);
    assert_eq!(
        legal(&g),
        [
            "2:2-4", "2:3-5", "2:4-6", "2:X-0", "2:X-1", "2:X-2", "2:X-3", "2:X-4"
        ]
    );
    assert_eq!(
        refusal(&g, "2:X-5"),
        "2:X-5: 5 is not a setup point of Terracotta: removed counters re-enter on 0–4"
    );
    play(&mut g, "2:X-0");
    assert_eq!(position(&g), "2T/-/T/T/T/B/B/B/-/2B b x:0,0");
}

#[test]
fn a_move_makes_a_threat_against_the_next_player() {
    let mut g = game(Rules::Perimeter, PERIMETER_START, 4);
    play(&mut g, "4:4-8");
    // Line 2 ({1, 8}): Terracotta two against Black's one.
    assert_eq!(position(&g), "T/T/T/T/-/B/B/B/TB/B b x:0,0 th:b@2");
}

#[test]
fn the_sacred_line_is_never_threatened() {
    let mut g = game(Rules::Perimeter, "T/T/T/T/T/B/-/2B/B/B b x:0,0", 2);
    play(&mut g, "2:5-7");
    assert_eq!(position(&g), "T/T/T/T/T/-/-/3B/B/B t x:0,0");
    assert!(
        PenteGrammai::parse(Rules::Perimeter, "T/T/T/T/T/-/-/3B/B/B t x:0,0 th:t@3")
            .unwrap_err()
            .to_string()
            .contains("is not one")
    );
}

#[test]
fn all_five_on_the_opponents_setup_points_win_by_exchange() {
    assert_eq!(
        outcome_after(Rules::Perimeter, "B/B/B/B/T/T/T/T/T/B t x:0,0", 1, "1:4-5"),
        Some(Outcome::win(Player::First, Termination::Exchange))
    );
}

#[test]
fn perimeter_threats_are_the_lines_the_opponents_next_throw_can_outnumber() {
    // From the start, Black outnumbers line 1 with any throw but a 6 (8-9 … 5-0), line 2 with
    // any, line 4 with 1, 4, 5 or 6, line 5 only with 5 or 6 (9-4, 9-5, 8-4). The sacred line never.
    let g = PenteGrammai::parse(Rules::Perimeter, PERIMETER_START).unwrap();
    let listed: Vec<(String, u32)> = g
        .threatened(Player::First)
        .into_iter()
        .map(|t| (t.place, t.odds.expect("odds over the six throws").hits))
        .collect();
    let expected = [("0", 5), ("1", 6), ("3", 4), ("4", 2)].map(|(p, h)| (p.to_string(), h));
    assert_eq!(listed, expected);
}

#[test]
fn a_stated_threat_must_agree_with_the_board() {
    let parse = |text| {
        PenteGrammai::parse(Rules::Perimeter, text)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        parse("T/T/T/T/T/B/2B/-/-/2B t x:0,0 th:t@1"),
        "th: lists t@1, but this board threatens t@1,t@4"
    );
    assert_eq!(
        parse("T/T/T/T/T/B/2B/-/-/2B t x:0,0 th:b@1"),
        "th: lists b@1, but threats stand only against the side to move"
    );
    // Omitted, the threats follow from the board.
    let g = PenteGrammai::parse(Rules::Perimeter, "T/T/T/T/T/B/2B/-/-/2B t x:0,0").unwrap();
    assert_eq!(position(&g), TWO_THREATS);
}

// ---- Notation ----

#[test]
fn positions_round_trip_in_canonical_form() {
    for (rules, text) in [
        (Rules::Schaedler, SCHAEDLER_START),
        (Rules::Schaedler, "-/T/1T3B/-/T/B/T/B/T/- b"),
        (Rules::Kidd, KIDD_START),
        (Rules::Kidd, "T/-/-/-/T/B/T/-/-/- b r:1,3 h:1,1"),
        (Rules::Perimeter, PERIMETER_START),
        (Rules::Perimeter, TWO_THREATS),
    ] {
        assert_eq!(Position::parse(rules, text).unwrap().to_string(), text);
    }
    // Lenient input: lower-case colours, any order of colours and fields.
    let lenient = Position::parse(Rules::Kidd, "t/-/-/-/t/b/t/-/-/- B h:1,1 r:1,3").unwrap();
    assert_eq!(lenient.to_string(), "T/-/-/-/T/B/T/-/-/- b r:1,3 h:1,1");
}

#[test]
fn moves_round_trip_and_the_die_may_be_omitted() {
    for text in ["5:2-7", "4:R-0", "6:X-3", "2:H-9", "5:pass"] {
        let written = MoveText::parse(text).unwrap();
        assert_eq!(written.to_string(), text);
    }
    assert_eq!(MoveText::parse(" r - 0 ").unwrap().to_string(), "R-0");
    assert_eq!(MoveText::parse("PASS").unwrap().to_string(), "pass");
}

#[test]
fn bad_text_gets_a_clear_error() {
    let position = |rules, text| Position::parse(rules, text).unwrap_err().to_string();
    assert_eq!(
        position(Rules::Schaedler, "T/T/T/T/T/B/B/B/B t"),
        "the board lists the ten points 0 to 9 separated by '/'; this one has 9"
    );
    assert_eq!(
        position(Rules::Schaedler, "T/T/T/T/T/B/B/B/B/- t"),
        "Black has 4 counters here; each side has 5"
    );
    assert_eq!(
        position(Rules::Schaedler, "2T/-/T/T/T/B/B/B/B/B t"),
        "point 0 holds 2 counters; in Schädler's rules an ordinary point holds one"
    );
    assert_eq!(
        position(Rules::Schaedler, "T/T/T/T/T/B/B/B/B/B t x:0,0"),
        "Schädler's rules positions have no x: field"
    );
    assert_eq!(
        position(Rules::Kidd, "-/-/-/-/-/-/-/T/-/- t r:4,5 h:0,0"),
        "Terracotta's counters on its goal 7 are on the holy line: count them in h:"
    );
    assert!(position(Rules::Kidd, "TB/-/-/-/-/-/-/-/-/- t r:4,4 h:0,0").contains("both colours"));
    assert!(position(Rules::Kidd, "Q/-/-/-/-/-/-/-/-/- t").contains("'Q' is not a count"));
    assert!(
        MoveText::parse("7:1-2")
            .unwrap_err()
            .to_string()
            .contains("a die shows 1 to 6")
    );
    assert!(MoveText::parse("1-10").is_err());
    assert!(MoveText::parse(&"1".repeat(600)).is_err());
}

// ---- Dice and perft ----

#[test]
fn a_seeded_game_rolls_the_dice_of_rules_section_4() {
    // The golden dice of the counting seed with entropies "alice" and "bob" (dice.rs).
    let seed = ServerSeed(std::array::from_fn(|i| i as u8)).game_seed("alice", "bob");
    let mut g = PenteGrammai::new(Rules::Kidd, Player::First);
    let mut rolled = Vec::new();
    let mut moves = Vec::new();
    for k in 0..20 {
        g.roll(&[seed.die(k)]).unwrap();
        rolled.push(g.die().unwrap());
        moves.clear();
        g.legal_moves(&mut moves);
        g.play(moves[0]).unwrap();
    }
    assert_eq!(
        rolled,
        [3, 2, 4, 4, 1, 4, 5, 3, 3, 2, 3, 5, 6, 3, 5, 1, 2, 1, 3, 4]
    );
}

#[test]
fn perft_from_the_start_positions_matches_the_golden_counts() {
    // One die sequence for every path: the k-th roll along any path shows DICE[k].
    const DICE: [u8; 4] = [3, 5, 1, 6];
    let expected = [
        (Rules::Schaedler, [1, 2, 3, 6]),
        (Rules::Kidd, [1, 1, 2, 4]),
        // Depth 2 is 22, not 25: three of Terracotta's five moves pin one Black counter.
        (Rules::Perimeter, [5, 22, 91, 568]),
    ];
    for (rules, counts) in expected {
        let start = PenteGrammai::new(rules, Player::First);
        for (depth, &count) in (1..=4).zip(&counts) {
            assert_eq!(
                perft_with_dice(&start, depth, &DICE),
                Ok(count),
                "{rules:?} depth {depth}"
            );
        }
    }
    let start = PenteGrammai::new(Rules::Kidd, Player::First);
    assert_eq!(
        perft_with_dice(&start, 3, &[1, 2]),
        Err(RollError::TooFewDice { given: 2 })
    );
}
