//! Hand-made game records (`docs/record-format.md`).

use canasta_core::Phase;
use canasta_core::record::{GameReport, RecordError, check_record};
use canasta_core::{Seat, Side};
use std::path::PathBuf;

/// `check_record` as a `Result`: the games, or the first bad line.
fn checked(text: &str) -> Result<Vec<GameReport>, RecordError> {
    let check = check_record(text);
    match check.error {
        Some(e) => Err(e),
        None => Ok(check.games),
    }
}

fn records_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/records")
}

/// Every record in `tests/data/records`, by file name.
fn records() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(records_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The text of the record `name`.
fn record_text(name: &str) -> String {
    records()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no record {name}"))
        .1
}

fn replay(name: &str) -> Vec<GameReport> {
    checked(&record_text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Record spec: every hand-made record replays (every action legal); the
/// `hand_end` lines agree with the engine except in the `mismatch_*` files,
/// which must be reported.
#[test]
fn every_record_replays_and_hand_ends_agree() {
    let all = records();
    assert!(all.len() >= 6, "{} records", all.len());
    for (name, text) in &all {
        let reports = checked(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(reports.len(), 1, "{name}: one game per file");
        let mismatches = &reports[0].mismatches;
        if name.starts_with("mismatch_") {
            assert!(
                !mismatches.is_empty(),
                "{name}: the wrong hand_end must be reported"
            );
        } else {
            assert!(mismatches.is_empty(), "{name}: {mismatches:?}");
        }
    }
}

/// P-CAN: the concealed going out with four red threes (opening.rs, hand 1).
#[test]
fn record_concealed_out_scores_1555() {
    let r = &replay("classic4_concealed_out.jsonl")[0];
    assert_eq!(r.hands.len(), 1);
    assert_eq!(r.hands[0].totals, vec![-200, 1555]);
    assert!(r.mismatches.is_empty());
    let s = r.state.as_ref().expect("the game is not over");
    assert_eq!(s.phase(), Phase::HandOver);
}

/// A hand_end that scores the concealed going out as a plain one (100, not
/// 200) is reported item by item, on the hand_end line.
#[test]
fn record_with_a_wrong_hand_end_is_reported() {
    let r = &replay("mismatch_classic4_concealed_scored_as_plain.jsonl")[0];
    assert_eq!(r.hands[0].teams[1].going_out, 200);
    let text: Vec<&str> = r.mismatches.iter().map(|m| m.message.as_str()).collect();
    assert!(
        r.mismatches.iter().all(|m| m.line == 6),
        "{:?}",
        r.mismatches
    );
    assert!(text.iter().any(|m| m.contains("going_out")), "{text:?}");
    assert!(text.iter().any(|m| m.contains("total")), "{text:?}");
    assert!(text.iter().any(|m| m.contains("totals")), "{text:?}");
}

/// Record spec: a record may stop in the middle of a hand; the replay gives
/// the position reached.
#[test]
fn record_that_stops_mid_hand_gives_the_position() {
    let r = &replay("classic4_stops_mid_hand.jsonl")[0];
    assert!(r.hands.is_empty());
    assert_eq!(r.winner, None);
    let s = r.state.as_ref().unwrap();
    assert_eq!((s.phase(), s.to_act()), (Phase::Play, Seat::new(3)));
    let melds: Vec<String> = s
        .melds(Side::new(1))
        .iter()
        .map(|m| m.cards.to_string())
        .collect();
    assert_eq!(melds, vec!["AS AS AH", "KS KS KH", "9S 9H 9D", "QS QH QD"]);
    assert!(s.pile().is_empty());
    assert!(
        s.describe().contains("seat 3 to meld, add or discard"),
        "{}",
        s.describe()
    );
}

/// P-CAN §three: the three-player record scores each player, the partners
/// sharing their melds but not their red threes.
#[test]
fn record_three_players_scores_each_player() {
    let r = &replay("classic3_partnership.jsonl")[0];
    assert_eq!(r.hands[0].totals, vec![0, 825, 925]);
    let s = r.state.as_ref().unwrap();
    assert_eq!(s.lone_hand(), Some(Seat::new(0)));
}

/// A record that breaks a rule is rejected at its line with the reason: here
/// a meld before the draw (P-CAN: a turn starts by drawing or taking the pile).
#[test]
fn record_with_an_illegal_action_is_rejected_at_its_line() {
    let text = record_text("classic2_two_canastas_concealed.jsonl");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.truncate(2);
    lines.push(r#"{"seat": 1, "action": "meld KS KS KH"}"#);
    let err = checked(&lines.join("\n")).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(
        err.to_string().contains("draw (or take the pile) first"),
        "{err}"
    );
}

/// Record spec ("a variant may add its own [breakdown keys], as long as
/// they add up to `total`"): a key this variant does not score agrees when
/// it is zero, and is reported, by name, when it is not.
#[test]
fn a_breakdown_key_the_variant_does_not_score_agrees_only_at_zero() {
    let text = record_text("classic4_concealed_out.jsonl");
    let with = |foot: i32| {
        text.replace(
            "\"melded\": 110,",
            &format!("\"foot\": {foot}, \"melded\": 110,"),
        )
    };
    let zero = checked(&with(0)).unwrap();
    assert!(zero[0].mismatches.is_empty(), "{:?}", zero[0].mismatches);
    let fifty = checked(&with(50)).unwrap();
    let text: Vec<&str> = fifty[0]
        .mismatches
        .iter()
        .map(|m| m.message.as_str())
        .collect();
    assert_eq!(
        text,
        ["teams[1].foot: record says 50, the engine has no such item"]
    );
    // Only a team's score items: a `seat` for a hand no one went out of,
    // or an invented key, disagrees even at 0.
    let stock = record_text("canastone4_stock_runs_out.jsonl");
    for extra in [r#""seat":0,"#, r#""went_out":0,"#] {
        let changed = stock.replace(
            r#""reason":"stock","#,
            &format!(r#""reason":"stock",{extra}"#),
        );
        assert_ne!(changed, stock);
        let report = &checked(&changed).unwrap()[0];
        assert_eq!(
            report.mismatches.len(),
            1,
            "{extra} {:?}",
            report.mismatches
        );
    }
}

/// Record spec: the breakdown keys are "recommended", so another writer
/// may file a bonus under another key. Where a team's items differ but its
/// total agrees, each item says so: here the concealed bonus (200 in all,
/// P-CAN) written as 100 going out and 100 other.
#[test]
fn a_breakdown_split_otherwise_with_the_same_total_says_the_total_agrees() {
    let text = record_text("classic4_concealed_out.jsonl");
    let split = text.replace(
        "\"going_out\": 200, \"other\": 0",
        "\"going_out\": 100, \"other\": 100",
    );
    assert_ne!(split, text);
    let report = &checked(&split).unwrap()[0];
    let text: Vec<&str> = report
        .mismatches
        .iter()
        .map(|m| m.message.as_str())
        .collect();
    let agrees = " (teams[1].total agrees: only the split between breakdown items differs)";
    assert_eq!(
        text,
        [
            format!("teams[1].going_out: record says 100, the engine computes 200{agrees}"),
            format!("teams[1].other: record says 100, the engine computes 0{agrees}"),
        ]
    );
}

/// Record spec (`game_end`): a `game_end` where the engine's game goes on
/// is reported with the reason it goes on, not a fixed sentence.
#[test]
fn a_game_end_before_the_game_is_over_says_why_it_goes_on() {
    let reason = |name: &str, line: &str| {
        let text = record_text(name);
        let report = &checked(&format!("{}{line}\n", text)).unwrap()[0];
        assert_eq!(report.mismatches.len(), 1, "{:?}", report.mismatches);
        report.mismatches[0].message.clone()
    };
    let between_hands = reason(
        "classic4_concealed_out.jsonl",
        r#"{"game_end": {"totals": [-200, 1555], "winner": 1}}"#,
    );
    assert_eq!(
        between_hands,
        "game_end given, but the game is not over: no team has reached the target (5000)"
    );
    let mid_hand = reason(
        "classic4_stops_mid_hand.jsonl",
        r#"{"game_end": {"totals": [0, 0], "winner": null}}"#,
    );
    assert!(
        mid_hand.starts_with("game_end given, but the game is not over: the hand is still in play"),
        "{mid_hand}"
    );
    // A house rule's target of 100 and P-PEN's tie rule on Classic: the
    // first hand leaves both teams at 680 (heuristic self-play, `canasta
    // sim -o target=100 -o tie_plays_on=true --seed 2`, game 1655).
    let tied = reason(
        "classic4_tie_past_the_target_plays_on.jsonl",
        r#"{"game_end": {"totals": [680, 680], "winner": null}}"#,
    );
    assert_eq!(
        tied,
        "game_end given, but the game is not over: teams 0 and 1 are tied for the lead at 680, \
         past the target (100), and these rules play another hand to break a tie"
    );
}

/// P-PEN, S002 ("you are not allowed to go out by discarding a 7"): with
/// a sevens canasta on both sides, seat 1 may discard a seven, but not as
/// its last card, so a meld that would leave only 7C is refused, and the
/// refusal names that clause alone (a referee's record; the old words
/// recited every clause of the sevens rule).
#[test]
fn a_seven_left_as_the_last_card_is_refused_by_the_last_discard_rule() {
    let text = record_text("pennies6_a_seven_is_never_the_last_discard.jsonl");
    // The position names each canasta as the variant scores it.
    let position = replay("pennies6_a_seven_is_never_the_last_discard.jsonl")[0]
        .state
        .as_ref()
        .unwrap()
        .describe();
    for name in ["(sevens canasta)", "(wild canasta)", "(mixed canasta)"] {
        assert!(position.contains(name), "{name}: {position}");
    }
    let last =
        r#"{"seat": 1, "action": "meld AS AH AD AC / 9S 9H 9D / 8S 8H 8D / TS TH TD / JS JH JD"}"#;
    let e = checked(&format!("{text}{last}\n")).unwrap_err();
    assert_eq!(e.line, 21);
    assert!(
        e.to_string().ends_with(
            "this would leave you only 7C, which could not be your last discard: \
             7C may never be the last discard"
        ),
        "{e}"
    );
}

/// P-CAN, P-CNE ("the turn to deal passes to the left after each hand";
/// a void deal is "dealt again by the same dealer"): a record's deal by
/// another seat is refused at its line, naming the seat whose deal it is
/// (a referee's records were accepted with the deal out of turn).
#[test]
fn a_deal_out_of_turn_is_refused() {
    let out_of_turn = |name: &str, line: usize, from: &str, to: &str| {
        let text = record_text(name);
        let lines: Vec<&str> = text.lines().collect();
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        edited[line - 1] = lines[line - 1].replace(from, to);
        let e = checked(&(edited.join("\n") + "\n")).unwrap_err();
        assert_eq!(e.line, line, "{name}: {e}");
        e.to_string()
    };
    // Hand 2 of the concealed-out game, dealt again by seat 0: seat 1's deal.
    let text = record_text("classic4_concealed_out.jsonl");
    let deal = text.lines().nth(1).unwrap();
    let e = checked(&format!("{text}{deal}\n")).unwrap_err();
    assert!(
        e.to_string()
            .contains("seat 1 deals this hand, not seat 0: the deal passes to the left"),
        "{e}"
    );
    // The same line by seat 1 is the next hand.
    let next = deal.replace("\"dealer\": 0", "\"dealer\": 1");
    assert_ne!(next, deal);
    assert!(checked(&format!("{text}{next}\n")).is_ok());
    // Canastone's void deal, dealt again by seat 1 instead of seat 0.
    let annulled = out_of_turn(
        "canastone4_annulled_deal_then_closing.jsonl",
        3,
        "\"dealer\":0",
        "\"dealer\":1",
    );
    assert!(
        annulled.contains("seat 0 deals this hand, not seat 1"),
        "{annulled}"
    );
}

/// An action after the hand ended is refused by how it ended, not as an
/// action before any deal: in Canastone play can end on the card that
/// goes with the pile (P-CNE), where a writer may expect the turn to go on.
#[test]
fn an_action_after_the_hand_ended_says_how_it_ended() {
    let after_end = |name: &str, line: &str| {
        let mut lines: Vec<String> = record_text(name).lines().map(String::from).collect();
        let at = lines
            .iter()
            .position(|l| l.contains("hand_end"))
            .unwrap_or(lines.len());
        lines.insert(at, line.to_string());
        let e = checked(&(lines.join("\n") + "\n")).unwrap_err();
        assert_eq!(e.line, at + 1, "{name}: {e}");
        e.to_string()
    };
    let stock = after_end(
        "canastone4_pile_card_red_three_ends_play.jsonl",
        r#"{"action": "discard QD", "seat": 2}"#,
    );
    assert!(
        stock.contains("after the hand ended (play ended at the stock: too few cards for the next draw, or a red three among the last cards drawn)"),
        "{stock}"
    );
    let out = after_end(
        "classic4_add_and_go_out.jsonl",
        r#"{"seat": 2, "action": "draw"}"#,
    );
    assert!(
        out.contains("after the hand ended (seat 1 went out)"),
        "{out}"
    );
}
