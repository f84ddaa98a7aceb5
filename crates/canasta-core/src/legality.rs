//! Checked application of actions. The generated list is the one truth:
//! an action is legal when it is in the generated set (by class key), or
//! when it is the same as a sequence of generated actions (a record may write
//! a meld of five kings, several groups after the opening, an add of several
//! cards, an opening larger than needed); such an action is applied as that
//! sequence, all or nothing. `apply` leaves the state unchanged and gives a
//! typed reason when an action is refused.

use crate::action::{Action, Groups};
use crate::card::Rank;
use crate::error::{IllegalAction, IllegalReason};
use crate::meld::{Group, Meld};
use crate::plan::{Plan, PlanMeld, take_naturals, take_wilds};
use crate::state::{GameState, Phase};

impl GameState {
    /// True if `action` is in the generated set (cards the rules cannot tell
    /// apart are interchangeable) and its cards are in the actor's hand.
    pub fn is_generated(&self, action: &Action) -> bool {
        if !matches!(self.phase, Phase::Draw | Phase::Play | Phase::Answer) {
            return false;
        }
        if !self.hands[self.to_act as usize].contains_all(&action.cards_from_hand()) {
            return false;
        }
        // An add to a sequence is exact: its suit and rank are what it is.
        if let Action::Add { meld, .. } = action {
            let side = self.side_of[self.to_act as usize] as usize;
            if self.melds[side]
                .get(*meld as usize)
                .is_some_and(|m| m.cards.is_sequence())
            {
                return self.legal_actions().iter().any(|a| a == action);
            }
        }
        let key = action.class_key();
        self.legal_actions().iter().any(|a| a.class_key() == key)
    }

    /// True if [`GameState::apply`] would accept `action`: it is generated,
    /// or it stands for a sequence of generated actions.
    pub fn is_legal(&self, action: &Action) -> bool {
        self.is_generated(action) || self.applied_as_steps(action).is_ok_and(|s| s.is_some())
    }

    /// Applies `action` for the seat to act.
    ///
    /// # Errors
    /// An illegal action is refused with its reason; the state is unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        if self.is_generated(&action) {
            self.apply_raw(action);
            return Ok(());
        }
        let reason = match self.applied_as_steps(&action) {
            Ok(Some(s)) => {
                *self = s;
                return Ok(());
            }
            // The whole action's reason first: a step's reason can mislead
            // (a meld that goes out without the canastas is refused for the
            // canastas, not for the step that would strand a card).
            Err(step_reason) => match self.explain(&action) {
                IllegalReason::NotAvailable => step_reason,
                r => r,
            },
            Ok(None) => self.explain(&action),
        };
        Err(IllegalAction { action, reason })
    }

    /// The state after `action` applied as its generated steps; `Ok(None)`
    /// if it stands for no steps, `Err` with the first failing step's reason.
    fn applied_as_steps(&self, action: &Action) -> Result<Option<GameState>, IllegalReason> {
        let Some(steps) = self.expand(action) else {
            return Ok(None);
        };
        let seat = self.to_act as usize;
        let side = self.side_of[seat] as usize;
        let before = self.melds[side].len();
        let mut s = self.clone();
        for step in steps {
            if !s.is_generated(&step) {
                return Err(s.explain(&step));
            }
            s.apply_raw(step);
        }
        s.number_new_melds_as_written(side, before, action);
        s.state_id = self.state_id + 1;
        Ok(Some(s))
    }

    /// [`GameState::apply`] for a named seat, refusing out-of-turn actions.
    ///
    /// # Errors
    /// As `apply`, plus `NotYourTurn`.
    pub fn apply_for(&mut self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        if matches!(self.phase, Phase::Draw | Phase::Play | Phase::Answer)
            && seat != self.to_act as usize
        {
            return Err(IllegalAction {
                action,
                reason: IllegalReason::NotYourTurn {
                    seat,
                    to_act: self.to_act as usize,
                },
            });
        }
        self.apply(action)
    }

    /// P-CNE: the side opened this turn before drawing and may lay more.
    fn laying_before_draw(&self) -> bool {
        self.phase == Phase::Draw && self.turn.opened_before_draw
    }

    /// Melds begun by one action are numbered in the order its groups are
    /// written (record spec), whatever order its steps laid them in.
    fn number_new_melds_as_written(&mut self, side: usize, before: usize, action: &Action) {
        let mut order: Vec<Option<Rank>> = Vec::new();
        match action {
            Action::Pickup { also, .. } => {
                order.push(self.last_pickup_rank);
                order.extend(also.iter().map(|g| g.rank));
            }
            Action::Meld(groups) => order.extend(groups.iter().map(|g| g.rank)),
            _ => return,
        }
        let Some(new) = self.melds[side].get_mut(before..) else {
            return;
        };
        new.sort_by_key(|m| {
            order
                .iter()
                .position(|r| *r == m.cards.rank)
                .unwrap_or(usize::MAX)
        });
    }

    /// The generated steps a larger action stands for, if it is one.
    fn expand(&self, action: &Action) -> Option<Vec<Action>> {
        let seat = self.to_act as usize;
        let side = self.side_of[seat] as usize;
        if !self.hands[seat].contains_all(&action.cards_from_hand()) {
            return None;
        }
        if !self.side_has_melded(side) {
            return self.expand_opening(action);
        }
        let mut plan = Plan::of_melds(&self.rs.rules, &self.melds[side]);
        match *action {
            Action::Meld(groups) if self.phase == Phase::Play || self.laying_before_draw() => {
                plan.groups(&groups);
            }
            Action::Add { meld, cards }
                if (self.phase == Phase::Play || self.laying_before_draw()) && cards.len() > 1 =>
            {
                plan.adds(meld, &cards);
            }
            Action::Pickup { with, also } if self.phase == Phase::Draw => {
                let top = self.pile_top().filter(|t| t.is_plain_natural())?;
                if with.rank != top.rank() {
                    return None;
                }
                let mut core = Group::of_rank(top.rank()?);
                let mut rest = with;
                let wanted = if with.natural_count() >= 2 { 2 } else { 1 };
                take_naturals(&mut rest, &mut core, wanted);
                if wanted == 1 {
                    take_wilds(&mut rest, &mut core, 1);
                }
                if core.is_empty() {
                    return None;
                }
                plan.steps.push(Action::Pickup {
                    with: core,
                    also: Groups::new(),
                });
                let idx = plan.lay(top.rank(), core.len() + 1);
                if !rest.is_empty() {
                    plan.adds(idx as u8, &rest);
                }
                plan.groups(&also);
            }
            _ => return None,
        }
        (plan.steps.len() > 1 || plan.steps.first() != Some(action)).then_some(plan.steps)
    }

    /// A larger opening: its irreducible core (which the generator lists),
    /// then the rest as adds and melds.
    fn expand_opening(&self, action: &Action) -> Option<Vec<Action>> {
        let rules = &self.rs.rules;
        let need = self.opening_minimum(self.to_act as usize);
        let (all, top) = match *action {
            Action::Meld(groups)
                if self.phase == Phase::Play
                    || (self.phase == Phase::Draw && rules.open_before_draw) =>
            {
                (groups, None)
            }
            Action::Pickup { with, also } if self.phase == Phase::Draw => {
                let mut all = Groups::new();
                all.push(with);
                for g in also.iter() {
                    if !all.push(*g) {
                        return None;
                    }
                }
                let top = self.pile_top().filter(|t| t.is_plain_natural())?;
                if with.rank != top.rank() {
                    return None;
                }
                (all, Some(top))
            }
            _ => return None,
        };
        for (i, g) in all.iter().enumerate() {
            let mut judged = *g;
            if i == 0
                && let Some(t) = top
            {
                judged.push(t).ok()?;
            }
            if !crate::opening::valid_group(rules, &judged) {
                return None;
            }
        }
        let points: i32 = all
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let mut g = *g;
                if i == 0
                    && let Some(t) = top
                {
                    g.push(t).expect("checked above");
                }
                g.opening_points(rules)
            })
            .sum();
        if points < need {
            return None;
        }
        let core = crate::opening::reduce(rules, &all, top, need);
        let mut steps = Vec::new();
        match top {
            Some(_) => {
                let mut also = Groups::new();
                for g in &core.as_slice()[1..] {
                    also.push(*g);
                }
                steps.push(Action::Pickup {
                    with: core.as_slice()[0],
                    also,
                });
            }
            None => steps.push(Action::Meld(core)),
        }
        let mut melds: Vec<PlanMeld> = core
            .iter()
            .map(|g| PlanMeld {
                rank: g.rank,
                len: g.len(),
                run: g.run,
            })
            .collect();
        if let Some(t) = top {
            melds[0].rank = t.rank();
            melds[0].len += 1;
        }
        let mut plan = Plan::new(rules, melds, steps);
        // Each written group's core became meld `j` (cores keep the order
        // of their groups); the rest of the group is added to that meld.
        let mut rest = Groups::new();
        let mut j = 0;
        for g in all.iter() {
            match core.as_slice().get(j) {
                Some(c) if c.is_part_of(g) => {
                    let left = g.minus(c);
                    if !left.is_empty() {
                        plan.adds(j as u8, &left);
                    }
                    j += 1;
                }
                _ => {
                    rest.push(*g);
                }
            }
        }
        plan.groups(&rest);
        Some(plan.steps)
    }

    /// Why `action` is refused here, in plain words.
    pub fn explain(&self, action: &Action) -> IllegalReason {
        use IllegalReason as R;
        let phase = self.phase;
        let wrong = R::WrongPhase(phase);
        match (phase, action) {
            (Phase::Deal | Phase::HandOver | Phase::GameOver, _) => return wrong,
            (Phase::Answer, Action::Answer(_)) => {}
            (Phase::Answer, _) | (_, Action::Answer(_)) => return wrong,
            (Phase::Draw, Action::Draw | Action::PickupOnto | Action::Pickup { .. }) => {}
            (Phase::Draw, Action::Meld(_)) if self.rs.rules.open_before_draw => {}
            (Phase::Draw, Action::Add { .. }) if self.laying_before_draw() => {}
            (Phase::Draw, _) => return wrong,
            (Phase::Play, Action::Draw | Action::PickupOnto | Action::Pickup { .. }) => {
                return wrong;
            }
            _ => {}
        }
        let seat = self.to_act as usize;
        let side = self.side_of[seat] as usize;
        let hand = &self.hands[seat];
        let needed = action.cards_from_hand();
        if let Some(c) = needed
            .faces()
            .find(|&(c, n)| hand.count(c) < n)
            .map(|(c, _)| c)
        {
            return R::CardNotInHand(c);
        }
        let rules = &self.rs.rules;
        let opened = self.side_has_melded(side);
        match *action {
            Action::Draw => return R::MustTakePile,
            Action::PickupOnto | Action::Pickup { .. } => {
                let Some(top) = self.pile_top() else {
                    return R::PileEmpty;
                };
                if !top.is_plain_natural() {
                    return R::PileBlocked(top);
                }
                if hand.total() == 1
                    && self.pile.len() == 1
                    && !rules.one_card_may_take_one_card_pile
                {
                    return R::OneCardPile;
                }
                if !opened && rules.pile_needs_opened_side {
                    return R::PileNeedsMeld;
                }
                let frozen = self.frozen_for(side);
                if let Action::Pickup { with, also } = *action {
                    if with.rank != top.rank() {
                        return R::PickupWrongRank;
                    }
                    let naturals = with.natural_count();
                    if frozen && naturals < rules.pile_take_naturals_frozen {
                        return R::PileFrozen(top);
                    }
                    let with_wild =
                        rules.take_with_natural_and_wild && naturals >= 1 && with.wild_count() >= 1;
                    if !frozen && naturals < rules.pile_take_naturals && !with_wild {
                        return R::PileNeedsNaturals {
                            need: rules.pile_take_naturals,
                        };
                    }
                    let mut g = with;
                    g.push(top).ok();
                    let existing = self
                        .meld_index_of_rank(side, top.rank())
                        .map(|i| self.melds[side][i]);
                    if let Some(r) = group_problem(self, &g, existing.as_ref()) {
                        return r;
                    }
                    if !opened {
                        let top_group = if rules.pile_opening_from_hand {
                            0
                        } else {
                            g.opening_points(rules)
                        };
                        let have =
                            top_group + also.iter().map(|g| g.opening_points(rules)).sum::<i32>();
                        let need = self.opening_minimum(seat);
                        if have < need {
                            return R::OpeningTooLow { need, have };
                        }
                    }
                } else {
                    let Some(i) = self.pickup_onto_target(side, top) else {
                        return R::NoMeldForTopCard;
                    };
                    if rules.top_card_to_sequence {
                        return self.explain_ending(action).unwrap_or(R::NotAvailable);
                    }
                    if !rules.take_onto_meld {
                        return R::NotInVariant;
                    }
                    if frozen {
                        return R::PileFrozen(top);
                    }
                    if self.melds[side][i].is_canasta(rules) && !rules.take_onto_canasta {
                        return R::TopCardOntoCanasta;
                    }
                }
            }
            Action::Meld(groups) => {
                if self.melds[side].len() + groups.len() > crate::state::MAX_MELDS {
                    return R::TooManyMelds(crate::state::MAX_MELDS);
                }
                if !opened && rules.open_before_draw && self.phase == Phase::Play {
                    return R::OpenBeforeDrawing;
                }
                if opened && self.phase == Phase::Draw && !self.laying_before_draw() {
                    return R::WrongPhase(Phase::Draw);
                }
                let reserved = self.wilds_reserved(side)
                    || (rules.wild_meld_reserves_wilds
                        && groups
                            .iter()
                            .any(|g| g.is_wild_only() && g.len() < rules.canasta_size));
                if reserved
                    && groups
                        .iter()
                        .any(|g| g.rank.is_some() && g.wild_count() > 0)
                {
                    return R::WildsReserved;
                }
                if !opened
                    && self.opening_minimum(seat) <= rules.clean_opening_up_to
                    && groups.iter().any(|g| {
                        if g.rank.is_some() {
                            g.wild_count() > 0
                        } else {
                            !(g.jokers == 0 || g.two_count() <= 1)
                        }
                    })
                {
                    return R::OpeningMustBeClean;
                }
                let mut points = 0;
                for g in groups.iter() {
                    let existing = self
                        .meld_index_of_rank(side, g.rank)
                        .filter(|_| !rules.several_melds_per_rank)
                        .map(|i| self.melds[side][i]);
                    if let Some(r) = group_problem(self, g, existing.as_ref()) {
                        return r;
                    }
                    points += g.opening_points(rules);
                }
                let need = self.opening_minimum(seat);
                if !opened && points < need {
                    let all_out = hand.total() - groups.card_count() <= 1;
                    if !(all_out && self.turn.drew_from_stock && rules.concealed_without_minimum) {
                        return R::OpeningTooLow { need, have: points };
                    }
                }
                if groups.iter().any(|g| g.is_special_threes(rules)) && !self.ok_after(*action) {
                    return R::BlackThreesOnlyGoingOut;
                }
            }
            Action::Add { meld, cards } => {
                if !opened || meld as usize >= self.melds[side].len() {
                    return R::NoSuchMeld(meld);
                }
                let m = self.melds[side][meld as usize];
                if m.closed {
                    return R::CanastaClosed(meld);
                }
                if m.cards.is_sequence() {
                    if m.cards.len() >= rules.canasta_size {
                        return R::SambaClosed(meld);
                    }
                    return group_problem(self, &cards, Some(&m)).unwrap_or(R::NotAvailable);
                }
                if m.cards.is_special_threes(rules)
                    || (cards.rank.is_some() && cards.rank != m.cards.rank)
                {
                    return R::WrongRank {
                        meld,
                        rank: m.cards.rank,
                    };
                }
                if cards.wild_count() > 0 && m.cards.rank.is_some() {
                    if self.wilds_reserved(side) {
                        return R::WildsReserved;
                    }
                    if !rules.wilds_on_canasta && m.is_canasta(rules) {
                        return R::NoWildOnCanasta;
                    }
                }
                if let Some(r) = group_problem(self, &cards, Some(&m)) {
                    return r;
                }
            }
            Action::Discard(c) => {
                if self.turn.must_go_out && hand.total() > 1 {
                    return R::MustGoOut;
                }
                if c.rank().is_some()
                    && c.rank() == rules.special_canasta_rank
                    && (self.special_discard_blocked(seat)
                        || (hand.total() == 1 && !self.final_discard_ok(c)))
                {
                    return R::RestrictedDiscard(c);
                }
                if c.is_wild() && self.wilds_reserved(side) && hand.wilds() < hand.total() as u8 {
                    return R::WildsReserved;
                }
                if hand.total() == 1 && !self.final_discard_ok(c) {
                    return R::FinalDiscardNotNatural(c);
                }
                if hand.total() == 1 && self.turn.answer != Some(false) && !self.may_finish_now() {
                    return missing_canastas(rules);
                }
            }
            Action::Ask => return R::CannotAsk,
            Action::CloseCanasta(m) => {
                if !rules.canasta_by_choice {
                    return R::NotInVariant;
                }
                let Some(meld) = self.melds[side].get(m as usize) else {
                    return R::NoSuchMeld(m);
                };
                if meld.closed {
                    return R::CanastaClosed(m);
                }
                if meld.cards.len() < rules.canasta_size {
                    return R::TooShortToClose(m, rules.canasta_size);
                }
            }
            Action::Answer(true) => return R::AskerCannotGoOut,
            Action::Answer(false) => return R::NotAvailable,
        }
        self.explain_ending(action).unwrap_or(R::NotAvailable)
    }

    /// Reasons that come from how many cards the action leaves in hand.
    fn explain_ending(&self, action: &Action) -> Option<IllegalReason> {
        let seat = self.to_act as usize;
        let mut s = self.clone();
        s.apply_raw(*action);
        let left = s.hands[seat].total();
        let need = self.canastas_needed();
        if left == 0 {
            let rules = &self.rs.rules;
            if self.turn.answer == Some(false) {
                return Some(IllegalReason::PartnerSaidNo);
            }
            if rules.go_out_needs_discard {
                return Some(IllegalReason::MustDiscardToGoOut);
            }
            let have = s.canastas(s.side_of[seat] as usize);
            if have < need {
                return Some(IllegalReason::NotEnoughCanastas { need, have });
            }
            if !self.may_finish_with(&s, seat, false) {
                return Some(missing_canastas(rules));
            }
        }
        if s.phase == Phase::Play && (left == 1 || s.turn.must_go_out) && !s.can_go_out(seat) {
            return Some(if self.turn.must_go_out {
                IllegalReason::MustGoOut
            } else {
                IllegalReason::StrandsLastCard
            });
        }
        None
    }
}

/// The going-out requirement that is not met, in the words that fit the rules.
fn missing_canastas(rules: &crate::rules::Rules) -> IllegalReason {
    if rules.go_out_wild_canastas > 0 || rules.go_out_special_canastas > 0 {
        IllegalReason::MissingCanastaKinds {
            clean: rules.go_out_natural_canastas,
            dirty: rules.go_out_mixed_canastas,
            wild: rules.go_out_wild_canastas,
            special: rules.go_out_special_canastas,
        }
    } else {
        IllegalReason::MissingCanastas {
            natural: rules.go_out_natural_canastas,
            mixed: rules.go_out_mixed_canastas,
        }
    }
}

/// Why a group (alone, or merged into `existing`) is not a valid meld.
fn group_problem(state: &GameState, g: &Group, existing: Option<&Meld>) -> Option<IllegalReason> {
    use IllegalReason as R;
    let rules = &state.rs.rules;
    let mut all = *g;
    if let Some(m) = existing {
        all.merge(&m.cards);
    }
    if all.is_sequence() {
        if !rules.sequences {
            return Some(R::NoSequences);
        }
        let naturals_of_its_suit = g.wild_count() == 0
            && g.cards()
                .all(|c| c.suit() == all.run_suit() && c.rank() >= Some(Rank::Four));
        let overlap = existing.is_some_and(|m| {
            let mut mine = Group::default();
            for c in g.cards() {
                mine.push_to_run(c);
            }
            m.cards.run & mine.run != 0
        });
        if !naturals_of_its_suit || overlap || !crate::opening::valid_sequence(rules, &all) {
            return Some(R::BadSequence);
        }
        return None;
    }
    if all.len() > rules.meld_cap() {
        return Some(R::MeldFull {
            cap: rules.max_meld_size,
        });
    }
    if let Some(r) = all.rank
        && Some(r) == rules.pure_rank
        && all.wild_count() > 0
    {
        return Some(R::PureRank(r));
    }
    match all.rank {
        None if !rules.wild_melds => return Some(R::WildMeld),
        None => {
            if existing.is_none()
                && state.melds_of(state.to_act()).iter().any(|m| {
                    m.cards.rank.is_none()
                        && (rules.wild_meld_reserves_wilds || m.cards.len() < rules.canasta_size)
                })
            {
                return Some(R::WildMeldExists);
            }
            if all.len() > rules.canasta_size {
                return Some(R::WildMeldFull(rules.canasta_size));
            }
            if all.len() < rules.min_meld {
                return Some(R::MeldTooSmall {
                    need: rules.min_meld,
                    have: all.len(),
                });
            }
            return None;
        }
        Some(Rank::Three) if rules.threes_natural => {}
        Some(Rank::Three) if !rules.black_threes_meldable => return Some(R::ThreesNotMeldable),
        Some(Rank::Three) => {
            let black = all.naturals[crate::card::Suit::Hearts as usize] == 0
                && all.naturals[crate::card::Suit::Diamonds as usize] == 0;
            if !black || all.wild_count() > 0 || existing.is_some() {
                return Some(R::ThreesNotMeldable);
            }
            if all.len() < rules.min_meld {
                return Some(R::MeldTooSmall {
                    need: rules.min_meld,
                    have: all.len(),
                });
            }
            return None;
        }
        Some(_) => {}
    }
    let (n, w) = (all.natural_count(), all.wild_count());
    if all.len() < rules.min_meld {
        return Some(R::MeldTooSmall {
            need: rules.min_meld,
            have: all.len(),
        });
    }
    if n < rules.min_naturals {
        return Some(R::TooFewNaturals {
            need: rules.min_naturals,
            have: n,
        });
    }
    if w > rules.wild_capacity(n) {
        return Some(R::TooManyWilds {
            max: rules.wild_capacity(n),
            naturals: n,
            have: w,
        });
    }
    None
}
