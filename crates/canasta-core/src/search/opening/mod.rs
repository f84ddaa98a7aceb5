//! A side's opening: the one action (a compound `meld`, or taking the pile
//! with `pickup C C / G ...`) that must meet the opening minimum alone.
//!
//! The generator lists the *irreducible* openings: those that meet the
//! minimum but would not if any card or any whole group were left out.
//! Every larger opening is the same as an irreducible one followed by adds
//! and melds in the same turn, and is accepted as that sequence (see
//! `docs/decisions/action-space.md`); listing only the irreducible ones keeps
//! the list small even for a 30-card hand. Concealed going out below the
//! minimum, where the rules allow it, is listed separately: it must use the
//! whole hand in one action.

use crate::action::{Action, ActionList, Groups, MAX_GROUPS};
use crate::card::{Card, CardCounts, Rank, Suit};
use crate::meld::{Group, natural_choices, pick_black_threes, pick_naturals};
use crate::rules::Rules;
use crate::search::goout::GoingOut;
use crate::state::GameState;
use arrayvec::ArrayVec;

mod concealed;

/// A group that may stand in an opening where the opening must be clean
/// (P-CNE at 50): no wild card with naturals; wild cards alone only as a
/// clean wild meld (twos alone, or jokers with at most one two). Where the
/// wild meld is a meld of twos (RG-ITA, `WildMeldReserve::Twos`), jokers
/// are always wild cards, which no opening may hold ("initial melds must be
/// naturals (no wildcards)"), so only twos alone.
pub(crate) fn clean_for_opening(rules: &Rules, g: &Group) -> bool {
    if g.is_wild_only() {
        g.jokers == 0 || (g.two_count() <= 1 && !rules.melds.twos_are_a_rank())
    } else {
        g.wild_count() == 0
    }
}

/// Where the opening search puts what it finds: the legal list, or a test
/// that stops the search at the first opening that passes it.
pub(crate) trait OpeningSink {
    fn offer(&mut self, action: Action);
    /// Already offered (a concealed placement can be reached twice).
    fn holds(&self, action: &Action) -> bool;
    /// The search may stop: the answer is known.
    fn satisfied(&self) -> bool {
        false
    }
}

impl OpeningSink for ActionList {
    fn offer(&mut self, action: Action) {
        self.push(action);
    }

    fn holds(&self, action: &Action) -> bool {
        self.contains(action)
    }
}

/// Lists the openings of the seat to act: with the pile's `top` card
/// (taking the pile), or from hand after a stock draw.
pub(crate) fn generate<O: OpeningSink>(state: &GameState, top: Option<Card>, out: &mut O) {
    let seat = state.to_act();
    let rules = state.rules();
    let hand = *state.hand(seat);
    let top_rank = top.and_then(|c| c.rank());
    // A wild meld (P-CNE) is searched first, marked by the rank two, so
    // that the groups after it know whether the wild cards are reserved.
    let wild_meld = rules.melds.wild_melds_allowed()
        && rules.melds.long_enough(hand.wilds())
        && !state
            .melds(state.side_of(seat))
            .iter()
            .any(|m| m.cards.is_wild_only());
    // The meld ranks the hand holds enough naturals of, lowest first, as
    // set bits of one word (no branch a rank).
    let top_bit = top_rank.map_or(0, |r| 1u16 << r.index());
    let mut held = rules.melds.ranks_to_begin(&hand) & !top_bit;
    let held = std::iter::from_fn(move || {
        (held != 0).then(|| {
            let r = Rank::from_index(held.trailing_zeros() as usize);
            held &= held - 1;
            r
        })
    });
    let ranks: ArrayVec<Rank, 13> = wild_meld
        .then_some(Rank::Two)
        .into_iter()
        .chain(held)
        .chain(
            rules
                .melds
                .black_threes_may_meld(hand.black_threes())
                .then_some(Rank::Three),
        )
        .collect();
    let need = state.opening_minimum(seat);
    let clean_only = rules.opening.must_be_clean(need);
    let mut search = Search {
        state,
        rules,
        top,
        need,
        pile_rest: if top.is_some() {
            state.pile_rest_to_hand()
        } else {
            0
        },
        ranks,
        suffix_points: [0; 14],
        hand,
        groups: Groups::new(),
        points: ArrayVec::new(),
        clean_only,
        bonus_room: if rules.opening.opening_counts_canasta_bonus {
            let best = rules
                .scoring
                .natural_canasta_bonus
                .max(rules.scoring.mixed_canasta_bonus)
                .max(rules.scoring.natural_ace_canasta_bonus)
                .max(rules.scoring.mixed_ace_canasta_bonus);
            best * (hand.total() / rules.melds.canasta_length().max(1) as usize) as i32
        } else {
            0
        },
    };
    for i in (0..search.ranks.len()).rev() {
        let r = search.ranks[i];
        search.suffix_points[i] = search.suffix_points[i + 1] + natural_points(rules, &hand, r);
    }
    match top {
        Some(top) => {
            let rank = top.rank().expect("a natural top card");
            let n = hand.rank_count(rank);
            // Frozen by definition for a side that has not melded: a natural
            // pair from hand, plus any further naturals and wild cards.
            let side = state.side_of(seat);
            let frozen = state.frozen_for(side);
            let pair = rules.pile.naturals_to_take(frozen);
            // An unfrozen pile may also be taken with one natural and one
            // wild card where the rules allow it (P-CAN, Canastia).
            let one_and_wild = rules.pile.takes_with_natural_and_wild(frozen) && !clean_only;
            let first_k = if one_and_wild { 1 } else { pair.max(2) };
            for k in first_k..=n {
                if k + 1 > rules.melds.cap() {
                    break;
                }
                let cap = if clean_only {
                    0
                } else {
                    rules
                        .melds
                        .wild_capacity_of(Some(rank), k + 1)
                        .min(rules.melds.cap() - (k + 1))
                };
                let mut min_wilds =
                    (rules.melds.smallest_meld() as usize).saturating_sub(k as usize + 1);
                let cap = if k < pair.max(2) {
                    // One natural: exactly one wild card with it.
                    min_wilds = min_wilds.max(1);
                    cap.min(1)
                } else {
                    cap
                };
                search.each_group(rank, k, cap, min_wilds, |s, g| {
                    let mut with_top = g;
                    with_top.push(top).expect("same rank");
                    // P-PEN: only the melds laid from hand count.
                    let p = if rules.opening.pile_opening_from_hand {
                        0
                    } else {
                        with_top.opening_points(rules)
                    };
                    s.with_group(g, p, |s| s.descend_sequences((0, 0, 0), out));
                });
            }
        }
        None => {
            search.descend_sequences((0, 0, 0), out);
            if rules
                .opening
                .concealed_waives_minimum(state.turn().drew_from_stock)
                && GoingOut::of(state).can_go_out(seat)
            {
                concealed::concealed_below_minimum(state, need, out);
            }
        }
    }
}

fn natural_points(rules: &Rules, hand: &CardCounts, rank: Rank) -> i32 {
    if rank == Rank::Two {
        0
    } else if rank == Rank::Three {
        hand.black_threes() as i32 * rules.scoring.card_values.black_three
    } else {
        hand.rank_count(rank) as i32 * rules.scoring.card_values.of(Card::new(rank, Suit::Spades))
    }
}

struct Search<'a> {
    state: &'a GameState,
    rules: &'a Rules,
    top: Option<Card>,
    need: i32,
    /// Cards the pile adds to the hand besides its top card.
    pile_rest: usize,
    ranks: ArrayVec<Rank, 13>,
    /// Points of all naturals of `ranks[i..]` in the starting hand.
    suffix_points: [i32; 14],
    /// The hand less the groups chosen so far.
    hand: CardCounts,
    groups: Groups,
    /// Points of each chosen group (the first includes the top card).
    points: ArrayVec<i32, MAX_GROUPS>,
    /// The opening must be of clean melds (P-CNE at the 50 level).
    clean_only: bool,
    /// The most canasta bonus the hand could add toward the opening, where
    /// the rules count it (Canastia); 0 otherwise.
    bonus_room: i32,
}

impl Search<'_> {
    fn total(&self) -> i32 {
        self.points.iter().sum()
    }

    /// Every group of `k` naturals of `rank` with `min_wilds..=cap` wild
    /// cards (every split between jokers and twos), from the working hand.
    fn each_group(
        &mut self,
        rank: Rank,
        k: u8,
        cap: u8,
        min_wilds: usize,
        mut f: impl FnMut(&mut Self, Group),
    ) {
        let special = rank == Rank::Three && self.rules.melds.special_threes();
        // The choices are worked out from a copy of the rank's counts, so
        // they may be walked while `f` changes the hand (and puts it back).
        let choices = if special {
            Either::One(std::iter::once(pick_black_threes(&self.hand, k)))
        } else {
            Either::Many(
                natural_choices(&self.hand, rank, k, self.rules.melds.suits_matter()).take(120),
            )
        };
        let cap = if special { 0 } else { cap };
        let (jokers, twos) = (self.hand.jokers(), self.hand.twos());
        for naturals in choices {
            let mut g = Group::of_rank(rank);
            g.naturals = naturals;
            for j in 0..=cap.min(jokers) {
                for t in 0..=(cap - j).min(twos) {
                    if ((j + t) as usize) < min_wilds {
                        continue;
                    }
                    g.jokers = j;
                    g.twos = pick_naturals(&self.hand, Rank::Two, t);
                    f(self, g);
                }
            }
        }
    }

    fn with_group(&mut self, g: Group, points: i32, f: impl FnOnce(&mut Self)) {
        if self.groups.len() == MAX_GROUPS {
            return;
        }
        let mut from_hand = CardCounts::new();
        g.add_to(&mut from_hand);
        self.hand.remove_all(&from_hand);
        self.groups.push(g);
        self.points.push(points);
        f(self);
        self.points.pop();
        self.groups.pop();
        self.hand.add_all(&from_hand);
    }

    /// Chooses a group (or none) for `ranks[idx..]`; stops adding groups as
    /// soon as the minimum is met, since a further group could be left out.
    /// Sequences first (Samba), in a canonical order of (suit, lowest rank,
    /// length) so that each set is chosen once; then the rank groups.
    fn descend_sequences<O: OpeningSink>(&mut self, from: (usize, usize, usize), out: &mut O) {
        if out.satisfied() {
            return;
        }
        if !self.rules.melds.sequences_allowed()
            || self.groups.len() == MAX_GROUPS
            || (!self.groups.is_empty() && self.total() >= self.need)
        {
            self.descend(0, out);
            return;
        }
        self.descend(0, out);
        let min = self.rules.melds.smallest_meld() as usize;
        let max = self.rules.melds.canasta_length() as usize;
        let masks = self.hand.run_masks();
        for (suit, &have) in masks.iter().enumerate().skip(from.0) {
            for low in Rank::Four.index()..=Rank::Ace.index() {
                for len in min..=max {
                    if (suit, low, len) < from || low + len > Rank::Ace.index() + 1 {
                        continue;
                    }
                    let run = ((1u16 << len) - 1) << low;
                    if have & run != run {
                        break;
                    }
                    let g = Group::sequence(Suit::from_index(suit), run);
                    let p = g.opening_points(self.rules);
                    self.with_group(g, p, |s| s.descend_sequences((suit, low, len), out));
                }
            }
        }
    }

    fn descend<O: OpeningSink>(&mut self, idx: usize, out: &mut O) {
        if out.satisfied() {
            return;
        }
        let points = self.total();
        if !self.groups.is_empty() && points >= self.need {
            self.emit_if_irreducible(out);
            return;
        }
        let wild_points = self.hand.jokers() as i32 * self.rules.scoring.card_values.joker
            + self.hand.twos() as i32 * self.rules.scoring.card_values.two;
        if idx == self.ranks.len()
            || self.groups.len() == MAX_GROUPS
            || points + self.suffix_points[idx] + wild_points + self.bonus_room < self.need
        {
            return;
        }
        self.descend(idx + 1, out);
        let rank = self.ranks[idx];
        if rank == Rank::Two {
            self.wild_groups(idx, out);
            return;
        }
        let special = rank == Rank::Three && self.rules.melds.special_threes();
        let (n, min_k) = if special {
            (self.hand.black_threes(), self.rules.melds.smallest_meld())
        } else {
            (
                self.hand.rank_count(rank),
                self.rules.melds.fewest_naturals(),
            )
        };
        for k in min_k..=n.min(self.rules.melds.cap()) {
            let cap = if self.clean_only {
                0
            } else {
                self.rules
                    .melds
                    .wild_capacity_of(Some(rank), k)
                    .min(self.rules.melds.cap() - k)
            };
            let min_w = (self.rules.melds.smallest_meld() as usize).saturating_sub(k as usize);
            if !special && min_w > cap as usize {
                continue;
            }
            self.each_group(rank, k, cap, min_w, |s, g| {
                let p = g.opening_points(s.rules);
                s.with_group(g, p, |s| s.descend(idx + 1, out));
            });
        }
    }

    /// Wild melds of every size and split (P-CNE), a canasta of more than
    /// seven too (it can only be laid whole); a clean opening takes only
    /// those the judge calls clean ([`clean_for_opening`]).
    fn wild_groups<O: OpeningSink>(&mut self, idx: usize, out: &mut O) {
        let rules = self.rules;
        let (jokers, twos) = (self.hand.jokers(), self.hand.twos());
        for size in rules.melds.smallest_meld()..=rules.melds.cap().min(jokers + twos) {
            for j in 0..=size.min(jokers) {
                let t = size - j;
                if t > twos {
                    continue;
                }
                let g = Group::wild_cards(pick_naturals(&self.hand, Rank::Two, t), j);
                if self.clean_only && !clean_for_opening(rules, &g) {
                    continue;
                }
                // A wild meld the opening begins holds nothing back from
                // its other groups: none stood before it (the record spec
                // judges each meld against the melds as they stood).
                let p = g.opening_points(rules);
                self.with_group(g, p, |s| s.descend(idx + 1, out));
            }
        }
    }

    fn emit_if_irreducible<O: OpeningSink>(&self, out: &mut O) {
        let with_top = |i: usize| -> (Group, u8) {
            let mut g = self.groups.as_slice()[i];
            let mut hand_naturals = g.natural_count();
            if i == 0
                && let Some(t) = self.top
            {
                g.push(t).expect("same rank");
                hand_naturals = g.natural_count() - 1;
            }
            (g, hand_naturals)
        };
        let total = self.total();
        for i in 0..self.groups.len() {
            let (g, hand_naturals) = with_top(i);
            let is_top_group = i == 0 && self.top.is_some();
            if removable(
                self.rules,
                &g,
                total,
                self.need,
                is_top_group,
                hand_naturals,
            ) {
                return;
            }
            if !is_top_group && self.groups.len() > 1 && total - self.points[i] >= self.need {
                return;
            }
        }
        let action = match self.top {
            Some(_) => {
                let mut also = Groups::new();
                for g in &self.groups.as_slice()[1..] {
                    also.push(*g);
                }
                Action::Pickup {
                    with: self.groups.as_slice()[0],
                    also,
                }
            }
            None => Action::Meld(self.groups),
        };
        // The stock card that goes with the pile (P-CNE) counts, but a
        // take that would leave only it is refused without looking at it,
        // as the judge does (`judge_pickup_ending`).
        let taking = self.top.is_some();
        let extra = if taking {
            self.rules.pile.stock_cards_with_pile()
        } else {
            0
        };
        let remaining = self.hand.total() + self.pile_rest + extra;
        let has_black = self.groups.iter().any(|g| g.is_special_threes(self.rules));
        if (remaining >= 2 && !has_black && !self.state.turn().must_go_out)
            || (!(taking && self.rules.pile.leaves_only_unseen(remaining))
                && GoingOut::of(self.state).ok_after(action))
        {
            out.offer(action);
        }
    }
}

/// Could one card leave group `g` (with the top card, when it takes the
/// pile) and the opening still be a valid one meeting the minimum?
fn removable(
    rules: &Rules,
    g: &Group,
    total: i32,
    need: i32,
    is_top_group: bool,
    hand_naturals: u8,
) -> bool {
    let (n, w) = (g.natural_count(), g.wild_count());
    if g.len() <= rules.melds.smallest_meld() {
        return false;
    }
    if g.is_sequence() {
        // Only an end card can go.
        let value = |c: Option<Card>| c.map_or(i32::MIN, |c| rules.scoring.card_values.of(c));
        let least = value(g.cards().next()).min(value(g.cards().last()));
        return total - least >= need;
    }
    let min_hand_naturals = if is_top_group { 2 } else { 0 };
    let fewer_naturals_ok = n > rules.melds.fewest_naturals()
        && hand_naturals > min_hand_naturals
        && w <= rules.melds.wild_capacity_of(g.rank(), n - 1)
        && (!g.is_special_threes(rules) || n > rules.melds.smallest_meld());
    // P-PEN: the pile's group counts nothing toward the opening.
    let points = |g: &Group| {
        if is_top_group && rules.opening.pile_opening_from_hand {
            0
        } else {
            g.opening_points(rules)
        }
    };
    let full = points(g);
    let without = |c: Option<Card>| {
        c.is_some_and(|c| {
            let mut smaller = *g;
            remove_card(&mut smaller, c);
            total - (full - points(&smaller)) >= need
        })
    };
    (fewer_naturals_ok && without(natural_in(g)))
        || (g.jokers > 0 && without(Some(Card::JOKER)))
        || without(two_in(g))
}

fn two_in(g: &Group) -> Option<Card> {
    (0..4)
        .find(|&s| g.twos[s] > 0)
        .map(|s| Card::new(Rank::Two, Suit::from_index(s)))
}

fn natural_in(g: &Group) -> Option<Card> {
    let r = g.rank()?;
    (0..4)
        .rev()
        .find(|&s| g.naturals[s] > 0)
        .map(|s| Card::new(r, Suit::from_index(s)))
}

fn remove_card(g: &mut Group, c: Card) {
    if g.is_sequence() {
        *g = g.minus(&Group::from_cards(&[c]).expect("one card"));
        return;
    }
    match c.rank() {
        None if g.jokers > 0 => g.jokers -= 1,
        Some(Rank::Two) => g.twos[c.suit().unwrap() as usize] -= 1,
        Some(_) => g.naturals[c.suit().unwrap() as usize] -= 1,
        None => {}
    }
}

/// One iterator type for two kinds of choice, without boxing.
enum Either<A, B> {
    One(A),
    Many(B),
}

impl<T, A: Iterator<Item = T>, B: Iterator<Item = T>> Iterator for Either<A, B> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self {
            Either::One(a) => a.next(),
            Either::Many(b) => b.next(),
        }
    }
}
