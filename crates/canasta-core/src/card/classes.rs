//! One card for each choice a hand offers: cards the rules cannot tell
//! apart (the same rank in different suits; twos of different suits) are
//! one class, named by its lowest suit (S, H, D, C order).

use super::{Card, CardCounts, Rank, Suit};

/// Calls `f` with every face in `hand` where suits matter, else with one
/// representative of each class ([`for_each_class`]).
pub(crate) fn for_each_choice(hand: &CardCounts, all_suits: bool, mut f: impl FnMut(Card)) {
    if !all_suits {
        return for_each_class(hand, f);
    }
    for (c, _) in hand.faces() {
        // Twos and threes of one colour are still one choice.
        let same_as_earlier = (c.is_wild()
            && c.rank() == Some(Rank::Two)
            && c.suit() != Some(Suit::Spades)
            && hand
                .faces()
                .any(|(d, _)| d.rank() == Some(Rank::Two) && d.suit() < c.suit()))
            || (c.rank() == Some(Rank::Three)
                && hand.faces().any(|(d, _)| {
                    d.rank() == Some(Rank::Three)
                        && d.is_red_three() == c.is_red_three()
                        && d.suit() < c.suit()
                }));
        if !same_as_earlier {
            f(c);
        }
    }
}

/// Calls `f` with one representative face (the lowest present) of each
/// class of card in `hand`.
pub(crate) fn for_each_class(hand: &CardCounts, mut f: impl FnMut(Card)) {
    // The ranks present first, without a branch a rank; then one call a
    // rank present, its lowest suit read from the word of suit counts
    // (one byte a suit, spades lowest).
    let mut ranks = Rank::ALL.iter().fold(0u16, |m, &r| {
        m | u16::from(hand.rank_word(r) != 0) << r.index()
    });
    while ranks != 0 {
        let rank = Rank::from_index(ranks.trailing_zeros() as usize);
        ranks &= ranks - 1;
        let word = hand.rank_word(rank);
        let lowest = |w: u32| Suit::from_index(w.trailing_zeros() as usize / 8);
        if rank == Rank::Three {
            // Black and red threes are different classes: spades before
            // clubs, hearts before diamonds.
            let (black, red) = (word & 0xff00_00ff, word & 0x00ff_ff00);
            for w in [black, red] {
                if w != 0 {
                    f(Card::new(rank, lowest(w)));
                }
            }
            continue;
        }
        f(Card::new(rank, lowest(word)));
    }
    if hand.jokers() > 0 {
        f(Card::JOKER);
    }
}

/// One representative card of each wild class present: joker, two.
pub(crate) fn wild_classes(hand: &CardCounts) -> impl Iterator<Item = Card> {
    let joker = (hand.jokers() > 0).then_some(Card::JOKER);
    let two = Suit::ALL
        .into_iter()
        .map(|s| Card::new(Rank::Two, s))
        .find(|&c| hand.count(c) > 0);
    joker.into_iter().chain(two)
}
