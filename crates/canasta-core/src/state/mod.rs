//! The whole truth of a game: hands, stock order, table, phase and scores.
//!
//! Randomness enters only through the deck given to [`GameState::deal`], so
//! rules + decks + actions replay exactly. Bots and clients see an
//! [`Observation`](crate::Observation), never this.

pub(crate) mod deal;
pub mod determinize;
pub mod observation;
pub mod score;

use crate::action::Action;
use crate::card::{Card, CardCounts, FACES, Rank};
use crate::meld::{Group, Meld};
use crate::rules::{Rules, StockEnd};
use crate::score::HandResult;
use crate::stackvec::StackVec;
use serde::Serialize;
use std::sync::Arc;
use thiserror::Error;

/// Most seats of any variant.
pub const MAX_SEATS: usize = 6;
/// Most cards in any deck (Pennies from Heaven: 4 packs and 8 jokers).
pub const MAX_CARDS: usize = 216;
/// Most melds one side can have on the table: an engine limit, far above
/// real play (eleven ranks, and in Samba several groups of a rank and
/// sequences); the generator offers no new meld past it, and a record that
/// goes past it is refused (`TooManyMelds`).
pub const MAX_MELDS: usize = 32;

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

/// Rules plus tables derived from them, shared by every state of a game.
#[derive(Debug, PartialEq)]
pub struct Ruleset {
    pub rules: Rules,
    pub(crate) values: [i32; FACES],
}

impl Ruleset {
    pub fn new(rules: Rules) -> Arc<Ruleset> {
        let values = rules.card_values.table();
        Arc::new(Ruleset { rules, values })
    }
}

/// What the current turn has done so far; reset when a turn starts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct TurnFlags {
    pub drew_from_stock: bool,
    pub took_pile: bool,
    /// A meld or add since the draw (asking must come before).
    pub laid_since_draw: bool,
    pub asked: bool,
    pub answer: Option<bool>,
    /// Partner said yes, or black threes were melded: go out this turn.
    pub must_go_out: bool,
    /// Cards went onto melds that existed before this turn (spoils "concealed").
    pub added_to_old: bool,
    /// Side melds existing when the turn began; later indexes are new.
    pub melds_at_start: u8,
    /// The player had melded before this turn (spoils "concealed").
    pub had_melded: bool,
    /// The player completed a canasta this turn: the foot follows the discard.
    pub completed_canasta: bool,
    /// The side opened this turn before drawing (P-CNE).
    pub opened_before_draw: bool,
}

/// What a deal did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DealOutcome {
    /// The hand is on.
    Dealt,
    /// The rules void this deal (P-CNE: three wild cards or threes turned
    /// up); the same dealer deals again.
    Annulled,
}

/// A deck that is not the preset's deck.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DealError {
    #[error("the deck has {have} cards, the variant needs {need}")]
    WrongSize { have: usize, need: usize },
    #[error("the deck has {have} of {card}, the variant has {need}")]
    WrongCount { card: Card, have: u8, need: u8 },
    #[error("a deal is not expected now (phase {0:?})")]
    NotExpected(Phase),
    #[error("dealer {dealer} is not a seat (players: {players})")]
    BadDealer { dealer: usize, players: usize },
    #[error(
        "seat {first} cannot play first: the variant starts left of the dealer, or it is not a seat"
    )]
    BadFirst { first: usize },
}

/// The complete state of a game.
#[derive(Debug)]
pub struct GameState {
    rs: Arc<Ruleset>,
    scores: [i32; MAX_SEATS],
    hands_played: u32,
    dealer: u8,
    phase: Phase,
    /// Whose turn it is.
    current: u8,
    /// Who acts now: `current`, or the partner answering.
    to_act: u8,
    hands: [CardCounts; MAX_SEATS],
    /// Each seat's foot, face down until picked up (Pennies from Heaven).
    feet: [CardCounts; MAX_SEATS],
    /// Cards each hand is publicly known to hold (taken from the pile).
    known: [CardCounts; MAX_SEATS],
    /// Top of the stock is the last element.
    stock: StackVec<Card, MAX_CARDS>,
    /// Top of the pile is the last element.
    pile: StackVec<Card, MAX_CARDS>,
    /// Frozen for everyone (wild card or red-three upcard in it).
    pile_frozen: bool,
    /// The bottom cards of the pile nobody has seen (P-CNE's packet).
    pile_hidden: u16,
    /// Melds by side.
    melds: [StackVec<Meld, MAX_MELDS>; MAX_SEATS],
    /// Red threes laid out by each seat: hearts, diamonds.
    red_threes: [[u8; 2]; MAX_SEATS],
    /// The side (meld owner) of each seat.
    side_of: [u8; MAX_SEATS],
    seat_melded: [bool; MAX_SEATS],
    /// Ranks each seat has discarded this hand (bit = rank index): public,
    /// everyone saw the discards, and partners read them as signals.
    discarded_ranks: [u16; MAX_SEATS],
    first_turn_pending: [bool; MAX_SEATS],
    /// Classic 3 players: who plays alone this hand, once known.
    lone_hand: Option<u8>,
    turn: TurnFlags,
    /// Rank of the top card taken with the last pickup (meld numbering).
    last_pickup_rank: Option<Rank>,
    last_hand: Option<Arc<HandResult>>,
    winner: Option<Option<u8>>,
    state_id: u64,
}

/// Every field but the two shared pointers is `Copy`, so a clone is one
/// block copy (search clones states constantly).
impl Clone for GameState {
    fn clone(&self) -> GameState {
        GameState {
            rs: Arc::clone(&self.rs),
            last_hand: self.last_hand.clone(),
            ..*self
        }
    }
}

impl GameState {
    /// A new game waiting for its first deal.
    pub fn new(rules: Rules) -> GameState {
        GameState::with_ruleset(Ruleset::new(rules))
    }

    pub fn with_ruleset(rs: Arc<Ruleset>) -> GameState {
        GameState {
            rs,
            scores: [0; MAX_SEATS],
            hands_played: 0,
            dealer: 0,
            phase: Phase::Deal,
            current: 0,
            to_act: 0,
            hands: [CardCounts::new(); MAX_SEATS],
            feet: [CardCounts::new(); MAX_SEATS],
            known: [CardCounts::new(); MAX_SEATS],
            stock: StackVec::new(),
            pile: StackVec::new(),
            pile_frozen: false,
            pile_hidden: 0,
            melds: Default::default(),
            red_threes: [[0; 2]; MAX_SEATS],
            side_of: [0, 1, 2, 3, 4, 5],
            seat_melded: [false; MAX_SEATS],
            discarded_ranks: [0; MAX_SEATS],
            first_turn_pending: [false; MAX_SEATS],
            lone_hand: None,
            turn: TurnFlags::default(),
            last_pickup_rank: None,
            last_hand: None,
            winner: None,
            state_id: 0,
        }
    }

    /// The same position under other rules (tests that lift one rule).
    #[cfg(test)]
    pub(crate) fn under_rules(&self, rules: Rules) -> GameState {
        GameState {
            rs: Ruleset::new(rules),
            ..self.clone()
        }
    }

    /// What the current turn has done so far.
    pub(crate) fn turn(&self) -> &TurnFlags {
        &self.turn
    }

    pub fn rules(&self) -> &Rules {
        &self.rs.rules
    }

    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.rs
    }

    pub fn players(&self) -> usize {
        self.rs.rules.players as usize
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that must act now (meaningful in Draw, Play and Answer).
    pub fn to_act(&self) -> usize {
        self.to_act as usize
    }

    /// The seat whose turn it is.
    pub fn current(&self) -> usize {
        self.current as usize
    }

    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }

    /// Counts every applied action and deal; clients send it back to reject stale moves.
    pub fn state_id(&self) -> u64 {
        self.state_id
    }

    pub fn hand(&self, seat: usize) -> &CardCounts {
        &self.hands[seat]
    }

    /// The seat's foot, face down until picked up (empty where the variant
    /// has none, or once picked up).
    pub fn foot(&self, seat: usize) -> &CardCounts {
        &self.feet[seat]
    }

    pub fn known_cards(&self, seat: usize) -> &CardCounts {
        &self.known[seat]
    }

    /// Cumulative scores by team (by seat in individual games).
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.rs.rules.teams as usize]
    }

    pub fn hands_played(&self) -> u32 {
        self.hands_played
    }

    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// The stock, next card to be drawn first.
    pub fn stock(&self) -> impl Iterator<Item = Card> + '_ {
        self.stock.iter().rev().copied()
    }

    /// The discard pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    /// How many cards at the bottom of the pile nobody has seen (the packet).
    pub fn pile_hidden(&self) -> usize {
        self.pile_hidden as usize
    }

    pub fn pile_top(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// Frozen for everyone (a wild card or a red-three upcard lies in it).
    pub fn pile_frozen(&self) -> bool {
        self.pile_frozen
    }

    /// The side (owner of melds) a seat belongs to now.
    pub fn side_of(&self, seat: usize) -> usize {
        self.side_of[seat] as usize
    }

    /// Melds of a side, in the order they were first laid.
    pub fn melds(&self, side: usize) -> &[Meld] {
        &self.melds[side]
    }

    /// Melds of the side `seat` belongs to.
    pub fn melds_of(&self, seat: usize) -> &[Meld] {
        &self.melds[self.side_of[seat] as usize]
    }

    /// Seats of a side.
    pub fn side_members(&self, side: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.players()).filter(move |&s| self.side_of[s] as usize == side)
    }

    /// Ranks `seat` has discarded this hand, as a set of rank bits
    /// (bit = [`Rank::index`]).
    pub fn discarded_ranks(&self, seat: usize) -> u16 {
        self.discarded_ranks[seat]
    }

    /// Red threes laid out by a seat.
    pub fn red_threes(&self, seat: usize) -> usize {
        (self.red_threes[seat][0] + self.red_threes[seat][1]) as usize
    }

    pub fn lone_hand(&self) -> Option<usize> {
        self.lone_hand.map(usize::from)
    }

    /// The score of the last finished hand.
    pub fn last_hand(&self) -> Option<&HandResult> {
        self.last_hand.as_deref()
    }

    /// `Some(winner)` once the game is over; the winner is a team, or `None` for a tie.
    pub fn winner(&self) -> Option<Option<usize>> {
        self.winner.map(|w| w.map(usize::from))
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// The opening minimum for the side of `seat`: the cumulative score of
    /// the seat's team picks the row (3 players: the seat's own score).
    pub fn opening_minimum(&self, seat: usize) -> i32 {
        let rules = &self.rs.rules;
        let team = rules.team_of(seat);
        if let Some(need) = rules.opening_when_leading {
            let mine = self.scores[team];
            let leading = (0..rules.teams as usize).all(|t| t == team || self.scores[t] < mine);
            if self.hands_played > 0 && leading {
                return need;
            }
        }
        rules.opening_minimum(self.scores[team])
    }

    pub(crate) fn side_has_melded(&self, side: usize) -> bool {
        !self.melds[side].is_empty()
    }

    /// The partner `ask` goes to: the next member of the side clockwise.
    pub fn partner_of(&self, seat: usize) -> Option<usize> {
        let n = self.players();
        (1..n)
            .map(|d| (seat + d) % n)
            .find(|&s| self.side_of[s] == self.side_of[seat])
    }

    /// Cards of every zone, for conservation checks.
    pub fn all_cards(&self) -> CardCounts {
        let mut c = CardCounts::new();
        for s in 0..self.players() {
            c.add_all(&self.hands[s]);
            c.add_all(&self.feet[s]);
            c.add_n(
                Card::new(Rank::Three, crate::card::Suit::Hearts),
                self.red_threes[s][0],
            );
            c.add_n(
                Card::new(Rank::Three, crate::card::Suit::Diamonds),
                self.red_threes[s][1],
            );
        }
        for side in &self.melds {
            for m in side.iter() {
                c.add_all(&m.cards.counts());
            }
        }
        for &x in self.stock.iter().chain(self.pile.iter()) {
            c.add(x);
        }
        c
    }

    /// Lays out every red three in a hand and replaces it from the stock.
    /// Returns false if the stock ran out before every one was replaced.
    pub(crate) fn lay_out_red_threes(&mut self, seat: usize) -> bool {
        loop {
            let hand = &mut self.hands[seat];
            let red = [
                Card::new(Rank::Three, crate::card::Suit::Hearts),
                Card::new(Rank::Three, crate::card::Suit::Diamonds),
            ];
            let Some(i) = (0..2).find(|&i| hand.count(red[i]) > 0) else {
                return true;
            };
            hand.remove(red[i]);
            self.red_threes[seat][i] += 1;
            match self.stock.pop() {
                Some(c) => self.hands[seat].add(c),
                None => return false,
            }
        }
    }

    pub(crate) fn start_turn(&mut self, seat: usize) {
        self.current = seat as u8;
        self.to_act = seat as u8;
        self.phase = Phase::Draw;
        let side = self.side_of[seat] as usize;
        self.turn = TurnFlags {
            melds_at_start: self.melds[side].len() as u8,
            had_melded: self.seat_melded[seat],
            ..TurnFlags::default()
        };
        if self.first_turn_pending[seat] {
            self.first_turn_pending[seat] = false;
            self.lay_out_red_threes(seat);
        }
        // P-CNE: play ends when a turn begins with the stock too short to draw.
        if self.rs.rules.stock_end == StockEnd::ShortStock
            && self.stock.len() < self.rs.rules.draw_count as usize
        {
            self.end_hand(crate::score::HandEndReason::Stock, None);
        }
    }

    /// Applies an action without checking it: for bots and search, which
    /// take actions from [`GameState::legal_actions`]. Debug builds assert legality.
    pub fn apply_unchecked(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(&action),
            "illegal action {action} in {:?}",
            self.phase
        );
        self.apply_raw(action);
    }

    /// Carries out an action the caller knows to be legal (or is probing).
    pub(crate) fn apply_raw(&mut self, action: Action) {
        let seat = self.to_act as usize;
        let side = self.side_of[seat] as usize;
        self.state_id += 1;
        let feet = self.rs.rules.foot_size > 0;
        let canastas_before = if feet { self.canastas(side) } else { 0 };
        self.apply_action(seat, side, action);
        if feet
            && self.phase == Phase::Play
            && self.side_of[seat] as usize == side
            && self.canastas(side) > canastas_before
        {
            self.turn.completed_canasta = true;
        }
        if self.phase == Phase::Play && self.hands[seat].is_empty() {
            if self.foot_due(seat) {
                // The hand is played out with the foot due: it comes now.
                self.pick_up_foot(seat);
            } else {
                self.end_hand_out(seat);
            }
        }
        if self.phase == Phase::Play && self.holds_only_restricted(self.to_act as usize) {
            let mut legal = crate::action::ActionList::new();
            self.legal_actions_into(&mut legal);
            if legal.is_empty() {
                // P-PEN: a player left with nothing but sevens that may not
                // be discarded ends play, with no going-out bonus.
                self.end_hand(crate::score::HandEndReason::Blocked, None);
            }
        }
    }

    /// Every card in `seat`'s hand is of the special rank while it may not
    /// be discarded (P-PEN's sevens).
    fn holds_only_restricted(&self, seat: usize) -> bool {
        let rules = &self.rs.rules;
        let Some(rank) = rules.special_canasta_rank else {
            return false;
        };
        rules.special_discard != crate::rules::SpecialDiscard::Free
            && self.hands[seat].rank_count(rank) as usize == self.hands[seat].total()
            && self.special_discard_blocked(seat)
    }

    /// Cards of the special rank may not be discarded by `seat` yet (P-PEN:
    /// until every side has a sevens canasta; S002: until the own side has).
    pub(crate) fn special_discard_blocked(&self, seat: usize) -> bool {
        use crate::rules::SpecialDiscard;
        let rules = &self.rs.rules;
        let has = |side: usize| {
            self.melds[side]
                .iter()
                .any(|m| m.going_out_kind(rules) == Some(crate::meld::GoOutKind::Special))
        };
        match rules.special_discard {
            SpecialDiscard::Free => false,
            SpecialDiscard::UntilOwnSide => !has(self.side_of[seat] as usize),
            SpecialDiscard::UntilEverySide => {
                let mut sides = (0..self.players()).map(|s| self.side_of[s] as usize);
                !sides.all(has)
            }
        }
    }

    /// Whether `seat` picks up its foot at the end of this turn (a player
    /// bound to go out goes out instead).
    pub(crate) fn foot_due(&self, seat: usize) -> bool {
        !self.feet[seat].is_empty() && self.turn.completed_canasta && !self.turn.must_go_out
    }

    /// Moves the foot into the hand; its red threes are laid out and replaced.
    fn pick_up_foot(&mut self, seat: usize) {
        let foot = std::mem::take(&mut self.feet[seat]);
        self.hands[seat].add_all(&foot);
        self.lay_out_red_threes(seat);
    }

    fn apply_action(&mut self, seat: usize, side: usize, action: Action) {
        match action {
            Action::Draw => self.draw(seat),
            Action::PickupOnto if self.rs.rules.top_card_to_sequence => {
                // P-SAM (Dutch): the top card alone, onto a sequence, for the draw.
                let top = self.pile.pop().expect("pile has a top card");
                let i = self
                    .pickup_onto_target(side, top)
                    .expect("a sequence the top card extends");
                self.melds[side][i].cards.push_to_run(top);
                self.turn.added_to_old |= i < self.turn.melds_at_start as usize;
                self.seat_melded[seat] = true;
                self.turn.drew_from_stock = true;
                self.phase = Phase::Play;
            }
            Action::PickupOnto => {
                let top = self.pile.pop().expect("pile has a top card");
                self.last_pickup_rank = top.rank();
                self.form_partnership_against(seat);
                let i = self
                    .pickup_onto_target(side, top)
                    .expect("a meld that takes the top card");
                let meld = &mut self.melds[side][i].cards;
                if meld.is_sequence() {
                    meld.push_to_run(top);
                } else {
                    meld.push(top).expect("same rank");
                }
                self.turn.added_to_old |= i < self.turn.melds_at_start as usize;
                self.take_pile(seat);
            }
            Action::Pickup { with, also } => {
                let top = self.pile.pop().expect("pile has a top card");
                self.last_pickup_rank = top.rank();
                self.form_partnership_against(seat);
                let side = self.side_of[seat] as usize;
                let mut group = with;
                group.push(top).expect("same rank");
                self.remove_from_hand(seat, &with);
                self.lay_group(seat, side, group);
                for g in also.iter() {
                    self.remove_from_hand(seat, g);
                    self.lay_group(seat, side, *g);
                    // Black threes are melded only in going out.
                    if g.is_special_threes(&self.rs.rules) {
                        self.turn.must_go_out = true;
                    }
                }
                self.take_pile(seat);
            }
            Action::Meld(groups) => {
                if self.phase == Phase::Draw && !self.side_has_melded(side) {
                    self.turn.opened_before_draw = true;
                }
                if !self.side_has_melded(side) {
                    // An opening below the minimum is only a concealed going out.
                    let points: i32 = groups
                        .iter()
                        .map(|g| g.opening_points(&self.rs.rules))
                        .sum();
                    if points < self.opening_minimum(seat) {
                        self.turn.must_go_out = true;
                    }
                }
                for g in groups.iter() {
                    self.remove_from_hand(seat, g);
                    self.lay_group(seat, side, *g);
                    if g.is_special_threes(&self.rs.rules) {
                        self.turn.must_go_out = true;
                    }
                }
                // Melds laid before the draw (P-CNE's opening) do not count
                // against asking after it.
                self.turn.laid_since_draw |= self.phase == Phase::Play;
            }
            Action::Add { meld, cards } => {
                self.remove_from_hand(seat, &cards);
                self.melds[side][meld as usize].cards.merge(&cards);
                self.turn.added_to_old |= (meld as usize) < self.turn.melds_at_start as usize;
                self.seat_melded[seat] = true;
                self.turn.laid_since_draw |= self.phase == Phase::Play;
            }
            Action::CloseCanasta(m) => {
                self.melds[side][m as usize].closed = true;
            }
            Action::Discard(c) => {
                self.hands[seat].remove(c);
                if self.known[seat].count(c) > 0 {
                    self.known[seat].remove(c);
                }
                self.pile.push(c);
                if let Some(r) = c.rank() {
                    self.discarded_ranks[seat] |= 1 << r.index();
                }
                if (c.is_wild() && self.rs.rules.wilds_freeze_pile)
                    || (c.is_black_three() && self.rs.rules.black_three_freezes)
                {
                    self.pile_frozen = true;
                }
                if self.foot_due(seat) {
                    self.pick_up_foot(seat);
                }
                if self.hands[seat].is_empty() {
                    self.end_hand_out(seat);
                } else {
                    let next = (seat + 1) % self.players();
                    self.start_turn(next);
                }
            }
            Action::Ask => {
                self.turn.asked = true;
                self.phase = Phase::Answer;
                self.to_act = self.partner_of(seat).expect("ask needs a partner") as u8;
            }
            Action::Answer(yes) => {
                self.turn.answer = Some(yes);
                self.turn.must_go_out |= yes;
                self.phase = Phase::Play;
                self.to_act = self.current;
            }
        }
    }

    fn draw(&mut self, seat: usize) {
        if self.stock.is_empty() {
            self.end_hand(crate::score::HandEndReason::Stock, None);
            return;
        }
        // Red threes drawn are laid out and replaced as part of the draw; a
        // draw that yields no usable card from an emptied stock ends the hand
        // (P-CAN, RG-2: "a lone last card that is a red three").
        let mut needed = self.rs.rules.draw_count;
        let mut usable = 0;
        let mut red = false;
        while needed > 0 {
            let Some(c) = self.stock.pop() else { break };
            if c.is_red_three() {
                red = true;
                self.red_threes[seat]
                    [usize::from(c != Card::new(Rank::Three, crate::card::Suit::Hearts))] += 1;
            } else {
                self.hands[seat].add(c);
                needed -= 1;
                usable += 1;
            }
        }
        // P-CNE: a red three among the last cards drawn ends play at once;
        // Canastia: emptying the stock does.
        let short = match self.rs.rules.stock_end {
            // Only when a red three could not be replaced (S000).
            StockEnd::ShortStock => red && self.stock.is_empty() && needed > 0,
            StockEnd::Emptied => self.stock.is_empty(),
            StockEnd::TakePile => false,
        };
        if usable == 0 || short {
            self.end_hand(crate::score::HandEndReason::Stock, None);
            return;
        }
        self.turn.drew_from_stock = true;
        self.phase = Phase::Play;
    }

    /// Moves the rest of the pile into the taker's hand; red threes in it
    /// are laid out without replacement.
    fn take_pile(&mut self, seat: usize) {
        let hidden = self.pile_hidden as usize;
        for (i, &c) in self.pile.take_all().iter().enumerate() {
            if c.is_red_three() {
                self.red_threes[seat]
                    [usize::from(c != Card::new(Rank::Three, crate::card::Suit::Hearts))] += 1;
            } else {
                self.hands[seat].add(c);
                // Only the taker sees the packet's cards.
                if i >= hidden {
                    self.known[seat].add(c);
                }
            }
        }
        self.pile_hidden = 0;
        self.pile_frozen = false;
        self.turn.took_pile = true;
        self.seat_melded[seat] = true;
        self.phase = Phase::Play;
        // P-CNE: one card from the stock goes with the pile.
        for _ in 0..self.rs.rules.pile_extra_draw {
            while let Some(c) = self.stock.pop() {
                if c.is_red_three() {
                    self.red_threes[seat]
                        [usize::from(c != Card::new(Rank::Three, crate::card::Suit::Hearts))] += 1;
                } else {
                    self.hands[seat].add(c);
                    break;
                }
            }
        }
    }

    fn remove_from_hand(&mut self, seat: usize, g: &Group) {
        for c in g.cards() {
            let ok = self.hands[seat].remove(c);
            debug_assert!(ok, "{c} not in hand");
            if self.known[seat].count(c) > 0 {
                self.known[seat].remove(c);
            }
        }
    }

    /// Lays a group as a new meld, or merges it into the meld
    /// [`lay_target`](crate::judge::lay_target) names.
    fn lay_group(&mut self, seat: usize, side: usize, g: Group) {
        self.seat_melded[seat] = true;
        match crate::judge::lay_target(&self.rs.rules, &self.melds[side], &g) {
            Some(i) => {
                self.melds[side][i].cards.merge(&g);
                self.turn.added_to_old |= i < self.turn.melds_at_start as usize;
            }
            _ => self.melds[side].push(Meld {
                cards: g,
                closed: false,
            }),
        }
    }

    /// The side's meld of `rank` that can still take cards: its only meld of
    /// the rank, or where melds are capped (P-PEN) the one not yet full.
    pub(crate) fn meld_index_of_rank(&self, side: usize, rank: Option<Rank>) -> Option<usize> {
        rank?;
        let rules = &self.rs.rules;
        self.melds[side]
            .iter()
            .position(|m| m.cards.rank() == rank && !m.is_full(rules))
    }

    /// Classic 3 players: the first to take the pile (or to go out) plays
    /// alone; the other two pool their melds from now on (merging melds of
    /// the same rank; the later seat's melds are numbered after the earlier's).
    pub(crate) fn form_partnership_against(&mut self, lone: usize) {
        if !self.rs.rules.temporary_partnership || self.lone_hand.is_some() {
            return;
        }
        self.lone_hand = Some(lone as u8);
        let others: Vec<usize> = (0..self.players()).filter(|&s| s != lone).collect();
        let (a, b) = (others[0], others[1]);
        let moved = std::mem::take(&mut self.melds[b]);
        for &m in moved.iter() {
            match self.meld_index_of_rank(a, m.cards.rank()) {
                Some(i) => self.melds[a][i].cards.merge(&m.cards),
                None => self.melds[a].push(m),
            }
        }
        self.side_of[b] = a as u8;
    }

    fn end_hand_out(&mut self, seat: usize) {
        self.form_partnership_against(seat);
        self.end_hand(crate::score::HandEndReason::Out, Some(seat));
    }

    fn end_hand(&mut self, reason: crate::score::HandEndReason, seat: Option<usize>) {
        let result = crate::score::score_hand(self, reason, seat);
        for (t, s) in result.teams.iter().enumerate() {
            self.scores[t] += s.total;
        }
        self.hands_played += 1;
        let teams = self.rs.rules.teams as usize;
        let best = *self.scores[..teams].iter().max().unwrap();
        self.phase = Phase::HandOver;
        let leaders: Vec<usize> = (0..teams).filter(|&t| self.scores[t] == best).collect();
        if best >= self.rs.rules.target && !(self.rs.rules.tie_plays_on && leaders.len() > 1) {
            self.winner = Some((leaders.len() == 1).then(|| leaders[0] as u8));
            self.phase = Phase::GameOver;
        }
        let mut result = result;
        result.totals = self.scores[..teams].to_vec();
        self.last_hand = Some(Arc::new(result));
    }
}
