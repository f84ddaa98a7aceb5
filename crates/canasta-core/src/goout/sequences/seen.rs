//! The points a search has explored, on the stack while few.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The search points already explored: an open-addressing table on the
/// stack while small, a hash set once it is half full.
pub(super) struct Seen {
    /// Keys plus one (zero marks an empty slot; keys stay below 2^60).
    table: [u64; Seen::SLOTS],
    used: usize,
    spill: Option<HashSet<u64, BuildHasherDefault<PackedHasher>>>,
}

impl Seen {
    const SLOTS: usize = 512;

    pub(super) fn new() -> Seen {
        Seen {
            table: [0; Seen::SLOTS],
            used: 0,
            spill: None,
        }
    }

    /// Adds `key`; false if it was already there.
    pub(super) fn insert(&mut self, key: u64) -> bool {
        if let Some(set) = &mut self.spill {
            return set.insert(key);
        }
        let k = key + 1;
        let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 55) as usize;
        loop {
            match self.table[i] {
                0 => break,
                x if x == k => return false,
                _ => i = (i + 1) % Seen::SLOTS,
            }
        }
        if self.used < Seen::SLOTS / 2 {
            self.table[i] = k;
            self.used += 1;
        } else {
            let mut set: HashSet<u64, BuildHasherDefault<PackedHasher>> = self
                .table
                .iter()
                .filter(|&&x| x != 0)
                .map(|&x| x - 1)
                .collect();
            set.insert(key);
            self.spill = Some(set);
        }
        true
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
