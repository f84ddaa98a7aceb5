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

    /// Most wild cards a meld of `rank` (`None`: wild cards only) may hold
    /// with `naturals` naturals: none in a meld of the pure rank.
    pub fn wild_capacity_of(&self, rank: Option<Rank>, naturals: u8) -> u8 {
        if rank.is_some() && rank == self.pure_rank {
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

    /// A natural card's rank names the one meld it can join: one meld a
    /// rank and no sequences. Where it does not (P-SAM: sequences, and
    /// further melds of a rank), a card in hand may end on one of several
    /// melds, so going out is searched rather than counted and the
    /// generator shares that search between its candidates.
    pub fn rank_names_the_meld(&self) -> bool {
        !self.sequences && !self.several_melds_per_rank
    }

    /// A meld of `len` cards is full and takes nothing more (P-PEN: 7).
    pub fn full(&self, len: u8) -> bool {
        self.max_meld_size.is_some_and(|cap| len >= cap)
    }

    /// Natural cards of one rank differ by suit (Samba: a sequence is of
    /// one suit, so a 9S is not a 9C). Elsewhere only the colour of threes
    /// matters, and the generator names one suit for cards it cannot tell apart.
    pub fn suits_matter(&self) -> bool {
        self.sequences
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
