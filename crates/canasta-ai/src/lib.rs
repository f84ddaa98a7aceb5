//! Bots for the canasta engine. A bot sees only an [`Observation`] of its
//! seat and the legal actions; it never reads the game state.
//!
//! A new bot is one file: a type implementing [`Bot`], whose `choose` picks
//! one of `decision.legal()` from `decision.observation()` (and, for search,
//! from samples `decision.determinize(rng)` of the hidden cards), plus one
//! line in [`bot_by_name`].

pub mod heuristic;
pub mod ismcts;
pub mod protocol;
pub mod random;

use canasta_core::{Action, GameState, Observation, Rng, Rules};
use thiserror::Error;

pub use heuristic::HeuristicBot;
pub use ismcts::{IsMctsBot, Level};
pub use random::RandomBot;

/// Where a decision comes from: a game played here (whose state stays
/// hidden), or an observation received from elsewhere (the bot protocol).
#[derive(Clone, Copy)]
enum Source<'a> {
    State(&'a GameState),
    Observed {
        obs: &'a Observation,
        rules: &'a Rules,
    },
}

/// One decision put to a bot: the seat, the rules, the legal actions, and
/// the seat's observation, built only if the bot asks for it. The game
/// state stays private, so a bot cannot peek at hidden cards.
pub struct Decision<'a> {
    source: Source<'a>,
    legal: &'a [Action],
}

impl<'a> Decision<'a> {
    /// The decision for the seat to act in `state`; `legal` is its generated list.
    pub fn new(state: &'a GameState, legal: &'a [Action]) -> Decision<'a> {
        Decision {
            source: Source::State(state),
            legal,
        }
    }

    /// A decision known only from the acting seat's observation (an external
    /// host's game); [`Decision::determinize`] is not available for it.
    pub fn from_observation(
        obs: &'a Observation,
        rules: &'a Rules,
        legal: &'a [Action],
    ) -> Decision<'a> {
        Decision {
            source: Source::Observed { obs, rules },
            legal,
        }
    }

    pub fn seat(&self) -> usize {
        match self.source {
            Source::State(s) => s.to_act(),
            Source::Observed { obs, .. } => obs.to_act,
        }
    }

    pub fn rules(&self) -> &Rules {
        match self.source {
            Source::State(s) => s.rules(),
            Source::Observed { rules, .. } => rules,
        }
    }

    /// Never empty.
    pub fn legal(&self) -> &[Action] {
        self.legal
    }

    /// What the seat to act can see.
    pub fn observation(&self) -> Observation {
        match self.source {
            Source::State(s) => s.observe(s.to_act()),
            Source::Observed { obs, .. } => obs.clone(),
        }
    }

    /// A full game state the seat cannot tell from the real one: every card
    /// it cannot see re-dealt at random (see [`GameState::determinize`]).
    /// Search plays such samples out; the real state never leaves the
    /// decision. For a decision known only from an observation the sample
    /// is rebuilt from it ([`GameState::from_observation`]) with the
    /// table's public facts it carries (an older host that omits them
    /// leaves a few details of the turn to be guessed).
    pub fn determinize(&self, rng: &mut Rng) -> GameState {
        match self.source {
            Source::State(s) => s.determinize(s.to_act(), rng),
            Source::Observed { obs, rules } => GameState::from_observation(obs, rules, rng),
        }
    }
}

/// A bot failed to choose (an external program stopped answering, or
/// answered something that is not a legal action).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct BotError(pub String);

/// A player that chooses among the legal actions from what its seat can see.
pub trait Bot: Send {
    /// A short name for tables and records.
    fn name(&self) -> &str;

    /// Chooses one of `decision.legal()`.
    fn choose(&mut self, decision: &Decision<'_>) -> Action;

    /// [`Bot::choose`] for bots that can fail; built-in bots never do.
    ///
    /// # Errors
    /// When the bot cannot produce an action.
    fn try_choose(&mut self, decision: &Decision<'_>) -> Result<Action, BotError> {
        Ok(self.choose(decision))
    }
}

/// Names of the built-in bots, for command lines (`ismcts` is
/// `ismcts-medium`).
pub const BOT_NAMES: &[&str] = &[
    "random",
    "heuristic",
    "ismcts",
    "ismcts-easy",
    "ismcts-medium",
    "ismcts-hard",
    "ismcts-expert",
];

/// A built-in bot by name, seeded for reproducible play.
pub fn bot_by_name(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match name.to_ascii_lowercase().as_str() {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot::new())),
        "ismcts" => Some(Box::new(IsMctsBot::new(ismcts::DEFAULT_LEVEL, seed))),
        other => {
            let level = other.strip_prefix("ismcts-")?;
            let level = Level::ALL.into_iter().find(|l| l.name() == level)?;
            Some(Box::new(IsMctsBot::new(level, seed)))
        }
    }
}
