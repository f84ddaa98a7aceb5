//! Cards as faces: a rank and a suit, or a joker. Decks are mixed, so the
//! engine never tracks physical copies; a hand is a multiset of faces.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A suit. Only colour matters in most variants (red threes, black threes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    /// The suit as printed on a card: `♠`, `♥`, `♦`, `♣`.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        }
    }

    /// The suit in words: "a sequence of hearts".
    pub const fn plural(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }
}

/// A rank of a natural card (two up to ace; the joker is not a rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Two = 2,
    Three = 3,
    Four = 4,
    Five = 5,
    Six = 6,
    Seven = 7,
    Eight = 8,
    Nine = 9,
    Ten = 10,
    Jack = 11,
    Queen = 12,
    King = 13,
    Ace = 14,
}

impl Rank {
    /// Every rank, two to ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// Threes to aces: the meld ranks where threes are ordinary (Canastia).
    pub const THREE_TO_ACE: [Rank; 12] = Rank::from(1);

    /// The ranks that form ordinary melds: four to ace.
    pub const MELDABLE: [Rank; 11] = Rank::from(2);

    /// [`Rank::THREE_TO_ACE`] as bits of [`Rank::index`].
    pub const THREE_TO_ACE_BITS: u16 = Rank::bits(&Rank::THREE_TO_ACE);

    /// [`Rank::MELDABLE`] as bits of [`Rank::index`].
    pub const MELDABLE_BITS: u16 = Rank::bits(&Rank::MELDABLE);

    const fn bits(ranks: &[Rank]) -> u16 {
        let mut mask = 0;
        let mut i = 0;
        while i < ranks.len() {
            mask |= 1 << ranks[i].index();
            i += 1;
        }
        mask
    }

    /// The last `N` ranks of [`Rank::ALL`], starting at index `skip`.
    const fn from<const N: usize>(skip: usize) -> [Rank; N] {
        let mut out = [Rank::Two; N];
        let mut i = 0;
        while i < N {
            out[i] = Rank::ALL[skip + i];
            i += 1;
        }
        out
    }

    pub const fn index(self) -> usize {
        self as usize - 2
    }

    pub const fn from_index(i: usize) -> Rank {
        Rank::ALL[i]
    }

    pub const fn letter(self) -> char {
        match self {
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    /// The rank as printed in a card's corner: `10` where notation writes
    /// `T`, the letter or digit otherwise.
    pub const fn index_text(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// The rank in words, as players say it of a meld: "a meld of kings".
    pub const fn plural(self) -> &'static str {
        match self {
            Rank::Two => "twos",
            Rank::Three => "threes",
            Rank::Four => "fours",
            Rank::Five => "fives",
            Rank::Six => "sixes",
            Rank::Seven => "sevens",
            Rank::Eight => "eights",
            Rank::Nine => "nines",
            Rank::Ten => "tens",
            Rank::Jack => "jacks",
            Rank::Queen => "queens",
            Rank::King => "kings",
            Rank::Ace => "aces",
        }
    }

    pub fn from_letter(c: char) -> Option<Rank> {
        Some(match c.to_ascii_uppercase() {
            'A' => Rank::Ace,
            '2' => Rank::Two,
            '3' => Rank::Three,
            '4' => Rank::Four,
            '5' => Rank::Five,
            '6' => Rank::Six,
            '7' => Rank::Seven,
            '8' => Rank::Eight,
            '9' => Rank::Nine,
            'T' => Rank::Ten,
            'J' => Rank::Jack,
            'Q' => Rank::Queen,
            'K' => Rank::King,
            _ => return None,
        })
    }
}

/// Number of distinct faces: 52 naturals and the joker.
pub const FACES: usize = 53;

/// Most copies of one natural face or of the joker in any preset's deck
/// (Pennies from Heaven: four packs and eight jokers); a test keeps these
/// equal to the presets. More in one action cannot be cards in a hand.
pub const MAX_COPIES_OF_A_FACE: u8 = 4;
pub const MAX_JOKERS: u8 = 8;

/// One face: a natural card (rank and suit) or a joker. One byte, `Copy`.
///
/// Faces are numbered `(rank - 2) * 4 + suit`, the joker is 52, so that all
/// cards of one rank are adjacent and a hand can be scanned rank by rank.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// The two of spades; only a filler for fixed-size storage.
impl Default for Card {
    fn default() -> Card {
        Card(0)
    }
}

impl Card {
    pub const JOKER: Card = Card(52);

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((rank.index() * 4 + suit as usize) as u8)
    }

    pub const fn from_index(i: usize) -> Card {
        debug_assert!(i < FACES);
        Card(i as u8)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// The rank, or `None` for the joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Some(Rank::from_index(self.0 as usize / 4))
        }
    }

    /// The suit, or `None` for the joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index(self.0 as usize))
        }
    }

    /// Jokers and twos are wild in every variant of the source documents.
    pub const fn is_wild(self) -> bool {
        self.is_joker() || self.0 < 4
    }

    pub const fn is_two(self) -> bool {
        self.0 < 4
    }

    pub const fn is_three(self) -> bool {
        self.0 >= 4 && self.0 < 8
    }

    pub const fn is_red_three(self) -> bool {
        self.0 == 5 || self.0 == 6
    }

    pub const fn is_black_three(self) -> bool {
        self.0 == 4 || self.0 == 7
    }

    /// A natural card of rank four to ace: the cards that form ordinary melds.
    pub const fn is_plain_natural(self) -> bool {
        self.0 >= 8 && self.0 < 52
    }

    /// Every face in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..FACES).map(Card::from_index)
    }
}

/// A card in record notation (`7D`, `TH`, `JK`: what records, actions and
/// `canasta check` read), or with the alternate flag (`{:#}`) as drawn on
/// its face for a player (`7♦`, `10♥`, `Joker`). Messages that name cards
/// pass the flag through to them (see [`CardStyle`]).
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit(), f.alternate()) {
            (Some(r), Some(s), false) => write!(f, "{}{}", r.letter(), s.letter()),
            (Some(r), Some(s), true) => write!(f, "{}{}", r.index_text(), s.symbol()),
            (_, _, false) => f.write_str("JK"),
            (_, _, true) => f.write_str("Joker"),
        }
    }
}

/// How a message names cards: in record notation (the terminal, `canasta
/// check`, records) or as drawn on their faces (the browser). A message is
/// written once, as a [`fmt::Display`] that reads its style from the
/// alternate flag (`{}` notation, `{:#}` drawn) and hands it on to every
/// card, group and meld it names; code that builds text from parts keeps
/// a `CardStyle` and shows each part with [`CardStyle::show`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CardStyle {
    /// `7D`, `TH`, `JK`, `meld 2`.
    #[default]
    Notation,
    /// `7♦`, `10♥`, `Joker`, "your meld of sevens".
    Drawn,
}

impl CardStyle {
    /// The style a formatter asks for: drawn under the alternate flag.
    pub fn of(f: &fmt::Formatter<'_>) -> CardStyle {
        if f.alternate() {
            CardStyle::Drawn
        } else {
            CardStyle::Notation
        }
    }

    /// `thing` written in this style.
    pub fn show<T: fmt::Display>(self, thing: T) -> Styled<T> {
        Styled(thing, self)
    }
}

/// A value shown in a [`CardStyle`] ([`CardStyle::show`]).
#[derive(Clone, Copy, Debug)]
pub struct Styled<T>(T, CardStyle);

impl<T: fmt::Display> fmt::Display for Styled<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            CardStyle::Notation => write!(f, "{}", self.0),
            CardStyle::Drawn => write!(f, "{:#}", self.0),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card text that is not a card.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown card `{0}` (expected rank A 2-9 T J Q K then suit S H D C, or JK)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let mut chars = s.chars();
        let (Some(a), Some(b), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(err());
        };
        if a.eq_ignore_ascii_case(&'J') && b.eq_ignore_ascii_case(&'K') {
            return Ok(Card::JOKER);
        }
        let rank = Rank::from_letter(a).ok_or_else(err)?;
        let suit = match b.to_ascii_uppercase() {
            'S' => Suit::Spades,
            'H' => Suit::Hearts,
            'D' => Suit::Diamonds,
            'C' => Suit::Clubs,
            _ => return Err(err()),
        };
        Ok(Card::new(rank, suit))
    }
}

/// A rank is written as its letter (`"7"`, `"T"`, `"A"`), as in card names.
impl Serialize for Rank {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.letter().to_string())
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Rank::from_letter(c),
            _ => None,
        }
        .ok_or_else(|| {
            serde::de::Error::custom(format!("unknown rank `{text}` (2-9, T, J, Q, K, A)"))
        })
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The sum of the four bytes of `word` in one multiplication: the top
/// byte of the product adds them all, exactly while they total under 256
/// (a rank's suit counts, a group's naturals or twos by suit: a handful of
/// cards). Hands and groups are counted this way at every step of search.
#[inline]
pub(crate) fn byte_sum(word: u32) -> u8 {
    (word.wrapping_mul(0x0101_0101) >> 24) as u8
}

mod classes;
mod counts;
mod packed;
pub(crate) use classes::{for_each_choice, for_each_class, wild_classes};
pub use counts::CardCounts;
pub(crate) use packed::PackedCounts;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_round_trips_through_text() {
        for card in Card::all() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>().unwrap(), card);
            assert_eq!(text.to_lowercase().parse::<Card>().unwrap(), card);
        }
    }

    #[test]
    fn classes_of_threes_and_wilds() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        assert!(c("3H").is_red_three() && c("3D").is_red_three());
        assert!(c("3S").is_black_three() && c("3C").is_black_three());
        assert!(c("2C").is_wild() && c("JK").is_wild() && !c("AS").is_wild());
        assert!(c("4S").is_plain_natural() && c("AC").is_plain_natural());
        assert!(!c("3S").is_plain_natural() && !c("2S").is_plain_natural());
    }

    #[test]
    fn bad_cards_are_rejected_with_their_text() {
        for bad in ["", "1S", "KX", "JOKER", "10H", "K"] {
            let err = bad.parse::<Card>().unwrap_err();
            assert!(err.to_string().contains(bad));
        }
    }

    /// The limits are the presets' own.
    #[test]
    fn copy_limits_match_the_largest_deck() {
        let (mut face, mut jokers) = (0, 0);
        for rules in crate::rules::all_forms() {
            let deck = rules.deal.deck();
            jokers = jokers.max(deck.count(Card::JOKER));
            face = face.max(
                deck.faces()
                    .filter(|(c, _)| !c.is_joker())
                    .map(|(_, n)| n)
                    .max()
                    .unwrap_or(0),
            );
        }
        assert_eq!((face, jokers), (MAX_COPIES_OF_A_FACE, MAX_JOKERS));
    }
}
