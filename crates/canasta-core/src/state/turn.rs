//! The facts of the turn that the judge, the generator and the going-out
//! search all read from the state: whether the pile is frozen or must be
//! taken, where its top card goes, whether a card of a restricted kind may
//! be discarded, when the foot is due. Whether a player may ask or finish
//! now is the going-out search's to say (`search::goout`).

use crate::card::Card;
use crate::error::IllegalReason;
use crate::meld::extends_run;
use crate::rules::WildMeldReserve;
use crate::seat::{Seat, Side};
use crate::state::{GameState, Phase};

impl GameState {
    /// P-CNE: the side opened this turn before drawing and may lay more.
    pub(crate) fn laying_before_draw(&self) -> bool {
        self.phase() == Phase::Draw && self.turn().opened_before_draw
    }
    /// With the stock empty, a player must take a pile that is not frozen
    /// against them and whose top card matches one of their side's melds
    /// (P-CAN; not where the rules leave it to the player).
    pub(crate) fn must_take_pile(&self) -> bool {
        if !self.rules().going_out.empty_stock_forces_pile {
            return false;
        }
        let (_, side) = (self.to_act(), self.side_of(self.to_act()));
        let Some(top) = self.pile_top() else {
            return false;
        };
        !self.frozen_for(side)
            && top.is_plain_natural()
            && self.pickup_onto_target(side, top).is_some()
    }

    /// The pile's top card if the seat to act may take the pile at all,
    /// else why not: every way of taking it shares these checks (a top
    /// card that can be taken, the one-card rule, a side allowed to take
    /// it), and the judge and the generator both ask them here.
    pub(crate) fn pile_open(&self) -> Result<Card, IllegalReason> {
        let rules = self.rules();
        let seat = self.to_act();
        let Some(top) = self.pile_top() else {
            return Err(IllegalReason::PileEmpty);
        };
        if !top.is_plain_natural() {
            return Err(IllegalReason::PileBlocked(top));
        }
        if rules
            .pile
            .one_card_pile_refused(self.hand(seat).total(), self.pile().len())
        {
            return Err(IllegalReason::OneCardPile);
        }
        if rules
            .pile
            .closed_to(self.side_has_melded(self.side_of(seat)))
        {
            return Err(IllegalReason::PileNeedsMeld);
        }
        Ok(top)
    }

    pub(crate) fn frozen_for(&self, side: Side) -> bool {
        self.rules()
            .pile
            .freeze
            .against(self.pile_frozen(), self.side_has_melded(side))
            .is_some()
    }

    /// Cards that enter the hand with the pile, besides the top card (red
    /// threes in it are laid out instead).
    pub(crate) fn pile_rest_to_hand(&self) -> usize {
        self.pile()[..self.pile().len() - 1]
            .iter()
            .filter(|c| !c.is_red_three())
            .count()
    }

    /// The meld a lone top card of the pile goes on (`pickup`): the side's
    /// meld of its rank (the first one that can take it, where a rank may
    /// have several), or else the first sequence it extends (Samba).
    pub(crate) fn pickup_onto_target(&self, side: Side, top: Card) -> Option<usize> {
        let rules = self.rules();
        let melds = self.melds(side);
        let onto_sequence = || {
            melds.iter().position(|m| {
                m.cards.is_sequence()
                    && !rules.melds.has_canasta_length(m.cards.len())
                    && extends_run(&m.cards, top)
            })
        };
        if rules.pile.top_card_for_the_draw() {
            return onto_sequence();
        }
        if rules.melds.one_meld_a_rank() {
            return self.meld_index_of_rank(side, top.rank());
        }
        melds
            .iter()
            .position(|m| {
                m.cards.rank() == top.rank()
                    && !m.closed
                    && (rules.pile.take_onto_canasta || !m.is_canasta(rules))
            })
            .or_else(onto_sequence)
    }

    /// P-CNE: the final discard must be a natural card (not wild, not a three).
    /// P-PEN: never a seven (the special rank) as the last discard.
    pub(crate) fn final_discard_ok(&self, card: Card) -> bool {
        let rules = self.rules();
        rules.going_out.final_discard_allowed(card)
            && !(rules.pile.special_discard_restricted()
                && rules.melds.is_special_rank(card.rank()))
    }

    /// What the side's wild meld holds back now: nothing unless it is
    /// short of a canasta; then every wild card, from other melds and the
    /// pile (P-CNE), or twos, from other melds (RG-ITA).
    pub(crate) fn wilds_reserved(&self, side: Side) -> WildMeldReserve {
        let rules = self.rules();
        let reserve = rules.melds.wild_meld_reserve();
        let open = reserve != WildMeldReserve::Nothing
            && self
                .melds(side)
                .iter()
                .any(|m| m.cards.holds_wilds_back(rules));
        if open {
            reserve
        } else {
            WildMeldReserve::Nothing
        }
    }

    pub(crate) fn canastas(&self, side: Side) -> u8 {
        let rules = self.rules();
        self.melds(side)
            .iter()
            .filter(|m| m.is_canasta(rules))
            .count() as u8
    }

    /// Cards of the special rank may not be discarded by `seat` yet (P-PEN:
    /// until every side has a sevens canasta; S002: until the own side has).
    pub(crate) fn special_discard_blocked(&self, seat: Seat) -> bool {
        let rules = self.rules();
        let has = |side: Side| {
            self.melds(side)
                .iter()
                .any(|m| m.going_out_kind(rules) == Some(crate::meld::GoOutKind::Special))
        };
        rules.pile.special_discard_blocked(
            || has(self.side_of(seat)),
            || self.seats().map(|s| self.side_of(s)).all(has),
        )
    }

    /// Whether `seat` picks up its foot at the end of this turn (a player
    /// bound to go out goes out instead).
    pub(crate) fn foot_due(&self, seat: Seat) -> bool {
        self.foot_size(seat) > 0 && self.turn().completed_canasta && !self.turn().must_go_out
    }

    /// Every card in `seat`'s hand is of the special rank while it may not
    /// be discarded (P-PEN's sevens).
    pub(crate) fn holds_only_restricted(&self, seat: Seat) -> bool {
        let rules = self.rules();
        let Some(rank) = rules.melds.special_rank() else {
            return false;
        };
        rules.pile.special_discard_restricted()
            && self.hand(seat).rank_count(rank) as usize == self.hand(seat).total()
            && self.special_discard_blocked(seat)
    }
}

#[cfg(test)]
mod tests {
    use crate::seat::Seat;
    use crate::{GameState, Phase, Rng};

    /// What a seat's screen says about the pile (its observation's
    /// freeze) is what the judge applies to that seat, in random play of
    /// every form.
    #[test]
    fn the_observed_freeze_is_the_judges() {
        let (mut frozen, mut open) = (0, 0);
        for rules in crate::rules::all_forms() {
            let mut rng = Rng::new(9);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(0));
            for _ in 0..400 {
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    break;
                }
                for seat in g.seats() {
                    let seen = g.observe(seat).pile_freeze(&rules);
                    assert_eq!(seen.is_some(), g.frozen_for(g.side_of(seat)));
                    if seen.is_some() {
                        frozen += 1
                    } else {
                        open += 1
                    }
                }
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
        }
        assert!(
            frozen > 100 && open > 100,
            "both cases seen: {frozen} {open}"
        );
    }
}
