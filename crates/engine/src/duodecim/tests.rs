//! The rules of docs/RULES.md §3, one test each, positions written in the notation.

use super::*;

const START: &str = ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,15 o:0,0 dice:[] bonus:[]";

fn game(position: &str) -> Duodecim {
    Duodecim::parse(position).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn legal(game: &Duodecim) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names
}

fn play(game: &mut Duodecim, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .unwrap_or_else(|e| panic!("{e}"));
    game.play(mv).expect("checked");
}

fn refusal(game: &Duodecim, text: &str) -> String {
    game.parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .expect_err("illegal")
        .to_string()
}

fn text(game: &Duodecim) -> String {
    game.position().to_string()
}

#[test]
fn french_example_one_entries_and_a_hit_on_entry() {
    let mut g = Duodecim::new(Player::First);
    assert_eq!(text(&g), START);
    assert_eq!(g.phase(), Phase::AwaitingRoll);
    g.roll(&[1, 3, 4]).unwrap();
    assert_eq!(legal(&g), ["1:R-M1", "3:R-M3", "4:R-M4"]);
    for mv in ["1:R-M1", "3:R-M3", "4:R-M4"] {
        play(&mut g, mv);
    }
    assert_eq!(g.to_move(), Player::Second);
    g.roll(&[2, 3, 5]).unwrap();
    for mv in ["2:R-M2", "3:R-M3", "5:R-M5"] {
        play(&mut g, mv);
    }
    assert_eq!(
        text(&g),
        ".,.,.,.,.,.,.,.,.,.,.,./1w,1b,1b,1w,1b,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:13,12 o:0,0 dice:[] bonus:[]"
    );
    assert_eq!(g.position().board.reserve(Player::First), 13);
}

#[test]
fn french_example_two_blocked_entry_and_the_bonus_die() {
    let mut g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,2b,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,13 o:0,0 dice:[4,1,2] bonus:[]",
    );
    assert_eq!(legal(&g), ["1:R-M1", "2:R-M2"]);
    assert_eq!(
        refusal(&g, "4:R-M4"),
        "4:R-M4: M4 holds two or more enemy pieces"
    );
    play(&mut g, "1:R-M1");
    play(&mut g, "2:R-M2");
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.position().bonus.faces(), [4]);
    assert!(text(&g).ends_with(" b r:13,13 o:0,0 dice:[] bonus:[4]"));
    assert_eq!(legal(&g), ["4:R-M4", "decline"]);
}

#[test]
fn a_hit_sends_the_piece_to_reserve_and_forces_entering_first() {
    let entering = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,1w,.,.,.,1b,.,.,5w,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:9,14 o:0,0 dice:[2] bonus:[]",
    );
    assert_eq!(legal(&entering), ["2:R-M2"]);
    assert_eq!(
        refusal(&entering, "2:M7-M9"),
        "2:M7-M9: a piece in reserve must enter before any other moves"
    );
    let mut g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,1b,1w,.,.,.,.,.,.,5w,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:9,0 o:0,14 dice:[1] bonus:[]",
    );
    assert_eq!(refusal(&g, "1:R-M1"), "1:R-M1: no piece is in reserve");
    play(&mut g, "1:M2-M3*");
    assert_eq!(g.position().board.reserve(Player::First), 10);
    assert_eq!(
        g.position().board.stack(Step::parse("M3").unwrap()),
        Some((Player::Second, 1))
    );
    assert_eq!(g.to_move(), Player::First);
    g.roll(&[6, 6, 6]).unwrap();
    assert_eq!(legal(&g), ["6:R-M6"]);
    assert_eq!(
        refusal(&g, "6:M10-T9"),
        "6:M10-T9: a piece in reserve must enter before any other moves"
    );
}

/// White to move with one piece on the board (in `rows`) and fourteen off, so only its moves count.
fn lone_runner(rows: [&str; 3], dice: &str) -> Duodecim {
    game(&format!(
        "{}/{}/{} w o:14,0 dice:{dice}",
        rows[0], rows[1], rows[2]
    ))
}

#[test]
fn a_die_that_makes_another_unplayable_is_not_offered() {
    // 1:M10-M11 would leave the 6 unplayable (T8 and B2 blocked); 1:T5-T4 lets the 6 follow.
    let g = game(
        ".,.,.,.,1w,.,.,2b,2b,.,.,./.,.,.,.,.,.,.,.,.,1w,.,./.,2b,.,.,.,.,.,.,.,.,.,. w r:0,9 o:13,0 dice:[1,6]",
    );
    assert_eq!(legal(&g), ["1:T5-T4"]);
    assert_eq!(
        refusal(&g, "1:M10-M11"),
        "1:M10-M11: it begins no sequence that plays as many dice as possible, then the most pips"
    );
}

#[test]
fn when_only_one_of_two_dice_can_be_played_it_is_the_larger() {
    let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
    let mut g = lone_runner([empty, "1w,.,.,.,.,2b,.,.,.,.,.,.", empty], "[2,3]");
    assert_eq!(legal(&g), ["3:M1-M4"]);
    play(&mut g, "3:M1-M4");
    // The turn ends by itself; the 2 goes to Black as a bonus die.
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.position().bonus.faces(), [2]);
}

#[test]
fn a_triple_plays_as_many_of_its_dice_as_it_can() {
    let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
    // From M1 the 5s reach M6, M11, then T9, which Black holds.
    let mut g = lone_runner(
        [
            ".,.,.,.,.,.,.,.,2b,.,.,.",
            "1w,.,.,.,.,.,.,.,.,.,.,.",
            empty,
        ],
        "[5,5,5]",
    );
    assert_eq!(legal(&g), ["5:M1-M6"]);
    play(&mut g, "5:M1-M6");
    assert_eq!(legal(&g), ["5:M6-M11"]);
    play(&mut g, "5:M6-M11");
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.position().bonus.faces(), [5]);
    // Three dice that all play are three ordinary moves: no extra roll.
    let mut g = Duodecim::new(Player::First);
    g.roll(&[2, 2, 2]).unwrap();
    assert_eq!(legal(&g), ["2:R-M2"]);
    for _ in 0..3 {
        play(&mut g, "2:R-M2");
    }
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.phase(), Phase::AwaitingRoll);
}

#[test]
fn among_the_longest_sequences_the_most_pips_win() {
    let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
    // M7 is blocked, so no sequence of all three dice exists from M1; of the pairs, 2+3 is largest.
    let mut g = lone_runner([empty, "1w,.,.,.,.,.,2b,.,.,.,.,.", empty], "[1,2,3]");
    assert_eq!(legal(&g), ["2:M1-M3", "3:M1-M4"]);
    play(&mut g, "2:M1-M3");
    assert_eq!(legal(&g), ["3:M3-M6"]);
    play(&mut g, "M3-M6");
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.position().bonus.faces(), [1]);
}

#[test]
fn bearing_off_needs_every_piece_home_and_allows_overshoot() {
    let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
    let home = game(&format!(
        "{empty}/{empty}/.,.,.,.,.,.,.,1w,.,.,.,1w w o:13,0 dice:[6,5]"
    ));
    assert_eq!(legal(&home), ["5:B12-O", "5:B8-O", "6:B12-O", "6:B8-O"]);
    // Moves inside the exit table stay legal.
    let inside = game(&format!(
        "{empty}/{empty}/.,.,.,.,.,.,.,1w,.,.,.,1w w o:13,0 dice:[2,1]"
    ));
    assert_eq!(
        legal(&inside),
        ["1:B12-O", "1:B8-B9", "2:B12-O", "2:B8-B10"]
    );
    let away = game(&format!(
        "{empty}/{empty}/1w,.,.,.,.,.,.,1w,.,.,.,. w o:13,0 dice:[6]"
    ));
    assert_eq!(legal(&away), ["6:B1-B7"]);
    assert_eq!(
        refusal(&away, "6:B8-O"),
        "6:B8-O: bearing off needs every piece on B7–B12 and none in reserve"
    );
}

#[test]
fn hit_during_bear_off_suspends_bearing_off() {
    let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
    let mut g = game(&format!(
        "{empty}/{empty}/.,.,.,.,1b,.,.,1w,.,.,.,1w b o:13,14 dice:[3]"
    ));
    play(&mut g, "3:B5-B8");
    assert_eq!(g.position().board.reserve(Player::First), 1);
    g.roll(&[6, 5, 4]).unwrap();
    assert_eq!(legal(&g), ["4:R-M4", "5:R-M5", "6:R-M6"]);
    play(&mut g, "6:R-M6");
    // The entered piece must run the whole route again: B12 may not bear off meanwhile.
    assert_eq!(legal(&g), ["4:M6-M10", "5:M6-M11"]);
    assert_eq!(
        refusal(&g, "5:B12-O"),
        "5:B12-O: bearing off needs every piece on B7–B12 and none in reserve"
    );
}

#[test]
fn bonus_dice_are_played_or_partly_declined_and_never_return() {
    let mut g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./1b,4b,2w,1b,2b,2w,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:11,7 o:0,0 dice:[] bonus:[6,1]",
    );
    assert_eq!(g.phase(), Phase::AwaitingMove);
    assert_eq!(legal(&g), ["1:R-M1", "6:R-M6", "decline"]);
    // No die of a roll may be played before the bonus dice are settled.
    assert_eq!(refusal(&g, "3:R-M3"), "3:R-M3: no 3 is left to play");
    play(&mut g, "1:R-M1");
    assert_eq!(g.position().board.reserve(Player::Second), 8);
    assert_eq!(legal(&g), ["6:R-M6", "decline"]);
    play(&mut g, "decline");
    assert_eq!(g.phase(), Phase::AwaitingRoll);
    assert_eq!(g.to_move(), Player::First);
    assert!(text(&g).ends_with(" w r:10,8 o:0,0 dice:[] bonus:[]"));
    assert_eq!(
        refusal(&g, "decline"),
        "decline: there are no bonus dice to decline"
    );
    // The declined 6 is gone: Black's next bonus holds only White's own unplayable dice.
    g.roll(&[5, 5, 5]).unwrap();
    assert_eq!(
        g.to_move(),
        Player::Second,
        "Black holds M5: no 5 can enter"
    );
    assert_eq!(g.position().bonus.faces(), [5, 5, 5]);
    assert_eq!(legal(&g), ["5:R-M5", "decline"]);
}

#[test]
fn bonus_dice_none_of_which_can_be_played_leave_only_decline() {
    let g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./1b,4b,2w,2b,2b,2w,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:11,6 o:0,0 bonus:[4,4]",
    );
    assert_eq!(legal(&g), ["decline"]);
    assert!(g.must_decline());
}

#[test]
fn the_winning_move_is_always_allowed() {
    let empty = ".,.,.,.,.,.,.,.,.,.,.,.";
    let last = format!("{empty}/{empty}/.,.,.,.,.,.,.,.,.,.,1w,. w o:14,0 dice:[1,6]");
    assert_eq!(legal(&game(&last)), ["1:B11-B12", "6:B11-O"]);
    let mut g = game(&last);
    play(&mut g, "6:B11-O");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Player::First, Termination::BorneOff))
    );
    assert!(text(&g).ends_with(" b r:0,15 o:15,0 dice:[] bonus:[]"));
    assert_eq!(
        game(&text(&g)).outcome(),
        Some(Outcome::win(Player::First, Termination::BorneOff))
    );
    assert!(legal(&g).is_empty());
    let mut g = game(&last);
    play(&mut g, "1:B11-B12");
    play(&mut g, "B12-O");
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Player::First)));
}

#[test]
fn the_safety_cap_draws_after_five_thousand_moves() {
    let mut g = Duodecim::new(Player::First);
    g.roll(&[1, 2, 3]).unwrap();
    g.moves_played = MOVE_LIMIT - 1;
    play(&mut g, "1:R-M1");
    assert_eq!(g.outcome(), Some(Outcome::draw(Termination::MoveLimit)));
    assert!(legal(&g).is_empty());
}

#[test]
fn moves_read_in_every_documented_form() {
    let g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,1w,.,.,.,.,1b,.,.,.,./.,.,.,.,.,.,.,.,.,1w,.,. w r:0,14 o:13,0 dice:[5,4,2]",
    );
    let read = |text: &str| g.parse_move(text).unwrap().unwrap().to_string();
    assert_eq!(read("5:M3-M8"), "5:M3-M8");
    assert_eq!(read("5:M3-M8*"), "5:M3-M8");
    assert_eq!(read("m3-m8"), "5:M3-M8");
    assert_eq!(read(" 2:M3-M5* "), "2:M3-M5");
    assert_eq!(read("4:M3-M7"), "4:M3-M7");
    let error = |text: &str| g.parse_move(text).unwrap_err().to_string();
    assert_eq!(error("3:M3-M8"), "3:M3-M8: a 3 takes M3 to M6");
    assert_eq!(
        error("M3-T12"),
        "M3-T12 is 10 steps along the route; a die moves a piece 1 to 6 steps forward"
    );
    assert!(error("7:M3-M10").contains("a die shows 1 to 6"));
    assert!(error("Z3-M4").contains("is not a cell"));
    assert!(error("M13-M14").contains("is not a cell"));
    assert!(error("M3").contains("is not a move"));
    let home = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,1w,.,. w o:14,0 dice:[5,1]",
    );
    assert_eq!(
        home.parse_move("B10-O").unwrap().unwrap().to_string(),
        "5:B10-O"
    );
    let both = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,1w,.,. w o:14,0 dice:[5,4]",
    );
    assert_eq!(
        both.parse_move("B10-O").unwrap_err().to_string(),
        "B10-O: both 5 and 4 bear off from B10; write the die, like 5:B10-O"
    );
    assert_eq!(MoveText::parse("DECLINE"), Ok(MoveText::Decline));
}

#[test]
fn positions_round_trip_and_malformed_ones_say_what_is_wrong() {
    for position in [
        START,
        ".,1w,.,.,.,.,.,1b,.,2w,.,./3w,3w,4w,.,.,10b,1b,.,.,1b,.,2b/.,.,1w,.,.,.,.,.,.,.,1w,. w r:0,0 o:0,0 dice:[4,2] bonus:[]",
        ".,.,.,.,.,.,.,.,.,.,.,./1b,4b,2w,1b,2b,2w,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:11,7 o:0,0 dice:[] bonus:[6]",
    ] {
        assert_eq!(text(&game(position)), position);
    }
    // Counts of one may be left out; r: follows from the pieces not on the board or off.
    let short = ".,.,.,.,.,.,.,.,.,.,.,./w,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b";
    assert_eq!(
        text(&game(short)),
        ".,.,.,.,.,.,.,.,.,.,.,./1w,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:14,15 o:0,0 dice:[] bonus:[]"
    );
    let error = |text: &str| Position::parse(text).unwrap_err().to_string();
    assert!(error(".,./.,./.,. w").contains("row T has 2 cells"));
    assert!(error(&START.replace("r:15,15", "r:15,14")).contains("Black has 14 pieces"));
    assert!(error(&START.replace(" w ", " x ")).contains("the side to move is w or b"));
    assert!(error(&START.replace("dice:[]", "dice:[1,2,3,4]")).contains("up to three dice"));
    assert!(error(&START.replace("dice:[]", "dice:[7]")).contains("up to three dice"));
    assert!(error(&START.replace("dice:[] bonus:[]", "dice:[1] bonus:[2]")).contains("never both"));
    assert!(error(&START.replace("dice:[]", "o:0,0")).contains("given twice"));
    assert!(error(&START.replacen('.', "2x", 1)).contains("T1"));
}

#[test]
fn pending_dice_none_of_which_can_be_played_end_the_turn_when_read() {
    let g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,2b,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,13 o:0,0 dice:[4,4]",
    );
    assert_eq!(g.to_move(), Player::Second);
    assert!(text(&g).ends_with(" b r:15,13 o:0,0 dice:[] bonus:[4,4]"));
}

#[test]
fn lone_pieces_within_reach_are_threatened_with_their_odds() {
    // Black must enter all three dice: the piece on M3 is hit whenever a die shows 3.
    let g =
        game(".,.,.,.,.,.,.,.,.,.,.,./.,.,1w,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:14,15");
    let threats = g.threatened(Player::First);
    assert_eq!(threats.len(), 1);
    assert_eq!(threats[0].0.to_string(), "M3");
    assert_eq!(
        threats[0].1,
        Odds {
            hits: 216 - 125,
            of: 216
        }
    );
    assert!(g.threatened(Player::Second).is_empty());
    // With one piece in reserve, the entered piece runs on: a 5 or dice summing to 5 reach M5.
    let g = game(
        ".,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,1w,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:14,1 o:0,14",
    );
    let mut expected = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                if [a, b, c, a + b, a + c, b + c, a + b + c].contains(&5) {
                    expected += 1;
                }
            }
        }
    }
    assert_eq!(
        g.threatened(Player::First),
        [(
            Step::parse("M5").unwrap(),
            Odds {
                hits: expected,
                of: 216
            }
        )]
    );
    // A stack of two is never threatened.
    let g =
        game(".,.,.,.,.,.,.,.,.,.,.,./.,.,2w,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:13,15");
    assert!(g.threatened(Player::First).is_empty());
}

#[test]
fn the_roll_outcomes_cover_the_216_throws() {
    let g = Duodecim::new(Player::Second);
    let outcomes = g.roll_outcomes();
    assert_eq!(outcomes.len(), 56);
    assert_eq!(outcomes.iter().map(|o| o.1).sum::<u32>(), 216);
    assert!(outcomes.iter().all(|(d, _)| d.is_sorted() && d.len() == 3));
    let mut g = g;
    assert_eq!(
        g.roll(&[1, 2]),
        Err(RollError::WrongCount {
            expected: 3,
            given: 2
        })
    );
    assert_eq!(g.roll(&[1, 2, 7]), Err(RollError::BadFace(7)));
    g.roll(&[1, 2, 3]).unwrap();
    assert_eq!(g.roll(&[1, 2, 3]), Err(RollError::NotAwaited));
}

#[test]
fn perft_counts_match_the_golden_values() {
    use crate::perft::perft_with_dice;
    // Each roll met along a path takes the next three dice; rolls are not plies.
    let dice = [3, 4, 1, 2, 3, 5, 6, 6, 1, 5, 2, 4, 1, 1, 1];
    let start = Duodecim::new(Player::First);
    let counts: Vec<u64> = (1..=9)
        .map(|depth| perft_with_dice(&start, depth, &dice).unwrap())
        .collect();
    assert_eq!(counts, [3, 6, 6, 18, 36, 36, 72, 108, 108]);
    let middle = game(
        ".,1w,.,.,.,.,.,1b,.,2w,.,./3w,3w,4w,.,.,10b,1b,.,.,1b,.,2b/.,.,1w,.,.,.,.,.,.,.,1w,. w r:0,0 o:0,0 dice:[4,2] bonus:[]",
    );
    let counts: Vec<u64> = (1..=4)
        .map(|depth| perft_with_dice(&middle, depth, &[6, 5, 1, 2, 2, 3]).unwrap())
        .collect();
    assert_eq!(counts, [11, 65, 645, 6280]);
    assert_eq!(
        perft_with_dice(&start, 5, &[1, 2, 3]),
        Err(RollError::TooFewDice { given: 3 })
    );
}

#[test]
fn any_game_rolls_lists_dice_and_plays_the_forced_decline_by_itself() {
    use crate::{AnyGame, Variant};
    let variant = Variant::DuodecimScripta;
    let mut g = AnyGame::new(variant, Player::Second);
    assert_eq!(
        (g.to_move(), g.phase()),
        (Player::Second, Phase::AwaitingRoll)
    );
    g.roll(&[4, 1, 2]).unwrap();
    assert_eq!(g.dice(), [4, 1, 2]);
    assert_eq!(g.roll_outside_notation(), None);
    g.play_text("1:R-M1").unwrap();
    assert_eq!(g.dice(), [4, 2]);
    // A `dice` argument rolls for a position that awaits its roll.
    let rolled = AnyGame::from_position(variant, START, Some(&[6, 6, 5])).unwrap();
    assert!(
        rolled
            .position()
            .ends_with(" w r:15,15 o:0,0 dice:[6,6,5] bonus:[]")
    );
    assert_eq!(rolled.automatic_move(), None);
    let mut stuck = AnyGame::from_position(
        variant,
        ".,.,.,.,.,.,.,.,.,.,.,./1b,4b,2w,2b,2b,2w,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:11,6 o:0,0 bonus:[4,4]",
        None,
    )
    .unwrap();
    let decline = stuck.automatic_move().expect("only decline is left");
    assert_eq!(decline.to_string(), "decline");
    stuck.play(decline).unwrap();
    assert_eq!(stuck.phase(), Phase::AwaitingRoll);
    assert_eq!(stuck.automatic_move(), None);
}
