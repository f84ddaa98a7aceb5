//! The random bot: a uniform choice from the full generated list.

use crate::{Bot, Decision};
use canasta_core::{Action, Rng};

/// Chooses uniformly among all legal actions.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
        }
    }

    /// The choice itself, for callers that have no observation at hand.
    pub fn pick(&mut self, legal: &[Action]) -> Action {
        legal[self.rng.below(legal.len())]
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        self.pick(decision.legal())
    }
}
