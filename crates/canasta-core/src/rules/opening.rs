//! The first meld: the minimum a side must meet and how it may meet it.

use serde::{Deserialize, Serialize};

use super::{CleanOpening, OpeningStep};

/// The opening (P-CAN's "The initial meld").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OpeningRules {
    /// Opening minimum by the team's cumulative score, lowest row first.
    pub opening_table: Vec<OpeningStep>,
    /// From the second hand on, a player whose score is strictly above every
    /// other's needs this opening instead of the table's (Canastia: 15).
    pub opening_when_leading: Option<i32>,
    /// Whether an opening must be of clean melds only, by the minimum it
    /// has to meet (P-CNE: up to 50; US Italian: always; P-CAN: never).
    pub clean_opening: CleanOpening,
    /// A side that has not melded opens before drawing, from hand only, or
    /// not at all that turn (P-CNE); P-CAN opens after drawing.
    pub open_before_draw: bool,
    /// Canasta bonuses of groups long enough count toward the opening
    /// (Canastia's example: a seven-card canasta of fives with three twos
    /// opens with 7 + 15 = 22).
    pub opening_counts_canasta_bonus: bool,
    /// An unopened side taking the pile must meet the opening minimum with
    /// the melds it lays from hand; the top card and its pair do not count
    /// (P-PEN: "must first lay down enough from hand").
    pub pile_opening_from_hand: bool,
    /// A team that has not melded may go out concealed after drawing from
    /// the stock without meeting the opening minimum (P-CAN, S002).
    pub concealed_without_minimum: bool,
}

impl OpeningRules {
    /// The opening minimum for a cumulative score.
    pub fn minimum(&self, score: i32) -> i32 {
        self.opening_table
            .iter()
            .rev()
            .find(|s| s.from.is_none_or(|f| score >= f))
            .map_or(0, |s| s.need)
    }

    /// A side that has not melded may go out concealed without meeting the
    /// minimum: only after drawing from the stock (`drew_from_stock`), and
    /// only where the rules allow it (P-CAN, S002).
    pub fn concealed_waives_minimum(&self, drew_from_stock: bool) -> bool {
        drew_from_stock && self.concealed_without_minimum
    }

    /// A side that has not melded may open at this moment of its turn:
    /// before the draw (`before_draw`) where openings come first, from hand
    /// only (P-CNE), after it elsewhere (P-CAN). Where openings come first,
    /// melds may be laid before the draw at all.
    pub fn opens_now(&self, before_draw: bool) -> bool {
        before_draw == self.open_before_draw
    }

    /// The opening at this minimum must be of clean melds only (P-CNE at 50).
    pub fn must_be_clean(&self, need: i32) -> bool {
        match self.clean_opening {
            CleanOpening::Never => false,
            CleanOpening::UpTo(up_to) => need <= up_to,
            CleanOpening::Always => true,
        }
    }
}
