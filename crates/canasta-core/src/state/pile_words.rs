//! What the discard pile needs, or what stops a seat taking it, said once
//! for every screen: the terminal prints it in record notation, the
//! browser as drawn (the alternate flag, [`CardStyle`]). It reads only
//! what the seat sees, through the judge's own predicates
//! ([`Rules::pile_freeze`], [`Rules::pile_closed_to`]).

use crate::card::{Card, CardStyle, Rank};
use crate::rules::{Freeze, Rules};
use crate::seat::Seat;
use crate::state::observation::Observation;
use std::fmt;

/// Who the words are for: a seat alone on its side, a seat with partners,
/// or an onlooker (what holds for every side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taker {
    You,
    YourTeam,
    Anyone,
}

/// What stops the seat taking the pile, or what taking it needs where that
/// is not the usual pair: `None` from [`PileWords::new`] when there is
/// nothing to say (an empty pile, or one open as usual).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PileWords {
    /// A wild card or a three on top (the judge's `PileBlocked`).
    Blocked(Card),
    /// Nothing takes it until the side melds from hand (P-CNE).
    Closed(Taker),
    /// Frozen: `need` naturals of the top card's rank from hand take it,
    /// as part of an opening of `opening` points if the side has not
    /// melded; `hidden` face-down cards come with it.
    Frozen {
        taker: Taker,
        freeze: Freeze,
        rank: Rank,
        need: u8,
        opening: Option<i32>,
        hidden: usize,
    },
    /// Open, but the side's meld of the top card's rank does not take it
    /// (P-CNE takes the pile with naturals from hand only; P-CAN
    /// variation (1) not onto a canasta): `need` naturals from hand do.
    NotOntoMeld {
        rank: Rank,
        need: u8,
        canasta: bool,
        hidden: usize,
    },
    /// Open as usual, with a face-down packet under it (P-CNE) that comes
    /// with it unseen.
    Packet(usize),
}

impl PileWords {
    /// The words for `seat` (`None`: an onlooker) looking at `obs`.
    pub fn new(obs: &Observation, rules: &Rules, seat: Option<Seat>) -> Option<PileWords> {
        let top = *obs.pile.last()?;
        if !top.is_plain_natural() {
            return Some(PileWords::Blocked(top));
        }
        let rank = top.rank()?;
        let hidden = obs.pile_hidden;
        let Some(seat) = seat else {
            // What holds for every side: the freeze by card or by rule.
            let freeze = rules.pile.freeze.against(obs.pile_frozen, true)?;
            return Some(PileWords::Frozen {
                taker: Taker::Anyone,
                freeze,
                rank,
                need: rules.pile.naturals_to_take(true),
                opening: None,
                hidden,
            });
        };
        let side = obs.side_of[seat];
        let taker = match obs.side_of.iter().filter(|&&s| s == side).count() {
            1 => Taker::You,
            _ => Taker::YourTeam,
        };
        let melds = &obs.melds[side];
        let opened = !melds.is_empty();
        if rules.pile.closed_to(opened) {
            return Some(PileWords::Closed(taker));
        }
        if let Some(freeze) = rules.pile.freeze.against(obs.pile_frozen, opened) {
            return Some(PileWords::Frozen {
                taker,
                freeze,
                rank,
                need: rules.pile.naturals_to_take(true),
                opening: Some(obs.opening_needed[seat]).filter(|&n| n > 0),
                hidden,
            });
        }
        if !rules.pile.top_card_for_the_draw() {
            let of_rank = melds.iter().find(|m| m.rank() == Some(rank) && !m.closed);
            if let Some(meld) = of_rank {
                let canasta = meld.is_canasta(rules);
                if !rules.pile.takes_onto_meld(false, canasta) {
                    return Some(PileWords::NotOntoMeld {
                        rank,
                        need: rules.pile.naturals_to_take(false),
                        canasta,
                        hidden,
                    });
                }
            }
        }
        (hidden > 0).then_some(PileWords::Packet(hidden))
    }
}

/// `two`, `three`: small counts in words.
fn number(n: u8) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        n => n.to_string(),
    }
}

/// `, its 12 face-down cards with it`, or nothing.
fn packet(hidden: usize) -> String {
    match hidden {
        0 => String::new(),
        1 => ", its face-down card with it".into(),
        n => format!(", its {n} face-down cards with it"),
    }
}

/// One sentence, cards in the formatter's [`CardStyle`].
impl fmt::Display for PileWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PileWords::Blocked(top) => {
                let what = match top {
                    c if c.is_black_three() => "A black three",
                    c if c.is_three() => "A three",
                    _ => "A wild card",
                };
                let top = CardStyle::of(f).show(top);
                write!(f, "{what} ({top}) on top: nobody takes the pile this turn")
            }
            PileWords::Closed(Taker::You) => {
                f.write_str("Nothing takes the pile until you meld from hand")
            }
            PileWords::Closed(_) => {
                f.write_str("Nothing takes the pile until your team melds from hand")
            }
            PileWords::Frozen {
                taker,
                freeze,
                rank,
                need,
                opening,
                hidden,
            } => {
                let cause = match (freeze, taker) {
                    (Freeze::ByCard, _) => "",
                    (Freeze::Always, _) => " (always, in these rules)",
                    (Freeze::UntilOpened, Taker::You) => " for you until you meld",
                    (Freeze::UntilOpened, _) => " for your team until it melds",
                };
                let opening = opening.map_or(String::new(), |n| {
                    format!(" as part of a {n}-point opening")
                });
                write!(
                    f,
                    "Frozen{cause}: only {} natural {} from hand take it{opening}{}",
                    number(need),
                    rank.plural(),
                    packet(hidden)
                )
            }
            PileWords::NotOntoMeld {
                rank,
                need,
                canasta,
                hidden,
            } => {
                let meld = if canasta { "canasta" } else { "meld" };
                write!(
                    f,
                    "Not onto your {meld} of {}: {} natural {} from hand take the pile{}",
                    rank.plural(),
                    number(need),
                    rank.plural(),
                    packet(hidden)
                )
            }
            PileWords::Packet(1) => f.write_str("One face-down card comes with the pile, unseen"),
            PileWords::Packet(n) => write!(f, "{n} face-down cards come with the pile, unseen"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;
    use crate::meld::{Group, Meld};
    use crate::rng::Rng;
    use crate::state::GameState;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn meld(s: &str) -> Meld {
        let cards: Vec<Card> = s.split(' ').map(card).collect();
        Meld {
            cards: Group::from_cards(&cards).unwrap(),
            closed: false,
        }
    }

    /// Seat 0's observation of a fresh deal in `variant`, its pile set to
    /// `pile` (top last) and its side's melds to `melds`.
    fn seat0(variant: &str, pile: &str, melds: &[&str]) -> (Observation, Rules) {
        let rules = Rules::preset(variant, None, None).unwrap();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(3), Seat::new(0));
        let mut obs = g.observe(Seat::new(0));
        obs.pile = pile.split(' ').map(card).collect();
        obs.pile_hidden = 0;
        obs.pile_frozen = false;
        let side = obs.side_of[0];
        obs.melds[side] = melds.iter().map(|m| meld(m)).collect();
        if !melds.is_empty() {
            obs.opening_needed[0] = 0;
        }
        (obs, rules)
    }

    fn both(w: PileWords) -> (String, String) {
        (format!("{w}"), format!("{w:#}"))
    }

    #[test]
    fn an_unopened_team_sees_the_freeze_and_what_takes_it() {
        let (obs, rules) = seat0("classic", "5H 9D", &[]);
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(
            w.to_string(),
            "Frozen for your team until it melds: only two natural nines from hand take it \
             as part of a 50-point opening"
        );
        // The freeze for everyone is the card's or the rules', not the side's.
        assert_eq!(PileWords::new(&obs, &rules, None), None);
    }

    #[test]
    fn an_open_pile_has_nothing_to_say() {
        let (obs, rules) = seat0("classic", "5H 9D", &["KS KH KD"]);
        assert_eq!(PileWords::new(&obs, &rules, Some(Seat::new(0))), None);
        // Classic takes the top card onto the side's meld of its rank.
        let (obs, rules) = seat0("classic", "5H 9D", &["9S 9H 9C"]);
        assert_eq!(PileWords::new(&obs, &rules, Some(Seat::new(0))), None);
    }

    #[test]
    fn a_wild_card_in_the_pile_freezes_it_for_everyone() {
        let (mut obs, rules) = seat0("classic", "2C 9D", &["KS KH KD"]);
        obs.pile_frozen = true;
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(
            w.to_string(),
            "Frozen: only two natural nines from hand take it"
        );
        assert_eq!(
            PileWords::new(&obs, &rules, None).map(|w| w.to_string()),
            Some(w.to_string())
        );
    }

    #[test]
    fn a_black_three_on_top_stops_the_pile_in_either_style() {
        let (obs, rules) = seat0("classic", "9D 3S", &["KS KH KD"]);
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(
            both(w),
            (
                "A black three (3S) on top: nobody takes the pile this turn".into(),
                "A black three (3♠) on top: nobody takes the pile this turn".into()
            )
        );
        let (obs, rules) = seat0("classic", "9D JK", &["KS KH KD"]);
        let w = PileWords::new(&obs, &rules, None).unwrap();
        assert_eq!(
            both(w).1,
            "A wild card (Joker) on top: nobody takes the pile this turn"
        );
    }

    #[test]
    fn canastone_closes_the_pile_and_takes_it_from_hand_only() {
        let (mut obs, rules) = seat0("canastone", "5H 9D", &[]);
        obs.pile_hidden = 12;
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(
            w.to_string(),
            "Nothing takes the pile until your team melds from hand"
        );
        obs.melds[obs.side_of[0]] = vec![meld("9S 9H 9C")];
        obs.opening_needed[0] = 0;
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(
            w.to_string(),
            "Not onto your meld of nines: two natural nines from hand take the pile, \
             its 12 face-down cards with it"
        );
        obs.melds[obs.side_of[0]] = vec![meld("KS KH KC")];
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(w, PileWords::Packet(12));
        assert_eq!(
            w.to_string(),
            "12 face-down cards come with the pile, unseen"
        );
        // A wild card in it: three naturals take it (P-CNE).
        obs.pile_frozen = true;
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert_eq!(
            w.to_string(),
            "Frozen: only three natural nines from hand take it, its 12 face-down cards with it"
        );
    }

    #[test]
    fn a_player_alone_is_told_of_themselves() {
        let rules = Rules::preset("classic", Some(2), None).unwrap();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(3), Seat::new(0));
        let mut obs = g.observe(Seat::new(0));
        obs.pile = vec![Card::new(Rank::Nine, Suit::Diamonds)];
        obs.pile_frozen = false;
        let w = PileWords::new(&obs, &rules, Some(Seat::new(0))).unwrap();
        assert!(
            w.to_string()
                .starts_with("Frozen for you until you meld: only two natural nines"),
            "{w}"
        );
    }
}
