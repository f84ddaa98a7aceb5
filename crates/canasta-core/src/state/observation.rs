//! What one seat may know: its own hand, everything on the table, the
//! sizes of other hands and the cards it saw enter them from the pile.
//! Bots and clients get this, never the [`GameState`].

use crate::card::{Card, CardCounts, Rank, Suit};
use crate::meld::Meld;
use crate::meld::MeldId;
use crate::rules::Rules;
use crate::seat::{Seat, Side};
use crate::state::{GameState, MAX_SEATS, Phase};
use serde::Serialize;

/// One seat's view of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    pub seat: Seat,
    pub players: usize,
    pub phase: Phase,
    /// Seat whose turn it is, and seat that must act now.
    pub current: Seat,
    pub to_act: Seat,
    pub dealer: Seat,
    pub state_id: u64,
    /// This seat's hand.
    pub hand: CardCounts,
    /// Cards in each seat's hand.
    pub hand_sizes: Vec<usize>,
    /// Cards in each seat's foot, not yet picked up (face down).
    pub foot_sizes: Vec<usize>,
    /// Cards each seat is publicly known to hold (taken with the pile and not
    /// played since).
    pub known: Vec<CardCounts>,
    /// Melds by side, and the side of each seat.
    pub melds: Vec<Vec<Meld>>,
    /// The numbers of the melds closed as canastas by choice (Canastia), by
    /// side: a meld's text does not say it.
    pub closed_melds: Vec<Vec<MeldId>>,
    pub side_of: Vec<Side>,
    pub red_threes: Vec<usize>,
    /// The same red threes by suit: hearts, diamonds.
    pub red_three_suits: Vec<[u8; 2]>,
    /// The discard pile's face-up cards, bottom first (every one was seen).
    pub pile: Vec<Card>,
    /// Face-down cards under them that nobody has seen (P-CNE's packet).
    pub pile_hidden: usize,
    pub pile_frozen: bool,
    pub stock: usize,
    /// Cumulative scores by team.
    pub scores: Vec<i32>,
    /// The opening minimum of each seat's side (0 once the side has melded).
    pub opening_needed: Vec<i32>,
    /// This seat's turn so far.
    pub drew_from_stock: bool,
    pub took_pile: bool,
    pub asked: bool,
    pub answer: Option<bool>,
    pub must_go_out: bool,
    /// Public facts the rules read that everyone at the table saw: so that
    /// a bot told only this observation can rebuild a faithful position.
    pub table: TableFacts,
}

/// Public facts of the hand and of the turn in progress.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct TableFacts {
    /// Hands finished so far in the game.
    pub hands_played: u32,
    /// Each seat has melded this hand.
    pub seat_melded: Vec<bool>,
    /// Each seat still has its first turn to come (red threes laid then,
    /// under `red_three_timing: first_turn`).
    pub first_turn_pending: Vec<bool>,
    /// The ranks each seat has discarded this hand: partners read them as
    /// signals (no pair of that rank held), opponents as safe discards.
    #[serde(default)]
    pub discarded_ranks: Vec<Vec<Rank>>,
    /// This turn: cards laid since the draw; cards added to melds older than
    /// the turn; the side's melds when it began; the player had melded
    /// before it; a canasta completed by the player; an opening before the
    /// draw (Canastone).
    pub laid_since_draw: bool,
    pub added_to_old: bool,
    pub melds_at_start: usize,
    pub had_melded: bool,
    pub completed_canasta: bool,
    pub opened_before_draw: bool,
}

impl Observation {
    /// The pile is closed to this seat's side until it melds (P-CNE): the
    /// judge's own predicate ([`Rules::pile_closed_to`]).
    pub fn pile_closed(&self, rules: &Rules) -> bool {
        rules
            .pile
            .closed_to(!self.melds[self.side_of[self.seat]].is_empty())
    }

    /// Why the pile is frozen against this seat's side, if it is: the
    /// judge's own predicate ([`Rules::pile_freeze`]) on what the seat sees.
    pub fn pile_freeze(&self, rules: &Rules) -> Option<crate::rules::Freeze> {
        let side = self.side_of[self.seat];
        rules
            .pile
            .freeze
            .against(self.pile_frozen, !self.melds[side].is_empty())
    }

    /// Every card this seat cannot see: the deck minus its hand, the table,
    /// the pile and the cards known to be in other hands.
    pub fn unseen(&self, rules: &Rules) -> CardCounts {
        let seen = self.seen();
        let mut unseen = rules.deal.deck();
        for (c, n) in seen.faces() {
            unseen.remove_up_to(c, n);
        }
        unseen
    }

    /// Every card this seat can see: its hand, the table, the pile, the red
    /// threes laid out and the cards known to be in other hands.
    pub fn seen(&self) -> CardCounts {
        let mut seen = self.hand;
        for side in &self.melds {
            for m in side {
                seen.add_all(&m.cards.counts());
            }
        }
        for &c in &self.pile {
            seen.add(c);
        }
        for (s, k) in self.known.iter().enumerate() {
            if s != self.seat.index() {
                seen.add_all(k);
            }
        }
        for suits in &self.red_three_suits {
            seen.add_n(Card::new(Rank::Three, Suit::Hearts), suits[0]);
            seen.add_n(Card::new(Rank::Three, Suit::Diamonds), suits[1]);
        }
        seen
    }
}

/// The ranks whose bits are set, lowest first.
fn ranks_of(bits: u16) -> Vec<Rank> {
    Rank::ALL
        .into_iter()
        .filter(|r| bits & (1 << r.index()) != 0)
        .collect()
}

/// The rank bits of a list of ranks.
pub fn rank_bits(ranks: &[Rank]) -> u16 {
    ranks.iter().fold(0, |acc, r| acc | 1 << r.index())
}

impl GameState {
    /// What anybody at the table sees, seated or not: the view of seat 0
    /// without its hand (no cards in it, and of its cards only those every
    /// seat knows it holds). For spectators.
    pub fn observe_public(&self) -> Observation {
        let first = Seat::new(0);
        let mut obs = self.observe(first);
        obs.hand = CardCounts::default();
        obs.known[first] = self.known[first].unpack();
        obs.must_go_out = false;
        obs
    }

    /// The view of `seat`.
    pub fn observe(&self, seat: Seat) -> Observation {
        let n = self.players();
        let own_turn = self.current == seat;
        let t = &self.turn;
        Observation {
            seat,
            players: n,
            phase: self.phase,
            current: self.current,
            to_act: self.to_act,
            dealer: self.dealer,
            state_id: self.state_id,
            hand: self.hands[seat],
            hand_sizes: Seat::all(n).map(|s| self.hands[s].total()).collect(),
            foot_sizes: Seat::all(n).map(|s| self.feet[s].total()).collect(),
            known: Seat::all(n)
                .map(|s| {
                    if s == seat {
                        self.hands[s]
                    } else {
                        self.known[s].unpack()
                    }
                })
                .collect(),
            melds: Side::all(n.min(MAX_SEATS))
                .map(|s| self.melds[s].to_vec())
                .collect(),
            closed_melds: Side::all(n.min(MAX_SEATS))
                .map(|s| {
                    self.melds[s]
                        .iter()
                        .enumerate()
                        .filter(|(_, m)| m.closed)
                        .map(|(i, _)| MeldId::new(i))
                        .collect()
                })
                .collect(),
            side_of: Seat::all(n).map(|s| self.side_of(s)).collect(),
            red_threes: Seat::all(n).map(|s| self.red_threes(s)).collect(),
            red_three_suits: Seat::all(n).map(|s| self.red_threes[s]).collect(),
            pile: self.pile()[self.pile_hidden as usize..].to_vec(),
            pile_hidden: self.pile_hidden as usize,
            pile_frozen: self.pile_frozen,
            stock: self.stock_len(),
            scores: self.scores().to_vec(),
            opening_needed: Seat::all(n)
                .map(|s| {
                    if self.side_has_melded(self.side_of(s)) {
                        0
                    } else {
                        self.opening_minimum(s)
                    }
                })
                .collect(),
            drew_from_stock: t.drew_from_stock,
            took_pile: t.took_pile,
            asked: t.asked,
            answer: t.answer,
            must_go_out: t.must_go_out && own_turn,
            table: TableFacts {
                hands_played: self.hands_played,
                seat_melded: self.seat_melded[..n.min(MAX_SEATS)].to_vec(),
                first_turn_pending: self.first_turn_pending[..n.min(MAX_SEATS)].to_vec(),
                discarded_ranks: self.discarded_ranks[..n.min(MAX_SEATS)]
                    .iter()
                    .map(|&bits| ranks_of(bits))
                    .collect(),
                laid_since_draw: t.laid_since_draw,
                added_to_old: t.added_to_old,
                melds_at_start: t.melds_at_start as usize,
                had_melded: t.had_melded,
                completed_canasta: t.completed_canasta,
                opened_before_draw: t.opened_before_draw,
            },
        }
    }
}

impl serde::Serialize for Meld {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.cards)
    }
}

impl serde::Serialize for CardCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.total()))?;
        for c in self.iter() {
            seq.serialize_element(&c)?;
        }
        seq.end()
    }
}
