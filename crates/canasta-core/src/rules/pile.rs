//! The discard pile: the upcards that start it, what freezes it, and how
//! it is taken.

use serde::{Deserialize, Serialize};

use super::{PilePacket, SpecialDiscard};
use crate::card::Card;

/// The discard pile (P-CAN's "The discard pile", "Freezing the pile").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PileRules {
    /// Most upcards turned to start the pile; if every one is wild or a
    /// three the deal is void and the same dealer deals again (P-CNE: 3).
    /// 0: turn until a card that does not call for another (P-CAN).
    pub max_upcards: u8,
    /// A wild upcard calls for another (P-CAN, P-CNE); Canastia turns one
    /// upcard only.
    pub upcard_wild_turns_again: bool,
    /// Any three upcard calls for another (P-CNE); P-CAN only red threes.
    pub upcard_threes_turn_again: bool,
    /// S001 also turns another upcard while the upcard is a black three
    /// (pagat turns again only for wild cards and red threes).
    pub upcard_black_three_turns_again: bool,
    /// Face-down cards under the upcards (P-CNE: by the upcard's rank).
    pub pile_packet: PilePacket,
    /// What freezes the pile.
    pub freeze: FreezeRules,
    /// Only a side that has melded may take the pile (P-CNE); P-CAN lets a
    /// side open by taking it.
    pub pile_needs_opened_side: bool,
    /// Naturals from hand needed to take an unfrozen pile (2).
    pub pile_take_naturals: u8,
    /// Naturals from hand needed to take a frozen pile (P-CAN 2; P-CNE 3).
    pub pile_take_naturals_frozen: u8,
    /// An unfrozen pile may be taken with one natural and one wild card
    /// (P-CAN; variation (2) forbids it).
    pub take_with_natural_and_wild: bool,
    /// The pile may be taken by putting its top card on the side's meld of
    /// that rank (P-CAN; not in P-CNE).
    pub take_onto_meld: bool,
    /// An unfrozen pile may be taken by adding its top card to a completed
    /// canasta (P-CAN; variation (1) forbids it).
    pub take_onto_canasta: bool,
    /// P-SAM (Dutch): instead of drawing, a player may take the pile's top
    /// card alone to extend one of the side's sequences short of a samba
    /// (`pickup`); the rest of the pile stays. Needs `take_onto_meld` off.
    pub top_card_to_sequence: bool,
    /// Cards drawn from the stock along with the pile (P-CNE: 1).
    pub pile_extra_draw: u8,
    /// Viennese option: a player holding one card may take a one-card pile
    /// (S001, S002, BRIT forbid it).
    pub one_card_may_take_one_card_pile: bool,
    /// When cards of the special rank may be discarded (P-PEN: sevens only
    /// once every side has a sevens canasta, never as the last discard).
    pub special_discard: SpecialDiscard,
}

/// What freezes the pile: one rule of the books (P-CAN's "Freezing the
/// pile") whose parts the variants choose apart. A frozen pile is taken
/// only with natural cards from hand ([`PileRules::naturals_to_take`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FreezeRules {
    /// A wild card in the pile freezes it (P-CAN, P-CNE; Canastia has no
    /// freezing). Option `wilds_freeze_pile`.
    pub wild_cards: bool,
    /// S001/S002: a discarded black three freezes the pile (pagat: only stops
    /// the next player). Option `black_three_freezes`.
    pub black_three: bool,
    /// A red three among the upcards freezes the pile (P-CAN; P-CNE only wild
    /// cards). Option `red_three_upcard_freezes`.
    pub red_three_upcard: bool,
    /// P-CAN variation: the pile is always frozen. Option `pile_always_frozen`.
    pub always: bool,
    /// The pile is frozen against a side that has not melded (P-CAN); in
    /// P-CNE only a wild card freezes it. Option `unopened_side_frozen`.
    pub unopened_side: bool,
}

/// Why the pile is frozen against a side ([`FreezeRules::against`]): taking
/// it then needs natural cards of the top card's rank from hand
/// ([`PileRules::pile_take_naturals_frozen`]), never a meld on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freeze {
    /// A wild card (or, where the rules say so, a black three) is in it.
    ByCard,
    /// These rules freeze the pile for everyone, always.
    Always,
    /// The side has not melded yet.
    UntilOpened,
}

impl FreezeRules {
    /// A discard of `card` freezes the pile: a wild card (P-CAN, P-CNE),
    /// or a black three where the rules say so (S001, S002).
    pub fn by_discard(&self, card: Card) -> bool {
        (card.is_wild() && self.wild_cards) || (card.is_black_three() && self.black_three)
    }

    /// A card turned up to start the pile freezes it: a wild card, or a
    /// red three where the rules say so (P-CAN; P-CNE only wild cards).
    pub fn by_upcard(&self, card: Card) -> bool {
        (card.is_wild() && self.wild_cards) || (card.is_red_three() && self.red_three_upcard)
    }

    /// Why the pile is frozen against a side, the first cause that holds:
    /// a freezing card in it (`pile_frozen`, a wild card or a black three
    /// discarded or turned up), these rules, or the side not having melded
    /// yet. `None`: the pile is open to the side. The judge, the generator
    /// and every screen ask this one predicate.
    pub fn against(&self, pile_frozen: bool, side_opened: bool) -> Option<Freeze> {
        if pile_frozen {
            Some(Freeze::ByCard)
        } else if self.always {
            Some(Freeze::Always)
        } else if self.unopened_side && !side_opened {
            Some(Freeze::UntilOpened)
        } else {
            None
        }
    }
}

impl PileRules {
    /// The pile is closed to a side (nothing takes it) until the side has
    /// melded from hand (P-CNE). The judge, the generator and the screens
    /// ask this one predicate.
    pub fn closed_to(&self, side_opened: bool) -> bool {
        self.pile_needs_opened_side && !side_opened
    }

    /// Naturals from hand needed to take the pile, frozen for the taker or
    /// not: the one count the generator, the opening search and the judge
    /// all ask for.
    pub fn naturals_to_take(&self, frozen: bool) -> u8 {
        if frozen {
            self.pile_take_naturals_frozen
        } else {
            self.pile_take_naturals
        }
    }

    /// A pile may be taken with one natural and one wild card from hand:
    /// only where the rules allow it (P-CAN; variation (2) forbids it) and
    /// never a pile frozen for the taker.
    pub fn takes_with_natural_and_wild(&self, frozen: bool) -> bool {
        !frozen && self.take_with_natural_and_wild
    }

    /// The top card alone, onto one of the side's sequences short of a
    /// samba, is taken instead of drawing, and the rest of the pile stays
    /// (P-SAM, Dutch): the top card never takes the pile onto a meld.
    pub fn top_card_for_the_draw(&self) -> bool {
        self.top_card_to_sequence
    }

    /// The pile's top card may be taken without naturals from hand: onto a
    /// meld of its rank, taking the pile (P-CAN), or onto a sequence for the
    /// draw (P-SAM, Dutch); never where the pile is taken only with
    /// naturals from hand (P-CNE).
    pub fn top_card_goes_alone(&self) -> bool {
        self.take_onto_meld || self.top_card_to_sequence
    }

    /// The pile may be taken by putting its top card on the side's meld of
    /// its rank: where the rules take it so (P-CAN; not P-CNE), never a
    /// pile frozen for the taker, and onto a canasta (`onto_canasta`) only
    /// where the rules allow it (P-CAN's variation (1) forbids it).
    pub fn takes_onto_meld(&self, frozen: bool, onto_canasta: bool) -> bool {
        self.take_onto_meld && !frozen && (self.take_onto_canasta || !onto_canasta)
    }

    /// Stock cards a take of the pile brings with it, unseen until taken
    /// (P-CNE: 1).
    pub fn stock_cards_with_pile(&self) -> usize {
        self.pile_extra_draw as usize
    }

    /// A take of the pile that would leave the taker only the unseen stock
    /// cards that go with it (P-CNE) is refused without looking at them:
    /// legality must not depend on what nobody may see. `remaining` is the
    /// hand after the take, those cards counted.
    pub fn leaves_only_unseen(&self, remaining: usize) -> bool {
        self.pile_extra_draw > 0 && remaining <= self.pile_extra_draw as usize
    }

    /// Cards of the special rank are held back from the pile for a while
    /// (P-PEN's sevens, S002's option), and never go as the last discard.
    pub fn special_discard_restricted(&self) -> bool {
        self.special_discard != SpecialDiscard::Free
    }

    /// Cards of the special rank may not be discarded yet: P-PEN until
    /// every side has a canasta of them (`every_side_has`), S002's option
    /// until the discarder's own side has (`own_side_has`); each is asked
    /// only where the rule needs it.
    pub fn special_discard_blocked(
        &self,
        own_side_has: impl FnOnce() -> bool,
        every_side_has: impl FnOnce() -> bool,
    ) -> bool {
        match self.special_discard {
            SpecialDiscard::Free => false,
            SpecialDiscard::UntilOwnSide => !own_side_has(),
            SpecialDiscard::UntilEverySide => !every_side_has(),
        }
    }

    /// A player holding one card may not take a one-card pile (S001, S002,
    /// BRIT), unless the Viennese option allows it.
    pub fn one_card_pile_refused(&self, hand_cards: usize, pile_cards: usize) -> bool {
        hand_cards == 1 && pile_cards == 1 && !self.one_card_may_take_one_card_pile
    }
}

#[cfg(test)]
mod tests {
    use crate::card::Card;
    use crate::rules::Rules;

    fn preset(id: &str) -> Rules {
        Rules::preset(id, None, None).expect("a preset")
    }

    fn card(text: &str) -> Card {
        text.parse().expect("a card")
    }

    /// P-CAN: a wild card discarded or turned up freezes the pile, and a red
    /// three turned up does; a black three only where the option says so
    /// (S001, S002). P-CNE: only wild cards. Canastia: nothing freezes it.
    #[test]
    fn what_freezes_the_pile() {
        let classic = preset("classic");
        let freeze = classic.pile.freeze;
        assert!(freeze.by_discard(card("JK")) && freeze.by_discard(card("2C")));
        assert!(!freeze.by_discard(card("3S")) && !freeze.by_discard(card("7H")));
        assert!(freeze.by_upcard(card("2D")) && freeze.by_upcard(card("3H")));
        assert!(!freeze.by_upcard(card("3C")));
        let options = serde_json::json!({ "black_three_freezes": true });
        let black = classic
            .with_options(options.as_object().unwrap())
            .expect("the option");
        assert!(
            black.pile.freeze.by_discard(card("3S")) && !black.pile.freeze.by_discard(card("3D"))
        );
        let canastone = preset("canastone").pile.freeze;
        assert!(canastone.by_upcard(card("JK")) && !canastone.by_upcard(card("3H")));
        let canastia = preset("canastia").pile.freeze;
        assert!(!canastia.by_discard(card("JK")) && !canastia.by_upcard(card("2H")));
    }

    /// P-CNE: one unseen stock card goes with the pile, and a take that
    /// would leave the taker only that card is refused; P-CAN takes none.
    #[test]
    fn the_stock_card_with_the_pile() {
        let canastone = preset("canastone").pile.clone();
        assert_eq!(canastone.stock_cards_with_pile(), 1);
        assert!(canastone.leaves_only_unseen(1) && !canastone.leaves_only_unseen(2));
        let classic = preset("classic").pile.clone();
        assert_eq!(classic.stock_cards_with_pile(), 0);
        assert!(!classic.leaves_only_unseen(0) && !classic.leaves_only_unseen(1));
    }

    /// P-PEN: sevens go to the pile only once every side has a sevens
    /// canasta; elsewhere the special rank is free to discard.
    #[test]
    fn when_the_special_rank_may_be_discarded() {
        let pennies = preset("pennies").pile.clone();
        assert!(pennies.special_discard_restricted());
        assert!(pennies.special_discard_blocked(|| true, || false));
        assert!(!pennies.special_discard_blocked(|| false, || true));
        let classic = preset("classic").pile.clone();
        assert!(!classic.special_discard_restricted());
        assert!(!classic.special_discard_blocked(|| false, || false));
    }
}
