//! A multiset of faces: a hand, the unseen cards, a deck's composition,
//! counted by face with the total kept beside the counts.

use super::{Card, CardStyle, FACES, Rank, byte_sum};
use std::fmt;

/// A multiset of faces: hands, the unseen cards, a deck's composition.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardCounts {
    counts: [u8; FACES],
    total: u16,
}

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts {
            counts: [0; FACES],
            total: 0,
        }
    }
}

impl CardCounts {
    pub const fn new() -> Self {
        CardCounts {
            counts: [0; FACES],
            total: 0,
        }
    }

    pub fn from_cards(cards: impl IntoIterator<Item = Card>) -> Self {
        let mut c = CardCounts::new();
        for card in cards {
            c.add(card);
        }
        c
    }

    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.index()]
    }

    /// The count of every face, by face index: for code that reads them
    /// all (tensors for learning agents), without a branch per face.
    #[inline]
    pub fn as_array(&self) -> &[u8; FACES] {
        &self.counts
    }

    /// The sum of a figure by face over the cards, as the points of a hand
    /// from a table of card values (`Ruleset::card_value_table`): one pass
    /// without a branch, where search sums hands at every step.
    #[inline]
    pub fn dot(&self, by_face: &[i32; FACES]) -> i32 {
        self.counts
            .iter()
            .zip(by_face)
            .map(|(&k, &v)| i32::from(k) * v)
            .sum()
    }

    #[inline]
    pub fn total(&self) -> usize {
        self.total as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Adds one copy. A count stops at 255 rather than wrap: no deck comes
    /// near, and a count read from another program (the bot protocol) must
    /// not overflow before validation can refuse it.
    #[inline]
    pub fn add(&mut self, card: Card) {
        self.add_n(card, 1);
    }

    /// Adds `n` copies (a count stops at 255, as [`CardCounts::add`]).
    #[inline]
    pub fn add_n(&mut self, card: Card, n: u8) {
        let count = &mut self.counts[card.index()];
        let added = n.min(u8::MAX - *count);
        *count += added;
        self.total = self.total.saturating_add(u16::from(added));
    }

    /// Adds `n[s]` naturals of `rank` in each suit `s` (a count stops at
    /// 255, as [`CardCounts::add`]): a group's cards in one step.
    #[inline]
    pub fn add_suits(&mut self, rank: Rank, n: [u8; 4]) {
        let i = rank.index() * 4;
        let mut added = 0u16;
        for (count, &k) in self.counts[i..i + 4].iter_mut().zip(&n) {
            let k = k.min(u8::MAX - *count);
            *count += k;
            added += u16::from(k);
        }
        self.total = self.total.saturating_add(added);
    }

    /// Removes one copy; returns false (and changes nothing) if there is none.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let c = &mut self.counts[card.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        self.total -= 1;
        true
    }

    /// Removes up to `n` copies and returns how many were removed.
    pub fn remove_up_to(&mut self, card: Card, n: u8) -> u8 {
        let c = &mut self.counts[card.index()];
        let k = (*c).min(n);
        *c -= k;
        self.total -= k as u16;
        k
    }

    /// Naturals of one rank, all suits together.
    #[inline]
    pub fn rank_count(&self, rank: Rank) -> u8 {
        byte_sum(self.rank_word(rank))
    }

    /// Every rank's count, by [`Rank::index`], in one pass without
    /// branches: the going-out tests read all ranks at once.
    #[inline]
    pub fn rank_counts(&self) -> [u8; 13] {
        Rank::ALL.map(|r| self.rank_count(r))
    }

    /// Bit [`Rank::index`] set for every rank held at least `k` times (every
    /// rank for `k` = 0): a loop over ranks in the generator becomes a
    /// walk over the set bits of one word.
    pub fn ranks_with_at_least(&self, k: u8) -> u16 {
        self.rank_counts()
            .iter()
            .enumerate()
            .fold(0, |mask, (i, &n)| mask | u16::from(n >= k) << i)
    }

    /// For each suit (by `Suit` index), bit `Rank::index` set for every
    /// rank from four to ace the hand holds a card of in that suit: the
    /// cards sequences are made of (Samba). One pass for all four suits.
    pub(crate) fn run_masks(&self) -> [u16; 4] {
        let mut masks = [0u16; 4];
        for &r in &Rank::MELDABLE {
            let word = self.rank_word(r);
            for (s, mask) in masks.iter_mut().enumerate() {
                *mask |= u16::from(word >> (8 * s) & 0xFF != 0) << r.index();
            }
        }
        masks
    }

    /// The four suit counts of a rank packed little-endian, spades lowest.
    #[inline]
    pub fn rank_word(&self, rank: Rank) -> u32 {
        let i = rank.index() * 4;
        u32::from_le_bytes([
            self.counts[i],
            self.counts[i + 1],
            self.counts[i + 2],
            self.counts[i + 3],
        ])
    }

    /// Counts of one rank by suit, in `Suit` order.
    #[inline]
    pub fn rank_suits(&self, rank: Rank) -> [u8; 4] {
        let i = rank.index() * 4;
        [
            self.counts[i],
            self.counts[i + 1],
            self.counts[i + 2],
            self.counts[i + 3],
        ]
    }

    pub fn jokers(&self) -> u8 {
        self.counts[52]
    }

    pub fn twos(&self) -> u8 {
        self.rank_count(Rank::Two)
    }

    pub fn wilds(&self) -> u8 {
        self.jokers() + self.twos()
    }

    pub fn red_threes(&self) -> u8 {
        self.counts[5] + self.counts[6]
    }

    pub fn black_threes(&self) -> u8 {
        self.counts[4] + self.counts[7]
    }

    /// True if every card of `other` is in `self` (multiset inclusion).
    pub fn contains_all(&self, other: &CardCounts) -> bool {
        self.counts
            .iter()
            .zip(other.counts.iter())
            .all(|(a, b)| a >= b)
    }

    /// Adds `n[i]` copies of face `i` for every face, `total` in all (the
    /// caller's sum of `n`): packed counts unpack in one pass.
    #[inline]
    pub(crate) fn add_faces(&mut self, n: &[u8; FACES], total: u16) {
        debug_assert_eq!(n.iter().map(|&k| u16::from(k)).sum::<u16>(), total);
        for (a, b) in self.counts.iter_mut().zip(n) {
            *a += b;
        }
        self.total += total;
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &CardCounts) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
        self.total += other.total;
    }

    /// Removes every card of `other`; the caller has checked inclusion.
    pub fn remove_all(&mut self, other: &CardCounts) {
        debug_assert!(self.contains_all(other));
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a -= b;
        }
        self.total -= other.total;
    }

    /// Removes every card of `other` that `self` holds: each count falls
    /// by the other's, stopping at zero (a loop the compiler vectorizes).
    pub fn remove_all_saturating(&mut self, other: &CardCounts) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a = a.saturating_sub(*b);
        }
        self.total = self.counts.iter().map(|&n| u16::from(n)).sum();
    }

    /// Every card, lowest face first, repeated by its count.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(Card::from_index(i), n as usize))
    }

    /// Distinct faces present, with their counts.
    pub fn faces(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, &n)| (Card::from_index(i), n))
    }

    pub fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }

    pub fn clear(&mut self) {
        *self = CardCounts::new();
    }
}

impl fmt::Debug for CardCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The cards one by one, in the formatter's [`CardStyle`].
impl fmt::Display for CardCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = CardStyle::of(f);
        let mut first = true;
        for c in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{}", style.show(c))?;
        }
        Ok(())
    }
}

impl FromIterator<Card> for CardCounts {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        CardCounts::from_cards(iter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    #[test]
    fn counts_add_remove() {
        let mut h = CardCounts::new();
        let k = Card::new(Rank::King, Suit::Hearts);
        h.add(k);
        h.add(k);
        h.add(Card::JOKER);
        assert_eq!(h.total(), 3);
        assert_eq!(h.rank_count(Rank::King), 2);
        assert!(h.remove(k));
        assert!(!h.remove(Card::new(Rank::Ace, Suit::Clubs)));
        assert_eq!(h.total(), 2);
        assert_eq!(h.wilds(), 1);
    }
}
