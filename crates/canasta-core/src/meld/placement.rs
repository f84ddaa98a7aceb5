//! Where cards go on a side's melds, and how many more a meld can take:
//! the placement of a written group, a card's fit at the end of a
//! sequence, and a meld's room for wild cards.

use super::{Group, Meld};
use crate::card::{Card, Rank};
use crate::rules::Rules;

/// Where a written group goes on a side that has `melds`: the index of the
/// meld it joins, or `None` for a new meld. The one rule for both judging
/// and applying:
/// - a sequence (Samba) is always a new meld;
/// - naturals of a rank join the side's meld of that rank that can still
///   take cards (one meld per rank; where melds are capped, the one not yet
///   full), except where a rank may have several melds (Samba), where a
///   written group is a new meld;
/// - wild cards alone join the side's wild meld where a side has one for
///   the hand (P-CNE), whatever its size, so that how an action splits its
///   wild cards into groups never matters (the judge then refuses wild
///   cards on a meld that was a canasta before the action); where a side
///   may begin another once the last is a canasta (P-PEN), they join the
///   one short of a canasta.
pub(crate) fn lay_target(rules: &Rules, melds: &[Meld], g: &Group) -> Option<usize> {
    if g.is_sequence() {
        return None;
    }
    match g.rank() {
        None if rules.melds.one_wild_meld() => melds.iter().position(|m| m.cards.is_wild_only()),
        None => melds.iter().position(|m| {
            m.cards.is_wild_only() && rules.melds.wild_meld_unfinished(m.cards.len())
        }),
        Some(_) if !rules.melds.one_meld_a_rank() => None,
        Some(r) => melds
            .iter()
            .position(|m| m.cards.rank() == Some(r) && !m.cards.is_sequence() && !m.is_full(rules)),
    }
}

/// Whether `card` extends the sequence `run` at either end (same suit, the
/// rank just below its lowest or just above its highest, four to ace).
pub(crate) fn extends_run(run: &Group, card: Card) -> bool {
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
        return false;
    };
    if run.run_suit() != Some(suit) || rank < Rank::Four {
        return false;
    }
    let low = run.sequence_ranks().trailing_zeros() as usize;
    let high = 15 - run.sequence_ranks().leading_zeros() as usize;
    rank.index() + 1 == low || rank.index() == high + 1
}

/// Most wild cards a meld with `n_now` naturals and `w0` wild cards,
/// growing to `n_final` naturals this turn, can take in all by the
/// generator's steps. Where wild cards may go on a canasta, what the
/// ratio allows at the end. Where they may not (P-CNE), they must go on
/// while the meld is short of a canasta: after as many of its naturals as
/// keep it short (capacity grows with naturals), all at once or one at a
/// time (the generator's `adds_past_canasta`: one action may carry it past
/// the canasta's size), the remaining naturals after them.
pub(crate) fn wild_room(rules: &Rules, rank: Option<Rank>, n_now: u8, n_final: u8, w0: u8) -> u8 {
    // Where canastas are closed by choice, a meld is not a canasta until
    // it is closed (and a closed one takes nothing: not asked here).
    if rules.melds.wilds_join_at_canasta_size() {
        return rules
            .melds
            .wild_capacity_of(rank, n_final)
            .saturating_sub(w0);
    }
    let size = rules.melds.canasta_length();
    if n_now + w0 >= size {
        return 0;
    }
    let n_at = n_final.min(size - 1 - w0);
    rules.melds.wild_capacity_of(rank, n_at).saturating_sub(w0)
}
