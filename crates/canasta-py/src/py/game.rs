//! `canasta.Game`: one game for Python, OpenSpiel and PettingZoo.

use super::{config_of, rules_of, to_py, value_error};
use crate::encoding::{NUM_ACTIONS, Step};
use crate::episode::{Episode, Mover};
use crate::tensor::Layout;
use canasta_core::Seat;
use canasta_core::{Action, Rng};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// OpenSpiel's player ids for chance and for a finished game.
pub const CHANCE: i64 = -1;
pub const TERMINAL: i64 = -4;

/// One game of Canasta (or one hand, with `episode="hand"`).
///
/// Decisions are taken either whole, in the record notation
/// (`game.apply("meld 7S 7H 7D")`), or in steps of the flat action space
/// (`game.step(id)`; `game.legal_actions()` lists the legal ids): a
/// compound action is spelled card by card and played when complete.
#[pyclass(module = "canasta")]
#[derive(Clone)]
pub struct Game {
    pub(crate) episode: Episode,
}

impl Game {
    pub(crate) fn new_from(episode: Episode) -> Game {
        Game { episode }
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (variant="classic", players=None, options=None, *, seed=0, index=0, episode="game", reward="win", max_hands=500, record=true, explicit_chance=false))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        variant: &str,
        players: Option<u8>,
        options: Option<&Bound<'_, PyDict>>,
        seed: u64,
        index: u64,
        episode: &str,
        reward: &str,
        max_hands: u32,
        record: bool,
        explicit_chance: bool,
    ) -> PyResult<Game> {
        let rules = rules_of(variant, players, options)?;
        let mut config = config_of(episode, reward, max_hands, record)?;
        config.explicit_chance = explicit_chance;
        Ok(Game::new_from(Episode::new(rules, config, seed, index)))
    }

    /// A game read from a record (JSON Lines, one game), checked as
    /// `canasta check` checks it; play goes on from where it stops.
    #[staticmethod]
    #[pyo3(signature = (text, *, seed=None, episode="game", reward="win", max_hands=500, explicit_chance=false))]
    fn from_record(
        text: &str,
        seed: Option<u64>,
        episode: &str,
        reward: &str,
        max_hands: u32,
        explicit_chance: bool,
    ) -> PyResult<Game> {
        let mut config = config_of(episode, reward, max_hands, true)?;
        config.explicit_chance = explicit_chance;
        Episode::from_record(text, config, seed)
            .map(Game::new_from)
            .map_err(value_error)
    }

    /// The game as the bot protocol shows it to one seat: the header (the
    /// record's first line), a `decision` message's observation and legal
    /// list (dicts or JSON text). Cards the seat cannot see are dealt at
    /// random, consistently with what it knows (a `seed` picks them); the
    /// legal ids spell exactly the host's legal actions.
    #[staticmethod]
    #[pyo3(signature = (header, observation, legal, *, seed=0))]
    fn from_observation(
        header: &Bound<'_, PyAny>,
        observation: &Bound<'_, PyAny>,
        legal: Vec<String>,
        seed: u64,
    ) -> PyResult<Game> {
        let header = json_arg(header)?;
        let header: canasta_core::record::Header =
            serde_json::from_value(header).map_err(|e| value_error(format!("bad header: {e}")))?;
        let rules = header.rules().map_err(value_error)?;
        let obs = canasta_ai::protocol::parse_observation(&json_arg(observation)?)
            .map_err(value_error)?;
        obs.validate(&rules).map_err(value_error)?;
        let legal = canasta_ai::protocol::parse_legal(&legal).map_err(value_error)?;
        if legal.is_empty() {
            return Err(value_error("the legal list is empty"));
        }
        let state = canasta_core::GameState::from_observation(&obs, &rules, &mut Rng::new(seed));
        Ok(Game::new_from(Episode::at_decision(state, &legal)))
    }

    #[getter]
    fn variant(&self) -> String {
        self.episode.rules().game.variant.to_string()
    }

    #[getter]
    fn players(&self) -> usize {
        self.episode.players()
    }

    /// The seat to act; -1 at a chance node, -4 when the episode is over
    /// (OpenSpiel's numbers).
    #[getter]
    fn current_player(&self) -> i64 {
        match self.episode.mover() {
            Mover::Chance => CHANCE,
            Mover::Terminal => TERMINAL,
            Mover::Seat(s) => s as i64,
        }
    }

    fn is_terminal(&self) -> bool {
        self.episode.is_terminal()
    }

    fn is_chance_node(&self) -> bool {
        self.episode.mover() == Mover::Chance
    }

    /// `deal`, `draw`, `play`, `answer`, `hand_over` or `game_over` (the
    /// bot protocol's words).
    #[getter]
    fn phase(&self) -> String {
        serde_json::to_value(self.episode.state().phase())
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    #[getter]
    fn dealer(&self) -> usize {
        self.episode.dealer()
    }

    /// Cumulative scores by team (by seat where partnerships are temporary).
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.episode.state().scores().to_vec()
    }

    #[getter]
    fn hands_played(&self) -> u32 {
        self.episode.state().hands_played()
    }

    /// Whole actions played so far.
    #[getter]
    fn decisions(&self) -> u64 {
        self.episode.decisions()
    }

    /// The legal action ids (ascending; empty at chance and at the end).
    fn legal_actions(&self) -> Vec<usize> {
        self.episode
            .legal_ids()
            .into_iter()
            .map(usize::from)
            .collect()
    }

    /// The legal ids as a mask of `NUM_ACTIONS` booleans.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; NUM_ACTIONS];
        self.episode.write_mask(&mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// The whole actions open now, in the record notation (the generator's
    /// list, each spelled by the legal ids in steps).
    fn legal_action_texts(&self) -> Vec<String> {
        self.episode
            .legal_actions()
            .iter()
            .map(|a| a.to_string())
            .collect()
    }

    /// The ids spelled so far in this decision.
    fn spelled(&self) -> Vec<usize> {
        if self.episode.mover() == Mover::Chance || self.episode.is_terminal() {
            return Vec::new();
        }
        self.episode
            .speller()
            .prefix()
            .iter()
            .map(|&i| usize::from(i))
            .collect()
    }

    /// Takes one step (an action id); returns the whole action in the
    /// record notation when the step completes one, else None.
    fn step(&mut self, action: i64) -> PyResult<Option<String>> {
        let id = usize::try_from(action).unwrap_or(usize::MAX);
        self.episode
            .step(id)
            .map(|done| done.map(|a| a.to_string()))
            .map_err(value_error)
    }

    /// Plays a whole action written in the record notation, judged by the
    /// engine: any legal action, not only the generated ones.
    fn apply(&mut self, action: &str) -> PyResult<()> {
        let a: Action = action
            .parse()
            .map_err(|e| value_error(format!("cannot read action `{action}`: {e}")))?;
        self.episode.apply_action(a).map_err(value_error)
    }

    /// `(outcome, probability)` pairs at a chance node: seats for the first
    /// dealer (and first player where drawn), faces 0..52 for the cards of
    /// the deck from the top.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.episode.chance_outcomes()
    }

    /// What the chance node draws: "dealer" (the first dealer), "card" (the
    /// next card of the deck) or "first" (the first player); None elsewhere.
    #[getter]
    fn chance_kind(&self) -> Option<&'static str> {
        self.episode.chance_kind()
    }

    /// Cards in the deck of this form (chance deals them one by one).
    #[getter]
    fn deck_size(&self) -> usize {
        self.episode.rules().deal.deck_size()
    }

    fn apply_chance(&mut self, outcome: usize) -> PyResult<()> {
        self.episode.apply_chance(outcome).map_err(value_error)
    }

    /// Returns by seat (zero until the end): `win` +1 for a lone winning
    /// side, zero-sum; `points` each side's score less the mean, in
    /// thousands.
    fn returns(&self) -> Vec<f64> {
        self.episode.returns().to_vec()
    }

    /// The observation tensor of `seat` (default: the seat to act).
    #[pyo3(signature = (seat=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat_or_current(seat)?;
        let arr = PyArray1::<f32>::zeros(py, self.episode.layout().size(), false);
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut().map_err(value_error)?;
            self.episode.observe_into(seat, out);
        }
        Ok(arr)
    }

    /// Length of the observation tensor.
    #[getter]
    fn observation_size(&self) -> usize {
        self.episode.layout().size()
    }

    /// The tensor's fields: `(name, offset, length, meaning)`.
    fn observation_fields(&self) -> Vec<(String, usize, usize, String)> {
        observation_fields(self.episode.layout())
    }

    /// What `seat` may know, as the bot protocol's JSON observation.
    #[pyo3(signature = (seat=None))]
    fn observation_json<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat_or_current(seat)?;
        let obs = self.episode.state().observe(Seat::new(seat));
        to_py(py, &serde_json::to_value(&obs).map_err(value_error)?)
    }

    /// The cards of `seat`'s hand (the whole state: for analysis and
    /// tests, not for agents that must not peek).
    fn hand(&self, seat: usize) -> PyResult<Vec<String>> {
        if seat >= self.episode.players() {
            return Err(value_error(format!("seat {seat} is not a seat")));
        }
        Ok(self
            .episode
            .state()
            .hand(Seat::new(seat))
            .iter()
            .map(|c| c.to_string())
            .collect())
    }

    /// The game record so far (JSON Lines, the spec's format).
    fn record(&self) -> String {
        let mut text = self.episode.record_lines().join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text
    }

    /// The same game with the cards `seat` cannot see dealt anew,
    /// consistently with all it knows (the engine's determinizer).
    fn resample(&self, seat: usize, seed: u64) -> PyResult<Game> {
        if seat >= self.episode.players() {
            return Err(value_error(format!("seat {seat} is not a seat")));
        }
        Ok(Game::new_from(
            self.episode.resample(seat, &mut Rng::new(seed)),
        ))
    }

    /// The game as text, exactly (see [`Game::from_serial`]): its record
    /// and what the record cannot say (the episode's settings, the random
    /// stream's position, a deal or an action under way). What `pickle`
    /// stores; a game that keeps no record cannot be saved.
    fn serial(&self) -> PyResult<String> {
        self.episode.to_serial().map_err(value_error)
    }

    /// The game [`Game::serial`] wrote: the same state, legal ids,
    /// observations, record and later deals. The record is checked as
    /// `canasta check` checks one.
    #[staticmethod]
    fn from_serial(text: &str) -> PyResult<Game> {
        Episode::from_serial(text)
            .map(Game::new_from)
            .map_err(value_error)
    }

    /// Pickling: `Game.from_serial(game.serial())`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let text = slf.borrow().serial()?;
        let restore = slf.get_type().getattr("from_serial")?;
        Ok((restore, (text,)))
    }

    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }

    /// The position in words.
    fn describe(&self) -> String {
        self.episode.state().describe()
    }

    /// The rules in force, every field.
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &serde_json::to_value(self.episode.rules()).map_err(value_error)?,
        )
    }

    fn __str__(&self) -> String {
        self.describe()
    }

    fn __repr__(&self) -> String {
        format!(
            "<canasta.Game {} players={} hands_played={} current_player={}>",
            &self.episode.rules().game.variant,
            self.episode.players(),
            self.episode.state().hands_played(),
            self.current_player()
        )
    }

    /// The name of an action id.
    #[staticmethod]
    fn action_name(id: usize) -> PyResult<String> {
        Step::of_id(id)
            .map(|s| s.to_string())
            .ok_or_else(|| value_error(format!("{id} is not an action id")))
    }
}

impl Game {
    fn seat_or_current(&self, seat: Option<usize>) -> PyResult<usize> {
        match seat {
            Some(s) if s < self.episode.players() => Ok(s),
            Some(s) => Err(value_error(format!("seat {s} is not a seat"))),
            None => match self.episode.mover() {
                Mover::Seat(s) => Ok(s),
                _ => Err(value_error("nobody is to act; name the seat")),
            },
        }
    }
}

/// A dict, or JSON text of one.
fn json_arg(v: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    match v.extract::<String>() {
        Ok(text) => serde_json::from_str(&text).map_err(|e| value_error(format!("not JSON: {e}"))),
        Err(_) => super::to_json(v),
    }
}

pub(crate) fn observation_fields(layout: Layout) -> Vec<(String, usize, usize, String)> {
    layout
        .fields()
        .into_iter()
        .map(|f| (f.name, f.offset, f.len, f.meaning.to_string()))
        .collect()
}
