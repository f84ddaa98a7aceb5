//! The stock and the discard pile, in one buffer.
//!
//! A card lies in at most one of the two, so together they never hold more
//! than a deck: the pile grows up from the buffer's start (its bottom
//! first) and the stock down from its end (its top at the lowest index).
//! Two arrays of a deck each would cost every state a deck's worth of
//! bytes more, and search copies states at every iteration (see
//! `card::packed` for why the state keeps under 2 KiB).

use super::MAX_CARDS;
use crate::card::Card;
use crate::stackvec::StackVec;
use std::fmt;

#[derive(Clone, Copy)]
pub(super) struct Stacks {
    cards: [Card; MAX_CARDS],
    pile_len: u16,
    stock_len: u16,
}

impl Default for Stacks {
    fn default() -> Self {
        Stacks {
            cards: [Card::default(); MAX_CARDS],
            pile_len: 0,
            stock_len: 0,
        }
    }
}

impl Stacks {
    /// Where the stock begins: its top card.
    #[inline]
    fn stock_start(&self) -> usize {
        MAX_CARDS - self.stock_len as usize
    }

    /// The stock, top (the next card drawn) first.
    #[inline]
    pub fn stock(&self) -> &[Card] {
        &self.cards[self.stock_start()..]
    }

    #[inline]
    pub fn stock_len(&self) -> usize {
        self.stock_len as usize
    }

    #[inline]
    pub fn stock_is_empty(&self) -> bool {
        self.stock_len == 0
    }

    /// Puts `card` on top of the stock.
    ///
    /// # Panics
    /// Past a deck in the stock and the pile together, which no deal holds.
    #[inline]
    pub fn push_stock(&mut self, card: Card) {
        assert!(self.room(), "the stock and the pile hold more than a deck");
        self.stock_len += 1;
        let top = self.stock_start();
        self.cards[top] = card;
    }

    /// Takes the top card of the stock.
    #[inline]
    pub fn pop_stock(&mut self) -> Option<Card> {
        if self.stock_len == 0 {
            return None;
        }
        let top = self.stock_start();
        self.stock_len -= 1;
        Some(self.cards[top])
    }

    /// The stock's cards in place, top first (tests swap cards in it).
    #[cfg(test)]
    pub fn stock_mut(&mut self) -> &mut [Card] {
        let start = self.stock_start();
        &mut self.cards[start..]
    }

    pub fn clear_stock(&mut self) {
        self.stock_len = 0;
    }

    /// The discard pile, bottom first.
    #[inline]
    pub fn pile(&self) -> &[Card] {
        &self.cards[..self.pile_len as usize]
    }

    /// The pile's cards in place (a sample deals the packet's).
    pub fn pile_mut(&mut self) -> &mut [Card] {
        &mut self.cards[..self.pile_len as usize]
    }

    #[inline]
    pub fn pile_top(&self) -> Option<Card> {
        self.pile().last().copied()
    }

    /// Puts `card` on top of the pile.
    ///
    /// # Panics
    /// As [`Stacks::push_stock`].
    #[inline]
    pub fn push_pile(&mut self, card: Card) {
        assert!(self.room(), "the stock and the pile hold more than a deck");
        self.cards[self.pile_len as usize] = card;
        self.pile_len += 1;
    }

    /// Takes the top card of the pile.
    #[inline]
    pub fn pop_pile(&mut self) -> Option<Card> {
        if self.pile_len == 0 {
            return None;
        }
        self.pile_len -= 1;
        Some(self.cards[self.pile_len as usize])
    }

    /// Empties the pile and returns its cards, bottom first.
    pub fn take_pile(&mut self) -> StackVec<Card, MAX_CARDS> {
        let mut taken = StackVec::new();
        taken.extend(self.pile().iter().copied());
        self.pile_len = 0;
        taken
    }

    fn room(&self) -> bool {
        (self.pile_len + self.stock_len) < MAX_CARDS as u16
    }
}

impl fmt::Debug for Stacks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stacks")
            .field("stock_from_top", &self.stock())
            .field("pile", &self.pile())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn stock_and_pile_keep_their_orders_side_by_side() {
        let mut s = Stacks::default();
        for c in ["4H", "5H", "6H"] {
            s.push_stock(card(c));
        }
        s.push_pile(card("KS"));
        s.push_pile(card("QS"));
        assert_eq!(s.stock(), &[card("6H"), card("5H"), card("4H")]);
        assert_eq!(s.pile(), &[card("KS"), card("QS")]);
        assert_eq!(s.pop_stock(), Some(card("6H")));
        assert_eq!(s.pile_top(), Some(card("QS")));
        assert_eq!(s.pop_pile(), Some(card("QS")));
        assert_eq!(s.take_pile().to_vec(), vec![card("KS")]);
        assert!(s.pile().is_empty());
        assert_eq!(s.stock_len(), 2);
    }

    #[test]
    fn a_whole_deck_fits_between_them() {
        let mut s = Stacks::default();
        for i in 0..MAX_CARDS {
            if i % 3 == 0 {
                s.push_pile(Card::JOKER);
            } else {
                s.push_stock(Card::JOKER);
            }
        }
        assert_eq!(s.pile().len() + s.stock_len(), MAX_CARDS);
        let full = std::panic::catch_unwind(move || s.push_stock(Card::JOKER));
        assert!(full.is_err(), "one card more than a deck");
    }
}
