//! Going out and the end of a hand: what a side needs before a member may
//! go out, and how a low stock ends the hand.

use serde::{Deserialize, Serialize};

use super::StockEnd;
use crate::card::Card;

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

/// Canastas a side has, by the kinds going-out requirements count
/// separately: clean (natural), dirty (mixed), of wild cards only where
/// that is a kind of its own (P-PEN), and of the special rank (P-PEN:
/// sevens).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCounts {
    pub clean: u8,
    pub dirty: u8,
    pub wild: u8,
    pub special: u8,
}

impl KindCounts {
    /// Canastas of every kind.
    pub fn total(&self) -> u8 {
        self.clean + self.dirty + self.wild + self.special
    }
}

impl GoingOutRules {
    /// Canastas a side needs in all to go out (P-CAN: one; two with two or
    /// six players), or, on the turn the side opens, the fewer the rules
    /// allow for going out concealed (Canastia: one).
    #[inline]
    pub fn canastas_needed(&self, opening_this_turn: bool) -> u8 {
        let r = &self.requirement;
        if opening_this_turn && r.canastas_if_concealed > 0 {
            r.canastas_if_concealed
        } else {
            r.canastas
        }
    }

    /// Canastas a side needs in all to go out, without the exception for
    /// going out concealed: what a red three's penalty "below going out"
    /// (P-SAM) and the bots measure a side against.
    #[inline]
    pub fn canastas_to_go_out(&self) -> u8 {
        self.requirement.canastas
    }

    /// Canastas of each kind a side needs besides the total (P-CNE: a
    /// natural and a mixed; P-PEN: besides, a wild one and one of sevens).
    #[inline]
    pub fn kinds_needed(&self) -> KindCounts {
        let r = &self.requirement;
        KindCounts {
            clean: r.natural_canastas,
            dirty: r.mixed_canastas,
            wild: r.wild_canastas,
            special: r.special_canastas,
        }
    }

    /// `have` holds every kind of canasta the requirement names.
    #[inline]
    pub fn kinds_met(&self, have: &KindCounts) -> bool {
        let need = self.kinds_needed();
        have.clean >= need.clean
            && have.dirty >= need.dirty
            && have.wild >= need.wild
            && have.special >= need.special
    }

    /// Canastas of each kind a side with `have` still lacks.
    pub fn kinds_lacking(&self, have: &KindCounts) -> KindCounts {
        let need = self.kinds_needed();
        KindCounts {
            clean: need.clean.saturating_sub(have.clean),
            dirty: need.dirty.saturating_sub(have.dirty),
            wild: need.wild.saturating_sub(have.wild),
            special: need.special.saturating_sub(have.special),
        }
    }

    /// The requirement names natural or mixed canastas (P-CNE); Classic
    /// counts canastas of any kind.
    #[inline]
    pub fn needs_natural_or_mixed(&self) -> bool {
        self.requirement.natural_canastas > 0 || self.requirement.mixed_canastas > 0
    }

    /// The requirement names wild canastas or canastas of the special rank
    /// (P-PEN), so a refusal names all four kinds.
    #[inline]
    pub fn needs_wild_or_special(&self) -> bool {
        self.requirement.wild_canastas > 0 || self.requirement.special_canastas > 0
    }

    /// A canasta of wild cards only is a kind of its own (P-PEN), not a
    /// natural or a mixed one (P-CNE).
    #[inline]
    pub fn wild_canasta_is_a_kind(&self) -> bool {
        self.requirement.wild_canastas > 0
    }

    /// Wild canastas count toward going out (P-CNE; not RG-ITA).
    #[inline]
    pub fn counts_wild_canastas(&self) -> bool {
        self.requirement.wild_canastas_count
    }

    /// A player may go out by melding the last cards, with no final
    /// discard (P-CAN; not P-CNE).
    #[inline]
    pub fn may_meld_out(&self) -> bool {
        !self.requirement.needs_discard
    }

    /// `card` may be the discard that goes out as far as going out asks
    /// (P-CNE: a natural card, not a wild card or a three; elsewhere any).
    #[inline]
    pub fn final_discard_allowed(&self, card: Card) -> bool {
        !self.requirement.final_discard_natural || card.is_plain_natural()
    }
}

#[cfg(test)]
mod tests {
    use super::KindCounts;
    use crate::card::{Card, Rank, Suit};
    use crate::rules::Rules;

    fn preset(id: &str) -> Rules {
        Rules::preset(id, None, None).expect("a preset")
    }

    /// P-CAN: one canasta of any kind, two with six players; Canastia: two,
    /// one when going out concealed; P-CAN may meld out.
    #[test]
    fn canastas_in_all_and_going_out_concealed() {
        let classic = preset("classic");
        assert_eq!(classic.going_out.canastas_needed(false), 1);
        assert_eq!(classic.going_out.canastas_needed(true), 1);
        assert_eq!(classic.going_out.canastas_to_go_out(), 1);
        assert!(!classic.going_out.needs_natural_or_mixed());
        assert!(classic.going_out.may_meld_out());
        let six = Rules::preset("classic", Some(6), None).expect("six");
        assert_eq!(six.going_out.canastas_needed(false), 2);
        let canastia = preset("canastia");
        assert_eq!(canastia.going_out.canastas_needed(false), 2);
        assert_eq!(canastia.going_out.canastas_needed(true), 1);
    }

    /// P-CNE: a natural and a mixed canasta, a natural final discard; P-PEN:
    /// a wild canasta and one of sevens besides.
    #[test]
    fn the_kinds_of_canasta_and_the_final_discard() {
        let canastone = preset("canastone");
        assert!(canastone.going_out.needs_natural_or_mixed());
        assert!(!canastone.going_out.may_meld_out());
        let one_natural = KindCounts {
            clean: 1,
            ..KindCounts::default()
        };
        assert!(!canastone.going_out.kinds_met(&one_natural));
        assert_eq!(canastone.going_out.kinds_lacking(&one_natural).dirty, 1);
        assert!(canastone.going_out.kinds_met(&KindCounts {
            clean: 1,
            dirty: 1,
            ..KindCounts::default()
        }));
        let joker = Card::JOKER;
        assert!(!canastone.going_out.final_discard_allowed(joker));
        assert!(
            canastone
                .going_out
                .final_discard_allowed(Card::new(Rank::King, Suit::Spades))
        );
        assert!(preset("classic").going_out.final_discard_allowed(joker));
        let pennies = preset("pennies");
        assert!(
            pennies.going_out.wild_canasta_is_a_kind() && pennies.going_out.needs_wild_or_special()
        );
        assert!(!canastone.going_out.wild_canasta_is_a_kind());
    }
}
