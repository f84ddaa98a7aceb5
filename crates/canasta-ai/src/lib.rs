//! Bots for the canasta engine. A bot sees only an [`Observation`] of its
//! seat and the legal actions; it never reads the game state.

pub mod random;

use canasta_core::{Action, Observation, Rules};

pub use random::RandomBot;

/// A player that chooses among the legal actions from what its seat can see.
pub trait Bot: Send {
    /// A short name for tables and records.
    fn name(&self) -> &str;

    /// Chooses one of `legal` (never empty) for the seat of `observation`.
    fn choose(&mut self, rules: &Rules, observation: &Observation, legal: &[Action]) -> Action;

    /// Whether the bot uses the observation at all; bots that do not are
    /// spared building one (the simulator's hot loop).
    fn needs_observation(&self) -> bool {
        true
    }
}

/// Names of the built-in bots, for command lines.
pub const BOT_NAMES: &[&str] = &["random"];

/// A built-in bot by name, seeded for reproducible play.
pub fn bot_by_name(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match name.to_ascii_lowercase().as_str() {
        "random" => Some(Box::new(RandomBot::new(seed))),
        _ => None,
    }
}
