//! Classic Canasta for two (P-CAN §two, BIC-2H, RG-2; research §1.2).

use crate::common::*;
use canasta_core::Seat;
use canasta_core::{GameState, HandEndReason, IllegalReason, Phase};

/// P-CAN, BIC-2H, RG-2 (S003: 15 cards): 15 cards each; a stock draw takes
/// the top two cards and the player still discards one.
#[test]
fn two_players_are_dealt_15_and_draw_two() {
    let mut g = DealSpec::classic(2, 0).stock("9S 9H").game();
    assert_eq!(g.rules().deal.hand_size, 15);
    assert_eq!(
        (g.hand(Seat::new(0)).total(), g.hand(Seat::new(1)).total()),
        (15, 15)
    );
    assert_eq!(g.stock_len(), 108 - 30 - 1);
    assert_eq!(g.to_act(), Seat::new(1));
    let before = *g.hand(Seat::new(1));
    play(&mut g, 1, "draw");
    let mut drawn = *g.hand(Seat::new(1));
    drawn.remove_all(&before);
    assert_eq!(drawn, counts("9S 9H"));
    assert_eq!(g.stock_len(), 108 - 30 - 1 - 2);
    play(&mut g, 1, "discard 9S");
    assert_eq!(g.hand(Seat::new(1)).total(), 16);
    // No partner to ask (P-CAN: asking is between partners).
    assert_eq!(g.partner_of(Seat::new(1)), None);
}

/// P-CAN, BIC-2H, RG-2 (register #6): going out needs two canastas.
#[test]
fn two_players_need_two_canastas_to_go_out() {
    let mut g = DealSpec::classic(2, 0)
        .hand(1, "KS KS KH KH KD KD KC QS QS QH JS JS JH 9S 9H")
        .stock("9D 9C")
        .game();
    play(&mut g, 1, "draw");
    // Refused (the reason is checked in the ignored test below); nothing
    // generated empties the hand.
    refused(
        &g,
        1,
        "meld KS KS KH KH KD KD KC / QS QS QH / JS JS JH / 9S 9H 9D 9C",
    );
    assert!(
        !g.legal_actions()
            .iter()
            .any(|a| a.cards_from_hand() == *g.hand(Seat::new(1)))
    );
    // Two players have no partner to ask (a referee found the old words,
    // about when to ask, named conditions this player met).
    let no_partner = refused(&g, 1, "ask");
    assert_eq!(no_partner, IllegalReason::NoPartnerToAsk);
    assert_eq!(
        no_partner.to_string(),
        "you have no partner to ask in this game"
    );

    let mut g = DealSpec::classic(2, 0)
        .hand(1, "KS KS KH KH KD KD KC QS QS QH QH QD QD QC 9S")
        .stock("9H 9D")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC / QS QS QH QH QD QD QC / 9S 9H 9D",
        ],
    );
    let h = g.last_hand().unwrap();
    assert_eq!(
        (h.reason, h.seat, h.concealed),
        (HandEndReason::Out, Some(Seat::new(1)), true)
    );
    assert_eq!(items(h, 1), (170, 0, 1000, 0, 200, 1370));
    assert_eq!(h.teams.len(), 2);
}

/// Dealer 0: both players open on their first turn, then draw two and
/// discard one drawn card until the stock holds `left` cards.
/// `seat0_extra` joins seat 0's hand.
fn two_player_stock(spec: DealSpec, seat0_extra: &str, left: usize) -> GameState {
    let mut g = spec
        .hand(1, "AS AS AH KS KS KH")
        .hand(0, &format!("QS QS QH JS JS JH {seat0_extra}"))
        .game();
    for (seat, opening) in [
        (1, "meld AS AS AH / KS KS KH"),
        (0, "meld QS QS QH / JS JS JH"),
    ] {
        let seat = Seat::new(seat);
        let before = *g.hand(seat);
        play_all(&mut g, seat, &["draw", opening]);
        let mut drawn = *g.hand(seat);
        for c in before.iter() {
            drawn.remove(c);
        }
        let d = drawn.iter().next().unwrap();
        play(&mut g, seat, &format!("discard {d}"));
    }
    while g.stock_len() > left {
        let seat = g.to_act();
        draw_discard_drawn(&mut g, seat);
    }
    g
}

/// P-CAN, RG-2: when only one card is left in the stock, drawing it counts as
/// a full draw.
#[test]
fn two_players_one_card_left_is_a_full_draw() {
    // All four red threes dealt: 108 - 30 - 1 - 4 = 73 cards, odd.
    let mut g = two_player_stock(DealSpec::classic(2, 0), "3H 3H 3D 3D", 1);
    assert_eq!(g.stock_len(), 1);
    let seat = g.to_act();
    let n = g.hand(seat).total();
    play(&mut g, seat, "draw");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.hand(seat).total(), n + 1);
    assert_eq!(g.stock_len(), 0);
}

/// P-CAN, RG-2: a red three among the last two cards drawn is laid out and
/// the draw counts as a one-card draw.
#[test]
fn two_players_red_three_among_the_last_two_is_a_one_card_draw() {
    // Three red threes dealt, 3D at the bottom: 74 cards, even.
    let spec = DealSpec::classic(2, 0).bottom("3D");
    let mut g = two_player_stock(spec, "3H 3H 3D", 2);
    assert_eq!(g.stock().last(), Some(card("3D")));
    let seat = g.to_act();
    let (n, reds) = (g.hand(seat).total(), g.red_threes(seat));
    play(&mut g, seat, "draw");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.hand(seat).total(), n + 1);
    assert_eq!(g.red_threes(seat), reds + 1);
    assert_eq!(g.stock_len(), 0);
}

/// P-CAN, RG-2: if a lone last card is a red three, the hand ends and the
/// player neither melds nor discards.
#[test]
fn two_players_a_lone_last_red_three_ends_the_hand() {
    // A wild upcard under a natural makes the stock odd: 108 - 30 - 2 - 3 = 73.
    let spec = DealSpec::classic(2, 0).upcards("JK 5S").bottom("3D");
    let mut g = two_player_stock(spec, "3H 3H 3D", 1);
    assert_eq!(g.stock().next(), Some(card("3D")));
    let seat = g.to_act();
    let hand = *g.hand(seat);
    play(&mut g, seat, "draw");
    assert_eq!(g.phase(), Phase::HandOver);
    assert_eq!(g.hand(seat), &hand);
    assert_eq!(g.last_hand().unwrap().reason, HandEndReason::Stock);
}

/// P-CAN, BIC-2H, RG-2: the reason given for melding out with one canasta.
#[test]

fn two_players_melding_out_with_one_canasta_is_refused_for_the_canastas() {
    let mut g = DealSpec::classic(2, 0)
        .hand(1, "KS KS KH KH KD KD KC QS QS QH JS JS JH 9S 9H")
        .stock("9D 9C")
        .game();
    play(&mut g, 1, "draw");
    assert_eq!(
        refused(
            &g,
            1,
            "meld KS KS KH KH KD KD KC / QS QS QH / JS JS JH / 9S 9H 9D 9C"
        ),
        IllegalReason::NotEnoughCanastas { need: 2, have: 1 }
    );
}
