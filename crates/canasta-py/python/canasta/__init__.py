"""Canasta for game-AI research: every form of the game, exact to the rule
books, from the Rust engine of this repository (crates/canasta-core).

    >>> import random, canasta
    >>> game = canasta.Game("samba", players=4, seed=1)
    >>> while not game.is_terminal():
    ...     game.step(random.choice(game.legal_actions()))

- ``canasta.Game``: one game, decisions taken whole (``game.apply("draw")``)
  or in steps of the flat action space (``game.step(id)``).
- ``canasta.VecEnv``: many games stepped at once in Rust.
- ``canasta.bots``: the engine's random, heuristic and IS-MCTS bots.
- ``canasta.evaluate(agent, against=...)``: win rate and margin against a
  bot on duplicate deals, as ``canasta tournament`` measures.
- ``canasta.env(...)``: a PettingZoo AEC environment.
- ``canasta.openspiel``: OpenSpiel games, registered when ``pyspiel`` is
  installed (names start with ``canasta``).
- ``canasta.protocol.serve(agent)``: seat a Python agent in
  ``canasta tournament`` through the bot protocol.

The layouts of the action ids and of the observation tensor are in
docs/python.md.
"""

from ._canasta import (  # noqa: F401
    ADD,
    ASK,
    CANASTA,
    CARD,
    DISCARD,
    DRAW,
    END,
    MELD,
    MELD_SLOTS,
    NEXT_GROUP,
    NO,
    NUM_ACTIONS,
    NUM_FACES,
    PICKUP_ONTO,
    PICKUP_WITH,
    YES,
    Bot,
    Game,
    VecEnv,
    action_id,
    action_name,
    options,
    spell,
    variants,
)
from . import bots  # noqa: F401
from .evaluate import evaluate  # noqa: F401

__all__ = [
    "Game",
    "VecEnv",
    "Bot",
    "bots",
    "evaluate",
    "variants",
    "options",
    "action_name",
    "action_id",
    "spell",
    "env",
    "NUM_ACTIONS",
]


def env(variant="classic", players=None, options=None, **kwargs):
    """A PettingZoo AEC environment of one form (see canasta.pettingzoo)."""
    from .pettingzoo import env as make

    return make(variant=variant, players=players, options=options, **kwargs)


try:  # OpenSpiel is optional: register the games when it is installed.
    import pyspiel as _pyspiel  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    pass
else:
    from . import openspiel  # noqa: F401
