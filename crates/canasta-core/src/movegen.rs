//! The legal-action generator: lists what a seat may do by enumerating
//! candidates by shape and keeping those the rule areas' predicates
//! (`rules/`) accept, the same predicates the judge asks.
//!
//! Cards the rules cannot tell apart (the same rank in different suits; twos
//! of different suits) are one choice: the generator names the lowest suits
//! (S, H, D, C order) and [`GameState::is_legal`](crate::state::GameState::is_legal) compares actions by their
//! [class key](crate::Action::class_key). After the opening, one minimal
//! group per meld and one card per add is enough to reach every position;
//! larger actions in a record are checked as those steps (see
//! `docs/decisions/action-space.md`). The generator never offers an action
//! from which the turn cannot finish legally.

use crate::action::{Action, ActionList, Groups};
use crate::card::{Card, CardCounts, Rank, Suit, for_each_choice, wild_classes};
use crate::meld::{Group, Meld, MeldId, natural_choices, pick_black_threes, pick_naturals};
use crate::rules::{Rules, WildMeldReserve};
use crate::search::goout::GoingOut;
use crate::search::goout::sequences::{QuickOut, SharedOutcomes};
use crate::seat::{Seat, Side};
use crate::state::Phase;
use arrayvec::ArrayVec;
use std::cell::RefCell;

crate::state::state_view!(
    /// A position as the generator reads it: the state through its
    /// read-only accessors.
    Generator
);

impl Generator<'_> {
    /// Every minimal legal choice of the seat to act into `out` (cleared
    /// first), in a deterministic order.
    pub(crate) fn generate(&self, out: &mut ActionList) {
        out.clear();
        match self.phase() {
            Phase::Draw => self.gen_draw(out),
            Phase::Play => self.gen_play(out),
            Phase::Answer => {
                // Both answers, always: only an asker who can go out may
                // ask, and the list must not tell the partner more.
                out.push(Action::Answer(true));
                out.push(Action::Answer(false));
            }
            Phase::Deal | Phase::HandOver | Phase::GameOver => {}
        }
    }

    fn seat_side(&self) -> (Seat, Side) {
        let seat = self.to_act();
        (seat, self.side_of(seat))
    }

    fn gen_draw(&self, out: &mut ActionList) {
        out.push(Action::Draw);
        let (_, side) = self.seat_side();
        // P-CNE: a side that has not melded opens before drawing, or not at
        // all; having opened, the player may lay more from hand before drawing.
        if self.rules().opening.opens_now(true) {
            if !self.side_has_melded(side) {
                crate::search::opening::generate(self, None, out);
            } else if self.turn().opened_before_draw {
                self.gen_melds_and_adds(out, true, self.wilds_reserved(side));
            }
        }
        let before = out.len();
        self.gen_pickups(out);
        // P-CAN: with the stock empty, a pile that matches a meld must be taken.
        if (self.stock_len() == 0) && self.must_take_pile() && out.len() > before {
            out.remove(0);
        }
    }

    pub(crate) fn gen_pickups(&self, out: &mut ActionList) {
        let (seat, side) = self.seat_side();
        let rules = self.rules();
        let hand = self.hand(seat);
        let Ok(top) = self.pile_open() else { return };
        let rank = top.rank().unwrap();
        let rest = self.pile_rest_to_hand() + rules.pile.stock_cards_with_pile();
        if !self.side_has_melded(side) {
            crate::search::opening::generate(self, Some(top), out);
            return;
        }
        // P-SAM (Dutch): the top card alone onto a sequence, for the draw.
        if rules.pile.top_card_for_the_draw() && self.pickup_onto_target(side, top).is_some() {
            out.push(Action::PickupOnto);
        }
        let frozen = self.frozen_for(side);
        // Where a rank may have several melds (Samba), a pair taken with the
        // top card is a new meld; the top card alone goes on a meld that
        // can take it (`pickup_onto_target`).
        let existing = if !rules.melds.one_meld_a_rank() {
            None
        } else {
            self.meld_index_of_rank(side, Some(rank))
                .map(|i| self.melds(side)[i])
        };
        // One meld per rank: the same meld (not looked up twice).
        let onto = if !rules.melds.one_meld_a_rank() || rules.pile.top_card_for_the_draw() {
            self.pickup_onto_target(side, top)
                .map(|i| self.melds(side)[i])
        } else {
            existing
        };
        let n = hand.rank_count(rank);
        if existing.is_some_and(|m| m.closed) {
            // A closed canasta takes nothing more (Canastia).
            return;
        }
        let push = |a: Action, used: usize, out: &mut ActionList| {
            let remaining = hand.total() - used + rest;
            // A take that would leave only the unseen stock card (P-CNE)
            // is refused without looking at that card: legality must not
            // depend on what nobody may see.
            if remaining >= 2
                || (!rules.pile.leaves_only_unseen(remaining) && GoingOut::of(self).ok_after(a))
            {
                out.push(a);
            }
        };
        if let Some(m) = onto
            && rules.pile.takes_onto_meld(frozen, m.is_canasta(rules))
        {
            push(Action::PickupOnto, 0, out);
        }
        // Where melds are capped, the pile's group must fit the open meld.
        let room = existing.map_or(rules.melds.cap(), |m| {
            rules.melds.cap().saturating_sub(m.cards.len())
        });
        let needed = rules.pile.naturals_to_take(frozen);
        let pair = needed.max(rules.melds.short_of_a_meld(1));
        let meld_room = existing.is_some() || self.melds(side).len() < crate::state::MAX_MELDS;
        let all_suits = rules.melds.suits_matter();
        if n >= pair && pair < room && meld_room {
            for naturals in natural_choices(hand, rank, pair, all_suits) {
                let mut with = Group::of_rank(rank);
                with.naturals = naturals;
                push(
                    Action::Pickup {
                        with,
                        also: Groups::new(),
                    },
                    pair as usize,
                    out,
                );
            }
        }
        let reserved = self.wilds_reserved(side);
        if rules.pile.takes_with_natural_and_wild(frozen)
            && reserved != WildMeldReserve::WildCards
            && n >= 1
            && rules.melds.smallest_meld() <= 3
            && room >= 3
            && meld_room
            && existing.is_none_or(|m| rules.melds.wilds_may_join(m.is_canasta(rules)))
        {
            let (nat, wilds) = existing.map_or((2, 1), |m| {
                (m.cards.natural_count() + 2, m.cards.wild_count() + 1)
            });
            if rules.melds.wild_capacity_of(Some(rank), nat) >= wilds {
                for naturals in natural_choices(hand, rank, 1, all_suits) {
                    for wild in wild_classes(hand).filter(|&c| !reserved.holds(c == Card::JOKER)) {
                        let mut with = Group::of_rank(rank);
                        with.naturals = naturals;
                        with.push(wild).unwrap();
                        push(
                            Action::Pickup {
                                with,
                                also: Groups::new(),
                            },
                            2,
                            out,
                        );
                    }
                }
            }
        }
    }

    fn gen_play(&self, out: &mut ActionList) {
        let (seat, side) = self.seat_side();
        let rules = self.rules();
        let hand = self.hand(seat);
        let must = self.turn().must_go_out;
        if GoingOut::of(self).may_ask() {
            out.push(Action::Ask);
        }
        let total = hand.total();
        // It walks the side's melds: once for the melds and the discards.
        let wilds_reserved = self.wilds_reserved(side);
        if !self.side_has_melded(side) {
            if rules.opening.opens_now(false) {
                crate::search::opening::generate(self, None, out);
            }
        } else {
            self.gen_melds_and_adds(out, false, wilds_reserved);
        }
        // Discards: one per class of card in hand. With the foot due, the
        // last card's discard is not going out: the foot follows it.
        let finishing = total == 1 && !self.foot_due(seat);
        if finishing && !GoingOut::of(self).may_finish_now() {
            return;
        }
        if must && !finishing {
            return;
        }
        // Wild cards kept for the wild meld stay off the pile, unless the hand
        // holds nothing else.
        let reserved = wilds_reserved.holds_discards() && hand.wilds() < hand.total() as u8;
        let special = rules
            .melds
            .special_rank()
            .filter(|_| self.special_discard_blocked(seat));
        for_each_choice(hand, rules.melds.suits_matter(), |c| {
            if (!finishing || self.final_discard_ok(c))
                && !(reserved && c.is_wild())
                && (special.is_none() || c.rank() != special)
            {
                out.push(Action::Discard(c));
            }
        });
    }

    /// New melds (one minimal group each) and one-card adds of an opened
    /// side. Before the draw (P-CNE's opening turn) the hand may be emptied,
    /// since a draw follows, and black threes are not melded. `reserved`:
    /// the side's wild cards are reserved for its wild meld
    /// (`GameState::wilds_reserved`, read once by the caller).
    fn gen_melds_and_adds(
        &self,
        out: &mut ActionList,
        before_draw: bool,
        reserved: WildMeldReserve,
    ) {
        let rules = self.rules();
        if !rules.melds.rank_names_the_meld() {
            self.gen_melds_and_adds_sharing(out, before_draw, reserved);
        } else {
            self.gen_melds_and_adds_in(out, before_draw, reserved, None);
        }
    }

    /// Where going out is searched (Samba): the candidates' full tests
    /// share what they work out. Out of line, so that the other variants'
    /// generation does not carry the shared tables on its stack.
    #[inline(never)]
    fn gen_melds_and_adds_sharing(
        &self,
        out: &mut ActionList,
        before_draw: bool,
        reserved: WildMeldReserve,
    ) {
        let shared = RefCell::new(SharedOutcomes::default());
        self.gen_melds_and_adds_in(out, before_draw, reserved, Some(&shared));
    }

    /// [`Generator::gen_melds_and_adds`] in the list's shared tables, if
    /// any: the full going-out tests of its candidates share `shared` (as
    /// [`Generator::ok_after_in`] does).
    fn gen_melds_and_adds_in(
        &self,
        out: &mut ActionList,
        before_draw: bool,
        reserved: WildMeldReserve,
        shared: Option<&RefCell<SharedOutcomes>>,
    ) {
        let (seat, side) = self.seat_side();
        let rules = self.rules();
        let hand = self.hand(seat);
        let must = self.turn().must_go_out;
        let total = hand.total();
        // Where going out is searched (Samba), many candidates of a player
        // bound to go out are answered at once by a quick test that shares
        // the work between them; the rest get the full one.
        let quick_rules = !rules.melds.rank_names_the_meld()
            && self.foot_size(seat) == 0
            && self.turn().answer != Some(false)
            && !tests_without_quick();
        let quick: RefCell<Option<Option<QuickOut>>> = RefCell::new(None);
        // Most candidates leave two cards or more and go straight in; the
        // rest ask whether the turn can still end, out of line.
        let push = |a: Action, used: usize, out: &mut ActionList| {
            let goes_on = before_draw || (total - used >= 2 && !must);
            if goes_on || self.finishable_after(a, quick_rules.then_some(&quick), shared) {
                out.push(a);
            }
        };
        let melds = self.melds(side);
        let room = crate::state::MAX_MELDS > melds.len();
        // Several melds of a rank (Samba): a new group is always a new meld.
        let has_meld = if !rules.melds.one_meld_a_rank() {
            0
        } else {
            GoingOut::of(self).meld_rank_mask(side)
        };
        if rules.melds.sequences_allowed() && room {
            self.gen_sequences(out, &push);
        }
        // The meld ranks of which the hand holds enough naturals and the
        // side has no meld, lowest first.
        let mut ranks = if room {
            rules.melds.ranks_to_begin(hand) & !has_meld
        } else {
            0
        };
        while ranks != 0 {
            let rank = Rank::from_index(ranks.trailing_zeros() as usize);
            ranks &= ranks - 1;
            let n = hand.rank_count(rank);
            // Minimal groups: exactly `min_meld` cards.
            let size = rules.melds.smallest_meld();
            for k in rules.melds.natural_group_sizes(n.min(size)).rev() {
                let w = size - k;
                if w > rules.melds.wild_capacity_of(Some(rank), k)
                    || (w > 0 && reserved == WildMeldReserve::WildCards)
                {
                    continue;
                }
                for naturals in natural_choices(hand, rank, k, rules.melds.suits_matter()) {
                    let mut g = Group::of_rank(rank);
                    g.naturals = naturals;
                    for wilds in wild_combos(hand, w).filter(|c| !c.holds_reserved(reserved)) {
                        let mut g = g;
                        g.merge(&wilds);
                        push(Action::Meld(Groups::from_iter([g])), size as usize, out);
                    }
                }
            }
        }
        // A meld of wild cards only (P-CNE: one per side; P-PEN: a new one
        // once the last is a canasta).
        if rules.melds.wild_melds_allowed()
            && room
            && !melds
                .iter()
                .any(|m| m.cards.is_wild_only() && rules.melds.wild_meld_unfinished(m.cards.len()))
            && (!rules.melds.one_wild_meld() || !melds.iter().any(|m| m.cards.is_wild_only()))
        {
            for g in wild_combos(hand, rules.melds.smallest_meld()) {
                push(
                    Action::Meld(Groups::from_iter([g])),
                    rules.melds.smallest_meld() as usize,
                    out,
                );
            }
        }
        let b = hand.black_threes();
        if rules.melds.black_threes_may_meld(b)
            && room
            && !before_draw
            && GoingOut::of(self).meld_rank_mask(side) & (1 << Rank::Three.index()) == 0
        {
            self.gen_black_threes_melds(out, shared);
        }
        // Read once for every meld: the hand's count of each rank and its
        // wild cards by class.
        let counts = hand.rank_counts();
        let wilds: ArrayVec<Card, 2> = wild_classes(hand).collect();
        for (i, m) in melds.iter().enumerate() {
            if m.cards.is_special_threes(rules) || m.closed || m.is_full(rules) {
                continue;
            }
            if m.cards.is_sequence() {
                for c in sequence_extensions(&m.cards, hand, rules) {
                    let mut g = Group::default();
                    g.push(c).unwrap();
                    push(
                        Action::Add {
                            meld: MeldId::new(i),
                            cards: g,
                        },
                        1,
                        out,
                    );
                }
                continue;
            }
            // Canastia: a meld of seven or more may be closed as a canasta.
            if rules.melds.may_close(m.cards.len()) && !before_draw {
                out.push(Action::CloseCanasta(MeldId::new(i)));
            }
            if let Some(rank) = m.cards.rank()
                && counts[rank.index()] > 0
            {
                for naturals in natural_choices(hand, rank, 1, rules.melds.suits_matter()) {
                    let mut g = Group::of_rank(rank);
                    g.naturals = naturals;
                    push(
                        Action::Add {
                            meld: MeldId::new(i),
                            cards: g,
                        },
                        1,
                        out,
                    );
                }
            }
            if wilds.is_empty() {
                continue;
            }
            let wild_room = match m.cards.rank() {
                // A wild meld grows one card at a time to a canasta, and
                // past it only where wild cards may go on canastas (else
                // only by the adds past a canasta below).
                None => rules.melds.wilds_may_join(m.is_canasta(rules)),
                Some(rank) => {
                    reserved != WildMeldReserve::WildCards
                        && rules
                            .melds
                            .wild_capacity_of(Some(rank), m.cards.natural_count())
                            > m.cards.wild_count()
                        && rules.melds.wilds_may_join(m.is_canasta(rules))
                }
            };
            if wild_room {
                for &wild in &wilds {
                    if m.cards.rank().is_some() && reserved.holds(wild == Card::JOKER) {
                        continue;
                    }
                    let mut g = Group::default();
                    g.push(wild).unwrap();
                    push(
                        Action::Add {
                            meld: MeldId::new(i),
                            cards: g,
                        },
                        1,
                        out,
                    );
                }
                if !rules.melds.wilds_may_join(true) {
                    adds_past_canasta(rules, hand, i, m, reserved, |a, w| push(a, w, out));
                }
            }
        }
    }

    /// Melds of black threes, by a player holding enough of them whose side
    /// has none: every three, or all but the one kept as the final discard
    /// (threes left after the meld can only be that discard). The meld binds
    /// the player to go out, so each needs the rest of the hand to fit. Out
    /// of line: a rare case, kept out of the generator's hot path.
    #[cold]
    #[inline(never)]
    fn gen_black_threes_melds(
        &self,
        out: &mut ActionList,
        shared: Option<&RefCell<SharedOutcomes>>,
    ) {
        let (seat, side) = self.seat_side();
        let rules = self.rules();
        let hand = self.hand(seat);
        let b = hand.black_threes();
        // The quick refusal settles most of the time whether the rest can
        // fit (it reads the meld ranks and wild cards, never the threes);
        // where naturals may also join sequences or further melds of a
        // rank, it does not apply, and Samba's own bounds do.
        let simple = rules.melds.rank_names_the_meld();
        let may = if simple {
            !crate::search::goout::hopeless(rules, hand, GoingOut::of(self).meld_rank_mask(side))
        } else {
            tests_without_quick() || GoingOut::of(self).rest_may_go_out_after_threes(seat)
        };
        if !may {
            return;
        }
        let meld_of = |k: u8| {
            let mut g = Group::of_rank(Rank::Three);
            g.naturals = pick_black_threes(hand, k);
            Action::Meld(Groups::from_iter([g]))
        };
        // Keeping one three back leaves the rest of the hand to be melded
        // in full, the three the final discard; where melding out counts (no
        // discard needed, no canasta closed by choice), melding every three
        // leaves that way out open too. So when melding every three fails,
        // so does keeping one back, and its exact test is spared.
        let every_ok = self.ok_after_in(meld_of(b), shared);
        for k in rules.melds.smallest_meld().max(b - 1)..=b {
            let a = meld_of(k);
            let ok = if k == b {
                every_ok
            } else if !every_ok && rules.melding_out_counts() {
                debug_assert!(!GoingOut::of(self).ok_after(a), "{a}");
                false
            } else {
                self.ok_after_in(a, shared)
            };
            if ok {
                out.push(a);
            }
        }
    }

    /// Whether the turn can still end legally after `action`, which leaves the
    /// hand with at most one card or is made by a player bound to go out:
    /// first by the shared quick test where it applies (`quick`, built on
    /// first use), else by the full one.
    #[cold]
    #[inline(never)]
    fn finishable_after<'s>(
        &'s self,
        action: Action,
        quick: Option<&RefCell<Option<Option<QuickOut<'s>>>>>,
        shared: Option<&RefCell<SharedOutcomes>>,
    ) -> bool {
        if let Some(quick) = quick {
            let (seat, side) = self.seat_side();
            let rules = self.rules();
            let mut q = quick.borrow_mut();
            let q = q.get_or_insert_with(|| {
                QuickOut::new(
                    rules,
                    self.hand(seat),
                    self.melds(side),
                    GoingOut::of(self).canastas_needed(),
                    rules.going_out.may_meld_out(),
                    |c| self.final_discard_ok(c),
                )
            });
            if q.as_mut().is_some_and(|q| q.after(&action)) {
                return true;
            }
        }
        self.ok_after_in(action, shared)
    }

    /// `GoingOut::ok_after_sharing` with the list's shared tables, if any.
    fn ok_after_in(&self, action: Action, shared: Option<&RefCell<SharedOutcomes>>) -> bool {
        let mut tables = shared.map(RefCell::borrow_mut);
        GoingOut::of(self).ok_after_sharing(action, tables.as_deref_mut())
    }

    /// New sequences of three (Samba): every suit and lowest rank the hand
    /// holds three consecutive naturals of; longer ones grow by extensions.
    fn gen_sequences(&self, out: &mut ActionList, push: &impl Fn(Action, usize, &mut ActionList)) {
        let hand = self.hand(self.to_act());
        let size = self.rules().melds.smallest_meld() as usize;
        let masks = hand.run_masks();
        for suit in Suit::ALL {
            let have = masks[suit as usize];
            for low in Rank::Four.index()..=Rank::Ace.index() + 1 - size {
                let want = ((1u16 << size) - 1) << low;
                if have & want == want {
                    let g = Group::sequence(suit, want);
                    push(Action::Meld(Groups::from_iter([g])), size, out);
                }
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Tests turn the quick going-out answers off to compare lists.
    pub(crate) static WITHOUT_QUICK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn tests_without_quick() -> bool {
    #[cfg(test)]
    {
        WITHOUT_QUICK.with(|w| w.get())
    }
    #[cfg(not(test))]
    {
        false
    }
}

/// The cards of `hand` that extend sequence `run` by one, below and above,
/// while it is short of a samba.
fn sequence_extensions(
    run: &Group,
    hand: &CardCounts,
    rules: &crate::rules::Rules,
) -> ArrayVec<Card, 2> {
    let mut out = ArrayVec::new();
    let Some(suit) = run.run_suit() else {
        return out;
    };
    if rules.melds.is_samba(run.len()) {
        return out;
    }
    let low = run.sequence_ranks().trailing_zeros() as usize;
    let high = 15 - run.sequence_ranks().leading_zeros() as usize;
    if low > Rank::Four.index() {
        let c = Card::new(Rank::from_index(low - 1), suit);
        if hand.count(c) > 0 {
            out.push(c);
        }
    }
    if high < Rank::Ace.index() {
        let c = Card::new(Rank::from_index(high + 1), suit);
        if hand.count(c) > 0 {
            out.push(c);
        }
    }
    out
}

/// Where wild cards may not go on a canasta, the adds of two or more wild
/// cards that carry meld `i` (short of a canasta) past one: one card at a
/// time it stops at the canasta, but the record spec lets "a wild card go
/// into a meld that this same action makes a canasta" (P-CNE: a wild
/// canasta "of (at least) seven"). Every count from one past the
/// canasta's size to what the meld may hold, and every mix of jokers and
/// twos; the one-card adds reach the rest, so the going-out counting
/// (`meld::wild_room`) and the generator see the same moves.
fn adds_past_canasta(
    rules: &Rules,
    hand: &CardCounts,
    i: usize,
    m: &Meld,
    reserved: WildMeldReserve,
    mut push: impl FnMut(Action, usize),
) {
    let len = m.cards.len();
    // Where canastas are closed by choice a meld of seven or more that is
    // not closed takes wild cards one at a time.
    if rules.melds.has_canasta_length(len) {
        return;
    }
    let rank = m.cards.rank();
    let fits = match rank {
        None => u8::MAX,
        Some(_) => rules
            .melds
            .wild_capacity_of(rank, m.cards.natural_count())
            .saturating_sub(m.cards.wild_count()),
    };
    let most = fits
        .min(hand.wilds())
        .min(rules.melds.cap().saturating_sub(len));
    for w in rules.melds.canasta_length() + 1 - len..=most {
        for g in wild_combos(hand, w) {
            if rank.is_some() && g.holds_reserved(reserved) {
                continue;
            }
            push(
                Action::Add {
                    meld: MeldId::new(i),
                    cards: g,
                },
                w as usize,
            );
        }
    }
}

/// Every way to pick `w` wild cards by class (jokers, twos), canonical suits.
fn wild_combos(hand: &CardCounts, w: u8) -> impl Iterator<Item = Group> + '_ {
    let (jokers, twos) = (hand.jokers(), hand.twos());
    (0..=w.min(jokers)).rev().filter_map(move |j| {
        let t = w - j;
        (t <= twos).then(|| Group::wild_cards(pick_naturals(hand, Rank::Two, t), j))
    })
}
