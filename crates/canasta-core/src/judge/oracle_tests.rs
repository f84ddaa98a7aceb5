//! An oracle for the judge that can fail: larger actions (melds of many
//! cards with wild cards, multi-group openings, pickups with groups,
//! multi-card adds) in positions of random play of every preset form are
//! judged twice, by [`GameState::judge`] and by a search over every
//! ordering of *generated* steps that reaches the position the action
//! leaves; the two verdicts must agree, and an accepted action must leave
//! exactly the position the steps reach.
//!
//! The search knows nothing of the judge's predicates. It adds only the
//! rules the record spec states for an action as a whole, each written
//! here in its own words:
//! - an opening is one action: the first step must be a generated opening,
//!   and where the opening must be clean every group of the action is clean;
//! - wild cards kept for an unfinished wild meld (P-CNE) are judged over
//!   the action: it may not put wild cards on rank melds while the side
//!   had a wild meld short of a canasta before it and still has one after
//!   (a wild meld the action begins or completes holds nothing back);
//! - "a wild card may go into a meld that this same action makes a
//!   canasta": where wild cards may not be added to a canasta, the search
//!   may put them on melds that were not canastas before the action (it
//!   runs on the rules with that one restriction lifted, and never puts a
//!   wild card on a meld that was a canasta before), and the position it
//!   reaches must still offer the strict rules a way on.

use crate::action::{Action, Groups};
use crate::card::{Card, CardCounts, Rank};
use crate::judge::clean_for_opening;
use crate::meld::Group;
use crate::rng::{Rng, shuffled_deck};
use crate::rules::Rules;
use crate::seat::{Seat, Side};
use crate::state::{GameState, Phase};
use std::collections::HashSet;

/// What a search compares: the actor's hand, the side's melds as a
/// multiset, the pile and stock sizes, phase and actor.
type Key = (
    Vec<(Card, u8)>,
    Vec<(Group, bool)>,
    usize,
    usize,
    u8,
    Seat,
    bool,
);

/// Cards the rules cannot tell apart as one (the generator names one of
/// them): every suit of a rank where suits do not matter, else only twos
/// and threes of a colour.
fn fold(c: Card, suits_matter: bool) -> Card {
    if !suits_matter || c.is_wild() || c.rank() == Some(Rank::Three) {
        crate::action::class_card(c)
    } else {
        c
    }
}

fn fold_counts(cards: &CardCounts, suits_matter: bool) -> CardCounts {
    cards.iter().map(|c| fold(c, suits_matter)).collect()
}

fn fold_group(g: &Group, suits_matter: bool) -> Group {
    if !suits_matter || g.is_sequence() {
        return g.class_key();
    }
    let mut g = *g;
    g.twos = [g.two_count(), 0, 0, 0];
    if g.rank() == Some(Rank::Three) {
        g.naturals = [g.natural_count(), 0, 0, 0];
    }
    g
}

fn key(g: &GameState) -> Key {
    let seat = g.current();
    let side = g.side_of(seat);
    let suits = g.rules().melds.suits_matter();
    let mut melds: Vec<(Group, bool)> = g
        .melds(side)
        .iter()
        .map(|m| (fold_group(&m.cards, suits), m.closed))
        .collect();
    melds.sort();
    (
        fold_counts(g.hand(seat), suits).faces().collect(),
        melds,
        g.pile().len(),
        g.stock_len(),
        g.phase() as u8,
        g.to_act(),
        g.turn().must_go_out,
    )
}

fn is_lay(a: &Action) -> bool {
    matches!(
        a,
        Action::Meld(_) | Action::Add { .. } | Action::Pickup { .. } | Action::PickupOnto
    )
}

/// The oracle's verdict on `action` in `g` (a lay by the seat to act).
fn oracle(g: &GameState, action: &Action) -> bool {
    let rules = g.rules();
    let seat = g.to_act();
    let side = g.side_of(seat);
    if !g.hand(seat).contains_all(&action.cards_from_hand()) {
        return false;
    }
    let cards = fold_counts(&action.cards_from_hand(), rules.melds.suits_matter());
    let mut target = g.clone();
    target.apply_raw(*action);
    let opening = g.melds(side).is_empty();
    // The opening's composition, over all its groups.
    if opening && rules.opening.must_be_clean(g.opening_minimum(seat)) {
        let mut groups: Vec<Group> = Vec::new();
        match action {
            Action::Meld(gs) => groups.extend(gs.iter()),
            Action::Pickup { with, also } => {
                groups.push(*with);
                groups.extend(also.iter());
            }
            _ => {}
        }
        if !groups.iter().all(|g| clean_for_opening(rules, g)) {
            return false;
        }
    }
    // Wild cards held for an unfinished wild meld, over the whole action.
    let reserve = rules.melds.wild_meld_reserves;
    if rules.melds.wild_melds_allowed() && reserve != crate::rules::WildMeldReserve::Nothing {
        let after = target.melds(side);
        let short_wild = |m: &crate::meld::Meld| {
            m.cards.is_wild_only()
                && !rules.melds.has_canasta_length(m.cards.len())
                && (reserve != crate::rules::WildMeldReserve::Twos || m.cards.two_count() > 0)
        };
        let open_wild = after.iter().any(short_wild) && g.melds(side).iter().any(short_wild);
        // Counted by kind: the jokers and the twos a rank meld gained.
        let wild_on_rank_meld = after.iter().enumerate().any(|(i, m)| {
            let before = g.melds(side).get(i).map(|b| b.cards);
            let gained = |count: fn(&crate::meld::Group) -> u8| {
                count(&m.cards) > before.as_ref().map_or(0, count)
            };
            !m.cards.is_wild_only()
                && ((reserve.holds(true) && gained(|c| c.jokers))
                    || (reserve.holds(false) && gained(|c| c.two_count())))
        });
        if open_wild && wild_on_rank_meld {
            return false;
        }
    }
    let want = key(&target);
    let pickup = matches!(action, Action::Pickup { .. } | Action::PickupOnto);
    let mut seen = HashSet::new();
    if search(g, &want, cards, pickup, &mut seen, None) {
        return true;
    }
    if rules.melds.wilds_on_canasta {
        return false;
    }
    // The spec's sentence: wild cards may go into a meld this action
    // completes. Search again with the restriction lifted, keeping wild
    // cards off melds that were canastas before the action.
    let was_canasta: Vec<bool> = g.melds(side).iter().map(|m| m.is_canasta(rules)).collect();
    let mut relaxed = rules.clone().into_spec();
    relaxed.melds.wilds_on_canasta = true;
    let lifted = g.under_rules(Rules::new(relaxed).expect("wild cards on canastas are valid"));
    let mut seen = HashSet::new();
    let found = search(
        &lifted,
        &want,
        cards,
        pickup,
        &mut seen,
        Some((&was_canasta, side)),
    );
    // The position reached must still give the strict rules a way on.
    found
        && (!matches!(target.phase(), Phase::Draw | Phase::Play | Phase::Answer)
            || !target.legal_actions().is_empty())
}

/// Depth-first over generated lays whose cards are among `left`.
fn search(
    s: &GameState,
    want: &Key,
    left: CardCounts,
    pickup_first: bool,
    seen: &mut HashSet<Key>,
    keep_off: Option<(&[bool], Side)>,
) -> bool {
    let k = key(s);
    if !pickup_first && (left.is_empty() || !matches!(s.phase(), Phase::Draw | Phase::Play)) {
        return &k == want;
    }
    if !seen.insert(k) {
        return false;
    }
    for a in s.legal_actions() {
        if !is_lay(&a) {
            continue;
        }
        let is_pickup = matches!(a, Action::Pickup { .. } | Action::PickupOnto);
        if is_pickup != pickup_first {
            continue;
        }
        let used = fold_counts(&a.cards_from_hand(), s.rules().melds.suits_matter());
        if !left.contains_all(&used) {
            continue;
        }
        if let (Some((was, side)), Action::Add { meld, cards }) = (keep_off, &a)
            && cards.wild_count() > 0
            && s.side_of(s.to_act()) == side
            && was.get(meld.index()).copied().unwrap_or(false)
        {
            continue;
        }
        let mut next = s.clone();
        next.apply_raw(a);
        let mut rest = left;
        rest.remove_all(&used);
        if search(&next, want, rest, false, seen, keep_off) {
            return true;
        }
    }
    false
}

/// Candidates built by extending generated lays with more cards from hand,
/// and by joining two generated lays of one turn into one action.
fn candidates(g: &GameState, rng: &mut Rng) -> Vec<Action> {
    let seat = g.to_act();
    let legal = g.legal_actions();
    let lays: Vec<Action> = legal.iter().copied().filter(is_lay).collect();
    let mut out = Vec::new();
    if lays.is_empty() {
        return out;
    }
    for _ in 0..12 {
        let base = lays[rng.below(lays.len())];
        let mut hand = *g.hand(seat);
        hand.remove_all(&base.cards_from_hand());
        out.push(extend(base, &mut hand, rng));
    }
    // Two generated lays of one turn as one action.
    for _ in 0..6 {
        let first = lays[rng.below(lays.len())];
        if matches!(first, Action::PickupOnto) {
            continue;
        }
        let mut after = g.clone();
        after.apply_raw(first);
        if !matches!(after.phase(), Phase::Draw | Phase::Play) || after.current() != g.current() {
            continue;
        }
        let next: Vec<Action> = after
            .legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Meld(_) | Action::Add { .. }))
            .collect();
        if next.is_empty() {
            continue;
        }
        let second = next[rng.below(next.len())];
        if let Some(joined) = join(g, first, second) {
            out.push(joined);
        }
    }
    out
}

/// `first` then `second` written as one action, where the notation can.
fn join(g: &GameState, first: Action, second: Action) -> Option<Action> {
    let side = g.side_of(g.to_act());
    let before = g.melds(side).len();
    match (first, second) {
        (Action::Meld(a), Action::Meld(b)) => {
            let mut gs = a;
            for x in b.iter() {
                if !gs.push(*x) {
                    return None;
                }
            }
            Some(Action::Meld(gs))
        }
        (Action::Meld(a), Action::Add { meld, cards }) if meld.index() >= before => {
            // Onto a meld the first action began: into its group.
            let j = meld.index() - before;
            let mut gs = Groups::new();
            for (i, x) in a.iter().enumerate() {
                let mut x = *x;
                if i == j {
                    x.merge(&cards);
                }
                gs.push(x);
            }
            Some(Action::Meld(gs))
        }
        (
            Action::Add {
                meld: m1,
                cards: c1,
            },
            Action::Add {
                meld: m2,
                cards: c2,
            },
        ) if m1 == m2 => {
            let mut c = c1;
            c.merge(&c2);
            Some(Action::Add { meld: m1, cards: c })
        }
        (Action::Pickup { with, also }, Action::Meld(b)) => {
            let mut gs = also;
            for x in b.iter() {
                if !gs.push(*x) {
                    return None;
                }
            }
            Some(Action::Pickup { with, also: gs })
        }
        _ => None,
    }
}

/// `g` with up to three random further cards from `hand` that could join it.
fn grow(g: Group, hand: &mut CardCounts, rng: &mut Rng) -> Group {
    let mut g = g;
    for _ in 0..rng.below(4) {
        let pool: Vec<Card> = hand
            .iter()
            .filter(|c| {
                if g.is_sequence() {
                    g.run_suit() == c.suit()
                        && c.rank().is_some_and(|r| {
                            let bit = 1u16 << r.index();
                            r >= Rank::Four
                                && g.sequence_ranks() & bit == 0
                                && (g.sequence_ranks() & (bit << 1) != 0
                                    || g.sequence_ranks() & (bit >> 1) != 0)
                        })
                } else {
                    c.is_wild() || (c.rank().is_some() && c.rank() == g.rank())
                }
            })
            .collect();
        if pool.is_empty() {
            break;
        }
        let c = pool[rng.below(pool.len())];
        hand.remove(c);
        if g.is_sequence() {
            g.push_to_run(c);
        } else {
            g.push(c).expect("same rank or wild");
        }
    }
    g
}

/// `gs` grown, and sometimes a further group: naturals of a rank the hand
/// holds two of, grown in turn.
fn grow_groups(gs: Groups, hand: &mut CardCounts, rng: &mut Rng) -> Groups {
    let mut out = Groups::new();
    for g in gs.iter() {
        out.push(grow(*g, hand, rng));
    }
    if rng.below(3) == 0 {
        let ranks: Vec<Rank> = Rank::MELDABLE
            .iter()
            .copied()
            .filter(|&r| hand.rank_count(r) >= 2)
            .collect();
        if !ranks.is_empty() {
            let r = ranks[rng.below(ranks.len())];
            let mut g = Group::of_rank(r);
            let take = 2 + rng.below(hand.rank_count(r) as usize - 1);
            for c in hand
                .to_vec()
                .into_iter()
                .filter(|c| c.rank() == Some(r))
                .take(take)
            {
                hand.remove(c);
                g.push(c).unwrap();
            }
            out.push(grow(g, hand, rng));
        }
    }
    out
}

/// `base` with random further cards from `hand` in its groups.
fn extend(base: Action, hand: &mut CardCounts, rng: &mut Rng) -> Action {
    match base {
        Action::Meld(gs) => Action::Meld(grow_groups(gs, hand, rng)),
        Action::Pickup { with, also } => {
            let with = grow(with, hand, rng);
            Action::Pickup {
                with,
                also: grow_groups(also, hand, rng),
            }
        }
        Action::Add { meld, cards } => Action::Add {
            meld,
            cards: grow(cards, hand, rng),
        },
        other => other,
    }
}

/// Positions of uniform random play, every `every`-th decision, over
/// `hands` hands of a game for each seed.
fn positions(rules: &Rules, seeds: std::ops::Range<u64>, every: usize) -> Vec<GameState> {
    let mut out = Vec::new();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut g = GameState::new(rules.clone());
        let deck = shuffled_deck(rules, &mut rng);
        if g.deal(&deck, Seat::new(0)).is_err() || g.phase() == Phase::Deal {
            continue;
        }
        let mut step = 0;
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) && step < 400 {
            let legal = g.legal_actions();
            if step % every == 0 {
                out.push(g.clone());
            }
            g.apply_unchecked(legal[rng.below(legal.len())]);
            step += 1;
        }
    }
    out
}

fn describe(g: &GameState, a: &Action, judged: &Result<(), crate::IllegalReason>) -> String {
    let r = g.rules();
    format!(
        "{} {} players: `{a}`: judge {judged:?}, oracle disagrees\n{}\nlegal: {}",
        r.game.variant,
        r.game.players,
        g.describe(),
        g.legal_actions()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" | ")
    )
}

fn check_form(rules: &Rules, seeds: std::ops::Range<u64>, every: usize) -> (usize, usize) {
    let mut rng = Rng::new(0x0AC1E);
    let (mut agreed_legal, mut agreed_illegal) = (0, 0);
    for g in positions(rules, seeds, every) {
        if g.phase() == Phase::Answer {
            continue;
        }
        for a in candidates(&g, &mut rng) {
            let judged = g.judge(&a);
            let truth = oracle(&g, &a);
            assert_eq!(judged.is_ok(), truth, "{}", describe(&g, &a, &judged));
            if truth {
                agreed_legal += 1;
                let mut applied = g.clone();
                applied.apply(a).expect("accepted");
                let mut raw = g.clone();
                raw.apply_raw(a);
                assert_eq!(key(&applied), key(&raw));
            } else {
                agreed_illegal += 1;
                let mut refused = g.clone();
                assert!(refused.apply(a).is_err());
                assert_eq!(key(&refused), key(&g), "a refusal changed nothing");
            }
        }
    }
    (agreed_legal, agreed_illegal)
}

fn check_variant(id: &str) {
    let mut legal = 0;
    let mut illegal = 0;
    for rules in crate::rules::all_forms()
        .into_iter()
        .filter(|r| r.game.variant == id)
    {
        let (l, i) = check_form(&rules, 1..6, 5);
        legal += l;
        illegal += i;
    }
    // The candidates must exercise both verdicts, or the test proves little.
    eprintln!("{id}: {legal} legal, {illegal} illegal");
    assert!(
        legal >= 20 && illegal >= 20,
        "{id}: {legal} legal, {illegal} illegal"
    );
}

/// House rules that change what a lay may do.
#[test]
fn judge_agrees_with_ordered_steps_under_house_rules() {
    for (variant, players, options) in [
        ("samba", 2, r#"{"samba_pile_rule": "dutch"}"#),
        (
            "classic",
            4,
            r#"{"take_with_natural_and_wild": false, "wilds_on_canasta": false}"#,
        ),
        (
            "classic",
            2,
            r#"{"wild_ratio": "fewer_than_naturals", "max_wilds": 2}"#,
        ),
        ("canastone", 4, r#"{"clean_opening_up_to": 200}"#),
        ("pennies", 6, r#"{"teams": 3}"#),
    ] {
        let opts: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(options).unwrap();
        let rules = Rules::preset(variant, Some(players), None)
            .unwrap()
            .with_options(&opts)
            .unwrap();
        let (legal, illegal) = check_form(&rules, 1..4, 6);
        assert!(
            legal >= 20 && illegal >= 10,
            "{variant} {options}: {legal} legal, {illegal} illegal"
        );
    }
}

#[test]
fn judge_agrees_with_ordered_steps_classic() {
    check_variant("classic");
}

#[test]
fn judge_agrees_with_ordered_steps_canastone() {
    check_variant("canastone");
}

#[test]
fn judge_agrees_with_ordered_steps_italian() {
    check_variant("italian");
}

#[test]
fn judge_agrees_with_ordered_steps_samba() {
    check_variant("samba");
}

#[test]
fn judge_agrees_with_ordered_steps_pennies() {
    check_variant("pennies");
}

#[test]
fn judge_agrees_with_ordered_steps_canastia() {
    check_variant("canastia");
}
