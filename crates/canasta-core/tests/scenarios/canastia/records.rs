//! Hand-made Canastia records (`docs/record-format.md`) in
//! `tests/data/records/canastia*.jsonl`, with `first` on the deal lines.
//! Every record there is also replayed by
//! `records::every_record_replays_and_hand_ends_agree`. Each file is the
//! scenario written here; `CANASTA_WRITE_RECORDS=1` rewrites them.

use super::*;
use crate::common::{record, same_as_file};
use canasta_core::Seat;
use canasta_core::record::{RecordErrorKind, check_record, write};
use canasta_core::{DealError, HandEndReason};

fn seat_actions(seat: usize, actions: Vec<String>) -> Vec<(usize, String)> {
    actions.into_iter().map(|a| (seat, a)).collect()
}

/// S004: the dealer itself plays first (`first` = dealer) and goes out on
/// the opening turn with one closed canasta, melding out.
#[test]
fn record_two_players_dealer_first_goes_out_concealed() {
    let rules = canastia(2);
    let group = "KS KS KH KH KD";
    let text = record(
        &rules,
        &[(
            concealed_spec(2, 0, 0, group),
            seat_actions(0, concealed_actions(group)),
        )],
    );
    assert!(text.lines().nth(1).unwrap().contains("\"first\":0"));
    same_as_file("canastia2_dealer_first_concealed.jsonl", &text);
    let check = check_record(&text);
    let h = &check.games[0].hands[0];
    assert_eq!((h.reason, h.seat), (HandEndReason::Out, Some(Seat::new(0))));
    assert_eq!(h.totals[0], 32);
}

/// S004: three hands of three players, a different `first` each time,
/// seat 0 going out concealed every hand; it reaches exactly 100 and wins
/// (research §6.1: the match to 100).
#[test]
fn record_three_players_match_to_100() {
    let rules = canastia(3);
    let hands: Vec<_> = [
        (0, 0, "AS AS AC AC 2S"),
        (1, 0, "AS AS AC 2S 2C"),
        (2, 0, "KS KS KH KH KD"),
    ]
    .into_iter()
    .map(|(dealer, first, group)| {
        (
            concealed_spec(3, dealer, first, group),
            seat_actions(first, concealed_actions(group)),
        )
    })
    .collect();
    let text = record(&rules, &hands);
    same_as_file("canastia3_match_to_100.jsonl", &text);
    let check = check_record(&text);
    let r = &check.games[0];
    assert_eq!(r.hands.len(), 3);
    assert_eq!(r.hands[2].totals[0], 100);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with(r#"{"game_end":{"totals":[100,"#), "{last}");
    assert!(last.ends_with(r#""winner":0}}"#), "{last}");
}

/// Record spec "Deal": `first` is refused where the preset starts left of
/// the dealer (classic), with the line of the deal.
#[test]
fn a_deal_line_with_first_is_rejected_in_classic() {
    let spec = DealSpec::classic(4, 0);
    let text = [
        write::header(&classic(4), None),
        write::deal_with_first(&spec.deck(), Seat::new(0), Some(Seat::new(3))),
    ]
    .join("\n");
    let err = check_record(&text).error.expect("rejected");
    assert_eq!(err.line, 2);
    assert_eq!(
        err.kind,
        RecordErrorKind::Deal(DealError::BadFirst { first: 3 })
    );
}
