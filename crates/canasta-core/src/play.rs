//! Playing a position: what the seat to act may do and doing it. This is
//! the engine's public face for play, kept in one place above the parts it
//! asks: the judge (`judge/`) says whether an action is legal and why not,
//! the generator (`movegen.rs`) lists the choices, and the state (`state/`)
//! carries out what the judge accepts. Neither the judge nor the generator
//! adds methods to [`GameState`]: each reads it through its own view.

use crate::action::{Action, ActionList};
use crate::error::{IllegalAction, IllegalReason};
use crate::judge::Judge;
use crate::movegen::Generator;
use crate::seat::Seat;
use crate::state::{GameState, Phase};

impl GameState {
    /// True if [`GameState::apply`] would accept `action`.
    pub fn is_legal(&self, action: &Action) -> bool {
        self.judge(action).is_ok()
    }

    /// Why `action` is refused here (the first check that fails), or
    /// `NotAvailable` if it is legal.
    pub fn explain(&self, action: &Action) -> IllegalReason {
        self.judge(action)
            .err()
            .unwrap_or(IllegalReason::NotAvailable)
    }

    /// Applies `action` for the seat to act.
    ///
    /// # Errors
    /// An illegal action is refused with its reason; the state is unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        match self.judge(&action) {
            Ok(()) => {
                self.apply_raw(action);
                self.debug_check_kept_counts(&action);
                Ok(())
            }
            Err(reason) => Err(IllegalAction { action, reason }),
        }
    }

    /// Applies an action without checking it: for bots and search, which
    /// take actions from [`GameState::legal_actions`]. Debug builds assert legality.
    pub fn apply_unchecked(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(&action),
            "illegal action {action} in phase `{}`",
            self.phase()
        );
        self.apply_raw(action);
        self.debug_check_kept_counts(&action);
    }

    /// [`GameState::apply`] for a named seat, refusing out-of-turn actions.
    ///
    /// # Errors
    /// As `apply`, plus `NotYourTurn`.
    pub fn apply_for(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        if matches!(self.phase(), Phase::Draw | Phase::Play | Phase::Answer)
            && seat != self.to_act()
        {
            return Err(IllegalAction {
                action,
                reason: IllegalReason::NotYourTurn {
                    seat,
                    to_act: self.to_act(),
                },
            });
        }
        self.apply(action)
    }

    /// The judge: `Ok` if the seat to act may take `action` now, else the
    /// first rule it breaks. Checks run in this order: the phase, the cards
    /// in hand, the action's own rules, then how the turn can end after it.
    pub fn judge(&self, action: &Action) -> Result<(), IllegalReason> {
        Judge::of(self).judge(action)
    }

    /// Every legal action of the seat to act, in a deterministic order.
    pub fn legal_actions(&self) -> ActionList {
        let mut out = ActionList::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// True if `action` is in the generated list, as a choice: cards the
    /// rules cannot tell apart are interchangeable (by class key), and its
    /// cards are in the actor's hand. Legality is the judge's
    /// ([`GameState::is_legal`]); this says whether the generator names
    /// the action itself rather than steps that reach the same position.
    pub fn is_generated(&self, action: &Action) -> bool {
        if !matches!(self.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            return false;
        }
        if !self
            .hand(self.to_act())
            .contains_all(&action.cards_from_hand())
        {
            return false;
        }
        // An add to a sequence is exact: its suit and rank are what it is.
        if let Action::Add { meld, .. } = action {
            let side = self.side_of(self.to_act());
            if self
                .melds(side)
                .get(meld.index())
                .is_some_and(|m| m.cards.is_sequence())
            {
                return self.legal_actions().iter().any(|a| a == action);
            }
        }
        let rules = self.rules();
        let key = action.key_under(rules);
        self.legal_actions()
            .iter()
            .any(|a| a.key_under(rules) == key)
    }

    /// [`GameState::legal_actions`] into a reused buffer (cleared first).
    pub fn legal_actions_into(&self, out: &mut ActionList) {
        Generator::of(self).generate(out);
    }
}
