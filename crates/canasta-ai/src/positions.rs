//! Positions to measure search on.

use crate::heuristic::{View, best};
use canasta_core::Seat;
use canasta_core::{ActionList, GameState, Phase, Rng, Rules};

/// `count` positions of heuristic self-play where the seat to act has a
/// choice (about one in six of them, the dealer moving round hand by hand):
/// what a search bot meets in a game, which random play's positions are
/// not. The bots' benches, `canasta bench` and the `profile_search` example
/// search from these, so their figures compare.
pub fn search_positions(rules: &Rules, count: usize, seed: u64) -> Vec<GameState> {
    let mut rng = Rng::new(seed);
    let mut buf = ActionList::new();
    let mut out = Vec::with_capacity(count);
    let mut hands = 0usize;
    while out.len() < count {
        let mut g = GameState::new(rules.clone());
        g.deal_random(&mut rng, Seat::new(hands % rules.game.players as usize));
        hands += 1;
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            g.legal_actions_into(&mut buf);
            if buf.len() > 1 && rng.below(6) == 0 {
                out.push(g.clone());
            }
            let a = best(&View::of_state(&g), &buf);
            g.apply_unchecked(a);
        }
    }
    out.truncate(count);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_offers_a_choice_and_a_seed_gives_the_same_ones() {
        let rules = Rules::classic();
        let a = search_positions(&rules, 12, 3);
        assert_eq!(a.len(), 12);
        assert!(a.iter().all(|g| g.legal_actions().len() > 1));
        let b = search_positions(&rules, 12, 3);
        let ids = |v: &[GameState]| v.iter().map(|g| g.describe()).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&b));
    }
}
