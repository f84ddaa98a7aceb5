//! Can the player to act still go out this turn? Decided exactly by
//! counting, not by search: every rank in hand must join the side's meld of
//! that rank or form a new meld, wild cards must fit the melds' spare wild
//! capacity, and the side must end with the canastas it needs. Used to keep
//! the generator free of dead ends (see `docs/decisions/action-space.md`).

pub(crate) mod capped;
mod general;
mod requirements;
pub(crate) mod sequences;
mod shape;

pub(crate) use requirements::{going_out_shortfall, requirements_met};
pub(crate) use shape::{HandShape, MeldShape, WILD_MELD, side_shape};
use shape::{SideShape, shapes_of};

use crate::action::Action;
use crate::card::{Card, CardCounts, Rank, Suit, for_each_class};
use crate::error::IllegalReason;
use crate::meld::Meld;
use crate::rules::KindCounts;
use crate::rules::Rules;
use crate::search::goout::sequences::SharedOutcomes;
use crate::seat::{Seat, Side};
use crate::state::{GameState, MAX_MELDS, Phase};
use arrayvec::ArrayVec;

crate::state::state_view!(
    /// A position as the going-out search reads it: the state through its
    /// read-only accessors, with the questions of this module. The judge and
    /// the generator ask them through it; it changes nothing.
    GoingOut
);

/// A quick necessary condition for going out this turn: even if every
/// card of `hand` went where it helps most, could a side with `melds` end
/// with the `need` canastas it needs, in all and of each kind? Settles
/// most calls of the exact test where canastas are hard to come by
/// (Pennies' four kinds) at the cost of one pass over the melds.
fn canastas_within_reach_of(rules: &Rules, hand: &CardCounts, melds: &[Meld], need: u8) -> bool {
    let size = rules.melds.canasta_length() as usize;
    let mut have = KindCounts::default();
    // Cards that could still go into new canastas: the hand, and the
    // melds short of one (counted once each, as if pooled).
    let (mut open, mut open_wild, mut open_special) = (0usize, 0usize, 0usize);
    for m in melds {
        match m.going_out_kind(rules) {
            Some(kind) => have.add(kind),
            None => {
                let n = m.cards.len() as usize;
                open += n;
                if m.cards.is_wild_only() {
                    open_wild += n;
                }
                if rules.melds.is_special_rank(m.cards.rank()) {
                    open_special += n;
                }
            }
        }
    }
    let total = have.total() as usize + (open + hand.total()) / size;
    let wild = have.wild as usize + (open_wild + hand.wilds() as usize) / size;
    let special = have.special as usize
        + rules
            .melds
            .special_rank()
            .map_or(0, |r| (open_special + hand.rank_count(r) as usize) / size);
    let kinds = rules.going_out.kinds_needed();
    total >= need as usize
        && total >= (kinds.clean + kinds.dirty) as usize
        && wild >= kinds.wild as usize
        && special >= kinds.special as usize
}

/// Bit `rank` set for every rank (index) the side has a meld of.
fn rank_mask(melds: &[MeldShape]) -> u16 {
    melds.iter().fold(0, |acc, m| acc | 1 << m.rank)
}

/// A necessary condition for ending with `need` canastas, and with the
/// natural and mixed ones the rules ask for, when `cards` cards (wild ones
/// among them where `wilds_in_hand`) are left to lay: a meld can become a
/// canasta only if it is within `cards` of the size, end natural only
/// without a wild card in it, and end mixed only with one, in it now or
/// from the hand (a wild meld's kind follows its own rule, so it counts
/// as either); new melds from the hand make at most one canasta per
/// `canasta_size` cards, of either kind. Every test that can say yes
/// (`placeable` in each of its forms) asks for all of these at the end, so
/// a `false` here settles the question before the orphans, the shapes and
/// the dynamic programme: most of the tests Canastone's search runs (a
/// card or two left, a side without the mixed or the natural canasta).
fn enough_melds_within_reach(
    rules: &Rules,
    melds: &[MeldShape],
    cards: usize,
    wilds_in_hand: bool,
    need: u8,
) -> bool {
    let size = rules.melds.canasta_length() as usize;
    let new = cards / size;
    let (mut any, mut natural, mut mixed) = (new, new, new);
    for m in melds {
        if m.len() as usize + cards < size {
            continue;
        }
        let wild_meld = m.rank == WILD_MELD && !m.seq;
        any += 1;
        natural += usize::from(m.wilds == 0 || wild_meld);
        mixed += usize::from(m.wilds > 0 || wilds_in_hand || wild_meld);
    }
    let kinds = rules.going_out.kinds_needed();
    any >= need as usize && natural >= kinds.clean as usize && mixed >= kinds.dirty as usize
}

/// Whether the simple counting test applies: no canasta kinds required, no
/// wild melds, wild cards allowed on canastas (Classic).
fn simple_rules(rules: &Rules) -> bool {
    !rules.melds.closes_by_choice()
        && !rules.going_out.needs_natural_or_mixed()
        && !rules.melds.wild_melds_allowed()
        && rules.melds.wilds_may_join(true)
}

/// A quick refusal of going out with `hand` onto a side whose melds
/// (uncapped) are of the ranks in `has_meld` (where a rank has one meld
/// at most): two cards that fit no meld, or new melds short of the
/// minimum size that need more wild cards than the hand holds. A discard
/// only adds to that need (a natural taken from a new meld) or takes a
/// wild card away, so either settles the question. Necessary, not
/// sufficient: `false` says nothing.
pub(crate) fn hopeless(rules: &Rules, hand: &CardCounts, has_meld: u16) -> bool {
    // Every rank at once: this runs at every turn's start, where the
    // hand's shape is anyone's guess, so a branch a rank mispredicts.
    let counts = hand.rank_counts();
    let open = rules.melds.rank_bits() & !has_meld;
    let min_meld = rules.melds.smallest_meld();
    let (mut orphans, mut wilds_needed) = (0u8, 0u8);
    for (i, &n) in counts.iter().enumerate() {
        // Products rather than conditions keep the loop free of branches.
        let n = n * (open >> i & 1) as u8;
        let short = u8::from(!rules.melds.enough_naturals(n));
        orphans += n * short;
        wilds_needed += min_meld.saturating_sub(n) * (1 - short) * u8::from(n != 0);
    }
    orphans > 1 || wilds_needed > hand.wilds()
}

/// Can every card of `hand` be melded onto `melds` or into new melds,
/// ending with the canastas the side needs?
fn placeable(rules: &Rules, hand: &HandShape, melds: &[MeldShape], need_total: u8) -> bool {
    if rules.melds.max_meld_size.is_some() {
        return crate::search::goout::capped::placeable_capped(rules, hand, melds, need_total);
    }
    if !simple_rules(rules) || !rules.melds.black_threes_meld_going_out() {
        return general::placeable_general(rules, hand, melds, need_total);
    }
    if hand.red_threes > 0 {
        return false;
    }
    let three = Rank::Three.index() as u8;
    let has_meld = rank_mask(melds);
    let b = hand.ranks[three as usize];
    if b > 0 && (!rules.melds.long_enough(b) || has_meld & (1 << three) != 0) {
        return false;
    }
    // Branches here follow the cards, which nothing predicts: the counts
    // and the deficits are taken with arithmetic instead.
    let (mut needs, mut spare, mut canastas) = (0u32, 0u32, 0u32);
    // Melds short of a canasta that spare wild cards could finish, by
    // the cards each lacks.
    let mut deficits = [0u8; MAX_MELDS + 13];
    let mut short = 0;
    let size = rules.melds.canasta_length();
    let mut account = |nat: u8, wilds: u8, need: u8, cap: u8| {
        let total = nat + wilds + need;
        needs += need as u32;
        spare += (cap - need) as u32;
        let lacks = size.saturating_sub(total);
        canastas += u32::from(lacks == 0);
        deficits[short] = lacks;
        short += usize::from(lacks > 0 && lacks <= cap - need);
    };
    for m in melds {
        if m.rank == three {
            continue;
        }
        let nat = m.naturals
            + if m.rank == 0 {
                0
            } else {
                hand.ranks[m.rank as usize]
            };
        let cap = rules.melds.wild_capacity(nat).saturating_sub(m.wilds);
        account(nat, m.wilds, 0, cap);
    }
    // The ranks that need a new meld, and whether any is too short for one.
    let open = rules.melds.rank_bits() & !has_meld;
    let (mut new, mut too_short) = (0u16, false);
    for (i, &n) in hand.ranks.iter().enumerate() {
        let here = n > 0 && open >> i & 1 == 1;
        new |= u16::from(here) << i;
        too_short |= here && !rules.melds.enough_naturals(n);
    }
    if too_short {
        return false;
    }
    while new != 0 {
        let n = hand.ranks[new.trailing_zeros() as usize];
        new &= new - 1;
        let cap = rules.melds.wild_capacity(n);
        let need = rules.melds.short_of_a_meld(n);
        if need > cap {
            return false;
        }
        account(n, 0, need, cap);
    }
    let wilds = hand.wilds as u32;
    if wilds < needs || wilds - needs > spare {
        return false;
    }
    let mut extra = wilds - needs;
    let deficits = &mut deficits[..short];
    deficits.sort_unstable();
    for &mut d in deficits {
        if d as u32 <= extra {
            extra -= d as u32;
            canastas += 1;
        }
    }
    canastas >= need_total as u32
}

impl GoingOut<'_> {
    /// Canastas the player to act needs to go out: fewer when going out on
    /// the turn the side opens, where the rules say so (Canastia).
    pub(crate) fn canastas_needed(&self) -> u8 {
        self.rules()
            .going_out
            .canastas_needed(self.turn().melds_at_start == 0)
    }

    /// Does `after` (this state after an action of `seat`) let the side go
    /// out, by melding everything (`by_discard` false) or by a discard?
    pub(crate) fn may_finish_with(&self, after: &GameState, seat: Seat, by_discard: bool) -> bool {
        let rules = self.rules();
        let side = after.side_of(seat);
        (by_discard || rules.going_out.may_meld_out())
            && requirements_met(rules, &side_shape(after, side), self.canastas_needed())
    }

    /// Asking is allowed only to a player who could go out this turn
    /// (pagat: permission is asked before going out; record spec), at the
    /// moment [`GoingOut::may_ask_now`] allows.
    pub(crate) fn may_ask(&self) -> bool {
        self.may_ask_now() && self.can_go_out(self.to_act())
    }

    /// The moment allows asking: right after the draw (or taking the pile),
    /// before any further meld, once per turn, with a partner (P-CAN), and
    /// with at least two cards in hand, so that a "no" leaves a card to keep.
    #[inline]
    pub(crate) fn may_ask_now(&self) -> bool {
        self.ask_moment_refusal().is_none()
    }

    /// Why the moment does not allow asking (the first of
    /// [`GoingOut::may_ask_now`]'s conditions that fails), or `None`.
    #[inline]
    pub(crate) fn ask_moment_refusal(&self) -> Option<IllegalReason> {
        let seat = self.to_act();
        let turn = self.turn();
        if !self.rules().going_out.asking_allowed {
            Some(IllegalReason::AskingNotAllowed)
        } else if self.partner_of(seat).is_none() {
            Some(IllegalReason::NoPartnerToAsk)
        } else if turn.asked || turn.laid_since_draw || turn.must_go_out {
            Some(IllegalReason::CannotAsk)
        } else if self.hand(seat).total() < 2 {
            Some(IllegalReason::TooFewCardsToAsk)
        } else {
            None
        }
    }

    /// Going out now (emptying the hand) is allowed: the side has the
    /// canastas it needs and partner did not say no.
    pub(crate) fn may_finish_now(&self) -> bool {
        let seat = self.to_act();
        self.turn().answer != Some(false) && self.may_finish_with(self, seat, true)
    }

    /// Can `seat`, in its play phase, still go out this turn?
    pub(crate) fn can_go_out(&self, seat: Seat) -> bool {
        if self.turn().answer == Some(false) {
            return false;
        }
        let side = self.side_of(seat);
        let rules = self.rules();
        // A side that has not melded goes out concealed (P-CAN) or by an
        // opening that meets the minimum; where openings come only before
        // the draw (P-CNE), not at all.
        let unopened = !self.side_has_melded(side);
        let concealed = rules
            .opening
            .concealed_waives_minimum(self.turn().drew_from_stock);
        if unopened
            && !concealed
            && (self.phase() != Phase::Play || !rules.opening.opens_now(false))
        {
            return false;
        }
        // Whether the cards can all go down, the minimum aside: most calls
        // end here, before any opening is tried.
        let placeable = if !rules.melds.rank_names_the_meld() {
            self.can_go_out_searched(self.hand(seat), self.melds(side), None)
        } else {
            let hand = self.hand(seat);
            // Quick refusal before building shapes. It settles most calls
            // (a hand after the draw), so it comes first.
            !hopeless(rules, hand, self.meld_rank_mask(side))
                && self.canastas_within_reach(seat)
                && self.can_go_out_with(&HandShape::of(hand), hand, &side_shape(self, side))
        };
        placeable && (!unopened || concealed || self.can_open_and_go_out(seat))
    }

    /// A quick necessary condition for going out this turn
    /// ([`canastas_within_reach_of`] for the seat's hand and side).
    fn canastas_within_reach(&self, seat: Seat) -> bool {
        canastas_within_reach_of(
            self.rules(),
            self.hand(seat),
            self.melds(self.side_of(seat)),
            self.canastas_needed(),
        )
    }

    /// Bit `Rank::index()` set for every rank the side has a meld of that
    /// can take more cards (every meld, unless melds are capped).
    pub(crate) fn meld_rank_mask(&self, side: Side) -> u16 {
        // Read at every turn's start and for every list: uncapped, the
        // table keeps it; capped, a fold of bits without a branch a meld.
        let Some(cap) = self.rules().melds.max_meld_size else {
            return self.meld_ranks_of(side);
        };
        self.melds(side).iter().fold(0, |acc, m| {
            let bit = m.cards.rank().map_or(0, |r| 1 << r.index());
            acc | (bit * u16::from(m.cards.len() < cap))
        })
    }

    fn can_go_out_with(&self, shape: &HandShape, hand: &CardCounts, melds: &[MeldShape]) -> bool {
        let rules = self.rules();
        let (cards, wilds) = (hand.total(), shape.wilds > 0);
        if !enough_melds_within_reach(rules, melds, cards, wilds, self.canastas_needed()) {
            return false;
        }
        // Cards that fit no meld can only be the final discard: with two or
        // more of them nobody can go out, which settles most calls at once.
        let has_meld = rank_mask(melds);
        // Counted without a branch a rank (the hand's shape is anyone's
        // guess); the orphan named is the highest rank's, lowest suit.
        let open = rules.melds.rank_bits() & !has_meld;
        let (mut orphans, mut orphan_ranks) = (0u8, 0u16);
        for (i, &n) in shape.ranks.iter().enumerate() {
            let is = n > 0 && !rules.melds.enough_naturals(n) && open >> i & 1 == 1;
            orphans += n * u8::from(is);
            orphan_ranks |= u16::from(is) << i;
        }
        let mut orphan = (orphan_ranks != 0).then(|| {
            let rank = Rank::from_index(15 - orphan_ranks.leading_zeros() as usize);
            let suit = hand.rank_suits(rank).iter().position(|&c| c > 0).unwrap();
            Card::new(rank, Suit::from_index(suit))
        });
        let b = shape.ranks[Rank::Three.index()];
        if rules.melds.special_threes() && b > 0 && !rules.melds.black_threes_may_meld(b) {
            orphans += b;
            let spade = Card::new(Rank::Three, Suit::Spades);
            orphan = Some(if hand.count(spade) > 0 {
                spade
            } else {
                Card::new(Rank::Three, Suit::Clubs)
            });
        }
        match (orphans, orphan) {
            (0, _) => {}
            (1, Some(c)) => {
                let mut h = *shape;
                h.remove(c);
                return self.final_discard_ok(c)
                    && placeable(rules, &h, melds, self.canastas_needed());
            }
            _ => return false,
        }
        // Melding out needs its canastas before the last card goes.
        if rules.melding_out_counts() && placeable(rules, shape, melds, self.canastas_needed()) {
            return true;
        }
        let mut found = false;
        for_each_class(hand, |c| {
            if !found && self.final_discard_ok(c) {
                let mut h = *shape;
                h.remove(c);
                found = placeable(rules, &h, melds, self.canastas_needed());
            }
        });
        found
    }

    /// After `action`, can the turn still end legally? An emptied hand must
    /// be a legal going out; a hand of one card, or a player bound to go out,
    /// must still be able to go out.
    pub(crate) fn ok_after(&self, action: Action) -> bool {
        self.ok_after_sharing(action, None)
    }

    /// [`GoingOut::ok_after`] for one of a position's candidate actions,
    /// where going out is searched: the searches share what they work out
    /// (`shared`, one for the position's list; see [`SharedOutcomes`]).
    pub(crate) fn ok_after_sharing(
        &self,
        action: Action,
        shared: Option<&mut SharedOutcomes>,
    ) -> bool {
        let seat = self.to_act();
        if self.foot_size(seat) == 0
            && let Some(ok) = self.ok_after_simple(seat, action)
        {
            return ok;
        }
        if let Some(ok) = self.ok_after_without_copy(seat, action, shared) {
            debug_assert_eq!(ok, self.ok_after_by_copy(seat, action), "{action}");
            return ok;
        }
        self.ok_after_by_copy(seat, action)
    }

    /// `ok_after` by applying the action to a copy of the state: every
    /// action, every variant.
    fn ok_after_by_copy(&self, seat: Seat, action: Action) -> bool {
        let answer = self.turn().answer;
        let mut s = self.state.clone();
        s.apply_raw(action);
        if s.hand(seat).is_empty() {
            return answer != Some(false) && self.may_finish_with(&s, seat, false);
        }
        if s.phase() != Phase::Play || s.foot_due(seat) {
            return true;
        }
        if s.hand(seat).total() == 1 || s.turn().must_go_out {
            return GoingOut::of(&s).can_go_out(seat);
        }
        true
    }

    /// `ok_after` without copying the state where going out is searched
    /// (sequences or several melds of a rank: Samba): an add or a meld by
    /// an opened side in its play phase, with no foot to come, changes only
    /// the hand, the side's melds and whether the player is bound to go
    /// out, so those are worked out alone (a copy of the state and its
    /// bookkeeping cost as much as the search that follows in most calls).
    /// Not where the special rank's discard is restricted: there applying
    /// an action may end the hand as blocked, which only the copy sees.
    /// `None` for every other action. Debug builds check it against the
    /// copy.
    fn ok_after_without_copy(
        &self,
        seat: Seat,
        action: Action,
        shared: Option<&mut SharedOutcomes>,
    ) -> Option<bool> {
        let rules = self.rules();
        let side = self.side_of(seat);
        if rules.melds.rank_names_the_meld()
            || rules.pile.special_discard_restricted()
            || self.phase() != Phase::Play
            || self.foot_size(seat) > 0
            || !self.side_has_melded(side)
        {
            return None;
        }
        let mut hand = *self.hand(seat);
        let mut melds: ArrayVec<Meld, MAX_MELDS> = self.melds(side).iter().copied().collect();
        let mut must = self.turn().must_go_out;
        match action {
            Action::Add { meld, cards } => {
                hand.remove_all(&cards.counts());
                melds.get_mut(meld.index())?.cards.merge(&cards);
            }
            Action::Meld(groups) => {
                for g in groups.iter() {
                    hand.remove_all(&g.counts());
                    match crate::meld::lay_target(rules, &melds, g) {
                        Some(i) => melds[i].cards.merge(g),
                        None => melds
                            .try_push(Meld {
                                cards: *g,
                                closed: false,
                            })
                            .ok()?,
                    }
                    must |= g.is_special_threes(rules);
                }
            }
            _ => return None,
        }
        Some(self.verdict_after(
            &hand,
            must,
            || requirements_met(rules, &shapes_of(&melds), self.canastas_needed()),
            || self.can_go_out_searched(&hand, &melds, shared),
        ))
    }

    /// Going out with `hand` onto a side with `melds` where it is searched
    /// (sequences or several melds of a rank): the quick bound, then the
    /// exact search; shared by [`GoingOut::can_go_out`] and the test after
    /// an action that works without a copy.
    fn can_go_out_searched(
        &self,
        hand: &CardCounts,
        melds: &[Meld],
        shared: Option<&mut SharedOutcomes>,
    ) -> bool {
        let rules = self.rules();
        let need = self.canastas_needed();
        canastas_within_reach_of(rules, hand, melds, need)
            && sequences::goes_out(
                rules,
                hand,
                melds,
                need,
                rules.going_out.may_meld_out(),
                |c| self.final_discard_ok(c),
                shared,
            )
    }

    /// `ok_after` for taking the pile with the top card alone, a pair, or a
    /// natural and a wild card (an opened side; `melds` is its shape).
    fn ok_after_pickup(&self, seat: Seat, action: Action, melds: &mut SideShape) -> Option<bool> {
        let rules = self.rules();
        let top = self.pile_top()?;
        let rank = top.rank()?.index() as u8;
        let mut hand = *self.hand(seat);
        match action {
            Action::PickupOnto => {
                melds
                    .iter_mut()
                    .find(|m| m.rank == rank && !rules.melds.full(m.len()))?
                    .naturals += 1;
            }
            Action::Pickup { with, also } if also.is_empty() => {
                hand.remove_all(&with.counts());
                let (n, w) = (with.natural_count() + 1, with.wild_count());
                match melds
                    .iter_mut()
                    .find(|m| m.rank == rank && !rules.melds.full(m.len()))
                {
                    Some(m) => {
                        m.naturals += n;
                        m.wilds += w;
                        m.jokers += with.jokers;
                    }
                    None => melds.push(MeldShape {
                        rank,
                        naturals: n,
                        wilds: w,
                        jokers: with.jokers,
                        closed: false,
                        seq: false,
                    }),
                }
            }
            _ => return None,
        }
        for &c in &self.pile()[..self.pile().len() - 1] {
            if !c.is_red_three() {
                hand.add(c);
            }
        }
        Some(self.judge_after(&hand, melds))
    }

    /// The verdict once the hand and the side's melds after an action are known.
    fn judge_after(&self, hand: &CardCounts, melds: &[MeldShape]) -> bool {
        self.verdict_after(
            hand,
            self.turn().must_go_out,
            || requirements_met(self.rules(), melds, self.canastas_needed()),
            || self.can_go_out_with(&HandShape::of(hand), hand, melds),
        )
    }

    /// `ok_after`'s rule, once the hand after the action and whether the
    /// player is then bound to go out are known: an emptied hand must be a
    /// legal going out by melding (`melded_out_ok`: the melds it leaves
    /// meet the requirements); a hand of one card, or a bound player, must
    /// still be able to go out (`can_still_go_out`); any other hand goes
    /// on. A partner's "no" forbids going out this turn. The callers differ
    /// only in how they describe the melds, so they pass the two tests.
    fn verdict_after(
        &self,
        hand: &CardCounts,
        must_go_out: bool,
        melded_out_ok: impl FnOnce() -> bool,
        can_still_go_out: impl FnOnce() -> bool,
    ) -> bool {
        let refused = self.turn().answer == Some(false);
        if hand.is_empty() {
            return !refused && self.rules().going_out.may_meld_out() && melded_out_ok();
        }
        if hand.total() > 1 && !must_go_out {
            return true;
        }
        !refused && can_still_go_out()
    }

    /// `ok_after` without copying the state, for the common case: one card
    /// added to a meld, or one new group of an unmelded rank, by an opened side.
    /// Not where the special rank's discard is restricted (P-PEN): there an
    /// action that leaves only sevens ends the hand as blocked, which only
    /// the copy sees, so `add` and `meld` are judged alike.
    fn ok_after_simple(&self, seat: Seat, action: Action) -> Option<bool> {
        let side = self.side_of(seat);
        let rules = self.rules();
        if !self.side_has_melded(side)
            || !rules.melds.rank_names_the_meld()
            || rules.pile.special_discard_restricted()
        {
            return None;
        }
        let mut melds = side_shape(self, side);
        if let Some(ok) = self.ok_after_pickup(seat, action, &mut melds) {
            return Some(ok);
        }
        let g = match action {
            Action::Add { meld, cards } => {
                let m = &mut melds[meld.index()];
                m.naturals += cards.natural_count();
                m.wilds += cards.wild_count();
                m.jokers += cards.jokers;
                cards
            }
            Action::Meld(groups)
                if groups.len() == 1 && !groups.as_slice()[0].is_special_threes(self.rules()) =>
            {
                let g = groups.as_slice()[0];
                let rank = g.rank()?;
                if melds.iter().any(|m| m.rank == rank.index() as u8) {
                    return None;
                }
                melds.push(MeldShape {
                    rank: rank.index() as u8,
                    naturals: g.natural_count(),
                    wilds: g.wild_count(),
                    jokers: g.jokers,
                    closed: false,
                    seq: false,
                });
                g
            }
            _ => return None,
        };
        let mut hand = *self.hand(seat);
        hand.remove_all(&g.counts());
        Some(self.judge_after(&hand, &melds))
    }
}

#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod shortcut_tests;
