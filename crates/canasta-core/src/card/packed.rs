//! A multiset of faces in half the bytes of [`CardCounts`], for the
//! multisets a state keeps for every seat but the hot paths seldom read:
//! the cards others know a hand holds, and the feet (Pennies from Heaven).
//!
//! Search copies a whole state at every iteration, and a state of at most
//! 2 KiB copies about twice as fast as a larger one (see the size check
//! beside `GameState`); packing these two arrays of six saved 336 bytes,
//! most of the 552 that brought the state under it (with `state::stacks`).

use super::{Card, CardCounts, FACES};
use std::fmt;

/// A count fits in four bits: no deck holds more copies of a face (four
/// decks' kings, eight jokers; `Rules` refuses larger decks).
const MAX_COUNT: u8 = 15;
const _: () = assert!(super::MAX_JOKERS <= MAX_COUNT && super::MAX_COPIES_OF_A_FACE <= MAX_COUNT);

#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PackedCounts {
    /// Face `i`'s count in the low four bits of byte `i / 2` for even `i`,
    /// in the high four for odd `i`.
    nibbles: [u8; FACES.div_ceil(2)],
    /// Never more than a deck (`MAX_CARDS`, checked where states are sized).
    total: u8,
}

impl PackedCounts {
    pub const fn new() -> Self {
        PackedCounts {
            nibbles: [0; FACES.div_ceil(2)],
            total: 0,
        }
    }

    #[inline]
    pub fn total(&self) -> usize {
        usize::from(self.total)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    #[inline]
    fn shift(i: usize) -> u32 {
        (i as u32 & 1) * 4
    }

    #[inline]
    fn count_at(&self, i: usize) -> u8 {
        (self.nibbles[i / 2] >> Self::shift(i)) & 0x0f
    }

    #[inline]
    fn set_at(&mut self, i: usize, k: u8) {
        let s = Self::shift(i);
        let byte = &mut self.nibbles[i / 2];
        *byte = (*byte & !(0x0f << s)) | (k << s);
    }

    /// Adds one copy.
    ///
    /// # Panics
    /// In debug builds, past fifteen copies of a face, which no deck holds.
    #[inline]
    pub fn add(&mut self, card: Card) {
        let i = card.index();
        let k = self.count_at(i);
        debug_assert!(k < MAX_COUNT, "a sixteenth {card}");
        if k < MAX_COUNT {
            self.set_at(i, k + 1);
            self.total = self.total.saturating_add(1);
        }
    }

    /// Removes one copy; returns false (and changes nothing) if there is none.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let i = card.index();
        let k = self.count_at(i);
        if k == 0 {
            return false;
        }
        self.set_at(i, k - 1);
        self.total -= 1;
        true
    }

    /// Removes up to `n` copies of `card`.
    #[inline]
    pub fn remove_up_to(&mut self, card: Card, n: u8) {
        let i = card.index();
        let k = self.count_at(i);
        let gone = k.min(n);
        self.set_at(i, k - gone);
        self.total -= gone;
    }

    /// The same multiset as a [`CardCounts`].
    #[inline]
    pub fn unpack(&self) -> CardCounts {
        let mut out = CardCounts::new();
        self.add_to(&mut out);
        out
    }

    /// Adds these cards to `counts` (search adds the cards others know of
    /// to what a seat has seen at every step, so this spreads four bytes of
    /// counts at a time rather than branching per face).
    #[inline]
    pub fn add_to(&self, counts: &mut CardCounts) {
        if self.is_empty() {
            return;
        }
        let mut packed = [0u8; 4 * WORDS];
        packed[..self.nibbles.len()].copy_from_slice(&self.nibbles);
        let mut faces = [0u8; 8 * WORDS];
        for (out, word) in faces.chunks_exact_mut(8).zip(packed.chunks_exact(4)) {
            let word = u32::from_le_bytes(word.try_into().expect("four bytes"));
            out.copy_from_slice(&spread_nibbles(word).to_le_bytes());
        }
        let faces: &[u8; FACES] = faces[..FACES].try_into().expect("FACES long");
        counts.add_faces(faces, u16::from(self.total));
    }
}

/// Four-byte words of packed counts.
const WORDS: usize = FACES.div_ceil(8);

/// Byte `i` of `word`'s low and high four bits become bytes `2i` and
/// `2i + 1`, little-endian: eight faces' counts from one word.
#[inline]
fn spread_nibbles(word: u32) -> u64 {
    let x = u64::from(word);
    let x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    let x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

impl From<&CardCounts> for PackedCounts {
    /// For multisets of a deal's cards (a validated observation's known
    /// cards): counts past fifteen, which no deck holds, stop there.
    fn from(counts: &CardCounts) -> Self {
        let mut faces = [0u8; 2 * FACES.div_ceil(2)];
        for (k, &have) in faces.iter_mut().zip(counts.as_array()) {
            *k = have.min(MAX_COUNT);
        }
        let mut out = PackedCounts::new();
        for (byte, pair) in out.nibbles.iter_mut().zip(faces.chunks_exact(2)) {
            *byte = pair[0] | (pair[1] << 4);
        }
        let total: usize = faces.iter().map(|&k| usize::from(k)).sum();
        debug_assert!(total <= usize::from(u8::MAX), "more cards than a deck");
        out.total = u8::try_from(total).unwrap_or(u8::MAX);
        out
    }
}

impl fmt::Debug for PackedCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.unpack(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(text: &str) -> CardCounts {
        text.split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn every_face_keeps_its_count_beside_its_neighbours() {
        let mut all = CardCounts::new();
        for (i, card) in Card::all().enumerate() {
            all.add_n(card, (i % 9) as u8);
        }
        let packed = PackedCounts::from(&all);
        assert_eq!(packed.unpack(), all);
        assert_eq!(packed.total(), all.total());
    }

    #[test]
    fn adds_and_removes_as_counts_do() {
        let mut packed = PackedCounts::new();
        let mut plain = CardCounts::new();
        for c in counts("JK JK JK JK JK JK JK JK 2C 2C KH AS 4D 4D").iter() {
            packed.add(c);
            plain.add(c);
        }
        assert_eq!(packed.unpack(), plain);
        assert!(packed.remove("KH".parse().unwrap()));
        assert!(!packed.remove("KH".parse().unwrap()));
        assert!(packed.remove(Card::JOKER));
        packed.remove_up_to("4D".parse().unwrap(), 3);
        packed.remove_up_to("QS".parse().unwrap(), 1);
        assert_eq!(packed.unpack(), counts("JK JK JK JK JK JK JK 2C 2C AS"));
        assert_eq!(packed.total(), 10);
        assert_eq!(std::mem::size_of::<PackedCounts>(), 28);
    }
}
