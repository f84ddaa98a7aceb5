//! Is an observation one the rules could have produced? A bot served over
//! the bot protocol reads observations from another program, so each is
//! checked against the game's rules before a bot rebuilds a position from
//! it: well-typed JSON can still name a seat that does not exist, lists of
//! the wrong length, or more cards than the deck holds.

use super::Phase;
use super::observation::Observation;
use crate::card::Card;
use crate::rules::Rules;
use thiserror::Error;

/// What makes an observation impossible under the game's rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ObservationError {
    #[error("`players` is {have}, the game has {need}")]
    Players { have: usize, need: usize },
    #[error("`{field}` is seat {seat}, but seats are 0 to {last}")]
    Seat {
        field: &'static str,
        seat: usize,
        last: usize,
    },
    #[error("`{field}` has {have} entries, the game needs {need}")]
    Length {
        field: &'static str,
        have: usize,
        need: usize,
    },
    #[error("`hand` holds {have} cards, `hand_sizes` says {need}")]
    HandSize { have: usize, need: usize },
    #[error("seat {seat} is known to hold {known} cards but holds {size}")]
    KnownCards {
        seat: usize,
        known: usize,
        size: usize,
    },
    #[error("{card} is seen {seen} times; the deck holds {deck}")]
    TooManyCopies { card: Card, seen: usize, deck: u8 },
    #[error("the cards add up to {have}; the deck has {need}")]
    CardTotal { have: usize, need: usize },
    #[error("`closed_melds` names meld {meld} of side {side}, which does not exist")]
    ClosedMeld { side: usize, meld: usize },
    #[error("`pile_hidden` is {hidden}, more than the deck's {deck} cards")]
    PileHidden { hidden: usize, deck: usize },
    #[error("an empty meld on side {side}")]
    EmptyMeld { side: usize },
    #[error("phase `{0}` has no seat to act")]
    NoDecision(Phase),
}

impl Observation {
    /// Checks everything the rules fix about an observation: seat numbers,
    /// list lengths, card counts against the deck, and that every card is
    /// somewhere.
    ///
    /// # Errors
    /// The first impossibility found.
    pub fn validate(&self, rules: &Rules) -> Result<(), ObservationError> {
        use ObservationError as E;
        let n = rules.game.players as usize;
        if self.players != n {
            return Err(E::Players {
                have: self.players,
                need: n,
            });
        }
        for (field, seat) in [
            ("seat", self.seat),
            ("current", self.current),
            ("to_act", self.to_act),
            ("dealer", self.dealer),
        ] {
            if seat.index() >= n {
                return Err(E::Seat {
                    field,
                    seat: seat.index(),
                    last: n - 1,
                });
            }
        }
        let teams = rules.game.teams as usize;
        for (field, have, need) in [
            ("hand_sizes", self.hand_sizes.len(), n),
            ("foot_sizes", self.foot_sizes.len(), n),
            ("known", self.known.len(), n),
            ("melds", self.melds.len(), n),
            ("closed_melds", self.closed_melds.len(), n),
            ("side_of", self.side_of.len(), n),
            ("red_threes", self.red_threes.len(), n),
            ("red_three_suits", self.red_three_suits.len(), n),
            ("opening_needed", self.opening_needed.len(), n),
            ("scores", self.scores.len(), teams),
        ] {
            if have != need {
                return Err(E::Length { field, have, need });
            }
        }
        // Optional public facts: absent (empty) or one entry a seat.
        for (field, have) in [
            ("table.seat_melded", self.table.seat_melded.len()),
            (
                "table.first_turn_pending",
                self.table.first_turn_pending.len(),
            ),
            ("table.discarded_ranks", self.table.discarded_ranks.len()),
        ] {
            if have != 0 && have != n {
                return Err(E::Length {
                    field,
                    have,
                    need: n,
                });
            }
        }
        for &side in &self.side_of {
            if side.index() >= n {
                return Err(E::Seat {
                    field: "side_of",
                    seat: side.index(),
                    last: n - 1,
                });
            }
        }
        if !matches!(self.phase, Phase::Draw | Phase::Play | Phase::Answer) {
            return Err(E::NoDecision(self.phase));
        }
        if self.hand.total() != self.hand_sizes[self.seat] {
            return Err(E::HandSize {
                have: self.hand.total(),
                need: self.hand_sizes[self.seat],
            });
        }
        for (seat, known) in self.known.iter().enumerate() {
            if known.total() > self.hand_sizes[seat] {
                return Err(E::KnownCards {
                    seat,
                    known: known.total(),
                    size: self.hand_sizes[seat],
                });
            }
        }
        for (side, closed) in self.closed_melds.iter().enumerate() {
            if let Some(&meld) = closed
                .iter()
                .find(|&&m| m.index() >= self.melds[side].len())
            {
                return Err(E::ClosedMeld {
                    side,
                    meld: meld.index(),
                });
            }
        }
        if let Some(side) = self
            .melds
            .iter()
            .position(|s| s.iter().any(|m| m.cards.is_empty()))
        {
            return Err(E::EmptyMeld { side });
        }
        let deck = rules.deal.deck().total();
        if self.pile_hidden > deck {
            return Err(E::PileHidden {
                hidden: self.pile_hidden,
                deck,
            });
        }
        self.validate_cards(rules)
    }

    /// No card seen more often than the deck holds it, and every card of
    /// the deck somewhere (hands, feet, stock, pile, melds, red threes).
    fn validate_cards(&self, rules: &Rules) -> Result<(), ObservationError> {
        use ObservationError as E;
        let deck = rules.deal.deck();
        let seen = self.seen();
        if let Some((card, n)) = seen.faces().find(|&(c, n)| n > deck.count(c)) {
            return Err(E::TooManyCopies {
                card,
                seen: n as usize,
                deck: deck.count(card),
            });
        }
        // Saturating: the numbers come from another program.
        let total = [self.stock, self.pile.len(), self.pile_hidden]
            .into_iter()
            .chain(self.hand_sizes.iter().copied())
            .chain(self.foot_sizes.iter().copied())
            .chain(self.red_threes.iter().copied())
            .chain(self.melds.iter().flatten().map(|m| m.cards.len() as usize))
            .fold(0usize, usize::saturating_add);
        if total != deck.total() {
            return Err(E::CardTotal {
                have: total,
                need: deck.total(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::{Seat, Side};
    use crate::{GameState, Rng};

    /// The spectators' view shows only what every seat sees: its cards are
    /// within each seat's seen cards, and it holds no hand.
    #[test]
    fn the_public_view_is_what_every_seat_sees() {
        for rules in crate::rules::all_forms() {
            let mut rng = Rng::new(5);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(0));
            for _ in 0..200 {
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    break;
                }
                let public = g.observe_public();
                assert_eq!(public.hand.total(), 0);
                assert!(!public.must_go_out);
                // seen() leaves out the viewer's own known cards: add seat 0's.
                let mut shown = public.seen();
                shown.add_all(&public.known[0]);
                for seat in g.seats() {
                    let seat_sees = g.observe(seat).seen();
                    let mut with_own = seat_sees;
                    with_own.add_all(g.hand(seat));
                    assert!(
                        with_own.contains_all(&shown),
                        "{} seat {seat}: {with_own} vs {shown} known {:?}",
                        rules.game.variant,
                        public.known
                    );
                    // Nothing of another seat's hand beyond what it took openly.
                    for other in g.seats().filter(|&o| o != seat) {
                        assert!(g.known_cards(other).contains_all(&public.known[other]));
                    }
                }
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
        }
    }

    /// Every observation of random play of every form is valid, and each
    /// of a list of breakages is caught with its reason.
    #[test]
    fn real_observations_pass_and_broken_ones_are_named() {
        for rules in crate::rules::all_forms() {
            let mut rng = Rng::new(11);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(0));
            for _ in 0..150 {
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    break;
                }
                let o = g.observe(g.to_act());
                assert_eq!(o.validate(&rules), Ok(()), "{}", rules.game.variant);
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
        }
        let rules = Rules::classic();
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut Rng::new(2), Seat::new(0));
        let good = g.observe(g.to_act());
        type Breakage = (fn(&mut Observation), &'static str);
        let broken: [Breakage; 8] = [
            (|o| o.seat = Seat::new(9), "`seat` is seat 9"),
            (|o| o.players = 7, "`players` is 7"),
            (
                |o| o.hand_sizes.pop().map(drop).unwrap_or(()),
                "`hand_sizes` has 3",
            ),
            (|o| o.stock = 1_000_000, "add up to"),
            (|o| o.stock = usize::MAX, "add up to"),
            (|o| o.side_of[0] = Side::new(40), "`side_of` is seat 40"),
            (|o| o.pile_hidden = 500, "`pile_hidden` is 500"),
            (
                |o| {
                    for _ in 0..9 {
                        o.pile.push(Card::JOKER);
                    }
                },
                "JK is seen",
            ),
        ];
        for (breakage, says) in broken {
            let mut o = good.clone();
            breakage(&mut o);
            let err = o.validate(&rules).unwrap_err().to_string();
            assert!(err.contains(says), "{err} (wanted `{says}`)");
        }
    }
}
