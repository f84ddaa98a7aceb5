//! The deal: hands, upcards, red threes laid out and replaced.

use crate::common::*;
use canasta_core::Seat;
use canasta_core::{CardCounts, Phase};

/// Record spec "Deal" step 1 (P-CAN: dealt one at a time clockwise from the
/// dealer's left), step 3 (upcard) and step 6 (the rest is the stock, top
/// first). Checked against the raw deck, independently of the builder.
#[test]
fn hands_are_dealt_one_card_at_a_time_from_the_dealers_left() {
    let spec = DealSpec::classic(4, 2)
        .hand(3, "AS AS AH AH AD AD AC AC KS KS KH")
        .hand(0, "QS QS QH QH QD QD QC QC JS JS JH")
        .hand(1, "TS TS TH TH TD TD TC TC 9S 9S 9H")
        .hand(2, "8S 8S 8H 8H 8D 8D 8C 8C 7S 7S 7H")
        .upcards("6S")
        .stock("5S 5H");
    let deck = spec.deck();
    let g = spec.game();
    // The first card goes to seat 3 (left of dealer 2), the second to seat 0...
    for seat in Seat::all(4) {
        let mine: CardCounts = (0..44)
            .filter(|i| (2 + 1 + i) % 4 == seat.index())
            .map(|i| deck[i])
            .collect();
        assert_eq!(g.hand(seat), &mine, "seat {seat}");
        assert_eq!(
            g.hand(seat),
            &CardCounts::from_cards(spec.hands[seat].clone())
        );
    }
    assert_eq!(deck[0], card("AS"));
    assert_eq!(deck[1], card("QS"));
    assert_eq!(deck[43], card("7H"));
    assert_eq!(g.pile(), &[deck[44]]);
    assert_eq!(g.pile_top(), Some(card("6S")));
    assert!(!g.pile_frozen());
    let stock: Vec<_> = g.stock().collect();
    assert_eq!(stock, deck[45..].to_vec());
    assert_eq!(g.stock_len(), 108 - 44 - 1);
    // The player left of the dealer plays first.
    assert_eq!(
        (g.phase(), g.current(), g.to_act()),
        (Phase::Draw, Seat::new(3), Seat::new(3))
    );
}

/// P-CAN, S003; record spec step 5: red threes dealt are laid out at once and
/// replaced from the top of the stock, seat by seat from the dealer's left.
#[test]
fn dealt_red_threes_are_laid_out_and_replaced_seat_by_seat_from_the_dealers_left() {
    let spec = DealSpec::classic(4, 0)
        .hand(0, "3H 4S 4H 5S 5H 6S 6H 7S 7H 8S 8H")
        .hand(1, "3H 9S 9H TS TH JS JH QS QH KS KH")
        .hand(2, "4D 5D 6D 7D 8D 9D TD JD QD KD AD")
        .hand(3, "3D 4C 5C 6C 7C 8C 9C TC JC QC KC")
        .upcards("AS")
        .stock("AC AH 2C 9D");
    let g = spec.game();
    // Seat 1 first (AC), then seat 3 (AH), then seat 0 (2C); seat 2 has none.
    let expect = [
        (0, "4S 4H 5S 5H 6S 6H 7S 7H 8S 8H 2C"),
        (1, "9S 9H TS TH JS JH QS QH KS KH AC"),
        (2, "4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        (3, "4C 5C 6C 7C 8C 9C TC JC QC KC AH"),
    ];
    for (seat, h) in expect {
        assert_eq!(g.hand(Seat::new(seat)), &counts(h), "seat {seat}");
    }
    assert_eq!(
        (0..4)
            .map(|s| g.red_threes(Seat::new(s)))
            .collect::<Vec<_>>(),
        vec![1, 1, 0, 1]
    );
    assert_eq!(g.stock_len(), 108 - 44 - 1 - 3);
    assert_eq!(g.stock().next(), Some(card("9D")));
    assert_eq!(g.all_cards(), spec.rules.deal.deck());
}

/// P-CAN ("repeat until no red 3 remains"), record spec step 5: a replacement
/// that is itself a red three is laid out and replaced at once, before the
/// next seat's red threes.
#[test]
fn a_replacement_red_three_is_laid_out_and_replaced_at_once() {
    let spec = DealSpec::classic(4, 0)
        .hand(1, "3H 9S 9H TS TH JS JH QS QH KS KH")
        .hand(2, "3H 4D 5D 6D 7D 8D 9D TD JD QD KD")
        .upcards("AS")
        .stock("3D 3D AC AH");
    let g = spec.game();
    // Seat 1: 3H out, gets 3D, out, gets 3D, out, gets AC. Then seat 2: AH.
    assert_eq!(g.red_threes(Seat::new(1)), 3);
    assert_eq!(
        g.hand(Seat::new(1)),
        &counts("9S 9H TS TH JS JH QS QH KS KH AC")
    );
    assert_eq!(g.red_threes(Seat::new(2)), 1);
    assert_eq!(
        g.hand(Seat::new(2)),
        &counts("4D 5D 6D 7D 8D 9D TD JD QD KD AH")
    );
    assert_eq!(g.hand(Seat::new(1)).total(), 11);
    assert_eq!(g.stock_len(), 108 - 44 - 1 - 4);
    assert_eq!(g.all_cards(), spec.rules.deal.deck());
}

/// P-CAN: while the upcard is a wild card, another is turned on it, and the
/// pile is frozen (the wild card lies crosswise).
#[test]
fn a_wild_upcard_is_covered_by_another_and_freezes_the_pile() {
    let g = DealSpec::classic(4, 0).upcards("JK 2C 7S").game();
    assert_eq!(g.pile(), &cards("JK 2C 7S")[..]);
    assert_eq!(g.pile_top(), Some(card("7S")));
    assert!(g.pile_frozen());
    assert_eq!(g.stock_len(), 108 - 44 - 3);
}

/// P-CAN: a red-three upcard is covered by another card and freezes the
/// pile; whoever takes the pile lays the red three out (engine doc: not
/// replaced) and it scores for that side.
#[test]
fn a_red_three_upcard_is_covered_by_another_freezes_and_goes_to_the_taker() {
    let mut g = DealSpec::classic(4, 0)
        .hand(1, "9H 9D AS AS AH 4C 5C 6C 7C 8C TC")
        .upcards("3H 9S")
        .game();
    assert_eq!(g.pile(), &cards("3H 9S")[..]);
    assert!(g.pile_frozen());
    assert_eq!(g.red_threes(Seat::new(1)), 0);
    // Frozen: a natural pair takes it (here as the opening: 30 + 60 = 90).
    play(&mut g, 1, "pickup 9H 9D / AS AS AH");
    assert_eq!(
        g.red_threes(Seat::new(1)),
        1,
        "the red three from the pile is laid out"
    );
    assert_eq!(g.hand(Seat::new(1)).red_threes(), 0);
    assert_eq!(g.hand(Seat::new(1)), &counts("4C 5C 6C 7C 8C TC"));
    assert!(g.pile().is_empty());
    assert!(!g.pile_frozen(), "taking the pile unfreezes it");
}

/// P-CAN (register #2 / §1.1 [C]): a black-three upcard is not covered (S001
/// would turn again); it stays on top as a stop card and does not freeze.
#[test]
fn a_black_three_upcard_stays_on_top_as_a_stop_card() {
    let g = DealSpec::classic(4, 0)
        .hand(1, "3S 3C 3C AS AS AH KS KS KH QS QH")
        .upcards("3S")
        .game();
    assert_eq!(g.pile(), &cards("3S")[..]);
    assert!(!g.pile_frozen());
    assert_eq!(legal_texts(&g), vec!["draw"]);
    assert_eq!(
        refused(&g, 1, "pickup 3S 3C / AS AS AH"),
        canasta_core::IllegalReason::PileBlocked(card("3S"))
    );
}

/// P-CAN: a red three drawn from the stock during play is laid out at once
/// and replaced by the next card.
#[test]
fn a_red_three_drawn_in_play_is_laid_out_and_replaced() {
    let mut g = DealSpec::classic(4, 0).stock("3H 9S").game();
    let before = *g.hand(Seat::new(1));
    play(&mut g, 1, "draw");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.red_threes(Seat::new(1)), 1);
    let mut drawn = *g.hand(Seat::new(1));
    drawn.remove_all(&before);
    assert_eq!(drawn, counts("9S"));
}

/// Record spec "Deal": the upcards (step 3) are turned before the dealt red
/// threes are replaced (step 5), so replacements come from below the upcards.
#[test]
fn red_three_replacements_come_from_below_the_upcards() {
    let spec = DealSpec::classic(4, 3)
        .hand(0, "3D 9S 9H TS TH JS JH QS QH KS KH")
        .upcards("2H JK 7S")
        .stock("AC 6D");
    let deck = spec.deck();
    // Dealer 3: seat 0 is dealt first; the upcards follow the 44 dealt cards.
    assert_eq!(&deck[44..48], &cards("2H JK 7S AC")[..]);
    let g = spec.game();
    assert_eq!(g.pile(), &cards("2H JK 7S")[..]);
    assert_eq!(
        g.hand(Seat::new(0)),
        &counts("9S 9H TS TH JS JH QS QH KS KH AC")
    );
    assert_eq!(g.stock().next(), Some(card("6D")));
    assert_eq!(g.to_act(), Seat::new(0));
}
