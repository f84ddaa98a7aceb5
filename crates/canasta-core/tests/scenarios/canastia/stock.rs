//! The end of the stock in Canastia (S004 "Stockpile Empty": "If the
//! Stockpile is depleted the game round immediately ends and scoring is
//! done. The game ends before the active player can meld any cards").

use super::*;
use canasta_core::Seat;
use canasta_core::{HandEndReason, IllegalReason, Phase};

/// S004: the hand ends the moment a draw empties the stock; the player who
/// drew holds the cards (they count minus) and may not meld them. 51 cards:
/// 25 draws leave one, which the 26th takes.
#[test]
fn the_hand_ends_when_a_draw_empties_the_stock() {
    let mut g = DealSpec::canastia(2, 0).first(0).game();
    let mut draws = 0;
    while g.stock_len() > 1 {
        let seat = g.to_act();
        draw_discard_drawn(&mut g, seat);
        draws += 1;
        assert_eq!(g.phase(), Phase::Draw, "draw {draws}");
    }
    assert_eq!((draws, g.stock_len()), (25, 1));
    let seat = g.to_act();
    assert_eq!(seat, Seat::new(1));
    let before = g.hand(Seat::new(1)).total();
    play(&mut g, 1, "draw");
    assert_eq!(g.phase(), Phase::HandOver);
    assert_eq!(g.stock_len(), 0);
    assert_eq!(g.hand(Seat::new(1)).total(), before + 1);
    assert!(matches!(
        refused(&g, 1, "discard 4S"),
        IllegalReason::WrongPhase(Phase::HandOver) | IllegalReason::CardNotInHand(_)
    ));
    let h = g.last_hand().unwrap();
    assert_eq!((h.reason, h.seat), (HandEndReason::Stock, None));
    for s in Seat::all(2) {
        assert_eq!(
            all_items(h, s.index()),
            (0, -chand(g.hand(s)), 0, 0, 0, 0, -chand(g.hand(s)))
        );
    }
}

/// S004, three players: 41 cards; 20 draws of two leave one, and the
/// draw that takes it ends the hand before the player can act.
#[test]
fn three_players_the_draw_that_empties_the_stock_ends_the_hand() {
    let mut g = DealSpec::canastia(3, 0).first(2).game();
    let mut draws = 0;
    while g.stock_len() > 1 {
        let seat = g.to_act();
        draw_discard_drawn(&mut g, seat);
        draws += 1;
    }
    assert_eq!(draws, 20);
    let seat = g.to_act();
    assert_eq!(
        seat,
        Seat::new(1),
        "the 21st draw: 2, 0, 1, ... from seat 2"
    );
    play(&mut g, seat, "draw");
    assert_eq!(g.phase(), Phase::HandOver);
    let h = g.last_hand().unwrap();
    assert_eq!(h.reason, HandEndReason::Stock);
    assert_eq!(h.teams.len(), 3);
}
