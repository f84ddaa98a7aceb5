//! A hand as players hold it: naturals grouped by rank (or by suit, for
//! Samba's runs) with the wild cards apart, and the hand in one line.

use canasta_core::{Card, CardCounts};

/// How the hand is sorted on screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HandOrder {
    /// Naturals grouped by rank (threes first, aces last): for melds of a
    /// rank, what most Canasta is.
    #[default]
    ByRank,
    /// Naturals grouped by suit, each suit in rank order: for Samba's
    /// sequences.
    BySuit,
}

impl HandOrder {
    pub fn toggled(self) -> HandOrder {
        match self {
            HandOrder::ByRank => HandOrder::BySuit,
            HandOrder::BySuit => HandOrder::ByRank,
        }
    }

    /// Whether two neighbouring naturals belong to one group.
    pub fn same_group(self, a: Card, b: Card) -> bool {
        match self {
            HandOrder::ByRank => a.rank() == b.rank(),
            HandOrder::BySuit => a.suit() == b.suit(),
        }
    }
}

/// A hand as players hold it: naturals grouped by rank (or suit), and the
/// wild cards apart.
pub fn hand_groups_in(hand: &CardCounts, order: HandOrder) -> (Vec<Vec<Card>>, Vec<Card>) {
    let mut naturals: Vec<Card> = Vec::new();
    let mut wilds = Vec::new();
    for card in hand.iter() {
        if card.is_wild() {
            wilds.push(card);
        } else {
            naturals.push(card);
        }
    }
    if order == HandOrder::BySuit {
        // Stable: within a suit the ranks stay in order.
        naturals.sort_by_key(|c| c.suit().map_or(0, |s| s as u8));
    }
    let mut groups: Vec<Vec<Card>> = Vec::new();
    for card in naturals {
        match groups.last_mut() {
            Some(g) if order.same_group(g[0], card) => g.push(card),
            _ => groups.push(vec![card]),
        }
    }
    (groups, wilds)
}

/// A hand grouped by rank, wild cards apart.
pub fn hand_groups(hand: &CardCounts) -> (Vec<Vec<Card>>, Vec<Card>) {
    hand_groups_in(hand, HandOrder::ByRank)
}

/// The hand in one line: `4C 4H | 7S | KD KS  wild: 2C JK`.
pub fn hand_text(hand: &CardCounts) -> String {
    let (groups, wilds) = hand_groups(hand);
    let mut text = groups
        .iter()
        .map(|g| cards_text(g))
        .collect::<Vec<_>>()
        .join(" | ");
    if !wilds.is_empty() {
        if !text.is_empty() {
            text.push_str("  ");
        }
        text.push_str(&format!("wild: {}", cards_text(&wilds)));
    }
    if text.is_empty() {
        text.push_str("(no cards)");
    }
    text
}

pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(cards: &[&str]) -> CardCounts {
        cards.iter().map(|c| c.parse::<Card>().unwrap()).collect()
    }

    #[test]
    fn hands_group_by_rank_with_wilds_apart() {
        let hand = hand(&["JK", "4C", "KS", "2H", "4H", "3S", "KD"]);
        assert_eq!(hand_text(&hand), "3S | 4H 4C | KS KD  wild: 2H JK");
        let (groups, wilds) = hand_groups(&hand);
        assert_eq!(groups.len(), 3);
        assert_eq!(wilds.len(), 2);
        assert_eq!(hand_text(&CardCounts::new()), "(no cards)");
    }

    /// Samba's sequences are seen in a hand sorted by suit.
    #[test]
    fn a_hand_sorted_by_suit_shows_runs() {
        let hand = hand(&["7H", "5S", "6H", "JK", "5H", "KS", "9D"]);
        let (groups, wilds) = hand_groups_in(&hand, HandOrder::BySuit);
        let text: Vec<String> = groups.iter().map(|g| cards_text(g)).collect();
        assert_eq!(text, ["5S KS", "5H 6H 7H", "9D"]);
        assert_eq!(cards_text(&wilds), "JK");
        assert_eq!(HandOrder::BySuit.toggled(), HandOrder::ByRank);
    }
}
