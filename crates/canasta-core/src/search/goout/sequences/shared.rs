//! Outcomes shared by the going-out searches of one position's candidate
//! actions. A player bound to go out (or about to meld black threes, in
//! two sizes) has every candidate searched, on hands and melds that differ
//! from one another in a rank or a suit; most of a search is worked out
//! rank by rank ([`rank_outcomes`](super::rank_outcomes)) and suit by suit
//! ([`suit_outcomes`](super::suit_outcomes)), and in random two-player
//! Samba about half of those answers were worked out already for the same
//! position. Lives on the stack for one generated list: full tables keep
//! what they hold and take nothing more.

use super::{Outcomes, Packed, Reach};
use arrayvec::ArrayVec;

/// The shared answers: one per rank and naturals left over (for ranks with
/// at most two melds, nearly all of them), one per suit's cards.
#[derive(Default)]
pub(crate) struct SharedOutcomes {
    pub(super) ranks: RankTable,
    pub(super) suits: SuitTable,
}

/// Answers by key, at most `N` of them: once full, it keeps what it holds
/// and takes nothing more.
pub(crate) struct Table<K, V, const N: usize> {
    keys: ArrayVec<K, N>,
    values: ArrayVec<V, N>,
}

impl<K, V, const N: usize> Default for Table<K, V, N> {
    fn default() -> Self {
        Table {
            keys: ArrayVec::new(),
            values: ArrayVec::new(),
        }
    }
}

impl<K: Copy + PartialEq, V: Clone + PartialEq, const N: usize> Table<K, V, N> {
    /// The answer under `key` in `table`, else `compute`'s, kept there for
    /// the next search while there is room and `keep` accepts it. Without a
    /// table or a key it is simply computed. Debug builds check a shared
    /// answer against its own.
    pub(super) fn look_up_or(
        table: Option<&mut Self>,
        key: Option<K>,
        mut compute: impl FnMut() -> V,
        keep: impl Fn(&V) -> bool,
    ) -> V {
        let (Some(table), Some(key)) = (table, key) else {
            return compute();
        };
        if let Some(i) = table.keys.iter().position(|&k| k == key) {
            debug_assert!(
                table.values[i] == compute(),
                "a shared answer differs from its own ({})",
                std::any::type_name::<V>()
            );
            return table.values[i].clone();
        }
        let value = compute();
        if keep(&value) && table.keys.try_push(key).is_ok() {
            table.values.push(value.clone());
        }
        value
    }
}

/// A rank's outcomes by a packed key: the rank, the naturals left over,
/// the wild cards in hand, the canastas still needed and the rank's melds.
pub(crate) type RankTable = Table<u64, Reach, 64>;

impl RankTable {
    /// The key of a rank's outcomes, or `None` for more than two melds of
    /// the rank (rare; not shared).
    pub(super) fn key(
        rank: usize,
        n: u8,
        own: &[(u8, u8, bool)],
        pool: u8,
        need: u8,
    ) -> Option<u64> {
        if own.len() > 2 {
            return None;
        }
        let meld = |&(naturals, wilds, done): &(u8, u8, bool)| {
            u64::from(naturals) | u64::from(wilds) << 8 | u64::from(done) << 16
        };
        // Rank (4 bits), naturals (8), pool (8), need (3: at most
        // `MAX_NEED`), melds (2), then 17 bits a meld: 59 in all.
        debug_assert!(rank < 16 && need < 8, "rank {rank}, need {need}");
        let mut key = rank as u64
            | u64::from(n) << 4
            | u64::from(pool) << 12
            | u64::from(need) << 20
            | (own.len() as u64) << 23;
        for (i, m) in own.iter().enumerate() {
            key |= meld(m) << (25 + 17 * i);
        }
        Some(key)
    }
}

/// A suit's undominated outcomes by its cards, the side's open sequences
/// of the suit and the ranks it has melds of. Only outcomes that fit on
/// the stack are kept: a copy of one that does not would allocate.
pub(crate) type SuitTable = Table<(Packed, Packed, u64), Outcomes, 8>;

impl SuitTable {
    /// The key of a suit's outcomes, or `None` for more than seven open
    /// sequences of the suit (not shared).
    pub(super) fn key(
        cards: Packed,
        runs: &[(u8, u8)],
        melded: Packed,
    ) -> Option<(Packed, Packed, u64)> {
        if runs.len() > 7 {
            return None;
        }
        // A run's lowest and highest rank index, four bits each, and the
        // number of runs on top.
        let packed = runs
            .iter()
            .enumerate()
            .fold((runs.len() as u64) << 56, |acc, (i, &(lo, hi))| {
                acc | (u64::from(lo) | u64::from(hi) << 4) << (8 * i)
            });
        Some((cards, melded, packed))
    }
}
