//! The melds on the table, every side's in one pool.
//!
//! Each side may hold up to [`MAX_MELDS`] melds, but all sides together
//! never hold more than a deck's cards in melds of at least three
//! ([`POOL`]), so one pool sized for that, with each side's melds kept
//! together in side order, is a third of six fixed side arrays: the state
//! clones with one block copy, and search clones it every iteration.

use super::{MAX_CARDS, MAX_MELDS, MAX_SEATS};
use crate::meld::Meld;
use crate::seat::Side;
use crate::stackvec::StackVec;
use std::ops::{Index, IndexMut};

/// Melds all sides can hold at once: every meld has at least three cards
/// (`Rules` refuses a smaller `min_meld`).
pub const POOL: usize = MAX_CARDS / 3;

/// Every side's melds; `table[side]` is that side's, in meld order.
#[derive(Clone, Copy)]
pub struct MeldTable {
    pool: [Meld; POOL],
    /// Where each side's melds lie in `pool`: side `s` holds
    /// `bounds[s]..bounds[s + 1]` (`bounds[0]` is always 0).
    bounds: [u8; MAX_SEATS + 1],
    /// Bit `Rank::index` set for every rank a side has a meld of: a meld's
    /// rank is fixed when it is laid (cards added are of its rank), so the
    /// set changes only when melds come or go, and the generator reads it
    /// for every list.
    ranks: [u16; MAX_SEATS],
}

impl Default for MeldTable {
    fn default() -> Self {
        MeldTable {
            pool: [Meld::default(); POOL],
            bounds: [0; MAX_SEATS + 1],
            ranks: [0; MAX_SEATS],
        }
    }
}

impl MeldTable {
    fn range(&self, side: Side) -> std::ops::Range<usize> {
        self.bounds[side.index()] as usize..self.bounds[side.index() + 1] as usize
    }

    fn used(&self) -> usize {
        self.bounds[MAX_SEATS] as usize
    }

    /// Appends a meld to `side`'s.
    ///
    /// # Panics
    /// Past [`MAX_MELDS`] for the side (the generator and the judge stop
    /// before) or past the pool, which no deal can fill.
    pub fn push(&mut self, side: Side, meld: Meld) {
        let (range, used) = (self.range(side), self.used());
        assert!(
            range.len() < MAX_MELDS && used < POOL,
            "no room for another meld of side {side}"
        );
        self.pool.copy_within(range.end..used, range.end + 1);
        self.pool[range.end] = meld;
        self.ranks[side.index()] |= rank_bit(&meld);
        for bound in &mut self.bounds[side.index() + 1..] {
            *bound += 1;
        }
    }

    /// Removes and returns `side`'s melds.
    pub fn take_side(&mut self, side: Side) -> StackVec<Meld, MAX_MELDS> {
        let (range, used) = (self.range(side), self.used());
        let mut taken = StackVec::new();
        taken.extend(self.pool[range.clone()].iter().copied());
        self.pool.copy_within(range.end..used, range.start);
        for slot in &mut self.pool[used - range.len()..used] {
            *slot = Meld::default();
        }
        for bound in &mut self.bounds[side.index() + 1..] {
            *bound -= range.len() as u8;
        }
        self.ranks[side.index()] = 0;
        taken
    }

    /// Bit `Rank::index` set for every rank `side` has a meld of.
    #[inline]
    pub fn ranks(&self, side: Side) -> u16 {
        debug_assert_eq!(
            self.ranks[side.index()],
            self[side].iter().fold(0, |acc, m| acc | rank_bit(m)),
            "a meld's rank changed after it was laid"
        );
        self.ranks[side.index()]
    }

    /// Each side's melds, side 0 first (every seat's side, used or not).
    pub fn sides(&self) -> impl Iterator<Item = &[Meld]> {
        Side::all(MAX_SEATS).map(|s| &self[s])
    }
}

fn rank_bit(meld: &Meld) -> u16 {
    meld.cards.rank().map_or(0, |r| 1 << r.index())
}

impl Index<Side> for MeldTable {
    type Output = [Meld];
    #[inline]
    fn index(&self, side: Side) -> &[Meld] {
        &self.pool[self.range(side)]
    }
}

impl IndexMut<Side> for MeldTable {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut [Meld] {
        let range = self.range(side);
        &mut self.pool[range]
    }
}

impl std::fmt::Debug for MeldTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.sides()).finish()
    }
}

impl PartialEq for MeldTable {
    fn eq(&self, other: &Self) -> bool {
        self.sides().eq(other.sides())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::Group;

    fn meld(rank: crate::card::Rank, n: u8) -> Meld {
        let mut cards = Group::of_rank(rank);
        cards.naturals = [n, 0, 0, 0];
        Meld {
            cards,
            closed: false,
        }
    }

    /// Sides keep their own melds in order whatever side grows, and a side
    /// taken away leaves the others as they were.
    #[test]
    fn sides_keep_their_melds_apart() {
        use crate::card::Rank::*;
        let mut t = MeldTable::default();
        t.push(Side::new(2), meld(Ace, 3));
        t.push(Side::new(0), meld(King, 3));
        t.push(Side::new(2), meld(Queen, 4));
        t.push(Side::new(1), meld(Jack, 5));
        t.push(Side::new(0), meld(Ten, 3));
        assert_eq!(&t[Side::new(0)], &[meld(King, 3), meld(Ten, 3)]);
        assert_eq!(&t[Side::new(1)], &[meld(Jack, 5)]);
        assert_eq!(&t[Side::new(2)], &[meld(Ace, 3), meld(Queen, 4)]);
        assert!(t[Side::new(3)].is_empty() && t[Side::new(5)].is_empty());
        t[Side::new(2)][1].closed = true;
        assert!(t[Side::new(2)][1].closed && !t[Side::new(0)][1].closed);
        let taken = t.take_side(Side::new(0));
        assert_eq!(&taken[..], &[meld(King, 3), meld(Ten, 3)]);
        assert!(t[Side::new(0)].is_empty());
        assert_eq!(&t[Side::new(1)], &[meld(Jack, 5)]);
        assert_eq!(t[Side::new(2)][0], meld(Ace, 3));
        t.push(Side::new(0), meld(Nine, 3));
        assert_eq!(&t[Side::new(0)], &[meld(Nine, 3)]);
        assert_eq!(t.sides().map(<[Meld]>::len).sum::<usize>(), 4);
    }

    /// The pool holds a side's full [`MAX_MELDS`] and the rest of a deck's
    /// worth of melds besides.
    #[test]
    fn a_deck_of_melds_fits() {
        let mut t = MeldTable::default();
        for i in 0..POOL {
            t.push(Side::new(i % 3), meld(crate::card::Rank::Four, 3));
        }
        assert_eq!(t.sides().map(<[Meld]>::len).sum::<usize>(), POOL);
        let mut one = MeldTable::default();
        for _ in 0..MAX_MELDS {
            one.push(Side::new(4), meld(crate::card::Rank::Five, 3));
        }
        assert_eq!(one[Side::new(4)].len(), MAX_MELDS);
    }
}
