//! The points a search has explored, on the stack while few.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The search points already explored: a small open-addressing table on
/// the stack (most searches explore a handful of points, and clearing a
/// big table cost more than the search), a big one once the small one is
/// half full, and a hash set once the big one is.
pub(super) struct Seen {
    small: Table<32>,
    /// Not cleared until needed: `None` costs nothing to make.
    big: Option<Table<512>>,
    spill: Option<HashSet<u64, BuildHasherDefault<PackedHasher>>>,
}

/// Keys plus one (zero marks an empty slot; keys stay below 2^60).
struct Table<const N: usize> {
    slots: [u64; N],
    used: usize,
}

impl<const N: usize> Table<N> {
    fn new() -> Self {
        Table {
            slots: [0; N],
            used: 0,
        }
    }

    /// Adds `key`: `Some(false)` if it was there, `None` if the table is
    /// half full (the caller moves on to a bigger one).
    fn insert(&mut self, key: u64) -> Option<bool> {
        let k = key + 1;
        let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % N;
        loop {
            match self.slots[i] {
                0 => break,
                x if x == k => return Some(false),
                _ => i = (i + 1) % N,
            }
        }
        if self.used >= N / 2 {
            return None;
        }
        self.slots[i] = k;
        self.used += 1;
        Some(true)
    }

    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().filter(|&&x| x != 0).map(|&x| x - 1)
    }
}

impl Seen {
    pub(super) fn new() -> Seen {
        Seen {
            small: Table::new(),
            big: None,
            spill: None,
        }
    }

    /// Adds `key`; false if it was already there.
    pub(super) fn insert(&mut self, key: u64) -> bool {
        if let Some(set) = &mut self.spill {
            return set.insert(key);
        }
        if let Some(big) = &mut self.big {
            if let Some(new) = big.insert(key) {
                return new;
            }
            let mut set: HashSet<u64, BuildHasherDefault<PackedHasher>> = big.keys().collect();
            let new = set.insert(key);
            self.spill = Some(set);
            return new;
        }
        if let Some(new) = self.small.insert(key) {
            return new;
        }
        let mut big = Table::new();
        for k in self.small.keys() {
            big.insert(k);
        }
        let new = big.insert(key).expect("room in the big table");
        self.big = Some(big);
        new
    }
}

/// A fast hasher for packed leftovers (no untrusted input reaches it).
#[derive(Default)]
struct PackedHasher(u64);

impl Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Through every tier (small table, big table, hash set), `insert`
    /// answers as a set does.
    #[test]
    fn answers_as_a_set_through_every_tier() {
        let mut seen = Seen::new();
        let mut set = std::collections::HashSet::new();
        let mut x = 7u64;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = (x >> 40) % 700;
            assert_eq!(seen.insert(key), set.insert(key), "key {key}");
        }
        assert!(seen.spill.is_some(), "the test reached the hash set");
    }
}
