//! Openings larger than the generator's irreducible ones are legal and are
//! applied as core plus adds, with melds numbered as written
//! (docs/decisions/action-space.md).

use canasta_core::Seat;
use canasta_core::{
    Action, Card, GameState, Group, Groups, Phase, Rank, Rng, Rules, shuffled_deck,
};

/// Extends an opening with more cards from `hand`: every further natural of
/// each group's rank. Returns `None` if nothing can be added.
fn enlarge(state: &GameState, groups: &Groups) -> Option<Groups> {
    let hand = state.hand(state.to_act());
    let mut used = canasta_core::CardCounts::new();
    for g in groups.iter() {
        for c in g.cards() {
            used.add(c);
        }
    }
    let mut out = Groups::new();
    let mut grew = false;
    for g in groups.iter() {
        let mut g = *g;
        if let Some(r) = g.rank().filter(|r| *r != Rank::Three) {
            for c in hand.faces().filter(|(c, _)| c.rank() == Some(r)) {
                let spare = c.1 - used.count(c.0).min(c.1);
                for _ in 0..spare {
                    g.push(c.0).unwrap();
                    used.add(c.0);
                    grew = true;
                }
            }
        }
        out.push(g);
    }
    grew.then_some(out)
}

#[test]
fn larger_openings_are_legal_and_keep_written_order() {
    let rules = Rules::classic();
    let mut checked = 0;
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let mut g = GameState::new(rules.clone());
        g.deal(&shuffled_deck(&rules, &mut rng), Seat::new(0))
            .unwrap();
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            let actions = g.legal_actions();
            for a in &actions {
                let Action::Meld(groups) = a else { continue };
                let side = g.side_of(g.to_act());
                if !g.melds(side).is_empty() || groups.len() < 2 {
                    continue;
                }
                let Some(bigger) = enlarge(&g, groups) else {
                    continue;
                };
                // Written in reverse order: melds must be numbered that way.
                let reversed: Groups = bigger.iter().rev().copied().collect();
                let action = Action::Meld(reversed);
                let mut s = g.clone();
                if s.hand(s.to_act()).total() - action.cards_from_hand().total() < 2 {
                    continue;
                }
                s.apply(action)
                    .unwrap_or_else(|e| panic!("{action}: {e}\n{}", g.describe()));
                let ranks: Vec<Option<Rank>> = s.melds(side).iter().map(|m| m.rank()).collect();
                let written: Vec<Option<Rank>> = reversed.iter().map(|g| g.rank()).collect();
                assert_eq!(ranks, written);
                let sizes: Vec<u8> = s.melds(side).iter().map(|m| m.cards.len()).collect();
                let want: Vec<u8> = reversed.iter().map(|g| g.len()).collect();
                assert_eq!(sizes, want);
                checked += 1;
            }
            g.apply_unchecked(actions[rng.below(actions.len())]);
        }
    }
    assert!(checked > 20, "only {checked} openings enlarged");
}

#[test]
fn opening_below_the_minimum_is_refused_with_need_and_have() {
    let rules = Rules::classic();
    let mut found = false;
    for seed in 0..200 {
        let mut rng = Rng::new(seed);
        let mut g = GameState::new(rules.clone());
        g.deal(&shuffled_deck(&rules, &mut rng), Seat::new(0))
            .unwrap();
        g.apply(Action::Draw).unwrap();
        let seat = g.to_act();
        let hand = *g.hand(seat);
        // Three naturals of a low rank: 15 points, below the 50 needed.
        for r in [Rank::Four, Rank::Five, Rank::Six, Rank::Seven] {
            if hand.rank_count(r) >= 3 {
                let cards: Vec<Card> = hand
                    .faces()
                    .filter(|(c, _)| c.rank() == Some(r))
                    .flat_map(|(c, n)| std::iter::repeat_n(c, n as usize))
                    .take(3)
                    .collect();
                let action = Action::Meld(Groups::from_iter([Group::from_cards(&cards).unwrap()]));
                let before = format!("{g:?}");
                let err = g.apply(action).unwrap_err();
                assert_eq!(
                    err.reason,
                    canasta_core::IllegalReason::OpeningTooLow { need: 50, have: 15 }
                );
                assert_eq!(before, format!("{g:?}"));
                found = true;
            }
        }
    }
    assert!(found);
}
