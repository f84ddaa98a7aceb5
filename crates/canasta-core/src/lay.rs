//! What a lay does to a side's melds: each written group placed where
//! [`lay_target`] sends it, and whether each new or extended meld may be as
//! the action leaves it ([`meld_problem`]), judged by its contents after the
//! action against the meld before it.

use crate::card::{Rank, Suit};
use crate::error::{IllegalReason, MeldRef};
use crate::meld::{Group, MAX_MELDS, Meld, MeldId, lay_target};
use crate::rules::{Rules, WildMeldReserve};
use arrayvec::ArrayVec;

/// Melds of one side while an action is judged: the side's melds, then the
/// new ones the action begins.
type WorkingMelds = ArrayVec<Meld, { MAX_MELDS + crate::action::MAX_GROUPS + 1 }>;

/// Why the meld an action makes or extends is not allowed: `before` is the
/// meld as it stood before the action (`None`: a new meld), `added` the
/// cards the action puts in it, `index` its number (for messages). `None`
/// when it is allowed.
///
/// Judged by the contents after the action, against the meld before it: a
/// wild card may not go onto a meld that *was* a canasta (where the rules
/// say so), but may go into one this action completes.
pub(crate) fn meld_problem(
    rules: &Rules,
    before: Option<&Meld>,
    added: &Group,
    index: MeldId,
) -> Option<IllegalReason> {
    use IllegalReason as R;
    let Some(b) = before else {
        return contents_problem(rules, added, true);
    };
    if b.closed {
        return Some(R::CanastaClosed(MeldRef::new(index, &b.cards)));
    }
    if b.cards.is_sequence() {
        if rules.melds.is_samba(b.cards.len()) {
            return Some(R::SambaClosed(MeldRef::new(index, &b.cards)));
        }
        let suit = b.cards.run_suit();
        let mut run = b.cards.sequence_ranks();
        for c in added.cards() {
            let fits = c.suit() == suit
                && c.rank()
                    .is_some_and(|r| r >= Rank::Four && run & (1 << r.index()) == 0);
            if !fits {
                return Some(R::BadSequence);
            }
            run |= 1 << c.rank().expect("a natural").index();
        }
        let mut after = b.cards;
        after.merge(added);
        return contents_problem(rules, &after, false);
    }
    if b.is_full(rules) {
        return Some(R::MeldFull {
            cap: rules.melds.cap(),
        });
    }
    if b.cards.is_special_threes(rules) {
        return Some(R::BlackThreesMeldClosed);
    }
    let wrong_rank =
        added.is_sequence() || (added.rank().is_some() && added.rank() != b.cards.rank());
    if wrong_rank {
        return Some(R::WrongRank {
            meld: index,
            rank: b.cards.rank(),
        });
    }
    // Wild cards may not be added to a canasta (P-CNE), a wild one too;
    // where they may (`wilds_on_canasta`), a wild canasta grows like any.
    if b.cards.is_wild_only() && !rules.melds.wilds_may_join(b.is_canasta(rules)) {
        return Some(R::WildCanastaComplete(MeldRef::new(index, &b.cards)));
    }
    if added.wild_count() > 0
        && b.cards.rank().is_some()
        && !rules.melds.wilds_may_join(b.is_canasta(rules))
    {
        return Some(R::NoWildOnCanasta);
    }
    let mut after = b.cards;
    after.merge(added);
    match contents_problem(rules, &after, false) {
        // "Natural cards may be added to a canasta without limit" (P-CAN,
        // rules-research §1): the limit bars wild cards. Only pooling
        // (Classic 3's partners pool their melds, P-CAN) can leave a meld
        // over it, and naturals added to that meld make it no worse.
        Some(R::TooManyWilds { .. }) if added.wild_count() == 0 => None,
        problem => problem,
    }
}

/// Why a meld of these contents may not exist (`new`: the action begins
/// it), or `None`. The shape rules: size, naturals, the wild-card limits,
/// pure ranks, caps, wild melds, black threes, sequences.
fn contents_problem(rules: &Rules, all: &Group, new: bool) -> Option<IllegalReason> {
    use IllegalReason as R;
    let too_small = || R::MeldTooSmall {
        need: rules.melds.smallest_meld(),
        have: all.len(),
    };
    if all.is_sequence() {
        if !rules.melds.sequences_allowed() {
            return Some(R::NoSequences);
        }
        if !valid_sequence(rules, all) {
            return Some(R::BadSequence);
        }
        return None;
    }
    if all.len() > rules.melds.cap() {
        return Some(R::MeldFull {
            cap: rules.melds.cap(),
        });
    }
    if let Some(r) = all.rank()
        && rules.melds.is_pure_rank(Some(r))
        && all.wild_count() > 0
    {
        return Some(R::PureRank(r));
    }
    match all.rank() {
        None if !rules.melds.wild_melds_allowed() => return Some(R::WildMeld),
        None => {
            // P-CNE's one wild meld a side, ever, is `lay_target`'s: wild
            // cards join it whatever its size.
            if !rules.melds.long_enough(all.len()) {
                return Some(too_small());
            }
            return None;
        }
        Some(Rank::Three) if !rules.melds.special_threes() => {}
        Some(Rank::Three) if !rules.melds.black_threes_meld_going_out() => {
            return Some(R::ThreesNotMeldable);
        }
        Some(Rank::Three) => {
            let red = all.naturals[Suit::Hearts as usize] + all.naturals[Suit::Diamonds as usize];
            if red > 0 {
                return Some(R::RedThreesNotMelded);
            }
            if all.wild_count() > 0 {
                return Some(R::WildWithBlackThrees);
            }
            if !new {
                return Some(R::BlackThreesMeldClosed);
            }
            if !rules.melds.long_enough(all.len()) {
                return Some(too_small());
            }
            return None;
        }
        Some(_) => {}
    }
    let (n, w) = (all.natural_count(), all.wild_count());
    if !rules.melds.long_enough(all.len()) {
        return Some(too_small());
    }
    if let Some(need) = rules.melds.naturals_needed(n) {
        return Some(R::TooFewNaturals { need, have: n });
    }
    let max = rules.melds.wild_capacity_of(all.rank(), n);
    if w > max {
        return Some(R::TooManyWilds {
            max,
            naturals: n,
            have: w,
        });
    }
    None
}

/// A sequence (Samba): naturals of one suit in consecutive ranks, four to
/// ace, one card a rank, no wild cards, of a length
/// [`MeldRules::sequence_length_ok`](crate::rules::MeldRules::sequence_length_ok) allows.
pub(crate) fn valid_sequence(rules: &Rules, g: &Group) -> bool {
    let run = g.sequence_ranks();
    rules.melds.sequence_length_ok(g.len())
        && g.is_sequence()
        && g.wild_count() == 0
        && u32::from(g.natural_count()) == run.count_ones()
        && run & ((1 << Rank::Four.index()) - 1) == 0
        && g.run_is_consecutive()
}

/// What a lay does to its side, worked out before anything moves.
pub(super) struct Lay {
    melds: WorkingMelds,
    /// Side melds before the action (`melds[..before]`).
    before: usize,
    /// Cards the action puts in each meld (index as in `melds`).
    added: ArrayVec<Group, { MAX_MELDS + crate::action::MAX_GROUPS + 1 }>,
}

impl Lay {
    pub(super) fn new(side: &[Meld]) -> Lay {
        let mut melds = WorkingMelds::new();
        melds.extend(side.iter().copied());
        let mut added = ArrayVec::new();
        added.extend(std::iter::repeat_n(Group::default(), side.len()));
        Lay {
            melds,
            before: side.len(),
            added,
        }
    }

    /// Puts a written group where [`lay_target`] sends it; false if the
    /// side would hold more melds than the engine allows.
    pub(super) fn place(&mut self, rules: &Rules, g: &Group) -> bool {
        match lay_target(rules, &self.melds, g) {
            Some(i) => {
                self.melds[i].cards.merge(g);
                self.added[i].merge(g);
                true
            }
            None if self.melds.len() < MAX_MELDS => {
                self.melds.push(Meld {
                    cards: *g,
                    closed: false,
                });
                self.added.push(*g);
                true
            }
            None => false,
        }
    }

    pub(super) fn add_to(&mut self, i: usize, g: &Group) {
        self.melds[i].cards.merge(g);
        self.added[i].merge(g);
    }

    /// The first meld that may not be as the action leaves it.
    pub(super) fn problem(&self, rules: &Rules, side: &[Meld]) -> Option<IllegalReason> {
        for (i, added) in self.added.iter().enumerate() {
            if added.is_empty() {
                continue;
            }
            let before = side.get(i).filter(|_| i < self.before);
            if let Some(r) = meld_problem(rules, before, added, MeldId::new(i)) {
                return Some(r);
            }
        }
        None
    }

    /// P-CNE: wild cards went onto rank melds while the side had a wild
    /// meld short of a canasta (`before`: what it held back as the action
    /// began, `GameState::wilds_reserved`), and still has; RG-ITA: twos
    /// did. Judged over the whole action, so that it is legal when its
    /// parts would be in some order: a wild meld the action completes frees
    /// the wild cards (it could be completed first), and one it begins does
    /// not hold them (the rank meld could be laid first; the record spec
    /// judges each meld against the melds as they stood before the action).
    pub(super) fn wilds_reserved(&self, rules: &Rules, before: WildMeldReserve) -> bool {
        if before == WildMeldReserve::Nothing {
            return false;
        }
        let open_after = self.melds.iter().any(|m| m.cards.holds_wilds_back(rules));
        let wilds_elsewhere = self
            .added
            .iter()
            .zip(&self.melds)
            .any(|(a, m)| !m.cards.is_wild_only() && a.holds_reserved(before));
        open_after && wilds_elsewhere
    }
}
