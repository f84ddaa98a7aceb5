//! Why an action is illegal. Kept apart from parse errors: these are about
//! the position, not the text.

use crate::action::Action;
use crate::card::{Card, Rank};
use crate::state::Phase;
use thiserror::Error;

/// Why an opening with a wild card is refused, in a player's words.
fn clean_opening_words(need: i32, up_to: Option<i32>) -> String {
    match up_to {
        Some(up_to) => format!(
            "your side needs {need} to open, and while the minimum is {up_to} or less the opening must be of clean melds (no wild card with naturals)"
        ),
        None => "an opening must be of clean melds (no wild cards)".to_string(),
    }
}

/// `n` canastas, in words: "1 canasta", "2 canastas".
fn canastas(n: u8) -> String {
    match n {
        1 => "1 canasta".to_string(),
        n => format!("{n} canastas"),
    }
}

/// Canastas of each kind, in words (what going out needs, what a side
/// lacks): "a clean and a dirty canasta" where one of each, else "2 clean
/// and 1 dirty canastas"; kinds counted 0 are left out.
fn kinds_words(kinds: &[(u8, &str)]) -> String {
    let needed: Vec<(u8, &str)> = kinds.iter().copied().filter(|&(n, _)| n > 0).collect();
    if needed.is_empty() {
        return "no canasta".to_string();
    }
    let singles = needed.iter().all(|&(n, _)| n == 1);
    let article = |kind: &str| match kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        true => "an",
        false => "a",
    };
    let items: Vec<String> = needed
        .iter()
        .map(|&(n, kind)| match singles {
            true => format!("{} {kind}", article(kind)),
            false => format!("{n} {kind}"),
        })
        .collect();
    let list = match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    format!("{list} {}", if singles { "canasta" } else { "canastas" })
}

/// Counts of the four going-out kinds with P-PEN's names for them.
fn pennies_kinds(counts: [u8; 4], special_rank: Option<Rank>) -> [(u8, &'static str); 4] {
    [
        (counts[0], "natural"),
        (counts[1], "mixed"),
        (counts[2], "wild"),
        (counts[3], special_rank.map_or("special", Rank::plural)),
    ]
}

/// The reason an action was refused. Messages are plain words a player can read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalReason {
    #[error("it is seat {to_act}'s turn to act, not seat {seat}'s")]
    NotYourTurn { seat: usize, to_act: usize },
    #[error("not now: {}", .0.expects())]
    WrongPhase(Phase),
    #[error("{0} is not in your hand")]
    CardNotInHand(Card),
    #[error("the discard pile is empty")]
    PileEmpty,
    #[error("the pile cannot be taken while {0} is on top")]
    PileBlocked(Card),
    #[error("with one card in hand you may not take a one-card pile")]
    OneCardPile,
    /// `need`: naturals from hand with the top card (P-CNE: three).
    #[error(
        "the pile is frozen: it takes {} matching {top}",
        if *need == 2 { "a natural pair".to_string() } else { format!("{need} natural cards") }
    )]
    PileFrozen { top: Card, need: u8 },
    #[error("your side has no meld of the top card's rank to add it to")]
    NoMeldForTopCard,
    /// P-SAM (Dutch): the top card alone goes only onto a sequence.
    #[error(
        "{0} alone may be taken only to extend one of your side's sequences short of a samba; otherwise the pile takes a natural pair of its rank"
    )]
    NoSequenceForTopCard(Card),
    #[error("the pile may not be taken to add its top card to a canasta")]
    TopCardOntoCanasta,
    #[error("the cards taken with the top card must include its rank")]
    PickupWrongRank,
    #[error("the opening needs {need} points, these melds make {have}")]
    OpeningTooLow { need: i32, have: i32 },
    /// Below the minimum, where only a concealed going out may be (P-CAN,
    /// S002), and this is not one.
    #[error(
        "the opening needs {need} points, these melds make {have}; below it you may only go out concealed, and {because}"
    )]
    OpeningTooLowToGoOut {
        need: i32,
        have: i32,
        because: Box<IllegalReason>,
    },
    #[error("a meld needs at least {need} cards, this one has {have}")]
    MeldTooSmall { need: u8, have: u8 },
    #[error("a meld needs at least {need} natural cards, this one has {have}")]
    TooFewNaturals { need: u8, have: u8 },
    #[error("too many wild cards: at most {max} with {naturals} naturals, this would make {have}")]
    TooManyWilds { max: u8, naturals: u8, have: u8 },
    #[error("a meld of wild cards only is not allowed")]
    WildMeld,
    #[error("threes may not be melded in these rules")]
    ThreesNotMeldable,
    #[error("red threes are laid out as they come, never melded")]
    RedThreesNotMelded,
    #[error("a meld of black threes takes no wild cards")]
    WildWithBlackThrees,
    #[error("black threes are melded all at once: nothing may be added to them")]
    BlackThreesMeldClosed,
    #[error("black threes may be melded only on the turn you go out")]
    BlackThreesOnlyGoingOut,
    #[error("meld number {0} does not exist on your side")]
    NoSuchMeld(u8),
    #[error("meld {meld} is {}; these cards do not belong to it", meld_words(*.rank))]
    WrongRank { meld: u8, rank: Option<Rank> },
    #[error("your side needs {} to go out and has {have}", canastas(*need))]
    NotEnoughCanastas { need: u8, have: u8 },
    /// RG-ITA, S002: the side's wild canasta is not one of those it needs.
    #[error(
        "your side needs {} to go out and has {have}: a wild canasta does not count",
        canastas(*need)
    )]
    WildCanastaUncounted { need: u8, have: u8 },
    #[error("partner said no: you may not go out this turn")]
    PartnerSaidNo,
    #[error("you must go out this turn")]
    MustGoOut,
    #[error("this would leave you no card you may get rid of")]
    StrandsLastCard,
    #[error("this would leave you only {card}, which could not be your last discard: {because}")]
    StrandedWith {
        card: Card,
        because: Box<IllegalReason>,
    },
    #[error(
        "this would leave you only the unseen stock card that comes with the pile; keep a card of your own"
    )]
    OnlyUnseenCardLeft,
    #[error("asking partner is not part of these rules")]
    AskingNotAllowed,
    #[error("you have no partner to ask in this game")]
    NoPartnerToAsk,
    #[error(
        "you may ask only once a turn, right after drawing or taking the pile, before melding or adding"
    )]
    CannotAsk,
    #[error("asking needs two or more cards in hand, so that a \"no\" leaves you a card to keep")]
    TooFewCardsToAsk,
    #[error("you may ask partner only when you could go out this turn")]
    AskOnlyIfAbleToGoOut,
    #[error("when the stock is empty you must take a pile that matches your side's meld")]
    MustTakePile,
    /// `or_wild`: one natural and a wild card also take it (P-CAN, S004).
    #[error(
        "taking the pile needs {need} natural cards of its top card's rank from your hand{}",
        if *or_wild { ", or one and a wild card" } else { "" }
    )]
    PileNeedsNaturals { need: u8, or_wild: bool },
    #[error("only a side that has melded may take the pile")]
    PileNeedsMeld,
    #[error("a side that has not melded opens before drawing, or waits for its next turn")]
    OpenBeforeDrawing,
    #[error("no wild card may be added to a canasta")]
    NoWildOnCanasta,
    #[error("your wild cards must go to your wild meld until it is a canasta")]
    WildsReserved,
    /// RG-ITA: only twos are held back, and only from other melds.
    #[error("your twos may not be used as wild cards elsewhere until your twos meld is a canasta")]
    TwosReserved,
    /// P-CNE: "wild cards cannot be added to a canasta", a wild canasta
    /// included; the action that completes it may carry it past seven.
    #[error("meld {0} is a wild canasta and takes no more cards")]
    WildCanastaComplete(u8),
    #[error("going out needs a final discard")]
    MustDiscardToGoOut,
    #[error("the last discard must be a natural card, not {0}")]
    FinalDiscardNotNatural(Card),
    /// `up_to` is the rule's bound (P-CNE: 50); `None` where every opening
    /// must be clean (US Italian), so the words never blame a minimum.
    #[error("{}", clean_opening_words(*need, *up_to))]
    OpeningMustBeClean { need: i32, up_to: Option<i32> },
    /// `lacking`: of each kind (clean, dirty), how many the side still lacks.
    #[error(
        "going out needs {}; your side still lacks {}",
        kinds_words(&[(*natural, "clean"), (*mixed, "dirty")]),
        kinds_words(&[(lacking[0], "clean"), (lacking[1], "dirty")])
    )]
    MissingCanastas {
        natural: u8,
        mixed: u8,
        lacking: [u8; 2],
    },
    #[error("your side may not go out while its wild meld is short of a canasta")]
    UnfinishedWildMeld,
    #[error("meld {0} is a closed canasta and takes no more cards")]
    CanastaClosed(u8),
    #[error("meld {0} needs {1} cards to be closed as a canasta")]
    TooShortToClose(u8, u8),
    #[error("a meld holds at most {cap} cards; start a new meld of the rank once it is full")]
    MeldFull { cap: u8 },
    #[error("melds of {} take no wild cards", .0.plural())]
    PureRank(Rank),
    /// P-PEN: sevens stay in hand until the sides the rule names
    /// (`every_side`: all of them; else the player's own) have a canasta
    /// of sevens.
    #[error(
        "{card} may not be discarded until {} a canasta of its rank",
        if *every_side { "every side has" } else { "your side has" }
    )]
    RestrictedDiscard { card: Card, every_side: bool },
    /// P-PEN, S002: "you are not allowed to go out by discarding a 7".
    #[error("{0} may never be the last discard")]
    RestrictedLastDiscard(Card),
    /// P-PEN's four kinds, named as P-PEN names them: natural, mixed, wild
    /// and the canasta of the rank that scores on its own (sevens);
    /// `lacking`, how many of each the side still lacks.
    #[error(
        "going out needs {}; your side still lacks {}",
        kinds_words(&pennies_kinds([*clean, *dirty, *wild, *special], *special_rank)),
        kinds_words(&pennies_kinds(*lacking, *special_rank))
    )]
    MissingCanastaKinds {
        clean: u8,
        dirty: u8,
        wild: u8,
        special: u8,
        special_rank: Option<Rank>,
        lacking: [u8; 4],
    },
    #[error("a side may have at most {0} melds (an engine limit)")]
    TooManyMelds(usize),
    #[error("this variant has no sequences")]
    NoSequences,
    #[error(
        "a sequence is three to seven natural cards of one suit in consecutive ranks, four to ace, with no wild card"
    )]
    BadSequence,
    #[error("meld {0} is a samba (seven in sequence) and takes no more cards")]
    SambaClosed(u8),
    #[error(
        "closing a canasta by choice is not part of these rules: a meld of seven cards is a canasta at once"
    )]
    ClosingNotInRules,
    #[error("that action is not available in this position")]
    NotAvailable,
}

/// An action and why it was refused; the state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal action `{action}`: {reason}")]
pub struct IllegalAction {
    pub action: Action,
    pub reason: IllegalReason,
}

/// What a meld is, for [`IllegalReason::WrongRank`]: of one rank, or not
/// (wild cards, a sequence).
fn meld_words(rank: Option<Rank>) -> String {
    match rank {
        Some(r) => format!("a meld of {}", r.plural()),
        None => "not a meld of one rank".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The going-out refusals name the canastas as players count them.
    #[test]
    fn canastas_needed_read_as_words() {
        let words = |r: IllegalReason| r.to_string();
        assert_eq!(
            words(IllegalReason::NotEnoughCanastas { need: 1, have: 0 }),
            "your side needs 1 canasta to go out and has 0"
        );
        assert_eq!(
            words(IllegalReason::NotEnoughCanastas { need: 2, have: 1 }),
            "your side needs 2 canastas to go out and has 1"
        );
        assert_eq!(
            words(IllegalReason::WildCanastaUncounted { need: 2, have: 1 }),
            "your side needs 2 canastas to go out and has 1: a wild canasta does not count"
        );
        assert_eq!(
            words(IllegalReason::MissingCanastas {
                natural: 1,
                mixed: 1,
                lacking: [0, 1],
            }),
            "going out needs a clean and a dirty canasta; your side still lacks a dirty canasta"
        );
        assert_eq!(
            words(IllegalReason::MissingCanastas {
                natural: 2,
                mixed: 0,
                lacking: [1, 0],
            }),
            "going out needs 2 clean canastas; your side still lacks a clean canasta"
        );
        assert_eq!(
            words(IllegalReason::MissingCanastaKinds {
                clean: 1,
                dirty: 1,
                wild: 1,
                special: 1,
                special_rank: Some(Rank::Seven),
                lacking: [0, 0, 1, 0],
            }),
            "going out needs a natural, a mixed, a wild and a sevens canasta; \
             your side still lacks a wild canasta"
        );
        assert_eq!(
            words(IllegalReason::MissingCanastaKinds {
                clean: 2,
                dirty: 1,
                wild: 0,
                special: 1,
                special_rank: None,
                lacking: [2, 0, 0, 1],
            }),
            "going out needs 2 natural, 1 mixed and 1 special canastas; \
             your side still lacks 2 natural and 1 special canastas"
        );
        assert_eq!(kinds_words(&[(0, "clean")]), "no canasta");
        assert_eq!(kinds_words(&[(1, "eights")]), "an eights canasta");
    }
}
