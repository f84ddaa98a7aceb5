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

/// P-PEN: with the stock gone, play goes on while players "can and will"
/// take the discard; one who wants to draw ends the hand. A hand-made
/// record (an audit's): the stock runs out, and seat 1, whose side has a
/// meld of aces, draws rather than take the pile topped by AC: the hand
/// ends (reason `stock`, no going-out bonus). Classic's rule, that such a
/// pile must be taken (P-CAN), is the field `empty_stock_forces_pile`.
#[test]
fn record_a_player_who_would_rather_draw_ends_play() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records/pennies6_empty_stock_draw_ends_play.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let check = canasta_core::record::check_record(&text);
    assert!(check.error.is_none(), "{:?}", check.error);
    let game = &check.games[0];
    let h = &game.hands[0];
    assert_eq!(
        (h.reason, h.seat),
        (canasta_core::HandEndReason::Stock, None)
    );
    let s = game.state.as_ref().unwrap();
    assert_eq!(s.stock_len(), 0);
    assert_eq!(s.pile_top(), Some("AC".parse().unwrap()), "the pile stayed");
    assert!(h.teams.iter().all(|t| t.going_out == 0));
    // Under Classic's rule the same draw is refused at the last line.
    let forced = text.replacen(
        r#""options": {}"#,
        r#""options": {"empty_stock_forces_pile": true}"#,
        1,
    );
    let err = canasta_core::record::check_record(&forced)
        .error
        .expect("the draw is refused");
    assert_eq!(err.line, text.lines().count());
    assert!(err.to_string().contains("must take"), "{err}");
}
