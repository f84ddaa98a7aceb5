//! Decisions a player makes, the phases of a turn that say which are due,
//! and their text notation from the record spec
//! (`draw`, `pickup`, `pickup C C / G`, `meld G / G`, `add M C`, `discard C`,
//! `ask`, `yes`, `no`, `canasta M`).
//!
//! Actions are `Copy` and never allocate; a compound meld holds up to
//! [`MAX_GROUPS`] groups, enough for any opening (a 17-card hand makes at
//! most five groups of three).

use crate::card::{Card, ParseCardError};
/// The parser refuses more copies of a card than any deck holds.
pub use crate::card::{MAX_COPIES_OF_A_FACE, MAX_JOKERS};
use crate::meld::{Group, GroupShapeError, MeldId};
use crate::seat::Seat;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Most groups in one action.
pub const MAX_GROUPS: usize = 6;

/// Up to [`MAX_GROUPS`] groups laid in one act, in the order written.
/// Slots past `len` are always empty, so derived equality and hashing see
/// only the groups.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Groups {
    len: u8,
    items: [Group; MAX_GROUPS],
}

impl Groups {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a group; false if full.
    pub fn push(&mut self, g: Group) -> bool {
        if (self.len as usize) < MAX_GROUPS {
            self.items[self.len as usize] = g;
            self.len += 1;
            true
        } else {
            false
        }
    }

    pub fn pop(&mut self) -> Option<Group> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(std::mem::take(&mut self.items[self.len as usize]))
        }
    }

    pub fn as_slice(&self) -> &[Group] {
        &self.items[..self.len as usize]
    }

    /// The groups, to change in place (only those within `len`, so the
    /// empty slots stay empty).
    pub fn as_mut_slice(&mut self) -> &mut [Group] {
        &mut self.items[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Group> {
        self.as_slice().iter()
    }

    /// Number of cards in all groups.
    pub fn card_count(&self) -> usize {
        self.iter().map(|g| g.len() as usize).sum()
    }

    /// The same groups in a fixed order.
    fn sorted(&self) -> Groups {
        let mut items = self.items;
        items[..self.len()].sort_unstable();
        Groups {
            len: self.len,
            items,
        }
    }

    fn class_key(&self) -> Groups {
        let mut out = Groups::new();
        let mut keys: [Group; MAX_GROUPS] = Default::default();
        for (i, g) in self.iter().enumerate() {
            keys[i] = g.class_key();
        }
        keys[..self.len()].sort_unstable();
        for k in &keys[..self.len()] {
            out.push(*k);
        }
        out
    }
}

impl fmt::Debug for Groups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Group> for Groups {
    fn from_iter<I: IntoIterator<Item = Group>>(iter: I) -> Self {
        let mut g = Groups::new();
        for x in iter {
            assert!(g.push(x), "more than MAX_GROUPS groups");
        }
        g
    }
}

/// One decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Take the variant's number of cards from the stock.
    Draw,
    /// Take the pile by putting its top card on the side's meld of that rank.
    PickupOnto,
    /// Take the pile with `with` from hand together with the top card, and
    /// lay `also` from hand in the same act (how a side opens with the pile).
    Pickup { with: Group, also: Groups },
    /// Lay new melds from hand.
    Meld(Groups),
    /// Add cards from hand to the side's meld number `meld`.
    Add { meld: MeldId, cards: Group },
    /// Close meld `meld` as a canasta (where that is a choice).
    CloseCanasta(MeldId),
    /// Discard a card, ending the turn.
    Discard(Card),
    /// Ask partner for permission to go out.
    Ask,
    /// Partner's binding answer.
    Answer(bool),
}

impl Action {
    /// The key that says which choice this is under `rules`: the
    /// [class key](Action::class_key) where suits do not matter; where they
    /// do (Samba), the action itself with its groups in a fixed order.
    /// Even then twos and threes fold: they are never in a sequence.
    pub fn key_under(&self, rules: &crate::rules::Rules) -> Action {
        if !rules.melds.suits_matter() {
            return self.class_key();
        }
        let fold = |g: Group| -> Group {
            let mut g = g;
            g.twos = [g.two_count(), 0, 0, 0];
            if g.rank() == Some(crate::card::Rank::Three) && !g.is_sequence() {
                g.naturals = [g.natural_count(), 0, 0, 0];
            }
            g
        };
        let fold_all =
            |gs: Groups| -> Groups { gs.iter().map(|g| fold(*g)).collect::<Groups>().sorted() };
        match *self {
            Action::Pickup { with, also } => Action::Pickup {
                with: fold(with),
                also: fold_all(also),
            },
            Action::Meld(g) => Action::Meld(fold_all(g)),
            Action::Add { meld, cards } => Action::Add {
                meld,
                cards: fold(cards),
            },
            Action::Discard(c) if c.is_wild() || c.rank() == Some(crate::card::Rank::Three) => {
                Action::Discard(class_card(c))
            }
            other => other,
        }
    }

    /// The action with suits forgotten where the rules cannot tell cards
    /// apart, and compound groups sorted: two actions with equal keys are the
    /// same choice. Legality is membership of this key in the generated set.
    pub fn class_key(&self) -> Action {
        match *self {
            Action::Pickup { with, also } => Action::Pickup {
                with: with.class_key(),
                also: also.class_key(),
            },
            Action::Meld(g) => Action::Meld(g.class_key()),
            Action::Add { meld, cards } => Action::Add {
                meld,
                cards: cards.class_key(),
            },
            Action::Discard(c) => Action::Discard(class_card(c)),
            a => a,
        }
    }

    /// Cards this action takes from the actor's hand.
    pub fn cards_from_hand(&self) -> crate::card::CardCounts {
        let mut c = crate::card::CardCounts::new();
        match self {
            Action::Pickup { with, also } => {
                with.add_to(&mut c);
                for g in also.iter() {
                    g.add_to(&mut c);
                }
            }
            Action::Meld(gs) => {
                for g in gs.iter() {
                    g.add_to(&mut c);
                }
            }
            Action::Add { cards, .. } => cards.add_to(&mut c),
            Action::Discard(x) => c.add(*x),
            _ => {}
        }
        c
    }
}

/// The representative face of a card's class: naturals and twos fold onto
/// spades, black threes onto the three of spades, red threes onto hearts.
pub fn class_card(c: Card) -> Card {
    use crate::card::{Rank, Suit};
    match c.rank() {
        None => c,
        Some(Rank::Three) if c.is_red_three() => Card::new(Rank::Three, Suit::Hearts),
        Some(r) => Card::new(r, Suit::Spades),
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for a deck to deal the next hand.
    Deal,
    /// Start of a turn: draw or take the pile.
    Draw,
    /// After drawing: meld, add, ask, discard.
    Play,
    /// A partner must answer "may I go out?".
    Answer,
    /// The hand is scored; the next needs a deal.
    HandOver,
    /// A team reached the target.
    GameOver,
}

impl Phase {
    /// The phase's name in the record and the bot protocol (`hand_over`),
    /// which messages quote.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Deal => "deal",
            Phase::Draw => "draw",
            Phase::Play => "play",
            Phase::Answer => "answer",
            Phase::HandOver => "hand_over",
            Phase::GameOver => "game_over",
        }
    }

    /// What this point of the turn asks for, in a player's words: why an
    /// action of another point is refused.
    pub const fn expects(self) -> &'static str {
        match self {
            Phase::Deal => "the hand has not been dealt yet",
            Phase::Draw => "draw (or take the pile) first",
            Phase::Play => "the turn is past its draw: meld, add or discard",
            Phase::Answer => "a partner's question (may I go out?) waits for its answer",
            Phase::HandOver => "the hand is over",
            Phase::GameOver => "the game is over",
        }
    }

    /// Who is to do what, in a player's words: `seat 2 to draw or take the
    /// pile` (`who` names the seat to act, `current` the seat whose turn
    /// it is, asked by an answering partner). Every screen says it so.
    pub fn status(self, who: &str, current: Seat) -> String {
        match self {
            Phase::Draw => format!("{who} to draw or take the pile"),
            Phase::Play => format!("{who} to meld, add or discard"),
            Phase::Answer => format!("{who} to answer: may seat {current} go out?"),
            Phase::Deal => "before the deal".into(),
            Phase::HandOver => "the hand is over".into(),
            Phase::GameOver => "the game is over".into(),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A growable list reused across generations.
pub type ActionList = Vec<Action>;

/// The text of an action is not an action (syntax, not legality).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseActionError {
    #[error("empty action")]
    Empty,
    #[error(
        "unknown action `{0}` (expected draw, pickup, meld, add, canasta, discard, ask, yes or no)"
    )]
    UnknownVerb(String),
    #[error(transparent)]
    Card(#[from] ParseCardError),
    #[error("`{verb}` takes {expected}")]
    Arguments {
        verb: &'static str,
        expected: &'static str,
    },
    #[error(
        "a group mixes {} and {}; only a sequence may (natural cards of one suit in consecutive ranks, where the variant has sequences)",
        .0.plural(),
        .1.plural()
    )]
    MixedRanks(crate::card::Rank, crate::card::Rank),
    #[error(
        "a group mixes ranks, so it can only be a sequence (where the variant has them), and a sequence takes no wild card ({0})"
    )]
    WildInSequence(Card),
    #[error(
        "a group mixes ranks, so it can only be a sequence (where the variant has them), and a sequence takes no three ({0}): four is its lowest card"
    )]
    ThreeInSequence(Card),
    #[error("empty group between `/`")]
    EmptyGroup,
    #[error("more than {MAX_GROUPS} groups in one action")]
    TooManyGroups,
    #[error("`{0}` is not a meld number")]
    BadMeldNumber(String),
    #[error("{count} × {card} in one action: no deck holds more than {max}")]
    TooManyCopies { card: Card, count: usize, max: u8 },
}

fn parse_group(tokens: &[&str]) -> Result<Group, ParseActionError> {
    let cards = tokens
        .iter()
        .map(|t| t.parse::<Card>())
        .collect::<Result<Vec<_>, _>>()?;
    check_copies(&cards)?;
    Group::from_cards(&cards).map_err(|e| match e {
        GroupShapeError::Empty => ParseActionError::EmptyGroup,
        GroupShapeError::MixedRanks(a, b) => ParseActionError::MixedRanks(a, b),
        GroupShapeError::WildInSequence(c) => ParseActionError::WildInSequence(c),
        GroupShapeError::ThreeInSequence(c) => ParseActionError::ThreeInSequence(c),
    })
}

/// Refuses more copies of a card than any deck holds, before they are
/// counted into a group's one-byte counters.
fn check_copies(cards: &[Card]) -> Result<(), ParseActionError> {
    for (i, &c) in cards.iter().enumerate() {
        if cards[..i].contains(&c) {
            continue;
        }
        let count = cards.iter().filter(|&&d| d == c).count();
        let max = if c.is_joker() {
            MAX_JOKERS
        } else {
            MAX_COPIES_OF_A_FACE
        };
        if count > max as usize {
            return Err(ParseActionError::TooManyCopies {
                card: c,
                count,
                max,
            });
        }
    }
    Ok(())
}

fn parse_groups(tokens: &[&str]) -> Result<Groups, ParseActionError> {
    let mut out = Groups::new();
    let mut all = Vec::new();
    for part in tokens.split(|t| *t == "/") {
        let group = parse_group(part)?;
        all.extend(group.cards());
        if !out.push(group) {
            return Err(ParseActionError::TooManyGroups);
        }
    }
    check_copies(&all)?;
    Ok(out)
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        let Some((&verb, args)) = tokens.split_first() else {
            return Err(ParseActionError::Empty);
        };
        let verb_lc = verb.to_ascii_lowercase();
        let no_args = |v: &'static str, a: Action| {
            if args.is_empty() {
                Ok(a)
            } else {
                Err(ParseActionError::Arguments {
                    verb: v,
                    expected: "no arguments",
                })
            }
        };
        let meld_number = |t: &str| {
            t.parse::<u8>()
                .map(|n| MeldId::new(n.into()))
                .map_err(|_| ParseActionError::BadMeldNumber(t.to_string()))
        };
        match verb_lc.as_str() {
            "draw" => no_args("draw", Action::Draw),
            "ask" => no_args("ask", Action::Ask),
            "yes" => no_args("yes", Action::Answer(true)),
            "no" => no_args("no", Action::Answer(false)),
            "pickup" => {
                if args.is_empty() {
                    return Ok(Action::PickupOnto);
                }
                let mut groups = parse_groups(args)?;
                let mut also = Groups::new();
                let with = groups.as_slice()[0];
                for g in &groups.as_slice()[1..] {
                    also.push(*g);
                }
                groups = also;
                Ok(Action::Pickup { with, also: groups })
            }
            "meld" => {
                if args.is_empty() {
                    return Err(ParseActionError::Arguments {
                        verb: "meld",
                        expected: "one or more groups of cards",
                    });
                }
                Ok(Action::Meld(parse_groups(args)?))
            }
            "add" => match args {
                [m, cards @ ..] if !cards.is_empty() => Ok(Action::Add {
                    meld: meld_number(m)?,
                    cards: parse_group(cards)?,
                }),
                _ => Err(ParseActionError::Arguments {
                    verb: "add",
                    expected: "a meld number and one or more cards",
                }),
            },
            "canasta" => match args {
                [m] => Ok(Action::CloseCanasta(meld_number(m)?)),
                _ => Err(ParseActionError::Arguments {
                    verb: "canasta",
                    expected: "one meld number",
                }),
            },
            "discard" => match args {
                [c] => Ok(Action::Discard(c.parse()?)),
                _ => Err(ParseActionError::Arguments {
                    verb: "discard",
                    expected: "one card",
                }),
            },
            _ => Err(ParseActionError::UnknownVerb(verb.to_string())),
        }
    }
}

fn write_groups(f: &mut fmt::Formatter<'_>, groups: &[Group]) -> fmt::Result {
    for (i, g) in groups.iter().enumerate() {
        if i > 0 {
            f.write_str(" / ")?;
        }
        write!(f, "{g}")?;
    }
    Ok(())
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Draw => f.write_str("draw"),
            Action::PickupOnto => f.write_str("pickup"),
            Action::Pickup { with, also } => {
                write!(f, "pickup {with}")?;
                if !also.is_empty() {
                    f.write_str(" / ")?;
                    write_groups(f, also.as_slice())?;
                }
                Ok(())
            }
            Action::Meld(groups) => {
                f.write_str("meld ")?;
                write_groups(f, groups.as_slice())
            }
            Action::Add { meld, cards } => write!(f, "add {meld} {cards}"),
            Action::CloseCanasta(m) => write!(f, "canasta {m}"),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Ask => f.write_str("ask"),
            Action::Answer(true) => f.write_str("yes"),
            Action::Answer(false) => f.write_str("no"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in [
            "draw",
            "pickup",
            "pickup KS KH",
            "pickup 5D 5C / QS QH JK",
            "meld KS KH KD / 5D 5C 2H",
            "add 0 KS",
            "add 2 7H 7H 2C JK",
            "discard JK",
            "canasta 3",
            "ask",
            "yes",
            "no",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        let a: Action = "MELD ks kh kd".parse().unwrap();
        assert_eq!(a.to_string(), "meld KS KH KD");
    }

    #[test]
    fn parse_errors_name_the_problem() {
        assert!(matches!(
            "fly".parse::<Action>(),
            Err(ParseActionError::UnknownVerb(_))
        ));
        assert!(matches!(
            "discard XX".parse::<Action>(),
            Err(ParseActionError::Card(_))
        ));
        assert!(matches!(
            "meld KS QH".parse::<Action>(),
            Err(ParseActionError::MixedRanks(..))
        ));
        // A would-be sequence names the card it may not hold.
        let three = "meld 3S 4S 5S".parse::<Action>().unwrap_err();
        assert!(matches!(three, ParseActionError::ThreeInSequence(_)));
        assert!(
            three
                .to_string()
                .ends_with("takes no three (3S): four is its lowest card")
        );
        let wild = "meld 4S 5S 2C 7S".parse::<Action>().unwrap_err();
        assert!(
            wild.to_string().ends_with("takes no wild card (2C)"),
            "{wild}"
        );
        // Naturals of one suit in several ranks are a sequence (Samba);
        // whether the variant has sequences is for legality to say.
        let Ok(Action::Meld(g)) = "meld QS KS JS".parse::<Action>() else {
            panic!("a sequence parses")
        };
        assert!(g.as_slice()[0].is_sequence());
        assert_eq!(g.as_slice()[0].to_string(), "JS QS KS");
        assert!(matches!(
            "meld KS / / QS".parse::<Action>(),
            Err(ParseActionError::EmptyGroup)
        ));
        assert!(matches!(
            "add x KS".parse::<Action>(),
            Err(ParseActionError::BadMeldNumber(_))
        ));
        assert!(matches!(
            "draw 2".parse::<Action>(),
            Err(ParseActionError::Arguments { .. })
        ));
    }

    #[test]
    fn class_keys_forget_suits_and_group_order() {
        let a: Action = "meld KS KH KD / 5C 5D 2H".parse().unwrap();
        let b: Action = "meld 5S 5H 2C / KC KC KD".parse().unwrap();
        assert_eq!(a.class_key(), b.class_key());
        let c: Action = "meld 5S 5H JK / KC KC KD".parse().unwrap();
        assert_ne!(a.class_key(), c.class_key());
    }

    /// `meld` with 259 × KS once parsed as three kings in release (a byte
    /// counter wrapped) and panicked in debug.
    #[test]
    fn impossible_counts_are_parse_errors() {
        let many = vec!["KS"; 259].join(" ");
        let err = format!("meld {many}").parse::<Action>().unwrap_err();
        assert!(
            matches!(
                err,
                ParseActionError::TooManyCopies {
                    count: 259,
                    max: 4,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("259 × KS"), "{err}");
        assert!("meld KS KS KS KS KS".parse::<Action>().is_err());
        assert!(
            "meld KS KS KS / KS KS".parse::<Action>().is_err(),
            "across groups"
        );
        assert!("meld KS KS KS KS".parse::<Action>().is_ok());
        assert!(
            format!("meld {}", ["JK"; 9].join(" "))
                .parse::<Action>()
                .is_err()
        );
        assert!(
            format!("add 0 {}", ["2C"; 5].join(" "))
                .parse::<Action>()
                .is_err()
        );
    }
}
