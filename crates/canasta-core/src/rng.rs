//! A small deterministic random generator (xoshiro256**, seeded by
//! SplitMix64), so that the same seed deals the same decks on every machine,
//! thread count and library version. The engine itself never draws random
//! numbers: callers shuffle decks and bots choose with it.

use crate::card::Card;

/// xoshiro256** with SplitMix64 seeding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut st = seed;
        Rng {
            s: [
                splitmix(&mut st),
                splitmix(&mut st),
                splitmix(&mut st),
                splitmix(&mut st),
            ],
        }
    }

    /// A generator for stream `index` of `seed` (game `index` of a run),
    /// independent of how streams are spread over threads.
    pub fn stream(seed: u64, index: u64) -> Rng {
        let mut st = seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let mixed = splitmix(&mut st) ^ index;
        Rng::new(mixed)
    }

    /// The generator's whole state, to store it and go on later from the
    /// same point ([`Rng::from_state`]).
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// A generator that goes on from a stored [`Rng::state`]; `None` for
    /// the all-zero state, which xoshiro never leaves (and never reaches).
    pub fn from_state(s: [u64; 4]) -> Option<Rng> {
        (s != [0; 4]).then_some(Rng { s })
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (Lemire's multiply-shift with rejection). `n > 0`.
    ///
    /// The rejection threshold `2^64 mod n` is below `n`, so a low word of
    /// at least `n` is accepted without working it out: the division runs
    /// only for the rare low words under `n`, with the same results.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        let n = n as u64;
        loop {
            let x = self.next_u64();
            let m = (x as u128) * (n as u128);
            let low = m as u64;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 64) as usize;
            }
        }
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// The deck of `rules`, shuffled by `rng`; index 0 is the top.
pub fn shuffled_deck(rules: &crate::Rules, rng: &mut Rng) -> Vec<Card> {
    let mut deck = rules.deck().to_vec();
    rng.shuffle(&mut deck);
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::stream(7, 0).next_u64(), Rng::stream(7, 1).next_u64());
    }

    #[test]
    fn a_stored_state_goes_on_with_the_same_numbers() {
        let mut a = Rng::new(11);
        a.next_u64();
        let mut b = Rng::from_state(a.state()).expect("a reached state is never all zero");
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert!(Rng::from_state([0; 4]).is_none());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[r.below(7)] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn shuffled_deck_is_a_permutation() {
        let rules = crate::Rules::classic();
        let deck = shuffled_deck(&rules, &mut Rng::new(3));
        assert_eq!(
            crate::CardCounts::from_cards(deck.iter().copied()),
            rules.deck()
        );
    }
}
