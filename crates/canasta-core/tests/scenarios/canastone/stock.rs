//! The end of the stock in Canastone (P-CNE "End of the play"; research
//! §2.1 "Stock end").

use super::*;
use canasta_core::Seat;
use canasta_core::{GameState, HandEndReason, Phase};

/// Dealer 0. Seat 0 is dealt `reds` (red threes, laid out and replaced at
/// once, so the stock holds none but `bottom`'s); seat 1 opens with
/// KS KS KH KH KD before its first draw. The upcard sets the stock's size.
fn deal(reds: &str, upcard: &str, bottom: &str) -> GameState {
    let mut g = DealSpec::canastone(4, 0)
        .hand(0, reds)
        .hand(1, "KS KS KH KH KD")
        .upcards(upcard)
        .bottom(bottom)
        .game();
    play(&mut g, 1, "meld KS KS KH KH KD");
    g
}

/// Every player draws and discards a drawn card until the stock holds no
/// more than `left` cards at the start of a turn, or the hand ends.
fn run_down(g: &mut GameState, left: usize) {
    while g.phase() == Phase::Draw && g.stock_len() > left {
        let seat = g.to_act();
        draw_discard_drawn(g, seat);
    }
}

/// P-CNE: play ends when the stock holds one card or none at the start of
/// a turn (a player could not draw two). Nobody closed: no closing bonus;
/// the side that never opened loses its hand cards twice.
#[test]
fn play_ends_when_a_turn_starts_with_fewer_than_two_stock_cards() {
    // Ace upcard: 162 - 60 - 1 - 14 - 6 replacements = 81 cards, odd;
    // king upcard: 82, even.
    for (upcard, stock, end) in [("AD", 81, 1), ("KD", 82, 0)] {
        let mut g = deal("3H 3H 3H 3D 3D 3D", upcard, "");
        assert_eq!(g.stock_len(), stock, "{upcard}");
        assert_eq!(g.red_threes(Seat::new(0)), 6);
        run_down(&mut g, 3);
        assert_eq!((g.phase(), g.stock_len()), (Phase::Draw, 2 + end));
        let seat = g.to_act();
        draw_discard_drawn(&mut g, seat);
        assert_eq!(g.stock_len(), end, "{upcard}");
        assert_eq!(g.phase(), Phase::HandOver, "{upcard}");
        let h = g.last_hand().unwrap();
        assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
        let team1 = -(hand_value(g.hand(Seat::new(1))) + hand_value(g.hand(Seat::new(3))));
        assert_eq!(all_items(h, 1), (50, team1, 0, 0, 0, 0, 50 + team1));
        // Team 0: six red threes and no canasta: 600, minus, doubled, and
        // doubled again for four or more.
        let team0 = -2 * (hand_value(g.hand(Seat::new(0))) + hand_value(g.hand(Seat::new(2))));
        assert_eq!(all_items(h, 0), (0, team0, 0, -2400, 0, 0, team0 - 2400));
    }
}

/// P-CNE, S000: a player who draws the last two cards of the stock and
/// finds a red three among them lays it out, and play ends at once, with
/// no meld and no discard.
#[test]
fn a_red_three_among_the_last_two_cards_ends_play_at_once() {
    for bottom in ["3H 9S", "9S 3H"] {
        let mut g = deal("3H 3H 3D 3D 3D", "AD", bottom);
        assert_eq!(g.stock_len(), 82);
        run_down(&mut g, 2);
        assert_eq!((g.phase(), g.stock_len()), (Phase::Draw, 2));
        let seat = g.to_act();
        let (reds, cards, top) = (g.red_threes(seat), g.hand(seat).total(), g.pile_top());
        play(&mut g, seat, "draw");
        assert_eq!(g.phase(), Phase::HandOver, "{bottom}");
        assert_eq!(g.red_threes(seat), reds + 1);
        assert_eq!(g.hand(seat).total(), cards + 1);
        assert!(g.hand(seat).count(card("9S")) >= 1);
        assert_eq!(g.pile_top(), top, "no discard");
        let h = g.last_hand().unwrap();
        assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
    }
}

/// P-CNE, S000: play ends at once only because "there is no replacement
/// card": with three cards left, a red three among the two drawn is
/// replaced by the last card and the player goes on to meld and discard;
/// the next turn then starts with an empty stock and play ends.
#[test]

fn a_red_three_replaced_by_the_last_card_does_not_end_play() {
    let mut g = deal("3H 3H 3D 3D 3D", "KD", "9C 3H 9S");
    assert_eq!(g.stock_len(), 83);
    run_down(&mut g, 3);
    assert_eq!((g.phase(), g.stock_len()), (Phase::Draw, 3));
    let seat = g.to_act();
    let before = *g.hand(seat);
    play(&mut g, seat, "draw");
    assert_eq!(g.phase(), Phase::Play);
    let mut drawn = *g.hand(seat);
    drawn.remove_all(&before);
    assert_eq!(drawn, counts("9C 9S"));
    assert_eq!(g.stock_len(), 0);
    play(&mut g, seat, "discard 9C");
    assert_eq!(g.phase(), Phase::HandOver);
}
