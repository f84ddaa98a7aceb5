//! Choosing the discard: what the side wants to keep, against what the
//! next opponent would gain by taking the pile with it.

use super::{View, is_stopper};
use canasta_core::{Card, Rank};

/// What keeping a wild card is worth, before the freeze is counted: it
/// makes canastas, and thrown it is lost to the side for good.
const WILD_KEEP: i32 = 250;

/// The least a wild card is kept at, however big the pile: freezing is the
/// defence of last resort, after every safe card.
const WILD_KEEP_FLOOR: i32 = 60;

/// What one card of the pile is worth to whoever takes it, beyond its
/// points: material for melds and canastas.
const PILE_CARD_USE: i32 = 10;

/// The least [`keep`] returns, by construction: with the card values of
/// every preset (none above 50 points) it never falls below about -60, so
/// the floor never binds there. It bounds a discard's score from above,
/// which lets [`super::best`] skip the discards once any other action
/// outscores them all.
pub(super) const KEEP_FLOOR: i32 = -500;

/// How much the seat wants to keep a card (the lowest is discarded), never
/// below [`KEEP_FLOOR`].
pub(super) fn keep(v: &View<'_>, c: Card) -> i32 {
    keep_unbounded(v, c).max(KEEP_FLOOR)
}

/// [`keep`] before its floor (the tests check that no preset reaches it).
pub(super) fn keep_unbounded(v: &View<'_>, c: Card) -> i32 {
    let rules = v.rules;
    if c.is_wild() {
        return wild_keep(v);
    }
    if is_stopper(c, rules) {
        // Nobody takes the pile from under a black three (P-CAN, S003):
        // the cheapest block there is.
        return -100;
    }
    let Some(r) = c.rank() else { return 0 };
    let held = i32::from(v.hand.rank_count(r));
    let bit = 1u16 << r.index();
    let mut k = match held {
        // Partner threw this rank: nobody on our side is building it.
        1 if v.partner_discarded & bit != 0 => -10,
        1 => 0,
        2 => 45,
        _ => 70,
    };
    if v.own_meld_ranks() & u32::from(bit) != 0 {
        k += 40;
    }
    if Some(r) == rules.melds.special_canasta_rank && v.needs_special() {
        // Pennies' sevens build the 1500 canasta that going out needs.
        k += 30;
    }
    k += sequence_keep(v, c, r, bit);
    // Danger: the next opponent takes the pile with it.
    let chance = take_chance(v, r);
    if chance > 0.0 {
        k += (chance * pile_worth(v, c) as f32) as i32;
    } else {
        k -= 20;
    }
    let value = rules.scoring.card_values.of(c);
    if v.side_opened {
        // Opened: a high card left in hand costs its value.
        k -= value / 5;
        // Someone is about to go out: an opponent (we would pay for it) or
        // our partner (the signal to unload before the hand ends).
        if v.opp_min_hand <= 3 || v.partner_min_hand <= 2 {
            k -= value / 3;
        }
    } else {
        // Not opened: high cards make the opening.
        k += value / 5;
    }
    k
}

/// A wild card thrown on an open pile freezes it (P-CAN, S002: "makes it
/// challenging for opponents to pick up ... though it carries some risk"):
/// the bigger the pile, the more the freeze is worth, so the less the wild
/// card is kept. Whether it goes still depends on how likely the next
/// opponent is to take the pile with each other card, which their keep
/// counts. On a pile already frozen a wild card only stops the next player.
fn wild_keep(v: &View<'_>) -> i32 {
    if v.pile_frozen || !v.rules.pile.freeze.wild_cards {
        return 300;
    }
    (WILD_KEEP - pile_worth_base(v) / 4).max(WILD_KEEP_FLOOR)
}

/// Samba: a card that extends one of our sequences, or sits next to cards
/// of its suit in hand, builds toward a samba.
fn sequence_keep(v: &View<'_>, c: Card, r: Rank, bit: u16) -> i32 {
    let rules = v.rules;
    if !rules.melds.sequences_allowed() {
        return 0;
    }
    let Some(suit) = c.suit() else { return 0 };
    let extends = v.own_melds.iter().any(|m| {
        m.cards.run_suit() == Some(suit)
            && !rules.melds.has_canasta_length(m.cards.len())
            && (m.cards.sequence_ranks() & (bit << 1) != 0
                || m.cards.sequence_ranks() & (bit >> 1) != 0)
            && m.cards.sequence_ranks() & bit == 0
    });
    let neighbours = [r.index().wrapping_sub(1), r.index() + 1]
        .into_iter()
        .filter(|&i| (2..13).contains(&i))
        .filter(|&i| v.hand.count(Card::new(Rank::from_index(i), suit)) > 0)
        .count() as i32;
    if extends { 50 } else { 15 * neighbours }
}

/// What the pile would bring whoever takes it with `top` discarded on it:
/// the points of its cards and their use as material.
pub(super) fn pile_worth(v: &View<'_>, top: Card) -> i32 {
    pile_worth_base(v) + v.rules.scoring.card_values.of(top) + PILE_CARD_USE
}

fn pile_worth_base(v: &View<'_>) -> i32 {
    v.memo_pile_worth(|| {
        let seen: i32 = v.with_values(|values| {
            v.pile
                .iter()
                .map(|&c| values[c.index()] + PILE_CARD_USE)
                .sum()
        });
        // Most piles have no face-down packet: the mean is not needed.
        let hidden = match v.pile_hidden {
            0 => 0,
            n => n as i32 * (v.unseen_card_value() + PILE_CARD_USE),
        };
        seen + hidden
    })
}

/// How likely the next opponent is to take the pile if a card of `r` lies
/// on top (0 to 1). Sure when the top card goes on one of its side's melds
/// or it is known to hold the pair; otherwise the chance that its hidden
/// cards hold what taking needs, each unseen copy lying in its hand in
/// proportion to the cards it holds. A player who threw the rank seldom
/// kept a pair of it, and a side that has not opened must also make its
/// opening minimum with the pile's card.
pub(super) fn take_chance(v: &View<'_>, r: Rank) -> f32 {
    let rules = v.rules;
    let Some(next) = &v.next_opp else {
        return 0.0;
    };
    if rules.pile.closed_to(next.opened) {
        return 0.0;
    }
    let frozen = rules
        .pile
        .freeze
        .against(v.pile_frozen, next.opened)
        .is_some();
    let bit = 1u32 << r.index();
    if !frozen && v.next_onto_ranks() & bit != 0 {
        return 1.0;
    }
    let need = if frozen {
        rules.pile.pile_take_naturals_frozen
    } else {
        rules.pile.pile_take_naturals
    }
    .max(rules.melds.short_of_a_meld(1));
    let known = next.known.rank_count(r);
    if known >= need {
        return 1.0;
    }
    let hidden_hand = next.hand.saturating_sub(next.known.total());
    let unseen = v.unseen().total();
    if hidden_hand == 0 || unseen == 0 {
        return 0.0;
    }
    let share = (hidden_hand as f32 / unseen as f32).min(1.0);
    let copies = u32::from(v.unseen().rank_count(r));
    let mut chance = at_least(copies, share, u32::from(need - known));
    if rules.pile.takes_with_natural_and_wild(frozen) {
        // One natural and a wild card take an open pile too (P-CAN).
        let wild = if next.known.wilds() > 0 {
            1.0
        } else {
            v.memo_next_holds_wild(|| at_least(u32::from(v.unseen().wilds()), share, 1))
        };
        let one = if known >= 1 {
            1.0
        } else {
            at_least(copies, share, 1)
        };
        chance = chance.max(one * wild);
    }
    if v.next_discarded & (1 << r.index()) != 0 && known == 0 {
        chance /= 2.0;
    }
    if !next.opened {
        chance /= 2.0;
    }
    chance
}

/// The chance that at least `k` of `n` cards, each held with chance `p`,
/// are held.
fn at_least(n: u32, p: f32, k: u32) -> f32 {
    if k == 0 {
        return 1.0;
    }
    if n < k {
        return 0.0;
    }
    // 1 - P(fewer than k), summing the binomial terms below k.
    let mut below = 0.0;
    // (1 - p)^n by multiplication: n is a few cards, and `powi` is a
    // library call that showed in the search's profile.
    let mut term: f32 = 1.0;
    for _ in 0..n {
        term *= 1.0 - p;
    }
    for i in 0..k {
        below += term;
        if i + 1 == k {
            // The next term is not summed: its two divisions would be
            // wasted (this runs for every discard scored in search).
            break;
        }
        // P(i + 1) from P(i).
        term *= (n - i) as f32 / (i + 1) as f32 * p / (1.0 - p).max(f32::EPSILON);
    }
    (1.0 - below).clamp(0.0, 1.0)
}
