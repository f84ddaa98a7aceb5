//! Going out, concealed going out, black threes, asking partner (P-CAN,
//! S001, S002, BRIT; research §1.1).

use crate::common::*;
use canasta_core::Seat;
use canasta_core::{GameState, HandEndReason, IllegalReason, Phase};

/// Dealer 0. Seat 1 opens on its first turn with a natural canasta of kings,
/// then holds `rest` (4 cards); seats 2, 3, 0 draw and discard what they
/// drew (seat 2 discards 4H, seat 3 9C, seat 0 QC when they hold them);
/// seat 1 then draws `second` on its second turn.
fn canasta_then_second_turn(rest: &str, second: &str) -> GameState {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, &format!("KS KS KH KH KD KD KC {rest}"))
        .hand(2, "4H")
        .hand(3, "9C")
        .hand(0, "QC")
        .upcards("4D")
        .stock(&format!("4C 9S 9S 9D {second}"))
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld KS KS KH KH KD KD KC", "discard 4C"],
    );
    assert_eq!(g.hand(Seat::new(1)), &counts(rest));
    draw_discard(&mut g, 2, "4H");
    draw_discard(&mut g, 3, "9C");
    draw_discard(&mut g, 0, "QC");
    g
}

/// P-CAN, S001, S002, BRIT: with a canasta, a player may meld all but one
/// card and discard it. Going out scores 100 (not concealed: the player had
/// melded before this turn).
#[test]
fn meld_all_but_one_and_discard_to_go_out() {
    let mut g = canasta_then_second_turn("QS QS QH 9H", "QD");
    play(&mut g, 1, "draw");
    play(&mut g, 1, "meld QS QS QH QD");
    assert_eq!(g.phase(), Phase::Play);
    play(&mut g, 1, "discard 9H");
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!(
        (h.reason, h.seat, h.concealed),
        (HandEndReason::Out, Some(Seat::new(1)), false)
    );
    let in_hand_3 = -hand_value(g.hand(Seat::new(3)));
    assert_eq!(items(h, 1), (110, in_hand_3, 500, 0, 100, 710 + in_hand_3));
    assert_eq!(h.teams[0].going_out, 0);
}

/// P-CAN: going out may also be melding every card, with no discard.
#[test]
fn meld_every_card_to_go_out_without_a_discard() {
    let mut g = canasta_then_second_turn("QS QS QH 2D", "QD");
    play_all(&mut g, 1, &["draw", "meld QS QS QH QD 2D"]);
    assert_eq!(g.phase(), Phase::HandOver);
    assert_eq!(g.last_hand().unwrap().teams[1].going_out, 100);
    assert!(g.hand(Seat::new(1)).is_empty());
}

/// P-CAN, S001, S002, BRIT: going out needs a canasta; without one the
/// player must keep a card after discarding, so neither melding out nor
/// melding down to one card is allowed.
#[test]
fn going_out_needs_a_canasta() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "AS AS AH KS KS KH JS JS JH QS QS")
        .stock("4C 9S 9S 9D QH")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld AS AS AH / KS KS KH / JS JS JH", "discard 4C"],
    );
    for seat in [2, 3, 0] {
        draw_discard_drawn(&mut g, seat);
    }
    play(&mut g, 1, "draw");
    assert_eq!(g.hand(Seat::new(1)), &counts("QS QS QH"));
    assert_eq!(
        refused(&g, 1, "meld QS QS QH"),
        IllegalReason::NotEnoughCanastas { need: 1, have: 0 }
    );
    // Asking is only for a player who could go out this turn (record
    // spec; pagat asks permission before going out): only discarding is left.
    assert_eq!(legal_texts(&g), vec!["discard QS"]);

    let mut g = DealSpec::classic(4, 0)
        .hand(1, "AS AS AH AH KS KS KH JS JS JH QS")
        .stock("4C 9S 9S 9D AD")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld AS AS AH AH / KS KS KH / JS JS JH",
            "discard 4C",
        ],
    );
    for seat in [2, 3, 0] {
        draw_discard_drawn(&mut g, seat);
    }
    play(&mut g, 1, "draw");
    assert_eq!(g.hand(Seat::new(1)), &counts("QS AD"));
    let reason = refused(&g, 1, "add 0 AD");
    assert_eq!(
        reason,
        stranded("QS", IllegalReason::NotEnoughCanastas { need: 1, have: 0 })
    );
    assert_eq!(
        reason.to_string(),
        "this would leave you only QS, which could not be your last discard: \
         your side needs 1 canasta to go out and has 0"
    );
    assert!(legal(&g, "discard QS"));
    assert!(legal(&g, "discard AD"));
}

/// P-CAN, S001 (100 + 100), S002 (200): going out concealed, the whole hand
/// melded in one turn including a canasta, scores 200; partner may have
/// melded before, but adding to partner's melds spoils it (100).
#[test]
fn going_out_concealed_scores_200_unless_adding_to_partners_melds() {
    let deal = |seat1: &str| {
        let mut g = DealSpec::classic(4, 2)
            .hand(3, "AS AS AH KS KS KH 5S 6S 7S 8S 9S")
            .hand(1, seat1)
            .stock("4C 4C 4D")
            .game();
        play_all(
            &mut g,
            3,
            &["draw", "meld AS AS AH / KS KS KH", "discard 4C"],
        );
        draw_discard_drawn(&mut g, 0);
        play(&mut g, 1, "draw");
        g
    };
    let mut g = deal("QS QS QH QH QD QD QC 9H 9D 9C 9C");
    play_all(
        &mut g,
        1,
        &["meld QS QS QH QH QD QD QC / 9H 9D 9C 9C", "discard 4D"],
    );
    let h = g.last_hand().unwrap();
    assert!(h.concealed);
    assert_eq!(h.teams[1].going_out, 200);

    let mut g = deal("QS QS QH QH QD QD QC 9H 9D 9C KD");
    play_all(
        &mut g,
        1,
        &[
            "meld QS QS QH QH QD QD QC / 9H 9D 9C",
            "add 1 KD",
            "discard 4D",
        ],
    );
    let h = g.last_hand().unwrap();
    assert_eq!(h.seat, Some(Seat::new(1)));
    assert!(!h.concealed);
    assert_eq!(h.teams[1].going_out, 100);
}

/// P-CAN, S002, S003, BRIT: black threes may be melded (three or four, no
/// wild cards) only on the turn the player goes out; they score 5 each.
#[test]
fn black_threes_are_melded_only_when_going_out() {
    let mut g = canasta_then_second_turn("3S 3S 3C 9H", "5C");
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld 3S 3S 3C"),
        IllegalReason::BlackThreesOnlyGoingOut
    );

    let mut g = canasta_then_second_turn("3S 3S 3C 9H", "KC");
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld 3S 3C"),
        IllegalReason::MeldTooSmall { need: 3, have: 2 }
    );
    play(&mut g, 1, "meld 3S 3S 3C");
    // Now bound to go out: keeping KC is not allowed.
    assert_eq!(refused(&g, 1, "discard 9H"), IllegalReason::MustGoOut);
    assert_eq!(
        refused(&g, 1, "add 1 KC"),
        IllegalReason::BlackThreesMeldClosed
    );
    play_all(&mut g, 1, &["add 0 KC", "discard 9H"]);
    let h = g.last_hand().unwrap();
    assert_eq!(h.seat, Some(Seat::new(1)));
    assert_eq!(h.teams[1].melded, 80 + 15);
}

/// P-CAN, S002, S003: a meld of black threes is three or four threes and
/// nothing else, laid at once; each refusal names its own cause.
#[test]
fn a_meld_of_black_threes_takes_no_wild_card_and_nothing_later() {
    let mut g = canasta_then_second_turn("3S 3S 3C 2C", "KC");
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(&g, 1, "meld 3S 3S 3C 2C"),
        IllegalReason::WildWithBlackThrees
    );

    let mut g = canasta_then_second_turn("3S 3S 3C 3C", "KC");
    play_all(&mut g, 1, &["draw", "meld 3S 3S 3C"]);
    assert_eq!(
        refused(&g, 1, "add 1 3C"),
        IllegalReason::BlackThreesMeldClosed
    );
    play_all(&mut g, 1, &["add 0 KC", "discard 3C"]);
    assert_eq!(g.last_hand().unwrap().seat, Some(Seat::new(1)));
}

/// P-CAN, S002: a player may ask partner "may I go out?" right after drawing;
/// partner's "yes" binds the player to go out this turn.
#[test]
fn asking_partner_yes_binds_the_player_to_go_out() {
    let mut g = canasta_then_second_turn("QS QS QH 9H", "QD");
    assert_eq!(
        refused(&g, 1, "ask"),
        IllegalReason::WrongPhase(Phase::Draw)
    );
    play(&mut g, 1, "draw");
    assert!(generated(&g, "ask"));
    play(&mut g, 1, "ask");
    assert_eq!(
        (g.phase(), g.current(), g.to_act()),
        (Phase::Answer, Seat::new(1), Seat::new(3))
    );
    assert_eq!(legal_texts(&g), vec!["yes", "no"]);
    assert_eq!(
        refused(&g, 1, "yes"),
        IllegalReason::NotYourTurn {
            seat: Seat::new(1),
            to_act: Seat::new(3)
        }
    );
    play(&mut g, 3, "yes");
    assert_eq!((g.phase(), g.to_act()), (Phase::Play, Seat::new(1)));
    assert_eq!(refused(&g, 1, "discard 9H"), IllegalReason::MustGoOut);
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::CannotAsk);
    play_all(&mut g, 1, &["meld QS QS QH QD", "discard 9H"]);
    assert_eq!(g.last_hand().unwrap().seat, Some(Seat::new(1)));
}

/// P-CAN, S002: partner's "no" forbids going out this turn.
#[test]
fn asking_partner_no_forbids_going_out() {
    let mut g = canasta_then_second_turn("QS QS QH 2D", "QD");
    play_all(&mut g, 1, &["draw", "ask"]);
    play(&mut g, 3, "no");
    // Refused (the reason is checked in the ignored test below).
    refused(&g, 1, "meld QS QS QH QD 2D");
    assert!(!generated(&g, "meld QS QS QH QD 2D"));
    play_all(&mut g, 1, &["meld QS QS QH", "discard 2D"]);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.hand(Seat::new(1)), &counts("QD"));
}

/// P-CAN: asking comes straight after drawing (or taking the pile), before
/// any further meld.
#[test]
fn asking_only_right_after_drawing_or_taking_the_pile() {
    let mut g = canasta_then_second_turn("QS QS QH 2D", "QD");
    play_all(&mut g, 1, &["draw", "meld QS QS QH"]);
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::CannotAsk);

    // Taking the pile (QC on top) with the queen pair: asking is still allowed.
    // Pile: 4D 4C 4H 9C QC; the rest (4D 4C 4H 9C) goes to the hand.
    let mut g = canasta_then_second_turn("QS QS QH 2D", "QD");
    play(&mut g, 1, "pickup QS QS");
    assert_eq!(g.hand(Seat::new(1)), &counts("QH 2D 4D 4C 4H 9C"));
    assert!(generated(&g, "ask"));
    play(&mut g, 1, "ask");
    play(&mut g, 3, "yes");
    play_all(&mut g, 1, &["add 1 QH 2D", "meld 4D 4C 4H", "discard 9C"]);
    assert_eq!(g.phase(), Phase::HandOver);
}

/// P-CAN ("before any further meld, the meld containing the top discard
/// excepted"): a side that has opened and lays another meld in the same
/// act as taking the pile has made a further meld, as if it were a
/// separate `meld` (a referee's record found asking legal or not by how it
/// grouped the same cards).
#[test]
fn a_meld_laid_with_the_pile_by_an_opened_side_comes_before_asking() {
    // Seat 1 opens with a canasta of kings taken with seat 0's KC, then
    // takes the pile again with its queens when seat 0 throws QC.
    let second_turn = || {
        let mut g = DealSpec::classic(4, 3)
            .hand(0, "KC QC")
            .hand(1, "KS KS KH KH KD KD QS QS 5S 5H 5D")
            .hand(2, "4C")
            .hand(3, "4H")
            .upcards("4D")
            .game();
        play_all(&mut g, 0, &["draw", "discard KC"]);
        play_all(&mut g, 1, &["pickup KS KS KH KH KD KD", "discard 4D"]);
        draw_discard(&mut g, 2, "4C");
        draw_discard(&mut g, 3, "4H");
        draw_discard(&mut g, 0, "QC");
        g
    };
    let mut together = second_turn();
    play(&mut together, 1, "pickup QS QS / 5S 5H 5D");
    assert_eq!(refused(&together, 1, "ask"), IllegalReason::CannotAsk);
    assert!(!generated(&together, "ask"));
    let mut apart = second_turn();
    play(&mut apart, 1, "pickup QS QS");
    assert!(legal(&apart, "ask"), "straight after taking the pile");
    play(&mut apart, 1, "meld 5S 5H 5D");
    assert_eq!(refused(&apart, 1, "ask"), IllegalReason::CannotAsk);
    assert_eq!(apart.hand(Seat::new(1)), together.hand(Seat::new(1)));
}

/// An opening laid with the pile is how the side takes it: asking is still
/// allowed after it.
#[test]
fn an_opening_laid_with_the_pile_leaves_asking_open() {
    let mut g = DealSpec::classic(4, 3)
        .hand(0, "KC")
        .hand(1, "KS KS KH KH KD KD QS QS QH 9S 9D")
        .upcards("9H")
        .game();
    play_all(&mut g, 0, &["draw", "discard KC"]);
    play(&mut g, 1, "pickup KS KS KH KH KD KD / QS QS QH");
    assert_eq!(g.hand(Seat::new(1)), &counts("9S 9D 9H"));
    assert!(legal(&g, "ask"), "{}", g.explain(&act("ask")));
    assert!(generated(&g, "ask"));
}

/// Asking needs two cards in hand, so that a "no" leaves one to keep: here
/// an opening with the pile leaves only 9S, and the player simply goes out.
#[test]
fn asking_needs_two_cards_in_hand() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KS KH KH KD KD QS QS QH QD 9S")
        .upcards("KC")
        .game();
    play(&mut g, 1, "pickup KS KS KH KH KD KD / QS QS QH QD");
    assert_eq!(g.hand(Seat::new(1)), &counts("9S"));
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::TooFewCardsToAsk);
    assert!(generated(&g, "discard 9S"));
}

/// P-CAN, S002: after "no", the going-out meld is refused because partner
/// said no.
#[test]

fn after_no_the_going_out_meld_is_refused_because_partner_said_no() {
    let mut g = canasta_then_second_turn("QS QS QH 2D", "QD");
    play_all(&mut g, 1, &["draw", "ask"]);
    play(&mut g, 3, "no");
    assert_eq!(
        refused(&g, 1, "meld QS QS QH QD 2D"),
        IllegalReason::PartnerSaidNo
    );
}

/// P-CAN: a concealed going out may take the pile on its final turn (the
/// opening minimum then applies) and still scores 200
/// (`concealed_bonus_if_pile_taken`, default true; Viennese: false).
#[test]
fn going_out_concealed_after_taking_the_pile_scores_200() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KS KH KH KD KD QS QS QH QH 9S")
        .upcards("KC")
        .game();
    play(&mut g, 1, "pickup KS KS KH KH KD KD / QS QS QH QH");
    assert_eq!(g.hand(Seat::new(1)), &counts("9S"));
    play(&mut g, 1, "discard 9S");
    let h = g.last_hand().unwrap();
    assert_eq!(
        (h.reason, h.seat, h.concealed),
        (HandEndReason::Out, Some(Seat::new(1)), true)
    );
    assert_eq!(items(h, 1).4, 200);
}

/// BRIT (research §1.1): one black three may be the final discard.
#[test]
fn a_black_three_may_be_the_final_discard() {
    let mut g = canasta_then_second_turn("QS QS QH 3S", "QD");
    play_all(&mut g, 1, &["draw", "meld QS QS QH QD"]);
    assert_eq!(legal_texts(&g), vec!["discard 3S"]);
    play(&mut g, 1, "discard 3S");
    assert_eq!(g.last_hand().unwrap().seat, Some(Seat::new(1)));
}

/// BRIT: a player left with two black threes cannot go out (two cannot be
/// melded and only one can be discarded). So the player may not ask
/// partner: asking is only for a player who could go out this turn (record
/// spec; pagat asks permission before going out).
#[test]
fn two_black_threes_cannot_go_out() {
    let mut g = canasta_then_second_turn("QS QS QH 3S", "3C");
    play(&mut g, 1, "draw");
    assert_eq!(refused(&g, 1, "ask"), IllegalReason::AskOnlyIfAbleToGoOut);
    play(&mut g, 1, "meld QS QS QH");
    assert_eq!(
        refused(&g, 1, "meld 3S 3C"),
        IllegalReason::MeldTooSmall { need: 3, have: 2 }
    );
    assert_eq!(legal_texts(&g), vec!["discard 3S"]);
}
