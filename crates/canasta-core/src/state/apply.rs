//! Carrying out actions and the steps that follow by themselves: drawing,
//! taking the pile, laying groups, red threes, the foot, the end of a hand.
//! Only what the judge accepted (or the generator offered) comes here.

use super::*;
use crate::seat::{Seat, Side, Team};

impl GameState {
    /// Lays out every red three in a hand and replaces each from the stock
    /// while it lasts: a red three is never held, even when no card can
    /// replace it (a foot picked up with the stock gone).
    pub(crate) fn lay_out_red_threes(&mut self, seat: Seat) {
        loop {
            let hand = &mut self.hands[seat];
            let red = [
                Card::new(Rank::Three, crate::card::Suit::Hearts),
                Card::new(Rank::Three, crate::card::Suit::Diamonds),
            ];
            let Some(i) = (0..2).find(|&i| hand.count(red[i]) > 0) else {
                return;
            };
            hand.remove(red[i]);
            self.red_threes[seat][i] += 1;
            self.face_up.add(red[i]);
            if let Some(c) = self.stacks.pop_stock() {
                self.hands[seat].add(c);
            }
        }
    }

    pub(crate) fn start_turn(&mut self, seat: Seat) {
        self.current = seat;
        self.to_act = seat;
        self.phase = Phase::Draw;
        let side = self.side_of[seat];
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
        if self.rs.rules.going_out.stock_end == StockEnd::ShortStock
            && self.stacks.stock_len() < self.rs.rules.deal.draw_count as usize
        {
            self.end_hand(crate::state::score::HandEndReason::Stock, None);
        }
    }

    /// Debug builds (tests among them) check after every legal action that
    /// the counts kept as cards move equal a fresh count. A probe of an
    /// illegal action may leave them wrong: its state is thrown away.
    #[inline]
    pub(crate) fn debug_check_kept_counts(&self, action: &Action) {
        debug_assert_eq!(self.face_up, self.count_face_up(), "after {action}");
    }

    /// Carries out an action the caller knows to be legal (or is probing).
    pub(crate) fn apply_raw(&mut self, action: Action) {
        let seat = self.to_act;
        let side = self.side_of[seat];
        self.state_id += 1;
        let feet = self.rs.rules.deal.has_feet();
        let canastas_before = if feet { self.canastas(side) } else { 0 };
        self.apply_action(seat, side, action);
        if feet
            && self.phase == Phase::Play
            && self.side_of[seat] == side
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
        if self.phase == Phase::Play && self.holds_only_restricted(self.to_act) {
            let mut legal = crate::action::ActionList::new();
            self.legal_actions_into(&mut legal);
            if legal.is_empty() {
                // P-PEN: a player left with nothing but sevens that may not
                // be discarded ends play, with no going-out bonus.
                self.end_hand(crate::state::score::HandEndReason::Blocked, None);
            }
        }
    }

    /// Moves the foot into the hand; its red threes are laid out and replaced.
    fn pick_up_foot(&mut self, seat: Seat) {
        let foot = std::mem::take(&mut self.feet[seat]).unpack();
        self.hands[seat].add_all(&foot);
        self.lay_out_red_threes(seat);
    }

    fn apply_action(&mut self, seat: Seat, side: Side, action: Action) {
        match action {
            Action::Draw => self.draw(seat),
            Action::PickupOnto if self.rs.rules.pile.top_card_for_the_draw() => {
                // P-SAM (Dutch): the top card alone, onto a sequence, for the draw.
                let top = self.stacks.pop_pile().expect("pile has a top card");
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
                let top = self.stacks.pop_pile().expect("pile has a top card");
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
                let top = self.stacks.pop_pile().expect("pile has a top card");
                self.last_pickup_rank = top.rank();
                self.form_partnership_against(seat);
                let side = self.side_of[seat];
                // Asking comes before any further meld, the top card's
                // excepted (P-CAN): melds laid with the pile by a side that
                // had opened are further melds; an opening's are how the
                // side takes the pile.
                self.turn.laid_since_draw |= !also.is_empty() && self.side_has_melded(side);
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
                self.melds[side][meld.index()].cards.merge(&cards);
                self.turn.added_to_old |= meld.index() < self.turn.melds_at_start as usize;
                self.seat_melded[seat] = true;
                self.turn.laid_since_draw |= self.phase == Phase::Play;
            }
            Action::CloseCanasta(m) => {
                self.melds[side][m.index()].closed = true;
            }
            Action::Discard(c) => {
                self.hands[seat].remove(c);
                self.known[seat].remove(c);
                self.stacks.push_pile(c);
                self.face_up.add(c);
                if let Some(r) = c.rank() {
                    self.discarded_ranks[seat] |= 1 << r.index();
                }
                if self.rs.rules.pile.freeze.by_discard(c) {
                    self.pile_frozen = true;
                }
                if self.foot_due(seat) {
                    self.pick_up_foot(seat);
                }
                if self.hands[seat].is_empty() {
                    self.end_hand_out(seat);
                } else {
                    self.start_turn(self.next_seat(seat));
                }
            }
            Action::Ask => {
                self.turn.asked = true;
                self.phase = Phase::Answer;
                self.to_act = self.partner_of(seat).expect("ask needs a partner");
            }
            Action::Answer(yes) => {
                self.turn.answer = Some(yes);
                self.turn.must_go_out |= yes;
                self.phase = Phase::Play;
                self.to_act = self.current;
            }
        }
    }

    fn draw(&mut self, seat: Seat) {
        if self.stacks.stock_is_empty() {
            self.end_hand(crate::state::score::HandEndReason::Stock, None);
            return;
        }
        // Red threes drawn are laid out and replaced as part of the draw; a
        // draw that yields no usable card from an emptied stock ends the hand
        // (P-CAN, RG-2: "a lone last card that is a red three").
        let mut needed = self.rs.rules.deal.draw_count;
        let mut usable = 0;
        let mut red = false;
        while needed > 0 {
            let Some(c) = self.stacks.pop_stock() else {
                break;
            };
            if c.is_red_three() {
                red = true;
                self.red_threes[seat]
                    [usize::from(c != Card::new(Rank::Three, crate::card::Suit::Hearts))] += 1;
                self.face_up.add(c);
            } else {
                self.hands[seat].add(c);
                needed -= 1;
                usable += 1;
            }
        }
        // P-CNE: a red three among the last cards drawn ends play at once;
        // Canastia: emptying the stock does.
        let short = match self.rs.rules.going_out.stock_end {
            // Only when a red three could not be replaced (S000).
            StockEnd::ShortStock => red && self.stacks.stock_is_empty() && needed > 0,
            StockEnd::Emptied => self.stacks.stock_is_empty(),
            StockEnd::TakePile => false,
        };
        if usable == 0 || short {
            self.end_hand(crate::state::score::HandEndReason::Stock, None);
            return;
        }
        self.turn.drew_from_stock = true;
        self.phase = Phase::Play;
    }

    /// Moves the rest of the pile into the taker's hand; red threes in it
    /// are laid out without replacement.
    fn take_pile(&mut self, seat: Seat) {
        let hidden = self.pile_hidden as usize;
        // The face-up count follows the cards: one above the packet goes
        // face down into the hand; a packet's red three comes face up.
        for (i, &c) in self.stacks.take_pile().iter().enumerate() {
            let was_face_up = i >= hidden;
            if c.is_red_three() {
                self.red_threes[seat]
                    [usize::from(c != Card::new(Rank::Three, crate::card::Suit::Hearts))] += 1;
                if !was_face_up {
                    self.face_up.add(c);
                }
            } else {
                self.hands[seat].add(c);
                // Only the taker sees the packet's cards.
                if was_face_up {
                    self.known[seat].add(c);
                    self.face_up.remove(c);
                }
            }
        }
        self.pile_hidden = 0;
        self.pile_frozen = false;
        self.turn.took_pile = true;
        self.seat_melded[seat] = true;
        self.phase = Phase::Play;
        // P-CNE: one card from the stock goes with the pile; a red three
        // is laid out and replaced.
        let extra = self.rs.rules.pile.pile_extra_draw;
        let (mut got, mut red) = (0, false);
        for _ in 0..extra {
            while let Some(c) = self.stacks.pop_stock() {
                if c.is_red_three() {
                    red = true;
                    self.red_threes[seat]
                        [usize::from(c != Card::new(Rank::Three, crate::card::Suit::Hearts))] += 1;
                    self.face_up.add(c);
                } else {
                    self.hands[seat].add(c);
                    got += 1;
                    break;
                }
            }
        }
        // P-CNE: a red three among the last cards drawn ends play at once,
        // the card that goes with the pile as much as a draw's (`draw`).
        if self.rs.rules.going_out.stock_end == StockEnd::ShortStock
            && red
            && self.stacks.stock_is_empty()
            && got < extra
        {
            self.end_hand(crate::state::score::HandEndReason::Stock, None);
        }
    }

    fn remove_from_hand(&mut self, seat: Seat, g: &Group) {
        let cards = g.counts();
        debug_assert!(self.hands[seat].contains_all(&cards), "{g} not in hand");
        self.hands[seat].remove_all(&cards);
        // Cards others knew of are no longer in the hand.
        let known = &mut self.known[seat];
        if !known.is_empty() {
            g.for_each_face(|card, n| known.remove_up_to(card, n));
        }
        self.face_up.add_all(&cards);
    }

    /// Lays a group as a new meld, or merges it into the meld
    /// [`lay_target`](crate::meld::lay_target) names.
    fn lay_group(&mut self, seat: Seat, side: Side, g: Group) {
        self.seat_melded[seat] = true;
        match crate::meld::lay_target(&self.rs.rules, &self.melds[side], &g) {
            Some(i) => {
                self.melds[side][i].cards.merge(&g);
                self.turn.added_to_old |= i < self.turn.melds_at_start as usize;
            }
            _ => self.melds.push(
                side,
                Meld {
                    cards: g,
                    closed: false,
                },
            ),
        }
    }

    /// The side's meld of `rank` that can still take cards: its only meld of
    /// the rank, or where melds are capped (P-PEN) the one not yet full.
    pub(crate) fn meld_index_of_rank(&self, side: Side, rank: Option<Rank>) -> Option<usize> {
        let r = rank?;
        // Most lookups are of a rank the side has no meld of: the table's
        // rank set answers those without a walk.
        if self.melds.ranks(side) & (1 << r.index()) == 0 {
            return None;
        }
        let rules = &self.rs.rules;
        self.melds[side]
            .iter()
            .position(|m| m.cards.rank() == rank && !m.is_full(rules))
    }

    /// The seat playing alone, read from the sides (a state rebuilt from
    /// what one seat saw): once a seat has joined a side not its own, the
    /// seat left alone on its side; `None` before, and in a form without a
    /// temporary partnership.
    pub(crate) fn lone_hand_by_sides(&self) -> Option<Seat> {
        let rules = &self.rs.rules;
        if !rules.game.temporary_partnership {
            return None;
        }
        self.seats()
            .find(|&s| {
                self.seats()
                    .all(|o| o == s || self.side_of[o] != self.side_of[s])
            })
            .filter(|_| {
                self.seats()
                    .any(|o| self.side_of[o] != rules.game.starting_side(o))
            })
    }

    /// Classic 3 players: the first to take the pile (or to go out) plays
    /// alone; the other two pool their melds from now on (merging melds of
    /// the same rank; the later seat's melds are numbered after the earlier's).
    pub(crate) fn form_partnership_against(&mut self, lone: Seat) {
        if !self.rs.rules.game.temporary_partnership || self.lone_hand.is_some() {
            return;
        }
        self.lone_hand = Some(lone);
        // The two others, in seat order (three players: no list needed);
        // each seat's own side has the seat's number until sides merge.
        let a = self.seats().find(|&s| s != lone).expect("three seats");
        let b = self
            .seats()
            .find(|&s| s != lone && s > a)
            .expect("three seats");
        let (side_a, side_b) = (self.side_of[a], self.side_of[b]);
        let moved = self.melds.take_side(side_b);
        for &m in moved.iter() {
            match self.meld_index_of_rank(side_a, m.cards.rank()) {
                Some(i) => self.melds[side_a][i].cards.merge(&m.cards),
                None => self.melds.push(side_a, m),
            }
        }
        self.side_of[b] = side_a;
    }

    fn end_hand_out(&mut self, seat: Seat) {
        self.form_partnership_against(seat);
        self.end_hand(crate::state::score::HandEndReason::Out, Some(seat));
    }

    fn end_hand(&mut self, reason: crate::state::score::HandEndReason, seat: Option<Seat>) {
        let result = crate::state::score::score_hand(self, reason, seat);
        for (t, s) in result.teams.iter().enumerate() {
            // Bounded options keep every real game far from the limit;
            // past it a score stays at the limit rather than wrap.
            self.scores[t] = self.scores[t].saturating_add(s.total);
        }
        self.hands_played += 1;
        let teams = self.rs.rules.game.teams as usize;
        let best = *self.scores[..teams].iter().max().unwrap();
        self.phase = Phase::HandOver;
        let leaders: Vec<Team> = Team::all(teams)
            .filter(|&t| self.scores[t] == best)
            .collect();
        if best >= self.rs.rules.game.target
            && !(self.rs.rules.game.tie_plays_on && leaders.len() > 1)
        {
            self.winner = Some((leaders.len() == 1).then(|| leaders[0]));
            self.phase = Phase::GameOver;
        }
        let mut result = result;
        result.totals = self.scores[..teams].to_vec();
        self.last_hand = Some(Arc::new(result));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// P-PEN: a foot's red threes are laid out and replaced from the stock.
    /// With the stock gone they are laid out all the same: until session
    /// 21 only the first was, the second stayed in the hand, and a search
    /// sampling that position found a red three it could deal nowhere.
    #[test]
    fn every_red_three_is_laid_out_when_the_stock_cannot_replace_them() {
        let rules = Rules::preset("pennies", None, None).unwrap();
        let mut g = GameState::new(rules);
        g.deal_random(&mut Rng::new(2), Seat::new(0));
        let (hearts, diamonds) = (
            Card::new(Rank::Three, crate::card::Suit::Hearts),
            Card::new(Rank::Three, crate::card::Suit::Diamonds),
        );
        let seat = Seat::new(1);
        let before = g.red_threes(seat);
        g.hands[seat].add(hearts);
        g.hands[seat].add(diamonds);
        g.hands[seat].add(hearts);
        let held = g.hands[seat].total();
        g.stacks.clear_stock();
        g.lay_out_red_threes(seat);
        assert_eq!(g.hands[seat].red_threes(), 0);
        assert_eq!(g.red_threes(seat), before + 3);
        assert_eq!(g.hands[seat].total(), held - 3);

        // With a stock, each is replaced by the next card (a red three
        // drawn so is laid out and replaced in turn).
        let mut g = GameState::new(g.rules().clone());
        g.deal_random(&mut Rng::new(2), Seat::new(0));
        let (stock, before) = (g.stock_len(), g.red_threes(seat));
        g.hands[seat].add(hearts);
        g.hands[seat].add(diamonds);
        let held = g.hands[seat].total();
        g.lay_out_red_threes(seat);
        let (laid, drawn) = (g.red_threes(seat) - before, stock - g.stock_len());
        assert_eq!(laid, drawn);
        assert!(laid >= 2);
        assert_eq!(g.hands[seat].total(), held);
        assert_eq!(g.hands[seat].red_threes(), 0);
    }
}
