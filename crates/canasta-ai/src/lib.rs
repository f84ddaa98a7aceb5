//! Bots for the canasta engine. A bot sees only an [`Observation`] of its
//! seat and the legal actions; it never reads the game state.

pub mod heuristic;
pub mod random;

use canasta_core::{Action, GameState, Observation, Rng, Rules};

pub use heuristic::HeuristicBot;
pub use random::RandomBot;

/// One decision put to a bot: the seat, the rules, the legal actions, and
/// the seat's observation, built only if the bot asks for it. The game
/// state stays private, so a bot cannot peek at hidden cards.
pub struct Decision<'a> {
    state: &'a GameState,
    legal: &'a [Action],
}

impl<'a> Decision<'a> {
    /// The decision for the seat to act in `state`; `legal` is its generated list.
    pub fn new(state: &'a GameState, legal: &'a [Action]) -> Decision<'a> {
        Decision { state, legal }
    }

    pub fn seat(&self) -> usize {
        self.state.to_act()
    }

    pub fn rules(&self) -> &Rules {
        self.state.rules()
    }

    /// Never empty.
    pub fn legal(&self) -> &[Action] {
        self.legal
    }

    /// What the seat to act can see.
    pub fn observation(&self) -> Observation {
        self.state.observe(self.state.to_act())
    }

    /// A full game state the seat cannot tell from the real one: every card
    /// it cannot see re-dealt at random (see
    /// [`GameState::determinize`]). Search plays such samples out; the real
    /// state never leaves the decision.
    pub fn determinize(&self, rng: &mut Rng) -> GameState {
        self.state.determinize(self.state.to_act(), rng)
    }
}

/// A player that chooses among the legal actions from what its seat can see.
pub trait Bot: Send {
    /// A short name for tables and records.
    fn name(&self) -> &str;

    /// Chooses one of `decision.legal()`.
    fn choose(&mut self, decision: &Decision<'_>) -> Action;
}

/// Names of the built-in bots, for command lines.
pub const BOT_NAMES: &[&str] = &["random", "heuristic"];

/// A built-in bot by name, seeded for reproducible play.
pub fn bot_by_name(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match name.to_ascii_lowercase().as_str() {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot::new())),
        _ => None,
    }
}
