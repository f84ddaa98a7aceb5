//! The end of the stock (P-CAN; research §1.1 "Stock exhausted", register #4).

use crate::common::*;
use canasta_core::Seat;
use canasta_core::{GameState, HandEndReason, IllegalReason, Phase};

/// Draws and discards the drawn card until the stock holds `left` cards.
fn run_stock_down(g: &mut GameState, left: usize) {
    while g.stock_len() > left {
        assert_eq!(g.phase(), Phase::Draw);
        let seat = g.to_act();
        draw_discard_drawn(g, seat);
    }
}

/// Dealer 0. Every wild card, black three and red three is dealt (the red
/// threes to seat 0, replaced by TD TD JD JD), so the stock is plain cards
/// with QC at the bottom. Seat 1 opens with aces and kings, seat 0 with
/// queens and eights; then everyone draws and discards the drawn card.
fn stock_run_out() -> GameState {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "AS AS AH KS KS KH 4C 5C 6C 7C 9D")
        .hand(2, "JK JK JK JK 2S 2S 2H 2H 2D 2D 2C")
        .hand(3, "2C 3S 3S 3C 3C")
        .hand(0, "3H 3H 3D 3D QS QS QH 8S 8S 8H 9C")
        .stock("TD TD JD JD")
        .bottom("QC")
        .game();
    assert_eq!(g.red_threes(Seat::new(0)), 4);
    play_all(
        &mut g,
        1,
        &["draw", "meld AS AS AH / KS KS KH", "discard 4C"],
    );
    draw_discard_drawn(&mut g, 2);
    draw_discard_drawn(&mut g, 3);
    let before = *g.hand(Seat::new(0));
    play(&mut g, 0, "draw");
    let mut drawn = *g.hand(Seat::new(0));
    drawn.remove_all(&before);
    let d = drawn.iter().next().unwrap();
    play_all(
        &mut g,
        0,
        &["meld QS QS QH / 8S 8S 8H", &format!("discard {d}")],
    );
    run_stock_down(&mut g, 0);
    g
}

/// P-CAN: with the stock exhausted, a player must take the discard if the
/// pile is not frozen against them and the top card matches one of their
/// side's melds; drawing is then not an option.
#[test]
fn with_the_stock_empty_a_matching_unfrozen_pile_must_be_taken() {
    let g = stock_run_out();
    assert_eq!(g.stock_len(), 0);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.to_act(), Seat::new(0));
    assert_eq!(g.pile_top(), Some(card("QC")));
    assert!(!g.pile_frozen());
    assert!(!legal_texts(&g).contains(&"draw".to_string()));
    assert_eq!(refused(&g, 0, "draw"), IllegalReason::MustTakePile);
    assert!(generated(&g, "pickup"));
}

/// P-CAN: play goes on with an empty stock while players take the discard;
/// the hand ends when a player who may draw finds the stock empty. Nobody
/// scores the going-out bonus.
#[test]
fn drawing_from_the_empty_stock_ends_the_hand_without_a_going_out_bonus() {
    let mut g = stock_run_out();
    play_all(&mut g, 0, &["pickup", "discard 9C"]);
    // Seat 1: top 9C matches no meld of team 1; drawing is allowed and ends play.
    assert!(legal_texts(&g).contains(&"draw".to_string()));
    play(&mut g, 1, "draw");
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
    assert_eq!(h.teams[0].going_out, 0);
    assert_eq!(h.teams[1].going_out, 0);
    assert_eq!(
        h.teams[0].red_threes, 800,
        "team 0 melded: all four count 800"
    );
    let in_hand_0 = -(hand_value(g.hand(Seat::new(0))) + hand_value(g.hand(Seat::new(2))));
    assert_eq!(h.teams[0].in_hand, in_hand_0);
    assert_eq!(g.all_cards(), g.rules().deal.deck());
}

/// P-CAN (register #4): if the last card of the stock is a red three, it is
/// laid out and the hand ends at once; the player neither melds nor discards.
#[test]
fn a_red_three_as_the_last_stock_card_ends_the_hand_at_once() {
    let mut g = DealSpec::classic(4, 0)
        .hand(2, "3H 3H 3D")
        .bottom("3D")
        .game();
    run_stock_down(&mut g, 1);
    assert_eq!(g.stock().next(), Some(card("3D")));
    let seat = g.to_act();
    let hand_before = *g.hand(seat);
    let reds = g.red_threes(seat);
    play(&mut g, seat, "draw");
    assert_eq!(g.phase(), Phase::HandOver);
    assert_eq!(g.red_threes(seat), reds + 1);
    assert_eq!(
        g.hand(seat),
        &hand_before,
        "no card added, none melded or discarded"
    );
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
    // Seat 0 drew it: team 0 has all four but melded nothing.
    assert_eq!(seat, Seat::new(0));
    assert_eq!(h.teams[0].red_threes, -800);
}
