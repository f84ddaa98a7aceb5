//! Going-out feasibility where melds are capped (P-PEN: seven cards at
//! most, after which a new meld of the rank may begin). The counting tests
//! of [`crate::search::goout`] assume one meld per rank that can take any number of
//! naturals; here surplus naturals must form further melds, a meld can be
//! full, and canastas come in four kinds. Still exact, still no search over
//! card orders: each rank is reduced to the set of outcomes (wild cards it
//! absorbs, canastas it completes by kind), and a small dynamic programme
//! combines the ranks; the wild cards left over must form wild melds.

use crate::card::Rank;
use crate::meld::{CanastaKind, GoOutKind};
use crate::rules::KindCounts;
use crate::rules::Rules;
use crate::search::goout::{HandShape, MeldShape, WILD_MELD};

/// What one rank's cards can end as: wild cards used and canastas gained.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Outcome {
    wilds: u8,
    gains: [u8; 4],
}

fn plus(a: [u8; 4], b: [u8; 4]) -> [u8; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

/// Index of a kind in `Outcome::gains`.
fn slot(kind: GoOutKind) -> usize {
    match kind {
        GoOutKind::Clean => 0,
        GoOutKind::Dirty => 1,
        GoOutKind::Wild => 2,
        GoOutKind::Special => 3,
    }
}

/// The most of each kind that can matter: what the rules need, and the
/// total needed for any kind.
fn caps(rules: &Rules, need_total: u8) -> [u8; 4] {
    let kinds = rules.going_out.kinds_needed();
    let need = [kinds.clean, kinds.dirty, kinds.wild, kinds.special];
    need.map(|n| n.max(need_total))
}

fn kind_of(rules: &Rules, rank: Option<Rank>, wilds: u8) -> GoOutKind {
    let kind = if wilds == 0 {
        CanastaKind::Natural
    } else {
        CanastaKind::Mixed
    };
    GoOutKind::of(rules, rank, kind)
}

/// Every outcome of placing `n` naturals of `rank`: part of them (with wild
/// cards) on the open meld `open` (naturals, wilds), the rest in new melds,
/// which may begin only once the meld before them is full.
fn rank_outcomes(
    rules: &Rules,
    rank: Rank,
    n: u8,
    open: Option<(u8, u8)>,
    max_wilds: u8,
    out: &mut Vec<Outcome>,
) {
    let cap = rules.melds.cap();
    let size = rules.melds.canasta_length();
    let mut memo: Vec<Option<Vec<Outcome>>> = vec![None; n as usize + 1];
    let (a, b) = open.unwrap_or((0, 0));
    let room = if open.is_some() {
        cap.saturating_sub(a + b)
    } else {
        0
    };
    for k in 0..=n.min(room) {
        let wild_cap = if open.is_some() {
            rules
                .melds
                .wild_capacity_of(Some(rank), a + k)
                .saturating_sub(b)
                .min(room - k)
                .min(max_wilds)
        } else {
            0
        };
        for x in 0..=wild_cap {
            let rest = n - k;
            if rest > 0 && open.is_some() && a + b + k + x < cap {
                continue;
            }
            let mut gains = [0; 4];
            if open.is_some() && a + b + k + x >= size {
                gains[slot(kind_of(rules, Some(rank), b + x))] += 1;
            }
            partitions(rules, rank, rest, max_wilds, &mut memo);
            for p in memo[rest as usize].as_deref().unwrap_or_default() {
                let w = x + p.wilds;
                if w <= max_wilds {
                    out.push(Outcome {
                        wilds: w,
                        gains: plus(gains, p.gains),
                    });
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// Outcomes of laying `m` naturals of `rank` as new melds (each of
/// `min_meld` cards up to the cap, with its wild cards), every one full but
/// the last; memoised by `m`.
fn partitions(
    rules: &Rules,
    rank: Rank,
    m: u8,
    max_wilds: u8,
    memo: &mut Vec<Option<Vec<Outcome>>>,
) {
    if memo[m as usize].is_some() {
        return;
    }
    let mut found: Vec<Outcome> = Vec::new();
    if m == 0 {
        found.push(Outcome {
            wilds: 0,
            gains: [0; 4],
        });
    }
    let cap = rules.melds.cap();
    let size = rules.melds.canasta_length();
    for p in rules.melds.natural_group_sizes(m.min(cap)) {
        let rest = m - p;
        let wild_cap = rules
            .melds
            .wild_capacity_of(Some(rank), p)
            .min(cap - p)
            .min(max_wilds);
        let least = rules.melds.short_of_a_meld(p);
        if least > wild_cap {
            continue;
        }
        // A meld followed by another must be full.
        let least = if rest > 0 { least.max(cap - p) } else { least };
        if least > wild_cap {
            continue;
        }
        partitions(rules, rank, rest, max_wilds, memo);
        let tails = memo[rest as usize].clone().unwrap_or_default();
        for y in least..=wild_cap {
            let mut gains = [0; 4];
            if p + y >= size {
                gains[slot(kind_of(rules, Some(rank), y))] += 1;
            }
            for t in &tails {
                let w = t.wilds + y;
                if w <= max_wilds {
                    found.push(Outcome {
                        wilds: w,
                        gains: plus(t.gains, gains),
                    });
                }
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    memo[m as usize] = Some(found);
}

/// Wild canastas made by placing `pool` wild cards in wild melds (the open
/// one, holding `open` cards, filled first; each further meld begun only
/// once the one before is full), or `None` if they cannot all be placed.
fn wild_meld_canastas(rules: &Rules, pool: u8, open: Option<u8>) -> Option<u8> {
    if pool == 0 {
        return Some(0);
    }
    if !rules.melds.wild_melds_allowed() {
        return None;
    }
    // A wild meld grows to a canasta and no further.
    let cap = rules.melds.wild_meld_cap();
    let (mut made, mut rest) = (0, pool);
    if let Some(have) = open {
        let k = rest.min(cap - have);
        rest -= k;
        made += u8::from(have + k >= cap);
    }
    made += rest / cap;
    let last = rest % cap;
    (last == 0 || rules.melds.long_enough(last)).then_some(made)
}

/// Can every card of `hand` be melded, with melds capped, ending with the
/// canastas the side needs? (Black threes: `min_meld` or more, no wild
/// cards, only while going out, never added to.)
pub(crate) fn placeable_capped(
    rules: &Rules,
    hand: &HandShape,
    melds: &[MeldShape],
    need_total: u8,
) -> bool {
    if hand.red_threes > 0 {
        return false;
    }
    let three = Rank::Three.index();
    let special_threes = rules.melds.special_threes();
    if special_threes {
        let b = hand.ranks[three];
        let has_threes = melds.iter().any(|m| m.rank as usize == three);
        if b > 0 && (!rules.melds.black_threes_may_meld(b) || has_threes) {
            return false;
        }
    }
    let caps = caps(rules, need_total);
    let mut start = KindCounts::default();
    let mut open_by_rank: [Option<(u8, u8)>; 13] = [None; 13];
    let mut open_wild: Option<u8> = None;
    for m in melds {
        let open = !rules.melds.full(m.len()) && !m.closed;
        if m.rank == WILD_MELD {
            if open && !rules.melds.has_canasta_length(m.len()) {
                open_wild = Some(m.len());
                continue;
            }
        } else if open && !(special_threes && m.rank as usize == three) {
            open_by_rank[m.rank as usize] = Some((m.naturals, m.wilds));
            continue;
        }
        if let Some(clean) = m.canasta(rules) {
            let kind = if clean {
                CanastaKind::Natural
            } else {
                CanastaKind::Mixed
            };
            start.add(GoOutKind::of(rules, m.rank(), kind));
        }
    }
    let pool = hand.wilds;
    // Dense table over (wild cards used, canastas of each kind capped).
    let dims = [
        pool as usize + 1,
        caps[0] as usize + 1,
        caps[1] as usize + 1,
        caps[2] as usize + 1,
        caps[3] as usize + 1,
    ];
    let len: usize = dims.iter().product();
    let idx = |w: usize, g: [u8; 4]| {
        let mut i = w;
        for k in 0..4 {
            i = i * dims[k + 1] + g[k].min(caps[k]) as usize;
        }
        i
    };
    let unpack = |mut i: usize| {
        let mut g = [0u8; 4];
        for k in (0..4).rev() {
            g[k] = (i % dims[k + 1]) as u8;
            i /= dims[k + 1];
        }
        (i, g)
    };
    let mut cur = vec![false; len];
    cur[idx(0, [start.clean, start.dirty, start.wild, start.special])] = true;
    let mut outcomes = Vec::new();
    for &rank in rules.melds.ranks() {
        let n = hand.ranks[rank.index()];
        let open = open_by_rank[rank.index()];
        if n == 0 && open.is_none() {
            continue;
        }
        outcomes.clear();
        rank_outcomes(rules, rank, n, open, pool, &mut outcomes);
        if outcomes.is_empty() {
            return false;
        }
        let mut next = vec![false; len];
        for (i, &on) in cur.iter().enumerate() {
            if !on {
                continue;
            }
            let (w, g) = unpack(i);
            for o in &outcomes {
                let w2 = w + o.wilds as usize;
                if w2 > pool as usize {
                    continue;
                }
                let mut g2 = g;
                for k in 0..4 {
                    g2[k] = (g2[k] + o.gains[k]).min(caps[k]);
                }
                next[idx(w2, g2)] = true;
            }
        }
        cur = next;
    }
    let wild_slot = slot(GoOutKind::of(rules, None, CanastaKind::Mixed));
    for (i, &on) in cur.iter().enumerate() {
        if !on {
            continue;
        }
        let (w, g) = unpack(i);
        let Some(wild_canastas) = wild_meld_canastas(rules, pool - w as u8, open_wild) else {
            continue;
        };
        let mut g = g;
        g[wild_slot] = (g[wild_slot] + wild_canastas).min(caps[wild_slot]);
        let kinds = KindCounts {
            clean: g[0],
            dirty: g[1],
            wild: g[2],
            special: g[3],
        };
        if kinds.meet(rules, need_total) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::collections::HashSet;

    /// A meld in the brute-force search: rank index (`None`: wild cards
    /// only), naturals, wild cards.
    type M = (Option<usize>, u8, u8);

    /// Places the hand one card at a time in every possible way (naturals
    /// first, then wild cards), and checks the end state: every meld valid,
    /// at most one meld of a rank not full, the canasta kinds met.
    fn brute(
        rules: &Rules,
        hand: [u8; 13],
        wilds: u8,
        melds: &mut Vec<M>,
        need: u8,
        seen: &mut HashSet<(Vec<M>, [u8; 13], u8)>,
    ) -> bool {
        let mut key = melds.clone();
        key.sort();
        if !seen.insert((key, hand, wilds)) {
            return false;
        }
        let cap = rules.melds.cap();
        let size = rules.melds.canasta_length();
        let open = |melds: &Vec<M>, r: Option<usize>| {
            melds
                .iter()
                .position(|&(mr, n, w)| mr == r && n + w < cap && (r.is_some() || n + w < size))
        };
        if let Some(r) = (0..13).find(|&r| hand[r] > 0) {
            let mut h = hand;
            h[r] -= 1;
            let ok = match open(melds, Some(r)) {
                Some(i) => {
                    melds[i].1 += 1;
                    let ok = brute(rules, h, wilds, melds, need, seen);
                    melds[i].1 -= 1;
                    ok
                }
                None => {
                    melds.push((Some(r), 1, 0));
                    let ok = brute(rules, h, wilds, melds, need, seen);
                    melds.pop();
                    ok
                }
            };
            if ok {
                return true;
            }
        }
        if wilds > 0 {
            for i in 0..melds.len() {
                let (r, n, w) = melds[i];
                let room = match r {
                    Some(r) => {
                        n + w < cap
                            && w < rules.melds.wild_capacity_of(Some(Rank::from_index(r)), n)
                    }
                    None => n + w < size,
                };
                if room {
                    melds[i].2 += 1;
                    let ok = brute(rules, hand, wilds - 1, melds, need, seen);
                    melds[i].2 -= 1;
                    if ok {
                        return true;
                    }
                }
            }
            if rules.melds.wild_melds_allowed() && open(melds, None).is_none() {
                melds.push((None, 0, 1));
                let ok = brute(rules, hand, wilds - 1, melds, need, seen);
                melds.pop();
                if ok {
                    return true;
                }
            }
            false
        } else if hand.iter().any(|&n| n > 0) {
            false
        } else {
            let mut kinds = KindCounts::default();
            for &(r, n, w) in melds.iter() {
                let len = n + w;
                let valid = match r {
                    Some(_) => rules.melds.long_enough(len) && rules.melds.enough_naturals(n),
                    None => rules.melds.long_enough(len),
                };
                if !valid {
                    return false;
                }
                if len >= size {
                    kinds.add(kind_of(rules, r.map(Rank::from_index), w));
                }
            }
            for r in 0..13 {
                let open_melds = melds
                    .iter()
                    .filter(|&&(mr, n, w)| mr == Some(r) && n + w < cap)
                    .count();
                if open_melds > 1 {
                    return false;
                }
            }
            kinds.meet(rules, need)
        }
    }

    /// The dynamic programme agrees with brute force on random small
    /// Pennies positions: hands of a few ranks, some wild cards, and melds
    /// already on the table (some full).
    #[test]
    fn capped_placement_matches_brute_force() {
        let rules = Rules::preset("pennies", None, None).unwrap();
        let mut rng = Rng::new(7);
        let ranks = [Rank::Four, Rank::Seven, Rank::King, Rank::Ace];
        let (mut yes, mut no) = (0, 0);
        for _ in 0..3000 {
            let mut hand = [0u8; 13];
            for r in ranks {
                if rng.below(2) == 0 {
                    hand[r.index()] = rng.below(9) as u8;
                }
            }
            let wilds = rng.below(7) as u8;
            let mut melds: Vec<M> = Vec::new();
            let mut shapes: Vec<MeldShape> = Vec::new();
            for r in ranks {
                match rng.below(4) {
                    0 => {}
                    1 => {
                        // A full canasta, clean or not (sevens: clean).
                        let w = if r == Rank::Seven {
                            0
                        } else {
                            rng.below(3) as u8
                        };
                        melds.push((Some(r.index()), 7 - w, w));
                    }
                    _ => {
                        let n = 3 + rng.below(3) as u8;
                        let w = if r == Rank::Seven {
                            0
                        } else {
                            rng.below(2) as u8
                        };
                        melds.push((Some(r.index()), n, w));
                    }
                }
            }
            match rng.below(3) {
                0 => melds.push((None, 7, 0)),
                1 => melds.push((None, 0, 3 + rng.below(3) as u8)),
                _ => {}
            }
            for &(r, n, w) in &melds {
                shapes.push(MeldShape {
                    rank: r.map_or(WILD_MELD, |r| r as u8),
                    naturals: n,
                    wilds: w,
                    jokers: 0,
                    closed: false,
                    seq: false,
                });
            }
            let shape = HandShape {
                ranks: hand,
                wilds,
                jokers: 0,
                red_threes: 0,
            };
            for need in [1, 4] {
                let fast = placeable_capped(&rules, &shape, &shapes, need);
                let slow = brute(
                    &rules,
                    hand,
                    wilds,
                    &mut melds.clone(),
                    need,
                    &mut HashSet::new(),
                );
                assert_eq!(
                    fast, slow,
                    "hand {hand:?} wilds {wilds} melds {melds:?} need {need}"
                );
                if fast {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(
            yes > 100 && no > 100,
            "both answers are exercised: {yes} {no}"
        );
    }
}
