//! The heuristic bot: a club player's rules of thumb, as scores.
//!
//! Every legal action gets a score from what the seat can see, and the best
//! one is played. The rules of thumb:
//! - take the pile when it holds more than a draw would give, using as few
//!   wild cards as possible;
//! - lay sets of three or more naturals and add naturals to the side's melds,
//!   but hold back pairs (they take the pile: a pair is not spent with a wild
//!   card on a new meld while the pile is worth taking) and wild cards (they
//!   make canastas and freeze the pile);
//! - keep a meld clean while it can still become a natural canasta, unless
//!   the variant wants a dirty canasta the side does not have yet
//!   (Canastone's clean + dirty requirement);
//! - build what going out asks for by kind: Pennies' sevens (the 1500
//!   canasta) are laid early and kept, and a hand asks partner only when
//!   the side has a canasta of every kind the rules want;
//! - discard what the next opponent cannot take the pile with: black threes
//!   first, then cards by how likely that opponent is to take the pile with
//!   them (a rank its side melds, a pair it is known to hold, or copies it
//!   may hide) times what the pile is worth; freeze the pile with a wild
//!   card when every other discard gives a valuable pile away;
//! - read the discards: a rank the next player threw is a safer discard, a
//!   rank partner threw is not worth keeping alone, and a partner down to
//!   two cards is the signal to lay and discard high cards;
//! - go out when the rules allow it, unless the side would lock in a heavy
//!   loss while it holds the cards and the rivals are far from going out
//!   ([`going_out`]); ask partner when a yes would let us go out, and
//!   answer yes when our own hand would cost little.
//!
//! The scoring reads a [`View`], which holds only what the acting seat sees,
//! so search can build it cheaply from a sampled state.

mod discard;
mod going_out;
mod view;

#[cfg(test)]
mod tests;

pub use view::{NextOpponent, Rival, View};

use crate::{Bot, Decision};
use canasta_core::{Action, Card, GoOutKind, Group, Meld, Rules};
use discard::keep;
use going_out::holds_back;

/// Going out: nothing else comes close.
const GOING_OUT: i32 = 10_000;

/// Where an ordinary discard's score starts: it is this less what the
/// card is worth keeping, so no discard that leaves cards in hand scores
/// above [`DISCARD_CEILING`].
const DISCARD: i32 = -1_000;

/// The best an ordinary discard can score ([`discard::KEEP_FLOOR`] bounds
/// `keep`).
const DISCARD_CEILING: i32 = DISCARD - discard::KEEP_FLOOR;

/// The discards of `v`'s hand are ordinary, bounded by [`DISCARD_CEILING`]:
/// with one card left the discard goes out and scores as going out.
fn discards_capped(v: &View<'_>) -> bool {
    v.hand.total() > 1
}

/// An action the seat holds back from: below every discard, so that it is
/// played only when nothing else is legal.
const HELD_BACK: i32 = -50_000;

fn rank_mask(melds: &[Meld]) -> u32 {
    melds
        .iter()
        .filter_map(|m| m.rank())
        .fold(0, |acc, r| acc | 1 << r.index())
}

/// A meld long enough to be a canasta: its kind for going out. Counted as
/// if closed, so that Canastia's canastas by choice score like the others.
fn complete_kind(m: &Meld, rules: &Rules) -> Option<GoOutKind> {
    Meld {
        cards: m.cards,
        closed: true,
    }
    .going_out_kind(rules)
}

fn bonus(g: &Group, rules: &Rules) -> i32 {
    Meld {
        cards: *g,
        closed: true,
    }
    .canasta_bonus(rules)
}

/// Threes that cannot be melded in the ordinary way.
fn is_stopper(c: Card, rules: &Rules) -> bool {
    c.is_black_three() && rules.melds.special_threes()
}

/// Ending the hand, unless the side does better playing on.
fn go_out(v: &View<'_>) -> i32 {
    if holds_back(v) { HELD_BACK } else { GOING_OUT }
}

/// The score of an action for the seat that sees `v`; the best is played.
pub fn score(v: &View<'_>, action: &Action) -> i32 {
    let rules = v.rules;
    // Matched by reference: an action holds up to seven groups, and most
    // scored are discards and one-card adds.
    match action {
        Action::Draw => 20 + 8 * i32::from(rules.deal.draw_count),
        Action::PickupOnto => 15 + 8 * v.pile_len() as i32,
        Action::Pickup { with, also } => {
            let wilds: i32 = i32::from(with.wild_count())
                + also.iter().map(|g| i32::from(g.wild_count())).sum::<i32>();
            15 + 8 * v.pile_len() as i32 - 12 * wilds
        }
        Action::Meld(groups) => {
            let laid: usize = groups.iter().map(|g| usize::from(g.len())).sum();
            let after = v.hand.total() - laid;
            if after == 0 {
                return go_out(v);
            }
            if holds_set_for_pile(v, groups.as_slice(), after) {
                return HELD_SET;
            }
            let mut s: i32 = groups.iter().map(|g| group_score(v, g, None)).sum();
            if !v.side_opened {
                // Opening is worth a good deal: the pile opens up to us.
                s += 60;
            }
            s + leftover_score(v, after) + unload_bonus(v, groups.as_slice())
        }
        Action::Add { meld, cards } => {
            let after = v.hand.total() - usize::from(cards.len());
            if after == 0 {
                return go_out(v);
            }
            let old = v.own_melds.get(meld.index()).map(|m| m.cards);
            group_score(v, cards, old)
                + leftover_score(v, after)
                + unload_bonus(v, std::slice::from_ref(cards))
        }
        Action::CloseCanasta(_) => 150,
        // A yes binds us to go out this turn: ask only when we can, and
        // when we mean to.
        Action::Ask if v.can_go_out() && !holds_back(v) => 5_000,
        Action::Ask => -5_000,
        Action::Answer(yes) => {
            let cost = v.points_of(&v.hand);
            let ok = (cost <= 60 || v.hand.total() <= 3) && !holds_back(v);
            if *yes == ok { 1 } else { 0 }
        }
        Action::Discard(c) => {
            if discards_capped(v) {
                DISCARD - keep(v, *c)
            } else {
                go_out(v)
            }
        }
    }
}

/// Cards laid (the groups of a meld or an add) while partner is about to
/// go out count for us instead of against us: follow the signal and lay
/// what can be laid.
fn unload_bonus(v: &View<'_>, laid: &[Group]) -> i32 {
    if v.partner_min_hand > 2 || !v.side_opened {
        return 0;
    }
    laid.iter().map(|g| g.points(v.rules)).sum::<i32>() / 2
}

/// Laying one group (on `old`, an existing meld, or as a new meld).
fn group_score(v: &View<'_>, g: &Group, old: Option<Group>) -> i32 {
    let rules = v.rules;
    if g.is_special_threes(rules) {
        return -200;
    }
    // Every count read once: scores run for every candidate at every
    // playout step, and most lays are one card onto a meld.
    let (g_naturals, g_wilds) = (g.natural_count(), g.wild_count());
    let (naturals, wilds) = (i32::from(g_naturals), i32::from(g_wilds));
    let (old_naturals, old_wilds) = old.map_or((0, 0), |o| (o.natural_count(), o.wild_count()));
    // What the meld becomes, read from its parts: the merged group itself
    // is built only for a canasta's bonus (scores run at every step of
    // search, and most lays complete nothing).
    let merged = || {
        let mut m = old.unwrap_or_default();
        m.merge(g);
        m
    };
    let size = rules.melds.canasta_length();
    let before_len = old_naturals + old_wilds;
    let merged_len = before_len + g_naturals + g_wilds;
    let sequence = g.is_sequence() || old.is_some_and(|o| o.is_sequence());
    let merged_rank = match old {
        _ if sequence => None,
        Some(o) if !o.is_wild_only() => o.rank(),
        _ => g.rank(),
    };
    let merged_naturals = old_naturals + g_naturals;
    let completes = merged_len >= size && before_len < size;
    let mut s = 12 * naturals;
    if merged_rank.is_some() && merged_rank == rules.melds.special_canasta_rank && v.needs_special()
    {
        // Pennies' sevens build the 1500 canasta that going out needs.
        s += 15 * naturals;
    }
    if sequence {
        // A sequence (Samba) grows toward a samba, worth three canastas.
        s += 4 * naturals;
        if completes {
            s += bonus(&merged(), rules) / 3;
        }
        return s;
    }
    if g.is_wild_only() && old.is_none() {
        // A meld of wild cards ties up wild cards until it is a canasta
        // where the rules say so (every one in Canastone, the twos in US
        // Italian): only with plenty of them. Where it does not (Pennies, which needs a wild canasta to
        // go out) it is a good home for them.
        return if rules.melds.wild_meld_reserves == canasta_core::rules::WildMeldReserve::Nothing {
            25 * wilds
        } else if wilds >= 4 {
            40 * wilds
        } else {
            -150
        };
    }
    if old.is_none() && naturals == 2 && wilds > 0 && !completes {
        if holds_pair_for_pile(v) {
            return HELD_BACK;
        }
        // A pair with a wild card: the pair would rather wait for the pile.
        s -= 20;
    }
    if wilds > 0 {
        let was_clean = old_wilds == 0;
        let wild_cost = if completes {
            5
        } else if v.needs_dirty() && merged_len + 2 >= size {
            10
        } else if was_clean && merged_naturals >= 4 {
            // A wild card here spoils a natural canasta in the making.
            70
        } else {
            40
        };
        s -= wild_cost * wilds;
    }
    if completes {
        s += bonus(&merged(), rules) / 3;
    }
    s
}

/// A natural pair in hand takes the pile, even a frozen one, where a pair
/// laid with a wild card takes nothing (S002: "retaining some cards
/// ensures you have natural pairs available to claim a frozen pack").
/// So an opened side keeps its pairs back while the pile is worth taking
/// and the hand is not about to end (then cards in hand only cost).
fn holds_pair_for_pile(v: &View<'_>) -> bool {
    v.side_opened
        && !v.rules.pile.closed_to(true)
        && v.pile_len() >= PAIR_PILE
        && v.opp_min_hand > 3
        && v.partner_min_hand > 2
}

/// Below every ordinary discard and above [`HELD_BACK`]: a set held for
/// the pile is laid rather than a discard that would hand a rich pile over.
const HELD_SET: i32 = -2_000;

/// New natural sets stay in hand while the pile is worth a pair's wait,
/// as the pair does: opponents see a laid set and stop discarding its
/// rank, while one held in hand takes the pile, even frozen, when they
/// throw it (S002: "retaining some cards ensures you have natural pairs
/// available to claim a frozen pack"). They go down when the hand nears
/// its end, or when laying would leave fewer than three cards.
///
/// Measured, this heuristic against the same one laying its sets at once
/// (one hand a deal, 4,000 duplicate deals, seed 12), points a hand: Classic
/// 4 +13, Classic 2 +59, Canastone 4 +638, Italian 4 +308, Samba 4 +62,
/// Samba 2 +43. With three or six players it lost (5,000 deals: Classic 3
/// -21, Canastone 6 -166; each seat has fewer turns in a hand to lay what
/// it held), so there sets go down at once.
fn holds_set_for_pile(v: &View<'_>, groups: &[Group], after: usize) -> bool {
    matches!(v.rules.game.players, 2 | 4)
        && holds_pair_for_pile(v)
        && after >= 3
        && groups
            .iter()
            .all(|g| g.wild_count() == 0 && !v.rules.melds.has_canasta_length(g.len()))
}

/// Smallest pile a pair is held back for: one that takes no more than a
/// card or two is not worth a pair's wait.
const PAIR_PILE: usize = 3;

/// Cards left in hand after laying (`after` of them): too few and the
/// pile is out of reach.
fn leftover_score(v: &View<'_>, after: usize) -> i32 {
    match after {
        // One card left: it is the discard that goes out (unless the foot
        // follows it, which is as good).
        1 if !v.foot_due && holds_back(v) => HELD_BACK,
        1 => 9_000,
        2 => -25,
        3 => -10,
        _ => 0,
    }
}

/// The heuristic bot; its generator only breaks ties.
pub struct HeuristicBot;

impl HeuristicBot {
    pub fn new() -> HeuristicBot {
        HeuristicBot
    }
}

impl Default for HeuristicBot {
    fn default() -> Self {
        HeuristicBot::new()
    }
}

/// The best-scored action of `legal` for the seat that sees `v` (the first
/// of equals, so that play is reproducible).
///
/// Discards are most of a list, and scoring one weighs the next player's
/// chance of taking the pile with it. Once another action scores above
/// every ordinary discard can ([`DISCARD_CEILING`]), the discards are not
/// scored: none of them could be chosen. The choice is the same.
pub fn best(v: &View<'_>, legal: &[Action]) -> Action {
    let mut best = legal[0];
    let mut top = i32::MIN;
    let capped = discards_capped(v);
    for a in legal {
        if capped && top > DISCARD_CEILING && matches!(a, Action::Discard(_)) {
            continue;
        }
        let s = score(v, a);
        if s > top {
            top = s;
            best = *a;
        }
    }
    best
}

/// `legal`'s actions by the heuristic's score for the seat that sees `v`,
/// best first (equals in the list's order), as `(score, index)` pairs into
/// `out`: at least the best `top` of them, and all of them when the rest
/// could matter. Discards are left out when `top` other actions already
/// outscore every ordinary discard ([`best`] says why).
pub fn rank_best(v: &View<'_>, legal: &[Action], top: usize, out: &mut Vec<(i32, usize)>) {
    out.clear();
    let is_discard = |a: &Action| matches!(a, Action::Discard(_));
    let mut above = 0;
    for (i, a) in legal.iter().enumerate() {
        if !is_discard(a) {
            let s = score(v, a);
            above += usize::from(s > DISCARD_CEILING);
            out.push((s, i));
        }
    }
    if above < top || !discards_capped(v) {
        for (i, a) in legal.iter().enumerate() {
            if is_discard(a) {
                out.push((score(v, a), i));
            }
        }
    }
    // Equal scores in the list's order.
    out.sort_unstable_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
}

impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        let obs = decision.observation();
        let view = View::from_observation(&obs, decision.rules());
        best(&view, decision.legal())
    }
}
