//! Taking the Canastone pile: two naturals (three when frozen), one stock
//! card with it, no top card onto a meld, stop cards (P-CNE; research §2.1).

use super::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{GameState, IllegalReason, Phase};

/// Dealer 0. Seat 1 (team 1) opens before drawing with
/// KS KS KH KH KD, plays `seat1_turn` after drawing AC AH (ending with a
/// discard); seat 2 (team 0) draws 6H 7H and discards `discard`; seat 3
/// (team 1, opened) is to act. The stock then starts with `stock`.
fn team_one_opened(
    seat1: &str,
    seat1_turn: &[&str],
    discard: &str,
    seat3: &str,
    upcards: &str,
    stock: &str,
) -> GameState {
    with_seat0("", seat1, seat1_turn, discard, seat3, upcards, stock)
}

/// [`team_one_opened`] with some of seat 0's cards given.
fn with_seat0(
    seat0: &str,
    seat1: &str,
    seat1_turn: &[&str],
    discard: &str,
    seat3: &str,
    upcards: &str,
    stock: &str,
) -> GameState {
    let mut g = DealSpec::canastone(4, 0)
        .hand(0, seat0)
        .hand(1, &format!("KS KS KH KH KD {seat1}"))
        .hand(2, discard)
        .hand(3, seat3)
        .upcards(upcards)
        .stock(&format!("AC AH 6H 7H {stock}"))
        .game();
    play_all(&mut g, 1, &["meld KS KS KH KH KD", "draw"]);
    play_all(&mut g, 1, seat1_turn);
    draw_discard(&mut g, 2, discard);
    assert_eq!((g.phase(), g.to_act()), (Phase::Draw, Seat::new(3)));
    g
}

/// P-CNE "Play": an opened side takes an unfrozen pile with two naturals
/// matching the top card, melded with it; the rest of the pile (packet
/// included) goes to the hand, and one card is drawn from the stock too.
#[test]
fn two_naturals_take_the_pile_and_one_stock_card_goes_with_it() {
    let mut g = team_one_opened("4C", &["discard 4C"], "9C", "9S 9H 2C", "8D", "5S 5H");
    assert!(!g.pile_frozen());
    assert_eq!(g.pile_hidden(), 8);
    let pile: Vec<_> = g.pile().to_vec();
    let mut expect = *g.hand(Seat::new(3));
    expect.remove_all(&counts("9S 9H"));
    for &c in &pile[..pile.len() - 1] {
        expect.add(c);
    }
    expect.add(card("5S"));
    let stock = g.stock_len();
    assert!(generated(&g, "pickup 9S 9H"));
    play(&mut g, 3, "pickup 9S 9H");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD", "9S 9H 9C"]);
    assert_eq!(g.hand(Seat::new(3)), &expect);
    assert_eq!(g.stock_len(), stock - 1);
    assert_eq!(g.stock().next(), Some(card("5H")));
    assert!(g.pile().is_empty());
    assert_eq!(g.pile_hidden(), 0);
}

/// P-CNE "Play": two *naturals* are needed: a natural and a wild card do
/// not take an unfrozen pile (Classic's `take_with_natural_and_wild`).
#[test]
fn a_natural_and_a_wild_card_do_not_take_the_pile() {
    let g = team_one_opened(
        "4C",
        &["discard 4C"],
        "9C",
        "9S 2C JK 4C 5C 6C 7C 8C TC JC QC 4H 5H 6H 7H",
        "8D",
        "",
    );
    assert!(!g.pile_frozen());
    assert!(!g.rules().pile.take_with_natural_and_wild);
    for text in ["pickup 9S 2C", "pickup 9S JK"] {
        assert_eq!(
            refused(&g, 3, text),
            IllegalReason::PileNeedsNaturals {
                need: 2,
                or_wild: false
            },
            "{text}"
        );
    }
    assert_eq!(legal_texts(&g), vec!["draw"]);
}

/// P-CNE "Play" (no Classic-style `pickup` onto a meld): the top card alone
/// does not take the pile, even onto the side's meld of its rank; two
/// naturals do, and join that meld (one meld per rank).
#[test]
fn the_top_card_alone_does_not_take_the_pile_onto_a_meld() {
    let mut g = team_one_opened(
        "9S 9H 9D 4C",
        &["meld 9S 9H 9D", "discard 4C"],
        "9C",
        "9S 9H",
        "8D",
        "5S",
    );
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD", "9S 9H 9D"]);
    assert!(!g.pile_frozen());
    assert!(!generated(&g, "pickup"));
    // The refusal names what does take it: naturals from the hand.
    assert_eq!(
        refused(&g, 3, "pickup"),
        IllegalReason::PileNeedsNaturals {
            need: 2,
            or_wild: false
        }
    );
    play(&mut g, 3, "pickup 9S 9H");
    assert_eq!(
        meld_texts(&g, 1),
        vec!["KS KS KH KH KD", "9S 9S 9H 9H 9D 9C"]
    );
}

/// P-CNE "Freezing": a wild card turned up freezes the pile for everyone;
/// then three naturals are needed. Taking it unfreezes it.
#[test]
fn a_frozen_pile_takes_three_naturals() {
    let mut g = team_one_opened("4C", &["discard 4C"], "9C", "9S 9H 9D", "JK 8D", "5S");
    assert!(g.pile_frozen());
    assert_eq!(
        refused(&g, 3, "pickup 9S 9H").to_string(),
        "the pile is frozen: it takes 3 natural cards matching 9C"
    );
    assert_eq!(
        refused(&g, 3, "pickup 9S 9H"),
        IllegalReason::PileFrozen {
            top: card("9C"),
            need: 3
        }
    );
    assert!(!generated(&g, "pickup 9S 9H"));
    assert!(generated(&g, "pickup 9S 9H 9D"));
    play(&mut g, 3, "pickup 9S 9H 9D");
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD", "9S 9H 9D 9C"]);
    assert!(
        g.hand(Seat::new(3)).jokers() >= 1,
        "the joker upcard went to the hand"
    );
    assert!(!g.pile_frozen());
}

/// P-CNE "Freezing": a discarded wild card stops the next player (the pile
/// is taken only with a natural on top) and freezes the pile for everyone
/// after, until it is taken.
#[test]
fn a_discarded_wild_card_stops_the_next_player_and_freezes_the_pile() {
    let mut g = with_seat0(
        "9C",
        "9S 9H 9D 4C",
        &["discard 4C"],
        "2C",
        "2S 2H",
        "8D",
        "5S 5H 5D 5C",
    );
    assert!(g.pile_frozen());
    assert_eq!(
        refused(&g, 3, "pickup 2S 2H"),
        IllegalReason::PileBlocked(card("2C"))
    );
    assert_eq!(legal_texts(&g), vec!["draw"]);
    draw_discard(&mut g, 3, "5S");
    // Seat 0 (team 0) covers the two with a nine; the pile stays frozen.
    draw_discard(&mut g, 0, "9C");
    assert!(g.pile_frozen());
    assert_eq!(
        refused(&g, 1, "pickup 9S 9H"),
        IllegalReason::PileFrozen {
            top: card("9C"),
            need: 3
        }
    );
    play(&mut g, 1, "pickup 9S 9H 9D");
    assert!(!g.pile_frozen());
}

/// P-CNE "Black threes": a black three on top stops the next player only;
/// it does not freeze the pile.
#[test]
fn a_black_three_stops_only_the_next_player() {
    let mut g = team_one_opened(
        "8S 8H 4C",
        &["discard 4C"],
        "3S",
        "9S 9H",
        "9D",
        "5S 5H 8C 4S",
    );
    assert!(!g.pile_frozen());
    assert_eq!(
        refused(&g, 3, "pickup 9S 9H"),
        IllegalReason::PileBlocked(card("3S"))
    );
    draw_discard(&mut g, 3, "5S");
    play(&mut g, 0, "draw");
    play(&mut g, 0, "discard 8C");
    assert!(!g.pile_frozen());
    assert!(generated(&g, "pickup 8S 8H"));
    play(&mut g, 1, "pickup 8S 8H");
    assert_eq!(meld_texts(&g, 1), vec!["KS KS KH KH KD", "8S 8H 8C"]);
}

/// P-CNE (house rule 5, "not when the top card matches one of your
/// canastas", is not offered): the pile may be taken with two naturals of
/// the rank of the side's own canasta; they join it.
#[test]
fn the_pile_may_be_taken_onto_a_canasta_of_its_rank() {
    let mut g = team_one_opened(
        "KD KC 4C",
        &["add 0 KD KC", "discard 4C"],
        "KC",
        "KS KH",
        "9D",
        "5S",
    );
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 7);
    assert!(g.melds(Side::new(1))[0].is_canasta(g.rules()));
    assert!(generated(&g, "pickup KS KH"));
    play(&mut g, 3, "pickup KS KH");
    assert_eq!(g.melds(Side::new(1)).len(), 1, "no second meld of kings");
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 10);
}
