//! `canasta.VecEnv`: many games stepped at once in Rust.

use super::{config_of, rules_of, value_error};
use crate::batch::{Autoreset, Batch, Buffers, Writes};
use crate::encoding::NUM_ACTIONS;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `n` games stepped together in Rust, the GIL released while they run.
///
/// Every step writes, for each game, the observation of the seat to act,
/// its legal-action mask, the rewards (one per seat: the returns on the
/// step that ended a game, else zero), the done flag and the seat to act,
/// into arrays this object owns and reuses: they are returned without
/// copying, so copy what you keep. A game that ends starts the next by
/// itself (game `i + k*n` of the seed's stream, as `canasta sim` numbers
/// them): in the same step (`autoreset="same-step"`, the default: the
/// batch never waits) or in the next, which ignores that game's action
/// (`"next-step"`, gymnasium's default, for `canasta.vector.VecEnv`).
/// `observations=False` or `masks=False` skip writing those arrays (they
/// stay zero): for callers that do not read them.
#[pyclass(module = "canasta")]
pub struct VecEnv {
    batch: Batch,
    /// None for one thread: the caller's thread does the work (handing it
    /// to a pool thread and back costs more than a step).
    pool: Option<rayon::ThreadPool>,
    obs: Py<PyArray2<f32>>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_play: Py<PyArray1<i64>>,
    sampled: Py<PyArray1<i64>>,
}

/// Fewest games a thread gets when the threads are left to the VecEnv.
const GAMES_PER_THREAD: usize = 128;

/// The arrays of a VecEnv, borrowed for writing while Rust works.
macro_rules! with_buffers {
    ($self:ident, $py:ident, |$bufs:ident| $body:expr) => {{
        let obs = $self.obs.bind($py);
        let masks = $self.masks.bind($py);
        let rewards = $self.rewards.bind($py);
        let dones = $self.dones.bind($py);
        let truncated = $self.truncated.bind($py);
        let to_play = $self.to_play.bind($py);
        let (mut o, mut m, mut r, mut d, mut c, mut t) = (
            obs.readwrite(),
            masks.readwrite(),
            rewards.readwrite(),
            dones.readwrite(),
            truncated.readwrite(),
            to_play.readwrite(),
        );
        let $bufs = Buffers {
            obs: o.as_slice_mut().map_err(value_error)?,
            masks: m.as_slice_mut().map_err(value_error)?,
            rewards: r.as_slice_mut().map_err(value_error)?,
            dones: d.as_slice_mut().map_err(value_error)?,
            truncated: c.as_slice_mut().map_err(value_error)?,
            to_play: t.as_slice_mut().map_err(value_error)?,
        };
        $body
    }};
}

/// What `reset` returns: observations and masks.
type Reset<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);
/// What `step` returns: observations, rewards and done flags.
type Stepped<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (n, variant="classic", players=None, options=None, *, seed=0, episode="game", reward="win", max_hands=500, threads=None, autoreset="same-step", observations=true, masks=true))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        py: Python<'_>,
        n: usize,
        variant: &str,
        players: Option<u8>,
        options: Option<&Bound<'_, PyDict>>,
        seed: u64,
        episode: &str,
        reward: &str,
        max_hands: u32,
        threads: Option<usize>,
        autoreset: &str,
        observations: bool,
        masks: bool,
    ) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(value_error("n must be at least 1"));
        }
        let autoreset = match autoreset {
            "same-step" => Autoreset::SameStep,
            "next-step" => Autoreset::NextStep,
            other => {
                return Err(value_error(format!(
                    "autoreset \"{other}\": expected \"same-step\" or \"next-step\""
                )));
            }
        };
        let rules = rules_of(variant, players, options)?;
        let config = config_of(episode, reward, max_hands, false)?;
        // By default one thread per core, but only where each gets enough
        // games to pay for the hand-offs (measured: 64 games run faster on
        // the calling thread alone than split over two).
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let threads = threads.or(Some(cores.min(n / GAMES_PER_THREAD).max(1)));
        let pool = match threads {
            Some(1) => None,
            Some(0) => {
                return Err(value_error(
                    "threads must be at least 1 (None: one per core)",
                ));
            }
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t.unwrap_or(0))
                    .build()
                    .map_err(value_error)?,
            ),
        };
        let mut batch = py.detach(|| Batch::new(n, rules, config, seed));
        batch.set_parallel(pool.is_some());
        batch.set_autoreset(autoreset);
        batch.set_writes(Writes {
            observations,
            masks,
        });
        let (size, players) = (batch.obs_size(), batch.players());
        let env = VecEnv {
            obs: PyArray2::<f32>::zeros(py, [n, size], false).unbind(),
            masks: PyArray2::<bool>::zeros(py, [n, NUM_ACTIONS], false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, players], false).unbind(),
            dones: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            to_play: PyArray1::<i64>::zeros(py, n, false).unbind(),
            sampled: PyArray1::<i64>::zeros(py, n, false).unbind(),
            batch,
            pool,
        };
        env.write_views(py)?;
        Ok(env)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.len()
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.batch.obs_size()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    #[getter]
    fn players(&self) -> usize {
        self.batch.players()
    }

    /// Restarts every game (with a new seed if given); returns the
    /// observations and the masks.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Reset<'py>> {
        let (batch, pool) = (&mut self.batch, self.pool.as_ref());
        with_buffers!(self, py, |bufs| py
            .detach(|| run(pool, || batch.reset(seed, bufs))));
        Ok((self.obs.bind(py).clone(), self.masks.bind(py).clone()))
    }

    /// Steps every game with its action id. Returns `(observations,
    /// rewards, dones)`; masks and seats to act are in `action_masks()` and
    /// `to_play()`. An illegal id anywhere raises ValueError naming the
    /// game, and no game moves.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Stepped<'py>> {
        let actions = actions.as_slice().map_err(value_error)?;
        if actions.len() != self.batch.len() {
            return Err(value_error(format!(
                "step needs one action per game: {} games, {} actions",
                self.batch.len(),
                actions.len()
            )));
        }
        let (batch, pool) = (&mut self.batch, self.pool.as_ref());
        with_buffers!(self, py, |bufs| {
            py.detach(|| run(pool, || batch.step(actions, bufs)))
                .map_err(|e| value_error(format!("game {}: {}", e.episode, e.error)))?
        });
        Ok((
            self.obs.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.dones.bind(py).clone(),
        ))
    }

    /// The legal-action masks, `(n, NUM_ACTIONS)` booleans.
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.masks.bind(py).clone()
    }

    /// The observations of the seats to act, `(n, observation_size)`.
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.bind(py).clone()
    }

    /// Which games the last step ended by cutting them off at `max_hands`
    /// (a whole game short of the target): those `dones` that are
    /// truncations, not game ends.
    fn truncations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }

    /// When a game that ended starts the next: `"same-step"` or
    /// `"next-step"`.
    #[getter]
    fn autoreset(&self) -> &'static str {
        match self.batch.autoreset() {
            Autoreset::SameStep => "same-step",
            Autoreset::NextStep => "next-step",
        }
    }

    /// Every seat's observation of every game, `(n, players,
    /// observation_size)`, a new array each call: for centralised critics
    /// in training (together they show the whole table; a policy must not
    /// read them).
    fn all_observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let (n, p, size) = (
            self.batch.len(),
            self.batch.players(),
            self.batch.obs_size(),
        );
        let arr = PyArray3::<f32>::zeros(py, [n, p, size], false);
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut().map_err(value_error)?;
            let (batch, pool) = (&self.batch, self.pool.as_ref());
            py.detach(|| run(pool, || batch.write_all_observations(out)));
        }
        Ok(arr)
    }

    /// The seat to act in every game (-1 for a game that ended in the last
    /// step and restarts in the next, with `autoreset="next-step"`).
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.to_play.bind(py).clone()
    }

    /// A uniform legal action id for every game, drawn in Rust.
    fn sample_legal<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let arr = self.sampled.bind(py).clone();
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut().map_err(value_error)?;
            let (batch, pool) = (&mut self.batch, self.pool.as_ref());
            py.detach(|| run(pool, || batch.sample_legal(out)));
        }
        Ok(arr)
    }

    /// Game `i` as a `canasta.Game` (a copy, for inspection).
    fn game(&self, i: usize) -> PyResult<super::game::Game> {
        if i >= self.batch.len() {
            return Err(value_error(format!("game {i} of {}", self.batch.len())));
        }
        Ok(super::game::Game::new_from(self.batch.episode(i).clone()))
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }
}

impl VecEnv {
    fn write_views(&self, py: Python<'_>) -> PyResult<()> {
        let (batch, pool) = (&self.batch, self.pool.as_ref());
        let obs = self.obs.bind(py);
        let masks = self.masks.bind(py);
        let to_play = self.to_play.bind(py);
        let (mut o, mut m, mut t) = (obs.readwrite(), masks.readwrite(), to_play.readwrite());
        let (o, m, t) = (
            o.as_slice_mut().map_err(value_error)?,
            m.as_slice_mut().map_err(value_error)?,
            t.as_slice_mut().map_err(value_error)?,
        );
        py.detach(|| run(pool, || batch.write_views(o, m, t)));
        Ok(())
    }
}

/// Runs `f` in the pool, or on this thread when there is none (the batch
/// then steps its games one after another, see `Batch::set_parallel`).
fn run<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}
