//! Dealing a hand in the record spec's order: hands, feet, upcards, the
//! packet, red threes, the stock; or, where red threes are replaced before
//! the upcard (`RedThreeTiming::BeforeUpcard`, US Italian), hands, feet,
//! red threes, upcards, the packet, the stock.

use crate::card::{Card, CardCounts, PackedCounts};
use crate::rules::{PilePacket, RedThreeTiming};
use crate::seat::Seat;
use crate::state::{DealError, DealOutcome, GameState, MAX_SEATS, Phase, TurnFlags};

impl GameState {
    /// Deals a hand from `deck` (index 0 is the top) in the record spec's
    /// order. A deal the rules annul leaves the game waiting for the same
    /// dealer's next deal.
    ///
    /// # Errors
    /// When no deal is expected, or the deck is not the preset's deck.
    pub fn deal(&mut self, deck: &[Card], dealer: Seat) -> Result<DealOutcome, DealError> {
        self.deal_with_first(deck, dealer, None)
    }

    /// Who deals the next hand: the deal passes to the left after each
    /// hand (P-CAN, P-CNE, P-SAM, P-PEN), and a void deal is dealt again by
    /// the same dealer (P-CNE). `None` before the first deal, which any
    /// seat may make (the players cut for it), and in a preset that draws
    /// its first player at random (Canastia, S004: no rotation is stated).
    /// `canasta check` refuses a record's deal by another seat.
    pub fn next_dealer(&self) -> Option<Seat> {
        if self.rs.rules.deal.random_first_player {
            return None;
        }
        match self.phase {
            Phase::HandOver => Some(self.dealer.after(1, self.players())),
            // After a void deal: nothing else moves the state in this phase.
            Phase::Deal if self.state_id > 0 => Some(self.dealer),
            _ => None,
        }
    }

    /// [`GameState::deal`] with the first player named (`None`: the
    /// dealer's left), for variants that choose it at random.
    ///
    /// # Errors
    /// As `deal`, and a first player that is not a seat, or that differs
    /// from the dealer's left where the rules do not choose it at random.
    /// The dealer is not held to [`GameState::next_dealer`] here (a test or
    /// a table may deal any seat); `check` holds a record to it.
    pub fn deal_with_first(
        &mut self,
        deck: &[Card],
        dealer: Seat,
        first: Option<Seat>,
    ) -> Result<DealOutcome, DealError> {
        if !matches!(self.phase, Phase::Deal | Phase::HandOver) {
            return Err(DealError::NotExpected(self.phase));
        }
        let n = self.players();
        if dealer.index() >= n {
            return Err(DealError::BadDealer {
                dealer: dealer.index(),
                players: n,
            });
        }
        if let Some(f) = first
            && (f.index() >= n
                || (!self.rs.rules.deal.random_first_player && f != dealer.after(1, n)))
        {
            return Err(DealError::BadFirst { first: f.index() });
        }
        let rules = &self.rs.rules;
        let need = rules.deal.deck();
        if deck.len() != need.total() {
            return Err(DealError::WrongSize {
                have: deck.len(),
                need: need.total(),
            });
        }
        let have = CardCounts::from_cards(deck.iter().copied());
        if let Some(card) = Card::all().find(|&c| have.count(c) != need.count(c)) {
            return Err(DealError::WrongCount {
                card,
                have: have.count(card),
                need: need.count(card),
            });
        }
        self.reset_hand(dealer);
        let rules = &self.rs.rules;
        let mut pos = 0;
        // 1. Hands, one card at a time clockwise from the dealer's left.
        let mut seat = dealer;
        for _ in 0..n * rules.deal.hand_size as usize {
            seat = self.next_seat(seat);
            self.hands[seat].add(deck[pos]);
            pos += 1;
        }
        // 2. Feet: each seat's whole packet, seats in the same order.
        for i in 1..=n {
            for _ in 0..rules.deal.foot_size {
                self.feet[dealer.after(i, n)].add(deck[pos]);
                pos += 1;
            }
        }
        // 6. What is left is the stock, its top the next card drawn; the
        // upcards, the packet and the red threes' replacements come off it
        // in the order the rules deal them.
        for &c in deck[pos..].iter().rev() {
            self.stacks.push_stock(c);
        }
        let timing = rules.deal.red_three_timing;
        if timing == RedThreeTiming::BeforeUpcard {
            self.lay_out_dealt_red_threes(dealer);
        }
        if !self.turn_upcards() {
            self.reset_hand(dealer);
            self.phase = Phase::Deal;
            self.state_id += 1;
            return Ok(DealOutcome::Annulled);
        }
        self.put_packet_under_upcards();
        match timing {
            RedThreeTiming::AfterDeal => self.lay_out_dealt_red_threes(dealer),
            RedThreeTiming::BeforeUpcard => {}
            RedThreeTiming::FirstTurn => self.first_turn_pending = [true; MAX_SEATS],
        }
        self.face_up = self.count_face_up();
        self.state_id += 1;
        self.start_turn(first.unwrap_or(dealer.after(1, n)));
        Ok(DealOutcome::Dealt)
    }

    /// Deals shuffled decks from `rng` until one stands (a voided deal is
    /// dealt again by the same dealer); returns the decks used, in order.
    pub fn deal_random(&mut self, rng: &mut crate::rng::Rng, dealer: Seat) -> Vec<Vec<Card>> {
        let mut decks = Vec::new();
        loop {
            let deck = crate::rng::shuffled_deck(&self.rs.rules, rng);
            let outcome = self
                .deal(&deck, dealer)
                .expect("a shuffled preset deck deals");
            decks.push(deck);
            if outcome == DealOutcome::Dealt {
                return decks;
            }
        }
    }

    /// Step 5: red threes dealt to players, laid out and replaced from the
    /// stock seat by seat from the dealer's left.
    fn lay_out_dealt_red_threes(&mut self, dealer: Seat) {
        let n = self.players();
        for i in 1..=n {
            self.lay_out_red_threes(dealer.after(i, n));
        }
    }

    /// Step 3: upcards from the stock, another while the top is wild or a red
    /// three (P-CAN), or any three (P-CNE), up to `max_upcards`. False when
    /// every one called for another: the deal is void (P-CNE).
    fn turn_upcards(&mut self) -> bool {
        let rules = &self.rs.rules;
        let mut turned = 0;
        while let Some(c) = self.stacks.pop_stock() {
            turned += 1;
            self.stacks.push_pile(c);
            if rules.pile.freeze.by_upcard(c) {
                self.pile_frozen = true;
            }
            let again = (c.is_wild() && rules.pile.upcard_wild_turns_again)
                || c.is_red_three()
                || (c.is_black_three()
                    && (rules.pile.upcard_black_three_turns_again
                        || rules.pile.upcard_threes_turn_again));
            if !again {
                break;
            }
            if rules.pile.max_upcards > 0 && turned == rules.pile.max_upcards {
                return false;
            }
        }
        true
    }

    /// Step 4: the face-down packet under the upcards (P-CNE), as one block: its
    /// first card from the stock lies at the bottom of the pile.
    fn put_packet_under_upcards(&mut self) {
        let packet = match self.rs.rules.pile.pile_packet {
            PilePacket::None => 0,
            PilePacket::ByRank => self
                .stacks
                .pile_top()
                .and_then(|c| c.rank())
                .map_or(0, |r| r as usize),
        };
        let packet = packet.min(self.stacks.stock_len());
        if packet > 0 {
            let upcards = self.stacks.take_pile();
            for _ in 0..packet {
                let c = self
                    .stacks
                    .pop_stock()
                    .expect("the packet fits in the stock");
                self.stacks.push_pile(c);
            }
            for &c in upcards.iter() {
                self.stacks.push_pile(c);
            }
        }
        self.pile_hidden = packet as u16;
    }

    fn reset_hand(&mut self, dealer: Seat) {
        let rules = &self.rs.rules;
        self.dealer = dealer;
        self.hands = [CardCounts::new(); MAX_SEATS];
        self.feet = [PackedCounts::new(); MAX_SEATS];
        self.known = [PackedCounts::new(); MAX_SEATS];
        self.stacks = Default::default();
        self.pile_frozen = false;
        self.pile_hidden = 0;
        self.melds = Default::default();
        self.red_threes = [[0; 2]; MAX_SEATS];
        self.face_up = CardCounts::new();
        for s in rules.game.seats() {
            self.side_of[s] = rules.game.starting_side(s);
        }
        self.seat_melded = [false; MAX_SEATS];
        self.discarded_ranks = [0; MAX_SEATS];
        self.first_turn_pending = [false; MAX_SEATS];
        self.lone_hand = None;
        self.turn = TurnFlags::default();
    }
}
