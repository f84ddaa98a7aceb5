//! Hand-made Canastone records (`docs/record-format.md`), in
//! `tests/data/records/canastone*.jsonl`. Every record there is also
//! replayed by `records::every_record_replays_and_hand_ends_agree`.

use crate::common::*;
use canasta_core::Seat;
use canasta_core::record::{GameReport, RecordErrorKind, check_record};
use canasta_core::{GameState, HandEndReason, Phase};

fn text(name: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn replay(name: &str) -> GameReport {
    let check = check_record(&text(name));
    if let Some(e) = check.error {
        panic!("{name}: {e}");
    }
    assert_eq!(check.games.len(), 1);
    let r = check.games.into_iter().next().unwrap();
    assert!(r.mismatches.is_empty(), "{name}: {:?}", r.mismatches);
    r
}

fn hands_value(g: &GameState, seats: &[usize]) -> i32 {
    seats
        .iter()
        .map(|&s| hand_value(g.hand(Seat::new(s))))
        .sum()
}

/// Record spec "Deal": a deal the rules annul (P-CNE: JK 3S 2H turned up)
/// is followed directly by the next deal. The hand is the standard closing
/// turn: team 1 scores 190 + 800 + 300 - 75; team 0 never opened.
#[test]
fn record_annulled_deal_then_a_closing_hand() {
    let r = replay("canastone4_annulled_deal_then_closing.jsonl");
    assert_eq!(r.hands.len(), 1);
    let s = r.state.as_ref().unwrap();
    assert_eq!(s.phase(), Phase::HandOver);
    let h = &r.hands[0];
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    let t0 = -2 * hands_value(s, &[0, 2]);
    assert_eq!(all_items(h, 1), (190, -75, 800, 0, 300, 0, 1215));
    assert_eq!(h.totals, vec![t0, 1215]);
}

/// Record spec "Deal": no action may follow an annulled deal; the next line
/// must be a deal.
#[test]
fn an_action_after_an_annulled_deal_is_rejected() {
    let all = text("canastone4_annulled_deal_then_closing.jsonl");
    let mut lines: Vec<&str> = all.lines().take(2).collect();
    lines.push(r#"{"seat": 1, "action": "draw"}"#);
    let err = check_record(&lines.join("\n")).error.expect("rejected");
    assert_eq!(err.line, 3);
    assert_eq!(err.kind, RecordErrorKind::ActionBeforeDeal);
}

/// P-CNE "Six players", asking: seat 1 asks seat 3 on its second turn, is
/// told yes, and closes. Team 1 (seats 1, 3, 5): kings 80, fives 50, queens
/// 30, nines 40; 800 canastas; 300.
#[test]
fn record_six_players_ask_yes_and_close() {
    let r = replay("canastone6_ask_yes_and_close.jsonl");
    let s = r.state.as_ref().unwrap();
    assert_eq!(s.players(), 6);
    let h = &r.hands[0];
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(1))));
    let t1 = -hands_value(s, &[3, 5]);
    assert_eq!(all_items(h, 1), (200, t1, 800, 0, 300, 0, 1300 + t1));
    let t0 = -2 * hands_value(s, &[0, 2, 4]);
    assert_eq!(all_items(h, 0), (0, t0, 0, 0, 0, 0, t0));
}

/// P-CNE "End of the play": the stock runs out (81 cards after the deal,
/// one left at the start of a turn). No closing bonus; team 0 never opened
/// and holds six red threes: -2400.
#[test]
fn record_stock_runs_out() {
    let r = replay("canastone4_stock_runs_out.jsonl");
    let s = r.state.as_ref().unwrap();
    assert_eq!(s.stock_len(), 1);
    let h = &r.hands[0];
    assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
    let t1 = -hands_value(s, &[1, 3]);
    assert_eq!(all_items(h, 1), (50, t1, 0, 0, 0, 0, 50 + t1));
    let t0 = -2 * hands_value(s, &[0, 2]);
    assert_eq!(all_items(h, 0), (0, t0, 0, -2400, 0, 0, t0 - 2400));
}

/// P-CNE: the stock card that goes with the pile is laid out and replaced
/// if it is a red three, and a red three among the last cards drawn ends
/// play at once. After forty turns the stock holds only red threes; seat 2
/// takes the one-card pile (QD) with QS QH: the card that comes with it is
/// a red three, then the next, until none is left, and the hand ends, as a
/// draw from that stock would end it. (It once went on with seat 2 holding
/// 9S and no legal action: the judge and the generator count the stock
/// card that comes with the pile.)
#[test]
fn record_a_red_three_with_the_pile_from_the_last_stock_ends_play() {
    let r = replay("canastone4_pile_card_red_three_ends_play.jsonl");
    let s = r.state.as_ref().unwrap();
    assert_eq!((s.phase(), s.stock_len()), (Phase::HandOver, 0));
    let h = &r.hands[0];
    assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
    assert_eq!(
        s.red_threes(Seat::new(2)),
        6,
        "every red three went to the taker"
    );
    assert!(s.hand(Seat::new(2)).count("9S".parse().unwrap()) == 1);
}
