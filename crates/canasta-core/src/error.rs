//! Why an action is illegal. Kept apart from parse errors: these are about
//! the position, not the text.

use crate::action::Action;
use crate::action::Phase;
use crate::card::{Card, CardStyle, Rank};
use crate::meld::{Group, GroupKind, MeldId};
use crate::seat::Seat;
use std::fmt;
use thiserror::Error;

/// One of the side's melds, as a refusal names it: by its number in
/// notation (`meld 2`, the number `add 2 ...` takes), by what it holds as
/// drawn ("your meld of jacks", "your sequence of hearts", "your wild
/// meld"); the alternate flag chooses, as for cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldRef {
    pub index: MeldId,
    pub kind: GroupKind,
}

impl MeldRef {
    pub fn new(index: MeldId, cards: &Group) -> MeldRef {
        MeldRef {
            index,
            kind: cards.kind(),
        }
    }
}

impl fmt::Display for MeldRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (CardStyle::of(f), self.kind) {
            (CardStyle::Notation, _) => write!(f, "meld {}", self.index),
            (CardStyle::Drawn, GroupKind::Rank(r)) => write!(f, "your meld of {}", r.plural()),
            (CardStyle::Drawn, GroupKind::Sequence(s, _)) => {
                write!(f, "your sequence of {}", s.plural())
            }
            (CardStyle::Drawn, GroupKind::Wild) => f.write_str("your wild meld"),
        }
    }
}

/// The refusals that name a card or a meld, each written once: `{}` in
/// notation, `{:#}` as drawn ([`CardStyle`]), the style handed on to every
/// card, meld and nested reason.
mod styled {
    use super::{IllegalReason, MeldRef};
    use crate::card::{Card, CardStyle, Rank};
    use std::fmt::{Formatter, Result};

    pub fn card_not_in_hand(card: &Card, f: &mut Formatter<'_>) -> Result {
        write!(f, "{} is not in your hand", CardStyle::of(f).show(card))
    }

    pub fn pile_blocked(top: &Card, f: &mut Formatter<'_>) -> Result {
        let top = CardStyle::of(f).show(top);
        write!(f, "the pile cannot be taken while {top} is on top")
    }

    pub fn pile_frozen(top: &Card, need: &u8, f: &mut Formatter<'_>) -> Result {
        let top = CardStyle::of(f).show(top);
        match need {
            2 => write!(
                f,
                "the pile is frozen: it takes a natural pair matching {top}"
            ),
            n => write!(
                f,
                "the pile is frozen: it takes {n} natural cards matching {top}"
            ),
        }
    }

    pub fn no_sequence_for_top_card(top: &Card, f: &mut Formatter<'_>) -> Result {
        let top = CardStyle::of(f).show(top);
        write!(
            f,
            "{top} alone may be taken only to extend one of your side's sequences short of a samba; otherwise the pile takes a natural pair of its rank"
        )
    }

    pub fn opening_too_low_to_go_out(
        need: &i32,
        have: &i32,
        because: &IllegalReason,
        f: &mut Formatter<'_>,
    ) -> Result {
        let because = CardStyle::of(f).show(because);
        write!(
            f,
            "the opening needs {need} points, these melds make {have}; below it you may only go out concealed, and {because}"
        )
    }

    pub fn wrong_rank(
        meld: &crate::meld::MeldId,
        rank: &Option<Rank>,
        f: &mut Formatter<'_>,
    ) -> Result {
        match (CardStyle::of(f), rank) {
            (CardStyle::Notation, Some(r)) => write!(
                f,
                "meld {meld} is a meld of {}; these cards do not belong to it",
                r.plural()
            ),
            (CardStyle::Notation, None) => write!(
                f,
                "meld {meld} is not a meld of one rank; these cards do not belong to it"
            ),
            (CardStyle::Drawn, Some(r)) => write!(
                f,
                "these cards do not belong to your meld of {}",
                r.plural()
            ),
            (CardStyle::Drawn, None) => write!(
                f,
                "these cards do not belong to that meld: it is not a meld of one rank"
            ),
        }
    }

    pub fn stranded_with(card: &Card, because: &IllegalReason, f: &mut Formatter<'_>) -> Result {
        let style = CardStyle::of(f);
        write!(
            f,
            "this would leave you only {}, which could not be your last discard: {}",
            style.show(card),
            style.show(because)
        )
    }

    pub fn wild_canasta_complete(meld: &MeldRef, f: &mut Formatter<'_>) -> Result {
        let meld = CardStyle::of(f).show(meld);
        write!(f, "{meld} is a wild canasta and takes no more cards")
    }

    pub fn final_discard_not_natural(card: &Card, f: &mut Formatter<'_>) -> Result {
        let card = CardStyle::of(f).show(card);
        write!(f, "the last discard must be a natural card, not {card}")
    }

    pub fn canasta_closed(meld: &MeldRef, f: &mut Formatter<'_>) -> Result {
        let meld = CardStyle::of(f).show(meld);
        write!(f, "{meld} is a closed canasta and takes no more cards")
    }

    pub fn too_short_to_close(meld: &MeldRef, need: &u8, f: &mut Formatter<'_>) -> Result {
        let meld = CardStyle::of(f).show(meld);
        write!(f, "{meld} needs {need} cards to be closed as a canasta")
    }

    pub fn restricted_discard(card: &Card, every_side: &bool, f: &mut Formatter<'_>) -> Result {
        let card = CardStyle::of(f).show(card);
        let whose = if *every_side {
            "every side has"
        } else {
            "your side has"
        };
        write!(
            f,
            "{card} may not be discarded until {whose} a canasta of its rank"
        )
    }

    pub fn restricted_last_discard(card: &Card, f: &mut Formatter<'_>) -> Result {
        let card = CardStyle::of(f).show(card);
        write!(f, "{card} may never be the last discard")
    }

    pub fn samba_closed(meld: &MeldRef, f: &mut Formatter<'_>) -> Result {
        let meld = CardStyle::of(f).show(meld);
        write!(
            f,
            "{meld} is a samba (seven in sequence) and takes no more cards"
        )
    }
}

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

/// The reason an action was refused. Messages are plain words a player can
/// read, each written once: `{}` names cards and melds in record notation
/// (the terminal, `canasta check`), `{:#}` as drawn (`10♦`, `Joker`, "your
/// meld of jacks": the browser); see [`CardStyle`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalReason {
    #[error("it is seat {to_act}'s turn to act, not seat {seat}'s")]
    NotYourTurn { seat: Seat, to_act: Seat },
    #[error("not now: {}", .0.expects())]
    WrongPhase(Phase),
    #[error(fmt = styled::card_not_in_hand)]
    CardNotInHand(Card),
    #[error("the discard pile is empty")]
    PileEmpty,
    #[error(fmt = styled::pile_blocked)]
    PileBlocked(Card),
    #[error("with one card in hand you may not take a one-card pile")]
    OneCardPile,
    /// `need`: naturals from hand with the top card (P-CNE: three).
    #[error(fmt = styled::pile_frozen)]
    PileFrozen { top: Card, need: u8 },
    #[error("your side has no meld of the top card's rank to add it to")]
    NoMeldForTopCard,
    /// P-SAM (Dutch): the top card alone goes only onto a sequence.
    #[error(fmt = styled::no_sequence_for_top_card)]
    NoSequenceForTopCard(Card),
    #[error("the pile may not be taken to add its top card to a canasta")]
    TopCardOntoCanasta,
    #[error("the cards taken with the top card must include its rank")]
    PickupWrongRank,
    #[error("the opening needs {need} points, these melds make {have}")]
    OpeningTooLow { need: i32, have: i32 },
    /// Below the minimum, where only a concealed going out may be (P-CAN,
    /// S002), and this is not one.
    #[error(fmt = styled::opening_too_low_to_go_out)]
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
    NoSuchMeld(MeldId),
    #[error(fmt = styled::wrong_rank)]
    WrongRank { meld: MeldId, rank: Option<Rank> },
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
    #[error(fmt = styled::stranded_with)]
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
    #[error(fmt = styled::wild_canasta_complete)]
    WildCanastaComplete(MeldRef),
    #[error("going out needs a final discard")]
    MustDiscardToGoOut,
    #[error(fmt = styled::final_discard_not_natural)]
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
    #[error(fmt = styled::canasta_closed)]
    CanastaClosed(MeldRef),
    #[error(fmt = styled::too_short_to_close)]
    TooShortToClose(MeldRef, u8),
    #[error("a meld holds at most {cap} cards; start a new meld of the rank once it is full")]
    MeldFull { cap: u8 },
    #[error("melds of {} take no wild cards", .0.plural())]
    PureRank(Rank),
    /// P-PEN: sevens stay in hand until the sides the rule names
    /// (`every_side`: all of them; else the player's own) have a canasta
    /// of sevens.
    #[error(fmt = styled::restricted_discard)]
    RestrictedDiscard { card: Card, every_side: bool },
    /// P-PEN, S002: "you are not allowed to go out by discarding a 7".
    #[error(fmt = styled::restricted_last_discard)]
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
    #[error(fmt = styled::samba_closed)]
    SambaClosed(MeldRef),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// `{}` and `{:#}` of a reason: notation for the terminal, as drawn for
    /// the browser.
    fn both(r: IllegalReason) -> (String, String) {
        (format!("{r}"), format!("{r:#}"))
    }

    /// One message, two card styles: a card, a ten, a joker.
    #[test]
    fn cards_are_named_in_notation_or_as_drawn() {
        assert_eq!(
            both(IllegalReason::CardNotInHand(card("7D"))),
            (
                "7D is not in your hand".into(),
                "7♦ is not in your hand".into()
            )
        );
        assert_eq!(
            both(IllegalReason::PileFrozen {
                top: card("TD"),
                need: 2
            }),
            (
                "the pile is frozen: it takes a natural pair matching TD".into(),
                "the pile is frozen: it takes a natural pair matching 10♦".into()
            )
        );
        assert_eq!(
            both(IllegalReason::FinalDiscardNotNatural(Card::JOKER)),
            (
                "the last discard must be a natural card, not JK".into(),
                "the last discard must be a natural card, not Joker".into()
            )
        );
        // The style reaches a nested reason's cards.
        let nested = IllegalReason::StrandedWith {
            card: card("JS"),
            because: Box::new(IllegalReason::RestrictedLastDiscard(card("7H"))),
        };
        assert_eq!(
            both(nested),
            (
                "this would leave you only JS, which could not be your last discard: \
                 7H may never be the last discard"
                    .into(),
                "this would leave you only J♠, which could not be your last discard: \
                 7♥ may never be the last discard"
                    .into()
            )
        );
    }

    /// Melds by number in notation (what `add 2 ...` takes), by what they
    /// hold as drawn; never a backtick.
    #[test]
    fn melds_are_named_by_number_or_by_rank() {
        let jacks = MeldRef {
            index: MeldId::new(2),
            kind: GroupKind::Rank(Rank::Jack),
        };
        assert_eq!(
            both(IllegalReason::CanastaClosed(jacks)),
            (
                "meld 2 is a closed canasta and takes no more cards".into(),
                "your meld of jacks is a closed canasta and takes no more cards".into()
            )
        );
        let wild = MeldRef {
            index: MeldId::new(1),
            kind: GroupKind::Wild,
        };
        assert_eq!(
            both(IllegalReason::WildCanastaComplete(wild)).1,
            "your wild meld is a wild canasta and takes no more cards"
        );
        let run = MeldRef::new(
            MeldId::new(0),
            &Group::from_cards(&[card("5H"), card("6H"), card("7H")]).unwrap(),
        );
        assert_eq!(
            both(IllegalReason::SambaClosed(run)).1,
            "your sequence of hearts is a samba (seven in sequence) and takes no more cards"
        );
        assert_eq!(
            both(IllegalReason::WrongRank {
                meld: MeldId::new(0),
                rank: Some(Rank::Seven)
            }),
            (
                "meld 0 is a meld of sevens; these cards do not belong to it".into(),
                "these cards do not belong to your meld of sevens".into()
            )
        );
        // Messages without cards read the same in both styles.
        let (notation, drawn) = both(IllegalReason::PileNeedsMeld);
        assert_eq!(notation, drawn);
        assert!(!format!("{:#}", Card::new(Rank::Ten, Suit::Clubs)).contains('T'));
    }

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
