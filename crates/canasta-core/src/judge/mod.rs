//! The judge: decides whether an action is legal by asking the rule
//! areas' predicates (`rules/`) in a fixed order.
//!
//! Every action, whatever its size (a generated minimal step, or a record's
//! meld of nine kings, an opening of five groups, a pickup that opens with
//! three more melds), is judged here by the same checks, in a fixed order;
//! the first that fails is the refusal's reason, so a reason can never
//! contradict legality. [`GameState::apply`](crate::state::GameState::apply) applies what the judge accepts
//! in one piece; the generator (`movegen`, `search::opening`) enumerates
//! candidates and keeps those these predicates accept.
//!
//! How a lay is judged (record spec, `meld`): the groups go to their melds
//! ([`lay_target`](crate::meld::lay_target)), and each new or extended
//! meld is judged by its contents after the action against the melds as
//! they stood before it ([`meld_problem`]); rules about the action as a
//! whole (the opening's minimum and composition, wild cards kept for an
//! unfinished wild meld) are judged over all its groups; and rules about
//! how the turn can end (going out, a card left that cannot be discarded)
//! are judged on the position the action leaves.

use crate::action::{Action, ActionList, Groups};
use crate::error::{IllegalReason, MeldRef};
use crate::lay::Lay;
use crate::meld::Group;
use crate::meld::MeldId;
use crate::movegen::Generator;
use crate::rules::{CleanOpening, Rules};
use crate::search::goout::GoingOut;
use crate::search::opening::clean_for_opening;
use crate::state::{MAX_MELDS, Phase};

crate::state::state_view!(
    /// A position as the judge reads it: the state through its read-only
    /// accessors. The judge changes nothing; [`GameState::apply`](crate::state::GameState::apply) applies
    /// what it accepts.
    Judge
);

impl Judge<'_> {
    /// The judge: `Ok` if the seat to act may take `action` now, else the
    /// first rule it breaks. Checks run in this order: the phase, the cards
    /// in hand, the action's own rules, then how the turn can end after it.
    pub(crate) fn judge(&self, action: &Action) -> Result<(), IllegalReason> {
        self.judge_timing(action)?;
        let seat = self.to_act();
        let hand = self.hand(seat);
        let needed = action.cards_from_hand();
        if let Some((c, _)) = needed.faces().find(|&(c, n)| hand.count(c) < n) {
            return Err(IllegalReason::CardNotInHand(c));
        }
        match *action {
            Action::Draw => self.judge_draw(),
            Action::PickupOnto => self.judge_pickup_onto(),
            Action::Pickup { with, also } => self.judge_pickup(with, &also),
            Action::Meld(groups) => self.judge_meld(&groups),
            Action::Add { meld, cards } => self.judge_add(meld, &cards),
            Action::Discard(c) => self.judge_discard(c),
            Action::Ask => {
                if let Some(refusal) = GoingOut::of(self).ask_moment_refusal() {
                    return Err(refusal);
                }
                if !GoingOut::of(self).can_go_out(seat) {
                    return Err(IllegalReason::AskOnlyIfAbleToGoOut);
                }
                Ok(())
            }
            // Both answers are always open to the partner (record spec): the
            // legal list must not tell the partner whether the asker can go
            // out, and only an asker who can may ask.
            Action::Answer(_) => Ok(()),
            Action::CloseCanasta(m) => self.judge_close(m),
        }
    }

    /// Is this kind of action taken at this point of the turn?
    fn judge_timing(&self, action: &Action) -> Result<(), IllegalReason> {
        let phase = self.phase();
        let wrong = Err(IllegalReason::WrongPhase(phase));
        match (phase, action) {
            (Phase::Deal | Phase::HandOver | Phase::GameOver, _) => wrong,
            (Phase::Answer, Action::Answer(_)) => Ok(()),
            (Phase::Answer, _) | (_, Action::Answer(_)) => wrong,
            (Phase::Draw, Action::Draw | Action::PickupOnto | Action::Pickup { .. }) => Ok(()),
            (Phase::Draw, Action::Meld(_)) if self.rules().opening.opens_now(true) => Ok(()),
            (Phase::Draw, Action::Add { .. }) if self.laying_before_draw() => Ok(()),
            (Phase::Draw, _) => wrong,
            (Phase::Play, Action::Draw | Action::PickupOnto | Action::Pickup { .. }) => wrong,
            _ => Ok(()),
        }
    }

    fn judge_draw(&self) -> Result<(), IllegalReason> {
        // P-CAN: with the stock empty, a pile that matches a meld must be taken.
        if (self.stock_len() == 0) && self.must_take_pile() {
            let mut pickups = ActionList::new();
            Generator::of(self).gen_pickups(&mut pickups);
            if !pickups.is_empty() {
                return Err(IllegalReason::MustTakePile);
            }
        }
        Ok(())
    }

    fn judge_pickup_onto(&self) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let top = self.pile_open()?;
        let rules = self.rules();
        let seat = self.to_act();
        let side = self.side_of(seat);
        if !rules.pile.top_card_goes_alone() {
            // The pile is taken only with naturals from the hand (P-CNE).
            let frozen = self.frozen_for(side);
            return Err(R::PileNeedsNaturals {
                need: rules.pile.naturals_to_take(frozen),
                or_wild: rules.pile.takes_with_natural_and_wild(frozen),
            });
        }
        let Some(i) = self.pickup_onto_target(side, top) else {
            // Where a rank has several melds, a canasta is passed over as
            // a target: say so rather than that there is no meld.
            let onto_canasta = !rules.pile.top_card_for_the_draw()
                && !rules.pile.take_onto_canasta
                && self
                    .melds(side)
                    .iter()
                    .any(|m| m.cards.rank() == top.rank() && m.is_canasta(rules));
            return Err(if rules.pile.top_card_for_the_draw() {
                R::NoSequenceForTopCard(top)
            } else if onto_canasta {
                R::TopCardOntoCanasta
            } else {
                R::NoMeldForTopCard
            });
        };
        if rules.pile.top_card_for_the_draw() {
            // P-SAM (Dutch): the top card alone onto a sequence, for the draw.
            return Ok(());
        }
        let frozen = self.frozen_for(side);
        if frozen {
            return Err(R::PileFrozen {
                top,
                need: rules.pile.naturals_to_take(true),
            });
        }
        let m = self.melds(side)[i];
        if m.closed {
            return Err(R::CanastaClosed(MeldRef::new(MeldId::new(i), &m.cards)));
        }
        if !rules.pile.takes_onto_meld(frozen, m.is_canasta(rules)) {
            // The way of taking and the freeze are refused above.
            return Err(R::TopCardOntoCanasta);
        }
        self.judge_pickup_ending(Action::PickupOnto, 0)
    }

    fn judge_pickup(&self, with: Group, also: &Groups) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let top = self.pile_open()?;
        let rules = self.rules();
        let seat = self.to_act();
        let side = self.side_of(seat);
        let opened = self.side_has_melded(side);
        if with.is_sequence() || with.rank() != top.rank() {
            return Err(R::PickupWrongRank);
        }
        let frozen = self.frozen_for(side);
        let naturals = with.natural_count();
        let need = rules.pile.naturals_to_take(frozen);
        if frozen && naturals < need {
            return Err(R::PileFrozen { top, need });
        }
        // An unfrozen pile: a natural pair, or (P-CAN) one natural and a
        // wild card where the rules allow it.
        let natural_and_wild = rules.pile.takes_with_natural_and_wild(frozen)
            && naturals >= 1
            && with.wild_count() >= 1;
        if !frozen && naturals < need && !natural_and_wild {
            return Err(R::PileNeedsNaturals {
                need,
                or_wild: rules.pile.takes_with_natural_and_wild(frozen),
            });
        }
        let mut taken = with;
        taken.push(top).expect("the top card's rank");
        let before = self.melds(side);
        let mut lay = Lay::new(before);
        // Canastia: a closed canasta of the rank takes nothing more.
        if rules.melds.one_meld_a_rank()
            && let Some(i) = before
                .iter()
                .position(|m| m.cards.rank() == top.rank() && m.closed)
        {
            return Err(R::CanastaClosed(MeldRef::new(
                MeldId::new(i),
                &before[i].cards,
            )));
        }
        for g in std::iter::once(&taken).chain(also.iter()) {
            if !lay.place(rules, g) {
                return Err(R::TooManyMelds(MAX_MELDS));
            }
        }
        if lay.wilds_reserved(rules, self.wilds_reserved(side)) {
            return Err(reserved_reason(rules));
        }
        if !opened {
            let need = self.opening_minimum(seat);
            if rules.opening.must_be_clean(need)
                && !std::iter::once(&taken)
                    .chain(also.iter())
                    .all(|g| clean_for_opening(rules, g))
            {
                return Err(unclean_opening(rules, need));
            }
        }
        if let Some(r) = lay.problem(rules, before) {
            return Err(r);
        }
        if !opened {
            // P-PEN: only the melds laid from hand count.
            let from_pile = if rules.opening.pile_opening_from_hand {
                0
            } else {
                taken.opening_points(rules)
            };
            let have = from_pile + also.iter().map(|g| g.opening_points(rules)).sum::<i32>();
            let need = self.opening_minimum(seat);
            if have < need {
                return Err(R::OpeningTooLow { need, have });
            }
        }
        if also.iter().any(|g| g.is_special_threes(rules))
            && !GoingOut::of(self).ok_after(Action::Pickup { with, also: *also })
        {
            return Err(R::BlackThreesOnlyGoingOut);
        }
        let used = with.len() as usize + also.card_count();
        self.judge_pickup_ending(Action::Pickup { with, also: *also }, used)
    }

    /// A pickup must leave a turn that can end legally. A take that would
    /// leave only the unseen extra stock card (P-CNE) is refused without
    /// looking at that card: legality must not depend on what nobody may see.
    fn judge_pickup_ending(&self, action: Action, used: usize) -> Result<(), IllegalReason> {
        let seat = self.to_act();
        let pile = &self.rules().pile;
        let remaining = self.hand(seat).total() - used
            + self.pile_rest_to_hand()
            + pile.stock_cards_with_pile();
        if remaining >= 2 && !self.turn().must_go_out && !self.binds_to_go_out(&action) {
            return Ok(());
        }
        if pile.leaves_only_unseen(remaining) {
            return Err(IllegalReason::OnlyUnseenCardLeft);
        }
        self.judge_ending(action)
    }

    /// Would the action bind the player to go out (an opening below the
    /// minimum, black threes melded)? Then the ending is always judged.
    fn binds_to_go_out(&self, action: &Action) -> bool {
        let rules = self.rules();
        let groups = match action {
            Action::Meld(g) => g.as_slice(),
            Action::Pickup { also, .. } => also.as_slice(),
            _ => return false,
        };
        if groups.iter().any(|g| g.is_special_threes(rules)) {
            return true;
        }
        let side = self.side_of(self.to_act());
        matches!(action, Action::Meld(_))
            && !self.side_has_melded(side)
            && groups.iter().map(|g| g.opening_points(rules)).sum::<i32>()
                < self.opening_minimum(self.to_act())
    }

    fn judge_meld(&self, groups: &Groups) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let rules = self.rules();
        let seat = self.to_act();
        let side = self.side_of(seat);
        let opened = self.side_has_melded(side);
        if groups.is_empty() {
            return Err(R::MeldTooSmall {
                need: rules.melds.smallest_meld(),
                have: 0,
            });
        }
        if !opened && self.phase() == Phase::Play && !rules.opening.opens_now(false) {
            return Err(R::OpenBeforeDrawing);
        }
        if opened && self.phase() == Phase::Draw && !self.laying_before_draw() {
            return Err(R::WrongPhase(Phase::Draw));
        }
        let before = self.melds(side);
        let mut lay = Lay::new(before);
        for g in groups.iter() {
            if !lay.place(rules, g) {
                return Err(R::TooManyMelds(MAX_MELDS));
            }
        }
        if lay.wilds_reserved(rules, self.wilds_reserved(side)) {
            return Err(reserved_reason(rules));
        }
        let need = self.opening_minimum(seat);
        if !opened
            && rules.opening.must_be_clean(need)
            && !groups.iter().all(|g| clean_for_opening(rules, g))
        {
            return Err(unclean_opening(rules, need));
        }
        if let Some(r) = lay.problem(rules, before) {
            return Err(r);
        }
        if !opened {
            let have: i32 = groups.iter().map(|g| g.opening_points(rules)).sum();
            if have < need {
                // P-CAN, S002: a concealed going out after a stock draw
                // needs no minimum; it must then take the whole hand.
                let left = self.hand(seat).total() - groups.card_count();
                let concealed = left <= 1
                    && rules
                        .opening
                        .concealed_waives_minimum(self.turn().drew_from_stock);
                if !concealed {
                    return Err(R::OpeningTooLow { need, have });
                }
                // The exception is for going out only: say why this is not.
                if let Err(because) =
                    self.judge_lay_ending(Action::Meld(*groups), groups.card_count())
                {
                    return Err(R::OpeningTooLowToGoOut {
                        need,
                        have,
                        because: Box::new(because),
                    });
                }
            }
        }
        let action = Action::Meld(*groups);
        if groups.iter().any(|g| g.is_special_threes(rules))
            && (self.phase() == Phase::Draw || !GoingOut::of(self).ok_after(action))
        {
            return Err(R::BlackThreesOnlyGoingOut);
        }
        if self.phase() == Phase::Draw && opened {
            // Laid before the draw (P-CNE): a draw follows, so the hand may
            // even be emptied.
            return Ok(());
        }
        self.judge_lay_ending(action, groups.card_count())
    }

    fn judge_add(&self, meld: MeldId, cards: &Group) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let rules = self.rules();
        let seat = self.to_act();
        let side = self.side_of(seat);
        let before = self.melds(side);
        let i = meld.index();
        if i >= before.len() {
            return Err(R::NoSuchMeld(meld));
        }
        if cards.is_empty() {
            return Err(R::NotAvailable);
        }
        let mut lay = Lay::new(before);
        lay.add_to(i, cards);
        if lay.wilds_reserved(rules, self.wilds_reserved(side)) {
            return Err(reserved_reason(rules));
        }
        if let Some(r) = lay.problem(rules, before) {
            return Err(r);
        }
        if self.phase() == Phase::Draw {
            return Ok(());
        }
        self.judge_lay_ending(
            Action::Add {
                meld,
                cards: *cards,
            },
            cards.len() as usize,
        )
    }

    /// A lay after the draw must leave a turn that can end legally: judged
    /// only where it could fail (a card or none left, or a player bound to
    /// go out), which is where the exact going-out test is needed.
    fn judge_lay_ending(&self, action: Action, used: usize) -> Result<(), IllegalReason> {
        let seat = self.to_act();
        let left = self.hand(seat).total() - used;
        if left >= 2 && !self.turn().must_go_out && !self.binds_to_go_out(&action) {
            return Ok(());
        }
        self.judge_ending(action)
    }

    /// After `action`, can the turn still end legally? The exact test
    /// (`GoingOut::ok_after`), with the reason it fails.
    pub(crate) fn judge_ending(&self, action: Action) -> Result<(), IllegalReason> {
        if GoingOut::of(self).ok_after(action) {
            return Ok(());
        }
        let seat = self.to_act();
        let mut s = self.state.clone();
        s.apply_raw(action);
        let left = s.hand(seat).total();
        if left == 0 {
            // Melds that lack what going out needs would lack it with a card
            // kept back too (fewer cards melded), so that comes before the
            // discard going out also needs.
            let why = Judge::of(&s).why_not_finish();
            if why == IllegalReason::StrandsLastCard && !self.rules().going_out.may_meld_out() {
                return Err(IllegalReason::MustDiscardToGoOut);
            }
            return Err(why);
        }
        // One card left that cannot end the hand: the judge of its discard
        // names why (partner's no, the canastas missing, a card that may not
        // be the last discard), so the refusal says what stands in the way.
        if left == 1
            && s.phase() == Phase::Play
            && let Some((card, _)) = s.hand(seat).faces().next()
            && let Err(because) = Judge::of(&s).judge(&Action::Discard(card))
        {
            return Err(IllegalReason::StrandedWith {
                card,
                because: Box::new(because),
            });
        }
        if self.turn().must_go_out || s.turn().must_go_out {
            return Err(IllegalReason::MustGoOut);
        }
        Err(IllegalReason::StrandsLastCard)
    }

    /// Why the seat to act may not go out now, where
    /// `GoingOut::may_finish_now` says it may not: partner's no, or the
    /// first going-out requirement the side misses (the going-out test's
    /// own statement of them).
    fn why_not_finish(&self) -> IllegalReason {
        if self.turn().answer == Some(false) {
            return IllegalReason::PartnerSaidNo;
        }
        let side = self.side_of(self.to_act());
        let shapes = crate::search::goout::side_shape(self, side);
        crate::search::goout::going_out_shortfall(
            self.rules(),
            &shapes,
            GoingOut::of(self).canastas_needed(),
        )
        .unwrap_or(IllegalReason::StrandsLastCard)
    }

    fn judge_discard(&self, c: crate::card::Card) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let rules = self.rules();
        let seat = self.to_act();
        let side = self.side_of(seat);
        let hand = self.hand(seat);
        let total = hand.total();
        // With the foot due, the last card's discard is not going out: the
        // foot follows it.
        let finishing = total == 1 && !self.foot_due(seat);
        if finishing && !GoingOut::of(self).may_finish_now() {
            return Err(self.why_not_finish());
        }
        if self.turn().must_go_out && !finishing {
            return Err(R::MustGoOut);
        }
        if rules.melds.is_special_rank(c.rank()) && self.special_discard_blocked(seat) {
            return Err(R::RestrictedDiscard {
                card: c,
                every_side: rules.pile.special_discard
                    == crate::rules::SpecialDiscard::UntilEverySide,
            });
        }
        if finishing && !self.final_discard_ok(c) {
            return Err(if c.is_plain_natural() {
                R::RestrictedLastDiscard(c)
            } else {
                R::FinalDiscardNotNatural(c)
            });
        }
        // P-CNE: wild cards kept for the wild meld stay off the pile, unless
        // the hand holds nothing else.
        if c.is_wild() && self.wilds_reserved(side).holds_discards() && hand.wilds() < total as u8 {
            return Err(R::WildsReserved);
        }
        Ok(())
    }

    fn judge_close(&self, m: MeldId) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let rules = self.rules();
        if !rules.melds.closes_by_choice() {
            return Err(R::ClosingNotInRules);
        }
        let side = self.side_of(self.to_act());
        let Some(meld) = self.melds(side).get(m.index()) else {
            return Err(R::NoSuchMeld(m));
        };
        if meld.closed {
            return Err(R::CanastaClosed(MeldRef::new(m, &meld.cards)));
        }
        if meld.cards.is_sequence() || meld.cards.is_special_threes(rules) {
            return Err(R::NotAvailable);
        }
        if !rules.melds.has_canasta_length(meld.cards.len()) {
            return Err(R::TooShortToClose(
                MeldRef::new(m, &meld.cards),
                rules.melds.canasta_length(),
            ));
        }
        Ok(())
    }
}

/// The refusal for a lay that puts held-back wild cards elsewhere: every
/// wild card (P-CNE) or the twos (RG-ITA).
fn reserved_reason(rules: &Rules) -> IllegalReason {
    if rules.melds.twos_are_a_rank() {
        IllegalReason::TwosReserved
    } else {
        IllegalReason::WildsReserved
    }
}

/// The refusal of an opening with a wild card where it must be clean: it
/// names the rule's bound where there is one (P-CNE: 50), and no minimum
/// where every opening must be clean (US Italian).
fn unclean_opening(rules: &Rules, need: i32) -> IllegalReason {
    let up_to = match rules.opening.clean_opening {
        CleanOpening::UpTo(up_to) => Some(up_to),
        CleanOpening::Never | CleanOpening::Always => None,
    };
    IllegalReason::OpeningMustBeClean { need, up_to }
}

#[cfg(test)]
mod oracle_tests;
