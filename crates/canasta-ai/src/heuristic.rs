//! The heuristic bot: a club player's rules of thumb, as scores.
//!
//! Every legal action gets a score from what the seat can see, and the best
//! one is played. The rules of thumb:
//! - take the pile when it holds more than a draw would give, using as few
//!   wild cards as possible;
//! - lay sets of three or more naturals and add naturals to the side's melds,
//!   but hold back pairs (they take the pile) and wild cards (they make
//!   canastas and freeze the pile);
//! - keep a meld clean while it can still become a natural canasta, unless
//!   the variant wants a dirty canasta the side does not have yet
//!   (Canastone's clean + dirty requirement);
//! - build what going out asks for by kind: Pennies' sevens (the 1500
//!   canasta) are laid early and kept, and a hand asks partner only when
//!   the side has a canasta of every kind the rules want;
//! - discard what the opponents cannot use: black threes first, then
//!   singletons of ranks they have not melded and are not known to hold,
//!   preferring ranks whose other copies are already out of play; freeze a
//!   big pile with a wild card when nothing safe is left;
//! - read the discards: a rank the next player threw is a safer discard, a
//!   rank partner threw is not worth keeping alone, and a partner down to
//!   two cards is the signal to lay and discard high cards;
//! - go out whenever the rules allow it, ask partner when a yes would let us
//!   go out, and answer yes when our own hand would cost little.
//!
//! The scoring reads a [`View`], which holds only what the acting seat sees,
//! so search can build it cheaply from a sampled state.

use crate::{Bot, Decision};
use canasta_core::{
    Action, Card, CardCounts, GameState, GoOutKind, Group, KindCounts, Meld, Observation, Rank,
    Rules, rank_bits,
};

/// What the acting seat sees, in the form the scores need.
pub struct View<'a> {
    pub rules: &'a Rules,
    pub hand: CardCounts,
    /// The side's melds.
    pub own_melds: &'a [Meld],
    /// Ranks the opposing sides have melds of (bit = rank index).
    pub opp_meld_ranks: u32,
    /// Cards the opponents are known to hold (taken with the pile).
    pub opp_known: CardCounts,
    /// Cards the seat cannot see.
    pub unseen: CardCounts,
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
}

/// The signals read from the other seats' discards and hand sizes.
struct Signals {
    next_discarded: u16,
    partner_discarded: u16,
    partner_min_hand: usize,
}

impl Signals {
    fn read(
        seat: usize,
        players: usize,
        side_of: impl Fn(usize) -> usize,
        discarded: impl Fn(usize) -> u16,
        hand_size: impl Fn(usize) -> usize,
    ) -> Signals {
        let side = side_of(seat);
        let next = (seat + 1) % players;
        let mut signals = Signals {
            next_discarded: if side_of(next) == side {
                0
            } else {
                discarded(next)
            },
            partner_discarded: 0,
            partner_min_hand: usize::MAX,
        };
        for s in (0..players).filter(|&s| s != seat && side_of(s) == side) {
            signals.partner_discarded |= discarded(s);
            signals.partner_min_hand = signals.partner_min_hand.min(hand_size(s));
        }
        signals
    }
}

impl<'a> View<'a> {
    /// The view of the seat an observation belongs to.
    pub fn from_observation(obs: &'a Observation, rules: &'a Rules) -> View<'a> {
        let side = obs.side_of[obs.seat];
        let mut opp_meld_ranks = 0;
        let mut opp_known = CardCounts::new();
        let mut opp_min_hand = usize::MAX;
        for s in 0..obs.players {
            let other = obs.side_of[s];
            if other == side {
                continue;
            }
            opp_known.add_all(&obs.known[s]);
            opp_min_hand = opp_min_hand.min(obs.hand_sizes[s]);
            opp_meld_ranks |= rank_mask(&obs.melds[other]);
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
            |s| discarded.get(s).copied().unwrap_or(0),
            |s| obs.hand_sizes[s],
        );
        View {
            rules,
            hand: obs.hand,
            own_melds: &obs.melds[side],
            opp_meld_ranks,
            opp_known,
            unseen: obs.unseen(rules),
            pile: &obs.pile,
            pile_hidden: obs.pile_hidden,
            pile_frozen: obs.pile_frozen,
            opp_min_hand,
            side_opened: obs.opening_needed[obs.seat] == 0,
            next_discarded: signals.next_discarded,
            partner_discarded: signals.partner_discarded,
            partner_min_hand: signals.partner_min_hand,
        }
    }

    /// The view of the seat to act in `state`, reading only what that seat
    /// sees (for playouts in sampled states, without building an observation).
    pub fn of_state(state: &'a GameState) -> View<'a> {
        let seat = state.to_act();
        let side = state.side_of(seat);
        let mut opp_meld_ranks = 0;
        let mut opp_known = CardCounts::new();
        let mut opp_min_hand = usize::MAX;
        for s in 0..state.players() {
            let other = state.side_of(s);
            if other == side {
                continue;
            }
            opp_known.add_all(state.known_cards(s));
            opp_min_hand = opp_min_hand.min(state.hand(s).total());
            opp_meld_ranks |= rank_mask(state.melds(other));
        }
        let hidden = state.pile_hidden();
        let signals = Signals::read(
            seat,
            state.players(),
            |s| state.side_of(s),
            |s| state.discarded_ranks(s),
            |s| state.hand(s).total(),
        );
        View {
            rules: state.rules(),
            hand: *state.hand(seat),
            own_melds: state.melds(side),
            opp_meld_ranks,
            opp_known,
            unseen: state.unseen_by(seat),
            pile: &state.pile()[hidden..],
            pile_hidden: hidden,
            pile_frozen: state.pile_frozen(),
            opp_min_hand,
            side_opened: !state.melds(side).is_empty(),
            next_discarded: signals.next_discarded,
            partner_discarded: signals.partner_discarded,
            partner_min_hand: signals.partner_min_hand,
        }
    }

    fn pile_len(&self) -> usize {
        self.pile.len() + self.pile_hidden
    }

    /// Canastas the side has, by the kinds going out counts.
    fn canastas(&self) -> KindCounts {
        let mut kinds = KindCounts::default();
        for m in self.own_melds {
            if let Some(kind) = complete_kind(m, self.rules) {
                kinds.add(kind);
            }
        }
        kinds
    }

    /// The side still lacks a canasta of the special rank that the rules
    /// ask for (Pennies' sevens).
    fn needs_special(&self) -> bool {
        self.canastas().special < self.rules.go_out_special_canastas()
    }

    /// Whether the hand looks like it can go out this turn: the side has
    /// the canastas the rules ask for, and at most one card (the discard)
    /// cannot be laid. An estimate: the generator has the exact test.
    fn can_go_out(&self) -> bool {
        let rules = self.rules;
        if !self.canastas().meet(rules, rules.canastas_to_go_out()) {
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
            if r == Rank::Three && !rules.threes_natural() {
                let black = i32::from(self.hand.black_threes());
                if black < 3 || !rules.black_threes_meldable() {
                    stuck += black;
                }
            } else if n >= i32::from(rules.min_meld()) {
                continue;
            } else if n >= i32::from(rules.min_naturals())
                && wilds >= i32::from(rules.min_meld()) - n
            {
                wilds -= i32::from(rules.min_meld()) - n;
            } else {
                stuck += n;
            }
        }
        if self.own_melds.is_empty() {
            stuck += wilds;
        }
        stuck <= 1
    }

    fn needs_dirty(&self) -> bool {
        self.canastas().dirty < self.rules.go_out_mixed_canastas()
    }
}

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
    c.is_black_three() && !rules.threes_natural()
}

/// The score of an action for the seat that sees `v`; the best is played.
pub fn score(v: &View<'_>, action: &Action) -> i32 {
    let rules = v.rules;
    let mut after = v.hand;
    after.remove_all(&action.cards_from_hand());
    match *action {
        Action::Draw => 20 + 8 * i32::from(rules.draw_count()),
        Action::PickupOnto => 15 + 8 * v.pile_len() as i32,
        Action::Pickup { with, also } => {
            let wilds: i32 = i32::from(with.wild_count())
                + also.iter().map(|g| i32::from(g.wild_count())).sum::<i32>();
            15 + 8 * v.pile_len() as i32 - 12 * wilds
        }
        Action::Meld(groups) => {
            if after.is_empty() {
                return 10_000;
            }
            let mut s: i32 = groups.iter().map(|g| group_score(v, g, None)).sum();
            if !v.side_opened {
                // Opening is worth a good deal: the pile opens up to us.
                s += 60;
            }
            s + leftover_score(&after) + unload_bonus(v, &action.cards_from_hand())
        }
        Action::Add { meld, cards } => {
            if after.is_empty() {
                return 10_000;
            }
            let old = v.own_melds.get(meld as usize).map(|m| m.cards);
            group_score(v, &cards, old)
                + leftover_score(&after)
                + unload_bonus(v, &action.cards_from_hand())
        }
        Action::CloseCanasta(_) => 150,
        // A yes binds us to go out this turn: ask only when we can.
        Action::Ask if v.can_go_out() => 5_000,
        Action::Ask => -5_000,
        Action::Answer(yes) => {
            let cost: i32 = v.hand.iter().map(|c| rules.card_values().of(c)).sum();
            let ok = cost <= 60 || v.hand.total() <= 3;
            if yes == ok { 1 } else { 0 }
        }
        Action::Discard(c) => {
            if after.is_empty() {
                10_000
            } else {
                -1_000 - keep(v, c)
            }
        }
    }
}

/// Cards laid while partner is about to go out count for us instead of
/// against us: follow the signal and lay what can be laid.
fn unload_bonus(v: &View<'_>, laid: &CardCounts) -> i32 {
    if v.partner_min_hand > 2 || !v.side_opened {
        return 0;
    }
    laid.iter()
        .map(|c| v.rules.card_values().of(c))
        .sum::<i32>()
        / 2
}

/// Laying one group (on `old`, an existing meld, or as a new meld).
fn group_score(v: &View<'_>, g: &Group, old: Option<Group>) -> i32 {
    let rules = v.rules;
    if g.is_special_threes(rules) {
        return -200;
    }
    let naturals = i32::from(g.natural_count());
    let wilds = i32::from(g.wild_count());
    let mut merged = old.unwrap_or_default();
    merged.merge(g);
    let before_len = old.map_or(0, |o| o.len());
    let completes = merged.len() >= rules.canasta_size() && before_len < rules.canasta_size();
    let mut s = 12 * naturals;
    if merged.rank().is_some() && merged.rank() == rules.special_canasta_rank() && v.needs_special()
    {
        // Pennies' sevens build the 1500 canasta that going out needs.
        s += 15 * naturals;
    }
    if merged.is_sequence() {
        // A sequence (Samba) grows toward a samba, worth three canastas.
        s += 4 * naturals;
        if completes {
            s += bonus(&merged, rules) / 3;
        }
        return s;
    }
    if g.is_wild_only() && old.is_none() {
        // A meld of wild cards ties up every wild card until it is a
        // canasta where the rules say so (Canastone): only with plenty of
        // them. Where it does not (Pennies, which needs a wild canasta to
        // go out) it is a good home for them.
        return if !rules.wild_meld_reserves_wilds() {
            25 * wilds
        } else if wilds >= 4 {
            40 * wilds
        } else {
            -150
        };
    }
    let was_clean = old.is_none_or(|o| o.wild_count() == 0);
    let wild_cost = if completes {
        5
    } else if v.needs_dirty() && merged.len() + 2 >= rules.canasta_size() {
        10
    } else if was_clean && merged.natural_count() >= 4 {
        // A wild card here spoils a natural canasta in the making.
        70
    } else {
        40
    };
    s -= wild_cost * wilds;
    if completes {
        s += bonus(&merged, rules) / 3;
    }
    if old.is_none() && naturals == 2 && wilds > 0 {
        // A pair with a wild card: the pair would rather wait for the pile.
        s -= 20;
    }
    s
}

/// Cards left in hand after laying: too few and the pile is out of reach.
fn leftover_score(after: &CardCounts) -> i32 {
    match after.total() {
        // One card left: it is the discard that goes out.
        1 => 9_000,
        2 => -25,
        3 => -10,
        _ => 0,
    }
}

/// How much the seat wants to keep a card (the lowest is discarded).
fn keep(v: &View<'_>, c: Card) -> i32 {
    let rules = v.rules;
    if c.is_wild() {
        // Freezing a big pile is the defence when nothing safe is left.
        return if !v.pile_frozen && rules.wilds_freeze_pile() {
            (300 - 12 * v.pile_len() as i32).max(60)
        } else {
            300
        };
    }
    if is_stopper(c, rules) {
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
    if v.own_melds.iter().any(|m| m.rank() == Some(r)) {
        k += 40;
    }
    // Samba: a card that extends one of our sequences, or sits next to
    // cards of its suit in hand, builds toward a samba.
    if rules.sequences()
        && let Some(suit) = c.suit()
    {
        let extends = v.own_melds.iter().any(|m| {
            m.cards.run_suit() == Some(suit)
                && m.cards.len() < rules.canasta_size()
                && (m.cards.sequence_ranks() & (bit << 1) != 0
                    || m.cards.sequence_ranks() & (bit >> 1) != 0)
                && m.cards.sequence_ranks() & bit == 0
        });
        let neighbours = [r.index().wrapping_sub(1), r.index() + 1]
            .into_iter()
            .filter(|&i| (2..13).contains(&i))
            .filter(|&i| {
                v.hand
                    .count(Card::new(canasta_core::Rank::from_index(i), suit))
                    > 0
            })
            .count() as i32;
        k += if extends { 50 } else { 15 * neighbours };
    }
    // Danger: the next opponents take the pile with it.
    let known = i32::from(v.opp_known.rank_count(r));
    let melded = v.opp_meld_ranks & (1 << r.index()) != 0;
    let unseen = i32::from(v.unseen.rank_count(r));
    let take_need = if v.pile_frozen {
        i32::from(rules.pile_take_naturals_frozen())
    } else {
        i32::from(rules.pile_take_naturals())
    };
    let can_take =
        (melded && !v.pile_frozen && rules.take_onto_meld()) || known + unseen >= take_need;
    if can_take {
        let mut weight = 15 + 5 * v.pile_len() as i32;
        if v.next_discarded & bit != 0 && known == 0 {
            // The next player threw this rank: likely no pair of it.
            weight /= 2;
        }
        k += if known >= take_need || (melded && !v.pile_frozen) {
            weight * 2
        } else {
            weight * (known + unseen).min(4) / 4
        };
    } else {
        k -= 20;
    }
    let value = rules.card_values().of(c);
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
pub fn best(v: &View<'_>, legal: &[Action]) -> Action {
    let mut best = legal[0];
    let mut top = i32::MIN;
    for a in legal {
        let s = score(v, a);
        if s > top {
            top = s;
            best = *a;
        }
    }
    best
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

#[cfg(test)]
fn card(s: &str) -> Card {
    s.parse().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discarding each of `cards`.
    fn discards(cards: &[&str]) -> Vec<Action> {
        cards.iter().map(|c| Action::Discard(card(c))).collect()
    }

    fn view_with(rules: &Rules, hand: &str) -> View<'static> {
        let rules: &'static Rules = Box::leak(Box::new(rules.clone()));
        View {
            rules,
            hand: hand.split_whitespace().map(card).collect(),
            own_melds: &[],
            opp_meld_ranks: 0,
            opp_known: CardCounts::new(),
            unseen: rules.deck(),
            pile: &[],
            pile_hidden: 0,
            pile_frozen: false,
            opp_min_hand: 11,
            side_opened: true,
            next_discarded: 0,
            partner_discarded: 0,
            partner_min_hand: 11,
        }
    }

    /// The next player threw a nine: of two singletons the opponents could
    /// take alike, the nine goes.
    #[test]
    fn reads_the_next_players_discards_as_safe() {
        let rules = Rules::classic();
        let mut v = view_with(&rules, "9S TC 7H 7D");
        let legal = discards(&["9S", "TC"]);
        v.next_discarded = 1 << Rank::Nine.index();
        assert_eq!(best(&v, &legal), Action::Discard(card("9S")));
        v.next_discarded = 1 << Rank::Ten.index();
        assert_eq!(best(&v, &legal), Action::Discard(card("TC")));
    }

    /// Partner threw sixes: nobody on our side builds them, so a lone six
    /// goes before a lone five.
    #[test]
    fn follows_partners_discards() {
        let rules = Rules::classic();
        let mut v = view_with(&rules, "5S 6C KH KD");
        let legal = discards(&["5S", "6C"]);
        v.partner_discarded = 1 << Rank::Six.index();
        assert_eq!(best(&v, &legal), Action::Discard(card("6C")));
        v.partner_discarded = 1 << Rank::Five.index();
        assert_eq!(best(&v, &legal), Action::Discard(card("5S")));
    }

    /// Partner is down to one card: the ace is laid on our meld now rather
    /// than kept for later, and a high card is discarded before a low one.
    #[test]
    fn unloads_when_partner_is_about_to_go_out() {
        let rules = Rules::classic();
        let melds: Vec<Meld> = vec![Meld {
            cards: Group::from_cards(&[card("AS"), card("AH"), card("AD")]).unwrap(),
            closed: false,
        }];
        let melds: &'static [Meld] = Box::leak(melds.into_boxed_slice());
        let mut v = view_with(&rules, "AC 4S KH 8C 9D");
        v.own_melds = melds;
        let add: Action = "add 0 AC".parse().unwrap();
        let calm = score(&v, &add);
        v.partner_min_hand = 1;
        assert!(score(&v, &add) > calm);
        let legal = discards(&["4S", "KH"]);
        assert_eq!(best(&v, &legal), Action::Discard(card("KH")));
    }

    /// Samba: a sequence is worth laying (it was once mistaken for a meld
    /// of wild cards), and a card next to our sequence is kept.
    #[test]
    fn samba_sequences_are_laid_and_their_neighbours_kept() {
        let rules = Rules::preset("samba", None, None).unwrap();
        let v = view_with(&rules, "5H 6H 7H 9C KD 4S");
        let seq: Action = "meld 5H 6H 7H".parse().unwrap();
        assert!(score(&v, &seq) > score(&v, &Action::Discard(card("4S"))));
        let legal = discards(&["9C", "KD", "4S", "5H"]);
        assert_ne!(best(&v, &legal), Action::Discard(card("5H")));
    }

    /// Pennies: sevens build the 1500 canasta going out needs, so they are
    /// laid before another rank and kept rather than thrown; two canastas
    /// without a wild and a sevens canasta are not enough to ask partner.
    #[test]
    fn pennies_builds_the_sevens_canasta_and_counts_every_kind() {
        let rules = Rules::preset("pennies", None, None).unwrap();
        let v = view_with(&rules, "7S 7H 7D 9S 9H 9D KC");
        let sevens: Action = "meld 7S 7H 7D".parse().unwrap();
        let nines: Action = "meld 9S 9H 9D".parse().unwrap();
        assert!(score(&v, &sevens) > score(&v, &nines));
        let v = view_with(&rules, "7S 9C 8D 8H");
        let legal = discards(&["7S", "9C"]);
        assert_eq!(best(&v, &legal), Action::Discard(card("9C")));
        let melds: Vec<Meld> = ["5S 5H 5D 5C 5S 5H 5D", "KS KH KD KC 2S 2H JK"]
            .iter()
            .map(|m| Meld {
                cards: Group::from_cards(&m.split_whitespace().map(card).collect::<Vec<_>>())
                    .unwrap(),
                closed: false,
            })
            .collect();
        let melds: &'static [Meld] = Box::leak(melds.into_boxed_slice());
        let mut v = view_with(&rules, "9S");
        v.own_melds = melds;
        assert!(!v.can_go_out());
        let classic = Rules::classic();
        let mut v = view_with(&classic, "9S");
        v.own_melds = melds;
        assert!(v.can_go_out());
    }

    /// Pennies: a meld of wild cards holds nothing back and a wild canasta
    /// is needed to go out, so wild cards are laid together.
    #[test]
    fn pennies_lays_wild_melds() {
        let rules = Rules::preset("pennies", None, None).unwrap();
        let v = view_with(&rules, "JK JK 2S 9C KD 4S");
        let wild: Action = "meld JK JK 2S".parse().unwrap();
        assert!(score(&v, &wild) > 0);
        let canastone = Rules::preset("canastone", None, None).unwrap();
        let v = view_with(&canastone, "JK JK 2S 9C KD 4S");
        assert!(score(&v, &wild) < 0);
    }

    #[test]
    fn discards_a_black_three_before_a_pair_or_a_wild() {
        let rules = Rules::classic();
        let v = view_with(&rules, "3S 7H 7D JK 2C 9S");
        let legal: Vec<Action> = v.hand.iter().map(Action::Discard).collect();
        assert_eq!(best(&v, &legal), Action::Discard(card("3S")));
    }

    #[test]
    fn keeps_pairs_and_avoids_feeding_an_opponent_meld() {
        let rules = Rules::classic();
        let mut v = view_with(&rules, "7H 7D 9S KC");
        v.opp_meld_ranks = 1 << Rank::King.index();
        let legal: Vec<Action> = v.hand.iter().map(Action::Discard).collect();
        assert_eq!(best(&v, &legal), Action::Discard(card("9S")));
    }

    #[test]
    fn takes_a_big_pile_rather_than_drawing() {
        let rules = Rules::classic();
        let pile: Vec<Card> = "4S 5H 6D 8C 9S TD KH"
            .split_whitespace()
            .map(card)
            .collect();
        let pile: &'static [Card] = Box::leak(pile.into_boxed_slice());
        let mut v = view_with(&rules, "KS KD 5C");
        v.pile = pile;
        assert!(score(&v, &Action::PickupOnto) > score(&v, &Action::Draw));
    }

    #[test]
    fn asks_partner_only_with_a_hand_that_can_go_out() {
        let rules = Rules::classic();
        let melds: Vec<Meld> = ["5S 5H 5D 5C 5S 5H 5D", "KS KH KD"]
            .iter()
            .map(|m| Meld {
                cards: Group::from_cards(&m.split_whitespace().map(card).collect::<Vec<_>>())
                    .unwrap(),
                closed: false,
            })
            .collect();
        let melds: &'static [Meld] = Box::leak(melds.into_boxed_slice());
        let mut v = view_with(&rules, "KC 9S");
        v.own_melds = melds;
        assert!(score(&v, &Action::Ask) > score(&v, &Action::Discard(card("9S"))));
        let mut v = view_with(&rules, "KC 9S 8D 7H JK 4C");
        v.own_melds = melds;
        assert!(score(&v, &Action::Ask) < score(&v, &Action::Discard(card("9S"))));
    }
}
