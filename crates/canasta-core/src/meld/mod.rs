//! Groups of cards laid together, and melds on the table.
//!
//! A [`Group`] (`group.rs`) is the cards of one rank (or only wild cards)
//! counted by face: small, `Copy`, and able to hold any number of cards, so
//! that actions and melds never allocate. A [`Meld`] is a group on the
//! table, and what kind of canasta it is.

use crate::card::Rank;
use crate::rules::{KindCounts, Rules};

/// Most melds one side can have on the table: an engine limit, far above
/// real play (eleven ranks, and in Samba several groups of a rank and
/// sequences); the generator offers no new meld past it, and a record that
/// goes past it is refused (`TooManyMelds`).
pub const MAX_MELDS: usize = 32;

crate::seat::table_number!(
    /// One of a side's melds, numbered in the order they were laid (the
    /// number `add 2 ...` names in notation): an index into the side's
    /// list of melds.
    MeldId,
    "meld"
);

mod choices;
mod group;
mod placement;
pub use choices::{NaturalChoices, natural_choices, pick_black_threes, pick_naturals};
pub use group::{Group, GroupKind, GroupShapeError, RankSet};
pub(crate) use placement::{extends_run, lay_target, wild_room};

/// The kind of a completed canasta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CanastaKind {
    /// No wild cards (red on top; "clean", "pure").
    Natural,
    /// With wild cards (black on top; "dirty").
    Mixed,
}

impl CanastaKind {
    /// The kind of a canasta of wild cards only: natural (clean) when it is
    /// all twos, or holds six jokers and at most one two (P-CNE); mixed
    /// otherwise. The meld and the going-out counting both ask this.
    #[inline]
    pub fn of_wild_cards(jokers: u8, twos: u8) -> CanastaKind {
        if jokers == 0 || (jokers >= 6 && twos <= 1) {
            CanastaKind::Natural
        } else {
            CanastaKind::Mixed
        }
    }
}

/// The kinds of canasta that going-out requirements count separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoOutKind {
    Clean,
    Dirty,
    /// Of wild cards only, where that is a kind of its own (P-PEN).
    Wild,
    /// Of the special rank (P-PEN: sevens).
    Special,
}

impl GoOutKind {
    /// The kind of a canasta of `rank` (`None`: wild cards only) that is
    /// natural or mixed by its cards.
    pub fn of(rules: &Rules, rank: Option<Rank>, kind: CanastaKind) -> GoOutKind {
        match rank {
            None if rules.going_out.wild_canasta_is_a_kind() => GoOutKind::Wild,
            r if rules.melds.is_special_rank(r) => GoOutKind::Special,
            _ if kind == CanastaKind::Natural => GoOutKind::Clean,
            _ => GoOutKind::Dirty,
        }
    }
}

impl KindCounts {
    pub fn add(&mut self, kind: GoOutKind) {
        match kind {
            GoOutKind::Clean => self.clean += 1,
            GoOutKind::Dirty => self.dirty += 1,
            GoOutKind::Wild => self.wild += 1,
            GoOutKind::Special => self.special += 1,
        }
    }

    /// Enough canastas, in all and of each kind, to go out.
    pub fn meet(&self, rules: &Rules, need_total: u8) -> bool {
        self.total() >= need_total && rules.going_out.kinds_met(self)
    }
}

/// A meld on the table, owned by a side (a team, or one seat).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Meld {
    pub cards: Group,
    /// Closed as a canasta by the player's choice (Canastia); nothing more
    /// may be added. Unused where a canasta is simply seven cards.
    pub closed: bool,
}

impl Meld {
    pub fn canasta(&self, rules: &Rules) -> Option<CanastaKind> {
        if !self.is_canasta(rules) {
            None
        } else if self.cards.is_sequence() {
            // A samba: seven naturals in sequence.
            Some(CanastaKind::Natural)
        } else if self.cards.is_wild_only() {
            Some(CanastaKind::of_wild_cards(
                self.cards.jokers,
                self.cards.two_count(),
            ))
        } else if self.cards.wild_count() == 0 {
            Some(CanastaKind::Natural)
        } else {
            Some(CanastaKind::Mixed)
        }
    }

    /// The canasta bonus this meld earns, by kind and rank.
    pub fn canasta_bonus(&self, rules: &Rules) -> i32 {
        self.canasta(rules)
            .map_or(0, |kind| self.bonus_as(rules, kind))
    }

    /// The bonus of this meld as a canasta of `kind` (what
    /// [`Meld::canasta`] says it is), for callers that already know it.
    pub(crate) fn bonus_as(&self, rules: &Rules, kind: CanastaKind) -> i32 {
        if self.cards.is_sequence() {
            return rules.scoring.samba_bonus;
        }
        match (self.cards.rank(), kind) {
            (None, _) if self.cards.jokers == 0 => rules.scoring.twos_canasta_bonus,
            (None, CanastaKind::Natural) => rules.scoring.jokers_canasta_bonus,
            (None, CanastaKind::Mixed) => rules.scoring.wild_canasta_bonus,
            (r, CanastaKind::Natural) if rules.melds.is_special_rank(r) => {
                rules.scoring.special_canasta_bonus
            }
            (Some(Rank::Ace), CanastaKind::Natural) => rules.scoring.natural_ace_canasta_bonus,
            (Some(Rank::Ace), CanastaKind::Mixed) => rules.scoring.mixed_ace_canasta_bonus,
            (_, CanastaKind::Natural) => rules.scoring.natural_canasta_bonus,
            (_, CanastaKind::Mixed) => rules.scoring.mixed_canasta_bonus,
        }
    }

    /// What players call this canasta, if it is one: `samba` (a run),
    /// `wild`, the plural of the rank that scores on its own (Pennies'
    /// `sevens`), else `natural` or `mixed`. Every screen names canastas
    /// with this.
    pub fn canasta_name(&self, rules: &Rules) -> Option<&'static str> {
        let kind = self.canasta(rules)?;
        Some(match self.cards.kind() {
            GroupKind::Sequence(..) => "samba",
            GroupKind::Wild => "wild",
            GroupKind::Rank(r)
                if rules.melds.is_special_rank(Some(r)) && kind == CanastaKind::Natural =>
            {
                r.plural()
            }
            GroupKind::Rank(_) => match kind {
                CanastaKind::Natural => "natural",
                CanastaKind::Mixed => "mixed",
            },
        })
    }

    /// Which of the going-out kinds this canasta is, if it is one.
    pub fn going_out_kind(&self, rules: &Rules) -> Option<GoOutKind> {
        Some(self.going_out_kind_as(rules, self.canasta(rules)?))
    }

    /// The going-out kind of this meld as a canasta of `kind`.
    pub(crate) fn going_out_kind_as(&self, rules: &Rules, kind: CanastaKind) -> GoOutKind {
        if self.cards.is_sequence() {
            // A samba counts as a clean canasta wherever kinds are asked for.
            return GoOutKind::Clean;
        }
        GoOutKind::of(rules, self.cards.rank(), kind)
    }

    /// Full where melds are capped (P-PEN): it takes nothing more. Cheap
    /// where they are not (the common case in hot loops).
    pub fn is_full(&self, rules: &Rules) -> bool {
        rules.melds.full(self.cards.len())
    }

    /// A canasta (of whatever kind): asked for every meld of every list,
    /// so without working out the kind.
    #[inline]
    pub fn is_canasta(&self, rules: &Rules) -> bool {
        !self.cards.is_special_threes(rules)
            && rules.melds.is_canasta_at(self.cards.len(), self.closed)
    }

    pub fn rank(&self) -> Option<Rank> {
        self.cards.rank()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    #[test]
    fn canasta_kinds() {
        let r = Rules::classic();
        let natural = Meld {
            cards: Group::from_cards(&cards("KS KS KH KH KD KD KC")).unwrap(),
            closed: false,
        };
        let mixed = Meld {
            cards: Group::from_cards(&cards("KS KS KH KH 2D 2D JK")).unwrap(),
            closed: false,
        };
        let short = Meld {
            cards: Group::from_cards(&cards("KS KS KH KH 2D JK")).unwrap(),
            closed: false,
        };
        assert_eq!(natural.canasta(&r), Some(CanastaKind::Natural));
        assert_eq!(mixed.canasta(&r), Some(CanastaKind::Mixed));
        assert_eq!(short.canasta(&r), None);
        assert_eq!(natural.cards.points(&r), 70);
        assert_eq!(mixed.cards.points(&r), 40 + 40 + 50);
    }

    /// P-CNE: a canasta of wild cards only is clean when all twos, or with
    /// six jokers and at most one two.
    #[test]
    fn wild_canastas_clean_and_dirty() {
        use CanastaKind::{Mixed, Natural};
        assert_eq!(CanastaKind::of_wild_cards(0, 7), Natural);
        assert_eq!(CanastaKind::of_wild_cards(6, 1), Natural);
        assert_eq!(CanastaKind::of_wild_cards(7, 0), Natural);
        assert_eq!(CanastaKind::of_wild_cards(6, 2), Mixed);
        assert_eq!(CanastaKind::of_wild_cards(5, 2), Mixed);
        assert_eq!(CanastaKind::of_wild_cards(1, 6), Mixed);
    }
}
