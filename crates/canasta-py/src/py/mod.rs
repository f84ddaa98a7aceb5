//! The Python module `canasta._canasta`: thin bindings over the plain Rust
//! parts. Errors reach Python as `ValueError` with the engine's words.

mod bots;
mod game;
mod vec_env;

use crate::encoding::{self, NUM_ACTIONS, Step};
use crate::episode::{Config, Length, Reward};
use canasta_core::{PRESETS, Rules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::{Map, Value};

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A Python value (from `options`) as JSON, for the engine's reader.
fn to_json(v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_none() {
        Ok(Value::Null)
    } else if let Ok(b) = v.extract::<bool>() {
        Ok(Value::Bool(b))
    } else if let Ok(i) = v.extract::<i64>() {
        Ok(Value::from(i))
    } else if let Ok(f) = v.extract::<f64>() {
        Ok(Value::from(f))
    } else if let Ok(s) = v.extract::<String>() {
        Ok(Value::String(s))
    } else if let Ok(list) = v.cast::<PyList>() {
        list.iter()
            .map(|x| to_json(&x))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array)
    } else if let Ok(dict) = v.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, x) in dict.iter() {
            map.insert(k.extract::<String>()?, to_json(&x)?);
        }
        Ok(Value::Object(map))
    } else {
        Err(value_error(format!(
            "option value {} is not a bool, number, string, list or dict",
            v.repr()?
        )))
    }
}

/// JSON as a Python value.
fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(0.0).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => {
            let dict = PyDict::new(py);
            for (k, x) in m {
                dict.set_item(k, to_py(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// The rules a variant, player count and options name.
pub(crate) fn rules_of(
    variant: &str,
    players: Option<u8>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Rules> {
    let mut map = Map::new();
    if let Some(options) = options {
        for (k, v) in options.iter() {
            map.insert(k.extract::<String>()?, to_json(&v)?);
        }
    }
    Rules::from_header(variant, players, &map).map_err(|e| {
        value_error(format!(
            "{e} (canasta.variants() lists the variants, canasta.options(variant) their options)"
        ))
    })
}

pub(crate) fn config_of(
    episode: &str,
    reward: &str,
    max_hands: u32,
    record: bool,
) -> PyResult<Config> {
    let length = match episode {
        "game" => Length::Game,
        "hand" => Length::Hand,
        other => {
            return Err(value_error(format!(
                "episode must be \"game\" or \"hand\", not {other:?}"
            )));
        }
    };
    let reward = match reward {
        "win" => Reward::Win,
        "points" => Reward::Points,
        other => {
            return Err(value_error(format!(
                "reward must be \"win\" or \"points\", not {other:?}"
            )));
        }
    };
    if max_hands == 0 {
        return Err(value_error("max_hands must be at least 1"));
    }
    Ok(Config {
        length,
        reward,
        max_hands,
        record,
        explicit_chance: false,
    })
}

/// Every preset: id, player counts, default players, summary.
#[pyfunction]
fn variants(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for p in PRESETS {
        let d = PyDict::new(py);
        d.set_item("id", p.id)?;
        // As numbers (a Vec<u8> would reach Python as bytes).
        let players: Vec<u32> = p.players.iter().map(|&n| u32::from(n)).collect();
        d.set_item("players", players)?;
        d.set_item("default_players", p.default_players)?;
        d.set_item("summary", p.summary)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The options of a variant (every rule field) with their values for that
/// player count: pass any of them, changed, as `options=`.
#[pyfunction]
#[pyo3(signature = (variant, players=None))]
fn options<'py>(
    py: Python<'py>,
    variant: &str,
    players: Option<u8>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules_of(variant, players, None)?;
    let value = serde_json::to_value(&rules).map_err(value_error)?;
    to_py(py, &value)
}

/// The name of an action id (`draw`, `card 7S`, `add 3 7S`, ...).
#[pyfunction]
fn action_name(id: usize) -> PyResult<String> {
    Step::of_id(id).map(|s| s.to_string()).ok_or_else(|| {
        value_error(format!(
            "{id} is not an action id (0 to {})",
            NUM_ACTIONS - 1
        ))
    })
}

/// The id an action name names (the inverse of `action_name`).
#[pyfunction]
fn action_id(name: &str) -> PyResult<usize> {
    encoding::id_of_name(name)
        .map(usize::from)
        .ok_or_else(|| value_error(format!("{name:?} names no action id")))
}

/// The spelling (action ids) of an action in the record notation. Where
/// the action is also the start of a longer legal one, the game needs one
/// more id, `END`, after these (`Bot.choose_ids` adds it).
#[pyfunction]
fn spell(action: &str) -> PyResult<Vec<usize>> {
    let a: canasta_core::Action = action.parse().map_err(value_error)?;
    let mut out = Vec::new();
    encoding::spell(&a, &mut out);
    Ok(out.into_iter().map(usize::from).collect())
}

/// The seeds `canasta sim` and `canasta tournament` give the bots of game
/// `index` of a run seeded `seed`, seat by seat (the first numbers of that
/// game's stream), so that Python seats the same bots on the same deals.
#[pyfunction]
fn seat_seeds(seed: u64, index: u64, players: usize) -> Vec<u64> {
    let mut rng = canasta_core::Rng::stream(seed, index);
    (0..players).map(|_| rng.next_u64()).collect()
}

/// The engine's own speed, for comparison with the Python APIs: plays
/// `steps` uniformly random action ids (as `VecEnv.sample_legal` picks them)
/// in one game after another, all in Rust on one thread with the GIL
/// released, and returns the seconds it took.
#[pyfunction]
#[pyo3(signature = (variant="classic", players=None, steps=1_000_000, seed=0, observe=false))]
fn rust_random_steps(
    py: Python<'_>,
    variant: &str,
    players: Option<u8>,
    steps: u64,
    seed: u64,
    observe: bool,
) -> PyResult<f64> {
    let rules = rules_of(variant, players, None)?;
    let config = config_of("game", "win", 500, false)?;
    Ok(py.detach(|| {
        let start = std::time::Instant::now();
        let mut rng = canasta_core::Rng::new(seed);
        let mut index = 0;
        let mut ep = crate::episode::Episode::new(rules.clone(), config, seed, index);
        let mut obs = vec![0.0f32; ep.layout().size()];
        for _ in 0..steps {
            if ep.is_terminal() {
                index += 1;
                ep = crate::episode::Episode::new(rules.clone(), config, seed, index);
            }
            let ids = ep.speller().legal();
            let id = ids[rng.below(ids.len())];
            ep.step(usize::from(id)).expect("a legal id");
            if observe && let crate::episode::Mover::Seat(s) = ep.mover() {
                ep.observe_into(s, &mut obs);
            }
        }
        start.elapsed().as_secs_f64()
    }))
}

#[pymodule]
fn _canasta(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("NUM_FACES", encoding::FACES)?;
    m.add("MELD_SLOTS", encoding::MELD_SLOTS)?;
    for (name, id) in [
        ("DRAW", encoding::DRAW),
        ("PICKUP_ONTO", encoding::PICKUP_ONTO),
        ("ASK", encoding::ASK),
        ("YES", encoding::YES),
        ("NO", encoding::NO),
        ("MELD", encoding::MELD),
        ("PICKUP_WITH", encoding::PICKUP_WITH),
        ("NEXT_GROUP", encoding::NEXT_GROUP),
        ("END", encoding::END),
        ("CARD", encoding::CARD),
        ("DISCARD", encoding::DISCARD),
        ("CANASTA", encoding::CANASTA),
        ("ADD", encoding::ADD),
    ] {
        m.add(name, id)?;
    }
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(options, m)?)?;
    m.add_function(wrap_pyfunction!(action_name, m)?)?;
    m.add_function(wrap_pyfunction!(action_id, m)?)?;
    m.add_function(wrap_pyfunction!(spell, m)?)?;
    m.add_function(wrap_pyfunction!(rust_random_steps, m)?)?;
    m.add_function(wrap_pyfunction!(seat_seeds, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_class::<bots::Bot>()?;
    Ok(())
}
