//! Going out and the end of a hand: what a side needs before a member may
//! go out, and how a low stock ends the hand.

use serde::{Deserialize, Serialize};

use super::StockEnd;

/// Going out and the end of a hand (P-CAN's "Going out", "End of the stock").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoingOutRules {
    /// What a side needs to go out.
    pub requirement: GoingOutRequirement,
    /// Players may ask partner "may I go out?" (P-CAN: optional and binding).
    pub asking_allowed: bool,
    /// How a low stock ends the hand.
    pub stock_end: StockEnd,
    /// With the stock empty, a player must take a pile that matches a meld
    /// of the side and is not frozen against it (P-CAN); where false, the
    /// taking is the player's choice, and a player who would rather draw
    /// ends the hand (P-PEN "can and will", P-SAM "wants to draw").
    pub empty_stock_forces_pile: bool,
}

/// What a side needs before a member may go out: one rule of the books
/// ("a side may not go out until it has ..."), made of the canastas it
/// needs, in all and by kind, the exception for going out concealed, and
/// the final discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoingOutRequirement {
    /// Canastas a team needs before a member may go out (P-CAN: 1; 2 with 2
    /// or 6 players). Option `canastas_to_go_out`.
    pub canastas: u8,
    /// Canastas needed instead when going out on the turn the side opens
    /// (Canastia: 1); 0 means no such exception. Option
    /// `canastas_to_go_out_concealed`.
    pub canastas_if_concealed: u8,
    /// Natural (clean) canastas needed to go out, besides `canastas` in all
    /// (P-CNE: one). Option `go_out_natural_canastas`.
    pub natural_canastas: u8,
    /// Mixed (dirty) canastas needed to go out, besides `canastas` in all
    /// (P-CNE: one). Option `go_out_mixed_canastas`.
    pub mixed_canastas: u8,
    /// Wild canastas needed to go out (P-PEN: 1). When above 0 a wild
    /// canasta is a kind of its own rather than a clean or dirty one (P-CNE).
    /// Option `go_out_wild_canastas`.
    pub wild_canastas: u8,
    /// Canastas of the special rank needed to go out (P-PEN: 1). Option
    /// `go_out_special_canastas`.
    pub special_canastas: u8,
    /// Wild canastas count toward going out (P-CNE; not in the US book's
    /// Italian Canasta, RG-ITA, S002). Option `wild_canastas_count_to_go_out`.
    pub wild_canastas_count: bool,
    /// Going out needs a final discard (P-CNE); P-CAN may meld out. Option
    /// `go_out_needs_discard`.
    pub needs_discard: bool,
    /// The final discard must be a natural card, not a wild card or a three
    /// (P-CNE). Option `final_discard_natural`.
    pub final_discard_natural: bool,
}
