"""Many games as one gymnasium vector environment (gymnasium 1.x).

    >>> import numpy as np, canasta.vector
    >>> envs = canasta.vector.VecEnv(8, "classic", players=4, episode="hand", seed=1)
    >>> obs, info = envs.reset(seed=1)
    >>> actions = [envs.single_action_space.sample(mask=m) for m in obs["action_mask"]]
    >>> obs, reward, terminated, truncated, info = envs.step(actions)

The games are stepped in Rust by ``canasta.VecEnv`` (the GIL released);
this class gives them gymnasium's ``VectorEnv`` contract: spaces,
``reset(seed=, options=) -> (obs, info)``, ``step(actions) -> (obs, reward,
terminated, truncated, info)`` and next-step autoreset. See ``VecEnv`` and
docs/python.md.
"""

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "canasta.vector needs gymnasium 1.1 or newer: pip install 'gymnasium>=1.1'"
    ) from e

from . import _canasta
from ._canasta import NUM_ACTIONS

__all__ = ["VecEnv"]

_SEED_LIMIT = 2**64


class VecEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one form as a gymnasium vector environment.

    ``VecEnv(num_envs, variant="classic", players=None, options=None, *,
    seed=None, episode="game", reward="win", max_hands=500, threads=None,
    copy=True, observations=True, masks=True, all_observations=False)``; the
    form, episodes, rewards and threads are those of ``canasta.Game`` and
    ``canasta.VecEnv``.
    ``observations=False`` or ``masks=False`` leave that key out of the
    observations and their space, and the Rust side skips writing it (most
    of a step's memory traffic): for a caller that reads only the masks,
    or draws with ``sample_legal()``. ``all_observations=True`` adds
    ``all_observations``, every seat's tensor (``(players, size)`` a game,
    seat ``s`` at row ``s``, always a fresh array), for centralised critics
    in training: together the rows show every hand, so a policy must not
    read them.

    **Spaces.** A sub-environment observes a ``Dict``: ``observation``, the
    float32 tensor of the seat to play (``Box(-inf, inf, (size,))``, the
    layout of docs/python.md), and ``action_mask``, its legal ids as int8
    zeros and ones (``Box(0, 1, (NUM_ACTIONS,), int8)``, so
    ``single_action_space.sample(mask=obs["action_mask"][i])`` draws a legal
    id). Its action space is ``Discrete(NUM_ACTIONS)``; the batch's are
    gymnasium's batched forms (a ``Dict`` of ``(num_envs, ...)`` boxes and
    ``MultiDiscrete``).

    **Turns.** Every game has several seats and one plays at a time (a
    compound action is spelled over several steps by the same seat). The
    observation and mask of game ``i`` are those of the seat to play,
    ``info["to_play"][i]``; the action given for game ``i`` is that seat's.

    **Rewards.** ``reward[i]`` is the reward of the seat that took the
    step, ``info["acted"][i]``: its return on the step that ends the game,
    zero before. ``info["rewards"]`` (``(num_envs, players)``) holds every
    seat's reward of the step, as pgx's ``rewards``: on the step that ends a
    game it is every seat's return, so a learner playing all seats credits
    each its own, including the seats that did not take the last step.

    **Ends and autoreset** (``metadata["autoreset_mode"]`` is
    ``AutoresetMode.NEXT_STEP``, gymnasium's default). A game played out
    ends with ``terminated``; a whole game stopped after ``max_hands`` hands
    short of the target ends with ``truncated`` instead (its ``reward="win"``
    returns are a tie, zeros). The step that ends game ``i`` returns its
    final observation, that of the seat that acted, with an all-zero mask
    and ``info["to_play"][i] == -1``. The next step ignores that game's
    action and starts its next game (game ``i + k * num_envs`` of the seed's
    stream): it returns the new game's first observation, reward 0,
    ``terminated`` and ``truncated`` False and ``info["acted"][i] == -1``.

    **Seeding.** ``reset(seed=s)`` restarts every game, game ``i`` dealt as
    game ``i`` of ``canasta sim --seed s``; ``reset()`` without a seed draws
    a new seed from the environment's generator (``np_random``, seeded by
    the last ``reset(seed=)`` or by the constructor's ``seed``), so a run
    from a seed is reproducible throughout. ``step()`` before the first
    ``reset()`` raises ``gymnasium.error.ResetNeeded``. A seed is one integer in
    ``0 .. 2**64``: the games of the batch are numbered in one stream.
    ``options`` takes no keys (``None`` or ``{}``).

    **Actions** are one id per game, any integer array or sequence (a list,
    int32, int64, unsigned). An id that is not legal raises ``ValueError``
    naming the game, and then no game moved and nothing returned before is
    changed.

    **Copies.** With ``copy=True`` (the default, as gymnasium's own vector
    environments) every array returned is fresh. With ``copy=False``,
    ``obs["observation"]``, ``obs["action_mask"]``, ``truncated``,
    ``info["to_play"]`` and ``info["rewards"]`` are views of the
    environment's buffers, overwritten in place by the next ``reset()`` or
    ``step()``; ``reward``, ``terminated``, ``info["acted"]`` and
    ``obs["all_observations"]`` are fresh either way.

    ``info`` is gymnasium's dict of arrays, each key ``k`` with its ``_k``
    (which games have it: all of them here). ``reset`` gives ``to_play``;
    ``step`` gives ``to_play``, ``acted`` and ``rewards``.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs,
        variant="classic",
        players=None,
        options=None,
        *,
        seed=None,
        episode="game",
        reward="win",
        max_hands=500,
        threads=None,
        copy=True,
        observations=True,
        masks=True,
        all_observations=False,
    ):
        self._generator_seed = _check_seed(seed, "seed")
        self._inner = _canasta.VecEnv(
            num_envs,
            variant,
            players,
            options,
            seed=0,
            episode=episode,
            reward=reward,
            max_hands=max_hands,
            threads=threads,
            autoreset="next-step",
            observations=bool(observations),
            masks=bool(masks),
        )
        self._keys = [
            key
            for key, on in (
                ("observation", observations),
                ("action_mask", masks),
                ("all_observations", all_observations),
            )
            if on
        ]
        self._np_random = None
        self._np_random_seed = None
        self._reset_done = False
        self._copy = bool(copy)
        self.num_envs = self._inner.num_envs
        self.players = self._inner.players
        every = {
            "observation": spaces.Box(
                -np.inf, np.inf, shape=(self._inner.observation_size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            "all_observations": spaces.Box(
                -np.inf,
                np.inf,
                shape=(self._inner.players, self._inner.observation_size),
                dtype=np.float32,
            ),
        }
        self.single_observation_space = spaces.Dict({k: every[k] for k in self._keys})
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._to_play = self._inner.to_play().copy()

    @property
    def np_random(self):
        """The generator of the seeds ``reset()`` draws when given none."""
        if self._np_random is None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(
                self._generator_seed
            )
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random = value

    def reset(self, *, seed=None, options=None):
        """Restarts every game; returns ``(obs, info)`` (see the class)."""
        if seed is not None:
            seed = _check_seed(seed, "reset seed")
        if options:
            raise ValueError(
                f"reset options {sorted(options)!r}: canasta.vector.VecEnv takes none "
                "(the form is fixed when the environment is made)"
            )
        if seed is None:
            seed = int(self.np_random.integers(0, _SEED_LIMIT, dtype=np.uint64))
        else:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        self._inner.reset(seed)
        self._reset_done = True
        to_play = self._inner.to_play()
        self._to_play = to_play.copy()
        info = {"to_play": self._out(to_play), "_to_play": self._everyone()}
        return self._observation(), info

    def step(self, actions):
        """Steps every game with its action id; returns ``(obs, reward,
        terminated, truncated, info)`` (see the class)."""
        if not self._reset_done:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        actions = self._actions(actions)
        _, rewards, dones = self._inner.step(actions)
        acted = self._to_play
        to_play = self._inner.to_play()
        self._to_play = to_play.copy()
        truncated = self._inner.truncations()
        terminated = dones & ~truncated
        reward = np.zeros(self.num_envs, dtype=np.float32)
        played = acted >= 0
        reward[played] = rewards[np.flatnonzero(played), acted[played]]
        info = {
            "to_play": self._out(to_play),
            "_to_play": self._everyone(),
            "acted": acted,
            "_acted": self._everyone(),
            "rewards": self._out(rewards),
            "_rewards": self._everyone(),
        }
        return self._observation(), reward, terminated, self._out(truncated), info

    def sample_legal(self):
        """A uniform legal id for every game, drawn in Rust from each game's
        own seeded stream (0 for a game that restarts at the next step)."""
        return self._inner.sample_legal().copy()

    def game(self, i):
        """Game ``i`` as a ``canasta.Game`` (a copy, for inspection)."""
        return self._inner.game(i)

    def _observation(self):
        out = {}
        if "observation" in self._keys:
            out["observation"] = self._out(self._inner.observations())
        if "action_mask" in self._keys:
            out["action_mask"] = self._out(self._inner.action_masks().view(np.int8))
        if "all_observations" in self._keys:
            out["all_observations"] = self._inner.all_observations()
        return out

    def _out(self, array):
        return array.copy() if self._copy else array

    def _everyone(self):
        return np.ones(self.num_envs, dtype=bool)

    def _actions(self, actions):
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integer action ids, one per game; got dtype {a.dtype}"
            )
        if a.shape != (self.num_envs,):
            raise ValueError(
                f"step needs one action id per game: shape ({self.num_envs},), got {a.shape}"
            )
        if a.dtype.kind == "u" and a.size and a.max() >= NUM_ACTIONS:
            # Not representable as int64 perhaps; no game has such an id.
            i = int(np.argmax(a >= NUM_ACTIONS))
            raise ValueError(
                f"game {i}: action id {int(a[i])} is not an id (0..{NUM_ACTIONS - 1})"
            )
        return np.ascontiguousarray(a, dtype=np.int64)

    def __repr__(self):
        return f"canasta.vector.VecEnv(num_envs={self.num_envs})"


def _check_seed(seed, what):
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(
            f"{what} must be one integer in 0..2**64 (the games of the batch are "
            f"numbered in one stream), not {type(seed).__name__} {seed!r}"
        )
    if not 0 <= int(seed) < _SEED_LIMIT:
        raise ValueError(f"{what} {int(seed)} is not in 0..2**64")
    return int(seed)
