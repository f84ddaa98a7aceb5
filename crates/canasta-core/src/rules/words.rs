//! The rules' values in words, as a rule book prints them: small counts
//! spelled out, points with their thousands marked, cards as drawn, and
//! the table-valued options read out. The page of the rules (`guide`) and
//! the list of house rules (`house`) both speak them.

use super::{CardValues, ManyCanastas, OpeningStep, Rules};
use crate::card::{Card, Rank, Suit};
use serde_json::Value;

/// A number in words for small counts ("two"), digits from ten up.
pub(super) fn count(n: impl Into<i64>) -> String {
    let n = n.into();
    const WORDS: [&str; 10] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    usize::try_from(n)
        .ok()
        .and_then(|i| WORDS.get(i))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// `n` things, with the plural where it needs one ("one card", "two cards").
pub(super) fn things(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// Points as a book prints them: 1,500.
pub(super) fn points(n: i32) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    if n < 0 { format!("−{out}") } else { out }
}

/// A rank as a card shows it: 10, J, 7.
fn rank_face(rank: Rank) -> String {
    if rank == Rank::Ten {
        "10".into()
    } else {
        rank.letter().to_string()
    }
}

/// A card as drawn: 10♦, J♠, Joker.
pub fn card_words(card: Card) -> String {
    match (card.rank(), card.suit()) {
        (Some(rank), Some(suit)) => {
            let symbol = match suit {
                Suit::Spades => '♠',
                Suit::Hearts => '♥',
                Suit::Diamonds => '♦',
                Suit::Clubs => '♣',
            };
            format!("{}{symbol}", rank_face(rank))
        }
        _ => "Joker".into(),
    }
}

/// Card values by card, high ranks first, runs of equal values joined
/// ("8 to K"); faces the deck leaves out are left out.
pub(super) fn card_value_rows(values: &CardValues, rules: Option<&Rules>) -> Vec<(String, i32)> {
    let in_deck = |rank: Rank| {
        rules.is_none_or(|r| {
            Suit::ALL
                .iter()
                .any(|&s| r.deal.deck().count(Card::new(rank, s)) > 0)
        })
    };
    let mut rows: Vec<(String, i32)> = Vec::new();
    if rules.is_none_or(|r| r.deal.jokers > 0) {
        rows.push(("Joker".into(), values.joker));
    }
    if in_deck(Rank::Two) {
        rows.push(("2".into(), values.two));
    }
    // Ace down to four, in runs.
    let order = [
        Rank::Ace,
        Rank::King,
        Rank::Queen,
        Rank::Jack,
        Rank::Ten,
        Rank::Nine,
        Rank::Eight,
        Rank::Seven,
        Rank::Six,
        Rank::Five,
        Rank::Four,
    ];
    let value_of = |rank: Rank| values.of(Card::new(rank, Suit::Spades));
    let mut run: Vec<Rank> = Vec::new();
    let flush = |run: &mut Vec<Rank>, rows: &mut Vec<(String, i32)>| {
        if let (Some(&high), Some(&low)) = (run.first(), run.last()) {
            let name = match run.len() {
                1 => rank_face(high),
                2 => format!("{}, {}", rank_face(high), rank_face(low)),
                _ => format!("{} to {}", rank_face(low), rank_face(high)),
            };
            rows.push((name, value_of(high)));
        }
        run.clear();
    };
    for rank in order.into_iter().filter(|&r| in_deck(r)) {
        if run
            .last()
            .is_some_and(|&last| value_of(last) != value_of(rank))
        {
            flush(&mut run, &mut rows);
        }
        run.push(rank);
    }
    flush(&mut run, &mut rows);
    let threes = if rules.is_some_and(|r| r.melds.threes_natural) {
        "3"
    } else {
        "Black 3"
    };
    rows.push((threes.into(), values.black_three));
    rows
}

/// The opening table's rows as (score range, need).
pub(super) fn opening_rows(steps: &[OpeningStep]) -> Vec<(String, i32)> {
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let next = steps.get(i + 1).and_then(|s| s.from);
            let range = match (step.from, next) {
                (None, None) => "Any score".to_string(),
                (None, Some(n)) => format!("Below {}", points(n)),
                (Some(f), None) => format!("{} or more", points(f)),
                (Some(f), Some(n)) => format!("{} to {}", points(f), points(n - 1)),
            };
            (range, step.need)
        })
        .collect()
}

pub(super) fn many_row(m: &ManyCanastas) -> String {
    let mut parts = Vec::new();
    if m.clean > 0 {
        parts.push(format!("{} clean", count(m.clean)));
    }
    if m.dirty > 0 {
        parts.push(format!("{} dirty", count(m.dirty)));
    }
    let kinds = if parts.is_empty() {
        String::new()
    } else {
        format!(", among them {}", parts.join(" and "))
    };
    format!("{}{kinds}", things(m.canastas, "canasta", "canastas"))
}

/// A table-valued option in words, for the lobby's list ("Joker 50, 2 20,
/// ..."); `None` when the value is not one of them or cannot be read.
pub fn table_words(key: &str, value: &Value) -> Option<String> {
    match key {
        "card_values" => {
            let values: CardValues = serde_json::from_value(value.clone()).ok()?;
            Some(
                card_value_rows(&values, None)
                    .iter()
                    .map(|(name, v)| format!("{name} {v}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        }
        "opening_table" => {
            let steps: Vec<OpeningStep> = serde_json::from_value(value.clone()).ok()?;
            Some(
                opening_rows(&steps)
                    .iter()
                    .map(|(range, need)| format!("{range}: {need}"))
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        }
        "red_three_values" => {
            let values: Vec<i32> = serde_json::from_value(value.clone()).ok()?;
            if values.len() <= 1 {
                return Some("Nothing".into());
            }
            Some(
                values
                    .iter()
                    .enumerate()
                    .skip(1)
                    .map(|(n, v)| format!("{n}: {}", points(*v)))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        }
        "many_canastas_bonuses" => {
            let rows: Vec<ManyCanastas> = serde_json::from_value(value.clone()).ok()?;
            if rows.is_empty() {
                return Some("None".into());
            }
            Some(
                rows.iter()
                    .map(|m| format!("{}: {}", many_row(m), points(m.bonus)))
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        }
        "excluded_faces" => {
            let cards: Vec<Card> = serde_json::from_value(value.clone()).ok()?;
            if cards.is_empty() {
                return Some("None".into());
            }
            Some(
                cards
                    .iter()
                    .map(|&c| card_words(c))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_words_read_the_tables() {
        let classic = serde_json::to_value(Rules::classic()).unwrap();
        assert_eq!(
            table_words("card_values", &classic["card_values"]).unwrap(),
            "Joker 50, 2 20, A 20, 8 to K 10, 4 to 7 5, Black 3 5"
        );
        assert_eq!(
            table_words("red_three_values", &classic["red_three_values"]).unwrap(),
            "1: 100, 2: 200, 3: 300, 4: 800"
        );
        assert_eq!(points(12000), "12,000");
        assert_eq!(points(-500), "−500");
    }
}
