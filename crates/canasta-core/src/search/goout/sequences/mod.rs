//! Going-out feasibility with sequences and several melds of a rank
//! (Samba). A natural can go to a group of its rank or to a sequence of its
//! suit, so the counting tests of [`crate::search::goout`] do not apply. Still
//! exact: each suit is reduced to the ways its cards can extend the side's
//! sequences or form new ones (cards used by rank, sambas made), suits are
//! combined by what they leave over, and what is left must form rank groups
//! with every wild card, ending with the canastas the side needs.

use crate::card::{Card, CardCounts, Rank, Suit};
use crate::meld::Meld;
use crate::rules::Rules;
use seen::Seen;
use smallvec::SmallVec;

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

/// A suit's outcomes: (cards left over, sambas made). On the stack up to
/// 64 (typical hands), on the heap beyond: the going-out test runs for many
/// candidate actions and must not allocate in play.
type Outcomes = SmallVec<[(Packed, u8); 64]>;

/// The ways one suit's naturals (`cards`, by rank) can extend the side's
/// open sequences of that suit (`runs`: lowest and highest rank index) and
/// form new ones: (cards left over, sambas made).
fn suit_outcomes(rules: &Rules, cards: Packed, runs: &[(u8, u8)]) -> Outcomes {
    let mut out = Outcomes::new();
    extend_runs(rules, cards, runs, 0, &mut out);
    dedup(&mut out);
    out
}

/// Extends existing run `runs[0]` down by `k` and up by `m` in every way,
/// then the next; then new runs.
fn extend_runs(rules: &Rules, cards: Packed, runs: &[(u8, u8)], sambas: u8, out: &mut Outcomes) {
    let Some((&(lo, hi), rest)) = runs.split_first() else {
        new_runs(rules, cards, FOUR, sambas, out);
        return;
    };
    let (lo, hi) = (usize::from(lo), usize::from(hi));
    let size = rules.melds.canasta_length() as usize;
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
fn new_runs(rules: &Rules, cards: Packed, from: usize, sambas: u8, out: &mut Outcomes) {
    let Some(r) = (from..=ACE).find(|&r| get(cards, r) > 0) else {
        out.push((cards, sambas));
        return;
    };
    new_runs(rules, cards, r + 1, sambas, out);
    let size = rules.melds.canasta_length() as usize;
    let mut left = cards;
    let mut len = 0;
    while r + len <= ACE && get(left, r + len) > 0 && len < size {
        left = sub(left, r + len, 1);
        len += 1;
        if len >= rules.melds.smallest_meld() as usize {
            new_runs(rules, left, r, sambas + u8::from(len >= size), out);
        }
    }
}

/// Reachable (wild cards used, canastas made) pairs as one bit set of wild
/// cards per canasta count (capped at the count still needed, at most
/// `MAX_NEED`).
type Reach = [u64; MAX_NEED + 1];

/// Most canastas a going-out test counts; more are never required.
const MAX_NEED: usize = 7;

/// No outcome at all.
const NOTHING: Reach = [0; MAX_NEED + 1];

/// The one outcome of placing nothing: no wild card, no canasta.
const UNIT: Reach = {
    let mut unit = NOTHING;
    unit[0] = 1;
    unit
};

/// Adds every pair of `more` to `into`.
fn union(into: &mut Reach, more: &Reach) {
    for (o, m) in into.iter_mut().zip(more) {
        *o |= m;
    }
}

/// Every (a + b) of `x` in `acc` and `y` in `add`, wild cards up to `pool`.
fn combine(acc: &Reach, add: &Reach, pool: u8, need: u8) -> Reach {
    let mask = if pool >= 63 {
        u64::MAX
    } else {
        (1u64 << (pool + 1)) - 1
    };
    let mut out = NOTHING;
    // Every count is capped at `need`: nothing lies beyond it.
    let n = need as usize + 1;
    for (c1, &b1) in acc[..n].iter().enumerate() {
        if b1 == 0 {
            continue;
        }
        for (c2, &b2) in add[..n].iter().enumerate() {
            let mut bits = b2;
            while bits != 0 {
                let w = bits.trailing_zeros();
                bits &= bits - 1;
                let c = (c1 + c2).min(need as usize);
                out[c] |= (b1 << w) & mask;
            }
        }
    }
    out
}

/// Outcomes of one rank's leftover naturals `n`, spread over the side's
/// melds of the rank (naturals, wilds, already a canasta) and new groups:
/// a small knapsack over the melds by naturals still to place.
fn rank_outcomes(
    rules: &Rules,
    rank: Rank,
    n: u8,
    melds: &[(u8, u8, bool)],
    pool: u8,
    need: u8,
    groups: &mut GroupMemo,
) -> Reach {
    if melds.len() <= 2 {
        return rank_outcomes_few(rules, rank, n, melds, pool, need, groups);
    }
    let n = n as usize;
    // `after[rem]`: placing `rem` naturals on the melds after this one and
    // in new groups.
    let mut after: arrayvec::ArrayVec<Reach, 16> = (0..=n)
        .map(|rem| *groups.get(rules, rank, rem as u8, pool, need))
        .collect();
    for &(a, b, done) in melds.iter().rev() {
        let here_k: arrayvec::ArrayVec<Reach, 16> = (0..=n as u8)
            .map(|k| onto_meld(rules, rank, (a, b, done), k, pool, need))
            .collect();
        let mut now: arrayvec::ArrayVec<Reach, 16> = arrayvec::ArrayVec::new();
        for rem in 0..=n {
            let mut out = NOTHING;
            for k in 0..=rem {
                let both = combine(&here_k[k], &after[rem - k], pool, need);
                union(&mut out, &both);
            }
            now.push(out);
        }
        after = now;
    }
    after[n]
}

/// Outcomes of putting `k` naturals and then any wild cards it can take on
/// one meld of `rank` (naturals, wilds, already a canasta).
fn onto_meld(rules: &Rules, rank: Rank, meld: (u8, u8, bool), k: u8, pool: u8, need: u8) -> Reach {
    let (a, b, done) = meld;
    let room = if !rules.melds.wilds_may_join(done) {
        0
    } else {
        crate::meld::wild_room(rules, Some(rank), a, a + k, b)
    };
    let mut here = NOTHING;
    for x in 0..=room.min(pool) {
        let made =
            usize::from(!done && rules.melds.has_canasta_length(a + b + k + x)).min(need as usize);
        here[made] |= 1 << x;
    }
    here
}

/// [`rank_outcomes`] for one or two melds of the rank, by trying every
/// share of the naturals for each (cheaper than the knapsack when few).
fn rank_outcomes_few(
    rules: &Rules,
    rank: Rank,
    n: u8,
    melds: &[(u8, u8, bool)],
    pool: u8,
    need: u8,
    groups: &mut GroupMemo,
) -> Reach {
    let Some((&(a, b, done), rest)) = melds.split_first() else {
        return *groups.get(rules, rank, n, pool, need);
    };
    let mut out = NOTHING;
    for k in 0..=n {
        let tail = rank_outcomes_few(rules, rank, n - k, rest, pool, need, groups);
        // Most tails are nothing (naturals too few for a group) or the unit
        // (none left): `onto_meld` keeps within the pool and the count, so
        // adding the unit changes nothing.
        if tail == NOTHING {
            continue;
        }
        let here = onto_meld(rules, rank, (a, b, done), k, pool, need);
        if tail == UNIT {
            union(&mut out, &here);
        } else {
            union(&mut out, &combine(&here, &tail, pool, need));
        }
    }
    out
}

/// New groups of `m` naturals of a rank, memoised by rank and `m` for one
/// wild-card pool (each group at least `min_naturals`, with enough wild
/// cards to make `min_meld`).
struct GroupMemo {
    /// By naturals, for every rank but the pure one (new groups of any other
    /// rank have the same outcomes), and for the pure rank.
    table: [[Option<Reach>; 16]; 2],
}

impl GroupMemo {
    fn new() -> GroupMemo {
        GroupMemo {
            table: [[None; 16]; 2],
        }
    }

    fn get(&mut self, rules: &Rules, rank: Rank, m: u8, pool: u8, need: u8) -> &Reach {
        let ri = usize::from(rules.melds.is_pure_rank(Some(rank)));
        let m = m.min(15);
        if self.table[ri][m as usize].is_none() {
            let mut out = NOTHING;
            if m == 0 {
                out[0] = 1;
            }
            for p in rules.melds.natural_group_sizes(m) {
                let rest = m - p;
                if rest > 0 && !rules.melds.enough_naturals(rest) {
                    continue;
                }
                // A new group's wild cards, by the generator's steps (the
                // same rule as for a meld on the table).
                let cap = crate::meld::wild_room(rules, Some(rank), 0, p, 0).min(pool);
                let least = rules.melds.short_of_a_meld(p);
                if least > cap {
                    continue;
                }
                let tail = *self.get(rules, rank, rest, pool, need);
                let mut here = NOTHING;
                for y in least..=cap {
                    let made =
                        usize::from(rules.melds.has_canasta_length(p + y)).min(need as usize);
                    here[made] |= 1 << y;
                }
                let both = combine(&here, &tail, pool, need);
                union(&mut out, &both);
            }
            self.table[ri][m as usize] = Some(out);
        }
        self.table[ri][m as usize].as_ref().expect("just filled")
    }
}

/// The side's melds as the going-out test reads them, gathered in one pass.
struct Side {
    canastas: u8,
    /// Each rank's melds that can take cards: (naturals, wilds, already a
    /// canasta). Beyond eight of one rank the rest never matter.
    own: [arrayvec::ArrayVec<(u8, u8, bool), 8>; 13],
    /// Cards in each rank's melds short of a canasta.
    material: [u32; 13],
    /// Each suit's sequences short of a samba (lowest, highest rank index),
    /// and their cards.
    runs: [arrayvec::ArrayVec<(u8, u8), 8>; 4],
    run_material: [u32; 4],
    /// The side has melded black threes (no more may follow).
    three_meld: bool,
    /// For each meld of a rank, the rank and its place in `own` of that
    /// rank (`u8::MAX`: not a rank meld counted there).
    slot: [(u8, u8); crate::state::MAX_MELDS],
}

impl Side {
    fn of(rules: &Rules, melds: &[Meld]) -> Side {
        let mut side = Side {
            canastas: 0,
            own: Default::default(),
            material: [0; 13],
            runs: Default::default(),
            run_material: [0; 4],
            three_meld: false,
            slot: [(u8::MAX, u8::MAX); crate::state::MAX_MELDS],
        };
        for (i, m) in melds.iter().enumerate() {
            let canasta = m.is_canasta(rules);
            side.canastas += u8::from(canasta);
            if m.cards.is_special_threes(rules) {
                side.three_meld = true;
            } else if let Some(suit) = m.cards.run_suit() {
                if !rules.melds.is_samba(m.cards.len()) {
                    let run = m.cards.sequence_ranks();
                    let _ = side.runs[suit as usize]
                        .try_push((run.trailing_zeros() as u8, 15 - run.leading_zeros() as u8));
                    side.run_material[suit as usize] += m.cards.len() as u32;
                }
            } else if let Some(r) = m.cards.rank()
                && !m.closed
            {
                if side.own[r.index()]
                    .try_push((m.cards.natural_count(), m.cards.wild_count(), canasta))
                    .is_ok()
                    && i < side.slot.len()
                {
                    side.slot[i] = (r.index() as u8, (side.own[r.index()].len() - 1) as u8);
                }
                if !canasta {
                    side.material[r.index()] += m.cards.len() as u32;
                }
            }
        }
        side
    }
}

/// The rank-group half of going out for one hand: the side's melds of each
/// rank, the wild cards in hand, memoised new-group outcomes.
struct RankGroups<'a> {
    rules: &'a Rules,
    own: [arrayvec::ArrayVec<(u8, u8, bool), 8>; 13],
    pool: u8,
    need: u8,
    memo: GroupMemo,
    /// Outcomes of ranks with melds, by rank and naturals left over.
    cache: arrayvec::ArrayVec<(usize, u8, Reach), 32>,
    /// Outcomes shared with the other searches of the same position.
    shared: Option<&'a mut RankTable>,
}

impl<'a> RankGroups<'a> {
    fn new(rules: &'a Rules, side: &Side, pool: u8, need: u8) -> RankGroups<'a> {
        RankGroups {
            rules,
            own: side.own.clone(),
            pool,
            need: need.min(MAX_NEED as u8),
            memo: GroupMemo::new(),
            cache: arrayvec::ArrayVec::new(),
            shared: None,
        }
    }

    fn outcomes(&mut self, rank: Rank, n: u8) -> Reach {
        let ri = rank.index();
        if self.own[ri].is_empty() {
            return *self.memo.get(self.rules, rank, n, self.pool, self.need);
        }
        if let Some(&(_, _, r)) = self.cache.iter().find(|c| c.0 == ri && c.1 == n) {
            return r;
        }
        let key = self
            .shared
            .is_some()
            .then(|| RankTable::key(ri, n, &self.own[ri], self.pool, self.need))
            .flatten();
        let (rules, own, pool, need, memo) = (
            self.rules,
            &self.own[ri],
            self.pool,
            self.need,
            &mut self.memo,
        );
        let r = RankTable::look_up_or(
            self.shared.as_deref_mut(),
            key,
            || rank_outcomes(rules, rank, n, own, pool, need, memo),
            |_| true,
        );
        if self.cache.is_full() {
            self.cache.clear();
        }
        self.cache.push((ri, n, r));
        r
    }

    /// With `left` naturals by rank: can they and the wild cards all go
    /// into rank groups making `still` canastas (`meld_out`), or all but one
    /// wild card (`wild_discard`), or all but one natural of a rank
    /// `natural_discard` allows?
    fn check(
        &mut self,
        left: Packed,
        still: u8,
        meld_out: bool,
        wild_discard: bool,
        natural_discard: &impl Fn(Rank) -> bool,
    ) -> bool {
        // Naturals of a rank with no meld that cannot make a group: one
        // card, or two with no wild card to go with them. Only one can be
        // the discard.
        let mut lone = None;
        let mut lone_count = 0;
        for &r in self.rules.melds.ranks() {
            let n = get(left, r.index());
            if n > 0
                && self.own[r.index()].is_empty()
                && (!self.rules.melds.enough_naturals(n)
                    || (!self.rules.melds.long_enough(n) && self.pool == 0))
            {
                lone_count += n;
                lone = Some(r);
            }
        }
        let (meld_out, wild_discard) = match lone_count {
            0 => (meld_out, wild_discard),
            1 => (false, false),
            _ => return false,
        };
        let only = |r: Rank| lone.is_none_or(|l| l == r) && natural_discard(r);
        let natural_discard = &only;
        let ranks: arrayvec::ArrayVec<Rank, 13> = self
            .rules
            .melds
            .ranks()
            .iter()
            .copied()
            .filter(|r| get(left, r.index()) > 0 || !self.own[r.index()].is_empty())
            .collect();
        let (pool, need) = (self.pool, self.need);
        let still = still as usize;
        let full: arrayvec::ArrayVec<Reach, 13> = ranks
            .iter()
            .map(|&r| self.outcomes(r, get(left, r.index())))
            .collect();
        let mut prefix: arrayvec::ArrayVec<Reach, 14> = arrayvec::ArrayVec::new();
        prefix.push(UNIT);
        for o in &full {
            let next = combine(prefix.last().expect("unit first"), o, pool, need);
            prefix.push(next);
        }
        let all = prefix.last().expect("unit first");
        let hit = |r: &Reach, wilds: u8| r[still..].iter().any(|&b| b & (1 << wilds) != 0);
        if meld_out && hit(all, pool) {
            return true;
        }
        if wild_discard && pool > 0 && hit(all, pool - 1) {
            return true;
        }
        let mut suffix = UNIT;
        for i in (0..ranks.len()).rev() {
            let r = ranks[i];
            let n = get(left, r.index());
            if n > 0 && natural_discard(r) {
                let less = self.outcomes(r, n - 1);
                let with = combine(&combine(&prefix[i], &less, pool, need), &suffix, pool, need);
                if hit(&with, pool) {
                    return true;
                }
            }
            suffix = combine(&full[i], &suffix, pool, need);
        }
        false
    }
}

/// The outcomes no other outcome dominates. A natural left over at a rank
/// the side has a meld of always has a home (and only adds wild-card room,
/// discard choices and canasta chances), so an outcome leaving the same
/// cards at the other ranks, at least as many at the melded ones, and at
/// least as many sambas, is at least as good.
fn undominated(mut outcomes: Outcomes, melded: Packed) -> Outcomes {
    if outcomes.len() < 2 || melded == 0 {
        return outcomes;
    }
    let covers = |a: Packed, b: Packed| (0..13).all(|r| get(a, r) >= get(b, r));
    // Most left over at melded ranks first, so a dominating one comes before.
    outcomes.sort_unstable_by_key(|&(left, s)| {
        std::cmp::Reverse((0..13).map(|r| get(left & melded, r) as u32).sum::<u32>() * 8 + s as u32)
    });
    let mut kept = Outcomes::new();
    for (left, sambas) in outcomes {
        let dominated = kept.iter().any(|&(k, ks)| {
            ks >= sambas && k & !melded == left & !melded && covers(k & melded, left & melded)
        });
        if !dominated {
            kept.push((left, sambas));
        }
    }
    kept.sort_unstable();
    kept
}

/// Sorts and removes repeats (a small set kept as a list).
fn dedup(v: &mut Outcomes) {
    v.sort_unstable();
    v.dedup();
}

/// At most how many more canastas (and sambas) the side could make with
/// `hand`: every rank's naturals in hand and its unfinished melds, every
/// suit's cards in hand and its unfinished sequences, seven to a canasta,
/// the wild cards filling the smallest gaps first. Counting a natural for
/// both its rank and its suit only makes the bound looser.
fn canasta_bound(rules: &Rules, hand: &CardCounts, side: &Side) -> u8 {
    let size = rules.melds.canasta_length() as u32;
    // A canasta holds at most `max_wilds` wild cards, so at least this many
    // of its cards are the rank's own (naturals, or cards already melded).
    let own_cards = size.saturating_sub(rules.melds.max_wilds as u32).max(1);
    let mut whole = 0u32;
    // Wild cards each further canasta of a rank would cost, cheapest first.
    let mut costs = arrayvec::ArrayVec::<u32, 64>::new();
    for &r in rules.melds.ranks() {
        let material = hand.rank_count(r) as u32 + side.material[r.index()];
        let most = material / own_cards;
        let free = (material / size).min(most);
        whole += free;
        for k in free + 1..=most {
            // The first further canasta fills the gap; each next one is
            // seven more cards.
            let cost = if k == free + 1 {
                size * k - material
            } else {
                size
            };
            let _ = costs.try_push(cost);
        }
    }
    costs.sort_unstable();
    let mut wilds = hand.wilds() as u32;
    for c in costs {
        if c > wilds {
            break;
        }
        wilds -= c;
        whole += 1;
    }
    if rules.melds.wild_melds_allowed() {
        whole += wilds / size;
    }
    if rules.melds.sequences_allowed() {
        // Each suit's naturals, four byte-wide sums in one word (a suit
        // holds at most 44 naturals in four packs, so no byte carries).
        let by_suit = Rank::MELDABLE
            .iter()
            .fold(0u32, |acc, &r| acc + hand.rank_word(r));
        for suit in Suit::ALL {
            let cards = (by_suit >> (8 * suit as u32) & 0xFF) + side.run_material[suit as usize];
            whole += cards / size;
        }
    }
    whole.min(u8::MAX as u32) as u8
}

/// At most how many wild cards the side's rank melds and new groups could
/// take: for each rank, as many melds as it has plus one new group per
/// `min_naturals` naturals in hand, each holding no more than the wild
/// limit allows with all the rank's naturals (sequences take none).
fn wild_room(rules: &Rules, hand: &CardCounts, side: &Side) -> u8 {
    let mut room = 0u32;
    for &r in rules.melds.ranks() {
        let n = hand.rank_count(r);
        let (count, naturals, wilds) = side.own[r.index()]
            .iter()
            .fold((0u32, 0u32, 0u32), |(c, a, w), &(n, x, _)| {
                (c + 1, a + n as u32, w + x as u32)
            });
        let groups = count + u32::from(rules.melds.most_melds_of(n));
        let total = (naturals + n as u32).min(u8::MAX as u32) as u8;
        let each = rules.melds.wild_capacity_of(Some(r), total) as u32;
        room += (groups * each).saturating_sub(wilds);
    }
    room.min(u8::MAX as u32) as u8
}

/// Naturals in `hand` that can go nowhere: no meld of their rank, too few
/// of the rank for a new group, and no sequence of their suit to join or
/// three in a row to start one. Black threes short of a meld count too.
/// Worked on rank bits, one word a suit: it runs before every exact
/// going-out test.
fn stranded(rules: &Rules, hand: &CardCounts, side: &Side) -> u32 {
    let mut count = 0u32;
    let b = hand.black_threes();
    if !black_threes_ok(rules, b, side) {
        count += b as u32;
    }
    let wild_help = u8::from(hand.wilds() > 0);
    // Ranks whose naturals have a group to go to.
    let mut group_ok = 0u16;
    for &r in &Rank::MELDABLE {
        let i = r.index();
        let word = hand.rank_word(r);
        if word == 0 {
            continue;
        }
        let total = crate::card::byte_sum(word);
        let ok = !side.own[i].is_empty()
            || rules.melds.long_enough(total)
            || (rules.melds.enough_naturals(total) && rules.melds.long_enough(total + wild_help));
        group_ok |= u16::from(ok) << i;
    }
    let suits = hand.run_masks();
    for suit in Suit::ALL {
        let have = suits[suit as usize];
        let mut lost = have & !group_ok;
        if lost == 0 || (rules.melds.sequences_allowed() && !side.runs[suit as usize].is_empty()) {
            continue;
        }
        if rules.melds.sequences_allowed() {
            // Every card of three in a row (four to ace, as `have` holds
            // only those ranks) can start a sequence.
            let starts = have & (have >> 1) & (have >> 2);
            lost &= !(starts | starts << 1 | starts << 2);
        }
        while lost != 0 {
            let i = lost.trailing_zeros() as usize;
            lost &= lost - 1;
            count += u32::from(hand.count(Card::new(Rank::from_index(i), suit)));
        }
    }
    count
}

/// Whether `b` black threes can all be melded (none, or a meld of their
/// own while going out).
fn black_threes_ok(rules: &Rules, b: u8, side: &Side) -> bool {
    b == 0
        || !rules.melds.special_threes()
        || (rules.melds.black_threes_may_meld(b) && !side.three_meld)
}

/// Whether some way of giving the hand's naturals to sequences leaves over
/// (by rank) what `place` accepts, given the canastas still to make after
/// the sambas. Suits are searched depth first, stopping at the first
/// success; a (suit, leftover, sambas) point already explored is skipped.
fn any_leftover(
    rules: &Rules,
    hand: &CardCounts,
    side: &Side,
    need: u8,
    mut shared: Option<&mut SuitTable>,
    mut place: impl FnMut(Packed, u8) -> bool,
) -> bool {
    let need = need.min(MAX_NEED as u8);
    // Most hands that can go out need no new sequence: try every natural
    // in rank groups first, before enumerating what sequences could take.
    let mut all: Packed = 0;
    for &r in &Rank::MELDABLE {
        all |= (hand.rank_count(r) as u64) << (4 * r.index());
    }
    if place(all, need) {
        return true;
    }
    let mut fixed: Packed = 0;
    // Nibble mask of the ranks the side has a meld of (any natural left
    // over there has a home).
    let melded: Packed = rules
        .melds
        .ranks()
        .iter()
        .filter(|r| !side.own[r.index()].is_empty())
        .fold(0, |m, r| m | 0xF << (4 * r.index()));
    let mut suits: arrayvec::ArrayVec<Outcomes, 4> = arrayvec::ArrayVec::new();
    let masks = hand.run_masks();
    for suit in Suit::ALL {
        let mut cards: Packed = 0;
        for &r in &Rank::MELDABLE {
            cards |= (hand.count(Card::new(r, suit)) as u64) << (4 * r.index());
        }
        if cards == 0 {
            continue;
        }
        let runs = &side.runs[suit as usize];
        let have = masks[suit as usize];
        let three_in_a_row = have & (have >> 1) & (have >> 2) != 0;
        if !rules.melds.sequences_allowed() || (runs.is_empty() && !three_in_a_row) {
            // No sequence can take any of these cards: all are left over.
            fixed += cards;
        } else {
            let key = shared
                .is_some()
                .then(|| SuitTable::key(cards, runs, melded))
                .flatten();
            let outcomes = SuitTable::look_up_or(
                shared.as_deref_mut(),
                key,
                || undominated(suit_outcomes(rules, cards, runs), melded),
                |o| o.len() <= o.inline_size(),
            );
            suits.push(outcomes);
        }
    }
    if suits.is_empty() {
        // Nothing for sequences: the only leftover is the one tried above.
        return false;
    }
    // Suits with few ways first: fewer branches near the root.
    suits.sort_by_key(|o| o.len());
    let mut seen = Seen::new();
    // The leftover with no new sequence was tried first.
    seen.insert(all | (suits.len() as u64) << 53);
    let mut stack: SmallVec<[(usize, Packed, u8); 64]> = smallvec::smallvec![(0, fixed, 0)];
    while let Some((i, left, sambas)) = stack.pop() {
        if i == suits.len() {
            if place(left, need - sambas.min(need)) {
                return true;
            }
            continue;
        }
        for &(more, s2) in suits[i].iter() {
            let next = (i + 1, left + more, (sambas + s2).min(need));
            let key = next.1 | (next.0 as u64) << 53 | (next.2 as u64) << 56;
            if seen.insert(key) {
                stack.push(next);
            }
        }
    }
    false
}

/// Can `hand` be melded entirely onto `melds` and new melds, the side
/// ending with `need_total` canastas (sambas count)? (The test's
/// reference for [`goes_out`].)
#[cfg(test)]
pub(crate) fn placeable_sequences(
    rules: &Rules,
    hand: &CardCounts,
    melds: &[Meld],
    need_total: u8,
) -> bool {
    let side = Side::of(rules, melds);
    if hand.red_threes() > 0
        || !black_threes_ok(rules, hand.black_threes(), &side)
        || stranded(rules, hand, &side) > 0
    {
        return false;
    }
    let need = need_total.saturating_sub(side.canastas);
    let mut groups = RankGroups::new(rules, &side, hand.wilds(), need);
    any_leftover(rules, hand, &side, need, None, |left, still| {
        groups.check(left, still, true, false, &|_| false)
    })
}

mod quick;
mod seen;
mod shared;

pub(crate) use quick::{QuickOut, goes_out};
pub(crate) use shared::SharedOutcomes;
use shared::{RankTable, SuitTable};

#[cfg(test)]
mod tests;
