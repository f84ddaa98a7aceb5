//! Melds and canastas: what a meld may hold and when it is a canasta.

use crate::card::Rank;
use serde::{Deserialize, Serialize};

use super::{WildMeldReserve, WildRatio};

/// Melds and canastas (P-CAN's "Melds", "Canastas").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeldRules {
    /// Smallest meld (P-CAN: 3).
    pub min_meld: u8,
    /// Fewest naturals in a meld (P-CAN: 2).
    pub min_naturals: u8,
    /// Most wild cards in a meld (P-CAN: 3).
    pub max_wilds: u8,
    /// Wild cards relative to naturals (P-CAN: any, within the two limits above).
    pub wild_ratio: WildRatio,
    /// Cards that make a canasta (7).
    pub canasta_size: u8,
    /// A meld of `canasta_size` or more becomes a canasta only when its
    /// owner closes it (`canasta M`), and then takes no more cards (Canastia).
    pub canasta_by_choice: bool,
    /// Most cards one meld may hold (P-PEN: 7). A full meld takes nothing
    /// more, and its side may begin another meld of the same rank. `None`
    /// (the option's old 0): no limit.
    pub max_meld_size: Option<u8>,
    /// Wild cards may be added to a completed canasta (P-CAN, up to the wild
    /// limit; P-CNE: never).
    pub wilds_on_canasta: bool,
    /// Melds of wild cards only are allowed (P-CNE); until such a meld is a
    /// canasta its side may not go out, use wild cards elsewhere, or discard one.
    pub wild_melds: bool,
    /// What a side's wild meld holds back while it is short of a canasta:
    /// every wild card, from other melds and the pile (P-CNE); twos, from
    /// other melds (RG-ITA); nothing (P-PEN).
    pub wild_meld_reserves: WildMeldReserve,
    /// A rank whose melds take no wild cards (P-PEN: sevens; option
    /// `sevensMayBeMixed` after BIC-PEN, RG-PEN, S002 clears it).
    pub pure_rank: Option<Rank>,
    /// A rank whose canasta is a kind of its own (P-PEN: sevens), with its
    /// own bonus; it does not count as a natural or mixed canasta.
    pub special_canasta_rank: Option<Rank>,
    /// Black threes may be melded when going out (P-CAN; never in P-CNE).
    pub black_threes_meldable: bool,
    /// Threes are an ordinary rank: melded at any time, with wild cards,
    /// added to, made into canastas (Canastia, S004). They still stop the pile.
    pub threes_natural: bool,
    /// Sequences (Samba): `min_meld` or more naturals of one suit in
    /// consecutive ranks, four low and ace high, no wild cards and no threes;
    /// at `canasta_size` cards a samba, closed.
    pub sequences: bool,
    /// A side may have several melds of one rank, kept apart (P-SAM,
    /// BIC-SAM); a new group of a melded rank is a new meld.
    pub several_melds_per_rank: bool,
}

impl MeldRules {
    /// The ranks of ordinary melds: four to ace, or three to ace where threes
    /// are natural.
    pub fn ranks(&self) -> &'static [Rank] {
        if self.threes_natural {
            &Rank::THREE_TO_ACE
        } else {
            &Rank::MELDABLE
        }
    }

    /// [`MeldRules::ranks`] as bits of [`Rank::index`].
    pub fn rank_bits(&self) -> u16 {
        if self.threes_natural {
            Rank::THREE_TO_ACE_BITS
        } else {
            Rank::MELDABLE_BITS
        }
    }

    /// Threes follow P-CAN's black-three rule (melded only going out, no
    /// wild cards, never added to) rather than being an ordinary rank.
    pub fn special_threes(&self) -> bool {
        !self.threes_natural
    }

    /// Cards the smallest meld holds (P-CAN: three): the size of the
    /// minimal groups the generator offers and the error's figure.
    #[inline]
    pub fn smallest_meld(&self) -> u8 {
        self.min_meld
    }

    /// A meld of `len` cards is long enough to lay (P-CAN: three or more;
    /// a sequence, a wild meld and a meld of black threes alike).
    #[inline]
    pub fn long_enough(&self, len: u8) -> bool {
        len >= self.min_meld
    }

    /// Cards a group of `len` lacks to be [long enough](Self::long_enough)
    /// to lay: none once it is.
    #[inline]
    pub fn short_of_a_meld(&self, len: u8) -> u8 {
        self.min_meld.saturating_sub(len)
    }

    /// Cards a canasta holds (P-CAN: seven): what the going-out counting
    /// and the opening search measure melds and hands against.
    #[inline]
    pub fn canasta_length(&self) -> u8 {
        self.canasta_size
    }

    /// A meld of `len` cards has a canasta's length (P-CAN: seven or more).
    /// That makes it a canasta except where canastas are closed by choice
    /// (Canastia), which [`is_canasta_at`](Self::is_canasta_at) asks.
    #[inline]
    pub fn has_canasta_length(&self, len: u8) -> bool {
        len >= self.canasta_size
    }

    /// Sequences may be melded (Samba).
    #[inline]
    pub fn sequences_allowed(&self) -> bool {
        self.sequences
    }

    /// A sequence of `len` cards may be laid (Samba: three to seven cards;
    /// none where there are no sequences).
    #[inline]
    pub fn sequence_length_ok(&self, len: u8) -> bool {
        self.sequences && self.long_enough(len) && len <= self.canasta_size
    }

    /// A sequence of `len` cards is a samba, closed: it takes no more cards
    /// (Samba: at seven).
    #[inline]
    pub fn is_samba(&self, len: u8) -> bool {
        self.has_canasta_length(len)
    }

    /// Melds of wild cards only may be laid (P-CNE, RG-ITA, P-PEN).
    #[inline]
    pub fn wild_melds_allowed(&self) -> bool {
        self.wild_melds
    }

    /// A wild meld of `len` cards is short of a canasta: it is its side's
    /// one wild meld still growing (P-PEN: no other may begin; P-CNE: the
    /// side may not go out with it).
    #[inline]
    pub fn wild_meld_unfinished(&self, len: u8) -> bool {
        !self.has_canasta_length(len)
    }

    /// Most cards a wild meld grows to: a canasta and no further, within the
    /// meld [cap](Self::cap).
    #[inline]
    pub fn wild_meld_cap(&self) -> u8 {
        self.cap().min(self.canasta_size)
    }

    /// `rank` is the rank whose melds take no wild cards (P-PEN: sevens);
    /// `None`, wild cards only, never is.
    #[inline]
    pub fn is_pure_rank(&self, rank: Option<Rank>) -> bool {
        rank.is_some() && rank == self.pure_rank
    }

    /// Most wild cards a meld of `rank` (`None`: wild cards only) may hold
    /// with `naturals` naturals: none in a meld of the pure rank.
    pub fn wild_capacity_of(&self, rank: Option<Rank>, naturals: u8) -> u8 {
        if self.is_pure_rank(rank) {
            0
        } else {
            self.wild_capacity(naturals)
        }
    }

    /// Wild cards may join a meld that is a canasta (`canasta`) or not:
    /// always one short of a canasta, a canasta only where the rules allow
    /// it (P-CAN, up to the wild limit; P-CNE: never).
    pub fn wilds_may_join(&self, canasta: bool) -> bool {
        self.wilds_on_canasta || !canasta
    }

    /// A meld of `len` cards, `closed` by its owner or not, is a canasta:
    /// at `canasta_size` cards, or where canastas are closed by choice
    /// (Canastia), only once closed. (Black threes are never one: asked of
    /// the cards, not here.)
    pub fn is_canasta_at(&self, len: u8, closed: bool) -> bool {
        len >= self.canasta_size && (!self.canasta_by_choice || closed)
    }

    /// Canastas are closed by their owner's choice (Canastia: `canasta M`),
    /// not made by reaching `canasta_size`.
    pub fn closes_by_choice(&self) -> bool {
        self.canasta_by_choice
    }

    /// Its owner may close a meld of `len` cards as a canasta now (Canastia:
    /// seven or more).
    pub fn may_close(&self, len: u8) -> bool {
        self.canasta_by_choice && self.has_canasta_length(len)
    }

    /// Wild cards still join a meld that has grown to `canasta_size`
    /// without being closed: where wild cards go on canastas (P-CAN), or
    /// where such a meld is no canasta until closed (Canastia).
    pub fn wilds_join_at_canasta_size(&self) -> bool {
        self.wilds_may_join(self.is_canasta_at(self.canasta_size, false))
    }

    /// A side's melds of one rank are one meld (P-CAN): naturals of a rank
    /// join it. Where a rank may have several melds (P-SAM, BIC-SAM), a
    /// written group of a melded rank is a new meld.
    pub fn one_meld_a_rank(&self) -> bool {
        !self.several_melds_per_rank
    }

    /// The fewest naturals a meld of a rank holds (P-CAN: two; at least
    /// one, by validation).
    pub fn fewest_naturals(&self) -> u8 {
        self.min_naturals
    }

    /// `n` naturals are enough for a meld of a rank (P-CAN: two).
    #[inline]
    pub fn enough_naturals(&self, n: u8) -> bool {
        n >= self.min_naturals
    }

    /// How many naturals a meld of a rank lacks with `n`: `Some(need)`, the
    /// fewest it may hold, when `n` is not [enough](Self::enough_naturals).
    pub fn naturals_needed(&self, n: u8) -> Option<u8> {
        (!self.enough_naturals(n)).then_some(self.min_naturals)
    }

    /// The sizes a group of naturals of one rank may have as a meld of its
    /// own, up to `most`: from the fewest naturals a meld needs (at least
    /// one, by validation) to `most`; empty when `most` is fewer.
    pub fn natural_group_sizes(&self, most: u8) -> std::ops::RangeInclusive<u8> {
        self.min_naturals..=most
    }

    /// Most melds of a rank that `n` naturals can make: each needs
    /// [enough](Self::enough_naturals) of its own.
    pub fn most_melds_of(&self, n: u8) -> u8 {
        n / self.min_naturals
    }

    /// The ranks (bits of [`Rank::index`]) of which `hand` holds enough
    /// naturals to begin a meld.
    pub fn ranks_to_begin(&self, hand: &crate::card::CardCounts) -> u16 {
        hand.ranks_with_at_least(self.min_naturals) & self.rank_bits()
    }

    /// Black threes are melded, only when going out (P-CAN; never in
    /// P-CNE; where threes are an ordinary rank, they are not black threes).
    pub fn black_threes_meld_going_out(&self) -> bool {
        self.special_threes() && self.black_threes_meldable
    }

    /// `black` black threes may be melded now, as a meld of their own
    /// while going out: the rule allows it and they make a meld.
    pub fn black_threes_may_meld(&self, black: u8) -> bool {
        self.black_threes_meld_going_out() && self.long_enough(black)
    }

    /// A side has one wild meld for the hand (P-CNE, RG-ITA); elsewhere
    /// (P-PEN) it may begin another once the last is a canasta.
    pub fn one_wild_meld(&self) -> bool {
        self.wild_meld_reserves.one_wild_meld()
    }

    /// Twos are a rank of their own, the wild meld's (RG-ITA,
    /// [`WildMeldReserve::Twos`]): only twos are held back for it, and a
    /// joker is always a wild card.
    pub fn twos_are_a_rank(&self) -> bool {
        self.wild_meld_reserves == WildMeldReserve::Twos
    }

    /// What an unfinished wild meld may hold back, where the rules have wild
    /// melds at all: [`WildMeldReserve::Nothing`] where they have none.
    pub fn wild_meld_reserve(&self) -> WildMeldReserve {
        if self.wild_melds {
            self.wild_meld_reserves
        } else {
            WildMeldReserve::Nothing
        }
    }

    /// A wild meld of `len` cards holding `twos` twos keeps wild cards back
    /// from other melds: while short of a canasta, any such meld (P-CNE),
    /// or a meld of twos, one with a two in it (RG-ITA: "if you make a meld
    /// of all twos"); never where nothing is reserved (P-PEN).
    pub fn wild_meld_holds_back(&self, len: u8, twos: u8) -> bool {
        self.wild_meld_unfinished(len)
            && match self.wild_meld_reserves {
                WildMeldReserve::Nothing => false,
                WildMeldReserve::WildCards => true,
                WildMeldReserve::Twos => twos > 0,
            }
    }

    /// The rank whose canasta is a kind of its own (P-PEN: sevens).
    pub fn special_rank(&self) -> Option<Rank> {
        self.special_canasta_rank
    }

    /// `rank` is the [special rank](Self::special_rank) (`None`, wild cards
    /// only, never is).
    pub fn is_special_rank(&self, rank: Option<Rank>) -> bool {
        rank.is_some() && rank == self.special_canasta_rank
    }

    /// A natural card's rank names the one meld it can join: one meld a
    /// rank and no sequences. Where it does not (P-SAM: sequences, and
    /// further melds of a rank), a card in hand may end on one of several
    /// melds, so going out is searched rather than counted and the
    /// generator shares that search between its candidates.
    pub fn rank_names_the_meld(&self) -> bool {
        !self.sequences && self.one_meld_a_rank()
    }

    /// A meld of `len` cards is full and takes nothing more (P-PEN: 7).
    pub fn full(&self, len: u8) -> bool {
        self.max_meld_size.is_some_and(|cap| len >= cap)
    }

    /// Natural cards of one rank differ by suit (Samba: a sequence is of
    /// one suit, so a 9S is not a 9C). Elsewhere only the colour of threes
    /// matters, and the generator names one suit for cards it cannot tell apart.
    pub fn suits_matter(&self) -> bool {
        self.sequences_allowed()
    }

    /// Most cards a meld may hold.
    pub fn cap(&self) -> u8 {
        self.max_meld_size.unwrap_or(u8::MAX)
    }

    /// Most wild cards allowed with `naturals` natural cards.
    pub fn wild_capacity(&self, naturals: u8) -> u8 {
        let ratio_cap = match self.wild_ratio {
            WildRatio::Any => u8::MAX,
            WildRatio::NotMoreThanNaturals => naturals,
            WildRatio::FewerThanNaturals => naturals.saturating_sub(1),
            WildRatio::AtMostHalfNaturals => naturals / 2,
        };
        if naturals < self.min_naturals {
            0
        } else {
            self.max_wilds.min(ratio_cap)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::card::Rank;
    use crate::rules::{Rules, WildMeldReserve};

    fn preset(id: &str) -> Rules {
        Rules::preset(id, None, None).expect("a preset")
    }

    /// P-CAN: seven cards make a canasta; Canastia (S004): only once its
    /// owner closes it, and only then may it be closed.
    #[test]
    fn a_canasta_by_size_or_by_closing() {
        let classic = preset("classic");
        assert!(classic.melds.is_canasta_at(7, false));
        assert!(!classic.melds.is_canasta_at(6, false));
        assert!(!classic.melds.may_close(9));
        let canastia = preset("canastia");
        assert!(!canastia.melds.is_canasta_at(8, false));
        assert!(canastia.melds.is_canasta_at(7, true));
        assert!(canastia.melds.may_close(7) && !canastia.melds.may_close(6));
        // Wild cards join a seven-card meld not yet closed (Canastia), or a
        // canasta (P-CAN); never a canasta in P-CNE.
        assert!(canastia.melds.wilds_join_at_canasta_size());
        assert!(classic.melds.wilds_join_at_canasta_size());
        assert!(!preset("canastone").melds.wilds_join_at_canasta_size());
    }

    /// P-CAN: black threes only as a meld of three or four while going out;
    /// P-CNE: never; Canastia: threes are an ordinary rank, not black threes.
    #[test]
    fn black_threes_meld_when_the_rules_let_them() {
        let classic = preset("classic");
        assert!(classic.melds.black_threes_may_meld(3));
        assert!(!classic.melds.black_threes_may_meld(2));
        assert!(!preset("canastone").melds.black_threes_may_meld(4));
        assert!(!preset("canastia").melds.black_threes_meld_going_out());
    }

    /// P-CAN: two naturals at least; the sizes a rank's naturals may take
    /// as a meld run from there.
    #[test]
    fn enough_naturals_for_a_meld() {
        let classic = preset("classic");
        assert!(!classic.melds.enough_naturals(1) && classic.melds.enough_naturals(2));
        assert_eq!(classic.melds.naturals_needed(1), Some(2));
        assert_eq!(classic.melds.naturals_needed(5), None);
        assert_eq!(
            classic.melds.natural_group_sizes(4).collect::<Vec<_>>(),
            [2, 3, 4]
        );
        assert_eq!(classic.melds.natural_group_sizes(1).count(), 0);
        assert_eq!(classic.melds.most_melds_of(5), 2);
    }

    /// What a wild meld short of a canasta holds back: every wild card
    /// (P-CNE), twos from a meld with a two (RG-ITA), nothing (P-PEN).
    #[test]
    fn what_a_wild_meld_holds_back() {
        let canastone = preset("canastone");
        assert!(canastone.melds.one_wild_meld());
        assert_eq!(
            canastone.melds.wild_meld_reserve(),
            WildMeldReserve::WildCards
        );
        assert!(canastone.melds.wild_meld_holds_back(3, 0));
        assert!(!canastone.melds.wild_meld_holds_back(7, 3));
        let pennies = preset("pennies");
        assert!(!pennies.melds.one_wild_meld());
        assert!(!pennies.melds.wild_meld_holds_back(3, 3));
        assert_eq!(
            preset("classic").melds.wild_meld_reserve(),
            WildMeldReserve::Nothing
        );
        let mut spec = canastone.spec().clone();
        spec.melds.wild_meld_reserves = WildMeldReserve::Twos;
        let twos = Rules::new(spec).expect("valid");
        assert!(twos.melds.twos_are_a_rank());
        assert!(twos.melds.wild_meld_holds_back(3, 1));
        assert!(!twos.melds.wild_meld_holds_back(3, 0));
    }

    /// P-PEN: sevens are the rank whose canasta scores on its own.
    #[test]
    fn the_special_rank() {
        let pennies = preset("pennies");
        assert!(pennies.melds.is_special_rank(Some(Rank::Seven)));
        assert!(!pennies.melds.is_special_rank(None));
        assert!(!preset("classic").melds.is_special_rank(Some(Rank::Seven)));
    }

    /// P-CAN: melds of three or more, canastas of seven; Samba (P-SAM):
    /// sequences of three to seven, a samba at seven.
    #[test]
    fn the_lengths_of_melds_canastas_and_sequences() {
        let classic = preset("classic");
        assert_eq!(classic.melds.smallest_meld(), 3);
        assert!(classic.melds.long_enough(3) && !classic.melds.long_enough(2));
        assert_eq!(classic.melds.short_of_a_meld(1), 2);
        assert_eq!(classic.melds.short_of_a_meld(4), 0);
        assert_eq!(classic.melds.canasta_length(), 7);
        assert!(classic.melds.has_canasta_length(8) && !classic.melds.has_canasta_length(6));
        assert!(!classic.melds.sequences_allowed());
        assert!(!classic.melds.sequence_length_ok(4));
        let samba = preset("samba");
        assert!(samba.melds.sequences_allowed());
        assert!(samba.melds.sequence_length_ok(3) && samba.melds.sequence_length_ok(7));
        assert!(!samba.melds.sequence_length_ok(2) && !samba.melds.sequence_length_ok(8));
        assert!(samba.melds.is_samba(7) && !samba.melds.is_samba(6));
    }

    /// P-CNE: wild melds, one a side, growing to a canasta; P-PEN: sevens
    /// take no wild cards; P-CAN: neither.
    #[test]
    fn wild_melds_and_the_pure_rank() {
        let canastone = preset("canastone");
        assert!(canastone.melds.wild_melds_allowed());
        assert!(canastone.melds.wild_meld_unfinished(6));
        assert!(!canastone.melds.wild_meld_unfinished(7));
        assert_eq!(canastone.melds.wild_meld_cap(), 7);
        assert!(!preset("classic").melds.wild_melds_allowed());
        let pennies = preset("pennies");
        assert!(pennies.melds.is_pure_rank(Some(Rank::Seven)));
        assert!(!pennies.melds.is_pure_rank(None));
        assert_eq!(pennies.melds.wild_capacity_of(Some(Rank::Seven), 5), 0);
        assert!(!preset("classic").melds.is_pure_rank(Some(Rank::Seven)));
    }

    /// P-CAN: one meld a rank; P-SAM: several.
    #[test]
    fn one_meld_a_rank_or_several() {
        assert!(preset("classic").melds.one_meld_a_rank());
        assert!(!preset("samba").melds.one_meld_a_rank());
    }
}
