//! A hand and a side's melds reduced to what going out depends on: the
//! shapes the counting tests read instead of the cards.

use crate::card::{Card, CardCounts, Rank};
use crate::meld::{CanastaKind, GoOutKind, Meld};
use crate::rules::Rules;
use crate::seat::Side;
use crate::state::{GameState, MAX_MELDS};
use arrayvec::ArrayVec;

/// A hand reduced to what going out depends on.
#[derive(Clone, Copy)]
pub(crate) struct HandShape {
    /// Naturals by rank index (`Rank::index`); index 1 holds black threes.
    pub(crate) ranks: [u8; 13],
    pub(crate) wilds: u8,
    pub(crate) jokers: u8,
    pub(crate) red_threes: u8,
}

impl HandShape {
    pub(super) fn of(h: &CardCounts) -> HandShape {
        let mut ranks = [0u8; 13];
        for r in Rank::MELDABLE {
            ranks[r.index()] = h.rank_count(r);
        }
        ranks[Rank::Three.index()] = h.black_threes();
        HandShape {
            ranks,
            wilds: h.wilds(),
            jokers: h.jokers(),
            red_threes: h.red_threes(),
        }
    }

    pub(super) fn remove(&mut self, c: Card) {
        if c.is_wild() {
            self.wilds -= 1;
            if c.is_joker() {
                self.jokers -= 1;
            }
        } else if c.is_red_three() {
            self.red_threes -= 1;
        } else {
            self.ranks[c.rank().unwrap().index()] -= 1;
        }
    }
}

/// A meld reduced to its rank and counts.
#[derive(Clone, Copy)]
pub(crate) struct MeldShape {
    /// Rank index; `Rank::Three` for black threes; 0 for wild-only melds.
    pub(crate) rank: u8,
    pub(crate) naturals: u8,
    pub(crate) wilds: u8,
    pub(crate) jokers: u8,
    /// Closed as a canasta by choice (Canastia): takes no more cards.
    pub(crate) closed: bool,
    /// A sequence (Samba; `rank` is then meaningless): a samba at seven.
    pub(crate) seq: bool,
}

pub(crate) const WILD_MELD: u8 = 0;

impl MeldShape {
    /// A canasta already, where closing is a choice only if closed.
    pub(super) fn canasta_now(&self, rules: &Rules) -> Option<bool> {
        if rules.melds.closes_by_choice() && !self.closed {
            return None;
        }
        self.canasta(rules)
    }

    /// `Some(true)` for a natural (clean) canasta, `Some(false)` mixed, or
    /// one that can still be closed this turn.
    pub(crate) fn canasta(&self, rules: &Rules) -> Option<bool> {
        if (self.rank == Rank::Three.index() as u8 && rules.melds.special_threes() && !self.seq)
            || !rules.melds.has_canasta_length(self.naturals + self.wilds)
        {
            return None;
        }
        Some(if self.rank == WILD_MELD && !self.seq {
            CanastaKind::of_wild_cards(self.jokers, self.wilds - self.jokers)
                == CanastaKind::Natural
        } else {
            self.wilds == 0
        })
    }
}

impl MeldShape {
    pub(crate) fn rank(&self) -> Option<Rank> {
        (self.rank != WILD_MELD && !self.seq).then(|| Rank::from_index(self.rank as usize))
    }

    pub(crate) fn len(&self) -> u8 {
        self.naturals + self.wilds
    }

    /// The going-out kind of this meld as a canasta, clean or not.
    pub(super) fn kind(&self, rules: &Rules, clean: bool) -> GoOutKind {
        if self.seq {
            return GoOutKind::Clean;
        }
        let kind = if clean {
            CanastaKind::Natural
        } else {
            CanastaKind::Mixed
        };
        GoOutKind::of(rules, self.rank(), kind)
    }
}

pub(super) type SideShape = ArrayVec<MeldShape, MAX_MELDS>;

pub(crate) fn side_shape(state: &GameState, side: Side) -> SideShape {
    shapes_of(state.melds(side))
}

/// The shapes of `melds`, a side's melds as the counting tests read them
/// (also for melds worked out without a state: `ok_after_without_copy`).
pub(super) fn shapes_of(melds: &[Meld]) -> SideShape {
    melds
        .iter()
        .map(|m| MeldShape {
            rank: m.cards.rank().map_or(WILD_MELD, |r| r.index() as u8),
            naturals: m.cards.natural_count(),
            wilds: m.cards.wild_count(),
            jokers: m.cards.jokers,
            closed: m.closed,
            seq: m.cards.is_sequence(),
        })
        .collect()
}
