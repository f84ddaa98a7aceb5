//! Setting up a game from the command line and playing it between bots.
//!
//! One game draws all its randomness from one [`Rng`] stream, in this
//! order: one seed per seat for the bots (seat 0 first), the first dealer
//! (`below(players)`), then one shuffled deck per hand. The dealer rotates
//! clockwise after every hand.

use crate::GameArgs;
use crate::external::{check_seat_name, seat_bot};
use crate::text::excerpt;
use anyhow::{Context, bail};
use canasta_ai::{Bot, Decision};
use canasta_core::{
    Action, ActionList, Card, DealOutcome, GameState, HandResult, Phase, Rng, Rules, shuffled_deck,
};
use canasta_core::{Seat, Team};
use serde_json::{Map, Value};

/// A hand that has not ended after this many decisions is a runaway.
pub const MAX_ACTIONS_PER_HAND: u64 = 100_000;

/// Rules and one bot name per seat.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub bots: Vec<String>,
    /// Games still short of the target after this many hands stop unfinished.
    pub max_hands: u32,
}

/// Parses `key=value` options: the value as JSON, else as a string.
pub fn parse_options(items: &[String]) -> anyhow::Result<Map<String, Value>> {
    let mut map = Map::new();
    for item in items {
        let Some((key, value)) = item.split_once('=') else {
            bail!(
                "option `{}` must be written KEY=VALUE (for example -o target=3000)",
                excerpt(item)
            );
        };
        let key = key.trim();
        if key.is_empty() {
            bail!("option `{}` has no name before its `=`", excerpt(item));
        }
        let value =
            serde_json::from_str(value.trim()).unwrap_or_else(|_| Value::String(value.to_string()));
        map.insert(key.to_string(), value);
    }
    Ok(map)
}

/// The rules of `variant` for `players` with the `-o KEY=VALUE` options.
///
/// # Errors
/// An unknown variant or player count, an option that is not written
/// KEY=VALUE, or one the variant does not have or that has a wrong value:
/// each error names the option.
pub fn rules_from(variant: &str, players: Option<u8>, items: &[String]) -> anyhow::Result<Rules> {
    let options = parse_options(items)?;
    // A value of the wrong kind is named against the option's default, in
    // words (the engine's reader would say `expected i32`).
    if let Ok(preset) = Rules::preset(variant, players, None)
        && let Ok(Value::Object(defaults)) = serde_json::to_value(&preset)
    {
        for (key, value) in &options {
            let wanted = match defaults.get(key) {
                Some(Value::Bool(_)) if !value.is_boolean() => "true or false",
                Some(Value::Number(_)) if !(value.is_i64() || value.is_u64()) => "a whole number",
                _ => continue,
            };
            bail!(
                "option `{key}` takes {wanted}, not {} (`canasta variants {variant}` lists the options)",
                match value {
                    Value::String(text) => format!("\"{}\"", excerpt(text)),
                    other => excerpt(&other.to_string()),
                }
            );
        }
    }
    Rules::from_header(variant, players, &options)
        .map_err(|e| anyhow::anyhow!("{}", plain_rules_error(&e.to_string())))
        .context("cannot set up the rules (see `canasta variants`)")
}

/// The engine's message with the reader's type names (`expected u8`) and
/// lists (`[2, 3, 4, 6]`) in words.
fn plain_rules_error(message: &str) -> String {
    let mut text = message
        .strip_prefix("invalid rules: ")
        .unwrap_or(message)
        .to_string();
    // `is for [2, 3, 4, 6] players` (a list as the engine prints it).
    if let Some(start) = text.find("is for [")
        && let Some(len) = text[start..].find("] players")
    {
        let list: Vec<&str> = text[start + 8..start + len].split(", ").collect();
        let words = match list.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => list.join(""),
        };
        text.replace_range(start..start + len + 1, &format!("is for {words}"));
    }
    for (name, words) in [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0"),
        ("u64", "a whole number from 0"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
    ] {
        text = text.replace(&format!("expected {name}"), &format!("expected {words}"));
    }
    text
}

impl Setup {
    /// The rules and bots the arguments name.
    pub fn from_args(args: &GameArgs) -> anyhow::Result<Setup> {
        let rules = rules_from(&args.variant, args.players, &args.options)?;
        let n = rules.game.players as usize;
        let bots = match args.bots.len() {
            0 => vec!["random".to_string(); n],
            1 => vec![args.bots[0].clone(); n],
            k if k == n => args.bots.clone(),
            k => bail!("--bots names {k} bots; give one for every seat ({n}) or one for all"),
        };
        for name in &bots {
            check_seat_name(name).map_err(anyhow::Error::msg)?;
        }
        Ok(Setup {
            rules,
            bots,
            max_hands: args.max_hands.max(1),
        })
    }
}

/// What a caller wants to see of a game as it is played.
pub trait Observer {
    /// A hand was dealt from `deck` (index 0 is the top).
    fn deal(&mut self, _state: &GameState, _deck: &[Card], _dealer: Seat) {}
    /// Whether [`Observer::decided`] is wanted: reading the clock twice a
    /// decision costs a random bot's game about a tenth of its time.
    fn times_decisions(&self) -> bool {
        false
    }
    /// `seat` took `took` to choose among more than one legal action.
    fn decided(&mut self, _seat: Seat, _took: std::time::Duration) {}
    /// `seat` is about to play `action` in `state`.
    fn before_action(&mut self, _state: &GameState, _seat: Seat, _action: &Action) {}
    /// `seat` played `action`; `state` is the result.
    fn action(&mut self, _state: &GameState, _seat: Seat, _action: &Action) {}
    /// A hand ended with `result`.
    fn hand_end(&mut self, _state: &GameState, _result: &HandResult) {}
    /// The game ended.
    fn game_end(&mut self, _state: &GameState) {}
}

/// A seed from the clock, for runs that are not given one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// How a game ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// False when the game stopped at `Setup::max_hands` short of the target.
    pub finished: bool,
    pub hands: u32,
    pub actions: u64,
    /// The winning team, `None` for a tie.
    pub winner: Option<usize>,
    pub totals: Vec<i32>,
}

/// Plays game number `index` of the run seeded `seed` to its end.
///
/// # Errors
/// A runaway game or hand, a position without a legal action, or a bot
/// choosing something outside the legal list (each one an engine or bot bug).
pub fn play_game(
    setup: &Setup,
    seed: u64,
    index: u64,
    obs: &mut impl Observer,
) -> Result<Outcome, String> {
    let rules = &setup.rules;
    let n = rules.game.players as usize;
    let mut rng = Rng::stream(seed, index);
    let seeds: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    let mut bots: Vec<Box<dyn Bot>> = setup
        .bots
        .iter()
        .zip(&seeds)
        .enumerate()
        .map(|(seat, (name, &seed))| seat_bot(name, rules, seat, seed))
        .collect::<Result<_, _>>()?;
    let mut dealer = Seat::new(rng.below(n));
    let mut state = GameState::new(rules.clone());
    let mut legal = ActionList::new();
    let mut actions = 0u64;
    while !state.is_over() {
        if state.hands_played() >= setup.max_hands {
            return Ok(Outcome {
                finished: false,
                hands: state.hands_played(),
                actions,
                winner: None,
                totals: state.scores().to_vec(),
            });
        }
        // A deal the rules void (Canastone) is recorded, and the same dealer
        // deals again.
        loop {
            let deck = shuffled_deck(rules, &mut rng);
            // Canastia: the first player is drawn at random.
            let first = rules
                .deal
                .random_first_player
                .then(|| Seat::new(rng.below(n)));
            let outcome = state
                .deal_with_first(&deck, dealer, first)
                .map_err(|e| format!("the engine refused its own deck: {e}"))?;
            obs.deal(&state, &deck, dealer);
            if outcome == DealOutcome::Dealt {
                break;
            }
        }
        let mut in_hand = 0u64;
        while matches!(state.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            state.legal_actions_into(&mut legal);
            let seat = state.to_act();
            if legal.is_empty() {
                return Err(format!(
                    "no legal action for seat {seat}:\n{}",
                    state.describe()
                ));
            }
            let asked = (legal.len() > 1 && obs.times_decisions()).then(std::time::Instant::now);
            let action = bots[seat]
                .try_choose(&Decision::new(&state, &legal))
                .map_err(|e| format!("seat {seat}: {e}"))?;
            if let Some(asked) = asked {
                obs.decided(seat, asked.elapsed());
            }
            if !legal.contains(&action) {
                return Err(format!(
                    "bot `{}` at seat {seat} chose `{action}`, which is not in the legal list",
                    bots[seat].name()
                ));
            }
            obs.before_action(&state, seat, &action);
            state.apply_unchecked(action);
            obs.action(&state, seat, &action);
            actions += 1;
            in_hand += 1;
            if in_hand >= MAX_ACTIONS_PER_HAND {
                return Err(format!(
                    "hand {} did not end within {MAX_ACTIONS_PER_HAND} actions",
                    state.hands_played() + 1
                ));
            }
        }
        let result = state
            .last_hand()
            .ok_or("a hand ended without a result")?
            .clone();
        obs.hand_end(&state, &result);
        dealer = dealer.after(1, n);
    }
    obs.game_end(&state);
    Ok(Outcome {
        finished: true,
        hands: state.hands_played(),
        actions,
        winner: state.winner().flatten().map(Team::index),
        totals: state.scores().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_errors_read_in_words() {
        assert_eq!(
            plain_rules_error(
                "invalid rules: variant `classic` is for [2, 3, 4, 6] players, not 9"
            ),
            "variant `classic` is for 2, 3, 4 or 6 players, not 9"
        );
        assert_eq!(
            plain_rules_error("variant `pennies` is for [6] players, not 4"),
            "variant `pennies` is for 6 players, not 4"
        );
        assert_eq!(
            plain_rules_error("option `hand_size`: invalid value: integer `500`, expected u8"),
            "option `hand_size`: invalid value: integer `500`, expected a whole number from 0 to 255"
        );
    }

    #[test]
    fn a_wrong_kind_of_value_names_the_option() {
        let e = rules_from("classic", None, &["target=abc".into()]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("option `target` takes a whole number, not \"abc\""),
            "{e}"
        );
        let e = rules_from("classic", None, &["black_three_freezes=1".into()]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("option `black_three_freezes` takes true or false, not 1"),
            "{e}"
        );
        assert!(rules_from("classic", None, &["target=3000".into()]).is_ok());
    }
}
