//! Positions as text (`docs/position-notation.md`): the rules by preset,
//! then every part of a state that decides what is legal and what an
//! action does, one `field value` line each.
//!
//! A position is what tests and tools hold fixed: a perft file lists
//! positions so, and a generator change that alters a count there fails
//! until the change states its rule. The writer gives one canonical text
//! for a position; the reader refuses any text that is not a state the
//! engine could reach in shape (every card of the deck exactly once, melds
//! the rules allow, seats and counts within bounds).

mod read;
mod write;

#[cfg(test)]
mod tests;

use super::{MAX_MELDS, Phase, TurnFlags};
use crate::card::{Card, ParseCardError};
use crate::error::IllegalReason;
use crate::rules::RulesError;
use crate::seat::{Seat, Side};
use thiserror::Error;

/// The phases a position may be in, as the `turn` line writes them. Only
/// the three within a hand are read back: before a deal and after a hand,
/// what matters is the record's (the decks and the scores of hands).
const PHASE_WORDS: [(Phase, &str); 6] = [
    (Phase::Draw, "draw"),
    (Phase::Play, "play"),
    (Phase::Answer, "answer"),
    (Phase::Deal, "deal"),
    (Phase::HandOver, "hand-over"),
    (Phase::GameOver, "game-over"),
];

type FlagGet = fn(&TurnFlags) -> bool;
type FlagSet = fn(&mut TurnFlags);

/// The `turn-flags` words, in the order the writer gives them, each with
/// the flag of [`TurnFlags`] it names.
const TURN_FLAG_WORDS: [(&str, FlagGet, FlagSet); 9] = [
    (
        "drew-from-stock",
        |t| t.drew_from_stock,
        |t| t.drew_from_stock = true,
    ),
    ("took-pile", |t| t.took_pile, |t| t.took_pile = true),
    (
        "laid-since-draw",
        |t| t.laid_since_draw,
        |t| t.laid_since_draw = true,
    ),
    ("asked", |t| t.asked, |t| t.asked = true),
    ("must-go-out", |t| t.must_go_out, |t| t.must_go_out = true),
    (
        "added-to-old",
        |t| t.added_to_old,
        |t| t.added_to_old = true,
    ),
    ("had-melded", |t| t.had_melded, |t| t.had_melded = true),
    (
        "completed-canasta",
        |t| t.completed_canasta,
        |t| t.completed_canasta = true,
    ),
    (
        "opened-before-draw",
        |t| t.opened_before_draw,
        |t| t.opened_before_draw = true,
    ),
];

/// Why a text is not a position. Each message names the field (the line's
/// first word) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NotationError {
    #[error("unknown field `{0}` (docs/position-notation.md lists the fields)")]
    UnknownField(String),
    #[error("field `{0}` is written twice")]
    Repeated(String),
    #[error("field `{field}` is written twice for seat {seat}")]
    RepeatedSeat { field: &'static str, seat: usize },
    #[error("field `{0}` is missing")]
    Missing(&'static str),
    #[error("field `{field}`: `{text}` is not {expected}")]
    BadValue {
        field: &'static str,
        text: String,
        expected: &'static str,
    },
    #[error("field `{field}`: {error}")]
    BadCard {
        field: &'static str,
        error: ParseCardError,
    },
    #[error("field `rules`: {0}")]
    Rules(RulesError),
    #[error("field `{field}`: seat {seat} is not a seat of this game ({players} players)")]
    NoSuchSeat {
        field: &'static str,
        seat: usize,
        players: usize,
    },
    #[error("field `hand`: seat {0} has no hand line")]
    MissingHand(usize),
    #[error("field `scores`: {have} scores, the rules keep {need} (one for each team)")]
    ScoreCount { have: usize, need: usize },
    #[error(
        "field `turn`: `{0}` is not a point within a hand (a position is in draw, play or answer)"
    )]
    NotInHand(&'static str),
    #[error(
        "the cards are not the rules' deck: the position holds {card} {have} times, the deck {need} times"
    )]
    Cards { card: Card, have: usize, need: u8 },
    #[error("field `known`: seat {seat}'s hand does not hold the {card} said to be known")]
    KnownNotHeld { seat: usize, card: Card },
    #[error("field `foot`: these rules deal no feet")]
    NoFeet,
    #[error("field `red-threes`: {0} is not a red three")]
    NotRedThree(Card),
    #[error("field `meld`: side {0} is no seat's side")]
    NoSuchSide(usize),
    #[error("field `meld`: side {0} has more than {MAX_MELDS} melds")]
    TooManyMelds(usize),
    #[error("field `meld`: meld {index} of side {side} ({cards}) is not one meld: {problem}")]
    NotAMeld {
        side: usize,
        index: usize,
        cards: String,
        problem: &'static str,
    },
    #[error("field `meld`: meld {index} of side {side} ({cards}): {reason}")]
    BadMeld {
        side: usize,
        index: usize,
        cards: String,
        reason: IllegalReason,
    },
    #[error("field `meld`: meld {index} of side {side} is closed, but {why}")]
    BadClosed {
        side: usize,
        index: usize,
        why: &'static str,
    },
    #[error(
        "field `meld`: meld {index} of side {side} is a second meld of its rank while meld {first} can still take cards"
    )]
    SecondMeldOfRank {
        side: usize,
        index: usize,
        first: usize,
    },
    #[error("field `meld`: side {side} has a second wild meld (meld {index}) where a side has one")]
    SecondWildMeld { side: usize, index: usize },
    #[error("field `packet`: {packet} cards face down under a pile of {pile}")]
    PacketTooLarge { packet: usize, pile: usize },
    #[error("field `packet`: these rules put no face-down packet under the pile")]
    NoPacket,
    #[error("field `lone-hand`: these rules form no partnership for a hand")]
    NoPartnership,
    #[error(
        "field `melds-at-start`: {have} melds, more than side {side} has now ({now}) could have had"
    )]
    MeldsAtStart { side: Side, have: usize, now: usize },
    #[error("field `turn`: seat {0} answers a question, but no seat is its partner")]
    NoPartner(Seat),
    #[error("field `turn`: phase answer, but `turn-flags` does not say `asked`")]
    AnswerUnasked,
    #[error("field `answer`: an answer, but `turn-flags` does not say `asked`")]
    AnswerWithoutQuestion,
    #[error("field `answer`: the question is still waiting for its answer (phase answer)")]
    AnsweredTooSoon,
}
