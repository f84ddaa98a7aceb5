//! A group: the cards of one rank (or only wild cards), or a sequence,
//! counted by face, and what the rules make of it (its kind, its points,
//! how many wild cards it may take).

use super::Meld;
use crate::card::{Card, CardCounts, Rank, Suit, byte_sum};
use crate::rules::{Rules, WildMeldReserve};
use std::fmt;

/// What a group is. A group of wild cards only is `Wild` until a natural
/// joins it; a rank group may hold wild cards too (and, while being built,
/// no natural yet: the wild cards an `add` puts on a rank meld are `Wild`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub enum GroupKind {
    /// Wild cards only (P-CNE, P-PEN wild melds; wild cards to add).
    #[default]
    Wild,
    /// Naturals of one rank, with any wild cards.
    Rank(Rank),
    /// A sequence (Samba): naturals of one suit in distinct ranks, four to
    /// ace; no wild cards.
    Sequence(Suit, RankSet),
}

/// A set of ranks, bit [`Rank::index`] each, kept in two bytes so that a
/// [`Group`] packs into 13 (actions hold up to seven groups, and lists of
/// actions are built millions of times a second).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct RankSet([u8; 2]);

impl RankSet {
    pub const fn from_bits(bits: u16) -> RankSet {
        RankSet(bits.to_le_bytes())
    }

    pub const fn bits(self) -> u16 {
        u16::from_le_bytes(self.0)
    }
}

/// Cards of one meld or one part of an action, counted by face: naturals
/// by suit, twos by suit, and jokers, with the [`GroupKind`] that says what
/// they form (for a sequence, `naturals` holds the card count in its suit's
/// slot).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Group {
    kind: GroupKind,
    pub naturals: [u8; 4],
    pub twos: [u8; 4],
    pub jokers: u8,
}

/// Cards meant as a sequence (their other naturals share one suit, each
/// rank once) that hold a card no sequence takes: the first such card, as
/// the error that names it; `None` where they are not a sequence at all.
fn sequence_intruder(cards: &[Card]) -> Option<GroupShapeError> {
    let mut suit = None;
    let mut run = 0u16;
    let mut intruder = None;
    for &c in cards {
        match c.rank() {
            None | Some(Rank::Two) => {
                intruder.get_or_insert(GroupShapeError::WildInSequence(c));
            }
            Some(Rank::Three) => {
                intruder.get_or_insert(GroupShapeError::ThreeInSequence(c));
            }
            Some(r) => {
                let s = c.suit()?;
                if *suit.get_or_insert(s) != s || run & (1 << r.index()) != 0 {
                    return None;
                }
                run |= 1 << r.index();
            }
        }
    }
    intruder
}

/// Why a list of cards is not a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroupShapeError {
    #[error("a group of no cards")]
    Empty,
    #[error("{} and {} in one group that is not a sequence", .0.plural(), .1.plural())]
    MixedRanks(Rank, Rank),
    /// Naturals of one suit, each rank once, with a wild card: meant as a
    /// sequence, which takes none (P-SAM, BIC-SAM).
    #[error("a wild card ({0}) in a sequence, which takes none")]
    WildInSequence(Card),
    /// The same with a three: a sequence runs from four up (BIC-SAM).
    #[error("a three ({0}) in a sequence, which runs from four up")]
    ThreeInSequence(Card),
}

impl Group {
    /// An empty group of naturals of `rank`.
    pub const fn of_rank(rank: Rank) -> Group {
        Group {
            kind: GroupKind::Rank(rank),
            naturals: [0; 4],
            twos: [0; 4],
            jokers: 0,
        }
    }

    /// A sequence of `suit` holding the ranks of the bit set `run`.
    pub fn sequence(suit: Suit, run: u16) -> Group {
        let mut naturals = [0; 4];
        naturals[suit as usize] = run.count_ones() as u8;
        Group {
            kind: GroupKind::Sequence(suit, RankSet::from_bits(run)),
            naturals,
            twos: [0; 4],
            jokers: 0,
        }
    }

    /// Wild cards only: twos by suit and jokers.
    pub const fn wild_cards(twos: [u8; 4], jokers: u8) -> Group {
        Group {
            kind: GroupKind::Wild,
            naturals: [0; 4],
            twos,
            jokers,
        }
    }

    /// What the group is.
    pub fn kind(&self) -> GroupKind {
        self.kind
    }

    /// The rank of a rank group.
    pub fn rank(&self) -> Option<Rank> {
        match self.kind {
            GroupKind::Rank(r) => Some(r),
            _ => None,
        }
    }

    /// A sequence's ranks (bits of [`Rank::index`]); 0 for other groups.
    pub fn sequence_ranks(&self) -> u16 {
        match self.kind {
            GroupKind::Sequence(_, run) => run.bits(),
            _ => 0,
        }
    }

    /// A sequence (Samba), not a group of one rank or of wild cards.
    pub fn is_sequence(&self) -> bool {
        matches!(self.kind, GroupKind::Sequence(..))
    }

    /// Wild cards only (P-CNE, P-PEN wild melds).
    pub fn is_wild_only(&self) -> bool {
        matches!(self.kind, GroupKind::Wild)
    }

    /// Every card of `self` is in `whole`, and both are the same kind of
    /// group (one rank, wild cards only, or a sequence of one suit).
    pub fn is_part_of(&self, whole: &Group) -> bool {
        let same_kind = match (self.kind, whole.kind) {
            (GroupKind::Sequence(a, _), GroupKind::Sequence(b, _)) => a == b,
            (GroupKind::Sequence(..), _) | (_, GroupKind::Sequence(..)) => false,
            (GroupKind::Wild, _) => true,
            (a, b) => a == b,
        };
        same_kind && whole.counts().contains_all(&self.counts())
    }

    /// A sequence's suit.
    pub fn run_suit(&self) -> Option<Suit> {
        match self.kind {
            GroupKind::Sequence(s, _) => Some(s),
            _ => None,
        }
    }

    /// A sequence's ranks are consecutive (no gap).
    pub fn run_is_consecutive(&self) -> bool {
        let run = self.sequence_ranks();
        let r = run >> run.trailing_zeros();
        r & (r + 1) == 0
    }

    /// Naturals of one suit in distinct ranks (four to ace), as a sequence;
    /// `None` if the cards are not that.
    fn sequence_from(cards: &[Card]) -> Option<Group> {
        let suit = cards.first()?.suit()?;
        let mut run = 0u16;
        for c in cards {
            let r = c.rank()?;
            if c.suit() != Some(suit) || r < Rank::Four || run & (1 << r.index()) != 0 {
                return None;
            }
            run |= 1 << r.index();
        }
        Some(Group::sequence(suit, run))
    }

    /// Sorts cards into a group; naturals must share one rank (a two counts
    /// as a wild card, never as a natural rank).
    pub fn from_cards(cards: &[Card]) -> Result<Group, GroupShapeError> {
        if cards.is_empty() {
            return Err(GroupShapeError::Empty);
        }
        let mut g = Group::default();
        for &c in cards {
            if let Err(other) = g.push(c) {
                // Naturals of one suit in several ranks: a sequence (Samba).
                return Group::sequence_from(cards).ok_or_else(|| {
                    sequence_intruder(cards).unwrap_or(GroupShapeError::MixedRanks(
                        g.rank().expect("a natural came first"),
                        other,
                    ))
                });
            }
        }
        Ok(g)
    }

    /// Adds a card; a natural of another rank is refused (returned as
    /// error), and so is any card to a sequence (see `push_to_run`).
    pub fn push(&mut self, c: Card) -> Result<(), Rank> {
        match c.rank() {
            None => self.jokers += 1,
            Some(Rank::Two) => self.twos[c.suit().unwrap() as usize] += 1,
            Some(r) => {
                match self.kind {
                    GroupKind::Wild => self.kind = GroupKind::Rank(r),
                    GroupKind::Rank(own) if own != r => return Err(r),
                    GroupKind::Sequence(..) => return Err(r),
                    GroupKind::Rank(_) => {}
                }
                self.naturals[c.suit().unwrap() as usize] += 1;
            }
        }
        Ok(())
    }

    /// Adds a natural to a sequence (its suit, a rank not in it yet); an
    /// empty group becomes a sequence of the card's suit.
    pub fn push_to_run(&mut self, c: Card) {
        let (Some(r), Some(s)) = (c.rank(), c.suit()) else {
            return;
        };
        let run = self.sequence_ranks() | 1 << r.index();
        let suit = self.run_suit().unwrap_or(s);
        self.kind = GroupKind::Sequence(suit, RankSet::from_bits(run));
        self.naturals[s as usize] += 1;
    }

    pub fn natural_count(&self) -> u8 {
        byte_sum(u32::from_ne_bytes(self.naturals))
    }

    pub fn two_count(&self) -> u8 {
        byte_sum(u32::from_ne_bytes(self.twos))
    }

    pub fn wild_count(&self) -> u8 {
        self.two_count() + self.jokers
    }

    /// Whether this meld, a wild meld short of a canasta, keeps wild cards
    /// back under `rules` ([`WildMeldReserve`]): any such meld (P-CNE), or
    /// a meld of twos, one with a two in it (RG-ITA: "if you make a meld of
    /// all twos"); a meld of jokers alone holds nothing back there.
    pub fn holds_wilds_back(&self, rules: &Rules) -> bool {
        self.is_wild_only()
            && rules
                .melds
                .wild_meld_holds_back(self.len(), self.two_count())
    }

    /// Whether the group holds a wild card that an unfinished wild meld
    /// keeps back from other melds ([`WildMeldReserve`]).
    pub fn holds_reserved(&self, reserve: WildMeldReserve) -> bool {
        (self.jokers > 0 && reserve.holds(true)) || (self.two_count() > 0 && reserve.holds(false))
    }

    pub fn len(&self) -> u8 {
        self.natural_count() + self.wild_count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A group of threes under the black-three rule (not where threes are
    /// an ordinary rank).
    pub fn is_black_threes(&self) -> bool {
        matches!(self.kind, GroupKind::Rank(Rank::Three))
    }

    /// Black threes that follow their special rule under `rules`.
    pub fn is_special_threes(&self, rules: &Rules) -> bool {
        self.is_black_threes() && rules.melds.special_threes()
    }

    /// Every card, naturals first (suit order; a sequence low to high),
    /// then twos, then jokers.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        let suit = self.run_suit();
        let run = self.sequence_ranks();
        let seq = suit.into_iter().flat_map(move |s| {
            Rank::ALL
                .into_iter()
                .filter(move |r| run & (1 << r.index()) != 0)
                .map(move |r| Card::new(r, s))
        });
        let nat = self.rank().into_iter().flat_map(move |r| {
            Suit::ALL.into_iter().flat_map(move |s| {
                std::iter::repeat_n(Card::new(r, s), self.naturals[s as usize] as usize)
            })
        });
        let twos = Suit::ALL.into_iter().flat_map(move |s| {
            std::iter::repeat_n(Card::new(Rank::Two, s), self.twos[s as usize] as usize)
        });
        seq.chain(nat)
            .chain(twos)
            .chain(std::iter::repeat_n(Card::JOKER, self.jokers as usize))
    }

    pub fn counts(&self) -> CardCounts {
        let mut c = CardCounts::new();
        self.add_to(&mut c);
        c
    }

    /// Adds the group's cards to a multiset.
    #[inline]
    pub fn add_to(&self, counts: &mut CardCounts) {
        match self.kind {
            GroupKind::Sequence(suit, run) => {
                let mut bits = run.bits();
                while bits != 0 {
                    counts.add(Card::new(
                        Rank::from_index(bits.trailing_zeros() as usize),
                        suit,
                    ));
                    bits &= bits - 1;
                }
            }
            GroupKind::Rank(rank) => counts.add_suits(rank, self.naturals),
            GroupKind::Wild => {}
        }
        if self.twos != [0; 4] {
            counts.add_suits(Rank::Two, self.twos);
        }
        if self.jokers > 0 {
            counts.add_n(Card::JOKER, self.jokers);
        }
    }

    /// Calls `f` with each face of the group and its count (none zero).
    #[inline]
    pub(crate) fn for_each_face(&self, mut f: impl FnMut(Card, u8)) {
        match self.kind {
            GroupKind::Sequence(suit, run) => {
                let mut bits = run.bits();
                while bits != 0 {
                    f(
                        Card::new(Rank::from_index(bits.trailing_zeros() as usize), suit),
                        1,
                    );
                    bits &= bits - 1;
                }
            }
            GroupKind::Rank(rank) => {
                for (suit, &n) in Suit::ALL.iter().zip(&self.naturals) {
                    if n > 0 {
                        f(Card::new(rank, *suit), n);
                    }
                }
            }
            GroupKind::Wild => {}
        }
        for (suit, &n) in Suit::ALL.iter().zip(&self.twos) {
            if n > 0 {
                f(Card::new(Rank::Two, *suit), n);
            }
        }
        if self.jokers > 0 {
            f(Card::JOKER, self.jokers);
        }
    }

    /// Adds every card of `other` (same rank, or `other` only wild; a
    /// sequence takes naturals of its suit).
    pub fn merge(&mut self, other: &Group) {
        if self.is_sequence() || other.is_sequence() {
            if !self.is_sequence() {
                let mine = *self;
                *self = Group::default();
                for c in mine.cards() {
                    self.push_to_run(c);
                }
            }
            for c in other.cards() {
                self.push_to_run(c);
            }
            return;
        }
        if matches!(self.kind, GroupKind::Wild) {
            self.kind = other.kind;
        }
        for i in 0..4 {
            self.naturals[i] += other.naturals[i];
            self.twos[i] += other.twos[i];
        }
        self.jokers += other.jokers;
    }

    /// Points toward an opening: the card values, plus the canasta bonus of
    /// a group long enough to be one where the rules count it (Canastia).
    pub fn opening_points(&self, rules: &Rules) -> i32 {
        let mut p = self.points(rules);
        if rules.opening.opening_counts_canasta_bonus
            && self.rank().is_some()
            && rules.melds.has_canasta_length(self.len())
        {
            p += Meld {
                cards: *self,
                closed: true,
            }
            .canasta_bonus(rules);
        }
        p
    }

    /// The cards of `self` that are not in `other` (which it contains).
    pub fn minus(&self, other: &Group) -> Group {
        if let GroupKind::Sequence(suit, run) = self.kind {
            let mut run = run.bits();
            let mut naturals = self.naturals;
            for c in other.cards() {
                if let (Some(r), Some(s)) = (c.rank(), c.suit())
                    && run & (1 << r.index()) != 0
                {
                    run &= !(1 << r.index());
                    naturals[s as usize] -= 1;
                }
            }
            let mut g = Group::sequence(suit, run);
            g.naturals = naturals;
            return g;
        }
        let mut g = *self;
        for i in 0..4 {
            g.naturals[i] -= other.naturals[i];
            g.twos[i] -= other.twos[i];
        }
        g.jokers -= other.jokers;
        if g.is_empty() {
            g.kind = GroupKind::Wild;
        }
        g
    }

    /// Point value of the cards.
    pub fn points(&self, rules: &Rules) -> i32 {
        let v = &rules.scoring.card_values;
        if self.is_sequence() {
            return self.cards().map(|c| v.of(c)).sum();
        }
        // Every natural in a group shares its rank, and values never depend
        // on suit (the only threes ever grouped are black).
        let naturals = self.rank().map_or(0, |r| {
            let face = if r == Rank::Three {
                Card::new(r, Suit::Spades)
            } else {
                Card::new(r, Suit::Hearts)
            };
            v.of(face) * self.natural_count() as i32
        });
        naturals + v.two * self.two_count() as i32 + v.joker * self.jokers as i32
    }

    /// The group with suits forgotten where the rules cannot tell suits
    /// apart: every natural in the first suit slot, every two likewise.
    /// Black threes are the only threes ever grouped, so they fold too.
    pub fn class_key(&self) -> Group {
        if self.is_sequence() {
            // A sequence's suit is part of what it is.
            return *self;
        }
        Group {
            kind: self.kind,
            naturals: [self.natural_count(), 0, 0, 0],
            twos: [self.two_count(), 0, 0, 0],
            jokers: self.jokers,
        }
    }
}

/// The cards one by one, in the formatter's [`CardStyle`](crate::card::CardStyle).
impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = crate::card::CardStyle::of(f);
        let mut first = true;
        for c in self.cards() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{}", style.show(c))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardCounts;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    /// `for_each_face` walks the cards `add_to` counts (two walks kept
    /// apart for speed: counting adds a rank's suits at once).
    #[test]
    fn faces_walked_are_the_cards_counted() {
        for text in [
            "KS KH KH 2C 2D JK JK",
            "4H 5H 6H 7H",
            "2S 2S JK",
            "3S 3C 3C",
        ] {
            let g = Group::from_cards(&cards(text)).unwrap();
            let mut walked = CardCounts::new();
            g.for_each_face(|c, n| walked.add_n(c, n));
            assert_eq!(walked, g.counts(), "{text}");
        }
    }

    #[test]
    fn groups_sort_cards_and_refuse_mixed_ranks() {
        let g = Group::from_cards(&cards("KS KH 2C JK")).unwrap();
        assert_eq!(g.rank(), Some(Rank::King));
        assert_eq!((g.natural_count(), g.two_count(), g.jokers), (2, 1, 1));
        assert_eq!(g.to_string(), "KS KH 2C JK");
        assert_eq!(
            Group::from_cards(&cards("KS QH")),
            Err(GroupShapeError::MixedRanks(Rank::King, Rank::Queen))
        );
        assert_eq!(Group::from_cards(&cards("2C JK")).unwrap().rank(), None);
        // Meant as sequences: the card no sequence takes is named.
        assert_eq!(
            Group::from_cards(&cards("3S 4S 5S")),
            Err(GroupShapeError::ThreeInSequence(cards("3S")[0]))
        );
        assert_eq!(
            Group::from_cards(&cards("4S 5S 2C 7S")),
            Err(GroupShapeError::WildInSequence(cards("2C")[0]))
        );
        // Not one suit, or a rank twice: not meant as a sequence.
        assert_eq!(
            Group::from_cards(&cards("4S 5H 2C")),
            Err(GroupShapeError::MixedRanks(Rank::Four, Rank::Five))
        );
        assert_eq!(
            Group::from_cards(&cards("4S 4S 5S JK")),
            Err(GroupShapeError::MixedRanks(Rank::Four, Rank::Five))
        );
    }

    #[test]
    fn byte_sum_adds_the_four_counts() {
        // Every split of up to 216 cards (the largest deck) over four
        // suits in steps that reach each byte's extremes.
        for a in (0u16..=216).step_by(9) {
            for b in (0..=216 - a).step_by(13) {
                for c in (0..=216 - a - b).step_by(17) {
                    let d = 216 - a - b - c;
                    for counts in [[a, b, c, d], [d, c, b, a], [a, 0, 0, 0], [0, 0, 0, d]] {
                        let bytes = counts.map(|x| x as u8);
                        let sum: u16 = counts.iter().sum();
                        assert_eq!(
                            u16::from(byte_sum(u32::from_ne_bytes(bytes))),
                            sum,
                            "{counts:?}"
                        );
                    }
                }
            }
        }
    }
}
