//! The general going-out test, for canasta kinds (Canastone's clean and
//! dirty, Pennies' four) and wild melds: a small dynamic programme over
//! the side's melds, tracking wild cards used and canastas made.

use super::{HandShape, MeldShape, WILD_MELD, rank_mask};
use crate::card::Rank;
use crate::meld::CanastaKind;
use crate::meld::wild_room;
use crate::rules::Rules;
use arrayvec::ArrayVec;
use smallvec::SmallVec;

/// The general test, for canasta kinds and wild melds: a small dynamic
/// programme over the melds, tracking wild cards used and canastas made.
pub(super) fn placeable_general(
    rules: &Rules,
    hand: &HandShape,
    melds: &[MeldShape],
    need_total: u8,
) -> bool {
    if hand.red_threes > 0 {
        return false;
    }
    let three = Rank::Three.index() as u8;
    let has_meld = rank_mask(melds);
    let b = if rules.melds.special_threes() {
        hand.ranks[three as usize]
    } else {
        0
    };
    if b > 0 && (!rules.melds.black_threes_may_meld(b) || has_meld & (1 << three) != 0) {
        return false;
    }
    // Rank melds: (naturals now, naturals at the end, wilds now, fewest and
    // most wild cards to add).
    let mut items: ArrayVec<(u8, u8, u8, u8, u8), 32> = ArrayVec::new();
    // Closed canastas take no cards (Canastia) but count.
    let (mut closed_clean, mut closed_dirty) = (0u8, 0u8);
    for m in melds {
        if (m.rank == three && rules.melds.special_threes()) || m.rank == WILD_MELD {
            continue;
        }
        if m.closed {
            if hand.ranks[m.rank as usize] > 0 {
                return false;
            }
            match m.canasta(rules) {
                Some(true) => closed_clean += 1,
                Some(false) => closed_dirty += 1,
                None => {}
            }
            continue;
        }
        let n_final = m.naturals + hand.ranks[m.rank as usize];
        let cap = wild_room(rules, m.rank(), m.naturals, n_final, m.wilds);
        items.push((m.naturals, n_final, m.wilds, 0, cap));
    }
    for &rank in rules.melds.ranks() {
        let n = hand.ranks[rank.index()];
        if n == 0 || has_meld & (1 << rank.index()) != 0 {
            continue;
        }
        if !rules.melds.enough_naturals(n) {
            return false;
        }
        let need = rules.melds.short_of_a_meld(n);
        let cap = wild_room(rules, Some(rank), 0, n, 0);
        if need > cap {
            return false;
        }
        items.push((0, n, 0, need, cap));
    }
    // The wild meld: it must end a canasta, or not be begun. It takes any
    // number of wild cards past the canasta's size, in the action that
    // makes it one where wild cards may not go on a canasta (P-CNE), and
    // then none.
    let wild = melds.iter().find(|m| m.rank == WILD_MELD).copied();
    let size = rules.melds.canasta_length();
    let (j_all, t_all) = (hand.jokers, hand.wilds - hand.jokers);
    // (jokers, twos, kind of the canasta it ends: `None`, not begun), one
    // per count of wild cards left over and kind: nothing else about the
    // choice matters below.
    let mut wild_options: ArrayVec<(u8, u8, Option<bool>), 64> = ArrayVec::new();
    let mut offer = |j: u8, t: u8, kind: Option<bool>| {
        let pool = j_all + t_all - j - t;
        if !wild_options
            .iter()
            .any(|&(j0, t0, k0)| j_all + t_all - j0 - t0 == pool && k0 == kind)
        {
            wild_options.push((j, t, kind));
        }
    };
    let (have, begun) = wild.map_or((0, (0, 0)), |w| {
        (w.naturals + w.wilds, (w.jokers, w.wilds - w.jokers))
    });
    if wild.is_none() {
        offer(0, 0, None);
    }
    if rules.melds.wild_melds_allowed() {
        // Wild cards that end it a canasta: `add` or more, or none once it
        // is one where wild cards may not go on a canasta.
        let add = size.saturating_sub(have);
        let closed = !rules.melds.wilds_may_join(add == 0);
        let (j_most, t_most) = if closed { (0, 0) } else { (j_all, t_all) };
        for j in 0..=j_most {
            for t in add.saturating_sub(j)..=t_most {
                let clean =
                    CanastaKind::of_wild_cards(begun.0 + j, begun.1 + t) == CanastaKind::Natural;
                offer(j, t, Some(clean));
            }
        }
    }
    let kinds = rules.going_out.kinds_needed();
    let (need_clean, need_dirty) = (kinds.clean, kinds.dirty);
    // Canastas already complete among melds that take no new cards count in
    // the items above (rank melds) or in the wild option (wild meld).
    for (j, t, wild_kind) in wild_options {
        let pool = (j_all - j) + (t_all - t);
        let counts = rules.going_out.counts_wild_canastas();
        let (c0, d0) = match wild_kind {
            _ if !counts => (0, 0),
            Some(true) => (1, 0),
            Some(false) => (0, 1),
            None => (0, 0),
        };
        let (c0, d0) = (c0 + closed_clean, d0 + closed_dirty);
        if dp_reaches(
            rules,
            &items,
            pool,
            (c0, d0),
            (need_total, need_clean, need_dirty),
        ) {
            return true;
        }
    }
    false
}

/// Can the rank melds take exactly `pool` wild cards and end with enough
/// canastas (`start` = clean and dirty canastas already counted)?
///
/// A dynamic programme over the melds whose states are (wild cards used,
/// clean, dirty and all canastas made, each capped at its need). A meld's
/// canasta depends only on the wild cards it takes, not on those used
/// before, so the wild-card counts reachable at each canasta count are
/// one bit set, and a meld taking `x` wild cards shifts it by `x`.
fn dp_reaches(
    rules: &Rules,
    items: &[(u8, u8, u8, u8, u8)],
    pool: u8,
    start: (u8, u8),
    need: (u8, u8, u8),
) -> bool {
    // One word holds every count of wild cards: `Rules` allows at most
    // four packs and eight jokers, 24 wild cards.
    debug_assert!(pool < 64, "{pool} wild cards");
    let (nt, nc, nd) = need;
    if !may_reach(rules, items, pool, start, need) {
        return false;
    }
    let dims = (nc as usize + 1, nd as usize + 1, nt as usize + 1);
    let idx = |c: usize, d: usize, t: usize| (c * dims.1 + d) * dims.2 + t;
    let len = dims.0 * dims.1 * dims.2;
    let within = u64::MAX >> (63 - pool);
    // On the stack for every preset; only house rules asking for many
    // canastas go to the heap.
    let mut cur: SmallVec<[u64; 32]> = smallvec::smallvec![0; len];
    let mut next: SmallVec<[u64; 32]> = smallvec::smallvec![0; len];
    let cap = |x: u8, n: u8| x.min(n) as usize;
    let (c0, d0) = start;
    cur[idx(cap(c0, nc), cap(d0, nd), cap(c0 + d0, nt))] = 1;
    for &(_, n_final, w0, lo, hi) in items {
        next.fill(0);
        for c in 0..dims.0 {
            for d in 0..dims.1 {
                for t in 0..dims.2 {
                    let used = cur[idx(c, d, t)];
                    if used == 0 {
                        continue;
                    }
                    for x in lo..=hi.min(pool) {
                        let total = n_final + w0 + x;
                        let (dc, dd) = if rules.melds.has_canasta_length(total) {
                            if w0 + x == 0 { (1, 0) } else { (0, 1) }
                        } else {
                            (0, 0)
                        };
                        let c2 = (c + dc).min(nc as usize);
                        let d2 = (d + dd).min(nd as usize);
                        let t2 = (t + dc + dd).min(nt as usize);
                        next[idx(c2, d2, t2)] |= (used << x) & within;
                    }
                }
            }
        }
        std::mem::swap(&mut cur, &mut next);
    }
    cur[idx(nc as usize, nd as usize, nt as usize)] >> pool & 1 == 1
}

/// What [`dp_reaches`] can reach at best, counted meld by meld: each meld
/// may take from its fewest to its most wild cards (no more than the
/// pool), so the wild cards placed lie between the sums of those, and a
/// meld counts toward a kind of canasta only if some choice makes it one.
/// Necessary, not sufficient: most going-out tests of a side far from its
/// canastas end here, before the programme.
fn may_reach(
    rules: &Rules,
    items: &[(u8, u8, u8, u8, u8)],
    pool: u8,
    start: (u8, u8),
    need: (u8, u8, u8),
) -> bool {
    let size = rules.melds.canasta_length();
    let (mut least, mut most) = (0u32, 0u32);
    let (mut clean, mut dirty, mut any) = (start.0, start.1, start.0 + start.1);
    for &(_, n_final, w0, lo, hi) in items {
        let hi = hi.min(pool);
        if lo > hi {
            return false;
        }
        least += u32::from(lo);
        most += u32::from(hi);
        let can = n_final + w0 + hi >= size;
        any += u8::from(can);
        clean += u8::from(w0 == 0 && lo == 0 && n_final >= size);
        dirty += u8::from(can && w0 + hi > 0);
    }
    let (nt, nc, nd) = need;
    (least..=most).contains(&u32::from(pool)) && any >= nt && clean >= nc && dirty >= nd
}
