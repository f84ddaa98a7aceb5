//! Hand-made Pennies from Heaven records (`docs/record-format.md`)
//! in `tests/data/records/pennies*.jsonl`: the deal line holds the feet
//! (step 2 of the deal order). Every record there is also replayed by
//! `records::every_record_replays_and_hand_ends_agree`; each file is the
//! scenario written here (`CANASTA_WRITE_RECORDS=1` rewrites them).

use super::going_out::GOING_OUT;
use super::*;
use crate::common::{record, same_as_file};

fn seat_actions(seat: usize, actions: &[&str]) -> Vec<(usize, String)> {
    actions.iter().map(|a| (seat, a.to_string())).collect()
}

/// The standard going-out line of `going_out.rs` as a record: a sevens
/// canasta and natural kings on the first turn, the foot after its
/// discard, a round of discards freezing the pile, then the pile, a mixed
/// canasta of queens, a wild canasta and three nines, out by discarding 4C.
#[test]
fn record_going_out_with_four_kinds() {
    let mut actions = seat_actions(
        1,
        &[
            "draw",
            "meld 7S 7S 7H 7H 7D 7D 7C / KS KS KH KH KD KD KC",
            "discard 4C",
        ],
    );
    for (seat, d) in [(2, "2S"), (3, "2H"), (4, "JK"), (5, "QD"), (0, "QH")] {
        actions.extend(seat_actions(seat, &["draw", &format!("discard {d}")]));
    }
    actions.extend(seat_actions(1, &GOING_OUT));
    let text = record(&pennies(), &[(sevens_and_kings(), actions)]);
    same_as_file("pennies6_four_kinds_out.jsonl", &text);
    assert!(text.contains(r#""reason":"out""#));
}

/// P-PEN's blocked end as a record: seat 1 melds two canastas and is left
/// with a seven it may not discard; the hand ends with reason `blocked`.
#[test]
fn record_blocked_by_a_seven() {
    let spec = DealSpec::new(pennies(), 0)
        .hand(1, "7S 7S 7H 7H 7D 7D 7C KS KS KH KH KD 7H")
        .upcards("9C")
        .stock("KD KC");
    let actions = seat_actions(
        1,
        &["draw", "meld 7S 7S 7H 7H 7D 7D 7C / KS KS KH KH KD KD KC"],
    );
    let text = record(&pennies(), &[(spec, actions)]);
    same_as_file("pennies6_blocked_by_a_seven.jsonl", &text);
    assert!(text.contains(r#""reason":"blocked""#));
}
