"""A PettingZoo AEC environment of Canasta.

    >>> import canasta
    >>> env = canasta.env("classic", players=4, episode="hand")
    >>> env.reset(seed=42)
    >>> for agent in env.agent_iter():
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     if terminated or truncated:
    ...         action = None
    ...     else:
    ...         action = env.action_space(agent).sample(obs["action_mask"])
    ...     env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat ``i`` is ``player_i``;
in partnership games seats ``i`` and ``i + teams`` are partners). Each
agent observes a dict: ``observation``, the float32 tensor of what its seat
may know (``canasta.Game.observation``; layout in docs/python.md), and
``action_mask``, int8 over the ``canasta.NUM_ACTIONS`` ids (all zero when
the agent is not to act). Actions are ``Discrete(NUM_ACTIONS)`` ids of the
flat action space: a compound action (an opening, a pickup with its meld)
is spelled over several ids by the same agent, so the same agent is often
selected several times in a row, and a partner is selected to answer "may
I go out?". Rewards come only at the end (``canasta.Game.returns``:
zero-sum; ``reward="win"`` +-1, ``reward="points"`` score margins in
thousands); all agents are then terminated (truncated instead when a whole
game, ``episode="game"``, stops unfinished after ``max_hands``).
"""

import random as _random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._canasta import NUM_ACTIONS, Game

__all__ = ["env", "raw_env", "CanastaEnv"]


def env(
    variant="classic",
    players=None,
    options=None,
    *,
    episode="hand",
    reward="win",
    max_hands=500,
    render_mode=None,
    seed=None,
    record=False,
    illegal_reward=None,
):
    """A Canasta AEC environment wrapped as PettingZoo's classic games are:
    out-of-bounds actions and calls out of order are errors. An illegal id
    raises ``ValueError``; with ``illegal_reward`` (a number) it ends the
    episode instead, that reward to the offender and 0 to the others
    (PettingZoo's TerminateIllegalWrapper)."""
    e = CanastaEnv(
        variant,
        players,
        options,
        episode=episode,
        reward=reward,
        max_hands=max_hands,
        render_mode=render_mode,
        seed=seed,
        record=record,
    )
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def raw_env(*args, **kwargs):
    """The environment without wrappers."""
    return CanastaEnv(*args, **kwargs)


class CanastaEnv(AECEnv):
    """Canasta of one form (a preset ``variant``, ``players`` and house-rule
    ``options``, as ``canasta.Game`` takes them) as an AEC environment.

    ``episode="hand"`` (default) plays one hand, ``"game"`` a whole game to
    the target score (at most ``max_hands`` hands). ``seed`` seeds the first
    ``reset()``; ``reset(seed=s)`` plays the deal of ``canasta.Game(...,
    seed=s)``, and later resets without a seed draw new deals from it.
    ``render_mode="ansi"`` makes ``render()`` return the whole position in
    words -- every hand included, so it is for people, not for agents. The
    game is ``env.unwrapped.game`` (a ``canasta.Game``), for analysis.
    """

    metadata = {
        "name": "canasta_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant="classic",
        players=None,
        options=None,
        *,
        episode="hand",
        reward="win",
        max_hands=500,
        render_mode=None,
        seed=None,
        record=False,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"not {render_mode!r}"
            )
        self.render_mode = render_mode
        self._config = dict(
            variant=variant,
            players=players,
            options=dict(options) if options else None,
            episode=episode,
            reward=reward,
            max_hands=max_hands,
            record=record,
        )
        self._episode = episode
        probe = self._new_game(0)  # checks the arguments; gives the sizes
        n = probe.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf,
                    high=np.inf,
                    shape=(probe.observation_size,),
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {
            a: (obs_space if i == 0 else _copy_space(obs_space))
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._next_seed = None if seed is None else int(seed) % 2**64
        self._rng = _random.Random(seed)
        self.game = None
        self.agents = []

    def _new_game(self, seed):
        c = self._config
        return Game(
            c["variant"],
            c["players"],
            c["options"],
            seed=seed,
            episode=c["episode"],
            reward=c["reward"],
            max_hands=c["max_hands"],
            record=c["record"],
        )

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            game_seed = int(seed) % 2**64
            self._rng = _random.Random(game_seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(game_seed + i)
                self.observation_spaces[a].seed(game_seed + i)
        elif self._next_seed is not None:
            game_seed = self._next_seed
        else:
            game_seed = self._rng.getrandbits(64)
        self._next_seed = None
        self.game = self._new_game(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select_mover()

    def _select_mover(self):
        mover = self.game.current_player
        if mover >= 0:
            self.agent_selection = self.possible_agents[mover]
        elif not self.game.is_terminal():  # pragma: no cover - engine bug
            raise RuntimeError(f"the game is at a chance node ({mover}); it should deal itself")

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.game.is_terminal() and self.game.current_player == seat:
            mask[self.game.legal_action_mask()] = 1
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        # Raises ValueError on an illegal id, leaving the game unchanged.
        self.game.step(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_terminal():
            returns = self.game.returns()
            # A whole game cut off after max_hands is truncated, not over.
            truncated = self._episode == "game" and self.game.phase != "game_over"
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        else:
            self._select_mover()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.game is None:
            return ""
        return self.game.describe()

    def state(self):
        """The whole position in words (every hand: not for agents)."""
        return self.game.describe()

    def close(self):
        pass


def _copy_space(space):
    """An equal space that is a different object (each agent seeds its own)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=space["observation"].low,
                high=space["observation"].high,
                dtype=np.float32,
            ),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )
