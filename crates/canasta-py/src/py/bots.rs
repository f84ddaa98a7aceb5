//! `canasta.Bot`: the engine's bots (random, heuristic, IS-MCTS) for Python.

use super::game::Game;
use super::value_error;
use crate::encoding;
use crate::episode::Mover;
use canasta_ai::{BOT_NAMES, Decision};
use pyo3::prelude::*;
use std::sync::Mutex;

/// One of the engine's bots: `random`, `heuristic`, `ismcts` or
/// `ismcts-easy|medium|hard|expert`, with an optional budget
/// (`ismcts@500` iterations, `ismcts-hard@200ms`). The IS-MCTS bots search
/// on deals of the cards the seat cannot see: they never peek.
#[pyclass(module = "canasta")]
pub struct Bot {
    bot: Mutex<Box<dyn canasta_ai::Bot>>,
    name: String,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name="random", seed=0))]
    fn py_new(name: &str, seed: u64) -> PyResult<Bot> {
        let bot = canasta_ai::bot_by_name(name, seed).ok_or_else(|| {
            value_error(format!(
                "unknown bot `{name}`: one of {} (IS-MCTS with a budget: ismcts@500, ismcts-hard@200ms)",
                BOT_NAMES.join(", ")
            ))
        })?;
        Ok(Bot {
            name: bot.name().to_string(),
            bot: Mutex::new(bot),
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The bot's action for the seat to act, in the record notation.
    /// The GIL is released while it thinks.
    fn choose(&self, py: Python<'_>, game: &Game) -> PyResult<String> {
        let ep = &game.episode;
        if !matches!(ep.mover(), Mover::Seat(_)) {
            return Err(value_error("nobody is to act (a chance node or the end)"));
        }
        if !ep.speller().prefix().is_empty() {
            return Err(value_error(
                "an action is half spelled; a bot chooses whole actions only before the first step",
            ));
        }
        let legal = ep.legal_actions().to_vec();
        let state = ep.state().clone();
        let bot = &self.bot;
        let action = py.detach(|| {
            let mut bot = bot.lock().expect("a bot's lock is never poisoned");
            bot.try_choose(&Decision::new(&state, &legal))
        });
        action.map(|a| a.to_string()).map_err(value_error)
    }

    /// The bot's action spelled as action ids, ending with `end` where the
    /// action could also go on (`meld 3S 3S 3C` where `meld 3S 3S 3C 3C`
    /// is legal too): stepping them all completes the action.
    fn choose_ids(&self, py: Python<'_>, game: &Game) -> PyResult<Vec<usize>> {
        let text = self.choose(py, game)?;
        let action: canasta_core::Action = text.parse().map_err(value_error)?;
        let mut out = Vec::new();
        encoding::spell(&action, &mut out);
        let mut speller = game.episode.speller().clone();
        let mut done = None;
        for &id in &out {
            done = speller.step(usize::from(id)).map_err(value_error)?;
        }
        if done.is_none() {
            out.push(encoding::END);
        }
        Ok(out.into_iter().map(usize::from).collect())
    }

    /// Chooses and plays the action in `game`; returns it.
    fn play(&self, py: Python<'_>, game: &mut Game) -> PyResult<String> {
        let text = self.choose(py, game)?;
        let action: canasta_core::Action = text.parse().map_err(value_error)?;
        game.episode.apply_action(action).map_err(value_error)?;
        Ok(text)
    }

    fn __repr__(&self) -> String {
        format!("<canasta.Bot {}>", self.name)
    }
}
