//! A hint for the player to act: what the strongest bot would play, and
//! why in one line a player can weigh. The terminal and the browser give
//! the same hint.

use crate::heuristic::{self, View};
use crate::{Bot, Decision, IsMctsBot, Level};
use canasta_core::{Action, GameState};
use std::time::Duration;

/// How long a hint may think by default: long enough for the expert
/// search to settle, short enough not to keep a player waiting.
pub const HINT_TIME: Duration = Duration::from_millis(900);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub action: Action,
    /// One line: the search's figures for the action and its runner-up,
    /// and whether the rules of thumb (the heuristic bot) agree.
    pub why: String,
}

/// The hint for the seat to act in `state` (`None` when nobody is to act):
/// IS-MCTS at the expert level thinking at most `time`, reading only that
/// seat's observation like every bot. `seed` makes it repeatable.
pub fn hint(state: &GameState, time: Duration, seed: u64) -> Option<Hint> {
    let legal = state.legal_actions();
    match legal.len() {
        0 => return None,
        1 => {
            return Some(Hint {
                action: legal[0],
                why: "it is the only legal action".into(),
            });
        }
        _ => {}
    }
    let mut config = Level::Expert.config();
    config.time = Some(time);
    let mut bot = IsMctsBot::with_config(config, seed ^ state.state_id());
    let decision = Decision::new(state, &legal);
    let action = bot.choose(&decision);
    let stats = bot.root_stats();
    let total: u32 = stats.iter().map(|s| s.visits).sum::<u32>().max(1);
    let share = |v: u32| 100.0 * f64::from(v) / f64::from(total);
    let find = |key: Action| legal.iter().copied().find(|a| a.class_key() == key);
    let mut why = String::new();
    if let Some(best) = stats.first() {
        why.push_str(&format!(
            "{:.0}% of {} playouts chose it, mean outcome {:.2} (0.50 is even)",
            share(best.visits),
            bot.last_iterations(),
            best.mean_reward
        ));
    }
    if let Some(second) = stats.get(1)
        && let Some(other) = find(second.key)
    {
        why.push_str(&format!(
            "; runner-up `{other}`: {:.0}%, {:.2}",
            share(second.visits),
            second.mean_reward
        ));
    }
    let obs = decision.observation();
    let thumb = heuristic::best(&View::from_observation(&obs, state.rules()), &legal);
    if thumb.class_key() == action.class_key() {
        why.push_str("; rules of thumb agree");
    } else {
        why.push_str(&format!("; rules of thumb say `{thumb}`"));
    }
    Some(Hint { action, why })
}

#[cfg(test)]
mod tests {
    use super::*;
    use canasta_core::{Rng, Rules};

    #[test]
    fn a_hint_is_legal_and_says_why() {
        let mut state = GameState::new(Rules::classic());
        state.deal_random(&mut Rng::new(3), 0);
        let h = hint(&state, Duration::from_millis(50), 1).unwrap();
        assert!(state.legal_actions().contains(&h.action));
        // The draw phase offers one action unless the pile can be taken.
        if state.legal_actions().len() == 1 {
            assert_eq!(h.why, "it is the only legal action");
        } else {
            assert!(h.why.contains("playouts chose it"), "{}", h.why);
            assert!(h.why.contains("rules of thumb"), "{}", h.why);
        }
        // Past the draw there are choices.
        state.apply("draw".parse().unwrap()).unwrap();
        let h = hint(&state, Duration::from_millis(50), 1).unwrap();
        assert!(state.legal_actions().contains(&h.action));
        assert!(h.why.contains("playouts chose it"), "{}", h.why);
    }
}
