//! The kinds of value a rule field takes: how wild cards may mix, when red
//! threes count, how the stock ends a hand, card values, the opening table.
//! [`Rules`](super::Rules) holds them; each names its sources.

use crate::card::{Card, Rank};
use serde::{Deserialize, Serialize};
/// How many wild cards a meld may hold relative to its naturals (P-CAN, S003, S002).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WildRatio {
    /// Only `min_naturals` and `max_wilds` apply (pagat: Q-Q-2-2-2 is legal).
    Any,
    /// Wilds may not outnumber naturals (S003, the Viennese package).
    NotMoreThanNaturals,
    /// Wilds must be fewer than naturals (S002's Hoyle wording; Canastia).
    FewerThanNaturals,
    /// Naturals at least twice the wild cards (P-SAM: a group of four may
    /// not be 2 + 2, nor one of five 3 + 2).
    AtMostHalfNaturals,
}

/// When a team's red threes count against it (P-CAN vs S003).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedThreePenalty {
    /// Minus when the team has melded nothing at all (pagat, S001).
    NoMeld,
    /// Minus when the team has no canasta (S003, Viennese).
    NoCanasta,
    /// Minus unless the team has the canastas it needs to go out (P-SAM,
    /// BIC-SAM: two canastas or sambas).
    BelowGoingOut,
}

/// When red threes dealt to a player are laid out (P-CAN vs S002).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedThreeTiming {
    /// At once after the deal, in seat order from the dealer's left (pagat).
    AfterDeal,
    /// At once after the deal, before the upcard is turned, so the upcard
    /// and its packet come off the stock after the replacements (RG-ITA,
    /// HSW-ITA, S002: "the upcard on the stock is revealed only after all
    /// players have discarded any red 3s they were dealt").
    BeforeUpcard,
    /// On the player's own first turn, before drawing (S002, Hoyle wording).
    FirstTurn,
}

/// What a side's wild meld holds back while it is short of a canasta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WildMeldReserve {
    /// Nothing: wild cards go anywhere, and a new wild meld may begin once
    /// the last is a canasta (P-PEN).
    Nothing,
    /// Every wild card: none goes on another meld or on the pile, and the
    /// side has one wild meld (P-CNE).
    WildCards,
    /// Twos: none goes on another meld as a wild card; jokers go anywhere
    /// and twos may be discarded; the side has one wild meld (RG-ITA: "if
    /// you make a meld of all twos, you cannot use any other twos as
    /// wildcards until the canasta of twos is completed"). Twos alone are a
    /// rank of their own there, so only they make a clean wild meld for an
    /// opening; a joker is always a wild card.
    Twos,
}

impl WildMeldReserve {
    /// Whether a wild card of this kind is held back (`joker`: a joker,
    /// else a two).
    pub const fn holds(self, joker: bool) -> bool {
        match self {
            WildMeldReserve::Nothing => false,
            WildMeldReserve::WildCards => true,
            WildMeldReserve::Twos => !joker,
        }
    }

    /// Whether wild cards are kept off the pile too (P-CNE).
    pub const fn holds_discards(self) -> bool {
        matches!(self, WildMeldReserve::WildCards)
    }

    /// Whether the side has a single wild meld (P-CNE, RG-ITA); P-PEN
    /// begins another once the last is a canasta.
    pub const fn one_wild_meld(self) -> bool {
        !matches!(self, WildMeldReserve::Nothing)
    }
}

/// What ends a hand when the stock runs low.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockEnd {
    /// P-CAN: play goes on while players take the pile; a player who must
    /// take a matching unfrozen pile does so; drawing from the empty stock ends
    /// the hand.
    TakePile,
    /// P-CNE: the hand ends when a turn begins with fewer cards in the stock
    /// than a draw takes.
    ShortStock,
    /// Canastia (S004): the hand ends the moment a draw empties the stock,
    /// before the player who drew can meld.
    Emptied,
}

/// How face-down cards are put under the upcard (P-CNE's packet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PilePacket {
    None,
    /// As many cards as the natural upcard's rank: 4-10 as numbered, J 11,
    /// Q 12, K 13, A 14 (P-CNE).
    ByRank,
}

/// How red threes score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedThreeScoring {
    /// `red_three_values` by count, minus under `red_three_penalty` (P-CAN).
    Table,
    /// P-CNE: 100 each; plus with a clean and a dirty canasta, nothing with
    /// clean only, minus with dirty only, minus doubled with no canasta; four
    /// or more doubled again.
    Canastone,
    /// P-PEN: `red_three_values` by count when the side has a canasta of the
    /// special rank (sevens), the same amount minus otherwise.
    NeedsSpecialCanasta,
}

/// When cards of the special rank (P-PEN: sevens) may be discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialDiscard {
    /// Like any other card.
    Free,
    /// Only once every side has a canasta of that rank, and never as the
    /// last discard (P-PEN, BIC-PEN, RG-PEN).
    UntilEverySide,
    /// Only once the player's own side has one, and never as the last
    /// discard (S002, HSW-PEN).
    UntilOwnSide,
}

/// When an opening must be of clean melds only (no wild card with
/// naturals), by the minimum it has to meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CleanOpening {
    /// Dirty melds may open (P-CAN).
    Never,
    /// Clean only while the minimum is at most this (P-CNE: 50).
    UpTo(i32),
    /// Clean always (US Italian; P-CNE's house rule 1).
    Always,
}

/// A bonus for many canastas (P-CNE: five with a clean and a dirty, 1000;
/// five clean and a dirty, 2000). The best row a side meets applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManyCanastas {
    pub canastas: u8,
    pub clean: u8,
    pub dirty: u8,
    pub bonus: i32,
}

/// One row of the opening-minimum table: from this cumulative score up, the
/// first meld must be worth at least `need` points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningStep {
    /// Lowest cumulative score of the row; `null` means no lower bound.
    pub from: Option<i32>,
    pub need: i32,
}

/// Point values of cards, melded (plus) or left in hand (minus), by rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardValues {
    pub joker: i32,
    pub two: i32,
    pub black_three: i32,
    pub four: i32,
    pub five: i32,
    pub six: i32,
    pub seven: i32,
    pub eight: i32,
    pub nine: i32,
    pub ten: i32,
    pub jack: i32,
    pub queen: i32,
    pub king: i32,
    pub ace: i32,
}

impl CardValues {
    /// P-CAN, S001, S003: joker 50; A and 2 = 20; K-8 = 10; 7-4 = 5; black 3 = 5.
    pub const CLASSIC: CardValues = CardValues {
        joker: 50,
        two: 20,
        black_three: 5,
        four: 5,
        five: 5,
        six: 5,
        seven: 5,
        eight: 10,
        nine: 10,
        ten: 10,
        jack: 10,
        queen: 10,
        king: 10,
        ace: 20,
    };

    /// The value of a card; red threes are bonus cards and worth nothing here.
    pub fn of(&self, card: Card) -> i32 {
        match card.rank() {
            None => self.joker,
            Some(Rank::Two) => self.two,
            Some(Rank::Three) if card.is_black_three() => self.black_three,
            Some(Rank::Three) => 0,
            Some(Rank::Four) => self.four,
            Some(Rank::Five) => self.five,
            Some(Rank::Six) => self.six,
            Some(Rank::Seven) => self.seven,
            Some(Rank::Eight) => self.eight,
            Some(Rank::Nine) => self.nine,
            Some(Rank::Ten) => self.ten,
            Some(Rank::Jack) => self.jack,
            Some(Rank::Queen) => self.queen,
            Some(Rank::King) => self.king,
            Some(Rank::Ace) => self.ace,
        }
    }

    /// Table indexed by face, for hot loops.
    pub fn table(&self) -> [i32; crate::card::FACES] {
        let mut t = [0; crate::card::FACES];
        for c in Card::all() {
            t[c.index()] = self.of(c);
        }
        t
    }
}
