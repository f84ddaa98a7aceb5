//! Can the player to act still go out this turn? Decided exactly by
//! counting, not by search: every rank in hand must join the side's meld of
//! that rank or form a new meld, wild cards must fit the melds' spare wild
//! capacity, and the side must end with the canastas it needs. Used to keep
//! the generator free of dead ends (see `docs/decisions/action-space.md`).

use crate::action::Action;
use crate::card::{Card, CardCounts, Rank, Suit};
use crate::movegen::for_each_class;
use crate::rules::Rules;
use crate::state::{GameState, MAX_MELDS, Phase};
use arrayvec::ArrayVec;

/// A hand reduced to what going out depends on.
#[derive(Clone, Copy)]
struct HandShape {
    /// Naturals by rank index (`Rank::index`); index 1 holds black threes.
    ranks: [u8; 13],
    wilds: u8,
    red_threes: u8,
}

impl HandShape {
    fn of(h: &CardCounts) -> HandShape {
        let mut ranks = [0u8; 13];
        for r in Rank::MELDABLE {
            ranks[r.index()] = h.rank_count(r);
        }
        ranks[Rank::Three.index()] = h.black_threes();
        HandShape {
            ranks,
            wilds: h.wilds(),
            red_threes: h.red_threes(),
        }
    }

    fn remove(&mut self, c: Card) {
        if c.is_wild() {
            self.wilds -= 1;
        } else if c.is_red_three() {
            self.red_threes -= 1;
        } else {
            self.ranks[c.rank().unwrap().index()] -= 1;
        }
    }
}

/// A meld reduced to its rank and counts.
#[derive(Clone, Copy)]
struct MeldShape {
    /// Rank index; `Rank::Three` for black threes; 0 for wild-only melds.
    rank: u8,
    naturals: u8,
    wilds: u8,
}

type SideShape = ArrayVec<MeldShape, MAX_MELDS>;

fn side_shape(state: &GameState, side: usize) -> SideShape {
    state.melds[side]
        .iter()
        .map(|m| MeldShape {
            rank: m.cards.rank.map_or(0, |r| r.index() as u8),
            naturals: m.cards.natural_count(),
            wilds: m.cards.wild_count(),
        })
        .collect()
}

/// Can every card of `hand` be melded onto `melds` or into new melds,
/// ending with the canastas the side needs?
fn placeable(rules: &Rules, hand: &HandShape, melds: &[MeldShape]) -> bool {
    if hand.red_threes > 0 {
        return false;
    }
    let three = Rank::Three.index() as u8;
    let mut has_meld = 0u16;
    for m in melds {
        has_meld |= 1 << m.rank;
    }
    let b = hand.ranks[three as usize];
    if b > 0 && (b < rules.min_meld || has_meld & (1 << three) != 0) {
        return false;
    }
    let (mut needs, mut spare, mut canastas) = (0u32, 0u32, 0u32);
    let mut deficits = ArrayVec::<u8, 32>::new();
    let size = rules.canasta_size;
    let mut account = |nat: u8, wilds: u8, need: u8, cap: u8| {
        let total = nat + wilds + need;
        needs += need as u32;
        spare += (cap - need) as u32;
        if total >= size {
            canastas += 1;
        } else if size - total <= cap - need {
            deficits.push(size - total);
        }
    };
    for m in melds {
        if m.rank == three {
            continue;
        }
        let nat = m.naturals
            + if m.rank == 0 {
                0
            } else {
                hand.ranks[m.rank as usize]
            };
        let cap = rules.wild_capacity(nat).saturating_sub(m.wilds);
        account(nat, m.wilds, 0, cap);
    }
    for rank in Rank::MELDABLE {
        let i = rank.index();
        let n = hand.ranks[i];
        if n == 0 || has_meld & (1 << i) != 0 {
            continue;
        }
        if n < rules.min_naturals {
            return false;
        }
        let cap = rules.wild_capacity(n);
        let need = rules.min_meld.saturating_sub(n);
        if need > cap {
            return false;
        }
        account(n, 0, need, cap);
    }
    let wilds = hand.wilds as u32;
    if wilds < needs || wilds - needs > spare {
        return false;
    }
    let mut extra = wilds - needs;
    deficits.sort_unstable();
    for d in deficits {
        if d as u32 <= extra {
            extra -= d as u32;
            canastas += 1;
        }
    }
    canastas >= rules.canastas_to_go_out as u32
}

impl GameState {
    /// Can `seat`, in its play phase, still go out this turn?
    pub(crate) fn can_go_out(&self, seat: usize) -> bool {
        if self.turn.answer == Some(false) {
            return false;
        }
        let side = self.side_of[seat] as usize;
        let rules = &self.rs.rules;
        if !(self.side_has_melded(side)
            || self.turn.drew_from_stock && rules.concealed_without_minimum)
        {
            return false;
        }
        let hand = &self.hands[seat];
        // Quick refusal before building shapes: two cards that fit no meld.
        let has_meld = self.meld_rank_mask(side);
        let mut orphans = 0;
        for rank in Rank::MELDABLE {
            let n = hand.rank_count(rank);
            if n > 0 && n < rules.min_naturals && has_meld & (1 << rank.index()) == 0 {
                orphans += n;
                if orphans > 1 {
                    return false;
                }
            }
        }
        self.can_go_out_with(&HandShape::of(hand), hand, &side_shape(self, side))
    }

    /// Bit `Rank::index()` set for every rank the side has a meld of.
    pub(crate) fn meld_rank_mask(&self, side: usize) -> u16 {
        self.melds[side]
            .iter()
            .fold(0, |acc, m| acc | m.cards.rank.map_or(0, |r| 1 << r.index()))
    }

    fn can_go_out_with(&self, shape: &HandShape, hand: &CardCounts, melds: &[MeldShape]) -> bool {
        let rules = &self.rs.rules;
        // Cards that fit no meld can only be the final discard: with two or
        // more of them nobody can go out, which settles most calls at once.
        let mut has_meld = 0u16;
        for m in melds {
            has_meld |= 1 << m.rank;
        }
        let mut orphans = 0;
        let mut orphan = None;
        for rank in Rank::MELDABLE {
            let n = shape.ranks[rank.index()];
            if n > 0 && n < rules.min_naturals && has_meld & (1 << rank.index()) == 0 {
                orphans += n;
                let suit = hand.rank_suits(rank).iter().position(|&c| c > 0).unwrap();
                orphan = Some(Card::new(rank, Suit::from_index(suit)));
            }
        }
        let b = shape.ranks[Rank::Three.index()];
        if b > 0 && b < rules.min_meld {
            orphans += b;
            let spade = Card::new(Rank::Three, Suit::Spades);
            orphan = Some(if hand.count(spade) > 0 {
                spade
            } else {
                Card::new(Rank::Three, Suit::Clubs)
            });
        }
        match (orphans, orphan) {
            (0, _) => {}
            (1, Some(c)) => {
                let mut h = *shape;
                h.remove(c);
                return self.final_discard_ok(c) && placeable(rules, &h, melds);
            }
            _ => return false,
        }
        if placeable(rules, shape, melds) {
            return true;
        }
        let mut found = false;
        for_each_class(hand, |c| {
            if !found && self.final_discard_ok(c) {
                let mut h = *shape;
                h.remove(c);
                found = placeable(rules, &h, melds);
            }
        });
        found
    }

    /// After `action`, can the turn still end legally? An emptied hand must
    /// be a legal going out; a hand of one card, or a player bound to go out,
    /// must still be able to go out.
    pub(crate) fn ok_after(&self, action: Action) -> bool {
        let seat = self.to_act as usize;
        if let Some(ok) = self.ok_after_simple(seat, action) {
            return ok;
        }
        let answer = self.turn.answer;
        let mut s = self.clone();
        s.apply_raw(action);
        if s.hands[seat].is_empty() {
            let side = s.side_of[seat] as usize;
            return answer != Some(false) && s.canastas(side) >= s.rs.rules.canastas_to_go_out;
        }
        if s.phase != Phase::Play {
            return true;
        }
        if s.hands[seat].total() == 1 || s.turn.must_go_out {
            return s.can_go_out(seat);
        }
        true
    }

    /// `ok_after` for taking the pile with the top card alone, a pair, or a
    /// natural and a wild card (an opened side; `melds` is its shape).
    fn ok_after_pickup(&self, seat: usize, action: Action, melds: &mut SideShape) -> Option<bool> {
        let top = self.pile_top()?;
        let rank = top.rank()?.index() as u8;
        let mut hand = self.hands[seat];
        match action {
            Action::PickupOnto => {
                melds.iter_mut().find(|m| m.rank == rank)?.naturals += 1;
            }
            Action::Pickup { with, also } if also.is_empty() => {
                hand.remove_all(&with.counts());
                let (n, w) = (with.natural_count() + 1, with.wild_count());
                match melds.iter_mut().find(|m| m.rank == rank) {
                    Some(m) => {
                        m.naturals += n;
                        m.wilds += w;
                    }
                    None => melds.push(MeldShape {
                        rank,
                        naturals: n,
                        wilds: w,
                    }),
                }
            }
            _ => return None,
        }
        for &c in &self.pile[..self.pile.len() - 1] {
            if !c.is_red_three() {
                hand.add(c);
            }
        }
        Some(self.judge_after(&hand, melds))
    }

    /// The verdict once the hand and the side's melds after an action are known.
    fn judge_after(&self, hand: &CardCounts, melds: &[MeldShape]) -> bool {
        let rules = &self.rs.rules;
        if hand.is_empty() {
            let canastas = melds
                .iter()
                .filter(|m| {
                    m.rank != Rank::Three.index() as u8
                        && m.naturals + m.wilds >= rules.canasta_size
                })
                .count();
            return self.turn.answer != Some(false)
                && canastas >= rules.canastas_to_go_out as usize;
        }
        if hand.total() == 1 || self.turn.must_go_out {
            if self.turn.answer == Some(false) {
                return false;
            }
            return self.can_go_out_with(&HandShape::of(hand), hand, melds);
        }
        true
    }

    /// `ok_after` without copying the state, for the common case: one card
    /// added to a meld, or one new group of an unmelded rank, by an opened side.
    fn ok_after_simple(&self, seat: usize, action: Action) -> Option<bool> {
        let side = self.side_of[seat] as usize;
        if !self.side_has_melded(side) {
            return None;
        }
        let mut melds = side_shape(self, side);
        if let Some(ok) = self.ok_after_pickup(seat, action, &mut melds) {
            return Some(ok);
        }
        let g = match action {
            Action::Add { meld, cards } => {
                let m = &mut melds[meld as usize];
                m.naturals += cards.natural_count();
                m.wilds += cards.wild_count();
                cards
            }
            Action::Meld(groups)
                if groups.len() == 1 && !groups.as_slice()[0].is_black_threes() =>
            {
                let g = groups.as_slice()[0];
                let rank = g.rank?;
                if melds.iter().any(|m| m.rank == rank.index() as u8) {
                    return None;
                }
                melds.push(MeldShape {
                    rank: rank.index() as u8,
                    naturals: g.natural_count(),
                    wilds: g.wild_count(),
                });
                g
            }
            _ => return None,
        };
        let mut hand = self.hands[seat];
        hand.remove_all(&g.counts());
        Some(self.judge_after(&hand, &melds))
    }
}
