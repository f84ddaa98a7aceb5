//! Going-out feasibility with sequences and several melds of a rank
//! (Samba). A natural can go to a group of its rank or to a sequence of its
//! suit, so the counting tests of [`crate::goout`] do not apply. Still
//! exact: each suit is reduced to the ways its cards can extend the side's
//! sequences or form new ones (cards used by rank, sambas made), suits are
//! combined by what they leave over, and what is left must form rank groups
//! with every wild card, ending with the canastas the side needs.

use crate::card::{Card, CardCounts, Rank, Suit};
use crate::meld::Meld;
use crate::rules::Rules;
use crate::state::GameState;
use std::collections::{HashMap, HashSet};

/// Naturals by rank index, four bits each (at most 15 of a rank).
type Packed = u64;

fn get(p: Packed, r: usize) -> u8 {
    ((p >> (4 * r)) & 0xF) as u8
}

fn sub(p: Packed, r: usize, n: u8) -> Packed {
    p - ((n as u64) << (4 * r))
}

const FOUR: usize = Rank::Four.index();
const ACE: usize = Rank::Ace.index();

/// The ways one suit's naturals (`cards`, by rank) can extend the side's
/// open sequences of that suit (`runs`: lowest and highest rank index) and
/// form new ones: (cards left over, sambas made).
fn suit_outcomes(rules: &Rules, cards: Packed, runs: &[(usize, usize)]) -> HashSet<(Packed, u8)> {
    let mut out = HashSet::new();
    extend_runs(rules, cards, runs, 0, &mut out);
    out
}

/// Extends existing run `runs[0]` down by `k` and up by `m` in every way,
/// then the next; then new runs.
fn extend_runs(
    rules: &Rules,
    cards: Packed,
    runs: &[(usize, usize)],
    sambas: u8,
    out: &mut HashSet<(Packed, u8)>,
) {
    let Some((&(lo, hi), rest)) = runs.split_first() else {
        new_runs(rules, cards, FOUR, sambas, out);
        return;
    };
    let size = rules.canasta_size as usize;
    let len = hi - lo + 1;
    let mut down = cards;
    let mut k = 0;
    loop {
        // Up-extensions on top of `k` cards below.
        let mut up = down;
        let mut m = 0;
        loop {
            let total = len + k + m;
            extend_runs(rules, up, rest, sambas + u8::from(total >= size), out);
            let r = hi + m + 1;
            if total >= size || r > ACE || get(up, r) == 0 {
                break;
            }
            up = sub(up, r, 1);
            m += 1;
        }
        if lo < k + 1 || lo - k - 1 < FOUR || len + k >= size || get(down, lo - k - 1) == 0 {
            break;
        }
        down = sub(down, lo - k - 1, 1);
        k += 1;
    }
}

/// New sequences from `from` up: at each rank, either no (further) run
/// starts there, or one of three to `canasta_size` cards does.
fn new_runs(
    rules: &Rules,
    cards: Packed,
    from: usize,
    sambas: u8,
    out: &mut HashSet<(Packed, u8)>,
) {
    let Some(r) = (from..=ACE).find(|&r| get(cards, r) > 0) else {
        out.insert((cards, sambas));
        return;
    };
    new_runs(rules, cards, r + 1, sambas, out);
    let size = rules.canasta_size as usize;
    let mut left = cards;
    let mut len = 0;
    while r + len <= ACE && get(left, r + len) > 0 && len < size {
        left = sub(left, r + len, 1);
        len += 1;
        if len >= rules.min_meld as usize {
            new_runs(rules, left, r, sambas + u8::from(len >= size), out);
        }
    }
}

/// Outcomes of one rank's leftover naturals: spread over the side's melds
/// of the rank (naturals, wilds, already a canasta) and new groups, as
/// (wild cards used, canastas made), canastas capped at `need`.
fn rank_outcomes(
    rules: &Rules,
    rank: Rank,
    n: u8,
    melds: &[(u8, u8, bool)],
    pool: u8,
    need: u8,
) -> HashSet<(u8, u8)> {
    let mut out = HashSet::new();
    spread(rules, rank, n, melds, pool, need, (0, 0), &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn spread(
    rules: &Rules,
    rank: Rank,
    n: u8,
    melds: &[(u8, u8, bool)],
    pool: u8,
    need: u8,
    acc: (u8, u8),
    out: &mut HashSet<(u8, u8)>,
) {
    let size = rules.canasta_size;
    let Some((&(a, b, done), rest)) = melds.split_first() else {
        for (w, c) in new_groups(rules, rank, n, pool - acc.0) {
            out.insert((acc.0 + w, (acc.1 + c).min(need)));
        }
        return;
    };
    for k in 0..=n {
        let room = if done && !rules.wilds_on_canasta {
            0
        } else {
            rules.wild_capacity_of(Some(rank), a + k).saturating_sub(b)
        };
        for x in 0..=room.min(pool - acc.0) {
            let made = u8::from(!done && a + b + k + x >= size);
            spread(
                rules,
                rank,
                n - k,
                rest,
                pool,
                need,
                (acc.0 + x, (acc.1 + made).min(need)),
                out,
            );
        }
    }
}

/// New groups of `m` naturals of `rank` (each at least `min_naturals`, with
/// enough wild cards to make `min_meld`): (wild cards used, canastas).
fn new_groups(rules: &Rules, rank: Rank, m: u8, pool: u8) -> HashSet<(u8, u8)> {
    let mut out = HashSet::new();
    if m == 0 {
        out.insert((0, 0));
        return out;
    }
    for p in rules.min_naturals.max(1)..=m {
        let rest = m - p;
        if rest > 0 && rest < rules.min_naturals {
            continue;
        }
        let cap = rules.wild_capacity_of(Some(rank), p).min(pool);
        let least = rules.min_meld.saturating_sub(p);
        if least > cap {
            continue;
        }
        for y in least..=cap {
            let made = u8::from(p + y >= rules.canasta_size);
            for (w, c) in new_groups(rules, rank, rest, pool - y) {
                out.insert((w + y, c + made));
            }
        }
    }
    out
}

/// Can every natural left over (`left`, by rank) and all `wilds` wild cards
/// go into rank groups, making `need` canastas more?
fn groups_place(rules: &Rules, left: Packed, wilds: u8, melds: &[Meld], need: u8) -> bool {
    let mut cur: HashSet<(u8, u8)> = HashSet::from([(0, 0)]);
    for &rank in rules.meld_ranks() {
        let n = get(left, rank.index());
        let own: Vec<(u8, u8, bool)> = melds
            .iter()
            .filter(|m| m.cards.rank == Some(rank) && !m.closed)
            .map(|m| {
                (
                    m.cards.natural_count(),
                    m.cards.wild_count(),
                    m.is_canasta(rules),
                )
            })
            .collect();
        if n == 0 && own.is_empty() {
            continue;
        }
        let outcomes = rank_outcomes(rules, rank, n, &own, wilds, need);
        if outcomes.is_empty() {
            return false;
        }
        let mut next = HashSet::new();
        for &(w, c) in &cur {
            for &(w2, c2) in &outcomes {
                if w + w2 <= wilds {
                    next.insert((w + w2, (c + c2).min(need)));
                }
            }
        }
        cur = next;
    }
    cur.contains(&(wilds, need))
}

/// Can `hand` be melded entirely onto `melds` and new melds, the side
/// ending with `need_total` canastas (sambas count)?
pub(crate) fn placeable_sequences(
    rules: &Rules,
    hand: &CardCounts,
    melds: &[Meld],
    need_total: u8,
) -> bool {
    if hand.red_threes() > 0 {
        return false;
    }
    let b = hand.black_threes();
    if rules.special_threes()
        && b > 0
        && (!rules.black_threes_meldable
            || b < rules.min_meld
            || melds.iter().any(|m| m.cards.is_special_threes(rules)))
    {
        return false;
    }
    let have = melds.iter().filter(|m| m.is_canasta(rules)).count() as u8;
    let need = need_total.saturating_sub(have);
    // Suits, combined by what they leave over (and the sambas made).
    let mut states: HashSet<(Packed, u8)> = HashSet::from([(0, 0)]);
    for suit in Suit::ALL {
        let mut cards: Packed = 0;
        for &r in &Rank::MELDABLE {
            cards |= (hand.count(Card::new(r, suit)) as u64) << (4 * r.index());
        }
        let runs: Vec<(usize, usize)> = melds
            .iter()
            .filter(|m| m.cards.run_suit() == Some(suit) && m.cards.len() < rules.canasta_size)
            .map(|m| {
                let run = m.cards.run;
                (
                    run.trailing_zeros() as usize,
                    15 - run.leading_zeros() as usize,
                )
            })
            .collect();
        let outcomes = if rules.sequences {
            suit_outcomes(rules, cards, &runs)
        } else {
            HashSet::from([(cards, 0)])
        };
        let mut next = HashSet::new();
        for &(left, s) in &states {
            for &(more, s2) in &outcomes {
                next.insert((left + more, (s + s2).min(need)));
            }
        }
        states = next;
    }
    let mut seen: HashMap<Packed, u8> = HashMap::new();
    states.into_iter().any(|(left, sambas)| {
        let still = need - sambas.min(need);
        // A leftover that places with fewer canastas still to make was
        // already tried, or is tried now.
        if seen.get(&left).is_some_and(|&s| s <= still) {
            return false;
        }
        seen.insert(left, still);
        groups_place(rules, left, hand.wilds(), melds, still)
    })
}

impl GameState {
    /// [`GameState::can_go_out`] where sequences or several melds of a rank
    /// make the counting tests inexact (Samba): by melding every card, or all
    /// but a final discard (every face is tried, as suits matter here).
    pub(crate) fn can_go_out_sequences(&self, seat: usize) -> bool {
        let rules = &self.rs.rules;
        let side = self.side_of[seat] as usize;
        let hand = self.hands[seat];
        let melds = &self.melds[side];
        let need = self.canastas_needed();
        if !rules.go_out_needs_discard && placeable_sequences(rules, &hand, melds, need) {
            return true;
        }
        hand.faces().any(|(c, _)| {
            if !self.final_discard_ok(c) {
                return false;
            }
            let mut h = hand;
            h.remove(c);
            placeable_sequences(rules, &h, melds, need)
        })
    }
}
