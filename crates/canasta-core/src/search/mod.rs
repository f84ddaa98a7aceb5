//! The search for openings and going out: what the turn can still come
//! to. The judge and the generator both ask it; it asks neither of them.
//!
//! - [`goout`]: can the player to act still go out this turn, and can the
//!   turn still end legally after an action (`GoingOut::ok_after`)?
//! - [`opening`]: the irreducible openings that meet the minimum, and
//!   concealed going out below it.
//!
//! The two ask each other: an opening is offered only where the turn can
//! still end after it, and a side that has not melded, where going out
//! needs the opening minimum, goes out only if an opening laid now leaves
//! a hand that can go out (below).

pub(crate) mod goout;
pub(crate) mod opening;

use crate::action::Action;
use crate::seat::Seat;
use crate::state::{GameState, Phase};

impl goout::GoingOut<'_> {
    /// Going out from a side that has not melded, where going out needs
    /// the opening minimum (Samba, Italian; Classic without a
    /// concealed going out below it): some opening laid now must leave a
    /// hand that can go out. The generator lists every irreducible opening,
    /// and an opening that goes out contains one, the rest of it laid after
    /// it, so trying each is exact. Called only where the whole hand could
    /// go down were there no minimum.
    pub(super) fn can_open_and_go_out(&self, seat: Seat) -> bool {
        let mut finder = OpeningThatGoesOut {
            state: self,
            seat,
            found: false,
        };
        crate::search::opening::generate(self, None, &mut finder);
        finder.found
    }
}

/// Stops the opening search at the first opening after which the player
/// can go out (no list is built: this runs inside move generation, which
/// allocates nothing).
struct OpeningThatGoesOut<'s> {
    state: &'s GameState,
    seat: Seat,
    found: bool,
}

impl crate::search::opening::OpeningSink for OpeningThatGoesOut<'_> {
    fn offer(&mut self, opening: Action) {
        if self.found {
            return;
        }
        let mut left = *self.state.hand(self.seat);
        left.remove_all(&opening.cards_from_hand());
        // An opening of every card was offered only if it goes out legally.
        self.found = left.is_empty() || {
            let mut after = self.state.clone();
            after.apply_raw(opening);
            after.phase() == Phase::Play
                && after.side_has_melded(after.side_of(self.seat))
                && goout::GoingOut::of(&after).can_go_out(self.seat)
        };
    }

    fn holds(&self, _: &Action) -> bool {
        false
    }

    fn satisfied(&self) -> bool {
        self.found
    }
}
