//! What the acting seat sees, gathered once per decision in the form the
//! scores read.

use super::{bonus, complete_kind, rank_mask};
use canasta_core::{
    Card, CardCounts, GameState, KindCounts, Meld, Observation, Rank, Rules, rank_bits,
};
use canasta_core::{Seat, Side};

/// What the acting seat sees, in the form the scores need.
pub struct View<'a> {
    pub rules: &'a Rules,
    pub hand: CardCounts,
    /// The side's melds.
    pub own_melds: &'a [Meld],
    /// The face-up pile, bottom first.
    pub pile: &'a [Card],
    pub pile_hidden: usize,
    pub pile_frozen: bool,
    /// Fewest cards in an opponent's hand (how soon they may go out).
    pub opp_min_hand: usize,
    pub side_opened: bool,
    /// Ranks the next seat, the first who can take our discard, has
    /// discarded this hand, when that seat is an opponent: a player who
    /// throws a rank seldom keeps a pair of it.
    pub next_discarded: u16,
    /// Ranks our partners have discarded this hand: their signal that they
    /// hold no pair of it and will not build it.
    pub partner_discarded: u16,
    /// Fewest cards in a partner's hand (`usize::MAX` without a partner):
    /// a partner about to go out is the signal to unload high cards.
    pub partner_min_hand: usize,
    /// Cards in all our partners' hands: they count against us when we go
    /// out, and they are what the side still has to build with.
    pub partner_cards: usize,
    /// The seat after us when it is an opponent: the first who can take
    /// our discard, so the one a discard must be safe against.
    pub next_opp: Option<NextOpponent>,
    /// Cards left in the stock: a short stock ends the hand anyway.
    pub stock: usize,
    /// Our side's match score before this hand.
    pub own_score: i32,
    /// The seat still has a foot to pick up (Pennies): emptying the hand
    /// picks it up rather than ending the hand.
    pub foot_due: bool,
    /// The sampled state a view of a state was read from, kept to work out
    /// the rarely needed figures on first use; only their public parts
    /// (melds, hand sizes, scores, the card values) are read from it.
    pub(super) state: Option<&'a GameState>,
    /// Figures of the whole view that several scores read, worked out on
    /// first use: search scores every legal action at every playout step.
    pub(super) memo: Memo,
}

/// Figures worked out once per view (see [`View::memo`]).
#[derive(Default)]
pub(super) struct Memo {
    /// Cards the seat cannot see: only discards weigh them, and a playout
    /// step often chooses a meld or a draw first ([`View::unseen`]).
    unseen: std::cell::OnceCell<CardCounts>,
    /// Ranks of the next opponent's melds that can still take a card
    /// ([`View::next_onto_ranks`]).
    next_onto_ranks: std::cell::OnceCell<u32>,
    unseen_card_value: std::cell::Cell<Option<i32>>,
    pile_worth: std::cell::Cell<Option<i32>>,
    /// The chance that the next opponent's hidden cards hold a wild card:
    /// the same for every discard weighed.
    next_holds_wild: std::cell::Cell<Option<f32>>,
    /// The opposing side with the most on the table (the one going out is
    /// measured against) and the best opposing match score: only going
    /// out reads them.
    rival: std::cell::Cell<Option<(Rival, i32)>>,
    /// Ranks of the side's melds (bit = rank index).
    own_meld_ranks: std::cell::Cell<Option<u32>>,
    /// The side's canastas by the kinds going out counts.
    canastas: std::cell::Cell<Option<KindCounts>>,
}

/// The mean value of the cards in `cards`, from a table by face.
fn mean_value(cards: &CardCounts, values: &[i32; canasta_core::card::FACES]) -> i32 {
    match cards.total() as i32 {
        0 => 0,
        n => cards.dot(values) / n,
    }
}

impl Memo {
    pub(super) fn get<T: Copy>(cell: &std::cell::Cell<Option<T>>, f: impl FnOnce() -> T) -> T {
        cell.get().unwrap_or_else(|| {
            let x = f();
            cell.set(Some(x));
            x
        })
    }
}

/// An opposing side as going out weighs it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rival {
    /// Points of its melds and canasta bonuses.
    pub table: i32,
    /// Cards in its players' hands: they count against it when we go out.
    pub cards: usize,
    /// It has the canastas going out asks for.
    pub ready: bool,
}

/// What the next seat, an opponent, can take the pile with.
#[derive(Clone, Copy, Debug)]
pub struct NextOpponent {
    pub hand: usize,
    /// Its side has melded (an unopened side must open to take the pile).
    pub opened: bool,
    /// Cards it is known to hold (taken with the pile).
    pub known: CardCounts,
}

/// The signals read from the other seats' discards and hand sizes.
struct Signals {
    next_discarded: u16,
    partner_discarded: u16,
    partner_min_hand: usize,
    partner_cards: usize,
}

impl Signals {
    fn read(
        seat: Seat,
        players: usize,
        side_of: impl Fn(Seat) -> Side,
        discarded: impl Fn(Seat) -> u16,
        hand_size: impl Fn(Seat) -> usize,
    ) -> Signals {
        let side = side_of(seat);
        // The next seat without a division: playouts read it at every step.
        let next = if seat.index() + 1 == players {
            Seat::new(0)
        } else {
            Seat::new(seat.index() + 1)
        };
        let mut signals = Signals {
            next_discarded: if side_of(next) == side {
                0
            } else {
                discarded(next)
            },
            partner_discarded: 0,
            partner_min_hand: usize::MAX,
            partner_cards: 0,
        };
        for s in Seat::all(players).filter(|&s| s != seat && side_of(s) == side) {
            signals.partner_discarded |= discarded(s);
            signals.partner_min_hand = signals.partner_min_hand.min(hand_size(s));
            signals.partner_cards += hand_size(s);
        }
        signals
    }
}

/// The opposing side with the most points on the table, and the best
/// opposing match score.
fn strongest_rival<'m>(
    rules: &Rules,
    sides: impl Iterator<Item = (&'m [Meld], usize, i32)>,
) -> (Rival, i32) {
    let mut rival: Option<Rival> = None;
    let mut score = i32::MIN;
    for (melds, cards, side_score) in sides {
        score = score.max(side_score);
        let this = Rival {
            table: table_points(melds, rules),
            cards,
            ready: canastas_of(melds, rules).meet(rules, rules.going_out.canastas_to_go_out()),
        };
        if rival.is_none_or(|r| this.table > r.table) {
            rival = Some(this);
        }
    }
    (
        rival.unwrap_or_default(),
        if score == i32::MIN { 0 } else { score },
    )
}

/// Ranks of `melds` that can still take the pile's top card.
fn onto_ranks(melds: &[Meld], rules: &Rules) -> u32 {
    if !rules.pile.take_onto_meld {
        return 0;
    }
    melds
        .iter()
        .filter(|m| {
            !m.closed && !m.is_full(rules) && rules.pile.takes_onto_meld(false, m.is_canasta(rules))
        })
        .filter_map(|m| m.rank())
        .fold(0, |acc, r| acc | 1 << r.index())
}

/// Points a side has laid: its cards and its canastas' bonuses.
pub(super) fn table_points(melds: &[Meld], rules: &Rules) -> i32 {
    melds
        .iter()
        .map(|m| m.cards.points(rules) + bonus(&m.cards, rules))
        .sum()
}

fn canastas_of(melds: &[Meld], rules: &Rules) -> KindCounts {
    let mut kinds = KindCounts::default();
    for m in melds {
        if let Some(kind) = complete_kind(m, rules) {
            kinds.add(kind);
        }
    }
    kinds
}

impl<'a> View<'a> {
    /// The view of the seat an observation belongs to.
    pub fn from_observation(obs: &'a Observation, rules: &'a Rules) -> View<'a> {
        let side = obs.side_of[obs.seat];
        let mut opp_min_hand = usize::MAX;
        let mut opp_cards = vec![0; obs.melds.len()];
        for s in Seat::all(obs.players) {
            let other = obs.side_of[s];
            if other == side {
                continue;
            }
            opp_min_hand = opp_min_hand.min(obs.hand_sizes[s]);
            opp_cards[other] += obs.hand_sizes[s];
        }
        let discarded: Vec<u16> = obs
            .table
            .discarded_ranks
            .iter()
            .map(|ranks| rank_bits(ranks))
            .collect();
        let signals = Signals::read(
            obs.seat,
            obs.players,
            |s| obs.side_of[s],
            |s| discarded.get(s.index()).copied().unwrap_or(0),
            |s| obs.hand_sizes[s],
        );
        let (rival, rival_score) = strongest_rival(
            rules,
            Side::all(obs.melds.len()).filter(|&t| t != side).map(|t| {
                (
                    obs.melds[t].as_slice(),
                    opp_cards[t],
                    obs.scores.get(t.index()).copied().unwrap_or(0),
                )
            }),
        );
        let next = obs.seat.after(1, obs.players);
        let next_opp = (obs.side_of[next] != side).then(|| NextOpponent {
            hand: obs.hand_sizes[next],
            opened: obs.opening_needed[next] == 0,
            known: obs.known[next],
        });
        View {
            rules,
            hand: obs.hand,
            own_melds: &obs.melds[side],
            pile: &obs.pile,
            pile_hidden: obs.pile_hidden,
            pile_frozen: obs.pile_frozen,
            opp_min_hand,
            side_opened: obs.opening_needed[obs.seat] == 0,
            next_discarded: signals.next_discarded,
            partner_discarded: signals.partner_discarded,
            partner_min_hand: signals.partner_min_hand,
            partner_cards: signals.partner_cards,
            next_opp,
            stock: obs.stock,
            own_score: obs.scores.get(side.index()).copied().unwrap_or(0),
            foot_due: obs.foot_sizes.get(obs.seat.index()).is_some_and(|&n| n > 0),
            state: None,
            memo: Memo {
                unseen: obs.unseen(rules).into(),
                next_onto_ranks: onto_ranks(&obs.melds[obs.side_of[next]], rules).into(),
                rival: Some((rival, rival_score)).into(),
                ..Memo::default()
            },
        }
    }

    /// The view of the seat to act in `state`, reading only what that seat
    /// sees (for playouts in sampled states, without building an observation).
    pub fn of_state(state: &'a GameState) -> View<'a> {
        let seat = state.to_act();
        let side = state.side_of(seat);
        let players = state.players();
        let opp_min_hand = state
            .seats()
            .filter(|&s| state.side_of(s) != side)
            .map(|s| state.hand(s).total())
            .min()
            .unwrap_or(usize::MAX);
        let hidden = state.pile_hidden();
        let signals = Signals::read(
            seat,
            players,
            |s| state.side_of(s),
            |s| state.discarded_ranks(s),
            |s| state.hand(s).total(),
        );
        let next = state.next_seat(seat);
        let next_side = state.side_of(next);
        let next_opp = (next_side != side).then(|| NextOpponent {
            hand: state.hand(next).total(),
            opened: state.side_has_melded(next_side),
            known: state.known_cards(next),
        });
        View {
            rules: state.rules(),
            hand: *state.hand(seat),
            own_melds: state.melds(side),
            pile: &state.pile()[hidden..],
            pile_hidden: hidden,
            pile_frozen: state.pile_frozen(),
            opp_min_hand,
            side_opened: !state.melds(side).is_empty(),
            next_discarded: signals.next_discarded,
            partner_discarded: signals.partner_discarded,
            partner_min_hand: signals.partner_min_hand,
            partner_cards: signals.partner_cards,
            next_opp,
            stock: state.stock_len(),
            own_score: state.scores().get(side.index()).copied().unwrap_or(0),
            foot_due: state.foot_size(seat) > 0,
            state: Some(state),
            memo: Memo::default(),
        }
    }

    /// Cards the seat cannot see: an observation's, or worked out from
    /// the sampled state on first use (none in a view made by hand that
    /// does not set them).
    pub fn unseen(&self) -> &CardCounts {
        self.memo.unseen.get_or_init(|| match self.state {
            Some(state) => state.unseen_by(state.to_act()),
            None => CardCounts::new(),
        })
    }

    /// Ranks of the next seat's side's melds that can still take a card
    /// (bit = rank index): an unfrozen pile is taken by adding its top card
    /// to one. Read only when a discard is weighed against the next
    /// opponent (none in a view made by hand that does not set them).
    pub fn next_onto_ranks(&self) -> u32 {
        *self.memo.next_onto_ranks.get_or_init(|| match self.state {
            Some(state) => {
                let next = state.next_seat(state.to_act());
                onto_ranks(state.melds(state.side_of(next)), state.rules())
            }
            None => 0,
        })
    }

    /// Sets the next opponent's meld ranks that take the pile (views made
    /// by hand, in tests).
    #[cfg(test)]
    pub(super) fn set_next_onto_ranks(&mut self, ranks: u32) {
        self.memo.next_onto_ranks = ranks.into();
    }

    /// Sets the unseen cards (views made by hand, in tests).
    #[cfg(test)]
    pub(super) fn unseen_mut(&mut self) -> &mut CardCounts {
        self.unseen();
        self.memo.unseen.get_mut().expect("set above")
    }

    pub(super) fn pile_len(&self) -> usize {
        self.pile.len() + self.pile_hidden
    }

    /// Canastas the side has, by the kinds going out counts.
    pub(super) fn canastas(&self) -> KindCounts {
        Memo::get(&self.memo.canastas, || {
            canastas_of(self.own_melds, self.rules)
        })
    }

    /// The points of `cards` by the rules' card values.
    pub(super) fn points_of(&self, cards: &CardCounts) -> i32 {
        self.with_values(|values| cards.dot(values))
    }

    /// `f` of the rules' card values by face: the sampled state's table,
    /// or one made for the occasion.
    pub(super) fn with_values<T>(
        &self,
        f: impl FnOnce(&[i32; canasta_core::card::FACES]) -> T,
    ) -> T {
        match self.state {
            Some(state) => f(state.ruleset().card_value_table()),
            None => f(&self.rules.scoring.card_values.table()),
        }
    }

    /// Points the side has laid this hand.
    pub(super) fn own_table(&self) -> i32 {
        table_points(self.own_melds, self.rules)
    }

    /// The side still lacks a canasta of the special rank that the rules
    /// ask for (Pennies' sevens).
    pub(super) fn needs_special(&self) -> bool {
        self.canastas().special < self.rules.going_out.kinds_needed().special
    }

    pub(super) fn needs_dirty(&self) -> bool {
        self.canastas().dirty < self.rules.going_out.kinds_needed().dirty
    }

    /// Whether the hand looks like it can go out this turn: the side has
    /// the canastas the rules ask for, and at most one card (the discard)
    /// cannot be laid. An estimate: the generator has the exact test.
    pub(super) fn can_go_out(&self) -> bool {
        let rules = self.rules;
        if !self
            .canastas()
            .meet(rules, rules.going_out.canastas_to_go_out())
        {
            return false;
        }
        let mut wilds = i32::from(self.hand.wilds());
        let mut stuck = 0;
        for r in Rank::ALL {
            if r == Rank::Two {
                continue;
            }
            let n = i32::from(self.hand.rank_count(r));
            if n == 0 || self.own_melds.iter().any(|m| m.rank() == Some(r)) {
                continue;
            }
            if r == Rank::Three && rules.melds.special_threes() {
                let black = self.hand.black_threes();
                if !rules.melds.black_threes_may_meld(black) {
                    stuck += i32::from(black);
                }
            } else if n >= i32::from(rules.melds.smallest_meld()) {
                continue;
            } else if rules.melds.enough_naturals(n as u8)
                && wilds >= i32::from(rules.melds.smallest_meld()) - n
            {
                wilds -= i32::from(rules.melds.smallest_meld()) - n;
            } else {
                stuck += n;
            }
        }
        if self.own_melds.is_empty() {
            stuck += wilds;
        }
        stuck <= 1
    }

    /// The mean value of a card the seat cannot see: what each card left in
    /// another hand is likely to cost when the hand ends.
    pub(super) fn unseen_card_value(&self) -> i32 {
        Memo::get(&self.memo.unseen_card_value, || {
            self.with_values(|values| mean_value(self.unseen(), values))
        })
    }

    /// The opposing side with the most points on the table: the one going
    /// out is measured against.
    pub fn rival(&self) -> Rival {
        self.rivals().0
    }

    /// The best opposing match score before this hand.
    pub fn rival_score(&self) -> i32 {
        self.rivals().1
    }

    /// Sets what [`View::rival`] and [`View::rival_score`] answer (a view
    /// made by hand).
    pub fn set_rival(&mut self, rival: Rival, score: i32) {
        self.memo.rival.set(Some((rival, score)));
    }

    fn rivals(&self) -> (Rival, i32) {
        Memo::get(&self.memo.rival, || {
            let state = self
                .state
                .expect("a view not read from a state is given its rival");
            let seat = state.to_act();
            let side = state.side_of(seat);
            let sides = state
                .seats()
                .map(|s| state.side_of(s).index())
                .max()
                .unwrap_or(0)
                + 1;
            strongest_rival(
                state.rules(),
                Side::all(sides).filter(|&t| t != side).map(|t| {
                    (
                        state.melds(t),
                        state.side_members(t).map(|s| state.hand(s).total()).sum(),
                        state.scores().get(t.index()).copied().unwrap_or(0),
                    )
                }),
            )
        })
    }

    /// Ranks of the side's melds (bit = rank index).
    pub(super) fn own_meld_ranks(&self) -> u32 {
        Memo::get(&self.memo.own_meld_ranks, || rank_mask(self.own_melds))
    }

    /// [`Memo::get`] for the pile's worth before another discard.
    pub(super) fn memo_pile_worth(&self, f: impl FnOnce() -> i32) -> i32 {
        Memo::get(&self.memo.pile_worth, f)
    }

    /// [`Memo::get`] for the chance that the next opponent holds a wild card.
    pub(super) fn memo_next_holds_wild(&self, f: impl FnOnce() -> f32) -> f32 {
        Memo::get(&self.memo.next_holds_wild, f)
    }
}
