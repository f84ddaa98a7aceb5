//! Concealed going out below the opening minimum (P-CAN, S002; an option
//! elsewhere): a side that has not melded lays its whole hand, or all but
//! the card it discards, in one `meld` after a stock draw. The opening
//! search lists only openings that meet the minimum, so these are listed
//! here: every way to lay the naturals (one group a rank; where the rules
//! have them, sequences and several groups of a rank too), then every way
//! to share out the wild cards.

use super::OpeningSink;
use crate::action::{Action, Groups};
use crate::card::{Card, CardCounts, Rank, Suit, for_each_class};
use crate::meld::{Group, pick_black_threes, pick_naturals};
use crate::rules::Rules;
use crate::search::goout::GoingOut;
use crate::state::GameState;
use arrayvec::ArrayVec;

/// Every whole-hand meld below `need` that ends the turn legally: every
/// card of the hand, or all but one final discard, in new melds.
pub(crate) fn concealed_below_minimum<O: OpeningSink>(state: &GameState, need: i32, out: &mut O) {
    let seat = state.to_act();
    let hand = *state.hand(seat);
    let rules = state.rules();
    let mut options: ArrayVec<Option<Card>, 16> = ArrayVec::new();
    options.push(None);
    for_each_class(&hand, |c| {
        if state.final_discard_ok(c) {
            options.push(Some(c));
        }
    });
    for discard in options {
        let mut h = hand;
        if let Some(c) = discard {
            h.remove(c);
        }
        // Black threes, where they are melded apart, make one group of
        // their own (the ranks below never include them).
        let b = if rules.melds.special_threes() {
            h.black_threes()
        } else {
            0
        };
        if h.red_threes() > 0 || (b > 0 && !rules.melds.long_enough(b)) {
            continue;
        }
        let threes = (b > 0).then(|| {
            let mut g = Group::of_rank(Rank::Three);
            g.naturals = pick_black_threes(&h, b);
            g
        });
        // The black threes' group goes last, after the groups of ranks.
        let mut lay = |groups: &mut Groups| {
            let mut all = *groups;
            if threes.is_some_and(|g| !all.push(g)) || all.is_empty() {
                return;
            }
            split_wilds(state, &h, need, 0, h.jokers(), h.twos(), &mut all, out);
        };
        natural_layouts(rules, &h, 0, &mut Groups::new(), &mut lay);
    }
}

/// Calls `f` with each way to lay every natural of `rest` of the ranks
/// from `rules.melds.ranks()[at..]` on, after `groups`. Ranks go lowest
/// first, so a sequence is chosen at its lowest card and a rank's naturals
/// that no sequence took must form its groups: one a rank, or where a rank
/// may have several melds (Samba), every split into groups of at least
/// `min_naturals`, largest first (more groups give the wild cards more
/// room). At most [`crate::action::MAX_GROUPS`] groups: one action holds
/// no more.
fn natural_layouts(
    rules: &Rules,
    rest: &CardCounts,
    at: usize,
    groups: &mut Groups,
    f: &mut impl FnMut(&mut Groups),
) {
    let Some(&rank) = rules.melds.ranks().get(at) else {
        return f(groups);
    };
    sequences_from(
        rules,
        rest,
        rank,
        Suit::Spades as usize,
        u8::MAX,
        groups,
        &mut |rest, groups| {
            let n = rest.rank_count(rank);
            if n == 0 {
                return natural_layouts(rules, rest, at + 1, groups, f);
            }
            if rules.melds.one_meld_a_rank() {
                if !rules.melds.enough_naturals(n) {
                    return;
                }
                let mut g = Group::of_rank(rank);
                g.naturals = rest.rank_suits(rank);
                let mut after = *rest;
                after.remove_all(&g.counts());
                if groups.push(g) {
                    natural_layouts(rules, &after, at + 1, groups, f);
                    groups.pop();
                }
                return;
            }
            rank_splits(rules, rest, rank, n, n, groups, &mut |rest, groups| {
                natural_layouts(rules, rest, at + 1, groups, f)
            });
        },
    );
}

/// Sequences that begin at `rank` in suits from `suit` on (where the rules
/// have sequences), then `f` with what is left. Several of one suit from
/// one rank are taken longest first (`longest` bounds the next), so each
/// set of sequences comes once.
fn sequences_from(
    rules: &Rules,
    rest: &CardCounts,
    rank: Rank,
    suit: usize,
    longest: u8,
    groups: &mut Groups,
    f: &mut impl FnMut(&CardCounts, &mut Groups),
) {
    if !rules.melds.sequences_allowed() || suit == 4 || rank.index() < Rank::Four.index() {
        return f(rest, groups);
    }
    // No further sequence of this suit from this rank.
    sequences_from(rules, rest, rank, suit + 1, u8::MAX, groups, f);
    let s = Suit::from_index(suit);
    let mut run = 0u16;
    let mut len = 0u8;
    for i in rank.index()..=Rank::Ace.index() {
        if len == rules.melds.canasta_length().min(longest)
            || rest.count(Card::new(Rank::from_index(i), s)) == 0
        {
            break;
        }
        run |= 1 << i;
        len += 1;
        if !rules.melds.long_enough(len) {
            continue;
        }
        let g = Group::sequence(s, run);
        let mut after = *rest;
        after.remove_all(&g.counts());
        if groups.push(g) {
            sequences_from(rules, &after, rank, suit, len, groups, f);
            groups.pop();
        }
    }
}

/// Splits the `n` naturals of `rank` left in `rest` into groups of at
/// least `min_naturals`, each no larger than `largest`, largest first.
fn rank_splits(
    rules: &Rules,
    rest: &CardCounts,
    rank: Rank,
    n: u8,
    largest: u8,
    groups: &mut Groups,
    f: &mut impl FnMut(&CardCounts, &mut Groups),
) {
    if n == 0 {
        return f(rest, groups);
    }
    for k in rules.melds.natural_group_sizes(largest.min(n)).rev() {
        if n - k != 0 && !rules.melds.enough_naturals(n - k) {
            continue;
        }
        let mut g = Group::of_rank(rank);
        g.naturals = pick_naturals(rest, rank, k);
        let mut after = *rest;
        after.remove_all(&g.counts());
        if groups.push(g) {
            rank_splits(rules, &after, rank, n - k, k, groups, f);
            groups.pop();
        }
    }
}

/// Places every wild card into the groups (every split), emitting each
/// complete placement that goes out below the minimum.
#[allow(clippy::too_many_arguments)]
fn split_wilds<O: OpeningSink>(
    state: &GameState,
    h: &CardCounts,
    need: i32,
    i: usize,
    jokers: u8,
    twos: u8,
    groups: &mut Groups,
    out: &mut O,
) {
    let rules = state.rules();
    if i == groups.len() {
        if jokers > 0 || twos > 0 {
            return;
        }
        let points: i32 = groups.iter().map(|g| g.opening_points(rules)).sum();
        let action = Action::Meld(*groups);
        if points < need && !out.holds(&action) && GoingOut::of(state).ok_after(action) {
            out.offer(action);
        }
        return;
    }
    let base = groups.as_slice()[i];
    let n = base.natural_count();
    // Sequences and black threes take no wild card.
    let (cap, min_w) = if base.is_special_threes(rules) || base.is_sequence() {
        (0, 0)
    } else {
        (
            rules.melds.wild_capacity_of(base.rank(), n),
            rules.melds.short_of_a_meld(n),
        )
    };
    for j in 0..=cap.min(jokers) {
        for t in 0..=(cap - j).min(twos) {
            if j + t < min_w {
                continue;
            }
            let mut g = base;
            g.jokers = j;
            // Twos by suit, after those given to earlier groups.
            g.twos = take_twos_after(h, h.twos() - twos, t);
            groups.as_mut_slice()[i] = g;
            split_wilds(state, h, need, i + 1, jokers - j, twos - t, groups, out);
        }
    }
    groups.as_mut_slice()[i] = base;
}

/// `t` twos from `h`, skipping the first `skip` (suit order).
fn take_twos_after(h: &CardCounts, skip: u8, t: u8) -> [u8; 4] {
    let have = h.rank_suits(Rank::Two);
    let mut out = [0u8; 4];
    let (mut skip, mut t) = (skip, t);
    for s in 0..4 {
        let avail = have[s];
        let skipped = avail.min(skip);
        skip -= skipped;
        let take = (avail - skipped).min(t);
        out[s] = take;
        t -= take;
    }
    out
}
