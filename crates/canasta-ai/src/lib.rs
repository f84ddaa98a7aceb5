//! Bots for the canasta engine. A bot sees only an [`Observation`] of its
//! seat and the legal actions; it never reads the game state.
//!
//! A new bot is one file: a type implementing [`Bot`], whose `choose` picks
//! one of `decision.legal()` from `decision.observation()` (and, for search,
//! from samples `decision.determinize(rng)` of the hidden cards), plus one
//! line in [`bot_by_name`].

pub mod heuristic;
pub mod hint;
pub mod ismcts;
mod positions;
pub mod protocol;
pub mod random;
pub mod serve;

use canasta_core::Seat;
use canasta_core::{Action, CardCounts, GameState, Observation, Rng, Rules, Sampler};
use thiserror::Error;

pub use heuristic::HeuristicBot;
pub use hint::{HINT_TIME, Hint, hint, hint_until};
pub use ismcts::{IsMctsBot, Level, RootStat};
pub use positions::search_positions;
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

    pub fn seat(&self) -> Seat {
        match self.source {
            Source::State(s) => s.to_act(),
            Source::Observed { obs, .. } => obs.to_act,
        }
    }

    /// The position's number ([`GameState::state_id`]): one more after
    /// each action, so search can tell that only its own last action was
    /// played since it last decided.
    pub fn state_id(&self) -> u64 {
        match self.source {
            Source::State(s) => s.state_id(),
            Source::Observed { obs, .. } => obs.state_id,
        }
    }

    /// The acting seat's own hand.
    pub fn hand(&self) -> &CardCounts {
        match self.source {
            Source::State(s) => s.hand(s.to_act()),
            Source::Observed { obs, .. } => &obs.hand,
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

    /// Samples like [`Decision::determinize`]'s, with the work they share
    /// done once (search draws thousands for one decision). A decision
    /// known from an observation is rebuilt once, and each sample deals
    /// that state's hidden cards afresh.
    pub fn samples(&self, rng: &mut Rng) -> Samples<'a> {
        let base = match self.source {
            Source::State(s) => SampleBase::Real(s),
            Source::Observed { obs, rules } => {
                SampleBase::Rebuilt(Box::new(GameState::from_observation(obs, rules, rng)))
            }
        };
        let sampler = base.state().sampler(self.seat());
        Samples { base, sampler }
    }
}

/// The states a search samples for one decision ([`Decision::samples`]).
pub struct Samples<'a> {
    base: SampleBase<'a>,
    sampler: Sampler,
}

enum SampleBase<'a> {
    Real(&'a GameState),
    Rebuilt(Box<GameState>),
}

impl SampleBase<'_> {
    fn state(&self) -> &GameState {
        match self {
            SampleBase::Real(s) => s,
            SampleBase::Rebuilt(s) => s,
        }
    }
}

impl Samples<'_> {
    /// A full state the seat cannot tell from the real one.
    pub fn draw(&self, rng: &mut Rng) -> GameState {
        self.sampler.sample(self.base.state(), rng)
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
///
/// A search bot takes a budget after `@`: `ismcts@250ms` searches for a
/// quarter of a second a decision (not reproducible: the machine's speed
/// decides), `ismcts-hard@5000` runs 5,000 iterations and nothing else
/// bounds it (`ismcts-expert@12000` is expert without its time cap); the
/// level keeps its other settings. `/N` after it searches on N threads
/// (root parallelism: N searches pool their root statistics):
/// `ismcts-hard@250ms/2`.
pub fn bot_by_name(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    BotSpec::parse(name).map(|spec| spec.build(seed))
}

/// A bot name read ([`bot_by_name`]'s names): which bot, and for a search
/// bot the search it runs, so that a host can weigh what a name asks of
/// the machine (iterations, time, threads) before it builds the bot.
#[derive(Clone, Debug)]
pub enum BotSpec {
    Random,
    Heuristic,
    Search {
        /// The name the bot is shown by.
        name: String,
        config: ismcts::Config,
    },
}

impl BotSpec {
    /// The bot `name` names (any case); `None` for a name that is not one.
    pub fn parse(name: &str) -> Option<BotSpec> {
        let name = name.to_ascii_lowercase();
        // `/N`: a search on N threads (root parallelism), `ismcts-hard@200ms/2`.
        let (spec, threads) = match name.rsplit_once('/') {
            Some((spec, n)) => (
                spec,
                Some(n.parse::<usize>().ok().filter(|&n| (1..=64).contains(&n))?),
            ),
            None => (name.as_str(), None),
        };
        let (base, budget) = match spec.split_once('@') {
            Some((base, budget)) => (base, Some(budget)),
            None => (spec, None),
        };
        let level = match base {
            "random" if budget.is_none() && threads.is_none() => return Some(BotSpec::Random),
            "heuristic" if budget.is_none() && threads.is_none() => {
                return Some(BotSpec::Heuristic);
            }
            "ismcts" => ismcts::DEFAULT_LEVEL,
            other => {
                let level = other.strip_prefix("ismcts-")?;
                Level::ALL.into_iter().find(|l| l.name() == level)?
            }
        };
        if budget.is_none() && threads.is_none() {
            return Some(BotSpec::Search {
                name: format!("ismcts-{}", level.name()),
                config: level.config(),
            });
        }
        Some(BotSpec::Search {
            config: search_config(level, budget, threads)?,
            name,
        })
    }

    /// The search a search bot runs; `None` for the bots that do not search.
    pub fn search(&self) -> Option<&ismcts::Config> {
        match self {
            BotSpec::Search { config, .. } => Some(config),
            BotSpec::Random | BotSpec::Heuristic => None,
        }
    }

    /// The bot, seeded for reproducible play.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        self.build_stoppable(seed, None)
    }

    /// The bot, whose searches end early once `stop` is set (a host
    /// shutting down); unset, it plays exactly as [`BotSpec::build`]'s.
    pub fn build_stoppable(&self, seed: u64, stop: Option<Stop>) -> Box<dyn Bot> {
        match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Heuristic => Box::new(HeuristicBot::new()),
            BotSpec::Search { name, config } => {
                let mut bot = IsMctsBot::with_config(*config, seed);
                bot.set_name(name);
                if let Some(stop) = stop {
                    bot.set_stop(stop);
                }
                Box::new(bot)
            }
        }
    }
}

/// A signal that ends searches early: shared by a host and the bots it
/// builds, set once (when the host stops), and read by each search between
/// two iterations, so that a stopped search returns within one iteration.
#[derive(Clone, Debug, Default)]
pub struct Stop(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Ends every search reading this signal, now and from now on.
    pub fn set(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn is_set(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The level's search with the budget written after `@` (milliseconds, or
/// iterations and no time cap) on `threads` threads; `None` for a budget
/// that is not one.
fn search_config(
    level: Level,
    budget: Option<&str>,
    threads: Option<usize>,
) -> Option<ismcts::Config> {
    let mut config = level.config();
    if let Some(budget) = budget {
        if let Some(ms) = budget.strip_suffix("ms") {
            config.time = Some(std::time::Duration::from_millis(ms.parse().ok()?));
            config.iterations = u32::MAX;
        } else {
            config.iterations = budget.parse().ok().filter(|&n| n > 0)?;
            config.time = None;
        }
    }
    config.threads = threads.unwrap_or(1);
    Some(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names with budgets: iterations or milliseconds after `@`, on search
    /// bots only.
    #[test]
    fn bot_names_take_budgets() {
        for name in [
            "random",
            "heuristic",
            "ismcts",
            "ismcts-easy",
            "ismcts@100",
            "ismcts-hard@250ms",
            "ismcts-hard@250ms/2",
            "ismcts-expert/2",
        ] {
            let bot = bot_by_name(name, 1).unwrap_or_else(|| panic!("{name}"));
            if name.contains('@') || name.contains('/') {
                assert_eq!(bot.name(), name);
            }
        }
        for bad in [
            "random@5",
            "heuristic@10ms",
            "ismcts@",
            "ismcts@0",
            "ismcts@fastms",
            "ismcts-wise",
            "ismcts/0",
            "ismcts@100/x",
            "random/2",
        ] {
            assert!(bot_by_name(bad, 1).is_none(), "{bad}");
        }
    }

    /// Only expert stops at a time cap, so that it answers within a second;
    /// an iteration budget after `@` is reproducible, with no cap.
    #[test]
    fn only_expert_is_capped_in_time() {
        for level in Level::ALL {
            let capped = level.config().time;
            if level == Level::Expert {
                assert_eq!(capped, Some(ismcts::EXPERT_TIME_CAP));
                assert!(ismcts::EXPERT_TIME_CAP < std::time::Duration::from_secs(1));
            } else {
                assert_eq!(capped, None, "{}", level.name());
            }
        }
        let uncapped = search_config(Level::Expert, Some("12000"), None).unwrap();
        assert_eq!((uncapped.iterations, uncapped.time), (12_000, None));
        let timed = search_config(Level::Expert, Some("250ms"), Some(2)).unwrap();
        assert_eq!(
            (timed.time, timed.threads),
            (Some(std::time::Duration::from_millis(250)), 2)
        );
    }

    /// A stop signal left unset changes no search; set, the search ends
    /// before its first iteration and the bot still answers legally.
    #[test]
    fn a_stop_ends_a_search_and_an_unset_one_changes_nothing() {
        let rules = Rules::classic();
        let states = search_positions(&rules, 4, 3);
        let config = ismcts::Config {
            iterations: 200,
            ..Level::Easy.config()
        };
        let stop = Stop::new();
        let mut plain = IsMctsBot::with_config(config, 9);
        let mut stoppable = IsMctsBot::with_config(config, 9);
        stoppable.set_stop(stop.clone());
        for state in &states {
            let legal = state.legal_actions();
            let decision = Decision::new(state, &legal);
            assert_eq!(plain.choose(&decision), stoppable.choose(&decision));
            assert_eq!(plain.root_stats(), stoppable.root_stats());
        }
        stop.set();
        let state = states.iter().find(|s| s.legal_actions().len() > 1).unwrap();
        let legal = state.legal_actions();
        let action = stoppable.choose(&Decision::new(state, &legal));
        assert!(legal.contains(&action));
        assert_eq!(stoppable.last_iterations(), 0);
    }
}
