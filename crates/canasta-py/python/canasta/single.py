"""One learner against the engine's bots, as a gymnasium environment.

    >>> import canasta
    >>> env = canasta.vs_bots("classic", players=4, bots="heuristic", seat=0)
    >>> obs, info = env.reset(seed=1)
    >>> while True:
    ...     action = env.action_space.sample(obs["action_mask"])
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     if terminated or truncated:
    ...         break

The learner plays one seat (``seat``; ``seat=None`` draws the seat of each
episode uniformly from the episode's seeded stream); the bots (``bots``: one bot's name as ``canasta sim
--bots`` takes it, or one name a seat) play all the others, its partner
included, between the learner's steps. For algorithms written for one
agent (PPO, DQN from stable-baselines3 or CleanRL).

Observations are a dict: ``observation``, the float32 tensor of what the
learner's seat may know (``canasta.Game.observation``; layout in
docs/python.md), and ``action_mask``, int8 over the ``canasta.NUM_ACTIONS``
ids. Actions are ``Discrete(NUM_ACTIONS)`` ids of the flat action space: a
compound action is spelled over several steps, with the bots' moves in
between only once it is whole. The reward is the learner's return at the
end (``reward="win"``: +1 for a win, -1/(sides-1) for a loss, zero-sum;
``"points"``: the score margin in thousands), 0 before. A whole game cut off
after ``max_hands`` hands is truncated, not terminated. An illegal id
raises ``ValueError`` and changes nothing; with ``illegal_reward`` (a
number) it ends the episode instead, with that reward (as PettingZoo's
TerminateIllegalWrapper; gymnasium's ``check_env`` steps unmasked ids).

``info`` holds ``seat``, ``to_play`` (the learner's seat), ``decisions``
(whole actions taken in the game so far) and, at the end, ``scores``.

Seeding: ``reset(seed=s)`` reproduces the whole episode: the deal, the
learner's seat (with ``seat=None``) and the bots' choices (each bot seeded
as ``canasta sim`` seeds it for the game's seed). ``reset()`` without a seed
goes on with the stream of the last seed given (unseeded at first). A bot
whose search is limited by time (``ismcts-hard@200ms``) thinks as far as the
clock lets it, so its choices, and the episode, may differ from run to run;
give it iterations (``ismcts@500``) to reproduce.
"""

import random as _random

import gymnasium
import numpy as np
from gymnasium import spaces

from ._canasta import NUM_ACTIONS, Bot, Game, seat_seeds

__all__ = ["vs_bots", "VsBots"]


def vs_bots(variant="classic", players=None, options=None, *, bots="heuristic", seat=0,
            episode="hand", reward="win", max_hands=500, illegal_reward=None):
    """A gymnasium environment: the learner at `seat`, `bots` elsewhere."""
    return VsBots(variant, players, options, bots=bots, seat=seat, episode=episode,
                  reward=reward, max_hands=max_hands, illegal_reward=illegal_reward)


class VsBots(gymnasium.Env):
    """See the module's documentation."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant="classic", players=None, options=None, *, bots="heuristic",
                 seat=0, episode="hand", reward="win", max_hands=500, illegal_reward=None,
                 render_mode=None):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        # Checks every argument with the engine's words.
        probe = Game(variant, players, options, episode=episode, reward=reward,
                     max_hands=max_hands, record=False)
        self._players = probe.players
        if seat is not None and not 0 <= int(seat) < self._players:
            raise ValueError(f"seat must be None or 0..{self._players - 1}, not {seat!r}")
        names = [bots] * self._players if isinstance(bots, str) else list(bots)
        if len(names) != self._players:
            raise ValueError(f"bots: one name, or one a seat ({self._players}), not {len(names)}")
        for name in names:
            Bot(name, 0)  # an unknown name is refused here, not mid-game
        self._names = names
        self._form = dict(variant=variant, players=players, options=options, episode=episode,
                          reward=reward, max_hands=max_hands)
        self._episode = episode
        self._illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self._ended_illegally = False
        self._fixed_seat = None if seat is None else int(seat)
        size = probe.observation_size
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.MultiBinary(NUM_ACTIONS),
        })
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game = None
        self.seat = self._fixed_seat if self._fixed_seat is not None else 0
        self._rng = _random.Random()

    # -- gymnasium ------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = _random.Random(seed)
            self.action_space.seed(seed)
            self.observation_space.seed(seed)
        game_seed = self._rng.getrandbits(64)
        # The seat comes from the seeded stream too: counting episodes
        # instead would give reset(seed=s) a different seat each time.
        if self._fixed_seat is None:
            self.seat = self._rng.randrange(self._players)
        self.game = Game(seed=game_seed, **self._form)
        self._ended_illegally = False
        bot_seeds = seat_seeds(game_seed, 0, self._players)
        self._bots = [None if s == self.seat else Bot(self._names[s], bot_seeds[s])
                      for s in range(self._players)]
        self._bots_play()
        return self._observe(), self._info()

    def step(self, action):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_terminal() or self._ended_illegally:
            raise RuntimeError("the episode is over: call reset()")
        try:
            self.game.step(int(action))  # ValueError for an illegal id; nothing changes
        except ValueError:
            if self._illegal_reward is None:
                raise
            self._ended_illegally = True
            info = dict(self._info(), illegal=True)
            return self._observe(), self._illegal_reward, True, False, info
        self._bots_play()
        over = self.game.is_terminal()
        truncated = over and self._episode == "game" and self.game.phase != "game_over"
        reward = float(self.game.returns()[self.seat]) if over else 0.0
        return self._observe(), reward, over and not truncated, truncated, self._info()

    def render(self):
        if self.render_mode == "ansi" and self.game is not None:
            return self.game.describe()
        return None

    # -- the table --------------------------------------------------------------

    def _bots_play(self):
        game = self.game
        while not game.is_terminal() and game.current_player != self.seat:
            self._bots[game.current_player].play(game)

    def _observe(self):
        game = self.game
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not game.is_terminal() and not self._ended_illegally:
            mask[game.legal_actions()] = 1
        return {
            "observation": np.asarray(game.observation(self.seat), np.float32),
            "action_mask": mask,
        }

    def _info(self):
        info = {"seat": self.seat, "to_play": self.seat, "decisions": self.game.decisions}
        if self.game.is_terminal():
            info["scores"] = list(self.game.scores)
        return info
