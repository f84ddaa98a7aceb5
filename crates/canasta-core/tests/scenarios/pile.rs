//! Taking the discard pile: unfrozen and frozen piles, stop cards, the
//! one-card rule (P-CAN, S001, S002, S003, BRIT; research §1.1).

use crate::common::*;
use canasta_core::Seat;
use canasta_core::Side;
use canasta_core::{GameState, IllegalReason, Phase};

/// Dealer 0. Seat 1 (team 1) opens with aces and kings and discards 4C; seat
/// 2 (team 0, not melded) draws and discards the card given; seat 3 (team 1)
/// is then to act.
fn team_one_opened() -> GameState {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "AS AS AH KS KS KH KH KD 2S 4C 5C")
        .hand(2, "9S KC 2D 3S JK 4D 4D 6D 7D 8D TD")
        .hand(3, "9H 9D 2C KD QS QH QD JS JH 4H 5H")
        .hand(0, "KC 5S")
        .upcards("TS")
        .stock("6H 7H 8H")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld AS AS AH / KS KS KH", "discard 4C"],
    );
    assert_eq!(g.hand(Seat::new(1)), &counts("KH KD 2S 5C 6H"));
    g
}

fn after_seat2_discards(card: &str) -> GameState {
    let mut g = team_one_opened();
    draw_discard(&mut g, 2, card);
    g
}

/// P-CAN, S001, S002: an unfrozen pile is taken with a natural pair of the
/// top card's rank; the three cards are melded, the rest goes to the hand.
#[test]
fn an_unfrozen_pile_is_taken_with_a_natural_pair() {
    let mut g = after_seat2_discards("9S");
    assert!(!g.pile_frozen());
    assert!(generated(&g, "pickup 9H 9D"));
    play(&mut g, 3, "pickup 9H 9D");
    assert_eq!(g.phase(), Phase::Play);
    assert!(g.pile().is_empty());
    assert_eq!(meld_texts(&g, 1), vec!["AS AS AH", "KS KS KH", "9S 9H 9D"]);
    // TS (upcard) and 4C (seat 1's discard) went into seat 3's hand.
    assert_eq!(
        g.hand(Seat::new(3)),
        &counts("2C KD QS QH QD JS JH 4H 5H TS 4C")
    );
    assert_eq!(g.known_cards(Seat::new(3)), counts("TS 4C"));
}

/// P-CAN, S001, S002: an unfrozen pile may be taken with one natural and one
/// wild card (`take_with_natural_and_wild`, default true).
#[test]
fn an_unfrozen_pile_is_taken_with_a_natural_and_a_wild_card() {
    let mut g = after_seat2_discards("9S");
    assert!(generated(&g, "pickup 9H 2C"));
    play(&mut g, 3, "pickup 9D 2C");
    assert_eq!(meld_texts(&g, 1), vec!["AS AS AH", "KS KS KH", "9S 9D 2C"]);
}

/// P-CAN: an unfrozen pile may be taken by adding its top card to the side's
/// existing meld of that rank (here partner's kings); without such a meld
/// the bare `pickup` is refused.
#[test]
fn an_unfrozen_pile_is_taken_onto_an_existing_meld() {
    let mut g = after_seat2_discards("KC");
    assert!(generated(&g, "pickup"));
    play(&mut g, 3, "pickup");
    assert_eq!(meld_texts(&g, 1), vec!["AS AS AH", "KS KS KH KC"]);
    assert_eq!(g.hand(Seat::new(3)).total(), 11 + 2);
    let g = after_seat2_discards("9S");
    assert_eq!(refused(&g, 3, "pickup"), IllegalReason::NoMeldForTopCard);
}

/// P-CAN: a wild card on top blocks the pile; a wild card in the pile freezes
/// it for everyone (P-CAN, S003): then only a natural pair from hand takes it
/// (not natural + wild, not the top card onto a meld), and the three cards
/// merge into the side's meld of that rank. Taking it unfreezes the pile.
#[test]
fn a_pile_frozen_by_a_wild_card_needs_a_natural_pair() {
    let mut g = after_seat2_discards("2D");
    assert!(g.pile_frozen());
    assert_eq!(legal_texts(&g), vec!["draw"]);
    assert_eq!(
        refused(&g, 3, "pickup"),
        IllegalReason::PileBlocked(card("2D"))
    );
    assert!(!legal(&g, "pickup 9H 9D"));
    draw_discard(&mut g, 3, "JS");
    draw_discard(&mut g, 0, "KC");
    assert_eq!(g.to_act(), Seat::new(1));
    assert!(g.pile_frozen(), "covering the wild card does not unfreeze");
    assert_eq!(
        refused(&g, 1, "pickup"),
        IllegalReason::PileFrozen {
            top: card("KC"),
            need: 2
        }
    );
    assert_eq!(
        refused(&g, 1, "pickup KH 2S"),
        IllegalReason::PileFrozen {
            top: card("KC"),
            need: 2
        }
    );
    assert!(!generated(&g, "pickup"));
    assert!(!generated(&g, "pickup KH 2S"));
    play(&mut g, 1, "pickup KH KD");
    assert_eq!(meld_texts(&g, 1), vec!["AS AS AH", "KS KS KH KH KD KC"]);
    assert!(!g.pile_frozen());
    assert!(g.pile().is_empty());
    assert_eq!(g.hand(Seat::new(1)), &counts("2S 5C 6H TS 4C 2D JS"));
}

/// P-CAN, S003: the pile is frozen against a side that has not melded even
/// with no wild card in it: a natural pair is needed (and the opening
/// minimum, counting the top card and the cards from hand).
#[test]
fn the_pile_is_frozen_against_a_side_that_has_not_melded() {
    let g = team_one_opened();
    assert_eq!(g.to_act(), Seat::new(2));
    assert!(!g.pile_frozen());
    assert_eq!(g.pile_top(), Some(card("4C")));
    assert_eq!(
        refused(&g, 2, "pickup 4D JK"),
        IllegalReason::PileFrozen {
            top: card("4C"),
            need: 2
        }
    );
    assert_eq!(
        refused(&g, 2, "pickup 4D 4D"),
        IllegalReason::OpeningTooLow { need: 50, have: 15 }
    );
    // The natural pair is there: wild cards may join the same meld.
    assert!(legal(&g, "pickup 4D 4D 2D JK"));
}

/// P-CAN: a black three on top is a stop card for the next player only; it
/// does not freeze the pile (S001/S002 say it freezes: option
/// `black_three_freezes`, off by default).
#[test]
fn a_black_three_stops_the_next_player_but_does_not_freeze() {
    let mut g = after_seat2_discards("3S");
    assert!(!g.pile_frozen());
    assert_eq!(legal_texts(&g), vec!["draw"]);
    assert_eq!(
        refused(&g, 3, "pickup"),
        IllegalReason::PileBlocked(card("3S"))
    );
    assert!(!legal(&g, "pickup 9H 9D"));
    draw_discard(&mut g, 3, "JS");
    draw_discard(&mut g, 0, "5S");
    // Covered, the black three no longer matters: natural + wild takes it.
    assert!(!g.pile_frozen());
    assert!(generated(&g, "pickup 5C 2S"));
    play(&mut g, 1, "pickup 5C 2S");
    assert!(g.hand(Seat::new(1)).count(card("3S")) == 1);
}

/// Dealer 0: seat 1 melds down to one card (9S); seats 2 and 3 draw and
/// discard, seat 3 throwing 8S.
fn seat1_holds_one_card() -> GameState {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "AS AS AH KS KS KH QS QS QH QD 9S")
        .hand(3, "8S")
        .hand(0, "8H 8D AH AD AD KC")
        .stock("5C")
        .game();
    play_all(
        &mut g,
        1,
        &[
            "draw",
            "meld AS AS AH / KS KS KH / QS QS QH QD",
            "discard 5C",
        ],
    );
    assert_eq!(g.hand(Seat::new(1)), &counts("9S"));
    draw_discard_drawn(&mut g, 2);
    draw_discard(&mut g, 3, "8S");
    g
}

/// S001, S002, BRIT (pagat only indirectly): a player holding one card may
/// not take a pile of one card.
#[test]
fn one_card_in_hand_may_not_take_a_one_card_pile() {
    let mut g = seat1_holds_one_card();
    // Seat 0 takes the pile (its opening: 30 + 60) and discards KC: the new
    // pile is that one card.
    play_all(&mut g, 0, &["pickup 8H 8D / AH AD AD", "discard KC"]);
    assert_eq!(g.pile(), &cards("KC")[..]);
    assert_eq!(g.hand(Seat::new(1)).total(), 1);
    assert_eq!(refused(&g, 1, "pickup"), IllegalReason::OneCardPile);
    assert_eq!(legal_texts(&g), vec!["draw"]);
}

/// The same one-card hand may take a larger pile onto its side's meld (P-CAN:
/// the ban is only on one-card piles).
#[test]
fn one_card_in_hand_may_take_a_larger_pile() {
    let mut g = seat1_holds_one_card();
    draw_discard(&mut g, 0, "KC");
    assert!(g.pile().len() > 1);
    assert!(generated(&g, "pickup"));
    play(&mut g, 1, "pickup");
    assert_eq!(g.melds(Side::new(1))[1].cards.to_string(), "KS KS KH KC");
}

/// P-CAN: a wild card or black three on top blocks the pile; taking it "with
/// a pair" must be refused for that reason, whatever pair is shown.
#[test]

fn a_blocked_pile_is_refused_as_blocked_when_a_pair_is_shown() {
    let g = after_seat2_discards("2D");
    assert_eq!(
        refused(&g, 3, "pickup 9H 9D"),
        IllegalReason::PileBlocked(card("2D"))
    );
    let g = after_seat2_discards("3S");
    assert_eq!(
        refused(&g, 3, "pickup 9H 9D"),
        IllegalReason::PileBlocked(card("3S"))
    );
}

/// P-CAN (its variation (1) forbids it: `take_onto_canasta`): an unfrozen
/// pile may be taken by adding the top card to a completed canasta.
#[test]
fn an_unfrozen_pile_may_be_taken_onto_a_completed_canasta() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "KS KS KH KH KD KD KC 5C 6C 7C 8C")
        .hand(0, "KC")
        .stock("4C")
        .game();
    play_all(
        &mut g,
        1,
        &["draw", "meld KS KS KH KH KD KD KC", "discard 4C"],
    );
    draw_discard_drawn(&mut g, 2);
    draw_discard_drawn(&mut g, 3);
    draw_discard(&mut g, 0, "KC");
    assert!(g.melds(Side::new(1))[0].is_canasta(g.rules()));
    assert!(generated(&g, "pickup"));
    play(&mut g, 1, "pickup");
    assert_eq!(g.melds(Side::new(1))[0].cards.len(), 8);
}

/// With the house rule that a stock card goes with the pile (P-CNE's
/// `pile_extra_draw`) on Classic, an opening that takes the pile with every
/// card in hand would leave only that unseen card: the judge refuses it
/// without looking at the card, and the generator must not list it (it once
/// did, asking the unseen card whether it could be discarded).
#[test]
fn an_opening_take_that_leaves_only_the_unseen_stock_card_is_not_listed() {
    let rules = rules_with(
        classic(4),
        r#"{"pile_extra_draw": 1, "opening_table": [{"from": null, "need": 120}]}"#,
    );
    let g = DealSpec::new(rules, 0)
        .hand(1, "KS KS KH KH KD KD QS QS QH QH QD")
        .upcards("KC")
        .stock("9C")
        .game();
    let take_all = "pickup KS KS KH KH KD KD / QS QS QH QH QD";
    assert_eq!(refused(&g, 1, take_all), IllegalReason::OnlyUnseenCardLeft);
    assert!(!generated(&g, take_all));
    assert!(
        !legal_texts(&g).iter().any(|t| t.starts_with("pickup")),
        "{:?}",
        legal_texts(&g)
    );
}
