//! The observation tensor: what one seat may know, as a fixed-size vector
//! of `f32`, written straight from the state without building an
//! [`Observation`](canasta_core::Observation) (no allocation per step).
//!
//! Everything is relative to the observing seat: seat slot 0 is the seat
//! itself, slot 1 the next seat clockwise; side slot 0 its own side. Counts
//! are raw card counts; points (scores, targets, opening minimums) are in
//! thousands. The layout depends only on the number of seats and sides, and
//! [`Layout::fields`] names every field (docs/python.md lists them).
//!
//! Only what the seat sees is read: its own hand, the table, the face-up
//! pile, sizes of other hands and feet, the cards others are known to
//! hold (taken with the pile), public facts of the turn. A test holds the
//! tensor equal across states that differ only in cards the seat cannot
//! see.

use crate::encoding::{CARD, END, FACES, MELD, MELD_SLOTS, NEXT_GROUP, PICKUP_WITH, Step};
use canasta_core::{CardCounts, GameState, Phase, Rank, Rules};
use canasta_core::{Seat, Side};

/// Numbers per seat slot: 9 facts, the known cards, the discarded ranks.
const SEAT_FIELDS: usize = 9 + FACES + 13;
/// Numbers per side slot: 5 facts, 13 kinds x 4, 4 suits x 2.
const SIDE_FIELDS: usize = 5 + 13 * 4 + 4 * 2;
/// Numbers per meld slot of the observer's side.
const MELD_FIELDS: usize = 5;

/// Where each part of the tensor lies for a number of seats and sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub seats: usize,
    pub sides: usize,
}

/// One named field: its offset and length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub offset: usize,
    pub len: usize,
    pub meaning: &'static str,
}

impl Layout {
    pub fn of(rules: &Rules) -> Layout {
        let seats = rules.game.players as usize;
        Layout {
            seats,
            sides: rules.game.starting_sides(),
        }
    }

    /// The fields in order, each with what it holds.
    pub fn fields(&self) -> Vec<Field> {
        let mut out = Vec::new();
        let mut at = 0;
        let mut push = |name: String, len: usize, meaning: &'static str| {
            out.push(Field {
                name,
                offset: at,
                len,
                meaning,
            });
            at += len;
        };
        push(
            "phase".into(),
            6,
            "one-hot: deal, draw, play, answer, hand over, game over",
        );
        push("hand".into(), FACES, "cards of each face in my hand");
        push(
            "pile_top".into(),
            FACES,
            "one-hot: the face on top of the pile (all zero if none)",
        );
        push(
            "pile_cards".into(),
            FACES,
            "cards of each face in the face-up pile",
        );
        push(
            "pile".into(),
            5,
            "pile size, face-down cards in it, frozen for everyone, frozen for my side (the judge's freeze), closed to my side",
        );
        push("stock".into(), 1, "cards in the stock");
        push(
            "turn".into(),
            8,
            "this turn: drew from stock, took the pile, laid since drawing, asked, answer yes, answer no, must go out (own turn), opened before drawing",
        );
        for s in 0..self.seats {
            push(
                format!("seat{s}"),
                SEAT_FIELDS,
                "seat me+s: is current, is to act, is dealer, my side, hand size, foot size, red threes, has melded, first turn pending; cards known in its hand (53); ranks it discarded this hand (13, two to ace)",
            );
        }
        for s in 0..self.sides {
            push(
                format!("side{s}"),
                SIDE_FIELDS,
                "side my+s: score, opening minimum (0 once melded), natural canastas, mixed canastas, melds; by kind (wild, three..ace) naturals, wild cards, melds, canastas (13 x 4); by suit sequence cards and sequences (4 x 2)",
            );
        }
        push(
            "my_melds".into(),
            MELD_SLOTS * MELD_FIELDS,
            "my side's melds by number (the `add`/`canasta` ids' meld): present, kind (0 wild, 1..12 three..ace, 13..16 a sequence of S H D C), naturals, wild cards, is a canasta",
        );
        push(
            "spelling".into(),
            3 + FACES + 1,
            "action being spelled: is a meld, is a pickup with cards, is an add; its cards so far (53); groups finished",
        );
        push(
            "game".into(),
            2,
            "hands played, target (thousands of points)",
        );
        out
    }

    /// The tensor's length (the fields' lengths added up, without building
    /// them: a caller may ask at every step).
    pub fn size(&self) -> usize {
        6 + 3 * FACES
            + 5
            + 1
            + 8
            + self.seats * SEAT_FIELDS
            + self.sides * SIDE_FIELDS
            + MELD_SLOTS * MELD_FIELDS
            + (3 + FACES + 1)
            + 2
    }
}

fn put_counts(out: &mut [f32], counts: &CardCounts) {
    for (o, &n) in out.iter_mut().zip(counts.as_array()) {
        *o = f32::from(n);
    }
}

/// Writes the tensor of `seat` into `out` (cleared first; `out.len()` is the
/// layout's size). `prefix` is the action being spelled, if any.
pub fn write(state: &GameState, seat: usize, prefix: &[u16], layout: Layout, out: &mut [f32]) {
    out.fill(0.0);
    let rules = state.rules();
    let n = layout.seats;
    let k = layout.sides;
    let seat = Seat::new(seat);
    let me_side = state.side_of(seat);
    let mut at = 0;
    let mut take = |len: usize| {
        let start = at;
        at += len;
        start..at
    };
    let phase = take(6);
    out[phase.start
        + match state.phase() {
            Phase::Deal => 0,
            Phase::Draw => 1,
            Phase::Play => 2,
            Phase::Answer => 3,
            Phase::HandOver => 4,
            Phase::GameOver => 5,
        }] = 1.0;
    let hand = take(FACES);
    put_counts(&mut out[hand], state.hand(seat));
    let top = take(FACES);
    let visible = &state.pile()[state.pile_hidden()..];
    if let Some(c) = visible.last() {
        out[top.start + c.index()] = 1.0;
    }
    let pile_cards = take(FACES);
    for c in visible {
        out[pile_cards.start + c.index()] += 1.0;
    }
    let pile = take(5);
    let side_opened = state.side_has_melded(me_side);
    let facts = [
        state.pile().len() as f32,
        state.pile_hidden() as f32,
        f32::from(u8::from(state.pile_frozen())),
        f32::from(u8::from(
            rules
                .pile
                .freeze
                .against(state.pile_frozen(), side_opened)
                .is_some(),
        )),
        f32::from(u8::from(rules.pile.closed_to(side_opened))),
    ];
    out[pile].copy_from_slice(&facts);
    let stock = take(1);
    out[stock.start] = state.stock_len() as f32;
    let turn = take(8);
    let t = state.turn();
    let own_turn = state.current() == seat;
    let flags = [
        t.drew_from_stock,
        t.took_pile,
        t.laid_since_draw,
        t.asked,
        t.answer == Some(true),
        t.answer == Some(false),
        t.must_go_out && own_turn,
        t.opened_before_draw,
    ];
    for (i, f) in flags.into_iter().enumerate() {
        out[turn.start + i] = f32::from(u8::from(f));
    }
    let in_hand = matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer);
    for j in 0..n {
        let s = seat.after(j, n);
        let r = take(SEAT_FIELDS);
        let o = &mut out[r];
        o[0] = f32::from(u8::from(in_hand && state.current() == s));
        o[1] = f32::from(u8::from(in_hand && state.to_act() == s));
        o[2] = f32::from(u8::from(state.dealer() == s));
        o[3] = f32::from(u8::from(state.side_of(s) == me_side));
        o[4] = state.hand(s).total() as f32;
        o[5] = state.foot_size(s) as f32;
        o[6] = state.red_threes(s) as f32;
        o[7] = f32::from(u8::from(state.seat_melded(s)));
        o[8] = f32::from(u8::from(state.first_turn_pending(s)));
        put_counts(&mut o[9..9 + FACES], &state.known_cards(s));
        let bits = state.discarded_ranks(s);
        for r in 0..13 {
            o[9 + FACES + r] = f32::from(u8::from(bits & (1 << r) != 0));
        }
    }
    let scores = state.scores();
    for j in 0..k {
        let side = Side::new((me_side.index() + j) % k);
        let r = take(SIDE_FIELDS);
        let o = &mut out[r];
        o[0] = scores.get(side.index()).copied().unwrap_or(0) as f32 / 1000.0;
        let member = state.side_members(side).next();
        o[1] = match member {
            Some(s) if !state.side_has_melded(side) && in_hand => {
                state.opening_minimum(s) as f32 / 1000.0
            }
            _ => 0.0,
        };
        let melds = if side.index() < n {
            state.melds(side)
        } else {
            &[]
        };
        o[4] = melds.len() as f32;
        for m in melds {
            let canasta = m.canasta(rules);
            match canasta {
                Some(canasta_core::CanastaKind::Natural) => o[2] += 1.0,
                Some(canasta_core::CanastaKind::Mixed) => o[3] += 1.0,
                None => {}
            }
            let g = &m.cards;
            if let Some(suit) = g.run_suit() {
                let base = 5 + 13 * 4 + suit as usize * 2;
                o[base] += f32::from(g.len());
                o[base + 1] += 1.0;
                continue;
            }
            let kind = g.rank().map_or(0, Rank::index);
            let base = 5 + kind * 4;
            o[base] += f32::from(g.natural_count());
            o[base + 1] += f32::from(g.wild_count());
            o[base + 2] += 1.0;
            o[base + 3] += f32::from(u8::from(canasta.is_some()));
        }
    }
    let my_melds = take(MELD_SLOTS * MELD_FIELDS);
    for (i, m) in state.melds(me_side).iter().enumerate().take(MELD_SLOTS) {
        let o = &mut out[my_melds.start + i * MELD_FIELDS..][..MELD_FIELDS];
        let g = &m.cards;
        o[0] = 1.0;
        // The engine numbers ranks two = 0 .. ace = 12; no rank meld is of
        // twos, so 0 is free for the wild meld.
        o[1] = match g.run_suit() {
            Some(suit) => 13.0 + suit as usize as f32,
            None => g.rank().map_or(0, Rank::index) as f32,
        };
        o[2] = f32::from(g.natural_count());
        o[3] = f32::from(g.wild_count());
        o[4] = f32::from(u8::from(m.is_canasta(rules)));
    }
    let spelling = take(3 + FACES + 1);
    if let Some(&first) = prefix.first() {
        let o = &mut out[spelling];
        match Step::of_id(first as usize) {
            Some(Step::Meld) => o[0] = 1.0,
            Some(Step::PickupWith) => o[1] = 1.0,
            Some(Step::Add { card, .. }) => {
                o[2] = 1.0;
                o[3 + card.index()] += 1.0;
            }
            _ => {}
        }
        for &id in &prefix[1..] {
            match id {
                NEXT_GROUP => o[3 + FACES] += 1.0,
                id if (CARD..CARD + FACES as u16).contains(&id) => {
                    o[3 + (id - CARD) as usize] += 1.0;
                }
                _ => {}
            }
        }
        debug_assert!(first == MELD || first == PICKUP_WITH || first > END);
    }
    let game = take(2);
    out[game.start] = state.hands_played() as f32;
    out[game.start + 1] = rules.game.target as f32 / 1000.0;
    debug_assert_eq!(at, out.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::Rng;
    use canasta_core::rules::all_forms;

    /// The tensor reads only what the seat may know: states that differ in
    /// the cards it cannot see (the engine's determinizer) give the same
    /// tensor, and the fields cover it exactly.
    #[test]
    fn the_tensor_sees_only_what_the_seat_sees() {
        for (f, rules) in all_forms().into_iter().enumerate() {
            let layout = Layout::of(&rules);
            let size = layout.size();
            let mut rng = Rng::new(f as u64);
            let mut g = GameState::new(rules.clone());
            g.deal_random(&mut rng, Seat::new(0));
            let (mut a, mut b) = (vec![0.0; size], vec![0.0; size]);
            for _ in 0..120 {
                if !matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
                    break;
                }
                for seat in 0..layout.seats {
                    write(&g, seat, &[], layout, &mut a);
                    let other = g.determinize(Seat::new(seat), &mut rng);
                    write(&other, seat, &[], layout, &mut b);
                    assert_eq!(a, b, "{} seat {seat}", &rules.game.variant);
                }
                let legal = g.legal_actions();
                g.apply_unchecked(legal[rng.below(legal.len())]);
            }
        }
    }

    #[test]
    fn sizes_by_seats_and_sides() {
        assert_eq!(
            Layout { seats: 2, sides: 2 }.size(),
            6 + 53 * 3 + 5 + 1 + 8 + 2 * 75 + 2 * 65 + 160 + 57 + 2
        );
        let f = Layout { seats: 4, sides: 2 }.fields();
        assert_eq!(f[0].name, "phase");
        for seats in 2..=6 {
            for sides in 2..=seats {
                let layout = Layout { seats, sides };
                let f = layout.fields();
                let last = f.last().unwrap();
                assert_eq!(last.offset + last.len, layout.size());
                assert_eq!(f.iter().map(|x| x.len).sum::<usize>(), layout.size());
            }
        }
    }
}
