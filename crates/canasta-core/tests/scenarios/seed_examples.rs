//! The seed documents' own worked examples for Classic Canasta, each quoted
//! (in paraphrase) with its seed.

use crate::common::*;
use canasta_core::IllegalReason;
use canasta_core::Seat;
use canasta_core::Side;

/// S003, the same example from the taker's side: team 1 has a meld of
/// sevens; with the pile frozen and a seven on top, adding the top card to
/// the meld is not enough, nor is one seven with a wild card; two sevens are.
#[test]
fn s003_frozen_pile_top_seven_onto_meld_or_seven_and_wild_refused() {
    // Seat 3 (team 1) discards 7C; seat 0 (team 0) must act next, so build
    // the position where seat 1 (team 1) faces a frozen seven: seat 0
    // discards a seven instead.
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "7S 7H 7D AS AH AD 7C 2C 4H 5H 6H")
        .hand(2, "JK 4S 5S 6S 8S 9S TS JS QS KS 4D")
        .hand(3, "9C 4C 5D 6D 8D 9D TD JD QD KD 3S")
        .hand(0, "KC 7D")
        .upcards("TH")
        .stock("6C 8H 9H QH 8C")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld 7S 7H 7D / AS AH AD", "discard 4H"],
    );
    play_all(&mut g, 2, &["draw", "discard JK"]);
    play_all(&mut g, 3, &["draw", "discard 3S"]);
    play_all(&mut g, 0, &["draw", "discard 7D"]);
    assert!(g.pile_frozen());
    assert_eq!(g.to_act(), Seat::new(1));
    assert_eq!(
        refused(&g, 1, "pickup"),
        IllegalReason::PileFrozen {
            top: card("7D"),
            need: 2
        }
    );
    assert_eq!(
        refused(&g, 1, "pickup 7C 2C"),
        IllegalReason::PileFrozen {
            top: card("7D"),
            need: 2
        }
    );
    assert!(!legal(&g, "pickup 7C 2C"));
}

/// S002: "your team cannot have two melds of 6s": a further group of a rank
/// the team has melded joins that meld.
#[test]
fn s002_no_two_melds_of_sixes() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "6S 6H 6D AS AH AD 6C 6C 6H 4H 5H")
        .hand(0, "KC")
        .stock("9C")
        .game();
    play_all(&mut g, 1, &["draw", "meld 6S 6H 6D / AS AH AD"]);
    play(&mut g, 1, "meld 6C 6C 6H");
    let melds = meld_texts(&g, 1);
    assert_eq!(melds.len(), 2, "{melds:?}");
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 6);
}

/// S001: "a natural canasta earns 500 points in addition to the point values
/// of the cards in the canasta", e.g. seven kings: 70 + 500. Seat 1 melds
/// seven kings and four nines in its first turn and discards its last card:
/// a concealed going out (S002: 200 in all).
#[test]
fn s001_natural_canasta_of_seven_kings_scores_500_plus_card_values() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KS KH KH KD KD KC 9S 9H 9D 4C")
        .hand(0, "5C")
        .stock("9C")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld KS KS KH KH KD KD KC / 9S 9H 9D 9C",
            "discard 4C",
        ],
    );
    let h = g.last_hand().expect("seat 1 went out");
    let (melded, _, canastas, _, going_out, _) = items(h, 1);
    assert_eq!(canastas, 500);
    assert_eq!(melded, 70 + 40);
    assert_eq!(going_out, 200);
}
