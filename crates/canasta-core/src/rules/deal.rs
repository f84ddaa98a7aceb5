//! The cards and the deal: the deck, the hands, the draw.

use crate::card::{Card, CardCounts};
use serde::{Deserialize, Serialize};

use super::RedThreeTiming;

/// The deck and the deal (P-CAN's "Cards", "Deal").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DealRules {
    /// Standard 52-card packs in the deck.
    pub decks: u8,
    /// Jokers in the deck (P-CAN: 4 with 2 packs; 6 with 3).
    pub jokers: u8,
    /// Faces taken out of the deck altogether (Canastia: all nines, tens and
    /// jacks, the red twos, red threes and red aces).
    pub excluded_faces: Vec<Card>,
    /// Cards dealt to each player (P-CAN: 11 for 4 players, 15 for 2, 13 for 3 and 6).
    pub hand_size: u8,
    /// Cards in each player's foot: a face-down packet dealt after the hands
    /// and picked up after the discard that ends a turn in which the player
    /// completed a canasta (Pennies from Heaven: 11; P-CAN lists a foot as a
    /// Classic variation). 0: no foot.
    pub foot_size: u8,
    /// Cards taken from the stock in one draw (P-CAN: 1; 2 with 2 or 3 players).
    pub draw_count: u8,
    /// The first player of each hand is chosen at random (Canastia); the
    /// record's deal line names it as `first`. Otherwise it is the dealer's left.
    pub random_first_player: bool,
    /// When dealt red threes are laid out (P-CAN: after the deal).
    pub red_three_timing: RedThreeTiming,
}

impl DealRules {
    /// Cards in the deck.
    pub fn deck_size(&self) -> usize {
        self.deck().total()
    }

    /// Each player has a foot to pick up (Pennies from Heaven; a Classic
    /// variation in P-CAN).
    pub fn has_feet(&self) -> bool {
        self.foot_size > 0
    }

    /// The deck's composition: `decks` packs and `jokers` jokers, less
    /// every copy of each face in `excluded_faces`.
    pub fn deck(&self) -> CardCounts {
        let mut d = CardCounts::new();
        for c in Card::all() {
            if self.excluded_faces.contains(&c) {
                continue;
            }
            if c.is_joker() {
                d.add_n(c, self.jokers);
            } else {
                d.add_n(c, self.decks);
            }
        }
        d
    }
}
